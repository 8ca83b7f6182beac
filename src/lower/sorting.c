/* sorting.c - lowering of the sorting family (lib/sorting.def; typed by typing/sorting.c): each
 * rule copies its inputs into fresh contiguous buffers of the dtype typing chose (or uses an
 * input as it is when it is already a C-contiguous array of that dtype and is not written),
 * checks what NumPy checks (raising its errors), and calls the runtime routine (runtime/sort.c,
 * select.c, search.c). Sorting along an axis other than the last copies a view with that axis
 * moved last, sorts its rows, and copies the rows back through the same view of the result. */
#include "lower/array.h"

#include <math.h>

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

static LLVMValueRef
i32c(L *l, int v)
{
    return LLVMConstInt(l->i32, (unsigned long long)(long long)v, 1);
}

static LLVMValueRef
f64c(L *l, double v)
{
    return LLVMConstReal(l->f64, v);
}

static LLVMValueRef
data(L *l, LLVMValueRef a)
{
    return field(l, a, F_DATA);
}

/* a call of a runtime routine returning nothing */
static void
rt_void(L *l, const char *name, LLVMTypeRef *params, int n, LLVMValueRef *args)
{
    kn_lower_extern(l, name, LLVMVoidTypeInContext(l->ctx), params, n, args);
}

static KnType *
arr_t(L *l, const KnType *d, int ndim)
{
    return kn_type_array(l->c->types, (KnType *)d, ndim, 'C', 0);
}

/* the value of argument i (or keyword kw) of the call, and its instruction */
static KnInstr *
argn(KnInstr *in, int i, const char *kw)
{
    return kn_typing_arg(in, i, kw);
}

/* ---- buffers ---- */

/* copy src's elements (converted) into dest, an array of src's shape */
static void
copy_into(L *l, KnInstr *in, LLVMValueRef dest, const KnType *dt, LLVMValueRef src,
          const KnType *st)
{
    Operand op = {src, st, NULL, {0}};
    kn_lower_elementwise_into(l, in, &op, 1, kn_lower_copy_kernel, dest, dt, st->dtype);
}

/* a new owned C array of type rt (a's dtype) with a copy of a's bytes, a being C-contiguous:
 * one memcpy, far less code to optimize than an elementwise loop (first calls) */
static LLVMValueRef
memcpy_copy(L *l, LLVMValueRef a, const KnType *t, const KnType *rt)
{
    LLVMValueRef shape[32], n = field(l, a, F_NITEMS);
    for (int k = 0; k < rt->ndim; k++)
        shape[k] = rt->ndim == t->ndim ? dim(l, a, F_SHAPE, k) : n;
    LLVMValueRef r = kn_lower_array_alloc_within(l, rt, shape, n);
    LLVMValueRef bytes = LLVMBuildMul(l->b, n, i64c(l, itemsize(t->dtype)), "");
    LLVMBuildMemCpy(l->b, data(l, r), 64, data(l, a), 1, bytes);
    return r;
}

/* a new owned C array of dtype d holding a's elements, in a's shape */
static LLVMValueRef
copy_as(L *l, KnInstr *in, LLVMValueRef a, const KnType *t, const KnType *d)
{
    if (t->layout == 'C' && t->dtype == d)
        return memcpy_copy(l, a, t, arr_t(l, d, t->ndim));
    Operand op = {a, t, NULL, {0}};
    return kn_lower_elementwise_into(l, in, &op, 1, kn_lower_copy_kernel, NULL,
                                     arr_t(l, d, t->ndim), t->dtype);
}

/* a's elements as a C-contiguous buffer of dtype d (a itself when it already is one) */
static LLVMValueRef
contig(L *l, KnInstr *in, LLVMValueRef a, const KnType *t, const KnType *d)
{
    if (t->layout == 'C' && t->dtype == d)
        return a;
    return copy_as(l, in, a, t, d);
}

/* a new owned C array of type rt with the shape (and item count) of src: without NumPy's size
 * check when its items are no wider than src's, which then cannot fail (less code) */
static LLVMValueRef
alloc_like(L *l, const KnType *rt, LLVMValueRef *shape, LLVMValueRef src, const KnType *st)
{
    if (itemsize(rt->dtype) <= itemsize(st->dtype))
        return kn_lower_array_alloc_within(l, rt, shape, field(l, src, F_NITEMS));
    return kn_lower_array_alloc(l, rt, shape);
}

/* a view of a (increfed, owned) with the given shape and strides */
static LLVMValueRef
view(L *l, LLVMValueRef a, const KnType *vt, LLVMValueRef *shape, LLVMValueRef *strides)
{
    LLVMValueRef v = kn_lower_array_rebuild(l, a, vt, shape, strides);
    kn_lower_own(l, v, vt);
    return v;
}

/* a new owned 1-d C array of dtype d holding a's elements in C order */
static LLVMValueRef
flat_copy(L *l, KnInstr *in, LLVMValueRef a, const KnType *t, const KnType *d)
{
    const KnType *ft = arr_t(l, d, 1);
    if (t->layout == 'C' && t->dtype == d)
        return memcpy_copy(l, a, t, ft);
    LLVMValueRef n = field(l, a, F_NITEMS);
    LLVMValueRef r = kn_lower_array_alloc(l, ft, &n);
    if (t->ndim == 1) {
        copy_into(l, in, r, ft, a, t);
        return r;
    }
    /* r seen in a's shape */
    const KnType *vt = arr_t(l, d, t->ndim);
    LLVMValueRef shape[32], strides[32], s = i64c(l, itemsize(d));
    for (int k = t->ndim - 1; k >= 0; k--) {
        shape[k] = dim(l, a, F_SHAPE, k);
        strides[k] = s;
        s = LLVMBuildMul(l->b, s, shape[k], "");
    }
    copy_into(l, in, view(l, r, vt, shape, strides), vt, a, t);
    return r;
}

/* a's elements in C order as a contiguous buffer of dtype d (a when it is one) */
static LLVMValueRef
flat_contig(L *l, KnInstr *in, LLVMValueRef a, const KnType *t, const KnType *d)
{
    if (t->layout == 'C' && t->dtype == d)
        return a;
    return flat_copy(l, in, a, t, d);
}

/* a view of a with axis k moved last (layout 'A'); *vt its type */
static LLVMValueRef
axis_last(L *l, LLVMValueRef a, const KnType *t, int k, const KnType **vt)
{
    *vt = kn_type_array(l->c->types, t->dtype, t->ndim, 'A', t->readonly);
    LLVMValueRef shape[32], strides[32];
    int j = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != k) {
            shape[j] = dim(l, a, F_SHAPE, i);
            strides[j++] = stride(l, a, t, i);
        }
    shape[j] = dim(l, a, F_SHAPE, k);
    strides[j] = stride(l, a, t, k);
    return view(l, a, *vt, shape, strides);
}

/* the length n of axis k and the number of rows (nitems / n, 0 when n is 0) */
static void
rows_of(L *l, LLVMValueRef a, int k, LLVMValueRef *n, LLVMValueRef *rows)
{
    *n = dim(l, a, F_SHAPE, k);
    LLVMValueRef zero = LLVMBuildICmp(l->b, LLVMIntEQ, *n, i64c(l, 0), "");
    LLVMValueRef safe = LLVMBuildSelect(l->b, zero, i64c(l, 1), *n, "");
    *rows = LLVMBuildSelect(l->b, zero, i64c(l, 0),
                            LLVMBuildSDiv(l->b, field(l, a, F_NITEMS), safe, ""), "");
}

