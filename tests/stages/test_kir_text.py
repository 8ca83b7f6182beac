"""Stage tests for the KIR text format: what ``kn_kir_print`` prints, ``src/ir/read.c`` reads
back (``kiln._core._read_kir(text)`` reads and prints again).

What is checked, for the functions of ``programs.py``, every program of ``tests/corpus`` that
compiles, and the functions below (which use most ops and immediates: slices, unpacking, `is`,
keywords, strings with quotes and escapes, complex, float32, bool and uint64 constants, -0.0,
inf, raise, assert, enumerate, arrays): print -> read -> print gives the same text, untyped and
typed; and typing the read-back untyped KIR (``_run_pass(kir, "typing", keys)``) gives exactly
the typed KIR of the real pipeline, so the reader loses nothing typing needs. The whole suite can
run the same round trip on every function it compiles with ``KILN_VERIFY=2``.
"""

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import kiln
import programs
from kiln import _core

K = 3.5
T = (1, 2.5, 'a"b\\c\nd\x01')
ARR = ("array", "float64", 1, "C", False)


def f_ops(a, x, t):
    s = 0.0
    p, q = t
    if p is None:
        s = 1.0
    y = x[1:5]
    z = x[::2]
    w = x[a:]
    v = np.sum(x, axis=0)
    c = 1 + 2j
    f = np.float32(1.5)
    b = True
    n = -0.0
    e = math.inf
    u = np.uint64(18446744073709551615)
    print('he said "hi"\t', a, T[2])
    for i, xi in enumerate(x):
        s += xi * K
    if a < 0:
        raise ValueError("negative", 3)
    assert a != 7, "seven"
    x[0] = s
    m = x[a : a + 2, ...] if x.ndim == 2 else x[:a]
    return s + p + q + v + c.real + f + b + n + e + len(m) + T[0] + u + len(y) + len(z) + len(w)


def f_axpy(a, x, y):
    return a * x + np.sqrt(y)


def f_loops(a, n):
    total = 0
    k = 0
    while k < n:
        k += 1
        if k % 3 == 0 and k != 9 or k > 100:
            continue
        for j in range(k, 0, -1):
            total += a[j % a.shape[0]] // 2 if 0 < j < 5 else -j
    return total, a.sum(), a.T.shape


def f_edge(x):
    # found by running the suite with KILN_VERIFY=2: an empty tuple's type (`tuple : Tuple()`,
    # no operands) and a subnormal constant (strtod's ERANGE) did not read back
    t = ()
    y = 1e-310
    return x + y + len(t)


OPS_KEYS = ("int64", ARR, ("tuple", "int64", "float64"))
LOCAL = [
    (f_edge, ("float64",)),
    (f_ops, OPS_KEYS),
    (f_axpy, ("float64", ARR, ARR)),
    (f_loops, (("array", "int64", 1, "C", False), "int64")),
    (programs.f_mixed, ("int64", "float64")),
    (programs.f_floordiv, ("int64", "int64")),
    (programs.f_while_true, ("int64",)),
    (programs.f_if_false, ("float64",)),
    (programs.f_raise, ("int64",)),
]


def _corpus():
    cases = []
    for path in sorted((Path(__file__).parent.parent / "corpus").glob("*.py")):
        args = None
        for line in path.read_text().splitlines():
            if not line.startswith("#"):
                break
            key, _, value = line[1:].strip().partition(":")
            if key == "args" and args is None:
                args = value.strip()
            elif key == "error":
                args = "error"
        if args and args != "error":
            cases.append(pytest.param(path, args, id=path.stem))
    return cases


def _load(path):
    spec = importlib.util.spec_from_file_location(f"kir_text_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check(func, keys):
    st = _core._stages(func, keys)
    for stage in ("kir", "typed"):
        assert _core._read_kir(st[stage]) == st[stage], stage
    try:
        retyped = _core._run_pass(st["kir"], "typing", keys)
    except kiln.errors.TypingError as e:  # a call to another jitted function
        assert "cannot be typed from KIR text" in str(e)
        return
    assert retyped == st["typed"]


@pytest.mark.parametrize("func, keys", LOCAL, ids=[f.__name__ for f, _ in LOCAL])
def test_round_trip(func, keys):
    _check(func, keys)


@pytest.mark.parametrize("path, args", _corpus())
def test_round_trip_corpus(path, args):
    values = eval(args, {"__builtins__": {}, "range": range, "inf": math.inf, "nan": math.nan})
    _check(_load(path).main, tuple(_core.typeof(v) for v in values))


def test_untyped_text_shows_a_constant_type_its_literal_does_not_imply():
    kir = _core._stages(f_ops, OPS_KEYS)["kir"]
    consts = [line.split("= const ", 1)[1].split("    ;")[0] for line in kir.splitlines() if "= const " in line]
    assert "0 : float64" in consts  # 0.0
    assert "1 : bool" in consts  # True
    assert "-0 : float64" in consts
    assert "18446744073709551615 : uint64" in consts
    assert "2.5" in consts and "1" in consts  # implied: float64, int64
    assert '"a\\"b\\\\c\\nd\\x01"' in consts


def test_reader_keeps_immediates_the_printer_shows():
    kir = _core._stages(f_ops, OPS_KEYS)["kir"]
    for piece in ("slice [1:5]", "slice [::2]", "makeslice start:_", "getitem unpack 2",
                  "cmp is ", "call kw(axis)", "binop +=", "raise exc#", "getattr .ndim"):
        assert piece in kir
