/* random.c - lowering of the random module's entries (lib/random.def): calls of
 * runtime/random.c, CPython's Mersenne Twister with its state per thread.
 *
 * Input: a call typed by typing/random.c (arguments from in->args[1], converted to the
 * impl's operand). Output: the value. randrange's and randint's empty ranges and zero steps
 * raise random.py's ValueErrors (KN_EXC_RANDRANGE_*); random._kn_below(n), the index that
 * the frontend's rewrite of choice() draws, raises choice's IndexError for n == 0. uniform is
 * a + (b - a) * random(), as random.py computes it. */
#include "lower/internal.h"

static LLVMValueRef
arg_as(L *l, KnInstr *in, int i, const KnType *t)
{
    KnInstr *a = in->args[i + 1];
    return kn_lower_convert(l, l->vals[a->id], a->type, t);
}

static LLVMValueRef
randrange(L *l, KnInstr *in, int id)
{
    int n = in->nargs - 1;
    LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0), one = LLVMConstInt(l->i64, 1, 0);
    LLVMValueRef start = n == 1 ? zero : arg_as(l, in, 0, &kn_type_int64);
    LLVMValueRef stop = arg_as(l, in, n == 1 ? 0 : 1, &kn_type_int64);
    LLVMValueRef step = n == 3 ? arg_as(l, in, 2, &kn_type_int64) : one;
    if (id == KN_BI_RANDOM_RANDINT) /* randint(a, b) is randrange(a, b + 1) */
        stop = LLVMBuildAdd(l->b, stop, one, "");
    LLVMValueRef out = kn_lower_entry_alloca(l, l->i64, "rr");
    LLVMTypeRef ps[4] = {l->i64, l->i64, l->i64, l->ptr};
    LLVMValueRef as[4] = {start, stop, step, out};
    LLVMValueRef st = kn_lower_extern(l, "kn_rt_random_randrange", l->i32, ps, 4, as);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, st, LLVMConstInt(l->i32, -2, 1), ""),
                      KN_EXC_RANDRANGE_STEP);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, st, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_RANDRANGE_EMPTY);
    return LLVMBuildLoad2(l->b, l->i64, out, "");
}

LLVMValueRef
kn_lower_rule_random(L *l, KnInstr *in, int id)
{
    LLVMTypeRef d2[2] = {l->f64, l->f64}, i1[1] = {l->i64};
    switch (id) {
    case KN_BI_RANDOM_SEED: {
        if (in->nargs == 1 || in->args[1]->type->kind == KN_TY_NONE) { /* seed(), seed(None) */
            kn_lower_extern(l, "kn_rt_random_reseed", LLVMVoidTypeInContext(l->ctx), NULL, 0, NULL);
            return LLVMConstInt(l->i8, 0, 0);
        }
        LLVMValueRef a = arg_as(l, in, 0, &kn_type_int64);
        kn_lower_extern(l, "kn_rt_random_seed", LLVMVoidTypeInContext(l->ctx), i1, 1, &a);
        return LLVMConstInt(l->i8, 0, 0); /* None */
    }
    case KN_BI_RANDOM_RANDOM:
        return kn_lower_extern(l, "kn_rt_random_random", l->f64, NULL, 0, NULL);
    case KN_BI_RANDOM_RANDINT:
    case KN_BI_RANDOM_RANDRANGE:
        return randrange(l, in, id);
    case KN_BI_RANDOM_BELOW: {
        LLVMValueRef a = arg_as(l, in, 0, &kn_type_int64);
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLE, a, LLVMConstInt(l->i64, 0, 0), ""),
                          KN_EXC_CHOICE_EMPTY);
        return kn_lower_extern(l, "kn_rt_random_below", l->i64, i1, 1, &a);
    }
    case KN_BI_RANDOM_GETRANDBITS: {
        LLVMValueRef err = kn_lower_entry_alloca(l, l->i32, "err");
        LLVMTypeRef ps[2] = {l->i64, l->ptr};
        LLVMValueRef as[2] = {arg_as(l, in, 0, &kn_type_int64), err};
        LLVMValueRef r = kn_lower_extern(l, "kn_rt_random_getrandbits", l->i64, ps, 2, as);
        kn_lower_raise_if(l,
                          LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->i32, err, ""),
                                        LLVMConstInt(l->i32, 0, 0), ""),
                          KN_EXC_GETRANDBITS);
        return r;
    }
    case KN_BI_RANDOM_UNIFORM: {
        LLVMValueRef a = arg_as(l, in, 0, &kn_type_float64), b = arg_as(l, in, 1, &kn_type_float64);
        LLVMValueRef r = kn_lower_extern(l, "kn_rt_random_random", l->f64, NULL, 0, NULL);
        return LLVMBuildFAdd(l->b, a, LLVMBuildFMul(l->b, LLVMBuildFSub(l->b, b, a, ""), r, ""),
                             "");
    }
    case KN_BI_RANDOM_GAUSS: {
        int n = in->nargs - 1;
        LLVMValueRef as[2] = {n > 0 ? arg_as(l, in, 0, &kn_type_float64) : LLVMConstReal(l->f64, 0),
                              n > 1 ? arg_as(l, in, 1, &kn_type_float64)
                                    : LLVMConstReal(l->f64, 1)};
        return kn_lower_extern(l, "kn_rt_random_gauss", l->f64, d2, 2, as);
    }
    default: /* choice, shuffle: typing refuses them */
        return NULL;
    }
}
