/* npmath.c - lowering of NumPy's math, bitwise, logical and comparison ufuncs beyond the
 * arithmetic ones (rule npmath; typed by typing/npmath.c). The one-result ufuncs are kernels of
 * the elementwise machinery (kn_lower_npmath_kernel, called by elementwise.c's ufunc kernel), so
 * they broadcast, take out= and fuse into array expressions like np.sqrt; scalars are the same
 * kernel once. divmod, frexp and modf give a tuple: one elementwise pass per result. np.round
 * (decimals a constant) and the methods a.conj(), a.conjugate() and a.round() have kernels of
 * their own. Semantics follow NumPy's loops: integer division and shifts never raise (x // 0 is
 * 0, shifts past the width give 0 or -1), NaN propagates as NumPy's C loops do. */
#include "lower/array.h"

static const KnType *
elem_of(const KnType *t)
{
    return t->kind == KN_TY_ARRAY ? t->dtype : t;
}

static LLVMValueRef
fconst(L *l, const KnType *t, double v)
{
    return kn_lower_const_f(l, t, v);
}

static LLVMValueRef
math1(L *l, const char *name, LLVMValueRef x)
{
    return kn_lower_math(l, name, &x, 1);
}

/* nextafter of two float16 values, on their bits (float32's would step by a float32 ulp): NaN
 * in, NaN out; x == y gives y; from a zero, the smallest subnormal with y's sign; else one
 * step of the magnitude, up when moving away from zero */
static LLVMValueRef
half_nextafter(L *l, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef i16 = LLVMInt16TypeInContext(l->ctx), ht = LLVMTypeOf(x);
    LLVMValueRef xb = LLVMBuildBitCast(l->b, x, i16, ""), yb = LLVMBuildBitCast(l->b, y, i16, "");
    LLVMValueRef zero = LLVMConstNull(ht);
    LLVMValueRef up = LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildFCmp(l->b, LLVMRealOLT, x, y, ""),
                                    LLVMBuildFCmp(l->b, LLVMRealOGT, x, zero, ""), "");
    LLVMValueRef step =
        LLVMBuildSelect(l->b, up, LLVMConstInt(i16, 1, 0), LLVMConstInt(i16, 0xffff, 0), "");
    LLVMValueRef r = LLVMBuildAdd(l->b, xb, step, "");
    LLVMValueRef tiny = LLVMBuildOr(l->b, LLVMBuildAnd(l->b, yb, LLVMConstInt(i16, 0x8000, 0), ""),
                                    LLVMConstInt(i16, 1, 0), "");
    r = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, zero, ""), tiny, r, "");
    r = LLVMBuildBitCast(l->b, r, ht, "");
    r = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, y, ""), y, r, "");
    return LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, x, y, ""),
                           LLVMBuildFAdd(l->b, x, y, ""), r, "");
}

static LLVMValueRef
math2(L *l, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef args[2] = {x, y};
    if (LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMHalfTypeKind && !strcmp(name, "nextafter"))
        return half_nextafter(l, x, y);
    return kn_lower_math(l, name, args, 2);
}

static LLVMValueRef
fmul(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return kn_lower_fmf(l, LLVMBuildFMul(l->b, a, b, ""));
}

static LLVMValueRef
fadd(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return kn_lower_fmf(l, LLVMBuildFAdd(l->b, a, b, ""));
}

static LLVMValueRef
fsub(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return kn_lower_fmf(l, LLVMBuildFSub(l->b, a, b, ""));
}

static LLVMValueRef
fdiv(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return kn_lower_fmf(l, LLVMBuildFDiv(l->b, a, b, ""));
}

static LLVMValueRef
fcmp(L *l, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(l->b, p, a, b, "");
}

static LLVMValueRef
sel(L *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(l->b, c, a, b, "");
}

/* an integer constant of the LLVM type of v */
static LLVMValueRef
iconst(LLVMValueRef v, long long k)
{
    return LLVMConstInt(LLVMTypeOf(v), (unsigned long long)k, 1);
}

