"""The sorting family (lib/sorting.def): np.sort, np.argsort, a.sort(), a.argsort(),
np.searchsorted, np.unique, np.digitize, np.median, np.percentile, np.quantile, np.interp and
np.histogram, through kiln.njit with NumPy as the oracle.

Inputs are generated per dtype (bool, int8..uint64, float32/64, complex64/128 where NumPy
accepts them), layout (C, F, strided, reversed), shape (empty, 1-d, 2-d, 0-d where allowed) and
special values (NaN, inf, -0.0). Each check runs the same Python function with NumPy and
compiled, on separate copies of the arguments, and requires equal results: arrays of the same
dtype and shape with equal values (NaN equal to NaN), scalars of the same value and kind, and
the same exception class (and message where NumPy's is reproduced). argsort is compared with
NumPy's kind='stable', since kiln's is stable. The autouse leak check (conftest.py) balances
the runtime's allocations over every test.
"""

import warnings

import numpy as np
import pytest

import kiln
from harness import LAYOUTS, arr, assert_diagnostic, compiled, run

TypingError = kiln.errors.TypingError

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
REAL = [np.bool_] + INTS + FLOATS
ALL = REAL + COMPLEX
def values(dtype, shape, seed, special=True):
    """Random values of ``dtype`` with repeats; floats and complex get NaN, inf and -0.0."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, 2, 3, 7], dtype)
        v = rng.integers(0, 5, n).astype(dtype) if info.min == 0 else \
            rng.integers(-5, 5, n).astype(dtype)
        pick = rng.integers(0, 4, n) == 0
        v[pick] = rng.choice(pool, int(pick.sum()))
        return v.reshape(shape)
    v = rng.integers(-4, 4, n).astype(np.float64) * 0.5
    if special and n:
        extra = [np.nan, np.inf, -np.inf, -0.0, 0.0]
        for i in range(min(n // 3, len(extra))):
            v[rng.integers(0, n)] = extra[i]
    if np.issubdtype(dtype, np.complexfloating):
        w = rng.integers(-2, 2, n).astype(np.float64)
        if special and n > 2:
            w[rng.integers(0, n)] = np.nan
        return (v + 1j * w).astype(dtype).reshape(shape)
    return v.astype(dtype).reshape(shape)


def same_np(got, want, path="result", approx=False):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), f"{path}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            same_np(g, w, f"{path}[{i}]", approx)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), f"{path}: expected an array, got {got!r}"
        assert got.dtype == want.dtype, f"{path}: dtype {got.dtype} != {want.dtype}"
        assert got.shape == want.shape, f"{path}: shape {got.shape} != {want.shape}"
        if approx:
            assert np.allclose(got, want, rtol=1e-12, atol=0, equal_nan=True), \
                f"{path}: {got!r} != {want!r}"
        else:
            assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), \
                f"{path}: {got!r} != {want!r}"
        return
    if want is None:
        assert got is None, f"{path}: {got!r} is not None"
        return
    w = np.asarray(want)
    g = np.asarray(got)
    assert g.dtype.kind == w.dtype.kind, f"{path}: {got!r} ({g.dtype}) vs {want!r} ({w.dtype})"
    if w.dtype.kind == "f":
        g = g.astype(w.dtype)  # kiln gives Python floats: compare in NumPy's precision
    if approx:
        assert np.allclose(g, w, rtol=1e-12, atol=0, equal_nan=True), f"{path}: {got!r} != {want!r}"
    else:
        assert np.array_equal(g, w, equal_nan=w.dtype.kind in "fc"), f"{path}: {got!r} != {want!r}"


def layout_of(a):
    if a.flags.c_contiguous:
        return "C"
    if a.flags.f_contiguous:
        return "F"
    return "reversed" if any(s < 0 for s in a.strides) else "strided"


def clone(x):
    """A copy of x with the same layout (arrays), or x."""
    return arr(x, x.dtype, layout_of(x)) if isinstance(x, np.ndarray) else x


def check(pyfunc, *args, approx=False, msg=True):
    """Run pyfunc with NumPy and compiled on copies of args; compare results, the arguments
    afterwards (in-place sorts) and exceptions."""
    pyargs, cargs = [clone(x) for x in args], [clone(x) for x in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = run(pyfunc, *pyargs)
        got = run(compiled(pyfunc), *cargs)
    name = pyfunc.__name__
    if want[0] == "raise":
        assert got[0] == "raise", f"{name}: expected {want[1]!r}, got {got[1]!r}"
        assert type(got[1]) is type(want[1]), f"{name}: expected {want[1]!r}, got {got[1]!r}"
        if msg:
            assert got[1].args == want[1].args, f"{name}: {got[1].args} != {want[1].args}"
        return
    assert got[0] == "ok", f"{name}: raised {got[1]!r}, NumPy gives {want[1]!r}"
    same_np(got[1], want[1], name, approx)
    for i, (g, w) in enumerate(zip(cargs, pyargs)):
        if isinstance(w, np.ndarray):
            same_np(g, w, f"{name} argument {i} after the call")


# ---- np.sort, np.argsort, a.sort(), a.argsort() ----

def sort_last(a):
    return np.sort(a)


def sort_axis0(a):
    return np.sort(a, axis=0)


def sort_none(a):
    return np.sort(a, axis=None)


def sort_kind(a):
    return np.sort(a, kind="stable")


def argsort_last(a):
    return np.argsort(a, kind="stable")


def argsort_axis0(a):
    return np.argsort(a, axis=0, kind="stable")


def argsort_none(a):
    return np.argsort(a, axis=None, kind="stable")


def method_sort(a):
    a.sort()
    return a


def method_sort_axis0(a):
    a.sort(axis=0)


def method_argsort(a):
    return a.argsort(kind="stable")


def method_argsort_axis(a):
    return a.argsort(axis=-2, kind="stable")


SHAPES_1D = [(0,), (1,), (9,), (40,)]
SHAPES_2D = [(0, 3), (3, 0), (4, 5), (7, 2)]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", ["C", "strided", "reversed"])  # a 1-d F array is C
def test_sort_1d(dtype, layout):
    for seed, shape in enumerate(SHAPES_1D):
        a = arr(values(dtype, shape, seed), dtype, layout)
        for f in (sort_last, sort_none, sort_kind, argsort_last, argsort_none, method_sort,
                  method_argsort):
            check(f, a)


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_sort_2d(dtype, layout):
    for seed, shape in enumerate(SHAPES_2D):
        a = arr(values(dtype, shape, 100 + seed), dtype, layout)
        for f in (sort_last, sort_axis0, sort_none, argsort_last, argsort_axis0, argsort_none,
                  method_sort, method_sort_axis0, method_argsort, method_argsort_axis):
            check(f, a)


def sort3(a):
    return np.sort(a, axis=1), np.argsort(a, axis=1, kind="stable"), np.sort(a, axis=0)


def method_sort3(a):
    a.sort(axis=1)
    return a


def hist_bool(a):
    return np.histogram(a)


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_sort_3d(layout):
    for dtype in (np.int16, np.float64):
        a = arr(values(dtype, (3, 4, 5), 77), dtype, layout)
        check(sort3, a)
        check(method_sort3, a)


def test_histogram_bool():
    """NumPy converts bool data to uint8 (with a warning): float64 edges."""
    check(hist_bool, np.array([True, False, True, True]))


def test_sort_0d_axis_none():
    check(sort_none, np.array(3.5))
    check(argsort_none, np.array(3))


def test_argsort_orders_the_array():
    """The permutation of argsort indexes a sorted order (NaNs last), for every real dtype."""
    for dtype in REAL:
        a = values(dtype, (50,), 7)
        idx = compiled(argsort_last)(a)
        assert np.array_equal(a[idx], np.sort(a), equal_nan=a.dtype.kind == "f")


def test_sort_large_random():
    rng = np.random.default_rng(1)
    a = rng.standard_normal(100_000)
    a[::997] = np.nan
    check(sort_last, a)
    check(argsort_last, a)
    b = rng.integers(-1000, 1000, (300, 301)).astype(np.int32)
    check(sort_axis0, b)
    check(argsort_axis0, b)


def test_sort_long_skewed_float_rows():
    """Rows past 2**17 floats whose sign and exponent bits fill few buckets (normal, exponential,
    a narrow band, with NaN, inf and -0.0) take the runtime's widened first radix level."""
    rng = np.random.default_rng(7)
    n = 200_000
    cases = [rng.standard_normal(n), rng.exponential(size=n), 1.0 + rng.random(n) * 1e-9,
             -rng.exponential(size=n).astype(np.float32)]
    special = rng.standard_normal(n)
    special[::1001] = np.nan
    special[::1003] = np.inf
    special[::1007] = -0.0
    cases.append(special)
    for a in cases:
        check(sort_last, a)
        check(sort_last, a[::-1].copy())


