"""Long generated functions: compiled results against the interpreter, and divisions by zero.

Straight-line functions of thousands of lines used to compile in quadratic time (the issue:
1k/2k/4k/8k lines in 1.1/2.2/5.6/21 s; `x = x // y + k` lines took 35 s for 1k). passes/nonzero.c
drops the zero test of a division whose divisor variable an earlier division on every path has
already tested; these tests check that the first division by zero still raises, with CPython's
exception and message, at its own line, including when the divisor changes in the middle, when
only one branch tested it, and in loops. Sizes are kept small enough to compile in seconds; the
timings are in docs/internals.md, not asserted here."""
import random

import pytest

import kiln
from harness import load_module

PATTERNS = {
    "mod": "    x = (x * {k} + y) % 1000003",
    "cond": "    x = x + y if x > {k} else x - 1",
    "div": "    x = x // y + {k}",
    "fdiv": "    z = z / w + {k}",
    "imod": "    x = x % (y + {k}) + y",
}


def outcome(func, *args):
    """(value, None) or (None, (type, message, notes)) for one call."""
    try:
        return func(*args), None
    except Exception as exc:  # noqa: BLE001 - the oracle decides which
        return None, (type(exc), str(exc), getattr(exc, "__notes__", None))


def line_of(source, marker):
    return next(i for i, text in enumerate(source.splitlines(), 1) if marker in text)


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_long_straight_line_function_matches_interpreter(pattern, tmp_path):
    body = "\n".join(PATTERNS[pattern].format(k=(i % 97) + 3) for i in range(300))
    source = ("def f(x, y, z, w):\n" + body + "\n    return x, z\n")
    mod = load_module(tmp_path, f"long_{pattern}", source)
    jf = kiln.njit(mod.f)
    for args in [(12345, 7, 1.5, 3.0), (-9, -4, -2.0, 0.5), (1, 1, 0.0, -1.0)]:
        got, want = outcome(jf, *args), outcome(mod.f, *args)
        assert got[0] == want[0] and (got[1] is None) == (want[1] is None)
        if want[1]:
            assert got[1][:2] == want[1][:2]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_long_mixed_function_matches_interpreter(seed, tmp_path):
    """Random lines over a few variables, with divisions by variables that are reassigned."""
    rng = random.Random(seed)
    names = ["a", "b", "c"]
    lines = []
    for i in range(250):
        t, u, v = rng.choice(names), rng.choice(names), rng.choice(names)
        k = rng.randint(1, 50)
        lines.append(rng.choice([
            f"    {t} = {u} // ({v} * {v} + 1) + {k}",
            f"    {t} = ({u} * {k} + {v}) % 1000003",
            f"    {t} = {u} % ({v} * {v} + 1) - {k}",
            f"    {t} = {u} + {k} if {v} > {k} else {u} - {v}",
            f"    d = {v} % 5 + 1\n    {t} = {u} // d + {u} % d",
            f"    {t} = int({u} / ({v} * {v} + 1.0)) + {k}",
        ]))
    source = "def f(a, b, c):\n    d = 1\n" + "\n".join(lines) + "\n    return a, b, c, d\n"
    mod = load_module(tmp_path, f"mixed_{seed}", source)
    jf = kiln.njit(mod.f)
    for args in [(3, 5, 7), (-11, 2, 9), (0, 0, 1)]:
        assert outcome(jf, *args) == outcome(mod.f, *args)


DIVISIONS = {  # a division by y, and the value that makes y zero
    "floordiv": ("x // y", "0"),
    "mod": ("x % y", "0"),
    "truediv_int": ("int(x / y)", "0"),
    "float_truediv": ("x / y", "0.0"),
    "float_floordiv": ("x // y", "0.0"),
    "float_mod": ("x % y", "0.0"),
}


