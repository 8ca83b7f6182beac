#!/usr/bin/env python3
"""@guvectorize (issue 12, "Numbers"): kiln vs Numba, side by side in one run.

    .venv/bin/python bench/guvectorize.py            # ~1-2 min (Numba compiles 36 gufuncs per round)
    .venv/bin/python bench/guvectorize.py --quick

Each engine runs in fresh subprocesses (kiln and Numba never share a process):

* import (NumPy imported first, not counted): a generated module defining 36 typed gufuncs in the style of quaternionic
  (quaternion algebra over `(4)` core dimensions, one signature each): the time of
  `import module` after the engine itself is imported (median of rounds), and the engine's own
  import. kiln compiles each loop on its first call, Numba at decoration, so the time to call
  every one of the 36 once after the import is reported too.
* call: quaternion multiply `(4),(4)->(4)` on 10^5 quaternions, and on one (call overhead),
  median of timeit repeats; NumPy's builtin `np.add` on the same small arrays for scale.

Target (issue 12): the import at most 1/10 of Numba's. Reports only: nothing is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

OPS = [  # name, layout, kernel body (a, b: inputs, out: output), arity
    ("add", "(n),(n)->(n)", "for i in range(a.shape[0]):\n        out[i] = a[i] + b[i]", 2),
    ("sub", "(n),(n)->(n)", "for i in range(a.shape[0]):\n        out[i] = a[i] - b[i]", 2),
    ("mul", "(n),(n)->(n)",
     "out[0] = a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3]\n"
     "    out[1] = a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2]\n"
     "    out[2] = a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1]\n"
     "    out[3] = a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0]", 2),
    ("conj", "(n)->(n)", "out[0] = a[0]\n    for i in range(1, 4):\n        out[i] = -a[i]", 1),
    ("norm", "(n)->()", "out[0] = a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3]", 1),
    ("absq", "(n)->()", "out[0] = (a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3]) ** 0.5", 1),
]
SCALARS = ["float64[:]", "float64[:]", "float64[:]"]

MODULE_HEAD = "from {engine} import guvectorize\nfrom {engine} import float64\n\n"


def module_source(engine):
    parts = [MODULE_HEAD.format(engine=engine)]
    for k in range(6):  # 6 x 6 ops = 36 gufuncs
        for name, layout, body, arity in OPS:
            args = "a, b, out" if arity == 2 else "a, out"
            sig = ", ".join(["float64[:]"] * (arity + 1))
            parts.append(f"@guvectorize([\"void({sig})\"], \"{layout}\", nopython=True)\n"
                         f"def {name}_{k}({args}):\n    {body}\n\n")
    return "".join(parts)


SCRIPT = r'''
import json, sys, time, importlib
engine, what, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
import numpy as np
t0 = time.perf_counter()
if engine == "kiln":
    import kiln
else:
    import numba
t1 = time.perf_counter()
mod = importlib.import_module("gumod_" + engine)
t2 = time.perf_counter()
res = {"engine_import": t1 - t0, "module_import": t2 - t1}
q = np.ones((2, 4))
for name in dir(mod):
    f = getattr(mod, name)
    if hasattr(f, "signature") and hasattr(f, "nin"):
        f(*([q] * f.nin))
res["first_calls"] = time.perf_counter() - t2
if what == "call":
    import timeit
    a = np.random.default_rng(0).standard_normal((100_000, 4))
    b = np.random.default_rng(1).standard_normal((100_000, 4))
    mul = mod.mul_0
    mul(a, b)
    res["mul_1e5"] = min(timeit.repeat(lambda: mul(a, b), number=20, repeat=rounds)) / 20
    x, y = a[0].copy(), b[0].copy()
    res["mul_one"] = min(timeit.repeat(lambda: mul(x, y), number=20000, repeat=rounds)) / 20000
    res["np_add_one"] = min(timeit.repeat(lambda: np.add(x, y), number=20000, repeat=rounds)) / 20000
print(json.dumps(res))
'''


def run(engine, what, rounds, tmp):
    script = os.path.join(tmp, "bench_script.py")
    with open(script, "w") as f:
        f.write(SCRIPT)
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba_cache"))
    r = subprocess.run([sys.executable, "-P", script, engine, what, str(rounds), tmp],
                       capture_output=True, text=True, env=env, timeout=600)
    if r.returncode != 0:
        raise SystemExit(f"{engine}: {r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    rounds = 2 if opts.quick else 5
    engines = ["kiln"]
    try:
        import numba  # noqa: F401
        engines.append("numba")
    except ImportError:
        print("numba is not installed: kiln only")
    with tempfile.TemporaryDirectory() as tmp:
        for e in engines:
            with open(os.path.join(tmp, f"gumod_{e}.py"), "w") as f:
                f.write(module_source(e))
        results = {}
        for e in engines:
            runs = [run(e, "import", 1, tmp) for _ in range(rounds if e == "kiln" else max(2, rounds // 2))]
            calls = run(e, "call", rounds, tmp)
            results[e] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            results[e].update({k: calls[k] for k in ("mul_1e5", "mul_one", "np_add_one")})
    print("36 typed gufuncs (quaternionic style), medians; times in ms unless noted")
    print(f"{'':28}" + "".join(f"{e:>12}" for e in engines))
    rows = [("engine import", "engine_import", 1e3), ("module import (36 gufuncs)", "module_import", 1e3),
            ("first call of all 36", "first_calls", 1e3), ("mul, 10^5 quaternions", "mul_1e5", 1e3),
            ("mul, one quaternion (us)", "mul_one", 1e6), ("np.add, 4 items (us)", "np_add_one", 1e6)]
    for label, key, scale in rows:
        print(f"{label:28}" + "".join(f"{results[e][key] * scale:12.3f}" for e in engines))
    if "numba" in results:
        k, n = results["kiln"], results["numba"]
        print(f"module import: kiln / numba = {k['module_import'] / n['module_import']:.4f} "
              f"(target <= 0.1)")
        print(f"import + first calls: kiln / numba = "
              f"{(k['module_import'] + k['first_calls']) / (n['module_import'] + n['first_calls']):.3f}")


if __name__ == "__main__":
    main()
