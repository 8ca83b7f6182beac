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
    if dtype == types.float16:
        return np.float16
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


@register_jitable
def _whole3c(a):
    return a.reshape((1, a.size, 1))


@register_jitable
def _axis3c(a, ax):
    o, n, i = _split(a.shape, ax)
    return a.reshape((o, n, i))


def _views(t):
    """(whole3, axis3) for arrays of type t: C arrays are reshaped as they are, others copied"""
    return (_whole3c, _axis3c) if t.layout == "C" else (_whole3, _axis3)


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
    # the reduced axis innermost, the sum in a local: a register, not a store per item
    def kern(b, ddof):
        o, n, i = b.shape
        out = np.empty((o, i), rt)
        for p in range(o):
            for q in range(i):
                s = rt(1) if prod else rt(0)
                for j in range(n):
                    x = b[p, j, q]
                    if x == x:
                        if prod:
                            s *= x
                        else:
                            s += x
                out[p, q] = s
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
        out = np.empty((o, i), mt)
        for p in range(o):
            for q in range(i):
                s = mt(0)
                c = 0
                for j in range(n):
                    x = b[p, j, q]
                    if x == x:
                        s += x
                        c += 1
                out[p, q] = s / c
        return out

    return register_jitable(**_NUMPY)(kern)


@functools.lru_cache(maxsize=None)
def _k_var(mt, rt, root):
    mean = _k_mean(mt)

    def kern(b, ddof):
        o, n, i = b.shape
        m = mean(b, 0)
        out = np.empty((o, i), rt)
        for p in range(o):
            for q in range(i):
                mm = m[p, q]
                s = rt(0)
                c = 0
                for j in range(n):
                    x = b[p, j, q]
                    if x == x:
                        e = np.abs(x - mm)
                        s += e * e
                        c += 1
                d = c - ddof
                r = s / (d if d > 0 else 0)
                out[p, q] = np.sqrt(r) if root else r
        return out

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
    out = np.empty((o, i), np.int64)
    for p in range(o):
        for q in range(i):
            c = 0
            for j in range(n):
                if b[p, j, q] != 0:
                    c += 1
            out[p, q] = c
    return out


@functools.lru_cache(maxsize=None)
def _core(kern, ndim, by_axis, views):
    """core(a, axis, ddof): kern's reduction of a, whole (a scalar) or along axis"""
    _whole3, _axis3 = views
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
        return _front(_core(kernel_of(a.dtype), a.ndim, _given(axis), _views(a)), params)

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
def _cum_impl(kern, by_axis, ndim, views):
    _whole3, _axis3 = views
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
        return _cum_impl(_k_cum(_sum_type(a.dtype), prod), _given(axis), a.ndim, _views(a))


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
def _nanq_impls(median, scale, q_kind, rt, by_axis, ndim, views):
    """q_kind: 'none' (median), 'scalar', 'array' (an array or a tuple of numbers)"""
    _whole3, _axis3 = views
    drop = _DROPS.get(ndim)
    whole = not by_axis or ndim <= 1
    if q_kind == "array":
        kern = _k_nanq(False)

        if whole:
            def run(a, q, axis):
                qs = np.asarray(q).astype(np.float64) / scale
                _check_q(qs * scale, scale)
                if by_axis:
                    _norm_axis(axis, 1)
                return kern(_whole3(a), qs).reshape((qs.size,))
        else:
            def run(a, q, axis):
                qs = np.asarray(q).astype(np.float64) / scale
                _check_q(qs * scale, scale)
                ax = _norm_axis(axis, ndim)
                r = kern(_axis3(a, ax), qs)
                return r.reshape((qs.size,) + drop(a.shape, ax))
    else:
        kern = _k_nanq_scalar(median, rt)

        if whole:
            def run(a, q, axis):
                if not median:
                    _check_q(np.full(1, q, np.float64), scale)
                if by_axis:
                    _norm_axis(axis, 1)
                return kern(_whole3(a), q / scale)[0, 0]
        else:
            def run(a, q, axis):
                if not median:
                    _check_q(np.full(1, q, np.float64), scale)
                ax = _norm_axis(axis, ndim)
                return kern(_axis3(a, ax), q / scale).reshape(drop(a.shape, ax))

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
        return _nanq_impls(median, scale, q_kind, rt, _given(axis), a.ndim, _views(a))

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


