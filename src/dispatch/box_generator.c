/* box_generator.c - a compiled generator called from the interpreter, as a Python iterator.
 *
 * Calling a jitted generator function from Python compiles it as a resumable frame
 * (lower/generators.c) and returns a kiln.generator: {the frame, the overload's next and drop
 * functions, the type it yields, the dispatcher (whose code must outlive it), the Python
 * arguments (arrays and strs are borrowed from them)}. Making it unboxes the arguments into
 * the C buffer, as a call does, and runs init, which copies them into a zeroed frame with
 * references of its own. __next__ runs next: an item is boxed (the box takes the reference
 * next gave it), exhaustion ends the iteration (StopIteration), a raise is raised as from any
 * compiled call and finishes the generator. close() and deallocation run drop, which releases
 * what a generator dropped half consumed still holds. send() and throw() are not provided (as
 * Numba). A reflected list argument is copied in and never written back (the generator runs
 * after the call has returned). */
#include "dispatch/box_model.h"
#include "dispatch/dispatch.h"

typedef struct KnGenerator {
    PyObject_HEAD char *frame;
    KnWrapperFn next;
    void (*drop)(void *);
    KnType *yield;
    KnMemInfo *mi;   /* made by compiled code: the frame's meminfo (its destructor drops) */
    PyObject *owner; /* the dispatcher */
    PyObject *args;  /* the arguments, a tuple */
    PyObject *name;
    int running, finished;
} KnGenerator;

static void
finish(KnGenerator *g)
{
    if (g->frame && g->drop)
        g->drop(g->frame);
    g->finished = 1;
}

