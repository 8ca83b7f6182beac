#!/usr/bin/env python3
"""kiln's benchmarks, side by side with Numba, plain C, NumPy and plain Python.

    .venv/bin/python bench/run.py            # full run (~4-5 min), writes bench/results/latest.md
    .venv/bin/python bench/run.py --quick    # fewer repetitions (~2 min)
    .venv/bin/python bench/run.py --only fib --only call_overhead

--only takes a section (import, first_call, call_overhead, kernels, arrays) or one item of a
section (a kernel name such as fib or matmul, a call-overhead function such as ident_int, or
go_fast_first); it may be repeated or comma-separated. A run with --only writes
bench/results/latest-only.md instead, so that latest.md always holds a complete run.

Every measurement runs in subprocesses (this file with --worker, or a small `python -c` script),
never in this process: kiln and Numba never share a process, and cold-start numbers (import,
first call) come from a fresh process each. Steady-state measurements are repeated in rounds
(kiln, Numba, C, NumPy, Python, kiln, Numba, ...) so that a slow spell of the (shared, noisy)
machine hits every column alike; the table shows medians. See README.md for what each row
means.
"""

import argparse
import ctypes
import datetime
import importlib
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
MARK = "BENCH-RESULT "

# The scalar kernels: name -> arguments (the same for kiln, Numba, C and Python).
KERNELS = {
    "fib": (27,),
    "sum_squares": (10**7,),
    "float_loop": (10**6,),
    "mandelbrot": (200, 200, 256),
    "collatz_max_steps": (300000,),
    "count_primes": (200000,),
}
KERNEL_LABELS = {
    "fib": "fib(27), recursive",
    "sum_squares": "sum of i*i, i < 10**7 (int64, wraps)",
    "float_loop": "sqrt(x)*sin(x) sum, 10**6 steps",
    "mandelbrot": "mandelbrot 200x200, max 256 iter",
    "collatz_max_steps": "collatz max steps, start < 300000",
    "count_primes": "primes < 200000, trial division",
}
FLOAT_RESULT = {"float_loop"}
# What a reader must know to read a row right (checked on this machine; see README.md).
KERNEL_NOTES = {
    "fib": "gcc inlines the recursion into itself",
    "sum_squares": "LLVM (kiln, Numba) replaces the loop by a closed formula: this row is "
                   "call overhead; gcc vectorises the loop",
}

# Call overhead: name -> (timeit statement, its globals besides f).
CALLS = {
    "ident_int": ("f(x)", {"x": 1}),
    "ident_float": ("f(x)", {"x": 1.5}),
    "add3": ("f(a, b, c)", {"a": 1, "b": 2, "c": 3}),
    "tuple_first": ("f(t)", {"t": (1, 2.5)}),
    "array_first": ("f(a)", {"a": np.zeros(10)}),
    "arrays3_first": ("f(a, b, c)", {"a": np.zeros(10), "b": np.zeros(10), "c": np.zeros(10)}),
}
CALL_LABELS = {
    "ident_int": "f(x): return x, x int",
    "ident_float": "f(x): return x, x float",
    "add3": "f(a, b, c): return a + b + c, ints",
    "tuple_first": "f(t): return t[0], t = (1, 2.5)",
    "array_first": "f(a): return a[0], a 1-D float64 array (10)",
    "arrays3_first": "f(a, b, c): return a[0] + b[0] + c[0], three such arrays",
}



# The array kernels. Each item calls kernels.<func> (jitted, or plain Python) and
# kernels.np_<func> (the NumPy column) on the inputs make(rng) returns, and the C entry point
# through its c_* marshaller below. ``mutates``: indices of the arguments the kernel writes
# (they get fresh copies before every call, outside the timed region, and are its result);
# ``number``: calls per timed sample, for kernels too short to time one call at a time;
# ``python``: False where plain Python would only repeat the NumPy column.
class ArrayKernel:
    def __init__(self, func, label, make, c, mutates=(), number=1, python=True, note=""):
        self.func, self.label, self.make, self.c = func, label, make, c
        self.mutates, self.number, self.python, self.note = mutates, number, python, note


def _nbody_inputs(rng, n=1000):
    pos = rng.random((n, 3))
    vel = rng.standard_normal((n, 3)) * 0.01
    mass = (rng.random(n) + 0.5) / n
    return pos, vel, mass, 0.01


ARRAY_KERNELS = {
    "go_fast_small": ArrayKernel(
        "go_fast", "go_fast (seed), 10x10 int64 -> new float64 array",
        lambda rng: (np.arange(100).reshape(10, 10),), "c_go_fast", number=1000,
        note="1000 calls per timed sample; mostly call, allocation and boxing of the result"),
    "go_fast_big": ArrayKernel(
        "go_fast", "go_fast (seed), 2000x2000 float64 -> new array",
        lambda rng: (rng.random((2000, 2000)),), "c_go_fast"),
    "array_sum": ArrayKernel(
        "array_sum", "sum loop `s += a[i]`, 10**7 float64",
        lambda rng: (rng.random(10**7),), "c_array_sum"),
    "array_dot": ArrayKernel(
        "array_dot", "dot loop `s += a[i]*b[i]`, 2 x 10**7 float64",
        lambda rng: (rng.random(10**7), rng.random(10**7)), "c_array_dot"),
    "matmul": ArrayKernel(
        "matmul", "matmul triple loop (i, k, j), 256x256 float64",
        lambda rng: (rng.random((256, 256)), rng.random((256, 256))), "c_matmul"),
    "mandelbrot_grid": ArrayKernel(
        "mandelbrot_grid", "mandelbrot into a 300x400 int64 array, max 100 iter",
        lambda rng: (np.zeros((300, 400), np.int64), 100), "c_mandelbrot_grid", mutates=(0,)),
    "nbody_step": ArrayKernel(
        "nbody_step", "n-body step, 1000 bodies, (n, 3) arrays in place",
        _nbody_inputs, "c_nbody_step", mutates=(0, 1)),
    "jacobi": ArrayKernel(
        "jacobi", "Jacobi stencil 1000x1000, 10 sweeps",
        lambda rng: (rng.random((1000, 1000)), 10), "c_jacobi"),
    "pairwise_distances": ArrayKernel(
        "pairwise_distances", "pairwise distances, 1000 x 3 points -> 1000x1000",
        lambda rng: (rng.random((1000, 3)),), "c_pairwise_distances"),
    "prefix_sum": ArrayKernel(
        "prefix_sum", "prefix sum 10**7 float64 -> new array",
        lambda rng: (rng.random(10**7),), "c_prefix_sum"),
    "array_expr": ArrayKernel(
        "array_expr", "`a * b + c * 2.0 - np.sqrt(a)`, 3 x 10**6 float64",
        lambda rng: tuple(rng.random(10**6) for _ in range(3)), "c_array_expr",
        python=False, note="plain Python = the NumPy column (the kernel is NumPy code)"),
}


