"""Run one generated module interpreted and compiled, and judge the difference.

``judge_file(path)`` imports the module (kiln reads a function's source from its file), runs
``f(*args())`` three times: once interpreted, with the function's AST rewritten so that each
operator, conversion and call goes through model.py (kiln's specified semantics), and twice
compiled by ``kiln.njit(boundscheck=True)`` on fresh arguments. It returns a verdict
``{"kind": ..., "detail": ...}``:

* ``ok``: same results (values, array dtypes and shapes), same argument contents afterwards,
  or the same exception class; ``skip``: kiln rejected the program at compile time
  (TypingError, UnsupportedError: outside the subset); ``undefined``: the interpreter reached
  unspecified behaviour (model.Undefined), so only the two compiled runs are compared;
* failures: ``internal`` (LoweringError or another internal error), ``accepts-invalid``
  (CPython or NumPy raised a TypeError, kiln compiled the program), ``mismatch`` (values,
  dtypes or shapes), ``args-differ``, ``missing-exception``, ``wrong-exception``,
  ``spurious-exception`` (kiln raised at run time where the interpreter returned),
  ``nondeterministic`` (the two compiled runs differ), ``leak`` (runtime allocations not freed).
  The pool adds ``crash`` and ``timeout``.

Comparison: ints and bools exact; floats with nan equal to nan, the sign of zero and NaN
payloads ignored (NumPy leaves them to the CPU), and a relative tolerance of 1e-12 (float64) or
2e-6 (float32) where libm implementations may differ. A complex value with an infinite or nan
part only has to be non-finite on both sides (CPython gives nan+infj for (1e300+1e300j)**2
squared by multiplication, NumPy -inf+infj). Scalars compare by value, not Python
type, because kiln unifies a variable's types (an int later assigned a float is float64).
Values made by a float-to-int cast that NumPy flags as invalid are unspecified: only the dtype
and shape are compared then.
"""

import ast
import importlib.util
import itertools
import math
import sys
import warnings

import numpy as np

import model

KILN_SKIPS = ("TypingError", "UnsupportedError")
_counter = itertools.count()
OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
       ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
       ast.LShift: "<<", ast.RShift: ">>", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==",
       ast.NotEq: "!=", ast.Gt: ">", ast.GtE: ">="}
UNOPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
BUILTINS = {"int", "float", "bool", "complex", "abs", "round", "min", "max", "pow", "divmod"}
WEAK_FUNCS = {"clip", "where"}  # NumPy functions (not ufuncs) whose scalar arguments are weak
SCALAR_CASTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128", "bool_"}


# ---- the interpreted side: route operators through model.py --------------------------------------

def is_literal(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return is_literal(node.operand)
    if isinstance(node, ast.BinOp):
        return is_literal(node.left) and is_literal(node.right)
    return isinstance(node, ast.Constant) or (isinstance(node, ast.Name)
                                              and node.id in ("nan", "inf"))


def foldable(node):
    """Literals combined by + - * only: CPython's exact value is kiln's."""
    if isinstance(node, ast.BinOp):
        return (isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) and foldable(node.left)
                and foldable(node.right))
    if isinstance(node, ast.UnaryOp):
        return foldable(node.operand)
    return True


def helper(name, *args):
    return ast.Call(func=ast.Attribute(value=ast.Name("_fz", ast.Load()), attr=name,
                                       ctx=ast.Load()), args=list(args), keywords=[])


