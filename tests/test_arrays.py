"""NumPy arrays in compiled code: NumPy is the oracle.

Every behaviour test runs the same Python function interpreted (with NumPy) and compiled (with
``kiln.njit``) on separate, identical copies of its arguments (``acheck``) and requires:

* the same outcome: a result, or an exception of the same class;
* arrays with the same dtype, shape, values and ``writeable`` flag (floats bit-exactly, NaN
  equal to NaN, the sign of a zero counting; ``approx=True`` allows 2 ulp for functions whose
  last bit depends on the libm); NumPy scalars come back as Python scalars of the matching kind
  (as Numba boxes them), with the NumPy scalar's value;
* the same aliasing: an argument returned unchanged comes back as the *same object*, a result
  that shares memory with an argument in NumPy shares memory with it compiled, and a new array
  shares memory with no argument (as in Numba, a view with exactly the argument's dtype, shape,
  strides and data, such as ``a.reshape(a.shape)``, may come back as the argument itself);
* the same side effects: after both calls, the argument arrays hold the same values.

The autouse leak check (conftest.py) asserts that the runtime's allocations and frees balance
over every test. Functions are compiled once per Python function (``harness.compiled``), so the
suite stays fast. Features not implemented yet are ``xfail(strict=True)`` tests at the end, one
each, so that they flip when kiln grows them.
"""

import gc
import traceback
import warnings

import numpy as np
import pytest

import kiln
from harness import LAYOUTS, arr, assert_diagnostic, compiled, locate, run, same

KilnError = kiln.errors.KilnError
TypingError = kiln.errors.TypingError
UnsupportedError = kiln.errors.UnsupportedError
EITHER = (TypingError, UnsupportedError)

_MISSING = object()

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float32, np.float64]
COMPLEXES = [np.complex64, np.complex128]
ALL_DTYPES = [np.bool_] + INTS + FLOATS + COMPLEXES

# ulp-level tolerance per result dtype for approx=True (about 2 ulp).
_RTOL = {"float32": 2.5e-7, "complex64": 2.5e-7, "float64": 1e-15, "complex128": 1e-15}


# --------------------------------------------------------------------------------------------
# Harness: clone arguments (keeping their layout), run both, compare.

def _clone(x):
    """A copy of ``x`` with the same dtype, shape, strides and writeable flag."""
    if isinstance(x, tuple):
        return tuple(_clone(v) for v in x)
    if not isinstance(x, np.ndarray):
        return x
    if x.size == 0 or x.ndim == 0:
        out = x.copy(order="K")
    else:
        lo = sum(min(0, (n - 1) * s) for n, s in zip(x.shape, x.strides))
        hi = sum(max(0, (n - 1) * s) for n, s in zip(x.shape, x.strides)) + x.itemsize
        buf = np.zeros(hi - lo, np.uint8)
        out = np.ndarray(x.shape, x.dtype, buffer=buf, offset=-lo, strides=x.strides)
        out[...] = x  # zero strides (broadcast views) write an element repeatedly: harmless
    assert out.strides == x.strides or x.size == 0
    out.flags.writeable = x.flags.writeable
    return out


def _arrays(value, path="result"):
    """(path, array) for every array inside ``value`` (a result, possibly a nested tuple)."""
    if isinstance(value, np.ndarray):
        yield path, value
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            yield from _arrays(v, f"{path}[{i}]")


def same_np(got, want, approx=False, path="result"):
    """Assert that the compiled result ``got`` matches NumPy's ``want`` (see module doc)."""
    if isinstance(want, np.ndarray):
        assert type(got) is np.ndarray, \
            f"{path}: expected a numpy.ndarray, got {type(got).__name__} {got!r}"
        assert got.dtype == want.dtype, f"{path}: dtype {got.dtype}, NumPy gives {want.dtype}"
        assert got.shape == want.shape, f"{path}: shape {got.shape}, NumPy gives {want.shape}"
        assert got.flags.writeable == want.flags.writeable, \
            f"{path}: writeable={got.flags.writeable}, NumPy gives {want.flags.writeable}"
        if approx and want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=_RTOL[want.dtype.name], atol=0,
                                       equal_nan=True, err_msg=path)
        else:
            np.testing.assert_array_equal(got, want, err_msg=path, strict=True)
            if want.dtype.kind in "fc":  # the sign of zeros counts
                for part in ((got.real, want.real), (got.imag, want.imag)) \
                        if want.dtype.kind == "c" else ((got, want),):
                    np.testing.assert_array_equal(np.signbit(part[0]), np.signbit(part[1]),
                                                  err_msg=f"{path}: sign of zero")
    elif isinstance(want, np.generic):
        tol = _RTOL.get(want.dtype.name, 1e-15) if approx else False
        same(got, want.item(), tol, path)
    elif isinstance(want, tuple):
        assert type(got) is tuple, f"{path}: expected a tuple, got {type(got).__name__}"
        assert len(got) == len(want), f"{path}: expected {len(want)} items, got {len(got)}"
        for i, (g, w) in enumerate(zip(got, want)):
            same_np(g, w, approx, f"{path}[{i}]")
    else:
        same(got, want, approx, path)


