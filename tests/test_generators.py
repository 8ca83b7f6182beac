"""Generators and generator expressions (issue 10).

A jitted generator function called from the interpreter returns a kiln.generator, an iterator
over a resumable frame (src/lower/generators.c, src/dispatch/box_generator.c). kiln inlines a generator made and consumed in one jitted function into its consumer
(src/frontend/generators.c): `for x in gen(...)`, `enumerate`/`zip` (the generator first) of one,
and sum/min/max/any/all/list/sorted/set of one. The interpreter is the oracle: each consumer
runs compiled, and interpreted with every jitted function in its globals replaced by its
Python function (``interp``), and the results must be equal. A generator that escapes, and
the forms kiln does not inline (try in a generator, yield from, send()), are errors at their
position. The leak fixture (conftest.py) checks that a generator left half consumed (break,
return, an exception) holds no reference.
"""

import types

import numpy as np
import pytest

import kiln
from kiln.errors import TypingError, UnsupportedError

from harness import assert_diagnostic, same

njit = kiln.njit


def interp(f, *args):
    """Run a jitted function's Python function with its jitted callees interpreted too (the
    generators among them are Python generators then)."""
    py = f.py_func
    g = dict(py.__globals__)

    def plain(p):
        return types.FunctionType(p.__code__, g, p.__name__, p.__defaults__, p.__closure__)

    for k, v in py.__globals__.items():
        if isinstance(v, type(f)):
            g[k] = plain(v.py_func)
    return plain(py)(*args)


def check(f, *args):
    want = interp(f, *args)
    got = f(*args)
    if isinstance(want, np.ndarray):
        assert np.array_equal(got, want) and got.dtype == want.dtype
        return
    if isinstance(want, list) and want and isinstance(want[0], np.ndarray):
        assert len(got) == len(want) and all(np.array_equal(a, b) for a, b in zip(got, want))
        return
    assert same(got, want) or got == want, (got, want)


# --- generator functions -------------------------------------------------------------------

@njit
def squares(n):
    i = 0
    while i < n:
        yield i * i
        i += 1


@njit
def two_per_step(n):
    for i in range(n):
        yield i
        if i % 3 == 0:
            continue
        yield -i


@njit
def until_negative(a):
    for x in a:
        if x < 0:
            return
        yield x


@njit
def stepped(n, step=2, scale=1.5):
    for i in range(0, n, step):
        yield i * scale


@njit
def use_squares_control(n):
    s = 0
    for x in squares(n):
        if x == 9:
            continue
        if x > 50:
            break
        s += x
    else:
        s = -s
    return s


@njit
def use_squares_else(n):
    s = 0
    for x in squares(n):
        s += x
    else:
        s += 1000
    return s


@njit
def use_two_per_step(n):
    out = []
    for x in two_per_step(n):
        out.append(x)
    return out


@njit
def use_until_negative(a):
    s = 0.0
    k = 0
    for x in until_negative(a):
        s += x
        k += 1
    return s, k


@njit
def use_defaults(n):
    s = 0.0
    for x in stepped(n):
        s += x
    for x in stepped(n, 3):
        s += x
    for x in stepped(n, scale=0.5, step=1):
        s += x
    return s


@njit
def return_from_consumer(n, stop):
    for x in squares(n):
        if x >= stop:
            return x
    return -1


@njit
def nested_consumers(n):
    s = 0
    for x in squares(n):
        for y in squares(x % 5):
            s += x * y
    return s


i = 1000  # a global named like the generator's and the consumer's locals


@njit
def uses_global_i(n):
    for k in range(n):
        yield k + i


@njit
def same_names_as_generator(n):
    i = 7
    total = 0
    for k in uses_global_i(n):
        total += k * i
    k = -1
    return total + k + i


@njit
def doubled(n):
    for x in squares(n):  # a generator consuming a generator: both inlined
        yield 2 * x


@njit
def use_doubled(n):
    return sum(doubled(n)), list(doubled(n))


@njit
def rows(m):
    for r in range(m.shape[0]):
        yield m[r]


@njit
def first_big_row(m, limit):
    for r in rows(m):
        if r.sum() > limit:
            return r.copy()
    return m[0].copy()


@njit
def row_sums_until(m, limit):
    out = 0.0
    for r in rows(m):
        if r.sum() > limit:
            break
        out += r.sum()
    return out


