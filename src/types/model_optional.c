/* model_optional.c - the type model of optional values: Optional[T] (printed optional(T), as
 * Numba's OptionalType), a value of type T (dtype) or None. Layout: the value in T's layout at
 * offset 0, then one byte, 1 when a value is present, the whole padded to T's alignment. A
 * variable or return that receives both None and T values is typed optional(T)
 * (kn_type_optional_unify, called by typing where None meets a value); T itself is never none
 * nor optional. */
#include "types/model.h"

KnType *
kn_type_optional(KnTypeTable *t, KnType *value)
{
    KnType key = {.kind = KN_TY_OPTIONAL, .dtype = value};
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_printf(&sb, "optional(%s)", value->name);
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

/* None and T, optional(T) and T or None, optional(T) and optional(U): optional of T and U
 * unified; NULL when neither is none nor optional, or when the values do not unify */
KnType *
kn_type_optional_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    if (!a || !b)
        return NULL;
    KnType *va = a->kind == KN_TY_OPTIONAL ? a->dtype : a;
    KnType *vb = b->kind == KN_TY_OPTIONAL ? b->dtype : b;
    int opt = a->kind == KN_TY_OPTIONAL || b->kind == KN_TY_OPTIONAL || a->kind == KN_TY_NONE ||
              b->kind == KN_TY_NONE;
    if (!opt)
        return NULL;
    if (va->kind == KN_TY_NONE)
        va = NULL;
    if (vb->kind == KN_TY_NONE)
        vb = NULL;
    KnType *v = va && vb ? kn_type_unify(t, va, vb) : va ? va : vb;
    if (!v || !kn_type_is_value(v) || v->kind == KN_TY_OPTIONAL)
        return NULL;
    return kn_type_optional(t, v);
}

static size_t
optional_align(const KnType *t)
{
    return kn_type_align(t->dtype);
}

static size_t
optional_size(const KnType *t)
{
    size_t al = kn_type_align(t->dtype);
    return (kn_type_size(t->dtype) + 1 + al - 1) / al * al;
}

static int
optional_same(const KnType *a, const KnType *b)
{
    return a->dtype == b->dtype;
}

static uint64_t
optional_hash(const KnType *k, uint64_t h)
{
    return kn_hash_mix(h, (uint64_t)(uintptr_t)k->dtype);
}

static KnType *
optional_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    return kn_type_optional_unify(t, a, b);
}

static int
optional_convert_safely(const KnType *from, const KnType *to)
{
    return to->kind == KN_TY_OPTIONAL && kn_type_can_convert_safely(from->dtype, to->dtype);
}

const KnTypeModel kn_type_model_optional = {.size = optional_size,
                                            .align = optional_align,
                                            .same = optional_same,
                                            .hash = optional_hash,
                                            .unify = optional_unify,
                                            .convert_safely = optional_convert_safely};
