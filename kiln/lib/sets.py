"""Set operations on arrays, np.lexsort and np.sort_complex, written in kiln's subset over the
sorting family's C routines (np.sort, np.argsort, np.unique, np.searchsorted: runtime/sort.c,
search.c).

- ``np.intersect1d(a, b, assume_unique=False)``, ``np.union1d(a, b)``, ``np.setdiff1d(a, b,
  assume_unique=False)``, ``np.setxor1d(a, b, assume_unique=False)``: NumPy's formulations on
  sorted data (the unique values of each side merged and sorted, then neighbours compared), so
  NaNs behave as NumPy's (a NaN never equals a NaN: setxor1d([nan], [nan]) is [nan, nan]). The
  inputs are flattened; the result dtype is NumPy's (the common type; setdiff1d: a's).
  ``return_indices=`` is not supported.
- ``np.isin(element, test_elements, assume_unique=False, invert=False)``: element an array
  (the result has its shape); test_elements sorted once, then a binary search per item.
  (np.in1d is gone from NumPy 2.4, which kiln is tested with.)
- ``np.lexsort(keys)``: a tuple of 1-d arrays (any dtypes) or a 2-d array, the last key the
  primary one: one stable argsort per key, from the first to the last.
- ``np.sort_complex(a)``: np.sort along the last axis, as complex64 (int8/16, uint8/16) or
  complex128 (other real dtypes), or a's own complex dtype.
"""

import functools

import numpy as np

from ..errors import TypingError
from ..extending import overload, register_jitable, types
from .. import literal_unroll
from .statistics import _given, _np

_NUMPY = {"error_model": "numpy"}


def _arr(t):
    return isinstance(t, types.Array) and isinstance(t.dtype, (types.Number, types.Boolean))


def _common(*ts):
    return np.result_type(*[_np(t.dtype) for t in ts]).type


def _need(name, *ts):
    for t in ts:
        if not _arr(t):
            raise TypingError(f"{name}(): arrays of numbers are needed, not {t}")


@functools.lru_cache(maxsize=None)
def _merge(rt):
    def merge(x, y):
        out = np.empty(x.size + y.size, rt)
        for k in range(x.size):
            out[k] = x[k]
        for k in range(y.size):
            out[x.size + k] = y[k]
        out.sort()
        return out

    return register_jitable(merge)


@register_jitable
def _uniq(a, assume_unique):
    if assume_unique:
        return a.ravel().copy()
    return np.unique(a)


@functools.lru_cache(maxsize=None)
def _intersect(rt):
    merge = _merge(rt)

    def impl(ar1, ar2, assume_unique=False, return_indices=False):
        aux = merge(_uniq(ar1, assume_unique), _uniq(ar2, assume_unique))
        n = aux.size - 1 if aux.size > 0 else 0
        out = np.empty(n, rt)
        c = 0
        for k in range(n):
            if aux[k + 1] == aux[k]:
                out[c] = aux[k]
                c += 1
        return out[:c].copy()

    return impl


@overload(np.intersect1d)
def _ov_intersect1d(ar1, ar2, assume_unique=None, return_indices=None):
    _need("np.intersect1d", ar1, ar2)
    if _given(return_indices):
        raise TypingError("np.intersect1d(): return_indices= is not supported in kiln yet")
    return _intersect(_common(ar1, ar2))


@functools.lru_cache(maxsize=None)
def _union(rt):
    merge = _merge(rt)

    def impl(ar1, ar2):
        return np.unique(merge(ar1.ravel(), ar2.ravel()))

    return impl


@overload(np.union1d)
def _ov_union1d(ar1, ar2):
    _need("np.union1d", ar1, ar2)
    return _union(_common(ar1, ar2))


@register_jitable
def _member(flat, test, invert):
    """for each item of flat (1-d), whether it is in test (sorted, 1-d), or not if invert"""
    out = np.empty(flat.size, np.bool_)
    pos = np.searchsorted(test, flat)
    nt = test.size
    for k in range(flat.size):
        p = pos[k]
        found = p < nt and test[p] == flat[k]
        out[k] = not found if invert else found
    return out


@functools.lru_cache(maxsize=None)
def _setdiff(rt):
    def impl(ar1, ar2, assume_unique=False):
        u = _uniq(ar1, assume_unique)
        keep = _member(u, np.sort(ar2.ravel()), True)
        out = np.empty(u.size, rt)
        c = 0
        for k in range(u.size):
            if keep[k]:
                out[c] = u[k]
                c += 1
        return out[:c].copy()

    return impl


