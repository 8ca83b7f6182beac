"""Stage tests for typing: untyped KIR + argument type keys -> typed KIR text
(``_stages(f, keys)["typed"]``), and its errors.

What is checked: the signature line (argument and return types), the type of every variable
(``var name: type`` lines) under Numba's unification rules, that every value carries a type,
and that ill-typed programs raise ``kiln.errors.TypingError`` at the right line and column
(never a crash). Expected positions come from this file's source through ``harness.locate``.
"""

import re

import pytest

import kiln
from harness import locate
from kiln import _core
from programs import f_mixed, f_while_true, f_if_false

_SIG = re.compile(r"^function (?P<name>\w+)\((?P<args>.*)\) -> (?P<ret>.+)$")
_VAR = re.compile(r"^  var (?P<name>\S+): (?P<type>.+)$")
_VALUE = re.compile(r"^    (?P<value>%\d+) = (?P<rest>.*?)\s*;\s*\d+:\d+\s*$")


def typed(func, *keys):
    return _core._stages(func, keys)["typed"]


def signature(func, *keys):
    """(argument types, return type) from the first line of the typed KIR."""
    m = _SIG.match(typed(func, *keys).splitlines()[0])
    assert m, "no signature line"
    args = [a.split(": ", 1)[1] for a in _split_args(m.group("args"))]
    return args, m.group("ret")


def _split_args(s):
    """Split 'a: int64, t: Tuple(int64, float64)' at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def var_types(func, *keys):
    out = {}
    for line in typed(func, *keys).splitlines():
        m = _VAR.match(line)
        if m:
            out[m.group("name")] = m.group("type")
    return out


def user_vars(func, *keys):
    """Variable types, without the compiler's own ($-prefixed) temporaries."""
    return {k: v for k, v in var_types(func, *keys).items() if not k.startswith("$")}


# ---------------------------------------------------------------------------------------------
# Functions under test.

def f_int_then_float(a):
    x = 1
    if a > 0:
        x = 2.5
    return x


def f_float_accumulator(n, b):
    s = 0
    for i in range(n):
        s += b * i
    return s


def f_while_accumulator(n, x):
    acc = 0
    i = 0
    while i < n:
        acc = acc + x
        i += 1
    return acc


def f_either(a, b, c):
    x = a
    if c:
        x = b
    return x


def f_tuple_var(c):
    t = (1, 2.0)
    if c:
        t = (2.5, 3)
    return t


def f_return_unify(a):
    if a > 0:
        return 1
    return 2.5


def f_arith(a, b):
    return a + b, a - b, a * b, a // b, a / b


def f_identity(a):
    return a


def f_cmp(a, b):
    return a < b


# ---------------------------------------------------------------------------------------------
# Signatures and values.

@pytest.mark.parametrize("key, name", [
    ("int64", "int64"), ("uint8", "uint8"), ("bool", "bool"), ("float32", "float32"),
    ("complex128", "complex128"), ("none", "none"),
    (("tuple", "int64", "float64"), "Tuple(int64, float64)"),
    (("tuple", "int64", ("tuple", "float32", "bool")), "Tuple(int64, Tuple(float32, bool))"),
    (("tuple", "int32", "int32", "int32"), "UniTuple(int32, 3)"),
], ids=str)
def test_signature_carries_the_argument_types(key, name):
    args, ret = signature(f_identity, key)
    assert args == [name] == [ret]


def reachable_lines(text):
    """The instruction lines of the blocks reachable from the entry block."""
    blocks, order, cur = {}, [], None
    for line in text.splitlines():
        m = re.match(r"^  (b\d+):$", line)
        if m:
            cur = blocks.setdefault(m.group(1), [])
            order.append(m.group(1))
        elif cur is not None and line.startswith("    "):
            cur.append(line)
    seen, todo = {order[0]}, [order[0]]
    while todo:
        last = re.sub(r"\s*;.*$", "", blocks[todo.pop()][-1].strip())
        for t in re.findall(r"\b(b\d+)\b", last) if last.startswith(("br ", "cbr ")) else []:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return [line for b in order if b in seen for line in blocks[b]]


def test_every_reachable_value_has_a_type():
    for func, keys in [(f_mixed, ("int64", "float64")), (f_tuple_var, ("bool",)),
                       (f_arith, ("int32", "uint16")), (f_while_true, ("int64",)),
                       (f_dead_code, ("int64",))]:
        values = [m for m in map(_VALUE.match, reachable_lines(typed(func, *keys))) if m]
        assert values
        for m in values:
            assert re.search(r" : \S.*$", m.group("rest")), f"untyped value: {m.group(0)}"


