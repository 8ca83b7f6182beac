/* reduce.c - LLVM code for reductions and scans over arrays: sum/prod/min/max/mean (whole
 * array or along an axis, keepdims), argmin/argmax, any/all, cumsum/cumprod, and np.nonzero.
 * Each visits the elements in C order (kn_lower_visit_axes). */
#include "lower/array.h"
#include "lower/parallel_array.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

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
    void (*renew)(L *l, void *ctx); /* new allocas for the ctx (a parallel body's own) */
    size_t size;                    /* of the ctx */
} AxisHooks;

/* output element o of along_axis: its accumulator over axis k of a, stored into out */
static void
axis_elem(L *l, const KnType *ot, LLVMValueRef a, const KnType *t, int k, const AxisHooks *h,
          void *ctx, LLVMValueRef out, LLVMValueRef *oshape, LLVMValueRef o)
{
    /* the flat output index, unravelled (C order) into the input's other axes */
    LLVMValueRef rem = o, base = field(l, a, F_DATA);
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
}

/* parallel=True: the output elements [lo, hi) of along_axis (lower/parallel_array.c) */
typedef struct ParAxis {
    const KnType *ot, *t;
    LLVMValueRef a, out, *oshape;
    int k;
    const AxisHooks *h;
    void *ctx;
} ParAxis;

static void
par_axis_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    ParAxis *p = ctx;
    KN_UNUSED(tid);
    _Alignas(max_align_t) unsigned char own[256]; /* the hooks' ctx, with the body's allocas */
    memcpy(own, p->ctx, p->h->size);
    p->h->renew(l, own);
    Loop lp;
    kn_lower_par_loop_begin(l, &lp, lo, hi);
    axis_elem(l, p->ot, p->a, p->t, p->k, p->h, own, p->out, p->oshape,
              kn_lower_loop_index(l, &lp));
    kn_lower_loop_end(l, &lp);
}

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
    ParAxis pa = {ot, t, a, out, oshape, k, h, ctx};
    KnParRegion r = {"reduction along an axis",
                     field(l, out, F_NITEMS),
                     field(l, a, F_NITEMS),
                     0,
                     NULL,
                     par_axis_gen,
                     &pa};
    if (ot->ndim && h->renew && h->size <= 256 && kn_lower_par_region(l, &r))
        return out;
    Loop lp;
    kn_lower_loop_begin(l, &lp, field(l, out, F_NITEMS));
    axis_elem(l, ot, a, t, k, h, ctx, out, oshape, kn_lower_loop_index(l, &lp));
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

static void
reduce_axis_renew(L *l, void *ctx)
{
    Reduce *r = &((ReduceAxis *)ctx)->r;
    r->acc = kn_lower_entry_alloca(l, kn_lower_type(l, r->acc_t), "acc");
    r->first = kn_lower_entry_alloca(l, l->i1, "first");
}

