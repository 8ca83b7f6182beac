"""Random programs in kiln's supported subset, as the source text of a runnable module.

``program(seed)`` returns a module's text: a prelude (imports, ``nan``/``inf`` and ``_arr``, which
builds an argument array of a dtype, shape and layout), one function ``f`` and a function
``args()`` that returns a fresh tuple of arguments each time it is called. A module is the unit
that the worker runs, the minimiser shrinks and the results folder keeps; it runs by itself
(``python repro.py`` compares the interpreter with kiln).

The generator tracks a light type for every variable (a scalar kind ``b i u f c`` or an array
with its ndim), so that most programs type-check; a program that kiln rejects at compile time is
a skip, not a failure. What it covers: every dtype and every dtype pair of the operators, every
``astype``, float-to-int conversions at and beyond the limits, shifts by large and negative
counts, complex powers, 0-d, empty and huge arrays, C/F/strided layouts, loops, branches,
tuples, augmented and item assignment, reductions, slices and views, ``math``/``np`` calls, and
conditional expressions feeding raising calls inside loops. Values stay in ranges where CPython
and kiln are specified to agree, or the oracle (oracle.py) marks the run undefined.
"""

import random

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
KIND = {"bool": "b", "float32": "f", "float64": "f", "complex64": "c", "complex128": "c"}
KIND.update({d: "i" for d in DTYPES if d.startswith("int")})
KIND.update({d: "u" for d in DTYPES if d.startswith("uint")})

INT_EDGES = ["0", "1", "-1", "2", "7", "-3", "31", "63", "64", "100", "255", "300",
             "2**31", "-2**31", "2**63-1", "-2**63", "2**32+1"]
FLOAT_EDGES = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "2.5", "-2.5", "3.7", "1e10", "-1e10",
               "3e9", "1e19", "-1e19", "9.3e18", "1e300", "-1e300", "inf", "-inf", "nan",
               "1e-310", "2.0**63", "-2.0**63", "65535.9", "-129.0", "256.0"]
COMPLEX_EDGES = ["1j", "(1+2j)", "(-1.5+0.5j)", "0j", "complex(inf, 0.0)", "complex(nan, 1.0)",
                 "(2-3j)", "complex(0.0, -0.0)", "(1e300+1e300j)"]
SHIFTS = ["0", "1", "3", "7", "8", "15", "16", "31", "32", "63", "64", "65", "100", "-1", "-64"]

BINOPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]
CMPOPS = ["<", "<=", "==", "!=", ">", ">="]
MATH1 = ["sqrt", "exp", "log", "sin", "cos", "tanh", "atan", "floor", "ceil", "trunc", "fabs",
         "isnan", "isinf", "isfinite", "log1p", "expm1", "erf", "gamma"]
MATH2 = ["atan2", "hypot", "copysign", "pow", "fmod"]
UFUNC1 = ["sqrt", "abs", "negative", "floor", "ceil", "exp", "log", "sign", "isnan", "isinf",
          "sin", "cos", "tanh", "absolute", "rint", "trunc", "expm1", "log1p", "arcsinh",
          "isfinite", "log10", "arctan"]
UFUNC2 = ["maximum", "minimum", "fmax", "fmin", "add", "subtract", "multiply", "power",
          "divide", "floor_divide", "remainder", "hypot", "arctan2"]
INTOPS = ("&", "|", "^", "<<", ">>")
REDUCE = ["sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all"]
HUGE = ["2**61", "2**62", "2**63-1", "2**45", "-1"]  # 2**45: more than memory


class Var:
    """A variable of the generated function: ``kind`` is a scalar kind or ``"A"``."""

    def __init__(self, name, kind, ndim=0, dtk="?"):
        self.name, self.kind, self.ndim, self.dtk = name, kind, ndim, dtk


