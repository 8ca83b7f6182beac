/* index.c - indexing arrays: the parts of an index (ints, slices, None, Ellipsis), views made
 * from them, element pointers, a[i] and a[i] = v (a view filled or copied into, safe when the
 * value overlaps the target). The array value itself and its reference counting are array.c's;
 * the elementwise copy is elementwise.c's. */
#include "lower/array.h"

/* ---- elements ---- */


/* ---- views: indexing with ints, slices, None and Ellipsis ---- */

enum { P_INT, P_SLICE, P_NONE, P_ELLIPSIS };

typedef struct IndexPart {
    int kind;
    LLVMValueRef v;
    const KnType *t;
} IndexPart;

static int
index_parts(L *l, LLVMValueRef v, const KnType *t, IndexPart *out)
{
    int n = t->kind == KN_TY_TUPLE ? t->n : 1;
    for (int i = 0; i < n && i < 32; i++) {
        const KnType *it = t->kind == KN_TY_TUPLE ? t->items[i] : t;
        LLVMValueRef iv =
            t->kind == KN_TY_TUPLE ? LLVMBuildExtractValue(l->b, v, (unsigned)i, "") : v;
        out[i].v = iv;
        out[i].t = it;
        out[i].kind = it->kind == KN_TY_SLICE   ? P_SLICE
                      : it->kind == KN_TY_NONE  ? P_NONE
                      : it == &kn_type_ellipsis ? P_ELLIPSIS
                                                : P_INT;
    }
    return n;
}

/* one bound of a slice against an axis of length len (Python's PySlice_AdjustIndices) */
static LLVMValueRef
slice_bound(L *l, LLVMValueRef s, LLVMValueRef len, LLVMValueRef lower, LLVMValueRef upper,
            LLVMValueRef dflt)
{
    LLVMValueRef missing = LLVMBuildICmp(l->b, LLVMIntEQ, s, i64c(l, INT64_MIN), "");
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, s, i64c(l, 0), "");
    LLVMValueRef adj =
        LLVMBuildSelect(l->b, neg, kn_lower_smax(l, LLVMBuildAdd(l->b, s, len, ""), lower),
                        kn_lower_smin(l, s, upper), "");
    return LLVMBuildSelect(l->b, missing, dflt, adj, "");
}

static void
slice_indices(L *l, LLVMValueRef sl, LLVMValueRef len, LLVMValueRef *start, LLVMValueRef *n,
              LLVMValueRef *step)
{
    *step = LLVMBuildExtractValue(l->b, sl, 2, "");
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, *step, i64c(l, 0), "");
    LLVMValueRef lower = LLVMBuildSelect(l->b, neg, i64c(l, -1), i64c(l, 0), "");
    LLVMValueRef upper =
        LLVMBuildSelect(l->b, neg, LLVMBuildSub(l->b, len, i64c(l, 1), ""), len, "");
    *start = slice_bound(l, LLVMBuildExtractValue(l->b, sl, 0, ""), len, lower, upper,
                         LLVMBuildSelect(l->b, neg, upper, lower, ""));
    LLVMValueRef stop = slice_bound(l, LLVMBuildExtractValue(l->b, sl, 1, ""), len, lower, upper,
                                    LLVMBuildSelect(l->b, neg, lower, upper, ""));
    /* length: (stop - start - 1) / step + 1 when non-empty, for either sign */
    LLVMValueRef diff = LLVMBuildSelect(l->b, neg, LLVMBuildSub(l->b, *start, stop, ""),
                                        LLVMBuildSub(l->b, stop, *start, ""), "");
    LLVMValueRef astep = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, *step, ""), *step, "");
    LLVMValueRef cnt =
        LLVMBuildAdd(l->b, LLVMBuildSDiv(l->b, LLVMBuildSub(l->b, diff, i64c(l, 1), ""), astep, ""),
                     i64c(l, 1), "");
    *n = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, diff, i64c(l, 0), ""), cnt,
                         i64c(l, 0), "");
}

/* a negative index counts from the end; with boundscheck, IndexError names index, axis, size */
static LLVMValueRef
wrap_index(L *l, LLVMValueRef i, const KnType *it, LLVMValueRef len, int axis)
{
    LLVMValueRef orig = kn_lower_convert(l, i, it, &kn_type_int64);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, orig, i64c(l, 0), "");
    i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, orig, len, ""), orig, "");
    if (l->c->boundscheck) {
        LLVMValueRef args[3] = {orig, i64c(l, axis), len};
        kn_lower_raise_if_args(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, len, ""), KN_EXC_ARRAY_INDEX,
                               args, 3);
    }
    return i;
}

