/* fuse.c - array-expression fusion.
 *
 * Input: typed KIR. An elementwise instruction (an array BINOP, UNOP or CMP, or a NumPy ufunc
 * call on arrays without out=) whose result is used exactly once, by another elementwise
 * instruction of the same block, is an interior node; the instruction that uses it roots a
 * tree. Each tree with at least one interior node becomes a FUSED instruction in the root's
 * place: its arguments are the tree's leaves (arrays and scalars, in first-use order), imm.ptr
 * the original root, whose operands still describe the tree. The interior instructions leave
 * the block; lowering evaluates the whole tree per element in one broadcast loop
 * (lower/array.c), so `a * b + c * 2.0 - np.sqrt(a)` allocates one array, not four.
 * A node is not moved past an instruction that writes memory, nor, when the node itself may
 * raise (a broadcast error, a Python int out of the dtype's range), past one that may raise:
 * Python's order of exceptions is kept (`np.remainder(x + y, x[1, 0])` raises the broadcast
 * error of x + y first, even with boundscheck).
 * Invariant kept: the KIR stays well formed and typed; only reachable blocks are rewritten. */
#include "passes/passes.h"

int
kn_pass_is_elementwise(const KnInstr *in)
{
    if (!in->type || in->type->kind != KN_TY_ARRAY)
        return 0;
    const KnCallImpl *impl = in->impl;
    switch (in->op) {
    case KN_OP_BINOP:
        return impl && !impl->inplace;
    case KN_OP_UNOP:
    case KN_OP_CMP:
        return 1;
    case KN_OP_CALL:
        return impl && impl->kind == KN_CALL_BUILTIN &&
               (kn_lib_flags(impl->builtin) & KN_CF_ELEMENTWISE) && !impl->inplace &&
               in->aux == 0; /* no keywords (out=) */
    default:
        return 0;
    }
}

/* the operands of an elementwise instruction that are data (a call's callee is not) */
static int
first_operand(const KnInstr *in)
{
    return in->op == KN_OP_CALL ? 1 : 0;
}

typedef struct InstrVec {
    KnInstr **items;
    int len, cap;
} InstrVec;

#define KN_FUSE_MAX_LEAVES 8 /* the elementwise loop's operand limit (lower/array.c) */

typedef struct Fuser {
    KnCompilation *c;
    int *uses;       /* by instruction id */
    KnBlock **owner; /* block of each instruction, by id */
    char *interior;  /* by id: folded into its user */
    int *effects;    /* by id: side-effecting instructions before it in its block */
    int *raises;     /* by id: instructions before it in its block that may raise */
} Fuser;

/* may write array memory: moving a computation past it could change what it reads */
static int
has_effects(const KnInstr *in)
{
    if (in->op == KN_OP_SETITEM)
        return 1;
    return in->op == KN_OP_CALL && !kn_pass_is_elementwise(in) && in->type &&
           in->type->kind != KN_TY_FUNC;
}

/* an index with an array in it (advanced indexing: a copy, bounds always checked) */
static int
fancy_index(const KnType *idx)
{
    if (!idx)
        return 0;
    if (idx->kind == KN_TY_ARRAY)
        return 1;
    for (int i = 0; idx->kind == KN_TY_TUPLE && i < idx->n; i++)
        if (idx->items[i]->kind == KN_TY_ARRAY)
            return 1;
    return 0;
}

/* May this instruction raise, other than as an elementwise node (whose errors, broadcasting
 * and int bounds, may be reordered among themselves)? Loads of arrays and views do not, except
 * a view taken with boundscheck (a[i] of a 2-D array). */
static int
raise_barrier(const KnCompilation *c, const KnInstr *in)
{
    if (kn_pass_is_elementwise(in))
        return 0;
    if (in->op == KN_OP_ARG || in->op == KN_OP_LOAD)
        return 0;
    if (in->op == KN_OP_GETITEM && in->type && in->type->kind == KN_TY_ARRAY)
        return c->boundscheck || fancy_index(in->args[1]->type); /* a[idx] checks always */
    return kn_pass_instr_raises(c, in);
}

/* May the elementwise node itself raise: two array operands (broadcasting) or an int scalar
 * operand (NumPy 2's bounds check of a Python int)? */
static int
node_raises(const KnInstr *in)
{
    int arrays = 0;
    for (int i = first_operand(in); i < in->nargs; i++) {
        const KnType *t = in->args[i]->type;
        if (t && t->kind == KN_TY_ARRAY)
            arrays++;
        else if (t && t->kind == KN_TY_INT)
            return 1;
    }
    return arrays > 1;
}

