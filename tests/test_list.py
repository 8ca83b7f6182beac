"""Lists in compiled code (issue 9, "Lists"): displays, comprehensions, indexing, slicing,
methods, operators, iteration, reflection of list arguments, boxing of returned lists, and the
errors. CPython is the oracle: each function runs interpreted and compiled on copies of the same
arguments; results, exceptions and the arguments' contents afterwards must agree."""

import copy

import numpy as np
import pytest

import kiln
from harness import check, run, same, same_exception

njit = kiln.njit


def lcheck(f, *args, **kw):
    """check() on deep copies, then the (reflected) arguments must have changed alike."""
    cf = kiln.njit(f)
    a1, a2 = copy.deepcopy(args), copy.deepcopy(args)
    want, got = run(f, *a1), run(cf, *a2)
    if want[0] == "raise":
        assert got[0] == "raise", f"expected {want[1]!r}, got {got[1]!r}"
        same_exception(got[1], want[1], kw.get("exc_msg", True))
    else:
        assert got[0] == "ok", f"expected {want[1]!r}, raised {got[1]!r}"
        same(got[1], want[1])
    for i, (x, y) in enumerate(zip(a2, a1)):
        same(x, y, path=f"argument {i} after the call")
    return got[1]


# ---- displays, append, indexing, len, iteration (the core) ----


def display_sum(n):
    l = [1, 2, 3]
    l.append(n)
    return l[0] + l[-1] + len(l) + l[1] * l[-2]


def empty_then_append(n):
    l = []
    for i in range(n):
        l.append(i * 2)
    s = 0
    for x in l:
        s += x
    return s, l


def float_display(n):
    return [1, 2.5, n]


def nested_lists(n):
    l = [[i, i + 1] for i in range(n)]
    l[0].append(99)
    return l


def tuples_list(n):
    l = [(i, float(i)) for i in range(n)]
    t = l[-1]
    return l, t[0] + t[1]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_core(n):
    lcheck(display_sum, n)
    lcheck(empty_then_append, n)
    # int and float items unify to float64, as in Numba (CPython keeps the int)
    same(njit(float_display)(n), [float(x) for x in float_display(n)])
    lcheck(tuples_list, n)
    if n:
        lcheck(nested_lists, n)


def index_error(l, i):
    return l[i]


@pytest.mark.parametrize("i", [0, 2, -1, -3, 3, -4, 100])
def test_index_and_negative_index(i):
    lcheck(index_error, [1, 2, 3], i)


def set_item(l, i, v):
    l[i] = v
    return l


@pytest.mark.parametrize("i", [0, -1, 3, -4])
def test_setitem(i):
    lcheck(set_item, [1, 2, 3], i, 7)


def bool_and_len(l):
    return len(l), bool(l), 1 if l else 0


def test_bool_len():
    lcheck(bool_and_len, [5])


# ---- boxing and unboxing ----


def identity(l):
    return l


def test_returned_argument_is_the_same_object():
    a = [1, 2, 3]
    assert njit(identity)(a) is a


def mutate(l):
    l.append(4)
    l[0] = -1
    l.pop(1)
    return len(l)


def test_reflection_writes_back():
    lcheck(mutate, [1, 2, 3])


def read_only(l):
    s = 0.0
    for x in l:
        s += x
    return s


def test_reflection_without_mutation_keeps_the_object():
    a = [1.5, 2.5]
    before = [id(x) for x in a]
    assert njit(read_only)(a) == 4.0
    assert [id(x) for x in a] == before  # not rewritten: the list was not changed


def nested_mutate(l):
    l[0].append(5)
    l.append([7])
    return l[1][0]


def test_nested_reflection():
    lcheck(nested_mutate, [[1], [2, 3]])
    a = [[1], [2, 3]]
    inner = a[0]
    njit(nested_mutate)(a)
    assert a[0] is inner and inner == [1, 5]


def new_list(n):
    return [i * i for i in range(n)]


