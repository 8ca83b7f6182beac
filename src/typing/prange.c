/* prange.c - typing of kiln.prange outside the loops passes/prange.c outlines: range's rule
 * (prange(n) is a range object, as numba.prange is range in serial code). The region call
 * (PAR_FOR) is made after typing, already typed, by passes/prange.c. */
#include "typing/internal.h"

int
kn_type_rule_prange(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    if (id == KN_BI_PRANGE)
        return kn_type_rule_builtin(c, in, KN_BI_RANGE, a, n);
    return kn_typing_err(c, in->span, "internal error: a parallel region reached typing");
}
