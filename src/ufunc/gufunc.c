/* gufunc.c - NumPy generalized ufuncs over compiled kernels (@kiln.guvectorize).
 *
 * kiln/_guvectorize.py parses the layout and the type signatures and calls _core._gufunc with
 * one entry per loop: the NumPy type numbers, the loop's outer function (a kiln Dispatcher of
 * `outer(lo, hi, x0, x1, ...)` that calls the kernel for i in [lo, hi) on x0[i], x1[i], ...,
 * generated in Python so that LLVM inlines the kernel into it) and its parameter types. This
 * file builds a real gufunc with PyUFunc_FromFuncAndDataAndSignature: NumPy does the
 * broadcasting over the loop dimensions, axis=/axes=, out=, casting and the type resolution.
 * Each registered C loop (gu_loop) passes NumPy's args/dimensions/steps as (outer, core...)
 * arrays (just (outer,) for a `()` argument: the outer function takes an element or a
 * one-element slice) and calls the outer function once, or once per chunk of the pool
 * (kn_par_for) with target='parallel'. A loop's outer function is compiled on its first call
 * (kn_dispatch_entry, under the GIL), so making dozens of gufuncs at import costs no LLVM;
 * _gufunc_compile compiles one now. Everything a ufunc points at (loop tables, name, doc)
 * lives in one capsule held by the ufunc's `obj` field, which NumPy releases with the ufunc. An
 * exception raised by the kernel stops the loop and is set as the Python error NumPy reports. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <stdatomic.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "parallel/pool.h"
#include "ufunc/gufunc.h"

#define GU_MAXARGS 32

enum { GU_ARRAY = 0, GU_SCALAR = 1, GU_ONE = 2 }; /* how the kernel receives an argument */

typedef struct GuLoop {
    PyObject *kernel; /* the compiled outer loop: a kiln Dispatcher (owned) */
    int nargs;
    int parallel;
    KnType *types[GU_MAXARGS + 2]; /* the outer loop's parameters: lo, hi, then the arguments */
    unsigned char kind[GU_MAXARGS];
    int ncore[GU_MAXARGS];   /* core dimensions of argument k */
    int coreoff[GU_MAXARGS]; /* first of them in core_dim_ixs (and in steps[nargs..]) */
    int *dim_ix;             /* core_dim_ixs, copied from the ufunc */
    _Atomic int ready;
    KnDispatchEntry entry;
} GuLoop;

typedef struct GuData {
    int nloops;
    PyUFuncGenericFunction *funcs;
    void **data;
    char *types;
    char *name, *doc;
    int *dim_ix;
    GuLoop *loops;
} GuData;

static void
gu_data_free(GuData *g)
{
    if (!g)
        return;
    for (int i = 0; g->loops && i < g->nloops; i++)
        Py_XDECREF(g->loops[i].kernel);
    free(g->funcs);
    free(g->data);
    free(g->types);
    free(g->name);
    free(g->doc);
    free(g->dim_ix);
    free(g->loops);
    free(g);
}

static void
gu_capsule_free(PyObject *cap)
{
    gu_data_free(PyCapsule_GetPointer(cap, "kiln.gufunc"));
}

/* Compile the loop's kernel when it is not yet: 0, or -1 with an error set. Holds the GIL. */
static int
gu_prepare(GuLoop *L)
{
    if (atomic_load_explicit(&L->ready, memory_order_acquire))
        return 0;
    KnDispatchEntry e;
    if (kn_dispatch_entry(L->kernel, L->types, L->nargs + 2, NULL, &e) < 0)
        return -1;
    if (e.ret->kind != KN_TY_NONE) {
        PyErr_SetString(PyExc_TypeError, "kiln: a gufunc's outer loop must return None");
        return -1;
    }
    L->entry = e;
    atomic_store_explicit(&L->ready, 1, memory_order_release);
    return 0;
}

/* The argument buffer: argument k is the (outer, core...) array NumPy's args/dims/steps describe
 * (just (outer,) for a scalar or a one-element argument), after the two int64 bounds. */
