"""@vectorize benchmarks (issue 12): kiln vs NumPy vs Numba, one run, medians.

    .venv/bin/python bench/vectorize.py            # all three parts
    .venv/bin/python bench/vectorize.py --quick    # fewer repetitions

1. a*b+c on 10^6 float64: a @vectorize'd ufunc (kiln, Numba) vs NumPy's own expression
   (np.add(np.multiply(a, b), c), two ufunc passes and a temporary) and a 3-input kiln ufunc
   with target='parallel'.
2. call overhead: the ufunc f(a, b) = a + b on 10-element float64 arrays vs np.add(a, b).
3. construction: a fresh process imports a module that defines 40 typed ufuncs (2 signatures
   each), kiln vs Numba (time of the import only, numpy and the compiler already imported),
   and the first call of one of them.

Every number comes from a subprocess of its own implementation (kiln and Numba never share a
process); each cell is a median.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

QUICK = "--quick" in sys.argv
PY = sys.executable

STEADY = r"""
import json, sys, time
import numpy as np
impl = sys.argv[1]
reps = int(sys.argv[2])
if impl == "kiln":
    from kiln import vectorize
elif impl == "numba":
    from numba import vectorize
rng = np.random.default_rng(0)
n = 10**6
a, b, c = (rng.random(n) for _ in range(3))
s1, s2 = rng.random(10), rng.random(10)
out = {}

def best(f, inner):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            f()
        ts.append((time.perf_counter() - t0) / inner)
    return statistics.median(ts)

import statistics
if impl == "numpy":
    out["abc_1e6"] = best(lambda: np.add(np.multiply(a, b), c), 20)
    out["call10"] = best(lambda: np.add(s1, s2), 20000)
    out["check"] = float(np.add(np.multiply(a, b), c).sum())
else:
    @vectorize(["float64(float64, float64, float64)"])
    def fma(x, y, z):
        return x * y + z

    @vectorize(["float64(float64, float64)"])
    def add(x, y):
        return x + y

    fma(a, b, c); add(s1, s2)
    out["abc_1e6"] = best(lambda: fma(a, b, c), 20)
    out["call10"] = best(lambda: add(s1, s2), 20000)
    out["check"] = float(fma(a, b, c).sum())
    if impl == "kiln" or impl == "numba":
        @vectorize(["float64(float64, float64, float64)"], target="parallel")
        def pfma(x, y, z):
            return x * y + z
        pfma(a, b, c)
        out["abc_1e6_parallel"] = best(lambda: pfma(a, b, c), 20)
print(json.dumps(out))
"""

MODULE_HEAD = {"kiln": "from kiln import vectorize\n", "numba": "from numba import vectorize\n"}


def module_source(impl):
    lines = [MODULE_HEAD[impl]]
    ops = ["x + y", "x * y", "x - y", "x * y + 1.0", "x / (y + 1.0)", "x * x - y", "x + 2.0 * y",
           "(x - y) * (x + y)"]
    for i in range(40):
        lines.append(textwrap.dedent(f"""
            @vectorize(["float64(float64, float64)", "float32(float32, float32)"])
            def u{i}(x, y):
                return {ops[i % len(ops)]}
        """))
    return "".join(lines)


IMPORT = r"""
import sys, time, json
sys.path.insert(0, sys.argv[2])
import numpy as np
if sys.argv[1] == "kiln":
    import kiln, kiln._core
else:
    import numba
t0 = time.perf_counter()
import ufuncs40
t1 = time.perf_counter()
r = ufuncs40.u3(np.arange(4.0), np.arange(4.0))
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_call": t2 - t1}))
"""


def run(code, *args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryDirectory() as scratch:
        script = os.path.join(scratch, "bench_case.py")  # kiln compiles from source files
        with open(script, "w") as f:
            f.write(code)
        p = subprocess.run([PY, script, *args], capture_output=True, text=True, env=env,
                           cwd=scratch)
    if p.returncode:
        raise SystemExit(f"{args[0]} failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def have_numba():
    return subprocess.run([PY, "-c", "import numba"], capture_output=True).returncode == 0


def main():
    impls = ["kiln", "numpy"] + (["numba"] if have_numba() else [])
    reps = "5" if QUICK else "9"
    rounds = 1 if QUICK else 3
    steady = {i: [] for i in impls}
    for _ in range(rounds):
        for impl in impls:
            steady[impl].append(run(STEADY, impl, reps))

    def med(impl, key):
        vals = [r[key] for r in steady[impl] if key in r]
        return statistics.median(vals) if vals else None

    checks = {i: steady[i][0]["check"] for i in impls}
    print("1. a*b+c, 10^6 float64 (ms, median)")
    for impl in impls:
        print(f"   {impl:6s} {med(impl, 'abc_1e6') * 1e3:8.3f}")
    for impl in ("kiln", "numba"):
        if impl in impls:
            print(f"   {impl + ' parallel':15s} {med(impl, 'abc_1e6_parallel') * 1e3:8.3f}")
    k = med("kiln", "abc_1e6")
    print(f"   kiln/numpy {k / med('numpy', 'abc_1e6'):.2f}"
          + (f", kiln/numba {k / med('numba', 'abc_1e6'):.2f}" if "numba" in impls else ""))
    print("2. call overhead, 10 float64 (us, median)")
    for impl in impls:
        print(f"   {impl:6s} {med(impl, 'call10') * 1e6:8.3f}")
    print(f"   kiln/np.add {med('kiln', 'call10') / med('numpy', 'call10'):.2f} (target <= 1.5)")

    with tempfile.TemporaryDirectory() as d:
        res = {}
        for impl in [i for i in ("kiln", "numba") if i in impls]:
            sub = os.path.join(d, impl)
            os.mkdir(sub)
            with open(os.path.join(sub, "ufuncs40.py"), "w") as f:
                f.write(module_source(impl))
            samples = [run(IMPORT, impl, sub) for _ in range(3 if QUICK else 7)]
            res[impl] = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
        print("3. a module of 40 typed ufuncs (2 signatures each): import and first call (ms)")
        for impl, r in res.items():
            print(f"   {impl:6s} import {r['import'] * 1e3:9.2f}   first call {r['first_call'] * 1e3:8.2f}")
        if "numba" in res:
            print(f"   kiln/numba import {res['kiln']['import'] / res['numba']['import']:.3f} "
                  f"(target <= 0.1)")
    ok = all(abs(checks[i] - checks["numpy"]) <= 1e-9 * abs(checks["numpy"]) for i in impls)
    print("results agree" if ok else f"RESULTS DISAGREE: {checks}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
