"""Array defects found by differential fuzzing against NumPy (the correctness issue's R3-R21).

Each test runs the same function interpreted (NumPy is the oracle) and compiled, on separate
copies of the arguments, and compares the outcome: arrays by dtype, shape and values (NaN equal
to NaN), scalars by value and kind, exceptions by class (and message where kiln gives NumPy's).
Sizes that cannot be allocated are computed and rejected before anything is allocated, so these
tests never touch large memory.
"""

import traceback
import warnings

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, run

TypingError = kiln.errors.TypingError

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float32, np.float64]
COMPLEXES = [np.complex64, np.complex128]
ALL_DTYPES = [np.bool_] + INTS + FLOATS + COMPLEXES

_CACHE = {}


def jit(f):
    """kiln.njit(f), once per Python function."""
    if f not in _CACHE:
        _CACHE[f] = kiln.njit(f)
    return _CACHE[f]


def _copy(x):
    if isinstance(x, tuple):
        return tuple(_copy(v) for v in x)
    if isinstance(x, np.ndarray):
        if x.ndim == 0 or x.size == 0:
            return x.copy()
        out = np.empty_like(x, order="K")  # keeps C or F order
        if not (x.flags.c_contiguous or x.flags.f_contiguous):  # a strided view: rebuild it
            base = np.zeros(tuple(2 * n for n in x.shape), x.dtype)
            out = base[tuple(slice(None, None, 2) for _ in x.shape)]
        out[...] = x
        return out
    return x


def _same(got, want, path, approx=False):
    if isinstance(want, np.ndarray):
        assert type(got) is np.ndarray, f"{path}: expected an ndarray, got {got!r}"
        assert got.dtype == want.dtype, f"{path}: dtype {got.dtype}, NumPy gives {want.dtype}"
        assert got.shape == want.shape, f"{path}: shape {got.shape}, NumPy gives {want.shape}"
        if approx:  # a libm-dependent last bit (complex powers)
            rtol = 2.5e-7 if want.dtype.itemsize <= 8 else 1e-15
            np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True, err_msg=path)
            return
        np.testing.assert_array_equal(got, want, err_msg=path, strict=True)
    elif isinstance(want, np.generic):
        _same(got, want.item(), path)
    elif isinstance(want, tuple):
        assert type(got) is tuple and len(got) == len(want), f"{path}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and want != want:
        assert type(got) is float and got != got, f"{path}: expected nan, got {got!r}"
    elif isinstance(want, complex) and (want.real != want.real or want.imag != want.imag):
        assert type(got) is complex, f"{path}: expected a complex, got {got!r}"
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            assert (g != g and w != w) or g == w, f"{path}: {got!r}, NumPy gives {want!r}"
    else:
        assert type(got) is type(want) and got == want, f"{path}: {got!r}, NumPy gives {want!r}"


def npcheck(f, *args, exc_msg=True, approx=False):
    """Compare f interpreted (NumPy) and compiled on copies of args; return the compiled outcome.

    A failure is re-raised as a bare AssertionError, so that its traceback does not keep
    compiled arrays alive past the leak check (conftest.py)."""
    message = None
    try:
        return _npcheck(f, args, exc_msg, approx)
    except AssertionError as exc:
        message = str(exc)
        traceback.clear_frames(exc.__traceback__)
    raise AssertionError(message)


def _npcheck(f, args, exc_msg, approx):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = run(f, *_copy(args))
    cargs = _copy(args)
    got = run(jit(f), *cargs)
    call = f"{f.__name__}{args!r}"
    if want[0] == "raise":
        assert got[0] == "raise", f"{call}: NumPy raises {want[1]!r}, kiln gives {got[1]!r}"
        assert type(got[1]) is type(want[1]), f"{call}: NumPy raises {want[1]!r}, kiln {got[1]!r}"
        if exc_msg:
            assert got[1].args == want[1].args, f"{call}: {got[1].args} vs {want[1].args}"
        return got
    assert got[0] == "ok", f"{call}: kiln raises {got[1]!r}, NumPy gives {want[1]!r}"
    _same(got[1], want[1], call, approx)
    return got


