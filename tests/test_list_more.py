"""Issue 9 leftovers for lists: ordering comparisons and list() of str, dicts, views and sets.

CPython is the oracle (harness.check runs each function interpreted and compiled). Sets iterate
in insertion order in kiln and in hash order in CPython, so list(set) is compared sorted.
"""

import pytest

import kiln
from harness import assert_diagnostic, check


PAIRS = [
    ([1, 2], [1, 3]), ([1, 2], [1, 2]), ([1, 2, 3], [1, 2]),
    ([2], [1, 5, 6]), ([1.5, 2.0], [1, 2]),
]


@pytest.mark.parametrize("a,b", PAIRS)
def test_list_ordering(a, b):
    def f(x, y):
        return (x < y, x <= y, x > y, x >= y)
    check(f, a, b)


def test_list_ordering_empty():
    def f(n):
        e = [1]
        e.pop()
        a = [i for i in range(n)]
        return e < a, a <= e, e >= e, e > a, [] < a, a > []
    check(f, 0)
    check(f, 2)


def test_list_ordering_nan():
    nan = float("nan")

    def f(x, y):
        return (x < y, x <= y, x > y, x >= y)
    check(f, [nan], [1.0])
    check(f, [1.0, nan], [1.0, 2.0])


@pytest.mark.parametrize("a,b", [(["héllo", "a"], ["héllo", "b"]), (["ж"], ["я", ""]),
                                 (["😀"], ["a"]), ([""], ["", ""])])
def test_list_ordering_str(a, b):
    def f(x, y):
        return (x < y, x <= y, x > y, x >= y)
    check(f, a, b)


def test_list_ordering_nested():
    def f(i):
        a = [[1, 2], [3]]
        b = [[1, 2], [3, i]]
        c = [(1, "é"), (2, "b")]
        d = [(1, "é"), (2, "a"), (0, "")]
        return a < b, b <= a, c > d, d >= c, [(1, 2)] < [(1, 2, 3)] if False else a > b
    check(f, 4)


def test_list_ordering_sorts_like_python():
    def f(n):
        ls = [[i % 3, i % 2] for i in range(n)]
        out = 0
        for x in ls:
            for y in ls:
                if x < y:
                    out += 1
        return out
    check(f, 7)


def test_list_ordering_errors():
    def f(a):
        return a < 1

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(f)([1])
    assert_diagnostic(e.value, kiln.errors.TypingError, f, "a < 1", contains=("not supported",))

    def g(a, b):
        return a < b

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(g)([1], ["a"])
    assert_diagnostic(e.value, kiln.errors.TypingError, g, "a < b", contains=("list(int64)", "list(str)"))


@pytest.mark.parametrize("s", ["", "abc", "héllo", "жук", "a😀b"])
def test_list_of_str(s):
    def f(x):
        l = list(x)
        l.append("!")
        return l, sorted(x)
    check(f, s)


def test_list_of_dict_and_views():
    def f(n):
        d = {}
        for i in range(n):
            d[str(i) + "é"] = [i, i * i]
        del d["1é"]
        return list(d), list(d.keys()), list(d.values()), list(d.items())
    check(f, 5)


def test_list_of_set():
    def f(n):
        s = {i * 7 % 5 for i in range(n)}
        ls = list(s)
        ls.sort()
        return ls, sorted(s), len(list({"ä", "b", "ä"}))
    check(f, 9)


def test_list_of_dict_views_borrowed_strs():
    def f(words):
        d = {}
        for w in words:
            d[w] = len(w)
        return list(d.items())
    check(f, ["ab", "ü", "ab", "日本"])


def test_list_of_empty_dict_views():
    def f(n):
        d = {1: 2.5}
        d.pop(1)
        return list(d.values()), list(d.items()), n
    check(f, 0)


def alias_append(a, b):
    a.append(1)
    b.append(2)
    return len(a), len(b), a == b


def test_same_list_passed_twice():
    la, lb = [0], [0]
    want = alias_append(la, la)
    got = kiln.njit(alias_append)(lb, lb)
    assert got == want and lb == la


def nested_alias(a, n):
    n[0].append(5)
    a.append(7)
    return len(a)