/* a binary operator in NumPy's error model (no ZeroDivisionError) */
static LLVMValueRef
ufunc_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    int saved = l->in_ufunc;
    l->in_ufunc = 1;
    LLVMValueRef r = kn_lower_binop(l, op, a, b, t, t, t);
    l->in_ufunc = saved;
    return r;
}

/* log(exp(x) + exp(y)) without overflow, as NumPy's npy_logaddexp (base 2 with log2/exp2:
 * npy_logaddexp2); equal arguments (infinities included) give x + log(2) (x + 1) */
static LLVMValueRef
logaddexp(L *l, LLVMValueRef x, LLVMValueRef y, const KnType *t, int base2)
{
    LLVMValueRef d = fsub(l, x, y);
    LLVMValueRef pos = fcmp(l, LLVMRealOGT, d, fconst(l, t, 0.0));
    LLVMValueRef big = sel(l, pos, x, y);
    LLVMValueRef nd = sel(l, pos, LLVMBuildFNeg(l->b, d, ""), d); /* -|d| */
    LLVMValueRef tail;
    if (base2) /* log2(1 + 2**nd) */
        tail = fmul(l, math1(l, "log1p", math1(l, "exp2", nd)),
                    fconst(l, t, 1.442695040888963407359924681001892137));
    else
        tail = math1(l, "log1p", math1(l, "exp", nd));
    LLVMValueRef r = fadd(l, big, tail);
    r = sel(l, fcmp(l, LLVMRealUNO, d, d), d, r); /* NaN, or inf - inf of equal infinities */
    LLVMValueRef same = fadd(l, x, fconst(l, t, base2 ? 1.0 : 0.693147180559945309417232121458));
    return sel(l, fcmp(l, LLVMRealOEQ, x, y), same, r);
}

/* NumPy's spacing: the distance to the next float away from zero (toward +inf at both zeros;
 * always toward +inf for float16, as NumPy's npy_half_spacing); NaN for infinities */
static LLVMValueRef
spacing(L *l, LLVMValueRef x, const KnType *t)
{
    LLVMValueRef inf = fconst(l, t, 1.0 / 0.0);
    LLVMValueRef neg = fcmp(l, LLVMRealOLT, x, fconst(l, t, 0.0));
    LLVMValueRef to = sel(l, neg, LLVMBuildFNeg(l->b, inf, ""), inf);
    if (t->bits == 16)
        to = inf;
    LLVMValueRef r = fsub(l, math2(l, "nextafter", x, to), x);
    LLVMTypeRef ft = LLVMTypeOf(x);
    LLVMValueRef ax = kn_lower_intrinsic(l, "llvm.fabs", &ft, 1, &x, 1);
    return sel(l, fcmp(l, LLVMRealOEQ, ax, inf), fconst(l, t, 0.0 / 0.0), r);
}

/* the sign bit of a float */
static LLVMValueRef
np_signbit(L *l, LLVMValueRef x, const KnType *t)
{
    LLVMTypeRef it = LLVMIntTypeInContext(l->ctx, (unsigned)t->bits);
    LLVMValueRef bits = LLVMBuildBitCast(l->b, x, it, "");
    return LLVMBuildICmp(l->b, LLVMIntSLT, bits, LLVMConstNull(it), "");
}

/* np.sinc: sin(pi y) / (pi y), y = x except 1e-20 for 0 (NumPy's formula, which gives 1.0) */
static LLVMValueRef
sinc(L *l, LLVMValueRef x, const KnType *t)
{
    LLVMValueRef zero = fcmp(l, LLVMRealOEQ, x, fconst(l, t, 0.0));
    LLVMValueRef y = fmul(l, fconst(l, t, 3.141592653589793238462643383279502884),
                          sel(l, zero, fconst(l, t, 1.0e-20), x));
    return fdiv(l, math1(l, "sin", y), y);
}

