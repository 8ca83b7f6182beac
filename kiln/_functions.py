"""What the C core calls for functions as values (docs/internals.md, "Functions as values and
closures"): the call ``f(a, *t, b, k=v)`` with a tuple ``t`` spread into the arguments.

The frontend cannot know how many items ``t`` holds; typing does. So a call with starred
arguments becomes a call of a :class:`StarCall` (an overload set of one, resolved by
``kiln.extending._resolve`` like any call implemented in Python): once the argument types are
known it writes a two-line jitted function taking the call's arguments in order and calling the
callee with every tuple spread (``_f(a0, a1[0], a1[1], a2, k=k_k)``), compiled like
kiln.extending's bindings (``_thunk``: inlined into its caller). The callee is frozen into that
function's globals when it is a global of the calling function (a jitted function, a builtin, a
NumPy function: keywords, defaults and ``*args`` then bind as for any call), or passed as its
first argument when it is a value (a function passed as an argument).
"""

import itertools
import types as types_mod
import linecache

from . import types
from .errors import TypingError

_counter = itertools.count()


class StarCall:
    """One call site ``f(..., *t, ...)``: ``callee`` the frozen callee (or None: the callee is
    the call's first argument), ``starred`` the positions of the starred arguments among the
    ``npos`` positional ones."""

    def __init__(self, callee, starred, npos, name):
        self.callee = callee
        self.starred = tuple(starred)
        self.npos = npos
        self.name = name
        self._cache = {}

    def resolve(self, args, kwnames):
        key = (tuple(args), tuple(kwnames))
        disp = self._cache.get(key)
        if disp is None:
            disp = self._cache[key] = self._make(args, tuple(kwnames))
        return disp

    def _make(self, args, kwnames):
        from .decorators import njit

        first = 0 if self.callee is not None else 1
        params, call = [], []
        if first:
            params.append("_fv")
        for i in range(self.npos):
            p = f"a{i}"
            params.append(p)
            if i in self.starred:
                t = args[first + i]
                if not isinstance(t, types.BaseTuple):
                    raise TypingError(f"{self.name}(*x): x must be a tuple, not {t}")
                call.extend(f"{p}[{j}]" for j in range(len(t)))
            else:
                call.append(p)
        for k in kwnames:
            params.append(f"k_{k}")
            call.append(f"{k}=k_{k}")
        fname = f"_kiln_star_{next(_counter)}"
        filename = f"<kiln call of {self.name}(*...): {fname}>"
        target = "_fv" if first else "_f"
        src = f"def {fname}({', '.join(params)}):\n    return {target}({', '.join(call)})\n"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        env = {"_f": self.callee}
        exec(compile(src, filename, "exec"), env)
        return njit(_thunk=True)(env[fname])


def star_call(callee, starred, npos, name):
    """The overload set the frontend freezes for one call with starred arguments."""
    return StarCall(callee, starred, npos, name)


# --- inner functions and lambdas that capture variables ------------------------------------------

class Captured:
    """The content of a closure cell of a lifted inner function: the variable is not frozen but
    passed by the caller as a hidden parameter (after the declared ones, in co_freevars order)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<captured {self.name}>"


_lifted = {}


def _inner_code(func, name, line, col, end_col):
    """The code object of the inner function or lambda written at (line, col) of func."""
    found = []
    for k in func.__code__.co_consts:
        if not hasattr(k, "co_code") or k.co_name != name or k.co_firstlineno != line:
            continue
        cols = [p[2] for p in k.co_positions() if p[0] == line and p[2] is not None]
        found.append((k, min(cols) if cols else col))
    inside = [k for k, c in found if col <= c <= end_col]
    if inside:
        return inside[0]
    return found[0][0] if found else None


def lift(func, name, line, col, end_col, local_names):
    """The jitted function of the ``def``/``lambda`` at (line, col) inside ``func``, and the names
    of the enclosing function's variables it captures (its free variables that are locals of
    ``func``, in co_freevars order): those become hidden parameters, filled by the caller from
    the closure value; its other free variables are ``func``'s own closure cells (a factory's
    values), frozen at compile time as for any function."""
    from .decorators import njit

    code = _inner_code(func, name, line, col, end_col)
    if code is None:
        raise LookupError("cannot find the code of this function")
    outer = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    key = (func, code)
    hit = _lifted.get(key)
    if hit is not None:
        return hit
    cells, captured = [], []
    for v in code.co_freevars:
        if v in local_names:
            cells.append(types_mod.CellType(Captured(v)))
            captured.append(v)
        elif v in outer:
            cells.append(outer[v])
        else:
            raise LookupError(f"cannot find the variable {v!r}")
    inner = types_mod.FunctionType(code, func.__globals__, code.co_name, None, tuple(cells))
    inner.__qualname__ = code.co_qualname
    hit = _lifted[key] = (njit(inner), tuple(captured))
    return hit


def captured_names(func):
    """The free variables of a lifted function that its caller passes (hidden parameters)."""
    return [v for v, c in zip(func.__code__.co_freevars, func.__closure__ or ())
            if isinstance(c.cell_contents, Captured)]


def binding_count(def_node, name):
    """How many times the function ``def_node`` binds ``name`` (assignments, loop and ``with``
    targets, parameters, inner defs), not counting the scopes of its inner functions. A name
    bound once, by an inner function, is rebuilt from the current values of what it captures
    wherever it is loaded (Python's late binding, docs/internals.md)."""
    import ast

    n = 0

    def walk(node):
        nonlocal n
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                n += child.name == name
                continue
            if isinstance(child, ast.Lambda):
                continue
            if isinstance(child, ast.Name) and child.id == name and \
                    not isinstance(child.ctx, ast.Load):
                n += 1
            elif isinstance(child, ast.arg) and child.arg == name:
                n += 1
            elif isinstance(child, (ast.Global, ast.Nonlocal)) and name in child.names:
                n += 2
            walk(child)

    walk(def_node)
    return n