def sort_view_in_place(a):
    a[::2].sort()
    return a


def test_sort_in_place_of_a_view():
    check(sort_view_in_place, np.arange(10.0)[::-1].copy())


def temporaries_in_a_loop(a, n):
    s = 0.0
    for i in range(n):
        b = np.sort(a[i:])
        h, e = np.histogram(b, bins=3)
        s += b[0] + h[0] + e[-1] + np.median(b) + np.unique(b)[0] + np.searchsorted(b, 0.5)
    return s


def sort_then_use(a):
    a.sort()
    return a * 2 + np.argsort(a)


def keywords(a):
    return (np.sort(a=a, axis=-1), np.argsort(a, -1), np.searchsorted(a=a, v=0.5, side="right"),
            np.digitize(x=a, bins=np.arange(3.0), right=True), np.unique(ar=a))


def test_results_and_temporaries():
    """Results used in expressions, unpacked, and made again on every iteration (the leak
    check counts them); keyword arguments by NumPy's names."""
    a = np.random.default_rng(3).random(20)
    check(temporaries_in_a_loop, a, 5)
    check(sort_then_use, a[:6].copy())
    check(keywords, a)


# ---- searchsorted, unique, digitize ----

def ss_left(a, v):
    return np.searchsorted(a, v)


def ss_right(a, v):
    return np.searchsorted(a, v, side="right")


