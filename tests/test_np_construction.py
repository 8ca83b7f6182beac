"""Array construction in compiled code: np.empty/zeros/ones/full (and _like) with every dtype
form and order=, np.logspace, geomspace, meshgrid, diag, diagflat, tri, tril, triu, vander,
asfortranarray, np.copy, the array methods a.item(), a.clip(), a.view(dtype), and np.iinfo /
np.finfo. NumPy is the oracle: each compiled call is compared with the same function run by
the interpreter (values, dtype, shape, and the memory order where NumPy specifies one)."""

import warnings

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

REALS = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
         np.uint64, np.float32, np.float64]
NUMBERS = REALS + [np.complex64, np.complex128]
DT = np.dtype("int16")  # a global dtype object


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 9, size=shape)
    if np.dtype(dtype).kind == "c":
        return (x + 1j * rng.integers(0, 9, size=shape)).astype(dtype)
    return x.astype(dtype)


def layouts(a):
    """C, F and a strided view of 2-D `a` (1-D: contiguous and strided)."""
    if a.ndim == 1:
        return [a, np.repeat(a, 2)[::2]]
    return [a, np.asfortranarray(a), np.repeat(a, 2, axis=1)[:, ::2]]


def same(got, want, exact=True):
    if isinstance(want, tuple):
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


def check(f, *args, exact=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = f(*args)
        got = kiln.njit(f)(*args)
    same(got, want, exact)
    return got, want


# ---- np.empty / zeros / ones / full: dtype forms and order= ----------------------------------

def zeros_forms(n):
    return (np.zeros(n, "f8"), np.zeros(n, "i4"), np.ones(n, "<u2"), np.zeros(n, "?"),
            np.ones(n, "c16"), np.zeros(n, "double"), np.ones(n, "intc"), np.zeros(n, float),
            np.ones(n, complex), np.zeros(n, np.dtype("float32")), np.ones(n, DT),
            np.full(n, 3, "int8"), np.zeros(n, dtype=None))


def test_dtype_forms():
    check(zeros_forms, 3)

    def of_kiln_type(n):
        return np.zeros(n, kiln.uint8), np.full(n, 2, dtype=kiln.complex64)

    got = kiln.njit(of_kiln_type)(2)
    same(got, (np.zeros(2, np.uint8), np.full(2, 2, np.complex64)))


def orders(shape):
    return (np.zeros(shape, order="F"), np.ones(shape, np.int32, "F"),
            np.empty(shape, order="C").shape, np.full(shape, 2.5, order="F"),
            np.zeros(shape, order="C"))


@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (0, 2)])
def test_order(shape):
    got, want = check(orders, shape)
    for g, w in zip(got, want):
        if isinstance(w, np.ndarray):
            assert g.flags.f_contiguous == w.flags.f_contiguous
            assert g.flags.c_contiguous == w.flags.c_contiguous


def likes(a):
    return (np.zeros_like(a), np.ones_like(a, order="C"), np.full_like(a, 7, order="F"),
            np.empty_like(a, np.float32, "K").shape, np.zeros_like(a, dtype="i8", order="A"))


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64])
def test_like_orders(dtype):
    for a in layouts(sample(dtype, (3, 4))):
        got, want = check(likes, a)
        for g, w in zip(got, want):
            if isinstance(w, np.ndarray) and a.flags.forc:
                assert g.flags.f_contiguous == w.flags.f_contiguous


def test_order_and_dtype_bad_input():
    def bad_order(n):
        return np.zeros((n, n), order="X")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_order)(2)
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_order, '"X"',
                      contains=("order", "'C' or 'F'"))

    def like_k_ok(a):
        return np.zeros((2, 2), order="K")

    with pytest.raises(kiln.errors.TypingError):
        kiln.njit(like_k_ok)(1)

    def bad_dtype(n):
        return np.zeros(n, "f3")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_dtype)(2)
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_dtype, '"f3"',
                      contains=("unsupported dtype",))


def np_dtype_call(n):
    return np.zeros(n, np.dtype("int16")), np.ones(n, dtype=np.dtype(np.float32))


def test_np_dtype_in_compiled_code():
    check(np_dtype_call, 4)


# ---- np.logspace, np.geomspace ---------------------------------------------------------------

def logspaces(a, b, n):
    return (np.logspace(a, b, n), np.logspace(a, b, n, False), np.logspace(a, b, n, base=2.0),
            np.logspace(a, b, num=n, endpoint=True, base=3))