# ---- average ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _k_avg(rt, weighted):
    """sum(x * w) / sum(w) of each slice of b (w of wb's shape (o, n, i), or (1, n, 1) when
    it is 1-d along the axis; w = 1 without weights)"""

    def kern(b, wb):
        o, n, i = b.shape
        s = np.zeros((o, i), rt)
        ws = np.zeros((o, i), rt)
        one = wb.shape[0] == 1 and wb.shape[2] == 1
        for p in range(o):
            for j in range(n):
                for q in range(i):
                    if weighted:
                        w = wb[0, j, 0] if one else wb[p, j, q]
                        s[p, q] += b[p, j, q] * w
                        ws[p, q] += w
                    else:
                        s[p, q] += b[p, j, q]
                        ws[p, q] += 1
        for p in range(o):
            for q in range(i):
                if weighted and ws[p, q] == 0:
                    raise ZeroDivisionError("Weights sum to zero, can't be normalized")
                s[p, q] = s[p, q] / ws[p, q]
        return s

    return register_jitable(**_NUMPY)(kern)


@register_jitable
def _first(x, y):
    return x


@register_jitable
def _second(x, y):
    return y


@register_jitable
def _zero(x, y):
    return 0


@functools.lru_cache(maxsize=None)
def _avg_impl(rt, weights, by_axis, ndim):
    """weights: None, 'same' (a's shape) or 'axis' (1-d along the axis)"""
    kern = _k_avg(rt, weights is not None)
    drop = _DROPS.get(ndim)

    if not by_axis or ndim <= 1:
        def prep(a, w, axis):
            if weights == "same" and w.shape != a.shape:
                raise ValueError("Axis must be specified when shapes of a and weights differ.")
            if by_axis:
                _norm_axis(axis, 1)
            return kern(_whole3(a), _whole3(w))
    elif weights == "axis":
        def prep(a, w, axis):
            ax = _norm_axis(axis, ndim)
            if w.shape[0] != a.shape[ax]:
                raise ValueError("Length of weights not compatible with specified axis.")
            return kern(_axis3(a, ax), np.ascontiguousarray(w).reshape((1, w.size, 1)))
    else:
        def prep(a, w, axis):
            ax = _norm_axis(axis, ndim)
            if w.shape != a.shape:
                raise ValueError("shape mismatch: weights and a must have the same shape")
            return kern(_axis3(a, ax), _axis3(w, ax))

    prep = register_jitable(**_NUMPY)(prep)
    pick = _first if weights is None else _second
    if not by_axis or ndim <= 1:
        def impl(a, axis=None, weights=None, returned=False, keepdims=False):
            return prep(a, pick(a, weights), axis)[0, 0]
    else:
        def impl(a, axis=None, weights=None, returned=False, keepdims=False):
            return prep(a, pick(a, weights), axis).reshape(drop(a.shape, _norm_axis(axis, ndim)))
    return impl


@overload(np.average, jit_options=_NUMPY)
def _ov_average(a, axis=None, weights=None, returned=None, keepdims=None):
    if not isinstance(a, types.Array):
        return None
    if not _number_array(a):
        raise TypingError(f"np.average(): an array of numbers is needed, not {a}")
    _check_common("np.average", a, axis, returned=returned)
    if _given(keepdims):
        raise TypingError("np.average(): keepdims= is not supported in kiln yet")
    kind = None
    rt = _mean_type(a.dtype)
    if _given(weights):
        if not _number_array(weights):
            raise TypingError(f"np.average(): weights must be an array of numbers, not "
                              f"{weights}")
        if weights.ndim == a.ndim:
            kind = "same"
        elif weights.ndim == 1 and _given(axis):
            kind = "axis"
        elif not _given(axis):
            raise TypingError("np.average(): Axis must be specified when shapes of a and "
                              "weights differ.")
        else:
            raise TypingError("np.average(): 1D weights expected when shapes of a and weights "
                              "differ.")
        dts = [_np(a.dtype), _np(weights.dtype)]
        if isinstance(a.dtype, (types.Integer, types.Boolean)):
            dts.append(np.float64)
        rt = np.result_type(*dts).type
    return _avg_impl(rt, kind, _given(axis), a.ndim)


# ---- cov, corrcoef ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _rows(rt, ndim):
    """the observations of m as the rows of a new 2-d array of rt (variables are rows when
    rowvar, else columns; a 1-d m is one variable)"""

    if ndim == 1:
        def rows(m, rowvar):
            x = np.empty((1, m.shape[0]), rt)
            for k in range(m.shape[0]):
                x[0, k] = m[k]
            return x
    else:
        def rows(m, rowvar):
            if not rowvar and m.shape[0] != 1:
                x = np.empty((m.shape[1], m.shape[0]), rt)
                for r in range(m.shape[1]):
                    for k in range(m.shape[0]):
                        x[r, k] = m[k, r]
                return x
            x = np.empty((m.shape[0], m.shape[1]), rt)
            for r in range(m.shape[0]):
                for k in range(m.shape[1]):
                    x[r, k] = m[r, k]
            return x

    return register_jitable(rows)


