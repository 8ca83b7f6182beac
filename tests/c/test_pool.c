/* test_pool.c - unit tests for parallel/pool.c, with C bodies and no Python: every iteration
 * run exactly once for static and dynamic schedules and odd sizes, the static shares and
 * their tids, the workers' thread ids, the first failing status and its tid, skipped chunks
 * after a failure, nested regions inline, 8 threads entering regions at once, the per-thread
 * thread count and chunk size, the small-work guard running the same shares inline, and a
 * forked child that uses the pool its parent had used. The pool has 4 threads
 * (KILN_NUM_THREADS=4, set before its first use) whatever the machine's CPUs. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* setenv */
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "parallel/pool.h"

#define NMAX 5000
#define T 4

typedef struct {
    _Atomic int hits[NMAX];
    _Atomic int calls;
    _Atomic int empty;
    _Atomic int bad_tid;
    int64_t tid_lo[T], tid_hi[T], tid_thread[T];
    _Atomic int seen_thread[T + 1];
    int64_t fail_at[2];
    int32_t fail_status[2];
    int64_t sleep_ns; /* per chunk */
} Rec;

static void
nap(int64_t ns)
{
    struct timespec ts = {ns / 1000000000, ns % 1000000000};
    nanosleep(&ts, NULL);
}

static int32_t
record(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    Rec *r = ctx;
    atomic_fetch_add(&r->calls, 1);
    if (lo >= hi)
        atomic_fetch_add(&r->empty, 1);
    if (tid < 0 || tid >= T)
        atomic_fetch_add(&r->bad_tid, 1);
    else {
        r->tid_lo[tid] = lo;
        r->tid_hi[tid] = hi;
        r->tid_thread[tid] = kn_par_thread_id();
    }
    int64_t th = kn_par_thread_id();
    if (th >= 0 && th <= T)
        atomic_store(&r->seen_thread[th], 1);
    for (int64_t i = lo; i < hi && i < NMAX; i++)
        atomic_fetch_add(&r->hits[i], 1);
    if (r->sleep_ns)
        nap(r->sleep_ns);
    for (int k = 0; k < 2; k++)
        if (r->fail_status[k] && r->fail_at[k] >= lo && r->fail_at[k] < hi)
            return r->fail_status[k];
    return 0;
}

static Rec *
fresh(void)
{
    static Rec r;
    memset(&r, 0, sizeof r);
    return &r;
}

static int
all_once(Rec *r, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (atomic_load(&r->hits[i]) != 1)
            return 0;
    return 1;
}

static void
test_static(void)
{
    static const int64_t sizes[] = {2, 3, 4, 5, 7, 17, 100, 1001, NMAX};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int64_t n = sizes[k];
        Rec *r = fresh();
        CHECK_EQ_INT(kn_par_for(record, r, n, -1, NULL), 0);
        CHECK(all_once(r, n));
        CHECK_EQ_INT(atomic_load(&r->empty), 0);
        CHECK_EQ_INT(atomic_load(&r->bad_tid), 0);
        /* the shares: contiguous, in tid order, sizes differing by at most one, the larger
         * first; tid t runs on the pool's thread t */
        int64_t q = n / T, rem = n % T, lo = 0;
        for (int t = 0; t < T; t++) {
            int64_t len = q + (t < rem);
            if (!len)
                continue;
            CHECK_EQ_INT(r->tid_lo[t], lo);
            CHECK_EQ_INT(r->tid_hi[t], lo + len);
            CHECK_EQ_INT(r->tid_thread[t], t);
            lo += len;
        }
        CHECK_EQ_INT(atomic_load(&r->calls), n < T ? n : T);
    }
    Rec *r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 0, 0, NULL), 0);
    CHECK_EQ_INT(atomic_load(&r->calls), 0);
    CHECK_EQ_INT(kn_par_for(record, r, -3, 0, NULL), 0);
    CHECK_EQ_INT(atomic_load(&r->calls), 0);
    CHECK_EQ_INT(kn_par_for(record, r, 1, 0, NULL), 0);
    CHECK_EQ_INT(atomic_load(&r->calls), 1);
    CHECK_EQ_INT(r->tid_thread[0], 0);
}

