/* str.c - the lowering rules of the str family (lib/str.def; typing in typing/str.c). Inline:
 * len, truth, == and != (the lengths and kinds compared first; the characters with memcmp only
 * when they match, so comparing against a literal of another length is two compares and no
 * call), index normalisation and the bounds check of s[i] (IndexError), ord's length check and
 * chr's range check. The rest calls the runtime (runtime/str.h) with the operands spilled to
 * allocas and the result written to one; a nonzero status is MemoryError. Results are new
 * references (operator.c's convention): a str returned as is (str(s)) is increfed. */
#include "lower/internal.h"

#include "runtime/str.h"

static LLVMValueRef
i64c(L *l, int64_t v)
{
    return LLVMConstInt(l->i64, (unsigned long long)v, 1);
}

/* operand k of the instruction: a call's arguments follow its callee */
static KnInstr *
operand(KnInstr *in, int k)
{
    return in->op == KN_OP_CALL ? in->args[k + 1] : in->args[k];
}

static LLVMValueRef
val(L *l, KnInstr *in, int k)
{
    return l->vals[operand(in, k)->id];
}

static LLVMValueRef
field(L *l, LLVMValueRef s, int f)
{
    return kn_lower_str_field(l, s, f);
}

/* call runtime routine `name` (int fn(KnStr *out, const KnStr *a, [const KnStr *b | i64]...))
 * and give the str it wrote; MemoryError when it fails */
static LLVMValueRef
call_make(L *l, const char *name, LLVMValueRef *args, LLVMTypeRef *types, int n)
{
    LLVMValueRef out = kn_lower_entry_alloca(l, kn_lower_str_type(l), "strout");
    LLVMValueRef as[5] = {out};
    LLVMTypeRef ts[5] = {l->ptr};
    for (int i = 0; i < n; i++) {
        as[i + 1] = args[i];
        ts[i + 1] = types[i];
    }
    LLVMValueRef rc = kn_lower_extern(l, name, l->i32, ts, n + 1, as);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, rc, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
    return LLVMBuildLoad2(l->b, kn_lower_str_type(l), out, "");
}

static LLVMValueRef
call_two(L *l, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef args[2] = {kn_lower_str_spill(l, a), kn_lower_str_spill(l, b)};
    LLVMTypeRef ts[2] = {l->ptr, l->ptr};
    return call_make(l, name, args, ts, 2);
}

/* a == b: same length and kind (canonical kinds: different kinds differ), then the bytes */
static LLVMValueRef
lower_eq(L *l, LLVMValueRef a, LLVMValueRef b, int b_const)
{
    LLVMValueRef same = LLVMBuildAnd(
        l->b,
        LLVMBuildICmp(l->b, LLVMIntEQ, field(l, a, KN_STR_LENGTH), field(l, b, KN_STR_LENGTH), ""),
        LLVMBuildICmp(l->b, LLVMIntEQ, field(l, a, KN_STR_KIND), field(l, b, KN_STR_KIND), ""), "");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(l->b);
    LLVMBasicBlockRef cmp = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "strcmp");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "streq");
    LLVMBuildCondBr(l->b, same, cmp, done);
    LLVMPositionBuilderAtEnd(l->b, cmp);
    LLVMValueRef k = b_const ? b : a; /* a literal's length and kind are constants */
    LLVMValueRef nbytes =
        LLVMBuildMul(l->b, field(l, k, KN_STR_LENGTH),
                     LLVMBuildZExt(l->b, field(l, k, KN_STR_KIND), l->i64, ""), "");
    LLVMValueRef args[3] = {field(l, a, KN_STR_DATA), field(l, b, KN_STR_DATA), nbytes};
    LLVMTypeRef ts[3] = {l->ptr, l->ptr, l->i64};
    LLVMValueRef r = kn_lower_extern(l, "memcmp", l->i32, ts, 3, args);
    LLVMValueRef eq = LLVMBuildICmp(l->b, LLVMIntEQ, r, LLVMConstInt(l->i32, 0, 0), "");
    LLVMBasicBlockRef cmp_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef phi = LLVMBuildPhi(l->b, l->i1, "");
    LLVMValueRef vs[2] = {LLVMConstInt(l->i1, 0, 0), eq};
    LLVMBasicBlockRef bs[2] = {from, cmp_end};
    LLVMAddIncoming(phi, vs, bs, 2);
    return phi;
}