/* integer x mod y as C's fmod: the sign of x; 0 for y == 0 and for y == -1 (NumPy's loops) */
static LLVMValueRef
int_fmod(L *l, LLVMValueRef x, LLVMValueRef y, const KnType *t)
{
    LLVMValueRef y0 = LLVMBuildICmp(l->b, LLVMIntEQ, y, iconst(y, 0), "");
    LLVMValueRef bad = y0;
    if (t->is_signed)
        bad = LLVMBuildOr(l->b, y0, LLVMBuildICmp(l->b, LLVMIntEQ, y, iconst(y, -1), ""), "");
    LLVMValueRef safe = sel(l, bad, iconst(y, 1), y);
    LLVMValueRef r =
        t->is_signed ? LLVMBuildSRem(l->b, x, safe, "") : LLVMBuildURem(l->b, x, safe, "");
    return sel(l, bad, iconst(x, 0), r);
}

/* gcd of two integers of dtype t (kn_rt_gcd: |a|, |b| in 64 bits; unsigned 64-bit values by
 * kn_rt_gcd_u64), wrapped to t */
static LLVMValueRef
int_gcd(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    int u64 = !t->is_signed && t->bits == 64;
    const KnType *wide = u64 ? &kn_type_uint64 : &kn_type_int64;
    LLVMValueRef args[2] = {kn_lower_convert(l, a, t, wide), kn_lower_convert(l, b, t, wide)};
    LLVMTypeRef ps[2] = {l->i64, l->i64};
    LLVMValueRef g = kn_lower_extern(l, u64 ? "kn_rt_gcd_u64" : "kn_rt_gcd", l->i64, ps, 2, args);
    return kn_lower_convert(l, g, wide, t);
}

/* lcm: |a| / gcd(a, b) * |b| in the dtype (wrapping), 0 when both are 0 */
static LLVMValueRef
int_lcm(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    LLVMValueRef g = int_gcd(l, a, b, t);
    LLVMValueRef g0 = LLVMBuildICmp(l->b, LLVMIntEQ, g, iconst(g, 0), "");
    LLVMValueRef safe = sel(l, g0, iconst(g, 1), g);
    if (t->is_signed) {
        a = sel(l, LLVMBuildICmp(l->b, LLVMIntSLT, a, iconst(a, 0), ""), LLVMBuildNeg(l->b, a, ""),
                a);
        b = sel(l, LLVMBuildICmp(l->b, LLVMIntSLT, b, iconst(b, 0), ""), LLVMBuildNeg(l->b, b, ""),
                b);
    }
    LLVMValueRef q = LLVMBuildUDiv(l->b, a, safe, ""); /* |a| / gcd * |b|, wrapping as NumPy */
    LLVMValueRef r = LLVMBuildMul(l->b, q, b, "");
    return sel(l, g0, iconst(r, 0), r);
}

/* NumPy's shifts: a count past the width (or negative) shifts every bit out */
static LLVMValueRef
int_shift(L *l, int left, LLVMValueRef x, LLVMValueRef y, const KnType *t)
{
    LLVMValueRef in_range = LLVMBuildICmp(l->b, LLVMIntULT, y, iconst(y, t->bits), "");
    LLVMValueRef safe = sel(l, in_range, y, iconst(y, 0));
    if (left)
        return sel(l, in_range, LLVMBuildShl(l->b, x, safe, ""), iconst(x, 0));
    if (!t->is_signed)
        return sel(l, in_range, LLVMBuildLShr(l->b, x, safe, ""), iconst(x, 0));
    LLVMValueRef fill =
        sel(l, LLVMBuildICmp(l->b, LLVMIntSLT, x, iconst(x, 0), ""), iconst(x, -1), iconst(x, 0));
    return sel(l, in_range, LLVMBuildAShr(l->b, x, safe, ""), fill);
}

/* 1 / x of an integer: NumPy's truncating division (0 for 0 and for |x| > 1) */
static LLVMValueRef
int_reciprocal(L *l, LLVMValueRef x, const KnType *t)
{
    LLVMValueRef one = LLVMBuildICmp(l->b, LLVMIntEQ, x, iconst(x, 1), "");
    LLVMValueRef r = sel(l, one, iconst(x, 1), iconst(x, 0));
    if (t->is_signed)
        r = sel(l, LLVMBuildICmp(l->b, LLVMIntEQ, x, iconst(x, -1), ""), iconst(x, -1), r);
    return r;
}

