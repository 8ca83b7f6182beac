"""Steady-state rounds taken in turn, shared by bench/dicts.py and bench/exceptions.py.

A bench hands over the source of a worker script (STEADY): it is run once per engine (kiln,
numba, cpython) in a subprocess of its own, as `python -P worker ENGINE N`. The worker compiles
and warms its cases, prints their names as one JSON list, then reads one case name a line from
stdin, runs it once and prints the seconds. run_rounds() asks each engine for each case in turn
(kiln, Numba, CPython, kiln, ...), so that the load of a shared machine falls on all three
alike; print_table() prints the medians in ms. Reports only: nothing here is asserted.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

ENGINES = ("kiln", "numba", "cpython")


def start(engine, path, n):
    return subprocess.Popen([sys.executable, "-P", path, engine, str(n)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def run_rounds(steady, n, rounds):
    """{engine: {case: [seconds per round]}} for the worker source `steady`."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(steady)
    try:
        procs = {e: start(e, f.name, n) for e in ENGINES}
        cases = {e: json.loads(procs[e].stdout.readline()) for e in ENGINES}
        res = {e: {c: [] for c in cases[e]} for e in ENGINES}
        for _ in range(rounds):  # rounds taken in turn: kiln, Numba, CPython, kiln, ...
            for case in cases["kiln"]:
                for e in ENGINES:
                    procs[e].stdin.write(case + "\n")
                    procs[e].stdin.flush()
                    res[e][case].append(float(procs[e].stdout.readline()))
        for p in procs.values():
            p.stdin.close()
            p.wait()
    finally:
        os.unlink(f.name)
    return res


def print_table(res, n, rounds, width):
    """Medians in ms, one row per case (`width` columns for its name), with the ratios."""
    print(f"N = {n}, median of {rounds} rounds, ms")
    print(f"{'case':{width}s} {'kiln':>9s} {'numba':>9s} {'cpython':>9s} {'vs numba':>9s} "
          f"{'vs cpy':>8s}")
    for case in res["kiln"]:
        med = {e: statistics.median(res[e][case]) * 1e3 if case in res[e] else float("nan")
               for e in res}
        print(f"{case:{width}s} {med['kiln']:9.3f} {med['numba']:9.3f} {med['cpython']:9.3f} "
              f"{med['numba'] / med['kiln']:8.1f}x {med['cpython'] / med['kiln']:7.1f}x")
