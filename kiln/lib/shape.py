"""Shapes and joining, written in kiln's subset over one C view primitive.

NumPy's views (expand_dims, squeeze, swapaxes, moveaxis, broadcast_to, flip, rot90,
atleast_*d, split's pieces, trim_zeros) are built with ``np.lib.stride_tricks.as_strided``
(the C entry of lib/shape.def: a view of the same memory with the given shape and strides, so
writes go through). The copies (concatenate and the stacks, tile, repeat, roll, resize,
append, insert, delete) allocate with ``np.empty`` and assign slices.

kiln's subset needs tuples whose length is known when the call is typed, and an ``axis`` is a
run-time int; so each implementation is generated from source text for its ndim (and, for
tuples of arrays, its item count), with one branch per axis where a slice must name it
(``out[:, a:b] = x``). The generated functions are cached per shape of call (``_gen`` keys),
so one compiled function serves every call of that shape.

Sequences of arrays are tuples (their items may differ in dtype, layout and, where NumPy lets
them, ndim: each item is prepared by its own generated line) or lists (one item type, a loop).
Error messages with sizes are NumPy's (f-strings); what is known when the call is typed (ndim
mismatches, a bad argument kind) is a TypingError at the call.
"""

import functools
import itertools
import linecache

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.stride_tricks import as_strided

from ._shape_prims import copy_into

from ..errors import TypingError
from ..extending import overload, overload_method, register_jitable, types

_counter = itertools.count()
_MAX_NDIM = 16


# ---- helpers -------------------------------------------------------------------------------


def _given(t):
    return t is not None and not isinstance(t, types.NoneType)


def _is_array(t):
    return isinstance(t, types.Array)


def _is_int(t):
    return isinstance(t, (types.Integer, types.Boolean)) and not isinstance(t, types.NoneType)


def _int_tuple(t):
    return isinstance(t, types.BaseTuple) and all(isinstance(x, types.Integer) for x in t)


def _np_dtype(t):
    """The NumPy dtype of a kiln element type (or of a scalar's type)."""
    return np.dtype(str(t))


def _result_dtype(ts):
    """NumPy's result type of joining arrays (or scalars) of kiln types ts."""
    return np.result_type(*[_np_dtype(t.dtype if _is_array(t) else t) for t in ts]).type


def _items(seq):
    """The item types of a tuple or list of arrays, or None."""
    if isinstance(seq, types.BaseTuple):
        return list(seq)
    if isinstance(seq, types.ListType):
        return [seq.dtype]
    return None


def _tup(exprs):
    exprs = list(exprs)
    return "(" + ", ".join(exprs) + ("," if len(exprs) == 1 else "") + ")"


def _colons(k):
    return ":, " * k


def _gen(src, name, **env):
    """The function `name` defined by `src` (registered in linecache, so that kiln finds its
    source and errors point into it)."""
    filename = f"<kiln.lib.shape: {name} {next(_counter)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    g = {"np": np, "as_strided": as_strided, "AxisError": AxisError, "_axis": _axis,
         "_view": _view, "copy_into": copy_into}
    g.update(env)
    exec(compile(src, filename, "exec"), g)
    return g[name]


def _jitable(src, name, **env):
    return register_jitable(_gen(src, name, **env))


@register_jitable
def _axis(axis, ndim):
    ax = axis + ndim if axis < 0 else axis
    if ax < 0 or ax >= ndim:
        raise AxisError("axis is out of bounds for the array's dimension")
    return ax


@register_jitable
def _view(a):
    """a as an 'A'-layout view (one type for the views of every layout of one ndim)."""
    return as_strided(a, a.shape, a.strides)


def _norm_lines(var, out, m):
    """Inline text normalizing the run-time axis `var` into `out` for m axes: one compiled
    function less than a call of _axis (each costs the first call its own O3 run)."""
    return (f"    {out} = {var} + {m} if {var} < 0 else {var}\n"
            f"    if {out} < 0 or {out} >= {m}:\n"
            f"        raise AxisError(\"axis is out of bounds for the array's dimension\")\n")


def _typing_error(fname, msg):
    raise TypingError(f"np.{fname}(): {msg}")


def _check_axis_arg(fname, axis, none_ok=False):
    if axis is None or (none_ok and isinstance(axis, types.NoneType)):
        return
    if not isinstance(axis, types.Integer):
        what = "an int or None" if none_ok else "an int"
        _typing_error(fname, f"axis must be {what}, not {axis}")


# ---- views of one array: permutations, new axes ----------------------------------------------


@functools.lru_cache(maxsize=None)
def _permuted(n_in, n_out):
    """view(a, p): the view whose axis j is a's axis p[j] (p an int64 array of n_out axes)."""
    src = (f"def permuted(a, p):\n"
           f"    s = a.shape\n    t = a.strides\n"
           f"    return as_strided(a, {_tup(f's[p[{j}]]' for j in range(n_out))}, "
           f"{_tup(f't[p[{j}]]' for j in range(n_out))})\n")
    return _jitable(src, "permuted")


@functools.lru_cache(maxsize=None)
def _swapaxes_impl(n):
    idx = [f"(j if {k} == i else (i if {k} == j else {k}))" for k in range(n)]
    src = ("def swapaxes(a, axis1, axis2):\n" + _norm_lines("axis1", "i", n) +
           _norm_lines("axis2", "j", n) + "    s = a.shape\n    t = a.strides\n"
           f"    return as_strided(a, {_tup(f's[{x}]' for x in idx)}, "
           f"{_tup(f't[{x}]' for x in idx)})\n")
    return _gen(src, "swapaxes")


@functools.lru_cache(maxsize=None)
def _moveaxis_impl(n):
    idx = [f"(i if {k} == j else (({k} if {k} < j else {k} - 1) + "
           f"(1 if ({k} if {k} < j else {k} - 1) >= i else 0)))" for k in range(n)]
    src = ("def moveaxis(a, source, destination):\n" + _norm_lines("source", "i", n) +
           _norm_lines("destination", "j", n) + "    s = a.shape\n    t = a.strides\n"
           f"    return as_strided(a, {_tup(f's[{x}]' for x in idx)}, "
           f"{_tup(f't[{x}]' for x in idx)})\n")
    return _gen(src, "moveaxis")


@functools.lru_cache(maxsize=None)
def _expand_impl(n):
    shp = [f"(1 if {k} == ax else s[{k} if {k} < ax else {k} - 1])" for k in range(n + 1)]
    strd = [f"(0 if {k} == ax else t[{k} if {k} < ax else {k} - 1])" for k in range(n + 1)]
    if n == 0:
        shp, strd = ["1"], ["0"]
    src = ("def expand_dims(a, axis):\n" + _norm_lines("axis", "ax", n + 1) +
           "    s = a.shape\n    t = a.strides\n"
           f"    return as_strided(a, {_tup(shp)}, {_tup(strd)})\n")
    return _gen(src, "expand_dims")


@functools.lru_cache(maxsize=None)
def _squeeze1_impl(n):
    shp = [f"s[{k} if {k} < ax else {k} + 1]" for k in range(n - 1)]
    strd = [f"t[{k} if {k} < ax else {k} + 1]" for k in range(n - 1)]
    src = ("def squeeze(a, axis=None):\n" + _norm_lines("axis", "ax", n) +
           "    s = a.shape\n    t = a.strides\n"
           "    if s[ax] != 1:\n"
           "        raise ValueError('cannot select an axis to squeeze out which has size not "
           "equal to one')\n"
           f"    return as_strided(a, {_tup(shp)}, {_tup(strd)})\n")
    return _gen(src, "squeeze")


