/* box_enum.c - the boxing model of enum members (types/model_enum.c): typeof of a member (the
 * slow path of typeof, box.c, through kn_fe_enum_member_type, which the frontend shares), its
 * value as an int64 both ways; boxing calls the class with the value, so a result is the member
 * itself. Key ("enum", the class). */
#include "dispatch/box_model.h"
#include "frontend/frontend.h"

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