/* np.ldexp(x, n): n clamped to int32's range first (as NumPy's long loop) */
static LLVMValueRef
np_ldexp(L *l, LLVMValueRef x, LLVMValueRef n, const KnType *nt)
{
    LLVMValueRef w = kn_lower_convert(l, n, nt, &kn_type_int64);
    w = kn_lower_smin(l, kn_lower_smax(l, w, i64c(l, -2147483647LL - 1)), i64c(l, 2147483647LL));
    LLVMValueRef args[2] = {x, LLVMBuildTrunc(l->b, w, l->i32, "")};
    return kn_lower_math(l, "ldexp", args, 2);
}

static LLVMValueRef
heaviside(L *l, LLVMValueRef x, LLVMValueRef h0, const KnType *t)
{
    LLVMValueRef r =
        sel(l, fcmp(l, LLVMRealOLT, x, fconst(l, t, 0.0)), fconst(l, t, 0.0), fconst(l, t, 1.0));
    r = sel(l, fcmp(l, LLVMRealOEQ, x, fconst(l, t, 0.0)), h0, r);
    return sel(l, fcmp(l, LLVMRealUNO, x, x), x, r);
}

static LLVMValueRef
conjugate(L *l, LLVMValueRef x, const KnType *t)
{
    if (t->kind != KN_TY_COMPLEX)
        return x;
    return kn_lower_cplx(l, t, LLVMBuildExtractValue(l->b, x, 0, ""),
                         LLVMBuildFNeg(l->b, LLVMBuildExtractValue(l->b, x, 1, ""), ""));
}

/* the one-input ufuncs: x already of the operand dtype t, the result of dtype r */
static LLVMValueRef
unary(L *l, int id, LLVMValueRef x, const KnType *t, const KnType *r)
{
    LLVMTypeRef ft = LLVMTypeOf(x);
    switch (id) {
    case KN_BI_NP_FABS:
        return kn_lower_intrinsic(l, "llvm.fabs", &ft, 1, &x, 1);
    case KN_BI_NP_DEG2RAD:
    case KN_BI_NP_RADIANS:
        return fmul(l, x, fconst(l, t, 0.017453292519943295769236907684886));
    case KN_BI_NP_RAD2DEG:
    case KN_BI_NP_DEGREES:
        return fmul(l, x, fconst(l, t, 57.295779513082320876798154814105));
    case KN_BI_NP_CBRT:
        return math1(l, "cbrt", x);
    case KN_BI_NP_EXP2:
        return math1(l, "exp2", x);
    case KN_BI_NP_SPACING:
        return spacing(l, x, t);
    case KN_BI_NP_SIGNBIT:
        return np_signbit(l, x, t);
    case KN_BI_NP_SQUARE:
        return ufunc_binop(l, KN_BIN_MUL, x, x, t);
    case KN_BI_NP_RECIPROCAL:
        if (t->kind == KN_TY_INT)
            return int_reciprocal(l, x, t);
        if (t->kind == KN_TY_FLOAT)
            return fdiv(l, fconst(l, t, 1.0), x);
        return ufunc_binop(l, KN_BIN_TRUEDIV, kn_lower_convert(l, i64c(l, 1), &kn_type_int64, t), x,
                           t);
    case KN_BI_NP_CONJUGATE:
        return conjugate(l, x, t);
    case KN_BI_NP_POSITIVE:
        return x;
    case KN_BI_NP_FIX:
        return t->kind == KN_TY_FLOAT ? math1(l, "trunc", x) : x;
    case KN_BI_NP_INVERT:
        return LLVMBuildNot(l->b, x, "");
    case KN_BI_NP_LOGICAL_NOT:
        return LLVMBuildNot(l->b, kn_lower_truth(l, x, t), "");
    case KN_BI_NP_SINC:
        return sinc(l, x, t);
    case KN_BI_NP_I0: {
        LLVMValueRef d = kn_lower_convert(l, x, t, &kn_type_float64);
        LLVMTypeRef ps[1] = {l->f64};
        return kn_lower_convert(l, kn_lower_extern(l, "kn_rt_i0", l->f64, ps, 1, &d),
                                &kn_type_float64, t);
    }
    case KN_BI_NP_ANGLE: {
        if (t->kind == KN_TY_COMPLEX)
            return math2(l, "atan2", LLVMBuildExtractValue(l->b, x, 1, ""),
                         LLVMBuildExtractValue(l->b, x, 0, ""));
        LLVMValueRef v = kn_lower_convert(l, x, t, r);
        return math2(l, "atan2", fconst(l, r, 0.0), v);
    }
    default:
        return x;
    }
}

