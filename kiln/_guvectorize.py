"""``kiln.guvectorize``: NumPy generalized ufuncs over kiln-compiled kernels (Numba's decorator).

    @guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
    def dot(a, b, out):
        ...

The result is a ``GUFunc``: it holds a real ``numpy.ufunc`` with a core signature (``.ufunc``)
whose C loops (``src/ufunc/gufunc.c``) call the compiled kernel once per outer element, so
broadcasting over the loop dimensions, ``axis=``/``axes=``, ``out=``, ``casting=``,
``dtype=`` and type resolution are NumPy's own. The layout string follows NumPy's gufunc
signature; a ``()`` input may be typed as a scalar (the kernel gets the value) or as a 1-d array
(a one-element view), a ``()`` output is typed as a 1-d array (the kernel writes ``out[0]``).

- With type signatures, the ufunc has one loop per signature. Nothing is compiled at
  decoration: each loop compiles its kernel the first time NumPy runs it (a module defining
  dozens of gufuncs imports without LLVM; ``GUFunc.compile()`` compiles every loop now).
  Signatures and the layout are checked at decoration.
- Without signatures (``guvectorize("(n)->()")``), the gufunc is dynamic (``is_dynamic``): a
  call with new dtypes adds a loop for them and rebuilds the ufunc, as Numba's does; every
  argument, outputs included, must be passed.
- ``target='parallel'`` splits the outer loop over kiln's thread pool.
- Called from compiled code (a GUFunc used in an ``@njit`` function), it runs a generated loop
  nest over the broadcast loop dimensions that calls the kernel on views: outputs are allocated
  when only the inputs are passed, and the call returns the output(s), as NumPy's does.
"""

import operator

from . import types
from .errors import TypingError

__all__ = ["guvectorize", "GUFunc"]

_TARGETS = ("cpu", "parallel")
_IDENTITY = {None: -1, 0: 0, 1: 1, "reorderable": -2}  # PyUFunc_None/Zero/One/ReorderableNone
_GU_ARRAY, _GU_SCALAR, _GU_ONE = 0, 1, 2
_JIT_OPTIONS = ("fastmath", "boundscheck", "error_model", "nogil", "cache", "inline", "locals")
_counter = [0]


def _parse_layout(layout):
    """``"(m,n),(n)->(m)"`` -> ([("m", "n"), ("n",)], [("m",)]); ValueError when malformed."""
    import re  # here, not at module level: `import kiln` stays cheap

    if not isinstance(layout, str):
        raise TypeError(f"guvectorize: the layout must be a str, not {type(layout).__name__}")
    text = layout.replace(" ", "")
    if text.count("->") != 1:
        raise ValueError(f"guvectorize: the layout {layout!r} needs one '->'")
    groups = []
    for side in text.split("->"):
        args = []
        rest = side
        while rest:
            m = re.match(r"\(([^()]*)\)(,|$)", rest)
            if not m:
                raise ValueError(f"guvectorize: cannot read the layout {layout!r}")
            inner = m.group(1)
            dims = tuple(d for d in inner.split(",")) if inner else ()
            if any(not re.fullmatch(r"\w+\??", d) for d in dims):
                raise ValueError(f"guvectorize: cannot read the layout {layout!r}")
            args.append(dims)
            rest = rest[m.end():]
            if m.group(2) == "," and not rest:
                raise ValueError(f"guvectorize: cannot read the layout {layout!r}")
        groups.append(args)
    if not groups[1]:
        raise ValueError(f"guvectorize: the layout {layout!r} has no output")
    return groups[0], groups[1]


def _np():
    import numpy

    return numpy


def _typenum(t):
    np = _np()
    try:
        return np.dtype(str(t)).num
    except TypeError:
        raise TypeError(f"guvectorize: {t} is not a NumPy dtype") from None


