/* ufunc.h - NumPy ufunc objects over compiled loops (@kiln.vectorize): the Python entry points
 * kiln/_vectorize.py calls, and the module set-up module.c runs. A ufunc's loops call the
 * compiled entry of a kiln loop function (one per signature and layout, compiled on first use
 * through kn_dispatch_entry); target='parallel' splits the loop over kn_par_for. */
#ifndef KN_UFUNC_H
#define KN_UFUNC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* import NumPy's ufunc API; 0, or -1 with an error set (PyInit__core) */
int kn_ufunc_init(void);

/* _vectorize_new(name, doc, nin, nout, identity, loop, make_loop, parallel) -> a numpy.ufunc
 * with no loops yet; `loop` is the jitted loop function (kiln/_vectorize.py), make_loop(mask)
 * makes the one that reads the inputs in mask once (scalar operands), identity is NumPy's
 * PyUFunc_* code */
PyObject *kn_ufunc_new(PyObject *module, PyObject *args);
/* _vectorize_add_loop(ufunc, typenums) -> None: append a loop for NumPy type numbers
 * (inputs then outputs) to a ufunc _vectorize_new made */
PyObject *kn_ufunc_add_loop(PyObject *module, PyObject *args);
/* _vectorize_compile(ufunc, index) -> None: compile loop `index` now (its contiguous variant) */
PyObject *kn_ufunc_compile(PyObject *module, PyObject *args);

#endif
