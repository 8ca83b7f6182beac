"""Builtins over iterables (issue 10, "Control flow"): sum/any/all/min/max over any iterable,
sorted/list of iterator expressions, map/filter/reversed/generator expressions in for loops and
consumers (also inside zip and enumerate), next(iter(x)[, d]), isinstance, walrus, chained
assignment, starred targets, global/nonlocal reads. CPython is the oracle: each function runs
interpreted and compiled on copies of the same arguments."""

import copy

import numpy as np
import pytest

import kiln
from harness import run, same, same_exception

njit = kiln.njit
G_OFFSET = 5


def icheck(f, *args):
    cf = njit(f)
    a1, a2 = copy.deepcopy(args), copy.deepcopy(args)
    want, got = run(f, *a1), run(cf, *a2)
    if want[0] == "raise":
        assert got[0] == "raise", f"expected {want[1]!r}, got {got[1]!r}"
        same_exception(got[1], want[1])
    else:
        assert got[0] == "ok", f"expected {want[1]!r}, raised {got[1]!r}"
        same(got[1], _py(want[1]))
    for x, y in zip(a2, a1):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y)
        else:
            same(x, y, path="argument after the call")


def _py(x):
    """NumPy scalars (what CPython's sum/min/max of an array give) as the Python numbers
    compiled code returns"""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, tuple):
        return tuple(_py(v) for v in x)
    if isinstance(x, list):
        return [_py(v) for v in x]
    return x


def double(x):
    return 2 * x


jdouble = njit(double)


@njit
def is_even(x):
    return x % 2 == 0


# ---- consumers over every kind of iterable ----


def reduce_range(n):
    return sum(range(n)), min(range(3, n)), max(range(n)), any(range(n)), all(range(1, n))


def reduce_array(a):
    return sum(a), min(a), max(a), any(a), all(a)


def reduce_list(l):
    return sum(l), sum(l, 10), min(l), max(l), any(l), all(l)


def reduce_str(s):
    return max(s), min(s), any(s), all(s)


def reduce_dict_set(n):
    d = {i * 3: i for i in range(1, n)}
    s = {5, 2, 9}
    return sum(d), max(d), min(d), any(d), all(d), sum(s), max(s), min(s)


def reduce_tuple(t):
    # kiln's items of (1, 2.5, 3) are float64 (CPython keeps each item's type): compare values
    return sum(t), float(max(t)), float(min(t))


def reduce_zip_enumerate(a, b):
    return (sum(x * y for x, y in zip(a, b)), max(enumerate(b)), min(zip(a, b)),
            any(i > 2 for i, _ in enumerate(a)))


def test_reduce_range():
    icheck(reduce_range, 6)


def test_reduce_array():
    icheck(reduce_array, np.array([2.5, -1.0, 4.0, 0.5]))
    icheck(reduce_array, np.array([3, 0, 7], dtype=np.int32))


def test_reduce_list():
    icheck(reduce_list, [3, -1, 7, 2])
    icheck(reduce_list, [2.5, 0.5, 1.0])


def test_reduce_str():
    icheck(reduce_str, "hello")


def test_reduce_dict_set():
    icheck(reduce_dict_set, 5)


def test_reduce_mixed_tuple():
    icheck(reduce_tuple, (1, 2.5, 3))


def test_reduce_zip_enumerate():
    icheck(reduce_zip_enumerate, [1.0, 2.0, 3.0, 4.0], [4.0, 1.5, 2.0, 8.0])


def sum_start(l):
    return sum(l, 0.5), sum(l, start=2)


def test_sum_start():
    icheck(sum_start, [1, 2, 3])


def min_max_key_default(l):
    e = [1]
    e.pop()
    return (max(l, key=lambda v: -v), min(l, key=abs), max(e, default=-1),
            min(e, default=7), max(3, 9, 4, key=lambda v: v % 5))


def test_min_max_key_default():
    icheck(min_max_key_default, [3, -7, 2, 5])


def min_empty(n):
    e = [1]
    e.pop()
    return min(e) if n else max(x for x in e)


@pytest.mark.parametrize("n", [0, 1])
def test_min_max_empty_raise(n):
    icheck(min_empty, n)


def min_max_ties(l):
    return max(l, key=lambda p: p[0]), min(l, key=lambda p: p[0])


def test_min_max_keep_first_of_ties():
    icheck(min_max_ties, [(1, 0), (3, 1), (3, 2), (1, 3)])


def any_all_stop_early(a):
    return any(1.0 / x > 0.4 for x in a), all(x < 3 for x in a)


