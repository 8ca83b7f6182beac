"""kiln.extending from a user's point of view: overload of a pure-Python function (with a default
and a keyword argument), overload_method and overload_attribute on arrays, used from jitted
code, compiled once per signature, with errors at the implementation's own file:line:col and a
note at the call site."""

import numpy as np
import pytest

import kiln
from harness import load_module, locate
from kiln.extending import overload, overload_attribute, overload_method, types

SOURCE = '''\
import numpy as np
from kiln.extending import overload, overload_attribute, overload_method, types

calls = []


def scale(x, factor=2, offset=0):
    return x * factor + offset


@overload(scale)
def _scale(x, factor=None, offset=None):
    calls.append((x, factor, offset))
    if isinstance(x, (types.Integer, types.Float)):
        def impl(x, factor=2, offset=0):
            return x * factor + offset
        return impl
    if isinstance(x, types.UnicodeType):
        def bad(x, factor=2, offset=0):
            return x - factor
        return bad


@overload_method(types.Array, "total_abs")
def _total_abs(a, start=None):
    calls.append(("total_abs", a, start))
    def impl(a, start=0.0):
        s = start
        for v in a.ravel():
            s += abs(v)
        return s
    return impl


@overload_attribute(types.Array, "span")
def _span(a):
    calls.append(("span", a))
    def impl(a):
        return a.max() - a.min()
    return impl
'''


@pytest.fixture(scope="module")
def ext(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("ext"), "user_ext", SOURCE)


def test_overload_of_a_python_function_defaults_and_keywords(ext):
    def use(x):
        return ext.scale(x), ext.scale(x, 3), ext.scale(x, offset=1), ext.scale(x, factor=4,
                                                                                 offset=5)

    f = kiln.njit(use)
    for x in (3, 2.5, -7):
        assert f(x) == use(x)


def test_overload_method_and_attribute_on_arrays(ext):
    def use(a):
        return a.total_abs(), a.total_abs(start=1.0), a.span

    f = kiln.njit(use)
    a = np.array([[1.0, -2.0], [3.5, -4.0]])
    for x in (a, np.asfortranarray(a), a[:, ::-1]):
        got = f(x)
        assert got == (np.abs(x).sum(), np.abs(x).sum() + 1.0, x.max() - x.min())


def test_compiled_once_per_signature(ext):
    def one(x):
        return ext.scale(x, offset=1.5)

    def two(x):
        return ext.scale(x, offset=1.5) + 1

    (template,) = kiln.extending._registry[ext.scale].templates
    before = set(template.compiled)
    ext.calls.clear()
    kiln.njit(one)(5)
    kiln.njit(two)(6)
    kiln.njit(one)(7)
    # one typer call for the call shape (int64, offset=float64), whatever the callers
    assert ext.calls == [(types.int64, None, types.float64)]
    (new,) = set(template.compiled) - before  # the implementation it returned, compiled once
    assert len(template.compiled[new].signatures) == 1
    ext.calls.clear()
    g = kiln.njit(lambda a: a.span)
    g(np.ones(3))
    g(np.ones(4))
    kiln.njit(lambda a: a.span * 2)(np.ones(5))
    assert ext.calls == [("span", types.float64[::1])]


def test_error_in_an_implementation_points_into_it_with_a_note_at_the_call(ext):
    def use(s):
        return ext.scale("text")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(use)(1)
    e = info.value
    assert e.filename == ext.__file__
    line = SOURCE.splitlines().index("            return x - factor") + 1
    assert (e.line, e.col) == (line, SOURCE.splitlines()[line - 1].index("x - factor") + 1)
    text = str(e)
    call_line, _ = locate(use, "ext.scale(")
    assert f"in the call of" in text and f"{__file__.split('/')[-1]}:{call_line}" in \
        text.split("note:", 1)[1]


def test_typer_returning_none_is_a_clear_error(ext):
    def use(t):
        return ext.scale(t)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(use)((1, 2))
    assert "scale() does not accept" in str(info.value)
    line, col = locate(use, "ext.scale(")
    assert (info.value.line, info.value.col) == (line, col)


def test_runtime_error_in_an_overload_has_a_note_at_the_call():
    def checked(x):
        return x

    @overload(checked)
    def _checked(x):
        def impl(x):
            if x < 0:
                raise ValueError("negative")
            return x
        return impl

    def use(x):
        return checked(x) + 1

    f = kiln.njit(use)
    assert f(2) == 3
    with pytest.raises(ValueError, match="negative") as info:
        f(-1)
    notes = getattr(info.value, "__notes__", None)
    if notes is not None:
        line, _ = locate(use, "checked(x)")
        assert notes[-1] == f"called from {__file__}:{line}"
        assert notes[0].startswith(f"raised by kiln-compiled code at {__file__}:")


def test_constant_str_argument_reaches_the_typer_as_a_literal():
    def pick(x, how):
        return x

    seen = []

    @overload(pick)
    def _pick(x, how=None):
        seen.append(how)
        if isinstance(how, types.StringLiteral) and how.literal_value == "double":
            return lambda x, how: x * 2
        return lambda x, how: x

    def use(x):
        return pick(x, "double"), pick(x, how="same")

    assert kiln.njit(use)(4) == (8, 4)
    assert [h.literal_value for h in seen] == ["double", "same"]
    assert isinstance(seen[0], types.UnicodeType)


# ---- bad input to the extension API itself ----


def test_overload_method_needs_a_type_class():
    with pytest.raises(TypeError, match="kiln.types type class"):
        @overload_method(int, "twice")
        def _twice(x):
            return None


def test_inline_must_be_never_always_or_a_function():
    def target(x):
        return x

    with pytest.raises(ValueError, match="inline must be"):
        overload(target, inline="sometimes")


def test_typer_returning_a_non_function_is_a_typing_error_at_the_call():
    def target(x):
        return x

    @overload(target)
    def _target(x):
        return 42

    def use(x):
        return target(x)

    with pytest.raises(kiln.errors.TypingError, match="returned 42, not a function") as info:
        kiln.njit(use)(1)
    assert (info.value.line, info.value.col) == locate(use, "target(x)")


def test_typer_raising_is_a_typing_error_at_the_call():
    def target(x):
        return x

    @overload(target)
    def _target(x):
        raise TypeError("target wants a float")

    def use(x):
        return target(x)

    with pytest.raises(kiln.errors.TypingError, match="target wants a float") as info:
        kiln.njit(use)(1)
    assert (info.value.line, info.value.col) == locate(use, "target(x)")


def test_call_missing_an_argument_of_the_implementation():
    def target(x, y):
        return x + y

    @overload(target)
    def _target(x, y=None):
        def impl(x, y):
            return x + y
        return impl

    def use(x):
        return target(x)

    with pytest.raises(kiln.errors.TypingError, match="missing a required argument") as info:
        kiln.njit(use)(1)
    assert (info.value.line, info.value.col) == locate(use, "target(x)")


def test_method_called_with_too_many_arguments(ext):
    def use(a):
        return a.total_abs(1, 2, 3)

    with pytest.raises(kiln.errors.TypingError, match="takes from 1 to 2 positional") as info:
        kiln.njit(use)(np.arange(3.0))
    assert (info.value.line, info.value.col) == locate(use, "a.total_abs(")
