/* threads.c - the thread pool seen from Python: the thread API behind kiln/_threads.py and a
 * test-only region with a C body.
 *
 * kiln._core._threads(op, n) calls one of parallel/pool.h's thread-count functions (the
 * KN_THREADS_* codes below; the last one sets the pool's tuning for tests and benchmarks);
 * kiln/_threads.py checks the arguments and raises Numba's errors.
 *
 * kiln._core._pool_probe(n, chunk, fail_at, fail_status, work_ns, nested) runs a region of n
 * iterations over a C body that records each chunk: (lo, hi, tid, thread_id, num_threads,
 * chunksize, nested_size) where thread_id, num_threads and chunksize are what the thread
 * running the chunk sees and nested_size is -1, or (nested) the tid count of a region started
 * inside the chunk followed by its check (1 when its one call had tid 0 and covered it). The
 * chunk holding iteration fail_at returns fail_status; work_ns makes each iteration spin that
 * long. Returns (status, failed_tid, records). tests/test_parallel_pool.py uses it to test the
 * pool without compiled code; bench/parallel_pool.py times regions with it. */
#include "dispatch/dispatch.h"

#include <stdatomic.h>
#include <time.h>

#include "parallel/pool.h"

enum {
    KN_THREADS_GET,
    KN_THREADS_SET,
    KN_THREADS_MAX,
    KN_THREADS_ID,
    KN_THREADS_GET_CHUNK,
    KN_THREADS_SET_CHUNK,
    KN_THREADS_TUNING, /* test and bench only: (spin_us, min_work_ns), < 0 unchanged */
};

PyObject *
kn_dispatch_threads(PyObject *module, PyObject *args)
{
    KN_UNUSED(module);
    int op;
    long long n = 0, m = -1;
    if (!PyArg_ParseTuple(args, "i|LL", &op, &n, &m))
        return NULL;
    int64_t r;
    switch (op) {
    case KN_THREADS_GET:
        r = kn_par_num_threads();
        break;
    case KN_THREADS_SET:
        r = kn_par_set_num_threads(n);
        break;
    case KN_THREADS_MAX:
        r = kn_par_max_threads();
        break;
    case KN_THREADS_ID:
        r = kn_par_thread_id();
        break;
    case KN_THREADS_GET_CHUNK:
        r = kn_par_chunksize();
        break;
    case KN_THREADS_SET_CHUNK:
        r = kn_par_set_chunksize(n);
        break;
    case KN_THREADS_TUNING:
        kn_par_tuning(n, m);
        r = 0;
        break;
    default:
        PyErr_Format(PyExc_ValueError, "_threads: unknown operation %d", op);
        return NULL;
    }
    return PyLong_FromLongLong(r);
}

typedef struct {
    int64_t lo, hi, tid, thread_id, num_threads, chunksize, nested;
} ProbeRecord;

typedef struct {
    ProbeRecord *recs;
    int64_t cap;
    _Atomic int64_t count;
    int64_t fail_at, work_ns;
    int32_t fail_status;
    int nested;
} Probe;

typedef struct {
    int64_t n, calls, ok;
} Inner;

static int32_t
inner_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    Inner *in = ctx;
    in->calls++;
    in->ok = lo == 0 && hi == in->n && tid == 0;
    return 0;
}

static void
spin_for(int64_t ns)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000000 + (t.tv_nsec - t0.tv_nsec) < ns);
}

static int32_t
probe_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    Probe *p = ctx;
    if (p->work_ns)
        spin_for(p->work_ns * (hi - lo));
    int64_t nested = -1;
    if (p->nested) {
        Inner in = {.n = 5};
        int64_t size = kn_par_region_size();
        kn_par_for(inner_body, &in, in.n, 0, NULL);
        nested = size * 10 + (in.calls == 1 && in.ok);
    }
    int64_t k = atomic_fetch_add(&p->count, 1);
    if (k < p->cap)
        p->recs[k] = (ProbeRecord){
            lo, hi, tid, kn_par_thread_id(), kn_par_num_threads(), kn_par_chunksize(), nested};
    return p->fail_at >= lo && p->fail_at < hi ? p->fail_status : 0;
}

