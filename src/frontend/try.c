/* try.c - try/except/else/finally and raise: the frontend's exception edges.
 *
 * A `try` sets the builder's unwind target (KnBuilder.unwind), so that every block made while
 * its body is built gets an exception edge to the handler block H. H tests the pending
 * exception against each clause's classes with `exc_match` (one `cbr` per clause) and ends, when
 * none matched, in `reraise`. The handler bodies and the `else` run under the outer unwind
 * target, or under the finally block F when there is a `finally`. F saves the pending exception
 * (`exc_match BaseException try#N`), runs a copy of the finally body and raises it again
 * (`reraise try#N`); the normal path runs another copy. `return`, `break` and `continue` that
 * leave a try with a finally run a copy of each finally body they cross, innermost first
 * (kn_fe_exc_return, kn_fe_exc_leave_loop), as CPython's compiler does.
 *
 * `exc_match` with aux N > 0 saves the caught exception for try N, and `reraise try#N` raises
 * that saved one again: a bare `raise` (or `raise e`) in an except clause, even after a nested
 * try caught something else. A `reraise` without aux raises the still-pending exception.
 *
 * `raise` enters (class, args) in the process-wide exception table. Arguments that are not
 * constants become the RAISE's operands (at most 4: numbers, bools or strs, checked by typing);
 * the entry is then (class, args, (positions, cause)), where args holds None at the run-time
 * positions and cause is Ellipsis (no `from`), None (`from None`), True (`from e`, the
 * exception an except clause caught: the RAISE's imm.i is its try, whose saved exception
 * lowering hands to the runtime) or (class, args) of a constant cause. The dispatcher builds
 * the exception from it (dispatch/exc.c). */
#include "frontend/internal.h"

enum { MAX_TRIES = 32, MAX_RT_ARGS = 4 };

typedef struct TryCtx {
    int id;              /* the try#N of its exc_match and reraise */
    PyObject *finalbody; /* NULL: no finally */
    KnBlock *outer;      /* the unwind target around the try */
    int nloops;          /* fe->nloops where the try began */
} TryCtx;

typedef struct Handler {
    int id;         /* the try whose exception it handles */
    PyObject *name; /* `as name`, or NULL */
} Handler;

enum { MAX_MARKS = 64 };

struct KnFeExc {
    TryCtx tries[MAX_TRIES];
    int ntries;
    Handler handlers[MAX_TRIES];
    int nhandlers;
    int next_id;
    /* Name nodes of a caught exception read as its text: print(e), f"{e}", format(e) */
    struct {
        PyObject *node;
        int entry; /* KN_BI_CAUGHT_STR or KN_BI_CAUGHT_REPR */
    } marks[MAX_MARKS];
    int nmarks;
};

static struct KnFeExc *
state(FE *fe)
{
    if (!fe->exc)
        fe->exc = kn_arena_alloc(&fe->c->arena, sizeof(struct KnFeExc));
    return fe->exc;
}

/* Go on in a fresh block whose unwind target is u (blocks keep the target they were made with). */
static void
set_unwind(FE *fe, KnSpan sp, KnBlock *u)
{
    fe->b.unwind = u;
    if (fe->b.cur && fe->b.cur->unwind != u) {
        KnBlock *blk = kn_kir_block_new(&fe->b);
        kn_kir_br(&fe->b, sp, blk);
        kn_kir_set_block(&fe->b, blk);
    }
}

/* ---- the exception table ---- */

/* Enter an entry ((class, args) or (class, args, extra)) in the exception table; its index. */
static int
table_index(FE *fe, PyObject *node, PyObject *entry)
{
    Py_ssize_t n = PyList_GET_SIZE(fe->env->exc_table);
    for (Py_ssize_t i = 0; i < n; i++) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(fe->env->exc_table, i), entry, Py_EQ);
        if (eq > 0)
            return (int)i;
        PyErr_Clear();
    }
    if (PyList_Append(fe->env->exc_table, entry) < 0) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "cannot record this exception");
        return -1;
    }
    return (int)n;
}

int
kn_fe_raise_with(FE *fe, PyObject *node, PyObject *cls, PyObject *args)
{
    PyObject *entry = PyTuple_Pack(2, cls, args);
    if (!entry)
        return -1;
    int idx = table_index(fe, node, entry);
    Py_DECREF(entry);
    if (idx < 0)
        return -1;
    Val r = emit(fe, KN_OP_RAISE, node, 0, NULL);
    r->aux = idx;
    return 0;
}

