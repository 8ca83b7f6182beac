/* record.c - fields of records and of arrays of records (typing/record.c marks them; the
 * field's index is the impl's value). A record is a pointer to its bytes
 * (lower/model_record.c): a field is that pointer plus the field's offset, loaded as its
 * element (a number, a nested record: its address, a string field: a new str through
 * runtime/record.c), or for a sub-array field a C array over the bytes (no meminfo: it lives
 * as long as the record's memory). `a.x` of an array of records is a strided view sharing the
 * array's meminfo and parent (data + offset, the sub-array's axes after the array's).
 * Assignment stores one element, fills or copies into such a view (lower/index.c's way), or
 * writes a string field. One of the array files: it includes lower/array.h. */
#include "lower/array.h"

static const KnRecordField *
field_of(const KnInstr *in, const KnType *base)
{
    const KnType *r = base->kind == KN_TY_RECORD ? base : base->dtype;
    return &r->record[((const KnCallImpl *)in->impl)->value];
}

static LLVMValueRef
at_offset(L *l, LLVMValueRef p, int64_t off)
{
    return off ? offset_ptr(l, p, i64c(l, off)) : p;
}

/* an array struct of type vt over data with the given axes, sharing meminfo and parent
 * (increfed; NULL for a record's sub-array) */
static LLVMValueRef
build_view(L *l, const KnType *vt, LLVMValueRef mi, LLVMValueRef parent, LLVMValueRef data,
           LLVMValueRef *shape, LLVMValueRef *strides)
{
    LLVMValueRef v = LLVMGetUndef(kn_lower_array_type(l, vt));
    LLVMValueRef null = LLVMConstPointerNull(l->ptr);
    v = LLVMBuildInsertValue(l->b, v, mi ? mi : null, F_MEMINFO, "");
    v = LLVMBuildInsertValue(l->b, v, parent ? parent : null, F_PARENT, "");
    v = LLVMBuildInsertValue(l->b, v, i64c(l, itemsize(vt->dtype)), F_ITEMSIZE, "");
    v = LLVMBuildInsertValue(l->b, v, data, F_DATA, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(l->i64, (uint64_t)vt->ndim)), st = sh;
    LLVMValueRef nitems = i64c(l, 1);
    for (int d = 0; d < vt->ndim; d++) {
        sh = LLVMBuildInsertValue(l->b, sh, shape[d], (unsigned)d, "");
        st = LLVMBuildInsertValue(l->b, st, strides[d], (unsigned)d, "");
        nitems = LLVMBuildMul(l->b, nitems, shape[d], "");
    }
    v = LLVMBuildInsertValue(l->b, v, sh, F_SHAPE, "");
    v = LLVMBuildInsertValue(l->b, v, st, F_STRIDES, "");
    v = LLVMBuildInsertValue(l->b, v, nitems, F_NITEMS, "");
    if (mi)
        kn_lower_incref(l, v, vt);
    return v;
}

/* the sub-array field's axes (C order over its bytes) after `first` axes already in shape */
static void
sub_axes(L *l, const KnRecordField *f, LLVMValueRef *shape, LLVMValueRef *strides, int first)
{
    int64_t s = itemsize(f->type);
    for (int d = f->ndim - 1; d >= 0; d--) {
        shape[first + d] = i64c(l, f->shape[d]);
        strides[first + d] = i64c(l, s);
        s *= f->shape[d];
    }
}

/* field f of the array a (type t) as a view of type vt */
static LLVMValueRef
array_field_view(L *l, LLVMValueRef a, const KnType *t, const KnRecordField *f, const KnType *vt)
{
    LLVMValueRef shape[64], strides[64];
    for (int k = 0; k < t->ndim; k++) {
        shape[k] = dim(l, a, F_SHAPE, k);
        strides[k] = stride(l, a, t, k);
    }
    sub_axes(l, f, shape, strides, t->ndim);
    return build_view(l, vt, field(l, a, F_MEMINFO), field(l, a, F_PARENT),
                      at_offset(l, field(l, a, F_DATA), f->offset), shape, strides);
}

