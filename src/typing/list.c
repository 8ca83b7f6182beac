/* list.c - typing of lists: displays (BUILD_LIST), the operators of lib/list.def
 * ("list.__getitem__" and the others, through typing/operator.c), the methods (append, pop, sort,
 * ...), and the builtins that make or read lists (list(), sorted(), min/max/sum of a list).
 *
 * Item types: a display's items unify (int and float make float64; anything else that does not
 * unify is an error naming both types and the item's index). An empty display is
 * list(undefined); a method or item assignment that stores into such a list read from a variable
 * refines the variable (kn_typing_refine): `l = []; l.append(1)` types l as list(int64), as
 * Numba does. Lists are monomorphic: a value stored into a list must convert safely to its item
 * type (an int into a list of floats), else a typing error. */
#include "typing/internal.h"

#include <string.h>

static KnType *
list_of(KnCompilation *c, KnType *item)
{
    return kn_type_list(c->types, item);
}

/* the item type of a value a list can be made from (list(), sorted(), extend()), or NULL */
static KnType *
iterable_item(KnCompilation *c, KnSpan span, KnType *t)
{
    switch (t->kind) {
    case KN_TY_LIST:
        return t->dtype;
    case KN_TY_RANGE:
        return &kn_type_int64;
    case KN_TY_STR: /* its one-character strs */
        return &kn_type_str;
    case KN_TY_DICT: /* a dict's keys, or its view's items */
    case KN_TY_SET:
        return kn_typing_dict_iter_item(c, t);
    case KN_TY_TUPLE: {
        KnType *u = t->n ? t->items[0] : NULL;
        for (int j = 1; u && j < t->n; j++)
            u = kn_type_unify(c->types, u, t->items[j]);
        return u;
    }
    case KN_TY_ARRAY:
        return t->ndim ? kn_typing_index_result(c, span, t, &kn_type_int64) : NULL;
    default:
        return NULL;
    }
}

/* x may be stored into a list of `item`s */
static int
storable(const KnType *x, const KnType *item)
{
    if (x == item || kn_type_can_convert_safely(x, item))
        return 1;
    return 0;
}

/* two item types that == and `in` can compare */
static int
comparable(const KnType *a, const KnType *b)
{
    if (a == b)
        return 1;
    if (kn_type_is_number(a) && kn_type_is_number(b))
        return 1;
    if (a->kind == KN_TY_LIST && b->kind == KN_TY_LIST)
        return !a->dtype || !b->dtype || comparable(a->dtype, b->dtype);
    if ((a->kind == KN_TY_DICT || a->kind == KN_TY_SET) && a == b) /* lower/equal.c */
        return a->kind == KN_TY_SET || a->items[1]->kind != KN_TY_ARRAY;
    if (a->kind == KN_TY_TUPLE && b->kind == KN_TY_TUPLE && a->n == b->n) {
        for (int i = 0; i < a->n; i++)
            if (!comparable(a->items[i], b->items[i]))
                return 0;
        return 1;
    }
    return 0;
}

/* two item types that < compares (lower/list.c: item_order): numbers (not complex), strs,
 * tuples and lists of such pairs */
static int
order_comparable(const KnType *a, const KnType *b)
{
    if (kn_type_is_number(a) && kn_type_is_number(b))
        return a->kind != KN_TY_COMPLEX && b->kind != KN_TY_COMPLEX;
    if (a->kind == KN_TY_STR && b->kind == KN_TY_STR)
        return 1;
    if (a->kind == KN_TY_LIST && b->kind == KN_TY_LIST)
        return !a->dtype || !b->dtype ||
               (order_comparable(a->dtype, b->dtype) && comparable(a->dtype, b->dtype));
    if (a->kind == KN_TY_TUPLE && b->kind == KN_TY_TUPLE) {
        for (int i = 0; i < a->n && i < b->n; i++)
            if (!order_comparable(a->items[i], b->items[i]) ||
                !comparable(a->items[i], b->items[i]))
                return 0;
        return 1;
    }
    return 0;
}

