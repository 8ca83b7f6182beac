/* calls.c - typing of calls: builtins and the math module (by KnBuiltin id, with Numba's result
 * types), methods of values, and calls to other jitted functions (through the dispatcher's
 * resolve_call hook, which compiles the callee for the argument types). Each CALL gets a
 * KnCallImpl saying what lowering must emit. */
#include "typing/internal.h"

#include <stdio.h>


static int
real_number(const KnType *t)
{
    return t->kind == KN_TY_BOOL || t->kind == KN_TY_INT || t->kind == KN_TY_FLOAT;
}

static int
bad_args(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    return kn_typing_err(c, in->span, "%s() does not accept (%s)", kn_kir_builtin_name(id),
                         kn_typing_arg_list(c, a, n));
}

/* math functions of one real argument returning a float (float32 stays float32, as Numba) */
static int
math_unary_float(int id)
{
    switch (id) {
    case KN_BI_MATH_ACOS:
    case KN_BI_MATH_ACOSH:
    case KN_BI_MATH_ASIN:
    case KN_BI_MATH_ASINH:
    case KN_BI_MATH_ATAN:
    case KN_BI_MATH_ATANH:
    case KN_BI_MATH_COS:
    case KN_BI_MATH_COSH:
    case KN_BI_MATH_DEGREES:
    case KN_BI_MATH_ERF:
    case KN_BI_MATH_ERFC:
    case KN_BI_MATH_EXP:
    case KN_BI_MATH_EXPM1:
    case KN_BI_MATH_FABS:
    case KN_BI_MATH_GAMMA:
    case KN_BI_MATH_LGAMMA:
    case KN_BI_MATH_LOG10:
    case KN_BI_MATH_LOG1P:
    case KN_BI_MATH_LOG2:
    case KN_BI_MATH_RADIANS:
    case KN_BI_MATH_SIN:
    case KN_BI_MATH_SINH:
    case KN_BI_MATH_SQRT:
    case KN_BI_MATH_TAN:
    case KN_BI_MATH_TANH:
    case KN_BI_MATH_EXP2:
    case KN_BI_MATH_CBRT:
        return 1;
    default:
        return 0;
    }
}

static int
math_binary_float(int id)
{
    return id == KN_BI_MATH_ATAN2 || id == KN_BI_MATH_HYPOT || id == KN_BI_MATH_COPYSIGN ||
           id == KN_BI_MATH_FMOD || id == KN_BI_MATH_POW || id == KN_BI_MATH_NEXTAFTER;
}

static KnType *
float_of(KnType *t)
{
    return t->kind == KN_TY_FLOAT && t->bits == 32 ? &kn_type_float32 : &kn_type_float64;
}

/* np.float64 -> float64 (types/dtypes.def), NULL if id is not a NumPy scalar class */
KnType *
kn_typing_np_scalar(int id)
{
    static KnType *const types[] = {
#define X(type, npy, kind, size, cls) &type,
#include "types/dtypes.def"
#undef X
    };
    static const int classes[] = {
#define X(type, npy, kind, size, cls) KN_BI_##cls,
#include "types/dtypes.def"
#undef X
    };
    for (int i = 0; i < KN_ARRAY_LEN(classes); i++)
        if (classes[i] == id)
            return types[i];
    return NULL;
}

/* isinstance(x, cls): does a value of type t match the compile-time class value k? */
int
kn_typing_scalar_class(const KnType *t)
{
#define X(type, npy, kind, size, cls)                                                              \
    if (t == &type)                                                                                \
        return KN_BI_##cls;
#include "types/dtypes.def"
#undef X
    return -1;
}

