/* model_np_random.c - the lowering model of np.random.Generator values (kind npgen): a pointer
 * to the bit generator's bitgen_t (runtime/np_random.h KnBitGen); no reference is held (the
 * caller's object lives through the call). */
#include "lower/internal.h"

static LLVMTypeRef
ptr_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return l->ptr;
}

const KnLowerModel kn_lower_model_npgen = {.type = ptr_type};
