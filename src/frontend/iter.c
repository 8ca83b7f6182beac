/* iter.c - the builtins that consume or wrap iterables, rewritten into loops (kiln/_iter.py).
 *
 * sum, any, all, min/max of one iterable (key=, default=), sorted/list of an iterator
 * expression, next(iter(x)[, d]), random.choice and random.shuffle, and for loops over map,
 * filter, reversed and generator expressions (also inside zip and enumerate): kiln._iter
 * rewrites the call's (or the for's) ast into statements and an expression, as a user would
 * write the loop, and this file compiles them in place, the way comprehension.c compiles a
 * list comprehension. So each consumer takes whatever a for loop takes, through GETITER and
 * ITERNEXT, and the item type, the unification and the errors are the loop's. Temporaries
 * ($it<n>_...) are the function's locals; names $kn_<x> resolve to kiln._iter's attributes
 * (kn_fe_internal_name). A rewrite the module refuses is an UnsupportedError at the node it
 * names. Invariant: the rewritten trees are kept alive (spans and names point into them). */
#include "frontend/internal.h"

static PyObject *
iter_module(void)
{
    return PyImport_ImportModule("kiln._iter");
}

PyObject *
kn_fe_internal_name(FE *fe, PyObject *name)
{
    PyObject *mod = iter_module();
    const char *s = PyUnicode_AsUTF8(name);
    PyObject *o = mod && s ? PyObject_GetAttrString(mod, s + 4) : NULL;
    Py_XDECREF(mod);
    if (!o || PyList_Append(fe->env->keepalive, o) < 0) {
        Py_XDECREF(o);
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(o); /* borrowed: the keepalive list holds it */
    return o;
}

/* {name: n} for the parameters whose type (in the signature being compiled) is a tuple of n:
 * tuple(<iterator>) over them (kiln._iter's to_tuple) knows its length */
static PyObject *
tuple_params(FE *fe)
{
    PyObject *d = PyDict_New();
    KnFunction *fn = fe->b.fn;
    for (int k = 0; d && fn && k < fn->nparams && fe->c->arg_types && k < fe->c->nargs; k++) {
        const KnType *t = fe->c->arg_types[k];
        PyObject *n = t && t->kind == KN_TY_TUPLE ? PyLong_FromLong(t->n) : NULL;
        if (n && PyDict_SetItemString(d, fn->vars.items[k].name, n) < 0)
            PyErr_Clear();
        Py_XDECREF(n);
    }
    return d;
}

/* (locals, closure, globals, builtins, iterator names or None, tuple parameters): what
 * kiln._iter needs to tell map from a local map */
static PyObject *
scope_of(FE *fe)
{
    PyObject *names = fe->iter_names ? fe->iter_names : Py_None, *lengths = tuple_params(fe);
    PyObject *r = lengths ? PyTuple_Pack(6, fe->locals, fe->closure, fe->globals,
                                         fe->builtins ? fe->builtins : Py_None, names, lengths)
                          : NULL;
    Py_XDECREF(lengths);
    return r;
}

/* ---- iterators held by a name: it = iter(x); next(it); for v in it ---- */

static uint64_t
hash_of(PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    uint64_t h = 1469598103934665603u;
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* the GETITER a name holds (a Name node of an iterator variable), or NULL */
static Val
iterator_var(FE *fe, PyObject *node)
{
    if (!fe->iter_names || !is(node, "Name") || PySet_Contains(fe->iter_names, A(node, "id")) <= 0)
        return NULL;
    return kn_map_get(&fe->iter_vals, hash_of(A(node, "id")));
}

int
kn_fe_find_iterator_vars(FE *fe, PyObject *def)
{
    PyObject *mod = iter_module(), *scope = scope_of(fe);
    PyObject *names =
        mod && scope ? PyObject_CallMethod(mod, "iterator_vars", "OO", def, scope) : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(scope);
    fe->iter_names = names && PyList_GET_SIZE(names) ? PySet_New(names) : NULL;
    Py_XDECREF(names);
    PyErr_Clear(); /* no iterator variables: each use is then refused where it is */
    return 0;
}

/* it = iter(x) / zip(...) / enumerate(...) of a name iterator_vars chose: its GETITER is
 * kept for the name, and no variable is stored */
int
kn_fe_iterator_assign(FE *fe, PyObject *node, int *handled)
{
    PyObject *targets = A(node, "targets");
    *handled = 0;
    if (!fe->iter_names || PyList_GET_SIZE(targets) != 1)
        return 0;
    PyObject *t = PyList_GET_ITEM(targets, 0);
    if (!is(t, "Name") || PySet_Contains(fe->iter_names, A(t, "id")) <= 0) {
        PyErr_Clear();
        return 0;
    }
    *handled = 1;
    PyObject *v = A(node, "value"), *args = A(v, "args");
    int is_iter = is(A(v, "func"), "Name") &&
                  !PyUnicode_CompareWithASCIIString(A(A(v, "func"), "id"), "iter");
    Val it =
        kn_fe_iter_of(fe, is_iter && PyList_GET_SIZE(args) == 1 ? PyList_GET_ITEM(args, 0) : v);
    if (!it)
        return -1;
    kn_map_put(&fe->iter_vals, hash_of(A(t, "id")), it);
    return 0;
}

/* next(it[, default]) of an iterator variable: ITERNEXT, the item or the default into a
 * temporary, StopIteration when exhausted without one */
static Val
next_of(FE *fe, PyObject *call, Val it)
{
    PyObject *args = A(call, "args");
    KnSpan sp = span_of(fe, call);
    Py_ssize_t n = PyList_GET_SIZE(args);
    if (n > 2 || PyList_GET_SIZE(A(call, "keywords")))
        return UNSUPPORTED(fe, call, "next() takes an iterator and an optional default");
    Val dflt = n == 2 ? kn_fe_expr(fe, PyList_GET_ITEM(args, 1)) : NULL;
    if (n == 2 && !dflt)
        return NULL;
    int r = kn_fe_temp_var(fe, "next", sp);
    KnBlock *got = kn_kir_block_new(&fe->b), *empty = kn_kir_block_new(&fe->b),
            *join = kn_kir_block_new(&fe->b);
    Val item = kn_kir_iternext(&fe->b, sp, it, got, empty);
    kn_kir_set_block(&fe->b, got);
    kn_fe_store(fe, sp, r, item);
    kn_kir_br(&fe->b, sp, join);
    kn_kir_set_block(&fe->b, empty);
    if (dflt) {
        kn_fe_store(fe, sp, r, dflt);
        kn_kir_br(&fe->b, sp, join);
    } else {
        PyObject *mod = iter_module();
        PyObject *stop = mod ? PyObject_CallMethod(mod, "next_tail", "Oi", call, 0) : NULL;
        Py_XDECREF(mod);
        int rc = stop && PyList_Append(fe->env->keepalive, stop) == 0 ? kn_fe_stmts(fe, stop) : -1;
        Py_XDECREF(stop);
        if (rc < 0) {
            PyErr_Clear();
            return NULL;
        }
    }
    kn_kir_set_block(&fe->b, join);
    return kn_fe_load(fe, sp, r);
}

/* A refusal of kiln._iter (RewriteError(message, node)) as an UnsupportedError at its node. */
static void *
refused(FE *fe, PyObject *node)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *args = value ? PyObject_GetAttrString(value, "args") : NULL;
    PyObject *at = node;
    const char *msg = NULL;
    PyObject *s = NULL;
    if (args && PyTuple_Check(args) && PyTuple_GET_SIZE(args) >= 1) {
        s = PyObject_Str(PyTuple_GET_ITEM(args, 0));
        if (PyTuple_GET_SIZE(args) >= 2)
            at = PyTuple_GET_ITEM(args, 1);
    }
    msg = s ? PyUnicode_AsUTF8(s) : NULL;
    PyErr_Clear();
    UNSUPPORTED(fe, at, "%s", msg ? msg : "this use of an iterable is not supported");
    Py_XDECREF(s);
    Py_XDECREF(args);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return NULL;
}

/* Compile a rewrite (statements, expression or None, names). *out is the expression's value
 * (NULL for a for statement). Returns 0, or -1 after a diagnostic. */
static int
compile_rewrite(FE *fe, PyObject *node, PyObject *r, Val *out)
{
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3 || PyList_Append(fe->env->keepalive, r) < 0) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "internal error: a bad rewrite from kiln._iter");
        return -1;
    }
    PyObject *stmts = PyTuple_GET_ITEM(r, 0), *expr = PyTuple_GET_ITEM(r, 1);
    PyObject *names = PyTuple_GET_ITEM(r, 2);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++)
        if (PySet_Add(fe->locals, PyList_GET_ITEM(names, i)) < 0) {
            PyErr_Clear();
            return -1;
        }
    KN_TRY(kn_fe_stmts(fe, stmts));
    if (!fe->b.cur) /* the rewrite ended in a raise or a loop that never exits */
        kn_kir_set_block(&fe->b, kn_kir_block_new(&fe->b));
    if (expr == Py_None)
        return 0;
    *out = kn_fe_expr(fe, expr);
    return *out ? 0 : -1;
}