static void
gu_fill_views(const GuLoop *L, char *buf, char **args, const npy_intp *dims, const npy_intp *steps)
{
    for (int k = 0; k < L->nargs; k++) {
        KnArrayStruct *a = (KnArrayStruct *)(buf + L->entry.offsets[k + 2]);
        int nc = L->kind[k] == GU_ARRAY ? L->ncore[k] : 0, nd = 1 + nc;
        int64_t n = dims[0];
        a->meminfo = NULL;
        a->parent = NULL;
        a->itemsize = (int64_t)kn_type_size(L->types[k + 2]->dtype);
        a->data = args[k];
        a->dims[0] = dims[0];
        a->dims[nd] = steps[k];
        for (int j = 0; j < nc; j++) {
            a->dims[1 + j] = dims[1 + L->dim_ix[L->coreoff[k] + j]];
            a->dims[nd + 1 + j] = steps[L->nargs + L->coreoff[k] + j];
            n *= a->dims[1 + j];
        }
        a->nitems = n;
    }
}

/* Outer elements [lo, hi) in one call of the compiled outer loop: 0, or its nonzero status
 * with *exc filled (-1: out of memory here). */
static int32_t
gu_run(const GuLoop *L, char **args, const npy_intp *dims, const npy_intp *steps, int64_t lo,
       int64_t hi, KnExcInfo *exc)
{
    char small[1024];
    _Alignas(16) char ret[16];
    size_t size = L->entry.argbuf_size;
    char *buf = size <= sizeof small ? small : malloc(size);
    if (!buf)
        return -1;
    gu_fill_views(L, buf, args, dims, steps);
    memcpy(buf + L->entry.offsets[0], &lo, sizeof lo);
    memcpy(buf + L->entry.offsets[1], &hi, sizeof hi);
    int32_t st = L->entry.fn(ret, exc, buf);
    if (buf != small)
        free(buf);
    return st;
}

typedef struct GuPar {
    const GuLoop *L;
    char **args;
    const npy_intp *dims, *steps;
    KnExcInfo *excs; /* one per region thread */
} GuPar;

static int32_t
gu_par_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    GuPar *p = ctx;
    return gu_run(p->L, p->args, p->dims, p->steps, lo, hi, &p->excs[tid]);
}

/* Raise what the kernel recorded (a status of -1 without one: out of memory). Takes the GIL. */
static void
gu_report(int32_t st, KnExcInfo *exc)
{
    PyGILState_STATE g = PyGILState_Ensure();
    if (st < 0)
        PyErr_NoMemory();
    else if (exc->index == KN_EXC_INTERRUPT)
        kn_interrupt_raise(); /* Ctrl-C seen by a loop poll: Python's handlers run */
    else if (!PyErr_Occurred())
        kn_dispatch_raise(exc);
    PyGILState_Release(g);
}

/* The C loop NumPy calls (data: the GuLoop). NumPy may have released the GIL. */
static void
gu_loop(char **args, const npy_intp *dims, const npy_intp *steps, void *data)
{
    GuLoop *L = data;
    if (!atomic_load_explicit(&L->ready, memory_order_acquire)) {
        PyGILState_STATE g = PyGILState_Ensure();
        int r = gu_prepare(L);
        PyGILState_Release(g);
        if (r < 0)
            return;
    }
    int64_t n = dims[0];
    if (n <= 0)
        return;
    KnExcInfo exc = {0};
    int32_t st;
    if (L->parallel && n > 1) {
        int64_t slots = kn_par_region_size();
        KnExcInfo *excs = calloc((size_t)(slots > 0 ? slots : 1), sizeof *excs);
        if (!excs) {
            gu_report(-1, NULL);
            return;
        }
        GuPar p = {L, args, dims, steps, excs};
        int64_t tid = 0;
        st = kn_par_for(gu_par_body, &p, n, 0, &tid);
        if (st)
            exc = excs[tid >= 0 && tid < slots ? tid : 0];
        free(excs);
    } else {
        st = gu_run(L, args, dims, steps, 0, n, &exc);
    }
    if (st)
        gu_report(st, &exc);
}

