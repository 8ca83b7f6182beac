/* box_list.c - the boxing model of lists, and reflection.
 *
 * typeof: a Python list is list(typeof(item 0)) (one look at the first item, so dispatch stays
 * O(1)); an empty list is a TypeError, as Numba refuses to type an empty reflected list. A
 * kiln.typed.List (typed_list.c) is its own list type. Unbox of a Python list copies the items
 * into a new native list (runtime/list.h), checking each item's type on the way (a heterogeneous
 * list is a TypeError naming the index and both types); arrays are borrowed from their Python
 * objects as array arguments are. Unbox of a typed.List shares its meminfo.
 *
 * Reflection (as Numba's reflected lists): every native list made from a Python list remembers
 * it (KnList.pyobj) and is recorded, with a reference, in this thread's `reflected` vector; after
 * the call the dispatcher calls kn_box_reflect_done, which writes each list that compiled code
 * changed (KnList.dirty) back into its Python list, then forgets the Python lists. Boxing a list
 * that still has its Python list gives that same object (a list argument returned is the
 * caller's list); any other list boxes as a new Python list, or as a typed.List when it is one. */
#include "dispatch/box_model.h"
#include "lower/lower.h"
#include "runtime/list.h"
#include "runtime/str.h"

#include <stdatomic.h>

typedef struct Reflected {
    KnMemInfo *mi;
    KnType *t;
    PyObject *set; /* a set argument's Python set (borrowed: alive for the call); NULL: a list */
} Reflected;

static _Thread_local struct {
    Reflected *v;
    int n, cap;
} reflected;

int
kn_box_reflect_mark(void)
{
    return reflected.n;
}

int
kn_box_reflect_record(KnMemInfo *mi, KnType *t, PyObject *set)
{
    if (reflected.n == reflected.cap) {
        int cap = reflected.cap ? 2 * reflected.cap : 16;
        Reflected *v = realloc(reflected.v, sizeof *v * (size_t)cap);
        if (!v) {
            PyErr_NoMemory();
            return -1;
        }
        reflected.v = v;
        reflected.cap = cap;
    }
    kn_rt_incref(mi);
    reflected.v[reflected.n++] = (Reflected){mi, t, set};
    return 0;
}

/* the native list a Python list o is reflected into while a call runs, when o was unboxed as t
 * already (the same list passed twice, or inside another argument): the arguments then alias
 * one list, as in Python, and it is written back once; else NULL */
static KnMemInfo *
reflected_as(PyObject *o, KnType *t)
{
    for (int i = reflected.n - 1; i >= 0; i--) {
        Reflected *r = &reflected.v[i];
        if (!r->set && r->t == t && kn_rt_list_of(r->mi)->pyobj == o)
            return r->mi;
    }
    return NULL;
}

/* A reflected list of strs that something still holds after the call (a kiln.typed container
 * it was stored in: more references than the vector's and the arguments') takes copies of the
 * strs it borrows from the Python objects, which may go before it does. */
static int
has_str(const KnType *t)
{
    if (t->kind == KN_TY_STR)
        return 1;
    for (int i = 0; t->kind == KN_TY_TUPLE && i < t->n; i++)
        if (has_str(t->items[i]))
            return 1;
    return 0;
}

/* the strs of a value of type t at p (a str, or inside tuples) */
static void
own_strs_at(const KnType *t, char *p)
{
    if (t->kind == KN_TY_STR && kn_rt_str_own_in_place((KnStr *)p) < 0)
        PyErr_NoMemory(); /* reported with the call's result (kn_box_reflect_done) */
    for (int i = 0; t->kind == KN_TY_TUPLE && i < t->n; i++)
        own_strs_at(t->items[i], p + kn_type_tuple_offset(t, i));
}

static void
own_escaping_strs(Reflected *r)
{
    KnList *l = kn_rt_list_of(r->mi);
    if (r->set || !has_str(r->t->dtype) || atomic_load(&r->mi->refcount) <= 2)
        return;
    for (int64_t k = 0; k < l->len; k++)
        own_strs_at(r->t->dtype, l->items + k * l->itemsize);
}

/* forget the lists recorded since mark, releasing the vector's references */
static void
forget(int mark)
{
    while (reflected.n > mark) {
        Reflected *r = &reflected.v[--reflected.n];
        own_escaping_strs(r);
        if (!r->set && !kn_rt_list_of(r->mi)->typed)
            kn_rt_list_of(r->mi)->pyobj = NULL;
        kn_rt_decref(r->mi);
    }
}

