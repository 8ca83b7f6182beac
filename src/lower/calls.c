/* calls.c - LLVM code for calls: builtins and the math module (inline, through LLVM intrinsics,
 * libm or kn_rt_* helpers), methods of values, print (through the runtime's kn_rt_print, which
 * writes with Python's own print), and calls to other jitted functions (by symbol, checking the
 * status so an exception raised below propagates). */
#include "lower/internal.h"
#include "lower/list.h"

#include <stdio.h>

static LLVMValueRef
arg(L *l, KnInstr *in, int i)
{
    return l->vals[in->args[i + 1]->id];
}

static const KnType *
argt(KnInstr *in, int i)
{
    return in->args[i + 1]->type;
}

/* argument i converted to the call's operand type */
static LLVMValueRef
arg_as(L *l, KnInstr *in, int i, const KnType *t)
{
    return kn_lower_convert(l, arg(l, in, i), argt(in, i), t);
}

/* Math functions go by C99 libm's name ("sin", "atan2"); the target decides how each is reached
 * (targets/target.h, math_symbol: an LLVM intrinsic, libm's "sinf", libdevice's "__nv_sin"). */
static LLVMValueRef
math1(L *l, const char *name, LLVMValueRef x)
{
    return kn_lower_math(l, name, &x, 1);
}

static LLVMValueRef
math2(L *l, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef args[2] = {x, y};
    return kn_lower_math(l, name, args, 2);
}

static LLVMValueRef
intrinsic1(L *l, const char *name, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return kn_lower_intrinsic(l, name, &t, 1, &x, 1);
}

static LLVMValueRef
math_unary(L *l, int id, LLVMValueRef x, const KnType *t)
{
    static const struct {
        int id;
        const char *name;
    } map[] = {
        {KN_BI_MATH_ACOS, "acos"},   {KN_BI_MATH_ACOSH, "acosh"},  {KN_BI_MATH_ASIN, "asin"},
        {KN_BI_MATH_ASINH, "asinh"}, {KN_BI_MATH_ATAN, "atan"},    {KN_BI_MATH_ATANH, "atanh"},
        {KN_BI_MATH_COS, "cos"},     {KN_BI_MATH_COSH, "cosh"},    {KN_BI_MATH_ERF, "erf"},
        {KN_BI_MATH_ERFC, "erfc"},   {KN_BI_MATH_EXP, "exp"},      {KN_BI_MATH_EXPM1, "expm1"},
        {KN_BI_MATH_FABS, "fabs"},   {KN_BI_MATH_GAMMA, "tgamma"}, {KN_BI_MATH_LGAMMA, "lgamma"},
        {KN_BI_MATH_LOG10, "log10"}, {KN_BI_MATH_LOG1P, "log1p"},  {KN_BI_MATH_LOG2, "log2"},
        {KN_BI_MATH_SIN, "sin"},     {KN_BI_MATH_SINH, "sinh"},    {KN_BI_MATH_SQRT, "sqrt"},
        {KN_BI_MATH_TAN, "tan"},     {KN_BI_MATH_TANH, "tanh"},    {KN_BI_MATH_EXP2, "exp2"},
        {KN_BI_MATH_CBRT, "cbrt"},   {KN_BI_MATH_LOG, "log"},
    };
    for (int i = 0; i < KN_ARRAY_LEN(map); i++)
        if (map[i].id == id)
            return math1(l, map[i].name, x);
    if (id == KN_BI_MATH_DEGREES)
        return kn_lower_fmf(l,
                            LLVMBuildFMul(l->b, x, kn_lower_const_f(l, t, 57.295779513082323), ""));
    if (id == KN_BI_MATH_RADIANS)
        return kn_lower_fmf(
            l, LLVMBuildFMul(l->b, x, kn_lower_const_f(l, t, 0.017453292519943295), ""));
    return NULL;
}

static LLVMValueRef
float_to_int_round(L *l, const char *name, LLVMValueRef x, const KnType *t)
{
    if (t->kind != KN_TY_FLOAT)
        return x;
    return kn_lower_float_to_pyint(l, math1(l, name, x), t);
}

