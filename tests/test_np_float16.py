"""float16 arrays and np.float16 scalars in compiled code, with NumPy 2 as the oracle: storage
and boxing (arguments, results, views, layouts), conversions, arithmetic (computed in float32
and rounded to float16 once, as NumPy's 'e' loops), the result dtypes of mixed operations
(f16 + f16 -> f16, f16 + int8 -> f16, f16 + int16 -> f32, np.sin(int8) -> f16), reductions
(sum/prod/mean add in float32, as NumPy's), comparisons, astype and creation with
dtype=np.float16 / 'f2' / 'e'. Values are exact where NumPy's are (the arithmetic operators,
conversions, nextafter/spacing, reductions of values whose float32 sums are exact); the
transcendental functions within a float16 ulp (NumPy's SIMD float32 functions differ from
libm's by CPU). Scalars come back as Python floats, as float32 ones do.
"""

import math
import warnings

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic

TypingError = kiln.errors.TypingError

A = np.array([1.5, 2.25, -0.5, 3.0, 0.1, 100.0, -0.0, 65504.0, 6e-8, -7.25], np.float16)
B = np.array([0.1, 1.0, 1.0, 3.0, 7.0, -2.0, 5.0, 2.0, 1e-4, 0.5], np.float16)
SPECIAL = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 65504, -65504, 6e-8], np.float16)


def numpy(func, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return func(*args)


def kilned(func, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return kiln.njit(func)(*args)


def same(got, want, exact=True):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, exact)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), got
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        assert got.shape == want.shape
        if exact:
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32),
                                       rtol=2e-3, atol=1e-3, equal_nan=True)
        return
    # a scalar: kiln gives a Python float for a float16 (as for float32), of the same value
    if isinstance(want, np.floating):
        assert isinstance(got, float), type(got)
        w = float(want)
        assert (got == w or (math.isnan(got) and math.isnan(w))) if exact else \
            math.isclose(got, w, rel_tol=2e-3, abs_tol=1e-3), (got, w)
        return
    assert got == want, (got, want)


def check(func, *args, exact=True):
    same(kilned(func, *args), numpy(func, *args), exact)


# ---- storage, boxing, conversions ---------------------------------------------------------------

def ident(a):
    return a


def getitem(a, i):
    return a[i]


def setitem(a, v):
    a[1] = v
    a[2] = 7
    return a


def test_float16_array_round_trips_and_is_the_same_object():
    a = A.copy()
    r = kiln.njit(ident)(a)
    assert r is a


@pytest.mark.parametrize("i", [0, 4, 7, 8, -1])
def test_getitem_gives_the_value(i):
    check(getitem, A, i)


@pytest.mark.parametrize("v", [0.1, 3, 1e6, -1e-9, np.float16(2.5), np.float32(0.3)])
def test_setitem_rounds_to_float16_as_numpy(v):
    check(setitem, A.copy(), v)


def views(a):
    return a[1:7:2], a[::-1], a.reshape(2, 5).T, a.reshape(2, 5)[:, 1]


def test_views_and_layouts():
    check(views, A)
    f = np.asfortranarray(A.reshape(2, 5))
    check(lambda x: np.sqrt(np.abs(x)) + x, f, exact=False)
    check(lambda x: x * 2 - x[::-1], A[::2])


def scalar_arg(x, y):
    return x * y, x + y, x - y, x / y, -x


def test_np_float16_scalar_arguments():
    x, y = np.float16(1.5), np.float16(0.1)
    check(scalar_arg, x, y)
    assert kiln.typeof(x) == kiln.types.float16


def make_scalar(v):
    return np.float16(v)


@pytest.mark.parametrize("v", [0.1, 65504.0, 65520.0, 70000, -3, 1e-8, 3e-5, True])
def test_np_float16_constructor_rounds_as_numpy(v):
    check(make_scalar, v)


def conversions(a):
    return (a.astype(np.float32), a.astype(np.float64), a.astype(np.int32), a.astype(np.int8),
            a.astype(np.bool_), a.astype(np.float16), a.astype("f2"), a.astype("float16"))


def test_astype_to_and_from_float16():
    b = np.array([1.5, 2.75, -3.25, 0.0, 100.0, -0.0], np.float16)
    check(conversions, b)
    for src in [np.arange(-5, 5, dtype=np.int64) * 7919, np.linspace(-7e4, 7e4, 11),
                np.array([0.1, 1 / 3, 2049, 2051, 1e-7], np.float32)]:
        check(lambda x: x.astype(np.float16), src)