/* item k of l as a Python object (the list keeps its reference) */
static PyObject *
box_item(KnType *item, KnList *l, int64_t k)
{
    const char *p = l->items + k * l->itemsize;
    kn_rt_list_item_incref(l, p); /* box takes over a reference */
    return kn_box_box(item, p);
}

static PyObject *
items_as_list(KnType *t, KnList *l)
{
    PyObject *r = PyList_New((Py_ssize_t)l->len);
    for (int64_t k = 0; r && k < l->len; k++) {
        PyObject *v = box_item(t->dtype, l, k);
        if (!v) {
            Py_CLEAR(r);
            break;
        }
        PyList_SET_ITEM(r, (Py_ssize_t)k, v);
    }
    return r;
}

void
kn_box_reflect_drop(int mark)
{
    forget(mark);
}

int
kn_box_reflect_done(int mark)
{
    if (reflected.n <= mark)
        return 0;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    int rc = 0, had_error = type != NULL;
    for (int i = mark; i < reflected.n; i++) {
        Reflected *r = &reflected.v[i];
        if (r->set) { /* a set: always written back (its table has no dirty flag) */
            if (kn_box_set_write_back(r->t, r->mi, r->set) < 0) {
                if (had_error || rc < 0) /* one error is reported, the others unraisable */
                    PyErr_WriteUnraisable(r->set);
                else {
                    rc = -1; /* the first failed write-back is the call's error */
                    PyErr_Fetch(&type, &value, &tb);
                }
            }
            continue;
        }
        KnList *l = kn_rt_list_of(r->mi);
        if (!l->dirty || !l->pyobj)
            continue;
        PyObject *items = items_as_list(r->t, l);
        if (!items || PyList_SetSlice(l->pyobj, 0, PY_SSIZE_T_MAX, items) < 0)
            PyErr_WriteUnraisable(l->pyobj);
        Py_XDECREF(items);
        l->dirty = 0;
    }
    forget(mark);
    PyErr_Restore(type, value, tb);
    return rc;
}

/* ---- the model ---- */

static PyTypeObject *
list_pytype(void)
{
    return &PyList_Type;
}

static PyTypeObject *
typed_list_pytype(void)
{
    return &KnTypedList_Type;
}

static KnType *
list_typeof(KnState *s, PyObject *o)
{
    if (Py_TYPE(o) == &KnTypedList_Type) {
        KnType *t = kn_typed_list_type(o);
        if (!t->dtype)
            PyErr_SetString(PyExc_TypeError,
                            "kiln cannot pass an empty kiln.typed.List() whose item type is not "
                            "known yet; use List.empty_list(item_type)");
        return t->dtype ? t : NULL;
    }
    if (PyList_GET_SIZE(o) == 0) {
        PyErr_SetString(PyExc_TypeError,
                        "kiln cannot type an empty list argument: its item type is unknown (as in "
                        "Numba, an empty reflected list cannot be typed); pass "
                        "kiln.typed.List.empty_list(item_type) instead");
        return NULL;
    }
    KnType *item = kn_box_typeof(s, PyList_GET_ITEM(o, 0));
    return item ? kn_type_list(&s->types, item) : NULL;
}

/* the layout of t's items, for kn_rt_list_new */
static int
item_layout(KnType *t, int32_t *off)
{
    int n = kn_lower_list_ref_offsets(t->dtype, off, 0, 0);
    if (n < 0)
        PyErr_Format(PyExc_TypeError, "kiln: lists of %s are not supported", t->dtype->name);
    return n;
}

