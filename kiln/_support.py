"""What ``kiln._core`` asks of Python (docs/core-api.md): errors, type objects, source text.

- ``make_error(kind, message, filename, line, col, end_line, end_col, notes)`` builds the
  exception for a diagnostic. ``_core`` passes columns as ``ast`` counts them (UTF-8 bytes,
  1-based, ``end_col`` exclusive); they are turned into character columns here, using the
  source line, so that ``error.col`` counts characters.
- ``from_key(key)`` is :func:`kiln.types.from_key`.
- ``get_source(func)`` returns ``(source, filename, first_line, col_offset)``: the function's
  source, dedented, starting at its first decorator or ``def`` (``first_line`` is that line in
  ``filename``, 1-based), and how many columns the dedent removed (``_core`` adds it back to
  columns). Lines that begin inside a multi-line string are left as they are, so string
  constants keep their value (columns on those lines, and on bracketed continuation lines
  indented less than the first line, are off by the difference). For a lambda, the source is
  the innermost whole statement that contains it (``f = njit(lambda x: x + 1)``), dedented;
  ``_core`` picks the ``Lambda`` node on line ``func.__code__.co_firstlineno``.
"""

from .errors import KilnError, LoweringError, TypingError, UnsupportedError, source_line
from .types import from_key

__all__ = ["make_error", "from_key", "get_source", "find_definition"]

_KINDS = {"typing": TypingError, "unsupported": UnsupportedError, "lowering": LoweringError}


def make_error(kind, message, filename, line, col, end_line, end_col, notes):
    """The exception (not raised) for one diagnostic of ``_core``."""
    col, end_col = _char_columns(filename, line, col, end_line, end_col)
    fixed = []
    for n_msg, n_file, n_line, n_col, n_end_line, n_end_col in notes or ():
        n_col, n_end_col = _char_columns(n_file, n_line, n_col, n_end_line, n_end_col)
        fixed.append((n_msg, n_file, n_line, n_col, n_end_line, n_end_col))
    return _KINDS.get(kind, KilnError)(message, filename, line, col, end_line, end_col, fixed)


def add_note(err, message, filename, line, col, end_line, end_col):
    """Append a note at a position (the call that led to ``err``) to a KilnError, in place."""
    from .errors import Note, render

    col, end_col = _char_columns(filename, line, col, end_line, end_col)
    err.notes.append(Note(message, filename, line, col, end_line, end_col))
    err.args = (render(err),)


def _char_columns(filename, line, col, end_line, end_col):
    text = source_line(filename, line)
    end_text = text if end_line in (None, line) else source_line(filename, end_line)
    return _char_column(text, col), _char_column(end_text, end_col)


def _char_column(text, col):
    """The 1-based character column of 1-based UTF-8 byte column ``col`` in ``text``."""
    if text is None or col is None or text.isascii():
        return col
    data = text.encode("utf-8")
    past_end = max(col - 1 - len(data), 0)
    return len(data[:col - 1].decode("utf-8", "ignore")) + past_end + 1


def get_source(func):
    """``(source, filename, first_line, col_offset)`` of a Python function; see the docstring."""
    return find_definition(func)[:4]


def find_definition(func):
    """What ``_core`` compiles: ``get_source``'s four items and the ``ast`` node of the function
    in ``ast.parse(source)`` (a ``FunctionDef``, ``AsyncFunctionDef`` or ``Lambda``).

    The node is checked against the code object Python runs (see ``_pick``): of several lambdas
    or functions on one line, the one whose code it is; and when the file was rewritten after
    the function was defined, ``UnsupportedError`` rather than a compile of the new text."""
    import ast

    code = getattr(func, "__code__", None)
    name = getattr(func, "__qualname__", repr(func))
    if code is None:
        raise UnsupportedError(f"{name!r} is not a Python function: kiln compiles from source")
    found = _fast_source(code) if code.co_name != "<lambda>" else None
    if found is None:
        found = _inspect_source(func, code, name)
    source, filename, first_line = found[0], found[1], found[2]
    try:
        tree = found[4] if len(found) > 4 else ast.parse(source)
    except SyntaxError:
        raise _changed(func, code, "does not parse") from None
    node = _pick(ast, tree, source, func, code, first_line - 1)
    return source, filename, first_line, found[3], node


