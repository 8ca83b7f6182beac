/* typed_list.c - kiln.typed.List: a C type (kiln._core.List) holding the same native list that
 * compiled code uses (a KnMemInfo * of a KnList, runtime/list.h) and its kiln list type. From the
 * interpreter, each operation is one C call on the native buffer: len, l[i] (boxing one item),
 * l[i] = v, append (unboxing one item, checked against the item type), iteration, repr, ==.
 * Passed to compiled code it is not converted: the meminfo is shared, so changes made on either
 * side are seen by the other; a list compiled code made from one (typed = 1) boxes back as a
 * typed.List. List() learns its item type from the first item appended. */
#include "dispatch/box_model.h"
#include "lower/lower.h"
#include "runtime/list.h"

typedef struct TypedList {
    PyObject_HEAD KnMemInfo *mi;
    KnType *t; /* list(item); item NULL until the first append of a List() */
} TypedList;

KnType *
kn_typed_list_type(PyObject *o)
{
    return ((TypedList *)o)->t;
}

KnMemInfo *
kn_typed_list_mi(PyObject *o)
{
    return ((TypedList *)o)->mi;
}

static KnList *
native(TypedList *self)
{
    return kn_rt_list_of(self->mi);
}

/* self holds mi (taking over a reference) instead of what it held. The native list points back
 * at self (KnList.pyobj, borrowed, cleared when self goes), so that boxing it again gives self:
 * a typed.List passed to compiled code and returned is the same object. */
static void
attach(TypedList *self, KnMemInfo *mi)
{
    KnMemInfo *old = self->mi;
    self->mi = mi;
    if (mi)
        kn_rt_list_of(mi)->pyobj = self;
    if (old) {
        if (kn_rt_list_of(old)->pyobj == (void *)self)
            kn_rt_list_of(old)->pyobj = NULL;
        kn_rt_decref(old);
    }
}

PyObject *
kn_typed_list_wrap(KnMemInfo *mi, KnType *t)
{
    TypedList *self = PyObject_New(TypedList, &KnTypedList_Type);
    if (!self) {
        kn_rt_decref(mi);
        return NULL;
    }
    self->mi = NULL;
    attach(self, mi);
    self->t = t;
    kn_rt_list_of(mi)->typed = 1;
    return (PyObject *)self;
}

/* an empty list of item type `item` (NULL: not known yet) */
static int
set_empty(TypedList *self, KnType *item)
{
    KnType *t = kn_type_list(&kn_state->types, item);
    int32_t off[KN_LIST_MAX_REFS];
    int n = item ? kn_lower_list_ref_offsets(item, off, 0, 0) : 0;
    if (n < 0) {
        PyErr_Format(PyExc_TypeError, "kiln: lists of %s are not supported", item->name);
        return -1;
    }
    KnMemInfo *mi = kn_rt_list_new(item ? (int64_t)kn_type_size(item) : 1, n, off, 0);
    if (!mi) {
        PyErr_NoMemory();
        return -1;
    }
    kn_rt_list_of(mi)->typed = 1;
    attach(self, mi);
    self->t = t;
    return 0;
}

/* The item type of o for a list (an ndarray is held by its item: kn_typed_unbox). */
static KnType *
item_type_of(PyObject *o)
{
    return kn_typed_item_type(o, "kiln.typed.List cannot hold NumPy arrays given from the "
                                 "interpreter yet (build the list in compiled code)");
}