@functools.lru_cache(maxsize=None)
def _flip_int_impl(n):
    lines = ["def flip(m, axis=None):\n", _norm_lines("axis", "ax", n)]
    for d in range(n):
        lines.append(f"    if ax == {d}:\n        x = m[{_colons(d)}::-1]\n"
                     "        return as_strided(x, x.shape, x.strides)\n")
    lines.append("    return as_strided(m, m.shape, m.strides)\n")
    return _gen("".join(lines), "flip")


@functools.lru_cache(maxsize=None)
def _swap(n):
    """swap(a, i, j): a with axes i and j (normalized) exchanged, a view."""
    idx = [f"(j if {k} == i else (i if {k} == j else {k}))" for k in range(n)]
    src = (f"def swap(a, i, j):\n"
           f"    s = a.shape\n    t = a.strides\n"
           f"    return as_strided(a, {_tup(f's[{x}]' for x in idx)}, "
           f"{_tup(f't[{x}]' for x in idx)})\n")
    return _jitable(src, "swap")


@functools.lru_cache(maxsize=None)
def _insert_axis(n):
    """ins(a, ax): a view of n + 1 axes with a length-1 axis at ax (normalized)."""
    if n == 0:
        return _jitable("def ins(a, ax):\n    return as_strided(a, (1,), (0,))\n", "ins")
    shp = [f"(1 if {k} == ax else s[{k} if {k} < ax else {k} - 1])" for k in range(n + 1)]
    strd = [f"(0 if {k} == ax else t[{k} if {k} < ax else {k} - 1])" for k in range(n + 1)]
    src = (f"def ins(a, ax):\n"
           f"    s = a.shape\n    t = a.strides\n"
           f"    return as_strided(a, {_tup(shp)}, {_tup(strd)})\n")
    return _jitable(src, "ins")


@functools.lru_cache(maxsize=None)
def _reshaped(n_out, kind):
    """Views for atleast_*d: a given 0-, 1- or 2-d array as n_out axes."""
    if kind == 0:  # 0-d -> (1,) * n_out
        shape, strides = ["1"] * n_out, ["0"] * n_out
    elif kind == 1 and n_out == 2:  # (N,) -> (1, N)
        shape, strides = ["1", "a.shape[0]"], ["0", "a.strides[0]"]
    elif kind == 1:  # (N,) -> (1, N, 1)
        shape, strides = ["1", "a.shape[0]", "1"], ["0", "a.strides[0]", "0"]
    else:  # (M, N) -> (M, N, 1)
        shape = ["a.shape[0]", "a.shape[1]", "1"]
        strides = ["a.strides[0]", "a.strides[1]", "0"]
    src = f"def view(a):\n    return as_strided(a, {_tup(shape)}, {_tup(strides)})\n"
    return _jitable(src, "view")


@register_jitable
def _axes_array(axes, ndim, what):
    """The normalized axes of a tuple as an int64 array; repeated axes are an error."""
    r = np.empty(len(axes), np.int64)
    for k in range(len(axes)):
        ax = _axis(axes[k], ndim)
        for m in range(k):
            if r[m] == ax:
                raise ValueError("repeated axis in an axes argument")
        r[k] = ax
    return r


# np.expand_dims


@functools.lru_cache(maxsize=None)
def _expand_tuple(n, k):
    m = n + k
    # output axis j: new when it is one of the axes, else input axis j - (new axes before j)
    lines = [f"def expand(a, axis):\n    s = a.shape\n    t = a.strides\n"
             f"    p = _axes_array(axis, {m}, 'axis')\n"]
    for j in range(m):
        new = " or ".join(f"p[{q}] == {j}" for q in range(k))
        before = " + ".join(f"(1 if p[{q}] < {j} else 0)" for q in range(k))
        lines.append(f"    new{j} = {new}\n    i{j} = {j} - ({before})\n")
    shape = [f"(1 if new{j} else s[i{j}])" for j in range(m)]
    strides = [f"(0 if new{j} else t[i{j}])" for j in range(m)]
    lines.append(f"    return as_strided(a, {_tup(shape)}, {_tup(strides)})\n")
    return _gen("".join(lines), "expand", _axes_array=_axes_array)


@overload(np.expand_dims)
def _ov_expand_dims(a, axis):
    if not _is_array(a):
        return None
    if isinstance(axis, types.Integer):
        return _expand_impl(a.ndim)
    if _int_tuple(axis):
        return _expand_tuple(a.ndim, len(axis))
    _typing_error("expand_dims", f"axis must be an int or a tuple of ints, not {axis}")


# np.squeeze, a.squeeze()


@functools.lru_cache(maxsize=None)
def _squeeze_impl(n, k, is_tuple):
    lines = ["def squeeze(a, axis=None):\n"]
    if not is_tuple:
        lines.append("    axes = (axis,)\n")
    else:
        lines.append("    axes = axis\n")
    lines.append(f"    p = _axes_array(axes, {n}, 'axis')\n"
                 f"    keep = np.empty({n - k}, np.int64)\n    m = 0\n"
                 f"    for d in range({n}):\n"
                 f"        drop = False\n"
                 f"        for q in range({k}):\n"
                 f"            if p[q] == d:\n                drop = True\n"
                 f"        if drop:\n"
                 f"            if a.shape[d] != 1:\n"
                 f"                raise ValueError('cannot select an axis to squeeze out which "
                 f"has size not equal to one')\n"
                 f"        else:\n            keep[m] = d\n            m += 1\n"
                 f"    return view(a, keep)\n")
    return _gen("".join(lines), "squeeze", _axes_array=_axes_array, view=_permuted(n, n - k))


def _squeeze_typer(name):
    def typer(a, axis=None):
        if not _is_array(a):
            return None
        if not _given(axis):
            if a.ndim == 0:
                return lambda a, axis=None: a
            _typing_error(name, "axis=None is not supported in kiln (the result's ndim would "
                          "depend on the run-time shape): give axis= as an int or a tuple")
        if isinstance(axis, types.Integer):
            if a.ndim == 0:
                _typing_error(name, "axis 0 is out of bounds for array of dimension 0")
            return _squeeze1_impl(a.ndim)
        if _int_tuple(axis):
            if len(axis) > a.ndim:
                _typing_error(name, f"{len(axis)} axes for an array of dimension {a.ndim}")
            return _squeeze_impl(a.ndim, len(axis), True)
        _typing_error(name, f"axis must be an int or a tuple of ints, not {axis}")

    return typer


overload(np.squeeze)(_squeeze_typer("squeeze"))
overload_method(types.Array, "squeeze")(_squeeze_typer("squeeze"))


# np.swapaxes, a.swapaxes()


def _swapaxes_typer(a, axis1, axis2):
    if not _is_array(a):
        return None
    for what, t in (("axis1", axis1), ("axis2", axis2)):
        if not isinstance(t, types.Integer):
            _typing_error("swapaxes", f"{what} must be an int, not {t}")
    if a.ndim == 0:
        _typing_error("swapaxes", "axis1 is out of bounds for array of dimension 0")
    return _swapaxes_impl(a.ndim)


overload(np.swapaxes)(_swapaxes_typer)
overload_method(types.Array, "swapaxes")(_swapaxes_typer)


# np.moveaxis


