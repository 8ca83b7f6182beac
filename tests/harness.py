"""Differential test harness: CPython is the oracle.

``check(pyfunc, *args, **kwargs)`` compiles ``kiln.njit(pyfunc)`` (once per Python function, so
Hypothesis examples reuse the compiled code), runs the interpreted and the compiled function on
the same arguments and compares the outcomes:

* results are compared *type-aware*: an ``int`` must come back as ``int`` (not ``bool``, not a
  NumPy scalar), a ``float`` as ``float``, a ``bool`` as ``bool``, a ``complex`` as ``complex``,
  tuples element by element, ``None`` as ``None``, ranges as equal ranges;
* floats are compared bit-exactly (NaN equals NaN, and the sign of a zero counts), unless
  ``approx=True`` is given, which allows a few ulps (``math.isclose(rel_tol=1e-15)``) for
  functions such as ``math.sin`` whose last bit depends on the libm;
* exceptions must have the same class and the same ``args`` (hence the same message).

Where Numba deliberately differs from CPython (64-bit integer wraparound, type unification of
``int`` with ``float`` to ``float64``, ...), a test passes ``expected=`` with a value it
*computes* (with the helpers below or with NumPy), never a magic number. ``expected`` may be an
exception instance, meaning "must raise exactly this".

Diagnostics helpers (``locate``, ``assert_diagnostic``) compute expected line and column
numbers from the test's own source, so editing a test file never breaks them.
"""

import importlib
import inspect
import math
import os
import sys
import warnings

import numpy as np

import kiln

__all__ = [
    "HSET", "check", "compiled", "same", "run", "wrap_int64", "wrap_uint64", "np_scalar_op",
    "f32", "locate", "assert_diagnostic", "INT64_MIN", "INT64_MAX", "UINT64_MAX", "load_module",
]

INT64_MIN = -(2 ** 63)
INT64_MAX = 2 ** 63 - 1
UINT64_MAX = 2 ** 64 - 1

try:  # Hypothesis settings shared by the arithmetic tests (the suite must stay fast).
    from hypothesis import settings as _settings

    HSET = _settings(max_examples=50, deadline=None)
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    HSET = None

_MISSING = object()
_COMPILED = {}


# --------------------------------------------------------------------------------------------
# Numba-semantics helpers: expected values are computed, never hard-coded.

def wrap_int64(x):
    """The int64 value congruent to the Python int ``x`` modulo 2**64 (two's complement)."""
    return (x - INT64_MIN) % (2 ** 64) + INT64_MIN


def wrap_uint64(x):
    """The uint64 value congruent to the Python int ``x`` modulo 2**64."""
    return x % (2 ** 64)


def np_scalar_op(op, *operands):
    """Apply ``op`` to NumPy scalars with overflow warnings silenced; return the NumPy result."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return op(*operands)


def f32(x):
    """Round a Python float to float32 and back: the value a float32 result must have."""
    return float(np.float32(x))


# --------------------------------------------------------------------------------------------
# Arrays in every layout.

LAYOUTS = ["C", "F", "strided", "reversed"]


def arr(values, dtype, layout="C"):
    """``values`` as an array of ``dtype`` in ``layout``: C, F, strided (every other element
    of a bigger array along each axis) or reversed (negative strides). Casting warnings (nan to
    int) are silenced: the values are test data."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = np.array(values).astype(dtype)
    if layout == "C":
        return np.ascontiguousarray(a)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided":
        big = np.zeros(tuple(2 * n for n in a.shape), dtype)
        view = big[tuple(slice(None, None, 2) for _ in a.shape)]
        view[...] = a
        return view
    if layout == "reversed":
        rev = tuple(slice(None, None, -1) for _ in a.shape)
        return np.ascontiguousarray(a[rev])[rev]
    raise ValueError(layout)


# --------------------------------------------------------------------------------------------
# Running and comparing.

def compiled(pyfunc):
    """``kiln.njit(pyfunc)``, built once per Python function and reused."""
    disp = _COMPILED.get(pyfunc)
    if disp is None:
        disp = _COMPILED[pyfunc] = kiln.njit(pyfunc)
    return disp


