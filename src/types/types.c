/* types.c - interned types. Primitives are static singletons; tuples, callables, modules,
 * classes and bound methods are made once in a KnTypeTable (keyed by a structural hash) so that
 * pointer equality is type equality everywhere else in the compiler. Also the layout of values
 * in memory and the Numba-compatible unification and promotion rules. */
#include "types/types.h"

#include <stdio.h>

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
    return bits == 32 ? &kn_type_float32 : &kn_type_float64;
}

/* ---- interning ---- */

/* Types told apart by their name: bound methods, modules, and callables or classes with no
 * object behind them (builtins, and what the KIR reader makes from a name alone). */
static int
named_shape(const KnType *k)
{
    return k->kind == KN_TY_BOUND || k->kind == KN_TY_MODULE ||
           ((k->kind == KN_TY_FUNC || k->kind == KN_TY_CLASS) && !k->ref);
}

static int
same_shape(const KnType *a, const KnType *b)
{
    if (a->kind != b->kind || a->n != b->n || a->id != b->id || a->ref != b->ref)
        return 0;
    if (a->kind == KN_TY_ARRAY)
        return a->dtype == b->dtype && a->ndim == b->ndim && a->layout == b->layout &&
               a->readonly == b->readonly;
    for (int i = 0; i < a->n; i++)
        if (a->items[i] != b->items[i])
            return 0;
    if (named_shape(a) && a->name && b->name)
        return !strcmp(a->name, b->name);
    return 1;
}

static uint64_t
shape_hash(const KnType *k)
{
    uint64_t h = kn_hash_mix((uint64_t)k->kind, (uint64_t)k->n);
    h = kn_hash_mix(h, (uint64_t)(int64_t)k->id);
    h = kn_hash_mix(h, (uint64_t)(uintptr_t)k->ref);
    for (int i = 0; i < k->n; i++)
        h = kn_hash_mix(h, (uint64_t)(uintptr_t)k->items[i]);
    if (k->kind == KN_TY_ARRAY) {
        h = kn_hash_mix(h, (uint64_t)(uintptr_t)k->dtype);
        h = kn_hash_mix(h, (uint64_t)(k->ndim * 1024 + k->layout * 2 + k->readonly));
    }
    if (named_shape(k) && k->name)
        h = kn_hash_bytes(k->name, strlen(k->name), h);
    return h;
}

/* Find the interned type shaped like `key`, or copy `key` into the table. */
static KnType *
intern(KnTypeTable *t, const KnType *key, const char *name)
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

static void
tuple_name(KnStrBuf *sb, KnType **items, int n)
{
    int uniform = n > 0;
    for (int i = 1; i < n; i++)
        uniform &= items[i] == items[0];
    if (uniform) {
        kn_sb_printf(sb, "UniTuple(%s, %d)", items[0]->name, n);
        return;
    }
    kn_sb_append(sb, "Tuple(");
    for (int i = 0; i < n; i++)
        kn_sb_printf(sb, "%s%s", i ? ", " : "", items[i]->name);
    kn_sb_append(sb, ")");
}

