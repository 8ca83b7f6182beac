"""*args parameters (a heterogeneous tuple), f(*t) calls with tuples, **kwargs refused at its
position (docs/internals.md, "Functions as values and closures"). CPython is the oracle."""

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check

UnsupportedError = kiln.errors.UnsupportedError
TypingError = kiln.errors.TypingError


def total(a, *rest):
    s = a
    for r in rest:
        s += r
    return s, len(rest)


def count(a, *rest):
    return a, len(rest)


def everything(*args):
    return args


def mixed(*args):
    return args[0] + len(args[1])


@pytest.mark.parametrize("args", [(1, 2, 3), (1, 2), (2.5, 1.5)])
def test_star_parameter_from_python(args):
    check(total, *args)


@pytest.mark.parametrize("args", [(), (1,), (1, "a", 2.5), ((1, 2), 3.0)])
def test_only_star_parameter(args):
    check(everything, *args)


def test_heterogeneous_star_tuple():
    check(mixed, 1, "abc")


def test_star_parameter_with_keyword_for_a_positional():
    def f(a, b=10, *rest):
        return a + b + len(rest)

    check(f, 1)
    check(f, 1, 2, 3, 4)
    check(f, a=1)


def test_empty_star_tuple():
    check(count, 1)
    check(count, 1, 2.5, "x")


jtotal = kiln.njit(total)
jcount = kiln.njit(count)
jeverything = kiln.njit(everything)


def calls_star_functions(x):
    return jtotal(x, 1, 2), jcount(x), jeverything(), jeverything(x, (1, 2)), jeverything(x, "s")


def test_star_parameter_from_compiled_code():
    got = kiln.njit(calls_star_functions)(3)
    assert got == (total(3, 1, 2), count(3), everything(), everything(3, (1, 2)),
                   everything(3, "s"))


@kiln.njit
def add3(a, b, c=10):
    return a + b * c


def spread(t):
    return add3(*t)


def spread_after(t):
    return add3(1, *t)


def spread_keyword(t):
    return add3(*t, c=2)


def spread_two(x):
    return add3(*(x, 2), *(3,))


def spread_builtin(t):
    return max(*t), min(*t)


def spread_numpy(shape):
    return np.zeros(shape).sum() + np.ones((*shape,)).size


def forward(t):
    return jtotal(*t)


def spread_value(f, t):
    return f(*t)


@pytest.mark.parametrize("f,arg", [
    (spread, (1, 2, 3)), (spread, (1, 2)), (spread_after, (2, 3)), (spread_keyword, (2, 3.5)),
    (spread_two, 4), (spread_builtin, (4, 1, 7)), (forward, (1, 2, 3)), (forward, (5, 6)),
])
def test_call_with_starred_tuple(f, arg):
    got = kiln.njit(f)(arg)
    g = dict(f.__globals__, add3=add3.py_func, jtotal=total)
    import types
    want = types.FunctionType(f.__code__, g)(arg)
    assert got == want and type(got) is type(want)


def test_call_with_starred_tuple_of_a_function_value():
    assert kiln.njit(spread_value)(add3, (1, 2, 3)) == spread_value(add3.py_func, (1, 2, 3))


def test_starred_list_is_a_typing_error():
    with pytest.raises(TypingError) as e:
        kiln.njit(spread)([1, 2])
    assert_diagnostic(e.value, TypingError, spread, "add3(*t)", contains=["tuple"])


def kwargs_param(a, **kw):
    return a


def kwargs_call(x):
    d = {"b": x}
    return add3(1, **d)


def kwargs_call_builtin(x):
    d = {"b": x}
    return max(1, **d)


def test_kwargs_parameter_is_unsupported_at_its_position():
    with pytest.raises(UnsupportedError) as e:
        kiln.njit(kwargs_param)(1)
    assert_diagnostic(e.value, UnsupportedError, kwargs_param, "kw)", contains=["**kw"])


@pytest.mark.parametrize("f", [kwargs_call, kwargs_call_builtin])
def test_kwargs_in_a_call_is_unsupported_at_its_position(f):
    with pytest.raises(UnsupportedError) as e:
        kiln.njit(f)(1)
    assert_diagnostic(e.value, UnsupportedError, f, "**d", contains=["**kwargs"])


def test_star_parameter_with_list_item_releases_it():
    def f(*args):
        return len(args[0])

    check(f, [1, 2, 3])


def kwargs_call_consumer(x):
    d = {"start": x}
    return sum((1, 2), **d) + any((x,), **d)


def test_kwargs_to_a_rewritten_consumer_is_unsupported_at_its_position():
    # sum/any/min/max/... are rewritten into loops (kiln/_iter.py); a `**d` at such a call is
    # left to the call's own path, which refuses it at the `**d`
    with pytest.raises(UnsupportedError) as e:
        kiln.njit(kwargs_call_consumer)(1)
    assert_diagnostic(e.value, UnsupportedError, kwargs_call_consumer, "**d", contains=["**kwargs"])
