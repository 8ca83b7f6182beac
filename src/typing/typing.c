/* typing.c - type inference for KIR.
 *
 * Input: the untyped KIR of c->fn and the argument types. Output: a type on every instruction
 * of every reachable block, a type on every variable (the unification of all values stored to
 * it, with Numba's rules), the function's return type (the unification of all returned values),
 * and a KnCallImpl on every CALL. It is a fixpoint: blocks are typed in order, repeatedly, until
 * no variable's type changes, because a loop can widen a variable after its first use (and a
 * recursive call only learns its type once a non-recursive return path has been typed).
 * Errors are diagnostics at the span of the offending expression, never crashes. */
#include <stdlib.h>
#include "typing/internal.h"

#include <stdio.h>

/* The rules floor (rules.c) under the short name this file was written with. */
#define is_intlike(t) kn_typing_intlike(t)

static const char *const binop_verbs[] = {
    "add", "subtract", "multiply", "divide", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* ---- operators ---- */

KnType *
kn_typing_binop_result(KnBinop op, KnType *a, KnType *b, KnType **operand)
{
    if (!kn_type_is_number(a) || !kn_type_is_number(b))
        return NULL;
    KnType *p = kn_type_promote(a, b);
    *operand = p;
    switch (op) {
    case KN_BIN_ADD:
    case KN_BIN_SUB:
    case KN_BIN_MUL:
        return p;
    case KN_BIN_TRUEDIV:
        if (p->kind == KN_TY_INT)
            *operand = p = &kn_type_float64;
        return p;
    case KN_BIN_FLOORDIV:
    case KN_BIN_MOD:
        return p->kind == KN_TY_COMPLEX ? NULL : p;
    case KN_BIN_POW:
        /* Numba keeps float32 ** int in float32 */
        if (a->kind == KN_TY_FLOAT && a->bits == 32 && is_intlike(b))
            *operand = p = &kn_type_float32;
        return p;
    case KN_BIN_LSHIFT:
    case KN_BIN_RSHIFT:
        if (!is_intlike(a) || !is_intlike(b))
            return NULL;
        *operand = p = (a->kind == KN_TY_INT && !a->is_signed) ? &kn_type_uint64 : &kn_type_int64;
        return p;
    case KN_BIN_AND:
    case KN_BIN_OR:
    case KN_BIN_XOR:
        if (a->kind == KN_TY_BOOL && b->kind == KN_TY_BOOL) {
            *operand = &kn_type_bool;
            return &kn_type_bool;
        }
        if (!is_intlike(a) || !is_intlike(b))
            return NULL;
        return p;
    default:
        return NULL;
    }
}

/* Point an operator error at the operand whose type is wrong, and say where it came from. */
static KnInstr *
culprit(KnInstr *in)
{
    if (in->nargs == 2) {
        int l = kn_type_is_number(in->args[0]->type), r = kn_type_is_number(in->args[1]->type);
        if (l && !r)
            return in->args[1];
        if (r && !l)
            return in->args[0];
    }
    return in;
}

static void
note_origin(KnCompilation *c, KnDiag *d, KnInstr *v)
{
    if (v->op != KN_OP_LOAD)
        return;
    KnVar *var = &c->fn->vars.items[v->aux];
    if (var->name[0] == '$')
        return;
    if (var->is_param)
        kn_diag_note(&c->diags, d, var->span, "'%s' is %s: argument %d", var->name, var->type->name,
                     v->aux + 1);
    else
        kn_diag_note(&c->diags, d, var->span, "'%s' is %s", var->name, var->type->name);
}

/* t + u on tuples: the concatenation */
static KnType *
tuple_concat(KnCompilation *c, KnType *a, KnType *b)
{
    KnType *items[256];
    if (a->n + b->n > 256)
        return NULL;
    memcpy(items, a->items, sizeof(KnType *) * (size_t)a->n);
    memcpy(items + a->n, b->items, sizeof(KnType *) * (size_t)b->n);
    return kn_type_tuple(c->types, items, a->n + b->n);
}

static int
type_binop(KnCompilation *c, KnInstr *in)
{
    KnType *a = in->args[0]->type, *b = in->args[1]->type, *operand = NULL;
    if (!a || !b)
        return 0;
    if (a->kind == KN_TY_ARRAY || b->kind == KN_TY_ARRAY)
        return kn_typing_array_binop(c, in, a, b);
    if (a->kind == KN_TY_TUPLE && b->kind == KN_TY_TUPLE && in->aux == KN_BIN_ADD) {
        in->type = tuple_concat(c, a, b);
        if (!in->type) {
            kn_diag_error(&c->diags, KN_DIAG_UNSUPPORTED, in->span,
                          "tuples of more than 256 items");
            return -1;
        }
        if (!in->impl)
            in->impl = kn_arena_alloc(&c->arena, sizeof(KnCallImpl));
        return 0;
    }
    KnType *r = kn_typing_binop_result((KnBinop)in->aux, a, b, &operand);
    if (!r) {
        KnInstr *bad = culprit(in);
        const char *verb = binop_verbs[in->aux];
        KnDiag *d;
        if (verb)
            d = kn_diag_error(&c->diags, KN_DIAG_TYPING, bad->span, "cannot %s %s and %s", verb,
                              a->name, b->name);
        else
            d = kn_diag_error(&c->diags, KN_DIAG_TYPING, bad->span,
                              "unsupported operand types for %s: %s and %s",
                              kn_kir_binop_symbol((KnBinop)in->aux), a->name, b->name);
        if (bad != in)
            note_origin(c, d, bad);
        return -1;
    }
    in->type = r;
    KnCallImpl *impl = in->impl;
    if (!impl)
        in->impl = impl = kn_arena_alloc(&c->arena, sizeof(KnCallImpl));
    impl->operand = operand;
    return 0;
}

static int
type_unop(KnCompilation *c, KnInstr *in)
{
    KnType *a = in->args[0]->type;
    if (!a)
        return 0;
    if (a->kind == KN_TY_ARRAY)
        return kn_typing_array_unop(c, in, a);
    if (in->aux == KN_UN_NOT) {
        KN_TRY(kn_typing_truth_ok(c, in, a));
        in->type = &kn_type_bool;
        return 0;
    }
    if (!kn_type_is_number(a) || (in->aux == KN_UN_INVERT && !is_intlike(a))) {
        static const char *const names[] = {"-", "+", "~", "not"};
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "bad operand type for unary %s: %s",
                      names[in->aux], a->name);
        return -1;
    }
    if (is_intlike(a))
        in->type = (a->kind == KN_TY_INT && !a->is_signed) ? &kn_type_uint64 : &kn_type_int64;
    else
        in->type = a;
    return 0;
}

