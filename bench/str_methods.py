#!/usr/bin/env python3
"""str methods and formatting: kiln vs Numba vs CPython, side by side (medians).

    .venv/bin/python bench/str_methods.py            # ~1-2 min (Numba compiles for long)
    .venv/bin/python bench/str_methods.py --rounds 5

Each engine runs in a subprocess of its own; each case is a function called with the same text
(about 112 KB: lorem ipsum words, ASCII, or the same words with 'é', '→', 'ö' in them, UCS-2),
compiled by kiln or Numba, or interpreted (CPython). Functions return a length, not the string,
so that boxing a 112 KB result does not count. Short-string cases loop inside the function.
Reports only: nothing here is asserted. Ratios are engine / CPython (below 1: faster).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CASES = r'''
def replace(s):
    return len(s.replace("ipsum", "IPSUM"))

def upper(s):
    return len(s.upper())

def split(s):
    return len(s.split(" "))

def split_ws(s):
    return len(s.split())

def find(s):
    return s.find("NEEDLE")

def count(s):
    return s.count("or")

def join(s):
    return len(",".join(s.split(" ")))

def strip(s):
    n = 0
    for i in range(2000):
        n += len(s[i:i + 40].strip(" loremi"))
    return n

def format_(s):
    n = 0
    for i in range(2000):
        x = i * 0.37
        n += len(f"{i:>6}|{x:.2f}|{x:e}")
    return n
'''

RUN = r'''
import json, sys, time
engine, rounds, text, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
import importlib.util
spec = importlib.util.spec_from_file_location("str_cases", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)  # kiln compiles from source: the cases live in a file
ns = vars(mod)
names = ["replace", "upper", "split", "split_ws", "find", "count", "join", "strip", "format_"]
words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()
if text == "ucs2":
    words = [w.replace("e", "é").replace("o", "ö") + "→" for w in words]
s = (" ".join(words) + " ") * 1400 + "NEEDLE"
funcs = {k: ns[k] for k in names}
if engine == "kiln":
    import kiln
    funcs = {k: kiln.njit(f) for k, f in funcs.items()}
elif engine == "numba":
    import numba
    funcs = {k: numba.njit(f) for k, f in funcs.items()}
out = {}
for k, f in funcs.items():
    try:
        f(s)  # compile, warm
    except Exception as e:
        sys.stderr.write(f"{engine} {k}: {type(e).__name__}: {e}\n")
        out[k] = None
        continue
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(s); ts.append(time.perf_counter() - t)
    out[k] = statistics.median(ts)
print(json.dumps(out))
'''


def run(engine, rounds, text, path):
    code = "import statistics\n" + RUN
    r = subprocess.run([sys.executable, "-P", "-c", code, engine, str(rounds), text, path],
                       capture_output=True, text=True, env=dict(os.environ))
    sys.stderr.write(r.stderr)
    if r.returncode:
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--engines", default="kiln,numba,cpython")
    ap.add_argument("--repeat", type=int, default=3,
                    help="alternating runs of kiln and CPython (the host is shared): the "
                         "least median of each case is kept; Numba (slow to compile) runs once")
    args = ap.parse_args()
    engines = args.engines.split(",")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(CASES)
    for text in ("ascii", "ucs2"):
        res = {}
        for rep in range(args.repeat):
            for e in engines:
                if e == "numba" and rep:
                    continue
                r = run(e, args.rounds, text, fh.name)
                if r is None:
                    continue
                old = res.get(e)
                res[e] = r if old is None else {
                    k: min(v for v in (old.get(k), r.get(k)) if v is not None)
                    if (old.get(k) is not None or r.get(k) is not None) else None for k in r}
        print(f"\n{text} text (~112 KB), median of {args.rounds} (least of {args.repeat} "
              "alternating runs), microseconds (ratio to CPython)")
        print(f"{'case':10}" + "".join(f"{e:>20}" for e in engines))
        for case in res[engines[0]] or {}:
            base = (res.get("cpython") or {}).get(case)
            row = f"{case:10}"
            for e in engines:
                v = (res.get(e) or {}).get(case)
                if v is None:
                    row += f"{'n/a':>20}"
                else:
                    ratio = f" ({v / base:.2f}x)" if base else ""
                    row += f"{v * 1e6:>11.1f}{ratio:>9}"
            print(row)


if __name__ == "__main__":
    main()
