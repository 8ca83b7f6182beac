/* index.c - indexing arrays: the parts of an index (ints, slices, None, Ellipsis), views made
 * from them, element pointers, a[i] and a[i] = v (a view filled or copied into, safe when the
 * value overlaps the target). The array value itself and its reference counting are array.c's;
 * the elementwise copy is elementwise.c's. */
#include "lower/array.h"

/* ---- elements ---- */


/* ---- views: indexing with ints, slices, None and Ellipsis ---- */

enum { P_INT, P_SLICE, P_NONE, P_ELLIPSIS, P_ARRAY, P_MASK };

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
                      : it->kind == KN_TY_ARRAY ? (it->dtype->kind == KN_TY_BOOL ? P_MASK : P_ARRAY)
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

/* The view an index selects (vt: its type, from typing); shares a's meminfo (increfed when
 * incref). Advanced parts (arrays) keep the axes they index whole: axis[i] is then the first
 * view axis of part i and orig[i] the array's axis (lower/index.c's fancy indexing). */
static LLVMValueRef
view_of_parts(L *l, LLVMValueRef a, const KnType *t, IndexPart *parts, int np, const KnType *vt,
              int incref, int *axis, int *orig)
{
    LLVMValueRef data = field(l, a, F_DATA), shape[64], strides[64];
    int k = 0, out = 0, consumed = 0;
    for (int i = 0; i < np; i++)
        consumed += parts[i].kind == P_INT || parts[i].kind == P_SLICE || parts[i].kind == P_ARRAY
                        ? 1
                    : parts[i].kind == P_MASK ? parts[i].t->ndim
                                              : 0;
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
        if (p->kind == P_ARRAY || p->kind == P_MASK) {
            axis[i] = out;
            orig[i] = k;
            for (int e = 0; e < (p->kind == P_MASK ? p->t->ndim : 1); e++, k++) {
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
    if (incref)
        kn_lower_incref(l, v, vt);
    return v;
}

static LLVMValueRef
make_view(L *l, LLVMValueRef a, const KnType *t, IndexPart *parts, int np, const KnType *vt)
{
    return view_of_parts(l, a, t, parts, np, vt, 1, NULL, NULL);
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

/* ---- advanced indexing: integer and boolean arrays (runtime/fancy.c does the work) ---- */

static int
dt_code(const KnType *d)
{
    switch (d->kind) {
    case KN_TY_BOOL:
        return KN_DT_BOOL;
    case KN_TY_INT: {
        int k = d->bits == 8 ? 0 : d->bits == 16 ? 1 : d->bits == 32 ? 2 : 3;
        return (d->is_signed ? KN_DT_I8 : KN_DT_U8) + k;
    }
    case KN_TY_FLOAT:
        return d->bits == 32 ? KN_DT_F32 : KN_DT_F64;
    default:
        return d->bits == 64 ? KN_DT_C64 : KN_DT_C128;
    }
}

/* a pointer to a copy of array value a in memory, its strides written out (the runtime reads
 * them; a C array's are otherwise implied by its shape) */
static LLVMValueRef
spill_array(L *l, LLVMValueRef a, const KnType *t)
{
    if (t->layout == 'C' && t->ndim) {
        LLVMValueRef sts = field(l, a, F_STRIDES);
        for (int k = 0; k < t->ndim; k++)
            sts = LLVMBuildInsertValue(l->b, sts, stride(l, a, t, k), (unsigned)k, "");
        a = LLVMBuildInsertValue(l->b, a, sts, F_STRIDES, "");
    }
    LLVMValueRef p = kn_lower_entry_alloca(l, kn_lower_array_type(l, t), "arr");
    LLVMBuildStore(l->b, a, p);
    return p;
}

typedef struct Fancy {
    LLVMValueRef view, advw; /* the spilled basic view, the advanced indices' words */
    const KnType *vt;
    int nadv, place;
} Fancy;

/* the basic view of a fancy index and the description of its advanced parts */
static void
fancy_prepare(L *l, LLVMValueRef a, const KnType *t, IndexPart *parts, int np, Fancy *f)
{
    int ints = 0, nones = 0, axis[32], orig[32], first = -1, last = -1, adjacent = 1;
    for (int i = 0; i < np; i++) {
        ints += parts[i].kind == P_INT;
        nones += parts[i].kind == P_NONE;
        int adv = parts[i].kind == P_ARRAY || parts[i].kind == P_MASK || parts[i].kind == P_INT;
        if (adv) {
            if (last >= 0 && last != i - 1)
                adjacent = 0;
            if (first < 0)
                first = i;
            last = i;
        }
    }
    f->vt = kn_type_array(l->c->types, t->dtype, t->ndim - ints + nones, 'A', t->readonly);
    LLVMValueRef v = view_of_parts(l, a, t, parts, np, f->vt, 0, axis, orig);
    f->view = spill_array(l, v, f->vt);
    f->nadv = 0;
    for (int i = 0; i < np; i++)
        f->nadv += parts[i].kind == P_ARRAY || parts[i].kind == P_MASK;
    f->advw = kn_lower_entry_alloca(l, LLVMArrayType2(l->i64, (uint64_t)(4 * f->nadv)), "adv");
    int j = 0, first_axis = -1;
    for (int i = 0; i < np; i++) {
        if (parts[i].kind != P_ARRAY && parts[i].kind != P_MASK)
            continue;
        if (first_axis < 0)
            first_axis = axis[i];
        LLVMValueRef w[4] = {
            LLVMBuildPtrToInt(l->b, spill_array(l, parts[i].v, parts[i].t), l->i64, ""),
            i64c(l, parts[i].t->ndim), i64c(l, dt_code(parts[i].t->dtype)),
            i64c(l, axis[i] | (orig[i] << 16))};
        for (int k = 0; k < 4; k++, j++) {
            LLVMValueRef off = i64c(l, j);
            LLVMBuildStore(l->b, w[k], LLVMBuildInBoundsGEP2(l->b, l->i64, f->advw, &off, 1, ""));
        }
    }
    /* adjacent advanced indices: their broadcast part replaces them (after the free axes that
     * come first), else it goes first */
    f->place = adjacent ? first_axis : 0;
}

/* raise what the runtime reported (status -1: nothing) */
static void
fancy_check(L *l, LLVMValueRef status, LLVMValueRef err)
{
    LLVMValueRef args[3];
    for (int k = 0; k < 3; k++) {
        LLVMValueRef off = i64c(l, k);
        args[k] =
            LLVMBuildLoad2(l->b, l->i64, LLVMBuildInBoundsGEP2(l->b, l->i64, err, &off, 1, ""), "");
    }
    kn_lower_raise_index_if(l, LLVMBuildICmp(l->b, LLVMIntNE, status, i64c(l, -1), ""), status,
                            args, 3);
}

static LLVMValueRef
fancy_get(L *l, LLVMValueRef a, const KnType *t, IndexPart *parts, int np, const KnType *rt)
{
    Fancy f;
    fancy_prepare(l, a, t, parts, np, &f);
    LLVMValueRef out = kn_lower_entry_alloca(l, kn_lower_array_type(l, rt), "fancy");
    LLVMValueRef err = kn_lower_entry_alloca(l, LLVMArrayType2(l->i64, 3), "err");
    LLVMTypeRef ps[9] = {l->ptr, l->i32, l->i64, l->ptr, l->i32, l->i32, l->ptr, l->i32, l->ptr};
    LLVMValueRef args[9] = {f.view,
                            LLVMConstInt(l->i32, (unsigned long long)f.vt->ndim, 0),
                            i64c(l, itemsize(t->dtype)),
                            f.advw,
                            LLVMConstInt(l->i32, (unsigned long long)f.nadv, 0),
                            LLVMConstInt(l->i32, (unsigned long long)f.place, 0),
                            out,
                            LLVMConstInt(l->i32, (unsigned long long)rt->ndim, 0),
                            err};
    LLVMValueRef st = kn_lower_extern(l, "kn_rt_fancy_get", l->i64, ps, 9, args);
    fancy_check(l, st, err);
    return LLVMBuildLoad2(l->b, kn_lower_array_type(l, rt), out, "");
}

/* a[idx] = v: v (an array converted to a's dtype, or a scalar as a 0-d array) is broadcast to
 * the indexing result and stored through the index */
static void
fancy_set(L *l, KnInstr *in, LLVMValueRef a, const KnType *t, IndexPart *parts, int np,
          LLVMValueRef v, const KnType *vt)
{
    const KnType *d = t->dtype;
    LLVMValueRef vp;
    int vnd = 0;
    if (vt->kind == KN_TY_ARRAY) {
        if (vt->dtype != d) {
            const KnType *ct = kn_type_array(l->c->types, (KnType *)d, vt->ndim, 'C', 0);
            Operand op = {v, vt, NULL, {0}};
            v = kn_lower_elementwise_into(l, in, &op, 1, kn_lower_copy_kernel, NULL, ct, vt->dtype);
            vt = ct;
        }
        vp = spill_array(l, v, vt);
        vnd = vt->ndim;
    } else {
        LLVMValueRef item =
            kn_lower_entry_alloca(l, d->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, d), "item");
        store_elem(l, d, kn_lower_convert(l, v, vt, d), item);
        const KnType *zt = kn_type_array(l->c->types, (KnType *)d, 0, 'C', 0);
        LLVMValueRef z = LLVMConstNull(kn_lower_array_type(l, zt));
        z = LLVMBuildInsertValue(l->b, z, i64c(l, 1), F_NITEMS, "");
        z = LLVMBuildInsertValue(l->b, z, i64c(l, itemsize(d)), F_ITEMSIZE, "");
        z = LLVMBuildInsertValue(l->b, z, item, F_DATA, "");
        vp = kn_lower_entry_alloca(l, kn_lower_array_type(l, zt), "value");
        LLVMBuildStore(l->b, z, vp);
    }
    Fancy f;
    fancy_prepare(l, a, t, parts, np, &f);
    LLVMValueRef err = kn_lower_entry_alloca(l, LLVMArrayType2(l->i64, 3), "err");
    LLVMTypeRef ps[9] = {l->ptr, l->i32, l->i64, l->ptr, l->i32, l->i32, l->ptr, l->i32, l->ptr};
    LLVMValueRef args[9] = {f.view,
                            LLVMConstInt(l->i32, (unsigned long long)f.vt->ndim, 0),
                            i64c(l, itemsize(d)),
                            f.advw,
                            LLVMConstInt(l->i32, (unsigned long long)f.nadv, 0),
                            LLVMConstInt(l->i32, (unsigned long long)f.place, 0),
                            vp,
                            LLVMConstInt(l->i32, (unsigned long long)vnd, 0),
                            err};
    LLVMValueRef st = kn_lower_extern(l, "kn_rt_fancy_set", l->i64, ps, 9, args);
    fancy_check(l, st, err);
}

static int
has_fancy(IndexPart *parts, int np)
{
    for (int i = 0; i < np; i++)
        if (parts[i].kind == P_ARRAY || parts[i].kind == P_MASK)
            return 1;
    return 0;
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
    if (has_fancy(parts, np))
        return fancy_get(l, a, t, parts, np, in->type);
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
    if (has_fancy(parts, np)) {
        fancy_set(l, in, a, t, parts, np, v, vt);
        return;
    }
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
