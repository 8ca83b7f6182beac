#!/usr/bin/env python3
"""kiln's thread pool: fork/join of an empty region and a 1000-double sum, vs Numba's layers.

    .venv/bin/python bench/parallel_pool.py [--repeat 7] [--threads N]

Every number is the median of --repeat samples, each taken in its own subprocess (kiln and each
Numba threading layer never share a process). kiln's regions are timed in C through
kiln._core._pool_bench (a loop of kn_par_for calls with C bodies, no Python call per region);
Numba's through timeit of a parallel=True function, which includes Numba's call overhead
(measured too: the same call of a serial function, "numba call"). Rows:

- empty region: a region of `threads` iterations whose body does nothing (kiln) or writes one
  element (Numba: an empty prange body would be removed); kiln with the small-work guard off
  (KILN_PAR_MIN_NS=0), so that the pool really forks and joins.
- sum 1000: the sum of 1000 doubles, serial loop vs a region (per-thread partial sums in
  cache-line-padded slots): kiln with the guard off (the pool's own cost), kiln as shipped (the
  guard measures the body and runs so small a region inline) and Numba's prange reduction.
- sum 100000: the same with 10^5 doubles.
- 2 threads at once: two Python threads each running regions of the 10^5 sum (the second
  region runs inline while the first has the pool): time per region over both threads.

Results depend on the machine's load: on a busy machine a spinning worker loses its core and
the fork/join cost is that of a futex wake-up.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap

KILN = """
import json, sys, threading, kiln, kiln._core as c
threads, reps = int(sys.argv[1]), int(sys.argv[2])
out = {}
c._threads(6, -1, 0)  # guard off
c._pool_bench(0, threads, 1000)
out["empty region"] = c._pool_bench(0, threads, reps)[0]
c._pool_bench(1, 1000, 1000)
out["sum 1000 (region)"] = c._pool_bench(1, 1000, reps)[0]
out["sum 1000 (serial)"] = c._pool_bench(2, 1000, reps)[0]
out["sum 100000 (region)"] = c._pool_bench(1, 100000, max(10, reps // 100))[0]
out["sum 100000 (serial)"] = c._pool_bench(2, 100000, max(10, reps // 100))[0]
c._threads(6, -1, 4000)  # as shipped
c._pool_bench(1, 1000, 1000)
out["sum 1000 (region, guard on)"] = c._pool_bench(1, 1000, reps)[0]
r = max(10, reps // 100)
res = []
ts = [threading.Thread(target=lambda: res.append(c._pool_bench(1, 100000, r)[0])) for _ in range(2)]
import time
t0 = time.perf_counter()
for t in ts: t.start()
for t in ts: t.join()
out["2 threads at once, sum 100000"] = (time.perf_counter() - t0) * 1e9 / (2 * r)
print(json.dumps(out))
"""

NUMBA = """
import json, os, sys, timeit
import numpy as np
import numba
threads, reps = int(sys.argv[1]), int(sys.argv[2])

@numba.njit(parallel=True)
def empty(a):
    for i in numba.prange(a.shape[0]):
        a[i] = i

@numba.njit(parallel=True)
def psum(x):
    s = 0.0
    for i in numba.prange(x.shape[0]):
        s += x[i]
    return s

@numba.njit
def ssum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s

@numba.njit
def nothing(a):
    return a

def per_call(f, arg, n):
    f(arg)
    return min(timeit.repeat(lambda: f(arg), number=n, repeat=3)) / n * 1e9

a = np.zeros(threads)
x3, x5 = np.arange(1000) % 7 * 0.5, np.arange(100000) % 7 * 0.5
out = {"layer": None}
out["empty region"] = per_call(empty, a, reps)
out["layer"] = numba.threading_layer()
out["numba call"] = per_call(nothing, a, reps)
out["sum 1000 (region)"] = per_call(psum, x3, reps)
out["sum 1000 (serial)"] = per_call(ssum, x3, reps)
out["sum 100000 (region)"] = per_call(psum, x5, max(10, reps // 100))
out["sum 100000 (serial)"] = per_call(ssum, x5, max(10, reps // 100))
print(json.dumps(out))
"""


def sample(script, args, env):
    full = dict(os.environ)
    full.update(env)
    r = subprocess.run([sys.executable, "-P", "-c", textwrap.dedent(script)] + args,
                       env=full, capture_output=True, text=True, timeout=600)
    if r.returncode:
        return None, r.stderr.strip().splitlines()[-1:]
    return json.loads(r.stdout), None


def medians(script, args, env, repeat):
    runs = []
    for _ in range(repeat):
        got, err = sample(script, args, env)
        if got is None:
            return None, err
        runs.append(got)
    keys = [k for k in runs[0] if k != "layer"]
    out = {k: statistics.median(r[k] for r in runs) for k in keys}
    out["layer"] = runs[0].get("layer")
    return out, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--reps", type=int, default=20000)
    a = ap.parse_args()
    env = {"KILN_NUM_THREADS": str(a.threads), "NUMBA_NUM_THREADS": str(a.threads)}
    cols = {}
    cols["kiln"], err = medians(KILN, [str(a.threads), str(a.reps)], env, a.repeat)
    if err:
        sys.exit(f"kiln failed: {err}")
    for layer in ("workqueue", "omp", "tbb"):
        got, err = medians(NUMBA, [str(a.threads), str(a.reps)],
                           dict(env, NUMBA_THREADING_LAYER=layer), a.repeat)
        cols[f"numba {layer}"] = got if got else f"unavailable ({' '.join(err or [])[:60]})"
    rows = []
    for col in cols.values():
        if isinstance(col, dict):
            rows += [k for k in col if k not in rows and k != "layer"]
    print(f"{a.threads} threads, median of {a.repeat} processes, ns per region (per call for "
          f"Numba)\n")
    names = list(cols)
    print("| case | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for r in rows:
        cells = []
        for n in names:
            c = cols[n]
            cells.append(f"{c[r]:.0f}" if isinstance(c, dict) and r in c else "")
        print(f"| {r} | " + " | ".join(cells) + " |")
    for n, c in cols.items():
        if not isinstance(c, dict):
            print(f"\n{n}: {c}")


if __name__ == "__main__":
    main()