/* a scalar converted to dtype d, in an entry-block slot (a buffer of one item) */
static LLVMValueRef
scalar_buf(L *l, LLVMValueRef v, const KnType *vt, const KnType *d)
{
    LLVMValueRef x = kn_lower_convert(l, v, vt, d);
    LLVMTypeRef et = d->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, d);
    LLVMValueRef p = kn_lower_entry_alloca(l, et, "item");
    store_elem(l, d, x, p);
    return p;
}

static LLVMValueRef
load_f64(L *l, LLVMValueRef base, LLVMValueRef i)
{
    return LLVMBuildLoad2(l->b, l->f64, LLVMBuildInBoundsGEP2(l->b, l->f64, base, &i, 1, ""), "");
}

static LLVMValueRef
not_finite(L *l, LLVMValueRef x)
{
    LLVMValueRef ax = kn_lower_intrinsic(l, "llvm.fabs", &l->f64, 1, &x, 1);
    return LLVMBuildFCmp(l->b, LLVMRealUGE, ax, f64c(l, INFINITY), "");
}

/* ---- sort, argsort ---- */

/* kth of np.partition as a scratch buffer of int64 (*nk of them), normalized, checked against
 * the axis length n (NumPy's ValueError, not raised for an empty array: no rows) and sorted by
 * the runtime */
static LLVMValueRef
kth_buffer(L *l, KnInstr *in, const KnInstr *kth, LLVMValueRef n, LLVMValueRef rows,
           LLVMValueRef *nk)
{
    const KnType *t = kth->type;
    LLVMValueRef v = l->vals[kth->id], buf;
    if (t->kind == KN_TY_ARRAY) {
        LLVMValueRef cp = copy_as(l, in, v, t, &kn_type_int64);
        buf = data(l, cp);
        *nk = field(l, cp, F_NITEMS);
    } else {
        int m = t->kind == KN_TY_TUPLE ? t->n : 1;
        buf = kn_lower_entry_alloca(l, LLVMArrayType2(l->i64, (uint64_t)(m ? m : 1)), "kth");
        for (int i = 0; i < m; i++) {
            LLVMValueRef x =
                t->kind == KN_TY_TUPLE
                    ? kn_lower_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""),
                                       t->items[i], &kn_type_int64)
                    : kn_lower_convert(l, v, t, &kn_type_int64);
            LLVMValueRef idx = i64c(l, i);
            LLVMBuildStore(l->b, x, LLVMBuildInBoundsGEP2(l->b, l->i64, buf, &idx, 1, ""));
        }
        *nk = i64c(l, m);
    }
    LLVMValueRef bad = kn_lower_entry_alloca(l, l->i64, "badkth");
    LLVMBuildStore(l->b, i64c(l, 0), bad);
    LLVMTypeRef p[4] = {l->ptr, l->i64, l->i64, l->ptr};
    LLVMValueRef a[4] = {buf, *nk, n, bad};
    LLVMValueRef rc = kn_lower_extern(l, "kn_rt_partition_kth", l->i32, p, 4, a);
    LLVMValueRef args[2] = {LLVMBuildLoad2(l->b, l->i64, bad, ""), n};
    LLVMValueRef bad_kth = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, rc, i32c(l, 0), ""),
                                        LLVMBuildICmp(l->b, LLVMIntNE, rows, i64c(l, 0), ""), "");
    bad_kth = LLVMBuildAnd(l->b, bad_kth, LLVMBuildICmp(l->b, LLVMIntNE, n, i64c(l, 0), ""), "");
    kn_lower_raise_if_args(l, bad_kth, KN_EXC_PARTITION_KTH, args, 2);
    return buf;
}

/* sort (or, with kth, partition) rows of n items in place */
static void
rt_sort(L *l, KnInstr *in, const KnInstr *kth, LLVMValueRef buf, LLVMValueRef n, LLVMValueRef rows,
        int code)
{
    if (kth) {
        LLVMValueRef nk, kb = kth_buffer(l, in, kth, n, rows, &nk);
        LLVMTypeRef p[6] = {l->ptr, l->i64, l->i64, l->i32, l->ptr, l->i64};
        LLVMValueRef a[6] = {buf, n, rows, i32c(l, code), kb, nk};
        rt_void(l, "kn_rt_partition", p, 6, a);
        return;
    }
    LLVMTypeRef p[4] = {l->ptr, l->i64, l->i64, l->i32};
    LLVMValueRef a[4] = {buf, n, rows, i32c(l, code)};
    rt_void(l, "kn_rt_sort", p, 4, a);
}

static void
rt_argsort(L *l, KnInstr *in, const KnInstr *kth, LLVMValueRef buf, LLVMValueRef n,
           LLVMValueRef rows, int code, LLVMValueRef out)
{
    if (kth) {
        LLVMValueRef nk, kb = kth_buffer(l, in, kth, n, rows, &nk);
        LLVMTypeRef p[7] = {l->ptr, l->i64, l->i64, l->i32, l->ptr, l->i64, l->ptr};
        LLVMValueRef a[7] = {buf, n, rows, i32c(l, code), kb, nk, out};
        rt_void(l, "kn_rt_argpartition", p, 7, a);
        return;
    }
    LLVMTypeRef p[5] = {l->ptr, l->i64, l->i64, l->i32, l->ptr};
    LLVMValueRef a[5] = {buf, n, rows, i32c(l, code), out};
    rt_void(l, "kn_rt_argsort", p, 5, a);
}

/* sorts; with kth (np.partition and its kin) partitions */
static LLVMValueRef
lower_sort(L *l, KnInstr *in, int id, KnInstr *src, const KnInstr *kth)
{
    KnCallImpl *impl = in->impl;
    LLVMValueRef a = l->vals[src->id], n, rows;
    const KnType *t = src->type, *d = t->dtype, *vt;
    int arg = id == KN_BI_NP_ARGSORT || id == KN_BI_ARRAY_ARGSORT || id == KN_BI_NP_ARGPARTITION ||
              id == KN_BI_ARRAY_ARGPARTITION,
        code = dt_code(d);
    int inplace = id == KN_BI_ARRAY_SORT || id == KN_BI_ARRAY_PARTITION;
    int k = (int)impl->value, last = k == t->ndim - 1;
    if (k < 0) { /* axis=None: the flattened array */
        LLVMValueRef r = flat_copy(l, in, a, t, d);
        n = field(l, r, F_NITEMS);
        if (!arg) {
            rt_sort(l, in, kth, data(l, r), n, i64c(l, 1), code);
            return r;
        }
        LLVMValueRef out = alloc_like(l, in->type, &n, r, t);
        rt_argsort(l, in, kth, data(l, r), n, i64c(l, 1), code, data(l, out));
        return out;
    }
    rows_of(l, a, k, &n, &rows);
    if (inplace) {
        if (t->layout == 'C' && last) {
            rt_sort(l, in, kth, data(l, a), n, rows, code);
        } else {
            LLVMValueRef v = axis_last(l, a, t, k, &vt), tmp = copy_as(l, in, v, vt, d);
            rt_sort(l, in, kth, data(l, tmp), n, rows, code);
            copy_into(l, in, v, vt, tmp, arr_t(l, d, t->ndim));
        }
        return LLVMConstInt(l->i8, 0, 0);
    }
    LLVMValueRef shape[32];
    for (int j = 0; j < t->ndim; j++)
        shape[j] = dim(l, a, F_SHAPE, j);
    if (last) {
        if (!arg) {
            LLVMValueRef r = copy_as(l, in, a, t, d);
            rt_sort(l, in, kth, data(l, r), n, rows, code);
            return r;
        }
        LLVMValueRef c = contig(l, in, a, t, d), out = alloc_like(l, in->type, shape, a, t);
        rt_argsort(l, in, kth, data(l, c), n, rows, code, data(l, out));
        return out;
    }
    /* another axis: sort the rows of a copy with axis k last, then copy them back in place */
    LLVMValueRef v = axis_last(l, a, t, k, &vt), tmp = copy_as(l, in, v, vt, d), res = tmp;
    const KnType *rt = arr_t(l, d, t->ndim);
    if (arg) {
        LLVMValueRef pshape[32];
        for (int j = 0; j < t->ndim; j++)
            pshape[j] = dim(l, tmp, F_SHAPE, j);
        rt = arr_t(l, &kn_type_int64, t->ndim);
        res = kn_lower_array_alloc(l, rt, pshape);
        rt_argsort(l, in, kth, data(l, tmp), n, rows, code, data(l, res));
    } else {
        rt_sort(l, in, kth, data(l, tmp), n, rows, code);
    }
    LLVMValueRef out = alloc_like(l, in->type, shape, a, t);
    LLVMValueRef ov = axis_last(l, out, in->type, k, &vt);
    copy_into(l, in, ov, vt, res, rt);
    return out;
}

