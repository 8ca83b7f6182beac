/* defer.c - moving a loop's float-division zero check to the loop's exit.
 *
 * Under the Python error model `x / y` raises ZeroDivisionError when y == 0, so every division
 * is a compare and a branch out of the loop. A loop with a second exit cannot be vectorized by
 * LLVM, and the n-body kernel (`f = m[j] / (r2 * sqrt(r2))`) stayed scalar: 1.3x slower than
 * gcc, which vectorizes the square roots and divisions and keeps the sum in order.
 *
 * When nothing the loop does after a division by zero could be observed, checking at the exit
 * instead is the same program: the division yields inf or nan without trapping, and the flag
 * `any divisor was zero` is or-ed up and tested where the loop ends, raising the same
 * exception with the same source position. This pass finds such loops:
 *   - an innermost `for` loop: the header is an ITERNEXT of a range iterator (a counted loop)
 *     or one whose items are scalars read from arrays without boundscheck, or (KIR written
 *     by hand) reads only compiler counters ("$i", "$stop", ...) and compares them, so the
 *     trip count cannot depend on the values the division produced;
 *   - one exit, the header's: no break, return or raise inside;
 *   - a body that reads arrays and locals and computes with scalars: no stores to memory, no
 *     calls other than non-raising builtins, no other operation that can raise (boundscheck
 *     off), no array values made, and no block of the loop inside a `try` (the handler
 *     would see the locals of the iterations after the division);
 *   - exactly one raising float division.
 * Lowering reads KN_SIDE_DEFERRED (lower.c): the division ors its check into a flag, and the exit
 * block starts with `if flag: raise`. */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_BODY = 64 };

typedef struct Loop {
    KnBlock *header, *exit;
    KnBlock *body[MAX_BODY];
    int n;
} Loop;

static int
in_body(const Loop *lp, const KnBlock *b)
{
    for (int i = 0; i < lp->n; i++)
        if (lp->body[i] == b)
            return 1;
    return 0;
}

static int
successors(const KnBlock *b, KnBlock **out)
{
    KnInstr *t = kn_kir_terminator(b);
    if (!t)
        return -1;
    if (t->op == KN_OP_BR) {
        out[0] = t->targets[0];
        return 1;
    }
    if (t->op == KN_OP_CBR || t->op == KN_OP_ITERNEXT) {
        out[0] = t->targets[0];
        out[1] = t->targets[1];
        return 2;
    }
    return -1; /* RET or RAISE: leaves the function */
}

/* The blocks reachable from the header's true target without passing the header; -1 when one
 * of them leaves the loop some other way or there are too many. */
static int
collect_body(Loop *lp)
{
    KnInstr *t = kn_kir_terminator(lp->header);
    lp->n = 0;
    lp->body[lp->n++] = t->targets[0];
    for (int i = 0; i < lp->n; i++) {
        KnBlock *succ[2];
        int ns = successors(lp->body[i], succ);
        if (ns < 0)
            return -1;
        for (int k = 0; k < ns; k++) {
            if (succ[k] == lp->header || in_body(lp, succ[k]))
                continue;
            if (succ[k] == lp->exit || lp->n == MAX_BODY)
                return -1;
            lp->body[lp->n++] = succ[k];
        }
    }
    return 0;
}

/* Depth-first search for a cycle among the body blocks (edges to the header excluded). */
static int
has_inner_cycle(const Loop *lp, int at, char *state)
{
    state[at] = 1;
    KnBlock *succ[2];
    int ns = successors(lp->body[at], succ);
    for (int k = 0; k < ns; k++) {
        int j = 0;
        while (j < lp->n && lp->body[j] != succ[k])
            j++;
        if (j == lp->n)
            continue;
        if (state[j] == 1 || (state[j] == 0 && has_inner_cycle(lp, j, state)))
            return 1;
    }
    state[at] = 2;
    return 0;
}

static int
is_counter_header(const KnFunction *fn, const KnBlock *h)
{
    for (int i = 0; i < h->instrs.len; i++) {
        const KnInstr *in = h->instrs.items[i];
        if (in->op == KN_OP_LOAD) {
            if (fn->vars.items[in->aux].name[0] != '$')
                return 0;
        } else if (in->op != KN_OP_CMP && in->op != KN_OP_CBR) {
            return 0;
        }
    }
    return 1;
}

static int
is_scalar(const KnType *t)
{
    return t && (t->kind == KN_TY_INT || t->kind == KN_TY_FLOAT || t->kind == KN_TY_BOOL ||
                 t->kind == KN_TY_COMPLEX);
}

static int
is_intlike(const KnType *t)
{
    return t->kind == KN_TY_INT || t->kind == KN_TY_BOOL;
}

static int
is_float_division(const KnCompilation *c, const KnInstr *in)
{
    return c->error_model_python && in->op == KN_OP_BINOP && in->aux == KN_BIN_TRUEDIV &&
           in->type && in->type->kind == KN_TY_FLOAT && in->args[0]->type->kind != KN_TY_ARRAY &&
           in->args[1]->type->kind != KN_TY_ARRAY;
}