static int
matches_class(const KnType *t, const KnType *k)
{
    if (k->kind == KN_TY_TUPLE) {
        for (int i = 0; i < k->n; i++)
            if (matches_class(t, k->items[i]))
                return 1;
        return 0;
    }
    if (k->kind == KN_TY_CLASS) /* NoneType; enum and namedtuple classes: iter_builtins.c */
        return k->id == 2 ? t->kind == KN_TY_NONE : kn_typing_isinstance_class(t, k);
    if (k->kind != KN_TY_FUNC || k->id < 0)
        return -1;
    switch (k->id) {
    case KN_BI_INT: /* an IntEnum member is an int */
        return t->kind == KN_TY_INT || t->kind == KN_TY_BOOL ||
               (t->kind == KN_TY_ENUM && t->id == KN_ENUM_INT);
    case KN_BI_FLOAT:
        return t->kind == KN_TY_FLOAT;
    case KN_BI_COMPLEX:
        return t->kind == KN_TY_COMPLEX;
    case KN_BI_BOOL:
        return t->kind == KN_TY_BOOL;
    case KN_BI_TUPLE:
        return t->kind == KN_TY_TUPLE;
    case KN_BI_RANGE:
        return t->kind == KN_TY_RANGE;
    case KN_BI_STR:
        return t->kind == KN_TY_STR;
    default: {
        KnType *s = kn_typing_np_scalar(k->id);
        return s ? s == t : kn_typing_isinstance_of(t, k->id); /* typing/iter_builtins.c */
    }
    }
}

static int
valid_class_spec(const KnType *k)
{
    if (k->kind == KN_TY_TUPLE) {
        for (int i = 0; i < k->n; i++)
            if (!valid_class_spec(k->items[i]))
                return 0;
        return 1;
    }
    return matches_class(&kn_type_none, k) >= 0;
}

static int
type_minmax(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnType **items = a;
    int m = n;
    if (n == 1 && a[0]->kind == KN_TY_TUPLE) {
        items = a[0]->items;
        m = a[0]->n;
        if (m == 0)
            return kn_typing_err(c, in->span, "%s() arg is an empty sequence",
                                 kn_kir_builtin_name(id));
    } else if (n < 2) {
        return bad_args(c, in, id, a, n);
    }
    for (int i = 0; i < m; i++)
        if (!real_number(items[i]))
            return bad_args(c, in, id, a, n);
    KnType *r = items[0];
    for (int i = 1; i < m; i++)
        r = kn_type_unify(c->types, r, items[i]);
    in->type = r;
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN)->operand = r;
    return 0;
}

int
kn_type_rule_math(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (math_unary_float(id)) {
        if (n != 1 || !real_number(a[0]))
            return bad_args(c, in, id, a, n);
        in->type = impl->operand = float_of(a[0]);
        return 0;
    }
    if (math_binary_float(id)) {
        if (n != 2 || !real_number(a[0]) || !real_number(a[1]))
            return bad_args(c, in, id, a, n);
        int f32 = float_of(a[0]) == &kn_type_float32 && float_of(a[1]) == &kn_type_float32;
        in->type = impl->operand = f32 ? &kn_type_float32 : &kn_type_float64;
        return 0;
    }
    switch (id) {
    case KN_BI_MATH_LOG:
        if (n < 1 || n > 2 || !real_number(a[0]) || (n == 2 && !real_number(a[1])))
            return bad_args(c, in, id, a, n);
        in->type = impl->operand = n == 1 ? float_of(a[0]) : &kn_type_float64;
        return 0;
    case KN_BI_MATH_CEIL:
    case KN_BI_MATH_FLOOR:
    case KN_BI_MATH_TRUNC:
        if (n != 1 || !real_number(a[0]))
            return bad_args(c, in, id, a, n);
        impl->operand = kn_typing_intlike(a[0]) ? &kn_type_int64 : a[0];
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_MATH_ISNAN:
    case KN_BI_MATH_ISINF:
    case KN_BI_MATH_ISFINITE:
        if (n != 1 || !real_number(a[0]))
            return bad_args(c, in, id, a, n);
        impl->operand = a[0];
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_MATH_LDEXP:
        if (n != 2 || !real_number(a[0]) || !kn_typing_intlike(a[1]))
            return bad_args(c, in, id, a, n);
        in->type = impl->operand = &kn_type_float64;
        return 0;
    case KN_BI_MATH_FREXP: {
        if (n != 1 || !real_number(a[0]))
            return bad_args(c, in, id, a, n);
        KnType *items[2] = {&kn_type_float64, &kn_type_int64};
        impl->operand = &kn_type_float64;
        in->type = kn_type_tuple(c->types, items, 2);
        return 0;
    }
    case KN_BI_MATH_GCD:
        for (int i = 0; i < n; i++)
            if (!kn_typing_intlike(a[i]))
                return bad_args(c, in, id, a, n);
        in->type = impl->operand = &kn_type_int64;
        return 0;
    case KN_BI_MATH_ISQRT:
        if (n != 1 || !kn_typing_intlike(a[0]))
            return bad_args(c, in, id, a, n);
        in->type = impl->operand = &kn_type_int64;
        return 0;
    default:
        return kn_typing_err(c, in->span, "%s() is not supported", kn_kir_builtin_name(id));
    }
}

