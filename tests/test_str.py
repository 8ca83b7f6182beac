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


SLICES = [(None, None, None), (None, None, -1), (1, 8, 3), (-3, None, None), (2, -1, None),
          (None, None, 2), (5, 1, -2), (100, None, None), (-100, 3, None), (1, 2, None),
          (0, 1, None)]


def slice_rt(s, a, b, c):
    return s[a:b:c]


def slice_const(s):
    return s[::-1], s[1:8:3], s[1:], s[:-1], s[2:3], s[::2], s[-2:], s[:]


@pytest.mark.parametrize("s", TEXTS)
def test_slicing(s):
    check(slice_const, s)
    for a, b, c in SLICES:
        check(slice_rt, s, a, b, c)


def test_slice_step_zero():
    check(slice_rt, "abc", None, None, 0)


def slice_narrows(s):
    t = s[1:]
    return t, t == "abc", len(t), hash(t) == hash("abc")


def test_slice_of_wide_text_narrows():
    # the slice holds only ASCII: it must come out as (and compare equal to) an ASCII str
    check(slice_narrows, "→abc")
    check(slice_narrows, "😀abc")


def contains(a, b):
    return a in b, a not in b


@pytest.mark.parametrize("a,b", PAIRS + [("ll", "hello"), ("→w", "héllo→wörld"),
                                         ("😀b", "a😀b"), ("ö", "héllo→wörld"),
                                         ("\x00", "a\x00"), ("ab", "a")])
def test_contains(a, b):
    check(contains, a, b)


def contains_bad(s):
    return 1 in s


def test_contains_bad_operand():
    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(contains_bad)("x")
    assert_diagnostic(ei.value, kiln.errors.TypingError, contains_bad, "1 in s",
                      contains=["requires string as left operand"])


def repeat(s, n):
    return s * n, n * s


@pytest.mark.parametrize("s", TEXTS[:8])
def test_repeat(s):
    for n in (-1, 0, 1, 2, 5):
        check(repeat, s, n)


def truth(s):
    if s:
        return 1
    return 0


def truth_ops(s):
    return bool(s), not s, (s and "x") == "x"


def and_or(s, t):
    u = s + t
    return (u or "empty"), (s and t), (t or s + "!")


@pytest.mark.parametrize("s", TEXTS[:4])
def test_truth(s):
    check(truth, s)
    check(truth_ops, s)
    for t in TEXTS[:4]:
        check(and_or, s, t)


def iadd_loop(n, piece):
    s = ""
    for i in range(n):
        s += piece
    return s


def iadd_shared(piece):
    s = "ab"
    t = s
    s += piece
    u = s
    s += piece
    return s, t, u


@pytest.mark.parametrize("piece", ["ab", "é", "→", "😀", ""])
def test_iadd(piece):
    check(iadd_loop, 50, piece)
    check(iadd_shared, piece)


def iadd_widen(n):
    s = ""
    for i in range(n):
        s += "a"
        if i == n // 2:
            s += "→"
    s += "😀"
    return s


def test_iadd_widens():
    check(iadd_widen, 40)


def test_iadd_is_linear():
    # += grows one buffer in place (geometrically, runtime/str.c): the strings a loop of n appends
    # allocates do not grow with n, where a copy per append would allocate n of them (quadratic)
    f = kiln.njit(iadd_loop)
    f(10, "ab")

    def meminfos(n):
        before = kiln.runtime.memory_stats().mi_alloc
        r = f(n, "ab")
        assert len(r) == 2 * n
        return kiln.runtime.memory_stats().mi_alloc - before

    assert meminfos(200000) == meminfos(200) <= 4


def hash_of(s):
    return hash(s)


@pytest.mark.parametrize("s", TEXTS)
def test_hash_matches_cpython(s):
    check(hash_of, s)
    check(hash_of, s + "!")  # a string made in compiled code hashes the same: (s + "!") below


def hash_made(s):
    return hash(s + "!"), hash(s[::-1])


@pytest.mark.parametrize("s", TEXTS)
def test_hash_of_new_strings(s):
    check(hash_made, s)


def ord_chr(s):
    return ord(s), chr(ord(s)), chr(ord(s) + 1)


@pytest.mark.parametrize("s", ["a", "é", "ÿ", "→", "😀", "\x00"])
def test_ord_chr(s):
    check(ord_chr, s)


def chr_of(n):
    return chr(n)


def test_chr_range():
    for n in (0, 127, 128, 255, 256, 0xffff, 0x10000, 0x10ffff):
        check(chr_of, n)
    check(chr_of, 0x110000)
    check(chr_of, -1)


def test_ord_length():
    check(ord_chr, "ab")
    check(ord_chr, "")


def str_of(x):
    return str(x)


@pytest.mark.parametrize("x", [0, 1, -1, 12345, 2**63 - 1, -2**63, True, False])
def test_str_of_int(x):
    check(str_of, x)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.0, 0.1, 1e16, 1e15, 1e-4, 1e-5, 123.456,
                               float("inf"), float("-inf"), float("nan"), 1/3, 2.5e-300,
                               1.7976931348623157e308, 5e-324, 123456789012345678.0, -1.5,
                               100.0, 1e22])
def test_str_of_float(x):
    check(str_of, x)


def test_str_of_str():
    check(str_of, "héllo")


def to_int(s):
    return int(s)


def to_float(s):
    return float(s)


