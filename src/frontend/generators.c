/* generators.c - generators consumed where they are made, inlined into their consumer -> KIR.
 *
 * A generator expression `(e for t in it if c)`, or a call of a jitted generator function
 * `gen(a, b)`, that is consumed at once by a `for` loop (directly or through enumerate() or as
 * zip()'s first argument), or by sum/min/max/any/all/list/sorted or str.join, compiles to no
 * generator at all: the generator's body is emitted in the consumer's function and each `yield v`
 * is replaced by the consumer's step (the loop body with its target bound to v, an accumulation, an
 * append). The consumer's `break` leaves the generator's loops (its LoopCtx is pushed at the yield,
 * above the generator's own loops), `continue` resumes after the yield, the generator's `return` or
 * end goes to the consumer's stop block (a for's `else`, then its exit). So LLVM sees one loop
 * nest, as if written by hand (ANCHORS.md §7.3).
 *
 * Scopes: a generator function's body is walked with that function's globals, closure cells
 * and locals (FeScope), its locals renamed `name$gN` (kiln._support.inline_generator) so they
 * cannot meet the consumer's variables; at each yield the consumer's scope is put back while
 * its step is emitted, then the generator's again. A generator expression keeps the enclosing
 * scope (its targets renamed as a list comprehension's, kiln._support.genexp_loop).
 *
 * Not here: a generator that escapes (returned, stored in a variable, passed, called from the
 * interpreter) needs a resumable frame, which kiln does not have yet: those are UnsupportedError
 * at the call or the expression. A generator with try, `yield from` and the value of a yield
 * (send()) are refused at their position. Recursion is refused past KN_GEN_MAX_DEPTH. */
#include "frontend/internal.h"

#define KN_GEN_MAX_DEPTH 8

typedef struct FeScope {
    PyObject *func, *globals, *builtins, *closure, *locals;
    int line_off, col_off;
    void *gen;
} FeScope;

typedef struct GenSink GenSink;
/* One item from the generator: emit the consumer's step for v; the builder's current block
 * afterwards is where the generator resumes (NULL when the step ended in a terminator). */
typedef int (*GenTake)(FE *fe, GenSink *s, Val v);

struct GenSink {
    GenTake take;
    KnBlock *stop;    /* where the iteration goes once the generator is exhausted */
    PyObject *where;  /* the consumer's node, for spans */
    GenSink *inner;   /* enumerate/zip: the sink they feed */
    PyObject *target; /* for: the loop's target and body; exit is its break target */
    PyObject *body;
    KnBlock *exit;
    int var, flag; /* enumerate's counter; a reduction's accumulator and its "seen" flag */
    int kind;      /* a reduction's builtin */
    Val *iters;    /* zip: the iterators of its other arguments */
    int niters;
};

typedef struct GenCtx {
    GenSink *sink;
    FeScope outer; /* the consumer's scope, put back at each yield */
    int depth;
} GenCtx;

static void
scope_save(FE *fe, FeScope *s)
{
    s->func = fe->func;
    s->globals = fe->globals;
    s->builtins = fe->builtins;
    s->closure = fe->closure;
    s->locals = fe->locals;
    s->line_off = fe->line_off;
    s->col_off = fe->col_off;
    s->gen = fe->gen;
}

static void
scope_set(FE *fe, const FeScope *s)
{
    fe->func = s->func;
    fe->globals = s->globals;
    fe->builtins = s->builtins;
    fe->closure = s->closure;
    fe->locals = s->locals;
    fe->line_off = s->line_off;
    fe->col_off = s->col_off;
    fe->gen = s->gen;
}

static int
depth_of(FE *fe)
{
    return fe->gen ? ((GenCtx *)fe->gen)->depth : 0;
}

static KnSpan
sink_span(FE *fe, GenSink *s)
{
    return span_of(fe, s->where);
}

/* ---- what is inlinable ---- */

static PyObject *
builtin_named(const char *name)
{
    return PyDict_GetItemString(PyEval_GetBuiltins(), name);
}

