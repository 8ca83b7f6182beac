"""kiln's library written in Python (kiln/lib/): np.var, np.std, a.var(), a.std(), np.diff,
np.convolve, np.bincount, np.dot and ``@``. NumPy is the oracle: each compiled call is compared
with the same call run by NumPy, for every dtype the function accepts, C/F/strided layouts and
empty arrays; bad input raises NumPy's exception class at the right source position."""

import os
import warnings

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

REALS = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
         np.uint64, np.float32, np.float64]
NUMBERS = REALS + [np.complex64, np.complex128]
LIB = os.path.join(os.path.dirname(kiln.__file__), "lib")


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 9, size=shape)
    if np.dtype(dtype).kind == "c":
        return (x + 1j * rng.integers(0, 9, size=shape)).astype(dtype)
    return x.astype(dtype)


def layouts(a):
    """C, F and a strided view of 2-D `a` (1-D: contiguous and strided)."""
    if a.ndim == 1:
        return [a, np.repeat(a, 2)[::2]]
    return [a, np.asfortranarray(a), np.repeat(a, 2, axis=1)[:, ::2]]


def same(got, want, dtype=None):
    want = np.asarray(want)
    got_a = np.asarray(got)
    assert got_a.shape == want.shape
    assert got_a.dtype == want.dtype or (got_a.ndim == 0 and np.isscalar(got)), \
        (got_a.dtype, want.dtype)
    tol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got_a, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got_a, want)


def numpy(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args)


# ---- np.var, np.std, a.var(), a.std() --------------------------------------------------------

def var_std(a, axis, ddof):
    return (np.var(a, axis=axis, ddof=ddof), np.std(a, axis, ddof=ddof),
            a.var(axis=axis, ddof=ddof), a.std(axis, None, None, ddof))


def var_std_plain(a):
    return np.var(a), np.std(a), a.var(), a.std()


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_var_std_every_dtype(dtype):
    f = kiln.njit(var_std_plain)
    a = sample(dtype, 10)
    got, want = f(a), numpy(var_std_plain, a)
    for g, w in zip(got, want):
        same(g, w)
    # result types: ints give float64, float32 stays float32, complex gives the real type
    assert np.asarray(want[0]).dtype == (np.float32 if dtype in (np.float32, np.complex64)
                                         else np.float64)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64], ids=lambda d: np.dtype(d).name)
def test_var_std_axis_ddof_layouts(dtype):
    f = kiln.njit(var_std)
    arrays = layouts(sample(dtype, (4, 5)))
    for a in arrays if dtype is np.float64 else arrays[:1]:
        for axis in (None, 0, 1, -1, -2):
            for ddof in (0, 1, 2):
                got, want = f(a, axis, ddof), numpy(var_std, a, axis, ddof)
                for g, w in zip(got, want):
                    same(g, w)
    a1 = sample(dtype, 7)
    for a in layouts(a1) if dtype is np.float64 else [a1]:
        for axis in (0, -1):
            for g, w in zip(f(a, axis, 1), numpy(var_std, a, axis, 1)):
                same(g, w)
    a3 = sample(dtype, (2, 3, 4))
    for axis in (0, 1, 2, -1):
        for g, w in zip(f(a3, axis, 0), numpy(var_std, a3, axis, 0)):
            same(g, w)


def test_var_std_empty_and_too_large_ddof():
    f = kiln.njit(var_std)
    for a in (np.zeros(0), np.zeros((0, 3)), np.zeros((3, 0)), np.arange(3.0)):
        for axis in (None, 0, -1):
            for ddof in (0, 3, 5, 1.5):
                got, want = f(a, axis, ddof), numpy(var_std, a, axis, ddof)
                for g, w in zip(got, want):
                    same(g, w)


def test_var_axis_out_of_bounds():
    f = kiln.njit(var_std)
    with pytest.raises(np.exceptions.AxisError) as info:
        f(np.ones((2, 3)), 2, 0)
    notes = getattr(info.value, "__notes__", [])
    if notes:  # Python 3.11+: raised in kiln/lib, passed up by the user's call
        assert notes[0].startswith(f"raised by kiln-compiled code at {LIB}")
        assert notes[-1].startswith(f"called from {__file__}:")


def test_var_bad_arguments_are_typing_errors():
    def bad_axis(a):
        return np.var(a, axis=1.5)

    def bad_keepdims(a):
        return a.std(keepdims=True)

    for func, snippet, words in ((bad_axis, "np.var(", ("axis",)),
                                 (bad_keepdims, "a.std(", ("keepdims",))):
        with pytest.raises(kiln.errors.TypingError) as info:
            kiln.njit(func)(np.ones((2, 2)))
        assert_diagnostic(info.value, kiln.errors.TypingError, func, snippet, contains=words)


