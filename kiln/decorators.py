"""``njit`` and ``jit``: check options, build a ``kiln._core.Dispatcher``, compile signatures.

Every form Numba accepts works::

    @njit                     @njit()                   @njit(fastmath=True)
    @njit("float64(int64, float64)")                    @njit(["int64(int64)", "float64(float64)"])
    @njit(kiln.float64(kiln.int64))                     @njit("(int64, float64)")   # no return type
    njit(func)                njit(sig, **opts)(func)   @jit   @jit(nopython=True)

As since Numba 0.59, ``jit`` compiles in nopython mode: ``nopython=False`` has no effect (with a
deprecation warning) and object mode (``forceobj=True``) is not supported. With ``nogil=True``
the dispatcher releases the GIL while the compiled code runs (arguments are unboxed before and
the result boxed after, and ``print`` takes the GIL back for itself). ``looplift`` only matters in object mode and is ignored likewise.
The supported options are ``fastmath`` (True, or a set or dict of LLVM's flag names ``nnan ninf
nsz arcp contract afn reassoc``), ``error_model``, ``boundscheck``, ``nogil``, ``inline``,
``forceinline``, ``locals``, ``no_cpython_wrapper`` and ``debug=False``:

- ``inline='always'`` and ``forceinline=True`` mark the compiled function ``alwaysinline`` for
  LLVM and keep its bitcode whatever its size, so every jitted caller inlines it (Numba inlines
  ``inline='always'`` in its own IR; the result is the same code). ``inline='never'`` (the
  default) leaves the choice to LLVM, which inlines small callees. A cost-model callable is
  accepted and never called: kiln does no inlining of its own, so it behaves as ``'never'``.
- ``locals={'x': float32}`` fixes the type of the variable ``x``: every value stored in it is
  converted to that type, as in Numba (a float to an int truncates); a value that cannot be
  converted (a complex to a float, an array to a number) is a TypingError at the assignment.
- ``no_cpython_wrapper=True`` is accepted; kiln still makes the function callable from Python.

Any other option Numba knows raises ``UnsupportedError`` unless it is given its default value,
and an unknown option name raises ``KeyError``, as in Numba.
With ``KILN_DISABLE_JIT=1`` (``kiln.config.DISABLE_JIT``) the decorators return the function.
"""

import warnings
from types import FunctionType

from . import config
from .errors import KilnDeprecationWarning, UnsupportedError
from .types import Signature, StringLiteral, Type, from_key, parse_signature

FASTMATH_FLAGS = frozenset("nnan ninf nsz arcp contract afn reassoc fast".split())

# Options Numba knows that kiln does not implement yet, with the value that is accepted.
_DEFAULT_ONLY = {
    "cache": False, "no_cfunc_wrapper": False, "no_rewrites": False, "debug": False, "_nrt": True,
    "target": "cpu", "_target": "cpu", "target_backend": "cpu", "pipeline_class": None,
}
_KNOWN = frozenset(_DEFAULT_ONLY) | {
    "nopython", "forceobj", "nogil", "looplift", "fastmath", "error_model", "boundscheck",
    "inline", "locals", "forceinline", "no_cpython_wrapper", "_thunk", "parallel",
}


def njit(signature_or_function=None, **options):
    """Compile a function in nopython mode; see the module docstring for the accepted forms."""
    if "nopython" in options:
        warnings.warn("nopython is set for njit and is ignored", RuntimeWarning, stacklevel=2)
    if "forceobj" in options:
        warnings.warn("forceobj is set for njit and is ignored", RuntimeWarning, stacklevel=2)
        del options["forceobj"]
    options["nopython"] = True
    return _jit(signature_or_function, options)


def jit(signature_or_function=None, **options):
    """Same as :func:`njit` (Numba >= 0.59 compiles ``jit`` in nopython mode by default)."""
    nopython = options.get("nopython", True)
    if options.get("forceobj", False) and nopython is True and "nopython" in options:
        raise ValueError("Only one of 'nopython' or 'forceobj' can be True.")
    if nopython is False:
        warnings.warn("The keyword argument 'nopython=False' was supplied. kiln, like Numba "
                      "0.59 and later, always compiles in nopython mode: the argument has no "
                      "effect.", KilnDeprecationWarning, stacklevel=2)
    return _jit(signature_or_function, options)


def generated_jit(*args, **kwargs):
    """Not supported: Numba removed it in 0.59 (use ``numba.extending.overload`` patterns)."""
    raise UnsupportedError("generated_jit is not supported (Numba removed it in 0.59); "
                           "write a plain function and branch on argument types instead")


class prange:
    """``range`` for loops meant to run in parallel (as ``numba.prange``). In a function
    compiled with ``parallel=True`` each ``for i in prange(...)`` loop is outlined and its
    iterations are split over kiln's thread pool (docs/parallel.md, "prange loops"); anywhere
    else, and in Python, it is ``range``."""

    def __new__(cls, *args):
        return range(*args)


def _jit(signature_or_function, options):
    if config.DISABLE_JIT:
        func, _ = _split(signature_or_function, parse=False)
        return _disabled if func is None else _disabled(func)
    func, sigs = _split(signature_or_function)
    core_options = parse_options(options)

    def wrapper(func):
        _check_function(func)
        if config.DISABLE_JIT:
            return func
        from . import _core

        disp = _core.Dispatcher(func, core_options)
        for sig in sigs or ():
            ret = None if sig.return_type is None else sig.return_type.key
            disp.compile(tuple(t.key for t in sig.args), ret)
        return disp

    return wrapper if func is None else wrapper(func)


def _disabled(func):
    _check_function(func)
    return func