/* The object a call's func names when it is a global Name (not a local), or NULL. */
static PyObject *
callee_object(FE *fe, PyObject *call)
{
    PyObject *f = A(call, "func");
    if (!is(f, "Name"))
        return NULL;
    int r = PySet_Contains(fe->locals, A(f, "id"));
    if (r != 0) {
        PyErr_Clear();
        return NULL;
    }
    return kn_fe_lookup_global(fe, A(f, "id"));
}

/* A kiln dispatcher whose Python function is a generator function. */
static int
is_generator_dispatcher(FE *fe, PyObject *o)
{
    if (!o || (PyObject *)Py_TYPE(o) != fe->env->dispatcher_type)
        return 0;
    PyObject *pyf = PyObject_GetAttrString(o, "py_func");
    PyObject *code = pyf ? PyObject_GetAttrString(pyf, "__code__") : NULL;
    int gen = code && PyCode_Check(code) && (((PyCodeObject *)code)->co_flags & CO_GENERATOR);
    Py_XDECREF(pyf);
    Py_XDECREF(code);
    PyErr_Clear();
    return gen;
}

static int
no_keywords(PyObject *call)
{
    PyObject *k = A(call, "keywords");
    return !k || !PyList_GET_SIZE(k);
}

/* A generator made where it is consumed: a generator expression, a call of a jitted generator
 * function, enumerate() of one, or zip() whose first argument is one. */
static int
inlinable(FE *fe, PyObject *node)
{
    if (is(node, "GeneratorExp"))
        return 1;
    if (!is(node, "Call"))
        return 0;
    PyObject *o = callee_object(fe, node);
    if (is_generator_dispatcher(fe, o))
        return 1;
    PyObject *args = A(node, "args");
    Py_ssize_t n = args ? PyList_GET_SIZE(args) : 0;
    if (!o || !no_keywords(node) || n < 1)
        return 0;
    if ((o == builtin_named("enumerate") && n <= 2) || (o == builtin_named("zip") && n <= 16))
        return inlinable(fe, PyList_GET_ITEM(args, 0));
    return 0;
}

/* ---- emitting a generator with a sink ---- */

static int emit_gen(FE *fe, PyObject *node, GenSink *sink);

/* `yield v` (a statement) inside a generator being inlined: the consumer's step, emitted in the
 * consumer's scope. */
int
kn_fe_yield_stmt(FE *fe, PyObject *stmt)
{
    PyObject *y = A(stmt, "value");
    GenCtx *ctx = fe->gen;
    PyObject *vn = A(y, "value");
    Val v;
    if (vn) {
        if (!(v = kn_fe_expr(fe, vn)))
            return -1;
    } else {
        v = emit(fe, KN_OP_CONST, y, 0, NULL);
        v->type = &kn_type_none;
    }
    if (!ctx) { /* the generator function compiled itself: YIELD, then where it resumes */
        emit(fe, KN_OP_YIELD, y, 1, &v);
        KnBlock *resume = kn_kir_block_new(&fe->b);
        kn_kir_br(&fe->b, span_of(fe, y), resume);
        kn_kir_set_block(&fe->b, resume);
        return 0;
    }
    FeScope here;
    scope_save(fe, &here);
    scope_set(fe, &ctx->outer);
    int rc = ctx->sink->take(fe, ctx->sink, v);
    scope_set(fe, &here);
    return rc;
}

/* `return` inside a generator being inlined: the generator is exhausted. Its value (kept by
 * StopIteration, which no consumer here reads) is evaluated and dropped. */
int
kn_fe_gen_return(FE *fe, PyObject *node)
{
    GenCtx *ctx = fe->gen;
    PyObject *vn = A(node, "value");
    if (vn && !kn_fe_expr(fe, vn))
        return -1;
    if (!ctx) { /* the generator function compiled itself: it is exhausted */
        Val none = emit(fe, KN_OP_CONST, node, 0, NULL);
        none->type = &kn_type_none;
        emit(fe, KN_OP_RET, node, 1, &none);
        return 0;
    }
    kn_kir_br(&fe->b, span_of(fe, node), ctx->sink->stop);
    return 0;
}

/* A generator function compiled on its own: -1 with a diagnostic at the first form kiln does
 * not compile in one (kiln._support.generator_refusal). */
