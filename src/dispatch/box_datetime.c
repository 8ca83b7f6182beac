/* box_datetime.c - the boxing model of np.datetime64 and np.timedelta64 scalars
 * (types/model_datetime.c) and the datetime dtypes of arrays: typeof reads the scalar's unit
 * (a multiple such as [5s] is refused: kiln's types have one unit each), unbox its int64,
 * box a new scalar of the type's unit through a dtype made once per unit (held for the
 * process). Key ("datetime64", unit) / ("timedelta64", unit). */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/box_model.h"

#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

static PyTypeObject *
datetime_pytype(void)
{
    return &PyDatetimeArrType_Type;
}

static PyTypeObject *
timedelta_pytype(void)
{
    return &PyTimedeltaArrType_Type;
}

static KnType *
of_meta(KnState *s, int is_delta, PyArray_DatetimeMetaData m, PyObject *what)
{
    KnType *t = m.num == 1 || m.base == NPY_FR_GENERIC
                    ? kn_type_datetime(&s->types, is_delta, (int)m.base)
                    : NULL;
    if (!t)
        PyErr_Format(PyExc_TypeError,
                     "kiln supports datetime64 and timedelta64 of one unit (Y, M, W, D, h, m, s, "
                     "ms, us, ns, ps, fs, as or none), not %R",
                     what);
    return t;
}

/* the type of a datetime dtype d (kind 'M' or 'm'), or NULL with a TypeError */
KnType *
kn_box_datetime_dtype(KnState *s, PyObject *descr)
{
    PyArray_Descr *d = (PyArray_Descr *)descr;
    PyArray_DatetimeDTypeMetaData *md = (PyArray_DatetimeDTypeMetaData *)PyDataType_C_METADATA(d);
    if (!md) {
        PyErr_Format(PyExc_TypeError, "kiln cannot read the datetime dtype %R", (PyObject *)d);
        return NULL;
    }
    return of_meta(s, d->type_num == NPY_TIMEDELTA, md->meta, (PyObject *)d);
}

/* the dtype of t (a new reference), made once per kind and unit */
PyObject *
kn_box_datetime_descr(const KnType *t)
{
    static PyArray_Descr *descrs[2][KN_TU_GENERIC + 1];
    int delta = t->kind == KN_TY_TIMEDELTA, u = t->id;
    if (!descrs[delta][u]) {
        char spec[32];
        const char *un = kn_type_time_unit_name(u);
        if (u == KN_TU_GENERIC)
            snprintf(spec, sizeof spec, "%s8", delta ? "m" : "M");
        else
            snprintf(spec, sizeof spec, "%s8[%s]", delta ? "m" : "M", un ? un : "s");
        PyObject *str = PyUnicode_FromString(spec);
        PyArray_Descr *d = NULL;
        if (!str || !PyArray_DescrConverter(str, &d)) {
            Py_XDECREF(str);
            return NULL;
        }
        Py_DECREF(str);
        descrs[delta][u] = d; /* held for the process */
    }
    return Py_NewRef((PyObject *)descrs[delta][u]);
}

static KnType *
datetime_typeof(KnState *s, PyObject *o)
{
    int delta = PyArray_IsScalar(o, Timedelta);
    PyArray_DatetimeMetaData m =
        delta ? ((PyTimedeltaScalarObject *)o)->obmeta : ((PyDatetimeScalarObject *)o)->obmeta;
    return of_meta(s, delta, m, o);
}

static int
datetime_unbox(KnType *t, PyObject *o, char *dst)
{
    int delta = t->kind == KN_TY_TIMEDELTA;
    if (!(delta ? PyArray_IsScalar(o, Timedelta) : PyArray_IsScalar(o, Datetime)) ||
        datetime_typeof(kn_state, o) != t) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    int64_t v =
        delta ? ((PyTimedeltaScalarObject *)o)->obval : ((PyDatetimeScalarObject *)o)->obval;
    memcpy(dst, &v, sizeof v);
    return 0;
}

static PyObject *
datetime_box(KnType *t, const char *src)
{
    PyArray_Descr *d = (PyArray_Descr *)kn_box_datetime_descr(t);
    if (!d)
        return NULL;
    PyObject *r = PyArray_Scalar((void *)src, d, NULL);
    Py_DECREF(d);
    return r;
}

static PyObject *
datetime_key(KnType *t)
{
    return Py_BuildValue("(ss)", t->kind == KN_TY_TIMEDELTA ? "timedelta64" : "datetime64",
                         kn_type_time_unit_name(t->id));
}

static KnType *
from_key(KnState *s, PyObject *key, int delta)
{
    const char *u = PyTuple_GET_SIZE(key) == 2 && PyUnicode_Check(PyTuple_GET_ITEM(key, 1))
                        ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(key, 1))
                        : NULL;
    KnType *t = kn_type_datetime(&s->types, delta, kn_type_time_unit_by_name(u));
    if (!t)
        PyErr_Format(PyExc_TypeError, "kiln: bad datetime type key %R", key);
    return t;
}

static KnType *
datetime_from_key(KnState *s, PyObject *key)
{
    return from_key(s, key, 0);
}

static KnType *
timedelta_from_key(KnState *s, PyObject *key)
{
    return from_key(s, key, 1);
}

const KnBoxModel kn_box_model_datetime = {.pytype = datetime_pytype,
                                          .typeof = datetime_typeof,
                                          .unbox = datetime_unbox,
                                          .box = datetime_box,
                                          .key = datetime_key,
                                          .tag = "datetime64",
                                          .from_key = datetime_from_key};

const KnBoxModel kn_box_model_timedelta = {.pytype = timedelta_pytype,
                                           .typeof = datetime_typeof,
                                           .unbox = datetime_unbox,
                                           .box = datetime_box,
                                           .key = datetime_key,
                                           .tag = "timedelta64",
                                           .from_key = timedelta_from_key};
