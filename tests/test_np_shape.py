"""Shapes and joining (kiln/lib/shape.py, lib/shape.def): each function compiled and run by
NumPy on the same arguments, compared in values, dtype and shape, over dtypes, layouts (C, F,
strided, reversed) and empty arrays; views share memory and writes go through; bad input is a
TypingError at the call, mismatched shapes NumPy's exception class and message."""

import numpy as np
import pytest
from numpy.exceptions import AxisError
from numpy.lib.stride_tricks import as_strided

import kiln
from harness import LAYOUTS, arr, compiled, locate
from kiln.errors import TypingError

DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64,
          np.complex128]


def _data(shape, dtype, layout="C", start=0):
    n = int(np.prod(shape))
    v = (np.arange(start, start + n) % 7 - 2).reshape(shape)
    return arr(v, dtype, layout)


def _same(got, want):
    if isinstance(want, (list, tuple)):
        assert type(got) is type(want) or (isinstance(got, list) and isinstance(want, list)), \
            f"{type(got)} vs {type(want)}"
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    np.testing.assert_array_equal(got, want)


def check(f, *args):
    want = f(*args)
    got = compiled(f)(*args)
    _same(got, want)
    return got


def raises_same(f, *args, match_prefix=None):
    """The compiled call raises NumPy's exception class; the message starts as NumPy's does
    (kiln's messages leave out the run-time sizes)."""
    with pytest.raises(Exception) as want:
        f(*args)
    with pytest.raises(Exception) as got:
        compiled(f)(*args)
    assert isinstance(got.value, type(want.value)), (got.value, want.value)
    prefix = match_prefix if match_prefix is not None else str(want.value)
    assert str(got.value).startswith(prefix) or str(want.value).startswith(str(got.value)), \
        (str(got.value), str(want.value))


def typing_error_at(f, snippet, *args, contains=None):
    with pytest.raises(TypingError) as info:
        kiln.njit(f)(*args)
    assert info.value.line == locate(f, snippet)[0], str(info.value)
    if contains:
        assert contains in str(info.value), str(info.value)
    return info.value


# ---- concatenate and the stacks ------------------------------------------------------------


def concat0(a, b):
    return np.concatenate((a, b))


def concat1(a, b):
    return np.concatenate((a, b), axis=1)


def concat_neg(a, b):
    return np.concatenate((a, b), -1)


def concat_none(a, b):
    return np.concatenate((a, b), axis=None)


def concat_list(a, b):
    return np.concatenate([a, b, a], 0)


def concat_rt(a, b, ax):
    return np.concatenate((a, b), ax)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_concatenate_dtypes_layouts(dtype, layout):
    a = _data((2, 3), dtype, layout)
    b = _data((2, 3), dtype, "C", 5)
    for f in (concat0, concat1, concat_neg, concat_none, concat_list):
        check(f, a, b)


@pytest.mark.parametrize("ax", [0, 1, 2, -1, -3])
def test_concatenate_runtime_axis_3d(ax):
    a = _data((2, 3, 4), np.float64)
    check(concat_rt, a, a.copy(), ax)


def test_concatenate_heterogeneous_tuple_promotes():
    check(concat1, _data((2, 3), np.int8), _data((2, 2), np.float32))
    check(concat0, _data((2, 3), np.bool_), _data((1, 3), np.int64, "F"))
    check(concat0, _data((2,), np.int32), _data((3,), np.complex128))
    check(concat_none, _data((2, 2), np.uint16), _data((3,), np.int8))


def test_concatenate_empty_and_three_items():
    check(concat0, np.zeros((0, 3)), _data((2, 3), np.float64))
    check(concat1, np.zeros((2, 0)), np.zeros((2, 0)))
    check(concat_list, np.zeros(0), np.zeros(0))


def concat_list_arg(xs):
    return np.concatenate(xs)


def test_concatenate_list_argument():
    check(concat_list_arg, [np.arange(3.0), np.arange(2.0), np.arange(4.0)])


def test_concatenate_mismatch_messages():
    raises_same(concat0, np.zeros((2, 3)), np.zeros((2, 4)),
                match_prefix="all the input array dimensions except for the concatenation axis "
                "must match exactly")
    raises_same(concat_rt, np.zeros((2, 3)), np.zeros((2, 3)), 2,
                match_prefix="axis")


def concat_bad_ndim(a, b):
    return np.concatenate((a, b))


