"""Signal and calculus in compiled code: np.correlate, np.cross, np.kron, np.trapezoid,
np.gradient, np.ediff1d, np.polyval and np.diff's prepend= / append=. NumPy is the oracle:
each compiled call is compared with the same function run by the interpreter (values, dtype,
shape), over dtypes, layouts and empty inputs; bad input is a TypingError at the call or
NumPy's ValueError."""

import warnings

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

REALS = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
         np.uint64, np.float32, np.float64]
NUMBERS = REALS + [np.complex64, np.complex128]
NONBOOL = NUMBERS[1:]


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 9, size=shape)
    if np.dtype(dtype).kind == "c":
        return (x + 1j * rng.integers(0, 9, size=shape)).astype(dtype)
    return x.astype(dtype)


def layouts(a):
    if a.ndim == 1:
        return [a, np.repeat(a, 2)[::2]]
    return [a, np.asfortranarray(a), np.repeat(a, 2, axis=1)[:, ::2]]


def same(got, want, exact=False):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, exact)
        return
    want = np.asarray(want)
    got_a = np.asarray(got)
    assert got_a.shape == want.shape
    assert got_a.dtype == want.dtype or (got_a.ndim == 0 and np.isscalar(got)), \
        (got_a.dtype, want.dtype)
    if exact or want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got_a, want)
    else:
        tol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got_a, want, rtol=tol, atol=tol)


def check(f, *args, exact=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = f(*args)
        got = kiln.njit(f)(*args)
    same(got, want, exact)
    return got, want


# ---- np.correlate ----------------------------------------------------------------------------

def correlate(a, v):
    return (np.correlate(a, v), np.correlate(a, v, "full"), np.correlate(a, v, mode="same"),
            np.correlate(a, v, "valid"))


@pytest.mark.parametrize("dtype", NONBOOL, ids=lambda d: np.dtype(d).name)
def test_correlate_every_dtype(dtype):
    for a in layouts(sample(dtype, 6)):
        check(correlate, a, sample(dtype, 3, 1), exact=True)


@pytest.mark.parametrize("n, m", [(5, 3), (3, 5), (4, 4), (1, 6), (6, 1), (2, 7), (7, 2)])
def test_correlate_lengths_and_complex(n, m):
    check(correlate, np.arange(1., n + 1) ** 2, np.arange(2., m + 2) ** 1.5)
    check(correlate, np.arange(1., n + 1) * (1 + 2j), np.arange(2., m + 2) - 1j, exact=True)
    check(correlate, np.arange(n, dtype=np.int8), np.linspace(0, 1, m, dtype=np.float32))


def test_correlate_bad_input():
    f = kiln.njit(correlate)
    for a, v, msg in ((np.zeros(0), np.ones(2), "first array argument cannot be empty"),
                      (np.ones(2), np.zeros(0), "second array argument cannot be empty")):
        with pytest.raises(ValueError, match=msg):
            f(a, v)
        with pytest.raises(ValueError, match=msg):
            correlate(a, v)

    def bad_mode(a):
        return np.correlate(a, a, mode="middle")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_mode)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_mode, "np.correlate(",
                      contains=("'valid', 'same', or 'full'", "middle"))


# ---- np.cross, np.kron -----------------------------------------------------------------------

def cross(a, b):
    return np.cross(a, b)


@pytest.mark.parametrize("dtype", NONBOOL, ids=lambda d: np.dtype(d).name)
def test_cross_every_dtype(dtype):
    a, b = sample(dtype, (4, 3)), sample(dtype, (4, 3), 1)
    for x in layouts(a):
        check(cross, x, b, exact=True)
        check(cross, x, b[1], exact=True)
        check(cross, b[2], x, exact=True)
    check(cross, a[0], b[0], exact=True)
    check(cross, a[:1], b, exact=True)
    check(cross, np.zeros((0, 3), dtype), b[0], exact=True)


