/* model_dict.c - the type model of dicts and sets. A dict is DICT with items {key, value} and
 * id a KnDictView (the dict itself, or its keys(), values() or items() view: the same table
 * iterated otherwise); a set is SET with items {key}. At run time both are one pointer, the
 * KnMemInfo that counts the table (runtime/dict.h), so size and alignment are a pointer's.
 * They unify only with themselves: a dict of int64 values and one of float64 values are
 * different tables. Names follow Numba: DictType[int64,float64], set(int64). */
#include "types/model.h"

#include <stdio.h>

static size_t
dict_size(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

KnType *
kn_type_dict(KnTypeTable *t, KnType *k, KnType *v, KnDictView view)
{
    KnType *items[2] = {k, v};
    KnType key = {.kind = KN_TY_DICT, .n = 2, .items = items, .id = (int)view};
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    static const char *const prefix[] = {"DictType", "dict_keys", "dict_values", "dict_items"};
    char name[256];
    snprintf(name, sizeof name, "%s[%s,%s]", prefix[view], k->name, v->name);
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_set(KnTypeTable *t, KnType *k)
{
    KnType *items[1] = {k};
    KnType key = {.kind = KN_TY_SET, .n = 1, .items = items};
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    char name[256];
    snprintf(name, sizeof name, "set(%s)", k->name);
    return kn_type_intern(t, &key, name);
}

const KnTypeModel kn_type_model_dict = {.size = dict_size};
