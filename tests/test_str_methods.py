"""str methods, format(), repr(), f-strings and 'literal'.format(...) in compiled code. CPython
is the oracle: every function runs interpreted and compiled on ASCII, Latin-1, UCS-2 and UCS-4
text (harness.check), results and exceptions compared; allocation counters balance after each
test (conftest's leak fixture)."""

import pytest

import kiln
from harness import assert_diagnostic, check

TEXTS = ["", "a", "hello world", "  Hello, World!  ", "héllo→wörld", "straße ǅemal",
         "ΟΔΟΣ ΟΔΟΣ.", "a😀b 😀", "İstanbul", "ﬁne ǈ", "\tx\ty\n", "MiXeD cAsE 123",
         "٣٤5", "a,b,,c,", "l1\nl2\r\nl3\rl4\u2028", "ÿ", "K mega"]
NEEDLES = ["", "l", "o", "→", "😀", "ll", "x", ",", "ö", "héllo", "a"]
BOUNDS = [(0, None), (1, None), (-3, None), (0, -2), (2, 5), (5, 2), (20, None), (-30, 3)]


def find_all(s, sub):
    return (s.find(sub), s.rfind(sub), s.count(sub), sub in s, s.startswith(sub),
            s.endswith(sub))


def find_bounds(s, sub, a, b):
    return (s.find(sub, a, b), s.rfind(sub, a, b), s.count(sub, a, b),
            s.startswith(sub, a, b), s.endswith(sub, a, b))


def find_start(s, sub, a):
    return s.find(sub, a), s.rfind(sub, a), s.count(sub, a), s.startswith(sub, a)


def index(s, sub):
    return s.index(sub)


def rindex(s, sub):
    return s.rindex(sub)


def affix_tuple(s):
    return s.startswith(("he", "→", "  ")), s.endswith(("!  ", "😀", "d")), s.startswith(())


@pytest.mark.parametrize("s", TEXTS)
@pytest.mark.parametrize("sub", NEEDLES)
def test_find_count_affix(s, sub):
    check(find_all, s, sub)


@pytest.mark.parametrize("s", ["héllo→wörld", "a😀b 😀", "hello world", ""])
@pytest.mark.parametrize("sub", ["", "l", "→", "😀", "o w"])
@pytest.mark.parametrize("a,b", BOUNDS)
def test_find_bounds(s, sub, a, b):
    check(find_bounds, s, sub, a, b)
    if b is None:
        check(find_start, s, sub, a)


@pytest.mark.parametrize("s", TEXTS[:9])
@pytest.mark.parametrize("sub", ["l", "😀", "zz", ""])
def test_index_raises_value_error(s, sub):
    check(index, s, sub)
    check(rindex, s, sub)


@pytest.mark.parametrize("s", TEXTS)
def test_affix_tuple(s):
    check(affix_tuple, s)


def replace(s, old, new):
    return s.replace(old, new)


def replace_count(s, old, new, n):
    return s.replace(old, new, n)


@pytest.mark.parametrize("s", TEXTS + ["aaaa", "abababa"])
@pytest.mark.parametrize("old,new", [("l", "L"), ("", "-"), ("o", ""), ("→", "->"),
                                     ("😀", "e"), ("aa", "b"), ("aba", "X"), ("é", "e"),
                                     ("ö", "😀"), ("", "")])
def test_replace(s, old, new):
    check(replace, s, old, new)
    for n in (-1, 0, 1, 2):
        check(replace_count, s, old, new, n)


def case(s):
    return s.upper(), s.lower(), s.casefold(), s.swapcase(), s.title(), s.capitalize()


def preds(s):
    return (s.isdigit(), s.isalpha(), s.isalnum(), s.isspace(), s.isupper(), s.islower(),
            s.istitle(), s.isdecimal(), s.isnumeric(), s.isidentifier(), s.isascii(),
            s.isprintable())


CASE_TEXTS = TEXTS + ["ß", "ΑΣ", "ΑΣ Α", "Σ", "A.Σ", "ǅ", "ŉ", "ΐ", "Ⅻ", "ⓐⒶ", "_id1", "1d",
                      "ﬀ", "ᾳ", "𐐀𐐨", "\u0345", "   ", "\x85", "ab\u200bcd", "Hello World",
                      "HELLO", "hello", "Ǆ", "ﬃ", "ê", "ﹰ", "𝟘"]


