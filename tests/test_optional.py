"""None and Optional values (issue 10, "Values"): a variable that is sometimes None, `is None`
and `is not None` tests, Optional arguments with None defaults, functions returning a value or
None (boxed to the value or None), and the errors where Optional does not apply.

CPython is the oracle: each compiled function is compared with the interpreted one.
"""

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic


def same(f, *args):
    expected = f(*args)
    got = kiln.njit(f)(*args)
    if isinstance(expected, (np.generic, float)):
        expected = float(expected)  # NumPy scalars come back as Python numbers
    assert type(got) is type(expected) and got == expected, (f.__name__, args, got, expected)


def add_if_given(a, b=None):
    if b is not None:
        return a + b
    return a


def test_none_default_argument():
    same(add_if_given, 1)
    same(add_if_given, 1, 2)
    same(add_if_given, 1.5, None)
    assert kiln.njit(add_if_given)(3, b=4) == 7


def default_replaced(a, b=None):
    if b is None:
        b = 2 * a
    return a + b


def test_none_default_replaced_in_the_branch():
    for args in ((3,), (3, 4), (3, None)):
        same(default_replaced, *args)


def found_index(n, target):
    x = None
    for i in range(n):
        if i == target:
            x = i * 2
    if x is None:
        return -1
    return x + 1


def test_variable_sometimes_none():
    for args in ((10, 3), (2, 3), (0, 0)):
        same(found_index, *args)


def is_not_none_branch(n):
    x = None
    if n > 2:
        x = n * 1.5
    y = 0.0
    if x is not None:
        y = x * 2.0 + 1.0
    else:
        y = -1.0
    return y


def test_is_not_none_narrows_inside_the_branch():
    for n in (1, 5):
        same(is_not_none_branch, n)


def value_or_none(n):
    if n > 0:
        return n * 10
    return None


def falls_off(n):
    if n > 0:
        return n + 0.5


def returns_optional_var(n):
    x = None
    if n > 2:
        x = n
    return x


def test_returning_a_value_or_none():
    for n in (3, -3, 0):
        same(value_or_none, n)
        same(falls_off, n)
        same(returns_optional_var, n)


def optional_truth(n):
    x = None
    if n > 0:
        x = n - 1
    if x:
        return 1
    if not x:
        return 2
    return 3


def test_truth_of_optional():
    for n in (-1, 1, 2):
        same(optional_truth, n)


def eq_none(n):
    x = None
    if n > 0:
        x = n
    return (x == None, x != None, x is None, None is x)  # noqa: E711


def test_equality_with_none():
    for n in (-1, 4):
        same(eq_none, n)


def uses_none(n):
    x = None
    if n > 2:
        x = n
    return x + 1


def test_using_none_as_a_value_raises_typeerror():
    assert kiln.njit(uses_none)(5) == 6
    with pytest.raises(TypeError):
        uses_none(1)
    with pytest.raises(TypeError, match="None"):
        kiln.njit(uses_none)(1)


@kiln.njit
def callee(x):
    if x is None:
        return 0.0
    return x * 2.0


def passes_optional(n):
    x = None
    if n > 0:
        x = n * 1.0
    return callee(x) + callee(None) + callee(3.0)


def test_optional_passed_to_a_jitted_function():
    for n in (-1, 2):
        assert kiln.njit(passes_optional)(n) == passes_optional(n)


def optional_array(n):
    a = None
    if n > 0:
        a = np.arange(n) * 2.0
    if a is None:
        return 0.0
    return a.sum()


def returns_optional_array(n):
    if n > 0:
        return np.ones(n)
    return None


def test_optional_array_no_leak():
    for n in (0, 4):
        same(optional_array, n)
    f = kiln.njit(returns_optional_array)
    assert f(0) is None
    np.testing.assert_array_equal(f(3), np.ones(3))


def optional_str(n):
    s = None
    if n > 0:
        s = "ab" * n
    if s is not None:
        return len(s)
    return -1


def test_optional_str():
    for n in (0, 2):
        same(optional_str, n)


def optional_in_tuple(n):
    x = None
    if n > 0:
        x = n
    return (x, n)


def test_optional_inside_a_tuple_result():
    for n in (0, 2):
        same(optional_in_tuple, n)


def int_or_str(n):
    if n > 0:
        x = 1
    else:
        x = "a"
    return 0


def test_mismatch_where_optional_does_not_apply_is_an_error():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(int_or_str)(1)
    assert_diagnostic(info.value, kiln.errors.TypingError, int_or_str, '"a"',
                      contains=["int64", "str"])


def dead_branch_uses_none(a, b=None):
    if b is None:
        return a
    return a + b


def test_branch_on_none_argument_is_pruned():
    # b is None (typed as none): the `a + b` branch is never typed, as in Numba
    same(dead_branch_uses_none, 1)
    same(dead_branch_uses_none, 1, 2)


def eq_value(n):
    x = None
    if n > 0:
        x = n
    return x == 3, x != 3, 3 == x, x == 2.5, 2.5 != x


def test_equality_with_a_number_is_false_for_none():
    for n in (-1, 3, 4):
        same(eq_value, n)