def f_dead_code(x):
    return x
    y = x + "s"
    return y


def f_dead_after_while_true(n):
    while True:
        return n
    return "s"


def test_unreachable_code_is_not_typed():
    # ill-typed code after a return (or after a loop that never ends) is not an error, and
    # does not take part in the return type
    assert signature(f_dead_code, "int64")[1] == "int64"
    assert signature(f_dead_after_while_true, "int64")[1] == "int64"
    text = typed(f_dead_code, "int64")
    add = [line for line in text.splitlines() if "binop +" in line]
    assert len(add) == 1 and add[0] not in reachable_lines(text)


def test_typed_kir_keeps_the_instructions_of_the_untyped_kir():
    st = _core._stages(f_mixed, ("int64", "float64"))

    def ops(text):
        return [m.group("rest").split()[0] for m in map(_VALUE.match, text.splitlines()) if m]

    assert ops(st["kir"]) == ops(st["typed"])


# ---------------------------------------------------------------------------------------------
# Unification of variables (Numba's rules).

def test_int_then_float_is_float64():
    assert user_vars(f_int_then_float, "int64") == {"x": "float64"}
    assert signature(f_int_then_float, "int64")[1] == "float64"


@pytest.mark.parametrize("b", ["float64", "float32"])
def test_zero_accumulator_of_floats_is_float64(b):
    vs = user_vars(f_float_accumulator, "int64", b)
    assert vs["s"] == "float64"
    assert vs["i"] == "int64"
    assert user_vars(f_while_accumulator, "int64", b)["acc"] == "float64"


def test_int_accumulator_stays_int64():
    assert user_vars(f_float_accumulator, "int64", "int64")["s"] == "int64"


@pytest.mark.parametrize("a, b, expected", [
    ("int8", "uint8", "int16"),
    ("uint8", "int8", "int16"),
    ("int16", "uint8", "int16"),
    ("uint16", "int16", "int32"),
    ("uint32", "int16", "int64"),
    ("int64", "uint64", "float64"),
    ("int8", "int32", "int32"),
    ("bool", "int32", "int32"),
    ("int32", "bool", "int32"),
    ("int64", "float64", "float64"),
    ("float32", "int16", "float32"),
    ("float32", "int32", "float64"),
    ("float32", "float64", "float64"),
    ("complex64", "float32", "complex64"),
    ("complex64", "float64", "complex128"),
    ("float32", "float32", "float32"),
])
def test_variable_unification(a, b, expected):
    assert user_vars(f_either, a, b, "bool") == {"x": expected}
    assert signature(f_either, a, b, "bool")[1] == expected


def test_tuple_variable_unifies_element_wise():
    assert user_vars(f_tuple_var, "bool") == {"t": "UniTuple(float64, 2)"}


def test_return_types_unify():
    assert signature(f_return_unify, "int64")[1] == "float64"


def test_dead_branch_does_not_widen_the_return_type():
    assert signature(f_if_false, "int64")[1] == "int64"


def test_while_true_return_is_not_optional():
    # no path reaches an implicit `return None`, so the result is int64, not an optional
    assert signature(f_while_true, "int64")[1] == "int64"


# ---------------------------------------------------------------------------------------------
# Arithmetic promotion (the types of a + b, a - b, a * b, a // b, a / b).

@pytest.mark.parametrize("a, b, ints, true_div", [
    ("int64", "int64", "int64", "float64"),
    ("int64", "uint64", "int64", "float64"),
    ("uint64", "int64", "int64", "float64"),
    ("int8", "int8", "int64", "float64"),
    ("uint8", "uint8", "uint64", "float64"),
    ("uint32", "int8", "int64", "float64"),
    ("bool", "bool", "int64", "float64"),
    ("int64", "float64", "float64", "float64"),
    ("float32", "int16", "float32", "float32"),
    ("float32", "int32", "float64", "float64"),
    ("float32", "float32", "float32", "float32"),
])
def test_arithmetic_promotion(a, b, ints, true_div):
    _, ret = signature(f_arith, a, b)
    items = re.match(r"^(?:Tuple\((.*)\)|UniTuple\((\S+), 5\))$", ret)
    assert items, ret
    got = items.group(1).split(", ") if items.group(1) else [items.group(2)] * 5
    assert got == [ints] * 4 + [true_div]


