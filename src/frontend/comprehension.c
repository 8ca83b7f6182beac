/* comprehension.c - list displays, list comprehensions and lambdas used as values -> KIR.
 *
 * A display [a, b, c] is one BUILD_LIST of its items (typing/list.c unifies their types). A
 * comprehension [elt for t in it if c ...] becomes, in the function's own KIR, a new empty list
 * in a temporary variable, the loops and conditions of its clauses (kiln._support.listcomp_loop
 * rewrites the ast into `for t in it: if c: $lc.append(elt)`, nested per clause, with the targets
 * renamed so that they stay out of the function's scope, as in Python 3), then a load of the
 * temporary. The appends refine the temporary's item type (`[]` is list(undefined) until then),
 * so no separate function is compiled and LLVM sees one loop.
 *
 * A lambda (`l.sort(key=lambda x: -x)`) becomes a jitted function of its own (functions.c:
 * lifted from its code object, a closure when it captures the enclosing function's variables).
 * One with default values or star parameters is made by kiln._support.jitted_lambda from the
 * lambda's text at its own place in the file: it may use globals and its parameters only. */
#include "frontend/internal.h"

Val
kn_fe_list_display(FE *fe, PyObject *node)
{
    PyObject *elts = A(node, "elts");
    Py_ssize_t n = elts ? PyList_GET_SIZE(elts) : 0;
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PyList_GET_ITEM(elts, i);
        if (is(e, "Starred"))
            return UNSUPPORTED(fe, e, "starred expressions in lists are not supported");
        if (!(items[i] = kn_fe_expr(fe, e)))
            return NULL;
    }
    return emit(fe, KN_OP_BUILD_LIST, node, (int)n, items);
}

Val
kn_fe_listcomp(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    char result[32];
    int serial = fe->ntemps++;
    snprintf(result, sizeof result, "$lc%d", serial);
    PyObject *r =
        PyObject_CallMethod(fe->env->support, "listcomp_loop", "Osi", node, result, serial);
    if (!r) {
        char buf[1024];
        const char *msg = kn_fe_take_error_text(buf, sizeof buf);
        UNSUPPORTED(fe, node, "%s", msg ? msg : "this list comprehension is not supported");
        return NULL;
    }
    PyObject *loop = PyTuple_GET_ITEM(r, 0), *names = PyTuple_GET_ITEM(r, 1);
    PyObject *rname = PyUnicode_FromString(result);
    int ok = rname && PySet_Add(fe->locals, rname) == 0;
    Py_XDECREF(rname);
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(names); i++)
        ok = PySet_Add(fe->locals, PyList_GET_ITEM(names, i)) == 0;
    /* the rewritten tree must outlive the walk (spans and names point into it) */
    ok = ok && PyList_Append(fe->env->keepalive, r) == 0;
    Py_DECREF(r);
    if (!ok) {
        PyErr_Clear();
        return UNSUPPORTED(fe, node, "this list comprehension is not supported");
    }
    int var = kn_fe_local_var(fe, result, sp);
    kn_fe_store(fe, sp, var, emit(fe, KN_OP_BUILD_LIST, node, 0, NULL));
    if (kn_fe_for_stmt(fe, loop) < 0)
        return NULL;
    if (!fe->b.cur)
        kn_kir_set_block(&fe->b, kn_kir_block_new(&fe->b));
    return kn_fe_load(fe, sp, var);
}

Val
kn_fe_lambda(FE *fe, PyObject *node)
{
    PyObject *args = A(node, "args"), *defaults = A(args, "defaults");
    if (!(defaults && PyList_GET_SIZE(defaults)) && !A(args, "vararg") && !A(args, "kwarg"))
        return kn_fe_function_value(fe, node, "<lambda>"); /* functions.c: may capture */
    KnSpan sp = span_of(fe, node);
    PyObject *ast = PyImport_ImportModule("ast");
    PyObject *text = ast ? PyObject_CallMethod(ast, "unparse", "O", node) : NULL;
    Py_XDECREF(ast);
    PyObject *fn = text ? PyObject_CallMethod(fe->env->support, "jitted_lambda", "OOii", text,
                                              fe->func, sp.line, sp.col)
                        : NULL;
    Py_XDECREF(text);
    if (!fn) {
        PyErr_Clear();
        return UNSUPPORTED(fe, node,
                           "this lambda is not supported inside jitted code (a lambda may use "
                           "only its parameters and globals)");
    }
    Val v = kn_fe_frozen(fe, node, fn, "lambda");
    Py_DECREF(fn);
    return v;
}
