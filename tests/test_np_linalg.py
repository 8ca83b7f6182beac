"""Matrix products and np.linalg (kiln/lib/linalg.py over runtime/linalg.c's BLAS and LAPACK,
taken from SciPy's cython_blas/cython_lapack capsules). NumPy is the oracle: each compiled call
is compared with NumPy's over dtypes, C/F/strided layouts, empty operands and both the loop
(small) and BLAS (large) paths; singular and non-convergent input raise np.linalg.LinAlgError
as NumPy does; shape mismatches NumPy's ValueError; bad forms a TypingError at the call. The
SciPy-less path is checked in a subprocess with sys.modules['scipy'] = None."""

import operator
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
ALL = [np.int32, np.int64, np.bool_] + FLOATS
ids = lambda d: np.dtype(d).name  # noqa: E731


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(size=shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(size=shape)
    if np.dtype(dtype).kind in "iub":
        x = rng.integers(-4 if np.dtype(dtype).kind == "i" else 0, 5, size=shape)
    return x.astype(dtype)


def layouts(a):
    """C, F and a strided view of 2-D `a` (1-D: contiguous and strided)."""
    if a.ndim == 1:
        return [a, np.repeat(a, 2)[::2]]
    return [a, np.asfortranarray(a), np.repeat(a, 2, axis=1)[:, ::2]]


def tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def close(got, want, dtype=None, rtol=None):
    want = np.asarray(want)
    got_a = np.asarray(got)
    assert got_a.shape == want.shape, (got_a.shape, want.shape)
    # a scalar result is a Python number (as Numba boxes it)
    assert got_a.dtype == want.dtype or (got_a.ndim == 0 and np.isscalar(got)), \
        (got_a.dtype, want.dtype)
    r = rtol if rtol is not None else tol(want.dtype if dtype is None else dtype)
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got_a, want)
    else:
        np.testing.assert_allclose(got_a, want, rtol=r, atol=r * max(1.0, np.abs(want).max()
                                                                     if want.size else 1.0))


# ---- products ------------------------------------------------------------------------------

def products(a, b):
    return np.dot(a, b), a @ b, np.matmul(a, b), a.dot(b)


SHAPES = [((5,), (5,)), ((3, 4), (4,)), ((4,), (4, 3)), ((3, 4), (4, 2)), ((0,), (0,)),
          ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((3, 3), (3, 3)), ((4, 4), (4, 4)),
          ((70, 80), (80, 60)), ((100,), (100,)), ((90, 70), (70,)), ((70,), (70, 90))]


@pytest.mark.parametrize("dtype", ALL, ids=ids)
def test_products_match_numpy(dtype):
    f = kiln.njit(products)
    for sa, sb in SHAPES:
        a, b = sample(dtype, sa, 1), sample(dtype, sb, 2)
        for g, w in zip(f(a, b), products(a, b)):
            close(g, w, dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64], ids=ids)
@pytest.mark.parametrize("n", [4, 40])  # loops and BLAS
def test_products_layouts(dtype, n):
    f = kiln.njit(lambda a, b: a @ b)
    for x in layouts(sample(dtype, (n, n + 2))):
        for y in layouts(sample(dtype, (n + 2, n + 1), 3)):
            close(f(x, y), x @ y, dtype)
        for y in layouts(sample(dtype, n + 2, 4)):
            close(f(x, y), x @ y, dtype)
    for x in layouts(sample(dtype, n + 2)):
        y = sample(dtype, (n + 2, 3), 5)
        close(f(x, y), x @ y, dtype)
    # transposed and reversed views (negative strides are copied for BLAS)
    a = sample(dtype, (n, n), 6)
    close(f(a.T, a[::-1, ::-1]), a.T @ a[::-1, ::-1], dtype)


