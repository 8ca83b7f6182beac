/* dict.c - typing of dicts and sets: displays (BUILD_DICT, BUILD_SET), the entries of
 * lib/dict.def and lib/set.def (operators through typing/operator.c, methods, dict(), set()),
 * hash(), and the item types of iterating over them (typing/iter.c).
 *
 * A dict's type is DictType[K,V] (types/model_dict.c): K and V are the unified types of its
 * display's keys and values; keys must be hashable (bools, ints, floats, complex, strs and
 * tuples of them), values anything a table can hold (numbers, tuples, arrays, dicts, sets). An
 * empty display ({}, dict(), set()) takes its types from what the function later puts into the
 * variable it is stored in (d[k] = v, d.setdefault(k, v), s.add(k), update), as Numba does;
 * when nothing does, the error says how to give them. Keys and values put in later convert
 * safely to K and V (an int key into a dict of float keys) or are a typing error naming both
 * types at the offending operand. */
#include "typing/internal.h"

static KnType *
key_of(const KnType *t)
{
    return t->items[0];
}

static KnType *
val_of(const KnType *t)
{
    return t->items[1];
}

static int
is_table(const KnType *t)
{
    return t && (t->kind == KN_TY_DICT || t->kind == KN_TY_SET);
}

/* NULL when t can be a key, else why not */
static const char *
unhashable(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
    case KN_TY_INT:
    case KN_TY_FLOAT:
    case KN_TY_COMPLEX:
    case KN_TY_STR:
    case KN_TY_ENUM: /* its int value (typing/enum.c) */
        return NULL;
    case KN_TY_TUPLE:
        for (int i = 0; i < t->n; i++) {
            const char *why = unhashable(t->items[i]);
            if (why)
                return why;
        }
        return NULL;
    case KN_TY_ARRAY:
    case KN_TY_DICT:
    case KN_TY_SET:
    case KN_TY_LIST:
        return "unhashable type";
    default:
        return "kiln does not support keys of this type yet";
    }
}