@pytest.mark.parametrize("a, b, n", [(0, 3, 7), (0.5, -2.5, 5), (1, 1, 1), (2, 4, 0)])
def test_logspace(a, b, n):
    check(logspaces, a, b, n)


def geomspaces(a, b, n):
    return np.geomspace(a, b, n), np.geomspace(a, b, n, endpoint=False), np.geomspace(a, b)


@pytest.mark.parametrize("a, b, n", [(1, 1000, 4), (-1, -1000, 5), (2.5, 0.1, 6), (3, 3, 1),
                                     (1, 2, 0), (1, -8, 3)])
def test_geomspace(a, b, n):
    check(geomspaces, a, b, n)


def test_geomspace_zero():
    def f(a):
        return np.geomspace(a, 10)

    with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
        kiln.njit(f)(0.0)
    with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
        f(0.0)


def test_space_bad_input():
    def f(a):
        return np.logspace(a, 2)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(f)(np.ones(2))
    assert_diagnostic(info.value, kiln.errors.TypingError, f, "np.logspace(",
                      contains=("start must be a real number",))


# ---- np.meshgrid -----------------------------------------------------------------------------

def meshes(x, y, z):
    return (np.meshgrid(x), np.meshgrid(x, y), np.meshgrid(x, y, indexing="ij"),
            np.meshgrid(x, y, z), np.meshgrid(x, y, z, indexing="ij"))


@pytest.mark.parametrize("dtypes", [(np.float64, np.int32, np.bool_),
                                    (np.complex128, np.uint8, np.float32)])
def test_meshgrid(dtypes):
    x, y, z = sample(dtypes[0], 3), sample(dtypes[1], 4, 1), sample(dtypes[2], 2, 2)
    check(meshes, x, y, z)
    check(meshes, x[::2], np.zeros(0, dtypes[1]), z.reshape(2, 1))


def test_meshgrid_bad_indexing():
    def f(x):
        return np.meshgrid(x, x, indexing="xz")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(f)(np.ones(2))
    assert_diagnostic(info.value, kiln.errors.TypingError, f, "np.meshgrid(",
                      contains=("'xy' or 'ij'",))


# ---- np.diag, np.diagflat, np.tri, np.tril, np.triu, np.vander -------------------------------

def diags(v, k):
    return np.diag(v), np.diag(v, k), np.diag(v, k=-k), np.diagflat(v, k)


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_diag_every_dtype(dtype):
    check(diags, sample(dtype, 4), 1)
    for a in layouts(sample(dtype, (3, 5))):
        check(diags, a, 2)


@pytest.mark.parametrize("k", [0, 3, -3, 7, -7])
def test_diag_offsets_and_empty(k):
    check(diags, np.arange(12.).reshape(3, 4), k)
    check(diags, np.zeros(0), k)
    check(diags, np.zeros((0, 3)), k)


def test_diag_bad_input():
    def f(a):
        return np.diag(a)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(f)(np.ones((2, 2, 2)))
    assert_diagnostic(info.value, kiln.errors.TypingError, f, "np.diag(",
                      contains=("Input must be 1- or 2-d",))


def tris(n, m, k):
    return np.tri(n), np.tri(n, m), np.tri(n, m, k), np.tri(n, k=k), np.tri(n, M=m, k=-k)


@pytest.mark.parametrize("n, m, k", [(3, 5, 1), (4, 2, -1), (0, 3, 0), (3, 0, 2)])
def test_tri(n, m, k):
    check(tris, n, m, k)


def tril_triu(a, k):
    return np.tril(a), np.triu(a), np.tril(a, k), np.triu(a, -k), np.tril(a, k=-k)


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_tril_triu_every_dtype(dtype):
    for a in layouts(sample(dtype, (4, 5))):
        check(tril_triu, a, 1)
    check(tril_triu, sample(dtype, 4), 1)
    check(tril_triu, sample(dtype, (2, 3, 4)), 2)


def test_tril_triu_empty_and_far():
    for k in (-9, 9):
        check(tril_triu, np.arange(12.).reshape(3, 4), k)
    check(tril_triu, np.zeros((0, 3)), 0)


def vanders(x, n):
    return np.vander(x), np.vander(x, n), np.vander(x, n, True), np.vander(x, increasing=True)


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_vander_every_dtype(dtype):
    for x in layouts(sample(dtype, 4)):
        check(vanders, x, 3)
    check(vanders, np.zeros(0, dtype), 0)


