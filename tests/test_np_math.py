"""NumPy's math ufuncs beyond the arithmetic ones (lib/numpy.def rule npmath: fabs, copysign,
the bitwise, logical and comparison ufuncs, divmod/frexp/modf, round) and the helpers of
kiln/lib/mathfuncs.py (isclose, allclose, array_equal, array_equiv, nan_to_num, real_if_close,
unwrap), through kiln.njit with NumPy as the oracle.

Each ufunc runs on arrays of every dtype NumPy accepts (and is refused, as a TypingError at the
argument, where NumPy has no loop), with NaN, infinities and signed zeros among the floats,
broadcasting, out= and scalars. Floats are compared with a tolerance where NumPy's results
come from libm or SIMD loops that differ by CPU (transcendental functions); exact elsewhere.
Where NumPy's result is float16 (bool and 8-bit ints into a float ufunc) kiln's is float16 too
(computed in float32 and rounded, as NumPy's loops): exact where the ufunc is, else within a
float16 ulp of NumPy's (its SIMD float32 functions differ from libm's by CPU).
"""

import warnings

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

TypingError = kiln.errors.TypingError

DTYPES = ["?", "i1", "u1", "i2", "i4", "i8", "u2", "u8", "f4", "f8", "c8", "c16"]
EXACT = {"square", "reciprocal", "conjugate", "conj", "positive", "invert", "bitwise_not",
         "logical_not", "fix", "signbit", "fabs", "spacing", "copysign", "fmod", "nextafter",
         "ldexp", "gcd", "lcm", "heaviside", "bitwise_and", "bitwise_or", "bitwise_xor",
         "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor", "greater",
         "greater_equal", "less", "less_equal", "equal", "not_equal", "mod", "divmod"}


def values(d, n=9, seed=0):
    rng = np.random.default_rng(seed)
    d = np.dtype(d)
    if d.kind == "b":
        return rng.random(n) > 0.5
    if d.kind in "iu":
        lo = 0 if d.kind == "u" else -20
        return rng.integers(lo, 20, n).astype(d)
    if d.kind == "c":
        re = rng.standard_normal(n) * 3
        im = rng.standard_normal(n) * 3
        re[:3] = [0.0, np.inf, np.nan]
        return (re + 1j * im).astype(d)
    v = rng.standard_normal(n) * 4
    v[:5] = [0.0, -0.0, np.inf, -np.inf, np.nan]
    return v.astype(d)


def expect(func, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return func(*args)
        except TypeError:
            return None


def compare(got, want, name, f32=False):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            compare(g, w, name, f32)
        return
    if not isinstance(got, np.ndarray) and np.ndim(want) == 0:  # a scalar: its value
        assert got == want or (got != got and want != want), (name, got, want)
        return
    want = np.asarray(want)
    got_a = np.asarray(got)
    if want.dtype == np.float16:  # float16 as NumPy: exact, or within a float16 ulp
        assert got_a.dtype == np.float16, (name, got_a.dtype)
        if name in EXACT:
            np.testing.assert_array_equal(got_a, want)
        else:
            np.testing.assert_allclose(got_a.astype(np.float32), want.astype(np.float32),
                                       rtol=2e-3, atol=1e-3, equal_nan=True)
        return
    assert got_a.dtype == want.dtype, (name, got_a.dtype, want.dtype)
    assert got_a.shape == want.shape
    if (name in EXACT and want.dtype.kind != "c") or want.dtype.kind in "biu":
        np.testing.assert_array_equal(got_a, want)
    else:
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got_a, want, rtol=rtol, atol=1e-300, equal_nan=True)


def u_fabs(a):
    return np.fabs(a)

def u_deg2rad(a):
    return np.deg2rad(a)

def u_rad2deg(a):
    return np.rad2deg(a)

def u_degrees(a):
    return np.degrees(a)

def u_radians(a):
    return np.radians(a)

def u_cbrt(a):
    return np.cbrt(a)

def u_square(a):
    return np.square(a)

def u_reciprocal(a):
    return np.reciprocal(a)

def u_exp2(a):
    return np.exp2(a)

def u_spacing(a):
    return np.spacing(a)

def u_signbit(a):
    return np.signbit(a)

def u_conjugate(a):
    return np.conjugate(a)

def u_conj(a):
    return np.conj(a)

def u_positive(a):
    return np.positive(a)

def u_invert(a):
    return np.invert(a)

def u_bitwise_not(a):
    return np.bitwise_not(a)

