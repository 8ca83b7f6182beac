/* model_list.c - the type model of lists: list(item), a reference type whose value is one
 * pointer (the KnMemInfo * of a KnList, runtime/list.h), interned by its item type. A list
 * whose item type is not known yet (an empty display `[]`, item NULL, printed list(undefined))
 * unifies with any list, so `l = []` followed by `l.append(1)` types l as list(int64): the
 * appends refine the variable (typing/list.c). Two lists of different item types do not unify
 * (a list is shared by reference, so its items cannot change type), except where one side's item
 * type is itself still unknown, at any depth of lists of lists. */
#include "types/model.h"

KnType *
kn_type_list(KnTypeTable *t, KnType *item)
{
    KnType key = {.kind = KN_TY_LIST, .dtype = item};
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_printf(&sb, "list(%s)", item ? item->name : "undefined");
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

static size_t
list_size(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static int
list_same(const KnType *a, const KnType *b)
{
    return a->dtype == b->dtype;
}

static uint64_t
list_hash(const KnType *k, uint64_t h)
{
    return kn_hash_mix(h, (uint64_t)(uintptr_t)k->dtype);
}

/* the item types of two lists merged where one is not known yet; NULL if they conflict */
static KnType *
merge_items(KnTypeTable *t, KnType *a, KnType *b, int *ok)
{
    if (a == b || !b)
        return a;
    if (!a)
        return b;
    if (a->kind == KN_TY_LIST && b->kind == KN_TY_LIST) {
        KnType *m = merge_items(t, a->dtype, b->dtype, ok);
        return *ok ? kn_type_list(t, m) : NULL;
    }
    *ok = 0;
    return NULL;
}

static KnType *
list_unify(KnTypeTable *t, KnType *a, KnType *b)
{
    if (b->kind != KN_TY_LIST)
        return NULL;
    int ok = 1;
    KnType *m = merge_items(t, a->dtype, b->dtype, &ok);
    return ok ? kn_type_list(t, m) : NULL;
}

static int
list_convert_safely(const KnType *from, const KnType *to)
{
    return to->kind == KN_TY_LIST && (!from->dtype || from->dtype == to->dtype);
}

const KnTypeModel kn_type_model_list = {
    .size = list_size,
    .same = list_same,
    .hash = list_hash,
    .unify = list_unify,
    .convert_safely = list_convert_safely,
};