static LLVMValueRef
lower_math(L *l, KnInstr *in, int id, const KnType *op)
{
    int n = in->nargs - 1;
    switch (id) {
    case KN_BI_MATH_ATAN2:
        return math2(l, "atan2", arg_as(l, in, 0, op), arg_as(l, in, 1, op));
    case KN_BI_MATH_HYPOT:
        return math2(l, "hypot", arg_as(l, in, 0, op), arg_as(l, in, 1, op));
    case KN_BI_MATH_COPYSIGN:
        return math2(l, "copysign", arg_as(l, in, 0, op), arg_as(l, in, 1, op));
    case KN_BI_MATH_NEXTAFTER:
        return math2(l, "nextafter", arg_as(l, in, 0, op), arg_as(l, in, 1, op));
    case KN_BI_MATH_FMOD:
        return math2(l, "fmod", arg_as(l, in, 0, op), arg_as(l, in, 1, op));
    case KN_BI_MATH_POW:
        return math2(l, "pow", arg_as(l, in, 0, op), arg_as(l, in, 1, op));
    case KN_BI_MATH_LOG:
        if (n == 2) {
            LLVMValueRef a = math1(l, "log", arg_as(l, in, 0, op));
            LLVMValueRef b = math1(l, "log", arg_as(l, in, 1, op));
            return kn_lower_fmf(l, LLVMBuildFDiv(l->b, a, b, ""));
        }
        return math1(l, "log", arg_as(l, in, 0, op));
    case KN_BI_MATH_CEIL:
        return float_to_int_round(l, "ceil", arg_as(l, in, 0, op), op);
    case KN_BI_MATH_FLOOR:
        return float_to_int_round(l, "floor", arg_as(l, in, 0, op), op);
    case KN_BI_MATH_TRUNC:
        return float_to_int_round(l, "trunc", arg_as(l, in, 0, op), op);
    case KN_BI_MATH_ISNAN:
    case KN_BI_MATH_ISINF:
    case KN_BI_MATH_ISFINITE: {
        if (op->kind != KN_TY_FLOAT)
            return LLVMConstInt(l->i1, id == KN_BI_MATH_ISFINITE, 0);
        LLVMValueRef x = arg_as(l, in, 0, op);
        if (id == KN_BI_MATH_ISNAN)
            return LLVMBuildFCmp(l->b, LLVMRealUNO, x, x, "");
        LLVMValueRef ax = intrinsic1(l, "llvm.fabs", x);
        LLVMValueRef inf = kn_lower_const_f(l, op, 1.0 / 0.0);
        return LLVMBuildFCmp(l->b, id == KN_BI_MATH_ISINF ? LLVMRealOEQ : LLVMRealOLT, ax, inf, "");
    }
    case KN_BI_MATH_LDEXP: {
        LLVMValueRef args[2] = {arg_as(l, in, 0, &kn_type_float64),
                                arg_as(l, in, 1, &kn_type_int32)};
        return kn_lower_math(l, "ldexp", args, 2);
    }
    case KN_BI_MATH_FREXP: {
        LLVMValueRef e = kn_lower_entry_alloca(l, l->i64, "exp");
        LLVMTypeRef ps[2] = {l->f64, l->ptr};
        LLVMValueRef args[2] = {arg_as(l, in, 0, &kn_type_float64), e};
        LLVMValueRef m = kn_lower_extern(l, "kn_rt_frexp", l->f64, ps, 2, args);
        LLVMValueRef t = LLVMGetUndef(kn_lower_type(l, in->type));
        t = LLVMBuildInsertValue(l->b, t, m, 0, "");
        return LLVMBuildInsertValue(l->b, t, LLVMBuildLoad2(l->b, l->i64, e, ""), 1, "");
    }
    case KN_BI_MATH_GCD: {
        LLVMValueRef acc = n ? arg_as(l, in, 0, &kn_type_int64) : LLVMConstInt(l->i64, 0, 0);
        LLVMTypeRef ps[2] = {l->i64, l->i64};
        if (n == 1) {
            LLVMValueRef args[2] = {acc, LLVMConstInt(l->i64, 0, 0)};
            return kn_lower_extern(l, "kn_rt_gcd", l->i64, ps, 2, args);
        }
        for (int i = 1; i < n; i++) {
            LLVMValueRef args[2] = {acc, arg_as(l, in, i, &kn_type_int64)};
            acc = kn_lower_extern(l, "kn_rt_gcd", l->i64, ps, 2, args);
        }
        return acc;
    }
    case KN_BI_MATH_ISQRT: {
        LLVMValueRef err = kn_lower_entry_alloca(l, l->i32, "err");
        LLVMTypeRef ps[2] = {l->i64, l->ptr};
        LLVMValueRef args[2] = {arg_as(l, in, 0, &kn_type_int64), err};
        LLVMValueRef r = kn_lower_extern(l, "kn_rt_isqrt", l->i64, ps, 2, args);
        kn_lower_raise_if(l,
                          LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->i32, err, ""),
                                        LLVMConstInt(l->i32, 0, 0), ""),
                          KN_EXC_ISQRT_NEG);
        return r;
    }
    default:
        return math_unary(l, id, arg_as(l, in, 0, op), op);
    }
}

static LLVMValueRef
minmax(L *l, KnInstr *in, int is_max, const KnType *rt)
{
    int n = in->nargs - 1;
    LLVMValueRef vals[64];
    const KnType *types[64];
    int m;
    if (n == 1 && argt(in, 0)->kind == KN_TY_TUPLE) {
        const KnType *t = argt(in, 0);
        m = t->n;
        for (int i = 0; i < m && i < 64; i++) {
            vals[i] = LLVMBuildExtractValue(l->b, arg(l, in, 0), (unsigned)i, "");
            types[i] = t->items[i];
        }
    } else {
        m = n;
        for (int i = 0; i < n; i++) {
            vals[i] = arg(l, in, i);
            types[i] = argt(in, i);
        }
    }
    /* Python keeps the first extreme: replace only when strictly better */
    LLVMValueRef acc = kn_lower_convert(l, vals[0], types[0], rt);
    for (int i = 1; i < m && i < 64; i++) {
        LLVMValueRef x = kn_lower_convert(l, vals[i], types[i], rt);
        LLVMValueRef better = kn_lower_cmp(l, is_max ? KN_CMP_GT : KN_CMP_LT, x, acc, rt, rt, rt);
        acc = LLVMBuildSelect(l->b, better, x, acc, "");
    }
    return acc;
}

