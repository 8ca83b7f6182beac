/* np_random.c - lowering of np.random's legacy functions (lib/np_random.def): calls of
 * runtime/np_random.c over kiln's per-thread MT19937 state.
 *
 * Input: a call typed by typing/np_random.c. Output: the value. A distribution stores its
 * parameters in two small arrays (doubles and int64s, by position, defaults filled in) and
 * calls kn_rt_npr_fill(kind, dp, ip, out, n): for a scalar into a slot on the stack (n = 1),
 * for size= into a new C array of that shape. A nonzero status is the index of NumPy's
 * exception for a bad parameter, raised as such (kn_lower_raise_index_if). random() without
 * size= calls kn_rt_npr_random directly, the commonest scalar draw. shuffle and permutation
 * pass the array's data, shape and strides; choice, multinomial and dirichlet their vectors. */
#include "lower/array.h"

#include "runtime/np_random.h"
#include "typing/np_random.h"

static const struct {
    int id, kind;
} kinds[] = {
    {KN_BI_NPR_RANDOM, KN_NPR_RANDOM},
    {KN_BI_NPR_RANDOM_SAMPLE, KN_NPR_RANDOM},
    {KN_BI_NPR_RAND, KN_NPR_RANDOM},
    {KN_BI_NPR_RANDN, KN_NPR_STD_NORMAL},
    {KN_BI_NPR_STANDARD_NORMAL, KN_NPR_STD_NORMAL},
    {KN_BI_NPR_STANDARD_EXPONENTIAL, KN_NPR_STD_EXP},
    {KN_BI_NPR_STANDARD_CAUCHY, KN_NPR_STD_CAUCHY},
    {KN_BI_NPR_UNIFORM, KN_NPR_UNIFORM},
    {KN_BI_NPR_NORMAL, KN_NPR_NORMAL},
    {KN_BI_NPR_EXPONENTIAL, KN_NPR_EXPONENTIAL},
    {KN_BI_NPR_STANDARD_GAMMA, KN_NPR_STD_GAMMA},
    {KN_BI_NPR_GAMMA, KN_NPR_GAMMA},
    {KN_BI_NPR_BETA, KN_NPR_BETA},
    {KN_BI_NPR_CHISQUARE, KN_NPR_CHISQUARE},
    {KN_BI_NPR_NONCENTRAL_CHISQUARE, KN_NPR_NONCENTRAL_CHISQUARE},
    {KN_BI_NPR_F, KN_NPR_F},
    {KN_BI_NPR_STANDARD_T, KN_NPR_STANDARD_T},
    {KN_BI_NPR_LOGNORMAL, KN_NPR_LOGNORMAL},
    {KN_BI_NPR_LAPLACE, KN_NPR_LAPLACE},
    {KN_BI_NPR_LOGISTIC, KN_NPR_LOGISTIC},
    {KN_BI_NPR_GUMBEL, KN_NPR_GUMBEL},
    {KN_BI_NPR_WEIBULL, KN_NPR_WEIBULL},
    {KN_BI_NPR_PARETO, KN_NPR_PARETO},
    {KN_BI_NPR_POWER, KN_NPR_POWER},
    {KN_BI_NPR_RAYLEIGH, KN_NPR_RAYLEIGH},
    {KN_BI_NPR_TRIANGULAR, KN_NPR_TRIANGULAR},
    {KN_BI_NPR_VONMISES, KN_NPR_VONMISES},
    {KN_BI_NPR_WALD, KN_NPR_WALD},
    {KN_BI_NPR_RANDINT, KN_NPR_RANDINT},
    {KN_BI_NPR_BINOMIAL, KN_NPR_BINOMIAL},
    {KN_BI_NPR_POISSON, KN_NPR_POISSON},
    {KN_BI_NPR_GEOMETRIC, KN_NPR_GEOMETRIC},
    {KN_BI_NPR_HYPERGEOMETRIC, KN_NPR_HYPERGEOMETRIC},
    {KN_BI_NPR_LOGSERIES, KN_NPR_LOGSERIES},
    {KN_BI_NPR_NEGATIVE_BINOMIAL, KN_NPR_NEGATIVE_BINOMIAL},
    {KN_BI_NPR_ZIPF, KN_NPR_ZIPF},
    {KN_BI_NPG_RANDOM, KN_NPG_RANDOM},
    {KN_BI_NPG_STANDARD_NORMAL, KN_NPG_STD_NORMAL},
    {KN_BI_NPG_STANDARD_EXPONENTIAL, KN_NPG_STD_EXP},
    {KN_BI_NPG_NORMAL, KN_NPG_NORMAL},
    {KN_BI_NPG_UNIFORM, KN_NPG_UNIFORM},
    {KN_BI_NPG_EXPONENTIAL, KN_NPG_EXPONENTIAL},
    {KN_BI_NPG_INTEGERS, KN_NPG_INTEGERS},
};