def layouts(a):
    """a as C, F and strided (non-contiguous) arrays."""
    if a.ndim == 0:
        return [a.copy()]
    return [np.ascontiguousarray(a), np.asfortranarray(a), _strided(a)]


def _strided(a):
    base = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
    v = base[tuple(slice(None, None, 2) for _ in a.shape)]
    v[...] = a
    assert a.ndim < 2 or not (v.flags.c_contiguous or v.flags.f_contiguous)
    return v


# --------------------------------------------------------------------------------------------
# R3: astype between every pair of dtypes (complex to real keeps the real part).

def _astype_fn(dt):
    def astype(a):
        return a.astype(dt)
    return astype


_ASTYPE = {dt: _astype_fn(dt) for dt in ALL_DTYPES}


def _astype_inputs(src):
    vals = np.array([[0, 1, 2], [3, 4, 5]])
    if np.dtype(src).kind == "c":
        a = (vals + 1j * (vals % 3)).astype(src)
        a[0, 0] = 1j  # real part 0, imaginary part not: True as a bool, 0 as a number
    else:
        a = vals.astype(src)
    return layouts(a) + [np.array(a[0, 1]), np.zeros((0, 3), src)]


@pytest.mark.parametrize("src", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_astype_every_pair_every_layout(src):
    for dst in ALL_DTYPES:
        for a in _astype_inputs(src):
            npcheck(_ASTYPE[dst], a)


def test_astype_complex_to_float_repro():
    def f(c):
        return c.astype(np.float64)
    npcheck(f, np.array([1 + 2j, 3 - 4j, complex(np.nan, 1.0), complex(1.0, np.nan)]))


def test_astype_complex_to_int_and_bool_in_range():
    def to_i(c):
        return c.astype(np.int32)

    def to_b(c):
        return c.astype(np.bool_)
    c = np.array([0j, 1j, 2 + 0j, -3 + 5j], np.complex64)
    npcheck(to_i, c)
    npcheck(to_b, c)


# --------------------------------------------------------------------------------------------
# R4: 0-d arrays: b[...] and b[()] reads and writes.

def zero_d_ellipsis_store(b):
    b[...] = 1
    return b


def zero_d_empty_tuple_store(b):
    b[()] = 2
    return b[()]


def zero_d_ellipsis_view(b):
    v = b[...]
    v[()] = 7
    return b[()] + v[()]


def zero_d_read(b):
    return b[()]


def zero_d_ellipsis_array_store(b, c):
    b[...] = c
    return b


def zero_d_aug(b):
    b[()] += 3
    return b


def one_d_int_ellipsis(a):
    v = a[1, ...]
    v[...] = 9
    return a


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_zero_d_reads_and_writes(dt):
    b = np.zeros((), dt)
    npcheck(zero_d_ellipsis_store, b)
    npcheck(zero_d_empty_tuple_store, b)
    npcheck(zero_d_read, np.ones((), dt))
    npcheck(zero_d_ellipsis_array_store, b, np.ones((), dt))
    if dt is not np.bool_:
        npcheck(zero_d_ellipsis_view, b)
        npcheck(zero_d_aug, b)
    npcheck(one_d_int_ellipsis, np.zeros(3, dt))


# --------------------------------------------------------------------------------------------
# R5: every size computation is checked.

TOO_BIG = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum " \
          "possible size."


def empty_set(n):
    a = np.empty(n)
    a[2 ** 20] = 1.0
    return a.size


def ones_n(n):
    return np.ones(n).size


def full_n(n):
    return np.full(n, 1.5).size


def arange_f(stop):
    return np.arange(0.0, stop).size


def zeros_2(m, n):
    return np.zeros((m, n)).size


def empty_3_int8(m, n, k):
    return np.empty((m, n, k), np.int8).size


def empty_int8(n):
    return np.empty(n, np.int8).size


def empty_const():
    return np.empty(2 ** 61).size


def zeros_const():
    return np.zeros((2 ** 32, 2 ** 32)).size


def linspace_n(n):
    return np.linspace(0.0, 1.0, n).size


def eye_n(n):
    return np.eye(n).size


def identity_n(n):
    return np.identity(n).size


def arange_i(n):
    return np.arange(n).size


def reshape_3(n, a, b, c):
    return np.arange(n).reshape(a, b, c).size


def reshape_2(n, a, b):
    return np.arange(n).reshape((a, b)).size


def test_overflowing_sizes_raise_numpys_value_error_before_allocating():
    cases = [(empty_set, (2 ** 61,)), (ones_n, (2 ** 61,)), (full_n, (2 ** 60,)),
             (arange_f, (2.0 ** 61,)), (zeros_2, (2 ** 32, 2 ** 32)),
             (empty_3_int8, (2 ** 31, 2 ** 31, 4)), (empty_3_int8, (2 ** 62, 2, 0)),
             (zeros_2, (0, 2 ** 63 - 1)), (linspace_n, (2 ** 61,)), (eye_n, (2 ** 32,)),
             (identity_n, (2 ** 32,)), (arange_i, (2 ** 62,)), (empty_const, ()),
             (zeros_const, ())]
    for f, args in cases:
        got = npcheck(f, *args)
        assert got[0] == "raise" and got[1].args == (TOO_BIG,)


def test_negative_dimensions():
    for f, args in [(ones_n, (-1,)), (zeros_2, (3, -1)), (zeros_2, (-1, 0)), (eye_n, (-2,)),
                    (empty_3_int8, (2, -3, 0))]:
        got = npcheck(f, *args)
        assert got[1].args == ("negative dimensions are not allowed",)


def test_sizes_that_fit_still_work():
    for f, args in [(ones_n, (5,)), (zeros_2, (0, 2 ** 40)), (empty_3_int8, (3, 0, 2 ** 40)),
                    (zeros_2, (3, 4)), (linspace_n, (0,)), (eye_n, (0,)), (arange_i, (0,))]:
        npcheck(f, *args)


def test_allocation_failure_is_memory_error():
    # 4 EiB passes the size check but no machine can map it: NumPy and kiln raise MemoryError
    # (NumPy's message names the shape; kiln's is bare)
    for n in (2 ** 62, 2 ** 63 - 1):
        with pytest.raises(MemoryError):
            empty_int8(n)
        with pytest.raises(MemoryError):
            jit(empty_int8)(n)


def test_arange_length_nan_and_too_big():
    for stop in (float("nan"), float("inf"), 1e300):
        npcheck(arange_f, stop)


def arange_3(a, b, c):
    return np.arange(a, b, c).size


def test_int_arange_lengths_past_int64():
    for args in [(-2 ** 63, 2 ** 63 - 1, 1), (2 ** 63 - 1, -2 ** 63, -1), (0, 2 ** 62, 1),
                 (-2 ** 63, 2 ** 63 - 1, 2 ** 62), (5, 0, 1), (0, 10, 0)]:
        npcheck(arange_3, *args)


def test_linspace_negative_num_message():
    npcheck(linspace_n, -1)


def test_reshape_sizes_that_wrap_are_rejected():
    # NumPy: ValueError (its message names the shapes; kiln's does not)
    for args in [(0, 2 ** 62, 2 ** 62, 0), (0, 2 ** 32, 2 ** 32, 1), (6, -2, -3, 1),
                 (0, -1, 2 ** 62, 4)]:
        npcheck(reshape_3, *args, exc_msg=False)
    npcheck(reshape_2, 0, 2 ** 32, 2 ** 32, exc_msg=False)
    npcheck(reshape_2, 6, -2, -3, exc_msg=False)
    npcheck(reshape_2, 6, -1, 3)
    npcheck(reshape_3, 0, 0, -1, 5, exc_msg=False)


# --------------------------------------------------------------------------------------------
# R6: np.clip with bounds outside the dtype's range.

def clip_s(a, lo, hi):
    return np.clip(a, lo, hi)


def clip_const(a):
    return np.clip(a, -2, 3)


def clip_arr(a, lo, hi):
    return np.clip(a, np.array([lo]), np.array([hi]))


def clip_ufunc_arr(a, lo, hi):
    return np.clip(a, lo, hi) + 0


@pytest.mark.parametrize("dt", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
def test_clip_bounds_outside_the_dtype(dt):
    a = np.arange(6, dtype=dt)
    npcheck(clip_const, a)
    for lo, hi in [(-2, 3), (-300, 300), (1, 300), (-2 ** 40, 2 ** 40), (300, 400), (-5, -2),
                   (3, 1), (-(2 ** 63), 2 ** 63 - 1), (-1, 2 ** 63 - 1)]:
        npcheck(clip_s, a, lo, hi)
        npcheck(clip_ufunc_arr, a, lo, hi)
        npcheck(clip_arr, a, lo, hi)
    npcheck(clip_s, a, -2.5, 3.5)


def test_clip_uint8_repro():
    npcheck(clip_const, np.arange(6, dtype=np.uint8))


# --------------------------------------------------------------------------------------------
# R8: NaN propagates through complex max/min (lexicographic order) and float reductions.

def cmax(c):
    return c.max()


def cmin(c):
    return c.min()


def cmax_axis1(c):
    return c.max(axis=1)


def cmin_axis1(c):
    return c.min(axis=1)


def cmin_axis0(c):
    return c.min(axis=0)


def cargmax(c):
    return c.argmax()


def cargmin(c):
    return c.argmin()


def cargmax_axis1(c):
    return c.argmax(axis=1)


def cmaximum(a, b):
    return np.maximum(a, b)


def cminimum(a, b):
    return np.minimum(a, b)


def cfmax(a, b):
    return np.fmax(a, b)


def cfmin(a, b):
    return np.fmin(a, b)


NAN = float("nan")


def _nan_cases(dt):
    rows = []
    if np.dtype(dt).kind == "c":
        for bad in (complex(NAN, 0), complex(0, NAN), complex(NAN, NAN)):
            for pos in range(3):
                r = np.array([[1 + 1j, 2 + 0j, 1 + 3j], [0j, -1j, 5 + 5j]], dt)
                r[pos % 2, pos] = bad
                rows.append(r)
    else:
        for pos in range(3):
            r = np.array([[1, 2, 1], [0, -1, 5]], dt)
            r[pos % 2, pos] = NAN
            rows.append(r)
        r = np.array([[1, NAN, 1], [0, -1, NAN]], dt)
        rows.append(r)
    return rows


@pytest.mark.parametrize("dt", FLOATS + COMPLEXES, ids=lambda d: np.dtype(d).name)
def test_reductions_propagate_nan_every_layout(dt):
    for base in _nan_cases(dt):
        for a in layouts(base):
            for f in (cmax, cmin, cmax_axis1, cmin_axis1, cmin_axis0, cargmax, cargmin,
                      cargmax_axis1):
                npcheck(f, a)


@pytest.mark.parametrize("dt", FLOATS + COMPLEXES, ids=lambda d: np.dtype(d).name)
def test_maximum_minimum_propagate_nan(dt):
    vals = [1 + 1j, complex(NAN, 0), complex(0, NAN), 1 + 2j, 2 + 0j] \
        if np.dtype(dt).kind == "c" else [1.0, NAN, 2.0, -1.0, NAN]
    a = np.array(vals, dt)
    b = np.array(vals[::-1], dt)
    for f in (cmaximum, cminimum, cfmax, cfmin):
        npcheck(f, a, b)
        npcheck(f, b, a)


def test_maximum_minimum_of_complex_scalars():
    for x, y in [(1 + 1j, 1 + 2j), (complex(NAN, 0), 1j), (1j, complex(0, NAN)), (2j, 2j),
                 (complex(-0.0, 0.0), complex(0.0, 0.0))]:
        for f in (cmaximum, cminimum, cfmax, cfmin):
            npcheck(f, x, y)


def test_complex_max_nan_repro():
    c = np.array([[1 + 1j, complex(NAN, 0), 2 + 0j], [3j, 1 + 0j, 2j]])
    npcheck(cmax, c)
    npcheck(cmin_axis1, c)


# --------------------------------------------------------------------------------------------
# R9: integer powers of every dtype pair.

def np_power(a, b):
    return np.power(a, b)


def star_star(a, b):
    return a ** b


def power_7(a):
    return np.power(7, a)


def power_x(a, x):
    return np.power(a, x)


def test_power_scalar_exponents():
    for dt in [np.bool_] + INTS:
        a = np.array([1, 2, 3]).astype(dt)
        for x in (0, 1, 3, -1, 2 ** 40):
            npcheck(power_x, a, x)
            if dt is not np.bool_:  # NumPy's bool ** 2 is np.square (int8), ** 0 is int64
                npcheck(star_star, a, x)


def test_power_every_int_pair():
    for da in [np.bool_] + INTS:
        for db in [np.bool_] + INTS:
            a = np.array([1, 2, 3, 4]).astype(da)
            b = np.array([0, 1, 2, 3]).astype(db)
            npcheck(np_power, a, b)
            npcheck(star_star, a, b)
        npcheck(power_7, np.array([0, 1, 2, 3]).astype(da))
        npcheck(np_power, np.array([0, 1, 2, 3]).astype(da), np.array([0, 1, 2, 3]).astype(da))


def test_power_repro_int32_uint16():
    npcheck(np_power, np.arange(4, dtype=np.int32), np.arange(4, dtype=np.int32))
    npcheck(power_7, np.arange(4, dtype=np.uint16))


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.int64], ids=lambda d: d.__name__)
def test_negative_integer_powers_raise(dt):
    a = np.arange(1, 4, dtype=dt)
    b = np.array([1, -1, 2], dt)
    got = npcheck(np_power, a, b)
    assert got[1].args == ("Integers to negative integer powers are not allowed.",)
    npcheck(star_star, a, b)


