/* scalar.c - LLVM code for numbers: float-to-int conversions as NumPy and Python do them (the
 * conversions and truth values of each kind are its lowering model, lower/model_number.c), and
 * the arithmetic, bitwise, unary and comparison operators with Python's semantics (floor
 * division and modulo take the divisor's sign, division by zero raises ZeroDivisionError,
 * int ** negative int raises ValueError) and Numba's (integers wrap at 64 bits). */
#include "lower/internal.h"
#include "lower/list.h"

#include <math.h>

static int
is_intlike(const KnType *t)
{
    return t->kind == KN_TY_INT || t->kind == KN_TY_BOOL;
}

static LLVMValueRef
cplx_part(L *l, LLVMValueRef v, unsigned i)
{
    return LLVMBuildExtractValue(l->b, v, i, "");
}

/* ---- conversions ---- */

/* A truncating conversion to a signed int of `bits` (32 or 64) that is never poison: values
 * that fit are exact; for nan, the infinities and values out of range the result is frozen: an
 * unspecified but fixed int. x86-64 gives INT_MIN ("integer indefinite") there, as NumPy's C
 * casts and Numba do; the freeze costs nothing, where a select of INT_MIN would keep a compare
 * and a blend in every vectorized cast. */
static LLVMValueRef
cvt_signed(L *l, LLVMValueRef v, unsigned bits)
{
    LLVMTypeRef it = LLVMIntTypeInContext(l->ctx, bits);
    return LLVMBuildFreeze(l->b, LLVMBuildFPToSI(l->b, v, it, ""), "");
}

/* A float to an int type, defined for every input as NumPy's C casts behave on x86-64 (and
 * Numba's fptosi/fptoui as LLVM lowers them there): the value truncates toward zero into int32
 * (targets int8..int32, uint8, uint16) or int64 (uint32, int64) and wraps to the width, so
 * np.int8(300.0) is 44 and np.uint8(-1.0) is 255; uint64 converts values >= 2^63 after
 * subtracting 2^63. Values past the intermediate (nan, inf, 1e300) give cvt_signed's fixed
 * unspecified int: -2^63 for int64 on x86-64, as NumPy. Never poison. */
LLVMValueRef
kn_lower_float_to_int(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    LLVMTypeRef tt = kn_lower_type(l, to);
    if (!to->is_signed && to->bits == 64) {
        LLVMValueRef two63 = kn_lower_const_f(l, from, ldexp(1.0, 63));
        LLVMValueRef big = LLVMBuildFCmp(l->b, LLVMRealOGE, v, two63, "");
        LLVMValueRef lo = cvt_signed(l, v, 64);
        LLVMValueRef hi = LLVMBuildXor(l->b, cvt_signed(l, LLVMBuildFSub(l->b, v, two63, ""), 64),
                                       LLVMConstInt(tt, 1ULL << 63, 0), "");
        return LLVMBuildSelect(l->b, big, hi, lo, "");
    }
    unsigned w = (to->is_signed ? to->bits <= 32 : to->bits <= 16) ? 32 : 64;
    LLVMValueRef r = cvt_signed(l, v, w);
    return (unsigned)to->bits < w ? LLVMBuildTrunc(l->b, r, tt, "") : r;
}

/* A float to a Python int, which kiln keeps in int64: int(x), math.floor/ceil/trunc, round(x).
 * CPython raises ValueError for nan and OverflowError for the infinities; a finite value past
 * int64 would be a big int there, and is an OverflowError here (a message of our own). */
