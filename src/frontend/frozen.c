/* frozen.c - NumPy arrays named by compiled code but not its own (globals, closure cells, items
 * of a global tuple), frozen into the code as Numba does: at compile time the frontend copies
 * the array (C order), marks the copy read-only and keeps it alive with the overload; the code
 * sees a borrowed read-only array (meminfo NULL) whose data, shape and strides are constants
 * (KnFrozenArray, lowered by lower/frozen.c). Writing to it is a typing error (the readonly
 * array rule); changing the Python global later changes nothing until `recompile()`, which
 * runs the frontend again. The object is read through Python attributes only (`dtype`,
 * `shape`, `strides`, `__array_interface__`), so the frontend needs no NumPy C API. */
#include "frontend/internal.h"

static int
attr_i64(PyObject *o, const char *name, int64_t *out)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    *out = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

/* a tuple attribute of n ints into a new arena vector */
static int64_t *
attr_ints(FE *fe, PyObject *o, const char *name, int n)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != n) {
        Py_XDECREF(v);
        return NULL;
    }
    int64_t *r = kn_arena_alloc(&fe->c->arena, sizeof(int64_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        r[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(v, i));
    Py_DECREF(v);
    return PyErr_Occurred() ? NULL : r;
}

/* the dtype of a (a kiln number type), or NULL */
static KnType *
dtype_of(PyObject *a)
{
    PyObject *dt = PyObject_GetAttrString(a, "dtype");
    PyObject *name = dt ? PyObject_GetAttrString(dt, "name") : NULL;
    PyObject *native = dt ? PyObject_GetAttrString(dt, "isnative") : NULL;
    const char *nm = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    KnType *t = nm && native == Py_True ? kn_fe_numpy_type_by_name(nm) : NULL;
    Py_XDECREF(dt);
    Py_XDECREF(name);
    Py_XDECREF(native);
    PyErr_Clear();
    return t;
}

/* a read-only C-order copy of o (a new reference), or NULL */
static PyObject *
frozen_copy(PyObject *o)
{
    PyObject *copy = PyObject_CallMethod(o, "copy", NULL);
    PyObject *setflags = copy ? PyObject_GetAttrString(copy, "setflags") : NULL;
    PyObject *kw = setflags ? Py_BuildValue("{s:O}", "write", Py_False) : NULL;
    PyObject *args = kw ? PyTuple_New(0) : NULL;
    PyObject *r = args ? PyObject_Call(setflags, args, kw) : NULL;
    Py_XDECREF(setflags);
    Py_XDECREF(kw);
    Py_XDECREF(args);
    if (!r) {
        Py_XDECREF(copy);
        return NULL;
    }
    Py_DECREF(r);
    return copy;
}

static void *
data_pointer(PyObject *a)
{
    PyObject *ai = PyObject_GetAttrString(a, "__array_interface__");
    PyObject *data = ai && PyDict_Check(ai) ? PyDict_GetItemString(ai, "data") : NULL;
    void *p = data && PyTuple_Check(data) && PyTuple_GET_SIZE(data) >= 1
                  ? PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0))
                  : NULL;
    Py_XDECREF(ai);
    return p;
}

Val
kn_fe_frozen_array(FE *fe, PyObject *node, PyObject *o, const char *what)
{
    if (strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray"))
        return NULL;
    KnType *dt = dtype_of(o);
    if (!dt) {
        PyObject *r = PyObject_GetAttrString(o, "dtype");
        PyObject *s = r ? PyObject_Str(r) : NULL;
        const char *tn = s ? PyUnicode_AsUTF8(s) : NULL;
        TYPING(fe, node, "cannot use %s: kiln does not support arrays of dtype %s yet", what,
               tn ? tn : "?");
        Py_XDECREF(r);
        Py_XDECREF(s);
        PyErr_Clear();
        return NULL;
    }
    PyObject *copy = frozen_copy(o);
    int64_t ndim = 0;
    KnFrozenArray *fa = kn_arena_alloc(&fe->c->arena, sizeof(KnFrozenArray));
    if (!copy || attr_i64(copy, "ndim", &ndim) < 0 || ndim > 32 ||
        attr_i64(copy, "size", &fa->nitems) < 0 || attr_i64(copy, "itemsize", &fa->itemsize) < 0 ||
        !(fa->shape = attr_ints(fe, copy, "shape", (int)ndim)) ||
        !(fa->strides = attr_ints(fe, copy, "strides", (int)ndim)) ||
        !(fa->data = data_pointer(copy))) {
        Py_XDECREF(copy);
        PyErr_Clear();
        return TYPING(fe, node, "cannot use %s: the array could not be frozen", what);
    }
    if (PyList_Append(fe->env->keepalive, copy) < 0)
        PyErr_Clear();
    fa->parent = copy;
    Py_DECREF(copy); /* the keepalive list holds it */
    Val in = kn_kir_emit(&fe->b, KN_OP_GLOBAL, span_of(fe, node), 0, NULL);
    in->type = kn_type_array(fe->c->types, dt, (int)ndim, 'C', 1);
    in->imm.ptr = fa;
    return in;
}
