"""Advanced indexing and NumPy's indexing functions, against NumPy as the oracle.

Integer-array and boolean-mask indexing (getting and setting, any axis, mixed with ints,
slices, None and Ellipsis), ``a[idx] += 1`` (buffered, as NumPy), np.take/a.take, np.put,
np.take_along_axis, np.nonzero/flatnonzero/argwhere, np.where, np.extract, np.place,
np.select, np.choose, a.flat, np.ndindex, np.ndenumerate, np.nditer. Every case runs the
interpreted and the compiled function on copies of the same arrays and compares the results
(values, dtype, shape) and the arrays written, or the exception class (and NumPy's message where
kiln gives the same one).
"""

import numpy as np
import pytest

import kiln
from harness import LAYOUTS, arr, assert_diagnostic, compiled, run

TypingError = kiln.errors.TypingError

DTYPES = [np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64, np.complex128, np.bool_]
INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _same_value(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same_value(g, w)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), f"expected an array, got {got!r}"
        assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
        assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
        np.testing.assert_array_equal(got, want)
        return
    if want is None:
        assert got is None
        return
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def same(func, *args, message=True):
    """Compiled func and func on copies of args: same result and same arrays afterwards, or the
    same exception (its message too when message is True)."""
    pa, ka = _copies(args), _copies(args)
    want = run(func, *pa)
    got = run(compiled(func), *ka)
    if want[0] == "raise":
        assert got[0] == "raise", f"expected {want[1]!r}, got {got[1]!r}"
        assert type(got[1]) is type(want[1]), f"{got[1]!r} != {want[1]!r}"
        if message:
            assert str(got[1]) == str(want[1])
        return
    assert got[0] == "ok", f"raised {got[1]!r}, NumPy gave {want[1]!r}"
    _same_value(got[1], want[1])
    for g, w in zip(ka, pa):
        if isinstance(w, np.ndarray):
            _same_value(g, w)


# ---- getting ------------------------------------------------------------------------------


def get_idx(a, i):
    return a[i]


def get_row_idx(a, i):
    return a[:, i]


def get_int_then_idx(a, i):
    return a[0, :, i]


def get_idx_int(a, i):
    return a[i, :, 0]


def get_slice_int_idx(a, i):
    return a[:, 0, i]


def get_idx_none(a, i):
    return a[:, i, None]


def get_none_idx(a, i):
    return a[None, :, i]


def get_idx_none_idx(a, i):
    return a[i, None, i]


def get_two(a, i):
    return a[i, i]


def get_ellipsis(a, i):
    return a[..., i]


def get_strided(a, i):
    return a[::-1, i, ::2]


def get_broadcast(a, i):
    return a[i, i.reshape(-1, 1)]


def get_mask(a):
    return a[a > 2]


def get_mask_rows(a, m):
    return a[m]


def get_mask_axis1(a, m):
    return a[:, m]


def get_mask_and_idx(a, m, i):
    return a[m, i]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_get_1d(dtype, layout):
    a = arr(np.arange(10), dtype, layout)
    for i in (np.array([0, 3, -1, 3]), np.array([], np.int64), np.array([[1, 2], [0, 9]])):
        same(get_idx, a, i)
    same(get_mask, a)


@pytest.mark.parametrize("idt", INDEX_DTYPES)
def test_index_dtypes(idt):
    a = np.arange(10.0)
    same(get_idx, a, np.array([0, 9, 4], idt))
    same(set_idx, a, np.array([0, 9, 4], idt), 5.0)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("func", [get_int_then_idx, get_idx_int, get_slice_int_idx, get_idx_none,
                                  get_none_idx, get_idx_none_idx, get_two, get_ellipsis,
                                  get_strided, get_broadcast, get_idx, get_row_idx])
