#!/usr/bin/env python3
"""First calls of functions using issue 10's features, each in a fresh process: kiln and Numba.

    .venv/bin/python bench/first_call_features.py [--procs 5] [--only try,gen] [--callgrind]

Issue 10's target: the first call (compile + run) of a function using one of these features
stays at most 25 ms in a fresh process (the import of the JIT is not counted, as in
bench/first_call_containers.py). Features: try/except, a generator consumed by for, a closure
passed as key= to sorted(), a namedtuple argument, an Optional argument (a None default), and
*args. Each sample is a fresh process running one feature's script in a scratch directory;
kiln and Numba processes take turns; the table gives medians and the results are compared.
A form Numba cannot compile shows its error. --callgrind runs each kiln script once more
under valgrind's callgrind and gives the instructions of the first call (dispatcher_vectorcall,
inclusive): wall time on a loaded host swings 2-3x, instruction counts do not.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

FEATURES = {
    "try": '''
@jit
def f(n):
    s = 0
    for i in range(n):
        try:
            if i % 7 == 3:
                raise ValueError("x")
            s += i
        except ValueError:
            s -= 1
    return s
ARGS = (1000,)
''',
    "gen": '''
@jit
def squares(n):
    for i in range(n):
        yield i * i

@jit
def f(n):
    s = 0
    for x in squares(n):
        s += x
    return s
ARGS = (1000,)
''',
    "key": '''
@jit
def f(n, m):
    xs = [(i * 7919) % n for i in range(n)]
    ys = sorted(xs, key=lambda x: (x * m) % 13)
    return ys[0] + ys[-1] * 3 + len(ys)
ARGS = (1000, 5)
''',
    "namedtuple": '''
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])

@jit
def f(p):
    return p.x * 2.0 + p.y
ARGS = (Point(1.5, 2.5),)
''',
    "optional": '''
@jit
def f(a, b=None):
    if b is not None:
        return a + b
    return a * 2
ARGS = (3,)
''',
    "varargs": '''
@jit
def total(*args):
    s = 0
    for x in args:
        s += x
    return s

@jit
def f(n):
    return total(n, 2, 3) + total(n)
ARGS = (1000,)
''',
}

HEAD = {"kiln": "import kiln\njit = kiln.njit\n", "numba": "import numba\njit = numba.njit\n"}

TAIL = '''
t0 = time.perf_counter()
r = f(*ARGS)
t1 = time.perf_counter()
print(json.dumps({"first_ms": (t1 - t0) * 1e3, "result": r}))
'''


def script(impl, feature, tmp):
    path = os.path.join(tmp, f"first_{feature}_{impl}.py")  # kiln compiles from source
    with open(path, "w") as f:
        f.write("import json, time\n" + HEAD[impl] + FEATURES[feature] + TAIL)
    return path


def env():
    return dict(os.environ, OPENBLAS_NUM_THREADS="1")


def sample(impl, feature, tmp):
    out = subprocess.run([sys.executable, "-P", script(impl, feature, tmp)], capture_output=True,
                         text=True, cwd=tmp, env=env())
    if out.returncode:
        lines = out.stderr.strip().splitlines() or ["?"]
        return None, lines[-1][:70]
    return json.loads(out.stdout.strip().splitlines()[-1]), None


def callgrind(feature, tmp):
    """Instructions of the first call (dispatcher_vectorcall, inclusive), in millions."""
    cg = os.path.join(tmp, f"cg_{feature}.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", sys.executable,
                    "-P", script("kiln", feature, tmp)], capture_output=True, cwd=tmp, env=env())
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", cg], capture_output=True,
                         text=True).stdout
    for line in ann.splitlines():
        if re.search(r":dispatcher_vectorcall\b", line):
            return int(line.split()[0].replace(",", "")) / 1e6
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--callgrind", action="store_true")
    args = ap.parse_args()
    feats = [f for f in FEATURES if not args.only or f in args.only.split(",")]
    tmp = tempfile.mkdtemp(prefix="kiln_bench_")
    print("| feature | kiln ms, median | Numba ms, median | kiln Minstr (callgrind) | results |")
    print("|---|---:|---:|---:|---|")
    status = 0
    for feat in feats:
        times = {"kiln": [], "numba": []}
        results, errors = {}, {}
        for _ in range(args.procs):
            for impl in times:
                if impl in errors:
                    continue
                rec, err = sample(impl, feat, tmp)
                if err:
                    errors[impl] = err
                    continue
                times[impl].append(rec["first_ms"])
                results[impl] = rec["result"]
        cells = [f"{statistics.median(times[i]):.1f}" if times[i] else f"failed: {errors[i]}"
                 for i in times]
        mi = callgrind(feat, tmp) if args.callgrind else None
        same = "same" if len({json.dumps(v) for v in results.values()}) <= 1 else "DIFFER"
        if same != "same":
            status = 1
        print(f"| {feat} | {cells[0]} | {cells[1]} | {'' if mi is None else f'{mi:.1f}M'} | "
              f"{same} |", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