def test_comparison_is_bool():
    assert signature(f_cmp, "int64", "float64")[1] == "bool"
    assert signature(f_cmp, "uint64", "int64")[1] == "bool"


# ---------------------------------------------------------------------------------------------
# Errors: a TypingError at the right position, never a crash.

def e_add_str(a):
    y = a + "s"
    return y


def e_unify(a):
    x = 1
    if a:
        x = "s"
    return x


def e_undefined(a):
    return a + undefined_name  # noqa: F821


def e_return(a):
    if a > 0:
        return 1
    return "s"


def e_attribute(a):
    return a.foo


def e_abs_no_args(a):
    return abs()


def e_call_int(a):
    return a(1)


def e_tuple_variable_index(t, i):
    return t[i]


def e_tuple_out_of_range(t):
    return t[5]


def e_compare_str(a):
    return a < "x"


def e_negate_str(a):
    return -"x"


def e_deep(n):
    s = 0
    for i in range(n):
        if i > 3:
            while s < 10:
                s = s + (i, 1)
    return s


ERRORS = [
    (e_add_str, ("int64",), '"s"', "cannot add int64 and str"),
    (e_unify, ("int64",), '"s"', "cannot unify int64 and str"),
    (e_undefined, ("int64",), "undefined_name", "undefined_name"),
    (e_return, ("int64",), '"s"', "int64 and str"),
    (e_attribute, ("int64",), "a.foo", "foo"),
    (e_abs_no_args, ("int64",), "abs()", "abs"),
    (e_call_int, ("int64",), "a(1)", "not callable"),
    (e_tuple_variable_index, (("tuple", "int64", "float64"), "int64"), "t[i]", "index"),
    (e_tuple_out_of_range, (("tuple", "int64", "float64"),), "t[5]", "out of range"),
    (e_compare_str, ("int64",), 'a < "x"', "compare"),
    (e_negate_str, ("int64",), '-"x"', "str"),
    (e_deep, ("int64",), "(i, 1)", "cannot add int64 and UniTuple(int64, 2)"),
]


@pytest.mark.parametrize("func, keys, snippet, message", ERRORS,
                         ids=[e[0].__name__ for e in ERRORS])
def test_typing_error_position(func, keys, snippet, message):
    with pytest.raises(kiln.errors.TypingError) as info:
        _core._stages(func, keys)
    e = info.value
    assert (e.line, e.col) == locate(func, snippet), str(e)
    assert e.end_line == e.line and e.end_col > e.col
    assert message in e.msg
    assert e.filename.endswith("test_typing.py")


def test_error_in_one_signature_does_not_poison_another():
    with pytest.raises(kiln.errors.TypingError):
        _core._stages(e_add_str, ("int64",))
    # a failed compilation leaves nothing behind: another function compiles right after, and
    # the failing one fails again the same way (for another signature too)
    assert signature(f_identity, "int64") == (["int64"], "int64")
    with pytest.raises(kiln.errors.TypingError):
        _core._stages(e_add_str, ("float64",))


@pytest.mark.parametrize("keys, exc", [
    (("nonsense",), TypeError),
    ((1,), TypeError),
    (("int64", "int64"), TypeError),   # too many arguments
    ((), TypeError),                   # too few
])
def test_bad_argument_keys_raise(keys, exc):
    with pytest.raises(exc):
        _core._stages(f_identity, keys)


def test_not_a_function():
    with pytest.raises(TypeError):
        _core._stages(len, ("int64",))


def e_note_argument(total, label):
    total = total + label
    return total


def e_note_local(a):
    label = "x"
    return a + label


@pytest.mark.parametrize("func, keys, note_at, note", [
    (e_note_argument, ("int64", "str"), "label):", "'label' is str: argument 2"),
    (e_note_local, ("int64",), 'label = "x"', "'label' is str"),
])
def test_typing_error_notes_say_where_a_type_came_from(func, keys, note_at, note):
    with pytest.raises(kiln.errors.TypingError) as info:
        _core._stages(func, keys)
    e = info.value
    line, col = locate(func, "+ label")
    assert (e.line, e.col) == (line, col + len("+ "))  # the operand whose type is wrong
    assert "cannot add int64 and str" in e.msg
    assert len(e.notes) == 1
    n = e.notes[0]
    assert n.msg == note
    assert (n.line, n.col) == locate(func, note_at)
    assert n.end_col == n.col + len("label")
    assert n.filename == e.filename