/* raise cls(msg), msg a run-time str (Color(v)'s ValueError: enum.c) */
int
kn_fe_raise_text(FE *fe, PyObject *node, PyObject *cls, Val msg)
{
    PyObject *args = PyTuple_Pack(1, Py_None), *pos = Py_BuildValue("(i)", 0);
    PyObject *extra = pos ? PyTuple_Pack(2, pos, Py_Ellipsis) : NULL;
    PyObject *entry = args && extra ? PyTuple_Pack(3, cls, args, extra) : NULL;
    int idx = entry ? table_index(fe, node, entry) : -1;
    Py_XDECREF(args);
    Py_XDECREF(pos);
    Py_XDECREF(extra);
    Py_XDECREF(entry);
    if (idx < 0)
        return -1;
    Val rt[1] = {msg};
    Val r = emit(fe, KN_OP_RAISE, node, 1, rt);
    r->aux = idx;
    return 0;
}

/* ---- classes named in raise and except ---- */

/* The exception class a Name or module.Attribute names (borrowed), or NULL. */
static PyObject *
exception_class(FE *fe, PyObject *node)
{
    PyObject *cls = NULL;
    if (is(node, "Name") && PySet_Contains(fe->locals, A(node, "id")) <= 0)
        cls = kn_fe_lookup_global(fe, A(node, "id"));
    else if (is(node, "Attribute")) {
        PyObject *base = A(node, "value");
        PyObject *mod = is(base, "Name") ? kn_fe_lookup_global(fe, A(base, "id")) : NULL;
        cls = mod ? PyObject_GetAttr(mod, A(node, "attr")) : NULL;
        Py_XDECREF(cls); /* the module keeps it */
        PyErr_Clear();
    }
    if (!cls || !PyType_Check(cls) ||
        !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_BaseException))
        return NULL;
    return cls;
}

/* The innermost except clause bound to `name`, or NULL. */
static Handler *
bound_handler(FE *fe, PyObject *name)
{
    struct KnFeExc *x = fe->exc;
    for (int k = x ? x->nhandlers - 1 : -1; k >= 0; k--)
        if (x->handlers[k].name && PyUnicode_Compare(x->handlers[k].name, name) == 0)
            return &x->handlers[k];
    return NULL;
}

/* ---- uses of the caught exception: str(e), repr(e), print(e), f"{e}", e.args ---- */

/* the handler a Name node `e` is bound to, or NULL */
static Handler *
caught_name(FE *fe, PyObject *node)
{
    return node && is(node, "Name") ? bound_handler(fe, A(node, "id")) : NULL;
}

/* kiln._caught.<attr>(try number): the entry `entry` of lib/caught.def */
static Val
caught_call(FE *fe, PyObject *node, Handler *h, int entry)
{
    PyObject *mod = PyImport_ImportModule("kiln._caught");
    PyObject *fn = mod ? PyObject_GetAttrString(mod, kn_kir_builtin_attr(entry)) : NULL;
    Val callee = fn ? kn_fe_frozen(fe, node, fn, "the caught exception") : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(mod);
    if (!callee) {
        if (PyErr_Occurred() && !fe->c->diags.items.len) {
            PyErr_Clear();
            UNSUPPORTED(fe, node, "kiln._caught is missing");
        }
        return NULL;
    }
    KnInstr **all = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * 2);
    all[0] = callee;
    all[1] = kn_fe_const_int(fe, span_of(fe, node), h->id, &kn_type_int64);
    Val in = emit(fe, KN_OP_CALL, node, 2, all);
    in->aux = 0;
    in->imm.ptr = kn_arena_alloc(&fe->c->arena, sizeof(char *));
    return in;
}

static void
mark(FE *fe, PyObject *node, int entry)
{
    struct KnFeExc *x = fe->exc;
    if (x && x->nmarks < MAX_MARKS && caught_name(fe, node))
        x->marks[x->nmarks++].node = node, x->marks[x->nmarks - 1].entry = entry;
}

/* func is a Name for the builtin `name` (not shadowed by a local or a global) */
static int
builtin_named(FE *fe, PyObject *func, const char *name)
{
    if (!is(func, "Name") || PyUnicode_CompareWithASCIIString(A(func, "id"), name) != 0 ||
        PySet_Contains(fe->locals, A(func, "id")) > 0)
        return 0;
    PyObject *b = PyEval_GetBuiltins();
    PyObject *o = b ? PyDict_GetItemString(b, name) : NULL;
    return o && kn_fe_lookup_global(fe, A(func, "id")) == o;
}

