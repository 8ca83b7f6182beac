/* pool.c - kiln's thread pool (pool.h): persistent workers, a region at a time, C11 atomics,
 * pthreads and the Linux futex; no OpenMP or TBB.
 *
 * Workers. The pool has NUMBA_NUM_THREADS threads in all: the thread that enters a region
 * (region tid 0) and size - 1 workers (tids 1 ..), created on the first region that runs in
 * parallel, with every signal blocked (Python's handlers stay on the main thread). A worker
 * waits for its slot's sequence word to change: it spins KILN_SPIN_US microseconds (default
 * 50) and then sleeps on the word with FUTEX_WAIT; the thread that starts a region bumps the
 * word of each worker it uses (no more than there are shares or chunks) and wakes only the
 * ones asleep. The caller waits for the last worker the same way (spin, then futex), after
 * running its own share.
 *
 * Schedule. chunk < 0 or (chunk == 0 and the thread's set_parallel_chunksize is 0): static, one
 * contiguous share per region thread, the remainder spread over the first shares; chunk > 0:
 * dynamic, max(1, n / chunk) near-equal chunks handed out by an atomic counter (Numba's
 * meaning of the chunk size). A failing chunk stores its status once (the first wins); chunks
 * not yet started are then skipped. The body is never called with an empty range.
 *
 * Inline. A region runs on its caller alone when nested in a region (one call, tid 0), when n
 * is 1, when the thread asked for one thread, when the pool is busy with another thread's
 * region (concurrent regions never wait for each other, so they cannot deadlock), and when the
 * work is estimated too small to pay for the fork/join: each body's cost per iteration is
 * timed on the caller's share and kept in a small table (it follows a lower measurement at
 * once and a higher one by an eighth of the difference, so that a preempted measurement does
 * not count much); below KILN_PAR_MIN_NS nanoseconds of work (default 4000) the next region of
 * that body runs inline. Inline regions other than the
 * nested one run the same shares with the same tids one after another, so a result (a float
 * reduction combined in tid order) does not depend on whether the region ran in parallel.
 *
 * Fork. pthread_atfork's child handler forgets the workers (they do not exist in the child);
 * the child's first parallel region starts new ones. Uses base/ only. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include "parallel/pool.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#error "kiln's thread pool needs the Linux futex"
#endif

#define KN_POOL_MAX 1024  /* threads, as an upper bound for NUMBA_NUM_THREADS */
#define KN_POOL_LINE 64   /* cache line */
#define KN_EST_SLOTS 256  /* bodies whose cost per iteration is remembered */
#define KN_PS_PER_NS 1000 /* the cost table counts picoseconds */

/* ---- settings ------------------------------------------------------------------------------ */

static int64_t pool_size;           /* NUMBA_NUM_THREADS: 0 until read */
static _Atomic int64_t spin_ns;     /* KILN_SPIN_US, in ns */
static _Atomic int64_t min_work_ns; /* KILN_PAR_MIN_NS */

/* a positive integer environment variable, or 0 when unset or not one */
static int64_t
env_count(const char *name)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (end && (*end == ' ' || *end == '\t' || *end == '\n'))
        end++;
    if (errno || !end || *end || v < 1)
        return 0;
    return v > KN_POOL_MAX ? KN_POOL_MAX : v;
}

static int64_t
cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

static int64_t
env_or(const char *name, int64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    return end && !*end && v >= 0 ? v : dflt;
}

static void
read_settings(void)
{
    int64_t n = env_count("KILN_NUM_THREADS");
    if (!n)
        n = env_count("NUMBA_NUM_THREADS");
    if (!n)
        n = cpu_count();
    spin_ns = env_or("KILN_SPIN_US", 50) * 1000;
    min_work_ns = env_or("KILN_PAR_MIN_NS", 4000);
    __atomic_store_n(&pool_size, n, __ATOMIC_RELEASE);
}

void
kn_par_tuning(int64_t spin_us, int64_t min_ns)
{
    kn_par_max_threads();
    if (spin_us >= 0)
        spin_ns = spin_us * 1000;
    if (min_ns >= 0)
        min_work_ns = min_ns;
}

int64_t
kn_par_max_threads(void)
{
    int64_t n = __atomic_load_n(&pool_size, __ATOMIC_ACQUIRE);
    if (!n) {
        read_settings(); /* idempotent: every thread computes the same values */
        n = pool_size;
    }
    return n;
}

/* ---- per-thread state ---------------------------------------------------------------------- */

static _Thread_local int64_t tls_threads;   /* set_num_threads; 0: the pool's size */
static _Thread_local int64_t tls_chunksize; /* set_parallel_chunksize */
static _Thread_local int64_t tls_worker;    /* 0 outside workers, 1.. in them */
static _Thread_local int32_t tls_depth;     /* > 0 while running a region's body */

