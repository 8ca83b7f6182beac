/* elementwise.c - elementwise array operations: kiln's counted loops, broadcasting of operands
 * to the result's shape (checked at run time) and the loops over the result's axes (one flat
 * loop when every operand has the result's shape and layout), NumPy 2's checks of Python ints
 * taken as an array's dtype, the kernels of operators and ufuncs, copies that are safe when the
 * operands overlap, and the kernels of fused array expressions (passes/fuse.c). */
#include "lower/array.h"
#include "lower/parallel_array.h"

#include <llvm-c/DebugInfo.h>
#include <stdio.h>

/* ---- loops ---- */


/* Mark a loop's back edge `llvm.loop.unroll.runtime.disable` and `llvm.loop.interleave.count`
 * 1. kiln's own loops (elementwise, reductions, copies) are vectorized by LLVM; runtime
 * unrolling then only multiplied the scalar remainder by 8, and interleaving the vector body by
 * 4 made four copies of it. Without both, go_fast's O3 work fell by 13% and its code generation
 * by 29% (callgrind), its first call by ~5 ms, and steady state did not move (bench/, and
 * in-cache loops of 2000-4000 elements). The loop ID is a distinct node that refers to itself. */
static void
plain_loop(L *l, LLVMValueRef backedge)
{
    static const char name[] = "llvm.loop.unroll.runtime.disable";
    LLVMMetadataRef opt = LLVMMDStringInContext2(l->ctx, name, sizeof name - 1);
    LLVMMetadataRef inner = LLVMMDNodeInContext2(l->ctx, &opt, 1);
    LLVMMetadataRef self = LLVMTemporaryMDNode(l->ctx, NULL, 0);
    LLVMMetadataRef ic[2] = {LLVMMDStringInContext2(l->ctx, "llvm.loop.interleave.count", 26),
                             LLVMValueAsMetadata(LLVMConstInt(l->i32, 1, 0))};
    LLVMMetadataRef ops[3] = {self, inner, LLVMMDNodeInContext2(l->ctx, ic, 2)};
    LLVMMetadataRef id = LLVMMDNodeInContext2(l->ctx, ops, 3);
    LLVMMetadataReplaceAllUsesWith(self, id); /* also disposes the temporary */
    LLVMSetMetadata(backedge, LLVMGetMDKindIDInContext(l->ctx, "llvm.loop", 9),
                    LLVMMetadataAsValue(l->ctx, id));
}

void
kn_lower_loop_begin(L *l, Loop *lp, LLVMValueRef n)
{
    lp->counter = kn_lower_entry_alloca(l, l->i64, "k");
    LLVMBuildStore(l->b, i64c(l, 0), lp->counter);
    lp->head = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "loop");
    lp->body = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "body");
    lp->exit = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "done");
    LLVMBuildBr(l->b, lp->head);
    LLVMPositionBuilderAtEnd(l->b, lp->head);
    LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, lp->counter, "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, n, ""), lp->body, lp->exit);
    LLVMPositionBuilderAtEnd(l->b, lp->body);
}

LLVMValueRef
kn_lower_loop_index(L *l, Loop *lp)
{
    return LLVMBuildLoad2(l->b, l->i64, lp->counter, "");
}

void
kn_lower_loop_end(L *l, Loop *lp)
{
    LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, lp->counter, "");
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, i64c(l, 1), ""), lp->counter);
    plain_loop(l, LLVMBuildBr(l->b, lp->head));
    LLVMPositionBuilderAtEnd(l->b, lp->exit);
}


/* The broadcast shape of the operands, right-aligned; raises ValueError on a mismatch. */
static void
broadcast_shape(L *l, Operand *ops, int nops, int ndim, LLVMValueRef *shape)
{
    for (int k = 0; k < ndim; k++) {
        LLVMValueRef s = i64c(l, 1), bad = LLVMConstInt(l->i1, 0, 0);
        for (int i = 0; i < nops; i++) {
            const KnType *t = ops[i].t;
            int ak = k - (ndim - (t->kind == KN_TY_ARRAY ? t->ndim : 0));
            if (t->kind != KN_TY_ARRAY || ak < 0)
                continue;
            LLVMValueRef d = dim(l, ops[i].v, F_SHAPE, ak);
            LLVMValueRef s_is1 = LLVMBuildICmp(l->b, LLVMIntEQ, s, i64c(l, 1), "");
            LLVMValueRef d_is1 = LLVMBuildICmp(l->b, LLVMIntEQ, d, i64c(l, 1), "");
            LLVMValueRef same = LLVMBuildICmp(l->b, LLVMIntEQ, s, d, "");
            bad = LLVMBuildOr(
                l->b, bad,
                LLVMBuildNot(l->b, LLVMBuildOr(l->b, LLVMBuildOr(l->b, s_is1, d_is1, ""), same, ""),
                             ""),
                "");
            s = LLVMBuildSelect(l->b, s_is1, d, s, "");
        }
        kn_lower_raise_if(l, bad, KN_EXC_BROADCAST);
        shape[k] = s;
    }
}

/* Loop over the result's axes; each array operand advances by its stride (0 where it is
 * broadcast). The innermost body calls the kernel and stores into the result. */
