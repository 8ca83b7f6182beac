"""The indexing functions of NumPy, written in kiln's subset over its advanced indexing
(``a[idx]``, ``a[mask]`` and their assignments: typing/arrays.c, lower/index.c,
runtime/fancy.c).

- ``np.take(a, indices, axis=None)`` and ``a.take``: ``axis`` None (the flattened array) or an
  int for arrays of 1 to 3 dimensions; ``indices`` an int or an integer array.
- ``np.put(a, ind, v)``: C-contiguous or 1-d ``a``; ``v`` repeats when shorter (mode 'raise').
- ``np.take_along_axis(arr, indices, axis)``: ``indices`` of arr's ndim (1 to 3), broadcast as
  NumPy does; ``axis=None`` takes from the flattened array.
- ``np.flatnonzero``, ``np.argwhere``, ``np.extract``, ``np.place``, ``np.select``,
  ``np.choose`` (``mode='raise'``).
- ``np.ndindex(*shape)`` / ``np.ndindex(shape)``, ``np.ndenumerate(a)`` and ``np.nditer(a)``
  (one operand: 0-d views of its elements in memory order, C or F) for 1 to 4 dimensions;
  generators.
- ``a.flat``: a 1-d view of a C-contiguous (or 1-d) array, so that iterating, ``a.flat[i]``,
  ``a.flat[idx]`` and ``a.flat[i] = v`` behave as NumPy's flatiter.
"""

import functools
import linecache

import numpy as np
from numpy.exceptions import AxisError

from ..errors import TypingError
from ..extending import overload, overload_attribute, overload_method, register_jitable, types

_MAX_NDIM = 4


def _given(t):
    return t is not None and not isinstance(t, types.NoneType)


def _is_int(t):
    return isinstance(t, (types.Integer, types.Boolean)) and not isinstance(t, types.Boolean)


def _int_array(t):
    return isinstance(t, types.Array) and isinstance(t.dtype, types.Integer)


def _numeric_array(t):
    return isinstance(t, types.Array) and isinstance(t.dtype, (types.Number, types.Boolean))


@register_jitable
def _norm_axis(axis, ndim):
    ax = axis + ndim if axis < 0 else axis
    if ax < 0 or ax >= ndim:
        raise AxisError("axis is out of bounds for the array's dimension")
    return ax


# ---- np.take, a.take ------------------------------------------------------------------------


def _take_flat(a, indices, axis=None, out=None, mode=None):
    return a.ravel()[indices]


def _take1(a, indices, axis=None, out=None, mode=None):
    _norm_axis(axis, 1)
    return a[indices]


def _take2(a, indices, axis=None, out=None, mode=None):
    ax = _norm_axis(axis, 2)
    if ax == 0:
        return a[indices]
    return a[:, indices]


def _take3(a, indices, axis=None, out=None, mode=None):
    ax = _norm_axis(axis, 3)
    if ax == 0:
        return a[indices]
    if ax == 1:
        return a[:, indices]
    return a[:, :, indices]


def _take2_scalar(a, indices, axis=None, out=None, mode=None):
    ax = _norm_axis(axis, 2)
    if ax == 0:
        return a[indices].copy()
    return a[:, indices].copy()


def _take3_scalar(a, indices, axis=None, out=None, mode=None):
    ax = _norm_axis(axis, 3)
    if ax == 0:
        return a[indices].copy()
    if ax == 1:
        return a[:, indices].copy()
    return a[:, :, indices].copy()


def _take_typer(name):
    def typer(a, indices, axis=None, out=None, mode=None):
        if not _numeric_array(a):
            return None
        if _given(out) or _given(mode):
            raise TypingError(f"{name}(): out= and mode= are not supported in kiln yet")
        if not (_int_array(indices) or isinstance(indices, types.Integer)):
            raise TypingError(f"{name}(): indices must be an int or an integer array, "
                              f"not {indices}")
        if not _given(axis):
            return _take_flat
        if not isinstance(axis, types.Integer):
            raise TypingError(f"{name}(): axis must be None or an int, not {axis}")
        scalar = isinstance(indices, types.Integer)
        if a.ndim == 1:
            return _take1
        if a.ndim == 2:
            return _take2_scalar if scalar else _take2
        if a.ndim == 3:
            return _take3_scalar if scalar else _take3
        raise TypingError(f"{name}(): axis= is supported for arrays of 1 to 3 dimensions in "
                          f"kiln, not {a.ndim}")

    return typer


overload(np.take)(_take_typer("np.take"))
overload_method(types.Array, "take")(_take_typer("a.take"))


# ---- np.put ---------------------------------------------------------------------------------