LLVMValueRef
kn_lower_float_to_pyint(L *l, LLVMValueRef v, const KnType *from)
{
    /* the hot path tests |v| < 2^63 alone; -2^63 itself is sorted out on the cold one */
    LLVMValueRef av = kn_lower_intrinsic(l, "llvm.fabs", (LLVMTypeRef[]){LLVMTypeOf(v)}, 1, &v, 1);
    LLVMValueRef two63 = kn_lower_const_f(l, from, ldexp(1.0, 63));
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "f2i.edge");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "f2i.ok");
    kn_lower_cold_branch(l, LLVMBuildFCmp(l->b, LLVMRealUGE, av, two63, ""), edge, ok);
    LLVMPositionBuilderAtEnd(l->b, edge);
    LLVMValueRef nan = LLVMBuildFCmp(l->b, LLVMRealUNO, v, v, "");
    LLVMValueRef inf =
        LLVMBuildFCmp(l->b, LLVMRealOEQ, av, kn_lower_const_f(l, from, INFINITY), "");
    LLVMValueRef idx =
        LLVMBuildSelect(l->b, nan, LLVMConstInt(l->i64, KN_EXC_FLOAT_NAN_INT, 0),
                        LLVMBuildSelect(l->b, inf, LLVMConstInt(l->i64, KN_EXC_FLOAT_INF_INT, 0),
                                        LLVMConstInt(l->i64, KN_EXC_FLOAT_INT_RANGE, 0), ""),
                        "");
    LLVMValueRef min =
        LLVMBuildFCmp(l->b, LLVMRealOEQ, v, kn_lower_const_f(l, from, -ldexp(1.0, 63)), "");
    kn_lower_raise_index_if(l, LLVMBuildNot(l->b, min, ""), idx, NULL, 0);
    LLVMBuildBr(l->b, ok);
    LLVMPositionBuilderAtEnd(l->b, ok);
    return LLVMBuildFPToSI(l->b, v, l->i64, "");
}

/* ---- integer operators ---- */

static LLVMValueRef int_floordiv_nz(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t, int mod);

static LLVMValueRef
int_floordiv(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t, int mod)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ty);
    if (l->divisor_nonzero && l->c->error_model_python && !l->in_ufunc)
        return int_floordiv_nz(l, a, b, t, mod); /* tested before (passes/nonzero.c) */
    LLVMValueRef is0 = LLVMBuildICmp(l->b, LLVMIntEQ, b, zero, "");
    if (l->c->error_model_python && !l->in_ufunc) {
        kn_lower_raise_if(l, is0, mod ? KN_EXC_INT_MOD_ZERO : KN_EXC_INT_FLOORDIV_ZERO);
    } else {
        /* error_model='numpy' and array operations: x // 0 and x % 0 are 0, as in NumPy */
        LLVMValueRef r = int_floordiv_nz(
            l, a, LLVMBuildSelect(l->b, is0, LLVMConstInt(ty, 1, 0), b, ""), t, mod);
        return LLVMBuildSelect(l->b, is0, zero, r, "");
    }
    return int_floordiv_nz(l, a, b, t, mod);
}

/* a // c or a % c for a constant c > 0, rounding toward -inf with unsigned operations: with
 * m = a >> (width - 1) (all ones when a < 0), a ^ m is a, or -a - 1, both >= 0, and
 * a // c = (a ^ m) /u c ^ m, a % c = ((a ^ m) %u c ^ m) + (c & m). LLVM expands the unsigned
 * division by a constant without the sign corrections of sdiv/srem and of Python's rounding:
 * `i * i % 7` in a loop, 1.7x Numba's time with srem (Numba's `mul nsw` lets LLVM use urem). */
static LLVMValueRef
floordiv_by_positive(L *l, LLVMValueRef a, LLVMValueRef c, int mod)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    unsigned width = LLVMGetIntTypeWidth(ty);
    LLVMValueRef m = LLVMBuildAShr(l->b, a, LLVMConstInt(ty, width - 1, 0), "sign");
    /* the mask changes nothing, but tells LLVM that y's top bit is clear, which makes the
     * expansion of the division by most constants shorter (no 65-bit multiplier fix-up) */
    LLVMValueRef y = LLVMBuildAnd(l->b, LLVMBuildXor(l->b, a, m, ""),
                                  LLVMConstInt(ty, ~0ULL >> (65 - width), 0), "");
    if (!mod)
        return LLVMBuildXor(l->b, LLVMBuildUDiv(l->b, y, c, ""), m, "");
    LLVMValueRef r = LLVMBuildXor(l->b, LLVMBuildURem(l->b, y, c, ""), m, "");
    return LLVMBuildAdd(l->b, r, LLVMBuildAnd(l->b, c, m, ""), "");
}

