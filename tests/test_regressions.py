"""Regressions found while building kiln, and nogil. Each test names what went wrong."""

import math
import os
import platform
import subprocess
import sys
import threading

import numpy as np

import pytest

import kiln
from kiln.errors import TypingError


@kiln.njit(nogil=True)
def nogil_sum(n):
    s = 0
    for i in range(n):
        s += i % 7
    return s


def test_nogil_runs_and_threads_agree():
    expected = sum(i % 7 for i in range(200000))
    results = []
    threads = [threading.Thread(target=lambda: results.append(nogil_sum(200000))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


@kiln.njit(nogil=True)
def nogil_print(x):
    print("value", x)
    return x + 1


def test_nogil_print_takes_the_gil_back(capfd):
    assert nogil_print(41) == 42
    assert capfd.readouterr().out == "value 41\n"


def call_before_assignment(n):
    total = 0
    for i in range(n):
        if i > 0:
            total += h(i)  # noqa: F821 -- h is a local assigned below, typed late
        h = abs
    return total


def test_callee_in_a_variable_typed_late_does_not_crash():
    f = kiln.njit(call_before_assignment)
    assert f(4) == call_before_assignment(4)


@kiln.njit
def broken_f(n):
    if n <= 0:
        return 0
    return broken_g(n - 1) + "x"


@kiln.njit
def broken_g(n):
    if n <= 0:
        return 1
    return broken_f(n - 1)


def test_mutual_recursion_whose_partner_fails_fails_too():
    with pytest.raises(TypingError):
        broken_f(3)
    # g was typed while f was being compiled: it calls f's symbol, which never came to be
    with pytest.raises(TypingError):
        broken_g(3)


@kiln.njit("float64(float64)")
def only_float(x):
    return x * 2.0


def wants_int_callee(y):
    return only_float((y, y))


def test_no_matching_callee_signature_names_the_callee():
    f = kiln.njit(wants_int_callee)
    with pytest.raises(TypingError) as info:
        f(1)
    assert "only_float" in str(info.value)
    assert "UniTuple(int64, 2)" in str(info.value) or "int64" in str(info.value)


def int_div_mod(a, b):
    return a // b, a % b


def float_floordiv(a, b):
    return a // b


def test_numpy_error_model_division_by_zero_is_numpys():
    f = kiln.njit(error_model="numpy")(int_div_mod)
    assert f(7, 0) == (0, 0)  # Numba (and NumPy) give 0, no exception
    assert f(-7, 2) == int_div_mod(-7, 2)
    g = kiln.njit(error_model="numpy")(float_floordiv)
    assert g(1.0, 0.0) == float("inf")
    assert g(-1.0, 0.0) == float("-inf")
    assert g(7.5, 2.0) == float_floordiv(7.5, 2.0)


# ---- arrays: found by reading the lowering (docs helper) ----

import numpy as np  # noqa: E402


def temp_across_ifexp(a, c):
    return (a * 2.0) + (1.0 if c else 2.0)


def test_array_temporary_used_after_a_conditional_expression():
    f = kiln.njit(temp_across_ifexp)
    a = np.arange(4.0)
    for c in (True, False):
        np.testing.assert_array_equal(f(a, c), temp_across_ifexp(a, c))


def add_reversed_in_place(a):
    a += a[::-1]
    return a


def test_in_place_add_of_an_overlapping_view_buffers_like_numpy():
    a, b = np.arange(4.0), np.arange(4.0)
    np.testing.assert_array_equal(kiln.njit(add_reversed_in_place)(a), add_reversed_in_place(b))


def add_float_in_place(a):
    a += 1.5
    return a


def test_in_place_float_into_int_array_is_a_casting_error():
    with pytest.raises(TypingError) as info:
        kiln.njit(add_float_in_place)(np.arange(3))
    assert "same_kind" in str(info.value)


def bad_slice_assignment(n):
    a = np.zeros(n)
    a[1:3] = np.ones(5)


def test_failed_slice_assignment_frees_what_it_made():
    with pytest.raises(ValueError):
        kiln.njit(bad_slice_assignment)(5)  # conftest checks the allocation counters


def unpack_pair(a):
    x, y = a
    return x + y


def test_unpacking_an_array_checks_its_length():
    f = kiln.njit(unpack_pair)
    assert f(np.arange(2.0)) == 1.0
    with pytest.raises(ValueError):
        f(np.arange(3.0))


def first_item(a):
    return a.ndim


@pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.0.0",
                    reason="NumPy 1.x cannot make arrays of more than 32 dimensions")
def test_arrays_of_more_than_32_dimensions_are_refused():
    with pytest.raises(TypeError):
        kiln.njit(first_item)(np.zeros((1,) * 33))


def sqrt_in_place_then_use(a):
    return (a + 1.0) * np.sqrt(a, out=a)


def test_fusion_does_not_move_reads_past_writes():
    a, b = np.array([4.0, 9.0]), np.array([4.0, 9.0])
    np.testing.assert_array_equal(kiln.njit(sqrt_in_place_then_use)(a), sqrt_in_place_then_use(b))


@kiln.njit("float64(float64[::1])")
def total_c(a):
    return a.sum()


def test_array_signatures_compile_eagerly_and_accept_only_their_arrays():
    assert total_c.signatures == [(kiln.float64[::1],)]
    assert total_c(np.arange(4.0)) == 6.0
    with pytest.raises(TypeError):
        total_c(np.arange(4))  # int64 elements do not convert safely
    assert total_c(np.arange(8.0)[::2].copy()) == 12.0


def flags_of(a):
    f = a.flags
    return f.c_contiguous, a.flags.f_contiguous, a.flags.writeable, a.flags.contiguous


@pytest.mark.parametrize("make", [lambda: np.zeros((3, 4)), lambda: np.zeros((3, 4)).T,
                                  lambda: np.zeros((3, 4))[:, ::2], lambda: np.zeros(5),
                                  lambda: np.zeros((3, 1)), lambda: np.zeros((0, 3))[:, ::2]])
def test_array_flags_match_numpy(make):
    a = make()
    f = a.flags
    assert kiln.njit(flags_of)(a) == (f.c_contiguous, f.f_contiguous, f.writeable, f.contiguous)


def test_array_flags_of_a_read_only_array():
    a = np.zeros(3)
    a.setflags(write=False)
    assert kiln.njit(flags_of)(a)[2] is False


def arg_and_logical_axis(a):
    return a.argmin(axis=0), np.argmax(a, axis=1), (a > 2).any(axis=0), np.all(a > 0, axis=1)


def arg_whole_and_axis(a):
    return (a.argmin(), np.argmax(a), a.argmin(axis=0), a.argmax(axis=1), a.any(axis=0),
            np.all(a, axis=1), a.any(), a.all())


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64", "float32",
                                   "float64"])
