/* lower.c - typed KIR -> LLVM IR: the instruction switch (with tuples, ranges, constants,
 * stores and returns), the function frame, variables, control flow, and the wrapper with the
 * dispatcher's uniform ABI. The emission helpers (types, constants, externs, intrinsics,
 * raising, the ownership of array references) are the floor, emit.c.
 *
 * Input: c->fn after typing and the passes. Output: an LLVM module holding
 *   i32 @symbol(ptr %ret, ptr %exc, <args by value>)   the native function, or, when the function
 *   <ret> @symbol(<args by value>)                       cannot raise (KnRaises.can_raise == 0),
 * this i32 @wrapper(ptr %ret, ptr %exc, ptr %args)        loads args from C layout, stores result
 * Status 0 is a normal return; nonzero means an exception was recorded in *exc (its index in the
 * exception table, with run-time message values). Variables are allocas in the entry block
 * (LLVM's mem2reg makes SSA of them); a value is converted to its variable's (unified) type when
 * stored. Array values that own a reference are released after their last use; variables own
 * theirs; returns and raises release everything. Only reachable blocks are emitted. Operators
 * and builtins live in scalar.c and calls.c, arrays in array.c, index.c, elementwise.c,
 * create.c and reduce.c. */
#include "lower/list.h"
#include "lower/internal.h"

#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <string.h>

/* ---- tuples and ranges ---- */

static LLVMValueRef
lower_tuple(L *l, KnInstr *in)
{
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, in->type));
    for (int i = 0; i < in->nargs; i++)
        v = LLVMBuildInsertValue(l->b, v, l->vals[in->args[i]->id], (unsigned)i, "");
    kn_lower_incref(l, v, in->type); /* a tuple holds references to its arrays */
    return v;
}

static int
const_index(const KnInstr *idx, int64_t *out)
{
    if (idx->op != KN_OP_CONST || idx->type->kind != KN_TY_INT)
        return 0;
    *out = idx->imm.i;
    return 1;
}

/* Wrap a negative index and check bounds: the index as i64, in [0, n). */
static LLVMValueRef
checked_index(L *l, LLVMValueRef idx, const KnType *it, LLVMValueRef n, int exc)
{
    idx = kn_lower_convert(l, idx, it, &kn_type_int64);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, idx, LLVMConstInt(l->i64, 0, 0), "");
    idx = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, idx, n, ""), idx, "");
    LLVMValueRef bad = LLVMBuildICmp(l->b, LLVMIntUGE, idx, n, "");
    kn_lower_raise_if(l, bad, exc);
    return idx;
}

LLVMValueRef
kn_lower_getitem(L *l, KnInstr *in)
{
    KnType *st = in->args[0]->type, *it = in->args[1]->type;
    if (st->kind == KN_TY_ARRAY)
        return kn_lower_array_getitem(l, in);
    LLVMValueRef s = l->vals[in->args[0]->id], idx = l->vals[in->args[1]->id];
    if (st->kind == KN_TY_RANGE) {
        LLVMValueRef start = LLVMBuildExtractValue(l->b, s, 0, "");
        LLVMValueRef step = LLVMBuildExtractValue(l->b, s, 2, "");
        LLVMValueRef k = checked_index(l, idx, it, kn_lower_range_len(l, s), KN_EXC_RANGE_INDEX);
        return LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, k, step, ""), "");
    }
    int64_t k;
    if (const_index(in->args[1], &k)) {
        if (k < 0)
            k += st->n;
        return LLVMBuildExtractValue(l->b, s, (unsigned)k, "");
    }
    /* a variable index into a homogeneous tuple: spill it as an array */
    LLVMTypeRef et = kn_lower_type(l, in->type);
    LLVMTypeRef at = LLVMArrayType2(et, (uint64_t)st->n);
    LLVMValueRef mem = kn_lower_entry_alloca(l, at, "tup");
    for (int i = 0; i < st->n; i++) {
        LLVMValueRef ix[2] = {LLVMConstInt(l->i64, 0, 0), LLVMConstInt(l->i64, (unsigned)i, 0)};
        LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, at, mem, ix, 2, "");
        LLVMValueRef item = LLVMBuildExtractValue(l->b, s, (unsigned)i, "");
        /* items of one type, or jitted functions as their choice (typing/functions.c) */
        LLVMBuildStore(l->b, kn_lower_convert(l, item, st->items[i], in->type), p);
    }
    LLVMValueRef kk =
        checked_index(l, idx, it, LLVMConstInt(l->i64, (unsigned)st->n, 0), KN_EXC_TUPLE_INDEX);
    LLVMValueRef ix[2] = {LLVMConstInt(l->i64, 0, 0), kk};
    return LLVMBuildLoad2(l->b, et, LLVMBuildInBoundsGEP2(l->b, at, mem, ix, 2, ""), "");
}