int
kn_fe_gen_refuse(FE *fe, PyObject *def)
{
    PyObject *bad = PyObject_CallMethod(fe->env->support, "generator_refusal", "Os", def,
                                        "kiln compiles generators as resumable frames");
    if (!bad)
        return -1;
    int rc = 0;
    if (bad != Py_None) {
        kn_fe_fail(fe, PyTuple_GET_ITEM(bad, 0), KN_DIAG_UNSUPPORTED, "%s",
                   kn_fe_str_of(fe, PyTuple_GET_ITEM(bad, 1)));
        rc = -1;
    }
    Py_DECREF(bad);
    return rc;
}

/* The statement of a generator expression, walked in the current scope with a GenCtx whose
 * outer scope is that same scope. */
static int
emit_genexp(FE *fe, PyObject *node, GenSink *sink)
{
    int serial = fe->ntemps++;
    PyObject *r = PyObject_CallMethod(fe->env->support, "genexp_loop", "Oi", node, serial);
    if (!r) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "this generator expression is not supported");
        return -1;
    }
    PyObject *loop = PyTuple_GET_ITEM(r, 0), *names = PyTuple_GET_ITEM(r, 1);
    int ok = PyList_Append(fe->env->keepalive, r) == 0; /* spans and names point into it */
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(names); i++)
        ok = PySet_Add(fe->locals, PyList_GET_ITEM(names, i)) == 0;
    Py_DECREF(r);
    if (!ok) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "this generator expression is not supported");
        return -1;
    }
    GenCtx ctx = {.sink = sink, .depth = depth_of(fe) + 1};
    scope_save(fe, &ctx.outer);
    fe->gen = &ctx;
    int rc = kn_fe_for_stmt(fe, loop);
    fe->gen = ctx.outer.gen;
    KN_TRY(rc);
    kn_kir_br(&fe->b, span_of(fe, node), sink->stop);
    return 0;
}

/* A generator function's scope: its globals, builtins, closure cells and renamed locals. */
static int
enter_function(FE *fe, PyObject *pyf, PyObject *locals, int line_off, int col_off)
{
    fe->func = pyf;
    fe->globals = PyFunction_GET_GLOBALS(pyf);
    fe->builtins = PyDict_GetItemString(fe->globals, "__builtins__");
    if (!fe->builtins)
        fe->builtins = PyEval_GetBuiltins();
    fe->locals = locals;
    fe->line_off = line_off;
    fe->col_off = col_off;
    return kn_fe_setup_closure(fe);
}

/* gen(args...) of a jitted generator function: the arguments bound in the consumer's scope
 * (keywords and defaults as for any jitted call), stored to the renamed parameters, then the
 * body walked in the generator's scope. */