def _inspect_source(func, code, name):
    import inspect

    try:
        if code.co_name == "<lambda>":
            lines, first_line = _lambda_source(inspect, func, code.co_firstlineno)
        else:
            lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError):
        raise UnsupportedError(
            f"cannot find the source of function {name!r} (defined in {code.co_filename}): "
            f"kiln compiles from source; define the function in a file, or register the "
            f"code's text in linecache under that name as IPython does") from None
    source, col_offset = _dedent(lines)
    return source, code.co_filename, max(first_line, 1), col_offset


def _changed(func, code, why):
    name = getattr(func, "__qualname__", code.co_name)
    return UnsupportedError(
        f"the source of {name!r} in {code.co_filename} is not the code Python runs ({why}): "
        f"the file changed since the function was defined; kiln compiles from source, so "
        f"reload the module (importlib.reload) or define the function again",
        code.co_filename, code.co_firstlineno)


# Tests may set this to False to take Python 3.10's path (no column positions in code objects).
_USE_POSITIONS = True


def _pick(ast, tree, source, func, code, line_off):
    """The node of ``tree`` whose compiled code is ``code``.

    Candidates are the functions of that name (or the lambdas) that start on the code's first
    line. Those whose body does not compile to the same bytecode (``_same_code``) are dropped:
    none left means the text is not the function's any more. Of several equal ones (two
    identical lambdas on a line), the one whose span holds the code's instruction positions is
    taken (Python 3.11+), else the first: they compute the same thing."""
    is_lambda = code.co_name == "<lambda>"
    kinds = (ast.Lambda,) if is_lambda else (ast.FunctionDef, ast.AsyncFunctionDef)
    line = code.co_firstlineno - line_off
    cands = []
    stack = [tree]
    while stack:  # only into nodes that span the line: long functions are not walked whole
        node = stack.pop()
        start = _start_line(node)
        if start is not None and not start <= line <= node.end_lineno:
            continue
        if isinstance(node, kinds) and start == line and \
                (is_lambda or node.name == code.co_name):
            cands.append(node)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    if not cands:
        raise _changed(func, code, f"no {'lambda' if is_lambda else 'def ' + code.co_name} "
                                   f"starts on line {code.co_firstlineno}")
    qualname = getattr(code, "co_qualname", None) or getattr(func, "__qualname__", "")
    same = [n for n in cands if _same_code(ast, n, source, func, code, qualname)]
    if not same:
        raise _changed(func, code, "its text compiles to different bytecode")
    if len(same) > 1 and _USE_POSITIONS:
        inside = [n for n in same if _holds_positions(n, code, line_off)]
        same = inside or same
    return same[0]


def _start_line(node):
    """First line of a node (its first decorator's for a decorated one); None if it has none."""
    line = getattr(node, "lineno", None)
    for d in getattr(node, "decorator_list", ()):
        line = min(line, d.lineno)
    return line


def _holds_positions(node, code, line_off):
    """Whether every instruction position of ``code`` (3.11+) lies inside ``node``'s span."""
    positions = getattr(code, "co_positions", None)
    if positions is None:
        return False
    first = (node.lineno + line_off, node.col_offset)
    last = (node.end_lineno + line_off, node.end_col_offset)
    seen = False
    for line, end_line, col, end_col in positions():
        if line is None or col is None:
            continue
        if (line, col) < first or (end_line, end_col) > last:
            return False
        seen = True
    return seen


def _same_code(ast, node, source, func, code, qualname):
    """Whether ``node``, compiled in scopes like the function's, gives ``code``'s bytecode.

    Decorators, defaults and annotations are evaluated outside the function's code, so they are
    dropped. The scopes come from the qualified name (``outer.<locals>.Cls.f``: a class inside
    a function); the function's free variables are made locals of the nearest enclosing
    function, so that they compile as cells, as they did. CPython (3.11+) compiles ``m.f(x)``
    differently when ``m`` is imported at module level, so the names that are modules in the
    function's globals are declared imported (then, failing that, none is). Code whose asserts
    pytest rewrote (names ``@py_assert1``, ``@pytest_ar``) is compared with the text rewritten
    the same way."""
    import types

    used, stack = set(), [code]
    while stack:
        co = stack.pop()
        used.update(co.co_names)
        stack.extend(c for c in co.co_consts if hasattr(c, "co_code"))
    glob = getattr(func, "__globals__", {})
    modules = sorted(n for n in used if isinstance(glob.get(n), types.ModuleType))
    rewrite = source if any(n.startswith("@py") for n in code.co_names + code.co_varnames) \
        else None
    for imported in ([modules, []] if modules else [[]]):
        if _compiles_to(ast, node, code, qualname, imported, rewrite):
            return True
    return False