def test_get_3d_placement(layout, func):
    a = arr(np.arange(60).reshape(3, 4, 5), np.float64, layout)
    same(func, a, np.array([2, 0, -1]))
    same(func, a, np.array([], np.intp))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_get_masks(layout):
    a = arr(np.arange(24).reshape(4, 6), np.int32, layout)
    same(get_mask, a)
    same(get_mask_rows, a, np.array([True, False, True, True]))
    same(get_mask_rows, a, a % 3 == 0)  # a mask of the whole shape
    same(get_mask_axis1, a, arr([True, False] * 3, np.bool_, layout))
    same(get_mask_and_idx, a, np.array([True, False, True, False]), np.array([5, 0]))
    same(get_mask_rows, a, np.zeros(4, bool))


def test_get_empty_array():
    a = np.zeros((0, 3))
    same(get_row_idx, a, np.array([2, 0]))
    same(get_row_idx, a, np.array([5]))  # out of bounds even with nothing to take
    same(get_idx, np.zeros(0), np.array([], np.int64))
    same(get_mask, np.zeros((0, 4)))


def test_get_errors():
    a = np.arange(10.0)
    same(get_idx, a, np.array([10]))
    same(get_idx, a, np.array([-11]))
    same(get_idx, np.zeros((0,)), np.array([0]))
    same(get_int_then_idx, np.zeros((3, 4, 5)), np.array([7]))
    same(get_mask_rows, a, np.array([True, False]))
    same(get_mask_axis1, np.zeros((2, 3)), np.array([True]))
    # NumPy's text names the shapes, kiln's does not
    same(get_two, np.zeros((4, 4)), np.array([1]) * 0 + np.array([0, 1, 2]), message=True)
    same(get_broadcast, np.zeros((4, 4, 4)), np.array([0, 1]), message=True)
    same(get_mask_and_idx, np.zeros((4, 4)), np.ones(4, bool), np.array([0, 1]), message=False)


def test_get_is_a_copy():
    def f(a):
        b = a[np.array([0, 1])]
        b[0] = 100.0
        return a, b

    same(f, np.arange(3.0))


# ---- setting ------------------------------------------------------------------------------


def set_idx(a, i, v):
    a[i] = v
    return a


def set_row_idx(a, i, v):
    a[:, i] = v
    return a


def set_mask(a, v):
    a[a > 2] = v
    return a


def set_mask_given(a, m, v):
    a[m] = v
    return a


def iadd_idx(a, i):
    a[i] += 1
    return a


def imul_mask(a):
    a[a > 3] *= 2
    return a


def set_self_overlap(a):
    i = np.array([3, 1, 2])
    a[i] = a[i[::-1]] * 2
    return a


def set_from_view(a):
    a[np.array([0, 1, 2])] = a[1:4]
    return a


def set_mask_from_view(a):
    a[a > 4] = a[:5]
    return a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_set_1d(dtype, layout):
    a = arr(np.arange(10), dtype, layout)
    same(set_idx, a, np.array([0, 3, -1]), 1)
    same(set_idx, a, np.array([0, 3, -1]), arr([7, 8, 9], dtype, "C"))
    same(set_idx, a, np.array([], np.int64), 1)
    same(set_mask, a, 0)
    same(set_mask_given, a, arr(np.arange(10) % 2 == 0, np.bool_, layout), arr([1] * 5, dtype))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_set_2d(layout):
    a = arr(np.arange(24).reshape(4, 6), np.float64, layout)
    same(set_row_idx, a, np.array([5, 0]), -1.0)
    same(set_row_idx, a, np.array([5, 0]), np.array([[1.0], [2.0], [3.0], [4.0]]))
    same(set_row_idx, a, np.array([5, 0]), np.array([1.0, 2.0]))
    same(set_idx, a, np.array([1, 3]), np.arange(6))  # int value into float rows
    same(set_mask_given, a, np.array([True, False, True, False]), np.arange(6.0))
    same(set_mask_given, a, a > 10, -a[a > 10] if False else 7.0)


def test_set_value_conversion():
    a = np.arange(6, dtype=np.int32)
    same(set_idx, a, np.array([1, 2]), np.array([1.9, -2.5]))
    same(set_idx, np.zeros(3, bool), np.array([1]), 5)
    same(set_idx, np.zeros(3, np.complex64), np.array([1, 2]), 2.5)


