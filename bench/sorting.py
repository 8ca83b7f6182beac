#!/usr/bin/env python3
"""The sorting family's speed (lib/sorting.def), side by side with NumPy and Numba.

    .venv/bin/python bench/sorting.py            # ~1-2 min
    .venv/bin/python bench/sorting.py --quick

Steady state, on 10^6 float64 (a) and 10^4 sorted keys (b): np.sort, np.argsort, np.unique,
np.searchsorted(a sorted, b), np.histogram(a, 100), np.interp(b, a sorted, a sorted), np.median,
np.percentile(a, 50), np.partition(a, n // 2), np.argpartition, np.nanmedian, np.nansum, np.isin(b,
a), each called from a compiled function (kiln, Numba) and as NumPy itself; the median of rounds
taken in turn (kiln, Numba, NumPy, kiln, ...), each engine in a subprocess of its own, so that
kiln and Numba never share a process. First call: a fresh process per measurement that imports
kiln, defines a function using np.sort / np.interp / np.unique and calls it once; the time from
the decorator to the first result (compile + run), the median of a few processes.
Reports only: nothing here is asserted.
"""

import argparse
import json
import statistics
import os
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
s = np.sort(a)
b = np.sort(rng.standard_normal(10000))
def sort(a, s, b): return np.sort(a)
def argsort(a, s, b): return np.argsort(a)
def unique(a, s, b): return np.unique(a)
def searchsorted(a, s, b): return np.searchsorted(s, b)
def histogram(a, s, b): return np.histogram(a, 100)
def interp(a, s, b): return np.interp(b, s, s)
def median(a, s, b): return np.median(a)
def percentile(a, s, b): return np.percentile(a, 50.0)
def partition(a, s, b): return np.partition(a, a.size // 2)
def argpartition(a, s, b): return np.argpartition(a, a.size // 2)
def nanmedian(a, s, b): return np.nanmedian(a)
def nansum(a, s, b): return np.nansum(a)
def isin(a, s, b): return np.isin(b, a)
funcs = {f.__name__: f for f in (sort, argsort, unique, searchsorted, histogram, interp, median,
                                  percentile, partition, argpartition, nanmedian, nansum, isin)}
if engine == "kiln":
    import kiln
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
elif engine == "numba":
    import numba
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
out = {}
for k, f in funcs.items():
    try:
        f(a, s, b)  # compile, warm
    except Exception:  # a function this engine does not compile
        continue
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(a, s, b); ts.append(time.perf_counter() - t)
    out[k] = ts
print(json.dumps(out))
'''

FIRST = r'''
import time
t0 = time.perf_counter()
import numpy as np
import %(engine)s as eng
t1 = time.perf_counter()
@eng.njit
def f(a, b):
    return %(body)s
a = np.linspace(0.0, 1.0, 1000)[::-1].copy()
b = np.linspace(0.0, 1.0, 50)
f(a, b)
t2 = time.perf_counter()
print(t2 - t1)
'''

BODIES = {
    "np.sort": "np.sort(a)[0]",
    "np.interp": "np.interp(a, b, b)[0]",
    "np.unique": "np.unique(a)[0]",
    "np.partition": "np.partition(a, 3)[0]",
    "np.unique(return_counts)": "np.unique(a, return_counts=True)[1][0]",
    "np.cumsum(axis=1)": "np.cumsum(a.reshape(10, 100), axis=1)[0, 0]",
    "np.nansum (kiln/lib)": "np.nansum(a)",
    "np.isin (kiln/lib)": "np.isin(a, b)[0]",
    "trivial a[0] + b[0]": "a[0] + b[0]",
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


def steady(engine, rounds):
    code = STEADY % {"n": N}
    return json.loads(run_script(code, engine, str(rounds)))


def first_call(engine, body, procs):
    ts = []
    for _ in range(procs):
        code = FIRST % {"engine": engine, "body": body}
        try:
            ts.append(float(run_script(code)))
        except RuntimeError:  # a form this engine does not compile
            return float("nan")
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds, turns, procs = (5, 2, 3) if args.quick else (10, 3, 5)
    engines = ["kiln", "numpy"] + (["numba"] if have("numba") else [])
    times = {e: {} for e in engines}
    for _ in range(turns):  # in turn, so that a slow spell hits every column alike
        for e in engines:
            for k, ts in steady(e, rounds).items():
                times[e].setdefault(k, []).extend(ts)
    print(f"steady state, 10^6 float64, median of {rounds * turns} calls (ms)")
    nb = "numba" in engines
    print("| function | " + " | ".join(engines) + " | kiln / NumPy |" +
          (" kiln / Numba |" if nb else ""))
    print("|---|" + "---|" * (len(engines) + 1 + nb))
    for k in times["kiln"]:
        med = {e: statistics.median(times[e][k]) * 1e3 for e in engines if k in times[e]}
        print(f"| np.{k} | " + " | ".join(f"{med[e]:.2f}" if e in med else "-" for e in engines) +
              f" | {med['kiln'] / med['numpy']:.2f}x |" +
              (f" {med['kiln'] / med['numba']:.2f}x |" if nb and "numba" in med else ""))
    print()
    fe = ["kiln"] + (["numba"] if have("numba") else [])
    print(f"first call in a fresh process (compile + run), median of {procs} processes (ms)")
    print("| function | " + " | ".join(fe) + " |")
    print("|---|" + "---|" * len(fe))
    for name, body in BODIES.items():
        vals = [first_call(e, body, procs if e == "kiln" else max(1, procs // 2)) * 1e3 for e in fe]
        print(f"| {name} | " + " | ".join(f"{v:.1f}" for v in vals) + " |")


if __name__ == "__main__":
    main()