def _dtype_type(name):
    """The kiln scalar type for a NumPy dtype name."""
    t = getattr(types, name if name != "bool" else "boolean", None)
    if not isinstance(t, types.Type):
        raise TypeError(f"guvectorize: dtype {name} is not supported")
    return t


class _Loop:
    """One loop: the kernel's parameter types and how each argument reaches it."""

    def __init__(self, sig, ins, outs, name):
        from .decorators import _signature

        sig = _signature(sig)
        if sig.return_type is not None and sig.return_type != types.none:
            raise TypeError(f"guvectorize: {name}: a gufunc kernel must return void, not "
                            f"{sig.return_type} (signature {sig})")
        core = ins + outs
        if len(sig.args) != len(core):
            raise TypeError(f"guvectorize: {name}: the signature {sig} has {len(sig.args)} "
                            f"arguments, the layout {len(ins)} inputs and {len(outs)} outputs")
        self.args, self.kinds, self.dtypes = [], [], []
        for k, (t, dims) in enumerate(zip(sig.args, core)):
            if isinstance(t, types.Array):
                dtype = t.dtype
                if t.ndim == len(dims):
                    kind = _GU_ARRAY
                elif not dims and t.ndim == 1:
                    kind = _GU_ONE
                else:
                    raise TypeError(f"guvectorize: {name}: argument {k} is {t} but the layout "
                                    f"gives it {len(dims)} core dimension(s)")
                t = types.Array(dtype, t.ndim, "A")
            elif isinstance(t, (types.Boolean, types.Integer, types.Float, types.Complex)):
                if dims or k >= len(ins):
                    what = "an output" if k >= len(ins) else f"a ({','.join(dims)}) input"
                    raise TypeError(f"guvectorize: {name}: argument {k} is the scalar {t} but is "
                                    f"{what}: type it as an array ({t}[:])")
                dtype, kind = t, _GU_SCALAR
            else:
                raise TypeError(f"guvectorize: {name}: argument {k} has type {t}, not an array "
                                f"or a number")
            self.args.append(t)
            self.kinds.append(kind)
            self.dtypes.append(dtype)
        self.nums = tuple(_typenum(d) for d in self.dtypes)
        self.outer = None

    def entry(self, g):
        """What _core._gufunc takes for this loop: the outer function gets each argument as an
        (outer, core...) array, a `()` one as (outer,)."""
        if self.outer is None:
            self.outer = _outer_function(g, self)
        keys = tuple(types.Array(d, 1 + (t.ndim if k == _GU_ARRAY else 0), "A").key
                     for d, t, k in zip(self.dtypes, self.args, self.kinds))
        return (self.nums, self.outer, keys, tuple(self.kinds))