@njit
def pairs(n):
    for i in range(n):
        yield i, i * 0.5


@njit
def unpack_pairs(n):
    s = 0.0
    for a, b in pairs(n):
        s += a * b
    return s


@pytest.mark.parametrize("n", [0, 1, 5, 12, 30])
def test_for_over_generator(n):
    check(use_squares_control, n)
    check(use_squares_else, n)
    check(use_two_per_step, n)
    check(use_defaults, n)
    check(nested_consumers, n)
    check(same_names_as_generator, n)
    check(use_doubled, n)
    check(unpack_pairs, n)


def test_return_inside_generator_ends_it():
    check(use_until_negative, np.array([1.0, 2.5, 3.0, -1.0, 5.0]))
    check(use_until_negative, np.array([1.0, 2.0]))
    check(use_until_negative, np.zeros(0))


def test_return_from_the_consumer_body():
    for stop in (0, 10, 50, 10_000):
        check(return_from_consumer, 20, stop)


def test_generator_of_array_rows_left_half_consumed():
    m = np.arange(20.0).reshape(5, 4)
    for limit in (-1.0, 20.0, 40.0, 1e9):
        check(first_big_row, m, limit)
        check(row_sums_until, m, limit)


@njit
def failing_gen(n, k):
    for i in range(n):
        yield 1.0 / (k - i)


@njit
def use_failing_gen(n, k):
    s = 0.0
    for x in failing_gen(n, k):
        s += x
    return s


def test_generator_raising_midway():
    check(use_failing_gen, 4, 9)
    with pytest.raises(ZeroDivisionError) as want:
        interp(use_failing_gen, 4, 2)
    with pytest.raises(ZeroDivisionError) as got:
        use_failing_gen(4, 2)
    assert got.value.args == want.value.args


# --- generator expressions and the consumers ------------------------------------------------

@njit
def genexp_reductions(a):
    return (sum(x * x for x in a), sum((x for x in a if x > 1.0), 10.0),
            min(x for x in a if x > 0.5), max(-x for x in a),
            any(x > 3 for x in a), all(x > 0.1 for x in a),
            any(x > 100 for x in a), all(x > -1 for x in a))


@njit
def genexp_lists(a):
    return list(2 * x for x in a), sorted(-x for x in a), sorted((x for x in a), reverse=True)


@njit
def genexp_clauses(n):
    s = 0
    for p in (i * j for i in range(n) if i % 2 for j in range(i) if j != 3):
        s += p
    return s


@njit
def genexp_sees_locals(a, k):
    base = k * 2
    return sum(x * base + k for x in a)


@njit
def genexp_targets_do_not_leak(n):
    x = -5
    s = sum(x for x in range(n))
    return s + x


@njit
def min_max_empty(a):
    return min(x for x in a if x > 100)


@njit
def max_default(a):
    return max((x for x in a if x > 100), default=-1.0), min((x for x in a), default=7.0)


@njit
def gen_reductions(n):
    return sum(squares(n)), max(squares(n)), any(squares(n)), list(squares(n))


@njit
def set_of_genexp(a):
    s = set(x % 3 for x in a)
    return len(s), 2 in s


@njit
def nested_genexp(m):
    return sum(sum(x for x in row) for row in m)


def test_genexp_reductions():
    a = np.array([0.25, 1.5, 3.5, 2.0, 0.75])
    check(genexp_reductions, a)
    check(genexp_lists, a)
    check(genexp_sees_locals, a, 3.0)
    check(max_default, a)
    check(nested_genexp, np.arange(12.0).reshape(3, 4))


@pytest.mark.parametrize("n", [0, 1, 6, 11])
def test_genexp_loops_and_generator_reductions(n):
    check(genexp_clauses, n)
    check(genexp_targets_do_not_leak, n)
    if n:
        check(gen_reductions, n)
    check(set_of_genexp, np.arange(n))


def test_min_of_empty_generator_raises_as_cpython():
    a = np.array([1.0, 2.0])
    with pytest.raises(ValueError) as want:
        interp(min_max_empty, a)
    with pytest.raises(ValueError) as got:
        min_max_empty(a)
    assert got.value.args == want.value.args