@functools.lru_cache(maxsize=None)
def _moveaxis_tuple(n, k):
    src = (f"def moveaxis(a, source, destination):\n"
           f"    s = _axes_array(source, {n}, 'source')\n"
           f"    d = _axes_array(destination, {n}, 'destination')\n"
           f"    p = np.full({n}, -1, np.int64)\n"
           f"    for q in range({k}):\n        p[d[q]] = s[q]\n"
           f"    m = 0\n"
           f"    for j in range({n}):\n"
           f"        if p[j] < 0:\n"
           f"            while True:\n"
           f"                used = False\n"
           f"                for q in range({k}):\n"
           f"                    if s[q] == m:\n                        used = True\n"
           f"                if not used:\n                    break\n"
           f"                m += 1\n"
           f"            p[j] = m\n            m += 1\n"
           f"    return view(a, p)\n")
    return _gen(src, "moveaxis", _axes_array=_axes_array, view=_permuted(n, n))


@overload(np.moveaxis)
def _ov_moveaxis(a, source, destination):
    if not _is_array(a):
        return None
    n = a.ndim
    if isinstance(source, types.Integer) and isinstance(destination, types.Integer):
        return _moveaxis_impl(n)
    if _int_tuple(source) and _int_tuple(destination):
        if len(source) != len(destination):
            _typing_error("moveaxis", "`source` and `destination` arguments must have the same "
                          "number of elements")
        return _moveaxis_tuple(n, len(source))
    _typing_error("moveaxis", f"source and destination must be ints or tuples of ints, not "
                  f"{source} and {destination}")


# np.broadcast_to, np.broadcast_arrays


@functools.lru_cache(maxsize=None)
def _broadcast_impl(n_in, n_out, is_int):
    lines = ["def broadcast_to(array, shape, subok=False):\n"]
    if is_int:
        lines.append("    shp = (shape,)\n")
    else:
        lines.append("    shp = shape\n")
    lines.append("    s = array.shape\n    t = array.strides\n")
    for j in range(n_out):
        i = j - (n_out - n_in)
        lines.append(f"    n{j} = shp[{j}]\n"
                     f"    if n{j} < 0:\n"
                     f"        raise ValueError('all elements of broadcast shape must be "
                     f"non-negative')\n")
        if i < 0:
            lines.append(f"    t{j} = 0\n")
        else:
            lines.append(f"    t{j} = t[{i}]\n"
                         f"    if s[{i}] != n{j}:\n"
                         f"        if s[{i}] != 1:\n"
                         f"            raise ValueError('operands could not be broadcast "
                         f"together with remapped shapes [original->remapped]')\n"
                         f"        t{j} = 0\n")
    lines.append(f"    return as_strided(array, {_tup(f'n{j}' for j in range(n_out))}, "
                 f"{_tup(f't{j}' for j in range(n_out))}, writeable=False)\n")
    return _gen("".join(lines), "broadcast_to")


@overload(np.broadcast_to)
def _ov_broadcast_to(array, shape, subok=None):
    if not _is_array(array):
        _typing_error("broadcast_to", f"array must be an array in kiln, not {array}")
    if isinstance(shape, types.Integer):
        n_out, is_int = 1, True
    elif _int_tuple(shape):
        n_out, is_int = len(shape), False
    else:
        _typing_error("broadcast_to", f"shape must be an int or a tuple of ints, not {shape}")
    if n_out < array.ndim:
        _typing_error("broadcast_to", "input operand has more dimensions than allowed by the "
                      "axis remapping")
    return _broadcast_impl(array.ndim, n_out, is_int)


@functools.lru_cache(maxsize=None)
def _broadcast_arrays_impl(ndims):
    k, m = len(ndims), max(ndims) if ndims else 0
    names = [f"a{q}" for q in range(k)]
    lines = [f"def broadcast_arrays({', '.join(names)}):\n"]
    for j in range(m):
        lines.append(f"    n{j} = 1\n")
        for q, nd in enumerate(ndims):
            i = j - (m - nd)
            if i < 0:
                continue
            lines.append(f"    if a{q}.shape[{i}] != 1:\n"
                         f"        if n{j} != 1 and n{j} != a{q}.shape[{i}]:\n"
                         f"            raise ValueError('shape mismatch: objects cannot be "
                         f"broadcast to a single shape.  Mismatch is between arg {q} and an "
                         f"earlier argument.')\n"
                         f"        n{j} = a{q}.shape[{i}]\n")
    shape = _tup(f"n{j}" for j in range(m))
    lines.append(f"    shape = {shape}\n")
    lines.append(f"    return {_tup(f'np.broadcast_to({x}, shape)' for x in names)}\n")
    return _gen("".join(lines), "broadcast_arrays")


@overload(np.broadcast_arrays)
def _ov_broadcast_arrays(*args, subok=None):
    for q, t in enumerate(args):
        if not _is_array(t):
            _typing_error("broadcast_arrays", f"argument {q} must be an array in kiln, not {t}")
    return _broadcast_arrays_impl(tuple(t.ndim for t in args))


# np.flip, np.fliplr, np.flipud, np.rot90


@functools.lru_cache(maxsize=None)
def _flip1(n):
    """flip(a, ax): a reversed along axis ax (normalized), a view."""
    lines = ["def flip1(a, ax):\n"]
    for d in range(n):
        lines.append(f"    if ax == {d}:\n        return _view(a[{_colons(d)}::-1])\n")
    lines.append("    return _view(a)\n")
    return _jitable("".join(lines), "flip1")


@functools.lru_cache(maxsize=None)
def _flip_impl(n, how):
    if how == "none":
        idx = ", ".join(["::-1"] * n)
        src = f"def flip(m, axis=None):\n    return _view(m[{idx}])\n"
        return _gen(src, "flip")
    k = how
    src = (f"def flip(m, axis=None):\n"
           f"    p = _axes_array(axis, {n}, 'axis')\n"
           f"    r = _view(m)\n"
           f"    for q in range({k}):\n        r = f1(r, p[q])\n"
           f"    return r\n")
    return _gen(src, "flip", f1=_flip1(n), _axes_array=_axes_array)


@overload(np.flip)
def _ov_flip(m, axis=None):
    if not _is_array(m):
        return None
    if not _given(axis):
        return _flip_impl(m.ndim, "none")
    if isinstance(axis, types.Integer):
        if m.ndim == 0:
            _typing_error("flip", "axis 0 is out of bounds for array of dimension 0")
        return _flip_int_impl(m.ndim)
    if _int_tuple(axis):
        return _flip_impl(m.ndim, len(axis))
    _typing_error("flip", f"axis must be None, an int or a tuple of ints, not {axis}")


@overload(np.fliplr)
def _ov_fliplr(m):
    if not _is_array(m):
        return None
    if m.ndim < 2:
        _typing_error("fliplr", "Input must be >= 2-d.")
    f1 = _flip1(m.ndim)
    return lambda m: f1(m, 1)


@overload(np.flipud)
def _ov_flipud(m):
    if not _is_array(m):
        return None
    if m.ndim < 1:
        _typing_error("flipud", "Input must be >= 1-d.")
    f1 = _flip1(m.ndim)
    return lambda m: f1(m, 0)


@functools.lru_cache(maxsize=None)
def _rot90_impl(n):
    src = (f"def rot90(m, k=1, axes=(0, 1)):\n"
           f"    a0 = _axis(axes[0], {n})\n    a1 = _axis(axes[1], {n})\n"
           f"    if a0 == a1:\n        raise ValueError('Axes must be different.')\n"
           f"    k = k % 4\n"
           f"    if k == 0:\n        return _view(m)\n"
           f"    if k == 2:\n        return f1(f1(m, a0), a1)\n"
           f"    if k == 1:\n        return sw(f1(m, a1), a0, a1)\n"
           f"    return f1(sw(m, a0, a1), a1)\n")
    return _gen(src, "rot90", f1=_flip1(n), sw=_swap(n))


