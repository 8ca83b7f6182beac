"""Jitted functions as values: passed as arguments (one overload per function passed, as Numba's
dispatcher types), returned, stored in tuples (docs/internals.md, "Functions as values and
closures"). The interpreter is the oracle: each compiled function is compared with its Python
version run where the jitted helpers it calls are their Python functions."""

import types

import pytest

import kiln
from harness import assert_diagnostic, check, compiled

TypingError = kiln.errors.TypingError
Dispatcher = type(kiln.njit(lambda: 0))


def interp(f):
    """f with the jitted functions of its globals replaced by their Python functions."""
    g = {k: (v.py_func if isinstance(v, Dispatcher) else v) for k, v in f.__globals__.items()}
    return types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)


def fcheck(f, *args):
    """Compare compiled f (jitted arguments as given) with interpreted f (their Python
    functions)."""
    pyargs = [a.py_func if isinstance(a, Dispatcher) else
              tuple(x.py_func if isinstance(x, Dispatcher) else x for x in a)
              if isinstance(a, tuple) else a for a in args]
    got = compiled(f)(*args)
    want = interp(f)(*pyargs)
    assert got == want and type(got) is type(want), (got, want)
    return got


@kiln.njit
def sq(x):
    return x * x


@kiln.njit
def cube(x):
    return x * x * x


@kiln.njit
def add(a, b):
    return a + b


def apply(f, x):
    return f(x)


def twice(f, x):
    return f(f(x))


japply = kiln.njit(apply)


def via_apply(f, x):
    return japply(f, x) + japply(f, x + 1)


def apply2(f, a, b):
    return f(a, b)


def test_function_argument_called():
    fcheck(apply, sq, 3)
    fcheck(apply, cube, 2.5)
    fcheck(twice, sq, 3)
    fcheck(apply2, add, 2, 5)


def test_one_overload_per_function_passed():
    f = kiln.njit(apply)
    f(sq, 2)
    f(cube, 2)
    f(sq, 3)
    assert len(f.signatures) == 2
    assert {str(s[0]) for s in f.signatures} == {"type(CPUDispatcher(<function sq>))",
                                                 "type(CPUDispatcher(<function cube>))"}


def test_function_passed_on_to_another_jitted_function():
    fcheck(via_apply, sq, 4)


def pick_first():
    return sq


def return_tuple():
    return (sq, cube)


def test_function_returned_is_the_dispatcher():
    assert kiln.njit(pick_first)() is sq
    r = kiln.njit(return_tuple)()
    assert r[0] is sq and r[1] is cube


def call_from_tuple(t, x):
    return t[0](x) + t[1](x) * 2


def local_tuple(x):
    t = (sq, cube, add)
    return t[0](x) - t[1](x) + t[2](x, 1)


def test_functions_in_tuples():
    fcheck(call_from_tuple, (sq, cube), 3)
    fcheck(local_tuple, 2)


def test_function_value_stored_in_a_variable():
    def f(x):
        g = sq
        return g(x) + apply_j(g, x)

    apply_j = kiln.njit(apply)  # noqa: F841 - frozen from the closure
    assert kiln.njit(f)(5) == 50


def kw_call(f, x):
    return f(x=x)


def test_keywords_to_a_function_value_are_refused_at_the_call():
    with pytest.raises(TypingError) as e:
        kiln.njit(kw_call)(sq, 2)
    assert_diagnostic(e.value, TypingError, kw_call, "f(x=x)", contains=["keyword", "position"])


def test_a_python_function_is_not_a_value():
    with pytest.raises(TypeError, match="cannot determine the type"):
        kiln.njit(apply)(lambda x: x, 1)


def test_wrong_dispatcher_for_a_signature_is_refused():
    f = kiln.njit(apply)
    f(sq, 2)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        f(add, 2)  # add takes two: the callee's compile fails, as CPython's call would


def test_factory_closures_still_work():
    def make(k):
        @kiln.njit
        def inner(x):
            return x + k
        return inner

    a, b = make(1), make(10)
    f = kiln.njit(apply)
    assert f(a, 5) == 6 and f(b, 5) == 15
    check(lambda x: x + 1, 3, cfunc=a)


# ---- first-class function types: a choice among jitted functions at run time ----


@kiln.njit
def half(x):
    return x / 2


def pick(i, x):
    t = (sq, cube)
    return t[i](x)


def pick_mixed_returns(i, x):
    return (sq, half, cube)[i](x)


def pick_in_loop(n):
    fs = (sq, cube, sq)
    s = 0
    for i in range(n):
        s += fs[i % 3](i)
    return s


def by_condition(c, x):
    f = sq if c else cube
    return f(x)


def reassigned(c):
    f = sq
    if c:
        f = cube
    return f


def choice_passed_on(c, x):
    f = sq if c else cube
    return japply(f, x)


@pytest.mark.parametrize("i", [0, 1, -1, -2, 2, -3])
def test_tuple_of_functions_indexed_at_run_time(i):
    check(interp(pick), i, 3, cfunc=compiled(pick))  # 2 and -3: IndexError, as CPython


@pytest.mark.parametrize("i", [0, 1, 2])
def test_choice_return_types_unify(i):
    # sq and cube return int64, half float64: the call's type is float64 (Numba's unification)
    got = compiled(pick_mixed_returns)(i, 3)
    want = interp(pick_mixed_returns)(i, 3)
    assert got == want and type(got) is float


def test_choice_in_a_loop():
    fcheck(pick_in_loop, 10)


@pytest.mark.parametrize("c", [True, False])
def test_function_chosen_by_a_condition(c):
    fcheck(by_condition, c, 3)
    assert compiled(reassigned)(c) is (cube if c else sq)
    fcheck(choice_passed_on, c, 2)


def bad_choice(i):
    return (sq, add)[i](2)


def test_choice_whose_functions_do_not_fit_the_call_is_an_error():
    with pytest.raises((TypingError, TypeError)):
        kiln.njit(bad_choice)(0)


def closure_and_choice(k):
    g = lambda y: y + k  # noqa: E731
    h = sq if k else cube
    return japply(g, 1) + japply(h, 2)


def test_signatures_name_closures_and_choices():
    f = kiln.njit(closure_and_choice)
    assert f(2) == interp(closure_and_choice)(2)
    assert f(0) == interp(closure_and_choice)(0)
    shown = {str(s[0]) for s in japply.signatures}
    assert "FunctionType[sq, cube]" in shown
    assert any(s.startswith("Tuple(closure(<lambda>)") for s in shown)


def star_of_values(k, t):
    g = lambda a, b: a + b + k  # noqa: E731
    h = add if k else japply2
    return g(*t), h(*t)


japply2 = kiln.njit(lambda a, b: a * b)


@pytest.mark.parametrize("k", [0, 2])
def test_star_call_of_closures_and_choices(k):
    got = kiln.njit(star_of_values)(k, (3, 4))
    g = dict(star_of_values.__globals__, add=add.py_func, japply2=japply2.py_func)
    assert got == types.FunctionType(star_of_values.__code__, g)(k, (3, 4))


def key_of_a_choice(c, l):
    f = sq if c else cube
    return sorted(l, key=f)


def test_key_of_a_function_chosen_at_run_time_is_a_clear_error():
    with pytest.raises(TypingError) as e:
        kiln.njit(key_of_a_choice)(True, [3, 1, 2])
    assert_diagnostic(e.value, TypingError, key_of_a_choice, "f)", contains=["chosen at run time"])