def test_argmin_argmax_of_every_dtype(dtype):
    # found by a differential fuzz of the reductions against NumPy: argmin/argmax of a bool
    # array returned the running extreme (a bool) instead of its index
    rng = np.random.default_rng(3)
    for shape in [(2, 3), (4, 1), (1, 5)]:
        a = (rng.random(shape) < 0.5) if dtype == "bool" else rng.integers(0, 4, shape).astype(dtype)
        for layout in (a, np.asfortranarray(a), np.repeat(a, 2, axis=1)[:, ::2]):
            got = kiln.njit(arg_whole_and_axis)(layout)
            for g, w in zip(got, arg_whole_and_axis(layout)):
                np.testing.assert_array_equal(g, w)
                assert np.asarray(g).dtype == np.asarray(w).dtype or np.ndim(w) == 0


def test_argmin_argmax_any_all_along_an_axis():
    a = np.array([[3.0, 1.0, 4.0], [1.0, 5.0, 9.0], [2.0, np.nan, 0.5]])
    got = kiln.njit(arg_and_logical_axis)(a)
    for g, w in zip(got, arg_and_logical_axis(a)):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype


def checked_get(a, i):
    return a[i]  # the raising line


def test_runtime_errors_carry_their_source_line_as_a_note():
    import inspect
    import sys

    f = kiln.njit(boundscheck=True)(checked_get)
    with pytest.raises(IndexError) as info:
        f(np.arange(3.0), 5)
    assert str(info.value) == "index 5 is out of bounds for axis 0 with size 3"
    if sys.version_info >= (3, 11):
        lines, first = inspect.getsourcelines(checked_get)
        line = first + next(i for i, t in enumerate(lines) if "the raising line" in t)
        assert info.value.__notes__ == [f"raised by kiln-compiled code at {__file__}:{line}"]