def _compiles_to(ast, node, code, qualname, imported, rewrite):
    import copy

    # The body is shared with the tree _core walks (compile() does not change it); only the
    # outer parts that _strip_outer replaces are copied. pytest's rewrite edits the body.
    node = copy.deepcopy(node) if rewrite is not None else _outer_copy(node)
    _strip_outer(ast, node)
    if isinstance(node, ast.Lambda):
        stmt = _placed(ast, ast.Assign(targets=[ast.Name("__kiln_target__", ast.Store())],
                                       value=ast.Constant(None)))
        stmt.value = node
    else:
        stmt = node
    body = [stmt]
    scopes = _scopes(qualname)
    free = [v for v in code.co_freevars if not (v == "__class__" and "class" in scopes)]
    placed = False
    for kind, name in reversed(scopes):
        if kind == "def":
            if not placed:
                body = _cells(ast, free) + body
                placed = True
            body = [_scope(ast, ast.FunctionDef, name, body)]
        else:
            body = [_scope(ast, ast.ClassDef, name, body)]
    if free and not placed:
        body = [_scope(ast, ast.FunctionDef, "__kiln_scope__", _cells(ast, free) + body)]
    body = [_placed(ast, ast.Import(names=[ast.alias(name=n)])) for n in imported] + body
    module = ast.Module(body=body, type_ignores=[])
    if rewrite is not None:
        try:
            from _pytest.assertion.rewrite import rewrite_asserts

            rewrite_asserts(module, rewrite.encode("utf-8"))
        except Exception:  # noqa: BLE001 - no pytest, or another version: no match
            return False
    flags = code.co_flags & _future_flags()
    for optimize in (-1, 0, 1, 2):
        try:
            top = compile(module, code.co_filename, "exec", flags=flags, dont_inherit=True,
                          optimize=optimize)
        except (SyntaxError, ValueError, TypeError, RecursionError):
            return False
        mine = _find_code(top, code.co_name)
        if mine is not None and _code_equal(mine, code):
            return True
    return False


def _outer_copy(node):
    import copy

    node = copy.copy(node)
    args = node.args = copy.copy(node.args)
    for field in ("posonlyargs", "args", "kwonlyargs"):
        setattr(args, field, [copy.copy(a) for a in getattr(args, field)])
    for field in ("vararg", "kwarg"):
        if getattr(args, field) is not None:
            setattr(args, field, copy.copy(getattr(args, field)))
    return node


def _placed(ast, node):
    """A wrapper node given positions (before any shared node is put inside it)."""
    if hasattr(ast, "TypeVar") and isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        node.type_params = []  # Python 3.12+
    return ast.fix_missing_locations(node)


def _cells(ast, names):
    return [_placed(ast, ast.Assign(targets=[ast.Name(v, ast.Store())], value=ast.Constant(None)))
            for v in names]


def _scope(ast, kind, name, body):
    if kind is ast.FunctionDef:
        node = ast.FunctionDef(name=name, args=_no_args(ast), body=[ast.Pass()],
                               decorator_list=[], returns=None, type_comment=None)
    else:
        node = ast.ClassDef(name=name, bases=[], keywords=[], body=[ast.Pass()],
                            decorator_list=[])
    node = _placed(ast, node)
    node.body = body
    return node


def _strip_outer(ast, fn):
    fn.args.defaults = [_placed(ast, ast.Constant(None)) for _ in fn.args.defaults]
    fn.args.kw_defaults = [None if d is None else _placed(ast, ast.Constant(None))
                           for d in fn.args.kw_defaults]
    for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs + \
            [x for x in (fn.args.vararg, fn.args.kwarg) if x is not None]:
        a.annotation = None
    if not isinstance(fn, ast.Lambda):
        fn.decorator_list = []
        fn.returns = None


