"""NumPy's math helpers that are not ufuncs, written in kiln's subset over the C ufuncs.

- ``np.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)``: arrays and scalars of numbers,
  broadcast; NumPy 2's formula ``|a - b| <= atol + rtol * |b|`` where b is finite, or ``a == b``
  (infinities), NaNs equal only with ``equal_nan``; b is taken as float (NumPy's
  ``result_type(b, 1.0)``: integers as float64), so integer differences do not wrap.
- ``np.allclose(...)``: ``bool(np.all(np.isclose(...)))``.
- ``np.array_equal(a1, a2, equal_nan=False)``: same shape and equal elements (False for other
  shapes, never an error); ``np.array_equiv(a1, a2)``: broadcastable shapes and equal elements.
- ``np.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None)``: a new array (or scalar)
  with NaN and the infinities replaced (default: 0 and the dtype's largest finite values);
  complex values part by part; integer and bool inputs come back as copies. ``copy=False`` also
  returns a new array (kiln does not write into ``x``).
- ``np.real_if_close(a, tol=100)``: for real input, ``a`` itself. For complex input the result
  dtype would depend on the values (real or complex), which compiled code cannot type: a
  TypingError.
- ``np.unwrap(p, discont=None, axis=-1, period=2*pi)``: 1-D arrays of real numbers, as NumPy's
  algorithm (float results).
"""

import functools

import numpy as np

from ..errors import TypingError
from ..extending import overload, register_jitable, types
from .statistics import _given


def _number(t):
    return isinstance(t, (types.Number, types.Boolean))


def _numeric(t):
    return _number(t) or (isinstance(t, types.Array) and _number(t.dtype))


def _dtype(t):
    return t.dtype if isinstance(t, types.Array) else t


def _check_numeric(name, **args):
    for what, t in args.items():
        if not _numeric(t):
            raise TypingError(f"np.{name}(): {what} must be an array or a scalar of numbers, "
                              f"not {t}")


# ---- np.isclose / np.allclose ----------------------------------------------------------------


@register_jitable
def _isclose_float(a, y, rtol, atol, equal_nan):
    r = ((np.abs(a - y) <= atol + rtol * np.abs(y)) & np.isfinite(y)) | (a == y)
    if equal_nan:
        r = r | (np.isnan(a) & np.isnan(y))
    return r


@register_jitable
def _isclose_int(a, b, rtol, atol, equal_nan):
    return _isclose_float(a, b * 1.0, rtol, atol, equal_nan)


