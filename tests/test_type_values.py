"""Types used as values inside compiled code (issue 10): kiln's type objects and NumPy's scalar
classes as conversions and dtypes, type(x), np.iinfo / np.finfo. The oracle is the interpreter
running the same function (kiln.int32(x) is np.int32(x) there)."""

import numpy as np
import pytest

import kiln
from kiln.errors import TypingError

SCALARS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
           "float64", "complex64", "complex128", "boolean"]


def _same(got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want
        assert type(got) is type(want.item() if isinstance(want, np.generic) else want)


def _check(fn, *args):
    _same(kiln.njit(fn)(*args), fn(*args))


# --- kiln's type objects as conversions and dtypes ----------------------------------------------

@pytest.mark.parametrize("name", SCALARS)
def test_kiln_type_converts(name):
    t = getattr(kiln, name)

    def conv(x):
        return t(x)

    for x in (3.75, 7, True):
        _check(conv, x)


@pytest.mark.parametrize("name", ["int8", "int32", "uint16", "float32", "float64", "complex64",
                                  "boolean", "intp", "intc", "double", "float_", "uint8"])
def test_kiln_type_as_dtype(name):
    def maker(t):
        def make(n):
            return np.zeros(n, dtype=t) + np.ones(n, t)
        return make

    kt = getattr(kiln, name)
    # NumPy takes no kiln type as a dtype (nor Numba's): the oracle runs with NumPy's class
    _same(kiln.njit(maker(kt))(4), maker(np.dtype(kt.key).type)(4))


def test_kiln_type_in_a_variable_and_in_astype():
    def maker(cls):
        def f(a):
            t = cls
            return a.astype(t) * t(2)
        return f

    _same(kiln.njit(maker(kiln.float32))(np.arange(5)), maker(np.float32)(np.arange(5)))


@pytest.mark.parametrize("name", ["intp", "uintp", "intc", "uintc", "int_", "double", "longlong",
                                  "ulonglong", "short", "ushort", "byte", "ubyte", "single",
                                  "bool_", "float32", "int16"])
def test_numpy_scalar_class_as_dtype_and_conversion(name):
    cls = getattr(np, name)

    def f(n, x):
        return np.full(n, cls(x), dtype=cls)

    _check(f, 3, 2.5)
    _check(lambda x: cls(x), 5.5)


# --- type(x) ------------------------------------------------------------------------------------

@pytest.mark.parametrize("x", [2.5, 7, True, np.float32(1.5), np.int16(3), np.uint8(9), 1 + 2j])
def test_type_of_a_number_converts(x):
    def f(v):
        return type(v)(1)

    want = kiln.njit(f)(x)
    # the interpreter's type(7) is int, kiln's is int64: compare as NumPy would convert
    assert want == f(x) and type(want) is type(f(x)) or type(want) is type(np.asarray(x).item())


def test_type_of_a_value_as_dtype():
    def f(x, n):
        return np.zeros(n, dtype=type(x)) + x

    _check(f, np.float32(2.5), 3)
    _check(f, np.int16(4), 2)


def test_type_of_a_str_is_an_error():
    def f(s):
        return type(s)

    with pytest.raises(TypingError, match=r"type\(\) of unicode_type|type\(\) of str") as info:
        kiln.njit(f)("a")
    assert info.value.line == f.__code__.co_firstlineno + 1


# --- np.iinfo / np.finfo ------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                 np.uint32, np.uint64])
def test_iinfo(cls):
    def f():
        i = np.iinfo(cls)
        return i.min, i.max, i.bits

    _check(f)

    def of_value(x):
        return np.iinfo(x).max

    _check(of_value, cls(3))

    def of_dtype(a):
        return np.iinfo(a.dtype).min

    _check(of_dtype, np.zeros(2, cls))


def test_iinfo_of_kiln_type_and_its_dtype():
    def maker(t):
        def f(n):
            return np.zeros(n, dtype=np.iinfo(t).dtype) + np.iinfo(t).max
        return f

    _same(kiln.njit(maker(kiln.int16))(3), maker(np.int16)(3))


FINFO = ["bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal", "smallest_subnormal",
         "resolution", "precision", "maxexp", "minexp", "nmant", "nexp", "iexp", "machep", "negep"]


@pytest.mark.parametrize("cls", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("attr", FINFO)
def test_finfo(cls, attr):
    f = eval(f"lambda: np.finfo(cls).{attr}", {"np": np, "cls": cls})  # noqa: S307
    import linecache

    src = f"def g():\n    return np.finfo(cls).{attr}\n"
    name = f"<kiln-finfo-{cls.__name__}-{attr}>"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    ns = {"np": np, "cls": cls}
    exec(compile(src, name, "exec"), ns)
    got, want = kiln.njit(ns["g"])(), f()
    assert got == want
    assert isinstance(got, float if isinstance(want, np.floating) else int)


def test_finfo_of_a_value():
    def f(x):
        return np.finfo(x).eps * x

    _check(f, 2.0)
    _check(f, np.float32(2.0))


@pytest.mark.parametrize("src, msg", [
    ("np.iinfo(np.float64)", r"np.iinfo\(\) needs an integer type"),
    ("np.finfo(np.int32)", r"np.finfo\(\) needs a float or complex type"),
    ("np.iinfo(np.int32).eps", "has no attribute 'eps'"),
    ("np.iinfo(np.int32, 3)", "takes 1 argument"),
])
def test_info_errors(src, msg):
    import linecache

    text = f"def g():\n    return {src}\n"
    name = f"<kiln-info-error-{abs(hash(src))}>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    ns = {"np": np}
    exec(compile(text, name, "exec"), ns)
    with pytest.raises(TypingError, match=msg) as info:
        kiln.njit(ns["g"])()
    assert info.value.line == 2 and info.value.col == 12


def test_kiln_types_still_work_in_the_interpreter():
    assert kiln.int32(3.7) == np.int32(3) and isinstance(kiln.int32(3.7), np.int32)
    assert str(kiln.float64(kiln.int64)) == "float64(int64)"


def test_info_of_builtin_types_and_strings():
    def f():
        return np.iinfo(int).max, np.finfo(float).eps, np.iinfo("int8").min, np.finfo("float32").max

    _check(f)


def test_kiln_types_module_and_alias_spellings():
    import kiln as nb
    from kiln import types as kty

    def maker(a, b):
        def f(x):
            return np.zeros(2, dtype=a) + b(x)
        return f

    _same(kiln.njit(maker(kty.float32, nb.int16))(3.5), maker(np.float32, np.int16)(3.5))
