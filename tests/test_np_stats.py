"""Statistics in compiled code against NumPy (issue 11, "statistics"): the nan* reductions,
ptp, count_nonzero, nancumsum/nancumprod, nanmedian/nanpercentile/nanquantile, average, cov,
corrcoef, cumsum/cumprod with axis=, median/percentile/quantile keepdims=, histogram2d.

NumPy is the oracle: each test compiles a function and runs the same one in the interpreter,
over dtypes, layouts (C, F, strided, reversed), axes, empty inputs and NaNs; results must have
NumPy's values (allclose: NumPy sums pairwise) and dtype, and where NumPy raises, kiln raises
the same class. Bad input is a TypingError at the call."""

import warnings

import numpy as np
import pytest

import kiln
from harness import LAYOUTS, arr, assert_diagnostic, compiled, run

TypingError = kiln.errors.TypingError

INTS = [np.int8, np.int32, np.int64, np.uint8, np.uint64]
FLOATS = [np.float32, np.float64]
REAL = [np.bool_] + INTS + FLOATS


def _values(dtype, shape=(4, 5), nans=True):
    rng = np.random.default_rng(7)
    v = rng.integers(-20, 20, size=shape).astype(np.float64)
    if np.issubdtype(dtype, np.unsignedinteger) or dtype == np.bool_:
        v = np.abs(v)
    if dtype == np.bool_:
        v = v > 8
    if nans and np.issubdtype(np.dtype(dtype), np.inexact):
        v = v.astype(np.float64)
        v.flat[::7] = np.nan
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        v = v + 1j * v[::-1]
    return v


def _same(got, want, dtype=None):
    """kiln's outcome against NumPy's: values (nan where nan), dtype, or the exception class"""
    (gk, g), (wk, w) = got, want
    if wk == "raise":
        assert gk == "raise", f"NumPy raised {w!r}, kiln returned {g!r}"
        assert isinstance(g, type(w)), f"NumPy raised {w!r}, kiln {g!r}"
        return
    assert gk == "ok", f"kiln raised {g!r}, NumPy returned {w!r}"
    if isinstance(w, tuple):
        assert isinstance(g, tuple) and len(g) == len(w)
        for x, y in zip(g, w):
            _same(("ok", x), ("ok", y))
        return
    scalar = not isinstance(w, np.ndarray)  # kiln boxes scalars as Python numbers, as Numba
    w = np.asarray(w)
    g = np.asarray(g)
    assert g.shape == w.shape, (g.shape, w.shape)
    if scalar:
        assert g.dtype.kind == w.dtype.kind or (g.dtype.kind in "iu" and w.dtype.kind in "iu"), \
            (g.dtype, w.dtype)
    else:
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
    rtol = 1e-4 if w.dtype in (np.float32, np.complex64) else 1e-9
    if w.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w)


def check(func, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = run(func, *args)
    _same(run(compiled(func), *args), want)


# ---- the nan* reductions, ptp, count_nonzero ------------------------------------------------


def nansum(a):
    return np.nansum(a)


def nansum_ax(a, k):
    return np.nansum(a, axis=k)


def nanprod(a):
    return np.nanprod(a)


def nanprod_ax(a, k):
    return np.nanprod(a, k)


def nanmean(a):
    return np.nanmean(a)


def nanmean_ax(a, k):
    return np.nanmean(a, axis=k)


def nanvar(a):
    return np.nanvar(a)


def nanvar_ax(a, k):
    return np.nanvar(a, axis=k, ddof=1)


def nanstd(a):
    return np.nanstd(a, ddof=1)


def nanstd_ax(a, k):
    return np.nanstd(a, axis=k)


def nanmin(a):
    return np.nanmin(a)


def nanmin_ax(a, k):
    return np.nanmin(a, axis=k)


def nanmax(a):
    return np.nanmax(a)


def nanmax_ax(a, k):
    return np.nanmax(a, axis=k)


def nanargmin(a):
    return np.nanargmin(a)


def nanargmin_ax(a, k):
    return np.nanargmin(a, axis=k)


def nanargmax(a):
    return np.nanargmax(a)


def nanargmax_ax(a, k):
    return np.nanargmax(a, axis=k)


def ptp(a):
    return np.ptp(a)


def ptp_ax(a, k):
    return np.ptp(a, axis=k)


def ptp_method(a, k):
    return a.ptp(axis=k)


def count_nonzero(a):
    return np.count_nonzero(a)


def count_nonzero_ax(a, k):
    return np.count_nonzero(a, axis=k)


WHOLE = [nansum, nanprod, nanmean, nanvar, nanstd, nanmin, nanmax, nanargmin, nanargmax, ptp,
         count_nonzero]
AXIS = [nansum_ax, nanprod_ax, nanmean_ax, nanvar_ax, nanstd_ax, nanmin_ax, nanmax_ax,
        nanargmin_ax, nanargmax_ax, ptp_ax, count_nonzero_ax]
NO_COMPLEX = {nanmin, nanmax, nanargmin, nanargmax, ptp, nanmin_ax, nanmax_ax, nanargmin_ax,
              nanargmax_ax, ptp_ax}


def _ptp_skip(func, dtype):
    return func in (ptp, ptp_ax) and dtype == np.bool_  # NumPy: TypeError (boolean subtract)


@pytest.mark.parametrize("func", WHOLE)
@pytest.mark.parametrize("dtype", REAL + [np.complex128])
def test_nan_reductions_whole(func, dtype):
    if (func in NO_COMPLEX and dtype == np.complex128) or _ptp_skip(func, dtype):
        pytest.skip("not a form kiln takes (a TypingError test covers it)")
    check(func, arr(_values(dtype), dtype))


@pytest.mark.parametrize("func", AXIS)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64, np.bool_])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, -1])
def test_nan_reductions_axis(func, dtype, layout, axis):
    if _ptp_skip(func, dtype):
        pytest.skip("NumPy has no boolean subtract")
    check(func, arr(_values(dtype), dtype, layout), axis)


