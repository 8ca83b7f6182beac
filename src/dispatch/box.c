/* box.c - values between Python and compiled code, dispatched to each kind's boxing model
 * (dispatch/box_model.h; box_number.c, box_tuple.c, box_array.c, box_misc.c). typeof gives the
 * kiln type of a Python object: one lookup of its exact type in a table built from the models'
 * `pytype` (Python ints are int64, floats float64, ndarrays arrays, ...), then a slow path for
 * NumPy scalars (which keep their dtype) and subclasses of int, float and ndarray. unbox writes
 * an object in a type's C layout (the dispatcher's argument buffer); box makes a Python object
 * from it (scalars come back as Python int/float/complex, as in Numba). Keys are the plain
 * Python values that name types across the C/Python boundary; the dtype table
 * (types/dtypes.def) gives NumPy's type numbers. */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/box_model.h"

#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

static const KnBoxModel *const models[KN_TY_COUNT] = {
#define X(kind, name, tm, lm, bm, flags) [KN_TY_##kind] = &kn_box_model_##bm,
#include "types/kinds.def"
#undef X
};

/* The kiln type of a dtype by its kind and size (types/dtypes.def), or NULL. Every spelling
 * of a type number (NPY_LONG and NPY_LONGLONG on Linux) has the same kind and size. */
KnType *
kn_box_dtype_by_kind(char kind, int size)
{
    static const struct {
        KnType *t;
        char kind;
        int size;
    } table[] = {
#define X(type, npy, k, sz, cls) {&type, k, sz},
#include "types/dtypes.def"
#undef X
    };
    for (int i = 0; i < KN_ARRAY_LEN(table); i++)
        if (table[i].kind == kind && table[i].size == size)
            return table[i].t;
    return NULL;
}

/* The kiln type of a NumPy scalar (np.float32(1), np.int8(3)), or NULL. */
static KnType *
numpy_scalar_type(PyObject *o)
{
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    if (!d)
        return NULL;
    KnType *t = d->type_num < NPY_OBJECT || d->type_num == NPY_HALF
                    ? kn_box_dtype_by_kind(d->kind, (int)PyDataType_ELSIZE(d))
                    : NULL;
    Py_DECREF(d);
    return t;
}

int
kn_box_type_num(const KnType *t)
{
#define X(type, npy, kind, size, cls)                                                              \
    if (t == &type)                                                                                \
        return npy;
#include "types/dtypes.def"
#undef X
    return -1;
}

/* ---- typeof: exact Python type -> the model's typeof, in one open-addressed table ---- */

typedef KnType *(*TypeofFn)(KnState *s, PyObject *o);

#define TYPEOF_SLOTS 32 /* a power of two, over twice the kinds with a Python type */

static struct {
    PyTypeObject *tp;
    TypeofFn fn;
} typeof_table[TYPEOF_SLOTS];
static int typeof_ready;

static inline unsigned
typeof_slot(const PyTypeObject *tp)
{
    return (unsigned)(((uintptr_t)tp * 0x9E3779B97F4A7C15ull) >> 59) & (TYPEOF_SLOTS - 1);
}

/* Fill the table from the models. On first use, from the slow path (a miss of the empty
 * table), so that the hot path tests nothing more: &PyArray_Type is known only once NumPy's C
 * API is imported. */
static void
typeof_init(void)
{
    for (int k = 0; k < KN_TY_COUNT; k++) {
        const KnBoxModel *m = models[k];
        if (!m->pytype || !m->typeof)
            continue;
        for (int second = 0; second < 2; second++) {
            PyTypeObject *tp = second ? (m->pytype2 ? m->pytype2() : NULL) : m->pytype();
            if (!tp)
                continue;
            unsigned i = typeof_slot(tp);
            while (typeof_table[i].tp && typeof_table[i].tp != tp)
                i = (i + 1) & (TYPEOF_SLOTS - 1);
            typeof_table[i].tp = tp;
            typeof_table[i].fn = m->typeof;
        }
    }
    typeof_ready = 1;
}

/* What the table does not know: NumPy scalars keep their dtype; subclasses of int and float
 * are ints and floats (bool, a subclass of int, is exact in the table); np.memmap is an
 * array and other ndarray subclasses a TypeError. Kept out of line: the hot path stays a leaf
 * lookup and a tail call. */
