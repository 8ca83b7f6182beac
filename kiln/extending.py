"""kiln.extending: Numba's extension API, and the registry of everything implemented in Python.

Compiled code reaches a callable in one of two ways. The C registry (``src/lib/*.def``) holds
what kiln lowers itself (arithmetic, ufuncs, reductions, creation). Everything written in
Python is registered here, by the same functions that users call, with Numba's names and
behaviour:

- ``overload(func)``: ``func`` (a Python function, or a NumPy function kiln lacks) gets a
  *typing function*; kiln calls it with the argument types (only the arguments given at the
  call, as Numba does; keywords by name) and it returns an implementation, or None to let the
  next overload try. The implementation is compiled like ``njit(impl, **jit_options)``, once per
  signature, and called from the compiled caller.
- ``overload_method(type_class, name)``: the same for ``value.name(...)``, with the value first.
- ``overload_attribute(type_class, name)``: ``value.name``; the implementation takes the value.
- ``register_jitable(func)``: ``func`` itself is its implementation; it stays a Python
  function when called from Python.

``kiln.lib`` (the library written in kiln's Python subset: ``np.var``, ``np.diff``, ...) uses
these same decorators. The C core reads ``_registry`` (callable -> overload set) when it freezes
a global, and calls ``_resolve`` while typing (dispatch/dispatcher.c, ``resolve_overload``).
Errors in an implementation are reported at the implementation's own line, with a note at the
call.
"""

import importlib
import itertools
import linecache

from . import types
from .errors import TypingError

__all__ = [
    "overload", "overload_method", "overload_attribute", "register_jitable", "types",
]

_registry = {}  # callable -> _OverloadSet (read by the C frontend)
_methods = {}  # method name -> [(type class, _OverloadSet)]
_attributes = {}  # attribute name -> [(type class, _OverloadSet)]

# the kinds of KnOverloadQuery (src/compile.h)
_FUNCTION, _METHOD, _ATTRIBUTE, _HAS_METHOD = range(4)

_INLINE = ("never", "always")
_bind_counter = itertools.count()


class _Template:
    """One overload: its typing function and how to compile what it returns."""

    def __init__(self, typer, jit_options):
        self.typer = typer
        self.jit_options = dict(jit_options or {})
        self.compiled = {}  # implementation function -> dispatcher


class _OverloadSet:
    """Every overload of one callable (or of one method/attribute for one type class), with the
    implementation chosen per call shape (argument types and keyword names)."""

    def __init__(self, name):
        self.name = name
        self.templates = []
        self.cache = {}
        self.pending = []  # kiln.lib modules that register here, imported on the first resolve

    def add(self, template):
        self.templates.append(template)
        self.cache.clear()

    def resolve(self, arg_types, kwnames, required=True):
        while self.pending:
            importlib.import_module(self.pending.pop())
        key = (arg_types, kwnames)
        if key in self.cache:
            return self.cache[key]
        npos = len(arg_types) - len(kwnames)
        pos, kws = arg_types[:npos], dict(zip(kwnames, arg_types[npos:]))
        found = None
        for t in self.templates:
            impl = t.typer(*pos, **kws)
            if impl is None:
                continue
            found = _compile(t, impl, npos, kwnames, self.name)
            break
        if found is None and required:
            raise TypingError(f"{self.name}() does not accept ({_shown(arg_types, kwnames)})")
        self.cache[key] = found
        return found


def _shown(arg_types, kwnames):
    """A call's argument types as the message shows them: "float64, axis=int64"."""
    npos = len(arg_types) - len(kwnames)
    return ", ".join([str(a) for a in arg_types[:npos]] +
                     [f"{k}={v}" for k, v in zip(kwnames, arg_types[npos:])])


def _check_inline(inline):
    if inline not in _INLINE and not callable(inline):
        raise ValueError(f"inline must be 'never', 'always' or a function, not {inline!r}")


def _jit(func, options):
    from .decorators import njit

    return njit(**options)(func)


def _compile(template, impl, npos, kwnames, name):
    """The dispatcher for `impl` called with `npos` positional arguments and then `kwnames`."""
    if not callable(impl):
        raise TypingError(f"the overload of {name}() returned {impl!r}, not a function")
    disp = template.compiled.get(impl)
    if disp is None:
        disp = template.compiled[impl] = _jit(impl, template.jit_options)
    code = getattr(impl, "__code__", None)
    if code is None:
        return disp
    if not kwnames and npos == code.co_argcount and not code.co_flags & 0x0C:
        return disp  # the call fills exactly the implementation's parameters
    return _binding(disp, impl, npos, kwnames, name)


