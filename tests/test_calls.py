"""Calls: jitted callees, recursion, defaults and keywords, frozen globals and closures, the
``math`` module and the builtins kiln supports in nopython code.

The ``math`` functions tested are those Numba supports for scalars (checked on Numba 0.68):
``math.fmod``, ``modf``, ``isqrt``, ``factorial``, ``comb``, ``log(x, base)`` and the like are
not in Numba's list and are not required here. Domain errors (``math.sqrt(-1.0)``) are not
tested: CPython raises ValueError where Numba returns nan.
"""

import math
import sys

import numpy as np
import pytest

import kiln
from harness import check, compiled, wrap_int64


# --- jitted callees -----------------------------------------------------------------------

@kiln.njit
def square(x):
    return x * x


@kiln.njit
def hypot3(a, b, c):
    return math.sqrt(square(a) + square(b) + square(c))


def sum_squares(a, b):
    return square(a) + square(b)


def calls_chain(a, b, c):
    return hypot3(a, b, c) + square(a)


@kiln.njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@kiln.njit
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@kiln.njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@kiln.njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@kiln.njit
def runaway(n):
    return runaway(n - 1) + 1


def with_defaults(a, b=2, c=3.5):
    return a + b * c


@kiln.njit
def callee_defaults(a, b=2, c=3.5):
    return a + b * c


def calls_with_keywords(x):
    return callee_defaults(x, c=1.0) + callee_defaults(x) + callee_defaults(c=0.5, a=x, b=x)


def _fib_reference(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def test_call_jitted_function():
    check(sum_squares, 3, 4)
    check(sum_squares, 1.5, 2)
    check(calls_chain, 1, 2, 2)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 25])
def test_self_recursion_fib(n):
    assert type(fib(n)) is int
    assert fib(n) == _fib_reference(n)


@pytest.mark.parametrize("n", [0, 1, 5, 20, 25])
def test_self_recursion_factorial_wraps_like_int64(n):
    assert factorial(n) == wrap_int64(math.factorial(n))


@pytest.mark.parametrize("n", [0, 1, 10, 15])
def test_mutual_recursion(n):
    assert is_even(n) is (n % 2 == 0)
    assert is_odd(n) is (n % 2 == 1)


def test_recursion_without_a_typed_base_case_is_a_typing_error():
    with pytest.raises(kiln.errors.TypingError) as info:
        runaway(3)
    assert "recurs" in info.value.msg.lower()
    with pytest.raises(kiln.errors.TypingError):  # still an error, not a crash
        runaway(3)


def test_default_arguments():
    check(with_defaults, 1)
    check(with_defaults, 1, 5)
    check(with_defaults, 1, c=2.0)
    check(with_defaults, a=1, b=1)
    check(with_defaults, 1.5, 2, 0)
    check(calls_with_keywords, 3)


def test_bad_call_arguments_raise_typeerror():
    check(with_defaults, 1, z=3, exc_msg=False)
    check(with_defaults, 1, 2, 3, 4, exc_msg=False)
    check(with_defaults, exc_msg=False)
    check(with_defaults, 1, a=2, exc_msg=False)
    check(with_defaults, 4)


# --- globals and closures -----------------------------------------------------------------

SCALE = 3
OFFSETS = (1, 2.5)


def use_globals(x):
    return x * SCALE + OFFSETS[1]


def test_globals_are_frozen_at_compile_time(monkeypatch):
    f = kiln.njit(use_globals)
    assert f(2) == 8.5
    monkeypatch.setattr(sys.modules[__name__], "SCALE", 10)
    monkeypatch.setattr(sys.modules[__name__], "OFFSETS", (0, 0.25))
    assert f(2) == 8.5  # the compiled version keeps the values it was compiled with
    f.recompile()  # as in Numba, recompiling reads the globals again
    assert f(2) == use_globals(2) == 20.25
    assert kiln.njit(use_globals)(2) == 20.25


def make_scaler(k, t):
    def scaled(x):
        return x * k + t[0] - t[1]
    return scaled