PyObject *
kn_dispatch_pool_probe(PyObject *module, PyObject *args)
{
    KN_UNUSED(module);
    long long n, chunk = 0, fail_at = -1, work_ns = 0;
    int fail_status = 1, nested = 0;
    if (!PyArg_ParseTuple(args, "L|LLiLp", &n, &chunk, &fail_at, &fail_status, &work_ns, &nested))
        return NULL;
    if (n < 0 || n > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "_pool_probe: n must be in [0, 2**24]");
        return NULL;
    }
    Probe p = {.cap = n + 1,
               .fail_at = fail_at,
               .work_ns = work_ns,
               .fail_status = fail_status,
               .nested = nested};
    p.recs = PyMem_RawMalloc(sizeof(ProbeRecord) * (size_t)p.cap);
    if (!p.recs)
        return PyErr_NoMemory();
    int64_t failed_tid = -1;
    int32_t st = kn_par_for(probe_body, &p, n, chunk, &failed_tid);
    int64_t count = atomic_load(&p.count);
    PyObject *list = PyList_New(0);
    for (int64_t i = 0; list && i < count && i < p.cap; i++) {
        ProbeRecord *r = &p.recs[i];
        PyObject *t =
            Py_BuildValue("(LLLLLLL)", (long long)r->lo, (long long)r->hi, (long long)r->tid,
                          (long long)r->thread_id, (long long)r->num_threads,
                          (long long)r->chunksize, (long long)r->nested);
        if (!t || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    PyMem_RawFree(p.recs);
    if (!list)
        return NULL;
    return Py_BuildValue("(iLN)", (int)st, (long long)(st ? failed_tid : -1), list);
}

/* ---- timing regions for bench/parallel_pool.py ---- */

typedef struct {
    const double *x;
    double *slots; /* one per tid, a cache line apart */
} SumCtx;

#define KN_SLOT_STRIDE 8 /* doubles: 64 bytes */

static int32_t
empty_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    KN_UNUSED(ctx);
    KN_UNUSED(lo);
    KN_UNUSED(hi);
    KN_UNUSED(tid);
    return 0;
}

static int32_t
sum_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    SumCtx *s = ctx;
    double acc = 0;
    for (int64_t i = lo; i < hi; i++)
        acc += s->x[i];
    s->slots[tid * KN_SLOT_STRIDE] += acc;
    return 0;
}

static int64_t
clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* _pool_bench(kind, n, reps) -> (ns per region, checksum): kind 0 an empty region of n
 * iterations, 1 a region summing n doubles into per-thread slots, 2 the same sum serially. */
PyObject *
kn_dispatch_pool_bench(PyObject *module, PyObject *args)
{
    KN_UNUSED(module);
    int kind;
    long long n, reps;
    if (!PyArg_ParseTuple(args, "iLL", &kind, &n, &reps))
        return NULL;
    if (n < 0 || reps < 1 || kind < 0 || kind > 2) {
        PyErr_SetString(PyExc_ValueError, "_pool_bench: bad arguments");
        return NULL;
    }
    int64_t threads = kn_par_region_size();
    double *x = PyMem_RawMalloc(sizeof(double) * (size_t)(n + 1));
    double *slots = PyMem_RawCalloc((size_t)(threads * KN_SLOT_STRIDE), sizeof(double));
    if (!x || !slots) {
        PyMem_RawFree(x);
        PyMem_RawFree(slots);
        return PyErr_NoMemory();
    }
    for (int64_t i = 0; i < n; i++)
        x[i] = (double)(i % 7) * 0.5;
    SumCtx s = {x, slots};
    double check = 0;
    int64_t t0 = clock_ns();
    Py_BEGIN_ALLOW_THREADS;
    for (long long r = 0; r < reps; r++) {
        if (kind == 0) {
            kn_par_for(empty_body, NULL, n, 0, NULL);
        } else if (kind == 1) {
            kn_par_for(sum_body, &s, n, 0, NULL);
        } else {
            sum_body(&s, 0, n, 0);
        }
    }
    Py_END_ALLOW_THREADS;
    int64_t t1 = clock_ns();
    for (int64_t t = 0; t < threads; t++)
        check += slots[t * KN_SLOT_STRIDE];
    PyMem_RawFree(x);
    PyMem_RawFree(slots);
    return Py_BuildValue("(dd)", (double)(t1 - t0) / (double)reps, check);
}