def scalar_casts(a):
    return int(a[0]), float(a[4]), bool(a[6]), np.float32(a[4]), np.int16(a[5])


def test_scalar_casts():
    check(scalar_casts, A)


# ---- arithmetic and result dtypes -----------------------------------------------------------------

def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def power(a, b):
    return a ** b


BINOPS = [add, sub, mul, div, floordiv, mod]


@pytest.mark.parametrize("op", BINOPS, ids=lambda f: f.__name__)
def test_operators_are_exact(op):
    check(op, A, B)
    check(op, SPECIAL, SPECIAL[::-1].copy())


def test_power():
    check(power, np.abs(A), np.array([2, 0.5, 3, 1, 2, 1, 0, 1, 2, 2], np.float16), exact=False)


@pytest.mark.parametrize("other", ["?", "i1", "u1", "i2", "u2", "i4", "i8", "f2", "f4", "f8",
                                   "c8", "c16"])
@pytest.mark.parametrize("op", [add, mul, div], ids=lambda f: f.__name__)
def test_mixed_dtypes_promote_as_numpy(op, other):
    b = (np.arange(1, 11) % 3 + 1).astype(other)
    exact = not (op is div and other[0] == "c")  # complex division: kiln's own algorithm
    check(op, A, b, exact=exact)
    check(op, b, A, exact=exact)


@pytest.mark.parametrize("scalar", [1, 2.5, True])
def test_python_scalars_are_weak(scalar):
    check(add, A, scalar)
    check(mul, scalar, A)


def inplace(a, b):
    a += b
    a *= 2
    a -= 1
    return a


def test_inplace_operators():
    check(inplace, A.copy(), B)


def compare_ops(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b


def test_comparisons():
    check(compare_ops, A, B)
    check(compare_ops, SPECIAL, SPECIAL[::-1].copy())
    check(compare_ops, A, 1.5)


def scalar_math(x, y):
    return x * y + x, x < y, x == y, max(x, y), abs(-x)


def test_scalar_arithmetic_on_elements():
    check(scalar_math, A[0], A[1])


# ---- ufuncs ---------------------------------------------------------------------------------------

EXACT_UNARY = ["negative", "absolute", "fabs", "floor", "ceil", "trunc", "rint", "sign",
               "square", "spacing", "signbit", "isnan", "isinf", "isfinite", "positive"]
FLOAT_UNARY = ["sqrt", "exp", "log", "sin", "cos", "tan", "arctan", "tanh", "log1p", "expm1",
               "exp2", "log2", "log10", "cbrt", "deg2rad", "reciprocal", "arcsinh"]


def _unary(name):
    src = f"def u_{name}(a):\n    return np.{name}(a)\n"
    ns = {"np": np}
    exec(compile(src, f"<float16 {name}>", "exec"), ns)
    import linecache
    linecache.cache[f"<float16 {name}>"] = (len(src), None, src.splitlines(True), src)
    return ns[f"u_{name}"]


@pytest.mark.parametrize("name", EXACT_UNARY + FLOAT_UNARY)
def test_unary_ufuncs_of_float16(name):
    f = _unary(name)
    check(f, A, exact=name in EXACT_UNARY)
    check(f, SPECIAL, exact=name in EXACT_UNARY)


@pytest.mark.parametrize("dtype", ["?", "i1", "u1", "i2", "u2"])
@pytest.mark.parametrize("name", ["sqrt", "sin", "exp", "log", "cbrt", "fabs", "spacing",
                                  "deg2rad"])
def test_small_int_ufuncs_give_numpys_float16_and_float32(name, dtype):
    """NumPy 2: bool and 8-bit ints compute in float16, 16-bit ints in float32."""
    a = (np.arange(12) - 4).astype(dtype) if dtype[0] == "i" else np.arange(12).astype(dtype)
    f = _unary(name)
    got, want = kilned(f, a), numpy(f, a)
    assert got.dtype == want.dtype
    same(got, want, exact=name in ("fabs", "spacing"))


def binary_ufuncs(a, b):
    return (np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b),
            np.copysign(a, b), np.nextafter(a, b), np.fmod(a, b), np.hypot(a, b),
            np.arctan2(a, b), np.logaddexp(a, b))


def test_binary_ufuncs():
    got, want = kilned(binary_ufuncs, A, B), numpy(binary_ufuncs, A, B)
    same(got[:7], want[:7])  # exact
    same(got[7:], want[7:], exact=False)
    got, want = kilned(binary_ufuncs, SPECIAL, B[:8].copy()), numpy(binary_ufuncs, SPECIAL,
                                                                    B[:8].copy())
    same(got[:7], want[:7])


