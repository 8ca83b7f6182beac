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
    with pytest.raises(TypeError, match=r"list item 2 is 'x' \(of type str\).*list\(int64\)"):
        njit(read_only)([1, 2, "x"])


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