@overload(np.setdiff1d)
def _ov_setdiff1d(ar1, ar2, assume_unique=None):
    _need("np.setdiff1d", ar1, ar2)
    return _setdiff(_np(ar1.dtype))


@functools.lru_cache(maxsize=None)
def _setxor(rt):
    merge = _merge(rt)

    def impl(ar1, ar2, assume_unique=False):
        aux = merge(_uniq(ar1, assume_unique), _uniq(ar2, assume_unique))
        n = aux.size
        out = np.empty(n, rt)
        c = 0
        for k in range(n):
            if (k == 0 or aux[k] != aux[k - 1]) and (k == n - 1 or aux[k + 1] != aux[k]):
                out[c] = aux[k]
                c += 1
        return out[:c].copy()

    return impl


@overload(np.setxor1d)
def _ov_setxor1d(ar1, ar2, assume_unique=None):
    _need("np.setxor1d", ar1, ar2)
    return _setxor(_common(ar1, ar2))


def _isin(element, test_elements, assume_unique=False, invert=False, kind=None):
    r = _member(element.ravel(), np.sort(test_elements.ravel()), invert)
    return r.reshape(element.shape)


@overload(np.isin)
def _ov_isin(element, test_elements, assume_unique=None, invert=None, kind=None):
    if not _arr(element):
        raise TypingError(f"np.isin(): element must be an array of numbers in kiln, not "
                          f"{element}")
    _need("np.isin", test_elements)
    if _given(kind) and not (isinstance(kind, types.StringLiteral)
                             and kind.literal_value in ("sort", "table")):
        raise TypingError("np.isin(): kind= must be None, 'sort' or 'table'")
    if _given(invert) and not isinstance(invert, types.Boolean):
        raise TypingError(f"np.isin(): invert must be a bool, not {invert}")
    return _isin


# ---- lexsort, sort_complex -------------------------------------------------------------------


@register_jitable
def _refine(idx, key):
    """idx reordered by a stable sort of key[idx]"""
    n = idx.size
    if key.size != n:
        raise ValueError("all keys need to be the same shape")
    tmp = np.empty(n, key.dtype)
    for k in range(n):
        tmp[k] = key[idx[k]]
    o = np.argsort(tmp, kind="stable")
    out = np.empty(n, np.int64)
    for k in range(n):
        out[k] = idx[o[k]]
    return out


def _lexsort_tuple(keys, axis=-1):
    idx = np.argsort(keys[0], kind="stable")
    for key in literal_unroll(keys):
        idx = _refine(idx, key)
    return idx


def _lexsort_2d(keys, axis=-1):
    m = keys.shape[0]
    if m == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    idx = np.argsort(keys[0], kind="stable")
    for j in range(1, m):
        idx = _refine(idx, keys[j])
    return idx


@overload(np.lexsort)
def _ov_lexsort(keys, axis=None):
    if _given(axis) and not isinstance(axis, types.Integer):
        raise TypingError(f"np.lexsort(): axis must be an int, not {axis}")
    if isinstance(keys, types.BaseTuple):
        if not keys.types:
            raise TypingError("np.lexsort(): need sequence of keys with len > 0 in lexsort")
        for t in keys.types:
            if not (_arr(t) and t.ndim == 1):
                raise TypingError(f"np.lexsort(): keys must be 1-d arrays of numbers in kiln, "
                                  f"not {t}")
        return _lexsort_tuple
    if _arr(keys) and keys.ndim == 2:
        return _lexsort_2d
    raise TypingError(f"np.lexsort(): keys must be a tuple of 1-d arrays or a 2-d array in "
                      f"kiln, not {keys}")


@functools.lru_cache(maxsize=None)
def _sort_complex(ct):
    def impl(a):
        return np.sort(a).astype(ct)

    return impl


@overload(np.sort_complex)
def _ov_sort_complex(a):
    if not (_arr(a) and a.ndim >= 1) or isinstance(a.dtype, types.Boolean):
        raise TypingError(f"np.sort_complex(): an array of numbers is needed, not {a}")
    d = a.dtype
    if isinstance(d, types.Complex):
        ct = _np(d)
    elif str(d) in ("int8", "int16", "uint8", "uint16"):
        ct = np.complex64
    else:
        ct = np.complex128
    return _sort_complex(ct)
