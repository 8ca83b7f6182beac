/* arrays.c - typing of NumPy arrays: attributes, indexing with ints, slices, None and Ellipsis
 * (elements and views), item and slice assignment, elementwise operators with NumPy's
 * broadcasting and result dtypes (Python scalars are "weak": an int8 array plus 1 stays int8, as
 * in NumPy 2; a += b works in place), array creation (np.empty, zeros, ones, full and *_like,
 * arange, linspace, eye, identity, array, asarray), NumPy's math functions of scalars and arrays
 * with out=, and the reductions (sum/prod/min/max/mean with axis=, argmin/argmax, any/all,
 * cumsum/cumprod) and other methods (copy, fill, reshape, ravel, flatten, transpose, astype). */
#include "typing/internal.h"

#include <stdio.h>


static int
kind_rank(const KnType *t)
{
    return t->kind == KN_TY_BOOL ? 0 : t->kind == KN_TY_INT ? 1 : t->kind == KN_TY_FLOAT ? 2 : 3;
}

/* NumPy's can_cast(from, to, 'same_kind'): kinds ordered bool < unsigned < signed < float <
 * complex, and a cast may not go down that order (int64 to uint16 is refused, uint64 to int8
 * is allowed). The check of every in-place result: `a op= b` of names, slices, item views and
 * 0-d arrays, and out=. */
static int
same_kind_cast(const KnType *from, const KnType *to)
{
    KnType *f = (KnType *)from, *t = (KnType *)to;
    int of = f->kind == KN_TY_BOOL ? 0 : f->kind == KN_TY_INT ? 1 + f->is_signed : kind_rank(f) + 1;
    int ot = t->kind == KN_TY_BOOL ? 0 : t->kind == KN_TY_INT ? 1 + t->is_signed : kind_rank(t) + 1;
    return of <= ot;
}

/* the error of an in-place result that NumPy's same_kind casting refuses */
static int
inplace_cast_error(KnCompilation *c, KnSpan span, const KnType *r, const KnType *target, int op)
{
    return kn_typing_err(
        c, span,
        "cannot store the %s result in %s in place (NumPy's same_kind casting): write "
        "a = a %s b for a new array",
        r->name, target->name, kn_kir_binop_symbol((KnBinop)op));
}

/* The dtype of an elementwise operation of an array of dtype `d` with a scalar of type `s`
 * (docs/internals.md, "Array rules"). A scalar of the array's kind or a lower one is weak: the
 * array's dtype (NumPy 2's rule for Python scalars). One of a higher kind gives its own type
 * (Numba's rule for NumPy scalars; for Python scalars, int64, float64 and complex128, it is
 * NumPy 2's too), except that a complex scalar with a float array takes the array's precision
 * (float32 and 1j: complex64, as NumPy 2 for a Python complex). */
static KnType *
with_weak_scalar(KnType *d, KnType *s)
{
    if (kind_rank(s) <= kind_rank(d))
        return d;
    if (s->kind == KN_TY_COMPLEX && d->kind == KN_TY_FLOAT)
        return d->bits == 32 ? &kn_type_complex64 : &kn_type_complex128;
    return s;
}

/* The dtype both operands of an elementwise operation are converted to. */
KnType *
kn_typing_elementwise_operand(KnType *a, KnType *b)
{
    int aa = a->kind == KN_TY_ARRAY, ba = b->kind == KN_TY_ARRAY;
    KnType *da = aa ? a->dtype : a, *db = ba ? b->dtype : b;
    if (aa && ba)
        return kn_type_numpy_promote(da, db);
    return aa ? with_weak_scalar(da, db) : with_weak_scalar(db, da);
}

static KnType *
result_array(KnCompilation *c, KnType *dtype, KnType *a, KnType *b)
{
    int nd = 0;
    if (a && a->kind == KN_TY_ARRAY)
        nd = a->ndim;
    if (b && b->kind == KN_TY_ARRAY && b->ndim > nd)
        nd = b->ndim;
    return kn_type_array(c->types, dtype, nd, 'C', 0);
}

static int
elem_ok(KnType *t)
{
    return t->kind == KN_TY_ARRAY ? kn_type_is_number(t->dtype) : kn_type_is_number(t);
}

/* the int literal 2 (`a ** 2`, which NumPy computes as np.square) */
static int
is_literal_two(const KnInstr *x)
{
    return x->op == KN_OP_CONST && x->type && x->type->kind == KN_TY_INT && x->imm.i == 2;
}

int
kn_typing_array_binop(KnCompilation *c, KnInstr *in, KnType *a, KnType *b)
{
    if (!elem_ok(a) || !elem_ok(b))
        return kn_typing_err(c, in->span, "unsupported operand types for %s: %s and %s",
                             kn_kir_binop_symbol((KnBinop)in->aux), a->name, b->name);
    KnType *operand = kn_typing_elementwise_operand(a, b), *r = operand;
    if (in->aux == KN_BIN_POW && a->kind == KN_TY_ARRAY && a->dtype->kind == KN_TY_BOOL &&
        is_literal_two(in->args[1]))
        operand = r = &kn_type_int8; /* NumPy's `** 2` shortcut: np.square of bools is int8 */
    switch (in->aux) {
    case KN_BIN_TRUEDIV:
        if (kn_typing_intlike(operand))
            operand = r = &kn_type_float64;
        break;
    case KN_BIN_LSHIFT:
    case KN_BIN_RSHIFT:
    case KN_BIN_AND:
    case KN_BIN_OR:
    case KN_BIN_XOR:
        if (!kn_typing_intlike(operand))
            return kn_typing_err(c, in->span, "'%s' needs integer or bool arrays, not %s and %s",
                                 kn_kir_binop_symbol((KnBinop)in->aux), a->name, b->name);
        break;
    case KN_BIN_FLOORDIV:
    case KN_BIN_MOD:
        if (operand->kind == KN_TY_COMPLEX)
            return kn_typing_err(c, in->span, "'%s' is not defined for complex arrays",
                                 kn_kir_binop_symbol((KnBinop)in->aux));
        break;
    default:
        break;
    }
    if (operand->kind == KN_TY_BOOL) {
        /* NumPy's loops for two bools: + is or, * is and, - is an error, / is float64, the
         * integer-only operators compute in int8 */
        switch (in->aux) {
        case KN_BIN_ADD:
        case KN_BIN_MUL:
        case KN_BIN_AND:
        case KN_BIN_OR:
        case KN_BIN_XOR:
            break;
        case KN_BIN_SUB:
            return kn_typing_err(c, in->span,
                                 "numpy boolean subtract, the '-' operator, is not supported: "
                                 "use '^' or np.logical_xor");
        default:
            operand = r = &kn_type_int8;
        }
    }
    in->type = result_array(c, r, a, b);
    kn_typing_impl_of(c, in)->operand = operand;
    if (in->imm.i && a->kind == KN_TY_ARRAY && !a->readonly && a->ndim == in->type->ndim) {
        if (!same_kind_cast(r, a->dtype))
            return inplace_cast_error(c, in->span, r, a, (int)in->aux);
        /* a += b on an array updates it in place, as NumPy does */
        in->type = a;
        kn_typing_impl_of(c, in)->inplace = 1;
    }
    return 0;
}

