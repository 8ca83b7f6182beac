/* npmath.c - typing of NumPy's math, bitwise, logical and comparison ufuncs beyond the arithmetic
 * ones (lib/numpy.def and lib/npmath.def, rule npmath). Each call is checked here for the dtypes
 * NumPy accepts (a TypingError at the argument, naming them), then typed by the ufunc machinery
 * of arrays.c (broadcasting, out=, scalars), whose element rule asks kn_typing_npmath_elem for
 * the result and operand dtypes. The multi-output ufuncs (divmod, frexp, modf), np.round /
 * np.around (decimals=) and the methods a.conj(), a.conjugate(), a.round() are typed here whole;
 * lower/npmath.c lowers them all. */
#include "typing/internal.h"

/* the dtype a float ufunc computes in for operand dtype d (NumPy: bool and 8-bit ints give
 * float16, 16-bit ints float32), or NULL for complex */
static KnType *
floaty(const KnType *d)
{
    if (d->kind == KN_TY_COMPLEX)
        return NULL;
    if (d->kind == KN_TY_BOOL || (d->kind == KN_TY_INT && d->bits <= 8))
        return &kn_type_float16;
    if (d->kind == KN_TY_INT && d->bits <= 16)
        return &kn_type_float32;
    return d->kind == KN_TY_FLOAT ? (KnType *)d : &kn_type_float64;
}

static const KnType *
elem(const KnType *t)
{
    return t->kind == KN_TY_ARRAY ? t->dtype : t;
}

int
kn_typing_npmath_nin(int id)
{
    switch (id) {
    case KN_BI_NP_COPYSIGN:
    case KN_BI_NP_FMOD:
    case KN_BI_NP_LOGADDEXP:
    case KN_BI_NP_LOGADDEXP2:
    case KN_BI_NP_NEXTAFTER:
    case KN_BI_NP_LDEXP:
    case KN_BI_NP_GCD:
    case KN_BI_NP_LCM:
    case KN_BI_NP_HEAVISIDE:
    case KN_BI_NP_FLOAT_POWER:
    case KN_BI_NP_BITWISE_AND:
    case KN_BI_NP_BITWISE_OR:
    case KN_BI_NP_BITWISE_XOR:
    case KN_BI_NP_LEFT_SHIFT:
    case KN_BI_NP_RIGHT_SHIFT:
    case KN_BI_NP_LOGICAL_AND:
    case KN_BI_NP_LOGICAL_OR:
    case KN_BI_NP_LOGICAL_XOR:
    case KN_BI_NP_GREATER:
    case KN_BI_NP_GREATER_EQUAL:
    case KN_BI_NP_LESS:
    case KN_BI_NP_LESS_EQUAL:
    case KN_BI_NP_EQUAL:
    case KN_BI_NP_NOT_EQUAL:
    case KN_BI_NP_DIVMOD:
        return 2;
    default:
        return 1;
    }
}

int
kn_typing_npmath_owns(int id)
{
    return id >= KN_BI_NP_FABS && id <= KN_BI_NP_ROUND;
}

int
kn_typing_npmath_cmp(int id)
{
    static const int map[][2] = {
        {KN_BI_NP_GREATER, KN_CMP_GT}, {KN_BI_NP_GREATER_EQUAL, KN_CMP_GE},
        {KN_BI_NP_LESS, KN_CMP_LT},    {KN_BI_NP_LESS_EQUAL, KN_CMP_LE},
        {KN_BI_NP_EQUAL, KN_CMP_EQ},   {KN_BI_NP_NOT_EQUAL, KN_CMP_NE},
    };
    for (int i = 0; i < KN_ARRAY_LEN(map); i++)
        if (map[i][0] == id)
            return map[i][1];
    return -1;
}

/* the operand dtype of a binary ufunc: NumPy's promotion, Python scalars weak */
static KnType *
promoted(KnType **args)
{
    return kn_typing_elementwise_operand(args[0], args[1]);
}

/* The element type of ufunc id's result for arguments args (arrays or scalars), and in
 * *operand the dtype its kernel computes in; NULL when NumPy has no loop for them (the rule has
 * already reported the arguments it rejects). */