def _put_impl(a, ind, v, mode=None):
    f = a.ravel()
    n = f.size
    iv = np.asarray(ind).ravel()
    vv = np.asarray(v).ravel()
    nv = vv.size
    if nv == 0:
        return None
    for k in range(iv.size):
        i = iv[k]
        j = i + n if i < 0 else i
        if j < 0 or j >= n:
            raise IndexError("index out of range for array")
        f[j] = vv[k % nv]
    return None


def _put_1d(a, ind, v, mode=None):
    n = a.size
    iv = np.asarray(ind).ravel()
    vv = np.asarray(v).ravel()
    nv = vv.size
    if nv == 0:
        return None
    for k in range(iv.size):
        i = iv[k]
        j = i + n if i < 0 else i
        if j < 0 or j >= n:
            raise IndexError("index out of range for array")
        a[j] = vv[k % nv]
    return None


@overload(np.put)
def _put_typer(a, ind, v, mode=None):
    if not _numeric_array(a):
        return None
    if _given(mode):
        raise TypingError("np.put(): mode= is not supported in kiln yet")
    if not (_int_array(ind) or isinstance(ind, types.Integer)):
        raise TypingError(f"np.put(): ind must be an int or an integer array, not {ind}")
    if not (_numeric_array(v) or isinstance(v, (types.Number, types.Boolean))):
        raise TypingError(f"np.put(): v must be a number or an array, not {v}")
    if a.ndim == 1:
        return _put_1d
    if a.layout != "C":
        raise TypingError("np.put(): kiln writes into C-contiguous or 1-d arrays only, "
                          f"not {a}")
    return _put_impl


# ---- np.take_along_axis ---------------------------------------------------------------------


@register_jitable
def _bdim(x, y):
    if x == y or y == 1:
        return x
    if x == 1:
        return y
    raise ValueError("shape mismatch: indexing arrays could not be broadcast together")


@register_jitable
def _wrap(i, n):
    j = i + n if i < 0 else i
    if j < 0 or j >= n:
        raise IndexError("index is out of bounds for the axis of take_along_axis")
    return j


def _tal_flat(arr, indices, axis):
    return arr.ravel()[indices]


def _tal1(arr, indices, axis):
    _norm_axis(axis, 1)
    return arr[indices]


def _tal2(arr, indices, axis):
    ax = _norm_axis(axis, 2)
    n0 = indices.shape[0] if ax == 0 else _bdim(arr.shape[0], indices.shape[0])
    n1 = indices.shape[1] if ax == 1 else _bdim(arr.shape[1], indices.shape[1])
    out = np.empty((n0, n1), arr.dtype)
    a0 = 1 if arr.shape[0] != 1 else 0
    a1 = 1 if arr.shape[1] != 1 else 0
    i0 = 1 if indices.shape[0] != 1 else 0
    i1 = 1 if indices.shape[1] != 1 else 0
    for i in range(n0):
        for j in range(n1):
            k = indices[i * i0, j * i1]
            if ax == 0:
                out[i, j] = arr[_wrap(k, arr.shape[0]), j * a1]
            else:
                out[i, j] = arr[i * a0, _wrap(k, arr.shape[1])]
    return out


def _tal3(arr, indices, axis):
    ax = _norm_axis(axis, 3)
    n0 = indices.shape[0] if ax == 0 else _bdim(arr.shape[0], indices.shape[0])
    n1 = indices.shape[1] if ax == 1 else _bdim(arr.shape[1], indices.shape[1])
    n2 = indices.shape[2] if ax == 2 else _bdim(arr.shape[2], indices.shape[2])
    out = np.empty((n0, n1, n2), arr.dtype)
    a0 = 1 if arr.shape[0] != 1 else 0
    a1 = 1 if arr.shape[1] != 1 else 0
    a2 = 1 if arr.shape[2] != 1 else 0
    i0 = 1 if indices.shape[0] != 1 else 0
    i1 = 1 if indices.shape[1] != 1 else 0
    i2 = 1 if indices.shape[2] != 1 else 0
    for i in range(n0):
        for j in range(n1):
            for m in range(n2):
                k = indices[i * i0, j * i1, m * i2]
                if ax == 0:
                    out[i, j, m] = arr[_wrap(k, arr.shape[0]), j * a1, m * a2]
                elif ax == 1:
                    out[i, j, m] = arr[i * a0, _wrap(k, arr.shape[1]), m * a2]
                else:
                    out[i, j, m] = arr[i * a0, j * a1, _wrap(k, arr.shape[2])]
    return out