static LLVMValueRef
lower_abs(L *l, KnInstr *in, const KnType *op)
{
    const KnType *t = argt(in, 0);
    if (t->kind == KN_TY_COMPLEX) {
        LLVMValueRef z = arg(l, in, 0);
        return math2(l, "hypot", LLVMBuildExtractValue(l->b, z, 0, ""),
                     LLVMBuildExtractValue(l->b, z, 1, ""));
    }
    LLVMValueRef x = arg_as(l, in, 0, op);
    if (op->kind == KN_TY_FLOAT)
        return intrinsic1(l, "llvm.fabs", x);
    if (!op->is_signed)
        return x;
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x)), "");
    return LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, x, ""), x, "");
}

static LLVMValueRef
lower_round(L *l, KnInstr *in, const KnType *op)
{
    int n = in->nargs - 1;
    LLVMValueRef x = arg_as(l, in, 0, op);
    if (op->kind != KN_TY_FLOAT) {
        if (n == 1)
            return x;
        LLVMTypeRef ps[2] = {l->i64, l->i64};
        LLVMValueRef args[2] = {x, arg_as(l, in, 1, &kn_type_int64)};
        return kn_lower_extern(l, "kn_rt_round_int", l->i64, ps, 2, args);
    }
    if (n == 1)
        return kn_lower_float_to_pyint(l, intrinsic1(l, "llvm.roundeven", x), op);
    LLVMTypeRef ps[2] = {l->f64, l->i64};
    LLVMValueRef args[2] = {kn_lower_convert(l, x, op, &kn_type_float64),
                            arg_as(l, in, 1, &kn_type_int64)};
    LLVMValueRef r = kn_lower_extern(l, "kn_rt_round_ndigits", l->f64, ps, 2, args);
    /* CPython: "rounded value too large to represent" (x itself was finite) */
    LLVMTypeRef ft = l->f64;
    LLVMValueRef inf = LLVMConstReal(ft, 1.0 / 0.0);
    LLVMValueRef big = LLVMBuildAnd(
        l->b,
        LLVMBuildFCmp(l->b, LLVMRealOEQ, kn_lower_intrinsic(l, "llvm.fabs", &ft, 1, &r, 1), inf,
                      ""),
        LLVMBuildFCmp(l->b, LLVMRealONE, kn_lower_intrinsic(l, "llvm.fabs", &ft, 1, &args[0], 1),
                      inf, ""),
        "");
    kn_lower_raise_if(l, big, KN_EXC_ROUND_OVERFLOW);
    return kn_lower_convert(l, r, &kn_type_float64, op);
}

static LLVMValueRef
lower_range(L *l, KnInstr *in)
{
    int n = in->nargs - 1;
    LLVMValueRef start = LLVMConstInt(l->i64, 0, 0), step = LLVMConstInt(l->i64, 1, 0), stop;
    if (n == 1) {
        stop = arg_as(l, in, 0, &kn_type_int64);
    } else {
        start = arg_as(l, in, 0, &kn_type_int64);
        stop = arg_as(l, in, 1, &kn_type_int64);
        if (n == 3) {
            step = arg_as(l, in, 2, &kn_type_int64);
            kn_lower_raise_if(l,
                              LLVMBuildICmp(l->b, LLVMIntEQ, step, LLVMConstInt(l->i64, 0, 0), ""),
                              KN_EXC_RANGE_STEP_ZERO);
        }
    }
    LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, &kn_type_range));
    r = LLVMBuildInsertValue(l->b, r, start, 0, "");
    r = LLVMBuildInsertValue(l->b, r, stop, 1, "");
    return LLVMBuildInsertValue(l->b, r, step, 2, "");
}

/* print(a, b, ...): spill each value, pass kinds and pointers to kn_rt_print */
static int
print_kind(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
        return KN_PRINT_BOOL;
    case KN_TY_INT:
        return t->is_signed ? KN_PRINT_I64 : KN_PRINT_U64;
    case KN_TY_FLOAT:
        return t->bits == 16 ? KN_PRINT_F16 : t->bits == 32 ? KN_PRINT_F32 : KN_PRINT_F64;
    case KN_TY_COMPLEX:
        return t->bits == 64 ? KN_PRINT_C64 : KN_PRINT_C128;
    case KN_TY_STR:
        return KN_PRINT_STR;
    default:
        return KN_PRINT_NONE;
    }
}

