/* model_enum.c - the lowering model of enum members (types/model_enum.c): the member's value
 * (its dtype's LLVM type); an enum.Enum member is true, an IntEnum member when its value is
 * nonzero, as in CPython. Also the registry rule `enum` (lib/enum.def): `==`/`!=`/`is` between
 * members of one class (their values), `.value`, `.name` (a select over the members). */
#include "lower/internal.h"

static LLVMTypeRef
enum_type(L *l, const KnType *t)
{
    return kn_lower_type(l, t->dtype);
}

static LLVMValueRef
enum_truth(L *l, LLVMValueRef v, const KnType *t)
{
    if (t->id != KN_ENUM_INT)
        return LLVMConstInt(l->i1, 1, 0);
    return kn_lower_truth(l, v, t->dtype);
}

static LLVMValueRef
enum_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    return kn_lower_convert(l, v, from->dtype, to); /* an IntEnum used as an int */
}

const KnLowerModel kn_lower_model_enum = {
    .type = enum_type, .truth = enum_truth, .convert = enum_convert};

static LLVMValueRef
member_name(L *l, LLVMValueRef v, const KnType *t)
{
    LLVMValueRef r = kn_lower_str_const(l, t->nvalues ? t->fields[t->nvalues - 1] : "");
    for (int i = t->nvalues - 2; i >= 0; i--) {
        LLVMValueRef is = LLVMBuildICmp(
            l->b, LLVMIntEQ, v, LLVMConstInt(l->i64, (unsigned long long)t->values[i], 1), "");
        r = LLVMBuildSelect(l->b, is, kn_lower_str_const(l, t->fields[i]), r, "");
    }
    return r;
}

LLVMValueRef
kn_lower_rule_enum(L *l, KnInstr *in, int bid)
{
    LLVMValueRef a = l->vals[in->args[0]->id];
    switch (bid) {
    case KN_BI_ENUM_VALUE:
        return a;
    case KN_BI_ENUM_NAME:
        return member_name(l, a, in->args[0]->type);
    default: /* KN_BI_ENUM_EQ */
        return LLVMBuildICmp(l->b, in->aux == KN_CMP_EQ ? LLVMIntEQ : LLVMIntNE, a,
                             l->vals[in->args[1]->id], "");
    }
}
