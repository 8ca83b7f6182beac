"""@kiln.guvectorize: NumPy generalized ufuncs over compiled kernels (issue 12).

The oracle is the kernel itself run by Python over the broadcast loop dimensions (``reference``
below: NumPy's gufunc rules written out with np.broadcast_shapes and np.ndindex), and NumPy's
own expressions where one exists."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kiln
from kiln import guvectorize
from kiln.errors import TypingError


def _parse(layout):
    ins, outs = layout.replace(" ", "").split("->")

    def side(s):
        return [tuple(d for d in g.split(",") if d) for g in s[1:-1].split("),(")]

    return side(ins), side(outs)


def reference(py_func, layout, inputs, out_dtypes, scalar_inputs=()):
    """Run the kernel in Python over the broadcast loop dimensions, as NumPy's gufunc does.
    `scalar_inputs`: indices of `()` inputs the kernel takes as scalars (else a 1-element
    array); `()` outputs are 1-element arrays the kernel writes at [0]."""
    ins, outs = _parse(layout)
    inputs = [np.asarray(a) for a in inputs]
    sizes = {}
    for a, core in zip(inputs, ins):
        for d, n in zip(core, a.shape[a.ndim - len(core):]):
            assert sizes.setdefault(d, n) == n
    loop = np.broadcast_shapes(*[a.shape[:a.ndim - len(c)] for a, c in zip(inputs, ins)])
    views = [np.broadcast_to(a, loop + a.shape[a.ndim - len(c):]) for a, c in zip(inputs, ins)]
    results = [np.zeros(loop + tuple(sizes[d] for d in c) + (() if c else (1,)), dt)
               for c, dt in zip(outs, out_dtypes)]
    for idx in np.ndindex(*loop):
        args = []
        for k, v in enumerate(views):
            x = v[idx]
            if not ins[k] and k not in scalar_inputs:
                x = np.array([x])
            args.append(x)
        py_func(*args, *[r[idx] for r in results])
    results = [r if c else r[..., 0] for r, c in zip(results, outs)]
    return results[0] if len(results) == 1 else tuple(results)


def _dot(a, b, out):
    s = 0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    out[0] = s


def _matmul(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s


def _minmax(a, lo, hi):
    lo[0] = a[0]
    hi[0] = a[0]
    for i in range(1, a.shape[0]):
        lo[0] = min(lo[0], a[i])
        hi[0] = max(hi[0], a[i])


def _shift(a, c, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + c


def _shift_arr(a, c, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + c[0]


DOT_SIGS = ["void(float64[:], float64[:], float64[:])", "void(int64[:], int64[:], int64[:])",
            "void(complex128[:], complex128[:], complex128[:])"]


@pytest.fixture(params=["cpu", "parallel"])
def target(request):
    return request.param


def test_dot_broadcasting(target):
    dot = guvectorize(DOT_SIGS, "(n),(n)->()", target=target)(_dot)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 5))
    b = rng.standard_normal((4, 5))
    np.testing.assert_allclose(dot(a, b), reference(_dot, "(n),(n)->()", [a, b], [np.float64]))
    np.testing.assert_allclose(dot(a, b), (a * b).sum(-1))
    ia = np.arange(24).reshape(4, 6)
    r = dot(ia, ia[::-1])
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, reference(_dot, "(n),(n)->()", [ia, ia[::-1]], [np.int64]))
    c = a[0] + 1j * a[1]
    np.testing.assert_allclose(dot(c, c), (c * c).sum(-1))


def test_ufunc_object_and_attributes():
    dot = guvectorize(DOT_SIGS, "(n),(n)->()")(_dot)
    assert isinstance(dot.ufunc, np.ufunc)
    assert dot.ufunc.signature == "(n),(n)->()"
    assert (dot.nin, dot.nout, dot.nargs, dot.ntypes) == (2, 1, 3, 3)
    assert dot.types == ["dd->d", "ll->l", "DD->D"]
    assert dot.__name__ == "_dot" and dot.ufunc.__name__ == "_dot"
    assert dot.is_dynamic is False
    assert dot.identity is None
    assert "_dot" in repr(dot)
    assert dot.expected_ndims() == ((1, 1), (0,))


def test_axes_axis_out_keepdims(target):
    dot = guvectorize(DOT_SIGS, "(n),(n)->()", target=target)(_dot)
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(dot(a, a, axes=[(0,), (0,), ()]), (a * a).sum(0))
    np.testing.assert_allclose(dot(a, a, axis=0), (a * a).sum(0))
    np.testing.assert_allclose(dot(a, a, keepdims=True), (a * a).sum(-1, keepdims=True))
    out = np.zeros(3)
    r = dot(a, a, out=out)
    assert r is out
    np.testing.assert_allclose(out, (a * a).sum(1))
    # the old form: the output passed as the last argument
    out2 = np.zeros(3)
    dot(a, a, out2)
    np.testing.assert_allclose(out2, (a * a).sum(1))
    # NumPy's casting: int inputs run the float loop's kernel after a safe cast
    r = dot(np.arange(4, dtype=np.int32), np.ones(4))
    assert r == 6.0 and r.dtype == np.float64
    with pytest.raises(TypeError):
        dot(a, a, out=np.zeros(3, np.int64), casting="safe")


def test_strided_and_noncontiguous(target):
    mm = guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)",
                     target=target)(_matmul)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 3, 8))[:, :, ::2]
    b = rng.standard_normal((6, 8)).T[::2]
    np.testing.assert_allclose(mm(a, b), a @ b)
    np.testing.assert_allclose(mm(a, b), reference(_matmul, "(m,n),(n,p)->(m,p)", [a, b],
                                                   [np.float64]))
    with pytest.raises(ValueError):
        mm(a, a)  # core dimension mismatch, NumPy's error


def test_several_outputs(target):
    mm = guvectorize(["void(float64[:], float64[:], float64[:])",
                      "void(int32[:], int32[:], int32[:])"], "(n)->(),()", target=target)(_minmax)
    a = np.random.default_rng(2).standard_normal((6, 7))
    lo, hi = mm(a)
    np.testing.assert_array_equal(lo, a.min(1))
    np.testing.assert_array_equal(hi, a.max(1))
    i = np.arange(20, dtype=np.int32).reshape(4, 5) % 7
    lo, hi = mm(i)
    assert lo.dtype == np.int32
    ref = reference(_minmax, "(n)->(),()", [i], [np.int32, np.int32])
    np.testing.assert_array_equal(lo, ref[0])
    np.testing.assert_array_equal(hi, ref[1])


def test_scalar_inputs_as_scalar_and_as_array(target):
    s = guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)",
                    target=target)(_shift)
    t = guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),()->(n)",
                    target=target)(_shift_arr)
    a = np.arange(12.0).reshape(3, 4)
    c = np.array([1.0, 10.0, 100.0])[:, None]
    np.testing.assert_array_equal(s(a, c), a + c[..., None])
    np.testing.assert_array_equal(s(a, c), reference(_shift, "(n),()->(n)", [a, c], [np.float64],
                                                     scalar_inputs=(1,)))
    np.testing.assert_array_equal(t(a, c), s(a, c))
    np.testing.assert_array_equal(s(a, 2.5), a + 2.5)
    np.testing.assert_array_equal(t(a[0], 2.5), a[0] + 2.5)


def test_dynamic_gufunc():
    def twice(a, out):
        for i in range(a.shape[0]):
            out[i] = 2 * a[i]

    g = guvectorize("(n)->(n)")(twice)
    assert g.is_dynamic and g.ntypes == 0
    o = np.zeros(4, np.int32)
    g(np.arange(4, dtype=np.int32), o)
    np.testing.assert_array_equal(o, [0, 2, 4, 6])
    assert g.types == ["i->i"]
    of = np.zeros((2, 3))
    g(np.ones((2, 3)), out=of)
    np.testing.assert_array_equal(of, 2 * np.ones((2, 3)))
    assert g.types == ["i->i", "d->d"]
    g(np.ones(3), np.zeros(3))  # an existing loop: nothing added
    assert g.ntypes == 2
    with pytest.raises(TypeError, match="Too few arguments"):
        g(np.ones(3))


def test_dynamic_scalar_input():
    def scale(a, c, out):
        for i in range(a.shape[0]):
            out[i] = a[i] * c

    g = guvectorize("(n),()->(n)")(scale)
    o = np.zeros(3)
    g(np.arange(3.0), 3.0, o)
    np.testing.assert_array_equal(o, [0.0, 3.0, 6.0])


def test_writable_args():
    def bump(a, out):
        for i in range(a.shape[0]):
            a[i] += 1
        out[0] = a[0]

    g = guvectorize(["void(float64[:], float64[:])"], "(n)->()", writable_args=(0,))(bump)
    x = np.zeros((2, 3))
    np.testing.assert_array_equal(g(x), [1.0, 1.0])
    np.testing.assert_array_equal(x, np.ones((2, 3)))
    # by name, and written back through NumPy's copy when the input had to be cast
    g2 = guvectorize(["void(float64[:], float64[:])"], "(n)->()", writable_args=("a",))(bump)
    x32 = np.zeros(3, np.float32)
    g2(x32)
    np.testing.assert_array_equal(x32, np.ones(3, np.float32))
    with pytest.raises(ValueError):
        guvectorize(["void(float64[:], float64[:])"], "(n)->()", writable_args=(1,))(bump)


def test_identity():
    g = guvectorize(DOT_SIGS, "(n),(n)->()", identity=0)(_dot)
    assert g.identity == 0
    with pytest.raises(ValueError):
        guvectorize(DOT_SIGS, "(n),(n)->()", identity="bad")(_dot)


def test_kernel_exception(target):
    def check(a, out):
        if a[0] < 0:
            raise ValueError("negative first item")
        out[0] = a[0]

    g = guvectorize(["void(float64[:], float64[:])"], "(n)->()", target=target)(check)
    x = np.ones((64, 3))
    x[40, 0] = -1.0
    with pytest.raises(ValueError, match="negative first item"):
        g(x)
    np.testing.assert_array_equal(g(np.ones((3, 2))), np.ones(3))


def test_compile_error_at_first_call():
    def broken(a, out):
        out[0] = a.no_such_attribute

    g = guvectorize(["void(float64[:], float64[:])"], "(n)->()")(broken)
    with pytest.raises(TypingError, match="no_such_attribute"):
        g(np.ones(3))


def test_compile_now():
    g = guvectorize(DOT_SIGS, "(n),(n)->()")(_dot)
    g.compile()
    assert g(np.ones(3), np.ones(3)) == 3.0


def test_bad_decorations():
    with pytest.raises(ValueError, match="->"):
        guvectorize(DOT_SIGS, "(n),(n)")(_dot)
    with pytest.raises(ValueError, match="cannot read"):
        guvectorize(DOT_SIGS, "(n),(n->()")(_dot)
    with pytest.raises(TypeError, match="3 arguments"):
        guvectorize(DOT_SIGS, "(n)->()")(_dot)
    with pytest.raises(TypeError, match="must return void"):
        guvectorize(["float64(float64[:], float64[:], float64[:])"], "(n),(n)->()")(_dot)
    with pytest.raises(TypeError, match="output"):
        guvectorize(["void(float64[:], float64[:], float64)"], "(n),(n)->()")(_dot)
    with pytest.raises(TypeError, match="core dimension"):
        guvectorize(["void(float64[:,:], float64[:], float64[:])"], "(n),(n)->()")(_dot)
    with pytest.raises(ValueError, match="target"):
        guvectorize(DOT_SIGS, "(n),(n)->()", target="cuda")(_dot)
    with pytest.raises(TypeError, match="one or two"):
        guvectorize()
    with pytest.raises(KeyError):
        guvectorize(DOT_SIGS, "(n),(n)->()", no_such_option=1)(_dot)
    with pytest.raises(TypingError):
        guvectorize(DOT_SIGS, "(n),(n)->()", forceobj=True)(_dot)


def test_options_accepted():
    g = guvectorize(DOT_SIGS, "(n),(n)->()", nopython=True, fastmath=True)(_dot)
    a = np.arange(5.0)
    assert g(a, a) == (a * a).sum()


# --- called from compiled code ----------------------------------------------------------------

def test_call_from_compiled_code(target):
    dot = guvectorize(DOT_SIGS, "(n),(n)->()", target=target)(_dot)

    @kiln.njit
    def f(a, b):
        return dot(a, b)

    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4, 5))
    b = rng.standard_normal((4, 5))
    np.testing.assert_allclose(f(a, b), dot(a, b))
    np.testing.assert_allclose(f(b, a), dot(b, a))
    np.testing.assert_allclose(f(a[:, ::2], b[::2]), dot(a[:, ::2], b[::2]))
    assert f(a[0, 0], b[0]) == pytest.approx(dot(a[0, 0], b[0]))
    ia = np.arange(10).reshape(2, 5)
    r = f(ia, ia)
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, dot(ia, ia))
    with pytest.raises(ValueError, match="broadcast"):
        f(np.ones((3, 5)), np.ones((2, 5)))
    with pytest.raises(ValueError, match="core dimension"):
        f(np.ones((3, 5)), np.ones((3, 4)))


def test_call_from_compiled_code_forms(target):
    mm = guvectorize(["void(float64[:], float64[:], float64[:])"], "(n)->(),()",
                     target=target)(_minmax)
    s = guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)",
                    target=target)(_shift)
    t = guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),()->(n)",
                    target=target)(_shift_arr)
    mat = guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)",
                      target=target)(_matmul)

    @kiln.njit
    def f(a, c, o):
        lo, hi = mm(a)
        mm(a, lo, hi)  # outputs passed: written in place
        x = s(a, c)
        y = t(a, c)
        mat(a, a.T, o)
        return lo, hi, x, y, o

    a = np.random.default_rng(4).standard_normal((3, 4))
    lo, hi, x, y, o = f(a, 1.5, np.zeros((3, 3)))
    np.testing.assert_array_equal(lo, a.min(1))
    np.testing.assert_array_equal(hi, a.max(1))
    np.testing.assert_array_equal(x, a + 1.5)
    np.testing.assert_array_equal(y, a + 1.5)
    np.testing.assert_allclose(o, a @ a.T)


def test_call_from_compiled_code_dynamic():
    def twice(a, out):
        for i in range(a.shape[0]):
            out[i] = 2 * a[i]

    g = guvectorize("(n)->(n)")(twice)

    @kiln.njit
    def f(a, o):
        g(a, o)
        return o

    np.testing.assert_array_equal(f(np.arange(3.0), np.zeros(3)), [0.0, 2.0, 4.0])
    assert g.types == ["d->d"]

    @kiln.njit
    def h(a):
        return g(a)

    np.testing.assert_array_equal(h(np.arange(3.0)), [0.0, 2.0, 4.0])  # the loop exists now
    with pytest.raises(TypingError, match="pass the outputs"):
        h(np.arange(3, dtype=np.int32))  # a new dtype: the outputs' dtypes are unknown


def test_call_from_compiled_code_errors():
    dot = guvectorize(DOT_SIGS, "(n),(n)->()")(_dot)

    @kiln.njit
    def f(a):
        return dot(a, 1.0)

    with pytest.raises(TypingError, match="does not have enough dimensions"):
        f(np.ones(3))

    @kiln.njit
    def g(a):
        return dot(a)

    with pytest.raises(TypingError, match="takes 2 inputs"):
        g(np.ones(3))

    def check(a, out):
        if a[0] < 0:
            raise ValueError("negative first item")
        out[0] = a[0]

    c = guvectorize(["void(float64[:], float64[:])"], "(n)->()")(check)

    @kiln.njit
    def h(a):
        return c(a)

    with pytest.raises(ValueError, match="negative first item"):
        h(-np.ones((2, 2)))


def test_import_many_gufuncs_is_lazy(tmp_path):
    """36 typed gufuncs made at import, each compiled on its first call (a fresh process)."""
    src = textwrap.dedent("""
        import time
        import numpy as np
        t0 = time.perf_counter()
        from kiln import guvectorize
        gs = []
        for k in range(36):
            def f(a, b, out):
                for i in range(a.shape[0]):
                    out[i] = a[i] * b[i] + k
            gs.append(guvectorize(["void(float64[:], float64[:], float64[:])",
                                   "void(float32[:], float32[:], float32[:])"],
                                  "(n),(n)->(n)")(f))
        print(gs[5](np.ones(2), np.ones(2)).tolist())
    """)
    path = tmp_path / "many_gufuncs.py"
    path.write_text(src)
    r = subprocess.run([sys.executable, "-P", str(path)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[36.0, 36.0]"  # k is the closure's last value, as in Python


def test_call_from_compiled_code_casts_inputs():
    """An input without a loop of its dtype is cast safely to the first loop that takes it, as
    NumPy's call does (int32 -> the float64 loop; an int scalar -> float64)."""
    s = guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")(_shift)

    @kiln.njit
    def f(a, c):
        return s(a, c)

    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    r = f(a, 2)
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, s(a, 2))