def _oracle(func, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(func, *args)


def acheck(pyfunc, *args, expected=_MISSING, approx=False, exc_msg=False):
    """Run ``pyfunc`` with NumPy and compiled on clones of ``args``; compare (module doc).

    ``expected``: a value (or an exception instance) to require instead of NumPy's outcome,
    where kiln is specified to differ. ``exc_msg``: also compare exception messages.
    Returns the compiled result.

    A failure is re-raised as a bare AssertionError carrying only the message, so that the
    failing test's traceback does not keep compiled arrays alive past the leak check.
    """
    message = None
    try:
        return _acheck(pyfunc, args, expected, approx, exc_msg)
    except AssertionError as exc:
        message = str(exc)
        traceback.clear_frames(exc.__traceback__)
    raise AssertionError(message)


def _acheck(pyfunc, args, expected, approx, exc_msg):
    cfunc = compiled(pyfunc)
    pyargs, cargs = _clone(args), _clone(args)
    want = _oracle(pyfunc, *pyargs) if expected is _MISSING else (
        ("raise", expected) if isinstance(expected, BaseException) else ("ok", expected))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = run(cfunc, *cargs)
    call = f"{pyfunc.__name__}{tuple(_short(a) for a in args)}"
    if want[0] == "raise":
        assert got[0] == "raise", \
            f"{call}: expected {type(want[1]).__name__}: {want[1]}, got a result:\n{got[1]!r}"
        assert type(got[1]) is type(want[1]), \
            f"{call}: expected {type(want[1]).__name__}: {want[1]}, " \
            f"got {type(got[1]).__name__}: {got[1]}"
        if exc_msg:
            assert got[1].args == want[1].args
        return got[1]
    if got[0] == "raise":
        raise AssertionError(f"{call}: raised {type(got[1]).__name__}: {got[1]}\n"
                             f"NumPy gives {want[1]!r}")
    same_np(got[1], want[1], approx, path=call)
    if expected is not _MISSING:
        return got[1]
    _same_aliasing(got[1], want[1], cargs, pyargs, call)
    for i, (c, p) in enumerate(zip(cargs, pyargs)):
        for path, carr in _arrays(c, f"argument {i}"):
            parr = dict(_arrays(p, f"argument {i}"))[path]
            np.testing.assert_array_equal(carr, parr, strict=True,
                                          err_msg=f"{call}: {path} after the call")
    return got[1]


def _same_aliasing(got, want, cargs, pyargs, call):
    wants = dict(_arrays(want))
    for path, g in _arrays(got):
        w = wants[path]
        for i, (c, p) in enumerate(zip(cargs, pyargs)):
            for apath, carr in _arrays(c, f"argument {i}"):
                parr = dict(_arrays(p, f"argument {i}"))[apath]
                if (g is carr) != (w is parr):
                    # As in Numba, a view with exactly the argument's geometry (a[:],
                    # a.reshape(a.shape)) may come back as the argument itself.
                    assert g is carr and _same_geometry(w, parr), \
                        f"{call}: {path} is {apath}: {g is carr}, in NumPy: {w is parr}"
                assert np.shares_memory(g, carr) == np.shares_memory(w, parr), \
                    f"{call}: {path} shares memory with {apath}: " \
                    f"{np.shares_memory(g, carr)}, in NumPy: {np.shares_memory(w, parr)}"


def _same_geometry(a, b):
    return (a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _short(a):
    if isinstance(a, np.ndarray):
        return f"<{a.dtype}{list(a.shape)} strides={a.strides}>"
    return a


def compile_error(func, *args):
    """Compile ``func`` for ``args``; return the KilnError raised."""
    with pytest.raises(KilnError) as info:
        compiled(func)(*args)
    return info.value


def values_for(dtype, which="a", shape=(2, 3)):
    """Small test values of ``dtype``: ``a`` (with zero and negatives where the dtype has
    them), ``b`` (no zeros: a divisor), ``e`` (small non-negative exponents / shift counts)."""
    kind = np.dtype(dtype).kind
    table = {
        ("b", "a"): [[True, False, True], [False, False, True]],
        ("b", "b"): [[True, True, False], [True, False, True]],
        ("b", "e"): [[True, False, True], [True, True, False]],
        ("i", "a"): [[-7, 5, 0], [3, -1, 12]],
        ("i", "b"): [[2, -3, 1], [5, 7, -4]],
        ("i", "e"): [[1, 2, 0], [3, 1, 2]],
        ("u", "a"): [[7, 5, 0], [3, 1, 12]],
        ("u", "b"): [[2, 3, 1], [5, 7, 4]],
        ("u", "e"): [[1, 2, 0], [3, 1, 2]],
        ("f", "a"): [[-7.5, 5.25, 0.0], [3.0, -1.0, 12.5]],
        ("f", "b"): [[2.0, -3.5, 1.0], [0.5, 7.0, -4.0]],
        ("f", "e"): [[2.0, 0.0, 1.0], [3.0, 1.0, 2.0]],
        ("c", "a"): [[1 + 2j, -3.5 + 0.5j, 0j], [2 - 1j, -1 - 1j, 4 + 0j]],
        ("c", "b"): [[2 + 0j, 1 - 1j, 0.5 + 0.5j], [-1 + 3j, 2j, 1 + 0j]],
        ("c", "e"): [[2 + 0j, 0j, 1 + 0j], [3 + 0j, 1 + 0j, 2 + 0j]],
    }
    vals = np.array(table[kind, which]).astype(dtype)
    return vals.reshape(shape) if shape != (2, 3) else vals


def dtype_id(dt):
    return np.dtype(dt).name


# Test cases: every dtype in C layout, and two dtypes in every other layout (F, strided and
# reversed; the last two compile to the same 'A' layout). Compilation dominates the suite's
# time, so full dtype-by-layout matrices are avoided.
CASES = [(dt, "C") for dt in ALL_DTYPES] + [
    (dt, layout) for dt in (np.float64, np.int8) for layout in ("F", "strided", "reversed")]


# For functions whose dtype and layout handling is generic: fewer dtypes, float64 in the other
# layouts.
FEW_CASES = [(dt, "C") for dt in (np.bool_, np.int8, np.uint16, np.int64, np.uint64,
                                  np.float32, np.float64, np.complex64)] + [
    (np.float64, layout) for layout in ("F", "strided", "reversed")]


def case_id(case):
    return f"{dtype_id(case[0])}-{case[1]}"


def sample(case, which="a"):
    dtype, layout = case
    return arr(values_for(dtype, which), dtype, layout)


# --------------------------------------------------------------------------------------------
# Passing and returning arrays.

def ident(a):
    return a


def sum_loops_1d(a):
    s = a[0] - a[0]
    for i in range(a.shape[0]):
        s += a[i]
    return s


def sum_loops_2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1) * (j + 2)
    return s


def sum_loops_3d(a):
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (1 + i * 100 + j * 10 + k)
    return s


def second(a, b):
    return b


def pair(a, b):
    return b, a


def ten_arrays(n):
    return (np.zeros(n), np.ones(n), np.zeros(n), np.ones(n), np.zeros(n),
            np.ones(n), np.zeros(n), np.ones(n), np.zeros(n), np.ones(n))


def many_2d_arrays(a):
    return a, a, a, a, a, a, a, a, a, a, a, a


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_identity_returns_the_same_object(case):
    a = sample(case)
    assert compiled(ident)(a) is a
    acheck(ident, a)


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (2, 3, 4), (1, 1, 1, 1, 2)])
def test_identity_any_ndim_and_empty(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    assert compiled(ident)(a) is a
    acheck(ident, a)


def test_identity_of_second_argument_and_tuple_of_arguments():
    a, b = np.arange(3), np.ones((2, 2), np.float32)
    assert compiled(second)(a, b) is b
    got = compiled(pair)(a, b)
    assert got[0] is b and got[1] is a
    del got
    acheck(pair, a, b)


def test_identity_readonly_stays_readonly():
    a = np.arange(4.0)
    a.setflags(write=False)
    assert compiled(ident)(a) is a and not a.flags.writeable


def test_return_a_tuple_of_many_arrays():
    """A tuple of ten new arrays (or twelve 2-D arguments) comes back like any other."""
    acheck(ten_arrays, 3)
    acheck(many_2d_arrays, np.zeros((2, 2)))


@pytest.mark.parametrize("case", [c for c in CASES if c[0] is not np.bool_], ids=case_id)
def test_read_elements(case):
    dtype, layout = case
    acheck(sum_loops_1d, arr([3, 1, 4, 1, 5, 9, 2], dtype, layout))
    acheck(sum_loops_2d, sample(case))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_read_elements_3d(layout):
    acheck(sum_loops_3d, arr(np.arange(24).reshape(2, 3, 4) * 3 - 20, np.int32, layout))


def test_bool_elements():
    acheck(sum_loops_2d, values_for(np.bool_))


def test_readonly_array_can_be_read():
    a = np.arange(12.0).reshape(3, 4)
    a.setflags(write=False)
    acheck(sum_loops_2d, a)
    acheck(attributes, a)


def test_broadcast_view_with_zero_strides():
    a = np.broadcast_to(np.arange(4.0), (3, 4))  # readonly, strides (0, 8)
    assert a.strides[0] == 0
    acheck(sum_loops_2d, a)
    assert compiled(ident)(a) is a


def test_unaligned_array_is_read_correctly_or_rejected():
    buf = np.zeros(8 * 5 + 1, np.uint8)
    buf[1:] = np.frombuffer(np.arange(5.0).tobytes(), np.uint8)
    a = np.frombuffer(buf.data, dtype=np.float64, count=5, offset=1)
    assert not a.flags.aligned
    res = run(compiled(sum_loops_1d), a)
    if res[0] == "raise":
        assert isinstance(res[1], (TypeError, ValueError, KilnError)), res[1]
    else:
        same(res[1], 10.0)


def test_byteswapped_array_is_read_correctly_or_rejected():
    a = np.arange(5, dtype=">i8")  # non-native byte order on x86
    res = run(compiled(sum_loops_1d), a)
    if res[0] == "raise":
        assert isinstance(res[1], (TypeError, ValueError, KilnError)), res[1]
    else:
        same(res[1], 10)


@pytest.mark.parametrize("value", [
    np.zeros(3, np.longdouble), np.array(["a", "b"]), np.array([object()]),
    np.zeros(2, "datetime64[s]"), np.zeros(2, [("x", "i4"), ("y", "f8")]),
], ids=["longdouble", "str", "object", "datetime64", "record"])
def test_unsupported_dtype_argument_is_a_clean_error(value):
    with pytest.raises((TypeError, ValueError, KilnError)):
        compiled(sum_loops_1d)(value)


def test_layouts_specialize_one_dispatcher():
    f = compiled(sum_loops_2d)
    base = np.arange(12.0).reshape(3, 4) - 5
    for layout in LAYOUTS:
        a = arr(base, np.float64, layout)
        assert f(a) == sum_loops_2d(a)


# --------------------------------------------------------------------------------------------
# Attributes.

def attributes(a):
    return a.shape, a.ndim, a.size, a.itemsize, a.nbytes, a.strides


def lengths(a):
    return len(a), a.shape[0], a.shape[-1], len(a.shape), a.strides[0], a.strides[-1]


def dtype_values(a):
    z = np.zeros(3, a.dtype)
    e = np.empty((2, 2), dtype=a.dtype)
    e[0, 0] = a[0, 0]
    return z, np.ones(a.shape, a.dtype), e[0, 0], e.itemsize, np.zeros(2, dtype=a.dtype)


def dtype_compare(a, b):
    kind = 0
    if a.dtype == np.float64:
        kind = 1
    elif a.dtype == np.int16:
        kind = 2
    return kind, a.dtype == b.dtype, a.dtype != b.dtype, np.float32 == np.float32, \
        np.int8 != np.uint8


@pytest.mark.parametrize("da, db", [(np.float64, np.float64), (np.int16, np.float64),
                                    (np.uint8, np.uint8), (np.complex64, np.int16)],
                         ids=lambda d: np.dtype(d).name)
def test_dtype_comparisons_fold_at_compile_time(da, db):
    # a.dtype == np.float64 is a constant for each compiled signature, as in Numba
    acheck(dtype_compare, np.zeros(2, da), np.zeros(2, db))


def dtype_order(a):
    return a.dtype < np.float64


def test_dtype_comparisons_other_than_equality_are_rejected():
    # only == and != fold; NumPy's dtype ordering (can-cast) is not supported
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(dtype_order)(np.zeros(2))
    assert_diagnostic(info.value, kiln.errors.TypingError, dtype_order, "a.dtype <",
                      contains=["cannot compare", "<"])


@pytest.mark.parametrize("case", FEW_CASES, ids=case_id)
def test_attributes(case):
    a = sample(case)
    acheck(attributes, a)
    acheck(lengths, a)


@pytest.mark.parametrize("shape", [(), (0,), (5,), (0, 3), (2, 3, 4), (1, 2, 1, 2)])
def test_attributes_any_ndim(shape):
    a = np.zeros(shape, np.int16)
    acheck(attributes, a)
    if shape:
        acheck(lengths, a)


def test_attributes_of_views():
    big = np.zeros((6, 8, 4))
    for a in (big[::2, 1::3], big[:, ::-1, 2], big.T, big[1], big[::2][:1]):
        acheck(attributes, a)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_dtype_as_compile_time_value(dtype):
    acheck(dtype_values, values_for(dtype))


# --------------------------------------------------------------------------------------------
# Indexing and views.

def get1(a, i):
    return a[i]


def get2(a, i, j):
    return a[i, j], a[i][j]


def row_write(a, i, v):
    row = a[i]
    row[1] = v
    return row


def chained_write(a, i, j, v):
    a[i][j] = v


def set1(a, i, v):
    a[i] = v


def set2(a, i, j, v):
    a[i, j] = v


def view_after_base_dropped(n):
    a = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            a[i, j] = i * n + j
    return a[n - 1]


def iterate_rows(a):
    total = 0.0
    k = 0
    for row in a:
        k += 1
        for j in range(row.shape[0]):
            total += row[j] * k
    return total, k


def iterate_1d(a):
    s = 0
    for x in a:
        s = s * 3 + x
    return s


def iterate_rows_write(a):
    for row in a:
        row[0] = row[1] + 100


def iterate_rows_last(a):
    last = a[0]
    for row in a:
        last = row
    return last


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_integer_indexing(case):
    a = sample(case)
    for i, j in [(0, 0), (1, 2), (-1, -1), (-2, 1), (0, -3)]:
        acheck(get2, a, i, j)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_fewer_indices_give_a_view(layout):
    a = arr(np.arange(24).reshape(2, 3, 4), np.float64, layout)
    for i in (0, 1, -1, -2):
        acheck(get1, a, i)
    for i, j in [(0, 0), (1, 2), (-1, -2)]:
        acheck(get2, a, i, j)


@pytest.mark.parametrize("index_type", [int, np.int8, np.int32, np.uint8, np.uint64, np.int64])
def test_index_of_any_integer_type(index_type):
    a = np.arange(10) * 3
    acheck(get1, a, index_type(7))
    if index_type is int or np.dtype(index_type).kind == "i":
        acheck(get1, a, index_type(-3))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_writes_through_a_view_change_the_original(layout):
    a = arr(np.arange(12).reshape(3, 4), np.int64, layout)
    acheck(row_write, a, 1, 99)
    acheck(row_write, a, -1, -5)
    acheck(chained_write, a, 2, 3, 77)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_item_assignment(case):
    a = sample(case)
    v = values_for(case[0], "b")[1, 1].item()
    acheck(set2, a, 1, 2, v)
    acheck(set2, a, -1, -3, v)
    acheck(set1, a[0], 2, v)


@pytest.mark.parametrize("dtype,value", [
    (np.int8, 300), (np.int8, -129), (np.uint8, 256 + 7), (np.uint8, -1), (np.int16, 70000),
    (np.uint32, -2), (np.int32, 2 ** 40 + 5), (np.uint16, 2 ** 16),
])
def test_small_int_store_wraps_like_astype(dtype, value):
    # NumPy's a[i] = 300 raises OverflowError for a Python int; kiln (like Numba) converts the
    # int64 value as astype does.
    a = np.zeros(3, dtype)
    want = a.copy()
    want[1] = np.array([value]).astype(dtype)[0]
    assert compiled(set1)(a, 1, value) is None
    np.testing.assert_array_equal(a, want, strict=True)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64], ids=dtype_id)
