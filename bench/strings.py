#!/usr/bin/env python3
"""str operations: kiln, Numba and CPython side by side (issue 9: every string operation at
least as fast as CPython's, ASCII and non-ASCII; `s += "ab"` 20,000 times linear).

    .venv/bin/python bench/strings.py            # ~1 min
    .venv/bin/python bench/strings.py --quick

Each kernel is one plain Python function with its loop inside, run by CPython as is and
compiled by kiln and by Numba; each engine runs in a subprocess of its own. Steady state: the
median of the rounds after a warm-up call (which compiles). The text is ASCII ("ascii") or holds
UCS-2 characters ("ucs2": 'é' and '→'). A kernel an engine cannot compile shows "n/a".
Reports only: nothing here is asserted.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

KERNELS = r'''
def eq(words, t, n):
    c = 0
    for i in range(n):
        for w in words:
            if w == t:
                c += 1
    return c


def eq_literal(words, n):
    c = 0
    for i in range(n):
        for w in words:
            if w == "euclidean":
                c += 1
            elif w == "manhattan":
                c += 2
    return c


def iadd(n, piece):
    r = ""
    for i in range(n):
        r += piece
    return len(r)


def index_loop(s, ch):
    c = 0
    for i in range(len(s)):
        if s[i] == ch:
            c += 1
    return c


def iterate(s, ch):
    c = 0
    for x in s:
        if x == ch:
            c += 1
    return c


def slicing(s, n):
    c = 0
    for i in range(n):
        c += len(s[i % 50:i % 50 + 20])
    return c


def reverse(s, n):
    c = 0
    for i in range(n):
        c += len(s[::-1])
    return c


def hash_slices(s, n):
    h = 0
    for i in range(n):
        h ^= hash(s[i % 50:i % 50 + 16])
    return h


def contains(s, t, n):
    c = 0
    for i in range(n):
        if t in s:
            c += 1
    return c


def str_int(n):
    c = 0
    for i in range(n):
        c += len(str(i))
    return c


def str_float(n):
    c = 0
    for i in range(n):
        c += len(str(i * 0.37))
    return c


def int_str(s, n):
    c = 0
    for i in range(n):
        c += int(s)
    return c
'''

RUNNER = r'''
import json, sys, time
engine, rounds, quick = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
ns = {}
exec(compile(open(sys.argv[4]).read(), sys.argv[4], "exec"), ns)
jit = None
if engine == "kiln":
    import kiln
    jit = kiln.njit
elif engine == "numba":
    import numba
    jit = numba.njit
N = 2000 if quick else 20000
A = "the quick brown fox jumps over the lazy dog " * 40
U = "thé quick brown fox jumps → over the lazy dog " * 40
cases = [
    # 4 strings of 200 characters that differ from t only in the last one (a small tuple:
    # iterating a tuple by a variable index costs more per item as it grows, in kiln and Numba)
    ("== (ascii)", "eq", (tuple(A[:199] + c for c in "wxyz"), A[:199] + "z", N)),
    ("== (ucs2)", "eq", (tuple(U[:199] + c for c in "wxyz"), U[:199] + "z", N)),
    ("== literal option", "eq_literal", (("euclidean", "manhattan", "cosine", "chebyshev"), N)),
    ('s += "ab" x20000', "iadd", (20000, "ab")),
    ('s += "ab" x200000', "iadd", (200000, "ab")),
    ('s += "é→" x20000', "iadd", (20000, "é→")),
    ("s[i] loop (ascii)", "index_loop", (A, "o")),
    ("s[i] loop (ucs2)", "index_loop", (U, "o")),
    ("for ch in s (ascii)", "iterate", (A, "o")),
    ("for ch in s (ucs2)", "iterate", (U, "→")),
    ("s[a:b] (ascii)", "slicing", (A, N)),
    ("s[a:b] (ucs2)", "slicing", (U, N)),
    ("s[::-1] (ascii)", "reverse", (A, N // 10)),
    ("s[::-1] (ucs2)", "reverse", (U, N // 10)),
    ("hash(s[a:b]) (ascii)", "hash_slices", (A, N)),
    ("hash(s[a:b]) (ucs2)", "hash_slices", (U, N)),
    ("in (ascii)", "contains", (A, "lazy dogs", N)),
    ("in (ucs2)", "contains", (U, "→ under", N)),
    ("str(int)", "str_int", (N,)),
    ("str(float)", "str_float", (N,)),
    ("int(s)", "int_str", (" 12_345 ", N)),
]
out = {}
for name, fn, args in cases:
    f = ns[fn]
    if jit is not None:
        try:
            f = jit(f)
            f(*args)
        except Exception as e:
            print(f"{engine}: {name}: {type(e).__name__}: {str(e).splitlines()[0]}",
                  file=sys.stderr)
            out[name] = None
            continue
    else:
        f(*args)
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(*args); ts.append(time.perf_counter() - t)
    ts.sort()
    out[name] = ts[len(ts) // 2]
print(json.dumps(out))
'''


def have(mod):
    return subprocess.run([sys.executable, "-P", "-c", f"import {mod}"],
                          capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds = 3 if args.quick else 9
    with tempfile.TemporaryDirectory() as d:
        kpath, rpath = os.path.join(d, "kernels.py"), os.path.join(d, "runner.py")
        with open(kpath, "w") as f:
            f.write(KERNELS)
        with open(rpath, "w") as f:
            f.write(RUNNER)
        res = {}
        engines = ["cpython", "kiln"] + (["numba"] if have("numba") else [])
        for eng in engines:
            p = subprocess.run([sys.executable, "-P", rpath, eng, str(rounds),
                                "1" if args.quick else "0", kpath],
                               capture_output=True, text=True)
            if p.returncode:
                print(p.stderr, file=sys.stderr)
                sys.exit(1)
            if p.stderr.strip():
                print(p.stderr.strip(), file=sys.stderr)
            res[eng] = json.loads(p.stdout.strip().splitlines()[-1])
    names = list(res["cpython"])

    def cell(eng, n):
        t = res.get(eng, {}).get(n)
        return "n/a" if t is None else f"{t * 1e3:9.3f}"

    print(f"{'operation':24} {'CPython ms':>10} {'kiln ms':>10} {'Numba ms':>10} "
          f"{'kiln/CPy':>9} {'Numba/CPy':>9}")
    for n in names:
        c, k, b = res["cpython"][n], res["kiln"].get(n), res.get("numba", {}).get(n)
        rk = f"{k / c:9.2f}" if k else "      n/a"
        rb = f"{b / c:9.2f}" if b else "      n/a"
        print(f"{n:24} {cell('cpython', n):>10} {cell('kiln', n):>10} {cell('numba', n):>10} "
              f"{rk} {rb}")


if __name__ == "__main__":
    main()
