"""Leftovers of issues 9 and 10 (issue 12's GAPS row).

CPython is the oracle: each function runs interpreted and compiled with the same arguments
(``harness.check``) and the outcomes must agree; bad input must give a clear compile error at
the right position. The autouse leak check (conftest.py) runs after every test.
"""

import random

import numpy as np

import pytest

import kiln
from harness import assert_diagnostic, check, compiled

UnsupportedError = kiln.errors.UnsupportedError
TypingError = kiln.errors.TypingError


class AppError(Exception):
    pass


class ParseError(AppError, ValueError):
    pass


# --- e.args, str(e), repr(e), print(e) of a caught exception ----------------------------------

def caught_texts(x):
    try:
        if x == 0:
            raise ValueError("zero")
        if x == 1:
            raise ValueError(f"bad value {x * 10}")
        if x == 2:
            raise KeyError(x)
        if x == 3:
            raise ParseError("parse", x, 2.5)
        if x == 4:
            raise AppError()
        if x == 5:
            return str([1, 2][x])
        if x == 6:
            return str({1: 2}[x])
        if x == 7:
            return str(x // (x - 7))
        if x == 8:
            raise TypeError("why " + str(x), True)
        return "none"
    except Exception as e:
        return str(e) + "|" + repr(e) + "|" + f"<{e}>" + f"<{e!r}>" + f"{e!s:>3}"


@pytest.mark.parametrize("x", range(10))
def test_str_and_repr_of_caught_exceptions(x):
    check(caught_texts, x)


def args_of(x, s):
    try:
        if x == 0:
            raise ValueError(s)
        if x == 1:
            raise IndexError(s + "!")
        if x == 2:
            return (str([1][x]),)
        if x == 3:
            raise ValueError(x)
        raise ValueError("a", "b")
    except (ValueError, IndexError) as e:
        return e.args


@pytest.mark.parametrize("x", range(3))
def test_args_of_caught_exception(x):
    check(args_of, x, "msg")


@pytest.mark.parametrize("x", [3, 4])
def test_args_of_caught_exception_not_one_str(x):
    # e.args has one static type in compiled code (a 1-tuple of str): an exception holding
    # anything else makes e.args raise a TypeError that says so
    with pytest.raises(TypeError, match="holds one str argument"):
        compiled(args_of)(x, "msg")


def args_item(s):
    try:
        raise ValueError(s)
    except ValueError as e:
        return e.args[0] + str(len(e.args))


def test_args_item():
    check(args_item, "abc")


def prints_caught(x):
    try:
        if x:
            raise ValueError("from print", x)
        return [0][x + 1]
    except Exception as err:
        print(err)
        print("caught:", err, 1)
        print(format(err))
    return 0


def test_print_of_caught_exception(capsys):
    for x in (0, 3):
        prints_caught(x)
        want = capsys.readouterr().out
        compiled(prints_caught)(x)
        assert capsys.readouterr().out == want


def nested_names(x):
    out = ""
    try:
        raise ValueError("outer")
    except ValueError as e:
        try:
            raise KeyError("inner")
        except KeyError as e2:
            out = str(e2)
        try:
            raise IndexError("shadow")
        except IndexError as e:
            out += str(e)
        out += str(e) if x else ""
    return out


def test_nested_handlers_texts():
    check(nested_names, 0)


def reraise_after_str(x):
    try:
        raise ValueError("again", x)
    except ValueError as e:
        s = str(e)
        if x > 1:
            raise
        return s


@pytest.mark.parametrize("x", [1, 2])
def test_str_then_reraise(x):
    check(reraise_after_str, x)


def caught_stored(x):
    try:
        raise ValueError("x")
    except ValueError as e:
        y = e
    return 0


def caught_attr(x):
    try:
        raise ValueError("x")
    except ValueError as e:
        return e.message


def caught_format_spec(x):
    try:
        raise ValueError("x")
    except ValueError as e:
        return f"{e:>5}"


def test_caught_exception_bad_uses():
    with pytest.raises(UnsupportedError) as ei:
        compiled(caught_stored)(1)
    assert_diagnostic(ei.value, UnsupportedError, caught_stored, "e\n", contains=("str(e)",))
    with pytest.raises(UnsupportedError) as ei:
        compiled(caught_attr)(1)
    assert_diagnostic(ei.value, UnsupportedError, caught_attr, "e.message",
                      contains=("only .args",))
    with pytest.raises(UnsupportedError) as ei:
        compiled(caught_format_spec)(1)
    assert_diagnostic(ei.value, UnsupportedError, caught_format_spec, "e:>5",
                      contains=("str(e)",))


# --- tuple(iterator) of a length known at compile time -----------------------------------------

GLOBAL_MIXED = (4, 5.5, "x")


@kiln.njit
def _double(v):
    return v * 2


def tuple_genexp(t):
    return tuple(x * 2 for x in t)


def tuple_map_lambda(t):
    return tuple(map(lambda v: v + 1, t))


def tuple_map_jitted_two(t):
    return tuple(map(lambda a, b: a * b, t, (10, 20)))


def tuple_map_global_mixed(t):
    return tuple(map(str, GLOBAL_MIXED))


def tuple_reversed(t):
    return tuple(reversed(t))


def tuple_enumerate_start(t):
    return tuple(enumerate(reversed(t), 10))


def tuple_zip_range_str(t):
    return tuple(zip(t, range(1, 10, 4), "abc"))


def tuple_iter(t):
    return tuple(iter(t))


def tuple_range(t):
    return tuple(range(2, 12, 3))


def tuple_unpacking_genexp(t):
    return tuple((b, a) for a, b in enumerate(t))


def tuple_of_list_display(t):
    return tuple(_double(x) for x in [t[0], t[1]])


def tuple_empty(t):
    return tuple(x for x in ())


@pytest.mark.parametrize("fn", [
    tuple_genexp, tuple_map_lambda, tuple_map_jitted_two, tuple_map_global_mixed,
    tuple_reversed, tuple_enumerate_start, tuple_zip_range_str, tuple_iter, tuple_range,
    tuple_unpacking_genexp, tuple_of_list_display, tuple_empty,
], ids=lambda f: f.__name__)
def test_tuple_of_iterator(fn):
    check(fn, (1, 2, 3))


def tuple_heterogeneous(t):
    return tuple(str(x) for x in t)


def test_tuple_of_iterator_over_heterogeneous_tuple():
    check(tuple_heterogeneous, (1, 2.5, "s", True))


def tuple_filtered(t):
    return tuple(x for x in t if x > 1)


def tuple_of_list_arg(t, xs):
    return tuple(x for x in xs)


def tuple_of_filter(t):
    return tuple(filter(None, t))


def test_tuple_of_iterator_unknown_length_is_an_error():
    for fn, args in ((tuple_filtered, ((1, 2),)), (tuple_of_list_arg, ((1,), [1, 2])),
                     (tuple_of_filter, ((1, 0),))):
        with pytest.raises(UnsupportedError) as ei:
            compiled(fn)(*args)
        assert_diagnostic(ei.value, UnsupportedError, fn, "tuple(",
                          contains=("known at compile time",))


# --- reversed(dict), reversed(d.keys()/values()/items()) ---------------------------------------

def reversed_dicts(n):
    d = {}
    for i in range(n):
        d[i * 3] = str(i)
    if n > 2:
        del d[3]
    d[-1] = "new"
    out = []
    for k in reversed(d):
        out.append(k)
    for v in reversed(d.values()):
        out.append(len(v))
    for k, v in reversed(d.items()):
        out.append(k + len(v))
    for k in reversed(d.keys()):
        out.append(k)
    return out, list(reversed(d)), sum(reversed(d)), [k for k in reversed(d.keys())]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_reversed_dict_and_views(n):
    check(reversed_dicts, n)


def reversed_str_keys(words):
    d = {w: len(w) for w in words}
    return list(reversed(d)), [kv for kv in reversed(d.items())]


def test_reversed_dict_of_str_keys():
    check(reversed_str_keys, ["b", "a", "b", "c"])


def reversed_set(n):
    return list(reversed({1, n}))


def test_reversed_set_is_an_error():
    with pytest.raises(TypingError) as ei:
        compiled(reversed_set)(2)
    assert_diagnostic(ei.value, TypingError, reversed_set, "reversed(",
                      contains=("not reversible",))


# --- unbound methods as functions: map(str.upper, xs), key=str.lower, str.join(sep, xs) --------

@kiln.njit
def _apply(f, s):
    return f(s)


def unbound_map(xs):
    return list(map(str.upper, xs))


def unbound_filter(xs):
    return list(filter(str.isdigit, xs))


def unbound_key(xs):
    return sorted(xs, key=str.lower)


def unbound_direct(xs):
    return str.join("-", xs) + str.upper(xs[0]) + str.replace(xs[0], "a", "Z")


def unbound_map_two(xs):
    return list(map(str.strip, xs, ["a"] * len(xs)))


def unbound_passed(xs):
    return _apply(str.title, xs[0])


def test_unbound_method_passed_to_a_jitted_function():
    xs = ["aBc dE", "x"]
    check(unbound_passed, xs, expected=_apply.py_func(str.title, xs[0]))


def sorted_key_making_strs(xs):
    return sorted(xs, key=lambda s: s.lower()), sorted(xs, key=lambda s: s + "x", reverse=True)


def test_sorted_key_returning_new_strs_does_not_leak():
    # regression: the list of keys kept a second reference of each str key (lower/list.c)
    check(sorted_key_making_strs, ["b", "A", "c"])


def unbound_list_method(xs):
    out = list(xs)
    list.append(out, "end")
    return out, sum(map(len, map(str.lower, xs)))


def unbound_in_genexp(xs):
    return [s for s in map(str.swapcase, xs) if s], tuple(map(str.upper, ("a", "b")))


@pytest.mark.parametrize("fn", [unbound_map, unbound_filter, unbound_key, unbound_direct,
                                unbound_map_two, unbound_list_method,
                                unbound_in_genexp], ids=lambda f: f.__name__)
def test_unbound_methods_as_functions(fn):
    check(fn, ["aBc", "12", "Ba", "ääÖ"])


def unbound_no_args(xs):
    return str.upper()


def unbound_not_a_method(xs):
    return list(map(str.nosuch, xs))


def test_unbound_method_errors():
    with pytest.raises(UnsupportedError) as ei:
        compiled(unbound_no_args)(["a"])
    assert_diagnostic(ei.value, UnsupportedError, unbound_no_args, "str.upper()",
                      contains=("first argument",))
    with pytest.raises(TypingError) as ei:
        compiled(unbound_not_a_method)(["a"])
    assert_diagnostic(ei.value, TypingError, unbound_not_a_method, "str.nosuch",
                      contains=("nosuch",))


# --- random.sample, random.choices, random.seed() ----------------------------------------------

def sample_seeded(seed, pop, k):
    random.seed(seed)
    a = random.sample(pop, k)
    b = random.sample(pop, k=min(k, 2))
    return a, b, random.random()


@pytest.mark.parametrize("seed", [1, 12345])
@pytest.mark.parametrize("pop", [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], list(range(100)), "abcdef",
                                 ["x", "yy", "z"]], ids=["list10", "list100", "str", "strs"])