@pytest.mark.parametrize("s", CASE_TEXTS)
def test_case_mapping(s):
    check(case, s)


@pytest.mark.parametrize("s", CASE_TEXTS)
def test_predicates(s):
    check(preds, s)


def test_case_every_bmp_character():
    """every BMP code point alone and between letters: the tables are the interpreter's"""
    f = kiln.njit(case)
    g = kiln.njit(preds)
    for base in range(0, 0x10000, 0x400):
        chars = [chr(c) for c in range(base, base + 0x400) if not 0xD800 <= c < 0xE000]
        text = "".join(chars)
        if not text:
            continue
        assert f(text) == case(text), hex(base)
        for c in chars[::7]:
            assert g(c) == preds(c), hex(ord(c))
            assert f("a" + c + "B") == case("a" + c + "B"), hex(ord(c))


def strips(s):
    return s.strip(), s.lstrip(), s.rstrip()


def strips_chars(s, chars):
    return s.strip(chars), s.lstrip(chars), s.rstrip(chars)


def strip_none(s):
    return s.strip(None)


@pytest.mark.parametrize("s", TEXTS)
def test_strip(s):
    check(strips, s)
    check(strip_none, s)
    for chars in ["", " ", "hd", "→ld", "😀a", " \t\n!"]:
        check(strips_chars, s, chars)


def pads(s, w):
    return s.zfill(w), s.center(w), s.ljust(w), s.rjust(w)


def pads_fill(s, w, f):
    return s.center(w, f), s.ljust(w, f), s.rjust(w, f)


@pytest.mark.parametrize("s", TEXTS + ["-42", "+7", "-"])
@pytest.mark.parametrize("w", [-1, 0, 3, 12, 21])
def test_pad(s, w):
    check(pads, s, w)
    for f in ["*", "→", "😀"]:
        check(pads_fill, s, w, f)


def test_pad_fill_must_be_one_character():
    check(pads_fill, "ab", 5, "ab")
    check(pads_fill, "ab", 5, "")


def parts(s, sep):
    return s.partition(sep), s.rpartition(sep)


@pytest.mark.parametrize("s", TEXTS)
@pytest.mark.parametrize("sep", ["l", ",", "→", "😀", "o w", "zz", ""])
def test_partition(s, sep):
    check(parts, s, sep)


def tabs(s, n):
    return s.expandtabs(n), s.expandtabs(), s.expandtabs(tabsize=n)


@pytest.mark.parametrize("s", ["\tx\ty\n", "a\tbc\t\nx\ty", "é\t→\t😀", "", "no tabs",
                               "\r\t\t"])
@pytest.mark.parametrize("n", [-1, 0, 1, 4, 8])
def test_expandtabs(s, n):
    check(tabs, s, n)


def splits(s):
    return s.split(), s.rsplit(), s.splitlines(), s.splitlines(True)


def splits_sep(s, sep, m):
    return s.split(sep, m), s.rsplit(sep, m), s.split(sep), s.rsplit(sep)


def splits_kw(s, sep, m):
    return (s.split(sep=sep, maxsplit=m), s.rsplit(maxsplit=m), s.split(None, m),
            s.splitlines(keepends=True))


@pytest.mark.parametrize("s", TEXTS + ["  a  b  ", "a\u3000b\x1cc"])
def test_split_whitespace_and_lines(s):
    check(splits, s)


@pytest.mark.parametrize("s", TEXTS)
@pytest.mark.parametrize("sep", ["l", ",", "→", "😀", " ", "o w", ""])
@pytest.mark.parametrize("m", [-1, 0, 1, 2])
def test_split_sep(s, sep, m):
    check(splits_sep, s, sep, m)


@pytest.mark.parametrize("s", ["a b  c ", "x,y,z", "héllo→wörld"])
@pytest.mark.parametrize("m", [-1, 1])
def test_split_keywords(s, m):
    check(splits_kw, s, ",", m)


