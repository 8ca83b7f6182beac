/* random.c - typing of the random module's entries (lib/random.def).
 *
 * Input: a call of random.seed/random/randint/randrange/uniform/gauss (or the frontend's
 * internal random._kn_below) with typed arguments. Output: its type (none, float64 or int64)
 * and a KN_CALL_BUILTIN impl whose operand says what lowering converts the arguments to. Ints
 * (and bools) only where random.py takes them through operator.index; real numbers for
 * uniform and gauss. choice and shuffle never reach here: the frontend rewrites them
 * (frontend/iter.c); used another way they are an error at the call. */
#include "typing/internal.h"

static int
real(const KnType *t)
{
    return t->kind == KN_TY_BOOL || t->kind == KN_TY_INT || t->kind == KN_TY_FLOAT;
}

static int
bad(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    return kn_typing_err(c, in->span, "%s() does not accept (%s)", kn_kir_builtin_name(id),
                         kn_typing_arg_list(c, a, n));
}

/* between lo and hi arguments, each an int (ints) or a real number */
static int
args_ok(KnType **a, int n, int lo, int hi, int ints)
{
    if (n < lo || n > hi)
        return 0;
    for (int i = 0; i < n; i++)
        if (ints ? !kn_typing_intlike(a[i]) : !real(a[i]))
            return 0;
    return 1;
}

int
kn_type_rule_random(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (in->aux)
        return kn_typing_err(c, in->span, "%s() takes no keyword arguments in compiled code",
                             kn_kir_builtin_name(id));
    switch (id) {
    case KN_BI_RANDOM_SEED:
        if (n == 0 || (n == 1 && a[0]->kind == KN_TY_NONE)) { /* seed(): from the system */
            in->type = &kn_type_none;
            impl->operand = &kn_type_none;
            return 0;
        }
        if (!args_ok(a, n, 1, 1, 1))
            return kn_typing_err(c, in->span,
                                 "random.seed() in compiled code takes one int or none, got (%s)",
                                 kn_typing_arg_list(c, a, n));
        in->type = &kn_type_none;
        impl->operand = &kn_type_int64;
        return 0;
    case KN_BI_RANDOM_RANDOM:
        if (n)
            return bad(c, in, id, a, n);
        in->type = &kn_type_float64;
        return 0;
    case KN_BI_RANDOM_RANDINT:
    case KN_BI_RANDOM_RANDRANGE:
    case KN_BI_RANDOM_GETRANDBITS:
    case KN_BI_RANDOM_BELOW:
        if (!args_ok(a, n, id == KN_BI_RANDOM_RANDINT ? 2 : 1,
                     id == KN_BI_RANDOM_RANDRANGE ? 3
                     : id == KN_BI_RANDOM_RANDINT ? 2
                                                  : 1,
                     1))
            return bad(c, in, id, a, n);
        in->type = impl->operand = &kn_type_int64;
        return 0;
    case KN_BI_RANDOM_UNIFORM:
    case KN_BI_RANDOM_GAUSS:
        if (!args_ok(a, n, id == KN_BI_RANDOM_UNIFORM ? 2 : 0, 2, 0))
            return bad(c, in, id, a, n);
        in->type = impl->operand = &kn_type_float64;
        return 0;
    default: /* choice, shuffle: rewritten by the frontend when called directly */
        return kn_typing_err(c, in->span, "%s() is supported only when called directly",
                             kn_kir_builtin_name(id));
    }
}
