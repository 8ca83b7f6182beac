/* memory.c - reference-counted memory for arrays made by compiled code (as Numba's NRT): a
 * KnMemInfo holds an atomic refcount, the data and its size. Compiled code increfs and decrefs
 * meminfos as array values are copied and dropped; the dispatcher hands the last reference to a
 * Python object that owns it when an array is returned. The allocation counters are
 * process-wide atomics because compiled code updates them without a context pointer; every
 * test checks that they balance.
 *
 * Small blocks share one malloc with their meminfo (below). Large blocks: a fresh page costs a
 * fault on first touch and glibc returns blocks over its mmap threshold to the system on free, so
 * big arrays are allocated with mmap-backed memory advised for transparent huge pages, and a small
 * cache keeps a few recently freed large blocks for reuse (a kernel returning a new 80 MB array on
 * every call then touches warm memory): up to 16 blocks and 512 MB, the oldest evicted first. */
#include "runtime/runtime.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* allocations and frees; a meminfo and its buffer are made and freed together, so they count
 * for both of memory_stats()'s pairs (alloc/free and mi_alloc/mi_free) */
static _Atomic int64_t counters[2];

#define KN_BIG_BLOCK (1u << 20) /* blocks from this size are mmapped and cached */
#define KN_CACHE_SLOTS 16
#define KN_CACHE_BYTES ((size_t)512 << 20) /* at most this much kept for reuse */

typedef struct BigBlock {
    void *ptr;
    size_t size;
} BigBlock;

/* The cache of freed big blocks; guarded by a spinlock (frees come from any thread). */
static BigBlock cache[KN_CACHE_SLOTS];
static atomic_flag cache_lock = ATOMIC_FLAG_INIT;

static void
cache_acquire(void)
{
    while (atomic_flag_test_and_set_explicit(&cache_lock, memory_order_acquire))
        ;
}

static void
cache_release(void)
{
    atomic_flag_clear_explicit(&cache_lock, memory_order_release);
}

static size_t
round_big(size_t n)
{
    size_t page = 2u << 20; /* huge page size */
    return (n + page - 1) / page * page;
}

static void *
big_alloc(size_t n)
{
    size_t size = round_big(n);
    cache_acquire();
    for (int i = 0; i < KN_CACHE_SLOTS; i++)
        if (cache[i].ptr && cache[i].size == size) {
            void *p = cache[i].ptr;
            cache[i].ptr = NULL;
            cache_release();
            return p;
        }
    cache_release();
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

static void
big_free(void *p, size_t n)
{
    size_t size = round_big(n), held = 0;
    if (size > KN_CACHE_BYTES) {
        munmap(p, size);
        return;
    }
    BigBlock evicted[KN_CACHE_SLOTS];
    int nevicted = 0;
    cache_acquire();
    for (int i = 0; i < KN_CACHE_SLOTS; i++)
        held += cache[i].ptr ? cache[i].size : 0;
    /* make room: evict from the front until the block fits in the byte budget and a slot */
    for (int i = 0; i < KN_CACHE_SLOTS && held + size > KN_CACHE_BYTES; i++)
        if (cache[i].ptr) {
            held -= cache[i].size;
            evicted[nevicted++] = cache[i];
            cache[i].ptr = NULL;
        }
    int slot = -1;
    for (int i = 0; i < KN_CACHE_SLOTS && slot < 0; i++)
        if (!cache[i].ptr)
            slot = i;
    if (slot < 0) {
        evicted[nevicted++] = cache[0];
        slot = 0;
    }
    cache[slot].ptr = p;
    cache[slot].size = size;
    cache_release();
    for (int i = 0; i < nevicted; i++)
        munmap(evicted[i].ptr, evicted[i].size);
}

/* Small blocks: one malloc holds the meminfo and, 64-byte aligned after it, the data. One
 * allocation instead of two, and plain malloc instead of posix_memalign, whose aligned path
 * splits chunks: go_fast on 10x10 spent about a quarter of its call in malloc and free. */

KnMemInfo *
kn_rt_meminfo_alloc(int64_t nbytes)
{
    if (nbytes < 0) /* callers check sizes; a negative one is never allocated as 0 bytes */
        return NULL;
    size_t n = (size_t)nbytes;
    KnMemInfo *mi;
    if (n >= KN_BIG_BLOCK) {
        mi = malloc(sizeof(KnMemInfo));
        if (!mi)
            return NULL;
        if (!(mi->data = big_alloc(n))) {
            free(mi);
            return NULL;
        }
    } else {
        mi = malloc(sizeof(KnMemInfo) + 63 + n);
        if (!mi)
            return NULL;
        uintptr_t start = (uintptr_t)mi + sizeof(KnMemInfo);
        mi->data = (void *)((start + 63) & ~(uintptr_t)63);
    }
    atomic_init(&mi->refcount, 1);
    mi->size = n;
    mi->dtor = NULL;
    atomic_fetch_add_explicit(&counters[0], 1, memory_order_relaxed);
    return mi;
}

KnMemInfo *
kn_rt_meminfo_alloc_dtor(int64_t nbytes, void (*dtor)(void *data, size_t size))
{
    KnMemInfo *mi = kn_rt_meminfo_alloc(nbytes);
    if (mi)
        mi->dtor = dtor;
    return mi;
}

void
kn_rt_meminfo_free(KnMemInfo *mi)
{
    if (mi->dtor)
        mi->dtor(mi->data, mi->size);
    if (mi->size >= KN_BIG_BLOCK)
        big_free(mi->data, mi->size);
    free(mi);
    atomic_fetch_add_explicit(&counters[1], 1, memory_order_relaxed);
}

/* Scratch memory of the algorithms (sort.c, select.c): big blocks come from the same cache of
 * huge-page-advised blocks as arrays (warm memory, few TLB misses for a radix sort's scatter),
 * small ones from malloc. Not counted: every call frees its scratch before it returns. */
void *
kn_rt_scratch_alloc(size_t nbytes)
{
    return nbytes >= KN_BIG_BLOCK ? big_alloc(nbytes) : malloc(nbytes ? nbytes : 1);
}

void
kn_rt_scratch_free(void *p, size_t nbytes)
{
    if (!p)
        return;
    if (nbytes >= KN_BIG_BLOCK)
        big_free(p, nbytes);
    else
        free(p);
}

void
kn_rt_incref(KnMemInfo *mi)
{
    if (mi)
        atomic_fetch_add_explicit(&mi->refcount, 1, memory_order_relaxed);
}

void
kn_rt_decref(KnMemInfo *mi)
{
    if (mi && atomic_fetch_sub_explicit(&mi->refcount, 1, memory_order_acq_rel) == 1)
        kn_rt_meminfo_free(mi);
}

void
kn_rt_stats(KnRtStats *out)
{
    out->alloc = out->mi_alloc = atomic_load(&counters[0]);
    out->free = out->mi_free = atomic_load(&counters[1]);
}