@overload(np.rot90)
def _ov_rot90(m, k=None, axes=None):
    if not _is_array(m):
        return None
    if _given(k) and not isinstance(k, types.Integer):
        _typing_error("rot90", f"k must be an int, not {k}")
    if _given(axes) and not (_int_tuple(axes) and len(axes) == 2):
        _typing_error("rot90", "len(axes) must be 2.")
    if m.ndim < 2:
        _typing_error("rot90", "Axes must be different.")  # NumPy's check on a 1-d array
    return _rot90_impl(m.ndim)


# np.lib.stride_tricks.as_strided with shape/strides as lists is not supported: tuples only.


# ---- atleast_1d/2d/3d ------------------------------------------------------------------------


def _atleast_item(t, n, q):
    """(expression, env) turning argument `q` (type t) into an array of at least n dims."""
    if _is_array(t):
        if t.ndim >= n:
            return f"a{q}", {}
        kind = t.ndim if n != 3 or t.ndim != 2 else 2
        return f"_v{q}(a{q})", {f"_v{q}": _reshaped(n, kind)}
    if isinstance(t, (types.Number, types.Boolean)):
        dt = _np_dtype(t).type
        return f"np.full({_tup(['1'] * n)}, a{q}, _d{q})", {f"_d{q}": dt}
    _typing_error(f"atleast_{n}d", f"argument {q} must be an array or a number, not {t}")


def _atleast_typer(n):
    def typer(*args):
        if not args:
            _typing_error(f"atleast_{n}d", "needs at least one array")
        return _atleast_impl(n, tuple(args))

    return typer


@functools.lru_cache(maxsize=None)
def _atleast_impl(n, args):
    env, exprs = {}, []
    for q, t in enumerate(args):
        e, en = _atleast_item(t, n, q)
        exprs.append(e)
        env.update(en)
    names = ", ".join(f"a{q}" for q in range(len(args)))
    body = exprs[0] if len(args) == 1 else _tup(exprs)
    return _gen(f"def atleast({names}):\n    return {body}\n", "atleast", **env)


overload(np.atleast_1d)(_atleast_typer(1))
overload(np.atleast_2d)(_atleast_typer(2))
overload(np.atleast_3d)(_atleast_typer(3))


# ---- joining: concatenate, stack, hstack, vstack, dstack, column_stack, append ---------------


@register_jitable
def _put_any(out, x, off, ax):
    """out[..., off:off + len, ...] = x along axis ax (same ndim); the next offset."""
    copy_into(out, x, off * out.strides[ax])
    return off + x.shape[ax]


def _put(n):
    return _put_any


@functools.lru_cache(maxsize=None)
def _put_at(n):
    """put_at(out, x, i, ax): out[..., i, ...] = x, i at axis ax of out (n axes, x n - 1)."""
    ins = _insert_axis(n - 1)

    def put_at(out, x, i, ax):
        copy_into(out, ins(x, ax), i * out.strides[ax])
        return 0

    return register_jitable(put_at)


@register_jitable
def _check_join(x0, x, ax, q):
    for d in range(len(x.shape)):
        if d != ax and x.shape[d] != x0.shape[d]:
            raise ValueError("all the input array dimensions except for the concatenation "
                             "axis must match exactly")
    return 0


@register_jitable
def _check_stack(x0, x):
    if x.shape != x0.shape:
        raise ValueError("all input arrays must have the same shape")
    return 0


def _prep_env(preps):
    env = {}
    for q, p in enumerate(preps):
        if p is not None:
            env[f"_p{q}"] = p
    return env


def _prep(q, p, x):
    return x if p is None else f"_p{q}({x})"


_JOIN_MSG = ("all the input array dimensions except for the concatenation axis must match "
             "exactly")


def _axis_lines(axis, m):
    """Inline text normalizing `axis` into `ax` for m axes (one function less to compile)."""
    if isinstance(axis, int):
        return f"    ax = {axis + m if axis < 0 else axis}\n"
    return (f"    ax = {axis} + {m} if {axis} < 0 else {axis}\n"
            f"    if ax < 0 or ax >= {m}:\n"
            f"        raise AxisError(\"axis is out of bounds for the array's dimension\")\n")


def _check_lines(x0, x, n, stack, indent):
    """Inline checks that x matches x0 (all axes for a stack, all but ax for a join)."""
    if stack:
        cond = " or ".join(f"{x}.shape[{d}] != {x0}.shape[{d}]" for d in range(n))
        msg = "all input arrays must have the same shape"
    else:
        cond = " or ".join(f"({d} != ax and {x}.shape[{d}] != {x0}.shape[{d}])"
                           for d in range(n))
        msg = _JOIN_MSG
    if not cond:
        return ""
    return f"{indent}if {cond}:\n{indent}    raise ValueError('{msg}')\n"


@functools.lru_cache(maxsize=None)
def _join_impl(params, preps, n, dt, is_list, stack, fixed_axis):
    """The implementation of a join, in one generated function (each function kiln compiles
    costs the first call). params: its parameter list (text); the sequence is its first
    parameter, `seq`. preps: per tuple item (or the list's one item type), None or a view
    function making the item n-d. n: the items' ndim once prepared; stack: a new axis (the
    result has n + 1). fixed_axis: None (the `axis` parameter) or a constant axis."""
    m = n + 1 if stack else n
    if fixed_axis is not None and not -m <= fixed_axis < m:
        raise TypingError(f"axis {fixed_axis} is out of bounds for array of dimension {m}")
    lines = ["def join(" + params + "):\n",
             _axis_lines("axis" if fixed_axis is None else fixed_axis, m)]
    if stack:
        put = "copy_into(out, ins({x}, ax), off * out.strides[ax])\n{i}off += 1\n"
    else:
        put = "copy_into(out, {x}, off * out.strides[ax])\n{i}off += {x}.shape[ax]\n"
    if is_list:
        what = "stack" if stack else "concatenate"
        lines.append("    if len(seq) == 0:\n"
                     f"        raise ValueError('need at least one array to {what}')\n"
                     f"    x0 = {_prep(0, preps[0], 'seq[0]')}\n    tot = 0\n"
                     "    for a in seq:\n"
                     f"        x = {_prep(0, preps[0], 'a')}\n"
                     + _check_lines("x0", "x", n, stack, "        ") +
                     f"        tot += {'1' if stack else 'x.shape[ax]'}\n")
    else:
        k = len(preps)
        for q in range(k):
            lines.append(f"    x{q} = {_prep(q, preps[q], f'seq[{q}]')}\n")
        for q in range(1, k):
            lines.append(_check_lines("x0", f"x{q}", n, stack, "    "))
        tot = str(k) if stack else " + ".join(f"x{q}.shape[ax]" for q in range(k))
        lines.append(f"    tot = {tot}\n")
    if stack and n == 0:
        shape = ["tot"]
    elif stack:
        shape = [f"(tot if ax == {j} else x0.shape[{j} if {j} < ax else {j} - 1])"
                 for j in range(m)]
    else:
        shape = [f"(tot if ax == {j} else x0.shape[{j}])" for j in range(m)]
    lines.append(f"    out = np.empty({_tup(shape)}, _dt)\n    off = 0\n")
    if is_list:
        lines.append(f"    for a in seq:\n        x = {_prep(0, preps[0], 'a')}\n"
                     f"        {put.format(x='x', i='        ')}")
    else:
        for q in range(len(preps)):
            lines.append(f"    {put.format(x=f'x{q}', i='    ')}")
    lines.append("    return out\n")
    env = _prep_env(preps)
    return _gen("".join(lines), "join", _dt=dt, ins=_insert_axis(n) if stack else None, **env)