class Rewrite(ast.NodeTransformer):
    """Operators, builtins, math/np calls and stores become calls of model.fz_*."""

    def visit_BinOp(self, node):
        lit = [ast.Constant(is_literal(node.left)), ast.Constant(is_literal(node.right))]
        if all(c.value for c in lit) and foldable(node):
            return node  # + - * of literals: CPython's exact value, which kiln folds too
        if isinstance(node.right, ast.Constant):
            lit[1] = ast.Constant("constant")  # a bare constant: truthy as a literal flag
        self.generic_visit(node)
        return helper("fz_bin", ast.Constant(OPS[type(node.op)]), node.left, node.right, *lit)

    def visit_UnaryOp(self, node):
        if is_literal(node) and foldable(node):
            return node  # -(31 ** -1) is not CPython's value: its ** goes through the model
        self.generic_visit(node)
        return helper("fz_unary", ast.Constant(UNOPS[type(node.op)]), node.operand)

    def visit_Compare(self, node):
        self.generic_visit(node)
        items = [node.left] + node.comparators
        parts = [helper("fz_bin", ast.Constant(OPS[type(op)]), a, b, ast.Constant(False),
                        ast.Constant(False)) for op, a, b in zip(node.ops, items, items[1:])]
        return parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)

    def visit_Call(self, node):
        fill_literal = len(node.args) >= 2 and is_literal(node.args[1])
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in BUILTINS and not node.keywords:
            return helper("fz_call", ast.Constant(f.id), *node.args)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            if f.value.id == "math":
                return helper("fz_math", ast.Constant(f.attr), *node.args)
            if f.value.id == "np" and f.attr in SCALAR_CASTS and len(node.args) == 1:
                return helper("fz_cast", ast.Constant(f.attr), node.args[0])
            if (f.value.id == "np" and not node.keywords
                    and (isinstance(getattr(np, f.attr, None), np.ufunc) or f.attr in WEAK_FUNCS)):
                return helper("fz_ufunc", ast.Constant(f.attr), *node.args)
        if (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "np"
                and f.attr in ("full", "full_like") and len(node.args) >= 2):
            lit = ast.Constant(fill_literal)
            return ast.Call(func=ast.Attribute(value=ast.Name("_fz", ast.Load()), attr="fz_full",
                                               ctx=ast.Load()),
                            args=[ast.Constant(f.attr), lit] + node.args, keywords=node.keywords)
        if isinstance(f, ast.Attribute) and f.attr == "astype" and len(node.args) == 1:
            return helper("fz_astype", f.value, node.args[0])
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        op, lit = ast.Constant(OPS[type(node.op)]), ast.Constant(is_literal(node.value))
        if isinstance(node.target, ast.Name):
            load = ast.Name(node.target.id, ast.Load())
            return ast.Assign([node.target], helper("fz_scalar_aug", op, load, node.value, lit))
        if isinstance(node.target, ast.Subscript):
            t = node.target
            load = ast.Subscript(t.value, t.slice, ast.Load())
            value = helper("fz_aug", op, load, node.value, lit)
            return ast.Expr(helper("fz_setitem", t.value, t.slice, value))
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        thunks = [ast.Lambda(ast.arguments([], [], None, [], [], None, []), b)
                  for b in (node.body, node.orelse)]
        return helper("fz_ifexp", node.test, *thunks)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            t = node.targets[0]
            return ast.Expr(helper("fz_setitem", t.value, t.slice, node.value,
                                   ast.Constant(is_literal(node.value))))
        return node


def interpreted(func):
    """A copy of ``func`` whose operators follow kiln's specified semantics (model.py)."""
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    fdef = tree.body[0]
    fdef.decorator_list = []
    fdef = Rewrite().visit(fdef)
    tree.body = [fdef]
    ast.fix_missing_locations(tree)
    namespace = dict(func.__globals__)
    namespace["_fz"] = model
    exec(compile(tree, f"<interpreted {func.__name__}>", "exec"), namespace)
    return namespace[func.__name__]


# ---- running -------------------------------------------------------------------------------------

class Outcome:
    """A result or an exception, with the arguments afterwards."""

    def __init__(self, value=None, exc=None, args=(), unspecified=False):
        self.value, self.exc, self.args, self.unspecified = value, exc, args, unspecified


def run_interpreted(func, make_args):
    args = make_args()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            value = interpreted(func)(*args)
        except model.Undefined as exc:
            return Outcome(exc=exc, args=args)
        except (UnboundLocalError, NameError) as exc:  # kiln does not check, as Numba
            return Outcome(exc=model.Undefined(f"unbound variable: {exc}"), args=args)
        except Exception as exc:  # the oracle's own errors are part of the comparison
            return Outcome(exc=exc, args=args)
    invalid = any("invalid value encountered in cast" in str(w.message) for w in seen)
    return Outcome(value=value, args=args, unspecified=invalid)


def run_compiled(dispatcher, make_args):
    args = make_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return Outcome(value=dispatcher(*args), args=args)
        except Exception as exc:
            return Outcome(exc=exc, args=args)


def load(path):
    name = f"fzmod_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


# ---- comparing -----------------------------------------------------------------------------------

def close(w, g, tol):
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g)
    if math.isinf(w) or math.isinf(g):
        return w == g
    return w == g or abs(w - g) <= tol * max(abs(w), abs(g))


def tolerance(x):
    dt = getattr(x, "dtype", None)
    return 2e-6 if dt is not None and dt in (np.float32, np.complex64) else 1e-12


def same_scalar(w, g, tol):
    if isinstance(g, np.ndarray) or isinstance(w, np.ndarray) or g is None or w is None:
        return w is g
    try:
        wc, gc = complex(w), complex(g)
    except TypeError:
        return False
    if wc.imag or gc.imag or isinstance(w, (complex, np.complexfloating)):
        fw, fg = finite(wc), finite(gc)
        if not (fw and fg):  # overflowed complex products: CPython and NumPy differ too
            return fw == fg
    return close(wc.real, gc.real, tol) and close(wc.imag, gc.imag, tol)


def finite(z):
    return math.isfinite(z.real) and math.isfinite(z.imag)


def same_array(w, g, values=True):
    if not isinstance(g, np.ndarray) or w.shape != g.shape or w.dtype != g.dtype:
        return False
    if not values or w.size == 0:
        return True
    if w.dtype.kind in "fc":
        tol = tolerance(w)
        return all(same_scalar(a, b, tol) for a, b in zip(w.ravel().tolist(), g.ravel().tolist()))
    return np.array_equal(w, g)


