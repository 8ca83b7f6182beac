/* typed_dict.c - kiln.typed.Dict: a C type (kiln._core.Dict) holding the same native table that
 * compiled code uses (a KnMemInfo * of a KnDict, runtime/dict.h) and its DictType. From the
 * interpreter each operation is one C call on the table: the key is unboxed into a zeroed buffer
 * and hashed with PyObject_Hash (equal to the hash compiled code computes for numbers, tuples
 * and strs), then probed by the runtime; values are boxed or unboxed one at a time. Strs are
 * copied into the table (it outlives the objects they came from); arrays from the interpreter
 * are refused, as by kiln.typed.List. Passed to compiled code the dict is not converted: the
 * meminfo is shared, so changes on either side are seen by the other, and a typed.Dict that
 * compiled code returns comes back as one. Dict() learns its types from the first item stored.
 * Iteration from the interpreter goes over a snapshot of the keys. */
#include "dispatch/box_model.h"
#include "lower/lower.h"
#include "runtime/dict.h"

typedef struct TypedDict {
    PyObject_HEAD KnMemInfo *mi; /* NULL until the types are known (Dict() before a store) */
    KnType *t;                   /* DictType[K,V], or NULL */
} TypedDict;

KnType *
kn_typed_dict_type(PyObject *o)
{
    return ((TypedDict *)o)->t;
}

KnMemInfo *
kn_typed_dict_mi(PyObject *o)
{
    return ((TypedDict *)o)->mi;
}

static KnDict *
table(KnMemInfo *mi)
{
    return (KnDict *)mi->data;
}

PyObject *
kn_typed_dict_wrap(KnMemInfo *mi, KnType *t)
{
    TypedDict *self = PyObject_New(TypedDict, &KnTypedDict_Type);
    if (!self) {
        kn_rt_decref(mi);
        return NULL;
    }
    self->mi = mi;
    self->t = t;
    table(mi)->typed = 1;
    return (PyObject *)self;
}

static int
set_types(TypedDict *self, KnType *k, KnType *v)
{
    KnType *t = kn_type_dict(&kn_state->types, k, v, KN_DICT_SELF);
    KnDictLayout lay;
    if (k->kind == KN_TY_ARRAY || k->kind == KN_TY_DICT || k->kind == KN_TY_SET ||
        k->kind == KN_TY_LIST || kn_lower_dict_layout(t, &lay) < 0) {
        PyErr_Format(PyExc_TypeError, "kiln.typed.Dict cannot hold %s", t->name);
        return -1;
    }
    KnMemInfo *mi = kn_rt_dict_new(&lay, 0);
    if (!mi) {
        PyErr_NoMemory();
        return -1;
    }
    table(mi)->typed = 1;
    if (self->mi)
        kn_rt_decref(self->mi);
    self->mi = mi;
    self->t = t;
    return 0;
}

static KnType *
type_of(PyObject *o)
{
    return kn_typed_item_type(o, "kiln.typed.Dict cannot hold NumPy arrays given from the "
                                 "interpreter yet (fill the dict in compiled code)");
}

static KnType *
type_from(PyObject *spec)
{
    PyObject *key = PyObject_GetAttrString(spec, "key");
    if (!key) {
        PyErr_Clear();
        key = Py_NewRef(spec);
    }
    KnType *t = kn_box_from_key(kn_state, key);
    Py_DECREF(key);
    return t;
}

/* o as a value of type t at dst: exact ints and floats for int64 and float64 directly (the
 * common case), else through the boxing model (lists inside are not reflected) */
static int
unbox_one(KnType *t, PyObject *o, char *dst)
{
    if (t == &kn_type_int64 && PyLong_CheckExact(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow && !(v == -1 && PyErr_Occurred())) {
            memcpy(dst, &v, 8);
            return 0;
        }
        PyErr_Clear();
    } else if (t == &kn_type_float64 && PyFloat_CheckExact(o)) {
        double v = PyFloat_AS_DOUBLE(o);
        memcpy(dst, &v, 8);
        return 0;
    }
    return kn_typed_unbox(t, o, dst);
}

