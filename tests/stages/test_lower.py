"""Stage tests for lowering, optimization and code generation: typed KIR -> LLVM IR text before
optimization (``_stages(f, keys)["llvm"]``), after O3 (``["opt"]``) and assembly (``["asm"]``).

The checks parse just enough LLVM IR to follow control flow (function bodies, blocks, branch
targets) and look for the instructions that matter; value names, numbering and attributes may
change freely. ``_stages`` compiles with the default options (no fastmath, Python error model);
other options go through a dispatcher and ``inspect_llvm`` (which shows the optimized IR).
"""

import math
import platform
import re

import pytest

import kiln
from kiln import _core
from programs import f_floordiv, f_raise

_DEFINE = re.compile(r"^define\b[^@]*@(?P<name>[\w.$\"-]+)\((?P<params>[^)]*)\)[^{]*\{\s*$")
_LABEL = re.compile(r"^(?P<name>[\w.$-]+):")


def stages(func, *keys):
    return _core._stages(func, keys)


def functions(ir):
    """{name: {"params": str, "blocks": {label: [instruction lines]}}} for every definition."""
    out, cur, block = {}, None, None
    for line in ir.splitlines():
        m = _DEFINE.match(line)
        if m:
            cur = out[m.group("name")] = {"params": m.group("params"), "blocks": {}}
            block = cur["blocks"].setdefault("entry", [])
            first = True
            continue
        if cur is None:
            continue
        if line.startswith("}"):
            cur = None
            continue
        m = _LABEL.match(line)
        if m:
            # LLVM prints the entry block's label only when it has a name; an unnamed entry
            # block's instructions are already collected under "entry"
            name = m.group("name")
            if first and not block:
                del cur["blocks"]["entry"]
            block = cur["blocks"].setdefault(name, [])
            first = False
            continue
        if line.strip() and not line.strip().startswith(";"):
            block.append(line.strip())
            first = False
    return out


def branch_targets(term):
    return re.findall(r"label %([\w.$-]+|\"[^\"]+\")", term)


def native_and_wrapper(ir):
    """(native name, wrapper name): the wrapper is the native name + "_wrap"."""
    fns = functions(ir)
    wraps = [n for n in fns if n.endswith("_wrap")]
    assert len(wraps) == 1, f"expected one *_wrap function, found {list(fns)}"
    native = wraps[0][: -len("_wrap")]
    assert native in fns, f"{wraps[0]} has no native function {native} beside it"
    return native, wraps[0]


def returns_status(block):
    """The constant status a block returns (`ret i32 N`), or None."""
    for ins in block:
        m = re.match(r"^ret i32 (-?\d+)$", ins)
        if m:
            return int(m.group(1))
    return None


# ---------------------------------------------------------------------------------------------
# Functions under test.

def f_mod(a, b):
    return a % b


def f_truediv(a, b):
    return a / b


def f_add(a, b):
    return a + b


def f_sum(n, x):
    s = 0.0
    for i in range(n):
        s += x * i
    return s


