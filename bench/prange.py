#!/usr/bin/env python3
"""prange loops of parallel=True functions: kiln parallel vs kiln serial vs Numba parallel=True.

    .venv/bin/python bench/prange.py            # ~1 min
    .venv/bin/python bench/prange.py --quick

Kernels (the same source for every engine, `prange` from each engine):
  mandelbrot   rows of a 400x600 escape-time image (prange over rows, 100 iterations max)
  pairwise     Euclidean distances of 600 points in 3-d (prange over rows, an inner loop)
  sum1000      a prange sum of 1000 float64 (region overhead vs the serial loop)
and the first call of a parallel=True function in a fresh process (compile + run; the issue's
target is 30 ms). Real speed-ups need the thread pool (src/parallel/pool.c); with the serial
placeholder pool this measures the overhead of outlining, which should be small. Each engine
runs in a subprocess of its own; medians of rounds. Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

KERNELS = r'''
import json, statistics, sys, time
import numpy as np
engine, parallel, rounds = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3])
if engine == "kiln":
    import kiln as eng
else:
    import numba as eng
prange = eng.prange
jit = eng.njit(parallel=parallel)

@jit
def mandelbrot(out, x0, y0, dx, dy, maxit):
    for r in prange(out.shape[0]):
        for c in range(out.shape[1]):
            zr = 0.0
            zi = 0.0
            cr = x0 + c * dx
            ci = y0 + r * dy
            k = 0
            while k < maxit and zr * zr + zi * zi < 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[r, c] = k
    return out

@jit
def pairwise(x, out):
    n = x.shape[0]
    for i in prange(n):
        for j in range(n):
            d = 0.0
            for k in range(x.shape[1]):
                t = x[i, k] - x[j, k]
                d += t * t
            out[i, j] = np.sqrt(d)
    return out

@jit
def sum1000(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s

img = np.zeros((400, 600), np.int64)
pts = np.random.default_rng(0).normal(size=(600, 3))
dist = np.zeros((600, 600))
a = np.random.default_rng(1).normal(size=1000)
cases = {
    "mandelbrot": lambda: mandelbrot(img, -2.0, -1.0, 3.0 / 600, 2.0 / 400, 100),
    "pairwise": lambda: pairwise(pts, dist),
    "sum1000": lambda: sum1000(a),
}
out = {}
for name, f in cases.items():
    f()
    reps = 2000 if name == "sum1000" else 3
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        times.append((time.perf_counter() - t0) / reps)
    out[name] = statistics.median(times)
print(json.dumps(out))
'''

FIRST = r'''
import sys, time
t0 = time.perf_counter()
import numpy as np
import kiln
t1 = time.perf_counter()

@kiln.njit(parallel=sys.argv[1] == "1")
def f(a):
    s = 0.0
    for i in kiln.prange(a.shape[0]):
        s += a[i] * 2.0
    return s

a = np.ones(100)
t2 = time.perf_counter()
f(a)
t3 = time.perf_counter()
print((t3 - t2) * 1e3)
'''


def run(code, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)  # kiln compiles from source: the kernels live in a file
    try:
        r = subprocess.run([sys.executable, "-P", f.name, *args], capture_output=True,
                           text=True)
    finally:
        os.unlink(f.name)
    if r.returncode:
        return None, r.stderr.strip().splitlines()[-1:]
    return r.stdout.strip(), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    rounds = 3 if opts.quick else 7
    rows = {}
    for label, engine, par in (("kiln parallel", "kiln", "1"), ("kiln serial", "kiln", "0"),
                               ("numba parallel", "numba", "1")):
        out, err = run(KERNELS, engine, par, str(rounds))
        rows[label] = json.loads(out) if out else {"error": err}
    names = ["mandelbrot", "pairwise", "sum1000"]
    print(f"{'':16}" + "".join(f"{n:>14}" for n in names))
    for label, r in rows.items():
        if "error" in r:
            print(f"{label:16}  failed: {r['error']}")
            continue
        cells = [f"{r[n] * 1e3:11.3f} ms" if n != "sum1000" else f"{r[n] * 1e6:11.2f} us"
                 for n in names]
        print(f"{label:16}" + "".join(f"{c:>14}" for c in cells))
    k, s = rows["kiln parallel"], rows["kiln serial"]
    if "error" not in k and "error" not in s:
        print("kiln parallel / kiln serial: " +
              ", ".join(f"{n} {k[n] / s[n]:.2f}x" for n in names))
    for par, label in (("1", "parallel=True"), ("0", "serial")):
        firsts = []
        for _ in range(3 if opts.quick else 5):
            out, err = run(FIRST, par)
            if out:
                firsts.append(float(out))
        if firsts:
            firsts.sort()
            print(f"first call of a {label} prange sum in a fresh process (compile + run): "
                  f"median {firsts[len(firsts) // 2]:.1f} ms (of {len(firsts)})")


if __name__ == "__main__":
    main()