Val
kn_fe_exc_call(FE *fe, PyObject *node, int *handled)
{
    *handled = 0;
    if (!fe->exc || !fe->exc->nhandlers)
        return NULL;
    PyObject *func = A(node, "func"), *pargs = A(node, "args"), *kws = A(node, "keywords");
    Py_ssize_t n = PyList_GET_SIZE(pargs), nkw = kws ? PyList_GET_SIZE(kws) : 0;
    if (builtin_named(fe, func, "print") || builtin_named(fe, func, "format")) {
        int print = builtin_named(fe, func, "print");
        for (Py_ssize_t i = 0; i < n && (print || n == 1); i++) /* format(e, spec): refused */
            mark(fe, PyList_GET_ITEM(pargs, i), KN_BI_CAUGHT_STR);
        return NULL;
    }
    int r = builtin_named(fe, func, "repr");
    Handler *h = n == 1 && !nkw ? caught_name(fe, PyList_GET_ITEM(pargs, 0)) : NULL;
    if (!h || !(r || builtin_named(fe, func, "str")))
        return NULL;
    *handled = 1;
    return caught_call(fe, node, h, r ? KN_BI_CAUGHT_REPR : KN_BI_CAUGHT_STR);
}

Val
kn_fe_exc_attr(FE *fe, PyObject *node, int *handled)
{
    Handler *h = caught_name(fe, A(node, "value"));
    *handled = h != NULL;
    if (!h)
        return NULL;
    if (PyUnicode_CompareWithASCIIString(A(node, "attr"), "args") == 0)
        return caught_call(fe, node, h, KN_BI_CAUGHT_ARGS);
    return UNSUPPORTED(fe, node,
                       "the exception bound by 'except ... as %s' has only .args in compiled "
                       "code, not .%s",
                       kn_fe_str_of(fe, h->name), kn_fe_str_of(fe, A(node, "attr")));
}

int
kn_fe_exc_fvalue(FE *fe, PyObject *value, int conversion, int has_spec)
{
    if (!caught_name(fe, value) || (has_spec && conversion != 'r' && conversion != 's'))
        return conversion;
    mark(fe, value, conversion == 'r' ? KN_BI_CAUGHT_REPR : KN_BI_CAUGHT_STR);
    return conversion == 'r' || conversion == 's' ? -1 : conversion; /* done by the text */
}

Val
kn_fe_exc_name_value(FE *fe, PyObject *node, int *handled)
{
    PyObject *id = A(node, "id");
    Handler *h = id ? bound_handler(fe, id) : NULL;
    *handled = h != NULL;
    if (!h)
        return NULL;
    struct KnFeExc *x = fe->exc;
    for (int k = x->nmarks - 1; k >= 0; k--)
        if (x->marks[k].node == node)
            return caught_call(fe, node, h, x->marks[k].entry);
    return UNSUPPORTED(fe, node,
                       "the exception bound by 'except ... as %s' can be used in compiled code "
                       "as str(%s), repr(%s), print(%s), f\"{%s}\", %s.args and 'raise %s'",
                       kn_fe_str_of(fe, id), kn_fe_str_of(fe, id), kn_fe_str_of(fe, id),
                       kn_fe_str_of(fe, id), kn_fe_str_of(fe, id), kn_fe_str_of(fe, id),
                       kn_fe_str_of(fe, id));
}

/* ---- raise ---- */

static void
emit_reraise(FE *fe, PyObject *node, int id)
{
    Val r = emit(fe, KN_OP_RERAISE, node, 0, NULL);
    r->aux = id;
}

/* `from cause`: Ellipsis (none), None, True (`from e`: *caught is e's try) or (class, args)
 * of a constant exception; NULL with a diagnostic. */