/* a // b or a % b with b known to be nonzero */
static LLVMValueRef
int_floordiv_nz(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t, int mod)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ty);
    if (!t->is_signed)
        return mod ? LLVMBuildURem(l->b, a, b, "") : LLVMBuildUDiv(l->b, a, b, "");
    if (LLVMIsAConstantInt(b) && LLVMConstIntGetSExtValue(b) > 0)
        return floordiv_by_positive(l, a, b, mod);
    /* INT64_MIN // -1 overflows sdiv: divide by 1 instead and negate (wrapping) */
    LLVMValueRef minus1 = LLVMConstAllOnes(ty);
    LLVMValueRef is_m1 = LLVMBuildICmp(l->b, LLVMIntEQ, b, minus1, "");
    LLVMValueRef safe_b = LLVMBuildSelect(l->b, is_m1, LLVMConstInt(ty, 1, 0), b, "");
    LLVMValueRef q = LLVMBuildSDiv(l->b, a, safe_b, "");
    LLVMValueRef r = LLVMBuildSRem(l->b, a, safe_b, "");
    /* Python rounds toward -inf: adjust when the remainder and divisor differ in sign */
    LLVMValueRef adj = LLVMBuildAnd(
        l->b, LLVMBuildICmp(l->b, LLVMIntNE, r, zero, ""),
        LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, r, safe_b, ""), zero, ""), "");
    if (mod) {
        LLVMValueRef m = LLVMBuildSelect(l->b, adj, LLVMBuildAdd(l->b, r, safe_b, ""), r, "");
        return LLVMBuildSelect(l->b, is_m1, zero, m, "");
    }
    q = LLVMBuildSelect(l->b, adj, LLVMBuildSub(l->b, q, LLVMConstInt(ty, 1, 0), ""), q, "");
    return LLVMBuildSelect(l->b, is_m1, LLVMBuildNeg(l->b, a, ""), q, "");
}

/* a << b and a >> b, defined for every count: a count of the type's width or more (as an
 * unsigned number) gives 0, or -1 for >> of a negative signed value, as NumPy's npy_lshift and
 * npy_rshift and as CPython's int64 result wrapped to the width (LLVM's shift would be poison,
 * and x86 takes the count modulo the width). A negative count raises ValueError for scalars,
 * as CPython; in array operations it counts as a large one, as NumPy. */
static LLVMValueRef
int_shift(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    unsigned width = LLVMGetIntTypeWidth(ty);
    if (t->is_signed && !l->in_ufunc)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, b, LLVMConstNull(ty), ""),
                          KN_EXC_NEG_SHIFT);
    LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntUGE, b, LLVMConstInt(ty, width, 0), "");
    LLVMValueRef cnt = LLVMBuildSelect(l->b, big, LLVMConstInt(ty, width - 1, 0), b, "");
    if (op == KN_BIN_LSHIFT)
        return LLVMBuildSelect(l->b, big, LLVMConstNull(ty), LLVMBuildShl(l->b, a, cnt, ""), "");
    if (!t->is_signed)
        return LLVMBuildSelect(l->b, big, LLVMConstNull(ty), LLVMBuildLShr(l->b, a, cnt, ""), "");
    return LLVMBuildAShr(l->b, a, cnt, "");
}

static LLVMValueRef
int_pow(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    if (t->is_signed)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, b, LLVMConstInt(l->i64, 0, 0), ""),
                          KN_EXC_NEG_POW);
    LLVMTypeRef ps[2] = {l->i64, l->i64};
    LLVMValueRef args[2] = {a, b};
    return kn_lower_extern(l, "kn_rt_ipow", l->i64, ps, 2, args);
}