KnType *
kn_typing_npmath_elem(int id, KnType **args, KnType **operand)
{
    KnType *d = (KnType *)elem(args[0]), *p = NULL;
    switch (id) {
    case KN_BI_NP_FABS:
    case KN_BI_NP_DEG2RAD:
    case KN_BI_NP_RAD2DEG:
    case KN_BI_NP_DEGREES:
    case KN_BI_NP_RADIANS:
    case KN_BI_NP_CBRT:
    case KN_BI_NP_EXP2:
    case KN_BI_NP_SPACING:
        return *operand = floaty(d);
    case KN_BI_NP_SINC:
    case KN_BI_NP_I0: /* not ufuncs in NumPy: ints and bools compute in float64 */
        return *operand = d->kind == KN_TY_FLOAT ? d : floaty(&kn_type_int64);
    case KN_BI_NP_SIGNBIT:
        *operand = floaty(d);
        return &kn_type_bool;
    case KN_BI_NP_SQUARE:
    case KN_BI_NP_RECIPROCAL:
    case KN_BI_NP_CONJUGATE:
        return *operand = d->kind == KN_TY_BOOL ? &kn_type_int8 : d;
    case KN_BI_NP_POSITIVE:
    case KN_BI_NP_FIX:
    case KN_BI_NP_INVERT:
        return *operand = d;
    case KN_BI_NP_LOGICAL_NOT:
        *operand = d;
        return &kn_type_bool;
    case KN_BI_NP_ANGLE:
        *operand = d;
        if (d->kind == KN_TY_COMPLEX)
            return kn_type_float(d->bits / 2);
        return d->kind == KN_TY_BOOL ? &kn_type_float64 : floaty(d);
    case KN_BI_NP_LDEXP:
        return *operand = floaty(d);
    default:
        break;
    }
    p = promoted(args);
    switch (id) {
    case KN_BI_NP_COPYSIGN:
    case KN_BI_NP_LOGADDEXP:
    case KN_BI_NP_LOGADDEXP2:
    case KN_BI_NP_NEXTAFTER:
    case KN_BI_NP_HEAVISIDE:
        return *operand = floaty(p);
    case KN_BI_NP_FMOD:
    case KN_BI_NP_LEFT_SHIFT:
    case KN_BI_NP_RIGHT_SHIFT:
        return *operand = p->kind == KN_TY_BOOL ? &kn_type_int8 : p;
    case KN_BI_NP_FLOAT_POWER:
        return *operand = p->kind == KN_TY_COMPLEX ? &kn_type_complex128 : &kn_type_float64;
    case KN_BI_NP_GCD:
    case KN_BI_NP_LCM:
    case KN_BI_NP_BITWISE_AND:
    case KN_BI_NP_BITWISE_OR:
    case KN_BI_NP_BITWISE_XOR:
        return *operand = p;
    case KN_BI_NP_LOGICAL_AND:
    case KN_BI_NP_LOGICAL_OR:
    case KN_BI_NP_LOGICAL_XOR:
        *operand = p;
        return &kn_type_bool;
    default: /* the comparisons */
        /* an integer array against a Python int of any value: compared exactly in int64, as
         * NumPy 2 does (no OverflowError for uint8 < 300) */
        if (p->kind == KN_TY_INT && p != &kn_type_uint64 &&
            (args[0]->kind != KN_TY_ARRAY || args[1]->kind != KN_TY_ARRAY))
            p = &kn_type_int64;
        *operand = p;
        return &kn_type_bool;
    }
}

/* what dtypes a ufunc accepts, for its checks and messages */
enum { ACC_REAL, ACC_NUMBER, ACC_INT, ACC_INTLIKE, ACC_NOBOOL };