static LLVMValueRef
reduce_axis(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t, int k)
{
    KnCallImpl *impl = in->impl;
    ReduceAxis ra = {reduce_new(l, name, impl->result, t->dtype), !strcmp(name, "mean")};
    static const AxisHooks hooks = {reduce_axis_begin, reduce_axis_step, reduce_axis_end,
                                    reduce_axis_renew, sizeof(ReduceAxis)};
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

/* ---- parallel=True: argmin/argmax/any/all of a whole array on the pool ---- */

enum { PAR_BEST = 24 }; /* where a slot keeps its argmin/argmax index (the value at 0) */

typedef struct ParScan {
    const Scan *s;
    LLVMValueRef a, slots;
    const KnType *t;
} ParScan;

/* Take partial (x at index i) into s: any/all combine, argmin/argmax keep the extreme and, of
 * equal ones (or NaNs), the lower index, so the order of the partials does not matter. */
static void
scan_combine(L *l, Scan *s, LLVMValueRef x, LLVMValueRef i)
{
    LLVMTypeRef at = kn_lower_type(l, s->acc_t);
    LLVMValueRef acc = LLVMBuildLoad2(l->b, at, s->acc, "");
    if (!strcmp(s->name, "any") || !strcmp(s->name, "all")) {
        LLVMBuildStore(l->b,
                       s->name[1] == 'n' ? LLVMBuildOr(l->b, acc, x, "")
                                         : LLVMBuildAnd(l->b, acc, x, ""),
                       s->acc);
        return;
    }
    const KnType *et = s->elem_t;
    LLVMValueRef first = LLVMBuildLoad2(l->b, l->i1, s->first, "");
    LLVMValueRef best = LLVMBuildLoad2(l->b, l->i64, s->best, "");
    LLVMValueRef lower = LLVMBuildICmp(l->b, LLVMIntSLT, i, best, "");
    KnCmp op = s->name[3] == 'm' && s->name[4] == 'i' ? KN_CMP_LT : KN_CMP_GT;
    LLVMValueRef better = kn_lower_cmp(l, op, x, acc, et, et, et);
    LLVMValueRef tie = kn_lower_cmp(l, KN_CMP_EQ, x, acc, et, et, et);
    LLVMValueRef xnan = any_nan(l, x, et);
    if (xnan) {
        LLVMValueRef accnan = any_nan(l, acc, et);
        better =
            LLVMBuildOr(l->b,
                        LLVMBuildAnd(l->b, LLVMBuildNot(l->b, accnan, ""),
                                     LLVMBuildOr(l->b, better, xnan, ""), ""),
                        LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, accnan, xnan, ""), lower, ""), "");
        tie = LLVMBuildAnd(l->b, tie, LLVMBuildNot(l->b, accnan, ""), "");
    }
    better = LLVMBuildOr(l->b, better, LLVMBuildAnd(l->b, tie, lower, ""), "");
    better = LLVMBuildOr(l->b, first, better, "");
    LLVMBuildStore(l->b, LLVMBuildSelect(l->b, better, x, acc, ""), s->acc);
    LLVMBuildStore(l->b, LLVMBuildSelect(l->b, better, i, best, ""), s->best);
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), s->first);
}

/* One chunk: a partial (value, C-order index of the best) over the elements [lo, hi) of a C
 * array or the rows [lo, hi) of axis 0 of another, merged with the thread's slot; the slot is
 * seen once an element was (any/all: always). */
static void
par_scan_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    ParScan *p = ctx;
    const KnType *t = p->t;
    Scan s = scan_new(l, p->s->name, p->s->elem_t, p->s->acc_t);
    scan_begin(l, &s);
    int logical = !strcmp(s.name, "any") || !strcmp(s.name, "all");
    LLVMValueRef slot = offset_ptr(l, p->slots, LLVMBuildMul(l->b, tid, i64c(l, KN_PAR_SLOT), ""));
    LLVMValueRef seenp = offset_ptr(l, slot, i64c(l, KN_PAR_SEEN)),
                 bestp = offset_ptr(l, slot, i64c(l, PAR_BEST));
    LLVMValueRef seen = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->i8, seenp, ""),
                                      LLVMConstInt(l->i8, 0, 0), "");
    LLVMTypeRef at = kn_lower_type(l, s.acc_t);
    /* the C-order index of the chunk's first element */
    LLVMValueRef data = field(l, p->a, F_DATA), row = i64c(l, 1);
    if (t->layout != 'C') {
        LLVMValueRef n0 = dim(l, p->a, F_SHAPE, 0);
        LLVMValueRef d = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, n0, i64c(l, 0), ""),
                                         i64c(l, 1), n0, "");
        row = LLVMBuildSDiv(l->b, field(l, p->a, F_NITEMS), d, "");
    }
    LLVMBuildStore(l->b, LLVMBuildMul(l->b, lo, row, ""), s.index);
    Loop lp;
    kn_lower_par_loop_begin(l, &lp, lo, hi);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    if (t->layout == 'C')
        scan_step(l, offset_ptr(l, data, LLVMBuildMul(l->b, i, i64c(l, itemsize(t->dtype)), "")),
                  &s);
    else
        kn_lower_visit_axes(l, p->a, t,
                            offset_ptr(l, data, LLVMBuildMul(l->b, i, stride(l, p->a, t, 0), "")),
                            1, scan_step, &s);
    kn_lower_loop_end(l, &lp);
    /* a thread's earlier chunk (dynamic chunks; the order of a thread's chunks is unknown) */
    LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "earlier");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "merged");
    LLVMBuildCondBr(l->b, seen, yes, next);
    LLVMPositionBuilderAtEnd(l->b, yes);
    scan_combine(l, &s, load_elem(l, s.acc_t, slot), LLVMBuildLoad2(l->b, l->i64, bestp, ""));
    LLVMBuildBr(l->b, next);
    LLVMPositionBuilderAtEnd(l->b, next);
    store_elem(l, s.acc_t, LLVMBuildLoad2(l->b, at, s.acc, ""), slot);
    LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, l->i64, s.best, ""), bestp);
    LLVMValueRef got = logical ? LLVMConstInt(l->i1, 1, 0)
                               : LLVMBuildNot(l->b, LLVMBuildLoad2(l->b, l->i1, s.first, ""), "");
    LLVMBuildStore(l->b, LLVMBuildZExt(l->b, got, l->i8, ""), seenp);
}