static void
loop_axes(L *l, KnInstr *in, Operand *ops, int nops, Operand *res, LLVMValueRef *shape, int ndim,
          int k, Kernel kernel)
{
    if (k == ndim) {
        LLVMValueRef elems[8];
        for (int i = 0; i < nops; i++) {
            const KnType *t = ops[i].t;
            elems[i] = t->kind == KN_TY_ARRAY
                           ? load_elem(l, t->dtype, LLVMBuildLoad2(l->b, l->ptr, ops[i].ptr, ""))
                           : ops[i].v;
        }
        LLVMValueRef r = kn_lower_convert(l, kernel(l, in, elems), l->kernel_type, res->t->dtype);
        store_elem(l, res->t->dtype, r, LLVMBuildLoad2(l->b, l->ptr, res->ptr, ""));
        return;
    }
    /* remember the pointers at the start of this axis, restore them after it */
    LLVMValueRef saved[9];
    Operand *all[9];
    int nall = 0;
    for (int i = 0; i < nops; i++)
        if (ops[i].t->kind == KN_TY_ARRAY)
            all[nall++] = &ops[i];
    all[nall++] = res;
    for (int i = 0; i < nall; i++)
        saved[i] = LLVMBuildLoad2(l->b, l->ptr, all[i]->ptr, "");
    Loop lp;
    kn_lower_loop_begin(l, &lp, shape[k]);
    loop_axes(l, in, ops, nops, res, shape, ndim, k + 1, kernel);
    for (int i = 0; i < nall; i++) {
        LLVMValueRef p = LLVMBuildLoad2(l->b, l->ptr, all[i]->ptr, "");
        LLVMBuildStore(l->b, offset_ptr(l, p, all[i]->step[k]), all[i]->ptr);
    }
    /* inner axes advanced the pointers: reset to the start of this axis plus k's step */
    if (k + 1 < ndim) {
        LLVMValueRef idx = LLVMBuildAdd(l->b, kn_lower_loop_index(l, &lp), i64c(l, 1), "");
        for (int i = 0; i < nall; i++)
            LLVMBuildStore(l->b,
                           offset_ptr(l, saved[i], LLVMBuildMul(l->b, idx, all[i]->step[k], "")),
                           all[i]->ptr);
    }
    kn_lower_loop_end(l, &lp);
}

/* steps of an operand over the result's axes */
static void
operand_steps(L *l, Operand *o, LLVMValueRef *shape, int ndim)
{
    const KnType *t = o->t;
    for (int k = 0; k < ndim; k++) {
        int ak = k - (ndim - t->ndim);
        if (ak < 0) {
            o->step[k] = i64c(l, 0);
            continue;
        }
        LLVMValueRef d = dim(l, o->v, F_SHAPE, ak);
        LLVMValueRef bc = LLVMBuildICmp(l->b, LLVMIntNE, d, shape[k], "");
        o->step[k] = LLVMBuildSelect(l->b, bc, i64c(l, 0), stride(l, o->v, t, ak), "");
    }
    o->ptr = kn_lower_entry_alloca(l, l->ptr, "p");
    LLVMBuildStore(l->b, field(l, o->v, F_DATA), o->ptr);
}

/* The fast case: every operand is C-contiguous with the result's shape (or a scalar). */
/* A new C result whose array operands are one C array of its ndim (a + 1.0, np.tanh(a), a * a):
 * the result has that array's shape, so the flat loop always applies. */
static int
flat_always(const Operand *ops, int nops, const KnType *rt)
{
    LLVMValueRef only = NULL;
    if (rt->layout != 'C')
        return 0;
    for (int i = 0; i < nops; i++) {
        const KnType *t = ops[i].t;
        if (t->kind != KN_TY_ARRAY)
            continue;
        if (t->layout != 'C' || t->ndim != rt->ndim || (only && ops[i].v != only))
            return 0;
        only = ops[i].v;
    }
    return only != NULL;
}

/* The array that fixes a flat_always result's shape, when the result's items are no wider than
 * its (so the result cannot be too big); NULL otherwise. */
static const Operand *
shape_source(const Operand *ops, int nops, const KnType *rt)
{
    if (!flat_always(ops, nops, rt))
        return NULL;
    for (int i = 0; i < nops; i++)
        if (ops[i].t->kind == KN_TY_ARRAY)
            return itemsize(rt->dtype) <= itemsize(ops[i].t->dtype) ? &ops[i] : NULL;
    return NULL;
}

static LLVMValueRef
all_same_shape(L *l, Operand *ops, int nops, LLVMValueRef *shape, int ndim)
{
    LLVMValueRef ok = LLVMConstInt(l->i1, 1, 0);
    for (int i = 0; i < nops; i++) {
        const KnType *t = ops[i].t;
        if (t->kind != KN_TY_ARRAY)
            continue;
        if (t->layout != 'C' || t->ndim != ndim)
            return LLVMConstInt(l->i1, 0, 0);
        for (int k = 0; k < ndim; k++)
            ok = LLVMBuildAnd(
                l->b, ok,
                LLVMBuildICmp(l->b, LLVMIntEQ, dim(l, ops[i].v, F_SHAPE, k), shape[k], ""), "");
    }
    return ok;
}

/* element i of a flat loop: result[i] = kernel(operands[i]) */
static void
flat_elem(L *l, KnInstr *in, Operand *ops, int nops, LLVMValueRef result, const KnType *rt,
          Kernel kernel, LLVMValueRef i)
{
    LLVMValueRef elems[8];
    for (int k = 0; k < nops; k++) {
        const KnType *t = ops[k].t;
        if (t->kind != KN_TY_ARRAY) {
            elems[k] = ops[k].v;
            continue;
        }
        LLVMTypeRef et = t->dtype->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, t->dtype);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, et, field(l, ops[k].v, F_DATA), &i, 1, "");
        elems[k] = load_elem(l, t->dtype, p);
    }
    LLVMValueRef r = kn_lower_convert(l, kernel(l, in, elems), l->kernel_type, rt->dtype);
    LLVMTypeRef rtt = rt->dtype->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, rt->dtype);
    store_elem(l, rt->dtype, r,
               LLVMBuildInBoundsGEP2(l->b, rtt, field(l, result, F_DATA), &i, 1, ""));
}

static void
flat_loop(L *l, KnInstr *in, Operand *ops, int nops, LLVMValueRef result, const KnType *rt,
          Kernel kernel)
{
    Loop lp;
    kn_lower_loop_begin(l, &lp, field(l, result, F_NITEMS));
    flat_elem(l, in, ops, nops, result, rt, kernel, kn_lower_loop_index(l, &lp));
    kn_lower_loop_end(l, &lp);
}

