/* enum.c - enum.Enum and enum.IntEnum in compiled code. An enum class named by the function is
 * frozen as a CLASS of id KN_CLASS_ENUM (names.c); `Color.RED` on it is resolved now, as
 * module attributes are, and a member (named directly, or so) becomes a CONST of the class's
 * ENUM type whose imm.i is the member's value (types/model_enum.c). The type lists the
 * class's members (names and values, for `.name`); only classes whose values are all ints
 * (int64) are supported, others are an error naming the class. The classes the type table has
 * seen are kept alive in `seen`, so a type's class pointer never dangles. */
#include "frontend/internal.h"

static PyObject *enum_base; /* enum.Enum */
static PyObject *seen;      /* dict: a class made into a type -> the type (an int address) */

static PyObject *
enum_class(void)
{
    if (!enum_base) {
        PyObject *m = PyImport_ImportModule("enum");
        enum_base = m ? PyObject_GetAttrString(m, "Enum") : NULL;
        Py_XDECREF(m);
    }
    return enum_base;
}

int
kn_fe_is_enum_class(PyObject *o)
{
    PyObject *e = enum_class();
    int r = e && PyType_Check(o) && PyType_IsSubtype((PyTypeObject *)o, (PyTypeObject *)e);
    PyErr_Clear();
    return r;
}

/* the type of cls's members, or (KnType *)-1 with an error set */
static KnType *
type_of_class(KnTypeTable *tt, PyObject *cls)
{
    PyObject *hit = seen ? PyDict_GetItemWithError(seen, cls) : NULL;
    if (hit)
        return PyLong_AsVoidPtr(hit);
    PyErr_Clear();
    PyObject *it = PyObject_GetIter(cls);
    if (!it)
        return (KnType *)-1;
    const char *names[256];
    int64_t values[256];
    PyObject *keep = PyList_New(0); /* the names' objects while the type is made */
    int n = 0, bad = !keep;
    for (PyObject *m; !bad && (m = PyIter_Next(it));) {
        PyObject *name = PyObject_GetAttrString(m, "name");
        PyObject *value = PyObject_GetAttrString(m, "value");
        Py_DECREF(m);
        if (!name || !value || !PyUnicode_Check(name) || !PyLong_Check(value) || n == 256) {
            bad = 1;
        } else {
            names[n] = PyUnicode_AsUTF8(name);
            values[n] = PyLong_AsLongLong(value);
            bad = !names[n] || PyErr_Occurred() || PyList_Append(keep, name) < 0;
            n++;
        }
        Py_XDECREF(name);
        Py_XDECREF(value);
    }
    Py_DECREF(it);
    if (bad || PyErr_Occurred()) {
        PyErr_Clear();
        Py_XDECREF(keep);
        PyErr_Format(PyExc_TypeError,
                     "kiln supports enum classes whose values are ints (int64), not %s",
                     ((PyTypeObject *)cls)->tp_name);
        return (KnType *)-1;
    }
    int is_int = PyType_IsSubtype((PyTypeObject *)cls, &PyLong_Type);
    KnType *t = kn_type_enum(tt, cls, ((PyTypeObject *)cls)->tp_name, is_int, n, names, values);
    Py_DECREF(keep);
    PyObject *addr = PyLong_FromVoidPtr(t);
    if (!seen)
        seen = PyDict_New();
    if (!seen || !addr || PyDict_SetItem(seen, cls, addr) < 0)
        PyErr_Clear();
    Py_XDECREF(addr);
    return t;
}

KnType *
kn_fe_enum_member_type(KnTypeTable *t, PyObject *o)
{
    if (!kn_fe_is_enum_class((PyObject *)Py_TYPE(o)))
        return NULL;
    return type_of_class(t, (PyObject *)Py_TYPE(o));
}

KnType *
kn_fe_enum_class_type(KnTypeTable *t, PyObject *cls)
{
    if (!kn_fe_is_enum_class(cls)) {
        PyErr_Format(PyExc_TypeError, "kiln: %R is not an enum class", cls);
        return (KnType *)-1;
    }
    return type_of_class(t, cls);
}

