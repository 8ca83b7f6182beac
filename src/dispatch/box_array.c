/* box_array.c - the boxing model of NumPy arrays. typeof: array(dtype, ndim, layout,
 * readonly) from the dtype and the contiguity and writeable flags, cached by the module state
 * for the dispatcher's fingerprint; ndarray subclasses other than np.memmap are refused (box.c
 * tries them on its slow path). unbox borrows the ndarray (meminfo NULL, parent the ndarray);
 * box returns the parent itself when the struct is still a view of all of it, else a new
 * ndarray whose base owns the struct's reference (a MemInfo owner) or the parent. */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/box_model.h"

#include <numpy/arrayobject.h>

static PyTypeObject *
array_pytype(void)
{
    return &PyArray_Type;
}

/* The element type of a NumPy dtype, or NULL. */
static KnType *
dtype_type(PyArray_Descr *d)
{
    if (PyDataType_ISNOTSWAPPED(d) && (d->type_num == NPY_DATETIME || d->type_num == NPY_TIMEDELTA))
        return kn_box_datetime_dtype(kn_state, (PyObject *)d); /* box_datetime.c */
    if (!PyDataType_ISNOTSWAPPED(d) || (d->type_num >= NPY_OBJECT && d->type_num != NPY_HALF))
        return NULL;
    return kn_box_dtype_by_kind(d->kind, (int)PyDataType_ELSIZE(d));
}

/* Which ndarray subclasses compiled code may take: np.memmap is a plain buffer (the data on
 * disk, mapped), so it is taken as an array, as Numba does; any other subclass (np.matrix,
 * np.ma.MaskedArray, user classes) gives its elements a meaning that compiled code would drop
 * (a mask, matrix products), so it is a TypeError naming the class, never silently an ndarray.
 * 0: fine; -1: the error is set. */
int
kn_box_check_subclass(PyObject *o)
{
    static PyObject *memmap; /* numpy.memmap, looked up once, held for the process */
    PyTypeObject *tp = Py_TYPE(o);
    if (tp == &PyArray_Type)
        return 0;
    if (kn_box_is_recarray(o)) /* a record array: its fields are also attributes (box_record.c) */
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
KnType *
kn_box_typeof_array(KnState *s, PyObject *o)
{
    PyArrayObject *a = (PyArrayObject *)o;
    int has_fields = PyDataType_HASFIELDS(PyArray_DESCR(a)); /* records: box_record.c */
    int num0 = PyArray_DESCR(a)->type_num;
    int own_error = has_fields || num0 == NPY_DATETIME || num0 == NPY_TIMEDELTA;
    KnType *dt = has_fields ? kn_box_record_type(s, (PyObject *)PyArray_DESCR(a))
                            : dtype_type(PyArray_DESCR(a));
    if (!dt && own_error && PyErr_Occurred())
        return NULL;
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
    if (num >= 0 && num < KN_ARRAY_CACHE_DTYPES && ndim < KN_ARRAY_CACHE_NDIM && !own_error)
        slot = &s->array_types[((num * KN_ARRAY_CACHE_NDIM + ndim) * 3 + lcode) * 2 + readonly];
    if (slot && *slot)
        return *slot;
    KnType *t = kn_type_array(&s->types, dt, ndim, "CFA"[lcode], readonly);
    if (slot)
        *slot = t;
    return t;
}

KnType *
kn_box_typeof_buffer(KnState *s, PyObject *o)
{
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "kiln takes bytes, bytearray and C-contiguous memoryview objects as buffers, "
                     "not %R",
                     o);
        return NULL;
    }
    int readonly = view.readonly;
    PyBuffer_Release(&view);
    return kn_type_array(&s->types, &kn_type_uint8, 1, 'C', readonly);
}

/* A buffer (bytes, bytearray, memoryview) as the uint8 array over its bytes, borrowed: the
 * object is the parent, which a returned view keeps alive (box_array: its base). The buffer is
 * released at once: nothing can resize a bytearray while compiled code runs with the object
 * held by the call's arguments. */
static int
unbox_buffer(KnType *t, PyObject *o, char *dst)
{
    Py_buffer view;
    if (t->ndim != 1 || t->dtype != &kn_type_uint8 ||
        PyObject_GetBuffer(o, &view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    if (view.readonly && !t->readonly) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_TypeError, "expected %s, got the read-only buffer %R", t->name, o);
        return -1;
    }
    KnArrayStruct *s = (KnArrayStruct *)dst;
    s->meminfo = NULL;
    s->parent = o;
    s->nitems = (int64_t)view.len;
    s->itemsize = 1;
    s->data = view.buf;
    s->dims[0] = (int64_t)view.len;
    s->dims[1] = 1;
    PyBuffer_Release(&view);
    return 0;
}

