/* threads.c - typing of the thread API's entries (lib/threads.def).
 *
 * Input: a call of get_num_threads/get_thread_id/get_parallel_chunksize (no arguments) or
 * set_num_threads/set_parallel_chunksize (one integer). Output: int64 (Numba's intp) for the
 * getters and set_parallel_chunksize (the previous size), None for set_num_threads; a
 * KN_CALL_BUILTIN impl whose operand is the argument's conversion (int64). A bool or a
 * non-integer argument is Numba's TypingError text. */
#include "typing/internal.h"

int
kn_type_rule_threads(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    const char *name = kn_kir_builtin_name(id);
    switch (id) {
    case KN_BI_THREADS_GET_NUM:
    case KN_BI_THREADS_THREAD_ID:
    case KN_BI_THREADS_GET_CHUNK:
        if (n)
            return kn_typing_err(c, in->span, "%s() takes no arguments (%d given)", name, n);
        in->type = &kn_type_int64;
        return 0;
    default: /* the setters */
        if (n != 1)
            return kn_typing_err(c, in->span, "%s() takes exactly one argument (%d given)", name,
                                 n);
        if (a[0]->kind != KN_TY_INT)
            return kn_typing_err(c, in->span, "%s",
                                 id == KN_BI_THREADS_SET_NUM
                                     ? "The number of threads specified must be an integer"
                                     : "The parallel chunksize must be an integer");
        kn_typing_impl_of(c, in)->operand = &kn_type_int64;
        in->type = id == KN_BI_THREADS_SET_NUM ? &kn_type_none : &kn_type_int64;
        return 0;
    }
}
