"""np.frombuffer in compiled code, with NumPy as the oracle: bytes, bytearray and memoryview
arguments (1-d uint8 arrays over their bytes in compiled code, read-only for bytes, as Numba's
buffer types) and 1-d C-contiguous arrays; dtype= (a class, a string, a.dtype, absent:
float64), count= and offset= (positional or keywords), NumPy's ValueErrors with its messages,
read-only results for read-only buffers, writes through a bytearray's view, a returned view
keeping its buffer alive and un-resizable (as NumPy's), and bad arguments as TypingErrors at
the argument.
"""

import gc
import sys

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

TypingError = kiln.errors.TypingError

DATA = bytes(range(1, 33))


def fb_default(b):
    return np.frombuffer(b)


def fb_dtype(b):
    return np.frombuffer(b, dtype=np.int16), np.frombuffer(b, np.float32), \
        np.frombuffer(b, "u8"), np.frombuffer(b, dtype="f2"), np.frombuffer(b, np.bool_)


def fb_count_offset(b, count, offset):
    return np.frombuffer(b, np.uint8, count, offset)


def fb_keywords(b, count, offset):
    return np.frombuffer(buffer=b, dtype=np.int32, count=count, offset=offset)


def run_both(func, *args):
    try:
        want = func(*args)
    except Exception as e:  # noqa: BLE001 - the oracle's error is the expectation
        want = e
    try:
        got = kiln.njit(func)(*args)
    except Exception as e:  # noqa: BLE001
        got = e
    return got, want


def same(got, want):
    if isinstance(want, Exception):
        assert type(got) is type(want) and str(got) == str(want), (got, want)
        return
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    assert got.flags.writeable == want.flags.writeable
    assert got.flags.c_contiguous


BUFFERS = [DATA, bytearray(DATA), memoryview(DATA), memoryview(bytearray(DATA))]
IDS = ["bytes", "bytearray", "memoryview", "memoryview-rw"]


@pytest.mark.parametrize("buf", BUFFERS, ids=IDS)
def test_default_dtype_is_float64(buf):
    same(*run_both(fb_default, buf))


@pytest.mark.parametrize("buf", BUFFERS, ids=IDS)
def test_dtypes(buf):
    same(*run_both(fb_dtype, buf))


@pytest.mark.parametrize("count,offset", [(-1, 0), (3, 2), (0, 0), (-1, 32), (32, 0), (-5, 7),
                                          (-1, 33), (1, -1), (33, 0), (5, 30), (0, 32)])
def test_count_and_offset_with_numpys_errors(count, offset):
    same(*run_both(fb_count_offset, DATA, count, offset))
    same(*run_both(fb_keywords, DATA, count if count < 0 else count // 4, offset))


def test_not_a_multiple_of_the_itemsize():
    same(*run_both(fb_default, DATA[:12]))
    same(*run_both(fb_keywords, DATA, -1, 2))


def test_empty_buffer():
    same(*run_both(fb_default, b""))


def test_array_buffers_view_their_bytes():
    for a in [np.arange(6, dtype=np.int32), np.linspace(0, 1, 4), np.arange(8, dtype=np.uint8)]:
        same(*run_both(fb_dtype, a))
        same(*run_both(fb_count_offset, a, 3, 1))
    ro = np.arange(8, dtype=np.int64)
    ro.flags.writeable = False
    same(*run_both(fb_dtype, ro))


def write_through(b):
    a = np.frombuffer(b, np.uint8)
    a[0] = 200
    a[1:3] = 7
    return a.sum()


def test_bytearray_view_writes_through():
    b1, b2 = bytearray(DATA), bytearray(DATA)
    assert kiln.njit(write_through)(b1) == write_through(b2)
    assert b1 == b2


def test_bytes_view_is_read_only():
    with pytest.raises(TypingError) as e:
        kiln.njit(write_through)(DATA)
    assert_diagnostic(e.value, TypingError, write_through, "a[0] = 200",
                      contains=("read-only",))


def test_returned_view_keeps_its_buffer():
    f = kiln.njit(fb_dtype)
    b = bytes(range(64))
    before = sys.getrefcount(b)
    r = f(b)
    assert sys.getrefcount(b) > before
    del b
    gc.collect()
    np.testing.assert_array_equal(r[0], np.frombuffer(bytes(range(64)), np.int16))
    del r
    gc.collect()


def test_bytearray_cannot_be_resized_under_a_returned_view():
    ba = bytearray(DATA)
    r = kiln.njit(fb_default)(ba)
    with pytest.raises(BufferError):
        ba.extend(b"xx")
    del r
    gc.collect()
    ba.extend(b"xx")
    assert len(ba) == 34


def buffer_ops(b):
    t = 0
    for x in b:
        t += x
    return len(b), b[0], b[-1], b[2:5].sum(), t


@pytest.mark.parametrize("buf", BUFFERS, ids=IDS)
def test_buffers_index_and_iterate_as_bytes(buf):
    got = kiln.njit(buffer_ops)(buf)
    b = bytes(buf)  # Python's bytes: items are ints, the loop's sum a Python int
    assert got == (len(b), b[0], b[-1], sum(b[2:5]), sum(b))


def test_non_contiguous_memoryview_is_a_clear_error():
    m = memoryview(DATA)[::2]
    with pytest.raises(TypeError, match="C-contiguous"):
        kiln.njit(fb_default)(m)


def bad_buffer(x):
    return np.frombuffer(x, np.uint8)


def bad_dtype(b):
    return np.frombuffer(b, "U3")


def bad_count(b):
    return np.frombuffer(b, np.uint8, 1.5)


def bad_like(b):
    return np.frombuffer(b, np.uint8, like=b)


def test_bad_arguments_are_typing_errors_at_the_argument():
    for func, arg, snippet, words in [
        (bad_buffer, 3, "x, np.uint8", ("bytes",)),
        (bad_buffer, np.zeros((2, 2), np.uint8), "x, np.uint8", ("1-d",)),
        (bad_dtype, DATA, '"U3"', ("dtype",)),
        (bad_count, DATA, "1.5", ("count",)),
        (bad_like, DATA, "b)", ("like",)),
    ]:
        with pytest.raises(TypingError) as e:
            kiln.njit(func)(arg)
        assert_diagnostic(e.value, TypingError, func, snippet, contains=words,
                          nth=2 if snippet == "b)" else 1)
