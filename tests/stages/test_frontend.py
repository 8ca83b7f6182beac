"""Stage tests for the frontend: Python source -> untyped KIR text (``_stages(f, keys)["kir"]``).

The checks read the KIR *structure* (blocks, terminators, operations, positions), never whole
dumps, so renumbered values or reordered blocks do not break them. Expected positions come from
this file's own source (``harness.locate``), so editing the file never breaks them either.
"""

import math
import re

import pytest

from harness import locate
from kiln import _core
from programs import f_mixed, f_floordiv, f_while_true, f_if_false, f_raise

# ---------------------------------------------------------------------------------------------
# A small reader for KIR text (docs: the printer in src/ir/kir.c).

_POS = re.compile(r"^(?P<body>.*?)\s*;\s*(?P<line>\d+):(?P<col>\d+)\s*$")
_LABEL = re.compile(r"^\s*(?P<name>b\d+):\s*$")
_BR = re.compile(r"^br (?P<to>b\d+)$")
_CBR = re.compile(r"^cbr \S+ \? (?P<t>b\d+) : (?P<f>b\d+)$")


class Instr:
    def __init__(self, raw, body, line, col):
        self.raw, self.body, self.line, self.col = raw, body, line, col
        m = re.match(r"^(%\d+) = (\w+)", body)
        self.value = m.group(1) if m else None
        self.op = m.group(2) if m else body.split()[0]

    def __repr__(self):
        return f"<{self.body} @{self.line}:{self.col}>"


def parse_kir(text):
    """{"header": str, "blocks": {label: [Instr]}, "positionless": [lines]} of one KIR dump."""
    header, blocks, positionless, current = None, {}, [], None
    for raw in text.splitlines():
        if not raw.strip():
            continue
        if raw.startswith("function "):
            header = raw
            continue
        m = _LABEL.match(raw)
        if m:
            current = blocks.setdefault(m.group("name"), [])
            continue
        if raw.startswith("    "):
            p = _POS.match(raw.strip())
            if not p:
                positionless.append(raw)
                continue
            current.append(Instr(raw, p.group("body"), int(p.group("line")), int(p.group("col"))))
    return {"header": header, "blocks": blocks, "positionless": positionless}


def successors(block):
    if not block:
        return []
    last = block[-1].body
    m = _BR.match(last)
    if m:
        return [m.group("to")]
    m = _CBR.match(last)
    if m:
        return [m.group("t"), m.group("f")]
    return []


def reachable(kir):
    """Labels reachable from the entry block (the first one printed)."""
    blocks = kir["blocks"]
    entry = next(iter(blocks))
    seen, todo = {entry}, [entry]
    while todo:
        for s in successors(blocks[todo.pop()]):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return seen


def instrs(kir, labels=None):
    for label, block in kir["blocks"].items():
        if labels is None or label in labels:
            yield from block


def defs(kir):
    """%value -> Instr that defines it."""
    return {i.value: i for i in instrs(kir) if i.value}


def stages(func, *keys):
    return _core._stages(func, keys)


def kir_of(func, *keys):
    return parse_kir(stages(func, *keys)["kir"])


def source_span(func):
    """(first, last) file lines of func's source."""
    import inspect

    lines, first = inspect.getsourcelines(func)
    return first, first + len(lines) - 1


# ---------------------------------------------------------------------------------------------
# Functions under test (kiln compiles from source, so they live in this file; those another
# stage test compiles too are in programs.py).

K = 3


def f_count(n):
    s = 0
    for i in range(n):
        s += i
    return s


def f_count_down(n):
    s = 0
    for i in range(n, 0, -1):
        s += i
    return s


def f_count_start_stop(a, b):
    s = 0
    for i in range(a, b):
        s = s + i
    return s


def f_while_one_nested(n):
    i = 0
    while 1:
        while True:
            i += 1
            if i % 7 == 0:
                break
        if i > n:
            return i


def f_while_cond(n):
    while n > 0:
        n -= 1


def f_globals(x):
    return x * K + math.pi


def f_tuple(t):
    a, b = t
    return (b, a), t[0]


def f_calls(x):
    return abs(x) + max(x, 2) + min(1, x)


def f_while_else(n):
    i = 0
    while i < n:
        if i == 5:
            break
        i += 1
    else:
        i = -1
    return i


def f_boolops(a, b):
    return (a > 0 and b > 0) or not a


ALL = [
    (f_mixed, ("int64", "float64")),
    (f_floordiv, ("int64", "int64")),
    (f_count, ("int64",)),
    (f_count_down, ("int64",)),
    (f_count_start_stop, ("int64", "int64")),
    (f_while_true, ("int64",)),
    (f_while_one_nested, ("int64",)),
    (f_while_cond, ("int64",)),
    (f_globals, ("int64",)),
    (f_if_false, ("int64",)),
    (f_raise, ("int64",)),
    (f_tuple, (("tuple", "int64", "float64"),)),
    (f_calls, ("int64",)),
    (f_while_else, ("int64",)),
    (f_boolops, ("int64", "int64")),
]
IDS = [f.__name__ for f, _ in ALL]


