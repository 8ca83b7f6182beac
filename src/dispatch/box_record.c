/* box_record.c - the boxing model of records (types/model_record.c) and the record type of a
 * structured NumPy dtype. kn_box_record_type reads a dtype's fields (names, offsets, element
 * dtypes: numbers in native byte order, nested structured dtypes, fixed-size sub-arrays of
 * them, fixed-length 'U' and 'S' strings) into a record type, which remembers the first dtype
 * object seen (held for the process) to box with; a small cache by dtype object skips that
 * work on the dispatcher's fingerprint. A record passed alone (np.void, `a[i]` of a structured
 * array) is copied into the argument buffer; one returned is a new np.void holding a copy of
 * its bytes, as Numba returns it. Key ("record", dtype). */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/box_model.h"

#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

static KnType *record_of(KnState *s, PyObject *descr, int depth);

/* the field's element (a number, a nested record, a string) into f; 0 or -1 with an error */
static int
field_element(KnState *s, PyObject *descr, PyObject *base, KnRecordField *f, int depth)
{
    PyArray_Descr *d = (PyArray_Descr *)base;
    if (PyDataType_HASFIELDS(d)) {
        f->type = record_of(s, base, depth + 1);
        return f->type ? 0 : -1;
    }
    if (d->kind == 'U' || d->kind == 'S') {
        f->chars = d->kind;
        f->nchars = (int64_t)PyDataType_ELSIZE(d) / (d->kind == 'U' ? 4 : 1);
        f->type = &kn_type_str;
        return 0;
    }
    f->type = PyDataType_ISNOTSWAPPED(d) && d->type_num < NPY_OBJECT
                  ? kn_box_dtype_by_kind(d->kind, (int)PyDataType_ELSIZE(d))
                  : NULL;
    if (f->type)
        return 0;
    PyErr_Format(PyExc_TypeError,
                 "kiln does not support the field '%s' (%R) of the structured dtype %R: fields "
                 "may be numbers in native byte order, structured dtypes, fixed-size sub-arrays "
                 "of them, and fixed-length str ('U') or bytes ('S')",
                 f->name, base, descr);
    return -1;
}

/* one field (name, its (dtype, offset[, title]) from dtype.fields) into f */
static int
read_field(KnState *s, PyObject *descr, PyObject *name, PyObject *info, KnRecordField *f,
           int depth)
{
    f->name = PyUnicode_AsUTF8(name);
    if (!f->name || !PyTuple_Check(info) || PyTuple_GET_SIZE(info) < 2)
        return -1;
    PyObject *fd = PyTuple_GET_ITEM(info, 0);
    f->offset = PyLong_AsLongLong(PyTuple_GET_ITEM(info, 1));
    f->size = (int64_t)PyDataType_ELSIZE((PyArray_Descr *)fd);
    PyObject *base = fd;
    if (PyDataType_HASSUBARRAY((PyArray_Descr *)fd)) {
        PyArray_ArrayDescr *sub = PyDataType_SUBARRAY((PyArray_Descr *)fd);
        base = (PyObject *)sub->base;
        PyObject *shape = sub->shape;
        Py_ssize_t nd = PyTuple_Check(shape) ? PyTuple_GET_SIZE(shape) : 1;
        if (nd < 1 || nd > 8) {
            PyErr_Format(PyExc_TypeError, "kiln supports sub-array fields of 1 to 8 dimensions, "
                                          "not the field '%s' of %R",
                         f->name, descr);
            return -1;
        }
        f->ndim = (int)nd;
        for (Py_ssize_t k = 0; k < nd; k++)
            f->shape[k] = PyLong_AsLongLong(PyTuple_Check(shape) ? PyTuple_GET_ITEM(shape, k)
                                                                 : shape);
        if (PyDataType_HASSUBARRAY((PyArray_Descr *)base)) {
            PyErr_Format(PyExc_TypeError, "kiln does not support nested sub-arrays (field '%s')",
                         f->name);
            return -1;
        }
    }
    if (PyErr_Occurred())
        return -1;
    return field_element(s, descr, base, f, depth);
}

