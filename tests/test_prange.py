"""prange loops of parallel=True functions (issue 12): outlining, reductions, private and
captured variables, steps, nesting, exceptions, races and the parallel_diagnostics notes.

The oracle is the same function compiled without parallel=True and the plain Python function
(prange is range there): ints exact, floats with assert_allclose (partials are combined in
thread order, so a float sum may round differently from the serial loop). The tests hold with
the serial placeholder pool and with a real pool of any size."""

import threading

import numpy as np
import pytest
from numpy.testing import assert_allclose

import kiln
from kiln import njit, prange


def compiled(f, **kw):
    """(parallel, serial, python) versions of f."""
    return njit(parallel=True, **kw)(f), njit(**kw)(f), f


def check(f, *args, exact=True, **kw):
    par, ser, py = compiled(f, **kw)
    got, want, ref = par(*args), ser(*args), py(*args)
    for w in (want, ref):
        if exact:
            if isinstance(got, np.ndarray):
                np.testing.assert_array_equal(got, w)
            else:
                assert got == w, (got, w)
                assert w is ref or type(got) is type(w), (got, w)
        else:
            assert_allclose(got, w, rtol=1e-12)
    return par


def notes(disp):
    """[(what, parallel, why)] of the first compiled signature."""
    entries = disp._parallel_notes()
    return [(w, p, y) for (_l, _c, w, p, y) in entries[0][1]]


# ---- reductions ----


