"""``kiln.vectorize``: NumPy ufuncs from scalar kernels, as Numba's ``@vectorize``.

    @vectorize(["float64(float64, float64)", "float32(float32, float32)"])
    def f(x, y):
        return x * y + 1.0          # f is a numpy.ufunc

    @vectorize                      # no signatures: a DUFunc, a loop compiled per input types
    def g(x, y):
        return x - y

With signatures the result is a real ``numpy.ufunc`` (``src/ufunc/ufunc.c``): one loop per
signature, in the order given (NumPy picks the first loop the inputs cast to safely), so
broadcasting, ``out=``, ``where=``, ``dtype=``, ``casting=``, ``reduce``, ``accumulate``,
``reduceat``, ``outer`` and ``at`` are NumPy's own. Each loop runs a loop function written here
in kiln's subset (``out[i] = kernel(x0[i], ...)`` over 1-d arrays, the kernel inlined into it)
compiled on its first call, once over contiguous arrays and once over strided ones: building a
ufunc compiles nothing, so dozens of them at import cost little. ``vectorize(...)`` without
signatures gives a ``DUFunc``, which compiles a loop for the input types of each new call and
adds it to its ``.ufunc``.

Both can be called from compiled code, on scalars (the kernel is called) and on arrays
(broadcast together; the result is a new array of the loop's output type).

Options: ``identity`` (0, 1, None or "reorderable", NumPy's identities for reductions),
``target`` ("cpu", or "parallel": each inner loop split over kiln's thread pool), ``fastmath``
and ``cache`` (passed to the kernel's ``njit``), ``nopython`` (accepted: kiln always compiles in
nopython mode). As in Numba, kernels compile with ``error_model='numpy'``: a division by zero
gives inf or nan (and NumPy's floating-point warning), not ZeroDivisionError.
"""

import itertools

from . import types as _types
from .errors import TypingError, UnsupportedError

__all__ = ["vectorize", "DUFunc"]

# NumPy's PyUFunc_* identity codes (numpy/ufuncobject.h)
_IDENTITY = {0: 0, 1: 1, None: -1, "reorderable": -2}
_TARGETS = ("cpu", "parallel")
_KNOWN = {"identity", "target", "nopython", "fastmath", "cache", "forceobj", "boundscheck",
          "writable_args"}
_counter = itertools.count()
# True: compile each signature's kernel at the decoration, so that typing errors come there as
# in Numba (LLVM's code generation and the loop functions still wait for the first call).
# Measured on a module of 40 ufuncs x 2 signatures (bench/vectorize.py's): 50 ms to import
# lazily, 800 ms eagerly, Numba 18 s (a loaded 2-core machine). Lazy is the default: import
# cost is what issue 12 asks to keep small, and most ufuncs of a library are never called.
_EAGER = False


def _identity_code(identity):
    if isinstance(identity, str):
        if identity == "reorderable":
            return -2
    elif identity is None or (type(identity) in (int, bool) and identity in (0, 1)):
        return _IDENTITY[None if identity is None else int(identity)]
    raise ValueError(f"Invalid identity value {identity!r}: expected 0, 1, None or "
                     f"'reorderable'")


def _check_options(kws):
    for k in kws:
        if k not in _KNOWN:
            raise KeyError(f"{k!r} is not a valid option of kiln.vectorize")
    target = kws.get("target", "cpu")
    if target not in _TARGETS:
        raise UnsupportedError(f"kiln.vectorize: target={target!r} is not supported "
                               f"(only 'cpu' and 'parallel')")
    if kws.get("forceobj"):
        raise UnsupportedError("kiln.vectorize: forceobj=True (object mode) is not supported")
    return target


def _jit_options(kws):
    opts = {"error_model": "numpy", "inline": "always"}
    for k in ("fastmath", "cache", "boundscheck"):
        if k in kws:
            opts[k] = kws[k]
    return opts


def _numpy():
    import numpy

    return numpy


def _dtype_of_type(t, what):
    """The NumPy dtype of a kiln scalar type, or TypeError."""
    np = _numpy()
    if isinstance(t, (_types.Boolean, _types.Integer, _types.Float, _types.Complex)):
        return np.dtype(t.name)
    raise TypeError(f"kiln.vectorize: {what} must be a number or bool type, not {t}")


