"""Runs the self-describing programs in tests/corpus/.

Each ``corpus/*.py`` defines ``main`` (compiled with ``kiln.njit``; helpers it calls may be
decorated with ``@kiln.njit`` in the file) and opens with comment lines:

    # args: (3, 4.5)                 arguments of one call (a Python expression; range() allowed)
    # expect: 7.5                    its result, compared type-aware (harness.same)
    # raises: ValueError: msg        or: the exception class (a builtin or a class defined in
                                     the file) and str() of the exception
    # error: TypingError 5:12        or: a kiln.errors class raised when compiling, at line:col
                                     of the file (1-based)
    # oracle: none                   the expectation is Numba's semantics, not CPython's

``args`` lines pair up, in order, with the ``expect``/``raises``/``error`` line that follows
each. Unless ``oracle: none`` is given, CPython running ``main`` must agree with the header too,
which keeps the corpus itself honest.
"""

import builtins
import importlib.util
import math
import os
import sys
from pathlib import Path

import pytest

import kiln
from harness import same

CORPUS = Path(__file__).parent / "corpus"
_EVAL_NAMES = {"__builtins__": {}, "range": range, "inf": math.inf, "nan": math.nan}


def _parse(path):
    cases, oracle = [], True
    args = None
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        key, _, value = line[1:].strip().partition(":")
        value = value.strip()
        if key == "args":
            args = eval(value, dict(_EVAL_NAMES))  # noqa: S307 - trusted test data
            assert isinstance(args, tuple), f"{path.name}: args must be a tuple"
        elif key in ("expect", "raises", "error"):
            assert args is not None, f"{path.name}: '{key}' without 'args' before it"
            cases.append((args, key, value))
            args = None
        elif key == "oracle":
            oracle = value != "none"
    assert cases, f"{path.name}: no cases in the header"
    return cases, oracle


def _load(path):
    name = f"kiln_corpus_{path.stem}"
    if name not in sys.modules:  # registered like an ordinary import, loaded once
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _exception_matches(exc, value, module):
    name, _, message = value.partition(":")
    cls = getattr(module, name.strip(), None) or getattr(builtins, name.strip())
    assert type(exc) is cls, f"expected {name}, got {type(exc).__name__}: {exc}"
    assert str(exc) == message.strip(), f"expected message {message.strip()!r}, got {str(exc)!r}"


def _run_case(func, args, key, value, module, path):
    if key == "expect":
        same(func(*args), eval(value, dict(_EVAL_NAMES)), path=f"{path.name} main{args!r}")
    elif key == "raises":
        with pytest.raises(Exception) as info:
            func(*args)
        _exception_matches(info.value, value, module)
    else:
        cls_name, where = value.split()
        line, col = (int(n) for n in where.split(":"))
        with pytest.raises(getattr(kiln.errors, cls_name)) as info:
            func(*args)
        err = info.value
        assert (err.line, err.col) == (line, col), f"expected {line}:{col}, got:\n{err}"
        assert os.path.realpath(err.filename) == os.path.realpath(path)
        assert f"{path.name}:{line}:{col}" in str(err)


PROGRAMS = sorted(CORPUS.glob("*.py"))


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_corpus_program(path):
    cases, oracle = _parse(path)
    module = _load(path)
    compiled = kiln.njit(module.main)
    for args, key, value in cases:
        _run_case(compiled, args, key, value, module, path)


def _has_cpython_oracle(path):
    cases, oracle = _parse(path)
    return oracle and any(key != "error" for _, key, _ in cases)


ORACLE_PROGRAMS = [p for p in PROGRAMS if _has_cpython_oracle(p)]


@pytest.mark.parametrize("path", ORACLE_PROGRAMS, ids=[p.stem for p in ORACLE_PROGRAMS])
def test_corpus_header_agrees_with_cpython(path):
    cases, _ = _parse(path)
    module = _load(path)
    for args, key, value in cases:
        if key != "error":  # compile errors have no CPython counterpart
            _run_case(module.main, args, key, value, module, path)


def test_corpus_is_not_empty():
    assert len(PROGRAMS) >= 10