Val
kn_fe_iter_call(FE *fe, PyObject *node, Val callee, int *handled)
{
    *handled = 0;
    if (callee->op != KN_OP_GLOBAL || callee->type->kind != KN_TY_FUNC || callee->type->id < 0 ||
        callee->type->id >= KN_BI__COUNT)
        return NULL;
    int id = callee->type->id;
    PyObject *args = A(node, "args");
    Val itv = id == KN_BI_NEXT && PyList_GET_SIZE(args) >= 1
                  ? iterator_var(fe, PyList_GET_ITEM(args, 0))
                  : NULL;
    if (itv) {
        *handled = 1;
        return next_of(fe, node, itv);
    }
    switch (id) {
    case KN_BI_SUM:
    case KN_BI_MIN:
    case KN_BI_MAX:
    case KN_BI_ANY:
    case KN_BI_ALL:
    case KN_BI_SORTED:
    case KN_BI_LIST_NEW:
    case KN_BI_TUPLE:
    case KN_BI_NEXT:
    case KN_BI_ITER:
    case KN_BI_MAP:
    case KN_BI_FILTER:
    case KN_BI_REVERSED:
    case KN_BI_RANDOM_CHOICE:
    case KN_BI_RANDOM_SHUFFLE:
        break;
    default:
        return NULL;
    }
    PyObject *mod = iter_module(), *scope = scope_of(fe);
    int serial = fe->ntemps++;
    PyObject *r = mod && scope ? PyObject_CallMethod(mod, "rewrite_call", "OsiO", node,
                                                     kn_kir_builtin_name(id), serial, scope)
                               : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(scope);
    *handled = 1;
    if (!r)
        return refused(fe, node);
    if (r == Py_None) {
        Py_DECREF(r);
        *handled = 0;
        return NULL;
    }
    Val v = NULL;
    int rc = compile_rewrite(fe, node, r, &v);
    Py_DECREF(r);
    return rc < 0 ? NULL : v;
}

