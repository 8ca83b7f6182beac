/* model_optional.c - the lowering model of optional values (types/model_optional.c): the LLVM
 * struct {T value, i1 present}; a None is {zero, 0}, so that the references a missing value
 * "holds" are NULL meminfos, which releasing skips, and the model can visit the value's
 * references whatever the flag. Also what the optional kind's instructions lower to: the
 * wrapping of a value or None into an optional (kn_lower_optional_wrap, from kn_lower_convert),
 * UNWRAP (the value, TypeError if None), and the registry rule `optional` (`x is None`,
 * `x is not None`, truth). */
#include "lower/internal.h"

static LLVMTypeRef
optional_type(L *l, const KnType *t)
{
    LLVMTypeRef fs[2] = {kn_lower_type(l, t->dtype), l->i1};
    return LLVMStructTypeInContext(l->ctx, fs, 2, 0);
}

static LLVMValueRef
present(L *l, LLVMValueRef v)
{
    return LLVMBuildExtractValue(l->b, v, 1, "present");
}

static LLVMValueRef
value_of(L *l, LLVMValueRef v)
{
    return LLVMBuildExtractValue(l->b, v, 0, "");
}

static LLVMValueRef
make(L *l, const KnType *t, LLVMValueRef value, LLVMValueRef flag)
{
    LLVMValueRef r = LLVMGetUndef(optional_type(l, t));
    r = LLVMBuildInsertValue(l->b, r, value, 0, "");
    return LLVMBuildInsertValue(l->b, r, flag, 1, "");
}

/* v of type `from` (None or a value, not optional) as the optional `to` */
LLVMValueRef
kn_lower_optional_wrap(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    if (from->kind == KN_TY_NONE)
        return make(l, to, LLVMConstNull(kn_lower_type(l, to->dtype)), LLVMConstInt(l->i1, 0, 0));
    return make(l, to, kn_lower_convert(l, v, from, to->dtype), LLVMConstInt(l->i1, 1, 0));
}

static LLVMValueRef
optional_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    if (to->kind == KN_TY_OPTIONAL)
        return make(l, to, kn_lower_convert(l, value_of(l, v), from->dtype, to->dtype),
                    present(l, v));
    return kn_lower_convert(l, value_of(l, v), from->dtype, to); /* unchecked: UNWRAP checks */
}

static LLVMValueRef
optional_truth(L *l, LLVMValueRef v, const KnType *t)
{
    return LLVMBuildAnd(l->b, present(l, v), kn_lower_truth(l, value_of(l, v), t->dtype), "");
}

static LLVMValueRef
flag_ptr(L *l, const KnType *t, LLVMValueRef p)
{
    LLVMValueRef off = LLVMConstInt(l->i64, kn_type_size(t->dtype), 0);
    return LLVMBuildInBoundsGEP2(l->b, l->i8, p, &off, 1, "");
}

static LLVMValueRef
optional_load_c(L *l, const KnType *t, LLVMValueRef p)
{
    LLVMValueRef flag = LLVMBuildLoad2(l->b, l->i8, flag_ptr(l, t, p), "");
    flag = LLVMBuildICmp(l->b, LLVMIntNE, flag, LLVMConstInt(l->i8, 0, 0), "");
    LLVMValueRef value = kn_lower_load_c(l, t->dtype, p);
    /* a None's value bytes are not read as references: zero them */
    value = LLVMBuildSelect(l->b, flag, value, LLVMConstNull(kn_lower_type(l, t->dtype)), "");
    return make(l, t, value, flag);
}

static void
optional_store_c(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p)
{
    kn_lower_store_c(l, t->dtype, value_of(l, v), p);
    LLVMBuildStore(l->b, LLVMBuildZExt(l->b, present(l, v), l->i8, ""), flag_ptr(l, t, p));
}

static int
optional_has_refs(const KnType *t)
{
    return kn_lower_has_refs(t->dtype);
}

static void
optional_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    kn_lower_visit_refs(l, value_of(l, v), t->dtype, fn, ctx);
}

const KnLowerModel kn_lower_model_optional = {
    .type = optional_type,
    .load_c = optional_load_c,
    .store_c = optional_store_c,
    .truth = optional_truth,
    .convert = optional_convert,
    .has_refs = optional_has_refs,
    .visit_refs = optional_visit_refs,
};

/* UNWRAP: the value of an optional, TypeError when it is None; an IntEnum member's value */
LLVMValueRef
kn_lower_unwrap(L *l, KnInstr *in)
{
    LLVMValueRef v = l->vals[in->args[0]->id];
    if (in->args[0]->type->kind == KN_TY_ENUM)
        return v; /* an IntEnum member as its int (typing/enum.c) */
    kn_lower_raise_if(l, LLVMBuildNot(l->b, present(l, v), ""), KN_EXC_OPTIONAL_NONE);
    return value_of(l, v);
}

/* the optional v's flag (1: a value), its value in *value (print(x): lower/calls.c) */
LLVMValueRef
kn_lower_optional_present(L *l, LLVMValueRef v, LLVMValueRef *value)
{
    *value = value_of(l, v);
    return present(l, v);
}

/* the registry rule `optional` (lib/optional.def): `x is None` / `x is not None` (also `==`,
 * `!=` against None) of an optional, on either side; truth */
LLVMValueRef
kn_lower_rule_optional(L *l, KnInstr *in, int bid)
{
    KnInstr *x = in->op == KN_OP_TRUTH || in->args[0]->type->kind == KN_TY_OPTIONAL ? in->args[0]
                                                                                    : in->args[1];
    LLVMValueRef v = l->vals[x->id];
    if (in->op == KN_OP_TRUTH)
        return optional_truth(l, v, x->type);
    LLVMValueRef p = present(l, v);
    if (bid == KN_BI_OPTIONAL_PRESENT) /* isinstance(x, K): K takes the value (1) or None (0) */
        return ((const KnCallImpl *)in->impl)->value ? p : LLVMBuildNot(l->b, p, "");
    if (bid == KN_BI_OPTIONAL_EQ) { /* x == v: present and equal; x != v: missing or unequal */
        const KnCallImpl *impl = in->impl;
        int left = x == in->args[0];
        LLVMValueRef a = left ? value_of(l, v) : l->vals[in->args[0]->id];
        LLVMValueRef b = left ? l->vals[in->args[1]->id] : value_of(l, v);
        const KnType *ta = left ? x->type->dtype : in->args[0]->type;
        const KnType *tb = left ? in->args[1]->type : x->type->dtype;
        LLVMValueRef r = kn_lower_cmp(l, (KnCmp)in->aux, a, b, ta, tb, impl->operand);
        return in->aux == KN_CMP_EQ ? LLVMBuildAnd(l->b, p, r, "")
                                    : LLVMBuildOr(l->b, LLVMBuildNot(l->b, p, ""), r, "");
    }
    return in->aux == KN_CMP_EQ ? LLVMBuildNot(l->b, p, "") : p;
}
