"""Reference counting of tuples that hold arrays, through the lowering model's visit_refs.

A tuple value holds one reference to each array it contains (at any depth): building one
increfs its arrays, releasing it decrefs them. Each test runs the function compiled and
interpreted (CPython and NumPy are the oracle for the values) and checks that the runtime's
allocation counters balance once the result is dropped (the conftest leak fixture checks it
again around every test). Covered: a tuple returned, stored in a variable and aliased,
rebound in a loop, passed to and returned from a jitted callee (borrowed parameters
included), unpacked (flat and nested), indexed with a run-time index, chosen by a
conditional expression, dropped by a raise, passed through a recursion."""

import gc

import numpy as np
import pytest

import kiln


def outstanding():
    s = kiln.runtime.memory_stats()
    return s.alloc - s.free, s.mi_alloc - s.mi_free


def same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    else:  # NumPy scalars come back as Python numbers, as in Numba
        want = want.item() if isinstance(want, np.generic) else want
        assert type(got) is type(want) and got == want


def check(f, *args):
    """f compiled against f interpreted; the runtime's counters balance after the call."""
    gc.collect()
    before = outstanding()
    try:
        want = f.py_func(*args)
    except Exception as e:  # the compiled function must raise the same
        with pytest.raises(type(e), match=str(e)):
            f(*args)
    else:
        got = f(*args)
        same(got, want)
        del got, want  # want too: a recursive py_func calls the compiled function inside
    gc.collect()
    assert outstanding() == before


@kiln.njit
def make_pair(n):
    return (np.zeros(n), np.ones(n))


@kiln.njit
def ret_tuple(n):
    a = np.zeros(n)
    b = np.arange(n) * 1.0
    return (a, b)


@kiln.njit
def var_alias(n):
    t = (np.zeros(n), np.ones(n))
    u = t
    return u[0].sum() + u[1].sum() + t[1][0]


@kiln.njit
def rebind_in_loop(n):
    t = (np.zeros(n), np.ones(n))
    for i in range(4):
        t = (t[1] + 1.0, t[0])
    return t


@kiln.njit
def sum_pair(t):
    return t[0].sum() + t[1].sum()


@kiln.njit
def pass_to_callee(n):
    return sum_pair((np.zeros(n), np.arange(n) * 1.0))


@kiln.njit
def identity(t):
    return t


@kiln.njit
def pass_through_callee(n):
    t = identity((np.zeros(n), np.arange(n) * 2.0))
    return t[1].sum()


@kiln.njit
def unpack_callee(n):
    a, b = make_pair(n)
    return a.sum() + b.sum()


@kiln.njit
def unpack_in_loop(n):
    s = 0.0
    for i in range(5):
        a, b = make_pair(n)
        s += a.sum() + b.sum() + i
    return s


@kiln.njit
def nested(n):
    return ((np.zeros(n), 1), (np.ones(n), (np.arange(n) * 1.0, 2.5)))


@kiln.njit
def nested_from_callee(n):
    t = nested(n)
    (a, k), (b, (c, x)) = t
    return a.sum() + k + b.sum() + c.sum() + x


@kiln.njit
def runtime_index(n):
    t = (np.zeros(n), np.ones(n), np.arange(n) * 1.0)
    s = 0.0
    for i in range(3):
        s += t[i].sum()
    return s


@kiln.njit
def conditional(n, c):
    t = (np.zeros(n), np.ones(n)) if c else (np.ones(n), np.arange(n) * 1.0)
    return t[1].sum()


@kiln.njit
def raise_holding(n):
    t = (np.zeros(n), np.ones(n))
    if n > 2:
        raise ValueError("too big")
    return t[0].sum()


@kiln.njit
def callee_raises(n):
    if n > 2:
        raise ValueError("callee")
    return (np.zeros(n), np.ones(n))


@kiln.njit
def caller_of_raising(n):
    a = np.ones(n)
    t = callee_raises(n)
    return t[0].sum() + a.sum()


@kiln.njit
def swap(t):
    a, b = t
    return (b, a)


@kiln.njit
def rotate(t, k):
    if k == 0:
        return t
    return rotate((t[1], t[0] + 1.0), k - 1)


@pytest.mark.parametrize("n", [0, 3])
def test_tuple_returned(n):
    check(ret_tuple, n)


def test_tuple_in_a_variable_and_its_alias():
    check(var_alias, 4)


def test_tuple_rebound_in_a_loop():
    check(rebind_in_loop, 3)


def test_tuple_passed_to_a_jitted_callee():
    check(pass_to_callee, 5)


def test_tuple_passed_through_a_jitted_callee():
    check(pass_through_callee, 5)


def test_tuple_from_a_callee_unpacked():
    check(unpack_callee, 4)
    check(unpack_in_loop, 4)


def test_nested_tuples_of_arrays():
    check(nested, 3)
    check(nested_from_callee, 3)


def test_tuple_indexed_at_run_time():
    check(runtime_index, 4)


@pytest.mark.parametrize("c", [True, False])
def test_tuple_from_a_conditional_expression(c):
    check(conditional, 4, c)


@pytest.mark.parametrize("n", [2, 5])
def test_raise_while_holding_a_tuple(n):
    check(raise_holding, n)
    check(caller_of_raising, n)


def test_tuple_of_python_arrays_in_and_out():
    x, y = np.arange(5.0), np.ones(3)
    check(swap, (x, y))
    check(identity, (x, (y, x)))
    got = identity((x, y))
    assert got[0] is x and got[1] is y  # borrowed arrays come back as themselves


def test_tuple_through_recursion():
    check(rotate, (np.zeros(3), np.ones(3)), 4)
