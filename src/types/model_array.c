/* model_array.c - the type model of NumPy arrays: array(dtype, ndim, layout, readonly), the
 * struct {meminfo, parent, nitems, itemsize, data, shape[ndim], strides[ndim]} in memory,
 * interned by all four, unified to layout 'A' when the layouts differ, converted safely to 'A'
 * and to readonly. */
#include "types/model.h"

#include <stdio.h>

KnType *
kn_type_array(KnTypeTable *t, KnType *dtype, int ndim, char layout, int readonly)
{
    KnType key = {
        .kind = KN_TY_ARRAY, .dtype = dtype, .ndim = ndim, .layout = layout, .readonly = readonly};
    KnStrBuf name; /* a record dtype's name is long (model_record.c) */
    kn_sb_init(&name);
    kn_sb_printf(&name, "%sarray(%s, %dd, %c)", readonly ? "readonly " : "", dtype->name, ndim,
                 layout);
    KnType *r = kn_type_intern(t, &key, name.data);
    kn_sb_fini(&name);
    return r;
}

static size_t
array_size(const KnType *t)
{
    return (size_t)(40 + 16 * t->ndim);
}

static size_t
array_align(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static int
array_same(const KnType *a, const KnType *b)
{
    return a->dtype == b->dtype && a->ndim == b->ndim && a->layout == b->layout &&
           a->readonly == b->readonly;
}

static uint64_t
array_hash(const KnType *k, uint64_t h)
{
    h = kn_hash_mix(h, (uint64_t)(uintptr_t)k->dtype);
    return kn_hash_mix(h, (uint64_t)(k->ndim * 1024 + k->layout * 2 + k->readonly));
}

static KnType *
array_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    if (b->kind != KN_TY_ARRAY || a->dtype != b->dtype || a->ndim != b->ndim)
        return NULL;
    return kn_type_array(t, a->dtype, a->ndim, a->layout == b->layout ? a->layout : 'A',
                         a->readonly || b->readonly);
}

static int
array_convert_safely(const KnType *from, const KnType *to)
{
    return to->kind == KN_TY_ARRAY && from->dtype == to->dtype && from->ndim == to->ndim &&
           (to->layout == 'A' || to->layout == from->layout) && (to->readonly || !from->readonly);
}

const KnTypeModel kn_type_model_array = {
    .size = array_size,
    .align = array_align,
    .same = array_same,
    .hash = array_hash,
    .unify = array_unify,
    .convert_safely = array_convert_safely,
};
