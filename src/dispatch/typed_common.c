/* typed_common.c - what kiln.typed.List (typed_list.c) and kiln.typed.Dict (typed_dict.c) share
 * as Python types: the item type of a Python object for a container that outlives the call, the
 * unboxing of an item into it (an ndarray from the interpreter is held by a meminfo of its own
 * that keeps a reference to it; arrays inside tuples or lists are refused), a kiln type as its
 * kiln.types object, and == / != by comparing Python copies (a list or dict of the items). */
#include "dispatch/box_model.h"
#include "runtime/list.h"

/* the item type of o for a typed container: an array (held by kn_typed_unbox) or anything
 * that holds no array from the interpreter (a tuple or list of arrays: refused) */
static int
holds_array(const KnType *t)
{
    if (t->kind == KN_TY_ARRAY)
        return 1;
    if (t->kind == KN_TY_LIST || t->kind == KN_TY_SET)
        return t->dtype && holds_array(t->dtype);
    if (t->kind == KN_TY_TUPLE || t->kind == KN_TY_DICT)
        for (int i = 0; i < t->n; i++)
            if (holds_array(t->items[i]))
                return 1;
    return 0;
}

KnType *
kn_typed_item_type(PyObject *o, const char *refusal)
{
    KnType *t = kn_box_typeof(kn_state, o);
    if (t && t->kind != KN_TY_ARRAY && holds_array(t)) {
        PyErr_SetString(PyExc_TypeError, refusal);
        return NULL;
    }
    return t;
}

/* ---- arrays from the interpreter held by a typed container ---- */

/* the meminfo's data is the ndarray it holds a reference to */
static void
held_dtor(void *data, size_t size)
{
    KN_UNUSED(size);
    PyGILState_STATE g = PyGILState_Ensure(); /* the last release may come from compiled code */
    Py_XDECREF(*(PyObject **)data);
    PyGILState_Release(g);
}

/* An array unboxed at p borrows its ndarray (meminfo NULL): give it a meminfo holding a
 * reference to that ndarray, so that the container may outlive the object's other owners. */
static int
hold_array(KnType *t, char *p)
{
    KnArrayStruct *s = (KnArrayStruct *)p;
    if (t->kind != KN_TY_ARRAY || s->meminfo || !s->parent)
        return 0;
    KnMemInfo *mi = kn_rt_meminfo_alloc_dtor((int64_t)sizeof(PyObject *), held_dtor);
    if (!mi) {
        PyErr_NoMemory();
        return -1;
    }
    *(PyObject **)mi->data = Py_NewRef(s->parent);
    s->meminfo = mi;
    return 0;
}

/* kn_rt_array_hold_hook: compiled code stores an array borrowed from an argument */
static KnMemInfo *
hold_parent(void *parent)
{
    KnMemInfo *mi = kn_rt_meminfo_alloc_dtor((int64_t)sizeof(PyObject *), held_dtor);
    if (!mi)
        return NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    *(PyObject **)mi->data = Py_NewRef((PyObject *)parent);
    PyGILState_Release(g);
    return mi;
}

void
kn_typed_init(void)
{
    kn_rt_array_hold_hook = hold_parent;
}

int
kn_typed_unbox(KnType *t, PyObject *o, char *dst)
{
    if (t->kind != KN_TY_ARRAY && holds_array(t)) {
        PyErr_Format(PyExc_TypeError,
                     "a kiln.typed container cannot hold %s given from the interpreter yet "
                     "(arrays inside tuples or lists; an array itself is fine)",
                     t->name);
        return -1;
    }
    int mark = kn_box_reflect_mark(); /* lists inside the item are not reflected */
    int rc = kn_box_unbox(t, o, dst);
    kn_box_reflect_drop(mark);
    return rc == 0 ? hold_array(t, dst) : rc;
}

int
kn_typed_hold_arrays(KnType *t, KnList *l)
{
    for (int64_t k = 0; t->kind == KN_TY_ARRAY && k < l->len; k++)
        if (hold_array(t, l->items + k * l->itemsize) < 0)
            return -1;
    return 0;
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
