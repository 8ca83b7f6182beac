"""The public dispatcher API: decorators, options, signatures, introspection, threads."""

import io
import threading

import numpy as np
import pytest

import kiln
from harness import same


def add(x, y):
    """Add two numbers."""
    return x + y


def twice(x):
    return x * 2


def typed_body(x, y):
    total_sum = x + y
    scaled_value = total_sum * 0.5
    return scaled_value


def bad_body(x):
    return x + "text"


# --- decorator forms ----------------------------------------------------------------------

def test_njit_bare():
    f = kiln.njit(add)
    assert f(1, 2) == 3


def test_njit_as_decorator_with_and_without_parentheses():
    @kiln.njit
    def a(x):
        return x + 1

    @kiln.njit()
    def b(x):
        return x + 2

    @kiln.njit(fastmath=True)
    def c(x, y):
        return x * y

    assert a(1) == 2
    assert b(1) == 3
    assert c(1.5, 2.0) == 3.0


@pytest.mark.parametrize("options", [
    {"fastmath": True}, {"fastmath": False}, {"fastmath": {"nnan", "contract"}},
    {"boundscheck": True}, {"boundscheck": False}, {"error_model": "python"},
    {"error_model": "numpy"},
])
def test_njit_accepted_options(options):
    f = kiln.njit(**options)(add)
    assert f(1.5, 2.0) == 3.5


def test_error_model_numpy_float_division_by_zero_gives_inf():
    f = kiln.njit(error_model="numpy")(lambda a, b: a / b)
    assert f(1.0, 0.0) == float("inf")
    g = kiln.njit(error_model="python")(lambda a, b: a / b)
    with pytest.raises(ZeroDivisionError):
        g(1.0, 0.0)


def test_jit_nopython():
    f = kiln.jit(nopython=True)(add)
    assert f(2, 3) == 5
    g = kiln.jit("int64(int64)", nopython=True)(twice)
    assert g.signatures == [(kiln.int64,)]
    assert g(4) == 8


@pytest.mark.parametrize("option", ["cache"])
def test_unsupported_options_raise_naming_the_option(option):
    with pytest.raises(kiln.errors.UnsupportedError, match=option):
        kiln.njit(**{option: True})(add)
    with pytest.raises(kiln.errors.UnsupportedError, match=option):
        kiln.jit(nopython=True, **{option: True})(add)


def test_error_classes_hierarchy():
    for cls in (kiln.errors.TypingError, kiln.errors.UnsupportedError,
                kiln.errors.LoweringError):
        assert issubclass(cls, kiln.errors.KilnError)
    assert issubclass(kiln.errors.KilnError, Exception)


# --- explicit signatures ------------------------------------------------------------------

def test_signature_string_compiles_eagerly():
    f = kiln.njit("float64(int64)")(twice)
    assert f.signatures == [(kiln.int64,)]  # before any call
    r = f(3)
    assert r == 6.0 and type(r) is float  # the declared return type converts the result


def test_signature_list_of_strings():
    f = kiln.njit(["int64(int64)", "float64(float64)"])(twice)
    assert f.signatures == [(kiln.int64,), (kiln.float64,)]
    assert f(3) == 6 and type(f(3)) is int
    assert f(1.5) == 3.0
    r = f(np.int32(4))  # int32 converts safely to both; int64 is the better match
    assert r == 8 and type(r) is int
    assert f(np.float32(0.5)) == 1.0  # float32 converts safely to float64 only
    assert f.signatures == [(kiln.int64,), (kiln.float64,)]  # no new compilation


def test_signature_type_objects():
    f = kiln.njit(kiln.float64(kiln.int64))(twice)
    assert f.signatures == [(kiln.int64,)]
    assert f(2) == 4.0
    sigs = [kiln.int64(kiln.int64, kiln.int64), kiln.float64(kiln.float64, kiln.float64)]
    g = kiln.njit(sigs)(add)
    assert g.signatures == [(kiln.int64, kiln.int64), (kiln.float64, kiln.float64)]
    assert g(1, 2) == 3 and g(0.5, 0.25) == 0.75


def test_explicit_signature_converts_as_numba():
    # issue 10: once signatures are given, Numba's dispatcher allows unsafe conversions (a float
    # for an int64 parameter is truncated, Numba 0.68 measured); a complex never becomes an int
    f = kiln.njit("int64(int64)")(twice)
    assert f(1.5) == twice(int(1.5)) and f(-2.5) == twice(int(-2.5))
    with pytest.raises(TypeError,
                       match=r"No matching definition for argument type\(s\) complex128"):
        f(1j)
    assert f(5) == 10
    assert f.signatures == [(kiln.int64,)]


def test_explicit_signature_compile_error_raises_at_decoration():
    with pytest.raises(kiln.errors.TypingError):
        kiln.njit("int64(int64)")(bad_body)


