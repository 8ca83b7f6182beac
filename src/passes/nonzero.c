/* nonzero.c - dropping a division's zero check when its divisor is already known nonzero.
 *
 * Under the Python error model every scalar `a / y`, `a // y` and `a % y` first tests `y == 0`
 * and raises ZeroDivisionError. A long function that divides by the same variable on every line
 * (`x = x // y + k`, repeated) then carries one test per line of the same value; LLVM's
 * InstCombine re-derives what each dominating test implies for every later one
 * (computeKnownBitsFromContext), which made 1,000 such lines take 35 s to optimize and 2,000
 * lines 110 s.
 *
 * Once a checked division by the variable `y` has not raised, `y`
 * is nonzero until the next store to `y` (KIR writes variables only with `store`). This pass is a
 * forward must-dataflow over the reachable blocks: a bit per divisor variable, set after a
 * division that raises on zero, cleared by a store, intersected where paths meet. A later
 * division whose divisor is `load y` with the bit set is marked in KN_SIDE_NONZERO, and
 * lowering (scalar.c) emits it without the test. The first division by zero still raises, at
 * its own line, with its own message: only divisions that it precedes lose their test.
 *
 * A division whose check passes/defer.c moved to the loop's exit proves nothing (it does not
 * raise where it stands) but may still drop its check. The skipped division converts `y` to its
 * operand type first; only conversions that keep a nonzero value nonzero qualify (an int to a
 * wider int or to a float, a float to a float as wide). The first 64 divisor variables are
 * tracked, one uint64_t per block. An exception handler (a block's unwind target) starts
 * knowing nothing: the division that found its divisor zero may be what led there. */
#include "passes/passes.h"

#include <stdint.h>
#include <stdlib.h>

enum { MAX_TRACKED = 64 };

typedef struct Flow {
    KnCompilation *c;
    KnNonzero *nonzero; /* what this pass stores under KN_SIDE_NONZERO */
    int *slot;          /* variable index -> bit, or -1 */
    uint64_t *in;       /* per block (by position in fn->blocks): facts at entry */
    uint64_t *out;      /* facts at exit */
    int *index;         /* block id -> position, or -1 */
    int **preds;        /* per position: predecessor positions */
    int *npreds;
} Flow;

static int
is_numeric(const KnType *t)
{
    return t && (t->kind == KN_TY_INT || t->kind == KN_TY_BOOL || t->kind == KN_TY_FLOAT);
}

/* Does converting a nonzero value of type `from` to `to` give a nonzero value? */
static int
keeps_nonzero(const KnType *from, const KnType *to)
{
    if (from->kind == KN_TY_BOOL)
        return to->kind != KN_TY_BOOL || from == to;
    if (from->kind == KN_TY_INT)
        return to->kind == KN_TY_FLOAT || (to->kind == KN_TY_INT && to->bits >= from->bits);
    return to->kind == KN_TY_FLOAT && to->bits >= from->bits;
}

/* The divisor variable of a scalar division that tests its divisor for zero, else -1. */
static int
divisor_var(const KnCompilation *c, const KnInstr *in)
{
    if (in->op != KN_OP_BINOP ||
        (in->aux != KN_BIN_TRUEDIV && in->aux != KN_BIN_FLOORDIV && in->aux != KN_BIN_MOD))
        return -1;
    const KnCallImpl *impl = in->impl;
    const KnInstr *d = in->args[1];
    if (!impl || !impl->operand || !is_numeric(in->type) || !is_numeric(impl->operand) ||
        !is_numeric(in->args[0]->type) || d->op != KN_OP_LOAD || !is_numeric(d->type) ||
        d->type != c->fn->vars.items[d->aux].type || !keeps_nonzero(d->type, impl->operand))
        return -1;
    return d->aux;
}

static int
is_deferred(const KnCompilation *c, const KnInstr *in)
{
    const KnDeferrals *ds = kn_ctx_get(c, KN_SIDE_DEFERRED);
    for (int k = 0; ds && k < ds->n; k++)
        if (ds->items[k].division == in)
            return 1;
    return 0;
}

/* Runs block `b` from `facts`; marks the divisions it makes redundant when `mark`. */
static uint64_t
transfer(Flow *f, const KnBlock *b, uint64_t facts, int mark)
{
    for (int i = 0; i < b->instrs.len; i++) {
        const KnInstr *in = b->instrs.items[i];
        if (in->op == KN_OP_STORE) {
            if (f->slot[in->aux] >= 0)
                facts &= ~((uint64_t)1 << f->slot[in->aux]);
            continue;
        }
        int v = divisor_var(f->c, in);
        if (v < 0 || f->slot[v] < 0)
            continue;
        uint64_t bit = (uint64_t)1 << f->slot[v];
        if (facts & bit) {
            if (mark)
                f->nonzero->divisor[in->id] = 1;
        } else if (!is_deferred(f->c, in)) {
            facts |= bit;
        }
    }
    return facts;
}