static void
flatten_print(L *l, LLVMValueRef v, const KnType *t, LLVMValueRef *vals, int *kinds, int *n,
              LLVMValueRef *rkinds)
{
    if (*n >= 60)
        return;
    if (t->kind == KN_TY_OPTIONAL) { /* None or the value: its kind chosen at run time */
        LLVMValueRef present = kn_lower_optional_present(l, v, &v); /* model_optional.c */
        flatten_print(l, v, t->dtype, vals, kinds, n, rkinds);
        rkinds[*n - 1] =
            LLVMBuildSelect(l->b, present, LLVMConstInt(l->i32, (unsigned)kinds[*n - 1], 0),
                            LLVMConstInt(l->i32, KN_PRINT_NONE, 0), "");
        return;
    }
    if (t->kind == KN_TY_TUPLE) {
        kinds[*n] = KN_PRINT_TUPLE_BEGIN;
        vals[(*n)++] = NULL;
        for (int i = 0; i < t->n; i++)
            flatten_print(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->items[i], vals,
                          kinds, n, rkinds);
        kinds[*n] = KN_PRINT_TUPLE_END;
        vals[(*n)++] = NULL;
        return;
    }
    if (t->kind == KN_TY_RECORD || t->kind == KN_TY_DATETIME || t->kind == KN_TY_TIMEDELTA) {
        /* boxed by print.c from the value's C layout (a record is a pointer to it) */
        LLVMValueRef at = v;
        if (t->kind != KN_TY_RECORD) {
            at = kn_lower_entry_alloca(l, l->i64, "printed");
            LLVMBuildStore(l->b, v, at);
        }
        LLVMTypeRef fs[2] = {l->ptr, l->ptr};
        LLVMValueRef pair = LLVMGetUndef(LLVMStructTypeInContext(l->ctx, fs, 2, 0));
        LLVMValueRef tp =
            LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)t, 0), l->ptr);
        pair = LLVMBuildInsertValue(l->b, pair, tp, 0, "");
        kinds[*n] = KN_PRINT_BYTES;
        vals[(*n)++] = LLVMBuildInsertValue(l->b, pair, at, 1, "");
        return;
    }
    if (t->kind == KN_TY_DICT || t->kind == KN_TY_SET) { /* boxed by print.c */
        LLVMTypeRef fs[2] = {l->ptr, l->ptr};
        LLVMValueRef pair = LLVMGetUndef(LLVMStructTypeInContext(l->ctx, fs, 2, 0));
        LLVMValueRef tp =
            LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)t, 0), l->ptr);
        pair = LLVMBuildInsertValue(l->b, pair, tp, 0, "");
        kinds[*n] = KN_PRINT_BOXED;
        vals[(*n)++] = LLVMBuildInsertValue(l->b, pair, v, 1, "");
        return;
    }
    const KnType *st = t;
    if (t->kind == KN_TY_INT)
        st = t->is_signed ? &kn_type_int64 : &kn_type_uint64;
    kinds[*n] = print_kind(t);
    vals[(*n)++] = kn_lower_convert(l, v, t, st);
}

static LLVMValueRef
lower_print(L *l, KnInstr *in)
{
    LLVMValueRef vals[64], rkinds[64] = {0};
    int kinds[64], n = 0;
    for (int i = 0; i < in->nargs - 1; i++)
        flatten_print(l, arg(l, in, i), argt(in, i), vals, kinds, &n, rkinds);
    LLVMTypeRef karr = LLVMArrayType2(l->i32, (uint64_t)(n ? n : 1));
    LLVMTypeRef parr = LLVMArrayType2(l->ptr, (uint64_t)(n ? n : 1));
    LLVMValueRef kmem = kn_lower_entry_alloca(l, karr, "pkinds");
    LLVMValueRef pmem = kn_lower_entry_alloca(l, parr, "pvals");
    for (int i = 0; i < n; i++) {
        LLVMValueRef ix[2] = {LLVMConstInt(l->i64, 0, 0), LLVMConstInt(l->i64, (unsigned)i, 0)};
        LLVMBuildStore(l->b, rkinds[i] ? rkinds[i] : LLVMConstInt(l->i32, (unsigned)kinds[i], 0),
                       LLVMBuildInBoundsGEP2(l->b, karr, kmem, ix, 2, ""));
        LLVMValueRef slot = LLVMConstNull(l->ptr);
        if (vals[i]) {
            LLVMValueRef v = vals[i];
            if (kinds[i] == KN_PRINT_BOOL)
                v = LLVMBuildZExt(l->b, v, l->i8, "");
            slot = kn_lower_entry_alloca(l, LLVMTypeOf(v), "pv");
            LLVMBuildStore(l->b, v, slot);
        }
        LLVMBuildStore(l->b, slot, LLVMBuildInBoundsGEP2(l->b, parr, pmem, ix, 2, ""));
    }
    LLVMTypeRef ps[3] = {l->i32, l->ptr, l->ptr};
    LLVMValueRef args[3] = {LLVMConstInt(l->i32, (unsigned)n, 0), kmem, pmem};
    kn_lower_extern(l, "kn_rt_print", LLVMVoidTypeInContext(l->ctx), ps, 3, args);
    return LLVMConstInt(l->i8, 0, 0);
}

static LLVMValueRef
lower_complex(L *l, KnInstr *in)
{
    int n = in->nargs - 1;
    const KnType *t = in->type;
    if (n == 1)
        return kn_lower_convert(l, arg(l, in, 0), argt(in, 0), t);
    LLVMValueRef re =
        n ? arg_as(l, in, 0, &kn_type_float64) : kn_lower_const_f(l, &kn_type_float64, 0);
    LLVMValueRef im =
        n > 1 ? arg_as(l, in, 1, &kn_type_float64) : kn_lower_const_f(l, &kn_type_float64, 0);
    return kn_lower_cplx(l, t, re, im);
}

