"""kiln.stencil: @stencil kernels called from Python and from compiled code.

Oracles: a reference in plain Python (below: the kernel itself, run by CPython on an object
whose indexing adds the point's indices and applies the mode's index rule), scipy.ndimage
(correlate / generic_filter) for the modes nearest/reflect/mirror/wrap, and Numba's stencil
for the constant mode when Numba is installed. Bad input raises ValueError (Numba's messages)
or a TypingError at the call in compiled code.
"""

import itertools

import numpy as np
import pytest

import kiln
from kiln import stencil

MODES = ["nearest", "reflect", "mirror", "wrap"]


# ---- the reference ----

def _pymap(i, n, mode):
    if 0 <= i < n:
        return i
    if mode == "nearest":
        return min(max(i, 0), n - 1)
    if mode == "wrap":
        return i % n
    if mode == "reflect":
        k = i % (2 * n)
        return k if k < n else 2 * n - 1 - k
    if mode == "mirror":
        if n == 1:
            return 0
        k = i % (2 * n - 2)
        return k if k < n else 2 * n - 2 - k
    raise IndexError(i)


class _Rel:
    """An array seen from one point: r[dy, dx] is a[y + dy, x + dx] (index rule of `mode`)."""

    def __init__(self, a, point, mode):
        self.a, self.point, self.mode = a, point, mode

    def __getitem__(self, off):
        off = off if isinstance(off, tuple) else (off,)
        idx = []
        for d, o in enumerate(off):
            p, n = self.point[d], self.a.shape[d]
            if isinstance(o, slice):
                idx.append(slice(o.start + p, o.stop + p))
            elif self.mode == "constant":
                idx.append(p + o)
            else:
                idx.append(_pymap(p + o, n, self.mode))
        return self.a[tuple(idx)]


def reference(kernel, args, nb, mode="constant", cval=0, relative=None, out=None, dtype=None):
    """What the stencil must compute, by CPython: `nb` the expected neighbourhood, `relative`
    the indices of the relatively indexed arguments (default: every array)."""
    a = args[0]
    relative = [i for i, x in enumerate(args) if isinstance(x, np.ndarray)] \
        if relative is None else relative
    if out is None:
        out = np.full(a.shape, cval, dtype=dtype or np.float64)
    elif mode == "constant" and cval is not None:
        out[...] = cval
    ranges = []
    for d, n in enumerate(a.shape):
        if mode == "constant":
            ranges.append(range(max(0, -nb[d][0]), n - max(0, nb[d][1])))
        else:
            ranges.append(range(n))
    for point in itertools.product(*ranges):
        call = [_Rel(x, point, mode) if i in relative else x for i, x in enumerate(args)]
        out[point] = kernel(*call)
    return out


def numba_stencil(*args, **kwargs):
    numba = pytest.importorskip("numba")
    return numba.stencil(*args, **kwargs)


# ---- kernels ----

def five_point(a):
    return 0.25 * (a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1])


def lopsided(a):
    return a[-2, 1] - 3.0 * a[0, 0] + 2.0 * a[1, -1]


def backward1(a):
    return a[0] - a[-1]


def wide1(a):
    return a[-5] + 2 * a[4]


def kernel3(a):
    return a[-1, 0, 1] - 2 * a[0, 2, -1] + a[1, -1, 0]


def rng_array(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).random(shape).astype(dtype)


# ---- forms ----

def test_decorator_forms():
    x = rng_array(9)
    want = reference(backward1, (x,), ((-1, 0),))
    forms = [stencil(backward1), stencil()(backward1), stencil("constant")(backward1),
             stencil(backward1, mode="constant"), stencil(mode="constant")(backward1)]

    @stencil
    def deco(a):
        return a[0] - a[-1]

    @stencil()
    def deco_call(a):
        return a[0] - a[-1]

    for s in forms + [deco, deco_call]:
        assert isinstance(s, kiln.StencilFunc)
        np.testing.assert_array_equal(s(x), want)
    assert deco.__name__ == "deco"
    w = stencil("wrap")(backward1)
    np.testing.assert_array_equal(w(x), reference(backward1, (x,), None, "wrap"))


