/* unroll.c - kiln.literal_unroll's lowering rule: never reached (typing/unroll.c refuses every
 * call that the frontend did not unroll); kiln.literally(x) is x (a value of its own). */
#include "lower/internal.h"

LLVMValueRef
kn_lower_rule_unroll(L *l, KnInstr *in, int bid)
{
    if (bid != KN_BI_LITERALLY)
        return NULL;
    LLVMValueRef v = l->vals[in->args[1]->id];
    kn_lower_incref(l, v, in->type); /* the call's value owns its references */
    return LLVMBuildFreeze(l->b, v, "");
}
