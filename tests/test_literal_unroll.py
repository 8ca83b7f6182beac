"""literal_unroll (issue 10, "Values"): `for x in literal_unroll(t)` over a tuple whose items
have different types compiles the body once per item, each copy typed for its item, as
Numba's literal_unroll; continue, break and the else clause behave as in the interpreter.

CPython is the oracle (kiln.literal_unroll is the identity in the interpreter).
"""

import numpy as np
import pytest

import kiln
from kiln import literal_unroll
from harness import assert_diagnostic

MIXED = (1, 2.5, "abc", (4, 5))


def check(f, *args):
    expected = f(*args)
    got = kiln.njit(f)(*args)
    if isinstance(expected, np.generic):
        expected = expected.item()
    assert type(got) is type(expected) and got == expected, (got, expected)


def total(t):
    acc = 0.0
    for x in literal_unroll(t):
        acc += x * 2
    return acc


def test_parameter_tuple():
    check(total, (1, 2.5, True))
    check(total, (np.float32(1.5), 3))


def stringify(n):
    r = ""
    for x in literal_unroll((n, "a", 2.5, True)):
        r += str(x)
    return r


def test_tuple_display():
    check(stringify, 7)


def count_global():
    s = 0
    for item in literal_unroll(MIXED):
        s += 1
    return s


def with_array(t):
    s = 0.0
    for x in literal_unroll(t):
        s += x.sum()
    return s


def test_global_and_arrays():
    check(count_global)
    check(with_array, (np.arange(4.0), np.ones((2, 3), dtype=np.int32)))


def control(t):
    s = 0
    for x in literal_unroll(t):
        s += 1
        if s == 2:
            continue
        if s == 3:
            break
        s += 10
    else:
        s = -1
    return s


def no_break(t):
    s = 0
    for x in literal_unroll(t):
        s += 1
    else:
        s += 100
    return s


def test_continue_break_else():
    check(control, (1, 2.0, "x", 4))
    check(control, (1, 2.0))
    check(no_break, (1, "b"))


def homogeneous(a):
    s = 0.0
    for x in literal_unroll(a):
        s += x
    return s


def test_non_tuple_iterates_normally():
    check(homogeneous, np.arange(5.0))


def local_tuple(n):
    t = (n, 1.5)
    s = 0.0
    for x in literal_unroll(t):
        s += x
    return s


def outside_loop(t):
    return literal_unroll(t)


def test_errors():
    with pytest.raises(kiln.errors.UnsupportedError) as info:
        kiln.njit(local_tuple)(1)
    assert_diagnostic(info.value, kiln.errors.UnsupportedError, local_tuple, "t)",
                      contains=["literal_unroll", "tuple"])
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(outside_loop)((1, 2))
    assert_diagnostic(info.value, kiln.errors.TypingError, outside_loop, "literal_unroll(t)",
                      contains=["for loop"])