def _parse(sig):
    """(input dtypes, output dtype) of one signature (a string or a kiln Signature)."""
    if isinstance(sig, str):
        sig = _types.parse_signature(sig)
    if not isinstance(sig, _types.Signature):
        raise TypeError(f"kiln.vectorize: a signature is a string like 'float64(float64)' or "
                        f"a kiln signature, not {sig!r}")
    if sig.return_type is None:
        raise TypeError(f"kiln.vectorize: the signature {sig} has no return type")
    ins = tuple(_dtype_of_type(t, "an argument type") for t in sig.args)
    return ins, _dtype_of_type(sig.return_type, "the return type")


def _ident(name):
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)


def _exec(src, name, env):
    import linecache  # here: `import kiln` stays cheap (tests/test_python_layer.py)

    filename = f"<kiln vectorize: {name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), env)
    return env[name]


def _make_loop(kernel, nin, name, mask=0):
    """The jitted loop function of a ufunc: 1-d arrays x0..x{nin-1} and out; the inputs in
    `mask` (bit i: x{i}) are broadcast scalars, read once."""
    from .decorators import njit

    xs = [f"x{i}" for i in range(nin)]
    fname = f"_kiln_vectorize_loop_{_ident(name)}_{next(_counter)}"
    head = "".join(f"    v{i} = x{i}[0]\n" for i in range(nin) if mask >> i & 1)
    items = [f"v{i}" if mask >> i & 1 else f"x{i}[i]" for i in range(nin)]
    src = (f"def {fname}({', '.join(xs)}, out):\n{head}"
           f"    for i in range(out.shape[0]):\n"
           f"        out[i] = _kernel({', '.join(items)})\n")
    fn = _exec(src, fname, {"_kernel": kernel})
    return njit(error_model="numpy")(fn)


def _input_dtypes(kiln_types):
    np = _numpy()
    out = []
    for t in kiln_types:
        if isinstance(t, _types.Array):
            out.append(_dtype_of_type(t.dtype, "an array's dtype"))
        else:
            out.append(_dtype_of_type(t, "an argument"))
    return out


def _call_impl(name, kernel, kiln_types, ins, ret, has_out=False):
    """The implementation, for compiled code, of a call of the ufunc on arguments of
    kiln_types with the loop (ins -> ret): the kernel on scalars; on arrays, broadcast and a
    new array of dtype ret, or (has_out) the last argument, an array the inputs broadcast to,
    filled and returned."""
    np = _numpy()
    n = len(ins)
    params = [f"a{i}" for i in range(n)] + (["out"] if has_out else [])
    env = {"_kernel": kernel, "np": np, "_rt": ret.type}
    for i, d in enumerate(ins):
        env[f"_t{i}"] = d.type
    arrays = [i for i, t in enumerate(kiln_types[:n]) if isinstance(t, _types.Array)]
    fname = f"_kiln_vectorize_call_{_ident(name)}_{next(_counter)}"
    lines = [f"def {fname}({', '.join(params)}):"]
    if has_out:
        for i in arrays:
            lines.append(f"    b{i} = np.broadcast_to(a{i}, out.shape)")
        lines.append("    for idx in np.ndindex(out.shape):")
        args = ", ".join(f"_t{i}(b{i}[idx])" if i in arrays else f"_t{i}(a{i})" for i in range(n))
        lines.append(f"        out[idx] = _kernel({args})")
        lines.append("    return out")
    elif not arrays:
        args = ", ".join(f"_t{i}(a{i})" for i in range(n))
        lines.append(f"    return _kernel({args})")
    else:
        if len(arrays) == 1:
            lines.append(f"    b{arrays[0]} = a{arrays[0]}")
        else:
            bs = ", ".join(f"b{i}" for i in arrays)
            lines.append(f"    {bs} = np.broadcast_arrays({', '.join(f'a{i}' for i in arrays)})")
        if all(kiln_types[i].layout == "C" for i in arrays):
            # same shapes, all C-contiguous: one flat loop LLVM can vectorize
            same = " and ".join(f"a{i}.shape == a{arrays[0]}.shape" for i in arrays[1:])
            lines.insert(1, f"    if {same or 'True'}:")
            lines.insert(2, f"        out = np.empty(a{arrays[0]}.shape, _rt)")
            lines.insert(3, "        o = out.ravel()")
            for k, i in enumerate(arrays):
                lines.insert(4 + k, f"        f{i} = a{i}.ravel()")
            flat = ", ".join(f"_t{i}(f{i}[j])" if i in arrays else f"_t{i}(a{i})" for i in range(n))
            lines.insert(4 + len(arrays), "        for j in range(o.shape[0]):")
            lines.insert(5 + len(arrays), f"            o[j] = _kernel({flat})")
            lines.insert(6 + len(arrays), "        return out")
        first = f"b{arrays[0]}"
        lines.append(f"    out = np.empty({first}.shape, _rt)")
        lines.append(f"    for idx in np.ndindex({first}.shape):")
        args = ", ".join(f"_t{i}(b{i}[idx])" if i in arrays else f"_t{i}(a{i})" for i in range(n))
        lines.append(f"        out[idx] = _kernel({args})")
        lines.append("    return out")
    return _exec("\n".join(lines) + "\n", fname, env)


