"""kiln.stencil: ``@stencil`` kernels (Numba's ``numba.stencil``), with scipy.ndimage's border
modes as well as Numba's constant mode.

A kernel is written with *relative* indexing: ``a[-1, 0]`` is the element one row above the
point being computed. ``StencilFunc`` reads the kernel's source once (kiln._support's
``find_definition``) and finds every subscript of a parameter that is not in
``standard_indexing``. For each number of dimensions it writes the kernel again as a function
of the point's indices, by *inserting* text around each index (``a[__kiln_i0 + (-1), ...]``), so
the new text keeps the kernel's lines and columns and errors point at the user's line; the text
is registered in linecache under its own name and compiled with njit. Two versions exist: the
*direct* one (indices shifted only) and, for the modes other than constant, the *mapped* one
whose indices go through the mode's index function (``_map_nearest`` ...), used near the border.

A call (from Python, or from compiled code through the overload set registered in
``kiln.extending._registry``) gets a *runner*: a generated loop nest over the first array's
shape, compiled with njit and cached per argument types, out=/neighborhood= presence and the
caller's parallel flag. The neighbourhood (from the option, the call's neighborhood=, or the
constant indices of the kernel) gives the interior, where the direct kernel is always in bounds.
mode='constant' computes the interior only and fills the border with cval (Numba's rule: 0 when
no cval is given; with out= and no cval the border of out is left as it is); the other modes
compute every point, the border ones with the mapped kernel. The kernel's return type (compiled
for the call's types first) gives the output's dtype. Under a parallel=True caller the runner's
outer loop is a prange.
"""

import ast
import itertools
import linecache

import numpy as np

__all__ = ["stencil", "StencilFunc"]

_MODES = ("constant", "nearest", "reflect", "mirror", "wrap")
_OPTIONS = ("cval", "standard_indexing", "neighborhood")
_counter = itertools.count()


_DEFAULT = object()


def stencil(func_or_mode=_DEFAULT, **options):
    """``@stencil``, ``@stencil(mode, cval=..., neighborhood=..., standard_indexing=...)`` or
    ``stencil(func, ...)``: a StencilFunc. ``mode`` may also be given as ``mode=``."""
    if func_or_mode is _DEFAULT:
        mode, func = options.pop("mode", "constant"), None
    elif not isinstance(func_or_mode, str):
        mode, func = options.pop("mode", "constant"), func_or_mode
    else:
        mode, func = func_or_mode, None
        if "mode" in options:
            raise TypeError("stencil() got the mode twice")
    for option in options:
        if option not in _OPTIONS:
            raise ValueError("Unknown stencil option " + option)
    if not isinstance(mode, str) or mode not in _MODES:
        raise ValueError(f"Unsupported mode style {mode} (kiln has {', '.join(_MODES)})")
    _check_options(options)

    def decorated(f):
        return StencilFunc(f, mode, options)

    return decorated if func is None else decorated(func)


def _check_options(options):
    nb = options.get("neighborhood")
    if nb is not None:
        options["neighborhood"] = _neighborhood(nb)
    si = options.get("standard_indexing")
    if si is not None:
        if isinstance(si, str):
            si = (si,)
        if not all(isinstance(n, str) for n in si):
            raise ValueError("standard_indexing must be a list of parameter names")
        options["standard_indexing"] = tuple(si)
    if "cval" in options:
        cv = options["cval"]
        if isinstance(cv, np.generic):
            cv = cv.item()
        if not isinstance(cv, (bool, int, float, complex)):
            raise ValueError(f"cval must be a number, not {cv!r}")
        options["cval"] = cv


def _neighborhood(nb):
    """((lo, hi), ...) of ints from the neighborhood option or argument."""
    try:
        out = tuple((int(lo), int(hi)) for lo, hi in nb)
        if any(isinstance(x, bool) or int(x) != x for pair in nb for x in pair):
            raise TypeError
    except (TypeError, ValueError):
        raise ValueError(f"neighborhood must be a tuple of (low, high) integer pairs, one per "
                         f"dimension, not {nb!r}") from None
    for lo, hi in out:
        if lo > hi:
            raise ValueError(f"neighborhood: the low bound {lo} is above the high bound {hi}")
    return out