def ss_kw(a, v):
    return np.searchsorted(a, v=v, side="left")


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_searchsorted(dtype):
    for seed, n in enumerate([0, 1, 8, 33]):
        a = np.sort(values(dtype, (n,), seed))
        v = values(dtype, (12,), 50 + seed)
        for layout in ("C", "strided"):
            sa = arr(a, dtype, layout)
            for f in (ss_left, ss_right, ss_kw):
                check(f, sa, arr(v, dtype, layout))
                check(f, sa, arr(v.reshape(3, 4), dtype, "F"))
                if dtype not in COMPLEX and dtype != np.bool_:
                    check(f, sa, v[0].item())


def test_searchsorted_mixed_types():
    a = np.array([1, 2, 2, 5, 9], np.int8)
    for v in (2.5, 300, -1, 2):
        check(ss_left, a, v)
        check(ss_right, a, v)
    check(ss_right, np.array([0.5, 1.5, 2.5]), np.array([1, 2, 3], np.int16))


def uniq(a):
    return np.unique(a)


def uniq_flags(a):
    return np.unique(a, return_index=False, return_counts=False, equal_nan=True)


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
def test_unique(dtype, layout):
    for seed, shape in enumerate([(0,), (1,), (30,), (6, 7), (0, 2)]):
        a = arr(values(dtype, shape, 200 + seed), dtype, layout)
        check(uniq, a)
        check(uniq_flags, a)


def digitize(x, bins):
    return np.digitize(x, bins)


def digitize_right(x, bins):
    return np.digitize(x, bins, right=True)


@pytest.mark.parametrize("dtype", REAL, ids=lambda d: np.dtype(d).name)
def test_digitize(dtype):
    x = values(dtype, (20,), 3, special=False)
    for bins in (np.unique(values(dtype, (8,), 4, special=False)),):
        for b in (bins, bins[::-1]):
            for f in (digitize, digitize_right):
                check(f, x, b)
                check(f, arr(x.reshape(4, 5), dtype, "F"), b)
                if dtype != np.bool_:
                    check(f, x[0].item(), b)