class GUFunc:
    """A generalized ufunc over a kiln-compiled kernel (Numba's ``GUFunc``): call it as the
    NumPy gufunc it holds (``.ufunc``); NumPy's attributes are forwarded."""

    def __init__(self, py_func, layout, sigs=(), identity=None, target="cpu", is_dynamic=False,
                 writable_args=(), jit_options=None):
        import functools

        from .decorators import njit

        if target not in _TARGETS:
            raise ValueError(f"guvectorize: unknown target {target!r} (one of "
                             f"{', '.join(map(repr, _TARGETS))})")
        try:
            self._identity = _IDENTITY[identity]
        except (KeyError, TypeError):
            raise ValueError(f"Invalid identity value {identity!r}") from None
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self._layout = layout
        self._ins, self._outs = _parse_layout(layout)
        self._target = target
        self._is_dynamic = bool(is_dynamic)
        self._frozen = False
        self._writable = self._writable_indices(writable_args)
        self._jit_options = dict(jit_options or {})
        self._kernel = njit(**self._jit_options)(py_func)
        self._loops = [_Loop(s, self._ins, self._outs, self.__name__) for s in sigs]
        self._keys = {loop.nums: i for i, loop in enumerate(self._loops)}
        self.ufunc = None
        self._build()
        _register(self)

    def _writable_indices(self, writable_args):
        import inspect

        names = list(inspect.signature(self.py_func).parameters)
        out = []
        for a in writable_args:
            if isinstance(a, str):
                if a not in names[:len(self._ins)]:
                    raise ValueError(f"guvectorize: writable_args: {a!r} is not an input of "
                                     f"{self.__name__}")
                a = names.index(a)
            if not isinstance(a, int) or not 0 <= a < len(self._ins):
                raise ValueError(f"guvectorize: writable_args: {a!r} is not an input index")
            out.append(a)
        return tuple(out)

    def _build(self):
        from . import _core

        self.ufunc = _core._gufunc(
            self.__name__, self.py_func.__doc__ or "", len(self._ins), len(self._outs),
            self._layout.replace(" ", ""), self._identity, [lp.entry(self) for lp in self._loops],
            self._writable, self._target == "parallel")
        self._set_call()

    # --- Numba's API ---
    @property
    def is_dynamic(self):
        return self._is_dynamic

    def disable_compile(self):
        self._frozen = True
        self._set_call()

    def add(self, sig):
        """Add a loop for the type signature ``sig`` and rebuild the ufunc."""
        loop = _Loop(sig, self._ins, self._outs, self.__name__)
        if loop.nums not in self._keys:
            self._keys[loop.nums] = len(self._loops)
            self._loops.append(loop)
            self._build()

    def build_ufunc(self):
        return self

    def compile(self):
        """Compile every loop's kernel now (they compile on first use otherwise)."""
        from . import _core

        for i in range(len(self._loops)):
            _core._gufunc_compile(self.ufunc, i)

    def expected_ndims(self):
        return tuple(map(len, self._ins)), tuple(map(len, self._outs))

    def __repr__(self):
        return f"<kiln._GUFunc '{self.__name__}'>"

    def __getattr__(self, name):
        if name in ("ufunc", "_call", "__wrapped__") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.ufunc, name)

    # A call goes straight to `_call`: the NumPy ufunc itself for a typed (or frozen) gufunc,
    # so that no Python frame is added to its call; `_dynamic_call` for a dynamic one.
    __call__ = property(operator.attrgetter("_call"))

    def _set_call(self):
        self._call = self.ufunc if not self._is_dynamic or self._frozen else self._dynamic_call

    def _dynamic_call(self, *args, **kwargs):
        if "out" in kwargs:
            out = kwargs.pop("out")
            args += tuple(out) if isinstance(out, tuple) else (out,)
        if len(args) != len(self._ins) + len(self._outs):
            raise TypeError(f"Too few arguments for function '{self.__name__}'. Note that the "
                            f"pattern `out = gufunc(Arg1, Arg2, ..., ArgN)` is not allowed. Use "
                            f"`gufunc(Arg1, Arg2, ..., ArgN, out) instead.")
        np = _np()
        dts = tuple(np.asarray(a).dtype for a in args)
        if tuple(d.num for d in dts) not in self._keys:
            self.add(self._dynamic_sig(dts))
        return self.ufunc(*args, **kwargs)

    def _dynamic_sig(self, dts):
        argtys = []
        for k, (d, dims) in enumerate(zip(dts, self._ins + self._outs)):
            t = _dtype_type(d.name)
            if k < len(self._ins) and not dims:
                argtys.append(t)
            else:
                argtys.append(types.Array(t, max(len(dims), 1), "A"))
        return types.Signature(types.none, argtys)


