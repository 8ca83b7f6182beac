/* iter_builtins.c - lowering of lib/iter.def's entries. Only kiln._iter.indexable reaches here
 * (typing refuses the others): a compile-time check with no code, whose value is None. */
#include "lower/internal.h"

LLVMValueRef
kn_lower_rule_iter(L *l, KnInstr *in, int id)
{
    (void)in;
    (void)id;
    return LLVMConstInt(l->i8, 0, 0);
}
