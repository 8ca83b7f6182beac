/* datetime.c - a global np.datetime64 or np.timedelta64 scalar that compiled code names (a
 * start date, np.datetime64('NaT')) becomes a constant of its type (types/model_datetime.c):
 * its unit from np.datetime_data, its count as an int64 (NaT: INT64_MIN). */
#include "frontend/internal.h"

/* NULL (nothing emitted) when o is neither; NULL after a diagnostic for a unit kiln lacks */
Val
kn_fe_frozen_datetime(FE *fe, PyObject *node, PyObject *o)
{
    static PyObject *dt_class, *td_class, *datetime_data;
    if (!dt_class) {
        PyObject *np = PyImport_ImportModule("numpy");
        dt_class = np ? PyObject_GetAttrString(np, "datetime64") : NULL;
        td_class = np ? PyObject_GetAttrString(np, "timedelta64") : NULL;
        datetime_data = np ? PyObject_GetAttrString(np, "datetime_data") : NULL;
        Py_XDECREF(np);
        if (!dt_class || !td_class || !datetime_data) {
            PyErr_Clear();
            return NULL;
        }
    }
    int delta = PyObject_TypeCheck(o, (PyTypeObject *)td_class);
    if (!delta && !PyObject_TypeCheck(o, (PyTypeObject *)dt_class))
        return NULL;
    PyObject *dt = PyObject_GetAttrString(o, "dtype");
    PyObject *info = dt ? PyObject_CallOneArg(datetime_data, dt) : NULL;
    PyObject *count = info ? PyObject_CallMethod(o, "astype", "s", "int64") : NULL;
    const char *uname = info && PyTuple_Check(info) && PyTuple_GET_SIZE(info) == 2
                            ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(info, 0))
                            : NULL;
    long step = info && uname ? PyLong_AsLong(PyTuple_GET_ITEM(info, 1)) : 0;
    long long v = count ? PyLong_AsLongLong(count) : 0;
    int unit = uname ? kn_type_time_unit_by_name(uname) : -1;
    Py_XDECREF(dt);
    Py_XDECREF(info);
    Py_XDECREF(count);
    PyErr_Clear();
    if (unit < 0 || (step != 1 && unit != KN_TU_GENERIC))
        return TYPING(fe, node, "kiln supports datetime64 and timedelta64 of one unit, not %s",
                      uname ? uname : "this one");
    Val in = kn_kir_emit(&fe->b, KN_OP_CONST, span_of(fe, node), 0, NULL);
    in->type = kn_type_datetime(fe->c->types, delta, unit);
    in->imm.i = v;
    return in;
}
