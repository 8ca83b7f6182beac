/* loops.c - while and for loops -> KIR.
 *
 * Input: an ast While or For node; output: the loop's blocks (head, body, latch, else, exit).
 * A for over range() with a constant-sign step is a counted loop on int64 that LLVM can
 * vectorize; enumerate() and zip() count to the shortest sequence; anything else (a tuple, a
 * range object, an array) indexes the sequence up to its len(). The else clause runs when the
 * loop ends without break. Invariant: break and continue see the innermost loop through the
 * FE's loop stack, which this file pushes and pops around each body. */
#include "frontend/internal.h"

static int
push_loop(FE *fe, PyObject *node, KnBlock *brk, KnBlock *cont)
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
    kn_kir_set_block(&fe->b, body);
    KN_TRY(push_loop(fe, node, exit, head));
    int rc = kn_fe_stmts(fe, A(node, "body"));
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, head);
    return loop_tail(fe, node, orelse, exit);
}

/* Emit a counted loop: `var` runs from `start` while (cmp var, stop), stepping by `step`.
 * `bind` is called at the top of the body to assign the loop target. */
typedef int (*BindFn)(FE *fe, PyObject *node, int counter);

static int
counted_loop(FE *fe, PyObject *node, Val start, Val stop, Val step, KnCmp cmp, BindFn bind)
{
    KnSpan sp = span_of(fe, A(node, "iter"));
    int i = kn_fe_temp_var(fe, "i", sp), n = kn_fe_temp_var(fe, "stop", sp),
        s = kn_fe_temp_var(fe, "step", sp);
    kn_fe_store(fe, sp, i, start);
    kn_fe_store(fe, sp, n, stop);
    kn_fe_store(fe, sp, s, step);
    KnBlock *head = kn_kir_block_new(&fe->b), *body = kn_kir_block_new(&fe->b),
            *latch = kn_kir_block_new(&fe->b), *orelse = kn_kir_block_new(&fe->b),
            *exit = kn_kir_block_new(&fe->b);
    kn_kir_br(&fe->b, sp, head);
    kn_kir_set_block(&fe->b, head);
    Val c = kn_kir_emit2(&fe->b, KN_OP_CMP, sp, kn_fe_load(fe, sp, i), kn_fe_load(fe, sp, n));
    c->aux = cmp;
    kn_kir_cbr(&fe->b, sp, c, body, orelse);
    kn_kir_set_block(&fe->b, body);
    KN_TRY(bind(fe, node, i));
    KN_TRY(push_loop(fe, node, exit, latch));
    int rc = kn_fe_stmts(fe, A(node, "body"));
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, latch);
    kn_kir_set_block(&fe->b, latch);
    Val next = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, kn_fe_load(fe, sp, i), kn_fe_load(fe, sp, s));
    next->aux = KN_BIN_ADD;
    kn_fe_store(fe, sp, i, next);
    kn_kir_br(&fe->b, sp, head);
    return loop_tail(fe, node, orelse, exit);
}

static int
bind_counter(FE *fe, PyObject *node, int counter)
{
    KnSpan sp = span_of(fe, A(node, "target"));
    return kn_fe_assign_to(fe, A(node, "target"), kn_fe_load(fe, sp, counter));
}

/* Bind the loop target to seq[counter]. The sequence lives in the $seq variable that for_stmt
 * creates immediately before counted_loop creates the counter, hence `counter - 1`. */
static int
bind_item(FE *fe, PyObject *node, int counter)
{
    KnSpan sp = span_of(fe, A(node, "iter"));
    Val item = kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, kn_fe_load(fe, sp, counter - 1),
                            kn_fe_load(fe, sp, counter));
    return kn_fe_assign_to(fe, A(node, "target"), item);
}

/* for i, x in enumerate(seq[, start]) / for a, b in zip(s1, s2, ...): a counted loop over the
 * shortest sequence; the target gets the tuple of the items (and the count). The sequences live
 * in variables $zipN; fe->zip_* tell bind_zip where. */
