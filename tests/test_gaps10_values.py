"""Issue 10 gaps closed after the merges: print() and isinstance() of optional values,
isinstance() of enum members and namedtuples, numba.literal_unroll / numba.literally when the
user has imported numba, `mod.literal_unroll(t)` as a loop's iterable.

CPython is the oracle: each compiled function is compared with the interpreted one (print's
output through capsys).
"""

import collections
import enum
import sys
import types

import pytest

import kiln
from harness import assert_diagnostic, check


def maybe(n):
    x = None
    if n > 0:
        x = n
    return x


def print_optional(n):
    x = None
    if n > 0:
        x = n
    y = None
    if n > 1:
        y = "s" + str(n)
    print(x, y, (x, 1.5))
    return 0


@pytest.mark.parametrize("n", [-1, 1, 3])
def test_print_of_an_optional_is_none_or_the_value(capsys, n):
    print_optional(n)
    want = capsys.readouterr().out
    kiln.njit(print_optional)(n)
    assert capsys.readouterr().out == want


NoneType = type(None)


def isinstance_optional(n):
    x = None
    if n > 0:
        x = n
    return (isinstance(x, int), isinstance(x, float), isinstance(x, NoneType),
            isinstance(x, (int, NoneType)))


@pytest.mark.parametrize("n", [-1, 0, 4])
def test_isinstance_of_an_optional(n):
    check(isinstance_optional, n)


def test_print_of_an_optional_tuple_inside_a_tuple_is_an_error():
    def f(n):
        t = None
        if n > 0:
            t = (n, n)
        print((t, 1))

    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(f)(1)
    assert_diagnostic(ei.value, kiln.errors.TypingError, f, "print((t, 1))", contains=("print",))


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Shape(enum.Enum):
    CIRCLE = 1


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 5


Point = collections.namedtuple("Point", "x y")
Other = collections.namedtuple("Other", "x y")


def isinstance_members(c, l, p):
    return (isinstance(c, Color), isinstance(c, Shape), isinstance(c, int), isinstance(l, Level),
            isinstance(l, int), isinstance(l, Color), isinstance(p, Point), isinstance(p, Other),
            isinstance(p, tuple), isinstance(Color.GREEN, Color), isinstance((1, 2), Point))


@pytest.mark.parametrize("c", [Color.RED, Color.GREEN])
def test_isinstance_of_enum_members_and_namedtuples(c):
    check(isinstance_members, c, Level.HIGH, Point(1, 2.5))


def enum_call(n):
    return Color(n)


def enum_call_int(n):
    m = Level(n)
    return m == Level.HIGH, m + 1, m.name


def enum_call_caught(n):
    try:
        return Color(n).value
    except ValueError:
        return -1


@pytest.mark.parametrize("n", [1, 2, 5, True])
def test_calling_an_enum_class_with_a_value(n):
    check(enum_call, n)  # n = 5: ValueError('5 is not a valid Color'), as CPython
    check(enum_call_caught, n)


@pytest.mark.parametrize("n", [1, 5, 3])
def test_calling_an_intenum_class_with_a_value(n):
    check(enum_call_int, n)


def test_calling_an_enum_class_with_two_arguments_is_an_error():
    def f(n):
        return Color(n, 2)

    with pytest.raises(kiln.errors.UnsupportedError) as ei:
        kiln.njit(f)(1)
    assert_diagnostic(ei.value, kiln.errors.UnsupportedError, f, "Color(n, 2)", contains=("enum",))


try:
    import numba
except ImportError:  # kiln only looks the names up in sys.modules: a stand-in does as well
    numba = None
# one stand-in for the whole run: kiln maps numba's names once, the first time it sees numba
_NUMBA_STAND_IN = types.ModuleType("numba")
_NUMBA_STAND_IN.literal_unroll = lambda t: t
_NUMBA_STAND_IN.literally = lambda x: x


@pytest.fixture
def numba_names(monkeypatch):
    """numba in sys.modules and in this module: the real one where it is installed, else a
    stand-in module with literal_unroll and literally (identities, as they are in Python)."""
    if numba is None:
        monkeypatch.setitem(sys.modules, "numba", _NUMBA_STAND_IN)
        monkeypatch.setitem(globals(), "numba", _NUMBA_STAND_IN)
    return sys.modules["numba"]


def nb_unroll(n):
    s = 0.0
    for v in numba.literal_unroll((1, 2.5, True)):
        s += v * n
    return s


def nb_unroll_name(n):
    s = 0.0
    for v in numba.literal_unroll((1, 2.5)):
        s += v
    return s + numba.literally(n)


def kiln_unroll_attr(n):
    s = 0
    for v in kiln.literal_unroll((n, 2.5, "ab")):
        s += len(str(v))
    return s


@pytest.mark.parametrize("f", [nb_unroll, nb_unroll_name, kiln_unroll_attr])
def test_numba_literal_unroll_and_literally(f, numba_names):
    assert sys.modules["numba"] is numba_names
    check(f, 3)


def test_literally_is_the_value():
    def f(s):
        return kiln.literally(s) + "!"

    check(f, "ab")


def test_enum_keyed_typed_dict_from_the_interpreter():
    from kiln import typed

    d = typed.Dict()
    d[Color.RED] = 1
    d[(Color.GREEN)] = 2

    @kiln.njit
    def read_and_add(d, c):
        d[Color.GREEN] = d[Color.GREEN] + 10
        d[c] = 7
        return d[Color.RED]

    pd = {Color.RED: 1, Color.GREEN: 2}
    assert read_and_add(d, Color.RED) == read_and_add.py_func(pd, Color.RED)
    assert dict(d.items()) == pd and Color.GREEN in d and d[Color.GREEN] == pd[Color.GREEN]


def gen_pairs(n):
    for i in range(n):
        yield i * 2


gen_pairs_jit = kiln.njit(gen_pairs)


def consume_in_zip_and_enumerate(n):
    s = 0
    for a, b in zip(gen_pairs_jit(n), range(10, 20)):
        s += a * b
    for i, v in enumerate(gen_pairs_jit(n), 1):
        s += i * v
    return s


@pytest.mark.parametrize("n", [0, 4])
def test_generator_values_in_zip_and_enumerate(n):
    assert kiln.njit(consume_in_zip_and_enumerate)(n) == consume_in_zip_and_enumerate(n)