@functools.lru_cache(maxsize=None)
def _cov_core(rt, ndim_m, ndim_y, conj):
    rows_m = _rows(rt, ndim_m)
    rows_y = _rows(rt, ndim_y if ndim_y else ndim_m)
    cj = _conj if conj else _same

    def core(m, y, rowvar, bias, ddof, has_y, has_ddof):
        x = rows_m(m, rowvar)
        if has_y:
            z = rows_y(y, rowvar)
            if z.shape[1] != x.shape[1]:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 "axis must match exactly")
            xx = np.empty((x.shape[0] + z.shape[0], x.shape[1]), rt)
            for r in range(x.shape[0]):
                for k in range(x.shape[1]):
                    xx[r, k] = x[r, k]
            for r in range(z.shape[0]):
                for k in range(x.shape[1]):
                    xx[x.shape[0] + r, k] = z[r, k]
            x = xx
        v, n = x.shape
        dd = ddof if has_ddof else (0 if bias else 1)
        fact = n - dd
        if fact < 0:
            fact = 0
        for r in range(v):
            s = x[r, 0] * 0
            for k in range(n):
                s += x[r, k]
            mean = s / n
            for k in range(n):
                x[r, k] -= mean
        c = np.empty((v, v), rt)
        for r in range(v):
            for t in range(r, v):
                s = x[r, 0] * 0 if n > 0 else rt(0)
                for k in range(n):
                    s += x[r, k] * cj(x[t, k])
                c[r, t] = s / fact
                c[t, r] = cj(c[r, t])
        return c

    return register_jitable(**_NUMPY)(core)


def _cov_check(name, m, y, rowvar, bias, ddof):
    for what, t in (("m", m), ("y", y)):
        if what == "y" and not _given(t):
            continue
        if not (_number_array(t) and t.ndim in (1, 2)):
            raise TypingError(f"{name}(): {what} must be a 1-d or 2-d array of numbers in kiln, "
                              f"not {t}")
    for what, t in (("rowvar", rowvar), ("bias", bias)):
        if _given(t) and not isinstance(t, (types.Boolean, types.Integer)):
            raise TypingError(f"{name}(): {what} must be a bool, not {t}")
    if _given(ddof) and not isinstance(ddof, types.Integer):
        raise TypingError(f"{name}(): ddof must be an integer")
    dts = [_np(m.dtype), np.float64] + ([_np(y.dtype)] if _given(y) else [])
    rt = np.result_type(*dts).type
    ny = y.ndim if _given(y) else 0
    scalar = m.ndim == 1 and ny == 0
    return _cov_core(rt, m.ndim, ny, issubclass(rt, np.complexfloating)), scalar, rt


@functools.lru_cache(maxsize=None)
def _cov_impl(core, scalar, corr, has_y, has_ddof):
    pick_y = _second if has_y else _first
    pick_ddof = _second if has_ddof else _zero

    def impl(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
             dtype=None):
        c = core(m, pick_y(m, y), rowvar, bias, pick_ddof(0, ddof), has_y, has_ddof)
        return c[0, 0] if scalar else c

    def corr_impl(x, y=None, rowvar=True, bias=None, ddof=None, dtype=None):
        c = core(x, pick_y(x, y), rowvar, False, 0, has_y, False)
        v = c.shape[0]
        d = np.empty(v, np.float64)
        for r in range(v):
            d[r] = np.sqrt(np.abs(c[r, r]))
        for r in range(v):
            for t in range(v):
                e = c[r, t] / d[r] / d[t]
                c[r, t] = _clip_real(e)
        return c[0, 0] if scalar else c

    return corr_impl if corr else impl


@register_jitable
def _clip_real(e):
    return -1.0 if e < -1.0 else (1.0 if e > 1.0 else e)


@register_jitable
def _conj(z):
    return z.real - 1j * z.imag


@register_jitable
def _same(z):
    return z


@overload(np.cov, jit_options=_NUMPY)
def _ov_cov(m, y=None, rowvar=None, bias=None, ddof=None, fweights=None, aweights=None,
            dtype=None):
    for what, t in (("fweights", fweights), ("aweights", aweights), ("dtype", dtype)):
        if _given(t):
            raise TypingError(f"np.cov(): {what}= is not supported in kiln yet")
    core, scalar, rt = _cov_check("np.cov", m, y, rowvar, bias, ddof)
    return _cov_impl(core, scalar, False, _given(y), _given(ddof))


@overload(np.corrcoef, jit_options=_NUMPY)
def _ov_corrcoef(x, y=None, rowvar=None, bias=None, ddof=None, dtype=None):
    if _given(dtype):
        raise TypingError("np.corrcoef(): dtype= is not supported in kiln yet")
    core, scalar, rt = _cov_check("np.corrcoef", x, y, rowvar, None, None)
    if issubclass(rt, np.complexfloating):
        raise TypingError("np.corrcoef() of complex arrays is not supported in kiln yet")
    return _cov_impl(core, scalar, True, _given(y), False)


