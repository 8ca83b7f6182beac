/* box_dict.c - the boxing models of dicts and sets, and the KeyError that compiled code raises.
 *
 * Returned: a dict or set made in compiled code becomes a Python dict or set (its views the
 * views of that dict), item by item, in the table's order; the table's reference is released.
 * Arguments: a Python dict is refused, as Numba refuses reflected dicts (its mutations could not
 * be seen by the caller without copying back every value); a kiln.typed.Dict (typed_dict.c)
 * shares its table, and a typed.Dict's table returned comes back as that kind of object. A Python
 * set is reflected like a list: typeof unifies its items' types, unbox copies it into a new table
 * (hashes from PyObject_Hash, which equals what compiled code computes for numbers and tuples),
 * recorded for reflection as lists are (box_list.c: also inside tuples and lists), and after the
 * call kn_box_reflect_done writes the table's keys back into the set. */
#include "dispatch/box_model.h"

#include "lower/lower.h"
#include "runtime/dict.h"

static KnDict *
table(KnMemInfo *mi)
{
    return (KnDict *)mi->data;
}

/* the Python dict or set of the table mi (its references kept: each item boxed gets its own) */
static PyObject *
to_python(KnType *t, KnMemInfo *mi)
{
    KnDict *d = table(mi);
    int is_set = t->kind == KN_TY_SET;
    PyObject *r = is_set ? PySet_New(NULL) : PyDict_New();
    for (int64_t ix = d->first; r && ix < d->nentries; ix++) {
        char *e = d->entries + ix * d->lay.esize;
        int64_t h;
        memcpy(&h, e, 8);
        if (h == -1)
            continue;
        kn_rt_dict_take_refs(mi, ix, 1);
        kn_rt_dict_take_refs(mi, ix, 2);
        PyObject *k = kn_box_box(t->items[0], e + d->lay.koff);
        PyObject *v = is_set || !k ? NULL : kn_box_box(t->items[1], e + d->lay.voff);
        int rc = !k || (!is_set && !v) ? -1 : is_set ? PySet_Add(r, k) : PyDict_SetItem(r, k, v);
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (rc < 0)
            Py_CLEAR(r);
    }
    return r;
}

static PyObject *
dict_box(KnType *t, const char *src)
{
    KnMemInfo *mi;
    memcpy(&mi, src, sizeof mi);
    if (t->kind == KN_TY_DICT && t->id == KN_DICT_SELF && table(mi)->typed)
        return kn_typed_dict_wrap(mi, t); /* a kiln.typed.Dict comes back as itself */
    PyObject *r = to_python(t, mi);
    kn_rt_decref(mi);
    static const char *const views[] = {NULL, "keys", "values", "items"};
    if (r && t->kind == KN_TY_DICT && t->id != KN_DICT_SELF) {
        PyObject *v = PyObject_CallMethod(r, views[t->id], NULL);
        Py_DECREF(r);
        r = v;
    }
    return r;
}

static PyObject *
dict_key(KnType *t)
{
    static const char *const tags[] = {"dict", "dict_keys", "dict_values", "dict_items"};
    PyObject *k = kn_box_key(t->items[0]);
    PyObject *v = t->kind == KN_TY_DICT ? kn_box_key(t->items[1]) : NULL;
    PyObject *r = NULL;
    if (t->kind == KN_TY_SET && k)
        r = Py_BuildValue("(sO)", "set", k);
    else if (k && v)
        r = Py_BuildValue("(sOO)", tags[t->id], k, v);
    Py_XDECREF(k);
    Py_XDECREF(v);
    return r;
}

static KnType *
dict_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 3) {
        PyErr_SetString(PyExc_TypeError, "kiln: a dict key is ('dict', key, value)");
        return NULL;
    }
    KnType *k = kn_box_from_key(s, PyTuple_GET_ITEM(key, 1));
    KnType *v = k ? kn_box_from_key(s, PyTuple_GET_ITEM(key, 2)) : NULL;
    return v ? kn_type_dict(&s->types, k, v, KN_DICT_SELF) : NULL;
}