static __attribute__((noinline, cold)) KnType *
typeof_slow(KnState *s, PyObject *o)
{
    if (!typeof_ready) {
        typeof_init();
        return kn_box_typeof(s, o);
    }
    if (PyArray_IsScalar(o, Generic)) {
        KnType *t = numpy_scalar_type(o);
        if (t)
            return t;
    }
    KnType *e = kn_box_typeof_enum(s, o); /* before int: an IntEnum member (box_enum.c) */
    if (e)
        return e == (KnType *)-1 ? NULL : e;
    if (PyLong_Check(o))
        return kn_box_typeof_int(s, o);
    if (PyFloat_Check(o))
        return &kn_type_float64;
    if (PyArray_Check(o))
        return kn_box_check_subclass(o) < 0 ? NULL : kn_box_typeof_array(s, o);
    if (PyTuple_Check(o)) { /* a namedtuple (box_namedtuple.c) */
        KnType *t = kn_box_typeof_namedtuple(s, o);
        if (t)
            return t == (KnType *)-1 ? NULL : t;
    }
    if (PyBytes_Check(o) || PyByteArray_Check(o) || PyMemoryView_Check(o))
        return kn_box_typeof_buffer(s, o); /* a uint8 array (box_array.c) */
    PyErr_Format(PyExc_TypeError, "kiln cannot determine the type of %R (of type %s)", o,
                 Py_TYPE(o)->tp_name);
    return NULL;
}

KnType *
kn_box_typeof(KnState *s, PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    for (unsigned i = typeof_slot(tp); typeof_table[i].tp; i = (i + 1) & (TYPEOF_SLOTS - 1))
        if (typeof_table[i].tp == tp)
            return typeof_table[i].fn(s, o);
    return typeof_slow(s, o);
}

/* ---- unbox, box, key: the kind's model ---- */

int
kn_box_unbox(KnType *t, PyObject *o, char *dst)
{
    const KnBoxModel *m = models[t->kind];
    if (!m->unbox) {
        PyErr_Format(PyExc_TypeError, "cannot pass a value of type %s to compiled code", t->name);
        return -1;
    }
    return m->unbox(t, o, dst);
}

void
kn_box_release(KnType *t, char *src)
{
    const KnBoxModel *m = models[t->kind];
    if (m->release)
        m->release(t, src);
}

void
kn_box_release_meminfo(KnType *t, char *src)
{
    KN_UNUSED(t);
    KnMemInfo *mi;
    memcpy(&mi, src, sizeof mi);
    kn_rt_decref(mi);
}

PyObject *
kn_box_box(KnType *t, const char *src)
{
    const KnBoxModel *m = models[t->kind];
    if (!m->box) {
        PyErr_Format(PyExc_TypeError, "cannot return a value of type %s to Python", t->name);
        return NULL;
    }
    return m->box(t, src);
}

PyObject *
kn_box_key(KnType *t)
{
    const KnBoxModel *m = models[t->kind];
    return m->key ? m->key(t) : PyUnicode_FromString(t->name);
}

/* A key names a primitive (a str: kn_type_by_name) or is a tuple whose first item is the tag
 * of the kind's boxing model ("tuple", "array"), which reads the rest. */
KnType *
kn_box_from_key(KnState *s, PyObject *key)
{
    if (PyUnicode_Check(key)) {
        KnType *t = kn_type_by_name(PyUnicode_AsUTF8(key));
        if (!t)
            PyErr_Format(PyExc_TypeError, "kiln: unknown type %R", key);
        return t;
    }
    if (PyTuple_Check(key) && PyTuple_GET_SIZE(key) >= 1 &&
        PyUnicode_Check(PyTuple_GET_ITEM(key, 0))) {
        const char *tag = PyUnicode_AsUTF8(PyTuple_GET_ITEM(key, 0));
        if (tag && !strcmp(tag, "namedtuple")) /* a TUPLE too (box_namedtuple.c) */
            return kn_box_namedtuple_from_key(s, key);
        for (int k = 0; tag && k < KN_TY_COUNT; k++)
            if (models[k]->tag && models[k]->from_key && !strcmp(models[k]->tag, tag))
                return models[k]->from_key(s, key);
    }
    PyErr_Format(PyExc_TypeError, "kiln: type %R is not supported yet", key);
    return NULL;
}