int
kn_typing_truth_ok(KnCompilation *c, KnInstr *in, KnType *t)
{
    if (kn_type_is_number(t) || t->kind == KN_TY_NONE || t->kind == KN_TY_TUPLE ||
        t->kind == KN_TY_RANGE || t->kind == KN_TY_STR ||
        kn_lib_find(kn_kind_name(t->kind), "__bool__") >= 0) /* a kind's own (list.__bool__) */
        return 0;
    kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "cannot use %s as a truth value", t->name);
    return -1;
}

/* x in t: t a tuple of numbers (or a range) and x a number */
static int
type_contains(KnCompilation *c, KnInstr *in, KnType *a, KnType *b)
{
    int ok = kn_type_is_number(a) && (b->kind == KN_TY_TUPLE || b->kind == KN_TY_RANGE);
    for (int i = 0; ok && b->kind == KN_TY_TUPLE && i < b->n; i++)
        ok = kn_type_is_number(b->items[i]);
    if (b->kind == KN_TY_RANGE && a->kind == KN_TY_COMPLEX)
        ok = 0;
    if (!ok) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "'in' is not supported between %s and %s", a->name, b->name);
        return -1;
    }
    return 0;
}

/* np.float64, np.int8, ... and what a.dtype types as (the same class) */
static int
is_np_scalar_class(const KnType *t)
{
    return t->kind == KN_TY_FUNC && t->id >= 0 && (kn_lib_flags(t->id) & KN_CF_SCALAR_CLASS);
}

