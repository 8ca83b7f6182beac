/* iter_builtins.c - typing of lib/iter.def's entries: the builtins over iterables that the
 * frontend rewrites into loops (frontend/iter.c, kiln/_iter.py).
 *
 * A call of any/all/next/iter/map/filter/reversed that reaches typing is one the rewrite did
 * not take (the callee held in a variable, say): an error at the call that says where these
 * work. kiln._iter.indexable(s), which the rewrite of reversed(s) emits before it indexes s
 * from its end, refuses what indexing would misread (a dict or a set, whose s[k] is a key
 * lookup) and what cannot be indexed by position; it has no value (None). */
#include "typing/internal.h"

/* The one number type that the items of a tuple of numbers of several types unify to, or
 * NULL when the items are of one type or one is not a number. */
static KnType *
number_items(KnCompilation *c, const KnType *t)
{
    KnType *u = NULL;
    int mixed = 0;
    for (int j = 0; j < t->n; j++) {
        if (!kn_type_is_number(t->items[j]))
            return NULL;
        mixed |= j && t->items[j] != t->items[0];
        u = u ? kn_type_unify(c->types, u, t->items[j]) : t->items[j];
        if (!u)
            return NULL;
    }
    return mixed ? u : NULL;
}

/* kiln._iter.numbers(x): x's own type, but a UniTuple of the unified number type for a tuple of
 * numbers of several types (lower/iter_builtins.c converts it) */
static int
type_numbers(KnCompilation *c, KnInstr *in, KnType *t)
{
    KnType *u = t->kind == KN_TY_TUPLE ? number_items(c, t) : NULL;
    if (!u) {
        in->type = t;
        return 0;
    }
    KnType *items[64];
    if (t->n > 64)
        return kn_typing_err(c, in->span, "a tuple of more than 64 numbers of several types");
    for (int i = 0; i < t->n; i++)
        items[i] = u;
    in->type = kn_type_tuple(c->types, items, t->n);
    return 0;
}

int
kn_type_rule_iter(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (id == KN_BI_ITER_NUMBERS)
        return n == 1 ? type_numbers(c, in, a[0]) : -1;
    if (id == KN_BI_NP_NDARRAY_CLASS)
        return kn_typing_err(c, in->span,
                             "np.ndarray() cannot be called in compiled code (use "
                             "np.empty)");
    if (id == KN_BI_ITER_STR_KEYED && n == 1) {
        if (a[0]->kind != KN_TY_DICT || a[0]->id != KN_DICT_SELF ||
            a[0]->items[0]->kind != KN_TY_STR)
            return kn_typing_err(c, in->span,
                                 "the argument after ** must be a dict with str keys, not %s "
                                 "(CPython: keywords must be strings)",
                                 a[0]->name);
        in->type = a[0];
        return 0;
    }
    if (id == KN_BI_ITER_REVERSIBLE && n == 1 && a[0]->kind == KN_TY_DICT)
        return kn_type_rule_list(c, in, KN_BI_LIST_NEW, a, n); /* list(d): lower/iter_builtins.c */
    if (id == KN_BI_ITER_REVERSIBLE && n == 1 && a[0]->kind == KN_TY_SET)
        return kn_typing_err(c, in->span, "'%s' object is not reversible (CPython's TypeError)",
                             a[0]->name);
    if (id != KN_BI_ITER_INDEXABLE && id != KN_BI_ITER_REVERSIBLE)
        return kn_typing_err(c, in->span,
                             "%s() is supported when called directly, as the iterable of a for "
                             "loop or of sum/any/all/min/max/sorted/list/zip/enumerate",
                             kn_kir_builtin_name(id));
    if (n != 1)
        return -1;
    switch (a[0]->kind) {
    case KN_TY_RANGE:
    case KN_TY_STR:
    case KN_TY_TUPLE:
    case KN_TY_LIST:
        break;
    case KN_TY_ARRAY:
        if (a[0]->ndim)
            break;
        /* fall through */
    default:
        return kn_typing_err(c, in->span,
                             "reversed() of %s is not supported (kiln reverses "
                             "ranges, lists, strs, tuples, arrays, dicts and dict views)",
                             a[0]->name);
    }
    in->type = id == KN_BI_ITER_REVERSIBLE ? a[0] : &kn_type_none;
    return 0;
}

/* isinstance(x, C) with C an enum class (x one of its members) or a namedtuple class (x an
 * instance of it); 0 for other classes (C is frozen: its members are of C itself) */
int
kn_typing_isinstance_class(const KnType *t, const KnType *k)
{
    if (k->id == KN_CLASS_ENUM)
        return t->kind == KN_TY_ENUM && t->ref == k->ref;
    if (k->id == KN_CLASS_NAMEDTUPLE)
        return t->kind == KN_TY_TUPLE && t->id == KN_TUPLE_NAMED && t->ref == k->ref;
    return 0;
}

/* isinstance's answer for the classes that are registry entries of containers and arrays;
 * -1: not a class known here (typing/calls.c's matches_class asks after its own cases). VALS
 * and others add their kinds as cases. */
int
kn_typing_isinstance_of(const KnType *t, int id)
{
    switch (id) {
    case KN_BI_LIST_NEW:
    case KN_BI_TYPED_LIST:
        return t->kind == KN_TY_LIST;
    case KN_BI_DICT:
        return t->kind == KN_TY_DICT;
    case KN_BI_SET:
        return t->kind == KN_TY_SET;
    case KN_BI_NP_NDARRAY_CLASS:
        return t->kind == KN_TY_ARRAY;
    default:
        return -1;
    }
}
