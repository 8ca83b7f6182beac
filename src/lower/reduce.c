/* reduce.c - LLVM code for reductions and scans over arrays: sum/prod/min/max/mean (whole
 * array or along an axis, keepdims), argmin/argmax, any/all, cumsum/cumprod, and np.nonzero.
 * Each visits the elements in C order (kn_lower_visit_axes). */
#include "lower/array.h"

typedef struct Reduce {
    const char *name;
    const KnType *acc_t;
    LLVMValueRef acc;   /* alloca */
    LLVMValueRef first; /* alloca i1: no element seen yet (min/max) */
    const KnType *elem_t;
    const KnType *res_t; /* the result's dtype: a float16 sum/prod/mean accumulates in float32 */
} Reduce;

static void
reduce_step(L *l, LLVMValueRef p, void *ctx)
{
    Reduce *r = ctx;
    LLVMValueRef e = load_elem(l, r->elem_t, p);
    LLVMTypeRef at = kn_lower_type(l, r->acc_t);
    LLVMValueRef acc = LLVMBuildLoad2(l->b, at, r->acc, "");
    LLVMValueRef x = kn_lower_convert(l, e, r->elem_t, r->acc_t), nv;
    if (!strcmp(r->name, "prod")) {
        nv = kn_lower_binop(l, KN_BIN_MUL, acc, x, r->acc_t, r->acc_t, r->acc_t);
    } else if (!strcmp(r->name, "min") || !strcmp(r->name, "max")) {
        /* NumPy propagates NaN: a NaN element wins */
        KnCmp op = r->name[1] == 'i' ? KN_CMP_LT : KN_CMP_GT;
        LLVMValueRef better = kn_lower_cmp(l, op, x, acc, r->acc_t, r->acc_t, r->acc_t);
        LLVMValueRef xnan = any_nan(l, x, r->acc_t);
        if (xnan)
            better = LLVMBuildOr(l->b, better, xnan, "");
        LLVMValueRef first = LLVMBuildLoad2(l->b, l->i1, r->first, "");
        nv = LLVMBuildSelect(l->b, LLVMBuildOr(l->b, first, better, ""), x, acc, "");
        if (xnan) /* keep a NaN once seen (floats, and complex with a NaN part) */
            nv = LLVMBuildSelect(
                l->b,
                LLVMBuildAnd(l->b, LLVMBuildNot(l->b, first, ""), any_nan(l, acc, r->acc_t), ""),
                acc, nv, "");
        LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), r->first);
    } else {
        nv = kn_lower_binop(l, KN_BIN_ADD, acc, x, r->acc_t, r->acc_t, r->acc_t);
    }
    LLVMBuildStore(l->b, nv, r->acc);
}

/* sum/prod/min/max/mean over the elements visited: the accumulator's start and its end */
static void
reduce_begin(L *l, Reduce *r)
{
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 1, 0), r->first);
    int one = !strcmp(r->name, "prod");
    LLVMBuildStore(l->b, kn_lower_convert(l, i64c(l, one), &kn_type_int64, r->acc_t), r->acc);
}

static LLVMValueRef
reduce_end(L *l, Reduce *r, int mean, LLVMValueRef count)
{
    LLVMValueRef v = LLVMBuildLoad2(l->b, kn_lower_type(l, r->acc_t), r->acc, "");
    if (mean) {
        LLVMValueRef n = kn_lower_convert(l, count, &kn_type_int64, r->acc_t);
        l->in_ufunc = 1; /* the mean of nothing is nan, as NumPy's */
        v = kn_lower_binop(l, KN_BIN_TRUEDIV, v, n, r->acc_t, r->acc_t, r->acc_t);
        l->in_ufunc = 0;
    }
    return kn_lower_convert(l, v, r->acc_t, r->res_t);
}

static Reduce
reduce_new(L *l, const char *name, const KnType *acc_t, const KnType *elem_t)
{
    /* NumPy's float16 loops add and multiply in float32, rounding once at the end */
    const KnType *wide = acc_t == &kn_type_float16 && strcmp(name, "min") && strcmp(name, "max")
                             ? &kn_type_float32
                             : acc_t;
    Reduce r = {!strcmp(name, "mean") ? "sum" : name, wide, NULL, NULL, elem_t, acc_t};
    r.acc = kn_lower_entry_alloca(l, kn_lower_type(l, wide), "acc");
    r.first = kn_lower_entry_alloca(l, l->i1, "first");
    return r;
}

