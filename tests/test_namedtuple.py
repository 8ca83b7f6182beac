"""namedtuples in compiled code (issue 10, "Values"): collections.namedtuple and
typing.NamedTuple instances as arguments and results (boxed back to the same class), built
inside (positional, keyword, defaults), attribute access, indexing, unpacking, `_replace`,
len, iteration when homogeneous, namedtuples holding arrays.

CPython is the oracle: each compiled function is compared with the interpreted one.
"""

import collections
import typing

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

Point = collections.namedtuple("Point", ["x", "y"])
Span = collections.namedtuple("Span", "lo hi", defaults=[100])


class Rec(typing.NamedTuple):
    a: float
    b: int = 3


def check(f, *args):
    expected = f(*args)
    got = kiln.njit(f)(*args)
    if isinstance(expected, np.generic):
        expected = expected.item()  # NumPy scalars come back as Python numbers
    assert type(got) is type(expected), (got, expected)
    assert got == expected


def attrs(p):
    return p.x + p.y * 2


def test_argument_attribute_access():
    check(attrs, Point(1, 2))
    check(attrs, Point(1.5, -2.0))
    check(attrs, Point(3, 4))


def rec_attrs(r):
    return r.a * r.b


def rec_replace(r, v):
    return r._replace(b=v)


def test_typing_namedtuple_argument():
    check(rec_attrs, Rec(2.5, 4))
    check(rec_replace, Rec(2.5, 4), 9)


def build(x):
    return Point(x, y=x + 1)


def build_defaults(x):
    return Span(x), Span(hi=x, lo=0), Rec(x), Rec(b=7, a=x)


def test_construction_and_result_class():
    check(build, 3)
    check(build, 2.5)
    r = kiln.njit(build)(3)
    assert type(r) is Point and r.x == 3 and r.y == 4
    check(build_defaults, 2.0)


def indexing(p):
    return p[0] - p[1] + p[-1] + len(p)


def unpacking(p):
    a, b = p
    return a * 10 + b


def iterate(p):
    s = 0
    for v in p:
        s += v
    return s


def test_tuple_operations():
    p = Point(7, 2)
    for f in (indexing, unpacking, iterate):
        check(f, p)


def replace(p, v):
    return p._replace(y=v)


def replace_both(p):
    return p._replace(y=p.x, x=p.y)


def test_replace():
    check(replace, Point(1, 2), 5)
    check(replace, Point(1, 2), 10.5)  # the field takes the new value's type
    check(replace_both, Point(1, 2))


def identity(p):
    return p


def test_round_trip_keeps_the_class():
    for p in (Point(1, 2), Rec(1.0, 2), Span(1, 2), Point((1, 2), 3.5)):
        check(identity, p)


def with_arrays(n):
    p = Point(np.arange(n), np.ones(n))
    return p.x.sum() + p[1].sum()


def array_field(p):
    return p.x * 2.0


def returns_arrays(n):
    return Point(np.arange(n), np.zeros(n))


def test_namedtuple_holding_arrays():
    check(with_arrays, 5)
    a = np.arange(3.0)
    np.testing.assert_array_equal(kiln.njit(array_field)(Point(a, 1)), a * 2.0)
    r = kiln.njit(returns_arrays)(3)
    assert type(r) is Point
    np.testing.assert_array_equal(r.x, np.arange(3))
    np.testing.assert_array_equal(r.y, np.zeros(3))


def compare(p, q):
    return p == q, p != q


def test_equality():
    check(compare, Point(1, 2), Point(1, 2))
    check(compare, Point(1, 2), Point(1, 3))


def missing_field():
    return Point(1)


def unknown_field():
    return Point(1, z=2)


def no_such_attr(p):
    return p.z


def test_errors_at_the_call():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(missing_field)()
    assert_diagnostic(info.value, kiln.errors.TypingError, missing_field, "Point(1)",
                      contains=["missing", "'y'"])
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(unknown_field)()
    assert_diagnostic(info.value, kiln.errors.TypingError, unknown_field, "z=2",
                      contains=["unexpected keyword", "'z'"])
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(no_such_attr)(Point(1, 2))
    assert_diagnostic(info.value, kiln.errors.TypingError, no_such_attr, "p.z",
                      contains=["no attribute 'z'"])


def test_typeof_and_key():
    t = kiln.typeof(Point(1, 2.5))
    assert isinstance(t, kiln.types.NamedTuple) and t.instance_class is Point
    assert str(t) == "Point(int64, float64)"
    f = kiln.njit(identity)
    f(Point(1, 2.5))
    assert kiln.typeof(Point(3, 4.5)) == t


def rebound(c):
    p = Point(1, 2)
    if c:
        p = Point(1.5, 2)
    return p.x + p.y, p


def test_two_instances_of_one_class_unify_to_it():
    check(rebound, True)
    check(rebound, False)