@overload(np.take_along_axis)
def _tal_typer(arr, indices, axis):
    if not _numeric_array(arr):
        return None
    if not _int_array(indices):
        raise TypingError(f"np.take_along_axis(): indices must be an integer array, "
                          f"not {indices}")
    if not _given(axis):
        if indices.ndim != 1:
            raise TypingError("np.take_along_axis(): with axis=None, indices must be 1-d")
        return _tal_flat
    if not isinstance(axis, types.Integer):
        raise TypingError(f"np.take_along_axis(): axis must be None or an int, not {axis}")
    if indices.ndim != arr.ndim:
        raise TypingError("np.take_along_axis(): `indices` and `arr` must have the same "
                          f"number of dimensions ({indices.ndim} and {arr.ndim})")
    impl = {1: _tal1, 2: _tal2, 3: _tal3}.get(arr.ndim)
    if impl is None:
        raise TypingError("np.take_along_axis(): arrays of 1 to 3 dimensions in kiln, "
                          f"not {arr.ndim}")
    return impl


# ---- nonzero and its relatives ----------------------------------------------------------------


def _flatnonzero(a):
    return np.nonzero(a.ravel())[0]


@overload(np.flatnonzero)
def _flatnonzero_typer(a):
    if _numeric_array(a):
        return _flatnonzero
    raise TypingError(f"np.flatnonzero(): needs an array, not {a}")


def _argwhere(a):
    nz = np.nonzero(a)
    n = nz[0].size
    out = np.empty((n, a.ndim), np.int64)
    for k in range(a.ndim):
        out[:, k] = nz[k]
    return out


@overload(np.argwhere)
def _argwhere_typer(a):
    if _numeric_array(a) and a.ndim >= 1:
        return _argwhere
    raise TypingError(f"np.argwhere(): needs an array of at least one dimension, not {a}")


def _extract(condition, arr):
    return arr.ravel()[np.nonzero(condition.ravel())[0]]


@overload(np.extract)
def _extract_typer(condition, arr):
    if not _numeric_array(condition):
        raise TypingError(f"np.extract(): condition must be an array, not {condition}")
    if not _numeric_array(arr):
        raise TypingError(f"np.extract(): arr must be an array, not {arr}")
    return _extract


def _place(arr, mask, vals):
    m = mask.ravel() != 0
    if m.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    v = np.asarray(vals).ravel()
    count = 0
    for i in range(m.size):
        if m[i]:
            count += 1
    if count == 0:
        return None
    if v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    fill = np.empty(count, arr.dtype)
    for i in range(count):
        fill[i] = v[i % v.size]
    arr[mask != 0] = fill
    return None


@overload(np.place)
def _place_typer(arr, mask, vals):
    if not _numeric_array(arr):
        raise TypingError(f"np.place(): arr must be an array, not {arr}")
    if not _numeric_array(mask) or mask.ndim != arr.ndim:
        raise TypingError(f"np.place(): mask must be an array of arr's shape, not {mask}")
    if not (_numeric_array(vals) or isinstance(vals, (types.Number, types.Boolean))):
        raise TypingError(f"np.place(): vals must be a number or an array, not {vals}")
    return _place


# ---- np.select, np.choose -------------------------------------------------------------------


def _seq_items(t):
    if isinstance(t, types.BaseTuple):
        return list(t.types) if hasattr(t, "types") else None
    if isinstance(t, types.ListType):
        return [t.dtype]
    return None


def _dtype_of(t):
    if isinstance(t, types.Array):
        return t.dtype
    return t


def _np_dtype(t):
    return np.dtype(str(t)) if not isinstance(t, types.Boolean) else np.dtype(bool)


_gen_counter = [0]


def _generated(name, src, env):
    """A function compiled from generated source (kiln reads its text through linecache)."""
    _gen_counter[0] += 1
    filename = f"<kiln.lib.indexing {name} {_gen_counter[0]}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    env = dict(env, np=np)
    exec(compile(src, filename, "exec"), env)
    return env[name]


@functools.lru_cache(maxsize=None)
def _select_loop(rt):
    def select(condlist, choicelist, default=0):
        n = len(condlist)
        if n != len(choicelist):
            raise ValueError("list of cases must be same length as list of conditions")
        out = np.where(condlist[n - 1], choicelist[n - 1], rt(default))
        for k in range(n - 2, -1, -1):
            out = np.where(condlist[k], choicelist[k], out)
        return out.astype(rt)

    return select


