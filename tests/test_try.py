"""try/except/else/finally, raise with run-time arguments, re-raise and raise ... from.

CPython is the oracle: each function runs interpreted and compiled with the same arguments
(``harness.check``), and the exception that comes out, if any, must have the same class and
arguments. The autouse leak check (conftest.py) asserts after every test that every array,
list and str owned when an exception was raised was released on its way to the handler.
"""

import re

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check

UnsupportedError = kiln.errors.UnsupportedError
TypingError = kiln.errors.TypingError


class AppError(Exception):
    pass


class ParseError(AppError, ValueError):
    pass


class OtherError(AppError):
    pass


# --- matching by class and hierarchy ----------------------------------------------------------

def by_class(x):
    try:
        if x == 1:
            raise ValueError("one")
        if x == 2:
            raise KeyError("two")
        if x == 3:
            raise IndexError("three")
        if x == 4:
            raise TypeError("four")
        y = 10
    except ValueError:
        y = 1
    except (KeyError, IndexError):
        y = 2
    return y


def by_base(x):
    try:
        if x == 1:
            raise IndexError
        if x == 2:
            raise KeyError("k")
        if x == 3:
            raise ZeroDivisionError("z")
        return 0
    except LookupError:
        return 1
    except ArithmeticError:
        return 2


def user_classes(x):
    try:
        if x == 1:
            raise ParseError("bad", x)
        if x == 2:
            raise OtherError("other")
        if x == 3:
            raise AppError
        return 0
    except ValueError:
        return 10  # ParseError is also a ValueError
    except AppError:
        return 20


def catch_all(x):
    r = 0
    try:
        if x > 0:
            raise OtherError("x")
        r = 1
    except:  # noqa: E722
        r = 2
    try:
        r = r * 10 // (x - 1)
    except Exception:
        r = -r
    return r


def not_caught(x):
    try:
        if x == 1:
            raise TypeError("not this one")
        if x == 2:
            raise ValueError("caught")
    except ValueError:
        return -1
    return x


@pytest.mark.parametrize("x", [0, 1, 2, 3, 4])
def test_except_by_class_and_tuple(x):
    check(by_class, x)


@pytest.mark.parametrize("x", [0, 1, 2, 3])
def test_except_matches_subclasses(x):
    check(by_base, x)
    check(user_classes, x)


@pytest.mark.parametrize("x", [0, 1, 2, 3])
def test_bare_except_and_exception(x):
    check(catch_all, x)


@pytest.mark.parametrize("x", [0, 1, 2])
def test_an_exception_that_no_clause_matches_leaves_the_function(x):
    check(not_caught, x)


# --- else and finally ---------------------------------------------------------------------------

def else_finally(x):
    y = 0
    try:
        if x > 5:
            raise ValueError("big")
        y = 10 // x
    except ZeroDivisionError:
        y = -1
    except ValueError:
        y = -2
    else:
        y += 100
    finally:
        y += 1000
    return y


def finally_reraises(x):
    t = 0
    try:
        try:
            t = 1
            if x:
                raise KeyError(x)
            t = 2
        finally:
            t += 10
    except KeyError:
        t += 100
    return t


def finally_on_return(x):
    acc = 0
    for i in range(5):
        try:
            try:
                if i == x:
                    return acc * 10 + 7
                if i == 3:
                    break
                if i == 1:
                    continue
                acc += 1
            finally:
                acc = acc * 10 + 1
        finally:
            acc = acc * 10 + 2
    return acc


def finally_return_wins(x):
    try:
        if x:
            raise ValueError("dropped")
        return 1
    finally:
        return 2  # noqa: B012


def uses_try(x):  # was tests/test_diagnostics.py's unsupported case
    y = x
    try:
        y = x + 1
    except Exception:
        y = 0
    return y


def uses_try_finally(x):
    y = x
    try:
        y = x + 1
    finally:
        y = y + 1
    return y


def finally_with_a_try_inside(x):
    acc = 0
    for i in range(4):
        try:
            if i == 1:
                continue  # runs a copy of the finally, with its try, here
            if i == x:
                return acc  # and another here
            acc += 1
        finally:
            try:
                acc += 100
            except ValueError:
                pass
            if i == x:
                return -acc  # noqa: B012
    return acc


def except_base_exception(x):
    try:
        if x:
            raise OtherError("any")
        return 0
    except BaseException:
        return 1