/* ---- building the ufunc ---- */

static char *
dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r)
        memcpy(r, s, n);
    return r;
}

/* One loop entry (typenums, kernel, argkeys, kinds) into loop i of g. */
static int
gu_read_loop(GuData *g, int i, int nargs, PyObject *entry, int parallel)
{
    PyObject *nums, *kernel, *keys, *kinds;
    if (!PyTuple_Check(entry) || !PyArg_ParseTuple(entry, "OOOO", &nums, &kernel, &keys, &kinds))
        return -1;
    if (!PySequence_Check(nums) || PySequence_Size(nums) != nargs || !PySequence_Check(keys) ||
        PySequence_Size(keys) != nargs || !PySequence_Check(kinds) ||
        PySequence_Size(kinds) != nargs) {
        PyErr_SetString(PyExc_ValueError, "kiln: a gufunc loop needs one type per argument");
        return -1;
    }
    GuLoop *L = &g->loops[i];
    L->types[0] = L->types[1] = kn_type_int(64, 1);
    for (int k = 0; k < nargs; k++) {
        PyObject *o = PySequence_GetItem(nums, k);
        long num = o ? PyLong_AsLong(o) : -1;
        Py_XDECREF(o);
        if (num < 0 || num > 127) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "kiln: a bad NumPy type number");
            return -1;
        }
        g->types[i * nargs + k] = (char)num;
        o = PySequence_GetItem(keys, k);
        L->types[k + 2] = o ? kn_box_from_key(kn_state, o) : NULL;
        Py_XDECREF(o);
        if (!L->types[k + 2])
            return -1;
        o = PySequence_GetItem(kinds, k);
        long kind = o ? PyLong_AsLong(o) : -1;
        Py_XDECREF(o);
        if (kind < GU_ARRAY || kind > GU_ONE) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "kiln: a bad gufunc argument kind");
            return -1;
        }
        L->kind[k] = (unsigned char)kind;
    }
    Py_INCREF(kernel);
    L->kernel = kernel;
    L->nargs = nargs;
    L->parallel = parallel;
    g->funcs[i] = gu_loop;
    g->data[i] = L;
    return 0;
}

static int umath_ready;

/* _gufunc(name, doc, nin, nout, signature, identity, loops, writable, parallel) -> np.ufunc.
 * identity: PyUFunc_None/Zero/One/ReorderableNone's value; writable: indices of inputs the
 * kernel may write (NumPy then copies them back when it had to make a copy). */