int64_t
kn_par_num_threads(void)
{
    return tls_threads ? tls_threads : kn_par_max_threads();
}

int64_t
kn_par_set_num_threads(int64_t n)
{
    if (n < 1 || n > kn_par_max_threads())
        return -1;
    tls_threads = n;
    return 0;
}

int64_t
kn_par_thread_id(void)
{
    return tls_worker;
}

int64_t
kn_par_chunksize(void)
{
    return tls_chunksize;
}

int64_t
kn_par_set_chunksize(int64_t n)
{
    int64_t old = tls_chunksize;
    tls_chunksize = n < 0 ? 0 : n;
    return old;
}

int64_t
kn_par_region_size(void)
{
    return tls_depth ? 1 : kn_par_num_threads();
}

/* ---- the GIL hooks ------------------------------------------------------------------------- */

static KnParReleaseFn gil_release;
static KnParAcquireFn gil_acquire;

void
kn_par_set_gil_hooks(KnParReleaseFn release, KnParAcquireFn acquire)
{
    gil_release = release;
    gil_acquire = acquire;
}

/* ---- futex and time ------------------------------------------------------------------------ */

static void
futex_wait(_Atomic uint32_t *word, uint32_t value)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void
futex_wake(_Atomic uint32_t *word, int count)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wait until *word != seen: spin up to spin_ns, then sleep on it; *sleeping tells the waker
 * that a futex wake is needed. */
static void
wait_change(_Atomic uint32_t *word, uint32_t seen, _Atomic uint32_t *sleeping)
{
    if (atomic_load_explicit(word, memory_order_acquire) != seen)
        return;
    int64_t spin = atomic_load_explicit(&spin_ns, memory_order_relaxed);
    if (spin > 0) {
        int64_t end = now_ns() + spin;
        for (unsigned i = 1;; i++) {
            cpu_relax();
            if (atomic_load_explicit(word, memory_order_acquire) != seen)
                return;
            if (!(i & 255) && now_ns() > end)
                break;
        }
    }
    while (atomic_load_explicit(word, memory_order_acquire) == seen) {
        atomic_store(sleeping, 1); /* seq_cst: the waker sees it, or we see its change */
        if (atomic_load(word) == seen)
            futex_wait(word, seen);
        atomic_store_explicit(sleeping, 0, memory_order_relaxed);
    }
}

/* ---- the pool ------------------------------------------------------------------------------ */

typedef struct {
    _Alignas(KN_POOL_LINE) _Atomic uint32_t seq; /* bumped to start a region on this worker */
    _Atomic uint32_t sleeping;
} KnParWorker;

/* The region being run: written by its caller before it bumps the workers' words, read by the
 * workers after they see the bump, unchanged until the last of them has finished. */
typedef struct {
    KnParBody body;
    void *ctx;
    int64_t n, nthreads, nchunks;                /* nchunks 0: static */
    _Alignas(KN_POOL_LINE) _Atomic int64_t next; /* dynamic: the next chunk */
    _Alignas(KN_POOL_LINE) _Atomic int32_t status;
    _Atomic int64_t failed_tid;
    _Alignas(KN_POOL_LINE) _Atomic int64_t remaining; /* workers still running */
    _Atomic uint32_t done;                            /* bumped by the last of them */
    _Atomic uint32_t caller_sleeping;
} KnParRegion;

static struct {
    pthread_mutex_t start_lock; /* creating the workers */
    _Atomic int started;        /* workers exist (0 again in a forked child) */
    int64_t nworkers;
    KnParWorker *workers;                    /* [1 .. nworkers]; [0] unused */
    _Alignas(KN_POOL_LINE) _Atomic int busy; /* a region owns the workers */
    KnParRegion region;
} pool = {.start_lock = PTHREAD_MUTEX_INITIALIZER};

/* share `i` of `parts` near-equal ones of [0, n): the remainder goes to the first ones */
static void
share(int64_t n, int64_t parts, int64_t i, int64_t *lo, int64_t *hi)
{
    int64_t q = n / parts, r = n % parts;
    *lo = i * q + (i < r ? i : r);
    *hi = *lo + q + (i < r);
}

static void
fail(KnParRegion *r, int32_t st, int64_t tid)
{
    int32_t zero = 0;
    if (atomic_compare_exchange_strong(&r->status, &zero, st))
        atomic_store(&r->failed_tid, tid);
}