LLVMValueRef
kn_lower_range_len(L *l, LLVMValueRef r)
{
    LLVMValueRef start = LLVMBuildExtractValue(l->b, r, 0, "");
    LLVMValueRef stop = LLVMBuildExtractValue(l->b, r, 1, "");
    LLVMValueRef step = LLVMBuildExtractValue(l->b, r, 2, "");
    LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0), one = LLVMConstInt(l->i64, 1, 0);
    LLVMValueRef pos = LLVMBuildICmp(l->b, LLVMIntSGT, step, zero, "");
    /* step > 0: (stop - start + step - 1) / step;  step < 0: (start - stop - step - 1) / -step */
    LLVMValueRef lo = LLVMBuildSelect(l->b, pos, start, stop, "");
    LLVMValueRef hi = LLVMBuildSelect(l->b, pos, stop, start, "");
    LLVMValueRef st = LLVMBuildSelect(l->b, pos, step, LLVMBuildNeg(l->b, step, ""), "");
    LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntSGE, lo, hi, "");
    LLVMValueRef span = LLVMBuildSub(l->b, LLVMBuildSub(l->b, hi, lo, ""), one, "");
    LLVMValueRef n = LLVMBuildAdd(l->b, LLVMBuildUDiv(l->b, span, st, ""), one, "");
    return LLVMBuildSelect(l->b, empty, zero, n, "");
}

static LLVMValueRef
lower_len(L *l, KnInstr *in)
{
    KnType *t = in->args[0]->type;
    if (t->kind == KN_TY_TUPLE)
        return LLVMConstInt(l->i64, (unsigned long long)t->n, 0);
    if (t->kind == KN_TY_ARRAY)
        return kn_lower_array_shape(l, l->vals[in->args[0]->id], 0);
    return kn_lower_range_len(l, l->vals[in->args[0]->id]);
}

LLVMValueRef
kn_lower_rule_range_attr(L *l, KnInstr *in, int id)
{
    unsigned k = id == KN_BI_RANGE_START ? 0 : id == KN_BI_RANGE_STOP ? 1 : 2;
    return LLVMBuildExtractValue(l->b, l->vals[in->args[0]->id], k, "");
}

LLVMValueRef
kn_lower_rule_flags_attr(L *l, KnInstr *in, int id)
{
    const KnType *t = in->args[0]->type;
    return kn_lower_array_flag(l, l->vals[in->args[0]->id], t->items[0], id);
}

LLVMValueRef
kn_lower_rule_number_attr(L *l, KnInstr *in, int id)
{
    const KnType *t = in->args[0]->type;
    LLVMValueRef v = l->vals[in->args[0]->id];
    int imag = id == KN_BI_NUMBER_IMAG;
    if (t->kind == KN_TY_COMPLEX)
        return LLVMBuildExtractValue(l->b, v, imag ? 1 : 0, "");
    if (!imag)
        return kn_lower_convert(l, v, t, in->type);
    return t->kind == KN_TY_FLOAT ? kn_lower_const_f(l, t, 0.0)
                                  : LLVMConstInt(kn_lower_type(l, in->type), 0, 0);
}

static LLVMValueRef
lower_getattr(L *l, KnInstr *in)
{
    KnType *t = in->args[0]->type;
    const KnCallImpl *impl = in->impl;
    if (t->kind == KN_TY_ARRAY)
        return kn_lower_array_getattr(l, in);
    if (t->kind == KN_TY_TUPLE && t->fields && impl && impl->kind == KN_CALL_CONST)
        return kn_lower_namedtuple_field(l, in); /* p.x (namedtuple.c) */
    if (in->type->kind == KN_TY_BOUND || !impl)
        return LLVMGetUndef(l->i8); /* a bound method: a compile-time value */
    return kn_lower_entry(l, in, impl->builtin);
}

/* ---- constants ---- */

static LLVMValueRef
lower_const(L *l, KnInstr *in)
{
    KnType *t = in->type;
    switch (t->kind) {
    case KN_TY_BOOL:
    case KN_TY_INT:
        return LLVMConstInt(kn_lower_type(l, t), (unsigned long long)in->imm.i, t->is_signed);
    case KN_TY_FLOAT:
        return kn_lower_const_f(l, t, in->imm.f);
    case KN_TY_COMPLEX: {
        LLVMTypeRef f = t->bits == 64 ? l->f32 : l->f64;
        LLVMValueRef parts[2] = {LLVMConstReal(f, in->imm.c.re), LLVMConstReal(f, in->imm.c.im)};
        return LLVMConstNamedStruct(kn_lower_type(l, t), parts, 2);
    }
    case KN_TY_STR:
        return kn_lower_str_const(l, in->imm.str);
    case KN_TY_DATETIME: /* a frozen np.datetime64 / np.timedelta64 (frontend/datetime.c) */
    case KN_TY_TIMEDELTA:
        return LLVMConstInt(l->i64, (unsigned long long)in->imm.i, 1);
    case KN_TY_ENUM: /* a member: its value (frontend/enum.c) */
        return LLVMConstInt(kn_lower_type(l, t), (unsigned long long)in->imm.i, 1);
    default:
        return LLVMConstInt(l->i8, 0, 0);
    }
}

/* ---- instructions ---- */

static LLVMValueRef
lower_slice(L *l, KnInstr *in)
{
    int idx[256];
    const KnType *t = in->args[0]->type;
    int n = kn_typing_slice_items(in->imm.ptr, t->n, idx);
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, in->type)), src = l->vals[in->args[0]->id];
    for (int i = 0; i < n; i++)
        v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, src, (unsigned)idx[i], ""),
                                 (unsigned)i, "");
    return v;
}