int
kn_type_rule_conversion(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    int kind_rc = kn_typing_dunder_builtin(c, in, id, a, n); /* "str.__len__", ...: operator.c */
    if (kind_rc != -2)
        return kind_rc;
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    switch (id) {
    case KN_BI_INT:
    case KN_BI_FLOAT:
        if (n > 1 || (n == 1 && (!real_number(a[0]))))
            return bad_args(c, in, id, a, n);
        in->type = id == KN_BI_INT ? &kn_type_int64 : &kn_type_float64;
        impl->operand = n ? a[0] : NULL;
        return 0;
    case KN_BI_BOOL:
        if (n > 1 || (n == 1 && kn_typing_truth_ok(c, in, a[0]) < 0))
            return -1;
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_COMPLEX:
        if (n > 2)
            return bad_args(c, in, id, a, n);
        for (int i = 0; i < n; i++)
            if (!kn_type_is_number(a[i]) || (n == 2 && a[i]->kind == KN_TY_COMPLEX))
                return bad_args(c, in, id, a, n);
        in->type = &kn_type_complex128;
        return 0;
    default: {
        KnType *t = kn_typing_np_scalar(id);
        if (n > 1 || (n == 1 && !kn_type_is_number(a[0])) ||
            (n == 1 && a[0]->kind == KN_TY_COMPLEX && t->kind != KN_TY_COMPLEX))
            return bad_args(c, in, id, a, n);
        in->type = t;
        return 0;
    }
    }
}

