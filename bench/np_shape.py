#!/usr/bin/env python3
"""The shape and joining family's speed (kiln/lib/shape.py), side by side with NumPy and Numba.

    .venv/bin/python bench/np_shape.py            # ~1 min
    .venv/bin/python bench/np_shape.py --quick

Steady state, each call made from a compiled function (kiln, Numba) or by NumPy itself:
np.concatenate of two 1000x1000 float64 arrays along axis 0 and 1, np.stack of the same,
np.concatenate of two 10-item arrays (the call's overhead), and two views: np.swapaxes of a
100x100 array and np.expand_dims of a 1000-item array, each returned to Python. Medians of
rounds; each engine runs in a subprocess of its own (kiln and Numba never share a process).
Reports only: nothing here is asserted. First calls: bench/np_shape_first_call.py.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

STEADY = r'''
import json, statistics, sys, time
import numpy as np
engine, scale = sys.argv[1], float(sys.argv[2])
big = np.arange(1e6).reshape(1000, 1000)
big2 = big + 1.0
small = np.arange(10.0)
sq = np.arange(1e4).reshape(100, 100)
vec = np.arange(1000.0)
def concat0(a, b): return np.concatenate((a, b))
def concat1(a, b): return np.concatenate((a, b), axis=1)
def stack(a, b): return np.stack((a, b))
def concat_small(a, b): return np.concatenate((a, b))
def swapaxes(a, b): return np.swapaxes(a, 0, 1)
def expand_dims(a, b): return np.expand_dims(a, 0)
cases = [("concatenate 1000x1000 axis=0", concat0, big, big2, 40),
         ("concatenate 1000x1000 axis=1", concat1, big, big2, 40),
         ("stack 2 x 1000x1000", stack, big, big2, 40),
         ("concatenate 2 x 10 items", concat_small, small, small, 20000),
         ("swapaxes 100x100 (view)", swapaxes, sq, sq, 20000),
         ("expand_dims 1000 (view)", expand_dims, vec, vec, 20000)]
if engine == "kiln":
    import kiln
    jit = kiln.njit
elif engine == "numba":
    import numba
    jit = numba.njit
else:
    jit = lambda f: f
out = {}
for name, f, a, b, rounds in cases:
    g = jit(f)
    g(a, b)
    ts = []
    for _ in range(max(3, int(rounds * scale))):
        t = time.perf_counter(); g(a, b); ts.append(time.perf_counter() - t)
    out[name] = statistics.median(ts)
print(json.dumps(out))
'''


def run(engine, scale):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    path = os.path.join(tempfile.mkdtemp(prefix="kiln_bench_"), "np_shape_steady.py")
    with open(path, "w") as f:  # kiln compiles from source
        f.write(STEADY)
    out = subprocess.run([sys.executable, "-P", path, engine, str(scale)],
                         capture_output=True, text=True, env=env)
    if out.returncode:
        return None, (out.stderr.strip().splitlines() or ["?"])[-1][:80]
    return json.loads(out.stdout.strip().splitlines()[-1]), None


def fmt(s):
    return f"{s * 1e6:.2f} us" if s < 1e-3 else f"{s * 1e3:.3f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="processes per engine (medians)")
    args = ap.parse_args()
    scale = 0.2 if args.quick else 1.0
    res = {"kiln": [], "numba": [], "numpy": []}
    errs = {}
    for _ in range(args.repeat):
        for eng in res:
            r, err = run(eng, scale)
            if err:
                errs[eng] = err
            else:
                res[eng].append(r)
    print("| case | kiln | Numba | NumPy | kiln/Numba | kiln/NumPy |")
    print("|---|---:|---:|---:|---:|---:|")
    if not res["kiln"]:
        print(f"kiln failed: {errs.get('kiln')}")
    names = list(res["kiln"][0]) if res["kiln"] else []
    for name in names:
        m = {e: statistics.median(r[name] for r in rs) if rs else None for e, rs in res.items()}
        cells = [fmt(m[e]) if m[e] is not None else f"failed: {errs.get(e)}" for e in res]
        rn = f"{m['kiln'] / m['numba']:.2f}" if m["numba"] else ""
        rp = f"{m['kiln'] / m['numpy']:.2f}" if m["numpy"] else ""
        print(f"| {name} | {' | '.join(cells)} | {rn} | {rp} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
