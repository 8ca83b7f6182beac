/* unroll.c - kiln.literal_unroll's lowering rule: never reached (typing/unroll.c refuses every
 * call that the frontend did not unroll). */
#include "lower/internal.h"

LLVMValueRef
kn_lower_rule_unroll(L *l, KnInstr *in, int bid)
{
    KN_UNUSED(l), KN_UNUSED(in), KN_UNUSED(bid);
    return NULL;
}
