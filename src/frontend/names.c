/* names.c - variables, name resolution and the freezing of non-local values.
 *
 * Names are resolved as Python does: a name assigned anywhere in the function
 * (collect_locals, before the body is walked) is a local variable, a KIR variable found through
 * a hash map; other names are closure cells, then globals, then builtins, and those are frozen
 * at compile time: numbers and tuples become constants, jitted functions, builtins, modules
 * and exception classes become GLOBAL values whose objects are kept alive in env->keepalive.
 * Input: ast Name nodes and Python objects; output: LOAD/STORE/CONST/GLOBAL/TUPLE
 * instructions. Invariant: a value the frontend cannot type is a diagnostic at the node that
 * named it. */
#include "frontend/internal.h"

/* Variables by name through a hash map: a linear search per name made a function of many
 * variables compile in quadratic time (16,000 assignments: 3 s in the frontend). */
static uint64_t
name_hash(const char *name)
{
    return kn_hash_bytes(name, strlen(name), 0);
}

int
kn_fe_add_var(FE *fe, const char *name, KnSpan sp)
{
    int v = kn_kir_var_add(&fe->b, name, sp);
    if (!kn_map_get(&fe->var_names, name_hash(name)))
        kn_map_put(&fe->var_names, name_hash(name), (void *)(intptr_t)(v + 1));
    return v;
}

static int
find_var(FE *fe, const char *name)
{
    if (fe->alias_name && !strcmp(name, fe->alias_name))
        return fe->alias_var; /* the target of an unrolled loop's copy (unroll.c) */
    void *hit = kn_map_get(&fe->var_names, name_hash(name));
    if (!hit)
        return -1;
    int v = (int)(intptr_t)hit - 1;
    if (!strcmp(fe->b.fn->vars.items[v].name, name))
        return v;
    return kn_kir_var_find(fe->b.fn, name); /* two names of one hash */
}

int
kn_fe_temp_var(FE *fe, const char *what, KnSpan sp)
{
    char name[64];
    snprintf(name, sizeof name, "$%s%d", what, fe->ntemps++);
    return kn_fe_add_var(fe, name, sp);
}

int
kn_fe_local_var(FE *fe, const char *name, KnSpan sp)
{
    int v = find_var(fe, name);
    return v >= 0 ? v : kn_fe_add_var(fe, name, sp);
}

Val
kn_fe_load(FE *fe, KnSpan sp, int var)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_LOAD, sp, 0, NULL);
    in->aux = var;
    return in;
}

void
kn_fe_store(FE *fe, KnSpan sp, int var, Val v)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_STORE, sp, 1, &v);
    in->aux = var;
}

/* ---- constants: Python objects frozen at compile time ---- */

static void
keep(FE *fe, PyObject *o)
{
    if (PyList_Append(fe->env->keepalive, o) < 0)
        PyErr_Clear();
}

static Val
global_value(FE *fe, KnSpan sp, KnType *t, PyObject *o)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_GLOBAL, sp, 0, NULL);
    in->type = t;
    in->imm.ptr = o;
    keep(fe, o);
    return in;
}

/* The kiln type of a NumPy scalar type or dtype named `name` ("float64", "bool", ...); NULL
 * for any other name. Shared by NumPy scalars here and frozen arrays' dtypes (frozen.c). */
KnType *
kn_fe_numpy_type_by_name(const char *name)
{
    static const struct {
        const char *name;
        KnType *t;
    } map[] = {
        {"float64", &kn_type_float64},
        {"float32", &kn_type_float32},
        {"int64", &kn_type_int64},
        {"int32", &kn_type_int32},
        {"int16", &kn_type_int16},
        {"int8", &kn_type_int8},
        {"uint64", &kn_type_uint64},
        {"uint32", &kn_type_uint32},
        {"uint16", &kn_type_uint16},
        {"uint8", &kn_type_uint8},
        {"complex128", &kn_type_complex128},
        {"complex64", &kn_type_complex64},
        {"bool", &kn_type_bool},
        {"bool_", &kn_type_bool},
        {"float16", &kn_type_float16},
    };
    for (int i = 0; i < KN_ARRAY_LEN(map); i++)
        if (!strcmp(name, map[i].name))
            return map[i].t;
    return NULL;
}

static KnType *
numpy_scalar_type(PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    const char *mod_end = strrchr(tp->tp_name, '.');
    if (!mod_end || strncmp(tp->tp_name, "numpy.", 6))
        return NULL;
    return kn_fe_numpy_type_by_name(mod_end + 1);
}

