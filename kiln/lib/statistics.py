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


# ---- the nan* reductions, ptp, count_nonzero ------------------------------------------------
#
# One shape for every axis form: the array (made C-contiguous) is seen as (outer, n, inner), n
# the length of the reduced axis (axis=None: (1, size, 1)), and a kernel reduces the middle
# axis into an (outer, inner) array, reshaped to NumPy's result shape. So one implementation per
# function serves every ndim and axis (a run-time int; _norm_axis checks it), and each kernel
# loop is written once.

_MAX_NDIM = 4


@register_jitable
def _split(shape, ax):
    outer = 1
    inner = 1
    for i in range(len(shape)):
        if i < ax:
            outer *= shape[i]
        elif i > ax:
            inner *= shape[i]
    return outer, shape[ax], inner


@register_jitable
def _drop2(s, ax):
    return (s[1],) if ax == 0 else (s[0],)


@register_jitable
def _drop3(s, ax):
    if ax == 0:
        return (s[1], s[2])
    if ax == 1:
        return (s[0], s[2])
    return (s[0], s[1])


@register_jitable
def _drop4(s, ax):
    if ax == 0:
        return (s[1], s[2], s[3])
    if ax == 1:
        return (s[0], s[2], s[3])
    if ax == 2:
        return (s[0], s[1], s[3])
    return (s[0], s[1], s[2])


_DROPS = {2: _drop2, 3: _drop3, 4: _drop4}


@register_jitable
def _whole3(a):
    return np.ascontiguousarray(a).reshape((1, a.size, 1))


@register_jitable
def _axis3(a, ax):
    o, n, i = _split(a.shape, ax)
    return np.ascontiguousarray(a).reshape((o, n, i))


def _number_array(t, complex_ok=True, bool_ok=True):
    if not isinstance(t, types.Array):
        return False
    d = t.dtype
    if isinstance(d, types.Boolean):
        return bool_ok
    if isinstance(d, types.Complex):
        return complex_ok
    return isinstance(d, types.Number)


def _np(d):
    """the NumPy scalar type of a kiln dtype"""
    return np.dtype(str(d)).type


def _sum_type(d):
    """NumPy's type for sums and products: int64 (uint64) for bool and integers"""
    if isinstance(d, types.Boolean):
        return np.int64
    if isinstance(d, types.Integer):
        return np.uint64 if not d.signed else np.int64
    return _np(d)


def _mean_type(d):
    if isinstance(d, (types.Boolean, types.Integer)):
        return np.float64
    return _np(d)


def _is_float(d):
    return isinstance(d, types.Float)


@functools.lru_cache(maxsize=None)
def _k_sum(rt, prod):
    def kern(b, ddof):
        o, n, i = b.shape
        out = np.ones((o, i), rt) if prod else np.zeros((o, i), rt)
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    if x == x:
                        if prod:
                            out[p, q] *= x
                        else:
                            out[p, q] += x
        return out

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_minmax(rt, is_max, floating):
    def kern(b, ddof):
        o, n, i = b.shape
        if n == 0 and o * i > 0:
            raise ValueError("zero-size array to reduction operation which has no identity")
        out = np.empty((o, i), rt)
        for p in range(o):
            for q in range(i):
                out[p, q] = b[p, 0, q]
                if floating:
                    # the first number of the slice (NaN when all are NaN, as NumPy)
                    for j in range(n):
                        x = b[p, j, q]
                        if x == x:
                            out[p, q] = x
                            break
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    if is_max:
                        if x > out[p, q]:
                            out[p, q] = x
                    elif x < out[p, q]:
                        out[p, q] = x
        return out

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_arg(rt, is_max):
    def kern(b, ddof):
        o, n, i = b.shape
        if n == 0 and o * i > 0:
            raise ValueError("attempt to get argmin of an empty sequence")
        out = np.full((o, i), -1, np.int64)
        best = np.zeros((o, i), rt)
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    if x == x:
                        k = out[p, q]
                        if k < 0 or (x > best[p, q] if is_max else x < best[p, q]):
                            out[p, q] = j
                            best[p, q] = x
        for p in range(o):
            for q in range(i):
                if out[p, q] < 0:
                    raise ValueError("All-NaN slice encountered")
        return out

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_mean(mt):
    def kern(b, ddof):
        o, n, i = b.shape
        s = np.zeros((o, i), mt)
        c = np.zeros((o, i), np.int64)
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    if x == x:
                        s[p, q] += x
                        c[p, q] += 1
        for p in range(o):
            for q in range(i):
                s[p, q] = s[p, q] / c[p, q]
        return s

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_var(mt, rt, root):
    mean = _k_mean(mt)

    def kern(b, ddof):
        o, n, i = b.shape
        m = mean(b, 0)
        s = np.zeros((o, i), rt)
        c = np.zeros((o, i), np.int64)
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    if x == x:
                        e = np.abs(x - m[p, q])
                        s[p, q] += e * e
                        c[p, q] += 1
        for p in range(o):
            for q in range(i):
                d = c[p, q] - ddof
                r = s[p, q] / (d if d > 0 else 0)
                s[p, q] = np.sqrt(r) if root else r
        return s

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_ptp(rt, floating):
    def kern(b, ddof):
        o, n, i = b.shape
        if n == 0 and o * i > 0:
            raise ValueError("zero-size array to reduction operation maximum which has no "
                             "identity")
        lo = np.empty((o, i), rt)
        hi = np.empty((o, i), rt)
        for p in range(o):
            for q in range(i):
                lo[p, q] = b[p, 0, q]
                hi[p, q] = b[p, 0, q]
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    if floating and x != x:
                        lo[p, q] = x
                        hi[p, q] = x
                    elif x < lo[p, q]:
                        lo[p, q] = x
                    elif x > hi[p, q]:
                        hi[p, q] = x
        for p in range(o):
            for q in range(i):
                hi[p, q] = hi[p, q] - lo[p, q]
        return hi

    return register_jitable(**_NUMPY)(kern)