@pytest.mark.parametrize("x", [0, 2, 3, 9])
def test_a_try_inside_a_finally_that_exits_run_twice(x):
    check(finally_with_a_try_inside, x)


@pytest.mark.parametrize("x", [0, 1])
def test_except_base_exception(x):
    check(except_base_exception, x)


@pytest.mark.parametrize("x", [0, 2, 6])
def test_else_and_finally(x):
    check(else_finally, x)


@pytest.mark.parametrize("x", [0, 1])
def test_finally_runs_before_the_exception_goes_on(x):
    check(finally_reraises, x)


@pytest.mark.parametrize("x", [0, 1, 2, 3, 9])
def test_return_break_continue_run_the_finally_bodies(x):
    check(finally_on_return, x)


@pytest.mark.parametrize("x", [0, 1])
def test_return_in_finally_wins(x):
    check(finally_return_wins, x)


def test_the_former_unsupported_cases_compile():
    check(uses_try, 1)
    check(uses_try_finally, 1)


def nested_tries(x):
    r = 0
    try:
        try:
            if x == 1:
                raise KeyError("k")
            if x == 2:
                raise ValueError("v")
        except KeyError:
            r += 1
            if x == 1:
                raise IndexError("from the handler")
        else:
            r += 2
            if x == 0:
                raise TypeError("from else")
        finally:
            r += 10
    except (IndexError, TypeError, ValueError):
        r += 100
    return r


def try_in_finally(x):
    r = 0
    try:
        r = 1
    finally:
        try:
            if x:
                raise ValueError
        except ValueError:
            r = 5
    return r


@pytest.mark.parametrize("x", [0, 1, 2, 3])
def test_nested_tries_and_raises_in_handlers_and_else(x):
    check(nested_tries, x)


@pytest.mark.parametrize("x", [0, 1])
def test_try_inside_finally(x):
    check(try_in_finally, x)


# --- raised by the runtime and by callees -------------------------------------------------------

def str_items(n):
    out = ""
    for i in range(n):
        try:
            out += "abc"[i]
        except IndexError:
            out += "!"
    return out


def list_methods(n):
    lst = [1, 2, 3]
    tot = 0
    for i in range(n):
        try:
            tot += lst[i]
            lst.remove(i)
        except ValueError:
            tot += 100
        except IndexError:
            tot += 1000
    return tot


def key_error_reraised(k):
    d = {"a": 1, "b": 2}
    try:
        return d[k]
    except KeyError:
        raise


def int_key_error_reraised(k):
    d = {1: 1, 2: 2}
    try:
        return d[k]
    except KeyError as e:
        raise e


