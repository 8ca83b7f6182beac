"""kiln.vectorize (issue 12): real NumPy ufuncs over compiled loops, DUFunc, calls from compiled
code, target='parallel'. The oracle is NumPy: the same kernel run by the interpreter element by
element with the same output dtype, and NumPy's own ufuncs (np.add.reduce, ...) for the
methods."""

import threading

import numpy as np
import pytest

import kiln
from kiln import DUFunc, njit, vectorize
from kiln.errors import TypingError, UnsupportedError


def oracle(pyfunc, otype, *args):
    """The kernel run by the interpreter on each element (NumPy scalars of the inputs' dtypes,
    so float32 arithmetic stays float32), stored into an array of the loop's output type."""
    arrs = np.broadcast_arrays(*[np.asarray(a) for a in args])
    out = np.empty(arrs[0].shape, otype)
    for idx in np.ndindex(out.shape):
        out[idx] = pyfunc(*[a[idx] for a in arrs])
    return out


def fma_py(x, y, z):
    return x * y + z


def add_py(x, y):
    return x + y


def mix_py(x, y):
    return x * 2 - y if x > y else y - x


fma = vectorize(["float32(float32, float32, float32)", "float64(float64, float64, float64)"])(
    fma_py)
add = vectorize(["int64(int64, int64)", "float64(float64, float64)"], identity=0)(add_py)
mix = vectorize(["int32(int32, int32)", "int64(int64, int64)", "float64(float64, float64)"])(
    mix_py)
pfma = vectorize(["float64(float64, float64, float64)"], target="parallel")(fma_py)


@vectorize(["float64(float64)"])
def documented(x):
    """Adds one."""
    return x + 1.0


RNG = np.random.default_rng(12)


def test_a_real_ufunc():
    assert isinstance(fma, np.ufunc)
    assert (fma.nin, fma.nout, fma.nargs) == (3, 1, 4)
    assert fma.types == ["fff->f", "ddd->d"]
    assert fma.__name__ == "fma_py"
    assert documented.__doc__.rstrip().endswith("Adds one.")
    assert add.identity == 0 and fma.identity is None


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_contiguous(dtype):
    a, b, c = (RNG.random(1000).astype(dtype) for _ in range(3))
    r = fma(a, b, c)
    assert r.dtype == dtype
    np.testing.assert_array_equal(r, oracle(fma_py, dtype, a, b, c))


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100003])
def test_lengths(n):
    a, b = RNG.integers(-50, 50, n), RNG.integers(-50, 50, n)
    np.testing.assert_array_equal(mix(a, b), oracle(mix_py, np.int64, a, b) if n else a[:0])


def test_strided_and_layouts():
    a = RNG.random((6, 8))
    b = np.asfortranarray(RNG.random((6, 8)))
    c = RNG.random((12, 16))[::2, ::2]
    np.testing.assert_array_equal(fma(a, b, c), oracle(fma_py, np.float64, a, b, c))
    np.testing.assert_array_equal(fma(a.T, b.T, c.T), oracle(fma_py, np.float64, a.T, b.T, c.T))
    rev = a[:, ::-1]
    np.testing.assert_array_equal(fma(rev, rev, rev), oracle(fma_py, np.float64, rev, rev, rev))


def test_broadcasting_and_scalars():
    a = RNG.random((4, 1, 3))
    b = RNG.random((5, 1))
    r = fma(a, b, 2.0)
    assert r.shape == (4, 5, 3)
    np.testing.assert_array_equal(r, oracle(fma_py, np.float64, a, b, 2.0))
    s = fma(1.5, 2.0, 3.0)
    assert isinstance(s, np.float64) and s == 6.0
    np.testing.assert_array_equal(fma([1.0, 2.0], 3.0, [[1.0], [2.0]]),
                                  oracle(fma_py, np.float64, [1.0, 2.0], 3.0, [[1.0], [2.0]]))


def test_loop_choice_follows_numpy():
    # NumPy picks the first loop the inputs cast to safely, in the order of the signatures
    i32 = np.arange(5, dtype=np.int32)
    assert mix(i32, i32).dtype == np.int32
    assert mix(i32, i32.astype(np.int64)).dtype == np.int64
    assert mix(i32, 1.5).dtype == np.float64
    assert add(np.arange(3), np.arange(3)).dtype == np.int64
    with pytest.raises(TypeError):
        fma(np.arange(3) + 1j, 1.0, 1.0)