/* a slice value: missing start/stop (and None) are INT64_MIN, a missing step is 1 */
static LLVMValueRef
lower_makeslice(L *l, KnInstr *in)
{
    LLVMValueRef parts[3] = {LLVMConstInt(l->i64, (unsigned long long)INT64_MIN, 1),
                             LLVMConstInt(l->i64, (unsigned long long)INT64_MIN, 1),
                             LLVMConstInt(l->i64, 1, 0)};
    int k = 0;
    for (int i = 0; i < 3; i++) {
        if (!(in->aux & (1 << i)))
            continue;
        KnInstr *a = in->args[k++];
        if (a->type->kind != KN_TY_NONE)
            parts[i] = kn_lower_convert(l, l->vals[a->id], a->type, &kn_type_int64);
    }
    if (in->aux & 4)
        kn_lower_raise_if(l,
                          LLVMBuildICmp(l->b, LLVMIntEQ, parts[2], LLVMConstInt(l->i64, 0, 0), ""),
                          KN_EXC_SLICE_STEP_ZERO);
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, &kn_type_slice));
    for (int i = 0; i < 3; i++)
        v = LLVMBuildInsertValue(l->b, v, parts[i], (unsigned)i, "");
    return v;
}

static LLVMValueRef
lower_concat(L *l, KnInstr *in)
{
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, in->type));
    int k = 0;
    for (int a = 0; a < 2; a++) {
        const KnType *t = in->args[a]->type;
        for (int i = 0; i < t->n; i++)
            v = LLVMBuildInsertValue(
                l->b, v, LLVMBuildExtractValue(l->b, l->vals[in->args[a]->id], (unsigned)i, ""),
                (unsigned)k++, "");
    }
    return v;
}

static LLVMValueRef
lower_binop_instr(L *l, KnInstr *in)
{
    KnCallImpl *impl = in->impl;
    if (in->type->kind == KN_TY_ARRAY)
        return kn_lower_array_binop(l, in);
    if (in->type->kind == KN_TY_TUPLE)
        return lower_concat(l, in);
    const KnNonzero *nz = kn_ctx_get(l->c, KN_SIDE_NONZERO);
    l->divisor_nonzero = nz && in->id < nz->len && nz->divisor[in->id];
    LLVMValueRef r =
        kn_lower_binop(l, (KnBinop)in->aux, l->vals[in->args[0]->id], l->vals[in->args[1]->id],
                       impl->operand, in->args[0]->type, in->args[1]->type);
    l->divisor_nonzero = 0;
    return kn_lower_convert(l, r, impl->operand->kind == KN_TY_BOOL ? &kn_type_bool : in->type,
                            in->type);
}

static LLVMValueRef
lower_cmp_instr(L *l, KnInstr *in)
{
    KnCallImpl *impl = in->impl;
    if (impl && impl->kind == KN_CALL_CONST)
        return LLVMConstInt(l->i1, (unsigned long long)impl->value, 0);
    if (in->type->kind == KN_TY_ARRAY)
        return kn_lower_array_binop(l, in);
    return kn_lower_cmp(l, (KnCmp)in->aux, l->vals[in->args[0]->id], l->vals[in->args[1]->id],
                        in->args[0]->type, in->args[1]->type, impl ? impl->operand : NULL);
}

static void
lower_store(L *l, KnInstr *in)
{
    KnVar *var = &l->c->fn->vars.items[in->aux];
    LLVMValueRef v = kn_lower_convert(l, l->vals[in->args[0]->id], in->args[0]->type, var->type);
    if (kn_lower_has_refs(var->type) && !l->borrowed[in->aux]) {
        LLVMValueRef old = LLVMBuildLoad2(l->b, kn_lower_type(l, var->type), l->vars[in->aux], "");
        kn_lower_incref(l, v, var->type);
        LLVMBuildStore(l->b, v, l->vars[in->aux]);
        kn_lower_decref(l, old, var->type);
        return;
    }
    LLVMBuildStore(l->b, v, l->vars[in->aux]);
}

static void
lower_ret(L *l, KnInstr *in)
{
    if (l->gen) { /* a generator's return: exhausted (generators.c) */
        kn_lower_gen_ret(l);
        return;
    }
    LLVMValueRef v =
        kn_lower_convert(l, l->vals[in->args[0]->id], in->args[0]->type, l->c->fn->ret_type);
    kn_lower_incref(l, v, l->c->fn->ret_type); /* the caller gets its own reference */
    kn_lower_cleanup(l);
    if (kn_lower_coded(l)) {
        kn_lower_ret_coded(l, v, LLVMConstInt(l->i8, 0, 0));
        return;
    }
    if (l->direct) {
        LLVMBuildRet(l->b, v);
        return;
    }
    LLVMBuildStore(l->b, v, l->ret_ptr);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
}

/* values that come with a reference of their own (released at the end of the block) */
static int
makes_reference(const KnInstr *in)
{
    if (!in->type || !kn_lower_has_refs(in->type))
        return 0;
    const KnCallImpl *impl = in->impl;
    if (impl && impl->kind == KN_CALL_OPERATOR)
        return 1; /* operator rules return new references (typing/operator.c) */
    switch (in->op) {
    case KN_OP_CALL:
    case KN_OP_BINOP:
    case KN_OP_UNOP:
    case KN_OP_CMP:
    case KN_OP_TUPLE:
    case KN_OP_FUSED:
    case KN_OP_GETITEM:
        return in->op != KN_OP_GETITEM || in->args[0]->type->kind == KN_TY_ARRAY;
    case KN_OP_SLICE:
    case KN_OP_GETATTR:
        return in->args[0]->type->kind == KN_TY_ARRAY; /* views (a[1:], a.T) */
    case KN_OP_ITERNEXT:
        return 1; /* an item holding arrays: views of the first axis (iter.c) */
    case KN_OP_BUILD_LIST:
        return 1; /* a new list (list.c) */
    case KN_OP_BUILD_DICT:
    case KN_OP_BUILD_SET:
        return 1;
    default:
        return 0;
    }
}

