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

/* The kiln type of a dtype by its kind and size (types/dtypes.def), or NULL. Every spelling
 * of a type number (NPY_LONG and NPY_LONGLONG on Linux) has the same kind and size. */
static KnType *
dtype_by_kind(char kind, int size)
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

/* The element type of a NumPy dtype, or NULL. */
static KnType *
dtype_type(PyArray_Descr *d)
{
    if (!PyDataType_ISNOTSWAPPED(d) || d->type_num >= NPY_OBJECT)
        return NULL;
    return dtype_by_kind(d->kind, (int)PyDataType_ELSIZE(d));
}

static KnType *
numpy_scalar_type(PyObject *o)
{
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    if (!d)
        return NULL;
    KnType *t = d->type_num < NPY_OBJECT ? dtype_by_kind(d->kind, (int)PyDataType_ELSIZE(d)) : NULL;
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

/* Which ndarray subclasses compiled code may take: np.memmap is a plain buffer (the data on
 * disk, mapped), so it is taken as an array, as Numba does; any other subclass (np.matrix,
 * np.ma.MaskedArray, user classes) gives its elements a meaning that compiled code would drop
 * (a mask, matrix products), so it is a TypeError naming the class, never silently an ndarray.
 * 0: fine; -1: the error is set. */
static int
check_subclass(PyObject *o)
{
    static PyObject *memmap; /* numpy.memmap, looked up once, held for the process */
    PyTypeObject *tp = Py_TYPE(o);
    if (tp == &PyArray_Type)
        return 0;
    if (!memmap) {
        PyObject *np = PyImport_ImportModule("numpy");
        memmap = np ? PyObject_GetAttrString(np, "memmap") : NULL;
        Py_XDECREF(np);
        if (!memmap)
            return -1;
    }
    int is_memmap = PyObject_IsInstance(o, memmap);
    if (is_memmap < 0)
        return -1;
    if (is_memmap && (PyObject *)tp == memmap)
        return 0;
    PyObject *mod =
        strchr(tp->tp_name, '.') ? NULL : PyObject_GetAttrString((PyObject *)tp, "__module__");
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError,
                 "kiln does not support ndarray subclasses such as %s%s%s: compiled code would "
                 "ignore what the subclass adds (pass np.asarray(x) to compute on the plain "
                 "array)",
                 mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : "",
                 mod && PyUnicode_Check(mod) ? "." : "", tp->tp_name);
    Py_XDECREF(mod);
    return -1;
}

/* array(dtype, ndim, layout) of an ndarray: the layout from its contiguity flags. */
static KnType *
typeof_array(KnState *s, PyArrayObject *a)
{
    KnType *dt = dtype_type(PyArray_DESCR(a));
    if (!dt) {
        PyErr_Format(PyExc_TypeError, "kiln does not support arrays of dtype %R yet",
                     (PyObject *)PyArray_DESCR(a));
        return NULL;
    }
    int flags = PyArray_FLAGS(a), ndim = PyArray_NDIM(a);
    if (ndim > 32) {
        PyErr_Format(PyExc_TypeError, "kiln supports arrays of at most 32 dimensions, not %d",
                     ndim);
        return NULL;
    }
    int lcode = (flags & NPY_ARRAY_C_CONTIGUOUS) ? 0 : (flags & NPY_ARRAY_F_CONTIGUOUS) ? 1 : 2;
    int readonly = !(flags & NPY_ARRAY_WRITEABLE);
    /* the fingerprint's cache: (dtype, ndim, layout, readonly) -> interned type, skipping the
     * hash of the type table on every call */
    int num = PyArray_DESCR(a)->type_num;
    KnType **slot = NULL;
    if (num >= 0 && num < KN_ARRAY_CACHE_DTYPES && ndim < KN_ARRAY_CACHE_NDIM)
        slot = &s->array_types[((num * KN_ARRAY_CACHE_NDIM + ndim) * 3 + lcode) * 2 + readonly];
    if (slot && *slot)
        return *slot;
    KnType *t = kn_type_array(&s->types, dt, ndim, "CFA"[lcode], readonly);
    if (slot)
        *slot = t;
    return t;
}