def test_float_store_into_int_truncates(dtype):
    for value in [2.7, -2.7, 0.5, 99.99, -0.0, -0.9]:
        if np.dtype(dtype).kind == "u" and value < 0:
            value = -value
        acheck(set1, np.zeros(3, dtype), 2, value)


@pytest.mark.parametrize("dtype,value", [
    (np.float32, 0.1), (np.float32, 1e40), (np.float64, 7), (np.float64, True),
    (np.bool_, 5), (np.bool_, 0), (np.bool_, 0.25), (np.bool_, 0.0), (np.complex64, 1.5),
    (np.complex128, 3), (np.int64, True), (np.uint64, 2 ** 63 + 5), (np.complex64, 0.1 + 0.3j),
])
def test_store_converts_to_the_dtype(dtype, value):
    acheck(set1, np.zeros(3, dtype), 0, value)


def test_view_keeps_base_alive_after_return():
    got = compiled(view_after_base_dropped)(5)
    gc.collect()
    junk = [np.full(25, -1.0) for _ in range(20)]  # reuse freed memory, if any was freed
    same_np(got, view_after_base_dropped(5))
    assert got.base is not None  # a view, not a copy
    del junk, got


@pytest.mark.parametrize("layout", LAYOUTS)
def test_iterate_rows(layout):
    a = arr(np.arange(12).reshape(4, 3) - 6, np.float64, layout)
    acheck(iterate_rows, a)
    acheck(iterate_rows_write, a)
    acheck(iterate_rows_last, a)
    acheck(iterate_1d, arr([3, -1, 4, 1, -5], np.int64, layout))


def test_iterate_empty():
    acheck(iterate_rows, np.zeros((0, 3)))
    acheck(iterate_1d, np.zeros(0, np.int64))


# boundscheck=True: out-of-range indexes raise IndexError as in NumPy.

def bc_get1(a, i):
    return a[i]


def bc_get2(a, i, j):
    return a[i, j]


def bc_set2(a, i, j):
    a[i, j] = 1.0


BC = {f: kiln.njit(boundscheck=True)(f) for f in (bc_get1, bc_get2, bc_set2)}


@pytest.mark.parametrize("func,args", [
    (bc_get1, (np.arange(3.0), 3)), (bc_get1, (np.arange(3.0), -4)),
    (bc_get1, (np.arange(3.0), 100)), (bc_get2, (np.zeros((2, 3)), 0, 3)),
    (bc_get2, (np.zeros((2, 3)), -3, 0)), (bc_set2, (np.zeros((2, 3)), 2, 0)),
    (bc_get1, (np.zeros((2, 3)), 2)), (bc_get1, (np.zeros(0), 0)),
], ids=lambda v: getattr(v, "__name__", "args"))
def test_boundscheck_raises_indexerror(func, args):
    """The message is NumPy's (or Numba's generic one); it must not name a wrong index."""
    want = _oracle(func, *args)[1]
    assert isinstance(want, IndexError)
    with pytest.raises(IndexError) as info:
        BC[func](*args)
    assert str(info.value) in (str(want), "index is out of bounds"), str(info.value)


def test_boundscheck_allows_valid_indexes():
    a = np.arange(6.0).reshape(2, 3)
    assert BC[bc_get2](a, 1, 2) == 5.0 and BC[bc_get2](a, -1, -3) == 3.0
    row = BC[bc_get1](a, -2)
    np.testing.assert_array_equal(row, a[0])
    del row


# --------------------------------------------------------------------------------------------
# Read-only arrays.

def write_readonly(a):
    a[0] = 1.0
    return a


def write_readonly_view(a):
    row = a[0]
    row[0] = 1.0


def fill_readonly(a):
    a.fill(0)


def test_write_to_readonly_is_a_typing_error():
    a = np.zeros(3)
    a.setflags(write=False)
    err = compile_error(write_readonly, a)
    assert_diagnostic(err, TypingError, write_readonly, "a[0] = 1.0", cols=["a[0]"],
                      contains=[("read", "readonly", "read-only")])
    # The dispatcher still compiles for a writable array.
    b = np.zeros(3)
    assert compiled(write_readonly)(b) is b and b[0] == 1.0


def test_write_through_view_of_readonly_is_a_typing_error():
    a = np.zeros((2, 2))
    a.setflags(write=False)
    err = compile_error(write_readonly_view, a)
    assert isinstance(err, TypingError)
    assert err.line == locate(write_readonly_view, "row[0] = 1.0")[0]


def test_fill_readonly_is_a_typing_error():
    a = np.zeros(3)
    a.setflags(write=False)
    err = compile_error(fill_readonly, a)
    assert isinstance(err, TypingError)
    assert err.line == locate(fill_readonly, "a.fill(0)")[0]


def test_view_of_readonly_is_readonly():
    a = np.arange(6.0).reshape(2, 3)
    a.setflags(write=False)
    acheck(get1, a, 1)


# --------------------------------------------------------------------------------------------
# Creation functions.

def zeros_int(n):
    return np.zeros(n)


def zeros_tuple(n, m):
    return np.zeros((n, m))


def creation_dtypes_1():
    return (np.zeros(3, np.float32), np.ones((2, 2), np.int8), np.zeros(2, "float32"),
            np.ones(3, dtype=np.uint16), np.zeros((2, 1), dtype="complex64"))


def creation_dtypes_2():
    return (np.ones(2, "bool"), np.zeros(4, np.bool_), np.ones((1, 2, 3)), np.zeros(()),
            np.ones(2, dtype="int32"))


def creation_dtypes_3():
    return (np.zeros(3, np.int64), np.ones(0), np.zeros((3, 0)), np.ones(3, np.complex128),
            np.ones(2, "uint64"))


def empty_shapes(n):
    return np.empty(n), np.empty((n, 2), np.int32), np.empty(n, dtype="complex64")


def full_forms_1(n):
    return np.full(n, 2), np.full(n, 1.5), np.full((n, 2), True), np.full(n, 1j)


def full_forms_2(n):
    return (np.full((2, n), 7, np.int8), np.full(n, 1.5, np.int32), np.full(n, -2.7, np.int64),
            np.full(n, 3, dtype=np.float32), np.full(n, 0.1, "float32"))


def full_value(n, v):
    return np.full(n, v)


def like_forms(a):
    return np.zeros_like(a), np.ones_like(a), np.full_like(a, 3), np.full_like(a, 2.7)


def empty_like_form(a):
    return np.empty_like(a)


def arange_int_forms():
    return (np.arange(5), np.arange(2, 10), np.arange(2, 10, 3), np.arange(10, 2, -3),
            np.arange(0), np.arange(5, 2), np.arange(-3, 3), np.arange(1, 7, 2, dtype=np.int8),
            np.arange(4, dtype=np.uint8))


def arange_float_forms():
    return (np.arange(1.5, 5), np.arange(5.0), np.arange(0.0, 1.0, 0.25),
            np.arange(1, 2.5, 0.5), np.arange(2, -2.5, -0.5))


def arange_dtype_forms():
    return np.arange(5, dtype=np.float32), np.arange(3, dtype="complex128")


def arange_runtime(start, stop, step):
    return np.arange(start, stop, step)


def arange_stop(n):
    return np.arange(n)


def test_zeros_int_and_tuple_shape():
    for n in (0, 1, 5):
        acheck(zeros_int, n)
        acheck(zeros_tuple, n, 3)
        acheck(zeros_tuple, 2, n)


@pytest.mark.parametrize("func", [creation_dtypes_1, creation_dtypes_2, creation_dtypes_3],
                         ids=lambda f: f.__name__)
def test_creation_dtype_spellings(func):
    acheck(func)
    for a in compiled(func)():
        assert a.flags.c_contiguous and a.flags.writeable


def test_empty_shape_and_dtype():
    for n in (0, 4):
        got = compiled(empty_shapes)(n)
        want = empty_shapes(n)
        for g, w in zip(got, want):
            assert type(g) is np.ndarray and g.dtype == w.dtype and g.shape == w.shape
            assert g.flags.c_contiguous and g.flags.writeable
        del got, g


def test_negative_shape_raises_valueerror():
    acheck(zeros_int, -1)
    acheck(zeros_tuple, 2, -3)


def test_full():
    for n in (3, 0):
        acheck(full_forms_1, n)
        acheck(full_forms_2, n)
    for v in (7, -2.5, True, 1 + 2j):
        acheck(full_value, 4, v)


@pytest.mark.parametrize("case", FEW_CASES, ids=case_id)
def test_like_functions(case):
    a = sample(case)
    acheck(like_forms, a)
    e = compiled(empty_like_form)(a)
    assert type(e) is np.ndarray and e.dtype == a.dtype and e.shape == a.shape
    assert not np.shares_memory(e, a) and e.flags.writeable
    del e


def test_arange_int():
    acheck(arange_int_forms)
    for n in (0, 1, 7, -2):
        acheck(arange_stop, n)
    for args in [(1, 10, 4), (10, 1, -4), (1, 2, 5), (3, 3, 1), (2 ** 40, 2 ** 40 + 6, 2),
                 (-5, 5, 3), (5, -5, -3)]:
        acheck(arange_runtime, *args)


def test_arange_float():
    acheck(arange_float_forms, approx=True)
    for args in [(0.0, 1.0, 0.1), (0.5, -0.5, -0.125), (0, 1, 1e-1), (1.0, 2.0, 5.0),
                 (0.0, 0.3, 0.1)]:
        acheck(arange_runtime, *args, approx=True)


def test_arange_dtype_keyword():
    acheck(arange_dtype_forms)


def test_arange_zero_step_raises_like_numpy():
    acheck(arange_runtime, 1, 10, 0)
    acheck(arange_runtime, 1.0, 10.0, 0.0)


# --------------------------------------------------------------------------------------------
# Elementwise operators. Each operator is one function; where NumPy accepts a whole group of
# operators for the operand dtypes, the group is checked through one function returning all
# their results (fewer compilations); an operator NumPy rejects (no loop for the dtypes, e.g.
# float & float, bool - bool) must be a compile error.

def op_add(a, b):
    return a + b


def op_sub(a, b):
    return a - b


def op_mul(a, b):
    return a * b


def op_truediv(a, b):
    return a / b


def op_floordiv(a, b):
    return a // b


def op_mod(a, b):
    return a % b


def op_pow(a, b):
    return a ** b


def op_and(a, b):
    return a & b


def op_or(a, b):
    return a | b


def op_xor(a, b):
    return a ^ b


def op_lshift(a, b):
    return a << b


def op_rshift(a, b):
    return a >> b


def op_eq(a, b):
    return a == b


def op_ne(a, b):
    return a != b


def op_lt(a, b):
    return a < b


def op_le(a, b):
    return a <= b


def op_gt(a, b):
    return a > b


def op_ge(a, b):
    return a >= b


def op_neg(a):
    return -a


def op_invert(a):
    return ~a


def op_pos(a):
    return +a


