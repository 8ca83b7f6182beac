/* verify.c - the KIR verifier: the invariants that typing, the passes and lowering rely on.
 * Structure (both levels): block ids are their positions, every block ends in exactly one
 * terminator, each op has the operand count ops.def gives it, operands are value-producing
 * instructions of this function, branch and unwind targets are blocks of this function,
 * variable and parameter indexes are in range, and every definition dominates its uses.
 * Typed level (after typing and after each later pass): in reachable blocks every value has a
 * type, every CALL an implementation and every CBR a bool operand. Dominance is computed over the
 * blocks reachable from the entry with each block split in two nodes, its entry and its exit:
 * normal edges leave the exit, the unwind (exception) edge leaves the entry, since a block may
 * raise before any of its values is defined; a value defined in block D dominates a use in block U
 * != D when D's exit dominates U's entry. Dominators come from the iterative algorithm of Cooper,
 * Harvey and Kennedy over a reverse post-order. The first fault found is reported. */
#include "ir/kir.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct Verifier {
    const KnFunction *fn;
    int level;
    KnStrBuf *why;
    const KnInstr **where;
    int nblocks, nnodes;
    const KnInstr **by_id; /* next_id entries: the instruction with that id, in a block */
    int *block_of;         /* by id: its block's index */
    int *pos_of;           /* by id: its position in the block */
    int *rpo;              /* node -> reverse post-order number, -1 unreachable */
    int *order;            /* reverse post-order: number -> node */
    int *idom;             /* node -> immediate dominator node (entry: itself), -1 unreachable */
} Verifier;

static void
describe(KnStrBuf *sb, const KnInstr *in)
{
    if (kn_kir_op_has_value(in->op))
        kn_sb_printf(sb, "%%%d = %s", in->id, kn_kir_op_name(in->op));
    else
        kn_sb_printf(sb, "%s", kn_kir_op_name(in->op));
    kn_sb_printf(sb, " (%d:%d)", in->span.line, in->span.col);
}

/* Write "<instruction> in bN: " (or "bN: ") to v->why; the message follows. */
static int
fail_at(Verifier *v, const KnInstr *in, int block)
{
    if (in) {
        describe(v->why, in);
        kn_sb_printf(v->why, " in b%d: ", block);
    } else {
        kn_sb_printf(v->why, "b%d: ", block);
    }
    if (v->where)
        *v->where = in;
    return -1;
}

#define FAIL(v, in, b, ...) (fail_at(v, in, b), kn_sb_printf((v)->why, __VA_ARGS__), -1)

static int
block_index(const Verifier *v, const KnBlock *b)
{
    if (b && b->id >= 0 && b->id < v->nblocks && v->fn->blocks.items[b->id] == b)
        return b->id;
    return -1;
}

static int
check_target(Verifier *v, const KnInstr *in, int b, const KnBlock *t, const char *what)
{
    if (block_index(v, t) < 0)
        return FAIL(v, in, b, "%s target b%d is not a block of this function", what,
                    t ? t->id : -1);
    return 0;
}

/* Record every instruction by id: ids unique and below next_id. */
static int
index_instrs(Verifier *v)
{
    const KnFunction *fn = v->fn;
    for (int b = 0; b < v->nblocks; b++) {
        const KnBlock *blk = fn->blocks.items[b];
        if (blk->id != b)
            return FAIL(v, NULL, b, "the block at position %d has id %d", b, blk->id);
        for (int i = 0; i < blk->instrs.len; i++) {
            const KnInstr *in = blk->instrs.items[i];
            if (in->id < 0 || in->id >= fn->next_id)
                return FAIL(v, in, b, "id %d is out of range", in->id);
            if (v->by_id[in->id])
                return FAIL(v, in, b, "id %d is used twice", in->id);
            v->by_id[in->id] = in;
            v->block_of[in->id] = b;
            v->pos_of[in->id] = i;
        }
    }
    return 0;
}

static int
check_arity(Verifier *v, const KnInstr *in, int b)
{
    int lo = kn_kir_op_min_args(in->op), hi = kn_kir_op_max_args(in->op);
    if (in->op >= KN_OP__COUNT)
        return FAIL(v, in, b, "unknown op %d", (int)in->op);
    if (in->nargs < lo || (hi >= 0 && in->nargs > hi)) {
        char want[48];
        if (hi < 0)
            snprintf(want, sizeof want, "at least %d operands", lo);
        else if (hi == lo)
            snprintf(want, sizeof want, "%d operand%s", lo, lo == 1 ? "" : "s");
        else
            snprintf(want, sizeof want, "%d to %d operands", lo, hi);
        return FAIL(v, in, b, "takes %s, has %d", want, in->nargs);
    }
    if (in->op == KN_OP_BUILD_DICT && in->nargs % 2)
        return FAIL(v, in, b, "takes key, value pairs, has %d operands", in->nargs);
    if (in->op == KN_OP_CALL && (in->aux < 0 || in->aux > in->nargs - 1))
        return FAIL(v, in, b, "has %d keyword operands", in->aux);
    return 0;
}