def test_out_where_dtype_casting():
    a, b = RNG.random(10), RNG.random(10)
    out = np.zeros(10)
    r = add(a, b, out=out)
    assert r is out
    np.testing.assert_array_equal(out, a + b)
    out = np.full(10, -1.0)
    mask = a > 0.5
    add(a, b, out=out, where=mask)
    np.testing.assert_array_equal(out, np.where(mask, a + b, -1.0))
    r = add(np.arange(4), np.arange(4), dtype=np.float64)
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, np.arange(4) * 2.0)
    with pytest.raises(TypeError):  # float64 -> int64 output is not 'same_kind'
        add(a, b, out=np.zeros(10, dtype=np.int64))
    r = add(a, b, out=np.zeros(10, dtype=np.int64), casting="unsafe")
    np.testing.assert_array_equal(r, (a + b).astype(np.int64))
    a2 = a.copy()
    add(a2, b, out=a2)  # in place
    np.testing.assert_array_equal(a2, a + b)


def test_methods():
    x = RNG.integers(0, 100, (4, 6))
    np.testing.assert_array_equal(add.reduce(x), np.add.reduce(x))
    np.testing.assert_array_equal(add.reduce(x, axis=1), np.add.reduce(x, axis=1))
    np.testing.assert_array_equal(add.accumulate(x), np.add.accumulate(x))
    idx = [0, 2, 5]
    np.testing.assert_array_equal(add.reduceat(x[0], idx), np.add.reduceat(x[0], idx))
    np.testing.assert_array_equal(add.outer(x[0], x[1]), np.add.outer(x[0], x[1]))
    y, z = x[0].copy(), x[0].copy()
    add.at(y, [0, 0, 3], 5)
    np.add.at(z, [0, 0, 3], 5)
    np.testing.assert_array_equal(y, z)
    f = RNG.random(9)
    np.testing.assert_allclose(add.reduce(f), np.add.reduce(f))


def test_identity():
    e = np.zeros(0)
    assert add.reduce(e) == 0.0  # identity=0
    one = vectorize(["float64(float64, float64)"], identity=1)(lambda x, y: x * y)
    assert one.identity == 1 and one.reduce(e) == 1.0
    with pytest.raises(ValueError):  # identity=None: no empty reduction
        fma2 = vectorize(["float64(float64, float64)"])(add_py)
        fma2.reduce(e)
    reo = vectorize(["float64(float64, float64)"], identity="reorderable")(add_py)
    assert reo.identity is None
    x = RNG.random((3, 4))
    np.testing.assert_allclose(reo.reduce(x, axis=(0, 1)), x.sum())
    none = vectorize(["float64(float64, float64)"], identity=None)(add_py)
    with pytest.raises(ValueError):  # not reorderable: one axis at a time
        none.reduce(x, axis=(0, 1))
    for bad in (2, "zero", 0.5):
        with pytest.raises(ValueError, match="identity"):
            vectorize(["float64(float64, float64)"], identity=bad)


def test_integer_division_uses_numpy_error_model():
    @vectorize(["int64(int64, int64)", "float64(float64, float64)"])
    def div(x, y):
        return x // y

    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = np.array([7, -7, 5]), np.array([0, 2, 0])
        np.testing.assert_array_equal(div(a, b), np.floor_divide(a, b))
        fa, fb = a.astype(float), b.astype(float)
        np.testing.assert_array_equal(div(fa, fb), np.floor_divide(fa, fb))


@pytest.mark.parametrize("n", [10, 200000])
def test_kernel_exception_reaches_caller(n):
    @vectorize(["float64(float64)"])
    def checked(x):
        if x > 5:
            raise ValueError("too big")
        return x

    with pytest.raises(ValueError, match="too big"):
        checked(np.arange(float(n)))
    np.testing.assert_array_equal(checked(np.arange(3.0)), np.arange(3.0))


def test_compile_error_at_first_call():
    @vectorize(["float64(float64)"])
    def broken(x):
        return x.nosuchattr

    with pytest.raises(TypingError):
        broken(np.ones(3))
    with pytest.raises(TypingError):  # still an error, not a crash, the second time
        broken(np.ones(3))


def test_bad_decorations():
    with pytest.raises(TypeError, match="return type"):
        vectorize(["(float64, float64)"])
    with pytest.raises(TypeError):
        vectorize(["float64[:](float64)"])
    with pytest.raises(TypeError, match="arguments"):
        vectorize(["float64(float64)"])(add_py)
    with pytest.raises(KeyError):
        vectorize(["float64(float64)"], nosuchoption=1)
    with pytest.raises(UnsupportedError):
        vectorize(["float64(float64)"], target="cuda")