# ---- np.diff -------------------------------------------------------------------------------

def diff(a, n, axis):
    return np.diff(a, n, axis=axis)


def diff_default(a):
    return np.diff(a)


@pytest.mark.parametrize("dtype", NUMBERS, ids=lambda d: np.dtype(d).name)
def test_diff_every_dtype(dtype):
    a = sample(dtype, 9)
    same(kiln.njit(diff_default)(a), np.diff(a))


def test_diff_n_axis_layouts_empty():
    f = kiln.njit(diff)
    for dtype in (np.int64, np.uint8, np.float64, np.bool_):
        for a in layouts(sample(dtype, (4, 6))) + layouts(sample(dtype, 8)):
            for axis in range(-a.ndim, a.ndim):
                for n in (0, 1, 2, 5, 10):
                    same(f(a, n, axis), np.diff(a, n, axis=axis))
    for a in (np.zeros(0), np.zeros((0, 4)), np.zeros((3, 0)), np.arange(24.0).reshape(2, 3, 4)):
        for axis in range(-a.ndim, a.ndim):
            same(f(a, 1, axis), np.diff(a, 1, axis=axis))


def test_diff_bad_input():
    f = kiln.njit(diff)
    for args, exc in (((np.ones(3), -1, 0), ValueError),
                      ((np.ones((2, 2)), 1, 2), np.exceptions.AxisError)):
        with pytest.raises(exc) as info:
            f(*args)
        with pytest.raises(exc):
            np.diff(args[0], args[1], axis=args[2])
        notes = getattr(info.value, "__notes__", [])
        if notes:
            assert LIB in notes[0] and notes[-1].startswith(f"called from {__file__}:")

    def zero_d(x):
        return np.diff(np.asarray(x))

    with pytest.raises(kiln.errors.TypingError) as err:
        kiln.njit(zero_d)(1.0)
    assert_diagnostic(err.value, kiln.errors.TypingError, zero_d, "np.diff(", contains=("dimension",))


# ---- np.convolve ---------------------------------------------------------------------------

def convolve(a, v):
    return np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(a, v, mode="valid")


@pytest.mark.parametrize("dtype", [d for d in NUMBERS if d is not np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_convolve_every_dtype_and_mode(dtype):
    f = kiln.njit(convolve)
    for n, m in ((7, 3), (3, 7), (4, 4), (1, 5), (5, 1)):
        a, v = sample(dtype, n, 1), sample(dtype, m, 2)
        for g, w in zip(f(a, v), convolve(a, v)):
            same(g, w)
    a, v = np.arange(10.0)[::3], np.array([1.0, -2.0, 0.5])
    for g, w in zip(f(a, v), convolve(a, v)):
        same(g, w)


def test_convolve_mixed_dtypes():
    a, v = np.arange(6, dtype=np.int8), np.array([0.5, 2.0], np.float32)
    for g, w in zip(kiln.njit(convolve)(a, v), convolve(a, v)):
        same(g, w)


def test_convolve_bad_input():
    f = kiln.njit(convolve)
    for a, v, msg in ((np.zeros(0), np.ones(2), "a cannot be empty"),
                      (np.ones(2), np.zeros(0), "v cannot be empty")):
        with pytest.raises(ValueError, match=msg):
            f(a, v)
        with pytest.raises(ValueError, match=msg):
            convolve(a, v)

    def bad_mode(a):
        return np.convolve(a, a, mode="middle")

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(bad_mode)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, bad_mode, "np.convolve(",
                      contains=("'valid', 'same', or 'full'", "middle"))


# ---- np.bincount ---------------------------------------------------------------------------

def bincount(x, minlength):
    return np.bincount(x), np.bincount(x, minlength=minlength)


def bincount_weighted(x, w):
    return np.bincount(x, w), np.bincount(x, weights=w, minlength=9)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                   np.uint16, np.uint32], ids=lambda d: np.dtype(d).name)
def test_bincount_every_dtype(dtype):
    f = kiln.njit(bincount)
    for x in (sample(dtype, 12), sample(dtype, 12)[::3], np.zeros(0, dtype)):
        for minlength in (0, 3, 20):
            for g, w in zip(f(x, minlength), bincount(x, minlength)):
                same(g, w)


