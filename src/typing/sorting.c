/* sorting.c - typing of the sorting family (lib/sorting.def): np.sort, np.argsort, a.sort(),
 * a.argsort(), np.searchsorted, np.unique, np.digitize, np.median, np.percentile, np.quantile,
 * np.interp and np.histogram. Each rule checks its arguments (constants where NumPy's result
 * type depends on them: axis, side, right, method), gives the result type as NumPy 2 does, and
 * leaves in the call's KnCallImpl what lowering (lower/sorting.c) needs: `operand` the dtype the
 * data is converted to before the runtime routine, `value` the axis (-1: axis=None, flattened)
 * or the side, `result` the element type of the result. */
#include "typing/internal.h"

#include <stdio.h>

static const char *
fname(int id)
{
    return kn_kir_builtin_name(id);
}

static int
is_const(const KnInstr *x, KnTypeKind kind)
{
    return x->op == KN_OP_CONST && x->type && x->type->kind == kind;
}

static int
is_none(const KnInstr *x)
{
    return x->type && x->type->kind == KN_TY_NONE;
}

static int
real(const KnType *d)
{
    return kn_type_is_number(d) && d->kind != KN_TY_COMPLEX;
}

static int
numeric_array(const KnType *t)
{
    return t->kind == KN_TY_ARRAY && kn_type_is_number(t->dtype);
}

static KnCallImpl *
impl_of(KnCompilation *c, KnInstr *in, int id, KnCallKind kind)
{
    if (!in->impl)
        in->impl = kn_arena_alloc(&c->arena, sizeof(KnCallImpl));
    KnCallImpl *impl = in->impl;
    impl->kind = kind;
    impl->builtin = id;
    return impl;
}

/* axis=: absent is -1 (the last axis); None (if allowed) gives KN_AXIS_NONE; an int constant
 * in range, normalized. -2: an error was reported. */
enum { KN_AXIS_NONE = -1 };
static int64_t
axis_of(KnCompilation *c, int id, KnInstr *axis, const KnType *a, int none_ok, KnSpan span)
{
    if (axis && is_none(axis)) {
        if (none_ok)
            return KN_AXIS_NONE;
        kn_typing_err(c, axis->span, "%s() needs an integer axis, not None", fname(id));
        return -2;
    }
    int64_t k = -1;
    if (axis) {
        if (!is_const(axis, KN_TY_INT)) {
            kn_typing_err(c, axis->span, "axis= must be a constant integer%s in kiln",
                          none_ok ? " or None" : "");
            return -2;
        }
        k = axis->imm.i;
    }
    int64_t nk = k < 0 ? k + a->ndim : k;
    if (nk < 0 || nk >= a->ndim) {
        kn_typing_err(c, axis ? axis->span : span,
                      "axis %lld is out of bounds for array of dimension %d", (long long)k,
                      a->ndim);
        return -2;
    }
    return nk;
}

/* kind=: one of NumPy's names; kiln's sort is always stable (a stable order is a valid result
 * of every kind) */
static int
kind_ok(KnCompilation *c, int id, KnInstr *kind)
{
    static const char *const kinds[] = {"quicksort", "mergesort", "heapsort", "stable", NULL};
    if (!kind || is_none(kind))
        return 0;
    if (is_const(kind, KN_TY_STR))
        for (int i = 0; kinds[i]; i++)
            if (!strcmp(kinds[i], kind->imm.str))
                return 0;
    return kn_typing_err(
        c, kind->span,
        "%s()'s kind= must be a constant 'quicksort', 'mergesort', 'heapsort' or 'stable'",
        fname(id));
}

