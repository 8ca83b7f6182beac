/* frombuffer.c - lowering of np.frombuffer (lib/frombuffer.def; typed by typing/frombuffer.c):
 * the view of the buffer's bytes from `offset` on as `count` items of the dtype (all the items
 * that fit when count is negative), sharing the buffer's meminfo and parent (increfed, as every
 * view: kn_lower_array_rebuild). NumPy's checks, with its ValueErrors: the offset within the
 * buffer, the bytes past it a multiple of the itemsize (count < 0) or enough for count items. */
#include "lower/array.h"

static LLVMValueRef
int_arg(L *l, KnInstr *in, int i, const char *name, long long absent)
{
    KnInstr *x = kn_typing_arg(in, i, name);
    if (!x)
        return i64c(l, absent);
    return kn_lower_convert(l, l->vals[x->id], x->type, &kn_type_int64);
}

LLVMValueRef
kn_lower_rule_frombuffer(L *l, KnInstr *in, int id)
{
    (void)id;
    KnInstr *buf = kn_typing_arg(in, 0, "buffer");
    LLVMValueRef b = l->vals[buf->id];
    const KnType *vt = in->type;
    LLVMValueRef isz = i64c(l, itemsize(vt->dtype));
    LLVMValueRef nbytes =
        LLVMBuildMul(l->b, field(l, b, F_NITEMS), i64c(l, itemsize(buf->type->dtype)), "");
    LLVMValueRef count = int_arg(l, in, 2, "count", -1), off = int_arg(l, in, 3, "offset", 0);
    LLVMValueRef bad_off = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, off, i64c(l, 0), ""),
                                       LLVMBuildICmp(l->b, LLVMIntSGT, off, nbytes, ""), "");
    kn_lower_raise_if_args(l, bad_off, KN_EXC_FROMBUFFER_OFFSET, &nbytes, 1);
    LLVMValueRef rest = LLVMBuildSub(l->b, nbytes, off, "");
    LLVMValueRef all = LLVMBuildICmp(l->b, LLVMIntSLT, count, i64c(l, 0), "");
    LLVMValueRef ragged =
        LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildSRem(l->b, rest, isz, ""), i64c(l, 0), "");
    kn_lower_raise_if(l, LLVMBuildAnd(l->b, all, ragged, ""), KN_EXC_FROMBUFFER_MULTIPLE);
    /* count * itemsize > rest without overflow: count > rest / itemsize */
    LLVMValueRef short_ =
        LLVMBuildICmp(l->b, LLVMIntSGT, count, LLVMBuildSDiv(l->b, rest, isz, ""), "");
    kn_lower_raise_if(l, LLVMBuildAnd(l->b, LLVMBuildNot(l->b, all, ""), short_, ""),
                      KN_EXC_FROMBUFFER_SHORT);
    LLVMValueRef n = LLVMBuildSelect(l->b, all, LLVMBuildSDiv(l->b, rest, isz, ""), count, "");
    LLVMValueRef v = kn_lower_array_rebuild(l, b, vt, &n, &isz);
    v = LLVMBuildInsertValue(l->b, v, n, F_NITEMS, "");
    v = LLVMBuildInsertValue(l->b, v, isz, F_ITEMSIZE, "");
    return LLVMBuildInsertValue(l->b, v, offset_ptr(l, field(l, b, F_DATA), off), F_DATA, "");
}