def test_returned_list_is_a_new_python_list():
    r = njit(new_list)(4)
    assert type(r) is list and r == [0, 1, 4, 9]


def test_empty_list_argument_is_refused():
    with pytest.raises(TypeError, match="empty list argument"):
        njit(identity)([])


def test_heterogeneous_list_argument():
    with pytest.raises(TypeError, match=r"list item 2 is 'x' of type str, but the list is "
                                        r"list\(int64\)"):
        njit(read_only)([1, 2, "x"])
    with pytest.raises(TypeError, match=r"list item 1 is 2 of type int64, but the list is "
                                        r"list\(float64\)"):
        njit(read_only)([1.5, 2])
    with pytest.raises(TypeError, match=r"list item 1 is 1 of type int64, .* list\(bool\)"):
        njit(read_only)([True, 1])


def test_heterogeneous_display_is_a_typing_error():
    def f(n):
        return [1, (2, 3), n]

    with pytest.raises(kiln.errors.TypingError, match="item 1 is UniTuple"):
        njit(f)(1)


def test_list_of_arrays_refcounts():
    def f(n):
        l = [np.zeros(n), np.ones(n)]
        l.append(np.arange(n) * 1.0)
        s = 0.0
        for a in l:
            s += a.sum()
        return s, l[2]

    s, a = njit(f)(4)
    assert s == 10.0 and list(a) == [0.0, 1.0, 2.0, 3.0]


def test_list_of_arrays_argument():
    def f(l):
        return l[0].sum() + l[1][0]

    a = [np.arange(3.0), np.ones(2)]
    assert njit(f)(a) == 4.0


def test_exception_while_list_of_arrays_half_built():
    def f(n):
        l = [np.zeros(3)]
        for i in range(n):
            l.append(np.ones(2))
            if i == 2:
                raise ValueError("stop")
        return len(l)

    with pytest.raises(ValueError, match="stop"):
        njit(f)(5)
    assert njit(f)(2) == 3


def test_index_error_frees_lists():
    def f(n):
        l = [[1, 2], [3]]
        return l[n][0]

    with pytest.raises(IndexError, match="list index out of range"):
        njit(f)(5)


# ---- comprehensions ----


def comp_cond(n):
    return [i * i for i in range(n) if i % 2 == 0 if i != 4]


def comp_nested(n):
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 3]


def comp_of_comp(n):
    return [[j for j in range(i)] for i in range(n)]


def comp_scope(n):
    i = -5
    l = [i for i in range(n)]
    return i, l


def comp_over_list(l):
    return [x + 0.5 for x in l if x > 1]


@pytest.mark.parametrize("n", [0, 1, 6])
def test_comprehensions(n):
    lcheck(comp_cond, n)
    lcheck(comp_nested, n)
    lcheck(comp_of_comp, n)
    lcheck(comp_scope, n)


def test_comprehension_over_list():
    lcheck(comp_over_list, [1.0, 2.0, 3.0])


def list_of(n):
    a = list(range(n))
    b = list(a)
    b.append(7)
    c = list((1, 2, 3))
    return a, b, c, list()


def test_list_constructor():
    lcheck(list_of, 4)


def test_list_of_array():
    def f(a):
        return list(a)

    assert njit(f)(np.arange(4.0)) == [0.0, 1.0, 2.0, 3.0]


# ---- slicing ----

SLICES = [(None, None, None), (1, None, None), (None, -1, None), (-2, None, None), (1, 4, 2),
          (None, None, -1), (4, 0, -2), (10, 20, None), (-100, 100, 3), (3, 1, None)]


def get_slice(l, a, b, c):
    return l[a:b:c]


def const_slices(l):
    return l[1:], l[:-1], l[::2], l[::-1], l[5:1:-1]


@pytest.mark.parametrize("s", SLICES)
def test_slices(s):
    lcheck(get_slice, [0, 1, 2, 3, 4, 5], *s)


def test_constant_slices():
    lcheck(const_slices, [0, 1, 2, 3, 4, 5, 6])


