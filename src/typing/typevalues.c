/* typevalues.c - typing of types used as values (lib/typevalues.def): type(x) of a number is
 * its scalar class (a FUNC type of the NumPy class's entry: calling it converts, it is a dtype
 * for np.zeros(..., dtype=type(x))); np.iinfo(t) and np.finfo(t) are compile-time values of
 * kind INFO (t: a scalar class, a.dtype, or a number whose type is taken), and their
 * attributes are constants typed as Numba types them: iinfo's min and max int64 (uint64 for
 * uint64), finfo's float attributes of the float type (float32 for complex64), counts
 * (bits, precision, exponents) int64. Lowering: lower/typevalues.c. */
#include "typing/internal.h"

/* the dtype np.iinfo / np.finfo is asked about, or NULL */
static KnType *
info_dtype(KnInstr *in, KnType *t)
{
    KnInstr *arg = kn_typing_arg(in, 0, NULL);
    if (kn_type_is_number(t))
        return t;
    return arg ? kn_typing_dtype_of(arg) : NULL;
}

static int
type_of(KnCompilation *c, KnInstr *in, KnType **a, int n)
{
    if (n != 1)
        return kn_typing_err(c, in->span, "type() takes 1 argument in compiled code (%d given)", n);
    int cls = kn_typing_scalar_class(a[0]);
    if (cls < 0)
        return kn_typing_err(c, in->span,
                             "type() of %s is not supported: in compiled code only the type of a "
                             "number is a value (it converts, and is a dtype)",
                             a[0]->name);
    in->type = kn_type_func(c->types, cls, NULL, kn_kir_builtin_name(cls));
    return 0;
}

static int
info_of(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    const char *fn = id == KN_BI_NP_IINFO ? "iinfo" : "finfo";
    if (n != 1)
        return kn_typing_err(c, in->span, "np.%s() takes 1 argument (%d given)", fn, n);
    KnType *dt = info_dtype(in, a[0]);
    if (dt && id == KN_BI_NP_FINFO && dt->kind == KN_TY_COMPLEX)
        dt = kn_type_float(dt->bits / 2);
    int ok = dt && (id == KN_BI_NP_IINFO ? dt->kind == KN_TY_INT : dt->kind == KN_TY_FLOAT);
    if (!ok)
        return kn_typing_err(c, in->span,
                             "np.%s() needs %s type (a scalar class such as %s, a "
                             "dtype, or a value of that type), not %s",
                             fn, id == KN_BI_NP_IINFO ? "an integer" : "a float or complex",
                             id == KN_BI_NP_IINFO ? "np.int32" : "np.float64",
                             dt ? dt->name : a[0]->name);
    in->type = kn_type_info(c->types, id, dt, fn);
    return 0;
}

/* np.dtype(t) of a number's dtype (a scalar class, a dtype, a string such as 'f8') is that
 * dtype's scalar class, as type(x) */
static int
dtype_value(KnCompilation *c, KnInstr *in, KnType **a, int n)
{
    KnInstr *arg = kn_typing_arg(in, 0, NULL);
    KnType *dt = n == 1 && in->aux == 0 ? kn_typing_dtype_of(arg) : NULL;
    if (!dt)
        return kn_typing_err(c, n >= 1 ? arg->span : in->span,
                             "np.dtype() in compiled code takes one number dtype (a scalar class "
                             "or a constant string such as 'f8'), not %s",
                             n >= 1 ? a[0]->name : "nothing");
    int cls = kn_typing_scalar_class(dt);
    in->type = kn_type_func(c->types, cls, NULL, kn_kir_builtin_name(cls));
    return 0;
}

int
kn_type_rule_type_value(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (id == KN_BI_NP_DTYPE)
        return dtype_value(c, in, a, n);
    return id == KN_BI_TYPE ? type_of(c, in, a, n) : info_of(c, in, id, a, n);
}

int
kn_type_rule_info_attr(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    (void)a, (void)n;
    KnType *t = in->args[0]->type, *dt = t->dtype;
    int iinfo = t->id == KN_BI_NP_IINFO;
    switch (id) {
    case KN_BI_INFO_DTYPE: {
        int cls = kn_typing_scalar_class(dt);
        in->type = kn_type_func(c->types, cls, NULL, kn_kir_builtin_name(cls));
        return 0;
    }
    case KN_BI_INFO_BITS:
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_INFO_KIND: /* 'i' or 'u' (np.iinfo only, as NumPy) */
        if (!iinfo)
            break;
        in->type = &kn_type_str;
        return 0;
    case KN_BI_INFO_MIN:
    case KN_BI_INFO_MAX:
        in->type = !iinfo ? dt : dt == &kn_type_uint64 ? &kn_type_uint64 : &kn_type_int64;
        return 0;
    default:
        break;
    }
    if (iinfo)
        return kn_typing_err(c, in->span, "%s has no attribute '%s'", t->name, in->imm.str);
    switch (id) {
    case KN_BI_INFO_KIND:
        return kn_typing_err(c, in->span, "%s has no attribute 'kind'", t->name);
    case KN_BI_INFO_EPS:
    case KN_BI_INFO_EPSNEG:
    case KN_BI_INFO_TINY:
    case KN_BI_INFO_SMALLEST_NORMAL:
    case KN_BI_INFO_SMALLEST_SUBNORMAL:
    case KN_BI_INFO_RESOLUTION:
        in->type = dt;
        return 0;
    default:
        in->type = &kn_type_int64;
        return 0;
    }
}