/* A reduction along axis k, one output element per position of the other axes: the hooks
 * start an element's accumulator, take one element (a Visit), and give the result. */
typedef struct AxisHooks {
    void (*begin)(L *l, void *ctx);
    Visit step;
    LLVMValueRef (*end)(L *l, void *ctx, LLVMValueRef count);
} AxisHooks;

static LLVMValueRef
along_axis(L *l, const KnType *ot, LLVMValueRef a, const KnType *t, int k, int empty_exc,
           const AxisHooks *h, void *ctx)
{
    LLVMValueRef oshape[32];
    for (int j = 0; j < ot->ndim; j++)
        oshape[j] = dim(l, a, F_SHAPE, j < k ? j : j + 1);
    LLVMValueRef out = kn_lower_array_alloc(l, ot, oshape);
    if (empty_exc >= 0)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, dim(l, a, F_SHAPE, k), i64c(l, 0), ""),
                          empty_exc);
    Loop lp;
    kn_lower_loop_begin(l, &lp, field(l, out, F_NITEMS));
    /* the flat output index, unravelled (C order) into the input's other axes */
    LLVMValueRef o = kn_lower_loop_index(l, &lp), rem = o, base = field(l, a, F_DATA);
    for (int j = ot->ndim - 1; j >= 0; j--) {
        LLVMValueRef idx = LLVMBuildSRem(l->b, rem, oshape[j], "");
        rem = LLVMBuildSDiv(l->b, rem, oshape[j], "");
        base = offset_ptr(l, base, LLVMBuildMul(l->b, idx, stride(l, a, t, j < k ? j : j + 1), ""));
    }
    h->begin(l, ctx);
    Loop inner;
    kn_lower_loop_begin(l, &inner, dim(l, a, F_SHAPE, k));
    h->step(l,
            offset_ptr(l, base,
                       LLVMBuildMul(l->b, kn_lower_loop_index(l, &inner), stride(l, a, t, k), "")),
            ctx);
    kn_lower_loop_end(l, &inner);
    LLVMValueRef v = h->end(l, ctx, dim(l, a, F_SHAPE, k));
    LLVMTypeRef et = ot->dtype->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, ot->dtype);
    store_elem(l, ot->dtype, v, LLVMBuildInBoundsGEP2(l->b, et, field(l, out, F_DATA), &o, 1, ""));
    kn_lower_loop_end(l, &lp);
    return out;
}

/* the ValueError of a reduction over nothing, named as NumPy names it; -1: none (sum, any...) */
static int
empty_error(const char *name)
{
    if (!strcmp(name, "min"))
        return KN_EXC_EMPTY_REDUCTION;
    if (!strcmp(name, "max"))
        return KN_EXC_EMPTY_REDUCTION_MAX;
    if (!strcmp(name, "argmin"))
        return KN_EXC_EMPTY_ARG_REDUCTION;
    if (!strcmp(name, "argmax"))
        return KN_EXC_EMPTY_ARG_REDUCTION_MAX;
    return -1;
}

typedef struct ReduceAxis {
    Reduce r;
    int mean;
} ReduceAxis;

static void
reduce_axis_begin(L *l, void *ctx)
{
    reduce_begin(l, &((ReduceAxis *)ctx)->r);
}

static void
reduce_axis_step(L *l, LLVMValueRef p, void *ctx)
{
    reduce_step(l, p, &((ReduceAxis *)ctx)->r);
}

static LLVMValueRef
reduce_axis_end(L *l, void *ctx, LLVMValueRef count)
{
    ReduceAxis *ra = ctx;
    return reduce_end(l, &ra->r, ra->mean, count);
}

static LLVMValueRef
reduce_axis(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t, int k)
{
    KnCallImpl *impl = in->impl;
    ReduceAxis ra = {reduce_new(l, name, impl->result, t->dtype), !strcmp(name, "mean")};
    static const AxisHooks hooks = {reduce_axis_begin, reduce_axis_step, reduce_axis_end};
    return along_axis(l, in->type, a, t, k, empty_error(name), &hooks, &ra);
}