# ---------------------------------------------------------------------------------------------
# Spans on every instruction.

@pytest.mark.parametrize("func, keys", ALL, ids=IDS)
@pytest.mark.parametrize("stage", ["kir", "typed"])
def test_every_instruction_has_a_position(func, keys, stage):
    kir = parse_kir(stages(func, *keys)[stage])
    assert kir["header"] and kir["header"].startswith(f"function {func.__name__}(")
    assert kir["blocks"], "no blocks printed"
    assert not kir["positionless"], f"instructions without '; line:col': {kir['positionless']}"
    first, last = source_span(func)
    for ins in instrs(kir):
        assert first <= ins.line <= last, f"{ins} is outside {func.__name__} ({first}-{last})"
        assert ins.col >= 1, ins
    # every block ends in a terminator
    for label, block in kir["blocks"].items():
        assert block, f"empty block {label}"
        assert block[-1].op in ("br", "cbr", "ret", "raise"), f"{label} ends with {block[-1]}"


def test_positions_point_at_the_source():
    kir = kir_of(f_floordiv, "int64", "int64")
    ops = {i.op: i for i in instrs(kir)}
    div = next(i for i in instrs(kir) if i.op == "binop" and " // " in i.body)
    assert (div.line, div.col) == locate(f_floordiv, "a // b")
    assert (ops["ret"].line, ops["ret"].col) == locate(f_floordiv, "return")
    line, col = locate(f_floordiv, "a // b")
    loads = [i for i in instrs(kir) if i.op == "load"]
    assert [(i.line, i.col) for i in loads] == [(line, col), (line, col + len("a // "))]
    line, col = locate(f_floordiv, "a, b")
    args = [i for i in instrs(kir) if i.op == "arg"]
    assert [(i.line, i.col) for i in args] == [(line, col), (line, col + len("a, "))]

    kir = kir_of(f_mixed, "int64", "float64")
    const25 = next(i for i in instrs(kir) if i.op == "const" and i.body.endswith("2.5"))
    assert (const25.line, const25.col) == locate(f_mixed, "2.5")
    store_x = [i for i in instrs(kir) if i.body.startswith("store x ")]
    assert [(i.line, i.col) for i in store_x] == [locate(f_mixed, "x = 1"),
                                                  locate(f_mixed, "x = 2.5")]


def test_arguments_are_read_in_order_and_stored_to_their_names():
    kir = kir_of(f_mixed, "int64", "float64")
    entry = next(iter(kir["blocks"].values()))
    args = [i for i in entry if i.op == "arg"]
    assert [i.body.split("=", 1)[1].split() for i in args] == [["arg", "0"], ["arg", "1"]]
    stored = {}
    for i in entry:
        m = re.match(r"^store (\S+) (%\d+)$", i.body)
        if m:
            stored[m.group(2)] = m.group(1)
    assert [stored[a.value] for a in args] == ["a", "b"]


# ---------------------------------------------------------------------------------------------
# for i in range(...): a counted loop, no range object.

def _counted_loop(kir, cmp_op):
    """Check the shape of a counted loop and return (header label, compare Instr)."""
    d = defs(kir)
    assert not [i for i in instrs(kir) if i.op == "call"], "range(...) should not be called"
    headers = []
    for label, block in kir["blocks"].items():
        last = _CBR.match(block[-1].body)
        if not last:
            continue
        cond = re.match(r"^cbr (%\d+)", block[-1].body).group(1)
        ins = d.get(cond)
        if ins is not None and ins.op == "cmp" and f"cmp {cmp_op} " in ins.body:
            headers.append((label, ins))
    assert len(headers) == 1, f"expected one loop header comparing with {cmp_op!r}: {headers}"
    label, cmp = headers[0]
    # the header is entered again from the loop body (a back edge), from a block that steps the
    # index with an add
    preds = [lb for lb, b in kir["blocks"].items() if label in successors(b)]
    assert len(preds) >= 2, f"loop header {label} has no back edge: {preds}"
    steppers = [lb for lb in preds if any(i.op == "binop" and " + " in i.body
                                          for i in kir["blocks"][lb])]
    assert steppers, "no block steps the loop index before jumping back"
    # both operands of the compare are loads of variables (index and stop), loaded in the header
    operands = re.findall(r"%\d+", cmp.body.split("=", 1)[1])
    assert len(operands) == 2
    assert all(d[o].op == "load" for o in operands), [d[o] for o in operands]
    return label, cmp, [re.match(r"^%\d+ = load (\S+)", d[o].body).group(1) for o in operands]