/* The builtins family (lib/builtins.def) other than the conversions. */
int
kn_type_rule_builtin(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    int kind_rc = kn_typing_dunder_builtin(c, in, id, a, n); /* "str.__len__", ...: operator.c */
    if (kind_rc != -2)
        return kind_rc;
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (n >= 1 && a[0]->kind == KN_TY_LIST &&
        (id == KN_BI_MIN || id == KN_BI_MAX || id == KN_BI_SUM)) /* typing/list.c */
        return kn_typing_list_reduce(c, in, id, a, n);
    if (id == KN_BI_LEN && n == 1 && a[0]->kind == KN_TY_ARRAY) {
        if (a[0]->ndim == 0)
            return kn_typing_err(c, in->span, "len() of a 0-d array");
        in->type = &kn_type_int64;
        return 0;
    }
    switch (id) {
    case KN_BI_ABS:
        if (n != 1 || !kn_type_is_number(a[0]))
            return bad_args(c, in, id, a, n);
        if (a[0]->kind == KN_TY_COMPLEX)
            in->type = kn_type_float(a[0]->bits / 2);
        else if (kn_typing_intlike(a[0]))
            in->type = a[0]->kind == KN_TY_BOOL ? &kn_type_int8 : a[0]; /* as Numba */
        else
            in->type = a[0];
        impl->operand = a[0]->kind == KN_TY_COMPLEX ? a[0] : in->type;
        return 0;
    case KN_BI_MIN:
    case KN_BI_MAX:
        return type_minmax(c, in, id, a, n);
    case KN_BI_ROUND:
        if (n < 1 || n > 2 || !real_number(a[0]) || (n == 2 && !kn_typing_intlike(a[1])))
            return bad_args(c, in, id, a, n);
        if (n == 1 || kn_typing_intlike(a[0]))
            in->type = &kn_type_int64;
        else
            in->type = a[0];
        impl->operand = kn_typing_intlike(a[0]) ? &kn_type_int64 : a[0];
        return 0;
    case KN_BI_DIVMOD: {
        KnType *operand;
        if (n != 2)
            return bad_args(c, in, id, a, n);
        KnType *r = kn_typing_binop_result(KN_BIN_FLOORDIV, a[0], a[1], &operand);
        if (!r)
            return bad_args(c, in, id, a, n);
        KnType *items[2] = {r, r};
        in->type = kn_type_tuple(c->types, items, 2);
        impl->operand = operand;
        return 0;
    }
    case KN_BI_POW: {
        KnType *operand;
        if (n == 3) {
            for (int i = 0; i < 3; i++)
                if (!kn_typing_intlike(a[i]))
                    return kn_typing_err(c, in->span,
                                         "pow() 3rd argument not allowed unless all arguments are "
                                         "integers");
            in->type = impl->operand = &kn_type_int64;
            return 0;
        }
        if (n != 2)
            return bad_args(c, in, id, a, n);
        KnType *r = kn_typing_binop_result(KN_BIN_POW, a[0], a[1], &operand);
        if (!r)
            return bad_args(c, in, id, a, n);
        in->type = r;
        impl->operand = operand;
        return 0;
    }
    case KN_BI_LEN:
        if (n != 1 || (a[0]->kind != KN_TY_TUPLE && a[0]->kind != KN_TY_RANGE))
            return n == 1 ? kn_typing_err(c, in->span, "object of type %s has no len()", a[0]->name)
                          : bad_args(c, in, id, a, n);
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_RANGE:
        if (n < 1 || n > 3)
            return bad_args(c, in, id, a, n);
        for (int i = 0; i < n; i++)
            if (!kn_typing_intlike(a[i]))
                return kn_typing_err(c, in->span, "range() arguments must be integers, got %s",
                                     kn_typing_arg_list(c, a, n));
        in->type = &kn_type_range;
        return 0;
    case KN_BI_ISINSTANCE: {
        if (n != 2 || !valid_class_spec(a[1]))
            return kn_typing_err(c, in->span,
                                 "isinstance() needs a value and a type (or a tuple of types) "
                                 "known to kiln, got (%s)",
                                 kn_typing_arg_list(c, a, n));
        if (a[0]->kind == KN_TY_OPTIONAL) /* typing/optional.c */
            return kn_typing_optional_isinstance(c, in, matches_class(a[0]->dtype, a[1]) > 0,
                                                 matches_class(&kn_type_none, a[1]) > 0),
                   0;
        KnCallImpl *k = kn_typing_impl_kind(c, in, KN_CALL_CONST);
        k->value = matches_class(a[0], a[1]) > 0;
        in->type = &kn_type_bool;
        return 0;
    }
    case KN_BI_PRINT:
        for (int i = 0; i < n; i++)
            if (!kn_type_is_value(a[i]) || !kn_typing_print_optional_ok(a[i]))
                return kn_typing_err(c, in->span, "cannot print %s", a[i]->name);
        in->type = &kn_type_none;
        return 0;
    case KN_BI_TUPLE:
        if (n != 1 || a[0]->kind != KN_TY_TUPLE)
            return bad_args(c, in, id, a, n);
        in->type = a[0];
        return 0;
    case KN_BI_SUM: {
        if (n != 1 || a[0]->kind != KN_TY_TUPLE)
            return bad_args(c, in, id, a, n);
        KnType *r = &kn_type_int64;
        for (int i = 0; i < a[0]->n; i++) {
            if (!kn_type_is_number(a[0]->items[i]))
                return bad_args(c, in, id, a, n);
            r = kn_type_promote(r, a[0]->items[i]);
        }
        in->type = impl->operand = r;
        return 0;
    }
    default:
        return kn_typing_err(c, in->span, "%s() is not supported in jitted code",
                             kn_kir_builtin_name(id));
    }
}

