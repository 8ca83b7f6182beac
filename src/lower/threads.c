/* threads.c - lowering of the thread API's entries (lib/threads.def): calls of the pool's
 * kn_par_* functions (parallel/pool.h, registered with the JIT by parallel/symbols.def).
 *
 * Input: a call typed by typing/threads.c (the argument in in->args[1]). Output: the value.
 * set_num_threads(n) raises Numba's ValueError "The number of threads must be between 1 and
 * N" (N the pool's size, read at run time) when kn_par_set_num_threads refuses n;
 * set_parallel_chunksize(n < 0) raises "chunksize must be greater than or equal to zero". */
#include "lower/internal.h"

static LLVMValueRef
arg64(L *l, KnInstr *in)
{
    KnInstr *a = in->args[1];
    return kn_lower_convert(l, l->vals[a->id], a->type, &kn_type_int64);
}

LLVMValueRef
kn_lower_rule_threads(L *l, KnInstr *in, int id)
{
    LLVMTypeRef p1[1] = {l->i64};
    LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0);
    switch (id) {
    case KN_BI_THREADS_GET_NUM:
        return kn_lower_extern(l, "kn_par_num_threads", l->i64, NULL, 0, NULL);
    case KN_BI_THREADS_THREAD_ID:
        return kn_lower_extern(l, "kn_par_thread_id", l->i64, NULL, 0, NULL);
    case KN_BI_THREADS_GET_CHUNK:
        return kn_lower_extern(l, "kn_par_chunksize", l->i64, NULL, 0, NULL);
    case KN_BI_THREADS_SET_NUM: {
        LLVMValueRef n = arg64(l, in);
        LLVMValueRef st = kn_lower_extern(l, "kn_par_set_num_threads", l->i64, p1, 1, &n);
        LLVMValueRef bad = LLVMBuildICmp(l->b, LLVMIntNE, st, zero, "");
        LLVMValueRef max = kn_lower_extern(l, "kn_par_max_threads", l->i64, NULL, 0, NULL);
        kn_lower_raise_if_args(l, bad, KN_EXC_NUM_THREADS, &max, 1);
        return LLVMConstInt(l->i8, 0, 0); /* None */
    }
    default: { /* set_parallel_chunksize */
        LLVMValueRef n = arg64(l, in);
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, n, zero, ""), KN_EXC_CHUNKSIZE_NEG);
        return kn_lower_extern(l, "kn_par_set_chunksize", l->i64, p1, 1, &n);
    }
    }
}
