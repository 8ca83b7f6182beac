"""Array construction written in kiln's subset: np.logspace, np.geomspace, np.meshgrid,
np.diag, np.diagflat, np.tri, np.triu, np.tril, np.vander, np.asfortranarray, and the array
methods a.item() and a.clip().

NumPy is the reference for values, dtypes and errors; each function takes Numba's argument
forms at least (docs/numpy.md, "Construction, signal and calculus, array methods"):

- ``np.logspace(start, stop, num=50, endpoint=True, base=10.0)`` and ``np.geomspace(start,
  stop, num=50, endpoint=True)``: real scalars, float64 results computed as NumPy computes
  them (``base ** linspace(...)``; geomspace through log10 with its end points pinned).
- ``np.meshgrid(x1, x2, x3, indexing='xy')``: one to three arrays (raveled, as NumPy), a tuple
  of C-contiguous copies of the inputs' dtypes; ``indexing`` a constant 'xy' or 'ij'.
- ``np.diag(v, k=0)`` (1-D: a new square array; 2-D: a copy of the diagonal, as Numba: NumPy
  returns a read-only view), ``np.diagflat(v, k=0)``, ``np.tri(N, M=None, k=0)`` (float64),
  ``np.tril`` / ``np.triu`` (1-D to 3-D, NumPy's rule on the last two axes), ``np.vander(x,
  N=None, increasing=False)`` (NumPy's dtype: ``promote_types(x.dtype, int)``).
- ``np.asfortranarray(a)``: a Fortran-ordered copy (``a`` itself when it is already one).
- ``a.item()`` / ``a.item(i)`` / ``a.item(i, j)``: one element as a Python scalar type (int64,
  float64, complex128 or bool; uint64 stays uint64), ``a.clip(min, max)``: np.clip.
"""

import functools

import numpy as np

from ..errors import TypingError
from ..extending import overload, overload_method, register_jitable, types
from .statistics import _given


def _np_dtype(t):
    """The NumPy dtype of a kiln scalar type."""
    if isinstance(t, types.Boolean):
        return np.dtype(np.bool_)
    return np.dtype(str(t))


def _is_real(t):
    return isinstance(t, (types.Integer, types.Float, types.Boolean))


def _is_int(t):
    return isinstance(t, (types.Integer, types.Boolean))


def _check_int(name, what, t):
    if _given(t) and not _is_int(t):
        raise TypingError(f"{name}(): {what} must be an int, not {t}")


def _array(name, t, ndims=None, kinds=(types.Number, types.Boolean)):
    if not isinstance(t, types.Array) or not isinstance(t.dtype, kinds):
        raise TypingError(f"{name}(): expected an array of numbers, not {t}")
    if ndims is not None and t.ndim not in ndims:
        shown = " or ".join(f"{d}-D" for d in ndims)
        raise TypingError(f"{name}(): expected a {shown} array, not a {t.ndim}-D one")


# ---- np.logspace, np.geomspace --------------------------------------------------------------


def _logspace(start, stop, num=50, endpoint=True, base=10.0):
    return np.power(base, np.linspace(start, stop, num, endpoint))


@register_jitable
def _geomspace_values(start, stop, num, endpoint):
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    sign = 1.0 if start > 0 else -1.0
    s = start / sign
    e = stop / sign
    r = np.power(10.0, np.linspace(np.log10(s), np.log10(e), num, endpoint))
    if num > 0:
        r[0] = s
        if num > 1 and endpoint:
            r[num - 1] = e
    if sign < 0:
        r *= sign
    return r


def _geomspace(start, stop, num=50, endpoint=True):
    return _geomspace_values(np.float64(start), np.float64(stop), num, endpoint)


def _space_typer(name, impl, with_base):
    def typer(start, stop, num=None, endpoint=None, base=None):
        for what, t in (("start", start), ("stop", stop)):
            if not _is_real(t):
                raise TypingError(f"{name}(): {what} must be a real number in kiln, not {t}")
        _check_int(name, "num", num)
        if _given(endpoint) and not isinstance(endpoint, types.Boolean):
            raise TypingError(f"{name}(): endpoint must be a bool, not {endpoint}")
        if with_base and _given(base) and not _is_real(base):
            raise TypingError(f"{name}(): base must be a real number in kiln, not {base}")
        return impl

    return typer