@register_jitable
def _k_count(b, ddof):
    o, n, i = b.shape
    out = np.zeros((o, i), np.int64)
    for p in range(o):
        for j in range(n):
            for q in range(i):
                if b[p, j, q] != 0:
                    out[p, q] += 1
    return out


@functools.lru_cache(maxsize=None)
def _core(kern, ndim, by_axis):
    """core(a, axis, ddof): kern's reduction of a, whole (a scalar) or along axis"""
    if not by_axis or ndim <= 1:
        def core(a, axis, ddof):
            if by_axis:
                _norm_axis(axis, 1)
            return kern(_whole3(a), ddof)[0, 0]
    else:
        drop = _DROPS[ndim]

        def core(a, axis, ddof):
            ax = _norm_axis(axis, ndim)
            return kern(_axis3(a, ax), ddof).reshape(drop(a.shape, ax))

    return register_jitable(**_NUMPY)(core)


# the parameters of each group of functions (the implementation has NumPy's names)
@functools.lru_cache(maxsize=None)
def _front(core, params):
    if params == "dtype":  # nansum nanprod nanmean
        def impl(a, axis=None, dtype=None, out=None, keepdims=False):
            return core(a, axis, 0)
    elif params == "out":  # nanmin nanmax nanargmin nanargmax ptp
        def impl(a, axis=None, out=None, keepdims=False):
            return core(a, axis, 0)
    elif params == "ddof":  # nanvar nanstd
        def impl(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
            return core(a, axis, ddof)
    else:  # count_nonzero
        def impl(a, axis=None, keepdims=False):
            return core(a, axis, 0)
    return impl


def _check_common(name, a, axis, **unsupported):
    for what, t in unsupported.items():
        if _given(t) and not (what == "keepdims" and isinstance(t, types.Boolean)):
            raise TypingError(f"{name}(): {what}= is not supported in kiln yet")
    if _given(axis) and not isinstance(axis, types.Integer):
        raise TypingError(f"{name}(): axis must be None or an int, not {axis}")
    if _given(axis) and a.ndim > _MAX_NDIM:
        raise TypingError(f"{name}(): axis= is supported for arrays of up to {_MAX_NDIM} "
                          f"dimensions in kiln, not {a.ndim}")


def _reduce_overload(func, name, params, kernel_of, complex_ok=True, bool_ok=True):
    def typer(a, axis=None, dtype=None, out=None, ddof=None, keepdims=None):
        if not isinstance(a, types.Array):
            return None
        if not _number_array(a, complex_ok, bool_ok):
            raise TypingError(f"{name}(): an array of {'real ' if not complex_ok else ''}"
                              f"numbers{'' if bool_ok else ' (not bool)'} is needed, not {a}")
        _check_common(name, a, axis, dtype=dtype, out=out)
        if _given(keepdims):
            raise TypingError(f"{name}(): keepdims= is not supported in kiln yet")
        if _given(ddof) and not isinstance(ddof, (types.Integer, types.Float, types.Boolean)):
            raise TypingError(f"{name}(): ddof must be a number, not {ddof}")
        return _front(_core(kernel_of(a.dtype), a.ndim, _given(axis)), params)

    if params == "dtype":
        def typer_p(a, axis=None, dtype=None, out=None, keepdims=None):
            return typer(a, axis, dtype, out, None, keepdims)
    elif params == "out":
        def typer_p(a, axis=None, out=None, keepdims=None):
            return typer(a, axis, None, out, None, keepdims)
    elif params == "ddof":
        typer_p = typer
    else:
        def typer_p(a, axis=None, keepdims=None):
            return typer(a, axis, None, None, None, keepdims)
    if isinstance(func, tuple):
        overload_method(*func, jit_options=_NUMPY)(typer_p)
    else:
        overload(func, jit_options=_NUMPY)(typer_p)


def _real_type(d):
    t = _mean_type(d)
    return {np.complex64: np.float32, np.complex128: np.float64}.get(t, t)


_reduce_overload(np.nansum, "np.nansum", "dtype", lambda d: _k_sum(_sum_type(d), False))
_reduce_overload(np.nanprod, "np.nanprod", "dtype", lambda d: _k_sum(_sum_type(d), True))
_reduce_overload(np.nanmean, "np.nanmean", "dtype", lambda d: _k_mean(_mean_type(d)))
_reduce_overload(np.nanvar, "np.nanvar", "ddof",
                 lambda d: _k_var(_mean_type(d), _real_type(d), False))
_reduce_overload(np.nanstd, "np.nanstd", "ddof",
                 lambda d: _k_var(_mean_type(d), _real_type(d), True))
for _f, _n, _mx in ((np.nanmin, "np.nanmin", False), (np.nanmax, "np.nanmax", True)):
    _reduce_overload(_f, _n, "out", lambda d, mx=_mx: _k_minmax(_np(d), mx, _is_float(d)),
                     complex_ok=False)
for _f, _n, _mx in ((np.nanargmin, "np.nanargmin", False), (np.nanargmax, "np.nanargmax", True)):
    _reduce_overload(_f, _n, "out", lambda d, mx=_mx: _k_arg(_np(d), mx), complex_ok=False)
for _f, _n in ((np.ptp, "np.ptp"), ((types.Array, "ptp"), "ptp")):
    _reduce_overload(_f, _n, "out", lambda d: _k_ptp(_np(d), _is_float(d)), complex_ok=False,
                     bool_ok=False)
_reduce_overload(np.count_nonzero, "np.count_nonzero", "count", lambda d: _k_count)


# ---- nancumsum, nancumprod -------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _k_cum(rt, prod):
    def kern(b):
        o, n, i = b.shape
        out = np.empty((o, n, i), rt)
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    x = b[p, j, q]
                    y = rt(x) if x == x else rt(1 if prod else 0)
                    if j > 0:
                        y = y * out[p, j - 1, q] if prod else y + out[p, j - 1, q]
                    out[p, j, q] = y
        return out

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _cum_impl(kern, by_axis, ndim):
    if not by_axis:
        def impl(a, axis=None, dtype=None, out=None):
            return kern(_whole3(a)).reshape((a.size,))
    else:
        def impl(a, axis=None, dtype=None, out=None):
            ax = _norm_axis(axis, ndim)
            return kern(_axis3(a, ax)).reshape(a.shape)
    return impl


def _cum_overload(func, name, prod):
    @overload(func, jit_options=_NUMPY)
    def typer(a, axis=None, dtype=None, out=None):
        if not isinstance(a, types.Array):
            return None
        if not _number_array(a):
            raise TypingError(f"{name}(): an array of numbers is needed, not {a}")
        _check_common(name, a, axis, dtype=dtype, out=out)
        return _cum_impl(_k_cum(_sum_type(a.dtype), prod), _given(axis), a.ndim)


_cum_overload(np.nancumsum, "np.nancumsum", False)
_cum_overload(np.nancumprod, "np.nancumprod", True)


# ---- nanmedian, nanpercentile, nanquantile ---------------------------------------------------


@functools.lru_cache(maxsize=None)
def _k_nanq(median):
    """out[k, p, q]: quantile qs[k] of the numbers of b[p, :, q] (nan when there are none)"""

    def kern(b, qs):
        o, n, i = b.shape
        out = np.empty((qs.size, o, i), np.float64)
        tmp = np.empty(n if n > 0 else 1, b.dtype)
        for p in range(o):
            for q in range(i):
                c = 0
                for j in range(n):
                    x = b[p, j, q]
                    if x == x:
                        tmp[c] = x
                        c += 1
                if c == 0:
                    for k in range(qs.size):
                        out[k, p, q] = np.nan
                elif median:
                    out[0, p, q] = np.median(tmp[:c])
                else:
                    r = np.quantile(tmp[:c], qs)
                    for k in range(qs.size):
                        out[k, p, q] = r[k]
        return out

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_nanq_scalar(median, rt):
    """one quantile per slice, in rt (float32 for float32 data and a scalar q, as NumPy)"""

    def kern(b, q):
        o, n, i = b.shape
        out = np.empty((o, i), rt)
        tmp = np.empty(n if n > 0 else 1, b.dtype)
        for p in range(o):
            for s in range(i):
                c = 0
                for j in range(n):
                    x = b[p, j, s]
                    if x == x:
                        tmp[c] = x
                        c += 1
                if c == 0:
                    out[p, s] = np.nan
                elif median:
                    out[p, s] = np.median(tmp[:c])
                else:
                    out[p, s] = np.quantile(tmp[:c], q)
        return out

    return register_jitable(**_NUMPY)(kern)


@register_jitable
def _check_q(qs, scale):
    for k in range(qs.size):
        x = qs[k]
        if not (x >= 0 and x <= scale):
            if scale == 1:
                raise ValueError("Quantiles must be in the range [0, 1]")
            raise ValueError("Percentiles must be in the range [0, 100]")


@functools.lru_cache(maxsize=None)
def _nanq_impls(median, scale, q_kind, rt, by_axis, ndim):
    """q_kind: 'none' (median), 'scalar', 'array' (an array or a tuple of numbers)"""
    drop = _DROPS.get(ndim)
    if q_kind == "array":
        kern = _k_nanq(False)

        def run(a, q, axis):
            qs = np.asarray(q).astype(np.float64) / scale
            _check_q(qs * scale, scale)
            if not by_axis or ndim <= 1:
                if by_axis:
                    _norm_axis(axis, 1)
                return kern(_whole3(a), qs).reshape((qs.size,))
            ax = _norm_axis(axis, ndim)
            r = kern(_axis3(a, ax), qs)
            return r.reshape((qs.size,) + drop(a.shape, ax))
    else:
        kern = _k_nanq_scalar(median, rt)

        def run(a, q, axis):
            if not median:
                _check_q(np.full(1, q, np.float64), scale)
            qq = q / scale
            if not by_axis or ndim <= 1:
                if by_axis:
                    _norm_axis(axis, 1)
                return kern(_whole3(a), qq)[0, 0]
            ax = _norm_axis(axis, ndim)
            return kern(_axis3(a, ax), qq).reshape(drop(a.shape, ax))

    run = register_jitable(**_NUMPY)(run)
    if median:
        def impl(a, axis=None, out=None, overwrite_input=False, keepdims=False):
            return run(a, 0.5, axis)
    else:
        def impl(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                 keepdims=False):
            return run(a, q, axis)
    return impl


def _real_q(q):
    if isinstance(q, (types.Integer, types.Float, types.Boolean)):
        return "scalar"
    if isinstance(q, types.Array) and q.ndim == 1 and isinstance(q.dtype, (types.Integer,
                                                                           types.Float)):
        return "array"
    if isinstance(q, types.BaseTuple) and all(isinstance(t, (types.Integer, types.Float))
                                              for t in q.types):
        return "array"
    return None


def _nanq_typer(name, median, scale):
    def check(a, q, axis, out, overwrite_input, method, keepdims):
        if not isinstance(a, types.Array):
            return None
        if not _number_array(a, complex_ok=False):
            raise TypingError(f"{name}(): an array of real numbers is needed, not {a}")
        if not median and isinstance(a.dtype, types.Boolean):
            raise TypingError(f"{name}() of a bool array: NumPy has no boolean subtract "
                              "(convert it with .astype(np.int64) first)")
        _check_common(name, a, axis, out=out)
        if _given(keepdims):
            raise TypingError(f"{name}(): keepdims= is not supported in kiln yet")
        if _given(method) and not (isinstance(method, types.StringLiteral)
                                   and method.literal_value == "linear"):
            raise TypingError(f"{name}(): method= must be 'linear' in kiln")
        q_kind = "none" if median else _real_q(q)
        if q_kind is None:
            raise TypingError(f"{name}(): q must be a real number, a tuple of them or a 1-d "
                              f"array of them, not {q}")
        f32 = a.dtype == types.float32
        rt = np.float32 if f32 and q_kind != "array" else np.float64
        return _nanq_impls(median, scale, q_kind, rt, _given(axis), a.ndim)

    if median:
        def typer(a, axis=None, out=None, overwrite_input=None, keepdims=None):
            return check(a, None, axis, out, overwrite_input, None, keepdims)
    else:
        def typer(a, q, axis=None, out=None, overwrite_input=None, method=None, keepdims=None):
            return check(a, q, axis, out, overwrite_input, method, keepdims)
    return typer


overload(np.nanmedian, jit_options=_NUMPY)(_nanq_typer("np.nanmedian", True, 1))
overload(np.nanquantile, jit_options=_NUMPY)(_nanq_typer("np.nanquantile", False, 1))
overload(np.nanpercentile, jit_options=_NUMPY)(_nanq_typer("np.nanpercentile", False, 100))
