/* fstring.c - f-strings and 'literal'.format(...) as calls the registry knows: each
 * replacement field becomes format(value, spec) (with str() or repr() first for !s and !r),
 * the literal text constants, and the pieces are concatenated once by "str._kn_concat"
 * (lower/str_methods.c: one allocation for the result). A format spec that is itself an
 * f-string (f'{x:{w}}') is built the same way and parsed at run time. str.format is rewritten
 * only when its receiver is a literal (the fields are parsed now, with CPython's own parser,
 * _string.formatter_parser); a field's attribute and index accesses ({0.real}, {a[0]}) become
 * GETATTR and GETITEM instructions on its argument, and !a is ascii(). */
#include "frontend/internal.h"

/* a call of the builtin `name` on args[0..n) at node */
static Val
builtin_call(FE *fe, PyObject *node, const char *name, Val *args, int n)
{
    PyObject *b = PyEval_GetBuiltins(); /* borrowed */
    PyObject *fn = b ? PyDict_GetItemString(b, name) : NULL;
    Val callee = fn ? kn_fe_frozen(fe, node, fn, name) : NULL;
    if (!callee)
        return NULL;
    KnInstr **all = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
    all[0] = callee;
    for (int i = 0; i < n; i++)
        all[i + 1] = args[i];
    Val in = emit(fe, KN_OP_CALL, node, n + 1, all);
    in->aux = 0;
    in->imm.ptr = kn_arena_alloc(&fe->c->arena, sizeof(char *));
    return in;
}

static Val
str_const(FE *fe, PyObject *node, PyObject *s)
{
    return kn_fe_frozen(fe, node, s, "a string in an f-string");
}

/* the pieces joined: one piece is itself, none is '' */
static Val
concat(FE *fe, PyObject *node, Val *parts, int n)
{
    if (n == 1) /* a constant or a format() call: a str already */
        return parts[0];
    PyObject *empty = PyUnicode_FromString("");
    Val self = empty ? str_const(fe, node, empty) : NULL;
    Py_XDECREF(empty);
    if (!self)
        return NULL;
    Val attr = kn_kir_emit1(&fe->b, KN_OP_GETATTR, span_of(fe, node), self);
    attr->imm.str = "_kn_concat";
    KnInstr **all = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
    all[0] = attr;
    for (int i = 0; i < n; i++)
        all[i + 1] = parts[i];
    Val in = emit(fe, KN_OP_CALL, node, n + 1, all);
    in->aux = 0;
    in->imm.ptr = kn_arena_alloc(&fe->c->arena, sizeof(char *));
    return in;
}

/* format(v, spec) after the conversion ('s', 'r' or -1/0 for none); spec may be NULL */
static Val
field(FE *fe, PyObject *node, Val v, int conversion, Val spec)
{
    if (conversion == 's' || conversion == 'r' || conversion == 'a') {
        v = builtin_call(fe, node,
                         conversion == 's'   ? "str"
                         : conversion == 'r' ? "repr"
                                             : "ascii",
                         &v, 1);
        if (!v)
            return NULL;
    }
    Val args[2] = {v, spec};
    return builtin_call(fe, node, "format", args, spec ? 2 : 1);
}

Val
kn_fe_fstring(FE *fe, PyObject *node)
{
    PyObject *values = A(node, "values");
    Py_ssize_t n = values ? PyList_GET_SIZE(values) : 0;
    Val *parts = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)(n + 1));
    int k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyList_GET_ITEM(values, i);
        if (is(p, "Constant")) {
            PyObject *s = A(p, "value");
            if (!(parts[k++] = str_const(fe, p, s)))
                return NULL;
            continue;
        }
        int conv = kn_fe_exc_fvalue(fe, A(p, "value"), Aint(p, "conversion"),
                                    A(p, "format_spec") != NULL); /* e of an except: try.c */
        Val v = kn_fe_expr(fe, A(p, "value"));
        if (!v)
            return NULL;
        PyObject *spec_node = A(p, "format_spec");
        Val spec = NULL;
        if (spec_node && !(spec = kn_fe_fstring(fe, spec_node)))
            return NULL;
        if (!(parts[k++] = field(fe, p, v, conv, spec)))
            return NULL;
    }
    if (k == 0) {
        PyObject *empty = PyUnicode_FromString("");
        Val r = empty ? str_const(fe, node, empty) : NULL;
        Py_XDECREF(empty);
        return r;
    }
    return concat(fe, node, parts, k);
}

/* the attribute and index accesses of a field name ({0[1].real}: [1], then .real) applied to v,
 * as the instructions v[1] and .real; keys are ints or strs, as CPython's parser gives them */
static Val
field_path(FE *fe, PyObject *node, Val v, PyObject *name)
{
    PyObject *mod = PyImport_ImportModule("_string");
    PyObject *split =
        mod ? PyObject_CallMethod(mod, "formatter_field_name_split", "O", name) : NULL;
    Py_XDECREF(mod);
    PyObject *rest = split ? PySequence_List(PyTuple_GET_ITEM(split, 1)) : NULL;
    Py_XDECREF(split);
    if (!rest) {
        PyErr_Clear();
        return TYPING(fe, node, "str.format: bad field name '%s'", PyUnicode_AsUTF8(name));
    }
    KnSpan sp = span_of(fe, node);
    for (Py_ssize_t i = 0; v && i < PyList_GET_SIZE(rest); i++) {
        PyObject *step = PyList_GET_ITEM(rest, i);
        PyObject *key = PyTuple_GET_ITEM(step, 1);
        if (PyObject_IsTrue(PyTuple_GET_ITEM(step, 0))) {
            Val a = kn_kir_emit1(&fe->b, KN_OP_GETATTR, sp, v);
            a->imm.str = kn_fe_str_of(fe, key);
            v = a;
            continue;
        }
        Val k = PyLong_Check(key) ? kn_fe_const_int(fe, sp, PyLong_AsLongLong(key), &kn_type_int64)
                                  : str_const(fe, node, key);
        v = k ? kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, v, k) : NULL;
    }
    Py_DECREF(rest);
    return v;
}

