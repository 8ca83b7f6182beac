"""kiln.typed.List (issue 9): the native list of compiled code as a C type usable from the
interpreter, passed into and out of compiled code without conversion. CPython's list is the
oracle for what it holds."""

import pytest

import kiln
from kiln import types
from kiln.typed import List

njit = kiln.njit


def test_empty_then_append_types_from_first_item():
    l = List()
    assert len(l) == 0 and l.item_type is None
    l.append(3)
    l.append(4)
    assert l.item_type == types.int64
    assert list(l) == [3, 4] and l[0] == 3 and l[-1] == 4 and len(l) == 2


def test_empty_list_of_a_type():
    l = List.empty_list(types.float64)
    l.append(1.5)
    l.append(2)  # an int converts to the item type, as Numba's typed.List does
    assert list(l) == [1.5, 2.0] and type(l[1]) is float
    assert repr(l) == "ListType[float64]([1.5, 2.0])"
    assert repr(List.empty_list(types.int64, allocated=10)) == "ListType[int64]([])"


def test_from_iterable():
    assert list(List([1, 2, 3])) == [1, 2, 3]
    assert list(List(range(4))) == [0, 1, 2, 3]
    assert list(List((1.0, 2.0))) == [1.0, 2.0]
    assert List([1, 2]) == [1, 2] and List([1, 2]) == List([1, 2]) and List([1]) != [2]


def test_index_errors_and_assignment():
    l = List([1, 2, 3])
    with pytest.raises(IndexError, match="list index out of range"):
        l[3]
    with pytest.raises(IndexError):
        l[-4]
    l[0] = 10
    l[-1] = 30
    assert list(l) == [10, 2, 30]
    del l[1]
    assert list(l) == [10, 30]
    assert l.pop() == 30 and list(l) == [10]
    assert list(List([0, 1, 2, 3, 4])[1:4]) == [1, 2, 3]


def test_bad_item_type():
    l = List([1, 2])
    with pytest.raises(TypeError):
        l.append("x")
    with pytest.raises(TypeError, match="list item 1"):
        List([1, "x"])


def test_iteration():
    l = List([1.5, 2.5, 3.5])
    assert [x for x in l] == [1.5, 2.5, 3.5]


def test_passed_in_and_out_without_conversion():
    @njit
    def push(l, v):
        l.append(v)
        return l

    l = List([1, 2])
    r = push(l, 3)
    assert r is l and list(l) == [1, 2, 3]
    r.append(4)  # the same memory on both sides
    assert list(l) == [1, 2, 3, 4]


def test_made_in_compiled_code():
    @njit
    def make(n):
        l = List()
        for i in range(n):
            l.append(i * i)
        return l, List([1.5]), [1]

    a, b, c = make(4)
    assert type(a) is List and list(a) == [0, 1, 4, 9]
    assert type(b) is List and list(b) == [1.5]
    assert type(c) is list


def test_sum_in_compiled_code():
    @njit
    def total(l):
        s = 0
        for x in l:
            s += x
        return s

    l = List(range(100))
    assert total(l) == sum(range(100))


def test_nested_typed_lists():
    @njit
    def make(n):
        l = List()
        for i in range(n):
            l.append(List([i, i]))
        return l

    r = make(3)
    assert type(r) is List and [list(x) for x in r] == [[0, 0], [1, 1], [2, 2]]


def test_empty_untyped_list_cannot_be_passed():
    @njit
    def f(l):
        return len(l)

    with pytest.raises(TypeError, match="item type is not known"):
        f(List())
    assert f(List.empty_list(types.int64)) == 0


def test_list_type_objects():
    assert str(types.ListType(types.int64)) == "ListType[int64]"
    assert types.ListType(types.int64) == types.from_key(("list", "int64"))
    assert kiln.typeof([1, 2]) == types.ListType(types.int64)
    assert kiln.typeof(List([1.5])) == types.ListType(types.float64)


def test_signature_with_list_type():
    @njit(types.int64(types.ListType(types.int64)))
    def f(l):
        return len(l)

    assert f([1, 2, 3]) == 3