/* sqrt, exp, log, sin, ... of a complex number: kn_rt_complex_fn in double precision */
static LLVMValueRef
complex_fn(L *l, int id, LLVMValueRef z, const KnType *t)
{
    static const struct {
        int id, which;
    } map[] = {{KN_BI_NP_SQRT, KN_CFN_SQRT},     {KN_BI_NP_EXP, KN_CFN_EXP},
               {KN_BI_NP_LOG, KN_CFN_LOG},       {KN_BI_NP_LOG2, KN_CFN_LOG},
               {KN_BI_NP_LOG10, KN_CFN_LOG},     {KN_BI_NP_EXPM1, KN_CFN_EXPM1},
               {KN_BI_NP_LOG1P, KN_CFN_LOG1P},   {KN_BI_NP_ARCSIN, KN_CFN_ASIN},
               {KN_BI_NP_ARCCOS, KN_CFN_ACOS},   {KN_BI_NP_ARCTAN, KN_CFN_ATAN},
               {KN_BI_NP_ARCSINH, KN_CFN_ASINH}, {KN_BI_NP_ARCCOSH, KN_CFN_ACOSH},
               {KN_BI_NP_ARCTANH, KN_CFN_ATANH}, {KN_BI_NP_SIN, KN_CFN_SIN},
               {KN_BI_NP_COS, KN_CFN_COS},       {KN_BI_NP_TAN, KN_CFN_TAN},
               {KN_BI_NP_SINH, KN_CFN_SINH},     {KN_BI_NP_COSH, KN_CFN_COSH},
               {KN_BI_NP_TANH, KN_CFN_TANH}};
    int which = -1;
    for (int i = 0; i < KN_ARRAY_LEN(map); i++)
        if (map[i].id == id)
            which = map[i].which;
    const KnType *ft = kn_type_float(t->bits / 2);
    LLVMTypeRef pair = LLVMArrayType2(l->f64, 2);
    LLVMValueRef out = kn_lower_entry_alloca(l, pair, "cfn");
    LLVMValueRef args[4] = {
        LLVMConstInt(l->i32, (unsigned long long)which, 1),
        kn_lower_convert(l, LLVMBuildExtractValue(l->b, z, 0, ""), ft, &kn_type_float64),
        kn_lower_convert(l, LLVMBuildExtractValue(l->b, z, 1, ""), ft, &kn_type_float64), out};
    LLVMTypeRef ps[4] = {l->i32, l->f64, l->f64, l->ptr};
    kn_lower_extern(l, "kn_rt_complex_fn", LLVMVoidTypeInContext(l->ctx), ps, 4, args);
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
    LLVMValueRef re = LLVMBuildLoad2(l->b, l->f64, out, "");
    LLVMValueRef im =
        LLVMBuildLoad2(l->b, l->f64, LLVMBuildInBoundsGEP2(l->b, l->f64, out, &one, 1, ""), "");
    re = kn_lower_convert(l, re, &kn_type_float64, ft);
    im = kn_lower_convert(l, im, &kn_type_float64, ft);
    if (id == KN_BI_NP_LOG2 || id == KN_BI_NP_LOG10) { /* NumPy: log(z) times log2(e)/log10(e) */
        LLVMValueRef k = LLVMConstReal(
            kn_lower_type(l, ft), id == KN_BI_NP_LOG2 ? 1.442695040888963407359924681001892137
                                                      : 0.434294481903251827651128918916605082);
        re = LLVMBuildFMul(l->b, re, k, "");
        im = LLVMBuildFMul(l->b, im, k, "");
    }
    return kn_lower_cplx(l, t, re, im);
}

/* a math ufunc of one scalar: x of type xt, computed in `operand`, giving rt */
LLVMValueRef
kn_lower_ufunc_scalar(L *l, int id, LLVMValueRef x, const KnType *xt, const KnType *operand,
                      const KnType *rt)
{
    static const struct {
        int np, math;
    } map[] = {
        {KN_BI_NP_SQRT, KN_BI_MATH_SQRT},     {KN_BI_NP_EXP, KN_BI_MATH_EXP},
        {KN_BI_NP_EXPM1, KN_BI_MATH_EXPM1},   {KN_BI_NP_LOG, KN_BI_MATH_LOG},
        {KN_BI_NP_LOG2, KN_BI_MATH_LOG2},     {KN_BI_NP_LOG10, KN_BI_MATH_LOG10},
        {KN_BI_NP_LOG1P, KN_BI_MATH_LOG1P},   {KN_BI_NP_SIN, KN_BI_MATH_SIN},
        {KN_BI_NP_COS, KN_BI_MATH_COS},       {KN_BI_NP_TAN, KN_BI_MATH_TAN},
        {KN_BI_NP_ARCSIN, KN_BI_MATH_ASIN},   {KN_BI_NP_ARCCOS, KN_BI_MATH_ACOS},
        {KN_BI_NP_ARCTAN, KN_BI_MATH_ATAN},   {KN_BI_NP_SINH, KN_BI_MATH_SINH},
        {KN_BI_NP_COSH, KN_BI_MATH_COSH},     {KN_BI_NP_TANH, KN_BI_MATH_TANH},
        {KN_BI_NP_ARCSINH, KN_BI_MATH_ASINH}, {KN_BI_NP_ARCCOSH, KN_BI_MATH_ACOSH},
        {KN_BI_NP_ARCTANH, KN_BI_MATH_ATANH},
    };
    LLVMValueRef v = kn_lower_convert(l, x, xt, operand);
    if (operand->kind == KN_TY_COMPLEX && id != KN_BI_NP_ABS && id != KN_BI_NP_ABSOLUTE &&
        id != KN_BI_NP_NEGATIVE)
        return complex_fn(l, id, v, operand);
    for (int i = 0; i < KN_ARRAY_LEN(map); i++)
        if (map[i].np == id)
            return kn_lower_convert(l, math_unary(l, map[i].math, v, operand), operand, rt);
    switch (id) {
    case KN_BI_NP_FLOOR:
    case KN_BI_NP_CEIL:
    case KN_BI_NP_TRUNC:
        if (operand->kind != KN_TY_FLOAT)
            return kn_lower_convert(l, v, operand, rt); /* integers are already integral */
        return math1(l, id == KN_BI_NP_FLOOR ? "floor" : id == KN_BI_NP_CEIL ? "ceil" : "trunc", v);
    case KN_BI_NP_NEGATIVE:
        if (operand->kind == KN_TY_INT)
            return LLVMBuildNeg(l->b, v, "");
        if (operand->kind == KN_TY_BOOL)
            return LLVMBuildNot(l->b, v, "");
        if (operand->kind == KN_TY_FLOAT)
            return kn_lower_fmf(l, LLVMBuildFNeg(l->b, v, ""));
        return kn_lower_cplx(l, operand,
                             LLVMBuildFNeg(l->b, LLVMBuildExtractValue(l->b, v, 0, ""), ""),
                             LLVMBuildFNeg(l->b, LLVMBuildExtractValue(l->b, v, 1, ""), ""));
    default: /* abs, absolute */
        if (operand->kind == KN_TY_COMPLEX) {
            return math2(l, "hypot", LLVMBuildExtractValue(l->b, v, 0, ""),
                         LLVMBuildExtractValue(l->b, v, 1, ""));
        }
        if (operand->kind == KN_TY_FLOAT)
            return intrinsic1(l, "llvm.fabs", v);
        if (operand->kind == KN_TY_BOOL || !operand->is_signed)
            return v;
        LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, v, LLVMConstNull(LLVMTypeOf(v)), "");
        return LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, v, ""), v, "");
    }
}

