"""BLAS and LAPACK for compiled code, taken as Numba takes them: from SciPy's
``scipy.linalg.cython_blas`` and ``cython_lapack``, whose ``__pyx_capi__`` dicts hold each
routine's C function pointer in a PyCapsule. ``load()`` hands them to ``kiln._core`` once per
process (runtime/linalg.c keeps the table); kiln/lib/linalg.py calls it from its typing
functions, so a function that never uses BLAS never imports SciPy.

The functions below are the names of the primitives of lib/linalg.def (``kiln._linalg.gemm``,
...): compiled library code calls them; called from Python they raise. Each takes a dtype code
(0 float32, 1 float64, 2 complex64, 3 complex128), then arrays and sizes, and returns the
runtime's status (LAPACK's info, or a negative code below).
"""

NOMEM = -1000
TOO_BIG = -1001
MISSING = -1002

_state = {}


def _direct(name):
    """scipy.linalg.<name>, loaded without running scipy/linalg/__init__.py when it is not
    imported yet (that package imports much of SciPy: some 0.3-0.7 s). The extension module is
    put in sys.modules under its own name, so a later ``import scipy.linalg`` reuses it."""
    import sys

    full = "scipy.linalg." + name
    if full in sys.modules or "scipy.linalg" in sys.modules or sys.modules.get("scipy", 0) is None:
        import importlib
        return importlib.import_module(full)
    try:
        import importlib.machinery
        import importlib.util
        import os

        spec = importlib.util.find_spec("scipy")
        folder = os.path.join(os.path.dirname(spec.origin), "linalg")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, name + suffix)
            if os.path.exists(path):
                break
        else:
            raise ImportError(full)
        loader = importlib.machinery.ExtensionFileLoader(full, path)
        module = importlib.util.module_from_spec(
            importlib.util.spec_from_file_location(full, path, loader=loader))
        sys.modules[full] = module
        loader.exec_module(module)
        return module
    except Exception:
        sys.modules.pop(full, None)
        import importlib
        return importlib.import_module(full)


def load():
    """Fill the runtime's BLAS/LAPACK table from SciPy once; return None, or a message saying
    why BLAS is not available (SciPy missing or too old)."""
    if "error" in _state:
        return _state["error"]
    error = None
    try:
        cython_blas, cython_lapack = _direct("cython_blas"), _direct("cython_lapack")
    except ImportError as e:
        error = ("this function needs SciPy (scipy.linalg.cython_blas and cython_lapack provide "
                 "BLAS and LAPACK to compiled code), which cannot be imported: %s" % e)
    else:
        from . import _core
        missing = _core._linalg_load(cython_blas.__pyx_capi__, cython_lapack.__pyx_capi__)
        if missing:
            error = "SciPy's cython_blas/cython_lapack lack %s" % ", ".join(missing)
    _state["error"] = error
    return error



for _n in ("gemm", "gemv", "dot", "gesv", "getrf", "potrf", "syevd", "gesdd", "geqrf", "orgqr",
           "geev", "gelsd"):
    def _make(name):
        def f(*args):
            raise TypeError("kiln._linalg.%s is called only from compiled code" % name)
        f.__name__ = f.__qualname__ = name
        return f
    globals()[_n] = _make(_n)
del _n, _make