class Gen:
    """One program: ``rng`` drives every choice; ``vars`` are the names in scope."""

    def __init__(self, rng):
        self.rng = rng
        self.vars = []
        self.counter = 0
        self.lines = []

    # ---- helpers --------------------------------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def scalars(self, kinds="biufc"):
        return [v for v in self.vars if v.kind != "A" and v.kind in kinds]

    def arrays(self):
        return [v for v in self.vars if v.kind == "A"]

    # ---- scalar expressions ---------------------------------------------------------------------
    def literal(self, kind):
        if kind == "b":
            return self.pick(["True", "False"])
        if kind in "iu":
            return self.pick(INT_EDGES[:9] if self.chance(0.7) else INT_EDGES)
        if kind == "f":
            return self.pick(FLOAT_EDGES[:8] if self.chance(0.6) else FLOAT_EDGES)
        return self.pick(COMPLEX_EDGES)

    def element(self):
        """A scalar read from an array: a[i, j] with indexes that may be out of range."""
        arrs = self.arrays()
        if not arrs:
            return None
        a = self.pick(arrs)
        if a.ndim == 0:
            return f"{a.name}[()]"
        idx = ", ".join(self.pick(["0", "-1", "1", "0", "-1"]) for _ in range(a.ndim))
        return f"{a.name}[{idx}]"

    def scalar_leaf(self, kinds="biufc"):
        names = self.scalars(kinds)
        r = self.rng.random()
        if names and r < 0.55:
            return self.pick(names).name
        if r < 0.7:
            el = self.element()
            if el:
                return el
        if r < 0.8 and self.arrays():
            a = self.pick(self.arrays())
            return self.pick([f"{a.name}.size", f"{a.name}.ndim", f"len({a.name}.shape)",
                              f"{a.name}.shape[0]" if a.ndim else f"{a.name}.size"])
        weights = {"b": 1, "i": 4, "u": 0, "f": 4, "c": 1}  # complex rarely: it compares badly
        return self.literal(self.rng.choices(kinds, [weights[k] for k in kinds])[0])

    def int_operand(self):
        """An expression that is an integer (or bool) scalar in kiln's typing."""
        names = self.scalars("iub")
        r = self.rng.random()
        if names and r < 0.4:
            return self.pick(names).name
        ints = [a for a in self.arrays() if a.dtk in "iub"]
        if ints and r < 0.6:
            a = self.pick(ints)
            idx = ", ".join(self.pick(["0", "-1"]) for _ in range(a.ndim))
            return f"{a.name}[{idx}]" if a.ndim else f"{a.name}[()]"
        if r < 0.75:
            return f"{self.pick(['int', 'math.trunc', 'math.floor', 'round'])}({self.scalar(1)})"
        return self.literal("i")

    def scalar(self, depth=2):
        if depth <= 0 or self.chance(0.3):
            return self.scalar_leaf()
        r = self.rng.random()
        if r < 0.35:
            op = self.pick(BINOPS)
            if op in ("<<", ">>"):
                return f"({self.int_operand()} {op} {self.pick(SHIFTS)})" if self.chance(.5) \
                    else f"({self.int_operand()} {op} {self.int_operand()})"
            if op in INTOPS:
                return f"({self.int_operand()} {op} {self.int_operand()})"
            return f"({self.scalar(depth - 1)} {op} {self.scalar(depth - 1)})"
        if r < 0.45:
            return f"({self.pick(['-', '~', 'not ', '+'])}{self.scalar(depth - 1)})"
        if r < 0.55:
            return f"({self.scalar(depth - 1)} {self.pick(CMPOPS)} {self.scalar(depth - 1)})"
        if r < 0.63:
            # both branches of one kind: kiln unifies them, CPython does not
            if self.chance(0.5):
                return f"({self.int_operand()} if {self.condition()} else {self.int_operand()})"
            return f"(math.{self.pick(MATH1[:7])}({self.scalar(depth - 1)}) if " \
                f"{self.condition()} else {self.literal('f')})"
        if r < 0.75:
            return f"math.{self.pick(MATH1)}({self.scalar(depth - 1)})" if self.chance(0.75) else \
                f"math.{self.pick(MATH2)}({self.scalar(depth - 1)}, {self.scalar(depth - 1)})"
        if r < 0.87:
            return self.builtin_call(depth)
        if r < 0.93:
            return f"np.{self.pick(UFUNC1)}({self.scalar(depth - 1)})"
        return self.reduction()

    def builtin_call(self, depth):
        x = self.scalar(depth - 1)
        name = self.pick(["int", "float", "bool", "abs", "round", "complex", "min", "max", "pow",
                          "divmod", "int", "np.int8", "np.uint8", "np.int32", "np.uint64",
                          "np.float32", "np.int64", "np.complex64"])
        if name in ("min", "max", "pow"):
            return f"{name}({x}, {self.scalar(depth - 1)})"
        if name == "divmod":
            return f"divmod({x}, {self.scalar(depth - 1)})[{self.pick(['0', '1'])}]"
        if name == "round" and self.chance(0.3):
            return f"round({x}, {self.pick(['0', '1', '2', '-1'])})"
        return f"{name}({x})"

    def condition(self):
        return f"{self.scalar(1)} {self.pick(CMPOPS)} {self.scalar(1)}"

    def reduction(self):
        arrs = self.arrays()
        if not arrs:
            return self.literal("i")
        a = self.pick(arrs).name
        m = self.pick(REDUCE)
        return f"{a}.{m}()" if self.chance(0.6) else f"np.{m}({a})"

    # ---- array expressions ----------------------------------------------------------------------
    def array_leaf(self):
        arrs = self.arrays()
        return self.pick(arrs) if arrs else None

    def array(self, depth=2):
        """An array expression, and its ndim (a guess where NumPy broadcasts)."""
        leaf = self.array_leaf()
        if leaf is None or depth <= 0 or self.chance(0.25):
            return (leaf.name, leaf.ndim) if leaf else self.creation()
        a, nd = self.array(depth - 1)
        r = self.rng.random()
        if r < 0.3:
            op = self.pick(BINOPS + ["<", "==", ">="])
            if op in INTOPS and not self.int_array(a):
                op = self.pick(["+", "-", "*", "<"])
            if op in INTOPS:
                b = self.pick(SHIFTS) if op in ("<<", ">>") else self.int_operand()
                return (f"({a} {op} {b})", nd) if self.chance(0.8) else (f"({b} {op} {a})", nd)
            if self.chance(0.5):
                b, nb = self.array(depth - 1)
                return (f"({a} {op} {b})", max(nd, nb)) if self.chance(0.8) else \
                    (f"({b} {op} {a})", max(nd, nb))
            s = self.scalar(1)
            return (f"({a} {op} {s})", nd) if self.chance(0.6) else (f"({s} {op} {a})", nd)
        if r < 0.45:
            return f"np.{self.pick(UFUNC1)}({a})", nd
        if r < 0.6:
            b = self.array(depth - 1)[0] if self.chance(0.5) else self.scalar(1)
            return f"np.{self.pick(UFUNC2)}({a}, {b})", nd
        if r < 0.7:
            return f"{a}.astype(np.{self.pick(DTYPES)})", nd
        if r < 0.75:
            return f"np.clip({a}, {self.scalar(1)}, {self.scalar(1)})", nd
        if r < 0.8:
            return f"np.where({a} > {self.literal('i')}, {a}, {self.scalar(1)})", nd
        if r < 0.9:
            return self.view(a, nd)
        return self.method(a, nd)

    def int_array(self, text):
        return any(v.name == text and v.dtk in "iub" for v in self.arrays()) or \
            text.endswith(("int8)", "int16)", "int32)", "int64)", "bool)"))

    def view(self, a, nd):
        if nd == 0:
            return self.pick([(f"{a}[...]", 0), (f"{a}[()]", 0), (f"{a}[None]", 1)])
        k = self.rng.random()
        if k < 0.3:
            return f"{a}[{self.pick(['1:', ':-1', '::2', '::-1', '1:2', '0:0', ':'])}]", nd
        if k < 0.45:
            return f"{a}.T", nd
        if k < 0.6:
            return f"{a}[None]", nd + 1
        if k < 0.75 and nd >= 2:
            return f"{a}[{self.pick(['0', '-1', '1'])}]", nd - 1
        if k < 0.9:
            return f"{a}[...]", nd
        return f"{a}.reshape(-1)", 1

    def method(self, a, nd):
        m = self.pick(["copy", "ravel", "flatten", "cumsum", "cumprod", "transpose", "sum",
                       "max", "min", "any", "argmax"])
        if m in ("ravel", "flatten", "cumsum", "cumprod"):
            return f"{a}.{m}()", 1
        if m in ("copy", "transpose"):
            return f"{a}.{m}()", nd
        if nd >= 1 and self.chance(0.6):
            keep = ", keepdims=True" if self.chance(0.3) else ""
            return f"{a}.{m}(axis={self.pick(['0', '-1'])}{keep})", nd - (0 if keep else 1)
        return f"np.asarray({a}.{m}())", 0

    def creation(self):
        dt = self.pick(DTYPES)
        n = self.pick(["0", "1", "3", "5"]) if self.chance(0.85) else self.pick(HUGE)
        r = self.rng.random()
        if r < 0.25:
            return f"np.zeros({n}, dtype=np.{dt})", 1
        if r < 0.4:
            return f"np.ones(({self.pick(['2', '0', '1'])}, {n}), dtype=np.{dt})", 2
        if r < 0.55:
            return f"np.full({n}, {self.literal(KIND[dt] if KIND[dt] != 'u' else 'i')}, " \
                f"dtype=np.{dt})", 1
        if r < 0.7:
            return f"np.arange({self.pick(['0', '4', '7', '-2'])}, dtype=np.{dt})", 1
        if r < 0.8:
            return f"np.empty({n}, dtype=np.{dt}).size", 0
        if r < 0.9:
            return f"np.linspace(0.0, {self.literal('f')}, {self.pick(['0', '1', '4'])})", 1
        return f"np.eye({self.pick(['0', '1', '3'])}, dtype=np.{dt})", 2

    # ---- statements -----------------------------------------------------------------------------
    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def assign_scalar(self, indent):
        name = self.fresh("s")
        if self.chance(0.35):
            self.emit(indent, f"{name} = {self.int_operand()}")
            return Var(name, "i")
        self.emit(indent, f"{name} = {self.scalar(2)}")
        return Var(name, "f")  # the kind is a guess; kiln unifies or rejects

    def assign_array(self, indent):
        name = self.fresh("a")
        expr, nd = self.array(2)
        self.emit(indent, f"{name} = {expr}")
        if expr.endswith(".size"):
            return Var(name, "i")
        return Var(name, "A", nd, "i" if self.int_array(expr) else "?")

    def store(self, indent):
        arrs = self.arrays()
        if not arrs:
            return None
        a = self.pick(arrs)
        target = a.name + self.pick(["[...]", "[()]"] if a.ndim == 0 else
                                    ["[0]", "[-1]", "[:]", "[1:]", "[...]", "[::2]"])
        value = self.scalar(1) if self.chance(0.7) else self.array(1)[0]
        op = self.pick(["=", "=", "+=", "-=", "*=", "//=", "%=", "&=", "<<=", "/=", "|="])
        if op[:-1] in INTOPS:
            if a.dtk not in "iub":
                op = "="
            else:
                value = self.int_operand()
        self.emit(indent, f"{target} {op} {value}")
        return None

    def augment(self, indent):
        names = self.scalars() + self.arrays()
        if not names:
            return None
        v = self.pick(names)
        op = self.pick(["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", ">>=", "<<="])
        value = self.scalar(1) if v.kind != "A" or self.chance(0.5) else self.array(1)[0]
        if v.kind in "iub":  # keep the variable's type: kiln would unify it with float64
            op = op if op not in ("/=", "**=") else "-="
            value = self.int_operand()
        elif op[:-1] in INTOPS:
            if (v.kind == "A" and v.dtk not in "iub") or v.kind in "fc":
                op = "+="
            else:
                value = self.int_operand()
        self.emit(indent, f"{v.name} {op} {value}")
        return None

    def loop(self, indent, depth):
        i = self.fresh("i")
        arrs = self.arrays()
        if arrs and self.chance(0.5):
            a = self.pick(arrs)
            if a.ndim >= 1:
                self.emit(indent, f"for {i} in range({a.name}.shape[0]):")
            else:
                self.emit(indent, f"for {i} in range({a.name}.size):")
        else:
            self.emit(indent, f"for {i} in range({self.pick(['3', '0', '5', '-1', '10'])}):")
        acc = self.scalars("if")
        self.vars.append(Var(i, "i"))
        self.block(indent + 1, depth - 1, self.rng.randint(1, 3), scoped=True)
        if acc and self.chance(0.6):
            s = self.pick(acc).name
            guard = self.pick([f"int({s}) if {s} == {s} else 0", f"{s} if {i} > 0 else 1",
                               f"{i} if {s} > 0 else -{i}"])
            self.emit(indent + 1, f"{s} = {s} + ({guard}) // ({i} + 1)")
        if self.chance(0.2):
            self.emit(indent + 1, f"if {self.condition()}:")
            self.emit(indent + 2, self.pick(["break", "continue"]))
        self.vars.remove(next(v for v in self.vars if v.name == i))

    def branch(self, indent, depth):
        self.emit(indent, f"if {self.condition()}:")
        if self.chance(0.2):
            self.emit(indent + 1, f"raise {self.pick(['ValueError', 'IndexError'])}('fz')")
        else:
            self.block(indent + 1, depth - 1, self.rng.randint(1, 2), scoped=True)
        if self.chance(0.5):
            self.emit(indent, "else:")
            self.block(indent + 1, depth - 1, self.rng.randint(1, 2), scoped=True)

    def statement(self, indent, depth):
        r = self.rng.random()
        if r < 0.3:
            return self.assign_scalar(indent)
        if r < 0.5:
            return self.assign_array(indent)
        if r < 0.62:
            return self.store(indent)
        if r < 0.74:
            return self.augment(indent)
        if r < 0.87 and depth > 0:
            return self.loop(indent, depth)
        if depth > 0:
            return self.branch(indent, depth)
        return self.assign_scalar(indent)

    def block(self, indent, depth, count, scoped=False):
        start, lines = len(self.vars), len(self.lines)
        for _ in range(count):
            v = self.statement(indent, depth)
            if v is not None:
                self.vars.append(v)
        if len(self.lines) == lines:
            self.emit(indent, "pass")
        if scoped:  # names made inside a branch may be unbound after it
            del self.vars[start:]

    def result(self):
        names = [v.name for v in self.vars]
        chosen = self.rng.sample(names, min(len(names), self.rng.randint(1, 3)))
        return "return " + (chosen[0] if len(chosen) == 1 else "(" + ", ".join(chosen) + ")")


