"""Global and closure NumPy arrays frozen into compiled code (issue 10, "Values"): as Numba,
the array is copied at compile time and read-only in the code (writing to it is a compile
error); global tuples of arrays; `recompile()` picks up a changed global.

NumPy/CPython is the oracle where one exists.
"""

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

TABLE = np.arange(10.0) * 1.5
GRID = np.arange(12, dtype=np.int32).reshape(3, 4)
PAIR = (np.ones(3), np.arange(4))
CHANGING = np.array([1.0, 2.0, 3.0])
FORTRAN = np.asfortranarray(np.arange(6.0).reshape(2, 3))


def read_table(i):
    return TABLE[i] * 2.0 + TABLE.sum()


def read_grid(i, j):
    return GRID[i, j] + GRID.shape[1]


def read_pair(i):
    return PAIR[0].sum() + PAIR[1][i]


def whole_array_ops():
    return (TABLE * 2.0).mean() + np.sqrt(TABLE).max()


def returns_global():
    return TABLE


def test_global_array_reads():
    for i in (0, 3, -1):
        assert kiln.njit(read_table)(i) == read_table(i)
    assert kiln.njit(read_grid)(2, 3) == read_grid(2, 3)
    assert kiln.njit(whole_array_ops)() == pytest.approx(whole_array_ops())


def test_global_tuple_of_arrays():
    for i in (0, 3):
        assert kiln.njit(read_pair)(i) == read_pair(i)


def test_fortran_global_is_copied_in_c_order():
    def f(i, j):
        return FORTRAN[i, j]
    assert kiln.njit(f)(1, 2) == f(1, 2)


def test_returned_global_is_a_read_only_copy():
    r = kiln.njit(returns_global)()
    np.testing.assert_array_equal(r, TABLE)
    assert not r.flags.writeable
    assert TABLE.flags.writeable  # the global itself is untouched


def write_global():
    TABLE[0] = 1.0
    return 0


def fill_global():
    TABLE.fill(0.0)
    return 0


def test_writing_a_global_array_is_a_compile_error():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(write_global)()
    assert_diagnostic(info.value, kiln.errors.TypingError, write_global, "TABLE[0] = 1.0",
                      contains=["read-only"])
    with pytest.raises(kiln.errors.TypingError):
        kiln.njit(fill_global)()


def read_changing(i):
    return CHANGING[i]


def test_frozen_value_and_recompile():
    global CHANGING
    f = kiln.njit(read_changing)
    assert f(1) == 2.0
    CHANGING[1] = 20.0  # changed in place: the compiled code keeps its frozen copy
    assert f(1) == 2.0
    CHANGING = np.array([5.0, 6.0, 7.0])  # rebound
    assert f(1) == 2.0
    f.recompile()
    assert f(1) == read_changing(1) == 6.0


def make_closure():
    weights = np.array([0.5, 0.25, 0.25])

    def dot(a):
        s = 0.0
        for i in range(3):
            s += weights[i] * a[i]
        return s
    return dot


def test_closure_array():
    dot = make_closure()
    a = np.array([4.0, 8.0, 12.0])
    assert kiln.njit(dot)(a) == dot(a)


def bad_dtype():
    return OBJECTS[0]


OBJECTS = np.array(["a", "b"], dtype=object)


def test_unsupported_dtype_is_a_clear_error():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_dtype)()
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_dtype, "OBJECTS",
                      contains=["OBJECTS", "dtype"])