static int
type_cmp(KnCompilation *c, KnInstr *in)
{
    KnType *a = in->args[0]->type, *b = in->args[1]->type;
    if (!a || !b)
        return 0;
    in->type = &kn_type_bool;
    KnCallImpl *impl = in->impl;
    if (!impl)
        in->impl = impl = kn_arena_alloc(&c->arena, sizeof(KnCallImpl));
    if (in->aux == KN_CMP_IN || in->aux == KN_CMP_NOTIN)
        return type_contains(c, in, a, b);
    if (kn_typing_optional_cmp(c, in)) /* `x is None` of an optional (optional.c) */
        return 0;
    if (kn_typing_enum_cmp(c, in)) /* enum members (enum.c) */
        return 0;
    if (a->kind == KN_TY_ARRAY || b->kind == KN_TY_ARRAY)
        return kn_typing_array_cmp(c, in, a, b);
    if (kn_type_is_number(a) && kn_type_is_number(b)) {
        int ordered = in->aux != KN_CMP_EQ && in->aux != KN_CMP_NE;
        if (ordered && (a->kind == KN_TY_COMPLEX || b->kind == KN_TY_COMPLEX)) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                          "'%s' is not supported between %s and %s",
                          kn_kir_cmp_symbol((KnCmp)in->aux), a->name, b->name);
            return -1;
        }
        impl->operand = kn_type_promote(a, b);
        return 0;
    }
    if (a->kind == KN_TY_TUPLE && b->kind == KN_TY_TUPLE) {
        int rc = kn_typing_tuple_compare(c, in, a, b); /* strs, lists: typing/list.c */
        if (rc != -2)
            return rc;
        for (int i = 0; a->n == b->n && i < a->n; i++)
            if (!kn_type_is_number(a->items[i]) || !kn_type_is_number(b->items[i])) {
                kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                              "comparing tuples of %s and %s is not supported", a->name, b->name);
                return -1;
            }
        impl->operand = NULL;
        return 0;
    }
    if ((in->aux == KN_CMP_EQ || in->aux == KN_CMP_NE) && is_np_scalar_class(a) &&
        is_np_scalar_class(b)) { /* a.dtype == np.float64: known at compile time */
        impl->kind = KN_CALL_CONST;
        impl->value = (a->id == b->id) == (in->aux == KN_CMP_EQ);
        return 0;
    }
    if (in->aux == KN_CMP_EQ || in->aux == KN_CMP_NE) {
        /* None against anything, and `is` between different kinds: known at compile time */
        if (a->kind == KN_TY_NONE || b->kind == KN_TY_NONE || in->imm.i) {
            impl->kind = KN_CALL_CONST;
            impl->value = (a == b) == (in->aux == KN_CMP_EQ);
            return 0;
        }
    }
    kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "cannot compare %s and %s with '%s'",
                  a->name, b->name, kn_kir_cmp_symbol((KnCmp)in->aux));
    return -1;
}

/* ---- tuples and attributes ---- */

static int
type_tuple(KnCompilation *c, KnInstr *in)
{
    KnType *items[256];
    if (in->nargs > 256) {
        kn_diag_error(&c->diags, KN_DIAG_UNSUPPORTED, in->span, "tuples of more than 256 items");
        return -1;
    }
    for (int i = 0; i < in->nargs; i++) {
        items[i] = in->args[i]->type;
        if (!items[i])
            return 0;
        if (!kn_type_is_value(items[i]) && items[i]->kind != KN_TY_FUNC &&
            items[i]->kind != KN_TY_CLASS) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[i]->span,
                          "%s cannot be stored in a tuple", items[i]->name);
            return -1;
        }
    }
    in->type = in->imm.ptr ? kn_typing_namedtuple_tuple(c, in, items) /* Point(1, 2) */
                           : kn_type_tuple(c->types, items, in->nargs);
    return 0;
}

