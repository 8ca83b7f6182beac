"""Stage tests for one KIR pass at a time, from hand-written KIR text.

``kiln._core._run_pass(kir_text, pass_name, argkeys)`` reads the text (src/ir/read.c), types it
for the argument type keys, runs one pass alone (``typing``, ``verify``, ``fuse``, ``raises``,
``defer``, ``nonzero``) with the KIR verifier before and after, and returns the typed KIR after
it. What a pass leaves beside the KIR comes as comment lines: ``; can_raise N`` (raises),
``; deferred %D to bE`` (defer), ``; nonzero %D`` (nonzero).

The programs below are written without spans: ``program()`` gives every instruction the span
``<its line in the text>:1``, so an error's position names the line of the text. What is
checked: the fuse pass fuses a chain of elementwise array operations into one ``fused`` and
leaves alone an intermediate used twice; defer moves the zero check of a loop's float division
to the loop's exit (a counted loop written with `$` counters, and a loop over a range iterator)
and does not when the loop has a call with effects; a range iterator is read back, typed, does
not raise by itself, and needs a nonzero constant step; nonzero drops the second
check of a divisor and keeps it after a store to the divisor; raises; the verifier rejects uses
that their definitions do not dominate (across blocks, in the block, across an exception edge),
bad arity, misplaced terminators; the ops that the frontend does not emit yet are rejected by
typing with an internal error; bad text and unknown passes raise ``ValueError``.
"""

import re
import textwrap

import pytest

import kiln
from kiln import _core

F64 = "float64"
I64 = "int64"
ARR = ("array", "float64", 1, "C", False)

_INSTR = re.compile(
    r"^    (?:%(?P<id>\d+) = )?(?P<op>\w+)(?P<rest>.*?)(?: : (?P<type>[^;]+?))?\s*;\s*\d+:\d+$"
)


def program(text):
    """Dedent `text` and give each instruction line the span `<line>:1`."""
    out = []
    for n, line in enumerate(textwrap.dedent(text).strip("\n").splitlines(), 1):
        if line.startswith("    ") and ";" not in line:
            line = f"{line}    ; {n}:1"
        out.append(line)
    return "\n".join(out) + "\n"


def line_of(text, needle):
    """1-based line of the first line of `text` that contains `needle`."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def block_of(text, needle):
    """The label (`bN`) of the block holding the first line that contains `needle`."""
    label = None
    for line in text.splitlines():
        if re.match(r"^  b\d+:", line):
            label = line.split(":")[0].strip()
        elif needle in line:
            return label
    raise AssertionError(needle)


def instrs(text):
    """(id or None, op, operand ids, type) for each instruction line."""
    found = []
    for line in text.splitlines():
        m = _INSTR.match(line)
        if m:
            operands = [int(x) for x in re.findall(r"%(\d+)", m.group("rest"))]
            ident = int(m.group("id")) if m.group("id") else None
            found.append((ident, m.group("op"), operands, m.group("type")))
    return found


def notes(text, key):
    return [line[2:] for line in text.splitlines() if line.startswith(f"; {key}")]


# ---- fuse ----

AXPY_SRC = """
    function axpy(a, x, y)
      b0:
        %0 = arg 0
        store a %0
        %2 = arg 1
        store x %2
        %4 = arg 2
        store y %4
        %6 = load a
        %7 = load x
        %8 = binop * %6, %7
        %9 = global numpy.sqrt
        %10 = load y
        %11 = call %9, %10
        %12 = binop + %8, %11
        ret %12
