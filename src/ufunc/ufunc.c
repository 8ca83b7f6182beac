/* ufunc.c - @kiln.vectorize's NumPy ufunc objects: a real numpy.ufunc whose inner loops call
 * compiled kiln code, so that NumPy supplies broadcasting, out=, where=, dtype=, casting= and
 * the reduce/accumulate/reduceat/outer/at methods.
 *
 * kiln/_vectorize.py writes, per vectorized function, one loop function in kiln's subset that
 * takes 1-d arrays (the inputs, then the output) and stores kernel(x0[i], ...) into out[i]; the
 * kernel is inlined into it by LLVM. Each ufunc loop (one per signature) holds that jitted loop
 * function and compiles two overloads of it on first use, through kn_dispatch_entry: one over
 * C-contiguous arrays (NumPy's contiguous inner loops: LLVM vectorizes it) and one over arrays
 * of any stride. NumPy's inner-loop call (args, dimensions, steps) becomes 1-d array structs
 * over NumPy's buffers (borrowed: no meminfo), one call of the overload's entry per inner
 * loop. With target='parallel' the inner loop is split over kn_par_for, each chunk calling the
 * same entry on its sub-range.
 *
 * Loops are added after the ufunc is made (kn_ufunc_add_loop), which is how a dynamic ufunc
 * (DUFunc) grows: the ufunc's functions/data/types arrays are owned here (a capsule in
 * ufunc->obj, freed with the ufunc) and reallocated, as Numba's DUFunc does. A loop that is not
 * compiled yet compiles when NumPy first runs it, taking the GIL; a compile error or an
 * exception raised by the kernel is set as the Python exception under the GIL and the rest of
 * the loop is skipped. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include <numpy/arrayobject.h>
#define PY_UFUNC_UNIQUE_SYMBOL kn_vectorize_UFUNC_API
#include <numpy/ufuncobject.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "parallel/pool.h"
#include "ufunc/ufunc.h"

#define UF_MAXARGS 32
#define UF_MASKED 4                        /* inputs that may be broadcast scalars in a variant */
#define UF_VARIANTS (1 + (1 << UF_MASKED)) /* strided, then contiguous by scalar-input mask */
#define UF_CAPSULE "kiln.vectorize"

typedef struct UfOwner UfOwner;

/* One loop of the ufunc: a signature and its compiled variants. Variant 0 is the loop function
 * over strided arrays; variant 1 + mask runs over a contiguous output and inputs that are
 * contiguous, except those in `mask` (bit j: input j), which NumPy broadcasts with step 0 (a
 * scalar operand): a loop function of its own reads them once before the loop. */
typedef struct UfLoop {
    UfOwner *owner;
    int nargs;
    KnType *elem[UF_MAXARGS];
    int64_t itemsize[UF_MAXARGS];
    KnDispatchEntry ent[UF_VARIANTS];
    atomic_int ready[UF_VARIANTS]; /* ent[i] is filled (set after it, read without the GIL) */
} UfLoop;

/* What a ufunc made here owns (the capsule in ufunc->obj). */
struct UfOwner {
    PyObject *loop_fn;   /* the jitted loop function */
    PyObject *make_loop; /* make_loop(mask): the loop function reading inputs in mask once */
    PyObject *masked[1 << UF_MASKED]; /* its results, by mask (0: loop_fn) */
    char *name, *doc;
    int nin, nout, parallel;
    int ntypes, cap;
    PyUFuncGenericFunction *functions;
    void **data;
    char *types;
    UfLoop **loops;
};

int
kn_ufunc_init(void)
{
    import_umath1(-1);
    return 0;
}

static void
owner_free(PyObject *capsule)
{
    UfOwner *o = PyCapsule_GetPointer(capsule, UF_CAPSULE);
    if (!o)
        return;
    Py_XDECREF(o->loop_fn);
    Py_XDECREF(o->make_loop);
    for (int m = 0; m < (1 << UF_MASKED); m++)
        Py_XDECREF(o->masked[m]);
    for (int i = 0; i < o->ntypes; i++)
        free(o->loops[i]);
    free(o->loops);
    free(o->functions);
    free(o->data);
    free(o->types);
    free(o->name);
    free(o->doc);
    free(o);
}

