"""kiln: a JIT compiler for numerical Python, with Numba's API.

    from kiln import njit

    @njit
    def go_fast(n):
        ...

The compiler and runtime are one C extension, ``kiln._core``, imported on first use so that
``import kiln`` stays cheap. This package is the thin layer around it: the decorators
(``njit``, ``jit``), the type objects (``kiln.types``, and the scalar types at top level as
Numba exports them: ``kiln.int64``, ``kiln.f8`` ...), errors and their rendering
(``kiln.errors``), settings from the environment (``kiln.config``) and the runtime counters
(``kiln.runtime``).
"""

from . import config, errors, runtime, types
from .decorators import generated_jit, jit, njit, prange
from ._threads import get_num_threads, get_parallel_chunksize, get_thread_id, parallel_chunksize, set_num_threads, set_parallel_chunksize, threading_layer  # noqa: E501
from ._guvectorize import guvectorize  # issue 12: NumPy gufuncs over compiled kernels
from ._vectorize import DUFunc, vectorize  # issue 12: @vectorize
from .types import (  # the scalar types Numba exports at top level (numba.types.__all__)
    b1, bool_, boolean, byte, c8, c16, char, complex64, complex128, double, f4, f8, float32,
    float64, float_, i1, i2, i4, i8, int8, int16, int32, int64, int_, intc, intp, long_,
    longlong, none, short, size_t, ssize_t, u1, u2, u4, u8, uchar, uint, uint8, uint16, uint32,
    uint64, uintc, uintp, ulong, ulonglong, ushort, void,
)

__version__ = "0.1.0"


def __getattr__(name):
    """``kiln.typed`` on first use (it imports the compiler's extension)."""
    if name == "typed":
        import importlib

        return importlib.import_module(".typed", __name__)
    if name in ("stencil", "StencilFunc"):  # kiln/stencil.py, imported on first use
        from .stencil import StencilFunc, stencil

        globals().update(stencil=stencil, StencilFunc=StencilFunc)
        return globals()[name]
    raise AttributeError(f"module 'kiln' has no attribute {name!r}")


def literal_unroll(container):
    """``for x in literal_unroll(t)`` over a tuple whose items have different types: compiled
    code runs the loop's body once per item, each copy typed for its item (as Numba's
    ``literal_unroll``). In the interpreter it is the tuple itself."""
    return container


def literally(value):
    """``numba.literally``: the value itself. kiln specialises on argument types, not on literal
    values, so compiled code treats it as ``value`` too."""
    return value


def typeof(value, purpose=None):
    """The kiln type of ``value`` as a compiled function's argument (ValueError if it has none)."""
    from . import _core

    return types.from_key(_core.typeof(value))


__all__ = [
    "njit", "jit", "generated_jit", "prange", "literal_unroll", "literally", "typeof", "types", "errors", "runtime", "config",
    "__version__",
    "stencil",
] + types.scalar_names
__all__ += ["set_num_threads", "get_num_threads", "get_thread_id", "set_parallel_chunksize", "get_parallel_chunksize", "parallel_chunksize", "threading_layer"]  # noqa: E501
__all__ += ["guvectorize"]
__all__ += ["vectorize", "DUFunc"]
