/* array.c - LLVM code for NumPy arrays.
 *
 * An array value is the struct {meminfo, parent, nitems, itemsize, data, shape[n], strides[n]}
 * (dispatch's KnArrayStruct). meminfo is NULL for arrays borrowed from Python. Values that own
 * a reference (new arrays, views, tuples holding arrays, results of calls) are registered as the
 * block's owned temporaries and released at the end of the block; variables own their value
 * (STORE increfs the new one and decrefs the old); returns and raises release everything
 * (lower/emit.c). Element access computes data + sum(index * stride), with C-layout strides
 * derived from the shape so LLVM can vectorize loops over contiguous arrays. This file holds the
 * array value (its LLVM type, extent, reference counting), attributes, filling and visiting every
 * element, reshaping and the methods, and a.flags. Indexing and item assignment are in index.c,
 * elementwise operations (broadcasting at run time, looping over the result's axes, kernels,
 * fusion) in elementwise.c, new arrays in create.c, reductions and scans in reduce.c; array.h
 * holds what they share. */
#include "lower/array.h"
#include "lower/parallel_array.h"


LLVMTypeRef
kn_lower_array_type(L *l, const KnType *t)
{
    LLVMTypeRef dims = LLVMArrayType2(l->i64, (uint64_t)t->ndim);
    LLVMTypeRef fs[7] = {l->ptr, l->ptr, l->i64, l->i64, l->ptr, dims, dims};
    return LLVMStructTypeInContext(l->ctx, fs, 7, 0);
}

LLVMValueRef
kn_lower_array_shape(L *l, LLVMValueRef a, int k)
{
    return dim(l, a, F_SHAPE, k);
}


/* The bytes an array's elements span: [*lo, *hi), and whether it has any element. */
static LLVMValueRef
extent(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMValueRef base = LLVMBuildPtrToInt(l->b, field(l, a, F_DATA), l->i64, "");
    LLVMValueRef down = i64c(l, 0), up = i64c(l, itemsize(t->dtype));
    LLVMValueRef nonempty = LLVMConstInt(l->i1, 1, 0);
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef n = dim(l, a, F_SHAPE, k);
        nonempty =
            LLVMBuildAnd(l->b, nonempty, LLVMBuildICmp(l->b, LLVMIntSGT, n, i64c(l, 0), ""), "");
        LLVMValueRef span =
            LLVMBuildMul(l->b, LLVMBuildSub(l->b, n, i64c(l, 1), ""), stride(l, a, t, k), "");
        down = LLVMBuildAdd(l->b, down, kn_lower_smin(l, span, i64c(l, 0)), "");
        up = LLVMBuildAdd(l->b, up, kn_lower_smax(l, span, i64c(l, 0)), "");
    }
    *lo = LLVMBuildAdd(l->b, base, down, "");
    *hi = LLVMBuildAdd(l->b, base, up, "");
    return nonempty;
}

/* Could writing b elementwise while reading a go wrong, so that a must be copied first, as
 * NumPy buffers it? When the byte ranges the two span overlap (any two views of one buffer,
 * from compiled code or from Python, like Numba's check), unless a and b are the same view
 * (the same data, shape and strides: each element is read before it is written). */
LLVMValueRef
kn_lower_may_share(L *l, LLVMValueRef a, const KnType *at, LLVMValueRef b, const KnType *bt)
{
    LLVMValueRef alo, ahi, blo, bhi;
    LLVMValueRef r =
        LLVMBuildAnd(l->b, extent(l, a, at, &alo, &ahi), extent(l, b, bt, &blo, &bhi), "");
    r = LLVMBuildAnd(l->b, r, LLVMBuildICmp(l->b, LLVMIntULT, alo, bhi, ""), "");
    r = LLVMBuildAnd(l->b, r, LLVMBuildICmp(l->b, LLVMIntULT, blo, ahi, ""), "");
    if (at->ndim != bt->ndim || itemsize(at->dtype) != itemsize(bt->dtype))
        return r;
    LLVMValueRef same =
        LLVMBuildICmp(l->b, LLVMIntEQ, field(l, a, F_DATA), field(l, b, F_DATA), "");
    for (int k = 0; k < at->ndim; k++) {
        same = LLVMBuildAnd(
            l->b, same,
            LLVMBuildICmp(l->b, LLVMIntEQ, dim(l, a, F_SHAPE, k), dim(l, b, F_SHAPE, k), ""), "");
        same = LLVMBuildAnd(
            l->b, same,
            LLVMBuildICmp(l->b, LLVMIntEQ, stride(l, a, at, k), stride(l, b, bt, k), ""), "");
    }
    return LLVMBuildAnd(l->b, r, LLVMBuildNot(l->b, same, ""), "");
}

