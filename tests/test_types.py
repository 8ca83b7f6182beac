"""Scalar, None, tuple and range types: how values cross into and out of compiled code.

Boxing follows Numba: every scalar result comes back as a *Python* scalar (``int``, ``float``,
``complex``, ``bool``), whatever NumPy scalar type went in, with the value the kiln type implies
(float32 results rounded to float32). Python ``int`` arguments are int64, ``float`` float64.
"""

import math

import numpy as np
import pytest

import kiln
from harness import INT64_MAX, INT64_MIN, UINT64_MAX, check, f32


def ident(x):
    return x


def double(x):
    return x + x


def add(a, b):
    return a + b


def swap(t):
    return t[1], t[0]


def nested(t):
    return t[0][1] + t[1], (t[1], t[0][0])


def build(a, b):
    return (a, (b, a + b), (), (True,))


def constant_indexes(t):
    return t[0], t[-1], t[1], t[-2]


def index_homogeneous(t, i):
    return t[i]


def tuple_equal(t, u):
    return t == u, t != u


def tuple_order(t, u):
    return t < u, t <= u, t > u, t >= u


def tuple_concat(t, u):
    return t + u, len(t + u), (t + u)[-1]


def tuple_slices(t):
    return t[1:], t[:-1], t[::2], t[1:2]


def contains(t, x):
    return x in t


def unpack(t):
    a, b, c = t
    return c, b, a


def sum_range(r):
    s = 0
    for i in r:
        s += i
    return s


def range_parts(r):
    return len(r), r.start, r.stop, r.step


def make_range(a, b, c):
    return range(a, b, c)


def is_none(x):
    return x is None


def no_return(x):
    x + 1


def bare_return(x):
    if x > 0:
        return
    return None


# --- scalars ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [True, False, 0, -1, 7, INT64_MAX, INT64_MIN, 0.5, -0.0,
                                   math.inf, -math.inf, math.nan, 1e-310, 1 + 2j, -0.0j, None],
                         ids=repr)
def test_python_scalars_round_trip(value):
    check(ident, value)


@pytest.mark.parametrize("np_type", [np.int8, np.int16, np.int32, np.int64,
                                     np.uint8, np.uint16, np.uint32, np.uint64])
def test_numpy_ints_come_back_as_python_ints(np_type):
    info = np.iinfo(np_type)
    for v in (info.min, info.max, 0, 1):
        check(ident, np_type(v), expected=int(v))


def test_numpy_floats_bools_complex_come_back_as_python_scalars():
    check(ident, np.float64(0.1), expected=0.1)
    check(ident, np.float32(0.1), expected=f32(0.1))
    check(ident, np.float32("nan"), expected=math.nan)
    check(ident, np.bool_(True), expected=True)
    check(ident, np.complex64(0.1 + 0.2j), expected=complex(f32(0.1), f32(0.2)))
    check(ident, np.complex128(0.1 + 0.2j), expected=0.1 + 0.2j)


def test_float32_arithmetic_stays_float32():
    x = np.float32(1.5)
    got = check(double, x, expected=float(x + x))
    assert type(got) is float
    a, b = np.float32(0.1), np.float32(0.7)
    got = check(add, a, b, expected=float(np.float32(a + b)))
    assert got == f32(got) and got != float(a) + float(b)  # rounded to float32, not float64


def test_small_ints_widen_when_combined():
    check(double, np.int8(100), expected=200)
    check(double, np.uint8(200), expected=400)


def test_python_int_is_int64_and_float_is_float64():
    f = kiln.njit(ident)
    f(3)
    f(2.5)
    f(True)
    f(np.float32(1.0))
    f(np.int8(1))
    assert f.signatures == [(kiln.int64,), (kiln.float64,), (kiln.types.from_key("bool"),),
                            (kiln.float32,), (kiln.int8,)]


def test_python_ints_beyond_int64():
    # As numba.typeof: an int in [2**63, 2**64) is uint64; outside uint64/int64 it is an error.
    f = kiln.njit(ident)
    check(ident, 2 ** 63, cfunc=f)
    check(ident, UINT64_MAX, cfunc=f)
    assert f.signatures == [(kiln.uint64,)]
    for big in (-(2 ** 63) - 1, 2 ** 64, 2 ** 70):
        with pytest.raises(OverflowError):
            f(big)
    assert f(5) == 5


def test_unsupported_argument_type_is_an_error_not_a_crash():
    f = kiln.njit(double)
    with pytest.raises((TypeError, ValueError, kiln.errors.KilnError)):
        f(object())
    assert f(2) == 4


# --- typeof -------------------------------------------------------------------------------

