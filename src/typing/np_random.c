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

#define S(id, n, p0, f0, p1, f1, p2, f2, r) {KN_BI_##id, n, {p0, p1, p2}, {f0, f1, f2}, r}

static const KnNprSpec specs[] = {
    S(NPR_RANDOM, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPR_RANDOM_SAMPLE, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPR_STANDARD_NORMAL, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPR_STANDARD_EXPONENTIAL, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPR_STANDARD_CAUCHY, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPR_UNIFORM, 2, "low", "f0", "high", "f1", 0, 0, 'f'),
    S(NPR_NORMAL, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(NPR_EXPONENTIAL, 1, "scale", "f1", 0, 0, 0, 0, 'f'),
    S(NPR_STANDARD_GAMMA, 1, "shape", "fn", 0, 0, 0, 0, 'f'),
    S(NPR_GAMMA, 2, "shape", "fn", "scale", "f1", 0, 0, 'f'),
    S(NPR_BETA, 2, "a", "fn", "b", "fn", 0, 0, 'f'),
    S(NPR_CHISQUARE, 1, "df", "fn", 0, 0, 0, 0, 'f'),
    S(NPR_NONCENTRAL_CHISQUARE, 2, "df", "fn", "nonc", "fn", 0, 0, 'f'),
    S(NPR_F, 2, "dfnum", "fn", "dfden", "fn", 0, 0, 'f'),
    S(NPR_STANDARD_T, 1, "df", "fn", 0, 0, 0, 0, 'f'),
    S(NPR_LOGNORMAL, 2, "mean", "f0", "sigma", "f1", 0, 0, 'f'),
    S(NPR_LAPLACE, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(NPR_LOGISTIC, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(NPR_GUMBEL, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(NPR_WEIBULL, 1, "a", "fn", 0, 0, 0, 0, 'f'),
    S(NPR_PARETO, 1, "a", "fn", 0, 0, 0, 0, 'f'),
    S(NPR_POWER, 1, "a", "fn", 0, 0, 0, 0, 'f'),
    S(NPR_RAYLEIGH, 1, "scale", "f1", 0, 0, 0, 0, 'f'),
    S(NPR_TRIANGULAR, 3, "left", "fn", "mode", "fn", "right", "fn", 'f'),
    S(NPR_VONMISES, 2, "mu", "fn", "kappa", "fn", 0, 0, 'f'),
    S(NPR_WALD, 2, "mean", "fn", "scale", "fn", 0, 0, 'f'),
    S(NPR_RANDINT, 2, "low", "in", "high", "iN", 0, 0, 'i'),
    S(NPR_BINOMIAL, 2, "n", "in", "p", "fn", 0, 0, 'i'),
    S(NPR_POISSON, 1, "lam", "f1", 0, 0, 0, 0, 'i'),
    S(NPR_GEOMETRIC, 1, "p", "fn", 0, 0, 0, 0, 'i'),
    S(NPR_HYPERGEOMETRIC, 3, "ngood", "in", "nbad", "in", "nsample", "in", 'i'),
    S(NPR_LOGSERIES, 1, "p", "fn", 0, 0, 0, 0, 'i'),
    S(NPR_NEGATIVE_BINOMIAL, 2, "n", "fn", "p", "fn", 0, 0, 'i'),
    S(NPR_ZIPF, 1, "a", "fn", 0, 0, 0, 0, 'i'),
    /* np.random.Generator's methods */
    S(NPG_RANDOM, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPG_STANDARD_NORMAL, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPG_STANDARD_EXPONENTIAL, 0, 0, 0, 0, 0, 0, 0, 'f'),
    S(NPG_NORMAL, 2, "loc", "f0", "scale", "f1", 0, 0, 'f'),
    S(NPG_UNIFORM, 2, "low", "f0", "high", "f1", 0, 0, 'f'),
    S(NPG_EXPONENTIAL, 1, "scale", "f1", 0, 0, 0, 0, 'f'),
    S(NPG_INTEGERS, 2, "low", "in", "high", "iN", 0, 0, 'i'),
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
    int ints = id == KN_BI_NPR_RANDINT || id == KN_BI_NPG_INTEGERS;
    const char *allowed[7] = {0};
    for (int i = 0; i < sp->nparams; i++)
        allowed[i] = sp->params[i];
    allowed[sp->nparams] = "size";
    if (ints)
        allowed[sp->nparams + 1] = "dtype";
    if (id == KN_BI_NPG_INTEGERS)
        allowed[sp->nparams + 2] = "endpoint";
    int npos = sp->nparams + 1 + ints + (id == KN_BI_NPG_INTEGERS);
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
    if (ints) {
        KnInstr *dt = kn_typing_arg(in, 3, "dtype");
        KnType *d = dt && !is_none(dt) ? kn_typing_dtype_of(dt) : &kn_type_int64;
        if (d != &kn_type_int64)
            return kn_typing_err(c, dt->span,
                                 "%s(): dtype must be int or np.int64 in compiled code", fname(id));
        KnInstr *ep = kn_typing_arg(in, 4, "endpoint");
        if (ep && !kn_typing_intlike(ep->type))
            return kn_typing_err(c, ep->span, "integers(): endpoint must be a bool, got %s",
                                 ep->type->name);
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
    static const char *const kwg[] = {"a", "size", "replace", "p", "shuffle", NULL};
    int gen = id == KN_BI_NPG_CHOICE;
    if (kn_typing_check_keywords(c, in, gen ? kwg : kw, 4) < 0)
        return -1;
    KnInstr *sh = gen ? kn_typing_arg(in, 5, "shuffle") : NULL;
    if (sh && !kn_typing_intlike(sh->type))
        return kn_typing_err(c, sh->span, "choice(): shuffle must be a bool, got %s",
                             sh->type->name);
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
    if ((id == KN_BI_NPR_PERMUTATION || id == KN_BI_NPG_PERMUTATION) && kn_typing_intlike(t)) {
        in->type = kn_type_array(c->types, &kn_type_int64, 1, 'C', 0);
        return 0;
    }
    if (t->kind != KN_TY_ARRAY || t->ndim < 1)
        return kn_typing_err(
            c, x->span, "%s(): x must be %san array of at least 1 dimension, got %s", fname(id),
            id != KN_BI_NPR_SHUFFLE && id != KN_BI_NPG_SHUFFLE ? "an int or " : "", t->name);
    if (id == KN_BI_NPR_SHUFFLE || id == KN_BI_NPG_SHUFFLE) {
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
    in->type = kn_type_array(c->types, multi ? &kn_type_int64 : &kn_type_float64,
                             nd < 0 ? 1 : nd + 1, 'C', 0);
    return 0;
}

int
kn_type_rule_np_random(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, (kn_lib_flags(id) & KN_CF_METHOD) ? KN_CALL_METHOD : KN_CALL_BUILTIN)
        ->builtin = id;
    const KnNprSpec *sp = kn_typing_npr_spec(id);
    if (sp)
        return distribution(c, in, id, sp);
    switch (id) {
    case KN_BI_NPR_SEED:
        if (in->aux || n > 1 || (n == 1 && !kn_typing_intlike(a[0]) && a[0]->kind != KN_TY_NONE))
            return kn_typing_err(
                c, n == 1 ? in->args[1]->span : in->span,
                "np.random.seed() in compiled code takes one int or None, got (%s)",
                kn_typing_arg_list(c, a, n));
        in->type = &kn_type_none;
        return 0;
    case KN_BI_NPR_RAND:
    case KN_BI_NPR_RANDN:
        return dims(c, in, id, n);
    case KN_BI_NPR_CHOICE:
    case KN_BI_NPG_CHOICE:
        return choice(c, in, id);
    case KN_BI_NPR_SHUFFLE:
    case KN_BI_NPR_PERMUTATION:
    case KN_BI_NPG_SHUFFLE:
    case KN_BI_NPG_PERMUTATION:
        return array_arg(c, in, id);
    default:
        return vector_draw(c, in, id);
    }
}