@functools.lru_cache(maxsize=None)
def _isclose_impls(int_b):
    core = _isclose_int if int_b else _isclose_float

    def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        return core(a, b, rtol, atol, equal_nan)

    def allclose_array(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(np.all(core(a, b, rtol, atol, equal_nan)))

    def allclose_scalar(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(core(a, b, rtol, atol, equal_nan))

    return isclose, allclose_array, allclose_scalar


def _int_like(t):
    return isinstance(_dtype(t), (types.Integer, types.Boolean))


def _check_tolerances(name, rtol, atol, equal_nan):
    for what, t in (("rtol", rtol), ("atol", atol)):
        if _given(t) and not isinstance(t, (types.Integer, types.Float, types.Boolean)):
            raise TypingError(f"np.{name}(): {what} must be a real number, not {t}")
    if _given(equal_nan) and not isinstance(equal_nan, (types.Boolean, types.Integer)):
        raise TypingError(f"np.{name}(): equal_nan must be a bool, not {equal_nan}")


@overload(np.isclose, jit_options={"error_model": "numpy"})
def _ov_isclose(a, b, rtol=None, atol=None, equal_nan=None):
    _check_numeric("isclose", a=a, b=b)
    _check_tolerances("isclose", rtol, atol, equal_nan)
    return _isclose_impls(_int_like(b))[0]


@overload(np.allclose, jit_options={"error_model": "numpy"})
def _ov_allclose(a, b, rtol=None, atol=None, equal_nan=None):
    _check_numeric("allclose", a=a, b=b)
    _check_tolerances("allclose", rtol, atol, equal_nan)
    impls = _isclose_impls(_int_like(b))
    if isinstance(a, types.Array) or isinstance(b, types.Array):
        return impls[1]
    return impls[2]


# ---- np.array_equal / np.array_equiv ---------------------------------------------------------


def _false2(a1, a2, equal_nan=False):
    return False


def _array_equal(a1, a2, equal_nan=False):
    if a1.shape != a2.shape:
        return False
    if equal_nan:
        return bool(((a1 == a2) | (np.isnan(a1) & np.isnan(a2))).all())
    return bool((a1 == a2).all())


def _array_equal_scalar(a1, a2, equal_nan=False):
    if equal_nan and a1 != a1 and a2 != a2:
        return True
    return bool(a1 == a2)


def _as_array(t):
    return isinstance(t, types.Array)


@overload(np.array_equal)
def _ov_array_equal(a1, a2, equal_nan=None):
    _check_numeric("array_equal", a1=a1, a2=a2)
    if _given(equal_nan) and not isinstance(equal_nan, (types.Boolean, types.Integer)):
        raise TypingError(f"np.array_equal(): equal_nan must be a bool, not {equal_nan}")
    if not _as_array(a1) and not _as_array(a2):
        return _array_equal_scalar
    if not (_as_array(a1) and _as_array(a2)) or a1.ndim != a2.ndim:
        return _false2  # a scalar is a 0-d array: equal shapes only against 0-d arrays
    return _array_equal


@register_jitable
def _broadcastable(s1, s2):
    n1 = len(s1)
    n2 = len(s2)
    n = n1 if n1 < n2 else n2
    for k in range(n):
        d1 = s1[n1 - 1 - k]
        d2 = s2[n2 - 1 - k]
        if d1 != d2 and d1 != 1 and d2 != 1:
            return False
    return True


def _array_equiv(a1, a2):
    if not _broadcastable(a1.shape, a2.shape):
        return False
    return bool(np.all(a1 == a2))


def _array_equiv_scalar(a1, a2):
    return bool(np.all(a1 == a2))


@overload(np.array_equiv)
def _ov_array_equiv(a1, a2):
    _check_numeric("array_equiv", a1=a1, a2=a2)
    if _as_array(a1) and _as_array(a2):
        return _array_equiv
    if not _as_array(a1) and not _as_array(a2):
        return _array_equal_scalar
    return _array_equiv_scalar


# ---- np.nan_to_num ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _nan_to_num_impls(big, given_pos, given_neg):
    """Implementations for a float dtype whose largest finite value is `big`."""

    @register_jitable
    def fix(x, nan, posinf, neginf):
        hi = posinf if given_pos else big
        lo = neginf if given_neg else -big
        return np.where(np.isnan(x), nan, np.where(x == np.inf, hi, np.where(x == -np.inf, lo, x)))

    @register_jitable
    def fix_scalar(x, nan, posinf, neginf):
        if x != x:
            return nan
        if x == np.inf:
            return posinf if given_pos else big
        if x == -np.inf:
            return neginf if given_neg else -big
        return x

    def real(x, copy=True, nan=0.0, posinf=None, neginf=None):
        return fix(x, nan, posinf, neginf)

    def cplx(x, copy=True, nan=0.0, posinf=None, neginf=None):
        return fix(x.real, nan, posinf, neginf) + 1j * fix(x.imag, nan, posinf, neginf)

    return real, cplx, fix_scalar


def _copy(x, copy=True, nan=0.0, posinf=None, neginf=None):
    return x.copy()


def _same(x, copy=True, nan=0.0, posinf=None, neginf=None):
    return x


@overload(np.nan_to_num)
def _ov_nan_to_num(x, copy=None, nan=None, posinf=None, neginf=None):
    _check_numeric("nan_to_num", x=x)
    for what, t in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if _given(t) and not isinstance(t, (types.Integer, types.Float, types.Boolean)):
            raise TypingError(f"np.nan_to_num(): {what} must be a real number, not {t}")
    d = _dtype(x)
    if not isinstance(d, (types.Float, types.Complex)):
        return _copy if isinstance(x, types.Array) else _same
    fd = d.underlying_float if isinstance(d, types.Complex) else d
    big = float(np.finfo(np.dtype(str(fd))).max)
    real, cplx, fix_scalar = _nan_to_num_impls(big, _given(posinf), _given(neginf))
    if isinstance(x, types.Array):
        return cplx if isinstance(d, types.Complex) else real
    if isinstance(d, types.Complex):
        raise TypingError("np.nan_to_num(): complex scalars are not supported in kiln; pass "
                          "an array")
    return _scalar_impl(fix_scalar, np.dtype(str(d)).type)


@functools.lru_cache(maxsize=None)
def _scalar_impl(fix_scalar, ctor):
    def impl(x, copy=True, nan=0.0, posinf=None, neginf=None):
        return ctor(fix_scalar(x, nan, posinf, neginf))

    return impl


# ---- np.real_if_close ------------------------------------------------------------------------


def _real_if_close_same(a, tol=100):
    return a


@overload(np.real_if_close)
def _ov_real_if_close(a, tol=None):
    _check_numeric("real_if_close", a=a)
    if isinstance(_dtype(a), types.Complex):
        raise TypingError("np.real_if_close() of complex values is not supported in kiln: its "
                          "result is real or complex depending on the values; use a.real "
                          "after testing np.all(np.abs(a.imag) < tol)")
    return _real_if_close_same


# ---- np.unwrap -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _unwrap_impl(given):
    def impl(p, discont=None, axis=-1, period=6.283185307179586):
        x = p * 1.0
        r = x.copy()
        if x.shape[0] < 2:
            return r
        half = period / 2
        d = discont if given else half
        dd = x[1:] - x[:-1]
        ddmod = np.mod(dd + half, period) - half
        ddmod = np.where((ddmod == -half) & (dd > 0), half, ddmod)
        correct = np.where(np.abs(dd) < d, 0.0, ddmod - dd)
        r[1:] = x[1:] + np.cumsum(correct)
        return r

    return impl


@overload(np.unwrap, jit_options={"error_model": "numpy"})
def _ov_unwrap(p, discont=None, axis=None, period=None):
    if not (isinstance(p, types.Array) and p.ndim == 1 and _number(p.dtype)
            and not isinstance(p.dtype, types.Complex)):
        raise TypingError(f"np.unwrap(): p must be a 1-D array of real numbers in kiln, not {p}")
    if _given(axis) and not isinstance(axis, types.Integer):
        raise TypingError(f"np.unwrap(): axis must be an int, not {axis}")
    for what, t in (("discont", discont), ("period", period)):
        if _given(t) and not isinstance(t, (types.Integer, types.Float)):
            raise TypingError(f"np.unwrap(): {what} must be a real number, not {t}")
    return _unwrap_impl(_given(discont))
