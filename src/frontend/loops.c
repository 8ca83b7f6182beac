/* loops.c - while and for loops -> KIR.
 *
 * Input: an ast While or For node; output: the loop's blocks. Every for goes through the
 * iterator protocol: GETITER makes an iterator before the loop, and the loop's head is an
 * ITERNEXT whose value, the next item, the body binds to the target first (docs/kir.md, "The
 * iterator protocol"). A for over range() with a literal step gets a range iterator over its
 * int64 start and stop and the constant step, which lowering makes the counted loop that LLVM
 * can vectorize; any other iterable is kept in a $seq variable and GETITER makes an iterator
 * of it (enumerate() and zip() make one of the iterators of their arguments, nested to any
 * depth). The else clause runs when the loop ends without break. Invariant: break and
 * continue see the innermost loop through the FE's loop stack, which this file pushes and pops
 * around each body. */
#include "frontend/internal.h"

/* Pushes a loop on the FE's loop stack: break goes to brk, continue to cont (the caller pops
 * it with fe->nloops--). Also for generator-driven for loops (generators.c). */
int
kn_fe_push_loop(FE *fe, PyObject *node, KnBlock *brk, KnBlock *cont)
{
    if (fe->nloops == KN_ARRAY_LEN(fe->loops)) {
        UNSUPPORTED(fe, node, "loops nested more than 64 deep are not supported");
        return -1;
    }
    fe->loops[fe->nloops].brk = brk;
    fe->loops[fe->nloops].cont = cont;
    fe->nloops++;
    return 0;
}

/* The loop's else clause runs when the condition fails, not after break. */
static int
loop_tail(FE *fe, PyObject *node, KnBlock *orelse_blk, KnBlock *exit)
{
    kn_kir_set_block(&fe->b, orelse_blk);
    PyObject *orelse = A(node, "orelse");
    if (orelse)
        KN_TRY(kn_fe_stmts(fe, orelse));
    kn_kir_br(&fe->b, span_of(fe, node), exit);
    kn_kir_set_block(&fe->b, exit);
    return 0;
}

/* ---- counted while loops: no Ctrl-C poll (LLVM can then count and vectorize them) ---- */

typedef struct {
    PyObject *name;  /* the counter */
    PyObject *bound; /* a Name bound, or NULL */
    int counter_stores, bound_stores, conts, defs;
} LoopScan;

static void scan_node(LoopScan *s, PyObject *node, int own_loop);

static void
scan_field(LoopScan *s, PyObject *v, int own_loop)
{
    if (PyList_Check(v)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++)
            scan_field(s, PyList_GET_ITEM(v, i), own_loop);
    } else if (PyObject_HasAttrString(v, "_fields")) {
        scan_node(s, v, own_loop);
    }
}

/* Counts, anywhere in a loop body, the bindings of the counter and of a Name bound, the
 * continues of this loop (not those of nested loops' bodies: their else clauses are ours),
 * and nested defs, classes and nonlocal/global statements (which could bind either). */
static void
scan_node(LoopScan *s, PyObject *node, int own_loop)
{
    if (is(node, "FunctionDef") || is(node, "AsyncFunctionDef") || is(node, "ClassDef") ||
        is(node, "Nonlocal") || is(node, "Global")) {
        s->defs++;
        return;
    }
    if (is(node, "Continue") && own_loop)
        s->conts++;
    if (is(node, "Name") && !is(A(node, "ctx"), "Load")) {
        PyObject *id = A(node, "id");
        if (PyUnicode_Compare(id, s->name) == 0)
            s->counter_stores++;
        if (s->bound && PyUnicode_Compare(id, s->bound) == 0)
            s->bound_stores++;
    }
    int loop = is(node, "For") || is(node, "AsyncFor") || is(node, "While");
    PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
    for (Py_ssize_t i = 0; fields && i < PyTuple_Size(fields); i++) {
        PyObject *f = PyTuple_GET_ITEM(fields, i);
        PyObject *v = A(node, PyUnicode_AsUTF8(f));
        if (v)
            scan_field(s, v, loop && !PyUnicode_CompareWithASCIIString(f, "body") ? 0 : own_loop);
    }
    Py_XDECREF(fields);
    PyErr_Clear();
}

/* An int constant (or its negation) that fits int64. */
static int
is_int_const(PyObject *e)
{
    if (is(e, "UnaryOp") && is(A(e, "op"), "USub"))
        e = A(e, "operand");
    PyObject *k = is(e, "Constant") ? A(e, "value") : NULL;
    int overflow = 0;
    if (!k || !PyLong_CheckExact(k))
        return 0;
    PyLong_AsLongLongAndOverflow(k, &overflow);
    PyErr_Clear();
    return !overflow;
}