"""
AXPY = program(AXPY_SRC)


def test_fuse_makes_one_fused_of_a_chain_of_elementwise_ops():
    before = _core._run_pass(AXPY, "typing", (F64, ARR, ARR))
    assert [op for _, op, _, _ in instrs(before)].count("binop") == 2
    after = _core._run_pass(AXPY, "fuse", (F64, ARR, ARR))
    got = instrs(after)
    fused = [i for i in got if i[1] == "fused"]
    assert len(fused) == 1
    ident, _, leaves, ty = fused[0]
    # the leaves are the loads of the scalar a, the arrays x and y, in first-use order
    loads = [i[0] for i in instrs(AXPY) if i[1] == "load"]
    assert leaves == loads
    assert ty == "array(float64, 1d, C)"
    # the interior operations are gone; the return takes the fused value
    assert not [i for i in got if i[1] in ("binop", "call")]
    assert [i for i in got if i[1] == "ret"][0][2] == [ident]


def test_fuse_keeps_an_intermediate_that_is_used_twice():
    text = program(AXPY_SRC.replace("        %9 =", "        store t %8\n        %9 ="))
    got = instrs(_core._run_pass(text, "fuse", (F64, ARR, ARR)))
    # a * x is stored as well: it stays an instruction of its own, and is a leaf of nothing
    mul = next(i for i in instrs(text) if i[1] == "binop")  # a * x
    assert any(i[1] == "binop" and i[2] == mul[2] for i in got)
    assert not [i for i in got if i[1] == "fused" and mul[2][0] in i[2]]
    # the rest of the tree (+ and np.sqrt) still fuses, with a * x as one of its leaves
    assert [i[2][0] for i in got if i[1] == "fused"] == [mul[0]]


def test_fuse_on_scalars_changes_nothing():
    typed = _core._run_pass(AXPY, "typing", (F64, F64, F64))
    assert _core._run_pass(AXPY, "fuse", (F64, F64, F64)) == typed


# ---- defer ----

LOOP_DIV_SRC = """
    function total(a, b, n)
      b0:
        %0 = arg 0
        store a %0
        %2 = arg 1
        store b %2
        %4 = arg 2
        store n %4
        %6 = const 0 : float64
        store s %6
        %8 = const 0
        store $i0 %8
        %10 = load n
        store $stop1 %10
        br b1
      b1:
        %13 = load $i0
        %14 = load $stop1
        %15 = cmp < %13, %14
        cbr %15 ? b2 : b3
      b2:
        %17 = load s
        %18 = load a
        %19 = load $i0
        %20 = getitem %18, %19
        %21 = load b
        %22 = binop / %20, %21
        %23 = binop += %17, %22
        store s %23
        %25 = load $i0
        %26 = const 1
        %27 = binop + %25, %26
        store $i0 %27
        br b1
      b3:
        %30 = load s
        ret %30
"""
LOOP_DIV = program(LOOP_DIV_SRC)


def test_defer_moves_a_loop_division_check_to_the_loop_exit():
    after = _core._run_pass(LOOP_DIV, "defer", (ARR, F64, I64))
    division = [line for line in LOOP_DIV.splitlines() if "binop /" in line]
    assert len(division) == 1
    ident = re.match(r"\s*%(\d+)", division[0]).group(1)
    exit_block = block_of(LOOP_DIV, "ret")
    assert notes(after, "deferred") == [f"deferred %{ident} to {exit_block}"]


def test_defer_leaves_a_loop_with_a_call_that_has_effects():
    call = "        %40 = global print\n        %41 = call %40, %23\n"
    text = program(LOOP_DIV_SRC.replace("        %25 = load $i0", call + "        %25 = load $i0"))
    after = _core._run_pass(text, "defer", (ARR, F64, I64))
    assert notes(after, "deferred") == []


# The same loop as the frontend writes it now: a range iterator (getiter range) whose iternext
# is the loop's header.
RANGE_DIV_SRC = """
    function total(a, b, n)
      b0:
        %0 = arg 0
        store a %0
        %2 = arg 1
        store b %2
        %4 = arg 2
        store n %4
        %6 = const 0 : float64
        store s %6
        %8 = const 0
        %9 = load n
        %10 = const 1
        %11 = cast to int64 %8 : int64
        %12 = cast to int64 %9 : int64
        %13 = getiter range %11, %12, %10
        br b1
      b1:
        %15 = iternext %13 ? b2 : b3
      b2:
        store i %15
        %17 = load s
        %18 = load a
        %19 = load i
        %20 = getitem %18, %19
        %21 = load b
        %22 = binop / %20, %21
        %23 = binop += %17, %22
        store s %23
        br b1
      b3:
        %26 = load s
        ret %26