/* Combine one region thread's partial (its slot, which it wrote) into the caller's result */
typedef void (*ParCombine)(L *l, LLVMValueRef slot, void *ctx);

/* A reduction `name` of a over the pool: gen (ctx) computes one partial per region thread into
 * the slots (stored through *slots_field before the region is built), and combine takes every
 * slot a thread wrote, in tid order. 0, with nothing emitted: lower it serially. */
static int
par_over(L *l, LLVMValueRef a, const KnType *t, const char *name, KnParGen gen, void *ctx,
         LLVMValueRef *slots_field, ParCombine combine, void *cctx)
{
    if (!l->c->parallel || t->ndim == 0 || t->dtype->kind == KN_TY_RECORD)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "reduction %s", name);
    LLVMValueRef count, saved, slots = kn_lower_par_slots(l, &count, &saved);
    *slots_field = slots;
    LLVMValueRef nitems = field(l, a, F_NITEMS);
    KnParRegion reg = {
        what, t->layout == 'C' ? nitems : dim(l, a, F_SHAPE, 0), nitems, 1, slots, gen, ctx};
    if (!kn_lower_par_region(l, &reg)) {
        kn_lower_par_slots_free(l, saved);
        return 0;
    }
    Loop lp;
    kn_lower_loop_begin(l, &lp, count);
    LLVMValueRef slot = offset_ptr(
        l, slots, LLVMBuildMul(l->b, kn_lower_loop_index(l, &lp), i64c(l, KN_PAR_SLOT), ""));
    LLVMValueRef seen = LLVMBuildLoad2(l->b, l->i8, offset_ptr(l, slot, i64c(l, KN_PAR_SEEN)), "");
    LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "partial");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "next_partial");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, seen, LLVMConstInt(l->i8, 0, 0), ""), yes,
                    next);
    LLVMPositionBuilderAtEnd(l->b, yes);
    combine(l, slot, cctx);
    LLVMBuildBr(l->b, next);
    LLVMPositionBuilderAtEnd(l->b, next);
    kn_lower_loop_end(l, &lp);
    kn_lower_par_slots_free(l, saved);
    return 1;
}

static void
par_scan_combine(L *l, LLVMValueRef slot, void *ctx)
{
    Scan *s = ctx;
    scan_combine(l, s, load_elem(l, s->acc_t, slot),
                 LLVMBuildLoad2(l->b, l->i64, offset_ptr(l, slot, i64c(l, PAR_BEST)), ""));
}

/* argmin/argmax/any/all of a over the pool, the partials combined into s; 0: serially */
static int
par_scan(L *l, Scan *s, LLVMValueRef a, const KnType *t, const char *name)
{
    ParScan p = {s, a, NULL, t};
    return par_over(l, a, t, name, par_scan_gen, &p, &p.slots, par_scan_combine, s);
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
    if (cum && l->c->parallel) {
        char what[64];
        snprintf(what, sizeof what, "scan %s", name);
        kn_par_note(l->c, l->span, what, 0, "a cumulative scan is not split over threads yet");
    }
    if (cum || !par_scan(l, &s, a, t, name))
        kn_lower_visit_axes(l, a, t, field(l, a, F_DATA), 0, scan_step, &s);
    return cum ? out : scan_result(l, &s, NULL);
}