static void
test_dynamic(void)
{
    static const int64_t chunks[] = {1, 3, 8, 64, 10000};
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        Rec *r = fresh();
        int64_t n = 1003;
        CHECK_EQ_INT(kn_par_for(record, r, n, chunks[k], NULL), 0);
        CHECK(all_once(r, n));
        CHECK_EQ_INT(atomic_load(&r->empty), 0);
        CHECK_EQ_INT(atomic_load(&r->bad_tid), 0);
        int64_t nch = n / chunks[k] > 1 ? n / chunks[k] : 1;
        CHECK_EQ_INT(atomic_load(&r->calls), nch);
    }
    /* the thread's chunk size is the default: chunk == 0 follows it */
    CHECK_EQ_INT(kn_par_set_chunksize(100), 0);
    Rec *r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 1000, 0, NULL), 0);
    CHECK_EQ_INT(atomic_load(&r->calls), 10);
    CHECK(all_once(r, 1000));
    CHECK_EQ_INT(kn_par_chunksize(), 100); /* restored after the region */
    r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 1000, -1, NULL), 0); /* forced static */
    CHECK_EQ_INT(atomic_load(&r->calls), T);
    CHECK_EQ_INT(kn_par_set_chunksize(0), 100);
    CHECK_EQ_INT(kn_par_set_chunksize(-5), 0);
    CHECK_EQ_INT(kn_par_chunksize(), 0);
}

static void
test_failure(void)
{
    int64_t tid = -1;
    Rec *r = fresh();
    r->fail_at[0] = 600; /* in tid 2's share of 1000 */
    r->fail_status[0] = 7;
    CHECK_EQ_INT(kn_par_for(record, r, 1000, -1, &tid), 7);
    CHECK_EQ_INT(tid, 2);
    /* two failures: the status returned is one of them, with its own tid */
    r = fresh();
    r->fail_at[0] = 10; /* tid 0 */
    r->fail_status[0] = 3;
    r->fail_at[1] = 900; /* tid 3 */
    r->fail_status[1] = 4;
    tid = -1;
    int32_t st = kn_par_for(record, r, 1000, -1, &tid);
    CHECK((st == 3 && tid == 0) || (st == 4 && tid == 3));
    /* dynamic: chunks after the failure are skipped */
    r = fresh();
    r->fail_at[0] = 0;
    r->fail_status[0] = 9;
    r->sleep_ns = 200000;
    tid = -1;
    CHECK_EQ_INT(kn_par_for(record, r, 400, 1, &tid), 9);
    CHECK(tid >= 0 && tid < T);
    CHECK(atomic_load(&r->calls) < 400);
    /* nested failing region (inline) */
    r = fresh();
    r->fail_at[0] = 0;
    r->fail_status[0] = 5;
    tid = -1;
    CHECK_EQ_INT(kn_par_for(record, r, 1, 0, &tid), 5);
    CHECK_EQ_INT(tid, 0);
}

typedef struct {
    _Atomic int bad;
    _Atomic int inner_calls;
} NestCtx;

static int32_t
inner(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    NestCtx *c = ctx;
    atomic_fetch_add(&c->inner_calls, 1);
    if (lo != 0 || hi != 50 || tid != 0)
        atomic_fetch_add(&c->bad, 1);
    return 0;
}

static int32_t
outer(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    NestCtx *c = ctx;
    (void)lo;
    (void)hi;
    (void)tid;
    if (kn_par_region_size() != 1)
        atomic_fetch_add(&c->bad, 1);
    if (kn_par_chunksize() != 0) /* Numba: 0 inside a region */
        atomic_fetch_add(&c->bad, 1);
    if (kn_par_num_threads() != T)
        atomic_fetch_add(&c->bad, 1);
    return kn_par_for(inner, c, 50, 0, NULL);
}

static void
test_nested(void)
{
    NestCtx c = {0};
    kn_par_set_chunksize(0);
    CHECK_EQ_INT(kn_par_for(outer, &c, 100, -1, NULL), 0);
    CHECK_EQ_INT(atomic_load(&c.bad), 0);
    CHECK_EQ_INT(atomic_load(&c.inner_calls), T);
    CHECK_EQ_INT(kn_par_region_size(), T);
}

/* ---- concurrent regions from 8 threads ---- */

typedef struct {
    const int64_t *x;
    _Atomic int64_t sum;
} SumCtx;

static int32_t
sum_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    (void)tid;
    SumCtx *s = ctx;
    int64_t acc = 0;
    for (int64_t i = lo; i < hi; i++)
        acc += s->x[i];
    atomic_fetch_add(&s->sum, acc);
    return 0;
}