def _no_args(ast):
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                         kwarg=None, defaults=[])


def _scopes(qualname):
    """[("def" | "class", name)] of the scopes around the function, from its qualified name."""
    parts = qualname.split(".")[:-1]
    out = []
    for i, part in enumerate(parts):
        if part == "<locals>":
            continue
        is_def = i + 1 < len(parts) and parts[i + 1] == "<locals>"
        out.append(("def" if is_def else "class", part))
    return out


def _future_flags():
    import __future__

    flags = 0
    for feature in __future__.all_feature_names:
        flags |= getattr(__future__, feature).compiler_flag
    return flags


def _find_code(top, name):
    """The first code object named ``name`` below ``top`` (preorder), skipping the wrappers."""
    stack = [top]
    while stack:
        co = stack.pop(0)
        for const in co.co_consts:
            if hasattr(const, "co_code"):
                if const.co_name == name:
                    return const
                stack.append(const)
    return None


_FLAG_BITS = 0x04 | 0x08 | 0x20 | 0x80 | 0x100 | 0x200  # varargs, varkw, generator, coroutines


def _code_equal(a, b):
    if (a.co_code != b.co_code or a.co_names != b.co_names or a.co_varnames != b.co_varnames
            or a.co_freevars != b.co_freevars or a.co_cellvars != b.co_cellvars
            or a.co_argcount != b.co_argcount or a.co_kwonlyargcount != b.co_kwonlyargcount
            or a.co_posonlyargcount != b.co_posonlyargcount
            or (a.co_flags & _FLAG_BITS) != (b.co_flags & _FLAG_BITS)
            or len(a.co_consts) != len(b.co_consts)):
        return False
    return all(_const_equal(x, y) for x, y in zip(a.co_consts, b.co_consts))


def _const_equal(x, y):
    if hasattr(x, "co_code") or hasattr(y, "co_code"):
        return hasattr(x, "co_code") and hasattr(y, "co_code") and _code_equal(x, y)
    if type(x) is not type(y):
        return False
    if isinstance(x, (tuple, frozenset)):
        if isinstance(x, frozenset):
            x, y = sorted(x, key=repr), sorted(y, key=repr)
        return len(x) == len(y) and all(_const_equal(p, q) for p, q in zip(x, y))
    if isinstance(x, (float, complex)):
        return repr(x) == repr(y)
    return x == y


def _fast_source(code):
    """The common case without ``inspect`` (whose first use costs milliseconds): the lines from
    ``co_firstlineno`` (the first decorator) to the last line the bytecode covers, extended over
    continuation lines, and its parsed tree; ``None`` when that block does not parse, and
    ``inspect`` decides."""
    import ast
    import linecache

    linecache.checkcache(code.co_filename)  # a file edited since it was read
    lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno
    if not lines or first > len(lines):
        return None
    try:
        last = max(line for _, _, line in code.co_lines() if line is not None)
    except (AttributeError, ValueError):
        return None
    text = lines[first - 1]
    base = len(text) - len(text.lstrip())
    end = max(last, first)
    while end < len(lines):  # closing brackets and comments past the last bytecode line
        nxt = lines[end]
        stripped = nxt.strip()
        if stripped and len(nxt) - len(nxt.lstrip()) <= base:
            break
        end += 1
    while end > last and not lines[end - 1].strip():
        end -= 1
    source, col_offset = _dedent(lines[first - 1:end])
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef) \
            or tree.body[0].name != code.co_name:
        return None
    return source, code.co_filename, first, col_offset, tree


def _lambda_source(inspect, func, lineno):
    """Lines and first line of the innermost statement holding the lambda that starts on
    ``lineno`` and that parses on its own; the lambda's own block when the file won't parse."""
    import ast

    all_lines, _ = inspect.findsource(func)
    try:
        tree = ast.parse("".join(all_lines))
        stmts = _statements_holding_lambda(ast, tree, lineno) or []
    except (SyntaxError, ValueError, RecursionError):
        stmts = []
    for stmt in reversed(stmts):
        lines = all_lines[stmt.lineno - 1:stmt.end_lineno]
        try:
            ast.parse(_dedent(lines)[0])
        except SyntaxError:
            continue
        return lines, stmt.lineno
    return inspect.getsourcelines(func)