static int
accepts(int id)
{
    switch (id) {
    case KN_BI_NP_SQUARE:
    case KN_BI_NP_RECIPROCAL:
    case KN_BI_NP_CONJUGATE:
    case KN_BI_NP_LOGICAL_NOT:
    case KN_BI_NP_ANGLE:
    case KN_BI_NP_FLOAT_POWER:
    case KN_BI_NP_LOGICAL_AND:
    case KN_BI_NP_LOGICAL_OR:
    case KN_BI_NP_LOGICAL_XOR:
    case KN_BI_NP_EQUAL:
    case KN_BI_NP_NOT_EQUAL:
    case KN_BI_NP_GREATER:
    case KN_BI_NP_GREATER_EQUAL:
    case KN_BI_NP_LESS:
    case KN_BI_NP_LESS_EQUAL: /* complex: NumPy's lexicographic order */
        return ACC_NUMBER;
    case KN_BI_NP_POSITIVE:
        return ACC_NOBOOL;
    case KN_BI_NP_GCD:
    case KN_BI_NP_LCM:
        return ACC_INT;
    case KN_BI_NP_INVERT:
    case KN_BI_NP_BITWISE_AND:
    case KN_BI_NP_BITWISE_OR:
    case KN_BI_NP_BITWISE_XOR:
    case KN_BI_NP_LEFT_SHIFT:
    case KN_BI_NP_RIGHT_SHIFT:
        return ACC_INTLIKE;
    default:
        return ACC_REAL;
    }
}

static int
accepted(int acc, const KnType *d)
{
    if (!kn_type_is_number(d))
        return 0;
    switch (acc) {
    case ACC_REAL:
        return d->kind != KN_TY_COMPLEX;
    case ACC_INT:
        return d->kind == KN_TY_INT;
    case ACC_INTLIKE:
        return kn_typing_intlike(d);
    case ACC_NOBOOL:
        return d->kind != KN_TY_BOOL;
    default:
        return 1;
    }
}

static const char *const acc_names[] = {
    [ACC_REAL] = "bool, integer or float arrays and scalars",
    [ACC_NUMBER] = "bool, integer, float or complex arrays and scalars",
    [ACC_INT] = "integer arrays and scalars",
    [ACC_INTLIKE] = "integer or bool arrays and scalars",
    [ACC_NOBOOL] = "integer, float or complex arrays and scalars",
};

/* every data argument of a call of id is of a dtype it accepts, else an error at the argument */
static int
check_args(KnCompilation *c, KnInstr *in, int id, int nin)
{
    int acc = accepts(id);
    for (int i = 0; i < nin && i + 1 < in->nargs - in->aux; i++) {
        KnInstr *a = in->args[i + 1];
        const KnType *d = elem(a->type);
        int ok = accepted(acc, d);
        if (id == KN_BI_NP_LDEXP && i == 1) /* the exponents: integers */
            ok = kn_typing_intlike(d) && d != &kn_type_uint64;
        if (!ok)
            return kn_typing_err(c, a->span, "np.%s() takes %s, not %s", kn_kir_builtin_attr(id),
                                 id == KN_BI_NP_LDEXP && i == 1 ? "integer exponents"
                                                                : acc_names[acc],
                                 a->type->name);
    }
    return 0;
}

/* a.round(decimals), np.round(a, decimals=0, out=None): decimals a constant int (impl->value) */
static int
type_round(KnCompilation *c, KnInstr *in, int id, KnInstr *self)
{
    static const char *const kw[] = {"a", "decimals", "out", NULL};
    int method = self != NULL;
    KN_TRY(kn_typing_check_keywords_of(c, in, method ? "round" : kn_kir_builtin_name(id),
                                       method ? kw + 1 : kw, method ? 2 : 3));
    KnInstr *a = method ? self : kn_typing_arg(in, 0, "a");
    KnInstr *dec = kn_typing_arg(in, method ? 0 : 1, "decimals");
    KnInstr *out = kn_typing_arg(in, method ? 1 : 2, "out");
    if (!a)
        return kn_typing_err(c, in->span, "%s() needs an array or a number",
                             kn_kir_builtin_name(id));
    const KnType *d = elem(a->type);
    if (!kn_type_is_number(d))
        return kn_typing_err(c, a->span, "round() takes numbers or arrays of numbers, not %s",
                             a->type->name);
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = method ? KN_CALL_METHOD : KN_CALL_BUILTIN;
    impl->builtin = id;
    impl->value = 0;
    if (dec) {
        if (dec->op != KN_OP_CONST || !dec->type || dec->type->kind != KN_TY_INT)
            return kn_typing_err(c, dec->span, "decimals= must be a constant integer in kiln");
        impl->value = dec->imm.i;
    }
    KnType *r = d->kind == KN_TY_BOOL ? &kn_type_float32 : (KnType *)d;
    impl->operand = (KnType *)d;
    impl->result = r;
    impl->inplace = out != NULL;
    if (out) {
        if (a->type->kind != KN_TY_ARRAY || out->type->kind != KN_TY_ARRAY || out->type->readonly ||
            out->type->ndim != a->type->ndim)
            return kn_typing_err(c, out->span,
                                 "out= must be a writable array of the input's shape, not %s",
                                 out->type->name);
        in->type = out->type;
        return 0;
    }
    in->type = a->type->kind == KN_TY_ARRAY ? kn_type_array(c->types, r, a->type->ndim, 'C', 0) : r;
    return 0;
}

