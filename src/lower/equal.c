/* equal.c - deep equality of values that tables hold, for == of dicts whose values are arrays,
 * lists, dicts or sets (lower/dict.c) and of lists of dicts (lower/list.c).
 *
 * An array value equals another as Numba compares them in a dict (`va == vb` then its truth):
 * one element each compares the two elements; an empty operand is NumPy's "truth value of an
 * empty array is ambiguous" ValueError, more than one element its "more than one element"
 * ValueError. Both errors are statuses here (negative), raised by the caller, since the
 * comparison runs inside a function emitted into the module that cannot raise itself. */
#include "lower/array.h"
#include "lower/list.h"

LLVMValueRef
kn_lower_array_value_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    LLVMValueRef na = field(l, a, F_NITEMS), nb = field(l, b, F_NITEMS);
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0), zero = LLVMConstInt(l->i64, 0, 0);
    LLVMValueRef empty = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, na, zero, ""),
                                     LLVMBuildICmp(l->b, LLVMIntEQ, nb, zero, ""), "");
    LLVMValueRef single = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, na, one, ""),
                                       LLVMBuildICmp(l->b, LLVMIntEQ, nb, one, ""), "");
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i32, "aeq");
    LLVMBuildStore(l->b,
                   LLVMBuildSelect(l->b, empty, LLVMConstInt(l->i32, (unsigned)KN_EQ_EMPTY, 1),
                                   LLVMConstInt(l->i32, (unsigned)KN_EQ_AMBIGUOUS, 1), ""),
                   r);
    LLVMBasicBlockRef cmp = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "aeq.one");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "aeq.end");
    LLVMBuildCondBr(l->b, single, cmp, end);
    LLVMPositionBuilderAtEnd(l->b, cmp);
    LLVMValueRef x = load_elem(l, ta->dtype, field(l, a, F_DATA));
    LLVMValueRef y = load_elem(l, tb->dtype, field(l, b, F_DATA));
    LLVMValueRef eq = kn_lower_cmp(l, KN_CMP_EQ, x, y, ta->dtype, tb->dtype,
                                   kn_type_promote(ta->dtype, tb->dtype));
    LLVMBuildStore(l->b, LLVMBuildZExt(l->b, eq, l->i32, ""), r);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, end);
    return LLVMBuildLoad2(l->b, l->i32, r, "");
}

void
kn_lower_raise_eq_status(L *l, LLVMValueRef status)
{
    kn_lower_raise_if(
        l,
        LLVMBuildICmp(l->b, LLVMIntEQ, status, LLVMConstInt(l->i32, (unsigned)KN_EQ_EMPTY, 1), ""),
        KN_EXC_ARRAY_TRUTH_EMPTY);
    kn_lower_raise_if(l,
                      LLVMBuildICmp(l->b, LLVMIntEQ, status,
                                    LLVMConstInt(l->i32, (unsigned)KN_EQ_AMBIGUOUS, 1), ""),
                      KN_EXC_ARRAY_TRUTH);
}

/* i32 name(ptr a, ptr b), a private function of the module over two values of t in C layout:
 * it loads both and returns body(a, b) (an i32). For the comparison callbacks the runtime's
 * containers call (value.eq here, list.lt in list.c). */
LLVMValueRef
kn_lower_pair_function(L *l, const char *name, const KnType *t, KnLowerPairBody body)
{
    LLVMTypeRef ps[2] = {l->ptr, l->ptr};
    LLVMTypeRef ft = LLVMFunctionType(l->i32, ps, 2, 0);
    LLVMValueRef f = LLVMAddFunction(l->mod, name, ft);
    LLVMSetLinkage(f, LLVMPrivateLinkage);
    LLVMBasicBlockRef saved_bb = LLVMGetInsertBlock(l->b);
    LLVMValueRef saved_fn = l->fn;
    l->fn = f;
    LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, f, "entry"));
    LLVMValueRef a = kn_lower_load_c(l, t, LLVMGetParam(f, 0));
    LLVMValueRef b = kn_lower_load_c(l, t, LLVMGetParam(f, 1));
    LLVMBuildRet(l->b, body(l, a, b, t));
    l->fn = saved_fn;
    LLVMPositionBuilderAtEnd(l->b, saved_bb);
    return f;
}

static LLVMValueRef
eq_body(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    return t->kind == KN_TY_ARRAY
               ? kn_lower_array_value_eq(l, a, b, t, t)
               : LLVMBuildZExt(l->b, kn_lower_value_eq(l, a, b, t, t), l->i32, "");
}

/* i32 eq(ptr a, ptr b) over two values of t in C layout (1 equal, 0 not, or a KN_EQ_* status),
 * a private function of the module */
LLVMValueRef
kn_lower_eq_function(L *l, const KnType *t)
{
    return kn_lower_pair_function(l, "value.eq", t, eq_body);
}
