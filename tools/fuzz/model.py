"""kiln's scalar semantics, computed in Python: the interpreted side of the comparison.

CPython is the oracle, except where kiln is *specified* to differ (README "What works now",
docs/internals.md): Python ints are int64 and wrap around; NumPy scalars keep their dtype, and
scalar arithmetic follows Numba's promotion (int8 + int8 is int64, uint64 + int64 is int64,
float32 stays float32 with small ints); math functions outside their domain return NumPy's
nan or inf instead of raising; every scalar is weak in an array operation. This module
computes those rules with exact Python arithmetic followed by a wrap to the result type, so
that a difference is kiln's bug, not a rule. Where no rule says what must happen (an int too
big for int64 appearing in CPython, a float converted to an int out of range), it raises
``Undefined`` and the run is compared only with itself (deterministic, no crash).

The entry points are the ``fz_*`` functions that oracle.py's rewritten function calls in place
of operators, conversions and calls.
"""

import math
import operator
import warnings

import numpy as np


class Undefined(Exception):
    """The program reached behaviour that kiln leaves unspecified."""


INT_RANGE = {f"int{b}": (-2 ** (b - 1), 2 ** (b - 1) - 1) for b in (8, 16, 32, 64)}
INT_RANGE.update({f"uint{b}": (0, 2 ** b - 1) for b in (8, 16, 32, 64)})
PY_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
          "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
          ">": operator.gt, ">=": operator.ge}
CMP = {"<", "<=", "==", "!=", ">", ">="}


# ---- types of scalar values ---------------------------------------------------------------------

def ktype(x):
    """kiln's type name of a scalar value (Python ints arrive as int64)."""
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, int):
        if not INT_RANGE["int64"][0] <= x <= INT_RANGE["int64"][1]:
            raise Undefined("a Python int outside int64")
        return "int64"
    if isinstance(x, float):
        return "float64"
    if isinstance(x, complex):
        return "complex128"
    if isinstance(x, np.generic):
        if x.dtype == np.float16:
            raise Undefined("float16 (kiln has none)")
        return x.dtype.name
    raise TypeError(f"not a number: {type(x).__name__}")


def kind(t):
    return "b" if t == "bool" else t[0] if t[0] in "fc" else "u" if t[0] == "u" else "i"


def bits(t):
    return int("".join(ch for ch in t if ch.isdigit()) or 1)


def promote(a, b):
    """kiln's (Numba's) scalar promotion, as kn_type_promote in src/types/types.c."""
    ka, kb = kind(a), kind(b)
    if ka in "biu" and kb in "biu":
        sa = ka != "u"
        sb = kb != "u"
        return "int64" if sa or sb else "uint64"
    if "c" in (ka, kb):
        small = all(not ((kind(t) == "c" and bits(t) != 64) or (kind(t) == "f" and bits(t) != 32)
                         or (kind(t) in "iu" and bits(t) > 16)) for t in (a, b))
        return "complex64" if small else "complex128"
    if ka == "f" and kb == "f":
        return "float32" if a == b == "float32" else "float64"
    f, i = (a, b) if ka == "f" else (b, a)
    return "float32" if f == "float32" and (kind(i) == "b" or bits(i) <= 16) else "float64"


def wrap(x, t):
    lo, hi = INT_RANGE[t]
    return (x - lo) % (hi - lo + 1) + lo


def make(x, t):
    """A NumPy scalar of type ``t`` holding ``x`` (an int already wrapped)."""
    if t == "bool":
        return bool(x)
    return np.dtype(t).type(x)


def as_int(x):
    return int(x)


# ---- binary operators on scalars ----------------------------------------------------------------

def int_binop(op, x, y, t):
    if op in ("//", "%") and y == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    if op == "**":
        if y < 0:
            raise ValueError("Integers to negative integer powers are not allowed.")
        return wrap(pow(x, y, 2 ** 64), t)
    if op in ("<<", ">>"):
        if y < 0:
            if t == "uint64":
                raise Undefined("negative shift count of an unsigned value")
            raise ValueError("negative shift count")
        if y >= 64:
            return 0 if op == "<<" or x >= 0 else -1
        return wrap(x << y if op == "<<" else x >> y, t)
    return wrap(PY_OPS[op](x, y), t)