KnType *
kn_type_tuple(KnTypeTable *t, KnType **items, int n)
{
    KnType key = {.kind = KN_TY_TUPLE, .n = n, .items = items, .id = 0};
    uint64_t h = shape_hash(&key);
    for (KnType *p = kn_map_get(&t->map, h); p; p = p->chain)
        if (same_shape(p, &key))
            return p;
    KnStrBuf sb;
    kn_sb_init(&sb);
    tuple_name(&sb, items, n);
    KnType *r = intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

KnType *
kn_type_array(KnTypeTable *t, KnType *dtype, int ndim, char layout, int readonly)
{
    KnType key = {
        .kind = KN_TY_ARRAY, .dtype = dtype, .ndim = ndim, .layout = layout, .readonly = readonly};
    char name[96];
    snprintf(name, sizeof name, "%sarray(%s, %dd, %c)", readonly ? "readonly " : "", dtype->name,
             ndim, layout);
    return intern(t, &key, name);
}

KnType *
kn_type_func(KnTypeTable *t, int builtin_id, void *ref, const char *name)
{
    KnType key = {.kind = KN_TY_FUNC, .id = builtin_id, .ref = ref, .name = name};
    return intern(t, &key, name);
}

KnType *
kn_type_module(KnTypeTable *t, int id, const char *name)
{
    KnType key = {.kind = KN_TY_MODULE, .id = id, .name = name};
    return intern(t, &key, name);
}

KnType *
kn_type_class(KnTypeTable *t, int id, void *ref, const char *name)
{
    KnType key = {.kind = KN_TY_CLASS, .id = id, .ref = ref, .name = name};
    return intern(t, &key, name);
}

KnType *
kn_type_bound(KnTypeTable *t, KnType *self, const char *method)
{
    KnType *items[1] = {self};
    KnType key = {.kind = KN_TY_BOUND, .n = 1, .items = items, .name = method};
    return intern(t, &key, method);
}

/* An iterator's type: named iter(range_state64), enumerate(iter(...)), zip(iter(...), ...). */
KnType *
kn_type_iter(KnTypeTable *t, KnIterKind kind, KnType **items, int n, KnType *item)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_append(&sb, kind == KN_ITER_SEQ         ? "iter("
                      : kind == KN_ITER_ENUMERATE ? "enumerate("
                                                  : "zip(");
    for (int i = 0; i < n; i++)
        kn_sb_printf(&sb, "%s%s", i ? ", " : "", items[i]->name);
    kn_sb_printf(&sb, ") -> %s", item->name); /* every part shown: the KIR reader rebuilds it */
    KnType key = {.kind = KN_TY_ITER, .id = (int)kind, .n = n, .items = items, .dtype = item};
    KnType *r = intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

/* ---- layout ---- */

size_t
kn_type_size(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
    case KN_TY_NONE:
        return 1;
    case KN_TY_INT:
    case KN_TY_FLOAT:
    case KN_TY_COMPLEX:
        return (size_t)t->bits / 8;
    case KN_TY_RANGE:
    case KN_TY_SLICE:
        return 24;
    case KN_TY_ARRAY:
        return (size_t)(40 + 16 * t->ndim);
    case KN_TY_TUPLE: {
        if (t->n == 0)
            return 0;
        size_t end = kn_type_tuple_offset(t, t->n - 1) + kn_type_size(t->items[t->n - 1]);
        size_t al = kn_type_align(t);
        return (end + al - 1) / al * al;
    }
    default:
        return 8; /* compile-time values carry a dummy byte-sized slot */
    }
}

size_t
kn_type_align(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_COMPLEX:
        return (size_t)t->bits / 16;
    case KN_TY_TUPLE: {
        size_t al = 1;
        for (int i = 0; i < t->n; i++) {
            size_t a = kn_type_align(t->items[i]);
            al = a > al ? a : al;
        }
        return al;
    }
    case KN_TY_RANGE:
    case KN_TY_SLICE:
    case KN_TY_ARRAY:
        return 8;
    default: {
        size_t s = kn_type_size(t);
        return s ? s : 1;
    }
    }
}

size_t
kn_type_tuple_offset(const KnType *t, int i)
{
    size_t off = 0;
    for (int k = 0; k <= i; k++) {
        size_t al = kn_type_align(t->items[k]);
        off = (off + al - 1) / al * al;
        if (k == i)
            return off;
        off += kn_type_size(t->items[k]);
    }
    return off;
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

/* ---- promotion and unification (Numba's rules for scalars) ---- */

static int
rank(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
        return 0;
    case KN_TY_INT:
        return 1;
    case KN_TY_FLOAT:
        return 2;
    case KN_TY_COMPLEX:
        return 3;
    default:
        return -1;
    }
}

static KnType *
promote_ints(const KnType *a, const KnType *b)
{
    /* Numba computes integer arithmetic in 64 bits; mixed signedness is signed (NBEP 1):
     * uint64 + int64 is int64, unlike NumPy's float64. */
    if (a->is_signed == b->is_signed)
        return a->is_signed ? &kn_type_int64 : &kn_type_uint64;
    return &kn_type_int64;
}

KnType *
kn_type_promote(KnType *a, KnType *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra < 0 || rb < 0)
        return NULL;
    if (ra <= 1 && rb <= 1) {
        const KnType *x = a->kind == KN_TY_BOOL ? &kn_type_int64 : a;
        const KnType *y = b->kind == KN_TY_BOOL ? &kn_type_int64 : b;
        return promote_ints(x, y);
    }
    if (ra == 3 || rb == 3) {
        /* complex64 stays complex64 with float32, bools and ints of at most 16 bits */
        int small = 1;
        const KnType *both[2] = {a, b};
        for (int i = 0; i < 2; i++) {
            const KnType *t = both[i];
            if ((t->kind == KN_TY_COMPLEX && t->bits != 64) ||
                (t->kind == KN_TY_FLOAT && t->bits != 32) || (t->kind == KN_TY_INT && t->bits > 16))
                small = 0;
        }
        return small ? &kn_type_complex64 : &kn_type_complex128;
    }
    /* at least one float */
    if (ra == 2 && rb == 2)
        return (a->bits == 32 && b->bits == 32) ? &kn_type_float32 : &kn_type_float64;
    const KnType *f = ra == 2 ? a : b, *i = ra == 2 ? b : a;
    if (f->bits == 32 && (i->kind == KN_TY_BOOL || i->bits <= 16))
        return &kn_type_float32;
    return &kn_type_float64;
}