/* The step of `name += k` / `name -= k` (k a nonzero int constant), or 0. */
static long long
step_of(PyObject *stmt, PyObject *name)
{
    PyObject *t = A(stmt, "target"), *k = A(stmt, "value");
    if (!is(stmt, "AugAssign") || !is(t, "Name") || PyUnicode_Compare(A(t, "id"), name) ||
        !is(k, "Constant") || !PyLong_CheckExact(A(k, "value")))
        return 0;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(A(k, "value"), &overflow);
    PyErr_Clear();
    if (overflow || v == LLONG_MIN)
        return 0;
    return is(A(stmt, "op"), "Add") ? v : is(A(stmt, "op"), "Sub") ? -v : 0;
}

/* `while n > e:` (or >=, <, <=, either side) whose body steps n by a constant towards e in one
 * statement of its own level, binds neither n elsewhere nor a Name e, and has no continue of
 * its own: when typing makes both sides signed ints, the loop ends (LLVM can count it), so it
 * needs no Ctrl-C poll. Returns whether it is one. */
static int
counted_while(PyObject *node)
{
    PyObject *test = A(node, "test"), *body = A(node, "body");
    if (!is(test, "Compare") || PyList_GET_SIZE(A(test, "ops")) != 1)
        return 0;
    PyObject *l = A(test, "left"), *r = PyList_GET_ITEM(A(test, "comparators"), 0);
    PyObject *op = PyList_GET_ITEM(A(test, "ops"), 0);
    int down = is(op, "Gt") || is(op, "GtE"), up = is(op, "Lt") || is(op, "LtE");
    if (!is(l, "Name")) { /* e < n is n > e */
        PyObject *t = l;
        l = r;
        r = t;
        int d = down;
        down = up;
        up = d;
    }
    if (!(down || up) || !is(l, "Name") || !(is_int_const(r) || is(r, "Name")))
        return 0;
    LoopScan s = {A(l, "id"), is(r, "Name") ? A(r, "id") : NULL, 0, 0, 0, 0};
    if (s.bound && PyUnicode_Compare(s.bound, s.name) == 0)
        return 0;
    int steps = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++) {
        long long k = step_of(PyList_GET_ITEM(body, i), s.name);
        steps += down ? k < 0 : k > 0;
    }
    scan_field(&s, body, 1);
    return steps == 1 && s.counter_stores == 1 && !s.bound_stores && !s.conts && !s.defs;
}

int
kn_fe_while_stmt(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    KnBlock *head = kn_kir_block_new(&fe->b), *body = kn_kir_block_new(&fe->b),
            *orelse = kn_kir_block_new(&fe->b), *exit = kn_kir_block_new(&fe->b);
    kn_kir_br(&fe->b, sp, head);
    kn_kir_set_block(&fe->b, head);
    head->polls = 1; /* a loop kiln cannot count: Ctrl-C must be able to stop it */
    KN_TRY(kn_fe_branch(fe, A(node, "test"), sp, body, orelse));
    KnInstr *last = head->instrs.len ? head->instrs.items[head->instrs.len - 1] : NULL;
    if (last && last->op == KN_OP_CBR && last->args[0]->op == KN_OP_TRUTH &&
        last->args[0]->args[0]->op == KN_OP_CMP && counted_while(node))
        head->counted = last->args[0]->args[0]; /* passes/raises.c decides, once typed */
    kn_kir_set_block(&fe->b, body);
    KN_TRY(kn_fe_push_loop(fe, node, exit, head));
    int rc = kn_fe_stmts(fe, A(node, "body"));
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, head);
    return loop_tail(fe, node, orelse, exit);
}

/* ---- the iterator protocol: GETITER before the loop, ITERNEXT at its head ---- */


/* An iterator over a value: the value is kept in a $seq variable first, which holds its
 * reference (an array temporary) for as long as the loop runs. */
static Val
seq_iter(FE *fe, KnSpan sp, Val seqv)
{
    int seq = kn_fe_temp_var(fe, "seq", sp);
    kn_fe_store(fe, sp, seq, seqv);
    Val it = kn_kir_emit1(&fe->b, KN_OP_GETITER, sp, kn_fe_load(fe, sp, seq));
    it->aux = KN_ITER_SEQ;
    return it;
}

/* enumerate(x[, start]) or zip(x, y, ...) (no keywords): an iterator over the iterators of its
 * arguments, evaluated left to right, enumerate's start last; they nest. */