# --------------------------------------------------------------------------------------------
# R20: augmented operators on array elements accept what NumPy accepts.

def aug_add(a):
    a[0] += a[-1]
    return a


def aug_sub(a):
    a[0] -= a[-1]
    return a


def aug_mul(a):
    a[0] *= a[-1]
    return a


def aug_div(a):
    a[0] /= a[-1]
    return a


def aug_floordiv(a):
    a[0] //= a[-1]
    return a


def aug_mod(a):
    a[0] %= a[-1]
    return a


def aug_pow(a):
    a[0] **= a[-1]
    return a


def aug_lshift(a):
    a[0] <<= a[-1]
    return a


def aug_rshift(a):
    a[0] >>= a[-1]
    return a


def aug_and(a):
    a[0] &= a[-1]
    return a


def aug_or(a):
    a[0] |= a[-1]
    return a


def aug_xor(a):
    a[0] ^= a[-1]
    return a


AUG = [aug_add, aug_sub, aug_mul, aug_div, aug_floordiv, aug_mod, aug_pow, aug_lshift,
       aug_rshift, aug_and, aug_or, aug_xor]


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_augmented_ops_on_elements_accept_as_numpy(dt):
    for f in AUG:
        a = np.array([3, 2], dt)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = run(f, a.copy())
        if want[0] == "ok":
            npcheck(f, a)
            continue
        assert isinstance(want[1], TypeError)
        with pytest.raises((TypingError, kiln.errors.UnsupportedError)):
            jit(f)(a.copy())