def guvectorize(*args, **kwargs):
    """``guvectorize(signatures, layout, **options)`` or ``guvectorize(layout, **options)``
    (dynamic): a decorator making a ``GUFunc`` of the kernel. Options: ``target`` ('cpu' or
    'parallel'), ``identity`` (None, 0, 1, 'reorderable'), ``writable_args`` (input indices or
    names), ``is_dynamic``, ``nopython``/``forceobj`` (nopython only), and the jit options
    ``fastmath``, ``boundscheck``, ``error_model``, ``nogil``, ``cache``."""
    if len(args) == 1:
        sigs, layout = [], args[0]
        kwargs.setdefault("is_dynamic", True)
    elif len(args) == 2:
        sigs, layout = args
    else:
        raise TypeError("guvectorize() takes one or two positional arguments")
    if isinstance(sigs, (str, types.Signature)):
        sigs = [sigs]
    target = kwargs.pop("target", "cpu")
    identity = kwargs.pop("identity", None)
    writable_args = kwargs.pop("writable_args", ())
    is_dynamic = kwargs.pop("is_dynamic", False)
    if kwargs.pop("forceobj", False) or kwargs.pop("nopython", True) is False:
        raise TypingError("guvectorize: object mode (forceobj=True, nopython=False) is not "
                          "supported: kiln compiles in nopython mode")
    jit_options = {}
    for name in list(kwargs):
        if name in _JIT_OPTIONS:
            jit_options[name] = kwargs.pop(name)
    if kwargs:
        raise KeyError(f"guvectorize: unknown options {sorted(kwargs)}")
    _parse_layout(layout)

    def wrap(func):
        g = GUFunc(func, layout, list(sigs), identity, target, is_dynamic, writable_args,
                   jit_options)
        if sigs:
            g.disable_compile()
        return g

    return wrap


def _outer_function(g, lp):
    """The jitted outer loop of one gufunc loop: the kernel called on the outer elements
    [lo, hi); the C loop passes NumPy's operands as (outer, core...) arrays."""
    import linecache

    from .decorators import njit

    params = [f"x{k}" for k in range(len(lp.args))]
    call = [f"x{k}[i:i + 1]" if kind == _GU_ONE else f"x{k}[i]"
            for k, kind in enumerate(lp.kinds)]
    _counter[0] += 1
    fname = f"_kiln_gufunc_loop_{g.__name__}_{_counter[0]}"
    src = (f"def {fname}(lo, hi, {', '.join(params)}):\n"
           f"    for i in range(lo, hi):\n"
           f"        _kernel({', '.join(call)})\n")
    filename = f"<kiln gufunc loop of {g.__name__}: {fname}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    env = {"_kernel": g._kernel}
    exec(compile(src, filename, "exec"), env)
    return njit(**g._jit_options)(env[fname])


# --- calls from compiled code -----------------------------------------------------------------

def _register(g):
    from .extending import overload

    options = {"parallel": True} if g._target == "parallel" else None
    def typer(*argtys, **kwtys):
        if kwtys:
            raise TypingError(f"{g.__name__}(): keyword arguments ({', '.join(kwtys)}) are not "
                              f"supported in compiled code: pass the outputs positionally")
        return _typer(g, argtys)

    overload(g, jit_options=options)(typer)


def _choose_loop(g, in_dtypes, out_dtypes):
    """The loop a compiled call runs: exact dtypes first, then the first one the inputs cast to
    safely (NumPy's order); dynamic gufuncs add one for the given dtypes."""
    np = _np()
    given = [np.dtype(str(d)) for d in in_dtypes + out_dtypes]
    nin = len(in_dtypes)
    for lp in g._loops:
        if [np.dtype(str(d)) for d in lp.dtypes[:len(given)]] == given:
            return lp
    if g._is_dynamic and not g._frozen:
        if not out_dtypes:
            return None
        g.add(g._dynamic_sig(given))
        return g._loops[-1]
    for lp in g._loops:
        if all(np.can_cast(given[k], np.dtype(str(lp.dtypes[k])), "safe") for k in range(nin)):
            return lp
    return None


