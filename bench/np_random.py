#!/usr/bin/env python3
"""np.random's speed in compiled code (lib/np_random.def), side by side with NumPy and Numba.

    .venv/bin/python bench/np_random.py            # ~1 min
    .venv/bin/python bench/np_random.py --quick

Steady state, each engine in a subprocess of its own: np.random.normal(size=10**6) (the legacy
polar method in all three), a scalar loop of 10**6 np.random.random() + np.random.normal()
calls, and rng.standard_normal(10**6) of a Generator passed in (NumPy's ziggurat; Numba passes
Generators too); the median of the rounds. First call: a fresh process per measurement that
imports kiln, defines a function calling np.random.normal(size=...) (resp. rng.normal) and calls
it once; the time from the decorator to the first result (compile + run), the median of a few
processes. Reports only: nothing here is asserted.
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
N = 1_000_000
def normal(n): return np.random.normal(0.0, 1.0, n)
def scalars(n):
    t = 0.0
    for i in range(n):
        t += np.random.random() + np.random.normal(0.0, 1.0)
    return t
def gen_normal(g, n): return g.standard_normal(n)
funcs = {"normal(size=1e6)": normal, "scalar loop 1e6": scalars}
gens = {"Generator.standard_normal(1e6)": gen_normal}
if engine == "kiln":
    import kiln
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
    gens = {k: kiln.njit(f) for k, f in gens.items()}
elif engine == "numba":
    import numba
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
    gens = {k: numba.njit(f) for k, f in gens.items()}
else:
    gens = {"Generator.standard_normal(1e6)": lambda g, n: g.standard_normal(n)}
out = {}
g = np.random.default_rng(0)
for k, f in list(funcs.items()) + list(gens.items()):
    call = (lambda: f(g, N)) if k in gens else (lambda: f(N))
    call()
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); call(); ts.append(time.perf_counter() - t)
    out[k] = ts
print(json.dumps(out))
'''

FIRST = r'''
import time
t0 = time.perf_counter()
import numpy as np
import kiln
t1 = time.perf_counter()
@kiln.njit
def f(n):
    np.random.seed(1)
    return np.random.normal(0.0, 1.0, n)
@kiln.njit
def h(g, n):
    return g.normal(0.0, 1.0, n)
t2 = time.perf_counter()
%(call)s
t3 = time.perf_counter()
print((t3 - t2) * 1000)
'''


def run(code, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)  # kiln compiles from source: a file, not -c
    try:
        r = subprocess.run([sys.executable, "-P", f.name, *args], capture_output=True, text=True,
                           check=True)
    finally:
        os.unlink(f.name)
    return r.stdout.strip().splitlines()[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    opt = ap.parse_args()
    rounds = 5 if opt.quick else 15
    res = {e: json.loads(run(STEADY, e, str(rounds))) for e in ("kiln", "numba", "numpy")}
    print(f"{'case':34} {'kiln ms':>9} {'numba ms':>9} {'numpy ms':>9} {'kiln/numba':>11} "
          f"{'kiln/numpy':>11}")
    for k in res["kiln"]:
        m = {e: statistics.median(res[e][k]) * 1000 for e in res}
        print(f"{k:34} {m['kiln']:9.2f} {m['numba']:9.2f} {m['numpy']:9.2f} "
              f"{m['kiln'] / m['numba']:11.2f} {m['kiln'] / m['numpy']:11.2f}")
    n = 3 if opt.quick else 7
    for name, call in (("np.random.normal(size=10)", "f(10)"),
                       ("rng.normal(size=10)", "h(np.random.default_rng(0), 10)")):
        ts = [float(run(FIRST % {"call": call})) for _ in range(n)]
        print(f"first call of {name:28} median {statistics.median(ts):6.1f} ms "
              f"(min {min(ts):.1f}, max {max(ts):.1f}, {n} processes)")


if __name__ == "__main__":
    main()
