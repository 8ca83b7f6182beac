/* box_record.c - the boxing model of records (types/model_record.c) and the record type of a
 * structured NumPy dtype: kn_box_record_type is frontend/record.c's reading of the dtype
 * behind a small cache by dtype object, which skips that work on the dispatcher's
 * fingerprint. A record passed alone (np.void, `a[i]` of a structured
 * array) is copied into the argument buffer; one returned is a new np.void holding a copy of
 * its bytes, as Numba returns it. Key ("record", dtype). */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/box_model.h"
#include "frontend/frontend.h"

#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

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
    KnType *t = kn_fe_record_type(&s->types, descr); /* frontend/record.c */
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
        PyErr_Format(PyExc_TypeError,
                     "kiln cannot determine the type of %R (np.void without "
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
    return PyArray_Scalar((void *)src, (PyArray_Descr *)t->descr, NULL);
}

static PyObject *
record_key(KnType *t)
{
    return Py_BuildValue("(sO)", "record", (PyObject *)t->descr);
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