static int
emit_gen_call(FE *fe, PyObject *call, PyObject *disp, GenSink *sink)
{
    if (depth_of(fe) >= KN_GEN_MAX_DEPTH) {
        UNSUPPORTED(fe, call,
                    "generators nested more than %d deep (a recursive generator) are not "
                    "supported: kiln inlines generators into their consumer",
                    KN_GEN_MAX_DEPTH);
        return -1;
    }
    KnInstr **vals = NULL;
    int n = 0;
    KN_TRY(kn_fe_bind_call_args(fe, call, disp, &vals, &n));
    PyObject *pyf = PyObject_GetAttrString(disp, "py_func");
    PyObject *r =
        pyf ? PyObject_CallMethod(fe->env->support, "inline_generator", "Oi", pyf, fe->ntemps++)
            : NULL;
    if (!r) {
        Py_XDECREF(pyf);
        if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_Exception))
            return -1;
        PyErr_Clear();
        UNSUPPORTED(fe, call, "cannot read the definition of this generator function");
        return -1;
    }
    int rc = -1;
    PyObject *info = PyTuple_GET_ITEM(r, 0), *params = PyTuple_GET_ITEM(r, 1);
    PyObject *lnames = PyTuple_GET_ITEM(r, 2), *bad = PyTuple_GET_ITEM(r, 3);
    PyObject *locals = NULL;
    FeScope consumer;
    scope_save(fe, &consumer);
    int first_line = (int)PyLong_AsLong(PyTuple_GET_ITEM(info, 2));
    int col = (int)PyLong_AsLong(PyTuple_GET_ITEM(info, 3));
    PyObject *def = PyTuple_GET_ITEM(info, 4);
    if (PyList_Append(fe->env->keepalive, r) < 0)
        goto out;
    if (bad != Py_None) { /* at the form's position in the generator */
        fe->line_off = first_line - 1;
        fe->col_off = col;
        kn_fe_fail(fe, PyTuple_GET_ITEM(bad, 0), KN_DIAG_UNSUPPORTED, "%s",
                   kn_fe_str_of(fe, PyTuple_GET_ITEM(bad, 1)));
        goto out;
    }
    if (PyList_GET_SIZE(params) != n) {
        UNSUPPORTED(fe, call, "this generator function's parameters are not supported");
        goto out;
    }
    /* the arguments, in the consumer's scope, to the renamed parameters */
    KnSpan sp = span_of(fe, call);
    for (int i = 0; i < n; i++)
        kn_fe_store(fe, sp, kn_fe_local_var(fe, kn_fe_str_of(fe, PyList_GET_ITEM(params, i)), sp),
                    vals[i]);
    locals = PySet_New(lnames);
    if (!locals || enter_function(fe, pyf, locals, first_line - 1, col) < 0)
        goto out;
    GenCtx ctx = {.sink = sink, .outer = consumer, .depth = depth_of(fe) + 1};
    fe->gen = &ctx;
    rc = kn_fe_stmts(fe, A(def, "body"));
    if (rc == 0)
        kn_kir_br(&fe->b, fe->b.fn->span, sink->stop); /* falling off the end */
    Py_XDECREF(fe->closure);
out:
    scope_set(fe, &consumer);
    Py_XDECREF(locals);
    Py_XDECREF(pyf);
    Py_DECREF(r);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        if (!fe->c->diags.items.len)
            UNSUPPORTED(fe, call, "cannot inline this generator");
        rc = -1;
    }
    return rc;
}

/* enumerate(g, start): the counter, then (count, v) to the inner sink */
static int
take_enumerate(FE *fe, GenSink *s, Val v)
{
    KnSpan sp = sink_span(fe, s);
    Val count = kn_fe_load(fe, sp, s->var);
    KnInstr *pair[2] = {count, v};
    Val t = kn_kir_emit(&fe->b, KN_OP_TUPLE, sp, 2, pair);
    Val one = kn_fe_const_int(fe, sp, 1, &kn_type_int64);
    Val next = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, kn_fe_load(fe, sp, s->var), one);
    next->aux = KN_BIN_ADD;
    kn_fe_store(fe, sp, s->var, next);
    return s->inner->take(fe, s->inner, t);
}

/* zip(g, x, ...): the next item of each other iterator (the zip stops at the first exhausted),
 * then the tuple to the inner sink */
static int
take_zip(FE *fe, GenSink *s, Val v)
{
    KnSpan sp = sink_span(fe, s);
    int n = s->niters + 1;
    int *vars = kn_arena_alloc(&fe->c->arena, sizeof(int) * (size_t)n);
    vars[0] = kn_fe_temp_var(fe, "zip", sp);
    kn_fe_store(fe, sp, vars[0], v);
    for (int i = 0; i < s->niters; i++) {
        KnBlock *item = kn_kir_block_new(&fe->b);
        Val x = kn_kir_iternext(&fe->b, sp, s->iters[i], item, s->stop);
        kn_kir_set_block(&fe->b, item);
        vars[i + 1] = kn_fe_temp_var(fe, "zip", sp);
        kn_fe_store(fe, sp, vars[i + 1], x);
    }
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)n);
    for (int i = 0; i < n; i++)
        items[i] = kn_fe_load(fe, sp, vars[i]);
    return s->inner->take(fe, s->inner, kn_kir_emit(&fe->b, KN_OP_TUPLE, sp, n, items));
}