def test_fixed_core_size():
    def norm3(v, out):
        out[0] = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) ** 0.5

    g = guvectorize(["void(float64[:], float64[:])"], "(3)->()")(norm3)
    v = np.random.default_rng(5).standard_normal((4, 3))
    np.testing.assert_allclose(g(v), np.linalg.norm(v, axis=1))
    with pytest.raises(ValueError):
        g(np.ones((4, 2)))

    @kiln.njit
    def f(v):
        return g(v)

    np.testing.assert_allclose(f(v), np.linalg.norm(v, axis=1))
    with pytest.raises(ValueError, match="core dimension"):
        f(np.ones((4, 2)))


def test_signature_forms():
    """Numba's forms: strings, tuples of types (quaternionic's style), typed signatures."""
    from kiln import float64, void

    a = np.arange(6.0).reshape(2, 3)
    for sigs in ([(float64[:], float64[:], float64[:])], [void(float64[:], float64[:], float64[:])],
                 "void(float64[:], float64[:], float64[:])", ["(float64[:], float64[:], float64[:])"]):
        g = guvectorize(sigs, "(n),(n)->()")(_dot)
        assert g.types == ["dd->d"]
        np.testing.assert_array_equal(g(a, a), (a * a).sum(1))


def test_called_from_threads(target):
    """NumPy runs the loops without the GIL: eight Python threads calling one gufunc at once
    (the first calls racing to compile the loop) all get NumPy's result."""
    import threading

    dot = guvectorize(DOT_SIGS, "(n),(n)->()", target=target)(_dot)
    rng = np.random.default_rng(6)
    data = [rng.standard_normal((2000, 16)) for _ in range(8)]
    results = [None] * 8
    errors = []

    def work(k):
        try:
            for _ in range(5):
                results[k] = dot(data[k], data[k])
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(8):
        np.testing.assert_allclose(results[k], (data[k] * data[k]).sum(1))


def test_empty_operands():
    dot = guvectorize(DOT_SIGS, "(n),(n)->()")(_dot)

    @kiln.njit
    def f(a, b):
        return dot(a, b)

    for a in (np.ones((3, 0)), np.ones((0, 4))):
        np.testing.assert_array_equal(dot(a, a), (a * a).sum(-1))
        np.testing.assert_array_equal(f(a, a), (a * a).sum(-1))


def test_bool_loop():
    def anyof(a, out):
        out[0] = False
        for i in range(a.shape[0]):
            if a[i]:
                out[0] = True

    g = guvectorize(["void(boolean[:], boolean[:])"], "(n)->()")(anyof)
    x = np.random.default_rng(7).random((5, 4)) > 0.8
    r = g(x)
    assert r.dtype == np.bool_ and g.types == ["?->?"]
    np.testing.assert_array_equal(r, x.any(1))


def test_call_from_compiled_code_keywords():
    dot = guvectorize(DOT_SIGS, "(n),(n)->()")(_dot)

    @kiln.njit
    def f(a, o):
        return dot(a, a, out=o)

    with pytest.raises(TypingError, match="keyword arguments"):
        f(np.ones(3), np.zeros(()))