/* the two-input ufuncs: x and y of the operand dtype t (ldexp: y of its own dtype yt) */
static LLVMValueRef
binary(L *l, int id, LLVMValueRef x, LLVMValueRef y, const KnType *t, const KnType *yt)
{
    switch (id) {
    case KN_BI_NP_COPYSIGN:
        return math2(l, "copysign", x, y);
    case KN_BI_NP_NEXTAFTER:
        return math2(l, "nextafter", x, y);
    case KN_BI_NP_LOGADDEXP:
    case KN_BI_NP_LOGADDEXP2:
        return logaddexp(l, x, y, t, id == KN_BI_NP_LOGADDEXP2);
    case KN_BI_NP_HEAVISIDE:
        return heaviside(l, x, y, t);
    case KN_BI_NP_FMOD:
        return t->kind == KN_TY_FLOAT ? math2(l, "fmod", x, y) : int_fmod(l, x, y, t);
    case KN_BI_NP_FLOAT_POWER:
        return ufunc_binop(l, KN_BIN_POW, x, y, t);
    case KN_BI_NP_LDEXP:
        return np_ldexp(l, x, y, yt);
    case KN_BI_NP_GCD:
        return int_gcd(l, x, y, t);
    case KN_BI_NP_LCM:
        return int_lcm(l, x, y, t);
    case KN_BI_NP_BITWISE_AND:
        return LLVMBuildAnd(l->b, x, y, "");
    case KN_BI_NP_BITWISE_OR:
        return LLVMBuildOr(l->b, x, y, "");
    case KN_BI_NP_BITWISE_XOR:
        return LLVMBuildXor(l->b, x, y, "");
    case KN_BI_NP_LEFT_SHIFT:
    case KN_BI_NP_RIGHT_SHIFT:
        return int_shift(l, id == KN_BI_NP_LEFT_SHIFT, x, y, t);
    case KN_BI_NP_LOGICAL_AND:
        return LLVMBuildAnd(l->b, kn_lower_truth(l, x, t), kn_lower_truth(l, y, t), "");
    case KN_BI_NP_LOGICAL_OR:
        return LLVMBuildOr(l->b, kn_lower_truth(l, x, t), kn_lower_truth(l, y, t), "");
    default: /* logical_xor */
        return LLVMBuildXor(l->b, kn_lower_truth(l, x, t), kn_lower_truth(l, y, t), "");
    }
}

/* The kernel of a one-result npmath ufunc: e[i] is the element of the call's argument i + 1
 * (of its own dtype); the result is of the call's impl->result dtype. */
LLVMValueRef
kn_lower_npmath_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    KnCallImpl *impl = in->impl;
    int id = impl->builtin, nin = kn_typing_npmath_nin(id);
    const KnType *op = impl->operand, *t[2] = {NULL, NULL};
    for (int i = 0; i < nin; i++)
        t[i] = elem_of(in->args[i + 1]->type);
    int cmp = kn_typing_npmath_cmp(id);
    if (cmp >= 0)
        return kn_lower_cmp(l, (KnCmp)cmp, e[0], e[1], t[0], t[1], op);
    LLVMValueRef x = kn_lower_convert(l, e[0], t[0], op);
    if (nin == 1)
        return unary(l, id, x, op, impl->result);
    LLVMValueRef y = id == KN_BI_NP_LDEXP ? e[1] : kn_lower_convert(l, e[1], t[1], op);
    return binary(l, id, x, y, op, t[1]);
}

