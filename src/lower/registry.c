/* registry.c - lowering of a call (or attribute) through the call registry (lib/lib.h): each
 * entry's lowering rule kn_lower_rule_<rule>, wired from lib/registry.def. The rules live by
 * family: calls.c (builtins, math, conversions, NumPy functions, methods), array.c (array
 * attributes). */
#include "lower/internal.h"

typedef LLVMValueRef (*KnLowerRule)(L *l, KnInstr *in, int id);

static const KnLowerRule rules[KN_BI__COUNT] = {
#define X(id, owner, name, flags, rule) kn_lower_rule_##rule,
#include "lib/registry.def"
#undef X
};

LLVMValueRef
kn_lower_entry(L *l, KnInstr *in, int id)
{
    return rules[id](l, in, id);
}