static UfOwner *
owner_of(PyObject *ufunc)
{
    if (!PyObject_TypeCheck(ufunc, &PyUFunc_Type)) {
        PyErr_SetString(PyExc_TypeError, "expected a ufunc made by kiln.vectorize");
        return NULL;
    }
    PyObject *cap = ((PyUFuncObject *)ufunc)->obj;
    if (!cap || !PyCapsule_IsValid(cap, UF_CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "expected a ufunc made by kiln.vectorize");
        return NULL;
    }
    return PyCapsule_GetPointer(cap, UF_CAPSULE);
}

/* The kiln scalar type of a NumPy type number (types/dtypes.def), or NULL. */
static KnType *
scalar_of_typenum(int num)
{
    PyArray_Descr *d = PyArray_DescrFromType(num);
    if (!d) {
        PyErr_Clear();
        return NULL;
    }
    char kind = d->kind;
    int size = (int)PyDataType_ELSIZE(d);
    int obj = d->type_num >= NPY_OBJECT;
    Py_DECREF(d);
    if (obj)
        return NULL;
    static const struct {
        KnType *t;
        char kind;
        int size;
    } table[] = {
#define X(type, npy, k, sz, cls) {&type, k, sz},
#include "types/dtypes.def"
#undef X
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].kind == kind && table[i].size == size)
            return table[i].t;
    return NULL;
}

/* The loop function of a variant (borrowed), made on first use; NULL with an error. */
static PyObject *
variant_fn(UfOwner *o, int which)
{
    int mask = which ? which - 1 : 0;
    if (!mask)
        return o->loop_fn;
    if (!o->masked[mask]) {
        PyObject *fn = PyObject_CallFunction(o->make_loop, "i", mask);
        if (!fn)
            return NULL;
        if (o->masked[mask]) /* another thread made it while this one ran Python code */
            Py_DECREF(fn);
        else
            o->masked[mask] = fn;
    }
    return o->masked[mask];
}

/* Compile variant `which` of a loop; call with the GIL. */
static int
loop_compile(UfLoop *L, int which)
{
    if (atomic_load_explicit(&L->ready[which], memory_order_acquire))
        return 0;
    KnType *args[UF_MAXARGS];
    for (int j = 0; j < L->nargs; j++)
        args[j] = kn_type_array(&kn_state->types, L->elem[j], 1, which ? 'C' : 'A', 0);
    PyObject *fn = variant_fn(L->owner, which);
    KnDispatchEntry e;
    if (!fn || kn_dispatch_entry(fn, args, L->nargs, NULL, &e) < 0)
        return -1;
    L->ent[which] = e;
    atomic_store_explicit(&L->ready[which], 1, memory_order_release);
    return 0;
}

/* Call the entry over iterations [lo, hi) of NumPy's inner loop. 0, or 1 with *exc filled. */
static int32_t
loop_run(const UfLoop *L, const KnDispatchEntry *e, char **args, const npy_intp *steps, int64_t lo,
         int64_t hi, KnExcInfo *exc)
{
    _Alignas(16) char buf[UF_MAXARGS * (sizeof(KnArrayStruct) + 2 * sizeof(int64_t))];
    _Alignas(16) char ret[16];
    for (int j = 0; j < L->nargs; j++) {
        KnArrayStruct *a = (KnArrayStruct *)(buf + e->offsets[j]);
        a->meminfo = NULL;
        a->parent = NULL;
        a->nitems = hi - lo;
        a->itemsize = L->itemsize[j];
        a->data = args[j] + lo * steps[j];
        a->dims[0] = hi - lo;
        a->dims[1] = steps[j];
    }
    return e->fn(ret, exc, buf);
}

/* A parallel region over one inner loop: each chunk runs the entry on its sub-range; the first
 * exception raised is kept. */