static int
emit_gen(FE *fe, PyObject *node, GenSink *sink)
{
    if (is(node, "GeneratorExp"))
        return emit_genexp(fe, node, sink);
    PyObject *o = callee_object(fe, node);
    if (is_generator_dispatcher(fe, o))
        return emit_gen_call(fe, node, o, sink);
    PyObject *args = A(node, "args");
    Py_ssize_t n = PyList_GET_SIZE(args);
    GenSink *w = kn_arena_alloc(&fe->c->arena, sizeof(GenSink));
    memset(w, 0, sizeof *w);
    w->stop = sink->stop;
    w->where = node;
    w->inner = sink;
    KnSpan sp = span_of(fe, node);
    if (o == builtin_named("enumerate")) {
        Val start = n == 2 ? kn_fe_expr(fe, PyList_GET_ITEM(args, 1))
                           : kn_fe_const_int(fe, sp, 0, &kn_type_int64);
        if (!start)
            return -1;
        w->take = take_enumerate;
        w->var = kn_fe_temp_var(fe, "count", sp);
        kn_fe_store(fe, sp, w->var, start);
        return emit_gen(fe, PyList_GET_ITEM(args, 0), w);
    }
    /* zip: the other arguments' iterators first; one of them a generator cannot be inlined */
    w->take = take_zip;
    w->niters = (int)n - 1;
    w->iters = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)n);
    for (Py_ssize_t i = 1; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(args, i);
        if (inlinable(fe, a)) {
            UNSUPPORTED(fe, a,
                        "a generator is supported as zip()'s first argument only (kiln inlines "
                        "one generator into its consumer; two at once need a resumable "
                        "generator, not supported yet)");
            return -1;
        }
        if (!(w->iters[i - 1] = kn_fe_iter_of(fe, a)))
            return -1;
    }
    return emit_gen(fe, PyList_GET_ITEM(args, 0), w);
}

/* ---- consumers: for loops ---- */

/* the for loop's body for one item: continue resumes the generator, break leaves it */
static int
take_for(FE *fe, GenSink *s, Val v)
{
    KnBlock *resume = kn_kir_block_new(&fe->b);
    KN_TRY(kn_fe_assign_to(fe, s->target, v));
    KN_TRY(kn_fe_push_loop(fe, s->where, s->exit, resume));
    int rc = kn_fe_stmts(fe, s->body);
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sink_span(fe, s), resume);
    kn_kir_set_block(&fe->b, resume);
    return 0;
}

int
kn_fe_gen_for(FE *fe, PyObject *node)
{
    PyObject *iter = A(node, "iter");
    if (!inlinable(fe, iter))
        return 1;
    GenSink s;
    memset(&s, 0, sizeof s);
    s.take = take_for;
    s.stop = kn_kir_block_new(&fe->b);
    s.exit = kn_kir_block_new(&fe->b);
    s.where = node;
    s.target = A(node, "target");
    s.body = A(node, "body");
    KN_TRY(emit_gen(fe, iter, &s));
    kn_kir_set_block(&fe->b, s.stop); /* exhausted: the else clause */
    PyObject *orelse = A(node, "orelse");
    if (orelse)
        KN_TRY(kn_fe_stmts(fe, orelse));
    kn_kir_br(&fe->b, span_of(fe, node), s.exit);
    kn_kir_set_block(&fe->b, s.exit);
    return 0;
}

/* ---- consumers: sum, min, max, any, all, list, sorted ---- */

enum { R_SUM, R_MIN, R_MAX, R_ANY, R_ALL, R_LIST, R_SORTED };

static Val
method_call(FE *fe, KnSpan sp, Val self, const char *name, int n, Val *args, int nkw,
            const char **kwnames)
{
    Val m = kn_kir_emit1(&fe->b, KN_OP_GETATTR, sp, self);
    m->imm.str = name;
    Val *all = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)(n + 1));
    all[0] = m;
    for (int i = 0; i < n; i++)
        all[i + 1] = args[i];
    Val call = kn_kir_emit(&fe->b, KN_OP_CALL, sp, n + 1, all);
    call->aux = nkw;
    call->imm.ptr = kwnames ? (void *)kwnames : kn_arena_alloc(&fe->c->arena, sizeof(char *));
    return call;
}