def test_for_range_is_a_counted_loop():
    kir = kir_of(f_count, "int64")
    _, cmp, (index, stop) = _counted_loop(kir, "<")
    # the stop variable is set from n, the index from a constant 0
    d = defs(kir)
    stores = {}
    for i in instrs(kir):
        m = re.match(r"^store (\S+) (%\d+)$", i.body)
        if m:
            stores.setdefault(m.group(1), []).append(d.get(m.group(2)))

    def origin(ins):  # look through casts to int64
        while ins is not None and ins.op == "cast":
            ins = d[re.findall(r"%\d+", ins.body)[-1]]
        return ins

    assert [origin(i).body.split("=", 1)[1].strip() for i in stores[stop]] == ["load n"]
    assert [origin(i).body.split("=", 1)[1].strip() for i in stores[index]][0] == "const 0"
    # the user's variable i is assigned from the index inside the loop
    assert "i" in stores and all(origin(x).op == "load" for x in stores["i"])


def test_for_range_counts_down_with_negative_constant_step():
    _counted_loop(kir_of(f_count_down, "int64"), ">")


def test_for_range_start_stop():
    _counted_loop(kir_of(f_count_start_stop, "int64", "int64"), "<")


def test_range_positions_are_the_range_call():
    kir = kir_of(f_count, "int64")
    _, cmp, _ = _counted_loop(kir, "<")
    assert (cmp.line, cmp.col) == locate(f_count, "range(n)")


# ---------------------------------------------------------------------------------------------
# Constant conditions.

def _returns_none(kir, labels):
    d = defs(kir)
    out = []
    for ins in instrs(kir, labels):
        m = re.match(r"^ret (%\d+)$", ins.body)
        if m and d[m.group(1)].op == "const" and d[m.group(1)].body.endswith("const None"):
            out.append(ins)
    return out


@pytest.mark.parametrize("func", [f_while_true, f_while_one_nested])
def test_constant_while_true_has_no_reachable_implicit_return(func):
    kir = kir_of(func, "int64")
    live = reachable(kir)
    assert _returns_none(kir, live) == []
    # every reachable return returns a value loaded from a variable
    assert [i for i in instrs(kir, live) if i.op == "ret"]


def test_non_constant_while_falls_through_to_return_none():
    # the check above is not vacuous: a loop with a real condition does reach `return None`
    kir = kir_of(f_while_cond, "int64")
    assert _returns_none(kir, reachable(kir))


def test_if_false_is_pruned():
    kir = kir_of(f_if_false, "int64")
    live = reachable(kir)
    assert not [i for i in instrs(kir, live) if i.op == "cbr"]
    assert not [i for i in instrs(kir, live) if i.op == "const" and "1.5" in i.body]


# ---------------------------------------------------------------------------------------------
# Frozen constants, calls, raise.

def test_globals_are_frozen_as_constants():
    kir = kir_of(f_globals, "int64")
    bodies = [i.body for i in instrs(kir)]
    assert not any(re.search(r"\bglobal K\b", b) for b in bodies)
    consts = [b.split("const", 1)[1].strip() for b in bodies if " = const " in b]
    assert "3" in consts
    assert any(c.startswith("3.14159265358979") and float(c) == math.pi for c in consts)


def test_builtin_calls_are_calls_of_globals():
    kir = kir_of(f_calls, "int64")
    d = defs(kir)
    called = []
    for ins in instrs(kir):
        if ins.op == "call":
            callee = d[re.findall(r"%\d+", ins.body)[1]]
            called.append(callee.body.split("global", 1)[1].strip())
    assert called == ["abs", "max", "min"]


def test_raise_is_a_terminator_at_the_raise_statement():
    kir = kir_of(f_raise, "int64")
    raises = [i for i in instrs(kir) if i.op == "raise"]
    assert len(raises) == 1
    assert (raises[0].line, raises[0].col) == locate(f_raise, "raise ValueError")
    block = next(b for b in kir["blocks"].values() if raises[0] in b)
    assert block[-1] is raises[0]


def test_while_else_and_break():
    kir = kir_of(f_while_else, "int64")
    live = reachable(kir)
    d = defs(kir)
    # i = 0, i += 1 and the else branch's i = -1 are all reachable
    stored = [d[i.body.split()[-1]] for i in instrs(kir, live) if i.body.startswith("store i ")]
    assert len(stored) == 3
    assert any(x.op == "const" and x.body.endswith("const -1") for x in stored)
    # the break jumps out of the loop: some block reachable only through the `i == 5` branch
    # leads to the return without running the else branch
    ret_blocks = [lb for lb in live if any(i.op == "ret" for i in kir["blocks"][lb])]
    assert len(ret_blocks) == 1


def test_kir_is_deterministic():
    a = stages(f_mixed, "int64", "float64")
    b = stages(f_mixed, "int64", "float64")
    assert a["kir"] == b["kir"]
    assert a["typed"] == b["typed"]