/* a table can hold values of t */
static int
storable(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
    case KN_TY_INT:
    case KN_TY_FLOAT:
    case KN_TY_COMPLEX:
    case KN_TY_NONE:
    case KN_TY_ARRAY:
    case KN_TY_SET:
    case KN_TY_STR:
    case KN_TY_ENUM:
        return 1;
    case KN_TY_DICT:
        return t->id == KN_DICT_SELF;
    case KN_TY_LIST:
        return t->dtype != NULL; /* not an empty [] whose item type is still unknown */
    case KN_TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (!storable(t->items[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* values of t compare with == in the runtime (numbers and tuples of them) */
static int
comparable(const KnType *t)
{
    if (t->kind == KN_TY_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!comparable(t->items[i]))
                return 0;
        return 1;
    }
    return kn_type_is_number(t) || t->kind == KN_TY_NONE || t->kind == KN_TY_STR ||
           t->kind == KN_TY_ENUM;
}

/* values that == of two dicts compares deeply (lower/equal.c): lists, dicts and sets of
 * comparable items, and arrays directly as the values (Numba's truth of va == vb) */
static int
deep_comparable(const KnType *t, int top)
{
    if (comparable(t))
        return 1;
    switch (t->kind) {
    case KN_TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (!deep_comparable(t->items[i], 0))
                return 0;
        return 1;
    case KN_TY_LIST:
        return !t->dtype || deep_comparable(t->dtype, 0);
    case KN_TY_DICT:
        return t->id == KN_DICT_SELF && deep_comparable(val_of(t), 0);
    case KN_TY_SET:
        return 1;
    case KN_TY_ARRAY:
        return top && kn_type_is_number(t->dtype);
    default:
        return 0;
    }
}

static int
check_key(KnCompilation *c, KnSpan span, const KnType *k)
{
    const char *why = unhashable(k);
    if (why)
        return kn_typing_err(c, span, "%s: %s cannot be a dict key or set item", why, k->name);
    return 0;
}

static int
check_value(KnCompilation *c, KnSpan span, const KnType *v)
{
    if (!storable(v))
        return kn_typing_err(c, span, "kiln cannot store %s in a dict yet", v->name);
    return 0;
}

/* the common type of two keys (or values) of one display, or an error at `at` */
static KnType *
unify_item(KnCompilation *c, KnType *was, KnInstr *first, KnInstr *at, const char *what)
{
    if (!was)
        return at->type;
    KnType *u = kn_type_unify(c->types, was, at->type);
    if (!u || !kn_type_is_value(u)) {
        KnDiag *d =
            kn_diag_error(&c->diags, KN_DIAG_TYPING, at->span, "%s of different types: %s and %s",
                          what, was->name, at->type->name);
        kn_diag_note(&c->diags, d, first->span, "the first is %s", first->type->name);
        return NULL;
    }
    return u;
}

/* ---- empty displays: types from later uses of their variable ---- */

static int
loads_var(const KnInstr *in, int var)
{
    return in && in->op == KN_OP_LOAD && in->aux == var;
}

static void
merge(KnCompilation *c, KnType **into, KnType *t)
{
    if (!t)
        return;
    KnType *u = *into ? kn_type_unify(c->types, *into, t) : t;
    if (u && kn_type_is_value(u))
        *into = u;
}

/* an item appended to a list value of variable var's dict: d[k].append(x) or
 * d.setdefault(k, []).append(x); its type, else NULL */
static KnType *
appended_item(const KnInstr *in, int var)
{
    if (in->op != KN_OP_CALL || in->nargs != 2 || in->args[0]->op != KN_OP_GETATTR ||
        strcmp(in->args[0]->imm.str, "append"))
        return NULL;
    const KnInstr *l = in->args[0]->args[0];
    int ok = (l->op == KN_OP_GETITEM && loads_var(l->args[0], var)) ||
             (l->op == KN_OP_CALL && l->args[0]->op == KN_OP_GETATTR &&
              !strcmp(l->args[0]->imm.str, "setdefault") && loads_var(l->args[0]->args[0], var));
    return ok ? in->args[1]->type : NULL;
}

/* what the function puts into variable var (or reads with a default, d.get(k, 0)): key and
 * value types (NULL: nothing seen yet); an empty list value (`d[k] = []`) takes its item type from
 * what is appended to d's values */
static void
scan_uses(KnCompilation *c, int var, KnType **k, KnType **v)
{
    KnType *item = NULL;
    for (int b = 0; b < c->fn->blocks.len; b++) {
        KnBlock *blk = c->fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            merge(c, &item, appended_item(in, var));
            if (in->op == KN_OP_SETITEM && loads_var(in->args[0], var)) {
                merge(c, k, in->args[1]->type);
                merge(c, v, in->args[2]->type);
                continue;
            }
            if (in->op != KN_OP_CALL || in->args[0]->op != KN_OP_GETATTR ||
                !loads_var(in->args[0]->args[0], var) || in->aux)
                continue;
            const char *m = in->args[0]->imm.str;
            if ((!strcmp(m, "setdefault") || !strcmp(m, "get")) && in->nargs == 3) {
                /* d.get(k, default): d[k] = d.get(k, 0) + 1 counts with no other hint */
                merge(c, k, in->args[1]->type);
                merge(c, v, in->args[2]->type);
            } else if (!strcmp(m, "add") && in->nargs == 2) {
                merge(c, k, in->args[1]->type);
            } else if (!strcmp(m, "update") && in->nargs == 2 && is_table(in->args[1]->type)) {
                merge(c, k, key_of(in->args[1]->type));
                if (in->args[1]->type->kind == KN_TY_DICT)
                    merge(c, v, val_of(in->args[1]->type));
            }
        }
    }
    if (*v && (*v)->kind == KN_TY_LIST && !(*v)->dtype)
        *v = item ? kn_type_list(c->types, item) : NULL;
}

/* an empty list display stored as a value of a dict of lists of known items: typed so */
static int
is_empty_list_for(KnInstr *x, const KnType *want)
{
    if (x->op != KN_OP_BUILD_LIST || x->nargs || !x->type || x->type->kind != KN_TY_LIST ||
        x->type->dtype || want->kind != KN_TY_LIST || !want->dtype)
        return 0;
    x->type = (KnType *)want;
    return 1;
}

/* the variable `in` is stored into, or -1 */
static int
stored_into(KnCompilation *c, const KnInstr *in)
{
    for (int b = 0; b < c->fn->blocks.len; b++) {
        KnBlock *blk = c->fn->blocks.items[b];
        for (int i = 0; i < blk->instrs.len; i++) {
            KnInstr *s = blk->instrs.items[i];
            if (s->op == KN_OP_STORE && s->args[0] == in)
                return s->aux;
        }
    }
    return -1;
}

/* type an empty dict (is_set 0) or set: 0, untyped for now when nothing tells its types */
static int
type_empty(KnCompilation *c, KnInstr *in, int is_set)
{
    int var = stored_into(c, in);
    if (var < 0)
        return 0;
    KnType *vt = c->fn->vars.items[var].type;
    if (vt && vt->kind == (is_set ? KN_TY_SET : KN_TY_DICT) && vt->id == KN_DICT_SELF) {
        in->type = vt;
        return 0;
    }
    KnType *k = NULL, *v = NULL;
    scan_uses(c, var, &k, &v);
    if (!k || (!is_set && !v))
        return 0;
    KN_TRY(check_key(c, in->span, k));
    if (!is_set)
        KN_TRY(check_value(c, in->span, v));
    in->type = is_set ? kn_type_set(c->types, k) : kn_type_dict(c->types, k, v, KN_DICT_SELF);
    return 0;
}

int
kn_typing_dict_untyped(KnCompilation *c, KnInstr *in)
{
    int is_call = in->op == KN_OP_CALL && in->impl &&
                  (((KnCallImpl *)in->impl)->builtin == KN_BI_DICT ||
                   ((KnCallImpl *)in->impl)->builtin == KN_BI_SET);
    if (in->op != KN_OP_BUILD_DICT && in->op != KN_OP_BUILD_SET && !is_call)
        return 0;
    int is_set =
        in->op == KN_OP_BUILD_SET || (is_call && ((KnCallImpl *)in->impl)->builtin == KN_BI_SET);
    if (is_set)
        kn_typing_err(c, in->span,
                      "cannot determine the item type of this empty set: add items to it in this "
                      "function (s.add(x)) or build it from items ({x, y})");
    else
        kn_typing_err(c, in->span,
                      "cannot determine the key and value types of this empty dict: put items "
                      "in it in this function (d[k] = v), or pass a kiln.typed.Dict made with "
                      "Dict.empty(key_type=..., value_type=...)");
    return 1;
}

/* ---- displays ---- */

int
kn_typing_build_dict(KnCompilation *c, KnInstr *in)
{
    int is_set = in->op == KN_OP_BUILD_SET;
    if (in->type)
        return 0;
    for (int i = 0; i < in->nargs; i++)
        if (!in->args[i]->type)
            return 0;
    if (!in->nargs)
        return type_empty(c, in, is_set);
    int step = is_set ? 1 : 2;
    KnType *k = NULL, *v = NULL;
    for (int i = 0; i + step <= in->nargs; i += step) {
        KN_TRY(check_key(c, in->args[i]->span, in->args[i]->type));
        if (!(k = unify_item(c, k, in->args[0], in->args[i], is_set ? "set items" : "dict keys")))
            return -1;
        if (is_set)
            continue;
        KN_TRY(check_value(c, in->args[i + 1]->span, in->args[i + 1]->type));
        if (!(v = unify_item(c, v, in->args[1], in->args[i + 1], "dict values")))
            return -1;
    }
    in->type = is_set ? kn_type_set(c->types, k) : kn_type_dict(c->types, k, v, KN_DICT_SELF);
    return 0;
}

/* ---- iteration ---- */

KnType *
kn_typing_dict_iter_item(KnCompilation *c, const KnType *t)
{
    if (t->kind == KN_TY_SET)
        return key_of(t);
    switch ((KnDictView)t->id) {
    case KN_DICT_VALUES:
        return val_of(t);
    case KN_DICT_ITEMS: {
        KnType *kv[2] = {key_of(t), val_of(t)};
        return kn_type_tuple(c->types, kv, 2);
    }
    default:
        return key_of(t);
    }
}

/* ---- hash() ---- */

int
kn_type_rule_hash(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    int kind_rc = kn_typing_dunder_builtin(c, in, id, a, n); /* "str.__len__", ...: operator.c */
    if (kind_rc != -2)
        return kind_rc;
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (n != 1)
        return kn_typing_err(c, in->span, "hash() takes exactly one argument (%d given)", n);
    const char *why = unhashable(a[0]);
    if (why)
        return kn_typing_err(c, in->span, "%s: hash() of %s", why, a[0]->name);
    in->type = &kn_type_int64;
    return 0;
}

/* ---- the entries ---- */

/* key (or value) operand `at` of type `given` goes into a table whose type is `want` */
static int
converts(KnCompilation *c, const KnInstr *at, const KnType *want, const char *what,
         const KnType *table)
{
    const KnType *given = at->type;
    if (given == want || kn_type_can_convert_safely(given, want))
        return 0;
    return kn_typing_err(c, at->span, "%s of type %s does not fit %s (its %ss are %s)", what,
                         given->name, table->name, what, want->name);
}

static int
need_args(KnCompilation *c, KnInstr *in, const char *name, int n, int lo, int hi)
{
    if (n < lo || n > hi)
        return kn_typing_err(c, in->span, "%s() takes %s%d argument%s (%d given)", name,
                             lo == hi ? "" : "at most ", hi, hi == 1 ? "" : "s", n);
    return 0;
}

static int
need_same(KnCompilation *c, KnInstr *in, const KnType *self, const KnType *other, const char *op)
{
    if (self != other)
        return kn_typing_err(c, in->span, "%s of %s and %s: kiln needs two %ss of the same type",
                             op, self->name, other ? other->name : "?",
                             self->kind == KN_TY_SET ? "set" : "dict");
    return 0;
}

/* dict(x): x is d.items() (a copy of d), or a list, tuple or set of 2-tuples (lower/dict.c:
 * dict_from_pairs). dict(zip(a, b)) and the other forms the frontend rewrites never get here. */
static int
dict_of_pairs(KnCompilation *c, KnInstr *in, KnType *x)
{
    KnType *pair = NULL;
    if (x->kind == KN_TY_DICT && x->id == KN_DICT_ITEMS) {
        in->type = kn_type_dict(c->types, key_of(x), val_of(x), KN_DICT_SELF);
        return 0;
    }
    if (x->kind == KN_TY_LIST) {
        if (!x->dtype)
            return 0; /* a later round may know the items */
        pair = x->dtype;
    } else if (x->kind == KN_TY_SET) {
        pair = key_of(x);
    } else if (x->kind == KN_TY_TUPLE) {
        pair = x->n ? x->items[0] : NULL;
        for (int j = 1; pair && j < x->n; j++)
            pair = kn_type_unify(c->types, pair, x->items[j]);
    }
    if (!pair || pair->kind != KN_TY_TUPLE || pair->n != 2)
        return kn_typing_err(c, in->args[1]->span,
                             "dict(%s) is not supported: kiln takes dict(), dict(a dict), "
                             "dict(d.items()), dict(zip(keys, values)), dict(k=v) and dict() of a "
                             "list, tuple or set of (key, value) pairs",
                             x->name);
    KN_TRY(check_key(c, in->args[1]->span, pair->items[0]));
    KN_TRY(check_value(c, in->args[1]->span, pair->items[1]));
    in->type = kn_type_dict(c->types, pair->items[0], pair->items[1], KN_DICT_SELF);
    return 0;
}

static int
constructor(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    int is_set = id == KN_BI_SET;
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (in->aux)
        return kn_typing_err(c, in->span, "%s() with keyword arguments is not supported",
                             is_set ? "set" : "dict");
    if (n == 0)
        return type_empty(c, in, is_set);
    if (n == 1 && a[0]->kind == (is_set ? KN_TY_SET : KN_TY_DICT) && a[0]->id == KN_DICT_SELF) {
        in->type = a[0];
        return 0;
    }
    if (n == 1 && !is_set)
        return dict_of_pairs(c, in, a[0]);
    return kn_typing_err(c, in->span, "%s(%s) is not supported: kiln takes %s() and %s(a %s)",
                         is_set ? "set" : "dict", n ? a[0]->name : "", is_set ? "set" : "dict",
                         is_set ? "set" : "dict", is_set ? "set" : "dict");
}

/* the set a keys view (or a set) stands for in set operations, or NULL */
static KnType *
as_set(KnCompilation *c, const KnType *t)
{
    if (t && t->kind == KN_TY_SET)
        return (KnType *)t;
    if (t && t->kind == KN_TY_DICT && t->id == KN_DICT_KEYS)
        return kn_type_set(c->types, key_of(t));
    return NULL;
}

/* a keys view with a set or another keys view: ==, !=, <=, <, >=, > and | & - ^ as sets
 * (lower/dict.c); 1 when typed so, 0 when the operands are something else */
static int
keys_view_op(KnCompilation *c, KnInstr *in, int id, KnType **a)
{
    KnType *x = as_set(c, a[0]), *y = as_set(c, a[1]);
    if (!x || x != y || (a[0]->kind == KN_TY_SET && a[1]->kind == KN_TY_SET))
        return 0;
    int cmp = id == KN_BI_DICT_EQ || id == KN_BI_DICT_NE || id == KN_BI_SET_EQ ||
              id == KN_BI_SET_NE || id == KN_BI_SET_LE || id == KN_BI_SET_LT ||
              id == KN_BI_SET_GE || id == KN_BI_SET_GT || id == KN_BI_DICT_LE ||
              id == KN_BI_DICT_LT || id == KN_BI_DICT_GE || id == KN_BI_DICT_GT;
    int setop = id == KN_BI_DICT_OR || id == KN_BI_DICT_AND || id == KN_BI_DICT_SUB ||
                id == KN_BI_DICT_XOR || id == KN_BI_SET_OR || id == KN_BI_SET_AND ||
                id == KN_BI_SET_SUB || id == KN_BI_SET_XOR;
    if (!cmp && !setop)
        return 0;
    in->type = cmp ? &kn_type_bool : x;
    return 1;
}

/* the operator entries: in is BINOP, CMP, GETITEM, SETITEM, LEN or TRUTH */
static int
type_operator(KnCompilation *c, KnInstr *in, int id, KnType **a)
{
    if ((in->op == KN_OP_BINOP || in->op == KN_OP_CMP) && keys_view_op(c, in, id, a))
        return 0;
    if (id == KN_BI_DICT_IOR) { /* d1 |= d2: d1.update(d2), d1 itself */
        KN_TRY(need_same(c, in, a[0], a[1], "|="));
        if (a[0]->id != KN_DICT_SELF)
            return kn_typing_err(c, in->span, "|= of %s is not supported", a[0]->name);
        in->type = a[0];
        return 0;
    }
    if (id == KN_BI_DICT_LE || id == KN_BI_DICT_LT || id == KN_BI_DICT_GE || id == KN_BI_DICT_GT)
        return kn_typing_err(c, in->span,
                             "'%s' is not supported between %s and %s (only keys views compare "
                             "as sets)",
                             kn_kir_cmp_symbol((KnCmp)in->aux), a[0]->name, a[1]->name);
    if (id == KN_BI_DICT_OR) { /* d1 | d2: a new dict, d2's items last */
        KN_TRY(need_same(c, in, a[0], a[1], "|"));
        if (a[0]->id != KN_DICT_SELF)
            return kn_typing_err(c, in->span, "| of %s is not supported", a[0]->name);
        in->type = a[0];
        return 0;
    }
    if (id == KN_BI_DICT_AND || id == KN_BI_DICT_SUB || id == KN_BI_DICT_XOR)
        return kn_typing_err(c, in->span, "%s of %s and %s is not supported",
                             kn_kir_builtin_attr(id), a[0]->name, a[1]->name);
    int contains = id == KN_BI_DICT_CONTAINS || id == KN_BI_SET_CONTAINS;
    KnType *t = contains ? a[1] : a[0];
    KnInstr *key = contains ? in->args[0] : in->args[1];
    switch (id) {
    case KN_BI_DICT_GETITEM:
    case KN_BI_DICT_SETITEM:
        if (t->id != KN_DICT_SELF)
            return kn_typing_err(c, in->span, "%s is not subscriptable", t->name);
        KN_TRY(converts(c, key, key_of(t), "key", t));
        if (id == KN_BI_DICT_SETITEM)
            return is_empty_list_for(in->args[2], val_of(t))
                       ? 0
                       : converts(c, in->args[2], val_of(t), "value", t);
        in->type = val_of(t);
        return 0;
    case KN_BI_DICT_CONTAINS:
    case KN_BI_SET_CONTAINS:
        if (t->kind == KN_TY_DICT && t->id == KN_DICT_VALUES) { /* a scan (lower/dict.c) */
            if (!deep_comparable(val_of(t), 0))
                return kn_typing_err(c, in->span, "`in` of %s is not supported", t->name);
            KN_TRY(converts(c, key, val_of(t), "value", t));
            in->type = &kn_type_bool;
            return 0;
        }
        if (t->kind == KN_TY_DICT && t->id == KN_DICT_ITEMS) { /* (k, v) in d.items() */
            KnType *x = key->type;
            if (x->kind != KN_TY_TUPLE || x->n != 2 || !deep_comparable(val_of(t), 0) ||
                !(x->items[0] == key_of(t) || kn_type_can_convert_safely(x->items[0], key_of(t))) ||
                !(x->items[1] == val_of(t) || kn_type_can_convert_safely(x->items[1], val_of(t))))
                return kn_typing_err(c, in->span,
                                     "cannot look for %s in %s (its items are (%s, %s))", x->name,
                                     t->name, key_of(t)->name, val_of(t)->name);
            in->type = &kn_type_bool;
            return 0;
        }
        KN_TRY(converts(c, key, key_of(t), "key", t));
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_DICT_LEN:
    case KN_BI_SET_LEN:
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_DICT_BOOL:
    case KN_BI_SET_BOOL:
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_DICT_EQ:
    case KN_BI_DICT_NE:
        KN_TRY(need_same(c, in, a[0], a[1], "==")); /* a[0] is a dict or a[1] is */
        if (a[0]->id == KN_DICT_KEYS) {             /* keys views compare as sets */
            in->type = &kn_type_bool;
            return 0;
        }
        if ((a[0]->id != KN_DICT_SELF && a[0]->id != KN_DICT_ITEMS) ||
            !deep_comparable(val_of(a[0]), 1))
            return kn_typing_err(c, in->span, "== of %s is not supported yet", a[0]->name);
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_SET_EQ:
    case KN_BI_SET_NE:
    case KN_BI_SET_LE:
    case KN_BI_SET_LT:
    case KN_BI_SET_GE:
    case KN_BI_SET_GT:
        KN_TRY(need_same(c, in, a[0], a[1], "comparison"));
        in->type = &kn_type_bool;
        return 0;
    default: /* | & - ^ and their in-place forms */
        KN_TRY(need_same(c, in, a[0], a[1], kn_kir_builtin_attr(id)));
        in->type = a[0];
        return 0;
    }
}

static int
type_method(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnType *t = in->args[0]->args[0]->type;
    const char *name = kn_kir_builtin_attr(id);
    kn_typing_impl_kind(c, in, KN_CALL_METHOD)->builtin = id;
    if (in->aux)
        return kn_typing_err(c, in->span, "%s.%s() does not take keyword arguments",
                             kn_kind_name(t->kind), name);
    if (t->kind == KN_TY_DICT && t->id != KN_DICT_SELF)
        return kn_typing_err(c, in->span, "%s has no method %s()", t->name, name);
    switch (id) {
    case KN_BI_DICT_DELITEM:
    case KN_BI_SET_DISCARD:
    case KN_BI_SET_REMOVE:
    case KN_BI_SET_ADD:
        KN_TRY(need_args(c, in, name, n, 1, 1));
        KN_TRY(converts(c, in->args[1], key_of(t), "key", t));
        in->type = &kn_type_none;
        return 0;
    case KN_BI_DICT_GET:
        if (n == 1) { /* d.get(k): the value or None, an optional (as Numba's) */
            KN_TRY(converts(c, in->args[1], key_of(t), "key", t));
            in->type = kn_type_optional(c->types, val_of(t));
            return 0;
        }
        /* fall through */
    case KN_BI_DICT_SETDEFAULT:
        KN_TRY(need_args(c, in, name, n, 2, 2));
        KN_TRY(converts(c, in->args[1], key_of(t), "key", t));
        if (!is_empty_list_for(in->args[2], val_of(t)))
            KN_TRY(converts(c, in->args[2], val_of(t), "default", t));
        in->type = val_of(t);
        return 0;
    case KN_BI_DICT_POP:
        KN_TRY(need_args(c, in, name, n, 1, 2));
        KN_TRY(converts(c, in->args[1], key_of(t), "key", t));
        if (n == 2)
            KN_TRY(converts(c, in->args[2], val_of(t), "default", t));
        in->type = val_of(t);
        return 0;
    case KN_BI_DICT_POPITEM: {
        KN_TRY(need_args(c, in, name, n, 0, 0));
        KnType *kv[2] = {key_of(t), val_of(t)};
        in->type = kn_type_tuple(c->types, kv, 2);
        return 0;
    }
    case KN_BI_SET_POP:
        KN_TRY(need_args(c, in, name, n, 0, 0));
        in->type = key_of(t);
        return 0;
    case KN_BI_DICT_UPDATE:
    case KN_BI_SET_UPDATE:
    case KN_BI_SET_INTERSECTION_UPDATE:
    case KN_BI_SET_DIFFERENCE_UPDATE:
    case KN_BI_SET_SYMMETRIC_DIFFERENCE_UPDATE:
        KN_TRY(need_args(c, in, name, n, 1, 1));
        KN_TRY(need_same(c, in, t, a[0], name));
        in->type = &kn_type_none;
        return 0;
    case KN_BI_DICT_KEYS:
    case KN_BI_DICT_VALUES:
    case KN_BI_DICT_ITEMS:
        KN_TRY(need_args(c, in, name, n, 0, 0));
        in->type = kn_type_dict(c->types, key_of(t), val_of(t),
                                id == KN_BI_DICT_KEYS     ? KN_DICT_KEYS
                                : id == KN_BI_DICT_VALUES ? KN_DICT_VALUES
                                                          : KN_DICT_ITEMS);
        return 0;
    case KN_BI_DICT_CLEAR:
    case KN_BI_SET_CLEAR:
        KN_TRY(need_args(c, in, name, n, 0, 0));
        in->type = &kn_type_none;
        return 0;
    case KN_BI_DICT_COPY:
    case KN_BI_SET_COPY:
        KN_TRY(need_args(c, in, name, n, 0, 0));
        in->type = t;
        return 0;
    case KN_BI_SET_UNION:
    case KN_BI_SET_INTERSECTION:
    case KN_BI_SET_DIFFERENCE:
    case KN_BI_SET_SYMMETRIC_DIFFERENCE:
        KN_TRY(need_args(c, in, name, n, 1, 1));
        KN_TRY(need_same(c, in, t, a[0], name));
        in->type = t;
        return 0;
    case KN_BI_SET_ISSUBSET:
    case KN_BI_SET_ISSUPERSET:
    case KN_BI_SET_ISDISJOINT:
        KN_TRY(need_args(c, in, name, n, 1, 1));
        KN_TRY(need_same(c, in, t, a[0], name));
        in->type = &kn_type_bool;
        return 0;
    default:
        return kn_typing_err(c, in->span, "%s.%s() is not supported", kn_kind_name(t->kind), name);
    }
}

int
kn_type_rule_dict(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    if (id == KN_BI_DICT || id == KN_BI_SET)
        return constructor(c, in, id, a, n);
    if (in->op == KN_OP_CALL && in->args[0]->op == KN_OP_GETATTR)
        return type_method(c, in, id, a, n);
    return type_operator(c, in, id, a);
}
