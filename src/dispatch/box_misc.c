/* box_misc.c - the boxing models of none (typeof None; one zero byte), range (typeof an exact
 * range; {start, stop, step} of int64 both ways), jitted functions (a kiln Dispatcher passed as
 * an argument or returned: its type names the dispatcher, so the value itself is a dummy slot
 * and boxing gives the dispatcher back) and of the kinds that never cross into or out of
 * compiled code as values (slices, modules, classes, bound methods: unbox and box are
 * TypeErrors, the key is the type's name). */
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
/* ---- jitted functions: the type is the value (docs/internals.md, "Functions as values") ---- */

static PyTypeObject *
func_pytype(void)
{
    return &KnDispatcher_Type;
}

/* The FUNC type of dispatcher o. The type (interned for the life of the process) names o by
 * address, so o is kept alive as long: a later dispatcher at the same address must not reuse
 * the overloads compiled for this one. */
static KnType *
func_typeof(KnState *s, PyObject *o)
{
    static PyObject *kept; /* set of the dispatchers that a type names */
    if (!kept && !(kept = PySet_New(NULL)))
        return NULL;
    if (PySet_Add(kept, o) < 0)
        return NULL;
    PyObject *name = PyObject_GetAttrString(o, "__name__");
    const char *nm = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    KnType *t = kn_type_func(&s->types, KN_FUNC_JITTED, o, nm ? nm : "?");
    Py_XDECREF(name);
    PyErr_Clear();
    return t;
}

static int
func_unbox(KnType *t, PyObject *o, char *dst)
{
    if (t->id != KN_FUNC_JITTED || o != (PyObject *)t->ref) {
        PyErr_Format(PyExc_TypeError, "expected the jitted function %s, got %R", t->name, o);
        return -1;
    }
    memset(dst, 0, 8);
    return 0;
}

static PyObject *
func_box(KnType *t, const char *src)
{
    if (t->id == KN_FUNC_CHOICE) { /* the index of one of its functions */
        int64_t k;
        memcpy(&k, src, sizeof k);
        if (k >= 0 && k < t->n)
            return kn_box_box(t->items[k], src);
    }
    if (t->id != KN_FUNC_JITTED || !t->ref) {
        PyErr_Format(PyExc_TypeError, "cannot return %s to Python", t->name);
        return NULL;
    }
    return Py_NewRef((PyObject *)t->ref);
}

/* ("dispatcher", d) for a jitted function; ("closure", d) for the function item of a closure
 * tuple (typing/functions.c), d the lifted function; ("function_choice", key, ...) for a choice
 * among jitted functions. kiln.types.from_key reads them back as type objects to show. */
static PyObject *
func_key(KnType *t)
{
    if ((t->id == KN_FUNC_JITTED || t->id == KN_FUNC_CLOSURE) && t->ref)
        return Py_BuildValue("(sO)", t->id == KN_FUNC_JITTED ? "dispatcher" : "closure",
                             (PyObject *)t->ref);
    if (t->id == KN_FUNC_CHOICE) {
        PyObject *k = PyTuple_New(t->n + 1);
        PyObject *tag = k ? PyUnicode_FromString("function_choice") : NULL;
        if (!tag) {
            Py_XDECREF(k);
            return NULL;
        }
        PyTuple_SET_ITEM(k, 0, tag);
        for (int i = 0; i < t->n; i++) {
            PyObject *ik = func_key(t->items[i]);
            if (!ik) {
                Py_DECREF(k);
                return NULL;
            }
            PyTuple_SET_ITEM(k, i + 1, ik);
        }
        return k;
    }
    return PyUnicode_FromString(t->name);
}

static KnType *
func_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 2 || Py_TYPE(PyTuple_GET_ITEM(key, 1)) != &KnDispatcher_Type) {
        PyErr_Format(PyExc_TypeError, "kiln: bad dispatcher type key %R", key);
        return NULL;
    }
    return func_typeof(s, PyTuple_GET_ITEM(key, 1));
}

const KnBoxModel kn_box_model_func = {.pytype = func_pytype,
                                      .typeof = func_typeof,
                                      .unbox = func_unbox,
                                      .box = func_box,
                                      .key = func_key,
                                      .tag = "dispatcher",
                                      .from_key = func_from_key};
const KnBoxModel kn_box_model_module = {0};
const KnBoxModel kn_box_model_class = {0};
const KnBoxModel kn_box_model_bound = {0};