/* a.conj(), a.conjugate() */
static int
type_conj_method(KnCompilation *c, KnInstr *in, int id, KnInstr *self)
{
    if (in->nargs > 1)
        return kn_typing_err(c, in->span, "%s() takes no arguments", kn_kir_builtin_attr(id));
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_METHOD;
    impl->builtin = id;
    KnType *d = self->type->dtype;
    impl->operand = d;
    impl->result = d;
    in->type = kn_type_array(c->types, d, self->type->ndim, 'C', 0);
    return 0;
}

/* divmod, frexp, modf: a tuple of two results (arrays when an argument is one) */
static int
type_two_outputs(KnCompilation *c, KnInstr *in, int id)
{
    int nin = kn_typing_npmath_nin(id), npos = in->nargs - 1 - in->aux;
    if (in->aux)
        return kn_typing_err(c, in->span, "np.%s() takes no keyword arguments in kiln",
                             kn_kir_builtin_attr(id));
    if (npos != nin)
        return kn_typing_err(c, in->span, "np.%s() takes %d argument%s in kiln (no out=)",
                             kn_kir_builtin_attr(id), nin, nin > 1 ? "s" : "");
    KnType *args[2] = {NULL, NULL};
    int ndim = -1;
    for (int i = 0; i < nin; i++) {
        args[i] = in->args[i + 1]->type;
        const KnType *d = elem(args[i]);
        if (!kn_type_is_number(d) || d->kind == KN_TY_COMPLEX)
            return kn_typing_err(c, in->args[i + 1]->span,
                                 "np.%s() takes bool, integer or float arrays and scalars, not %s",
                                 kn_kir_builtin_attr(id), args[i]->name);
        if (args[i]->kind == KN_TY_ARRAY && args[i]->ndim > ndim)
            ndim = args[i]->ndim;
    }
    KnType *first, *second, *operand;
    if (id == KN_BI_NP_DIVMOD && nin == 2) {
        operand = promoted(args);
        if (operand->kind == KN_TY_BOOL)
            operand = &kn_type_int8;
        first = second = operand;
    } else {
        operand = floaty(elem(args[0]));
        first = operand;
        second = id == KN_BI_NP_FREXP ? &kn_type_int32 : operand;
    }
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->operand = operand;
    impl->result = first;
    if (ndim >= 0) {
        first = kn_type_array(c->types, first, ndim, 'C', 0);
        second = kn_type_array(c->types, second, ndim, 'C', 0);
    }
    KnType *items[2] = {first, second};
    in->type = kn_type_tuple(c->types, items, 2);
    return 0;
}

int
kn_type_rule_npmath(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KN_UNUSED(a);
    KN_UNUSED(n);
    if (id == KN_BI_ARRAY_CONJ || id == KN_BI_ARRAY_CONJUGATE || id == KN_BI_ARRAY_ROUND) {
        KnInstr *self = in->args[0]->args[0];
        if (id == KN_BI_ARRAY_ROUND)
            return type_round(c, in, id, self);
        return type_conj_method(c, in, id, self);
    }
    if (id == KN_BI_NP_ROUND || id == KN_BI_NP_AROUND)
        return type_round(c, in, id, NULL);
    if (id == KN_BI_NP_DIVMOD || id == KN_BI_NP_FREXP || id == KN_BI_NP_MODF)
        return type_two_outputs(c, in, id);
    int nin = kn_typing_npmath_nin(id);
    if (id == KN_BI_NP_ANGLE && in->nargs - 1 - in->aux > 1)
        return kn_typing_err(c, in->args[2]->span,
                             "np.angle(z, deg) is not supported in kiln: multiply by 180/pi");
    KN_TRY(check_args(c, in, id, nin));
    return kn_typing_ufunc(c, in, id);
}