static KnType *
set_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 2) {
        PyErr_SetString(PyExc_TypeError, "kiln: a set key is ('set', item)");
        return NULL;
    }
    KnType *k = kn_box_from_key(s, PyTuple_GET_ITEM(key, 1));
    return k ? kn_type_set(&s->types, k) : NULL;
}

static PyTypeObject *
dict_pytype(void)
{
    return &PyDict_Type;
}

static PyTypeObject *
typed_dict_pytype(void)
{
    return &KnTypedDict_Type;
}

static KnType *
dict_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    if (Py_TYPE(o) == &KnTypedDict_Type) {
        KnType *t = kn_typed_dict_type(o);
        if (!t)
            PyErr_SetString(PyExc_TypeError,
                            "kiln cannot pass an empty kiln.typed.Dict() whose key and value "
                            "types are unknown: make it with Dict.empty(key_type, value_type)");
        return t;
    }
    PyErr_SetString(PyExc_TypeError,
                    "kiln does not take a Python dict as an argument (as Numba, which refuses "
                    "reflected dicts): pass a kiln.typed.Dict, or build the dict inside the "
                    "compiled function");
    return NULL;
}

/* a kiln.typed.Dict: its table, shared (a reference for the call, dropped by
 * kn_box_release_meminfo) */
static int
dict_unbox(KnType *t, PyObject *o, char *dst)
{
    if (Py_TYPE(o) != &KnTypedDict_Type || kn_typed_dict_type(o) != t) {
        PyErr_Format(PyExc_TypeError, "expected a kiln.typed.Dict of %s, got %R", t->name, o);
        return -1;
    }
    KnMemInfo *mi = kn_typed_dict_mi(o);
    kn_rt_incref(mi);
    memcpy(dst, &mi, sizeof mi);
    return 0;
}

const KnBoxModel kn_box_model_dict = {
    .pytype = dict_pytype,
    .pytype2 = typed_dict_pytype,
    .typeof = dict_typeof,
    .unbox = dict_unbox,
    .release = kn_box_release_meminfo,
    .box = dict_box,
    .key = dict_key,
    .tag = "dict",
    .from_key = dict_from_key,
};

/* ---- sets: reflected arguments ---- */

static PyTypeObject *
set_pytype(void)
{
    return &PySet_Type;
}

static KnType *
set_typeof(KnState *s, PyObject *o)
{
    KnType *k = NULL;
    PyObject *it = PyObject_GetIter(o), *x;
    while (it && (x = PyIter_Next(it))) {
        KnType *t = kn_box_typeof(s, x);
        KnType *u = t && k ? kn_type_unify(&s->types, k, t) : t;
        if (t && !u)
            PyErr_Format(PyExc_TypeError,
                         "kiln: a set argument holds items of different types (%s and %s, at "
                         "%R)",
                         k->name, t->name, x);
        Py_DECREF(x);
        if (!u) {
            Py_DECREF(it);
            return NULL;
        }
        k = u;
    }
    Py_XDECREF(it);
    if (PyErr_Occurred())
        return NULL;
    if (!k) {
        PyErr_SetString(PyExc_TypeError,
                        "kiln cannot type an empty set argument (its item type is unknown), as "
                        "Numba cannot");
        return NULL;
    }
    if (k->kind != KN_TY_INT && k->kind != KN_TY_BOOL && k->kind != KN_TY_FLOAT &&
        k->kind != KN_TY_TUPLE && k->kind != KN_TY_STR) {
        PyErr_Format(PyExc_TypeError, "kiln does not take sets of %s as arguments yet", k->name);
        return NULL;
    }
    return kn_type_set(&s->types, k);
}