# ---- histogram2d -----------------------------------------------------------------------------
#
# The edges of each coordinate are np.histogram's (the sorting family's C routine: bins an int or
# an array of edges, range a pair or None), then each point goes to the bin searchsorted(edges,
# v, 'right') - 1, a value on the last edge into the last bin, others outside dropped: NumPy's
# histogramdd, whose counts are float64.


@register_jitable
def _bin_of(edges, v):
    n = edges.size
    if not (v >= edges[0] and v <= edges[n - 1]):
        return -1
    k = np.searchsorted(edges, v, side="right") - 1
    return n - 2 if k >= n - 1 else k


@register_jitable
def _hist2d_fill(x, y, xe, ye, w, weighted, density):
    if x.size != y.size:
        raise ValueError("x and y must have the same length.")
    if weighted and w.size != x.size:
        raise ValueError("weights should have the same length as x and y.")
    h = np.zeros((xe.size - 1, ye.size - 1), np.float64)
    for i in range(x.size):
        p = _bin_of(xe, x[i])
        q = _bin_of(ye, y[i])
        if p >= 0 and q >= 0:
            h[p, q] += w[i] if weighted else 1.0
    if density:
        t = h.sum()
        for p in range(h.shape[0]):
            for q in range(h.shape[1]):
                h[p, q] = h[p, q] / t / ((xe[p + 1] - xe[p]) * (ye[q + 1] - ye[q]))
    return h


@register_jitable
def _item0(t):
    return t[0]


@register_jitable
def _item1(t):
    return t[1]


@register_jitable
def _nothing(t):
    return None


@functools.lru_cache(maxsize=None)
def _hist2d_impl(bins_kind, has_range, weighted, density_kind, ct):
    """bins_kind: 'default', 'one' (an int or an array for both), 'pair' (one per coordinate)"""
    r0 = _item0 if has_range else _nothing
    r1 = _item1 if has_range else _nothing
    b0 = _item0 if bins_kind == "pair" else _same
    b1 = _item1 if bins_kind == "pair" else _same
    pick_w = _second if weighted else _first

    def impl(x, y, bins=10, range=None, density=None, weights=None):
        if ct is not None:  # NumPy stacks x and y: both of their common dtype
            xe = np.histogram(x.astype(ct), b0(bins), r0(range))[1]
            ye = np.histogram(y.astype(ct), b1(bins), r1(range))[1]
        else:
            xe = np.histogram(x, b0(bins), r0(range))[1]
            ye = np.histogram(y, b1(bins), r1(range))[1]
        dens = density_kind == "runtime" and density
        return _hist2d_fill(x, y, xe, ye, pick_w(x, weights), weighted, dens), xe, ye

    return impl


@overload(np.histogram2d)
def _ov_histogram2d(x, y, bins=None, range=None, density=None, weights=None):
    for what, t in (("x", x), ("y", y)):
        if not (_number_array(t, complex_ok=False) and t.ndim == 1):
            raise TypingError(f"np.histogram2d(): {what} must be a 1-d array of real numbers, "
                              f"not {t}")
    kind = "default"
    if _given(bins):
        if isinstance(bins, types.Integer) or (isinstance(bins, types.Array) and bins.ndim == 1):
            kind = "one"
        elif isinstance(bins, types.BaseTuple) and len(bins.types) == 2 and all(
                isinstance(t, types.Integer) or (isinstance(t, types.Array) and t.ndim == 1)
                for t in bins.types):
            kind = "pair"
        else:
            raise TypingError(f"np.histogram2d(): bins must be an int, a 1-d array of edges or "
                              f"a pair of them, not {bins}")
    if _given(range) and not (isinstance(range, types.BaseTuple) and len(range.types) == 2
                              and all(isinstance(t, types.BaseTuple) for t in range.types)):
        raise TypingError(f"np.histogram2d(): range must be None or ((xmin, xmax), (ymin, "
                          f"ymax)), not {range}")
    if _given(density) and not isinstance(density, types.Boolean):
        raise TypingError(f"np.histogram2d(): density must be a bool, not {density}")
    if _given(weights) and not (_number_array(weights, complex_ok=False) and weights.ndim == 1):
        raise TypingError(f"np.histogram2d(): weights must be a 1-d array of real numbers, not "
                          f"{weights}")
    ct = None if x.dtype == y.dtype else np.result_type(_np(x.dtype), _np(y.dtype)).type
    if _given(range) and (ct or _np(x.dtype)) == np.float32:
        ct = np.float64  # NumPy's edges from a range of Python floats: float64
    return _hist2d_impl(kind, _given(range), _given(weights),
                        "runtime" if _given(density) else "none", ct)
