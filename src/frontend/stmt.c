/* stmt.c - ast statements -> KIR.
 *
 * Input: an ast statement (or a body, a list of them); output: instructions and blocks in the
 * builder, 0 or -1 after a diagnostic. Assignments (unpacking with a checked length, item
 * assignment, augmented assignment in place for arrays), if, return, raise and assert (the
 * exception and its constant arguments entered in the exception table; RAISE carries the
 * index), break and continue (through the FE's loop stack) and the unsupported statements'
 * messages. Loops are in loops.c. Invariant: after a terminator the builder has no current
 * block, and a following statement opens an unreachable one, as CPython compiles dead code. */
#include "frontend/internal.h"

/* ---- statements ---- */

/* v.name = x: a SETITEM marked KN_SETITEM_ATTR, the name a str constant (typing takes it for
 * records only: typing/record.c) */
static int
attr_assign(FE *fe, PyObject *target, Val v, KnSpan sp)
{
    Val base = kn_fe_expr(fe, A(target, "value"));
    if (!base)
        return -1;
    Val name = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
    name->type = &kn_type_str;
    name->imm.str = kn_fe_str_of(fe, A(target, "attr"));
    KnInstr *args[3] = {base, name, v};
    kn_kir_emit(&fe->b, KN_OP_SETITEM, sp, 3, args)->aux = KN_SETITEM_ATTR;
    return 0;
}

int
kn_fe_assign_to(FE *fe, PyObject *target, Val v)
{
    KnSpan sp = span_of(fe, target);
    if (is(target, "Name")) {
        kn_fe_store(fe, sp, kn_fe_local_var(fe, kn_fe_str_of(fe, A(target, "id")), sp), v);
        return 0;
    }
    if (is(target, "Tuple") || is(target, "List")) {
        PyObject *elts = A(target, "elts");
        Py_ssize_t n = PyList_GET_SIZE(elts);
        for (Py_ssize_t i = 0; i < n; i++)
            if (is(PyList_GET_ITEM(elts, i), "Starred"))
                return kn_fe_starred_assign(fe, target, v); /* a, *b = v: iter.c */
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *e = PyList_GET_ITEM(elts, i);
            Val idx = kn_fe_const_int(fe, sp, i, &kn_type_int64);
            Val item = kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, v, idx);
            item->aux = (int)n; /* unpacking: typing checks the length */
            KN_TRY(kn_fe_assign_to(fe, e, item));
        }
        return 0;
    }
    if (is(target, "Subscript")) {
        Val base = kn_fe_expr(fe, A(target, "value"));
        Val idx = base ? kn_fe_index_expr(fe, A(target, "slice")) : NULL;
        if (!idx)
            return -1;
        KnInstr *args[3] = {base, idx, v};
        kn_kir_emit(&fe->b, KN_OP_SETITEM, sp, 3, args);
        return 0;
    }
    if (is(target, "Attribute"))
        return attr_assign(fe, target, v, sp);
    UNSUPPORTED(fe, target, "assignment to %s is not supported", kind(target));
    return -1;
}

static int
assign(FE *fe, PyObject *node)
{
    int iter_handled, iter_rc = kn_fe_iterator_assign(fe, node, &iter_handled); /* iter.c */
    if (iter_handled)
        return iter_rc;
    Val v = kn_fe_expr(fe, A(node, "value"));
    if (!v)
        return -1;
    PyObject *targets = A(node, "targets");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(targets); i++)
        KN_TRY(kn_fe_assign_to(fe, PyList_GET_ITEM(targets, i), v));
    return kn_fe_note_lambda(fe, node); /* f = lambda ...: functions.c */
}

static int
augassign(FE *fe, PyObject *node)
{
    PyObject *target = A(node, "target"), *opn = A(node, "op");
    int op = kn_fe_binop_of(opn);
    if (op < 0) {
        UNSUPPORTED(fe, node, "operator %s is not supported", kind(opn));
        return -1;
    }
    if (is(target, "Subscript")) {
        /* a[i] += v: the base and the index are evaluated once */
        KnSpan sp = span_of(fe, target);
        Val base = kn_fe_expr(fe, A(target, "value"));
        Val idx = base ? kn_fe_index_expr(fe, A(target, "slice")) : NULL;
        Val cur = idx ? kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, base, idx) : NULL;
        Val r = cur ? kn_fe_expr(fe, A(node, "value")) : NULL;
        if (!r)
            return -1;
        Val in = kn_kir_emit2(&fe->b, KN_OP_BINOP, span_of(fe, node), cur, r);
        in->aux = op;
        KnInstr *args[3] = {base, idx, in};
        kn_kir_emit(&fe->b, KN_OP_SETITEM, sp, 3, args);
        return 0;
    }
    if (is(target, "Attribute")) {
        /* r.x += v: the base is evaluated once (records: typing/record.c) */
        KnSpan sp = span_of(fe, target);
        Val base = kn_fe_expr(fe, A(target, "value"));
        if (!base)
            return -1;
        Val cur = kn_kir_emit1(&fe->b, KN_OP_GETATTR, sp, base);
        cur->imm.str = kn_fe_str_of(fe, A(target, "attr"));
        Val r = kn_fe_expr(fe, A(node, "value"));
        if (!r)
            return -1;
        Val in = kn_kir_emit2(&fe->b, KN_OP_BINOP, span_of(fe, node), cur, r);
        in->aux = op;
        Val name = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        name->type = &kn_type_str;
        name->imm.str = cur->imm.str;
        KnInstr *args[3] = {base, name, in};
        kn_kir_emit(&fe->b, KN_OP_SETITEM, sp, 3, args)->aux = KN_SETITEM_ATTR;
        return 0;
    }
    if (!is(target, "Name")) {
        UNSUPPORTED(fe, target, "augmented assignment to %s is not supported", kind(target));
        return -1;
    }
    Val cur = kn_fe_name_load(fe, target);
    if (!cur)
        return -1;
    Val r = kn_fe_expr(fe, A(node, "value"));
    if (!r)
        return -1;
    Val in = kn_kir_emit2(&fe->b, KN_OP_BINOP, span_of(fe, node), cur, r);
    in->aux = op;
    in->imm.i = 1; /* augmented: arrays are updated in place */
    return kn_fe_assign_to(fe, target, in);
}