def same(w, g, values=True):
    if isinstance(w, tuple):
        return (isinstance(g, tuple) and len(w) == len(g)
                and all(same(a, b, values) for a, b in zip(w, g)))
    if isinstance(w, np.ndarray):
        return same_array(w, g, values)
    if isinstance(g, (tuple, np.ndarray)):
        return False
    return not values or same_scalar(w, g, tolerance(w))


def identical(a, b):
    """The two compiled runs: bit for bit (nan equal to nan)."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(identical, a, b))
    if isinstance(a, np.ndarray):
        return (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    return same_scalar(a, b, 0.0) if a is not None else b is None


def short(x, n=300):
    text = repr(x)
    return text if len(text) <= n else text[:n] + "..."


def exc_name(e):
    return type(e).__name__


def is_internal(exc):
    """A LoweringError (any KilnError but the two skips), or an error no program should cause."""
    from kiln import errors

    if isinstance(exc, errors.KilnError):
        return exc_name(exc) not in KILN_SKIPS
    if isinstance(exc, RecursionError):
        return False
    return isinstance(exc, (SystemError, AssertionError, RuntimeError))


def verdict(kind, detail=""):
    return {"kind": kind, "detail": detail}


def judge_compiled(first, second):
    """Failures that need no oracle: internal errors and nondeterminism."""
    if first.exc is not None and is_internal(first.exc):
        return verdict("internal", f"{exc_name(first.exc)}: {str(first.exc)[:400]}")
    if (first.exc is None) != (second.exc is None):
        return verdict("nondeterministic", f"{short(first.exc or first.value)} then "
                                           f"{short(second.exc or second.value)}")
    if first.exc is not None and type(first.exc) is not type(second.exc):
        return verdict("nondeterministic", f"{exc_name(first.exc)} then {exc_name(second.exc)}")
    if first.exc is None and not identical(first.value, second.value):
        return verdict("nondeterministic", f"{short(first.value)} then {short(second.value)}")
    return None


def judge(want, got, again):
    bad = judge_compiled(got, again)
    if bad:
        return bad
    if got.exc is not None and exc_name(got.exc) in KILN_SKIPS:
        return verdict("skip", f"{exc_name(got.exc)}: {got.exc.msg[:200]}")
    if isinstance(want.exc, model.Undefined):
        return verdict("undefined", str(want.exc))
    if want.exc is not None and got.exc is not None and not isinstance(want.exc, TypeError):
        if isinstance(want.exc, type(got.exc)) and type(got.exc) is not Exception:
            return verdict("ok")
        return verdict("wrong-exception", f"python {exc_name(want.exc)}: {str(want.exc)[:150]}; "
                                          f"kiln {exc_name(got.exc)}: {str(got.exc)[:150]}")
    if (isinstance(want.exc, TypeError) and type(got.exc) is type(want.exc)
            and str(got.exc) == str(want.exc)):
        return verdict("ok")  # kiln's same TypeError at run time (arange of bools too long)
    if isinstance(want.exc, TypeError):
        what = short(got.value) if got.exc is None else f"{exc_name(got.exc)}: {got.exc}"
        return verdict("accepts-invalid", f"python {exc_name(want.exc)}: {str(want.exc)[:150]};"
                                          f" kiln {what[:150]}")
    if want.exc is not None:
        return verdict("missing-exception", f"python {exc_name(want.exc)}: "
                                            f"{str(want.exc)[:150]}; kiln {short(got.value)}")
    if got.exc is not None:
        return verdict("spurious-exception", f"kiln {exc_name(got.exc)}: {str(got.exc)[:200]};"
                                             f" python {short(want.value)}")
    values = not want.unspecified
    if not same(want.value, got.value, values):
        return verdict("mismatch", f"python {short(want.value)}; kiln {short(got.value)}")
    if not same(tuple(want.args), tuple(got.args), values):
        return verdict("args-differ", f"python {short(want.args)}; kiln {short(got.args)}")
    return verdict("ok")


def judge_file(path):
    """The verdict for the module at ``path`` (see the module docstring)."""
    import kiln

    mod = load(path)
    before = kiln.runtime.memory_stats()
    want = run_interpreted(mod.f, mod.args)
    dispatcher = kiln.njit(boundscheck=True)(mod.f)
    got = run_compiled(dispatcher, mod.args)
    again = run_compiled(dispatcher, mod.args)
    result = judge(want, got, again)
    got = again = None
    after = kiln.runtime.memory_stats()
    if result["kind"] in ("ok", "undefined") and (
            after.alloc - after.free != before.alloc - before.free
            or after.mi_alloc - after.mi_free != before.mi_alloc - before.mi_free):
        result = verdict("leak", f"runtime counters {tuple(before)} -> {tuple(after)}")
    sys.modules.pop(mod.__name__, None)
    return result