# ---- the constant mode (Numba's) ----

@pytest.mark.parametrize("kernel,shape,nb", [
    (five_point, (7, 9), ((-1, 1), (-1, 1))),
    (lopsided, (6, 5), ((-2, 1), (-1, 1))),
    (backward1, (10,), ((-1, 0),)),
    (wide1, (12,), ((-5, 4),)),
    (kernel3, (4, 6, 5), ((-1, 1), (-1, 2), (-1, 1))),
])
def test_constant_mode(kernel, shape, nb):
    x = rng_array(shape)
    got = stencil(kernel)(x)
    assert got.dtype == np.float64 and got.shape == x.shape
    np.testing.assert_allclose(got, reference(kernel, (x,), nb), rtol=1e-13, atol=0)


def test_constant_mode_numba():
    x = rng_array((8, 11))
    for kernel in (five_point, lopsided):
        np.testing.assert_array_equal(stencil(kernel)(x), numba_stencil(kernel)(x))
        np.testing.assert_array_equal(stencil(kernel, cval=-2.5)(x),
                                      numba_stencil(kernel, cval=-2.5)(x))


def test_cval():
    x = rng_array(8)
    for cval in (1.5, -3, np.nan, np.inf, True):
        got = stencil(backward1, cval=cval)(x)
        np.testing.assert_array_equal(got, reference(backward1, (x,), ((-1, 0),), cval=cval))
    xi = np.arange(8)
    got = stencil(backward1, cval=7)(xi)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, reference(backward1, (xi,), ((-1, 0),), cval=7,
                                                 dtype=np.int64))


def test_out():
    x = rng_array(10)
    # without cval the border of out is left as it was; with cval it is set
    for opts, cval in (({}, None), ({"cval": -1.0}, -1.0)):
        out = np.full(10, 9.0)
        r = stencil(backward1, **opts)(x, out=out)
        assert r is out or np.shares_memory(r, out)
        want = reference(backward1, (x,), ((-1, 0),), cval=cval, out=np.full(10, 9.0))
        np.testing.assert_array_equal(out, want)
    # out of another dtype: the kernel's values are cast as an assignment casts them
    xi = np.arange(10.0) * 1.5
    out = np.zeros(10, dtype=np.int64)
    stencil(backward1)(xi, out=out)
    np.testing.assert_array_equal(out, reference(backward1, (xi,), ((-1, 0),), out=np.zeros(
        10, dtype=np.int64)))
    # every mode writes every point
    for mode in MODES:
        out = np.full(10, 9.0)
        stencil(backward1, mode=mode)(x, out=out)
        np.testing.assert_array_equal(out, reference(backward1, (x,), None, mode))


# ---- the other modes (scipy.ndimage's meanings) ----

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kernel,shape", [(five_point, (7, 9)), (lopsided, (6, 5)),
                                          (backward1, (10,)), (kernel3, (4, 6, 5))])
def test_modes_reference(mode, kernel, shape):
    x = rng_array(shape)
    np.testing.assert_allclose(stencil(kernel, mode=mode)(x),
                               reference(kernel, (x,), None, mode), rtol=1e-13, atol=0)


def _weights(offsets, ndim):
    """correlate() weights for {offset tuple: weight}, centred on the origin."""
    r = [max(abs(o[d]) for o in offsets) for d in range(ndim)]
    w = np.zeros(tuple(2 * k + 1 for k in r))
    for off, v in offsets.items():
        w[tuple(o + k for o, k in zip(off, r))] += v
    return w


