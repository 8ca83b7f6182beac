/* box.c - values between Python and compiled code. typeof gives the kiln type of a Python
 * object (Python ints are int64, floats float64, NumPy scalars keep their dtype), quickly for
 * the common exact types; unbox writes an object in a type's C layout (the dispatcher's argument
 * buffer); box makes a Python object from it (scalars come back as Python int/float/complex, as
 * in Numba). Keys are the plain Python values that name types across the C/Python boundary. */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/dispatch.h"

#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

static KnType *
numpy_scalar_type(PyObject *o)
{
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    if (!d)
        return NULL;
    KnType *t = NULL;
    switch (d->type_num) {
    case NPY_BOOL:
        t = &kn_type_bool;
        break;
    case NPY_BYTE:
        t = &kn_type_int8;
        break;
    case NPY_SHORT:
        t = &kn_type_int16;
        break;
    case NPY_INT:
        t = &kn_type_int32;
        break;
    case NPY_LONG:
        t = sizeof(long) == 8 ? &kn_type_int64 : &kn_type_int32;
        break;
    case NPY_LONGLONG:
        t = &kn_type_int64;
        break;
    case NPY_UBYTE:
        t = &kn_type_uint8;
        break;
    case NPY_USHORT:
        t = &kn_type_uint16;
        break;
    case NPY_UINT:
        t = &kn_type_uint32;
        break;
    case NPY_ULONG:
        t = sizeof(long) == 8 ? &kn_type_uint64 : &kn_type_uint32;
        break;
    case NPY_ULONGLONG:
        t = &kn_type_uint64;
        break;
    case NPY_FLOAT:
        t = &kn_type_float32;
        break;
    case NPY_DOUBLE:
        t = &kn_type_float64;
        break;
    case NPY_CFLOAT:
        t = &kn_type_complex64;
        break;
    case NPY_CDOUBLE:
        t = &kn_type_complex128;
        break;
    default:
        break;
    }
    Py_DECREF(d);
    return t;
}

static KnType *
typeof_int(PyObject *o)
{
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow)
        return &kn_type_int64;
    if (overflow > 0) {
        PyLong_AsUnsignedLongLong(o);
        if (!PyErr_Occurred())
            return &kn_type_uint64;
        PyErr_Clear();
    }
    PyErr_Format(PyExc_OverflowError, "int %R is too large to convert to a 64-bit integer", o);
    return NULL;
}

