/* model_tuple.c - the type model of tuples: items[n] laid out as a C struct of the items
 * (natural alignment), printed as Numba prints them (UniTuple(int64, 3), Tuple(int64, float64)),
 * unified and converted item by item. */
#include "types/model.h"

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
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    KnStrBuf sb;
    kn_sb_init(&sb);
    tuple_name(&sb, items, n);
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
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

static size_t
tuple_align(const KnType *t)
{
    size_t al = 1;
    for (int i = 0; i < t->n; i++) {
        size_t a = kn_type_align(t->items[i]);
        al = a > al ? a : al;
    }
    return al;
}

static size_t
tuple_size(const KnType *t)
{
    if (t->n == 0)
        return 0;
    size_t end = kn_type_tuple_offset(t, t->n - 1) + kn_type_size(t->items[t->n - 1]);
    size_t al = tuple_align(t);
    return (end + al - 1) / al * al;
}

static KnType *
tuple_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    if (b->kind != KN_TY_TUPLE || a->n != b->n)
        return NULL;
    KnType *items[64];
    if (a->n > 64)
        return NULL;
    for (int i = 0; i < a->n; i++) {
        items[i] = kn_type_unify(t, a->items[i], b->items[i]);
        if (!items[i] || !kn_type_is_value(items[i]))
            return NULL;
    }
    if (a->fields && a->ref == b->ref) /* two namedtuples of one class (model_namedtuple.c) */
        return kn_type_namedtuple_like(t, a, items);
    return kn_type_tuple(t, items, a->n);
}

static int
tuple_convert_safely(const KnType *from, const KnType *to)
{
    if (to->kind != KN_TY_TUPLE || from->n != to->n)
        return 0;
    for (int i = 0; i < from->n; i++)
        if (!kn_type_can_convert_safely(from->items[i], to->items[i]))
            return 0;
    return 1;
}

const KnTypeModel kn_type_model_tuple = {
    .size = tuple_size,
    .align = tuple_align,
    .same = kn_type_namedtuple_same, /* model_namedtuple.c */
    .hash = kn_type_namedtuple_hash,
    .unify = tuple_unify,
    .convert_safely = tuple_convert_safely,
};