def comprehension_in_try(a):
    try:
        lst = [10 // v for v in a]
    except ZeroDivisionError:
        lst = [0]
    return lst


def test_a_reraised_key_error_keeps_its_key():
    check(key_error_reraised, "z")
    check(key_error_reraised, "a")
    check(int_key_error_reraised, 5)


def test_the_blocks_of_a_comprehension_are_protected():
    check(comprehension_in_try, [1, 2])
    check(comprehension_in_try, [1, 0])


def test_str_and_list_errors_are_caught():
    check(str_items, 5)
    check(list_methods, 5)


@kiln.njit
def recursive(n):
    if n == 0:
        raise ValueError("bottom", n)
    try:
        return recursive(n - 1) + 1
    except KeyError:
        return -1


@kiln.njit
def recursive_catching(n):
    if n == 0:
        raise ValueError("bottom", n)
    try:
        return recursive_catching(n - 1) + 1
    except ValueError:
        return 100


def calls_recursive(n):
    try:
        return recursive(n)
    except ValueError:
        return -5


def test_try_in_recursive_functions():
    check(calls_recursive, 4)
    check(recursive_catching.py_func, 4, cfunc=recursive_catching)

def runtime_errors(k, a, s, lst):
    d = {"a": 1}
    try:
        if k == 0:
            return a[len(a) + 1] * 1.0
        if k == 1:
            return 1.0 * d["missing"]
        if k == 2:
            return 1.0 * ord(s[100])
        if k == 3:
            return lst[10]
        if k == 4:
            return 1.0 / (k - 4)
        if k == 5:
            return 1.0 * (7 // (k - 5))
        if k == 6:
            return 1.0 * lst.pop(50)
        return 0.0
    except IndexError:
        return -1.0
    except KeyError:
        return -2.0
    except ZeroDivisionError:
        return -3.0


@pytest.mark.parametrize("k", range(8))
def test_runtime_errors_are_caught(k):
    a = np.arange(3.0)
    cf = kiln.njit(boundscheck=True)(runtime_errors)
    check(runtime_errors, k, a, "abc", [1.5, 2.5], cfunc=cf)


@kiln.njit
def callee(x):
    if x < 0:
        raise ParseError("negative", x)
    return 100 // x


@kiln.njit
def middle(x):
    return callee(x) + 1


def calls_raising(x):
    try:
        return middle(x)
    except ParseError:
        return -1
    except ZeroDivisionError:
        return -2


def test_exceptions_of_callees_are_caught():
    for x in (-3, 0, 5):
        check(calls_raising, x)


@kiln.njit
def catches_itself(x):
    try:
        return callee(x)
    except Exception:
        return -7


def calls_catching(x):
    return catches_itself(x) + 1


def test_a_callee_that_catches_returns_normally():
    for x in (-3, 0, 5):
        check(calls_catching, x, cfunc=kiln.njit(calls_catching))


# --- re-raise, as e, raise ... from -------------------------------------------------------------

def reraises(x):
    try:
        if x == 1:
            raise ParseError("p", 1)
        if x == 2:
            raise KeyError("k")
        return 0
    except ParseError:
        raise
    except KeyError as e:
        raise e


def reraise_after_nested(x):
    try:
        raise OtherError("outer", x)
    except OtherError:
        try:
            raise KeyError("inner")
        except KeyError:
            pass
        raise  # the outer exception, not KeyError


def raise_from(x):
    try:
        if x == 1:
            raise KeyError("k")
        if x == 2:
            raise IndexError(f"at {x}")
        return 0
    except (KeyError, IndexError) as e:
        if x > 0:
            raise ValueError(f"from e {x}") from e
    return 1


def raise_from_none(x):
    if x:
        raise ValueError("no context") from None
    return 0


def raise_from_constant(x):
    if x:
        raise ValueError("with cause") from KeyError("the cause")
    return 0


@pytest.mark.parametrize("x", [0, 1, 2])
def test_bare_raise_and_raise_e(x):
    check(reraises, x)


def test_bare_raise_reraises_the_clause_exception_after_a_nested_try():
    check(reraise_after_nested, 3)


def test_raise_from():
    check(raise_from, 0)
    for x in (1, 2):
        got = check(raise_from, x)
        try:
            raise_from(x)
        except ValueError as want:
            assert type(got.__cause__) is type(want.__cause__)
            assert got.__cause__.args == want.__cause__.args
    check(raise_from_none, 1)
    with pytest.raises(ValueError) as info:
        kiln.njit(raise_from_none)(1)
    assert info.value.__cause__ is None and info.value.__suppress_context__
    with pytest.raises(ValueError) as info:
        kiln.njit(raise_from_constant)(1)
    assert isinstance(info.value.__cause__, KeyError)
    assert info.value.__cause__.args == ("the cause",)


# --- raise with run-time arguments ------------------------------------------------------------

def fstring_message(x):
    if x > 2:
        raise ValueError(f"bad {x}")
    return x


def many_args(x, f, b, s):
    if x:
        raise AppError("code", x, f, b, s)
    return 0


def narrow_args(a):
    raise KeyError(a[0], a[1] > 0)


def runtime_arg_caught(n):
    total = 0
    for i in range(n):
        try:
            if i % 2:
                raise ValueError(f"odd {i}", i)
            total += i
        except ValueError:
            total -= 1
    try:
        raise KeyError("a", 1, 2, 3)  # constant: must not see the arguments caught above
    except KeyError:
        pass
    if n > 3:
        raise IndexError("constant {} message")
    return total


def test_fstring_argument():
    check(fstring_message, 1)
    check(fstring_message, 5)


def test_numbers_bools_and_strs_as_arguments():
    check(many_args, 3, 2.5, True, "s\u00e9")
    check(many_args, -(2**62), -0.0, False, "")
    check(narrow_args, np.array([7, -1], dtype=np.int8))
    check(narrow_args, np.array([2**64 - 1, 1], dtype=np.uint64))
    check(narrow_args, np.array([1.5, -2.0], dtype=np.float32))


def test_arguments_of_a_caught_exception_do_not_leak_into_the_next():
    check(runtime_arg_caught, 3)
    check(runtime_arg_caught, 6)


def array_argument(a):
    raise ValueError(a)


def test_an_array_argument_is_a_typing_error():
    with pytest.raises(TypingError, match="int, float, bool or str"):
        kiln.njit(array_argument)(np.zeros(2))


# --- no leaks on any exception path -------------------------------------------------------------

def owned_when_raised(n, k):
    out = 0.0
    for i in range(n):
        try:
            a = np.ones(i + 1)
            b = a * 2.0 + a  # temporaries owned by the block
            lst = [1.0, 2.0, float(i)]
            s = "v" + str(i)
            if i % 3 == k:
                raise ValueError(s)
            out += b.sum() + lst[2] + len(s)
            t = np.zeros(3)[i]  # IndexError once i >= 3, with boundscheck
            out += t
        except ValueError:
            out -= 1.0
        except IndexError:
            out -= 100.0
        finally:
            out += 0.5
    return out


def array_overwritten_in_handler(n):
    a = np.zeros(2)
    for i in range(n):
        try:
            a = np.full(3, float(i))
            x = a[i]
        except IndexError:
            a = np.ones(4)
            x = -1.0
        a[0] += x
    return a.sum()


@pytest.mark.parametrize("k", [0, 1, 2])
def test_no_leak_of_arrays_lists_and_strs_owned_at_the_raise(k):
    check(owned_when_raised, 7, k, cfunc=kiln.njit(boundscheck=True)(owned_when_raised))


def test_no_leak_when_the_handler_overwrites_an_array():
    check(array_overwritten_in_handler, 6,
          cfunc=kiln.njit(boundscheck=True)(array_overwritten_in_handler))


# --- passes that follow the exception edge ----------------------------------------------------

def division_in_protected_loop(a):
    k = -1
    try:
        for i in range(len(a)):
            x = 1.0 / float(a[i])
            k = i
    except ZeroDivisionError:
        return k
    return 100 + k


def divisor_after_handler(x, y):
    r = 0
    try:
        r = x // y
    except ZeroDivisionError:
        r = -1
    return r + x // y


def test_deferred_division_checks_stay_in_a_try():
    # the handler sees k of the iteration that divided by zero, not of the last one
    check(division_in_protected_loop, np.array([1.0, 2.0, 0.0, 4.0, 5.0]))
    check(division_in_protected_loop, np.array([1.0, 2.0]))


def test_a_divisor_is_not_known_nonzero_in_a_handler():
    check(divisor_after_handler, 7, 2)
    check(divisor_after_handler, 7, 0)


def while_in_try(n):
    i = 0
    try:
        while True:
            i += 1
            if i == n:
                raise StopIteration
    except StopIteration:
        pass
    return i


def test_while_loop_inside_try():
    check(while_in_try, 50)


def fully_caught(x):
    try:
        return 10 // x
    except:  # noqa: E722
        return -1


def test_a_fully_caught_raise_does_not_escape():
    check(fully_caught, 0)
    check(fully_caught, 3)
    f = kiln.njit(fully_caught)
    f(1)
    # the direct ABI (passes/raises.c): the native function returns the int itself, no status
    defines = [ln for ln in f.inspect_llvm(f.signatures[0]).splitlines() if ln.startswith("define")]
    assert re.match(r"define .*i64 @kn_fully_caught_\d+\(i64 %0\)", defines[0]), defines


# --- bad input ---------------------------------------------------------------------------------

CONTEXT = None
NOT_A_CLASS = 3


def uses_with(x):
    with CONTEXT:
        x += 1
    return x


def except_not_a_class(x):
    try:
        x += 1
    except NOT_A_CLASS:
        pass
    return x


def uses_bound_exception(x):
    try:
        x += 1
    except ValueError as e:
        len(e)  # print(e) compiles now (tests/test_gaps12.py)
    return x


def lone_bare(x):
    if x:
        raise  # nothing to re-raise here
    return x


@pytest.mark.parametrize("func, snippet, words", [
    (uses_with, "with CONTEXT:", ["with", "objmode"]),
    (except_not_a_class, "NOT_A_CLASS:", ["except", "exception classes"]),
    (uses_bound_exception, "e)", ["raise e"]),
    (lone_bare, "raise  #", ["outside an except clause"]),
], ids=lambda v: getattr(v, "__name__", None) if callable(v) else None)
def test_unsupported_forms_are_errors_at_their_position(func, snippet, words):
    with pytest.raises(UnsupportedError) as info:
        kiln.njit(func)(1)
    assert_diagnostic(info.value, UnsupportedError, func, snippet, contains=words)