/* Run region thread `tid`'s part: its static share, or dynamic chunks until none is left. */
static int64_t
run_part(KnParRegion *r, int64_t tid)
{
    int64_t done = 0, lo, hi;
    if (!r->nchunks) {
        share(r->n, r->nthreads, tid, &lo, &hi);
        if (lo < hi && !atomic_load_explicit(&r->status, memory_order_relaxed)) {
            int32_t st = r->body(r->ctx, lo, hi, tid);
            if (st)
                fail(r, st, tid);
            done = hi - lo;
        }
        return done;
    }
    for (;;) {
        if (atomic_load_explicit(&r->status, memory_order_relaxed))
            break;
        int64_t c = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed);
        if (c >= r->nchunks)
            break;
        share(r->n, r->nchunks, c, &lo, &hi);
        int32_t st = r->body(r->ctx, lo, hi, tid);
        if (st)
            fail(r, st, tid);
        done += hi - lo;
    }
    return done;
}

static void *
worker_main(void *arg)
{
    int64_t me = (int64_t)(intptr_t)arg;
    KnParWorker *w = &pool.workers[me];
    tls_worker = me;
    tls_depth = 1; /* a region a body starts on a worker is nested: inline */
    uint32_t seen = 0;
    for (;;) {
        wait_change(&w->seq, seen, &w->sleeping);
        seen = atomic_load_explicit(&w->seq, memory_order_acquire);
        KnParRegion *r = &pool.region;
        tls_threads = r->nthreads; /* get_num_threads() inside: the region's */
        tls_chunksize = 0;         /* Numba: 0 inside a region */
        run_part(r, me);
        if (atomic_fetch_sub(&r->remaining, 1) == 1) {
            atomic_fetch_add(&r->done, 1);
            if (atomic_load(&r->caller_sleeping))
                futex_wake(&r->done, 1);
        }
    }
    return NULL;
}

static void
forget_workers(void)
{
    /* in a forked child: the workers are gone (their memory is the parent's; it leaks once) */
    pthread_mutex_init(&pool.start_lock, NULL);
    atomic_store(&pool.started, 0);
    atomic_store(&pool.busy, 0);
    pool.workers = NULL;
    pool.nworkers = 0;
}

static void
before_fork(void)
{
    pthread_mutex_lock(&pool.start_lock);
}

static void
after_fork_parent(void)
{
    pthread_mutex_unlock(&pool.start_lock);
}

/* Create the workers once; 0 when they run (maybe fewer than asked: then the pool is smaller). */
static int
start_workers(void)
{
    static int atfork_done;
    if (atomic_load_explicit(&pool.started, memory_order_acquire))
        return 0;
    pthread_mutex_lock(&pool.start_lock);
    if (!atfork_done) {
        pthread_atfork(before_fork, after_fork_parent, forget_workers);
        atfork_done = 1;
    }
    if (!atomic_load(&pool.started)) {
        int64_t want = kn_par_max_threads() - 1;
        KnParWorker *ws = aligned_alloc(KN_POOL_LINE, sizeof(KnParWorker) * (size_t)(want + 1));
        int64_t made = 0;
        if (ws) {
            memset(ws, 0, sizeof(KnParWorker) * (size_t)(want + 1));
            pool.workers = ws;
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            pthread_attr_setstacksize(&attr, 8u << 20);
            sigset_t all, old;
            sigfillset(&all);
            pthread_sigmask(SIG_SETMASK, &all, &old);
            for (made = 0; made < want; made++) {
                pthread_t t;
                if (pthread_create(&t, &attr, worker_main, (void *)(intptr_t)(made + 1)))
                    break;
            }
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            pthread_attr_destroy(&attr);
        }
        pool.nworkers = made;
        atomic_store_explicit(&pool.started, 1, memory_order_release);
    }
    pthread_mutex_unlock(&pool.start_lock);
    return 0;
}

/* ---- the cost table ------------------------------------------------------------------------ */

typedef struct {
    _Atomic(KnParBody) body;
    _Atomic int64_t ps; /* picoseconds per iteration, 0: unknown */
} KnParCost;

static KnParCost costs[KN_EST_SLOTS];

static KnParCost *
cost_slot(KnParBody body)
{
    uintptr_t h = (uintptr_t)body;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15u;
    return &costs[(h >> 32) % KN_EST_SLOTS];
}

static int64_t
cost_get(KnParBody body)
{
    KnParCost *c = cost_slot(body);
    return atomic_load_explicit(&c->body, memory_order_relaxed) == body
               ? atomic_load_explicit(&c->ps, memory_order_relaxed)
               : 0;
}