def augv_add(a, v):
    a[1] += v
    return a


def augv_sub(a, v):
    a[1] -= v
    return a


def augv_mul(a, v):
    a[1] *= v
    return a


def augv_div(a, v):
    a[1] /= v
    return a


def augv_floordiv(a, v):
    a[1] //= v
    return a


def augv_mod(a, v):
    a[1] %= v
    return a


def augv_pow(a, v):
    a[1] **= v
    return a


def augv_lshift(a, v):
    a[1] <<= v
    return a


def augv_rshift(a, v):
    a[1] >>= v
    return a


def augv_and(a, v):
    a[1] &= v
    return a


def augv_or(a, v):
    a[1] |= v
    return a


def augv_xor(a, v):
    a[1] ^= v
    return a


AUGV = [augv_add, augv_sub, augv_mul, augv_div, augv_floordiv, augv_mod, augv_pow, augv_lshift, augv_rshift, augv_and, augv_or, augv_xor]


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_augmented_ops_on_elements_with_python_scalars(dt):
    for f in AUGV:
        for v in (True, 2, 1.5, 1j):
            a = np.array([3, 2], dt)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = run(f, a.copy(), v)
            if isinstance(v, complex) and np.dtype(dt).kind != "c":
                # NumPy stores the complex result's real part with a ComplexWarning; kiln
                # cannot warn, and rejects storing a complex into a real array at compile time
                with pytest.raises(TypingError):
                    jit(f)(a.copy(), v)
                continue
            if want[0] == "ok":
                npcheck(f, a, v, approx=f is augv_pow and np.dtype(dt).kind == "c")
                continue
            with pytest.raises((TypingError, kiln.errors.UnsupportedError)):
                jit(f)(a.copy(), v)