def _seq_items(fname, seq):
    items = _items(seq)
    if items is None:
        _typing_error(fname, f"arrays must be a tuple or a list of arrays, not {seq}")
    if not items:
        _typing_error(fname, "need at least one array to join")
    for q, t in enumerate(items):
        if not _is_array(t):
            _typing_error(fname, f"the item at index {q} of the sequence must be an array, "
                          f"not {t}")
    return items


def _same_ndim(fname, items, ndims):
    for q in range(1, len(items)):
        if ndims[q] != ndims[0]:
            _typing_error(fname, f"all the input array dimensions except for the concatenation "
                          f"axis must match exactly: all the input arrays must have same number "
                          f"of dimensions, but the array at index 0 has {ndims[0]} dimension(s) "
                          f"and the array at index {q} has {ndims[q]} dimension(s)")


@functools.lru_cache(maxsize=None)
def _flat_concat(items, dt, is_list):
    k = len(items)
    if is_list:
        src = ("def concat(seq, axis=0, out=None, dtype=None, casting=None):\n"
               "    if len(seq) == 0:\n"
               "        raise ValueError('need at least one array to concatenate')\n"
               "    tot = 0\n    for a in seq:\n        tot += a.size\n"
               "    r = np.empty(tot, _dt)\n    off = 0\n"
               "    for a in seq:\n        flat_into(r, off, a)\n"
               "        off += a.size\n    return r\n")
    else:
        lines = ["def concat(seq, axis=0, out=None, dtype=None, casting=None):\n"]
        lines.append(f"    tot = {' + '.join(f'seq[{q}].size' for q in range(k))}\n"
                     "    r = np.empty(tot, _dt)\n    off = 0\n")
        for q in range(k):
            lines.append(f"    flat_into{q}(r, off, seq[{q}])\n"
                         f"    off += seq[{q}].size\n")
        lines.append("    return r\n")
        src = "".join(lines)
    env = {f"flat_into{q}": _flat_into(t.ndim) for q, t in enumerate(items)}
    return _gen(src, "concat", _dt=dt, flat_into=env.get("flat_into0"), **env)


_CONCAT_PARAMS = "seq, axis=0, out=None, dtype=None, casting=None"


@overload(np.concatenate)
def _ov_concatenate(seq, axis=None, out=None, dtype=None, casting=None):
    items = _seq_items("concatenate", seq)
    for what, t in (("out", out), ("dtype", dtype), ("casting", casting)):
        if _given(t):
            _typing_error("concatenate", f"{what}= is not supported in kiln")
    dt = _result_dtype(items)
    is_list = isinstance(seq, types.ListType)
    if axis is not None and isinstance(axis, types.NoneType):
        return _flat_concat(tuple(items), dt, is_list)
    _check_axis_arg("concatenate", axis)
    ndims = [t.ndim for t in items]
    if ndims[0] == 0:
        _typing_error("concatenate", "zero-dimensional arrays cannot be concatenated")
    _same_ndim("concatenate", items, ndims)
    return _join_impl(_CONCAT_PARAMS, (None,) * len(items), ndims[0], dt, is_list, False, None)


@overload(np.stack)
def _ov_stack(arrays, axis=None, out=None, dtype=None, casting=None):
    items = _seq_items("stack", arrays)
    for what, t in (("out", out), ("dtype", dtype), ("casting", casting)):
        if _given(t):
            _typing_error("stack", f"{what}= is not supported in kiln")
    _check_axis_arg("stack", axis)
    ndims = [t.ndim for t in items]
    for q in range(1, len(items)):
        if ndims[q] != ndims[0]:
            _typing_error("stack", "all input arrays must have the same shape")
    dt = _result_dtype(items)
    return _join_impl("seq, axis=0, out=None, dtype=None, casting=None", (None,) * len(items),
                      ndims[0], dt, isinstance(arrays, types.ListType), True, None)


def _stack_family(fname, n, axis_of, ndmin_of):
    """hstack, vstack, dstack, column_stack: each item made at least ndmin_of(ndim)-d (a view),
    then joined along axis_of(n) where n is the common ndim."""

    def typer(tup, dtype=None, casting=None):
        items = _seq_items(fname, tup)
        for what, t in (("dtype", dtype), ("casting", casting)):
            if _given(t):
                _typing_error(fname, f"{what}= is not supported in kiln")
        preps, ndims = [], []
        for t in items:
            nd, p = ndmin_of(t)
            preps.append(p)
            ndims.append(nd)
        _same_ndim(fname, items, ndims)
        dt = _result_dtype(items)
        return _join_impl("seq, dtype=None, casting=None", tuple(preps), ndims[0], dt,
                          isinstance(tup, types.ListType), False, axis_of(ndims[0]))

    return typer


def _atleast_prep(n):
    def prep(t):
        if t.ndim >= n:
            return t.ndim, None
        kind = t.ndim if n != 3 or t.ndim != 2 else 2
        return n, _reshaped(n, kind)

    return prep


def _column_prep(t):
    if t.ndim == 1:
        return 2, _column_view
    return _atleast_prep(2)(t)


@functools.lru_cache(maxsize=None)
def _flat_into(n):
    """fi(r, off, a): a's elements in C order into the 1-d C array r from off."""
    shape = [f"s[{j}]" for j in range(n)]
    strides = ["*".join([f"s[{k}]" for k in range(j + 1, n)] + ["isz"]) for j in range(n)]
    src = (f"def fi(r, off, a):\n    s = a.shape\n    isz = r.strides[0]\n"
           f"    copy_into(as_strided(r[off:], {_tup(shape)}, {_tup(strides)}), a)\n"
           f"    return 0\n")
    return _jitable(src, "fi")


@register_jitable
def _column_view(a):
    return as_strided(a, (a.shape[0], 1), (a.strides[0], 0))


overload(np.hstack)(_stack_family("hstack", 1, lambda n: 0 if n == 1 else 1, _atleast_prep(1)))
overload(np.vstack)(_stack_family("vstack", 2, lambda n: 0, _atleast_prep(2)))
overload(np.dstack)(_stack_family("dstack", 3, lambda n: 2, _atleast_prep(3)))
overload(np.column_stack)(_stack_family("column_stack", 2, lambda n: 1, _column_prep))


@functools.lru_cache(maxsize=None)
def _scalar_as_array(dt):
    def as_array(x):
        return np.full(1, x, dt)

    return register_jitable(as_array)


@functools.lru_cache(maxsize=None)
def _append_impl(arr_kind, val_kind, dt, axis_none, arr_nd=1, val_nd=1):
    def part(kind, name):
        if kind == "scalar":
            return f"np.full(1, {name}, _dt)"
        return name

    if axis_none:
        src = (f"def append(arr, values, axis=None):\n"
               f"    a = {part(arr_kind, 'arr')}\n    v = {part(val_kind, 'values')}\n"
               f"    r = np.empty(a.size + v.size, _dt)\n"
               f"    fa(r, 0, a)\n    fv(r, a.size, v)\n    return r\n")
        return _gen(src, "append", _dt=dt, fa=_flat_into(arr_nd), fv=_flat_into(val_nd))
    src = "def append(arr, values, axis=None):\n    return np.concatenate((arr, values), axis)\n"
    return _gen(src, "append")


