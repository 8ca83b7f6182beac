/* datetime.c - np.datetime64 / np.timedelta64 operations (typing/datetime.c types them): both
 * operands are converted to their common unit (kn_lower_time_convert, model_datetime.c), then
 * the int64 arithmetic runs with NumPy's NaT rules: NaT in gives NaT out (NaN for a
 * timedelta / timedelta, 0 for //), a division by zero gives NaT, multiplying or dividing by
 * a float truncates toward zero (NaN or an infinity gives NaT); comparisons with NaT are false
 * but != which is true. */
#include "lower/internal.h"

static LLVMValueRef
i64v(L *l, int64_t v)
{
    return LLVMConstInt(l->i64, (unsigned long long)v, 1);
}

static LLVMValueRef
is_nat(L *l, LLVMValueRef v)
{
    return LLVMBuildICmp(l->b, LLVMIntEQ, v, i64v(l, INT64_MIN), "");
}

static int
is_time(const KnType *t)
{
    return t->kind == KN_TY_DATETIME || t->kind == KN_TY_TIMEDELTA;
}

/* v of time type t in unit u */
static LLVMValueRef
in_unit(L *l, LLVMValueRef v, const KnType *t, int u)
{
    LLVMValueRef r = kn_lower_time_convert(l, v, t->id, u, t->kind == KN_TY_DATETIME);
    return r ? r : v;
}

static LLVMValueRef
nat_or(L *l, LLVMValueRef nat, LLVMValueRef r)
{
    return LLVMBuildSelect(l->b, nat, i64v(l, INT64_MIN), r, "");
}

/* td * x or td / x for a number x (float: through double, truncated; NaN/inf -> NaT) */
static LLVMValueRef
scale(L *l, LLVMValueRef td, LLVMValueRef x, const KnType *xt, int divide)
{
    LLVMValueRef nat = is_nat(l, td);
    if (xt->kind != KN_TY_FLOAT) {
        LLVMValueRef n = kn_lower_convert(l, x, xt, &kn_type_int64);
        if (!divide)
            return nat_or(l, nat, LLVMBuildMul(l->b, td, n, ""));
        LLVMValueRef zero = LLVMBuildICmp(l->b, LLVMIntEQ, n, i64v(l, 0), "");
        LLVMValueRef safe = LLVMBuildSelect(l->b, zero, i64v(l, 1), n, "");
        return nat_or(l, LLVMBuildOr(l->b, nat, zero, ""), LLVMBuildSDiv(l->b, td, safe, ""));
    }
    LLVMValueRef f = kn_lower_convert(l, x, xt, &kn_type_float64);
    LLVMValueRef d = LLVMBuildSIToFP(l->b, td, l->f64, "");
    LLVMValueRef r = divide ? LLVMBuildFDiv(l->b, d, f, "") : LLVMBuildFMul(l->b, d, f, "");
    /* |r| < 2^63 and not NaN: representable */
    LLVMValueRef ok = LLVMBuildFCmp(l->b, LLVMRealOLT, kn_lower_math(l, "fabs", &r, 1),
                                    LLVMConstReal(l->f64, 0x1p63), "");
    LLVMValueRef bad = LLVMBuildOr(l->b, nat, LLVMBuildNot(l->b, ok, ""), "");
    LLVMValueRef safe = LLVMBuildSelect(l->b, ok, r, LLVMConstReal(l->f64, 0), "");
    return nat_or(l, bad, LLVMBuildFPToSI(l->b, safe, l->i64, ""));
}

/* Python's // and % of int64s, b != 0 */
static LLVMValueRef
py_floordiv(L *l, LLVMValueRef a, LLVMValueRef b, int want_mod)
{
    LLVMValueRef q = LLVMBuildSDiv(l->b, a, b, ""), r = LLVMBuildSRem(l->b, a, b, "");
    LLVMValueRef nz = LLVMBuildICmp(l->b, LLVMIntNE, r, i64v(l, 0), "");
    LLVMValueRef diff =
        LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, r, b, ""), i64v(l, 0), "");
    LLVMValueRef fix = LLVMBuildAnd(l->b, nz, diff, "");
    if (want_mod)
        return LLVMBuildSelect(l->b, fix, LLVMBuildAdd(l->b, r, b, ""), r, "");
    return LLVMBuildSelect(l->b, fix, LLVMBuildSub(l->b, q, i64v(l, 1), ""), q, "");
}