/* The NumPy family (lib/numpy.def) other than the scalar classes. */
LLVMValueRef
kn_lower_rule_numpy(L *l, KnInstr *in, int id)
{
    unsigned flags = kn_lib_flags(id);
    if (flags & KN_CF_CREATES)
        return kn_lower_array_creation(l, in, id);
    if (flags & KN_CF_REDUCES) {
        KnInstr *a = kn_typing_arg(in, 0, "a");
        return kn_lower_reduction(l, in, kn_kir_builtin_attr(id), l->vals[a->id], a->type);
    }
    switch (id) {
    case KN_BI_NP_ARANGE:
        return kn_lower_arange(l, in);
    case KN_BI_NP_ARRAY:
    case KN_BI_NP_ASARRAY:
    case KN_BI_NP_ASCONTIGUOUSARRAY:
    case KN_BI_NP_LINSPACE:
    case KN_BI_NP_EYE:
    case KN_BI_NP_IDENTITY:
        return kn_lower_array_make(l, in, id);
    case KN_BI_NP_COPY:
        return kn_lower_array_copy(l, in, arg(l, in, 0), argt(in, 0));
    case KN_BI_NP_NONZERO:
        return kn_lower_nonzero(l, arg(l, in, 0), argt(in, 0), in->type);
    case KN_BI_NP_WHERE:
        if (in->type->kind == KN_TY_TUPLE) /* np.where(condition) */
            return kn_lower_nonzero(l, arg(l, in, 0), argt(in, 0), in->type);
        return kn_lower_array_ufunc(l, in);
    default:
        return kn_lower_array_ufunc(l, in);
    }
}

/* Array methods (lib/array.def). */
LLVMValueRef
kn_lower_rule_array_method(L *l, KnInstr *in, int id)
{
    KnInstr *self = in->args[0]->args[0];
    const char *m = kn_kir_builtin_attr(id);
    LLVMValueRef a = l->vals[self->id];
    switch (id) {
    case KN_BI_ARRAY_COPY:
        return kn_lower_array_copy(l, in, a, self->type);
    case KN_BI_ARRAY_NONZERO:
        return kn_lower_nonzero(l, a, self->type, in->type);
    case KN_BI_ARRAY_FILL:
        kn_lower_array_fill(l, a, self->type, arg(l, in, 0), argt(in, 0));
        return LLVMConstInt(l->i8, 0, 0);
    case KN_BI_ARRAY_TRANSPOSE:
    case KN_BI_ARRAY_RESHAPE:
    case KN_BI_ARRAY_RAVEL:
    case KN_BI_ARRAY_FLATTEN:
    case KN_BI_ARRAY_ASTYPE:
        return kn_lower_array_method(l, in, m, a, self->type);
    default:
        /* reductions: sum, prod, min, max, mean (with axis=), argmin, argmax, any, all, cum* */
        return kn_lower_reduction(l, in, m, a, self->type);
    }
}

/* number.conjugate() */
LLVMValueRef
kn_lower_rule_number_method(L *l, KnInstr *in, int id)
{
    (void)id;
    const KnType *self = in->args[0]->args[0]->type;
    LLVMValueRef v = l->vals[in->args[0]->args[0]->id];
    if (self->kind == KN_TY_COMPLEX) {
        LLVMValueRef im = LLVMBuildExtractValue(l->b, v, 1, "");
        return LLVMBuildInsertValue(l->b, v, kn_lower_fmf(l, LLVMBuildFNeg(l->b, im, "")), 1, "");
    }
    return kn_lower_convert(l, v, self, in->type);
}

LLVMValueRef
kn_lower_rule_math(L *l, KnInstr *in, int id)
{
    return lower_math(l, in, id, ((KnCallImpl *)in->impl)->operand);
}