def test_products_mixed_dtypes():
    f = kiln.njit(products)
    for da, db in ((np.float32, np.float64), (np.int64, np.float32), (np.float64, np.complex64),
                   (np.int16, np.int64)):
        for n in (3, 50):
            a, b = sample(da, (n, n), 1), sample(db, (n, n), 2)
            for g, w in zip(f(a, b), products(a, b)):
                close(g, w, np.result_type(da, db))


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex128], ids=ids)
def test_matmul_batched(dtype):
    f = kiln.njit(lambda a, b: np.matmul(a, b))
    g = kiln.njit(lambda a, b: a @ b)
    for sa, sb in (((3, 4, 5), (3, 5, 2)), ((1, 4, 5), (3, 5, 2)), ((3, 4, 5), (1, 5, 2)),
                   ((3, 4, 5), (5, 2)), ((4, 5), (3, 5, 2)), ((3, 4, 5), (5,)),
                   ((5,), (3, 5, 2)), ((2, 30, 40), (2, 40, 30))):
        a, b = sample(dtype, sa, 1), sample(dtype, sb, 2)
        close(f(a, b), np.matmul(a, b), dtype)
        close(g(a, b), a @ b, dtype)
    with pytest.raises(ValueError):
        f(sample(dtype, (3, 4, 5), 1), sample(dtype, (2, 5, 2), 2))


def test_products_shape_mismatch():
    f = kiln.njit(lambda a, b: np.dot(a, b))
    g = kiln.njit(lambda a, b: a @ b)
    for sa, sb in (((3,), (4,)), ((2, 3), (2, 3)), ((60, 70), (60, 70)), ((3,), (2, 3))):
        a, b = np.ones(sa), np.ones(sb)
        for func, jit in ((np.dot, f), (operator.matmul, g)):
            with pytest.raises(ValueError) as want:
                func(a, b)
            with pytest.raises(ValueError) as got:
                jit(a, b)
            head = str(want.value).split(":")[0].split(" (")[0]
            assert str(got.value).startswith(head)


def test_dot_scalars():
    f = kiln.njit(lambda a, b: np.dot(a, b))
    close(f(2.0, np.arange(3.0)), np.dot(2.0, np.arange(3.0)))
    assert f(2.0, 3) == np.dot(2.0, 3)


@pytest.mark.parametrize("dtype", ALL, ids=ids)
def test_vdot_inner_outer(dtype):
    vdot = kiln.njit(lambda a, b: np.vdot(a, b))
    inner = kiln.njit(lambda a, b: np.inner(a, b))
    outer = kiln.njit(lambda a, b: np.outer(a, b))
    for n in (0, 5, 100):
        a, b = sample(dtype, n, 1), sample(dtype, n, 2)
        close(vdot(a, b), np.vdot(a, b), dtype)
        close(inner(a, b), np.inner(a, b), dtype)
        close(outer(a, b), np.outer(a, b), dtype)
    a, b = sample(dtype, (3, 4), 1), sample(dtype, (3, 4), 2)
    close(vdot(a, b), np.vdot(a, b), dtype)
    close(vdot(a.T, b.T), np.vdot(a.T, b.T), dtype)
    close(outer(a, b), np.outer(a, b), dtype)
    c = sample(dtype, (5, 4), 3)
    close(inner(a, c), np.inner(a, c), dtype)
    close(inner(a, b[0]), np.inner(a, b[0]), dtype)
    close(inner(b[0], a), np.inner(b[0], a), dtype)


def test_vdot_size_mismatch():
    with pytest.raises(ValueError):
        kiln.njit(lambda a, b: np.vdot(a, b))(np.ones(3), np.ones(4))


@pytest.mark.parametrize("dtype", ALL, ids=ids)
def test_trace(dtype):
    f = kiln.njit(lambda a: np.trace(a))
    g = kiln.njit(lambda a, k: np.trace(a, k))
    for shape in ((4, 4), (3, 5), (5, 3), (0, 0)):
        for a in layouts(sample(dtype, shape)):
            close(f(a), np.trace(a), dtype)
            for k in (-6, -2, 0, 1, 4):
                close(g(a, k), np.trace(a, k), dtype)