def _split(arg, parse=True):
    """``(function or None, list of Signature or None)`` from the first argument of jit."""
    if arg is None:
        return None, None
    if isinstance(arg, list):
        return None, [_signature(s) for s in arg] if parse else None
    if isinstance(arg, (str, tuple, Signature)):
        return None, [_signature(arg)] if parse else None
    return arg, None


def _signature(sig):
    if isinstance(sig, str):
        return parse_signature(sig)
    if isinstance(sig, Signature):
        return sig
    if isinstance(sig, tuple):
        return Signature(None, sig)
    raise TypeError(f"a signature must be a string, a kiln signature or a tuple of kiln types, "
                    f"not {sig!r}")


def _check_function(func):
    if isinstance(func, FunctionType):
        return
    from . import _core

    if isinstance(func, getattr(_core, "Dispatcher", ())):
        raise TypeError(f"A jit decorator was called on an already jitted function {func}. "
                        f"If trying to access the original python function, use the "
                        f"{func}.py_func attribute.")
    raise TypeError(f"The decorated object is not a function (got type {type(func)}).")


def parse_options(options):
    """Check the decorator options; return the dict ``kiln._core.Dispatcher`` takes."""
    unknown = set(options).difference(_KNOWN)
    if unknown:
        raise KeyError(f"Unrecognized options: {sorted(unknown)}. "
                       f"Known options are {sorted(_KNOWN)}")
    for name, default in _DEFAULT_ONLY.items():
        if name in options and options[name] != default:
            raise UnsupportedError(f"the option {name}={options[name]!r} is not supported yet "
                                   f"(only {name}={default!r})")
    if options.get("forceobj", False):
        raise UnsupportedError("the option forceobj=True is not supported: kiln compiles "
                               "in nopython mode only (object mode is not implemented)")
    for name in ("nopython", "nogil", "looplift", "forceinline", "no_cpython_wrapper"):
        if not isinstance(options.get(name, False), bool):
            raise TypeError(f"the option {name} must be a bool, not {options[name]!r}")
    parallel = _parallel(options.get("parallel", False))
    inline_always = _check_inline(options.get("inline", "never"))
    locals_ = _locals(options.get("locals", {}))
    error_model = options.get("error_model", "python")
    if error_model not in ("python", "numpy"):
        raise ValueError(f"error_model must be 'python' or 'numpy', not {error_model!r}")
    boundscheck = options.get("boundscheck")
    if boundscheck is not None and not isinstance(boundscheck, bool):
        raise TypeError(f"the option boundscheck must be True, False or None, "
                        f"not {boundscheck!r}")
    if config.BOUNDSCHECK is not None:
        boundscheck = config.BOUNDSCHECK
    parsed = {
        "fastmath": _fastmath(options.get("fastmath", False)),
        "boundscheck": boundscheck,
        "error_model": error_model,
        "nogil": options.get("nogil", False),
        "parallel": parallel,
    }
    if inline_always or options.get("forceinline", False):
        parsed["inline"] = "always"
    if locals_:
        parsed["locals"] = locals_
    if options.get("nopython", True) is False:  # a failed compile says there is no fallback
        parsed["objmode_fallback"] = True
    if options.get("_thunk"):  # kiln.extending's bindings: forward a call, callee out of line
        parsed["_thunk"] = True
    return parsed


def _parallel(value):
    """parallel=True/False, or Numba's dict of passes ({"prange": True, ...}): enabled when the
    value is True or the dict enables anything."""
    if isinstance(value, bool):
        return value
    if isinstance(value, dict):
        known = {"comprehension", "prange", "numpy", "reduction", "setitem", "stencil",
                 "fusion", "inplace_binop"}
        unknown = set(value).difference(known)
        if unknown:
            raise NameError(f"Unrecognized parallel options: {sorted(unknown)}")
        return any(bool(v) for v in value.values())
    raise ValueError(f"Expect parallel option to be either a bool or a dict, not {value!r}")


def _fastmath(value):
    if value is True:
        return frozenset({"fast"})
    if value is False:
        return frozenset()
    if isinstance(value, dict):
        names, flags = set(value), {k for k, on in value.items() if on}
    elif isinstance(value, (set, frozenset, list, tuple)):
        names = flags = set(value)
    else:
        raise ValueError(f"Expected fastmath option(s) to be either a bool, dict or set, "
                         f"not {value!r}")
    bad = names - FASTMATH_FLAGS
    if bad:
        raise ValueError(f"Unrecognized fastmath flags: {sorted(bad, key=str)}; known flags "
                         f"are {', '.join(sorted(FASTMATH_FLAGS))}")
    return frozenset(flags)


def _check_inline(value):
    """True for inline='always'; 'never' and a cost-model callable (accepted, never called:
    kiln leaves inlining to LLVM) are False."""
    if isinstance(value, str) and value in ("always", "never"):
        return value == "always"
    if callable(value):
        return False
    raise ValueError(f"inline must be 'always', 'never' or a callable, not {value!r}")


def _locals(value):
    """``locals={'x': float32}`` as ``{name: type key}`` for ``_core``."""
    if not isinstance(value, dict):
        raise TypeError(f"the option locals must be a dict, not {value!r}")
    out = {}
    for name, t in value.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"the names in locals must be variable names, not {name!r}")
        t = _as_type(t)
        if t is None or isinstance(t, StringLiteral):
            raise TypeError(f"locals[{name!r}] must be a kiln type (kiln.float32, "
                            f"kiln.int64[:], ...), not {value[name]!r}")
        out[name] = t.key
    return out


def _as_type(t):
    """A kiln type for a kiln type, a NumPy scalar class or a dtype (None otherwise)."""
    if isinstance(t, Type):
        return t
    import numpy

    if not isinstance(t, (type, numpy.dtype)):
        return None
    try:
        return from_key(numpy.dtype(t).name)
    except (TypeError, ValueError):
        return None