static PyObject *
box_one(KnType *t, const char *src)
{
    if (t == &kn_type_int64) {
        long long v;
        memcpy(&v, src, 8);
        return PyLong_FromLongLong(v);
    }
    if (t == &kn_type_float64) {
        double v;
        memcpy(&v, src, 8);
        return PyFloat_FromDouble(v);
    }
    return kn_box_box(t, src);
}

/* the key o in a zeroed buffer of the table's key layout, and its hash; 0 or -1 */
static int
key_of(TypedDict *self, PyObject *o, char *buf, int64_t *hash)
{
    KnDict *d = table(self->mi);
    memset(buf, 0, (size_t)d->lay.ksize);
    if (unbox_one(self->t->items[0], o, buf) < 0)
        return -1;
    Py_hash_t h = kn_box_key_hash(self->t->items[0], o); /* enum members: box_enum.c */
    if (h == -1)
        return -1;
    *hash = (int64_t)h;
    return 0;
}

static int
ready(TypedDict *self)
{
    if (self->mi)
        return 1;
    return 0;
}

static char *
entry(KnDict *d, int64_t ix)
{
    return d->entries + ix * d->lay.esize;
}

/* the entry of key o, or -1 (with KeyError set when `raise`) */
static int64_t
find(TypedDict *self, PyObject *o, int raise)
{
    if (!ready(self)) {
        if (raise)
            PyErr_SetObject(PyExc_KeyError, o);
        return -1;
    }
    char small[256], *buf = small;
    KnDict *d = table(self->mi);
    if ((size_t)d->lay.ksize > sizeof small) {
        PyErr_SetString(PyExc_TypeError, "kiln: dict key too large");
        return -2;
    }
    int64_t h;
    if (key_of(self, o, buf, &h) < 0) {
        if (!raise && PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear(); /* a key of another type: not in the dict */
            return -1;
        }
        return -2;
    }
    int64_t ix = kn_rt_dict_lookup(self->mi, buf, h);
    if (ix < 0 && raise)
        PyErr_SetObject(PyExc_KeyError, o);
    return ix;
}

static PyObject *
value_at(TypedDict *self, int64_t ix)
{
    KnDict *d = table(self->mi);
    kn_rt_dict_take_refs(self->mi, ix, 2);
    return box_one(self->t->items[1], entry(d, ix) + d->lay.voff);
}

static PyObject *
key_at(TypedDict *self, int64_t ix)
{
    KnDict *d = table(self->mi);
    kn_rt_dict_take_refs(self->mi, ix, 1);
    return box_one(self->t->items[0], entry(d, ix) + d->lay.koff);
}

static int
store(TypedDict *self, PyObject *k, PyObject *v)
{
    if (!ready(self)) {
        KnType *kt = type_of(k), *vt = kt ? type_of(v) : NULL;
        if (!vt || set_types(self, kt, vt) < 0)
            return -1;
    }
    KnDict *d = table(self->mi);
    char small[512], *val = small;
    if ((size_t)d->lay.vsize + (size_t)d->lay.ksize > sizeof small) {
        PyErr_SetString(PyExc_TypeError, "kiln: dict item too large");
        return -1;
    }
    char *key = small + ((d->lay.vsize + 7) / 8 * 8);
    int64_t h;
    if (key_of(self, k, key, &h) < 0)
        return -1;
    memset(val, 0, (size_t)d->lay.vsize);
    if (unbox_one(self->t->items[1], v, val) < 0)
        return -1;
    int64_t ix = kn_rt_dict_store(self->mi, key, h, val);
    /* the table took references of its own: the unboxed value's (a list, a held array) go */
    for (int32_t r = d->lay.key_refs; r < d->lay.nrefs; r++) {
        KnMemInfo *held;
        memcpy(&held, val + (d->lay.refs[r] - d->lay.voff), sizeof held);
        kn_rt_decref(held);
    }
    if (ix < 0 || kn_rt_dict_own_strs(self->mi, ix, 1) < 0 ||
        kn_rt_dict_own_strs(self->mi, ix, 2) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ---- the type ---- */

static PyObject *
td_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) || (kwds && PyDict_GET_SIZE(kwds)))
        return PyErr_Format(PyExc_TypeError,
                            "kiln.typed.Dict() takes no arguments (use Dict.empty(key_type=..., "
                            "value_type=...), then store items)");
    TypedDict *self = (TypedDict *)type->tp_alloc(type, 0);
    if (self) {
        self->mi = NULL;
        self->t = NULL;
    }
    return (PyObject *)self;
}