overload(np.logspace)(_space_typer("np.logspace", _logspace, True))


@overload(np.geomspace)
def _ov_geomspace(start, stop, num=None, endpoint=None):
    return _space_typer("np.geomspace", _geomspace, False)(start, stop, num, endpoint)


# ---- np.meshgrid -----------------------------------------------------------------------------


# One function per form, not a branch on a constant: a constant-true `if` that returns, followed
# by loops storing into a 2-D array, crashes kiln's compiler today (reported; written around).
def _mesh1(x1, x2=None, x3=None, indexing="xy"):
    return (x1.ravel().copy(),)


@register_jitable
def _grid2(a, b):
    """the 'ij' grids of two 1-D arrays"""
    n = a.shape[0]
    m = b.shape[0]
    ra = np.empty((n, m), a.dtype)
    rb = np.empty((n, m), b.dtype)
    for i in range(n):
        for j in range(m):
            ra[i, j] = a[i]
            rb[i, j] = b[j]
    return ra, rb


def _mesh2_ij(x1, x2=None, x3=None, indexing="xy"):
    return _grid2(x1.ravel(), x2.ravel())


def _mesh2_xy(x1, x2=None, x3=None, indexing="xy"):
    rb, ra = _grid2(x2.ravel(), x1.ravel())
    return ra, rb


@register_jitable
def _grid3(a, b, c, xy):
    """the grids of three 1-D arrays: shape (len(b), len(a), len(c)) for 'xy'"""
    n = a.shape[0]
    m = b.shape[0]
    p = c.shape[0]
    d0 = m if xy else n
    d1 = n if xy else m
    ra = np.empty((d0, d1, p), a.dtype)
    rb = np.empty((d0, d1, p), b.dtype)
    rc = np.empty((d0, d1, p), c.dtype)
    for i in range(d0):
        for j in range(d1):
            for k in range(p):
                ra[i, j, k] = a[j] if xy else a[i]
                rb[i, j, k] = b[i] if xy else b[j]
                rc[i, j, k] = c[k]
    return ra, rb, rc


def _mesh3_xy(x1, x2=None, x3=None, indexing="xy"):
    return _grid3(x1.ravel(), x2.ravel(), x3.ravel(), True)


def _mesh3_ij(x1, x2=None, x3=None, indexing="xy"):
    return _grid3(x1.ravel(), x2.ravel(), x3.ravel(), False)


_MESH = {(1, True): _mesh1, (2, True): _mesh2_xy, (2, False): _mesh2_ij, (3, True): _mesh3_xy,
         (3, False): _mesh3_ij}


@overload(np.meshgrid)
def _ov_meshgrid(x1, x2=None, x3=None, indexing=None):
    given = [t for t in (x1, x2, x3) if _given(t)]
    for t in given:
        _array("np.meshgrid", t)
    if not _given(indexing):
        xy = True
    elif isinstance(indexing, types.StringLiteral) and indexing.literal_value in ("xy", "ij"):
        xy = indexing.literal_value == "xy"
    else:
        shown = repr(indexing.literal_value) if isinstance(indexing, types.StringLiteral) \
            else str(indexing)
        raise TypingError(f"np.meshgrid(): indexing must be a constant 'xy' or 'ij', "
                          f"not {shown}")
    if len(given) == 1:
        xy = True  # one array: the same either way
    return _MESH[len(given), xy]


# ---- np.diag, np.diagflat --------------------------------------------------------------------


def _diag_from_1d(v, k=0):
    n = v.shape[0]
    size = n + (k if k >= 0 else -k)
    r = np.zeros((size, size), v.dtype)
    row = 0 if k >= 0 else -k
    col = k if k >= 0 else 0
    for i in range(n):
        r[i + row, i + col] = v[i]
    return r


