#!/usr/bin/env python3
"""Dicts and sets (lib/dict.def, runtime/dict.c): kiln, Numba and CPython side by side.

    .venv/bin/python bench/dicts.py            # ~1 min
    .venv/bin/python bench/dicts.py --quick

Inside compiled code: an int -> int dict, N = 10^5 inserts d[i] = i then N lookups of
d[i] (the same function in CPython, kiln.njit and numba.njit; sequential and pseudo-random
keys); a set of N ints built and probed 2N times; a str -> int dict (d[str(i)] = i, then
d[str(i)]). From the interpreter: the same int -> int loop on kiln.typed.Dict, numba.typed.Dict
and a plain dict (the CPython column). Each engine runs in a subprocess of its own (kiln and Numba never share a process);
the median of rounds taken in turn (one call per engine, then the next round), so that
the load of a shared machine falls on all three alike. Reports only: nothing here is asserted.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import turns  # noqa: E402

N = 100_000

STEADY = r'''
import json, sys, time
engine, n = sys.argv[1], int(sys.argv[2])
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
def str_dict(n):
    d = {}
    for i in range(n):
        d[str(i)] = i
    s = 0
    for i in range(n):
        s += d[str(i)]
    return s
def str_dict_lookups(n):
    keys = [str(i) for i in range(n)]
    d = {}
    for k in keys:
        d[k] = 1
    s = 0
    for r in range(4):
        for k in keys:
            s += d[k]
    return s
funcs = {"int_dict": int_dict, "int_dict_random": int_dict_random, "int_set": int_set,
         "str_dict": str_dict, "str_dict_lookups": str_dict_lookups}
empty = dict
if engine == "kiln":
    import kiln
    from kiln.typed import Dict
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
    empty = lambda: Dict.empty(kiln.types.int64, kiln.types.int64)
elif engine == "numba":
    import numba
    from numba.typed import Dict
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
    empty = lambda: Dict.empty(numba.types.int64, numba.types.int64)
def interp(n):
    d = empty()
    for i in range(n):
        d[i] = i
    s = 0
    for i in range(n):
        s += d[i]
    return s
funcs["typed_from_interp"] = interp
for f in funcs.values():
    f(n)  # compile, warm
print(json.dumps(list(funcs)), flush=True)
for line in sys.stdin:  # one case per line: run it once, print the seconds
    f = funcs[line.strip()]
    t = time.perf_counter(); f(n); print(time.perf_counter() - t, flush=True)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    rounds = 5 if a.quick else 21
    turns.print_table(turns.run_rounds(STEADY, N, rounds), N, rounds, 18)


if __name__ == "__main__":
    main()
