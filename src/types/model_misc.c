/* model_misc.c - the type models of the kinds with little to say: none (one byte), str (a
 * constant string: a pointer), range and slice (three int64), and the compile-time values
 * (functions, modules, classes, bound methods), which carry a dummy 8-byte slot and are
 * interned by id and ref (modules and bound methods also by name). Their constructors. */
#include "types/model.h"

static size_t
size_one(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static size_t
size_triple(const KnType *t)
{
    KN_UNUSED(t);
    return 24;
}

static size_t
align_8(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static int
same_name(const KnType *a, const KnType *b)
{
    return !strcmp(a->name, b->name);
}

static uint64_t
hash_name(const KnType *k, uint64_t h)
{
    return k->name ? kn_hash_bytes(k->name, strlen(k->name), h) : h;
}

const KnTypeModel kn_type_model_none = {.size = size_one};
const KnTypeModel kn_type_model_str = {0}; /* a pointer: 8 bytes */
const KnTypeModel kn_type_model_range = {.size = size_triple, .align = align_8};
const KnTypeModel kn_type_model_slice = {.size = size_triple, .align = align_8};
const KnTypeModel kn_type_model_func = {0};
const KnTypeModel kn_type_model_module = {.same = same_name, .hash = hash_name};
const KnTypeModel kn_type_model_class = {0};
const KnTypeModel kn_type_model_bound = {.same = same_name, .hash = hash_name};

KnType *
kn_type_func(KnTypeTable *t, int builtin_id, void *ref, const char *name)
{
    KnType key = {.kind = KN_TY_FUNC, .id = builtin_id, .ref = ref};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_module(KnTypeTable *t, int id, const char *name)
{
    KnType key = {.kind = KN_TY_MODULE, .id = id, .name = name};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_class(KnTypeTable *t, int id, void *ref, const char *name)
{
    KnType key = {.kind = KN_TY_CLASS, .id = id, .ref = ref};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_bound(KnTypeTable *t, KnType *self, const char *method)
{
    KnType *items[1] = {self};
    KnType key = {.kind = KN_TY_BOUND, .n = 1, .items = items, .name = method};
    return kn_type_intern(t, &key, method);
}