def _diag_of_2d(v, k=0):
    rows = v.shape[0]
    cols = v.shape[1]
    if k >= 0:
        n = min(rows, cols - k)
    else:
        n = min(rows + k, cols)
    if n < 0:
        n = 0
    r = np.empty(n, v.dtype)
    row = 0 if k >= 0 else -k
    col = k if k >= 0 else 0
    for i in range(n):
        r[i] = v[i + row, i + col]
    return r


@overload(np.diag)
def _ov_diag(v, k=None):
    _array("np.diag", v)
    _check_int("np.diag", "k", k)
    if v.ndim == 1:
        return _diag_from_1d
    if v.ndim == 2:
        return _diag_of_2d
    raise TypingError(f"np.diag(): Input must be 1- or 2-d (got a {v.ndim}-D array)")


_diag_from_1d_jit = register_jitable(_diag_from_1d)


def _diagflat(v, k=0):
    return _diag_from_1d_jit(v.ravel(), k)


@overload(np.diagflat)
def _ov_diagflat(v, k=None):
    _array("np.diagflat", v)
    _check_int("np.diagflat", "k", k)
    return _diagflat


# ---- np.tri, np.tril, np.triu ----------------------------------------------------------------


def _tri(N, M=None, k=0):
    return _tri_nm(N, M, k)


def _tri_square(N, M=None, k=0):
    return _tri_nm(N, N, k)


@register_jitable
def _tri_nm(N, m, k):
    r = np.zeros((N, m), np.float64)
    for i in range(N):
        for j in range(m):
            if j <= i + k:
                r[i, j] = 1.0
    return r


@overload(np.tri)
def _ov_tri(N, M=None, k=None):
    _check_int("np.tri", "N", N)
    _check_int("np.tri", "M", M)
    _check_int("np.tri", "k", k)
    if not _given(N):
        raise TypingError("np.tri(): N must be an int, not None")
    return _tri if _given(M) else _tri_square


@register_jitable
def _keep(i, j, k, lower):
    return j <= i + k if lower else j >= i + k


@functools.lru_cache(maxsize=None)
def _tri_impls(lower):
    def tri1(m, k=0):
        n = m.shape[0]
        r = np.zeros((n, n), m.dtype)
        for i in range(n):
            for j in range(n):
                if _keep(i, j, k, lower):
                    r[i, j] = m[j]
        return r

    def tri2(m, k=0):
        r = np.zeros((m.shape[0], m.shape[1]), m.dtype)
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                if _keep(i, j, k, lower):
                    r[i, j] = m[i, j]
        return r

    def tri3(m, k=0):
        r = np.zeros((m.shape[0], m.shape[1], m.shape[2]), m.dtype)
        for p in range(m.shape[0]):
            for i in range(m.shape[1]):
                for j in range(m.shape[2]):
                    if _keep(i, j, k, lower):
                        r[p, i, j] = m[p, i, j]
        return r

    return {1: tri1, 2: tri2, 3: tri3}


def _tril_typer(name, lower):
    def typer(m, k=None):
        _array(name, m)
        _check_int(name, "k", k)
        if m.ndim == 0:
            raise TypingError(f"{name}(): input must be at least 1-D")
        impl = _tri_impls(lower).get(m.ndim)
        if impl is None:
            raise TypingError(f"{name}(): arrays of up to 3 dimensions are supported in kiln, "
                              f"not {m.ndim}")
        return impl

    return typer


overload(np.tril)(_tril_typer("np.tril", True))
overload(np.triu)(_tril_typer("np.triu", False))


# ---- np.vander -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _vander_impls(rt):
    @register_jitable
    def fill(x, cols, increasing):
        n = x.shape[0]
        if cols < 0:
            raise ValueError("negative dimensions are not allowed")
        r = np.empty((n, cols), rt)
        for i in range(n):
            xi = rt(x[i])
            p = rt(1)
            for j in range(cols):
                if increasing:
                    r[i, j] = p
                else:
                    r[i, cols - 1 - j] = p
                p = p * xi
        return r

    def square(x, N=None, increasing=False):
        return fill(x, x.shape[0], increasing)

    def given(x, N=None, increasing=False):
        return fill(x, N, increasing)

    return square, given


