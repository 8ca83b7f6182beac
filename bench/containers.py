#!/usr/bin/env python3
"""Lists (issue 9, "Numbers"): kiln vs Numba vs CPython, side by side in one run.

    .venv/bin/python bench/containers.py            # ~1 min
    .venv/bin/python bench/containers.py --quick

Each engine runs in a subprocess of its own (kiln and Numba never share a process); every
number is the median of rounds, per operation, N = 10^5 int64 items:

* interpreter: `l.append(i)` N times on an empty typed list (kiln.typed.List, numba.typed.List;
  CPython: list), `l[i]` for every i, `for x in l`;
* `List(pylist)` of N ints (CPython: `list(pylist)`);
* compiled: `l = []`, N appends, then N reads `s += l[i]` in one jitted function (CPython: the
  same function interpreted).

Targets (issue 9): interpreter ops at most 2x CPython's list; List(pylist) at most 5 ms;
compiled append+index at least 5x faster than CPython. Reports only: nothing is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

N = 100_000

SCRIPT = r'''
import json, sys, time
engine, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if engine == "kiln":
    import kiln
    from kiln.typed import List
    jit = kiln.njit
    empty = lambda: List.empty_list(kiln.types.int64)
elif engine == "numba":
    import numba
    from numba.typed import List
    from numba import types
    jit = numba.njit
    empty = lambda: List.empty_list(types.int64)
else:
    List = list
    jit = lambda f: f
    empty = list

def append_index(n):
    l = []
    for i in range(n):
        l.append(i)
    s = 0
    for i in range(n):
        s += l[i]
    return s

def timed(f):
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return ts

pylist = list(range(n))
def appends():
    l = empty()
    app = l.append
    for i in range(n):
        app(i)
full = List(pylist)
def index():
    l = full
    for i in range(n):
        l[i]
def iterate():
    for x in full:
        pass
def construct():
    List(pylist)
compiled = jit(append_index)
compiled(10)
out = {
    "append": timed(appends), "index": timed(index), "iterate": timed(iterate),
    "construct": timed(construct), "compiled": timed(lambda: compiled(n)),
}
print(json.dumps(out))
'''


def run(engine, rounds, n):
    env = dict(os.environ, PYTHONPATH="")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT)  # kiln compiles from source: the script must be a file
    try:
        r = subprocess.run([sys.executable, "-P", f.name, engine, str(rounds), str(n)],
                           capture_output=True, text=True, env=env, check=False)
    finally:
        os.unlink(f.name)
    if r.returncode:
        print(f"{engine}: failed\n{r.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds = 5 if args.quick else 21
    res = {e: run(e, rounds, N) for e in ("kiln", "numba", "cpython")}
    per_op = {"append", "index", "iterate"}
    print(f"N = {N}, median of {rounds} rounds (per op in ns, whole runs in ms)")
    print(f"{'':24}{'kiln':>12}{'Numba':>12}{'CPython':>12}{'kiln/CPython':>14}")
    for k in ("append", "index", "iterate", "construct", "compiled"):
        vals = {}
        for e, r in res.items():
            if r:
                m = statistics.median(r[k])
                vals[e] = m * 1e9 / N if k in per_op else m * 1e3
        unit = "ns/op" if k in per_op else "ms"
        row = "".join(f"{vals[e]:12.2f}" if e in vals else f"{'-':>12}"
                      for e in ("kiln", "numba", "cpython"))
        ratio = vals["kiln"] / vals["cpython"] if "kiln" in vals and "cpython" in vals else float("nan")
        print(f"{k + ' (' + unit + ')':24}{row}{ratio:14.2f}")


if __name__ == "__main__":
    main()