static int
const_index(const KnInstr *idx, int64_t *out)
{
    if (idx->op != KN_OP_CONST || !idx->type || idx->type->kind != KN_TY_INT)
        return 0;
    *out = idx->imm.i;
    return 1;
}

static int
type_getitem(KnCompilation *c, KnInstr *in)
{
    KnType *s = in->args[0]->type, *i = in->args[1]->type;
    if (!s || !i)
        return 0;
    if (s->kind == KN_TY_RECORD || (kn_typing_record_array(s) && i == &kn_type_str))
        return kn_typing_record_getitem(c, in, s); /* r['x'], a['x'] (record.c) */
    if (s->kind == KN_TY_ARRAY)
        return kn_typing_array_getitem(c, in, s, i);
    if (!is_intlike(i)) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[1]->span,
                      "%s indices must be integers%s, not %s", s->name,
                      s->kind == KN_TY_TUPLE ? " (or slices with constant bounds)" : "", i->name);
        return -1;
    }
    if (s->kind == KN_TY_RANGE) {
        in->type = &kn_type_int64;
        return 0;
    }
    if (s->kind != KN_TY_TUPLE) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "%s is not subscriptable", s->name);
        return -1;
    }

    if (in->aux && in->aux != s->n) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "cannot unpack %s of %d items into %d targets", s->name, s->n, in->aux);
        return -1;
    }
    int64_t k;
    if (const_index(in->args[1], &k)) {
        if (k < 0)
            k += s->n;
        if (k < 0 || k >= s->n) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                          "tuple index %lld out of range for %s", (long long)in->args[1]->imm.i,
                          s->name);
            return -1;
        }
        in->type = s->items[k];
        return 0;
    }
    KnType *u = s->n ? s->items[0] : NULL;
    for (int j = 1; u && j < s->n; j++)
        if (s->items[j] != u)
            u = NULL;
    if (!u)
        u = kn_typing_func_items(c, s); /* (sq, cube)[i]: functions.c */
    if (!u) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "cannot index %s with a variable index: its items have different types",
                      s->name);
        return -1;
    }
    in->type = u;
    return 0;
}

/* Python's slice.indices(n) for constant bounds */
static void
slice_indices(const KnSlice *s, int64_t n, int64_t *start, int64_t *stop, int64_t *step)
{
    *step = s->has_step ? s->step : 1;
    int64_t lo = *step < 0 ? -1 : 0, hi = *step < 0 ? n - 1 : n;
    int64_t def_start = *step < 0 ? hi : lo, def_stop = *step < 0 ? lo : hi;
    *start = def_start;
    *stop = def_stop;
    if (s->has_start) {
        *start = s->start < 0 ? s->start + n : s->start;
        *start = *start < lo ? lo : *start > hi ? hi : *start;
    }
    if (s->has_stop) {
        *stop = s->stop < 0 ? s->stop + n : s->stop;
        *stop = *stop < lo ? lo : *stop > hi ? hi : *stop;
    }
}

int
kn_typing_slice_items(const KnSlice *s, int n, int *out)
{
    int64_t start, stop, step;
    slice_indices(s, n, &start, &stop, &step);
    int k = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        out[k++] = (int)i;
    return k;
}

static int
type_slice(KnCompilation *c, KnInstr *in)
{
    KnType *t = in->args[0]->type;
    if (!t)
        return 0;
    if (t->kind == KN_TY_ARRAY) {
        in->type = kn_typing_index_result(c, in->span, t, &kn_type_slice);
        return in->type ? 0 : -1;
    }
    if (t->kind != KN_TY_TUPLE) {
        kn_diag_error(&c->diags, KN_DIAG_UNSUPPORTED, in->span, "slicing %s is not supported",
                      t->name);
        return -1;
    }
    int idx[256];
    KnType *items[256];
    int n = kn_typing_slice_items(in->imm.ptr, t->n, idx);
    for (int i = 0; i < n; i++)
        items[i] = t->items[idx[i]];
    in->type = kn_type_tuple(c->types, items, n);
    return 0;
}