/* the sub-array field f of the record at p as an array of type vt */
static LLVMValueRef
record_sub_array(L *l, LLVMValueRef p, const KnRecordField *f, const KnType *vt)
{
    LLVMValueRef shape[8], strides[8];
    sub_axes(l, f, shape, strides, 0);
    return build_view(l, vt, NULL, NULL, at_offset(l, p, f->offset), shape, strides);
}

static LLVMValueRef
read_field(L *l, KnInstr *in)
{
    const KnType *bt = in->args[0]->type;
    const KnRecordField *f = field_of(in, bt);
    LLVMValueRef base = l->vals[in->args[0]->id];
    if (bt->kind == KN_TY_ARRAY)
        return array_field_view(l, base, bt, f, in->type);
    if (f->ndim)
        return record_sub_array(l, base, f, in->type);
    return load_elem(l, f->type, at_offset(l, base, f->offset));
}

static LLVMValueRef
read_str(L *l, KnInstr *in)
{
    const KnRecordField *f = field_of(in, in->args[0]->type);
    LLVMValueRef out = kn_lower_entry_alloca(l, kn_lower_str_type(l), "strout");
    LLVMValueRef args[4] = {out, at_offset(l, l->vals[in->args[0]->id], f->offset),
                            i64c(l, f->nchars), LLVMConstInt(l->i32, f->chars == 'U', 0)};
    LLVMTypeRef ts[4] = {l->ptr, l->ptr, l->i64, l->i32};
    LLVMValueRef rc = kn_lower_extern(l, "kn_rt_record_str_get", l->i32, ts, 4, args);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, rc, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
    return LLVMBuildLoad2(l->b, kn_lower_str_type(l), out, "");
}

/* fill (a scalar) or copy (an array) v into the view of type target */
static void
into_view(L *l, KnInstr *in, LLVMValueRef view, const KnType *target, LLVMValueRef v,
          const KnType *vt)
{
    if (vt->kind != KN_TY_ARRAY) {
        kn_lower_array_fill(l, view, target, v, vt);
        return;
    }
    Operand ops[1] = {{v, vt, NULL, {0}}};
    kn_lower_elementwise_into_unaliased(l, in, ops, 1, kn_lower_copy_kernel, view, target,
                                        vt->dtype);
}

static void
write_field(L *l, KnInstr *in)
{
    const KnType *bt = in->args[0]->type, *vt = in->args[2]->type;
    const KnType *target = ((KnCallImpl *)in->impl)->operand;
    const KnRecordField *f = field_of(in, bt);
    LLVMValueRef base = l->vals[in->args[0]->id], v = l->vals[in->args[2]->id];
    if (bt->kind == KN_TY_ARRAY || f->ndim) {
        LLVMValueRef view = bt->kind == KN_TY_ARRAY ? array_field_view(l, base, bt, f, target)
                                                    : record_sub_array(l, base, f, target);
        if (bt->kind == KN_TY_ARRAY)
            kn_lower_own(l, view, target); /* released at the block's end, or by a raise */
        into_view(l, in, view, target, v, vt);
        return;
    }
    LLVMValueRef p = at_offset(l, base, f->offset);
    if (f->chars) {
        LLVMValueRef args[4] = {p, i64c(l, f->nchars), LLVMConstInt(l->i32, f->chars == 'U', 0),
                                kn_lower_str_spill(l, v)};
        LLVMTypeRef ts[4] = {l->ptr, l->i64, l->i32, l->ptr};
        kn_lower_extern(l, "kn_rt_record_str_set", LLVMVoidTypeInContext(l->ctx), ts, 4, args);
        return;
    }
    if (f->type->kind == KN_TY_RECORD) {
        store_elem(l, f->type, v, p);
        return;
    }
    store_elem(l, f->type, kn_lower_convert(l, v, vt, f->type), p);
}

LLVMValueRef
kn_lower_rule_record(L *l, KnInstr *in, int bid)
{
    switch (bid) {
    case KN_BI_RECORD_FIELD:
        return read_field(l, in);
    case KN_BI_RECORD_STRFIELD:
        return read_str(l, in);
    default: /* KN_BI_RECORD_SETFIELD */
        write_field(l, in);
        return NULL;
    }
}