static int
take_reduce(FE *fe, GenSink *s, Val v)
{
    KnSpan sp = sink_span(fe, s);
    switch (s->kind) {
    case R_SUM: {
        Val acc = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, kn_fe_load(fe, sp, s->var), v);
        acc->aux = KN_BIN_ADD;
        kn_fe_store(fe, sp, s->var, acc);
        return 0;
    }
    case R_LIST:
    case R_SORTED:
        method_call(fe, sp, kn_fe_load(fe, sp, s->var), "append", 1, &v, 0, NULL);
        return 0;
    case R_ANY:
    case R_ALL: {
        /* any: the first true item ends it; all: the first false one */
        KnBlock *found = kn_kir_block_new(&fe->b), *resume = kn_kir_block_new(&fe->b);
        Val t = kn_kir_emit1(&fe->b, KN_OP_TRUTH, sp, v);
        int any = s->kind == R_ANY;
        kn_kir_cbr(&fe->b, sp, t, any ? found : resume, any ? resume : found);
        kn_kir_set_block(&fe->b, found);
        kn_fe_store(fe, sp, s->var, kn_fe_const_int(fe, sp, any, &kn_type_bool));
        kn_kir_br(&fe->b, sp, s->exit);
        kn_kir_set_block(&fe->b, resume);
        return 0;
    }
    default: { /* min/max: the first item, then each that is strictly smaller (larger) */
        int item = kn_fe_temp_var(fe, "item", sp);
        kn_fe_store(fe, sp, item, v);
        KnBlock *cmp = kn_kir_block_new(&fe->b), *take = kn_kir_block_new(&fe->b),
                *resume = kn_kir_block_new(&fe->b);
        if (s->flag >= 0) {
            KnBlock *first = kn_kir_block_new(&fe->b);
            Val seen = kn_fe_load(fe, sp, s->flag);
            kn_kir_cbr(&fe->b, sp, kn_kir_emit1(&fe->b, KN_OP_TRUTH, sp, seen), cmp, first);
            kn_kir_set_block(&fe->b, first);
            kn_fe_store(fe, sp, s->flag, kn_fe_const_int(fe, sp, 1, &kn_type_bool));
            kn_kir_br(&fe->b, sp, take);
        } else {
            kn_kir_br(&fe->b, sp, cmp); /* default=: the accumulator starts at the default */
        }
        kn_kir_set_block(&fe->b, cmp);
        Val c = kn_kir_emit2(&fe->b, KN_OP_CMP, sp, kn_fe_load(fe, sp, item),
                             kn_fe_load(fe, sp, s->var));
        c->aux = s->kind == R_MIN ? KN_CMP_LT : KN_CMP_GT;
        kn_kir_cbr(&fe->b, sp, kn_kir_emit1(&fe->b, KN_OP_TRUTH, sp, c), take, resume);
        kn_kir_set_block(&fe->b, take);
        kn_fe_store(fe, sp, s->var, kn_fe_load(fe, sp, item));
        kn_kir_br(&fe->b, sp, resume);
        kn_kir_set_block(&fe->b, resume);
        return 0;
    }
    }
}

static int
reduction_of(PyObject *o)
{
    static const char *names[] = {"sum", "min", "max", "any", "all", "list", "sorted"};
    for (int i = 0; o && i < KN_ARRAY_LEN(names); i++)
        if (o == builtin_named(names[i]))
            return i;
    return -1;
}

/* The keyword `name` of a call, or NULL. */
static PyObject *
keyword(PyObject *call, const char *name)
{
    PyObject *kws = A(call, "keywords");
    for (Py_ssize_t i = 0; kws && i < PyList_GET_SIZE(kws); i++) {
        PyObject *a = A(PyList_GET_ITEM(kws, i), "arg");
        if (a && !PyUnicode_CompareWithASCIIString(a, name))
            return A(PyList_GET_ITEM(kws, i), "value");
    }
    return NULL;
}

/* Only the keywords a reduction takes here: sum's start, min/max's default, sorted's key and
 * reverse. */
