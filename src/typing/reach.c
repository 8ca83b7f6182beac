/* reach.c - which blocks the typing fixpoint reaches (typing.c's rounds). A round types b0,
 * then the successors of each block it typed, except that a CBR whose condition typing has
 * folded to a constant reaches only its taken side: `b is None` of a b typed none or a plain
 * value (typing.c's constant `is`), `a.dtype == np.float64`, `if False`. So the untaken side is
 * never typed, as Numba prunes dead branches, and `def f(a, b=None): if b is not None: return
 * a + b` compiles for f(1) (optional.c). A block reached last round is typed too (a loop's back
 * edge), and at the round's end the set is closed over every edge and becomes the blocks'
 * `reachable` flags, which later stages read. A condition not typed yet reaches both sides when
 * its block is typed (typing one side may be what types it), none when the set is closed (its
 * block's own turn decides). */
#include "typing/internal.h"

/* The value of a CBR's condition when typing has made it a constant (a `truth` of a `cmp` that
 * typing folded, `x is None` of a non-optional x; or of a bool constant): 0 or 1; -1 when it is
 * known only at run time, -2 when it is not typed yet. */
int
kn_typing_const_cond(const KnInstr *cbr)
{
    const KnInstr *v = cbr->args[0];
    if (!v->type)
        return -2;
    if (v->op == KN_OP_TRUTH)
        v = v->args[0];
    if (v->op == KN_OP_CONST && v->type && v->type->kind == KN_TY_BOOL)
        return v->imm.i != 0;
    const KnCallImpl *impl = v->impl;
    if (v->op == KN_OP_CMP && v->type && impl && impl->kind == KN_CALL_CONST)
        return impl->value != 0;
    return -1;
}

/* the successors of a block reached (live), but only the taken side of a folded condition
 * (a condition not typed yet reaches both: typing one side may be what types it, `k in d` of
 * an empty dict filled in the else branch) */
void
kn_typing_mark_live(const KnBlock *b, char *live)
{
    KnInstr *t = kn_kir_terminator(b);
    if (!t)
        return;
    int cond = t->op == KN_OP_CBR ? kn_typing_const_cond(t) : -1;
    for (int k = 0; k < 2; k++)
        if (t->targets[k] && (cond < 0 || cond == (k == 0)))
            live[t->targets[k]->id] = 1;
    if (b->unwind)
        live[b->unwind->id] = 1;
}

/* live closed over every edge (the blocks reached late in the round through back edges), made
 * the blocks' reachable flags: 1 when they changed */
int
kn_typing_close_live(KnFunction *fn, char *live)
{
    for (int again = 1; again;) {
        again = 0;
        for (int b = 0; b < fn->blocks.len; b++) {
            if (!live[b])
                continue;
            KnBlock *blk = fn->blocks.items[b];
            KnInstr *t = kn_kir_terminator(blk);
            for (int k = 0; t && k < 3; k++) {
                KnBlock *s = k < 2 ? t->targets[k] : blk->unwind;
                if (!s || live[s->id])
                    continue;
                int cond = t->op == KN_OP_CBR ? kn_typing_const_cond(t) : -1;
                if (k < 2 && (cond == -2 || (cond >= 0 && cond != (k == 0))))
                    continue; /* not typed yet: the block's own turn (kn_typing_mark_live) decides
                               */
                live[s->id] = 1;
                again = 1;
            }
        }
    }
    int changed = 0;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        if (blk->reachable != live[b]) {
            blk->reachable = live[b];
            changed = 1;
        }
    }
    return changed;
}
