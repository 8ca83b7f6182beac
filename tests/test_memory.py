"""Memory management of arrays made by compiled code: every runtime allocation is freed once.

kiln's runtime counts the buffers (``alloc``/``free``) and meminfos (``mi_alloc``/``mi_free``)
that compiled code allocates and frees (``kiln.runtime.memory_stats()``, Numba's
``rtsys.get_allocation_stats()``). These tests read the counters before and after: an array
made in compiled code and returned to Python stays allocated while Python holds it (or a view
of it) and is freed when the last reference goes; temporaries, arrays dropped by exceptions,
arrays passed between compiled functions and recursion never leak. The autouse leak check in
conftest.py also asserts the balance around every test.
"""

import gc
import os
import threading

import numpy as np
import pytest

import kiln
from harness import compiled


def outstanding():
    """(buffers, meminfos) allocated by compiled code and not freed yet."""
    s = kiln.runtime.memory_stats()
    return s.alloc - s.free, s.mi_alloc - s.mi_free


def allocations():
    """(buffers, meminfos) allocated so far."""
    s = kiln.runtime.memory_stats()
    return s.alloc, s.mi_alloc


def held(before, n):
    """``before`` plus ``n`` outstanding buffers and meminfos."""
    return before[0] + n, before[1] + n


# --------------------------------------------------------------------------------------------
# Compiled functions: the callees are dispatchers (jitted callees), the others are compiled
# once through harness.compiled.

@kiln.njit
def make(n):
    return np.arange(n) * 2.0


@kiln.njit
def make_2d(n):
    a = np.zeros((n, n))
    for i in range(n):
        a[i, i] = i + 1.0
    return a


def row_of_new(n):
    a = make_2d(n)
    return a[n - 1]


def rows_of_new(n):
    a = make_2d(n)
    return a[0], a[n - 1]


def slice_of_new(n):
    a = np.arange(n * 1.0)
    return a[1::2]


def transpose_of_new(n):
    return make_2d(n).T


def row_of_input(a):
    return a[1]


def ident(a):
    return a


def consume(a):
    return a.sum()


def temporaries(a, n):
    s = 0.0
    for _ in range(n):
        s += (a * 2).sum()
    return s


def rebind_in_loop(n):
    a = np.zeros(4)
    for _ in range(n):
        a = a + 1
    return a[0]


def branch_alloc(flag, n):
    if flag:
        a = np.zeros(n)
    else:
        a = np.ones(n)
    b = a + 1
    return b.sum()


def raise_after_alloc(n, flag):
    a = np.ones(n)
    b = a * 2
    c = np.zeros((n, n))
    if flag:
        raise ValueError("x")
    return a.sum() + b.sum() + c.sum()


def raise_in_loop(n):
    total = 0.0
    for i in range(n):
        t = np.full(8, i * 1.0)
        if i == n - 1:
            raise IndexError("too far")
        total += t.sum()
    return total


def zero_division_after_alloc(n, k):
    a = np.ones(n, np.int64)
    b = a + 1
    return b[0] // k


@kiln.njit
def callee_raises(n):
    a = np.ones(n)
    if n > 3:
        raise ValueError("callee")
    return a


def caller_of_raising_callee(n):
    b = np.zeros(n)
    c = callee_raises(n)
    return b + c


def outer_new_array(n):
    return make(n) * 2


def outer_passthrough(n):
    return make(n)


def outer_tuple(n):
    a = make(n)
    return a, make_2d(n), a.sum()


def pair_arrays(n):
    return np.zeros(n), np.ones((n, 2))


def array_and_scalar(n):
    a = np.arange(n)
    return a, a.sum()


def same_array_twice(n):
    a = np.ones(n)
    return a, a


@kiln.njit
def recursive_sum(n):
    a = np.full(4, n * 1.0)
    if n == 0:
        return a.sum()
    return a.sum() + recursive_sum(n - 1)


@kiln.njit
def recursive_build(n):
    if n == 0:
        return np.zeros(3)
    return recursive_build(n - 1) + 1


def out_temporary(a):
    return np.maximum(a, 1.0, out=np.zeros(3))


def out_local(a):
    b = np.zeros(3)
    r = np.sqrt(a, out=b)
    return r.sum() + b.sum()


def empty_arrays(n):
    a = np.empty(0)
    b = np.zeros((n, 0))
    return a, b, np.arange(0)


def big(n):
    a = np.empty(n)
    a[0] = 1.0
    a[n - 1] = 2.0
    return a


def big_temporary(n):
    return np.ones(n).sum()


def copies(a):
    return a.copy(), np.copy(a), np.zeros_like(a), np.empty_like(a)


def readonly_sum(a):
    return a.sum()


def get_from_temporary(a, i):
    return (a * 1)[i]


def broadcast_mismatch(n):
    return make(n) + make(n + 1)