def _check_call(name, nin, args):
    """A call from compiled code: nin inputs, and an output array optionally (True then)."""
    if len(args) == nin + 1:
        if not isinstance(args[-1], _types.Array) or args[-1].readonly:
            raise TypingError(f"{name}(): the output argument must be a writable array, "
                              f"not {args[-1]}")
        return True
    if len(args) != nin:
        raise TypingError(f"{name}() takes {nin} arguments (and an output array), got "
                          f"{len(args)}; keywords (out=, where=, ...) are not supported in "
                          f"compiled code")
    return False


def _shown(kiln_types):
    return ", ".join(str(t) for t in kiln_types)


def _register(obj, name, typer):
    """Make obj callable from compiled code: kiln.extending's registry, typed by `typer`."""
    from . import extending

    extending._set_for(obj).add(extending._Template(typer, {}))


class _Typed:
    """What a typed ufunc's compiled-code calls need: kernel and loops."""

    def __init__(self, name, nin, kernel, loops):
        self.name, self.nin, self.kernel, self.loops = name, nin, kernel, loops
        self.impls = {}

    def typer(self, *args):
        has_out = _check_call(self.name, self.nin, args)
        np = _numpy()
        dts = _input_dtypes(args[:self.nin])
        for ins, ret in self.loops:
            if all(np.can_cast(d, t, "safe") for d, t in zip(dts, ins)):
                key = (args, ins)
                impl = self.impls.get(key)
                if impl is None:
                    impl = self.impls[key] = _call_impl(self.name, self.kernel, args, ins, ret,
                                                        has_out)
                return impl
        raise TypingError(f"ufunc {self.name!r} has no loop for ({_shown(args)}) under the "
                          f"'safe' casting rule")


def _build(pyfunc, loops, identity, target, kws):
    from . import _core
    from .decorators import njit

    name = getattr(pyfunc, "__name__", "ufunc")
    nin = pyfunc.__code__.co_argcount if hasattr(pyfunc, "__code__") else None
    kernel = njit(**_jit_options(kws))(pyfunc)
    if nin is None:
        nin = len(loops[0][0]) if loops else 1
    for ins, _ in loops:
        if len(ins) != nin:
            raise TypeError(f"kiln.vectorize: the signature has {len(ins)} arguments; "
                            f"{name}() takes {nin}")
    loop = _make_loop(kernel, nin, name)

    def make_loop(mask):
        return _make_loop(kernel, nin, name, mask)

    uf = _core._vectorize_new(name, getattr(pyfunc, "__doc__", None), nin, 1,
                              _identity_code(identity), loop, make_loop, target == "parallel")
    for ins, ret in loops:
        if _EAGER:  # type-check (and optimize) the kernel now: errors at the decoration
            kernel.compile(tuple(d.name for d in ins), ret.name)
        _core._vectorize_add_loop(uf, tuple(d.num for d in ins) + (ret.num,))
    return uf, kernel, nin


def vectorize(ftylist_or_function=(), **kws):
    """``@vectorize``, ``@vectorize(signatures, **options)`` or ``vectorize(signatures)(f)``:
    see the module docstring."""
    if callable(ftylist_or_function) and not isinstance(ftylist_or_function, _types.Type):
        return vectorize(**kws)(ftylist_or_function)
    sigs = ftylist_or_function
    if isinstance(sigs, (str, _types.Signature)):
        sigs = [sigs]
    target = _check_options(kws)
    identity = kws.get("identity")
    _identity_code(identity)
    loops = [_parse(s) for s in sigs]

    def wrap(pyfunc):
        from . import config

        pyfunc = getattr(pyfunc, "py_func", pyfunc)  # an njit-ed function: its Python function

        if getattr(config, "DISABLE_JIT", False):
            return _numpy().vectorize(pyfunc)
        if not loops:
            return DUFunc(pyfunc, **kws)
        uf, kernel, nin = _build(pyfunc, loops, identity, target, kws)
        info = _Typed(uf.__name__, nin, kernel, loops)
        _register(uf, uf.__name__, info.typer)
        return uf

    return wrap