def test_slice_step_zero():
    lcheck(get_slice, [1, 2], None, None, 0)


def set_slice(l, a, b, c, v):
    l[a:b:c] = v
    return l


@pytest.mark.parametrize("s,v", [((1, 3, None), [9, 9, 9]), ((2, 2, None), [7]), ((None, None, 2), [5, 6, 7]),
                                 ((None, None, 2), [1]), ((None, None, -1), [1, 2, 3, 4, 5])])
def test_slice_assignment(s, v):
    lcheck(set_slice, [0, 1, 2, 3, 4], *s, v)


def set_slice_empty(l, a, b, c):
    l[a:b:c] = [x for x in l if x > 100]  # an empty list (an empty argument cannot be typed)
    return l


@pytest.mark.parametrize("s", [(None, None, None), (1, 3, None), (None, None, 2), (3, 3, None)])
def test_slice_assignment_of_empty(s):
    lcheck(set_slice_empty, [0, 1, 2, 3, 4], *s)


def self_slice_assign(l):
    l[1:2] = l
    return l


def test_slice_assignment_from_itself():
    lcheck(self_slice_assign, [1, 2, 3])


def del_items(l, i, a, b, c):
    del l[i]
    del l[a:b:c]
    return l


@pytest.mark.parametrize("args", [(0, 1, 3, None), (-1, None, None, 2), (2, 4, 0, -1),
                                  (10, 0, 1, None), (1, None, None, -2)])
def test_del(args):
    lcheck(del_items, [0, 1, 2, 3, 4, 5, 6, 7], *args)


# ---- methods ----


def methods(l, x):
    l.insert(0, x)
    l.insert(-1, x + 1)
    l.insert(100, x + 2)
    l.insert(-100, x + 3)
    a = l.pop()
    b = l.pop(0)
    c = l.index(x)
    d = l.count(x)
    l.extend([5, 6])
    l.extend(range(2))
    l.extend((8, 9))
    l.remove(5)
    l.reverse()
    e = l.copy()
    e.append(1)
    return a, b, c, d, l, e


def test_methods():
    lcheck(methods, [1, 2, 3], 2)


def pop_at(l, i):
    return l.pop(i), l


@pytest.mark.parametrize("l,i", [([1, 2, 3], 1), ([1, 2, 3], -1), ([1], 5), ([1], -2)])
def test_pop(l, i):
    lcheck(pop_at, l, i)


def pop_empty(n):
    l = [1]
    l.pop()
    if n:
        l.pop(0)
    return l.pop()


@pytest.mark.parametrize("n", [0, 1])
def test_pop_from_empty(n):
    lcheck(pop_empty, n)


def remove_missing(l, x):
    l.remove(x)
    return l


def index_missing(l, x):
    return l.index(x)


def test_value_errors():
    lcheck(remove_missing, [1, 2], 3)
    lcheck(index_missing, [1, 2], 3)
    lcheck(remove_missing, [1, 2, 1], 1)


def index_missing_float(l, x):
    return l.index(x)


def test_index_missing_float_message():
    with pytest.raises(ValueError, match="is not in list"):
        njit(index_missing_float)([1.5], 2.5)


def clear_list(l):
    l.clear()
    l.append(3)
    return l


def test_clear():
    lcheck(clear_list, [[1], [2]] and [1, 2])


def sort_plain(l):
    l.sort()
    return l


def sort_reverse(l):
    l.sort(reverse=True)
    return l


@kiln.njit
def negkey(x):
    return -x


def sort_key(l):
    l.sort(key=negkey)
    return l


def sorted_all(l):
    return sorted(l), sorted(l, reverse=True), sorted(l, key=negkey), l


SORTS = [[3, 1, 2], [5], [2, 2, 1, 1, 3, 3], list(range(40, 0, -3)) + list(range(20))]


