"""Control flow: branches, loops, short-circuit logic, assertions, early returns.

Where a variable or the return value takes an ``int`` on one path and a ``float`` on another,
kiln (as Numba) unifies the type to float64, so such results are compared with ``float(...)``
of CPython's value.
"""

import pytest
from hypothesis import given, strategies as st

import kiln
from harness import HSET, INT64_MAX, INT64_MIN, check


def classify(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 10:
        return 1
    else:
        return 2


def nested_if(a, b):
    r = 0
    if a > 0:
        if b > 0:
            r = 1
        else:
            r = 2
    else:
        if b > 0:
            r = 3
    return r


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def range1(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def range2(a, b):
    s = 0
    for i in range(a, b):
        s = (s * 3 + i) % 1000003
    return s


def range3(a, b, c):
    s = 0
    count = 0
    for i in range(a, b, c):
        s += i
        count += 1
    return s, count


def loop_var_after_loop(n):
    i = -1
    for i in range(n):
        pass
    return i


# Literal steps other than 1: the loop counts the items left (lower/iter.c), so bounds near the
# int64 limits never step past them. Each returns (count, sum of items mod 1000003, last item).

def range_by_3(a, b):
    n, s, last = 0, 0, 7
    for i in range(a, b, 3):
        n += 1
        s = (s + i % 1000003) % 1000003
        last = i
    return n, s, last


def range_by_minus_3(a, b):
    n, s, last = 0, 0, 7
    for i in range(a, b, -3):
        n += 1
        s = (s + i % 1000003) % 1000003
        last = i
    return n, s, last


def range_by_int64_max(a, b):
    n, last = 0, 7
    for i in range(a, b, 9223372036854775807):
        n += 1
        last = i
    return n, last


def range_by_int64_min(a, b):
    n, last = 0, 7
    for i in range(a, b, -9223372036854775808):
        n += 1
        last = i
    return n, last


def range_up_to(a, b):
    n, last = 0, 7
    for i in range(a, b):
        n += 1
        last = i
    return n, last


def range_down_to(a, b):
    n, last = 0, 7
    for i in range(a, b, -1):
        n += 1
        last = i
    return n, last


def loop_var_after_loop_step(n):
    i = -1
    for i in range(n, 0, -2):
        pass
    return i


def loop_var_assigned_in_body(n):
    # assigning to the loop variable does not change the iteration
    s = 0
    for i in range(0, n, 2):
        s += i
        i = 1000
        s += i
    for j in range(n, 0, -1):
        s += j
        j -= 5
    return s


def range_break_else(n, stop):
    for i in range(n, -n, -2):
        if i == stop:
            break
    else:
        return -1000
    return i


def tuple_loop(t):
    s = 0
    for x in t:
        s += x
    return s


def float_tuple_loop(t):
    p = 1.0
    for x in t:
        p *= x
    return p


def break_continue(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        if i > 20:
            break
        total += i
    return total


def while_break(n):
    i = 0
    while True:
        i += 1
        if i * i > n:
            break
    return i


def nested_loops(n):
    count = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 4 == 0:
                continue
            k = 0
            while k < j:
                k += 2
                count += 1
            if count > 500:
                break
    return count


def for_else(n, stop):
    for i in range(n):
        if i == stop:
            break
    else:
        return -1
    return i


def while_else(n):
    i = 0
    while i < n:
        i += 1
    else:
        i += 100
    return i


def early_return(n):
    for i in range(n):
        if i * i >= n:
            return i
    return -1


def mixed_return(flag):
    if flag:
        return 1
    return 2.5


def mixed_variable(flag):
    if flag:
        x = 1
    else:
        x = 2.5
    return x


def float_accumulator(n):
    s = 0
    for i in range(n):
        s += 0.5
    return s


def with_pass(x):
    if x > 0:
        pass
    else:
        x = -x
    for _ in range(3):
        pass
    return x


def asserts(x):
    assert x > 0, "x must be positive"
    assert x < 100
    return x


def and_short_circuit(a, b):
    return a != 0 and b // a > 1


def or_short_circuit(a, b):
    return a == 0 or b // a > 1


def not_and_or(a, b, c):
    return not (a and b) or c


def int_or(a, b):
    return a or b


def int_and(a, b):
    return a and b


def ternary(x):
    return x * 2 if x > 0 else -x if x < 0 else 100


def aug_assign(a, b):
    x = a
    x += b
    x -= 1
    x *= 3
    x //= 2
    x %= 1000
    x **= 2
    x <<= 2
    x >>= 1
    x &= 0xFFFF
    x |= 1
    x ^= 0x55
    return x


def aug_assign_float(a, b):
    x = a
    x += b
    x /= 3
    x -= 0.5
    x *= 2
    x //= 1.5
    x %= 7
    return x


def chained(a, b, c):
    if 0 <= a < b <= c:
        return 1
    if a == b == c:
        return 2
    return 3


@pytest.mark.parametrize("x", [-5, 0, 3, 10, 99])
def test_if_elif_else(x):
    check(classify, x)
    check(classify, float(x))


@pytest.mark.parametrize("a, b", [(1, 1), (1, -1), (-1, 1), (-1, -1), (0, 0)])
def test_nested_if(a, b):
    check(nested_if, a, b)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 27, 97])
def test_while(n):
    check(collatz_steps, n)


@HSET
@given(n=st.integers(-5, 200))
def test_for_range_one_arg(n):
    check(range1, n)


@HSET
@given(a=st.integers(-50, 50), b=st.integers(-50, 50))
def test_for_range_two_args(a, b):
    check(range2, a, b)


@HSET
@given(a=st.integers(-50, 50), b=st.integers(-50, 50), c=st.integers(-7, 7).filter(bool))
def test_for_range_three_args_including_negative_steps(a, b, c):
    check(range3, a, b, c)


@pytest.mark.parametrize("args", [(0, 10, 1), (10, 0, -1), (10, 0, -3), (0, 0, 1), (5, 0, 1),
                                  (0, 5, -1), (-10, -1, 4)])
def test_for_range_edge_cases(args):
    check(range3, *args)


def test_for_range_zero_step_raises():
    check(range3, 0, 10, 0)  # ValueError('range() arg 3 must not be zero')
    check(range3, 0, 10, 2)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop_variable_after_loop(n):
    check(loop_var_after_loop, n)


_NEAR_LIMITS = [(0, 10), (10, 0), (0, 0), (5, 6), (INT64_MAX - 7, INT64_MAX),
                (INT64_MAX - 3, INT64_MAX), (INT64_MAX, INT64_MAX - 7), (INT64_MAX - 1, INT64_MAX),
                (INT64_MIN, INT64_MIN + 7), (INT64_MIN + 7, INT64_MIN), (INT64_MIN + 3, INT64_MIN),
                (INT64_MIN, INT64_MIN + 1), (INT64_MAX, INT64_MAX), (INT64_MIN, INT64_MIN)]


@pytest.mark.parametrize("a, b", _NEAR_LIMITS)
@pytest.mark.parametrize("func", [range_by_3, range_by_minus_3, range_up_to, range_down_to])
def test_for_range_literal_steps_near_the_int64_limits(func, a, b):
    check(func, a, b)


@pytest.mark.parametrize("a, b", _NEAR_LIMITS + [(INT64_MIN, INT64_MAX), (INT64_MAX, INT64_MIN),
                                                 (INT64_MAX - 7, INT64_MIN), (-7, INT64_MAX)])
@pytest.mark.parametrize("func", [range_by_int64_max, range_by_int64_min])
def test_for_range_steps_of_the_int64_limits_do_not_overflow(func, a, b):
    check(func, a, b)


@HSET
@given(a=st.integers(-50, 50), b=st.integers(-50, 50))
def test_for_range_literal_steps_of_three(a, b):
    check(range_by_3, a, b)
    check(range_by_minus_3, a, b)


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 5, 6])
def test_loop_variable_after_a_loop_with_a_literal_step(n):
    check(loop_var_after_loop_step, n)
    check(loop_var_assigned_in_body, n)