/* argmin/argmax (the first extreme; a NaN is the extreme), any/all, cumsum/cumprod */
typedef struct Scan {
    const char *name;
    const KnType *elem_t, *acc_t;
    LLVMValueRef acc, first, index, best, cursor;
} Scan;

static void
scan_step(L *l, LLVMValueRef p, void *ctx)
{
    Scan *s = ctx;
    LLVMValueRef x = load_elem(l, s->elem_t, p);
    LLVMTypeRef at = kn_lower_type(l, s->acc_t);
    LLVMValueRef acc = LLVMBuildLoad2(l->b, at, s->acc, "");
    LLVMValueRef i = LLVMBuildLoad2(l->b, l->i64, s->index, "");
    if (!strcmp(s->name, "any") || !strcmp(s->name, "all")) {
        LLVMValueRef tx = kn_lower_truth(l, x, s->elem_t);
        LLVMBuildStore(l->b,
                       s->name[1] == 'n' ? LLVMBuildOr(l->b, acc, tx, "")
                                         : LLVMBuildAnd(l->b, acc, tx, ""),
                       s->acc);
    } else if (!strcmp(s->name, "cumsum") || !strcmp(s->name, "cumprod")) {
        LLVMValueRef xv = kn_lower_convert(l, x, s->elem_t, s->acc_t);
        LLVMValueRef nv = kn_lower_binop(l, s->name[3] == 's' ? KN_BIN_ADD : KN_BIN_MUL, acc, xv,
                                         s->acc_t, s->acc_t, s->acc_t);
        LLVMBuildStore(l->b, nv, s->acc);
        LLVMValueRef dst = LLVMBuildLoad2(l->b, l->ptr, s->cursor, "");
        store_elem(l, s->acc_t, nv, dst);
        LLVMBuildStore(l->b, offset_ptr(l, dst, i64c(l, itemsize(s->acc_t))), s->cursor);
    } else { /* argmin, argmax */
        LLVMValueRef first = LLVMBuildLoad2(l->b, l->i1, s->first, "");
        KnCmp op = s->name[3] == 'm' && s->name[4] == 'i' ? KN_CMP_LT : KN_CMP_GT;
        LLVMValueRef better = kn_lower_cmp(l, op, x, acc, s->elem_t, s->elem_t, s->elem_t);
        LLVMValueRef xnan = any_nan(l, x, s->elem_t);
        if (xnan) {
            LLVMValueRef accnan = any_nan(l, acc, s->elem_t);
            better = LLVMBuildAnd(l->b, LLVMBuildNot(l->b, accnan, ""),
                                  LLVMBuildOr(l->b, better, xnan, ""), "");
        }
        better = LLVMBuildOr(l->b, first, better, "");
        LLVMBuildStore(l->b, LLVMBuildSelect(l->b, better, x, acc, ""), s->acc);
        LLVMValueRef best = LLVMBuildLoad2(l->b, l->i64, s->best, "");
        LLVMBuildStore(l->b, LLVMBuildSelect(l->b, better, i, best, ""), s->best);
        LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), s->first);
    }
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, i64c(l, 1), ""), s->index);
}

static Scan
scan_new(L *l, const char *name, const KnType *elem_t, const KnType *acc_t)
{
    Scan s = {name, elem_t, acc_t, NULL, NULL, NULL, NULL, NULL};
    s.acc = kn_lower_entry_alloca(l, kn_lower_type(l, acc_t), "acc");
    s.first = kn_lower_entry_alloca(l, l->i1, "first");
    s.index = kn_lower_entry_alloca(l, l->i64, "i");
    s.best = kn_lower_entry_alloca(l, l->i64, "best");
    return s;
}

/* start a scan: nothing seen yet; the accumulator at 1 for cumprod and all, else 0 */
static void
scan_begin(L *l, void *ctx)
{
    Scan *s = ctx;
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 1, 0), s->first);
    LLVMBuildStore(l->b, i64c(l, 0), s->index);
    LLVMBuildStore(l->b, i64c(l, 0), s->best);
    long long init = !strcmp(s->name, "cumprod") || !strcmp(s->name, "all");
    LLVMBuildStore(l->b, kn_lower_convert(l, i64c(l, init), &kn_type_int64, s->acc_t), s->acc);
}