int
kn_fe_iter_for(FE *fe, PyObject *node, int *handled, Val *it)
{
    *handled = 0;
    PyObject *iter = A(node, "iter");
    if ((*it = iterator_var(fe, iter)))
        return 0;
    if (!is(iter, "Call") && !is(iter, "GeneratorExp"))
        return 0;
    PyObject *mod = iter_module(), *scope = scope_of(fe);
    int serial = fe->ntemps++;
    PyObject *r =
        mod && scope ? PyObject_CallMethod(mod, "rewrite_for", "OiO", node, serial, scope) : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(scope);
    if (!r) {
        *handled = 1;
        refused(fe, node);
        return -1;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    *handled = 1;
    int rc = compile_rewrite(fe, node, r, NULL);
    Py_DECREF(r);
    return rc;
}

/* ---- assignment forms: a, *b = v; (x := v); global and nonlocal declarations ---- */

/* target is a Tuple or List with a Starred element: v kept in a temporary, then each part
 * assigned by kiln._iter.starred_targets' statements */
int
kn_fe_starred_assign(FE *fe, PyObject *target, Val v)
{
    KnSpan sp = span_of(fe, target);
    char name[32];
    int serial = fe->ntemps++;
    snprintf(name, sizeof name, "$it%d_u", serial);
    PyObject *pname = PyUnicode_FromString(name);
    if (!pname || PySet_Add(fe->locals, pname) < 0) {
        Py_XDECREF(pname);
        PyErr_Clear();
        return -1;
    }
    kn_fe_store(fe, sp, kn_fe_local_var(fe, name, sp), v);
    PyObject *mod = iter_module();
    PyObject *r =
        mod ? PyObject_CallMethod(mod, "starred_targets", "OOi", target, pname, serial) : NULL;
    Py_XDECREF(mod);
    Py_DECREF(pname);
    if (!r) {
        refused(fe, target);
        return -1;
    }
    int rc = compile_rewrite(fe, target, r, NULL);
    Py_DECREF(r);
    return rc;
}

/* (target := value): the value stored to the name, and loaded back as the expression's */
Val
kn_fe_walrus(FE *fe, PyObject *node)
{
    PyObject *target = A(node, "target");
    Val v = kn_fe_expr(fe, A(node, "value"));
    if (!v || kn_fe_assign_to(fe, target, v) < 0)
        return NULL;
    return kn_fe_name_load(fe, target);
}

/* the names walrus expressions in statement s bind are locals */
int
kn_fe_collect_walrus(FE *fe, PyObject *s)
{
    PyObject *mod = iter_module();
    PyObject *names = mod ? PyObject_CallMethod(mod, "walrus_targets", "O", s) : NULL;
    Py_XDECREF(mod);
    int rc = names ? 0 : -1;
    for (Py_ssize_t i = 0; names && i < PyList_GET_SIZE(names); i++)
        if (PySet_Add(fe->locals, PyList_GET_ITEM(names, i)) < 0)
            rc = -1;
    Py_XDECREF(names);
    PyErr_Clear();
    return rc;
}

/* global x / nonlocal x: reads see the frozen value (names.c resolves a name that is not
 * assigned in the function as a global or a closure cell); an assignment to it is refused,
 * as compiled code cannot write the module's or the enclosing function's variables. */
int
kn_fe_global_stmt(FE *fe, PyObject *node)
{
    PyObject *names = A(node, "names");
    int is_global = is(node, "Global");
    for (Py_ssize_t i = 0; names && i < PyList_GET_SIZE(names); i++) {
        PyObject *nm = PyList_GET_ITEM(names, i);
        if (PySet_Contains(fe->locals, nm) > 0) {
            UNSUPPORTED(fe, node,
                        "assigning to the %s variable '%s' is not supported (compiled code "
                        "reads %s variables as constants frozen at compile time)",
                        is_global ? "global" : "nonlocal", kn_fe_str_of(fe, nm),
                        is_global ? "global" : "nonlocal");
            return -1;
        }
    }
    PyErr_Clear();
    return 0;
}

/* ---- unbound methods of the builtin containers as functions: str.upper(s), map(str.upper, xs),
 * sorted(xs, key=str.lower) ---- */

/* the builtin type (str, list, dict, set) of `T.name` when name is one of its methods and T is
 * not shadowed by a local or global; NULL otherwise */
static PyObject *
unbound_owner(FE *fe, PyObject *attr_node)
{
    if (!is(attr_node, "Attribute"))
        return NULL;
    PyObject *base = A(attr_node, "value");
    if (!is(base, "Name") || PySet_Contains(fe->locals, A(base, "id")) > 0)
        return NULL;
    PyObject *o = kn_fe_lookup_global(fe, A(base, "id"));
    if (o != (PyObject *)&PyUnicode_Type && o != (PyObject *)&PyList_Type &&
        o != (PyObject *)&PyDict_Type && o != (PyObject *)&PySet_Type)
        return NULL;
    PyObject *m = PyObject_GetAttr(o, A(attr_node, "attr"));
    int ok = m && PyObject_TypeCheck(m, &PyMethodDescr_Type);
    Py_XDECREF(m);
    PyErr_Clear();
    return ok ? o : NULL;
}

/* kiln._iter.<helper>(args...) kept alive for the compilation (borrowed), or NULL */
static PyObject *
iter_helper(FE *fe, const char *helper, PyObject *args)
{
    PyObject *mod = iter_module();
    PyObject *fn = mod ? PyObject_GetAttrString(mod, helper) : NULL;
    PyObject *r = fn && args ? PyObject_CallObject(fn, args) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(mod);
    if (!r || PyList_Append(fe->env->keepalive, r) < 0) {
        Py_XDECREF(r);
        return NULL;
    }
    Py_DECREF(r);
    return r;
}

Val
kn_fe_unbound_call(FE *fe, PyObject *node, int *handled)
{
    PyObject *func = A(node, "func"), *args = A(node, "args");
    *handled = unbound_owner(fe, func) != NULL;
    if (!*handled)
        return NULL;
    if (!args || !PyList_GET_SIZE(args) || is(PyList_GET_ITEM(args, 0), "Starred"))
        return UNSUPPORTED(fe, node, "%s.%s() needs the value it works on as its first argument",
                           kn_fe_str_of(fe, A(A(func, "value"), "id")),
                           kn_fe_str_of(fe, A(func, "attr")));
    PyObject *a = PyTuple_Pack(1, node);
    PyObject *call = iter_helper(fe, "unbound_call", a); /* T.m(x, ...) as x.m(...) */
    Py_XDECREF(a);
    if (!call) {
        PyErr_Clear();
        return UNSUPPORTED(fe, node, "cannot rewrite this call");
    }
    return kn_fe_expr(fe, call);
}

Val
kn_fe_unbound_value(FE *fe, PyObject *node, int *handled)
{
    PyObject *owner = unbound_owner(fe, node);
    *handled = owner != NULL;
    if (!owner)
        return NULL;
    PyObject *a = Py_BuildValue("(OO)", owner, A(node, "attr"));
    PyObject *fn = a ? iter_helper(fe, "unbound_function", a) : NULL; /* lambda s: s.m() */
    Py_XDECREF(a);
    if (!fn) {
        PyErr_Clear();
        return UNSUPPORTED(fe, node, "cannot make a function of this method");
    }
    return kn_fe_frozen(fe, node, fn, "an unbound method");
}

/* dict(x, k=v, **m) and dict(**m): kiln._iter.rewrite_dict's statements (a copy of x, or an
 * empty dict, then each keyword stored and each **m merged with update, in order) */
Val
kn_fe_dict_rewrite(FE *fe, PyObject *call)
{
    PyObject *mod = iter_module();
    PyObject *r = mod ? PyObject_CallMethod(mod, "rewrite_dict", "Oi", call, fe->ntemps++) : NULL;
    Py_XDECREF(mod);
    if (!r)
        return refused(fe, call);
    Val v = NULL;
    int rc = compile_rewrite(fe, call, r, &v);
    Py_DECREF(r);
    return rc < 0 ? NULL : v;
}