/* The operands must broadcast to the destination's shape (setitem, out=). */
static void
check_broadcast_to(L *l, Operand *ops, int nops, LLVMValueRef *shape, int ndim)
{
    LLVMValueRef bad = LLVMConstInt(l->i1, 0, 0);
    for (int i = 0; i < nops; i++) {
        const KnType *t = ops[i].t;
        for (int ak = 0; t->kind == KN_TY_ARRAY && ak < t->ndim; ak++) {
            int k = ndim - t->ndim + ak;
            LLVMValueRef d = dim(l, ops[i].v, F_SHAPE, ak);
            LLVMValueRef ok = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, d, shape[k], ""),
                                          LLVMBuildICmp(l->b, LLVMIntEQ, d, i64c(l, 1), ""), "");
            bad = LLVMBuildOr(l->b, bad, LLVMBuildNot(l->b, ok, ""), "");
        }
    }
    kn_lower_raise_if(l, bad, KN_EXC_SETITEM_SHAPE);
}


/* ---- parallel=True: the loops above as regions of the pool (lower/parallel_array.c) ---- */

typedef struct ParEw {
    KnInstr *in;
    Operand *ops;
    int nops;
    LLVMValueRef result;
    const KnType *rt;
    Kernel kernel;
    LLVMValueRef *shape;
    int ndim;
} ParEw;

static void
par_flat_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    ParEw *p = ctx;
    KN_UNUSED(tid);
    Loop lp;
    kn_lower_par_loop_begin(l, &lp, lo, hi);
    flat_elem(l, p->in, p->ops, p->nops, p->result, p->rt, p->kernel, kn_lower_loop_index(l, &lp));
    kn_lower_loop_end(l, &lp);
}

/* the strided loops with the outer axis cut to [lo, hi): every pointer starts lo rows on */
static void
par_axes_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    ParEw *p = ctx;
    KN_UNUSED(tid);
    Operand ops[8], res = {p->result, p->rt, NULL, {0}};
    LLVMValueRef shape[32];
    for (int i = 0; i < p->nops; i++) {
        ops[i] = p->ops[i];
        if (ops[i].t->kind == KN_TY_ARRAY)
            operand_steps(l, &ops[i], p->shape, p->ndim);
    }
    operand_steps(l, &res, p->shape, p->ndim);
    for (int i = 0; i <= p->nops; i++) {
        Operand *o = i < p->nops ? &ops[i] : &res;
        if (o->t->kind != KN_TY_ARRAY)
            continue;
        LLVMValueRef start = LLVMBuildLoad2(l->b, l->ptr, o->ptr, "");
        LLVMBuildStore(l->b, offset_ptr(l, start, LLVMBuildMul(l->b, lo, o->step[0], "")), o->ptr);
    }
    for (int k = 0; k < p->ndim; k++)
        shape[k] = k ? p->shape[k] : LLVMBuildSub(l->b, hi, lo, "");
    loop_axes(l, p->in, ops, p->nops, &res, shape, p->ndim, 0, p->kernel);
}

/* the note of an elementwise operation's region */
static const char *
ew_what(const KnInstr *in)
{
    switch (in->op) {
    case KN_OP_FUSED:
    case KN_OP_BINOP:
    case KN_OP_CMP:
    case KN_OP_UNOP:
    case KN_OP_CALL:
        return "array expression";
    default:
        return "array assignment";
    }
}

/* the flat loop (flat) or the strided one on the pool; 0: lower it serially */
static int
par_elementwise(L *l, KnInstr *in, Operand *ops, int nops, LLVMValueRef result, const KnType *rt,
                Kernel kernel, LLVMValueRef *shape, int flat)
{
    if (!l->c->parallel || rt->ndim == 0 || nops > 8)
        return 0;
    ParEw p = {in, ops, nops, result, rt, kernel, shape, rt->ndim};
    const char *what = kernel == kn_lower_copy_kernel ? "array copy" : ew_what(in);
    KnParRegion r = {flat ? what : NULL,
                     flat ? field(l, result, F_NITEMS) : shape[0],
                     field(l, result, F_NITEMS),
                     0,
                     NULL,
                     flat ? par_flat_gen : par_axes_gen,
                     &p};
    return kn_lower_par_region(l, &r);
}

/* result = kernel(operands...) elementwise, with broadcasting; returns the new (owned) array */
static LLVMValueRef
elementwise(L *l, KnInstr *in, Operand *ops, int nops, Kernel kernel)
{
    return kn_lower_elementwise_into(l, in, ops, nops, kernel, NULL, in->type, in->type->dtype);
}

/* The same into an existing array `dest` of type dt (NULL: a new one of type dt). The kernel
 * returns values of dtype ktype, converted to dt's dtype on store. */
LLVMValueRef
kn_lower_elementwise_into(L *l, KnInstr *in, Operand *ops, int nops, Kernel kernel,
                          LLVMValueRef dest, const KnType *dt, const KnType *ktype)
{
    const KnType *rt = dt;
    int ndim = rt->ndim;
    LLVMValueRef shape[32];
    const KnType *saved = l->kernel_type;
    l->kernel_type = ktype;
    LLVMValueRef result = dest;
    if (dest) {
        for (int k = 0; k < ndim; k++)
            shape[k] = dim(l, dest, F_SHAPE, k);
        check_broadcast_to(l, ops, nops, shape, ndim);
    } else {
        broadcast_shape(l, ops, nops, ndim, shape);
        const Operand *src = shape_source(ops, nops, rt);
        result = src ? kn_lower_array_alloc_within(l, rt, shape, field(l, src->v, F_NITEMS))
                     : kn_lower_array_alloc(l, rt, shape);
    }
    if (!dest && flat_always(ops, nops, rt)) { /* no strided copy for O3 to delete */
        if (!par_elementwise(l, in, ops, nops, result, rt, kernel, shape, 1))
            flat_loop(l, in, ops, nops, result, rt, kernel);
        l->kernel_type = saved;
        return result;
    }
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "flat");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "strided");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ewdone");
    LLVMValueRef flat_ok = all_same_shape(l, ops, nops, shape, ndim);
    if (rt->layout != 'C')
        flat_ok = LLVMConstInt(l->i1, 0, 0);
    LLVMBuildCondBr(l->b, flat_ok, fast, slow);
    LLVMPositionBuilderAtEnd(l->b, fast);
    int par = par_elementwise(l, in, ops, nops, result, rt, kernel, shape, 1);
    if (!par)
        flat_loop(l, in, ops, nops, result, rt, kernel);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, slow);
    if (!par || !par_elementwise(l, in, ops, nops, result, rt, kernel, shape, 0)) {
        for (int i = 0; i < nops; i++)
            if (ops[i].t->kind == KN_TY_ARRAY)
                operand_steps(l, &ops[i], shape, ndim);
        Operand res = {result, rt, NULL, {0}};
        operand_steps(l, &res, shape, ndim);
        loop_axes(l, in, ops, nops, &res, shape, ndim, 0, kernel);
    }
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    l->kernel_type = saved;
    return result;
}

