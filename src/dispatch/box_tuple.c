/* box_tuple.c - the boxing model of tuples: typeof types each item (at most 256), unbox and
 * box go item by item at the items' offsets in the tuple's C layout, and the key is
 * ("tuple", item keys...), read back by tuple_from_key. */
#include "dispatch/box_model.h"

static PyTypeObject *
tuple_pytype(void)
{
    return &PyTuple_Type;
}

static KnType *
tuple_typeof(KnState *s, PyObject *o)
{
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

static int
tuple_unbox(KnType *t, PyObject *o, char *dst)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != t->n) {
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    for (int i = 0; i < t->n; i++)
        if (kn_box_unbox(t->items[i], PyTuple_GET_ITEM(o, i), dst + kn_type_tuple_offset(t, i)) <
            0) {
            while (i-- > 0) /* what the items before made (lists) */
                kn_box_release(t->items[i], dst + kn_type_tuple_offset(t, i));
            return -1;
        }
    return 0;
}

static PyObject *
tuple_box(KnType *t, const char *src)
{
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
    return t->fields ? kn_box_namedtuple_make(t, r) : r; /* box_namedtuple.c */
}

static void
tuple_release(KnType *t, char *src)
{
    for (int i = 0; i < t->n; i++)
        kn_box_release(t->items[i], src + kn_type_tuple_offset(t, i));
}

static PyObject *
tuple_key(KnType *t)
{
    if (t->fields)
        return kn_box_namedtuple_key(t); /* box_namedtuple.c */
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

static KnType *
tuple_from_key(KnState *s, PyObject *key)
{
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

const KnBoxModel kn_box_model_tuple = {.pytype = tuple_pytype,
                                       .typeof = tuple_typeof,
                                       .unbox = tuple_unbox,
                                       .box = tuple_box,
                                       .key = tuple_key,
                                       .tag = "tuple",
                                       .from_key = tuple_from_key,
                                       .release = tuple_release};