static void
gen_dealloc(PyObject *self)
{
    KnGenerator *g = (KnGenerator *)self;
    if (g->mi) {
        kn_rt_decref(g->mi);
    } else {
        finish(g);
        free(g->frame);
    }
    Py_XDECREF(g->owner);
    Py_XDECREF(g->args);
    Py_XDECREF(g->name);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
gen_iternext(PyObject *self)
{
    KnGenerator *g = (KnGenerator *)self;
    if (g->finished)
        return NULL;
    if (g->running) {
        PyErr_SetString(PyExc_ValueError, "generator already executing");
        return NULL;
    }
    _Alignas(16) char small[256];
    size_t size = kn_type_size(g->yield);
    char *out = size <= sizeof small ? small : aligned_alloc(16, (size + 15) / 16 * 16);
    if (!out)
        return PyErr_NoMemory();
    KnExcInfo exc = {0, 0, {0}, NULL, NULL};
    g->running = 1;
    int token = kn_interrupt_enter();
    int st = g->next(out, &exc, g->frame);
    kn_interrupt_leave(token);
    g->running = 0;
    PyObject *item = NULL;
    if (st == 0) {
        item = kn_box_box(g->yield, out);
    } else if (st == 2) {
        g->finished = 1; /* NULL, no exception: StopIteration */
    } else {
        g->finished = 1;
        if (exc.index == KN_EXC_INTERRUPT)
            kn_interrupt_raise();
        else
            kn_dispatch_raise(&exc);
    }
    if (out != small)
        free(out);
    return item;
}

static PyObject *
gen_close(PyObject *self, PyObject *unused)
{
    KN_UNUSED(unused);
    KnGenerator *g = (KnGenerator *)self;
    if (g->running) {
        PyErr_SetString(PyExc_ValueError, "generator already executing");
        return NULL;
    }
    finish(g);
    Py_RETURN_NONE;
}

static PyObject *
gen_repr(PyObject *self)
{
    KnGenerator *g = (KnGenerator *)self;
    return PyUnicode_FromFormat("<kiln generator object %S at %p>", g->name, self);
}

static PyObject *
gen_get_name(PyObject *self, void *closure)
{
    KN_UNUSED(closure);
    return Py_NewRef(((KnGenerator *)self)->name);
}

static PyMethodDef gen_methods[] = {
    {"close", gen_close, METH_NOARGS, "Release what the generator holds; it yields no more."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef gen_getset[] = {
    {"__name__", gen_get_name, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KnGenerator_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln.generator",
    .tp_basicsize = sizeof(KnGenerator),
    .tp_dealloc = gen_dealloc,
    .tp_repr = gen_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled generator (kiln): iterate over it; close() releases it.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = gen_iternext,
    .tp_methods = gen_methods,
    .tp_getset = gen_getset,
};

static void *
lookup(const char *symbol, const char *suffix)
{
    char name[512];
    snprintf(name, sizeof name, "%s%s", symbol, suffix);
    char *err = NULL;
    void *p = kn_compile_lookup(kn_state->jit, name, &err);
    if (!p)
        PyErr_Format(PyExc_RuntimeError, "kiln: cannot link %s: %s", name, err ? err : "?");
    free(err);
    return p;
}

PyObject *
kn_box_generator_start(PyObject *owner, KnGenStart *s, PyObject *const *args)
{
    if (!(KnGenerator_Type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&KnGenerator_Type) < 0)
        return NULL;
    if (!s->fns[0]) {
        void *init = lookup(s->symbol, "_wrap"), *next = init ? lookup(s->symbol, "") : NULL;
        void *drop = next ? lookup(s->symbol, "_drop") : NULL;
        void *size = drop ? lookup(s->symbol, "_size") : NULL;
        if (!size)
            return NULL;
        s->fns[1] = next;
        s->fns[2] = drop;
        s->frame_size = (size_t)((int64_t (*)(void))size)();
        s->fns[0] = init;
    }
    char small[512];
    char *buf = s->argbuf_size <= sizeof small ? small : malloc(s->argbuf_size);
    char *frame = calloc(1, s->frame_size);
    PyObject *tuple = PyTuple_New(s->nargs);
    KnGenerator *g = NULL;
    int unboxed = 0, mark = kn_box_reflect_mark();
    if (!buf || !frame || !tuple) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < s->nargs; i++)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    for (; unboxed < s->nargs; unboxed++)
        if (kn_box_unbox(s->args[unboxed], args[unboxed], buf + s->offsets[unboxed]) < 0)
            goto done;
    KnExcInfo exc = {0, 0, {0}, NULL, NULL};
    ((KnWrapperFn)s->fns[0])(frame, &exc, buf); /* the arguments into the frame */
    g = PyObject_New(KnGenerator, &KnGenerator_Type);
    if (!g) {
        ((void (*)(void *))s->fns[2])(frame);
        goto done;
    }
    g->frame = frame;
    g->mi = NULL;
    frame = NULL;
    g->next = (KnWrapperFn)s->fns[1];
    g->drop = (void (*)(void *))s->fns[2];
    g->yield = s->yield;
    g->owner = Py_NewRef(owner);
    g->args = tuple;
    tuple = NULL;
    g->name = PyObject_GetAttrString(owner, "__name__");
    if (!g->name) {
        PyErr_Clear();
        g->name = PyUnicode_FromString("?");
    }
    g->running = g->finished = 0;
done:
    if (kn_box_reflect_done(mark) < 0)
        Py_CLEAR(g);
    for (int i = 0; i < unboxed; i++)
        kn_box_release(s->args[i], buf + s->offsets[i]);
    if (buf != small)
        free(buf);
    free(frame);
    Py_XDECREF(tuple);
    return (PyObject *)g;
}

/* A generator made in compiled code and returned: the kiln.generator takes the meminfo's
 * reference. */
static PyObject *
gen_box(KnType *t, const char *src)
{
    KnMemInfo *mi;
    memcpy(&mi, src, sizeof mi);
    if (!(KnGenerator_Type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&KnGenerator_Type) < 0)
        return NULL;
    void *next = lookup(t->ref, ""), *drop = next ? lookup(t->ref, "_drop") : NULL;
    KnGenerator *g = drop ? PyObject_New(KnGenerator, &KnGenerator_Type) : NULL;
    if (!g) {
        kn_rt_decref(mi);
        return NULL;
    }
    g->frame = mi->data;
    g->mi = mi;
    g->next = (KnWrapperFn)next;
    g->drop = (void (*)(void *))drop;
    g->yield = t->dtype ? t->dtype : &kn_type_none;
    g->owner = NULL;
    g->args = NULL;
    g->name = PyUnicode_FromString(t->name);
    g->running = g->finished = 0;
    return (PyObject *)g;
}

const KnBoxModel kn_box_model_gen = {.box = gen_box};