/* a Generator's method: its bitgen_t pointer (the bound method's self); NULL for np.random.* */
static LLVMValueRef
generator(L *l, KnInstr *in, int id)
{
    if (!(kn_lib_flags(id) & KN_CF_METHOD))
        return NULL;
    return l->vals[in->args[0]->args[0]->id];
}

static int
kind_of(int id)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].id == id)
            return kinds[i].kind;
    return -1;
}

static int
given(KnInstr *a)
{
    return a && a->type->kind != KN_TY_NONE;
}

/* raise NumPy's exception when the runtime's status st (i32) is not 0 */
static void
check_status(L *l, LLVMValueRef st)
{
    kn_lower_raise_index_if(l, LLVMBuildICmp(l->b, LLVMIntNE, st, LLVMConstInt(l->i32, 0, 0), ""),
                            LLVMBuildSExt(l->b, st, l->i64, ""), NULL, 0);
}

/* the shape size= (an int or a tuple) gives; its ndim */
static int
shape_of(L *l, KnInstr *arg, LLVMValueRef *shape)
{
    const KnType *t = arg->type;
    LLVMValueRef v = l->vals[arg->id];
    if (t->kind != KN_TY_TUPLE) {
        shape[0] = kn_lower_convert(l, v, t, &kn_type_int64);
        return 1;
    }
    for (int i = 0; i < t->n; i++)
        shape[i] = kn_lower_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->items[i],
                                    &kn_type_int64);
    return t->n;
}

/* a new array of the call's type with the shape of size= (or the dimensions of rand/randn),
 * plus `extra` as a last axis when given */
static LLVMValueRef
new_result(L *l, KnInstr *in, KnInstr *size, int first_dim, LLVMValueRef extra)
{
    LLVMValueRef shape[33];
    int nd = 0;
    if (size)
        nd = shape_of(l, size, shape);
    else
        for (int i = first_dim; i < in->nargs; i++)
            shape[nd++] =
                kn_lower_convert(l, l->vals[in->args[i]->id], in->args[i]->type, &kn_type_int64);
    if (extra)
        shape[nd++] = extra;
    return kn_lower_array_alloc(l, in->type, shape);
}

static LLVMValueRef
fill(L *l, LLVMValueRef g, int kind, LLVMValueRef dp, LLVMValueRef ip, LLVMValueRef out,
     LLVMValueRef n)
{
    LLVMTypeRef ps[6] = {l->ptr, l->i32, l->ptr, l->ptr, l->ptr, l->i64};
    LLVMValueRef as[6] = {g, LLVMConstInt(l->i32, (unsigned long long)kind, 0), dp, ip, out, n};
    if (g)
        return kn_lower_extern(l, "kn_rt_npg_fill", l->i32, ps, 6, as);
    return kn_lower_extern(l, "kn_rt_npr_fill", l->i32, ps + 1, 5, as + 1);
}