static LLVMValueRef
lower_compare(L *l, KnInstr *in, int bid)
{
    KnInstr *x = operand(in, 0), *y = operand(in, 1);
    int both = x->type->kind == KN_TY_STR && y->type->kind == KN_TY_STR;
    if (bid == KN_BI_STR_EQ || bid == KN_BI_STR_NE) {
        LLVMValueRef eq = both ? x->op == KN_OP_CONST ? lower_eq(l, val(l, in, 1), val(l, in, 0), 1)
                                                      : lower_eq(l, val(l, in, 0), val(l, in, 1),
                                                                 y->op == KN_OP_CONST)
                               : LLVMConstInt(l->i1, 0, 0);
        return bid == KN_BI_STR_EQ ? eq : LLVMBuildNot(l->b, eq, "");
    }
    LLVMValueRef args[2] = {kn_lower_str_spill(l, val(l, in, 0)),
                            kn_lower_str_spill(l, val(l, in, 1))};
    LLVMTypeRef ts[2] = {l->ptr, l->ptr};
    LLVMValueRef r = kn_lower_extern(l, "kn_rt_str_cmp", l->i32, ts, 2, args);
    LLVMIntPredicate p = bid == KN_BI_STR_LT   ? LLVMIntSLT
                         : bid == KN_BI_STR_LE ? LLVMIntSLE
                         : bid == KN_BI_STR_GT ? LLVMIntSGT
                                               : LLVMIntSGE;
    return LLVMBuildICmp(l->b, p, r, LLVMConstInt(l->i32, 0, 0), "");
}

static LLVMValueRef
lower_repeat(L *l, KnInstr *in, int bid)
{
    int si = bid == KN_BI_STR_MUL ? 0 : 1;
    KnInstr *k = operand(in, 1 - si);
    LLVMValueRef args[2] = {kn_lower_str_spill(l, val(l, in, si)),
                            kn_lower_convert(l, val(l, in, 1 - si), k->type, &kn_type_int64)};
    LLVMTypeRef ts[2] = {l->ptr, l->i64};
    return call_make(l, "kn_rt_str_repeat", args, ts, 2);
}

static LLVMValueRef
slice_call(L *l, LLVMValueRef s, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step)
{
    LLVMValueRef args[4] = {kn_lower_str_spill(l, s), start, stop, step};
    LLVMTypeRef ts[4] = {l->ptr, l->i64, l->i64, l->i64};
    return call_make(l, "kn_rt_str_slice", args, ts, 4);
}

/* the 256 one-character strings of kind 1: a table in the module (one byte each) */
static LLVMValueRef
latin1_table(L *l)
{
    LLVMValueRef g = LLVMGetNamedGlobal(l->mod, "kn_str_latin1");
    if (g)
        return g;
    LLVMValueRef bytes[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = LLVMConstInt(l->i8, (unsigned long long)i, 0);
    LLVMValueRef init = LLVMConstArray2(l->i8, bytes, 256);
    g = LLVMAddGlobal(l->mod, LLVMTypeOf(init), "kn_str_latin1");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* Borrowed from Python (mi NULL, parent set): the copy is out of line; owned strings and
 * literals take the inline incref. */
LLVMValueRef
kn_lower_str_stored(L *l, LLVMValueRef v)
{
    LLVMValueRef borrowed =
        LLVMBuildAnd(l->b, LLVMBuildIsNull(l->b, field(l, v, KN_STR_MI), ""),
                     LLVMBuildIsNotNull(l->b, field(l, v, KN_STR_PARENT), ""), "");
    LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "strown");
    LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "strkeep");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "strstored");
    LLVMBuildCondBr(l->b, borrowed, copy, keep);
    LLVMPositionBuilderAtEnd(l->b, copy);
    LLVMValueRef arg = kn_lower_str_spill(l, v);
    LLVMTypeRef pt = l->ptr;
    LLVMValueRef owned = call_make(l, "kn_rt_str_own", &arg, &pt, 1);
    LLVMBasicBlockRef from_copy = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, keep);
    kn_lower_incref(l, v, &kn_type_str);
    LLVMBasicBlockRef from_keep = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef phi = LLVMBuildPhi(l->b, kn_lower_str_type(l), "");
    LLVMValueRef vs[2] = {owned, v};
    LLVMBasicBlockRef bs[2] = {from_copy, from_keep};
    LLVMAddIncoming(phi, vs, bs, 2);
    return phi;
}

