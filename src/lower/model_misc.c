/* model_misc.c - the lowering models of the kinds with little to say: none (a placeholder
 * byte), range and slice ({start, stop, step} of i64; a range is true when not empty), and the
 * compile-time values (a placeholder byte; a choice among jitted functions is its index), of which
 * a bound `a.flags` carries its array (its shape and strides). None of them holds references. */
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
/* a choice among jitted functions (KN_FUNC_CHOICE, types/model_misc.c) is its index, an i64 */
static int
is_choice(const KnType *t)
{
    return t->kind == KN_TY_FUNC && t->id == KN_FUNC_CHOICE;
}

static LLVMTypeRef
func_type(L *l, const KnType *t)
{
    return is_choice(t) ? l->i64 : l->i8;
}

/* a jitted function or a choice as a wider choice: the index of each in `to` */
static LLVMValueRef
func_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    if (!is_choice(to))
        return v;
    if (!is_choice(from)) {
        int k = kn_type_func_index(to, from);
        return k < 0 ? NULL : LLVMConstInt(l->i64, (unsigned long long)k, 0);
    }
    LLVMValueRef r = LLVMConstInt(l->i64, 0, 0);
    for (int i = from->n - 1; i >= 0; i--) {
        int k = kn_type_func_index(to, from->items[i]);
        LLVMValueRef is_i =
            LLVMBuildICmp(l->b, LLVMIntEQ, v, LLVMConstInt(l->i64, (unsigned)i, 0), "");
        r = LLVMBuildSelect(l->b, is_i, LLVMConstInt(l->i64, (unsigned)(k < 0 ? 0 : k), 0), r, "");
    }
    return r;
}

const KnLowerModel kn_lower_model_func = {.type = func_type, .convert = func_convert};
const KnLowerModel kn_lower_model_module = {0};
const KnLowerModel kn_lower_model_class = {0};
const KnLowerModel kn_lower_model_bound = {.type = bound_type};