static LLVMValueRef
distribution(L *l, KnInstr *in, int id, const KnNprSpec *sp, int kind)
{
    LLVMTypeRef a4 = LLVMArrayType2(l->f64, 4), i4 = LLVMArrayType2(l->i64, 4);
    LLVMValueRef dp = kn_lower_entry_alloca(l, a4, "dp"), ip = kn_lower_entry_alloca(l, i4, "ip");
    for (int i = 0; i < sp->nparams; i++) {
        KnInstr *a = kn_typing_arg(in, i, sp->params[i]);
        LLVMValueRef k = i64c(l, i);
        LLVMValueRef dslot = LLVMBuildInBoundsGEP2(l->b, l->f64, dp, &k, 1, "");
        LLVMValueRef islot = LLVMBuildInBoundsGEP2(l->b, l->i64, ip, &k, 1, "");
        if (sp->forms[i][0] == 'f') {
            LLVMValueRef v = given(a)
                                 ? kn_lower_convert(l, l->vals[a->id], a->type, &kn_type_float64)
                                 : LLVMConstReal(l->f64, sp->forms[i][1] == '1' ? 1.0 : 0.0);
            LLVMBuildStore(l->b, v, dslot);
        } else if (given(a)) {
            LLVMBuildStore(l->b, kn_lower_convert(l, l->vals[a->id], a->type, &kn_type_int64),
                           islot);
        }
    }
    LLVMValueRef g = generator(l, in, id);
    if (id == KN_BI_NPR_RANDINT || id == KN_BI_NPG_INTEGERS) {
        /* randint(high): low 0; ip[2] says so for the message; ip[3] integers' endpoint */
        LLVMValueRef k0 = i64c(l, 0), k1 = i64c(l, 1), k2 = i64c(l, 2);
        LLVMValueRef s0 = LLVMBuildInBoundsGEP2(l->b, l->i64, ip, &k0, 1, "");
        LLVMValueRef s1 = LLVMBuildInBoundsGEP2(l->b, l->i64, ip, &k1, 1, "");
        LLVMValueRef s2 = LLVMBuildInBoundsGEP2(l->b, l->i64, ip, &k2, 1, "");
        int one = !given(kn_typing_arg(in, 1, "high"));
        if (one) {
            LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, l->i64, s0, ""), s1);
            LLVMBuildStore(l->b, i64c(l, 0), s0);
        }
        LLVMBuildStore(l->b, i64c(l, one), s2);
        KnInstr *ep = kn_typing_arg(in, 4, "endpoint");
        LLVMValueRef k3 = i64c(l, 3);
        LLVMBuildStore(
            l->b, ep ? kn_lower_convert(l, l->vals[ep->id], ep->type, &kn_type_int64) : i64c(l, 0),
            LLVMBuildInBoundsGEP2(l->b, l->i64, ip, &k3, 1, ""));
    }
    KnInstr *size = kn_typing_arg(in, sp->nparams, "size");
    if (!given(size)) {
        if (kind == KN_NPR_RANDOM && !g)
            return kn_lower_extern(l, "kn_rt_npr_random", l->f64, NULL, 0, NULL);
        LLVMTypeRef rt = sp->result == 'f' ? l->f64 : l->i64;
        LLVMValueRef out = kn_lower_entry_alloca(l, rt, "draw");
        check_status(l, fill(l, g, kind, dp, ip, out, i64c(l, 1)));
        return LLVMBuildLoad2(l->b, rt, out, "");
    }
    LLVMValueRef arr = new_result(l, in, size, 0, NULL);
    check_status(l, fill(l, g, kind, dp, ip, field(l, arr, F_DATA), field(l, arr, F_NITEMS)));
    return arr;
}

/* rand(d0, ...), randn(d0, ...) */
static LLVMValueRef
dims(L *l, KnInstr *in, int kind)
{
    LLVMValueRef z = LLVMConstNull(l->ptr);
    if (in->nargs == 1) {
        if (kind == KN_NPR_RANDOM)
            return kn_lower_extern(l, "kn_rt_npr_random", l->f64, NULL, 0, NULL);
        LLVMTypeRef d2[2] = {l->f64, l->f64};
        LLVMValueRef as[2] = {LLVMConstReal(l->f64, 0), LLVMConstReal(l->f64, 1)};
        return kn_lower_extern(l, "kn_rt_npr_normal", l->f64, d2, 2, as);
    }
    LLVMValueRef arr = new_result(l, in, NULL, 1, NULL);
    fill(l, NULL, kind, z, z, field(l, arr, F_DATA), field(l, arr, F_NITEMS));
    return arr;
}

/* shape and strides of array a (type t) in two stack arrays */
static void
geometry(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef *shape, LLVMValueRef *strides)
{
    LLVMTypeRef at = LLVMArrayType2(l->i64, (uint64_t)t->ndim);
    *shape = kn_lower_entry_alloca(l, at, "shape");
    *strides = kn_lower_entry_alloca(l, at, "strides");
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef i = i64c(l, k);
        LLVMBuildStore(l->b, dim(l, a, F_SHAPE, k),
                       LLVMBuildInBoundsGEP2(l->b, l->i64, *shape, &i, 1, ""));
        LLVMBuildStore(l->b, stride(l, a, t, k),
                       LLVMBuildInBoundsGEP2(l->b, l->i64, *strides, &i, 1, ""));
    }
}

