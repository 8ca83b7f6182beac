/* str_format_hook.c - gives the string runtime CPython's own float digits (PyOS_double_to_string:
 * David Gay's shortest repr, and 'e'/'f' at a precision; exact, and faster than the runtime's
 * search over printf precisions and than glibc's printf). The runtime cannot link Python, so module
 * init installs a function pointer (kn_rt_float_repr_hook); it answers only while the calling
 * thread holds the GIL (PyOS_double_to_string allocates with PyMem_Malloc), else the runtime's own
 * routine runs: code compiled with nogil=True gets the same digits, more slowly. */
#include <Python.h>

#include "dispatch/dispatch.h"
#include "runtime/str_methods.h"

static int
float_digits(double v, int code, int prec, int alt, char *buf, int size)
{
    if (!PyGILState_Check())
        return -1;
    int flags = (code == 'r' ? Py_DTSF_ADD_DOT_0 : 0) | (alt ? Py_DTSF_ALT : 0);
    char *s = PyOS_double_to_string(v, (char)code, prec, flags, NULL);
    if (!s) {
        PyErr_Clear();
        return -1;
    }
    int n = (int)strlen(s);
    if (n >= size) {
        PyMem_Free(s);
        return -1;
    }
    memcpy(buf, s, (size_t)n);
    PyMem_Free(s);
    return n;
}

void
kn_box_str_format_init(void)
{
    kn_rt_float_repr_hook = float_digits;
}