static Val
frozen_number(FE *fe, KnSpan sp, PyObject *node, PyObject *o)
{
    if (PyBool_Check(o))
        return kn_fe_const_int(fe, sp, o == Py_True, &kn_type_bool);
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow)
            return kn_fe_const_int(fe, sp, v, &kn_type_int64);
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return TYPING(fe, node, "integer %s is too large for a 64-bit integer", "constant");
        }
        return kn_fe_const_int(fe, sp, (int64_t)u, &kn_type_uint64);
    }
    if (PyFloat_Check(o)) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_float64;
        in->imm.f = PyFloat_AS_DOUBLE(o);
        return in;
    }
    if (PyComplex_Check(o)) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_complex128;
        in->imm.c.re = PyComplex_RealAsDouble(o);
        in->imm.c.im = PyComplex_ImagAsDouble(o);
        return in;
    }
    KnType *t = numpy_scalar_type(o);
    if (!t)
        return NULL;
    /* A NumPy scalar: convert through Python's number protocol, keep the dtype. */
    Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
    in->type = t;
    if (t->kind == KN_TY_FLOAT) {
        in->imm.f = PyFloat_AsDouble(o);
    } else if (t->kind == KN_TY_COMPLEX) {
        Py_complex z = PyComplex_AsCComplex(o);
        in->imm.c.re = z.real;
        in->imm.c.im = z.imag;
    } else if (t->kind == KN_TY_BOOL) {
        in->imm.i = PyObject_IsTrue(o);
    } else {
        PyObject *l = PyNumber_Long(o);
        in->imm.i =
            t->is_signed ? (int64_t)PyLong_AsLongLong(l) : (int64_t)PyLong_AsUnsignedLongLong(l);
        Py_XDECREF(l);
    }
    if (PyErr_Occurred())
        PyErr_Clear();
    return in;
}

static Val
frozen_tuple(FE *fe, PyObject *node, PyObject *o, const char *what)
{
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(items[i] = kn_fe_frozen(fe, node, PyTuple_GET_ITEM(o, i), what)))
            return NULL;
    return emit(fe, KN_OP_TUPLE, node, (int)n, items);
}

/* A callable `o` frozen as a FUNC type of `id` whose ref is `ref`, named by ref's `attr`. */
static Val
named_callable(FE *fe, KnSpan sp, PyObject *o, int id, PyObject *ref, const char *attr)
{
    PyObject *name = PyObject_GetAttrString(ref, attr);
    const char *nm = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    KnType *t = kn_type_func(fe->c->types, id, ref, nm ? nm : "?");
    Py_XDECREF(name);
    PyErr_Clear();
    return global_value(fe, sp, t, o);
}

