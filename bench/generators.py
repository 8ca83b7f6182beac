#!/usr/bin/env python3
"""A generator consumed by a for loop against the loop written by hand: kiln, Numba, CPython.

    .venv/bin/python bench/generators.py [--n 1000000] [--rounds 21]

Issue 10's target: a generator consumed by a `for` runs within 1.1x of the equivalent
hand-written loop (kiln inlines the generator into its consumer: src/frontend/generators.c;
Numba keeps a state machine, measured 3.2x slower in ANCHORS.md §7.1). Each case is one source
text compiled by kiln.njit, by numba.njit, and run by the interpreter; timings are medians of
`--rounds` calls after a warm-up call (CPython: a third of the rounds, at least 3). The table
gives each time in ms and the generator/hand ratio per engine. A case Numba cannot compile
(sum() of a generator expression) shows its error. Last, the escaping form: the interpreter
consuming a compiled generator (list(squares(n))), in ns per item.
"""

import argparse
import linecache
import statistics
import time

import numpy as np

SOURCE = '''
@jit
def squares(n):
    for i in range(n):
        yield i * i % 7

@jit
def gen_range(n):
    s = 0
    for x in squares(n):
        s += x
    return s

@jit
def hand_range(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s

@jit
def elems(a):
    for x in a:
        yield x * 2.0 + 1.0

@jit
def gen_array(a):
    s = 0.0
    for x in elems(a):
        if x > 3.0:
            s += x
    return s

@jit
def hand_array(a):
    s = 0.0
    for x in a:
        y = x * 2.0 + 1.0
        if y > 3.0:
            s += y
    return s

@jit
def genexp_sum(a):
    return sum(x * x for x in a)

@jit
def hand_sum(a):
    s = 0.0
    for x in a:
        s += x * x
    return s

@jit
def countdown(n):
    while n > 0:
        yield n
        n -= 3

@jit
def gen_while(n):
    s = 0
    for i, x in enumerate(countdown(n)):
        s += i ^ x
    return s

@jit
def hand_while(n):
    s = 0
    i = 0
    while n > 0:
        s += i ^ n
        n -= 3
        i += 1
    return s
'''

CASES = [  # (name, generator version, hand version, argument kind)
    ("for over gen(range)", "gen_range", "hand_range", "n"),
    ("for over gen(array), if", "gen_array", "hand_array", "a"),
    ("sum(x*x for x in a)", "genexp_sum", "hand_sum", "a"),
    ("enumerate(gen(while))", "gen_while", "hand_while", "n"),
]


def engine(name):
    ns = {"np": np}
    if name == "kiln":
        import kiln

        ns["jit"] = kiln.njit
    elif name == "numba":
        import numba

        ns["jit"] = numba.njit
    else:
        ns["jit"] = lambda f: f
    filename = f"<bench generators {name}>"  # kiln compiles from source: linecache holds it
    linecache.cache[filename] = (len(SOURCE), None, SOURCE.splitlines(True), filename)
    exec(compile(SOURCE, filename, "exec"), ns)
    return ns


def median_ms(fn, arg, rounds):
    fn(arg)  # compile and warm up
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def from_python_ns(fn, n, rounds):
    """ns per item of list(gen(n)) run by the interpreter (the escaping form: kiln.generator)."""
    list(fn(10))  # compile
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        list(fn(n))
        times.append(time.perf_counter() - t0)
    return statistics.median(times) / n * 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=21)
    opts = ap.parse_args()
    args = {"n": opts.n, "a": np.random.default_rng(0).random(opts.n) * 4}
    engines = {e: engine(e) for e in ("kiln", "numba", "cpython")}
    print(f"n = {opts.n}, medians of {opts.rounds} rounds (CPython {max(3, opts.rounds // 3)})")
    print(f"{'case':26} {'engine':8} {'gen ms':>9} {'hand ms':>9} {'gen/hand':>9}")
    for case, gen, hand, kind in CASES:
        arg = args[kind]
        ref = engines["cpython"][hand](arg)
        for e, ns in engines.items():
            rounds = opts.rounds if e != "cpython" else max(3, opts.rounds // 3)
            try:
                got = ns[gen](arg)
                assert abs(got - ref) <= 1e-6 * max(1.0, abs(ref)), (e, case, got, ref)
                tg = median_ms(ns[gen], arg, rounds)
            except Exception as exc:  # Numba cannot compile some forms
                msg = str(exc).strip().splitlines()[0][:60]
                print(f"{case:26} {e:8} {'n/a':>9} {'':>9} {'':>9}  ({type(exc).__name__}: {msg})")
                continue
            th = median_ms(ns[hand], arg, rounds)
            print(f"{case:26} {e:8} {tg:9.3f} {th:9.3f} {tg / th:9.2f}")
    print("escaping: list(squares(n)) from the interpreter, ns per item (kiln.generator)")
    n = min(opts.n, 200_000)
    for e, ns in engines.items():
        print(f"{'list(squares(n))':26} {e:8} {from_python_ns(ns['squares'], n, 5):9.1f} ns/item")


if __name__ == "__main__":
    main()