def test_signature_objects_and_single_string():
    f = vectorize(kiln.float64(kiln.float64, kiln.float64))(add_py)
    assert f.types == ["dd->d"]
    g = vectorize("int64(int64, int64)")(add_py)
    assert g.types == ["ll->l"]
    h = vectorize(["b1(b1, b1)", kiln.int32(kiln.int32, kiln.int32), "c16(c16, c16)"])(add_py)
    assert h.types == ["??->?", "ii->i", "DD->D"]
    z = np.array([1 + 2j, 3j])
    np.testing.assert_array_equal(h(z, z), z + z)
    t = np.array([True, False])
    np.testing.assert_array_equal(h(t, t), oracle(add_py, np.bool_, t, t))


def test_options_fastmath_and_nopython():
    f = vectorize(["float64(float64, float64)"], fastmath=True, nopython=True)(add_py)
    a = RNG.random(50)
    np.testing.assert_allclose(f(a, a), a + a)


def test_target_parallel():
    a, b, c = (RNG.random(100001) for _ in range(3))
    np.testing.assert_array_equal(pfma(a, b, c), oracle(fma_py, np.float64, a, b, c))
    s = RNG.random((301, 7))[:, ::2]
    np.testing.assert_array_equal(pfma(s, s, 1.0), oracle(fma_py, np.float64, s, s, 1.0))

    @vectorize(["float64(float64)"], target="parallel")
    def checked(x):
        if x == 77777.0:
            raise ValueError("parallel boom")
        return x

    with pytest.raises(ValueError, match="parallel boom"):
        checked(np.arange(100000.0))


def test_parallel_from_threads():
    a = RNG.random(50000)
    want = oracle(fma_py, np.float64, a, a, a)
    errors = []

    def work():
        try:
            for _ in range(5):
                np.testing.assert_array_equal(pfma(a, a, a), want)
                np.testing.assert_array_equal(fma(a, a, a), want)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_array_ufunc_of_subclasses():
    class Tagged(np.ndarray):
        def __array_ufunc__(self, ufunc, method, *inputs, **kws):
            ins = [np.asarray(i) for i in inputs]
            return ("tagged", ufunc.__name__, method, getattr(ufunc, method)(*ins, **kws))

    t = np.arange(3.0).view(Tagged)
    tag, name, method, r = add(t, 1.0)
    assert (tag, name, method) == ("tagged", "add_py", "__call__")
    np.testing.assert_array_equal(r, np.arange(3.0) + 1)
    assert add.reduce(t)[2] == "reduce"


# ---- DUFunc ----


def test_dufunc_compiles_per_input_types():
    @vectorize
    def sub(x, y):
        return x - y

    assert isinstance(sub, DUFunc) and isinstance(sub.ufunc, np.ufunc)
    uf = sub.ufunc
    assert sub.types == []
    np.testing.assert_array_equal(sub(np.arange(4), 1), np.arange(4) - 1)
    assert sub.types == ["ll->l"]
    np.testing.assert_array_equal(sub(np.arange(4.0), 1), np.arange(4.0) - 1)
    assert sub.types == ["ll->l", "dl->d"]
    assert sub(3, 5) == -2
    assert sub.ufunc is uf and sub.ntypes == 2
    f32 = np.arange(3, dtype=np.float32)
    r = sub(f32, f32)
    assert r.dtype == np.float32 and sub.types[-1] == "ff->f"
    assert (sub.nin, sub.nout, sub.__name__) == (2, 1, "sub")


def test_dufunc_methods_and_add():
    mul = vectorize(identity=1)(lambda x, y: x * y)
    x = np.arange(1, 6)
    assert mul.reduce(x) == 120
    np.testing.assert_array_equal(mul.accumulate(x), np.multiply.accumulate(x))
    np.testing.assert_array_equal(mul.outer(x, x), np.multiply.outer(x, x))
    np.testing.assert_array_equal(mul.reduceat(x, [0, 2]), np.multiply.reduceat(x, [0, 2]))
    y = x.copy()
    mul.at(y, [1, 1], 3)
    np.testing.assert_array_equal(y, [1, 18, 3, 4, 5])
    assert mul.identity == 1
    mul.add("float32(float32, float32)")
    assert "ff->f" in mul.types
    r = mul(np.ones(3, np.float32), np.ones(3, np.float32))
    assert r.dtype == np.float32


def test_dufunc_bad_kernel():
    @vectorize
    def to_str(x):
        return str(x)

    with pytest.raises(TypeError, match="number or bool"):
        to_str(np.arange(3))


def test_dufunc_target_parallel():
    @vectorize(target="parallel")
    def sq(x):
        return x * x

    a = RNG.random(70000)
    np.testing.assert_array_equal(sq(a), a * a)


# ---- calls from compiled code ----


def test_typed_ufunc_in_compiled_code_scalars():
    @njit
    def f(x, y, z):
        return fma(x, y, z) + add(x, 1.0)

    assert f(1.5, 2.0, 3.0) == fma_py(1.5, 2.0, 3.0) + 2.5

    @njit
    def g(i, j):
        return mix(i, j)

    assert g(7, 3) == mix_py(7, 3)


