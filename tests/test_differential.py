"""Differential tests: random array programs, compiled by kiln and run by NumPy (or, for the
loop kernels, by the interpreter on Python floats), must agree.

Each test generates its functions with a fixed seed, writes them to a module in a temporary
directory (kiln reads a function's source), and compares kiln's result with the interpreter's:
value, dtype and shape, and the arguments' contents afterwards. Where NumPy raises a TypeError
(``1.5 & a``), kiln must reject the program at compile time (TypingError).

Excluded on purpose, because kiln documents them as deviations (docs/internals.md, "Array
rules"): NumPy's float16 results (math ufuncs of int8/uint8/bool give float32 in kiln, as in
Numba), and NumPy scalars being "strong" (a ufunc applied to a literal); the generators avoid
those inputs. These tests found the argmin/argmax-of-bool bug (test_regressions.py). The loop
kernels (seed 31: 60 loops, 7 of them dividing by zero, 9 with the division's zero check moved
to the loop's exit by passes/defer.c) check exceptions and the stores made before them.
"""

import random
import warnings

import numpy as np
import pytest

import kiln
from harness import load_module

BINOPS = ["+", "-", "*", "/", "//", "%", "<", "==", "&", "|", "^"]
UNARY = ["np.sqrt", "np.abs", "np.negative", "np.floor", "np.exp", "np.sign", "np.isnan"]
BINARY = ["np.maximum", "np.minimum", "np.fmax", "np.hypot", "np.arctan2"]
EXPR_DTYPES = ["float64", "float32", "int64", "int32", "uint64", "uint32"]
SHAPES = [((3,), (3,), (3,)), ((2, 3), (3,), (1, 3)), ((2, 1), (1, 3), (2, 3)),
          ((4,), (1,), (4,))]


def random_expr(rng, depth, literal_ok=True):
    r = rng.random()
    if depth == 0 or r < 0.25:
        if not literal_ok or rng.random() < 0.7:
            return rng.choice("abc")
        return rng.choice(["2", "1.5", "3", "0.5", "True"])
    if r < 0.65:
        return f"({random_expr(rng, depth - 1)} {rng.choice(BINOPS)} {random_expr(rng, depth - 1)})"
    if r < 0.85:  # no ufunc of a bare literal: NumPy's result would be a strong NumPy scalar
        return f"{rng.choice(UNARY)}({random_expr(rng, depth - 1, False)})"
    return (f"{rng.choice(BINARY)}({random_expr(rng, depth - 1, False)}, "
            f"{random_expr(rng, depth - 1)})")


def random_array(nrng, shape, dtype):
    if dtype.startswith("float"):
        return (nrng.standard_normal(shape) * 3).astype(dtype)
    if dtype.startswith("u"):
        return nrng.integers(0, 5, shape).astype(dtype)
    return nrng.integers(-4, 5, shape).astype(dtype)


def same(want, got):
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(want) == len(got) and all(
            same(w, g) for w, g in zip(want, got))
    w, g = np.asarray(want), np.asarray(got)
    if w.shape != g.shape or (w.ndim and w.dtype != g.dtype):
        return False
    if w.dtype.kind in "fc":
        return np.allclose(w, g, rtol=1e-6, atol=1e-12, equal_nan=True)
    return np.array_equal(w, g)


_JITTED = {}


def jitted(func):
    """One dispatcher per generated function: a new shape or layout compiles a new overload."""
    if func not in _JITTED:
        _JITTED[func] = kiln.njit(func)
    return _JITTED[func]


class Float16Watch:
    """Stands in for numpy in the interpreted run: notes whether a ufunc made float16."""

    def __init__(self):
        self.seen = False

    def __getattr__(self, name):
        real = getattr(np, name)
        if not isinstance(real, np.ufunc):
            return real

        def call(*args):
            r = real(*args)
            self.seen |= np.asarray(r).dtype == np.float16
            return r
        return call


def run_both(func, make_args):
    """(NumPy's result or exception, kiln's result or exception, args after each run), or
    None when NumPy computed in float16 (a documented deviation)"""
    py_args, kn_args = make_args(), make_args()
    watch = Float16Watch()
    func.__globals__["np"] = watch
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want = func(*py_args)
    except Exception as exc:  # the oracle's own errors are part of the comparison
        want = exc
    finally:
        func.__globals__["np"] = np
    if watch.seen:
        return None
    try:
        got = jitted(func)(*kn_args)
    except Exception as exc:
        got = exc
    return want, got, py_args, kn_args