/* ---- Python ints taken as an array's dtype (NumPy 2, NEP 50) ---- */

/* the values of integer dtype d that an int64 can hold (all of uint64's non-negative ones) */
static void
int_range(const KnType *d, long long *lo, long long *hi)
{
    *lo = d->is_signed ? -(1LL << (d->bits - 1)) : 0;
    *hi = d->is_signed    ? (1LL << (d->bits - 1)) - 1
          : d->bits == 64 ? INT64_MAX
                          : (long long)((1ULL << d->bits) - 1);
}

/* Does this int64 scalar stand for a Python int? kiln types Python ints as int64, as it does
 * NumPy's int64 scalars; an element read straight from an array is the latter (NumPy converts
 * it like any other value, wrapping), anything else is taken to be a Python int. */
static int
python_int(const KnInstr *arg)
{
    if (arg->type != &kn_type_int64)
        return 0;
    return !(arg->op == KN_OP_GETITEM && arg->args[0]->type &&
             arg->args[0]->type->kind == KN_TY_ARRAY);
}

/* A Python int used as integer dtype d (a weak scalar: uint8 array + 300) must fit d, or it is
 * NumPy 2's OverflowError "Python integer 300 out of bounds for uint8". One check per
 * operation, before its loop (a constant folds). below_ok/above_ok: a value below d's minimum /
 * above its maximum is allowed (np.clip's lower and upper bounds). */
void
kn_lower_check_python_int(L *l, KnInstr *arg, const KnType *d, int below_ok, int above_ok)
{
    if (python_int(arg))
        kn_lower_check_int_value(l, l->vals[arg->id], d, below_ok, above_ok, NULL);
}

/* the check of kn_lower_check_python_int on an int64 value v, made only when `when` (an i1;
 * NULL: always) holds */
void
kn_lower_check_int_value(L *l, LLVMValueRef v, const KnType *d, int below_ok, int above_ok,
                         LLVMValueRef when)
{
    if (d->kind != KN_TY_INT || (d->bits == 64 && d->is_signed))
        return;
    static const int signed_exc[] = {KN_EXC_INT_BOUNDS_I8, KN_EXC_INT_BOUNDS_I16,
                                     KN_EXC_INT_BOUNDS_I32};
    static const int unsigned_exc[] = {KN_EXC_INT_BOUNDS_U8, KN_EXC_INT_BOUNDS_U16,
                                       KN_EXC_INT_BOUNDS_U32, KN_EXC_INT_BOUNDS_U64};
    int k = d->bits == 8 ? 0 : d->bits == 16 ? 1 : d->bits == 32 ? 2 : 3;
    long long lo, hi;
    int_range(d, &lo, &hi);
    LLVMValueRef bad = LLVMConstInt(l->i1, 0, 0);
    if (!below_ok)
        bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntSLT, v, i64c(l, lo), ""), "");
    if (!above_ok)
        bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntSGT, v, i64c(l, hi), ""), "");
    if (when)
        bad = LLVMBuildAnd(l->b, bad, when, "");
    kn_lower_raise_if_args(l, bad, d->is_signed ? signed_exc[k] : unsigned_exc[k], &v, 1);
}

/* the Python ints among a node's operands, checked against the dtype they are taken as; for a
 * fused tree, every node's (leaves: the fused instruction's arguments) */
static void
check_python_ints(L *l, KnInstr *node, KnInstr *fused)
{
    KnCallImpl *impl = node->impl;
    int first = node->op == KN_OP_CALL ? 1 : 0;
    int id = node->op == KN_OP_CALL && impl ? impl->builtin : -1;
    for (int i = first; i < node->nargs; i++) {
        KnInstr *a = node->args[i];
        int leaf = !fused;
        for (int k = 0; fused && k < fused->nargs; k++)
            leaf |= fused->args[k] == a;
        if (!leaf) {
            check_python_ints(l, a, fused);
            continue;
        }
        if (!impl || !impl->operand || node->op == KN_OP_CMP || node->op == KN_OP_UNOP ||
            id == KN_BI_NP_WHERE)
            continue; /* comparisons take any int (cmp_kernel); np.where converts as NumPy's */
        if (a->type->kind == KN_TY_ARRAY)
            continue;
        int below_ok = id == KN_BI_NP_CLIP && i == 2, above_ok = id == KN_BI_NP_CLIP && i == 3;
        kn_lower_check_python_int(l, a, impl->operand, below_ok, above_ok);
    }
}

/* ---- kernels ---- */

static const KnType *
elem_type(const KnType *t)
{
    return t->kind == KN_TY_ARRAY ? t->dtype : t;
}

static LLVMValueRef binop_kernel_body(L *l, KnInstr *in, LLVMValueRef *e);

static LLVMValueRef
binop_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    l->in_ufunc = 1;
    LLVMValueRef r = binop_kernel_body(l, in, e);
    l->in_ufunc = 0;
    return r;
}