def concat_0d(a):
    return np.concatenate((a, a))


def concat_bad_seq(a):
    return np.concatenate(a)


def test_concatenate_bad_input_is_a_typing_error_at_the_call():
    typing_error_at(concat_bad_ndim, "np.concatenate", np.zeros(2), np.zeros((2, 2)),
                    contains="same number of dimensions")
    typing_error_at(concat_0d, "np.concatenate", np.array(1.0), contains="zero-dimensional")
    typing_error_at(concat_bad_seq, "np.concatenate", np.zeros(2), contains="tuple or a list")


def stack0(a, b):
    return np.stack((a, b))


def stack_rt(a, b, ax):
    return np.stack((a, b), axis=ax)


def stack_list(a, b):
    return np.stack([a, b, a], -1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_stack_dtypes_layouts(dtype, layout):
    a = _data((2, 3), dtype, layout)
    b = _data((2, 3), dtype, "F", 3)
    check(stack0, a, b)
    check(stack_list, a, b)
    for ax in (0, 1, 2, -1, -3):
        check(stack_rt, a, b, ax)


def test_stack_1d_0d_empty_and_mixed_dtypes():
    check(stack0, np.arange(3), np.arange(3.0))
    check(stack0, np.array(1.5), np.array(2.5))
    check(stack_rt, np.zeros((0, 2)), np.zeros((0, 2)), 1)


def test_stack_shape_mismatch():
    raises_same(stack0, np.zeros(3), np.zeros(4))
    raises_same(stack_rt, np.zeros(3), np.zeros(3), 2, match_prefix="axis")


def hstack(a, b):
    return np.hstack((a, b))


def vstack(a, b):
    return np.vstack((a, b))


def dstack(a, b):
    return np.dstack((a, b))


def column_stack(a, b):
    return np.column_stack((a, b))


def vstack_list(xs):
    return np.vstack(xs)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float64, np.complex64])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("f", [hstack, vstack, dstack, column_stack])
def test_stacks(f, dtype, layout):
    for shape in [(3,), (2, 3)]:
        check(f, _data(shape, dtype, layout), _data(shape, dtype, "C", 4))
    check(f, np.array(2.0).astype(dtype), np.array(3.0).astype(dtype)) if f is not column_stack \
        else None


def test_stacks_mixed_ndim_and_dtype():
    check(vstack, _data((2, 3), np.int64), _data((3,), np.float32))
    check(hstack, _data((2,), np.int8), _data((4,), np.uint8))
    check(dstack, _data((2, 3), np.float64), _data((2, 3, 2), np.float64))
    check(column_stack, _data((3,), np.int64), _data((3, 2), np.float64, "F"))
    check(vstack_list, [np.arange(3.0), np.arange(3.0)])
    raises_same(vstack, np.zeros((2, 3)), np.zeros(4),
                match_prefix="all the input array dimensions except for the concatenation axis")


# ---- splitting -------------------------------------------------------------------------------


def split_n(a, n):
    return np.split(a, n)


def split_idx(a):
    return np.split(a, (1, 3), axis=1)


def split_idx_arr(a, idx):
    return np.split(a, idx, 0)


def array_split(a, n, ax):
    return np.array_split(a, n, ax)


def hsplit(a, n):
    return np.hsplit(a, n)


def vsplit(a, n):
    return np.vsplit(a, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_splits(dtype, layout):
    a = _data((4, 6), dtype, layout)
    check(split_n, a, 2)
    check(split_idx, a)
    check(split_idx_arr, a, np.array([1, 2, 10]))
    check(split_idx_arr, a, np.array([3, -1]))
    for n, ax in [(3, 1), (4, 1), (5, 0), (1, -1)]:
        check(array_split, a, n, ax)
    check(hsplit, a, 3)
    check(vsplit, a, 2)
    check(hsplit, _data((6,), dtype, layout), 2)


def split_write(a):
    parts = np.split(a, 2)
    parts[1][0] = 99.0
    return a


def test_split_pieces_are_views():
    a = np.arange(6.0)
    assert compiled(split_write)(a) is a
    assert a[3] == 99.0


def test_split_errors():
    raises_same(split_n, np.arange(5), 2)
    raises_same(array_split, np.arange(5), 0, 0)
    raises_same(split_n, np.arange(4).reshape(2, 2), 0)


def vsplit_1d(a):
    return np.vsplit(a, 2)


def test_vsplit_1d_is_a_typing_error():
    typing_error_at(vsplit_1d, "np.vsplit", np.arange(4), contains="2 or more dimensions")


# ---- atleast_*d ------------------------------------------------------------------------------


def atl1(a):
    return np.atleast_1d(a)


def atl2(a):
    return np.atleast_2d(a)


def atl3(a):
    return np.atleast_3d(a)


def atl_many(a, b):
    return np.atleast_2d(a, b)


@pytest.mark.parametrize("f", [atl1, atl2, atl3])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 2), (0,)])
@pytest.mark.parametrize("layout", ["C", "strided"])
def test_atleast(f, shape, layout):
    a = _data(shape, np.float64, layout) if shape else np.array(2.5)
    check(f, a)