/* np.sort, np.argsort, a.sort(), a.argsort() */
static int
type_sort(KnCompilation *c, KnInstr *in, int id, KnInstr *self)
{
    int method = id == KN_BI_ARRAY_SORT || id == KN_BI_ARRAY_ARGSORT;
    int arg = id == KN_BI_NP_ARGSORT || id == KN_BI_ARRAY_ARGSORT;
    KnCallImpl *impl = impl_of(c, in, id, method ? KN_CALL_METHOD : KN_CALL_BUILTIN);
    static const char *const kw[] = {"a", "axis", "kind", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), method ? kw + 1 : kw, method ? 2 : 3));
    KnInstr *a = method ? self : kn_typing_arg(in, 0, "a");
    KnInstr *axis = kn_typing_arg(in, method ? 0 : 1, "axis");
    KnInstr *kind = kn_typing_arg(in, method ? 1 : 2, "kind");
    if (!a)
        return kn_typing_err(c, in->span, "%s() needs an array", fname(id));
    KnType *t = a->type;
    if (!numeric_array(t))
        return kn_typing_err(c, a->span, "%s() needs an array of numbers, not %s", fname(id),
                             t->name);
    KN_TRY(kind_ok(c, id, kind));
    if (id == KN_BI_ARRAY_SORT && t->readonly)
        return kn_typing_err(c, in->span, "cannot sort a read-only array in place (%s)", t->name);
    if (axis && !is_none(axis) && !t->ndim)
        return kn_typing_err(c, axis->span, "axis %lld is out of bounds for array of dimension 0",
                             is_const(axis, KN_TY_INT) ? (long long)axis->imm.i : -1LL);
    if (!axis && !t->ndim)
        return kn_typing_err(c, a->span,
                             "axis -1 is out of bounds for array of dimension 0 (%s() of a 0-d "
                             "array needs axis=None)",
                             fname(id));
    int64_t k = axis_of(c, id, axis, t, id != KN_BI_ARRAY_SORT, in->span);
    if (k == -2)
        return -1;
    impl->value = k;
    impl->operand = t->dtype;
    KnType *d = arg ? &kn_type_int64 : t->dtype;
    impl->result = d;
    if (id == KN_BI_ARRAY_SORT)
        in->type = &kn_type_none;
    else
        in->type = kn_type_array(c->types, d, k == KN_AXIS_NONE ? 1 : t->ndim, 'C', 0);
    return 0;
}

/* kth of np.partition: an int, a tuple of ints or a 1-d array of ints (bool is not an index) */
static int
kth_ok(KnCompilation *c, int id, KnInstr *kth)
{
    KnType *t = kth->type;
    int ok = t->kind == KN_TY_INT;
    if (t->kind == KN_TY_TUPLE) {
        ok = 1;
        for (int i = 0; i < t->n; i++)
            ok &= t->items[i]->kind == KN_TY_INT;
    }
    if (t->kind == KN_TY_ARRAY)
        ok = t->ndim == 1 && t->dtype->kind == KN_TY_INT;
    if (!ok)
        return kn_typing_err(c, kth->span,
                             "%s()'s kth must be an integer, a tuple of integers or a 1-d array "
                             "of integers, not %s",
                             fname(id), t->name);
    return 0;
}

/* np.partition, np.argpartition, a.partition(), a.argpartition() */
static int
type_partition(KnCompilation *c, KnInstr *in, int id, KnInstr *self)
{
    int method = id == KN_BI_ARRAY_PARTITION || id == KN_BI_ARRAY_ARGPARTITION;
    int arg = id == KN_BI_NP_ARGPARTITION || id == KN_BI_ARRAY_ARGPARTITION;
    KnCallImpl *impl = impl_of(c, in, id, method ? KN_CALL_METHOD : KN_CALL_BUILTIN);
    static const char *const kw[] = {"a", "kth", "axis", "kind", "order", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), method ? kw + 1 : kw, method ? 4 : 5));
    int o = method ? -1 : 0;
    KnInstr *a = method ? self : kn_typing_arg(in, 0, "a");
    KnInstr *kth = kn_typing_arg(in, o + 1, "kth"), *axis = kn_typing_arg(in, o + 2, "axis"),
            *kind = kn_typing_arg(in, o + 3, "kind"), *order = kn_typing_arg(in, o + 4, "order");
    if (!a || !kth)
        return kn_typing_err(c, in->span, "%s() needs %s", fname(id),
                             method ? "kth" : "an array and kth");
    KnType *t = a->type;
    if (!numeric_array(t))
        return kn_typing_err(c, a->span, "%s() needs an array of numbers, not %s", fname(id),
                             t->name);
    KN_TRY(kth_ok(c, id, kth));
    if (kind && !is_none(kind) &&
        !(is_const(kind, KN_TY_STR) && !strcmp(kind->imm.str, "introselect")))
        return kn_typing_err(c, kind->span, "%s()'s kind= must be 'introselect'", fname(id));
    if (order && !is_none(order))
        return kn_typing_err(c, order->span, "%s()'s order= is for structured arrays", fname(id));
    if (id == KN_BI_ARRAY_PARTITION && t->readonly)
        return kn_typing_err(c, in->span, "cannot partition a read-only array in place (%s)",
                             t->name);
    if (!t->ndim && !(axis && is_none(axis)))
        return kn_typing_err(c, a->span,
                             "axis -1 is out of bounds for array of dimension 0 (%s() of a 0-d "
                             "array needs axis=None)",
                             fname(id));
    int64_t k = axis_of(c, id, axis, t, !method, in->span);
    if (k == -2)
        return -1;
    impl->value = k;
    impl->operand = t->dtype;
    KnType *d = arg ? &kn_type_int64 : t->dtype;
    impl->result = d;
    if (id == KN_BI_ARRAY_PARTITION)
        in->type = &kn_type_none;
    else
        in->type = kn_type_array(c->types, d, k == KN_AXIS_NONE ? 1 : t->ndim, 'C', 0);
    return 0;
}

