"""The runtime paths of dicts with keys the runtime probes (runtime/dict.c, lower/dict.c): a str
key passed with hash -1 (hashed by the runtime, its hash kept in the entry), `d[k] = v` as one
call of kn_rt_dict_set (references of the key and value, the old value released, strs borrowed
from arguments copied), displays through the same call, and CPython's growth (3 x the live
count of slots) with deletions in between. CPython is the oracle (harness.check); the leak
fixture checks every reference after each test."""

import pytest

import kiln
from harness import check


def str_to_lists(words):
    d = {}
    for w in words:
        if w in d:
            d[w].append(len(w))
        else:
            d[w] = [len(w)]
    out = []
    for k, v in d.items():
        out.append((k, len(v), sum(v)))
    return out


WORDS = ["a", "bb", "a", "é→", "bb", "", "😀", "a", "é→", "ccc", ""] * 7


def test_str_keys_list_values():
    check(str_to_lists, WORDS)


def replace_values(keys):
    d = {}
    for r in range(3):
        for k in keys:
            d[k] = [r, len(k)]  # the old list is released on every store after the first
    return [(k, d[k]) for k in keys]


def test_store_releases_old_values():
    check(replace_values, ["x", "yy", "x", "zzz", "é"])


def borrowed(a, b):
    d = {a: [1], b: [2]}  # a display: keys borrowed from the arguments are copied
    d[a + b] = [3]
    d[b] = d[a]
    return d


def test_borrowed_str_keys_and_displays():
    check(borrowed, "key", "other")
    check(borrowed, "same", "same")


def str_values(keys):
    d = {}
    for k in keys:
        d[k] = k + "!"
    d[keys[0]] = keys[-1]  # a str value borrowed from the argument list
    out = []
    for k, v in d.items():
        out.append((k, v))
    return out


def test_str_values():
    check(str_values, ["p", "q", "→", "p"])


def lookups(keys, probe):
    d = {}
    for i in range(len(keys)):
        d[keys[i]] = i
    n = 0
    for k in probe:
        if k in d:
            n += d[k] + d.get(k, 100)
        n += d.get(k, -1)
    x = d.pop(keys[0])
    del d[keys[1]]
    return n, x, len(d), hash(keys[2]) == hash(keys[2] + "")


def test_str_lookups_get_pop_del():
    keys = [str(i) for i in range(300)] + ["é" * i for i in range(1, 30)]
    probe = keys[::3] + ["nope", "", "1000"]
    check(lookups, keys, probe)


def missing(d_keys, k):
    d = {}
    for x in d_keys:
        d[x] = len(x)
    return d[k]


def test_missing_str_key_raises_with_the_key():
    check(missing, ["a", "b"], "zz→")


def churn(n):
    d = {}
    for i in range(n):
        d[str(i)] = i
        if i % 3 == 0 and str(i // 2) in d:
            del d[str(i // 2)]
    s = 0
    order = []
    for k, v in d.items():
        s += v * len(k)
        order.append(k)
    return len(d), s, order[:5], order[-5:]


@pytest.mark.parametrize("n", [5, 100, 5000])
def test_growth_with_deletions(n):
    check(churn, n)


def tuple_keys(n):
    d = {}
    for i in range(n):
        d[(i % 7, str(i % 5))] = [i]
        d[(i % 7, str(i % 5))].append(i)
    out = []
    for k, v in d.items():
        out.append((k[0], k[1], v[0], v[1]))
    return out


def test_tuple_keys_with_str_parts():
    check(tuple_keys, 60)


def float_keys(n):
    d = {}
    for i in range(n):
        d[i * 0.5] = [i]
    d[0.0] = [-1]
    d[-0.0] = [-2]
    out = []
    for k, v in d.items():
        out.append((k, v[0]))
    return out


def test_float_keys_list_values():
    check(float_keys, 40)


def test_typed_dict_str_keys_round_trip():
    @kiln.njit
    def fill(d, words):
        for w in words:
            d[w] = len(w)
        return d

    d = kiln.typed.Dict.empty(kiln.types.unicode_type, kiln.types.int64)
    words = [str(i) * 3 for i in range(50)]
    r = fill(d, words)
    assert dict(r.items()) == dict(d.items()) == {w: len(w) for w in words}
    assert d["7" * 3] == 3