# ---- where functions come from: nested, lambdas, IPython-style cells ----

def make_scaler(k):
    @kiln.njit
    def scale(x):
        return x * k  # k: a closure variable, frozen at compile time

    return scale


def test_nested_function_with_a_closure_variable():
    assert make_scaler(3)(4) == 12


square_plus_one = kiln.njit(lambda x: x * x + 1)


def test_lambda():
    assert square_plus_one(5) == 26


def test_function_from_a_cell_registered_in_linecache():
    import linecache

    src = "def cell_fn(a):\n    return a + 100\n"
    name = "<ipython-input-7-kiln-test>"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    ns = {}
    exec(compile(src, name, "exec"), ns)
    assert kiln.njit(ns["cell_fn"])(1) == 101


def test_function_without_source_says_so():
    ns = {}
    exec(compile("def no_source(a):\n    return a\n", "<nowhere>", "exec"), ns)
    with pytest.raises(kiln.errors.UnsupportedError) as info:
        kiln.njit(ns["no_source"])(1)
    assert "source" in str(info.value)


def np_copy(a):
    return np.copy(a), a.copy()


def test_np_copy_keeps_fortran_order_and_the_method_gives_c():
    a = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    c1, c2 = kiln.njit(np_copy)(a)
    np.testing.assert_array_equal(c1, a)
    np.testing.assert_array_equal(c2, a)
    assert c1.flags.f_contiguous and not c1.flags.c_contiguous
    assert c2.flags.c_contiguous


def linspaces(a, b, n):
    return (np.linspace(a, b, n), np.linspace(a, b, n, endpoint=False),
            np.linspace(a, b, num=n, endpoint=True))


@pytest.mark.parametrize("a, b, n", [(0.0, 1.0, 5), (1.0, -2.5, 7), (2, 3, 1), (0.0, 1.0, 0)])
def test_linspace_with_and_without_the_endpoint(a, b, n):
    for got, want in zip(kiln.njit(linspaces)(a, b, n), linspaces(a, b, n)):
        np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)
        assert got.shape == want.shape


# ---- bad input of the features added late in the first session: a KilnError, never a crash ----

def enumerate_outside_loop(a):
    return enumerate(a)


def zip_with_keywords(a, b):
    s = 0.0
    for x, y in zip(a, b, strict=True):
        s += x * y
    return s


def unknown_flag(a):
    return a.flags.aligned_to_the_moon


def runtime_axis(a, k):
    return a.sum(axis=k)


def endpoint_not_bool(n):
    return np.linspace(0.0, 1.0, n, endpoint=1)


@pytest.mark.parametrize("func, args", [
    (enumerate_outside_loop, (np.arange(3.0),)),
    (zip_with_keywords, (np.arange(3.0), np.arange(3.0))),
    (unknown_flag, (np.arange(3.0),)),
    (runtime_axis, (np.ones((2, 2)), 0)),
    (endpoint_not_bool, (5,)),
], ids=lambda v: getattr(v, "__name__", "args"))
def test_late_features_reject_bad_input_cleanly(func, args):
    with pytest.raises(kiln.errors.KilnError) as info:
        kiln.njit(func)(*args)
    assert info.value.line is not None


# Integer -> float conversions in a loop that calls libm were 2.6x slower than Numba (a false
# dependency of cvtsi2sd on a register the call wrote); jit/convert.c rewrites them into a
# one-lane vector conversion (AVX-512 DQ) or an exact bit-pattern sequence (any x86-64). The
# values must stay bit-identical to the plain conversion; the second run compiles for a CPU
# without AVX-512 (KILN_CPU/KILN_FEATURES are read when the JIT starts, so in a subprocess).
def convert_next_to_calls(a, out):
    acc = 0.0
    for i in range(a.shape[0]):
        out[i] = float(a[i])
        acc += math.sin(out[i] * 0.0)
    return acc


_EDGES = [0, 1, -1, 2, 2**31 - 1, -2**31, 2**31, 2**32 - 1, 2**32, 2**52 + 1, 2**53 - 1, 2**53 + 1,
          2**53 + 3, 2**62 + 2**9 + 1, 2**63 - 1, -2**63, -2**63 + 1, -2**53 - 1, 123456789012345678]