@pytest.mark.parametrize("mode", MODES)
def test_modes_scipy_correlate(mode):
    ndi = pytest.importorskip("scipy.ndimage")
    x2, x3 = rng_array((7, 9)), rng_array((4, 6, 5))
    w = _weights({(-1, 0): .25, (1, 0): .25, (0, -1): .25, (0, 1): .25}, 2)
    np.testing.assert_allclose(stencil(five_point, mode=mode)(x2), ndi.correlate(x2, w, mode=mode),
                               rtol=1e-12)
    w = _weights({(-2, 1): 1.0, (0, 0): -3.0, (1, -1): 2.0}, 2)
    np.testing.assert_allclose(stencil(lopsided, mode=mode)(x2), ndi.correlate(x2, w, mode=mode),
                               rtol=1e-12)
    w = _weights({(-1, 0, 1): 1.0, (0, 2, -1): -2.0, (1, -1, 0): 1.0}, 3)
    np.testing.assert_allclose(stencil(kernel3, mode=mode)(x3), ndi.correlate(x3, w, mode=mode),
                               rtol=1e-12)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_modes_offsets_past_the_array(mode, n):
    """Offsets larger than the array: the index rule repeats (scipy.ndimage's extension)."""
    ndi = pytest.importorskip("scipy.ndimage")
    x = np.arange(float(n)) ** 2 + 1
    want = ndi.generic_filter(x, lambda s: s[0] + 2 * s[9], size=10, mode=mode)
    np.testing.assert_allclose(stencil(wide1, mode=mode)(x), want)
    np.testing.assert_allclose(stencil(wide1, mode=mode)(x), reference(wide1, (x,), None, mode))


# ---- options ----

def moving_average(a):
    c = 0.0
    for i in range(-3, 1):
        c += a[i]
    return c / 4


def test_neighborhood_option():
    x = rng_array(20)
    s = stencil(moving_average, neighborhood=((-3, 0),))
    np.testing.assert_allclose(s(x), reference(moving_average, (x,), ((-3, 0),)), rtol=1e-13)
    for mode in MODES:
        s = stencil(moving_average, neighborhood=((-3, 0),), mode=mode)
        np.testing.assert_allclose(s(x), reference(moving_average, (x,), None, mode), rtol=1e-13)
    # a neighbourhood wider than the kernel's indices: the border grows
    s = stencil(backward1, neighborhood=((-2, 2),))
    np.testing.assert_array_equal(s(x), reference(backward1, (x,), ((-2, 2),)))
    # neighborhood= at the call
    s = stencil(moving_average, neighborhood=((-1, 0),))
    np.testing.assert_allclose(s(x, neighborhood=((-3, 0),)),
                               reference(moving_average, (x,), ((-3, 0),)), rtol=1e-13)


def with_tables(a, w, scale):
    return scale * (w[0] * a[-1] + w[1] * a[0] + w[2] * a[1])


def test_standard_indexing_and_scalars():
    x, w = rng_array(12), np.array([1.0, -2.0, 1.0])
    s = stencil(with_tables, standard_indexing=("w",))
    want = reference(with_tables, (x, w, 0.5), ((-1, 1),), relative=[0])
    np.testing.assert_allclose(s(x, w, 0.5), want, rtol=1e-13)
    s = stencil(with_tables, standard_indexing="w", mode="reflect")
    want = reference(with_tables, (x, w, 0.5), None, "reflect", relative=[0])
    np.testing.assert_allclose(s(x, w, 0.5), want, rtol=1e-13)


def two_inputs(a, b):
    return a[0, 1] * b[0, -1] + b[1, 0]


def test_multiple_inputs():
    a, b = rng_array((6, 7)), rng_array((6, 7), seed=1)
    np.testing.assert_allclose(stencil(two_inputs)(a, b),
                               reference(two_inputs, (a, b), ((0, 1), (-1, 1))), rtol=1e-13)
    np.testing.assert_array_equal(stencil(two_inputs)(a, b), numba_stencil(two_inputs)(a, b))
    for mode in MODES:
        np.testing.assert_allclose(stencil(two_inputs, mode=mode)(a, b),
                                   reference(two_inputs, (a, b), None, mode), rtol=1e-13)
    with pytest.raises(ValueError, match="smaller"):
        stencil(two_inputs)(a, b[:3])
    with pytest.raises(ValueError, match="same number"):
        stencil(two_inputs)(a, b[0])