def test_sum_of_ints_is_an_int():
    got = gen_reductions(4)
    assert type(got[0]) is int and got == interp(gen_reductions, 4)


# --- enumerate and zip ----------------------------------------------------------------------

@njit
def enumerate_gen(n):
    s = 0
    for i, x in enumerate(squares(n)):
        s += i * x
    for i, x in enumerate(squares(n), 5):
        s -= i
    return s


@njit
def zip_gen(n, a):
    s = 0.0
    for x, y in zip(squares(n), a):
        s += x * y
    for x, (i, y) in zip((v * 2 for v in a), enumerate(a)):
        s += x * i - y
    for j, (x, y) in enumerate(zip(squares(n), range(3, 100))):
        s += j * x + y
    return s


@njit
def zip_three_break(n, a):
    s = 0.0
    for x, y, z in zip(two_per_step(n), a, range(100)):
        if y > 5.0:
            break
        s += x + y * z
    else:
        s = -1.0
    return s


@pytest.mark.parametrize("n", [0, 3, 8, 20])
def test_enumerate_and_zip(n):
    a = np.arange(10.0)
    check(enumerate_gen, n)
    check(zip_gen, n, a)
    check(zip_three_break, n, a)


# --- what is refused, at its position -------------------------------------------------------

def gen_with_try(n):
    for i in range(n):
        try:
            yield i
        except ValueError:
            pass


gen_with_try_jit = njit(gen_with_try)


def consume_try(n):
    s = 0
    for x in gen_with_try_jit(n):
        s += x
    return s


def gen_yield_from(n):
    yield from range(n)


gen_yield_from_jit = njit(gen_yield_from)


def consume_yield_from(n):
    return sum(gen_yield_from_jit(n))


def gen_send(n):
    x = 0
    for i in range(n):
        x = yield i + x


gen_send_jit = njit(gen_send)


def consume_send(n):
    return list(gen_send_jit(n))


@pytest.mark.parametrize("gen, consumer, snippet, words", [
    (gen_with_try, consume_try, "try:", ["try"]),
    (gen_yield_from, consume_yield_from, "yield from", ["yield from"]),
    (gen_send, consume_send, "yield i + x", ["send"]),
])
def test_forms_not_inlined_are_errors_in_the_generator(gen, consumer, snippet, words):
    with pytest.raises(UnsupportedError) as info:
        njit(consumer)(3)
    assert_diagnostic(info.value, UnsupportedError, gen, snippet, contains=words)


def stores_genexp(a):
    g = (x for x in a)
    s = 0.0
    for x in g:
        s += x
    return s


def zip_generator_second(a):
    s = 0.0
    for x, y in zip(a, squares(3)):
        s += x * y
    return s


@pytest.mark.parametrize("func, snippet, words", [
    (stores_genexp, "(x for x in a)", ["generator expression", "consumed"]),
    (zip_generator_second, "squares(3)", ["zip", "first argument"]),
])
def test_escaping_generators_are_errors_at_their_position(func, snippet, words):
    with pytest.raises(UnsupportedError) as info:
        njit(func)(np.arange(3.0))
    assert_diagnostic(info.value, UnsupportedError, func, snippet, contains=words)


@njit
def recursive_gen(n):
    if n > 0:
        for x in recursive_gen(n - 1):
            yield x
    yield n


def consume_recursive(n):
    return sum(recursive_gen(n))


def test_recursive_generator_is_refused():
    with pytest.raises(UnsupportedError, match="recursive"):
        njit(consume_recursive)(3)


def mismatched_yields(n):
    for x in mixed_gen(n):
        pass
    return 0


@njit
def mixed_gen(n):
    yield 1
    yield "a"


def test_typing_error_in_inlined_generator():
    with pytest.raises(TypingError):
        njit(mismatched_yields)(2)


# --- generators called from the interpreter: a resumable frame ------------------------------

def same_items(got, want):
    got, want = list(got), list(want)
    assert len(got) == len(want), (got, want)
    for a, b in zip(got, want):
        if isinstance(b, np.ndarray):
            assert np.array_equal(a, b) and a.dtype == b.dtype
        else:
            assert same(a, b) or a == b, (a, b)


@njit
def nested_loops(m, lst):
    total = 0.0
    for i in range(m.shape[0]):
        row = m[i]
        for x in row:
            total += x
            if x > 2:
                yield total
        for v in lst:
            yield v * 1.0
    yield -total