boundscheck_get = kiln.njit(boundscheck=True)(get_from_temporary)


# --------------------------------------------------------------------------------------------
# Arrays returned to Python.

def test_memory_stats_interface():
    s = kiln.runtime.memory_stats()
    assert s._fields == ("alloc", "free", "mi_alloc", "mi_free")
    assert s["alloc"] == s.alloc and "free" in s and dict(s)["mi_free"] == s.mi_free
    assert kiln.runtime.get_allocation_stats().alloc >= s.alloc


def test_returned_array_is_freed_when_python_drops_it():
    make(1)  # compile first
    before = outstanding()
    a = make(10)
    assert outstanding() == held(before, 1)
    np.testing.assert_array_equal(a, np.arange(10) * 2.0)
    del a
    assert outstanding() == before


def test_many_returned_arrays():
    before = outstanding()
    arrays = [make_2d(n) for n in range(1, 30)]
    assert outstanding() == held(before, 29)
    del arrays[::2]
    assert outstanding() == held(before, 14)
    del arrays
    assert outstanding() == before


def test_returned_array_base_object_keeps_memory():
    """Python-side views of a compiled array keep it alive after the array is dropped."""
    before = outstanding()
    a = make(10)
    v = a[3:7]
    w = v.reshape(2, 2)
    del a, v
    gc.collect()
    assert outstanding() == held(before, 1)
    np.testing.assert_array_equal(w, (np.arange(3, 7) * 2.0).reshape(2, 2))
    del w
    assert outstanding() == before


def test_returned_array_survives_gc_and_reuse():
    a = make_2d(6)
    want = np.diag(np.arange(1.0, 7.0))
    gc.collect()
    junk = [make(36) for _ in range(10)]
    np.testing.assert_array_equal(a, want)
    del junk, a


def test_view_returned_keeps_base_alive_until_dropped():
    before = outstanding()
    v = compiled(row_of_new)(5)
    assert outstanding() == held(before, 1)  # the whole 5x5 base, held by the view
    gc.collect()
    np.testing.assert_array_equal(v, [0.0, 0.0, 0.0, 0.0, 5.0])
    del v
    assert outstanding() == before


def test_two_views_of_one_base():
    before = outstanding()
    r0, r1 = compiled(rows_of_new)(4)
    assert outstanding() == held(before, 1)
    del r0
    assert outstanding() == held(before, 1)
    np.testing.assert_array_equal(r1, [0.0, 0.0, 0.0, 4.0])
    del r1
    assert outstanding() == before


@pytest.mark.parametrize("func,want", [
    (slice_of_new, np.arange(1.0, 6.0, 2)), (transpose_of_new, np.diag(np.arange(1.0, 7.0))),
], ids=["slice", "transpose"])
def test_sliced_and_transposed_views_keep_base_alive(func, want):
    before = outstanding()
    v = compiled(func)(6)
    assert outstanding() == held(before, 1)
    gc.collect()
    np.testing.assert_array_equal(v, want)
    del v
    assert outstanding() == before


def test_view_of_input_allocates_nothing():
    a = np.arange(12.0).reshape(3, 4)
    before = allocations()
    v = compiled(row_of_input)(a)
    assert allocations() == before
    del a
    gc.collect()
    np.testing.assert_array_equal(v, [4.0, 5.0, 6.0, 7.0])
    del v


def test_identity_of_compiled_array_is_the_same_object():
    a = make(5)
    before = outstanding()
    b = compiled(ident)(a)
    assert b is a and outstanding() == before
    del a
    assert outstanding() == before  # still held by b
    np.testing.assert_array_equal(b, np.arange(5) * 2.0)
    del b
    assert outstanding() == held(before, -1)


def test_compiled_array_passed_back_in_is_not_freed():
    a = make(100)
    before = outstanding()
    for _ in range(50):
        assert compiled(consume)(a) == a.sum()
    assert outstanding() == before
    np.testing.assert_array_equal(a, np.arange(100) * 2.0)
    del a
    assert outstanding() == held(before, -1)


def test_readonly_compiled_array_passed_back_in():
    a = make(10)
    a.setflags(write=False)
    assert compiled(readonly_sum)(a) == 90.0
    del a


def test_copies_of_an_input_are_freed():
    a = np.arange(6.0).reshape(2, 3)
    before = outstanding()
    out = compiled(copies)(a)
    assert outstanding() == held(before, 4)
    for c in out:
        assert not np.shares_memory(c, a)
    del out, c
    assert outstanding() == before


def test_ufunc_out_arrays_are_freed():
    """An out= array made in compiled code is returned once (out_temporary) or freed."""
    a = np.array([0.25, 1.0, 4.0])
    before = outstanding()
    r = compiled(out_temporary)(a)
    np.testing.assert_array_equal(r, [1.0, 1.0, 4.0])
    assert outstanding() == held(before, 1)
    del r
    assert outstanding() == before
    assert compiled(out_local)(a) == 2 * (0.5 + 1.0 + 2.0)
    assert outstanding() == before


