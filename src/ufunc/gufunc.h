/* gufunc.h - NumPy generalized ufuncs over compiled kernels (gufunc.c, @kiln.guvectorize):
 * the two _core functions kiln/_guvectorize.py calls. */
#ifndef KN_UFUNC_GUFUNC_H
#define KN_UFUNC_GUFUNC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* _gufunc(name, doc, nin, nout, signature, identity, loops, writable, parallel) -> np.ufunc */
PyObject *kn_ufunc_gufunc_new(PyObject *module, PyObject *args);
/* _gufunc_compile(ufunc, i): compile loop i's kernel now */
PyObject *kn_ufunc_gufunc_compile(PyObject *module, PyObject *args);

#endif