# C marshallers: call(entry, inputs, outputs) runs the C entry point (inputs..., number, reps,
# times, outputs...) and returns its double result; each returns the kernel's result. The
# output buffers are allocated here and their pages touched (filled) before the C timing loop.
def c_go_fast(call, a):
    out = np.empty(a.shape)
    call("time_go_fast_i64" if a.dtype == np.int64 else "time_go_fast_f64",
         [a, a.shape[0], a.shape[1]], [out])
    return out


def c_array_sum(call, a):
    return call("time_array_sum", [a, a.shape[0]], [])


def c_array_dot(call, a, b):
    return call("time_array_dot", [a, b, a.shape[0]], [])


def c_matmul(call, a, b):
    out = np.empty((a.shape[0], b.shape[1]))
    call("time_matmul", [a, b, a.shape[0], a.shape[1], b.shape[1]], [out])
    return out


def c_mandelbrot_grid(call, counts, max_iter):
    call("time_mandelbrot_grid", [counts.shape[0], counts.shape[1], max_iter], [counts])
    return (counts,)


def c_nbody_step(call, pos, vel, mass, dt):
    p, v = pos.copy(), vel.copy()  # the C entry point copies pos, vel into p, v before each run
    call("time_nbody_step", [pos, vel, mass, pos.shape[0], dt], [p, v])
    return p, v


def c_jacobi(call, a, sweeps):
    out, work = np.empty(a.shape), np.empty(a.shape)
    call("time_jacobi", [a, a.shape[0], a.shape[1], sweeps], [out, work])
    return out


def c_pairwise_distances(call, x):
    out = np.empty((x.shape[0], x.shape[0]))
    call("time_pairwise_distances", [x, x.shape[0], x.shape[1]], [out])
    return out


def c_prefix_sum(call, a):
    out = np.empty(a.shape)
    call("time_prefix_sum", [a, a.shape[0]], [out])
    return out


def c_array_expr(call, a, b, c):
    out = np.empty(a.shape)
    call("time_array_expr", [a, b, c, a.shape[0]], [out])
    return out


SECTIONS = ("import", "first_call", "call_overhead", "kernels", "arrays")
FIRST_CALL_ITEMS = ("first_call", "go_fast_first")


class Settings:
    def __init__(self, quick):
        self.quick = quick
        self.import_procs = 7 if quick else 15      # fresh processes per import variant
        self.first_call_procs = 5 if quick else 10  # fresh processes per JIT
        self.call_rounds = 2 if quick else 5        # worker processes per implementation
        self.call_repeat = 2 if quick else 3        # timeit repeats per worker
        self.call_number = 200_000 if quick else 1_000_000
        # Kernels: a kernel's time can differ from one process to the next (by up to ~1.8x
        # here, more than between runs in one process), so many processes, few runs each.
        self.kernel_rounds = 3 if quick else 7      # worker processes per implementation
        self.kernel_reps = 3                        # timed runs per kernel per worker
        self.python_rounds = 2 if quick else 3      # plain Python: one run in as many rounds
        # Array kernels: the same scheme (the NumPy column like the JITs); plain Python takes
        # ~25 s for one run of them all, so it runs in fewer processes.
        self.array_rounds = 3 if quick else 7
        self.array_reps = 5
        self.array_python_rounds = 1 if quick else 2


# =============================================================================================
# worker side (runs in a subprocess: run.py --worker JSON)
# =============================================================================================


def _jit_all(module, njit):
    """Replace every function of ``module`` by ``njit(function)``: calls between kernels then
    go to the jitted versions, as with ``@njit`` in the source. The NumPy versions (``np_*``)
    stay as they are."""
    for name, obj in list(vars(module).items()):
        if (isinstance(obj, types.FunctionType) and obj.__module__ == module.__name__
                and not name.startswith("np_")):
            setattr(module, name, njit(obj))


def _load_impl(impl, out):
    """Import kernels.py; for kiln/numba jit all of it. Returns the kernels module."""
    sys.path.insert(0, HERE)
    import kernels

    if impl in ("kiln", "numba"):
        mod = importlib.import_module(impl)
        out["module_file"] = mod.__file__
        out["version"] = getattr(mod, "__version__", "?")
        _jit_all(kernels, mod.njit)
    return kernels


def _error_text(exc):
    text = f"{type(exc).__name__}: {exc}".strip()
    return " ".join(text.split())  # one line for the table


