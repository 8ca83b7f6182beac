#!/usr/bin/env python3
"""First calls of functions using issue 11's construction, signal/calculus and array-method
functions (CONS), each in a fresh process: kiln and Numba side by side.

    .venv/bin/python bench/first_call_construction.py [--procs 5] [--only diag,kron] [--callgrind]

Target: the first call (compile + run) of a function using any one of them stays at most 25 ms
in a fresh process (the import of the JIT not counted). The method is bench/first_call_features.py's
(its machinery is reused: fresh processes taking turns, medians, results compared).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import first_call_features as base  # noqa: E402

_A = "import numpy as np\n"
FEATURES = {
    "zeros_order": _A + '''
@jit
def f(n):
    a = np.zeros((n, n), 'f4', order='F')
    b = np.ones(n, np.dtype('int16'))
    return float(a.sum() + b.sum())
ARGS = (50,)
''',
    "logspace": _A + '''
@jit
def f(n):
    return float(np.logspace(0.0, 2.0, n).sum() + np.geomspace(1.0, 8.0, n).sum())
ARGS = (50,)
''',
    "meshgrid": _A + '''
@jit
def f(x, y):
    a, b = np.meshgrid(x, y)
    return float((a * b).sum())
ARGS = (np.arange(20.0), np.arange(30.0))
''',
    "diag": _A + '''
@jit
def f(a):
    return float(np.diag(a).sum() + np.diag(a, 1).sum())
ARGS = (np.arange(100.0).reshape(10, 10),)
''',
    "tril": _A + '''
@jit
def f(a):
    return float(np.tril(a).sum() + np.triu(a, 1).sum())
ARGS = (np.arange(100.0).reshape(10, 10),)
''',
    "vander": _A + '''
@jit
def f(x):
    return float(np.vander(x, 4).sum())
ARGS = (np.arange(10.0),)
''',
    "correlate": _A + '''
@jit
def f(a, v):
    return float(np.correlate(a, v, 'full').sum())
ARGS = (np.arange(100.0), np.arange(5.0))
''',
    "cross": _A + '''
@jit
def f(a, b):
    return float(np.cross(a, b).sum())
ARGS = (np.arange(30.0).reshape(10, 3), np.arange(3.0))
''',
    "kron": _A + '''
@jit
def f(a, b):
    return float(np.kron(a, b).sum())
ARGS = (np.arange(4.0).reshape(2, 2), np.arange(9.0).reshape(3, 3))
''',
    "trapezoid": _A + '''
@jit
def f(y, x):
    return float(np.trapezoid(y, x))
ARGS = (np.arange(100.0), np.arange(100.0) * 0.5)
''',
    "gradient": _A + '''
@jit
def f(y):
    return float(np.gradient(y, 0.5).sum())
ARGS = (np.arange(100.0) ** 2,)
''',
    "ediff1d": _A + '''
@jit
def f(y):
    return float(np.ediff1d(y, to_begin=np.zeros(1)).sum())
ARGS = (np.arange(100.0) ** 2,)
''',
    "polyval": _A + '''
@jit
def f(p, x):
    return float(np.polyval(p, x).sum())
ARGS = (np.arange(4.0), np.arange(100.0))
''',
    "diff_prepend": _A + '''
@jit
def f(y):
    return float(np.diff(y, prepend=0.0).sum())
ARGS = (np.arange(100.0) ** 2,)
''',
    "item_clip_view": _A + '''
@jit
def f(a):
    return float(a.item(3) + a.clip(2.0, 5.0).sum() + a.view(np.int64)[1])
ARGS = (np.arange(10.0),)
''',
    "iinfo": _A + '''
@jit
def f(x):
    return float(np.iinfo(np.int16).max + np.finfo(np.float32).eps * x)
ARGS = (2.0,)
''',
}

if __name__ == "__main__":
    base.FEATURES = FEATURES
    sys.exit(base.main())
