/* pool.h - kiln's thread pool: the parallel regions compiled code and the ufunc loops enter.
 *
 * A region runs a loop body over the iterations [0, n) on the calling thread and the pool's
 * workers. The body is an outlined function (passes/ or lower/ build it for a prange loop or an
 * array expression; ufunc/ has C ones) called once per chunk with the chunk's bounds and the
 * index of the thread running it within the region, which selects its reduction slot. The pool
 * is kiln's own (no OpenMP or TBB): a region entered from inside a region runs inline on the
 * thread that entered it, concurrent regions from several threads never abort, and a forked
 * child makes a new pool. Uses base/ only: compiled code links against it (symbols.def), and
 * module.c installs the hooks that release the GIL around a region. */
#ifndef KN_PARALLEL_POOL_H
#define KN_PARALLEL_POOL_H

#include <stdint.h>

/* One chunk: iterations [lo, hi) on region thread `tid` (0 is the thread that entered the
 * region; tid < kn_par_region_size() as asked before the region). Returns 0, or nonzero when
 * the chunk failed (an exception): the region stops handing out chunks and kn_par_for returns
 * the first failing status. */
typedef int32_t (*KnParBody)(void *ctx, int64_t lo, int64_t hi, int64_t tid);

/* Run `body` over [0, n). chunk < 0: static scheduling (one contiguous share per thread, the
 * remainder spread over the first ones); chunk > 0: dynamic, max(1, n / chunk) near-equal
 * chunks handed out by a counter; chunk == 0: this thread's set_parallel_chunksize (0: static).
 * Runs inline as one call body(ctx, 0, n, 0) when nested in a region; runs the same shares
 * with the same tids one after another on the calling thread (so results do not depend on
 * it) when n == 1, when one thread is asked for, when another thread's region has the pool, or
 * when the body's measured cost says the work would not pay for a region. The body is never
 * called with an empty range. Returns 0 or the status of the first chunk that failed (chunks
 * not started then are skipped); *failed_tid (when not NULL) is that chunk's tid. */
int32_t kn_par_for(KnParBody body, void *ctx, int64_t n, int64_t chunk, int64_t *failed_tid);

/* How many tids the next kn_par_for from this thread may pass to its body (1 when nested):
 * the number of reduction slots its caller allocates. */
int64_t kn_par_region_size(void);

/* Numba's API. num_threads: the threads a region started by this thread uses (per thread, 1 to
 * the pool's size; set_num_threads returns -1 for a value out of range); the pool's size is
 * NUMBA_NUM_THREADS (KILN_NUM_THREADS / NUMBA_NUM_THREADS, else the CPUs this process may run
 * on). thread_id: 0 outside the pool's workers, 1.. in them. chunksize: the default `chunk`
 * of regions this thread starts (0: static). */
int64_t kn_par_num_threads(void);
int64_t kn_par_set_num_threads(int64_t n);
int64_t kn_par_max_threads(void);
int64_t kn_par_thread_id(void);
int64_t kn_par_chunksize(void);
int64_t kn_par_set_chunksize(int64_t n); /* returns the previous one */

/* The GIL: module.c installs a function that releases it when the calling thread holds it
 * (returning a token, NULL when not held) and one that takes it back. */
typedef void *(*KnParReleaseFn)(void);
typedef void (*KnParAcquireFn)(void *token);
void kn_par_set_gil_hooks(KnParReleaseFn release, KnParAcquireFn acquire);

/* Tuning, for tests and benchmarks (values < 0 leave a setting as it is): how long a waiting
 * thread spins before it sleeps (KILN_SPIN_US) and the work in ns below which a region runs
 * inline (KILN_PAR_MIN_NS; 0: never for that reason). Not callable from compiled code. */
void kn_par_tuning(int64_t spin_us, int64_t min_work_ns);

#endif