Val
kn_fe_frozen_enum(FE *fe, PyObject *node, PyObject *o, const char *what)
{
    KnType *t = kn_fe_enum_member_type(fe->c->types, o);
    if (!t)
        return NULL;
    if (t == (KnType *)-1) {
        PyErr_Clear();
        return TYPING(fe, node,
                      "cannot use %s: kiln supports enum classes whose values are ints (int64), "
                      "not %s",
                      what, Py_TYPE(o)->tp_name);
    }
    PyObject *value = PyObject_GetAttrString(o, "value");
    Val in = kn_kir_emit(&fe->b, KN_OP_CONST, span_of(fe, node), 0, NULL);
    in->type = t;
    in->imm.i = value ? PyLong_AsLongLong(value) : 0;
    Py_XDECREF(value);
    PyErr_Clear();
    return in;
}

/* Color(v): the member whose value equals v, else ValueError("v is not a valid Color"), as
 * CPython (its message is the value's repr: right for ints and bools, the arguments typed). A
 * chain of tests against the members' values, each storing its member in a temporary. */
Val
kn_fe_enum_call(FE *fe, PyObject *node, Val callee)
{
    PyObject *cls = (PyObject *)callee->imm.ptr, *args = A(node, "args"),
             *kws = A(node, "keywords");
    if (PyList_GET_SIZE(args) != 1 || (kws && PyList_GET_SIZE(kws)))
        return UNSUPPORTED(fe, node, "calling an enum class takes one argument, a member's value");
    KnType *t = kn_fe_enum_class_type(fe->c->types, cls);
    if (t == (KnType *)-1) {
        PyErr_Clear();
        return TYPING(fe, node, "kiln supports enum classes whose values are ints (int64), not %s",
                      ((PyTypeObject *)cls)->tp_name);
    }
    KnSpan sp = span_of(fe, node);
    Val v = kn_fe_expr(fe, PyList_GET_ITEM(args, 0));
    int var = v ? kn_fe_temp_var(fe, "enum", sp) : -1;
    if (var < 0)
        return NULL;
    KnBlock *done = kn_kir_block_new(&fe->b);
    for (int i = 0; i < t->nvalues; i++) {
        Val eq = kn_kir_emit2(&fe->b, KN_OP_CMP, sp, v,
                              kn_fe_const_int(fe, sp, t->values[i], &kn_type_int64));
        eq->aux = KN_CMP_EQ;
        KnBlock *hit = kn_kir_block_new(&fe->b), *next = kn_kir_block_new(&fe->b);
        kn_kir_cbr(&fe->b, sp, kn_kir_emit1(&fe->b, KN_OP_TRUTH, sp, eq), hit, next);
        kn_kir_set_block(&fe->b, hit);
        Val m = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        m->type = t;
        m->imm.i = t->values[i];
        kn_fe_store(fe, sp, var, m);
        kn_kir_br(&fe->b, sp, done);
        kn_kir_set_block(&fe->b, next);
    }
    PyObject *qn = PyObject_GetAttrString(cls, "__qualname__");
    PyObject *tail = qn ? PyUnicode_FromFormat(" is not a valid %S", qn) : NULL;
    Py_XDECREF(qn);
    Val str = kn_fe_frozen(fe, node, (PyObject *)&PyUnicode_Type, "str");
    Val s = tail ? kn_fe_frozen(fe, node, tail, "str") : NULL;
    Py_XDECREF(tail);
    if (!str || !s)
        return NULL;
    KnInstr *cargs[2] = {str, v};
    Val text = kn_kir_emit(&fe->b, KN_OP_CALL, sp, 2, cargs);
    Val msg = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, text, s);
    msg->aux = KN_BIN_ADD;
    if (kn_fe_raise_text(fe, node, PyExc_ValueError, msg) < 0) /* try.c */
        return NULL;
    kn_kir_set_block(&fe->b, done);
    return kn_fe_load(fe, sp, var);
}