/* range.start/stop/step, flags.c_contiguous/f_contiguous/contiguous/writeable */
int
kn_type_rule_range_attr(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    (void)c, (void)id, (void)a, (void)n;
    in->type = &kn_type_int64;
    return 0;
}

int
kn_type_rule_flags_attr(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    (void)c, (void)id, (void)a, (void)n;
    in->type = &kn_type_bool;
    return 0;
}

/* number.real, number.imag */
int
kn_type_rule_number_attr(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    (void)c, (void)id, (void)a, (void)n;
    KnType *t = in->args[0]->type;
    if (t->kind == KN_TY_COMPLEX)
        in->type = kn_type_float(t->bits / 2);
    else
        in->type = t->kind == KN_TY_BOOL ? &kn_type_int64 : t;
    return 0;
}

static int
type_getattr(KnCompilation *c, KnInstr *in)
{
    KnType *t = in->args[0]->type;
    if (!t)
        return 0;
    const char *a = in->imm.str;
    if (t->kind == KN_TY_RECORD)
        return kn_typing_record_getattr(c, in, t); /* r.x (record.c) */
    if (t->kind == KN_TY_ARRAY)
        return kn_typing_array_getattr(c, in, t);
    if (t->kind == KN_TY_TUPLE && t->fields && kn_typing_namedtuple_attr(c, in, t) == 0)
        return 0; /* p.x of a namedtuple (namedtuple.c) */
    /* attributes and methods of other values: the registry (lib/array.def) */
    const char *owner = kn_typing_owner(t);
    int id = owner ? kn_lib_find(owner, a) : -1;
    if (id >= 0 && (kn_lib_flags(id) & KN_CF_ATTR))
        return kn_typing_entry(c, in, id, NULL, 0);
    if (id >= 0 && (kn_lib_flags(id) & KN_CF_METHOD)) {
        in->type = kn_type_bound(c->types, t, a);
        return 0;
    }
    if (owner && !strcmp(owner, "flags")) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "array flags have no '%s'", a);
        return -1;
    }
    kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "%s has no attribute '%s'", t->name, a);
    return -1;
}

static int
type_len(KnCompilation *c, KnInstr *in)
{
    KnType *t = in->args[0]->type;
    if (!t)
        return 0;
    if (t->kind == KN_TY_TUPLE || t->kind == KN_TY_RANGE || (t->kind == KN_TY_ARRAY && t->ndim)) {
        in->type = &kn_type_int64;
        return 0;
    }
    kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "cannot iterate over %s (it has no len())",
                  t->name);
    return -1;
}

static int
type_cast(KnCompilation *c, KnInstr *in)
{
    KnType *t = in->args[0]->type;
    if (!t)
        return 0;
    if (!kn_type_is_number(t) || t->kind == KN_TY_COMPLEX ||
        (in->type->kind == KN_TY_INT && t->kind == KN_TY_FLOAT)) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span, "expected an integer, got %s",
                      t->name);
        return -1;
    }
    return 0;
}

/* ---- variables, returns, branches ---- */

static KnSpan
first_store_span(KnCompilation *c, int var, KnType *type)
{
    for (int b = 0; b < c->fn->blocks.len; b++) {
        KnBlock *blk = c->fn->blocks.items[b];
        for (int i = 0; i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op == KN_OP_STORE && in->aux == var && in->args[0]->type == type)
                return in->args[0]->span;
        }
    }
    return c->fn->vars.items[var].span;
}

static int
same_span(KnSpan a, KnSpan b)
{
    return a.line == b.line && a.col == b.col && a.end_line == b.end_line && a.end_col == b.end_col;
}

/* Whether this return is the one the frontend adds at the end of the body. */
static int
is_fall_off(KnCompilation *c, const KnInstr *ret)
{
    return ret->args[0]->op == KN_OP_CONST && ret->args[0]->type == &kn_type_none &&
           same_span(ret->span, c->fn->span);
}