int
kn_typing_array_cmp(KnCompilation *c, KnInstr *in, KnType *a, KnType *b)
{
    if (!elem_ok(a) || !elem_ok(b) || in->aux > KN_CMP_GE)
        return kn_typing_err(c, in->span, "cannot compare %s and %s with '%s'", a->name, b->name,
                             kn_kir_cmp_symbol((KnCmp)in->aux));
    in->type = result_array(c, &kn_type_bool, a, b);
    kn_typing_impl_of(c, in)->operand = kn_typing_elementwise_operand(a, b);
    return 0;
}

int
kn_typing_array_unop(KnCompilation *c, KnInstr *in, KnType *a)
{
    if (in->aux == KN_UN_NOT)
        return kn_typing_err(c, in->span,
                             "the truth value of an array is ambiguous: use a.any() or a.all()");
    if (in->aux == KN_UN_INVERT && !kn_typing_intlike(a->dtype))
        return kn_typing_err(c, in->span, "'~' needs an integer or bool array, not %s", a->name);
    KnType *d = a->dtype;
    if ((in->aux == KN_UN_NEG || in->aux == KN_UN_POS) && d->kind == KN_TY_BOOL)
        return kn_typing_err(c, in->span,
                             "unary %s is not defined for bool arrays: use '~' or np.logical_not",
                             in->aux == KN_UN_NEG ? "-" : "+");
    in->type = kn_type_array(c->types, d, a->ndim, 'C', 0);
    kn_typing_impl_of(c, in)->operand = d;
    return 0;
}

/* GETATTR of an array: an attribute or a method of the registry (lib/array.def), else one
 * implemented in Python (kiln.extending.overload_method / overload_attribute). */
int
kn_typing_array_getattr(KnCompilation *c, KnInstr *in, KnType *t)
{
    const char *a = in->imm.str;
    int id = kn_lib_find("array", a);
    if (id >= 0 && (kn_lib_flags(id) & KN_CF_ATTR)) {
        kn_typing_impl_of(c, in)->builtin = id;
        return kn_typing_entry(c, in, id, NULL, 0);
    }
    if (id < 0 && kn_typing_record_array_has(t, a))
        return kn_typing_record_getattr(c, in, t);   /* a.x of an array of records (record.c) */
    if (kn_typing_record_array_refuses(c, in, t, a)) /* records, datetimes: record.c */
        return -1;
    int has = id >= 0 ? 1 : kn_typing_has_overload_method(c, t, a, in->span);
    if (has < 0)
        return -1;
    if (has) {
        in->type = kn_type_bound(c->types, t, a);
        return 0;
    }
    int none = kn_typing_overload_attr(c, in, t);
    if (none <= 0)
        return none;
    return kn_typing_err(c, in->span, "%s has no attribute '%s' (in kiln yet)", t->name, a);
}

int
kn_type_rule_array_attr(KnCompilation *c, KnInstr *in, int id, KnType **args, int n)
{
    (void)args;
    (void)n;
    KnType *t = in->args[0]->type;
    const char *a = in->imm.str;
    switch (id) {
    case KN_BI_ARRAY_ATTR_SHAPE:
    case KN_BI_ARRAY_ATTR_STRIDES: {
        KnType *items[32];
        for (int i = 0; i < t->ndim; i++)
            items[i] = &kn_type_int64;
        in->type = kn_type_tuple(c->types, items, t->ndim);
        return 0;
    }
    case KN_BI_ARRAY_ATTR_NDIM:
    case KN_BI_ARRAY_ATTR_SIZE:
    case KN_BI_ARRAY_ATTR_ITEMSIZE:
    case KN_BI_ARRAY_ATTR_NBYTES:
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_ARRAY_ATTR_DTYPE: {
        int cls = kn_typing_scalar_class(t->dtype);
        if (cls >= 0)
            in->type = kn_type_func(c->types, cls, NULL, kn_kir_builtin_name(cls));
        return 0;
    }
    case KN_BI_ARRAY_ATTR_REAL:
    case KN_BI_ARRAY_ATTR_IMAG: {
        /* complex arrays: views of the parts; real arrays: the array itself, or zeros */
        KnType *d = t->dtype->kind == KN_TY_COMPLEX ? kn_type_float(t->dtype->bits / 2) : t->dtype;
        int view = t->dtype->kind == KN_TY_COMPLEX || a[0] == 'r';
        in->type =
            kn_type_array(c->types, d, t->ndim, view && t->dtype->kind == KN_TY_COMPLEX ? 'A' : 'C',
                          view ? t->readonly : 1);
        if (view && t->dtype->kind != KN_TY_COMPLEX)
            in->type = t;
        return 0;
    }
    case KN_BI_ARRAY_ATTR_FLAGS:
        in->type = kn_type_bound(c->types, t, "flags");
        return 0;
    default: { /* T */
        char layout = t->layout == 'C' ? 'F' : t->layout == 'F' ? 'C' : 'A';
        if (t->ndim <= 1)
            layout = t->layout;
        in->type = kn_type_array(c->types, t->dtype, t->ndim, layout, t->readonly);
        return 0;
    }
    }
}

/* the kind of a scalar, or of an array's elements */
static int
elem_kind(const KnType *t)
{
    return t->kind == KN_TY_ARRAY ? t->dtype->kind : t->kind;
}

/* Advanced indexing (NumPy's rules): integer arrays broadcast together to a shape B that
 * replaces the axes they index (where they are adjacent, ints between them counting as
 * indices), or goes first; a boolean array of k dimensions covers k axes and counts as the 1-d
 * array of its true positions. The result is a new C array: the axes the basic parts keep with
 * B among them. Lowering: lower/index.c and runtime/fancy.c. */