static Val
frozen_callable(FE *fe, KnSpan sp, PyObject *o)
{
    if (!strncmp(Py_TYPE(o)->tp_name, "numpy.dtypes.", 13)) {
        /* a NumPy dtype of a number (np.dtype('f8')) is its scalar class, np.float64 */
        PyObject *cls = PyObject_GetAttrString(o, "type");
        PyObject *cid = cls ? PyDict_GetItemWithError(fe->env->builtin_ids, cls) : NULL;
        Py_XDECREF(cls); /* the class lives as long as NumPy */
        PyErr_Clear();
        if (cid)
            o = cls;
    }
    PyObject *id = PyDict_GetItemWithError(fe->env->builtin_ids, o);
    if (!id && PyErr_Occurred())
        PyErr_Clear(); /* unhashable */
    if (!id && !PyErr_Occurred() && fe->env->refresh_builtins && fe->env->refresh_builtins() > 0) {
        id = PyDict_GetItemWithError(fe->env->builtin_ids, o);
        PyErr_Clear();
    }
    if (id) {
        int bid = (int)PyLong_AsLong(id);
        return global_value(fe, sp, kn_type_func(fe->c->types, bid, NULL, kn_kir_builtin_name(bid)),
                            o);
    }
    PyObject *ov = fe->env->overloads ? PyDict_GetItemWithError(fe->env->overloads, o) : NULL;
    if (!ov && PyErr_Occurred())
        PyErr_Clear(); /* unhashable */
    if (ov) /* implemented in Python: kiln/lib, kiln.extending.overload, register_jitable */
        return named_callable(fe, sp, o, KN_FUNC_OVERLOAD, ov, "name");
    if ((PyObject *)Py_TYPE(o) == fe->env->dispatcher_type)
        return named_callable(fe, sp, o, KN_FUNC_JITTED, o, "__name__");
    if (PyModule_Check(o)) {
        const char *nm = PyModule_GetName(o);
        if (!nm) {
            PyErr_Clear();
            return NULL;
        }
        return global_value(fe, sp, kn_type_module(fe->c->types, 0, nm), o);
    }
    if (PyType_Check(o) && PyType_IsSubtype((PyTypeObject *)o, (PyTypeObject *)PyExc_BaseException))
        return global_value(fe, sp, kn_type_class(fe->c->types, 1, o, ((PyTypeObject *)o)->tp_name),
                            o);
    if (kn_fe_is_record_dtype(o)) { /* a structured dtype: record.c */
        KnType *rec = kn_fe_record_type(fe->c->types, o);
        if (!rec) {
            PyErr_Clear();
            return NULL;
        }
        KnType *cls = kn_type_class(fe->c->types, KN_CLASS_DTYPE, o, rec->name);
        cls->dtype = rec;
        return global_value(fe, sp, cls, o);
    }
    if (kn_fe_is_enum_class(o)) /* enum.c: Color.RED is resolved by attribute() */
        return global_value(
            fe, sp, kn_type_class(fe->c->types, KN_CLASS_ENUM, o, ((PyTypeObject *)o)->tp_name), o);
    if (kn_fe_is_namedtuple_class(o)) /* namedtuple.c */
        return global_value(
            fe, sp,
            kn_type_class(fe->c->types, KN_CLASS_NAMEDTUPLE, o, ((PyTypeObject *)o)->tp_name), o);
    if (o == (PyObject *)Py_TYPE(Py_None))
        return global_value(fe, sp, kn_type_class(fe->c->types, 2, o, "NoneType"), o);
    return NULL;
}

/* A Python object used by compiled code: freeze it as a constant or a compile-time value. */
Val
kn_fe_frozen(FE *fe, PyObject *node, PyObject *o, const char *what)
{
    KnSpan sp = span_of(fe, node);
    if (o == Py_None) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_none;
        return in;
    }
    if (PyUnicode_Check(o)) {
        /* the literal travels as UTF-8 text (imm.str): no NUL, no lone surrogate */
        Py_ssize_t nul = PyUnicode_FindChar(o, 0, 0, PyUnicode_GET_LENGTH(o), 1);
        if (nul != -1 || !PyUnicode_AsUTF8(o)) {
            PyErr_Clear();
            return UNSUPPORTED(fe, node,
                               "%s: a str holding a NUL character or a lone surrogate is not "
                               "supported as a constant yet",
                               what);
        }
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_str;
        in->imm.str = kn_fe_str_of(fe, o);
        return in;
    }
    if (PyTuple_Check(o))
        return frozen_tuple(fe, node, o, what);
    Val v = kn_fe_frozen_array(fe, node, o, what); /* frozen.c */
    if (v || fe->c->diags.items.len)
        return v;
    if ((v = kn_fe_frozen_enum(fe, node, o, what)) || fe->c->diags.items.len) /* enum.c */
        return v;
    if ((v = kn_fe_frozen_datetime(fe, node, o)) || fe->c->diags.items.len) /* datetime.c */
        return v;
    v = frozen_number(fe, sp, node, o);
    if (v || fe->c->diags.items.len)
        return v;
    if ((v = frozen_callable(fe, sp, o)))
        return v;
    PyObject *r = PyObject_Repr((PyObject *)Py_TYPE(o));
    const char *tn = r ? PyUnicode_AsUTF8(r) : "?";
    TYPING(fe, node, "cannot use %s: kiln cannot determine the type of %s", what, tn ? tn : "?");
    Py_XDECREF(r);
    PyErr_Clear();
    return NULL;
}

/* The object a non-local name refers to (borrowed), or NULL. */
PyObject *
kn_fe_lookup_global(FE *fe, PyObject *name)
{
    if (PyUnicode_Check(name) && PyUnicode_GET_LENGTH(name) > 4 &&
        PyUnicode_READ_CHAR(name, 0) == '$')
        return kn_fe_internal_name(fe, name); /* $kn_len and the like: frontend/iter.c */
    PyObject *o = PyDict_GetItemWithError(fe->closure, name);
    if (!o && !PyErr_Occurred())
        o = PyDict_GetItemWithError(fe->globals, name);
    if (!o && !PyErr_Occurred()) {
        if (PyDict_Check(fe->builtins))
            o = PyDict_GetItemWithError(fe->builtins, name);
        else if (fe->builtins) {
            o = PyObject_GetAttr(fe->builtins, name);
            Py_XDECREF(o); /* the builtins module keeps it */
        }
    }
    PyErr_Clear();
    return o;
}

