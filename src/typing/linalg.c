/* linalg.c - typing of the BLAS and LAPACK primitives (lib/linalg.def), which only kiln's own
 * library calls (kiln/lib/linalg.py, through kiln._linalg).
 *
 * Input: kiln._linalg.<name>(code, ...) with arrays, ints (or bools) and real numbers.
 * Output: int64 (the runtime's status) and a KN_CALL_BUILTIN impl; lowering passes each array
 * as a pointer to its struct, each int as an int64 and each real number as a double. */
#include "typing/internal.h"

static int
primitive_arg(const KnType *t)
{
    return t->kind == KN_TY_ARRAY || kn_typing_intlike(t) || t->kind == KN_TY_FLOAT;
}

int
kn_type_rule_linalg(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    int ok = n >= 1 && kn_typing_intlike(a[0]);
    for (int i = 1; ok && i < n; i++)
        ok = primitive_arg(a[i]);
    if (!ok)
        return kn_typing_err(c, in->span, "%s() is kiln's internal BLAS/LAPACK call: got (%s)",
                             kn_kir_builtin_name(id), kn_typing_arg_list(c, a, n));
    in->type = &kn_type_int64;
    return 0;
}
