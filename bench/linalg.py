#!/usr/bin/env python3
"""Matrix products and np.linalg: kiln, NumPy and Numba side by side, plus first calls.

    .venv/bin/python bench/linalg.py [--repeat 7] [--only matmul_1000,inv_100] [--first]

Steady state: the median of `--repeat` timings (each the best per-call time of a timeit loop)
of the same function compiled by kiln and by Numba, and of NumPy's own call. BLAS: kiln and
Numba call SciPy's OpenBLAS (scipy.linalg.cython_blas); NumPy its own bundled OpenBLAS; both
are run with the threads the environment gives them (OPENBLAS_NUM_THREADS). The column
"SciPy BLAS" times scipy.linalg.blas.dgemm where it applies, so that the two OpenBLAS builds
can be told apart from kiln's own overhead.

--first: the first call (compile + run) of a function using one feature, each in a fresh
process (median of 5), for kiln and Numba, split into the one-time load of SciPy's BLAS and the
compile of the function (kiln: kiln._linalg.load() before the timed call).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import timeit

import numpy as np

CASES = {
    "matmul_3": ("a @ b", lambda: (np.random.rand(3, 3), np.random.rand(3, 3))),
    "matmul_4": ("a @ b", lambda: (np.random.rand(4, 4), np.random.rand(4, 4))),
    "matmul_16": ("a @ b", lambda: (np.random.rand(16, 16), np.random.rand(16, 16))),
    "matvec_4": ("a @ b", lambda: (np.random.rand(4, 4), np.random.rand(4))),
    "matmul_100": ("a @ b", lambda: (np.random.rand(100, 100), np.random.rand(100, 100))),
    "matmul_1000": ("a @ b", lambda: (np.random.rand(1000, 1000), np.random.rand(1000, 1000))),
    "matmul_1000_f32": ("a @ b", lambda: (np.random.rand(1000, 1000).astype(np.float32),
                                          np.random.rand(1000, 1000).astype(np.float32))),
    "dot_vv_10000": ("np.dot(a, b)", lambda: (np.random.rand(10000), np.random.rand(10000))),
    "matvec_1000": ("a @ b", lambda: (np.random.rand(1000, 1000), np.random.rand(1000))),
    "inv_4": ("np.linalg.inv(a)", lambda: (np.random.rand(4, 4) + 4 * np.eye(4),)),
    "inv_100": ("np.linalg.inv(a)", lambda: (np.random.rand(100, 100) + 100 * np.eye(100),)),
    "solve_100": ("np.linalg.solve(a, b)", lambda: (np.random.rand(100, 100) + 100 * np.eye(100),
                                                     np.random.rand(100))),
    "det_100": ("np.linalg.det(a)", lambda: (np.random.rand(100, 100),)),
    "eigh_100": ("np.linalg.eigh(a)", lambda: ((lambda m: m + m.T)(np.random.rand(100, 100)),)),
    "svd_100": ("np.linalg.svd(a)", lambda: (np.random.rand(100, 100),)),
    "norm_1000": ("np.linalg.norm(a)", lambda: (np.random.rand(1000, 1000),)),
}


def make(expr, nargs, jit):
    names = ", ".join("ab"[:nargs])
    src = f"def f({names}):\n    return {expr}\n"
    path = os.path.join(tempfile.gettempdir(), f"kiln_bench_linalg_{abs(hash(src))}.py")
    with open(path, "w") as fh:  # kiln compiles from source
        fh.write("import numpy as np\n" + src)
    ns = {}
    exec(compile("import numpy as np\n" + src, path, "exec"), ns)
    return jit(ns["f"]) if jit else ns["f"]


def per_call(fn, args, repeat):
    fn(*args)
    t = timeit.Timer(lambda: fn(*args))
    n, _ = t.autorange()
    return statistics.median(min(t.repeat(3, n)) / n for _ in range(repeat))


def steady(args):
    import kiln
    try:
        import numba
    except ImportError:
        numba = None
    from scipy.linalg import blas as sblas
    print("| case | kiln | NumPy | Numba | SciPy BLAS | kiln/NumPy | kiln/Numba |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (expr, gen) in CASES.items():
        if args.only and name not in args.only.split(","):
            continue
        np.random.seed(0)
        data = gen()
        k = per_call(make(expr, len(data), kiln.njit), data, args.repeat)
        n = per_call(make(expr, len(data), None), data, args.repeat)
        nb = per_call(make(expr, len(data), numba.njit), data, args.repeat) if numba else None
        sp = None
        if name.startswith("matmul_1000"):
            g = sblas.dgemm if data[0].dtype == np.float64 else sblas.sgemm
            sp = per_call(lambda a, b: g(1.0, a, b), data, args.repeat)

        def fmt(t):
            return "" if t is None else (f"{t * 1e6:.2f} us" if t < 1e-3 else f"{t * 1e3:.2f} ms")

        print(f"| {name} | {fmt(k)} | {fmt(n)} | {fmt(nb)} | {fmt(sp)} | {k / n:.2f} | "
              f"{'' if nb is None else f'{k / nb:.2f}'} |", flush=True)


FIRST = {
    "matmul_3": ("a @ b", "np.ones((3, 3)), np.ones((3, 3))"),
    "matmul_big": ("a @ b", "np.ones((50, 50)), np.ones((50, 50))"),
    "dot": ("np.dot(a, b)", "np.ones(100), np.ones(100)"),
    "inv": ("np.linalg.inv(a)", "np.eye(4),"),
    "solve": ("np.linalg.solve(a, b)", "np.eye(4), np.ones(4)"),
    "det": ("np.linalg.det(a)", "np.eye(4),"),
    "eigh": ("np.linalg.eigh(a)", "np.eye(4),"),
    "svd": ("np.linalg.svd(a)", "np.eye(4),"),
    "norm": ("np.linalg.norm(a)", "np.eye(4),"),
    "norm2": ("np.linalg.norm(a, 2)", "np.eye(4),"),
    "lstsq": ("np.linalg.lstsq(a, b)", "np.eye(4), np.ones(4)"),
}

FIRST_SCRIPT = '''
import json, time
import numpy as np
{head}
def f(a, b=None):
    return {expr}
ARGS = ({args})
t0 = time.perf_counter()
{preload}
t1 = time.perf_counter()
f(*ARGS)
t2 = time.perf_counter()
print(json.dumps({{"load_ms": (t1 - t0) * 1e3, "first_ms": (t2 - t1) * 1e3}}))
'''


def first(args):
    heads = {"kiln": ("import kiln\nf_jit = kiln.njit", "from kiln import _linalg; _linalg.load()"),
             "numba": ("import numba\nf_jit = numba.njit",
                       "import scipy.linalg.cython_blas, scipy.linalg.cython_lapack")}
    tmp = tempfile.mkdtemp(prefix="kiln_bench_linalg_")
    print("| function | kiln: SciPy load ms | kiln: first call ms | Numba: SciPy load ms | "
          "Numba: first call ms |")
    print("|---|---:|---:|---:|---:|")
    for name, (expr, fargs) in FIRST.items():
        if args.only and name not in args.only.split(","):
            continue
        cells = []
        for impl, (head, preload) in heads.items():
            src = FIRST_SCRIPT.format(head=head.split("\n")[0], expr=expr, args=fargs,
                                      preload=preload)
            src = src.replace("def f(", f"@{impl}.njit\ndef f(")
            path = os.path.join(tmp, f"first_{name}_{impl}.py")
            with open(path, "w") as fh:
                fh.write(src)
            loads, firsts = [], []
            for _ in range(args.procs):
                out = subprocess.run([sys.executable, "-P", path], capture_output=True, text=True,
                                     cwd=tmp)
                if out.returncode:
                    loads = None
                    err = (out.stderr.strip().splitlines() or ["?"])[-1][:60]
                    break
                rec = json.loads(out.stdout.strip().splitlines()[-1])
                loads.append(rec["load_ms"])
                firsts.append(rec["first_ms"])
            if loads is None:
                cells += [f"failed: {err}", ""]
            else:
                cells += [f"{statistics.median(loads):.1f}", f"{statistics.median(firsts):.1f}"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--first", action="store_true")
    args = ap.parse_args()
    (first if args.first else steady)(args)


if __name__ == "__main__":
    main()
