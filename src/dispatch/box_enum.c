/* box_enum.c - the boxing model of enum members (types/model_enum.c): typeof of a member (the
 * slow path of typeof, box.c, through kn_fe_enum_member_type, which the frontend shares), its
 * value as an int64 both ways; boxing calls the class with the value, so a result is the member
 * itself. Key ("enum", the class). */
#include "dispatch/box_model.h"
#include "frontend/frontend.h"

/* o as compiled code hashes it: an enum member as its value, also inside tuples (CPython
 * hashes a member by its name); a new reference */
static PyObject *
hash_form(const KnType *t, PyObject *o)
{
    if (t->kind == KN_TY_ENUM)
        return PyObject_GetAttrString(o, "value");
    if (t->kind != KN_TY_TUPLE || !PyTuple_Check(o) || PyTuple_GET_SIZE(o) != t->n)
        return Py_NewRef(o);
    PyObject *r = PyTuple_New(t->n);
    for (int i = 0; r && i < t->n; i++) {
        PyObject *x = hash_form(t->items[i], PyTuple_GET_ITEM(o, i));
        if (!x)
            Py_CLEAR(r);
        else
            PyTuple_SET_ITEM(r, i, x);
    }
    return r;
}

/* the hash of key o of type t equal to the one compiled code computes (typed_dict.c, sets) */
Py_hash_t
kn_box_key_hash(const KnType *t, PyObject *o)
{
    PyObject *k = hash_form(t, o);
    Py_hash_t h = k ? PyObject_Hash(k) : -1;
    Py_XDECREF(k);
    return h;
}

KnType *
kn_box_typeof_enum(KnState *s, PyObject *o)
{
    return kn_fe_enum_member_type(&s->types, o);
}

static int
enum_unbox(KnType *t, PyObject *o, char *dst)
{
    if (Py_TYPE(o) != (PyTypeObject *)t->ref) {
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    PyObject *v = PyObject_GetAttrString(o, "value");
    int64_t x = v ? PyLong_AsLongLong(v) : -1;
    Py_XDECREF(v);
    if (PyErr_Occurred())
        return -1;
    memcpy(dst, &x, sizeof x);
    return 0;
}

static PyObject *
enum_box(KnType *t, const char *src)
{
    int64_t x;
    memcpy(&x, src, sizeof x);
    return PyObject_CallFunction((PyObject *)t->ref, "L", (long long)x);
}

static PyObject *
enum_key(KnType *t)
{
    return Py_BuildValue("(sO)", "enum", (PyObject *)t->ref);
}

static KnType *
enum_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 2) {
        PyErr_Format(PyExc_TypeError, "kiln: bad enum type key %R", key);
        return NULL;
    }
    KnType *t = kn_fe_enum_class_type(&s->types, PyTuple_GET_ITEM(key, 1));
    return t == (KnType *)-1 ? NULL : t;
}

const KnBoxModel kn_box_model_enum = {.unbox = enum_unbox,
                                      .box = enum_box,
                                      .key = enum_key,
                                      .tag = "enum",
                                      .from_key = enum_from_key};