int
kn_typing_build_list(KnCompilation *c, KnInstr *in)
{
    KnType *item = NULL;
    for (int i = 0; i < in->nargs; i++) {
        KnType *t = in->args[i]->type;
        if (!t)
            return 0;                                        /* a later round */
        if (!kn_type_is_value(t) || t->kind == KN_TY_RECORD) /* a record: typing/record.c */
            return kn_typing_err(c, in->args[i]->span, "a list cannot hold %s", t->name);
        KnType *u = item ? kn_type_unify(c->types, item, t) : t;
        if (!u || !kn_type_is_value(u))
            return kn_typing_err(c, in->args[i]->span,
                                 "a list's items must have one type: item %d is %s, the items "
                                 "before it are %s (heterogeneous lists are not supported)",
                                 i, t->name, item->name);
        item = u;
    }
    in->type = list_of(c, item);
    return 0;
}

/* the list a method is called on */
static KnInstr *
self_of(KnInstr *in)
{
    return in->args[0]->args[0];
}

/* A value of item type x is stored into the list `self` (of type t): the list's type, refined
 * when its item type is not known yet and it was read from a variable; NULL after an error. */
static KnType *
store_into(KnCompilation *c, KnInstr *in, KnInstr *self, KnType *x, const char *what)
{
    KnType *t = self->type;
    if (x && x->kind == KN_TY_RECORD) { /* it refers to its array's memory: typing/record.c */
        kn_typing_err(c, in->span, "a list cannot hold %s", x->name);
        return NULL;
    }
    if (!t->dtype) {
        KnType *r = kn_typing_refine(c, self, list_of(c, x));
        if (!r || r->kind != KN_TY_LIST || !r->dtype) {
            kn_typing_err(c, in->span,
                          "cannot %s %s into a list whose item type is not known here (an empty "
                          "list that is not a variable); give the list an item first",
                          what, x->name);
            return NULL;
        }
        t = r;
    }
    if (!storable(x, t->dtype)) {
        kn_typing_err(c, in->span, "cannot %s %s into %s (lists hold items of one type)", what,
                      x->name, t->name);
        return NULL;
    }
    return t;
}

/* A list whose item type is not known yet: the instruction stays untyped for now (a later
 * round may refine the list's variable: `m = [f(x) for x in l]`, whose appends come later in
 * the blocks); if nothing does, typing reports it untyped at the end. 1 when so. */
static int
need_items(KnType *t)
{
    return !t->dtype;
}

/* l[i], l[a:b], l[a:b:c] */
static int
type_getitem(KnCompilation *c, KnInstr *in, KnType *t)
{
    if (need_items(t))
        return 0;
    if (in->op == KN_OP_SLICE) {
        in->type = t;
        return 0;
    }
    KnType *i = in->args[1]->type;
    if (i->kind == KN_TY_SLICE) {
        in->type = t;
        return 0;
    }
    if (!kn_typing_intlike(i))
        return kn_typing_err(c, in->args[1]->span,
                             "list indices must be integers or slices, not %s", i->name);
    in->type = t->dtype;
    return 0;
}

static int
type_setitem(KnCompilation *c, KnInstr *in, KnType *t)
{
    KnType *i = in->args[1]->type, *v = in->args[2]->type;
    if (i->kind == KN_TY_SLICE) {
        if (v->kind != KN_TY_LIST || !kn_type_unify(c->types, t, v))
            return kn_typing_err(c, in->args[2]->span,
                                 "can only assign a list of the same item type to a slice of %s, "
                                 "not %s",
                                 t->name, v->name);
        return 0;
    }
    if (!kn_typing_intlike(i))
        return kn_typing_err(c, in->args[1]->span,
                             "list indices must be integers or slices, not %s", i->name);
    return store_into(c, in, in->args[0], v, "store") ? 0 : -1;
}

static int
type_binop(KnCompilation *c, KnInstr *in, int id, KnType *a, KnType *b)
{
    if (id == KN_BI_LIST_MUL || id == KN_BI_LIST_RMUL) {
        KnType *lt = a->kind == KN_TY_LIST ? a : b, *k = a->kind == KN_TY_LIST ? b : a;
        if (!kn_typing_intlike(k))
            return kn_typing_err(c, in->span, "can't multiply sequence by non-int of type %s",
                                 k->name);
        in->type = lt;
        return 0;
    }
    KnType *u = b->kind == KN_TY_LIST ? kn_type_unify(c->types, a, b) : NULL;
    if (!u)
        return kn_typing_err(c, in->span, "can only concatenate %s (not %s) to %s", a->name,
                             b->name, a->name);
    if (id == KN_BI_LIST_IADD && !a->dtype && u->dtype) /* `l = []; l += [1]` */
        kn_typing_refine(c, in->args[0], u);
    in->type = id == KN_BI_LIST_IADD ? (a->dtype ? a : u) : u;
    return 0;
}