@pytest.mark.parametrize("s", ["0", "12", "-12", "+7", " 42 ", "\t1_000\n", "1__0", "_1", "1_",
                               "", " ", "x", "1.5", "9223372036854775807",
                               "-9223372036854775808", "0042", "\u20034\u3000", "é", "4é",
                               "- 1"])
def test_int_of_str(s):
    check(to_int, s)


def test_int_of_str_past_int64():
    with pytest.raises(OverflowError):
        kiln.njit(to_int)("9223372036854775808")


@pytest.mark.parametrize("s", ["0", "1.5", "-1.5e3", " 2.5 ", "1_000.5", "inf", "-Infinity",
                               "nan", ".5", "5.", "1e5", "1e", "", "x", "1__0", "0x10",
                               "1.5.", "\u00a03.25\u2028", "e5", "+.e1"])
def test_float_of_str(s):
    check(to_float, s)


def iterate(s):
    n = 0
    out = ""
    for ch in s:
        n += ord(ch)
        out = ch + out
    return n, out


@pytest.mark.parametrize("s", TEXTS)
def test_iteration(s):
    check(iterate, s)


def metric(m, x):
    if m == "euclidean":
        return x * x
    elif m == "manhattan":
        return abs(x)
    return -1.0


def test_string_option():
    for m in ("euclidean", "manhattan", "cosine", ""):
        check(metric, m, -2.0)


def test_option_compiles_to_compare_not_call():
    # `m == "euclidean"` is a length and kind compare, then a memcmp (bcmp): no runtime call
    f = kiln.njit(metric)
    f("euclidean", 1.0)
    ir = f.inspect_llvm(f.signatures[0])
    body = ir[ir.index("define double"):]
    body = body[:body.index("\n}")]
    assert "kn_rt_" not in body and "icmp eq i64" in body


def test_str_of_uint64():
    import numpy as np
    check(str_of, np.uint64(2**64 - 1), expected=str(2**64 - 1))


def nul_literal():
    return "a\x00b"


def test_nul_literal_is_a_clear_error():
    with pytest.raises(kiln.errors.UnsupportedError) as ei:
        kiln.njit(nul_literal)()
    assert "NUL" in str(ei.value)


def raise_with_temps(s, i):
    t = s + "→"
    u = t * 2
    return u[i] + t


def test_no_leak_on_raise():
    # the temporaries (owned strings) are released on the exception path (leak fixture)
    check(raise_with_temps, "héllo", 3)
    e = check(raise_with_temps, "héllo", 100)
    assert isinstance(e, IndexError)


def parse_in_loop(words):
    total = 0
    for w in words:
        total += int(w)
    return total


def test_int_error_in_loop_and_position():
    f = kiln.njit(parse_in_loop)
    assert f(("1", " 2", "3_0")) == 33
    with pytest.raises(ValueError) as ei:
        f(("1", "zz"))
    assert ei.value.args == ("invalid literal for int() with base 10: 'zz'",)
    # the raise is reported at the line of int(w)
    line = parse_in_loop.__code__.co_firstlineno + 3
    text = "".join(getattr(ei.value, "__notes__", [])) + "".join(
        __import__("traceback").format_exception(ei.value))
    assert f"line {line}" in text or f":{line}" in text


def many_owned(n):
    s = "x"
    parts = ("a", "é", "→", "😀")
    for i in range(n):
        s = s + parts[i % 4]
        if len(s) > 30:
            s = s[10:]
    return s, s == s[:], s[::-1][::-1] == s


def test_owned_values_in_loops():
    check(many_owned, 200)


def global_sep(s):
    return s + SEP + s


SEP = "→"


def test_global_str_constant():
    check(global_sep, "a😀")


def test_str_of_float_many():
    # random bit patterns, every power of two (their rounding interval is lopsided) and the
    # values just below them, subnormals included: exactly repr()
    import math
    import random
    import struct
    rnd = random.Random(9)
    vals = [struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0] for _ in range(20000)]
    vals += [2.0 ** k for k in range(-1074, 1024)]
    vals += [math.nextafter(2.0 ** k, 0) for k in range(-1074, 1024, 3)]
    f = kiln.njit(str_of)
    bad = [v for v in vals if f(v) != repr(v)]
    assert not bad, [(v, f(v)) for v in bad[:5]]


def test_contains_random_wide():
    # needles at every offset of haystacks of kinds 1, 2 and 4 (the vector loop's blocks and its
    # tail), and needles that are not there
    import random
    rnd = random.Random(3)
    f = kiln.njit(contains)
    for alphabet in ("ab", "aé", "a→b", "→😀a", "ab→"):
        for n in (1, 7, 8, 9, 15, 16, 17, 31, 40):
            hay = "".join(rnd.choice(alphabet) for _ in range(n))
            for _ in range(6):
                i = rnd.randrange(n)
                m = rnd.randint(1, 6)
                for needle in (hay[i:i + m], "".join(rnd.choice(alphabet) for _ in range(m))):
                    assert f(needle, hay) == contains(needle, hay), (needle, hay)


def reversed_(s):
    return s[::-1], s[-2::-1], s[:0:-1]


@pytest.mark.parametrize("base", ["abcdefghij", "aé→bcdefgh", "a😀→é" * 3])
def test_reverse_lengths(base):
    # every length around the 8-byte words of the reversing copy, each kind
    for n in range(0, 3 * len(base)):
        check(reversed_, (base * 3)[:n])