static void
cost_put(KnParBody body, int64_t ns, int64_t iterations)
{
    if (iterations <= 0)
        return;
    int64_t ps = ns * KN_PS_PER_NS / iterations;
    KnParCost *c = cost_slot(body);
    int64_t old = cost_get(body);
    if (old && ps > old) /* up slowly: a preempted measurement is a spike, not the cost */
        ps = old + (ps - old) / 8;
    atomic_store_explicit(&c->body, body, memory_order_relaxed);
    atomic_store_explicit(&c->ps, ps > 0 ? ps : 1, memory_order_relaxed);
}

/* ---- kn_par_for ---------------------------------------------------------------------------- */

/* The shares or chunks of a region, one after another on this thread (same bounds and tids as
 * in parallel). Times them for the cost table. */
static int32_t
run_inline(KnParRegion *r, int64_t *failed_tid)
{
    int64_t t0 = now_ns();
    int64_t parts = r->nchunks ? r->nchunks : r->nthreads, lo, hi;
    int32_t st = 0;
    for (int64_t i = 0; i < parts && !st; i++) {
        share(r->n, parts, i, &lo, &hi);
        int64_t tid = r->nchunks ? 0 : i;
        if (lo < hi && (st = r->body(r->ctx, lo, hi, tid)) != 0 && failed_tid)
            *failed_tid = tid;
    }
    if (!st)
        cost_put(r->body, now_ns() - t0, r->n);
    return st;
}

/* The region on the workers: this thread is tid 0. */
static int32_t
run_parallel(KnParRegion *r, int64_t *failed_tid)
{
    int64_t parts = r->nchunks ? r->nchunks : r->n; /* no worker without a share */
    int64_t workers = (parts < r->nthreads ? parts : r->nthreads) - 1;
    atomic_store_explicit(&r->next, 0, memory_order_relaxed);
    atomic_store_explicit(&r->status, 0, memory_order_relaxed);
    atomic_store_explicit(&r->failed_tid, 0, memory_order_relaxed);
    atomic_store_explicit(&r->remaining, workers, memory_order_relaxed);
    for (int64_t w = 1; w <= workers; w++) {
        KnParWorker *k = &pool.workers[w];
        atomic_fetch_add(&k->seq, 1); /* seq_cst: pairs with the worker's `sleeping` */
        if (atomic_load(&k->sleeping))
            futex_wake(&k->seq, 1);
    }
    int64_t t0 = now_ns();
    int64_t mine = run_part(r, 0);
    cost_put(r->body, now_ns() - t0, mine);
    while (atomic_load_explicit(&r->remaining, memory_order_acquire) > 0) {
        uint32_t seen = atomic_load(&r->done);
        if (!atomic_load(&r->remaining))
            break;
        wait_change(&r->done, seen, &r->caller_sleeping);
    }
    int32_t st = atomic_load(&r->status);
    if (st && failed_tid)
        *failed_tid = atomic_load(&r->failed_tid);
    return st;
}

int32_t
kn_par_for(KnParBody body, void *ctx, int64_t n, int64_t chunk, int64_t *failed_tid)
{
    if (n <= 0)
        return 0;
    kn_par_max_threads(); /* the settings */
    if (tls_depth) {      /* nested: one call on this thread */
        int32_t st = body(ctx, 0, n, 0);
        if (st && failed_tid)
            *failed_tid = 0;
        return st;
    }
    if (!chunk)
        chunk = tls_chunksize;
    KnParRegion local = {.body = body, .ctx = ctx, .n = n, .nthreads = kn_par_num_threads()};
    if (chunk > 0)
        local.nchunks = n / chunk > 1 ? n / chunk : 1;
    int64_t saved_chunk = tls_chunksize;
    tls_chunksize = 0;
    tls_depth++;
    int32_t st;
    int64_t est = cost_get(body);
    if (n == 1 || local.nthreads < 2 || (est && est * n / KN_PS_PER_NS < min_work_ns)) {
        st = run_inline(&local, failed_tid); /* too little work to share */
    } else if (!start_workers() && pool.nworkers >= local.nthreads - 1 &&
               !atomic_exchange_explicit(&pool.busy, 1, memory_order_acquire)) {
        KnParRegion *r = &pool.region;
        r->body = body;
        r->ctx = ctx;
        r->n = n;
        r->nthreads = local.nthreads;
        r->nchunks = local.nchunks;
        void *token = gil_release ? gil_release() : NULL;
        st = run_parallel(r, failed_tid);
        atomic_store_explicit(&pool.busy, 0, memory_order_release);
        if (gil_acquire)
            gil_acquire(token);
    } else { /* the pool is busy with another thread's region: this one runs here, alone */
        void *token = gil_release ? gil_release() : NULL;
        st = run_inline(&local, failed_tid);
        if (gil_acquire)
            gil_acquire(token);
    }
    tls_depth--;
    tls_chunksize = saved_chunk;
    return st;
}