def check_case(label, want, got, py_args, kn_args):
    """Compare, then drop the results: kiln's arrays must be freed before the leak check."""
    if isinstance(want, Exception) or isinstance(got, Exception):
        assert isinstance(want, Exception) and isinstance(got, Exception), \
            f"{label}: NumPy {want!r:.120}, kiln {got!r:.200}"
        if isinstance(got, kiln.errors.KilnError):
            assert isinstance(want, TypeError), f"{label}: NumPy {want!r}, kiln {got}"
        return
    assert same(want, got), f"{label}: NumPy {want!r}, kiln {got!r}"
    for p, k in zip(py_args, kn_args):
        assert same(p, k), f"{label}: arguments differ afterwards"


@pytest.mark.parametrize("seed", [11, 12])
def test_random_array_expressions_match_numpy(seed, tmp_path):
    rng = random.Random(seed)
    cases, source = [], ["import numpy as np"]
    for k in range(60):
        source.append(f"def f{k}(a, b, c):\n    return {random_expr(rng, 3)}\n")
        cases.append((rng.choice(SHAPES), [rng.choice(EXPR_DTYPES) for _ in range(3)]))
    mod = load_module(tmp_path, f"diff_expr_{seed}", "\n".join(source))
    nrng = np.random.default_rng(seed)
    compared = 0
    for k, (shapes, dtypes) in enumerate(cases):
        values = [random_array(nrng, s, d) for s, d in zip(shapes, dtypes)]
        func = getattr(mod, f"f{k}")
        outcome = run_both(func, lambda: [v.copy() for v in values])
        if outcome:
            check_case(f"f{k} {dtypes} {shapes}", *outcome)
            compared += 1
    assert compared >= 40, compared  # most cases avoid float16


def random_slice(rng, n):
    bounds = [rng.choice([None, rng.randint(-n - 1, n + 1)]) for _ in range(2)]
    step = rng.choice([None, None, 1, 2, -1, -2, 3])
    text = ":".join("" if v is None else str(v) for v in bounds + [step])
    return ":" if text == "::" else text


def random_index(rng, shape):
    items, k, ellipsis = [], 0, False
    while k < len(shape):
        r = rng.random()
        if r < 0.3:
            items.append(str(rng.randint(-shape[k], shape[k] - 1)))
            k += 1
        elif r < 0.8:
            items.append(random_slice(rng, shape[k]))
            k += 1
        elif r < 0.9:
            items.append("None")
        elif not ellipsis:
            items.append("...")
            ellipsis, k = True, len(shape)
        else:
            break
    return ", ".join(items) or ":"


BODIES = {
    "get": "    return a[{i}]",
    "set scalar": "    a[{i}] = 7.5\n    return a",
    "add in place": "    a[{i}] += 1.0\n    return a",
    "set from itself": "    v = a[{i}]\n    a[{i}] = v * 2.0\n    return a",
}


def layout_of(values, layout):
    if layout == "F":
        return np.asfortranarray(values)
    if layout == "strided":
        return np.repeat(values, 2, axis=-1)[..., ::2]
    return values.copy()


@pytest.mark.parametrize("seed", [21, 22])
def test_random_indexing_and_assignment_match_numpy(seed, tmp_path):
    rng = random.Random(seed)
    cases, source = [], ["import numpy as np"]
    for k in range(50):
        shape = tuple(rng.randint(1, 5) for _ in range(rng.randint(1, 3)))
        what = rng.choice(list(BODIES))
        source.append(f"def f{k}(a):\n" + BODIES[what].format(i=random_index(rng, shape)) + "\n")
        cases.append((shape, what, rng.choice(["C", "F", "strided"])))
    mod = load_module(tmp_path, f"diff_index_{seed}", "\n".join(source))
    for k, (shape, what, layout) in enumerate(cases):
        values = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        func = getattr(mod, f"f{k}")
        check_case(f"f{k} {what} {shape} {layout}",
                   *run_both(func, lambda: [layout_of(values, layout)]))


REDUCTIONS = ["sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all"]
REDUCTION_SOURCE = "import numpy as np\n" + "".join(
    [f"def whole(a):\n    return ({', '.join(f'a.{m}(), np.{m}(a)' for m in REDUCTIONS)},"
     " a.cumsum(), np.cumprod(a))\n",
     f"def axes(a):\n    return ({', '.join(f'a.{m}(axis=0), a.{m}(axis=-1)' for m in REDUCTIONS)})\n",
     "def kept(a):\n    return (" + ", ".join(
         f"a.{m}(axis=1, keepdims=True), np.{m}(a, keepdims=True)" for m in REDUCTIONS) + ")\n"])


