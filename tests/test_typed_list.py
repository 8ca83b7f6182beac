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
    assert type(r) is List and list(l) == [1, 2, 3] and list(r) == [1, 2, 3]
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