def test_augmented_is_buffered():
    # repeated indices add once, as NumPy's a[i] += 1 (getitem, add, setitem)
    same(iadd_idx, np.zeros(5), np.array([1, 1, 3, 1]))
    same(iadd_idx, np.zeros((3, 2), np.int64), np.array([0, 0, 2]))
    same(imul_mask, np.arange(8.0))


def test_set_overlapping_values():
    same(set_self_overlap, np.arange(6.0))
    same(set_from_view, np.arange(6.0))
    same(set_mask_from_view, np.arange(10.0))


def test_set_errors():
    a = np.arange(5.0)
    same(set_idx, a, np.array([5]), 1.0)
    same(set_idx, a, np.array([0, 1]), np.arange(3.0), message=False)
    same(set_mask, a, np.arange(3.0))
    same(set_mask_given, a, np.array([True]), 1.0)


def test_set_checks_bounds_before_writing():
    a = np.arange(5.0)
    b = a.copy()
    with pytest.raises(IndexError):
        compiled(set_idx)(b, np.array([0, 9]), -1.0)
    np.testing.assert_array_equal(a, b)


# ---- functions ----------------------------------------------------------------------------


def take_flat(a, i):
    return np.take(a, i)


def take_axis(a, i, ax):
    return np.take(a, i, axis=ax)


def take_method(a, i):
    return a.take(i)


def take_method_axis(a, i):
    return a.take(i, axis=-1)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_])
def test_take(layout, dtype):
    a = arr(np.arange(24).reshape(2, 3, 4), dtype, layout)
    same(take_flat, a, np.array([0, 23, -1, 5]))
    same(take_flat, a, 7)
    same(take_method, a, np.array([[1, 2], [3, 4]]))
    same(take_method_axis, a, np.array([3, 0]))
    for ax in (0, 1, 2, -1):
        same(take_axis, a, np.array([1, 0]), ax)
        same(take_axis, a, 1, ax)
    same(take_axis, a, np.array([0]), 3, message=False)
    same(take_flat, a, np.array([24]))
    m = arr(np.arange(12).reshape(3, 4), dtype, layout)
    for ax in (0, 1):
        same(take_axis, m, np.array([2, -1]), ax)
    same(take_axis, np.arange(5.0), np.array([4, 0]), 0)


def put(a, ind, v):
    np.put(a, ind, v)
    return a


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.bool_])
def test_put(dtype):
    a = np.zeros((3, 4), dtype)
    same(put, a, np.array([0, 5, -1]), np.array([1, 2, 3], dtype))
    same(put, a, np.array([0, 5, 6, 7]), np.array([1, 2], dtype))  # v repeats
    same(put, a, 3, 1)
    same(put, a, np.array([12]), 1, message=False)
    same(put, np.zeros(6, dtype)[::2], np.array([0, 2]), 1)
    same(put, a, np.array([1]), np.zeros(0, dtype))


def tal(a, i, ax):
    return np.take_along_axis(a, i, ax)


def tal_none(a, i):
    return np.take_along_axis(a, i, None)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_take_along_axis(layout):
    a = arr(np.random.default_rng(1).integers(0, 100, (3, 4)), np.float64, layout)
    for ax in (0, 1, -1):
        same(tal, a, np.argsort(a, axis=ax), ax)
    same(tal, a, np.array([[0, 2, 1, 0]]), 0)
    same(tal, a, np.array([[3], [0], [1]]), 1)
    b = arr(np.arange(24).reshape(2, 3, 4), np.int32, layout)
    for ax in (0, 1, 2):
        same(tal, b, np.zeros((1, 1, 1), np.int64), ax)
        same(tal, b, np.argsort(-b, axis=ax), ax)
    same(tal, np.arange(5), np.array([4, 0, -1]), 0)
    same(tal_none, a, np.array([11, 0]))
    same(tal, a, np.array([[5, 0, 0, 0]]), 0, message=False)


def nonzero(a):
    return np.nonzero(a)


def flatnonzero(a):
    return np.flatnonzero(a)


