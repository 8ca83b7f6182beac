"""Dicts in compiled code (lib/dict.def, typing/dict.c, lower/dict.c, runtime/dict.c).

CPython is the oracle: each function runs interpreted and compiled and the outcomes are compared
(a returned dict item by item in order, since insertion order is kept). Where kiln follows Numba
instead (keys of int and float unified to float64), the expected value is computed.
"""

import math

import numpy as np
import pytest

import kiln
from harness import assert_diagnostic, check, compiled, run, same


def same_dict(got, want):
    assert type(got) is type(want), f"expected {type(want).__name__}, got {got!r}"
    assert len(got) == len(want), f"expected {want!r}, got {got!r}"
    if isinstance(want, dict):
        for (gk, gv), (wk, wv) in zip(got.items(), want.items()):
            same(gk, wk, path="key")
            if isinstance(wv, dict):
                same_dict(gv, wv)
            elif isinstance(wv, np.ndarray):
                np.testing.assert_array_equal(gv, wv)
            else:
                same(gv, wv, path=f"value of {wk!r}")
    else:
        assert got == want


def check_dict(f, *args):
    want = run(f, *args)
    got = run(compiled(f), *args)
    assert got[0] == want[0], f"expected {want}, got {got}"
    if want[0] == "raise":
        assert type(got[1]) is type(want[1]) and got[1].args == want[1].args, (got, want)
    else:
        same_dict(got[1], want[1])
    return got[1]


# ---- displays, d[k], d[k] = v, len, in ----

def display_int():
    return {1: 2, 3: 4, -1: 5, -2: 6, 0: 7}


def display_float_keys():
    return {1.5: 1, -0.0: 2, math.inf: 3, 2.0: 4}


def display_tuple_keys():
    return {(1, 2): 1.5, (3, -4): 2.5, (1, 2): 9.0}


def display_bool_keys():
    return {True: 1, False: 0}


def display_tuple_values():
    return {1: (1, 2.5), 2: (3, 4.5)}


def nested_dicts():
    return {1: {10: 1.0}, 2: {20: 2.0, 21: 2.5}}


@pytest.mark.parametrize("f", [display_int, display_float_keys, display_tuple_keys,
                               display_bool_keys, display_tuple_values, nested_dicts])
def test_displays(f):
    check_dict(f)


def test_display_unifies_int_and_float_keys_as_numba():
    def f():
        return {1: 10, 2.5: 20}
    got = compiled(f)()
    same_dict(got, {float(k): v for k, v in f().items()})


def build_and_read(n):
    d = {}
    for i in range(n):
        d[i * 7 - n] = i * 2
    s = 0
    for i in range(n):
        s += d[i * 7 - n]
    return s, len(d), (3 * 7 - n) in d, 5 in d, 6 not in d


@pytest.mark.parametrize("n", [0, 1, 5, 100, 10000])
def test_grow_and_lookup(n):
    check(build_and_read, n)


def returns_built(n):
    d = {}
    for i in range(n):
        d[i % 13] = i
    return d


@pytest.mark.parametrize("n", [0, 3, 40])
def test_overwrite_keeps_first_position(n):
    if n == 0:
        with pytest.raises(kiln.errors.TypingError):
            compiled(lambda: {})()
        return
    check_dict(returns_built, n)


def colliding_keys():
    # hash(-1) == hash(-2) == -2; hash(2**61 - 1) == hash(0) == 0; 2**62 takes the slow hash
    d = {-1: 1, -2: 2, 0: 3, 2 ** 61 - 1: 4, 2 ** 62: 5, -(2 ** 62): 6, 2 ** 63 - 1: 7}
    return d[-1], d[-2], d[0], d[2 ** 61 - 1], d[2 ** 62], d[-(2 ** 62)], d[2 ** 63 - 1], len(d)


def test_colliding_hashes():
    check(colliding_keys)


def float_keys(x):
    d = {0.0: 1, 1.5: 2, math.inf: 3}
    return d[x]