def _typer(g, argtys):
    nin, nout = len(g._ins), len(g._outs)
    if len(argtys) not in (nin, nin + nout):
        raise TypingError(f"{g.__name__}() takes {nin} inputs (and optionally {nout} outputs), "
                          f"not {len(argtys)} arguments")
    core = g._ins + g._outs
    info = []
    for k, t in enumerate(argtys):
        if not isinstance(t, (types.Array, types.Boolean, types.Integer, types.Float,
                              types.Complex)):
            raise TypingError(f"{g.__name__}: argument {k} must be an array or a number, not {t}")
        dtype, ndim = (t.dtype, t.ndim) if isinstance(t, types.Array) else (t, 0)
        if ndim < len(core[k]):
            kind = "Input" if k < nin else "Output"
            i = k if k < nin else k - nin
            raise TypingError(f"{g.__name__}: {kind} operand {i} does not have enough dimensions "
                              f"(has {ndim}, gufunc core with signature {g.ufunc.signature} requires "
                              f"{len(core[k])})")
        if k >= nin and not isinstance(t, types.Array):
            raise TypingError(f"{g.__name__}: output {k - nin} must be an array, not {t}")
        info.append((dtype, ndim))
    lp = _choose_loop(g, [d for d, _ in info[:nin]], [d for d, _ in info[nin:]])
    if lp is None and g._is_dynamic and len(argtys) == nin:
        raise TypingError(f"{g.__name__}: a dynamic gufunc has no loop for the inputs "
                          f"({', '.join(map(str, argtys))}): pass the outputs too")
    if lp is None:
        raise TypingError(f"{g.__name__}: no loop for the types ({', '.join(map(str, argtys))}) "
                          f"(loops: {', '.join(str(t) for t in g.types) or 'none'})")
    return _generate(g, lp, [n for _, n in info], [d for d, _ in info])