def argwhere(a):
    return np.argwhere(a)


def where1(a):
    return np.where(a > 2)


def where3(a):
    return np.where(a > 2, a, -a)


def where3_scalars(a):
    return np.where(a > 2, 1.5, 0)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.bool_, np.complex128])
def test_nonzero_family(layout, dtype):
    a = arr(np.array([[0, 3, 0, 1], [2, 0, 0, 5], [0, 0, 0, 0]]), dtype, layout)
    for f in (nonzero, flatnonzero, argwhere):
        same(f, a)
        same(f, a[0])
        same(f, np.zeros((0, 3), dtype))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_where_forms(layout):
    a = arr(np.arange(12).reshape(3, 4) - 4.0, np.float64, layout)
    same(where1, a)
    same(where3, a)
    same(where3_scalars, a)


def where_three_scalars(x):
    return np.where(x > 0, 1.5, 2)


def test_where_three_scalars_is_a_0d_array():
    for x in (1.0, -1.0):
        same(where_three_scalars, x)


def bad_readonly_set(a):
    a[np.array([0])] = 1.0


def test_readonly_fancy_set_rejected():
    a = np.arange(3.0)
    a.flags.writeable = False
    with pytest.raises(TypingError) as info:
        compiled(bad_readonly_set)(a)
    assert_diagnostic(info.value, TypingError, bad_readonly_set, "a[np.array([0])] = 1.0",
                      contains=["read-only"])


def extract(c, a):
    return np.extract(c, a)


def place(a, m, v):
    np.place(a, m, v)
    return a


@pytest.mark.parametrize("layout", LAYOUTS)
def test_extract_place(layout):
    a = arr(np.arange(12).reshape(3, 4), np.float64, layout)
    same(extract, a % 3 == 0, a)
    same(extract, (a % 2).astype(np.int64), a)
    same(place, a, a > 5, np.array([-1.0, -2.0]))
    same(place, a, a > 5, 0.5)
    same(place, a, a > 100, np.zeros(0))
    same(place, a, a > 5, np.zeros(0), message=True)


def select3(a):
    return np.select([a < 3, a > 8, a == 5], [a, a * 10, -a], 42)


def select_tuple(a):
    return np.select((a < 3, a > 8), (a, a * 0.5))


def choose(i, a, b, c):
    return np.choose(i, [a, b, c])


def choose_tuple(i, a, b):
    return np.choose(i, (a, b))


def test_select_choose():
    a = np.arange(12).reshape(3, 4)
    same(select3, a)
    same(select_tuple, a)
    same(select3, a.astype(np.float32))
    i = np.array([[0, 1, 2, 1], [2, 2, 0, 0], [1, 1, 1, 1]])
    same(choose, i, a, a * 10, a * 100)
    same(choose_tuple, np.array([0, 1, 1]), np.arange(3.0), np.arange(3.0) + 10)
    same(choose, np.array([0, 3]), np.zeros(2), np.ones(2), np.ones(2))


# ---- iteration ----------------------------------------------------------------------------


def flat_sum(a):
    s = 0.0
    for x in a.flat:
        s = s * 0.5 + x
    return s


def flat_get(a):
    return a.flat[5], a.flat[-1], a.flat[np.array([0, 2])]


def flat_set(a):
    a.flat[3] = -1
    a.flat[np.array([0, 1])] = 7
    a.flat[a.flat[:] > 20] = 0
    return a


def flat_len(a):
    return len(a.flat)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_flat(dtype):
    a = np.arange(24, dtype=dtype).reshape(2, 3, 4)
    same(flat_sum, a)
    same(flat_get, a)
    same(flat_set, a)
    same(flat_len, a)
    same(flat_sum, np.arange(10.0)[::3])  # a 1-d view, any layout
    same(flat_set, np.arange(30.0)[::-1])


def ndindex_args(n, m):
    s = 0
    for i, j in np.ndindex(n, m):
        s = s * 3 + i * 10 + j
    return s


def ndindex_tuple(a):
    out = []
    for t in np.ndindex(a.shape):
        out.append(t)
    return out