@pytest.mark.parametrize("x", [0.0, -0.0, 1.5, float("inf"), 2.0])
def test_float_keys(x):
    check(float_keys, x)


def int_key_into_float_dict(k):
    d = {1.0: True, 2.5: False}
    return d[k]


def test_int_key_converts_to_float_dict():
    check(int_key_into_float_dict, 1)


# ---- KeyError with the key ----

def missing(d_key):
    d = {1: 2, 3: 4}
    return d[d_key]


@pytest.mark.parametrize("k", [5, -1, 0, 2 ** 62])
def test_key_error_names_the_key(k):
    err = check(missing, k)
    assert isinstance(err, KeyError) and err.args == (k,)


def missing_tuple(a, b):
    d = {(1, 2.5): 1}
    return d[(a, b)]


def test_key_error_tuple_key():
    err = check(missing_tuple, 3, 4.5)
    assert err.args == ((3, 4.5),)


def missing_float(x):
    d = {1.5: 1}
    return d[x]


def test_key_error_float_key():
    check(missing_float, 2.25)


# ---- methods ----

def get_setdefault(k):
    d = {1: 10, 2: 20}
    a = d.get(k, -1)
    b = d.setdefault(k, 99)
    c = d.setdefault(1, 77)
    return a, b, c, len(d)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_get_setdefault(k):
    check(get_setdefault, k)


def pop_default(k):
    d = {1: 10, 2: 20, 3: 30}
    v = d.pop(k, -5)
    return v, len(d), k in d


def pop_missing(k):
    d = {1: 10}
    return d.pop(k)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_pop(k):
    check(pop_default, k)
    check(pop_missing, k)