/* ---- np.round / np.around / a.round(decimals) ---- */

static double
np_pow10(int64_t k)
{
    double r = 1.0;
    for (int64_t i = 0; i < k && i < 400; i++)
        r *= 10.0;
    return r;
}

/* a float rounded to `dec` decimals as NumPy: rint(x * 10**dec) / 10**dec (dec < 0: rint(x /
 * 10**-dec) * 10**-dec), in the float's own precision */
static LLVMValueRef
round_float(L *l, LLVMValueRef x, const KnType *t, int64_t dec)
{
    if (dec == 0)
        return math1(l, "rint", x);
    LLVMValueRef f = fconst(l, t, np_pow10(dec < 0 ? -dec : dec));
    if (dec > 0)
        return fdiv(l, math1(l, "rint", fmul(l, x, f)), f);
    return fmul(l, math1(l, "rint", fdiv(l, x, f)), f);
}

static LLVMValueRef
round_value(L *l, LLVMValueRef x, const KnType *d, const KnType *r, int64_t dec)
{
    if (d->kind == KN_TY_COMPLEX) {
        const KnType *ft = kn_type_float(d->bits / 2);
        return kn_lower_cplx(l, d, round_float(l, LLVMBuildExtractValue(l->b, x, 0, ""), ft, dec),
                             round_float(l, LLVMBuildExtractValue(l->b, x, 1, ""), ft, dec));
    }
    if (r->kind == KN_TY_FLOAT)
        return round_float(l, kn_lower_convert(l, x, d, r), r, dec);
    if (dec >= 0)
        return x; /* integers are already whole */
    /* integers to tens, hundreds...: through float64, half to even, as NumPy */
    LLVMValueRef v = kn_lower_convert(l, x, d, &kn_type_float64);
    return kn_lower_convert(l, round_float(l, v, &kn_type_float64, dec), &kn_type_float64, d);
}

static LLVMValueRef
round_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    KnCallImpl *impl = in->impl;
    return round_value(l, e[0], impl->operand, impl->result, impl->value);
}

static LLVMValueRef
conj_kernel(L *l, KnInstr *in, LLVMValueRef *e)
{
    return conjugate(l, e[0], ((KnCallImpl *)in->impl)->operand);
}

/* one input (a.round(), np.round(a), a.conj()): a scalar, a new array, or into out= */
static LLVMValueRef
one_input(L *l, KnInstr *in, KnInstr *a, KnInstr *out, Kernel kernel)
{
    KnCallImpl *impl = in->impl;
    Operand ops[1] = {{l->vals[a->id], a->type, NULL, {0}}};
    if (a->type->kind != KN_TY_ARRAY) {
        LLVMValueRef v = l->vals[a->id];
        return kernel(l, in, &v);
    }
    if (out) {
        LLVMValueRef dest = l->vals[out->id];
        kn_lower_elementwise_into_unaliased(l, in, ops, 1, kernel, dest, out->type, impl->result);
        return kn_lower_new_reference(l, dest, out->type);
    }
    return kn_lower_elementwise_into(l, in, ops, 1, kernel, NULL, in->type, impl->result);
}

/* ---- divmod, frexp, modf: two results ---- */

static LLVMValueRef two_first(L *l, KnInstr *in, LLVMValueRef *e);
static LLVMValueRef two_second(L *l, KnInstr *in, LLVMValueRef *e);