/* int(), float(), bool(), complex() and the NumPy scalar classes */
LLVMValueRef
kn_lower_rule_conversion(L *l, KnInstr *in, int id)
{
    int n = in->nargs - 1;
    switch (id) {
    case KN_BI_INT:
    case KN_BI_FLOAT:
        if (!n)
            return LLVMConstNull(kn_lower_type(l, in->type));
        if (id == KN_BI_INT && argt(in, 0)->kind == KN_TY_FLOAT)
            return kn_lower_float_to_pyint(l, arg(l, in, 0), argt(in, 0));
        return kn_lower_convert(l, arg(l, in, 0), argt(in, 0), in->type);
    case KN_BI_BOOL:
        return n ? kn_lower_truth(l, arg(l, in, 0), argt(in, 0)) : LLVMConstInt(l->i1, 0, 0);
    case KN_BI_COMPLEX:
        return lower_complex(l, in);
    default: /* the NumPy scalar classes */
        if (!n)
            return LLVMConstNull(kn_lower_type(l, in->type));
        return kn_lower_convert(l, arg(l, in, 0), argt(in, 0), in->type);
    }
}

/* The builtins family (lib/builtins.def) other than the conversions. */
LLVMValueRef
kn_lower_rule_builtin(L *l, KnInstr *in, int id)
{
    KnCallImpl *impl = in->impl;
    int n = in->nargs - 1;
    const KnType *op = impl->operand;
    if (n >= 1 && argt(in, 0)->kind == KN_TY_LIST &&
        (id == KN_BI_MIN || id == KN_BI_MAX || id == KN_BI_SUM))
        return kn_lower_list_builtin(l, in, id); /* lower/list.c */
    switch (id) {
    case KN_BI_ABS:
        return lower_abs(l, in, op);
    case KN_BI_MIN:
    case KN_BI_MAX:
        return minmax(l, in, id == KN_BI_MAX, in->type);
    case KN_BI_ROUND:
        return lower_round(l, in, op);
    case KN_BI_DIVMOD: {
        const KnType *r = in->type->items[0];
        if (op->kind == KN_TY_FLOAT && l->c->error_model_python) {
            LLVMValueRef d = arg_as(l, in, 1, op);
            kn_lower_raise_if(l,
                              LLVMBuildFCmp(l->b, LLVMRealOEQ, d, LLVMConstNull(LLVMTypeOf(d)), ""),
                              KN_EXC_FLOAT_DIVMOD_ZERO);
        }
        LLVMValueRef q = kn_lower_binop(l, KN_BIN_FLOORDIV, arg(l, in, 0), arg(l, in, 1), op,
                                        argt(in, 0), argt(in, 1));
        LLVMValueRef m = kn_lower_binop(l, KN_BIN_MOD, arg(l, in, 0), arg(l, in, 1), op,
                                        argt(in, 0), argt(in, 1));
        LLVMValueRef t = LLVMGetUndef(kn_lower_type(l, in->type));
        t = LLVMBuildInsertValue(l->b, t, kn_lower_convert(l, q, op, r), 0, "");
        return LLVMBuildInsertValue(l->b, t, kn_lower_convert(l, m, op, r), 1, "");
    }
    case KN_BI_POW:
        if (n == 3) {
            LLVMValueRef m = arg_as(l, in, 2, &kn_type_int64);
            LLVMValueRef e = arg_as(l, in, 1, &kn_type_int64);
            kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, m, LLVMConstInt(l->i64, 0, 0), ""),
                              KN_EXC_POW_MOD_ZERO);
            kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, e, LLVMConstInt(l->i64, 0, 0), ""),
                              KN_EXC_NEG_POW);
            LLVMTypeRef ps[3] = {l->i64, l->i64, l->i64};
            LLVMValueRef args[3] = {arg_as(l, in, 0, &kn_type_int64), e, m};
            return kn_lower_extern(l, "kn_rt_ipow_mod", l->i64, ps, 3, args);
        }
        return kn_lower_convert(l,
                                kn_lower_binop(l, KN_BIN_POW, arg(l, in, 0), arg(l, in, 1), op,
                                               argt(in, 0), argt(in, 1)),
                                op, in->type);
    case KN_BI_LEN:
        if (argt(in, 0)->kind == KN_TY_TUPLE)
            return LLVMConstInt(l->i64, (unsigned long long)argt(in, 0)->n, 0);
        if (argt(in, 0)->kind == KN_TY_ARRAY)
            return kn_lower_array_shape(l, arg(l, in, 0), 0);
        return kn_lower_range_len(l, arg(l, in, 0));
    case KN_BI_RANGE:
        return lower_range(l, in);
    case KN_BI_PRINT:
        return lower_print(l, in);
    case KN_BI_TUPLE: { /* the tuple itself: a call's value owns its references, and is a
                         * value of its own (ownership is by LLVM value: kn_lower_own_until) */
        LLVMValueRef v = arg(l, in, 0);
        kn_lower_incref(l, v, in->type);
        return LLVMBuildFreeze(l->b, v, "");
    }
    case KN_BI_SUM: {
        const KnType *t = argt(in, 0);
        LLVMValueRef acc = kn_lower_convert(l, LLVMConstInt(l->i64, 0, 0), &kn_type_int64, op);
        for (int i = 0; i < t->n; i++) {
            LLVMValueRef x = LLVMBuildExtractValue(l->b, arg(l, in, 0), (unsigned)i, "");
            acc = kn_lower_binop(l, KN_BIN_ADD, acc, x, op, op, t->items[i]);
        }
        return acc;
    }
    default:
        return NULL;
    }
}