static void
td_dealloc(TypedDict *self)
{
    if (self->mi)
        kn_rt_decref(self->mi);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
td_empty(PyObject *cls, PyObject *args, PyObject *kwds)
{
    PyObject *kt, *vt, *n_keys = NULL;
    static char *kwlist[] = {"key_type", "value_type", "n_keys", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O:empty", kwlist, &kt, &vt, &n_keys))
        return NULL;
    KnType *k = type_from(kt), *v = k ? type_from(vt) : NULL;
    if (!v)
        return NULL;
    TypedDict *self = (TypedDict *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (!self)
        return NULL;
    self->mi = NULL;
    self->t = NULL;
    if (set_types(self, k, v) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static Py_ssize_t
td_len(TypedDict *self)
{
    return ready(self) ? (Py_ssize_t)table(self->mi)->used : 0;
}

static PyObject *
td_getitem(TypedDict *self, PyObject *k)
{
    int64_t ix = find(self, k, 1);
    return ix < 0 ? NULL : value_at(self, ix);
}

static int
td_setitem(TypedDict *self, PyObject *k, PyObject *v)
{
    if (v)
        return store(self, k, v);
    int64_t ix = find(self, k, 1);
    if (ix < 0)
        return -1;
    kn_rt_dict_remove(self->mi, ix, 1);
    return 0;
}

static int
td_contains(TypedDict *self, PyObject *k)
{
    int64_t ix = find(self, k, 0);
    return ix == -2 ? -1 : ix >= 0;
}

/* a Python list of the keys (0), values (1) or (key, value) items (2), in order */
static PyObject *
snapshot(TypedDict *self, int what)
{
    PyObject *r = PyList_New(0);
    if (!r || !ready(self))
        return r;
    KnDict *d = table(self->mi);
    for (int64_t ix = d->first; ix < d->nentries; ix++) {
        int64_t h;
        memcpy(&h, entry(d, ix), 8);
        if (h == -1)
            continue;
        PyObject *k = what != 1 ? key_at(self, ix) : NULL;
        PyObject *v = what != 0 ? value_at(self, ix) : NULL;
        PyObject *item = what == 0   ? Py_XNewRef(k)
                         : what == 1 ? Py_XNewRef(v)
                         : k && v    ? PyTuple_Pack(2, k, v)
                                     : NULL;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (!item || PyList_Append(r, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(r);
            return NULL;
        }
        Py_DECREF(item);
    }
    return r;
}

static PyObject *
td_iter(TypedDict *self)
{
    PyObject *keys = snapshot(self, 0);
    PyObject *it = keys ? PyObject_GetIter(keys) : NULL;
    Py_XDECREF(keys);
    return it;
}

static PyObject *
td_keys(TypedDict *self, PyObject *unused)
{
    KN_UNUSED(unused);
    return snapshot(self, 0);
}

static PyObject *
td_values(TypedDict *self, PyObject *unused)
{
    KN_UNUSED(unused);
    return snapshot(self, 1);
}

static PyObject *
td_items(TypedDict *self, PyObject *unused)
{
    KN_UNUSED(unused);
    return snapshot(self, 2);
}

static PyObject *
td_get(TypedDict *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2)
        return PyErr_Format(PyExc_TypeError, "get expected 1 or 2 arguments, got %zd", nargs);
    int64_t ix = find(self, args[0], 0);
    if (ix == -2)
        return NULL;
    if (ix < 0)
        return Py_NewRef(nargs == 2 ? args[1] : Py_None);
    return value_at(self, ix);
}

static PyObject *
td_pop(TypedDict *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2)
        return PyErr_Format(PyExc_TypeError, "pop expected 1 or 2 arguments, got %zd", nargs);
    int64_t ix = find(self, args[0], nargs == 1);
    if (ix == -2 || (ix < 0 && nargs == 1))
        return NULL;
    if (ix < 0)
        return Py_NewRef(args[1]);
    PyObject *v = value_at(self, ix);
    if (v)
        kn_rt_dict_remove(self->mi, ix, 1);
    return v;
}

static PyObject *
td_setdefault(TypedDict *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "setdefault expected 2 arguments, got %zd", nargs);
    int64_t ix = find(self, args[0], 0);
    if (ix == -2)
        return NULL;
    if (ix < 0 && store(self, args[0], args[1]) < 0)
        return NULL;
    return td_getitem(self, args[0]);
}

static PyObject *
td_clear(TypedDict *self, PyObject *unused)
{
    KN_UNUSED(unused);
    if (ready(self))
        kn_rt_dict_clear(self->mi);
    Py_RETURN_NONE;
}

static PyObject *
as_pydict(TypedDict *self)
{
    PyObject *items = snapshot(self, 2);
    PyObject *r = items ? PyDict_New() : NULL;
    for (Py_ssize_t i = 0; r && i < PyList_GET_SIZE(items); i++) {
        PyObject *kv = PyList_GET_ITEM(items, i);
        if (PyDict_SetItem(r, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0)
            Py_CLEAR(r);
    }
    Py_XDECREF(items);
    return r;
}

static PyObject *
td_repr(TypedDict *self)
{
    PyObject *d = as_pydict(self);
    if (!d)
        return NULL;
    PyObject *r =
        PyUnicode_FromFormat("%s(%R)", self->t ? self->t->name : "DictType[undefined]", d);
    Py_DECREF(d);
    return r;
}

static PyObject *
as_pydict_obj(PyObject *self)
{
    return as_pydict((TypedDict *)self);
}

static PyObject *
td_richcompare(TypedDict *self, PyObject *other, int op)
{
    return kn_typed_richcompare((PyObject *)self, other, op, &PyDict_Type, as_pydict_obj);
}

static PyObject *
td_type_of(TypedDict *self, int which)
{
    return kn_typed_type_object(self->t ? self->t->items[which] : NULL);
}

static PyObject *
td_key_type(TypedDict *self, void *closure)
{
    KN_UNUSED(closure);
    return td_type_of(self, 0);
}

static PyObject *
td_value_type(TypedDict *self, void *closure)
{
    KN_UNUSED(closure);
    return td_type_of(self, 1);
}

static PySequenceMethods td_as_sequence = {
    .sq_contains = (objobjproc)td_contains,
};

static PyMappingMethods td_as_mapping = {
    .mp_length = (lenfunc)td_len,
    .mp_subscript = (binaryfunc)td_getitem,
    .mp_ass_subscript = (objobjargproc)td_setitem,
};

static PyMethodDef td_methods[] = {
    {"keys", (PyCFunction)td_keys, METH_NOARGS, "The keys, in insertion order (a list)."},
    {"values", (PyCFunction)td_values, METH_NOARGS, "The values, in insertion order (a list)."},
    {"items", (PyCFunction)td_items, METH_NOARGS, "The (key, value) pairs, in order (a list)."},
    {"get", (PyCFunction)(void (*)(void))td_get, METH_FASTCALL, "d[k] if k in d, else default."},
    {"pop", (PyCFunction)(void (*)(void))td_pop, METH_FASTCALL, "Remove k and return d[k]."},
    {"setdefault", (PyCFunction)(void (*)(void))td_setdefault, METH_FASTCALL,
     "d[k], stored first when missing."},
    {"clear", (PyCFunction)td_clear, METH_NOARGS, "Remove every item."},
    {"empty", (PyCFunction)(void (*)(void))td_empty, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "An empty dict of the given key and value types."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef td_getset[] = {
    {"key_type", (getter)td_key_type, NULL, "The key type (kiln.types).", NULL},
    {"value_type", (getter)td_value_type, NULL, "The value type (kiln.types).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject KnTypedDict_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln.typed.Dict",
    .tp_basicsize = sizeof(TypedDict),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = td_new,
    .tp_dealloc = (destructor)td_dealloc,
    .tp_repr = (reprfunc)td_repr,
    .tp_as_sequence = &td_as_sequence,
    .tp_as_mapping = &td_as_mapping,
    .tp_richcompare = (richcmpfunc)td_richcompare,
    .tp_iter = (getiterfunc)td_iter,
    .tp_methods = td_methods,
    .tp_getset = td_getset,
    .tp_doc = "A typed dict (Numba's numba.typed.Dict), shared with compiled code without "
              "conversion.",
};