def float_binop(op, x, y, t, int_exponent=False):
    ty = np.dtype(t).type
    x, y = ty(x), ty(y)
    with np.errstate(all="ignore"):
        if op in ("/", "//", "%") and y == 0:
            raise ZeroDivisionError("float division by zero")
        if op == "**":
            if x == 0 and y < 0 and int_exponent:  # CPython and Numba
                raise ZeroDivisionError("0.0 cannot be raised to a negative power")
            # a float exponent: inf for 0.0 ** -1.0 and on overflow, nan for a negative base,
            # as Numba (CPython raises or returns a complex)
            return np.power(x, y)
        if op == "//":
            return np.floor_divide(x, y)
        if op == "%":
            return np.remainder(x, y)
        return PY_OPS[op](x, y)


def complex_binop(op, x, y, t):
    if op in ("//", "%", "&", "|", "^", "<<", ">>"):
        raise TypeError(f"unsupported operand for complex: {op}")
    x, y = complex(x), complex(y)
    if op == "/" and y == 0:
        raise ZeroDivisionError("complex division by zero")
    if op == "**" and x == 0 and (y.real < 0 or y.imag != 0):
        raise ZeroDivisionError("zero to a negative or complex power")
    if t == "complex128":
        try:
            return PY_OPS[op](x, y)
        except OverflowError:
            raise Undefined("complex overflow") from None
        except ZeroDivisionError:
            if op == "**" and x != 0:  # libm's errno from cos(inf): kiln gives nan, as Numba
                return complex(math.nan, math.nan)
            raise
    with np.errstate(all="ignore"):
        return PY_OPS[op](np.complex64(x), np.complex64(y))


def scalar_binop(op, a, b):
    ta, tb = ktype(a), ktype(b)
    if op in ("&", "|", "^") and ta == tb == "bool":
        return bool(PY_OPS[op](bool(a), bool(b)))
    t = promote(ta, tb)
    if op in ("<<", ">>"):
        if kind(ta) not in "biu" or kind(tb) not in "biu":
            raise TypeError("shift of a non-integer")
        t = "uint64" if kind(ta) == "u" else "int64"
    if op in ("&", "|", "^") and kind(t) not in "iu":
        raise TypeError("bitwise operator on a non-integer")
    if op == "**" and ta == "float32" and kind(tb) in "biu":
        t = "float32"
    if op == "/" and kind(t) in "iu":
        t = "float64"
    k = kind(t)
    if k in "iu":
        return make(int_binop(op, wrap(as_int(a), t), wrap(as_int(b), t), t), t)
    if k == "f":
        return make(float_binop(op, float(a), float(b), t, kind(tb) in "biu"), t)
    return make(complex_binop(op, a, b, t), t)


def scalar_compare(op, a, b):
    ta, tb = ktype(a), ktype(b)
    t = promote(ta, tb)
    if kind(t) == "c":
        if op not in ("==", "!="):
            raise TypeError("ordering of complex numbers")
        return PY_OPS[op](complex(a), complex(b))
    if kind(t) in "iu":  # exact, as CPython (kiln compares int64 with uint64 by value)
        return PY_OPS[op](as_int(a), as_int(b))
    ty = np.dtype(t).type
    return bool(PY_OPS[op](ty(a), ty(b)))


# ---- arrays with scalars: every scalar is weak --------------------------------------------------

def weak(x, other, literal):
    """``x`` as the Python scalar kiln treats it as, next to the array ``other``."""
    if isinstance(x, np.ndarray) or not isinstance(x, (int, float, complex, np.generic)):
        return x
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, int) and not isinstance(x, bool):
        ktype(x)  # beyond int64: undefined
    if (isinstance(x, int) and not isinstance(x, bool) and not literal
            and other.dtype.kind in "iu"):
        lo, hi = INT_RANGE[other.dtype.name]
        if not lo <= x <= hi:
            raise Undefined("a weak int scalar variable outside the array's dtype")
    return x


KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def scalar_dtype(x):
    """The dtype kiln types a scalar as: Python int, float, complex as int64, float64,
    complex128; a NumPy scalar as its own."""
    if isinstance(x, np.generic):
        return x.dtype
    return np.dtype({bool: "bool", int: "int64", float: "float64", complex: "complex128"}[type(x)])


def higher_kind_target(x, other):
    """The dtype of `other op x` when the scalar x is of a higher kind than the array: x's own
    type, except that a complex scalar with a float array gives the array's precision; None
    when x is of the array's kind or a lower one (then it is weak)."""
    if isinstance(x, np.ndarray) or not isinstance(x, (bool, int, float, complex, np.generic)):
        return None
    d = scalar_dtype(x)
    if KIND_RANK[d.kind] <= KIND_RANK[other.dtype.kind]:
        return None
    if d.kind == "c" and other.dtype.kind == "f":
        return np.dtype("complex64" if other.dtype == np.float32 else "complex128")
    return d


