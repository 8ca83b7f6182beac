"""Bad input: every unsupported construct and every type error is a KilnError at the right place.

Positions are 1-based lines of this file and 1-based columns of the offending construct's first
character. They are computed from this file's own source (``harness.locate``) so that editing
the file never breaks them. Each error's ``str()`` must show ``file:line:col``, the source line
and a caret under the column (``harness.assert_rendered``). After an error nothing has crashed:
the dispatcher still compiles for other argument types.

Constructs rejected here are those kiln's first version does not compile. Numba compiles some of
them; when kiln grows them, their cases move to the feature tests (``try`` moved to
tests/test_try.py, generators to tests/test_generators.py,
``test_generator_moved_from_diagnostics``).
"""

import contextlib

import pytest

import kiln
from harness import assert_diagnostic, assert_rendered, locate

TypingError = kiln.errors.TypingError
UnsupportedError = kiln.errors.UnsupportedError
EITHER = (TypingError, UnsupportedError)

CONTEXT = contextlib.nullcontext()
SOME_GLOBAL = 0


def _compile_error(func, *args):
    """Compile ``func`` for ``args``; return the KilnError raised (at decoration or call)."""
    with pytest.raises(kiln.errors.KilnError) as info:
        kiln.njit(func)(*args)
    return info.value


# --- type errors --------------------------------------------------------------------------

def add_int_str(x):
    y = x * 2
    return y + "text"


def test_add_int_and_str():
    err = _compile_error(add_int_str, 1)
    assert_diagnostic(err, TypingError, add_int_str, 'y + "text"', cols=['"text"'],
                      contains=["int64", "str"])


def undefined_name(x):
    return x + zzz_undefined  # noqa: F821 - the point of the test


def test_undefined_name():
    err = _compile_error(undefined_name, 1)
    assert_diagnostic(err, EITHER, undefined_name, "zzz_undefined",
                      contains=["zzz_undefined", ("undefined", "not defined")])


def bad_attribute(x):
    return x.no_such_attribute + 1


def test_unknown_attribute_of_int():
    err = _compile_error(bad_attribute, 1)
    assert_diagnostic(err, TypingError, bad_attribute, "x.no_such_attribute",
                      contains=["no_such_attribute", "int64"])


def unify_int_tuple(flag):
    if flag:
        value = 1
    else:
        value = (1, 2)
    return value


def test_unify_int_and_tuple_shows_both_assignments():
    err = _compile_error(unify_int_tuple, True)
    assert isinstance(err, TypingError)
    assert "int64" in err.msg and "tuple" in err.msg.lower()
    first, c1 = locate(unify_int_tuple, "value = 1")
    second, c2 = locate(unify_int_tuple, "value = (1, 2)")
    skip = len("value = ")  # the assignment's start, or the assigned value's start
    assert (err.line, err.col) in {(first, c1), (first, c1 + skip), (second, c2),
                                   (second, c2 + skip)}, str(err)
    shown = {err.line} | {note[2] for note in err.notes}
    assert {first, second} <= shown, f"both assignments must be shown: {err}"
    for note in err.notes:
        assert len(note) == 6  # (message, filename, line, col, end_line, end_col)
    assert_rendered(err, unify_int_tuple, err.line, err.col)


@kiln.njit
def two_args(a, b):
    return a + b


def calls_with_wrong_arity(x):
    return two_args(x) + 1


def test_wrong_number_of_arguments_to_jitted_callee():
    err = _compile_error(calls_with_wrong_arity, 1)
    assert_diagnostic(err, TypingError, calls_with_wrong_arity, "two_args(x)",
                      contains=["argument"])
    assert two_args(1, 2) == 3  # the callee itself is fine


def calls_open(x):
    handle = open("/dev/null")  # noqa: F841
    return x


def test_calling_an_unsupported_python_function():
    err = _compile_error(calls_open, 1)
    assert_diagnostic(err, EITHER, calls_open, 'open("/dev/null")', contains=["open"])


@kiln.njit
def callee_with_error(x):
    return x + "oops"


def calls_bad_callee(x):
    return callee_with_error(x) * 2