/* ---- searchsorted, digitize ---- */

/* searchsorted's sorter=: a new C array of a[sorter] (dtype d; s a C array of it), NumPy's
 * checks: the same length, every index in range */
static LLVMValueRef
sorted_by(L *l, KnInstr *in, LLVMValueRef s, const KnType *d, const KnInstr *sorter)
{
    LLVMValueRef ix = contig(l, in, l->vals[sorter->id], sorter->type, &kn_type_int64);
    LLVMValueRef n = field(l, s, F_NITEMS);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, field(l, ix, F_NITEMS), n, ""),
                      KN_EXC_SORTER_SIZE);
    LLVMValueRef out = kn_lower_array_alloc_within(l, arr_t(l, d, 1), &n, n);
    LLVMValueRef bad = kn_lower_entry_alloca(l, l->i1, "badsorter");
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), bad);
    LLVMTypeRef et = d->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, d);
    Loop lp;
    kn_lower_loop_begin(l, &lp, n);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    LLVMValueRef j = LLVMBuildLoad2(
        l->b, l->i64, LLVMBuildInBoundsGEP2(l->b, l->i64, data(l, ix), &i, 1, ""), "");
    LLVMValueRef out_of = LLVMBuildICmp(l->b, LLVMIntUGE, j, n, "");
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->i1, bad, ""), out_of, ""), bad);
    j = LLVMBuildSelect(l->b, out_of, i64c(l, 0), j, "");
    LLVMValueRef x = load_elem(l, d, LLVMBuildInBoundsGEP2(l->b, et, data(l, s), &j, 1, ""));
    store_elem(l, d, x, LLVMBuildInBoundsGEP2(l->b, et, data(l, out), &i, 1, ""));
    kn_lower_loop_end(l, &lp);
    kn_lower_raise_if(l, LLVMBuildLoad2(l->b, l->i1, bad, ""), KN_EXC_SORTER_BOUNDS);
    return out;
}

/* np.searchsorted(a, v, side, sorter), a.searchsorted(v, side, sorter) and np.digitize(x, bins,
 * right): `sorted` is the array searched, `keys` the values looked up (a scalar or an array),
 * both compared in impl->operand */
static LLVMValueRef
lower_search(L *l, KnInstr *in, int id, KnInstr *sorted, KnInstr *keys, const KnInstr *sorter)
{
    KnCallImpl *impl = in->impl;
    const KnType *d = impl->operand;
    int code = dt_code(d);
    LLVMValueRef s = contig(l, in, l->vals[sorted->id], sorted->type, d);
    if (sorter && sorter->type->kind != KN_TY_NONE)
        s = sorted_by(l, in, s, d, sorter);
    LLVMValueRef ns = field(l, s, F_NITEMS), kbuf, nk, out, outp;
    const KnType *kt = keys->type;
    if (kt->kind == KN_TY_ARRAY) {
        LLVMValueRef kv = contig(l, in, l->vals[keys->id], kt, d);
        kbuf = data(l, kv);
        nk = field(l, kv, F_NITEMS);
        LLVMValueRef shape[32];
        for (int j = 0; j < kt->ndim; j++)
            shape[j] = dim(l, kv, F_SHAPE, j);
        out = alloc_like(l, in->type, shape, kv, arr_t(l, d, kt->ndim));
        outp = data(l, out);
    } else {
        kbuf = scalar_buf(l, l->vals[keys->id], kt, d);
        nk = i64c(l, 1);
        out = NULL;
        outp = kn_lower_entry_alloca(l, l->i64, "pos");
    }
    LLVMTypeRef p[7] = {l->ptr, l->i64, l->ptr, l->i64, l->i32, l->i32, l->ptr};
    if (id != KN_BI_NP_DIGITIZE) {
        LLVMValueRef a[7] = {data(l, s), ns, kbuf, nk, i32c(l, code), i32c(l, (int)impl->value),
                             outp};
        rt_void(l, "kn_rt_searchsorted", p, 7, a);
    } else {
        LLVMValueRef a[7] = {kbuf, nk, data(l, s), ns, i32c(l, code), i32c(l, (int)impl->value),
                             outp};
        LLVMValueRef rc = kn_lower_extern(l, "kn_rt_digitize", l->i32, p, 7, a);
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, rc, i32c(l, 0), ""),
                          KN_EXC_DIGITIZE_BINS);
    }
    return out ? out : LLVMBuildLoad2(l->b, l->i64, outp, "");
}

/* ---- unique ---- */

/* a's first cnt items: another reference to its memory (a 1-d C array) */
static LLVMValueRef
first_items(L *l, LLVMValueRef a, LLVMValueRef cnt)
{
    LLVMValueRef res = LLVMBuildInsertValue(l->b, a, cnt, F_NITEMS, "");
    LLVMValueRef shape = LLVMBuildInsertValue(l->b, field(l, a, F_SHAPE), cnt, 0, "");
    return LLVMBuildInsertValue(l->b, res, shape, F_SHAPE, "");
}

