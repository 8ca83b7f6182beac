"""np.diff, np.convolve, np.correlate, np.bincount and the signal and calculus functions
(np.cross, np.kron, np.trapezoid, np.gradient, np.ediff1d, np.polyval), written in kiln's
subset. NumPy is the reference for values, dtypes and errors (docs/numpy.md, "Construction,
signal and calculus, array methods").

- ``np.diff(a, n=1, axis=-1, prepend=None, append=None)``: arrays of 1 to 3 dimensions, ``n``
  and ``axis`` runtime ints (one branch per axis: kiln's slices are per dimension); the result
  has a's dtype (bool: ``!=``, as NumPy). ``n == 0`` gives a copy (NumPy returns ``a`` itself).
  ``prepend`` / ``append`` (numbers or 1-D arrays) for 1-D arrays: the dtype is NumPy's result
  type of the three, as its concatenation gives.
- ``np.convolve(a, v, mode='full')`` and ``np.correlate(a, v, mode='valid')``: 1-D arrays of
  numbers, ``mode`` a constant str ('full', 'same', 'valid'; a ``types.StringLiteral`` for the
  typing function), chosen when the call is typed (NumPy's int modes 0/1/2 are not: kiln has
  no int literals yet). The result dtype is NumPy's ``result_type(a, v)``; a direct algorithm
  (no FFT), as NumPy's, in passes of four taps over the output that LLVM vectorizes. correlate
  conjugates v and, when v is the longer, reverses correlate(conj(v), a), as NumPy.
- ``np.bincount(x, weights=None, minlength=0)``: 1-D bool or integer arrays (not uint64, which
  NumPy refuses to cast to intp); int64 counts, float64 sums with weights.
- ``np.cross(a, b)``: 1-D or 2-D with a last axis of 3 (rows broadcast); ``np.kron(a, b)``: 1-D
  or 2-D; ``np.trapezoid(y, x=None, dx=1.0, axis=-1)``: 1-D or 2-D y; ``np.gradient(f,
  spacing, axis=None, edge_order=1)``: 1-D (scalar spacing or coordinates) or 2-D (scalar
  spacing); ``np.ediff1d(ary, to_end=None, to_begin=None)``; ``np.polyval(p, x)``.
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
        return _diff_extended(a, n, axis, prepend, append)
    for what, t in (("n", n), ("axis", axis)):
        if _given(t) and not isinstance(t, types.Integer):
            raise TypingError(f"np.diff(): {what} must be an int, not {t}")
    impl = _diff_impls(_ne if isinstance(a.dtype, types.Boolean) else _sub).get(a.ndim)
    if impl is None:
        raise TypingError(f"np.diff(): arrays of up to 3 dimensions are supported in kiln, "
                          f"not {a.ndim}")
    return impl


def _edge_kind(name, t):
    """0: not given, 1: a number, 2: an array of numbers (of prepend= / append=)"""
    if not _given(t):
        return 0
    if isinstance(t, (types.Number, types.Boolean)):
        return 1
    if isinstance(t, types.Array) and isinstance(t.dtype, (types.Number, types.Boolean)):
        if t.ndim > 1:
            raise TypingError(f"np.diff(): {name} of a 1-D array must be a number or a 1-D array")
        return 2
    raise TypingError(f"np.diff(): {name} must be a number or an array of numbers, not {t}")


@functools.lru_cache(maxsize=None)
def _edge_helpers(rt):
    """What np.diff's prepend/append and np.ediff1d's to_begin/to_end put at an edge, as 1-D
    arrays of rt: indexed by kind, 0 none, 1 a scalar, 2 an array."""

    @register_jitable
    def none_edge(t):
        return np.empty(0, rt)

    @register_jitable
    def scalar_edge(t):
        return np.full(1, t, rt)

    @register_jitable
    def array_edge(t):
        return t.ravel()

    return (none_edge, scalar_edge, array_edge)


@functools.lru_cache(maxsize=None)
def _diff_extended_impl(rt, op, pre, post):
    edges = _edge_helpers(rt)
    pre_of = edges[pre]
    post_of = edges[post]

    def impl(a, n=1, axis=-1, prepend=None, append=None):
        _check_order(n)
        _norm_axis(axis, 1)
        if n == 0:  # NumPy returns `a` then, without prepend and append (here: a's values)
            r0 = np.empty(a.shape[0], rt)
            for i in range(a.shape[0]):
                r0[i] = a[i]
            return r0
        p = pre_of(prepend)
        q = post_of(append)
        r = np.empty(p.shape[0] + a.shape[0] + q.shape[0], rt)
        for i in range(p.shape[0]):
            r[i] = p[i]
        for i in range(a.shape[0]):
            r[p.shape[0] + i] = a[i]
        k = p.shape[0] + a.shape[0]
        for i in range(q.shape[0]):
            r[k + i] = q[i]
        for _ in range(n):
            r = op(r[1:], r[:-1])
        return r

    return impl


def _diff_extended(a, n, axis, prepend, append):
    """np.diff with prepend= / append= (NumPy concatenates them along the axis first; the
    dtype is NumPy's result_type of all three, a number counting as a 0-d array)"""
    if a.ndim != 1:
        raise TypingError(f"np.diff(): prepend= and append= are supported for 1-D arrays in "
                          f"kiln, not {a.ndim}-D")
    pre = _edge_kind("prepend", prepend)
    post = _edge_kind("append", append)
    ts = [a.dtype] + [t.dtype if isinstance(t, types.Array) else t
                      for t in (prepend, append) if _given(t)]
    rt = np.result_type(*[np.dtype(np.bool_ if isinstance(t, types.Boolean) else str(t))
                          for t in ts]).type
    op = _ne if rt is np.bool_ else _sub
    return _diff_extended_impl(rt, op, pre, post)


# ---- np.convolve -----------------------------------------------------------------------------

_MODES = {"full": 0, "same": 1, "valid": 2}


@register_jitable
def _tap(a, out, c, d, lo, hi):
    for k in range(lo, hi):
        out[k] += a[k + d] * c


@register_jitable
def _convolve_into(a, v, out, off):
    """out[k] = sum over i of a[i] * v[k + off - i], for len(a) >= len(v): passes over out,
    four taps of v at a time where all four apply (out[k] += a[k + d] * v[j] + ...: a loop LLVM
    vectorizes, five loads and one store per four products), one tap at a time at the edges.
    NumPy's dot per output sums in another order, so floats agree to rounding."""
    n = a.shape[0]
    m = v.shape[0]
    length = out.shape[0]
    j = 0
    while j < m:
        if j + 4 <= m:
            lo3 = j + 3 - off if j + 3 - off > 0 else 0
            hi0 = n + j - off if n + j - off < length else length
            for t in range(4):  # the edges: tap j + t alone where the others do not apply
                jt = j + t
                lo = jt - off if jt - off > 0 else 0
                hi = n + jt - off if n + jt - off < length else length
                _tap(a, out, v[jt], off - jt, lo, lo3 if lo3 < hi else hi)
                _tap(a, out, v[jt], off - jt, hi0 if hi0 > lo else lo, hi)
            c0 = v[j]
            c1 = v[j + 1]
            c2 = v[j + 2]
            c3 = v[j + 3]
            d = off - j
            for k in range(lo3, hi0):
                out[k] += (a[k + d] * c0 + a[k + d - 1] * c1) + \
                    (a[k + d - 2] * c2 + a[k + d - 3] * c3)
            j += 4
        else:
            lo = j - off if j - off > 0 else 0
            hi = n + j - off if n + j - off < length else length
            _tap(a, out, v[j], off - j, lo, hi)
            j += 1
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


# ---- np.correlate ----------------------------------------------------------------------------

_CORR_DEFAULT = 2  # NumPy's correlate defaults to 'valid'


@register_jitable
def _reversed(v, conj):
    n = v.shape[0]
    w = np.empty(n, v.dtype)
    for i in range(n):
        w[i] = v[n - 1 - i].conjugate() if conj else v[n - 1 - i]
    return w


@register_jitable
def _conjugated(v, conj):
    w = np.empty(v.shape[0], v.dtype)
    for i in range(v.shape[0]):
        w[i] = v[i].conjugate() if conj else v[i]
    return w


@functools.lru_cache(maxsize=None)
def _correlate_impl(rt, mode_code, conj):
    """correlate(a, v)[k] = sum over n of a[n + lag0 + k] * conj(v[n]): a convolution with v
    reversed and conjugated. When v is the longer, NumPy computes correlate(conj(v), a) and
    reverses it; the same here."""

    def impl(a, v, mode=None):
        n = a.shape[0]
        m = v.shape[0]
        if n == 0:
            raise ValueError("first array argument cannot be empty")
        if m == 0:
            raise ValueError("second array argument cannot be empty")
        big = n if n >= m else m
        small = m if n >= m else n
        if mode_code == 0:
            length = big + small - 1
            lag0 = -(small - 1)
        elif mode_code == 1:
            length = big
            lag0 = -(small // 2)
        else:
            length = big - small + 1
            lag0 = 0
        out = np.zeros(length, rt)
        if n >= m:
            return _convolve_into(a, _reversed(v, conj), out, lag0 + small - 1)
        _convolve_into(_conjugated(v, conj), _reversed(a, False), out, lag0 + small - 1)
        return out[::-1].copy()

    return impl


@overload(np.correlate)
def _ov_correlate(a, v, mode=None):
    if not (_array_of(a, (1,), types.Number) and _array_of(v, (1,), types.Number)):
        return None
    if not _given(mode):
        code = _CORR_DEFAULT
    elif isinstance(mode, types.StringLiteral):
        code = _MODES.get(mode.literal_value)
    else:
        raise TypingError(f"np.correlate(): mode must be a constant str ('full', 'same' or "
                          f"'valid'), not {mode}")
    if code is None:
        raise TypingError(f"np.correlate(): mode must be one of 'valid', 'same', or 'full' "
                          f"(got {mode.literal_value!r})")
    rt = np.result_type(np.dtype(str(a.dtype)), np.dtype(str(v.dtype))).type
    return _correlate_impl(rt, code, isinstance(v.dtype, types.Complex))


def _rt(*ts):
    """NumPy's result_type of kiln element types (numbers and bools), a NumPy scalar class"""
    return np.result_type(*[np.dtype(np.bool_ if isinstance(t, types.Boolean) else str(t))
                            for t in ts]).type


def _elem(t):
    return t.dtype if isinstance(t, types.Array) else t


# ---- np.cross --------------------------------------------------------------------------------


@register_jitable
def _cross_check(a, b):
    if a.shape[a.ndim - 1] != 3 or b.shape[b.ndim - 1] != 3:
        if (a.shape[a.ndim - 1] in (2, 3)) and (b.shape[b.ndim - 1] in (2, 3)):
            raise ValueError("np.cross(): kiln supports vectors of 3 elements only (NumPy 2 "
                             "deprecates 2-element vectors)")
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")


@functools.lru_cache(maxsize=None)
def _cross_impls(rt):
    @register_jitable
    def one(a0, a1, a2, b0, b1, b2, out, i):
        x0 = rt(a0)
        x1 = rt(a1)
        x2 = rt(a2)
        y0 = rt(b0)
        y1 = rt(b1)
        y2 = rt(b2)
        out[i, 0] = x1 * y2 - x2 * y1
        out[i, 1] = x2 * y0 - x0 * y2
        out[i, 2] = x0 * y1 - x1 * y0

    def vv(a, b):
        _cross_check(a, b)
        out = np.empty((1, 3), rt)
        one(a[0], a[1], a[2], b[0], b[1], b[2], out, 0)
        return out.reshape(3)

    def mv(a, b):
        _cross_check(a, b)
        out = np.empty((a.shape[0], 3), rt)
        for i in range(a.shape[0]):
            one(a[i, 0], a[i, 1], a[i, 2], b[0], b[1], b[2], out, i)
        return out

    def vm(a, b):
        _cross_check(a, b)
        out = np.empty((b.shape[0], 3), rt)
        for i in range(b.shape[0]):
            one(a[0], a[1], a[2], b[i, 0], b[i, 1], b[i, 2], out, i)
        return out

    def mm(a, b):
        _cross_check(a, b)
        n = a.shape[0]
        m = b.shape[0]
        if n != m and n != 1 and m != 1:
            raise ValueError("operands could not be broadcast together")
        rows = n if n != 1 else m
        out = np.empty((rows, 3), rt)
        for i in range(rows):
            p = i if n != 1 else 0
            q = i if m != 1 else 0
            one(a[p, 0], a[p, 1], a[p, 2], b[q, 0], b[q, 1], b[q, 2], out, i)
        return out

    return {(1, 1): vv, (2, 1): mv, (1, 2): vm, (2, 2): mm}


@overload(np.cross)
def _ov_cross(a, b):
    if not (_array_of(a, (1, 2), types.Number) and _array_of(b, (1, 2), types.Number)):
        if isinstance(a, types.Array) and isinstance(b, types.Array):
            raise TypingError(f"np.cross(): arrays of numbers of 1 or 2 dimensions are "
                              f"supported in kiln, not {a} and {b}")
        return None
    return _cross_impls(_rt(a.dtype, b.dtype))[a.ndim, b.ndim]


# ---- np.kron ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _kron_impls(rt):
    def k11(a, b):
        n = a.shape[0]
        m = b.shape[0]
        out = np.empty(n * m, rt)
        for i in range(n):
            for j in range(m):
                out[i * m + j] = rt(a[i]) * rt(b[j])
        return out

    @register_jitable
    def k22(a, b):
        r1 = a.shape[0]
        c1 = a.shape[1]
        r2 = b.shape[0]
        c2 = b.shape[1]
        out = np.empty((r1 * r2, c1 * c2), rt)
        for i in range(r1):
            for j in range(c1):
                x = rt(a[i, j])
                for k in range(r2):
                    for q in range(c2):
                        out[i * r2 + k, j * c2 + q] = x * rt(b[k, q])
        return out

    def k12(a, b):
        return k22(a.reshape((1, a.shape[0])), b)

    def k21(a, b):
        return k22(a, b.reshape((1, b.shape[0])))

    return {(1, 1): k11, (2, 2): k22, (1, 2): k12, (2, 1): k21}


@overload(np.kron)
def _ov_kron(a, b):
    kinds = (types.Number, types.Boolean)
    if not (_array_of(a, (1, 2), kinds) and _array_of(b, (1, 2), kinds)):
        if isinstance(a, types.Array) and isinstance(b, types.Array):
            raise TypingError(f"np.kron(): arrays of 1 or 2 dimensions are supported in kiln, "
                              f"not {a} and {b}")
        return None
    return _kron_impls(_rt(a.dtype, b.dtype))[a.ndim, b.ndim]


# ---- np.trapezoid ----------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _trap_dx_impls(ct):
    """y's spacing dx converted to ct (float32 for float32 and complex64 y: a Python number is
    weak in NumPy 2)"""

    def one(y, x=None, dx=1.0, axis=-1):
        _norm_axis(axis, 1)
        return (ct(dx) * (y[1:] + y[:-1]) / 2.0).sum()

    def two(y, x=None, dx=1.0, axis=-1):
        if _norm_axis(axis, 2) == 0:
            return (ct(dx) * (y[1:] + y[:-1]) / 2.0).sum(axis=0)
        return (ct(dx) * (y[:, 1:] + y[:, :-1]) / 2.0).sum(axis=1)

    return one, two


def _trap_x(y, x=None, dx=1.0, axis=-1):
    _norm_axis(axis, 1)
    d = x[1:] - x[:-1]
    return (d * (y[1:] + y[:-1]) / 2.0).sum()


def _trap2_x(y, x=None, dx=1.0, axis=-1):
    d = x[1:] - x[:-1]
    if _norm_axis(axis, 2) == 0:
        return (d.reshape((d.shape[0], 1)) * (y[1:] + y[:-1]) / 2.0).sum(axis=0)
    return (d * (y[:, 1:] + y[:, :-1]) / 2.0).sum(axis=1)


def _trap2_x2(y, x=None, dx=1.0, axis=-1):
    if _norm_axis(axis, 2) == 0:
        return ((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0).sum(axis=0)
    return ((x[:, 1:] - x[:, :-1]) * (y[:, 1:] + y[:, :-1]) / 2.0).sum(axis=1)


@overload(np.trapezoid, jit_options={"error_model": "numpy"})
def _ov_trapezoid(y, x=None, dx=None, axis=None):
    kinds = (types.Integer, types.Float, types.Complex)
    if not _array_of(y, (1, 2), kinds):
        if isinstance(y, types.Array):
            raise TypingError(f"np.trapezoid(): y must be a 1-D or 2-D array of numbers in "
                              f"kiln, not {y}")
        return None
    if _given(axis) and not isinstance(axis, types.Integer):
        raise TypingError(f"np.trapezoid(): axis must be an int, not {axis}")
    if _given(x):
        if not _array_of(x, (1, y.ndim), kinds):
            raise TypingError(f"np.trapezoid(): x must be an array of numbers of 1 or "
                              f"{y.ndim} dimensions, not {x}")
        if y.ndim == 1:
            return _trap_x
        return _trap2_x if x.ndim == 1 else _trap2_x2
    if _given(dx) and not isinstance(dx, kinds):
        raise TypingError(f"np.trapezoid(): dx must be a number in kiln, not {dx}")
    single = y.dtype in (types.float32, types.complex64)
    one, two = _trap_dx_impls(np.float32 if single else np.float64)
    return one if y.ndim == 1 else two


# ---- np.gradient -----------------------------------------------------------------------------


@register_jitable
def _grad_check(n, edge_order):
    if edge_order != 1 and edge_order != 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if n < edge_order + 1:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                         "least (edge_order + 1) elements are required.")


@functools.lru_cache(maxsize=None)
def _gradient_impls(ot, ct):
    """ot: the result dtype; differences of f are taken in ot, and divided in ot for a scalar
    spacing (a Python number is weak in NumPy 2) or in ct = result_type(ot, float64) for
    coordinates (NumPy's spacing is then a float64 array or scalar)"""

    @functools.lru_cache(maxsize=None)
    def uniform_in(wt):
        @register_jitable
        def uniform(f, out, h, edge_order):
            """NumPy's uniform-spacing formulas along a 1-D view f into out, divided in wt"""
            n = f.shape[0]
            _grad_check(n, edge_order)
            h2 = wt(2.0 * h)
            for i in range(1, n - 1):
                out[i] = wt(ot(f[i + 1]) - ot(f[i - 1])) / h2
            if edge_order == 1:
                out[0] = wt(ot(f[1]) - ot(f[0])) / wt(h)
                out[n - 1] = wt(ot(f[n - 1]) - ot(f[n - 2])) / wt(h)
            else:
                a = wt(-1.5 / h)
                b = wt(2.0 / h)
                c = wt(-0.5 / h)
                out[0] = a * wt(f[0]) + b * wt(f[1]) + c * wt(f[2])
                a = wt(0.5 / h)
                b = wt(-2.0 / h)
                c = wt(1.5 / h)
                out[n - 1] = a * wt(f[n - 3]) + b * wt(f[n - 2]) + c * wt(f[n - 1])
            return out

        return uniform

    uniform = uniform_in(ot)
    uniform_c = uniform_in(ct)

    @register_jitable
    def coords(f, out, x, edge_order):
        """NumPy's formulas for coordinates x (uniform when the steps are all equal)"""
        n = f.shape[0]
        if x.shape[0] != n:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        _grad_check(n, edge_order)
        same = True
        for i in range(1, n - 1):
            if (x[i + 1] - x[i]) != (x[1] - x[0]):
                same = False
        if same:
            return uniform_c(f, out, np.float64(x[1] - x[0]), edge_order)
        if edge_order != 1:
            raise ValueError("np.gradient(): edge_order=2 with unevenly spaced coordinates is "
                             "not supported in kiln yet")
        for i in range(1, n - 1):
            dx1 = np.float64(x[i] - x[i - 1])
            dx2 = np.float64(x[i + 1] - x[i])
            a = -(dx2) / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            out[i] = a * ct(ot(f[i - 1])) + b * ct(ot(f[i])) + c * ct(ot(f[i + 1]))
        out[0] = ct(ot(f[1]) - ot(f[0])) / np.float64(x[1] - x[0])
        out[n - 1] = ct(ot(f[n - 1]) - ot(f[n - 2])) / np.float64(x[n - 1] - x[n - 2])
        return out

    def g1(f, h=1.0, axis=None, edge_order=1):
        return uniform(f, np.empty(f.shape[0], ot), h, edge_order)

    def g1x(f, h=1.0, axis=None, edge_order=1):
        return coords(f, np.empty(f.shape[0], ot), h, edge_order)

    @register_jitable
    def along(f, h, ax, edge_order):
        out = np.empty((f.shape[0], f.shape[1]), ot)
        if ax == 0:
            for j in range(f.shape[1]):
                uniform(f[:, j], out[:, j], h, edge_order)
        else:
            for i in range(f.shape[0]):
                uniform(f[i], out[i], h, edge_order)
        return out

    def g2(f, h=1.0, axis=None, edge_order=1):
        return along(f, h, 0, edge_order), along(f, h, 1, edge_order)

    def g2axis(f, h=1.0, axis=None, edge_order=1):
        return along(f, h, _norm_axis(axis, 2), edge_order)

    return g1, g1x, g2, g2axis


@overload(np.gradient, jit_options={"error_model": "numpy"})
def _ov_gradient(f, varargs=None, axis=None, edge_order=None):
    kinds = (types.Integer, types.Float, types.Complex)
    if not _array_of(f, (1, 2), kinds):
        if isinstance(f, types.Array):
            raise TypingError(f"np.gradient(): f must be a 1-D or 2-D array of numbers in "
                              f"kiln, not {f}")
        return None
    if _given(edge_order) and not isinstance(edge_order, types.Integer):
        raise TypingError(f"np.gradient(): edge_order must be an int, not {edge_order}")
    if _given(axis) and not isinstance(axis, types.Integer):
        raise TypingError(f"np.gradient(): axis must be None or an int in kiln, not {axis}")
    ot = f.dtype
    if isinstance(ot, types.Integer):
        ot = types.float64
    ot = np.dtype(str(ot)).type
    g1, g1x, g2, g2axis = _gradient_impls(ot, np.result_type(ot, np.float64).type)
    coords = isinstance(varargs, types.Array)
    if _given(varargs) and not (isinstance(varargs, (types.Integer, types.Float)) or
                                (coords and varargs.ndim == 1 and f.ndim == 1 and
                                 isinstance(varargs.dtype, (types.Integer, types.Float)))):
        raise TypingError(f"np.gradient(): the spacing must be a real number (or, for a 1-D "
                          f"f, a 1-D array of coordinates) in kiln, not {varargs}")
    if f.ndim == 1:
        return g1x if coords else g1
    return g2axis if _given(axis) else g2


# ---- np.ediff1d ------------------------------------------------------------------------------


@register_jitable
def _ediff1d_fill(flat, begin, end, out):
    nb = begin.shape[0]
    n = flat.shape[0]
    for i in range(nb):
        out[i] = begin[i]
    for i in range(n - 1):
        out[nb + i] = flat[i + 1] - flat[i]
    k = nb + (n - 1 if n > 0 else 0)
    for i in range(end.shape[0]):
        out[k + i] = end[i]
    return out


@functools.lru_cache(maxsize=None)
def _ediff1d_impl(rt, begin_kind, end_kind):
    """begin_kind/end_kind: 0 none, 1 a scalar, 2 an array (one helper each, chosen here)"""

    edges = _edge_helpers(rt)
    begin_of = edges[begin_kind]
    end_of = edges[end_kind]

    def impl(ary, to_end=None, to_begin=None):
        flat = ary.ravel()
        b = begin_of(to_begin)
        e = end_of(to_end)
        n = flat.shape[0] - 1
        out = np.empty(b.shape[0] + (n if n > 0 else 0) + e.shape[0], rt)
        return _ediff1d_fill(flat, b, e, out)

    return impl


@overload(np.ediff1d)
def _ov_ediff1d(ary, to_end=None, to_begin=None):
    kinds = (types.Integer, types.Float, types.Complex)
    if not isinstance(ary, types.Array):
        return None
    if not isinstance(ary.dtype, kinds):
        raise TypingError(f"np.ediff1d(): ary must be an array of numbers, not {ary}")
    rt = np.dtype(str(ary.dtype)).type

    def kind(what, t):
        if not _given(t):
            return 0
        if isinstance(t, types.Array) and isinstance(t.dtype, kinds + (types.Boolean,)):
            et = t.dtype
        elif isinstance(t, kinds + (types.Boolean,)):
            et = t
        else:
            raise TypingError(f"np.ediff1d(): {what} must be a number or an array of numbers, "
                              f"not {t}")
        if not np.can_cast(np.dtype(np.bool_ if isinstance(et, types.Boolean) else str(et)),
                           np.dtype(rt), "same_kind"):
            raise TypingError(f"np.ediff1d(): dtype of `{what}` must be compatible with input "
                              f"`ary` under the `same_kind` rule.")
        return 2 if isinstance(t, types.Array) else 1

    return _ediff1d_impl(rt, kind("to_begin", to_begin), kind("to_end", to_end))


# ---- np.polyval ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _polyval_impls(rt):
    @register_jitable
    def at(p, x):
        y = rt(0)
        for i in range(p.shape[0]):
            y = y * x + rt(p[i])
        return y

    def scalar(p, x):
        return at(p, rt(x))

    def array(p, x):
        out = np.empty(x.shape, rt)
        flat = out.reshape(out.size)
        src = x.ravel()
        for k in range(src.shape[0]):
            flat[k] = at(p, rt(src[k]))
        return out

    return scalar, array


@overload(np.polyval)
def _ov_polyval(p, x):
    kinds = (types.Number,)
    if not _array_of(p, (1,), kinds):
        if isinstance(p, types.Array):
            raise TypingError(f"np.polyval(): p must be a 1-D array of coefficients, not {p}")
        return None
    if not (isinstance(x, kinds) or (isinstance(x, types.Array) and isinstance(x.dtype, kinds))):
        raise TypingError(f"np.polyval(): x must be a number or an array of numbers, not {x}")
    scalar, array = _polyval_impls(_rt(p.dtype, _elem(x)))
    return array if isinstance(x, types.Array) else scalar
