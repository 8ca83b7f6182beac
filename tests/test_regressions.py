"""Regressions found while building kiln, and nogil. Each test names what went wrong."""

import threading

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