/* The divisions whose zero check the defer pass moved to their loop's exit (none if it did not
 * run). */
static const KnDeferrals *
deferrals(const L *l)
{
    static const KnDeferrals none = {.n = 0};
    const KnDeferrals *ds = kn_ctx_get(l->c, KN_SIDE_DEFERRED);
    return ds ? ds : &none;
}

/* A loop exit whose loop divided by zero raises here, at the division's position. */
static void
check_deferred(L *l, const KnBlock *blk)
{
    const KnDeferrals *ds = deferrals(l);
    for (int k = 0; k < ds->n; k++) {
        const KnDeferred *d = &ds->items[k];
        if (d->exit != blk)
            continue;
        l->span = d->division->span;
        kn_lower_raise_if(l, LLVMBuildLoad2(l->b, l->i1, l->defer_flags[k], ""),
                          d->from_ints ? KN_EXC_TRUEDIV_ZERO : KN_EXC_FLOAT_DIV_ZERO);
    }
}

static LLVMValueRef
deferred_flag(L *l, const KnInstr *in)
{
    const KnDeferrals *ds = deferrals(l);
    for (int k = 0; k < ds->n; k++)
        if (ds->items[k].division == in)
            return l->defer_flags[k];
    return NULL;
}

static int
lower_instr(L *l, KnInstr *in)
{
    LLVMValueRef v = NULL;
    l->span = in->span;
    l->defer_flag = in->op == KN_OP_BINOP ? deferred_flag(l, in) : NULL;
    const KnCallImpl *impl = in->impl;
    if (impl && impl->kind == KN_CALL_OPERATOR) { /* an entry's rule: typing/operator.c */
        v = kn_lower_entry(l, in, impl->builtin);
        goto lowered;
    }
    switch (in->op) {
    case KN_OP_CONST:
        v = lower_const(l, in);
        break;
    case KN_OP_GLOBAL: /* a compile-time value, or a frozen array (frozen.c) */
        v = in->type->kind == KN_TY_ARRAY ? kn_lower_frozen_array(l, in) : LLVMGetUndef(l->i8);
        break;
    case KN_OP_ARG:
        v = l->gen ? kn_lower_gen_arg(l, in->aux)
                   : LLVMGetParam(l->fn, (unsigned)in->aux + (l->direct ? 0 : 2));
        break;
    case KN_OP_LOAD:
        v = LLVMBuildLoad2(l->b, kn_lower_type(l, in->type), l->vars[in->aux],
                           l->c->fn->vars.items[in->aux].name);
        break;
    case KN_OP_STORE:
        lower_store(l, in);
        break;
    case KN_OP_BINOP:
        v = lower_binop_instr(l, in);
        break;
    case KN_OP_UNOP:
        v = in->type->kind == KN_TY_ARRAY ? kn_lower_array_unop(l, in)
                                          : kn_lower_unop(l, in, l->vals[in->args[0]->id]);
        break;
    case KN_OP_CMP:
        v = lower_cmp_instr(l, in);
        break;
    case KN_OP_TRUTH:
        v = kn_lower_truth(l, l->vals[in->args[0]->id], in->args[0]->type);
        break;
    case KN_OP_CALL:
        v = kn_lower_call(l, in);
        break;
    case KN_OP_GETATTR:
        v = lower_getattr(l, in);
        break;
    case KN_OP_TUPLE:
        v = lower_tuple(l, in);
        break;
    case KN_OP_GETITEM:
        v = kn_lower_getitem(l, in);
        break;
    case KN_OP_LEN:
        v = lower_len(l, in);
        break;
    case KN_OP_SLICE:
        v = in->args[0]->type->kind == KN_TY_ARRAY ? kn_lower_array_const_slice(l, in)
                                                   : lower_slice(l, in);
        break;
    case KN_OP_MAKESLICE:
        v = lower_makeslice(l, in);
        break;
    case KN_OP_FUSED:
        v = kn_lower_fused(l, in);
        break;
    case KN_OP_SETITEM:
        kn_lower_array_setitem(l, in);
        break;
    case KN_OP_CAST:
        v = kn_lower_convert(l, l->vals[in->args[0]->id], in->args[0]->type, in->type);
        break;
    case KN_OP_UNWRAP:
        v = kn_lower_unwrap(l, in); /* model_optional.c */
        break;
    case KN_OP_BR:
        kn_lower_release_due(l, 1);
        kn_lower_release_slots_due(l);
        LLVMBuildBr(l->b, l->blocks[in->targets[0]->id]);
        break;
    case KN_OP_CBR:
        kn_lower_release_due(l, 1);
        kn_lower_release_slots_due(l);
        if (!in->targets[0]->reachable || !in->targets[1]->reachable) /* a folded condition */
            LLVMBuildBr(l->b, l->blocks[in->targets[in->targets[0]->reachable ? 0 : 1]->id]);
        else
            LLVMBuildCondBr(l->b, l->vals[in->args[0]->id], l->blocks[in->targets[0]->id],
                            l->blocks[in->targets[1]->id]);
        break;
    case KN_OP_GETITER:
        v = kn_lower_getiter(l, in);
        break;
    case KN_OP_BUILD_LIST:
        v = kn_lower_build_list(l, in);
        break;
    case KN_OP_BUILD_DICT:
    case KN_OP_BUILD_SET:
        v = kn_lower_build_dict(l, in); /* lower/dict.c */
        break;
    case KN_OP_ITERNEXT:
        kn_lower_release_due(l, 1);
        kn_lower_release_slots_due(l);
        v = kn_lower_iternext(l, in);
        break;
    case KN_OP_RET:
        lower_ret(l, in);
        break;
    case KN_OP_YIELD:
        kn_lower_gen_yield(l, in); /* generators.c */
        break;
    case KN_OP_RAISE:
        kn_lower_raise(l, in); /* exceptions.c */
        break;
    case KN_OP_EXC_MATCH:
        v = kn_lower_exc_match(l, in);
        break;
    case KN_OP_RERAISE:
        kn_lower_reraise(l, in);
        break;
    default:
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, in->span,
                      kn_kir_op_not_yet_compiled(in->op)
                          ? "internal error: lowering reached `%s`, an op that kiln does not "
                            "compile yet (ir/ops.def)"
                          : "cannot lower %s",
                      kn_kir_op_name(in->op));
        return -1;
    }