/* Whether unifying a and b failed because one is None: Numba would give Optional. */
static int
is_optional_pair(const KnType *a, const KnType *b)
{
    return (a == &kn_type_none) != (b == &kn_type_none) && kn_type_is_value(a) &&
           kn_type_is_value(b);
}

/* The first reachable return of a value of this type (NULL if none is typed yet). */
static KnInstr *
first_ret_of(KnCompilation *c, const KnType *type)
{
    for (int b = 0; b < c->fn->blocks.len; b++) {
        KnBlock *blk = c->fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op == KN_OP_RET && in->nargs && in->args[0]->type == type)
                return in;
        }
    }
    return NULL;
}

static int
type_store(KnCompilation *c, KnInstr *in, int *changed)
{
    KnType *v = in->args[0]->type;
    if (!v)
        return 0;
    KnVar *var = &c->fn->vars.items[in->aux];
    int declared;
    KN_TRY(kn_typing_locals_store(c, in, &declared)); /* locals={...} (locals.c) */
    if (declared)
        return 0;
    if (!kn_typing_passable(v) && var->name[0] != '$' && !(var->type == NULL || var->type == v)) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span, "cannot assign %s to '%s'",
                      v->name, var->name);
        return -1;
    }
    KnType *u = kn_type_unify(c->types, var->type, v);
    if (!u && var->type)
        u = kn_type_optional_unify(c->types, var->type, v); /* None and a value: optional */
    if (!u) {
        const char *nm = var->name[0] == '$' ? "this expression" : var->name;
        KnDiag *d;
        if (is_optional_pair(var->type, v)) {
            const KnType *t = var->type == &kn_type_none ? v : var->type;
            d = kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span,
                              "%s%s%s can be both None and %s: a value that may be None "
                              "(Optional[%s]) is not supported yet",
                              var->name[0] == '$' ? "" : "'", nm, var->name[0] == '$' ? "" : "'",
                              t->name, t->name);
        } else {
            d = kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span,
                              "cannot unify %s and %s for '%s'", var->type->name, v->name, nm);
        }
        kn_diag_note(&c->diags, d, first_store_span(c, in->aux, var->type),
                     "'%s' was given type %s here", nm, var->type->name);
        return -1;
    }
    if (u != var->type) {
        var->type = u;
        *changed = 1;
    }
    return 0;
}

static int
type_ret(KnCompilation *c, KnInstr *in, int *changed)
{
    KnType *v = in->args[0]->type;
    if (!v)
        return 0;
    if (!kn_typing_passable(v)) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span, "cannot return %s", v->name);
        return -1;
    }
    KnType *u = kn_type_unify(c->types, c->fn->ret_type, v);
    if (!u && c->fn->ret_type)
        u = kn_type_optional_unify(c->types, c->fn->ret_type, v); /* None and a value */
    if (!u) {
        KnType *was = c->fn->ret_type;
        KnDiag *d;
        const char *off_end = is_fall_off(c, in) ? " (the function can run off its end, which "
                                                   "returns None)"
                                                 : "";
        if (is_optional_pair(was, v))
            d = kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span,
                              "cannot return both None and %s%s: a value that may be None "
                              "(Optional[%s]) is not supported yet",
                              (was == &kn_type_none ? v : was)->name, off_end,
                              (was == &kn_type_none ? v : was)->name);
        else
            d = kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span,
                              "cannot unify return types %s and %s", was->name, v->name);
        KnInstr *r = first_ret_of(c, was);
        if (r && is_fall_off(c, r))
            kn_diag_note(&c->diags, d, r->span,
                         "the function returns None when it runs off its end");
        else if (r)
            kn_diag_note(&c->diags, d, r->args[0]->span, "%s is returned here",
                         was == &kn_type_none ? "None" : was->name);
        return -1;
    }
    if (u != c->fn->ret_type) {
        c->fn->ret_type = u;
        *changed = 1;
    }
    return 0;
}