# ---- index functions of the modes (scipy.ndimage's meanings) ----

def _map_nearest(i, n):
    """aaaa|abcd|dddd"""
    if i < 0:
        return 0
    if i >= n:
        return n - 1
    return i


def _map_reflect(i, n):
    """dcba|abcd|dcba (half-sample symmetric)"""
    if i >= 0 and i < n:
        return i
    p = 2 * n
    k = i % p
    if k >= n:
        k = p - 1 - k
    return k


def _map_mirror(i, n):
    """dcb|abcd|cba (whole-sample symmetric)"""
    if i >= 0 and i < n:
        return i
    if n == 1:
        return 0
    p = 2 * n - 2
    k = i % p
    if k >= n:
        k = p - k
    return k


def _map_wrap(i, n):
    """abcd|abcd|abcd"""
    if i >= 0 and i < n:
        return i
    return i % n


_MAPS = {}


def _map_function(mode):
    f = _MAPS.get(mode)
    if f is None:
        from .decorators import njit

        f = _MAPS[mode] = njit(globals()["_map_" + mode])
    return f


# ---- the kernel's source ----

class _Access:
    """One relative subscript of the kernel: the array's name and the index node."""

    def __init__(self, name, node, index):
        self.name, self.node, self.index = name, node, index


class _Kernel:
    """The parsed kernel: its source, parameters, relative accesses and local constants."""

    def __init__(self, func, standard):
        from ._support import find_definition

        source, filename, first_line, _col, node = find_definition(func)
        if not isinstance(node, ast.FunctionDef):
            raise ValueError("a stencil kernel must be a function defined with def")
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            raise ValueError("a stencil kernel takes plain positional parameters (no defaults, "
                             "*args, **kwargs or keyword-only ones)")
        self.func, self.source, self.filename = func, source, filename
        self.first_line, self.node = first_line, node
        self.params = [p.arg for p in a.args]
        if not self.params:
            raise ValueError("The first argument to a stencil kernel must be the primary input "
                             "array.")
        missing = set(standard) - set(self.params)
        if missing:
            raise ValueError("Standard indexing requested for an array name not present in the "
                             f"stencil kernel definition: {', '.join(sorted(missing))}")
        if self.params[0] in standard:
            raise ValueError("The first argument to a stencil kernel must use relative "
                             "indexing, not standard indexing.")
        relative = set(self.params) - set(standard)
        self.accesses = []
        stores, values = {}, {}  # name -> how many bindings; the value of `name = value`
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
                stores[sub.id] = stores.get(sub.id, 0) + 1  # any binding: =, +=, for, with...
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1 \
                    and isinstance(sub.targets[0], ast.Name):
                values[sub.targets[0].id] = sub.value
            if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for t in targets:
                    for leaf in ast.walk(t):
                        if isinstance(leaf, ast.Subscript) and isinstance(leaf.value, ast.Name) \
                                and leaf.value.id in relative:
                            raise ValueError("Assignments to arrays passed to stencil kernels "
                                             "is not allowed.")
            if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name) \
                    and sub.value.id in relative and isinstance(sub.ctx, ast.Load):
                self.accesses.append(_Access(sub.value.id, sub, sub.slice))
        self.relative = [p for p in self.params if p in {x.name for x in self.accesses}]
        # names assigned once, to a constant expression: usable as constant indices
        self.consts = {}
        for name, value in values.items():
            v = _const(value, {}) if stores.get(name) == 1 else None
            if v is not None:
                self.consts[name] = v
        self.lines = [ln.encode() for ln in source.splitlines(True)]
        self.texts = {}

    # neighbourhood inferred from constant indices
    def neighborhood(self, ndim):
        if not self.accesses:
            raise ValueError("Stencil kernel with no accesses to relatively indexed arrays.")
        nb = [[0, 0] for _ in range(ndim)]
        for acc in self.accesses:
            items = self._items(acc, ndim)
            if items is None:  # a[t]: t a local constant tuple
                t = self.consts.get(acc.index.id)
                if not isinstance(t, tuple):
                    raise ValueError(_NOT_CONST)
                if len(t) != ndim:
                    raise ValueError(f"Stencil index does not match array dimensionality: "
                                     f"{acc.name}[{acc.index.id}] for {ndim}-d arrays")
                items = [ast.Constant(v) for v in t]
            for d, e in enumerate(items):
                if isinstance(e, ast.Slice):
                    lo, hi = _const(e.lower, self.consts), _const(e.upper, self.consts)
                    if lo is None or hi is None or e.step is not None:
                        raise ValueError(_NOT_CONST)
                    span = (lo, hi - 1)
                else:
                    v = _const(e, self.consts)
                    if v is None:
                        raise ValueError(_NOT_CONST)
                    span = (v, v)
                nb[d][0] = min(nb[d][0], span[0])
                nb[d][1] = max(nb[d][1], span[1])
        return tuple(tuple(x) for x in nb)

    def _items(self, acc, ndim):
        """The index's items, one per dimension (a non-tuple index of an n-d array: None)."""
        idx = acc.index
        if isinstance(idx, ast.Tuple):
            if len(idx.elts) != ndim:
                raise ValueError(f"Stencil index does not match array dimensionality: "
                                 f"{acc.name}[{ast.unparse(idx)}] for {ndim}-d arrays")
            return idx.elts
        if ndim == 1:
            return [idx]
        if isinstance(idx, ast.Name):
            return None
        raise ValueError(f"Stencil index does not match array dimensionality: "
                         f"{acc.name}[{ast.unparse(idx)}] for {ndim}-d arrays")

    def text(self, ndim, mapped):
        """The kernel as a function of (__kiln_i0, ..., params): (name, text, filename)."""
        key = (ndim, mapped)
        if key in self.texts:
            return self.texts[key]
        ins = []  # (line, col, order, text): insertions into the source

        def around(node, before, after):
            size = (node.end_lineno - node.lineno, node.end_col_offset - node.col_offset)
            ins.append((node.lineno, node.col_offset, (1, -size[0], -size[1]), before))
            ins.append((node.end_lineno, node.end_col_offset, (0,) + size, after))

        for acc in self.accesses:
            items = self._items(acc, ndim)
            if items is None:  # a[t] with t a tuple of n indices: a[i0 + (t)[0], ...]
                t = acc.index.id
                if mapped:
                    rest = "".join(f", __kiln_map(__kiln_i{d} + ({t})[{d}], {acc.name}.shape[{d}])"
                                   for d in range(1, ndim))
                    around(acc.index, "__kiln_map(__kiln_i0 + (",
                           f")[0], {acc.name}.shape[0]){rest}")
                else:
                    rest = "".join(f", __kiln_i{d} + ({t})[{d}]" for d in range(1, ndim))
                    around(acc.index, "__kiln_i0 + (", f")[0]{rest}")
                continue
            for d, e in enumerate(items):
                if isinstance(e, ast.Slice):
                    if mapped:
                        raise ValueError("slices in a stencil kernel need mode='constant'")
                    if e.lower is None or e.upper is None or e.step is not None:
                        raise ValueError("a slice in a stencil kernel needs a start and a stop "
                                         "and no step")
                    around(e.lower, f"__kiln_i{d} + (", ")")
                    around(e.upper, f"__kiln_i{d} + (", ")")
                elif mapped:
                    around(e, f"__kiln_map(__kiln_i{d} + (", f"), {acc.name}.shape[{d}])")
                else:
                    around(e, f"__kiln_i{d} + (", ")")
        node = self.node
        first_arg = node.args.args[0]
        indices = "".join(f"__kiln_i{d}, " for d in range(ndim))
        ins.append((first_arg.lineno, first_arg.col_offset, (2,), indices))
        name = f"__kiln_stencil_{'m' if mapped else 'd'}{ndim}_{node.name}"
        lines = list(self.lines)
        # the def's name: find it on the def line
        def_line = node.lineno
        raw = lines[def_line - 1]
        at = raw.index(b"def ", node.col_offset) + 4
        while raw[at:at + 1] in (b" ", b"\t"):
            at += 1
        ins.append((def_line, at, (3,), f"__kiln_stencil_{'m' if mapped else 'd'}{ndim}_"))
        by_line = {}
        for line, col, order, t in ins:
            by_line.setdefault(line, []).append((col, order, t))
        for line, items in by_line.items():
            raw = lines[line - 1]
            # apply from the right; at one column, in `order`
            for col in sorted({c for c, _, _ in items}, reverse=True):
                here = sorted((o, t) for c, o, t in items if c == col)
                raw = raw[:col] + "".join(t for _, t in here).encode() + raw[col:]
            lines[line - 1] = raw
        for i in range(node.lineno - 1):
            lines[i] = b"\n"  # the decorators' lines, kept blank
        text = "\n" * (self.first_line - 1) + b"".join(lines).decode()
        filename = f"<kiln stencil kernel {node.name} of {self.filename}: {name}>"
        self.texts[key] = (name, text, filename)
        return self.texts[key]


