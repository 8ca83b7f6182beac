/* generators.c - typing of a generator function's YIELD.
 *
 * Input: a YIELD whose operand is typed, in a function the frontend marked is_generator (one
 * called from the interpreter: the generators consumed where they are made were inlined by
 * frontend/generators.c and have no YIELD). Output: fn->yield_type, the unification of every
 * yielded value's type, as a return type is of the returns (another round of the fixpoint when
 * it changes). Invariant: yields that do not unify are a diagnostic at the later one, with a
 * note at the first, never a crash. */
#include "typing/internal.h"

int
kn_typing_yield(KnCompilation *c, KnInstr *in, int *changed)
{
    KnType *v = in->args[0]->type;
    if (!v)
        return 0;
    if (!kn_type_is_value(v)) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span, "cannot yield %s", v->name);
        return -1;
    }
    KnType *was = c->fn->yield_type;
    KnType *u = kn_type_unify(c->types, was, v);
    if (!u) {
        KnDiag *d = kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span,
                                  "cannot unify the types this generator yields: %s and %s",
                                  was->name, v->name);
        for (int b = 0; b < c->fn->blocks.len; b++) {
            KnBlock *blk = c->fn->blocks.items[b];
            for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
                KnInstr *y = blk->instrs.items[i];
                if (y->op == KN_OP_YIELD && y->args[0]->type == was) {
                    kn_diag_note(&c->diags, d, y->args[0]->span, "%s is yielded here", was->name);
                    return -1;
                }
            }
        }
        return -1;
    }
    if (u != was) {
        c->fn->yield_type = u;
        *changed = 1;
    }
    return 0;
}
