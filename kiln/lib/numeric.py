"""np.diff, np.convolve and np.bincount, written in kiln's subset.

- ``np.diff(a, n=1, axis=-1)``: arrays of 1 to 3 dimensions, ``n`` and ``axis`` runtime ints
  (one branch per axis: kiln's slices are per dimension); the result has a's dtype (bool:
  ``!=``, as NumPy). ``n == 0`` gives a copy (NumPy returns ``a`` itself). ``prepend`` and
  ``append`` are not supported.
- ``np.convolve(a, v, mode='full')``: 1-D arrays of numbers, ``mode`` a constant str ('full',
  'same', 'valid'; a ``types.StringLiteral`` for the typing function), chosen when the call is
  typed (NumPy's int modes 0/1/2 are not: kiln has no int literals yet). The result dtype
  is NumPy's ``result_type(a, v)``; a plain direct loop (no FFT), as NumPy's.
- ``np.bincount(x, weights=None, minlength=0)``: 1-D bool or integer arrays (not uint64, which
  NumPy refuses to cast to intp); int64 counts, float64 sums with weights.
"""

import functools

import numpy as np

from ..errors import TypingError
from ..extending import overload, register_jitable, types
from .statistics import _given, _norm_axis


def _array_of(t, ndims, kinds=(types.Number, types.Boolean)):
    return isinstance(t, types.Array) and t.ndim in ndims and isinstance(t.dtype, kinds)


# ---- np.diff ---------------------------------------------------------------------------------


@register_jitable
def _sub(x, y):
    return x - y


@register_jitable
def _ne(x, y):
    return x != y


@register_jitable
def _check_order(n):
    if n < 0:
        raise ValueError("order must be non-negative")


@functools.lru_cache(maxsize=None)
def _diff_impls(op):
    def diff1(a, n=1, axis=-1, prepend=None, append=None):
        _check_order(n)
        _norm_axis(axis, 1)
        r = a.copy()
        for _ in range(n):
            r = op(r[1:], r[:-1])
        return r

    def diff2(a, n=1, axis=-1, prepend=None, append=None):
        _check_order(n)
        ax = _norm_axis(axis, 2)
        r = a.copy()
        for _ in range(n):
            if ax == 0:
                r = op(r[1:], r[:-1])
            else:
                r = op(r[:, 1:], r[:, :-1])
        return r

    def diff3(a, n=1, axis=-1, prepend=None, append=None):
        _check_order(n)
        ax = _norm_axis(axis, 3)
        r = a.copy()
        for _ in range(n):
            if ax == 0:
                r = op(r[1:], r[:-1])
            elif ax == 1:
                r = op(r[:, 1:], r[:, :-1])
            else:
                r = op(r[:, :, 1:], r[:, :, :-1])
        return r

    return {1: diff1, 2: diff2, 3: diff3}


@overload(np.diff, jit_options={"error_model": "numpy"})
def _ov_diff(a, n=None, axis=None, prepend=None, append=None):
    if not isinstance(a, types.Array) or not isinstance(a.dtype, (types.Number, types.Boolean)):
        return None
    if a.ndim == 0:
        raise TypingError("np.diff(): diff requires input that is at least one dimensional")
    if _given(prepend) or _given(append):
        raise TypingError("np.diff(): prepend= and append= are not supported in kiln yet")
    for what, t in (("n", n), ("axis", axis)):
        if _given(t) and not isinstance(t, types.Integer):
            raise TypingError(f"np.diff(): {what} must be an int, not {t}")
    impl = _diff_impls(_ne if isinstance(a.dtype, types.Boolean) else _sub).get(a.ndim)
    if impl is None:
        raise TypingError(f"np.diff(): arrays of up to 3 dimensions are supported in kiln, "
                          f"not {a.ndim}")
    return impl


# ---- np.convolve -----------------------------------------------------------------------------

_MODES = {"full": 0, "same": 1, "valid": 2}