/* np.unique with return_index (mask bit 0), return_inverse (1), return_counts (2): a tuple */
static LLVMValueRef
lower_unique_all(L *l, KnInstr *in, int mask)
{
    KnInstr *a = argn(in, 0, "ar");
    const KnType *d = a->type->dtype, *it = arr_t(l, &kn_type_int64, 1);
    LLVMValueRef src = flat_contig(l, in, l->vals[a->id], a->type, d), n = field(l, src, F_NITEMS);
    const KnType *tt = in->type;
    LLVMValueRef vals = kn_lower_array_alloc_within(l, tt->items[0], &n, n);
    LLVMValueRef perm = kn_lower_array_alloc(l, it, &n), null = LLVMConstNull(l->ptr);
    LLVMValueRef outs[3] = {NULL, NULL, NULL};
    int m = 1;
    for (int i = 0; i < 3; i++) {
        if (!(mask & (1 << i)))
            continue;
        const KnType *ot = tt->items[m++];
        if (i == 1 && a->type->ndim > 1) { /* the inverse in the input's shape */
            LLVMValueRef shape[32];
            for (int j = 0; j < a->type->ndim; j++)
                shape[j] = dim(l, l->vals[a->id], F_SHAPE, j);
            outs[i] = kn_lower_array_alloc(l, ot, shape);
        } else {
            outs[i] = kn_lower_array_alloc(l, ot, &n);
        }
    }
    LLVMTypeRef p[8] = {l->ptr, l->i64, l->i32, l->ptr, l->ptr, l->ptr, l->ptr, l->ptr};
    LLVMValueRef args[8] = {data(l, src),
                            n,
                            i32c(l, dt_code(d)),
                            data(l, vals),
                            data(l, perm),
                            outs[0] ? data(l, outs[0]) : null,
                            outs[1] ? data(l, outs[1]) : null,
                            outs[2] ? data(l, outs[2]) : null};
    LLVMValueRef cnt = kn_lower_extern(l, "kn_rt_unique_all", l->i64, p, 8, args);
    LLVMValueRef t = LLVMGetUndef(kn_lower_type(l, tt));
    LLVMValueRef items[4] = {first_items(l, vals, cnt)};
    m = 1;
    for (int i = 0; i < 3; i++)
        if (outs[i])
            items[m++] = i == 1 ? outs[i] : first_items(l, outs[i], cnt);
    for (int i = 0; i < m; i++) { /* the tuple holds references of its own */
        kn_lower_incref(l, items[i], tt->items[i]);
        t = LLVMBuildInsertValue(l->b, t, items[i], (unsigned)i, "");
    }
    return t;
}

static LLVMValueRef
lower_unique(L *l, KnInstr *in)
{
    int mask = (int)((KnCallImpl *)in->impl)->value;
    if (mask)
        return lower_unique_all(l, in, mask);
    KnInstr *a = argn(in, 0, "ar");
    const KnType *d = a->type->dtype;
    int code = dt_code(d);
    LLVMValueRef r = flat_copy(l, in, l->vals[a->id], a->type, d), n = field(l, r, F_NITEMS);
    rt_sort(l, in, NULL, data(l, r), n, i64c(l, 1), code);
    LLVMTypeRef p[3] = {l->ptr, l->i64, l->i32};
    LLVMValueRef args[3] = {data(l, r), n, i32c(l, code)};
    LLVMValueRef cnt = kn_lower_extern(l, "kn_rt_unique", l->i64, p, 3, args);
    /* the first cnt items of the same memory: another reference to it */
    LLVMValueRef res = LLVMBuildInsertValue(l->b, r, cnt, F_NITEMS, "");
    LLVMValueRef shape = LLVMBuildInsertValue(l->b, field(l, r, F_SHAPE), cnt, 0, "");
    res = LLVMBuildInsertValue(l->b, res, shape, F_SHAPE, "");
    kn_lower_incref(l, res, in->type);
    return res;
}

/* ---- median, percentile, quantile ---- */

/* Raise exc if any of the nq doubles at q is outside [0, 1] (or NaN). */
static void
check_unit(L *l, LLVMValueRef q, LLVMValueRef nq, int exc)
{
    LLVMValueRef bad = kn_lower_entry_alloca(l, l->i1, "badq");
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), bad);
    Loop lp;
    kn_lower_loop_begin(l, &lp, nq);
    LLVMValueRef x = load_f64(l, q, kn_lower_loop_index(l, &lp));
    LLVMValueRef out = LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealULT, x, f64c(l, 0), ""),
                                   LLVMBuildFCmp(l->b, LLVMRealUGT, x, f64c(l, 1), ""), "");
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->i1, bad, ""), out, ""), bad);
    kn_lower_loop_end(l, &lp);
    kn_lower_raise_if(l, LLVMBuildLoad2(l->b, l->i1, bad, ""), exc);
}

static LLVMValueRef
to_f64(L *l, LLVMValueRef v, const KnType *t)
{
    return kn_lower_convert(l, v, t, &kn_type_float64);
}

static LLVMValueRef
call_median(L *l, LLVMValueRef buf, LLVMValueRef n, const KnType *d, int f32)
{
    if (f32) {
        LLVMTypeRef p[2] = {l->ptr, l->i64};
        LLVMValueRef args[2] = {buf, n};
        return kn_lower_extern(l, "kn_rt_median_f32", l->f32, p, 2, args);
    }
    LLVMTypeRef p[3] = {l->ptr, l->i64, l->i32};
    LLVMValueRef args[3] = {buf, n, i32c(l, dt_code(d))};
    return kn_lower_extern(l, "kn_rt_median", l->f64, p, 3, args);
}

/* the quantiles qbuf[0..nq) of the n items at buf into out (float32 items if f32, nq == 1) */
static void
call_quantiles(L *l, LLVMValueRef buf, LLVMValueRef n, const KnType *d, LLVMValueRef qbuf,
               LLVMValueRef nq, LLVMValueRef out, int f32)
{
    if (f32) {
        LLVMTypeRef p[5] = {l->ptr, l->i64, l->ptr, l->i64, l->ptr};
        LLVMValueRef args[5] = {buf, n, qbuf, nq, out};
        rt_void(l, "kn_rt_quantiles_f32", p, 5, args);
        return;
    }
    LLVMTypeRef p[6] = {l->ptr, l->i64, l->i32, l->ptr, l->i64, l->ptr};
    LLVMValueRef args[6] = {buf, n, i32c(l, dt_code(d)), qbuf, nq, out};
    rt_void(l, "kn_rt_quantiles", p, 6, args);
}

static int
is_f32(const KnType *t)
{
    const KnType *d = t->kind == KN_TY_ARRAY ? t->dtype : t;
    return d->kind == KN_TY_FLOAT && d->bits == 32;
}

/* For an int axis k: a's rows with axis k last, copied into a C buffer of rows x n items; the
 * lengths of the other axes into shape, *m their product (the rows, also when n is 0) */
static LLVMValueRef
rows_copy(L *l, KnInstr *in, KnInstr *a, int k, LLVMValueRef *n, LLVMValueRef *rows,
          LLVMValueRef *shape, LLVMValueRef *m)
{
    const KnType *t = a->type, *vt;
    LLVMValueRef av = l->vals[a->id];
    rows_of(l, av, k, n, rows);
    *m = i64c(l, 1);
    for (int i = 0, j = 0; i < t->ndim; i++)
        if (i != k) {
            shape[j] = dim(l, av, F_SHAPE, i);
            *m = LLVMBuildMul(l->b, *m, shape[j++], "");
        }
    LLVMValueRef v = axis_last(l, av, t, k, &vt);
    return copy_as(l, in, v, vt, t->dtype);
}

/* the address of row r of a rows x n buffer of dtype d */
static LLVMValueRef
row_ptr(L *l, LLVMValueRef buf, LLVMValueRef r, LLVMValueRef n, const KnType *d)
{
    return offset_ptr(l, data(l, buf),
                      LLVMBuildMul(l->b, LLVMBuildMul(l->b, r, n, ""), i64c(l, itemsize(d)), ""));
}

