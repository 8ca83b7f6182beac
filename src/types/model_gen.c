/* model_gen.c - the type model of generators: generator(item), the value a call of a jitted
 * generator function makes in compiled code, one pointer (the KnMemInfo * of its frame,
 * lower/generators.c), interned by its item type and the overload's symbol (ref), since each
 * compiled generator has a frame of its own layout; printed generator(T, symbol), which the KIR
 * reader reads back. Generators of different functions do not unify. */
#include "types/model.h"

KnType *
kn_type_gen(KnTypeTable *t, KnType *item, const char *symbol)
{
    KnType key = {.kind = KN_TY_GEN, .dtype = item, .ref = (void *)symbol};
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_printf(&sb, "generator(%s, %s)", item ? item->name : "none", symbol);
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

static size_t
gen_size(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static int
gen_same(const KnType *a, const KnType *b)
{
    return a->dtype == b->dtype;
}

static uint64_t
gen_hash(const KnType *k, uint64_t h)
{
    return kn_hash_mix(h, (uint64_t)(uintptr_t)k->dtype);
}

const KnTypeModel kn_type_model_gen = {
    .size = gen_size,
    .align = gen_size,
    .same = gen_same,
    .hash = gen_hash,
};