def _array_or_scalar(t):
    if _is_array(t):
        return "array"
    if isinstance(t, (types.Number, types.Boolean)):
        return "scalar"
    return None


@overload(np.append)
def _ov_append(arr, values, axis=None):
    ka, kv = _array_or_scalar(arr), _array_or_scalar(values)
    if ka is None or kv is None:
        _typing_error("append", f"arr and values must be arrays or numbers, not {arr} and "
                      f"{values}")
    dt = _result_dtype([arr, values])
    if not _given(axis):
        return _append_impl(ka, kv, dt, True, arr.ndim if ka == "array" else 1,
                            values.ndim if kv == "array" else 1)
    _check_axis_arg("append", axis)
    if ka != "array" or kv != "array" or arr.ndim != values.ndim:
        _typing_error("append", "with an axis, arr and values must be arrays of the same number "
                      "of dimensions")
    return _append_impl(ka, kv, dt, False)


# ---- splitting: split, array_split, hsplit, vsplit, dsplit ----------------------------------


@functools.lru_cache(maxsize=None)
def _cut(n):
    """cut(a, lo, hi, ax): a[..., lo:hi, ...] at axis ax, an 'A' view."""
    lines = ["def cut(a, lo, hi, ax):\n"]
    for d in range(n):
        lines.append(f"    if ax == {d}:\n        return _view(a[{_colons(d)}lo:hi])\n")
    lines.append("    return _view(a)\n")
    return _jitable("".join(lines), "cut")


@functools.lru_cache(maxsize=None)
def _split_impl(n, how, equal, fixed_axis, name):
    """how: 'int' (a number of sections) or 'seq' (indices: a tuple, list or 1-d array)."""
    axis = "axis" if fixed_axis is None else str(fixed_axis)
    params = "ary, indices_or_sections, axis=0" if fixed_axis is None else \
        "ary, indices_or_sections"
    lines = [f"def split({params}):\n    ax = _axis({axis}, {n})\n    N = ary.shape[ax]\n"
             "    r = [cut(ary, 0, 0, ax)]\n    r.pop()\n"]
    if how == "int":
        lines.append("    sections = indices_or_sections\n")
        if equal:  # NumPy's split takes N % sections first (0: ZeroDivisionError)
            lines.append("    if N % sections != 0:\n"
                         "        raise ValueError('array split does not result in an equal "
                         "division')\n")
        lines.append("    if sections <= 0:\n"
                     "        raise ValueError('number sections must be larger than 0.')\n")
        lines.append("    each = N // sections\n    extras = N % sections\n    lo = 0\n"
                     "    for q in range(sections):\n"
                     "        hi = lo + each + (1 if q < extras else 0)\n"
                     "        r.append(cut(ary, lo, hi, ax))\n        lo = hi\n")
    else:
        lines.append("    idx = indices_or_sections\n    lo = 0\n"
                     "    for q in range(len(idx)):\n"
                     "        hi = idx[q]\n"
                     "        r.append(cut(ary, lo, hi, ax))\n        lo = hi\n"
                     "    r.append(cut(ary, lo, N, ax))\n")
    lines.append("    return r\n")
    return _gen("".join(lines), "split", cut=_cut(n))


def _split_typer(fname, equal, fixed_axis=None, min_ndim=1):
    def typer(ary, indices_or_sections, axis=None):
        if not _is_array(ary):
            return None
        if ary.ndim < min_ndim:
            _typing_error(fname, f"{fname} only works on arrays of {min_ndim} or more "
                          f"dimensions")
        ios = indices_or_sections
        if isinstance(ios, types.Integer):
            how = "int"
        elif (_int_tuple(ios) or (isinstance(ios, types.ListType) and
                                  isinstance(ios.dtype, types.Integer)) or
              (_is_array(ios) and ios.ndim == 1 and isinstance(ios.dtype, types.Integer))):
            how = "seq"
        else:
            _typing_error(fname, f"indices_or_sections must be an int or a sequence of ints, "
                          f"not {ios}")
        fa = fixed_axis(ary.ndim) if callable(fixed_axis) else fixed_axis
        if fa is None:
            _check_axis_arg(fname, axis)
        return _split_impl(ary.ndim, how, equal, fa, fname)

    return typer


overload(np.split)(_split_typer("split", True))
overload(np.array_split)(_split_typer("array_split", False))


def _fixed_split_typer(fname, axis_of, min_ndim):
    t = _split_typer(fname, True, axis_of, min_ndim)
    return lambda ary, indices_or_sections: t(ary, indices_or_sections)


overload(np.hsplit)(_fixed_split_typer("hsplit", lambda n: 1 if n > 1 else 0, 1))
overload(np.vsplit)(_fixed_split_typer("vsplit", 0, 2))
overload(np.dsplit)(_fixed_split_typer("dsplit", 2, 3))


# ---- tile, repeat, roll, resize --------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _tile_impl(n, r, is_int, dt):
    d = max(n, r)
    lines = ["def tile(A, reps):\n"]
    if is_int:
        lines.append("    rs = (reps,)\n")
    else:
        lines.append("    rs = reps\n")
    lines.append("    s = A.shape\n    t = A.strides\n")
    big_shape, big_strides, shape = [], [], []
    for j in range(d):
        i, k = j - (d - n), j - (d - r)
        sj, tj = (f"s[{i}]", f"t[{i}]") if i >= 0 else ("1", "0")
        rj = f"rs[{k}]" if k >= 0 else "1"
        lines.append(f"    r{j} = {rj}\n"
                     f"    if r{j} < 0:\n"
                     f"        raise ValueError('negative dimensions are not allowed')\n")
        big_shape += [f"r{j}", sj]
        big_strides += ["0", tj]
        shape.append(f"r{j} * {sj}")
    lines.append(f"    src = as_strided(A, {_tup(big_shape)}, {_tup(big_strides)})\n"
                 f"    out = np.empty({_tup(big_shape)}, _dt)\n"
                 f"    copy_into(out, src)\n"
                 f"    return out.reshape({_tup(shape)})\n")
    return _gen("".join(lines), "tile", _dt=dt)


@overload(np.tile)
def _ov_tile(A, reps):
    if not _is_array(A):
        _typing_error("tile", f"A must be an array in kiln, not {A}")
    if isinstance(reps, types.Integer):
        r, is_int = 1, True
    elif _int_tuple(reps):
        r, is_int = len(reps), False
    else:
        _typing_error("tile", f"reps must be an int or a tuple of ints, not {reps}")
    if max(A.ndim, r) > _MAX_NDIM:
        _typing_error("tile", f"at most {_MAX_NDIM} dimensions in kiln")
    return _tile_impl(A.ndim, r, is_int, _np_dtype(A.dtype).type)


@register_jitable
def _repeat_counts(repeats, n):
    """The repeat count of each of n items as an int64 array."""
    c = np.empty(n, np.int64)
    if repeats.size == 1:
        v = repeats[0]
        if v < 0:
            raise ValueError("negative dimensions are not allowed")
        c[:] = v
        return c
    if repeats.size != n:
        raise ValueError("operands could not be broadcast together with shape")
    for i in range(n):
        if repeats[i] < 0:
            raise ValueError("repeats may not contain negative values.")
        c[i] = repeats[i]
    return c