static int
type_cmp(KnCompilation *c, KnInstr *in, int id, KnType *a, KnType *b)
{
    if (id == KN_BI_LIST_CONTAINS) { /* x in l: a is x, b the list */
        if (b->dtype && !comparable(a, b->dtype))
            return kn_typing_err(c, in->span, "cannot look for %s in %s", a->name, b->name);
        if (b->dtype && kn_type_is_number(a) && kn_type_is_number(b->dtype))
            kn_typing_impl_of(c, in)->operand = kn_type_promote(a, b->dtype);
        in->type = &kn_type_bool;
        return 0;
    }
    if (id == KN_BI_LIST_LT || id == KN_BI_LIST_LE || id == KN_BI_LIST_GT || id == KN_BI_LIST_GE) {
        if (a->kind != KN_TY_LIST || b->kind != KN_TY_LIST ||
            (a->dtype && b->dtype && !order_comparable(a->dtype, b->dtype)))
            return kn_typing_err(c, in->span, "'%s' not supported between %s and %s",
                                 kn_kir_cmp_symbol((KnCmp)in->aux), a->name, b->name);
        in->type = &kn_type_bool;
        return 0;
    }
    if (a->kind == KN_TY_LIST && b->kind == KN_TY_LIST && a->dtype && b->dtype &&
        !comparable(a->dtype, b->dtype))
        return kn_typing_err(c, in->span, "cannot compare %s and %s", a->name, b->name);
    in->type = &kn_type_bool;
    return 0;
}

/* items that sort compares with < : numbers (not complex), str, tuples of those */
static int
orderable(const KnType *t)
{
    if (t->kind == KN_TY_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!orderable(t->items[i]))
                return 0;
        return 1;
    }
    return (kn_type_is_number(t) && t->kind != KN_TY_COMPLEX) || t->kind == KN_TY_STR;
}

/* a key= function: a jitted function (or a global lambda) of one item */
static int
type_key(KnCompilation *c, KnInstr *in, KnInstr *key, KnType *item, KnCallImpl *impl)
{
    KnType *kt = key->type;
    KN_UNUSED(in);
    if (kt->kind == KN_TY_NONE)
        return 0;
    int rc = kn_typing_resolve_value(c, kt, &item, 1, key->span, &impl->callee); /* functions.c */
    if (rc > 0)
        return kn_typing_err(c, key->span,
                             "sort's key= must be a jitted function, a lambda or an inner "
                             "function, not %s",
                             kt->name);
    KN_TRY(rc);
    KnType *r = impl->callee.ret;
    if (r && !orderable(r))
        return kn_typing_err(c, key->span,
                             "sort's key= must return numbers, str or tuples of them (it returns "
                             "%s)",
                             r->name);
    impl->result = r; /* the key type */
    return 0;
}

static int
type_sort_args(KnCompilation *c, KnInstr *in, KnType *item, int first_kw, const char *name)
{
    static const char *const allowed[] = {"key", "reverse", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, name, allowed, first_kw));
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    KnInstr *key = kn_typing_arg(in, KN_KEYWORD_ONLY, "key");
    KnInstr *rev = kn_typing_arg(in, KN_KEYWORD_ONLY, "reverse");
    if (rev && !kn_typing_intlike(rev->type))
        return kn_typing_err(c, rev->span, "%s's reverse= must be a bool, not %s", name,
                             rev->type->name);
    if (key)
        KN_TRY(type_key(c, in, key, item, impl));
    if ((!key || key->type->kind == KN_TY_NONE) && !orderable(item))
        return kn_typing_err(c, in->span, "%s of %s items is not supported", name, item->name);
    return 0;
}

