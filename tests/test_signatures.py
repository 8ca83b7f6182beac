"""Eager signatures (issue 10): array types in strings and objects, tuples, void, Numba's scalar
aliases, optional(); and the conversions the dispatcher makes once signatures are given, as
Numba's makes them (its casting table, unsafe conversions allowed, the best-rated signature, an
ambiguous choice a TypeError). The oracle is the interpreter on the converted argument."""

import numpy as np
import pytest

import kiln
from kiln import types as kt


def first(a):
    return a[0]


def total(a):
    return a.sum()


def ident(x):
    return x


def scale(a, k):
    return a * k


# --- strings and objects ------------------------------------------------------------------------

@pytest.mark.parametrize("sig, arg", [
    ("float64(float64[:])", np.arange(5.0)),
    ("float64(float64[::1])", np.arange(5.0)),
    ("float64(float64[:, ::1])", np.ones((2, 3))),
    ("float64(float64[::1, :])", np.asfortranarray(np.ones((2, 3)))),
    ("int64(int32[:, :, :])", np.ones((2, 3, 2), np.int32)),
    ("float64(float64[:])", np.arange(10.0)[::3]),  # a strided array where 'A' is declared
    ("float64(float64[:, :])", np.ones((3, 4))[:, ::2]),
    ("f8(f8[:])", np.ones(3)),
    ("double(double[:])", np.ones(3)),
    ("float64(Array(float64, 1, 'C', readonly=True))", np.ones(3)),
    ("float64(Array(float64, 2, 'A'))", np.ones((2, 2))),
])
def test_array_signatures(sig, arg):
    disp = kiln.njit(sig)(total)
    assert disp(arg) == total(arg)
    assert len(disp.signatures) == 1


def test_array_result_signature():
    disp = kiln.njit("float64[:](float64[:], int64)")(scale)
    a = np.arange(4.0)
    np.testing.assert_array_equal(disp(a, 3), scale(a, 3))


def test_array_signature_objects():
    disp = kiln.njit(kiln.float64[:](kiln.float64[:], kiln.int64))(scale)
    a = np.arange(3.0)
    np.testing.assert_array_equal(disp(a, 2), scale(a, 2))
    assert str(kiln.float64[:](kiln.float64[:], kiln.int64)) == (
        "array(float64, 1d, A)(array(float64, 1d, A), int64)")


def test_array_type_objects():
    ro = kt.Array(kiln.float64, 2, "C", readonly=True)
    disp = kiln.njit(kiln.float64(ro))(total)
    a = np.ones((2, 3))
    a.flags.writeable = False
    assert disp(a) == 6.0
    assert disp(np.ones((2, 3))) == 6.0  # a writable array may be read through a read-only type
    assert kiln.njit(kiln.float64(kiln.float64[:, ::1]))(total)(np.ones((2, 2))) == 4.0


def test_readonly_array_is_not_writable_in_compiled_code():
    def put(a):
        a[0] = 1.0
        return 0

    with pytest.raises(kiln.errors.TypingError):
        kiln.njit("int64(Array(float64, 1, 'C', readonly=True))")(put)


def test_void_and_tuples():
    def fill(a):
        a[:] = 2.0

    a = np.zeros(3)
    disp = kiln.njit("void(float64[:])")(fill)
    assert disp(a) is None and (a == 2.0).all()
    assert kiln.njit("int64(UniTuple(int64, 3))")(first)((4, 5, 6)) == 4
    assert kiln.njit("float64(Tuple(float64, int64))")(first)((1.5, 2)) == 1.5
    assert kiln.njit(kiln.void(kt.UniTuple(kiln.int64, 2)))(lambda t: None)((1, 2)) is None


@pytest.mark.parametrize("name", [
    "intp", "uintp", "intc", "uintc", "int_", "uint", "float_", "double", "boolean", "bool_",
    "byte", "char", "uchar", "short", "ushort", "long_", "ulong", "longlong", "ulonglong",
    "ssize_t", "size_t", "np_intc", "np_float_", "np_double", "py_int", "py_float", "c_intp",
    "np_longlong", "c_uint8", "b1", "i1", "u8", "f4", "c16",
])
def test_numba_scalar_aliases(name):
    t = getattr(kt, name)
    sig = kt.parse_signature(f"{name}({name})")
    assert sig.args == (t,) and sig.return_type == t
    # the width NumPy gives the C type of the same name
    np_names = {"intc": "intc", "uintc": "uintc", "short": "short", "ushort": "ushort",
                "longlong": "longlong", "ulonglong": "ulonglong", "intp": "intp",
                "uintp": "uintp", "double": "double", "byte": "uint8", "char": "int8"}
    if name in np_names:
        assert t.key == np.dtype(getattr(np, np_names[name])).name
    value = True if t.key == "bool" else 3
    assert kiln.njit(sig)(ident)(value) == ident(value)


def test_float16_by_name():
    # float16 was refused by name before kiln had the dtype; now every Numba spelling parses
    for name in ("float16", "f2", "np_float16", "c_float16"):
        sig = kt.parse_signature(f"{name}({name})")
        assert sig.args[0].key == "float16" and sig.return_type.key == "float16"
    f = kiln.njit("float16(float16)")(lambda x: x * 2)
    assert f(np.float16(1.5)) == np.float16(3.0)