static void
scan_renew(L *l, void *ctx)
{
    Scan *s = ctx;
    *s = scan_new(l, s->name, s->elem_t, s->acc_t);
}

/* argmin/argmax/any/all along axis k */
static LLVMValueRef
scan_axis(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t, int k)
{
    int logical = !strcmp(name, "any") || !strcmp(name, "all");
    Scan s = scan_new(l, name, t->dtype, logical ? &kn_type_bool : t->dtype);
    static const AxisHooks hooks = {scan_begin, scan_step, scan_result, scan_renew, sizeof(Scan)};
    return along_axis(l, in->type, a, t, k, empty_error(name), &hooks, &s);
}

/* ---- parallel=True: a whole-array reduction on the pool (lower/parallel_array.c) ---- */

typedef struct ParReduce {
    const Reduce *r;
    LLVMValueRef a, slots;
    const KnType *t;
} ParReduce;

/* One chunk: this thread's partial (resumed from its slot when it has one) over the elements
 * [lo, hi) of a C array, or the rows [lo, hi) of axis 0 of any other. */
static void
par_reduce_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    ParReduce *p = ctx;
    Reduce r = reduce_new(l, p->r->name, p->r->acc_t, p->r->elem_t);
    reduce_begin(l, &r);
    LLVMValueRef slot = offset_ptr(l, p->slots, LLVMBuildMul(l->b, tid, i64c(l, KN_PAR_SLOT), ""));
    LLVMValueRef seenp = offset_ptr(l, slot, i64c(l, KN_PAR_SEEN));
    LLVMValueRef seen = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->i8, seenp, ""),
                                      LLVMConstInt(l->i8, 0, 0), "");
    LLVMTypeRef at = kn_lower_type(l, r.acc_t);
    LLVMValueRef start = LLVMBuildSelect(l->b, seen, load_elem(l, r.acc_t, slot),
                                         LLVMBuildLoad2(l->b, at, r.acc, ""), "");
    LLVMBuildStore(l->b, start, r.acc);
    LLVMBuildStore(l->b, LLVMBuildNot(l->b, seen, ""), r.first);
    const KnType *t = p->t;
    LLVMValueRef data = field(l, p->a, F_DATA);
    Loop lp;
    kn_lower_par_loop_begin(l, &lp, lo, hi);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    if (t->layout == 'C')
        reduce_step(l, offset_ptr(l, data, LLVMBuildMul(l->b, i, i64c(l, itemsize(t->dtype)), "")),
                    &r);
    else
        kn_lower_visit_axes(l, p->a, t,
                            offset_ptr(l, data, LLVMBuildMul(l->b, i, stride(l, p->a, t, 0), "")),
                            1, reduce_step, &r);
    kn_lower_loop_end(l, &lp);
    store_elem(l, r.acc_t, LLVMBuildLoad2(l->b, at, r.acc, ""), slot);
    LLVMBuildStore(l->b, LLVMConstInt(l->i8, 1, 0), seenp);
}

static void
par_reduce_combine(L *l, LLVMValueRef slot, void *ctx)
{
    reduce_step(l, slot, ctx);
}

/* The reduction r of a over the pool: one partial per region thread, combined into r in tid
 * order (so a float sum depends on the number of threads, not on the timing). 0: lower it
 * serially. */
static int
par_reduce(L *l, Reduce *r, LLVMValueRef a, const KnType *t, const char *name)
{
    ParReduce p = {r, a, NULL, t};
    Reduce c = *r; /* the partials, taken as elements of the accumulator's type */
    c.elem_t = r->acc_t;
    return par_over(l, a, t, name, par_reduce_gen, &p, &p.slots, par_reduce_combine, &c);
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
    if (!par_reduce(l, &r, a, t, name))
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