def test_product_bad_input_is_a_typing_error():
    def dot3(a, b):
        return np.dot(a, b)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(dot3)(np.ones((2, 2, 2)), np.ones(2))
    assert_diagnostic(info.value, kiln.errors.TypingError, dot3, "np.dot(",
                      contains=("1-D or 2-D",))

    def mm4(a, b):
        return a @ b

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(mm4)(np.ones((2, 2, 2, 2)), np.ones((2, 2)))
    assert_diagnostic(info.value, kiln.errors.TypingError, mm4, "a @ b", contains=("3-D",))


# ---- np.linalg -----------------------------------------------------------------------------

LA = [np.float32, np.float64, np.complex64, np.complex128, np.int64]


def spd(dtype, n, seed=0):
    a = sample(np.complex128 if np.dtype(dtype).kind == "c" else np.float64, (n, n), seed)
    m = a @ a.conj().T + n * np.eye(n)
    return m.astype(dtype) if np.dtype(dtype).kind != "i" else np.round(m).astype(dtype)


def la_tol(dtype):
    return 1e-3 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-8


def la_close(got, want, dtype):
    close(got, want, dtype, rtol=la_tol(dtype))


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_solve_inv_det_slogdet(dtype):
    solve = kiln.njit(lambda a, b: np.linalg.solve(a, b))
    inv = kiln.njit(lambda a: np.linalg.inv(a))
    det = kiln.njit(lambda a: np.linalg.det(a))
    slogdet = kiln.njit(lambda a: np.linalg.slogdet(a))
    for n in (1, 4, 30):
        a = spd(dtype, n) + (sample(dtype, (n, n), 7) if np.dtype(dtype).kind != "i" else 0)
        for x in layouts(a):
            la_close(inv(x), np.linalg.inv(x), dtype)
            la_close(det(x), np.linalg.det(x), dtype)
            s, l = slogdet(x)
            ws, wl = np.linalg.slogdet(x)
            la_close(s, ws, dtype)
            la_close(l, wl, dtype)
            b = sample(dtype, n, 2)
            la_close(solve(x, b), np.linalg.solve(x, b), dtype)
            b = sample(dtype, (n, 3), 3)
            la_close(solve(x, b), np.linalg.solve(x, b), dtype)
    e = np.zeros((0, 0), dtype)
    la_close(inv(e), np.linalg.inv(e), dtype)
    la_close(det(e), np.linalg.det(e), dtype)


def test_singular_matrices():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    for func in (lambda a: np.linalg.inv(a), lambda a: np.linalg.solve(a, np.ones(2))):
        with pytest.raises(np.linalg.LinAlgError) as want:
            func(a)
        with pytest.raises(np.linalg.LinAlgError) as got:
            kiln.njit(func)(a)
        assert str(got.value) == str(want.value)
    assert kiln.njit(lambda a: np.linalg.det(a))(a) == np.linalg.det(a)
    assert kiln.njit(lambda a: np.linalg.slogdet(a))(a) == tuple(np.linalg.slogdet(a))
    assert kiln.njit(lambda a: np.linalg.cond(a, 1))(a) == np.linalg.cond(a, 1)