/* Another reference to the array in v, as a value of its own: the block releases each owned
 * value once (kn_lower_own keeps one entry per value), so a result that is also an operand
 * (a += b, out=, np.asarray(a), a.real) must be a distinct value. */
LLVMValueRef
kn_lower_new_reference(L *l, LLVMValueRef v, const KnType *t)
{
    LLVMValueRef r = LLVMBuildInsertValue(l->b, v, field(l, v, F_MEMINFO), F_MEMINFO, "");
    kn_lower_incref(l, r, t);
    return r;
}

LLVMValueRef
kn_lower_smax(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, a, b, ""), a, b, "");
}

LLVMValueRef
kn_lower_smin(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, a, b, ""), a, b, "");
}


/* a.real / a.imag: a strided view of a complex array's parts; of a real array, the array or
 * (imag) a new array of zeros */
static LLVMValueRef
real_imag(L *l, KnInstr *in, LLVMValueRef a, const KnType *t, int imag)
{
    const KnType *vt = in->type;
    LLVMValueRef shape[32], strides[32];
    for (int k = 0; k < t->ndim; k++) {
        shape[k] = dim(l, a, F_SHAPE, k);
        strides[k] = stride(l, a, t, k);
    }
    if (t->dtype->kind == KN_TY_COMPLEX) {
        LLVMValueRef v = kn_lower_array_rebuild(l, a, vt, shape, strides);
        int half = itemsize(t->dtype) / 2;
        v = LLVMBuildInsertValue(l->b, v, i64c(l, half), F_ITEMSIZE, "");
        if (imag)
            v = LLVMBuildInsertValue(l->b, v, offset_ptr(l, field(l, a, F_DATA), i64c(l, half)),
                                     F_DATA, "");
        return v;
    }
    if (!imag) {
        return kn_lower_new_reference(l, a, t);
    }
    LLVMValueRef z = kn_lower_array_alloc(l, vt, shape);
    LLVMValueRef nbytes =
        LLVMBuildMul(l->b, field(l, z, F_NITEMS), i64c(l, itemsize(vt->dtype)), "");
    LLVMBuildMemSet(l->b, field(l, z, F_DATA), LLVMConstInt(l->i8, 0, 0), nbytes, 64);
    return z;
}

/* GETATTR of an array: an attribute of the registry (lib/array.def), one implemented in Python,
 * or a bound method (a compile-time value). */
LLVMValueRef
kn_lower_array_getattr(L *l, KnInstr *in)
{
    const KnCallImpl *impl = in->impl;
    if (impl && impl->kind == KN_CALL_JITTED)
        return kn_lower_jitted_call(l, in);
    if (!impl) /* a bound method: a compile-time value */
        return LLVMGetUndef(l->i8);
    return kn_lower_entry(l, in, impl->builtin);
}

