"""Exceptions raised by compiled code arrive in Python with their class and arguments.

Exception arguments are compile-time constants (as in Numba's nopython mode). After an
exception the dispatcher stays usable, and the autouse leak check (conftest.py) asserts that no
runtime memory was lost on the way out.
"""

import pytest

import kiln
from harness import check


class KilnTestError(Exception):
    pass


class DerivedTestError(KilnTestError):
    pass


def raise_instance(x):
    if x > 0:
        raise ValueError("x must not be positive")
    return x


def raise_class(x):
    if x > 0:
        raise ValueError
    return -x


def raise_user(x):
    if x == 1:
        raise KilnTestError("first", 1)
    if x == 2:
        raise DerivedTestError("second", 2.5, True)
    if x == 3:
        raise KilnTestError
    return x * 2


def raise_other_builtins(x):
    if x == 1:
        raise TypeError("bad type")
    if x == 2:
        raise KeyError("missing")
    if x == 3:
        raise IndexError("out of range")
    if x == 4:
        raise RuntimeError("runtime", 4)
    if x == 5:
        raise NotImplementedError
    return 0


@kiln.njit
def depth3(x):
    if x == -1:
        raise KilnTestError("minus one at depth 3", -1)
    if x < 0:
        raise KilnTestError("negative at depth 3")
    return 10 // x


@kiln.njit
def depth2(x):
    return depth3(x) + 1


@kiln.njit
def depth1(x):
    return depth2(x) * 2


def raise_in_loop(n):
    total = 0
    for i in range(n):
        if i == 7:
            raise ValueError("reached seven")
        total += i
    return total


def raise_after_tuple_work(t):
    a, b = t
    if a > b:
        raise OverflowError("a > b")
    return b - a


@pytest.mark.parametrize("x", [1, -1, 0])
def test_raise_instance_with_message(x):
    check(raise_instance, x)


@pytest.mark.parametrize("x", [1, -1])
def test_raise_class(x):
    check(raise_class, x)


@pytest.mark.parametrize("x", [1, 2, 3, 4])
def test_user_defined_exceptions(x):
    check(raise_user, x)


def test_user_defined_exception_is_catchable_by_base_class():
    f = kiln.njit(raise_user)
    with pytest.raises(KilnTestError) as info:
        f(2)
    assert type(info.value) is DerivedTestError
    assert info.value.args == ("second", 2.5, True)


@pytest.mark.parametrize("x", [1, 2, 3, 4, 5, 6])
def test_other_builtin_exceptions(x):
    check(raise_other_builtins, x)


def test_exception_from_depth_3():
    with pytest.raises(KilnTestError) as info:
        depth1(-1)
    assert info.value.args == ("minus one at depth 3", -1)
    with pytest.raises(KilnTestError) as info:
        depth1(-5)
    assert info.value.args == ("negative at depth 3",)
    assert depth1(5) == (10 // 5 + 1) * 2


def test_zero_division_from_depth_3():
    with pytest.raises(ZeroDivisionError) as info:
        depth1(0)
    try:
        10 // 0
    except ZeroDivisionError as exc:
        assert info.value.args == exc.args
    assert depth1(3) == (10 // 3 + 1) * 2


@pytest.mark.parametrize("n", [3, 8, 20])
def test_raise_inside_loop(n):
    check(raise_in_loop, n)


def test_function_usable_after_many_exceptions():
    f = kiln.njit(raise_in_loop)
    for _ in range(200):
        with pytest.raises(ValueError):
            f(10)
    assert f(5) == 10
    assert len(f.signatures) == 1


def test_raise_after_tuple_work():
    check(raise_after_tuple_work, (3, 1))
    check(raise_after_tuple_work, (1, 3))
    check(raise_after_tuple_work, (1.5, 0.5))


def test_traceback_points_into_python_caller():
    # The exception propagates as an ordinary Python exception through the caller's frame.
    f = kiln.njit(raise_instance)

    def caller():
        return f(1)

    with pytest.raises(ValueError) as info:
        caller()
    assert any(entry.name == "caller" for entry in info.traceback)