typedef struct UfPar {
    const UfLoop *L;
    const KnDispatchEntry *e;
    char **args;
    const npy_intp *steps;
    atomic_int failed;
    KnExcInfo exc;
} UfPar;

static int32_t
par_body(void *ctx, int64_t lo, int64_t hi, int64_t tid)
{
    (void)tid;
    UfPar *p = ctx;
    KnExcInfo exc = {0};
    int32_t st = loop_run(p->L, p->e, p->args, p->steps, lo, hi, &exc);
    if (st && atomic_exchange(&p->failed, 1) == 0)
        p->exc = exc;
    return st;
}

static void
raise_with_gil(KnExcInfo *exc)
{
    PyGILState_STATE g = PyGILState_Ensure();
    if (!PyErr_Occurred())
        kn_dispatch_raise(exc);
    PyGILState_Release(g);
}

/* Which variant runs NumPy's inner loop of n iterations with these steps. A step-0 input over
 * a step-0 output (a reduction's accumulator) is never read once: the output is contiguous. */
static int
variant_of(const UfLoop *L, npy_intp n, const npy_intp *steps)
{
    if (n == 1)
        return 1;
    int out = L->nargs - 1, mask = 0;
    if (steps[out] != L->itemsize[out])
        return 0;
    for (int j = 0; j < out; j++) {
        if (steps[j] == L->itemsize[j])
            continue;
        if (steps[j] != 0 || j >= UF_MASKED)
            return 0;
        mask |= 1 << j;
    }
    return 1 + mask;
}

/* The inner loop NumPy calls (PyUFuncGenericFunction). */
static void
uf_loop(char **args, const npy_intp *dims, const npy_intp *steps, void *data)
{
    UfLoop *L = data;
    npy_intp n = dims[0];
    if (n <= 0)
        return;
    int v = variant_of(L, n, steps);
    if (!atomic_load_explicit(&L->ready[v], memory_order_acquire)) {
        PyGILState_STATE g = PyGILState_Ensure();
        int rc = PyErr_Occurred() ? -1 : loop_compile(L, v);
        PyGILState_Release(g);
        if (rc < 0)
            return;
    }
    const KnDispatchEntry *e = &L->ent[v];
    KnExcInfo exc = {0};
    if (L->owner->parallel && n > 1) {
        UfPar p = {.L = L, .e = e, .args = args, .steps = steps};
        atomic_init(&p.failed, 0);
        if (kn_par_for(par_body, &p, n, 0, NULL) && atomic_load(&p.failed))
            raise_with_gil(&p.exc);
        return;
    }
    if (loop_run(L, e, args, steps, 0, n, &exc))
        raise_with_gil(&exc);
}

static char *
dup_str(PyObject *o)
{
    if (o == Py_None)
        return NULL;
    const char *s = PyUnicode_AsUTF8(o);
    if (!s)
        return NULL;
    char *r = strdup(s);
    if (!r)
        PyErr_NoMemory();
    return r;
}

PyObject *
kn_ufunc_new(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *name, *doc, *loop_fn, *make_loop;
    int nin, nout, identity, parallel;
    if (!PyArg_ParseTuple(args, "UOiiiOOp", &name, &doc, &nin, &nout, &identity, &loop_fn,
                          &make_loop, &parallel))
        return NULL;
    if (nin < 1 || nout != 1 || nin + nout > UF_MAXARGS) {
        PyErr_Format(PyExc_ValueError, "kiln.vectorize: %d inputs and %d outputs are not supported",
                     nin, nout);
        return NULL;
    }
    UfOwner *o = calloc(1, sizeof *o);
    if (!o)
        return PyErr_NoMemory();
    o->nin = nin;
    o->nout = nout;
    o->parallel = parallel;
    o->name = dup_str(name);
    o->doc = doc == Py_None ? NULL : dup_str(doc);
    if (!o->name || (doc != Py_None && !o->doc)) {
        free(o->name);
        free(o->doc);
        free(o);
        return NULL;
    }
    Py_INCREF(loop_fn);
    o->loop_fn = loop_fn;
    Py_INCREF(make_loop);
    o->make_loop = make_loop;
    PyObject *cap = PyCapsule_New(o, UF_CAPSULE, owner_free);
    if (!cap) {
        Py_DECREF(loop_fn);
        Py_DECREF(make_loop);
        free(o->name);
        free(o->doc);
        free(o);
        return NULL;
    }
    PyObject *uf =
        PyUFunc_FromFuncAndData(NULL, NULL, NULL, 0, nin, nout, identity, o->name, o->doc, 0);
    if (!uf) {
        Py_DECREF(cap);
        return NULL;
    }
    ((PyUFuncObject *)uf)->obj = cap; /* the ufunc's: decref'd when it is freed */
    return uf;
}

