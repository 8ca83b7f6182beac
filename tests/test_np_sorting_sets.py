"""Sorting and sets in compiled code against NumPy (issue 11, "sorting and sets"): np.partition,
np.argpartition and the methods, a.searchsorted and sorter=, np.unique's return_* flags,
np.histogram's weights=/density=, intersect1d, union1d, setdiff1d, setxor1d, isin, lexsort,
sort_complex.

NumPy is the oracle. A partition is checked as NumPy specifies it (the kth item is the one a
full sort puts there, none before it larger, none after it smaller, NaNs last), not as NumPy's
own arrangement of the other items, which is one of many valid ones."""

import warnings

import numpy as np
import pytest

import kiln
from harness import LAYOUTS, arr, assert_diagnostic, compiled, run
from test_np_stats import _same, check

TypingError = kiln.errors.TypingError

DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.uint16, np.uint64, np.float32,
          np.float64]


def _data(dtype, n=200, seed=1, nans=True):
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 40, n).astype(np.float64)
    if nans and np.issubdtype(np.dtype(dtype), np.floating):
        v[::9] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return v.astype(dtype)


# ---- partition, argpartition ----------------------------------------------------------------


def _valid_partition(p, a, kth, axis=-1):
    s = np.moveaxis(np.sort(a, axis=axis), axis, -1)
    p = np.moveaxis(p, axis, -1)
    assert p.shape == s.shape and p.dtype == s.dtype
    # every row holds the same items
    np.testing.assert_array_equal(np.sort(p, axis=-1), s)
    for k in np.atleast_1d(kth):
        k = int(k) % s.shape[-1]
        np.testing.assert_array_equal(p[..., k], s[..., k])
        pk = p[..., k:k + 1]
        if p.dtype.kind == "c":  # NumPy's complex order (NaNs last in classes): compare sorts
            np.testing.assert_array_equal(np.sort(p[..., :k], axis=-1), s[..., :k])
        elif p.dtype.kind == "f":
            assert np.all((p[..., :k] <= pk) | np.isnan(pk))
            assert np.all((p[..., k + 1:] >= pk) | np.isnan(p[..., k + 1:]))
        else:
            assert np.all(p[..., :k] <= pk) and np.all(p[..., k + 1:] >= pk)


def partition(a, k):
    return np.partition(a, k)


def partition_ax0(a, k):
    return np.partition(a, k, axis=0)


def partition_none(a, k):
    return np.partition(a, k, axis=None)


def argpartition(a, k):
    return np.argpartition(a, k)


def argpartition_ax0(a, k):
    return np.argpartition(a, k, axis=0)


def partition_method(a, k):
    a.partition(k)


def argpartition_method(a, k):
    return a.argpartition(k, axis=-1)


@pytest.mark.parametrize("dtype", DTYPES + [np.complex128])
@pytest.mark.parametrize("kth", [0, 7, 100, 199, -1, -200, (3, 150, 3, 20),
                                 np.array([10, 190])])
def test_partition_1d(dtype, kth):
    a = _data(dtype)
    if dtype == np.complex128:
        a = a + 1j * _data(np.float64, seed=2)
    _valid_partition(compiled(partition)(a, kth), a, kth)
    idx = compiled(argpartition)(a, kth)
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(np.sort(idx), np.arange(a.size))
    _valid_partition(a[idx], a, kth)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_partition_axes(layout, dtype):
    a = arr(_data(dtype, 60).reshape(6, 10), dtype, layout)
    _valid_partition(compiled(partition)(a, 4), a, 4)
    _valid_partition(compiled(partition_ax0)(a, (1, 5)), a, (1, 5), axis=0)
    _valid_partition(compiled(partition_none)(a, 30), a.ravel(), 30)
    idx = compiled(argpartition_ax0)(a, 2)
    _valid_partition(np.take_along_axis(a, idx, 0), a, 2, axis=0)
    idx = compiled(argpartition_method)(a, 9)
    _valid_partition(np.take_along_axis(a, idx, -1), a, 9)
    b = a.copy()
    compiled(partition_method)(b, 3)
    _valid_partition(b, a, 3)


def test_partition_3d_and_small():
    a = _data(np.float64, 120).reshape(4, 5, 6)
    _valid_partition(compiled(partition)(a, 2), a, 2)
    _valid_partition(compiled(partition_ax0)(a, 3), a, 3, axis=0)
    for n in (1, 2, 3, 17):
        a = _data(np.float64, n, seed=n)
        _valid_partition(compiled(partition)(a, n - 1), a, n - 1)
    a = np.zeros((0, 3))
    assert compiled(partition)(a, 1).shape == (0, 3)