@njit
def keeps_a_list(n):
    acc = []
    for i in range(n):
        acc.append(i)
        yield len(acc), acc[-1]
    yield sum(acc), 0


@njit
def chars(s):
    for ch in s:
        yield ch + ch


@njit
def stops_early(a, k):
    for i in range(a.shape[0]):
        if i == k:
            return
        yield a[i] * 2


@njit
def divides(n):
    for i in range(n):
        yield 10 // (2 - i)


@njit
def never_yields(n):
    if n > 100:
        yield n


def test_generator_from_the_interpreter():
    m = np.arange(6.0).reshape(2, 3)
    g = squares(6)
    assert type(g).__name__ == "generator" and "squares" in repr(g)
    assert iter(g) is g
    same_items(g, squares.py_func(6))
    assert list(g) == []  # exhausted
    same_items(nested_loops(m, [10, 20]), nested_loops.py_func(m, [10, 20]))
    same_items(keeps_a_list(5), keeps_a_list.py_func(5))
    same_items(chars("h\u00e9llo"), chars.py_func("h\u00e9llo"))
    same_items(two_per_step(7), two_per_step.py_func(7))
    same_items(stepped(7, scale=2.0), stepped.py_func(7, scale=2.0))
    a = np.arange(12.0).reshape(4, 3)
    for k in (0, 2, 10):
        same_items(stops_early(a, k), stops_early.py_func(a, k))
    assert list(never_yields(3)) == []


def test_generators_interleave():
    g1, g2 = squares(4), squares(3)
    got = [next(g1), next(g2), next(g1), next(g2), next(g2), next(g1)]
    assert got == [0, 0, 1, 1, 4, 4]
    assert list(zip(squares(10), squares.py_func(3))) == [(0, 0), (1, 1), (4, 4)]


def test_generator_dropped_or_closed_half_consumed():
    m = np.arange(6.0).reshape(2, 3)
    g = nested_loops(m, [1, 2, 3])
    next(g)
    del g  # the frame's list, row view and arguments released: the leak fixture checks
    g = keeps_a_list(5)
    next(g), next(g)
    g.close()
    assert list(g) == []
    g = stops_early(np.arange(9.0).reshape(3, 3), 5)
    assert np.array_equal(next(g), np.arange(3.0) * 2)
    g.close()
    g.close()


def test_generator_raising_finishes_it():
    g = divides(5)
    got = [next(g), next(g)]
    assert got == [5, 10]
    with pytest.raises(ZeroDivisionError) as info:
        next(g)
    with pytest.raises(ZeroDivisionError) as want:
        list(divides.py_func(5))
    assert info.value.args == want.value.args
    with pytest.raises(StopIteration):
        next(g)


def test_generator_without_send_or_throw():
    g = squares(3)
    assert not hasattr(g, "send") and not hasattr(g, "throw")
    g.close()


def test_generator_yield_types_must_unify():
    with pytest.raises(TypingError) as info:
        list(mixed_gen(2))
    assert_diagnostic(info.value, TypingError, mixed_gen.py_func, '"a"', contains=["yield"])


# --- generators as values inside compiled code ----------------------------------------------

@njit
def make_gen(n):
    return squares(n)


@njit
def resume_after_break(n):
    g = two_per_step(n)
    s = 0
    for x in g:
        s += x
        if x > 3:
            break
    for x in g:  # resumes where the first loop stopped
        s -= x
    return s


@njit
def consume_gen(g):
    s = 0
    for x in g:
        s += x
    return s


@njit
def pass_gen(n):
    return consume_gen(squares(n))


@njit
def two_generators(n):
    a = squares(n)
    b = squares(n + 1)
    s = 0
    for x in a:
        for y in b:
            s += x * y
            break
    return s


@njit
def rows_kept(m):
    g = rows(m)
    t = 0.0
    for r in g:
        t += r.sum()
        break
    return t  # g, holding a row view, dropped half consumed


@njit
def use_divides(n):
    g = divides(n)
    s = 0
    for x in g:
        s += x
    return s


@njit
def enumerate_stored(n):
    g = squares(n)
    s = 0
    for i, x in enumerate(g):
        s += i * x
    return s


