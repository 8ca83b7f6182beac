"""Decorator options (issue 10): inline=, forceinline, locals=, no_cpython_wrapper, nopython=False,
fastmath sets, error_model, boundscheck, nogil, compiled and run. The interpreter is the oracle
(locals= as Numba converts: the value stored is cast to the declared type)."""

import linecache
import re
import threading
import warnings

import numpy as np
import pytest

import kiln
from kiln.errors import KilnDeprecationWarning, TypingError, UnsupportedError


def _from_source(src, name):
    """A function defined in generated source (registered in linecache, so kiln reads it)."""
    filename = f"<kiln-test-{name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {}
    exec(compile(src, filename, "exec"), ns)
    return ns[name]


def _big_callee():
    """A function well past the 400 instructions under which LLVM inlines callees anyway."""
    lines = ["def big(x):", "    s = 0"]
    for k in range(120):
        lines.append(f"    if x > {k}:\n        s = s + x // {k + 2}")
    lines.append("    return s")
    return _from_source("\n".join(lines) + "\n", "big")


def _called_symbols(disp):
    return set(re.findall(r"call [^@\n]*@(kn_\w+)", disp.inspect_llvm(disp.signatures[0])))


# --- inline -------------------------------------------------------------------------------------

@pytest.mark.parametrize("opts", [{"inline": "always"}, {"forceinline": True}])
def test_inline_always_inlines_a_big_callee(opts):
    big = _big_callee()
    callee = kiln.njit(**opts)(big)

    def caller(x):
        return callee(x) + 1

    disp = kiln.njit(caller)
    assert disp(200) == big(200) + 1
    assert callee(77) == big(77)  # still callable on its own
    assert not any(s.startswith("kn_big_") for s in _called_symbols(disp))


def test_inline_never_leaves_a_big_callee_out_of_line():
    big = _big_callee()
    callee = kiln.njit(inline="never")(big)

    def caller(x):
        return callee(x) + 1

    disp = kiln.njit(caller)
    assert disp(200) == big(200) + 1
    assert any(s.startswith("kn_big_") for s in _called_symbols(disp))


def test_inline_cost_model_callable_is_accepted_and_not_called():
    calls = []

    def cost_model(expr, caller_info, callee_info):
        calls.append(expr)
        return True

    @kiln.njit(inline=cost_model)
    def add1(x):
        return x + 1

    @kiln.njit
    def use(x):
        return add1(x) * 2

    assert use(3) == use.py_func(3) and calls == []


def test_inline_always_recursive_function():
    @kiln.njit(inline="always")
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)

    assert fact(10) == fact.py_func(10)


@pytest.mark.parametrize("value, exc", [("sometimes", ValueError), (3, ValueError)])
def test_inline_bad_value(value, exc):
    with pytest.raises(exc, match="inline must be"):
        kiln.njit(inline=value)


# --- locals -------------------------------------------------------------------------------------

def accumulate(n):
    x = 0
    for i in range(n):
        x += i * 0.75
    return x


@pytest.mark.parametrize("t, cast", [
    (kiln.int32, lambda v: int(v)), (kiln.float32, lambda v: float(np.float32(v))),
    (kiln.uint8, lambda v: int(v) % 256), (kiln.float64, float), (np.int16, int),
])
def test_locals_forces_the_type(t, cast):
    disp = kiln.njit(locals={"x": t})(accumulate)
    # the oracle: the interpreter with the same conversion after every store
    x = 0
    for i in range(9):
        x = cast(x + i * 0.75)
    assert disp(9) == x
    assert type(disp(9)) is type(x)


def test_locals_types_a_variable_as_numba_does():
    @kiln.njit(locals={"y": kiln.float32})
    def f(a):
        y = a / 3
        return y

    assert f(1) == float(np.float32(1 / 3))


def test_locals_on_a_parameter():
    @kiln.njit(locals={"x": kiln.float32})
    def f(x):
        x = x * 2
        return x

    assert f(3) == 6.0 and isinstance(f(3), float)