static void
shuffle(L *l, LLVMValueRef g, LLVMValueRef a, const KnType *t)
{
    LLVMValueRef shape, strides;
    geometry(l, a, t, &shape, &strides);
    LLVMTypeRef ps[6] = {l->ptr, l->ptr, l->i64, l->ptr, l->ptr, l->i64};
    LLVMValueRef as[6] = {g,       field(l, a, F_DATA),        i64c(l, t->ndim), shape,
                          strides, i64c(l, itemsize(t->dtype))};
    LLVMTypeRef v = LLVMVoidTypeInContext(l->ctx);
    if (g)
        kn_lower_extern(l, "kn_rt_npg_shuffle", v, ps, 6, as);
    else
        kn_lower_extern(l, "kn_rt_npr_shuffle", v, ps + 1, 5, as + 1);
}

static LLVMValueRef
permutation(L *l, KnInstr *in, LLVMValueRef g)
{
    KnInstr *x = kn_typing_arg(in, 0, "x");
    LLVMValueRef v = l->vals[x->id];
    if (x->type->kind != KN_TY_ARRAY) {
        LLVMValueRef n = kn_lower_convert(l, v, x->type, &kn_type_int64);
        LLVMValueRef arr = kn_lower_array_alloc(l, in->type, &n);
        LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->i64};
        LLVMValueRef as[3] = {g, field(l, arr, F_DATA), n};
        if (g)
            kn_lower_extern(l, "kn_rt_npg_permutation", LLVMVoidTypeInContext(l->ctx), ps, 3, as);
        else
            kn_lower_extern(l, "kn_rt_npr_permutation", LLVMVoidTypeInContext(l->ctx), ps + 1, 2,
                            as + 1);
        return arr;
    }
    LLVMValueRef arr = kn_lower_array_copy(l, in, v, x->type);
    shuffle(l, g, arr, in->type);
    return arr;
}

static LLVMValueRef
choice(L *l, KnInstr *in, LLVMValueRef g)
{
    KnInstr *a = kn_typing_arg(in, 0, "a"), *size = kn_typing_arg(in, 1, "size");
    KnInstr *rep = kn_typing_arg(in, 2, "replace"), *p = kn_typing_arg(in, 3, "p");
    int is_int = a->type->kind != KN_TY_ARRAY;
    LLVMValueRef av = l->vals[a->id], z = LLVMConstNull(l->ptr);
    LLVMValueRef pop =
        is_int ? kn_lower_convert(l, av, a->type, &kn_type_int64) : dim(l, av, F_SHAPE, 0);
    const KnType *d = is_int ? &kn_type_int64 : a->type->dtype;
    LLVMValueRef pv = given(p) ? l->vals[p->id] : NULL;
    LLVMValueRef arr = NULL, out, n;
    if (given(size)) {
        if (!g && given(rep)) { /* legacy: a negative length without replacement, its message */
            LLVMValueRef shape[32], neg = LLVMConstInt(l->i1, 0, 0);
            int nd = shape_of(l, size, shape);
            for (int k = 0; k < nd; k++)
                neg = LLVMBuildOr(l->b, neg,
                                  LLVMBuildICmp(l->b, LLVMIntSLT, shape[k], i64c(l, 0), ""), "");
            LLVMValueRef norep = LLVMBuildICmp(
                l->b, LLVMIntEQ, kn_lower_convert(l, l->vals[rep->id], rep->type, &kn_type_int64),
                i64c(l, 0), "");
            kn_lower_raise_if(l, LLVMBuildAnd(l->b, neg, norep, ""), KN_EXC_NPR_CHOICE_NEG_DIMS);
        }
        arr = new_result(l, in, size, 0, NULL);
        out = field(l, arr, F_DATA);
        n = field(l, arr, F_NITEMS);
    } else {
        out = kn_lower_entry_alloca(l, LLVMArrayType2(l->i64, 2), "pick"); /* any item */
        n = i64c(l, 1);
    }
    KnInstr *sh = g ? kn_typing_arg(in, 5, "shuffle") : NULL;
    LLVMTypeRef ps[13] = {l->ptr, l->i64, l->ptr, l->i64, l->i64, l->ptr, l->i64,
                          l->i64, l->i64, l->ptr, l->i64, l->i64, l->i64};
    LLVMValueRef as[13] = {
        g,
        pop,
        is_int ? z : field(l, av, F_DATA),
        is_int ? i64c(l, 8) : stride(l, av, a->type, 0),
        i64c(l, itemsize(d)),
        pv ? field(l, pv, F_DATA) : z,
        pv ? dim(l, pv, F_SHAPE, 0) : i64c(l, 0),
        pv ? stride(l, pv, p->type, 0) : i64c(l, 8),
        given(rep) ? kn_lower_convert(l, l->vals[rep->id], rep->type, &kn_type_int64) : i64c(l, 1),
        out,
        n,
        i64c(l, is_int),
        sh ? kn_lower_convert(l, l->vals[sh->id], sh->type, &kn_type_int64) : i64c(l, 1),
    };
    if (g)
        check_status(l, kn_lower_extern(l, "kn_rt_npg_choice", l->i32, ps, 13, as));
    else
        check_status(l, kn_lower_extern(l, "kn_rt_npr_choice", l->i32, ps + 1, 11, as + 1));
    if (arr)
        return arr;
    return load_elem(l, d, out);
}

