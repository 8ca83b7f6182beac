#!/usr/bin/env python3
"""First calls of functions reading and writing fields of structured arrays, each in a fresh
process: kiln and Numba (bench/first_call_features.py's method and table, its features
replaced by these).

    .venv/bin/python bench/np_records_first_call.py [--procs 5] [--only read,write,view] [--callgrind]

Issue 11's target: the first call of a function reading a field at most 25 ms in a fresh
process (the imports and making the array are not counted).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import first_call_features as fcf  # noqa: E402

SETUP = '''
import numpy as np
dt = np.dtype([("x", "f8"), ("v", "f8"), ("id", "i4")])
a = np.zeros(1000, dt)
a["x"] = np.arange(1000) * 0.5
a["id"] = np.arange(1000) % 7
'''

fcf.FEATURES = {
    "plain (reference: float arrays, no records)": SETUP + '''
x = a["x"].copy()
ids = a["id"].copy()

@jit
def f(x, ids):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * ids[i]
    return s
ARGS = (x, ids)
''',
    "read": SETUP + '''
@jit
def f(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i].x * a[i].id
    return s
ARGS = (a,)
''',
    "write": SETUP + '''
@jit
def f(a):
    for i in range(len(a)):
        r = a[i]
        r.v = r.x + r.id
    return a[7].v
ARGS = (a,)
''',
    "view": SETUP + '''
@jit
def f(a):
    return a["x"].sum() + a.id.max()
ARGS = (a,)
''',
}

if __name__ == "__main__":
    sys.exit(fcf.main())