/* 'literal'.format(args, name=value): NULL with no diagnostic when node is not such a call */
Val
kn_fe_str_format(FE *fe, PyObject *node, int *handled)
{
    *handled = 0;
    PyObject *fnode = A(node, "func");
    if (!is(fnode, "Attribute") || !is(A(fnode, "value"), "Constant"))
        return NULL;
    PyObject *fmt = A(A(fnode, "value"), "value"), *attr = A(fnode, "attr");
    if (!fmt || !PyUnicode_Check(fmt) || PyUnicode_CompareWithASCIIString(attr, "format"))
        return NULL;
    *handled = 1;
    PyObject *pargs = A(node, "args"), *kws = A(node, "keywords");
    Py_ssize_t npos = PyList_GET_SIZE(pargs), nkw = kws ? PyList_GET_SIZE(kws) : 0;
    Val *pos = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)(npos + 1));
    Val *kwv = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)(nkw + 1));
    for (Py_ssize_t i = 0; i < npos; i++) {
        PyObject *a = PyList_GET_ITEM(pargs, i);
        if (is(a, "Starred"))
            return UNSUPPORTED(fe, a, "*args in str.format is not supported");
        if (!(pos[i] = kn_fe_expr(fe, a)))
            return NULL;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *kw = PyList_GET_ITEM(kws, i);
        if (!A(kw, "arg"))
            return UNSUPPORTED(fe, kw, "**kwargs in str.format is not supported");
        if (!(kwv[i] = kn_fe_expr(fe, A(kw, "value"))))
            return NULL;
    }
    PyObject *mod = PyImport_ImportModule("_string");
    PyObject *it = mod ? PyObject_CallMethod(mod, "formatter_parser", "O", fmt) : NULL;
    PyObject *items = it ? PySequence_List(it) : NULL;
    Py_XDECREF(it);
    Py_XDECREF(mod);
    if (!items) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyObject *s = v ? PyObject_Str(v) : NULL;
        Val r = TYPING(fe, node, "str.format: %s", s ? PyUnicode_AsUTF8(s) : "bad format string");
        Py_XDECREF(s);
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
        PyErr_Clear();
        return r;
    }
    Py_ssize_t n = PyList_GET_SIZE(items);
    Val *parts = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)(2 * n + 1));
    int k = 0, auto_next = 0, manual = 0;
    Val result = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyList_GET_ITEM(items, i);
        PyObject *lit = PyTuple_GET_ITEM(t, 0), *name = PyTuple_GET_ITEM(t, 1);
        PyObject *spec = PyTuple_GET_ITEM(t, 2), *conv = PyTuple_GET_ITEM(t, 3);
        if (PyUnicode_GET_LENGTH(lit) && !(parts[k++] = str_const(fe, node, lit)))
            goto done;
        if (name == Py_None)
            continue;
        const char *full = PyUnicode_AsUTF8(name);
        /* the argument's name or number first; then its accesses (field_path) */
        const char *nm = kn_arena_strndup(&fe->c->arena, full, strcspn(full, ".["));
        Val v = NULL;
        if (!nm[0]) {
            if (manual) {
                TYPING(fe, node,
                       "cannot switch from manual field specification to automatic "
                       "field numbering");
                goto done;
            }
            if (auto_next >= npos) {
                TYPING(fe, node, "Replacement index %d out of range for positional args tuple",
                       auto_next);
                goto done;
            }
            v = pos[auto_next++];
        } else if (nm[0] >= '0' && nm[0] <= '9' && strspn(nm, "0123456789") == strlen(nm)) {
            long idx = atol(nm);
            manual = 1;
            if (auto_next) {
                TYPING(fe, node,
                       "cannot switch from automatic field numbering to manual field "
                       "specification");
                goto done;
            }
            if (idx >= npos) {
                TYPING(fe, node, "Replacement index %ld out of range for positional args tuple",
                       idx);
                goto done;
            }
            v = pos[idx];
        } else {
            for (Py_ssize_t j = 0; j < nkw && !v; j++)
                if (!PyUnicode_CompareWithASCIIString(A(PyList_GET_ITEM(kws, j), "arg"), nm))
                    v = kwv[j];
            if (!v) {
                TYPING(fe, node, "str.format: no argument for the field '%s' (KeyError)", nm);
                goto done;
            }
        }
        if (strpbrk(full, ".[") && !(v = field_path(fe, node, v, name)))
            goto done;
        if (spec != Py_None &&
            PyUnicode_FindChar(spec, '{', 0, PyUnicode_GET_LENGTH(spec), 1) >= 0) {
            UNSUPPORTED(fe, node, "str.format: nested fields in a format spec are not supported");
            goto done;
        }
        Val sv = NULL;
        if (spec != Py_None && PyUnicode_GET_LENGTH(spec) && !(sv = str_const(fe, node, spec)))
            goto done;
        int c = conv == Py_None ? 0 : (int)PyUnicode_READ_CHAR(conv, 0);
        if (!(parts[k++] = field(fe, node, v, c, sv)))
            goto done;
    }
    if (k == 0) {
        PyObject *empty = PyUnicode_FromString("");
        result = empty ? str_const(fe, node, empty) : NULL;
        Py_XDECREF(empty);
    } else
        result = concat(fe, node, parts, k);
done:
    Py_DECREF(items);
    return result;
}
