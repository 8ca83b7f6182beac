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

__all__ = ["make_error", "from_key", "get_source"]

_KINDS = {"typing": TypingError, "unsupported": UnsupportedError, "lowering": LoweringError}


def make_error(kind, message, filename, line, col, end_line, end_col, notes):
    """The exception (not raised) for one diagnostic of ``_core``."""
    col, end_col = _char_columns(filename, line, col, end_line, end_col)
    fixed = []
    for n_msg, n_file, n_line, n_col, n_end_line, n_end_col in notes or ():
        n_col, n_end_col = _char_columns(n_file, n_line, n_col, n_end_line, n_end_col)
        fixed.append((n_msg, n_file, n_line, n_col, n_end_line, n_end_col))
    return _KINDS.get(kind, KilnError)(message, filename, line, col, end_line, end_col, fixed)


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
    import inspect

    code = getattr(func, "__code__", None)
    name = getattr(func, "__qualname__", repr(func))
    if code is None:
        raise UnsupportedError(f"{name!r} is not a Python function: kiln compiles from source")
    if code.co_name != "<lambda>":
        fast = _fast_source(code)
        if fast is not None:
            return fast
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


def _fast_source(code):
    """The common case without ``inspect`` (whose first use costs milliseconds): the lines from
    ``co_firstlineno`` (the first decorator) to the last line the bytecode covers, extended over
    continuation lines; ``None`` when that block does not parse, and ``inspect`` decides."""
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
    return source, code.co_filename, first, col_offset


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
    prefix, keep = first[:indent], _rows_inside_strings(lines)
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
