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