static Val
enumerate_zip_iter(FE *fe, PyObject *call, int is_enumerate)
{
    PyObject *args = A(call, "args");
    KnSpan sp = span_of(fe, call);
    Py_ssize_t n = PyList_GET_SIZE(args);
    if (n < 1 || n > 16 || (is_enumerate && n > 2))
        return UNSUPPORTED(fe, call, "%s() with these arguments is not supported",
                           is_enumerate ? "enumerate" : "zip");
    KnInstr *parts[16];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(args, i);
        parts[i] = is_enumerate && i == 1 ? kn_fe_expr(fe, a) : kn_fe_iter_of(fe, a);
        if (!parts[i])
            return NULL;
    }
    if (is_enumerate && n == 1)
        parts[n++] = kn_fe_const_int(fe, sp, 0, &kn_type_int64); /* enumerate's start */
    Val it = kn_kir_emit(&fe->b, KN_OP_GETITER, sp, (int)n, parts);
    it->aux = is_enumerate ? KN_ITER_ENUMERATE : KN_ITER_ZIP;
    return it;
}

/* The builtin enumerate or zip named by a call's func (a global Name), or -1. */
static int
enumerate_or_zip(FE *fe, PyObject *func)
{
    if (!is(func, "Name") || PySet_Contains(fe->locals, A(func, "id")) != 0) {
        PyErr_Clear();
        return -1;
    }
    PyObject *o = kn_fe_lookup_global(fe, A(func, "id"));
    PyObject *id = o ? PyDict_GetItemWithError(fe->env->builtin_ids, o) : NULL;
    PyErr_Clear();
    int bid = id ? (int)PyLong_AsLong(id) : -1;
    return bid == KN_BI_ENUMERATE || bid == KN_BI_ZIP ? bid : -1;
}

/* The iterator over an argument of enumerate() or zip() (also of iter(), frontend/iter.c). */
Val
kn_fe_iter_of(FE *fe, PyObject *node)
{
    if (is(node, "Call") && !PyList_GET_SIZE(A(node, "keywords"))) {
        int bid = enumerate_or_zip(fe, A(node, "func"));
        if (bid >= 0)
            return kn_fe_expr(fe, A(node, "func"))
                       ? enumerate_zip_iter(fe, node, bid == KN_BI_ENUMERATE)
                       : NULL;
    }
    Val v = kn_fe_expr(fe, node);
    return v ? seq_iter(fe, span_of(fe, node), v) : NULL;
}

/* for target in <it>: the head asks ITERNEXT for the next item; the body binds it first. */
static int
iter_loop(FE *fe, PyObject *node, Val it)
{
    if (!it)
        return -1;
    KnSpan sp = span_of(fe, A(node, "iter"));
    KnBlock *head = kn_kir_block_new(&fe->b), *body = kn_kir_block_new(&fe->b),
            *orelse = kn_kir_block_new(&fe->b), *exit = kn_kir_block_new(&fe->b);
    kn_kir_br(&fe->b, sp, head);
    kn_kir_set_block(&fe->b, head);
    Val item = kn_kir_iternext(&fe->b, sp, it, body, orelse);
    kn_kir_set_block(&fe->b, body);
    KN_TRY(kn_fe_assign_to(fe, A(node, "target"), item));
    KN_TRY(kn_fe_push_loop(fe, node, exit, head));
    int rc = kn_fe_stmts(fe, A(node, "body"));
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, head);
    return loop_tail(fe, node, orelse, exit);
}

/* A literal range step as an int64 constant (the step itself when it is one), or NULL when
 * the step is not a nonzero literal that fits in int64. */
static Val
literal_step(FE *fe, KnSpan sp, Val v)
{
    if (v->op != KN_OP_CONST || !v->type || v->type->kind != KN_TY_INT || !v->imm.i ||
        (!v->type->is_signed && v->imm.i < 0))
        return NULL;
    return v->type == &kn_type_int64 ? v : kn_fe_const_int(fe, sp, v->imm.i, &kn_type_int64);
}

/* range(start, stop, step) with a literal step: a range iterator, the counted loop, over start
 * and stop cast to int64 (docs/kir.md, "Range loops") */
static Val
range_iter(FE *fe, KnSpan sp, Val start, Val stop, Val step)
{
    KnInstr *parts[3];
    parts[0] = kn_kir_emit1(&fe->b, KN_OP_CAST, sp, start);
    parts[1] = kn_kir_emit1(&fe->b, KN_OP_CAST, sp, stop);
    parts[2] = step;
    parts[0]->type = parts[1]->type = &kn_type_int64;
    Val it = kn_kir_emit(&fe->b, KN_OP_GETITER, sp, 3, parts);
    it->aux = KN_ITER_RANGE;
    return it;
}

