/* typed_common.c - what kiln.typed.List (typed_list.c) and kiln.typed.Dict (typed_dict.c) share
 * as Python types: the item type of a Python object for a container that outlives the call
 * (arrays from the interpreter refused), a kiln type as its kiln.types object, and == / != by
 * comparing Python copies (a list or dict of the items). */
#include "dispatch/box_model.h"

KnType *
kn_typed_item_type(PyObject *o, const char *refusal)
{
    KnType *t = kn_box_typeof(kn_state, o);
    if (t && t->kind == KN_TY_ARRAY) {
        PyErr_SetString(PyExc_TypeError, refusal);
        return NULL;
    }
    return t;
}

PyObject *
kn_typed_type_object(KnType *t)
{
    if (!t)
        Py_RETURN_NONE;
    PyObject *key = kn_box_key(t);
    if (!key)
        return NULL;
    PyObject *types = PyImport_ImportModule("kiln.types");
    PyObject *r = types ? PyObject_CallMethod(types, "from_key", "O", key) : NULL;
    Py_XDECREF(types);
    Py_DECREF(key);
    return r;
}

PyObject *
kn_typed_richcompare(PyObject *self, PyObject *other, int op, PyTypeObject *builtin,
                     PyObject *(*as_py)(PyObject *))
{
    if ((op != Py_EQ && op != Py_NE) ||
        !(PyObject_TypeCheck(other, builtin) || Py_TYPE(other) == Py_TYPE(self)))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *a = as_py(self);
    PyObject *b = Py_TYPE(other) == Py_TYPE(self) ? as_py(other) : Py_NewRef(other);
    PyObject *r = a && b ? PyObject_RichCompare(a, b, op) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}
