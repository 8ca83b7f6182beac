/* model_record.c - the lowering model of records (types/model_record.c): a record value is a
 * pointer to its bytes, in an array's buffer (a[i], iteration), an argument buffer (a record
 * passed from Python) or a result slot, so that `r = a[i]; r.x += 1` writes through to the
 * array as in Numba. Loading one from C layout (an array element, an argument) is its address;
 * storing one copies its bytes (a[i] = r, a record returned, put in a tuple or a list). A
 * record holds no counted reference: it lives as long as the memory it points into, as
 * Numba's records do. Fields are read and written by lower/record.c. */
#include "lower/internal.h"

static LLVMTypeRef
record_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return l->ptr;
}

static LLVMValueRef
record_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(v), KN_UNUSED(t);
    return LLVMConstInt(l->i1, 1, 0);
}

static LLVMValueRef
record_load_c(L *l, const KnType *t, LLVMValueRef p)
{
    KN_UNUSED(l), KN_UNUSED(t);
    return p;
}

static void
record_store_c(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p)
{
    /* memmove: a[i] = a[i] copies a record onto itself */
    LLVMBuildMemMove(l->b, p, 1, v, 1, LLVMConstInt(l->i64, kn_type_size(t), 0));
}

const KnLowerModel kn_lower_model_record = {
    .type = record_type, .truth = record_truth, .load_c = record_load_c, .store_c = record_store_c};