def index_tuple(a):
    t = (1, 0)
    return a[t] + a[-1, 0]


def window_sum(a):
    return np.sum(a[-1:2])


def test_index_forms():
    x = rng_array((5, 6))
    np.testing.assert_array_equal(stencil(index_tuple)(x),
                                  reference(index_tuple, (x,), ((-1, 1), (0, 0))))
    np.testing.assert_allclose(stencil(index_tuple, mode="wrap")(x),
                               reference(index_tuple, (x,), None, "wrap"), rtol=1e-13)
    v = rng_array(9)
    np.testing.assert_allclose(stencil(window_sum)(v), reference(window_sum, (v,), ((-1, 1),)),
                               rtol=1e-13)


# ---- dtypes, layouts, sizes ----

@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float32, np.float64,
                                   np.complex128, np.bool_])
def test_dtypes(dtype):
    def diff(a):
        return a[1] - a[-1]

    def less(a):
        return a[-1] < a[1]

    x = (np.arange(11) * 7 % 5).astype(dtype)
    if dtype not in (np.bool_, np.uint8):  # (NumPy's uint8 scalars wrap, compiled code's not)
        got = stencil(diff)(x)
        np.testing.assert_array_equal(got, reference(diff, (x,), ((-1, 1),), dtype=got.dtype))
    if dtype is np.complex128:
        return
    got = stencil(less, mode="nearest")(x)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, reference(less, (x,), None, "nearest", dtype=np.bool_))


def test_dtypes_numba():
    numba_stencil(backward1)  # skip without numba
    for dtype in (np.int32, np.int64, np.float32, np.float64, np.complex128):
        x = (np.arange(9) * 3 % 4).astype(dtype)
        got, want = stencil(backward1)(x), numba_stencil(backward1)(x)
        assert got.dtype == want.dtype, dtype
        np.testing.assert_array_equal(got, want)


def test_layouts():
    x = rng_array((8, 10))
    want = reference(five_point, (x,), ((-1, 1), (-1, 1)))
    ro = x.copy()
    ro.flags.writeable = False
    for view in (np.asfortranarray(x), ro):
        np.testing.assert_array_equal(stencil(five_point)(view), want)
    big = rng_array((16, 20))
    view = big[::2, ::2]
    np.testing.assert_array_equal(stencil(five_point)(view),
                                  reference(five_point, (view.copy(),), ((-1, 1), (-1, 1))))
    for mode in MODES:
        np.testing.assert_array_equal(stencil(five_point, mode=mode)(view),
                                      stencil(five_point, mode=mode)(view.copy()))


@pytest.mark.parametrize("mode", ["constant"] + MODES)
@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (0, 4), (1, 1), (2, 1), (3, 0)])
def test_small_and_empty(mode, shape):
    x = rng_array(shape)
    kernel = backward1 if len(shape) == 1 else five_point
    nb = ((-1, 0),) if len(shape) == 1 else ((-1, 1), (-1, 1))
    got = stencil(kernel, mode=mode)(x)
    assert got.shape == shape
    np.testing.assert_array_equal(got, reference(kernel, (x,), nb, mode))


# ---- from compiled code ----

s5 = stencil(five_point)
s5_wrap = stencil(five_point, mode="wrap")
s_tables = stencil(with_tables, standard_indexing=("w",))
s_avg = stencil(moving_average, neighborhood=((-3, 0),))


def test_from_compiled_code():
    @kiln.njit
    def smooth_twice(a):
        return s5(s5(a)) + 1.0

    @kiln.njit
    def into(a, out):
        s5_wrap(a, out=out)
        return out

    @kiln.njit
    def tables(a, w):
        return s_tables(a, w, 2.0)

    x = rng_array((9, 8))
    np.testing.assert_array_equal(smooth_twice(x), s5(s5(x)) + 1.0)
    out = np.zeros_like(x)
    into(x, out)
    np.testing.assert_array_equal(out, s5_wrap(x))
    v, w = rng_array(10), np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tables(v, w), s_tables(v, w, 2.0))


