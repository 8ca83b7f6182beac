/* datetime.c - typing of np.datetime64 and np.timedelta64 operations (lib/datetime.def), as
 * NumPy types them: operands meet at their common unit (kn_type_time_common; a TypeError with
 * NumPy's message where there is none); timedelta +, -, % timedelta give a timedelta,
 * timedelta * or / a number a timedelta of its unit, timedelta / timedelta a float64,
 * timedelta // timedelta an int64; datetime +/- timedelta a datetime, datetime - datetime a
 * timedelta; comparisons of two datetimes or two timedeltas a bool. np.isnat(x) is a bool,
 * np.datetime64(n, unit) / np.timedelta64(n, unit) (n an integer or 'NaT', unit a constant str,
 * or no unit: generic) a value of that unit. */
#include "typing/internal.h"

static int
is_time(const KnType *t)
{
    return t && (t->kind == KN_TY_DATETIME || t->kind == KN_TY_TIMEDELTA);
}

static int
no_common(KnCompilation *c, KnInstr *in, const KnType *a, const KnType *b)
{
    return kn_typing_err(c, in->span,
                         "Cannot get a common metadata divisor for Numpy datetime metadata [%s] "
                         "and [%s] because they have incompatible nonlinear base time units",
                         kn_type_time_unit_name(a->id), kn_type_time_unit_name(b->id));
}

/* the common unit of a and b (both datetimes or timedeltas), or -1 after a diagnostic */
static int
common(KnCompilation *c, KnInstr *in, const KnType *a, const KnType *b)
{
    int u = kn_type_time_common(a->id, a->kind == KN_TY_DATETIME, b->id, b->kind == KN_TY_DATETIME);
    if (u < 0)
        no_common(c, in, a, b);
    return u;
}

static int
unsupported(KnCompilation *c, KnInstr *in, const KnType *a, const KnType *b, const char *op)
{
    return kn_typing_err(c, in->span, "unsupported operand types for %s: %s and %s", op, a->name,
                         b ? b->name : "?");
}

static int
is_real(const KnType *t)
{
    return t->kind == KN_TY_INT || t->kind == KN_TY_BOOL || t->kind == KN_TY_FLOAT;
}

static int
type_binop(KnCompilation *c, KnInstr *in, KnType *a, KnType *b)
{
    int op = (int)in->aux, u;
    const char *sym = kn_kir_binop_symbol((KnBinop)op);
    int ad = a->kind == KN_TY_DATETIME, bd = b->kind == KN_TY_DATETIME;
    int at = a->kind == KN_TY_TIMEDELTA, bt = b->kind == KN_TY_TIMEDELTA;
    switch (op) {
    case KN_BIN_ADD:
    case KN_BIN_SUB:
        if (!(is_time(a) && is_time(b)) || (ad && bd && op == KN_BIN_ADD) ||
            (at && bd && op == KN_BIN_SUB))
            return unsupported(c, in, a, b, sym);
        if ((u = common(c, in, a, b)) < 0)
            return -1;
        in->type = kn_type_datetime(c->types, !(ad ^ bd), u); /* dt - dt: a timedelta */
        return 0;
    case KN_BIN_MUL:
        if (at && is_real(b))
            in->type = a;
        else if (bt && is_real(a))
            in->type = b;
        else
            return unsupported(c, in, a, b, sym);
        return 0;
    case KN_BIN_TRUEDIV:
    case KN_BIN_FLOORDIV:
    case KN_BIN_MOD:
        if (at && bt) {
            if ((u = common(c, in, a, b)) < 0)
                return -1;
            in->type = op == KN_BIN_TRUEDIV    ? &kn_type_float64
                       : op == KN_BIN_FLOORDIV ? &kn_type_int64
                                               : kn_type_datetime(c->types, 1, u);
            return 0;
        }
        if (at && is_real(b) && op == KN_BIN_TRUEDIV) {
            in->type = a;
            return 0;
        }
        return unsupported(c, in, a, b, sym);
    default:
        return unsupported(c, in, a, b, sym);
    }
}

static int
type_cmp(KnCompilation *c, KnInstr *in, KnType *a, KnType *b)
{
    if (!is_time(a) || !is_time(b) || a->kind != b->kind) {
        if (in->aux == KN_CMP_EQ || in->aux == KN_CMP_NE) {
            in->type = &kn_type_bool; /* of different kinds: never equal */
            KnCallImpl *impl = kn_typing_impl_of(c, in);
            impl->operand = NULL;
            return 0;
        }
        return kn_typing_err(c, in->span, "'%s' is not supported between %s and %s",
                             kn_kir_cmp_symbol((KnCmp)in->aux), a->name, b->name);
    }
    if (common(c, in, a, b) < 0)
        return -1;
    in->type = &kn_type_bool;
    return 0;
}

/* np.datetime64(n[, unit]) / np.timedelta64(n[, unit]) */
static int
type_make(KnCompilation *c, KnInstr *in, int delta)
{
    int npos = in->nargs - 1 - in->aux;
    const char *fname = delta ? "np.timedelta64" : "np.datetime64";
    if (in->aux || npos < 1 || npos > 2)
        return kn_typing_err(c, in->span, "%s() takes a count and an optional unit", fname);
    KnInstr *v = in->args[1], *u = npos == 2 ? in->args[2] : NULL;
    int nat = v->op == KN_OP_CONST && v->type == &kn_type_str && !strcmp(v->imm.str, "NaT");
    if (!nat && !kn_typing_intlike(v->type))
        return kn_typing_err(c, v->span,
                             "%s() takes an integer count (or 'NaT') in compiled code, not %s",
                             fname, v->type->name);
    int unit = KN_TU_GENERIC;
    if (u) {
        unit = u->op == KN_OP_CONST && u->type == &kn_type_str
                   ? kn_type_time_unit_by_name(u->imm.str)
                   : -1;
        if (unit < 0 || unit == KN_TU_GENERIC)
            return kn_typing_err(c, u->span,
                                 "the unit of %s() must be a constant str: Y, M, W, D, h, m, s, "
                                 "ms, us, ns, ps, fs or as",
                                 fname);
    }
    in->type = kn_type_datetime(c->types, delta, unit);
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    return 0;
}

int
kn_type_rule_datetime(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    if (id == KN_BI_NP_ISNAT) {
        if (n != 1 || in->aux || !is_time(a[0]))
            return kn_typing_err(c, in->span,
                                 "np.isnat() takes one datetime64 or timedelta64 "
                                 "scalar");
        in->type = &kn_type_bool;
        kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
        return 0;
    }
    if (id == KN_BI_NP_DATETIME64 || id == KN_BI_NP_TIMEDELTA64)
        return type_make(c, in, id == KN_BI_NP_TIMEDELTA64);
    switch (in->op) {
    case KN_OP_BINOP:
        return type_binop(c, in, a[0], a[1]);
    case KN_OP_CMP:
        return type_cmp(c, in, a[0], a[1]);
    case KN_OP_UNOP:
        in->type = a[0];
        return 0;
    default:
        return kn_typing_err(c, in->span, "%s has no attribute '%s'", a[0]->name,
                             kn_kir_builtin_name(id));
    }
}
