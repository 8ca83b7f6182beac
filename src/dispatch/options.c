/* options.c - decorator options that the dispatcher hands to each compilation beyond the flags
 * read once in dispatcher_new: `locals={name: type key}` (kiln/decorators.py checked it) becomes
 * the compilation's table of variables whose type is fixed (typing/locals.c applies it), and the
 * conversion of Python arguments to an explicit signature's parameter types that unboxing does
 * not do itself (a float where an int is declared is truncated, as Numba's dispatcher does). */
#include "dispatch.h"

int
kn_dispatch_set_locals(KnCompilation *c, PyObject *options)
{
    PyObject *locals = PyDict_Check(options) ? PyDict_GetItemString(options, "locals") : NULL;
    if (!locals || !PyDict_Check(locals) || !PyDict_GET_SIZE(locals))
        return 0;
    int n = (int)PyDict_GET_SIZE(locals);
    c->local_names = kn_arena_alloc(&c->arena, sizeof(char *) * (size_t)n);
    c->local_types = kn_arena_alloc(&c->arena, sizeof(KnType *) * (size_t)n);
    Py_ssize_t pos = 0;
    PyObject *name, *key;
    while (PyDict_Next(locals, &pos, &name, &key)) {
        const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        KnType *t = s ? kn_box_from_key(kn_state, key) : NULL;
        if (!t) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "kiln: locals names must be str");
            return -1;
        }
        c->local_names[c->nlocals] = kn_arena_strdup(&c->arena, s);
        c->local_types[c->nlocals++] = t;
    }
    return 0;
}

/* `o`, typed `from`, as the object that unboxes to `to` (a new reference): unboxing an int
 * does not take a float, so a float argument of an int parameter goes through int() (NumPy
 * floats too); tuples item by item; anything else unchanged. */
PyObject *
kn_dispatch_convert_arg(KnType *from, KnType *to, PyObject *o)
{
    if (from == to)
        return Py_NewRef(o);
    if (to->kind == KN_TY_INT && from->kind == KN_TY_FLOAT)
        return PyNumber_Long(o);
    if (to->kind == KN_TY_TUPLE && from->kind == KN_TY_TUPLE && PyTuple_Check(o) &&
        PyTuple_GET_SIZE(o) == to->n && from->n == to->n) {
        PyObject *r = PyTuple_New(to->n);
        for (int i = 0; r && i < to->n; i++) {
            PyObject *item =
                kn_dispatch_convert_arg(from->items[i], to->items[i], PyTuple_GET_ITEM(o, i));
            if (!item)
                Py_CLEAR(r);
            else
                PyTuple_SET_ITEM(r, i, item);
        }
        return r;
    }
    return Py_NewRef(o);
}