def augv_complex_into_float(a):
    a[0] += 1j
    return a


def test_complex_augmented_into_real_element_is_positioned():
    with pytest.raises(TypingError) as e:
        jit(augv_complex_into_float)(np.zeros(2))
    assert_diagnostic(e.value, TypingError, augv_complex_into_float, "a[0] += 1j")


def bool_sub_elem(a):
    a[0] -= a[-1]
    return a


def bool_sub_const(a):
    a[1] -= True
    return a


def test_bool_element_subtract_is_a_positioned_typing_error():
    a = np.array([True, True])
    with pytest.raises(TypeError):  # NumPy: numpy boolean subtract ... (UFuncTypeError)
        bool_sub_elem(a.copy())
    with pytest.raises(TypingError) as e:
        jit(bool_sub_elem)(a.copy())
    assert_diagnostic(e.value, TypingError, bool_sub_elem, "a[0] -= a[-1]",
                      contains=("boolean subtract",))
    with pytest.raises(TypingError) as e:
        jit(bool_sub_const)(a.copy())
    assert_diagnostic(e.value, TypingError, bool_sub_const, "a[1] -= True",
                      contains=("boolean subtract",))


def test_bool_element_other_ops_as_numpy():
    # NumPy 2 accepts a[0] //= a[-1] of bools (np.True_ // np.True_ is int8 1, stored as True)
    npcheck(aug_floordiv, np.array([True, True]))
    npcheck(aug_add, np.array([False, True]))