static LLVMValueRef
median_axis(L *l, KnInstr *in, KnInstr *a, int k)
{
    const KnType *d = a->type->dtype;
    int f32 = is_f32(in->type);
    LLVMTypeRef rt = f32 ? l->f32 : l->f64;
    LLVMValueRef n, rows, m, shape[32];
    LLVMValueRef tmp = rows_copy(l, in, a, k, &n, &rows, shape, &m);
    LLVMValueRef out = kn_lower_array_alloc(l, in->type, shape);
    Loop lp; /* nan where the axis is empty (rows is 0 then) */
    kn_lower_loop_begin(l, &lp, m);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    LLVMBuildStore(l->b, LLVMConstReal(rt, NAN),
                   LLVMBuildInBoundsGEP2(l->b, rt, data(l, out), &i, 1, ""));
    kn_lower_loop_end(l, &lp);
    kn_lower_loop_begin(l, &lp, rows);
    LLVMValueRef r = kn_lower_loop_index(l, &lp);
    LLVMValueRef v = call_median(l, row_ptr(l, tmp, r, n, d), n, d, f32);
    LLVMBuildStore(l->b, v, LLVMBuildInBoundsGEP2(l->b, rt, data(l, out), &r, 1, ""));
    kn_lower_loop_end(l, &lp);
    return out;
}

static LLVMValueRef
lower_median(L *l, KnInstr *in)
{
    KnInstr *a = argn(in, 0, "a");
    const KnType *d = a->type->dtype;
    if (((KnCallImpl *)in->impl)->value >= 0)
        return median_axis(l, in, a, (int)((KnCallImpl *)in->impl)->value);
    int f32 = is_f32(in->type);
    LLVMTypeRef rt = f32 ? l->f32 : l->f64;
    LLVMValueRef s = flat_copy(l, in, l->vals[a->id], a->type, d), n = field(l, s, F_NITEMS);
    /* the median of nothing: nan (NumPy also warns "Mean of empty slice") */
    LLVMValueRef res = kn_lower_entry_alloca(l, rt, "median");
    LLVMBuildStore(l->b, LLVMConstReal(rt, NAN), res);
    LLVMBasicBlockRef calc = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "median");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "median.done");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, n, i64c(l, 0), ""), done, calc);
    LLVMPositionBuilderAtEnd(l->b, calc);
    LLVMBuildStore(l->b, call_median(l, data(l, s), n, d, f32), res);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    return LLVMBuildLoad2(l->b, rt, res, "");
}

/* q as doubles at *qbuf, *nq of them (percentiles divided by 100, as NumPy's true_divide) */
static void
q_values(L *l, KnInstr *in, KnInstr *q, int pct, LLVMValueRef *qbuf, LLVMValueRef *nq)
{
    const KnType *qt = q->type;
    LLVMValueRef qv = l->vals[q->id];
    if (qt->kind == KN_TY_ARRAY) {
        LLVMValueRef qa = flat_copy(l, in, qv, qt, &kn_type_float64);
        *qbuf = data(l, qa);
        *nq = field(l, qa, F_NITEMS);
        if (pct) {
            Loop lp;
            kn_lower_loop_begin(l, &lp, *nq);
            LLVMValueRef i = kn_lower_loop_index(l, &lp);
            LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, l->f64, *qbuf, &i, 1, "");
            LLVMBuildStore(
                l->b, LLVMBuildFDiv(l->b, LLVMBuildLoad2(l->b, l->f64, p, ""), f64c(l, 100), ""),
                p);
            kn_lower_loop_end(l, &lp);
        }
        return;
    }
    int m = qt->kind == KN_TY_TUPLE ? qt->n : 1;
    *qbuf = kn_lower_entry_alloca(l, LLVMArrayType2(l->f64, (uint64_t)(m ? m : 1)), "q");
    for (int i = 0; i < m; i++) {
        LLVMValueRef x =
            qt->kind == KN_TY_TUPLE
                ? to_f64(l, LLVMBuildExtractValue(l->b, qv, (unsigned)i, ""), qt->items[i])
                : to_f64(l, qv, qt);
        if (pct)
            x = LLVMBuildFDiv(l->b, x, f64c(l, 100), "");
        LLVMValueRef idx = i64c(l, i);
        LLVMBuildStore(l->b, x, LLVMBuildInBoundsGEP2(l->b, l->f64, *qbuf, &idx, 1, ""));
    }
    *nq = i64c(l, m);
}

/* quantiles along axis k: out[j, ...] is quantile j of the row at ... (out[...] for a scalar q) */
static LLVMValueRef
quantile_axis(L *l, KnInstr *in, KnInstr *a, int k, LLVMValueRef qbuf, LLVMValueRef nq,
              int scalar_q)
{
    const KnType *d = a->type->dtype;
    LLVMValueRef n, rows, m, shape[33];
    LLVMValueRef tmp = rows_copy(l, in, a, k, &n, &rows, shape + 1, &m);
    LLVMValueRef empty = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, n, i64c(l, 0), ""),
                                      LLVMBuildICmp(l->b, LLVMIntSGT, m, i64c(l, 0), ""), "");
    kn_lower_raise_if(l, empty, KN_EXC_QUANTILE_EMPTY);
    shape[0] = nq;
    LLVMValueRef out = kn_lower_array_alloc(l, in->type, scalar_q ? shape + 1 : shape);
    LLVMValueRef one = NULL;
    if (!scalar_q)
        one = kn_lower_array_alloc(l, arr_t(l, &kn_type_float64, 1), &nq);
    Loop lp;
    kn_lower_loop_begin(l, &lp, rows);
    LLVMValueRef r = kn_lower_loop_index(l, &lp), row = row_ptr(l, tmp, r, n, d);
    if (scalar_q) {
        int f32 = is_f32(in->type);
        LLVMTypeRef rt = f32 ? l->f32 : l->f64;
        call_quantiles(l, row, n, d, qbuf, nq,
                       LLVMBuildInBoundsGEP2(l->b, rt, data(l, out), &r, 1, ""), f32);
    } else {
        call_quantiles(l, row, n, d, qbuf, nq, data(l, one), 0);
        Loop lj; /* out[j * rows + r] = one[j] */
        kn_lower_loop_begin(l, &lj, nq);
        LLVMValueRef j = kn_lower_loop_index(l, &lj);
        LLVMValueRef o = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, j, rows, ""), r, "");
        LLVMBuildStore(l->b, load_f64(l, data(l, one), j),
                       LLVMBuildInBoundsGEP2(l->b, l->f64, data(l, out), &o, 1, ""));
        kn_lower_loop_end(l, &lj);
    }
    kn_lower_loop_end(l, &lp);
    return out;
}

static LLVMValueRef
lower_quantile(L *l, KnInstr *in, int id)
{
    int pct = id == KN_BI_NP_PERCENTILE;
    KnInstr *a = argn(in, 0, "a"), *q = argn(in, 1, "q");
    const KnType *d = a->type->dtype;
    LLVMValueRef qbuf, nq;
    q_values(l, in, q, pct, &qbuf, &nq);
    check_unit(l, qbuf, nq, pct ? KN_EXC_PERCENTILE_RANGE : KN_EXC_QUANTILE_RANGE);
    int scalar_q = q->type->kind != KN_TY_ARRAY && q->type->kind != KN_TY_TUPLE;
    int64_t k = ((KnCallImpl *)in->impl)->value;
    if (k >= 0)
        return quantile_axis(l, in, a, (int)k, qbuf, nq, scalar_q);
    LLVMValueRef s = flat_copy(l, in, l->vals[a->id], a->type, d), n = field(l, s, F_NITEMS);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n, i64c(l, 0), ""), KN_EXC_QUANTILE_EMPTY);
    if (!scalar_q) {
        LLVMValueRef out = kn_lower_array_alloc(l, in->type, &nq);
        call_quantiles(l, data(l, s), n, d, qbuf, nq, data(l, out), 0);
        return out;
    }
    int f32 = is_f32(in->type);
    LLVMTypeRef rt = f32 ? l->f32 : l->f64;
    LLVMValueRef o = kn_lower_entry_alloca(l, rt, "quantile");
    call_quantiles(l, data(l, s), n, d, qbuf, nq, o, f32);
    return LLVMBuildLoad2(l->b, rt, o, "");
}