def test_digitize_float_specials():
    x = np.array([-np.inf, -1.0, 0.0, 0.5, 1.0, np.nan, np.inf])
    for b in (np.array([0.0, 1.0, 2.0]), np.array([2.0, 1.0, 0.0]), np.array([1.0]),
              np.array([], np.float64), np.array([1.0, 1.0, 2.0])):
        check(digitize, x, b)
        check(digitize_right, x, b)


def test_digitize_not_monotonic():
    check(digitize, np.arange(3.0), np.array([1.0, 3.0, 2.0]))
    check(digitize, 1, np.array([1, 3, 2]))


# ---- median, percentile, quantile ----

def median(a):
    return np.median(a)


def median_none(a):
    return np.median(a, axis=None)


def pct_scalar(a):
    return np.percentile(a, 37.5)


def pct_int(a):
    return np.percentile(a, 50)


def pct_tuple(a):
    return np.percentile(a, (0, 25, 50, 99.9, 100))


def pct_array(a, q):
    return np.percentile(a, q)


def q_scalar(a):
    return np.quantile(a, 0.3)


def q_tuple(a):
    return np.quantile(a, (0.0, 0.5, 1.0), method="linear")


def q_array(a, q):
    return np.quantile(a, q)


@pytest.mark.parametrize("dtype", INTS + FLOATS + [np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_order_statistics(dtype, layout):
    for seed, shape in enumerate([(1,), (2,), (11,), (4, 6), (5, 3)]):
        for special in (False, True):
            a = arr(values(dtype, shape, 300 + seed, special), dtype, layout)
            check(median, a)
            check(median_none, a)
            if dtype == np.bool_:
                continue
            for f in (pct_scalar, pct_int, pct_tuple, q_scalar, q_tuple):
                check(f, a, approx=dtype == np.float32)
            check(pct_array, a, np.array([10.0, 90.0, 33.3]), approx=dtype == np.float32)
            check(q_array, a, np.array([0.1, 0.75]), approx=dtype == np.float32)
            check(q_array, a, np.array([0.0, 1.0]), approx=dtype == np.float32)


def test_order_statistics_large():
    rng = np.random.default_rng(5)
    a = rng.standard_normal(100_001)
    check(median, a)
    check(pct_tuple, a)
    check(median, a[:-1])


def test_quantile_out_of_range():
    a = np.arange(5.0)
    check(q_array, a, np.array([0.5, 1.5]))
    check(q_array, a, np.array([-0.1]))
    check(q_array, a, np.array([np.nan]))
    check(pct_array, a, np.array([50, 101]))
    check(pct_array, a, np.array([-1.0]))


def q_bad_scalar(a):
    return np.quantile(a, 2)


def pct_bad_tuple(a):
    return np.percentile(a, (50, 200))


def test_quantile_out_of_range_scalar():
    check(q_bad_scalar, np.arange(5.0))
    check(pct_bad_tuple, np.arange(5.0))


def test_empty_input():
    """NumPy's median of nothing is nan (with a RuntimeWarning kiln does not give); its
    quantiles of nothing raise IndexError, as kiln does."""
    e = np.zeros(0)
    check(median, e)
    check(median, np.zeros((0, 3), np.int32))
    check(q_scalar, e)
    check(pct_tuple, e)
    check(q_array, e, np.array([0.5]))


# ---- interp ----

def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def interp_lr(x, xp, fp):
    return np.interp(x, xp, fp, left=-1.0, right=99)


def interp_none(x, xp, fp):
    return np.interp(x, xp, fp, left=None, right=None)


def test_interp():
    rng = np.random.default_rng(9)
    xp = np.sort(rng.uniform(0, 10, 12))
    fp = rng.standard_normal(12)
    x = np.concatenate([rng.uniform(-2, 12, 40), xp, [np.nan, np.inf, -np.inf]])
    for f in (interp, interp_lr, interp_none):
        check(f, x, xp, fp)
        check(f, x.reshape(43 // 43, -1)[0, ::2], xp, fp)
        check(f, x.reshape(5, -1) if x.size % 5 == 0 else x[:40].reshape(5, 8), xp, fp)
        check(f, 3.25, xp, fp)
        check(f, 11, xp, fp)
        check(f, x, xp.astype(np.float32), fp.astype(np.float32))
        check(f, np.arange(-2, 12, dtype=np.int16), np.arange(10), np.arange(10) ** 2)
        check(f, x, xp[:1], fp[:1])
        check(f, x[:5], xp[::-1][::-1], arr(fp, np.float64, "strided"))


def interp_complex_lr(x, xp, fp):
    return np.interp(x, xp, fp, left=1j, right=2.5)


def test_interp_complex():
    rng = np.random.default_rng(10)
    xp = np.sort(rng.uniform(0, 10, 9))
    fp = rng.standard_normal(9) + 1j * rng.standard_normal(9)
    fp[3] = complex(np.nan, 1.0)
    x = np.concatenate([rng.uniform(-2, 12, 30), xp, [np.nan, np.inf]])
    for f in (interp, interp_lr, interp_none, interp_complex_lr):
        check(f, x, xp, fp)
        check(f, 4.5, xp, fp)
        check(f, x.reshape(1, -1), xp, fp.astype(np.complex64))
        check(f, x, xp[:1], fp[:1])


def test_interp_errors():
    check(interp, 1.0, np.zeros(0), np.zeros(0))
    check(interp, np.ones(3), np.arange(3.0), np.arange(4.0))


# ---- histogram ----

def hist(a):
    return np.histogram(a)


def hist_bins(a):
    return np.histogram(a, bins=7)


def hist_range(a):
    return np.histogram(a, bins=5, range=(-1, 2.5))


def hist_edges(a, e):
    return np.histogram(a, e)


def hist_kw(a, e):
    return np.histogram(a, bins=e, range=None)


@pytest.mark.parametrize("dtype", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
def test_histogram(dtype):
    for seed, shape in enumerate([(0,), (1,), (30,), (5, 6)]):
        a = arr(values(dtype, shape, 400 + seed, special=False), dtype, "F" if seed % 2 else "C")
        for f in (hist, hist_bins, hist_range):
            check(f, a)
        check(hist_edges, a, np.array([-3.0, -0.5, 0.0, 1.0, 1.0, 8.0]))
        check(hist_kw, a, np.array([-5, 0, 2, 100]))


def test_histogram_random():
    rng = np.random.default_rng(11)
    a = rng.standard_normal(10_000)
    for f in (hist, hist_bins, hist_range):
        check(f, a)
    check(hist_edges, a, np.linspace(-3, 3, 17))
    check(hist, np.full(5, 2.0))


def hist_zero_bins(a):
    return np.histogram(a, bins=0)


def hist_bad_range(a):
    return np.histogram(a, range=(2, 1))


def hist_inf_range(a):
    return np.histogram(a, range=(0, np.inf))


def test_histogram_errors():
    a = np.arange(4.0)
    check(hist_zero_bins, a)
    check(hist_bad_range, a)
    check(hist_inf_range, a, msg=False)  # NumPy's message prints the range
    check(hist, np.array([1.0, np.nan]), msg=False)
    check(hist, np.array([1.0, np.inf]), msg=False)
    check(hist_edges, a, np.array([0.0, 2.0, 1.0]))


# ---- bad input: compile errors at the call's argument ----

def bad_side(a):
    return np.searchsorted(a, 1.0, side="middle")


def bad_unique_flag(flag, a):
    return np.unique(a, return_counts=flag)


def bad_readonly_sort(a):
    a.sort()


def bad_complex_digitize(a):
    return np.digitize(a, np.arange(3.0))


def bad_method(a):
    return np.quantile(a, 0.5, method="nearest")


def bad_q_type(a):
    return np.percentile(a, 1j)


def bad_sort_arg(x):
    return np.sort(x + 0.5)


def bad_axis(a):
    return np.sort(a, axis=2)


def bad_median_axis(a):
    return np.median(a, axis=2)


def bad_bool_quantile(a):
    return np.quantile(a, 0.5)


def bad_kind(a):
    return np.argsort(a, kind="fast")


def bad_interp_xp(a):
    return np.interp(1.0, a, a)


def bad_hist_bins(a):
    return np.histogram(a, bins=2.5)


def _compile_error(func, *args):
    with pytest.raises(TypingError) as info:
        compiled(func)(*args)
    return info.value


@pytest.mark.parametrize("func, args, snippet, words", [
    (bad_side, (np.arange(3.0),), '"middle"', ["search side must be 'left' or 'right'",
                                               "middle"]),
    (bad_unique_flag, (True, np.arange(3.0)), "flag)", ["return_counts=", "constant"]),
    (bad_complex_digitize, (np.ones(3, np.complex128),), "a, np", ["may not be complex"]),
    (bad_method, (np.arange(3.0),), '"nearest"', ["method=", "linear"]),
    (bad_q_type, (np.arange(3.0),), "1j", ["q must be a real number"]),
    (bad_sort_arg, (1.5,), "x + 0.5", ["array of numbers"]),
    (bad_axis, (np.ones((2, 2)),), "2)", ["axis 2 is out of bounds"]),
    (bad_median_axis, (np.ones((2, 2)),), "2)", ["axis 2 is out of bounds"]),
    (bad_bool_quantile, (np.ones(3, bool),), "a, 0.5", ["bool"]),
    (bad_kind, (np.ones(3),), '"fast"', ["kind="]),
    (bad_interp_xp, (np.ones((2, 2)),), "a, a", ["1-d array"]),
    (bad_hist_bins, (np.ones(3),), "2.5", ["bins must be an integer"]),
])
def test_bad_input(func, args, snippet, words):
    err = _compile_error(func, *args)
    assert_diagnostic(err, TypingError, func, snippet, contains=words)


def test_readonly_sort_rejected():
    a = np.arange(3.0)
    a.flags.writeable = False
    err = _compile_error(bad_readonly_sort, a)
    assert_diagnostic(err, TypingError, bad_readonly_sort, "a.sort()", contains=["read-only"])


def test_digitize_message():
    """NumPy's message for bins that are not monotonic, at run time."""
    with pytest.raises(ValueError, match="bins must be monotonically increasing or decreasing"):
        compiled(digitize)(np.arange(3.0), np.array([1.0, 3.0, 2.0]))
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        compiled(q_bad_scalar)(np.arange(3.0))


# ---- median, percentile, quantile along an axis ----

def median_axis0(a):
    return np.median(a, axis=0)


def median_axis_last(a):
    return np.median(a, axis=-1)


def q_axis1(a):
    return np.quantile(a, 0.4, axis=1)


def pct_axis0_tuple(a):
    return np.percentile(a, (10, 50, 95), axis=0)


def q_axis_array(a, q):
    return np.quantile(a, q, axis=-1)


def median_1d_axis(a):
    return np.median(a, axis=0)


@pytest.mark.parametrize("dtype", [np.int8, np.uint64, np.int64, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_order_statistics_axis(dtype, layout):
    for seed, shape in enumerate([(4, 6), (5, 3), (1, 7), (3, 4, 5)]):
        for special in (False, True):
            a = arr(values(dtype, shape, 500 + seed, special), dtype, layout)
            approx = dtype == np.float32
            check(median_axis0, a)
            check(median_axis_last, a)
            if len(shape) == 2:
                check(q_axis1, a, approx=approx)
            check(pct_axis0_tuple, a, approx=approx)
            check(q_axis_array, a, np.array([0.0, 0.3, 1.0]), approx=approx)
    check(median_1d_axis, arr(values(dtype, (9,), 1), dtype, layout))


def test_order_statistics_axis_empty():
    check(median_axis0, np.zeros((0, 3)))
    check(median_axis0, np.zeros((3, 0)))
    check(q_axis1, np.zeros((3, 0)))
    check(q_axis1, np.zeros((0, 3)))
    check(pct_axis0_tuple, np.zeros((0, 2)))
    check(pct_axis0_tuple, np.zeros((2, 0)))
