/* box_namedtuple.c - namedtuple instances crossing into and out of compiled code: typeof of an
 * instance of a tuple subclass with `_fields` (collections.namedtuple, typing.NamedTuple) is the
 * namedtuple type of its class (types/model_namedtuple.c; the slow path of typeof, box.c);
 * unboxing is the tuple's (box_tuple.c), and boxing calls the class with the items, so a result
 * is an instance of the same class. The type table keeps each class it has seen alive (a
 * reference taken once, in `seen`), so a type's class pointer never dangles. */
#include "dispatch/box_model.h"

static PyObject *seen; /* set of the classes typeof has made a type for */

KnType *
kn_box_typeof_namedtuple(KnState *s, PyObject *o)
{
    PyTypeObject *cls = Py_TYPE(o);
    PyObject *f = PyObject_GetAttrString((PyObject *)cls, "_fields");
    if (!f) {
        PyErr_Clear();
        return NULL;
    }
    Py_ssize_t n = PyTuple_Check(f) ? PyTuple_GET_SIZE(f) : -1;
    if (n != PyTuple_GET_SIZE(o) || n > 256) {
        Py_DECREF(f);
        return NULL;
    }
    KnType *items[256];
    const char *names[256];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(f, i);
        names[i] = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (!names[i] || !(items[i] = kn_box_typeof(s, PyTuple_GET_ITEM(o, i)))) {
            Py_DECREF(f);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "kiln: bad _fields of %s", cls->tp_name);
            return (KnType *)-1;
        }
    }
    if (!seen && !(seen = PySet_New(NULL))) {
        Py_DECREF(f);
        return (KnType *)-1;
    }
    if (PySet_Add(seen, (PyObject *)cls) < 0)
        PyErr_Clear();
    KnType *t = kn_type_namedtuple(&s->types, cls, cls->tp_name, names, items, (int)n);
    Py_DECREF(f);
    return t;
}

PyObject *
kn_box_namedtuple_make(KnType *t, PyObject *items)
{
    PyObject *r = PyObject_CallObject((PyObject *)t->ref, items);
    Py_DECREF(items);
    return r;
}

/* ("namedtuple", cls, item keys...) */
PyObject *
kn_box_namedtuple_key(KnType *t)
{
    PyObject *k = PyTuple_New(t->n + 2);
    if (!k)
        return NULL;
    PyTuple_SET_ITEM(k, 0, PyUnicode_FromString("namedtuple"));
    Py_INCREF((PyObject *)t->ref);
    PyTuple_SET_ITEM(k, 1, (PyObject *)t->ref);
    for (int i = 0; i < t->n; i++) {
        PyObject *item = kn_box_key(t->items[i]);
        if (!item) {
            Py_DECREF(k);
            return NULL;
        }
        PyTuple_SET_ITEM(k, i + 2, item);
    }
    return k;
}

KnType *
kn_box_namedtuple_from_key(KnState *s, PyObject *key)
{
    Py_ssize_t n = PyTuple_GET_SIZE(key) - 2;
    PyObject *cls = n >= 0 ? PyTuple_GET_ITEM(key, 1) : NULL;
    PyObject *f = cls && PyType_Check(cls) ? PyObject_GetAttrString(cls, "_fields") : NULL;
    if (!f || !PyTuple_Check(f) || PyTuple_GET_SIZE(f) != n || n > 256) {
        Py_XDECREF(f);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "kiln: bad namedtuple type key %R", key);
        return NULL;
    }
    KnType *items[256];
    const char *names[256];
    for (Py_ssize_t i = 0; i < n; i++) {
        names[i] = PyUnicode_Check(PyTuple_GET_ITEM(f, i))
                       ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(f, i))
                       : NULL;
        if (!names[i] || !(items[i] = kn_box_from_key(s, PyTuple_GET_ITEM(key, i + 2)))) {
            Py_DECREF(f);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "kiln: bad namedtuple type key %R", key);
            return NULL;
        }
    }
    if (!seen && !(seen = PySet_New(NULL))) {
        Py_DECREF(f);
        return NULL;
    }
    if (PySet_Add(seen, cls) < 0)
        PyErr_Clear();
    KnType *t =
        kn_type_namedtuple(&s->types, cls, ((PyTypeObject *)cls)->tp_name, names, items, (int)n);
    Py_DECREF(f);
    return t;
}