def sum_float(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


def sum_int(a):
    s = 0
    for i in prange(len(a)):
        s += a[i] * 3
    return s


def sub_int(n):
    s = 100
    for i in prange(n):
        s -= i
    return s


def prod_float(a):
    p = 1.0
    for i in prange(a.shape[0]):
        p *= a[i]
    return p


def div_float(a):
    p = 1e6
    for i in prange(a.shape[0]):
        p /= a[i]
    return p


def min_max(a):
    lo = a[0]
    hi = a[0]
    for i in prange(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
    return lo, hi


def bits(a):
    o = 0
    x = 0
    m = -1
    for i in prange(a.shape[0]):
        o |= a[i]
        x ^= a[i]
        m &= a[i] | 1024
    return o, x, m


def any_bool(a):
    found = False
    for i in prange(a.shape[0]):
        found |= a[i] > 7
    return found


def several(a):
    s = 0.0
    c = 0
    for i in prange(a.shape[0]):
        v = a[i] * a[i]
        s = s + v
        c += 1
    return s, c


def augmented_form(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s = a[i] + s
    return s


def complex_sum(a):
    z = 0j
    for i in prange(a.shape[0]):
        z += a[i] * 1j + 1
    return z


def int_then_float(a):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


def test_sum_float():
    par = check(sum_float, np.linspace(0, 1, 1001), exact=False)
    assert notes(par) == [("prange loop", True, None)]


def test_sum_int_exact():
    check(sum_int, np.arange(1001, dtype=np.int64))
    check(sub_int, 777)


def test_product_and_division():
    check(prod_float, np.linspace(0.5, 1.5, 301), exact=False)
    check(div_float, np.linspace(0.5, 1.5, 301), exact=False)


def test_min_max():
    a = np.random.default_rng(3).normal(size=1003)
    check(min_max, a)
    check(min_max, np.arange(17, dtype=np.int64))


def test_bitwise_reductions():
    check(bits, np.random.default_rng(1).integers(0, 1 << 20, 999))


def test_bool_or():
    check(any_bool, np.arange(5))
    check(any_bool, np.arange(9))


def test_several_reductions_and_private():
    check(several, np.linspace(-1, 1, 513), exact=False)
    check(augmented_form, np.linspace(-1, 1, 513), exact=False)


def test_complex_and_promotion():
    check(complex_sum, np.linspace(0, 1, 100), exact=False)
    check(int_then_float, np.linspace(0, 1, 100), exact=False)


def test_empty_loop_keeps_initial_values():
    check(sum_int, np.zeros(0, dtype=np.int64))
    check(min_max, np.ones(1))


# ---- writes, privates, steps ----


def rows(a, out):
    for i in prange(a.shape[0]):
        t = a[i, :] * 2.0
        out[i, :] = t + 1.0
    return out


def test_disjoint_slices_and_array_privates():
    a = np.arange(12.0).reshape(4, 3)
    par, ser, _ = compiled(rows)
    np.testing.assert_array_equal(par(a, np.zeros_like(a)), ser(a, np.zeros_like(a)))


def stepped(n, out):
    for i in prange(3, n, 4):
        out[i] = i * 10
    s = 0
    for j in prange(n - 1, -1, -3):
        s += j
    return s


def test_steps():
    for n in (0, 1, 3, 4, 10, 101):
        par, ser, py = compiled(stepped)
        o1, o2 = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
        assert par(n, o1) == ser(n, o2) == py(n, np.zeros(n + 1, np.int64))
        np.testing.assert_array_equal(o1, o2)


def last_values(n):
    t = -1
    for i in prange(n):
        t = i * 2
    return i + t


def test_last_iteration_values():
    check(last_values, 10)
    check(last_values, 1)


def captured(a, k, pair):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * k + pair[1]
    return s


def test_captured_scalars_and_tuples():
    check(captured, np.arange(50.0), 3, (1, 2.5), exact=False)


def bounds(lo, hi):
    s = 0
    for i in prange(lo, hi):
        s += i
    return s


def test_start_stop():
    for lo, hi in ((0, 0), (5, 3), (-7, 8), (10, 1000)):
        check(bounds, lo, hi)


# ---- nesting ----


def nested(a):
    s = 0.0
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):
            s += a[i, j]
    return s


@njit(parallel=True)
def inner_par(a, i):
    t = 0.0
    for j in prange(a.shape[1]):
        t += a[i, j]
    return t


def calls_parallel(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += inner_par(a, i)
    return s


def test_nested_prange():
    a = np.arange(60.0).reshape(6, 10)
    par = check(nested, a, exact=False)
    ns = notes(par)
    assert ns[0][1] and not ns[1][1] and "nested" in ns[1][2]
    check(calls_parallel, a, exact=False)


# ---- exceptions ----


def raises_at(a, bad):
    s = 0.0
    for i in prange(a.shape[0]):
        if i == bad:
            raise ValueError("bad element")
        s += a[i]
    return s


def divides(a, d):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i] // d[i]
    return s


def allocates_then_raises(n):
    s = 0.0
    for i in prange(n):
        t = np.ones(4) * i
        if i == n - 1:
            raise IndexError("last one")
        s += t.sum()
    return s


def test_exception_same_as_serial():
    par, ser, py = compiled(raises_at)
    a = np.arange(100.0)
    with pytest.raises(ValueError, match="bad element"):
        par(a, 37)
    with pytest.raises(ValueError, match="bad element"):
        py(a, 37)
    assert par(a, -1) == ser(a, -1)


def test_division_by_zero_in_body():
    par, ser, py = compiled(divides)
    a = np.arange(10)
    d = np.ones(10, np.int64)
    d[6] = 0
    with pytest.raises(ZeroDivisionError):
        par(a, d)
    d[6] = 2
    assert par(a, d) == py(a, d)


def test_exception_releases_arrays():
    par = njit(parallel=True)(allocates_then_raises)
    with pytest.raises(IndexError, match="last one"):
        par(20)


def caught_outside(a):
    try:
        for i in prange(a.shape[0]):
            if a[i] < 0:
                raise ValueError("negative")
        return 0
    except ValueError:
        return 1


def caught_inside(a):
    s = 0
    for i in prange(a.shape[0]):
        try:
            if a[i] < 0:
                raise ValueError("negative")
            s += 1
        except ValueError:
            s += 100
    return s


def test_try_around_and_inside():
    a = np.array([1.0, -1.0, 2.0])
    check(caught_outside, a)
    check(caught_outside, np.ones(3))
    check(caught_inside, a)


# ---- loops that stay serial (Numba's race rules) ----


def race(a):
    x = 0.0
    for i in prange(a.shape[0]):
        x = x * 0.5 + a[i]
    return x


def broken(a):
    s = 0
    for i in prange(a.shape[0]):
        if a[i] > 3:
            break
        s += 1
    return s


def mixed_ops(a):
    s = 1.0
    for i in prange(a.shape[0]):
        s += a[i]
        s *= 2.0
    return s


def test_race_runs_serially_with_a_note():
    par = check(race, np.arange(10.0))
    (what, p, why), = notes(par)
    assert what == "prange loop" and not p and "'x'" in why and "race" in why
    par = check(mixed_ops, np.arange(5.0))
    assert "'s'" in notes(par)[0][2]


def test_break_runs_serially():
    par = check(broken, np.arange(10))
    assert not notes(par)[0][1] and "break" in notes(par)[0][2]


def test_diagnostics_output(capsys):
    par = check(sum_float, np.ones(10), exact=False)
    par.parallel_diagnostics(level=1)
    out = capsys.readouterr().out
    assert "prange loop" in out and "parallel" in out


# ---- prange outside parallel loops ----


def serial_use(n):
    s = 0
    for i in prange(n):
        s += i
    return s + len(prange(n))


def test_prange_is_range_elsewhere():
    f = njit(serial_use)
    assert f(10) == serial_use(10)
    assert list(prange(3)) == [0, 1, 2]
    g = njit(parallel=True)(serial_use)
    assert g(10) == serial_use(10)


def test_numba_prange_alias():
    numba = pytest.importorskip("numba")

    def f(a):
        s = 0.0
        for i in numba.prange(a.shape[0]):
            s += a[i]
        return s

    par = njit(parallel=True)(f)
    assert par(np.ones(7)) == 7.0
    assert notes(par)[0][1]


# ---- threads ----


def test_nogil_parallel_from_threads():
    par = njit(parallel=True, nogil=True)(sum_int)
    a = np.arange(10000, dtype=np.int64)
    want = sum_int(a)
    results, errors = [], []

    def run():
        try:
            for _ in range(20):
                results.append(par(a))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=run) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors and len(results) == 160 and all(r == want for r in results)


def raises_with_values(a):
    s = 0
    for i in prange(a.shape[0]):
        if a[i] < 0:
            raise ValueError(f"negative {i} at " + str(a[i]))
        s += a[i]
    return s


def test_exception_with_runtime_arguments_from_any_iteration():
    # the texts of str arguments are kept per thread by the runtime: the failing thread's
    # reach the caller
    par = njit(parallel=True)(raises_with_values)
    for k in range(0, 1000, 37):
        a = np.arange(1000)
        a[k] = -3
        with pytest.raises(ValueError) as e:
            par(a)
        assert str(e.value) == f"negative {k} at -3"


def array_reduction(a):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc += a[i, :]
    return acc


def histogram_rows(a, out):
    for i in prange(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, a[i, j]] += 1
    return out


def test_array_reduction_runs_serially():
    a = np.arange(12.0).reshape(4, 3)
    par = check(array_reduction, a)
    assert "whole-array reduction" in notes(par)[0][2]


def test_elementwise_updates_of_own_rows():
    a = np.random.default_rng(5).integers(0, 4, (50, 30))
    par, ser, _ = compiled(histogram_rows)
    np.testing.assert_array_equal(par(a, np.zeros((50, 4), np.int64)),
                                  ser(a, np.zeros((50, 4), np.int64)))


def variable_step(n, k):
    s = 0
    for i in prange(0, n, k):
        s += i
    return s


def with_continue_and_else(a):
    s = 0
    for i in prange(a.shape[0]):
        if a[i] % 2:
            continue
        s += a[i]
    else:
        s += 1000
    return s


def test_variable_step_runs_serially():
    par = check(variable_step, 20, 3)
    (what, p, why), = notes(par)
    assert not p and "step" in why


def test_continue_and_else_clause():
    par = check(with_continue_and_else, np.arange(11))
    assert notes(par)[0][1]


@njit
def _scaled_point(x):
    return x * 2.0 + 1.0


def _apply_point(a, out):
    for i in prange(a.shape[0]):
        out[i] = _scaled_point(a[i])


def test_jitted_callee_in_the_body_is_inlined():
    # the callee's bitcode is linked for the outlined body too (it was called out of line,
    # ~8x slower than the serial loop)
    par = njit(parallel=True)(_apply_point)
    a = np.linspace(0.0, 1.0, 1000)
    out = np.empty_like(a)
    par(a, out)
    ref = np.empty_like(a)
    _apply_point(a, ref)  # plain Python
    np.testing.assert_array_equal(out, ref)
    llvm = par.inspect_llvm(par.signatures[0])
    assert not any(line.startswith("declare") and "_scaled_point" in line
                   for line in llvm.splitlines())


def _scale_rows(a, out):
    for i in prange(a.shape[0]):
        out[i, :] = a[i, :] * 2.0 + 1.0  # an array expression inside the outlined body
    return out.sum()


@pytest.mark.parametrize("shape", [(3, 5), (64, 40000)])
def test_array_expression_inside_a_prange_body(shape):
    # the body's array kernel may build a region of its own: nested, it runs inline
    par = njit(parallel=True)(_scale_rows)
    a = np.random.default_rng(1).random(shape)
    got, ref = np.empty_like(a), np.empty_like(a)
    total = par(a, got)
    expected = _scale_rows(a, ref)
    np.testing.assert_array_equal(got, ref)
    assert_allclose(total, expected, rtol=1e-12)


def _sum_prange_of(x):
    s = 0
    for i in prange(x):
        s += i
    return s


@pytest.mark.parametrize("parallel", [True, False])
def test_prange_of_a_float_is_an_error_at_its_argument(parallel):
    f = njit(parallel=parallel)(_sum_prange_of)
    with pytest.raises(kiln.errors.TypingError, match="expected an integer, got float64") as e:
        f(1.5)
    lineno = _sum_prange_of.__code__.co_firstlineno + 2
    assert f":{lineno}:" in str(e.value)