static LLVMValueRef
int_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    switch (op) {
    case KN_BIN_ADD:
        return LLVMBuildAdd(l->b, a, b, "");
    case KN_BIN_SUB:
        return LLVMBuildSub(l->b, a, b, "");
    case KN_BIN_MUL:
        return LLVMBuildMul(l->b, a, b, "");
    case KN_BIN_FLOORDIV:
        return int_floordiv(l, a, b, t, 0);
    case KN_BIN_MOD:
        return int_floordiv(l, a, b, t, 1);
    case KN_BIN_POW:
        return int_pow(l, a, b, t);
    case KN_BIN_LSHIFT:
    case KN_BIN_RSHIFT:
        return int_shift(l, op, a, b, t);
    case KN_BIN_AND:
        return LLVMBuildAnd(l->b, a, b, "");
    case KN_BIN_OR:
        return LLVMBuildOr(l->b, a, b, "");
    case KN_BIN_XOR:
        return LLVMBuildXor(l->b, a, b, "");
    default:
        return NULL;
    }
}

/* ---- float operators ---- */

static LLVMValueRef
float_helper(L *l, const char *name, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    LLVMValueRef args[2] = {a, b};
    if (t->bits < 64) {
        args[0] = LLVMBuildFPExt(l->b, a, l->f64, "");
        args[1] = LLVMBuildFPExt(l->b, b, l->f64, "");
    }
    LLVMTypeRef ps[2] = {l->f64, l->f64};
    LLVMValueRef r = kn_lower_extern(l, name, l->f64, ps, 2, args);
    return t->bits < 64 ? LLVMBuildFPTrunc(l->b, r, LLVMTypeOf(a), "") : r;
}

static LLVMValueRef
float_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *t, int from_ints)
{
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(a));
    /* a divisor already tested (passes/nonzero.c): no test, the defer flag included */
    int tested = l->divisor_nonzero && l->c->error_model_python && !l->in_ufunc;
    switch (op) {
    case KN_BIN_ADD:
        return kn_lower_fmf(l, LLVMBuildFAdd(l->b, a, b, ""));
    case KN_BIN_SUB:
        return kn_lower_fmf(l, LLVMBuildFSub(l->b, a, b, ""));
    case KN_BIN_MUL:
        return kn_lower_fmf(l, LLVMBuildFMul(l->b, a, b, ""));
    case KN_BIN_TRUEDIV:
        if (tested) {
            /* nothing to test */
        } else if (l->defer_flag) { /* checked at the loop's exit (passes/defer.c) */
            LLVMValueRef seen = LLVMBuildLoad2(l->b, l->i1, l->defer_flag, "");
            LLVMValueRef now = LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, "");
            LLVMBuildStore(l->b, LLVMBuildOr(l->b, seen, now, ""), l->defer_flag);
        } else if (l->c->error_model_python && !l->in_ufunc) {
            kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, ""),
                              from_ints ? KN_EXC_TRUEDIV_ZERO : KN_EXC_FLOAT_DIV_ZERO);
        }
        return kn_lower_fmf(l, LLVMBuildFDiv(l->b, a, b, ""));
    case KN_BIN_FLOORDIV:
        if (!tested && l->c->error_model_python && !l->in_ufunc)
            kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, ""),
                              KN_EXC_FLOAT_FLOORDIV_ZERO);
        return float_helper(l, "kn_rt_float_floordiv", a, b, t);
    case KN_BIN_MOD:
        if (!tested && l->c->error_model_python && !l->in_ufunc)
            kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, ""),
                              KN_EXC_FLOAT_MOD_ZERO);
        return float_helper(l, "kn_rt_float_mod", a, b, t);
    case KN_BIN_POW: {
        LLVMValueRef args[2] = {a, b};
        return kn_lower_math(l, "pow", args, 2);
    }
    default:
        return NULL;
    }
}

/* ---- complex operators ---- */