static int
append_one(TypedList *self, PyObject *v)
{
    if (!self->t->dtype) {
        KnType *item = item_type_of(v);
        if (!item || set_empty(self, item) < 0)
            return -1;
    }
    KnList *l = native(self);
    if (kn_rt_list_reserve(self->mi, l->len + 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = kn_typed_unbox(self->t->dtype, v, l->items + l->len * l->itemsize);
    if (rc < 0)
        return -1;
    l->len++;
    l->dirty = 1;
    return 0;
}

static int
extend_from(TypedList *self, PyObject *iterable)
{
    if (PyList_CheckExact(iterable) && PyList_GET_SIZE(iterable) && !native(self)->len) {
        if (!self->t->dtype) {
            KnType *item = item_type_of(PyList_GET_ITEM(iterable, 0));
            if (!item || set_empty(self, item) < 0)
                return -1;
        }
        /* one C loop with a type check per item (box_list.c) */
        int mark = kn_box_reflect_mark();
        KnMemInfo *mi = kn_box_list_from_items(self->t, PySequence_Fast_ITEMS(iterable),
                                               PyList_GET_SIZE(iterable));
        kn_box_reflect_drop(mark);
        if (!mi)
            return -1;
        if (kn_typed_hold_arrays(self->t->dtype, kn_rt_list_of(mi)) < 0) {
            kn_rt_decref(mi);
            return -1;
        }
        kn_rt_list_of(mi)->typed = 1;
        attach(self, mi);
        return 0;
    }
    PyObject *it = PyObject_GetIter(iterable);
    if (!it)
        return -1;
    PyObject *v;
    while ((v = PyIter_Next(it))) {
        int rc = append_one(self, v);
        Py_DECREF(v);
        if (rc < 0) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *
tl_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *iterable = NULL;
    static char *kwlist[] = {"iterable", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:List", kwlist, &iterable))
        return NULL;
    TypedList *self = (TypedList *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->mi = NULL;
    if (set_empty(self, NULL) < 0 || (iterable && extend_from(self, iterable) < 0)) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void
tl_dealloc(TypedList *self)
{
    attach(self, NULL);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
tl_empty_list(PyObject *cls, PyObject *args, PyObject *kwds)
{
    PyObject *item_type, *allocated = NULL;
    static char *kwlist[] = {"item_type", "allocated", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:empty_list", kwlist, &item_type, &allocated))
        return NULL;
    PyObject *key = PyObject_GetAttrString(item_type, "key");
    if (!key) {
        PyErr_Clear();
        key = Py_NewRef(item_type);
    }
    KnType *item = kn_box_from_key(kn_state, key);
    Py_DECREF(key);
    if (!item)
        return NULL;
    TypedList *self = (TypedList *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (!self)
        return NULL;
    self->mi = NULL;
    if (set_empty(self, item) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    Py_ssize_t cap = allocated ? PyLong_AsSsize_t(allocated) : 0;
    if (cap > 0 && kn_rt_list_reserve(self->mi, cap) < 0) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static Py_ssize_t
tl_len(TypedList *self)
{
    return (Py_ssize_t)native(self)->len;
}

/* item i (in range) as a Python object; int64 and float64 without the model's dispatch */
static inline PyObject *
box_at(TypedList *self, KnList *l, Py_ssize_t i)
{
    KnType *item = self->t->dtype;
    const char *p = l->items + i * l->itemsize;
    if (item == &kn_type_int64)
        return PyLong_FromLongLong(*(const int64_t *)p);
    if (item == &kn_type_float64)
        return PyFloat_FromDouble(*(const double *)p);
    kn_rt_list_item_incref(l, p);
    return kn_box_box(item, p);
}

static PyObject *
tl_item(TypedList *self, Py_ssize_t i)
{
    KnList *l = native(self);
    if (i < 0 || i >= l->len) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return NULL;
    }
    return box_at(self, l, i);
}

static int
tl_ass_item(TypedList *self, Py_ssize_t i, PyObject *v)
{
    KnList *l = native(self);
    if (i < 0 || i >= l->len) {
        PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
        return -1;
    }
    if (!v) {
        kn_rt_list_delete(self->mi, i, i + 1);
        return 0;
    }
    _Alignas(16) char tmp[512];
    if (l->itemsize > (int64_t)sizeof tmp) {
        PyErr_SetString(PyExc_TypeError, "kiln: list item too large");
        return -1;
    }
    int rc = kn_typed_unbox(self->t->dtype, v, tmp);
    if (rc < 0)
        return -1;
    char *p = l->items + i * l->itemsize;
    kn_rt_list_item_decref(l, p);
    memcpy(p, tmp, (size_t)l->itemsize);
    l->dirty = 1;
    return 0;
}

static PyObject *
tl_subscript(TypedList *self, PyObject *key)
{
    if (PyLong_CheckExact(key)) { /* the common case first */
        Py_ssize_t i = PyLong_AsSsize_t(key);
        if (i == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_SetString(PyExc_IndexError, "cannot fit 'int' into an index-sized integer");
            return NULL;
        }
        if (i < 0)
            i += (Py_ssize_t)native(self)->len;
        return tl_item(self, i);
    }
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        if (i < 0)
            i += (Py_ssize_t)native(self)->len;
        return tl_item(self, i);
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return NULL;
        Py_ssize_t n = PySlice_AdjustIndices((Py_ssize_t)native(self)->len, &start, &stop, step);
        KnMemInfo *mi = kn_rt_list_slice(self->mi, start, step, n);
        return mi ? kn_typed_list_wrap(mi, self->t) : PyErr_NoMemory();
    }
    return PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %s",
                        Py_TYPE(key)->tp_name);
}

static int
tl_ass_subscript(TypedList *self, PyObject *key, PyObject *v)
{
    if (!PyIndex_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "kiln.typed.List assignment takes an integer index");
        return -1;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0)
        i += (Py_ssize_t)native(self)->len;
    return tl_ass_item(self, i, v);
}

static PyObject *
tl_append(TypedList *self, PyObject *v)
{
    if (append_one(self, v) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
tl_extend(TypedList *self, PyObject *v)
{
    if (extend_from(self, v) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
tl_pop(TypedList *self, PyObject *const *args, Py_ssize_t nargs)
{
    KnList *l = native(self);
    if (!l->len) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    Py_ssize_t i = nargs ? PyNumber_AsSsize_t(args[0], PyExc_IndexError) : -1;
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0)
        i += (Py_ssize_t)l->len;
    if (i < 0 || i >= l->len) {
        PyErr_SetString(PyExc_IndexError, "pop index out of range");
        return NULL;
    }
    PyObject *r = tl_item(self, i);
    if (r)
        kn_rt_list_delete(self->mi, i, i + 1);
    return r;
}

/* a Python list of the items (repr, ==) */
static PyObject *
as_pylist(TypedList *self)
{
    KnList *l = native(self);
    PyObject *r = PyList_New((Py_ssize_t)l->len);
    for (int64_t k = 0; r && k < l->len; k++) {
        PyObject *v = tl_item(self, (Py_ssize_t)k);
        if (!v) {
            Py_CLEAR(r);
            break;
        }
        PyList_SET_ITEM(r, (Py_ssize_t)k, v);
    }
    return r;
}

static PyObject *
tl_repr(TypedList *self)
{
    PyObject *items = as_pylist(self);
    if (!items)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("ListType[%s](%R)",
                                       self->t->dtype ? self->t->dtype->name : "undefined", items);
    Py_DECREF(items);
    return r;
}

static PyObject *
as_pylist_obj(PyObject *self)
{
    return as_pylist((TypedList *)self);
}

static PyObject *
tl_richcompare(TypedList *self, PyObject *other, int op)
{
    return kn_typed_richcompare((PyObject *)self, other, op, &PyList_Type, as_pylist_obj);
}

/* the iterator: index k checked against the current length at each step, as CPython's */
typedef struct TypedListIter {
    PyObject_HEAD TypedList *list; /* NULL once exhausted */
    Py_ssize_t k;
} TypedListIter;

static void
tli_dealloc(TypedListIter *it)
{
    Py_XDECREF(it->list);
    PyObject_Free(it);
}

static PyObject *
tli_next(TypedListIter *it)
{
    TypedList *self = it->list;
    if (!self)
        return NULL;
    KnList *l = native(self);
    if (it->k < l->len)
        return box_at(self, l, it->k++);
    it->list = NULL;
    Py_DECREF(self);
    return NULL;
}

static PyTypeObject TypedListIter_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln.typed.ListIterator",
    .tp_basicsize = sizeof(TypedListIter),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)tli_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)tli_next,
};

static PyObject *
tl_iter(TypedList *self)
{
    if (!(TypedListIter_Type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&TypedListIter_Type) < 0)
        return NULL;
    TypedListIter *it = PyObject_New(TypedListIter, &TypedListIter_Type);
    if (!it)
        return NULL;
    it->list = (TypedList *)Py_NewRef((PyObject *)self);
    it->k = 0;
    return (PyObject *)it;
}

static PyObject *
tl_item_type(TypedList *self, void *closure)
{
    (void)closure;
    return kn_typed_type_object(self->t->dtype);
}

static PySequenceMethods tl_as_sequence = {
    .sq_length = (lenfunc)tl_len,
    .sq_item = (ssizeargfunc)tl_item,
    .sq_ass_item = (ssizeobjargproc)tl_ass_item,
};

static PyMappingMethods tl_as_mapping = {
    .mp_length = (lenfunc)tl_len,
    .mp_subscript = (binaryfunc)tl_subscript,
    .mp_ass_subscript = (objobjargproc)tl_ass_subscript,
};

static PyMethodDef tl_methods[] = {
    {"append", (PyCFunction)tl_append, METH_O, "Append an item (of the list's item type)."},
    {"extend", (PyCFunction)tl_extend, METH_O, "Append the items of an iterable."},
    {"pop", (PyCFunction)(void (*)(void))tl_pop, METH_FASTCALL, "Remove and return an item."},
    {"empty_list", (PyCFunction)(void (*)(void))tl_empty_list,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, "An empty list of the given item type."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tl_getset[] = {
    {"_dtype", (getter)tl_item_type, NULL, "The item type (kiln.types).", NULL},
    {"item_type", (getter)tl_item_type, NULL, "The item type (kiln.types).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject KnTypedList_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln.typed.List",
    .tp_basicsize = sizeof(TypedList),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = tl_new,
    .tp_dealloc = (destructor)tl_dealloc,
    .tp_repr = (reprfunc)tl_repr,
    .tp_as_sequence = &tl_as_sequence,
    .tp_as_mapping = &tl_as_mapping,
    .tp_richcompare = (richcmpfunc)tl_richcompare,
    .tp_iter = (getiterfunc)tl_iter,
    .tp_methods = tl_methods,
    .tp_getset = tl_getset,
    .tp_doc = "A typed list (Numba's numba.typed.List), shared with compiled code without "
              "conversion.",
};