class DUFunc:
    """A dynamic ufunc (Numba's ``DUFunc``): a loop is compiled for each new combination of
    input types and added to ``.ufunc``, a real ``numpy.ufunc`` that keeps its identity."""

    def __init__(self, py_func, identity=None, cache=False, targetoptions=None, **kws):
        kws = dict(kws, **(targetoptions or {}))
        if cache:
            kws["cache"] = cache
        target = _check_options(kws)
        self.py_func = py_func
        self.ufunc, self._kernel, self._nin = _build(py_func, [], identity, target, kws)
        self._keys = {}  # input dtype nums -> output dtype
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self._impls = {}
        _register(self, self.__name__, self._typer)

    # --- what NumPy's ufunc has ---
    nin = property(lambda self: self.ufunc.nin)
    nout = property(lambda self: self.ufunc.nout)
    nargs = property(lambda self: self.ufunc.nargs)
    ntypes = property(lambda self: self.ufunc.ntypes)
    types = property(lambda self: self.ufunc.types)
    identity = property(lambda self: self.ufunc.identity)
    signature = property(lambda self: self.ufunc.signature)

    def __repr__(self):
        return f"<kiln.DUFunc '{self.__name__}'>"

    def _add_for(self, in_dtypes):
        """The output dtype of the loop for exactly in_dtypes, compiling it when new."""
        key = tuple(d.num for d in in_dtypes)
        ret = self._keys.get(key)
        if ret is not None:
            return ret
        argkeys = tuple(d.name for d in in_dtypes)
        self._kernel.compile(argkeys)
        rtype = None
        for sig, info in self._kernel.overloads.items():
            if tuple(t.key for t in sig) == argkeys:
                rtype = info.return_type if hasattr(info, "return_type") else info[1]
        ret = _dtype_of_type(rtype, f"the return type of {self.__name__}{argkeys}")
        from . import _core

        _core._vectorize_add_loop(self.ufunc, key + (ret.num,))
        self._keys[key] = ret
        return ret

    def add(self, sig):
        """Compile a loop for a signature ahead of its first call (Numba's ``DUFunc.add``)."""
        ins, ret = _parse(sig)
        from . import _core

        key = tuple(d.num for d in ins)
        if key not in self._keys:
            if len(ins) != self._nin:
                raise TypeError(f"{self.__name__}() takes {self._nin} arguments")
            self._kernel.compile(tuple(d.name for d in ins))
            _core._vectorize_add_loop(self.ufunc, key + (ret.num,))
            self._keys[key] = ret

    def _dtypes_of(self, values):
        np = _numpy()
        out = []
        for v in values:
            if isinstance(v, (np.ndarray, np.generic)):
                out.append(v.dtype)
            elif isinstance(v, bool):
                out.append(np.dtype(np.bool_))
            elif isinstance(v, int):
                out.append(np.dtype(np.int64))
            elif isinstance(v, float):
                out.append(np.dtype(np.float64))
            elif isinstance(v, complex):
                out.append(np.dtype(np.complex128))
            else:
                out.append(np.asarray(v).dtype)
        return out

    def __call__(self, *args, **kws):
        if len(args) >= self._nin:
            ins = self._dtypes_of(args[:self._nin])
            if "dtype" not in kws and "signature" not in kws:
                self._add_for(ins)
        return self.ufunc(*args, **kws)

    def reduce(self, array, *args, **kws):
        d = self._dtypes_of([array])[0]
        self._add_for([d] * self._nin)
        return self.ufunc.reduce(array, *args, **kws)

    def accumulate(self, array, *args, **kws):
        d = self._dtypes_of([array])[0]
        self._add_for([d] * self._nin)
        return self.ufunc.accumulate(array, *args, **kws)

    def reduceat(self, array, indices, *args, **kws):
        d = self._dtypes_of([array])[0]
        self._add_for([d] * self._nin)
        return self.ufunc.reduceat(array, indices, *args, **kws)

    def outer(self, a, b, **kws):
        self._add_for(self._dtypes_of([a, b]))
        return self.ufunc.outer(a, b, **kws)

    def at(self, a, indices, b=None):
        if b is None:
            self._add_for(self._dtypes_of([a]))
            return self.ufunc.at(a, indices)
        self._add_for(self._dtypes_of([a, b]))
        return self.ufunc.at(a, indices, b)

    def _typer(self, *args):
        has_out = _check_call(self.__name__, self._nin, args)
        ins = _input_dtypes(args[:self._nin])
        ret = self._add_for(ins)
        key = args
        impl = self._impls.get(key)
        if impl is None:
            impl = self._impls[key] = _call_impl(self.__name__, self._kernel, args, ins, ret,
                                                 has_out)
        return impl
