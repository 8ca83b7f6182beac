/* functions.c - the call of a choice among jitted functions (Numba's FunctionType: `f = sq if
 * c else cube; f(x)`, `(sq, cube)[i](x)`; typing/functions.c). The value is the index of the
 * function in the choice's items; the call is a switch on it to one direct call per function
 * (each may be inlined by LLVM), whose results, converted to the call's unified type, meet in a
 * phi. See docs/internals.md, "Functions as values and closures". */
#include "lower/internal.h"

LLVMValueRef
kn_lower_choice_call(L *l, KnInstr *in, LLVMValueRef *vals, KnType **types, int n)
{
    KnCallImpl *impl = in->impl;
    const KnType *ct = in->args[0]->type;
    LLVMValueRef idx = l->vals[in->args[0]->id];
    LLVMTypeRef rt = kn_lower_type(l, in->type);
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "fv.done");
    LLVMBasicBlockRef none = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "fv.none");
    LLVMValueRef sw = LLVMBuildSwitch(l->b, idx, none, (unsigned)ct->n);
    LLVMValueRef ins[64];
    LLVMBasicBlockRef from[64];
    int m = 0;
    for (int k = 0; k < ct->n && k < 64; k++) {
        LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "fv.call");
        LLVMAddCase(sw, LLVMConstInt(l->i64, (unsigned)k, 0), bb);
        LLVMPositionBuilderAtEnd(l->b, bb);
        KnCallImpl one = *impl;
        one.callee = impl->choices[k];
        one.choices = NULL;
        KnInstr call = *in;
        call.type = impl->choices[k].ret;
        call.impl = &one;
        LLVMValueRef v = kn_lower_jitted_values(l, &call, &one, vals, types, n);
        ins[m] = kn_lower_convert(l, v, call.type, in->type);
        from[m++] = LLVMGetInsertBlock(l->b);
        LLVMBuildBr(l->b, done);
    }
    LLVMPositionBuilderAtEnd(l->b, none);
    LLVMBuildUnreachable(l->b);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef phi = LLVMBuildPhi(l->b, rt, "fv");
    LLVMAddIncoming(phi, ins, from, (unsigned)m);
    return phi;
}