static LLVMValueRef
two_deltas(L *l, int op, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef nat = LLVMBuildOr(l->b, is_nat(l, a), is_nat(l, b), "");
    if (op == KN_BIN_TRUEDIV) {
        LLVMValueRef q = LLVMBuildFDiv(l->b, LLVMBuildSIToFP(l->b, a, l->f64, ""),
                                       LLVMBuildSIToFP(l->b, b, l->f64, ""), "");
        return LLVMBuildSelect(l->b, nat, LLVMConstReal(l->f64, __builtin_nan("")), q, "");
    }
    LLVMValueRef zero = LLVMBuildICmp(l->b, LLVMIntEQ, b, i64v(l, 0), "");
    LLVMValueRef bad = LLVMBuildOr(l->b, nat, zero, "");
    LLVMValueRef safe = LLVMBuildSelect(l->b, bad, i64v(l, 1), b, "");
    LLVMValueRef r = py_floordiv(l, a, safe, op == KN_BIN_MOD);
    if (op == KN_BIN_MOD)
        return nat_or(l, bad, r);
    return LLVMBuildSelect(l->b, bad, i64v(l, 0), r, ""); /* NumPy: 0 (with a warning) */
}

static LLVMValueRef
lower_binop(L *l, KnInstr *in)
{
    int op = (int)in->aux;
    const KnType *ta = in->args[0]->type, *tb = in->args[1]->type;
    LLVMValueRef a = l->vals[in->args[0]->id], b = l->vals[in->args[1]->id];
    if (op == KN_BIN_MUL)
        return is_time(ta) ? scale(l, a, b, tb, 0) : scale(l, b, a, ta, 0);
    if (op == KN_BIN_TRUEDIV && !is_time(tb))
        return scale(l, a, b, tb, 1);
    int u =
        kn_type_time_common(ta->id, ta->kind == KN_TY_DATETIME, tb->id, tb->kind == KN_TY_DATETIME);
    a = in_unit(l, a, ta, u);
    b = in_unit(l, b, tb, u);
    if (op == KN_BIN_ADD || op == KN_BIN_SUB) {
        LLVMValueRef nat = LLVMBuildOr(l->b, is_nat(l, a), is_nat(l, b), "");
        LLVMValueRef r =
            op == KN_BIN_ADD ? LLVMBuildAdd(l->b, a, b, "") : LLVMBuildSub(l->b, a, b, "");
        return nat_or(l, nat, r);
    }
    return two_deltas(l, op, a, b);
}

static LLVMValueRef
lower_cmp(L *l, KnInstr *in)
{
    const KnType *ta = in->args[0]->type, *tb = in->args[1]->type;
    int ne = in->aux == KN_CMP_NE;
    if (!is_time(ta) || !is_time(tb) || ta->kind != tb->kind)
        return LLVMConstInt(l->i1, (unsigned long long)ne, 0);
    int u =
        kn_type_time_common(ta->id, ta->kind == KN_TY_DATETIME, tb->id, tb->kind == KN_TY_DATETIME);
    LLVMValueRef a = in_unit(l, l->vals[in->args[0]->id], ta, u);
    LLVMValueRef b = in_unit(l, l->vals[in->args[1]->id], tb, u);
    static const LLVMIntPredicate preds[] = {
        [KN_CMP_EQ] = LLVMIntEQ,  [KN_CMP_NE] = LLVMIntNE,  [KN_CMP_LT] = LLVMIntSLT,
        [KN_CMP_LE] = LLVMIntSLE, [KN_CMP_GT] = LLVMIntSGT, [KN_CMP_GE] = LLVMIntSGE};
    LLVMValueRef r = LLVMBuildICmp(l->b, preds[in->aux], a, b, "");
    LLVMValueRef nat = LLVMBuildOr(l->b, is_nat(l, a), is_nat(l, b), "");
    return LLVMBuildSelect(l->b, nat, LLVMConstInt(l->i1, (unsigned long long)ne, 0), r, "");
}

static LLVMValueRef
lower_make(L *l, KnInstr *in)
{
    KnInstr *v = in->args[1];
    if (v->type == &kn_type_str)
        return i64v(l, INT64_MIN); /* 'NaT' (typing checked) */
    return kn_lower_convert(l, l->vals[v->id], v->type, &kn_type_int64);
}

LLVMValueRef
kn_lower_rule_datetime(L *l, KnInstr *in, int bid)
{
    switch (bid) {
    case KN_BI_NP_ISNAT:
        return is_nat(l, l->vals[in->args[1]->id]);
    case KN_BI_NP_DATETIME64:
    case KN_BI_NP_TIMEDELTA64:
        return lower_make(l, in);
    default:
        break;
    }
    switch (in->op) {
    case KN_OP_BINOP:
        return lower_binop(l, in);
    case KN_OP_CMP:
        return lower_cmp(l, in);
    default: /* UNOP: - keeps NaT (INT64_MIN negates to itself), + is the value */
        return in->aux == KN_UN_NEG ? LLVMBuildNeg(l->b, l->vals[in->args[0]->id], "")
                                    : l->vals[in->args[0]->id];
    }
}
