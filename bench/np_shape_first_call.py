#!/usr/bin/env python3
"""First calls of functions using the shape and joining family, each in a fresh process.

    .venv/bin/python bench/np_shape_first_call.py [--procs 5] [--only concatenate,stack]

Issue 11's target: the first call (compile + run) of a function using one of these functions
is at most 25 ms in a fresh process (the import of the JIT not counted, as in
bench/first_call_features.py, whose method this follows). Each sample is a fresh process
running one script in a scratch directory; kiln and Numba processes take turns; the table
gives medians and whether the two results agree. The first row, a function using none of them
(a.sum()), is the floor on this host.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

A2 = "np.arange(12.0).reshape(3, 4)"
FEATURES = {
    "baseline a.sum()": ("def f(a):\n    return a.sum()\n", f"({A2},)"),
    "concatenate": ("def f(a, b):\n    return np.concatenate((a, b), axis=1).sum()\n",
                    f"({A2}, {A2})"),
    "concatenate_list": ("def f(a, b):\n    return np.concatenate([a, b, a]).sum()\n",
                         f"({A2}, {A2})"),
    "stack": ("def f(a, b):\n    return np.stack((a, b)).sum()\n", f"({A2}, {A2})"),
    "vstack": ("def f(a, b):\n    return np.vstack((a, b)).sum()\n", f"({A2}, {A2})"),
    "expand_dims": ("def f(a):\n    return np.expand_dims(a, 1).shape[1]\n", f"({A2},)"),
    "swapaxes": ("def f(a):\n    return np.swapaxes(a, 0, 1)[1, 0]\n", f"({A2},)"),
    "flip": ("def f(a):\n    return np.flip(a, 0)[0, 1]\n", f"({A2},)"),
    "broadcast_to": ("def f(a):\n    return np.broadcast_to(a, (2, 3, 4)).sum()\n", f"({A2},)"),
    "split": ("def f(a):\n    return len(np.split(a, 3))\n", f"({A2},)"),
    "tile": ("def f(a):\n    return np.tile(a, (2, 2)).sum()\n", f"({A2},)"),
    "repeat": ("def f(a):\n    return np.repeat(a, 2).sum()\n", f"({A2},)"),
    "roll": ("def f(a):\n    return np.roll(a, 1, 1)[0, 0]\n", f"({A2},)"),
    "delete": ("def f(a):\n    return np.delete(a, 1, 0).sum()\n", f"({A2},)"),
}
HEAD = {"kiln": "import kiln\njit = kiln.njit\n", "numba": "import numba\njit = numba.njit\n"}
TAIL = '''
t0 = time.perf_counter()
r = f(*ARGS)
t1 = time.perf_counter()
print(json.dumps({"first_ms": (t1 - t0) * 1e3, "result": float(r)}))
'''


def script(impl, feature, tmp):
    body, args = FEATURES[feature]
    path = os.path.join(tmp, f"first_{feature}_{impl}.py")  # kiln compiles from source
    with open(path, "w") as f:
        f.write("import json, time\nimport numpy as np\n" + HEAD[impl] + "@jit\n" + body +
                f"ARGS = {args}\n" + TAIL)
    return path


def sample(impl, feature, tmp):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-P", script(impl, feature, tmp)], capture_output=True,
                         text=True, cwd=tmp, env=env)
    if out.returncode:
        lines = out.stderr.strip().splitlines() or ["?"]
        return None, lines[-1][:70]
    return json.loads(out.stdout.strip().splitlines()[-1]), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-numba", action="store_true")
    args = ap.parse_args()
    feats = [f for f in FEATURES if not args.only or f in args.only.split(",")]
    impls = ["kiln"] + ([] if args.no_numba else ["numba"])
    tmp = tempfile.mkdtemp(prefix="kiln_bench_")
    print("| function | kiln ms, median | Numba ms, median | results |")
    print("|---|---:|---:|---|")
    status = 0
    for feat in feats:
        times = {i: [] for i in impls}
        results, errors = {}, {}
        for _ in range(args.procs):
            for impl in impls:
                if impl in errors:
                    continue
                rec, err = sample(impl, feat, tmp)
                if err:
                    errors[impl] = err
                    continue
                times[impl].append(rec["first_ms"])
                results[impl] = rec["result"]
        cells = [f"{statistics.median(times[i]):.1f}" if times[i] else f"failed: {errors[i]}"
                 for i in impls]
        if len(cells) == 1:
            cells.append("")
        same = "same" if len({json.dumps(v) for v in results.values()}) <= 1 else "DIFFER"
        status |= same != "same"
        print(f"| {feat} | {cells[0]} | {cells[1]} | {same} |", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
