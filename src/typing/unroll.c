/* unroll.c - kiln.literal_unroll outside a for loop's iterable (the frontend unrolls the loop,
 * frontend/unroll.c): an error at the call. */
#include "typing/internal.h"

int
kn_type_rule_unroll(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KN_UNUSED(id), KN_UNUSED(a), KN_UNUSED(n);
    return kn_typing_err(c, in->span,
                         "literal_unroll() can only be the iterable of a for loop: "
                         "for x in literal_unroll(t)");
}