/* ---- interp ---- */

static LLVMValueRef
lower_interp(L *l, KnInstr *in)
{
    KnInstr *x = argn(in, 0, "x"), *xp = argn(in, 1, "xp"), *fp = argn(in, 2, "fp");
    const KnType *f = &kn_type_float64, *r = ((KnCallImpl *)in->impl)->operand;
    int cplx = r->kind == KN_TY_COMPLEX;
    LLVMTypeRef rt = kn_lower_type(l, r);
    LLVMValueRef xpv = contig(l, in, l->vals[xp->id], xp->type, f);
    LLVMValueRef fpv = contig(l, in, l->vals[fp->id], fp->type, r);
    LLVMValueRef nxp = field(l, xpv, F_NITEMS);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, nxp, i64c(l, 0), ""), KN_EXC_INTERP_EMPTY);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, field(l, fpv, F_NITEMS), nxp, ""),
                      KN_EXC_INTERP_LENGTH);
    LLVMValueRef bound[2];
    static const char *const side[] = {"left", "right"};
    for (int i = 0; i < 2; i++) {
        KnInstr *s = argn(in, 3 + i, side[i]);
        if (s && s->type->kind != KN_TY_NONE) {
            bound[i] = kn_lower_convert(l, l->vals[s->id], s->type, r);
        } else {
            LLVMValueRef j = i ? LLVMBuildSub(l->b, nxp, i64c(l, 1), "") : i64c(l, 0);
            bound[i] = LLVMBuildLoad2(l->b, rt,
                                      LLVMBuildInBoundsGEP2(l->b, rt, data(l, fpv), &j, 1, ""), "");
        }
        if (cplx) { /* passed by address: (real, imag) */
            LLVMValueRef p = kn_lower_entry_alloca(l, rt, side[i]);
            LLVMBuildStore(l->b, bound[i], p);
            bound[i] = p;
        }
    }
    LLVMValueRef xbuf, nx, out = NULL, outp;
    if (x->type->kind == KN_TY_ARRAY) {
        LLVMValueRef xv = contig(l, in, l->vals[x->id], x->type, f);
        xbuf = data(l, xv);
        nx = field(l, xv, F_NITEMS);
        LLVMValueRef shape[32];
        for (int j = 0; j < x->type->ndim; j++)
            shape[j] = dim(l, xv, F_SHAPE, j);
        out = alloc_like(l, in->type, shape, xv, arr_t(l, f, x->type->ndim));
        outp = data(l, out);
    } else {
        xbuf = scalar_buf(l, l->vals[x->id], x->type, f);
        nx = i64c(l, 1);
        outp = kn_lower_entry_alloca(l, rt, "interp");
    }
    LLVMTypeRef bt = cplx ? l->ptr : l->f64;
    LLVMTypeRef p[8] = {l->ptr, l->i64, l->ptr, l->ptr, l->i64, bt, bt, l->ptr};
    LLVMValueRef args[8] = {xbuf, nx, data(l, xpv), data(l, fpv), nxp, bound[0], bound[1], outp};
    rt_void(l, cplx ? "kn_rt_interp_complex" : "kn_rt_interp", p, 8, args);
    return out ? out : LLVMBuildLoad2(l->b, rt, outp, "");
}

/* ---- histogram ---- */

/* the smallest and largest of n doubles; *nan set when one is NaN */
static void
min_max(L *l, LLVMValueRef buf, LLVMValueRef n, LLVMValueRef *lo, LLVMValueRef *hi,
        LLVMValueRef *nan)
{
    LLVMValueRef mn = kn_lower_entry_alloca(l, l->f64, "mn"),
                 mx = kn_lower_entry_alloca(l, l->f64, "mx"),
                 nn = kn_lower_entry_alloca(l, l->i1, "nan");
    LLVMBuildStore(l->b, f64c(l, INFINITY), mn);
    LLVMBuildStore(l->b, f64c(l, -INFINITY), mx);
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), nn);
    Loop lp;
    kn_lower_loop_begin(l, &lp, n);
    LLVMValueRef x = load_f64(l, buf, kn_lower_loop_index(l, &lp));
    LLVMValueRef a = LLVMBuildLoad2(l->b, l->f64, mn, ""), b = LLVMBuildLoad2(l->b, l->f64, mx, "");
    LLVMBuildStore(l->b,
                   LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, x, a, ""), x, a, ""), mn);
    LLVMBuildStore(l->b,
                   LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOGT, x, b, ""), x, b, ""), mx);
    LLVMBuildStore(l->b,
                   LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->i1, nn, ""),
                               LLVMBuildFCmp(l->b, LLVMRealUNO, x, x, ""), ""),
                   nn);
    kn_lower_loop_end(l, &lp);
    *lo = LLVMBuildLoad2(l->b, l->f64, mn, "");
    *hi = LLVMBuildLoad2(l->b, l->f64, mx, "");
    *nan = LLVMBuildLoad2(l->b, l->i1, nn, "");
}

/* np.linspace(lo, hi, nb + 1) computed in float32 as NumPy does for float32 bounds (start + i *
 * step; the last edge, hi, is already there), stored as doubles at out */
static void
f32_linspace(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef nb, LLVMValueRef out)
{
    LLVMValueRef lo32 = LLVMBuildFPTrunc(l->b, lo, l->f32, ""),
                 hi32 = LLVMBuildFPTrunc(l->b, hi, l->f32, "");
    LLVMValueRef step = LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, hi32, lo32, ""),
                                      LLVMBuildSIToFP(l->b, nb, l->f32, ""), "");
    Loop lp;
    kn_lower_loop_begin(l, &lp, nb);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    LLVMValueRef y = LLVMBuildFAdd(
        l->b, LLVMBuildFMul(l->b, LLVMBuildSIToFP(l->b, i, l->f32, ""), step, ""), lo32, "");
    LLVMBuildStore(l->b, LLVMBuildFPExt(l->b, y, l->f64, ""),
                   LLVMBuildInBoundsGEP2(l->b, l->f64, out, &i, 1, ""));
    kn_lower_loop_end(l, &lp);
}

/* the counts and edges of np.histogram(a, bins) with bins an int: NumPy's checks, its outer
 * edges (the data's range or range=, widened by 0.5 each way when empty), equal bins */
/* weighted counts (or counts as doubles, fl): w the weights (doubles) or NULL; edges NULL for
 * nb equal bins over [lo, hi] */
