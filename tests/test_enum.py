"""enum.Enum and enum.IntEnum members in compiled code (issue 10, "Values"): members as
constants and arguments, compared (`==`, `!=`, `is`, `is not`), `.value` and `.name`, returned
(the member itself), IntEnum members used as ints, members as dict keys and set items.

CPython is the oracle: each compiled function is compared with the interpreted one.
"""

import enum

import pytest

import kiln
from harness import assert_diagnostic


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Shape(enum.Enum):
    CIRCLE = 1
    SQUARE = 2


class Level(enum.IntEnum):
    LOW = 10
    HIGH = 20


class Named(enum.Enum):
    A = "a"


def check(f, *args):
    expected = f(*args)
    got = kiln.njit(f)(*args)
    assert type(got) is type(expected) and got == expected, (got, expected)


def classify(c):
    if c == Color.RED:
        return 1
    elif c is Color.GREEN:
        return 2
    elif c is not Color.BLUE:
        return 4
    return 3


def test_compare_members():
    for c in Color:
        check(classify, c)


def attrs(c):
    return c.value, c.name, c != Color.RED


def test_value_and_name():
    for c in Color:
        check(attrs, c)


def constant():
    return Color.BLUE


def identity(c):
    return c


def test_members_come_back_as_members():
    check(constant)
    for c in (Color.GREEN, Level.HIGH, Shape.SQUARE):
        r = kiln.njit(identity)(c)
        assert r is c


def other_types(c, s):
    return c == s, c != s, c == 1, c is Shape.CIRCLE


def test_members_of_other_types_are_unequal():
    check(other_types, Color.RED, Shape.CIRCLE)


def int_enum(l):
    return l + 1, l * 2, l == 10, l > Level.LOW, l.value, l.name, l == Level.HIGH


def test_intenum_is_an_int():
    for l in Level:
        check(int_enum, l)


def counts(n):
    d = {}
    for i in range(n):
        c = Color.RED if i % 3 else Color.GREEN
        if c in d:
            d[c] += 1
        else:
            d[c] = 1
    return d


def lookup(c):
    table = {Color.RED: 1.5, Color.GREEN: 2.5, Color.BLUE: 0.5}
    return table[c]


def in_set(c):
    s = {Color.RED, Color.BLUE}
    return c in s


def test_dict_keys_and_sets():
    check(counts, 10)
    for c in Color:
        check(lookup, c)
        check(in_set, c)


def arith_on_enum(c):
    return c + 1


def str_valued():
    return Named.A


def test_errors():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(arith_on_enum)(Color.RED)
    assert_diagnostic(info.value, kiln.errors.TypingError, arith_on_enum, "c + 1",
                      contains=["enum(Color)"])
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(str_valued)()
    assert_diagnostic(info.value, kiln.errors.TypingError, str_valued, "Named.A",
                      contains=["ints", "Named"])


def test_typeof_and_key():
    t = kiln.typeof(Color.RED)
    assert isinstance(t, kiln.types.EnumMember) and t.instance_class is Color
    assert kiln.typeof(Level.LOW) != t