def ndindex_1(n):
    s = 0
    for (i,) in np.ndindex(n):
        s += i
    return s


def test_ndindex():
    same(ndindex_args, 3, 4)
    same(ndindex_args, 0, 4)
    same(ndindex_1, 5)
    for shape in ((2,), (2, 3), (2, 1, 3), (1, 2, 2, 2)):
        same(ndindex_tuple, np.zeros(shape))


def ndenumerate(a):
    s = 0.0
    for idx, x in np.ndenumerate(a):
        s = s * 0.5 + x * (idx[0] + 1)
    return s


def ndenumerate_list(a):
    out = []
    for idx, x in np.ndenumerate(a):
        out.append(idx)
    return out


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ndenumerate(layout):
    for shape in ((5,), (2, 3), (2, 3, 2), (2, 1, 2, 2)):
        a = arr(np.arange(np.prod(shape)).reshape(shape), np.float64, layout)
        same(ndenumerate, a)
        same(ndenumerate_list, a)


def nditer_read(a):
    s = 0.0
    for x in np.nditer(a):
        s = s * 0.5 + x[()]
    return s


def nditer_write(a):
    for x in np.nditer(a, op_flags=["readwrite"]):
        x[...] = x * 2 + 1
    return a


@pytest.mark.parametrize("layout", ["C", "F"])
def test_nditer(layout):
    # memory order, as NumPy's default order='K', for C and F arrays
    for shape in ((5,), (3, 4), (2, 3, 4)):
        a = arr(np.arange(np.prod(shape)).reshape(shape), np.float64, layout)
        same(nditer_read, a)
        same(nditer_write, a)


# ---- bad input ----------------------------------------------------------------------------


def bad_float_index(a):
    return a[np.array([1.0])]


def bad_list_index(a):
    return a[[0, 1]]


def bad_too_many(a):
    return a[np.array([0]), np.array([0])]


def bad_set_float_index(a):
    a[np.array([0.5])] = 1.0


def bad_take_indices(a):
    return np.take(a, 1.5)


def bad_take_axis(a):
    return np.take(a, np.array([0]), axis=1.5)


def bad_put_layout(a):
    np.put(a, np.array([0]), 1.0)


def bad_tal_ndim(a):
    return np.take_along_axis(a, np.array([0]), 0)


def bad_select(a):
    return np.select([a], [a])


def bad_choose(a):
    return np.choose(a, [a])


def bad_flat(a):
    return a.flat[0]


def bad_ndindex(a):
    for i in np.ndindex(1.5):
        pass


@pytest.mark.parametrize("func, arg, snippet, words", [
    (bad_float_index, np.arange(3.0), "a[np.array([1.0])]", ["integer or boolean type"]),
    (bad_list_index, np.arange(3.0), "a[[0, 1]]", ["not list"]),
    (bad_too_many, np.arange(3.0), "a[np.array([0]), np.array([0])]", ["too many indices"]),
    (bad_set_float_index, np.arange(3.0), "np.array([0.5])", ["integer or boolean type"]),
    (bad_take_indices, np.arange(3.0), "np.take(a, 1.5)", ["indices must be"]),
    (bad_take_axis, np.ones((2, 2)), "np.take(", ["axis must be"]),
    (bad_put_layout, np.ones((2, 2)).T, "np.put(", ["C-contiguous"]),
    (bad_tal_ndim, np.ones((2, 2)), "np.take_along_axis(", ["same number of dimensions"]),
    (bad_select, np.arange(3.0), "np.select(", ["boolean arrays"]),
    (bad_choose, np.arange(3.0), "np.choose(", ["integer array"]),
    (bad_flat, np.ones((2, 2)).T, "a.flat", ["C-contiguous"]),
    (bad_ndindex, np.ones(1), "np.ndindex(1.5)", ["ints"]),
])
def test_bad_input(func, arg, snippet, words):
    with pytest.raises(TypingError) as info:
        compiled(func)(arg)
    assert_diagnostic(info.value, TypingError, func, snippet, contains=words)
