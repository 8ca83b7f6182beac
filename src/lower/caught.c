/* caught.c - lowering of lib/caught.def: str(e), repr(e) and e.args of the exception an
 * `except ... as e` clause caught (typing/caught.c). The clause's exc_match saved the pending
 * KnExcInfo in its try's slot (lower/exceptions.c); one call of kn_rt_exc_caught_text
 * (dispatch/exc.c: it takes the GIL, builds the exception as the dispatcher would raise it and
 * asks Python for its str, repr or only argument) writes an owned str. Its status: 0, -1 when
 * Python failed (MemoryError), 1 when e.args does not hold exactly one str (TypeError,
 * KN_EXC_CAUGHT_ARGS). */
#include "lower/internal.h"

LLVMValueRef
kn_lower_rule_caught(L *l, KnInstr *in, int id)
{
    LLVMValueRef exc = kn_lower_exc_saved(l, (int)in->args[1]->imm.i);
    LLVMValueRef out = kn_lower_entry_alloca(l, kn_lower_str_type(l), "caught_text");
    int mode = id == KN_BI_CAUGHT_STR ? 0 : id == KN_BI_CAUGHT_REPR ? 1 : 2;
    LLVMValueRef args[3] = {exc ? exc : LLVMConstNull(l->ptr),
                            LLVMConstInt(l->i32, (unsigned long long)mode, 0), out};
    LLVMTypeRef ts[3] = {l->ptr, l->i32, l->ptr};
    LLVMValueRef rc = kn_lower_extern(l, "kn_rt_exc_caught_text", l->i32, ts, 3, args);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, rc, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
    if (mode == 2)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, rc, LLVMConstInt(l->i32, 0, 0), ""),
                          KN_EXC_CAUGHT_ARGS);
    LLVMValueRef s = LLVMBuildLoad2(l->b, kn_lower_str_type(l), out, "");
    if (mode != 2)
        return s;
    return LLVMBuildInsertValue(l->b, LLVMGetUndef(kn_lower_type(l, in->type)), s, 0, "");
}