/* Attributes of arrays (lib/array.def). */
LLVMValueRef
kn_lower_rule_array_attr(L *l, KnInstr *in, int id)
{
    const KnType *t = in->args[0]->type;
    LLVMValueRef a = l->vals[in->args[0]->id];
    switch (id) {
    case KN_BI_ARRAY_ATTR_T:
        return kn_lower_array_method(l, in, "transpose", a, t);
    case KN_BI_ARRAY_ATTR_REAL:
    case KN_BI_ARRAY_ATTR_IMAG:
        return real_imag(l, in, a, t, id == KN_BI_ARRAY_ATTR_IMAG);
    case KN_BI_ARRAY_ATTR_FLAGS: /* the flags are read from the array when asked */
        return a;
    case KN_BI_ARRAY_ATTR_DTYPE: /* a compile-time value */
        return LLVMGetUndef(l->i8);
    case KN_BI_ARRAY_ATTR_SHAPE:
    case KN_BI_ARRAY_ATTR_STRIDES: {
        LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, in->type));
        for (int k = 0; k < t->ndim; k++)
            r = LLVMBuildInsertValue(l->b, r,
                                     id == KN_BI_ARRAY_ATTR_SHAPE ? dim(l, a, F_SHAPE, k)
                                                                  : dim(l, a, F_STRIDES, k),
                                     (unsigned)k, "");
        return r;
    }
    case KN_BI_ARRAY_ATTR_NDIM:
        return i64c(l, t->ndim);
    case KN_BI_ARRAY_ATTR_SIZE:
        return field(l, a, F_NITEMS);
    case KN_BI_ARRAY_ATTR_ITEMSIZE:
        return i64c(l, itemsize(t->dtype));
    default: /* nbytes */
        return LLVMBuildMul(l->b, field(l, a, F_NITEMS), i64c(l, itemsize(t->dtype)), "");
    }
}


static void
fill(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef v)
{
    Loop lp;
    kn_lower_loop_begin(l, &lp, field(l, a, F_NITEMS));
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    LLVMTypeRef et = t->dtype->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, t->dtype);
    store_elem(l, t->dtype, v, LLVMBuildInBoundsGEP2(l->b, et, field(l, a, F_DATA), &i, 1, ""));
    kn_lower_loop_end(l, &lp);
}


/* ---- visiting every element ---- */

/* Visit every element of a (any layout) in C order: fn(l, element pointer, ctx). */

void
kn_lower_visit_axes(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef base, int k, Visit fn,
                    void *ctx)
{
    if (k == t->ndim) {
        fn(l, base, ctx);
        return;
    }
    Loop lp;
    kn_lower_loop_begin(l, &lp, dim(l, a, F_SHAPE, k));
    LLVMValueRef p = offset_ptr(
        l, base, LLVMBuildMul(l->b, kn_lower_loop_index(l, &lp), stride(l, a, t, k), ""));
    kn_lower_visit_axes(l, a, t, p, k + 1, fn, ctx);
    kn_lower_loop_end(l, &lp);
}

typedef struct FlatCopy {
    const KnType *d;
    LLVMValueRef cursor; /* alloca: where the next element goes */
} FlatCopy;

static void
flat_copy_step(L *l, LLVMValueRef p, void *ctx)
{
    FlatCopy *f = ctx;
    LLVMValueRef dst = LLVMBuildLoad2(l->b, l->ptr, f->cursor, "");
    store_elem(l, f->d, load_elem(l, f->d, p), dst);
    LLVMValueRef step = i64c(l, itemsize(f->d));
    LLVMBuildStore(l->b, offset_ptr(l, dst, step), f->cursor);
}


typedef struct FillCtx {
    const KnType *d;
    LLVMValueRef v;
} FillCtx;

static void
fill_step(L *l, LLVMValueRef p, void *ctx)
{
    FillCtx *f = ctx;
    store_elem(l, f->d, f->v, p);
}

void
kn_lower_array_fill(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef v, const KnType *vt)
{
    LLVMValueRef x = kn_lower_convert(l, v, vt, t->dtype);
    if (kn_lower_par_fill(l, "array fill", a, t, x))
        return;
    if (t->layout == 'C') {
        fill(l, a, t, x);
        return;
    }
    FillCtx f = {t->dtype, x};
    kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, fill_step, &f);
}

/* ---- transpose, reshape, ravel, flatten, astype ---- */

