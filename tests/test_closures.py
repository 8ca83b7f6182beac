"""Inner functions and lambdas that capture variables of the compiled function: called there,
passed to other jitted functions, used as key= of sorted and list.sort (docs/internals.md,
"Functions as values and closures"). CPython is the oracle: a compiled function is compared with
itself interpreted, where the jitted helpers it calls are their Python functions."""

import types

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check

UnsupportedError = kiln.errors.UnsupportedError
TypingError = kiln.errors.TypingError
Dispatcher = type(kiln.njit(lambda: 0))


def interp(f):
    g = {k: (v.py_func if isinstance(v, Dispatcher) else v) for k, v in f.__globals__.items()}
    return types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)


def plain(v):
    """NumPy scalars as the Python numbers compiled code returns for them"""
    if isinstance(v, tuple):
        return tuple(map(plain, v))
    return v.item() if isinstance(v, np.generic) else v


def ccheck(f, *args):
    """Compiled f against interpreted f (jitted helpers as their Python functions); lists
    are copied so that both see the same input."""
    copy = lambda a: list(a) if isinstance(a, list) else a.copy() if isinstance(a, np.ndarray) else a  # noqa: E731
    got = kiln.njit(f)(*map(copy, args))
    want = plain(interp(f)(*map(copy, args)))
    if isinstance(want, np.ndarray):
        assert np.array_equal(got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


@kiln.njit
def apply(f, x):
    return f(x)


@kiln.njit
def apply_all(f, l):
    s = 0.0
    for x in l:
        s += f(x)
    return s


def inner_def(k, x):
    def g(y):
        return y * k + 1
    return g(x) + g(2)


def inner_def_statements(k, n):
    def g(m):
        s = 0
        for i in range(m):
            if i % 2:
                s += i * k
        return s
    return g(n), g(n + 1)


def lambda_local(k, x):
    f = lambda y: y + k  # noqa: E731
    return f(x), f(x * 2)


def lambda_two_captures(a, b, x):
    f = lambda y: a * y + b  # noqa: E731
    return f(x)


def inner_no_capture(x):
    def g(y):
        return y * 2
    return g(x) + apply(g, 1)


def test_called_locally():
    ccheck(inner_def, 3, 4)
    ccheck(inner_def, 1.5, 4)
    ccheck(inner_def_statements, 3, 7)
    ccheck(lambda_local, 2, 5)
    ccheck(lambda_two_captures, 2, 0.5, 3.0)
    ccheck(inner_no_capture, 4)


def passed_lambda(k, x):
    return apply(lambda y: y + k, x)


def passed_def(a, l):
    def g(i):
        return a[i] * 2.0
    return apply_all(g, l)


def passed_twice(k):
    f = lambda y: y - k  # noqa: E731
    return apply(f, 10) + apply(f, 20)


def test_passed_to_jitted_functions():
    ccheck(passed_lambda, 2, 1.5)
    ccheck(passed_def, np.arange(5.0), [0, 2, 4])
    ccheck(passed_twice, 3)


def sorted_by_array(a, l):
    return sorted(l, key=lambda i: a[i])


def sort_by_array(a, l):
    l.sort(key=lambda i: -a[i])
    return l


def sort_by_inner(k, l):
    def key(x):
        return abs(x - k)
    l.sort(key=key)
    return l, sorted(l, key=key, reverse=True)


def sort_by_tuple(d, l):
    return sorted(l, key=lambda x: (x % d, -x))


def test_key_of_sorted_and_sort():
    a = np.array([3.0, 1.0, 2.0, 0.5, 7.0])
    ccheck(sorted_by_array, a, [0, 1, 2, 3, 4])
    ccheck(sort_by_array, a, [0, 1, 2, 3, 4])
    ccheck(sort_by_inner, 5, [1, 9, 4, 6, 5, 0])
    ccheck(sort_by_tuple, 3, [7, 3, 12, 5, 9, 0, 4])


def in_a_loop(n, m):
    s = 0
    for i in range(n):
        h = lambda j: i * j + m  # noqa: E731
        s += h(3)
    return s


def capture_array(a, k):
    f = lambda i: a[i] + k  # noqa: E731
    return f(0) + f(len(a) - 1)


def capture_list(l):
    f = lambda i: l[i] * 2  # noqa: E731
    return f(0), f(1)


def capture_str(s):
    f = lambda i: s[i] + s  # noqa: E731
    return f(1)


def nested_closures(k):
    def outer(x):
        g = lambda y: y + k + x  # noqa: E731
        return g(1)
    return outer(10)


def test_captured_kinds():
    ccheck(in_a_loop, 5, 2)
    ccheck(capture_array, np.arange(4.0), 1.5)
    ccheck(capture_list, [3, 4])
    ccheck(capture_str, "abc")
    ccheck(nested_closures, 5)


def test_factory_function_closures_keep_working():
    def make(k):
        @kiln.njit
        def add(x):
            return x + k
        return add

    a = make(3)
    check(lambda x: x + 3, 4, cfunc=a)

    a7, a1 = make(7), make(1)

    def outer(x):
        return a7(x) + apply(a1, x)

    assert kiln.njit(outer)(2) == outer(2)


def returns_closure(k):
    return lambda y: y + k


def test_returning_a_closure_is_a_clear_error():
    with pytest.raises(TypeError, match="cannot return"):
        kiln.njit(returns_closure)(1)


def test_returning_a_non_capturing_inner_function_gives_a_dispatcher():
    def f():
        def g(x):
            return x + 1
        return g

    g = kiln.njit(f)()
    assert isinstance(g, Dispatcher) and g(2) == 3


def inner_with_default(k):
    def g(y=1):
        return y + k
    return g()


def inner_decorated(k):
    @kiln.njit
    def g(y):
        return y + k
    return g(1)


def inner_star(k):
    def g(*y):
        return k
    return g()


def keyword_call(k):
    f = lambda y: y + k  # noqa: E731
    return f(y=1)


def test_unsupported_forms_are_errors_at_their_position():
    for f, snippet, words in [
        (inner_with_default, "def g(y=1)", ["default"]),
        (inner_decorated, "kiln.njit", ["decorator"]),
        (inner_star, "y)", ["*args"]),
    ]:
        with pytest.raises(UnsupportedError) as e:
            kiln.njit(f)(1)
        assert_diagnostic(e.value, UnsupportedError, f, snippet, contains=words)
    with pytest.raises(TypingError) as e:
        kiln.njit(keyword_call)(1)
    assert_diagnostic(e.value, TypingError, keyword_call, "f(y=1)", contains=["keyword"])


def late_binding(n):
    k = 1
    g = lambda x: x + k  # noqa: E731
    a = g(0)
    k = n
    return a, g(0), apply(g, 0)


def late_binding_def(n):
    k = 1

    def g(x):
        return x + k
    a = g(0)
    k = n
    return a, g(0), sorted([3, 1, 2], key=g)


def capture_inner_function(k):
    h = lambda x: x * k  # noqa: E731

    def g(x):
        return h(x) + 1
    return g(3)


def rebound(c):
    f = lambda x: x + 1  # noqa: E731
    if c:
        f = lambda x: x + 2  # noqa: E731
    return f(1)


def test_closures_see_the_current_values_of_what_they_capture():
    # a name bound only to an inner function is rebuilt wherever it is read (Python's cells)
    ccheck(late_binding, 5)
    ccheck(late_binding_def, 7)
    ccheck(capture_inner_function, 2)
    ccheck(rebound, True)
    ccheck(rebound, False)


def recursive_inner(n):
    def g(x):
        return g(x - 1) if x > 0 else 0
    return g(n)


def test_recursive_inner_function_is_unsupported_at_its_def():
    with pytest.raises(UnsupportedError) as e:
        kiln.njit(recursive_inner)(3)
    assert_diagnostic(e.value, UnsupportedError, recursive_inner, "def g(x)",
                      contains=["recursive"])


def closure_appends_to_empty_list(n):
    acc = []
    add = lambda v: acc.append(v)  # noqa: E731
    for i in range(n):
        add(i)
    return acc


def closure_appends_to_list(n):
    acc = [0]
    add = lambda v: acc.append(v)  # noqa: E731
    for i in range(n):
        add(i)
    return acc


@kiln.njit
def append_to(l, v):
    l.append(v)


def callee_appends_to_empty_list(n):
    acc = []
    for i in range(n):
        append_to(acc, i)
    return acc


def test_closure_mutating_a_captured_list():
    ccheck(closure_appends_to_list, 4)


def test_empty_list_of_unknown_items_passed_on_is_an_error_not_a_wrong_result():
    # it came back empty before: the callee's appends could not tell the caller the item type
    for f, snippet in [(closure_appends_to_empty_list, "lambda v"),
                       (callee_appends_to_empty_list, "acc, i")]:
        with pytest.raises(TypingError) as e:
            kiln.njit(f)(3)
        assert_diagnostic(e.value, TypingError, f, snippet, contains=["empty list"])
