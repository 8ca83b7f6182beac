/* exc.c - the Python end of try/except in compiled code.
 *
 * - kn_dispatch_exc_match: the exc_match hook (base/context.h): is the class of exception
 *   table entry `index` a subclass of `cls`? Lowering asks it for every entry of the table to
 *   make an except clause's constant byte map (lower/exceptions.c).
 * - kn_rt_exc_match_late: the same question at run time, for entries added to the table after
 *   the clause was compiled (it takes the GIL: compiled code may run without it).
 * - kn_box_exc_args: the arguments of an entry (class, args, (positions, cause)) made by a
 *   raise with run-time arguments (frontend/try.c): args with the values compiled code stored
 *   in KnExcInfo (lower/exceptions.c gives their kinds) at the run-time positions.
 * - kn_box_exc_cause: `raise ... from None` / `from Cls(...)` sets __cause__; `from e` is
 *   built by the dispatcher's raise_from_table from what the runtime kept
 *   (kn_box_exc_cause_caught, runtime/exc.c).
 * - kn_rt_exc_caught_text: str(e), repr(e) or e.args[0] of the exception an except clause
 *   caught, from its try's saved KnExcInfo (lower/caught.c), as a KnStr; it takes the GIL. */
#include "dispatch/dispatch.h"
#include "runtime/str.h"

/* A fixed entry is first an expression that raises CPython's or NumPy's own exception
 * (module.c); evaluated on first use, it is replaced by (class, args). */
static PyObject *
evaluate_entry(PyObject *code)
{
    PyObject *globals = PyDict_New();
    if (!globals)
        return NULL;
    PyObject *entry = NULL;
    if (PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins()) == 0) {
        PyObject *r = PyRun_String(PyUnicode_AsUTF8(code), Py_eval_input, globals, globals);
        Py_XDECREF(r);
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        PyObject *args = value ? PyObject_GetAttrString(value, "args") : NULL;
        entry = type && args ? PyTuple_Pack(2, type, args) : NULL;
        Py_XDECREF(args);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        if (!entry) /* the expression did not raise: a bug of kiln's table */
            entry = Py_BuildValue("(O(s))", PyExc_SystemError,
                                  "kiln: an exception table entry did not raise");
    }
    Py_DECREF(globals);
    return entry;
}

PyObject *
kn_dispatch_exc_entry(int64_t index)
{
    PyObject *table = kn_state->exc_table;
    if (index < 0 || index >= PyList_GET_SIZE(table))
        return NULL;
    PyObject *entry = PyList_GET_ITEM(table, index);
    if (!PyUnicode_Check(entry))
        return entry;
    PyObject *made = evaluate_entry(entry);
    if (!made)
        return NULL;
    PyList_SET_ITEM(table, index, made); /* the list's reference to the expression goes */
    Py_DECREF(entry);
    return made;
}

static int
entry_matches(int64_t index, PyObject *cls)
{
    PyObject *entry = kn_dispatch_exc_entry(index);
    if (!entry) {
        PyErr_Clear();
        return -1;
    }
    if (!cls)
        return 0;
    PyObject *ecls = PyTuple_GET_ITEM(entry, 0);
    int r = PyObject_IsSubclass(ecls, cls);
    if (r < 0) {
        PyErr_Clear();
        return 0;
    }
    return r;
}

int
kn_dispatch_exc_match(KnCompilation *c, const void *cls, int64_t index)
{
    (void)c;
    return entry_matches(index, (PyObject *)cls);
}

int32_t
kn_rt_exc_match_late(int64_t index, void *cls)
{
    PyGILState_STATE g = PyGILState_Ensure();
    int r = entry_matches(index, cls);
    PyGILState_Release(g);
    return r > 0;
}

static PyObject *
arg_value(const KnExcInfo *exc, int j)
{
    int kind = (int)((exc->nargs >> (8 + 4 * j)) & 0xF);
    int64_t v = exc->args[j];
    switch (kind) {
    case 2:
        return PyLong_FromUnsignedLongLong((unsigned long long)v);
    case 3:
        return PyBool_FromLong((long)v);
    case 4: {
        double d;
        memcpy(&d, &v, sizeof d);
        return PyFloat_FromDouble(d);
    }
    case 5: {
        int32_t k;
        int64_t len;
        const void *p = kn_rt_exc_text_get(j, &k, &len);
        return PyUnicode_FromKindAndData(k, p, (Py_ssize_t)len);
    }
    default:
        return PyLong_FromLongLong(v);
    }
}