def test_atleast_scalars_and_several():
    check(atl1, 3.0)
    check(atl3, 7)
    check(atl_many, np.arange(3), np.ones((2, 2)))


def atl2_write(a):
    v = np.atleast_2d(a)
    v[0, 1] = 5
    return a


def test_atleast_is_a_view():
    a = np.zeros(3)
    compiled(atl2_write)(a)
    assert a[1] == 5


# ---- views: expand_dims, squeeze, swapaxes, moveaxis, flip, rot90, broadcast_to ---------------


def expand(a, ax):
    return np.expand_dims(a, ax)


def expand_t(a):
    return np.expand_dims(a, (0, -1))


def squeeze(a, ax):
    return np.squeeze(a, ax)


def squeeze_m(a):
    return a.squeeze((0, 2))


def squeeze_0d(a):
    return np.squeeze(a)


def swap(a, i, j):
    return np.swapaxes(a, i, j)


def swap_m(a):
    return a.swapaxes(0, -1)


def moveaxis(a, s, d):
    return np.moveaxis(a, s, d)


def moveaxis_t(a):
    return np.moveaxis(a, (0, 1), (-1, 0))


def flip_all(a):
    return np.flip(a)


def flip_ax(a, ax):
    return np.flip(a, ax)


def flip_t(a):
    return np.flip(a, (0, 2))


def fliplr(a):
    return np.fliplr(a)


def flipud(a):
    return np.flipud(a)


def rot90(a, k):
    return np.rot90(a, k)


def rot90_axes(a, k):
    return np.rot90(a, k, (2, 0))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_views_values(dtype, layout):
    a = _data((2, 3, 4), dtype, layout)
    for ax in (0, 1, 3, -1, -4):
        check(expand, a, ax)
    check(expand_t, a)
    for i, j in [(0, 1), (0, 2), (-1, 0), (1, 1)]:
        check(swap, a, i, j)
    check(swap_m, a)
    for s, d in [(0, 2), (2, 0), (-1, 1), (1, 1)]:
        check(moveaxis, a, s, d)
    check(moveaxis_t, a)
    check(flip_all, a)
    for ax in (0, 1, 2, -1):
        check(flip_ax, a, ax)
    check(flip_t, a)
    check(fliplr, a)
    check(flipud, a)
    for k in (-1, 0, 1, 2, 3, 5):
        check(rot90, a, k)
        check(rot90_axes, a, k)
    b = _data((1, 3, 1), dtype, layout)
    check(squeeze, b, 0)
    check(squeeze, b, -1)
    check(squeeze_m, b)
    check(squeeze_0d, np.array(1.0).astype(dtype))


def test_views_of_empty_arrays():
    a = np.zeros((0, 3))
    check(expand, a, 1)
    check(swap, a, 0, 1)
    check(flip_all, a)
    check(rot90, a, 1)
    check(squeeze, np.zeros((0, 1)), 1)


def view_writes(a):
    np.expand_dims(a, 0)[0, 0, 0] = 1.0
    np.swapaxes(a, 0, 1)[2, 0] = 2.0
    np.moveaxis(a, 0, -1)[1, 1] = 3.0
    np.flip(a)[0, 0] = 4.0
    np.squeeze(np.expand_dims(a, 1), 1)[0, 1] = 5.0
    np.rot90(a)[0, 0] = 6.0
    as_strided(a, (2,), (a.strides[0] + a.strides[1],))[1] = 7.0
    return a


