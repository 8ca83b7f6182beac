"""Issue 9 leftovers for dicts: dict() of iterables, dict views as operands, == of dicts holding
arrays and containers.

CPython is the oracle (compile and interpret the same function); for == of dicts of arrays
kiln follows Numba (the truth of va == vb: one element each compares, otherwise NumPy's
ValueError), which is also what CPython does for arrays that are not the same object.
"""

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check


def test_dict_of_list_of_pairs():
    def f(n):
        pairs = [(i % 3, i * 1.5) for i in range(n)]
        return dict(pairs)
    check(f, 7)


def test_dict_of_tuple_and_set_of_pairs():
    def f(k):
        a = dict(((1, "é"), (2, "b"), (1, "c")))
        s = {(k, 2), (k + 1, 3)}
        return a, sorted(dict(s).items())
    check(f, 4)


def test_dict_of_zip_and_enumerate():
    def f(keys, vals):
        return dict(zip(keys, vals)), dict(enumerate(vals))
    check(f, ["a", "ü", "a", "日本"], [1.0, 2.0, 3.0, 4.0])


def test_dict_of_zip_arrays():
    def f(a, b):
        return dict(zip(a, b))
    check(f, np.arange(5), np.linspace(0, 1, 5))


def test_dict_of_comprehension_of_pairs():
    def f(n):
        return dict((i, i * i) for i in range(n) if i % 2), dict([(str(i), i) for i in range(n)])
    check(f, 6)


def test_dict_of_dict_and_items():
    def f(n):
        d = {i: [i] for i in range(n)}
        e = dict(d)
        g = dict(d.items())
        e[0].append(9)
        g[n] = [n]
        return d, e, g
    check(f, 3)


def test_dict_of_keywords():
    def f(x):
        return dict(alpha=x, beta=2.5, ünï=x * 2)
    check(f, 1)


def test_dict_of_pairs_releases_on_raise():
    def f(n):
        pairs = [(str(i), [i]) for i in range(n)]
        d = dict(pairs)
        return d["missing"]
    check(f, 4)


def test_dict_of_bad_iterable():
    def f(a):
        return dict(a)

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(f)([1, 2])
    assert_diagnostic(e.value, kiln.errors.TypingError, f, "a)", nth=2, contains=("pairs",))


def test_views_as_operands():
    def f(n):
        d = {str(i) + "ж": i * 0.5 for i in range(n)}
        return (len(d.keys()), len(d.values()), len(d.items()), "1ж" in d.keys(),
                "9" in d.keys(), 1.0 in d.values(), 7 in d.values(), 1 in d.values(),
                ("2ж", 1.0) in d.items(), ("2ж", 1.5) in d.items(), ("x", 1.0) in d.items(),
                1.0 not in d.values())
    check(f, 4)


def test_view_of_temporary_released():
    def f(n):
        return len({1: n}.items()), list({n: 2}.keys()), len(dict({1: n}).values())
    check(f, 3)


def test_views_of_containers():
    def f(n):
        d = {i: [i, i + 1] for i in range(n)}
        return [1, 2] in d.values(), [1, 3] in d.values(), (2, [2, 3]) in d.items()
    check(f, 3)


def test_keys_and_items_views_equal():
    def f(n):
        a = {i: i for i in range(n)}
        b = {n - 1 - i: 2 * i for i in range(n)}
        c = {i: i for i in range(n + 1)}
        return (a.keys() == b.keys(), a.keys() == c.keys(), a.items() == b.items(),
                a.items() == dict(a).items(), a.keys() != b.keys())
    check(f, 4)


def test_eq_of_dicts_of_containers():
    def f(n):
        a = {i: [i, i] for i in range(n)}
        b = {i: [i, i] for i in range(n)}
        c = {i: [i] for i in range(n)}
        s1 = {"x": {1, 2}, "é": {3}}
        s2 = {"é": {3}, "x": {2, 1}}
        d1 = {1: {"a": [1.5]}, 2: {"b": [0.5, 1.0]}}
        d2 = {2: {"b": [0.5, 1.0]}, 1: {"a": [1.5]}}
        d3 = {1: {"a": [2.5]}, 2: {"b": [0.5, 1.0]}}
        t1 = {1: (1, ["é"])}
        t2 = {1: (1, ["e"])}
        return a == b, a == c, a != c, s1 == s2, d1 == d2, d1 == d3, t1 == t2, t1 == t1
    check(f, 3)


def test_list_of_dicts_equal():
    def f(n):
        a = [{i: "é"} for i in range(n)]
        b = [{i: "é"} for i in range(n)]
        c = [{i: "e"} for i in range(n)]
        return a == b, a == c
    check(f, 3)


def test_eq_of_dicts_of_arrays():
    def f(a, b):
        return {1: a} == {1: b}
    check(f, np.ones(1), np.ones(1))
    check(f, np.ones(1), np.zeros(1))
    check(f, np.ones((1, 1)), np.full((1, 1), 1.0))
    check(f, np.ones(3), np.ones(3))  # ValueError: more than one element
    check(f, np.ones(0), np.ones(0))  # ValueError: empty


def test_eq_of_dicts_of_arrays_different_keys():
    def f(a, b):
        return {1: a} == {2: b}, {1: a} == {1: b, 2: b}
    check(f, np.ones(3), np.ones(3))


def test_values_view_eq_refused():
    def f(n):
        d = {1: n}
        return d.values() == d.values()

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(f)(1)
    assert_diagnostic(e.value, kiln.errors.TypingError, f, "d.values() == d.values()",
                      contains=("dict_values",))


def test_typed_dict_values_from_the_interpreter_released():
    # storing a list from Python into a kiln.typed.Dict took a second reference to the list
    # made by unboxing it, so it was never freed (the leak fixture checks the counters)
    d = kiln.typed.Dict()
    d["é"] = [1, 2]
    d["é"] = [1, 3]
    d["b"] = [4]
    assert list(d["é"]) == [1, 3] and len(d) == 2
    del d


def test_keys_view_set_operations():
    def f(n):
        d = {i: str(i) + "é" for i in range(n)}
        e = {i * 2: 1.5 for i in range(n)}
        s = {1, 2, 40}
        return (sorted(d.keys() & s), sorted(d.keys() | s), sorted(d.keys() - s),
                sorted(d.keys() ^ s), sorted(s & d.keys()), sorted(s - d.keys()),
                sorted(d.keys() & e.keys()), sorted(d.keys() ^ e.keys()),
                d.keys() == set(range(n)), set(range(n)) == d.keys(), d.keys() != s,
                d.keys() == e.keys(), {0: 1}.keys() == {0: "x"}.keys())
    check(f, 5)


def test_dict_merge_operator():
    def f(n):
        a = {i: [i] for i in range(n)}
        b = {i + 2: [i * 10] for i in range(n)}
        c = a | b
        c[99] = [0]
        return c, a, b
    check(f, 4)


def test_keys_view_mixed_key_types_refused():
    def f(n):
        d = {1: n}
        return d.keys() & {"a"}

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(f)(1)
    assert_diagnostic(e.value, kiln.errors.TypingError, f, 'd.keys() & {"a"}')