def with_scalar_rule(args, arr):
    """Arguments of an operation between the array `arr` and scalars, converted so that NumPy
    computes in kiln's result dtype: a higher-kind scalar casts every operand to its target."""
    targets = [t for t in (higher_kind_target(a, arr) for a in args) if t is not None]
    if targets:
        t = max(targets, key=lambda d: KIND_RANK[d.kind])
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [a.astype(t) if isinstance(a, np.ndarray) else t.type(a) for a in args]
    return [weak(a, arr, False) if not isinstance(a, np.ndarray) else a for a in args]


def check_array(r):
    """An elementwise result: no float16, and a 0-d array stays a 0-d array (NumPy gives a
    scalar; kiln, as Numba, keeps the array)."""
    if isinstance(r, (np.ndarray, np.generic)) and r.dtype == np.float16:
        raise Undefined("float16 result (kiln computes in float32)")
    if isinstance(r, np.generic):
        return np.asarray(r)
    return r


def array_binop(op, a, b, alit, blit):
    if (op == "**" and blit == "constant" and isinstance(a, np.ndarray) and a.dtype == np.bool_
            and type(b) is int and b == 2):
        # bools ** 2 (a bare constant): NumPy's np.square shortcut, int8, as kiln (which does
        # not fold `1 + 1` before typing: that one is int64, the int's type)
        return check_array(np.square(a))
    arr = a if isinstance(a, np.ndarray) else b
    other = b if arr is a else a
    if not isinstance(other, np.ndarray) and higher_kind_target(other, arr) is not None:
        a, b = with_scalar_rule([a, b], arr)
    else:
        if isinstance(a, np.ndarray):
            b = weak(b, a, blit)
        if isinstance(b, np.ndarray):
            a = weak(a, b, alit)
    func = np.power if op == "**" else PY_OPS[op]  # a ** 0 is not NumPy's power loop
    with np.errstate(all="ignore", invalid="warn"):
        return check_array(func(a, b))


# ---- entry points used by the rewritten function -------------------------------------------------

def fz_bin(op, a, b, alit=False, blit=False):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return array_binop(op, a, b, alit, blit)
    if op in CMP:
        return scalar_compare(op, a, b)
    return scalar_binop(op, a, b)


def fz_unary(op, x):
    if isinstance(x, np.ndarray):
        with np.errstate(all="ignore"):
            return check_array({"-": operator.neg, "+": operator.pos, "~": operator.invert,
                                "not": operator.not_}[op](x))
    if op == "not":
        return not x
    t = ktype(x)
    if kind(t) in "biu":
        r = "uint64" if kind(t) == "u" else "int64"
        v = {"-": operator.neg, "+": operator.pos, "~": operator.invert}[op](int(x))
        return make(wrap(v, r), r)
    if op == "~":
        raise TypeError("bad operand type for unary ~")
    return -x if op == "-" else x


def fz_aug(op, target, value, vlit=False):
    """``target op= value``: in place on an array of the result's ndim, else a new value."""
    if isinstance(target, np.ndarray) and not target.flags.writeable:
        return fz_bin(op, target, value, False, vlit)
    if isinstance(target, np.ndarray):
        value = weak(value, target, vlit)
        if np.ndim(value) > target.ndim:
            return fz_bin(op, target, value, False, vlit)
        with np.errstate(all="ignore", invalid="warn"):
            return check_array(_inplace(op, target, value))
    return fz_bin(op, target, value, False, vlit)


def unifies_to_float(a, b):
    """kiln's (Numba's) unification of two scalar types is float64 for uint64 and a signed int
    (kn_type_unify): a variable or `x if c else y` holding both is a float64."""
    try:
        ta, tb = ktype(a), ktype(b)
    except (TypeError, Undefined):
        return False
    return "uint64" in (ta, tb) and any(kind(t) == "i" for t in (ta, tb))


def fz_scalar_aug(op, target, value, vlit=False):
    """``name op= value`` for a scalar name: the variable's type unifies the old and the new."""
    r = fz_aug(op, target, value, vlit)
    if not isinstance(target, np.ndarray) and unifies_to_float(target, r):
        raise Undefined("a variable unifies uint64 and a signed int (float64 in kiln)")
    return r


def fz_ifexp(test, body, orelse):
    """``x if c else y``: kiln types it as the unification of both branches, so a uint64 with a
    signed int is a float64, which the model does not compute (the other branch is evaluated
    only for its type: the generator's expressions have no side effects)."""
    taken, other = (body, orelse) if test else (orelse, body)
    v = taken()
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w = other()
    except Exception:  # noqa: BLE001 - its type is unknown then
        return v
    if unifies_to_float(v, w):
        raise Undefined("x if c else y unifies uint64 and a signed int (float64 in kiln)")
    return v