_NOT_CONST = "stencil kernel index is not constant, 'neighborhood' option required"


def _const(node, consts):
    """The int (or tuple of ints) value of a constant index expression, else None."""
    if isinstance(node, ast.Constant):
        v = node.value
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _const(node.operand, consts)
        if isinstance(v, int):
            return -v if isinstance(node.op, ast.USub) else v
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        x, y = _const(node.left, consts), _const(node.right, consts)
        if isinstance(x, int) and isinstance(y, int):
            return {ast.Add: x + y, ast.Sub: x - y, ast.Mult: x * y}[type(node.op)]
        return None
    if isinstance(node, ast.Tuple):
        vals = [_const(e, consts) for e in node.elts]
        if all(isinstance(v, int) for v in vals):
            return tuple(vals)
    return None


# ---- the stencil object ----

class StencilFunc:
    """A ``@stencil`` kernel: call it with arrays (``out=`` an array to write into,
    ``neighborhood=`` the ranges of the relative indices), from Python or compiled code."""

    def __init__(self, func, mode, options):
        if not callable(func) or not hasattr(func, "__code__"):
            raise TypeError(f"@stencil needs a Python function, not {func!r}")
        self.mode, self.options = mode, dict(options)
        self.neighborhood = self.options.get("neighborhood")
        self.__name__ = getattr(func, "__name__", "stencil")
        self.__qualname__ = getattr(func, "__qualname__", self.__name__)
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.kernel = _Kernel(func, self.options.get("standard_indexing", ()))
        self._kernels = {}  # (ndim, mapped) -> kernel dispatcher
        self._compiled = set()  # (ndim, mapped, argument keys) compiled for
        self._runners = {}  # runner key -> dispatcher
        self._py = {}  # Python call key -> (dispatcher, uses out)
        from . import extending

        extending._registry[self] = _StencilCalls(self)

    def __repr__(self):
        return f"<kiln.stencil {self.__qualname__} mode={self.mode!r}>"

    # -- from Python --
    def __call__(self, *args, **kwargs):
        from . import _core, types

        out = kwargs.pop("out", None)
        nb = kwargs.pop("neighborhood", None)
        if kwargs:
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument "
                            f"{next(iter(kwargs))!r} (a stencil takes out= and neighborhood=)")
        if len(args) != len(self.kernel.params):
            raise TypeError(f"{self.__name__}() takes {len(self.kernel.params)} arguments but "
                            f"{len(args)} were given")
        keys = tuple(_core.typeof(a) for a in args)
        okey = None if out is None else _core.typeof(out)
        nbk = None if nb is None else _neighborhood(nb)
        key = (keys, okey, nbk)
        disp = self._py.get(key)
        if disp is None:
            argtys = tuple(types.from_key(k) for k in keys)
            outty = None if okey is None else types.from_key(okey)
            disp = self._runner(argtys, outty, nbk, False, False, ())
            self._py[key] = disp
        return disp(*args, out) if out is not None else disp(*args)

    # -- shared --
    def _ndim_and_check(self, argtys, outty, nb):
        from . import types

        first = argtys[0]
        if not isinstance(first, types.Array):
            raise ValueError("The first argument to a stencil kernel must be the primary input "
                             f"array, not {first}.")
        ndim = first.ndim
        for given in (nb, self.neighborhood):
            if given is not None and len(given) != ndim:
                raise ValueError(f"{len(given)} dimensional neighborhood specified for {ndim} "
                                 f"dimensional input array")
        for name in self.kernel.relative[1:]:
            t = argtys[self.kernel.params.index(name)]
            if not isinstance(t, types.Array):
                raise ValueError(f"stencil kernel {self.__name__}: {name} is indexed "
                                 f"relatively but is {t}, not an array (list it in "
                                 f"standard_indexing)")
            if t.ndim != ndim:
                raise ValueError("Secondary stencil array does not have same number of "
                                 "dimensions as the first stencil input.")
        if outty is not None and (not isinstance(outty, types.Array) or outty.ndim != ndim):
            raise ValueError(f"out= must be an array of {ndim} dimensions, not {outty}")
        if outty is not None and outty.readonly:
            raise ValueError("out= is a read-only array")
        return ndim

    def _kernel_for(self, ndim, mapped, argtys):
        """The kernel dispatcher of (ndim, mapped), compiled for argtys; its return type."""
        from . import types
        from .decorators import njit

        disp = self._kernels.get((ndim, mapped))
        if disp is None:
            name, text, filename = self.kernel.text(ndim, mapped)
            linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
            env = dict(self.kernel.func.__globals__)
            code = self.kernel.func.__code__
            for var, cell in zip(code.co_freevars, self.kernel.func.__closure__ or ()):
                env[var] = cell.cell_contents
            if mapped:
                env["__kiln_map"] = _map_function(self.mode)
            exec(compile(text, filename, "exec"), env)
            disp = self._kernels[(ndim, mapped)] = njit(env[name])
        sig = (types.int64,) * ndim + tuple(argtys)
        keys = tuple(t.key for t in sig)
        if (ndim, mapped, keys) not in self._compiled:
            disp.compile(keys)
            self._compiled.add((ndim, mapped, keys))
        for s, info in disp.overloads.items():
            if tuple(t.key for t in s) == keys:
                return disp, info.return_type
        raise RuntimeError("kiln.stencil: the kernel's overload is missing")

    def _runner(self, argtys, outty, nb, nb_arg, parallel, kwnames):
        """The compiled loop nest for these argument types. `nb`: the call's neighborhood
        (ints) or None; `nb_arg`: a neighborhood argument of compiled code (a run-time tuple);
        `kwnames`: the order of out/neighborhood after the positional arguments."""
        from . import types
        from .decorators import njit

        ndim = self._ndim_and_check(argtys, outty, nb)
        key = (tuple(t.key for t in argtys), None if outty is None else outty.key, nb, nb_arg,
               parallel, kwnames)
        disp = self._runners.get(key)
        if disp is not None:
            return disp
        if nb is None and not nb_arg:
            nb = self.neighborhood if self.neighborhood is not None \
                else self.kernel.neighborhood(ndim)
        elif nb is None:
            nb = "arg"
        kdir, ret = self._kernel_for(ndim, False, argtys)
        kmap = self._kernel_for(ndim, True, argtys)[0] if self.mode != "constant" else None
        if not isinstance(ret, (types.Number, types.Boolean)):
            raise ValueError(f"Stencil kernel must return a scalar and not {ret}.")
        dtype = np.dtype(ret.name).type
        cval = self.options.get("cval", 0)
        fill = self.mode == "constant" and (outty is None or "cval" in self.options)
        if fill:
            _check_cval(cval, ret if outty is None else outty.dtype)
        text, name, filename = self._runner_text(ndim, nb, outty is not None, nb_arg, parallel,
                                                 kwnames, fill)
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        from .decorators import prange

        env = {"__kiln_np": np, "prange": prange, "__kiln_kd": kdir, "__kiln_km": kmap,
               "__kiln_dtype": dtype, "__kiln_cval": cval}
        exec(compile(text, filename, "exec"), env)
        env["__kiln_rows"] = njit(env[name + "_rows"])
        disp = self._runners[key] = njit(parallel=True)(env[name]) if parallel \
            else njit(env[name])
        return disp

    def _runner_text(self, ndim, nb, has_out, nb_arg, parallel, kwnames, fill):
        # the runner's own parameter names: a kernel parameter called np, range or min must not
        # hide what the runner uses
        params = [f"__kiln_p{k}" for k in range(len(self.kernel.params))]
        pname = dict(zip(self.kernel.params, params))
        a = params[0]
        extra = {"out": "__kiln_out", "neighborhood": "__kiln_nb"}
        sig = params + [extra[k] for k in kwnames]
        if has_out and "out" not in kwnames:
            sig.append("__kiln_out")
        name = f"__kiln_stencil_run_{next(_counter)}"
        L = [f"def {name}({', '.join(sig)}):"]
        w = L.append
        w(f"    __sh = {a}.shape")
        for other in self.kernel.relative[1:]:
            other = pname[other]
            cond = " or ".join(f"{other}.shape[{d}] < __sh[{d}]" for d in range(ndim))
            w(f"    if {cond}:")
            w("        raise ValueError('Secondary stencil array has some dimension smaller "
              "than the same dimension in the first stencil input.')")
        if has_out:
            cond = " or ".join(f"__kiln_out.shape[{d}] != __sh[{d}]" for d in range(ndim))
            w(f"    if {cond}:")
            w("        raise ValueError('out= must have the shape of the first stencil input')")
            w("    __o = __kiln_out")
        else:
            w("    __o = __kiln_np.empty(__sh, dtype=__kiln_dtype)")
        for d in range(ndim):
            lo, hi = (f"__kiln_nb[{d}][0]", f"__kiln_nb[{d}][1]") if nb == "arg" else nb[d]
            w(f"    __n{d} = __sh[{d}]")
            w(f"    __s{d} = max(0, -({lo}))")  # may pass __n{d}: every loop below clamps
            w(f"    __e{d} = max(__n{d} - max(0, {hi}), __s{d})")
        if self.mode == "constant" and fill:
            for d in range(ndim):
                before = ", ".join(":" if k != d else f":__s{d}" for k in range(ndim))
                after = ", ".join(":" if k != d else f"__e{d}:" for k in range(ndim))
                w(f"    __o[{before}] = __kiln_cval")
                w(f"    __o[{after}] = __kiln_cval")
        bounds = ", ".join(f"__s{d}, __e{d}, __n{d}" for d in range(ndim))
        w(f"    __b = ({bounds},)")
        lo, hi = ("__s0", "__e0") if self.mode == "constant" else ("0", "__n0")
        rest = ", ".join(["__o"] + params + ["__b"])
        if parallel:
            # rows (n-d) or blocks of points (1-d) per prange iteration: the kernel calls stay
            # inside one serial function where they are inlined
            block = 1 if ndim > 1 else 4096
            w(f"    __nblk = ({hi} - {lo} + {block - 1}) // {block}")
            w("    for __k in prange(__nblk):")
            w(f"        __r = {lo} + __k * {block}")
            w(f"        __kiln_rows(__r, min(__r + {block}, {hi}), {rest})")
        else:
            w(f"    __kiln_rows({lo}, {hi}, {rest})")
        w("    return __o")
        text = "\n".join(L) + "\n\n\n" + self._rows_text(ndim, params, name + "_rows", nb)
        filename = f"<kiln stencil {self.__qualname__}: {name}>"
        return text, name, filename

    def _rows_text(self, ndim, params, name, nb):
        """The points of the outer indices [__r0, __r1): the loops that call the kernels. With a
        constant neighbourhood the interior's starts are literals, so that LLVM sees the
        shifted indices are not negative (no wrap-around select in the inner loop)."""
        L = [f"def {name}(__r0, __r1, {', '.join(['__o'] + params)}, __b):"]
        w = L.append
        w("    " + ", ".join(f"__s{d}, __e{d}, __n{d}" for d in range(ndim)) + " = __b")
        if nb != "arg":
            for d in range(ndim):
                w(f"    __s{d} = {max(0, -nb[d][0])}")
        idx = ", ".join(f"__kiln_i{d}" for d in range(ndim))
        call_args = ", ".join([f"__kiln_i{d}" for d in range(ndim)] + params)
        direct = f"__o[{idx}] = __kiln_kd({call_args})"
        mapped = f"__o[{idx}] = __kiln_km({call_args})"
        if ndim == 1:
            if self.mode == "constant":
                w("    for __kiln_i0 in range(__r0, __r1):")
                w("        " + direct)
            else:
                w("    for __kiln_i0 in range(__r0, min(__r1, __s0)):")
                w("        " + mapped)
                w("    for __kiln_i0 in range(max(__r0, __s0), min(__r1, __e0)):")
                w("        " + direct)
                w("    for __kiln_i0 in range(max(__r0, __e0), __r1):")
                w("        " + mapped)
        elif self.mode == "constant":
            w("    for __kiln_i0 in range(__r0, __r1):")
            ind = "        "
            for d in range(1, ndim):
                w(f"{ind}for __kiln_i{d} in range(__s{d}, __e{d}):")
                ind += "    "
            w(ind + direct)
        else:
            w("    for __kiln_i0 in range(__r0, __r1):")
            ind = "        "
            for d in range(1, ndim - 1):
                w(f"{ind}for __kiln_i{d} in range(0, __n{d}):")
                ind += "    "
            last = ndim - 1
            cond = " and ".join(f"__kiln_i{d} >= __s{d} and __kiln_i{d} < __e{d}"
                                for d in range(ndim - 1))
            w(f"{ind}if {cond}:")
            for rng, body in ((f"0, min(__s{last}, __n{last})", mapped), (f"__s{last}, __e{last}", direct),
                              (f"__e{last}, __n{last}", mapped)):
                w(f"{ind}    for __kiln_i{last} in range({rng}):")
                w(f"{ind}        {body}")
            w(f"{ind}else:")
            w(f"{ind}    for __kiln_i{last} in range(0, __n{last}):")
            w(f"{ind}        {mapped}")
        return "\n".join(L) + "\n"