def test_cross_mixed_dtypes_and_bad_input():
    check(cross, np.arange(3, dtype=np.int8), np.array([0.5, 2.0, 1.0], np.float32))
    f = kiln.njit(cross)
    msg = "incompatible dimensions for cross product"
    with pytest.raises(ValueError, match=msg):
        f(np.ones(4), np.ones(3))
    with pytest.raises(ValueError, match=msg):
        cross(np.ones(4), np.ones(3))
    with pytest.raises(ValueError, match="could not be broadcast"):
        f(np.ones((2, 3)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="3 elements"):
        f(np.ones(2), np.ones(2))

    def g(a):
        return np.cross(a, a)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(g)(np.ones((2, 2, 3)))
    assert_diagnostic(info.value, kiln.errors.TypingError, g, "np.cross(",
                      contains=("1 or 2 dimensions",))


def kron(a, b):
    return np.kron(a, b)


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_kron_every_dtype(dtype):
    a, b = sample(dtype, (2, 3)), sample(dtype, (3, 2), 1)
    for x in layouts(a):
        check(kron, x, b, exact=True)
        check(kron, x, b[0], exact=True)
        check(kron, b[1], x, exact=True)
    check(kron, a[0], b[:, 0], exact=True)
    check(kron, np.zeros(0, dtype), b[:, 0], exact=True)


def test_kron_mixed_dtypes():
    check(kron, np.arange(4, dtype=np.int8).reshape(2, 2), np.array([0.5, 2.0], np.float32))
    check(kron, np.array([True, False]), np.arange(3, dtype=np.uint16))


# ---- np.trapezoid ----------------------------------------------------------------------------

def trapezoid(y, x, dx):
    return np.trapezoid(y), np.trapezoid(y, x), np.trapezoid(y, dx=dx)


def trapezoid_axis(y, x):
    return (np.trapezoid(y, axis=0), np.trapezoid(y, x[:, 0], axis=0),
            np.trapezoid(y, x[0], axis=-1), np.trapezoid(y, x, axis=1),
            np.trapezoid(y, dx=0.5, axis=-2))


@pytest.mark.parametrize("dtype", NONBOOL, ids=lambda d: np.dtype(d).name)
def test_trapezoid_every_dtype(dtype):
    for y in layouts(sample(dtype, 7)):
        check(trapezoid, y, np.arange(7.) ** 1.5, 0.5)
    for y in layouts(sample(dtype, (3, 4))):
        check(trapezoid_axis, y, np.arange(12.).reshape(3, 4) ** 1.5)


def test_trapezoid_empty_nan_and_bad_input():
    check(trapezoid, np.zeros(0), np.zeros(0), 2.0)
    check(trapezoid, np.array([1.0, np.nan, 2.0]), np.arange(3.), 1.0)

    def f(y):
        return np.trapezoid(y, axis=1)

    with pytest.raises(np.exceptions.AxisError):
        kiln.njit(f)(np.ones(3))

    def g(y):
        return np.trapezoid(y, "x")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(g)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, g, "np.trapezoid(",
                      contains=("x must be an array",))


# ---- np.gradient -----------------------------------------------------------------------------

def gradient1(f, x):
    return (np.gradient(f), np.gradient(f, 0.5), np.gradient(f, 2, edge_order=2),
            np.gradient(f, x), np.gradient(f, x * 2.0))


@pytest.mark.parametrize("dtype", NONBOOL, ids=lambda d: np.dtype(d).name)
def test_gradient_1d_every_dtype(dtype):
    for f in layouts(sample(dtype, 6)):
        check(gradient1, f, np.array([0., 1., 3., 4., 7., 8.]))


def gradient2(f):
    return np.gradient(f), np.gradient(f, 0.5), np.gradient(f, axis=0), \
        np.gradient(f, 3.0, axis=-1, edge_order=2)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_gradient_2d(dtype):
    for f in layouts(sample(dtype, (4, 5))):
        check(gradient2, f)