"""
RANGE_DIV = program(RANGE_DIV_SRC)


def test_range_iterator_loop_is_read_back_and_typed():
    back = _core._read_kir(RANGE_DIV)
    assert _core._read_kir(back) == back
    assert [(op, ops) for _, op, ops, _ in instrs(back) if op in ("getiter", "iternext")] == [
        ("getiter", [11, 12, 10]), ("iternext", [13])]
    assert "%13 = getiter range %11, %12, %10" in back and "iternext %13 ? b2 : b3" in back
    typed = _core._run_pass(RANGE_DIV, "typing", (ARR, F64, I64))
    assert [t for _, op, _, t in instrs(typed) if op == "getiter"] == [
        "range_iter(int64, int64, int64) -> int64"]
    head = [line.split(";")[0].strip() for line in typed.splitlines() if " iternext " in line]
    assert head == ["%15 = iternext %13 ? b2 : b3 : int64"]


def test_defer_moves_the_division_check_of_a_range_iterator_loop():
    after = _core._run_pass(RANGE_DIV, "defer", (ARR, F64, I64))
    assert notes(after, "deferred") == [f"deferred %22 to {block_of(RANGE_DIV, 'ret')}"]


def test_range_iterator_loop_raises_only_where_its_body_does():
    # the counter itself cannot raise; the division and the indexing can
    assert notes(_core._run_pass(RANGE_DIV, "raises", (ARR, F64, I64)), "can_raise") == [
        "can_raise 1"]
    quiet = program(RANGE_DIV_SRC.replace("%18 = load a", "%18 = load b")
                    .replace("%20 = getitem %18, %19", "%20 = binop + %18, %19")
                    .replace("%22 = binop / %20, %21", "%22 = binop * %20, %21"))
    assert notes(_core._run_pass(quiet, "raises", (F64, F64, I64)), "can_raise") == [
        "can_raise 0"]


@pytest.mark.parametrize("change", [("%10 = const 1", "%10 = const 0"),
                                    ("%13 = getiter range %11, %12, %10",
                                     "%13 = getiter range %11, %12, %9"),
                                    ("%13 = getiter range %11, %12, %10",
                                     "%13 = getiter range %11, %12")])
def test_typing_rejects_a_range_iterator_without_a_nonzero_constant_step(change):
    text = program(RANGE_DIV_SRC.replace(*change))
    with pytest.raises(kiln.errors.LoweringError) as info:
        _core._run_pass(text, "typing", (ARR, F64, I64))
    assert "internal error: getiter range takes int64 start and stop and a nonzero int64 " \
           "constant step" in str(info.value)
    assert info.value.line == line_of(text, "getiter range")


# ---- nonzero and raises ----

TWO_DIVS_SRC = """
    function twice(a, b)
      b0:
        %0 = arg 0
        store a %0
        %2 = arg 1
        store b %2
        %4 = load a
        %5 = load b
        %6 = binop // %4, %5
        store c %6
        %8 = load a
        %9 = load b
        %10 = binop % %8, %9
        ret %10
"""
TWO_DIVS = program(TWO_DIVS_SRC)


def test_nonzero_drops_the_second_check_of_one_divisor():
    after = _core._run_pass(TWO_DIVS, "nonzero", (I64, I64))
    second = re.match(r"\s*(%\d+)", TWO_DIVS.splitlines()[line_of(TWO_DIVS, "binop %") - 1])
    assert notes(after, "nonzero") == [f"nonzero {second.group(1)}"]


def test_nonzero_keeps_the_check_after_a_store_to_the_divisor():
    text = program(TWO_DIVS_SRC.replace("store c %6", "store b %6"))
    assert notes(_core._run_pass(text, "nonzero", (I64, I64)), "nonzero") == []


def test_raises_sees_a_division_and_its_absence():
    assert notes(_core._run_pass(TWO_DIVS, "raises", (I64, I64)), "can_raise") == ["can_raise 1"]
    adds = TWO_DIVS.replace("binop //", "binop +").replace("binop %", "binop -")
    assert notes(_core._run_pass(adds, "raises", (I64, I64)), "can_raise") == ["can_raise 0"]
    # float operands: float // raises on zero as well
    assert notes(_core._run_pass(TWO_DIVS, "raises", (F64, F64)), "can_raise") == ["can_raise 1"]


# ---- the verifier ----

NOT_DOMINATED_SRC = """
    function f(a)
      b0:
        %0 = arg 0
        cbr %0 ? b1 : b2
      b1:
        %2 = const 1
        br b3
      b2:
        br b3
      b3:
        ret %2