def test_typed_ufunc_in_compiled_code_arrays():
    @njit
    def f(a, b, c):
        return fma(a, b, c)

    a, b = RNG.random((3, 4)), RNG.random(4)
    np.testing.assert_array_equal(f(a, b, 2.0), oracle(fma_py, np.float64, a, b, 2.0))
    np.testing.assert_array_equal(f(a, b[None, :], a), oracle(fma_py, np.float64, a, b, a))

    @njit
    def g(a):
        return mix(a, 3)

    x = RNG.integers(-5, 5, 10)
    np.testing.assert_array_equal(g(x), oracle(mix_py, np.int64, x, 3))


def test_dufunc_in_compiled_code():
    @vectorize
    def hyp(x, y):
        return (x * x + y * y) ** 0.5

    @njit
    def f(a, b):
        return hyp(a, b)

    a = RNG.random((2, 3))
    np.testing.assert_allclose(f(a, a[0]), np.hypot(a, a[0]))
    assert f(3.0, 4.0) == 5.0
    assert "dd->d" in hyp.types


def test_compiled_code_no_loop():
    @njit
    def f(a):
        return fma(a, a, a)

    with pytest.raises(TypingError, match="no loop"):
        f(np.array([1j]))


def test_scalar_operand_variants():
    # a step-0 (broadcast scalar) input reads once; reductions (a step-0 output) do not
    a = RNG.random(1001)
    np.testing.assert_array_equal(fma(a, 2.0, a), oracle(fma_py, np.float64, a, 2.0, a))
    np.testing.assert_array_equal(fma(3.0, a, 0.5), oracle(fma_py, np.float64, 3.0, a, 0.5))
    np.testing.assert_array_equal(fma(3.0, 2.0, a), oracle(fma_py, np.float64, 3.0, 2.0, a))
    col = RNG.random((7, 1))
    np.testing.assert_array_equal(fma(col, a[:5], col), oracle(fma_py, np.float64, col, a[:5], col))
    x = RNG.integers(0, 9, 1000)
    assert add.reduce(x) == x.sum()
    np.testing.assert_array_equal(add.accumulate(x), np.cumsum(x))


def test_compiled_code_output_argument():
    @njit
    def f(a, b, out):
        return fma(a, b, 1.0, out)

    a, b = RNG.random((3, 4)), RNG.random(4)
    out = np.zeros((3, 4))
    r = f(a, b, out)
    np.testing.assert_array_equal(out, oracle(fma_py, np.float64, a, b, 1.0))
    assert r is not None

    @njit
    def g(a, out):
        hyp2(a, a, out)
        return out.sum()

    @vectorize
    def hyp2(x, y):
        return x * y

    o = np.zeros(5)
    assert g(np.arange(5.0), o) == (np.arange(5.0) ** 2).sum()

    @njit
    def bad(a):
        return fma(a, a, a, 1.0)

    with pytest.raises(TypingError, match="output argument"):
        bad(np.ones(2))


def test_cache_option_as_njit():
    try:
        njit(cache=True)(add_py)
        njit_error = None
    except Exception as e:
        njit_error = type(e)
    if njit_error is None:
        f = vectorize(["float64(float64, float64)"], cache=True)(add_py)
        np.testing.assert_array_equal(f(np.ones(2), 1.0), [2.0, 2.0])
    else:
        with pytest.raises(njit_error):
            vectorize(["float64(float64, float64)"], cache=True)(add_py)


def test_compiled_code_same_shapes_and_layouts():
    @njit
    def f(a, b, c):
        return fma(a, b, c)

    a = RNG.random((5, 6))
    np.testing.assert_array_equal(f(a, a, a), oracle(fma_py, np.float64, a, a, a))
    np.testing.assert_array_equal(f(a.T, a.T, 1.0), oracle(fma_py, np.float64, a.T, a.T, 1.0))
    i = RNG.integers(0, 9, (5, 6))  # int64 arrays cast to the float64 loop
    np.testing.assert_array_equal(f(i, i, i), oracle(fma_py, np.float64, i, i, i))
    e = np.zeros((0, 3))
    assert f(e, e, e).shape == (0, 3)


def test_vectorize_a_jitted_function():
    f = vectorize(["float64(float64, float64)"])(njit(add_py))
    assert isinstance(f, np.ufunc)
    np.testing.assert_array_equal(f(np.arange(3.0), 1.0), np.arange(3.0) + 1)
    g = vectorize(njit(add_py))
    assert isinstance(g, DUFunc) and g(2, 3) == 5
