#!/usr/bin/env python3
"""First call of a function that builds a dict of strings and lists, in a fresh process.

    .venv/bin/python bench/first_call_containers.py [--procs 9]

Issue 9's target: at most 25 ms for kiln (compile + run, measured from the first call of the
decorated function; the import of the JIT is not counted, as in bench/run.py's first-call rows).
Each sample is a fresh process running a script in a scratch directory; kiln and Numba processes take turns; the table gives
medians. Numba compiles a dict with list values only through typed containers, so its function
builds the same dict with numba.typed.List values; kiln runs the plain Python code.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

BODY = {
    "kiln": '''
import kiln
jit = kiln.njit
def make_list(i):
    return [i]
''',
    "numba": '''
import numba
from numba.typed import List
jit = numba.njit
def make_list(i):
    l = List()
    l.append(i)
    return l
''',
}

COMMON = '''
import time
make_list = jit(make_list)

@jit
def build(n):
    d = {}
    for i in range(n):
        k = "key" + str(i % 10)
        if k in d:
            d[k].append(i)
        else:
            d[k] = make_list(i)
    total = 0
    for k, v in d.items():
        total += len(k) * len(v)
    return total

t0 = time.perf_counter()
r = build(1000)
t1 = time.perf_counter()
print(json.dumps({"first_ms": (t1 - t0) * 1e3, "result": r}))
'''


def sample(impl, tmp):
    path = os.path.join(tmp, f"first_{impl}.py")  # kiln compiles from source: a real file
    with open(path, "w") as f:
        f.write("import json\n" + BODY[impl] + COMMON)
    out = subprocess.run([sys.executable, "-P", path], capture_output=True, text=True, cwd=tmp,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    if out.returncode:
        return None, out.stderr.strip().splitlines()[-1]
    return json.loads(out.stdout.strip().splitlines()[-1]), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=9)
    args = ap.parse_args()
    times = {"kiln": [], "numba": []}
    results, errors = {}, {}
    tmp = tempfile.mkdtemp(prefix="kiln_bench_")
    for _ in range(args.procs):
        for impl in times:
            rec, err = sample(impl, tmp)
            if err:
                errors[impl] = err
                continue
            times[impl].append(rec["first_ms"])
            results[impl] = rec["result"]
    print("| JIT | first call (compile + run), ms, median | processes |")
    print("|---|---|---|")
    for impl, ts in times.items():
        cell = f"{statistics.median(ts):.1f}" if ts else f"failed: {errors.get(impl)}"
        print(f"| {impl} | {cell} | {len(ts)} |")
    if len(set(results.values())) > 1:
        print("results differ:", results)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