static LLVMValueRef
binop_kernel_body(L *l, KnInstr *in, LLVMValueRef *e)
{
    KnCallImpl *impl = in->impl;
    const KnType *op = impl->operand, *ta = elem_type(in->args[0]->type),
                 *tb = elem_type(in->args[1]->type);
    if (in->aux == KN_BIN_POW && op->kind == KN_TY_INT && op->bits < 64) {
        /* small integer powers: compute in 64 bits, wrap to the dtype */
        const KnType *wide = op->is_signed ? &kn_type_int64 : &kn_type_uint64;
        LLVMValueRef r = kn_lower_binop(l, KN_BIN_POW, e[0], e[1], wide, ta, tb);
        return kn_lower_convert(l, r, wide, in->type->dtype);
    }
    if (op->kind == KN_TY_BOOL && in->aux == KN_BIN_ADD) /* NumPy: logical or */
        return LLVMBuildOr(l->b, kn_lower_convert(l, e[0], ta, op),
                           kn_lower_convert(l, e[1], tb, op), "");
    LLVMValueRef r = kn_lower_binop(l, (KnBinop)in->aux, e[0], e[1], op, ta, tb);
    return kn_lower_convert(l, r, op, in->type->dtype);
}

static LLVMValueRef
cmp_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    KnCallImpl *impl = in->impl;
    const KnType *ta = elem_type(in->args[0]->type), *tb = elem_type(in->args[1]->type);
    if (impl->operand->kind == KN_TY_INT && ta->kind == KN_TY_INT && tb->kind == KN_TY_INT &&
        ta != tb && (python_int(in->args[0]) || python_int(in->args[1]))) {
        /* an integer array against a Python int of any value (uint8 < 300, int8 > -129): NumPy 2
         * compares the values exactly; both fit in 128 bits */
        static const LLVMIntPredicate pred[] = {
            [KN_CMP_EQ] = LLVMIntEQ,  [KN_CMP_NE] = LLVMIntNE,  [KN_CMP_LT] = LLVMIntSLT,
            [KN_CMP_LE] = LLVMIntSLE, [KN_CMP_GT] = LLVMIntSGT, [KN_CMP_GE] = LLVMIntSGE,
        };
        LLVMTypeRef w = LLVMInt128TypeInContext(l->ctx);
        LLVMValueRef a =
            ta->is_signed ? LLVMBuildSExt(l->b, e[0], w, "") : LLVMBuildZExt(l->b, e[0], w, "");
        LLVMValueRef b =
            tb->is_signed ? LLVMBuildSExt(l->b, e[1], w, "") : LLVMBuildZExt(l->b, e[1], w, "");
        if (in->aux <= KN_CMP_GE)
            return LLVMBuildICmp(l->b, pred[in->aux], a, b, "");
    }
    return kn_lower_cmp(l, (KnCmp)in->aux, e[0], e[1], ta, tb, impl->operand);
}

static LLVMValueRef
unop_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    const KnType *d = in->type->dtype;
    if (in->aux == KN_UN_NEG)
        return d->kind == KN_TY_INT ? LLVMBuildNeg(l->b, e[0], "")
               : d->kind == KN_TY_FLOAT
                   ? kn_lower_fmf(l, LLVMBuildFNeg(l->b, e[0], ""))
                   : kn_lower_cplx(
                         l, d, LLVMBuildFNeg(l->b, LLVMBuildExtractValue(l->b, e[0], 0, ""), ""),
                         LLVMBuildFNeg(l->b, LLVMBuildExtractValue(l->b, e[0], 1, ""), ""));
    if (in->aux == KN_UN_INVERT)
        return LLVMBuildNot(l->b, e[0], "");
    return e[0];
}


/* If operand op may share memory with dest (kn_lower_may_share), copy it into a new C array first,
 * as NumPy buffers it; op->v becomes the copy on that path. Returns what to release after the
 * operation: the copy, or an array with a NULL meminfo (nothing) on the other path. */
static LLVMValueRef
copy_if_shared(L *l, KnInstr *in, Operand *op, LLVMValueRef dest, const KnType *dt)
{
    const KnType *jt = op->t;
    LLVMBasicBlockRef from = LLVMGetInsertBlock(l->b);
    LLVMBasicBlockRef copy_bb = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "overlap");
    LLVMBasicBlockRef join_bb = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "unaliased");
    LLVMBuildCondBr(l->b, kn_lower_may_share(l, op->v, jt, dest, dt), copy_bb, join_bb);
    LLVMPositionBuilderAtEnd(l->b, copy_bb);
    LLVMValueRef shape[32];
    for (int k = 0; k < jt->ndim; k++)
        shape[k] = dim(l, op->v, F_SHAPE, k);
    const KnType *tmp_t = kn_type_array(l->c->types, jt->dtype, jt->ndim, 'C', 0);
    LLVMValueRef tmp = kn_lower_array_new(l, tmp_t, shape, 0);
    Operand src[1] = {*op};
    kn_lower_elementwise_into(l, in, src, 1, kn_lower_copy_kernel, tmp, tmp_t, jt->dtype);
    LLVMBasicBlockRef copied = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, join_bb);
    LLVMPositionBuilderAtEnd(l->b, join_bb);
    LLVMTypeRef at = kn_lower_array_type(l, jt);
    LLVMValueRef v = LLVMBuildPhi(l->b, at, ""), fr = LLVMBuildPhi(l->b, at, "");
    LLVMValueRef vin[2] = {op->v, tmp}, fin[2] = {LLVMConstNull(at), tmp};
    LLVMBasicBlockRef bbs[2] = {from, copied};
    LLVMAddIncoming(v, vin, bbs, 2);
    LLVMAddIncoming(fr, fin, bbs, 2);
    op->v = v; /* the copy's strides are stored, so it reads correctly as jt (any layout) */
    return fr;
}

/* elementwise_into dest, where an array operand may overlap dest (x += x[::-1], slice
 * assignment, out=, views of one buffer passed from Python): each such operand is first
 * copied. The shapes are checked before any copy exists, so a failed check leaks nothing. A
 * copy is an owned temporary (kn_lower_own), so that a raise in the loop (x **= x[0] with a
 * negative exponent) releases it too. */