/* result k (0 or 1) of divmod, frexp or modf of elements e */
static LLVMValueRef
two_value(L *l, KnInstr *in, LLVMValueRef *e, int k)
{
    KnCallImpl *impl = in->impl;
    int id = impl->builtin;
    const KnType *op = impl->operand;
    LLVMValueRef x = kn_lower_convert(l, e[0], elem_of(in->args[1]->type), op);
    if (id == KN_BI_NP_DIVMOD) {
        LLVMValueRef y = kn_lower_convert(l, e[1], elem_of(in->args[2]->type), op);
        return ufunc_binop(l, k ? KN_BIN_MOD : KN_BIN_FLOORDIV, x, y, op);
    }
    LLVMTypeRef ft = kn_lower_type(l, op), ht = ft;
    int f32 = op->bits <= 32;
    if (op->bits == 16) { /* float16 in float32: both parts are exact in float16 again */
        x = LLVMBuildFPExt(l->b, x, l->f32, "");
        ft = l->f32;
    }
    if (id == KN_BI_NP_FREXP) {
        LLVMValueRef ep = kn_lower_entry_alloca(l, l->i32, "exp");
        LLVMTypeRef ps[2] = {ft, l->ptr};
        LLVMValueRef args[2] = {x, ep};
        LLVMValueRef m = kn_lower_extern(l, f32 ? "frexpf" : "frexp", ft, ps, 2, args);
        return k ? LLVMBuildLoad2(l->b, l->i32, ep, "") : LLVMBuildFPTrunc(l->b, m, ht, "");
    }
    LLVMValueRef ip = kn_lower_entry_alloca(l, ft, "ipart");
    LLVMTypeRef ps[2] = {ft, l->ptr};
    LLVMValueRef args[2] = {x, ip};
    LLVMValueRef frac = kn_lower_extern(l, f32 ? "modff" : "modf", ft, ps, 2, args);
    LLVMValueRef r = k ? LLVMBuildLoad2(l->b, ft, ip, "") : frac;
    return ht == ft ? r : LLVMBuildFPTrunc(l->b, r, ht, "");
}

static LLVMValueRef
two_first(L *l, KnInstr *in, LLVMValueRef *e)
{
    return two_value(l, in, e, 0);
}

static LLVMValueRef
two_second(L *l, KnInstr *in, LLVMValueRef *e)
{
    return two_value(l, in, e, 1);
}

static LLVMValueRef
two_outputs(L *l, KnInstr *in)
{
    const KnType *rt = in->type;
    int nin = kn_typing_npmath_nin(((KnCallImpl *)in->impl)->builtin);
    Operand ops[2];
    LLVMValueRef e[2];
    int any_array = 0;
    for (int i = 0; i < nin; i++) {
        ops[i] = (Operand){l->vals[in->args[i + 1]->id], in->args[i + 1]->type, NULL, {0}};
        e[i] = ops[i].v;
        any_array |= ops[i].t->kind == KN_TY_ARRAY;
    }
    LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, rt));
    if (!any_array) {
        r = LLVMBuildInsertValue(l->b, r, two_first(l, in, e), 0, "");
        return LLVMBuildInsertValue(l->b, r, two_second(l, in, e), 1, "");
    }
    Kernel kernels[2] = {two_first, two_second};
    for (unsigned k = 0; k < 2; k++) {
        const KnType *at = rt->items[k];
        LLVMValueRef a =
            kn_lower_elementwise_into(l, in, ops, nin, kernels[k], NULL, at, at->dtype);
        r = LLVMBuildInsertValue(l->b, r, a, k, "");
    }
    kn_lower_incref(l, r, rt); /* the tuple holds its arrays, as a tuple display does */
    return r;
}

LLVMValueRef
kn_lower_rule_npmath(L *l, KnInstr *in, int id)
{
    switch (id) {
    case KN_BI_ARRAY_CONJ:
    case KN_BI_ARRAY_CONJUGATE:
        return one_input(l, in, in->args[0]->args[0], NULL, conj_kernel);
    case KN_BI_ARRAY_ROUND:
        return one_input(l, in, in->args[0]->args[0], kn_typing_arg(in, 1, "out"), round_kernel);
    case KN_BI_NP_ROUND:
    case KN_BI_NP_AROUND:
        return one_input(l, in, kn_typing_arg(in, 0, "a"), kn_typing_arg(in, 2, "out"),
                         round_kernel);
    case KN_BI_NP_DIVMOD:
    case KN_BI_NP_FREXP:
    case KN_BI_NP_MODF:
        return two_outputs(l, in);
    default:
        return kn_lower_array_ufunc(l, in);
    }
}