static KnType *
fancy_index_result(KnCompilation *c, KnSpan span, KnType *a, KnType *idx)
{
    int n = idx->kind == KN_TY_TUPLE ? idx->n : 1, covered = 0, nones = 0, bnd = 0, ell = 0;
    int slices = 0;
    for (int i = 0; i < n; i++) {
        KnType *it = idx->kind == KN_TY_TUPLE ? idx->items[i] : idx;
        if (it->kind == KN_TY_ARRAY) {
            if (it->dtype->kind == KN_TY_BOOL) {
                if (it->ndim == 0) {
                    kn_typing_err(c, span, "a 0-d boolean array index is not supported");
                    return NULL;
                }
                covered += it->ndim;
                bnd = bnd > 1 ? bnd : 1;
            } else if (it->dtype->kind == KN_TY_INT) {
                covered++;
                bnd = bnd > it->ndim ? bnd : it->ndim;
            } else {
                kn_typing_err(c, span,
                              "arrays used as indices must be of integer or boolean type, not %s",
                              it->name);
                return NULL;
            }
        } else if (kn_typing_intlike(it) || it->kind == KN_TY_SLICE) {
            covered++;
            slices += it->kind == KN_TY_SLICE;
        } else if (it->kind == KN_TY_NONE) {
            nones++;
        } else if (it == &kn_type_ellipsis) {
            if (ell++) {
                kn_typing_err(c, span, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
        } else {
            kn_typing_err(c, span,
                          "arrays are indexed by integers, slices, None, '...' and integer or "
                          "boolean arrays, not %s",
                          it->name);
            return NULL;
        }
    }
    if (covered > a->ndim) {
        kn_typing_err(c, span, "too many indices for %s: %d", a->name, covered);
        return NULL;
    }
    /* the axes no index takes, the slices' and the new ones, and B */
    int kept = a->ndim - covered + slices;
    return kn_type_array(c->types, a->dtype, kept + nones + bnd, 'C', 0);
}

/* is any part of the index an array (advanced indexing) */
int
kn_typing_index_is_fancy(const KnType *idx)
{
    if (idx->kind == KN_TY_ARRAY)
        return 1;
    if (idx->kind != KN_TY_TUPLE)
        return 0;
    for (int i = 0; i < idx->n; i++)
        if (idx->items[i]->kind == KN_TY_ARRAY)
            return 1;
    return 0;
}

/* What an index selects from an array of type a: the result type (an element, or a view). The
 * components are ints (take one position of an axis), slices (keep the axis, strided), None
 * (a new axis of length 1) and at most one Ellipsis (as many full slices as needed). */
KnType *
kn_typing_index_result(KnCompilation *c, KnSpan span, KnType *a, KnType *idx)
{
    if (kn_typing_index_is_fancy(idx))
        return fancy_index_result(c, span, a, idx);
    int n = idx->kind == KN_TY_TUPLE ? idx->n : 1, ints = 0, slices = 0, nones = 0, ell = 0;
    int only_leading_ints = 1;
    for (int i = 0; i < n; i++) {
        KnType *it = idx->kind == KN_TY_TUPLE ? idx->items[i] : idx;
        if (kn_typing_intlike(it)) {
            ints++;
            if (slices || nones || ell)
                only_leading_ints = 0;
        } else if (it->kind == KN_TY_SLICE) {
            slices++;
        } else if (it->kind == KN_TY_NONE) {
            nones++;
        } else if (it == &kn_type_ellipsis) {
            if (ell++) {
                kn_typing_err(c, span, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
        } else {
            kn_typing_err(c, span,
                          "arrays are indexed by integers, slices, None, '...' and integer or "
                          "boolean arrays, not %s",
                          it->name);
            return NULL;
        }
    }
    if (ints + slices > a->ndim) {
        kn_typing_err(c, span, "too many indices for %s: %d", a->name, ints + slices);
        return NULL;
    }
    if (ints == a->ndim && !slices && !nones && !ell) /* a[...] of a 0-d array is a view */
        return a->dtype;
    char layout = a->layout == 'C' && only_leading_ints && !slices && !nones ? 'C' : 'A';
    return kn_type_array(c->types, a->dtype, a->ndim - ints + nones, layout, a->readonly);
}

int
kn_typing_array_getitem(KnCompilation *c, KnInstr *in, KnType *a, KnType *idx)
{
    in->type = kn_typing_index_result(c, in->span, a, idx);
    return in->type ? 0 : -1;
}

int
kn_typing_setitem(KnCompilation *c, KnInstr *in)
{
    KnType *a = in->args[0]->type, *idx = in->args[1]->type, *v = in->args[2]->type;
    if (!a || !idx || !v)
        return 0;
    if (a->kind == KN_TY_RECORD || (kn_typing_record_array(a) && idx == &kn_type_str))
        return kn_typing_record_setitem(c, in); /* r.x = v, r['x'] = v, a['x'] = v (record.c) */
    if (in->aux == KN_SETITEM_ATTR)
        return kn_typing_err(c, in->span, "attribute assignment to %s is not supported", a->name);
    if (a->kind != KN_TY_ARRAY)
        return kn_typing_err(c, in->span, "%s does not support item assignment", a->name);
    if (a->readonly)
        return kn_typing_err(c, in->span, "cannot assign to an item of a read-only array (%s)",
                             a->name);
    KnType *target = kn_typing_index_result(c, in->args[1]->span, a, idx);
    if (!target)
        return -1;
    KnType *vd = v->kind == KN_TY_ARRAY ? v->dtype : v;
    if ((a->dtype->kind == KN_TY_RECORD && vd == a->dtype) || /* a[i] = a[j] of records */
        ((a->dtype->kind == KN_TY_DATETIME || a->dtype->kind == KN_TY_TIMEDELTA) &&
         vd->kind == a->dtype->kind && kn_type_unify(c->types, vd, a->dtype))) {
        kn_typing_impl_of(c, in)->operand = target;
        return 0;
    }
    /* a[i] op= b (the frontend's getitem, binop, setitem of one base and index) */
    KnInstr *val = in->args[2];
    int aug = val->op == KN_OP_BINOP && val->args[0]->op == KN_OP_GETITEM &&
              val->args[0]->args[0] == in->args[0] && val->args[0]->args[1] == in->args[1];
    /* of a view (a[:], m[0] of a 2-d array, a[...] of a 0-d one), NumPy computes in place,
     * so the result must cast to the target's dtype as `a op= b` of a name; an element is a
     * NumPy scalar, and its new value is stored with a cast */
    if (aug && target->kind == KN_TY_ARRAY && kn_type_is_number(vd) &&
        !same_kind_cast(vd, target->dtype))
        return inplace_cast_error(c, val->span, vd, target, (int)val->aux);
    if (!kn_type_is_number(vd) || (vd->kind == KN_TY_COMPLEX && a->dtype->kind != KN_TY_COMPLEX))
        return kn_typing_err(c, in->args[2]->span, "cannot store %s into %s", v->name, a->name);
    if (v->kind == KN_TY_ARRAY && (target->kind != KN_TY_ARRAY || v->ndim > target->ndim))
        return kn_typing_err(c, in->args[2]->span, "cannot store %s into %s", v->name,
                             target->kind == KN_TY_ARRAY ? target->name : "a single element");
    /* of bool elements, NumPy's bool scalars do not subtract, as `a -= b` of bool arrays */
    if (aug && val->aux == KN_BIN_SUB && a->dtype->kind == KN_TY_BOOL && val->args[1]->type &&
        elem_kind(val->args[1]->type) == KN_TY_BOOL)
        return kn_typing_err(c, val->span,
                             "numpy boolean subtract, the '-' operator, is not supported: "
                             "use '^' or np.logical_xor");
    kn_typing_impl_of(c, in)->operand = target; /* the element or view being assigned */
    return 0;
}

/* ---- numpy functions ---- */

static int
shape_ndim(KnCompilation *c, KnInstr *shape)
{
    KnType *t = shape->type;
    if (kn_typing_intlike(t))
        return 1;
    if (t->kind == KN_TY_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (!kn_typing_intlike(t->items[i]))
                return kn_typing_err(c, shape->span, "array shapes are tuples of integers, not %s",
                                     t->name);
        return t->n;
    }
    return kn_typing_err(c, shape->span, "array shapes are integers or tuples of integers, not %s",
                         t->name);
}

static int
type_creation(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"shape", "dtype", "fill_value", "order", NULL};
    KN_TRY(kn_typing_check_keywords(c, in, kw, 4));
    int like = id == KN_BI_NP_EMPTY_LIKE || id == KN_BI_NP_ZEROS_LIKE || id == KN_BI_NP_ONES_LIKE ||
               id == KN_BI_NP_FULL_LIKE;
    int full = id == KN_BI_NP_FULL || id == KN_BI_NP_FULL_LIKE;
    KnInstr *first = kn_typing_arg(in, 0, like ? "a" : "shape");
    KnInstr *fill = full ? kn_typing_arg(in, 1, "fill_value") : NULL;
    KnInstr *dt = kn_typing_arg(in, full ? 2 : 1, "dtype");
    if (!first || (full && !fill))
        return kn_typing_err(c, in->span, "%s() is missing arguments", kn_kir_builtin_name(id));
    KnType *dtype = &kn_type_float64;
    int ndim;
    if (like) {
        if (first->type->kind != KN_TY_ARRAY)
            return kn_typing_err(c, first->span, "%s() needs an array, not %s",
                                 kn_kir_builtin_name(id), first->type->name);
        dtype = first->type->dtype;
        ndim = first->type->ndim;
    } else {
        KN_TRY(ndim = shape_ndim(c, first));
        if (full && kn_type_is_number(fill->type))
            dtype = fill->type->kind == KN_TY_BOOL ? &kn_type_bool : fill->type;
    }
    if (full && !kn_type_is_number(fill->type))
        return kn_typing_err(c, fill->span, "the fill value must be a number, not %s",
                             fill->type->name);
    if (dt && dt->type->kind != KN_TY_NONE && !(dtype = kn_typing_dtype_of(dt)))
        return kn_typing_err(c, dt->span, "unsupported dtype %s", dt->type->name);
    if (dtype->kind == KN_TY_RECORD && id != KN_BI_NP_EMPTY && id != KN_BI_NP_ZEROS &&
        id != KN_BI_NP_EMPTY_LIKE && id != KN_BI_NP_ZEROS_LIKE) /* records: typing/record.c */
        return kn_typing_err(c, in->span,
                             "%s() of a structured dtype is not supported (use "
                             "np.empty or np.zeros)",
                             kn_kir_builtin_name(id));
    int layout = kn_typing_creation_order(c, in, kn_typing_arg(in, full ? 3 : 2, "order"),
                                          like ? first->type : NULL);
    KN_TRY(layout);
    in->type = kn_type_array(c->types, dtype, ndim, ndim > 1 ? (char)layout : 'C', 0);
    return 0;
}

static int
type_arange(KnCompilation *c, KnInstr *in)
{
    static const char *const kw[] = {"dtype", NULL};
    KN_TRY(kn_typing_check_keywords(c, in, kw, 3));
    int npos = in->nargs - 1 - in->aux;
    KnType *r = &kn_type_int64;
    for (int i = 0; i < npos; i++) {
        KnType *t = in->args[i + 1]->type;
        if (!kn_type_is_number(t) || t->kind == KN_TY_COMPLEX)
            return kn_typing_err(c, in->args[i + 1]->span,
                                 "arange() arguments must be real numbers, not %s", t->name);
        if (t->kind == KN_TY_FLOAT)
            r = &kn_type_float64;
    }
    if (npos < 1)
        return kn_typing_err(c, in->span, "arange() needs a stop value");
    KnInstr *dt = kn_typing_arg(in, 99, "dtype");
    if (dt && !(r = kn_typing_dtype_of(dt)))
        return kn_typing_err(c, dt->span, "unsupported dtype %s", dt->type->name);
    in->type = kn_type_array(c->types, r, 1, 'C', 0);
    kn_typing_impl_of(c, in)->operand = r;
    return 0;
}

/* the scalar result of a math ufunc for element type d (ints compute in float64) */
static KnType *
ufunc_result(int id, KnType *d)
{
    switch (id) {
    case KN_BI_NP_ABS:
    case KN_BI_NP_ABSOLUTE:
        return d->kind == KN_TY_COMPLEX ? kn_type_float(d->bits / 2) : d;
    case KN_BI_NP_NEGATIVE:
        return d->kind == KN_TY_BOOL ? NULL : d;
    case KN_BI_NP_FLOOR:
    case KN_BI_NP_CEIL:
    case KN_BI_NP_TRUNC:
        /* NumPy 2 keeps integer and bool dtypes (the values are already integral) */
        return d->kind == KN_TY_COMPLEX ? NULL : d;
    case KN_BI_NP_SQRT:
    case KN_BI_NP_EXP:
    case KN_BI_NP_LOG:
    case KN_BI_NP_LOG2:
    case KN_BI_NP_LOG10:
    case KN_BI_NP_EXPM1:
    case KN_BI_NP_LOG1P:
    case KN_BI_NP_ARCSIN:
    case KN_BI_NP_ARCCOS:
    case KN_BI_NP_ARCTAN:
    case KN_BI_NP_ARCSINH:
    case KN_BI_NP_ARCCOSH:
    case KN_BI_NP_ARCTANH:
    case KN_BI_NP_SIN:
    case KN_BI_NP_COS:
    case KN_BI_NP_TAN:
    case KN_BI_NP_SINH:
    case KN_BI_NP_COSH:
    case KN_BI_NP_TANH:
        if (d->kind == KN_TY_COMPLEX)
            return d; /* computed by kn_rt_complex_fn */
        /* fall through */
    default:
        if (d->kind == KN_TY_COMPLEX)
            return NULL;
        /* NumPy: 8-bit ints and bools compute in float16, 16-bit ints in float32 */
        if (d->kind == KN_TY_BOOL || (d->kind == KN_TY_INT && d->bits <= 8))
            return &kn_type_float16;
        if (d->kind == KN_TY_INT && d->bits <= 16)
            return &kn_type_float32;
        return d->kind == KN_TY_FLOAT ? d : &kn_type_float64;
    }
}

int
kn_typing_ufunc_nin(int id)
{
    switch (id) {
    case KN_BI_NP_ADD:
    case KN_BI_NP_SUBTRACT:
    case KN_BI_NP_MULTIPLY:
    case KN_BI_NP_DIVIDE:
    case KN_BI_NP_FLOOR_DIVIDE:
    case KN_BI_NP_REMAINDER:
    case KN_BI_NP_MAXIMUM:
    case KN_BI_NP_MINIMUM:
    case KN_BI_NP_FMAX:
    case KN_BI_NP_FMIN:
    case KN_BI_NP_POWER:
    case KN_BI_NP_ARCTAN2:
    case KN_BI_NP_HYPOT:
        return 2;
    case KN_BI_NP_WHERE:
    case KN_BI_NP_CLIP:
        return 3;
    default:
        return kn_typing_npmath_nin(id); /* typing/npmath.c (1 for the others) */
    }
}

/* the element type of a ufunc's result for operand dtype d (binary: the promoted one) */
static KnType *
ufunc_elem(KnCompilation *c, KnInstr *in, int id, KnType **args, KnType **operand)
{
    KnType *d = args[0]->kind == KN_TY_ARRAY ? args[0]->dtype : args[0];
    if (kn_typing_npmath_owns(id))
        return kn_typing_npmath_elem(id, args, operand);
    switch (id) {
    case KN_BI_NP_ISNAN:
    case KN_BI_NP_ISINF:
    case KN_BI_NP_ISFINITE:
        *operand = d;
        return &kn_type_bool;
    case KN_BI_NP_SIGN: /* complex: z / |z| (NumPy 2) */
        *operand = d;
        return d->kind == KN_TY_BOOL ? NULL : d;
    case KN_BI_NP_RINT:
        *operand = ufunc_result(KN_BI_NP_SQRT, d);
        return *operand;
    case KN_BI_NP_ADD:
    case KN_BI_NP_SUBTRACT:
    case KN_BI_NP_MULTIPLY:
    case KN_BI_NP_DIVIDE:
    case KN_BI_NP_FLOOR_DIVIDE:
    case KN_BI_NP_REMAINDER: {
        /* the arithmetic operators as functions: the operator's dtype rules */
        KnType *p = kn_typing_elementwise_operand(args[0], args[1]);
        if (id == KN_BI_NP_DIVIDE && kn_typing_intlike(p))
            p = &kn_type_float64;
        if ((id == KN_BI_NP_FLOOR_DIVIDE || id == KN_BI_NP_REMAINDER) && p->kind == KN_TY_COMPLEX)
            return NULL;
        if (p->kind == KN_TY_BOOL && id == KN_BI_NP_SUBTRACT)
            return NULL;
        if (p->kind == KN_TY_BOOL && (id == KN_BI_NP_FLOOR_DIVIDE || id == KN_BI_NP_REMAINDER))
            p = &kn_type_int8;
        *operand = p;
        return p;
    }
    case KN_BI_NP_MAXIMUM:
    case KN_BI_NP_MINIMUM:
    case KN_BI_NP_FMAX:
    case KN_BI_NP_FMIN:
    case KN_BI_NP_POWER: {
        /* complex: NumPy's lexicographic order, a NaN part propagating (lower/array.c) */
        KnType *p = kn_typing_elementwise_operand(args[0], args[1]);
        if (id == KN_BI_NP_POWER && p->kind == KN_TY_BOOL)
            p = &kn_type_int8;
        *operand = p;
        return p;
    }
    case KN_BI_NP_ARCTAN2:
    case KN_BI_NP_HYPOT: {
        KnType *p = kn_typing_elementwise_operand(args[0], args[1]);
        if (p->kind == KN_TY_COMPLEX)
            return NULL;
        *operand = ufunc_result(KN_BI_NP_SQRT, p);
        return *operand;
    }
    case KN_BI_NP_WHERE: {
        KnType *p = kn_typing_elementwise_operand(args[1], args[2]);
        *operand = p;
        return p;
    }
    case KN_BI_NP_CLIP: {
        KnType *p = kn_typing_elementwise_operand(args[0], args[1]);
        p = kn_typing_elementwise_operand(
            args[0]->kind == KN_TY_ARRAY ? kn_type_array(c->types, p, args[0]->ndim, 'C', 0) : p,
            args[2]);
        *operand = p;
        return p->kind == KN_TY_COMPLEX ? NULL : p;
    }
    default: {
        KnType *r = ufunc_result(id, d);
        *operand = (id == KN_BI_NP_ABS || id == KN_BI_NP_ABSOLUTE || id == KN_BI_NP_NEGATIVE ||
                    ((id == KN_BI_NP_FLOOR || id == KN_BI_NP_CEIL || id == KN_BI_NP_TRUNC) &&
                     kn_typing_intlike(d)))
                       ? d
                       : r;
        return r;
    }
    }
    KN_UNUSED(in);
}

/* np.nonzero(a), a.nonzero(), np.where(a): a tuple of a.ndim int64 index arrays */
static int
type_nonzero(KnCompilation *c, KnInstr *in, KnInstr *a, const char *name)
{
    if (!a || a->type->kind != KN_TY_ARRAY || !kn_type_is_number(a->type->dtype) || !a->type->ndim)
        return kn_typing_err(c, a ? a->span : in->span,
                             "%s needs an array of numbers with at least one dimension, not %s",
                             name, a ? a->type->name : "nothing");
    KnType *items[32], *idx = kn_type_array(c->types, &kn_type_int64, 1, 'C', 0);
    for (int k = 0; k < a->type->ndim; k++)
        items[k] = idx;
    in->type = kn_type_tuple(c->types, items, a->type->ndim);
    return 0;
}

/* NumPy's math functions of scalars and arrays: unary, binary, where and clip; out= */
int
kn_typing_ufunc(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"out", NULL};
    int nin = kn_typing_ufunc_nin(id), npos = in->nargs - 1 - in->aux;
    if (id == KN_BI_NP_WHERE && npos == 1 && !in->aux)
        return type_nonzero(c, in, in->args[1], "np.where(condition)");
    KN_TRY(kn_typing_check_keywords(c, in, kw, nin + 1));
    if (npos < nin)
        return kn_typing_err(c, in->span, "%s() takes %d argument%s", kn_kir_builtin_name(id), nin,
                             nin > 1 ? "s" : "");
    KnType *args[3];
    int ndim = 0, any_array = 0;
    for (int i = 0; i < nin; i++) {
        args[i] = in->args[i + 1]->type;
        KnType *d = args[i]->kind == KN_TY_ARRAY ? args[i]->dtype : args[i];
        if (!kn_type_is_number(d))
            return kn_typing_err(c, in->args[i + 1]->span, "%s() does not accept %s",
                                 kn_kir_builtin_name(id), args[i]->name);
        if (args[i]->kind == KN_TY_ARRAY) {
            any_array = 1;
            ndim = args[i]->ndim > ndim ? args[i]->ndim : ndim;
        }
    }
    KnType *operand = NULL;
    KnType *r = ufunc_elem(c, in, id, args, &operand);
    if (!r)
        return kn_typing_err(c, in->span, "%s() does not accept (%s%s%s)", kn_kir_builtin_name(id),
                             args[0]->name, nin > 1 ? ", ..." : "", "");
    KnInstr *out = kn_typing_arg(in, nin, "out");
    if (out) {
        KnType *o = out->type;
        if (o->kind != KN_TY_ARRAY || o->readonly || o->ndim < ndim)
            return kn_typing_err(c, out->span,
                                 "out= must be a writable array with at least %d dimensions, "
                                 "not %s",
                                 ndim, o->name);
        if (!same_kind_cast(r, o->dtype))
            return kn_typing_err(c, out->span,
                                 "cannot store the %s result of %s() in out= of %s (NumPy's "
                                 "same_kind casting)",
                                 r->name, kn_kir_builtin_name(id), o->name);
        in->type = o;
    } else if (id == KN_BI_NP_WHERE && !any_array) {
        in->type = kn_type_array(c->types, r, 0, 'C', 0); /* NumPy's 0-d array */
    } else {
        in->type = any_array ? kn_type_array(c->types, r, ndim, 'C', 0) : r;
    }
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->operand = operand;
    impl->inplace = out != NULL;
    impl->result = r;
    return 0;
}

/* sum/prod/min/max/mean/argmin/argmax/any/all/cumsum/cumprod of an array; `axis` (a constant,
 * or NULL for the whole array) makes the first five give an array of one dimension less. */
int
kn_typing_reduction_axis(KnCompilation *c, KnInstr *in, const char *name, KnType *a, KnInstr *axis)
{
    if (a->kind != KN_TY_ARRAY || !kn_type_is_number(a->dtype))
        return kn_typing_err(c, in->span, "%s() needs a numeric array, not %s", name, a->name);
    KnType *d = a->dtype;
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->value = -1;
    if (axis) {
        if (axis->op != KN_OP_CONST || !axis->type || axis->type->kind != KN_TY_INT)
            return kn_typing_err(c, axis->span, "axis= must be a constant integer in kiln");
        int64_t k = axis->imm.i < 0 ? axis->imm.i + a->ndim : axis->imm.i;
        if (k < 0 || k >= a->ndim)
            return kn_typing_err(c, axis->span,
                                 "axis %lld is out of bounds for an array of dimension %d",
                                 (long long)axis->imm.i, a->ndim);
        if (!strncmp(name, "cum", 3)) /* the sorting family's file (typing/sorting.c) */
            return kn_type_cum_axis(c, in, name, a, k);
        static const char *const ok[] = {"sum",    "prod",   "min", "max", "mean",
                                         "argmin", "argmax", "any", "all"};
        int supported = 0;
        for (int i = 0; i < KN_ARRAY_LEN(ok); i++)
            supported |= !strcmp(ok[i], name);
        if (!supported)
            return kn_typing_err(c, axis->span, "%s(axis=...) is not supported yet", name);
        KN_TRY(kn_typing_reduction_axis(c, in, name, a, NULL));
        if (a->ndim == 1)
            return 0; /* NumPy: the reduction of a 1-d array along its axis is a scalar */
        impl->value = k;
        impl->result = in->type;
        in->type = kn_type_array(c->types, in->type, a->ndim - 1, 'C', 0);
        return 0;
    }
    if (!strcmp(name, "argmin") || !strcmp(name, "argmax")) {
        in->type = &kn_type_int64;
        impl->operand = d;
        return 0;
    }
    if (!strcmp(name, "any") || !strcmp(name, "all")) {
        in->type = &kn_type_bool;
        impl->operand = d;
        return 0;
    }
    if (!strcmp(name, "cumsum") || !strcmp(name, "cumprod")) {
        KnType *acc =
            kn_typing_intlike(d)
                ? (d->kind == KN_TY_INT && !d->is_signed ? &kn_type_uint64 : &kn_type_int64)
                : d;
        impl->operand = acc;
        in->type = kn_type_array(c->types, acc, 1, 'C', 0);
        return 0;
    }
    if (!strcmp(name, "sum") || !strcmp(name, "prod"))
        in->type = kn_typing_intlike(d)
                       ? (d->kind == KN_TY_INT && !d->is_signed ? &kn_type_uint64 : &kn_type_int64)
                       : d;
    else if (!strcmp(name, "mean"))
        in->type = d->kind == KN_TY_COMPLEX ? d : kn_typing_intlike(d) ? &kn_type_float64 : d;
    else
        in->type = d;
    kn_typing_impl_of(c, in)->operand = in->type;
    return 0;
}

/* keepdims=True: the reduced axes stay, with length 1 (all of them without axis=) */
static int
keep_dims(KnCompilation *c, KnInstr *in, const char *name, KnType *a, KnInstr *keep)
{
    if (!keep)
        return 0;
    if (keep->op != KN_OP_CONST || keep->type->kind != KN_TY_BOOL)
        return kn_typing_err(c, keep->span,
                             "keepdims= must be True or False, written as a constant");
    if (!keep->imm.i)
        return 0;
    if (!strncmp(name, "cum", 3))
        return kn_typing_err(c, keep->span, "%s() has no keepdims=", name);
    KnType *r = in->type, *d = r->kind == KN_TY_ARRAY ? r->dtype : r;
    kn_typing_impl_of(c, in)->reduced = r;
    in->type = kn_type_array(c->types, d, a->ndim, 'C', 0);
    return 0;
}

int
kn_typing_reduction(KnCompilation *c, KnInstr *in, const char *name, KnType *a)
{
    return kn_typing_reduction_axis(c, in, name, a, NULL);
}

/* np.array((1, 2), (3, 4)): nested tuples of numbers give an array; an array gives a copy
 * (np.asarray: the array itself) */
static int
nested_shape(KnType *t, int depth, int *dims, KnType **elem)
{
    if (t->kind != KN_TY_TUPLE) {
        if (!kn_type_is_number(t))
            return -1;
        *elem = *elem ? kn_type_numpy_promote(*elem, t) : t;
        return depth;
    }
    if (depth >= 32 || t->n == 0)
        return -1;
    if (dims[depth] >= 0 && dims[depth] != t->n)
        return -1;
    dims[depth] = t->n;
    int d = -1;
    for (int i = 0; i < t->n; i++) {
        int di = nested_shape(t->items[i], depth + 1, dims, elem);
        if (di < 0 || (d >= 0 && di != d))
            return -1;
        d = di;
    }
    return d;
}

static int
type_np_array(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"object", "dtype", NULL};
    KN_TRY(kn_typing_check_keywords(c, in, kw, 2));
    KnInstr *obj = kn_typing_arg(in, 0, "object"), *dt = kn_typing_arg(in, 1, "dtype");
    if (!obj)
        return kn_typing_err(c, in->span, "%s() needs an object", kn_kir_builtin_name(id));
    KnType *want = NULL;
    if (dt && !(want = kn_typing_dtype_of(dt)))
        return kn_typing_err(c, dt->span, "unsupported dtype %s", dt->type->name);
    KnType *t = obj->type;
    if (t->kind == KN_TY_ARRAY) {
        KnType *d = want ? want : t->dtype;
        in->type = id == KN_BI_NP_ASARRAY && d == t->dtype
                       ? t
                       : kn_type_array(c->types, d, t->ndim, 'C', 0);
        return 0;
    }
    if (t->kind == KN_TY_TUPLE && t->n == 0) { /* np.array([]): float64, shape (0,) */
        in->type = kn_type_array(c->types, want ? want : &kn_type_float64, 1, 'C', 0);
        kn_typing_impl_of(c, in)->operand = in->type->dtype;
        return 0;
    }
    int dims[32];
    for (int i = 0; i < 32; i++)
        dims[i] = -1;
    KnType *elem = NULL;
    int nd = nested_shape(t, 0, dims, &elem);
    if (nd < 0 || !elem)
        return kn_typing_err(c, obj->span,
                             "%s() takes numbers, or lists or tuples of them nested to a regular "
                             "shape, not %s",
                             kn_kir_builtin_name(id), t->name);
    if (elem->kind == KN_TY_BOOL && !want)
        elem = &kn_type_bool;
    in->type = kn_type_array(c->types, want ? want : elem, nd, 'C', 0);
    kn_typing_impl_of(c, in)->operand = elem;
    return 0;
}

/* The NumPy family (lib/numpy.def) other than the scalar classes. */
int
kn_type_rule_numpy(KnCompilation *c, KnInstr *in, int id, KnType **args, int n)
{
    (void)args;
    (void)n;
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_BUILTIN;
    impl->builtin = id;
    unsigned flags = kn_lib_flags(id);
    if (flags & KN_CF_CREATES)
        return type_creation(c, in, id);
    if (flags & KN_CF_REDUCES) {
        static const char *const kw[] = {"a", "axis", "keepdims", NULL};
        KN_TRY(kn_typing_check_keywords(c, in, kw, 2));
        KnInstr *arr = kn_typing_arg(in, 0, "a");
        if (!arr)
            return kn_typing_err(c, in->span, "%s() needs an array", kn_kir_builtin_name(id));
        KN_TRY(kn_typing_reduction_axis(c, in, kn_kir_builtin_attr(id), arr->type,
                                        kn_typing_arg(in, 1, "axis")));
        return keep_dims(c, in, kn_kir_builtin_attr(id), arr->type,
                         kn_typing_arg(in, KN_KEYWORD_ONLY, "keepdims"));
    }
    switch (id) {
    case KN_BI_NP_ARANGE:
        return type_arange(c, in);
    case KN_BI_NP_NONZERO: {
        static const char *const kw[] = {"a", NULL};
        KN_TRY(kn_typing_check_keywords(c, in, kw, 1));
        return type_nonzero(c, in, kn_typing_arg(in, 0, "a"), "np.nonzero()");
    }
    case KN_BI_NP_ARRAY:
    case KN_BI_NP_ASARRAY:
        return type_np_array(c, in, id);
    case KN_BI_NP_ASCONTIGUOUSARRAY:
        if (in->nargs != 2 || in->args[1]->type->kind != KN_TY_ARRAY)
            return kn_typing_err(c, in->span, "np.ascontiguousarray() takes one array");
        in->type =
            kn_type_array(c->types, in->args[1]->type->dtype, in->args[1]->type->ndim, 'C', 0);
        return 0;
    case KN_BI_NP_LINSPACE: {
        static const char *const kw[] = {"start", "stop", "num", "endpoint", NULL};
        KN_TRY(kn_typing_check_keywords(c, in, kw, 4));
        KnInstr *endpoint = kn_typing_arg(in, 3, "endpoint");
        if (endpoint && endpoint->type->kind != KN_TY_BOOL)
            return kn_typing_err(c, endpoint->span, "linspace()'s endpoint must be a bool");
        for (int i = 1; i < in->nargs && i < 3; i++)
            if (!kn_type_is_number(in->args[i]->type) || in->args[i]->type->kind == KN_TY_COMPLEX)
                return kn_typing_err(c, in->args[i]->span, "linspace() takes real numbers, not %s",
                                     in->args[i]->type->name);
        KnInstr *num = kn_typing_arg(in, 2, "num");
        if (num && !kn_typing_intlike(num->type))
            return kn_typing_err(c, num->span, "linspace()'s num must be an integer");
        in->type = kn_type_array(c->types, &kn_type_float64, 1, 'C', 0);
        return 0;
    }
    case KN_BI_NP_EYE:
    case KN_BI_NP_IDENTITY: {
        static const char *const kw[] = {"N", "M", "k", "dtype", "n", NULL};
        KN_TRY(kn_typing_check_keywords(c, in, kw, id == KN_BI_NP_EYE ? 3 : 1));
        int npos = in->nargs - 1 - in->aux;
        for (int i = 0; i < npos; i++)
            if (!kn_typing_intlike(in->args[i + 1]->type))
                return kn_typing_err(c, in->args[i + 1]->span, "%s() takes integers, not %s",
                                     kn_kir_builtin_name(id), in->args[i + 1]->type->name);
        KnInstr *dt = kn_typing_arg(in, id == KN_BI_NP_EYE ? 99 : 1, "dtype");
        KnType *d = &kn_type_float64;
        if (dt && !(d = kn_typing_dtype_of(dt)))
            return kn_typing_err(c, dt->span, "unsupported dtype %s", dt->type->name);
        in->type = kn_type_array(c->types, d, 2, 'C', 0);
        return 0;
    }
    case KN_BI_NP_COPY:
        if (in->nargs != 2 || in->args[1]->type->kind != KN_TY_ARRAY)
            return kn_typing_err(c, in->span, "np.copy() takes one array");
        /* np.copy keeps a Fortran-ordered array Fortran-ordered (order='K'); a.copy() is C */
        in->type = kn_type_array(c->types, in->args[1]->type->dtype, in->args[1]->type->ndim,
                                 in->args[1]->type->layout == 'F' ? 'F' : 'C', 0);
        return 0;
    default:
        return kn_typing_ufunc(c, in, id);
    }
}

/* Array methods (lib/array.def): the call's callee is the method bound to the array. */
int
kn_type_rule_array_method(KnCompilation *c, KnInstr *in, int id, KnType **args, int nargs)
{
    (void)args;
    (void)nargs;
    KnType *bound = in->args[0]->type, *self = bound->items[0];
    const char *m = bound->name;
    int n = in->nargs - 1;
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_METHOD;
    impl->builtin = id;
    switch (id) {
    case KN_BI_ARRAY_NONZERO:
        if (n)
            return kn_typing_err(c, in->span, "nonzero() takes no arguments");
        return type_nonzero(c, in, in->args[0]->args[0], "nonzero()");
    case KN_BI_ARRAY_COPY:
        if (n)
            return kn_typing_err(c, in->span, "copy() takes no arguments here");
        in->type = kn_type_array(c->types, self->dtype, self->ndim, 'C', 0);
        return 0;
    case KN_BI_ARRAY_TRANSPOSE: {
        if (n)
            return kn_typing_err(c, in->span, "transpose() with axes is not supported yet");
        char layout = self->layout == 'C' ? 'F' : self->layout == 'F' ? 'C' : 'A';
        in->type = kn_type_array(c->types, self->dtype, self->ndim,
                                 self->ndim <= 1 ? self->layout : layout, self->readonly);
        return 0;
    }
    case KN_BI_ARRAY_RESHAPE: {
        if (self->layout != 'C')
            return kn_typing_err(c, in->span,
                                 "reshape() needs a C-contiguous array, not %s (use .copy() "
                                 "first)",
                                 self->name);
        int nd = 0;
        if (n == 1 && in->args[1]->type->kind == KN_TY_TUPLE) {
            KnType *s = in->args[1]->type;
            for (int i = 0; i < s->n; i++)
                if (!kn_typing_intlike(s->items[i]))
                    return kn_typing_err(c, in->args[1]->span, "reshape() takes integers, not %s",
                                         s->name);
            nd = s->n;
        } else {
            for (int i = 0; i < n; i++)
                if (!kn_typing_intlike(in->args[i + 1]->type))
                    return kn_typing_err(c, in->args[i + 1]->span,
                                         "reshape() takes integers, not %s",
                                         in->args[i + 1]->type->name);
            nd = n;
        }
        if (nd < 1 || nd > 32)
            return kn_typing_err(c, in->span, "reshape() needs between 1 and 32 dimensions");
        in->type = kn_type_array(c->types, self->dtype, nd, 'C', self->readonly);
        return 0;
    }
    case KN_BI_ARRAY_RAVEL:
    case KN_BI_ARRAY_FLATTEN:
        if (n)
            return kn_typing_err(c, in->span, "%s() with an order is not supported yet", m);
        in->type = kn_type_array(c->types, self->dtype, 1, 'C',
                                 m[0] == 'r' && self->layout == 'C' ? self->readonly : 0);
        return 0;
    case KN_BI_ARRAY_ASTYPE: {
        KnType *d = n == 1 ? kn_typing_dtype_of(in->args[1]) : NULL;
        if (!d)
            return kn_typing_err(c, in->span,
                                 "astype() takes one dtype (np.float32, 'float32', a.dtype)");
        in->type = kn_type_array(c->types, d, self->ndim, 'C', 0);
        return 0;
    }
    case KN_BI_ARRAY_FILL:
        if (n != 1 || !kn_type_is_number(in->args[1]->type))
            return kn_typing_err(c, in->span, "fill() takes one number");
        if (self->readonly)
            return kn_typing_err(c, in->span, "cannot fill a read-only array");
        in->type = &kn_type_none;
        return 0;
    default:
        break;
    }
    /* reductions and scans */
    KnInstr *axis = kn_typing_arg(in, 0, "axis"),
            *keep = kn_typing_arg(in, KN_KEYWORD_ONLY, "keepdims");
    if (n > (axis ? 1 : 0) + (keep ? 1 : 0))
        return kn_typing_err(c, in->span, "%s() takes only axis= and keepdims= here", m);
    KN_TRY(kn_typing_reduction_axis(c, in, m, self, axis));
    return keep_dims(c, in, m, self, keep);
}