def test_gradient_too_small_and_bad_input():
    def f(a):
        return np.gradient(a)

    msg = "Shape of array too small"
    with pytest.raises(ValueError, match=msg):
        kiln.njit(f)(np.ones(1))
    with pytest.raises(ValueError, match=msg):
        f(np.ones(1))
    check(f, np.array([1.0, np.nan, 3.0, 4.0]))

    def g(a):
        return np.gradient(a, a[:2])

    with pytest.raises(ValueError, match="distances must match"):
        kiln.njit(g)(np.ones(4))

    def h(a):
        return np.gradient(a, "dx")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(h)(np.ones(4))
    assert_diagnostic(info.value, kiln.errors.TypingError, h, "np.gradient(",
                      contains=("spacing",))


# ---- np.ediff1d ------------------------------------------------------------------------------

def ediff1d(a, b):
    return (np.ediff1d(a), np.ediff1d(a, to_begin=b), np.ediff1d(a, to_end=b[:1]),
            np.ediff1d(a, b[0], b[1]), np.ediff1d(a, b, b))


def ediff1d_ints(a):
    return np.ediff1d(a, 9, -1), np.ediff1d(a, to_begin=2.5)


@pytest.mark.parametrize("dtype", NONBOOL, ids=lambda d: np.dtype(d).name)
def test_ediff1d_every_dtype(dtype):
    for a in layouts(sample(dtype, (3, 4))) + layouts(sample(dtype, 6)):
        check(ediff1d, a, sample(dtype, 2, 1), exact=True)
    check(ediff1d, np.zeros(0, dtype), sample(dtype, 2, 1), exact=True)
    check(ediff1d, np.zeros(1, dtype), sample(dtype, 2, 1), exact=True)
    if np.dtype(dtype).kind in "fc":
        check(ediff1d_ints, sample(dtype, 4), exact=True)


def test_ediff1d_bad_input():
    def f(a, b):
        return np.ediff1d(a, to_begin=b)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(f)(np.arange(3), np.ones(2))
    assert_diagnostic(info.value, kiln.errors.TypingError, f, "np.ediff1d(",
                      contains=("same_kind",))
    with pytest.raises(TypeError, match="same_kind"):
        f(np.arange(3), np.ones(2))


# ---- np.polyval ------------------------------------------------------------------------------

def polyval(p, x):
    return np.polyval(p, x), np.polyval(p, 2), np.polyval(p, 1.5), np.polyval(p, x[0])


@pytest.mark.parametrize("dtype", NONBOOL, ids=lambda d: np.dtype(d).name)
def test_polyval_every_dtype(dtype):
    p = sample(dtype, 4)
    for x in layouts(sample(dtype, (2, 3), 1)) + layouts(sample(np.float64, 5, 2)):
        check(polyval, p, x)


def test_polyval_mixed_empty_nan():
    check(polyval, np.array([1, 2, 3], np.int8), np.array([0.5, np.nan, np.inf], np.float32))
    check(polyval, np.zeros(0), np.arange(3.))

    def at(p, x):
        return np.polyval(p, x)

    check(at, np.array([1.0, 2.0]), np.zeros((0, 2)))


# ---- np.diff prepend= / append= --------------------------------------------------------------

def diff_edges(a, b):
    return (np.diff(a, prepend=0), np.diff(a, append=b), np.diff(a, 2, prepend=b, append=1.5),
            np.diff(a, n=0, append=b), np.diff(a, prepend=b[:0]))


@pytest.mark.parametrize("dtype", REALS + [np.complex128], ids=lambda d: np.dtype(d).name)
def test_diff_prepend_append(dtype):
    for a in layouts(sample(dtype, 6)):
        check(diff_edges, a, sample(dtype, 2, 1), exact=True)
    check(diff_edges, np.zeros(0, dtype), sample(dtype, 2, 1), exact=True)


def test_diff_prepend_bad_input():
    def f(a):
        return np.diff(a, prepend=0)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(f)(np.ones((2, 2)))
    assert_diagnostic(info.value, kiln.errors.TypingError, f, "np.diff(",
                      contains=("1-D arrays",))