static int
check_instr(Verifier *v, const KnInstr *in, int b, int last)
{
    const KnFunction *fn = v->fn;
    KN_TRY(check_arity(v, in, b));
    int term = kn_kir_op_is_terminator(in->op);
    if (term && !last)
        return FAIL(v, in, b, "a terminator in the middle of the block (at %d)", v->pos_of[in->id]);
    if (last && !term)
        return FAIL(v, in, b, "the block does not end in a terminator");
    for (int k = 0; k < in->nargs; k++) {
        const KnInstr *a = in->args[k];
        if (!a)
            return FAIL(v, in, b, "operand %d is missing", k);
        if (a->id < 0 || a->id >= fn->next_id || v->by_id[a->id] != a)
            return FAIL(v, in, b, "operand %d is not an instruction of this function", k);
        if (!kn_kir_op_has_value(a->op))
            return FAIL(v, in, b, "operand %d is a %s, which has no value", k,
                        kn_kir_op_name(a->op));
    }
    if ((in->op == KN_OP_LOAD || in->op == KN_OP_STORE) && (in->aux < 0 || in->aux >= fn->vars.len))
        return FAIL(v, in, b, "variable %d does not exist", in->aux);
    if (in->op == KN_OP_ARG && (in->aux < 0 || in->aux >= fn->nparams))
        return FAIL(v, in, b, "parameter %d does not exist", in->aux);
    if (in->op == KN_OP_BR)
        KN_TRY(check_target(v, in, b, in->targets[0], "branch"));
    if (in->op == KN_OP_CBR || in->op == KN_OP_ITERNEXT) {
        KN_TRY(check_target(v, in, b, in->targets[0], "branch"));
        KN_TRY(check_target(v, in, b, in->targets[1], "branch"));
    }
    if (in->op == KN_OP_ITERNEXT && in->args[0]->op != KN_OP_GETITER)
        return FAIL(v, in, b, "iterates %%%d, which is not a getiter", in->args[0]->id);
    if (v->level == KN_VERIFY_TYPED && fn->blocks.items[b]->reachable) {
        if (kn_kir_op_has_value(in->op) && !in->type)
            return FAIL(v, in, b, "has no type after typing");
        if (in->op == KN_OP_CBR && in->args[0]->type && in->args[0]->type != &kn_type_bool)
            return FAIL(v, in, b, "branches on %%%d of type %s, not bool", in->args[0]->id,
                        in->args[0]->type->name);
        if (in->op == KN_OP_CALL && !in->impl)
            return FAIL(v, in, b, "has no implementation (impl) after typing");
    }
    return 0;
}

static int
check_blocks(Verifier *v)
{
    for (int b = 0; b < v->nblocks; b++) {
        const KnBlock *blk = v->fn->blocks.items[b];
        if (!blk->instrs.len)
            return FAIL(v, NULL, b, "an empty block has no terminator");
        if (blk->unwind && block_index(v, blk->unwind) < 0)
            return FAIL(v, NULL, b, "the unwind target b%d is not a block of this function",
                        blk->unwind->id);
        for (int i = 0; i < blk->instrs.len; i++)
            KN_TRY(check_instr(v, blk->instrs.items[i], b, i == blk->instrs.len - 1));
    }
    return 0;
}

/* ---- dominators over split nodes: 2b = entry of block b, 2b+1 = its exit ---- */

static int
node_succs(const Verifier *v, int node, int out[2])
{
    const KnBlock *blk = v->fn->blocks.items[node / 2];
    int n = 0;
    if (node % 2 == 0) {
        out[n++] = node + 1;
        if (blk->unwind)
            out[n++] = 2 * blk->unwind->id;
        return n;
    }
    const KnInstr *t = kn_kir_terminator(blk);
    if (t && t->op == KN_OP_BR)
        out[n++] = 2 * t->targets[0]->id;
    if (t && (t->op == KN_OP_CBR || t->op == KN_OP_ITERNEXT)) {
        out[n++] = 2 * t->targets[0]->id;
        out[n++] = 2 * t->targets[1]->id;
    }
    return n;
}

/* Reverse post-order from the entry, by an explicit stack (node, next successor index). */
static void
number_nodes(Verifier *v)
{
    int *stack = malloc(sizeof(int) * 2 * ((size_t)(v->nnodes > 0 ? v->nnodes : 0) + 1));
    if (!stack)
        abort();
    int count = v->nnodes, sp = 0;
    for (int i = 0; i < v->nnodes; i++)
        v->rpo[i] = -1;
    int *seen = v->idom; /* borrowed as a mark until dominators are computed */
    for (int i = 0; i < v->nnodes; i++)
        seen[i] = 0;
    seen[0] = 1;
    stack[sp++] = 0;
    stack[sp++] = 0;
    while (sp) {
        int node = stack[sp - 2], k = stack[sp - 1], s[2];
        int n = node_succs(v, node, s);
        if (k < n) {
            stack[sp - 1] = k + 1;
            if (!seen[s[k]]) {
                seen[s[k]] = 1;
                stack[sp++] = s[k];
                stack[sp++] = 0;
            }
            continue;
        }
        sp -= 2;
        v->rpo[node] = --count; /* post-order, numbered from the end */
    }
    /* unreachable nodes got no number; shift the reachable ones down to start at 0 */
    for (int i = 0; i < v->nnodes; i++)
        if (v->rpo[i] >= 0)
            v->rpo[i] -= count;
    for (int i = 0; i < v->nnodes; i++)
        if (v->rpo[i] >= 0)
            v->order[v->rpo[i]] = i;
    free(stack);
}

