"""Issue 9 leftovers for str.format and f-strings: !a (ascii()), attribute and index fields.

CPython is the oracle; texts are non-ASCII where text is involved.
"""

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check


@pytest.mark.parametrize("s", ["abc", "héllo", "日本語", "a😀'b\\", "\x7f\t\n", "ÿ\u0100\"'"])
def test_ascii_conversion(s):
    def f(x):
        return f"{x!a}", "{!a:>30}".format(x), ascii(x), "{0!a}-{0!r}".format(x)
    check(f, s)


def test_ascii_of_numbers():
    def f(i, x, b):
        return ascii(i), ascii(x), ascii(b), f"{x!a}"
    check(f, -12, 1.5e300, True)


def test_index_fields():
    def f(t, l, s):
        return ("{0[1]} {0[0]:>5}".format(t), "{[0]}|{[1]}".format(l, s), "{x[2]}".format(x=l),
                "{0[1][0]}".format((l, t)))
    check(f, (1, 2.5), [3, 4, 5], "ждёт")


def test_dict_index_fields():
    def f(k):
        d = {"ключ": 1.5, "b": 2.0}
        e = {1: "é"}
        return "{0[ключ]:.2f} {0[b]} {1[1]}".format(d, e), k
    check(f, 0)


def test_attribute_fields():
    def f(x, z, a):
        return "{0.real} {0.imag} {1.real:.1f} {2.shape[0]} {2.ndim}".format(x, z, a)
    check(f, 2.5, 1 + 2j, np.zeros(4))


def test_index_field_errors():
    def f(t):
        return "{0[5]}".format(t)
    check(f, [1, 2])  # IndexError at run time, as CPython (a tuple's is a typing error, as t[5])

    def g(d):
        x = {"a": 1}
        return "{0[zz]}".format(x), d
    check(g, 0)  # KeyError('zz')


def test_bad_attribute_field():
    def f(x):
        return "{0.nope}".format(x)

    with pytest.raises(kiln.errors.KilnError) as e:
        kiln.njit(f)(1.5)
    assert_diagnostic(e.value, kiln.errors.KilnError, f, '"{0.nope}"', contains=("nope",))


# ---- str.format on a format string known only at run time ----

def run_format(fmt, a, b, c):
    return fmt.format(a, b, c)


RUNTIME_FORMATS = [
    "{} {} {}", "{0}|{1!r}|{2!a}", "{2:>8}{0:+d}{1:^9}", "x{{y}}z{}{}{}", "ж{1}ж{0}ж{2:.3f}",
    "{2:_>{0}}{1}", "{1:{0}}{2}", "{1:*^{0}.{0}}", "", "no fields at all: ünï", "{!s:5}{!r}{!a}",
    "{0:x}{0:o}{0:b}{0:#x}", "{2:e}{2:%}{2:g}",
]


@pytest.mark.parametrize("fmt", RUNTIME_FORMATS)
def test_runtime_format_string(fmt):
    check(run_format, fmt, 42, "héllo", 2.5)


def test_runtime_format_keywords_and_bools():
    def f(fmt, x):
        return fmt.format(x, True, name="日本", val=x * 1.5)
    check(f, "{name}:{val:.2f}:{0}:{1}:{1:d}:{name!r}", 7)
    check(f, "{val}{name:>5}", -3)


RUNTIME_FORMAT_ERRORS = [
    "}", "{", "ab{", "{0", "{0:{", "{0}{}", "{}{0}", "{!x}", "{!", "{!rx}", "{:{:{}}}",
    "{5}", "{missing}", "{:q}", "{2:d}", "{1:+}", "{!}", "{:}}",
    "{0[}",
]


@pytest.mark.parametrize("fmt", RUNTIME_FORMAT_ERRORS)
def test_runtime_format_errors(fmt):
    # CPython's exception class and message; kiln's format-spec errors keep format()'s generic
    # messages ("Invalid format specifier", docs/internals.md), and CPython's conversion error
    # names the character
    msg = fmt not in ("{!x}", "{:q}", "{2:d}", "{1:+}")
    check(run_format, fmt, 42, "héllo", 2.5, exc_msg=msg)


@pytest.mark.parametrize("fmt", ["{0[1]}", "{0.real}", "{1[0]}"])
def test_runtime_format_field_access_refused(fmt):
    # kiln compiles attribute and index fields only in literal format strings
    with pytest.raises(ValueError, match="literal format string"):
        kiln.njit(run_format)(fmt, 42, "héllo", 2.5)


def test_runtime_format_missing_key_message():
    def f(fmt):
        return fmt.format(1, ключ=2)
    check(f, "{ключ}{другой}")


def test_runtime_format_in_a_loop():
    def f(fmts, n):
        out = []
        for i in range(n):
            for s in fmts:
                out.append(s.format(i, str(i) + "é", i / 3))
        return out
    check(f, ["{}-{}-{:.2f}", "{2:>10.4}{1!r}"], 20)


def test_runtime_format_bad_argument():
    def f(fmt, a):
        return fmt.format(a)

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(f)("{}", [1])
    assert_diagnostic(e.value, kiln.errors.TypingError, f, "a)", nth=2,
                      contains=("list(int64)",))