def test_optional_in_a_signature_takes_none_and_the_value():
    assert kt.optional(kiln.float64) == kt.Optional(kiln.float64)
    assert kt.parse_signature("float64(optional(float64))").args == (kt.Optional(kiln.float64),)

    def f(x):
        if x is None:
            return -1.0
        return x * 2.0

    cf = kiln.njit("float64(optional(float64))")(f)
    for v in (None, 2.5, -0.5):
        assert cf(v) == f(v)
    assert len(cf.signatures) == 1



def test_optional_in_a_signature_converts_a_value_as_its_type():
    # Numba's Optional.can_convert_from: None promotes, a value converts as to the optional's
    # type (an int to float64 here), at best safely
    def f(x):
        if x is None:
            return -1.0
        return x * 2.0

    cf = kiln.njit("float64(optional(float64))")(f)
    assert cf(3) == f(3.0) and cf(None) == f(None)
    assert len(cf.signatures) == 1


@pytest.mark.parametrize("text", [
    "f8(Array(f8, 1, 'X'))", "f8(Array(f8, x, 'C'))", "f8(Array(f8, 1, 'C', mutable=True))",
    "f8(Array(f8, 1, 'C', aligned=False))", "f8(ListType())", "f8(DictType(int64))", "f8('C)",
])
def test_bad_signature_strings(text):
    with pytest.raises(TypeError, match="invalid signature"):
        kt.parse_signature(text)


def test_container_signatures_parse():
    assert kt.parse_signature("void(ListType(int64))").args == (kt.ListType(kiln.int64),)
    assert kt.parse_signature("f8(DictType(unicode_type, f8))").args == (
        kt.DictType(kt.unicode_type, kiln.float64),)


# --- conversions at dispatch --------------------------------------------------------------------

def _wrap(v, bits, signed):
    v %= 1 << bits
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


@pytest.mark.parametrize("sig, arg, expected", [
    ("float64(float64)", 3, 3.0),
    ("int64(int64)", 2.75, 2),  # a float truncates, as Numba's unboxing does
    ("int64(int64)", -2.75, -2),
    ("int64(int64)", np.float32(2.5), 2),
    ("int32(int32)", 5, 5),
    ("int32(int32)", 2**40 + 7, _wrap(2**40 + 7, 32, True)),  # wraps, as in Numba
    ("uint8(uint8)", 300, _wrap(300, 8, False)),
    ("bool(bool)", 3, True),
    ("float32(float32)", 1.5, 1.5),
    ("complex128(complex128)", 2.0, 2 + 0j),
    ("int64(int64)", True, 1),
    ("int64(intc)", 3, 3),
    ("float64(UniTuple(float64, 2))", (1, 2), 1.0),
    ("int64(UniTuple(int64, 2))", (1.9, 2.0), 1),
])
def test_conversions_at_dispatch(sig, arg, expected):
    fn = first if "Tuple" in sig else ident
    got = kiln.njit(sig)(fn)(arg)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("sig, arg", [
    ("float64(float64)", 1j),  # a complex never becomes a real
    ("float64(float64[:])", np.ones(3, np.float32)),  # arrays keep their dtype
    ("float64(float64[::1])", np.ones(6)[::2]),  # and a C array its contiguity
    ("float64(float64[:])", np.ones((2, 2))),
    ("float64(float64[:])", [1.0, 2.0]),
    ("float64(float64[:])", 1.0),
])
def test_no_conversion_at_dispatch(sig, arg):
    disp = kiln.njit(sig)(first if "[" in sig else ident)
    with pytest.raises(TypeError, match="No matching definition"):
        disp(arg)


def test_readonly_array_does_not_reach_a_writable_signature():
    a = np.ones(3)
    a.flags.writeable = False
    with pytest.raises(TypeError, match="No matching definition"):
        kiln.njit("float64(float64[:])")(total)(a)


@pytest.mark.parametrize("sigs, arg, expected", [
    (["int64(int64)", "float64(float64)"], np.int32(3), 3),  # promote beats safe
    (["int64(int64)", "float64(float64)"], np.float32(1.5), 1.5),
    (["int64(int64)", "float64(float64)"], np.uint64(3), 3.0),  # safe beats unsafe
    (["int8(int8)", "float64(float64)"], 5, 5.0),
    (["int64(int64)", "complex128(complex128)"], 2.5, 2.5 + 0j),
    (["int16(int16)", "float32(float32)"], np.int8(1), 1),
    (["uint64(uint64)", "int64(int64)"], np.uint32(3), 3),
])
def test_best_signature_is_chosen(sigs, arg, expected):
    got = kiln.njit(sigs)(ident)(arg)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("sigs, arg", [
    (["int64(int64)", "float64(float64)"], True),
    (["int32(int32)", "int16(int16)"], 5),
    (["float32(float32)", "int32(int32)"], 2.5),
])
def test_ambiguous_signatures_are_a_type_error(sigs, arg):
    with pytest.raises(TypeError, match=r"Ambiguous overloading for ident"):
        kiln.njit(sigs)(ident)(arg)


def test_compiled_caller_converts_to_the_callee_signature():
    callee = kiln.njit("int64(int64)")(ident)

    @kiln.njit
    def caller(x):
        return callee(x) + 1

    assert caller(2.75) == int(2.75) + 1
    amb = kiln.njit(["int32(int32)", "int16(int16)"])(ident)

    @kiln.njit
    def caller2(x):
        return amb(x)

    with pytest.raises(kiln.errors.TypingError, match="Ambiguous overloading"):
        caller2(5)