def test_locals_of_an_array():
    @kiln.njit(locals={"b": kiln.float64[:]})
    def f(a):
        b = a[::2]
        return b.sum()

    a = np.arange(10.0)
    assert f(a) == a[::2].sum()


def test_locals_unknown_name_is_ignored():
    @kiln.njit(locals={"nothere": kiln.int8})
    def f(x):
        return x + 1

    assert f(1) == 2


def test_locals_impossible_conversion_is_an_error_at_the_store():
    def f(a):
        y = a + 1j
        return y

    with pytest.raises(TypingError, match=r"cannot store complex128 in 'y', which locals= "
                                          r"declares float64") as info:
        kiln.njit(locals={"y": kiln.float64})(f)(2.0)
    assert info.value.line == f.__code__.co_firstlineno + 1


def test_locals_array_into_a_number_is_an_error():
    def f(a):
        y = a
        return y

    with pytest.raises(TypingError, match="cannot store array"):
        kiln.njit(locals={"y": kiln.int64})(f)(np.zeros(2))


@pytest.mark.parametrize("value, exc", [
    ([], TypeError), ({"x": "int64"}, TypeError), ({"x": 3}, TypeError), ({1: kiln.int64}, TypeError),
])
def test_locals_bad_values(value, exc):
    with pytest.raises(exc):
        kiln.njit(locals=value)


# --- the other options --------------------------------------------------------------------------

def test_no_cpython_wrapper_still_callable():
    @kiln.njit(no_cpython_wrapper=True)
    def f(x):
        return x * 3

    assert f(4) == 12


def test_nopython_false_compiles_and_names_the_option_when_it_cannot():
    def ok(x):
        return x + 1

    def bad(x):
        return {1: "a", "b": 2}[x]

    with pytest.warns(KilnDeprecationWarning):
        assert kiln.jit(nopython=False)(ok)(1) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        disp = kiln.jit(nopython=False)(bad)
    with pytest.raises(TypingError, match="nopython=False"):
        disp(1)


def test_forceobj_is_refused_by_name():
    with pytest.raises(UnsupportedError, match="forceobj"):
        kiln.jit(forceobj=True)


def test_fastmath_sets_reach_llvm():
    def dot(a, b):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        return s

    a, b = np.arange(8.0), np.arange(8.0) + 1
    for flags, words in [({"nnan", "ninf"}, {"nnan", "ninf"}), ({"reassoc", "contract"},
                                                                 {"reassoc", "contract"}),
                         (True, {"fast"}), ({"nsz": True, "arcp": False}, {"nsz"})]:
        disp = kiln.njit(fastmath=flags)(dot)
        assert disp(a, b) == pytest.approx(dot(a, b))
        ir = disp.inspect_llvm(disp.signatures[0])
        fmuls = [ln for ln in ir.splitlines() if re.search(r"= (tail call )?f(mul|add) ", ln)]
        assert fmuls and all(any(w in ln for w in words) for ln in fmuls)
    plain = kiln.njit(dot)
    plain(a, b)
    ir = plain.inspect_llvm(plain.signatures[0])
    assert not any(w in ln for ln in ir.splitlines() if re.search(r"= f(mul|add) ", ln)
                   for w in ("nnan", "ninf", "fast", "reassoc"))


def test_error_model_numpy_and_python():
    def div(a, b):
        return a / b

    assert kiln.njit(error_model="numpy")(div)(1.0, 0.0) == np.inf
    with pytest.raises(ZeroDivisionError):
        kiln.njit(error_model="python")(div)(1.0, 0.0)


def test_boundscheck_option():
    def get(a, i):
        return a[i]

    a = np.arange(3)
    with pytest.raises(IndexError):
        kiln.njit(boundscheck=True)(get)(a, 5)
    assert kiln.njit(boundscheck=False)(get)(a, 2) == 2


def test_nogil_runs_in_threads():
    @kiln.njit(nogil=True)
    def total(n):
        s = 0
        for i in range(n):
            s += i
        return s

    out = []
    ts = [threading.Thread(target=lambda: out.append(total(10000))) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [total.py_func(10000)] * 4
