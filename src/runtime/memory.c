/* memory.c - the runtime's allocation counters. Compiled code allocates nothing yet (arrays
 * arrive with the memory runtime); the counters exist now so that every test can already
 * assert that allocations and frees balance. They are process-wide atomics because compiled
 * code updates them without a context pointer, as Numba's NRT does. */
#include "runtime/runtime.h"

#include <stdatomic.h>

static _Atomic int64_t counters[4]; /* alloc, free, mi_alloc, mi_free */

void
kn_rt_stats(KnRtStats *out)
{
    out->alloc = atomic_load(&counters[0]);
    out->free = atomic_load(&counters[1]);
    out->mi_alloc = atomic_load(&counters[2]);
    out->mi_free = atomic_load(&counters[3]);
}