# ---- arguments ----------------------------------------------------------------------------------

def values_for(rng, dtype, n):
    kind = KIND[dtype]
    if kind == "b":
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if kind in "iu":
        bits = int(dtype.lstrip("uint"))
        lo, hi = (0, 2 ** bits - 1) if kind == "u" else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        edges = [lo, hi, 0, 1, 2, 3, 7, hi // 2, max(lo, -1), max(lo, -5)]
        return [str(rng.choice(edges)) for _ in range(n)]
    if kind == "f":
        pool = FLOAT_EDGES if rng.random() < 0.5 else ["0.0", "1.0", "-1.0", "2.5", "0.5", "3.0"]
        return [rng.choice(pool) for _ in range(n)]
    return [rng.choice(COMPLEX_EDGES + ["1.0", "-2.0"]) for _ in range(n)]


def array_arg(rng):
    dtype = rng.choice(DTYPES)
    shape = rng.choice([(), (0,), (1,), (3,), (4,), (2, 3), (3, 2), (1, 4), (2, 0), (2, 2, 2)])
    layout = rng.choice(["C", "C", "F", "S"])
    n = 1
    for s in shape:
        n *= s
    if rng.random() < 0.08 and KIND[dtype] in "iub":  # a bigger array: vectorised loops
        shape, n = (rng.choice([17, 40, 67]),), 0
    count = max(1, min(n, 6)) if n else 4
    vals = ", ".join(values_for(rng, dtype, count))
    return f"_arr([{vals}], '{dtype}', {shape!r}, '{layout}')", len(shape)


def scalar_arg(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(INT_EDGES)
    if r < 0.7:
        return rng.choice(FLOAT_EDGES)
    if r < 0.8:
        return rng.choice(["True", "False"])
    if r < 0.85:
        return rng.choice(COMPLEX_EDGES)
    dt = rng.choice(DTYPES[:11])
    return f"np.{dt}({values_for(rng, dt, 1)[0]})"


PRELUDE = '''\
import math
import numpy as np

nan = float("nan")
inf = float("inf")


def _arr(values, dtype, shape, layout):
    """An argument array: values repeated to fill shape; layout C, F or S (strided)."""
    n = int(np.prod(shape))
    with np.errstate(all="ignore"):  # complex(1e300, 1e300) is inf in complex64
        flat = np.resize(np.array(values, dtype=dtype), n)
    a = flat.reshape(shape)
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "S" and a.ndim:
        a = np.repeat(a, 2, axis=-1)[..., ::2]
    return a.copy() if layout == "C" else a
'''



def program(seed):
    """The module text of program number ``seed``."""
    rng = random.Random(seed)
    g = Gen(rng)
    nparams = rng.randint(1, 4)
    params, args = [], []
    for k in range(nparams):
        if rng.random() < 0.6:
            text, ndim = array_arg(rng)
            dtk = KIND[text.split("'")[1]]
            params.append(Var(f"x{k}", "A", ndim, dtk))
            args.append(text)
        else:
            text = scalar_arg(rng)
            kind = "b" if text in ("True", "False") else "c" if "j" in text or "complex" in \
                text else "f" if any(ch in text for ch in ".ena") or "float" in text else "i"
            if text.startswith("np."):
                kind = KIND[text[3:].split("(")[0]]
            params.append(Var(f"x{k}", kind))
            args.append(text)
    g.vars = list(params)
    g.block(1, 2, rng.randint(1, 6))
    body = "\n".join(g.lines)
    sig = ", ".join(p.name for p in params)
    return (PRELUDE + f"\n\ndef f({sig}):\n{body}\n    {g.result()}\n\n\n"
            f"def args():\n    return ({', '.join(args)},)\n")