@pytest.mark.parametrize("func", [nansum_ax, nanmean_ax, nanvar_ax, nanmin_ax, nanargmax_ax,
                                  ptp_ax, count_nonzero_ax])
@pytest.mark.parametrize("axis", [0, 1, 2, -3])
def test_nan_reductions_3d(func, axis):
    a = _values(np.float64, (3, 4, 5))
    check(func, a, axis)
    check(func, np.ascontiguousarray(a.transpose(2, 0, 1)), axis)


def test_ptp_method():
    """a.ptp() (gone from NumPy 2's arrays, kept as Numba has it): np.ptp's results"""
    for a, k in ((_values(np.int64).astype(np.int64), 1), (_values(np.float64), 0)):
        _same(run(compiled(ptp_method), a, k), run(np.ptp, a, k))


@pytest.mark.parametrize("func", WHOLE)
def test_nan_reductions_empty(func):
    """NumPy's results for empty arrays: 0 / 1 / nan, or its ValueError (min, argmin, ptp)"""
    check(func, np.zeros(0))
    check(func, np.zeros((0, 3)))


@pytest.mark.parametrize("func", [nansum_ax, nanmean_ax, nanmin_ax, nanargmin_ax, ptp_ax,
                                  count_nonzero_ax, nanvar_ax])
@pytest.mark.parametrize("axis", [0, 1])
def test_nan_reductions_empty_axis(func, axis):
    check(func, np.zeros((0, 3)), axis)
    check(func, np.zeros((3, 0)), axis)


@pytest.mark.parametrize("func", WHOLE + AXIS)
def test_all_nan_slices(func):
    """all-NaN slices: nan (nanmin, nanmean, nanvar), 0 (nansum), ValueError (nanargmin)"""
    a = np.full((3, 2), np.nan)
    a[0, 0] = 1.0
    if func in AXIS:
        check(func, a, 0)
        check(func, a, 1)
    else:
        check(func, np.full(4, np.nan))


# ---- cumulative -------------------------------------------------------------------------------


def nancumsum(a):
    return np.nancumsum(a)


def nancumsum_ax(a, k):
    return np.nancumsum(a, axis=k)


def nancumprod(a):
    return np.nancumprod(a)


def nancumprod_ax(a, k):
    return np.nancumprod(a, k)


def cumsum_ax0(a):
    return np.cumsum(a, axis=0)


def cumsum_ax1(a):
    return np.cumsum(a, axis=1)


def cumprod_last(a):
    return np.cumprod(a, axis=-1)


def cumsum_method(a):
    return a.cumsum(axis=1)


def cumprod_method(a):
    return a.cumprod(axis=0)


@pytest.mark.parametrize("dtype", REAL + [np.complex128])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_nancumulative(dtype, layout):
    a = arr(_values(dtype, (3, 4)), dtype, layout)
    check(nancumsum, a)
    check(nancumprod, a)
    for k in (0, 1, -1):
        check(nancumsum_ax, a, k)
        check(nancumprod_ax, a, k)


@pytest.mark.parametrize("func", [cumsum_ax0, cumsum_ax1, cumprod_last, cumsum_method,
                                  cumprod_method])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.uint16, np.float32,
                                   np.float64, np.complex64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cumulative_axis(func, dtype, layout):
    check(func, arr(_values(dtype, (3, 4), nans=False), dtype, layout))


