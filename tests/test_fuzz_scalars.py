"""Regressions from the differential fuzz of scalar numerics: float -> int conversions, shifts
and powers. CPython (and NumPy for arrays) is the oracle; where kiln follows Numba the expected
value is computed (with NumPy), never written out.

* A float becoming a Python int (``int(x)``, ``math.floor/ceil/trunc``, ``round(x)``) raises as
  CPython for nan (ValueError) and the infinities (OverflowError); a finite value past int64,
  a big int in CPython, is an OverflowError in kiln, whose ints are int64.
* NumPy-style casts (``np.int8(x)``, ``astype``, elementwise conversion) are never poison: values
  that fit the int32/int64 intermediate are NumPy's (they truncate and wrap to the width);
  others (nan, inf, 1e300) give some fixed value of the dtype.
* Shifts by the width or more give 0 (or -1 for ``>>`` of a negative value); negative counts
  raise ValueError on scalars (CPython) and count as large in array operations (NumPy).
* Complex integer powers are exact as CPython's repeated multiplication; ``0j ** -1`` and
  ``0.0 ** -1`` raise ZeroDivisionError; float ** float follows Numba (inf, nan) instead of
  raising or returning a complex.
"""

import math
import warnings

import numpy as np
import pytest

import kiln
from harness import INT64_MAX, INT64_MIN, check, np_scalar_op, run, same, wrap_int64

RANGE_MSG = "float too large to convert to a 64-bit integer"

EDGES = [0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 2.5, 1e18, -1e18, 2.0 ** 62, 2.0 ** 63 - 1024,
         2.0 ** 63, -2.0 ** 63, -2.0 ** 63 - 2048, 2.0 ** 64, 1e300, -1e300, 5e-324,
         math.inf, -math.inf, math.nan, -math.nan]

F32_EDGES = [np.float32(v) for v in (0.0, 1.5, -2.5, 3.4028235e38, -3.4028235e38, 2.0 ** 63,
                                     -2.0 ** 63, 2.0 ** 62, 1e-45, math.inf, -math.inf,
                                     math.nan)]

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def check_pyint(pyfunc, *args):
    kind, value = run(pyfunc, *args)
    if kind == "ok" and isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        return check(pyfunc, *args, expected=OverflowError(RANGE_MSG))
    return check(pyfunc, *args)


# --------------------------------------------------------------------------------------------
# R1, R2: float -> Python int

def divmod_ceil(y):
    a = divmod(3.0, y)
    return divmod(y, math.ceil(1e300))


def tuple_index_int(x):
    return (1, 2, 3)[int(x)]


def trunc_shift():
    return math.trunc(1e300) >> 31


def bounded_loop(x, n):
    s = 0
    i = 0
    while i < n:
        s += int(x * i)
        i += 1
    return s


def test_r1_divmod_of_ceil_1e300_raises():
    check(divmod_ceil, 2.0, expected=OverflowError(RANGE_MSG))


def test_r1_tuple_index_of_int_1e300_raises():
    check(tuple_index_int, 1e300, expected=OverflowError(RANGE_MSG))
    check(tuple_index_int, 1.5)
    check(tuple_index_int, math.nan)


def test_r1_bounded_loop_with_bad_conversion_ends():
    check(bounded_loop, 0.5, 10)
    check(bounded_loop, 1e300, 10, expected=OverflowError(RANGE_MSG))
    check(bounded_loop, math.inf, 10)
    check(bounded_loop, math.nan, 10)


def test_r2_trunc_1e300_shift_raises_every_call():
    cf = kiln.njit(trunc_shift)
    for _ in range(3):
        check(trunc_shift, expected=OverflowError(RANGE_MSG), cfunc=cf)


def conv_int(x):
    return int(x)


def conv_floor(x):
    return math.floor(x)


def conv_ceil(x):
    return math.ceil(x)


def conv_trunc(x):
    return math.trunc(x)


def conv_round(x):
    return round(x)


PYINT_FUNCS = [conv_int, conv_floor, conv_ceil, conv_trunc, conv_round]