static KnType *
record_of(KnState *s, PyObject *descr, int depth)
{
    PyArray_Descr *d = (PyArray_Descr *)descr;
    PyObject *names = PyDataType_NAMES(d), *fields = PyDataType_FIELDS(d);
    if (depth > 32 || !names || !fields || !PyTuple_Check(names) || !PyDict_Check(fields)) {
        PyErr_Format(PyExc_TypeError, "kiln cannot read the structured dtype %R", descr);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (n > 256) {
        PyErr_Format(PyExc_TypeError, "kiln supports records of at most 256 fields, not %zd", n);
        return NULL;
    }
    KnRecordField fs[256];
    memset(fs, 0, sizeof(KnRecordField) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        PyObject *info = PyDict_GetItemWithError(fields, name);
        if (!info || read_field(s, descr, name, info, &fs[i], depth) < 0) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "kiln cannot read the structured dtype %R", descr);
            return NULL;
        }
    }
    int aligned = (PyDataType_FLAGS(d) & NPY_ALIGNED_STRUCT) != 0;
    KnType *t = kn_type_record(&s->types, fs, (int)n, (int64_t)PyDataType_ELSIZE(d),
                               (int)PyDataType_ALIGNMENT(d), aligned);
    if (!t->ref)
        t->ref = Py_NewRef(descr); /* held for the process, as the type table is */
    return t;
}

/* a small cache of dtype objects (held) and their record types */
#define RECORD_CACHE 16
static struct {
    PyObject *descr;
    KnType *t;
} cache[RECORD_CACHE];
static int cache_next;

KnType *
kn_box_record_type(KnState *s, PyObject *descr)
{
    for (int i = 0; i < RECORD_CACHE; i++)
        if (cache[i].descr == descr)
            return cache[i].t;
    KnType *t = record_of(s, descr, 0);
    if (!t)
        return NULL;
    Py_XDECREF(cache[cache_next].descr);
    cache[cache_next].descr = Py_NewRef(descr);
    cache[cache_next].t = t;
    cache_next = (cache_next + 1) % RECORD_CACHE;
    return t;
}

static PyTypeObject *
record_pytype(void)
{
    return &PyVoidArrType_Type;
}

static KnType *
record_typeof(KnState *s, PyObject *o)
{
    PyObject *descr = (PyObject *)((PyVoidScalarObject *)o)->descr;
    if (!descr || !PyDataType_HASFIELDS((PyArray_Descr *)descr)) {
        PyErr_Format(PyExc_TypeError, "kiln cannot determine the type of %R (np.void without "
                                      "fields)",
                     o);
        return NULL;
    }
    return kn_box_record_type(s, descr);
}

static int
record_unbox(KnType *t, PyObject *o, char *dst)
{
    if (!PyArray_IsScalar(o, Void) || record_typeof(kn_state, o) != t) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    memcpy(dst, ((PyVoidScalarObject *)o)->obval, kn_type_size(t));
    return 0;
}

static PyObject *
record_box(KnType *t, const char *src)
{
    /* with no base, NumPy copies the bytes into the new np.void */
    return PyArray_Scalar((void *)src, (PyArray_Descr *)t->ref, NULL);
}

static PyObject *
record_key(KnType *t)
{
    return Py_BuildValue("(sO)", "record", (PyObject *)t->ref);
}

static KnType *
record_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 2 || !PyArray_DescrCheck(PyTuple_GET_ITEM(key, 1)) ||
        !PyDataType_HASFIELDS((PyArray_Descr *)PyTuple_GET_ITEM(key, 1))) {
        PyErr_Format(PyExc_TypeError, "kiln: bad record type key %R", key);
        return NULL;
    }
    return kn_box_record_type(s, PyTuple_GET_ITEM(key, 1));
}

const KnBoxModel kn_box_model_record = {.pytype = record_pytype,
                                        .typeof = record_typeof,
                                        .unbox = record_unbox,
                                        .box = record_box,
                                        .key = record_key,
                                        .tag = "record",
                                        .from_key = record_from_key};

int
kn_box_is_recarray(PyObject *o)
{
    static PyObject *recarray; /* numpy.recarray, looked up once, held for the process */
    if (!recarray) {
        PyObject *np = PyImport_ImportModule("numpy");
        recarray = np ? PyObject_GetAttrString(np, "recarray") : NULL;
        Py_XDECREF(np);
        if (!recarray) {
            PyErr_Clear();
            return 0;
        }
    }
    return (PyObject *)Py_TYPE(o) == recarray;
}