static int
type_method(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnInstr *self = self_of(in);
    KnType *t = self->type;
    const char *m = kn_kir_builtin_attr(id);
    kn_typing_impl_kind(c, in, KN_CALL_METHOD)->builtin = id;
    int want = id == KN_BI_LIST_INSERT ? 2
               : id == KN_BI_LIST_APPEND || id == KN_BI_LIST_EXTEND || id == KN_BI_LIST_REMOVE ||
                       id == KN_BI_LIST_INDEX || id == KN_BI_LIST_COUNT || id == KN_BI_LIST_DELITEM
                   ? 1
                   : 0;
    int nkw = in->aux;
    if (id == KN_BI_LIST_SORT) {
        if (n - nkw != 0)
            return kn_typing_err(c, in->span, "list.sort() takes no positional arguments");
        if (need_items(t))
            return 0;
        KN_TRY(type_sort_args(c, in, t->dtype, 0, "list.sort"));
        in->type = &kn_type_none;
        return 0;
    }
    if (id == KN_BI_LIST_INDEX && n >= 1 && n <= 3) { /* index(x, start, stop) */
        for (int i = 1; i < n; i++)
            if (!kn_typing_intlike(a[i]))
                return kn_typing_err(c, in->span,
                                     "list.index()'s start and stop must be ints, "
                                     "not %s",
                                     a[i]->name);
        want = n;
    }
    if (id == KN_BI_LIST_POP ? n > 1 : n != want)
        return kn_typing_err(c, in->span, "list.%s() does not accept (%s)", m,
                             kn_typing_arg_list(c, a, n));
    switch (id) {
    case KN_BI_LIST_APPEND:
        if (!store_into(c, in, self, a[0], "append"))
            return -1;
        in->type = &kn_type_none;
        return 0;
    case KN_BI_LIST_INSERT:
        if (!kn_typing_intlike(a[0]))
            return kn_typing_err(c, in->span, "list.insert()'s index must be an int, not %s",
                                 a[0]->name);
        if (!store_into(c, in, self, a[1], "insert"))
            return -1;
        in->type = &kn_type_none;
        return 0;
    case KN_BI_LIST_EXTEND: {
        KnType *item = iterable_item(c, in->span, a[0]);
        if (!item && !(a[0]->kind == KN_TY_LIST || (a[0]->kind == KN_TY_TUPLE && !a[0]->n)))
            return kn_typing_err(c, in->span, "cannot extend %s with %s", t->name, a[0]->name);
        if (item && !store_into(c, in, self, item, "extend"))
            return -1;
        in->type = &kn_type_none;
        return 0;
    }
    case KN_BI_LIST_DELITEM:
        if (a[0]->kind != KN_TY_SLICE && !kn_typing_intlike(a[0]))
            return kn_typing_err(c, in->span, "list indices must be integers or slices, not %s",
                                 a[0]->name);
        in->type = &kn_type_none;
        return 0;
    case KN_BI_LIST_POP:
        if (need_items(t))
            return 0;
        if (n && !kn_typing_intlike(a[0]))
            return kn_typing_err(c, in->span, "list.pop()'s index must be an int, not %s",
                                 a[0]->name);
        in->type = t->dtype;
        return 0;
    case KN_BI_LIST_REMOVE:
    case KN_BI_LIST_INDEX:
    case KN_BI_LIST_COUNT:
        if (t->dtype && !comparable(a[0], t->dtype))
            return kn_typing_err(c, in->span, "cannot look for %s in %s", a[0]->name, t->name);
        if (t->dtype && kn_type_is_number(a[0]) && kn_type_is_number(t->dtype))
            kn_typing_impl_of(c, in)->operand = kn_type_promote(a[0], t->dtype);
        in->type = id == KN_BI_LIST_REMOVE ? &kn_type_none : &kn_type_int64;
        return 0;
    case KN_BI_LIST_COPY:
        in->type = t;
        return 0;
    default: /* reverse, clear */
        in->type = &kn_type_none;
        return 0;
    }
}