static PyObject *
cause_of(FE *fe, PyObject *node, int *caught)
{
    PyObject *c = A(node, "cause");
    if (!c) {
        Py_INCREF(Py_Ellipsis);
        return Py_Ellipsis;
    }
    if (is(c, "Constant") && A(c, "value") == NULL) {
        Py_INCREF(Py_None);
        return Py_None; /* from None */
    }
    if (is(c, "Name") && bound_handler(fe, A(c, "id"))) {
        *caught = bound_handler(fe, A(c, "id"))->id;
        Py_INCREF(Py_True);
        return Py_True;
    }
    PyObject *clsnode = is(c, "Call") ? A(c, "func") : c;
    PyObject *cls = exception_class(fe, clsnode);
    PyObject *args = NULL;
    if (cls && is(c, "Call")) {
        PyObject *pargs = A(c, "args");
        args = PyTuple_New(PyList_GET_SIZE(pargs));
        for (Py_ssize_t i = 0; args && i < PyList_GET_SIZE(pargs); i++) {
            PyObject *v = kn_fe_const_eval(fe, PyList_GET_ITEM(pargs, i));
            if (!v) {
                Py_CLEAR(args);
                break;
            }
            PyTuple_SET_ITEM(args, i, v);
        }
    } else if (cls) {
        args = PyTuple_New(0);
    }
    if (!args) {
        PyErr_Clear();
        UNSUPPORTED(fe, c,
                    "the cause of 'raise ... from' must be None, the exception of an except "
                    "clause, or an exception made from constant arguments");
        return NULL;
    }
    PyObject *r = PyTuple_Pack(2, cls, args);
    Py_DECREF(args);
    return r;
}

int
kn_fe_raise_stmt(FE *fe, PyObject *node)
{
    PyObject *exc = A(node, "exc");
    struct KnFeExc *x = fe->exc;
    if (!exc || (is(exc, "Name") && bound_handler(fe, A(exc, "id")))) {
        Handler *h = exc ? bound_handler(fe, A(exc, "id"))
                         : (x && x->nhandlers ? &x->handlers[x->nhandlers - 1] : NULL);
        if (!h) {
            UNSUPPORTED(fe, node, "a bare 'raise' outside an except clause is not supported");
            return -1;
        }
        emit_reraise(fe, node, h->id);
        return 0;
    }
    PyObject *clsnode = is(exc, "Call") ? A(exc, "func") : exc;
    PyObject *cls = exception_class(fe, clsnode);
    if (!cls) {
        UNSUPPORTED(fe, exc,
                    "can only raise an exception class or an instance made from "
                    "constant arguments");
        return -1;
    }
    PyObject *pargs = is(exc, "Call") ? A(exc, "args") : NULL, *kws = A(exc, "keywords");
    if (kws && PyList_GET_SIZE(kws)) {
        UNSUPPORTED(fe, exc, "keyword arguments to exceptions are not supported");
        return -1;
    }
    Py_ssize_t n = pargs ? PyList_GET_SIZE(pargs) : 0;
    PyObject *args = PyTuple_New(n), *positions = PyList_New(0);
    Val rt[MAX_RT_ARGS];
    int nrt = 0, rc = -1;
    if (!args || !positions)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(pargs, i);
        PyObject *v = kn_fe_const_eval(fe, a);
        PyErr_Clear();
        if (!v) { /* a run-time value */
            if (is(a, "Starred")) {
                UNSUPPORTED(fe, a, "starred arguments to exceptions are not supported");
                goto done;
            }
            if (nrt == MAX_RT_ARGS) {
                UNSUPPORTED(fe, a,
                            "an exception takes at most %d arguments that are not "
                            "constants",
                            MAX_RT_ARGS);
                goto done;
            }
            if (!(rt[nrt++] = kn_fe_expr(fe, a)))
                goto done;
            PyObject *p = PyLong_FromSsize_t(i);
            if (!p || PyList_Append(positions, p) < 0) {
                Py_XDECREF(p);
                goto done;
            }
            Py_DECREF(p);
            Py_INCREF(Py_None);
            v = Py_None;
        }
        PyTuple_SET_ITEM(args, i, v);
    }
    int caught = 0;
    PyObject *cause = cause_of(fe, node, &caught);
    if (!cause)
        goto done;
    if (!nrt && cause == Py_Ellipsis) {
        Py_DECREF(cause);
        rc = kn_fe_raise_with(fe, node, cls, args);
        goto done;
    }
    PyObject *pos = PyList_AsTuple(positions);
    PyObject *extra = pos ? PyTuple_Pack(2, pos, cause) : NULL;
    PyObject *entry = extra ? PyTuple_Pack(3, cls, args, extra) : NULL;
    Py_XDECREF(pos);
    Py_XDECREF(extra);
    Py_DECREF(cause);
    int idx = entry ? table_index(fe, node, entry) : -1;
    Py_XDECREF(entry);
    if (idx >= 0) {
        Val r = emit(fe, KN_OP_RAISE, node, nrt, rt);
        r->aux = idx;
        r->imm.i = caught;
        rc = 0;
    }