def test_closure_variables():
    check(make_scaler(3, (4, 0.5)), 2)
    check(make_scaler(2.5, (1, 2)), 2)


# --- math ---------------------------------------------------------------------------------

def math_sqrt(x):
    return math.sqrt(x)


def math_exp(x):
    return math.exp(x)


def math_expm1(x):
    return math.expm1(x)


def math_exp2(x):
    return math.exp2(x)


def math_log(x):
    return math.log(x)


def math_log1p(x):
    return math.log1p(x)


def math_log10(x):
    return math.log10(x)


def math_log2(x):
    return math.log2(x)


def math_sin(x):
    return math.sin(x)


def math_cos(x):
    return math.cos(x)


def math_tan(x):
    return math.tan(x)


def math_asin(x):
    return math.asin(x)


def math_acos(x):
    return math.acos(x)


def math_atan(x):
    return math.atan(x)


def math_sinh(x):
    return math.sinh(x)


def math_cosh(x):
    return math.cosh(x)


def math_tanh(x):
    return math.tanh(x)


def math_asinh(x):
    return math.asinh(x)


def math_acosh(x):
    return math.acosh(x)


def math_atanh(x):
    return math.atanh(x)


def math_erf(x):
    return math.erf(x)


def math_erfc(x):
    return math.erfc(x)


def math_gamma(x):
    return math.gamma(x)


def math_lgamma(x):
    return math.lgamma(x)


def math_degrees(x):
    return math.degrees(x)


def math_radians(x):
    return math.radians(x)


def math_fabs(x):
    return math.fabs(x)


def math_floor(x):
    return math.floor(x)


def math_ceil(x):
    return math.ceil(x)


def math_trunc(x):
    return math.trunc(x)


def math_isnan(x):
    return math.isnan(x)


def math_isinf(x):
    return math.isinf(x)


def math_isfinite(x):
    return math.isfinite(x)


def math_frexp(x):
    return math.frexp(x)


def math_hypot(x, y):
    return math.hypot(x, y)


def math_atan2(y, x):
    return math.atan2(y, x)


def math_copysign(x, y):
    return math.copysign(x, y)


def math_pow(x, y):
    return math.pow(x, y)


def math_ldexp(x, i):
    return math.ldexp(x, i)


def math_gcd(a, b):
    return math.gcd(a, b)


def math_nextafter(x, y):
    return math.nextafter(x, y)


def math_constants():
    return math.pi, math.e, math.tau, math.inf, -math.inf


def math_nan_constant():
    return math.isnan(math.nan)


APPROX_1 = [
    (math_sqrt, [0.0, 2.0, 1e300, 4]),
    (math_exp, [0.0, 1.0, -745.0, 700.5, 2]),
    (math_expm1, [1e-10, 0.5, -3.0]),
    (math_log, [1.0, 0.5, 1e300, 10]),
    (math_log1p, [1e-10, 0.5, 3.0]),
    (math_log10, [1000.0, 0.3, 7]),
    (math_log2, [8.0, 0.3, 1024]),
    (math_sin, [0.0, 0.5, -3.0, 1e5]),
    (math_cos, [0.0, 0.5, -3.0, 1e5]),
    (math_tan, [0.0, 0.5, -3.0]),
    (math_asin, [0.0, 0.5, -1.0]),
    (math_acos, [0.0, 0.5, -1.0]),
    (math_atan, [0.0, 0.5, -1e10]),
    (math_sinh, [0.0, 0.5, -3.0]),
    (math_cosh, [0.0, 0.5, -3.0]),
    (math_tanh, [0.0, 0.5, -30.0]),
    (math_asinh, [0.0, 0.5, -3.0]),
    (math_acosh, [1.0, 1.5, 30.0]),
    (math_atanh, [0.0, 0.5, -0.9]),
    (math_erf, [0.0, 0.5, -3.0]),
    (math_erfc, [0.0, 0.5, -3.0, 10.0]),
    (math_gamma, [0.5, 5.0, 10.5, -1.5]),
    (math_lgamma, [0.5, 5.0, 100.0, -1.5]),
    (math_degrees, [0.0, 1.0, -math.pi]),
    (math_radians, [0.0, 180.0, -45.0]),
]
if hasattr(math, "exp2"):  # Python 3.11+
    APPROX_1.append((math_exp2, [0.5, 10.0, -3.0]))