def g_arith(a, b):
    return a + b, a - b, a * b, a / b, a // b, a % b


def g_arith_complex(a, b):
    return a + b, a - b, a * b, a / b


def g_powshift(a, b):
    return a ** b, a << b, a >> b


def g_bitwise(a, b):
    return a & b, a | b, a ^ b


def g_compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def g_compare3(a, b):
    return a == b, a < b, a >= b


def g_unary(a):
    return -a, ~a, +a


def g_unary_float(a):
    return -a, +a


ARITH = (op_add, op_sub, op_mul, op_truediv, op_floordiv, op_mod)
POWSHIFT = (op_pow, op_lshift, op_rshift)
BITWISE = (op_and, op_or, op_xor)
COMPARE = (op_eq, op_ne, op_lt, op_le, op_gt, op_ge)
UNARY = (op_neg, op_invert, op_pos)

GROUPS = {
    ARITH: g_arith, ARITH[:4]: g_arith_complex, POWSHIFT: g_powshift, BITWISE: g_bitwise,
    COMPARE: g_compare, UNARY: g_unary, (op_neg, op_pos): g_unary_float,
}


def _numpy_rejects(op, *args):
    res = _oracle(op, *args)
    return res[0] == "raise" and isinstance(res[1], TypeError)


def check_ops(ops, *args, approx=False):
    """Check every function of ``ops`` on ``args`` (see the section comment)."""
    accepted = []
    for op in ops:
        if _numpy_rejects(op, *args):
            err = compile_error(op, *args)
            assert isinstance(err, EITHER) and err.line is not None, err
        else:
            accepted.append(op)
    group = GROUPS.get(tuple(accepted))
    if group is not None:
        acheck(group, *args, approx=approx)
    else:
        for op in accepted:
            acheck(op, *args, approx=approx)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_binary_same_dtype(dtype):
    """Every operator on two arrays of every dtype (bitwise operators and shifts on the
    integer dtypes of each signedness at 8 and 64 bits: the others share their code)."""
    a, b, e = (values_for(dtype, w) for w in "abe")
    complex_ = np.dtype(dtype).kind == "c"
    check_ops(ARITH, a, b, approx=complex_)  # complex division: a few ulp
    if dtype in (np.int16, np.int32, np.uint16, np.uint32):
        acheck(op_pow, a, e)
        return
    check_ops(POWSHIFT, a, e, approx=complex_)
    check_ops(BITWISE, a, b)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_comparisons_same_dtype(dtype):
    """Complex arrays order lexicographically in NumPy (real part, then imaginary part)."""
    a, b = values_for(dtype, "a"), values_for(dtype, "b")
    if np.dtype(dtype).kind == "c":
        a = np.array([[1 + 2j, 1 + 1j, 2 + 0j], [1 - 1j, 0j, -1 + 5j]], dtype)
        b = np.array([[1 + 1j, 1 + 2j, 1 + 5j], [1 - 1j, -0.0 + 0j, -1 - 5j]], dtype)
    if dtype in (np.int64, np.float64, np.complex128):
        check_ops(COMPARE, a, b)
    elif dtype in (np.bool_, np.int8, np.uint64, np.float32, np.complex64):
        acheck(g_compare3, a, b)
    else:
        acheck(op_lt, a, b)


@pytest.mark.parametrize("layout", ["F", "strided", "reversed"])
def test_binary_layouts(layout):
    a = arr(values_for(np.float64, "a"), np.float64, layout)
    b = arr(values_for(np.float64, "b"), np.float64, layout)
    acheck(g_arith, a, b)  # both operands in the layout
    acheck(g_compare, a, values_for(np.float64, "b"))  # mixed with a C array
    acheck(op_floordiv, values_for(np.int32, "a"), arr(values_for(np.int32, "b"), np.int32,
                                                        layout))


def g_mixed(a, b):
    return a + b, b - a, a / b


MIXED = [
    (np.int8, np.uint8), (np.int64, np.uint64), (np.uint64, np.int8), (np.int32, np.float32),
    (np.int16, np.float32), (np.float32, np.float64), (np.float64, np.complex64),
    (np.int8, np.complex64), (np.bool_, np.int8), (np.bool_, np.float32),
]


@pytest.mark.parametrize("dta,dtb", MIXED, ids=lambda d: np.dtype(d).name)
def test_binary_mixed_dtypes_promote_like_numpy(dta, dtb):
    """The result dtype is NumPy's promotion of the operand dtypes (the same for every
    arithmetic operator: + and - check it, / checks the int -> float64 rule)."""
    a, b = values_for(dta, "b"), values_for(dtb, "b")  # no zeros: both are divisors
    acheck(g_mixed, a, b, approx="c" in (np.dtype(dta).kind, np.dtype(dtb).kind))


@pytest.mark.parametrize("dta,dtb", [(np.int8, np.uint8), (np.int64, np.uint64),
                                     (np.int32, np.float32), (np.bool_, np.float64),
                                     (np.uint64, np.float32)], ids=lambda d: np.dtype(d).name)
def test_comparisons_mixed_dtypes(dta, dtb):
    a = np.array([-1, 0, 1, 2, 3]).astype(dta)
    b = np.array([255, 0, 2, 2, 2.5]).astype(dtb)
    acheck(op_lt, a, b)
    acheck(op_eq, a, b)


@pytest.mark.parametrize("dta,dtb", [(np.int8, np.int32), (np.int64, np.uint64),
                                     (np.int16, np.float64)],
                         ids=lambda d: np.dtype(d).name)
def test_integer_ops_mixed_dtypes(dta, dtb):
    a = values_for(dta, "a")
    check_ops(ARITH[4:] + BITWISE, a, values_for(dtb, "b"))
    check_ops(POWSHIFT, a, values_for(dtb, "e"))


# Scalars: Python scalars are weak (NEP 50): they take the array's dtype within their kind.

def add_literal_int(a):
    return a + 1


def radd_literal_int(a):
    return 1 + a


def add_literal_float(a):
    return a + 1.5


def rsub_literal_float(a):
    return 1.5 - a


def mul_literal_complex(a):
    return a * 1j


def div_literal(a):
    return a / 2


def floordiv_literal(a):
    return a // 2


def mod_literal(a):
    return a % 3


def pow_literal(a):
    return a ** 2


def rpow_literal(a):
    return 2 ** a


def lshift_literal(a):
    return a << 1


def and_literal(a):
    return a & 6


def add_literal_true(a):
    return a + True


def lt_literal(a):
    return a < 2


def eq_literal_float(a):
    return a == 0.0


def g_literal(a):
    return a + 1, 1 + a, a + 1.5, 1.5 - a, a * 1j, a / 2


def g_literal_int(a):
    return a // 2, a % 3, a ** 2, 2 ** a, a << 1, a & 6


def g_literal_float(a):
    return a // 2, a % 3, a ** 2, 2 ** a


def g_literal_misc(a):
    return a + True, a < 2, a == 0.0


LITERAL = (add_literal_int, radd_literal_int, add_literal_float, rsub_literal_float,
           mul_literal_complex, div_literal)
LITERAL_INT = (floordiv_literal, mod_literal, pow_literal, rpow_literal, lshift_literal,
               and_literal)
LITERAL_MISC = (add_literal_true, lt_literal, eq_literal_float)
GROUPS.update({LITERAL: g_literal, LITERAL_INT: g_literal_int, LITERAL_INT[:4]: g_literal_float,
               LITERAL_MISC: g_literal_misc})


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float32, np.float64,
                                   np.complex64], ids=dtype_id)
def test_array_with_literal_scalar(dtype):
    a = values_for(dtype, "e")  # non-negative: 2 ** a and a ** 2 stay defined
    check_ops(LITERAL, a, approx=True)  # a * 1j on complex: a few ulp
    check_ops(LITERAL_INT, a, approx=np.dtype(dtype).kind == "c")
    check_ops(LITERAL_MISC, a)


def scalar_arg_ops(a, x):
    return a + x, x - a, x < a, a / x


@pytest.mark.parametrize("dtype,x", [
    (np.int8, 3), (np.uint64, 5), (np.int8, 1.5), (np.float32, 1.5), (np.float32, 3),
    (np.complex64, 0.5), (np.float32, 2j), (np.bool_, 2), (np.float32, True),
])
def test_array_with_python_scalar_argument_is_weak(dtype, x):
    """A Python int/float/complex passed as an argument is weak like a literal."""
    a = values_for(dtype, "b")
    if isinstance(x, complex):
        acheck(op_add, a, x, approx=True)
        acheck(op_mul, a, x, approx=True)
        return
    acheck(scalar_arg_ops, a, x, approx=np.dtype(dtype).kind == "c")


def test_weak_int_scalar_on_small_array_wraps():
    acheck(add_literal_int, np.array([100, -100, 127], np.int8))
    acheck(add_literal_int, np.array([255, 0], np.uint8))
    acheck(scalar_arg_ops, np.array([120, -3], np.int8), 10)


# Broadcasting.

BROADCAST_SHAPES = [
    ((3, 1), (1, 4)), ((4,), (3, 4)), ((3, 4), (4,)), ((1,), (5,)), ((2, 1, 3), (4, 1)),
    ((0,), (1,)), ((2, 0), (2, 1)), ((5, 1, 1), (1, 2, 3)),
]


def g_broadcast(a, b):
    return a + b, b * a, a < b


@pytest.mark.parametrize("sa,sb", BROADCAST_SHAPES, ids=str)
def test_broadcasting(sa, sb):
    a = (np.arange(int(np.prod(sa))) - 2).reshape(sa)
    b = (np.arange(int(np.prod(sb))) * 3 + 1).reshape(sb)
    acheck(g_broadcast, a, b)
    acheck(op_truediv, arr(b, np.int16, "F"), arr(a, np.float32, "reversed"))


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (3, 2)), ((3, 1), (2, 4)),
                                   ((0,), (2,)), ((2, 3, 4), (3, 5))], ids=str)
def test_broadcast_mismatch_raises_valueerror(sa, sb):
    a = np.ones(sa)
    b = np.ones(sb)
    err = acheck(op_add, a, b)
    assert "broadcast" in str(err)
    acheck(op_lt, a, b)


def test_zero_d_operands():
    a = np.array(2.5)
    b = np.arange(3.0)
    got = compiled(op_add)(a, b)
    same_np(got, a + b)
    got = compiled(op_mul)(b, a)
    same_np(got, b * a)
    del got


# Operator edge cases.

def g_divmod(a, b):
    return a // b, a % b


def g_shifts(a, b):
    return a << b, a >> b


def g_wrap(a, b):
    return a + b, a - b, a * b


def test_integer_division_by_zero_gives_zero_like_numpy():
    a = np.array([7, -7, 0, 5], np.int64)
    b = np.array([0, 0, 0, 2], np.int64)
    acheck(g_divmod, a, b)
    acheck(g_divmod, a.astype(np.uint8), b.astype(np.uint8))
    acheck(g_divmod, a.astype(np.int8), b.astype(np.int8))