def test_error_inside_a_callee_points_into_the_callee():
    err = _compile_error(calls_bad_callee, 1)
    callee = callee_with_error.py_func
    assert_diagnostic(err, TypingError, callee, 'x + "oops"', cols=['"oops"'],
                      contains=["int64", "str"])


# --- the dispatcher survives errors -------------------------------------------------------

def add_any(a, b):
    return a + b


def get_real(x):
    return x.real


def first_item(t):
    return t[0]


@pytest.mark.parametrize("func, bad, good, result, snippet, cols", [
    (add_any, (1, (1, 2)), (1, 2), 3, "a + b", ["b"]),
    (get_real, ((1, 2),), (1.5,), 1.5, "x.real", []),
    (first_item, (5,), ((7, 8.5),), 7, "t[0]", []),
], ids=["add", "attr", "index"])
def test_dispatcher_usable_after_typing_error(func, bad, good, result, snippet, cols):
    f = kiln.njit(func)
    with pytest.raises(TypingError) as info:
        f(*bad)
    assert_diagnostic(info.value, TypingError, func, snippet, cols=cols)
    assert f(*good) == result
    assert len(f.signatures) == 1
    with pytest.raises(TypingError):  # the bad types still fail the same way
        f(*bad)
    assert f(*good) == result


# --- unsupported constructs ---------------------------------------------------------------

def uses_with(x):
    y = x
    with CONTEXT:
        y = x + 1
    return y


def defines_class(x):
    y = x

    class Inner:
        pass

    return y


def assigns_global(x):
    global SOME_GLOBAL
    SOME_GLOBAL = x
    return x


def deletes(x):
    y = x + 1
    del y
    return x


def imports_inside(x):
    y = x + 1
    import os  # noqa: F401
    return y


async def coroutine(x):
    return x


@pytest.mark.parametrize("func, snippet, words", [
    (uses_with, "with CONTEXT:", ["with"]),
    (defines_class, "class Inner:", ["class"]),
    (assigns_global, ("global SOME_GLOBAL", "SOME_GLOBAL = x"), ["global"]),
    (deletes, "del y", ["del"]),
    (imports_inside, "import os", ["import"]),
    (coroutine, "async def coroutine", [("async", "coroutine")]),
], ids=lambda v: getattr(v, "__name__", None) if callable(v) else None)
def test_unsupported_construct(func, snippet, words):
    err = _compile_error(func, 1)
    assert_diagnostic(err, UnsupportedError, func, snippet, contains=words)


def test_unsupported_construct_error_repeats():
    f = kiln.njit(uses_with)
    for _ in range(2):
        with pytest.raises(UnsupportedError) as info:
            f(1)
        assert_diagnostic(info.value, UnsupportedError, uses_with, "with CONTEXT:",
                          contains=["with"])


# --- source and rendering -----------------------------------------------------------------

def test_function_without_source_is_unsupported():
    ns = {}
    exec("def no_source(x):\n    return x + 1\n", ns)
    with pytest.raises(UnsupportedError, match="source"):
        kiln.njit(ns["no_source"])(1)


def test_rendering_shows_position_source_line_and_caret():
    err = _compile_error(add_int_str, 1)
    text = str(err)
    line, _ = locate(add_int_str, 'y + "text"')
    assert f"test_diagnostics.py:{line}:{err.col}" in text
    assert 'return y + "text"' in text
    assert any(row.strip().startswith("^") for row in text.splitlines())
    assert err.msg in text


def nested_indent(x):
    if x > 0:
        for i in range(3):
            if i > 1:
                x = x + (1, 2)
    return x


def test_column_is_relative_to_the_real_file_with_indentation():
    err = _compile_error(nested_indent, 1)
    assert_diagnostic(err, TypingError, nested_indent, "x + (1, 2)", cols=["(1, 2)"],
                      contains=["int64", "tuple"])


class Holder:
    @staticmethod
    def method_like(x):
        return x + "s"


def test_column_for_a_function_indented_in_a_class():
    func = Holder.method_like
    err = _compile_error(func, 1)
    assert_diagnostic(err, TypingError, func, 'x + "s"', cols=['"s"'], contains=["str"])