def _generate(g, lp, ndims, dtypes):
    """The source of an implementation for arguments of these ndims, compiled by the overload."""
    import linecache

    np = _np()
    nin, nout = len(g._ins), len(g._outs)
    nargs = nin + nout
    given = len(ndims)
    core = g._ins + g._outs
    loopd = [ndims[k] - len(core[k]) for k in range(given)]
    L = max(loopd) if loopd else 0
    env = {"_kernel": g._kernel, "np": np}
    lines = []
    params = [f"p{k}" for k in range(given)]
    for k in range(given):
        want = np.dtype(str(lp.dtypes[k]))
        if k < nin and np.dtype(str(dtypes[k])) != want:  # inputs cast to the loop's dtypes
            env[f"_t{k}"] = getattr(np, want.name)
            lines.append(f"x{k} = p{k}.astype(_t{k})" if ndims[k] else f"x{k} = _t{k}(p{k})")
        else:
            lines.append(f"x{k} = p{k}")
    err = f"{g.__name__}: operands could not be broadcast together"
    # loop shape
    for p in range(L):
        lines.append(f"s{p} = 1")
    for k in range(given):
        for j in range(loopd[k]):
            p = L - loopd[k] + j
            lines += [f"d = x{k}.shape[{j}]",
                      "if d != 1:",
                      f"    if s{p} != 1 and s{p} != d:",
                      f"        raise ValueError({err!r})",
                      f"    s{p} = d"]
    # core dimensions
    names = {}
    for k in range(given):
        for j, name in enumerate(core[k]):
            name = name.rstrip("?")
            v = f"c_{name}" if not name.isdigit() else None
            src = f"x{k}.shape[{loopd[k] + j}]"
            msg = (f"{g.__name__}: {'input' if k < nin else 'output'} operand "
                   f"{k if k < nin else k - nin} has a mismatch in its core dimension {j}")
            if v is None:
                lines += [f"if {src} != {name}:", f"    raise ValueError({msg!r})"]
            elif name not in names:
                names[name] = v
                lines.append(f"{v} = {src}")
            else:
                lines += [f"if {src} != {v}:", f"    raise ValueError({msg!r})"]
    # outputs given: they must span the whole loop shape
    for k in range(nin, given):
        if loopd[k] != L:
            lines.append(f"raise ValueError({g.__name__ + ': an output has the wrong shape'!r})")
        for j in range(loopd[k]):
            lines += [f"if x{k}.shape[{j}] != s{j}:",
                      f"    raise ValueError({g.__name__ + ': non-broadcastable output'!r})"]
    # outputs allocated
    shape = [f"s{p}" for p in range(L)]
    allocated = []
    for k in range(given, nargs):
        dims = core[k]
        cd = []
        for name in dims:
            name = name.rstrip("?")
            if name.isdigit():
                cd.append(name)
            elif name in names:
                cd.append(names[name])
            else:
                raise TypingError(f"{g.__name__}: the core dimension {name!r} of output "
                                  f"{k - nin} is not given by an input: pass the output")
        extra = ["1"] if lp.kinds[k] == _GU_ONE else []
        env[f"_t{k}"] = getattr(np, np.dtype(str(lp.dtypes[k])).name)
        full = shape + cd + extra
        lines.append(f"x{k} = np.empty(({', '.join(full)}{',' if len(full) == 1 else ''}), _t{k})")
        allocated.append(k)
        loopd.append(L)
    par = g._target == "parallel"
    # the loop nest
    ind = ""
    for k in range(nargs):
        for j in range(loopd[k]):
            p = L - loopd[k] + j
            lines.append(f"m{k}_{j} = 0 if x{k}.shape[{j}] == 1 else 1")
    for p in range(L):
        rng = "_prange" if par and p == 0 else "range"
        lines.append(f"{ind}for i{p} in {rng}(s{p}):")
        ind += "    "
    call = []
    for k in range(nargs):
        idx = [f"i{L - loopd[k] + j} * m{k}_{j}" for j in range(loopd[k])]
        kind = lp.kinds[k]
        allocated_one = k in allocated and kind == _GU_ONE
        if kind == _GU_ONE and not allocated_one:
            if k < nin:  # a one-element copy of the input's element
                env[f"_t{k}"] = getattr(np, np.dtype(str(lp.dtypes[k])).name)
                el = f"x{k}[{', '.join(idx)}]" if idx else (f"x{k}" if ndims[k] == 0
                                                            else f"x{k}[()]")
                lines.append(f"{ind}v{k} = np.empty(1, _t{k})")
                lines.append(f"{ind}v{k}[0] = {el}")
                call.append(f"v{k}")
                continue
            # a given output with no core dimension: a length-1 view of its last loop axis
            if idx:
                last = idx[-1]
                head = idx[:-1]
                call.append(f"x{k}[{', '.join(head + [f'{last}:{last} + 1'])}]")
            else:
                call.append(f"x{k}.reshape((1,))")
            continue
        if kind == _GU_SCALAR:
            el = f"x{k}[{', '.join(idx)}]" if idx else (f"x{k}" if ndims[k] == 0 else f"x{k}[()]")
            call.append(el)
            continue
        call.append(f"x{k}[{', '.join(idx)}]" if idx else f"x{k}")
    lines.append(f"{ind}_kernel({', '.join(call)})")
    # the result
    outs = []
    for k in range(nin, nargs):
        if k in allocated and lp.kinds[k] == _GU_ONE:
            outs.append(f"x{k}.reshape(({', '.join(shape)}{',' if L == 1 else ''}))"
                        if L else f"x{k}[0]")
        else:
            outs.append(f"x{k}")
    lines.append(f"return {outs[0]}" if nout == 1 else f"return ({', '.join(outs)},)")
    if par:
        from .decorators import prange

        env["_prange"] = prange
    _counter[0] += 1
    fname = f"_kiln_gufunc_{g.__name__}_{_counter[0]}"
    src = f"def {fname}({', '.join(params)}):\n" + "".join(f"    {ln}\n" for ln in lines)
    filename = f"<kiln gufunc call of {g.__name__}: {fname}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), env)
    return env[fname]
