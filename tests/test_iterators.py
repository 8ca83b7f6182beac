"""for loops through the iterator protocol (GETITER/ITERNEXT in KIR): ranges, tuples, arrays of
several ndim, enumerate() and zip() over any of them, nested, with CPython as the oracle.

A loop over a 2-D array yields views of its rows; the functions here reduce them to numbers
(or copy them into lists of floats) so that CPython's results compare directly.
"""

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check

TypingError = kiln.errors.TypingError


def seq_sum(a):
    s = 0.0
    for x in a:
        s += x
    return s


def seq_int_sum(a):
    s = 0
    for x in a:
        s += x
    return int(s)  # CPython's sum of NumPy scalars stays a NumPy scalar


def enum_weighted(a):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    return s


def enum_start(a, k):
    s = 0
    for i, x in enumerate(a, k):
        s += i * 1000 + int(x)
    return s


def zip_dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def zip_three(a, b, c):
    s = 0.0
    for x, y, z in zip(a, b, c):
        s += x - 2 * y + 3 * z
    return s


def zip_four(a, b, c, d):
    s = 0.0
    for w, x, y, z in zip(a, b, c, d):
        s += w * x + y * z
    return s


def zip_range_array(n, a):
    s = 0.0
    for i, x in zip(range(n), a):
        s += i * x
    return s


def zip_range_step(a):
    s = 0.0
    for i, x in zip(range(10, 0, -3), a):
        s += i * x
    return s


def enum_zip(a, b):
    s = 0.0
    for k, (x, y) in enumerate(zip(a, b)):
        s += k * (x + y)
    return s


def zip_enum(a, b):
    s = 0.0
    for (i, x), y in zip(enumerate(a, 1), b):
        s += i * x - y
    return s


def zip_nested_zip(a, b, c):
    s = 0.0
    for (x, y), z in zip(zip(a, b), c):
        s += x * y * z
    return s


def enum_enum(a):
    s = 0
    for i, (j, x) in enumerate(enumerate(a, 5), -2):
        s += i * 100 + j * 10 + int(x)
    return s


def rows_sum(m):
    s = 0.0
    for row in m:
        for x in row:
            s += x
    return s


def rows_first(m):
    s = 0.0
    for row in m:
        s += row[0] * 2 - row[-1]
    return s


def cube_sum(t):
    s = 0.0
    for plane in t:
        for row in plane:
            for x in row:
                s += x
    return s


def enum_rows(m):
    s = 0.0
    for i, row in enumerate(m):
        s += i * row.sum()
    return s


def zip_rows(m, v):
    s = 0.0
    for row, x in zip(m, v):
        s += row[0] * x
    return s


def tuple_loop(t):
    s = 0
    for x in t:
        s += x
    return s


def enum_tuple(t):
    s = 0
    for i, x in enumerate(t):
        s += i * x
    return s


def zip_tuple_array(t, a):
    s = 0.0
    for x, y in zip(t, a):
        s += x * y
    return s


def nested_loops(a, b):
    s = 0.0
    for x in a:
        for i, y in enumerate(b):
            if i > 3:
                break
            s += x * y
    return s


def break_else(a, limit):
    for i, x in enumerate(a):
        if x > limit:
            break
    else:
        return -1
    return i


def continue_loop(a):
    s = 0.0
    for x, y in zip(a, a[1:]):
        if y < x:
            continue
        s += y - x
    return s


def modify_target(a):
    s = 0.0
    n = 0
    for x in a:
        x = x * 2
        s += x
        n += 1
    return s + n


def last_item(a):
    x = -1.0
    for x in a:
        pass
    return x


def unknown_step(n, k):
    s = 0
    for i in range(n, -n, k):
        s += i
    return s


def array_temporary(a):
    s = 0.0
    for x in a * 2.0 + 1.0:
        s += x
    return s


def slice_rows(m):
    s = 0.0
    for row in m[1:]:
        s += row[1]
    return s


V = np.array([1.5, -2.0, 3.25, 0.5, 7.0, -1.0])
W = np.array([0.5, 4.0, -1.5, 2.0])
M = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("func, args", [
    (seq_sum, (V,)),
    (seq_sum, (V[::-2],)),
    (seq_sum, (np.empty(0),)),
    (seq_int_sum, (np.arange(10, dtype=np.int32),)),
    (seq_int_sum, (np.arange(7, dtype=np.uint8),)),
    (enum_weighted, (V,)),
    (enum_start, (np.arange(5.0), 3)),
    (enum_start, (np.arange(5.0), -7)),
    (zip_dot, (V, W)),
    (zip_dot, (W, V)),
    (zip_dot, (V, np.empty(0))),
    (zip_three, (V, W, V[::-1])),
    (zip_four, (V, W, V[1:], W[::-1])),
    (zip_range_array, (4, V)),
    (zip_range_array, (10, V)),
    (zip_range_array, (0, V)),
    (zip_range_step, (V,)),
    (enum_zip, (V, W)),
    (zip_enum, (V, W)),
    (zip_nested_zip, (V, W, V)),
    (enum_enum, (np.arange(4.0),)),
    (nested_loops, (W, V)),
    (break_else, (V, 3.0)),
    (break_else, (V, 100.0)),
    (continue_loop, (V,)),
    (modify_target, (V,)),
    (last_item, (V,)),
    (last_item, (np.empty(0),)),
    (unknown_step, (10, 3)),
    (unknown_step, (10, -3)),
    (unknown_step, (-5, 2)),
    (array_temporary, (V,)),
], ids=lambda v: getattr(v, "__name__", None))
def test_iterate_1d(func, args):
    check(func, *args)


