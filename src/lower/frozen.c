/* frozen.c - a NumPy array frozen into the code (frontend/frozen.c: a GLOBAL of a read-only
 * array type whose imm.ptr is a KnFrozenArray): the array value with every field a constant,
 * meminfo NULL (borrowed: the overload's keepalive list owns the copy, which is the parent). */
#include "lower/array.h"

static LLVMValueRef
const_ptr(L *l, const void *p)
{
    return LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)p, 0), l->ptr);
}

static LLVMValueRef
const_dims(L *l, const int64_t *d, int n)
{
    LLVMValueRef vs[32];
    for (int i = 0; i < n; i++)
        vs[i] = LLVMConstInt(l->i64, (unsigned long long)d[i], 1);
    return LLVMConstArray(l->i64, vs, (unsigned)n);
}

LLVMValueRef
kn_lower_frozen_array(L *l, KnInstr *in)
{
    const KnFrozenArray *fa = in->imm.ptr;
    const KnType *t = in->type;
    LLVMValueRef f[7] = {
        LLVMConstNull(l->ptr),
        const_ptr(l, fa->parent),
        LLVMConstInt(l->i64, (unsigned long long)fa->nitems, 0),
        LLVMConstInt(l->i64, (unsigned long long)fa->itemsize, 0),
        const_ptr(l, fa->data),
        const_dims(l, fa->shape, t->ndim),
        const_dims(l, fa->strides, t->ndim),
    };
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, t));
    for (unsigned i = 0; i < 7; i++)
        v = LLVMBuildInsertValue(l->b, v, f[i], i, "");
    return v;
}
