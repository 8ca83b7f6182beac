"""Bad input and diagnostics (issue 10): each construct still unsupported is an
UnsupportedError at its line and column, and a type mismatch between branches names both
assignments with their lines."""

import re

import pytest

import kiln
from kiln.errors import TypingError, UnsupportedError

njit = kiln.njit


def kwargs_param(**kw):
    return 1


def class_inside(n):
    class A:
        pass
    return n


def match_stmt(n):
    match n:
        case 1:
            return 2
    return 0


async def async_def(n):
    return n


def async_inner(n):
    async def g():
        pass
    return n


def with_stmt(n):
    with open("x") as f:
        pass
    return n


def import_inside(n):
    import math
    return n


def nonlocal_write():
    y = 1

    def h(n):
        nonlocal y
        y = n
        return y
    return h


def _line_of(f, text):
    import inspect
    lines, first = inspect.getsourcelines(f)
    for i, line in enumerate(lines):
        if text in line:
            return first + i, line.index(text.lstrip()) + 1
    raise AssertionError(text)


@pytest.mark.parametrize("f, args, text, what", [
    (kwargs_param, (), "kw)", r"\*\*kw parameters"),
    (class_inside, (1,), "class A", "class definitions inside jitted functions"),
    (match_stmt, (1,), "match n", "match statements"),
    (async_def, (1,), "async def async_def", "async functions"),
    (async_inner, (1,), "async def g", "async functions"),
    (import_inside, (1,), "import math", "import inside jitted functions"),
])
def test_unsupported_at_position(f, args, text, what):
    line, col = _line_of(f, text)
    with pytest.raises(UnsupportedError) as e:
        njit(f)(*args)
    msg = str(e.value)
    assert re.search(rf"test_unsupported.py:{line}:{col}: error: .*{what}", msg), msg


def test_with_is_rejected_clearly():
    with pytest.raises(UnsupportedError, match="with statements are not supported"):
        njit(with_stmt)(1)


def test_nonlocal_write_is_unsupported():
    with pytest.raises(UnsupportedError, match="assigning to the nonlocal variable 'y'"):
        njit(nonlocal_write())(1)


def branch_mismatch(c):
    if c:
        x = 1
    else:
        x = "a"
    return x


def test_branch_type_mismatch_names_both_assignments():
    one, _ = _line_of(branch_mismatch, "x = 1")
    other, _ = _line_of(branch_mismatch, 'x = "a"')
    with pytest.raises(TypingError) as e:
        njit(branch_mismatch)(1)
    msg = str(e.value)
    assert f"test_unsupported.py:{other}:" in msg and "int64" in msg and "str" in msg, msg
    assert f"test_unsupported.py:{one})" in msg, msg  # the note at the other assignment


def loop_mismatch(n):
    y = 0.5
    for i in range(n):
        y = "s"
    return y


def test_loop_type_mismatch_names_both_assignments():
    one, _ = _line_of(loop_mismatch, "y = 0.5")
    other, _ = _line_of(loop_mismatch, 'y = "s"')
    with pytest.raises(TypingError) as e:
        njit(loop_mismatch)(1)
    msg = str(e.value)
    assert f":{other}:" in msg and f"test_unsupported.py:{one})" in msg, msg
