/* np_random.c - typing of np.random's legacy functions (lib/np_random.def).
 *
 * Input: a call of np.random.<name> with typed arguments (positional or by keyword, as
 * NumPy's signatures name them). Output: its type and a KN_CALL_BUILTIN impl. A distribution
 * takes scalar parameters (real numbers or ints, see KnNprSpec) and size=: absent or None
 * gives a scalar (float64 or int64), an int or a tuple of ints a C-contiguous array of that
 * shape. rand/randn take the dimensions as arguments; choice, shuffle, permutation,
 * multinomial and dirichlet take arrays. Array-valued parameters (NumPy's broadcasting) are
 * not supported: a TypingError at the argument names what is accepted. */
#include "typing/np_random.h"

#include "typing/internal.h"

#include <string.h>

#define S(id, n, p0, f0, p1, f1, p2, f2, r)                                                        \
    {KN_BI_NPR_##id, n, {p0, p1, p2}, {f0, f1, f2}, r}

static const KnNprSpec specs[] = {
    S(RANDOM, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(RANDOM_SAMPLE, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(STANDARD_NORMAL, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(STANDARD_EXPONENTIAL, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(STANDARD_CAUCHY, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(UNIFORM, 2, "low", "f0", "high", "f1", 0, 0, 'f'),
    S(NORMAL, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(EXPONENTIAL, 1, "scale", "f1", 0, 0, 0, 0, 'f'),
    S(STANDARD_GAMMA, 1, "shape", "fn", 0, 0, 0, 0, 'f'),
    S(GAMMA, 2, "shape", "fn", "scale", "f1", 0, 0, 'f'),
    S(BETA, 2, "a", "fn", "b", "fn", 0, 0, 'f'),
    S(CHISQUARE, 1, "df", "fn", 0, 0, 0, 0, 'f'),
    S(NONCENTRAL_CHISQUARE, 2, "df", "fn", "nonc", "fn", 0, 0, 'f'),
    S(F, 2, "dfnum", "fn", "dfden", "fn", 0, 0, 'f'),
    S(STANDARD_T, 1, "df", "fn", 0, 0, 0, 0, 'f'),
    S(LOGNORMAL, 2, "mean", "f0", "sigma", "f1", 0, 0, 'f'),
    S(LAPLACE, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(LOGISTIC, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(GUMBEL, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(WEIBULL, 1, "a", "fn", 0, 0, 0, 0, 'f'),
    S(PARETO, 1, "a", "fn", 0, 0, 0, 0, 'f'),
    S(POWER, 1, "a", "fn", 0, 0, 0, 0, 'f'),
    S(RAYLEIGH, 1, "scale", "f1", 0, 0, 0, 0, 'f'),
    S(TRIANGULAR, 3, "left", "fn", "mode", "fn", "right", "fn", 'f'),
    S(VONMISES, 2, "mu", "fn", "kappa", "fn", 0, 0, 'f'),
    S(WALD, 2, "mean", "fn", "scale", "fn", 0, 0, 'f'),
    S(RANDINT, 2, "low", "in", "high", "iN", 0, 0, 'i'),
    S(BINOMIAL, 2, "n", "in", "p", "fn", 0, 0, 'i'),
    S(POISSON, 1, "lam", "f1", 0, 0, 0, 0, 'i'),
    S(GEOMETRIC, 1, "p", "fn", 0, 0, 0, 0, 'i'),
    S(HYPERGEOMETRIC, 3, "ngood", "in", "nbad", "in", "nsample", "in", 'i'),
    S(LOGSERIES, 1, "p", "fn", 0, 0, 0, 0, 'i'),
    S(NEGATIVE_BINOMIAL, 2, "n", "fn", "p", "fn", 0, 0, 'i'),
    S(ZIPF, 1, "a", "fn", 0, 0, 0, 0, 'i'),
};

const KnNprSpec *
kn_typing_npr_spec(int id)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (specs[i].id == id)
            return &specs[i];
    return NULL;
}

static const char *
fname(int id)
{
    return kn_kir_builtin_name(id);
}

static int
is_none(const KnInstr *x)
{
    return !x || (x->type && x->type->kind == KN_TY_NONE);
}

static int
real(const KnType *t)
{
    return t->kind == KN_TY_BOOL || t->kind == KN_TY_INT || t->kind == KN_TY_FLOAT;
}

/* the number of dimensions size= gives (-1: a scalar), or -2 after an error */
static int
size_ndim(KnCompilation *c, int id, KnInstr *size)
{
    if (is_none(size))
        return -1;
    const KnType *t = size->type;
    if (kn_typing_intlike(t))
        return 1;
    if (t->kind == KN_TY_TUPLE) {
        int ok = t->n <= 32;
        for (int i = 0; ok && i < t->n; i++)
            ok = kn_typing_intlike(t->items[i]);
        if (ok)
            return t->n;
    }
    kn_typing_err(c, size->span, "%s(): size must be None, an int or a tuple of ints, got %s",
                  fname(id), t->name);
    return -2;
}

static KnType *
result(KnCompilation *c, KnType *d, int ndim)
{
    return ndim < 0 ? d : kn_type_array(c->types, d, ndim, 'C', 0);
}

static int
distribution(KnCompilation *c, KnInstr *in, int id, const KnNprSpec *sp)
{
    const char *allowed[6] = {0};
    for (int i = 0; i < sp->nparams; i++)
        allowed[i] = sp->params[i];
    allowed[sp->nparams] = "size";
    if (id == KN_BI_NPR_RANDINT)
        allowed[sp->nparams + 1] = "dtype";
    int npos = sp->nparams + 1 + (id == KN_BI_NPR_RANDINT);
    if (kn_typing_check_keywords(c, in, allowed, npos) < 0)
        return -1;
    for (int i = 0; i < sp->nparams; i++) {
        KnInstr *a = kn_typing_arg(in, i, sp->params[i]);
        char form = sp->forms[i][0], dflt = sp->forms[i][1];
        if (!a || (dflt == 'N' && is_none(a))) {
            if (dflt == 'n')
                return kn_typing_err(c, in->span, "%s() missing required argument '%s'", fname(id),
                                     sp->params[i]);
            continue;
        }
        if (form == 'f' ? !real(a->type) : !kn_typing_intlike(a->type))
            return kn_typing_err(c, a->span,
                                 "%s(): %s must be %s in compiled code (array parameters are not "
                                 "supported), got %s",
                                 fname(id), sp->params[i], form == 'f' ? "a real number" : "an int",
                                 a->type->name);
    }
    if (id == KN_BI_NPR_RANDINT) {
        KnInstr *dt = kn_typing_arg(in, 3, "dtype");
        KnType *d = dt && !is_none(dt) ? kn_typing_dtype_of(dt) : &kn_type_int64;
        if (d != &kn_type_int64)
            return kn_typing_err(c, dt->span, "randint(): dtype must be int or np.int64 in "
                                              "compiled code");
    }
    int nd = size_ndim(c, id, kn_typing_arg(in, sp->nparams, "size"));
    if (nd == -2)
        return -1;
    in->type = result(c, sp->result == 'f' ? &kn_type_float64 : &kn_type_int64, nd);
    return 0;
}

/* rand(d0, d1, ...), randn(...): dimensions as arguments */
static int
dims(KnCompilation *c, KnInstr *in, int id, int n)
{
    if (in->aux)
        return kn_typing_err(c, in->span, "%s() takes no keyword arguments", fname(id));
    for (int i = 0; i < n && i < 32; i++)
        if (!kn_typing_intlike(in->args[i + 1]->type))
            return kn_typing_err(c, in->args[i + 1]->span,
                                 "%s(): the dimensions must be ints, got %s", fname(id),
                                 in->args[i + 1]->type->name);
    if (n > 32)
        return kn_typing_err(c, in->span, "%s(): at most 32 dimensions", fname(id));
    in->type = result(c, &kn_type_float64, n ? n : -1);
    return 0;
}

/* a 1-D float64 array argument (pvals, alpha, p) */
static int
float_vector(KnCompilation *c, int id, KnInstr *a, const char *what)
{
    const KnType *t = a->type;
    if (t->kind == KN_TY_ARRAY && t->ndim == 1 && t->dtype == &kn_type_float64)
        return 0;
    return kn_typing_err(c, a->span, "%s(): %s must be a 1-D float64 array, got %s", fname(id),
                         what, t->name);
}

static int
choice(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"a", "size", "replace", "p", NULL};
    if (kn_typing_check_keywords(c, in, kw, 4) < 0)
        return -1;
    KnInstr *a = kn_typing_arg(in, 0, "a"), *rep = kn_typing_arg(in, 2, "replace");
    KnInstr *p = kn_typing_arg(in, 3, "p");
    if (!a)
        return kn_typing_err(c, in->span, "choice() missing required argument 'a'");
    int is_int = kn_typing_intlike(a->type);
    if (!is_int && !(a->type->kind == KN_TY_ARRAY && a->type->ndim == 1))
        return kn_typing_err(c, a->span, "choice(): a must be an int or a 1-D array, got %s",
                             a->type->name);
    if (rep && !kn_typing_intlike(rep->type))
        return kn_typing_err(c, rep->span, "choice(): replace must be a bool, got %s",
                             rep->type->name);
    if (!is_none(p) && float_vector(c, id, p, "p") < 0)
        return -1;
    int nd = size_ndim(c, id, kn_typing_arg(in, 1, "size"));
    if (nd == -2)
        return -1;
    in->type = result(c, is_int ? &kn_type_int64 : a->type->dtype, nd);
    return 0;
}

static int
array_arg(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"x", NULL};
    if (kn_typing_check_keywords(c, in, kw, 1) < 0)
        return -1;
    KnInstr *x = kn_typing_arg(in, 0, "x");
    if (!x)
        return kn_typing_err(c, in->span, "%s() missing required argument 'x'", fname(id));
    const KnType *t = x->type;
    if (id == KN_BI_NPR_PERMUTATION && kn_typing_intlike(t)) {
        in->type = kn_type_array(c->types, &kn_type_int64, 1, 'C', 0);
        return 0;
    }
    if (t->kind != KN_TY_ARRAY || t->ndim < 1)
        return kn_typing_err(c, x->span, "%s(): x must be %san array of at least 1 dimension, got %s",
                             fname(id), id == KN_BI_NPR_PERMUTATION ? "an int or " : "", t->name);
    if (id == KN_BI_NPR_SHUFFLE) {
        if (t->readonly)
            return kn_typing_err(c, x->span, "shuffle(): the array is read-only");
        in->type = &kn_type_none;
    } else {
        in->type = kn_type_array(c->types, t->dtype, t->ndim, 'C', 0);
    }
    return 0;
}

/* multinomial(n, pvals, size=None), dirichlet(alpha, size=None): a vector per draw */
static int
vector_draw(KnCompilation *c, KnInstr *in, int id)
{
    int multi = id == KN_BI_NPR_MULTINOMIAL;
    static const char *const kwm[] = {"n", "pvals", "size", NULL}, *const kwd[] = {"alpha", "size",
                                                                                   NULL};
    if (kn_typing_check_keywords(c, in, multi ? kwm : kwd, multi ? 3 : 2) < 0)
        return -1;
    if (multi) {
        KnInstr *n = kn_typing_arg(in, 0, "n");
        if (!n || !kn_typing_intlike(n->type))
            return kn_typing_err(c, n ? n->span : in->span, "multinomial(): n must be an int");
    }
    KnInstr *v = kn_typing_arg(in, multi, multi ? "pvals" : "alpha");
    if (!v)
        return kn_typing_err(c, in->span, "%s() missing required argument '%s'", fname(id),
                             multi ? "pvals" : "alpha");
    if (float_vector(c, id, v, multi ? "pvals" : "alpha") < 0)
        return -1;
    int nd = size_ndim(c, id, kn_typing_arg(in, multi + 1, "size"));
    if (nd == -2)
        return -1;
    in->type = kn_type_array(c->types, multi ? &kn_type_int64 : &kn_type_float64, nd < 0 ? 1 : nd + 1,
                             'C', 0);
    return 0;
}

int
kn_type_rule_np_random(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    const KnNprSpec *sp = kn_typing_npr_spec(id);
    if (sp)
        return distribution(c, in, id, sp);
    switch (id) {
    case KN_BI_NPR_SEED:
        if (in->aux || n > 1 || (n == 1 && !kn_typing_intlike(a[0]) && a[0]->kind != KN_TY_NONE))
            return kn_typing_err(c, n == 1 ? in->args[1]->span : in->span,
                                 "np.random.seed() in compiled code takes one int or None, got (%s)",
                                 kn_typing_arg_list(c, a, n));
        in->type = &kn_type_none;
        return 0;
    case KN_BI_NPR_RAND:
    case KN_BI_NPR_RANDN:
        return dims(c, in, id, n);
    case KN_BI_NPR_CHOICE:
        return choice(c, in, id);
    case KN_BI_NPR_SHUFFLE:
    case KN_BI_NPR_PERMUTATION:
        return array_arg(c, in, id);
    default:
        return vector_draw(c, in, id);
    }
}