/* Can the body run this instruction with its check deferred (nothing observable, no raise)? */
static int
quiet(const KnCompilation *c, const KnInstr *in)
{
    const KnCallImpl *impl = in->impl;
    switch (in->op) {
    case KN_OP_CONST:
    case KN_OP_GLOBAL:
    case KN_OP_ARG:
    case KN_OP_LOAD:
    case KN_OP_BR:
    case KN_OP_CBR:
        return 1;
    case KN_OP_STORE:
        return is_scalar(c->fn->vars.items[in->aux].type);
    case KN_OP_UNOP:
    case KN_OP_CMP:
    case KN_OP_CAST:
    case KN_OP_TRUTH:
    case KN_OP_LEN:
        return is_scalar(in->type);
    case KN_OP_TUPLE:
        for (int k = 0; k < in->nargs; k++)
            if (!is_scalar(in->args[k]->type))
                return 0;
        return 1;
    case KN_OP_GETATTR:
        return in->type && in->type->kind != KN_TY_ARRAY && !(impl && impl->kind == KN_CALL_JITTED);
    case KN_OP_GETITEM:
        if (in->args[0]->type->kind == KN_TY_ARRAY)
            return !c->boundscheck && is_scalar(in->type);
        return in->args[0]->type->kind == KN_TY_TUPLE && in->args[1]->op == KN_OP_CONST;
    case KN_OP_BINOP: /* a / b under error_model='numpy' does not raise either */
        return is_scalar(in->type) &&
               (!kn_pass_binop_raises(in) || (in->aux == KN_BIN_TRUEDIV && !c->error_model_python));
    case KN_OP_CALL: /* int(x) of a float checks its value (kn_pass_call_raises) */
        return impl && is_scalar(in->type) && !kn_pass_float_to_pyint(in) &&
               (impl->kind == KN_CALL_CONST ||
                (impl->kind == KN_CALL_BUILTIN &&
                 !(kn_lib_flags(impl->builtin) & (KN_CF_RAISES | KN_CF_IO))));
    default:
        return 0;
    }
}

/* Can ITERNEXT compute its items with the check deferred? As the GETITEMs of the
 * length-and-index form would be: scalars of arrays, without boundscheck. */
static int
quiet_items(const KnCompilation *c, const KnInstr *it)
{
    if (it->op != KN_OP_GETITER)
        return 0;
    switch ((KnIterKind)it->aux) {
    case KN_ITER_SEQ:
        return it->args[0]->type->kind == KN_TY_ARRAY && !c->boundscheck &&
               is_scalar(it->type->dtype);
    case KN_ITER_ENUMERATE:
        return is_scalar(it->args[1]->type) && quiet_items(c, it->args[0]);
    case KN_ITER_ZIP:
        for (int k = 0; k < it->nargs; k++)
            if (!quiet_items(c, it->args[k]))
                return 0;
        return 1;
    case KN_ITER_RANGE: /* the counter of a counted loop */
        return 1;
    case KN_ITER_GEN: /* resuming a generator runs its code */
        return 0;
    }
    return 0;
}

/* The head of a for loop over an iterator: nothing but the ITERNEXT, whose trip count is
 * fixed before the loop. */
static int
is_iterator_header(const KnCompilation *c, const KnBlock *h)
{
    KnInstr *t = kn_kir_terminator(h);
    return h->instrs.len == 1 && t && t->op == KN_OP_ITERNEXT && quiet_items(c, t->args[0]);
}

/* The loop's one float division, or NULL when the loop does not qualify. */
static KnInstr *
the_division(const KnCompilation *c, const Loop *lp)
{
    KnInstr *div = NULL;
    for (int b = 0; b < lp->n; b++) {
        const KnBlock *blk = lp->body[b];
        for (int i = 0; i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (is_float_division(c, in)) {
                if (div)
                    return NULL;
                div = in;
            } else if (!quiet(c, in)) {
                return NULL;
            }
        }
    }
    return div;
}

static void
consider(KnCompilation *c, KnBlock *h)
{
    KnInstr *t = kn_kir_terminator(h);
    if (!t || !((t->op == KN_OP_CBR && is_counter_header(c->fn, h)) || is_iterator_header(c, h)))
        return;
    Loop lp = {.header = h, .exit = t->targets[1]};
    if (collect_body(&lp) < 0 || h->unwind)
        return;
    for (int i = 0; i < lp.n; i++)
        if (lp.body[i]->unwind)
            return; /* inside a try: the handler would see the variables of later iterations */
    char state[MAX_BODY];
    memset(state, 0, sizeof state);
    if (has_inner_cycle(&lp, 0, state))
        return;
    KnInstr *div = the_division(c, &lp);
    KnDeferrals *ds = kn_ctx_get(c, KN_SIDE_DEFERRED);
    if (!div || ds->n == KN_MAX_DEFERRED)
        return;
    KnDeferred *d = &ds->items[ds->n++];
    d->division = div;
    d->exit = lp.exit;
    d->from_ints = is_intlike(div->args[0]->type) && is_intlike(div->args[1]->type);
}

void
kn_pass_defer_division_checks(KnCompilation *c)
{
    KnDeferrals *ds = kn_ctx_need(c, KN_SIDE_DEFERRED, sizeof(KnDeferrals));
    ds->n = 0;
    if (!c->error_model_python || getenv("KILN_NO_DEFER"))
        return;
    if (c->fn->is_generator) /* a loop that yields must raise before the value leaves */
        return;
    for (int b = 0; b < c->fn->blocks.len; b++)
        if (c->fn->blocks.items[b]->reachable)
            consider(c, c->fn->blocks.items[b]);
}