def test_list_inside_another_argument():
    la, lb = [0], [0]
    want = nested_alias(la, [la])
    got = kiln.njit(nested_alias)(lb, [lb])
    assert got == want and lb == la


def test_reflected_strs_stored_in_typed_containers():
    import gc
    from kiln import typed, types

    @kiln.njit
    def keep(l, tl, d):
        tl.append(l)
        d[0] = l
        return len(tl) + len(d)

    tl = typed.List.empty_list(types.ListType(types.unicode_type))
    d = typed.Dict.empty(key_type=types.int64, value_type=types.ListType(types.unicode_type))
    words = ["é" * 3 + str(i) for i in range(4)] + ["日本" + str(i) for i in range(2)]
    want = list(words)
    assert keep(words, tl, d) == 2
    del words
    gc.collect()
    junk = ["zz" * 9 + str(i) for i in range(200)]
    assert list(tl[0]) == want and list(d[0]) == want and junk


def test_tuples_holding_lists_and_strs_compare():
    def f(n):
        a = ([1, 2], "é")
        b = ([1, n], "e")
        c = ("ж", [0.5])
        d = ("ж", [0.5, 1.0])
        return (a < b, a <= b, a > b, a >= b, a == b, a != b, c < d, c == c, d > c,
                ("a", 1) < ("a", 2), ("b",) > ("a", 9), ("x", [1]) == ("x", [1]))
    check(f, 3)
    check(f, 2)


def test_list_of_tuples_of_strs_ordering():
    def f(n):
        a = [("é", i) for i in range(n)]
        b = [("é", i) for i in range(n)]
        b.append(("a", 0))
        return a < b, b < a, a == b[:n], sorted(b) == sorted(b)
    check(f, 3)


def test_tuple_ordering_errors():
    def f(n):
        return ("a", n) < (1, n)

    with pytest.raises(kiln.errors.TypingError) as e:
        kiln.njit(f)(1)
    assert_diagnostic(e.value, kiln.errors.TypingError, f, '("a", n) < (1, n)',
                      contains=("cannot compare",))


def test_reflected_tuples_of_strs_stored_in_typed_list():
    import gc
    from kiln import typed, types

    @kiln.njit
    def keep(l, tl):
        tl.append(l)
        return len(tl)

    item = types.Tuple((types.unicode_type, types.int64))
    tl = typed.List.empty_list(types.ListType(item))
    pairs = [("ключ" + str(i), i) for i in range(4)]
    want = list(pairs)
    assert keep(pairs, tl) == 1
    del pairs
    gc.collect()
    junk = [("zz" * 9 + str(i), i) for i in range(200)]
    assert list(tl[0]) == want and junk



# Lists of ints and int keys sort with NumPy's sorts (runtime/list.c, kn_rt_list_sort_ints):
# Python's order, and with key= the stability of Python's sort, reverse=True included.
INT_LISTS = [
    [2, 1], [7], [3, -1, 3, 0, -(2**63), 2**63 - 1, -5, 3, 0],
    [(i * 7919) % 1009 - 500 for i in range(3000)],  # duplicates, both signs, past 16 items
]


def sorts_of_ints(xs):
    ys = list(xs)
    ys.sort(reverse=True)
    zs = list(xs)
    zs.sort()
    return (sorted(xs), sorted(xs, reverse=True), ys, zs,
            sorted(xs, key=lambda x: x % 10), sorted(xs, key=lambda x: x % 10, reverse=True),
            sorted(xs, key=lambda x: -(x // 7), reverse=True))


@pytest.mark.parametrize("xs", INT_LISTS, ids=lambda xs: f"n{len(xs)}")
def test_sort_ints_and_int_keys(xs):
    check(sorts_of_ints, xs)


def sort_narrow_ints(a):
    xs = [a[i] for i in range(len(a))]
    ys = sorted(xs, reverse=True)
    xs.sort(key=lambda x: x % 3)
    return ys, xs


def test_sort_narrow_int_items():
    import numpy as np
    for dt in (np.int8, np.int32, np.uint8, np.uint16, np.uint64):
        a = (np.arange(200) * 37 % 251).astype(dt)
        got = kiln.njit(sort_narrow_ints)(a)
        want = sort_narrow_ints(a)
        assert [list(map(int, g)) for g in got] == [list(map(int, w)) for w in want], dt
