#!/usr/bin/env python3
"""try/except in compiled code (frontend/try.c, lower/exceptions.c): kiln, Numba and CPython side
by side.

    .venv/bin/python bench/exceptions.py            # ~1 min
    .venv/bin/python bench/exceptions.py --quick

N = 10^6 iterations, over an array of 1.0 .. 8192 (64 KB: in cache; item i & 8191), of: a call of a jitted function of a[i & 8191] that may
raise (it never does) without a try (`call_no_try`) and with a try around the loop body (`call_try_body`); the same callee
raising ValueError on every call, caught by the caller every iteration (`callee_raise_catch`);
a raise caught in the same function every iteration (`local_raise_catch`); a sum over an array
without and with a try around the loop body (`array_no_try`, `array_try_body`); and a float
division by array items (`div_no_try`, `div_try_body`: a division can raise ZeroDivisionError).
Every handler is `except Exception:`, the form Numba supports (it has no `except ValueError:`).
Each engine runs in a subprocess of its own; the median of rounds taken in turn (one call per
engine, then the next round). Reports only: nothing here is asserted.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import turns  # noqa: E402

N = 1_000_000

STEADY = r'''
import json, sys, time
import numpy as np
engine, n = sys.argv[1], int(sys.argv[2])
jit = lambda f: f
if engine == "kiln":
    import kiln
    jit = kiln.njit
elif engine == "numba":
    import numba
    jit = numba.njit
@jit
def may_raise(x):
    if x < 0.0:
        raise ValueError("negative")
    return x * 0.5
@jit
def always_raises(x):
    if x >= 0.0:
        raise ValueError("always")
    return x
def call_no_try(a, n):
    s = 0.0
    for i in range(n):
        s += may_raise(a[i & 8191])
    return s
def call_try_body(a, n):
    s = 0.0
    for i in range(n):
        try:
            s += may_raise(a[i & 8191])
        except Exception:
            s -= 1.0
    return s
def callee_raise_catch(a, n):
    s = 0.0
    for i in range(n):
        try:
            s += always_raises(a[i & 8191])
        except Exception:
            s -= 1.0
    return s
def local_raise_catch(a, n):
    s = 0.0
    for i in range(n):
        try:
            if a[i & 8191] >= 0.0:
                raise ValueError("here")
            s += 1.0
        except Exception:
            s -= 1.0
    return s
def array_no_try(a, n):
    s = 0.0
    for i in range(n):
        s += a[i & 8191] * 2.0
    return s
def array_try_body(a, n):
    s = 0.0
    for i in range(n):
        try:
            s += a[i & 8191] * 2.0
        except Exception:
            s -= 1.0
    return s
def div_no_try(a, n):
    s = 0.0
    for i in range(n):
        s += 1.0 / a[i & 8191]
    return s
def div_try_body(a, n):
    s = 0.0
    for i in range(n):
        try:
            s += 1.0 / a[i & 8191]
        except Exception:
            s -= 1.0
    return s
a = np.arange(1.0, 8193.0)
funcs = {"call_no_try": (call_no_try, a), "call_try_body": (call_try_body, a),
         "callee_raise_catch": (callee_raise_catch, a), "local_raise_catch": (local_raise_catch, a),
         "array_no_try": (array_no_try, a), "array_try_body": (array_try_body, a),
         "div_no_try": (div_no_try, a), "div_try_body": (div_try_body, a)}
if engine != "cpython":
    funcs = {k: (jit(f), x) for k, (f, x) in funcs.items()}
for f, x in funcs.values():
    f(x, n)  # compile, warm
print(json.dumps(list(funcs)), flush=True)
for line in sys.stdin:  # one case per line: run it once, print the seconds
    f, x = funcs[line.strip()]
    t = time.perf_counter(); f(x, n); print(time.perf_counter() - t, flush=True)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    rounds = 5 if a.quick else 21
    turns.print_table(turns.run_rounds(STEADY, N, rounds), N, rounds, 20)


if __name__ == "__main__":
    main()
