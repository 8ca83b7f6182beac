/* box_number.c - the boxing models of bool, int, float and complex. typeof: a Python int is
 * int64 (uint64 past int64's range, an OverflowError past that), a float float64, a complex
 * complex128 (NumPy scalars, which keep their dtype, are box.c's slow path). unbox converts
 * any object Python would (bool: its truth; int: an int or __index__, never a float; float:
 * __float__, never a complex); box returns Python's int, float, complex and bool, as Numba. */
#include "dispatch/box_model.h"

/* ---- bool ---- */

static PyTypeObject *
bool_pytype(void)
{
    return &PyBool_Type;
}

static KnType *
bool_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_bool;
}

static int
bool_unbox(KnType *t, PyObject *o, char *dst)
{
    KN_UNUSED(t);
    int v = PyObject_IsTrue(o);
    if (v < 0)
        return -1;
    *(uint8_t *)dst = (uint8_t)v;
    return 0;
}

static PyObject *
bool_box(KnType *t, const char *src)
{
    KN_UNUSED(t);
    return PyBool_FromLong(*(const uint8_t *)src);
}

const KnBoxModel kn_box_model_bool = {
    .pytype = bool_pytype, .typeof = bool_typeof, .unbox = bool_unbox, .box = bool_box};

/* ---- int ---- */

static PyTypeObject *
int_pytype(void)
{
    return &PyLong_Type;
}

KnType *
kn_box_typeof_int(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
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

static int
unbox_any_int(KnType *t, PyObject *o, char *dst)
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
int_unbox(KnType *t, PyObject *o, char *dst)
{
    if (Py_TYPE(o) == &PyLong_Type && t->bits == 64 && t->is_signed) {
        long long v = PyLong_AsLongLong(o);
        if (v == -1 && PyErr_Occurred())
            return -1;
        *(int64_t *)dst = v;
        return 0;
    }
    return unbox_any_int(t, o, dst);
}

static PyObject *
int_box(KnType *t, const char *src)
{
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
}

const KnBoxModel kn_box_model_int = {
    .pytype = int_pytype, .typeof = kn_box_typeof_int, .unbox = int_unbox, .box = int_box};

/* ---- float ---- */

static PyTypeObject *
float_pytype(void)
{
    return &PyFloat_Type;
}

static KnType *
float_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_float64;
}

static int
float_unbox(KnType *t, PyObject *o, char *dst)
{
    if (PyComplex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "cannot convert %R to %s", o, t->name);
        return -1;
    }
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    if (t->bits == 16)
        *(_Float16 *)dst = kn_rt_f16_from_f64(v);
    else if (t->bits == 32)
        *(float *)dst = (float)v;
    else
        *(double *)dst = v;
    return 0;
}

static PyObject *
float_box(KnType *t, const char *src)
{
    if (t->bits == 16)
        return PyFloat_FromDouble((double)kn_rt_f16_to_f32(*(const _Float16 *)src));
    return PyFloat_FromDouble(t->bits == 32 ? *(const float *)src : *(const double *)src);
}

const KnBoxModel kn_box_model_float = {
    .pytype = float_pytype, .typeof = float_typeof, .unbox = float_unbox, .box = float_box};

/* ---- complex ---- */

static PyTypeObject *
complex_pytype(void)
{
    return &PyComplex_Type;
}

static KnType *
complex_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_complex128;
}

static int
complex_unbox(KnType *t, PyObject *o, char *dst)
{
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

static PyObject *
complex_box(KnType *t, const char *src)
{
    if (t->bits == 64)
        return PyComplex_FromDoubles(((const float *)src)[0], ((const float *)src)[1]);
    return PyComplex_FromDoubles(((const double *)src)[0], ((const double *)src)[1]);
}

const KnBoxModel kn_box_model_complex = {
    .pytype = complex_pytype, .typeof = complex_typeof, .unbox = complex_unbox, .box = complex_box};
