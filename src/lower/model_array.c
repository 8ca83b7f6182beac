/* model_array.c - the lowering model of NumPy arrays: the struct of array.c
 * (kn_lower_array_type), holding one reference, its meminfo (NULL for an array borrowed from
 * Python). */
#include "lower/array.h"

static int
array_has_refs(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static void
array_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    KN_UNUSED(t);
    fn(l, field(l, v, F_MEMINFO), ctx);
}

const KnLowerModel kn_lower_model_array = {
    .type = kn_lower_array_type,
    .has_refs = array_has_refs,
    .visit_refs = array_visit_refs,
};