# --------------------------------------------------------------------------------------------
# R21: a Python int that does not fit the array's dtype (NumPy 2, NEP 50).

def add_300(a):
    return a + 300


def add_x(a, x):
    return a + x


def radd_x(a, x):
    return x - a


def mul_x(a, x):
    return a * x


def iadd_x(a, x):
    a += x
    return a


def fused_x(a, x):
    return (a + 1) * x + a


def max_x(a, x):
    return np.maximum(a, x)


def min_x(a, x):
    return np.minimum(a, x)


def fmax_x(a, x):
    return np.fmax(a, x)


def add_fn_x(a, x):
    return np.add(a, x)


def shift_x(a, x):
    return a << x


def and_x(a, x):
    return a & x


def floordiv_x(a, x):
    return a // x


def pow_x(a, x):
    return a ** x


def full_like_x(a, x):
    return np.full_like(a, x)


def full_like_m1(a):
    return np.full_like(a, -1)


def maximum_m1(a):
    return np.maximum(a, -1)


def lt_x(a, x):
    return a < x


def eq_x(a, x):
    return a == x


def ge_x(a, x):
    return x >= a


def where_x(c, a, x):
    return np.where(c, a, x)


def truediv_x(a, x):
    return a / x


def setitem_from_array(a, b):
    a[0] = b[0]  # b[0] is a NumPy int64 scalar: converted (wrapping), as NumPy does
    return a