def test_sample_matches_cpython(seed, pop):
    for k in (0, 1, 3, len(pop)):
        check(sample_seeded, seed, pop, k)


def sample_forms(seed):
    random.seed(seed)
    return (random.sample(range(10 ** 6), 30), random.sample((1.5, 2.5, 3.5), 2),
            random.sample(range(3, 40, 2), 7), random.sample(["a", "b", "c"], 3, counts=[1, 2, 3]),
            random.sample(range(60), 50))


@pytest.mark.parametrize("seed", [0, 5])
def test_sample_forms_match_cpython(seed):
    check(sample_forms, seed)


def choices_seeded(seed, pop, k):
    random.seed(seed)
    return (random.choices(pop, k=k), random.choices(pop),
            random.choices(pop, [i * 0.5 + 1 for i in range(len(pop))], k=k),
            random.choices(pop, weights=list(range(1, len(pop) + 1)), k=k),
            random.choices(pop, cum_weights=list(range(1, len(pop) + 1)), k=3))


@pytest.mark.parametrize("seed", [2, 99])
@pytest.mark.parametrize("pop", [[1, 2, 3, 4, 5], list(range(40)), "abc"],
                         ids=["list5", "list40", "str"])
def test_choices_matches_cpython(seed, pop):
    for k in (0, 1, 4):
        check(choices_seeded, seed, pop, k)