def test_empty_arrays_balance():
    before = outstanding()
    out = compiled(empty_arrays)(3)
    assert [x.shape for x in out] == [(0,), (3, 0), (0,)]
    del out
    assert outstanding() == before


def test_big_arrays_are_freed():
    """Arrays of tens of MB (the runtime's big-block path) are freed like small ones."""
    n = 4 * 1024 * 1024  # 32 MiB of float64
    before = outstanding()
    for _ in range(5):
        a = compiled(big)(n)
        assert a.shape == (n,) and a[0] == 1.0 and a[-1] == 2.0
        del a
    assert outstanding() == before
    assert compiled(big_temporary)(n) == float(n)
    assert outstanding() == before


# --------------------------------------------------------------------------------------------
# Temporaries and control flow inside compiled code.

def test_temporaries_in_a_loop_do_not_leak():
    a = np.arange(10.0)
    before = outstanding()
    assert compiled(temporaries)(a, 1000) == 1000 * (a * 2).sum()
    assert outstanding() == before


def test_rebinding_in_a_loop_frees_the_old_array():
    before = outstanding()
    assert compiled(rebind_in_loop)(500) == 500.0
    assert outstanding() == before


@pytest.mark.parametrize("flag", [True, False])
def test_arrays_made_in_branches_are_freed(flag):
    before = outstanding()
    assert compiled(branch_alloc)(flag, 5) == branch_alloc(flag, 5)
    assert outstanding() == before


# --------------------------------------------------------------------------------------------
# Exceptions raised after arrays were allocated.

def test_exception_after_allocation_frees_the_arrays():
    f = compiled(raise_after_alloc)
    before = outstanding()
    for _ in range(20):
        with pytest.raises(ValueError) as info:
            f(8, True)
        assert info.value.args == ("x",)
        del info
    assert outstanding() == before
    assert f(3, False) == 3.0 + 6.0
    assert outstanding() == before


def test_exception_in_a_loop_frees_the_arrays():
    before = outstanding()
    with pytest.raises(IndexError, match="too far"):
        compiled(raise_in_loop)(10)
    assert outstanding() == before


def test_zero_division_after_allocation_frees_the_arrays():
    before = outstanding()
    with pytest.raises(ZeroDivisionError):
        compiled(zero_division_after_alloc)(5, 0)
    assert outstanding() == before
    assert compiled(zero_division_after_alloc)(5, 2) == 1


def test_boundscheck_indexerror_frees_the_temporary():
    before = outstanding()
    with pytest.raises(IndexError):
        boundscheck_get(np.arange(3.0), 5)
    assert outstanding() == before
    assert boundscheck_get(np.arange(3.0), 2) == 2.0
    assert outstanding() == before


def test_exception_in_a_callee_frees_caller_and_callee_arrays():
    before = outstanding()
    with pytest.raises(ValueError, match="callee"):
        compiled(caller_of_raising_callee)(5)
    assert outstanding() == before
    r = compiled(caller_of_raising_callee)(2)
    np.testing.assert_array_equal(r, np.ones(2))
    del r
    assert outstanding() == before


def test_broadcast_error_frees_the_operands():
    before = outstanding()
    with pytest.raises(ValueError):
        compiled(broadcast_mismatch)(3)
    assert outstanding() == before


# --------------------------------------------------------------------------------------------
# Compiled functions calling compiled functions; tuples; recursion.

def test_callee_returning_a_new_array():
    before = outstanding()
    r = compiled(outer_new_array)(6)
    np.testing.assert_array_equal(r, np.arange(6) * 4.0)
    assert outstanding() == held(before, 1)
    del r
    r = compiled(outer_passthrough)(6)
    np.testing.assert_array_equal(r, np.arange(6) * 2.0)
    assert outstanding() == held(before, 1)
    del r
    assert outstanding() == before


def outer_plus_one(n):
    return make(n) + 1.0


def test_callee_result_used_in_an_expression():
    """The callee's array is a temporary of the caller's expression: freed inside."""
    before = outstanding()
    r = compiled(outer_plus_one)(4)
    np.testing.assert_array_equal(r, np.arange(4) * 2.0 + 1)
    del r
    assert outstanding() == before


def test_tuple_with_arrays_from_callees():
    before = outstanding()
    a, m, s = compiled(outer_tuple)(4)
    assert s == 12.0 and m.shape == (4, 4)
    assert outstanding() == held(before, 2)
    del a
    assert outstanding() == held(before, 1)
    del m
    assert outstanding() == before


