#!/usr/bin/env python3
"""Dicts and sets (lib/dict.def, runtime/dict.c): kiln, Numba and CPython side by side.

    .venv/bin/python bench/dicts.py            # ~1 min
    .venv/bin/python bench/dicts.py --quick

Inside compiled code: an int -> int dict, N = 10^5 inserts d[i] = i then N lookups of
d[i] (the same function in CPython, kiln.njit and numba.njit); a set of N ints built and
probed. Each engine runs in a subprocess of its own (kiln and Numba never share a process);
the median of rounds. Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

N = 100_000

STEADY = r'''
import json, sys, time
engine, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def int_dict(n):
    d = {}
    for i in range(n):
        d[i * 7] = i
    s = 0
    for i in range(n):
        s += d[i * 7]
    return s
def int_dict_random(n):
    d = {}
    x = 12345
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        d[x] = i
    x = 12345
    s = 0
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        s += d[x]
    return s
def int_set(n):
    s = set()
    for i in range(n):
        s.add(i * 3)
    c = 0
    for i in range(2 * n):
        if i in s:
            c += 1
    return c
funcs = {"int_dict": int_dict, "int_dict_random": int_dict_random, "int_set": int_set}
if engine == "kiln":
    import kiln
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
elif engine == "numba":
    import numba
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
out = {}
for k, f in funcs.items():
    f(n)  # compile, warm
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(n); ts.append(time.perf_counter() - t)
    out[k] = ts
print(json.dumps(out))
'''


def run(engine, rounds, n):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(STEADY)
    try:
        r = subprocess.run([sys.executable, "-P", f.name, engine, str(rounds), str(n)],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode:
        return {"error": r.stderr.strip().splitlines()[-1:]}
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    rounds = 5 if a.quick else 21
    res = {e: run(e, rounds, N) for e in ("kiln", "numba", "cpython")}
    print(f"N = {N}, median of {rounds} rounds, ms")
    print(f"{'case':18s} {'kiln':>9s} {'numba':>9s} {'cpython':>9s} {'vs numba':>9s} {'vs cpy':>8s}")
    for e in res:
        if "error" in res[e]:
            print(e, "failed:", res[e].pop("error"))
    for case in res["kiln"]:
        med = {e: statistics.median(res[e][case]) * 1e3 if case in res[e] else float("nan")
               for e in res}
        print(f"{case:18s} {med['kiln']:9.3f} {med['numba']:9.3f} {med['cpython']:9.3f} "
              f"{med['numba'] / med['kiln']:8.1f}x {med['cpython'] / med['kiln']:7.1f}x")


if __name__ == "__main__":
    main()