static int
type_instr(KnCompilation *c, KnInstr *in, int *changed)
{
    int handled;
    KN_TRY(kn_typing_operator(c, in, &handled)); /* str, list, dict, ...: operator.c */
    if (handled)
        return 0;
    switch (in->op) {
    case KN_OP_CONST:
    case KN_OP_GLOBAL:
    case KN_OP_BR:
        return 0;
    case KN_OP_RAISE:
    case KN_OP_EXC_MATCH:
    case KN_OP_RERAISE:
        return kn_typing_exc(c, in); /* exceptions.c */
    case KN_OP_ARG:
        in->type = c->fn->arg_types[in->aux];
        return 0;
    case KN_OP_LOAD:
        if (c->fn->vars.items[in->aux].type != in->type) {
            in->type = c->fn->vars.items[in->aux].type;
            *changed = 1;
        }
        return 0;
    case KN_OP_STORE:
        return type_store(c, in, changed);
    case KN_OP_BINOP:
        return type_binop(c, in);
    case KN_OP_UNOP:
        return type_unop(c, in);
    case KN_OP_CMP:
        return type_cmp(c, in);
    case KN_OP_TRUTH:
        if (!in->args[0]->type)
            return 0;
        KN_TRY(kn_typing_truth_ok(c, in, in->args[0]->type));
        in->type = &kn_type_bool;
        return 0;
    case KN_OP_CALL:
        return kn_typing_call(c, in, changed);
    case KN_OP_GETATTR:
        return type_getattr(c, in);
    case KN_OP_TUPLE:
        return type_tuple(c, in);
    case KN_OP_GETITEM:
        return type_getitem(c, in);
    case KN_OP_LEN:
        return type_len(c, in);
    case KN_OP_SLICE:
        return type_slice(c, in);
    case KN_OP_SETITEM:
        return kn_typing_setitem(c, in);
    case KN_OP_MAKESLICE:
        for (int i = 0; i < in->nargs; i++) {
            KnType *a = in->args[i]->type;
            if (!a)
                return 0;
            if (!is_intlike(a) && a->kind != KN_TY_NONE) {
                kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[i]->span,
                              "slice bounds must be integers or None, not %s", a->name);
                return -1;
            }
        }
        in->type = &kn_type_slice;
        return 0;
    case KN_OP_CAST:
        return type_cast(c, in);
    case KN_OP_UNWRAP:
        return kn_typing_unwrap(c, in); /* optional.c */
    case KN_OP_GETITER:
        return kn_typing_getiter(c, in);
    case KN_OP_BUILD_LIST:
        return kn_typing_build_list(c, in); /* typing/list.c */
    case KN_OP_ITERNEXT:
        return kn_typing_iternext(c, in);
    case KN_OP_CBR:
        return 0;
    case KN_OP_RET:
        return type_ret(c, in, changed);
    case KN_OP_YIELD:
        return kn_typing_yield(c, in, changed); /* typing/generators.c */
    case KN_OP_BUILD_DICT:
    case KN_OP_BUILD_SET:
        return kn_typing_build_dict(c, in); /* typing/dict.c */
    default:
        if (kn_kir_op_not_yet_compiled(in->op)) {
            kn_diag_error(&c->diags, KN_DIAG_LOWERING, in->span,
                          "internal error: typing reached `%s`, an op that kiln does not "
                          "compile yet (ir/ops.def)",
                          kn_kir_op_name(in->op));
            return -1;
        }
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, in->span, "typing: unknown op %s",
                      kn_kir_op_name(in->op));
        return -1;
    }
}

static void
mark_reachable(KnFunction *fn)
{
    if (!fn->blocks.len)
        return;
    /* each block is pushed once: the stack never holds more than all of them */
    KnBlock **stack = malloc(sizeof(KnBlock *) * (size_t)fn->blocks.len);
    if (!stack)
        abort();
    int sp = 0;
    fn->blocks.items[0]->reachable = 1;
    stack[sp++] = fn->blocks.items[0];
    while (sp) {
        KnBlock *b = stack[--sp];
        KnInstr *t = kn_kir_terminator(b);
        for (int k = 0; t && k < 3; k++) {
            KnBlock *s = k < 2 ? t->targets[k] : b->unwind; /* and the exception edge */
            if (s && !s->reachable) {
                s->reachable = 1;
                stack[sp++] = s;
            }
        }
    }
    free(stack);
}