static int64_t xs[NMAX];

static void *
hammer(void *arg)
{
    intptr_t id = (intptr_t)arg;
    intptr_t bad = 0;
    if (id % 2 && kn_par_set_num_threads(2) != 0) /* per thread */
        bad++;
    for (int k = 0; k < 300; k++) {
        int64_t n = 1 + (k * 37 + id * 11) % NMAX;
        SumCtx s = {xs, 0};
        if (kn_par_for(sum_body, &s, n, k % 3 == 0 ? 7 : 0, NULL) != 0)
            bad++;
        if (atomic_load(&s.sum) != n * (n - 1) / 2)
            bad++;
    }
    if (kn_par_num_threads() != (id % 2 ? 2 : T))
        bad++;
    return (void *)bad;
}

static void
test_concurrent(void)
{
    for (int64_t i = 0; i < NMAX; i++)
        xs[i] = i;
    pthread_t th[8];
    for (intptr_t i = 0; i < 8; i++)
        CHECK_EQ_INT(pthread_create(&th[i], NULL, hammer, (void *)i), 0);
    for (int i = 0; i < 8; i++) {
        void *bad = NULL;
        pthread_join(th[i], &bad);
        CHECK_EQ_INT((intptr_t)bad, 0);
    }
    CHECK_EQ_INT(kn_par_num_threads(), T); /* the other threads' settings are theirs */
}

static void
test_thread_count(void)
{
    CHECK_EQ_INT(kn_par_max_threads(), T);
    CHECK_EQ_INT(kn_par_set_num_threads(0), -1);
    CHECK_EQ_INT(kn_par_set_num_threads(T + 1), -1);
    CHECK_EQ_INT(kn_par_num_threads(), T);
    CHECK_EQ_INT(kn_par_set_num_threads(2), 0);
    CHECK_EQ_INT(kn_par_region_size(), 2);
    Rec *r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 100, -1, NULL), 0);
    CHECK_EQ_INT(atomic_load(&r->calls), 2);
    CHECK_EQ_INT(r->tid_hi[0], 50);
    CHECK_EQ_INT(atomic_load(&r->seen_thread[2]), 0);
    CHECK_EQ_INT(kn_par_set_num_threads(1), 0);
    r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 100, -1, NULL), 0);
    CHECK_EQ_INT(atomic_load(&r->calls), 1);
    CHECK_EQ_INT(r->tid_thread[0], 0);
    CHECK_EQ_INT(kn_par_set_num_threads(T), 0);
    CHECK_EQ_INT(kn_par_thread_id(), 0);
}

static void
test_guard(void)
{
    /* a body measured as cheap: the next region runs inline, with the same shares and tids */
    kn_par_tuning(-1, 1000000000);
    Rec *r = fresh();
    kn_par_for(record, r, 1000, -1, NULL); /* measured */
    r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 1000, -1, NULL), 0);
    CHECK(all_once(r, 1000));
    CHECK_EQ_INT(atomic_load(&r->calls), T);
    for (int t = 0; t < T; t++) {
        CHECK_EQ_INT(r->tid_lo[t], 250 * t);
        CHECK_EQ_INT(r->tid_thread[t], 0); /* all on this thread */
    }
    kn_par_tuning(-1, 0);
}

static void
test_fork(void)
{
    Rec *r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 1000, -1, NULL), 0); /* the parent's pool runs */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        Rec *c = fresh();
        int ok = kn_par_for(record, c, 1000, -1, NULL) == 0 && all_once(c, 1000);
        for (int t = 1; t < T; t++)
            ok = ok && atomic_load(&c->seen_thread[t]); /* new workers ran in the child */
        _exit(ok ? 0 : 1);
    }
    CHECK(pid > 0);
    int status = 0;
    CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    r = fresh();
    CHECK_EQ_INT(kn_par_for(record, r, 1000, -1, NULL), 0); /* and the parent's still does */
    CHECK(all_once(r, 1000));
}

int
main(void)
{
    setenv("KILN_NUM_THREADS", "4", 1);
    setenv("KILN_PAR_MIN_NS", "0", 1); /* every region parallel unless a test says otherwise */
    test_thread_count();
    test_static();
    test_dynamic();
    test_failure();
    test_nested();
    test_concurrent();
    test_guard();
    test_fork();
    printf("test_pool: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