def worker_kernels(spec):
    impl, reps = spec["impl"], spec["reps"]
    out = {"kernels": {}}
    kernels = _load_impl(impl, out)
    lib = ctypes.CDLL(spec["lib"]) if impl == "c" else None
    for name in spec["names"]:
        args = KERNELS[name]
        rec = out["kernels"][name] = {}
        try:
            if impl == "c":
                fn = getattr(lib, "time_" + name)
                fn.argtypes = [ctypes.c_int64] * len(args) + [ctypes.c_int,
                                                             ctypes.POINTER(ctypes.c_double)]
                fn.restype = ctypes.c_double if name in FLOAT_RESULT else ctypes.c_int64
                times = (ctypes.c_double * reps)()
                rec["result"] = fn(*args, reps, times)
                rec["times"] = list(times)
                continue
            f = getattr(kernels, name)
            if impl != "python":  # first call: compile + one run
                t0 = time.perf_counter()
                rec["result"] = f(*args)
                rec["first"] = time.perf_counter() - t0
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                r = f(*args)
                times.append(time.perf_counter() - t0)
                if rec.setdefault("result", r) != r:
                    rec["unstable"] = f"{rec['result']!r} then {r!r}"
            rec["times"] = times
        except Exception as exc:
            rec["error"] = _error_text(exc)
    return out


def _fresh(args, mutates):
    return tuple(a.copy() if i in mutates else a for i, a in enumerate(args))


def _as_arrays(result):
    """A kernel's result as a list of arrays (a scalar -> a 0-d array), to save and compare."""
    if isinstance(result, tuple):
        return [np.asarray(r) for r in result]
    return [np.asarray(result)]


def _c_caller(lib, reps, number):
    """The ``call`` the c_* marshallers get; returns (call, times list)."""
    times = (ctypes.c_double * reps)()

    def conv(x):
        if isinstance(x, np.ndarray):
            assert x.flags.c_contiguous
            return ctypes.c_void_p(x.ctypes.data)
        if isinstance(x, (float, np.floating)):
            return ctypes.c_double(x)
        return ctypes.c_int64(int(x))

    def call(entry, inputs, outputs):
        fn = getattr(lib, entry)
        fn.restype = ctypes.c_double
        for x in outputs:  # touch every page before timing (np.empty leaves them unmapped)
            x.view(np.uint8).reshape(-1)[::4096] = x.view(np.uint8).reshape(-1)[::4096]
        return fn(*[conv(x) for x in inputs], ctypes.c_int64(number), ctypes.c_int(reps),
                  times, *[conv(x) for x in outputs])

    return call, times


def worker_arrays(spec):
    """Array kernels: inputs from a fixed seed per kernel (the same in every process); the
    first result is saved to spec["save"] (a directory) for the driver's comparison."""
    impl, reps = spec["impl"], spec["reps"]
    out = {"arrays": {}}
    kernels = _load_impl(impl if impl != "numpy" else "python", out)
    lib = ctypes.CDLL(spec["lib"]) if impl == "c" else None
    for name in spec["names"]:
        k = ARRAY_KERNELS[name]
        rec = out["arrays"][name] = {}
        args = k.make(np.random.default_rng(list(ARRAY_KERNELS).index(name)))
        try:
            if impl == "c":
                call, ctimes = _c_caller(lib, reps, k.number)
                first = _as_arrays(globals()[k.c](call, *args))
                rec["times"] = list(ctimes)
            else:
                f = getattr(kernels, ("np_" if impl == "numpy" else "") + k.func)

                def run(fresh, number):
                    t0 = time.perf_counter()
                    for _ in range(number):
                        r = f(*fresh)
                    t = (time.perf_counter() - t0) / number
                    return t, (tuple(fresh[i] for i in k.mutates) if k.mutates else r)

                first = None
                if impl != "python":  # first call: compile + run (NumPy: a warm-up)
                    rec["first"], r = run(_fresh(args, k.mutates), 1)
                    first = _as_arrays(r)
                    del r
                times = []
                for _ in range(reps):
                    t, r = run(_fresh(args, k.mutates), k.number)
                    times.append(t)
                    r = _as_arrays(r)
                    if first is None:
                        first = r
                    elif not all(a.dtype == b.dtype and np.array_equal(a, b)
                                 for a, b in zip(first, r)):
                        rec["unstable"] = "results differ between calls"
                    del r
                rec["times"] = times
            if first[0].ndim == 0 and len(first) == 1:
                rec["result"] = first[0].item()
            rec["shape"] = " + ".join("x".join(map(str, a.shape)) + f" {a.dtype}" for a in first)
            if spec.get("save"):
                path = os.path.join(spec["save"], f"{impl}-{name}.npz")
                np.savez(path, *first)
                rec["saved"] = path
            del first
        except Exception as exc:
            rec["error"] = _error_text(exc)
    return out


def worker_calls(spec):
    impl = spec["impl"]
    out = {"calls": {}}
    kernels = _load_impl(impl, out)
    for name in spec["names"]:
        stmt, env = CALLS[name]
        rec = out["calls"][name] = {}
        g = dict(env, f=getattr(kernels, name))
        try:
            eval(stmt, g)  # warm-up (compiles)
            per_call = [t / spec["number"] for t in
                        timeit.Timer(stmt, globals=g).repeat(spec["repeat"], spec["number"])]
            rec["times"] = per_call
        except Exception as exc:
            rec["error"] = _error_text(exc)
    return out


def worker_main(arg):
    spec = json.loads(arg)
    out = {"kernels": worker_kernels, "calls": worker_calls,
           "arrays": worker_arrays}[spec["job"]](spec)
    print(MARK + json.dumps(out), flush=True)


# =============================================================================================
# driver side
# =============================================================================================