@pytest.mark.parametrize("n, stop", [(5, 1), (5, 2), (5, -3), (0, 0), (6, 6), (6, -4)])
def test_for_range_literal_step_break_else(n, stop):
    check(range_break_else, n, stop)


@pytest.mark.parametrize("t", [(1, 2, 3), (5,), (-1, -2, -3, -4, 100)], ids=repr)
def test_for_over_homogeneous_tuple(t):
    check(tuple_loop, t)


def test_for_over_float_tuple():
    check(float_tuple_loop, (0.5, 2.0, 3.0))
    check(float_tuple_loop, (0.1, 0.2, 0.3))


@pytest.mark.parametrize("n", [0, 5, 10, 30])
def test_break_continue(n):
    check(break_continue, n)
    check(while_break, n)


@pytest.mark.parametrize("n", [0, 1, 10, 40])
def test_nested_loops(n):
    check(nested_loops, n)


@pytest.mark.parametrize("n, stop", [(5, 2), (5, 7), (0, 0)])
def test_loop_else(n, stop):
    check(for_else, n, stop)
    check(while_else, n)


@pytest.mark.parametrize("n", [0, 1, 10, 17])
def test_early_return(n):
    check(early_return, n)


@pytest.mark.parametrize("flag", [True, False])
def test_early_returns_unify_int_and_float_to_float(flag):
    check(mixed_return, flag, expected=float(mixed_return(flag)))
    check(mixed_variable, flag, expected=float(mixed_variable(flag)))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_accumulator_unified_to_float(n):
    check(float_accumulator, n, expected=float(float_accumulator(n)))