@functools.lru_cache(maxsize=None)
def _repeat_impl(n, scalar_reps, axis_none, dt):
    conv = "np.full(1, repeats, np.int64)" if scalar_reps else "repeats.ravel()"
    if axis_none:
        src = (f"def repeat(a, repeats, axis=None):\n"
               f"    f = a.ravel()\n    c = _counts({conv}, f.size)\n"
               f"    r = np.empty(c.sum(), _dt)\n    k = 0\n"
               f"    for i in range(f.size):\n"
               f"        v = f[i]\n"
               f"        for _ in range(c[i]):\n            r[k] = v\n            k += 1\n"
               f"    return r\n")
        return _gen(src, "repeat", _dt=dt, _counts=_repeat_counts)
    shape = [f"(tot if ax == {j} else a.shape[{j}])" for j in range(n)]
    src = (f"def repeat(a, repeats, axis=None):\n"
           f"    ax = _axis(axis, {n})\n"
           f"    N = a.shape[ax]\n    c = _counts({conv}, N)\n    tot = c.sum()\n"
           f"    out = np.empty({_tup(shape)}, _dt)\n    k = 0\n"
           f"    for i in range(N):\n"
           f"        x = cut(a, i, i + 1, ax)\n"
           f"        for _ in range(c[i]):\n            k = put(out, x, k, ax)\n"
           f"    return out\n")
    return _gen(src, "repeat", _dt=dt, _counts=_repeat_counts, cut=_cut(n), put=_put(n))


def _repeat_typer(a, repeats, axis=None):
    if not _is_array(a):
        return None
    if isinstance(repeats, types.Integer):
        scalar = True
    elif _is_array(repeats) and repeats.ndim <= 1 and isinstance(repeats.dtype, types.Integer):
        scalar = False
    else:
        _typing_error("repeat", f"repeats must be an int or an array of ints, not {repeats}")
    dt = _np_dtype(a.dtype).type
    if not _given(axis) or a.ndim == 0:
        return _repeat_impl(a.ndim, scalar, True, dt)
    _check_axis_arg("repeat", axis)
    return _repeat_impl(a.ndim, scalar, False, dt)


overload(np.repeat)(_repeat_typer)
overload_method(types.Array, "repeat")(_repeat_typer)


@functools.lru_cache(maxsize=None)
def _roll_axis(n):
    """roll1(out, a, shift, ax): out = a rolled by shift along axis ax."""
    lines = ["def roll1(out, a, shift, ax):\n    N = a.shape[ax]\n"
             "    if N == 0:\n        return 0\n    s = shift % N\n"]
    for d in range(n):
        c = _colons(d)
        lines.append(f"    if ax == {d}:\n"
                     f"        copy_into(out[{c}s:], a[{c}:N - s])\n"
                     f"        copy_into(out[{c}:s], a[{c}N - s:])\n")
    lines.append("    return 0\n")
    return _jitable("".join(lines), "roll1")


@functools.lru_cache(maxsize=None)
def _roll_impl(n, how, dt):
    if how == "none":
        src = ("def roll(a, shift, axis=None):\n"
               "    f = a.ravel()\n    r = np.empty(f.size, _dt)\n"
               "    N = f.size\n"
               "    if N > 0:\n"
               "        s = shift % N\n        copy_into(r[s:], f[:N - s])\n"
               "        copy_into(r[:s], f[N - s:])\n"
               "    return r.reshape(a.shape)\n")
        return _gen(src, "roll", _dt=dt)
    if how == "int":
        src = (f"def roll(a, shift, axis=None):\n"
               f"    out = np.empty(a.shape, _dt)\n"
               f"    roll1(out, a, shift, _axis(axis, {n}))\n    return out\n")
        return _gen(src, "roll", _dt=dt, roll1=_roll_axis(n))
    k = how
    # tuples: shifts summed per axis (NumPy broadcasts shift and axis), then one roll per axis
    src = (f"def roll(a, shift, axis=None):\n"
           f"    sh = np.zeros({n}, np.int64)\n"
           f"    for q in range({k}):\n"
           f"        sh[_axis(axis[q], {n})] += shift[q]\n"
           f"    cur = a.copy()\n"
           f"    for d in range({n}):\n"
           f"        if sh[d] != 0:\n"
           f"            nxt = np.empty(a.shape, _dt)\n"
           f"            roll1(nxt, cur, sh[d], d)\n            cur = nxt\n"
           f"    return cur\n")
    return _gen(src, "roll", _dt=dt, roll1=_roll_axis(n))


@overload(np.roll)
def _ov_roll(a, shift, axis=None):
    if not _is_array(a):
        return None
    dt = _np_dtype(a.dtype).type
    if not _given(axis):
        if not isinstance(shift, types.Integer):
            _typing_error("roll", f"shift must be an int when axis is None, not {shift}")
        return _roll_impl(a.ndim, "none", dt)
    if isinstance(axis, types.Integer) and isinstance(shift, types.Integer):
        if a.ndim == 0:
            _typing_error("roll", "axis 0 is out of bounds for array of dimension 0")
        return _roll_impl(a.ndim, "int", dt)
    if _int_tuple(axis) and _int_tuple(shift):
        if len(axis) != len(shift):
            _typing_error("roll", "'shift' and 'axis' should be scalars or 1D sequences")
        return _roll_impl(a.ndim, len(axis), dt)
    _typing_error("roll", f"shift and axis must be ints or tuples of ints of one length, not "
                  f"{shift} and {axis}")


@functools.lru_cache(maxsize=None)
def _resize_impl(n_out, is_int, dt):
    lines = ["def resize(a, new_shape):\n"]
    if is_int:
        lines.append("    shp = (new_shape,)\n")
    else:
        lines.append("    shp = new_shape\n")
    lines.append("    total = 1\n"
                 f"    for d in range({n_out}):\n"
                 "        if shp[d] < 0:\n"
                 "            raise ValueError('all elements of `new_shape` must be "
                 "non-negative')\n"
                 "        total *= shp[d]\n"
                 "    f = a.ravel()\n    r = np.empty(total, _dt)\n"
                 "    if f.size == 0:\n        r[:] = 0\n"
                 "    else:\n"
                 "        for i in range(total):\n            r[i] = f[i % f.size]\n"
                 "    return r.reshape(shp)\n")
    return _gen("".join(lines), "resize", _dt=dt)


@overload(np.resize)
def _ov_resize(a, new_shape):
    if not _is_array(a):
        _typing_error("resize", f"a must be an array in kiln, not {a}")
    if isinstance(new_shape, types.Integer):
        return _resize_impl(1, True, _np_dtype(a.dtype).type)
    if _int_tuple(new_shape):
        return _resize_impl(len(new_shape), False, _np_dtype(a.dtype).type)
    _typing_error("resize", f"new_shape must be an int or a tuple of ints, not {new_shape}")


# ---- insert, delete, trim_zeros --------------------------------------------------------------


@register_jitable
def _index_in(obj, N, axis):
    i = obj + N if obj < 0 else obj
    if i < 0 or i > N:
        raise IndexError("index is out of bounds for the axis")
    return i