def test_square_and_shape_errors():
    for func in (lambda a: np.linalg.inv(a), lambda a: np.linalg.det(a),
                 lambda a: np.linalg.eigvals(a), lambda a: np.linalg.cholesky(a)):
        with pytest.raises(np.linalg.LinAlgError) as want:
            func(np.ones((2, 3)))
        with pytest.raises(np.linalg.LinAlgError) as got:
            kiln.njit(func)(np.ones((2, 3)))
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError):
        kiln.njit(lambda a, b: np.linalg.solve(a, b))(np.eye(3), np.ones(4))


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_cholesky(dtype):
    f = kiln.njit(lambda a: np.linalg.cholesky(a))
    g = kiln.njit(lambda a: np.linalg.cholesky(a, upper=True))
    for n in (1, 5, 20):
        for x in layouts(spd(dtype, n)):
            la_close(f(x), np.linalg.cholesky(x), dtype)
            la_close(g(x), np.linalg.cholesky(x, upper=True), dtype)
    with pytest.raises(np.linalg.LinAlgError) as got:
        f(-np.eye(3, dtype=dtype))
    assert "positive definite" in str(got.value)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_eigh_eigvalsh(dtype):
    eigh = kiln.njit(lambda a: np.linalg.eigh(a))
    eigvalsh = kiln.njit(lambda a: np.linalg.eigvalsh(a))
    for n in (1, 6, 30):
        for x in layouts(spd(dtype, n)):
            w, v = eigh(x)
            ww, wv = np.linalg.eigh(x)
            la_close(w, ww, dtype)
            assert v.dtype == wv.dtype
            # vectors up to a phase: A v = v diag(w)
            np.testing.assert_allclose(x @ v, v * w, atol=la_tol(dtype) * 10 * n * n)
            la_close(eigvalsh(x), np.linalg.eigvalsh(x), dtype)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_eig_eigvals(dtype):
    eig = kiln.njit(lambda a: np.linalg.eig(a))
    eigvals = kiln.njit(lambda a: np.linalg.eigvals(a))
    for n in (1, 5, 20):
        # real input with real eigenvalues (a symmetric matrix); complex input in general
        a = spd(dtype, n, 1) if np.dtype(dtype).kind != "c" else sample(dtype, (n, n), 1)
        for x in layouts(a):
            w, v = eig(x)
            ww = np.linalg.eigvals(x)
            assert w.dtype == ww.dtype and v.dtype == ww.dtype
            la_close(np.sort_complex(w), np.sort_complex(ww), dtype)
            la_close(np.sort_complex(eigvals(x)), np.sort_complex(ww), dtype)
            np.testing.assert_allclose(x @ v, v * w, atol=la_tol(dtype) * 10 * n * n)


