/* model_misc.c - the lowering models of the kinds with little to say: none (a placeholder
 * byte), range and slice ({start, stop, step} of i64; a range is true when not empty), and the
 * compile-time values (a placeholder byte), of which a bound `a.flags` carries its array (its shape
 * and strides). None of them holds references. */
#include "lower/internal.h"

static LLVMTypeRef
triple_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    LLVMTypeRef fs[3] = {l->i64, l->i64, l->i64};
    return LLVMStructTypeInContext(l->ctx, fs, 3, 0);
}

static LLVMValueRef
range_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(t);
    return LLVMBuildICmp(l->b, LLVMIntSGT, kn_lower_range_len(l, v), LLVMConstInt(l->i64, 0, 0),
                         "");
}

static LLVMTypeRef
bound_type(L *l, const KnType *t)
{
    if (!strcmp(t->name, "flags"))
        return kn_lower_array_type(l, t->items[0]);
    return l->i8;
}

const KnLowerModel kn_lower_model_none = {0};
const KnLowerModel kn_lower_model_range = {.type = triple_type, .truth = range_truth};
const KnLowerModel kn_lower_model_slice = {.type = triple_type};
const KnLowerModel kn_lower_model_func = {0};
const KnLowerModel kn_lower_model_module = {0};
const KnLowerModel kn_lower_model_class = {0};
const KnLowerModel kn_lower_model_bound = {.type = bound_type};