def f_isum(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


# ---------------------------------------------------------------------------------------------
# The module's shape: a native function and its wrapper entry.

@pytest.mark.parametrize("func, keys, params", [
    (f_add, ("int64", "int64"), ["i64", "i64"]),
    (f_add, ("float64", "int64"), ["double", "i64"]),
    (f_add, ("float32", "float32"), ["float", "float"]),
    (f_sum, ("int64", "float64"), ["i64", "double"]),
])
def test_llvm_defines_native_function_and_wrapper(func, keys, params):
    ir = stages(func, *keys)["llvm"]
    native, wrap = native_and_wrapper(ir)
    assert func.__name__ in native
    fns = functions(ir)
    # these functions cannot raise: the native function has no status code and no out-pointers,
    # it takes its arguments and returns its value (passes/raises.c)
    types = [p.split()[0] for p in fns[native]["params"].split(",")]
    assert types == params
    assert not re.search(rf"^define\b.*\bi32 @{re.escape(native)}\(ptr", ir, re.M)
    # wrapper: status = wrap(result, exception, argument buffer), and it calls the native one
    assert re.search(rf"^define\b.*\bi32 @{re.escape(wrap)}\(", ir, re.M)
    assert [p.split()[0] for p in fns[wrap]["params"].split(",")] == ["ptr", "ptr", "ptr"]
    calls = [i for b in fns[wrap]["blocks"].values() for i in b
             if re.search(rf"call \S+ @{re.escape(native)}\(", i)]
    assert len(calls) == 1


def test_a_function_that_can_raise_keeps_the_status_code():
    # status = f(result out-pointer, exception out-pointer, arguments...)
    ir = stages(f_floordiv, "int64", "int64")["llvm"]
    native, _ = native_and_wrapper(ir)
    assert re.search(rf"^define\b.*\bi32 @{re.escape(native)}\(", ir, re.M)
    types = [p.split()[0] for p in functions(ir)[native]["params"].split(",")]
    assert types == ["ptr", "ptr", "i64", "i64"]


def test_wrapper_reads_arguments_at_their_buffer_offsets():
    # (bool, float64, int8, int32) live at offsets 0, 8, 16, 20 of the dispatcher's argument
    # buffer (natural alignment, as kn_type_arg_offset computes; tests/c/test_types.c)
    ir = stages(f_pick, "bool", "float64", "int8", "int32")["llvm"]
    _, wrap = native_and_wrapper(ir)
    body = "\n".join(i for b in functions(ir)[wrap]["blocks"].values() for i in b)
    geps = re.findall(r"getelementptr inbounds i8, ptr %[\w.]+, i64 (\d+)", body)
    assert {int(x) for x in geps} - {0} == {8, 16, 20}


def f_pick(a, b, c, d):
    return b


@pytest.mark.parametrize("stage", ["llvm", "opt"])
def test_every_stage_names_the_same_native_function(stage):
    st = stages(f_add, "int64", "int64")
    native, wrap = native_and_wrapper(st["llvm"])
    assert native_and_wrapper(st[stage]) == (native, wrap)


def test_asm_is_non_empty_and_defines_the_symbols():
    st = stages(f_add, "int64", "int64")
    native, wrap = native_and_wrapper(st["llvm"])
    asm = st["asm"]
    assert asm.strip()
    labels = set(re.findall(r"^([\w.$]+):", asm, re.M))
    assert native in labels and wrap in labels
    assert re.search(r"^\s+ret\w*\b", asm, re.M), "no return instruction"


def test_asm_for_optimized_code_via_dispatcher():
    d = kiln.njit(f_add)
    assert d(2, 3) == 5
    (sig,) = d.signatures
    asm = d.inspect_asm(sig)
    assert re.search(r"^kn_\w*f_add\w*:", asm, re.M)


# ---------------------------------------------------------------------------------------------
# Division by zero: a compare with zero that branches to a block raising (returning a nonzero
# status) under the Python error model.

def _zero_check_raises(ir, native, zero_cmp):
    fns = functions(ir)
    blocks = fns[native]["blocks"]
    found = []
    for label, body in blocks.items():
        for k, ins in enumerate(body):
            m = re.match(rf"^(%[\w.]+) = {zero_cmp}$", ins)
            if not m:
                continue
            cond = m.group(1)
            br = next((x for x in body[k + 1:] if x.startswith("br i1 " + cond + ",")), None)
            assert br, f"zero compare {ins!r} does not feed a branch in block {label}"
            on_zero = branch_targets(br)[0].strip('"')
            status = returns_status(blocks[on_zero])
            found.append(status)
    return found


@pytest.mark.parametrize("func", [f_floordiv, f_mod])
@pytest.mark.parametrize("ty, bits", [("int64", 64), ("uint64", 64), ("int32", 64)])
def test_int_floordiv_and_mod_check_zero_and_raise(func, ty, bits):
    ir = stages(func, ty, ty)["llvm"]
    native, _ = native_and_wrapper(ir)
    statuses = _zero_check_raises(ir, native, rf"icmp eq i{bits} %[\w.]+, 0")
    assert statuses, "no zero check on the divisor"
    assert all(s is not None and s != 0 for s in statuses), statuses


def test_float_truediv_checks_zero_and_raises():
    ir = stages(f_truediv, "float64", "float64")["llvm"]
    native, _ = native_and_wrapper(ir)
    statuses = _zero_check_raises(ir, native, r"fcmp oeq double %[\w.]+, 0\.0+e\+00")
    assert statuses and all(s not in (None, 0) for s in statuses)


def test_add_has_no_raise_path():
    ir = stages(f_add, "int64", "int64")["llvm"]
    native, _ = native_and_wrapper(ir)
    blocks = functions(ir)[native]["blocks"].values()
    # no status code at all: every return gives the sum itself
    rets = [i for b in blocks for i in b if i.startswith("ret ")]
    assert rets and all(r.startswith("ret i64 ") for r in rets)
    assert not any("store i64 " in i and "ptr %1" in i for b in blocks for i in b)


def test_raise_statement_returns_nonzero_status():
    ir = stages(f_raise, "int64")["llvm"]
    native, _ = native_and_wrapper(ir)
    statuses = {returns_status(b) for b in functions(ir)[native]["blocks"].values()}
    statuses.discard(None)
    assert 0 in statuses and len(statuses) == 2


def _dispatcher(func, **options):
    opts = {"fastmath": frozenset(), "boundscheck": None, "error_model": "python"}
    opts.update(options)
    return _core.Dispatcher(func, opts)


def _opt_native_statuses(d, args):
    d(*args)
    (sig,) = d.signatures
    ir = d.inspect_llvm(sig)
    native, _ = native_and_wrapper(ir)
    return ir, native


def test_numpy_error_model_float_division_has_no_zero_check():
    ir, native = _opt_native_statuses(_dispatcher(f_truediv, error_model="numpy"), (1.0, 2.0))
    body = [i for b in functions(ir)[native]["blocks"].values() for i in b]
    assert any(re.search(r"= fdiv\b", i) for i in body)
    assert not any("fcmp" in i for i in body)
    # and the Python model keeps one, even after O3
    ir, native = _opt_native_statuses(_dispatcher(f_truediv), (1.0, 2.0))
    body = [i for b in functions(ir)[native]["blocks"].values() for i in b]
    assert any("fcmp oeq" in i for i in body)


def test_numpy_error_model_int_floordiv_has_no_raise():
    ir, native = _opt_native_statuses(_dispatcher(f_floordiv, error_model="numpy"), (7, 2))
    statuses = {returns_status(b) for b in functions(ir)[native]["blocks"].values()}
    phis = [i for b in functions(ir)[native]["blocks"].values() for i in b
            if re.search(r"phi i32 .*\[ [1-9]", i)]
    assert statuses <= {0, None} and not phis


# ---------------------------------------------------------------------------------------------
# Optimization: a float reduction is vectorized only when fastmath allows reassociation.

_VEC_FADD = re.compile(r"= fadd\b(?P<flags>[\w ]*?)\s*<\d+ x double>")


def _vector_fadds(ir):
    return [m.group("flags").split() for m in _VEC_FADD.finditer(ir)]


def test_float_sum_without_fastmath_is_not_reassociated():
    st = stages(f_sum, "int64", "float64")
    assert re.search(r"= fadd\b[^<\n]*double ", st["opt"]), "no scalar fadd left: wrong function?"
    assert _vector_fadds(st["opt"]) == []
    # same through a dispatcher with the default options
    d = kiln.njit(f_sum)
    d(10, 1.0)
    assert _vector_fadds(d.inspect_llvm(d.signatures[0])) == []


@pytest.mark.parametrize("fastmath, flag", [(True, "fast"), ({"reassoc"}, "reassoc"),
                                            ({"reassoc", "nsz"}, "reassoc")])
def test_float_sum_with_fastmath_is_vectorized(fastmath, flag):
    d = kiln.njit(fastmath=fastmath)(f_sum)
    assert d(10, 0.5) == sum(0.5 * i for i in range(10))
    vec = _vector_fadds(d.inspect_llvm(d.signatures[0]))
    assert vec, "fastmath reduction was not vectorized"
    assert all(flag in flags for flags in vec)


def test_fastmath_without_reassoc_is_not_vectorized():
    d = kiln.njit(fastmath={"nnan", "ninf"})(f_sum)
    d(10, 0.5)
    ir = d.inspect_llvm(d.signatures[0])
    assert _vector_fadds(ir) == []
    assert re.search(r"= fadd nnan ninf double ", ir)


def has_cycle(fn):
    blocks = fn["blocks"]
    succ = {lb: [t.strip('"') for ins in body if ins.startswith("br ")
                 for t in branch_targets(ins)] for lb, body in blocks.items()}
    state = {}

    def visit(lb):
        state[lb] = 1
        for t in succ.get(lb, []):
            if state.get(t) == 1 or (t not in state and visit(t)):
                return True
        state[lb] = 2
        return False

    return any(lb not in state and visit(lb) for lb in blocks)


def test_o3_removes_or_vectorizes_an_integer_sum_loop():
    st = stages(f_isum, "int64")
    native, _ = native_and_wrapper(st["llvm"])
    assert has_cycle(functions(st["llvm"])[native]), "the unoptimized IR should have the loop"
    fn = functions(st["opt"])[native]
    body = "\n".join(i for b in fn["blocks"].values() for i in b)
    # integer addition is associative: O3 either closes the form of the sum or vectorizes it
    assert not has_cycle(fn) or re.search(r"<\d+ x i64>", body)
    assert "alloca" not in body  # variables were promoted to registers


# ---------------------------------------------------------------------------------------------
# Determinism: two compilations differ only in the module's serial number.

def test_stages_are_deterministic_up_to_symbol_numbers():
    a = stages(f_sum, "int64", "float64")
    b = stages(f_sum, "int64", "float64")
    na, _ = native_and_wrapper(a["llvm"])
    nb, _ = native_and_wrapper(b["llvm"])
    for key in ("llvm", "opt", "asm"):
        assert a[key].replace(na, "SYM") == b[key].replace(nb, "SYM"), key


# ---------------------------------------------------------------------------------------------
# jit/convert.c: on x86-64 an int -> float conversion in a block that calls libm is rewritten
# after O3 into a one-lane vector conversion or an exact bit sequence, without cvtsi2sd (whose
# merge into a register the callee wrote serialises the calls); a block without calls keeps the
# plain conversion.

def f_sin_of_index(n):
    s = 0.0
    for i in range(n):
        s += math.sin(i * 0.001)
    return s


def f_index_to_float(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5
    return s


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the rewrite is x86-64 only")
def test_int_to_float_next_to_a_libm_call_has_no_cvtsi2sd():
    opt = stages(f_sin_of_index, "int64")["opt"]
    native, _ = native_and_wrapper(opt)
    body = "\n".join(sum(functions(opt)[native]["blocks"].values(), []))
    assert not re.search(r"\b[su]itofp (nneg )?i(32|64) ", body), "a scalar conversion is left"
    assert "@llvm.sin.f64" in body
    asm = stages(f_sin_of_index, "int64")["asm"]
    assert "sin" in asm and "cvtsi2sd" not in asm


def test_int_to_float_without_calls_keeps_the_plain_conversion():
    opt = stages(f_index_to_float, "int64")["opt"]
    native, _ = native_and_wrapper(opt)
    body = "\n".join(sum(functions(opt)[native]["blocks"].values(), []))
    assert re.search(r"\b[su]itofp\b", body)


# kiln's own loops (elementwise here) carry llvm.loop.unroll.runtime.disable and an interleave
# count of 1: LLVM vectorizes them, and unrolling the remainder or interleaving the vector body
# only cost compile time (array.c, plain_loop).

def f_add_one(a):
    return a + 1.0


def test_elementwise_loops_disable_runtime_unrolling_and_interleaving():
    ir = stages(f_add_one, kiln.float64[::1].key)["llvm"]
    loops = re.findall(r"br label %[\w.]+, !llvm\.loop (![0-9]+)", ir)
    assert loops, "no back edge with loop metadata"
    for ident in loops:
        node = re.search(rf"^{ident} = distinct !\{{{ident}, (![0-9]+), (![0-9]+)\}}", ir, re.M)
        assert node, f"{ident} is not a self-referential loop ID with two properties"
        assert re.search(rf'^{node.group(1)} = !\{{!"llvm.loop.unroll.runtime.disable"\}}', ir,
                         re.M)
        assert re.search(rf'^{node.group(2)} = !\{{!"llvm.loop.interleave.count", i32 1\}}', ir,
                         re.M)


def test_the_wrapper_does_not_inline_the_native_function():
    # inlined, the body would be optimized and compiled twice (lower.c, not_inlined)
    ir = stages(f_add, "int64", "int64")["opt"]
    native, wrap = native_and_wrapper(ir)
    body = "\n".join(sum(functions(ir)[wrap]["blocks"].values(), []))
    call = re.search(rf"call [^@]*@{re.escape(native)}\(.*\) (#\d+)", body)
    assert call, "the wrapper no longer calls the native function"
    attrs = re.search(rf"^attributes {call.group(1)} = \{{(.*)\}}", ir, re.M)
    assert attrs and "noinline" in attrs.group(1).split()


# A new elementwise result shaped by one operand whose items are at least as wide needs no size
# check: its byte count is at most the operand's (create.c, kn_lower_array_alloc_within). A
# wider result (int8 -> float64) or a broadcast shape keeps NumPy's check.

def f_add_two(a, b):
    return a + b


def test_elementwise_result_no_wider_than_its_operand_has_no_size_check():
    ir = stages(f_add_one, kiln.float64[::1].key)["llvm"]
    assert "smul.with.overflow" not in ir
    assert "smul.with.overflow" in stages(f_add_one, kiln.int8[::1].key)["llvm"]
    two = stages(f_add_two, kiln.float64[:, ::1].key, kiln.float64[::1].key)["llvm"]
    assert "smul.with.overflow" in two
