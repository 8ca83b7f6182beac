"""parallel=True array expressions, reductions and creation functions (lower/parallel_array.c).

The oracle is the same function compiled without parallel=True (element-wise results must be
identical: bit for bit) and NumPy (reductions of floats: assert_allclose, since the per-thread
partials are combined in tid order). Sizes straddle the inline threshold (16384 elements) so
both the direct call and the pool path run; layouts C, F, strided and broadcast."""

import threading

import numpy as np
import pytest

import kiln

BIG = 40_000  # above the threshold: the region goes to kn_par_for
SIZES = [0, 1, 7, 1000, BIG]


def both(fn):
    return kiln.njit(parallel=True)(fn), kiln.njit(fn)


def notes(disp):
    """The (what, parallel, why) notes of every compiled signature."""
    return [(w, p, y) for _, ns in disp._parallel_notes() for (_, _, w, p, y) in ns]


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")


def _axpy(a, b, c):
    return a * b + c


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.complex128])
def test_fused_expression_matches_serial_and_numpy(n, dtype):
    par, ser = both(_axpy)
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 100).astype(dtype)
    b = (rng.standard_normal(n) * 100).astype(dtype)
    r = par(a, b, dtype(3))
    same(r, ser(a, b, dtype(3)))
    same(r, _axpy(a, b, dtype(3)))


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x,  # C
        lambda x: np.asfortranarray(x),  # F
        lambda x: x[::2, ::3],  # strided (A)
        lambda x: x.T,  # F view of a C array
    ],
    ids=["C", "F", "strided", "T"],
)
def test_layouts_2d(make):
    par, ser = both(_axpy)
    base = np.arange(600 * 400, dtype=np.float64).reshape(600, 400) / 7.0
    a = make(base)
    b = make(base[::-1].copy())
    same(par(a, b, 1.5), ser(a, b, 1.5))
    same(par(a, b, 1.5), _axpy(a, b, 1.5))
    same(par(a, b[0], 1.5), _axpy(a, b[0], 1.5))  # broadcast of a row


def test_broadcast_column_and_3d():
    par, ser = both(_axpy)
    a = np.random.default_rng(1).random((50, 40, 30))
    col = np.random.default_rng(2).random((50, 1, 30))
    same(par(a, col, a[0]), ser(a, col, a[0]))
    same(par(a, col, a[0]), _axpy(a, col, a[0]))
    with pytest.raises(ValueError):
        par(a, a[:3], 1.0)


def _ufuncs(a, b):
    return np.sin(a) + np.exp(-b) * np.sqrt(np.abs(a)), a > b, np.where(a > 0.5, a, b)


@pytest.mark.parametrize("n", [5, BIG])
def test_ufuncs_comparisons_where(n):
    par, ser = both(_ufuncs)
    rng = np.random.default_rng(3)
    a, b = rng.random(n), rng.random(n)
    for x, y, z in zip(par(a, b), ser(a, b), _ufuncs(a, b)):
        same(x, y)
        np.testing.assert_allclose(x, z, rtol=1e-15)
    assert any(w == "array expression" and p for w, p, _ in notes(par))


def _inplace(a, b):
    a += b
    a[::2] = 3.0
    np.multiply(a, 2.0, out=a)
    return a


def test_inplace_setitem_out():
    par, ser = both(_inplace)
    a = np.arange(BIG, dtype=np.float64)
    b = np.ones(BIG)
    same(par(a.copy(), b), ser(a.copy(), b))
    same(par(a.copy(), b), _inplace(a.copy(), b))


def _overlap(a):
    a[1:] = a[:-1] + 1.0
    return a


def test_overlapping_assignment():
    par, ser = both(_overlap)
    a = np.arange(BIG, dtype=np.float64)
    same(par(a.copy()), _overlap(a.copy()))
    same(par(a.copy()), ser(a.copy()))


def _int_div(a, b):
    return a // b, a % b


def test_integer_division_by_zero_is_numpy_s():
    par, ser = both(_int_div)
    a = np.arange(BIG, dtype=np.int64) - 100
    b = np.arange(BIG, dtype=np.int64) % 7
    for x, y in zip(par(a, b), ser(a, b)):
        same(x, y)


def _power(a, b):
    return a**b


