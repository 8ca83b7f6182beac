/* box_misc.c - the boxing models of none (typeof None; one zero byte), range (typeof an exact
 * range; {start, stop, step} of int64 both ways) and of the kinds that never cross into or out
 * of compiled code as values (slices, functions, modules, classes, bound
 * methods: unbox and box are TypeErrors, the key is the type's name). */
#include "dispatch/box_model.h"

/* ---- none ---- */

static PyTypeObject *
none_pytype(void)
{
    return Py_TYPE(Py_None);
}

static KnType *
none_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_none;
}

static int
none_unbox(KnType *t, PyObject *o, char *dst)
{
    KN_UNUSED(t);
    KN_UNUSED(o);
    *(uint8_t *)dst = 0;
    return 0;
}

static PyObject *
none_box(KnType *t, const char *src)
{
    KN_UNUSED(t);
    KN_UNUSED(src);
    Py_RETURN_NONE;
}

const KnBoxModel kn_box_model_none = {
    .pytype = none_pytype, .typeof = none_typeof, .unbox = none_unbox, .box = none_box};

/* ---- range ---- */

static PyTypeObject *
range_pytype(void)
{
    return &PyRange_Type;
}

static KnType *
range_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_range;
}

static int
range_unbox(KnType *t, PyObject *o, char *dst)
{
    KN_UNUSED(t);
    static const char *const names[3] = {"start", "stop", "step"};
    for (int i = 0; i < 3; i++) {
        PyObject *v = PyObject_GetAttrString(o, names[i]);
        if (!v)
            return -1;
        ((int64_t *)dst)[i] = PyLong_AsLongLong(v);
        Py_DECREF(v);
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

static PyObject *
range_box(KnType *t, const char *src)
{
    KN_UNUSED(t);
    const int64_t *r = (const int64_t *)src;
    return PyObject_CallFunction((PyObject *)&PyRange_Type, "LLL", (long long)r[0], (long long)r[1],
                                 (long long)r[2]);
}

static PyObject *
range_key(KnType *t)
{
    KN_UNUSED(t);
    return PyUnicode_FromString("range");
}

const KnBoxModel kn_box_model_range = {.pytype = range_pytype,
                                       .typeof = range_typeof,
                                       .unbox = range_unbox,
                                       .box = range_box,
                                       .key = range_key};

/* ---- compile-time values and the rest: never passed or returned ---- */

const KnBoxModel kn_box_model_slice = {0};
const KnBoxModel kn_box_model_func = {0};
const KnBoxModel kn_box_model_module = {0};
const KnBoxModel kn_box_model_class = {0};
const KnBoxModel kn_box_model_bound = {0};