# --- dispatcher attributes ----------------------------------------------------------------

def test_signatures_after_calls():
    f = kiln.njit(add)
    assert f.signatures == []
    f(1, 2.5)
    assert f.signatures == [(kiln.int64, kiln.float64)]
    f(3, 4.5)  # same types: no new signature
    assert f.signatures == [(kiln.int64, kiln.float64)]
    f(1.5, 2)
    assert f.signatures == [(kiln.int64, kiln.float64), (kiln.float64, kiln.int64)]


def test_overloads():
    f = kiln.njit(add)
    f(1, 2)
    f(1.0, 2.0)
    assert list(f.overloads.keys()) == f.signatures
    for sig, cres in f.overloads.items():
        assert hasattr(cres, "signature")
        assert isinstance(cres.entry_point, int) and cres.entry_point != 0


def test_inspect_types_lists_each_variable_and_its_type():
    f = kiln.njit(typed_body)
    f(1, 2)
    buf = io.StringIO()
    f.inspect_types(file=buf)
    text = buf.getvalue()
    for name, typ in [("x", "int64"), ("y", "int64"), ("total_sum", "int64"),
                      ("scaled_value", "float64")]:
        assert any(name in line and typ in line for line in text.splitlines()), \
            f"no line shows {name} with {typ} in:\n{text}"


def test_inspect_llvm_and_asm():
    f = kiln.njit(add)
    f(1, 2)
    sig = f.signatures[0]
    llvm = f.inspect_llvm(sig)
    assert isinstance(llvm, str) and "define" in llvm
    asm = f.inspect_asm(sig)
    assert isinstance(asm, str) and asm.strip()


def test_recompile():
    f = kiln.njit(add)
    assert f(1, 2) == 3
    f.recompile()
    assert f.signatures == [(kiln.int64, kiln.int64)]
    assert f(1, 2) == 3


def test_function_attributes():
    f = kiln.njit(add)
    assert f.py_func is add
    assert f.__wrapped__ is add
    assert f.__name__ == "add"
    assert f.__qualname__ == add.__qualname__
    assert f.__doc__ == "Add two numbers."
    assert f.__module__ == add.__module__


def test_keyword_arguments_at_python_call():
    f = kiln.njit(add)
    assert f(1, y=2) == 3
    assert f(y=2, x=1) == 3
    assert f.signatures == [(kiln.int64, kiln.int64)]


def test_wrong_argument_count_raises_typeerror():
    f = kiln.njit(add)
    with pytest.raises(TypeError):
        f(1)
    with pytest.raises(TypeError):
        f(1, 2, 3)
    with pytest.raises(TypeError):
        f(1, z=2)
    assert f(1, 2) == 3


def test_failed_compilation_raises_again_without_a_signature():
    f = kiln.njit(bad_body)
    with pytest.raises(kiln.errors.TypingError) as first:
        f(1)
    with pytest.raises(kiln.errors.TypingError) as second:
        f(1)
    assert type(first.value) is type(second.value)
    assert str(first.value) == str(second.value)
    assert f.signatures == []


def test_memory_stats_shape():
    stats = kiln.runtime.memory_stats()
    for key in ("alloc", "free", "mi_alloc", "mi_free"):
        assert isinstance(stats[key], int) and stats[key] >= 0


# --- threads ------------------------------------------------------------------------------

def test_two_threads_compile_once():
    f = kiln.njit(typed_body)
    barrier = threading.Barrier(2)
    results, errors = {}, []

    def worker(i):
        try:
            barrier.wait()
            results[i] = f(i, 10)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {1: typed_body(1, 10), 2: typed_body(2, 10)}
    assert len(f.signatures) == 1


def test_many_threads_same_dispatcher_different_types():
    f = kiln.njit(add)
    args = [(1, 2), (1.5, 2.5), (1, 2.5), (1j, 2)] * 4
    barrier = threading.Barrier(len(args))
    results = [None] * len(args)

    def worker(i):
        barrier.wait()
        results[i] = f(*args[i])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(args))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, r in zip(args, results):
        same(r, add(*a))
    assert len(f.signatures) == 4


def test_parallel_true_compiles_and_reports(capsys):
    @kiln.njit(parallel=True)
    def total(a):
        s = 0.0
        for i in kiln.prange(a.shape[0]):
            s += a[i]
        return s

    a = np.arange(100.0)
    assert total(a) == a.sum()
    total.parallel_diagnostics(level=1)
    out = capsys.readouterr().out
    assert "Function " in out and ".total (" in out
    with pytest.raises(ValueError, match="Report level"):
        total.parallel_diagnostics(level=9)
    notes = total._parallel_notes()
    assert len(notes) == 1 and notes[0][0] == (kiln.typeof(a),)