@pytest.mark.parametrize("func", [cumsum_ax0, cumsum_ax1, cumprod_last])
def test_cumulative_axis_shapes(func):
    check(func, np.arange(24.0).reshape(2, 3, 4))
    check(func, np.zeros((0, 3)))
    check(func, np.zeros((3, 0), np.int64))
    check(func, np.array([[1.0, np.nan], [np.inf, 2.0]]))


# ---- nanmedian, nanpercentile, nanquantile ----------------------------------------------------


def nanmedian(a):
    return np.nanmedian(a)


def nanmedian_ax(a, k):
    return np.nanmedian(a, axis=k)


def nanquantile(a, q):
    return np.nanquantile(a, q)


def nanquantile_ax(a, q, k):
    return np.nanquantile(a, q, axis=k)


def nanpercentile(a, q):
    return np.nanpercentile(a, q)


def nanpercentile_ax(a, q, k):
    return np.nanpercentile(a, q, k)


def nanpercentile_tuple(a):
    return np.nanpercentile(a, (10, 50, 95), axis=1)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_nan_order_statistics(dtype, layout):
    a = arr(_values(dtype, (4, 5)), dtype, layout)
    check(nanmedian, a)
    check(nanquantile, a, 0.3)
    check(nanpercentile, a, 95.0)
    check(nanquantile, a, np.array([0.0, 0.25, 1.0]))
    check(nanpercentile_tuple, a)
    for k in (0, 1, -1):
        check(nanmedian_ax, a, k)
        check(nanquantile_ax, a, 0.7, k)
        check(nanpercentile_ax, a, np.array([5.0, 50.0]), k)


def test_nan_order_statistics_edges():
    check(nanmedian, np.full(3, np.nan))
    check(nanmedian_ax, np.array([[np.nan, 1.0], [np.nan, 3.0]]), 0)
    check(nanmedian, np.zeros(0))
    check(nanquantile, np.arange(5.0), 1.5)
    check(nanpercentile, np.arange(5.0), np.array([-1.0]))
    check(nanmedian_ax, _values(np.float64, (2, 3, 4)), 1)
    check(nanquantile_ax, _values(np.float64, (2, 3, 4)), np.array([0.2, 0.8]), 2)


# ---- median/percentile/quantile keepdims ------------------------------------------------------


def median_keep(a):
    return np.median(a, keepdims=True)


def median_keep_axis(a):
    return np.median(a, axis=1, keepdims=True)


def percentile_keep_axis(a):
    return np.percentile(a, 30, axis=0, keepdims=True)


def quantile_keep_array(a):
    return np.quantile(a, np.array([0.1, 0.9]), axis=-1, keepdims=True)


def quantile_keep_tuple(a):
    return np.quantile(a, (0.1, 0.5), keepdims=True)


def quantile_keep_false(a):
    return np.quantile(a, 0.5, axis=0, keepdims=False)


@pytest.mark.parametrize("func", [median_keep, median_keep_axis, percentile_keep_axis,
                                  quantile_keep_array, quantile_keep_tuple, quantile_keep_false])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4)])
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
def test_order_statistics_keepdims(func, shape, dtype):
    check(func, _values(dtype, shape, nans=False).astype(dtype))


# ---- average, cov, corrcoef ---------------------------------------------------------------


def average(a):
    return np.average(a)


def average_ax(a, k):
    return np.average(a, axis=k)


def average_w(a, w):
    return np.average(a, weights=w)


def average_w_ax(a, w, k):
    return np.average(a, k, w)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128, np.bool_])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_average(dtype, layout):
    a = arr(_values(dtype, (3, 4), nans=False), dtype, layout)
    check(average, a)
    for k in (0, 1, -1):
        check(average_ax, a, k)
    w = np.arange(12.0).reshape(3, 4)
    check(average_w, a, w)
    check(average_w, a, w.astype(np.float32))
    check(average_w_ax, a, np.arange(4.0), 1)
    check(average_w_ax, a, np.arange(1, 4), 0)
    check(average_w_ax, a, w, 0)


def test_average_errors():
    a = np.arange(6.0).reshape(2, 3)
    check(average_w, a, np.zeros((2, 3)))  # ZeroDivisionError
    check(average_w_ax, a, np.zeros(3), 1)
    check(average_w_ax, a, np.ones(2), 1)  # ValueError: length along the axis
    check(average, np.zeros(0))


def cov(m):
    return np.cov(m)