/* multinomial(n, pvals, size), dirichlet(alpha, size) */
static LLVMValueRef
vector_draw(L *l, KnInstr *in, int id)
{
    int multi = id == KN_BI_NPR_MULTINOMIAL;
    KnInstr *v = kn_typing_arg(in, multi, multi ? "pvals" : "alpha");
    KnInstr *size = kn_typing_arg(in, multi + 1, "size");
    LLVMValueRef vv = l->vals[v->id], k = dim(l, vv, F_SHAPE, 0);
    LLVMValueRef arr;
    if (given(size)) {
        arr = new_result(l, in, size, 0, k);
    } else {
        arr = kn_lower_array_alloc(l, in->type, &k);
    }
    LLVMValueRef count = field(l, arr, F_NITEMS);
    LLVMValueRef nz = LLVMBuildICmp(l->b, LLVMIntEQ, k, i64c(l, 0), "");
    count = LLVMBuildSelect(
        l->b, nz, i64c(l, 0),
        LLVMBuildSDiv(l->b, count, LLVMBuildSelect(l->b, nz, i64c(l, 1), k, ""), ""), "");
    LLVMValueRef data = field(l, vv, F_DATA), st = stride(l, vv, v->type, 0);
    if (multi) {
        KnInstr *n = kn_typing_arg(in, 0, "n");
        LLVMTypeRef ps[6] = {l->i64, l->ptr, l->i64, l->i64, l->ptr, l->i64};
        LLVMValueRef as[6] = {kn_lower_convert(l, l->vals[n->id], n->type, &kn_type_int64),
                              data,
                              k,
                              st,
                              field(l, arr, F_DATA),
                              count};
        check_status(l, kn_lower_extern(l, "kn_rt_npr_multinomial", l->i32, ps, 6, as));
    } else {
        LLVMTypeRef ps[5] = {l->ptr, l->i64, l->i64, l->ptr, l->i64};
        LLVMValueRef as[5] = {data, k, st, field(l, arr, F_DATA), count};
        check_status(l, kn_lower_extern(l, "kn_rt_npr_dirichlet", l->i32, ps, 5, as));
    }
    return arr;
}

LLVMValueRef
kn_lower_rule_np_random(L *l, KnInstr *in, int id)
{
    const KnNprSpec *sp = kn_typing_npr_spec(id);
    if (sp)
        return distribution(l, in, id, sp, kind_of(id));
    switch (id) {
    case KN_BI_NPR_SEED: {
        KnInstr *s = in->nargs > 1 ? in->args[1] : NULL;
        if (!given(s)) {
            kn_lower_extern(l, "kn_rt_npr_seed_os", LLVMVoidTypeInContext(l->ctx), NULL, 0, NULL);
        } else {
            LLVMValueRef v = kn_lower_convert(l, l->vals[s->id], s->type, &kn_type_int64);
            check_status(l, kn_lower_extern(l, "kn_rt_npr_seed", l->i32, &l->i64, 1, &v));
        }
        return LLVMConstInt(l->i8, 0, 0); /* None */
    }
    case KN_BI_NPR_RAND:
    case KN_BI_NPR_RANDN:
        return dims(l, in, kind_of(id));
    case KN_BI_NPR_CHOICE:
    case KN_BI_NPG_CHOICE:
        return choice(l, in, generator(l, in, id));
    case KN_BI_NPR_SHUFFLE:
    case KN_BI_NPG_SHUFFLE: {
        KnInstr *x = kn_typing_arg(in, 0, "x");
        shuffle(l, generator(l, in, id), l->vals[x->id], x->type);
        return LLVMConstInt(l->i8, 0, 0);
    }
    case KN_BI_NPR_PERMUTATION:
    case KN_BI_NPG_PERMUTATION:
        return permutation(l, in, generator(l, in, id));
    default:
        return vector_draw(l, in, id);
    }
}