def _statements_holding_lambda(ast, node, lineno, stmts=()):
    """The statements from the outermost in around the first Lambda on line ``lineno``, or
    None when there is none."""
    if isinstance(node, ast.Lambda) and node.lineno == lineno:
        return list(stmts)
    if isinstance(node, ast.stmt):
        stmts += (node,)
    for child in ast.iter_child_nodes(node):
        if getattr(child, "lineno", lineno) <= lineno <= getattr(child, "end_lineno", lineno):
            found = _statements_holding_lambda(ast, child, lineno, stmts)
            if found is not None:
                return found
    return None


def _dedent(lines):
    """Remove the first line's indentation from every line; return (text, amount removed).

    A line that begins inside a multi-line string keeps its text; a code line indented less
    than the first (only possible inside brackets or after a backslash) loses all its
    leading whitespace.
    """
    first = lines[0]
    indent = len(first) - len(first.lstrip(" \t"))
    if indent == 0:
        return "".join(lines), 0
    # only a triple-quoted string or a backslash inside a string spans lines: without either,
    # no tokenizing (its first use compiles a large regex: milliseconds)
    spans = any('"""' in line or "'''" in line or line.rstrip("\r\n").endswith("\\")
                for line in lines)
    prefix, keep = first[:indent], _rows_inside_strings(lines) if spans else set()
    out = []
    for row, line in enumerate(lines, 1):
        if row in keep:
            out.append(line)
        elif line.startswith(prefix):
            out.append(line[indent:])
        else:
            out.append(line.lstrip(" \t"))
    return "".join(out), indent