KnType *
kn_box_typeof(KnState *s, PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    if (tp == &PyArray_Type)
        return typeof_array(s, (PyArrayObject *)o);
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
    if (PyArray_Check(o))
        return check_subclass(o) < 0 ? NULL : typeof_array(s, (PyArrayObject *)o);
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

/* The array struct compiled code sees; Python's arrays are borrowed (meminfo NULL). */
static int
unbox_array(KnType *t, PyObject *o, char *dst)
{
    if (!PyArray_Check(o) || PyArray_NDIM((PyArrayObject *)o) != t->ndim) {
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    if (check_subclass(o) < 0)
        return -1;
    PyArrayObject *a = (PyArrayObject *)o;
    KnArrayStruct *s = (KnArrayStruct *)dst;
    s->meminfo = NULL;
    s->parent = o;
    s->nitems = PyArray_SIZE(a);
    s->itemsize = PyArray_ITEMSIZE(a);
    s->data = PyArray_DATA(a);
    for (int i = 0; i < t->ndim; i++) {
        s->dims[i] = PyArray_DIM(a, i);
        s->dims[t->ndim + i] = PyArray_STRIDE(a, i);
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
    case KN_TY_ARRAY:
        return unbox_array(t, o, dst);
    default:
        PyErr_Format(PyExc_TypeError, "cannot pass a value of type %s to compiled code", t->name);
        return -1;
    }
}

/* ---- arrays made by compiled code: an ndarray whose base owns the meminfo reference ---- */

typedef struct MemInfoOwner {
    PyObject_HEAD KnMemInfo *mi;
} MemInfoOwner;

static void
owner_dealloc(PyObject *self)
{
    kn_rt_decref(((MemInfoOwner *)self)->mi);
    Py_TYPE(self)->tp_free(self);
}

PyTypeObject KnMemInfoOwner_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln._core.MemInfo",
    .tp_basicsize = sizeof(MemInfoOwner),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = owner_dealloc,
    .tp_doc = "Owns the memory of an array made by compiled code.",
};

static int
same_as_parent(const KnArrayStruct *s, PyArrayObject *p, int ndim)
{
    if (PyArray_DATA(p) != s->data || PyArray_NDIM(p) != ndim ||
        PyArray_ITEMSIZE(p) != s->itemsize) /* a.real of a complex array starts at a's data */
        return 0;
    for (int i = 0; i < ndim; i++)
        if (PyArray_DIM(p, i) != s->dims[i] || PyArray_STRIDE(p, i) != s->dims[ndim + i])
            return 0;
    return 1;
}

/* Takes over the struct's reference (the wrapper returns an owned one). */
static PyObject *
box_array(KnType *t, const KnArrayStruct *s)
{
    PyObject *base;
    if (s->meminfo) {
        MemInfoOwner *own = PyObject_New(MemInfoOwner, &KnMemInfoOwner_Type);
        if (!own) {
            kn_rt_decref(s->meminfo);
            return NULL;
        }
        own->mi = s->meminfo;
        base = (PyObject *)own;
    } else if (s->parent) {
        if (PyArray_Check(s->parent) && same_as_parent(s, (PyArrayObject *)s->parent, t->ndim))
            return Py_NewRef(s->parent);
        base = Py_NewRef(s->parent);
    } else {
        PyErr_SetString(PyExc_SystemError, "kiln: an array without an owner");
        return NULL;
    }
    npy_intp dims[64], strides[64];
    for (int i = 0; i < t->ndim && i < 64; i++) {
        dims[i] = (npy_intp)s->dims[i];
        strides[i] = (npy_intp)s->dims[t->ndim + i];
    }
    PyArray_Descr *descr = PyArray_DescrFromType(kn_box_type_num(t->dtype));
    int flags = t->readonly ? 0 : NPY_ARRAY_WRITEABLE;
    PyObject *arr = descr ? PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, dims, strides,
                                                 s->data, flags, NULL)
                          : NULL;
    if (!arr || PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0) {
        Py_XDECREF(arr);
        Py_DECREF(base);
        return NULL;
    }
    return arr;
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
    case KN_TY_ARRAY:
        return box_array(t, (const KnArrayStruct *)src);
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
    if (t->kind == KN_TY_ARRAY)
        return Py_BuildValue("(sNiNO)", "array", kn_box_key(t->dtype), t->ndim,
                             PyUnicode_FromStringAndSize(&t->layout, 1),
                             t->readonly ? Py_True : Py_False);
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
    if (PyTuple_Check(key) && PyTuple_GET_SIZE(key) == 5 &&
        PyUnicode_Check(PyTuple_GET_ITEM(key, 0)) &&
        !strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(key, 0)), "array")) {
        KnType *dt = kn_box_from_key(s, PyTuple_GET_ITEM(key, 1));
        long ndim = PyLong_AsLong(PyTuple_GET_ITEM(key, 2));
        const char *layout = PyUnicode_Check(PyTuple_GET_ITEM(key, 3))
                                 ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(key, 3))
                                 : NULL;
        if (!dt || ndim < 0 || ndim > 32 || !layout || !strchr("CFA", layout[0])) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "kiln: bad array type key %R", key);
            return NULL;
        }
        return kn_type_array(&s->types, dt, (int)ndim, layout[0],
                             PyObject_IsTrue(PyTuple_GET_ITEM(key, 4)) > 0);
    }
    PyErr_Format(PyExc_TypeError, "kiln: type %R is not supported yet", key);
    return NULL;
}