static int
bind_zip(FE *fe, PyObject *node, int counter)
{
    KnSpan sp = span_of(fe, A(node, "iter"));
    KnInstr *items[17];
    int n = 0;
    if (fe->zip_enumerate) {
        Val k = kn_fe_load(fe, sp, counter);
        Val start = kn_fe_load(fe, sp, fe->zip_first + 1);
        Val sum = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, start, k);
        sum->aux = KN_BIN_ADD;
        items[n++] = sum;
        items[n++] = kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, kn_fe_load(fe, sp, fe->zip_first),
                                  kn_fe_load(fe, sp, counter));
    } else {
        for (int i = 0; i < fe->zip_count; i++)
            items[n++] =
                kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, kn_fe_load(fe, sp, fe->zip_first + i),
                             kn_fe_load(fe, sp, counter));
    }
    Val t = kn_kir_emit(&fe->b, KN_OP_TUPLE, sp, n, items);
    return kn_fe_assign_to(fe, A(node, "target"), t);
}

static int
for_enumerate_zip(FE *fe, PyObject *node, int is_enumerate)
{
    PyObject *iter = A(node, "iter"), *args = A(iter, "args");
    KnSpan sp = span_of(fe, iter);
    Py_ssize_t n = PyList_GET_SIZE(args);
    if (PyList_GET_SIZE(A(iter, "keywords")) || n < 1 || n > 16 || (is_enumerate && n > 2)) {
        UNSUPPORTED(fe, iter, "%s() with these arguments is not supported",
                    is_enumerate ? "enumerate" : "zip");
        return -1;
    }
    int first = -1, count = is_enumerate ? 1 : (int)n;
    for (Py_ssize_t i = 0; i < (is_enumerate ? 2 : n); i++) {
        Val v;
        if (i < n) {
            v = kn_fe_expr(fe, PyList_GET_ITEM(args, i));
            if (!v)
                return -1;
        } else {
            v = kn_fe_const_int(fe, sp, 0, &kn_type_int64); /* enumerate's start */
        }
        int var = kn_fe_temp_var(fe, "zip", sp);
        if (first < 0)
            first = var;
        kn_fe_store(fe, sp, var, v);
    }
    /* the count: the shortest length */
    Val len = kn_kir_emit1(&fe->b, KN_OP_LEN, sp, kn_fe_load(fe, sp, first));
    int lenvar = kn_fe_temp_var(fe, "ziplen", sp);
    kn_fe_store(fe, sp, lenvar, len);
    for (int i = 1; i < count; i++) {
        Val li = kn_kir_emit1(&fe->b, KN_OP_LEN, sp, kn_fe_load(fe, sp, first + i));
        Val shorter = kn_kir_emit2(&fe->b, KN_OP_CMP, sp, li, kn_fe_load(fe, sp, lenvar));
        shorter->aux = KN_CMP_LT;
        KnBlock *yes = kn_kir_block_new(&fe->b), *next = kn_kir_block_new(&fe->b);
        kn_kir_cbr(&fe->b, sp, shorter, yes, next);
        kn_kir_set_block(&fe->b, yes);
        kn_fe_store(fe, sp, lenvar, li);
        kn_kir_br(&fe->b, sp, next);
        kn_kir_set_block(&fe->b, next);
    }
    int saved_first = fe->zip_first, saved_count = fe->zip_count, saved_enum = fe->zip_enumerate;
    fe->zip_first = first;
    fe->zip_count = count;
    fe->zip_enumerate = is_enumerate;
    int rc = counted_loop(fe, node, kn_fe_const_int(fe, sp, 0, &kn_type_int64),
                          kn_fe_load(fe, sp, lenvar), kn_fe_const_int(fe, sp, 1, &kn_type_int64),
                          KN_CMP_LT, bind_zip);
    fe->zip_first = saved_first;
    fe->zip_count = saved_count;
    fe->zip_enumerate = saved_enum;
    return rc;
}

/* for x in seq (a tuple, a range object, an array): count to len(seq), binding seq[k]. The
 * sequence goes into $seq, which counted_loop's counter follows (bind_item relies on that). */