EXACT_1 = [
    (math_fabs, [-2.5, 0.0, -0.0, 3, -math.inf]),
    (math_floor, [2.5, -2.5, 3.0, -0.0, 7, 1e15 + 0.5]),
    (math_ceil, [2.5, -2.5, 3.0, -0.5, 7]),
    (math_trunc, [2.7, -2.7, 0.0, 7]),
    (math_isnan, [math.nan, 1.0, math.inf, 3]),
    (math_isinf, [math.nan, 1.0, -math.inf, 3]),
    (math_isfinite, [math.nan, 1.0, math.inf, 3]),
    (math_frexp, [8.5, -0.1, 0.0, 1e-310]),
]

APPROX_2 = [
    (math_hypot, [(3.0, 4.0), (1e200, 1e200), (-2.0, 0.5), (3, 4)]),
    (math_atan2, [(1.0, 1.0), (-1.0, -0.0), (0.0, -1.0), (2, 3)]),
    (math_pow, [(2.0, 0.5), (2.0, -3.0), (-2.0, 3.0), (10, 2)]),
]

EXACT_2 = [
    (math_copysign, [(1.5, -0.0), (-2.0, 3.0), (3, -1)]),
    (math_ldexp, [(0.5, 3), (1.0, -1074), (3, 4)]),
    (math_gcd, [(12, 18), (-12, 18), (0, 5), (0, 0), (17, -5)]),
    (math_nextafter, [(1.0, 2.0), (1.0, 0.0), (0.0, -1.0)]),
]


def _cases(table, unpack):
    for func, argsets in table:
        for args in argsets:
            yield pytest.param(func, args if unpack else (args,),
                               id=f"{func.__name__}{args if unpack else (args,)}")


@pytest.mark.parametrize("func, args", list(_cases(APPROX_1, False)) + list(_cases(APPROX_2, True)))
def test_math_functions_within_a_few_ulps(func, args):
    check(func, *args, approx=True)


@pytest.mark.parametrize("func, args", list(_cases(EXACT_1, False)) + list(_cases(EXACT_2, True)))
def test_math_functions_exact(func, args):
    check(func, *args)


def test_math_floor_ceil_trunc_return_int():
    assert type(compiled(math_floor)(2.5)) is int
    assert type(compiled(math_ceil)(2.5)) is int
    assert type(compiled(math_trunc)(2.5)) is int


def test_math_constants():
    check(math_constants)
    check(math_nan_constant)


# --- builtins -----------------------------------------------------------------------------

def b_abs(x):
    return abs(x)


def b_min2(a, b):
    return min(a, b)


def b_max2(a, b):
    return max(a, b)


def b_min3(a, b, c):
    return min(a, b, c)


def b_max3(a, b, c):
    return max(a, b, c)


def b_min_tuple(t):
    return min(t)


def b_max_tuple(t):
    return max(t)


def b_round1(x):
    return round(x)


def b_round2(x, n):
    return round(x, n)


def b_divmod(a, b):
    return divmod(a, b)


def b_pow(a, b):
    return pow(a, b)


def b_int(x):
    return int(x)


def b_float(x):
    return float(x)


def b_bool(x):
    return bool(x)


def b_complex1(x):
    return complex(x)


def b_complex2(a, b):
    return complex(a, b)


def b_len_tuple(t):
    return len(t)


def b_len_range(a, b, c):
    return len(range(a, b, c))


def b_isinstance(x):
    return (isinstance(x, int), isinstance(x, float), isinstance(x, complex),
            isinstance(x, (int, float)), isinstance(x, tuple), isinstance(x, bool))