@pytest.mark.parametrize("value, key", [
    (True, "bool"), (1, "int64"), (1.0, "float64"), (1j, "complex128"), (None, "none"),
    (np.int8(1), "int8"), (np.int16(1), "int16"), (np.int32(1), "int32"),
    (np.int64(1), "int64"), (np.uint8(1), "uint8"), (np.uint16(1), "uint16"),
    (np.uint32(1), "uint32"), (np.uint64(1), "uint64"), (np.float32(1), "float32"),
    (np.float64(1), "float64"), (np.complex64(1), "complex64"), (2 ** 63, "uint64"),
    (np.complex128(1), "complex128"), (np.bool_(False), "bool"),
    ((1, 2), ("tuple", "int64", "int64")), ((1, 2.5, None), ("tuple", "int64", "float64", "none")),
    (((1, 2.0), (True,)), ("tuple", ("tuple", "int64", "float64"), ("tuple", "bool"))),
    ((), ("tuple",)), (range(3), "range"),
])
def test_typeof(value, key):
    t = kiln.typeof(value)
    assert t == kiln.types.from_key(key)
    assert t.key == key


def test_typeof_named_types():
    assert kiln.typeof(1) == kiln.int64
    assert kiln.typeof(1.5) == kiln.float64
    assert kiln.typeof(np.float32(1)) == kiln.float32
    assert kiln.typeof(np.uint64(1)) == kiln.uint64
    assert kiln.typeof(np.complex64(1)) == kiln.complex64


def test_typeof_unsupported_value_raises_valueerror():
    with pytest.raises(ValueError):
        kiln.typeof(object())


# --- None ---------------------------------------------------------------------------------

def test_none():
    check(ident, None)
    check(is_none, None)
    check(is_none, 3)
    check(no_return, 3)
    check(bare_return, 1)
    check(bare_return, -1)


# --- tuples -------------------------------------------------------------------------------

@pytest.mark.parametrize("t", [(), (1,), (1, 2, 3), (1, 2.5, True), (1.5, (2, 3j), None),
                               ((1, 2), (3, (4.5, False)))], ids=repr)
def test_tuples_round_trip(t):
    check(ident, t)


def test_tuple_of_numpy_scalars_boxes_python_scalars():
    check(ident, (np.int8(3), np.float32(0.5), np.uint64(UINT64_MAX)),
          expected=(3, 0.5, UINT64_MAX))


@pytest.mark.parametrize("t", [(1, 2), (1, 2.5), (None, True), ((1, 2), 3.5)], ids=repr)
def test_tuple_swap(t):
    check(swap, t)


def test_nested_tuples():
    check(nested, ((1, 2), 3))
    check(nested, ((1.5, 2), 3))
    check(build, 1, 2.5)
    check(build, True, 2)


def test_tuple_constant_index_heterogeneous():
    check(constant_indexes, (1, 2.5, None, (3, True)))
    check(constant_indexes, (1, 2))


def test_tuple_variable_index():
    t = (10, 20, 30)
    for i in (0, 1, 2, -1, -3):
        check(index_homogeneous, t, i)
    check(index_homogeneous, (0.5, 1.5), 1)


@pytest.mark.parametrize("i", [3, -4, 100])
def test_tuple_index_out_of_range_raises_indexerror(i):
    check(index_homogeneous, (10, 20, 30), i)  # IndexError('tuple index out of range')
    check(index_homogeneous, (10, 20, 30), 0)


@pytest.mark.parametrize("t, u", [((1, 2, 3), (1, 2, 4)), ((1, 2, 3), (1, 2, 3)),
                                  ((3, 2, 1), (1, 2, 3)), ((1.5, 2, 3), (1.5, 2, 3))])
def test_tuple_comparisons(t, u):
    check(tuple_equal, t, u)
    check(tuple_equal, t, t)


@pytest.mark.parametrize("t, u", [((1, 2, 3), (1, 2, 4)), ((1, 2, 3), (1, 2, 3)),
                                  ((3, 2, 1), (1, 2, 3)), ((1.5, 2, 3), (1.5, 2, 3))])
def test_tuple_ordering(t, u):
    check(tuple_order, t, u)


def test_tuple_concatenation():
    check(tuple_concat, (1, 2), (3,))
    check(tuple_concat, (1, 2.5), (None, (4, 5)))


def test_tuple_constant_slices():
    check(tuple_slices, (1, 2, 3, 4))
    check(tuple_slices, (1, 2.5, None, True))


def test_tuple_contains():
    check(contains, (1, 2, 3), 2)
    check(contains, (1, 2, 3), 5)
    check(contains, (1.5, 2.5), 2.5)


def test_tuple_unpack():
    check(unpack, (1, 2.5, True))


# --- ranges -------------------------------------------------------------------------------

@pytest.mark.parametrize("r", [range(5), range(2, 10), range(2, 10, 3), range(10, 2, -3),
                               range(0), range(5, 5), range(-5, 5, 2), range(5, -5, -1)],
                         ids=repr)
def test_range_arguments(r):
    check(sum_range, r)
    check(ident, r)


@pytest.mark.parametrize("r", [range(5), range(2, 10, 3), range(10, 2, -3), range(0)], ids=repr)
def test_range_length_and_attributes(r):
    check(range_parts, r)


@pytest.mark.parametrize("args", [(0, 5, 1), (2, 10, 3), (10, 2, -3), (5, 5, 1), (-3, 3, 2)])
def test_range_return(args):
    check(make_range, *args)


def test_range_zero_step_raises():
    check(make_range, 0, 5, 0)  # ValueError('range() arg 3 must not be zero')
    check(make_range, 0, 5, 1)