static LLVMValueRef
cplx_helper(L *l, const char *name, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    const KnType *ft = kn_type_float(t->bits / 2);
    LLVMValueRef args[5];
    args[0] = kn_lower_convert(l, cplx_part(l, a, 0), ft, &kn_type_float64);
    args[1] = kn_lower_convert(l, cplx_part(l, a, 1), ft, &kn_type_float64);
    args[2] = kn_lower_convert(l, cplx_part(l, b, 0), ft, &kn_type_float64);
    args[3] = kn_lower_convert(l, cplx_part(l, b, 1), ft, &kn_type_float64);
    LLVMTypeRef pair = LLVMArrayType2(l->f64, 2);
    LLVMValueRef out = kn_lower_entry_alloca(l, pair, "cout");
    args[4] = out;
    LLVMTypeRef ps[5] = {l->f64, l->f64, l->f64, l->f64, l->ptr};
    kn_lower_extern(l, name, LLVMVoidTypeInContext(l->ctx), ps, 5, args);
    LLVMValueRef re = LLVMBuildLoad2(l->b, l->f64, out, "");
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
    LLVMValueRef im =
        LLVMBuildLoad2(l->b, l->f64, LLVMBuildInBoundsGEP2(l->b, l->f64, out, &one, 1, ""), "");
    return kn_lower_cplx(l, t, kn_lower_convert(l, re, &kn_type_float64, ft),
                         kn_lower_convert(l, im, &kn_type_float64, ft));
}

static LLVMValueRef
cplx_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    LLVMValueRef ar = cplx_part(l, a, 0), ai = cplx_part(l, a, 1);
    LLVMValueRef br = cplx_part(l, b, 0), bi = cplx_part(l, b, 1);
    switch (op) {
    case KN_BIN_ADD:
        return kn_lower_cplx(l, t, kn_lower_fmf(l, LLVMBuildFAdd(l->b, ar, br, "")),
                             kn_lower_fmf(l, LLVMBuildFAdd(l->b, ai, bi, "")));
    case KN_BIN_SUB:
        return kn_lower_cplx(l, t, kn_lower_fmf(l, LLVMBuildFSub(l->b, ar, br, "")),
                             kn_lower_fmf(l, LLVMBuildFSub(l->b, ai, bi, "")));
    case KN_BIN_MUL: {
        LLVMValueRef re = LLVMBuildFSub(l->b, kn_lower_fmf(l, LLVMBuildFMul(l->b, ar, br, "")),
                                        kn_lower_fmf(l, LLVMBuildFMul(l->b, ai, bi, "")), "");
        LLVMValueRef im = LLVMBuildFAdd(l->b, kn_lower_fmf(l, LLVMBuildFMul(l->b, ar, bi, "")),
                                        kn_lower_fmf(l, LLVMBuildFMul(l->b, ai, br, "")), "");
        return kn_lower_cplx(l, t, kn_lower_fmf(l, re), kn_lower_fmf(l, im));
    }
    case KN_BIN_TRUEDIV: {
        if (l->c->error_model_python && !l->in_ufunc) {
            LLVMValueRef z = LLVMConstNull(LLVMTypeOf(br));
            LLVMValueRef both = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, br, z, ""),
                                             LLVMBuildFCmp(l->b, LLVMRealOEQ, bi, z, ""), "");
            kn_lower_raise_if(l, both, KN_EXC_COMPLEX_DIV_ZERO);
        }
        return cplx_helper(l, "kn_rt_cdiv", a, b, t);
    }
    case KN_BIN_POW:
        if (l->c->error_model_python && !l->in_ufunc) { /* 0j ** -1, 0j ** 1j: as CPython */
            LLVMValueRef z = LLVMConstNull(LLVMTypeOf(br));
            LLVMValueRef a0 = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, ar, z, ""),
                                           LLVMBuildFCmp(l->b, LLVMRealOEQ, ai, z, ""), "");
            LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealUNE, bi, z, ""),
                                           LLVMBuildFCmp(l->b, LLVMRealOLT, br, z, ""), "");
            kn_lower_raise_if(l, LLVMBuildAnd(l->b, a0, bad, ""), KN_EXC_COMPLEX_ZERO_POW);
        }
        return cplx_helper(l, "kn_rt_cpow", a, b, t);
    default:
        return NULL;
    }
}

