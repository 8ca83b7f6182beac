/* unroll.c - kiln.literal_unroll outside a for loop's iterable (the frontend unrolls the loop,
 * frontend/unroll.c): an error at the call; kiln.literally(x): x's type. */
#include "typing/internal.h"

int
kn_type_rule_unroll(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    if (id == KN_BI_LITERALLY) {
        if (n != 1)
            return kn_typing_err(c, in->span, "literally() takes one argument");
        in->type = a[0];
        return 0;
    }
    return kn_typing_err(c, in->span,
                         "literal_unroll() can only be the iterable of a for loop: "
                         "for x in literal_unroll(t)");
}
