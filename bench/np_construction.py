#!/usr/bin/env python3
"""Speed of issue 11's signal and construction functions (CONS), side by side with NumPy and
Numba.

    .venv/bin/python bench/np_construction.py [--rounds 15]

Steady state, each called from a compiled function (kiln, Numba) and as NumPy itself:
np.convolve and np.correlate of 10^5 float64 by 21 taps ('full'; NumPy runs the same direct
algorithm in C), np.convolve of 2000 by 2000, np.tril of a 1000x1000 float64 array, and
np.vander of 10^5 float64 with 8 columns. Each engine runs in a subprocess of its own; the
median of the rounds. Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SCRIPT = r'''
import json, statistics, sys, time
import numpy as np
engine, rounds = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
a = rng.standard_normal(100_000)
v = rng.standard_normal(21)
b = rng.standard_normal(2000)
m = rng.standard_normal((1000, 1000))
def convolve(a, v): return np.convolve(a, v)
def correlate(a, v): return np.correlate(a, v, "full")
def convolve_big(a, v): return np.convolve(a, v)
def tril(m, k): return np.tril(m, k)
def vander(a, n): return np.vander(a, n)
cases = {"convolve 1e5 x 21": (convolve, (a, v)), "correlate 1e5 x 21": (correlate, (a, v)),
         "convolve 2000 x 2000": (convolve_big, (b, b)), "tril 1000x1000": (tril, (m, 0)),
         "vander 1e5 x 8": (vander, (a, 8))}
if engine in ("kiln", "numba"):
    eng = __import__(engine)
    cases = {k: (eng.njit(f), args) for k, (f, args) in cases.items()}
out = {}
for k, (f, args) in cases.items():
    f(*args)  # compile, warm
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(*args); ts.append(time.perf_counter() - t)
    out[k] = statistics.median(ts) * 1e3
print(json.dumps(out))
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    res = {}
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    tmp = tempfile.mkdtemp(prefix="kiln_bench_cons_")
    path = os.path.join(tmp, "np_construction_case.py")  # kiln compiles from source
    with open(path, "w") as f:
        f.write(SCRIPT)
    for engine in ("kiln", "numba", "numpy"):
        out = subprocess.run([sys.executable, "-P", path, engine, str(args.rounds)],
                             capture_output=True, text=True, env=env, cwd=tmp)
        if out.returncode:
            print(f"{engine} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        res[engine] = json.loads(out.stdout.strip().splitlines()[-1])
    print("| case | kiln ms | Numba ms | NumPy ms | kiln/Numba | kiln/NumPy |")
    print("|---|---:|---:|---:|---:|---:|")
    for case in res.get("kiln", {}):
        k, nb, npy = (res.get(e, {}).get(case) for e in ("kiln", "numba", "numpy"))
        print(f"| {case} | {k:.3f} | {nb:.3f} | {npy:.3f} | {k / nb:.2f} | {k / npy:.2f} |")


if __name__ == "__main__":
    main()
