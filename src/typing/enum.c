/* enum.c - typing of enum members (types/model_enum.c). Members are constants (the frontend
 * freezes `Color.RED`) or arguments. `==`, `!=`, `is`, `is not` between members of one class
 * compare their values at run time (ENUM_EQ); between an enum.Enum member and anything of
 * another type they are constants (unequal), as in CPython. An IntEnum member is also an int:
 * where an instruction needs a number (arithmetic, comparison with an int, indexing, a call of
 * a builtin) typing inserts the UNWRAP that optional values use (optional.c), which gives the
 * value. `.value` and `.name` are the kind's attributes (lib/enum.def). */
#include "typing/internal.h"

static int
is_enum(const KnType *t)
{
    return t && t->kind == KN_TY_ENUM;
}

/* whether an IntEnum operand of in is used as its int (see optional.c's needs_value) */
int
kn_typing_intenum_as_int(const KnInstr *in, int k)
{
    const KnType *t = in->args[k]->type;
    if (!is_enum(t) || t->id != KN_ENUM_INT)
        return 0;
    if (in->op == KN_OP_GETATTR)
        return 0; /* .value, .name */
    if (in->op == KN_OP_CALL && k == 1 && in->args[0]->type &&
        in->args[0]->type->kind == KN_TY_FUNC && in->args[0]->type->id == KN_BI_ISINSTANCE)
        return 0; /* isinstance(member, Level): the member (typing/iter_builtins.c) */
    if (in->op == KN_OP_CMP && (in->aux == KN_CMP_EQ || in->aux == KN_CMP_NE) &&
        in->args[1 - k]->type == t)
        return 0; /* members of one class: ENUM_EQ */
    return 1;
}

/* 1 when in is a comparison of an enum member that this file types, else 0 */
int
kn_typing_enum_cmp(KnCompilation *c, KnInstr *in)
{
    const KnType *a = in->args[0]->type, *b = in->args[1]->type;
    if ((in->aux != KN_CMP_EQ && in->aux != KN_CMP_NE) || !(is_enum(a) || is_enum(b)))
        return 0;
    in->type = &kn_type_bool;
    if (a == b) {
        kn_typing_impl_kind(c, in, KN_CALL_OPERATOR)->builtin = KN_BI_ENUM_EQ;
        return 1;
    }
    /* an Enum member and another type: never equal (an IntEnum was unwrapped unless the other
     * side is an enum of another class) */
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_CONST);
    impl->value = in->aux == KN_CMP_NE;
    return 1;
}

int
kn_type_rule_enum(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KN_UNUSED(a), KN_UNUSED(n);
    if (id == KN_BI_ENUM_EQ && in->op != KN_OP_CMP)
        return kn_typing_err(c, in->span, "enum members have no attribute '_kn_eq'");
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    in->type = id == KN_BI_ENUM_VALUE  ? in->args[0]->type->dtype
               : id == KN_BI_ENUM_NAME ? &kn_type_str
                                       : &kn_type_bool;
    return 0;
}
