/* types.c - interned types. Primitives are static singletons; tuples, arrays, callables,
 * modules, classes and bound methods are made once in a KnTypeTable (keyed by a structural hash)
 * so that pointer equality is type equality everywhere else in the compiler. What differs by
 * kind (layout, what interning compares, unification, safe conversion, the constructors) lives
 * in the kind's model (types/model.h, model_*.c, named by types/kinds.def); this file holds the
 * singletons and dispatches through the models. */
#include "types/model.h"

#define PRIM(var, k, b, s, nm) KnType var = {.kind = k, .bits = b, .is_signed = s, .name = nm}
PRIM(kn_type_bool, KN_TY_BOOL, 8, 0, "bool");
PRIM(kn_type_int8, KN_TY_INT, 8, 1, "int8");
PRIM(kn_type_int16, KN_TY_INT, 16, 1, "int16");
PRIM(kn_type_int32, KN_TY_INT, 32, 1, "int32");
PRIM(kn_type_int64, KN_TY_INT, 64, 1, "int64");
PRIM(kn_type_uint8, KN_TY_INT, 8, 0, "uint8");
PRIM(kn_type_uint16, KN_TY_INT, 16, 0, "uint16");
PRIM(kn_type_uint32, KN_TY_INT, 32, 0, "uint32");
PRIM(kn_type_uint64, KN_TY_INT, 64, 0, "uint64");
PRIM(kn_type_float16, KN_TY_FLOAT, 16, 1, "float16");
PRIM(kn_type_float32, KN_TY_FLOAT, 32, 1, "float32");
PRIM(kn_type_float64, KN_TY_FLOAT, 64, 1, "float64");
PRIM(kn_type_complex64, KN_TY_COMPLEX, 64, 1, "complex64");
PRIM(kn_type_complex128, KN_TY_COMPLEX, 128, 1, "complex128");
PRIM(kn_type_none, KN_TY_NONE, 0, 0, "none");
PRIM(kn_type_str, KN_TY_STR, 0, 0, "str");
PRIM(kn_type_range, KN_TY_RANGE, 64, 1, "range_state64");
PRIM(kn_type_slice, KN_TY_SLICE, 64, 1, "slice3_type");
KnType kn_type_ellipsis = {.kind = KN_TY_CLASS, .id = 3, .name = "ellipsis"};
#undef PRIM

static KnType *const primitives[] = {
    &kn_type_bool,       &kn_type_int8,    &kn_type_int16,   &kn_type_int32,
    &kn_type_int64,      &kn_type_uint8,   &kn_type_uint16,  &kn_type_uint32,
    &kn_type_uint64,     &kn_type_float32, &kn_type_float64, &kn_type_complex64,
    &kn_type_complex128, &kn_type_none,    &kn_type_str,     &kn_type_range,
};

void
kn_types_init(KnTypeTable *t)
{
    kn_map_init(&t->map);
    kn_arena_init(&t->arena);
}

void
kn_types_fini(KnTypeTable *t)
{
    kn_map_fini(&t->map);
    kn_arena_fini(&t->arena);
}

KnType *
kn_type_by_name(const char *name)
{
    for (int i = 0; i < KN_ARRAY_LEN(primitives); i++)
        if (!strcmp(primitives[i]->name, name))
            return primitives[i];
    if (!strcmp(name, "range"))
        return &kn_type_range;
    if (!strcmp(name, "float16"))
        return &kn_type_float16;
    return NULL;
}

KnType *
kn_type_int(int bits, int is_signed)
{
    switch (bits) {
    case 8:
        return is_signed ? &kn_type_int8 : &kn_type_uint8;
    case 16:
        return is_signed ? &kn_type_int16 : &kn_type_uint16;
    case 32:
        return is_signed ? &kn_type_int32 : &kn_type_uint32;
    default:
        return is_signed ? &kn_type_int64 : &kn_type_uint64;
    }
}

KnType *
kn_type_float(int bits)
{
    return bits == 16 ? &kn_type_float16 : bits == 32 ? &kn_type_float32 : &kn_type_float64;
}

/* ---- interning ---- */

/* ---- the models ---- */

static const KnTypeModel *const models[KN_TY_COUNT] = {
#define X(kind, name, tm, lm, bm, flags) [KN_TY_##kind] = &kn_type_model_##tm,
#include "types/kinds.def"
#undef X
};