def test_raising_kernel_stays_serial_and_raises():
    par, ser = both(_power)
    a = np.arange(BIG, dtype=np.int64) % 5
    same(par(a, a), ser(a, a))
    neg = a.copy()
    neg[BIG // 2] = -1
    with pytest.raises(ValueError, match="negative integer powers") as e1:
        par(a, neg)
    with pytest.raises(ValueError) as e2:
        ser(a, neg)
    assert str(e1.value) == str(e2.value)
    ns = notes(par)
    assert ns and all(not p for _, p, _ in ns)
    assert "can raise" in ns[0][2]


# ---- reductions ----


def _reduce(a):
    return np.sum(a), a.sum(), np.prod(a[:8]), a.min(), a.max(), np.min(a), np.max(a)


@pytest.mark.parametrize("n", [1, 7, 1000, BIG, 100_003])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8])
def test_integer_reductions_exact(n, dtype):
    par, ser = both(_reduce)
    a = np.random.default_rng(n).integers(-100, 100, n).astype(dtype)
    for x, y, z in zip(par(a), ser(a), _reduce(a)):
        assert x == y == z


@pytest.mark.parametrize("n", [1, 1000, BIG, 100_003])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_reductions(n, dtype):
    def f(a):
        return np.sum(a), a.mean(), a.min(), a.max(), np.prod(a[:20])

    par, ser = both(f)
    a = np.random.default_rng(n).random(n).astype(dtype) + 0.5
    tol = 1e-12 if dtype == np.float64 else 1e-4
    for x, y, z in zip(par(a), ser(a), f(a)):
        np.testing.assert_allclose(x, z, rtol=tol)
        np.testing.assert_allclose(x, y, rtol=tol)
    r = par(a)
    assert r[2] == a.min() and r[3] == a.max()  # min and max are exact
    whats = [w for w, p, _ in notes(par) if p]
    assert {"reduction sum", "reduction mean", "reduction min", "reduction max"} <= set(whats)


def test_reductions_nan_wins_and_complex_and_bool():
    def f(a):
        return a.min(), a.max(), a.sum()

    par, _ = both(f)
    a = np.arange(BIG, dtype=np.float64)
    a[BIG - 3] = np.nan
    for x in par(a):
        assert np.isnan(x)
    c = np.arange(BIG) + 1j * np.arange(BIG)[::-1]
    r, z = par(c), f(c)
    assert r[0] == z[0] and r[1] == z[1]
    np.testing.assert_allclose(r[2], z[2])
    b = np.arange(BIG) % 3 == 0
    assert par(b) == f(b)


@pytest.mark.parametrize(
    "make",
    [lambda x: x, lambda x: np.asfortranarray(x), lambda x: x[::3, 1::2], lambda x: x.T],
    ids=["C", "F", "strided", "T"],
)
def test_reductions_layouts(make):
    def f(a):
        return a.sum(), a.min(), a.max(), a.mean()

    par, ser = both(f)
    a = make(np.random.default_rng(5).integers(0, 1000, (500, 300)).astype(np.int64))
    assert par(a) == ser(a)
    np.testing.assert_allclose(par(a), f(a))


def test_empty_reductions():
    def s(a):
        return a.sum(), np.prod(a), a.mean()

    def m(a):
        return a.min()

    par, _ = both(s)
    r = par(np.zeros(0))
    assert r[0] == 0.0 and r[1] == 1.0 and np.isnan(r[2])
    pm, sm = both(m)
    with pytest.raises(ValueError) as e1:
        pm(np.zeros(0))
    with pytest.raises(ValueError) as e2:
        sm(np.zeros(0))
    assert str(e1.value) == str(e2.value)


# ---- creation and fills ----


def _create(n):
    return (
        np.zeros(n),
        np.ones(n, dtype=np.int32),
        np.full(n, 2.5),
        np.full((n, 3), 7, dtype=np.int8),
        np.arange(n),
        np.arange(0.5, n, 0.25),
        np.zeros((3, n), dtype=np.complex128),
    )


@pytest.mark.parametrize("n", SIZES)
def test_creation(n):
    par, ser = both(_create)
    for x, y, z in zip(par(n), ser(n), _create(n)):
        same(x, y)
        same(x, z)
    if n:
        whats = {w for w, p, _ in notes(par) if p}
        assert {"np.zeros", "np.ones", "np.full", "np.arange"} <= whats


def _empty_fill(n, v):
    a = np.empty(n)
    a.fill(v)
    b = np.empty((n, 2), dtype=np.int64)
    b[:] = 3
    b[::2, 1] = -1
    return a, b


@pytest.mark.parametrize("n", [0, 3, BIG])
def test_empty_and_fill(n):
    par, ser = both(_empty_fill)
    for x, y, z in zip(par(n, 1.25), ser(n, 1.25), _empty_fill(n, 1.25)):
        same(x, y)
        same(x, z)


def test_creation_errors_are_serial_ones():
    par, _ = both(_create)
    with pytest.raises(ValueError, match="negative dimensions"):
        par(-1)


# ---- diagnostics and threads ----


def test_no_notes_without_parallel():
    ser = kiln.njit(_axpy)
    a = np.ones(10)
    ser(a, a, 1.0)
    assert notes(ser) == []