/* number.conjugate() */
int
kn_type_rule_number_method(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnType *self = in->args[0]->args[0]->type;
    if (n == 0) {
        in->type = self->kind == KN_TY_BOOL ? &kn_type_int64 : self;
        kn_typing_impl_kind(c, in, KN_CALL_METHOD)->builtin = id;
        return 0;
    }
    return kn_typing_err(c, in->span, "%s.%s() does not accept (%s)", self->name,
                         kn_kir_builtin_attr(id), kn_typing_arg_list(c, a, n));
}

/* The registry entry of a method bound to a value (KN_TY_BOUND: items[0] is self), or -1. */
int
kn_typing_method_entry(const KnType *bound)
{
    const KnType *self = bound->items[0];
    const char *owner = kn_typing_owner(self);
    int id = owner ? kn_lib_find(owner, bound->name) : -1;
    return id >= 0 && (kn_lib_flags(id) & KN_CF_METHOD) ? id : -1;
}

static int
type_method(KnCompilation *c, KnInstr *in, KnType *bound, KnType **a, int n)
{
    int id = kn_typing_method_entry(bound);
    if (id < 0)
        return kn_typing_overload(c, in, NULL, bound, a, n);
    return kn_typing_entry(c, in, id, a, n);
}

static int
type_jitted(KnCompilation *c, KnInstr *in, void *disp, const char *name, KnType **a, int n)
{
    for (int i = 0; i < n; i++)
        if (!kn_typing_passable(a[i]))
            return kn_typing_err(c, in->span, "cannot pass %s to jitted function %s", a[i]->name,
                                 name);
    for (int i = 0; i < n; i++)
        if (kn_typing_unknown_list(a[i]))
            return 0; /* an empty [] not refined yet (functions.c): wait for a later round */
    if (in->aux > 0)  /* the frontend binds keywords of known callees; this one is a value */
        return kn_typing_err(c, in->span,
                             "keyword arguments in a call of a function passed as a value (%s) "
                             "are not supported: pass them by position",
                             name);
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_JITTED);
    KnType **args = kn_arena_alloc(&c->arena, sizeof(KnType *) * (size_t)(n ? n : 1));
    memcpy(args, a, sizeof(KnType *) * (size_t)n);
    if (!c->hooks || !c->hooks->resolve_call)
        return kn_typing_err(c, in->span, "calls to other jitted functions are not available here");
    KN_TRY(c->hooks->resolve_call(c, disp, args, n, in->span, &impl->callee));
    in->type = impl->callee.ret; /* NULL: a recursive call whose type is not known yet */
    return 0;
}

int
kn_typing_call(KnCompilation *c, KnInstr *in, int *changed)
{
    KnType *ct = in->args[0]->type;
    int n = in->nargs - 1;
    if (!ct)
        return 0; /* a callee in a variable not typed yet */
    KnType *a[KN_MAX_PARAMS];
    if (n > KN_MAX_PARAMS)
        return kn_typing_err(c, in->span, "calls of more than %d arguments are not supported",
                             KN_MAX_PARAMS);
    for (int i = 0; i < n; i++)
        if (!(a[i] = in->args[i + 1]->type))
            return 0;
    KnType *before = in->type;
    int rc;
    switch (ct->kind) {
    case KN_TY_FUNC:
        if (ct->id >= 0)
            rc = kn_typing_entry(c, in, ct->id, a, n);
        else if (ct->id == KN_FUNC_OVERLOAD)
            rc = kn_typing_overload(c, in, ct, NULL, a, n);
        else if (ct->id == KN_FUNC_CHOICE)
            rc = kn_typing_choice_call(c, in, ct, a, n); /* functions.c */
        else
            rc = type_jitted(c, in, ct->ref, ct->name, a, n);
        break;
    case KN_TY_BOUND:
        rc = type_method(c, in, ct, a, n);
        break;
    case KN_TY_CLASS:
        rc = kn_typing_err(c, in->span,
                           "exception objects can only be created in a raise statement");
        break;
    case KN_TY_TUPLE:
        if (kn_typing_is_closure(ct)) {
            rc = kn_typing_closure_call(c, in, ct, a, n); /* functions.c */
            break;
        }
        /* fall through */
    default:
        rc = kn_typing_err(c, in->span, "%s is not callable", ct->name);
    }
    if (in->type != before)
        *changed = 1;
    return rc;
}
