/* linalg.c - loading BLAS and LAPACK for compiled code (runtime/linalg.c), as Numba does: from
 * SciPy's scipy.linalg.cython_blas and cython_lapack modules, whose __pyx_capi__ dicts map each
 * routine's name to a PyCapsule of its C function pointer (Fortran calling convention).
 *
 * kiln._core._linalg_load(blas_capi, lapack_capi) is called once per process by kiln/_linalg.py,
 * when the first compiled call needs BLAS or LAPACK; it fills the runtime's table and returns
 * the list of names neither dict had (empty with any SciPy of the last years). */
#include "dispatch/dispatch.h"

#include "runtime/linalg.h"

static void *
capsule_pointer(PyObject *blas, PyObject *lapack, const char *name)
{
    PyObject *cap = PyDict_GetItemString(blas, name);
    if (!cap)
        cap = PyDict_GetItemString(lapack, name);
    if (!cap || !PyCapsule_CheckExact(cap))
        return NULL;
    void *p = PyCapsule_GetPointer(cap, PyCapsule_GetName(cap));
    if (!p)
        PyErr_Clear();
    return p;
}

PyObject *
kn_dispatch_linalg_load(PyObject *module, PyObject *args)
{
    KN_UNUSED(module);
    PyObject *blas, *lapack;
    if (!PyArg_ParseTuple(args, "O!O!", &PyDict_Type, &blas, &PyDict_Type, &lapack))
        return NULL;
    PyObject *missing = PyList_New(0);
    if (!missing)
        return NULL;
    for (int i = 0; i < KN_LA_NAME_COUNT; i++) {
        const char *name = kn_rt_la_name(i);
        void *p = capsule_pointer(blas, lapack, name);
        if (p) {
            kn_rt_la_set(i, p);
            continue;
        }
        PyObject *s = PyUnicode_FromString(name);
        if (!s || PyList_Append(missing, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(missing);
            return NULL;
        }
        Py_DECREF(s);
    }
    return missing;
}