def choices_arrays(seed, a, w):
    random.seed(seed)
    return [int(v) for v in random.choices(a, w, k=6)], random.choices(range(10), k=3)


def test_choices_of_arrays_matches_cpython():
    a = np.arange(10, 20)
    check(choices_arrays, 4, a, np.linspace(0.0, 3.0, 10))


def reseeded():
    random.seed()
    x = random.random()
    random.seed(None)
    return x, random.random()


def test_seed_without_argument():
    f = compiled(reseeded)
    a, b = f()
    c, d = f()
    assert 0.0 <= a < 1.0 and 0.0 <= b < 1.0
    assert len({a, b, c, d}) == 4  # drawn from the system: 2**-53 odds of a repeat


def sample_too_many(k):
    return random.sample([1, 2, 3], k)


def choices_both(k):
    return random.choices([1, 2], [1, 1], cum_weights=[1, 2], k=k)


def choices_mismatch(k):
    return random.choices([1, 2, 3], [1, 1], k=k)


def choices_zero_total(k):
    return random.choices([1, 2], [0, 0], k=k)


def choices_not_finite(k):
    return random.choices([1, 2], [1.0, float("inf")], k=k)


def sample_counts_mismatch(k):
    return random.sample([1, 2], k, counts=[1])


@pytest.mark.parametrize("fn, k", [(sample_too_many, 4), (sample_too_many, -1),
                                   (choices_both, 1), (choices_mismatch, 1),
                                   (choices_zero_total, 1), (choices_not_finite, 1),
                                   (sample_counts_mismatch, 1)],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_sample_and_choices_bad_values_raise_as_cpython(fn, k):
    check(fn, k)


def sample_of_set(k):
    return random.sample({1, 2, 3}, k)


def sample_float_k(k):
    return random.sample([1, 2, 3], k * 0.5)


def choices_k_positional(k):
    return random.choices([1, 2, 3], k)


def test_sample_and_choices_bad_types_are_typing_errors():
    for fn, snippet, words in ((sample_of_set, "random.sample(", "sequence"),
                               (sample_float_k, "random.sample(", "k must be an int"),
                               (choices_k_positional, "random.choices(", "keyword")):
        with pytest.raises(TypingError) as ei:
            compiled(fn)(2)
        assert words in str(ei.value)
        assert "random" in str(ei.value)


# --- dict(x, k=v), dict(**m) -------------------------------------------------------------------

def dict_forms(n):
    base = {"a": 1, "b": 2}
    x = dict(base, c=n, a=5)
    y = dict(**base)
    z = dict(**base, q=n)
    w = dict([("p", 1)], r=2, **base)
    v = dict(zip(["a"], [n]), b=3)
    u = dict(base.items(), b=n * 2)
    y["new"] = 0  # a copy: base is unchanged
    return x, y, z, w, v, u, base


@pytest.mark.parametrize("n", [0, 7])
def test_dict_with_keywords_and_double_star(n):
    check(dict_forms, n)


def dict_too_many(n):
    return dict({"a": 1}, {"b": 2})


def dict_bad_value(n):
    return dict({"a": 1}, b="two")


def dict_double_star_int_keys(n):
    m = {1: 2}
    return dict(**m)


def test_dict_keyword_forms_errors():
    with pytest.raises(UnsupportedError) as ei:
        compiled(dict_too_many)(1)
    assert_diagnostic(ei.value, UnsupportedError, dict_too_many, "dict(",
                      contains=("at most 1 argument",))
    with pytest.raises(TypingError) as ei:
        compiled(dict_bad_value)(1)
    assert "str" in str(ei.value) and "int64" in str(ei.value)
    with pytest.raises(TypingError) as ei:
        compiled(dict_double_star_int_keys)(1)
    assert_diagnostic(ei.value, TypingError, dict_double_star_int_keys, "m)",
                      contains=("str keys",))


# --- d1 |= d2, d1 | d2 -------------------------------------------------------------------------

def dict_merge_ops(n):
    a = {1: 2, 3: 4}
    alias = a
    b = {3: n, 5: 6}
    c = a | b
    a |= b
    a |= {7: 8}
    a |= a
    return a, c, alias, alias is a, b | {9: 9}


def dict_merge_strs(s):
    a = {"x": [1], "y": [2]}
    b = {s: [3]}
    a |= b
    return a, a | {"z": [4]}


@pytest.mark.parametrize("n", [0, 9])
def test_dict_in_place_merge(n):
    check(dict_merge_ops, n)


def test_dict_in_place_merge_of_containers():
    check(dict_merge_strs, "x")
    check(dict_merge_strs, "new")


def dict_ior_list(n):
    a = {1: 2}
    a |= [(n, n)]
    return a


def dict_or_other_type(n):
    return {1: 2} | {1.5: n}


def test_dict_merge_errors():
    with pytest.raises(TypingError) as ei:
        compiled(dict_ior_list)(1)
    assert_diagnostic(ei.value, TypingError, dict_ior_list, "a |= [(n, n)]",
                      contains=("|=",))
    with pytest.raises(TypingError) as ei:
        compiled(dict_or_other_type)(1)
    assert "|" in str(ei.value)


# --- <=, <, >=, >, ==, != of keys views against sets and keys views ----------------------------

def keys_view_compare(n):
    a = {1: 2, 3: 4}
    b = {3: n}
    s = {1, 3}
    e = {n: 0}
    e.pop(n)
    return (a.keys() <= s, a.keys() < s, a.keys() >= s, a.keys() > s, b.keys() < a.keys(),
            s >= a.keys(), a.keys() == s, s == a.keys(), a.keys() != b.keys(), b.keys() <= {3},
            s > b.keys(), a.keys() > b.keys(), b.keys() >= a.keys(), e.keys() < b.keys(),
            e.keys() <= {n}, e.keys() < {n}, {1, 3, 5} > a.keys(), {2} <= a.keys())


@pytest.mark.parametrize("n", [3, 4])
def test_keys_view_comparisons(n):
    check(keys_view_compare, n)


def keys_view_str_compare(words):
    d = {w: len(w) for w in words}
    return d.keys() <= {"a", "b", "c"}, d.keys() > {"a"}, {"a", "b"} < d.keys()


def test_keys_view_comparisons_of_strs():
    check(keys_view_str_compare, ["a", "b"])
    check(keys_view_str_compare, ["a", "b", "z"])


def dict_order_compare(n):
    return {1: n} <= {1: n}


def keys_view_other_key_type(n):
    return {1: n}.keys() <= {1.5}


def test_dict_ordering_errors():
    with pytest.raises(TypingError) as ei:
        compiled(dict_order_compare)(1)
    assert_diagnostic(ei.value, TypingError, dict_order_compare, "{1: n} <= {1: n}",
                      contains=("keys views",))
    with pytest.raises(TypingError):
        compiled(keys_view_other_key_type)(1)