/* unbox items[0..n) of a Python sequence into a new list of type t: NULL with an error set */
KnMemInfo *
kn_box_list_from_items(KnType *t, PyObject *const *items, Py_ssize_t n)
{
    int32_t off[KN_LIST_MAX_REFS];
    int nrefs = item_layout(t, off);
    if (nrefs < 0)
        return NULL;
    KnType *item = t->dtype;
    size_t size = kn_type_size(item);
    KnMemInfo *mi = kn_rt_list_new((int64_t)size, nrefs, off, n);
    if (!mi) {
        PyErr_NoMemory();
        return NULL;
    }
    KnList *l = kn_rt_list_of(mi);
    int mark = reflected.n;
    Py_ssize_t k = 0;
    if (item == &kn_type_int64) { /* the common cases without a call per item */
        for (; k < n; k++) {
            PyObject *o = items[k];
            if (!PyLong_CheckExact(o))
                break;
            int overflow;
            long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
            if (overflow)
                break;
            ((int64_t *)l->items)[k] = v;
        }
    } else if (item == &kn_type_float64) {
        for (; k < n && PyFloat_CheckExact(items[k]); k++)
            ((double *)l->items)[k] = PyFloat_AS_DOUBLE(items[k]);
    }
    l->len = k;
    for (; k < n; k++) {
        PyObject *o = items[k];
        /* one type check per item: the item's own type must be the list's (as Numba) */
        KnType *it = kn_box_typeof(kn_state, o);
        if (it != item || kn_box_unbox(item, o, l->items + (size_t)k * size) < 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "kiln: list item %zd is %R of type %s, but the list is %s (from item "
                         "0): lists must hold items of one type (heterogeneous lists are not "
                         "supported)",
                         k, o, it ? it->name : Py_TYPE(o)->tp_name, t->name);
            forget(mark);
            kn_rt_decref(mi);
            return NULL;
        }
        l->len = k + 1;
    }
    return mi;
}

static int
list_unbox(KnType *t, PyObject *o, char *dst)
{
    KnMemInfo *mi;
    if (Py_TYPE(o) == &KnTypedList_Type) {
        if (kn_typed_list_type(o) != t) {
            PyErr_Format(PyExc_TypeError, "expected %s, got a typed List of %s", t->name,
                         kn_typed_list_type(o)->name);
            return -1;
        }
        mi = kn_typed_list_mi(o);
        kn_rt_incref(mi);
        memcpy(dst, &mi, sizeof mi);
        return 0;
    }
    if (!PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected %s, got %R", t->name, o);
        return -1;
    }
    if ((mi = reflected_as(o, t))) { /* the same list again (f(l, l)): one native list */
        kn_rt_incref(mi);
        memcpy(dst, &mi, sizeof mi);
        return 0;
    }
    mi = kn_box_list_from_items(t, PySequence_Fast_ITEMS(o), PyList_GET_SIZE(o));
    if (!mi)
        return -1;
    kn_rt_list_of(mi)->pyobj = o;
    if (kn_box_reflect_record(mi, t, NULL) < 0) {
        kn_rt_decref(mi);
        return -1;
    }
    memcpy(dst, &mi, sizeof mi);
    return 0;
}

/* takes over the reference at src */
static PyObject *
list_box(KnType *t, const char *src)
{
    KnMemInfo *mi;
    memcpy(&mi, src, sizeof mi);
    KnList *l = kn_rt_list_of(mi);
    PyObject *r;
    if (l->pyobj) /* a reflected argument (or an item of one) still in its call, or the
                   * kiln.typed.List that holds this list */
        r = Py_NewRef((PyObject *)l->pyobj);
    else if (l->typed)
        return kn_typed_list_wrap(mi, t);
    else
        r = t->dtype ? items_as_list(t, l) : PyList_New(0);
    kn_rt_decref(mi);
    return r;
}

static PyObject *
list_key(KnType *t)
{
    return Py_BuildValue("(sN)", "list",
                         t->dtype ? kn_box_key(t->dtype) : PyUnicode_FromString("undefined"));
}

static KnType *
list_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 2) {
        PyErr_Format(PyExc_TypeError, "kiln: bad list type key %R", key);
        return NULL;
    }
    PyObject *ik = PyTuple_GET_ITEM(key, 1);
    if (PyUnicode_Check(ik) && !strcmp(PyUnicode_AsUTF8(ik), "undefined"))
        return kn_type_list(&s->types, NULL);
    KnType *item = kn_box_from_key(s, ik);
    return item ? kn_type_list(&s->types, item) : NULL;
}

const KnBoxModel kn_box_model_list = {.pytype = list_pytype,
                                      .typeof = list_typeof,
                                      .unbox = list_unbox,
                                      .box = list_box,
                                      .key = list_key,
                                      .tag = "list",
                                      .from_key = list_from_key,
                                      .pytype2 = typed_list_pytype,
                                      .release = kn_box_release_meminfo};