def test_tuple_of_two_arrays():
    before = outstanding()
    t = compiled(pair_arrays)(3)
    assert outstanding() == held(before, 2)
    first = t[0]
    del t
    assert outstanding() == held(before, 1)
    np.testing.assert_array_equal(first, np.zeros(3))
    del first
    assert outstanding() == before


def test_tuple_of_array_and_scalar():
    before = outstanding()
    a, s = compiled(array_and_scalar)(5)
    assert s == 10 and type(s) is int
    assert outstanding() == held(before, 1)
    del a
    assert outstanding() == before


def test_same_array_twice_in_a_tuple():
    before = outstanding()
    a, b = compiled(same_array_twice)(3)
    assert np.shares_memory(a, b)
    assert outstanding() == held(before, 1)
    a[0] = 5.0
    assert b[0] == 5.0
    del a
    assert outstanding() == held(before, 1)
    del b
    assert outstanding() == before


def test_recursion_with_arrays():
    before = outstanding()
    assert recursive_sum(20) == 4.0 * sum(range(21))
    assert outstanding() == before
    r = recursive_build(10)
    np.testing.assert_array_equal(r, np.full(3, 10.0))
    assert outstanding() == held(before, 1)
    del r
    assert outstanding() == before


# --------------------------------------------------------------------------------------------
# Threads: compiled code may run without the GIL; the counters must stay exact.

def test_threads_allocating_and_freeing():
    f = make_2d
    g = compiled(temporaries)
    f(2)
    g(np.ones(2), 1)
    before = outstanding()
    errors = []

    def work():
        try:
            for i in range(200):
                a = f(1 + i % 7)
                assert a[0, 0] == 1.0
                assert g(np.ones(4), 5) == 40.0
                del a
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert outstanding() == before


# --------------------------------------------------------------------------------------------
# Input arrays: compiled code never frees what NumPy owns, and Python references balance.

def rebind_argument(a):
    a = a + 1
    a = a * 2
    return a


def tuple_argument(t):
    return t[0] + t[1], t[1]


def view_in_tuple(a):
    return a[0], a.sum()


def test_rebinding_an_argument_leaves_the_input_alone():
    a = np.arange(4.0)
    before = outstanding()
    r = compiled(rebind_argument)(a)
    np.testing.assert_array_equal(a, np.arange(4.0))
    np.testing.assert_array_equal(r, (np.arange(4.0) + 1) * 2)
    assert outstanding() == held(before, 1)
    del r
    assert outstanding() == before


def test_tuple_of_arrays_as_argument():
    a, b = np.arange(3.0), np.ones(3)
    before = outstanding()
    s, second = compiled(tuple_argument)((a, b))
    np.testing.assert_array_equal(s, a + b)
    assert second is b
    assert outstanding() == held(before, 1)
    del s, second
    assert outstanding() == before


@pytest.mark.parametrize("func", [ident, row_of_input, view_in_tuple, consume, copies],
                         ids=lambda f: f.__name__)
def test_python_references_to_inputs_balance(func):
    """Many calls leave the input's reference count (and the dtype's) where it was."""
    import sys

    import gc

    a = np.arange(12.0).reshape(3, 4)
    f = compiled(func)
    f(a)  # compile first

    def calls():
        for _ in range(1000):
            r = f(a)
            del r
        gc.collect()
        return sys.getrefcount(a), sys.getrefcount(a.dtype)

    # a first round may warm one-time caches (NumPy's, Python's); a leak per call shows as a
    # growth of 1000 between the next two rounds
    calls()
    refs = calls()
    after = calls()
    assert after == refs


_LEAK_CHECK_PROBE = '''
import numpy as np
import kiln

def make(n):
    return np.ones(n)

def test_fails_holding_an_array():
    a = kiln.njit(make)(5)
    assert a.sum() == 0.0

def test_after_a_failure():
    assert kiln.njit(make)(3).sum() == 3.0

def test_leaks():
    global KEPT
    KEPT = kiln.njit(make)(4)
'''


def test_leak_check_blames_neither_a_failed_test_nor_the_next_one(tmp_path):
    # the suite's own conftest, on a probe file: a failure keeps its array alive through the
    # traceback; neither it nor the test after it may be reported as a leak, a real one still is
    import shutil
    import subprocess
    import sys
    shutil.copy(os.path.join(os.path.dirname(__file__), "conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_probe.py").write_text(_LEAK_CHECK_PROBE)
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(tmp_path)], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path).stdout
    assert "1 failed, 2 passed, 1 error" in out, out
    lines = [l for l in out.splitlines() if l.startswith(("FAILED", "ERROR"))]
    assert any("test_fails_holding_an_array" in l and l.startswith("FAILED") for l in lines), out
    assert any("test_leaks" in l and l.startswith("ERROR") for l in lines), out
    assert not any("test_after_a_failure" in l for l in lines), out