void
kn_lower_elementwise_into_unaliased(L *l, KnInstr *in, Operand *ops, int nops, Kernel kernel,
                                    LLVMValueRef dest, const KnType *dt, const KnType *ktype)
{
    LLVMValueRef dshape[32], copies[3];
    int ncopies = 0;
    for (int k = 0; k < dt->ndim; k++)
        dshape[k] = dim(l, dest, F_SHAPE, k);
    check_broadcast_to(l, ops, nops, dshape, dt->ndim);
    for (int i = 0; i < nops && ncopies < 3; i++)
        if (ops[i].t->kind == KN_TY_ARRAY && ops[i].v != dest) {
            copies[ncopies] = copy_if_shared(l, in, &ops[i], dest, dt);
            kn_lower_own(l, copies[ncopies++], ops[i].t);
        }
    kn_lower_elementwise_into(l, in, ops, nops, kernel, dest, dt, ktype);
    for (int i = 0, r = 0; i < nops && r < ncopies; i++)
        if (ops[i].t->kind == KN_TY_ARRAY && ops[i].v != dest)
            kn_lower_release_owned(l, copies[r++], ops[i].t);
}

LLVMValueRef
kn_lower_array_binop(L *l, KnInstr *in)
{
    Operand ops[2] = {{l->vals[in->args[0]->id], in->args[0]->type, NULL, {0}},
                      {l->vals[in->args[1]->id], in->args[1]->type, NULL, {0}}};
    KnCallImpl *impl = in->impl;
    check_python_ints(l, in, NULL);
    if (in->op == KN_OP_BINOP && impl->inplace) {
        LLVMValueRef dest = ops[0].v;
        /* a += a[::-1]: b may share a's memory */
        kn_lower_elementwise_into_unaliased(l, in, ops, 2, binop_kernel, dest, in->type,
                                            in->type->dtype);
        return kn_lower_new_reference(l, dest, in->type);
    }
    return elementwise(l, in, ops, 2, in->op == KN_OP_CMP ? cmp_kernel : binop_kernel);
}

LLVMValueRef
kn_lower_array_unop(L *l, KnInstr *in)
{
    Operand ops[1] = {{l->vals[in->args[0]->id], in->args[0]->type, NULL, {0}}};
    return elementwise(l, in, ops, 1, unop_kernel);
}

static LLVMValueRef
libm_pair(L *l, const char *name, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    LLVMValueRef args[2] = {a, b};
    KN_UNUSED(t); /* a and b have its LLVM type */
    return kn_lower_math(l, name, args, 2);
}

/* maximum/minimum propagate NaN; fmax/fmin ignore it. On a tie (-0.0 and 0.0) NumPy's
 * maximum/minimum return the second operand and fmax/fmin the first; for complex values
 * (ordered by real part, then imaginary part; a NaN in either part is a NaN) both return the
 * first. */
static LLVMValueRef
extreme(L *l, int is_max, int nan_wins, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    int first_on_tie = !nan_wins || t->kind == KN_TY_COMPLEX; /* NumPy's complex loops */
    KnCmp cmp =
        is_max ? (first_on_tie ? KN_CMP_GE : KN_CMP_GT) : (first_on_tie ? KN_CMP_LE : KN_CMP_LT);
    LLVMValueRef better = kn_lower_cmp(l, cmp, a, b, t, t, t);
    LLVMValueRef r = LLVMBuildSelect(l->b, better, a, b, "");
    LLVMValueRef anan = any_nan(l, a, t), bnan = any_nan(l, b, t);
    if (!anan)
        return r;
    if (nan_wins)
        return LLVMBuildSelect(l->b, anan, a, LLVMBuildSelect(l->b, bnan, b, r, ""), "");
    return LLVMBuildSelect(l->b, anan, b, LLVMBuildSelect(l->b, bnan, a, r, ""), "");
}

/* an int64 value clamped into integer dtype d's range (still an int64) */
static LLVMValueRef
clamp_to(L *l, LLVMValueRef v, const KnType *d)
{
    long long lo, hi;
    int_range(d, &lo, &hi);
    return kn_lower_smin(l, kn_lower_smax(l, v, i64c(l, lo)), i64c(l, hi));
}

/* isnan/isinf/isfinite of a float value x of LLVM type ft */
static LLVMValueRef
float_class(L *l, int id, LLVMValueRef x)
{
    if (id == KN_BI_NP_ISNAN)
        return LLVMBuildFCmp(l->b, LLVMRealUNO, x, x, "");
    LLVMTypeRef ft = LLVMTypeOf(x);
    LLVMValueRef ax = kn_lower_intrinsic(l, "llvm.fabs", &ft, 1, &x, 1);
    return LLVMBuildFCmp(l->b, id == KN_BI_NP_ISINF ? LLVMRealOEQ : LLVMRealOLT, ax,
                         LLVMConstReal(ft, 1.0 / 0.0), "");
}

/* NumPy's complex loops of rint (each part), isnan/isinf (either part), isfinite (both parts)
 * and sign (z / |z|; 0 for 0; NaN for a NaN, or for two infinite parts; an infinite part
 * alone gives its sign, on its axis) */