done:
    if (rc < 0 && PyErr_Occurred() && !fe->c->diags.items.len) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "cannot record this exception");
    }
    Py_XDECREF(args);
    Py_XDECREF(positions);
    return rc;
}

/* ---- leaving a try: the finally bodies on the way ---- */

/* Run a copy of the finally bodies of tries[down_to ..] innermost first, each under the
 * unwind target around its try, with the try stack cut below it. */
static int
run_finals(FE *fe, PyObject *node, int down_to)
{
    struct KnFeExc *x = fe->exc;
    if (!x)
        return 0;
    int saved = x->ntries;
    KnBlock *saved_unwind = fe->b.unwind;
    TryCtx kept[MAX_TRIES]; /* a try inside a finally body reuses the entries above k */
    memcpy(kept, x->tries, sizeof kept);
    int rc = 0;
    for (int k = saved - 1; k >= down_to && rc == 0; k--) {
        TryCtx *t = &x->tries[k];
        if (!t->finalbody)
            continue;
        x->ntries = k;
        set_unwind(fe, span_of(fe, node), t->outer);
        rc = kn_fe_stmts(fe, t->finalbody);
    }
    memcpy(x->tries, kept, sizeof kept);
    x->ntries = saved;
    fe->b.unwind = saved_unwind;
    return rc;
}

static int
crosses_finally(FE *fe, int down_to)
{
    for (int k = down_to; fe->exc && k < fe->exc->ntries; k++)
        if (fe->exc->tries[k].finalbody)
            return 1;
    return 0;
}

int
kn_fe_exc_leave_loop(FE *fe, PyObject *node)
{
    struct KnFeExc *x = fe->exc;
    int k = x ? x->ntries : 0;
    while (k > 0 && x->tries[k - 1].nloops >= fe->nloops)
        k--;
    return crosses_finally(fe, k) ? run_finals(fe, node, k) : 0;
}

Val
kn_fe_exc_return(FE *fe, PyObject *node, Val v)
{
    if (!crosses_finally(fe, 0))
        return v;
    KnSpan sp = span_of(fe, node);
    int var = kn_fe_temp_var(fe, "$ret", sp);
    if (var < 0)
        return NULL;
    kn_fe_store(fe, sp, var, v);
    if (run_finals(fe, node, 0) < 0)
        return NULL;
    return kn_fe_load(fe, sp, var);
}

/* ---- try ---- */

/* The exc_match of one except clause (its class, or a tuple of them); *all set when one of
 * them is BaseException. NULL with a diagnostic. */
static Val
clause_match(FE *fe, PyObject *h, PyObject *type, int id, int *all)
{
    PyObject *elts = is(type, "Tuple") ? A(type, "elts") : NULL;
    Py_ssize_t n = elts ? PyList_GET_SIZE(elts) : 1;
    if (n == 0 || n > 64) {
        UNSUPPORTED(fe, type, "an except clause needs between 1 and 64 exception classes");
        return NULL;
    }
    Val *classes = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)n);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = elts ? PyList_GET_ITEM(elts, i) : type;
        PyObject *cls = exception_class(fe, e);
        if (!cls) {
            UNSUPPORTED(fe, e,
                        "an except clause must name exception classes known at compile time "
                        "(a global name or module.Class, or a tuple of them)");
            return NULL;
        }
        *all |= cls == PyExc_BaseException;
        if (!(classes[i] = kn_fe_frozen(fe, e, cls, "exception class")))
            return NULL;
    }
    Val m = emit(fe, KN_OP_EXC_MATCH, h, (int)n, classes);
    m->aux = id;
    return m;
}

/* the catch-all match: the exception is saved for try `id` */
static int
match_all(FE *fe, PyObject *node, int id)
{
    Val cls = kn_fe_frozen(fe, node, PyExc_BaseException, "exception class");
    if (!cls)
        return -1;
    Val m = emit(fe, KN_OP_EXC_MATCH, node, 1, &cls);
    m->aux = id;
    return 0;
}

