/* linalg.c - lowering of the BLAS and LAPACK primitives (lib/linalg.def): one call of
 * runtime/linalg.c's kn_rt_la_<name>.
 *
 * Input: a call typed by typing/linalg.c. Output: the int64 status. Each array argument is
 * stored in an entry-block slot of its struct type and passed by pointer (the runtime reads its
 * data, shape and strides: KnLaArray); ints are passed as int64, real numbers as double. */
#include "lower/internal.h"

#include <stdio.h>

#define MAX_ARGS 12

LLVMValueRef
kn_lower_rule_linalg(L *l, KnInstr *in, int id)
{
    int n = in->nargs - 1;
    LLVMTypeRef ps[MAX_ARGS];
    LLVMValueRef as[MAX_ARGS];
    if (n > MAX_ARGS)
        return NULL;
    for (int i = 0; i < n; i++) {
        KnInstr *a = in->args[i + 1];
        LLVMValueRef v = l->vals[a->id];
        if (a->type->kind == KN_TY_ARRAY) {
            LLVMValueRef slot = kn_lower_entry_alloca(l, kn_lower_array_type(l, a->type), "la");
            LLVMBuildStore(l->b, v, slot);
            ps[i] = l->ptr;
            as[i] = slot;
        } else if (a->type->kind == KN_TY_FLOAT) {
            ps[i] = l->f64;
            as[i] = kn_lower_convert(l, v, a->type, &kn_type_float64);
        } else {
            ps[i] = l->i64;
            as[i] = kn_lower_convert(l, v, a->type, &kn_type_int64);
        }
    }
    char name[64];
    snprintf(name, sizeof name, "kn_rt_la_%s", kn_kir_builtin_attr(id));
    return kn_lower_extern(l, name, l->i64, ps, n, as);
}
