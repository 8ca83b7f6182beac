/* model_dict.c - the lowering model of dicts, their views and sets: one pointer, the KnMemInfo
 * that counts the table (runtime/dict.h), which is the one reference the value holds. A dict or
 * set is true when it is not empty (its `used` field, at offset 0 of the table). */
#include "lower/internal.h"

static LLVMTypeRef
dict_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return l->ptr;
}

static LLVMValueRef
dict_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(t);
    return LLVMBuildICmp(l->b, LLVMIntSGT, kn_lower_dict_len(l, v), LLVMConstInt(l->i64, 0, 0), "");
}

static int
dict_has_refs(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static void
dict_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    KN_UNUSED(t);
    fn(l, v, ctx);
}

const KnLowerModel kn_lower_model_dict = {
    .type = dict_type,
    .truth = dict_truth,
    .has_refs = dict_has_refs,
    .visit_refs = dict_visit_refs,
};
