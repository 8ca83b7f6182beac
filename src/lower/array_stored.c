/* array_stored.c - an array value stored into a container (a list item, a dict value). The
 * container takes a reference of its own; an array borrowed from an argument (meminfo NULL,
 * parent its ndarray) has none to take, and the container may outlive the call (a
 * kiln.typed.List passed in, a list returned), so it gets a meminfo of its own that holds a
 * reference to that ndarray (kn_rt_array_hold: dispatch/typed_common.c), which boxing turns
 * back into the same ndarray. */
#include "lower/array.h"
#include "lower/list.h"

LLVMValueRef
kn_lower_array_stored(L *l, LLVMValueRef v, const KnType *t)
{
    LLVMValueRef mi = field(l, v, F_MEMINFO), parent = field(l, v, F_PARENT);
    LLVMValueRef borrowed =
        LLVMBuildAnd(l->b, LLVMBuildIsNull(l->b, mi, ""), LLVMBuildIsNotNull(l->b, parent, ""), "");
    LLVMBasicBlockRef hold = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "array.hold");
    LLVMBasicBlockRef share = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "array.share");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "array.stored");
    LLVMBuildCondBr(l->b, borrowed, hold, share);
    LLVMPositionBuilderAtEnd(l->b, hold);
    LLVMTypeRef pt = l->ptr;
    LLVMValueRef held = kn_lower_extern(l, "kn_rt_array_hold", l->ptr, &pt, 1, &parent);
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, held, ""), KN_EXC_NO_MEMORY);
    LLVMBasicBlockRef hold_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, share);
    kn_lower_incref(l, v, t);
    LLVMBasicBlockRef share_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef m = LLVMBuildPhi(l->b, l->ptr, "mi");
    LLVMValueRef vals[2] = {held, mi};
    LLVMBasicBlockRef bbs[2] = {hold_end, share_end};
    LLVMAddIncoming(m, vals, bbs, 2);
    return LLVMBuildInsertValue(l->b, v, m, F_MEMINFO, "");
}