@pytest.mark.parametrize("l", SORTS)
def test_sort(l):
    lcheck(sort_plain, l)
    lcheck(sort_reverse, l)
    if l:
        lcheck(sort_key, l)
        lcheck(sorted_all, l)


def test_sort_floats_and_tuples():
    lcheck(sort_plain, [2.5, -1.0, 3.0, 0.0])
    lcheck(sort_plain, [(2, 1), (1, 5), (2, 0), (1, 5)])


def test_sort_is_stable_with_key():
    @kiln.njit
    def mod3(x):
        return x % 3

    def f(l):
        l.sort(key=mod3)
        return l

    lcheck(f, list(range(20)))


def test_sort_key_lambda_global():
    key = kiln.njit(lambda x: x % 4)

    def f(l):
        return sorted(l, key=key, reverse=True)

    lcheck(f, list(range(12)))


# ---- operators and builtins ----


def operators(a, b):
    c = a + b
    d = a * 2
    e = 3 * b
    f = [0] * 0
    a += b
    return c, d, e, f, a, a == c, a != c, [1, 2] == [1, 2.0], 2 in b, 7 not in b


def test_operators():
    lcheck(operators, [1, 2], [3, 4])


def nested_eq(a, b):
    return a == b, a != b


def test_nested_equality():
    lcheck(nested_eq, [[1, 2], [3]], [[1, 2], [3]])
    lcheck(nested_eq, [[1, 2], [3]], [[1, 2], [4]])
    lcheck(nested_eq, [(1, 2.0)], [(1, 2.5)])


def reductions(l):
    return min(l), max(l), sum(l), sum(l, 10), len(l)


def test_min_max_sum():
    lcheck(reductions, [3, -1, 7, 2])
    lcheck(reductions, [2.5, 0.5, 1.0])


def min_empty(n):
    l = [1]
    l.pop()
    return min(l) if n else max(l)


@pytest.mark.parametrize("n", [0, 1])
def test_min_max_empty(n):
    lcheck(min_empty, n)


# ---- iteration ----


def iterate_and_mutate(l):
    out = []
    for x in l:
        out.append(x)
        if x == 2:
            l.pop()
    return out


def iterate_and_grow(l):
    n = 0
    for x in l:
        n += 1
        if len(l) < 6:
            l.append(x)
    return n, l


def enumerate_zip(l, m):
    s = 0
    for i, x in enumerate(l):
        s += i * x
    for x, y in zip(l, m):
        s += x - y
    return s


def test_iteration_sees_mutations():
    lcheck(iterate_and_mutate, [1, 2, 3, 4])
    lcheck(iterate_and_grow, [1, 2, 3])


def test_enumerate_zip():
    lcheck(enumerate_zip, [1, 2, 3], [4, 5])


# ---- typing errors ----


def test_typing_errors():
    def append_wrong(n):
        l = [1]
        l.append((1, 2))
        return l

    with pytest.raises(kiln.errors.TypingError, match=r"cannot append UniTuple\(int64, 2\) into list\(int64\)"):
        njit(append_wrong)(1)

    def index_float(l):
        return l[1.5]

    with pytest.raises(kiln.errors.TypingError, match="list indices must be integers"):
        njit(index_float)([1])

    def unknown_items(n):
        l = []
        return l[0]

    with pytest.raises(kiln.errors.TypingError, match="cannot determine the type of this getitem"):
        njit(unknown_items)(1)


# ---- lists of str (non-ASCII too) ----

WORDS = ["b", "héllo→", "a", "😀x", "", "b"]


def str_ops(l, s):
    l.append(s)
    m = [w + "!" for w in l if w]
    l.sort()
    return m, l, s in l, l.index("a"), l.count("b"), sorted(m, reverse=True)


def test_lists_of_str():
    lcheck(str_ops, list(WORDS), "ü")


def str_display(n):
    l = ["x", "héllo→", "😀"]
    return l[n], l[1:], l == ["x", "héllo→", "😀"], "😀" in l