def test_vander_bad_input():
    def f(x, n):
        return np.vander(x, n)

    with pytest.raises(ValueError, match="negative dimensions"):
        kiln.njit(f)(np.ones(3), -1)

    def g(x):
        return np.vander(x)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(g)(np.ones((2, 2)))
    assert_diagnostic(info.value, kiln.errors.TypingError, g, "np.vander(",
                      contains=("one-dimensional",))


# ---- np.asfortranarray, np.copy --------------------------------------------------------------

def fortran(a):
    return np.asfortranarray(a), np.copy(a)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float64, np.complex64])
def test_asfortranarray_and_copy(dtype):
    for a in layouts(sample(dtype, (3, 4))) + layouts(sample(dtype, 5)) + \
            [sample(dtype, (2, 3, 4)), np.array(sample(dtype, 1)[0])]:
        got, want = check(fortran, a)
        assert got[0].flags.f_contiguous
        assert got[1].flags.f_contiguous == want[1].flags.f_contiguous
        assert got[1].flags.c_contiguous == want[1].flags.c_contiguous


def test_asfortranarray_of_a_fortran_array_is_itself():
    def f(a):
        return np.asfortranarray(a)

    a = np.asfortranarray(np.ones((2, 3)))
    assert kiln.njit(f)(a) is a


# ---- a.item(), a.clip(), a.view() ------------------------------------------------------------

def items(a):
    return a.item(0), a.item(-1), a.item(a.size // 2)


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_item_every_dtype(dtype):
    for a in layouts(sample(dtype, (3, 4))) + layouts(sample(dtype, 5)) + \
            [sample(dtype, (2, 3, 4))]:
        got, want = check(items, a)
        for g, w in zip(got, want):
            assert type(g) is type(w) or (isinstance(w, int) and isinstance(g, int)), \
                (type(g), type(w))


def item_pairs(a, i, j):
    return a.item(i, j), a.item()


def test_item_one_element_and_pairs():
    def one(a):
        return a.item()

    for a in (np.array(3.5), np.array([[7]], np.int8), np.array([True]), np.array([1 + 2j])):
        check(one, a)
    with pytest.raises(ValueError, match="can only convert an array of size 1"):
        kiln.njit(one)(np.ones(3))
    with pytest.raises(IndexError):
        kiln.njit(items)(np.ones((0, 2)))

    def pair(a, i, j):
        return a.item(i, j)

    check(pair, np.arange(6).reshape(2, 3), 1, -1)


def clips(a, lo, hi):
    return a.clip(lo, hi), a.clip(min=lo, max=hi)


@pytest.mark.parametrize("dtype", REALS, ids=lambda d: np.dtype(d).name)
def test_clip_method(dtype):
    for a in layouts(sample(dtype, (3, 4))):
        check(clips, a, dtype(2), dtype(6))


def views(a):
    return a.view(np.int64), a.view("u8"), a.view(), a.view(a.dtype)


@pytest.mark.parametrize("make", [lambda: np.arange(6.), lambda: np.arange(6.).reshape(2, 3).T,
                                  lambda: np.linspace(-1, 1, 9)[::2]])
def test_view(make):
    check(views, make())


def test_view_shares_memory():
    def f(a):
        b = a.view(np.uint32)
        b[0] = 7
        return b

    a = np.arange(3, dtype=np.int32)
    r = kiln.njit(f)(a)
    assert a[0] == 7 and r.dtype == np.uint32 and np.shares_memory(a, r)

    def g(a):
        return a.view(np.float32)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(g)(np.ones(2))
    assert_diagnostic(info.value, kiln.errors.TypingError, g, "np.float32",
                      contains=("same itemsize",))


# ---- np.iinfo / np.finfo ---------------------------------------------------------------------

@pytest.mark.parametrize("cls", [np.int8, np.uint16, np.int32, np.uint64])
def test_iinfo_kind_and_dtype(cls):
    def f():
        i = np.iinfo(cls)
        return i.kind, i.bits, i.min, i.max, np.zeros(1, i.dtype)

    check(f)

    def g():
        return np.finfo(np.float32).kind

    with pytest.raises(kiln.errors.TypingError, match="no attribute 'kind'"):
        kiln.njit(g)()