@functools.lru_cache(maxsize=None)
def _insert_impl(n, val_kind, dt, axis_none):
    v = "np.full(1, values, _dt)" if val_kind == "scalar" else "values"
    if axis_none or n == 1:
        src = (f"def insert(arr, obj, values, axis=None):\n"
               f"    f = arr.ravel()\n    v = {v}.ravel()\n"
               + ("" if axis_none else f"    _axis(axis, 1)\n") +
               f"    i = _index_in(obj, f.size, 0)\n"
               f"    r = np.empty(f.size + v.size, _dt)\n"
               f"    copy_into(r[:i], f[:i])\n    copy_into(r[i:i + v.size], v)\n"
               f"    copy_into(r[i + v.size:], f[i:])\n"
               f"    return r\n")
        return _gen(src, "insert", _dt=dt, _index_in=_index_in)
    # one new slice along axis; values broadcast to it (a 1-d values along the last other axis)
    shape = [f"(N + 1 if ax == {j} else arr.shape[{j}])" for j in range(n)]
    lines = [f"def insert(arr, obj, values, axis=None):\n"
             f"    ax = _axis(axis, {n})\n    N = arr.shape[ax]\n"
             f"    i = _index_in(obj, N, axis)\n"
             f"    out = np.empty({_tup(shape)}, _dt)\n"
             f"    put(out, cut(arr, 0, i, ax), 0, ax)\n"
             f"    put(out, cut(arr, i, N, ax), i + 1, ax)\n"
             f"    slot = cut(out, i, i + 1, ax)\n"]
    if val_kind == "scalar":
        lines.append("    slot[...] = values\n")
    else:
        # NumPy: values as an n-d array (ones prepended), its first axis moved to ax
        lines.append("    L = values.shape[0]\n"
                     f"    want = arr.shape[{n - 1}] if ax != {n - 1} else arr.shape[{n - 2}]\n"
                     "    if L != 1 and L != want:\n"
                     "        raise ValueError('could not broadcast input array into the "
                     "inserted slice')\n"
                     "    copy_into(slot, vw(values, ax))\n")
    lines.append("    return out\n")
    return _gen("".join(lines), "insert", _dt=dt, _index_in=_index_in, put=_put(n),
                cut=_cut(n), vw=_insert_values_view(n))


@functools.lru_cache(maxsize=None)
def _insert_values_view(n):
    """vw(v, ax): a 1-d v as NumPy's insert sees it for an n-d arr: (1, ..., 1, L) with the
    first axis moved to ax."""
    # positions: the L axis is at n - 1, unless ax == n - 1 (then at n - 2)
    shp = [f"(v.shape[0] if {j} == ({n - 2} if ax == {n - 1} else {n - 1}) else 1)"
           for j in range(n)]
    strd = [f"(v.strides[0] if {j} == ({n - 2} if ax == {n - 1} else {n - 1}) else 0)"
            for j in range(n)]
    src = f"def vw(v, ax):\n    return as_strided(v, {_tup(shp)}, {_tup(strd)})\n"
    return _jitable(src, "vw")


@overload(np.insert)
def _ov_insert(arr, obj, values, axis=None):
    if not _is_array(arr):
        _typing_error("insert", f"arr must be an array in kiln, not {arr}")
    if not isinstance(obj, types.Integer):
        _typing_error("insert", f"obj must be an int in kiln, not {obj}")
    kv = _array_or_scalar(values)
    if kv is None or (kv == "array" and values.ndim > 1):
        _typing_error("insert", f"values must be a number or a 1-d array in kiln, not {values}")
    dt = _np_dtype(arr.dtype).type
    if not _given(axis):
        return _insert_impl(arr.ndim, kv, dt, True)
    _check_axis_arg("insert", axis)
    if arr.ndim == 0:
        _typing_error("insert", "axis 0 is out of bounds for array of dimension 0")
    return _insert_impl(arr.ndim, kv, dt, False)


@functools.lru_cache(maxsize=None)
def _delete_impl(n, obj_kind, dt, axis_none):
    lines = ["def delete(arr, obj, axis=None):\n"]
    if axis_none:
        lines.append("    a = arr.ravel()\n    ax = 0\n    axis = 0\n")
        m = 1
    else:
        lines.append(f"    a = arr\n    ax = _axis(axis, {n})\n")
        m = n
    lines.append("    N = a.shape[ax]\n    keep = np.ones(N, np.bool_)\n")
    if obj_kind == "int":
        lines.append("    i = obj + N if obj < 0 else obj\n"
                     "    if i < 0 or i >= N:\n"
                     "        raise IndexError('index is out of bounds for the axis')\n"
                     "    keep[i] = False\n")
    elif obj_kind == "bool":
        lines.append("    if obj.size != N:\n"
                     "        raise ValueError('boolean array argument obj to delete must be "
                     "one dimensional and match the axis length')\n"
                     "    for q in range(N):\n        keep[q] = not obj[q]\n")
    else:
        lines.append("    for q in range(len(obj)):\n"
                     "        o = obj[q]\n        i = o + N if o < 0 else o\n"
                     "        if i < 0 or i >= N:\n"
                     "            raise IndexError('index is out of bounds for the axis')\n"
                     "        keep[i] = False\n")
    shape = [f"(cnt if ax == {j} else a.shape[{j}])" for j in range(m)]
    lines.append(f"    cnt = keep.sum()\n    out = np.empty({_tup(shape)}, _dt)\n    k = 0\n"
                 f"    lo = 0\n"
                 f"    while lo < N:\n"
                 f"        if not keep[lo]:\n            lo += 1\n            continue\n"
                 f"        hi = lo\n"
                 f"        while hi < N and keep[hi]:\n            hi += 1\n"
                 f"        k = put(out, cut(a, lo, hi, ax), k, ax)\n        lo = hi\n"
                 f"    return out\n")
    return _gen("".join(lines), "delete", _dt=dt, put=_put(m), cut=_cut(m))


@overload(np.delete)
def _ov_delete(arr, obj, axis=None):
    if not _is_array(arr):
        _typing_error("delete", f"arr must be an array in kiln, not {arr}")
    if isinstance(obj, types.Integer):
        kind = "int"
    elif _is_array(obj) and obj.ndim == 1 and isinstance(obj.dtype, types.Boolean):
        kind = "bool"
    elif (_int_tuple(obj) or (_is_array(obj) and obj.ndim == 1 and
                              isinstance(obj.dtype, types.Integer)) or
          (isinstance(obj, types.ListType) and isinstance(obj.dtype, types.Integer))):
        kind = "seq"
    else:
        _typing_error("delete", f"obj must be an int, a sequence of ints or a boolean array "
                      f"in kiln, not {obj}")
    dt = _np_dtype(arr.dtype).type
    if not _given(axis) or arr.ndim == 0:
        return _delete_impl(arr.ndim, kind, dt, True)
    _check_axis_arg("delete", axis)
    return _delete_impl(arr.ndim, kind, dt, False)


@functools.lru_cache(maxsize=None)
def _trim_impl(front, back):
    src = ("def trim_zeros(filt, trim='fb', axis=None):\n"
           "    n = filt.shape[0]\n    lo = 0\n    hi = n\n")
    if front:
        src += "    while lo < n and filt[lo] == 0:\n        lo += 1\n"
    if back:
        src += "    while hi > lo and filt[hi - 1] == 0:\n        hi -= 1\n"
    src += "    if lo >= hi:\n        return _view(filt[0:0])\n    return _view(filt[lo:hi])\n"
    return _gen(src, "trim_zeros")


@overload(np.trim_zeros)
def _ov_trim_zeros(filt, trim=None, axis=None):
    if not (_is_array(filt) and filt.ndim == 1):
        _typing_error("trim_zeros", f"filt must be a 1-d array in kiln, not {filt}")
    if _given(axis):
        _typing_error("trim_zeros", "axis= is not supported in kiln")
    mode = "fb"
    if _given(trim):
        if not isinstance(trim, types.StringLiteral):
            _typing_error("trim_zeros", f"trim must be a constant str, not {trim}")
        mode = trim.literal_value.lower()
    front, back = "f" in mode, "b" in mode
    return _trim_impl(front, back)