def test_integer_floordiv_mod_signs_and_min_over_minus_one():
    a = np.array([-7, 7, -7, 7, -128, -128, 0], np.int8)
    b = np.array([2, -2, -2, 2, -1, 3, -5], np.int8)
    acheck(g_divmod, a, b)
    a64 = np.array([np.iinfo(np.int64).min, -9, 9], np.int64)
    b64 = np.array([-1, 4, -4], np.int64)
    acheck(g_divmod, a64, b64)


def test_float_division_special_values():
    a = np.array([1.0, -1.0, 0.0, np.inf, np.nan, -4.0, 4.0, -0.0, 5.5, -5.5], np.float64)
    b = np.array([0.0, 0.0, 0.0, 2.0, 1.0, 2.0, -2.0, 3.0, np.inf, np.inf], np.float64)
    acheck(g_arith, a, b)
    acheck(g_arith, a.astype(np.float32), b.astype(np.float32))


def test_complex_division_by_zero_like_numpy():
    a = np.array([1 + 2j, 1 + 0j, 0j, -3 + 0j])
    b = np.array([0j, 0j, 0j, 0j])
    acheck(op_truediv, a, b)


def test_shift_counts_out_of_range_follow_numpy():
    acheck(g_shifts, np.array([1, -8, 3, -1], np.int64), np.array([64, 70, 100, 63], np.int64))
    acheck(g_shifts, np.array([1, -8, 3, 100], np.int8), np.array([8, 9, 7, 100], np.int8))
    acheck(g_shifts, np.array([200, 1], np.uint8), np.array([8, 200], np.uint8))


def test_integer_overflow_wraps():
    for dt in (np.int8, np.uint8, np.int64, np.uint64):
        info = np.iinfo(dt)
        acheck(g_wrap, np.array([info.max, info.min, info.max], dt),
               np.array([1, 1, info.max], dt))


def test_int_power_and_zero_exponents():
    acheck(op_pow, np.array([0, 1, -1, 2, 3, -2], np.int64), np.array([0, 0, 5, 62, 40, 63]))
    acheck(op_pow, np.array([0, 1, 255, 2, 3, 7], np.uint8),
           np.array([0, 3, 2, 7, 5, 1], np.uint8))


def test_float_comparisons_with_nan():
    a = np.array([np.nan, 1.0, np.nan, -0.0, np.inf])
    b = np.array([np.nan, np.nan, 1.0, 0.0, np.inf])
    acheck(g_compare, a, b)


def test_complex_equality():
    a = np.array([1 + 2j, 3j, complex("nan"), 0j])
    b = np.array([1 + 2j, 3 + 0j, complex("nan"), -0.0 + 0j])
    acheck(op_eq, a, b)
    acheck(op_ne, a, b)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_unary(dtype):
    """-bool, +bool, ~float: NumPy has no loop, so they are compile errors."""
    check_ops(UNARY, values_for(dtype, "a"))


def test_unary_edge_values():
    acheck(g_unary, np.array([-128, 0, 127], np.int8))
    acheck(g_unary, np.array([0, 1, 255], np.uint8))
    acheck(g_unary_float, np.array([0.0, -0.0, np.inf, np.nan]))
    acheck(g_unary, arr([[1, 2], [3, 4]], np.int32, "strided"))


def chained_expression(a, b, c):
    return (a * 2 + b) / (c - 0.5) - a ** 2 + (a > b) * c


def test_chained_expression():
    a = np.arange(12.0).reshape(3, 4)
    b = np.arange(4.0) - 2
    c = np.array([[1.0], [1.5], [2.0]])
    acheck(chained_expression, a.astype(np.int32), b, c.astype(np.float32), approx=True)


def inplace_add(a, b):
    a += b
    return a


def inplace_scalar(a):
    a *= 3
    a -= 1


def test_inplace_operators_modify_the_argument():
    """``a += b`` on an array writes into ``a`` (NumPy's in-place ufunc), it does not rebind."""
    acheck(inplace_add, np.arange(6.0).reshape(2, 3), np.ones(3))
    acheck(inplace_scalar, np.arange(5, dtype=np.int16))
    acheck(inplace_scalar, arr([[1, 2], [3, 4]], np.float32, "strided"))


# --------------------------------------------------------------------------------------------
# NumPy functions (ufuncs) of scalars and arrays, checked in groups (one compilation each).

def u_exp_log(x):
    return np.exp(x), np.expm1(x), np.log(x), np.log2(x), np.log10(x), np.log1p(x)


def u_trig(x):
    return np.sin(x), np.cos(x), np.tan(x), np.arcsin(x), np.arccos(x), np.arctan(x)


def u_hyperbolic(x):
    return np.sinh(x), np.cosh(x), np.tanh(x), np.arcsinh(x), np.arccosh(x), np.arctanh(x)


def u_exact(x):
    return np.sqrt(x), np.floor(x), np.ceil(x), np.trunc(x), np.abs(x), np.absolute(x)


def u_negative(x):
    return np.negative(x)


def u_exact_int(x):  # floor/ceil/trunc of integers keep the integer dtype in NumPy 2
    return np.floor(x), np.ceil(x), np.trunc(x), np.abs(x), np.absolute(x), np.negative(x)


TRANSCENDENTAL = [u_exp_log, u_trig, u_hyperbolic]

FLOAT_INPUTS = np.array([0.0, -0.0, 0.5, -0.5, 0.9, -0.75, 1.0, -1.0, 1.5, 2.0, 3.7, -3.7,
                         10.0, 1e-300, 700.0, -745.5, np.inf, -np.inf, np.nan, 1e300])


@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_ufuncs_on_float_arrays(dtype):
    with np.errstate(over="ignore"):
        a = FLOAT_INPUTS.astype(dtype)
    for func in TRANSCENDENTAL:
        acheck(func, a, approx=True)
    acheck(u_exact, a)
    acheck(u_negative, a)


def test_ufuncs_on_strided_2d_arrays():
    s = arr(FLOAT_INPUTS.reshape(4, 5), np.float64, "strided")
    acheck(u_hyperbolic, s, approx=True)
    acheck(u_exact, s)
    acheck(u_exp_log, arr(FLOAT_INPUTS.reshape(4, 5), np.float64, "F"), approx=True)


NUMPY2 = pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.0.0",
                            reason="kiln follows NumPy 2's result dtypes (np.floor of an int "
                                   "stays an int); the oracle here is the installed NumPy")


@NUMPY2
@pytest.mark.parametrize("x", [0.0, -0.0, 0.5, -0.5, 1.0, 2.0, 3.7, -3.7, 1e-300, np.inf,
                               np.nan, 0, 1, 5, -2], ids=repr)
def test_ufuncs_on_scalars(x):
    for func in TRANSCENDENTAL:
        acheck(func, x, approx=True)
    acheck(u_exact if isinstance(x, float) else u_exact_int, x)


def u_round_bool(a, x):
    return np.floor(a), np.ceil(a), np.trunc(a), np.floor(x), np.trunc(x)


@NUMPY2
def test_floor_ceil_trunc_of_bools_stay_bool():
    # NumPy 2 keeps bool (and integer) dtypes for floor/ceil/trunc, as Numba 0.68 does
    acheck(u_round_bool, np.array([True, False, True]), True)


@NUMPY2
@pytest.mark.parametrize("dtype", [np.int64, np.int16], ids=dtype_id)
def test_ufuncs_on_integer_arrays(dtype):
    """NumPy's result dtypes: float64 for 32- and 64-bit integers, float32 for 16-bit ones;
    the integer dtype for floor/ceil/trunc/abs/negative."""
    a = np.array([0, 1, 2, 5, 100] if np.dtype(dtype).kind == "u" else [-3, 0, 1, 2, 100],
                 dtype)
    for func in TRANSCENDENTAL:
        acheck(func, a, approx=True)
    acheck(u_exact_int, a)


@pytest.mark.parametrize("dtype", [np.int8, np.bool_], ids=dtype_id)
def test_ufuncs_on_8bit_arrays(dtype):
    """NumPy computes these in float16 (float32, rounded): kiln too, with NumPy's dtypes and
    its values within a float16 ulp."""
    a = np.array([0, 1, 2, 5, 100]).astype(dtype)
    for func in TRANSCENDENTAL:
        got = compiled(func)(a)
        with np.errstate(all="ignore"):
            want = func(a)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype, (g.dtype, w.dtype)
            np.testing.assert_allclose(g.astype(np.float32), w.astype(np.float32), rtol=2e-3,
                                       atol=1e-3, equal_nan=True)
        del got, g


def test_np_negative_of_bool_is_a_compile_error():
    """NumPy has no negative loop for bool (TypeError), as for ``-a``."""
    err = compile_error(u_negative, np.array([True, False, True]))
    assert isinstance(err, EITHER) and err.line == locate(u_negative, "np.negative(x)")[0]


@NUMPY2
def test_abs_edge_values():
    acheck(u_exact_int, np.array([-128, 127, 0, -1], np.int8))
    acheck(u_exact_int, np.array([np.iinfo(np.int64).min, -5], np.int64))
    acheck(u_exact, np.array([-0.0, -np.inf, np.nan, 2.25]))


def u_complex_exact(x):
    return np.abs(x), np.absolute(x), np.negative(x)


@pytest.mark.parametrize("dtype", COMPLEXES, ids=dtype_id)
def test_abs_and_negative_of_complex_arrays(dtype):
    a = np.array([1 + 2j, -0.5 + 0.25j, 3 - 4j, 0j, complex(np.inf, np.nan)]).astype(dtype)
    acheck(u_complex_exact, a, approx=True)


# --------------------------------------------------------------------------------------------
# Reductions, copy and fill.

def r_sums(a):
    return np.sum(a), a.sum(), np.prod(a), a.prod(), np.mean(a), a.mean()


def r_minmax(a):
    return np.min(a), a.min(), np.max(a), a.max()


def r_sum(a):
    return a.sum()


def r_mean(a):
    return a.mean()


def r_sum_prod(a):
    return np.sum(a), a.sum(), np.prod(a), a.prod()


def r_np_mean(a):
    return np.mean(a)


def r_min(a):
    return a.min()


def r_max(a):
    return a.max()


def r_np_min(a):
    return np.min(a)


def r_np_max(a):
    return np.max(a)


def _reduction_values(dtype):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return np.array([[True, False, True], [True, True, True]])
    if kind == "u":
        return np.array([[3, 1, 4], [1, 5, 2]], dtype)
    if kind == "c":
        return np.array([[1 + 2j, -0.5 + 1j, 2 + 0j], [1 - 1j, 0.25 + 0.5j, -2j]], dtype)
    return np.array([[3, -1, 4], [1, -5, 2]], dtype)


