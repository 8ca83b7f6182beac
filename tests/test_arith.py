"""Arithmetic, bitwise and comparison operators on scalars, checked against CPython.

Where kiln follows Numba rather than CPython the expected value is computed explicitly:

* int64 arithmetic wraps at 64 bits (``wrap_int64`` of the exact Python result);
* ``int ** negative int`` raises ValueError, as NumPy does (kiln's choice; Numba returns
  ``0``/``±1`` or raises ZeroDivisionError for a zero base);
* NumPy scalar operands follow Numba's integer typing (NBEP 1: integers narrower than 64 bits
  widen to 64 bits, unsigned stays unsigned, mixed signed/unsigned becomes int64) and return
  Python scalars; float32 results are rounded to float32.
"""

import math
import operator

import numpy as np
import pytest
from hypothesis import assume, example, given, strategies as st

import kiln
from harness import (HSET, INT64_MAX, INT64_MIN, UINT64_MAX, check, f32,
                     np_scalar_op, wrap_int64, wrap_uint64)


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def truediv(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def power(a, b):
    return a ** b


def neg(a):
    return -a


def pos(a):
    return +a


def invert(a):
    return ~a


def logical_not(a):
    return not a


def band(a, b):
    return a & b


def bor(a, b):
    return a | b


def bxor(a, b):
    return a ^ b


def lshift(a, b):
    return a << b


def rshift(a, b):
    return a >> b


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def chain_lt(a, b, c):
    return a < b < c


def chain_mixed(a, b, c, d):
    return a <= b > c != d


def expression(a, b, c):
    return (a + b) * c - a / (b + 1.5) + (c - a) % 7


int64s = st.integers(INT64_MIN, INT64_MAX)
exact_ints = st.integers(-(2 ** 53), 2 ** 53)  # exactly representable as float64
finite = st.floats(allow_nan=False, allow_infinity=False)
any_float = st.floats()
moderate = st.floats(-1e6, 1e6)
complexes = st.builds(complex, moderate, moderate)

ARITH = [add, sub, mul]
COMPARE = [lt, le, gt, ge, eq, ne]


# --- integers -----------------------------------------------------------------------------

@pytest.mark.parametrize("op", ARITH, ids=lambda f: f.__name__)
@HSET
@given(a=int64s, b=int64s)
@example(a=INT64_MAX, b=1)
@example(a=INT64_MIN, b=-1)
def test_int64_add_sub_mul_wrap_at_64_bits(op, a, b):
    check(op, a, b, expected=wrap_int64(op(a, b)))


@pytest.mark.parametrize("op", ARITH, ids=lambda f: f.__name__)
@HSET
@given(a=st.integers(-(2 ** 31), 2 ** 31), b=st.integers(-(2 ** 31), 2 ** 31))
def test_int64_add_sub_mul_without_overflow_match_cpython(op, a, b):
    check(op, a, b)


def test_int64_overflow_matches_numpy():
    big = np.int64(INT64_MAX)
    check(add, INT64_MAX, 1, expected=int(np_scalar_op(operator.add, big, np.int64(1))))
    check(mul, INT64_MAX, 3, expected=int(np_scalar_op(operator.mul, big, np.int64(3))))
    check(sub, INT64_MIN, 1, expected=int(np_scalar_op(operator.sub, np.int64(INT64_MIN),
                                                       np.int64(1))))
    check(neg, INT64_MIN, expected=int(np_scalar_op(operator.neg, np.int64(INT64_MIN))))


@pytest.mark.parametrize("op", [floordiv, mod], ids=lambda f: f.__name__)
@HSET
@given(a=int64s, b=int64s)
@example(a=7, b=2)
@example(a=-7, b=2)
@example(a=7, b=-2)
@example(a=-7, b=-2)
@example(a=INT64_MIN, b=INT64_MAX)
def test_int_floordiv_mod_python_signs(op, a, b):
    assume(b != 0 and not (a == INT64_MIN and b == -1))
    check(op, a, b)


@pytest.mark.parametrize("a, b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (0, -5)])
def test_int_floordiv_mod_negative_operands(a, b):
    assert check(floordiv, a, b) * b + check(mod, a, b) == a


@HSET
@given(a=exact_ints, b=exact_ints)
def test_int_true_division_gives_float(a, b):
    assume(b != 0)
    check(truediv, a, b)


def test_int_true_division_of_large_ints_converts_operands_first():
    # CPython divides big ints exactly and rounds once; kiln (as Numba) converts each int64
    # to float64 first, then divides.
    a, b = INT64_MAX, 3
    check(truediv, a, b, expected=float(a) / float(b))


@HSET
@given(a=int64s, b=st.integers(0, 70))
@example(a=2, b=63)
@example(a=-2, b=63)
@example(a=3, b=0)
@example(a=0, b=0)
def test_int_power_wraps(a, b):
    check(power, a, b, expected=wrap_int64(pow(a, b, 2 ** 64)))


@pytest.mark.parametrize("a, b", [(2, -1), (0, -1), (1, -1), (-1, -3), (10, -2)])
def test_int_power_negative_exponent_raises_valueerror(a, b):
    check(power, a, b,
          expected=ValueError("Integers to negative integer powers are not allowed."))
    check(power, a, 2, expected=a * a)  # still usable


@HSET
@given(a=int64s)
def test_int_unary(a):
    check(neg, a, expected=wrap_int64(-a))
    check(pos, a)
    check(invert, a)
    check(logical_not, a)


@pytest.mark.parametrize("op", [band, bor, bxor], ids=lambda f: f.__name__)
@HSET
@given(a=int64s, b=int64s)
def test_int_bitwise(op, a, b):
    check(op, a, b)


@HSET
@given(a=int64s, b=st.integers(0, 63))
def test_int_shifts(a, b):
    check(lshift, a, b, expected=wrap_int64(a << b))
    check(rshift, a, b)


@pytest.mark.parametrize("op", [band, bor, bxor], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", [True, False])
@pytest.mark.parametrize("b", [True, False])
def test_bool_bitwise_stays_bool(op, a, b):
    check(op, a, b)


@pytest.mark.parametrize("a", [True, False])
def test_bool_unary(a):
    check(neg, a)
    check(pos, a)
    check(logical_not, a)


@pytest.mark.parametrize("op", COMPARE, ids=lambda f: f.__name__)
@HSET
@given(a=int64s, b=int64s)
def test_int_comparisons(op, a, b):
    check(op, a, b)


# --- floats -------------------------------------------------------------------------------

@pytest.mark.parametrize("op", ARITH + [truediv], ids=lambda f: f.__name__)
@HSET
@given(a=any_float, b=any_float)
@example(a=0.1, b=0.2)
@example(a=-0.0, b=0.0)
@example(a=1e308, b=10.0)
def test_float_arith_bit_exact(op, a, b):
    assume(not (op is truediv and b == 0.0))
    check(op, a, b)


@pytest.mark.parametrize("op", [floordiv, mod], ids=lambda f: f.__name__)
@HSET
@given(a=finite, b=finite)
@example(a=7.5, b=2.0)
@example(a=-7.5, b=2.0)
@example(a=7.5, b=-2.0)
@example(a=-7.5, b=-2.0)
@example(a=-0.0, b=1.0)
@example(a=0.0, b=-1.0)
@example(a=6.0, b=-3.0)
def test_float_floordiv_mod_python_signs(op, a, b):
    assume(b != 0.0)
    check(op, a, b)


@pytest.mark.parametrize("op", [floordiv, mod], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", [1.0, -1.0, 0.0])
def test_float_floordiv_mod_by_infinity(op, a):
    check(op, a, math.inf)
    check(op, a, -math.inf)


@HSET
@given(a=st.floats(1e-3, 1e3), b=st.floats(-50, 50))
@example(a=2.0, b=0.5)
@example(a=2.0, b=-2.0)
def test_float_power(a, b):
    check(power, a, b, approx=True)


@pytest.mark.parametrize("a, b", [(-2.0, 3), (-2.0, 2.0), (2, 0.5), (4, -0.5), (2.0, -2),
                                  (1.5, 0), (0.0, 0.0)])
def test_mixed_power(a, b):
    check(power, a, b, approx=True)


@HSET
@given(a=any_float)
def test_float_unary(a):
    check(neg, a)
    check(pos, a)
    check(logical_not, a)


@pytest.mark.parametrize("op", COMPARE, ids=lambda f: f.__name__)
@HSET
@given(a=any_float, b=any_float)
@example(a=math.nan, b=math.nan)
@example(a=0.0, b=-0.0)
def test_float_comparisons_including_nan(op, a, b):
    check(op, a, b)


# --- mixed int / float --------------------------------------------------------------------

@pytest.mark.parametrize("op", ARITH + [truediv], ids=lambda f: f.__name__)
@HSET
@given(a=int64s, b=finite)
def test_int_float_arith_gives_float(op, a, b):
    assume(not (op is truediv and b == 0.0))
    check(op, a, b)
    check(op, b, a)  # includes float / 0 -> ZeroDivisionError


@pytest.mark.parametrize("op", [floordiv, mod], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a, b", [(7, 2.0), (-7, 2.0), (7.5, -2), (-7.5, 2), (0, -1.5)])
def test_int_float_floordiv_mod(op, a, b):
    check(op, a, b)


@pytest.mark.parametrize("op", COMPARE, ids=lambda f: f.__name__)
@HSET
@given(a=exact_ints, b=st.one_of(finite, st.just(math.nan), exact_ints.map(float)))
def test_int_float_comparisons(op, a, b):
    check(op, a, b)
    check(op, b, a)


def test_bool_arith_promotes_to_int():
    check(add, True, True)
    check(mul, True, 7)
    check(sub, False, True)
    check(add, True, 2.5)


# --- complex ------------------------------------------------------------------------------

@pytest.mark.parametrize("op", ARITH, ids=lambda f: f.__name__)
@HSET
@given(a=complexes, b=complexes)
def test_complex_arith_bit_exact(op, a, b):
    check(op, a, b)


@HSET
@given(a=complexes, b=complexes)
@example(a=1 + 2j, b=3 - 4j)
@example(a=1j, b=1e-300 + 1e-300j)
def test_complex_division_bit_exact(a, b):
    assume(b != 0)
    check(truediv, a, b)


@pytest.mark.parametrize("a, b", [(1 + 2j, 3), (2.5, 1 - 1j), (1j, 2.0), (3, 0.5 + 0.5j)])
def test_complex_mixed_with_real(a, b):
    for op in (add, sub, mul, truediv):
        check(op, a, b)


@pytest.mark.parametrize("a, b", [(1 + 2j, 3), (1 + 2j, 0.5 + 0.1j), (2.0, 1j), (-1 + 0j, 0.5),
                                  (1.5 - 2j, -2)])
def test_complex_power(a, b):
    check(power, a, b, approx=1e-12)


@pytest.mark.parametrize("a, b", [(1 + 2j, 1 + 2j), (1 + 2j, 1 - 2j), (1 + 0j, 1), (0j, 0.0)])
def test_complex_equality(a, b):
    check(eq, a, b)
    check(ne, a, b)


@pytest.mark.parametrize("a", [0j, 1 + 2j, -0.5j])
def test_complex_unary(a):
    check(neg, a)
    check(pos, a)
    check(logical_not, a)


# --- chains and compound expressions ------------------------------------------------------

@HSET
@given(a=int64s, b=int64s, c=int64s)
def test_chained_comparison_ints(a, b, c):
    check(chain_lt, a, b, c)


@pytest.mark.parametrize("args", [(1, 2, 3), (1, 3, 2), (3, 2, 1), (1, 1, 2), (1.0, 2, 3.5),
                                  (math.nan, 1.0, 2.0)])
def test_chained_comparison_fixed(args):
    check(chain_lt, *args)


@pytest.mark.parametrize("args", [(1, 2, 0, 5), (1, 2, 0, 0), (3, 2, 0, 1), (1.0, 2, 1.5, 2)])
def test_chained_comparison_mixed_operators(args):
    check(chain_mixed, *args)


@HSET
@given(a=st.integers(-1000, 1000), b=st.integers(0, 1000), c=st.integers(-1000, 1000))
def test_compound_expression(a, b, c):
    check(expression, a, b, c)


# --- NumPy scalar operands (Numba's typing rules) ------------------------------------------

@pytest.mark.parametrize("op", ARITH, ids=lambda f: f.__name__)
@pytest.mark.parametrize("np_type", [np.int8, np.int16, np.int32])
def test_small_signed_ints_widen_to_int64(op, np_type):
    info = np.iinfo(np_type)
    a, b = np_type(info.min if op is sub else info.max), np_type(info.max)
    want = int(np_scalar_op(op, np.int64(a), np.int64(b)))
    assert want != int(np_scalar_op(op, a, b))  # NumPy would overflow in the narrow type
    check(op, a, b, expected=want)


@pytest.mark.parametrize("op", ARITH, ids=lambda f: f.__name__)
@pytest.mark.parametrize("np_type", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_ints_widen_to_uint64(op, np_type):
    info = np.iinfo(np_type)
    a, b = np_type(info.max), np_type(2)
    check(op, a, b, expected=int(np_scalar_op(op, np.uint64(a), np.uint64(b))))
    check(op, b, a, expected=int(np_scalar_op(op, np.uint64(b), np.uint64(a))))


def test_uint64_wraps_at_64_bits():
    check(add, np.uint64(UINT64_MAX), np.uint64(1), expected=wrap_uint64(UINT64_MAX + 1))
    check(sub, np.uint64(1), np.uint64(2), expected=wrap_uint64(1 - 2))


@pytest.mark.parametrize("op", ARITH, ids=lambda f: f.__name__)
@pytest.mark.parametrize("a, b", [(2 ** 63 + 5, 1), (5, -3), (UINT64_MAX, 2)])
def test_uint64_with_int64_gives_int64(op, a, b):
    # Numba's rule (NBEP 1, checked on Numba 0.68): mixed signed/unsigned integers of 64 bits
    # compute in int64 -- the uint64 bits are reinterpreted, then the operation wraps.
    want = int(np_scalar_op(op, np.uint64(a).astype(np.int64), np.int64(b)))
    check(op, np.uint64(a), np.int64(b), expected=want)
    check(op, np.uint64(a), b, expected=want)  # a Python int argument is int64


@pytest.mark.parametrize("op", ARITH + [truediv], ids=lambda f: f.__name__)
@HSET
@given(a=st.floats(width=32), b=st.floats(width=32))
def test_float32_arith_rounds_to_float32(op, a, b):
    assume(not (op is truediv and b == 0.0))
    x, y = np.float32(a), np.float32(b)
    want = float(np_scalar_op(op, x, y))
    got = check(op, x, y, expected=want)
    assert got == f32(got) or math.isnan(got)


def test_float32_with_float64_or_int_gives_float64():
    x = np.float32(0.1)
    check(add, x, 0.2, expected=float(x) + 0.2)
    check(mul, x, 3, expected=float(x) * 3.0)
    check(add, np.int32(7), np.float32(0.1), expected=7.0 + float(np.float32(0.1)))


def test_complex64_arith_rounds_to_float32():
    a, b = np.complex64(1.5 + 2.25j), np.complex64(-0.5 + 4j)
    for op in (add, sub, mul):
        want = complex(np_scalar_op(op, a, b))
        check(op, a, b, expected=want)
    check(add, a, 0.1 + 0j, expected=complex(a) + (0.1 + 0j))  # complex128 result


def test_int_with_bool_and_float_results_types():
    assert type(check(add, 1, 2.5)) is float
    assert type(check(truediv, 4, 2)) is float
    assert type(check(add, 1, 1j)) is complex
    assert type(check(lt, 1, 2.5)) is bool


# --- division by zero ---------------------------------------------------------------------

@pytest.mark.parametrize("op, a", [(floordiv, 1), (mod, 1), (truediv, 1), (floordiv, 1.5),
                                   (mod, 1.5), (truediv, 1.5), (truediv, 0), (mod, -3)])
@pytest.mark.parametrize("zero", [0, 0.0], ids=["int0", "float0"])
def test_division_by_zero_raises(op, a, zero):
    check(op, a, zero)  # ZeroDivisionError with CPython's message
    check(op, a, 4)  # the function stays usable afterwards
    check(op, a, zero)


def test_complex_division_by_zero():
    check(truediv, 1 + 1j, 0j)
    check(truediv, 1 + 1j, 2j)


# --- bad input ----------------------------------------------------------------------------

def _typing_error(func, *args):
    disp = kiln.njit(func)
    with pytest.raises(kiln.errors.TypingError) as info:
        disp(*args)
    return disp, info.value


def test_complex_ordering_is_a_typing_error():
    disp, err = _typing_error(lt, 1j, 2j)
    assert "complex128" in err.msg
    assert disp(1, 2) is True  # the dispatcher still works for other types


def test_bitwise_on_float_is_a_typing_error():
    disp, err = _typing_error(band, 1.5, 1)
    assert "float64" in err.msg
    assert disp(6, 3) == 2


def test_invert_float_is_a_typing_error():
    disp, err = _typing_error(invert, 1.5)
    assert "float64" in err.msg
    assert disp(5) == -6


def test_arith_with_none_is_a_typing_error():
    disp, err = _typing_error(add, 1, None)
    assert "int64" in err.msg and "none" in err.msg.lower()
    assert disp(1, 2) == 3


def test_arith_with_tuple_is_a_typing_error():
    disp, err = _typing_error(sub, (1, 2), 1)
    assert "int64" in err.msg and "tuple" in err.msg.lower()
    assert disp(1, 2) == -1


# x // c and x % c for a constant c > 0 are lowered with unsigned operations (lower/scalar.c,
# floordiv_by_positive): CPython's floor rounding, every sign and the int64 extremes.
CONST_DIVISOR_XS = [INT64_MIN, INT64_MIN + 1, -2**40 - 3, -1000, -8, -7, -6, -1, 0, 1, 6, 7, 8,
                    999, 2**40 + 5, INT64_MAX - 1, INT64_MAX]


def mod_7(x):
    return x % 7, x // 7


def mod_1(x):
    return x % 1, x // 1


def mod_2(x):
    return x % 2, x // 2


def mod_big(x):
    return x % 4611686018427387904, x // 4611686018427387903


def mod_max(x):
    return x % 9223372036854775807, x // 9223372036854775807


@pytest.mark.parametrize("f", [mod_7, mod_1, mod_2, mod_big, mod_max])
def test_int_floordiv_mod_by_positive_constant(f):
    d = kiln.njit(f)
    for x in CONST_DIVISOR_XS:
        assert d(x) == f(x), (f.__name__, x)


def mod_in_loop(n):
    s = 0
    for i in range(-n, n):
        s += i * i % 7 + i // 3 - i % 3
    return s


def arrays_mod_const(a):
    return a % 7, a // 7, a % 1, a // 100


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_int_floordiv_mod_by_positive_constant_arrays(dtype):
    assert kiln.njit(mod_in_loop)(1000) == mod_in_loop(1000)
    info = np.iinfo(dtype)
    a = np.random.default_rng(0).integers(info.min, info.max, 1000, dtype=dtype, endpoint=True)
    a = np.concatenate([a, np.array([info.min, info.max, -1, 0, 1], dtype)])
    for got, want in zip(kiln.njit(arrays_mod_const)(a), arrays_mod_const(a)):
        assert got.dtype == want.dtype and np.array_equal(got, want)