"""
NOT_DOMINATED = program(NOT_DOMINATED_SRC)


def _verify_error(text, keys):
    with pytest.raises(kiln.errors.LoweringError) as info:
        _core._run_pass(text, "verify", keys)
    return info.value


def test_verifier_rejects_a_use_its_definition_does_not_dominate():
    e = _verify_error(NOT_DOMINATED, ("bool",))
    assert "internal error: bad KIR" in str(e)
    assert "ret" in str(e) and "uses %2, whose definition does not dominate it" in str(e)
    assert (e.line, e.col) == (line_of(NOT_DOMINATED, "ret %2"), 1)


def test_verifier_accepts_a_definition_that_dominates_through_a_join():
    text = NOT_DOMINATED_SRC.replace("        %2 = const 1\n", "")
    text = program(text.replace("        cbr %0", "        %2 = const 1\n        cbr %0"))
    assert "ret %2" in _core._run_pass(text, "verify", ("bool",))


def test_verifier_rejects_a_use_before_its_definition_in_one_block():
    text = program("""
        function f(a)
          b0:
            %0 = arg 0
            %1 = binop + %0, %2
            %2 = const 1
            ret %1
    """)
    e = _verify_error(text, (I64,))
    assert "uses %2, which is defined after it in its block" in str(e)
    assert e.line == line_of(text, "binop")


def test_verifier_checks_arity_from_the_op_table():
    text = program("""
        function f(a)
          b0:
            %0 = arg 0
            %1 = binop + %0
            ret %1
    """)
    assert "%1 = binop" in str(_verify_error(text, (I64,)))
    assert "takes 2 operands, has 1" in str(_verify_error(text, (I64,)))
    tup = text.replace("binop + %0", "build_dict %0")
    assert "takes key, value pairs, has 1 operands" in str(_verify_error(tup, (I64,)))


def test_verifier_wants_exactly_one_terminator_at_the_end_of_each_block():
    middle = program("""
        function f(a)
          b0:
            %0 = arg 0
            ret %0
            %2 = const 1
            ret %2
    """)
    assert "a terminator in the middle of the block" in str(_verify_error(middle, (I64,)))
    missing = program("""
        function f(a)
          b0:
            %0 = arg 0
            store a %0
    """)
    assert "does not end in a terminator" in str(_verify_error(missing, (I64,)))


def test_verifier_wants_a_bool_branch_condition_after_typing():
    e = _verify_error(NOT_DOMINATED.replace("ret %2", "ret %0"), (I64,))
    assert "cbr (" in str(e) and "branches on %0 of type int64, not bool" in str(e)
    assert "ret %0" in _core._run_pass(NOT_DOMINATED.replace("ret %2", "ret %0"), "verify", ("bool",))




def unwind_src(divisor, handler):
    """a // divisor in a protected block b1 whose exception edge goes to b2, the handler."""
    return f"""
    function f(a)
      b0:
        %0 = arg 0
        store a %0
        br b1
      b1: unwind b2
        %2 = const {divisor}
        %3 = binop // %0, %2
        ret %3
      b2:
{handler}"""


UNWIND_SRC = unwind_src(1, "        ret %0\n")
UNWIND = program(UNWIND_SRC)


def test_verifier_exception_edge_leaves_from_the_start_of_the_block():
    # b2 is reached from b1 only by its exception edge, which can leave before %2 is defined
    bad = program(UNWIND_SRC.replace("        ret %0\n", "        ret %2\n"))
    e = _verify_error(bad, (I64,))
    assert "uses %2, whose definition does not dominate it" in str(e)
    # a value of the block before the protected one dominates the handler
    assert "unwind b2" in _core._run_pass(UNWIND, "verify", (I64,))


def test_typing_follows_the_exception_edge():
    typed = _core._run_pass(UNWIND, "typing", (I64,))
    handler = typed.split("  b2:\n", 1)[1]
    assert instrs(handler)[0][1] == "ret"
    assert typed.splitlines()[0] == "function f(a: int64) -> int64"


# ---- ops defined but not compiled yet ----

NEW_OPS = program("""
    function f(a, b)
      b0: unwind b1
        %0 = arg 0
        %1 = arg 1
        %2 = build_list %0, %1
        %3 = build_dict %0, %1, %1, %0
        %4 = build_set
        %5 = global g
        %6 = make_closure %5, %0, %2
        ret %6
      b1:
        %8 = global ValueError
        %9 = exc_match %8
        cbr %9 ? b2 : b3
      b2:
        ret %0
      b3:
        reraise
""")


def test_new_ops_are_printed_and_read_back():
    assert _core._read_kir(NEW_OPS) == NEW_OPS
    got = instrs(NEW_OPS)
    assert [op for _, op, _, _ in got][2:5] == ["build_list", "build_dict", "build_set"]