@pytest.mark.parametrize("dtype", ["float32", "int8", "uint64", "bool", "complex128"])
def test_reductions_of_random_arrays_match_numpy(dtype, tmp_path):
    mod = load_module(tmp_path, f"diff_reduce_{dtype}", REDUCTION_SOURCE)
    nrng = np.random.default_rng(5)
    for shape in [(3, 4), (1, 5), (4, 1)]:
        if dtype == "bool":
            values = nrng.random(shape) < 0.5
        elif dtype.startswith("complex"):
            values = (nrng.standard_normal(shape) + 1j * nrng.standard_normal(shape))
        elif dtype.startswith("float"):
            values = nrng.standard_normal(shape).astype(dtype)
            values.flat[1] = np.nan
        else:
            values = nrng.integers(0, 9, shape).astype(dtype)
        for layout in ("C", "strided"):
            for func in (mod.whole, mod.axes, mod.kept):
                check_case(f"{func.__name__} {dtype} {shape} {layout}",
                           *run_both(func, lambda: [layout_of(values, layout)]))


class Seq(list):
    """A list with a .shape: the interpreter runs the loop kernels on Python floats, so that
    division by zero raises ZeroDivisionError as it does in kiln (NumPy scalars give inf)."""

    @property
    def shape(self):
        return (len(self),)


def loop_expr(rng, depth, names):
    r = rng.random()
    if depth == 0 or r < 0.3:
        return rng.choice(names + ["1.5", "2", "0.5", "3"])
    if r < 0.8:
        op = rng.choice(["+", "-", "*", "/", "*", "-"])
        return f"({loop_expr(rng, depth - 1, names)} {op} {loop_expr(rng, depth - 1, names)})"
    if rng.random() < 0.5:
        return f"{rng.choice(['abs', 'math.floor'])}({loop_expr(rng, depth - 1, names)})"
    return f"min({loop_expr(rng, depth - 1, names)}, {loop_expr(rng, depth - 1, names)})"


def loop_kernel(rng, k):
    """A loop over two float arrays: an accumulation, maybe a branch, a store and a break. The
    loops without a store or break are the ones passes/defer.c rewrites."""
    names = ["a[i]", "b[i]", "s", "i"]
    body = [f"def f{k}(a, b):", "    s = 0.0", "    for i in range(a.shape[0]):",
            f"        t = {loop_expr(rng, 2, names)}"]
    if rng.random() < 0.5:
        cmp = rng.choice(["<", ">", "<=", ">=", "!="])
        body += [f"        if {loop_expr(rng, 1, names + ['t'])} {cmp} {loop_expr(rng, 1, names)}:",
                 "            s += t", "        else:",
                 f"            s -= {loop_expr(rng, 1, names)}"]
    else:
        body.append("        s += t")
    if rng.random() < 0.4:
        body.append(f"        b[i] = {loop_expr(rng, 1, names + ['t'])}")
    if rng.random() < 0.2:
        body += ["        if s > 1e6:", "            break"]
    return "\n".join(body + ["    return s", ""])


@pytest.mark.parametrize("seed", [31])
def test_random_loops_over_arrays_match_the_interpreter(seed, tmp_path):
    rng = random.Random(seed)
    mod = load_module(tmp_path, f"diff_loops_{seed}",
                      "import math\n" + "\n".join(loop_kernel(rng, k) for k in range(60)))
    nrng = np.random.default_rng(seed)
    for k in range(60):
        a = nrng.integers(-3, 4, 6).astype(np.float64)  # zeros: divisions by zero happen
        b = nrng.integers(-2, 3, 6).astype(np.float64)
        func = getattr(mod, f"f{k}")
        pa, pb, ka, kb = Seq(a.tolist()), Seq(b.tolist()), a.copy(), b.copy()
        try:
            want = func(pa, pb)
        except ZeroDivisionError as exc:
            want = exc
        try:
            got = jitted(func)(ka, kb)
        except ZeroDivisionError as exc:
            got = exc
        label = f"f{k} a={a.tolist()} b={b.tolist()}"
        if isinstance(want, Exception):
            assert isinstance(got, Exception) and str(got) == str(want), f"{label}: {got!r}"
        else:
            assert not isinstance(got, Exception), f"{label}: {got!r}, interpreter {want!r}"
            assert got == pytest.approx(want, rel=1e-12, nan_ok=True), label
        assert kb.tolist() == list(pb), f"{label}: stores differ"