static int
handler_body(FE *fe, PyObject *h, int id, KnBlock *next)
{
    struct KnFeExc *x = fe->exc;
    if (x->nhandlers == MAX_TRIES) {
        UNSUPPORTED(fe, h, "except clauses nested more than %d deep are not supported", MAX_TRIES);
        return -1;
    }
    PyObject *name = A(h, "name");
    x->handlers[x->nhandlers++] = (Handler){id, name};
    int rc = kn_fe_stmts(fe, A(h, "body"));
    x->nhandlers--;
    kn_kir_br(&fe->b, span_of(fe, h), next);
    return rc;
}

static int
handlers(FE *fe, PyObject *node, PyObject *hs, int id, KnBlock *next)
{
    int all = 0, bare = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hs) && !all; i++) {
        PyObject *h = PyList_GET_ITEM(hs, i), *type = A(h, "type");
        KnBlock *body = kn_kir_block_new(&fe->b);
        if (!type) {
            all = bare = 1;
            KN_TRY(match_all(fe, h, id));
            kn_kir_br(&fe->b, span_of(fe, h), body);
        } else {
            Val m = clause_match(fe, h, type, id, &all);
            if (!m)
                return -1;
            KnBlock *rest = kn_kir_block_new(&fe->b);
            kn_kir_cbr(&fe->b, span_of(fe, h), m, body, rest);
            kn_kir_set_block(&fe->b, body);
            KN_TRY(handler_body(fe, h, id, next));
            kn_kir_set_block(&fe->b, rest);
            continue;
        }
        kn_kir_set_block(&fe->b, body);
        KN_TRY(handler_body(fe, h, id, next));
    }
    if (!bare) /* nothing matched (after `except BaseException` never): the outer handler */
        emit_reraise(fe, node, 0);
    return 0;
}

static Py_ssize_t
len_of(PyObject *list)
{
    return list ? PyList_GET_SIZE(list) : 0;
}

int
kn_fe_try_stmt(FE *fe, PyObject *node)
{
    struct KnFeExc *x = state(fe);
    if (x->ntries == MAX_TRIES) {
        UNSUPPORTED(fe, node, "try statements nested more than %d deep are not supported",
                    MAX_TRIES);
        return -1;
    }
    KnSpan sp = span_of(fe, node);
    PyObject *hs = A(node, "handlers"), *fin = A(node, "finalbody"), *orelse = A(node, "orelse");
    int has_fin = len_of(fin) > 0, has_h = len_of(hs) > 0;
    KnBlock *outer = fe->b.unwind;
    int id = ++x->next_id;
    KnBlock *after = kn_kir_block_new(&fe->b); /* made under the outer target */
    KnBlock *normal = has_fin ? kn_kir_block_new(&fe->b) : after;
    KnBlock *funw = has_fin ? kn_kir_block_new(&fe->b) : NULL;
    KnBlock *inner = has_fin ? funw : outer; /* protects the except clauses and else */
    fe->b.unwind = inner;
    KnBlock *hblk = has_h ? kn_kir_block_new(&fe->b) : NULL;
    x->tries[x->ntries++] = (TryCtx){id, has_fin ? fin : NULL, outer, fe->nloops};
    set_unwind(fe, sp, has_h ? hblk : funw);
    int rc = kn_fe_stmts(fe, A(node, "body"));
    set_unwind(fe, sp, inner);
    if (rc == 0 && len_of(orelse))
        rc = kn_fe_stmts(fe, orelse);
    kn_kir_br(&fe->b, sp, normal);
    if (rc == 0 && has_h) {
        kn_kir_set_block(&fe->b, hblk);
        rc = handlers(fe, node, hs, id, normal);
    }
    x->ntries--;
    fe->b.unwind = outer;
    if (rc == 0 && has_fin) {
        kn_kir_set_block(&fe->b, normal);
        rc = kn_fe_stmts(fe, fin);
        kn_kir_br(&fe->b, sp, after);
        kn_kir_set_block(&fe->b, funw); /* an exception on its way out: saved, finally, again */
        if (rc == 0)
            rc = match_all(fe, node, id);
        if (rc == 0 && x->nhandlers < MAX_TRIES) {
            x->handlers[x->nhandlers++] = (Handler){id, NULL};
            rc = kn_fe_stmts(fe, fin);
            x->nhandlers--;
        }
        emit_reraise(fe, node, id);
    }
    kn_kir_set_block(&fe->b, after);
    return rc;
}