def run_py(args, what, timeout=600, env=None):
    """Run the venv's Python with ``args`` in a scratch directory (so that the source tree's
    kiln/ never shadows the installed package). Returns (parsed result, wall seconds, stderr)."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable] + args, cwd=SCRATCH, capture_output=True, text=True,
                          timeout=timeout, env=env)
    wall = time.perf_counter() - t0
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK):]), wall, proc.stderr
    tail = " ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
    rc = proc.returncode
    status = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
    raise WorkerError(f"{what}: {status}: {tail[-400:] or '(no output)'}")


class WorkerError(Exception):
    pass


# Workers of the array kernels keep NumPy's BLAS (np.dot, @) to one thread, as every other
# column runs on one.
ONE_THREAD = {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def worker(spec):
    env = dict(os.environ, **ONE_THREAD) if spec["job"] == "arrays" else None
    return run_py([os.path.abspath(__file__), "--worker", json.dumps(spec)], spec["job"],
                  env=env)[0]


def worker_isolating(spec, key):
    """``worker(spec)``; if the process dies (a crash in compiled code, say), run each name of
    ``spec["names"]`` in a process of its own, so that only the culprit is marked failed."""
    try:
        return worker(spec)
    except WorkerError as exc:
        if len(spec["names"]) == 1:
            return {key: {spec["names"][0]: {"error": f"process died: {exc}", "crashed": True}}}
        out = {key: {}}
        for n in spec["names"]:
            out[key].update(worker_isolating(dict(spec, names=[n]), key)[key])
        return out



def run_round(spec, label, data, errors):
    """One round of a section's kernels in a worker process: the times go into data[impl][name]
    and failures into errors; yields (name, record, data entry) of each kernel that ran."""
    impl, section = spec["impl"], spec["job"]
    t0 = time.perf_counter()
    out = worker_isolating(spec, section)
    progress(f"  {label}: {time.perf_counter() - t0:.1f} s")
    for n, rec in out[section].items():
        if "error" in rec:
            errors.setdefault((impl, n), fail_text(rec))
            continue
        d = data[impl][n]
        d["times"].extend(rec["times"])
        d.setdefault("per_process", []).append(median(rec["times"]))
        if "first" in rec:
            d["first"].append(rec["first"])
        yield n, rec, d

def fail_text(rec):
    return f"{'CRASHED' if rec.get('crashed') else 'unsupported'} (error: {rec['error']})"


def progress(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def median(xs):
    return statistics.median(xs) if xs else None


# ---- a. import time -------------------------------------------------------------------------

IMPORT_VARIANTS = {
    "numpy": "",
    "kiln": "import kiln",
    "kiln._core": "import kiln._core",
    "kiln+njit": "import kiln\nkiln.njit(_f)",
    "numba": "import numba",
    "numba+njit": "import numba\nnumba.njit(_f)",
}
IMPORT_SCRIPT = """\
import time, json
def _f(x):
    return x
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
{stmt}
t2 = time.perf_counter()
print({mark!r} + json.dumps([t1 - t0, t2 - t1]))
"""


def bench_import(cfg, rows, raw):
    progress(f"import time: {len(IMPORT_VARIANTS)} variants x {cfg.import_procs} processes")
    data = {k: {"numpy": [], "extra": [], "wall": []} for k in IMPORT_VARIANTS}
    for i in range(cfg.import_procs + 1):  # round 0 warms the disk cache and .pyc files
        for name, stmt in IMPORT_VARIANTS.items():
            script = IMPORT_SCRIPT.format(stmt=stmt, mark=MARK)
            (t_numpy, t_extra), wall, _ = run_py(["-c", script], f"import {name}")
            if i:
                data[name]["numpy"].append(t_numpy)
                data[name]["extra"].append(t_extra)
                data[name]["wall"].append(wall)
    raw["import"] = data
    m = {k: {kk: median(v) for kk, v in d.items()} for k, d in data.items()}
    rows.append(Row("import", "`import numpy` (baseline, in-process)",
                    python=m["numpy"]["numpy"]))
    rows.append(Row("import", "`import kiln` / `import numba`, extra over numpy",
                    kiln=m["kiln"]["extra"], numba=m["numba"]["extra"]))
    rows.append(Row("import", "`import kiln._core`, extra over numpy",
                    kiln=m["kiln._core"]["extra"],
                    note="kiln imports its C extension lazily"))
    rows.append(Row("import", "import + first `njit(f)` decoration, extra over numpy",
                    kiln=m["kiln+njit"]["extra"], numba=m["numba+njit"]["extra"]))
    rows.append(Row("import", "process wall time, `python -c 'import numpy; import X'`",
                    kiln=m["kiln"]["wall"], numba=m["numba"]["wall"], python=m["numpy"]["wall"],
                    note="Python column: numpy only"))


# ---- b. first call latency ------------------------------------------------------------------

FIRST_CALL_SCRIPT = """\
import sys, time, json
sys.path.insert(0, {here!r})
import numpy
import {mod}
from kernels import first_call
t0 = time.perf_counter()
g = {mod}.njit(first_call)
t1 = time.perf_counter()
r1 = g(1000)
t2 = time.perf_counter()
r2 = g(1000)
t3 = time.perf_counter()
h = {mod}.njit(type(first_call)(first_call.__code__, first_call.__globals__))
t4 = time.perf_counter()
r3 = h(1000)
t5 = time.perf_counter()
assert r1 == r2 == r3 == first_call(1000), (r1, r2, r3)
print({mark!r} + json.dumps([t1 - t0, t2 - t1, t3 - t2, t5 - t4]))
"""


# KILN_DUMP=time makes kiln print one line per compiler pass: "kiln: NAME: PASS  1.23 ms", the
# code generation as "kiln: kn_NAME_1: codegen and link  1.23 ms", and its one-time set-up
# as "kiln: builtins  0.12 ms".
PASS_TIME = re.compile(r"^kiln: (?:(\S+): )?(.+?)\s+([0-9.]+) ms$")


def pass_times(stderr, func):
    """{pass: seconds} from kiln's KILN_DUMP=time lines about the first compilation of
    ``func`` (empty if there are none)."""
    out = {}
    for line in stderr.splitlines():
        m = PASS_TIME.match(line.strip())
        if not m:
            continue
        name, what = m.group(1), m.group(2).strip()
        if name is None or name == func or re.fullmatch(rf"kn_{re.escape(func)}_\d+", name):
            if what in out:  # the next compilation starts
                break
            out[what] = float(m.group(3)) / 1e3
    return out


GO_FAST_SCRIPT = """\
import sys, time, json
sys.path.insert(0, {here!r})
import numpy
import {mod}
from kernels import go_fast
x = numpy.arange(100).reshape(10, 10)
t0 = time.perf_counter()
g = {mod}.njit(go_fast)
t1 = time.perf_counter()
r1 = g(x)
t2 = time.perf_counter()
r2 = g(x)
t3 = time.perf_counter()
assert numpy.array_equal(r1, r2) and numpy.allclose(r1, go_fast(x), rtol=1e-12, atol=0)
print({mark!r} + json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""


def _first_call_procs(cfg, script_template, func, keys):
    """Fresh processes, kiln and Numba alternately, each running ``script_template``, which
    prints one time per key. Returns ({mod: {key: [seconds]}}, kiln's pass times
    {pass: [seconds]}, {mod: error text})."""
    data = {m: {k: [] for k in keys} for m in ("kiln", "numba")}
    passes = {}  # kiln's compile time per pass (KILN_DUMP=time)
    errors = {}
    for _ in range(cfg.first_call_procs):
        for mod in ("kiln", "numba"):
            if mod in errors:
                continue
            script = script_template.format(here=HERE, mod=mod, mark=MARK)
            env = dict(os.environ, KILN_DUMP="time") if mod == "kiln" else None
            try:
                times, _, err = run_py(["-c", script], f"first call of {func} ({mod})", env=env)
            except WorkerError as exc:
                errors[mod] = f"error: {exc}"
                continue
            for k, t in zip(keys, times):
                data[mod][k].append(t)
            if mod == "kiln":
                for name, t in pass_times(err, func).items():
                    passes.setdefault(name, []).append(t)
    return data, passes, errors


def _pass_split(passes, first):
    if not passes or not first:
        return ""
    total = sum(median(ts) for ts in passes.values())
    return ("kiln's passes (KILN_DUMP=time, medians, ms): "
            + ", ".join(f"{p} {median(ts) * 1e3:.2f}" for p, ts in passes.items())
            + f"; sum {total * 1e3:.1f}, outside the passes {(median(first) - total) * 1e3:.1f}")


def bench_first_call(cfg, rows, raw, items):
    progress(f"first call: {', '.join(items)}: 2 JITs x {cfg.first_call_procs} fresh processes")
    raw["first_call"] = {}
    if "first_call" in items:
        data, passes, errors = _first_call_procs(
            cfg, FIRST_CALL_SCRIPT, "first_call", ("decorate", "first", "second", "another"))
        raw["first_call"]["first_call"] = dict(data, kiln_passes=passes)

        def cell(mod, key):
            return errors.get(mod) or median(data[mod][key])

        rows.append(Row("first_call", "first `njit(f)` decoration, after `import kiln` / `numba`",
                        kiln=cell("kiln", "decorate"), numba=cell("numba", "decorate"),
                        note="kiln loads kiln._core here"))
        rows.append(Row("first_call", "first call `f(1000)`: compile + run",
                        kiln=cell("kiln", "first"), numba=cell("numba", "first"),
                        note=_pass_split(passes, data["kiln"]["first"])))
        rows.append(Row("first_call", "second call `f(1000)`",
                        kiln=cell("kiln", "second"), numba=cell("numba", "second")))
        rows.append(Row("first_call",
                        "first call of a second function (same code), same process",
                        kiln=cell("kiln", "another"), numba=cell("numba", "another"),
                        note="compile + run without the JIT's one-time start-up"))
    if "go_fast_first" in items:
        data, passes, errors = _first_call_procs(
            cfg, GO_FAST_SCRIPT, "go_fast", ("decorate", "first", "second"))
        raw["first_call"]["go_fast_first"] = dict(data, kiln_passes=passes)

        def cell(mod, key):
            return errors.get(mod) or median(data[mod][key])

        note = (f"fresh process: decoration before it took kiln "
                f"{fmt_time(cell('kiln', 'decorate'))}, Numba "
                f"{fmt_time(cell('numba', 'decorate'))}; second call kiln "
                f"{fmt_time(cell('kiln', 'second'))}, Numba {fmt_time(cell('numba', 'second'))}")
        split = _pass_split(passes, data["kiln"]["first"])
        rows.append(Row("first_call", "first call of the seed `go_fast(x)`, x 10x10 int64: "
                        "compile + run", kiln=cell("kiln", "first"),
                        numba=cell("numba", "first"),
                        note=note + ("; " + split if split else "")))


# ---- c. per-call overhead -------------------------------------------------------------------


def bench_calls(cfg, rows, raw, names):
    impls = ("kiln", "numba", "python")
    progress(f"call overhead: {len(names)} functions, {cfg.call_rounds} rounds x "
             f"{cfg.call_repeat} x {cfg.call_number} calls")
    data = {i: {n: [] for n in names} for i in impls}
    errors = {}
    for _ in range(cfg.call_rounds):
        for impl in impls:
            todo = [n for n in names if (impl, n) not in errors]
            if not todo:
                continue
            spec = {"job": "calls", "impl": impl, "names": todo, "repeat": cfg.call_repeat,
                    "number": cfg.call_number}
            out = worker_isolating(spec, "calls")
            for n, rec in out["calls"].items():
                if "error" in rec:
                    errors.setdefault((impl, n), fail_text(rec))
                else:
                    data[impl][n].extend(rec["times"])
    raw["call_overhead"] = data
    for n in names:
        cells = {i: errors.get((i, n)) or median(data[i][n]) for i in impls}
        rows.append(Row("call_overhead", f"`{CALL_LABELS[n]}`", unit="ns", **cells))


# ---- d. scalar kernels ----------------------------------------------------------------------


def build_c():
    """Compile kernels.c into the scratch directory; returns (path or None, compiler line)."""
    cc = shutil.which("gcc")
    if cc is None:
        return None, "gcc not found"
    so = os.path.join(SCRATCH, "kernels_c.so")
    # -ffp-contract=off: no FMA (the JITs do not fuse without fastmath, and Python's rounding
    # must match); -fno-math-errno: sqrt() need not set errno (Python raises instead, the JITs
    # never set it), which lets gcc vectorise loops that call sqrt, as LLVM does.
    cmd = [cc, "-O3", "-march=native", "-ffp-contract=off", "-fno-math-errno", "-shared",
           "-fPIC", os.path.join(HERE, "kernels.c"), "-o", so, "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None, f"gcc failed: {proc.stderr.strip()[-300:]}"
    return so, " ".join(["gcc"] + cmd[1:5])


def _same(a, b, is_float):
    if is_float:
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    return a == b


def _wrap64(v):
    return (v + 2**63) % 2**64 - 2**63


def bench_kernels(cfg, rows, raw, names, c_lib, failures, compile_rows):
    impls = ["kiln", "numba"] + (["c"] if c_lib else []) + ["python"]
    progress(f"kernels: {len(names)} kernels, {cfg.kernel_rounds} rounds x "
             f"{cfg.kernel_reps} runs ({', '.join(impls)})")
    data = {i: {n: {"times": [], "first": [], "results": set()} for n in names} for i in impls}
    errors = {}
    for rnd in range(cfg.kernel_rounds):
        for impl in impls:
            if impl == "python" and rnd >= cfg.python_rounds:
                continue
            reps = 1 if impl == "python" else cfg.kernel_reps
            todo = [n for n in names if (impl, n) not in errors]
            if not todo:
                continue
            spec = {"job": "kernels", "impl": impl, "names": todo, "reps": reps, "lib": c_lib}
            label = f"round {rnd + 1}/{cfg.kernel_rounds} {impl}"
            for n, rec, d in run_round(spec, label, data, errors):
                d["results"].add(repr(rec["result"]))
                d.setdefault("value", rec["result"])
                if "unstable" in rec:
                    failures.append(f"{n}: {impl} returned different results: {rec['unstable']}")
    raw["kernels"] = {i: {n: dict(d, results=sorted(d["results"])) for n, d in v.items()}
                      for i, v in data.items()}

    for n in names:
        cells, results = {}, {}
        for impl in impls:
            err = errors.get((impl, n))
            d = data[impl][n]
            cells[impl] = err or median(d["times"])
            if err is None:
                if len(d["results"]) > 1:
                    failures.append(f"{n}: {impl} returned different results across runs: "
                                    f"{sorted(d['results'])}")
                results[impl] = d["value"]
        # Agreement with plain Python (its big integer wrapped to int64 for sum_squares), or
        # Numba's result where Python did not run: exactly, floats within 1e-9 relative.
        if "python" in results and n == "sum_squares":
            results["python"] = _wrap64(results["python"])
        check = "ok"
        ref_impl = next((i for i in ("python", "numba", "c", "kiln") if i in results), None)
        for impl, v in results.items():
            ref = results[ref_impl]
            if not _same(v, ref, n in FLOAT_RESULT):
                check = "MISMATCH"
                failures.append(f"{n}: {impl} returned {v!r} but {ref_impl} returned {ref!r}")
            elif v != ref and check == "ok":
                check = "ok (last digits differ)"
        shown = results.get(ref_impl, "")
        note = f"result {shown!r}: {check}" if results else "no results"
        if n in KERNEL_NOTES:
            note += "; " + KERNEL_NOTES[n]
        rows.append(Row("kernels", KERNEL_LABELS[n], kiln=cells.get("kiln"),
                        numba=cells.get("numba"), c=cells.get("c", "gcc unavailable"),
                        python=cells.get("python"), note=note))
        detail = Row("compile", KERNEL_LABELS[n],
                     kiln=errors.get(("kiln", n))
                     or median(data["kiln"][n]["first"]),
                     numba=errors.get(("numba", n))
                     or median(data["numba"][n]["first"]))
        detail.spread = {i: data[i][n].get("per_process", []) for i in ("kiln", "numba", "c")
                         if i in data}
        compile_rows.append(detail)


# ---- e. array kernels -----------------------------------------------------------------------

IMPL_NAMES = {"kiln": "kiln", "numba": "Numba", "c": "C", "numpy": "NumPy", "python": "Python"}


def _max_rel_diff(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    scale = np.where(b != 0, np.abs(b), 1.0)
    return float(np.max(np.abs(a - b) / scale)) if a.size else 0.0


def compare_arrays(got, ref):
    """None if ``got`` is bit-identical to ``ref`` (lists of arrays); else the largest
    relative difference (a float) if they agree within rtol 1e-12 (floats only; integers must
    be equal), else a string saying how they disagree."""
    if len(got) != len(ref):
        return f"{len(got)} results, expected {len(ref)}"
    worst = None
    for a, b in zip(got, ref):
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"{a.shape} {a.dtype}, expected {b.shape} {b.dtype}"
        if np.array_equal(a, b):
            continue
        if a.dtype.kind != "f" or not np.allclose(a, b, rtol=1e-12, atol=0.0):
            bad = int(np.count_nonzero(a != b))
            return f"{bad} of {a.size} elements differ, largest relative difference " \
                   f"{_max_rel_diff(a, b):.3g}"
        worst = max(worst or 0.0, _max_rel_diff(a, b))
    return worst


def bench_arrays(cfg, rows, raw, names, c_lib, failures, compile_rows):
    impls = ["kiln", "numba"] + (["c"] if c_lib else []) + ["numpy", "python"]
    progress(f"array kernels: {len(names)} kernels, {cfg.array_rounds} rounds x "
             f"{cfg.array_reps} runs ({', '.join(impls)}; plain Python "
             f"{cfg.array_python_rounds} round(s) x 1 run)")
    save_dir = os.path.join(SCRATCH, "array-results")
    os.makedirs(save_dir, exist_ok=True)
    data = {i: {n: {"times": [], "first": []} for n in names} for i in impls}
    errors, saved, shapes = {}, {}, {}
    for rnd in range(cfg.array_rounds):
        for impl in impls:
            if impl == "python" and rnd >= cfg.array_python_rounds:
                continue
            todo = [n for n in names if (impl, n) not in errors
                    and (impl != "python" or ARRAY_KERNELS[n].python)]
            if not todo:
                continue
            spec = {"job": "arrays", "impl": impl, "names": todo, "lib": c_lib,
                    "reps": 1 if impl == "python" else cfg.array_reps,
                    "save": save_dir if rnd == 0 else None}
            label = f"round {rnd + 1}/{cfg.array_rounds} {impl}"
            for n, rec, d in run_round(spec, label, data, errors):
                if "saved" in rec:
                    saved[(impl, n)] = rec["saved"]
                    shapes[(impl, n)] = (rec["shape"], rec.get("result"))
                if "unstable" in rec:
                    failures.append(f"{n}: {impl}: {rec['unstable']}")
    raw["arrays"] = data

    for n in names:
        k = ARRAY_KERNELS[n]
        cells = {i: errors.get((i, n)) or median(data[i][n]["times"]) for i in impls}
        if not k.python:
            cells["python"] = None
        # Agreement: every result against plain Python's (the reference semantics), or the
        # first of Numba, C, kiln, NumPy that ran: integers exactly, floats within rtol 1e-12.
        ref_impl = next((i for i in ("python", "numba", "c", "kiln", "numpy")
                         if (i, n) in saved), None)
        if ref_impl is None:
            note = "no results"
        else:
            def load(impl):
                with np.load(saved[(impl, n)]) as z:
                    return [z[f"arr_{j}"] for j in range(len(z.files))]

            ref = load(ref_impl)
            identical, close, bad = [], [], []
            for impl in impls:
                if impl == ref_impl or (impl, n) not in saved:
                    continue
                verdict = compare_arrays(load(impl), ref)
                if verdict is None:
                    identical.append(IMPL_NAMES[impl])
                elif isinstance(verdict, float):
                    close.append(f"{IMPL_NAMES[impl]} {verdict:.1g}")
                else:
                    bad.append(f"{IMPL_NAMES[impl]}: {verdict}")
                    failures.append(f"{n}: {impl} disagrees with {ref_impl}: {verdict}")
            del ref
            shape, value = shapes[(ref_impl, n)]
            what = f"result {value!r}" if value is not None else f"result {shape}"
            note = f"{what}: {'MISMATCH' if bad else 'ok'}"
            if identical:
                note += f"; same bits as {IMPL_NAMES[ref_impl]}: {', '.join(identical)}"
            if close:
                note += f"; largest relative difference: {', '.join(close)}"
            if bad:
                note += "; " + "; ".join(bad)
        if k.note:
            note += "; " + k.note
        rows.append(Row("arrays", k.label, kiln=cells["kiln"], numba=cells["numba"],
                        c=cells.get("c", "gcc unavailable"), numpy=cells["numpy"],
                        python=cells["python"], note=note))
        detail = Row("compile", k.label,
                     kiln=errors.get(("kiln", n)) or median(data["kiln"][n]["first"]),
                     numba=errors.get(("numba", n)) or median(data["numba"][n]["first"]))
        detail.spread = {i: data[i][n].get("per_process", [])
                         for i in ("kiln", "numba", "c", "numpy") if i in data}
        compile_rows.append(detail)
    shutil.rmtree(save_dir, ignore_errors=True)


# ---- the table ------------------------------------------------------------------------------


class Row:
    def __init__(self, section, label, kiln=None, numba=None, c=None, python=None, unit=None,
                 note="", numpy=None):
        self.section, self.label, self.unit, self.note = section, label, unit, note
        self.kiln, self.numba, self.c, self.python = kiln, numba, c, python
        self.numpy = numpy


def fmt_time(v, unit=None):
    if v is None:
        return "—"
    if isinstance(v, str):
        return v if len(v) <= 160 else v[:157] + "..."
    if unit == "ns" or v < 1e-6:
        return f"{v * 1e9:.0f} ns"
    if v < 1e-3:
        return f"{v * 1e6:.1f} µs"
    if v < 1.0:
        return f"{v * 1e3:.1f} ms"
    return f"{v:.2f} s"


def fmt_ratio(a, b):
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return f"{a / b:.2f}" if a / b >= 0.1 else f"{a / b:.2g}"
    return "—"


SECTION_TITLES = {
    "import": "a. import time (median of fresh processes)",
    "first_call": "b. first call latency (fresh process each)",
    "call_overhead": "c. per-call overhead (ns per call in a timeit loop; plain Python: the "
                     "same function undecorated)",
    "kernels": "d. scalar kernels, steady state (median time per call after a warm-up call)",
    "arrays": "e. array kernels, steady state (median time per call after a warm-up call; "
              "NumPy: the vectorised version)",
}


def render(rows, compile_rows, header, failures, errors_full):
    out = list(header)
    if failures:
        out += ["", "**FAILED: the implementations disagree:**", ""]
        out += [f"- {f}" for f in failures]
    out += ["", "Ratios are kiln's time divided by the other's: below 1 kiln is faster, above 1 "
            "slower. What each row measures, and how far to trust it: bench/README.md.", ""]
    out.append("| measurement | kiln | Numba | C (gcc -O3) | NumPy | plain Python | kiln/Numba "
               "| kiln/C | kiln/NumPy | notes |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    section = None
    for r in rows:
        if r.section != section:
            section = r.section
            out.append(f"| **{SECTION_TITLES[section]}** | | | | | | | | | |")
        out.append(f"| {r.label} | {fmt_time(r.kiln, r.unit)} | {fmt_time(r.numba, r.unit)} | "
                   f"{fmt_time(r.c, r.unit)} | {fmt_time(r.numpy, r.unit)} | "
                   f"{fmt_time(r.python, r.unit)} | {fmt_ratio(r.kiln, r.numba)} | "
                   f"{fmt_ratio(r.kiln, r.c)} | {fmt_ratio(r.kiln, r.numpy)} | {r.note} |")
    if compile_rows:
        out += ["", "Kernel details. *First call*: compile + one run, median over the worker "
                "processes; each process compiles the kernels of its section (scalar, array) in "
                "the order listed, so only the first row of each section pays the JIT's "
                "one-time start-up (NumPy's first call, a warm-up, is not shown). *Spread*: the "
                "fastest and slowest of the per-process medians of the steady-state time (the "
                "table above shows the median of all runs).", "",
                "| kernel | kiln first call | Numba first call | kiln/Numba | kiln spread "
                "| Numba spread | C spread | NumPy spread |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]

        def spread(xs):
            return f"{fmt_time(min(xs))} – {fmt_time(max(xs))}" if xs else "—"

        for r in compile_rows:
            sp = r.spread
            out.append(f"| {r.label} | {fmt_time(r.kiln)} | {fmt_time(r.numba)} | "
                       f"{fmt_ratio(r.kiln, r.numba)} | {spread(sp.get('kiln'))} | "
                       f"{spread(sp.get('numba'))} | {spread(sp.get('c'))} | "
                       f"{spread(sp.get('numpy'))} |")
    if errors_full:
        out += ["", "Errors in full:", ""] + [f"- {e}" for e in errors_full]
    return "\n".join(out) + "\n"


def machine_header(cfg, argv, c_desc, versions, rev):
    model = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return [
        f"# kiln benchmarks ({'quick' if cfg.quick else 'full'} run)", "",
        f"- date: {now}; command: `{' '.join(['python', 'bench/run.py'] + argv)}`",
        f"- machine: {ncpu} CPUs (nproc), {model}; {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}, NumPy {versions.get('numpy', '?')}, "
        f"kiln {versions.get('kiln', '?')} (git {rev}), Numba {versions.get('numba', '?')}, "
        f"C: {c_desc}",
    ]


def git_rev():
    try:
        return subprocess.run(["git", "-C", REPO, "describe", "--always", "--dirty"],
                              capture_output=True, text=True).stdout.strip() or "?"
    except OSError:
        return "?"


def versions_of():
    script = ("import json, numpy, kiln\n"
              "try:\n    import numba; nv = numba.__version__\n"
              "except Exception as e:\n    nv = 'not installed: %s' % e\n"
              f"print({MARK!r} + json.dumps(dict(numpy=numpy.__version__, "
              "kiln=kiln.__version__, kiln_file=kiln.__file__, numba=nv)))")
    return run_py(["-c", script], "versions")[0]


def parse_only(values):
    chosen = set()
    for v in values or ():
        chosen.update(x.strip() for x in v.split(",") if x.strip())
    known = set(SECTIONS) | set(FIRST_CALL_ITEMS) | set(KERNELS) | set(CALLS) | set(ARRAY_KERNELS)
    bad = chosen - known
    if bad:
        sys.exit(f"--only: unknown name(s) {', '.join(sorted(bad))}; known: "
                 f"{', '.join(SECTIONS)}, {', '.join(FIRST_CALL_ITEMS[1:])}, {', '.join(KERNELS)}, "
                 f"{', '.join(CALLS)}, {', '.join(ARRAY_KERNELS)}")
    return chosen


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="run only this section or item (repeatable, comma-separated)")
    args = ap.parse_args(argv)
    only = parse_only(args.only)
    cfg = Settings(args.quick)

    def wanted(section, items):
        if not only or section in only:
            return list(items)
        return [i for i in items if i in only]

    t_start = time.perf_counter()
    rev = git_rev()  # at the start: the source tree may change while the run goes on
    versions = versions_of()
    if os.path.realpath(versions["kiln_file"]).startswith(os.path.join(REPO, "kiln") + os.sep):
        progress(f"warning: kiln is imported from the source tree ({versions['kiln_file']}); "
                 "run `make build` for an installed kiln")
    if versions["numba"].startswith("not installed"):
        sys.exit(f"numba is {versions['numba']}; `make bench` installs it")

    rows, compile_rows, failures, raw = [], [], [], {"versions": versions}
    c_lib, c_desc = None, "not used"
    if wanted("import", ["import"]):
        bench_import(cfg, rows, raw)
    first = wanted("first_call", FIRST_CALL_ITEMS)
    if first:
        bench_first_call(cfg, rows, raw, first)
    calls = wanted("call_overhead", CALLS)
    if calls:
        bench_calls(cfg, rows, raw, calls)
    kernels = wanted("kernels", KERNELS)
    if kernels:
        c_lib, c_desc = build_c()
        if c_lib is None:
            progress(f"warning: no C column: {c_desc}")
        bench_kernels(cfg, rows, raw, kernels, c_lib, failures, compile_rows)
    arrays = wanted("arrays", ARRAY_KERNELS)
    if arrays:
        if c_lib is None and c_desc == "not used":
            c_lib, c_desc = build_c()
            if c_lib is None:
                progress(f"warning: no C column: {c_desc}")
        bench_arrays(cfg, rows, raw, arrays, c_lib, failures, compile_rows)

    all_errors = sorted({v for r in rows + compile_rows
                         for v in (r.kiln, r.numba, r.c, r.numpy, r.python)
                         if isinstance(v, str) and "(error: " in v})
    for e in all_errors:
        progress(f"warning: {e}")
    errors_full = [e for e in all_errors if len(e) > 160]  # the table shortens these
    header = machine_header(cfg, argv, c_desc, versions, rev)
    header.append(f"- wall time of this run: {time.perf_counter() - t_start:.0f} s")
    text = render(rows, compile_rows, header, failures, errors_full)
    os.makedirs(RESULTS, exist_ok=True)
    stem = "latest-only" if only else "latest"
    with open(os.path.join(RESULTS, stem + ".md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(RESULTS, stem + ".json"), "w") as fh:
        json.dump(raw, fh, indent=1, default=str)
    print(text)
    progress(f"wrote {os.path.join(RESULTS, stem + '.md')}")
    if failures:
        print("FAILED: the implementations disagree (see above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker_main(sys.argv[2])
        sys.exit(0)
    SCRATCH = tempfile.mkdtemp(prefix="kiln-bench-")
    try:
        sys.exit(main(sys.argv[1:]))
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