@register_jitable
def _convolve_into(a, v, out, off):
    """out[k] = sum over i of a[i] * v[k + off - i], for len(a) >= len(v)."""
    n = a.shape[0]
    m = v.shape[0]
    for k in range(out.shape[0]):
        kk = k + off
        lo = kk - m + 1 if kk - m + 1 > 0 else 0
        hi = kk if kk < n - 1 else n - 1
        for i in range(lo, hi + 1):
            out[k] += a[i] * v[kk - i]
    return out


@functools.lru_cache(maxsize=None)
def _convolve_impl(rt, mode):
    def impl(a, v, mode=None):
        n = a.shape[0]
        m = v.shape[0]
        if n == 0:
            raise ValueError("a cannot be empty")
        if m == 0:
            raise ValueError("v cannot be empty")
        big = n if n >= m else m
        small = m if n >= m else n
        if mode_code == 0:
            length = big + small - 1
            off = 0
        elif mode_code == 1:
            length = big
            off = (small - 1) // 2
        else:
            length = big - small + 1
            off = small - 1
        out = np.zeros(length, rt)
        if n >= m:
            return _convolve_into(a, v, out, off)
        return _convolve_into(v, a, out, off)

    mode_code = mode
    return impl


@overload(np.convolve)
def _ov_convolve(a, v, mode=None):
    if not (_array_of(a, (1,), types.Number) and _array_of(v, (1,), types.Number)):
        return None
    if not _given(mode):
        code = 0
    elif isinstance(mode, types.StringLiteral):
        code = _MODES.get(mode.literal_value)
    else:
        raise TypingError(f"np.convolve(): mode must be a constant str ('full', 'same' or "
                          f"'valid'), not {mode}")
    if code is None:
        raise TypingError(f"np.convolve(): mode must be one of 'valid', 'same', or 'full' "
                          f"(got {mode.literal_value!r})")
    rt = np.result_type(np.dtype(str(a.dtype)), np.dtype(str(v.dtype))).type
    return _convolve_impl(rt, code)


# ---- np.bincount -----------------------------------------------------------------------------


@register_jitable
def _bincount_size(x, minlength):
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    size = minlength
    for i in range(x.shape[0]):
        k = np.int64(x[i])
        if k < 0:
            raise ValueError("'list' argument must have no negative elements")
        if k >= size:
            size = k + 1
    return size


def _bincount(x, weights=None, minlength=0):
    out = np.zeros(_bincount_size(x, minlength), np.int64)
    for i in range(x.shape[0]):
        out[np.int64(x[i])] += 1
    return out


def _bincount_weighted(x, weights=None, minlength=0):
    if weights.shape[0] != x.shape[0]:
        raise ValueError("The weights and list don't have the same length.")
    out = np.zeros(_bincount_size(x, minlength), np.float64)
    for i in range(x.shape[0]):
        out[np.int64(x[i])] += weights[i]
    return out


@overload(np.bincount)
def _ov_bincount(x, weights=None, minlength=None):
    if not isinstance(x, types.Array):
        return None
    if x.ndim != 1:
        raise TypingError(f"np.bincount(): x must be a 1-D array, not {x.ndim}-D")
    if not isinstance(x.dtype, (types.Integer, types.Boolean)) or x.dtype == types.uint64:
        raise TypingError(f"np.bincount(): cannot cast array data from {x.dtype} to int64 "
                          f"according to the rule 'safe'")
    if _given(minlength) and not isinstance(minlength, (types.Integer, types.Boolean)):
        raise TypingError(f"np.bincount(): minlength must be an int, not {minlength}")
    if not _given(weights):
        return _bincount
    if not _array_of(weights, (1,), (types.Integer, types.Float, types.Boolean)):
        raise TypingError(f"np.bincount(): weights must be a 1-D array of real numbers, "
                          f"not {weights}")
    return _bincount_weighted