/* the result of any/all (the accumulator) or argmin/argmax (the best index) */
static LLVMValueRef
scan_result(L *l, void *ctx, LLVMValueRef count)
{
    Scan *s = ctx;
    KN_UNUSED(count);
    if (!strcmp(s->name, "any") || !strcmp(s->name, "all")) /* not argmin of a bool array */
        return LLVMBuildLoad2(l->b, l->i1, s->acc, "");
    return LLVMBuildLoad2(l->b, l->i64, s->best, "");
}

static LLVMValueRef
scan(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t)
{
    KnCallImpl *impl = in->impl;
    int cum = !strncmp(name, "cum", 3), logical = !strcmp(name, "any") || !strcmp(name, "all");
    Scan s = scan_new(l, name, t->dtype, cum ? impl->operand : logical ? &kn_type_bool : t->dtype);
    scan_begin(l, &s);
    LLVMValueRef out = NULL;
    if (cum) {
        LLVMValueRef n = field(l, a, F_NITEMS);
        out = kn_lower_array_alloc(l, in->type, &n);
        s.cursor = kn_lower_entry_alloca(l, l->ptr, "dst");
        LLVMBuildStore(l->b, field(l, out, F_DATA), s.cursor);
    } else if (!logical) {
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, field(l, a, F_NITEMS), i64c(l, 0), ""),
                          empty_error(name));
    }
    kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, scan_step, &s);
    return cum ? out : scan_result(l, &s, NULL);
}

/* argmin/argmax/any/all along axis k */
static LLVMValueRef
scan_axis(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t, int k)
{
    int logical = !strcmp(name, "any") || !strcmp(name, "all");
    Scan s = scan_new(l, name, t->dtype, logical ? &kn_type_bool : t->dtype);
    static const AxisHooks hooks = {scan_begin, scan_step, scan_result};
    return along_axis(l, in->type, a, t, k, empty_error(name), &hooks, &s);
}

static LLVMValueRef reduction(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t);

/* keepdims=True: the reduction computed as without it (its type is impl->reduced; in->type is
 * swapped for the call), then given back its axes: a scalar goes into a new array of ones, an
 * array along axis k becomes a view with a length-1 axis inserted there. */
LLVMValueRef
kn_lower_reduction(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t)
{
    KnCallImpl *impl = in->impl;
    if (!impl || !impl->reduced)
        return reduction(l, in, name, a, t);
    KnType *kept = in->type, *red = impl->reduced;
    in->type = red;
    LLVMValueRef r = reduction(l, in, name, a, t);
    in->type = kept;
    LLVMValueRef shape[32], strides[32];
    if (red->kind != KN_TY_ARRAY) {
        for (int d = 0; d < kept->ndim; d++)
            shape[d] = i64c(l, 1);
        LLVMValueRef out = kn_lower_array_alloc(l, kept, shape);
        store_elem(l, kept->dtype, r, field(l, out, F_DATA));
        return out;
    }
    int k = (int)impl->value;
    for (int d = 0, j = 0; d < kept->ndim; d++)
        shape[d] = d == k ? i64c(l, 1) : dim(l, r, F_SHAPE, j++);
    LLVMValueRef step = i64c(l, itemsize(kept->dtype));
    for (int d = kept->ndim - 1; d >= 0; d--) { /* C strides of the kept shape */
        strides[d] = step;
        step = LLVMBuildMul(l->b, step, shape[d], "");
    }
    return kn_lower_array_rebuild(l, r, kept, shape, strides);
}

static LLVMValueRef
reduction(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t)
{
    KnCallImpl *impl = in->impl;
    int scanning = !strncmp(name, "arg", 3) || !strcmp(name, "any") || !strcmp(name, "all");
    if (impl && impl->value >= 0 && !strncmp(name, "cum", 3)) /* lower/sorting.c */
        return kn_lower_cum_axis(l, in, name, a, t, (int)impl->value);
    if (impl && impl->value >= 0 && in->type->kind == KN_TY_ARRAY)
        return scanning ? scan_axis(l, in, name, a, t, (int)impl->value)
                        : reduce_axis(l, in, name, a, t, (int)impl->value);
    if (scanning || !strncmp(name, "cum", 3))
        return scan(l, in, name, a, t);
    Reduce r = reduce_new(l, name, in->type, t->dtype);
    reduce_begin(l, &r);
    if (empty_error(name) >= 0)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, field(l, a, F_NITEMS), i64c(l, 0), ""),
                          empty_error(name));
    kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, reduce_step, &r);
    return reduce_end(l, &r, !strcmp(name, "mean"), field(l, a, F_NITEMS));
}