def _binding(disp, impl, npos, kwnames, name):
    """A small jitted function taking the call's arguments in the call's order and calling the
    implementation with every parameter in place: keywords moved, defaults filled in."""
    import inspect

    sig = inspect.signature(impl)
    names = [f"a{i}" for i in range(npos)] + [f"k_{k}" for k in kwnames]
    try:
        bound = sig.bind(*names[:npos], **dict(zip(kwnames, names[npos:])))
    except TypeError as e:
        raise TypingError(f"{name}(): {e}") from None
    given = set(bound.arguments)
    bound.apply_defaults()
    env = {"_impl": disp}
    args = []
    for pname, param in sig.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.KEYWORD_ONLY):
            raise TypingError(f"{name}(): implementations with *args, **kwargs or keyword-only "
                              f"parameters are not supported")
        v = bound.arguments[pname]
        if pname in given:
            args.append(v)
        else:
            env[f"_d{len(env)}"] = v
            args.append(f"_d{len(env) - 1}")
    fname = f"_kiln_bind_{next(_bind_counter)}"
    filename = f"<kiln binding of {name}: {fname}>"
    src = f"def {fname}({', '.join(names)}):\n    return _impl({', '.join(args)})\n"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), env)
    return _jit(env[fname], {"_thunk": True})  # callers inline it, the implementation stays apart


def _resolve(kind, ref, name, keys, kwnames, parallel=0):
    """Called by the C core while typing (see the module docstring); `parallel`: the calling
    function's parallel=True, for overload sets that ask for it (kiln.stencil's)."""
    args = tuple(types.from_key(k) for k in keys)
    if kind == _FUNCTION:
        if getattr(ref, "wants_parallel", False):
            return ref.resolve(args, kwnames, parallel=bool(parallel))
        return ref.resolve(args, kwnames)
    table = _attributes if kind == _ATTRIBUTE else _methods
    sets = [s for cls, s in table.get(name, ()) if isinstance(args[0], cls)]
    if kind == _HAS_METHOD:
        return bool(sets)
    for s in sets:
        disp = s.resolve(args, kwnames, required=False)
        if disp is not None:
            return disp
    if kind == _ATTRIBUTE or not sets:
        return None
    raise TypingError(f"{args[0]}.{name}() does not accept ({_shown(args[1:], kwnames)})")


def _name_of(func):
    mod = getattr(func, "__module__", None) or ""
    short = {"numpy": "np"}.get(mod.split(".")[0], mod)
    qual = getattr(func, "__qualname__", None) or getattr(func, "__name__", repr(func))
    return f"{short}.{qual}" if short and short != "builtins" and mod != "__main__" else qual


def _set_for(func):
    s = _registry.get(func)
    if s is None:
        s = _registry[func] = _OverloadSet(_name_of(func))
    return s


def _lazy(module, functions=(), methods=(), attributes=()):
    """kiln.lib: ``module`` implements ``functions`` (callables) and ``methods`` ((type class,
    name) pairs); it is imported when one of them is first resolved, so that importing kiln.lib
    costs only these names (the frontend finds a callable in _registry before any import)."""
    for func in functions:
        _set_for(func).pending.append(module)
    for type_class, name in methods:
        _owner_set(_methods, type_class, name).pending.append(module)
    for type_class, name in attributes:
        _owner_set(_attributes, type_class, name).pending.append(module)


def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False,
             **kwargs):
    """Give ``func`` an implementation for compiled code (Numba's ``numba.extending.overload``).

    The decorated function is called with the types of the call's arguments and returns the
    implementation (a Python function with the same parameters) or None."""
    return _registering(lambda: _set_for(func), jit_options, inline)


def _registering(overload_set, jit_options, inline):
    """The decorator that adds a typing function to the overload set `overload_set()` names.
    `inline` is checked as Numba checks it, then left to LLVM (small callees are inlined from
    their bitcode whatever it says)."""
    _check_inline(inline)

    def decorate(typer):
        overload_set().add(_Template(typer, jit_options))
        return typer

    return decorate


def _owner_set(table, type_class, name):
    if not (isinstance(type_class, type) and issubclass(type_class, types.Type)):
        raise TypeError(f"expected a kiln.types type class (types.Array, types.Integer, ...), "
                        f"got {type_class!r}")
    for cls, s in table.setdefault(name, []):
        if cls is type_class:
            return s
    s = _OverloadSet(f"{type_class.__name__}.{name}")
    table[name].append((type_class, s))
    return s


def overload_method(type_class, name, jit_options=None, strict=True, inline="never",
                    prefer_literal=False, **kwargs):
    """A method ``name`` for values whose type is an instance of ``type_class``; the typing
    function receives the value's type first."""
    return _registering(lambda: _owner_set(_methods, type_class, name), jit_options, inline)


def overload_attribute(type_class, name, jit_options=None, strict=True, inline="never",
                       prefer_literal=False, **kwargs):
    """An attribute ``name`` for values whose type is an instance of ``type_class``; the typing
    function receives the value's type and returns ``impl(value)``."""
    return _registering(lambda: _owner_set(_attributes, type_class, name), jit_options, inline)


def register_jitable(*args, **kwargs):
    """Make a plain Python function callable from compiled code (it stays a Python function
    when called from Python): ``@register_jitable`` or ``@register_jitable(**jit_options)``."""

    def wrap(fn):
        def typer(*a, **k):
            return fn

        _set_for(fn).add(_Template(typer, kwargs))
        return fn

    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return wrap(args[0])
    return wrap


from . import lib as _lib  # noqa: E402  kiln's own library registers itself here