def cov_y(m, y):
    return np.cov(m, y)


def cov_opts(m):
    return np.cov(m, rowvar=False, bias=True)


def cov_ddof(m, d):
    return np.cov(m, ddof=d)


def corrcoef(x):
    return np.corrcoef(x)


def corrcoef_y(x, y):
    return np.corrcoef(x, y, rowvar=False)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cov_corrcoef(dtype, layout):
    m = arr(_values(dtype, (3, 6), nans=False), dtype, layout)
    check(cov, m)
    check(cov, m[0].copy())
    check(cov_y, m, m[::-1].copy())
    check(cov_y, m[0].copy(), m[1].copy())
    check(cov_opts, m)
    check(cov_ddof, m, 2)
    check(corrcoef, m)
    check(corrcoef, m[1].copy())
    check(corrcoef_y, m, m)


def test_cov_complex_and_edges():
    rng = np.random.default_rng(3)
    z = rng.random((2, 5)) + 1j * rng.random((2, 5))
    check(cov, z)
    check(cov_ddof, np.arange(6.0).reshape(2, 3), 3)  # fact 0: inf/nan, as NumPy
    check(cov_y, np.arange(6.0).reshape(2, 3), np.arange(4.0))  # ValueError: lengths


# ---- histogram2d --------------------------------------------------------------------------


def hist2d(x, y):
    return np.histogram2d(x, y)


def hist2d_bins(x, y):
    return np.histogram2d(x, y, (3, 5), ((0.0, 1.0), (0.5, 2.0)))


def hist2d_edges(x, y, e):
    return np.histogram2d(x, y, (e, 4), density=True)


def hist2d_weights(x, y, w):
    return np.histogram2d(x, y, 6, weights=w)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_histogram2d(dtype):
    rng = np.random.default_rng(5)
    x = (rng.random(200) * 3).astype(dtype)
    y = (rng.random(200) * 2).astype(dtype)
    check(hist2d, x, y)
    check(hist2d, x, y.astype(np.float64))
    check(hist2d_bins, x, y)
    check(hist2d_edges, x, y, np.array([0.0, 0.5, 1.0, 3.0]))
    check(hist2d_weights, x, y, rng.random(200))
    if dtype != np.float32:  # NumPy: float64 edges for empty float32 data (range (0, 1))
        check(hist2d, x[:0], y[:0])
    check(hist2d, x, y[:5])  # ValueError


# ---- bad input ----------------------------------------------------------------------------


def bad_axis_float(a):
    return np.nansum(a, axis=1.5)


def bad_complex_nanmin(a):
    return np.nanmin(a)


def bad_keepdims(a):
    return np.nanmean(a, keepdims=True)


def bad_not_array(a):
    return np.nanmax(a)


def bad_q(a):
    return np.nanquantile(a, "x")


def bad_bool_ptp(a):
    return np.ptp(a)


def bad_weights(a):
    return np.average(a, weights=a[0])


def bad_cov_3d(a):
    return np.cov(a)


def bad_hist2d_bins(a):
    return np.histogram2d(a, a, bins=1.5)


def bad_cum_axis(a):
    return np.cumsum(a, axis=2)


def bad_median_keepdims(keep, a):
    return np.median(a, keepdims=keep)


@pytest.mark.parametrize("func, args, snippet, words", [
    (bad_axis_float, (np.ones(3),), "np.nansum(", ["axis must be None or an int"]),
    (bad_complex_nanmin, (np.ones(3, complex),), "np.nanmin(", ["real numbers"]),
    (bad_keepdims, (np.ones(3),), "np.nanmean(", ["keepdims="]),
    (bad_not_array, (1.5,), "np.nanmax(", []),
    (bad_q, (np.ones(3),), "np.nanquantile(", ["q must be a real number"]),
    (bad_bool_ptp, (np.ones(3, bool),), "np.ptp(", ["not bool"]),
    (bad_weights, (np.ones((2, 2)),), "np.average(", ["Axis must be specified"]),
    (bad_cov_3d, (np.ones((2, 2, 2)),), "np.cov(", ["1-d or 2-d"]),
    (bad_hist2d_bins, (np.ones(3),), "np.histogram2d(", ["bins must be"]),
    (bad_cum_axis, (np.ones((2, 2)),), "2)", ["axis 2 is out of bounds"]),
    (bad_median_keepdims, (True, np.ones(3)), "keep)", ["keepdims=", "constant"]),
])
def test_bad_input(func, args, snippet, words):
    with pytest.raises(TypingError) as info:
        compiled(func)(*args)
    assert_diagnostic(info.value, TypingError, func, snippet, contains=words)
