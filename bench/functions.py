#!/usr/bin/env python3
"""Functions as values: a loop calling a function passed as an argument, against the same loop
calling the function directly; kiln, Numba and CPython side by side.

    .venv/bin/python bench/functions.py            # ~1 min
    .venv/bin/python bench/functions.py --quick

Kernels, over N = 10^6 float64 (the same source for every engine):
  direct    s += fx(a[i])            fx a jitted global (the callee known: inlined)
  passed    s += f(a[i])             f = fx passed as an argument (one overload per function)
  chosen    f = (fx, gx)[k]; s += f(a[i])   a run-time choice (first-class function type)
  closure   g = lambda x: x * k + 1.0; s += g(a[i])   a lambda capturing k
  sorted    sorted(idx, key=lambda i: a[i]) over 10^5 indexes (a capturing key=), vs key=fy
The issue's target: `passed` within 1.1x of `direct`. Each engine runs in a subprocess of its
own; medians of rounds taken in turn. Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

KERNELS = r'''
import json, statistics, sys, time
import numpy as np
engine, rounds = sys.argv[1], int(sys.argv[2])
if engine == "kiln":
    import kiln
    jit = kiln.njit
elif engine == "numba":
    import numba
    jit = numba.njit
else:
    jit = lambda f: f

@jit
def fx(x):
    return x * 1.5 + 1.0

@jit
def gx(x):
    return x * 0.5 - 1.0

@jit
def fy(i):
    return -i

def direct(a):
    s = 0.0
    for i in range(len(a)):
        s += fx(a[i])
    return s

def passed(f, a):
    s = 0.0
    for i in range(len(a)):
        s += f(a[i])
    return s

def chosen(k, a):
    f = (fx, gx)[k]
    s = 0.0
    for i in range(len(a)):
        s += f(a[i])
    return s

def closure(k, a):
    g = lambda x: x * k + 1.0
    s = 0.0
    for i in range(len(a)):
        s += g(a[i])
    return s

def sorted_closure(a, idx):
    return sorted(idx, key=lambda i: a[i])

def sorted_global(a, idx):
    return sorted(idx, key=fy)

a = np.random.default_rng(1).random(1_000_000)
idx = list(range(100_000))
cases = {
    "direct": (jit(direct), (a,)),
    "passed": (jit(passed), (fx, a)),
    "chosen": (jit(chosen), (0, a)),
    "closure": (jit(closure), (1.5, a)),
    "sorted closure key": (jit(sorted_closure), (a, idx)),
    "sorted global key": (jit(sorted_global), (a, idx)),
}
out = {}
for name, (f, args) in cases.items():
    try:
        f(*args)  # compile
    except Exception as e:  # Numba refuses some forms
        out[name] = "n/a: " + type(e).__name__
        continue
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        f(*args)
        ts.append(time.perf_counter() - t)
    out[name] = statistics.median(ts) * 1e3
print(json.dumps(out))
'''


def run(engine, rounds, path):
    env = dict(os.environ, PYTHONPATH="")
    r = subprocess.run([sys.executable, "-P", path, engine, str(rounds)],
                       capture_output=True, text=True, env=env)
    if r.returncode:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr else "failed"}
    return json.loads(r.stdout)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    rounds = 5 if args.quick else 21
    with tempfile.TemporaryDirectory() as d:  # kiln and Numba read the kernels' source
        path = os.path.join(d, "fn_kernels.py")
        with open(path, "w") as f:
            f.write(KERNELS)
        res = {e: run(e, rounds if e != "cpython" else max(3, rounds // 5), path)
               for e in ("kiln", "numba", "cpython")}
    for e, r in res.items():
        if "error" in r:
            print(f"{e}: {r['error']}")
    names = [n for n in res["kiln"] if n != "error"]
    print(f"{'kernel':22s} {'kiln ms':>10s} {'numba ms':>10s} {'cpython ms':>11s}")
    for n in names:
        row = [res[e].get(n, "-") for e in ("kiln", "numba", "cpython")]
        cells = [f"{v:10.3f}" if isinstance(v, float) else f"{str(v)[:10]:>10s}" for v in row]
        print(f"{n:22s} {cells[0]} {cells[1]} {cells[2]:>11s}")
    k = res["kiln"]
    if isinstance(k.get("passed"), float) and isinstance(k.get("direct"), float):
        print(f"kiln passed / direct: {k['passed'] / k['direct']:.3f} (target <= 1.1)")
    nb = res["numba"]
    if isinstance(nb.get("passed"), float) and isinstance(nb.get("direct"), float):
        print(f"numba passed / direct: {nb['passed'] / nb['direct']:.3f}")


if __name__ == "__main__":
    main()