@pytest.mark.parametrize("kind", sorted(DIVISIONS))
def test_division_by_zero_mid_function_raises_at_its_line(kind, tmp_path):
    """y is tested on 200 lines, then set to zero: the next division raises, at its line."""
    expr, zero = DIVISIONS[kind]
    first = [f"    x = {expr} + {i % 7 + 2}" for i in range(200)]
    then = [f"    x = {expr} + {i % 5 + 1}" for i in range(200)]
    source = ("def f(x, y, set_zero):\n" + "\n".join(first) +
              f"\n    if set_zero:\n        y = {zero}\n" +
              f"    x = {expr} + 1  # the failing line\n" + "\n".join(then) + "\n    return x\n")
    mod = load_module(tmp_path, f"zero_{kind}", source)
    jf = kiln.njit(mod.f)
    x0, y0 = (10**6, 3) if zero == "0" else (1e6, 3.0)
    assert jf(x0, y0, False) == mod.f(x0, y0, False)
    _, err = outcome(jf, x0, y0, True)
    _, want = outcome(mod.f, x0, y0, True)
    assert err[:2] == want[:2]
    path = str(tmp_path / f"zero_{kind}.py")
    assert err[2] == [f"raised by kiln-compiled code at {path}:{line_of(source, 'failing')}"]


def test_divisor_tested_on_one_branch_only_is_tested_again(tmp_path):
    source = """\
def f(x, y, flag):
    if flag:
        x = x // y
    x = x % y  # the failing line
    x = x // y + 1
    return x
"""
    mod = load_module(tmp_path, "one_branch", source)
    jf = kiln.njit(mod.f)
    for args in [(100, 7, True), (100, 7, False), (100, 0, False)]:
        assert outcome(jf, *args)[0] == outcome(mod.f, *args)[0]
    _, err = outcome(jf, 100, 0, False)
    assert err[:2] == outcome(mod.f, 100, 0, False)[1][:2]
    path = str(tmp_path / "one_branch.py")
    assert err[2] == [f"raised by kiln-compiled code at {path}:{line_of(source, 'failing')}"]
    _, err = outcome(jf, 100, 0, True)
    assert err[2] == [f"raised by kiln-compiled code at {path}:3"]


def test_divisor_changed_in_loop_is_tested_again(tmp_path):
    source = """\
def f(x, y, n):
    s = 0
    for i in range(n):
        s += x // y
        y = y - 1
        s += x % y  # the failing line
    return s
"""
    mod = load_module(tmp_path, "loop_change", source)
    jf = kiln.njit(mod.f)
    assert jf(1000, 50, 10) == mod.f(1000, 50, 10)
    _, err = outcome(jf, 1000, 5, 10)
    assert err[:2] == outcome(mod.f, 1000, 5, 10)[1][:2]
    path = str(tmp_path / "loop_change.py")
    assert err[2] == [f"raised by kiln-compiled code at {path}:{line_of(source, 'failing')}"]


def test_divisor_tested_before_loop_stays_tested(tmp_path):
    """A loop that never stores y keeps the test made before it (the entry fact holds)."""
    source = """\
def f(x, y, n):
    s = x // y
    for i in range(n):
        s += (x + i) // y + (x - i) % y
    return s
"""
    mod = load_module(tmp_path, "loop_keep", source)
    jf = kiln.njit(mod.f)
    for args in [(1000, 7, 20), (-1000, -3, 5), (5, 0, 3), (5, 0, 0)]:
        assert outcome(jf, *args)[:1] == outcome(mod.f, *args)[:1]
        if args[1] == 0:
            assert outcome(jf, *args)[1][:2] == outcome(mod.f, *args)[1][:2]



def test_nested_conditional_expressions_of_several_types(tmp_path):
    """Scalar `$ifexp` temporaries share one alloca per LLVM type (lower.c, var_slot): nested,
    side by side, int, float, bool and complex ones must not clobber each other."""
    lines = []
    for i in range(60):
        lines += [
            f"    a = (a + {i} if b > {i} else a - 1) + (b if a > b else -{i})",
            f"    f = (f * 0.5 if a % 3 == 0 else (f + 1.5 if b % 2 == 0 else f - 0.25)) + 1.0",
            f"    t = (a > b) if (f > {i} if t else f < {i}) else (b >= a)",
            f"    z = (z * 1j if t else z + {i}) if abs(z) < 1e6 else z / 1e6",
            f"    b = b + (1 if t else 2) * (3 if f > 0 else 4)",
        ]
    source = ("def f(a, b, f, t, z):\n" + "\n".join(lines) + "\n    return a, b, f, t, z\n")
    mod = load_module(tmp_path, "ifexp_types", source)
    jf = kiln.njit(mod.f)
    for args in [(3, 5, 0.5, True, 1 + 2j), (-7, 2, -3.0, False, 0j)]:
        assert jf(*args) == mod.f(*args)