def u_logical_not(a):
    return np.logical_not(a)

def u_sinc(a):
    return np.sinc(a)

def u_i0(a):
    return np.i0(a)

def u_fix(a):
    return np.fix(a)

def u_angle(a):
    return np.angle(a)

def b_copysign(a, b):
    return np.copysign(a, b)

def b_fmod(a, b):
    return np.fmod(a, b)

def b_logaddexp(a, b):
    return np.logaddexp(a, b)

def b_logaddexp2(a, b):
    return np.logaddexp2(a, b)

def b_nextafter(a, b):
    return np.nextafter(a, b)

def b_ldexp(a, b):
    return np.ldexp(a, b)

def b_gcd(a, b):
    return np.gcd(a, b)

def b_lcm(a, b):
    return np.lcm(a, b)

def b_heaviside(a, b):
    return np.heaviside(a, b)

def b_float_power(a, b):
    return np.float_power(a, b)

def b_bitwise_and(a, b):
    return np.bitwise_and(a, b)

def b_bitwise_or(a, b):
    return np.bitwise_or(a, b)

def b_bitwise_xor(a, b):
    return np.bitwise_xor(a, b)

def b_left_shift(a, b):
    return np.left_shift(a, b)

def b_right_shift(a, b):
    return np.right_shift(a, b)

def b_logical_and(a, b):
    return np.logical_and(a, b)

def b_logical_or(a, b):
    return np.logical_or(a, b)

def b_logical_xor(a, b):
    return np.logical_xor(a, b)

def b_greater(a, b):
    return np.greater(a, b)

def b_greater_equal(a, b):
    return np.greater_equal(a, b)

def b_less(a, b):
    return np.less(a, b)

def b_less_equal(a, b):
    return np.less_equal(a, b)

def b_equal(a, b):
    return np.equal(a, b)

def b_not_equal(a, b):
    return np.not_equal(a, b)

def b_mod(a, b):
    return np.mod(a, b)

def b_true_divide(a, b):
    return np.true_divide(a, b)

def b_divmod(a, b):
    return np.divmod(a, b)

UNARY = {"fabs": u_fabs, "deg2rad": u_deg2rad, "rad2deg": u_rad2deg, "degrees": u_degrees, "radians": u_radians, "cbrt": u_cbrt, "square": u_square, "reciprocal": u_reciprocal, "exp2": u_exp2, "spacing": u_spacing, "signbit": u_signbit, "conjugate": u_conjugate, "conj": u_conj, "positive": u_positive, "invert": u_invert, "bitwise_not": u_bitwise_not, "logical_not": u_logical_not, "sinc": u_sinc, "i0": u_i0, "fix": u_fix, "angle": u_angle}
BINARY = {"copysign": b_copysign, "fmod": b_fmod, "logaddexp": b_logaddexp, "logaddexp2": b_logaddexp2, "nextafter": b_nextafter, "ldexp": b_ldexp, "gcd": b_gcd, "lcm": b_lcm, "heaviside": b_heaviside, "float_power": b_float_power, "bitwise_and": b_bitwise_and, "bitwise_or": b_bitwise_or, "bitwise_xor": b_bitwise_xor, "left_shift": b_left_shift, "right_shift": b_right_shift, "logical_and": b_logical_and, "logical_or": b_logical_or, "logical_xor": b_logical_xor, "greater": b_greater, "greater_equal": b_greater_equal, "less": b_less, "less_equal": b_less_equal, "equal": b_equal, "not_equal": b_not_equal, "mod": b_mod, "true_divide": b_true_divide, "divmod": b_divmod}