static LLVMValueRef
float_hist(L *l, LLVMValueRef av, LLVMValueRef n, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef nb,
           LLVMValueRef edges, LLVMValueRef w)
{
    LLVMValueRef hist = kn_lower_array_alloc(l, arr_t(l, &kn_type_float64, 1), &nb);
    LLVMTypeRef p[8] = {l->ptr, l->i64, l->f64, l->f64, l->i64, l->ptr, l->ptr, l->ptr};
    LLVMValueRef null = LLVMConstNull(l->ptr);
    LLVMValueRef args[8] = {data(l, av),
                            n,
                            lo ? lo : f64c(l, 0),
                            hi ? hi : f64c(l, 0),
                            nb,
                            edges ? edges : null,
                            w ? w : null,
                            data(l, hist)};
    rt_void(l, "kn_rt_histogram_weighted", p, 8, args);
    return hist;
}

static void
equal_bins(L *l, KnInstr *in, LLVMValueRef av, LLVMValueRef n, LLVMValueRef *hist,
           LLVMValueRef *edges, LLVMValueRef w, int fl, LLVMValueRef *dedges)
{
    KnInstr *bins = argn(in, 1, "bins"), *range = argn(in, 2, "range");
    LLVMValueRef nb =
        bins ? kn_lower_convert(l, l->vals[bins->id], bins->type, &kn_type_int64) : i64c(l, 10);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, nb, i64c(l, 1), ""), KN_EXC_HIST_BINS);
    LLVMValueRef lo, hi;
    if (range && range->type->kind != KN_TY_NONE) {
        LLVMValueRef r = l->vals[range->id];
        lo = to_f64(l, LLVMBuildExtractValue(l->b, r, 0, ""), range->type->items[0]);
        hi = to_f64(l, LLVMBuildExtractValue(l->b, r, 1, ""), range->type->items[1]);
        kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOGT, lo, hi, ""), KN_EXC_HIST_RANGE);
        kn_lower_raise_if(l, LLVMBuildOr(l->b, not_finite(l, lo), not_finite(l, hi), ""),
                          KN_EXC_HIST_RANGE_FINITE);
    } else {
        LLVMValueRef nan;
        min_max(l, data(l, av), n, &lo, &hi, &nan);
        LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, n, i64c(l, 0), "");
        lo = LLVMBuildSelect(l->b, empty, f64c(l, 0), lo, "");
        hi = LLVMBuildSelect(l->b, empty, f64c(l, 1), hi, "");
        LLVMValueRef bad = LLVMBuildOr(l->b, nan, not_finite(l, lo), "");
        kn_lower_raise_if(l, LLVMBuildOr(l->b, bad, not_finite(l, hi), ""),
                          KN_EXC_HIST_AUTO_FINITE);
    }
    LLVMValueRef same = LLVMBuildFCmp(l->b, LLVMRealOEQ, lo, hi, "");
    lo = LLVMBuildSelect(l->b, same, LLVMBuildFSub(l->b, lo, f64c(l, 0.5), ""), lo, "");
    hi = LLVMBuildSelect(l->b, same, LLVMBuildFAdd(l->b, hi, f64c(l, 0.5), ""), hi, "");
    LLVMValueRef ne = LLVMBuildAdd(l->b, nb, i64c(l, 1), "");
    const KnType *e64 = arr_t(l, &kn_type_float64, 1);
    LLVMValueRef e = kn_lower_array_alloc(l, e64, &ne);
    LLVMTypeRef pe[4] = {l->f64, l->f64, l->i64, l->ptr};
    LLVMValueRef ae[4] = {lo, hi, nb, data(l, e)};
    rt_void(l, "kn_rt_linspace_edges", pe, 4, ae);
    *hist = kn_lower_array_alloc(l, arr_t(l, &kn_type_int64, 1), &nb);
    const KnType *et = ((KnCallImpl *)in->impl)->result;
    if (et == &kn_type_float64 && fl) {
        *hist = float_hist(l, av, n, lo, hi, nb, NULL, w);
        *edges = e;
        *dedges = data(l, e);
        return;
    }
    if (et == &kn_type_float64) {
        LLVMTypeRef ph[6] = {l->ptr, l->i64, l->f64, l->f64, l->i64, l->ptr};
        LLVMValueRef ah[6] = {data(l, av), n, lo, hi, nb, data(l, *hist)};
        rt_void(l, "kn_rt_histogram", ph, 6, ah);
        *edges = e;
        return;
    }
    /* float32 data: float32 edges, as NumPy's (computed in float32 from the data's own range,
     * in float64 then rounded from range=), and the counts by those edges */
    if (!(range && range->type->kind != KN_TY_NONE)) /* empty data: the range (0, 1), ints */
        f32_linspace(l, lo, hi,
                     LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, n, i64c(l, 0), ""),
                                     i64c(l, 0), nb, ""),
                     data(l, e));
    *edges = copy_as(l, in, e, e64, et);
    LLVMValueRef e32 = copy_as(l, in, *edges, arr_t(l, et, 1), &kn_type_float64);
    if (fl) {
        *hist = float_hist(l, av, n, NULL, NULL, nb, data(l, e32), w);
        *dedges = data(l, e32);
        return;
    }
    LLVMTypeRef ph[5] = {l->ptr, l->i64, l->ptr, l->i64, l->ptr};
    LLVMValueRef ah[5] = {data(l, av), n, data(l, e32), ne, data(l, *hist)};
    rt_void(l, "kn_rt_histogram_edges", ph, 5, ah);
}