/* the dtype two operands are compared in: NumPy converts both to their common type */
static KnType *
common(KnType *a, KnType *b)
{
    KnType *da = a->kind == KN_TY_ARRAY ? a->dtype : a, *db = b->kind == KN_TY_ARRAY ? b->dtype : b;
    return kn_type_numpy_promote(da, db);
}

static int
value_arg(KnCompilation *c, int id, KnInstr *v, const char *what, int complex_ok)
{
    KnType *t = v->type, *d = t->kind == KN_TY_ARRAY ? t->dtype : t;
    if (!kn_type_is_number(d))
        return kn_typing_err(c, v->span,
                             "%s()'s %s must be a number or an array of numbers, not %s", fname(id),
                             what, t->name);
    if (!complex_ok && d->kind == KN_TY_COMPLEX)
        return kn_typing_err(c, v->span, "%s may not be complex", what);
    return 0;
}

static int
vector_arg(KnCompilation *c, int id, KnInstr *v, const char *what, int complex_ok)
{
    KnType *t = v->type;
    if (t->kind != KN_TY_ARRAY || t->ndim != 1 || !kn_type_is_number(t->dtype))
        return kn_typing_err(c, v->span, "%s()'s %s must be a 1-d array of numbers, not %s",
                             fname(id), what, t->name);
    if (!complex_ok && t->dtype->kind == KN_TY_COMPLEX)
        return kn_typing_err(c, v->span, "%s may not be complex", what);
    return 0;
}

/* the result of a function of v elementwise: an array of v's ndim, or a scalar */
static KnType *
like(KnCompilation *c, KnType *v, KnType *d)
{
    return v->kind == KN_TY_ARRAY ? kn_type_array(c->types, d, v->ndim, 'C', 0) : d;
}

/* np.searchsorted(a, v, side, sorter) and a.searchsorted(v, side, sorter) */
static int
type_searchsorted(KnCompilation *c, KnInstr *in, int id, KnInstr *self)
{
    int method = id == KN_BI_ARRAY_SEARCHSORTED;
    static const char *const kw[] = {"a", "v", "side", "sorter", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), method ? kw + 1 : kw, method ? 3 : 4));
    int o = method ? -1 : 0;
    KnInstr *a = method ? self : kn_typing_arg(in, 0, "a"), *v = kn_typing_arg(in, o + 1, "v"),
            *side = kn_typing_arg(in, o + 2, "side"), *sorter = kn_typing_arg(in, o + 3, "sorter");
    if (!a || !v)
        return kn_typing_err(c, in->span, "%s() needs a and v", fname(id));
    KN_TRY(vector_arg(c, id, a, "a", 1));
    KN_TRY(value_arg(c, id, v, "v", 1));
    if (sorter && !is_none(sorter)) {
        KnType *st = sorter->type;
        if (st->kind != KN_TY_ARRAY || st->ndim != 1 || st->dtype->kind != KN_TY_INT)
            return kn_typing_err(c, sorter->span,
                                 "%s()'s sorter must be a 1-d array of integers, not %s", fname(id),
                                 st->name);
    }
    KnCallImpl *impl = impl_of(c, in, id, method ? KN_CALL_METHOD : KN_CALL_BUILTIN);
    impl->value = 0;
    if (side) {
        if (!is_const(side, KN_TY_STR))
            return kn_typing_err(c, side->span,
                                 "side= must be a constant string 'left' or 'right'");
        if (strcmp(side->imm.str, "left") && strcmp(side->imm.str, "right"))
            return kn_typing_err(c, side->span, "search side must be 'left' or 'right' (got '%s')",
                                 side->imm.str);
        impl->value = !strcmp(side->imm.str, "right");
    }
    impl->operand = common(a->type, v->type);
    in->type = like(c, v->type, &kn_type_int64);
    return 0;
}

