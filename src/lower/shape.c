/* shape.c - lowering of the shape family's C entry (lib/shape.def): as_strided builds a view
 * (kn_lower_array_rebuild: a's meminfo and parent, increfed) with the shape and strides of its
 * tuple arguments, converted to int64, and the item count their product. typing/shape.c checks
 * the arguments. */
#include "lower/array.h"

static LLVMValueRef
tuple_item(L *l, KnInstr *t, int d)
{
    LLVMValueRef v = LLVMBuildExtractValue(l->b, l->vals[t->id], (unsigned)d, "");
    return kn_lower_convert(l, v, t->type->items[d], &kn_type_int64);
}

static LLVMValueRef
lower_as_strided(L *l, KnInstr *in)
{
    KnInstr *x = kn_typing_arg(in, 0, "x"), *shape = kn_typing_arg(in, 1, "shape"),
            *strides = kn_typing_arg(in, 2, "strides");
    const KnType *vt = in->type;
    LLVMValueRef sh[32], st[32], count = i64c(l, 1);
    for (int d = 0; d < vt->ndim; d++) {
        sh[d] = tuple_item(l, shape, d);
        st[d] = tuple_item(l, strides, d);
        count = LLVMBuildMul(l->b, count, sh[d], "");
    }
    LLVMValueRef v = kn_lower_array_rebuild(l, l->vals[x->id], vt, sh, st);
    return LLVMBuildInsertValue(l->b, v, count, F_NITEMS, "");
}

LLVMValueRef
kn_lower_rule_shape(L *l, KnInstr *in, int id)
{
    (void)id;
    return lower_as_strided(l, in);
}