def check_conversions_exact():
    for dtype in ["int64", "uint64", "int32", "uint32"]:
        info = np.iinfo(dtype)
        rng = np.random.default_rng(7)
        edges = [v for v in _EDGES if info.min <= v <= info.max] + [info.min, info.max]
        if dtype == "uint64":
            edges += [2**63, 2**63 + 1, 2**64 - 1, 2**64 - 2**11 - 1, 2**64 - 2**10]
        rand = rng.integers(info.min, info.max, size=2000, dtype=dtype, endpoint=True)
        a = np.concatenate([np.array(edges, dtype=dtype), rand])
        out = np.empty(a.shape[0])
        assert kiln.njit(convert_next_to_calls)(a, out) == 0.0
        assert out.tobytes() == a.astype(np.float64).tobytes(), dtype
        assert [float(int(v)) for v in a] == list(out), dtype


def test_int_to_float_next_to_a_call_is_exact():
    check_conversions_exact()


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the rewrite is x86-64 only")
def test_int_to_float_next_to_a_call_is_exact_without_avx512():
    here = os.path.dirname(os.path.abspath(__file__))
    code = "import test_regressions as t; t.check_conversions_exact(); print('exact')"
    # the same kiln as this process (the tests' import path, not necessarily the source tree)
    kiln_root = os.path.dirname(os.path.dirname(os.path.abspath(kiln.__file__)))
    env = dict(os.environ, KILN_CPU="x86-64-v2", KILN_FEATURES="",
               PYTHONPATH=kiln_root)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=here)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "exact"


# A float division's zero check moves to the end of a side-effect-free innermost loop
# (passes/defer.c), so LLVM can vectorize the loop (n-body was 1.3x gcc). The exception, its
# message and its source line must stay those of the interpreter; loops that write memory,
# print, break, or divide twice keep the check at the division.
def defer_sum(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] / b[i]  # the dividing line
    return s


def defer_ints(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] / b[i]  # the dividing line
    return s


def defer_nested(pos, mass):
    n = pos.shape[0]
    out = 0.0
    for i in range(n):
        acc = 0.0
        for j in range(n):
            d = pos[j, 0] - pos[i, 0]
            r2 = d * d
            acc += mass[j] / r2  # the dividing line
        out += acc
    return out


def nodefer_store(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] / b[i]  # the dividing line
    return 0


def nodefer_break(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] / b[i]  # the dividing line
        if s > 1e300:
            break
    return s


def _line_of(func):
    import inspect
    lines, first = inspect.getsourcelines(func)
    return first + next(i for i, t in enumerate(lines) if "the dividing line" in t)


def _python_error(numerator, denominator):
    with pytest.raises(ZeroDivisionError) as info:
        numerator / denominator
    return str(info.value)


@pytest.mark.parametrize("func, ints", [(defer_sum, False), (defer_ints, True),
                                        (nodefer_break, False)])
def test_division_by_zero_in_a_loop_raises_like_python(func, ints):
    dtype = np.int64 if ints else np.float64
    a = np.arange(1, 11).astype(dtype)
    b = np.arange(9, -1, -1).astype(dtype)  # zero last
    c = np.arange(10, 0, -1).astype(dtype)  # no zero
    f = kiln.njit(func)
    assert f(a, c) == func(a, c)
    with pytest.raises(ZeroDivisionError) as info:
        f(a, b)
    # the interpreter raises on the Python scalars (NumPy scalars give inf and a warning)
    assert str(info.value) == _python_error(*((1, 0) if ints else (1.0, 0.0)))
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == [
            f"raised by kiln-compiled code at {__file__}:{_line_of(func)}"]


def test_division_by_zero_in_a_nested_loop():
    pos = np.array([[0.0, 1.0], [2.0, 0.0], [3.5, 1.0]])
    mass = np.array([1.0, 2.0, 3.0])
    f = kiln.njit(defer_nested)
    with pytest.raises(ZeroDivisionError) as info:
        f(pos, mass)  # j == i divides by zero
    assert str(info.value) == _python_error(1.0, 0.0)