@pytest.mark.parametrize("n, kth", [(5, 5), (5, -6), (0, 0), (5, (1, 9))])
def test_partition_kth_out_of_bounds(n, kth):
    """NumPy's ValueError, except for an empty array (no check, as NumPy)"""
    a = np.arange(float(n))
    for f in (partition, argpartition):
        want = run(f, a, kth)
        got = run(compiled(f), a, kth)
        assert want[0] == got[0]
        if n:
            assert type(got[1]) is ValueError and "out of bounds" in str(got[1])
    check(partition_ax0, np.zeros((0, 3)), 4)
    got = run(compiled(partition), np.arange(5.0), 7)[1]
    assert str(got) == "kth(=7) out of bounds (5)"


# ---- searchsorted -------------------------------------------------------------------------


def ss_method(a, v):
    return a.searchsorted(v)


def ss_method_right(a, v):
    return a.searchsorted(v, side="right")


def ss_sorter(a, v, s):
    return np.searchsorted(a, v, sorter=s)


def ss_sorter_right(a, v, s):
    return np.searchsorted(a, v, "right", s)


def ss_method_sorter(a, v, s):
    return a.searchsorted(v, sorter=s)


@pytest.mark.parametrize("dtype", DTYPES)
def test_searchsorted_method_and_sorter(dtype):
    a = _data(dtype, 50)
    s = np.argsort(a, kind="stable")
    srt = np.sort(a)
    v = _data(dtype, 20, seed=3)
    for x in (v, v[::2], v[0]):
        check(ss_method, srt, x)
        check(ss_method_right, srt, x)
        check(ss_sorter, a, x, s)
        check(ss_sorter_right, a, x, s)
        check(ss_method_sorter, a, x, s)
    check(ss_sorter, a, v, s.astype(np.int32))


def test_searchsorted_sorter_errors():
    a = np.array([3.0, 1.0, 2.0])
    got = run(compiled(ss_sorter), a, 2.0, np.array([1, 2]))
    assert got[0] == "raise" and str(got[1]) == "sorter.size must equal a.size"
    got = run(compiled(ss_sorter), a, 2.0, np.array([1, 2, 3]))
    assert got[0] == "raise" and str(got[1]) == "Sorter index out of range."
    # NumPy checks only the indices its search visits; kiln checks every index of sorter
    got = run(compiled(ss_sorter), a, 2.0, np.array([1, 2, -1]))
    assert got[0] == "raise" and str(got[1]) == "Sorter index out of range."


# ---- unique -------------------------------------------------------------------------------


def unique_all(a):
    return np.unique(a, return_index=True, return_inverse=True, return_counts=True)


def unique_index(a):
    return np.unique(a, return_index=True)


def unique_inverse(a):
    return np.unique(a, return_inverse=True)


def unique_counts(a):
    return np.unique(a, return_counts=True)


def unique_index_counts(a):
    return np.unique(a, True, False, True)


@pytest.mark.parametrize("func", [unique_all, unique_index, unique_inverse, unique_counts,
                                  unique_index_counts])
@pytest.mark.parametrize("dtype", DTYPES + [np.complex64])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_unique_flags(func, dtype, layout):
    a = arr(_data(dtype, 24).reshape(4, 6), dtype, layout)
    if dtype == np.complex64:
        a = a + 1j * a[::-1]
    check(func, a)
    check(func, a[0].copy())
    check(func, a[:0].copy())


def test_unique_flags_nan_and_zero():
    check(unique_all, np.array([np.nan, 0.0, -0.0, np.nan, 1.0, 0.0]))
    check(unique_all, np.array([complex(1, np.nan), complex(np.nan, 2), 1 + 1j, 1 + 1j]))


# ---- histogram weights=, density= ---------------------------------------------------------


def hist_w(a, w):
    return np.histogram(a, 7, weights=w)


def hist_d(a):
    return np.histogram(a, 5, density=True)


def hist_wd(a, w):
    return np.histogram(a, bins=4, range=(0.0, 30.0), weights=w, density=True)


def hist_edges_w(a, e, w):
    return np.histogram(a, e, weights=w)


def hist_edges_d(a, e):
    return np.histogram(a, e, density=True)


def hist_d_false(a):
    return np.histogram(a, 5, density=False)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
@pytest.mark.parametrize("wtype", [np.float64, np.float32, np.int32])
def test_histogram_weights_density(dtype, wtype):
    a = _data(dtype, 100, nans=False)
    w = _data(wtype, 100, seed=4, nans=False)
    e = np.array([0.0, 5.0, 6.5, 20.0, 39.0])
    check(hist_w, a, w)
    check(hist_d, a)
    check(hist_wd, a, w)
    check(hist_edges_w, a, e, w)
    check(hist_edges_d, a, e)
    check(hist_d_false, a)
    check(hist_w, a.reshape(10, 10), w.reshape(10, 10))


def test_histogram_weights_shape():
    got = run(compiled(hist_w), np.arange(5.0), np.ones(4))
    assert got[0] == "raise" and str(got[1]) == "weights should have the same shape as a."
    check(hist_d, np.zeros(0))