static int
assign_slots(Flow *f)
{
    KnFunction *fn = f->c->fn;
    int n = 0;
    for (int v = 0; v < fn->vars.len; v++)
        f->slot[v] = -1;
    for (int b = 0; b < fn->blocks.len; b++) {
        const KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            int v = divisor_var(f->c, blk->instrs.items[i]);
            if (v >= 0 && f->slot[v] < 0 && n < MAX_TRACKED)
                f->slot[v] = n++;
        }
    }
    return n;
}

static void
find_preds(Flow *f)
{
    KnFunction *fn = f->c->fn;
    KnArena *a = &f->c->arena;
    int nb = fn->blocks.len;
    for (int pass = 0; pass < 2; pass++) {
        for (int b = 0; b < nb; b++)
            f->npreds[b] = 0;
        for (int b = 0; b < nb; b++) {
            const KnBlock *blk = fn->blocks.items[b];
            KnInstr *t = blk->reachable ? kn_kir_terminator(blk) : NULL;
            int ns = !t                                              ? 0
                     : t->op == KN_OP_BR                             ? 1
                     : t->op == KN_OP_CBR || t->op == KN_OP_ITERNEXT ? 2
                                                                     : 0;
            for (int k = 0; k < ns; k++) {
                int s = f->index[t->targets[k]->id];
                if (s < 0)
                    continue;
                if (pass == 1)
                    f->preds[s][f->npreds[s]] = b;
                f->npreds[s]++;
            }
        }
        for (int b = 0; pass == 0 && b < nb; b++)
            f->preds[b] = kn_arena_alloc(a, sizeof(int) * (size_t)(f->npreds[b] + 1));
    }
}

void
kn_pass_nonzero_divisors(KnCompilation *c)
{
    KnFunction *fn = c->fn;
    KnArena *a = &c->arena;
    KnNonzero *nz = kn_arena_alloc(a, sizeof *nz);
    nz->divisor = kn_arena_alloc(a, (size_t)fn->next_id + 1);
    nz->len = fn->next_id + 1;
    kn_ctx_put(c, KN_SIDE_NONZERO, nz);
    if (!c->error_model_python || getenv("KILN_NO_NONZERO"))
        return;
    int nb = fn->blocks.len, maxid = 0;
    Flow f = {.c = c, .nonzero = nz};
    f.slot = kn_arena_alloc(a, sizeof(int) * (size_t)(fn->vars.len + 1));
    if (assign_slots(&f) == 0)
        return;
    for (int b = 0; b < nb; b++)
        if (fn->blocks.items[b]->id > maxid)
            maxid = fn->blocks.items[b]->id;
    f.index = kn_arena_alloc(a, sizeof(int) * (size_t)(maxid + 1));
    for (int i = 0; i <= maxid; i++)
        f.index[i] = -1;
    for (int b = 0; b < nb; b++)
        f.index[fn->blocks.items[b]->id] = b;
    f.in = kn_arena_alloc(a, sizeof(uint64_t) * (size_t)nb);
    f.out = kn_arena_alloc(a, sizeof(uint64_t) * (size_t)nb);
    f.preds = kn_arena_alloc(a, sizeof(int *) * (size_t)nb);
    f.npreds = kn_arena_alloc(a, sizeof(int) * (size_t)nb);
    find_preds(&f);
    /* an exception handler (an unwind target) may be entered from anywhere in the protected
     * blocks, by the very division that found its divisor zero: it starts knowing nothing */
    char *handler = kn_arena_alloc(a, (size_t)nb + 1);
    for (int b = 0; b < nb; b++)
        handler[b] = 0;
    for (int b = 0; b < nb; b++) {
        const KnBlock *u = fn->blocks.items[b]->unwind;
        if (u && f.index[u->id] >= 0)
            handler[f.index[u->id]] = 1;
    }
    /* optimistic start (everything known except at the entry), then shrink to the fixpoint */
    for (int b = 0; b < nb; b++)
        f.out[b] = ~(uint64_t)0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = 0; b < nb; b++) {
            const KnBlock *blk = fn->blocks.items[b];
            if (!blk->reachable)
                continue;
            uint64_t in = b == 0 ? 0 : ~(uint64_t)0;
            for (int k = 0; k < f.npreds[b]; k++)
                in &= f.out[f.preds[b][k]];
            if ((b != 0 && f.npreds[b] == 0) || handler[b])
                in = 0;
            f.in[b] = in;
            uint64_t out = transfer(&f, blk, in, 0);
            if (out != f.out[b]) {
                f.out[b] = out;
                changed = 1;
            }
        }
    }
    for (int b = 0; b < nb; b++)
        if (fn->blocks.items[b]->reachable)
            transfer(&f, fn->blocks.items[b], f.in[b], 1);
}