static int
type_unique(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {
        "ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), kw, 5));
    KnInstr *a = kn_typing_arg(in, 0, "ar");
    if (!a)
        return kn_typing_err(c, in->span, "np.unique() needs an array");
    if (!numeric_array(a->type))
        return kn_typing_err(c, a->span, "np.unique() needs an array of numbers, not %s",
                             a->type->name);
    /* return_index, return_inverse, return_counts: constants (the result's type depends on
     * them), bits 0, 1, 2 of impl->value */
    static const char *const flags[] = {"return_index", "return_inverse", "return_counts"};
    int mask = 0;
    for (int i = 0; i < 3; i++) {
        KnInstr *f = kn_typing_arg(in, 1 + i, flags[i]);
        if (f && !is_const(f, KN_TY_BOOL))
            return kn_typing_err(c, f->span, "np.unique()'s %s= must be a constant True or False",
                                 flags[i]);
        if (f && f->imm.i)
            mask |= 1 << i;
    }
    KnInstr *axis = kn_typing_arg(in, 4, "axis");
    if (axis && !is_none(axis))
        return kn_typing_err(c, axis->span, "np.unique()'s axis= is not supported yet in kiln");
    KnInstr *eq = kn_typing_arg(in, KN_KEYWORD_ONLY, "equal_nan");
    if (eq && !(is_const(eq, KN_TY_BOOL) && eq->imm.i))
        return kn_typing_err(c, eq->span,
                             "np.unique(equal_nan=False) is not supported yet in kiln");
    KnCallImpl *impl = impl_of(c, in, id, KN_CALL_BUILTIN);
    impl->operand = a->type->dtype;
    impl->value = mask;
    in->type = kn_type_array(c->types, a->type->dtype, 1, 'C', 0);
    if (!mask)
        return 0;
    KnType *items[4] = {in->type}, *ix = kn_type_array(c->types, &kn_type_int64, 1, 'C', 0);
    int m = 1;
    if (mask & 1)
        items[m++] = ix;
    if (mask & 2) /* NumPy 2: the inverse has the input's shape */
        items[m++] =
            kn_type_array(c->types, &kn_type_int64, a->type->ndim ? a->type->ndim : 1, 'C', 0);
    if (mask & 4)
        items[m++] = ix;
    in->type = kn_type_tuple(c->types, items, m);
    return 0;
}

static int
type_digitize(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"x", "bins", "right", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), kw, 3));
    KnInstr *x = kn_typing_arg(in, 0, "x"), *bins = kn_typing_arg(in, 1, "bins"),
            *right = kn_typing_arg(in, 2, "right");
    if (!x || !bins)
        return kn_typing_err(c, in->span, "np.digitize() needs x and bins");
    KN_TRY(value_arg(c, id, x, "x", 0));
    KN_TRY(vector_arg(c, id, bins, "bins", 0));
    KnCallImpl *impl = impl_of(c, in, id, KN_CALL_BUILTIN);
    impl->value = 0;
    if (right) {
        if (!is_const(right, KN_TY_BOOL))
            return kn_typing_err(c, right->span,
                                 "np.digitize()'s right= must be a constant True or False");
        impl->value = right->imm.i != 0;
    }
    impl->operand = common(x->type, bins->type);
    in->type = like(c, x->type, &kn_type_int64);
    return 0;
}