/* a view with the given shape and strides over a's data */
LLVMValueRef
kn_lower_array_rebuild(L *l, LLVMValueRef a, const KnType *vt, LLVMValueRef *shape,
                       LLVMValueRef *strides)
{
    LLVMValueRef v = LLVMGetUndef(kn_lower_array_type(l, vt));
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_MEMINFO), F_MEMINFO, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_PARENT), F_PARENT, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_ITEMSIZE), F_ITEMSIZE, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_DATA), F_DATA, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_NITEMS), F_NITEMS, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(l->i64, (uint64_t)vt->ndim)), st = sh;
    for (int d = 0; d < vt->ndim; d++) {
        sh = LLVMBuildInsertValue(l->b, sh, shape[d], (unsigned)d, "");
        st = LLVMBuildInsertValue(l->b, st, strides[d], (unsigned)d, "");
    }
    v = LLVMBuildInsertValue(l->b, v, sh, F_SHAPE, "");
    v = LLVMBuildInsertValue(l->b, v, st, F_STRIDES, "");
    kn_lower_incref(l, v, vt);
    return v;
}

static LLVMValueRef
reshape(L *l, KnInstr *in, LLVMValueRef a, const KnType *t)
{
    const KnType *vt = in->type;
    LLVMValueRef shape[32], strides[32];
    int n = in->nargs - 1;
    if (n == 1 && in->args[1]->type->kind == KN_TY_TUPLE) {
        for (int d = 0; d < vt->ndim; d++)
            shape[d] = kn_lower_convert(
                l, LLVMBuildExtractValue(l->b, l->vals[in->args[1]->id], (unsigned)d, ""),
                in->args[1]->type->items[d], &kn_type_int64);
    } else {
        for (int d = 0; d < vt->ndim; d++)
            shape[d] = kn_lower_convert(l, l->vals[in->args[d + 1]->id], in->args[d + 1]->type,
                                        &kn_type_int64);
    }
    /* one -1 takes what is left; the item count must match */
    LLVMValueRef known = i64c(l, 1), unknowns = i64c(l, 0);
    for (int d = 0; d < vt->ndim; d++) {
        LLVMValueRef m1 = LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], i64c(l, -1), "");
        unknowns = LLVMBuildAdd(l->b, unknowns, LLVMBuildZExt(l->b, m1, l->i64, ""), "");
        known = LLVMBuildMul(l->b, known, LLVMBuildSelect(l->b, m1, i64c(l, 1), shape[d], ""), "");
    }
    LLVMValueRef nitems = field(l, a, F_NITEMS);
    LLVMValueRef safe = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, known, i64c(l, 0), ""),
                                        i64c(l, 1), known, "");
    LLVMValueRef rest = LLVMBuildSDiv(l->b, nitems, safe, "");
    LLVMValueRef total = i64c(l, 1);
    for (int d = 0; d < vt->ndim; d++) {
        LLVMValueRef m1 = LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], i64c(l, -1), "");
        shape[d] = LLVMBuildSelect(l->b, m1, rest, shape[d], "");
        total = LLVMBuildMul(l->b, total, shape[d], "");
    }
    LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, total, nitems, ""),
                                   LLVMBuildICmp(l->b, LLVMIntUGT, unknowns, i64c(l, 1), ""), "");
    /* NumPy: -1 cannot stand for a length when the other lengths multiply to 0 */
    bad = LLVMBuildOr(l->b, bad,
                      LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, known, i64c(l, 0), ""),
                                   LLVMBuildICmp(l->b, LLVMIntNE, unknowns, i64c(l, 0), ""), ""),
                      "");
    /* a negative length, or a product that overflows, cannot match by wrapping around */
    LLVMValueRef count, err;
    kn_lower_size_check(l, shape, vt->ndim, itemsize(t->dtype), &count, &err);
    bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, err, i64c(l, 0), ""), "");
    kn_lower_raise_if(l, bad, KN_EXC_RESHAPE);
    LLVMValueRef s = i64c(l, itemsize(t->dtype));
    for (int d = vt->ndim - 1; d >= 0; d--) {
        strides[d] = s;
        s = LLVMBuildMul(l->b, s, shape[d], "");
    }
    return kn_lower_array_rebuild(l, a, vt, shape, strides);
}

