/* model_datetime.c - the lowering model of np.datetime64 and np.timedelta64 (one model for
 * both; types/model_datetime.c): an i64 count of the type's unit, NaT INT64_MIN. Truth: nonzero
 * (as NumPy's bool of a timedelta). Converting to another unit of the same kind keeps NaT and
 * scales: to a finer linear unit by the factor, to a coarser one by floor division, years and
 * months by 12, a date's years or months to a linear unit through its month's first day
 * (runtime/datetime.c) and back. kn_lower_time_convert is that conversion for lower/datetime.c. */
#include "lower/internal.h"

static LLVMValueRef
i64v(L *l, int64_t v)
{
    return LLVMConstInt(l->i64, (unsigned long long)v, 1);
}

/* nanoseconds-style factor between linear units a (coarser) and b (finer), a <= b */
static int64_t
linear_factor(int a, int b)
{
    static const int64_t step[KN_TU_AS] = {
        [KN_TU_W] = 7,     [KN_TU_D] = 24,    [KN_TU_H] = 60,    [KN_TU_MIN] = 60,
        [KN_TU_S] = 1000,  [KN_TU_MS] = 1000, [KN_TU_US] = 1000, [KN_TU_NS] = 1000,
        [KN_TU_PS] = 1000, [KN_TU_FS] = 1000};
    uint64_t f = 1;
    for (int u = a; u < b; u++)
        if (u != 3)
            f *= (uint64_t)(u == KN_TU_W ? 7 : step[u]);
    return (int64_t)f;
}

/* floor(v / f) for f > 0 */
static LLVMValueRef
floor_div(L *l, LLVMValueRef v, int64_t f)
{
    if (f == 1)
        return v;
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, v, i64v(l, 0), "");
    LLVMValueRef adj = LLVMBuildSelect(l->b, neg, LLVMBuildSub(l->b, v, i64v(l, f - 1), ""), v, "");
    return LLVMBuildSDiv(l->b, adj, i64v(l, f), "");
}

static LLVMValueRef
linear(L *l, LLVMValueRef v, int from, int to)
{
    if (from == to)
        return v;
    return from < to ? LLVMBuildMul(l->b, v, i64v(l, linear_factor(from, to)), "")
                     : floor_div(l, v, linear_factor(to, from));
}

static LLVMValueRef
rt(L *l, const char *name, LLVMValueRef v)
{
    LLVMTypeRef t = l->i64;
    return kn_lower_extern(l, name, l->i64, &t, 1, &v);
}

static int
calendar(int u)
{
    return u == KN_TU_Y || u == KN_TU_M;
}

LLVMValueRef
kn_lower_time_convert(L *l, LLVMValueRef v, int from, int to, int is_date)
{
    if (from == to || from == KN_TU_GENERIC || to == KN_TU_GENERIC)
        return v;
    LLVMValueRef r;
    if (calendar(from) && calendar(to)) {
        r = from == KN_TU_Y ? LLVMBuildMul(l->b, v, i64v(l, 12), "") : floor_div(l, v, 12);
    } else if (!calendar(from) && !calendar(to)) {
        r = linear(l, v, from, to);
    } else if (!is_date) {
        return NULL; /* a timedelta of years or months has no length in days */
    } else if (calendar(from)) {
        LLVMValueRef months = from == KN_TU_Y ? LLVMBuildMul(l->b, v, i64v(l, 12), "") : v;
        r = linear(l, rt(l, "kn_rt_datetime_months_to_days", months), KN_TU_D, to);
    } else {
        LLVMValueRef months = rt(l, "kn_rt_datetime_days_to_months", linear(l, v, from, KN_TU_D));
        r = to == KN_TU_Y ? floor_div(l, months, 12) : months;
    }
    LLVMValueRef nat = LLVMBuildICmp(l->b, LLVMIntEQ, v, i64v(l, INT64_MIN), "");
    return LLVMBuildSelect(l->b, nat, v, r, "");
}

static LLVMTypeRef
datetime_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return l->i64;
}

static LLVMValueRef
datetime_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(t);
    return LLVMBuildICmp(l->b, LLVMIntNE, v, i64v(l, 0), "");
}

static LLVMValueRef
datetime_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    if (from->kind != to->kind)
        return NULL;
    LLVMValueRef r = kn_lower_time_convert(l, v, from->id, to->id, from->kind == KN_TY_DATETIME);
    return r ? r : v; /* typing refuses such a conversion */
}

const KnLowerModel kn_lower_model_datetime = {
    .type = datetime_type, .truth = datetime_truth, .convert = datetime_convert};