lowered:
    if (!v && kn_kir_op_has_value(in->op)) {
        if (!l->c->diags.items.len)
            kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, in->span,
                          "internal error: no code for this %s (%s)", kn_kir_op_name(in->op),
                          in->type ? in->type->name : "?");
        return -1;
    }
    l->vals[in->id] = v;
    if (l->gen)
        kn_lower_gen_after(l, in); /* used in another block: spilled to the frame */
    if (l->has_refs && makes_reference(in)) {
        if (l->slot[in->id])
            kn_lower_keep_in_slot(l, in, v);
        else
            kn_lower_own_until(l, v, in->type, l->cur_block);
    }
    if (in->op == KN_OP_RET || in->op == KN_OP_RAISE || in->op == KN_OP_RERAISE)
        kn_lower_release_due(l, 0);
    if (in->op == KN_OP_ITERNEXT) /* the item is in its slot: on to the loop's body */
        LLVMBuildBr(l->b, l->blocks[in->targets[0]->id]);
    return 0;
}

/* ---- the function and its wrapper ---- */

static LLVMValueRef
declare_native(L *l, KnFunction *fn, const char *name)
{
    LLVMTypeRef params[KN_MAX_PARAMS + 3];
    int off = l->direct ? 0 : 2;
    params[0] = l->ptr;
    params[1] = l->ptr;
    for (int i = 0; i < fn->nparams && i < KN_MAX_PARAMS; i++)
        params[i + off] = kn_lower_type(l, fn->arg_types[i]);
    int n = fn->nparams + off;
    if (l->c->in_cycle)
        params[n++] = l->i64; /* the stack limit */
    LLVMTypeRef rt = l->direct ? kn_lower_type(l, fn->ret_type) : l->i32;
    if (l->direct && l->c->in_cycle)
        rt = kn_lower_coded_type(l, rt);
    LLVMTypeRef ft = LLVMFunctionType(rt, params, (unsigned)n, 0);
    LLVMValueRef f = LLVMAddFunction(l->mod, name, ft);
    unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(l->ctx, nounwind, 0));
    if (l->c->inline_always && !l->c->in_cycle) { /* inline='always': every jitted caller */
        unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(l->ctx, always, 0));
    }
    return f;
}

/* Parameters whose variable is stored once, from its argument, borrow the caller's reference:
 * no incref when the argument is stored, no decref when the function leaves. Anything that
 * keeps the array beyond the call (a return, another variable, a tuple) takes its own
 * reference as usual. Saves two atomic operations per array argument per call. */
static void
find_borrowed(L *l)
{
    KnFunction *fn = l->c->fn;
    int *stores = kn_arena_alloc(&l->c->arena, sizeof(int) * (size_t)(fn->vars.len + 1));
    int *from_arg = kn_arena_alloc(&l->c->arena, sizeof(int) * (size_t)(fn->vars.len + 1));
    l->borrowed = kn_arena_alloc(&l->c->arena, (size_t)fn->vars.len + 1);
    for (int i = 0; i < fn->vars.len; i++)
        stores[i] = from_arg[i] = l->borrowed[i] = 0;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op != KN_OP_STORE)
                continue;
            stores[in->aux]++;
            from_arg[in->aux] +=
                in->args[0]->op == KN_OP_ARG && in->args[0]->type == fn->vars.items[in->aux].type;
        }
    }
    for (int i = 0; i < fn->vars.len; i++)
        l->borrowed[i] = fn->vars.items[i].is_param && stores[i] == 1 && from_arg[i] == 1 &&
                         !l->gen; /* a generator's frame owns what it keeps */
}