@functools.lru_cache(maxsize=None)
def _select_unrolled(rt, n, m):
    """select over tuples of n conditions and m choices: one name per step (their types may
    differ), constant tuple indices"""
    lines = ["def select(condlist, choicelist, default=0):"]
    if n != m:
        lines.append("    raise ValueError('list of cases must be same length as list of "
                     "conditions')")
    else:
        lines.append(f"    o{n - 1} = np.where(condlist[{n - 1}], choicelist[{n - 1}], "
                     "rt(default))")
        for k in range(n - 2, -1, -1):
            lines.append(f"    o{k} = np.where(condlist[{k}], choicelist[{k}], o{k + 1})")
        lines.append("    return o0.astype(rt)")
    return _generated("select", "\n".join(lines) + "\n", {"rt": rt})


@overload(np.select)
def _select_typer(condlist, choicelist, default=None):
    conds, choices = _seq_items(condlist), _seq_items(choicelist)
    if not conds or not choices:
        raise TypingError("np.select(): condlist and choicelist must be non-empty lists or "
                          "tuples of arrays")
    for c in conds:
        if not (isinstance(c, types.Array) and isinstance(c.dtype, types.Boolean)):
            raise TypingError(f"np.select(): conditions must be boolean arrays, not {c}")
    for c in choices:
        if not (_numeric_array(c) or isinstance(c, (types.Number, types.Boolean))):
            raise TypingError(f"np.select(): choices must be arrays or numbers, not {c}")
    parts = [_np_dtype(_dtype_of(c)) for c in choices]
    if _given(default):
        if not isinstance(default, (types.Number, types.Boolean)):
            raise TypingError(f"np.select(): default must be a number, not {default}")
        # a Python scalar default is weak (NumPy 2): it does not widen the choices' dtype
        if not choices or isinstance(default, types.Complex):
            parts.append(_np_dtype(default))
    rt = np.result_type(*parts).type
    if isinstance(condlist, types.BaseTuple) and isinstance(choicelist, types.BaseTuple):
        return _select_unrolled(rt, len(condlist), len(choicelist))
    return _select_loop(rt)


@functools.lru_cache(maxsize=None)
def _choose_loop(rt):
    def choose(a, choices, out=None, mode=None):
        n = len(choices)
        if (a < 0).any() or (a >= n).any():
            raise ValueError("invalid entry in choice array")
        r = np.where(a == n - 1, choices[n - 1], choices[0])
        for k in range(1, n - 1):
            r = np.where(a == k, choices[k], r)
        return r.astype(rt)

    return choose


@functools.lru_cache(maxsize=None)
def _choose_unrolled(rt, n):
    lines = ["def choose(a, choices, out=None, mode=None):",
             f"    if (a < 0).any() or (a >= {n}).any():",
             "        raise ValueError('invalid entry in choice array')",
             f"    r{n - 1} = np.where(a == {n - 1}, choices[{n - 1}], choices[0])"]
    for k in range(n - 2, 0, -1):
        lines.append(f"    r{k} = np.where(a == {k}, choices[{k}], r{k + 1})")
    last = "r1" if n > 2 else f"r{n - 1}"
    lines.append(f"    return {last}.astype(rt)")
    return _generated("choose", "\n".join(lines) + "\n", {"rt": rt})


@overload(np.choose)
def _choose_typer(a, choices, out=None, mode=None):
    if not _int_array(a):
        raise TypingError(f"np.choose(): a must be an integer array, not {a}")
    if _given(out) or _given(mode):
        raise TypingError("np.choose(): out= and mode= are not supported in kiln yet")
    items = _seq_items(choices)
    if not items:
        raise TypingError("np.choose(): choices must be a non-empty list or tuple of arrays")
    for c in items:
        if not (_numeric_array(c) or isinstance(c, (types.Number, types.Boolean))):
            raise TypingError(f"np.choose(): choices must be arrays or numbers, not {c}")
    rt = np.result_type(*[_np_dtype(_dtype_of(c)) for c in items]).type
    if isinstance(choices, types.BaseTuple):
        return _choose_unrolled(rt, len(choices))
    return _choose_loop(rt)


# ---- ndindex, ndenumerate, nditer ---------------------------------------------------------


def _ndindex1(d0):
    for i in range(d0):
        yield (i,)


def _ndindex2(d0, d1):
    for i in range(d0):
        for j in range(d1):
            yield (i, j)


def _ndindex3(d0, d1, d2):
    for i in range(d0):
        for j in range(d1):
            for k in range(d2):
                yield (i, j, k)


def _ndindex4(d0, d1, d2, d3):
    for i in range(d0):
        for j in range(d1):
            for k in range(d2):
                for m in range(d3):
                    yield (i, j, k, m)


def _ndindex_t1(shape):
    for i in range(shape[0]):
        yield (i,)