# a[i] = x, a[:] = x and a.fill(x) are left out: they convert as astype does, wrapping, like
# Numba (specified in test_arrays.py: test_small_int_store_wraps_like_astype and
# test_fill_small_int_wraps_like_astype), where NumPy 2 raises OverflowError.
R21_OPS = [add_x, radd_x, mul_x, iadd_x, fused_x, max_x, min_x, fmax_x, add_fn_x, shift_x,
           and_x, floordiv_x, pow_x, full_like_x, lt_x, eq_x, ge_x, truediv_x]


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_python_int_out_of_dtype_range(dt):
    a = np.arange(1, 4, dtype=dt)
    info = np.iinfo(dt)
    xs = [0, 2, -1, 300, -129, 70000, -(2 ** 31) - 1, 2 ** 32, int(info.max), int(info.min),
          2 ** 63 - 1, -(2 ** 63)]
    for f in R21_OPS:
        for x in xs:
            if f in (shift_x, pow_x) and not 0 <= x < 8:
                continue  # shift counts and negative powers: other checks
            if f is floordiv_x and x == 0:
                continue
            npcheck(f, a, x)


def test_python_int_repros():
    a = np.arange(3, dtype=np.uint8)
    got = npcheck(add_300, a)
    assert got[1].args == ("Python integer 300 out of bounds for uint8",)
    npcheck(maximum_m1, a)
    npcheck(full_like_m1, a)
    npcheck(where_x, np.array([True, False, True]), a, 2)


def test_numpy_int64_element_converts_like_numpy():
    npcheck(setitem_from_array, np.zeros(2, np.uint8), np.array([300, 1]))


def full_uint8(n, x):
    return np.full(n, x, np.uint8)


def test_full_with_dtype_and_python_int():
    npcheck(full_uint8, 3, 300)
    npcheck(full_uint8, 3, 255)
    npcheck(full_uint8, 3, -1)


# --------------------------------------------------------------------------------------------
# R15: ndarray subclasses whose meaning compiled code would drop are rejected.

def total(a):
    return a.sum()


def test_masked_array_and_matrix_rejected_at_typeof():
    masked = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    with pytest.raises(TypeError, match=r"numpy\.ma\.MaskedArray"):
        jit(total)(masked)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        matrix = np.matrix([[1.0, 2.0]])
    with pytest.raises(TypeError, match=r"numpy\.matrix"):
        jit(total)(matrix)


class MyArray(np.ndarray):
    pass


def test_user_subclass_rejected_and_plain_array_still_fine():
    with pytest.raises(TypeError, match="MyArray"):
        jit(total)(np.arange(3.0).view(MyArray))
    npcheck(total, np.arange(3.0))


def test_subclass_rejected_with_an_explicit_signature():
    f = kiln.njit("float64(float64[:])")(total)
    with pytest.raises(TypeError, match=r"numpy\.ma\.MaskedArray"):
        f(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))
    assert f(np.arange(3.0)) == 3.0


def test_memmap_is_a_plain_buffer(tmp_path):
    mm = np.memmap(tmp_path / "data.bin", dtype=np.float64, mode="w+", shape=(4,))
    mm[:] = [1.0, 2.0, 3.0, 4.0]
    assert jit(total)(mm) == 10.0
    assert jit(total)(mm[1:]) == 9.0
    del mm
