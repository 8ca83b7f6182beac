"""The one-pass search that str.replace and str.count use for needles of two or more characters
(runtime/str_find.c: the ends of the needle compared 16 bytes of positions at a time, the middle
only where both match, memmem once the ends keep matching without the middle). Texts long enough
for the vector steps, in all three kinds, with matches on and across the step boundaries, at the
very end, overlapping, and text of repeats; CPython is the oracle (harness.check)."""

import pytest

from harness import check


def replace_count(s, old, new):
    return s.replace(old, new), s.count(old), s.replace(old, new, 3)


def _texts(alphabet):
    a, b, c = alphabet
    base = (a + b + c + " ") * 23
    out = [base, base + a + b, a * 70 + b + a * 5, (a + b) * 40 + a, b + a * 100 + b]
    for at in range(0, 40):  # one needle at every offset around the first steps
        out.append(c * at + a + b + a + c * (41 - at))
    return out


ALPHABETS = {"ascii": "xyz", "latin1": "éöz", "ucs2": "→é€", "ucs4": "😀é→"}


@pytest.mark.parametrize("kind", list(ALPHABETS))
@pytest.mark.parametrize("m", [2, 3, 5, 17])
def test_replace_count_long(kind, m):
    a, b, c = ALPHABETS[kind]
    needles = {2: [a + b, b + a, c + c], 3: [a + b + a, a + a + b, c + " " + a],
               5: [(a + b) * 2 + a, a * 5, a + b + c + " " + a],
               17: [a * 17, (a + b + c + " ") * 4 + a]}[m]
    for s in _texts(ALPHABETS[kind]):
        for old in needles:
            check(replace_count, s, old, "--")
            check(replace_count, s, old, "ü" + b)


@pytest.mark.parametrize("n", [100, 1000, 5000])
def test_repeats_stay_right(n):
    # the ends of 'aba...a' match at every position of 'aaaa': the search hands over to memmem
    for s in ("a" * n, "a" * n + "b" + "a" * 3, "→" * n + "é→"):
        for old in ("aba", "aa", "a" * 7 + "b" + "a", "→é→", "→→"):
            check(replace_count, s, old, "x")


def test_mixed_kinds():
    # a narrower needle is widened first; a wider one cannot occur
    s = ("→ab" * 30) + "ab"
    check(replace_count, s, "ab", "→")
    check(replace_count, "ab" * 40, "a→", "x")
    check(replace_count, "😀ab" * 30, "ab", "c")