def join_split(s, sep):
    return sep.join(s.split()), sep.join([s, s, "→"]), sep.join(("a", s)), sep.join([s])


def join_empty(sep):
    parts = ["x"]
    parts.pop()
    return sep.join(parts)


@pytest.mark.parametrize("s", TEXTS)
@pytest.mark.parametrize("sep", ["", ",", ", ", "→", "😀"])
def test_join(s, sep):
    check(join_split, s, sep)
    check(join_empty, sep)


def join_arg(sep, items):
    return sep.join(items)


def test_join_list_argument():
    check(join_arg, "-", ["a", "é", "😀"])


def format_int(x):
    return (format(x), format(x, "d"), format(x, ">8"), format(x, "<8"), format(x, "^9"),
            format(x, "+"), format(x, " "), format(x, ","), format(x, "_"), format(x, "012,"),
            format(x, "#x"), format(x, "X"), format(x, "#o"), format(x, "b"), format(x, "_b"),
            format(x, "*^+12,"), format(x, "→=10"), format(x, ".2f"), format(x, "e"),
            format(x, "%"), format(x, "n"), format(x, "#010x"))


def format_float(x):
    return (format(x), format(x, ".2f"), format(x, "10.3f"), format(x, "<10.1e"),
            format(x, "E"), format(x, "g"), format(x, ".3g"), format(x, "#g"), format(x, "G"),
            format(x, ".3"), format(x, ","), format(x, "_.2f"), format(x, "+.1%"),
            format(x, "012,.2f"), format(x, "→^15.4"), format(x, "=+12.3f"), format(x, ".0f"),
            format(x, "F"), repr(x), str(x))


def format_str(s):
    return (format(s), format(s, "s"), format(s, ">12"), format(s, "*<12"), format(s, "→^13"),
            format(s, ".3"), format(s, "12.2"), repr(s))


INTS = [0, 1, -1, 7, 255, -1234567, 2**63 - 1, -2**63, 1000000]
FLOATS = [0.0, -0.0, 0.1, 1.5, 2.5, -1234.5678, 1e16, 1e-7, 123456789.125, float("inf"),
          -float("inf"), float("nan"), 1e300, 5e-324, 0.30000000000000004, 1 / 3, 2.0**60]


@pytest.mark.parametrize("x", INTS)
def test_format_int(x):
    check(format_int, x)


@pytest.mark.parametrize("x", FLOATS)
def test_format_float(x):
    check(format_float, x)


@pytest.mark.parametrize("s", TEXTS + ["it's", 'say "hi"', "both ' and \"", "\x00\x7f\x85\u200b"
                                       "\U0001f600\ud7ff"])
def test_format_and_repr_str(s):
    check(format_str, s)


def int_text(x):
    return str(x), f"{x}", format(x), format(x, ""), "{}".format(x), f"<{x}>{-x // 3}"