def run(func, *args, **kwargs):
    """Call ``func``; return ``("ok", value)`` or ``("raise", exception)``."""
    try:
        return ("ok", func(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - any exception is an outcome to compare
        return ("raise", exc)


def _same_float(got, want, approx, path):
    assert type(got) is float, f"{path}: expected a Python float, got {type(got).__name__} {got!r}"
    if math.isnan(want):
        assert math.isnan(got), f"{path}: expected nan, got {got!r}"
        return
    if approx and math.isfinite(want):
        tol = 1e-15 if approx is True else approx
        assert math.isclose(got, want, rel_tol=tol, abs_tol=1e-300), \
            f"{path}: {got!r} is not within {tol} of {want!r}"
        return
    assert got == want, f"{path}: expected {want!r}, got {got!r}"
    assert math.copysign(1.0, got) == math.copysign(1.0, want), \
        f"{path}: sign of zero differs: expected {want!r}, got {got!r}"


def same(got, want, approx=False, path="result"):
    """Assert that ``got`` equals ``want`` in value and in Python type (see module doc)."""
    if isinstance(want, bool):
        assert type(got) is bool, f"{path}: expected a bool, got {type(got).__name__} {got!r}"
        assert got == want, f"{path}: expected {want!r}, got {got!r}"
    elif isinstance(want, int):
        assert type(got) is int, f"{path}: expected an int, got {type(got).__name__} {got!r}"
        assert got == want, f"{path}: expected {want!r}, got {got!r}"
    elif isinstance(want, float):
        _same_float(got, float(want), approx, path)
    elif isinstance(want, complex):
        assert type(got) is complex, \
            f"{path}: expected a complex, got {type(got).__name__} {got!r}"
        if approx and math.isfinite(abs(want)) and math.isfinite(abs(got)):
            tol = 1e-15 if approx is True else approx
            assert abs(got - want) <= tol * abs(want) + 1e-300, \
                f"{path}: {got!r} is not within {tol} of {want!r}"
            return
        _same_float(got.real, want.real, approx, path + ".real")
        _same_float(got.imag, want.imag, approx, path + ".imag")
    elif isinstance(want, tuple):
        assert type(got) is tuple, f"{path}: expected a tuple, got {type(got).__name__} {got!r}"
        assert len(got) == len(want), f"{path}: expected {len(want)} items, got {got!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, approx, f"{path}[{i}]")
    elif isinstance(want, list):
        assert type(got) is list, f"{path}: expected a list, got {type(got).__name__} {got!r}"
        assert len(got) == len(want), f"{path}: expected {len(want)} items, got {got!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, approx, f"{path}[{i}]")
    elif want is None:
        assert got is None, f"{path}: expected None, got {got!r}"
    elif isinstance(want, range):
        assert type(got) is range, f"{path}: expected a range, got {type(got).__name__} {got!r}"
        assert got == want, f"{path}: expected {want!r}, got {got!r}"
    else:  # pragma: no cover - tests only return the kinds above
        assert type(got) is type(want) and got == want, f"{path}: expected {want!r}, got {got!r}"


def same_exception(got, want, exc_msg=True):
    assert type(got) is type(want), \
        f"expected {type(want).__name__}{want.args!r}, got {type(got).__name__}: {got}"
    if exc_msg:
        assert got.args == want.args, \
            f"{type(want).__name__}: expected args {want.args!r}, got {got.args!r}"


def check(pyfunc, *args, expected=_MISSING, approx=False, exc_msg=True, cfunc=None, **kwargs):
    """Run ``pyfunc`` interpreted and compiled with the same arguments and compare outcomes.

    ``expected``: the outcome to require instead of CPython's (a value, or an exception
    instance meaning "raises exactly this"); use it only where Numba deliberately differs.
    ``approx``: allow a few ulps on floats (``True``: rel_tol=1e-15; a float: that rel_tol;
    complex results compare ``abs(got - want)`` against ``rel_tol * abs(want)``).
    ``exc_msg=False``: compare exception classes only.
    ``cfunc``: the compiled function to use (default: ``compiled(pyfunc)``).
    Returns the compiled result.
    """
    if cfunc is None:
        cfunc = compiled(pyfunc)
    if expected is _MISSING:
        want = run(pyfunc, *args, **kwargs)
    elif isinstance(expected, BaseException):
        want = ("raise", expected)
    else:
        want = ("ok", expected)
    got = run(cfunc, *args, **kwargs)
    call = f"{getattr(pyfunc, '__name__', pyfunc)}{args!r}"
    if want[0] == "raise":
        assert got[0] == "raise", \
            f"{call}: expected {type(want[1]).__name__}: {want[1]}, got result {got[1]!r}"
        same_exception(got[1], want[1], exc_msg)
        return got[1]
    if got[0] == "raise":
        raise AssertionError(f"{call}: expected {want[1]!r}, got "
                             f"{type(got[1]).__name__}: {got[1]}") from got[1]
    same(got[1], want[1], approx, path=call)
    return got[1]


# --------------------------------------------------------------------------------------------
# Diagnostics: positions computed from the test's own source.

def locate(func, snippet, nth=1):
    """(line, col) of the ``nth`` line of ``func``'s source containing ``snippet``.

    Lines are 1-based lines of the real file; ``col`` is the 1-based column where ``snippet``
    starts on that line.
    """
    lines, first = inspect.getsourcelines(func)
    seen = 0
    for i, text in enumerate(lines):
        if snippet in text:
            seen += 1
            if seen == nth:
                return first + i, text.index(snippet) + 1
    raise LookupError(f"{snippet!r} not found in the source of {func.__name__}")


def _source_line(func, line):
    lines, first = inspect.getsourcelines(func)
    return lines[line - first].rstrip("\n")


def assert_diagnostic(exc, cls, func, snippet, contains=(), nth=1, cols=()):
    """Check a compile error: class, position, message parts and rendering.

    ``exc``: the raised exception; ``cls``: the kiln error class (or tuple of classes) it must
    be an instance of; ``func``: the Python function compiled (its source gives the expected
    position); ``snippet``: the text the error must point at, its first character being the
    expected column (a tuple of snippets: any one of them); ``contains``: strings the bare
    message must contain, case-insensitively (an item that is a tuple: any one of them);
    ``cols``: extra snippets on the same line whose start column is also accepted.
    """
    assert isinstance(exc, kiln.errors.KilnError), f"{type(exc).__name__} is not a KilnError"
    assert isinstance(exc, cls), f"expected {cls}, got {type(exc).__name__}: {exc}"
    snippets = snippet if isinstance(snippet, tuple) else (snippet,)
    accepted = set()
    for snip in snippets:
        line, col = locate(func, snip, nth)
        accepted.add((line, col))
        for extra in cols:
            text = _source_line(func, line)
            if extra in text:
                accepted.add((line, text.index(extra) + 1))
    assert (exc.line, exc.col) in accepted, \
        f"position: expected one of {sorted(accepted)}, got {(exc.line, exc.col)}:\n{exc}"
    assert exc.end_line is not None and exc.end_col is not None
    assert (exc.end_line, exc.end_col) >= (exc.line, exc.col), \
        f"end {(exc.end_line, exc.end_col)} before start {(exc.line, exc.col)}"
    want_file = os.path.realpath(func.__code__.co_filename)
    assert os.path.realpath(exc.filename) == want_file, \
        f"filename: expected {want_file}, got {exc.filename}"
    for part in contains:
        options = part if isinstance(part, tuple) else (part,)
        assert any(o.lower() in exc.msg.lower() for o in options), \
            f"message {exc.msg!r} lacks {' or '.join(map(repr, options))}"
    assert isinstance(exc.notes, list)
    assert_rendered(exc, func, exc.line, exc.col)


def assert_rendered(exc, func, line, col):
    """str(exc) shows ``file:line:col``, the source line and a caret under column ``col``."""
    text = str(exc)
    base = os.path.basename(exc.filename)
    assert f"{base}:{line}:{col}" in text, f"{base}:{line}:{col} not in:\n{text}"
    src = _source_line(func, line)
    rendered = text.splitlines()
    for i, shown in enumerate(rendered[:-1]):
        if src.strip() and src.strip() in shown:
            caret = rendered[i + 1]
            assert caret.strip().startswith("^"), f"no caret line under the source in:\n{text}"
            at = caret.index("^")
            # The caret stands under the offending column, whatever indentation is shown.
            shift = shown.index(src.strip()) - (len(src) - len(src.lstrip()))
            assert at - shift == col - 1, f"caret at {at - shift + 1}, expected {col}:\n{text}"
            return
    raise AssertionError(f"source line {src.strip()!r} not shown in:\n{text}")


def load_module(tmp_path, name, source):
    """Write ``source`` as module ``name`` under ``tmp_path`` and import it (kiln reads a
    function's source from its file), leaving sys.path and sys.modules as they were."""
    (tmp_path / f"{name}.py").write_text(source)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)