@pytest.mark.parametrize("x", [-3, 0, 7, -2.5, -0.0, math.inf, math.nan, 3 - 4j, -1j, True])
def test_abs(x):
    check(b_abs, x)


@pytest.mark.parametrize("a, b", [(1, 2), (2, 1), (-1.5, 2.5), (2.5, -1.5), (3.5, math.nan),
                                  (math.nan, 3.5), (0.0, -0.0), (-0.0, 0.0)])
def test_min_max_two(a, b):
    check(b_min2, a, b)
    check(b_max2, a, b)


@pytest.mark.parametrize("args", [(3, 1, 2), (1, 2, 3), (2.5, -1.0, 2.0)])
def test_min_max_three(args):
    check(b_min3, *args)
    check(b_max3, *args)


@pytest.mark.parametrize("t", [(3, 1, 7), (2.5,), (-1.0, 3.5, 2.0)], ids=repr)
def test_min_max_of_tuple(t):
    check(b_min_tuple, t)
    check(b_max_tuple, t)


def test_min_max_of_int_and_float_unify_to_float():
    check(b_max2, 3, 2.5, expected=float(max(3, 2.5)))
    check(b_min2, 3, 2.5, expected=float(min(3, 2.5)))


@pytest.mark.parametrize("x", [2.5, 3.5, -2.5, 0.5, -0.4, 2.4999999999999996, 1e15 + 0.5, 7])
def test_round_half_to_even_returns_int(x):
    check(b_round1, x)


@pytest.mark.parametrize("x, n", [(3.14159, 2), (-3.14159, 3), (1234.5678, -2), (2.5, 0),
                                  (0.125, 1), (1e-5, 3), (123.456, 0)])
def test_round_ndigits_returns_float(x, n):
    check(b_round2, x, n)


def test_round_ndigits_is_correctly_rounded_like_cpython():
    # 2.675 is stored as 2.67499999999999982236431605997495353221893310546875: CPython's
    # correctly rounded round() gives 2.67 (Numba's scaling algorithm gives 2.68).
    check(b_round2, 2.675, 2)
    check(b_round2, 1.005, 2)


@pytest.mark.parametrize("a, b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (7.5, 2.0), (-7.5, 2.0),
                                  (7.5, -2), (0.0, -3.0)])
def test_divmod(a, b):
    check(b_divmod, a, b)


@pytest.mark.parametrize("a, b", [(7, 0), (7.5, 0.0), (7, 0.0)])
def test_divmod_by_zero(a, b):
    check(b_divmod, a, b)  # ZeroDivisionError with CPython's message
    check(b_divmod, a, 2)


@pytest.mark.parametrize("a, b", [(2, 10), (-3, 3), (2.0, 0.5), (2, -2.0), (2.5, 2)])
def test_pow_builtin(a, b):
    check(b_pow, a, b, approx=True)


def test_pow_builtin_negative_int_exponent():
    check(b_pow, 2, -2,
          expected=ValueError("Integers to negative integer powers are not allowed."))


@pytest.mark.parametrize("x", [2.7, -2.7, 0.0, 1e18, True, False, 5, np.int8(-3)])
def test_int_conversion(x):
    check(b_int, x, expected=int(x))


@pytest.mark.parametrize("x", [3, -0, True, 2.5, 2 ** 62 + 1])
def test_float_conversion(x):
    check(b_float, x)


@pytest.mark.parametrize("x", [0, 3, 0.0, -0.0, math.nan, 0.5, 0j, 1j, True, False, None])
def test_bool_conversion(x):
    check(b_bool, x)


def test_complex_construction():
    check(b_complex1, 3)
    check(b_complex1, 2.5)
    check(b_complex1, 1 + 2j)
    check(b_complex2, 1, 2.5)
    check(b_complex2, 1.5, 2)
    check(b_complex2, -0.0, 0)


def test_len():
    check(b_len_tuple, (1, 2.5, None))
    check(b_len_tuple, ())
    for args in [(0, 10, 1), (10, 0, -3), (0, 10, 3), (5, 5, 1), (0, -10, 1)]:
        check(b_len_range, *args)


