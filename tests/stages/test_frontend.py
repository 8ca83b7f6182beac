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
_ITERNEXT = re.compile(r"^%\d+ = iternext (?P<it>%\d+) \? (?P<t>b\d+) : (?P<f>b\d+)(?: : \S.*)?$")


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
    m = _CBR.match(last) or _ITERNEXT.match(last)
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


def f_count_by_three(n):
    s = 0
    for i in range(0, n, 3):
        s += i
    return s


def f_count_step(n, k):
    s = 0
    for i in range(0, n, k):
        s += i
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
        assert block[-1].op in ("br", "cbr", "iternext", "ret", "raise"), \
            f"{label} ends with {block[-1]}"


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
# for i in range(...) with a literal step: the iterator protocol over a range iterator (the
# counted loop lowering makes of it), no range object.

def _operands(ins):
    """The values an instruction uses (its own value left out)."""
    return re.findall(r"%\d+", ins.body.split("=", 1)[1] if ins.value else ins.body)


def _origin(d, ins):
    """The instruction a value comes from, looking through casts to int64."""
    while ins is not None and ins.op == "cast":
        ins = d[_operands(ins)[-1]]
    return ins


def _range_loop(kir, step):
    """Check the shape of a loop over a range iterator with the literal `step` and return
    (header label, getiter Instr, iternext Instr, [start, stop] origin Instrs)."""
    d = defs(kir)
    blocks = kir["blocks"]
    assert not [i for i in instrs(kir) if i.op == "call"], "range(...) should not be called"
    getiters = [i for i in instrs(kir) if i.op == "getiter"]
    assert len(getiters) == 1, getiters
    it = getiters[0]
    # getiter range <start>, <stop>, <step>: start and stop cast to int64, the step a constant
    assert re.match(r"^%\d+ = getiter range %\d+, %\d+, %\d+$", it.body), it
    start, stop, st = (d[o] for o in _operands(it))
    assert start.op == "cast" and " to int64 " in start.body, start
    assert stop.op == "cast" and " to int64 " in stop.body, stop
    assert st.op == "const" and int(st.body.split()[-1]) == step, st
    # the loop's header holds nothing but the iternext of that iterator
    headers = [(lb, b) for lb, b in blocks.items() if b and b[-1].op == "iternext"]
    assert len(headers) == 1, f"expected one loop header: {headers}"
    label, header = headers[0]
    assert len(header) == 1, f"the loop header {label} does other work: {header}"
    nxt = header[0]
    m = _ITERNEXT.match(nxt.body)
    assert m and m.group("it") == it.value, nxt
    # the block that makes the iterator is not the header: it runs once, before the loop
    assert label not in [lb for lb, b in blocks.items() if it in b]
    # the header is entered once from before the loop and again from the body (a back edge)
    preds = [lb for lb, b in blocks.items() if label in successors(b)]
    assert len(preds) >= 2, f"loop header {label} has no back edge: {preds}"
    body, done = m.group("t"), m.group("f")
    # the body starts by binding the loop target to the item, and leads back to the header
    first = blocks[body][0]
    assert re.match(rf"^store \S+ {re.escape(nxt.value)}$", first.body), first
    seen, todo = {body}, [body]
    while todo:
        for s_ in successors(blocks[todo.pop()]):
            if s_ not in seen and s_ != label:
                seen.add(s_)
                todo.append(s_)
    assert [lb for lb in preds if lb in seen], "the body does not lead back to the header"
    assert done not in seen or done in successors(header), "the exhausted edge is not the exit"
    # the item is used only where it is defined: in the body, by the target's store
    uses = [i for i in instrs(kir) if nxt.value in _operands(i) and i is not nxt]
    assert uses == [first], uses
    return label, it, nxt, [_origin(d, start), _origin(d, stop)]


def test_for_range_is_a_loop_over_a_range_iterator():
    kir = kir_of(f_count, "int64")
    _, it, nxt, (start, stop) = _range_loop(kir, 1)
    # the stop is n, the start a constant 0
    assert start.body.split("=", 1)[1].strip() == "const 0"
    assert stop.body.split("=", 1)[1].strip() == "load n"
    # the user's variable i is assigned only from the item, inside the loop
    stores_i = [i for i in instrs(kir) if i.body.startswith("store i ")]
    assert [i.body for i in stores_i] == [f"store i {nxt.value}"]


def test_for_range_counts_down_with_negative_constant_step():
    kir = kir_of(f_count_down, "int64")
    _, _, _, (start, stop) = _range_loop(kir, -1)
    assert start.body.split("=", 1)[1].strip() == "load n"
    assert stop.body.split("=", 1)[1].strip() == "const 0"


def test_for_range_start_stop():
    kir = kir_of(f_count_start_stop, "int64", "int64")
    _, _, _, (start, stop) = _range_loop(kir, 1)
    assert [x.body.split("=", 1)[1].strip() for x in (start, stop)] == ["load a", "load b"]


def test_for_range_with_a_step_literal_keeps_it():
    kir = kir_of(f_count_by_three, "int64")
    _range_loop(kir, 3)


def test_for_range_types_are_int64_range_iterators():
    kir = parse_kir(stages(f_count_down, "int64")["typed"])
    getiter = next(i for i in instrs(kir) if i.op == "getiter")
    nxt = next(i for i in instrs(kir) if i.op == "iternext")
    assert getiter.body.endswith(": range_iter(int64, int64, int64) -> int64"), getiter
    assert nxt.body.endswith(": int64"), nxt


def test_range_positions_are_the_range_call():
    kir = kir_of(f_count, "int64")
    _, it, nxt, _ = _range_loop(kir, 1)
    assert (nxt.line, nxt.col) == locate(f_count, "range(n)")
    assert (it.line, it.col) == locate(f_count, "range(n)")


def test_for_range_with_a_variable_step_iterates_a_range_object():
    # a step that is not a literal: its sign is known only at run time, so the loop goes over
    # the range object (called once, before the loop)
    kir = kir_of(f_count_step, "int64", "int64")
    d = defs(kir)
    it = next(i for i in instrs(kir) if i.op == "getiter")
    assert re.match(r"^%\d+ = getiter seq %\d+$", it.body), it
    calls = [i for i in instrs(kir) if i.op == "call"]
    assert len(calls) == 1 and d[_operands(calls[0])[0]].body.endswith("global range")


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
