/* box_np_random.c - the boxing model of np.random.Generator (kind npgen): an exact
 * numpy.random.Generator passed to compiled code is its bit generator's bitgen_t pointer, read
 * from `bit_generator.capsule` (NumPy's "BitGenerator" capsule, as Numba reads it), so compiled
 * draws move the Python object's own state. Compiled code cannot return one (a TypeError). */
#include "dispatch/box_model.h"

static PyTypeObject *
npgen_pytype(void)
{
    static PyTypeObject *type;
    if (!type) {
        /* not imported yet: no object can be a Generator (importing it costs ~25 ms) */
        if (!PyDict_GetItemString(PyImport_GetModuleDict(), "numpy.random"))
            return NULL;
        PyObject *mod = PyImport_ImportModule("numpy.random");
        PyObject *cls = mod ? PyObject_GetAttrString(mod, "Generator") : NULL;
        Py_XDECREF(mod);
        if (cls && PyType_Check(cls))
            type = (PyTypeObject *)cls; /* kept for the process */
        else
            Py_XDECREF(cls);
        PyErr_Clear();
    }
    return type;
}

static KnType *
npgen_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_np_generator;
}

static int
npgen_unbox(KnType *t, PyObject *o, char *dst)
{
    KN_UNUSED(t);
    PyObject *bg = PyObject_GetAttrString(o, "bit_generator");
    PyObject *cap = bg ? PyObject_GetAttrString(bg, "capsule") : NULL;
    void *p = cap ? PyCapsule_GetPointer(cap, "BitGenerator") : NULL;
    Py_XDECREF(cap);
    Py_XDECREF(bg);
    if (!p)
        return -1;
    memcpy(dst, &p, sizeof p);
    return 0;
}

static PyObject *
npgen_key(KnType *t)
{
    KN_UNUSED(t);
    return PyUnicode_FromString("np.random.Generator");
}

const KnBoxModel kn_box_model_npgen = {
    .pytype = npgen_pytype, .typeof = npgen_typeof, .unbox = npgen_unbox, .key = npgen_key};