LLVMValueRef
kn_lower_str_item(L *l, LLVMValueRef s, LLVMValueRef k)
{
    LLVMValueRef narrow =
        LLVMBuildICmp(l->b, LLVMIntEQ, field(l, s, KN_STR_KIND), LLVMConstInt(l->i32, 1, 0), "");
    LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "latin1");
    LLVMBasicBlockRef wide = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "wide");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "char");
    LLVMBuildCondBr(l->b, narrow, one, wide);
    LLVMPositionBuilderAtEnd(l->b, one);
    LLVMValueRef c = LLVMBuildLoad2(
        l->b, l->i8, LLVMBuildGEP2(l->b, l->i8, field(l, s, KN_STR_DATA), &k, 1, ""), "");
    LLVMValueRef c64 = LLVMBuildZExt(l->b, c, l->i64, "");
    LLVMValueRef ix[2] = {i64c(l, 0), c64};
    LLVMValueRef tab = latin1_table(l);
    LLVMValueRef v = kn_lower_str_const(l, "");
    v = LLVMBuildInsertValue(
        l->b, v, LLVMBuildGEP2(l->b, LLVMGlobalGetValueType(tab), tab, ix, 2, ""), KN_STR_DATA, "");
    v = LLVMBuildInsertValue(l->b, v, i64c(l, 1), KN_STR_LENGTH, "");
    v = LLVMBuildInsertValue(
        l->b, v,
        LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, LLVMIntULT, c, LLVMConstInt(l->i8, 128, 0), ""),
                      l->i32, ""),
        KN_STR_ASCII, "");
    LLVMBasicBlockRef one_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, wide);
    LLVMValueRef args[2] = {kn_lower_str_spill(l, s), k};
    LLVMTypeRef ts[2] = {l->ptr, l->i64};
    LLVMValueRef w = call_make(l, "kn_rt_str_char", args, ts, 2);
    LLVMBasicBlockRef wide_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef phi = LLVMBuildPhi(l->b, kn_lower_str_type(l), "");
    LLVMValueRef vs[2] = {v, w};
    LLVMBasicBlockRef bs[2] = {one_end, wide_end};
    LLVMAddIncoming(phi, vs, bs, 2);
    return phi;
}

/* s[i] (IndexError past either end), s[a:b:c] (a slice value), and a SLICE of constant bounds */
static LLVMValueRef
lower_getitem(L *l, KnInstr *in)
{
    LLVMValueRef s = val(l, in, 0);
    if (in->op == KN_OP_SLICE) {
        const KnSlice *sl = in->imm.ptr;
        return slice_call(l, s, i64c(l, sl->has_start ? sl->start : INT64_MIN),
                          i64c(l, sl->has_stop ? sl->stop : INT64_MIN),
                          i64c(l, sl->has_step ? sl->step : 1));
    }
    KnInstr *ix = operand(in, 1);
    LLVMValueRef iv = val(l, in, 1);
    if (ix->type->kind == KN_TY_SLICE)
        return slice_call(l, s, LLVMBuildExtractValue(l->b, iv, 0, ""),
                          LLVMBuildExtractValue(l->b, iv, 1, ""),
                          LLVMBuildExtractValue(l->b, iv, 2, ""));
    LLVMValueRef i = kn_lower_convert(l, iv, ix->type, &kn_type_int64);
    LLVMValueRef n = field(l, s, KN_STR_LENGTH);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, i64c(l, 0), "");
    i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, n, ""), i, "");
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, n, ""), KN_EXC_STR_INDEX);
    return kn_lower_str_item(l, s, i);
}

static LLVMValueRef
lower_contains(L *l, KnInstr *in)
{
    LLVMValueRef args[2] = {kn_lower_str_spill(l, val(l, in, 1)),
                            kn_lower_str_spill(l, val(l, in, 0))};
    LLVMTypeRef ts[2] = {l->ptr, l->ptr};
    LLVMValueRef r = kn_lower_extern(l, "kn_rt_str_contains", l->i32, ts, 2, args);
    return LLVMBuildICmp(l->b, in->aux == KN_CMP_NOTIN ? LLVMIntEQ : LLVMIntNE, r,
                         LLVMConstInt(l->i32, 0, 0), "");
}

/* int(s), float(s): ValueError with the literal (kn_rt_str_error), OverflowError past int64 */
static LLVMValueRef
lower_parse(L *l, KnInstr *in, int is_int)
{
    LLVMTypeRef rt = is_int ? l->i64 : l->f64;
    LLVMValueRef out = kn_lower_entry_alloca(l, rt, "parsed");
    LLVMValueRef args[2] = {kn_lower_str_spill(l, val(l, in, 0)), out};
    LLVMTypeRef ts[2] = {l->ptr, l->ptr};
    LLVMValueRef rc =
        kn_lower_extern(l, is_int ? "kn_rt_str_to_int" : "kn_rt_str_to_float", l->i32, ts, 2, args);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, rc, LLVMConstInt(l->i32, -2U, 1), ""),
                      is_int ? KN_EXC_INT_LITERAL : KN_EXC_FLOAT_LITERAL);
    if (is_int)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, rc, LLVMConstInt(l->i32, -3U, 1), ""),
                          KN_EXC_STR_INT_RANGE);
    return LLVMBuildLoad2(l->b, rt, out, "");
}