LLVMValueRef
kn_lower_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *operand,
               const KnType *ta, const KnType *tb)
{
    a = kn_lower_convert(l, a, ta, operand);
    b = kn_lower_convert(l, b, tb, operand);
    switch (operand->kind) {
    case KN_TY_BOOL:
        return int_binop(l, op, a, b, operand);
    case KN_TY_INT:
        return int_binop(l, op, a, b, operand);
    case KN_TY_FLOAT:
        if (op == KN_BIN_POW && is_intlike(tb) && l->c->error_model_python && !l->in_ufunc) {
            /* 0.0 ** -1 raises ZeroDivisionError, as CPython and Numba (0.0 ** -1.0 is inf) */
            LLVMValueRef z = LLVMConstNull(LLVMTypeOf(a));
            kn_lower_raise_if(l,
                              LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, a, z, ""),
                                           LLVMBuildFCmp(l->b, LLVMRealOLT, b, z, ""), ""),
                              KN_EXC_ZERO_NEG_POW);
        }
        return float_binop(l, op, a, b, operand, is_intlike(ta) && is_intlike(tb));
    case KN_TY_COMPLEX:
        return cplx_binop(l, op, a, b, operand);
    default:
        return NULL;
    }
}

LLVMValueRef
kn_lower_unop(L *l, KnInstr *in, LLVMValueRef a)
{
    const KnType *from = in->args[0]->type, *to = in->type;
    switch (in->aux) {
    case KN_UN_NOT:
        return LLVMBuildNot(l->b, kn_lower_truth(l, a, from), "");
    case KN_UN_POS:
        return kn_lower_convert(l, a, from, to);
    case KN_UN_INVERT:
        return LLVMBuildNot(l->b, kn_lower_convert(l, a, from, to), "");
    default:
        break;
    }
    a = kn_lower_convert(l, a, from, to);
    if (to->kind == KN_TY_INT)
        return LLVMBuildNeg(l->b, a, "");
    if (to->kind == KN_TY_FLOAT)
        return kn_lower_fmf(l, LLVMBuildFNeg(l->b, a, ""));
    return kn_lower_cplx(l, to, kn_lower_fmf(l, LLVMBuildFNeg(l->b, cplx_part(l, a, 0), "")),
                         kn_lower_fmf(l, LLVMBuildFNeg(l->b, cplx_part(l, a, 1), "")));
}

/* ---- comparisons ---- */

