/* unroll.c - `for x in literal_unroll(t)` over a tuple whose items have different types, as
 * Numba's literal_unroll: the body is emitted once per item (a copy per item, the target bound
 * to a variable of that copy's own, `x$k`, so each copy is typed for its item), in order;
 * `continue` goes to the next copy, `break` past the last, and the else clause runs after the
 * last copy. The frontend must know the tuple's length: `t` is a tuple display, a parameter
 * (the signature being compiled gives its type) or a global or closure tuple. A `t` that is
 * not a tuple is iterated by an ordinary for loop; anything else is an UnsupportedError. */
#include "frontend/internal.h"

/* the number of items of the tuple `arg` names (-1: not a tuple, iterate normally; -2: not
 * known here, with a diagnostic) */
static int
tuple_length(FE *fe, PyObject *arg)
{
    if (is(arg, "Tuple"))
        return (int)PyList_GET_SIZE(A(arg, "elts"));
    if (is(arg, "Name")) {
        PyObject *id = A(arg, "id");
        if (PySet_Contains(fe->locals, id) <= 0) {
            PyErr_Clear();
            PyObject *o = kn_fe_lookup_global(fe, id);
            return o && PyTuple_Check(o) ? (int)PyTuple_GET_SIZE(o) : -1;
        }
        const char *nm = kn_fe_str_of(fe, id);
        KnFunction *fn = fe->b.fn;
        for (int k = 0; k < fn->nparams; k++)
            if (!strcmp(fn->vars.items[k].name, nm) && fe->c->arg_types && k < fe->c->nargs) {
                const KnType *t = fe->c->arg_types[k];
                return t && t->kind == KN_TY_TUPLE ? t->n : -1;
            }
    }
    UNSUPPORTED(fe, arg,
                "literal_unroll() needs a tuple the compiler can count: a parameter, a global "
                "or closure tuple, or a tuple display");
    return -2;
}

/* one copy of the body, its target bound to item k of the tuple in variable seq */
static int
body_copy(FE *fe, PyObject *node, int seq, int k, KnBlock *next, KnBlock *exit)
{
    PyObject *target = A(node, "target");
    KnSpan sp = span_of(fe, target);
    const char *nm = kn_fe_str_of(fe, A(target, "id"));
    char name[300];
    snprintf(name, sizeof name, "%s$%d", nm, k);
    Val item = kn_kir_emit2(&fe->b, KN_OP_GETITEM, span_of(fe, A(node, "iter")),
                            kn_fe_load(fe, sp, seq), kn_fe_const_int(fe, sp, k, &kn_type_int64));
    const char *was_name = fe->alias_name;
    int was_var = fe->alias_var;
    fe->alias_name = nm;
    fe->alias_var = kn_fe_add_var(fe, name, sp);
    kn_fe_store(fe, sp, fe->alias_var, item);
    fe->loops[fe->nloops].brk = exit;
    fe->loops[fe->nloops].cont = next;
    fe->nloops++;
    int rc = kn_fe_stmts(fe, A(node, "body"));
    fe->nloops--;
    fe->alias_name = was_name;
    fe->alias_var = was_var;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, next);
    kn_kir_set_block(&fe->b, next);
    return 0;
}

/* whether `call` is `mod.f(...)`, mod a global module and mod.f the registry's builtin `id`
 * (numba.literal_unroll, kiln.prange, nb.prange): the Name forms are found as other builtins */
int
kn_fe_is_module_builtin_call(FE *fe, PyObject *call, int id)
{
    if (!is(call, "Call") || !is(A(call, "func"), "Attribute"))
        return 0;
    PyObject *func = A(call, "func"), *base = A(func, "value");
    if (!is(base, "Name") || PySet_Contains(fe->locals, A(base, "id")) != 0) {
        PyErr_Clear();
        return 0;
    }
    PyObject *mod = kn_fe_lookup_global(fe, A(base, "id"));
    PyObject *o = mod && PyModule_Check(mod) ? PyObject_GetAttr(mod, A(func, "attr")) : NULL;
    PyObject *found = o ? PyDict_GetItemWithError(fe->env->builtin_ids, o) : NULL;
    int r = found && PyLong_AsLong(found) == id;
    Py_XDECREF(o);
    PyErr_Clear();
    return r;
}

int
kn_fe_literal_unroll(FE *fe, PyObject *node)
{
    PyObject *call = A(node, "iter");
    PyObject *args = A(call, "args");
    if (PyList_GET_SIZE(args) != 1)
        return UNSUPPORTED(fe, call, "literal_unroll() takes one argument"), -1;
    PyObject *arg = PyList_GET_ITEM(args, 0);
    int n = tuple_length(fe, arg);
    if (n == -2)
        return -1;
    Val v = kn_fe_expr(fe, arg);
    if (!v)
        return -1;
    if (n < 0) /* not a tuple: an ordinary loop */
        return kn_fe_for_over(fe, node, v);
    if (!is(A(node, "target"), "Name"))
        return UNSUPPORTED(fe, A(node, "target"),
                           "the target of a literal_unroll() loop must be a name"),
               -1;
    if (fe->nloops == KN_ARRAY_LEN(fe->loops))
        return UNSUPPORTED(fe, node, "loops nested more than 64 deep are not supported"), -1;
    KnSpan sp = span_of(fe, call);
    int seq = kn_fe_temp_var(fe, "unroll", sp);
    kn_fe_store(fe, sp, seq, v);
    KnBlock *exit = kn_kir_block_new(&fe->b);
    for (int k = 0; k < n; k++)
        KN_TRY(body_copy(fe, node, seq, k, kn_kir_block_new(&fe->b), exit));
    PyObject *orelse = A(node, "orelse");
    if (orelse)
        KN_TRY(kn_fe_stmts(fe, orelse));
    kn_kir_br(&fe->b, sp, exit);
    kn_kir_set_block(&fe->b, exit);
    return 0;
}