def popitems(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    out = 0
    while d:
        k, v = d.popitem()
        out = out * 3 + k + v
    return out


def popitem_empty():
    d = {1: 2}
    d.popitem()
    return d.popitem()


def test_popitem_lifo_and_empty():
    check(popitems, 20)
    check(popitem_empty)


def delete_and_reinsert():
    d = {1: 1, 2: 2, 3: 3, 4: 4}
    del d[2]
    d[5] = 5
    del d[1]
    d[2] = 22
    return d


def delete_missing(k):
    d = {1: 1}
    del d[k]
    return len(d)


def test_del():
    check_dict(delete_and_reinsert)
    check(delete_missing, 1)
    check(delete_missing, 7)


def many_deletions(n):
    d = {}
    for i in range(n):
        d[i] = i
    for i in range(0, n, 3):
        del d[i]
    t = 0
    for k, v in d.items():
        t = t * 7 % 1000003 + k + v
    for i in range(n, 2 * n):
        d[i] = -i
    return t, len(d), d


def test_many_deletions_keep_order():
    got, want = compiled(many_deletions)(300), many_deletions(300)
    same(got[:2], want[:2])
    same_dict(got[2], want[2])


def update_clear_copy():
    a = {1: 1.0, 2: 2.0}
    b = {2: 20.0, 3: 30.0}
    a.update(b)
    c = a.copy()
    c[4] = 4.0
    a.clear()
    a[9] = 9.0
    return a, c


def test_update_clear_copy():
    got, want = compiled(update_clear_copy)(), update_clear_copy()
    same_dict(got[0], want[0])
    same_dict(got[1], want[1])


def equality(x):
    a = {1: 1.5, 2: 2.5}
    b = {2: 2.5, 1: x}
    return a == b, a != b, a == a


@pytest.mark.parametrize("x", [1.5, 0.5])
def test_equality(x):
    check(equality, x)


def truth(n):
    d = {}
    for i in range(n):
        d[i] = i
    if d:
        return len(d)
    return -1


def test_truth():
    check(truth, 0)
    check(truth, 3)


def dict_constructor(n):
    d = dict()
    for i in range(n):
        d[i] = float(i)
    e = dict(d)
    e[100] = 1.0
    return len(d), len(e)


def test_dict_constructor():
    check(dict_constructor, 4)


# ---- iteration ----

def iterate(n):
    d = {}
    for i in range(n):
        d[(i * 37) % 101] = i
    ks = 0
    for k in d:
        ks = ks * 31 % 1000003 + k
    vs = 0
    for v in d.values():
        vs = vs * 31 % 1000003 + v
    its = 0
    for k, v in d.items():
        its = its * 31 % 1000003 + k * v
    ks2 = 0
    for k in d.keys():
        ks2 = ks2 * 31 % 1000003 + k
    en = 0
    for i, (k, v) in enumerate(d.items()):
        en += i * k
    return ks, vs, its, ks2, en, len(d.keys()), 3 in d.keys()


@pytest.mark.parametrize("n", [0, 1, 50])
def test_iteration(n):
    check(iterate, n)


def grows_while_iterating():
    d = {1: 1, 2: 2}
    for k in d:
        d[k + 10] = k
    return len(d)


def shrinks_while_iterating():
    d = {1: 1, 2: 2, 3: 3}
    for k in d:
        del d[k]
    return len(d)


def test_changed_size_during_iteration():
    err = check(grows_while_iterating)
    assert isinstance(err, RuntimeError)
    check(shrinks_while_iterating)


def values_may_change_while_iterating():
    d = {1: 1, 2: 2}
    for k in d:
        d[k] = d[k] * 10
    return d


def test_values_change_while_iterating():
    check_dict(values_may_change_while_iterating)


# ---- comprehensions ----

def comprehension(n):
    return {i: i * i for i in range(n) if i % 3 != 1}


def nested_comprehension(n):
    return {(i, j): i * j for i in range(n) for j in range(i) if (i + j) % 2}


def comprehension_over_dict():
    d = {1: 2.0, 3: 4.0}
    return {v: k for k, v in d.items()}


def test_comprehensions():
    check_dict(comprehension, 10)
    check_dict(nested_comprehension, 6)
    check_dict(comprehension_over_dict)


# ---- reference-counted values ----

def array_values(n):
    d = {}
    for i in range(n):
        d[i] = np.arange(i, dtype=np.float64)
    d[0] = np.ones(2)
    t = 0.0
    for v in d.values():
        t += v.sum()
    return t, d


def test_array_values():
    got = compiled(array_values)(5)
    want = array_values(5)
    same(got[0], want[0])
    same_dict(got[1], want[1])


def array_values_raise(k):
    d = {1: np.zeros(3), 2: np.ones(4)}
    x = d[k]
    return x.sum()


def test_array_values_freed_on_key_error():
    check(array_values_raise, 2)
    check(array_values_raise, 3)


def pop_array(k):
    d = {1: np.zeros(3), 2: np.ones(4)}
    x = d.pop(k)
    y = d.popitem()
    return x.sum() + y[1].sum() + y[0]


def test_pop_array_values():
    check(pop_array, 1)


def dict_of_dicts(n):
    outer = {}
    for i in range(n):
        inner = {}
        for j in range(i):
            inner[j] = j * 1.5
        outer[i] = inner
    return outer


def test_dict_of_dicts():
    check_dict(dict_of_dicts, 4)


# ---- hash() ----

def h(x):
    return hash(x)


@pytest.mark.parametrize("x", [0, 1, -1, -2, 2 ** 61 - 1, 2 ** 61, 2 ** 62, -(2 ** 62),
                               2 ** 63 - 1, -(2 ** 63), True, False])
def test_hash_int(x):
    check(h, x)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.5, -1.5, 1.0, -1.0, 1e300, -1e-300, 2.0 ** 70,
                               float("inf"), float("-inf"), 0.1, 123456.789, 5e-324])
def test_hash_float(x):
    check(h, x)


@pytest.mark.parametrize("x", [(1, 2), (), (1.5, -1), ((1, 2), (3, (4, 5.5))), (-1,),
                               (True, 2 ** 62)])
def test_hash_tuple(x):
    check(h, x)


# ---- bad input ----