PyObject *
kn_box_exc_args(PyObject *entry, const KnExcInfo *exc)
{
    PyObject *consts = PyTuple_GET_ITEM(entry, 1);
    PyObject *positions = PyTuple_GET_ITEM(PyTuple_GET_ITEM(entry, 2), 0);
    PyObject *args = PyList_GetSlice(consts, 0, PY_SSIZE_T_MAX);
    if (!args && PyTuple_Check(consts)) {
        PyErr_Clear();
        args = PySequence_List(consts);
    }
    if (!args)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(positions);
    for (Py_ssize_t j = 0; j < n && j < 4 && j < (exc->nargs & 0xFF); j++) {
        Py_ssize_t pos = PyLong_AsSsize_t(PyTuple_GET_ITEM(positions, j));
        PyObject *v = arg_value(exc, (int)j);
        if (!v || PyList_SetItem(args, pos, v) < 0) {
            Py_DECREF(args);
            return NULL;
        }
    }
    PyObject *r = PyList_AsTuple(args);
    Py_DECREF(args);
    return r;
}

int
kn_box_exc_cause_caught(PyObject *entry)
{
    return PyTuple_GET_SIZE(entry) == 3 &&
           PyTuple_GET_ITEM(PyTuple_GET_ITEM(entry, 2), 1) == Py_True;
}

void
kn_box_exc_cause(PyObject *entry, PyObject *inst)
{
    if (PyTuple_GET_SIZE(entry) != 3)
        return;
    PyObject *cause = PyTuple_GET_ITEM(PyTuple_GET_ITEM(entry, 2), 1);
    if (cause == Py_Ellipsis || cause == Py_True)
        return; /* from e: raise_from_table builds e (kn_box_exc_cause_caught) */
    if (cause == Py_None) {
        PyException_SetCause(inst, NULL); /* from None: also suppresses the context */
        return;
    }
    PyObject *c = PyObject_Call(PyTuple_GET_ITEM(cause, 0), PyTuple_GET_ITEM(cause, 1), NULL);
    if (!c) {
        PyErr_Clear();
        return;
    }
    PyException_SetCause(inst, c); /* steals c */
}

/* ---- the exception an `except ... as e` clause caught (lower/caught.c) ---- */

static int32_t
str_into(PyObject *s, void *out)
{
    if (!s)
        return -1;
    int rc = kn_rt_str_make((KnStr *)out, PyUnicode_DATA(s), (int64_t)PyUnicode_GET_LENGTH(s),
                            (int32_t)PyUnicode_KIND(s));
    return rc < 0 ? -1 : 0;
}

/* e as the dispatcher would raise it (without the notes of where it was raised), new */
static PyObject *
caught_instance(const KnExcInfo *exc)
{
    KnExcInfo copy = *exc;
    copy.where = NULL;
    copy.called_from = NULL;
    kn_dispatch_raise(&copy);
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    Py_XDECREF(t);
    Py_XDECREF(tb);
    return v;
}

int32_t
kn_rt_exc_caught_text(const KnExcInfo *exc, int32_t mode, void *out)
{
    if (!exc)
        return -1;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *e = caught_instance(exc);
    int32_t rc = -1;
    if (e && mode == 2) {
        PyObject *args = PyObject_GetAttrString(e, "args");
        if (args && PyTuple_Check(args) && PyTuple_GET_SIZE(args) == 1 &&
            PyUnicode_Check(PyTuple_GET_ITEM(args, 0)))
            rc = str_into(PyTuple_GET_ITEM(args, 0), out);
        else if (args)
            rc = 1;
        Py_XDECREF(args);
    } else if (e) {
        PyObject *s = mode == 1 ? PyObject_Repr(e) : PyObject_Str(e);
        rc = str_into(s, out);
        Py_XDECREF(s);
    }
    Py_XDECREF(e);
    PyErr_Clear();
    PyGILState_Release(g);
    return rc;
}
