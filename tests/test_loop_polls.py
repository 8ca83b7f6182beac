"""Which compiled `while` loops poll for Ctrl-C (docs/internals.md, "Runaway recursion and
Ctrl-C"). A counted loop (`while n > e:` whose body steps the signed int n towards e by a
constant in one statement of its own level, binding neither n elsewhere nor a Name e, with no
continue) ends, so it does not poll: the poll kept LLVM from counting and vectorizing it. Every
other `while` polls. CPython is the oracle for the results; the poll shows in the module's LLVM
IR as a load of kn_rt_interrupt_flag (test_fuzz_recursion.py interrupts the loops that poll).
"""

import numpy as np
import pytest

import kiln


def polls(f, *args):
    d = kiln.njit(f)
    got = d(*args)
    assert got == f(*args), (f.__name__, args)
    return "kn_rt_interrupt_flag" in "".join(d.inspect_llvm().values())


def down_gt(n):
    s = 0
    i = 0
    while n > 0:
        s += i ^ n
        n -= 3
        i += 1
    return s


def up_le_name(n, m):
    s = 0
    while n <= m:
        s += n
        n += 2
    return s


def bound_first(n):
    s = 0
    while -5 < n:
        s = s * 3 + n
        n -= 1
    return s


def with_break_and_else(n):
    s = 0
    while n >= 0:
        if s > 50:
            break
        n -= 1
        s += n
    else:
        s = -s
    return s


@kiln.njit
def countdown(n):  # inlined into its consumer; CPython iterates it as a kiln.generator
    while n > 0:
        yield n
        n -= 3


def gen_consumed(n):
    s = 0
    for i, x in enumerate(countdown(n)):
        s += i ^ x
    return s


@pytest.mark.parametrize("f, args", [
    (down_gt, (1000,)), (down_gt, (-4,)), (up_le_name, (3, 1001)), (up_le_name, (9, 2)),
    (bound_first, (20,)), (with_break_and_else, (30,)), (with_break_and_else, (5,)),
    (gen_consumed, (1000,)),
])
def test_counted_while_does_not_poll(f, args):
    assert not polls(f, *args)


def step_in_if(n):
    i = 0
    while i < n:
        if i % 2 == 0 or i > 3:
            i += 1
        else:
            i += 1
    return i


def with_continue(n):
    s = 0
    while n > 0:
        n -= 1
        if n % 3:
            continue
        s += n
    return s


def counter_bound_changes(n, m):
    while n < m:
        n += 1
        m -= 0
    return n


def counter_rebound(n):
    while n > 0:
        n -= 2
        n = n + 1
    return n


def away_from_bound(n):
    while n > 0:
        n += 1
        if n > 100:
            break
    return n


def float_counter(x):
    while x > 0:
        x -= 1
    return x


def unknown_test(n):
    while n != 0:
        n -= 1
    return n


@pytest.mark.parametrize("f, args", [
    (step_in_if, (10,)), (with_continue, (20,)), (counter_bound_changes, (1, 10)),
    (counter_rebound, (10,)), (away_from_bound, (3,)), (float_counter, (7.5,)),
    (unknown_test, (5,)),
])
def test_other_while_polls(f, args):
    assert polls(f, *args)


def test_counted_loop_vectorizable_result_matches():
    # a long counted loop, also from a NumPy int64 argument
    for n in (0, 1, 2, 3, 10**6, np.int64(77)):
        assert kiln.njit(down_gt)(n) == down_gt(int(n))