def test_python_dict_argument_is_refused():
    def f(d):
        return len(d)
    with pytest.raises(TypeError, match="kiln.typed.Dict"):
        compiled(f)({1: 2})


def unhashable_key():
    a = np.zeros(3)
    d = {a: 1}
    return len(d)


def mixed_keys():
    d = {1: 1, (2, 3): 2}
    return len(d)


def mixed_values():
    d = {1: 1, 2: (2, 3)}
    return len(d)


def wrong_key_type():
    d = {1: 1}
    d[(1, 2)] = 3
    return len(d)


def float_key_into_int_dict():
    d = {1: 1}
    return d[1.5]


def empty_never_filled():
    d = {}
    return len(d)


def get_without_default():
    d = {1: 2}
    return d.get(1)


def test_unhashable_key():
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(unhashable_key)()
    assert_diagnostic(e.value, kiln.errors.TypingError, unhashable_key, "a: 1",
                      contains=["unhashable", "array"])


def test_mixed_key_types():
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(mixed_keys)()
    assert_diagnostic(e.value, kiln.errors.TypingError, mixed_keys, "(2, 3)",
                      contains=["int64", "UniTuple(int64, 2)", "keys"])


def test_mixed_value_types():
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(mixed_values)()
    assert_diagnostic(e.value, kiln.errors.TypingError, mixed_values, "(2, 3)",
                      contains=["int64", "UniTuple(int64, 2)", "values"])


def test_wrong_key_type():
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(wrong_key_type)()
    assert_diagnostic(e.value, kiln.errors.TypingError, wrong_key_type, "(1, 2)",
                      contains=["UniTuple(int64, 2)", "int64"])
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(float_key_into_int_dict)()
    assert_diagnostic(e.value, kiln.errors.TypingError, float_key_into_int_dict, "1.5",
                      contains=["float64", "int64"])


def test_empty_dict_without_types():
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(empty_never_filled)()
    assert_diagnostic(e.value, kiln.errors.TypingError, empty_never_filled, "{}",
                      contains=["empty dict", "Dict.empty"])


def get_or_none(keys, probe):
    d = {}
    for k in keys:
        d[k] = k * 2
    v = d.get(probe)
    if v is None:
        return -1
    return v + 1


def get_str_or_none(probe):
    d = {"a": "x\u00e9", "b": "y\U0001f600"}
    return d.get(probe), d.get(probe + "!")


def get_list_or_none(n, probe):
    d = {}
    for i in range(n):
        d[i] = [i, i + 1]
    r = d.get(probe)
    return r is None, r


def get_bad_key():
    d = {1: 2}
    return d.get("x")


def test_get_without_default_of_a_bad_key_type():
    with pytest.raises(kiln.errors.TypingError) as e:
        compiled(get_bad_key)()
    assert_diagnostic(e.value, kiln.errors.TypingError, get_bad_key, '"x"',
                      contains=["key", "str", "int64"])


def test_get_without_default_is_an_optional():
    # d.get(k) is the value or None (an optional of the value type), as CPython and Numba
    check(get_without_default)
    for probe in (0, 3, 9):
        check(get_or_none, [1, 3, 5], probe)
    for probe in ("a", "b", "zz"):
        check(get_str_or_none, probe)
    for probe in (-1, 0, 2):
        check(get_list_or_none, 3, probe)


# ---- str keys and values (UCS-1, UCS-2 and UCS-4 text), list values ----

def str_keys(n):
    d = {}
    for i in range(n):
        d[str(i)] = i
    return d, d["3"], "7" in d, "x" in d


def test_str_keys_built():
    got, want = compiled(str_keys)(10), str_keys(10)
    same_dict(got[0], want[0])
    same(got[1:], want[1:])


def non_ascii_keys(k):
    d = {"héllo→": 1, "a": 2, "😀": 3, "é": 4}
    return d[k]


@pytest.mark.parametrize("k", ["héllo→", "a", "😀", "é", "zz→", "😀😀"])
def test_non_ascii_str_keys(k):
    check(non_ascii_keys, k)


