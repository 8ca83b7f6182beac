/* array.h - what the array files of lower/ (array.c, index.c, elementwise.c, create.c, reduce.c,
 * sorting.c, npmath.c, shape.c, np_random.c) share: the fields of an array value, element
 * access, kiln's counted loops, elementwise operands and the helpers each file gives the others.
 * Only these files include it; the rest of lower/ sees internal.h. */
#ifndef KN_LOWER_ARRAY_H
#define KN_LOWER_ARRAY_H

#include "lower/internal.h"

enum { F_MEMINFO, F_PARENT, F_NITEMS, F_ITEMSIZE, F_DATA, F_SHAPE, F_STRIDES };

typedef struct Loop {
    LLVMBasicBlockRef head, body, exit;
    LLVMValueRef counter; /* alloca i64 */
} Loop;

/* An operand of an elementwise operation: an array (broadcast to the result) or a scalar. */
typedef struct Operand {
    LLVMValueRef v;
    const KnType *t;
    LLVMValueRef ptr;      /* alloca: the current element pointer while looping */
    LLVMValueRef step[32]; /* bytes to advance per index of each result axis (0: broadcast) */
} Operand;

typedef LLVMValueRef (*Kernel)(L *l, KnInstr *in, LLVMValueRef *elems);

/* called with each element's pointer by kn_lower_visit_axes */
typedef void (*Visit)(L *l, LLVMValueRef ptr, void *ctx);

static inline LLVMValueRef
field(L *l, LLVMValueRef a, unsigned f)
{
    return LLVMBuildExtractValue(l->b, a, f, "");
}

static inline LLVMValueRef
dim(L *l, LLVMValueRef a, unsigned f, int k)
{
    return LLVMBuildExtractValue(l->b, field(l, a, f), (unsigned)k, "");
}


static inline LLVMValueRef
i64c(L *l, long long v)
{
    return LLVMConstInt(l->i64, (unsigned long long)v, 1);
}

static inline int
itemsize(const KnType *d)
{
    return d->kind == KN_TY_BOOL ? 1 : (int)kn_type_size(d);
}

/* Stride of axis k: from the shape for C-contiguous arrays (known to LLVM), else stored. */
static inline LLVMValueRef
stride(L *l, LLVMValueRef a, const KnType *t, int k)
{
    if (t->layout != 'C')
        return dim(l, a, F_STRIDES, k);
    LLVMValueRef s = i64c(l, itemsize(t->dtype));
    for (int j = t->ndim - 1; j > k; j--)
        s = LLVMBuildMul(l->b, s, dim(l, a, F_SHAPE, j), "");
    return s;
}

static inline LLVMValueRef
load_elem(L *l, const KnType *d, LLVMValueRef p)
{
    if (d->kind == KN_TY_BOOL) {
        LLVMValueRef b = LLVMBuildLoad2(l->b, l->i8, p, "");
        return LLVMBuildICmp(l->b, LLVMIntNE, b, LLVMConstInt(l->i8, 0, 0), "");
    }
    if (d->kind == KN_TY_RECORD) /* its address (lower/model_record.c) */
        return kn_lower_load_c(l, d, p);
    return LLVMBuildLoad2(l->b, kn_lower_type(l, d), p, "");
}

static inline void
store_elem(L *l, const KnType *d, LLVMValueRef v, LLVMValueRef p)
{
    if (d->kind == KN_TY_BOOL)
        v = LLVMBuildZExt(l->b, v, l->i8, "");
    if (d->kind == KN_TY_RECORD) { /* a copy of its bytes (lower/model_record.c) */
        kn_lower_store_c(l, d, v, p);
        return;
    }
    LLVMBuildStore(l->b, v, p);
}

static inline LLVMValueRef
offset_ptr(L *l, LLVMValueRef base, LLVMValueRef off)
{
    return LLVMBuildInBoundsGEP2(l->b, l->i8, base, &off, 1, "");
}

/* is v NaN: a float that is, a complex with a NaN part (NumPy propagates both); NULL for the
 * other types, which have no NaN */
static inline LLVMValueRef
any_nan(L *l, LLVMValueRef v, const KnType *t)
{
    if (t->kind == KN_TY_FLOAT)
        return LLVMBuildFCmp(l->b, LLVMRealUNO, v, v, "");
    if (t->kind != KN_TY_COMPLEX)
        return NULL;
    LLVMValueRef re = LLVMBuildExtractValue(l->b, v, 0, ""),
                 im = LLVMBuildExtractValue(l->b, v, 1, "");
    return LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, re, re, ""),
                       LLVMBuildFCmp(l->b, LLVMRealUNO, im, im, ""), "");
}

/* signed max and min of two i64 (array.c) */
LLVMValueRef kn_lower_smax(L *l, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef kn_lower_smin(L *l, LLVMValueRef a, LLVMValueRef b);
/* may the elements of a and b overlap in memory (array.c) */
LLVMValueRef kn_lower_may_share(L *l, LLVMValueRef a, const KnType *at, LLVMValueRef b,
                                const KnType *bt);
/* loops over 0..n-1 (elementwise.c) */
void kn_lower_loop_begin(L *l, Loop *lp, LLVMValueRef n);
LLVMValueRef kn_lower_loop_index(L *l, Loop *lp);
void kn_lower_loop_end(L *l, Loop *lp);
/* every element of a in C order, starting at axis k from base (array.c) */
void kn_lower_visit_axes(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef base, int k, Visit fn,
                         void *ctx);
/* another reference to v as a distinct value (array.c) */
LLVMValueRef kn_lower_new_reference(L *l, LLVMValueRef v, const KnType *t);
/* a view of a's data with the given shape and strides, increfed (array.c) */
LLVMValueRef kn_lower_array_rebuild(L *l, LLVMValueRef a, const KnType *vt, LLVMValueRef *shape,
                                    LLVMValueRef *strides);
/* dest (or a new array of type dt) = kernel(ops) elementwise, broadcasting (elementwise.c) */
LLVMValueRef kn_lower_elementwise_into(L *l, KnInstr *in, Operand *ops, int nops, Kernel kernel,
                                       LLVMValueRef dest, const KnType *dt, const KnType *ktype);
/* the same into dest when an operand may overlap dest: such an operand is copied first
 * (elementwise.c) */
void kn_lower_elementwise_into_unaliased(L *l, KnInstr *in, Operand *ops, int nops, Kernel kernel,
                                         LLVMValueRef dest, const KnType *dt, const KnType *ktype);
LLVMValueRef kn_lower_copy_kernel(L *l, KnInstr *in, LLVMValueRef *e);
/* a new array; own == 0: not registered as an owned temp, the caller releases it (create.c) */
LLVMValueRef kn_lower_array_new(L *l, const KnType *t, LLVMValueRef *shape, int own);
LLVMValueRef kn_lower_array_alloc_within(L *l, const KnType *t, LLVMValueRef *shape,
                                         LLVMValueRef nitems);
/* NumPy's size check of a shape: the byte count; *err 0, 1 (negative) or 2 (too big) (create.c) */
LLVMValueRef kn_lower_size_check(L *l, LLVMValueRef *shape, int ndim, int isz, LLVMValueRef *nitems,
                                 LLVMValueRef *err);

#endif
