/* model_gen.c - the lowering model of generators: a pointer (the KnMemInfo * of a generator's
 * frame, lower/generators.c) holding one reference, always true. */
#include "lower/internal.h"

static LLVMTypeRef
gen_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return l->ptr;
}

static LLVMValueRef
gen_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(v);
    KN_UNUSED(t);
    return LLVMConstInt(l->i1, 1, 0);
}

static int
gen_has_refs(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static void
gen_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    KN_UNUSED(t);
    fn(l, v, ctx);
}

const KnLowerModel kn_lower_model_gen = {
    .type = gen_type,
    .truth = gen_truth,
    .has_refs = gen_has_refs,
    .visit_refs = gen_visit_refs,
};