def test_eig_of_real_matrix_with_complex_eigenvalues_is_a_value_error():
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="domain change"):
        kiln.njit(lambda a: np.linalg.eigvals(a))(rot)
    w = kiln.njit(lambda a: np.linalg.eigvals(a))(rot.astype(np.complex128))
    want = np.linalg.eigvals(rot)
    np.testing.assert_allclose(np.sort(w.imag), np.sort(want.imag))
    np.testing.assert_allclose(w.real, want.real, atol=1e-12)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_svd(dtype):
    f = kiln.njit(lambda a, full: np.linalg.svd(a, full))
    for shape in ((4, 4), (6, 3), (3, 6), (1, 5), (30, 20), (0, 3), (3, 0)):
        for x in layouts(sample(dtype, shape, 2)):
            for full in (True, False):
                u, s, vh = f(x, full)
                wu, ws, wvh = np.linalg.svd(x, full)
                assert (u.shape, s.shape, vh.shape) == (wu.shape, ws.shape, wvh.shape)
                assert (u.dtype, s.dtype, vh.dtype) == (wu.dtype, ws.dtype, wvh.dtype)
                la_close(s, ws, dtype)
                k = s.shape[0]
                np.testing.assert_allclose((u[:, :k] * s) @ vh[:k], x,
                                           atol=la_tol(dtype) * 10 * max(shape))


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_qr(dtype):
    f = kiln.njit(lambda a: np.linalg.qr(a))
    for shape in ((4, 4), (6, 3), (3, 6), (30, 20), (0, 3), (3, 0)):
        for x in layouts(sample(dtype, shape, 3)):
            q, r = f(x)
            wq, wr = np.linalg.qr(x)
            assert (q.shape, r.shape, q.dtype, r.dtype) == (wq.shape, wr.shape, wq.dtype,
                                                            wr.dtype)
            np.testing.assert_allclose(q @ r, x, atol=la_tol(dtype) * 10 * max(shape, default=1))
            np.testing.assert_allclose(np.triu(r), r)
            np.testing.assert_allclose(q.conj().T @ q, np.eye(q.shape[1]),
                                       atol=la_tol(dtype) * 10)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_lstsq(dtype):
    f = kiln.njit(lambda a, b: np.linalg.lstsq(a, b))
    g = kiln.njit(lambda a, b, r: np.linalg.lstsq(a, b, r))
    for shape in ((6, 3), (3, 6), (5, 5), (20, 4)):
        a = sample(dtype, shape, 4)
        for b in (sample(dtype, shape[0], 5), sample(dtype, (shape[0], 2), 6)):
            got, want = f(a, b), np.linalg.lstsq(a, b)
            for x, y in zip(got, want):
                la_close(x, y, dtype)
            for x, y in zip(g(a, b, 0.5), np.linalg.lstsq(a, b, 0.5)):
                la_close(x, y, dtype)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_pinv_matrix_rank_matrix_power(dtype):
    pinv = kiln.njit(lambda a: np.linalg.pinv(a))
    rank = kiln.njit(lambda a: np.linalg.matrix_rank(a))
    rank_tol = kiln.njit(lambda a, t: np.linalg.matrix_rank(a, t))
    power = kiln.njit(lambda a, n: np.linalg.matrix_power(a, n))
    for shape in ((4, 4), (6, 3), (3, 6), (0, 3)):
        for x in layouts(sample(dtype, shape, 5)):
            if x.size == 0 and np.dtype(dtype).kind == "i":
                # NumPy returns an empty array of the input's dtype here; kiln float64
                np.testing.assert_array_equal(pinv(x), np.linalg.pinv(x))
                continue
            la_close(pinv(x), np.linalg.pinv(x), dtype)
            assert rank(x) == np.linalg.matrix_rank(x)
            assert rank_tol(x, 1.0) == np.linalg.matrix_rank(x, 1.0)
    low = np.outer(sample(dtype, 5, 1), sample(dtype, 5, 2)).astype(dtype)
    assert rank(low) == np.linalg.matrix_rank(low) == 1
    assert rank(np.zeros(3, dtype)) == np.linalg.matrix_rank(np.zeros(3, dtype))
    assert rank(np.ones(3, dtype)) == np.linalg.matrix_rank(np.ones(3, dtype))
    a = sample(dtype, (4, 4), 6)
    for n in (0, 1, 2, 3, 7):
        la_close(power(a, n), np.linalg.matrix_power(a, n), dtype)
    if np.dtype(dtype).kind != "i":
        a = spd(dtype, 4)
        for n in (-1, -3):
            la_close(power(a, n), np.linalg.matrix_power(a, n), dtype)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_norm(dtype):
    f0 = kiln.njit(lambda a: np.linalg.norm(a))
    f1 = kiln.njit(lambda a, o: np.linalg.norm(a, o))
    fax = kiln.njit(lambda a, o, ax: np.linalg.norm(a, o, ax))
    fro = kiln.njit(lambda a: np.linalg.norm(a, "fro"))
    nuc = kiln.njit(lambda a: np.linalg.norm(a, "nuc"))
    for v in layouts(sample(dtype, 7, 1)):
        la_close(f0(v), np.linalg.norm(v), dtype)
        for o in (None, 0, 1, 2, 3, 0.5, -1, np.inf, -np.inf):
            la_close(f1(v, o), np.linalg.norm(v, o), dtype)
    for m in layouts(sample(dtype, (4, 5), 2)):
        la_close(f0(m), np.linalg.norm(m), dtype)
        la_close(fro(m), np.linalg.norm(m, "fro"), dtype)
        la_close(nuc(m), np.linalg.norm(m, "nuc"), dtype)
        for o in (None, 1, -1, 2, -2, np.inf, -np.inf):
            la_close(f1(m, o), np.linalg.norm(m, o), dtype)
            la_close(fax(m, o, (0, 1)), np.linalg.norm(m, o, (0, 1)), dtype)
            la_close(fax(m, o, (1, 0)), np.linalg.norm(m, o, (1, 0)), dtype)
        for o in (None, 1, 2, np.inf, 3):
            for ax in (0, 1, -1):
                la_close(fax(m, o, ax), np.linalg.norm(m, o, ax), dtype)
    t = sample(dtype, (2, 3, 4), 3)
    la_close(f0(t), np.linalg.norm(t), dtype)
    la_close(f0(np.zeros((0, 3), dtype)), np.linalg.norm(np.zeros((0, 3), dtype)), dtype)
    with pytest.raises(ValueError, match="Invalid norm order"):
        f1(sample(dtype, (3, 3)), 3)