# build_list, build_dict and build_set compile since issue 9 (lists, dicts and sets): see
# test_typing_types_build_dict_and_set below; exc_match and reraise since issue 10 (try/except):
# see test_typing_types_exc_match_and_reraise
@pytest.mark.parametrize(
    "op", ["make_closure"]
)
def test_typing_rejects_ops_that_kiln_does_not_compile_yet(op):
    bodies = {
        "build_list": "%1 = build_list %0\n            ret %1",
        "build_dict": "%1 = build_dict %0, %0\n            ret %1",
        "build_set": "%1 = build_set %0\n            ret %1",
        "make_closure": "%1 = make_closure %0\n            ret %1",
        "exc_match": "%1 = exc_match %0\n            ret %1",
        "reraise": "reraise",
    }
    text = program(f"""
        function f(a)
          b0:
            %0 = arg 0
            {bodies[op]}
    """)
    with pytest.raises(kiln.errors.LoweringError) as info:
        _core._run_pass(text, "typing", (I64,))
    assert f"internal error: typing reached `{op}`, an op that kiln does not compile yet" in str(
        info.value
    )
    assert info.value.line == line_of(text, op)


def test_typing_types_build_list():
    text = program("""
        function f(a)
          b0:
            %0 = arg 0
            %1 = build_list %0, %0
            ret %1
    """)
    out = _core._run_pass(text, "typing", (I64,))
    assert "list(int64)" in out


def test_typing_types_build_dict_and_set():
    text = program("""
        function f(a)
          b0:
            %0 = arg 0
            %1 = build_dict %0, %0
            %2 = build_set %0
            ret %1
    """)
    out = _core._run_pass(text, "typing", (I64,))
    assert "DictType[int64,int64]" in out and "set(int64)" in out


TRY_KIR = program(unwind_src(0, """\
        %5 = global ValueError
        %6 = global ZeroDivisionError
        %7 = exc_match try#1 %5, %6
        cbr %7 ? b3 : b4
      b3:
        %9 = load a
        ret %9
      b4:
        reraise try#1
      b5:
        raise exc#0 cause try#1
"""))


def test_typing_types_exc_match_and_reraise():
    assert _core._read_kir(TRY_KIR) == TRY_KIR
    out = _core._run_pass(TRY_KIR, "typing", (I64,))
    assert "exc_match try#1 %5, %6 : bool" in out
    assert "reraise try#1" in out
    assert "raise exc#0 cause try#1" in _core._read_kir(TRY_KIR)


# ---- bad input ----


@pytest.mark.parametrize(
    "change, message",
    [
        (("%6 = load a", "%6 = frobnicate a"), "unknown op `frobnicate`"),
        (("%8 = binop * %6, %7", "%8 = binop * %6, %99"), "%99 is not defined"),
        (("%6 = load a", "%6 = load a : nosuch(int64)"), "bad type"),
        (("%6 = load a", "%6 = load a : list(int64"), "bad type"),
        (("%6 = load a", "%6 = load a : DictType[int64]"), "bad type"),
        (("%6 = load a", "%6 = load a : set()"), "bad type"),
        (("%8 = binop * %6, %7", "%8 = fused %6, %7"), "`fused` cannot be read back"),
        (("store a %0", "%1 = store a %0"), "`store` has no value"),
        (("      b0:", "      b1:"), "block b1 is out of order: expected b0"),
    ],
)
def test_bad_text_is_a_value_error_with_its_line(change, message):
    old, new = change
    text = program(AXPY_SRC.replace(old, new, 1))
    with pytest.raises(ValueError) as info:
        _core._run_pass(text, "fuse", (F64, ARR, ARR))
    assert message in str(info.value)
    assert f"line {line_of(text, new.strip())}:" in str(info.value)


def test_an_instruction_without_a_span_is_refused():
    with pytest.raises(ValueError, match=r"line 3: expected `; line:col`"):
        _core._read_kir("function f(a)\n  b0:\n    %0 = arg 0\n")


def test_unknown_pass_and_wrong_argument_count():
    with pytest.raises(ValueError, match="no KIR pass named lower"):
        _core._run_pass(AXPY, "lower", (F64, ARR, ARR))
    with pytest.raises(TypeError, match="takes 3 arguments but 1 were given"):
        _core._run_pass(AXPY, "fuse", (F64,))