static LLVMValueRef
real_part_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    KN_UNUSED(in);
    return LLVMBuildExtractValue(l->b, e[0], 0, "");
}

LLVMValueRef
kn_lower_array_method(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t)
{
    LLVMValueRef shape[32], strides[32];
    if (!strcmp(name, "transpose")) {
        for (int d = 0; d < t->ndim; d++) {
            shape[d] = dim(l, a, F_SHAPE, t->ndim - 1 - d);
            strides[d] = stride(l, a, t, t->ndim - 1 - d);
        }
        return kn_lower_array_rebuild(l, a, in->type, shape, strides);
    }
    if (!strcmp(name, "reshape"))
        return reshape(l, in, a, t);
    if (!strcmp(name, "ravel") && t->layout == 'C') {
        shape[0] = field(l, a, F_NITEMS);
        strides[0] = i64c(l, itemsize(t->dtype));
        return kn_lower_array_rebuild(l, a, in->type, shape, strides);
    }
    if (!strcmp(name, "ravel") || !strcmp(name, "flatten")) {
        /* a copy in C order: allocate, then walk a's elements */
        LLVMValueRef n = field(l, a, F_NITEMS);
        LLVMValueRef r = kn_lower_array_alloc(l, in->type, &n);
        LLVMValueRef cursor = kn_lower_entry_alloca(l, l->ptr, "dst");
        LLVMBuildStore(l->b, field(l, r, F_DATA), cursor);
        FlatCopy fc = {t->dtype, cursor};
        kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, flat_copy_step, &fc);
        return r;
    }
    /* astype; complex to a real dtype keeps the real part (NumPy warns, compiled code cannot) */
    Operand ops[1] = {{a, t, NULL, {0}}};
    const KnType *to = in->type->dtype;
    if (t->dtype->kind == KN_TY_COMPLEX && to->kind != KN_TY_COMPLEX && to->kind != KN_TY_BOOL)
        return kn_lower_elementwise_into(l, in, ops, 1, real_part_kernel, NULL, in->type,
                                         kn_type_float(t->dtype->bits / 2));
    return kn_lower_elementwise_into(l, in, ops, 1, kn_lower_copy_kernel, NULL, in->type, t->dtype);
}

/* ---- a.flags.c_contiguous and friends, from the shape and strides ---- */

static LLVMValueRef
contiguous(L *l, LLVMValueRef a, const KnType *t, int c_order)
{
    /* NumPy: axes of length 1 do not count; an array with no items is contiguous */
    LLVMValueRef ok = LLVMConstInt(l->i1, 1, 0), expect = i64c(l, itemsize(t->dtype));
    for (int i = 0; i < t->ndim; i++) {
        int k = c_order ? t->ndim - 1 - i : i;
        LLVMValueRef n = dim(l, a, F_SHAPE, k), s = dim(l, a, F_STRIDES, k);
        LLVMValueRef one = LLVMBuildICmp(l->b, LLVMIntEQ, n, i64c(l, 1), "");
        LLVMValueRef good =
            LLVMBuildOr(l->b, one, LLVMBuildICmp(l->b, LLVMIntEQ, s, expect, ""), "");
        ok = LLVMBuildAnd(l->b, ok, good, "");
        expect = LLVMBuildMul(l->b, expect, n, "");
    }
    LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, field(l, a, F_NITEMS), i64c(l, 0), "");
    return LLVMBuildOr(l->b, ok, empty, "");
}

LLVMValueRef
kn_lower_array_flag(L *l, LLVMValueRef a, const KnType *t, int id)
{
    if (id == KN_BI_FLAGS_WRITEABLE)
        return LLVMConstInt(l->i1, !t->readonly, 0);
    if (id == KN_BI_FLAGS_F_CONTIGUOUS)
        return contiguous(l, a, t, 0);
    return contiguous(l, a, t, 1); /* c_contiguous, contiguous */
}