static int
grow(UfOwner *o)
{
    if (o->ntypes < o->cap)
        return 0;
    int cap = o->cap ? 2 * o->cap : 4;
    int nargs = o->nin + o->nout;
    PyUFuncGenericFunction *f = realloc(o->functions, sizeof *f * (size_t)cap);
    if (f)
        o->functions = f;
    void **d = f ? realloc(o->data, sizeof *d * (size_t)cap) : NULL;
    if (d)
        o->data = d;
    char *t = d ? realloc(o->types, (size_t)cap * (size_t)nargs) : NULL;
    if (t)
        o->types = t;
    UfLoop **l = t ? realloc(o->loops, sizeof *l * (size_t)cap) : NULL;
    if (!l) {
        PyErr_NoMemory();
        return -1;
    }
    o->loops = l;
    o->cap = cap;
    return 0;
}

PyObject *
kn_ufunc_add_loop(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *uf, *nums;
    if (!PyArg_ParseTuple(args, "OO!", &uf, &PyTuple_Type, &nums))
        return NULL;
    UfOwner *o = owner_of(uf);
    if (!o)
        return NULL;
    int nargs = o->nin + o->nout;
    if (PyTuple_GET_SIZE(nums) != nargs) {
        PyErr_Format(PyExc_ValueError, "a loop of this ufunc has %d types", nargs);
        return NULL;
    }
    UfLoop *L = calloc(1, sizeof *L);
    if (!L)
        return PyErr_NoMemory();
    L->owner = o;
    L->nargs = nargs;
    char tc[UF_MAXARGS];
    for (int j = 0; j < nargs; j++) {
        long num = PyLong_AsLong(PyTuple_GET_ITEM(nums, j));
        if (num == -1 && PyErr_Occurred()) {
            free(L);
            return NULL;
        }
        KnType *t = num >= 0 && num < NPY_OBJECT ? scalar_of_typenum((int)num) : NULL;
        if (!t) {
            free(L);
            PyErr_Format(PyExc_TypeError, "kiln.vectorize: NumPy type number %ld is not supported",
                         num);
            return NULL;
        }
        L->elem[j] = t;
        L->itemsize[j] = (int64_t)kn_type_size(t);
        tc[j] = (char)num;
    }
    if (grow(o) < 0) {
        free(L);
        return NULL;
    }
    int i = o->ntypes;
    o->functions[i] = uf_loop;
    o->data[i] = L;
    memcpy(o->types + (size_t)i * (size_t)nargs, tc, (size_t)nargs);
    o->loops[i] = L;
    o->ntypes = i + 1;
    PyUFuncObject *u = (PyUFuncObject *)uf;
    u->functions = o->functions;
    u->data = o->data;
    u->types = o->types;
    u->ntypes = o->ntypes;
    Py_RETURN_NONE;
}

PyObject *
kn_ufunc_compile(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *uf;
    int index;
    if (!PyArg_ParseTuple(args, "Oi", &uf, &index))
        return NULL;
    UfOwner *o = owner_of(uf);
    if (!o)
        return NULL;
    if (index < 0 || index >= o->ntypes) {
        PyErr_SetString(PyExc_IndexError, "no such loop");
        return NULL;
    }
    if (loop_compile(o->loops[index], 1) < 0)
        return NULL;
    Py_RETURN_NONE;
}