def test_views_share_memory_and_writes_go_through():
    want = view_writes(np.zeros((2, 3)))
    a = np.zeros((2, 3))
    got = compiled(view_writes)(a)
    assert got is a
    np.testing.assert_array_equal(a, want)


def view_of(a):
    return np.swapaxes(a, 0, 1), np.flip(a, 0), np.expand_dims(a, 0), np.broadcast_to(a, (2, 2, 3))


def test_returned_views_share_memory():
    a = np.arange(6.0).reshape(2, 3)
    for v in compiled(view_of)(a):
        assert np.shares_memory(v, a)
    assert not compiled(view_of)(a)[3].flags.writeable


def test_view_errors():
    raises_same(squeeze, np.zeros((2, 3)), 0)
    raises_same(expand, np.zeros(2), 3, match_prefix="axis")
    raises_same(swap, np.zeros((2, 2)), 0, 2, match_prefix="axis")
    raises_same(moveaxis, np.zeros((2, 2)), 0, -3, match_prefix="axis")
    raises_same(flip_ax, np.zeros((2, 2)), 2, match_prefix="axis")


def squeeze_none(a):
    return np.squeeze(a)


def fliplr_1d(a):
    return np.fliplr(a)


def swap_float(a):
    return np.swapaxes(a, 0, 1.5)


def test_view_bad_input_typing_errors():
    typing_error_at(squeeze_none, "np.squeeze", np.zeros((1, 2)), contains="axis=None")
    typing_error_at(fliplr_1d, "np.fliplr", np.zeros(2), contains=">= 2-d")
    typing_error_at(swap_float, "np.swapaxes", np.zeros((2, 2)), contains="axis2")


def bto(a):
    return np.broadcast_to(a, (4, 2, 3))


def bto_int(a, n):
    return np.broadcast_to(a, n)


def barr(a, b, c):
    return np.broadcast_arrays(a, b, c)


def bto_write(a):
    b = np.broadcast_to(a, (2, 3))
    b[0, 0] = 1.0
    return b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["C", "strided", "reversed"])
def test_broadcast(dtype, layout):
    check(bto, _data((3,), dtype, layout))
    check(bto, _data((2, 1), dtype, layout))
    check(bto_int, _data((1,), dtype, layout), 5)
    check(barr, _data((3,), dtype, layout), _data((2, 1), np.float32), np.array(1))


def test_broadcast_errors_and_readonly():
    raises_same(bto, np.zeros(4), match_prefix="operands could not be broadcast together with "
                "remapped shapes [original->remapped]")
    raises_same(bto_int, np.zeros(1), -1)
    raises_same(barr, np.zeros(3), np.zeros(2), np.zeros(1),
                match_prefix="shape mismatch: objects cannot be broadcast to a single shape")
    with pytest.raises(TypingError, match="read"):
        kiln.njit(bto_write)(np.zeros(3))
    r = compiled(bto)(np.arange(3.0))
    assert not r.flags.writeable


def as_strided_f(a):
    return as_strided(a, shape=(3, 2), strides=(a.strides[0], a.strides[0]))


def as_strided_ro(a):
    return np.lib.stride_tricks.as_strided(a, (2, 2), (0, a.strides[0]), writeable=False)


def as_strided_list(a):
    return as_strided(a, [2], [8])


def test_as_strided():
    a = np.arange(4.0)
    check(as_strided_f, a)
    r = compiled(as_strided_ro)(a)
    np.testing.assert_array_equal(r, as_strided_ro(a))
    assert not r.flags.writeable and np.shares_memory(r, a)
    typing_error_at(as_strided_list, "as_strided(a", a, contains="tuple of integers")


# ---- copies: tile, repeat, roll, resize, append, insert, delete, trim_zeros ------------------


def tile(a, r):
    return np.tile(a, r)


def tile_t(a):
    return np.tile(a, (2, 1, 3))


def repeat(a, r):
    return np.repeat(a, r)


def repeat_ax(a, r, ax):
    return np.repeat(a, r, axis=ax)


def repeat_m(a, r):
    return a.repeat(r, 1)


def roll(a, s):
    return np.roll(a, s)


def roll_ax(a, s, ax):
    return np.roll(a, s, axis=ax)


def roll_t(a):
    return np.roll(a, (1, -2), (0, 1))


