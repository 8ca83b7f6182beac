"""np.var, np.std and the array methods a.var(), a.std(), written in kiln's subset.

NumPy's formulation: the mean, then the mean of the squared deviations (|x - mean|**2 for
complex), divided by max(n - ddof, 0) (0 gives inf or nan, as NumPy, which also warns). The
result type is NumPy's: float64 for bool and integer arrays, float32 for float32, the real type
for complex. ``axis`` is None (the whole array, a scalar) or an int, for arrays of 1 to 3
dimensions (a runtime value: one branch per axis, since kiln's reductions take a constant
axis). ``dtype``, ``out`` and ``keepdims`` are not supported.
"""

import functools

import numpy as np
from numpy.exceptions import AxisError

from ..errors import TypingError
from ..extending import overload, overload_method, register_jitable, types

_NUMPY = {"error_model": "numpy"}  # a zero divisor gives inf or nan, as NumPy's division
_MAX_AXIS_NDIM = 3


def _given(t):
    return t is not None and not isinstance(t, types.NoneType)


def _result_type(dtype):
    """NumPy's type for the variance of elements of `dtype` (a NumPy scalar type)."""
    if isinstance(dtype, types.Complex):
        dtype = dtype.underlying_float
    return np.float32 if dtype == types.float32 else np.float64


@register_jitable
def _divisor(n, ddof):
    d = n - ddof
    return d if d > 0 else 0


@register_jitable
def _norm_axis(axis, ndim):
    ax = axis + ndim if axis < 0 else axis
    if ax < 0 or ax >= ndim:
        raise AxisError("axis is out of bounds for the array's dimension")
    return ax


@functools.lru_cache(maxsize=None)
def _var_impls(rt, root):
    """Implementations for one result type (np.float32/np.float64) and np.var (root False) or
    np.std (root True): the whole array, and per ndim with an axis. The squares are
    ``|d| * |d|`` for every dtype (exactly d * d for reals; the complex modulus for complex),
    so one formula serves all (kiln types both sides of an ``if`` on a constant)."""

    def whole(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        e = np.abs(a - a.mean())
        s = (e * e).sum()
        dof = a.size - ddof  # inline, not _divisor: one function less to compile on first use
        r = rt(s / (dof if dof > 0 else 0))
        return np.sqrt(r) if root else r

    def axis1(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        _norm_axis(axis, 1)
        return whole(a, None, None, None, ddof, False)

    def axis2(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        ax = _norm_axis(axis, 2)
        if ax == 0:
            e = np.abs(a - a.mean(axis=0, keepdims=True))
            s = (e * e).sum(axis=0)
        else:
            e = np.abs(a - a.mean(axis=1, keepdims=True))
            s = (e * e).sum(axis=1)
        r = s / _divisor(a.shape[ax], ddof)
        return np.sqrt(r) if root else r

    def axis3(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        ax = _norm_axis(axis, 3)
        if ax == 0:
            e = np.abs(a - a.mean(axis=0, keepdims=True))
            s = (e * e).sum(axis=0)
        elif ax == 1:
            e = np.abs(a - a.mean(axis=1, keepdims=True))
            s = (e * e).sum(axis=1)
        else:
            e = np.abs(a - a.mean(axis=2, keepdims=True))
            s = (e * e).sum(axis=2)
        r = s / _divisor(a.shape[ax], ddof)
        return np.sqrt(r) if root else r

    whole = register_jitable(**_NUMPY)(whole)  # axis1 calls it
    return whole, {1: axis1, 2: axis2, 3: axis3}


def _var_typer(name, root):
    def typer(a, axis=None, dtype=None, out=None, ddof=None, keepdims=None):
        if not isinstance(a, types.Array) or not isinstance(a.dtype, (types.Number,
                                                                        types.Boolean)):
            return None
        for what, t in (("dtype", dtype), ("out", out), ("keepdims", keepdims)):
            if _given(t):
                raise TypingError(f"{name}(): {what}= is not supported in kiln yet")
        if _given(ddof) and not isinstance(ddof, (types.Integer, types.Float, types.Boolean)):
            raise TypingError(f"{name}(): ddof must be a number, not {ddof}")
        if _given(axis) and not isinstance(axis, types.Integer):
            raise TypingError(f"{name}(): axis must be None or an int, not {axis}")
        whole, by_ndim = _var_impls(_result_type(a.dtype), root)
        if not _given(axis) or a.ndim == 0:
            return whole
        impl = by_ndim.get(a.ndim)
        if impl is None:
            raise TypingError(f"{name}(): axis= is supported for arrays of up to "
                              f"{_MAX_AXIS_NDIM} dimensions in kiln, not {a.ndim}")
        return impl

    return typer


overload(np.var, jit_options=_NUMPY)(_var_typer("np.var", False))
overload(np.std, jit_options=_NUMPY)(_var_typer("np.std", True))
overload_method(types.Array, "var", jit_options=_NUMPY)(_var_typer("var", False))
overload_method(types.Array, "std", jit_options=_NUMPY)(_var_typer("std", True))