static KnInstr *
first_untyped(KnFunction *fn)
{
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        if (!blk->reachable)
            continue;
        for (int i = 0; i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            int has_value = kn_kir_op_has_value(in->op);
            if (has_value && !in->type)
                return in;
        }
    }
    return NULL;
}

static int
report_untyped(KnCompilation *c, KnInstr *in)
{
    if (kn_typing_report_unknown_list(c, in)) /* an empty [] passed to a callee: functions.c */
        return -1;
    if (in->op == KN_OP_CALL && in->args[0]->type && in->args[0]->type->kind == KN_TY_FUNC &&
        in->args[0]->type->id < 0) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "cannot determine the return type of the recursive call to %s: every "
                      "return path goes through the recursion (add a base case that returns "
                      "without recursing, before the recursive call)",
                      in->args[0]->type->name);
        return -1;
    }
    if (kn_typing_dict_untyped(c, in)) /* an empty {} or set() (typing/dict.c) */
        return -1;
    if (in->op == KN_OP_LOAD) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "variable '%s' is used before any value is assigned to it",
                      c->fn->vars.items[in->aux].name);
        return -1;
    }
    kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span, "cannot determine the type of this %s",
                  kn_kir_op_name(in->op));
    return -1;
}

int
kn_typing_infer(KnCompilation *c, KnType **argtypes)
{
    KnFunction *fn = c->fn;
    fn->arg_types = argtypes;
    mark_reachable(fn);
    kn_typing_locals_init(c);
    for (int b = 1; b < fn->blocks.len; b++) /* the rounds find which blocks are reached */
        fn->blocks.items[b]->reachable = 0;
    char *live = fn->blocks.len ? kn_arena_alloc(&c->arena, (size_t)fn->blocks.len) : NULL;
    for (int iter = 0; iter < 100; iter++) {
        int changed = 0;
        /* a block is typed when reached this round, or last round (a loop's back edge); a branch
         * whose condition typing folded (`b is None` of a non-optional b) reaches one side */
        for (int b = 0; b < fn->blocks.len; b++)
            live[b] = b == 0;
        for (int b = 0; b < fn->blocks.len; b++) {
            KnBlock *blk = fn->blocks.items[b];
            if (!blk->reachable && !live[b])
                continue;
            for (int i = 0; i < blk->instrs.len; i++) {
                i += kn_typing_unwrap_operands(c, blk, i); /* optional values (optional.c) */
                KN_TRY(type_instr(c, blk->instrs.items[i], &changed));
            }
            if (live[b])
                kn_typing_mark_live(blk, live); /* reach.c */
        }
        changed |= kn_typing_close_live(fn, live);
        changed |= kn_typing_take_refined(c);
        if (!changed)
            break;
    }
    KnInstr *bad = first_untyped(fn);
    if (bad)
        return report_untyped(c, bad);
    if (!fn->ret_type) /* no reachable return: every path raises (or loops); as in Numba */
        fn->ret_type = &kn_type_none;
    const KnRecursionSeen *seen = kn_ctx_get(c, KN_SIDE_RECURSION);
    if (seen && seen->partial_ret_used && seen->ret_type_seen != fn->ret_type) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, fn->span,
                      "the return type of recursive function %s changed from %s to %s while it "
                      "was typed; make its base case return the final type",
                      fn->name, seen->ret_type_seen ? seen->ret_type_seen->name : "unknown",
                      fn->ret_type->name);
        return -1;
    }
    if (c->declared_ret) {
        if (!kn_type_can_convert_safely(fn->ret_type, c->declared_ret) &&
            !(kn_type_is_number(fn->ret_type) && kn_type_is_number(c->declared_ret))) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, fn->span,
                          "%s returns %s, which cannot be converted to the declared %s", fn->name,
                          fn->ret_type->name, c->declared_ret->name);
            return -1;
        }
        fn->ret_type = c->declared_ret;
    }
    return 0;
}