def _ndindex_t2(shape):
    for i in range(shape[0]):
        for j in range(shape[1]):
            yield (i, j)


def _ndindex_t3(shape):
    for i in range(shape[0]):
        for j in range(shape[1]):
            for k in range(shape[2]):
                yield (i, j, k)


def _ndindex_t4(shape):
    for i in range(shape[0]):
        for j in range(shape[1]):
            for k in range(shape[2]):
                for m in range(shape[3]):
                    yield (i, j, k, m)


_NDINDEX = {1: _ndindex1, 2: _ndindex2, 3: _ndindex3, 4: _ndindex4}
_NDINDEX_T = {1: _ndindex_t1, 2: _ndindex_t2, 3: _ndindex_t3, 4: _ndindex_t4}


@overload(np.ndindex)
def _ndindex_typer(*shape):
    if len(shape) == 1 and isinstance(shape[0], types.BaseTuple):
        items = _seq_items(shape[0]) or []
        if not all(isinstance(t, types.Integer) for t in items):
            raise TypingError(f"np.ndindex(): the shape must be ints, not {shape[0]}")
        impl = _NDINDEX_T.get(len(items))
    else:
        if not all(isinstance(t, types.Integer) for t in shape):
            raise TypingError("np.ndindex(): the shape must be ints or a tuple of ints")
        impl = _NDINDEX.get(len(shape))
    if impl is None:
        raise TypingError(f"np.ndindex(): 1 to {_MAX_NDIM} dimensions in kiln")
    return impl


def _ndenumerate1(a):
    for i in range(a.shape[0]):
        yield (i,), a[i]


def _ndenumerate2(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            yield (i, j), a[i, j]


def _ndenumerate3(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                yield (i, j, k), a[i, j, k]


def _ndenumerate4(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                for m in range(a.shape[3]):
                    yield (i, j, k, m), a[i, j, k, m]


_NDENUMERATE = {1: _ndenumerate1, 2: _ndenumerate2, 3: _ndenumerate3, 4: _ndenumerate4}


@overload(np.ndenumerate)
def _ndenumerate_typer(a):
    if not _numeric_array(a):
        raise TypingError(f"np.ndenumerate(): needs an array, not {a}")
    impl = _NDENUMERATE.get(a.ndim)
    if impl is None:
        raise TypingError(f"np.ndenumerate(): arrays of 1 to {_MAX_NDIM} dimensions in kiln")
    return impl


def _nditer_gen1(op, flags=None, op_flags=None):
    for i in range(op.shape[0]):
        yield op[i, ...]


def _nditer_gen2(op, flags=None, op_flags=None):
    for i in range(op.shape[0]):
        for j in range(op.shape[1]):
            yield op[i, j, ...]


def _nditer_gen3(op, flags=None, op_flags=None):
    for i in range(op.shape[0]):
        for j in range(op.shape[1]):
            for k in range(op.shape[2]):
                yield op[i, j, k, ...]


def _nditer_gen2f(op, flags=None, op_flags=None):
    for j in range(op.shape[1]):
        for i in range(op.shape[0]):
            yield op[i, j, ...]


def _nditer_gen3f(op, flags=None, op_flags=None):
    for k in range(op.shape[2]):
        for j in range(op.shape[1]):
            for i in range(op.shape[0]):
                yield op[i, j, k, ...]

# flags= and op_flags= are read as given (the views are always writable)
_NDITER_C = {1: _nditer_gen1, 2: _nditer_gen2, 3: _nditer_gen3}
_NDITER_F = {2: _nditer_gen2f, 3: _nditer_gen3f}


@overload(np.nditer)
def _nditer_typer(op, flags=None, op_flags=None):
    if not _numeric_array(op):
        raise TypingError(f"np.nditer(): kiln iterates one array, not {op}")
    if op.ndim == 0 or op.ndim > 3:
        raise TypingError("np.nditer(): arrays of 1 to 3 dimensions in kiln")
    if op.layout == "F" and op.ndim > 1:
        return _NDITER_F[op.ndim]
    return _NDITER_C[op.ndim]


# ---- a.flat ---------------------------------------------------------------------------------


def _flat(a):
    return a.ravel()


def _flat_1d(a):
    return a[:]


@overload_attribute(types.Array, "flat")
def _flat_typer(a):
    if a.ndim <= 1:
        return _flat_1d if a.ndim == 1 else _flat
    if a.layout != "C":
        raise TypingError(f"a.flat: kiln supports it for C-contiguous or 1-d arrays, not {a} "
                          "(use a.ravel() to read the elements in C order)")
    return _flat
