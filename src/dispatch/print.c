/* print.c - print() from compiled code. Compiled code spills each value and passes kinds and
 * pointers; this rebuilds the Python objects and calls Python's own print, so the output is
 * formatted exactly as the interpreter formats it and goes wherever sys.stdout points (pytest's
 * capture included). It takes the GIL itself, so it is safe from any thread. */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include "dispatch/dispatch.h"

#include <numpy/arrayobject.h>

#include "runtime/str.h"

/* an np.float16 scalar of the half at p (print shows NumPy's shortest digits for it) */
static PyObject *
half_scalar(void *p)
{
    PyArray_Descr *d = PyArray_DescrFromType(NPY_HALF);
    PyObject *r = d ? PyArray_Scalar(p, d, NULL) : NULL;
    Py_XDECREF(d);
    return r;
}

static PyObject *
print_value(int kind, void *p)
{
    switch (kind) {
    case KN_PRINT_BOOL:
        return PyBool_FromLong(*(uint8_t *)p);
    case KN_PRINT_I64:
        return PyLong_FromLongLong(*(int64_t *)p);
    case KN_PRINT_U64:
        return PyLong_FromUnsignedLongLong(*(uint64_t *)p);
    case KN_PRINT_F64:
        return PyFloat_FromDouble(*(double *)p);
    case KN_PRINT_F32:
        return PyFloat_FromDouble(*(float *)p);
    case KN_PRINT_F16:
        return half_scalar(p);
    case KN_PRINT_C128:
        return PyComplex_FromDoubles(((double *)p)[0], ((double *)p)[1]);
    case KN_PRINT_C64:
        return PyComplex_FromDoubles(((float *)p)[0], ((float *)p)[1]);
    case KN_PRINT_STR:
        return kn_box_str_new((const KnStr *)p);
    case KN_PRINT_BYTES: /* {type, pointer to the value in C layout}: records, datetimes */
        return kn_box_box(((KnType **)p)[0], ((const char **)p)[1]);
    case KN_PRINT_BOXED: { /* {type, value}: boxing takes a reference of its own */
        KnType *t = ((KnType **)p)[0];
        KnMemInfo *mi = ((KnMemInfo **)p)[1];
        kn_rt_incref(mi);
        return kn_box_box(t, (const char *)&mi);
    }
    default:
        Py_RETURN_NONE;
    }
}

/* Build the objects for kinds[*i..] up to the end of the current tuple (or of the call). */
static PyObject *
print_items(int32_t n, const int32_t *kinds, void **vals, int32_t *i)
{
    PyObject *list = PyList_New(0);
    while (list && *i < n && kinds[*i] != KN_PRINT_TUPLE_END) {
        PyObject *v;
        if (kinds[*i] == KN_PRINT_TUPLE_BEGIN) {
            (*i)++;
            PyObject *items = print_items(n, kinds, vals, i);
            v = items ? PyList_AsTuple(items) : NULL;
            Py_XDECREF(items);
        } else {
            v = print_value(kinds[*i], vals[*i]);
        }
        (*i)++;
        if (!v || PyList_Append(list, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(v);
    }
    return list;
}

void
kn_rt_print(int32_t n, const int32_t *kinds, void **vals)
{
    PyGILState_STATE g = PyGILState_Ensure();
    int32_t i = 0;
    PyObject *items = print_items(n, kinds, vals, &i);
    PyObject *args = items ? PyList_AsTuple(items) : NULL;
    PyObject *print = PyDict_GetItemString(PyEval_GetBuiltins(), "print");
    PyObject *r = args && print ? PyObject_Call(print, args, NULL) : NULL;
    if (!r)
        PyErr_WriteUnraisable(print);
    Py_XDECREF(r);
    Py_XDECREF(args);
    Py_XDECREF(items);
    PyGILState_Release(g);
}