@pytest.mark.parametrize("dtype", LA, ids=ids)
def test_cond(dtype):
    f = kiln.njit(lambda a: np.linalg.cond(a))
    g = kiln.njit(lambda a, p: np.linalg.cond(a, p))
    h = kiln.njit(lambda a: np.linalg.cond(a, "fro"))
    for x in layouts(spd(dtype, 5) + (sample(dtype, (5, 5), 8) if np.dtype(dtype).kind != "i"
                                      else 0)):
        la_close(f(x), np.linalg.cond(x), dtype)
        la_close(h(x), np.linalg.cond(x, "fro"), dtype)
        for p in (None, 1, -1, 2, -2, np.inf, -np.inf):
            la_close(g(x, p), np.linalg.cond(x, p), dtype)
    la_close(f(sample(dtype, (3, 5))), np.linalg.cond(sample(dtype, (3, 5))), dtype)
    with pytest.raises(np.linalg.LinAlgError):
        f(np.zeros((0, 0), dtype))


def test_nan_input():
    a = np.array([[1.0, np.nan], [0.5, 2.0]])
    close(kiln.njit(lambda a, b: a @ b)(a, a), a @ a)
    assert np.isnan(kiln.njit(lambda a: np.linalg.det(a))(a))
    assert np.isnan(kiln.njit(lambda a: np.linalg.norm(a))(a))
    np.testing.assert_array_equal(np.isnan(kiln.njit(lambda a: np.linalg.solve(a, a))(a)),
                                  np.isnan(np.linalg.solve(a, a)))


def test_linalg_bad_input_is_a_typing_error():
    def inv1(a):
        return np.linalg.inv(a)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(inv1)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, inv1, "np.linalg.inv(",
                      contains=("2-D",))

    def bad_ord(a):
        return np.linalg.norm(a, "max")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_ord)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_ord, "np.linalg.norm(",
                      contains=("ord",))

    def bad_mode(a):
        return np.linalg.qr(a, "complete")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_mode)(np.ones((3, 3)))
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_mode, "np.linalg.qr(",
                      contains=("reduced",))


_NO_SCIPY = textwrap.dedent("""
    import sys
    sys.modules["scipy"] = None
    import numpy as np
    import kiln

    def inv(a):
        return np.linalg.inv(a)

    try:
        kiln.njit(inv)(np.eye(3))
    except kiln.errors.TypingError as e:
        assert "SciPy" in e.msg and e.line == 8 and e.col == 12, (e.msg, e.line, e.col)
    else:
        raise AssertionError("no error")

    mm = kiln.njit(lambda a, b: (a @ b, np.dot(a, b), np.vdot(a, b), np.linalg.norm(a)))
    for n in (3, 80):
        a = np.arange(n * n, dtype=np.float64).reshape(n, n) / n
        for g, w in zip(mm(a, a), (a @ a, np.dot(a, a), np.vdot(a, a), np.linalg.norm(a))):
            np.testing.assert_allclose(g, w)
    assert "scipy.linalg" not in sys.modules
    print("ok")
""")


def test_without_scipy(tmp_path):
    script = tmp_path / "no_scipy.py"
    script.write_text(_NO_SCIPY)
    r = subprocess.run([sys.executable, "-P", str(script)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr
