/* functions.c - calls with starred arguments (`f(a, *t, k=v)`) -> KIR; see docs/internals.md,
 * "Functions as values and closures".
 *
 * How many items a starred tuple holds is known only once it is typed. So the call becomes a
 * call of a kiln._functions.StarCall made for this call site, frozen as a callable implemented
 * in Python (a FUNC of id KN_FUNC_OVERLOAD): typing resolves it like any overload, and it
 * answers with a small jitted function that takes the call's arguments in order and calls the
 * callee with the tuples spread. A callee known at compile time (a global: a jitted function, a
 * builtin, a NumPy function) is frozen into that function, so its keywords, defaults and *args
 * bind there as in any call; a callee held in a variable (a function passed as an argument) is
 * passed to it first. `**kwargs` at a call is an UnsupportedError at its position. */
#include "frontend/internal.h"

/* 1 when one of the call's positional arguments is starred */
int
kn_fe_has_starred(PyObject *node)
{
    PyObject *args = A(node, "args");
    for (Py_ssize_t i = 0; args && i < PyList_GET_SIZE(args); i++)
        if (is(PyList_GET_ITEM(args, i), "Starred"))
            return 1;
    return 0;
}

/* The overload set of this call site: kiln._functions.star_call(callee, starred, npos, name). */
static PyObject *
star_set(PyObject *node, Val callee, PyObject *pargs)
{
    Py_ssize_t npos = PyList_GET_SIZE(pargs);
    PyObject *starred = PyList_New(0);
    for (Py_ssize_t i = 0; starred && i < npos; i++) {
        if (!is(PyList_GET_ITEM(pargs, i), "Starred"))
            continue;
        PyObject *k = PyLong_FromSsize_t(i);
        if (!k || PyList_Append(starred, k) < 0) {
            Py_XDECREF(k);
            Py_CLEAR(starred);
        }
        Py_XDECREF(k);
    }
    PyObject *mod = starred ? PyImport_ImportModule("kiln._functions") : NULL;
    PyObject *fnode = A(node, "func");
    PyObject *text = NULL, *ast = PyImport_ImportModule("ast");
    if (ast && fnode)
        text = PyObject_CallMethod(ast, "unparse", "O", fnode);
    Py_XDECREF(ast);
    PyObject *frozen = callee->op == KN_OP_GLOBAL ? (PyObject *)callee->imm.ptr : Py_None;
    PyObject *set = mod ? PyObject_CallMethod(mod, "star_call", "OOnO", frozen, starred, npos,
                                              text ? text : Py_None)
                        : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(text);
    Py_XDECREF(starred);
    return set;
}

/* -1, an UnsupportedError at it, when one of the call's keywords is `**m`; else 0 */
int
kn_fe_refuse_double_star(FE *fe, PyObject *node)
{
    PyObject *kws = A(node, "keywords");
    for (Py_ssize_t k = 0; kws && k < PyList_GET_SIZE(kws); k++)
        if (!A(PyList_GET_ITEM(kws, k), "arg")) {
            UNSUPPORTED(fe, PyList_GET_ITEM(kws, k), "**kwargs in calls is not supported");
            return -1;
        }
    return 0;
}

Val
kn_fe_star_call(FE *fe, PyObject *node, Val callee)
{
    PyObject *pargs = A(node, "args"), *kws = A(node, "keywords");
    int npos = (int)PyList_GET_SIZE(pargs), nkw = kws ? (int)PyList_GET_SIZE(kws) : 0;
    PyObject *set = star_set(node, callee, pargs);
    if (!set) {
        PyErr_Clear();
        return UNSUPPORTED(fe, node, "this call with *args is not supported");
    }
    int by_value = callee->op != KN_OP_GLOBAL;
    int keep = PyList_Append(fe->env->keepalive, set);
    Py_DECREF(set); /* the keepalive list holds it */
    if (keep < 0)
        return NULL;
    Val g = kn_kir_emit(&fe->b, KN_OP_GLOBAL, span_of(fe, A(node, "func")), 0, NULL);
    g->type = kn_type_func(fe->c->types, KN_FUNC_OVERLOAD, set, "star_call");
    g->imm.ptr = set;
    int n = by_value + npos + nkw;
    KnInstr **all = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
    all[0] = g;
    if (by_value)
        all[1] = callee;
    for (int i = 0; i < npos; i++) {
        PyObject *a = PyList_GET_ITEM(pargs, i);
        if (is(a, "Starred"))
            a = A(a, "value");
        if (!(all[1 + by_value + i] = kn_fe_expr(fe, a)))
            return NULL;
    }
    const char **names = kn_arena_alloc(&fe->c->arena, sizeof(char *) * (size_t)(nkw + 1));
    for (int k = 0; k < nkw; k++) {
        PyObject *kw = PyList_GET_ITEM(kws, k);
        names[k] = kn_fe_str_of(fe, A(kw, "arg"));
        if (!(all[1 + by_value + npos + k] = kn_fe_expr(fe, A(kw, "value"))))
            return NULL;
    }
    Val in = emit(fe, KN_OP_CALL, node, n + 1, all);
    in->aux = nkw;
    in->imm.ptr = names;
    return in;
}

int
kn_fe_takes_varargs(PyObject *code)
{
    return code && PyCode_Check(code) && (((PyCodeObject *)code)->co_flags & CO_VARARGS);
}

Val
kn_fe_varargs_tuple(FE *fe, PyObject *node, int from)
{
    PyObject *pargs = A(node, "args");
    int npos = (int)PyList_GET_SIZE(pargs), n = npos > from ? npos - from : 0;
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        if (!(items[i] = kn_fe_expr(fe, PyList_GET_ITEM(pargs, from + i))))
            return NULL;
    return emit(fe, KN_OP_TUPLE, node, n, items);
}

/* ---- inner functions and lambdas ---- */

static int note_function(FE *fe, PyObject *name, PyObject *node, const char *codename);

/* The value of the def or lambda `node` named `name` (its code object's co_name): the lifted
 * jitted function itself when it captures nothing, else the closure tuple (FUNC closure, the
 * captured variables' current values). kiln._functions.lift finds the code object among the
 * enclosing function's constants and makes the jitted function. */
Val
kn_fe_function_value(FE *fe, PyObject *node, const char *name)
{
    KnSpan sp = span_of(fe, node);
    PyObject *mod = PyImport_ImportModule("kiln._functions");
    PyObject *r = mod ? PyObject_CallMethod(mod, "lift", "OsiiiO", fe->func, name, sp.line,
                                            sp.col - 1, sp.end_col - 1, fe->locals)
                      : NULL;
    Py_XDECREF(mod);
    if (!r || !PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2) {
        char buf[1024];
        const char *msg = kn_fe_take_error_text(buf, sizeof buf);
        UNSUPPORTED(fe, node, "this inner function is not supported (%s)", msg ? msg : "?");
        Py_XDECREF(r);
        return NULL;
    }
    PyObject *disp = PyTuple_GET_ITEM(r, 0), *captured = PyTuple_GET_ITEM(r, 1);
    Py_ssize_t n = PyTuple_GET_SIZE(captured);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!strcmp(kn_fe_str_of(fe, PyTuple_GET_ITEM(captured, i)), name)) {
            Py_DECREF(r);
            return UNSUPPORTED(fe, node, "recursive inner functions are not supported");
        }
    if (n == 0) {
        Val v = kn_fe_frozen(fe, node, disp, "an inner function");
        Py_DECREF(r);
        return v;
    }
    if (PyList_Append(fe->env->keepalive, disp) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
    items[0] = kn_kir_emit(&fe->b, KN_OP_GLOBAL, sp, 0, NULL);
    items[0]->type = kn_type_func(fe->c->types, KN_FUNC_CLOSURE, disp, name);
    items[0]->imm.ptr = disp;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *v = kn_fe_str_of(fe, PyTuple_GET_ITEM(captured, i));
        items[i + 1] = kn_fe_load(fe, sp, kn_fe_local_var(fe, v, sp));
    }
    Py_DECREF(r);
    return emit(fe, KN_OP_TUPLE, node, (int)n + 1, items);
}

int
kn_fe_def_stmt(FE *fe, PyObject *node)
{
    PyObject *args = A(node, "args"), *decos = A(node, "decorator_list");
    PyObject *defaults = A(args, "defaults"), *kwd = A(args, "kw_defaults");
    if (decos && PyList_GET_SIZE(decos)) {
        UNSUPPORTED(fe, PyList_GET_ITEM(decos, 0),
                    "decorators on functions defined inside jitted functions are not supported");
        return -1;
    }
    if ((defaults && PyList_GET_SIZE(defaults)) || (kwd && PyList_GET_SIZE(kwd))) {
        UNSUPPORTED(fe, node,
                    "default values of the parameters of an inner function are not supported");
        return -1;
    }
    if (A(args, "vararg") || A(args, "kwarg")) {
        UNSUPPORTED(fe, A(args, "vararg") ? A(args, "vararg") : A(args, "kwarg"),
                    "*args and **kwargs parameters of an inner function are not supported");
        return -1;
    }
    const char *name = kn_fe_str_of(fe, A(node, "name"));
    Val v = kn_fe_function_value(fe, node, name);
    if (!v)
        return -1;
    KnSpan sp = span_of(fe, node);
    kn_fe_store(fe, sp, kn_fe_local_var(fe, name, sp), v);
    return note_function(fe, A(node, "name"), node, name);
}

int
kn_fe_captured_params(FE *fe)
{
    PyObject *cl = PyFunction_GET_CLOSURE(fe->func);
    if (!cl || cl == Py_None || !PyTuple_GET_SIZE(cl))
        return 0;
    PyObject *mod = PyImport_ImportModule("kiln._functions");
    PyObject *names = mod ? PyObject_CallMethod(mod, "captured_names", "O", fe->func) : NULL;
    Py_XDECREF(mod);
    if (!names)
        return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(names); i++) {
        PyObject *nm = PyList_GET_ITEM(names, i);
        int v = kn_fe_add_var(fe, kn_fe_str_of(fe, nm), fe->b.fn->span);
        fe->b.fn->vars.items[v].is_param = 1;
        rc = PySet_Add(fe->locals, nm);
    }
    Py_DECREF(names);
    return rc;
}

/* ---- late binding: a name bound only to an inner function ---- */

/* Remember that `name` is bound to the inner function `node` (code name `codename`) when that
 * is its one binding in the function: its loads then rebuild the closure from the current
 * values of what it captures, as Python's closures read their cells when they run. */
static int
note_function(FE *fe, PyObject *name, PyObject *node, const char *codename)
{
    PyObject *mod = PyImport_ImportModule("kiln._functions");
    PyObject *n = mod ? PyObject_CallMethod(mod, "binding_count", "OO", fe->def, name) : NULL;
    Py_XDECREF(mod);
    if (!n)
        return -1;
    long count = PyLong_AsLong(n);
    Py_DECREF(n);
    if (count != 1)
        return 0;
    if (!fe->fn_defs && !(fe->fn_defs = PyDict_New()))
        return -1;
    PyObject *v = Py_BuildValue("(Os)", node, codename);
    int rc = v ? PyDict_SetItem(fe->fn_defs, name, v) : -1;
    Py_XDECREF(v);
    return rc;
}

int
kn_fe_note_lambda(FE *fe, PyObject *assign)
{
    PyObject *targets = A(assign, "targets"), *value = A(assign, "value");
    if (!is(value, "Lambda") || PyList_GET_SIZE(targets) != 1 ||
        !is(PyList_GET_ITEM(targets, 0), "Name"))
        return 0;
    PyObject *args = A(value, "args"), *defaults = A(args, "defaults");
    if ((defaults && PyList_GET_SIZE(defaults)) || A(args, "vararg") || A(args, "kwarg"))
        return 0;
    return note_function(fe, A(PyList_GET_ITEM(targets, 0), "id"), value, "<lambda>");
}

Val
kn_fe_function_load(FE *fe, PyObject *name_node, int *handled)
{
    *handled = 0;
    PyObject *item = fe->fn_defs ? PyDict_GetItemWithError(fe->fn_defs, A(name_node, "id")) : NULL;
    if (!item) {
        PyErr_Clear();
        return NULL;
    }
    *handled = 1;
    return kn_fe_function_value(fe, PyTuple_GET_ITEM(item, 0),
                                PyUnicode_AsUTF8(PyTuple_GET_ITEM(item, 1)));
}