def str_values():
    d = {1: "one", 2: "twö", 3: "😀"}
    d[4] = "four"
    return d, d == {1: "one", 2: "twö", 3: "😀", 4: "four"}


def test_str_values():
    got, want = compiled(str_values)(), str_values()
    same_dict(got[0], want[0])
    same(got[1], want[1])


def str_comprehension(words):
    return {w: len(w) for w in words}


def test_str_key_comprehension_from_tuple():
    check_dict(str_comprehension, ("a", "bé", "c😀", "a"))


def hash_str(s):
    return hash(s)


@pytest.mark.parametrize("s", ["", "abc", "héllo→", "😀"])
def test_hash_str(s):
    check(hash_str, s)


def group_lists(n):
    groups = {}
    for i in range(n):
        k = i % 4
        if k in groups:
            groups[k].append(i)
        else:
            groups[k] = [i]
    return groups


def test_list_values():
    got, want = compiled(group_lists)(10), group_lists(10)
    assert list(got.items()) == list(want.items())


def list_values_raise(k):
    d = {1: [1.5, 2.5], 2: [3.5]}
    return d[k][0]


def test_list_values_freed_on_key_error():
    check(list_values_raise, 2)
    check(list_values_raise, 5)


# ---- kiln.typed.Dict ----

from kiln import types  # noqa: E402
from kiln.typed import Dict  # noqa: E402


def test_typed_dict_mapping_protocol():
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    p = {}
    for k, v in [(1, 2.5), (2, 3.0), (-1, 0.5), (1, 7.0)]:
        d[k] = v
        p[k] = v
    assert len(d) == len(p) and list(d.items()) == list(p.items()) and list(d) == list(p)
    assert list(d.keys()) == list(p.keys()) and list(d.values()) == list(p.values())
    assert (1 in d, 5 in d, "x" in d) == (True, False, False)
    assert d.get(7, -1.0) == -1.0 and d.get(2) == 3.0 and d.get(9) is None
    assert d == p and d != {1: 1.0}
    with pytest.raises(KeyError) as e:
        d[99]
    assert e.value.args == (99,)
    del d[1]
    del p[1]
    assert d == p and d.pop(2) == p.pop(2) and d.pop(5, 1.5) == 1.5
    assert d.setdefault(4, 4.5) == 4.5 and d[4] == 4.5
    assert repr(d).startswith("DictType[int64,float64]")
    assert d.key_type == types.int64 and d.value_type == types.float64
    d.clear()
    assert len(d) == 0


def test_typed_dict_types_from_first_store():
    d = Dict()
    d["héllo→"] = 1
    d["😀"] = 2
    name = "dyn" + str(5)
    d[name] = 3
    del name  # the dict holds its own copy of the text
    assert list(d.items()) == [("héllo→", 1), ("😀", 2), ("dyn5", 3)]
    assert d.key_type == types.unicode_type


def fill(d, n):
    for i in range(n):
        d[i] = i * 0.5
    return len(d)


def total(d):
    t = 0.0
    for k, v in d.items():
        t += k * v
    return t


def returns_it(d):
    d[100] = 1.0
    return d


def test_typed_dict_shared_with_compiled_code():
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    assert compiled(fill)(d, 10) == 10
    assert list(d.items()) == [(i, i * 0.5) for i in range(10)]
    same(compiled(total)(d), total(dict(d.items())))
    r = compiled(returns_it)(d)
    assert type(r) is Dict and r[100] == 1.0 and d[100] == 1.0


def put_str(d, k):
    d[k] = len(d)


def test_typed_dict_str_keys_from_compiled_code():
    d = Dict.empty(key_type=types.unicode_type, value_type=types.int64)
    d["a"] = 0
    key = "b" + "é" * 3
    compiled(put_str)(d, key)
    del key
    assert list(d.items()) == [("a", 0), ("béé" + "é", 1)]