REDUCE_CASES = [(dt, "C") for dt in (np.bool_, np.int8, np.uint8, np.int32, np.uint32,
                                     np.int64, np.uint64, np.float32, np.float64,
                                     np.complex64)] + [(np.float64, "F"), (np.int8, "reversed")]


@pytest.mark.parametrize("case", REDUCE_CASES, ids=case_id)
def test_sum_prod_mean(case):
    dtype, layout = case
    acheck(r_sums, arr(_reduction_values(dtype), dtype, layout))


@pytest.mark.parametrize("case", REDUCE_CASES, ids=case_id)
def test_min_max(case):
    """Complex min/max order lexicographically in NumPy."""
    dtype, layout = case
    acheck(r_minmax, arr(_reduction_values(dtype), dtype, layout))


@pytest.mark.parametrize("shape", [(), (1,), (7,), (2, 3, 4), (1, 2, 1, 3)], ids=str)
def test_reductions_any_ndim(shape):
    a = (np.arange(int(np.prod(shape))) % 5 - 2).astype(np.int32).reshape(shape)
    acheck(r_sums, a)
    acheck(r_minmax, a)


def test_reductions_accumulate_in_numpys_dtype():
    # int8 sums and products accumulate in int64 (NumPy's default integer), not in int8.
    acheck(r_sums, np.array([100, 100, 100], np.int8))
    acheck(r_sums, np.array([200, 200], np.uint8))
    # uint64 sums stay unsigned.
    acheck(r_sum, np.array([2 ** 63, 2 ** 62, 1], np.uint64))
    # float32 sums accumulate in float32.
    acheck(r_sum, np.array([1e8, 1.0, -1e8], np.float32))
    acheck(r_mean, np.array([1e8, 1.0, -1e8], np.float32))
    # int64 means are computed in float64 (no int64 overflow).
    acheck(r_mean, np.array([2 ** 62, 2 ** 62, 2 ** 62, 2 ** 62], np.int64))


def test_min_max_with_nan_and_inf():
    for vals in ([1.0, np.nan, -3.0], [np.nan, 2.0], [2.0, 5.0, np.nan], [np.inf, -np.inf],
                 [-np.inf, 3.0]):
        for dt in FLOATS:
            acheck(r_minmax, np.array(vals, dt))
            acheck(r_sums, np.array(vals, dt))


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.bool_], ids=dtype_id)
def test_reductions_of_empty_arrays(dtype):
    """sum/prod give their identity and mean NaN; min/max raise ValueError like NumPy."""
    a = np.zeros((0, 3), dtype)
    acheck(r_sum_prod, a)
    for func in (r_min, r_np_max) if dtype is np.bool_ else (r_min, r_max, r_np_min, r_np_max):
        err = acheck(func, a)
        assert isinstance(err, ValueError) and str(err)
    acheck(r_mean, a)
    if dtype is np.float64:
        acheck(r_np_mean, a)


def test_reductions_large_float_arrays_are_accurate():
    rng = np.random.default_rng(1)
    a = rng.standard_normal(10_000)
    got = compiled(r_sums)(a)
    np.testing.assert_allclose(got[0], np.sum(a), rtol=1e-10)
    np.testing.assert_allclose(got[4], np.mean(a), rtol=1e-10)
    acheck(r_minmax, a)
    f = a.astype(np.float32) + 1
    np.testing.assert_allclose(compiled(r_sum)(f), np.sum(f), rtol=1e-4)


def copy_method(a):
    return a.copy()


def copy_function(a):
    return np.copy(a)


def copy_and_modify(a):
    b = a.copy()
    b[0] = 100
    c = np.copy(a)
    c[-1] = 50
    return a, b, c


def fill(a, v):
    return a.fill(v)


@pytest.mark.parametrize("case", FEW_CASES, ids=case_id)
def test_copy(case):
    dtype, layout = case
    a = sample(case)
    acheck(copy_method, a)
    acheck(copy_function, a)
    got = compiled(copy_method)(a)
    assert got.flags.c_contiguous and got.flags.writeable
    del got
    if layout != "C" or dtype in (np.bool_, np.uint8, np.float32, np.complex128):
        acheck(copy_and_modify, arr(np.arange(5) - 2, dtype, layout))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_copy_of_readonly_is_writable(layout):
    a = arr(np.arange(6).reshape(2, 3), np.float64, layout)
    a.setflags(write=False)
    acheck(copy_method, a)
    acheck(copy_function, a)


@pytest.mark.parametrize("case", FEW_CASES, ids=case_id)
def test_fill(case):
    a = sample(case)
    for value in {"b": [1, 0.0], "i": [7, -2.7], "u": [9, 2.7], "f": [0.1, -3],
                  "c": [1 - 1j, 0.1]}[np.dtype(case[0]).kind]:
        acheck(fill, a, value)


def test_fill_small_int_wraps_like_astype():
    a = np.zeros(3, np.int8)
    assert compiled(fill)(a, 300) is None
    np.testing.assert_array_equal(a, np.full(3, np.array(300).astype(np.int8)))


# --------------------------------------------------------------------------------------------
# The seed program.

def go_fast(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.int32, np.float32], ids=dtype_id)
def test_go_fast(dtype):
    x = np.arange(100).reshape(10, 10).astype(dtype)
    acheck(go_fast, x, approx=True)
    acheck(go_fast, np.asfortranarray(x) / 7, approx=True)


def test_go_fast_random_and_repeated():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10, 10))
    f = compiled(go_fast)
    first = f(x)
    for _ in range(3):
        np.testing.assert_array_equal(f(x), first)
    # The trace's last bits depend on the libm's tanh: compare with an absolute tolerance.
    np.testing.assert_allclose(first, go_fast(x), rtol=1e-15, atol=1e-14)
    del first


# --------------------------------------------------------------------------------------------
# Slicing, transpose, reshape, ravel, astype, sub-array and augmented element assignment.
# (Listed as not supported when this suite was written; they work in the current build, so
# they are tested as features.)

def s_slices_1d(a):
    return a[1:3], a[::2], a[::-1], a[-2:], a[5:1], a[1:100], a[-100:2]


def s_slices_2d(a):
    return a[1:, :2], a[:, 1], a[::2, ::-1], a[-1, 1:], a[..., 0]


def s_slice_runtime(a, start, stop, step):
    return a[start:stop:step]


def s_slice_write(a):
    v = a[1::2]
    v[0] = -1
    return v


def s_shape_ops(a):
    return a.T, a.reshape(3, 4), a.reshape((2, -1)), a.ravel(), a.transpose()


def s_transpose_ravel(a):
    return a.T, a.ravel(), a.transpose(), a.T.T


def s_reshape_bad(a):
    return a.reshape(7)


def s_reshape_f(a):
    return a.reshape(2, 6)


def s_astype(a):
    return a.astype(np.float32), a.astype(np.int8), a.astype("complex64"), a.astype(np.bool_)


def s_setitem(a, i, b):
    a[i] = b


def s_set_slice(a, b):
    a[1:3] = b


def s_set_column(a, b):
    a[:, 0] = b


def s_set_overlap(a):
    a[1:] = a[:-1]


def s_set_overlap_reversed(a):
    a[:] = a[::-1]


def s_augmented(a, i, j):
    a[i, j] += 5
    a[i, j] *= 2
    a[-1, -1] -= a[0, 0]
    a[0] += a[1]
    a[:, 1:] -= 1


@pytest.mark.parametrize("layout", LAYOUTS)
def test_slicing_gives_views(layout):
    acheck(s_slices_1d, arr(np.arange(6) * 1.5, np.float64, layout))
    acheck(s_slices_2d, arr(np.arange(12).reshape(3, 4), np.int32, layout))
    acheck(s_slice_write, arr(np.arange(6), np.int64, layout))


def test_slicing_runtime_bounds():
    a = np.arange(10.0)
    for args in [(1, 8, 3), (-1, 2, -2), (0, 0, 1), (9, -11, -1), (-3, 100, 1),
                 (np.int8(2), np.int64(7), np.uint8(2))]:
        acheck(s_slice_runtime, a, *args)
    acheck(s_slice_runtime, a, 1, 8, 0)  # ValueError: slice step cannot be zero


def test_transpose_reshape_ravel():
    acheck(s_shape_ops, np.arange(12.0).reshape(3, 4))
    for layout in ("F", "strided"):
        acheck(s_transpose_ravel, arr(np.arange(12).reshape(3, 4), np.int16, layout))
    acheck(s_transpose_ravel, np.arange(24).reshape(2, 3, 4))
    acheck(s_reshape_bad, np.arange(6.0))  # ValueError like NumPy's


def test_reshape_of_non_contiguous_array_is_a_clean_error_or_works():
    a = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    res = run(compiled(s_reshape_f), a)
    if res[0] == "raise":
        assert isinstance(res[1], KilnError), res[1]
        assert res[1].line == locate(s_reshape_f, "a.reshape(2, 6)")[0]
    else:
        same_np(res[1], s_reshape_f(a))
    del res


@pytest.mark.parametrize("values", [[300, -2.7, 1e3, 0.5], [0, 1, 2, 255]], ids=str)
def test_astype(values):
    acheck(s_astype, np.array(values))
    acheck(s_astype, arr(np.array(values, np.int64), np.int64, "reversed"))


def test_subarray_assignment():
    acheck(s_setitem, np.zeros((2, 3)), 0, np.arange(3.0))
    acheck(s_setitem, np.zeros((2, 3)), -1, 5)
    acheck(s_setitem, np.zeros((2, 3), np.int32), 1, np.array([1.7, -2.7, 3.2]))
    acheck(s_setitem, np.zeros((2, 3)), 0, np.arange(4.0))  # ValueError: shapes
    acheck(s_set_slice, np.zeros(5), 7.0)
    acheck(s_set_slice, np.zeros((4, 2)), np.array([1.0, 2.0]))
    acheck(s_set_column, arr(np.zeros((2, 3)), np.float64, "F"), np.arange(2.0))


def test_subarray_assignment_with_overlap_copies_first():
    """NumPy assigns as if the right-hand side were copied first when the two overlap."""
    acheck(s_set_overlap, np.arange(5.0))
    acheck(s_set_overlap_reversed, np.arange(5.0))


def ov_assign(x, y):
    x[:] = y


def ov_assign_expr(x, y):
    x[:] = y * 2.0 + y


def ov_iadd(x, y):
    x += y


def ov_out_unary(x, y):
    np.sqrt(y, out=x)


def ov_out_binary(x, y):
    np.add(y, 1.0, out=x)
    np.maximum(x[::-1], y, out=x)


_OVERLAPS = {"shift-right": (slice(1, None), slice(None, -1)),
             "shift-left": (slice(None, -1), slice(1, None)),
             "reversed": (slice(None, None, -1), slice(None)),
             "same": (slice(None), slice(None)),
             "disjoint": (slice(0, 4), slice(5, 9))}


