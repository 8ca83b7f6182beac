/* typevalues.c - lowering of types used as values (lib/typevalues.def; typing in
 * typing/typevalues.c). type(x), np.iinfo(t) and np.finfo(t) are compile-time values (an undef
 * of their dummy slot); the attributes of iinfo and finfo are constants, NumPy's values for the
 * dtype (IEEE binary32 and binary64 for the floats). */
#include "lower/internal.h"

#include <math.h>
#include <stdint.h>

LLVMValueRef
kn_lower_rule_type_value(L *l, KnInstr *in, int id)
{
    (void)id;
    return LLVMGetUndef(kn_lower_type(l, in->type));
}

static LLVMValueRef
int_limit(L *l, const KnInstr *in, const KnType *dt, int max)
{
    uint64_t v;
    if (dt->is_signed) {
        int64_t hi = (int64_t)((UINT64_C(1) << (dt->bits - 1)) - 1);
        v = (uint64_t)(max ? hi : -hi - 1);
    } else {
        v = max ? (dt->bits == 64 ? UINT64_MAX : (UINT64_C(1) << dt->bits) - 1) : 0;
    }
    return LLVMConstInt(kn_lower_type(l, in->type), v, dt->is_signed);
}

/* finfo's attributes of float16: NumPy's values */
static double
half_info(int id)
{
    switch (id) {
    case KN_BI_INFO_MAX:
        return 65504.0;
    case KN_BI_INFO_MIN:
        return -65504.0;
    case KN_BI_INFO_RESOLUTION:
        return 0.0010004043579101562; /* np.float16(1e-3) */
    default:                          /* PRECISION */
        return 3;
    }
}

/* finfo's attributes of a float of `bits` bits (16, 32 or 64): NumPy's values */
static double
float_info(int id, int bits)
{
    int f32 = bits == 32, nmant = f32 ? 23 : 52, nexp = f32 ? 8 : 11, maxexp = f32 ? 128 : 1024;
    if (bits == 16) {
        nmant = 10, nexp = 5, maxexp = 16;
        if (id == KN_BI_INFO_MAX || id == KN_BI_INFO_MIN || id == KN_BI_INFO_RESOLUTION ||
            id == KN_BI_INFO_PRECISION)
            return half_info(id);
    }
    switch (id) {
    case KN_BI_INFO_BITS:
        return bits;
    case KN_BI_INFO_EPS:
        return ldexp(1.0, -nmant);
    case KN_BI_INFO_EPSNEG:
        return ldexp(1.0, -nmant - 1);
    case KN_BI_INFO_MAX:
        return f32 ? (double)3.4028234663852886e38 : 1.7976931348623157e308;
    case KN_BI_INFO_MIN:
        return f32 ? -(double)3.4028234663852886e38 : -1.7976931348623157e308;
    case KN_BI_INFO_TINY:
    case KN_BI_INFO_SMALLEST_NORMAL:
        return ldexp(1.0, 2 - maxexp);
    case KN_BI_INFO_SMALLEST_SUBNORMAL:
        return ldexp(1.0, 2 - maxexp - nmant);
    case KN_BI_INFO_RESOLUTION:
        return f32 ? (double)1e-6f : 1e-15;
    case KN_BI_INFO_PRECISION:
        return f32 ? 6 : 15;
    case KN_BI_INFO_MAXEXP:
        return maxexp;
    case KN_BI_INFO_MINEXP:
        return 2 - maxexp;
    case KN_BI_INFO_NMANT:
        return nmant;
    case KN_BI_INFO_NEXP:
    case KN_BI_INFO_IEXP:
        return nexp;
    case KN_BI_INFO_MACHEP:
        return -nmant;
    case KN_BI_INFO_NEGEP:
        return -nmant - 1;
    default:
        return 0;
    }
}

LLVMValueRef
kn_lower_rule_info_attr(L *l, KnInstr *in, int id)
{
    const KnType *info = in->args[0]->type, *dt = info->dtype;
    if (id == KN_BI_INFO_DTYPE)
        return LLVMGetUndef(kn_lower_type(l, in->type));
    if (info->id == KN_BI_NP_IINFO) {
        if (id == KN_BI_INFO_KIND)
            return kn_lower_str_const(l, dt->is_signed ? "i" : "u");
        if (id == KN_BI_INFO_BITS)
            return LLVMConstInt(l->i64, (uint64_t)dt->bits, 0);
        return int_limit(l, in, dt, id == KN_BI_INFO_MAX);
    }
    double v = float_info(id, dt->bits);
    if (in->type->kind == KN_TY_FLOAT)
        return kn_lower_const_f(l, in->type, v);
    return LLVMConstInt(l->i64, (uint64_t)(int64_t)v, 1);
}