def fz_full(name, literal, *args, **kw):
    """np.full / np.full_like: an int64 fill value (kiln takes it as a Python int) must fit an
    integer dtype (NumPy 2's OverflowError; docs/internals.md "Python ints that do not fit")."""
    fill = args[1]
    dt = kw.get("dtype", args[2] if len(args) > 2 else None)
    if dt is None:
        dt = args[0].dtype if name == "full_like" else np.asarray(fill).dtype
    dt = np.dtype(dt)
    if (isinstance(fill, (int, np.int64)) and not isinstance(fill, bool)
            and dt.kind in "iu"):
        v = int(fill)
        ktype(v)
        lo, hi = INT_RANGE[dt.name]
        if not lo <= v <= hi:
            if name == "full":
                np.empty(args[0], dt)  # a bad shape or size raises first, as in NumPy
            if literal or type(fill) is int:  # np.int64: maybe an element read from an array
                raise OverflowError(f"Python integer {v} out of bounds for {dt.name}")
            raise Undefined("an int64 fill value outside the dtype (Python int or array element)")
    with np.errstate(all="ignore"):
        return getattr(np, name)(*args, **kw)


def _inplace(op, target, value):
    iops = {"+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
            "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow,
            "&": operator.iand, "|": operator.ior, "^": operator.ixor, "<<": operator.ilshift,
            ">>": operator.irshift}
    return iops[op](target, value)


def fz_setitem(a, index, value, vlit=False):
    """``a[index] = value``: a cast, as kiln's store (Python ints, literals too, are int64 and
    wrap, as in Numba, where NumPy 2 raises OverflowError: docs/internals.md, "Array rules"),
    Undefined for a float stored into ints out of range."""
    if isinstance(a, np.ndarray):
        if isinstance(value, int) and not isinstance(value, bool):
            ktype(value)  # beyond int64: undefined
            value = np.int64(value)
        if isinstance(value, np.integer) and a.dtype.kind in "iu":
            value = make(wrap(int(value), a.dtype.name), a.dtype.name)  # a cast, not NumPy's
            # OverflowError for a NumPy int out of range (kiln cannot know the value)
        if isinstance(value, np.ndarray):
            if a.dtype.kind in "iu" and value.dtype.kind in "fc":
                unsafe_float_to_int(np.ravel(value), a.dtype)
        elif a.dtype.kind in "iu" and isinstance(value, (float, complex, np.inexact)):
            unsafe_float_to_int([value], a.dtype)
    with np.errstate(all="ignore", invalid="warn"):
        a[index] = value


def unsafe_float_to_int(values, dtype):
    """Raise Undefined if a float (or complex) value does not fit the int ``dtype``."""
    if dtype.kind == "b":
        return
    lo, hi = INT_RANGE[dtype.name]
    for v in values:
        r = complex(v).real
        if not (math.isfinite(r) and lo - 1 < r < hi + 1):
            raise Undefined(f"float {r!r} converted to {dtype} out of range")


def fz_astype(a, dtype):
    dt = np.dtype(dtype)
    if isinstance(a, np.ndarray) and a.dtype.kind in "fc" and dt.kind in "iu":
        unsafe_float_to_int(np.ravel(a), dt)
    if dt == np.float16:
        raise Undefined("float16")
    with np.errstate(all="ignore"):
        return a.astype(dtype)


def fz_cast(name, x):
    """``np.int8(x)`` and the other scalar constructors: a cast, wrapping ints."""
    if isinstance(x, np.ndarray):
        return getattr(np, name)(x)
    t = np.dtype(name).name
    k = kind(t)
    if k in "iu":
        if isinstance(x, (complex, np.complexfloating)):
            raise TypeError("complex to int")
        if isinstance(x, (float, np.floating)):
            unsafe_float_to_int([x], np.dtype(t))
            return make(wrap(int(float(x)), t), t)
        return make(wrap(int(x), t), t)
    if k == "f" and isinstance(x, (complex, np.complexfloating)):
        raise TypeError("complex to float")
    with np.errstate(all="ignore"):
        return np.dtype(t).type(x)


def to_int(x):
    """int(x) of a float, as CPython, refusing results outside int64."""
    if isinstance(x, (complex, np.complexfloating)):
        raise TypeError("int() of a complex")
    if isinstance(x, (float, np.floating)):
        v = float(x)
        if math.isnan(v):
            raise ValueError("cannot convert float NaN to integer")
        if math.isinf(v):
            raise OverflowError("cannot convert float infinity to integer")
        v = int(v)
        if not -2 ** 63 <= v < 2 ** 63:  # CPython makes a big int; kiln has none
            raise OverflowError("float too large to convert to a 64-bit integer")
    else:
        v = int(x)
    ktype(v)
    return v