static LLVMValueRef
lower_histogram(L *l, KnInstr *in)
{
    KnInstr *a = argn(in, 0, "a"), *bins = argn(in, 1, "bins"), *wi = argn(in, 4, "weights");
    const KnType *f = &kn_type_float64, *ht = ((KnCallImpl *)in->impl)->operand;
    LLVMValueRef av = flat_contig(l, in, l->vals[a->id], a->type, f);
    LLVMValueRef n = field(l, av, F_NITEMS);
    LLVMValueRef hist, edges, w = NULL, dedges = NULL;
    int weighted = wi && wi->type->kind != KN_TY_NONE;
    KnInstr *di = argn(in, 3, "density");
    int density = di && di->op == KN_OP_CONST && di->type->kind == KN_TY_BOOL && di->imm.i;
    int fl = weighted || density; /* counts as doubles */
    if (weighted) {
        LLVMValueRef wv = flat_contig(l, in, l->vals[wi->id], wi->type, f);
        LLVMValueRef bad = LLVMBuildICmp(l->b, LLVMIntNE, field(l, wv, F_NITEMS), n, "");
        for (int j = 0; j < a->type->ndim && j < wi->type->ndim; j++)
            bad = LLVMBuildOr(l->b, bad,
                              LLVMBuildICmp(l->b, LLVMIntNE, dim(l, l->vals[a->id], F_SHAPE, j),
                                            dim(l, l->vals[wi->id], F_SHAPE, j), ""),
                              "");
        if (a->type->ndim != wi->type->ndim)
            bad = LLVMConstInt(l->i1, 1, 0);
        kn_lower_raise_if(l, bad, KN_EXC_HIST_WEIGHTS);
        w = data(l, wv);
    }
    if (((KnCallImpl *)in->impl)->value) { /* bins: an array of edges */
        LLVMValueRef bv = l->vals[bins->id], ev = contig(l, in, bv, bins->type, f);
        LLVMValueRef ne = field(l, ev, F_NITEMS);
        LLVMValueRef bad = kn_lower_entry_alloca(l, l->i1, "badbins");
        LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), bad);
        LLVMValueRef pairs = LLVMBuildSub(l->b, ne, i64c(l, 1), "");
        pairs = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, pairs, i64c(l, 0), ""),
                                i64c(l, 0), pairs, "");
        Loop lp;
        kn_lower_loop_begin(l, &lp, pairs);
        LLVMValueRef i = kn_lower_loop_index(l, &lp);
        LLVMValueRef x = load_f64(l, data(l, ev), i),
                     y = load_f64(l, data(l, ev), LLVMBuildAdd(l->b, i, i64c(l, 1), ""));
        LLVMBuildStore(l->b,
                       LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->i1, bad, ""),
                                   LLVMBuildFCmp(l->b, LLVMRealOGT, x, y, ""), ""),
                       bad);
        kn_lower_loop_end(l, &lp);
        kn_lower_raise_if(l, LLVMBuildLoad2(l->b, l->i1, bad, ""), KN_EXC_HIST_EDGES);
        if (fl) {
            hist = float_hist(l, av, n, NULL, NULL, pairs, data(l, ev), w);
            dedges = data(l, ev);
        } else {
            hist = kn_lower_array_alloc(l, arr_t(l, &kn_type_int64, 1), &pairs);
            LLVMTypeRef p[5] = {l->ptr, l->i64, l->ptr, l->i64, l->ptr};
            LLVMValueRef args[5] = {data(l, av), n, data(l, ev), ne, data(l, hist)};
            rt_void(l, "kn_rt_histogram_edges", p, 5, args);
        }
        edges = copy_as(l, in, bv, bins->type, bins->type->dtype);
    } else {
        equal_bins(l, in, av, n, &hist, &edges, w, fl, &dedges);
    }
    if (density) {
        LLVMTypeRef p[3] = {l->ptr, l->i64, l->ptr};
        LLVMValueRef args[3] = {data(l, hist), field(l, hist, F_NITEMS), dedges};
        rt_void(l, "kn_rt_histogram_density", p, 3, args);
    }
    if (fl && ht != &kn_type_float64) /* the weights' dtype */
        hist = copy_as(l, in, hist, arr_t(l, &kn_type_float64, 1), ht);
    /* the tuple holds references of its own; the arrays stay owned temporaries */
    kn_lower_incref(l, hist, in->type->items[0]);
    kn_lower_incref(l, edges, in->type->items[1]);
    LLVMValueRef t = LLVMGetUndef(kn_lower_type(l, in->type));
    t = LLVMBuildInsertValue(l->b, t, hist, 0, "");
    return LLVMBuildInsertValue(l->b, t, edges, 1, "");
}

/* keepdims=True of median/percentile/quantile: r (of type impl->reduced) given back a's axes
 * with length 1: every one after q's (lead) for axis=None, else axis k; a new C array (a scalar
 * r) or a view of r */
static LLVMValueRef
keep_axes(L *l, KnInstr *in, LLVMValueRef r)
{
    KnCallImpl *impl = in->impl;
    const KnType *kept = in->type, *red = impl->reduced;
    const KnType *at = argn(in, 0, "a")->type;
    int lead = kept->ndim - at->ndim, k = (int)impl->value;
    LLVMValueRef shape[33], strides[33];
    if (red->kind != KN_TY_ARRAY) {
        for (int j = 0; j < kept->ndim; j++)
            shape[j] = i64c(l, 1);
        LLVMValueRef out = kn_lower_array_alloc(l, kept, shape);
        store_elem(l, kept->dtype, r, data(l, out));
        return out;
    }
    for (int j = 0, i = 0; j < kept->ndim; j++) {
        int one = j >= lead && (k < 0 || j == lead + k);
        shape[j] = one ? i64c(l, 1) : dim(l, r, F_SHAPE, i++);
    }
    LLVMValueRef step = i64c(l, itemsize(kept->dtype));
    for (int j = kept->ndim - 1; j >= 0; j--) {
        strides[j] = step;
        step = LLVMBuildMul(l->b, step, shape[j], "");
    }
    return view(l, r, kept, shape, strides);
}

static LLVMValueRef lower_sorting(L *l, KnInstr *in, int id);

LLVMValueRef
kn_lower_rule_sorting(L *l, KnInstr *in, int id)
{
    KnCallImpl *impl = in->impl;
    if ((id == KN_BI_NP_MEDIAN || id == KN_BI_NP_PERCENTILE || id == KN_BI_NP_QUANTILE) &&
        impl->reduced) {
        KnType *kept = in->type;
        in->type = impl->reduced;
        LLVMValueRef r = lower_sorting(l, in, id);
        in->type = kept;
        return keep_axes(l, in, r);
    }
    return lower_sorting(l, in, id);
}

/* cumsum/cumprod with an axis (typed by kn_type_cum_axis): a C copy in the accumulator's dtype
 * (in->type's), scanned in place by the runtime */
LLVMValueRef
kn_lower_cum_axis(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t, int k)
{
    const KnType *acc = in->type->dtype;
    LLVMValueRef r = copy_as(l, in, a, t, acc), outer = i64c(l, 1), inner = i64c(l, 1);
    for (int j = 0; j < t->ndim; j++) {
        LLVMValueRef s = dim(l, r, F_SHAPE, j);
        if (j < k)
            outer = LLVMBuildMul(l->b, outer, s, "");
        else if (j > k)
            inner = LLVMBuildMul(l->b, inner, s, "");
    }
    LLVMTypeRef p[6] = {l->ptr, l->i64, l->i64, l->i64, l->i32, l->i32};
    LLVMValueRef args[6] = {data(l, r),
                            outer,
                            dim(l, r, F_SHAPE, k),
                            inner,
                            i32c(l, dt_code(acc)),
                            i32c(l, !strcmp(name, "cumprod"))};
    rt_void(l, "kn_rt_cumulate", p, 6, args);
    return r;
}

static LLVMValueRef
lower_sorting(L *l, KnInstr *in, int id)
{
    switch (id) {
    case KN_BI_ARRAY_SORT:
    case KN_BI_ARRAY_ARGSORT:
        return lower_sort(l, in, id, in->args[0]->args[0], NULL);
    case KN_BI_NP_SORT:
    case KN_BI_NP_ARGSORT:
        return lower_sort(l, in, id, argn(in, 0, "a"), NULL);
    case KN_BI_ARRAY_PARTITION:
    case KN_BI_ARRAY_ARGPARTITION:
        return lower_sort(l, in, id, in->args[0]->args[0], argn(in, 0, "kth"));
    case KN_BI_NP_PARTITION:
    case KN_BI_NP_ARGPARTITION:
        return lower_sort(l, in, id, argn(in, 0, "a"), argn(in, 1, "kth"));
    case KN_BI_NP_SEARCHSORTED:
        return lower_search(l, in, id, argn(in, 0, "a"), argn(in, 1, "v"), argn(in, 3, "sorter"));
    case KN_BI_ARRAY_SEARCHSORTED:
        return lower_search(l, in, id, in->args[0]->args[0], argn(in, 0, "v"),
                            argn(in, 2, "sorter"));
    case KN_BI_NP_DIGITIZE:
        return lower_search(l, in, id, argn(in, 1, "bins"), argn(in, 0, "x"), NULL);
    case KN_BI_NP_UNIQUE:
        return lower_unique(l, in);
    case KN_BI_NP_MEDIAN:
        return lower_median(l, in);
    case KN_BI_NP_INTERP:
        return lower_interp(l, in);
    case KN_BI_NP_HISTOGRAM:
        return lower_histogram(l, in);
    default:
        return lower_quantile(l, in, id);
    }
}