static LLVMValueRef
cmp_scalar(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    if (t->kind == KN_TY_FLOAT) {
        static const LLVMRealPredicate p[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                              LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
        return kn_lower_fmf(l, LLVMBuildFCmp(l->b, p[op], a, b, ""));
    }
    if (t->kind == KN_TY_COMPLEX) {
        const KnType *ft = kn_type_float(t->bits / 2);
        LLVMValueRef re = cmp_scalar(l, KN_CMP_EQ, cplx_part(l, a, 0), cplx_part(l, b, 0), ft);
        LLVMValueRef im = cmp_scalar(l, KN_CMP_EQ, cplx_part(l, a, 1), cplx_part(l, b, 1), ft);
        LLVMValueRef eq = LLVMBuildAnd(l->b, re, im, "");
        if (op == KN_CMP_EQ || op == KN_CMP_NE)
            return op == KN_CMP_EQ ? eq : LLVMBuildNot(l->b, eq, "");
        /* NumPy orders complex numbers by real part, then imaginary part */
        LLVMValueRef rlt = cmp_scalar(l, op, cplx_part(l, a, 0), cplx_part(l, b, 0), ft);
        KnCmp strict = op == KN_CMP_LE ? KN_CMP_LT : op == KN_CMP_GE ? KN_CMP_GT : op;
        LLVMValueRef rs = cmp_scalar(l, strict, cplx_part(l, a, 0), cplx_part(l, b, 0), ft);
        LLVMValueRef ilt = cmp_scalar(l, op, cplx_part(l, a, 1), cplx_part(l, b, 1), ft);
        KN_UNUSED(rlt);
        return LLVMBuildOr(l->b, rs, LLVMBuildAnd(l->b, re, ilt, ""), "");
    }
    int s = t->kind == KN_TY_INT && t->is_signed;
    static const LLVMIntPredicate sp[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntSLT,
                                          LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntULT,
                                          LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    return LLVMBuildICmp(l->b, s ? sp[op] : up[op], a, b, "");
}

/* Lexicographic tuple ordering: decided by the first unequal pair, else by the lengths. */
static LLVMValueRef
tuple_order(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    int n = ta->n < tb->n ? ta->n : tb->n;
    int by_len = op == KN_CMP_LT   ? ta->n < tb->n
                 : op == KN_CMP_LE ? ta->n <= tb->n
                 : op == KN_CMP_GT ? ta->n > tb->n
                                   : ta->n >= tb->n;
    KnCmp strict = (op == KN_CMP_LT || op == KN_CMP_LE) ? KN_CMP_LT : KN_CMP_GT;
    LLVMValueRef r = LLVMConstInt(l->i1, (unsigned long long)by_len, 0);
    for (int i = n - 1; i >= 0; i--) {
        LLVMValueRef x = LLVMBuildExtractValue(l->b, a, (unsigned)i, "");
        LLVMValueRef y = LLVMBuildExtractValue(l->b, b, (unsigned)i, "");
        KnType *p = kn_type_promote(ta->items[i], tb->items[i]);
        LLVMValueRef eq = kn_lower_cmp(l, KN_CMP_EQ, x, y, ta->items[i], tb->items[i], p);
        LLVMValueRef lt = kn_lower_cmp(l, strict, x, y, ta->items[i], tb->items[i], p);
        r = LLVMBuildSelect(l->b, eq, r, lt, "");
    }
    return r;
}

/* x in t (tuple or range) */
static LLVMValueRef
contains(L *l, LLVMValueRef x, LLVMValueRef t, const KnType *tx, const KnType *tt)
{
    if (tt->kind == KN_TY_RANGE) {
        if (tx->kind == KN_TY_FLOAT) {
            /* a float is in a range when it is integral and its int is */
            LLVMValueRef fl = LLVMBuildFCmp(
                l->b, LLVMRealOEQ, x,
                kn_lower_intrinsic(l, "llvm.trunc", (LLVMTypeRef[]){LLVMTypeOf(x)}, 1, &x, 1), "");
            LLVMValueRef i = kn_lower_convert(l, x, tx, &kn_type_int64);
            return LLVMBuildAnd(l->b, fl, contains(l, i, t, &kn_type_int64, tt), "");
        }
        LLVMValueRef v = kn_lower_convert(l, x, tx, &kn_type_int64);
        LLVMValueRef start = LLVMBuildExtractValue(l->b, t, 0, "");
        LLVMValueRef step = LLVMBuildExtractValue(l->b, t, 2, "");
        LLVMValueRef off = LLVMBuildSub(l->b, v, start, "");
        LLVMValueRef k = LLVMBuildSDiv(l->b, off, step, "");
        LLVMValueRef exact = LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildSRem(l->b, off, step, ""),
                                           LLVMConstInt(l->i64, 0, 0), "");
        LLVMValueRef inr =
            LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, k, LLVMConstInt(l->i64, 0, 0), ""),
                         LLVMBuildICmp(l->b, LLVMIntSLT, k, kn_lower_range_len(l, t), ""), "");
        return LLVMBuildAnd(l->b, exact, inr, "");
    }
    LLVMValueRef any = LLVMConstInt(l->i1, 0, 0);
    for (int i = 0; i < tt->n; i++) {
        LLVMValueRef y = LLVMBuildExtractValue(l->b, t, (unsigned)i, "");
        KnType *p = kn_type_promote((KnType *)tx, tt->items[i]);
        any = LLVMBuildOr(l->b, any, kn_lower_cmp(l, KN_CMP_EQ, x, y, tx, tt->items[i], p), "");
    }
    return any;
}