/* Branch on a condition; a constant one (while True:) branches statically, so that the other
 * side is unreachable, as CPython's compiler sees it. */
int
kn_fe_branch(FE *fe, PyObject *test, KnSpan sp, KnBlock *t, KnBlock *f)
{
    PyObject *k = is(test, "Constant") ? A(test, "value") : NULL;
    if (k && (PyBool_Check(k) || PyLong_Check(k))) {
        kn_kir_br(&fe->b, sp, PyObject_IsTrue(k) ? t : f);
        return 0;
    }
    Val c = kn_fe_expr(fe, test);
    if (!c)
        return -1;
    Val truth = kn_kir_emit1(&fe->b, KN_OP_TRUTH, c->span, c);
    kn_kir_cbr(&fe->b, sp, truth, t, f);
    return 0;
}

static int
if_stmt(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    KnBlock *bt = kn_kir_block_new(&fe->b), *bf = kn_kir_block_new(&fe->b),
            *done = kn_kir_block_new(&fe->b);
    KN_TRY(kn_fe_branch(fe, A(node, "test"), sp, bt, bf));
    kn_kir_set_block(&fe->b, bt);
    KN_TRY(kn_fe_stmts(fe, A(node, "body")));
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, bf);
    PyObject *orelse = A(node, "orelse");
    if (orelse)
        KN_TRY(kn_fe_stmts(fe, orelse));
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, done);
    return 0;
}

static int
return_stmt(FE *fe, PyObject *node)
{
    PyObject *vn = A(node, "value");
    Val v;
    if (vn) {
        v = kn_fe_expr(fe, vn);
        if (!v)
            return -1;
    } else {
        v = emit(fe, KN_OP_CONST, node, 0, NULL);
        v->type = &kn_type_none;
    }
    if (!(v = kn_fe_exc_return(fe, node, v))) /* finally bodies on the way out (try.c) */
        return -1;
    emit(fe, KN_OP_RET, node, 1, &v);
    return 0;
}

static int
assert_stmt(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    Val c = kn_fe_expr(fe, A(node, "test"));
    if (!c)
        return -1;
    Val t = kn_kir_emit1(&fe->b, KN_OP_TRUTH, c->span, c);
    KnBlock *ok = kn_kir_block_new(&fe->b), *bad = kn_kir_block_new(&fe->b);
    kn_kir_cbr(&fe->b, sp, t, ok, bad);
    kn_kir_set_block(&fe->b, bad);
    PyObject *msgnode = A(node, "msg");
    PyObject *args;
    if (msgnode) {
        PyObject *m = kn_fe_const_eval(fe, msgnode);
        if (!m) {
            UNSUPPORTED(fe, msgnode, "the message of an assert must be a constant");
            return -1;
        }
        args = PyTuple_Pack(1, m);
        Py_DECREF(m);
    } else {
        args = PyTuple_New(0);
    }
    int rc = kn_fe_raise_with(fe, node, PyExc_AssertionError, args);
    Py_DECREF(args);
    kn_kir_set_block(&fe->b, ok);
    return rc;
}

