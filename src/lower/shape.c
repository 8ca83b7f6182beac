/* shape.c - lowering of the shape family's C entry (lib/shape.def): as_strided builds a view
 * (kn_lower_array_rebuild: a's meminfo and parent, increfed) with the shape and strides of its
 * tuple arguments, converted to int64, and the item count their product. typing/shape.c checks
 * the arguments. copy_into(dst, src) calls kn_rt_copy_nd (runtime/shape.c) when the dtypes are
 * the same, else converts elementwise. */
#include "lower/array.h"

static LLVMValueRef
tuple_item(L *l, KnInstr *t, int d)
{
    LLVMValueRef v = LLVMBuildExtractValue(l->b, l->vals[t->id], (unsigned)d, "");
    return kn_lower_convert(l, v, t->type->items[d], &kn_type_int64);
}

static LLVMValueRef
lower_as_strided(L *l, KnInstr *in)
{
    KnInstr *x = kn_typing_arg(in, 0, "x"), *shape = kn_typing_arg(in, 1, "shape"),
            *strides = kn_typing_arg(in, 2, "strides");
    const KnType *vt = in->type;
    LLVMValueRef sh[32], st[32], count = i64c(l, 1);
    for (int d = 0; d < vt->ndim; d++) {
        sh[d] = tuple_item(l, shape, d);
        st[d] = tuple_item(l, strides, d);
        count = LLVMBuildMul(l->b, count, sh[d], "");
    }
    LLVMValueRef v = kn_lower_array_rebuild(l, l->vals[x->id], vt, sh, st);
    return LLVMBuildInsertValue(l->b, v, count, F_NITEMS, "");
}

static LLVMValueRef
dims_buffer(L *l, LLVMValueRef *v, int n, const char *name)
{
    LLVMTypeRef at = LLVMArrayType2(l->i64, (uint64_t)(n ? n : 1));
    LLVMValueRef buf = kn_lower_entry_alloca(l, at, name);
    for (int k = 0; k < n; k++) {
        LLVMValueRef idx[2] = {i64c(l, 0), i64c(l, k)};
        LLVMBuildStore(l->b, v[k], LLVMBuildInBoundsGEP2(l->b, at, buf, idx, 2, ""));
    }
    return buf;
}

/* dst's memory from byte offset off, with src's shape and dst's strides: the region that
 * copy_into(dst, src, off) writes, as an 'A' array value (not a new reference) */
static LLVMValueRef
region(L *l, LLVMValueRef dv, const KnType *dt, LLVMValueRef sv, LLVMValueRef off,
       const KnType **rt)
{
    *rt = kn_type_array(l->c->types, dt->dtype, dt->ndim, 'A', 0);
    LLVMValueRef v = dv, sh = field(l, dv, F_SHAPE), st = field(l, dv, F_STRIDES);
    for (int j = 0; j < dt->ndim; j++) {
        sh = LLVMBuildInsertValue(l->b, sh, dim(l, sv, F_SHAPE, j), (unsigned)j, "");
        st = LLVMBuildInsertValue(l->b, st, stride(l, dv, dt, j), (unsigned)j, "");
    }
    v = LLVMBuildInsertValue(l->b, v, sh, F_SHAPE, "");
    v = LLVMBuildInsertValue(l->b, v, st, F_STRIDES, "");
    v = LLVMBuildInsertValue(l->b, v, field(l, sv, F_NITEMS), F_NITEMS, "");
    return LLVMBuildInsertValue(l->b, v, offset_ptr(l, field(l, dv, F_DATA), off), F_DATA, "");
}

/* copy_into(dst, src): src (its length-1 and missing leading axes broadcast) into all of dst.
 * copy_into(dst, src, off): src into the region of dst at byte offset off with src's shape
 * (same ndim). One dtype: the runtime's strided copy; dtypes that differ: an elementwise
 * conversion. */
static LLVMValueRef
lower_copy_into(L *l, KnInstr *in)
{
    KnInstr *d = kn_typing_arg(in, 0, NULL), *s = kn_typing_arg(in, 1, NULL),
            *o = kn_typing_arg(in, 2, NULL);
    const KnType *dt = d->type, *st = s->type;
    LLVMValueRef dv = l->vals[d->id], sv = l->vals[s->id];
    LLVMValueRef off = o ? kn_lower_convert(l, l->vals[o->id], o->type, &kn_type_int64) : NULL;
    if (dt->dtype != st->dtype) {
        if (off)
            dv = region(l, dv, dt, sv, off, &dt);
        Operand op = {sv, st, NULL, {0}};
        kn_lower_elementwise_into(l, in, &op, 1, kn_lower_copy_kernel, dv, dt, st->dtype);
        return LLVMConstInt(l->i8, 0, 0); /* None */
    }
    LLVMValueRef sh[32], ds[32], ss[32];
    int nd = dt->ndim, ns = st->ndim;
    for (int j = 0; j < nd; j++) {
        ds[j] = stride(l, dv, dt, j);
        int i = j - (nd - ns);
        if (off) {
            sh[j] = dim(l, sv, F_SHAPE, j);
            ss[j] = stride(l, sv, st, j);
            continue;
        }
        sh[j] = dim(l, dv, F_SHAPE, j);
        if (i < 0) {
            ss[j] = i64c(l, 0);
            continue;
        }
        LLVMValueRef one = LLVMBuildICmp(l->b, LLVMIntEQ, dim(l, sv, F_SHAPE, i), i64c(l, 1), "");
        ss[j] = LLVMBuildSelect(l->b, one, i64c(l, 0), stride(l, sv, st, i), "");
    }
    LLVMValueRef data = field(l, dv, F_DATA);
    if (off)
        data = offset_ptr(l, data, off);
    LLVMTypeRef p[7] = {l->ptr, l->ptr, l->ptr, l->ptr, l->ptr, l->i32, l->i64};
    LLVMValueRef args[7] = {data,
                            dims_buffer(l, sh, nd, "cp_shape"),
                            dims_buffer(l, ds, nd, "cp_dst"),
                            field(l, sv, F_DATA),
                            dims_buffer(l, ss, nd, "cp_src"),
                            LLVMConstInt(l->i32, (unsigned long long)nd, 0),
                            i64c(l, itemsize(dt->dtype))};
    kn_lower_extern(l, "kn_rt_copy_nd", LLVMVoidTypeInContext(l->ctx), p, 7, args);
    return LLVMConstInt(l->i8, 0, 0); /* None */
}

LLVMValueRef
kn_lower_rule_shape(L *l, KnInstr *in, int id)
{
    if (id == KN_BI_SHAPE_COPY_INTO)
        return lower_copy_into(l, in);
    return lower_as_strided(l, in);
}