PyObject *
kn_ufunc_gufunc_new(PyObject *module, PyObject *args)
{
    KN_UNUSED(module);
    const char *name, *doc, *sig;
    int nin, nout, identity, parallel;
    PyObject *loops, *writable;
    if (!PyArg_ParseTuple(args, "ssiisiOOp", &name, &doc, &nin, &nout, &sig, &identity, &loops,
                          &writable, &parallel))
        return NULL;
    if (!umath_ready) {
        if (_import_umath() < 0)
            return NULL;
        umath_ready = 1;
    }
    int nargs = nin + nout;
    if (nin < 0 || nout < 1 || nargs > GU_MAXARGS) {
        PyErr_Format(PyExc_ValueError, "kiln: a gufunc takes 1 to %d arguments, with an output",
                     GU_MAXARGS);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(loops, "kiln: gufunc loops must be a sequence");
    if (!seq)
        return NULL;
    int nl = (int)PySequence_Fast_GET_SIZE(seq);
    GuData *g = calloc(1, sizeof *g);
    PyObject *cap = NULL, *uf = NULL;
    if (!g || !(g->funcs = calloc((size_t)nl + 1, sizeof *g->funcs)) ||
        !(g->data = calloc((size_t)nl + 1, sizeof *g->data)) ||
        !(g->types = calloc((size_t)(nl + 1) * (size_t)nargs, 1)) ||
        !(g->loops = calloc((size_t)nl + 1, sizeof *g->loops)) || !(g->name = dup_str(name)) ||
        !(g->doc = dup_str(doc))) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < nl; i++) {
        g->nloops = i + 1;
        if (gu_read_loop(g, i, nargs, PySequence_Fast_GET_ITEM(seq, i), parallel) < 0)
            goto fail;
    }
    cap = PyCapsule_New(g, "kiln.gufunc", gu_capsule_free);
    if (!cap)
        goto fail;
    g = NULL; /* the capsule owns it now */
    GuData *gd = PyCapsule_GetPointer(cap, "kiln.gufunc");
    uf = PyUFunc_FromFuncAndDataAndSignature(gd->funcs, gd->data, gd->types, nl, nin, nout,
                                             identity, gd->name, gd->doc, 0, sig);
    if (!uf)
        goto fail;
    PyUFuncObject *u = (PyUFuncObject *)uf;
    u->obj = cap; /* NumPy releases it with the ufunc */
    cap = NULL;
    int total = u->core_offsets[nargs - 1] + u->core_num_dims[nargs - 1];
    if (!(gd->dim_ix = malloc(sizeof(int) * (size_t)(total > 0 ? total : 1)))) {
        PyErr_NoMemory();
        goto fail;
    }
    memcpy(gd->dim_ix, u->core_dim_ixs, sizeof(int) * (size_t)total);
    for (int i = 0; i < nl; i++) {
        GuLoop *L = &gd->loops[i];
        L->dim_ix = gd->dim_ix;
        for (int k = 0; k < nargs; k++) {
            L->ncore[k] = u->core_num_dims[k];
            L->coreoff[k] = u->core_offsets[k];
            KnType *t = L->types[k + 2];
            int want = L->kind[k] == GU_ARRAY ? 1 + L->ncore[k] : 1;
            if (t->kind != KN_TY_ARRAY || t->ndim != want) {
                PyErr_Format(PyExc_TypeError,
                             "kiln: argument %d of loop %d does not match the layout", k, i);
                goto fail;
            }
        }
    }
    PyObject *wseq = PySequence_Fast(writable, "kiln: writable_args must be a sequence");
    if (!wseq)
        goto fail;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(wseq); j++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(wseq, j));
        if (k < 0 || k >= nin) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "kiln: writable_args names an input by index");
            Py_DECREF(wseq);
            goto fail;
        }
        u->op_flags[k] |= NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY;
    }
    Py_DECREF(wseq);
    Py_DECREF(seq);
    return uf;
fail:
    Py_DECREF(seq);
    Py_XDECREF(uf);
    Py_XDECREF(cap);
    gu_data_free(g);
    return NULL;
}

/* _gufunc_compile(ufunc, i): compile loop i's kernel now (the loops compile on their first call
 * otherwise). */
PyObject *
kn_ufunc_gufunc_compile(PyObject *module, PyObject *args)
{
    KN_UNUSED(module);
    PyObject *uf;
    int i;
    if (!PyArg_ParseTuple(args, "Oi", &uf, &i))
        return NULL;
    if (!umath_ready || !PyObject_TypeCheck(uf, &PyUFunc_Type) || !((PyUFuncObject *)uf)->obj ||
        !PyCapsule_IsValid(((PyUFuncObject *)uf)->obj, "kiln.gufunc")) {
        PyErr_SetString(PyExc_TypeError, "kiln: not a kiln gufunc");
        return NULL;
    }
    GuData *g = PyCapsule_GetPointer(((PyUFuncObject *)uf)->obj, "kiln.gufunc");
    if (i < 0 || i >= g->nloops) {
        PyErr_SetString(PyExc_IndexError, "kiln: no such gufunc loop");
        return NULL;
    }
    if (gu_prepare(&g->loops[i]) < 0)
        return NULL;
    Py_RETURN_NONE;
}