/* At the entry of a function in a recursion cycle: RecursionError when this frame lies below
 * the stack limit (the frame address of the function LLVM inlines this into is at least as
 * deep, so inlining keeps the check conservative), and the interrupt poll. */
static void
check_recursion(L *l)
{
    LLVMValueRef zero = LLVMConstInt(l->i32, 0, 0);
    LLVMTypeRef pt = l->ptr;
    LLVMValueRef fa = kn_lower_intrinsic(l, "llvm.frameaddress", &pt, 1, &zero, 1);
    LLVMValueRef sp = LLVMBuildPtrToInt(l->b, fa, l->i64, "");
    l->span = l->c->fn->span;
    kn_lower_raise_code_if(l, LLVMBuildICmp(l->b, LLVMIntULT, sp, l->limit, ""), KN_EXC_RECURSION);
    /* Not in a coded function: the load would make it read memory, and LLVM would no longer
     * merge its repeated calls (fib(27): 58 us -> 1.1 ms). Its depth is bounded anyway. */
    if (!kn_lower_coded(l))
        kn_lower_poll_interrupt(l);
}

/* last_use of every value, and a zeroed slot in the entry block for each value owning a
 * reference that a later block uses (see kn_lower_keep_in_slot). */
static void
find_slots(L *l)
{
    KnFunction *fn = l->c->fn;
    size_t n = (size_t)(fn->next_id + 1);
    l->vals = kn_arena_alloc(&l->c->arena, sizeof(LLVMValueRef) * n);
    l->last_use = kn_arena_alloc(&l->c->arena, sizeof(int) * n);
    l->slot = kn_arena_alloc(&l->c->arena, sizeof(LLVMValueRef) * n);
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            for (int k = 0; k < in->nargs; k++)
                if (b > l->last_use[in->args[k]->id])
                    l->last_use[in->args[k]->id] = b;
        }
    }
    if (!l->has_refs)
        return;
    int count = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int b = 0; b < fn->blocks.len; b++) {
            KnBlock *blk = fn->blocks.items[b];
            for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
                KnInstr *in = blk->instrs.items[i];
                if (!makes_reference(in) || l->last_use[in->id] <= b)
                    continue;
                if (pass == 0) {
                    count++;
                    continue;
                }
                LLVMTypeRef t = kn_lower_type(l, in->type);
                if (l->gen) { /* in a generator's frame, zeroed when it is made */
                    l->slot[in->id] = kn_lower_gen_slot(l, t, "kept");
                    l->slotted[l->nslotted++] = in;
                    continue;
                }
                l->slot[in->id] = LLVMBuildAlloca(l->b, t, "kept");
                LLVMBuildStore(l->b, LLVMConstNull(t), l->slot[in->id]);
                l->slotted[l->nslotted++] = in;
            }
        }
        if (pass == 0)
            l->slotted = kn_arena_alloc(&l->c->arena, sizeof(KnInstr *) * (size_t)(count + 1));
    }
}

/* The result of a conditional expression (frontend.c, ifexp) is stored at the end of both
 * branches and loaded once, first thing where they meet: nothing runs between, so all of a
 * function's scalar `$ifexp` temporaries of one LLVM type can share one alloca. A straight-line
 * function of 4,000 `x = a if c else b` lines had 4,000 allocas, and SROA/mem2reg over
 * 4,000 allocas x 12,000 blocks took 80% of the optimizer (3.8 s of 4.9 s). */
typedef struct IfexpSlots {
    LLVMTypeRef type[8];
    LLVMValueRef slot[8];
    int n;
} IfexpSlots;

static LLVMValueRef
var_slot(L *l, const KnVar *v, LLVMTypeRef t, IfexpSlots *shared)
{
    int share = strncmp(v->name, "$ifexp", 6) == 0 && !kn_lower_has_refs(v->type) &&
                (v->type->kind == KN_TY_INT || v->type->kind == KN_TY_FLOAT ||
                 v->type->kind == KN_TY_BOOL || v->type->kind == KN_TY_COMPLEX);
    for (int k = 0; share && k < shared->n; k++)
        if (shared->type[k] == t)
            return shared->slot[k];
    if (l->gen) /* in a generator's frame, zeroed when it is made (generators.c) */
        return kn_lower_gen_slot(l, t, v->name);
    LLVMValueRef a = LLVMBuildAlloca(l->b, t, v->name);
    LLVMBuildStore(l->b, LLVMConstNull(t), a);
    if (share && shared->n < 8) {
        shared->type[shared->n] = t;
        shared->slot[shared->n++] = a;
    }
    return a;
}