def test_from_compiled_code_keywords():
    @kiln.njit
    def nb_then_out(a, out, nb):
        return s_avg(a, neighborhood=nb, out=out)

    @kiln.njit
    def out_then_nb(a, out, nb):
        return s_avg(a, out=out, neighborhood=nb)

    x = rng_array(16)
    for f in (nb_then_out, out_then_nb):
        for nb in (((-3, 0),), ((-5, 2),)):
            out = np.full(16, 5.0)
            f(x, out, nb)
            want = reference(moving_average, (x,), nb, cval=None, out=np.full(16, 5.0))
            np.testing.assert_allclose(out, want, rtol=1e-13)


def test_parallel_caller():
    """A parallel=True caller runs the stencil's loop nest as a prange: same values."""
    @kiln.njit(parallel=True)
    def par(a, out):
        s5(a, out=out)
        return s5_wrap(a) + out

    @kiln.njit
    def ser(a, out):
        s5(a, out=out)
        return s5_wrap(a) + out

    x = rng_array((33, 17))
    o1, o2 = np.zeros_like(x), np.zeros_like(x)
    np.testing.assert_array_equal(par(x, o1), ser(x, o2))
    np.testing.assert_array_equal(o1, o2)


def raises_big(a):
    if a[0] > 0.5:
        raise ValueError("too big")
    return a[-1]


def test_exception_in_kernel():
    s = stencil(raises_big)
    x = np.array([0.1, 0.2, 0.9, 0.3])

    @kiln.njit
    def f(a):
        return s(a)

    @kiln.njit(parallel=True)
    def g(a):
        return s(a)

    for call in (s, f, g):
        with pytest.raises(ValueError, match="too big"):
            call(x)
    np.testing.assert_array_equal(s(x[:2]), reference(raises_big, (x[:2],), ((-1, 0),)))


# ---- errors ----

def test_option_errors():
    with pytest.raises(ValueError, match="Unsupported mode style"):
        stencil(backward1, mode="grid-wrap")
    with pytest.raises(ValueError, match="Unknown stencil option"):
        stencil(backward1, border=1)
    with pytest.raises(ValueError, match="neighborhood"):
        stencil(backward1, neighborhood=(-1, 0))
    with pytest.raises(ValueError, match="cval"):
        stencil(backward1, cval="x")
    with pytest.raises(ValueError, match="not present"):
        stencil(with_tables, standard_indexing=("q",))
    with pytest.raises(ValueError, match="first argument"):
        stencil(with_tables, standard_indexing=("a",))


def assigns(a):
    a[0] = 1.0
    return a[1]


def not_constant(a):
    k = 1
    k += 1
    return a[k]


def wrong_rank(a):
    return a[0] + a[1, 1]


def no_access(a):
    return 1.0


def adds_str(a):
    return a[0] + "x"


def test_kernel_errors():
    with pytest.raises(ValueError, match="Assignments to arrays"):
        stencil(assigns)
    x, m = rng_array(6), rng_array((4, 4))
    with pytest.raises(ValueError, match="not constant, 'neighborhood' option required"):
        stencil(not_constant)(x)
    with pytest.raises(ValueError, match="dimensionality"):
        stencil(wrong_rank)(m)
    with pytest.raises(ValueError, match="no accesses"):
        stencil(no_access)(x)
    with pytest.raises(ValueError, match="primary input array"):
        stencil(backward1)(2.0)
    with pytest.raises(ValueError, match="2 dimensional neighborhood specified for 1"):
        stencil(backward1, neighborhood=((-1, 0), (0, 0)))(x)
    with pytest.raises(ValueError, match="2 dimensional neighborhood specified for 1"):
        stencil(backward1)(x, neighborhood=((-1, 0), (0, 0)))
    with pytest.raises(ValueError, match="cval type"):
        stencil(backward1, cval=1j)(x)
    with pytest.raises(ValueError, match="cval type"):
        stencil(backward1, cval=np.nan)(np.arange(4))
    with pytest.raises(ValueError, match="shape"):
        stencil(backward1)(x, out=np.zeros(5))
    with pytest.raises(ValueError, match="slices"):
        stencil(window_sum, mode="wrap")(x)
    with pytest.raises(TypeError):
        stencil(backward1)(x, x)
    with pytest.raises(TypeError, match="keyword"):
        stencil(backward1)(x, cval=1.0)


