/* model_number.c - the lowering model of the numbers: bool is an i1, ints iN, floats float or
 * double, complex numbers a {re, im} struct of floats. Conversions between them (Python's and
 * NumPy's: float to int truncates, defined for every input, scalar.c's kn_lower_float_to_int)
 * and their truth values (nonzero; a complex is true when either part is). In C layout a bool
 * is a byte. Numbers hold no references. */
#include "lower/internal.h"

static LLVMValueRef
cplx_part(L *l, LLVMValueRef v, unsigned i)
{
    return LLVMBuildExtractValue(l->b, v, i, "");
}

static LLVMTypeRef
number_type(L *l, const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
        return l->i1;
    case KN_TY_INT:
        return LLVMIntTypeInContext(l->ctx, (unsigned)t->bits);
    case KN_TY_FLOAT:
        return t->bits == 16 ? LLVMHalfTypeInContext(l->ctx) : t->bits == 32 ? l->f32 : l->f64;
    default: {
        LLVMTypeRef f = t->bits == 64 ? l->f32 : l->f64;
        LLVMTypeRef fs[2] = {f, f};
        return LLVMStructTypeInContext(l->ctx, fs, 2, 0);
    }
    }
}

static LLVMValueRef
int_to(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    int sgn = from->kind == KN_TY_INT && from->is_signed;
    LLVMTypeRef tt = kn_lower_type(l, to);
    switch (to->kind) {
    case KN_TY_BOOL:
        return LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    case KN_TY_INT:
        if (from->kind == KN_TY_BOOL)
            return LLVMBuildZExt(l->b, v, tt, "");
        if (to->bits < from->bits)
            return LLVMBuildTrunc(l->b, v, tt, "");
        if (to->bits > from->bits)
            return sgn ? LLVMBuildSExt(l->b, v, tt, "") : LLVMBuildZExt(l->b, v, tt, "");
        return v;
    case KN_TY_FLOAT:
        if (to->bits == 16) /* NumPy rounds an int to float16 once, from its double */
            return LLVMBuildFPTrunc(l->b, int_to(l, v, from, &kn_type_float64), tt, "");
        return sgn ? LLVMBuildSIToFP(l->b, v, tt, "") : LLVMBuildUIToFP(l->b, v, tt, "");
    case KN_TY_COMPLEX: {
        const KnType *ft = kn_type_float(to->bits / 2);
        return kn_lower_cplx(l, to, int_to(l, v, from, ft), kn_lower_const_f(l, ft, 0.0));
    }
    default:
        return NULL;
    }
}

static LLVMValueRef
float_to(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    LLVMTypeRef tt = kn_lower_type(l, to);
    switch (to->kind) {
    case KN_TY_BOOL:
        return LLVMBuildFCmp(l->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    case KN_TY_INT:
        if (from->bits == 16) /* a float16 converts through its float32 */
            return kn_lower_float_to_int(l, LLVMBuildFPExt(l->b, v, l->f32, ""), &kn_type_float32,
                                         to);
        return kn_lower_float_to_int(l, v, from, to);
    case KN_TY_FLOAT:
        if (to->bits < from->bits)
            return LLVMBuildFPTrunc(l->b, v, tt, "");
        if (to->bits > from->bits)
            return LLVMBuildFPExt(l->b, v, tt, "");
        return v;
    case KN_TY_COMPLEX: {
        const KnType *ft = kn_type_float(to->bits / 2);
        return kn_lower_cplx(l, to, float_to(l, v, from, ft), kn_lower_const_f(l, ft, 0.0));
    }
    default:
        return NULL;
    }
}

static LLVMValueRef
number_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    switch (from->kind) {
    case KN_TY_BOOL:
    case KN_TY_INT:
        return int_to(l, v, from, to);
    case KN_TY_FLOAT:
        return float_to(l, v, from, to);
    default:
        if (to->kind == KN_TY_COMPLEX) {
            const KnType *ff = kn_type_float(from->bits / 2), *tf = kn_type_float(to->bits / 2);
            return kn_lower_cplx(l, to, float_to(l, cplx_part(l, v, 0), ff, tf),
                                 float_to(l, cplx_part(l, v, 1), ff, tf));
        }
        if (to->kind == KN_TY_BOOL)
            return kn_lower_truth(l, v, from);
        return NULL;
    }
}

static LLVMValueRef
number_truth(L *l, LLVMValueRef v, const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
        return v;
    case KN_TY_INT:
    case KN_TY_FLOAT:
        return kn_lower_convert(l, v, t, &kn_type_bool);
    default: {
        const KnType *ft = kn_type_float(t->bits / 2);
        LLVMValueRef re = kn_lower_convert(l, cplx_part(l, v, 0), ft, &kn_type_bool);
        LLVMValueRef im = kn_lower_convert(l, cplx_part(l, v, 1), ft, &kn_type_bool);
        return LLVMBuildOr(l->b, re, im, "");
    }
    }
}

/* In C layout a bool is a byte. */
static LLVMValueRef
number_load_c(L *l, const KnType *t, LLVMValueRef p)
{
    if (t->kind == KN_TY_BOOL) {
        LLVMValueRef byte = LLVMBuildLoad2(l->b, l->i8, p, "");
        return LLVMBuildICmp(l->b, LLVMIntNE, byte, LLVMConstInt(l->i8, 0, 0), "");
    }
    return LLVMBuildLoad2(l->b, kn_lower_type(l, t), p, "");
}

static void
number_store_c(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p)
{
    if (t->kind == KN_TY_BOOL)
        v = LLVMBuildZExt(l->b, v, l->i8, "");
    LLVMBuildStore(l->b, v, p);
}

const KnLowerModel kn_lower_model_number = {
    .type = number_type,
    .load_c = number_load_c,
    .store_c = number_store_c,
    .truth = number_truth,
    .convert = number_convert,
};