static int
lower_body(L *l)
{
    KnFunction *fn = l->c->fn;
    find_borrowed(l);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "entry");
    l->blocks = kn_arena_alloc(&l->c->arena, sizeof(LLVMBasicBlockRef) * (size_t)fn->blocks.len);
    for (int b = 0; b < fn->blocks.len; b++)
        if (fn->blocks.items[b]->reachable)
            l->blocks[b] = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "");
    LLVMPositionBuilderAtEnd(l->b, entry);
    l->vars = kn_arena_alloc(&l->c->arena, sizeof(LLVMValueRef) * (size_t)(fn->vars.len + 1));
    IfexpSlots shared = {.n = 0};
    for (int i = 0; i < fn->vars.len; i++) {
        KnVar *v = &fn->vars.items[i];
        if (!v->type)
            continue;
        l->vars[i] = var_slot(l, v, kn_lower_type(l, v->type), &shared);
    }
    for (int k = 0; k < deferrals(l)->n; k++) {
        l->defer_flags[k] = LLVMBuildAlloca(l->b, l->i1, "divided_by_zero");
        LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), l->defer_flags[k]);
    }
    find_slots(l);
    kn_lower_exc_setup(l); /* exceptions.c: the pending exception of a direct-ABI try */
    if (l->limit && l->c->target->stack_checks)
        check_recursion(l);
    if (l->gen)
        kn_lower_gen_entry(l); /* the switch on the resume index (generators.c) */
    else
        LLVMBuildBr(l->b, l->blocks[0]);
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        if (!blk->reachable)
            continue;
        LLVMPositionBuilderAtEnd(l->b, l->blocks[b]);
        l->handler = blk->unwind ? l->blocks[blk->unwind->id] : NULL; /* exceptions.c */
        l->cur_block = b;
        if (l->gen)
            kn_lower_gen_block(l, blk);
        if (blk->polls) {
            l->span = blk->instrs.len ? blk->instrs.items[0]->span : fn->span;
            kn_lower_poll_interrupt(l);
        }
        check_deferred(l, blk);
        for (int i = 0; i < blk->instrs.len; i++)
            KN_TRY(lower_instr(l, blk->instrs.items[i]));
    }
    kn_lower_finish_unwind(l);
    return 0;
}

/* The wrapper's call of the native function stays a call: inlined, the function's body would
 * be compiled twice (O3 and code generation), while the call costs nothing measurable next to
 * a dispatch (per-call timings of `return x` and `return a[0]` unchanged). On go_fast, whose
 * body became small enough to inline, O3 runs 16% and code generation 12% fewer instructions
 * (callgrind) with this. */
static void
not_inlined(L *l, LLVMValueRef call)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(l->ctx, kind, 0));
}

/* The target's own calling convention, attributes or metadata on an entry (a GPU kernel's). */
static void
mark_entry(L *l, LLVMValueRef fn, KnEntryRole role)
{
    const KnTarget *t = l->c->target;
    if (t->mark_entry)
        t->mark_entry(t, fn, role);
}

static void
build_wrapper(L *l, LLVMValueRef native)
{
    KnFunction *fn = l->c->fn;
    LLVMTypeRef params[3] = {l->ptr, l->ptr, l->ptr};
    LLVMTypeRef ft = LLVMFunctionType(l->i32, params, 3, 0);
    LLVMValueRef w = LLVMAddFunction(l->mod, l->c->wrapper, ft);
    mark_entry(l, w, KN_ENTRY_WRAPPER);
    LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, w, "entry"));
    LLVMValueRef args[KN_MAX_PARAMS + 3];
    LLVMTypeRef rt = kn_lower_type(l, fn->ret_type);
    LLVMValueRef ret = LLVMBuildAlloca(l->b, rt, "ret");
    int first = l->direct ? 0 : 2;
    unsigned nargs = (unsigned)(fn->nparams + first);
    args[0] = ret;
    args[1] = LLVMGetParam(w, 1);
    for (int i = 0; i < fn->nparams; i++) {
        LLVMValueRef off = LLVMConstInt(l->i64, kn_type_arg_offset(fn->arg_types, i), 0);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, l->i8, LLVMGetParam(w, 2), &off, 1, "");
        args[i + first] = kn_lower_load_c(l, fn->arg_types[i], p);
    }
    if (l->c->in_cycle)
        args[nargs++] = kn_lower_extern(l, "kn_rt_stack_limit", l->i64, NULL, 0, NULL);
    if (l->direct && !l->limit) {
        LLVMValueRef v =
            LLVMBuildCall2(l->b, LLVMGlobalGetValueType(native), native, args, nargs, "");
        not_inlined(l, v);
        kn_lower_store_c(l, fn->ret_type, v, LLVMGetParam(w, 0));
        LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
        return;
    }
    if (l->direct) { /* coded: {value, code} */
        LLVMValueRef r =
            LLVMBuildCall2(l->b, LLVMGlobalGetValueType(native), native, args, nargs, "");
        not_inlined(l, r);
        LLVMValueRef code = LLVMBuildExtractValue(l->b, r, 1, "");
        LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, w, "ok");
        LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, w, "raise");
        LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, code, LLVMConstInt(l->i8, 0, 0), ""),
                        ok, bad);
        LLVMPositionBuilderAtEnd(l->b, ok);
        kn_lower_store_c(l, fn->ret_type, LLVMBuildExtractValue(l->b, r, 0, ""),
                         LLVMGetParam(w, 0));
        LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
        LLVMPositionBuilderAtEnd(l->b, bad);
        LLVMValueRef idx = LLVMBuildAdd(l->b, LLVMBuildZExt(l->b, code, l->i64, ""),
                                        LLVMConstInt(l->i64, KN_EXC_RECURSION - 1, 0), "");
        LLVMBuildStore(l->b, idx, LLVMGetParam(w, 1));
        LLVMValueRef off = LLVMConstInt(l->i64, 6, 0);
        char where[1024];
        snprintf(where, sizeof where, "%s:%d", fn->filename, fn->span.line);
        LLVMBuildStore(l->b, LLVMBuildGlobalStringPtr(l->b, where, "where"),
                       LLVMBuildInBoundsGEP2(l->b, l->i64, LLVMGetParam(w, 1), &off, 1, ""));
        LLVMBuildRet(l->b, LLVMConstInt(l->i32, 1, 0));
        return;
    }
    LLVMValueRef st = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(native), native, args, nargs, "");
    not_inlined(l, st);
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, w, "ok");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(l->ctx, w, "out");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, st, LLVMConstInt(l->i32, 0, 0), ""), ok,
                    out);
    LLVMPositionBuilderAtEnd(l->b, ok);
    kn_lower_store_c(l, fn->ret_type, LLVMBuildLoad2(l->b, rt, ret, ""), LLVMGetParam(w, 0));
    LLVMBuildBr(l->b, out);
    LLVMPositionBuilderAtEnd(l->b, out);
    LLVMBuildRet(l->b, st);
}