def test_bincount_weights():
    f = kiln.njit(bincount_weighted)
    x = sample(np.int64, 10)
    for w in (np.linspace(0, 1, 10), np.arange(10, dtype=np.int32), np.ones(20)[::2],
              np.ones(10, np.float32)):
        for g, want in zip(f(x, w), bincount_weighted(x, w)):
            same(g, want)


def test_bincount_bad_input():
    f = kiln.njit(bincount)
    for x, minlength in ((np.array([1, -2, 3]), 0), (np.array([1, 2]), -1)):
        with pytest.raises(ValueError) as want:
            bincount(x, minlength)
        with pytest.raises(ValueError) as got:
            f(x, minlength)
        assert got.value.args == want.value.args
    g = kiln.njit(bincount_weighted)
    with pytest.raises(ValueError) as want:
        bincount_weighted(np.arange(3), np.ones(2))
    with pytest.raises(ValueError) as got:
        g(np.arange(3), np.ones(2))
    assert got.value.args == want.value.args

    def floats(x):
        return np.bincount(x)

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(floats)(np.ones(3))
    assert_diagnostic(info.value, kiln.errors.TypingError, floats, "np.bincount(", contains=("cast",))


# ---- np.dot and @ --------------------------------------------------------------------------

def dot(a, b):
    return np.dot(a, b), a @ b


SHAPES = [((5,), (5,)), ((3, 4), (4,)), ((4,), (4, 3)), ((3, 4), (4, 2)), ((0,), (0,)),
          ((0, 3), (3, 2)), ((2, 0), (0, 3))]


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.float32,
                                   np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_dot_and_matmul(dtype):
    f = kiln.njit(dot)
    for sa, sb in SHAPES:
        a, b = sample(dtype, sa, 1) * 7, sample(dtype, sb, 2) * 5
        for g, w in zip(f(a, b), dot(a, b)):
            same(g, w)
    if dtype is not np.float64:
        return  # layouts: once (each layout pair is a signature to compile)
    for x in layouts(sample(dtype, (4, 6))):
        for y in layouts(sample(dtype, (6, 3))):
            for g, w in zip(f(x, y), dot(x, y)):
                same(g, w)
    for x in layouts(sample(dtype, 6)):
        for g, w in zip(f(x, sample(dtype, (6, 2))), dot(x, sample(dtype, (6, 2)))):
            same(g, w)


def test_dot_mixed_dtypes():
    f = kiln.njit(dot)
    a, b = np.arange(6, dtype=np.int16).reshape(2, 3), np.linspace(0, 1, 3).astype(np.float32)
    for g, w in zip(f(a, b), dot(a, b)):
        same(g, w)


def test_dot_matmul_shape_mismatch():
    def only_dot(a, b):
        return np.dot(a, b)

    def only_matmul(a, b):
        return a @ b

    for func in (only_dot, only_matmul):
        for sa, sb in (((3,), (4,)), ((2, 3), (2, 3)), ((2, 3), (2,)), ((3,), (2, 3))):
            a, b = np.ones(sa), np.ones(sb)
            with pytest.raises(ValueError) as want:
                func(a, b)
            with pytest.raises(ValueError) as got:
                kiln.njit(func)(a, b)
            # NumPy's wording, without the sizes (kiln's messages are constants)
            head = str(want.value).split(":")[0].split(" (")[0]
            assert str(got.value).startswith(head)
            notes = getattr(got.value, "__notes__", [])
            if notes:
                assert LIB in notes[0]
                assert notes[-1].startswith(f"called from {__file__}:")


def test_matmul_bad_operand_points_at_the_operator():
    def scalar_matmul(a, x):
        return a @ x

    with pytest.raises(kiln.errors.TypingError) as info:
        kiln.njit(scalar_matmul)(np.ones(3), 2.0)
    assert_diagnostic(info.value, kiln.errors.TypingError, scalar_matmul, "a @ x",
                      contains=("matmul",))


def test_library_calls_are_compiled_once_per_signature():
    from kiln.lib import statistics

    whole = statistics._var_impls(np.float64, False)[0]

    def dispatchers():
        return [d for t in kiln.extending._registry[np.var].templates
                for impl, d in t.compiled.items() if impl is whole]

    a = np.arange(5.0)
    kiln.njit(lambda a: np.var(a))(a)
    (disp,) = dispatchers()
    count = len(disp.signatures)
    # another caller, another call of the same signature: the implementation is not compiled again
    kiln.njit(lambda a: np.var(a) + 1.0)(a)
    kiln.njit(lambda a: np.var(a) * 2.0)(a + 1)
    assert dispatchers() == [disp] and len(disp.signatures) == count