/* np.median, np.percentile, np.quantile: axis None or an int (impl->value: the axis, or -1) */
static int
order_stat_type(KnCompilation *c, KnInstr *in, int id)
{
    int median = id == KN_BI_NP_MEDIAN;
    static const char *const kw[] = {"a",        "q", "axis", "method", "overwrite_input",
                                     "keepdims", NULL};
    static const char *const kwm[] = {"a", "axis", "overwrite_input", "keepdims", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), median ? kwm : kw, median ? 2 : 3));
    KnInstr *a = kn_typing_arg(in, 0, "a"), *q = median ? NULL : kn_typing_arg(in, 1, "q"),
            *axis = kn_typing_arg(in, median ? 1 : 2, "axis"),
            *method = median ? NULL : kn_typing_arg(in, KN_KEYWORD_ONLY, "method");
    if (!a || (!median && !q))
        return kn_typing_err(c, in->span, "%s() needs %s", fname(id),
                             median ? "an array" : "a and q");
    KnType *t = a->type;
    if (!numeric_array(t))
        return kn_typing_err(c, a->span, "%s() needs an array of numbers, not %s", fname(id),
                             t->name);
    if (t->dtype->kind == KN_TY_COMPLEX)
        return kn_typing_err(c, a->span, "%s() of complex arrays is not supported%s", fname(id),
                             median ? " yet in kiln" : " (a must be an array of real numbers)");
    if (!median && t->dtype->kind == KN_TY_BOOL)
        return kn_typing_err(c, a->span,
                             "%s() of a bool array: NumPy has no boolean subtract (convert it "
                             "with .astype(np.int64) first)",
                             fname(id));
    int64_t k = KN_AXIS_NONE; /* an int axis: one result per position of the other axes */
    if (axis && !is_none(axis)) {
        k = axis_of(c, id, axis, t, 1, in->span);
        if (k == -2)
            return -1;
        if (t->ndim == 1)
            k = KN_AXIS_NONE; /* the whole array: a scalar, as NumPy */
    }
    if (method && !(is_const(method, KN_TY_STR) && !strcmp(method->imm.str, "linear")))
        return kn_typing_err(c, method->span, "%s()'s method= must be 'linear' in kiln", fname(id));
    KnCallImpl *impl = impl_of(c, in, id, KN_CALL_BUILTIN);
    impl->operand = t->dtype;
    impl->value = k;
    int f32 = t->dtype->kind == KN_TY_FLOAT && t->dtype->bits == 32;
    int rest = k == KN_AXIS_NONE ? 0 : t->ndim - 1; /* the result's dimensions besides q's */
    if (median) {
        in->type = f32 ? &kn_type_float32 : &kn_type_float64;
        in->type = rest ? kn_type_array(c->types, in->type, rest, 'C', 0) : in->type;
        return 0;
    }
    KnType *qt = q->type;
    if (qt->kind == KN_TY_ARRAY) {
        if (qt->ndim != 1 || !real(qt->dtype))
            return kn_typing_err(c, q->span,
                                 "%s()'s q must be a real number, a tuple of them or a 1-d array "
                                 "of them, not %s",
                                 fname(id), qt->name);
        in->type = kn_type_array(c->types, &kn_type_float64, 1 + rest, 'C', 0);
    } else if (qt->kind == KN_TY_TUPLE) {
        for (int i = 0; i < qt->n; i++)
            if (!real(qt->items[i]))
                return kn_typing_err(c, q->span, "%s()'s q must hold real numbers, not %s",
                                     fname(id), qt->name);
        in->type = kn_type_array(c->types, &kn_type_float64, 1 + rest, 'C', 0);
    } else if (real(qt)) {
        /* a float32 array and a scalar q: float32 (NumPy 2's weak Python scalar) */
        in->type = f32 ? &kn_type_float32 : &kn_type_float64;
        in->type = rest ? kn_type_array(c->types, in->type, rest, 'C', 0) : in->type;
    } else {
        return kn_typing_err(
            c, q->span,
            "%s()'s q must be a real number, a tuple of them or a 1-d array of them, not %s",
            fname(id), qt->name);
    }
    return 0;
}

/* ... and keepdims=True (a constant): the type without it in impl->reduced (lower/sorting.c
 * gives the result back its axes, of length 1) */