static int subtree_raises(Fuser *f, const KnInstr *in, const KnBlock *blk);

/* child can be evaluated inside user's loop: used once, there, with no writes in between, and
 * no instruction in between that may raise first if the child's tree may raise */
static int
foldable_into(Fuser *f, const KnInstr *child, const KnInstr *user, const KnBlock *blk)
{
    if (!kn_pass_is_elementwise(child) || f->uses[child->id] != 1 || f->owner[child->id] != blk ||
        f->effects[user->id] != f->effects[child->id] + has_effects(child))
        return 0;
    return f->raises[user->id] == f->raises[child->id] + raise_barrier(f->c, child) ||
           !subtree_raises(f, child, blk);
}

static int
subtree_raises(Fuser *f, const KnInstr *in, const KnBlock *blk)
{
    if (node_raises(in))
        return 1;
    for (int i = first_operand(in); i < in->nargs; i++)
        if (foldable_into(f, in->args[i], in, blk) && subtree_raises(f, in->args[i], blk))
            return 1;
    return 0;
}

/* collect the leaves under `in` (marking the interior nodes when `mark`) */
static void
collect(Fuser *f, KnInstr *in, KnBlock *blk, InstrVec *leaves, int mark)
{
    for (int i = first_operand(in); i < in->nargs; i++) {
        KnInstr *a = in->args[i];
        if (foldable_into(f, a, in, blk)) {
            if (mark)
                f->interior[a->id] = 1;
            collect(f, a, blk, leaves, mark);
            continue;
        }
        int seen = 0;
        for (int k = 0; k < leaves->len; k++)
            seen |= leaves->items[k] == a;
        if (!seen)
            KN_VEC_PUSH(&f->c->arena, *leaves, a);
    }
}

static int
has_foldable_child(Fuser *f, KnInstr *in, KnBlock *blk)
{
    for (int i = first_operand(in); i < in->nargs; i++)
        if (foldable_into(f, in->args[i], in, blk))
            return 1;
    return 0;
}

static void
count_uses(Fuser *f)
{
    KnFunction *fn = f->c->fn;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            f->owner[in->id] = blk;
            KnInstr *prev = i ? blk->instrs.items[i - 1] : NULL;
            f->effects[in->id] = prev ? f->effects[prev->id] + has_effects(prev) : 0;
            f->raises[in->id] = prev ? f->raises[prev->id] + raise_barrier(f->c, prev) : 0;
            for (int k = 0; k < in->nargs; k++)
                f->uses[in->args[k]->id]++;
        }
    }
}

int
kn_pass_fuse(KnCompilation *c)
{
    KnFunction *fn = c->fn;
    Fuser f = {c, NULL, NULL, NULL, NULL, NULL};
    size_t n = (size_t)fn->next_id + 1;
    f.uses = kn_arena_alloc(&c->arena, sizeof(int) * n);
    f.owner = kn_arena_alloc(&c->arena, sizeof(KnBlock *) * n);
    f.interior = kn_arena_alloc(&c->arena, n);
    f.effects = kn_arena_alloc(&c->arena, sizeof(int) * n);
    f.raises = kn_arena_alloc(&c->arena, sizeof(int) * n);
    count_uses(&f);
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        if (!blk->reachable)
            continue;
        /* roots: elementwise instructions not folded into a user; walk from the end */
        for (int i = blk->instrs.len - 1; i >= 0; i--) {
            KnInstr *in = blk->instrs.items[i];
            if (f.interior[in->id] || !kn_pass_is_elementwise(in) ||
                !has_foldable_child(&f, in, blk))
                continue;
            InstrVec leaves = {NULL, 0, 0};
            collect(&f, in, blk, &leaves, 0);
            if (leaves.len > KN_FUSE_MAX_LEAVES)
                continue;
            leaves.len = 0;
            collect(&f, in, blk, &leaves, 1);
            /* the FUSED instruction replaces the root; the root keeps the tree */
            KnInstr *root = kn_arena_alloc(&c->arena, sizeof(KnInstr));
            *root = *in;
            in->op = KN_OP_FUSED;
            in->nargs = leaves.len;
            in->args = leaves.items;
            in->imm.ptr = root;
            in->aux = 0;
        }
        /* drop the interior instructions */
        int w = 0;
        for (int i = 0; i < blk->instrs.len; i++)
            if (!f.interior[blk->instrs.items[i]->id])
                blk->instrs.items[w++] = blk->instrs.items[i];
        blk->instrs.len = w;
    }
    return 0;
}