/* str(x) */
static LLVMValueRef
lower_str_of(L *l, KnInstr *in)
{
    if (in->nargs == 1)
        return kn_lower_str_const(l, "");
    KnInstr *x = operand(in, 0);
    LLVMValueRef v = val(l, in, 0);
    switch (x->type->kind) {
    case KN_TY_STR: /* a distinct value: the owned list would merge it with its operand */
        kn_lower_incref(l, v, x->type);
        return LLVMBuildInsertValue(l->b, v, field(l, v, KN_STR_MI), KN_STR_MI, "strref");
    case KN_TY_BOOL: {
        LLVMValueRef t = kn_lower_str_const(l, "True"), f = kn_lower_str_const(l, "False");
        return LLVMBuildSelect(l->b, v, t, f, "");
    }
    case KN_TY_FLOAT: {
        LLVMValueRef d = kn_lower_convert(l, v, x->type, &kn_type_float64);
        LLVMTypeRef t = l->f64;
        return call_make(l, "kn_rt_str_from_float", &d, &t, 1);
    }
    default: {
        int wide_unsigned = !x->type->is_signed && x->type->bits == 64;
        LLVMValueRef d = wide_unsigned ? v : kn_lower_convert(l, v, x->type, &kn_type_int64);
        LLVMTypeRef t = l->i64;
        return call_make(l, wide_unsigned ? "kn_rt_str_from_uint" : "kn_rt_str_from_int", &d, &t,
                         1);
    }
    }
}

static LLVMValueRef
lower_ord(L *l, KnInstr *in)
{
    LLVMValueRef s = val(l, in, 0), n = field(l, s, KN_STR_LENGTH);
    kn_lower_raise_if_args(l, LLVMBuildICmp(l->b, LLVMIntNE, n, i64c(l, 1), ""), KN_EXC_ORD_LENGTH,
                           &n, 1);
    LLVMValueRef args[2] = {kn_lower_str_spill(l, s), i64c(l, 0)};
    LLVMTypeRef ts[2] = {l->ptr, l->i64};
    LLVMValueRef c = kn_lower_extern(l, "kn_rt_str_code", l->i32, ts, 2, args);
    return LLVMBuildZExt(l->b, c, l->i64, "");
}

static LLVMValueRef
lower_chr(L *l, KnInstr *in)
{
    LLVMValueRef cp = kn_lower_convert(l, val(l, in, 0), operand(in, 0)->type, &kn_type_int64);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, cp, i64c(l, 0x110000), ""),
                      KN_EXC_CHR_RANGE);
    LLVMTypeRef t = l->i64;
    return call_make(l, "kn_rt_str_chr", &cp, &t, 1);
}

LLVMValueRef
kn_lower_rule_str_op(L *l, KnInstr *in, int bid)
{
    switch (bid) {
    case KN_BI_STR_EQ:
    case KN_BI_STR_NE:
    case KN_BI_STR_LT:
    case KN_BI_STR_LE:
    case KN_BI_STR_GT:
    case KN_BI_STR_GE:
        return lower_compare(l, in, bid);
    case KN_BI_STR_ADD:
        return call_two(l, "kn_rt_str_concat", val(l, in, 0), val(l, in, 1));
    case KN_BI_STR_IADD:
        return call_two(l, "kn_rt_str_iadd", val(l, in, 0), val(l, in, 1));
    case KN_BI_STR_MUL:
    case KN_BI_STR_RMUL:
        return lower_repeat(l, in, bid);
    case KN_BI_STR_GETITEM:
        return lower_getitem(l, in);
    case KN_BI_STR_CONTAINS:
        return lower_contains(l, in);
    case KN_BI_STR_LEN:
        return field(l, val(l, in, 0), KN_STR_LENGTH);
    case KN_BI_STR_BOOL:
        return LLVMBuildICmp(l->b, LLVMIntNE, field(l, val(l, in, 0), KN_STR_LENGTH), i64c(l, 0),
                             "");
    case KN_BI_STR_HASH: {
        LLVMValueRef p = kn_lower_str_spill(l, val(l, in, 0));
        LLVMTypeRef t = l->ptr;
        return kn_lower_extern(l, "kn_rt_str_hash", l->i64, &t, 1, &p);
    }
    case KN_BI_STR_INT:
    case KN_BI_STR_FLOAT:
        return lower_parse(l, in, bid == KN_BI_STR_INT);
    case KN_BI_STR:
        return lower_str_of(l, in);
    case KN_BI_ORD:
        return lower_ord(l, in);
    case KN_BI_CHR:
        return lower_chr(l, in);
    default:
        return NULL;
    }
}