LLVMValueRef
kn_lower_cmp(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb,
             const KnType *operand)
{
    if (op == KN_CMP_IN || op == KN_CMP_NOTIN) {
        LLVMValueRef r = contains(l, a, b, ta, tb);
        return op == KN_CMP_IN ? r : LLVMBuildNot(l->b, r, "");
    }
    if (ta->kind == KN_TY_TUPLE && tb->kind == KN_TY_TUPLE &&
        !(kn_type_all_numbers(ta) && kn_type_all_numbers(tb)))
        return kn_lower_value_compare(l, op, a, b, ta, tb); /* strs, lists: lower/list.c */
    if (ta->kind == KN_TY_TUPLE && op != KN_CMP_EQ && op != KN_CMP_NE)
        return tuple_order(l, op, a, b, ta, tb);
    if (ta->kind == KN_TY_TUPLE) {
        LLVMValueRef all = LLVMConstInt(l->i1, ta->n == tb->n, 0);
        for (int i = 0; ta->n == tb->n && i < ta->n; i++) {
            const KnType *p = kn_type_promote(ta->items[i], tb->items[i]);
            LLVMValueRef x = kn_lower_convert(l, LLVMBuildExtractValue(l->b, a, (unsigned)i, ""),
                                              ta->items[i], p);
            LLVMValueRef y = kn_lower_convert(l, LLVMBuildExtractValue(l->b, b, (unsigned)i, ""),
                                              tb->items[i], p);
            all = LLVMBuildAnd(l->b, all, cmp_scalar(l, KN_CMP_EQ, x, y, p), "");
        }
        return op == KN_CMP_EQ ? all : LLVMBuildNot(l->b, all, "");
    }
    if (!operand)
        return NULL;
    /* a bool against a uint64: in uint64, where 0 and 1 are exact (promoting the bool to int64
     * would take a uint64 of 2**63 or more as negative) */
    if ((ta->kind == KN_TY_BOOL && tb->kind == KN_TY_INT && !tb->is_signed && tb->bits == 64) ||
        (tb->kind == KN_TY_BOOL && ta->kind == KN_TY_INT && !ta->is_signed && ta->bits == 64))
        return cmp_scalar(l, op, kn_lower_convert(l, a, ta, &kn_type_uint64),
                          kn_lower_convert(l, b, tb, &kn_type_uint64), &kn_type_uint64);
    /* int64 against uint64 compares as Python ints would, not as doubles */
    if (ta->kind == KN_TY_INT && tb->kind == KN_TY_INT && ta->is_signed != tb->is_signed &&
        (ta->bits == 64 || tb->bits == 64)) {
        LLVMValueRef x =
            kn_lower_convert(l, a, ta, ta->is_signed ? &kn_type_int64 : &kn_type_uint64);
        LLVMValueRef y =
            kn_lower_convert(l, b, tb, tb->is_signed ? &kn_type_int64 : &kn_type_uint64);
        LLVMValueRef sneg =
            ta->is_signed ? LLVMBuildICmp(l->b, LLVMIntSLT, x, LLVMConstInt(l->i64, 0, 0), "")
                          : LLVMBuildICmp(l->b, LLVMIntSLT, y, LLVMConstInt(l->i64, 0, 0), "");
        LLVMValueRef u = cmp_scalar(l, op, x, y, &kn_type_uint64);
        /* a negative signed operand is below every unsigned value */
        int signed_is_left = ta->is_signed;
        LLVMValueRef when_neg;
        switch (op) {
        case KN_CMP_EQ:
            when_neg = LLVMConstInt(l->i1, 0, 0);
            break;
        case KN_CMP_NE:
            when_neg = LLVMConstInt(l->i1, 1, 0);
            break;
        case KN_CMP_LT:
        case KN_CMP_LE:
            when_neg = LLVMConstInt(l->i1, signed_is_left, 0);
            break;
        default:
            when_neg = LLVMConstInt(l->i1, !signed_is_left, 0);
            break;
        }
        return LLVMBuildSelect(l->b, sneg, when_neg, u, "");
    }
    a = kn_lower_convert(l, a, ta, operand);
    b = kn_lower_convert(l, b, tb, operand);
    return cmp_scalar(l, op, a, b, operand);
}