@pytest.mark.parametrize("x", [3, -3, 2.5])
def test_pass(x):
    check(with_pass, x)


def test_assert():
    # pytest rewrites `assert` in test modules' bytecode, so the interpreted function is not a
    # faithful oracle here: the expected exceptions are plain Python's.
    check(asserts, 5)
    check(asserts, -1, expected=AssertionError("x must be positive"))
    check(asserts, 500, expected=AssertionError())
    check(asserts, 7)


@pytest.mark.parametrize("a, b", [(0, 5), (2, 5), (2, 1), (-1, 5)])
def test_and_or_short_circuit(a, b):
    # with a == 0 the right operand would divide by zero: it must not be evaluated
    check(and_short_circuit, a, b)
    check(or_short_circuit, a, b)


@pytest.mark.parametrize("a", [True, False])
@pytest.mark.parametrize("b", [True, False])
@pytest.mark.parametrize("c", [True, False])
def test_boolean_logic(a, b, c):
    check(not_and_or, a, b, c)


@pytest.mark.parametrize("a, b", [(0, 5), (3, 5), (0, 0), (-2, 0)])
def test_and_or_return_an_operand(a, b):
    check(int_or, a, b)
    check(int_and, a, b)
    check(int_or, float(a), float(b))


@pytest.mark.parametrize("x", [5, -5, 0])
def test_ternary(x):
    check(ternary, x)


@HSET
@given(a=st.integers(-1000, 1000), b=st.integers(-1000, 1000))
def test_augmented_assignment(a, b):
    check(aug_assign, a, b)


@pytest.mark.parametrize("a, b", [(1.5, 2.25), (-7.0, 3.0), (10, 2.5)])
def test_augmented_assignment_float(a, b):
    check(aug_assign_float, a, b)


@pytest.mark.parametrize("args", [(0, 1, 2), (0, 2, 2), (1, 1, 1), (2, 1, 0), (-1, 0, 1)])
def test_chained_comparisons(args):
    check(chained, *args)


def test_heterogeneous_tuple_loop_is_a_typing_error():
    f = kiln.njit(tuple_loop)
    with pytest.raises(kiln.errors.TypingError):
        f((1, (2, 3)))
    assert f((1, 2)) == 3