KnType *
kn_type_numpy_promote(KnType *a, KnType *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra < 0 || rb < 0)
        return NULL;
    if (a == b)
        return a;
    if (ra == 0)
        return b;
    if (rb == 0)
        return a;
    if (ra == 1 && rb == 1) {
        if (a->is_signed == b->is_signed)
            return a->bits >= b->bits ? a : b;
        KnType *s = a->is_signed ? a : b, *u = a->is_signed ? b : a;
        if (s->bits > u->bits)
            return s;
        return u->bits < 64 ? kn_type_int(u->bits * 2, 1) : &kn_type_float64;
    }
    return kn_type_promote(a, b); /* floats and complex follow the same table */
}

KnType *
kn_type_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    if (a == b)
        return a;
    if (!a)
        return b;
    if (!b)
        return a;
    if (kn_type_is_number(a) && kn_type_is_number(b)) {
        if (a->kind == KN_TY_BOOL || b->kind == KN_TY_BOOL) {
            KnType *o = a->kind == KN_TY_BOOL ? b : a;
            return o->kind == KN_TY_INT ? o : kn_type_promote(a, b);
        }
        if (a->kind == KN_TY_INT && b->kind == KN_TY_INT) {
            /* Numba's unification: the smallest integer that holds both */
            if (a->is_signed == b->is_signed)
                return a->bits >= b->bits ? a : b;
            KnType *s = a->is_signed ? a : b, *u = a->is_signed ? b : a;
            if (s->bits > u->bits)
                return s;
            return u->bits < 64 ? kn_type_int(u->bits * 2, 1) : &kn_type_float64;
        }
        return kn_type_promote(a, b);
    }
    if (a->kind == KN_TY_ARRAY && b->kind == KN_TY_ARRAY && a->dtype == b->dtype &&
        a->ndim == b->ndim)
        return kn_type_array(t, a->dtype, a->ndim, a->layout == b->layout ? a->layout : 'A',
                             a->readonly || b->readonly);
    if (a->kind == KN_TY_TUPLE && b->kind == KN_TY_TUPLE && a->n == b->n) {
        KnType *items[64];
        if (a->n > 64)
            return NULL;
        for (int i = 0; i < a->n; i++) {
            items[i] = kn_type_unify(t, a->items[i], b->items[i]);
            if (!items[i] || !kn_type_is_value(items[i]))
                return NULL;
        }
        return kn_type_tuple(t, items, a->n);
    }
    return NULL;
}

int
kn_type_can_convert_safely(const KnType *from, const KnType *to)
{
    if (from == to)
        return 1;
    int rf = rank(from), rt = rank(to);
    if (from->kind == KN_TY_ARRAY && to->kind == KN_TY_ARRAY)
        return from->dtype == to->dtype && from->ndim == to->ndim &&
               (to->layout == 'A' || to->layout == from->layout) &&
               (to->readonly || !from->readonly);
    if (rf < 0 || rt < 0) {
        if (from->kind == KN_TY_TUPLE && to->kind == KN_TY_TUPLE && from->n == to->n) {
            for (int i = 0; i < from->n; i++)
                if (!kn_type_can_convert_safely(from->items[i], to->items[i]))
                    return 0;
            return 1;
        }
        return 0;
    }
    if (rf > rt)
        return 0;
    if (rf == 0)
        return 1;
    if (rf == 1 && rt == 1) {
        if (from->is_signed == to->is_signed)
            return to->bits >= from->bits;
        return !from->is_signed && to->bits > from->bits;
    }
    if (rf == 1 && rt >= 2) /* ints to floats: Numba allows int64 -> float64 as safe */
        return 1;
    /* float -> complex: the complex's parts must be at least as wide */
    int to_bits = rt == 3 ? to->bits / 2 : to->bits,
        from_bits = rf == 3 ? from->bits / 2 : from->bits;
    return to_bits >= from_bits;
}