@pytest.mark.parametrize("x", INTS[:-2] + [9, 10, 99, 100, -9, -10, 10**18, -10**18, 10**19 // 2])
def test_int_empty_spec_is_str(x):
    # str(int), format(int) and f"{int}" share one integer-to-decimal routine
    check(int_text, x)


def uint_text(x):
    return str(x), f"{x}", format(x), f"{x:>22}"


@pytest.mark.parametrize("x", [0, 7, 10, 2**63, 2**64 - 1])
def test_uint64_empty_spec_is_str(x):
    np = pytest.importorskip("numpy")
    check(uint_text, np.uint64(x))


def format_bool(b):
    return format(b), format(b, ">6"), format(b, "d"), repr(b), f"{b}", f"{b:^7}"


@pytest.mark.parametrize("b", [True, False])
def test_format_bool(b):
    check(format_bool, b)


def format_dynamic(x, spec):
    return format(x, spec)


@pytest.mark.parametrize("x,spec", [(5, "q"), (1.5, "d"), ("a", "+"), (5, ".2"), (5, "x,"),
                                    (5, "5.x"), ("a", "="), (1.5, ",,")])
def test_bad_format_spec_raises_value_error(x, spec):
    check(format_dynamic, x, spec, exc_msg=False)


def fstrings(x, y, s, w):
    return (f"a{x}b{y:.3f}c{s!r}d{s:>10}|{x:#06x}|{y:{w}.2e}|{x:,}|{s!s:*^9}",
            f"{x}", f"", f"{{}}{x}}}", f"{s}{s}{s}", f"{y!r:>25}", f"{x:{w}}")


@pytest.mark.parametrize("s", ["", "héllo", "a😀b", "x"])
@pytest.mark.parametrize("x,y", [(12345, 3.14159), (-7, -0.5), (0, float("inf"))])
def test_fstrings(x, y, s):
    check(fstrings, x, y, s, 12)


def str_format(x, y, s):
    return ("{} and {:>5} {n}".format(x, s, n=y), "{1}{0}{1}".format(s, x),
            "{0!r:^12}|{1:.2%}".format(s, y), "{{literal}}".format(), "{:,}".format(x),
            "→{}😀".format(s))


@pytest.mark.parametrize("s", ["", "héllo", "a😀b"])
def test_str_format(s):
    check(str_format, 1234567, 0.25, s)


def loop_build(n):
    out = ""
    for i in range(n):
        out = out + f"{i}:{i * 0.5:.1f};".upper()
    return out.strip(";").split(";")


def test_fstring_in_loop_balances():
    check(loop_build, 50)


# ---- bad input: typing errors at the call ----

def bad_find(s):
    return s.find(1)


def bad_replace(s):
    return s.replace("a", 2)


def bad_split(s):
    return s.split(maxsplit="x")


def bad_kw(s):
    return s.find("a", start=1)


def bad_join(s):
    return s.join([1, 2])


def bad_nargs(s):
    return s.upper(1)


@pytest.mark.parametrize("fn,snippet,words", [
    (bad_find, "1)", ("str.find", "must be str, not int")),
    (bad_replace, "2)", ("str.replace", "argument 2 must be str")),
    (bad_split, "\"x\"", ("str.split", "must be int")),
    (bad_kw, "s.find(\"a\", start=1)", ("str.find", "keyword")),
    (bad_join, "[1, 2]", ("str.join", "list or tuple of str")),
    (bad_nargs, "s.upper(1)", ("str.upper", "positional")),
])
def test_typing_errors(fn, snippet, words):
    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(fn)("abc")
    assert_diagnostic(ei.value, kiln.errors.TypingError, fn, snippet, contains=words)


def bad_format_field(s):
    return "{0.real}".format(s)


def bad_format_index(s):
    return "{5}".format(s)


def test_str_format_bad_fields():
    with pytest.raises(kiln.errors.KilnError) as ei:
        kiln.njit(bad_format_field)("a")
    # attribute fields are compiled now (tests/test_str_format_more.py): a str has no .real
    assert "str has no attribute 'real'" in str(ei.value)
    with pytest.raises(kiln.errors.TypingError) as ei:
        kiln.njit(bad_format_index)("a")
    assert "out of range" in str(ei.value)


def split_in_loop(s, n):
    total = 0
    for i in range(n):
        total += len(s.split(",")) + len(s.upper()) + s.count("a")
    return total


def test_loop_allocations_balance():
    check(split_in_loop, "a,b,é,😀," * 10, 100)


def split_items(s):
    parts = s.split(",")
    out = []
    for p in parts:
        out.append(p.strip().upper())
    parts.append("→")
    return out, parts[0], parts[-1], len(parts), "|".join(parts)


@pytest.mark.parametrize("s", ["a, b ,c", "", "é,😀,x", ",,"])
def test_split_results_used_in_compiled_code(s):
    """the list split makes has the item layout compiled code reads (48-byte KnStr items)"""
    check(split_items, s)


def str_of_temporary(s):
    return str(s.upper()), f"{s.upper()!s}", f"{s.lower()!r}", format(s.title())


def test_str_of_a_temporary_balances():
    """str()/format() of a str that is itself a temporary: a new reference, released once"""
    check(str_of_temporary, "héllo")


@pytest.mark.parametrize("x", FLOATS)
def test_format_float_without_the_gil(x):
    """nogil=True: the runtime's own digits (CPython's repr needs the GIL), the same text"""
    check(format_float, x, cfunc=kiln.njit(nogil=True)(format_float))
