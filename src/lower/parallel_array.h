/* parallel_array.h - parallel array expressions, reductions and fills (lower/parallel_array.c):
 * under parallel=True, the outer counted loop of an operation the array files lower is built
 * as a KnParBody of its own (src/parallel/pool.h) and run by kn_par_for. Included by the array
 * files that call it (elementwise.c, reduce.c, create.c, array.c). */
#ifndef KN_LOWER_PARALLEL_ARRAY_H
#define KN_LOWER_PARALLEL_ARRAY_H

#include "lower/array.h"

/* Emits the loop over [lo, hi) of one chunk into the body function being built (l->fn is it;
 * entry allocas are its own); tid is the chunk's region thread (an i64). Any value of the
 * enclosing function may be used: the region passes it through the body's context. */
typedef void (*KnParGen)(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx);

typedef struct KnParRegion {
    const char *what;   /* the diagnostics note ("array expression"); NULL: no note */
    LLVMValueRef n;     /* iterations of the outer loop (i64) */
    LLVMValueRef work;  /* elements it touches (i64; NULL: n): below KN_PAR_MIN_WORK, serial */
    int fixed_chunks;   /* static chunks whatever the thread's chunksize (reductions) */
    LLVMValueRef slots; /* memory of the enclosing function the body may write (or NULL) */
    KnParGen gen;
    void *ctx;
} KnParRegion;

/* Under parallel=True, build the region's body and run it over [0, n) on the pool (inline when
 * the work is small); returns 1. Returns 0, with nothing emitted, when the function is not
 * parallel, or the body could raise (it then stays serial, with a note saying so): the caller
 * lowers its serial loop as usual. */
int kn_lower_par_region(L *l, const KnParRegion *r);

/* A loop over [lo, hi) (kn_lower_loop_begin's, from lo). */
void kn_lower_par_loop_begin(L *l, Loop *lp, LLVMValueRef lo, LLVMValueRef hi);

/* Reduction slots: one per region thread, 64 bytes apart (a cache line), a partial value at
 * offset 0 and a `seen` byte at KN_PAR_SEEN. kn_lower_par_slots allocates them on the stack
 * (with their seen bytes cleared) and returns the pointer and, in *count, how many. */
enum { KN_PAR_SLOT = 64, KN_PAR_SEEN = 48 };
LLVMValueRef kn_lower_par_slots(L *l, LLVMValueRef *count, LLVMValueRef *saved_stack);
void kn_lower_par_slots_free(L *l, LLVMValueRef saved_stack);

/* A parallel fill of the C array a with x (already of a's dtype); 1 when done. */
int kn_lower_par_fill(L *l, const char *what, LLVMValueRef a, const KnType *t, LLVMValueRef x);
/* A parallel memset to 0 of a's bytes (np.zeros); 1 when done. */
int kn_lower_par_zero(L *l, const char *what, LLVMValueRef a, const KnType *t);

#endif