static int
set_unbox(KnType *t, PyObject *o, char *dst)
{
    KnDictLayout lay;
    if (!PyAnySet_Check(o) || kn_lower_dict_layout(t, &lay) < 0) {
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    KnMemInfo *mi = kn_rt_dict_new(&lay, PySet_GET_SIZE(o));
    if (!mi) {
        PyErr_NoMemory();
        return -1;
    }
    char small[256], *key = (size_t)lay.ksize <= sizeof small ? small : malloc((size_t)lay.ksize);
    PyObject *it = key ? PyObject_GetIter(o) : NULL, *x;
    int rc = it ? 0 : -1;
    while (!rc && (x = PyIter_Next(it))) {
        memset(key, 0, (size_t)lay.ksize);
        Py_hash_t h = kn_box_unbox(t->items[0], x, key) < 0 ? -1 : kn_box_key_hash(t->items[0], x);
        int32_t added;
        if (h == -1 || kn_rt_dict_insert(mi, key, (int64_t)h, &added) < 0)
            rc = -1;
        Py_DECREF(x);
    }
    Py_XDECREF(it);
    if (key != small)
        free(key);
    if (rc < 0 || PyErr_Occurred()) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        kn_rt_decref(mi);
        return -1;
    }
    if (kn_box_reflect_record(mi, t, o) < 0) { /* written back after the call */
        kn_rt_decref(mi);
        return -1;
    }
    memcpy(dst, &mi, sizeof mi);
    return 0;
}

/* after the call (kn_box_reflect_done): the set gets the table's keys (the function may have
 * changed them); the table's references stay with the caller */
int
kn_box_set_write_back(KnType *t, KnMemInfo *mi, PyObject *o)
{
    PyObject *now = to_python(t, mi);
    if (!now)
        return -1;
    int rc = PySet_Clear(o);
    PyObject *it = rc < 0 ? NULL : PyObject_GetIter(now), *x;
    while (it && (x = PyIter_Next(it))) {
        if (PySet_Add(o, x) < 0)
            rc = -1;
        Py_DECREF(x);
    }
    Py_XDECREF(it);
    Py_DECREF(now);
    return rc < 0 || PyErr_Occurred() ? -1 : 0;
}

const KnBoxModel kn_box_model_set = {
    .pytype = set_pytype,
    .typeof = set_typeof,
    .unbox = set_unbox,
    .release = kn_box_release_meminfo,
    .box = dict_box,
    .key = dict_key,
    .tag = "set",
    .from_key = set_from_key,
};

/* ---- KeyError(key) ---- */

/* one part of a key, by lower/dict.c's code: 0 int64, 1 uint64, 2 float64 bits, 3 bool */
static PyObject *
key_part(int code, int64_t v)
{
    switch (code) {
    case 1:
        return PyLong_FromUnsignedLongLong((unsigned long long)v);
    case 2: {
        double d;
        memcpy(&d, &v, sizeof d);
        return PyFloat_FromDouble(d);
    }
    case 3:
        return PyBool_FromLong((long)v);
    default:
        return PyLong_FromLongLong(v);
    }
}

PyObject *
kn_box_key_error_args(const KnExcInfo *exc)
{
    int64_t code = exc->nargs ? exc->args[0] : 0xF;
    int n = (int)(code & 0xF);
    if (n == 0xE) { /* a str key: its text, kept by the runtime */
        int32_t kind;
        int64_t len;
        const void *p = kn_rt_dict_key_error_text(&kind, &len);
        PyObject *k = PyUnicode_FromKindAndData(kind, p, (Py_ssize_t)len);
        PyObject *r = k ? PyTuple_Pack(1, k) : NULL;
        Py_XDECREF(k);
        return r;
    }
    if (n == 0xF || exc->nargs < 2)
        return PyTuple_New(0);
    if (n == 0) {
        PyObject *k = key_part((int)(code >> 4) & 3, exc->args[1]);
        PyObject *r = k ? PyTuple_Pack(1, k) : NULL;
        Py_XDECREF(k);
        return r;
    }
    PyObject *key = PyTuple_New(n);
    for (int i = 0; key && i < n && i + 1 < exc->nargs; i++) {
        PyObject *p = key_part((int)(code >> (4 + 2 * i)) & 3, exc->args[i + 1]);
        if (!p) {
            Py_CLEAR(key);
            break;
        }
        PyTuple_SET_ITEM(key, i, p);
    }
    PyObject *r = key ? PyTuple_Pack(1, key) : NULL;
    Py_XDECREF(key);
    return r;
}