def test_any_all_short_circuit():
    # the generator stops at the first hit: 1 / 0 after it is never evaluated
    icheck(any_all_stop_early, np.array([4.0, 2.0, 0.0]))


def any_all_empty(n):
    return any(range(n)), all(range(n)), any([x > 0 for x in range(n)])


def test_any_all_empty():
    icheck(any_all_empty, 0)


# ---- map, filter, reversed, generator expressions ----


def map_forms(a, b):
    s = 0.0
    for x in map(jdouble, a):
        s += x
    return (s, list(map(lambda x, y: x * y, a, b)), sum(map(jdouble, b)),
            [p for p in map(jdouble, range(3))])


def test_map():
    icheck(map_forms, [1.0, 2.0, 3.0], [0.5, 4.0, 2.0])


def filter_forms(l):
    out = []
    for x in filter(is_even, l):
        if x > 6:
            break
        out.append(x)
    return (out, list(filter(None, l)), sorted(filter(lambda v: v > 1, l), reverse=True),
            sum(filter(is_even, l)))


def test_filter():
    icheck(filter_forms, [0, 1, 2, 3, 4, 8, 6])


def reversed_forms(l, s, a, t):
    out = []
    for x in reversed(l):
        out.append(x)
    w = 0.0
    for i, v in enumerate(reversed(a)):
        w += i * v
    pairs = [(p, q) for p, q in zip(reversed(s), l)]
    return (out, [c for c in reversed(s)], w, list(reversed(range(2, 11, 3))), pairs,
            list(reversed(t)), sum(reversed(a)))


def test_reversed():
    icheck(reversed_forms, [1, 2, 3], "abc", np.arange(4.0), (4, 5, 6))


def reversed_else(n):
    k = -1
    for i in reversed(range(n)):
        if i == 2:
            k = i
            break
    else:
        k = 100
    return k


@pytest.mark.parametrize("n", [0, 5])
def test_reversed_break_else(n):
    icheck(reversed_else, n)


def genexp_consumers(a):
    return (sum(x * x for x in a), max(x for x in a if x < 3.0),
            sorted(-x for x in a), list(x + 1 for x in a if x != 2.0))


def test_generator_expressions_in_consumers():
    icheck(genexp_consumers, np.array([1.0, 2.0, 3.0, 0.5]))


def nested_wrappers(a, b):
    out = []
    for i, (x, y) in enumerate(zip(map(jdouble, a), reversed(b))):
        out.append(i + x * y)
    return out


def test_nested_wrappers_in_zip_enumerate():
    icheck(nested_wrappers, [1, 2, 3], [10, 20, 30])


def list_sorted_of_iterators(a, b):
    return list(zip(a, b)), list(enumerate(b, 1)), sorted(zip(b, a)), list(reversed(a))


def test_list_sorted_of_iterators():
    icheck(list_sorted_of_iterators, [3, 1, 2], [1.5, 0.5, 2.5])


# ---- iter / next ----


def next_forms(l):
    e = l[5:]
    return next(iter(l)), next(iter(e), -1), next(iter(map(jdouble, l)))


def test_next():
    icheck(next_forms, [4, 5, 6])


def next_exhausted(l):
    return next(iter(l[9:]))


def test_next_raises_stop_iteration():
    icheck(next_exhausted, [1, 2])


# ---- isinstance (compile time) ----


def isinstance_forms(i, f, s, l, a, t):
    return (isinstance(i, int), isinstance(f, float), isinstance(s, str), isinstance(i, float),
            isinstance(f, (int, float)), isinstance(l, list), isinstance(a, np.ndarray),
            isinstance(t, tuple), isinstance(s, (list, dict)), isinstance(l, str))


def test_isinstance():
    icheck(isinstance_forms, 3, 2.5, "x", [1], np.zeros(2), (1, 2))


def isinstance_dict_set(n):
    d = {1: n}
    s = {n}
    return isinstance(d, dict), isinstance(s, set), isinstance(d, set), isinstance(n, dict)


def test_isinstance_dict_set():
    icheck(isinstance_dict_set, 2)


# ---- assignment forms ----


def walrus(l):
    total = 0
    if (n := len(l)) > 2:
        total += n
    out = [y for x in l if (y := x * 2) > 2]
    k = 0
    while (k := k + 1) < 4:
        total += k
    return total, out, n, y


def test_walrus():
    icheck(walrus, [1, 2, 3])


def chained(n):
    a = b = n + 1
    c = d = e = [n]
    c.append(1)
    return a + b, d, e


def test_chained_assignment():
    icheck(chained, 3)


def starred(t, l):
    a, *b = t
    *c, d, e = l
    f, *g, h = l
    p, *q = l[:1]
    return a, b, c, d, e, f, g, h, p, q