static int
loop_over(FE *fe, PyObject *node, KnSpan sp, Val seqv)
{
    int seq = kn_fe_temp_var(fe, "seq", sp);
    kn_fe_store(fe, sp, seq, seqv);
    Val len = kn_kir_emit1(&fe->b, KN_OP_LEN, sp, kn_fe_load(fe, sp, seq));
    return counted_loop(fe, node, kn_fe_const_int(fe, sp, 0, &kn_type_int64), len,
                        kn_fe_const_int(fe, sp, 1, &kn_type_int64), KN_CMP_LT, bind_item);
}

/* The sign of a constant range step: +1, -1, 0 when unknown. */
static int
const_sign(Val v)
{
    if (v->op != KN_OP_CONST || !v->type || v->type->kind != KN_TY_INT)
        return 0;
    return v->imm.i > 0 ? 1 : v->imm.i < 0 ? -1 : 0;
}

int
kn_fe_for_stmt(FE *fe, PyObject *node)
{
    PyObject *iter = A(node, "iter");
    KnSpan sp = span_of(fe, iter);
    if (is(iter, "Call") && is(A(iter, "func"), "Name") && PyList_GET_SIZE(A(iter, "args")) >= 1 &&
        PyList_GET_SIZE(A(iter, "args")) <= 3 && !PyList_GET_SIZE(A(iter, "keywords"))) {
        Val callee = kn_fe_expr(fe, A(iter, "func"));
        if (!callee)
            return -1;
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            callee->type->id == KN_BI_RANGE) {
            PyObject *args = A(iter, "args");
            Py_ssize_t n = PyList_GET_SIZE(args);
            Val a[3] = {NULL, NULL, NULL};
            for (Py_ssize_t k = 0; k < n; k++)
                if (!(a[k] = kn_fe_expr(fe, PyList_GET_ITEM(args, k))))
                    return -1;
            Val start = n == 1 ? kn_fe_const_int(fe, sp, 0, &kn_type_int64) : a[0];
            Val stop = n == 1 ? a[0] : a[1];
            Val step = n == 3 ? a[2] : kn_fe_const_int(fe, sp, 1, &kn_type_int64);
            int sign = const_sign(step);
            if (sign) {
                /* the common case: a counted loop LLVM can vectorize */
                Val s0 = kn_kir_emit1(&fe->b, KN_OP_CAST, sp, start);
                s0->type = &kn_type_int64;
                Val s1 = kn_kir_emit1(&fe->b, KN_OP_CAST, sp, stop);
                s1->type = &kn_type_int64;
                return counted_loop(fe, node, s0, s1, step, sign > 0 ? KN_CMP_LT : KN_CMP_GT,
                                    bind_counter);
            }
            /* unknown step: iterate over the range object */
            KnInstr *all[4] = {callee, a[0], n > 1 ? a[1] : NULL, n > 2 ? a[2] : NULL};
            return loop_over(fe, node, sp, kn_kir_emit(&fe->b, KN_OP_CALL, sp, (int)n + 1, all));
        }
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            (callee->type->id == KN_BI_ENUMERATE || callee->type->id == KN_BI_ZIP))
            return for_enumerate_zip(fe, node, callee->type->id == KN_BI_ENUMERATE);
        /* not range(): fall through to the generic path with the callee already evaluated */
        KnInstr **cargs = NULL;
        PyObject *args = A(iter, "args");
        Py_ssize_t n = PyList_GET_SIZE(args);
        cargs = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
        cargs[0] = callee;
        for (Py_ssize_t k = 0; k < n; k++)
            if (!(cargs[k + 1] = kn_fe_expr(fe, PyList_GET_ITEM(args, k))))
                return -1;
        return loop_over(fe, node, sp, kn_kir_emit(&fe->b, KN_OP_CALL, sp, (int)n + 1, cargs));
    }
    Val seqv = kn_fe_expr(fe, iter);
    if (!seqv)
        return -1;
    return loop_over(fe, node, sp, seqv);
}