static int
keywords_ok(FE *fe, PyObject *call, int kind)
{
    PyObject *kws = A(call, "keywords");
    for (Py_ssize_t i = 0; kws && i < PyList_GET_SIZE(kws); i++) {
        PyObject *kw = PyList_GET_ITEM(kws, i), *a = A(kw, "arg");
        const char *nm = a ? PyUnicode_AsUTF8(a) : NULL;
        int ok = nm && ((kind == R_SUM && !strcmp(nm, "start")) ||
                        ((kind == R_MIN || kind == R_MAX) && !strcmp(nm, "default")) ||
                        (kind == R_SORTED && (!strcmp(nm, "key") || !strcmp(nm, "reverse"))));
        if (!ok) {
            UNSUPPORTED(fe, kw, "%s%s%s= is not supported with a generator argument",
                        nm ? "the keyword " : "**", nm ? nm : "kwargs", nm ? "" : " ");
            return 0;
        }
    }
    return 1;
}

static Val
reduce_call(FE *fe, PyObject *call, int kind)
{
    KnSpan sp = span_of(fe, call);
    PyObject *args = A(call, "args");
    Py_ssize_t n = PyList_GET_SIZE(args);
    if (!keywords_ok(fe, call, kind))
        return NULL;
    if (n > (kind == R_SUM ? 2 : 1))
        return UNSUPPORTED(fe, call, "these arguments are not supported with a generator");
    GenSink s;
    memset(&s, 0, sizeof s);
    s.take = take_reduce;
    s.kind = kind;
    s.where = call;
    s.stop = s.exit = kn_kir_block_new(&fe->b);
    s.flag = -1;
    s.var = kn_fe_temp_var(fe, "acc", sp);
    if (kind == R_SUM) {
        PyObject *st = n == 2 ? PyList_GET_ITEM(args, 1) : keyword(call, "start");
        Val start = st ? kn_fe_expr(fe, st) : kn_fe_const_int(fe, sp, 0, &kn_type_int64);
        if (!start)
            return NULL;
        kn_fe_store(fe, sp, s.var, start);
    } else if (kind == R_ANY || kind == R_ALL) {
        kn_fe_store(fe, sp, s.var, kn_fe_const_int(fe, sp, kind == R_ALL, &kn_type_bool));
    } else if (kind == R_LIST || kind == R_SORTED) {
        kn_fe_store(fe, sp, s.var, emit(fe, KN_OP_BUILD_LIST, call, 0, NULL));
    } else {
        PyObject *d = keyword(call, "default");
        if (d) {
            Val dv = kn_fe_expr(fe, d);
            if (!dv)
                return NULL;
            kn_fe_store(fe, sp, s.var, dv);
        } else {
            s.flag = kn_fe_temp_var(fe, "seen", sp);
            kn_fe_store(fe, sp, s.flag, kn_fe_const_int(fe, sp, 0, &kn_type_bool));
        }
    }
    if (emit_gen(fe, PyList_GET_ITEM(args, 0), &s) < 0)
        return NULL;
    kn_kir_set_block(&fe->b, s.exit);
    if (s.flag >= 0) { /* min/max of nothing, without default= */
        KnBlock *ok = kn_kir_block_new(&fe->b), *empty = kn_kir_block_new(&fe->b);
        Val seen = kn_fe_load(fe, sp, s.flag);
        kn_kir_cbr(&fe->b, sp, kn_kir_emit1(&fe->b, KN_OP_TRUTH, sp, seen), ok, empty);
        kn_kir_set_block(&fe->b, empty);
        PyObject *msg =
            PyUnicode_FromFormat("%s() arg is an empty sequence", kind == R_MIN ? "min" : "max");
        PyObject *eargs = msg ? PyTuple_Pack(1, msg) : NULL;
        int rc = eargs ? kn_fe_raise_with(fe, call, PyExc_ValueError, eargs) : -1;
        Py_XDECREF(msg);
        Py_XDECREF(eargs);
        if (rc < 0) {
            PyErr_Clear();
            return NULL;
        }
        kn_kir_set_block(&fe->b, ok);
    }
    if (kind == R_SORTED) {
        /* sorted(g, key=, reverse=): the list, sorted in place */
        PyObject *kws = A(call, "keywords");
        int nkw = kws ? (int)PyList_GET_SIZE(kws) : 0;
        Val *kv = kn_arena_alloc(&fe->c->arena, sizeof(Val) * (size_t)(nkw + 1));
        const char **names = kn_arena_alloc(&fe->c->arena, sizeof(char *) * (size_t)(nkw + 1));
        for (int k = 0; k < nkw; k++) {
            PyObject *kw = PyList_GET_ITEM(kws, k);
            names[k] = kn_fe_str_of(fe, A(kw, "arg"));
            if (!(kv[k] = kn_fe_expr(fe, A(kw, "value"))))
                return NULL;
        }
        method_call(fe, sp, kn_fe_load(fe, sp, s.var), "sort", nkw, kv, nkw, names);
    }
    return kn_fe_load(fe, sp, s.var);
}