static LLVMValueRef
complex_ufunc(L *l, int id, LLVMValueRef z, const KnType *t)
{
    const KnType *ft = kn_type_float(t->bits / 2);
    LLVMTypeRef f = kn_lower_type(l, ft);
    LLVMValueRef re = LLVMBuildExtractValue(l->b, z, 0, ""),
                 im = LLVMBuildExtractValue(l->b, z, 1, "");
    if (id == KN_BI_NP_RINT)
        return kn_lower_cplx(l, t, kn_lower_intrinsic(l, "llvm.rint", &f, 1, &re, 1),
                             kn_lower_intrinsic(l, "llvm.rint", &f, 1, &im, 1));
    if (id != KN_BI_NP_SIGN) {
        LLVMValueRef a = float_class(l, id, re), b = float_class(l, id, im);
        return id == KN_BI_NP_ISFINITE ? LLVMBuildAnd(l->b, a, b, "") : LLVMBuildOr(l->b, a, b, "");
    }
    LLVMValueRef zero = LLVMConstReal(f, 0.0), one = LLVMConstReal(f, 1.0);
    LLVMValueRef mone = LLVMConstReal(f, -1.0), nan = LLVMConstReal(f, 0.0 / 0.0);
    LLVMValueRef abs = libm_pair(l, "hypot", re, im, ft);
    LLVMValueRef rinf = float_class(l, KN_BI_NP_ISINF, re),
                 iinf = float_class(l, KN_BI_NP_ISINF, im);
    LLVMValueRef rsign =
        LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOGT, re, zero, ""), one, mone, "");
    LLVMValueRef isign =
        LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOGT, im, zero, ""), one, mone, "");
    /* finite and nonzero: z / |z|; zero: 0 */
    LLVMValueRef nz = LLVMBuildFCmp(l->b, LLVMRealONE, abs, zero, "");
    LLVMValueRef r = LLVMBuildSelect(l->b, nz, LLVMBuildFDiv(l->b, re, abs, ""), zero, "");
    LLVMValueRef i = LLVMBuildSelect(l->b, nz, LLVMBuildFDiv(l->b, im, abs, ""), zero, "");
    /* an infinite |z|: the sign of the infinite part, on its axis; both infinite: NaN */
    LLVMValueRef inf = float_class(l, KN_BI_NP_ISINF, abs);
    r = LLVMBuildSelect(
        l->b, inf,
        LLVMBuildSelect(l->b, rinf, LLVMBuildSelect(l->b, iinf, nan, rsign, ""), zero, ""), r, "");
    i = LLVMBuildSelect(
        l->b, inf,
        LLVMBuildSelect(l->b, rinf, LLVMBuildSelect(l->b, iinf, nan, zero, ""), isign, ""), i, "");
    /* a NaN |z| */
    LLVMValueRef isnan = LLVMBuildFCmp(l->b, LLVMRealUNO, abs, abs, "");
    return kn_lower_cplx(l, t, LLVMBuildSelect(l->b, isnan, nan, r, ""),
                         LLVMBuildSelect(l->b, isnan, nan, i, ""));
}

static LLVMValueRef
ufunc_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    KnCallImpl *impl = in->impl;
    int id = impl->builtin;
    if (kn_typing_npmath_owns(id)) /* lower/npmath.c */
        return kn_lower_npmath_kernel(l, in, e);
    const KnType *op = impl->operand, *t[3];
    LLVMValueRef x[3];
    int nin = kn_typing_ufunc_nin(id);
    for (int i = 0; i < nin; i++) {
        t[i] = elem_type(in->args[i + 1]->type);
        LLVMValueRef v = e[i];
        if (id == KN_BI_NP_CLIP && i > 0 && t[i] == &kn_type_int64 && op->kind == KN_TY_INT &&
            op != &kn_type_int64) /* a Python int bound past the dtype's range bounds nothing */
            v = clamp_to(l, v, op);
        x[i] = id == KN_BI_NP_WHERE && i == 0 ? v : kn_lower_convert(l, v, t[i], op);
    }
    LLVMValueRef zero = LLVMConstNull(kn_lower_type(l, op));
    if (op->kind == KN_TY_COMPLEX &&
        (id == KN_BI_NP_RINT || id == KN_BI_NP_SIGN || id == KN_BI_NP_ISNAN ||
         id == KN_BI_NP_ISINF || id == KN_BI_NP_ISFINITE))
        return complex_ufunc(l, id, x[0], op);
    switch (id) {
    case KN_BI_NP_ISNAN:
    case KN_BI_NP_ISINF:
    case KN_BI_NP_ISFINITE:
        if (op->kind != KN_TY_FLOAT)
            return LLVMConstInt(l->i1, id == KN_BI_NP_ISFINITE, 0);
        return float_class(l, id, x[0]);
    case KN_BI_NP_SIGN: {
        LLVMValueRef one = kn_lower_convert(l, i64c(l, 1), &kn_type_int64, op);
        LLVMValueRef mone = kn_lower_convert(l, i64c(l, -1), &kn_type_int64, op);
        LLVMValueRef pos = kn_lower_cmp(l, KN_CMP_GT, x[0], zero, op, op, op);
        LLVMValueRef neg = kn_lower_cmp(l, KN_CMP_LT, x[0], zero, op, op, op);
        LLVMValueRef rest = zero;
        if (op->kind == KN_TY_FLOAT) /* NaN stays NaN, zeros become +0 */
            rest = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, x[0], x[0], ""), x[0],
                                   zero, "");
        return LLVMBuildSelect(l->b, pos, one, LLVMBuildSelect(l->b, neg, mone, rest, ""), "");
    }
    case KN_BI_NP_RINT: {
        LLVMTypeRef ft = LLVMTypeOf(x[0]);
        return kn_lower_intrinsic(l, "llvm.rint", &ft, 1, &x[0], 1);
    }
    case KN_BI_NP_ADD:
    case KN_BI_NP_SUBTRACT:
    case KN_BI_NP_MULTIPLY:
    case KN_BI_NP_DIVIDE:
    case KN_BI_NP_FLOOR_DIVIDE:
    case KN_BI_NP_REMAINDER: {
        static const struct {
            int id;
            KnBinop op;
        } ops[] = {{KN_BI_NP_ADD, KN_BIN_ADD},
                   {KN_BI_NP_SUBTRACT, KN_BIN_SUB},
                   {KN_BI_NP_MULTIPLY, KN_BIN_MUL},
                   {KN_BI_NP_DIVIDE, KN_BIN_TRUEDIV},
                   {KN_BI_NP_FLOOR_DIVIDE, KN_BIN_FLOORDIV},
                   {KN_BI_NP_REMAINDER, KN_BIN_MOD}};
        KnBinop bop = KN_BIN_ADD;
        for (int i = 0; i < KN_ARRAY_LEN(ops); i++)
            if (ops[i].id == id)
                bop = ops[i].op;
        if (op->kind == KN_TY_BOOL && bop == KN_BIN_ADD)
            return LLVMBuildOr(l->b, x[0], x[1], "");
        l->in_ufunc = 1;
        LLVMValueRef r = kn_lower_binop(l, bop, x[0], x[1], op, op, op);
        l->in_ufunc = 0;
        return r;
    }
    case KN_BI_NP_MAXIMUM:
    case KN_BI_NP_MINIMUM:
        return extreme(l, id == KN_BI_NP_MAXIMUM, 1, x[0], x[1], op);
    case KN_BI_NP_FMAX:
    case KN_BI_NP_FMIN:
        return extreme(l, id == KN_BI_NP_FMAX, 0, x[0], x[1], op);
    case KN_BI_NP_POWER: {
        l->in_ufunc = 1;
        if (op->kind == KN_TY_INT && op->bits < 64) { /* as binop_kernel_body: 64 bits, wrap */
            const KnType *wide = op->is_signed ? &kn_type_int64 : &kn_type_uint64;
            LLVMValueRef r = kn_lower_binop(l, KN_BIN_POW, kn_lower_convert(l, x[0], op, wide),
                                            kn_lower_convert(l, x[1], op, wide), wide, wide, wide);
            l->in_ufunc = 0;
            return kn_lower_convert(l, r, wide, op);
        }
        LLVMValueRef r = kn_lower_binop(l, KN_BIN_POW, x[0], x[1], op, op, op);
        l->in_ufunc = 0;
        return r;
    }
    case KN_BI_NP_ARCTAN2:
        return libm_pair(l, "atan2", x[0], x[1], op);
    case KN_BI_NP_HYPOT:
        return libm_pair(l, "hypot", x[0], x[1], op);
    case KN_BI_NP_WHERE:
        return LLVMBuildSelect(l->b, kn_lower_truth(l, x[0], t[0]), x[1], x[2], "");
    case KN_BI_NP_CLIP:
        return extreme(l, 0, 1, extreme(l, 1, 1, x[0], x[1], op), x[2], op);
    default:
        return kn_lower_ufunc_scalar(l, id, e[0], t[0], op, impl->result);
    }
}

