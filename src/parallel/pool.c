/* pool.c - the thread pool (pool.h). For now every region runs inline on the calling thread:
 * one chunk, tid 0. The interface is the final one, so compiled code, the ufunc loops and the
 * tests are written against it while the workers are built. */
#include "parallel/pool.h"

#include <stddef.h>

static _Thread_local int64_t chunksize;
static KnParReleaseFn gil_release;
static KnParAcquireFn gil_acquire;

int32_t
kn_par_for(KnParBody body, void *ctx, int64_t n, int64_t chunk, int64_t *failed_tid)
{
    (void)chunk;
    if (n <= 0)
        return 0;
    int32_t st = body(ctx, 0, n, 0);
    if (st && failed_tid)
        *failed_tid = 0;
    return st;
}

int64_t
kn_par_region_size(void)
{
    return 1;
}

int64_t
kn_par_num_threads(void)
{
    return 1;
}

int64_t
kn_par_set_num_threads(int64_t n)
{
    return n == 1 ? 0 : -1;
}

int64_t
kn_par_max_threads(void)
{
    return 1;
}

int64_t
kn_par_thread_id(void)
{
    return 0;
}

int64_t
kn_par_chunksize(void)
{
    return chunksize;
}

int64_t
kn_par_set_chunksize(int64_t n)
{
    int64_t old = chunksize;
    chunksize = n < 0 ? 0 : n;
    return old;
}

void
kn_par_set_gil_hooks(KnParReleaseFn release, KnParAcquireFn acquire)
{
    gil_release = release;
    gil_acquire = acquire;
    (void)gil_release;
    (void)gil_acquire;
}