@pytest.mark.parametrize("x", [1, 2.5, 1j, (1, 2), None], ids=repr)
def test_isinstance(x):
    check(b_isinstance, x)


# --- print --------------------------------------------------------------------------------

def print_scalars(a, b, c):
    print("values:", a, b, c)
    print(a)
    print()
    print("done", True, None)


def print_floats(x):
    print(x, -x, x * 1e22, x / 3)


def print_tuple(t):
    print(t)


def _check_print(capfd, pyfunc, *args):
    """The compiled function prints exactly what CPython prints (captured at the fd level,
    since kiln's print may write from C)."""
    sys.stdout.flush()
    capfd.readouterr()
    want_result = pyfunc(*args)
    sys.stdout.flush()
    want = capfd.readouterr().out
    got_result = compiled(pyfunc)(*args)
    sys.stdout.flush()
    got = capfd.readouterr().out
    assert got == want
    assert got_result is None and want_result is None


@pytest.mark.parametrize("args", [(1, 2.5, 3j), (-7, 0.1, True), (2 ** 62, 1e-7, False)])
def test_print_scalars_and_strings(capfd, args):
    _check_print(capfd, print_scalars, *args)


@pytest.mark.parametrize("x", [0.1, 2.5, 1.0, -0.0, math.inf, math.nan, 123456789.0, 1e-300])
def test_print_float_formatting_matches_python(capfd, x):
    _check_print(capfd, print_floats, x)


def test_print_tuple(capfd):
    _check_print(capfd, print_tuple, (1, 2.5, True))


# Self-recursion is unrolled before O3 (jit/recurse.c: clones in a ring that the inliner folds
# back). The shapes below - loops and phis, floats, raising at depth, writing an array, several
# self-calls - run with 0 to 3 clones (KILN_RECURSION_UNROLL is read at each compilation) and
# must agree with the interpreter every time (recompile() after the variable changes).
@kiln.njit
def rec_loop_sum(n):
    if n <= 0:
        return 0
    s = 0
    for i in range(n):
        s += i
    return s + rec_loop_sum(n - 1)


@kiln.njit
def rec_float_power(x, n):
    if n == 0:
        return 1.0
    half = rec_float_power(x, n // 2)
    return half * half * (x if n % 2 else 1.0)


@kiln.njit
def rec_raise_at_depth(n):
    if n == 0:
        raise ValueError("bottom reached")
    if n < 0:
        return 0
    return rec_raise_at_depth(n - 1) + 1


@kiln.njit
def rec_fill(a, i):
    if i == a.shape[0]:
        return 0
    a[i] = i * i
    return rec_fill(a, i + 1) + 1


@kiln.njit
def rec_tribonacci(n):
    if n < 3:
        return n
    return rec_tribonacci(n - 1) + rec_tribonacci(n - 2) + rec_tribonacci(n - 3)


@pytest.mark.parametrize("copies", ["0", "1", "2", "3"])
def test_unrolled_self_recursion_agrees_with_python(copies, monkeypatch):
    monkeypatch.setenv("KILN_RECURSION_UNROLL", copies)
    for d in (rec_loop_sum, rec_float_power, rec_raise_at_depth, rec_fill, rec_tribonacci):
        d.recompile()
    for n in (0, 1, 2, 7, 13):
        assert rec_loop_sum(n) == rec_loop_sum.py_func(n)
        assert rec_tribonacci(n) == rec_tribonacci.py_func(n)
    for x, n in ((1.5, 0), (1.5, 7), (-0.75, 12), (2.0, 63)):
        assert rec_float_power(x, n) == rec_float_power.py_func(x, n)
    with pytest.raises(ValueError, match="bottom reached"):
        rec_raise_at_depth(9)
    assert rec_raise_at_depth(-1) == 0
    a = np.zeros(11, dtype=np.int64)
    assert rec_fill(a, 0) == 11
    assert a.tolist() == [i * i for i in range(11)]