def test_str_argument_stored_outlives_the_call():
    # a str argument is borrowed during the call; stored into a typed.List that Python keeps, it
    # is copied, so the list's item survives the caller dropping its string
    @njit
    def push(l, s, t):
        l.append(s)
        l[0] = t
        l.append(s + "!")
        l.append("literal")

    l = List(["x"])
    s, t = "".join(["héllo", "→wörld"]), "".join(["ab", "c" * 40])
    push(l, s, t)
    want = ["".join(list(x)) for x in (t, s + "!", "literal", s)]  # copies: s, t can die
    del s, t
    import gc

    gc.collect()
    # new strings of the same sizes and kinds take the freed memory
    junk = ["".join(["→", f"{i:010d}"]) for i in range(2000)]
    junk += ["".join(["q", f"{i:041d}"]) for i in range(2000)]
    assert sorted(l) == sorted(want) and len(junk) == 4000


# ---- NumPy arrays from the interpreter (held by the container) ----

import numpy as np  # noqa: E402

def test_typed_list_of_arrays_from_the_interpreter():
    import gc

    @kiln.njit
    def total(l):
        s = 0.0
        for a in l:
            s += a.sum()
        return s

    @kiln.njit
    def push(l, a):
        l.append(a * 2)
        return len(l)

    l = kiln.typed.List()
    a = np.arange(4.0)
    l.append(a)
    l.append(np.ones(3))
    assert l[0] is a                       # read back: the same object
    del a
    gc.collect()
    np.testing.assert_array_equal(l[0], np.arange(4.0))
    assert total(l) == np.arange(4.0).sum() + 3.0
    assert push(l, np.ones(2)) == 3
    np.testing.assert_array_equal(l[2], np.full(2, 2.0))
    l[1] = np.zeros(5)
    assert total(l) == 6.0 + 4.0
    m = kiln.typed.List([np.arange(3), np.arange(2)])
    np.testing.assert_array_equal(m[1], np.arange(2))
    del l, m
    gc.collect()


def test_typed_list_of_arrays_given_type():
    lt = kiln.typed.List.empty_list(kiln.types.float64[:])
    b = np.linspace(0, 1, 3)
    lt.append(b)
    del b
    import gc
    gc.collect()
    np.testing.assert_array_equal(lt[0], np.linspace(0, 1, 3))


def test_typed_list_of_tuples_of_arrays_refused():
    l = kiln.typed.List()
    with pytest.raises(TypeError, match="interpreter"):
        l.append((np.ones(2), 1))


def test_typed_dict_of_arrays_from_the_interpreter():
    import gc

    @kiln.njit
    def norm(d, k):
        return d[k].sum()

    d = kiln.typed.Dict()
    d["é"] = np.arange(3.0)
    d["b"] = np.ones(2)
    gc.collect()
    assert norm(d, "é") == 3.0 and norm(d, "b") == 2.0
    np.testing.assert_array_equal(d["é"], np.arange(3.0))
    del d
    gc.collect()


def test_argument_arrays_stored_by_compiled_code_are_held():
    import gc

    @kiln.njit
    def push(l, a):
        l.append(a)
        l.append(a[1:])
        return len(l)

    @kiln.njit
    def pair(a, b):
        return [a, b]

    @kiln.njit
    def store(d, a):
        d["é"] = a
        return len(d)

    l = kiln.typed.List.empty_list(kiln.types.float64[:])
    a = np.arange(5.0)
    assert push(l, a) == 2
    assert l[0] is a
    del a
    gc.collect()
    junk = [np.full(5, 7.0) for _ in range(50)]
    np.testing.assert_array_equal(l[0], np.arange(5.0))
    np.testing.assert_array_equal(l[1], np.arange(1.0, 5.0))
    x, y = np.ones(2), np.zeros(3)
    r = pair(x, y)
    assert r[0] is x and r[1] is y
    d = kiln.typed.Dict.empty(key_type=kiln.types.unicode_type, value_type=kiln.types.float64[:])
    z = np.arange(3.0)
    assert store(d, z) == 1 and d["é"] is z
    del l, d, r, junk
    gc.collect()