/* A call of a jitted function with the arguments argv[0..n) (for a method implemented in
 * Python, self first). */
LLVMValueRef
kn_lower_jitted_values(L *l, KnInstr *in, KnCallImpl *impl, LLVMValueRef *vals, KnType **types,
                       int n)
{
    LLVMTypeRef params[KN_MAX_PARAMS + 3];
    LLVMValueRef args[KN_MAX_PARAMS + 3];
    LLVMTypeRef rt = kn_lower_type(l, in->type);
    int self = !strcmp(impl->callee.symbol, l->c->symbol);
    if (self ? l->direct : !impl->callee.can_raise) {
        /* a callee that cannot raise returns its value: no status to check */
        for (int i = 0; i < n && i < KN_MAX_PARAMS; i++) {
            const KnType *pt = impl->callee.params ? impl->callee.params[i] : types[i];
            params[i] = kn_lower_type(l, pt);
            args[i] = kn_lower_convert(l, vals[i], types[i], pt);
        }
        if (!impl->callee.recursive)
            return kn_lower_extern(l, impl->callee.symbol, rt, params, n, args);
        /* a callee in a recursion cycle: it takes the stack limit, returns {value, code} */
        params[n] = l->i64;
        args[n++] = kn_lower_callee_limit(l);
        return kn_lower_coded_result(
            l,
            kn_lower_extern(l, impl->callee.symbol, kn_lower_coded_type(l, rt), params, n, args));
    }
    LLVMValueRef ret = kn_lower_entry_alloca(l, rt, "cret");
    params[0] = params[1] = l->ptr;
    args[0] = ret;
    args[1] = l->exc_ptr;
    for (int i = 0; i < n && i < KN_MAX_PARAMS; i++) {
        const KnType *pt = impl->callee.params ? impl->callee.params[i] : types[i];
        params[i + 2] = kn_lower_type(l, pt);
        args[i + 2] = kn_lower_convert(l, vals[i], types[i], pt);
    }
    if (impl->callee.recursive) {
        params[n + 2] = l->i64;
        args[n++ + 2] = kn_lower_callee_limit(l);
    }
    LLVMValueRef st = kn_lower_extern(l, impl->callee.symbol, l->i32, params, n + 2, args);
    /* status != 0: the callee recorded an exception; pass it up */
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "propagate");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ok");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, LLVMConstInt(l->i32, 0, 0), ""), bad,
                    ok);
    LLVMPositionBuilderAtEnd(l->b, bad);
    kn_lower_store_called_from(l);
    kn_lower_unwind(l, st);
    LLVMPositionBuilderAtEnd(l->b, ok);
    return LLVMBuildLoad2(l->b, rt, ret, "");
}

/* A call or attribute implemented in Python (kiln/lib, kiln.extending): an ordinary call of
 * the implementation's overload, self first for methods and attributes. */
LLVMValueRef
kn_lower_jitted_call(L *l, KnInstr *in)
{
    KnCallImpl *impl = in->impl;
    KnInstr *argv[KN_MAX_PARAMS + 1];
    LLVMValueRef vals[KN_MAX_PARAMS + 1];
    KnType *types[KN_MAX_PARAMS + 1];
    int n = 0;
    /* a call of the generator function itself makes its frame (generators.c); a function that
     * returns a generator made inside it is an ordinary call */
    if (in->type && in->type->kind == KN_TY_GEN && impl->callee.symbol &&
        !strcmp(impl->callee.symbol, (const char *)in->type->ref))
        return kn_lower_gen_make(l, in);
    if (in->op == KN_OP_GETATTR) {
        argv[n++] = in->args[0];
    } else {
        if (impl->self_first)
            argv[n++] = in->args[0]->args[0];
        for (int i = 1; i < in->nargs && n < KN_MAX_PARAMS + 1; i++)
            argv[n++] = in->args[i];
    }
    for (int i = 0; i < n; i++) {
        vals[i] = l->vals[argv[i]->id];
        types[i] = argv[i]->type;
    }
    if (in->op == KN_OP_CALL && in->args[0]->type->kind == KN_TY_TUPLE) {
        /* a closure (typing/functions.c): its captured values follow the arguments */
        const KnType *ct = in->args[0]->type;
        LLVMValueRef cv = l->vals[in->args[0]->id];
        for (int k = 1; k < ct->n && n < KN_MAX_PARAMS + 1; k++, n++) {
            vals[n] = LLVMBuildExtractValue(l->b, cv, (unsigned)k, "");
            types[n] = ct->items[k];
        }
    }
    if (impl->choices) /* a choice among jitted functions: lower/functions.c */
        return kn_lower_choice_call(l, in, vals, types, n);
    return kn_lower_jitted_values(l, in, impl, vals, types, n);
}

LLVMValueRef
kn_lower_call(L *l, KnInstr *in)
{
    KnCallImpl *impl = in->impl;
    switch (impl->kind) {
    case KN_CALL_CONST:
        return LLVMConstInt(l->i1, (unsigned long long)impl->value, 0);
    case KN_CALL_BUILTIN:
    case KN_CALL_METHOD:
    case KN_CALL_OPERATOR:
        return kn_lower_entry(l, in, impl->builtin);
    case KN_CALL_JITTED:
        return kn_lower_jitted_call(l, in);
    }
    return NULL;
}