/* The view an index selects (vt: its type, from typing); shares a's meminfo (increfed). */
static LLVMValueRef
make_view(L *l, LLVMValueRef a, const KnType *t, IndexPart *parts, int np, const KnType *vt)
{
    LLVMValueRef data = field(l, a, F_DATA), shape[64], strides[64];
    int k = 0, out = 0, consumed = 0;
    for (int i = 0; i < np; i++)
        consumed += parts[i].kind == P_INT || parts[i].kind == P_SLICE;
    for (int i = 0; i < np; i++) {
        IndexPart *p = &parts[i];
        if (p->kind == P_NONE) {
            shape[out] = i64c(l, 1);
            strides[out++] = i64c(l, 0);
            continue;
        }
        if (p->kind == P_ELLIPSIS) {
            for (int e = 0; e < t->ndim - consumed; e++, k++) {
                shape[out] = dim(l, a, F_SHAPE, k);
                strides[out++] = stride(l, a, t, k);
            }
            continue;
        }
        LLVMValueRef len = dim(l, a, F_SHAPE, k), st = stride(l, a, t, k);
        if (p->kind == P_INT) {
            LLVMValueRef ix = wrap_index(l, p->v, p->t, len, k);
            data = offset_ptr(l, data, LLVMBuildMul(l->b, ix, st, ""));
        } else {
            LLVMValueRef start, n, step;
            slice_indices(l, p->v, len, &start, &n, &step);
            data = offset_ptr(l, data, LLVMBuildMul(l->b, start, st, ""));
            shape[out] = n;
            strides[out++] = LLVMBuildMul(l->b, st, step, "");
        }
        k++;
    }
    for (; k < t->ndim; k++) {
        shape[out] = dim(l, a, F_SHAPE, k);
        strides[out++] = stride(l, a, t, k);
    }
    LLVMValueRef v = LLVMGetUndef(kn_lower_array_type(l, vt));
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_MEMINFO), F_MEMINFO, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_PARENT), F_PARENT, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, a, F_ITEMSIZE), F_ITEMSIZE, "");
    v = LLVMBuildInsertValue(l->b, v, data, F_DATA, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(l->i64, (uint64_t)vt->ndim)), sts = sh;
    LLVMValueRef nitems = i64c(l, 1);
    for (int d = 0; d < vt->ndim; d++) {
        sh = LLVMBuildInsertValue(l->b, sh, shape[d], (unsigned)d, "");
        sts = LLVMBuildInsertValue(l->b, sts, strides[d], (unsigned)d, "");
        nitems = LLVMBuildMul(l->b, nitems, shape[d], "");
    }
    v = LLVMBuildInsertValue(l->b, v, sh, F_SHAPE, "");
    v = LLVMBuildInsertValue(l->b, v, sts, F_STRIDES, "");
    v = LLVMBuildInsertValue(l->b, v, nitems, F_NITEMS, "");
    kn_lower_incref(l, v, vt);
    return v;
}

/* the element an all-int index selects */
static LLVMValueRef
elem_ptr(L *l, LLVMValueRef a, const KnType *t, IndexPart *parts, int np)
{
    LLVMValueRef off = i64c(l, 0);
    for (int k = 0; k < np; k++) {
        LLVMValueRef i = wrap_index(l, parts[k].v, parts[k].t, dim(l, a, F_SHAPE, k), k);
        off = LLVMBuildAdd(l->b, off, LLVMBuildMul(l->b, i, stride(l, a, t, k), ""), "");
    }
    return offset_ptr(l, field(l, a, F_DATA), off);
}

LLVMValueRef
kn_lower_array_getitem(L *l, KnInstr *in)
{
    const KnType *t = in->args[0]->type;
    LLVMValueRef a = l->vals[in->args[0]->id];
    IndexPart parts[32];
    int np = index_parts(l, l->vals[in->args[1]->id], in->args[1]->type, parts);
    if (in->aux > 0) { /* x, y = a: the length must match the targets */
        LLVMValueRef len = dim(l, a, F_SHAPE, 0);
        LLVMValueRef args[2] = {i64c(l, in->aux), len};
        kn_lower_raise_if_args(l, LLVMBuildICmp(l->b, LLVMIntNE, len, i64c(l, in->aux), ""),
                               KN_EXC_UNPACK, args, 2);
    }
    if (in->type->kind != KN_TY_ARRAY)
        return load_elem(l, t->dtype, elem_ptr(l, a, t, parts, np));
    return make_view(l, a, t, parts, np, in->type);
}

LLVMValueRef
kn_lower_array_const_slice(L *l, KnInstr *in)
{
    const KnSlice *s = in->imm.ptr;
    LLVMValueRef sl = LLVMGetUndef(kn_lower_type(l, &kn_type_slice));
    sl = LLVMBuildInsertValue(l->b, sl, i64c(l, s->has_start ? s->start : INT64_MIN), 0, "");
    sl = LLVMBuildInsertValue(l->b, sl, i64c(l, s->has_stop ? s->stop : INT64_MIN), 1, "");
    sl = LLVMBuildInsertValue(l->b, sl, i64c(l, s->has_step ? s->step : 1), 2, "");
    IndexPart p = {P_SLICE, sl, &kn_type_slice};
    return make_view(l, l->vals[in->args[0]->id], in->args[0]->type, &p, 1, in->type);
}

void
kn_lower_array_setitem(L *l, KnInstr *in)
{
    const KnType *t = in->args[0]->type, *vt = in->args[2]->type;
    const KnType *target = ((KnCallImpl *)in->impl)->operand;
    LLVMValueRef a = l->vals[in->args[0]->id], v = l->vals[in->args[2]->id];
    IndexPart parts[32];
    int np = index_parts(l, l->vals[in->args[1]->id], in->args[1]->type, parts);
    if (target->kind != KN_TY_ARRAY) {
        store_elem(l, t->dtype, kn_lower_convert(l, v, vt, t->dtype), elem_ptr(l, a, t, parts, np));
        return;
    }
    LLVMValueRef view = make_view(l, a, t, parts, np, target);
    kn_lower_own(l, view, target); /* released at the block's end, or by a raise below */
    if (vt->kind != KN_TY_ARRAY) {
        kn_lower_array_fill(l, view, target, v, vt);
    } else {
        /* a[1:] = a[:-1]: the value may share memory with the target */
        Operand ops[1] = {{v, vt, NULL, {0}}};
        kn_lower_elementwise_into_unaliased(l, in, ops, 1, kn_lower_copy_kernel, view, target,
                                            vt->dtype);
    }
}