static int
type_order_stat(KnCompilation *c, KnInstr *in, int id)
{
    KN_TRY(order_stat_type(c, in, id));
    KnInstr *keep = kn_typing_arg(in, KN_KEYWORD_ONLY, "keepdims");
    KnInstr *ow = kn_typing_arg(in, KN_KEYWORD_ONLY, "overwrite_input");
    if (ow && !(ow->type->kind == KN_TY_BOOL))
        return kn_typing_err(c, ow->span, "%s()'s overwrite_input= must be True or False",
                             fname(id));
    KnCallImpl *impl = in->impl;
    impl->reduced = NULL;
    if (!keep)
        return 0;
    if (!is_const(keep, KN_TY_BOOL))
        return kn_typing_err(c, keep->span,
                             "keepdims= must be True or False, written as a constant");
    if (!keep->imm.i)
        return 0;
    KnType *a = kn_typing_arg(in, 0, "a")->type, *r = in->type;
    KnType *d = r->kind == KN_TY_ARRAY ? r->dtype : r;
    KnInstr *q = id == KN_BI_NP_MEDIAN ? NULL : kn_typing_arg(in, 1, "q");
    int lead = q && (q->type->kind == KN_TY_ARRAY || q->type->kind == KN_TY_TUPLE);
    impl->reduced = r;
    in->type = kn_type_array(c->types, d, a->ndim + lead, 'C', 0);
    return 0;
}

static int
type_interp(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"x", "xp", "fp", "left", "right", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), kw, 5));
    KnInstr *x = kn_typing_arg(in, 0, "x"), *xp = kn_typing_arg(in, 1, "xp"),
            *fp = kn_typing_arg(in, 2, "fp");
    if (!x || !xp || !fp)
        return kn_typing_err(c, in->span, "np.interp() needs x, xp and fp");
    KN_TRY(value_arg(c, id, x, "x", 0));
    KN_TRY(vector_arg(c, id, xp, "xp", 0));
    KN_TRY(vector_arg(c, id, fp, "fp", 1));
    /* complex fp: a complex128 result (kn_rt_interp_complex), left/right any number */
    int cplx = fp->type->dtype->kind == KN_TY_COMPLEX;
    static const char *const side[] = {"left", "right"};
    for (int i = 0; i < 2; i++) {
        KnInstr *s = kn_typing_arg(in, 3 + i, side[i]);
        if (s && !is_none(s) && !(cplx ? kn_type_is_number(s->type) : real(s->type)))
            return kn_typing_err(c, s->span,
                                 "np.interp()'s %s= must be a %s number or None, not %s", side[i],
                                 cplx ? "" : "real", s->type->name);
    }
    KnType *r = cplx ? &kn_type_complex128 : &kn_type_float64;
    impl_of(c, in, id, KN_CALL_BUILTIN)->operand = r;
    in->type = like(c, x->type, r);
    return 0;
}

static int
type_histogram(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"a", "bins", "range", "density", "weights", NULL};
    KN_TRY(kn_typing_check_keywords_of(c, in, fname(id), kw, 5));
    KnInstr *a = kn_typing_arg(in, 0, "a"), *bins = kn_typing_arg(in, 1, "bins"),
            *range = kn_typing_arg(in, 2, "range"), *density = kn_typing_arg(in, 3, "density"),
            *weights = kn_typing_arg(in, 4, "weights");
    if (!a)
        return kn_typing_err(c, in->span, "np.histogram() needs an array");
    if (!numeric_array(a->type) || a->type->dtype->kind == KN_TY_COMPLEX)
        return kn_typing_err(c, a->span, "np.histogram() needs an array of real numbers, not %s",
                             a->type->name);
    KnCallImpl *impl = impl_of(c, in, id, KN_CALL_BUILTIN);
    KnType *d = a->type->dtype;
    KnType *edges = d->kind == KN_TY_FLOAT && d->bits == 32 ? &kn_type_float32 : &kn_type_float64;
    impl->value = 0; /* bins: 0 an int (or the default 10), 1 an array of edges */
    if (bins && bins->type->kind == KN_TY_ARRAY) {
        KN_TRY(vector_arg(c, id, bins, "bins", 0));
        impl->value = 1;
        edges = bins->type->dtype; /* NumPy gives back the edges as given */
    } else if (bins && !kn_type_is_int(bins->type)) {
        return kn_typing_err(c, bins->span,
                             "np.histogram()'s bins must be an integer or a 1-d array of "
                             "edges (strings are not supported), not %s",
                             bins->type->name);
    }
    if (range && !is_none(range)) {
        KnType *r = range->type;
        if (r->kind != KN_TY_TUPLE || r->n != 2 || !real(r->items[0]) || !real(r->items[1]))
            return kn_typing_err(c, range->span,
                                 "np.histogram()'s range must be a tuple of two real "
                                 "numbers or None, not %s",
                                 r->name);
    }
    impl->result = edges;
    /* the counts: int64; weights: of the weights' dtype; density: float64 (impl->operand) */
    KnType *counts = &kn_type_int64;
    if (weights && !is_none(weights)) {
        KnType *w = weights->type;
        if (w->kind != KN_TY_ARRAY || !numeric_array(w) || w->dtype->kind == KN_TY_COMPLEX)
            return kn_typing_err(c, weights->span,
                                 "np.histogram()'s weights must be an array of real numbers, "
                                 "not %s",
                                 w->name);
        counts = w->dtype;
    }
    if (density && !is_none(density)) {
        if (!is_const(density, KN_TY_BOOL))
            return kn_typing_err(c, density->span,
                                 "np.histogram()'s density= must be a constant True or False");
        if (density->imm.i)
            counts = &kn_type_float64;
    }
    impl->operand = counts;
    KnType *items[2] = {kn_type_array(c->types, counts, 1, 'C', 0),
                        kn_type_array(c->types, edges, 1, 'C', 0)};
    in->type = kn_type_tuple(c->types, items, 2);
    return 0;
}