/* del v[i], del v[a:b]: a call of the container's __delitem__ method (lib/list.def) */
static int
del_stmt(FE *fe, PyObject *node)
{
    PyObject *targets = A(node, "targets");
    for (Py_ssize_t i = 0; targets && i < PyList_GET_SIZE(targets); i++) {
        PyObject *t = PyList_GET_ITEM(targets, i);
        if (!is(t, "Subscript")) {
            UNSUPPORTED(fe, node, "del of a %s is not supported (only del x[i] and del x[a:b])",
                        is(t, "Name") ? "variable" : kind(t));
            return -1;
        }
        KnSpan sp = span_of(fe, t);
        Val v = kn_fe_expr(fe, A(t, "value"));
        if (!v)
            return -1;
        Val idx = kn_fe_index_expr(fe, A(t, "slice"));
        if (!idx)
            return -1;
        Val m = kn_kir_emit1(&fe->b, KN_OP_GETATTR, sp, v);
        m->imm.str = "__delitem__";
        Val *args = kn_arena_alloc(&fe->c->arena, sizeof(Val) * 2);
        args[0] = m;
        args[1] = idx;
        Val call = kn_kir_emit(&fe->b, KN_OP_CALL, sp, 2, args);
        call->aux = 0;
        call->imm.ptr = kn_arena_alloc(&fe->c->arena, sizeof(char *));
    }
    return 0;
}

static int
stmt(FE *fe, PyObject *node)
{
    const char *k = kind(node);
    if (!fe->b.cur) {
        /* unreachable code after return/break/raise: Python compiles it, so do we, elsewhere */
        KnBlock *dead = kn_kir_block_new(&fe->b);
        kn_kir_set_block(&fe->b, dead);
    }
    if (!strcmp(k, "Assign"))
        return assign(fe, node);
    if (!strcmp(k, "AugAssign"))
        return augassign(fe, node);
    if (!strcmp(k, "AnnAssign")) {
        PyObject *v = A(node, "value");
        if (!v)
            return 0;
        Val val = kn_fe_expr(fe, v);
        return val ? kn_fe_assign_to(fe, A(node, "target"), val) : -1;
    }
    if (!strcmp(k, "Expr")) {
        PyObject *v = A(node, "value");
        if (is(v, "Constant"))
            return 0; /* docstrings and bare constants */
        if (is(v, "Yield"))
            return kn_fe_yield_stmt(fe, node); /* generators.c */
        return kn_fe_expr(fe, v) ? 0 : -1;
    }
    if (!strcmp(k, "If"))
        return if_stmt(fe, node);
    if (!strcmp(k, "While"))
        return kn_fe_while_stmt(fe, node);
    if (!strcmp(k, "For"))
        return kn_fe_for_stmt(fe, node);
    if (!strcmp(k, "Return"))
        return fe->gen || fe->b.fn->is_generator ? kn_fe_gen_return(fe, node)
                                                 : return_stmt(fe, node);
    if (!strcmp(k, "Pass"))
        return 0;
    if (!strcmp(k, "Break") || !strcmp(k, "Continue")) {
        if (!fe->nloops) {
            UNSUPPORTED(fe, node, "'%s' outside a loop", k[0] == 'B' ? "break" : "continue");
            return -1;
        }
        KN_TRY(kn_fe_exc_leave_loop(fe, node)); /* finally bodies on the way out (try.c) */
        LoopCtx *l = &fe->loops[fe->nloops - 1];
        kn_kir_br(&fe->b, span_of(fe, node), k[0] == 'B' ? l->brk : l->cont);
        return 0;
    }
    if (!strcmp(k, "Raise"))
        return kn_fe_raise_stmt(fe, node);
    if (!strcmp(k, "Try"))
        return kn_fe_try_stmt(fe, node);
    if (!strcmp(k, "With") || !strcmp(k, "AsyncWith")) {
        UNSUPPORTED(fe, node,
                    "%s statements are not supported in compiled code (objmode, "
                    "which 'with' will need, is not implemented yet)",
                    k[0] == 'W' ? "with" : "async with");
        return -1;
    }
    if (!strcmp(k, "Delete"))
        return del_stmt(fe, node);
    if (!strcmp(k, "Assert"))
        return assert_stmt(fe, node);
    if (!strcmp(k, "Global") || !strcmp(k, "Nonlocal"))
        return kn_fe_global_stmt(fe, node); /* reads only: iter.c */
    if (!strcmp(k, "FunctionDef"))
        return kn_fe_def_stmt(fe, node); /* an inner function: functions.c */
    static const struct {
        const char *kind, *what;
    } names[] = {
        {"TryStar", "try/except*"},
        {"ClassDef", "class definitions inside jitted functions"},
        {"FunctionDef", "function definitions inside jitted functions"},
        {"AsyncFunctionDef", "async functions"},
        {"AsyncFor", "async for"},
        {"Global", "the global statement"},
        {"Nonlocal", "the nonlocal statement"},
        {"Import", "import inside jitted functions"},
        {"ImportFrom", "import inside jitted functions"},
        {"Match", "match statements"},
    };
    for (int i = 0; i < KN_ARRAY_LEN(names); i++)
        if (!strcmp(k, names[i].kind)) {
            UNSUPPORTED(fe, node, "%s %s not supported", names[i].what,
                        names[i].what[strlen(names[i].what) - 1] == 's' ? "are" : "is");
            return -1;
        }
    UNSUPPORTED(fe, node, "statement %s is not supported", k);
    return -1;
}

int
kn_fe_stmts(FE *fe, PyObject *body)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++)
        KN_TRY(stmt(fe, PyList_GET_ITEM(body, i)));
    return 0;
}