@pytest.mark.parametrize("fn", PYINT_FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", EDGES, ids=repr)
def test_float_to_pyint_edges(fn, x):
    check_pyint(fn, x)


@pytest.mark.parametrize("fn", PYINT_FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", F32_EDGES, ids=repr)
def test_float32_to_pyint_edges(fn, x):
    # the oracle is CPython on the same value as a float (math.trunc of a NumPy float32 is a
    # TypeError in CPython; kiln, as Numba, accepts it)
    kind, value = run(fn, float(x))
    if kind == "ok" and not INT64_MIN <= value <= INT64_MAX:
        value = OverflowError(RANGE_MSG)
    check(fn, x, expected=value)


def sum_of_ints(a):
    s = 0
    for i in range(a.shape[0]):
        s += int(a[i])
    return s


def sum_of_floors(a):
    s = 0
    for i in range(a.shape[0]):
        s += math.floor(a[i])
    return s


@pytest.mark.parametrize("fn", [sum_of_ints, sum_of_floors], ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", [None, math.nan, math.inf, -math.inf, 1e300, 2.0 ** 63])
def test_float_to_pyint_in_a_loop(fn, bad):
    a = np.linspace(-1000.5, 1000.5, 1001)
    if bad is not None:
        a[700] = bad
        a[900] = math.inf if bad != bad else math.nan  # the first bad value decides
    if bad is not None and math.isfinite(bad):
        # CPython goes on with a big int and raises at a[900]; kiln raises at a[700]
        check(fn, a, expected=OverflowError(RANGE_MSG))
    else:
        check(fn, a)


def int_of_bool_and_int(b, i):
    return int(b), int(i), math.floor(i), round(i)


def test_int_of_ints_unchanged():
    for i in (0, INT64_MAX, INT64_MIN, -7):
        check(int_of_bool_and_int, True, i)


# --------------------------------------------------------------------------------------------
# R1: NumPy-style casts are defined

def cast_all(x):
    return (np.int8(x), np.int16(x), np.int32(x), np.int64(x), np.uint8(x), np.uint16(x),
            np.uint32(x), np.uint64(x))


def np_cast(x, dt, src=np.float64):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return int(np.array([x], dtype=src).astype(dt)[0])


def fits_intermediate(x, dt):
    """Does x fit the int32/int64 intermediate of the cast to dt (kiln's defined values)?"""
    d = np.dtype(dt)
    if d == np.uint64:
        return -2.0 ** 63 <= x < 2.0 ** 64
    bits = 32 if (d.kind == "i" and d.itemsize <= 4) or d.itemsize <= 2 else 64
    return -2.0 ** (bits - 1) <= math.trunc(x) < 2.0 ** (bits - 1) if math.isfinite(x) else False


CAST_VALUES = [0.0, 1.9, -1.9, -1.0, 127.5, 128.0, 255.0, 256.0, 300.0, -129.0, 32768.0,
               65535.0, 70000.0, -70000.0, 2.0 ** 31 - 1, -2.0 ** 31, 3e9, -3e9, 1e10, -1e10,
               2.0 ** 63 - 1024, -2.0 ** 63, 2.0 ** 63, 1.8e19, 2.0 ** 64, 1e300, -1e300,
               math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("x", CAST_VALUES, ids=repr)
def test_np_scalar_casts(x):
    cf = kiln.njit(cast_all)
    got = cf(x)
    for dt, v in zip(INT_DTYPES, got):
        info = np.iinfo(dt)
        assert type(v) is int and info.min <= v <= info.max, (dt, v)
        if fits_intermediate(x, dt):
            assert v == np_cast(x, dt), (dt, x, v)
    assert cf(x) == got  # a fixed value, not garbage


def astype_to(a, probe):
    return a.astype(probe.dtype)


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("src", [np.float64, np.float32], ids=lambda d: d.__name__)
def test_astype_casts_defined(dt, src):
    vals = np_outcome(np.array, CAST_VALUES, src)  # 1e300 is inf in float32
    for n in (len(vals), 1000):  # short arrays run the scalar loop, long ones the vector loop
        a = np.resize(vals, n)
        got = kiln.njit(astype_to)(a, np.zeros(1, dt))
        assert got.dtype == dt and got.shape == a.shape
        # NumPy's element-by-element cast (its SIMD loops differ from it for uint32)
        for x, g in zip(a.tolist(), got.tolist()):
            if fits_intermediate(x, dt):
                assert g == np_cast(x, dt, src), (dt, x, g)


def cast_scalar_dt(x):
    y = np.int32(x)
    z = np.uint64(x)
    return y - y, y == y, z - z


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf, 1e300, -1e300])
def test_out_of_range_cast_is_a_value_not_poison(x):
    check(cast_scalar_dt, x, expected=(0, True, 0))


# --------------------------------------------------------------------------------------------
# R7, R16: shifts

def shift_add(a, b):
    return (a >> b) + b


def lshift(a, b):
    return a << b


def rshift(a, b):
    return a >> b


def np_outcome(fn, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args)


def test_r7_uint8_shift_by_9_long_and_short():
    for n in (3, 1000):
        a = np.full(n, 200, np.uint8)
        b = np.full(n, 9, np.uint8)
        np.testing.assert_array_equal(kiln.njit(shift_add)(a, b), shift_add(a, b))


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("fn", [shift_add, lshift, rshift], ids=lambda f: f.__name__)
def test_array_shift_counts(dt, fn):
    d = np.dtype(dt)
    w = d.itemsize * 8
    counts = list(range(0, w + 3)) + [2 * w, int(np.iinfo(dt).max)]
    if d.kind == "i":
        counts += [-1, -w, -w - 1, int(np.iinfo(dt).min)]
    cf = kiln.njit(fn)
    base = [1, 3, 5, int(np.iinfo(dt).max)] + ([-1, -5, int(np.iinfo(dt).min)] if d.kind == "i"
                                               else [])
    for n in (7, 1000):
        a = np.resize(np.array(base, dt), n)
        for c in counts:
            b = np.full(n, c, dt)
            np.testing.assert_array_equal(cf(a, b), np_outcome(fn, a, b), err_msg=f"{dt} {c}")


def test_r16_negative_array_shift_count():
    a, b = np.array([3]), np.array([-1])
    np.testing.assert_array_equal(kiln.njit(lshift)(a, b), lshift(a, b))
    np.testing.assert_array_equal(kiln.njit(rshift)(a, b), rshift(a, b))
    np.testing.assert_array_equal(kiln.njit(rshift)(-a, b), rshift(-a, b))


@pytest.mark.parametrize("a", [0, 1, 3, -3, INT64_MAX, INT64_MIN])
@pytest.mark.parametrize("c", [0, 1, 31, 62, 63, 64, 65, 70, 127, 128, 1000, -1, -64])
def test_scalar_int64_shifts(a, c):
    # int64 wraps: a << c is CPython's result modulo 2**64; a >> c is CPython's exactly;
    # a negative count raises ValueError as CPython
    kind, value = run(lshift, a, c)
    check(lshift, a, c, expected=wrap_int64(value) if kind == "ok" else value)
    check(rshift, a, c)


def test_r2_shift_of_converted_value():
    def f(x):
        return int(x) >> 31, int(x) << 40
    for x in (1e15, -1e15):
        check(f, x, expected=(int(x) >> 31, wrap_int64(int(x) << 40)))
    check(f, 1e300, expected=OverflowError(RANGE_MSG))


# --------------------------------------------------------------------------------------------
# R12: powers

def power(a, b):
    return a ** b


@pytest.mark.parametrize("z", [1 - 1j, 1 + 2j, 0.5 - 0.25j, 2j, 3 + 0j, -1.5 + 0.75j, 1 + 1j])
def test_r12_complex_integer_powers_exact(z):
    for n in list(range(-12, 13)) + [-100, -99, 99, 100, 101, -101]:
        check(power, z, n)
        check(power, z, float(n))
        check(power, z, complex(n, 0))


def test_r12_complex_other_powers():
    for b in (0.5, -2.5, 1j, 1 + 1j, 100.5):
        check(power, 1 - 1j, b, approx=1e-12)


@pytest.mark.parametrize("b", [-1, -1.0, -1 + 0j, 1j, -0.5, 0.5j, -2 + 1j])
def test_r12_complex_zero_to_negative_or_complex_raises(b):
    check(power, 0j, b)


@pytest.mark.parametrize("b", [0, 2, 0.5, 0j, 3 + 0j])
def test_complex_zero_to_nonnegative(b):
    check(power, 0j, b)


def test_complex_zero_power_in_arrays_is_numpys():
    a = np.array([0j, 0j, 1 - 1j, 0j])
    b = np.array([-1, 1j, 2, 2])
    np.testing.assert_array_equal(kiln.njit(power)(a, b), np_outcome(power, a, b))


def test_r12_float_zero_to_negative_int_raises():
    check(power, 0.0, -1)
    check(power, -0.0, -3)
    check(power, 0.0, 2)


@pytest.mark.parametrize("a,b", [(0.0, -1.0), (-0.0, -1.0), (0.0, -0.5), (10.0, 400),
                                 (10.0, 400.0), (1e308, 2.0), (-8.0, 0.5), (-8.0, 1 / 3)])
def test_r12_float_pow_follows_numba(a, b):
    # Numba types float ** float as float: inf where CPython raises, nan where it would
    # return a complex
    want = float(np_scalar_op(np.power, np.float64(a), np.float64(b)))
    same(kiln.njit(power)(a, b), want)


def pow_loop(x, n):
    s = 0.0
    for i in range(n):
        s += x ** 2 + x ** i
    return s


def test_float_int_power_in_loop():
    check(pow_loop, 1.5, 10)
    check(pow_loop, 0.0, 10)