/* The NumPy functions of the family (lib/sorting.def), and the methods a.sort(), a.argsort()
 * (the call's callee is the method bound to the array, in->args[0]). */
/* The runtime's sorts and selections have no float16 keys yet: a float16 array (the method's
 * receiver or an argument) is a TypingError at it, naming the conversion that works. */
static int
refuse_float16(KnCompilation *c, KnInstr *in, int id)
{
    KnInstr *recv =
        in->args[0]->op == KN_OP_GETATTR && in->args[0]->nargs ? in->args[0]->args[0] : NULL;
    for (int i = recv ? 0 : 1; i < in->nargs; i++) {
        KnInstr *x = i ? in->args[i] : recv;
        if (x->type && x->type->kind == KN_TY_ARRAY && x->type->dtype == &kn_type_float16)
            return kn_typing_err(c, x->span,
                                 "%s() of float16 arrays is not supported in kiln yet (convert "
                                 "with .astype(np.float32) first)",
                                 fname(id));
    }
    return 0;
}

int
kn_type_rule_sorting(KnCompilation *c, KnInstr *in, int id, KnType **args, int n)
{
    (void)args;
    (void)n;
    if (id != KN_BI_NP_DIGITIZE && id != KN_BI_NP_INTERP && id != KN_BI_NP_HISTOGRAM)
        KN_TRY(refuse_float16(c, in, id));
    switch (id) {
    case KN_BI_ARRAY_SORT:
    case KN_BI_ARRAY_ARGSORT:
        return type_sort(c, in, id, in->args[0]->args[0]);
    case KN_BI_NP_SORT:
    case KN_BI_NP_ARGSORT:
        return type_sort(c, in, id, NULL);
    case KN_BI_NP_SEARCHSORTED:
        return type_searchsorted(c, in, id, NULL);
    case KN_BI_ARRAY_SEARCHSORTED:
        return type_searchsorted(c, in, id, in->args[0]->args[0]);
    case KN_BI_ARRAY_PARTITION:
    case KN_BI_ARRAY_ARGPARTITION:
        return type_partition(c, in, id, in->args[0]->args[0]);
    case KN_BI_NP_PARTITION:
    case KN_BI_NP_ARGPARTITION:
        return type_partition(c, in, id, NULL);
    case KN_BI_NP_UNIQUE:
        return type_unique(c, in, id);
    case KN_BI_NP_DIGITIZE:
        return type_digitize(c, in, id);
    case KN_BI_NP_INTERP:
        return type_interp(c, in, id);
    case KN_BI_NP_HISTOGRAM:
        return type_histogram(c, in, id);
    default:
        return type_order_stat(c, in, id);
    }
}

/* cumsum/cumprod (a.cumsum(), np.cumsum) along the constant axis k (typing/arrays.c calls this):
 * the accumulator's dtype as without an axis, a's shape (a 1-d array: as without the axis) */
int
kn_type_cum_axis(KnCompilation *c, KnInstr *in, const char *name, KnType *a, int64_t k)
{
    KN_TRY(kn_typing_reduction_axis(c, in, name, a, NULL));
    if (a->ndim <= 1)
        return 0;
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->value = k;
    in->type = kn_type_array(c->types, in->type->dtype, a->ndim, 'C', 0);
    return 0;
}