/* A call that consumes a generator made in its argument (sum(x*x for x in a)): *handled 0 for
 * any other call (a jitted generator function called as a value among them: that call makes a
 * frame at run time, lower/generators.c). */
/* sep.join(g): sep first, then the generator into a list, then the join of the list. */
static Val
join_call(FE *fe, PyObject *call)
{
    KnSpan sp = span_of(fe, call);
    Val sep = kn_fe_expr(fe, A(A(call, "func"), "value"));
    if (!sep)
        return NULL;
    int self = kn_fe_temp_var(fe, "sep", sp);
    kn_fe_store(fe, sp, self, sep);
    GenSink s;
    memset(&s, 0, sizeof s);
    s.take = take_reduce;
    s.kind = R_LIST;
    s.where = call;
    s.stop = s.exit = kn_kir_block_new(&fe->b);
    s.flag = -1;
    s.var = kn_fe_temp_var(fe, "acc", sp);
    kn_fe_store(fe, sp, s.var, emit(fe, KN_OP_BUILD_LIST, call, 0, NULL));
    if (emit_gen(fe, PyList_GET_ITEM(A(call, "args"), 0), &s) < 0)
        return NULL;
    kn_kir_set_block(&fe->b, s.exit);
    Val items = kn_fe_load(fe, sp, s.var);
    return method_call(fe, sp, kn_fe_load(fe, sp, self), "join", 1, &items, 0, NULL);
}

Val
kn_fe_gen_call(FE *fe, PyObject *call, int *handled)
{
    *handled = 0;
    PyObject *f = A(call, "func"), *cargs = A(call, "args");
    if (is(f, "Attribute") && !PyUnicode_CompareWithASCIIString(A(f, "attr"), "join") && cargs &&
        PyList_GET_SIZE(cargs) == 1 && no_keywords(call) &&
        inlinable(fe, PyList_GET_ITEM(cargs, 0))) {
        *handled = 1;
        return join_call(fe, call);
    }
    PyObject *o = callee_object(fe, call);
    if (!o)
        return NULL;
    if (is_generator_dispatcher(fe, o))
        return NULL; /* a generator as a value: a call, its frame made at run time */
    int kind = reduction_of(o);
    PyObject *args = A(call, "args");
    if (kind < 0 || !args || PyList_GET_SIZE(args) < 1 || !inlinable(fe, PyList_GET_ITEM(args, 0)))
        return NULL;
    if ((kind == R_MIN || kind == R_MAX) && PyList_GET_SIZE(args) > 1)
        return NULL; /* min(a, b, ...) of values */
    *handled = 1;
    return reduce_call(fe, call, kind);
}

/* A generator expression reached as a value: not consumed where it is made. */
Val
kn_fe_genexp_value(FE *fe, PyObject *node)
{
    return UNSUPPORTED(fe, node,
                       "a generator expression is supported only where it is consumed at "
                       "once: as the iterable of a for loop (also inside enumerate(), or as "
                       "zip()'s first argument) or the argument of sum, min, max, any, all, "
                       "list, sorted or set; storing, passing or returning a generator is not "
                       "supported yet");
}

/* A yield reached as an expression: its value is used (send()). */
Val
kn_fe_yield_value(FE *fe, PyObject *node)
{
    return UNSUPPORTED(fe, node,
                       "the value of a yield expression (generator.send()) is not supported: "
                       "yield may only be a statement");
}