static unsigned
llvm_fmf(unsigned fm)
{
    unsigned r = 0;
    if (fm & KN_FM_REASSOC)
        r |= LLVMFastMathAllowReassoc;
    if (fm & KN_FM_NNAN)
        r |= LLVMFastMathNoNaNs;
    if (fm & KN_FM_NINF)
        r |= LLVMFastMathNoInfs;
    if (fm & KN_FM_NSZ)
        r |= LLVMFastMathNoSignedZeros;
    if (fm & KN_FM_ARCP)
        r |= LLVMFastMathAllowReciprocal;
    if (fm & KN_FM_CONTRACT)
        r |= LLVMFastMathAllowContract;
    if (fm & KN_FM_AFN)
        r |= LLVMFastMathApproxFunc;
    return r;
}

static int
function_has_refs(KnFunction *fn)
{
    for (int i = 0; i < fn->vars.len; i++)
        if (fn->vars.items[i].type && kn_lower_has_refs(fn->vars.items[i].type))
            return 1;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++)
            if (blk->instrs.items[i]->type && kn_lower_has_refs(blk->instrs.items[i]->type))
                return 1;
    }
    return 0;
}

LLVMModuleRef
kn_lower_function(KnCompilation *c, LLVMContextRef ctx)
{
    L l;
    memset(&l, 0, sizeof l);
    l.c = c;
    l.ctx = ctx;
    l.mod = LLVMModuleCreateWithNameInContext(c->symbol, ctx);
    LLVMSetTarget(l.mod, c->target->triple);
    LLVMSetDataLayout(l.mod, c->target->datalayout);
    l.b = LLVMCreateBuilderInContext(ctx);
    l.i1 = LLVMInt1TypeInContext(ctx);
    l.i8 = LLVMInt8TypeInContext(ctx);
    l.i32 = LLVMInt32TypeInContext(ctx);
    l.i64 = LLVMInt64TypeInContext(ctx);
    l.f32 = LLVMFloatTypeInContext(ctx);
    l.f64 = LLVMDoubleTypeInContext(ctx);
    l.ptr = LLVMPointerTypeInContext(ctx, 0);
    l.fmf = llvm_fmf(c->fastmath);
    if (c->fn->nparams > KN_MAX_PARAMS) { /* the frontend reports it, at the parameter */
        kn_diag_error(&c->diags, KN_DIAG_UNSUPPORTED, c->fn->span,
                      "functions of more than %d parameters are not supported", KN_MAX_PARAMS);
        goto fail;
    }
    l.has_refs = function_has_refs(c->fn);
    const KnRaises *raises = kn_ctx_get(c, KN_SIDE_RAISES);
    l.direct = !(raises && raises->can_raise) && !c->fn->is_generator;
    if (c->fn->is_generator) { /* next(out, exc, frame): generators.c */
        LLVMTypeRef gp[3] = {l.ptr, l.ptr, l.ptr};
        l.fn = LLVMAddFunction(l.mod, c->symbol, LLVMFunctionType(l.i32, gp, 3, 0));
    } else {
        l.fn = declare_native(&l, c->fn, c->symbol);
    }
    mark_entry(&l, l.fn, KN_ENTRY_NATIVE);
    l.ret_ptr = l.direct ? NULL : LLVMGetParam(l.fn, 0);
    l.exc_ptr = l.direct ? NULL : LLVMGetParam(l.fn, 1);
    l.limit =
        c->in_cycle && !c->fn->is_generator ? LLVMGetParam(l.fn, LLVMCountParams(l.fn) - 1) : NULL;
    if (c->fn->is_generator && kn_lower_gen_init(&l, LLVMGetParam(l.fn, 2)) < 0)
        goto fail;
    if (lower_body(&l) < 0 || l.analysis_wrong)
        goto fail;
    if (l.gen)
        kn_lower_gen_functions(&l);
    else if (c->target->host_wrapper)
        build_wrapper(&l, l.fn);
    LLVMDisposeBuilder(l.b);
    char *msg = NULL;
    if (LLVMVerifyModule(l.mod, LLVMReturnStatusAction, &msg)) {
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, c->fn->span,
                      "internal error: invalid LLVM IR for %s: %s", c->fn->name, msg);
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(l.mod);
        return NULL;
    }
    LLVMDisposeMessage(msg);
    return l.mod;
fail:
    LLVMDisposeBuilder(l.b);
    LLVMDisposeModule(l.mod);
    return NULL;
}