static int
intersect(const Verifier *v, int a, int b)
{
    while (a != b) {
        while (v->rpo[a] > v->rpo[b])
            a = v->idom[a];
        while (v->rpo[b] > v->rpo[a])
            b = v->idom[b];
    }
    return a;
}

static void
compute_dominators(Verifier *v)
{
    number_nodes(v);
    int nreach = 0;
    for (int i = 0; i < v->nnodes; i++) {
        v->idom[i] = -1;
        nreach += v->rpo[i] >= 0;
    }
    /* predecessors, as a flat list per node */
    size_t cap = (size_t)(v->nnodes > 0 ? v->nnodes : 0) + 1;
    int *npred = calloc(cap, sizeof(int));
    int *preds = malloc(sizeof(int) * 2 * cap);
    int *start = malloc(sizeof(int) * cap);
    if (!npred || !preds || !start)
        abort();
    for (int i = 0; i < v->nnodes; i++) {
        int s[2], n = v->rpo[i] >= 0 ? node_succs(v, i, s) : 0;
        for (int k = 0; k < n; k++)
            npred[s[k]]++;
    }
    start[0] = 0;
    for (int i = 0; i < v->nnodes; i++)
        start[i + 1] = start[i] + npred[i];
    for (int i = 0; i < v->nnodes; i++)
        npred[i] = 0;
    for (int i = 0; i < v->nnodes; i++) {
        int s[2], n = v->rpo[i] >= 0 ? node_succs(v, i, s) : 0;
        for (int k = 0; k < n; k++)
            preds[start[s[k]] + npred[s[k]]++] = i;
    }
    v->idom[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int r = 1; r < nreach; r++) {
            int node = v->order[r], nd = -1;
            for (int k = 0; k < npred[node]; k++) {
                int p = preds[start[node] + k];
                if (v->idom[p] < 0)
                    continue;
                nd = nd < 0 ? p : intersect(v, p, nd);
            }
            if (nd != v->idom[node]) {
                v->idom[node] = nd;
                changed = 1;
            }
        }
    }
    free(npred);
    free(preds);
    free(start);
}

static int
dominates(const Verifier *v, int a, int b) /* node a dominates node b (both reachable) */
{
    while (b != a && b != 0)
        b = v->idom[b];
    return b == a;
}

static int
check_dominance(Verifier *v)
{
    compute_dominators(v);
    for (int b = 0; b < v->nblocks; b++) {
        if (v->rpo[2 * b] < 0)
            continue; /* uses in unreachable code are not checked */
        const KnBlock *blk = v->fn->blocks.items[b];
        for (int i = 0; i < blk->instrs.len; i++) {
            const KnInstr *in = blk->instrs.items[i];
            for (int k = 0; k < in->nargs; k++) {
                const KnInstr *a = in->args[k];
                int db = v->block_of[a->id];
                if (db == b && v->pos_of[a->id] >= i)
                    return FAIL(v, in, b, "uses %%%d, which is defined after it in its block",
                                a->id);
                if (db != b && (v->rpo[2 * db + 1] < 0 || !dominates(v, 2 * db + 1, 2 * b)))
                    return FAIL(v, in, b, "uses %%%d, whose definition does not dominate it",
                                a->id);
            }
        }
    }
    return 0;
}

int
kn_kir_verify_ex(const KnFunction *fn, int level, KnStrBuf *why, const KnInstr **where)
{
    Verifier v = {fn, level, why, where, fn->blocks.len, 2 * fn->blocks.len, 0};
    if (where)
        *where = NULL;
    if (!fn->blocks.len) {
        kn_sb_append(why, "the function has no blocks");
        return -1;
    }
    size_t ids = (size_t)(fn->next_id > 0 ? fn->next_id : 1);
    size_t nodes = (size_t)v.nnodes;
    v.by_id = calloc(ids, sizeof *v.by_id);
    v.block_of = malloc(ids * sizeof(int));
    v.pos_of = malloc(ids * sizeof(int));
    v.rpo = malloc(nodes * sizeof(int));
    v.order = malloc(nodes * sizeof(int));
    v.idom = malloc(nodes * sizeof(int));
    if (!v.by_id || !v.block_of || !v.pos_of || !v.rpo || !v.order || !v.idom)
        abort();
    int rc = index_instrs(&v);
    if (rc == 0)
        rc = check_blocks(&v);
    if (rc == 0)
        rc = check_dominance(&v);
    free(v.by_id);
    free(v.block_of);
    free(v.pos_of);
    free(v.rpo);
    free(v.order);
    free(v.idom);
    return rc;
}

int
kn_kir_verify(const KnFunction *fn, KnStrBuf *why)
{
    return kn_kir_verify_ex(fn, KN_VERIFY_TYPED, why, NULL);
}
