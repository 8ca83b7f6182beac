/* namedtuple.c - namedtuple classes (collections.namedtuple, typing.NamedTuple) in compiled code.
 * A global or closure class whose instances are tuples with `_fields` is frozen as a CLASS of id
 * KN_CLASS_NAMEDTUPLE (kn_fe_is_namedtuple_class, names.c); a call of it is bound here, as
 * Python binds it: positional arguments, then keywords by field name, then the class's
 * `_field_defaults` (frozen as constants), into a TUPLE of the items in field order carrying a
 * KnNamedTuple, which typing turns into the namedtuple type (types/model_namedtuple.c).
 * Missing, repeated or unknown fields are errors at the call, with CPython's words. */
#include "frontend/internal.h"

int
kn_fe_is_namedtuple_class(PyObject *o)
{
    if (!PyType_Check(o) || !PyType_IsSubtype((PyTypeObject *)o, &PyTuple_Type))
        return 0;
    PyObject *f = PyObject_GetAttrString(o, "_fields");
    int ok = f && PyTuple_Check(f);
    for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(f); i++)
        ok = PyUnicode_Check(PyTuple_GET_ITEM(f, i));
    Py_XDECREF(f);
    PyErr_Clear();
    return ok;
}

/* the class's info (names copied into the arena) */
static KnNamedTuple *
info_of(FE *fe, PyObject *cls)
{
    PyObject *f = PyObject_GetAttrString(cls, "_fields");
    if (!f)
        return NULL;
    KnNamedTuple *nt = kn_arena_alloc(&fe->c->arena, sizeof(KnNamedTuple));
    nt->cls = cls;
    nt->name = kn_arena_strdup(&fe->c->arena, ((PyTypeObject *)cls)->tp_name);
    nt->n = (int)PyTuple_GET_SIZE(f);
    nt->fields = kn_arena_alloc(&fe->c->arena, sizeof(char *) * (size_t)(nt->n ? nt->n : 1));
    for (int i = 0; i < nt->n; i++)
        nt->fields[i] = kn_fe_str_of(fe, PyTuple_GET_ITEM(f, i));
    Py_DECREF(f);
    return nt;
}

static int
field_of(const KnNamedTuple *nt, const char *name)
{
    for (int i = 0; i < nt->n; i++)
        if (!strcmp(nt->fields[i], name))
            return i;
    return -1;
}

/* the default of field k, frozen, or NULL (no default, no diagnostic) */
static Val
default_of(FE *fe, PyObject *node, PyObject *cls, const KnNamedTuple *nt, int k)
{
    PyObject *d = PyObject_GetAttrString(cls, "_field_defaults");
    PyObject *v = d && PyDict_Check(d) ? PyDict_GetItemString(d, nt->fields[k]) : NULL;
    Val r = NULL;
    if (v) {
        char what[300];
        snprintf(what, sizeof what, "the default of %s.%s", nt->name, nt->fields[k]);
        r = kn_fe_frozen(fe, node, v, what);
    }
    Py_XDECREF(d);
    PyErr_Clear();
    return r;
}

Val
kn_fe_namedtuple_new(FE *fe, PyObject *node, Val callee)
{
    PyObject *cls = callee->imm.ptr;
    KnNamedTuple *nt = info_of(fe, cls);
    if (!nt) {
        PyErr_Clear();
        return TYPING(fe, node, "cannot read the fields of %s", callee->type->name);
    }
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(nt->n + 1));
    PyObject *pargs = A(node, "args"), *kws = A(node, "keywords");
    Py_ssize_t npos = pargs ? PyList_GET_SIZE(pargs) : 0, nkw = kws ? PyList_GET_SIZE(kws) : 0;
    if (npos > nt->n)
        return TYPING(fe, node, "%s() takes %d positional arguments but %d were given", nt->name,
                      nt->n, (int)npos);
    for (Py_ssize_t i = 0; i < npos; i++) {
        PyObject *a = PyList_GET_ITEM(pargs, i);
        if (is(a, "Starred"))
            return UNSUPPORTED(fe, a, "*args in calls is not supported");
        if (!(items[i] = kn_fe_expr(fe, a)))
            return NULL;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kw = PyList_GET_ITEM(kws, k);
        if (!A(kw, "arg"))
            return UNSUPPORTED(fe, kw, "**kwargs in calls is not supported");
        const char *name = kn_fe_str_of(fe, A(kw, "arg"));
        int f = field_of(nt, name);
        if (f < 0)
            return TYPING(fe, kw, "%s() got an unexpected keyword argument '%s'", nt->name, name);
        if (items[f])
            return TYPING(fe, kw, "%s() got multiple values for argument '%s'", nt->name, name);
        if (!(items[f] = kn_fe_expr(fe, A(kw, "value"))))
            return NULL;
    }
    for (int f = 0; f < nt->n; f++)
        if (!items[f] && !(items[f] = default_of(fe, node, cls, nt, f))) {
            if (fe->c->diags.items.len)
                return NULL;
            return TYPING(fe, node, "%s() missing required argument: '%s'", nt->name,
                          nt->fields[f]);
        }
    Val in = emit(fe, KN_OP_TUPLE, node, nt->n, items);
    in->imm.ptr = nt;
    return in;
}