def test_notes_name_lines(capsys):
    par, _ = both(_reduce)
    par(np.arange(BIG))
    par.parallel_diagnostics(level=1)
    out = capsys.readouterr().out
    assert "reduction sum: parallel" in out and "reduction max: parallel" in out


def test_called_from_python_threads():
    @kiln.njit(parallel=True, nogil=True)
    def work(a):
        return (a * 2.0 + 1.0).sum()

    a = np.arange(BIG, dtype=np.float64)
    want = (a * 2.0 + 1.0).sum()
    out = [None] * 8

    def run(k):
        out[k] = [work(a) for _ in range(20)]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for rs in out:
        for r in rs:
            np.testing.assert_allclose(r, want)


def test_inside_a_loop_and_a_called_function():
    @kiln.njit(parallel=True)
    def inner(a):
        return np.sum(a * a)

    @kiln.njit(parallel=True)
    def outer(a, k):
        t = 0.0
        for i in range(k):
            t += inner(a + i)
        return t

    a = np.arange(BIG, dtype=np.float64) / BIG
    want = sum(np.sum((a + i) * (a + i)) for i in range(4))
    np.testing.assert_allclose(outer(a, 4), want)


@pytest.mark.parametrize(
    "make",
    [lambda x: x, lambda x: np.asfortranarray(x), lambda x: x[::2, 1::3], lambda x: x.T],
    ids=["C", "F", "strided", "T"],
)
def test_axis_reductions_bit_exact(make):
    def f(a):
        return (
            a.sum(axis=0),
            a.sum(axis=1),
            np.max(a, axis=0),
            a.mean(axis=1),
            np.prod(a, axis=0),
            a.argmin(axis=1),
            np.any(a > 0.99, axis=0),
        )

    par, ser = both(f)
    a = make(np.random.default_rng(9).random((400, 300)))
    for x, y, z in zip(par(a), ser(a), f(a)):
        same(x, y)  # one thread computes each output element, in the serial order
        np.testing.assert_allclose(x, z)
    assert any(w == "reduction along an axis" and p for w, p, _ in notes(par))


def test_axis_reduction_keepdims_and_empty_axis():
    def f(a):
        return a.sum(axis=1, keepdims=True), a.max(axis=0)

    par, ser = both(f)
    a = np.arange(300.0 * 200).reshape(300, 200)
    for x, y, z in zip(par(a), ser(a), f(a)):
        same(x, y)
        same(x, z)
    with pytest.raises(ValueError) as e1:
        par(np.zeros((0, 5)))
    with pytest.raises(ValueError) as e2:
        ser(np.zeros((0, 5)))
    assert str(e1.value) == str(e2.value)


@pytest.mark.parametrize(
    "make",
    [lambda x: x, lambda x: np.asfortranarray(x), lambda x: x[::2, 1::3], lambda x: x.T],
    ids=["C", "F", "strided", "T"],
)
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint8, np.bool_])
def test_arg_and_logical_reductions(make, dtype):
    def f(a):
        return a.argmin(), a.argmax(), np.argmin(a), np.any(a), np.all(a), a.any(), a.all()

    par, ser = both(f)
    rng = np.random.default_rng(11)
    base = rng.integers(0, 3, (400, 300)).astype(dtype)  # many ties: the first index wins
    for a in (make(base), make(base * 0 + 1), make(base * 0)):
        assert par(a) == ser(a) == f(a)
    assert any(w == "reduction argmin" and p for w, p, _ in notes(par))


def test_argmin_nan_first_and_complex():
    def f(a):
        return a.argmin(), a.argmax()

    par, _ = both(f)
    a = np.arange(BIG, dtype=np.float64) % 10
    a[BIG - 5] = np.nan
    a[BIG - 2] = np.nan
    assert par(a) == f(a) == (BIG - 5, BIG - 5)
    c = (np.arange(BIG) % 7) + 1j * (np.arange(BIG) % 5)
    assert par(c) == f(c)
    with pytest.raises(ValueError) as e1:
        par(np.zeros(0))
    with pytest.raises(ValueError) as e2:
        kiln.njit(f)(np.zeros(0))
    assert str(e1.value) == str(e2.value)


def test_logical_empty():
    def f(a):
        return a.any(), a.all()

    par, _ = both(f)
    assert par(np.zeros(0)) == (False, True)
    assert par(np.zeros((0, 3))) == (False, True)


def test_cumsum_is_serial_with_a_note():
    def f(a):
        return np.cumsum(a), a.cumprod()

    par, ser = both(f)
    a = np.arange(1, 50, dtype=np.int64)
    for x, y in zip(par(a), ser(a)):
        same(x, y)
    ns = notes(par)
    assert ("scan cumsum", False) in [(w, p) for w, p, _ in ns]