@pytest.mark.parametrize("func, arg", [
    (rows_sum, M),
    (rows_sum, M.T),
    (rows_sum, np.empty((0, 3))),
    (rows_first, M),
    (rows_first, np.asfortranarray(M)),
    (cube_sum, np.arange(24.0).reshape(2, 3, 4)),
    (cube_sum, np.arange(24.0).reshape(2, 3, 4)[:, ::-1, 1:]),
    (enum_rows, M),
    (slice_rows, M),
], ids=lambda v: getattr(v, "__name__", None))
def test_iterate_nd_gives_views_of_the_first_axis(func, arg):
    check(func, arg)


def test_zip_of_rows_and_a_vector():
    check(zip_rows, M, V)
    check(zip_rows, M, W[:2])


@pytest.mark.parametrize("func, args", [
    (tuple_loop, ((1, 2, 3, 4),)),
    (tuple_loop, ((5,),)),
    (enum_tuple, ((4, 5, 6),)),
    (zip_tuple_array, ((1.0, 2.0, 3.0), V)),
    (zip_tuple_array, ((1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0), V)),
], ids=lambda v: getattr(v, "__name__", None))
def test_iterate_tuples(func, args):
    check(func, *args)


def test_loops_leave_no_references_behind():
    m = np.arange(20.0).reshape(4, 5)
    f = kiln.njit(enum_rows)
    for _ in range(3):
        assert f(m) == enum_rows(m)
    assert f(m[::2]) == enum_rows(m[::2])


# ---- bad input: a clear error at the iterable, never a crash ------------------------------------

def iterate_number(x):
    s = 0
    for i in x:
        s += i
    return s


def iterate_number_in_zip(a, x):
    s = 0.0
    for p, q in zip(a, x):
        s += p
    return s


def iterate_0d(a):
    s = 0.0
    for x in a:
        s += x
    return s


def iterate_mixed_tuple(t):
    s = 0.0
    for x in t:
        s += x
    return s


def test_iterating_a_number_is_a_typing_error_at_the_iterable():
    with pytest.raises(TypingError) as info:
        kiln.njit(iterate_number)(5)
    assert_diagnostic(info.value, TypingError, iterate_number, "x:", contains=["iterate", "int64"])


def test_iterating_a_number_inside_zip_points_at_it():
    with pytest.raises(TypingError) as info:
        kiln.njit(iterate_number_in_zip)(V, 2.5)
    assert_diagnostic(info.value, TypingError, iterate_number_in_zip, "x):", nth=2,
                      contains=["iterate", "float64"])


def test_iterating_a_0d_array_is_a_typing_error():
    with pytest.raises(TypingError) as info:
        kiln.njit(iterate_0d)(np.array(3.0))
    assert_diagnostic(info.value, TypingError, iterate_0d, "a:", contains=["0-d"])


def test_iterating_a_tuple_of_mixed_types_is_a_typing_error():
    with pytest.raises(TypingError) as info:
        kiln.njit(iterate_mixed_tuple)((1, 2.5))
    assert_diagnostic(info.value, TypingError, iterate_mixed_tuple, "t:", contains=["one type"])


# ---- the loop form: an iterator in KIR, and prange as range ----------------------------------

def prange_zip(a):
    s = 0.0
    for i in kiln.prange(a.shape[0]):
        s += a[i]
    for i, x in zip(kiln.prange(0, 10, 3), a):
        s += i * x
    return s


def test_prange_is_range_also_inside_zip():
    check(prange_zip, V)


def test_a_loop_over_a_tuple_is_getiter_and_iternext():
    from kiln import _core

    kir = _core._stages(tuple_loop, (("tuple", "int64", "int64", "int64"),))["kir"]
    ops = [line.split("=", 1)[-1].split()[0] for line in kir.splitlines() if line.startswith("    ")]
    assert "getiter" in ops and "iternext" in ops
    assert "len" not in ops, kir
    head = next(line for line in kir.splitlines() if " iternext " in line)
    assert " ? b" in head, head


def inverse_sum(a):
    s = 0.0
    for x in a:
        s += 1.0 / float(x)  # a Python float: CPython raises as kiln does
    return s


def ratio_sum(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i / float(y) + x
    return s


@pytest.mark.parametrize("func, args", [
    (inverse_sum, (V,)),
    (inverse_sum, (np.array([1.0, 0.0, 2.0]),)),
    (ratio_sum, (V, W)),
    (ratio_sum, (V, np.array([1.0, 2.0, 0.0, 4.0]))),
    (unknown_step, (5, 0)),
], ids=["inverse", "inverse-by-zero", "ratio", "ratio-by-zero", "range-step-zero"])
def test_division_by_zero_and_bad_ranges_in_iterator_loops_raise_as_cpython(func, args):
    check(func, *args)


def inverse_sum_np(a):
    s = 0.0
    for x in a:
        s += 1.0 / x
    return s


def test_deferred_division_check_in_an_iterator_loop():
    # the loop qualifies for passes/defer.c (an iternext head over array scalars); kiln follows
    # Numba's Python error model here, where CPython's NumPy scalars give inf with a warning
    check(inverse_sum_np, V)
    check(inverse_sum_np, np.array([1.0, 0.0, 2.0]),
          expected=ZeroDivisionError("float division by zero"))


def tuple_of_arrays(a, b):
    s = 0.0
    for arr in (a, b, a):
        s += arr.sum() * arr.shape[0]
    for arr in (a * 2.0, b + 1.0):  # arrays made in compiled code: reference counted
        s += arr.sum()
    return s


def enum_tuple_of_arrays(a, b, m):
    s = 0.0
    for i, (arr, row) in enumerate(zip((a, b), m)):
        s += i * arr[0] + row[1]
    return s


def test_a_tuple_of_arrays_lends_each_array_to_the_loop():
    check(tuple_of_arrays, V, W)
    check(enum_tuple_of_arrays, V, W, M)