def resize(a, shape):
    return np.resize(a, shape)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_copies(dtype, layout):
    a = _data((2, 3), dtype, layout)
    check(tile, a, 2)
    check(tile, a, (2, 2))
    check(tile_t, a)
    check(tile, a, 0)
    check(repeat, a, 2)
    check(repeat, a, np.array([0, 1, 2, 0, 1, 2]))
    check(repeat_ax, a, 3, 0)
    check(repeat_ax, a, np.array([1, 0, 2]), -1)
    check(repeat_m, a, np.array([2]))
    for s in (0, 1, -1, 7, -8):
        check(roll, a, s)
        check(roll_ax, a, s, 1)
        check(roll_ax, a, s, -2)
    check(roll_t, a)
    for shape in [(3, 4), (1,), (0,), 5, (2, 3, 2)]:
        check(resize, a, shape)


def test_copies_of_empty_arrays():
    e = np.zeros((0, 2))
    check(tile, e, 3)
    check(repeat, e, 2)
    check(roll, e, 1)
    check(roll_ax, e, 1, 0)
    check(resize, np.zeros(0), (2, 2))


def test_copy_errors():
    raises_same(repeat, np.arange(3), np.array([1, 2]),
                match_prefix="operands could not be broadcast together with shape")
    raises_same(repeat, np.arange(3), -1)
    raises_same(resize, np.arange(3), (-1, 2))
    raises_same(tile, np.arange(3), -1)
    raises_same(roll_ax, np.arange(3), 1, 1, match_prefix="axis")


def append(a, v):
    return np.append(a, v)


def append_ax(a, v, ax):
    return np.append(a, v, axis=ax)


def insert(a, i, v):
    return np.insert(a, i, v)


def insert_ax(a, i, v, ax):
    return np.insert(a, i, v, axis=ax)


def delete(a, o):
    return np.delete(a, o)


def delete_ax(a, o, ax):
    return np.delete(a, o, ax)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.float32, np.complex128])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_append_insert_delete(dtype, layout):
    a = _data((3, 4), dtype, layout)
    b = _data((3, 4), dtype, "C", 2)
    check(append, a, b)
    check(append, a, 2)
    check(append_ax, a, b, 0)
    check(append_ax, a, b, -1)
    check(append, a, _data((2,), np.float64))
    for i in (0, 2, -1, 12):
        check(insert, a, i, 9)
    check(insert, a, 1, _data((3,), dtype))
    for ax in (0, 1, -1):
        for i in (0, 1, -1):
            check(insert_ax, a, i, 5, ax)
        check(insert_ax, a, 2, _data((a.shape[1 - ax % 2],), dtype), ax)
        check(insert_ax, a, 1, _data((1,), dtype), ax)
    for o in (0, 3, -1):
        check(delete, a, o)
        check(delete_ax, a, o, 1)
    check(delete, a, np.array([0, 5, 11, 5]))
    check(delete_ax, a, np.array([True, False, True]), 0)
    check(delete_ax, a, np.array([-1, 0]), 1)


def test_append_insert_delete_errors():
    raises_same(insert, np.arange(3), 5, 1, match_prefix="index")
    raises_same(delete, np.arange(3), 3, match_prefix="index")
    raises_same(delete_ax, np.zeros((2, 2)), np.array([True]), 0,
                match_prefix="boolean array argument obj to delete must be one dimensional and "
                "match the axis length")
    raises_same(append_ax, np.zeros((2, 2)), np.zeros((2, 3)), 0,
                match_prefix="all the input array dimensions except for the concatenation axis")


def append_bad(a):
    return np.append(a, "x")


def insert_bad(a):
    return np.insert(a, 1.5, 0)


def test_append_insert_bad_input():
    typing_error_at(append_bad, "np.append", np.zeros(2), contains="arrays or numbers")
    typing_error_at(insert_bad, "np.insert", np.zeros(2), contains="obj must be an int")


def trim(a):
    return np.trim_zeros(a)


def trim_f(a):
    return np.trim_zeros(a, "f")


def trim_b(a):
    return np.trim_zeros(a, "b")


@pytest.mark.parametrize("dtype", DTYPES)
def test_trim_zeros(dtype):
    for v in ([0, 0, 1, 2, 0, 3, 0], [0, 0], [], [1], [0, 1, 0]):
        a = np.array(v, dtype=dtype)
        for f in (trim, trim_f, trim_b):
            check(f, a)
    a = np.array([0.0, 1.0, 0.0])
    assert np.shares_memory(compiled(trim)(a), a)