def _check_cval(cval, dtype):
    """Numba's rule: cval must convert to the output's dtype."""
    from . import types

    if isinstance(cval, complex) and not isinstance(dtype, types.Complex):
        raise ValueError("cval type does not match stencil return type.")
    if isinstance(dtype, (types.Integer, types.Boolean)) and isinstance(cval, float) \
            and not np.isfinite(cval):
        raise ValueError("cval type does not match stencil return type.")


class _StencilCalls:
    """The stencil's entry in kiln.extending._registry: the runner for a call in compiled code
    (positional arguments, then out= and neighborhood= in the call's order)."""

    wants_parallel = True

    def __init__(self, sf):
        self.sf = sf
        self.name = sf.__qualname__

    def resolve(self, arg_types, kwnames, required=True, parallel=False):
        from .errors import TypingError

        npos = len(arg_types) - len(kwnames)
        for k in kwnames:
            if k not in ("out", "neighborhood"):
                raise TypingError(f"{self.name}() got an unexpected keyword argument {k!r} (a "
                                  f"stencil takes out= and neighborhood=)")
        if npos != len(self.sf.kernel.params):
            raise TypingError(f"{self.name}() takes {len(self.sf.kernel.params)} arguments but "
                              f"{npos} were given")
        kws = dict(zip(kwnames, arg_types[npos:]))
        nbt = kws.get("neighborhood")
        if nbt is not None:
            _check_neighborhood_type(nbt, arg_types[0])
        return self.sf._runner(arg_types[:npos], kws.get("out"), None, "neighborhood" in kws,
                               bool(parallel), tuple(kwnames))


def _check_neighborhood_type(t, first):
    """neighborhood= in compiled code: a tuple of one (low, high) pair of ints per dimension."""
    from . import types

    ok = isinstance(t, types.BaseTuple) and all(
        isinstance(p, types.BaseTuple) and len(p) == 2
        and all(isinstance(x, types.Integer) for x in p) for p in t)
    if not ok:
        raise ValueError(f"neighborhood must be a tuple of (low, high) integer pairs, one per "
                         f"dimension, not {t}")
    if isinstance(first, types.Array) and len(t) != first.ndim:
        raise ValueError(f"{len(t)} dimensional neighborhood specified for {first.ndim} "
                         f"dimensional input array")


class _CallableModule(type(np)):
    """``kiln.stencil`` is the function; should the name be the module (``import kiln.stencil``
    binds it), calling the module is calling the function."""

    def __call__(self, *args, **kwargs):
        return stencil(*args, **kwargs)


import sys as _sys  # noqa: E402

_sys.modules[__name__].__class__ = _CallableModule