def nextafter_edges(a):
    return np.nextafter(a, np.float16(np.inf)), np.nextafter(a, np.float16(-np.inf)), \
        np.nextafter(a, np.float16(0)), np.spacing(a)


def test_nextafter_and_spacing_step_by_a_float16_ulp():
    check(nextafter_edges, SPECIAL)
    check(nextafter_edges, A)


def two_outputs(a):
    return np.frexp(a), np.modf(a), np.divmod(a, np.float16(0.75))


def test_frexp_modf_divmod():
    check(two_outputs, A)


def where_clip(a, b):
    return np.where(a > b, a, b), np.clip(a, np.float16(-1), np.float16(2)), np.round(a, 1)


def test_where_clip_round():
    check(where_clip, A, B)


# ---- reductions -----------------------------------------------------------------------------------

INTS = np.array([1, 2, 3, 4, 5, -6, 7, 8, 9, 10, 11, -12], np.float16)


def reductions(a):
    return a.sum(), np.prod(a[:6]), a.min(), a.max(), a.mean(), a.argmin(), a.argmax(), \
        np.any(a), np.all(a)


def test_reductions_add_in_float32_and_round_once():
    check(reductions, INTS)
    check(reductions, A)  # 65504 + 100 stays finite: float32 accumulation, as NumPy
    check(lambda a: np.sum(a), np.full(3000, 1.0, np.float16))  # past float16's 2048


def axis_reductions(a):
    m = a.reshape(3, 4)
    return m.sum(axis=0), m.sum(axis=1), m.mean(axis=1), m.max(axis=0), np.cumsum(a), \
        np.cumprod(a[:5])


def test_axis_reductions_and_scans():
    check(axis_reductions, INTS)


def stats(a):
    return a.var(), a.std(), np.nansum(a), np.ptp(a)


def test_statistics():
    got, want = kilned(stats, INTS), numpy(stats, INTS)
    same(got, want, exact=False)


def products(a, b):
    return np.dot(a, b), a.reshape(2, 5) @ b.reshape(5, 2)


def test_products_accumulate_in_float32():
    a = np.arange(10, dtype=np.float16) * np.float16(0.5)
    check(products, a, a[::-1].copy())


# ---- creation --------------------------------------------------------------------------------------

def creation(n):
    return (np.zeros(n, np.float16), np.ones(n, dtype="f2"), np.full(n, 0.1, np.float16),
            np.empty(n, "e").shape, np.arange(n, dtype=np.float16),
            np.zeros((2, n), dtype="float16"), np.full_like(np.zeros(n, np.float16), 2.5),
            np.array([1.0, 0.1], dtype=np.float16), np.zeros(n, np.half))


def test_creation_with_float16_dtypes():
    check(creation, 4)


def test_finfo_of_float16():
    def info():
        f = np.finfo(np.float16)
        return f.eps, f.max, f.min, f.tiny, f.resolution, f.precision, f.bits, f.nmant, \
            f.maxexp, f.minexp, f.smallest_subnormal, f.epsneg
    got, want = kiln.njit(info)(), info()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == w, (g, w)


# ---- other places that take a float16 ------------------------------------------------------------

def hashing(a):
    d = {a[0]: 1, a[1]: 2}
    s = {a[0], a[0], a[2]}
    return d[a[0]], d[a[1]], len(s), hash(a[0])


def test_float16_as_dict_key_and_set_item():
    check(hashing, A)


def printing(a):
    print(a[0], a[4], a[7])


def test_print_shows_numpys_digits(capsys):
    kiln.njit(printing)(A)
    out = capsys.readouterr().out
    printing(A)
    assert out == capsys.readouterr().out


def loop_sum(a):
    s = np.float16(0)
    for x in a:
        s += x
    return s


def test_loop_over_float16_elements():
    check(loop_sum, INTS)


def test_signature_with_float16():
    f = kiln.njit("float16[:](float16[:], float16)")(lambda a, x: a * x)
    same(f(A, np.float16(0.5)), A * np.float16(0.5))


def sort_it(a):
    return np.sort(a)


def test_sorting_float16_is_a_clear_error():
    with pytest.raises(TypingError) as e:
        kiln.njit(sort_it)(A)
    assert_diagnostic(e.value, TypingError, sort_it, "a)", nth=2,
                      contains=("float16 arrays is not supported", "astype(np.float32)"))


def test_no_leaks_with_float16_temporaries():
    for _ in range(3):
        check(lambda a, b: np.sin(a) * b + a.sum(), A, B, exact=False)
