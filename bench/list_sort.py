#!/usr/bin/env python3
"""sorted() / list.sort() of 10^5 random ints in compiled code: kiln, Numba, CPython.

    .venv/bin/python bench/list_sort.py [--n 100000] [--rounds 9]

Each case builds a list of n int64 from an array in the compiled function (about 0.2 ms in kiln
and Numba) and sorts it: sorted(xs), sorted(xs, key=lambda x: -x), xs.sort(). kiln and Numba
run in one process, in turns; CPython's column times only the sort of a prebuilt list (its
loop that builds the list would dominate). Medians of --rounds calls after a warm-up call, ms.
"""

import argparse
import statistics
import time

import numpy as np


def s_plain(a):
    xs = [int(x) for x in a]
    ys = sorted(xs)
    return ys[0] + ys[len(ys) // 2]


def s_key(a):
    xs = [int(x) for x in a]
    ys = sorted(xs, key=lambda x: -x)
    return ys[0] + ys[len(ys) // 2]


def s_method(a):
    xs = [int(x) for x in a]
    xs.sort()
    return xs[0] + xs[len(xs) // 2]


PY_SORT = {"s_plain": lambda xs: sorted(xs), "s_key": lambda xs: sorted(xs, key=lambda x: -x),
           "s_method": lambda xs: list(xs).sort()}


def median_ms(fn, arg, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main():
    import kiln
    import numba

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=9)
    opts = ap.parse_args()
    a = np.random.default_rng(0).integers(0, 10**9, opts.n)
    xs = a.tolist()
    print(f"| case (n = {opts.n}) | kiln ms | Numba ms | CPython sort only ms |")
    print("|---|---:|---:|---:|")
    for f in (s_plain, s_key, s_method):
        k, nb = kiln.njit(f), numba.njit(f)
        assert k(a) == nb(a) == f(a)
        tk, tn = [], []
        for _ in range(opts.rounds):
            tk.append(median_ms(k, a, 1))
            tn.append(median_ms(nb, a, 1))
        tp = median_ms(PY_SORT[f.__name__], xs, max(3, opts.rounds // 3))
        print(f"| {f.__name__} | {statistics.median(tk):.2f} | {statistics.median(tn):.2f} | "
              f"{tp:.2f} |")


if __name__ == "__main__":
    main()