/* The array struct compiled code sees; Python's arrays are borrowed (meminfo NULL). */
static int
unbox_array(KnType *t, PyObject *o, char *dst)
{
    if (!PyArray_Check(o) && (PyBytes_Check(o) || PyByteArray_Check(o) || PyMemoryView_Check(o)))
        return unbox_buffer(t, o, dst);
    if (!PyArray_Check(o) || PyArray_NDIM((PyArrayObject *)o) != t->ndim) {
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    if (kn_box_check_subclass(o) < 0)
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
same_as_parent(const KnArrayStruct *s, PyArrayObject *p, int ndim, const KnType *dtype)
{
    if (PyArray_DATA(p) != s->data || PyArray_NDIM(p) != ndim ||
        PyArray_ITEMSIZE(p) != s->itemsize) /* a.real of a complex array starts at a's data */
        return 0;
    if (dtype && kn_type_is_number(dtype) &&
        !PyArray_EquivTypenums(PyArray_DESCR(p)->type_num, kn_box_type_num(dtype)))
        return 0; /* a.view(np.int64) of a float64 array */
    for (int i = 0; i < ndim; i++)
        if (PyArray_DIM(p, i) != s->dims[i] || PyArray_STRIDE(p, i) != s->dims[ndim + i])
            return 0;
    return 1;
}

static PyArray_Descr *
descr_of(const KnType *t)
{
    if (t->dtype->kind == KN_TY_DATETIME || t->dtype->kind == KN_TY_TIMEDELTA)
        return (PyArray_Descr *)kn_box_datetime_descr(t->dtype); /* box_datetime.c */
    return t->dtype->kind == KN_TY_RECORD ? (PyArray_Descr *)Py_NewRef((PyObject *)t->dtype->descr)
                                          : PyArray_DescrFromType(kn_box_type_num(t->dtype));
}

/* a new ndarray holding a copy of the elements of s (a view with neither meminfo nor parent,
 * such as the sub-array field of a record: compiled code does not own that memory) */
static PyObject *
box_copy(KnType *t, const KnArrayStruct *s)
{
    npy_intp dims[64], strides[64];
    for (int i = 0; i < t->ndim && i < 64; i++) {
        dims[i] = (npy_intp)s->dims[i];
        strides[i] = (npy_intp)s->dims[t->ndim + i];
    }
    PyArray_Descr *d = descr_of(t);
    if (!d)
        return NULL;
    Py_INCREF(d);
    PyObject *view =
        PyArray_NewFromDescr(&PyArray_Type, d, t->ndim, dims, strides, s->data, 0, NULL);
    PyObject *copy = view ? PyArray_NewCopy((PyArrayObject *)view, NPY_CORDER) : NULL;
    Py_XDECREF(view);
    Py_DECREF(d);
    return copy;
}

/* Takes over the struct's reference (the wrapper returns an owned one). */
static PyObject *
box_array(KnType *t, const KnArrayStruct *s)
{
    PyObject *base;
    if (s->meminfo && s->parent && PyArray_Check(s->parent) &&
        same_as_parent(s, (PyArrayObject *)s->parent, t->ndim, t->dtype)) {
        /* an ndarray a kiln.typed container holds (dispatch/typed_common.c): itself */
        PyObject *r = Py_NewRef(s->parent); /* before the meminfo's own reference goes */
        kn_rt_decref(s->meminfo);
        return r;
    }
    if (s->meminfo) {
        MemInfoOwner *own = PyObject_New(MemInfoOwner, &KnMemInfoOwner_Type);
        if (!own) {
            kn_rt_decref(s->meminfo);
            return NULL;
        }
        own->mi = s->meminfo;
        base = (PyObject *)own;
    } else if (s->parent) {
        if (PyArray_Check(s->parent) &&
            same_as_parent(s, (PyArrayObject *)s->parent, t->ndim, t->dtype))
            return Py_NewRef(s->parent);
        /* a view of a bytes/bytearray/memoryview argument: its base holds the buffer export
         * (a memoryview), so a bytearray cannot be resized under it, as np.frombuffer's */
        base = PyArray_Check(s->parent) ? Py_NewRef(s->parent) : PyMemoryView_FromObject(s->parent);
        if (!base)
            return NULL;
    } else {
        return box_copy(t, s); /* a view of memory nothing counts: a record's sub-array */
    }
    npy_intp dims[64], strides[64];
    for (int i = 0; i < t->ndim && i < 64; i++) {
        dims[i] = (npy_intp)s->dims[i];
        strides[i] = (npy_intp)s->dims[t->ndim + i];
    }
    PyArray_Descr *descr = descr_of(t);
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

static PyObject *
array_box(KnType *t, const char *src)
{
    return box_array(t, (const KnArrayStruct *)src);
}

static PyObject *
array_key(KnType *t)
{
    return Py_BuildValue("(sNiNO)", "array", kn_box_key(t->dtype), t->ndim,
                         PyUnicode_FromStringAndSize(&t->layout, 1),
                         t->readonly ? Py_True : Py_False);
}

/* ("array", dtype key, ndim, layout, readonly), ndim at most 32 */
static KnType *
array_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 5) {
        PyErr_Format(PyExc_TypeError, "kiln: type %R is not supported yet", key);
        return NULL;
    }
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

const KnBoxModel kn_box_model_array = {.pytype = array_pytype,
                                       .typeof = kn_box_typeof_array,
                                       .unbox = unbox_array,
                                       .box = array_box,
                                       .key = array_key,
                                       .tag = "array",
                                       .from_key = array_from_key};
