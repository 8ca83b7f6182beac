#!/usr/bin/env python3
"""NumPy's math ufuncs (lib/numpy.def rule npmath) and kiln/lib/mathfuncs.py, side by side with
NumPy and Numba.

    .venv/bin/python bench/np_math.py            # ~1 min
    .venv/bin/python bench/np_math.py --quick

Steady state on 10^6 elements, each called from a compiled function (kiln, Numba) and as NumPy
itself; the median of rounds taken in turn, each engine in a subprocess of its own:
- fused: np.copysign(np.fabs(a), b) + np.deg2rad(a) * np.square(b) - np.logaddexp(a, b)
  (one loop in kiln, five temporaries in NumPy);
- bits: np.bitwise_xor(np.left_shift(i, 3), np.right_shift(i, 2)) on int64;
- allclose: np.allclose(a, b) (float64).
First call: a fresh process that imports kiln, defines a function using the ufunc and calls it
once; the time from the decorator to the first result, the median of a few processes.
Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

N = 1_000_000

STEADY = r'''
import json, sys, time
import numpy as np
engine, rounds = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
a = rng.standard_normal(%(n)d)
b = rng.standard_normal(%(n)d)
i = rng.integers(0, 1 << 40, %(n)d)
def fused(a, b, i):
    return np.copysign(np.fabs(a), b) + np.deg2rad(a) * np.square(b) - np.logaddexp(a, b)
def bits(a, b, i):
    return np.bitwise_xor(np.left_shift(i, 3), np.right_shift(i, 2))
def allclose(a, b, i):
    return np.allclose(a, a + b * 1e-9)
funcs = {"fused": fused, "bits": bits, "allclose": allclose}
if engine == "kiln":
    import kiln
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
elif engine == "numba":
    import numba
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
out = {}
for k, f in funcs.items():
    f(a, b, i)
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(a, b, i); ts.append(time.perf_counter() - t)
    out[k] = ts
print(json.dumps(out))
'''

FIRST = r'''
import time
import numpy as np
import %(engine)s as eng
t1 = time.perf_counter()
@eng.njit
def f(a, b):
    return %(body)s
a = np.linspace(0.0, 1.0, 1000)
b = np.linspace(1.0, 2.0, 1000)
f(a, b)
print(time.perf_counter() - t1)
'''

BODIES = {
    "np.copysign": "np.copysign(a, b)[0]",
    "np.logaddexp": "np.logaddexp(a, b)[0]",
    "np.allclose": "np.allclose(a, b)",
}


def have(mod):
    return subprocess.run([sys.executable, "-P", "-c", f"import {mod}"],
                          capture_output=True).returncode == 0


def run_script(code, *argv):
    """Run code as a file of its own (kiln reads the source of what it compiles), with -P so
    that the repository's ./kiln (which has no _core) is not imported."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        r = subprocess.run([sys.executable, "-P", f.name, *argv], capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(r.stderr)
        return r.stdout
    finally:
        os.unlink(f.name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds, turns, procs = (5, 2, 3) if args.quick else (10, 3, 5)
    engines = ["kiln", "numpy"] + (["numba"] if have("numba") else [])
    times = {e: {} for e in engines}
    for _ in range(turns):
        for e in engines:
            for k, ts in json.loads(run_script(STEADY % {"n": N}, e, str(rounds))).items():
                times[e].setdefault(k, []).extend(ts)
    print(f"steady state, 10^6 elements, median of {rounds * turns} calls (ms)")
    print("| function | " + " | ".join(engines) + " | kiln / NumPy |")
    print("|---|" + "---|" * (len(engines) + 1))
    for k in ("fused", "bits", "allclose"):
        med = {e: statistics.median(times[e][k]) * 1e3 for e in engines}
        print(f"| {k} | " + " | ".join(f"{med[e]:.2f}" for e in engines) +
              f" | {med['kiln'] / med['numpy']:.2f}x |")
    print()
    fe = ["kiln"] + (["numba"] if have("numba") else [])
    print(f"first call in a fresh process (compile + run), median of {procs} processes (ms)")
    print("| function | " + " | ".join(fe) + " |")
    print("|---|" + "---|" * len(fe))
    for name, body in BODIES.items():
        vals = []
        for e in fe:
            n = procs if e == "kiln" else max(1, procs // 2)
            vals.append(statistics.median(
                float(run_script(FIRST % {"engine": e, "body": body})) for _ in range(n)) * 1e3)
        print(f"| {name} | " + " | ".join(f"{v:.1f}" for v in vals) + " |")


if __name__ == "__main__":
    main()
