"""np.datetime64 and np.timedelta64 in compiled code: scalars and arrays with units, their
arithmetic and comparisons (NumPy's unit and NaT rules), np.isnat, the constructors, global
constants; the interpreter running the same function is the oracle. Results come back as
NumPy datetime64/timedelta64 scalars; floats, ints and bools as Python values (as Numba)."""

import numpy as np
import pytest

import kiln
from kiln.errors import TypingError

D, T = np.datetime64, np.timedelta64
START = np.datetime64("2020-01-01")
NAT = np.datetime64("NaT")


def same(got, expected):
    if isinstance(expected, (np.datetime64, np.timedelta64)):
        assert type(got) is type(expected)
        assert got.dtype == expected.dtype
        assert (np.isnat(got) and np.isnat(expected)) or got == expected
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    elif isinstance(expected, (float, np.floating)) and np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == expected


def check(fn, *args):
    expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    same(kiln.njit(fn)(*args), expected)


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


DELTAS = [T(3, "s"), T(-7, "ms"), T(2, "m"), T(1, "D"), T(3, "W"), T(5, "h"), T(0, "us"),
          T("NaT", "s"), T(14, "M"), T(2, "Y"), T(9)]
DATES = [D("2020-03-01"), D("2019-12-31T10", "h"), D("1969-07-20T20:17:40", "s"),
         D("2020-02", "M"), D("1999", "Y"), D("NaT", "D"), D("2000-01-01T00:00:00.001", "ms")]


def compatible(a, b):
    try:
        a + b if not (isinstance(a, np.datetime64) and isinstance(b, np.datetime64)) else a - b
        return True
    except TypeError:
        return False


@pytest.mark.parametrize("fn", [add, sub, mod, div, floordiv])
def test_timedelta_with_timedelta(fn):
    for a in DELTAS:
        for b in DELTAS:
            if not compatible(a, b):
                continue
            if fn in (mod, floordiv, div) and (int(b.astype("int64")) == 0 or np.isnat(b) or np.isnat(a)):
                continue  # NumPy warns; checked below
            check(fn, a, b)


@pytest.mark.parametrize("x", [3, -2, 0, True, 2.5, -0.75])
def test_timedelta_times_and_over_numbers(x):
    for a in DELTAS:
        check(mul, a, x)
        check(mul, x, a)
        if x != 0 and x is not True:
            check(div, a, x)


def test_division_by_zero_and_nat_give_nat():
    with np.errstate(all="ignore"):
        check(div, T(7, "s"), 0)
        check(div, T(7, "s"), 0.0)
        check(div, T("NaT", "s"), 2)
        check(mod, T(7, "s"), T(0, "s"))
        check(div, T("NaT", "s"), T(2, "s"))
        check(mul, T(7, "s"), float("nan"))


@pytest.mark.parametrize("fn", [add, sub])
def test_datetime_and_timedelta(fn):
    for a in DATES:
        for b in DELTAS:
            if compatible(a, b):
                check(fn, a, b)
                if fn is add:
                    check(fn, b, a)


def test_datetime_minus_datetime():
    for a in DATES:
        for b in DATES:
            if compatible(a, b):
                check(sub, a, b)


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def ge(a, b):
    return a >= b


@pytest.mark.parametrize("fn", [lt, le, eq, ne, ge])
def test_comparisons_with_units_and_nat(fn):
    for group in (DATES, DELTAS):
        for a in group:
            for b in group:
                if compatible(a, b) if group is DATES else compatible(a, b):
                    check(fn, a, b)


def test_unary_and_isnat():
    def neg(a):
        return -a

    def pos(a):
        return +a

    def isnat(a):
        return np.isnat(a)

    for a in DELTAS:
        check(neg, a)
        check(pos, a)
        check(isnat, a)
    for a in DATES:
        check(isnat, a)


def test_constructors_and_globals():
    def make(n):
        return np.timedelta64(n, "h") + np.timedelta64(3, "m")

    def date(n):
        return np.datetime64(n, "D")

    def nat():
        return np.timedelta64("NaT", "s")

    def since(x):
        return x - START

    def missing():
        return NAT

    for n in (0, 5, -3):
        check(make, n)
        check(date, n)
    check(nat)
    check(since, D("2021-03-04T05:06", "m"))
    check(missing)


def test_arrays_of_datetimes():
    def total(a, x):
        s = np.timedelta64(0, "s")
        for i in range(len(a)):
            if not np.isnat(a[i]):
                s += a[i] - x
        return s

    def store(a, x):
        a[0] = x
        a[1] = a[2] + np.timedelta64(1, "h")
        return a

    def view(a):
        return a[::2]

    a = np.array(["2020-01-01", "NaT", "2020-02-01T12:00", "2021-01-01"], dtype="M8[s]")
    check(total, a, D("2019-12-31T23:59", "m"))
    check(store, a.copy(), D("2019-12-31T23:59", "m"))
    check(view, a)
    check(view, np.array([1, 2, 3, 4, 5], dtype="m8[us]"))
    check(view, np.array([], dtype="M8[D]"))


def test_unit_mismatch_is_a_typing_error():
    with pytest.raises(TypingError, match="incompatible nonlinear base time units"):
        kiln.njit(add)(T(1, "Y"), T(1, "D"))
    with pytest.raises(TypingError, match="unsupported operand"):
        kiln.njit(add)(D("2020-01-01"), D("2020-01-02"))
    with pytest.raises(TypingError, match="unsupported operand"):
        kiln.njit(mul)(T(1, "s"), T(1, "s"))

    def bad_unit(n):
        return np.timedelta64(n, "fortnight")

    with pytest.raises(TypingError, match="unit of np.timedelta64"):
        kiln.njit(bad_unit)(3)


def test_multiple_units_are_refused():
    with pytest.raises(TypeError, match="one unit"):
        kiln.njit(add)(T(1, "10s"), T(1, "s"))


def test_datetime_fields_of_records():
    dt = np.dtype([("t", "M8[s]"), ("d", "m8[ms]"), ("x", "f8")])
    a = np.zeros(3, dt)
    a["t"] = np.array(["2020-01-01", "NaT", "2021-06-01T12:00"], dtype="M8[s]")
    a["d"] = np.array([1500, -20, 7], dtype="m8[ms]")

    def shift(a):
        for i in range(len(a)):
            a[i]["t"] = a[i]["t"] + a[i]["d"] * 2
        return a["t"]

    def first(a):
        return a[0]["t"] - START

    check(shift, a.copy())
    check(first, a)


def test_print_datetimes(capsys):
    def f(x, y):
        print(x, y)

    kiln.njit(f)(T(3, "s"), D("2020-01-02", "D"))
    assert capsys.readouterr().out == "3 seconds 2020-01-02\n"


def test_unsupported_forms_are_typing_errors():
    a = np.array([1, 2, 3], dtype="m8[s]")
    for fn in (lambda x: x - x, lambda x: x.sum(), lambda x: np.sort(x), lambda x: abs(x[0])):
        with pytest.raises(TypingError):
            kiln.njit(fn)(a)