const KnTypeModel *
kn_type_model(const KnType *t)
{
    return models[t->kind];
}

const char *
kn_kind_name(KnTypeKind k)
{
    static const char *const names[KN_TY_COUNT] = {
#define X(kind, name, tm, lm, bm, flags) [KN_TY_##kind] = #name,
#include "types/kinds.def"
#undef X
    };
    return (unsigned)k < KN_TY_COUNT ? names[k] : "?";
}

/* ---- interning ---- */

static int
same_shape(const KnType *a, const KnType *b)
{
    if (a->kind != b->kind || a->n != b->n || a->id != b->id || a->ref != b->ref)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->items[i] != b->items[i])
            return 0;
    const KnTypeModel *m = kn_type_model(a);
    return m->same ? m->same(a, b) : 1;
}

static uint64_t
shape_hash(const KnType *k)
{
    uint64_t h = kn_hash_mix((uint64_t)k->kind, (uint64_t)k->n);
    h = kn_hash_mix(h, (uint64_t)(int64_t)k->id);
    h = kn_hash_mix(h, (uint64_t)(uintptr_t)k->ref);
    for (int i = 0; i < k->n; i++)
        h = kn_hash_mix(h, (uint64_t)(uintptr_t)k->items[i]);
    const KnTypeModel *m = kn_type_model(k);
    return m->hash ? m->hash(k, h) : h;
}

KnType *
kn_type_find(KnTypeTable *t, const KnType *key)
{
    for (KnType *p = kn_map_get(&t->map, shape_hash(key)); p; p = p->chain)
        if (same_shape(p, key))
            return p;
    return NULL;
}

/* Find the interned type shaped like `key`, or copy `key` into the table. */
KnType *
kn_type_intern(KnTypeTable *t, const KnType *key, const char *name)
{
    uint64_t h = shape_hash(key);
    KnType *head = kn_map_get(&t->map, h);
    for (KnType *p = head; p; p = p->chain)
        if (same_shape(p, key))
            return p;
    KnType *n = kn_arena_alloc(&t->arena, sizeof(KnType));
    *n = *key;
    n->hash = h;
    if (key->n) {
        n->items = kn_arena_alloc(&t->arena, sizeof(KnType *) * (size_t)key->n);
        memcpy(n->items, key->items, sizeof(KnType *) * (size_t)key->n);
    }
    n->name = kn_arena_strdup(&t->arena, name);
    n->chain = head;
    kn_map_put(&t->map, h, n);
    return n;
}

/* ---- layout ---- */

size_t
kn_type_size(const KnType *t)
{
    const KnTypeModel *m = kn_type_model(t);
    return m->size ? m->size(t) : 8; /* compile-time values carry a dummy slot */
}

size_t
kn_type_align(const KnType *t)
{
    const KnTypeModel *m = kn_type_model(t);
    if (m->align)
        return m->align(t);
    size_t s = kn_type_size(t);
    return s ? s : 1;
}

size_t
kn_type_arg_offset(KnType *const *args, int i)
{
    size_t off = 0;
    for (int k = 0; k <= i; k++) {
        size_t al = kn_type_align(args[k]);
        off = (off + al - 1) / al * al;
        if (k == i)
            return off;
        off += kn_type_size(args[k]);
    }
    return off;
}

size_t
kn_type_args_size(KnType *const *args, int n)
{
    return n ? kn_type_arg_offset(args, n - 1) + kn_type_size(args[n - 1]) : 0;
}

/* ---- unification and safe conversion ---- */

KnType *
kn_type_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    if (a == b)
        return a;
    if (!a)
        return b;
    if (!b)
        return a;
    const KnTypeModel *m = kn_type_model(a);
    return m->unify ? m->unify(t, a, b) : NULL;
}

int
kn_type_can_convert_safely(const KnType *from, const KnType *to)
{
    if (from == to)
        return 1;
    const KnTypeModel *m = kn_type_model(from);
    return m->convert_safely ? m->convert_safely(from, to) : 0;
}

int
kn_type_all_numbers(const KnType *t)
{
    for (int i = 0; i < t->n; i++)
        if (!(kn_type_is_number(t->items[i]) ||
              (t->items[i]->kind == KN_TY_TUPLE && kn_type_all_numbers(t->items[i]))))
            return 0;
    return 1;
}