# ---- set operations -----------------------------------------------------------------------


def intersect1d(a, b):
    return np.intersect1d(a, b)


def intersect1d_unique(a, b):
    return np.intersect1d(a, b, assume_unique=True)


def union1d(a, b):
    return np.union1d(a, b)


def setdiff1d(a, b):
    return np.setdiff1d(a, b)


def setxor1d(a, b):
    return np.setxor1d(a, b)


def isin(a, b):
    return np.isin(a, b)


def isin_invert(a, b):
    return np.isin(a, b, invert=True)


SETS = [intersect1d, union1d, setdiff1d, setxor1d, isin, isin_invert]


@pytest.mark.parametrize("func", SETS)
@pytest.mark.parametrize("dta, dtb", [(np.int64, np.int64), (np.float64, np.float64),
                                      (np.int32, np.float64), (np.uint8, np.int16),
                                      (np.float32, np.float32), (np.bool_, np.bool_)])
def test_set_operations(func, dta, dtb):
    a = _data(dta, 30, seed=5)
    b = _data(dtb, 20, seed=6)
    check(func, a, b)
    check(func, a.reshape(5, 6), b)
    check(func, a[::-2], b[:0])
    check(func, a[:0], b)


def test_set_operations_nan_and_unique():
    a = np.array([np.nan, 1.0, np.nan, 2.0])
    b = np.array([np.nan, 2.0, 3.0])
    for f in SETS:
        check(f, a, b)
    check(intersect1d_unique, np.array([1, 4, 2]), np.array([2, 5, 4]))


# ---- lexsort, sort_complex ----------------------------------------------------------------


def lexsort2(a, b):
    return np.lexsort((a, b))


def lexsort3(a, b, c):
    return np.lexsort((a, b, c))


def lexsort_2d(k):
    return np.lexsort(k)


def sort_complex(a):
    return np.sort_complex(a)


def test_lexsort():
    rng = np.random.default_rng(8)
    a = rng.integers(0, 3, 50)
    b = rng.integers(0, 4, 50).astype(np.float64)
    b[::7] = np.nan
    c = rng.integers(0, 2, 50).astype(np.uint8)
    check(lexsort2, a, b)
    check(lexsort3, a, b, c)
    check(lexsort3, a[::-1], b[::2][:25].repeat(2), c)
    check(lexsort_2d, np.stack([a, a[::-1], a * 2]))
    check(lexsort2, a[:0], b[:0])
    check(lexsort2, a, b[:3])  # ValueError: the keys' lengths differ


@pytest.mark.parametrize("dtype", DTYPES[1:] + [np.complex64, np.complex128])
def test_sort_complex(dtype):
    a = _data(dtype, 20)
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        a = a + 1j * _data(np.float64, 20, seed=9)
    check(sort_complex, a)
    check(sort_complex, a.reshape(4, 5))


# ---- bad input ----------------------------------------------------------------------------


def bad_kth_float(a):
    return np.partition(a, 1.5)


def bad_kind(a):
    return np.partition(a, 1, kind="quicksort")


def bad_axis_none_method(a):
    a.partition(1, axis=None)


def bad_sorter(s, a):
    return np.searchsorted(a, 1.0, sorter=s)


def bad_unique_flag(flag, a):
    return np.unique(a, return_counts=flag)


def bad_density(d, a):
    return np.histogram(a, density=d)


def bad_weights(a):
    return np.histogram(a, weights=a + 1j)


def bad_set(a):
    return np.union1d(a, 3)


def bad_lexsort(a):
    return np.lexsort(a)


def bad_isin(a):
    return np.isin(1.0, a)


@pytest.mark.parametrize("func, args, snippet, words", [
    (bad_kth_float, (np.ones(3),), "1.5", ["kth must be an integer"]),
    (bad_kind, (np.ones(3),), '"quicksort"', ["kind=", "introselect"]),
    (bad_axis_none_method, (np.ones(3),), "None", ["integer axis"]),
    (bad_sorter, (np.ones(3), np.ones(3)), "s)", ["sorter must be a 1-d array of integers"]),
    (bad_unique_flag, (True, np.ones(3)), "flag)", ["return_counts=", "constant"]),
    (bad_density, (True, np.ones(3)), "d)", ["density=", "constant"]),
    (bad_weights, (np.ones(3),), "a + 1j", ["weights must be an array of real numbers"]),
    (bad_set, (np.ones(3),), "np.union1d(", ["arrays of numbers"]),
    (bad_lexsort, (np.ones(3),), "np.lexsort(", ["tuple of 1-d arrays or a 2-d array"]),
    (bad_isin, (np.ones(3),), "np.isin(", ["element must be an array"]),
])
def test_bad_input(func, args, snippet, words):
    with pytest.raises(TypingError) as info:
        compiled(func)(*args)
    assert_diagnostic(info.value, TypingError, func, snippet, contains=words)