@pytest.mark.parametrize("d", DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ufunc(name, d):
    a = values(d)
    if name == "reciprocal" and a.dtype.kind in "iu":
        a[a == 0] = 1  # NumPy's integer 1 / 0 is undefined (its result differs by dtype)
    want = expect(getattr(np, name), a)
    f = kiln.njit(UNARY[name])
    if want is None or name in ("sinc", "exp2") and a.dtype.kind == "c":
        with pytest.raises(TypingError):
            f(a)
        return
    compare(f(a), want, name)


@pytest.mark.parametrize("d", DTYPES)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ufunc(name, d):
    a = values(d, seed=1)
    b = values(d, seed=2)[::-1].copy()
    if name == "ldexp":
        b = np.arange(-4, 5)
    if name in ("left_shift", "right_shift") and a.dtype.kind in "iu":
        b = np.array([0, 1, 3, 7, 8, 15, 63, 64, -1]).astype(a.dtype)
    want = expect(getattr(np, name), a, b)
    f = kiln.njit(BINARY[name])
    if want is None:
        with pytest.raises(TypingError):
            f(a, b)
        return
    compare(f(a, b), want, name)


@pytest.mark.parametrize("name", ["copysign", "logaddexp", "greater", "bitwise_and", "gcd",
                                  "heaviside", "fmod", "logical_or", "divmod"])
def test_binary_broadcast_and_mixed(name):
    a = np.arange(-6, 6).reshape(3, 4)
    b = np.array([1, -2, 3, 5])
    compare(kiln.njit(BINARY[name])(a, b), expect(getattr(np, name), a, b), name)
    af = a.astype(np.float32)[:, ::2]
    compare(kiln.njit(BINARY[name])(af, 3) if name not in ("bitwise_and", "gcd") else
            kiln.njit(BINARY[name])(a[:, ::2], 3),
            expect(getattr(np, name), af if name not in ("bitwise_and", "gcd") else a[:, ::2], 3),
            name)


@pytest.mark.parametrize("name", ["fabs", "cbrt", "signbit", "square", "invert", "i0", "sinc",
                                  "angle", "fix", "exp2", "spacing"])
def test_unary_scalars(name):
    f = kiln.njit(UNARY[name])
    for x in (3, -2.5, 0.0, True):
        if name == "invert" and isinstance(x, float):
            continue
        want = expect(getattr(np, name), x)
        got = f(x)
        if isinstance(x, float):
            compare(got, want, name)
        assert bool(np.isscalar(got)) or np.ndim(got) == 0


def test_binary_scalars():
    assert kiln.njit(b_gcd)(12, 18) == np.gcd(12, 18)
    assert kiln.njit(b_lcm)(4, 6) == np.lcm(4, 6)
    assert kiln.njit(b_copysign)(2.0, -0.0) == np.copysign(2.0, -0.0)
    assert kiln.njit(b_greater)(3, 2.5) is True
    assert kiln.njit(b_divmod)(7.5, 2) == tuple(np.divmod(7.5, 2))
    assert kiln.njit(b_divmod)(-7, 2) == tuple(np.divmod(-7, 2))
    assert kiln.njit(b_logical_xor)(1, 0.0) is True


def frexp_modf(a):
    m, e = np.frexp(a)
    f, i = np.modf(a)
    return m, e, f, i


@pytest.mark.parametrize("d", ["?", "i1", "i2", "i8", "f4", "f8"])
def test_frexp_modf(d):
    a = values(d)
    want = expect(frexp_modf, a)
    compare(kiln.njit(frexp_modf)(a), want, "frexp")
    compare(kiln.njit(frexp_modf)(a.reshape(3, 3).T), expect(frexp_modf, a.reshape(3, 3).T),
            "frexp")
    compare(kiln.njit(frexp_modf)(2.75), expect(frexp_modf, 2.75), "frexp")


def ufunc_out(a, b, o):
    np.copysign(a, b, out=o)
    np.logaddexp(o, b, out=o)
    return o


def bool_out(a, b, o):
    np.greater(a, b, out=o)
    return o


def test_out():
    a = np.linspace(-3, 3, 12).reshape(3, 4)
    b = np.array([1.0, -1.0, 2.0, -0.0])
    o = np.empty((3, 4))
    compare(kiln.njit(ufunc_out)(a, b, o.copy()), ufunc_out(a, b, o.copy()), "logaddexp")
    ob = np.zeros((3, 4), np.bool_)
    compare(kiln.njit(bool_out)(a, b, ob.copy()), bool_out(a, b, ob.copy()), "greater")
    of = np.zeros((3, 4))  # a bool result stored into float64 (same_kind allows it)
    compare(kiln.njit(bool_out)(a, b, of.copy()), bool_out(a, b, of.copy()), "greater")


def fused(a, b):
    return np.copysign(np.fabs(a), b) + np.deg2rad(a) * np.square(b) - np.logaddexp(a, b) \
        + np.where(np.greater(a, b), np.cbrt(a), np.exp2(b))


def test_fused_expression():
    a = np.linspace(-3, 3, 30).reshape(5, 6)
    b = np.linspace(2, -2, 6)
    compare(kiln.njit(fused)(a, b), fused(a, b), "fused")
    compare(kiln.njit(fused)(a.T, b[:5]), fused(a.T, b[:5]), "fused")


def rounds(a):
    return np.round(a), np.round(a, 2), np.around(a, -1), np.round(a, decimals=1)


def round_method(a):
    return a.round(), a.round(1), a.round(decimals=-1)


@pytest.mark.parametrize("d", ["i1", "u1", "i8", "f4", "f8", "c16"])
def test_round(d):
    a = (np.array([1.25, 2.5, -13.75, 155.0, 0.5, -0.5, 15.0, 25.0, 149.0]) *
         (1 if np.dtype(d).kind in "fc" else 1)).astype(d)
    if np.dtype(d).kind == "u":
        a = np.array([15, 25, 250, 0, 5, 6, 149, 150, 151], dtype=d)
    for fn in (rounds, round_method):
        compare(kiln.njit(fn)(a), fn(a), "round")
    assert kiln.njit(rounds)(2.675) == rounds(2.675)


def round_out(a, o):
    np.round(a, 1, out=o)
    return o


def test_round_out():
    a = np.linspace(-2, 2, 7)
    compare(kiln.njit(round_out)(a, np.empty(7)), round_out(a, np.empty(7)), "round")


def conjs(z):
    return z.conj(), z.conjugate(), np.conj(z), np.conjugate(z)


@pytest.mark.parametrize("d", ["i8", "f8", "c8", "c16"])
def test_conj_methods(d):
    z = values(d).reshape(3, 3)[:, ::2]
    compare(kiln.njit(conjs)(z), conjs(z), "conjugate")


def test_aliases():
    a = np.array([5, -7, 9])
    b = np.array([3, 2, -4])
    compare(kiln.njit(b_mod)(a, b), np.mod(a, b), "mod")
    compare(kiln.njit(b_true_divide)(a, b), np.true_divide(a, b), "true_divide")
    compare(kiln.njit(u_bitwise_not)(a), np.bitwise_not(a), "bitwise_not")


def test_comparisons_with_python_ints():
    a = np.array([0, 100, 255], dtype=np.uint8)
    for n in ("greater", "less_equal", "equal", "not_equal"):
        compare(kiln.njit(BINARY[n])(a, 300), getattr(np, n)(a, 300), n)
        compare(kiln.njit(BINARY[n])(a, -1), getattr(np, n)(a, -1), n)


def test_empty_arrays():
    e = np.empty((0, 3))
    compare(kiln.njit(b_logaddexp)(e, e), np.logaddexp(e, e), "logaddexp")
    compare(kiln.njit(u_fabs)(e), np.fabs(e), "fabs")
    compare(kiln.njit(frexp_modf)(e), frexp_modf(e), "frexp")


# ---- bad input -------------------------------------------------------------------------------


def bad_gcd(arr):
    return np.gcd(arr, 2)


def bad_shift(arr):
    return np.left_shift(1, arr)


def bad_ldexp(arr):
    return np.ldexp(arr, 1.5)


def bad_fabs(arr):
    return np.fabs(arr)


def bad_round(arr, d):
    return np.round(arr, d)


def bad_frexp(arr):
    return np.frexp(arr)


def bad_angle(z):
    return np.angle(z, True)


@pytest.mark.parametrize("func, arg, snippet, words", [
    (bad_gcd, np.ones(3), "arr, 2", ["integer arrays and scalars", "float64"]),
    (bad_shift, np.ones(3), "arr)\n", ["integer or bool", "float64"]),
    (bad_ldexp, np.ones(3), "1.5", ["integer exponents"]),
    (bad_fabs, np.ones(3, np.complex128), "arr)\n", ["bool, integer or float", "complex128"]),
    (bad_frexp, np.ones(3, np.complex128), "arr)\n", ["bool, integer or float"]),
    (bad_angle, np.ones(3, np.complex128), "True", ["180/pi"]),
])
def test_bad_arguments(func, arg, snippet, words):
    with pytest.raises(TypingError) as info:
        kiln.njit(func)(arg)
    assert_diagnostic(info.value, TypingError, func, snippet, contains=words)


def test_bad_round_decimals():
    with pytest.raises(TypingError) as info:
        kiln.njit(bad_round)(np.ones(3), 2)
    assert_diagnostic(info.value, TypingError, bad_round, "d)\n", contains=["constant integer"])


def test_broadcast_error():
    with pytest.raises(ValueError):
        kiln.njit(b_copysign)(np.ones(3), np.ones(4))


# ---- kiln/lib/mathfuncs.py -------------------------------------------------------------------


def closes(a, b):
    return (np.isclose(a, b), np.isclose(a, b, equal_nan=True),
            np.isclose(a, b, rtol=0.1, atol=0.0), np.allclose(a, b),
            np.allclose(a, b, equal_nan=True), np.allclose(a, b, 1e-3, 1e-3))


SPECIAL = np.array([1.0, np.nan, np.inf, -np.inf, 1e-9, 100.0, -0.0, 5.0])
OTHER = np.array([1.0 + 1e-9, np.nan, np.inf, np.inf, 0.0, 101.0, 0.0, np.nan])
MIXED = SPECIAL.astype(np.complex128)
MIXED.imag = OTHER


@pytest.mark.parametrize("a, b", [
    (SPECIAL, OTHER), (SPECIAL, SPECIAL), (SPECIAL.astype(np.float32), 1.0),
    (np.arange(6).reshape(2, 3), np.array([0, 1, 2])), (1.0, 1.0 + 1e-9), (2, 3),
    (SPECIAL + 1j, OTHER + 1j), (np.array([], np.float64), np.array([], np.float64)),
])
def test_isclose_allclose(a, b):
    got = kiln.njit(closes)(a, b)
    want = closes(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert np.asarray(g).dtype == np.asarray(w).dtype


def equals(a, b):
    return np.array_equal(a, b), np.array_equal(a, b, equal_nan=True), np.array_equiv(a, b)


@pytest.mark.parametrize("a, b", [
    (SPECIAL, SPECIAL), (SPECIAL, OTHER), (np.ones((2, 3)), np.ones(3)),
    (np.ones(3), np.ones(4)), (np.arange(3), np.arange(3.0)), (np.ones((2, 3)), np.ones((3, 2))),
    (np.ones((2, 3)), 1.0), (np.empty(0), np.empty(0)), (2.0, 2),
])
def test_array_equal_equiv(a, b):
    assert kiln.njit(equals)(a, b) == equals(a, b)


def nan_to_nums(x):
    return np.nan_to_num(x), np.nan_to_num(x, nan=-1.0, posinf=9.0, neginf=-9.0), \
        np.nan_to_num(x, posinf=1e300)


def nan_to_nums_nocopy(x):
    return (np.nan_to_num(x, copy=False, neginf=-1.0),)


@pytest.mark.parametrize("x", [SPECIAL, SPECIAL.astype(np.float32), np.arange(4),
                               np.array([True, False]), SPECIAL.reshape(2, 4).T,
                               MIXED, np.nan, -np.inf, 3.0])
def test_nan_to_num(x):
    got = kiln.njit(nan_to_nums)(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's posinf=1e300 into float32 overflows
        want = nan_to_nums(x)
    if isinstance(x, np.ndarray):
        got += kiln.njit(nan_to_nums_nocopy)(x)
        want += nan_to_nums_nocopy(x.copy())
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert np.asarray(g).dtype == np.asarray(w).dtype


def real_if(a):
    return np.real_if_close(a)


def test_real_if_close():
    a = np.arange(4.0)
    np.testing.assert_array_equal(kiln.njit(real_if)(a), np.real_if_close(a))
    with pytest.raises(TypingError) as info:
        kiln.njit(real_if)(a + 1j)
    assert_diagnostic(info.value, TypingError, real_if, "np.real_if_close(a)",
                      contains=["real or complex"])


def unwraps(p):
    return np.unwrap(p), np.unwrap(p, discont=4.0), np.unwrap(p, period=6.0)


@pytest.mark.parametrize("p", [
    np.cumsum(np.linspace(0, 1.5, 20)) % (2 * np.pi), np.array([0, 7, 14, 3]),
    np.array([0.0, np.pi, 0.0, -np.pi, 2 * np.pi]), np.array([1.0]), np.empty(0),
    np.linspace(0, 30, 40)[::-3],
])
def test_unwrap(p):
    for g, w in zip(kiln.njit(unwraps)(p), unwraps(p)):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def bad_isclose(a):
    return np.isclose(a, "x")


def bad_unwrap(a):
    return np.unwrap(a)


def test_helpers_bad_input():
    with pytest.raises(TypingError) as info:
        kiln.njit(bad_isclose)(np.ones(2))
    assert "array or a scalar of numbers" in str(info.value)
    with pytest.raises(TypingError) as info:
        kiln.njit(bad_unwrap)(np.ones((2, 2)))
    assert "1-D array" in str(info.value)