@pytest.mark.parametrize("func", [ov_assign, ov_assign_expr, ov_iadd, ov_out_unary, ov_out_binary],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("where", list(_OVERLAPS), ids=str)
def test_views_of_one_buffer_passed_from_python_behave_as_in_numpy(func, where):
    """Two arguments that are views of one NumPy buffer (different Python objects): writes
    through one must see the other as NumPy does, copied first where the byte ranges overlap
    (kiln compares the ranges, as Numba does), in place where they are the same view."""
    dst, src = _OVERLAPS[where]
    got, want = np.arange(10.0), np.arange(10.0)
    kiln.njit(func)(got[dst], got[src])
    func(want[dst], want[src])
    assert got.tolist() == want.tolist()
    strided, want2 = np.arange(24.0).reshape(4, 6), np.arange(24.0).reshape(4, 6)
    kiln.njit(func)(strided[:, 1:4], strided[:, 2:5])
    func(want2[:, 1:4], want2[:, 2:5])
    assert strided.tolist() == want2.tolist()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_augmented_assignment_to_elements_and_subarrays(layout):
    acheck(s_augmented, arr([[1, 2, 3], [4, 5, 6]], np.int16, layout), 0, 1)
    if layout == "C":
        acheck(s_augmented, arr([[1, 2, 3], [4, 5, 6]], np.float32, layout), 1, -1)


# np.where and np.maximum/np.minimum (also listed as not supported when this suite was written).

def w_where(c, a, b):
    return np.where(c > 2, a, b), np.where(c > 2, a, 0), np.where(c < 1, 1.5, b)


def w_where_broadcast(a, b):
    return np.where(a[:, 0:1] > b, a[:, 0:1], b)


def m_maxmin(a, b):
    return np.maximum(a, b), np.minimum(a, b), np.maximum(a, 2), np.minimum(2.5, b)


@pytest.mark.parametrize("dta,dtb", [(np.float64, np.float64), (np.int8, np.float32),
                                     (np.int64, np.int8), (np.bool_, np.uint8)],
                         ids=lambda d: np.dtype(d).name)
def test_where(dta, dtb):
    c = np.array([0.0, 1.0, 3.0, 5.0, np.nan])
    a = np.array([1, 0, 3, 1, 5]).astype(dta)
    b = np.array([2, 1, 7, 3, 4]).astype(dtb)
    acheck(w_where, c, a, b)
    acheck(w_where_broadcast, np.arange(12.0).reshape(4, 3), np.array([1.0, 5.0, 9.0]))


@pytest.mark.parametrize("dta,dtb", [(np.float64, np.float64), (np.float32, np.float32),
                                     (np.int8, np.float32), (np.int64, np.int8),
                                     (np.uint8, np.int8), (np.bool_, np.int16)],
                         ids=lambda d: np.dtype(d).name)
def test_maximum_minimum(dta, dtb):
    """NaN propagates from either side, as in NumPy (np.fmax would skip it)."""
    a = np.array([1.0, np.nan, 3.0, -2.0, 5.0, np.inf])
    b = np.array([2.0, 1.0, np.nan, -3.0, 4.0, 0.5])
    if np.dtype(dta).kind != "f":
        a, b = np.array([1, 0, 3, 2, 5, 1]), np.array([2, 1, 0, 3, 4, 1])
    acheck(m_maxmin, a.astype(dta), b.astype(dtb))
    if dta is np.float64:
        acheck(m_maxmin, a.astype(dta)[:, None], b.astype(dtb)[::-1])


def w_where_one(a):
    return np.where(a > 2), np.nonzero(a), a.nonzero(), np.where(a)


def w_nonzero_of_scalar(x):
    return np.nonzero(x)


def w_nonzero_method_args(a):
    return a.nonzero(1)


@pytest.mark.parametrize("a", [np.arange(6).reshape(2, 3), np.array([0.0, -0.0, np.nan, 3.0]),
                               np.zeros((2, 0, 3)), np.arange(24).reshape(2, 3, 4)[:, ::2, ::-1] % 3,
                               np.asfortranarray(np.arange(12.0).reshape(3, 4)) % 2,
                               np.array([True, False, True]), np.array([0j, 1j, 2.0])],
                         ids=["int2d", "signed-zero-nan", "empty", "strided3d", "fortran", "bool",
                              "complex"])
def test_where_one_argument_and_nonzero(a):
    # np.where(condition) is np.nonzero(condition): a tuple of int64 index arrays, one per axis
    acheck(w_where_one, a)


def test_nonzero_bad_input():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(w_nonzero_of_scalar)(3)
    assert_diagnostic(info.value, kiln.errors.TypingError, w_nonzero_of_scalar, "x)",
                      contains=["array", "int64"], nth=2)
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(w_nonzero_method_args)(np.arange(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, w_nonzero_method_args, "a.nonzero(1)",
                      contains=["no arguments"])


def m_extremes(a, b):
    return np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b)


def test_maximum_minimum_fmax_fmin_on_zeros_and_nan_match_numpy():
    # Which zero a tie of -0.0 and 0.0 returns is not specified by NumPy (it differs by CPU:
    # AVX-512 and AVX2 builds answer differently), so only the values are compared; NaN is
    # specified: maximum/minimum propagate it, fmax/fmin return the other operand.
    nan = float("nan")
    a = np.array([-0.0, 0.0, -0.0, 0.0, nan, 1.0, nan, -2.0])
    b = np.array([0.0, -0.0, -0.0, 0.0, 1.0, nan, nan, 3.0])
    f = kiln.njit(m_extremes)
    for got, want in zip(f(a, b), m_extremes(a, b)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    for x, y in zip(a.tolist(), b.tolist()):
        for got, want in zip(f(x, y), m_extremes(x, y)):
            np.testing.assert_array_equal(np.float64(got), np.float64(want), err_msg=str((x, y)))


def r_keepdims(a):
    return (a.sum(axis=0, keepdims=True), np.max(a, axis=-1, keepdims=True), a.mean(keepdims=True),
            np.argmin(a, axis=1, keepdims=True), a.all(axis=0, keepdims=False),
            np.prod(a, keepdims=True), a / a.sum(axis=1, keepdims=True))


def r_keepdims_1d(v):
    return v.sum(axis=0, keepdims=True), np.min(v, keepdims=True), v.argmax(keepdims=True)


def r_keepdims_variable(a, k):
    return a.sum(axis=0, keepdims=k)


def r_keepdims_cumsum(a):
    return np.cumsum(a, keepdims=True)


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_reductions_with_keepdims(layout):
    # keepdims=True keeps each reduced axis with length 1 (all of them without axis=), so the
    # result broadcasts against the input: a / a.sum(axis=1, keepdims=True)
    acheck(r_keepdims, arr(np.arange(1.0, 13.0).reshape(3, 4), np.float64, layout))
    acheck(r_keepdims, arr(np.arange(24).reshape(2, 3, 4) % 5 + 1, np.int64, layout))
    acheck(r_keepdims_1d, np.array([3.0, -1.0, 7.5]))


def test_keepdims_bad_input():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(r_keepdims_variable)(np.ones((2, 2)), True)
    assert_diagnostic(info.value, kiln.errors.TypingError, r_keepdims_variable, "k)",
                      contains=["keepdims", "constant"], nth=2)
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(r_keepdims_cumsum)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, r_keepdims_cumsum, "True)",
                      contains=["cumsum", "keepdims"])


# Reductions along an axis (listed as not supported when this suite was written).

def r_axis0(a):
    return np.sum(a, axis=0), a.prod(axis=0), a.min(axis=0), np.max(a, 0), a.mean(axis=0)


def r_axis_last(a):
    return a.sum(axis=-1), np.prod(a, -1), np.min(a, axis=-1), a.max(-1), np.mean(a, axis=-1)


def r_axis1(a):
    return a.sum(1), a.min(axis=1), a.mean(axis=1)


def r_axis_out_of_range(a):
    return a.sum(axis=3)


def r_axis_none(a):
    return a.sum(axis=None)


def r_axis_tuple(a):
    return a.sum(axis=(0, 1))


def r_keepdims(a):
    return a.sum(axis=0, keepdims=True)


@pytest.mark.parametrize("case", [(np.float64, "C"), (np.int8, "C"), (np.bool_, "C"),
                                  (np.complex128, "C"), (np.float32, "F"),
                                  (np.int64, "strided")], ids=case_id)
def test_reductions_along_an_axis(case):
    """Each output element is the reduction of its lane, with NumPy's accumulator dtypes."""
    dtype, layout = case
    values = (np.arange(24) * 37 % 11 - 3).reshape(2, 3, 4)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * (values % 3)
    a = arr(values, dtype, layout)
    approx = np.dtype(dtype).kind in "fc"
    acheck(r_axis0, a, approx=approx)
    if dtype in (np.float64, np.int8):
        acheck(r_axis_last, a, approx=approx)
        acheck(r_axis1, a, approx=approx)
        acheck(r_axis0, arr(values[0], dtype, layout), approx=approx)


def test_reductions_along_an_axis_edge_cases():
    acheck(r_axis0, np.array([[1.0, np.nan], [2.0, 1.0], [np.inf, -1.0]]))
    acheck(r_axis0, np.arange(5.0))  # 1-D: a scalar, as in NumPy
    acheck(r_axis1, np.zeros((0, 3)))  # empty lanes: sum 0, mean NaN; no lane for min
    acheck(r_axis0, np.zeros((0, 3)))  # min of an empty lane: ValueError


def test_axis_out_of_range_is_a_typing_error():
    err = compile_error(r_axis_out_of_range, np.zeros((2, 3, 4)))
    assert isinstance(err, EITHER)
    assert err.line == locate(r_axis_out_of_range, "a.sum(axis=3)")[0]
    assert "axis" in err.msg.lower()


@pytest.mark.parametrize("func", [r_axis_none, r_axis_tuple, r_keepdims],
                         ids=lambda f: f.__name__)
def test_other_axis_forms_work_or_are_clean_errors(func):
    a = np.arange(24.0).reshape(2, 3, 4)
    res = run(compiled(func), a)
    if res[0] == "raise":
        assert isinstance(res[1], KilnError), res[1]
        assert res[1].line == locate(func, "a.sum(")[0]
    else:
        same_np(res[1], func(a))
    del res


# np.array from tuples, np.linspace, np.eye (listed as not supported when this suite was
# written).

def array_from_tuples(x):
    return (np.array((x, 2.0, 3.0)), np.array((x, 2, 3)), np.array(((x, 2), (3, 4))),
            np.array((x, True)), np.array((x,)))


def array_from_tuples_dtype(x):
    return np.array((x, 2), dtype=np.float32), np.array((x, 1j)), np.asarray((x, 2)), np.array(x)


def array_from_lists(x):
    return (np.array([x, 2.0, 3.0]), np.array([[x, 2], [3, 4]]), np.array([(x, 2), [3, 4]]),
            np.asarray([x, True]), np.array([[[x]]]), np.array([x, 2], dtype=np.float32),
            np.array([]), np.array([], dtype=np.int32))


def array_from_ragged_list(x):
    return np.array([[x, 2], [3]])


def array_from_starred_list(t):
    return np.array([*t])


def list_outside_np_array(x):
    return len([x, 2])


def linspace(start, stop, n):
    return np.linspace(start, stop, n)


def eye_forms(n):
    return np.eye(n), np.eye(n, 2), np.eye(n, dtype=np.int8), np.eye(n, k=1), np.eye(n, n + 1, -1)


@pytest.mark.parametrize("x", [1, 1.5, True, 2 ** 40], ids=repr)
def test_array_from_tuples(x):
    acheck(array_from_tuples, x)
    acheck(array_from_tuples_dtype, x, approx=True)


@pytest.mark.parametrize("x", [1, 1.5, True, 2 ** 40], ids=repr)
def test_array_from_lists(x):
    # list displays as np.array's/np.asarray's object read as the tuple of their items
    acheck(array_from_lists, x, approx=True)


def test_array_from_lists_rejects_what_numpy_cannot_build_or_kiln_cannot_type():
    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(array_from_ragged_list)(1)
    assert_diagnostic(info.value, kiln.errors.TypingError, array_from_ragged_list,
                      "[[x, 2], [3]]", contains=["regular shape"])
    with pytest.raises(kiln.errors.UnsupportedError) as info:
        kiln.njit(array_from_starred_list)((1, 2))
    assert_diagnostic(info.value, kiln.errors.UnsupportedError, array_from_starred_list, "*t",
                      contains=["starred"])
    # a list display outside np.array is a list value since issue 9 (lists): CPython's result
    assert kiln.njit(list_outside_np_array)(1) == list_outside_np_array(1)


@pytest.mark.parametrize("args", [(0.0, 1.0, 5), (0, 10, 7), (-1, 1.0, 2), (0.1, 0.7, 50),
                                  (1.0, 0.0, 1), (2.0, 5.0, 0), (5, -5, 3), (0.0, 1.0, -1)],
                         ids=str)
def test_linspace(args):
    """NumPy computes start + i * step and sets the last element to stop exactly; num=1 gives
    [start]; a negative num is a ValueError."""
    acheck(linspace, *args, approx=True)


@pytest.mark.parametrize("n", [0, 1, 3], ids=repr)
def test_eye(n):
    acheck(eye_forms, n)


# out= arguments (listed as not supported when this suite was written).

def out_forms(a, b):
    r = np.sqrt(a, out=b)
    np.maximum(a, 1.0, b[::-1])
    return r


def out_self(a):
    return np.sin(a, out=a)


def out_power_clip(a, b):
    np.power(a, 2, out=b)
    return np.clip(b, 0.5, 2.0, out=b)


def out_unsafe_cast(a):
    b = np.zeros(3, np.int64)
    np.maximum(a, 1.0, out=b)
    return b


def out_wrong_shape(a):
    return np.sqrt(a, out=np.zeros(4))


def test_out_argument_writes_and_returns_the_out_array():
    a = np.array([0.25, 1.0, 4.0])
    acheck(out_forms, a, np.zeros(3))
    acheck(out_self, a, approx=True)
    acheck(out_power_clip, a, np.zeros(3))
    acheck(out_wrong_shape, a)  # ValueError


def test_out_argument_needs_numpys_same_kind_cast():
    """NumPy refuses to write a float64 result into an int64 out= (casting='same_kind')."""
    res = run(compiled(out_unsafe_cast), np.array([0.25, 1.0, 4.0]))
    outcome = res[1] if res[0] == "raise" else f"a result: {res[1]!r}"
    del res
    assert isinstance(outcome, (TypeError, KilnError)), outcome


# --------------------------------------------------------------------------------------------
# Bad input: a KilnError at the offending line, never a crash.

def index_float(a):
    return a[1.5]


def index_float_var(a, x):
    return a[x]


def index_too_many(a):
    return a[0, 1, 2]


def store_too_many(a):
    a[0, 1, 2] = 3.0


def zeros_float_shape(n):
    return np.zeros(n * 0.5)


def zeros_tuple_float(n):
    return np.zeros((2, n))


def zeros_str_shape():
    return np.zeros("abc")


def zeros_bad_dtype():
    return np.zeros(3, "not_a_dtype")


def truth_value(a):
    if a:
        return 1
    return 0


def truth_value_while(a):
    n = 0
    while a:
        n += 1
        return n
    return n


def truth_value_not(a):
    return not a


def truth_value_and(a, b):
    return a and b


def store_complex_in_float(a):
    a[0] = 1 + 2j


def unknown_attribute(a):
    return a.nonexistent_attribute


def len_of_0d(a):
    return len(a)


def bool_index(a, m):
    return a[m]


def index_with_tuple_of_floats(a):
    return a[1, 2.0]


def iterate_0d(a):
    for x in a:
        return x
    return 0.0


def assign_array_attr(a):
    a.shape = (3, 2)


def add_array_and_str(a):
    return a + "x"


def add_array_and_tuple(a):
    return a + (1, 2, 3)


def test_index_with_float_is_a_typing_error():
    err = compile_error(index_float, np.arange(3.0))
    assert_diagnostic(err, EITHER, index_float, "a[1.5]", cols=["1.5"])
    err = compile_error(index_float_var, np.arange(3.0), 1.0)
    assert_diagnostic(err, EITHER, index_float_var, "a[x]", cols=["x]"])
    err = compile_error(index_with_tuple_of_floats, np.zeros((3, 3)))
    assert_diagnostic(err, EITHER, index_with_tuple_of_floats, "a[1, 2.0]",
                      cols=["2.0", "1, 2.0"])


def test_too_many_indices_is_a_typing_error():
    err = compile_error(index_too_many, np.zeros((3, 3)))
    assert_diagnostic(err, EITHER, index_too_many, "a[0, 1, 2]", cols=["0, 1, 2"],
                      contains=[("indices", "index", "dimension")])
    err = compile_error(store_too_many, np.zeros((3, 3)))
    assert_diagnostic(err, EITHER, store_too_many, "a[0, 1, 2]", cols=["0, 1, 2"])


def test_zeros_with_non_int_shape_is_a_typing_error():
    err = compile_error(zeros_float_shape, 4)
    assert_diagnostic(err, EITHER, zeros_float_shape, "np.zeros(n * 0.5)",
                      cols=["n * 0.5"])
    err = compile_error(zeros_tuple_float, 1.5)
    assert_diagnostic(err, EITHER, zeros_tuple_float, "np.zeros((2, n))", cols=["(2, n)"])
    err = compile_error(zeros_str_shape)
    assert_diagnostic(err, EITHER, zeros_str_shape, "np.zeros(", cols=['"abc"'])


def test_bad_dtype_is_a_kiln_error():
    err = compile_error(zeros_bad_dtype)
    assert err.line == locate(zeros_bad_dtype, "np.zeros(")[0]


@pytest.mark.parametrize("func,snippet", [
    (truth_value, "if a:"), (truth_value_while, "while a:"), (truth_value_not, "not a"),
], ids=lambda v: getattr(v, "__name__", v))
def test_truth_value_of_array_is_a_kiln_error(func, snippet):
    err = compile_error(func, np.ones(3))
    assert isinstance(err, EITHER)
    assert err.line == locate(func, snippet)[0], str(err)


def test_truth_value_of_array_in_and_is_a_kiln_error():
    err = compile_error(truth_value_and, np.ones(3), np.ones(3))
    assert isinstance(err, EITHER)
    assert err.line == locate(truth_value_and, "a and b")[0]


def test_store_complex_in_float_array_is_a_typing_error():
    err = compile_error(store_complex_in_float, np.zeros(3))
    assert_diagnostic(err, EITHER, store_complex_in_float, "a[0] = 1 + 2j",
                      cols=["a[0]", "1 + 2j"])


def test_unknown_attribute_is_a_typing_error():
    err = compile_error(unknown_attribute, np.zeros(3))
    assert_diagnostic(err, EITHER, unknown_attribute, "a.nonexistent_attribute",
                      cols=["nonexistent_attribute"], contains=["nonexistent_attribute"])


def test_len_and_iteration_of_0d_array_are_typing_errors():
    err = compile_error(len_of_0d, np.array(1.0))
    assert isinstance(err, EITHER) and err.line == locate(len_of_0d, "len(a)")[0]
    err = compile_error(iterate_0d, np.array(1.0))
    assert isinstance(err, EITHER) and err.line == locate(iterate_0d, "for x in a")[0]


def test_boolean_mask_index_matches_numpy():
    # issue 11 made boolean masks an index (it was a compile error before): NumPy is the oracle
    a, m = np.arange(3.0), np.array([True, False, True])
    got = kiln.njit(bool_index)(a, m)
    np.testing.assert_array_equal(got, bool_index(a, m))
    assert got.dtype == a.dtype


def test_assigning_an_array_attribute_is_a_kiln_error():
    err = compile_error(assign_array_attr, np.zeros(6))
    assert isinstance(err, EITHER) and err.line == locate(assign_array_attr, "a.shape")[0]


def test_array_with_str_or_tuple_operand_is_a_typing_error():
    err = compile_error(add_array_and_str, np.zeros(3))
    assert_diagnostic(err, EITHER, add_array_and_str, 'a + "x"', cols=['"x"'])
    err = compile_error(add_array_and_tuple, np.zeros(3))
    assert isinstance(err, EITHER)
    assert err.line == locate(add_array_and_tuple, "a + (1, 2, 3)")[0]


def test_dispatcher_usable_after_array_errors():
    f = compiled(index_float_var)
    with pytest.raises(KilnError):
        f(np.arange(3.0), 1.0)
    assert f(np.arange(3.0), 2) == 2.0


# --------------------------------------------------------------------------------------------
# Not supported yet: each flips to XPASS (a failure, strict) when kiln implements it; then it
# becomes a feature test.

def _xfail(reason):
    return pytest.mark.xfail(strict=True, reason=reason)


def sum_tuple_axis(a):
    return np.sum(a, axis=(0, 1))


@_xfail("a tuple axis= is not supported yet")
def test_xfail_reduction_tuple_axis():
    acheck(sum_tuple_axis, np.arange(24.0).reshape(2, 3, 4))


def add_function(a, b):
    return np.add(a, b), np.multiply(a, 2), np.subtract(b, a), np.true_divide(a, b)




def test_arithmetic_ufunc_functions():
    acheck(add_function, np.arange(3.0), np.ones(3))


def complex_transcendental(x):
    return np.sqrt(x), np.exp(x), np.log(x), np.sin(x), np.cos(x), np.tanh(x)


def test_complex_transcendental_ufuncs():
    for dtype in COMPLEXES:
        acheck(complex_transcendental, np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j]).astype(dtype),
               approx=True)