/* ---- np.nonzero, a.nonzero(), np.where(condition) ---- */

typedef struct Nonzero {
    const KnType *d;
    LLVMValueRef count;     /* alloca i64: true elements seen */
    LLVMValueRef flat;      /* alloca i64: C-order position of the element (fill pass) */
    LLVMValueRef data[32];  /* the index arrays' data (fill pass; NULL: count pass) */
    LLVMValueRef inner[32]; /* product of the shape after axis k */
    LLVMValueRef shape[32];
    int ndim;
} Nonzero;

static void
nonzero_step(L *l, LLVMValueRef p, void *ctx)
{
    Nonzero *z = ctx;
    LLVMValueRef truth = kn_lower_truth(l, load_elem(l, z->d, p), z->d);
    LLVMValueRef n = LLVMBuildLoad2(l->b, l->i64, z->count, "");
    if (z->data[0]) {
        LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "nonzero");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "next");
        LLVMValueRef j = LLVMBuildLoad2(l->b, l->i64, z->flat, "");
        LLVMBuildStore(l->b, LLVMBuildAdd(l->b, j, i64c(l, 1), ""), z->flat);
        LLVMBuildCondBr(l->b, truth, yes, next);
        LLVMPositionBuilderAtEnd(l->b, yes);
        for (int k = 0; k < z->ndim; k++) { /* unravel j: (j / inner[k]) % shape[k] */
            LLVMValueRef q = LLVMBuildUDiv(l->b, j, z->inner[k], "");
            LLVMValueRef ik = k ? LLVMBuildURem(l->b, q, z->shape[k], "") : q;
            store_elem(l, &kn_type_int64, ik,
                       offset_ptr(l, z->data[k], LLVMBuildMul(l->b, n, i64c(l, 8), "")));
        }
        LLVMBuildStore(l->b, LLVMBuildAdd(l->b, n, i64c(l, 1), ""), z->count);
        LLVMBuildBr(l->b, next);
        LLVMPositionBuilderAtEnd(l->b, next);
        return;
    }
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, n, LLVMBuildZExt(l->b, truth, l->i64, ""), ""),
                   z->count);
}

/* Two passes over a in C order: count the true elements, then write each one's indices into
 * a.ndim new int64 arrays of that length; the result is the tuple of them. */
LLVMValueRef
kn_lower_nonzero(L *l, LLVMValueRef a, const KnType *t, const KnType *rt)
{
    Nonzero z = {.d = t->dtype, .ndim = t->ndim};
    z.count = kn_lower_entry_alloca(l, l->i64, "count");
    z.flat = kn_lower_entry_alloca(l, l->i64, "flat");
    LLVMBuildStore(l->b, i64c(l, 0), z.count);
    kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, nonzero_step, &z);
    LLVMValueRef n = LLVMBuildLoad2(l->b, l->i64, z.count, "");
    LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, rt)), inner = i64c(l, 1);
    for (int k = t->ndim - 1; k >= 0; k--) {
        LLVMValueRef idx = kn_lower_array_alloc(l, rt->items[k], &n);
        r = LLVMBuildInsertValue(l->b, r, idx, (unsigned)k, "");
        z.data[k] = field(l, idx, F_DATA);
        z.shape[k] = dim(l, a, F_SHAPE, k);
        z.inner[k] = inner;
        inner = LLVMBuildMul(l->b, inner, z.shape[k], "");
    }
    LLVMBuildStore(l->b, i64c(l, 0), z.count);
    LLVMBuildStore(l->b, i64c(l, 0), z.flat);
    if (t->ndim)
        kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, nonzero_step, &z);
    kn_lower_incref(l, r, rt); /* the tuple holds its arrays, as a tuple display does */
    return r;
}
