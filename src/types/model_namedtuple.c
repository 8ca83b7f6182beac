/* model_namedtuple.c - namedtuple types: a TUPLE (model_tuple.c gives the layout, unification
 * and conversion) with id KN_TUPLE_NAMED, ref its Python class and `fields` its field names,
 * printed as Numba prints them, `Point(int64, float64)`. Interning compares the class (ref),
 * so two classes with the same fields are two types, and a namedtuple is not a plain tuple of
 * the same items. The names are copied into the type table's arena. */
#include "types/model.h"

int
kn_type_namedtuple_same(const KnType *a, const KnType *b)
{
    return a->id != KN_TUPLE_NAMED || a->ref || !a->name || !b->name || !strcmp(a->name, b->name);
}

uint64_t
kn_type_namedtuple_hash(const KnType *k, uint64_t h)
{
    return k->id == KN_TUPLE_NAMED && !k->ref && k->name
               ? kn_hash_bytes(k->name, strlen(k->name), h)
               : h;
}

KnType *
kn_type_namedtuple(KnTypeTable *t, void *cls, const char *name, const char *const *fields,
                   KnType **items, int n)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_printf(&sb, "%s(", name);
    for (int i = 0; i < n; i++)
        kn_sb_printf(&sb, "%s%s", i ? ", " : "", items[i]->name);
    kn_sb_append(&sb, ")");
    KnType key = {.kind = KN_TY_TUPLE,
                  .n = n,
                  .items = items,
                  .id = KN_TUPLE_NAMED,
                  .ref = cls,
                  .name = sb.data};
    KnType *found = kn_type_find(t, &key);
    if (found) {
        kn_sb_fini(&sb);
        return found;
    }
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    r->fields = kn_arena_alloc(&t->arena, sizeof(char *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        r->fields[i] = kn_arena_strdup(&t->arena, fields[i]);
    return r;
}

int
kn_type_field_index(const KnType *t, const char *name)
{
    if (t->kind != KN_TY_TUPLE || !t->fields)
        return -1;
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->fields[i], name))
            return i;
    return -1;
}

KnType *
kn_type_namedtuple_like(KnTypeTable *t, const KnType *like, KnType **items)
{
    /* the class's name: the type's printed name up to its items, `Point(int64, int64)` */
    const char *paren = strchr(like->name, '(');
    size_t n = paren ? (size_t)(paren - like->name) : strlen(like->name);
    char name[256];
    n = n < sizeof name - 1 ? n : sizeof name - 1;
    memcpy(name, like->name, n);
    name[n] = '\0';
    return kn_type_namedtuple(t, like->ref, name, (const char *const *)like->fields, items,
                              like->n);
}
