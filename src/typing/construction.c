/* construction.c - typing helpers of the array-creation functions (np.empty, np.zeros,
 * np.ones, np.full and their _like forms; typing/arrays.c types the calls, lower/create.c
 * lowers them): NumPy's order= argument. A new array is 'C' or 'F' ordered (a layout of its
 * type: lower/create.c's allocation lays the strides out for it); the _like forms default to
 * NumPy's 'K', which keeps a Fortran-ordered argument Fortran-ordered ('A' does the same for
 * kiln's types: an 'F' layout is Fortran-contiguous). */
#include "typing/internal.h"

#include <string.h>

/* the layout ('C' or 'F') of a new array from its order= argument (NULL or None: the default),
 * `like` the array of a _like form (NULL otherwise); -1 with a diagnostic for another value */
int
kn_typing_creation_order(KnCompilation *c, KnInstr *in, KnInstr *order, const KnType *like)
{
    const char *name = kn_kir_builtin_name(in->args[0]->type->id);
    char keep = like && like->layout == 'F' ? 'F' : 'C';
    if (!order || order->type->kind == KN_TY_NONE)
        return like ? keep : 'C';
    if (order->type->kind != KN_TY_STR || order->op != KN_OP_CONST)
        return kn_typing_err(c, order->span, "%s(): order must be a constant str, not %s", name,
                             order->type->name);
    const char *s = order->imm.str;
    if (!strcmp(s, "C") || !strcmp(s, "F"))
        return s[0];
    if (like && (!strcmp(s, "A") || !strcmp(s, "K")))
        return keep;
    return kn_typing_err(c, order->span, "%s(): order must be one of %s, not '%s'", name,
                         like ? "'C', 'F', 'A' or 'K'" : "'C' or 'F'", s);
}