def _rows_inside_strings(lines):
    """1-based rows of ``lines`` that begin inside a token spanning several lines (a string)."""
    import tokenize

    rows = set()
    try:
        for tok in tokenize.generate_tokens(iter(lines).__next__):
            rows.update(range(tok.start[0] + 1, tok.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        pass  # a fragment that does not tokenize to the end: keep what was found
    return rows


class OverloadInfo:
    """What ``Dispatcher.overloads`` maps a signature to (as Numba's CompileResult does)."""

    __slots__ = ("signature", "return_type", "entry_point")

    def __init__(self, signature, return_type, entry_point):
        self.signature = signature
        self.return_type = return_type
        self.entry_point = entry_point

    def __repr__(self):
        args = ", ".join(str(t) for t in self.signature)
        return f"<kiln overload {self.return_type}({args}) at {self.entry_point:#x}>"


def make_overload_info(signature, ret_key, entry_point):
    return OverloadInfo(signature, from_key(ret_key), entry_point)


def to_keys(signature):
    """Type keys of a signature given as type objects, keys, or a signature string/object."""
    from . import types as _types

    if isinstance(signature, str):
        signature = _types.parse_signature(signature)
    if hasattr(signature, "args"):
        signature = signature.args
    return tuple(getattr(t, "key", t) for t in signature)


def render_types(func, entries, file=None, signature=None):
    """``Dispatcher.inspect_types()``: the source, annotated with each variable's type.

    ``entries`` is a list of ``(argument types, return key, [(line, name, type name)])`` for each
    compiled signature. Prints to ``file`` (stdout by default), as Numba does."""
    import linecache
    import sys

    code = func.__code__
    wanted = to_keys(signature) if signature is not None else None
    out = []
    for args, ret_key, var_info in entries:
        if wanted is not None and tuple(getattr(t, "key", t) for t in args) != wanted:
            continue
        sig = ", ".join(str(t) for t in args)
        out.append(f"{func.__qualname__} ({sig}) -> {from_key(ret_key)}")
        out.append("-" * 80)
        by_line = {}
        for line, name, tname in var_info:
            by_line.setdefault(line, []).append((name, tname))
        lines = linecache.getlines(code.co_filename)
        first = code.co_firstlineno
        while first <= len(lines) and lines[first - 1].lstrip().startswith("@"):
            first += 1
        last = max([first] + [ln for ln in by_line]) if lines else first
        # the function's lines: from the def to the last line that is indented deeper
        end = first
        base = len(lines[first - 1]) - len(lines[first - 1].lstrip()) if lines else 0
        for ln in range(first + 1, len(lines) + 1):
            text = lines[ln - 1]
            if text.strip() and len(text) - len(text.lstrip()) <= base and not text.lstrip().startswith(")"):
                break
            end = ln
        end = max(end, last)
        for ln in range(first, end + 1):
            text = lines[ln - 1].rstrip("\n") if ln - 1 < len(lines) else ""
            out.append(f"{ln:5d} | {text}")
            for name, tname in by_line.get(ln, ()):
                out.append(f"      |   # {name}: {tname}")
        out.append("=" * 80)
    text = "\n".join(out) + "\n"
    (file or sys.stdout).write(text)


def listcomp_loop(node, result, serial):
    """``[elt for t in it if c ...]`` as the statement the frontend compiles instead
    (src/frontend/comprehension.c): ``for t' in it: if c': result.append(elt')``, nested per
    ``for`` clause. The targets are renamed (``t$lc3``) so that they do not leak into the
    function's scope, as in Python 3; the first iterable stays in the enclosing scope. Returns
    (the For node, the new local names)."""
    import ast

    names = {}

    class _Rename(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id in names:
                return ast.copy_location(ast.Name(id=names[n.id], ctx=n.ctx), n)
            return n

    gens = node.generators
    for g in gens:
        if g.is_async:
            raise SyntaxError("async comprehensions are not supported")
        for n in ast.walk(g.target):
            if isinstance(n, ast.Name):
                names[n.id] = f"{n.id}$lc{serial}"
    call = ast.Call(func=ast.Attribute(value=ast.Name(id=result, ctx=ast.Load()),
                                       attr="append", ctx=ast.Load()),
                    args=[node.elt], keywords=[])
    for n in (call, call.func, call.func.value):
        ast.copy_location(n, node.elt)
    body = ast.copy_location(ast.Expr(value=call), node.elt)
    for g in reversed(gens):
        for cond in reversed(g.ifs):
            body = ast.copy_location(ast.If(test=cond, body=[body], orelse=[]), cond)
        body = ast.copy_location(
            ast.For(target=g.target, iter=g.iter, body=[body], orelse=[], type_comment=None),
            g.target)
    renamer = _Rename()

    def walk(n, outer):
        if isinstance(n, ast.For):
            if not outer:
                n.iter = renamer.visit(n.iter)
            n.target = renamer.visit(n.target)
            n.body = [walk(s, False) for s in n.body]
        elif isinstance(n, ast.If):
            n.test = renamer.visit(n.test)
            n.body = [walk(s, False) for s in n.body]
        else:
            n = renamer.visit(n)
        return n

    loop = walk(body, True)
    ast.fix_missing_locations(loop)
    return loop, sorted(names.values())


def jitted_lambda(text, func, line, col):
    """A lambda written inside a jitted function (``l.sort(key=lambda x: -x)``), compiled as a
    jitted function of its own: ``text`` (the lambda, ``ast.unparse``'d) is compiled at its own
    line and column of the enclosing function's file, so that kiln finds it there from its
    code object as it finds any lambda. Names in it are the module's globals: a lambda that
    uses the enclosing function's local variables is not supported (its code differs)."""
    from .decorators import njit

    code = func.__code__
    src = "\n" * (line - 1) + "(" + " " * max(col - 1, 0) + text + ")"
    fn = eval(compile(src, code.co_filename, "eval"), func.__globals__)
    return njit(fn)


def genexp_loop(node, serial):
    """``(elt for t in it if c ...)`` consumed where it is made (src/frontend/generators.c): the
    statement the frontend inlines into its consumer, ``for t' in it: if c': yield elt'``, nested
    per ``for`` clause, built and renamed as ``listcomp_loop`` does (targets ``t$lcN``; the first
    iterable stays in the enclosing scope). Returns (the For node, the new local names)."""
    import ast

    yld = ast.copy_location(ast.Yield(value=node.elt), node.elt)
    holder = ast.copy_location(ast.ListComp(elt=yld, generators=node.generators), node)
    loop, names = listcomp_loop(holder, "$unused", serial)
    # listcomp_loop wrapped the yield in `$unused.append(...)`: unwrap it back to `yield elt`
    for n in ast.walk(loop):
        stmts = getattr(n, "body", None)
        if isinstance(stmts, list):
            for i, s in enumerate(stmts):
                if (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                        and s.value.args and isinstance(s.value.args[0], ast.Yield)):
                    stmts[i] = ast.copy_location(ast.Expr(value=s.value.args[0]), s)
    return loop, names


_GEN_SCOPES = ("FunctionDef", "AsyncFunctionDef", "Lambda", "ClassDef")


def generator_refusal(node, why):
    """The first form of a generator function's ``node`` that kiln does not compile, as (the
    ast node, the message), or None: try (its finally would run at the generator's close, not
    where kiln leaves it), ``yield from``, the value of a yield (``send()``)."""
    import ast

    parents = {}
    for n in ast.walk(node):
        for child in ast.iter_child_nodes(n):
            parents[child] = n
    for n in ast.walk(node):
        if n is node or isinstance(n, (ast.FunctionDef, ast.Lambda)):
            continue
        if isinstance(n, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            return n, f"a generator with try/except/finally is not supported ({why})"
        if isinstance(n, ast.YieldFrom):
            return n, "yield from is not supported in generators"
        if isinstance(n, ast.Yield) and not isinstance(parents.get(n), ast.Expr):
            return n, ("the value of a yield expression (generator.send()) is not supported: "
                       "yield may only be a statement")
    return None


def inline_generator(func, serial):
    """The body of the jitted generator function ``func`` ready to be inlined into a consumer
    (src/frontend/generators.c): its own local names (the parameters and every name it assigns)
    renamed ``name$gN`` so that they cannot meet the consumer's. Returns (source info as
    ``find_definition`` gives it but the FunctionDef a renamed copy, the renamed parameter names
    in order, the renamed locals, None) or, for a form kiln does not inline, (source info, None,
    None, (node, message))."""
    import ast
    import copy

    info = find_definition(func)
    node = info[4]
    if not isinstance(node, ast.FunctionDef):
        return info, None, None, (node, "this generator function's definition is not supported")
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    local = set(params)
    parents = {}

    def scan(n, in_scope):
        for child in ast.iter_child_nodes(n):
            parents[child] = n
            nested = type(child).__name__ in _GEN_SCOPES or isinstance(
                child, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))
            if in_scope and isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                local.add(child.id)
            scan(child, in_scope and not nested)

    scan(node, True)
    bad = generator_refusal(node, "kiln inlines generators into their consumer")
    if bad:
        return info, None, None, bad
    names = {name: f"{name}$g{serial}" for name in local}

    class _Rename(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id in names:
                return ast.copy_location(ast.Name(id=names[n.id], ctx=n.ctx), n)
            return n

        def visit_Lambda(self, n):
            return n  # a lambda sees only its parameters and globals

    copy_node = _Rename().visit(copy.deepcopy(node))
    return (info[:4] + (copy_node,), [names[p] for p in params], sorted(names.values()), None)


def render_parallel(func, entries, signature=None, level=None, parallel=False):
    """``Dispatcher.parallel_diagnostics()``: for each compiled signature, the prange loops and
    array expressions the compiler considered, and whether each runs on the thread pool (and
    why not). ``entries`` is ``[(argument types, [(line, col, what, parallel, why)])]``.
    Prints to stdout, as Numba does; level 1 to 4 are accepted (level >= 2 adds columns)."""
    level = 1 if level is None else level
    if not isinstance(level, int) or not 1 <= level <= 4:
        raise ValueError(f"Report level unknown, should be one of 1, 2, 3, 4, not {level!r}")
    wanted = to_keys(signature) if signature is not None else None
    out = []
    for args, notes in entries:
        if wanted is not None and tuple(getattr(t, "key", t) for t in args) != wanted:
            continue
        sig = ", ".join(str(t) for t in args)
        out.append("=" * 80)
        out.append(f" Parallel Accelerator Optimizing:  Function {func.__qualname__} ({sig})")
        out.append("=" * 80)
        if not parallel:
            out.append("Function was not compiled with parallel=True.")
            continue
        if not notes:
            out.append("No source code available to parallelise, or no prange loops or array "
                       "expressions were found.")
            continue
        for line, col, what, par, why in notes:
            where = f"line {line}" + (f", column {col}" if level >= 2 else "")
            state = "parallel" if par else "serial"
            out.append(f"{where}: {what}: {state}" + (f" ({why})" if why else ""))
    print("\n".join(out))