ARRAY_BUILTINS = {"abs": np.abs, "min": min, "max": max, "int": int, "float": float,
                  "bool": bool, "complex": complex, "round": round, "pow": pow,
                  "divmod": divmod}


def fz_call(name, *args):
    """The builtins int float bool complex abs round min max pow divmod."""
    if any(isinstance(a, np.ndarray) for a in args):
        return ARRAY_BUILTINS[name](*args)
    if name == "int":
        return make(to_int(args[0]), "int64")
    if name == "float":
        if isinstance(args[0], (complex, np.complexfloating)):
            raise TypeError("float() of a complex")
        return float(args[0])
    if name == "bool":
        return bool(args[0])
    if name == "complex":
        return complex(*[complex(a) if isinstance(a, np.complexfloating) else a for a in args])
    if name == "abs":
        return builtin_abs(args[0])
    if name == "round":
        return builtin_round(*args)
    if name in ("min", "max"):
        t = promote(ktype(args[0]), ktype(args[1]))
        vals = [convert(a, t) for a in args]
        return (min if name == "min" else max)(*vals)
    if name == "pow":
        return scalar_binop("**", *args)
    if name == "divmod":
        return scalar_binop("//", *args), scalar_binop("%", *args)
    raise AssertionError(name)


def convert(x, t):
    if kind(t) in "iu":
        return make(wrap(int(x), t), t)
    if kind(t) == "b":
        return bool(x)
    return np.dtype(t).type(x)


def builtin_abs(x):
    t = ktype(x)
    if kind(t) == "b":
        return make(int(x), "int64")
    if kind(t) in "iu":
        return make(wrap(abs(int(x)), t), t)
    return abs(x)


def builtin_round(x, nd=None):
    if nd is None:
        if isinstance(x, (complex, np.complexfloating)):
            raise TypeError("round of a complex")
        if isinstance(x, (float, np.floating)):
            v = float(x)
            if not math.isfinite(v):
                return make(to_int(v), "int64")
            return make(to_int(round(v)), "int64")
        return make(wrap(int(x), "int64"), "int64")
    return round(x, int(nd))


MATH_TO_INT = {"floor", "ceil", "trunc"}
MATH_TO_BOOL = {"isnan", "isinf", "isfinite"}
MATH_NUMPY = {"sqrt": np.sqrt, "log": np.log, "log1p": np.log1p, "exp": np.exp,
              "expm1": np.expm1, "sin": np.sin, "cos": np.cos, "pow": np.power,
              "fmod": np.fmod, "atan2": np.arctan2, "hypot": np.hypot}


def fz_math(name, *args):
    """math.<name>: CPython's value, NumPy's nan/inf where CPython raises (as in Numba)."""
    types = [ktype(a) for a in args]
    if any(kind(t) == "c" for t in types):
        raise TypeError("math function of a complex")
    if name in MATH_TO_INT:
        return make(to_int(getattr(math, name)(float(args[0]))), "int64")
    if name in MATH_TO_BOOL:
        return getattr(math, name)(float(args[0]))
    t = "float64"
    if all(kind(x) == "f" for x in types):
        t = types[0]
        for other in types[1:]:
            t = promote(t, other)
    vals = [float(a) for a in args]
    try:
        r = getattr(math, name)(*vals)
    except (ValueError, OverflowError):
        if name not in MATH_NUMPY:
            raise Undefined(f"math.{name} outside its domain") from None
        with np.errstate(all="ignore"):
            r = float(MATH_NUMPY[name](*vals))
    return np.dtype(t).type(r)


def fz_ufunc(name, *args):
    """np.<name> with kiln's weak scalars next to arrays, and no float16."""
    func = getattr(np, name)
    arr = next((a for a in args if isinstance(a, np.ndarray)), None)
    arrays = sum(isinstance(a, np.ndarray) for a in args)
    if arr is not None and arrays == 1 and (len(args) == 2 or name == "clip"):
        args = with_scalar_rule(args, arr)  # a binary ufunc or np.clip of an array and scalars
    elif arr is not None:
        args = [weak(a, arr, False) for a in args]
    with np.errstate(all="ignore", invalid="warn"):
        r = func(*args)
    if arr is None:
        if isinstance(r, np.generic) and r.dtype == np.float16:
            raise Undefined("float16 result (kiln computes in float32)")
        return r
    return check_array(r)
