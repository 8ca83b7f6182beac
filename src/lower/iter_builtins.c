/* iter_builtins.c - lowering of lib/iter.def's entries. kiln._iter.indexable is a compile-time
 * check with no code, whose value is None; kiln._iter.reversible(x) is list(x) of a dict or
 * dict view (the list family's rule) and else x, as kiln._iter.numbers(x) is x (a new reference, a
 * call's value owns one, in a value of its own: freeze), or a tuple of numbers of several types
 * converted to the one type typing unified them to. Typing refuses the other entries. */
#include "lower/internal.h"

LLVMValueRef
kn_lower_rule_iter(L *l, KnInstr *in, int id)
{
    if (id == KN_BI_ITER_REVERSIBLE && in->args[1]->type->kind == KN_TY_DICT)
        return kn_lower_rule_list(l, in, KN_BI_LIST_NEW); /* list(d), reversed() indexes it */
    if (id != KN_BI_ITER_NUMBERS && id != KN_BI_ITER_REVERSIBLE && id != KN_BI_ITER_STR_KEYED)
        return LLVMConstInt(l->i8, 0, 0);
    KnInstr *x = in->args[1];
    LLVMValueRef v = l->vals[x->id];
    if (x->type != in->type)
        return kn_lower_convert(l, v, x->type, in->type);
    kn_lower_incref(l, v, in->type);
    return LLVMBuildFreeze(l->b, v, ""); /* a value of its own: ownership is by LLVM value */
}
