"""The str type: arguments (borrowed), returns, literals, operators, indexing, slicing,
iteration, conversions and builtins over str. CPython is the oracle: every function is run
interpreted and compiled on ASCII, Latin-1, UCS-2 and UCS-4 text (harness.check)."""

import pytest

import kiln
from harness import assert_diagnostic, check

TEXTS = ["", "a", "hello", "héllo", "héllo→wörld", "a😀b", "😀", "→", "ÿ", "ab" * 40,
         "naïve café→😀"]
PAIRS = [(a, b) for a in TEXTS[:8] for b in TEXTS[:8]]


def ident(s):
    return s


def concat(a, b):
    return a + b


def equal(a, b):
    return a == b, a != b


def order(a, b):
    return a < b, a <= b, a > b, a >= b


def length(s):
    return len(s)


def index(s, i):
    return s[i]


def literal():
    return "const→😀", "", "abc", "é"


def literal_compare(s):
    return s == "euclidean", s != "cosine", "→" == s, s == "é"


@pytest.mark.parametrize("s", TEXTS)
def test_argument_returned_is_the_object(s):
    r = kiln.njit(ident)(s)
    assert r == s and r is s  # a borrowed whole string boxes back as its parent


@pytest.mark.parametrize("a,b", PAIRS)
def test_concat(a, b):
    check(concat, a, b)


@pytest.mark.parametrize("a,b", PAIRS + [("héllo", "héllo"), ("a😀b", "a😀b")])
def test_equality_and_order(a, b):
    check(equal, a, b)
    check(order, a, b)


@pytest.mark.parametrize("s", TEXTS)
def test_len_and_literals(s):
    check(length, s)
    check(literal_compare, s)


def test_literals():
    check(literal)


@pytest.mark.parametrize("s", ["hello", "héllo", "a😀b→", "→x"])
def test_index(s):
    for i in range(-len(s) - 2, len(s) + 2):
        check(index, s, i)


def test_index_error_message():
    e = check(index, "abc", 3)
    assert isinstance(e, IndexError) and e.args == ("string index out of range",)


def mixed_eq(s, x):
    return s == x, x == s, s != x


def test_equality_with_other_types():
    check(mixed_eq, "1", 1)
    check(mixed_eq, "1.5", 1.5)


def tuple_of_str(t):
    a, b = t
    return (b, a + b, len(a)), a


def test_tuples_of_str():
    check(tuple_of_str, ("héllo", "😀"))
    check(tuple_of_str, ("", "x"))


def defaults(s, sep="→", n=2):
    return s + sep + s, n


def keywords(a, b="x"):
    return b + a


def test_defaults_and_keywords():
    check(defaults, "ab")
    check(defaults, "ab", "--")
    check(keywords, "ab", b="😀")
    check(keywords, a="q")


def test_signature_unicode_type():
    f = kiln.njit("unicode_type(unicode_type, int64)")(lambda s, n: s * n)
    assert f("ab→", 3) == "ab→" * 3
    assert kiln.types.unicode_type == kiln.typeof("x")


def test_dispatch_key_and_printed_name():
    f = kiln.njit(length)
    f("abc")
    f("héllo→")  # same type: one overload
    assert len(f.signatures) == 1
    assert "unicode_type" in str(f.signatures[0]) or "str" in str(f.signatures[0])


def add_bad(s):
    return s + 1


def test_concat_bad_operand():
    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(add_bad)("x")
    assert_diagnostic(ei.value, kiln.errors.TypingError, add_bad, "s + 1",
                      contains=["can only concatenate str"])


def order_bad(s):
    return s < 1


def test_order_bad_operand():
    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(order_bad)("x")
    assert_diagnostic(ei.value, kiln.errors.TypingError, order_bad, "s < 1",
                      contains=["not supported between instances of 'str' and 'int'"])


def index_bad(s):
    return s[1.5]


def test_index_bad_type():
    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(index_bad)("x")
    assert_diagnostic(ei.value, kiln.errors.TypingError, index_bad, "s[1.5]",
                      contains=["string indices must be integers"])


def print_mixed(s):
    print(s, 1, 2.5, "→", (s, 3))


def test_print(capsys):
    print_mixed("héllo😀")
    want = capsys.readouterr().out
    kiln.njit(print_mixed)("héllo😀")
    assert capsys.readouterr().out == want