def test_division_by_zero_after_stores_keeps_the_stores_made_before_it():
    a = np.arange(1.0, 11.0)
    b = np.array([1.0, 2.0, 4.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    out = np.full(10, -1.0)
    with pytest.raises(ZeroDivisionError):
        kiln.njit(nodefer_store)(a, b, out)
    assert out[:3].tolist() == [1.0, 1.0, 0.75] and (out[3:] == -1.0).all()


def test_deferred_check_leaves_no_branch_in_the_loop():
    from kiln import _core
    import re
    keys = (kiln.float64[::1].key,) * 2
    ir = _core._stages(defer_sum, keys)["llvm"]
    assert re.search(r"= fcmp oeq double %[\w.]+, 0\.0+e\+00\n\s+%[\w.]+ = or i1", ir)
    ir = _core._stages(nodefer_break, keys)["llvm"]
    assert not re.search(r"= or i1", ir)


def test_real_of_a_complex_argument_is_returned_as_its_real_part():
    # the view starts at the argument's data: boxing must not hand back the argument itself
    z = np.arange(4.0).reshape(2, 2) + 1j
    for f in (lambda a: a.real, lambda a: a.T.real, lambda a: a.imag):
        got = kiln.njit(f)(z)
        want = f(z)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    r = np.arange(3.0)
    assert kiln.njit(lambda a: a.real)(r) is r  # a real array's .real is the array itself


# A block typing finds dead (under a constant condition) keeps untyped instructions; the raise
# analysis read their operands' types and crashed the compiler (issue 11's engineers met it in
# library code: an `if False:` in a loop after an early return, and a constant-true `if` that
# returns before a loop storing into a 2-D array).
_ALWAYS = True


def dead_branch_in_loop_after_return(x):
    n = x.shape[0]
    if n > 64:
        return 1.0
    acc = 0.0
    for i in range(n):
        if False:
            acc = acc + x[i] * 2.0
        else:
            acc = acc + x[i]
    return acc


def constant_return_before_a_2d_store(x1, x2):
    a = x1.ravel()
    b = x2.ravel()
    n = a.shape[0]
    m = b.shape[0]
    if _ALWAYS:
        ra = np.zeros((m, n), a.dtype)
        return ra
    ra = np.zeros((n, m), a.dtype)
    for i in range(n):
        ra[i, 0] = a[i]
    return ra


def test_dead_branch_with_an_array_read_compiles():
    for x in (np.arange(10.0), np.arange(100.0)):
        assert kiln.njit(dead_branch_in_loop_after_return)(x) == dead_branch_in_loop_after_return(x)


def test_constant_return_before_a_2d_store_compiles():
    args = (np.arange(3.0), np.arange(2))
    got = kiln.njit(constant_return_before_a_2d_store)(*args)
    np.testing.assert_array_equal(got, constant_return_before_a_2d_store(*args))


# A function returning a generator made inside it (an overload's binding does this) was
# lowered as if it were the generator function itself: its caller built the generator's frame
# from the outer function's parameters, so the generator read its arguments at the wrong
# offsets (a list argument and array views crashed at the first next()).
def gen_of_views(op, flags, op_flags):
    for i in range(op.shape[0]):
        yield op[i, ...]


def gen_of_items(op, flags, op_flags):
    for i in range(op.shape[0]):
        yield op[i]


_gen_of_views = kiln.njit(gen_of_views)
_gen_of_items = kiln.njit(gen_of_items)


def returns_views(op, op_flags):
    return _gen_of_views(op, None, op_flags)


def returns_items(op, op_flags):
    return _gen_of_items(op, None, op_flags)


_returns_views = kiln.njit(returns_views)
_returns_items = kiln.njit(returns_items)


def sum_views_list(a):
    s = 0.0
    for x in _returns_views(a, ["readwrite"]):
        s += x[()]
    return s


def sum_views_int(a):
    s = 0.0
    for x in _returns_views(a, 1):
        s += x[()]
    return s


def sum_items_list(a):
    s = 0.0
    for x in _returns_items(a, ["readwrite"]):
        s += x
    return s


@pytest.mark.parametrize("f", [sum_views_list, sum_views_int, sum_items_list])
def test_generator_returned_by_another_function(f):
    a = np.arange(5.0)
    expected = sum(float(v) for v in a)
    assert kiln.njit(f)(a) == expected