def test_starred_targets():
    icheck(starred, (1, 2, 3), [4, 5, 6, 7])


def starred_in_for(l):
    out = []
    for a, *rest in [(1, 2, 3), (4, 5, 6)]:
        out.append(a + sum(rest))
    return out


def test_starred_target_of_for():
    icheck(starred_in_for, [0])


def global_read(n):
    global G_OFFSET
    return G_OFFSET + n


def test_global_read():
    icheck(global_read, 1)


def make_nonlocal():
    y = 7

    def h(n):
        nonlocal y
        return y + n
    return h


def test_nonlocal_read():
    icheck(make_nonlocal(), 2)


def global_write(n):
    global G_OFFSET
    G_OFFSET = n
    return n


def test_global_write_is_unsupported():
    with pytest.raises(kiln.errors.UnsupportedError,
                       match=r"test_builtins_iter.py:\d+:5: error: assigning to the global "
                             r"variable 'G_OFFSET'"):
        njit(global_write)(1)


# ---- errors ----


def iterator_value(l):
    it = iter(l)
    return it


def tuple_of_iterator(l):
    return tuple(map(double, l))


def filter_in_zip(l):
    return list(zip(filter(None, l), l))


def reversed_of_set(n):  # reversed(dict) compiles now (tests/test_gaps12.py)
    d = {1, 2}
    return list(reversed(d))


def reversed_of_iterator(l):
    return list(reversed(map(double, l)))


@pytest.mark.parametrize("f, err, msg", [
    (iterator_value, kiln.errors.UnsupportedError, r":\d+:10: error: iter\(\) is supported as"),
    (tuple_of_iterator, kiln.errors.UnsupportedError, r"tuple\(\) of an iterator"),
    (filter_in_zip, kiln.errors.UnsupportedError, r":\d+:21: error: filter\(\) inside zip"),
    (reversed_of_set, kiln.errors.TypingError, r":\d+:17: error: .*object is not reversible"),
    (reversed_of_iterator, kiln.errors.UnsupportedError, r"reversed\(\) of an iterator"),
])
def test_refused_forms(f, err, msg):
    with pytest.raises(err, match=msg):
        njit(f)([1, 2])


# ---- iterators held by a name ----


def iterator_variable(l):
    it = iter(l)
    first = next(it)
    second = next(it, -1)
    rest = []
    for x in it:
        rest.append(x)
    return first, second, rest, next(it, 99)


@pytest.mark.parametrize("l", [[4, 5, 6, 7], [4]])
def test_iterator_variable(l):
    icheck(iterator_variable, l)


def iterator_variable_exhausted(l):
    it = iter(l)
    a = next(it)
    return a, next(it)


def test_iterator_variable_stop_iteration():
    icheck(iterator_variable_exhausted, [1])


def zip_variable(a, b):
    z = zip(a, b)
    head = next(z)
    return head, sum(x * y for x, y in z)


def test_zip_enumerate_held_by_a_name():
    icheck(zip_variable, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0])


def iterator_in_while(s):
    it = iter(s)
    out = []
    c = next(it, "")
    while c != "":
        out.append(c)
        c = next(it, "")
    return out, max(iter(s)), list(it)


def test_iterator_variable_in_while():
    icheck(iterator_in_while, "abc")


def iterator_returned(l):
    it = iter(l)
    next(it)
    return it


def test_iterator_as_a_value_is_refused():
    with pytest.raises(kiln.errors.UnsupportedError, match=r"iterators are not values"):
        njit(iterator_returned)([1, 2])


def tuple_of_arrays(a):
    t = (a, a + 1.0)
    u = tuple(t)
    return u[0].sum() + u[1].sum()


def test_tuple_of_a_tuple_of_arrays_keeps_its_references():
    # tuple(t) gave back t without a reference of its own: the argument was released once too
    # often (heap corruption after a few calls)
    f = njit(tuple_of_arrays)
    a = np.ones(3)
    for _ in range(50):
        assert f(a) == tuple_of_arrays(a)
    assert a.sum() == 3.0


def sum_of_dict_views(n):
    d = {i: i * 1.5 for i in range(n)}
    return sum(d.values()), max(d.keys()), min(d.items())


def test_consumers_of_dict_views():
    icheck(sum_of_dict_views, 4)


def tuple_of_a_display(a):
    u = tuple((a, a + 1.0))
    return u[1].sum()


def test_tuple_of_a_display_of_arrays():
    f = njit(tuple_of_a_display)
    a = np.ones(3)
    for _ in range(20):
        assert f(a) == tuple_of_a_display(a)