int
kn_fe_for_over(FE *fe, PyObject *node, Val seqv)
{
    return iter_loop(fe, node, seq_iter(fe, span_of(fe, A(node, "iter")), seqv));
}

int
kn_fe_for_stmt(FE *fe, PyObject *node)
{
    int gen = kn_fe_gen_for(fe, node); /* a generator made here: inlined (generators.c) */
    if (gen != 1)
        return gen;
    PyObject *iter = A(node, "iter");
    KnSpan sp = span_of(fe, iter);
    Val itv = NULL; /* map, filter, ...; an iterator variable: iter.c */
    int iter_handled, iter_rc = kn_fe_iter_for(fe, node, &iter_handled, &itv);
    if (itv)
        return iter_loop(fe, node, itv);
    if (iter_handled)
        return iter_rc;
    if (kn_fe_is_module_builtin_call(
            fe, iter, KN_BI_LITERAL_UNROLL)) /* numba.literal_unroll(t), kiln.literal_unroll(t) */
        return kn_fe_literal_unroll(fe, node);
    if (is(iter, "Call") &&
        (is(A(iter, "func"), "Name") || kn_fe_is_module_builtin_call(fe, iter, KN_BI_PRANGE)) &&
        PyList_GET_SIZE(A(iter, "args")) >= 1 && PyList_GET_SIZE(A(iter, "args")) <= 3 &&
        !PyList_GET_SIZE(A(iter, "keywords"))) {
        Val callee = kn_fe_expr(fe, A(iter, "func"));
        if (!callee)
            return -1;
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            (callee->type->id == KN_BI_RANGE || callee->type->id == KN_BI_PRANGE)) {
            int par = callee->type->id == KN_BI_PRANGE && fe->c->parallel; /* passes/prange.c */
            PyObject *args = A(iter, "args");
            Py_ssize_t n = PyList_GET_SIZE(args);
            Val a[3] = {NULL, NULL, NULL};
            for (Py_ssize_t k = 0; k < n; k++)
                if (!(a[k] = kn_fe_expr(fe, PyList_GET_ITEM(args, k))))
                    return -1;
            Val start = n == 1 ? kn_fe_const_int(fe, sp, 0, &kn_type_int64) : a[0];
            Val stop = n == 1 ? a[0] : a[1];
            Val step = n == 3 ? a[2] : kn_fe_const_int(fe, sp, 1, &kn_type_int64);
            Val lit = literal_step(fe, sp, step);
            if (lit) { /* the common case: a counted loop LLVM can vectorize */
                Val it = range_iter(fe, sp, start, stop, lit);
                it->imm.i = par; /* a prange loop to outline */
                return iter_loop(fe, node, it);
            }
            if (par)
                kn_par_note(fe->c, span_of(fe, node), "prange loop", 0,
                            "its step is not an integer literal: it runs serially");
            /* unknown step: iterate over the range object */
            KnInstr *all[4] = {callee, a[0], n > 1 ? a[1] : NULL, n > 2 ? a[2] : NULL};
            return iter_loop(
                fe, node, seq_iter(fe, sp, kn_kir_emit(&fe->b, KN_OP_CALL, sp, (int)n + 1, all)));
        }
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            callee->type->id == KN_BI_LITERAL_UNROLL)
            return kn_fe_literal_unroll(fe, node); /* unroll.c */
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            (callee->type->id == KN_BI_ENUMERATE || callee->type->id == KN_BI_ZIP))
            return iter_loop(fe, node,
                             enumerate_zip_iter(fe, iter, callee->type->id == KN_BI_ENUMERATE));
        /* not range(): fall through to the generic path with the callee already evaluated */
        KnInstr **cargs = NULL;
        PyObject *args = A(iter, "args");
        Py_ssize_t n = PyList_GET_SIZE(args);
        cargs = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
        cargs[0] = callee;
        for (Py_ssize_t k = 0; k < n; k++)
            if (!(cargs[k + 1] = kn_fe_expr(fe, PyList_GET_ITEM(args, k))))
                return -1;
        return iter_loop(fe, node,
                         seq_iter(fe, sp, kn_kir_emit(&fe->b, KN_OP_CALL, sp, (int)n + 1, cargs)));
    }
    /* zip() of more than three iterables, or of nested enumerate()/zip() */
    if (is(iter, "Call") && !PyList_GET_SIZE(A(iter, "keywords"))) {
        int bid = enumerate_or_zip(fe, A(iter, "func"));
        if (bid >= 0)
            return iter_loop(fe, node, kn_fe_iter_of(fe, iter));
    }
    Val seqv = kn_fe_expr(fe, iter);
    if (!seqv)
        return -1;
    return iter_loop(fe, node, seq_iter(fe, sp, seqv));
}