@overload(np.vander)
def _ov_vander(x, N=None, increasing=None):
    _array("np.vander", x)
    if x.ndim != 1:
        raise TypingError("np.vander(): x must be a one-dimensional array or sequence.")
    _check_int("np.vander", "N", N)
    if _given(increasing) and not isinstance(increasing, types.Boolean):
        raise TypingError(f"np.vander(): increasing must be a bool, not {increasing}")
    rt = np.promote_types(_np_dtype(x.dtype), np.int64).type
    square, given = _vander_impls(rt)
    return given if _given(N) else square


# ---- np.asfortranarray ----------------------------------------------------------------------


def _same(a):
    return a


def _fortran_copy(a):
    return a.T.copy().T


def _fortran_of_0d(a):
    return a.reshape(1)


@overload(np.asfortranarray)
def _ov_asfortranarray(a):
    _array("np.asfortranarray", a)
    if a.ndim == 0:
        return _fortran_of_0d
    if a.layout == "F" or (a.ndim == 1 and a.layout == "C"):
        return _same
    return _fortran_copy


# ---- a.item(), a.clip() ----------------------------------------------------------------------


def _py_type(t):
    """The type of NumPy's a.item(): a Python scalar (kiln's int64, float64, complex128, bool)."""
    if isinstance(t, types.Boolean):
        return np.bool_
    if isinstance(t, types.Integer):
        return np.uint64 if t == types.uint64 else np.int64
    if isinstance(t, types.Float):
        return np.float64
    return np.complex128


@register_jitable
def _flat_index(i, size):
    j = i + size if i < 0 else i
    if j < 0 or j >= size:
        raise IndexError("index out of bounds")
    return j


@register_jitable
def _one(a):
    if a.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")


@functools.lru_cache(maxsize=None)
def _item_impls(pt):
    """a.item() of 0-D and other arrays, a.item(i) per ndim, a.item(i, j): one function per
    form (kiln types both sides of an `if` on a constant)"""

    def whole0(a, i=None, j=None):
        _one(a)
        return pt(a[()])

    def whole(a, i=None, j=None):
        _one(a)
        return pt(a.ravel()[0])

    def flat1(a, i=None, j=None):
        return pt(a[_flat_index(i, a.size)])

    def flat2(a, i=None, j=None):
        k = _flat_index(i, a.size)
        return pt(a[k // a.shape[1], k % a.shape[1]])

    def flat3(a, i=None, j=None):
        k = _flat_index(i, a.size)
        s12 = a.shape[1] * a.shape[2]
        return pt(a[k // s12, (k % s12) // a.shape[2], k % a.shape[2]])

    def pair(a, i=None, j=None):
        return pt(a[i, j])

    return whole0, whole, {1: flat1, 2: flat2, 3: flat3}, pair


@overload_method(types.Array, "item")
def _ov_item(a, i=None, j=None):
    if not isinstance(a.dtype, (types.Number, types.Boolean)):
        return None
    whole0, whole, flat, pair = _item_impls(_py_type(a.dtype))
    for t in (i, j):
        if _given(t) and not isinstance(t, types.Integer):
            raise TypingError(f"item(): indices must be ints, not {t}")
    if not _given(i):
        return whole0 if a.ndim == 0 else whole
    if not _given(j):
        if a.ndim == 0 or a.ndim > 3:
            raise TypingError(f"item(i): arrays of 1 to 3 dimensions are supported in kiln, "
                              f"not {a.ndim}")
        return flat[a.ndim]
    if a.ndim != 2:
        raise TypingError(f"item(i, j): needs a 2-D array in kiln, not a {a.ndim}-D one "
                          f"(incorrect number of indices for array)")
    return pair


def _clip(a, min=None, max=None):
    return np.clip(a, min, max)


@overload_method(types.Array, "clip")
def _ov_clip(a, min=None, max=None):
    if not isinstance(a.dtype, (types.Number, types.Boolean)):
        return None
    if not (_given(min) and _given(max)):
        raise TypingError("a.clip(): both min and max must be given in kiln (as np.clip)")
    return _clip