@pytest.mark.parametrize("n", [0, 1, 4, 9])
def test_generator_values_in_compiled_code(n):
    check(resume_after_break, n)
    check(pass_gen, n)
    check(two_generators, n)
    same_items(make_gen(n), squares.py_func(n))


def test_generator_returned_and_dropped():
    g = make_gen(5)
    assert next(g) == 0 and next(g) == 1
    del g
    m = np.arange(12.0).reshape(4, 3)
    check(rows_kept, m)


def test_generator_value_raising_in_compiled_loop():
    check(use_divides, 2)
    with pytest.raises(ZeroDivisionError) as got:
        use_divides(5)
    with pytest.raises(ZeroDivisionError) as want:
        interp(use_divides, 5)
    assert got.value.args == want.value.args


def test_stored_generator_inside_enumerate_is_refused():
    with pytest.raises(UnsupportedError) as info:
        enumerate_stored(3)
    assert_diagnostic(info.value, UnsupportedError, enumerate_stored.py_func, "g)",
                      contains=["enumerate"])


def generator(x):
    y = x + 1
    yield y


def test_generator_moved_from_diagnostics():
    """test_diagnostics.py rejected this generator until kiln compiled generators."""
    assert list(njit(generator)(1)) == list(generator(1))


def gen_try_alone(n):
    for i in range(n):
        try:
            yield i
        finally:
            pass


def gen_send_alone(n):
    total = 0
    for i in range(n):
        total += yield i


@pytest.mark.parametrize("gen, snippet, words", [
    (gen_try_alone, "try:", ["try"]),
    (gen_send_alone, "yield i", ["send"]),
    (gen_yield_from, "yield from", ["yield from"]),
])
def test_forms_refused_in_a_generator_called_from_python(gen, snippet, words):
    with pytest.raises(UnsupportedError) as info:
        njit(gen)(3)
    assert_diagnostic(info.value, UnsupportedError, gen, snippet, contains=words)


@njit
def joins(words, k):
    return "-".join(w * k for w in words), ", ".join(str(x) for x in squares(4))


def test_join_of_a_generator():
    check(joins, ["a", "bc", "d"], 2)


# --- a mix: containers, strs, arrays, calls, nested control flow, in both forms -------------

@njit
def triple_plus_one(x):
    return x * 3 + 1


@njit
def mixed_items(a, s):
    d = {}
    for i in range(len(a)):
        d[i % 3] = d.get(i % 3, 0.0) + a[i]
        if i % 2:
            yield (i, a[:i].copy(), s + str(i))
        else:
            continue
    for k in d:
        yield (k, np.full(2, d[k]), s)


@njit
def while_true_returns(n):
    i = 0
    while True:
        i += 1
        if i > n:
            return
        if i % 3 == 0:
            yield triple_plus_one(i)
        elif i % 3 == 1:
            for j in range(i):
                if j > 2:
                    break
                yield j
        else:
            yield -i
    yield 999


@njit
def unique_words(words):
    seen = set()
    for w in words:
        if w in seen:
            continue
        seen.add(w)
        yield [c for c in w], len(seen)


@njit
def consume_mixed(a, s):
    out = 0.0
    names = ""
    for i, arr, name in mixed_items(a, s):
        out += i + arr.sum()
        names += name
    return out, names


@njit
def consume_while_true(n):
    return list(while_true_returns(n))


@njit
def consume_words(words):
    t = 0
    for chars, k in unique_words(words):
        t += len(chars) * k
    return t


def _plain(x):
    if isinstance(x, tuple):
        return tuple(_plain(v) for v in x)
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return (x.dtype.str, x.tolist())
    return x


def test_mixed_generators_in_both_forms():
    a = np.arange(7.0)
    words = ["ab", "c", "ab", "de"]
    check(consume_mixed, a, "p")
    check(consume_while_true, 10)
    check(consume_words, words)
    assert _plain(list(mixed_items(a, "p"))) == _plain(list(mixed_items.py_func(a, "p")))
    assert list(while_true_returns(10)) == interp(consume_while_true, 10)
    assert _plain(list(unique_words(words))) == _plain(list(unique_words.py_func(words)))
    g = mixed_items(a, "q")
    next(g), next(g)
    del g  # a dict, an array and strs in the frame
    g = unique_words(["x", "y"])
    next(g)
    del g  # a set in the frame