KnType *
kn_box_typeof(KnState *s, PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    if (tp == &PyLong_Type)
        return typeof_int(o);
    if (tp == &PyFloat_Type)
        return &kn_type_float64;
    if (tp == &PyBool_Type)
        return &kn_type_bool;
    if (o == Py_None)
        return &kn_type_none;
    if (tp == &PyComplex_Type)
        return &kn_type_complex128;
    if (tp == &PyTuple_Type) {
        Py_ssize_t n = PyTuple_GET_SIZE(o);
        KnType *items[256];
        if (n > 256) {
            PyErr_SetString(PyExc_TypeError, "kiln: tuples of more than 256 items");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (!(items[i] = kn_box_typeof(s, PyTuple_GET_ITEM(o, i))))
                return NULL;
        return kn_type_tuple(&s->types, items, (int)n);
    }
    if (tp == &PyRange_Type)
        return &kn_type_range;
    if (PyArray_IsScalar(o, Generic)) {
        KnType *t = numpy_scalar_type(o);
        if (t)
            return t;
    }
    if (PyLong_Check(o))
        return typeof_int(o);
    if (PyFloat_Check(o))
        return &kn_type_float64;
    PyErr_Format(PyExc_TypeError, "kiln cannot determine the type of %R (of type %s)", o,
                 tp->tp_name);
    return NULL;
}

static int
unbox_int(KnType *t, PyObject *o, char *dst)
{
    PyObject *idx = NULL;
    if (!PyLong_Check(o)) {
        if (PyFloat_Check(o) || PyComplex_Check(o)) {
            PyErr_Format(PyExc_TypeError, "cannot convert %R to %s", o, t->name);
            return -1;
        }
        idx = PyNumber_Index(o);
        if (!idx)
            return -1;
        o = idx;
    }
    unsigned long long u = 0;
    if (t->is_signed) {
        long long v = PyLong_AsLongLong(o);
        u = (unsigned long long)v;
    } else {
        u = PyLong_AsUnsignedLongLongMask(o);
    }
    Py_XDECREF(idx);
    if (u == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    switch (t->bits) {
    case 8:
        *(uint8_t *)dst = (uint8_t)u;
        break;
    case 16:
        *(uint16_t *)dst = (uint16_t)u;
        break;
    case 32:
        *(uint32_t *)dst = (uint32_t)u;
        break;
    default:
        *(uint64_t *)dst = (uint64_t)u;
        break;
    }
    return 0;
}

static int
unbox_range(PyObject *o, char *dst)
{
    static const char *const names[3] = {"start", "stop", "step"};
    for (int i = 0; i < 3; i++) {
        PyObject *v = PyObject_GetAttrString(o, names[i]);
        if (!v)
            return -1;
        ((int64_t *)dst)[i] = PyLong_AsLongLong(v);
        Py_DECREF(v);
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

int
kn_box_unbox(KnType *t, PyObject *o, char *dst)
{
    switch (t->kind) {
    case KN_TY_BOOL: {
        int v = PyObject_IsTrue(o);
        if (v < 0)
            return -1;
        *(uint8_t *)dst = (uint8_t)v;
        return 0;
    }
    case KN_TY_INT:
        if (Py_TYPE(o) == &PyLong_Type && t->bits == 64 && t->is_signed) {
            long long v = PyLong_AsLongLong(o);
            if (v == -1 && PyErr_Occurred())
                return -1;
            *(int64_t *)dst = v;
            return 0;
        }
        return unbox_int(t, o, dst);
    case KN_TY_FLOAT: {
        if (PyComplex_Check(o)) {
            PyErr_Format(PyExc_TypeError, "cannot convert %R to %s", o, t->name);
            return -1;
        }
        double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred())
            return -1;
        if (t->bits == 32)
            *(float *)dst = (float)v;
        else
            *(double *)dst = v;
        return 0;
    }
    case KN_TY_COMPLEX: {
        Py_complex z = PyComplex_AsCComplex(o);
        if (z.real == -1.0 && PyErr_Occurred())
            return -1;
        if (t->bits == 64) {
            ((float *)dst)[0] = (float)z.real;
            ((float *)dst)[1] = (float)z.imag;
        } else {
            ((double *)dst)[0] = z.real;
            ((double *)dst)[1] = z.imag;
        }
        return 0;
    }
    case KN_TY_NONE:
        *(uint8_t *)dst = 0;
        return 0;
    case KN_TY_TUPLE:
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != t->n) {
            PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
            return -1;
        }
        for (int i = 0; i < t->n; i++)
            KN_TRY(kn_box_unbox(t->items[i], PyTuple_GET_ITEM(o, i),
                                dst + kn_type_tuple_offset(t, i)));
        return 0;
    case KN_TY_RANGE:
        return unbox_range(o, dst);
    default:
        PyErr_Format(PyExc_TypeError, "cannot pass a value of type %s to compiled code", t->name);
        return -1;
    }
}

PyObject *
kn_box_box(KnType *t, const char *src)
{
    switch (t->kind) {
    case KN_TY_BOOL:
        return PyBool_FromLong(*(const uint8_t *)src);
    case KN_TY_INT:
        if (t->is_signed) {
            switch (t->bits) {
            case 8:
                return PyLong_FromLong(*(const int8_t *)src);
            case 16:
                return PyLong_FromLong(*(const int16_t *)src);
            case 32:
                return PyLong_FromLong(*(const int32_t *)src);
            default:
                return PyLong_FromLongLong(*(const int64_t *)src);
            }
        }
        switch (t->bits) {
        case 8:
            return PyLong_FromUnsignedLong(*(const uint8_t *)src);
        case 16:
            return PyLong_FromUnsignedLong(*(const uint16_t *)src);
        case 32:
            return PyLong_FromUnsignedLong(*(const uint32_t *)src);
        default:
            return PyLong_FromUnsignedLongLong(*(const uint64_t *)src);
        }
    case KN_TY_FLOAT:
        return PyFloat_FromDouble(t->bits == 32 ? *(const float *)src : *(const double *)src);
    case KN_TY_COMPLEX:
        if (t->bits == 64)
            return PyComplex_FromDoubles(((const float *)src)[0], ((const float *)src)[1]);
        return PyComplex_FromDoubles(((const double *)src)[0], ((const double *)src)[1]);
    case KN_TY_NONE:
        Py_RETURN_NONE;
    case KN_TY_TUPLE: {
        PyObject *r = PyTuple_New(t->n);
        if (!r)
            return NULL;
        for (int i = 0; i < t->n; i++) {
            PyObject *v = kn_box_box(t->items[i], src + kn_type_tuple_offset(t, i));
            if (!v) {
                Py_DECREF(r);
                return NULL;
            }
            PyTuple_SET_ITEM(r, i, v);
        }
        return r;
    }
    case KN_TY_RANGE: {
        const int64_t *r = (const int64_t *)src;
        return PyObject_CallFunction((PyObject *)&PyRange_Type, "LLL", (long long)r[0],
                                     (long long)r[1], (long long)r[2]);
    }
    default:
        PyErr_Format(PyExc_TypeError, "cannot return a value of type %s to Python", t->name);
        return NULL;
    }
}

PyObject *
kn_box_key(KnType *t)
{
    if (t->kind == KN_TY_TUPLE) {
        PyObject *k = PyTuple_New(t->n + 1);
        if (!k)
            return NULL;
        PyTuple_SET_ITEM(k, 0, PyUnicode_FromString("tuple"));
        for (int i = 0; i < t->n; i++) {
            PyObject *item = kn_box_key(t->items[i]);
            if (!item) {
                Py_DECREF(k);
                return NULL;
            }
            PyTuple_SET_ITEM(k, i + 1, item);
        }
        return k;
    }
    if (t->kind == KN_TY_RANGE)
        return PyUnicode_FromString("range");
    return PyUnicode_FromString(t->name);
}

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
        PyUnicode_Check(PyTuple_GET_ITEM(key, 0)) &&
        !strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(key, 0)), "tuple")) {
        Py_ssize_t n = PyTuple_GET_SIZE(key) - 1;
        KnType *items[256];
        if (n > 256) {
            PyErr_SetString(PyExc_TypeError, "kiln: tuples of more than 256 items");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (!(items[i] = kn_box_from_key(s, PyTuple_GET_ITEM(key, i + 1))))
                return NULL;
        return kn_type_tuple(&s->types, items, (int)n);
    }
    PyErr_Format(PyExc_TypeError, "kiln: type %R is not supported yet", key);
    return NULL;
}
