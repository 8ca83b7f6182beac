#!/usr/bin/env python3
"""parallel=True array expressions and reductions (lower/parallel_array.c), side by side: kiln
with parallel=True, kiln without it, Numba with parallel=True, and NumPy.

    .venv/bin/python bench/parallel_array.py            # ~1-2 min
    .venv/bin/python bench/parallel_array.py --quick

Steady state, the median of rounds taken in turn, each engine in a subprocess of its own:
- axpy: a * b + c on float64 arrays of 10^6 and 10^7 elements (a new result each call);
- sum: np.sum(a) of 10^7 float64;
- small axpy: a * b + c on 100 elements (what the inline path costs a parallel function);
- zeros: np.zeros(10^7).
First call: a fresh process that defines `a * b + c` (kiln with and without parallel=True,
Numba with it) and calls it once on 1000 elements (decoration to result).
The speed-up of the parallel columns depends on the thread pool: with the serial placeholder
pool of src/parallel/pool.c (main before POOL's merge) they measure the overhead of the
outlined loops only. Reports only: nothing here is asserted.
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
data = {n: (rng.random(n), rng.random(n), rng.random(n)) for n in (100, 10**6, 10**7)}
def axpy(a, b, c):
    return a * b + c
def total(a):
    return np.sum(a)
def zeros(n):
    return np.zeros(n)
if engine == "kiln-par":
    import kiln
    jit = kiln.njit(parallel=True)
elif engine == "kiln":
    import kiln
    jit = kiln.njit
elif engine == "numba-par":
    import numba
    jit = numba.njit(parallel=True)
else:
    jit = lambda f: f
axpy, total, zeros = jit(axpy), jit(total), jit(zeros)
cases = {
    "axpy 10^6": (axpy, data[10**6]),
    "axpy 10^7": (axpy, data[10**7]),
    "sum 10^7": (total, data[10**7][:1]),
    "axpy 100": (axpy, data[100]),
    "zeros 10^7": (zeros, (10**7,)),
}
out = {}
for k, (f, args) in cases.items():
    f(*args)
    reps = 2000 if k == "axpy 100" else 1
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(reps):
            f(*args)
        ts.append((time.perf_counter() - t) / reps)
    out[k] = ts
print(json.dumps(out))
'''

FIRST = r'''
import time
import numpy as np
t0 = time.perf_counter()
import %(mod)s as eng
t1 = time.perf_counter()
@eng.njit(parallel=%(par)s)
def f(a, b, c):
    return a * b + c
a = np.linspace(0.0, 1.0, 1000)
f(a, a, a)
print(time.perf_counter() - t1)
'''

ENGINES = ["kiln-par", "kiln", "numba-par", "numpy"]


def run(code, *args):
    with tempfile.TemporaryDirectory() as d:  # never import the source tree's kiln/
        path = os.path.join(d, "case.py")  # kiln compiles from source: a file, not -c
        with open(path, "w") as f:
            f.write(code)
        p = subprocess.run([sys.executable, path, *args], cwd=d, capture_output=True, text=True,
                           check=True)
    return p.stdout.strip().splitlines()[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    rounds, turns = (3, 2) if opts.quick else (5, 3)
    times = {}
    for _ in range(turns):
        for e in ENGINES:
            for k, ts in json.loads(run(STEADY, e, str(rounds))).items():
                times.setdefault(k, {}).setdefault(e, []).extend(ts)
    print(f"threads: numba {numba_threads()}, cores {os.cpu_count()}")
    print(f"{'case':<12}" + "".join(f"{e:>12}" for e in ENGINES) + f"{'par/serial':>12}")
    for k, row in times.items():
        med = {e: statistics.median(v) for e, v in row.items()}
        unit, scale = ("us", 1e6) if med["numpy"] < 1e-3 else ("ms", 1e3)
        cells = "".join(f"{med[e] * scale:>10.2f}{unit}" for e in ENGINES)
        print(f"{k:<12}{cells}{med['kiln-par'] / med['kiln']:>12.2f}")
    n = 3 if opts.quick else 7
    for mod, par in (("kiln", True), ("kiln", False), ("numba", True)):
        first = [float(run(FIRST % {"mod": mod, "par": par})) for _ in range(n)]
        print(f"first call, parallel={par}, {mod}: {statistics.median(first) * 1e3:.1f} ms "
              f"(median of {n} processes)")


def numba_threads():
    try:
        return run("import numba; print(numba.config.NUMBA_NUM_THREADS)")
    except subprocess.CalledProcessError:
        return "?"


if __name__ == "__main__":
    main()