/* NumPy's math functions: elementwise over arrays (broadcast, into out= when given), or
 * directly on scalars */
LLVMValueRef
kn_lower_array_ufunc(L *l, KnInstr *in)
{
    KnCallImpl *impl = in->impl;
    int nin = kn_typing_ufunc_nin(impl->builtin);
    Operand ops[3];
    LLVMValueRef e[3];
    int any_array = 0;
    for (int i = 0; i < nin; i++) {
        ops[i] = (Operand){l->vals[in->args[i + 1]->id], in->args[i + 1]->type, NULL, {0}};
        e[i] = ops[i].v;
        any_array |= ops[i].t->kind == KN_TY_ARRAY;
    }
    if (!any_array && !impl->inplace && in->type->kind != KN_TY_ARRAY) /* np.where: 0-d */
        return kn_lower_convert(l, ufunc_kernel(l, in, e), impl->result, in->type);
    for (int i = 0; i < nin; i++) /* as check_python_ints, with or without out= */
        if (ops[i].t->kind != KN_TY_ARRAY && impl->builtin != KN_BI_NP_WHERE)
            kn_lower_check_python_int(l, in->args[i + 1], impl->operand,
                                      impl->builtin == KN_BI_NP_CLIP && i == 1,
                                      impl->builtin == KN_BI_NP_CLIP && i == 2);
    if (impl->inplace) {
        KnInstr *out = kn_typing_arg(in, nin, "out");
        LLVMValueRef dest = l->vals[out->id];
        kn_lower_elementwise_into_unaliased(l, in, ops, nin, ufunc_kernel, dest, out->type,
                                            impl->result);
        return kn_lower_new_reference(l, dest, out->type);
    }
    return kn_lower_elementwise_into(l, in, ops, nin, ufunc_kernel, NULL, in->type, impl->result);
}

LLVMValueRef
kn_lower_copy_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    KN_UNUSED(in);
    KN_UNUSED(l);
    return e[0];
}

LLVMValueRef
kn_lower_array_copy(L *l, KnInstr *in, LLVMValueRef a, const KnType *t)
{
    Operand ops[1] = {{a, t, NULL, {0}}};
    return elementwise(l, in, ops, 1, kn_lower_copy_kernel);
}


/* ---- fused array expressions (passes/fuse.c) ---- */

static LLVMValueRef
fused_eval(L *l, KnInstr *fused, KnInstr *node, LLVMValueRef *e)
{
    LLVMValueRef vals[3];
    int first = node->op == KN_OP_CALL ? 1 : 0;
    for (int i = first; i < node->nargs && i - first < 3; i++) {
        KnInstr *a = node->args[i];
        int leaf = -1;
        for (int k = 0; k < fused->nargs; k++)
            if (fused->args[k] == a)
                leaf = k;
        vals[i - first] = leaf >= 0 ? e[leaf] : fused_eval(l, fused, a, e);
    }
    switch (node->op) {
    case KN_OP_BINOP:
        return binop_kernel(l, node, vals);
    case KN_OP_CMP:
        return cmp_kernel(l, node, vals);
    case KN_OP_UNOP:
        return unop_kernel(l, node, vals);
    default:
        return ufunc_kernel(l, node, vals);
    }
}

static LLVMValueRef
fused_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    return fused_eval(l, in, in->imm.ptr, e);
}

LLVMValueRef
kn_lower_fused(L *l, KnInstr *in)
{
    Operand ops[8];
    check_python_ints(l, in->imm.ptr, in);
    for (int i = 0; i < in->nargs && i < 8; i++)
        ops[i] = (Operand){l->vals[in->args[i]->id], in->args[i]->type, NULL, {0}};
    return kn_lower_elementwise_into(l, in, ops, in->nargs, fused_kernel, NULL, in->type,
                                     in->type->dtype);
}