def test_kernel_type_error_points_at_the_kernel():
    import inspect

    with pytest.raises(kiln.errors.TypingError, match="cannot add") as info:
        stencil(adds_str)(rng_array(4))
    lines, first = inspect.getsourcelines(adds_str)
    assert info.value.line == first + 1
    assert "adds_str" in str(info.value)


def test_compiled_call_errors():
    x = rng_array(8)

    @kiln.njit
    def bad_keyword(a):
        return s_avg(a, cval=1.0)

    @kiln.njit
    def too_few(a):
        return s_tables(a)

    @kiln.njit
    def bad_out(a, o):
        return s_avg(a, out=o)

    @kiln.njit
    def bad_nb(a, nb):
        return s_avg(a, neighborhood=nb)

    with pytest.raises(kiln.errors.TypingError, match="unexpected keyword argument 'cval'"):
        bad_keyword(x)
    with pytest.raises(kiln.errors.TypingError, match="takes 3 arguments"):
        too_few(x)
    with pytest.raises(kiln.errors.TypingError, match="out= must be an array of 1"):
        bad_out(x, np.zeros((8, 1)))
    with pytest.raises(ValueError, match="shape"):
        bad_out(x, np.zeros(3))
    with pytest.raises(kiln.errors.TypingError, match="2 dimensional neighborhood"):
        bad_nb(x, ((-1, 0), (0, 0)))
    with pytest.raises(kiln.errors.TypingError, match="integer pairs"):
        bad_nb(x, ((-1.0, 0.0),))


def shadowing(np, range, out):
    return np[-1] * range + out


def test_parameter_names_of_the_runner():
    """Kernel parameters named like what the generated loop nest uses (np, range, out)."""
    x = rng_array(7)
    got = stencil(shadowing)(x, 2.0, 0.5)
    np.testing.assert_array_equal(got, reference(shadowing, (x, 2.0, 0.5), ((-1, 0),)))


def test_module_and_function():
    import importlib

    mod = importlib.import_module("kiln.stencil")
    assert isinstance(mod.stencil(backward1), kiln.StencilFunc)
    assert isinstance(kiln.stencil(backward1), kiln.StencilFunc)
    assert isinstance(mod(backward1), kiln.StencilFunc)


@pytest.mark.parametrize("mode", ["constant", "wrap", "mirror"])
@pytest.mark.parametrize("kernel,shape", [(wide1, (10001,)), (wide1, (3,)), (lopsided, (19, 7)),
                                          (kernel3, (5, 4, 6))])
def test_parallel_caller_shapes(mode, kernel, shape):
    """The parallel runner splits rows (n-d) or blocks of points (1-d): the same values as the
    Python call, for sizes across and below a block."""
    s = stencil(kernel, mode=mode)

    @kiln.njit(parallel=True)
    def par(a):
        return s(a)

    x = rng_array(shape)
    np.testing.assert_array_equal(par(x), s(x))


def rebound_in_loop(a):
    k = 1
    c = 0.0
    for k in range(-1, 2):
        c += a[k]
    return c


def test_loop_variable_is_not_a_constant():
    """A name bound once by `=` and again by a for loop is not a constant index."""
    x = rng_array(9)
    with pytest.raises(ValueError, match="not constant"):
        stencil(rebound_in_loop)(x)
    got = stencil(rebound_in_loop, neighborhood=((-1, 1),))(x)
    np.testing.assert_allclose(got, reference(rebound_in_loop, (x,), ((-1, 1),)), rtol=1e-13)
