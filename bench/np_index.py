#!/usr/bin/env python3
"""Advanced indexing's speed (runtime/fancy.c), side by side with NumPy and Numba.

    .venv/bin/python -P bench/np_index.py            # ~1 min
    .venv/bin/python -P bench/np_index.py --quick

Steady state, 10^6 float64 (a) and 10^6 random int64 indices (idx), each called from a
compiled function (kiln, Numba) and as NumPy itself:
- gather ``a[idx]``, scatter ``a[idx] = b`` (b float64, len(idx)), mask selection ``a[a > 0]``,
  masked assignment ``a[a > 0] = 0.0``, row gather ``m[rows]`` of a 1000x1000 array with 1000
  row indices, ``np.take(a, idx)``.
Each engine runs in a subprocess of its own; the median of the rounds is reported, and the
ratios kiln/NumPy and kiln/Numba. First call: a fresh process per engine that defines a
function using ``a[idx]`` and ``a[mask]`` and calls it once (decorator to result, median of 3).
Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

STEADY = r'''
import json, sys, time
import numpy as np
engine, rounds = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
n = 1_000_000
a = rng.standard_normal(n)
idx = rng.integers(0, n, n)
b = rng.standard_normal(n)
m = rng.standard_normal((1000, 1000))
rows = rng.integers(0, 1000, 1000)
def gather(a, idx, b, m, rows): return a[idx]
def scatter(a, idx, b, m, rows):
    a[idx] = b
    return a
def mask(a, idx, b, m, rows): return a[a > 0]
def mask_set(a, idx, b, m, rows):
    a[a > 0.5] = 0.0
    return a
def row_gather(a, idx, b, m, rows): return m[rows]
def take(a, idx, b, m, rows): return np.take(a, idx)
funcs = {"gather a[idx]": gather, "scatter a[idx] = b": scatter, "mask a[a > 0]": mask,
         "mask set a[a > .5] = 0": mask_set, "rows m[rows]": row_gather,
         "np.take(a, idx)": take}
if engine == "kiln":
    import kiln
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
elif engine == "numba":
    import numba
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
out = {}
for k, f in funcs.items():
    w = a.copy()
    f(w, idx, b, m, rows)  # compile, warm
    ts = []
    for _ in range(rounds):
        w = a.copy()
        t = time.perf_counter(); f(w, idx, b, m, rows); ts.append(time.perf_counter() - t)
    out[k] = ts
print(json.dumps(out))
'''

FIRST = r'''
import time
import numpy as np
import %(engine)s as eng
t1 = time.perf_counter()
@eng.njit
def f(a, idx):
    return a[idx].sum() + a[a > 0.5].sum()
a = np.linspace(0.0, 1.0, 1000)
f(a, np.arange(10))
print(time.perf_counter() - t1)
'''


def have(mod):
    return subprocess.run([sys.executable, "-P", "-c", f"import {mod}"],
                          capture_output=True).returncode == 0


def run_script(code, *argv):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
        path = f.name
    try:
        r = subprocess.run([sys.executable, "-P", path, *argv], capture_output=True, text=True,
                           check=True)
        return r.stdout.strip().splitlines()[-1]
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds = 5 if args.quick else 21
    engines = ["kiln", "numpy"] + (["numba"] if have("numba") else [])
    res = {e: json.loads(run_script(STEADY, e, str(rounds))) for e in engines}
    print(f"steady state, median of {rounds} rounds (ms)")
    head = f"{'':26}" + "".join(f"{e:>10}" for e in engines) + f"{'k/np':>8}{'k/nb':>8}"
    print(head)
    for k in res["kiln"]:
        med = {e: statistics.median(res[e][k]) * 1e3 for e in engines}
        line = f"{k:26}" + "".join(f"{med[e]:10.3f}" for e in engines)
        line += f"{med['kiln'] / med['numpy']:8.2f}"
        if "numba" in med:
            line += f"{med['kiln'] / med['numba']:8.2f}"
        print(line)
    print("first call (ms): decorator to first result of a[idx].sum() + a[a > 0.5].sum()")
    for e in [x for x in engines if x != "numpy"]:
        ts = [float(run_script(FIRST % {"engine": e})) * 1e3 for _ in range(3)]
        print(f"  {e:8} {statistics.median(ts):8.1f}")


if __name__ == "__main__":
    main()