@pytest.mark.parametrize("n", [0, 1, 2, -1, 3])
def test_str_display(n):
    lcheck(str_display, n)


def test_str_list_argument_mutated():
    def f(l):
        l[0] = l[1] + l[0]
        l.pop()
        return l

    lcheck(f, ["é", "→", "😀"])


# ---- more: augmented items, nested arguments, exceptions inside sort keys ----


def aug_items(l):
    l[0] += 5
    l[-1] *= 2
    return l


def test_augmented_item_assignment():
    lcheck(aug_items, [1, 2, 3])


def tuple_items(l):
    l.append((7, 0.5))
    a, b = l[0]
    return a + b, l


def test_list_of_tuples_argument():
    lcheck(tuple_items, [(1, 2.5), (3, 4.5)])


def list_in_tuple(t):
    t[0].append(t[1])
    return len(t[0])


def test_list_inside_a_tuple_argument():
    lcheck(list_in_tuple, ([1, 2], 3))


@kiln.njit
def bad_key(x):
    if x == 3:
        raise ValueError("bad key")
    return x


def test_exception_in_sort_key_frees_everything():
    def f(l):
        return sorted(l, key=bad_key)

    lcheck(f, [1, 2, 3, 4])

    def g(n):
        l = [np.ones(2) for i in range(n)]
        k = [i for i in range(n)]
        k.sort(key=bad_key)
        return len(l)

    with pytest.raises(ValueError, match="bad key"):
        njit(g)(5)


def test_comprehension_of_arrays_raising_half_way():
    def f(n):
        return [np.ones(3) / (3 - i) if i != 3 else np.ones(int(-1)) for i in range(n)]

    with pytest.raises(ValueError):
        njit(f)(5)
    r = njit(f)(2)
    assert len(r) == 2 and r[1][0] == 0.5


def test_returning_items_of_argument():
    def f(l):
        return l[0], l[1:], l

    a = [[1], [2]]
    r = njit(f)(a)
    assert r[0] is a[0] and r[2] is a and r[1] == [[2]] and r[1][0] is a[1]


def test_iadd_and_extend_refine_empty():
    def f(n):
        a = []
        a += [1, 2]
        b = []
        b.extend(range(n))
        c = []
        c.insert(0, 1.5)
        return a, b, c

    lcheck(f, 3)


# ---- key= lambdas written inside the jitted function ----


def sort_lambda(l):
    l.sort(key=lambda x: x % 5, reverse=True)
    return l, sorted(l, key=lambda x: -x)


def test_sort_key_lambda_inside():
    lcheck(sort_lambda, [7, 3, 12, 5, 9, 0, 4])


def sort_tuple_lambda(l):
    return sorted(l, key=lambda t: (t[1], -t[0]))


def test_sort_key_lambda_returning_tuples():
    lcheck(sort_tuple_lambda, [(1, 2), (2, 1), (3, 2), (0, 0)])


def index_range(l, x, a, b):
    return l.index(x, a), l.index(x, a, b)


@pytest.mark.parametrize("a,b", [(0, 10), (2, 6), (-4, -1), (3, 100), (-100, 4), (4, 2)])
def test_index_with_start_and_stop(a, b):
    lcheck(index_range, [1, 2, 3, 1, 2, 3, 1], 1, a, b)


def test_bad_list_inside_a_tuple_argument_frees_what_was_unboxed():
    def f(t):
        return len(t[0]) + len(t[1])

    with pytest.raises(TypeError, match="list item 1"):
        njit(f)(([1, 2], [1, "x"]))
    with pytest.raises(TypeError, match="list item 1"):
        njit(f)(([1, 2], [[1], [2, 3], ["x"]]) and ([1], [2, "y"]))


def test_same_list_twice():
    def f(a, b):
        a.append(1)
        return len(a) + len(b)

    x, y = [5], [5]
    # one native list for both arguments: they alias as in CPython (Numba copies each one)
    assert njit(f)(x, x) == f(y, y) == 4 and x == y == [5, 1]