Val
kn_fe_name_load(FE *fe, PyObject *node)
{
    PyObject *id = A(node, "id");
    const char *nm = kn_fe_str_of(fe, id);
    int caught;
    Val ev = kn_fe_exc_name_value(fe, node, &caught); /* `except ... as e`'s e (try.c) */
    if (caught)
        return ev;
    int r = PySet_Contains(fe->locals, id);
    if (r > 0) {
        int handled;
        Val fv = kn_fe_function_load(fe, node, &handled); /* an inner function: functions.c */
        if (handled)
            return fv;
        int v = kn_fe_local_var(fe, nm, span_of(fe, node));
        return kn_fe_load(fe, span_of(fe, node), v);
    }
    PyObject *o = kn_fe_lookup_global(fe, id);
    if (!o)
        return TYPING(fe, node, "undefined name '%s'", nm);
    char what[300];
    snprintf(what, sizeof what, "global name '%s'", nm);
    return kn_fe_frozen(fe, node, o, what);
}

/* ---- set-up: source, locals, closure ---- */

/* Collect every name the function assigns: those are its locals. */
static int
collect_targets(FE *fe, PyObject *t)
{
    if (!t)
        return 0;
    if (is(t, "Name"))
        return PySet_Add(fe->locals, A(t, "id"));
    if (is(t, "Tuple") || is(t, "List")) {
        PyObject *elts = A(t, "elts");
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elts); i++)
            KN_TRY(collect_targets(fe, PyList_GET_ITEM(elts, i)));
    }
    if (is(t, "Starred"))
        return collect_targets(fe, A(t, "value"));
    return 0;
}

int
kn_fe_collect_locals(FE *fe, PyObject *body)
{
    for (Py_ssize_t i = 0; body && i < PyList_GET_SIZE(body); i++) {
        PyObject *s = PyList_GET_ITEM(body, i);
        if (is(s, "FunctionDef")) { /* an inner def binds its name; its body is its own scope */
            KN_TRY(PySet_Add(fe->locals, A(s, "name")));
            continue;
        }
        KN_TRY(kn_fe_collect_walrus(fe, s)); /* (x := v) binds x: iter.c */
        if (is(s, "Assign")) {
            PyObject *ts = A(s, "targets");
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(ts); k++)
                KN_TRY(collect_targets(fe, PyList_GET_ITEM(ts, k)));
        } else if (is(s, "AugAssign") || is(s, "AnnAssign") || is(s, "For")) {
            KN_TRY(collect_targets(fe, A(s, "target")));
        }
        KN_TRY(kn_fe_collect_locals(fe, A(s, "body")));
        KN_TRY(kn_fe_collect_locals(fe, A(s, "orelse")));
        KN_TRY(kn_fe_collect_locals(fe, A(s, "handlers"))); /* try: each clause's body */
        KN_TRY(kn_fe_collect_locals(fe, A(s, "finalbody")));
    }
    return 0;
}

int
kn_fe_setup_closure(FE *fe)
{
    fe->closure = PyDict_New();
    PyObject *code = PyObject_GetAttrString(fe->func, "__code__");
    PyObject *freevars = code ? PyObject_GetAttrString(code, "co_freevars") : NULL;
    PyObject *cells = PyObject_GetAttrString(fe->func, "__closure__");
    Py_XDECREF(code);
    if (!freevars || !cells) {
        Py_XDECREF(freevars);
        Py_XDECREF(cells);
        PyErr_Clear();
        return 0;
    }
    for (Py_ssize_t i = 0; cells != Py_None && i < PyTuple_GET_SIZE(freevars); i++) {
        PyObject *cell = PyTuple_GET_ITEM(cells, i);
        PyObject *v = PyCell_GET(cell);
        if (v)
            PyDict_SetItem(fe->closure, PyTuple_GET_ITEM(freevars, i), v);
    }
    Py_DECREF(freevars);
    Py_DECREF(cells);
    return 0;
}