/* list(), list(iterable), sorted(iterable, key=, reverse=) */
static int
type_builtin(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN)->builtin = id;
    int npos = n - in->aux;
    if (id == KN_BI_TYPED_LIST)
        id = KN_BI_LIST_NEW; /* the same list, boxed as a kiln.typed.List (lower/list.c) */
    if (id == KN_BI_LIST_NEW && npos == 0 && !in->aux) {
        in->type = list_of(c, NULL);
        return 0;
    }
    if (npos != 1 || (id == KN_BI_LIST_NEW && in->aux))
        return kn_typing_err(c, in->span, "%s() does not accept (%s)",
                             id == KN_BI_LIST_NEW ? "list" : "sorted", kn_typing_arg_list(c, a, n));
    KnType *item = iterable_item(c, in->span, a[0]);
    if (!item && a[0]->kind == KN_TY_LIST)
        return 0; /* not known yet (need_items) */
    if (!item)
        return kn_typing_err(c, in->args[1]->span, "cannot make a list of %s", a[0]->name);
    if (!kn_type_is_value(item) || item->kind == KN_TY_RECORD) /* a record: typing/record.c */
        return kn_typing_err(c, in->args[1]->span, "a list cannot hold %s", item->name);
    if (id == KN_BI_SORTED)
        KN_TRY(type_sort_args(c, in, item, 1, "sorted"));
    in->type = list_of(c, item);
    return 0;
}

int
kn_typing_tuple_compare(KnCompilation *c, KnInstr *in, const KnType *a, const KnType *b)
{
    if (kn_type_all_numbers(a) && kn_type_all_numbers(b))
        return -2; /* typing.c's own rule */
    int ordered = in->aux != KN_CMP_EQ && in->aux != KN_CMP_NE;
    if (ordered ? !order_comparable(a, b) : a->n == b->n && !comparable(a, b))
        return kn_typing_err(c, in->span, "cannot compare %s and %s with '%s'", a->name, b->name,
                             kn_kir_cmp_symbol((KnCmp)in->aux));
    in->type = &kn_type_bool;
    return 0;
}

/* min(l), max(l), sum(l) of a list (typing/calls.c sends them here) */
int
kn_typing_list_reduce(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnType *t = a[0];
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN)->builtin = id;
    if (need_items(t))
        return 0;
    if (!kn_type_is_number(t->dtype) || t->dtype->kind == KN_TY_COMPLEX)
        if (!(id == KN_BI_SUM && t->dtype->kind == KN_TY_COMPLEX))
            return kn_typing_err(c, in->span, "%s() of %s is not supported",
                                 kn_kir_builtin_attr(id), t->name);
    if (id != KN_BI_SUM) {
        if (n != 1)
            return kn_typing_err(c, in->span, "%s() of a list takes no other argument",
                                 kn_kir_builtin_attr(id));
        in->type = t->dtype;
        return 0;
    }
    if (n > 2)
        return kn_typing_err(c, in->span, "sum() takes at most 2 arguments");
    KnType *item = t->dtype->kind == KN_TY_BOOL ? &kn_type_int64 : t->dtype;
    KnType *start = n == 2 ? a[1] : &kn_type_int64;
    if (!kn_type_is_number(start))
        return kn_typing_err(c, in->span, "sum()'s start must be a number, not %s", start->name);
    KnType *operand = NULL;
    KnType *r = kn_typing_binop_result(KN_BIN_ADD, start, item, &operand);
    if (!r)
        return kn_typing_err(c, in->span, "sum() of %s is not supported", t->name);
    kn_typing_impl_of(c, in)->operand = r;
    in->type = r;
    return 0;
}

int
kn_type_rule_list(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    if (kn_lib_flags(id) & KN_CF_METHOD)
        return type_method(c, in, id, a, n);
    switch (id) {
    case KN_BI_LIST_NEW:
    case KN_BI_TYPED_LIST:
    case KN_BI_SORTED:
        return type_builtin(c, in, id, a, n);
    case KN_BI_LIST_GETITEM:
        return type_getitem(c, in, a[0]);
    case KN_BI_LIST_SETITEM:
        return type_setitem(c, in, a[0]);
    case KN_BI_LIST_LEN:
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_LIST_BOOL:
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_LIST_CONTAINS:
    case KN_BI_LIST_EQ:
    case KN_BI_LIST_NE:
    case KN_BI_LIST_LT:
    case KN_BI_LIST_LE:
    case KN_BI_LIST_GT:
    case KN_BI_LIST_GE:
        return type_cmp(c, in, id, a[0], a[1]);
    default: /* + += * */
        return type_binop(c, in, id, a[0], a[1]);
    }
}