def test_typed_dict_bad_input():
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    with pytest.raises(TypeError):
        d["x"] = 1.0
    with pytest.raises(TypeError, match="unknown"):
        compiled(fill)(Dict(), 3)
    e = Dict.empty(key_type=types.int64, value_type=types.int64)
    with pytest.raises(kiln.errors.TypingError, match="does not fit"):
        compiled(fill)(e, 2)  # float64 values into a dict of int64 values
    del d, e  # the compile error kept by the dispatcher holds this frame


def grows_in_last_step():
    d = {1: 1, 2: 2, 3: 3}
    n = 0
    for k in d:
        n += 1
        if n == 3:
            d[10] = 10
    return n


def pop_then_add_while_iterating():
    d = {1: 1, 2: 2, 3: 3}
    for k in d:
        if k == 1:
            d.pop(3)
            d[4] = 4
    return len(d)


def test_size_change_in_the_last_step():
    err = check(grows_in_last_step)
    assert isinstance(err, RuntimeError)
    check(shrinks_while_iterating)


def test_same_size_mutation_while_iterating():
    check(pop_then_add_while_iterating)


def group_empty_lists(n):
    groups = {}
    for i in range(n):
        k = i % 4
        if k not in groups:
            groups[k] = []
        groups[k].append(i)
    return groups


def group_setdefault(n):
    groups = {}
    for i in range(n):
        groups.setdefault(i % 3, []).append(i * 1.5)
    return groups


@pytest.mark.parametrize("f", [group_empty_lists, group_setdefault])
def test_empty_list_values_typed_from_appends(f):
    got, want = compiled(f)(10), f(10)
    assert list(got.items()) == list(want.items())


def test_dict_and_set_types_in_signatures():
    sig = types.float64(types.DictType(types.int64, types.float64), types.int64)

    def get(d, k):
        return d[k]
    f = kiln.njit(sig)(get)
    d = Dict.empty(types.int64, types.float64)
    d[3] = 1.5
    same(f(d, 3), 1.5)
    assert types.DictType(types.int64, types.float64).key == ("dict", "int64", "float64")
    assert types.from_key(("set", "int64")) == types.Set(types.int64)

    def n(s):
        return len(s)
    g = kiln.njit(types.int64(types.Set(types.int64)))(n)
    same(g({1, 2, 3}), 3)
    del d


def word_count(words):
    d = {}
    for w in words:
        d[w] = d.get(w, 0) + 1
    e = {}
    for w in words:
        if w in e:
            e[w] += 1
        else:
            e[w] = 1
    return d, e


def test_counting_idioms():
    words = ("a", "b", "a", "é", "a", "😀", "b")
    got, want = compiled(word_count)(words), word_count(words)
    same_dict(got[0], want[0])
    same_dict(got[1], want[1])


def mixed_tuple_keys(n):
    d = {}
    for i in range(n):
        d[(i % 3, (i % 2) * 1.5)] = i
    return d, d[(1, 1.5)], (2, 0.0) in d, (2, -0.0) in d


def bool_key_augmented():
    d = {True: 1, False: 0}
    d[True] += 5
    return d


def test_tuple_and_bool_keys():
    got, want = compiled(mixed_tuple_keys)(6), mixed_tuple_keys(6)
    same_dict(got[0], want[0])
    same(got[1:], want[1:])
    check_dict(bool_key_augmented)


def display_raises_half_built():
    return {1: np.zeros(3), 2: np.zeros(-1)}


def comprehension_raises_half_built(n):
    return {i: np.zeros(i - 3) for i in range(n, -1, -1)}


def test_raise_while_half_built_frees_everything():
    check(display_raises_half_built)
    check(comprehension_raises_half_built, 6)


def prints(x):
    d = {1: 2.5, 3: x}
    print(d, len(d), {"é"}, (d, 1))
    return 0


def test_print_of_dicts_and_sets(capsys):
    prints(4.0)
    want = capsys.readouterr().out
    compiled(prints)(4.0)
    assert capsys.readouterr().out == want
