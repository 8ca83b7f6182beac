/* prange.c - outlining of the prange loops of a parallel=True function (kn_pass_prange).
 *
 * Input: typed KIR in which the frontend marked the range iterator of each `for ... in
 * prange(...)` with a literal step (GETITER range, imm.i = 1: frontend/loops.c). For each such
 * loop this pass finds its blocks (the natural loop of the iterator's head), classifies every
 * variable the loop touches by Numba's rules (docs/parallel.md, "prange loops"):
 *   - captured: read in the loop, never written there: passed in, read-only;
 *   - private: written in the loop before any read in the same iteration (the loop index, the
 *     temporaries): a variable of the body; when it is read after the loop too, the value of
 *     the last iteration is copied out (Python's value), for scalars;
 *   - reduction: read only as the left (or, for a commutative operator, either) operand of
 *     `v op= e` / `v = v op e` (+ - * / | & ^) or of `v = min(v, e)` / `max`, every write
 *     being of one kind: each thread starts from the identity (min/max: v's value) and the
 *     partials are combined after the loop in thread order;
 *   - anything else read and written across iterations is a race: the loop stays serial, with
 *     a parallel_diagnostics note naming the variable.
 * It then moves the loop's blocks into a function of their own (KnPrangeRegion.body: the
 * parameters lo and hi of the chunk's range, the captured values, the reductions' starting
 * values; it returns the tuple of the reductions' partials and of the values copied out), and
 * puts in the loop's place a PAR_FOR call (lib/prange.def) of the loop's start and stop, the
 * captured values and the reductions' values, followed by a store of each result. Lowering
 * (lower/prange.c) compiles the body and runs it on the pool through kn_par_for. Loops that
 * cannot be outlined stay as they are (serial), with a note saying why; every prange loop gets
 * a note. A prange loop nested in an outlined one is outlined with it and runs serially inside
 * its worker (the body is lowered as an ordinary function: its marks are ignored). */
#include "passes/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Scan {
    KnCompilation *c;
    KnFunction *fn;
    char *in_loop; /* by block id */
    KnBlock *head; /* the iterator's head: ITERNEXT */
    KnInstr *it;   /* the GETITER */
    int nvars;
    int *loads, *stores, *exposed, *outside; /* by variable */
    int *red_kind;                           /* by variable: KN_BIN_*, RED_MIN/RED_MAX, or -3 */
    KnInstr **red_op;                        /* by variable: one of its reduction operations */
    int *matched;                            /* by variable: loads that are reduction operands */
    char why[256];
} Scan;

enum {
    RED_MIN = KN_PRANGE_MIN,
    RED_MAX = KN_PRANGE_MAX,
    RED_NONE = KN_PRANGE_LAST,
    RED_UNSET = -4
};

static KnBlock *
succ(const KnBlock *b, int k)
{
    KnInstr *t = kn_kir_terminator(b);
    if (!t)
        return NULL;
    if (t->op == KN_OP_BR)
        return k == 0 ? t->targets[0] : NULL;
    if (t->op == KN_OP_CBR || t->op == KN_OP_ITERNEXT)
        return k < 2 ? t->targets[k] : NULL;
    return NULL;
}

/* Mark in `mark` the blocks reachable from `from` without entering `stop` (NULL: none). */
static void
reach(KnFunction *fn, KnBlock *from, KnBlock *stop, char *mark, KnBlock *skip_unwind)
{
    if (!from || from == stop || mark[from->id])
        return;
    KnBlock **stack = malloc(sizeof(KnBlock *) * (size_t)(fn->blocks.len * 3 + 4));
    int n = 0;
    stack[n++] = from;
    mark[from->id] = 1;
    while (n) {
        KnBlock *b = stack[--n];
        KnBlock *next[3] = {succ(b, 0), succ(b, 1), b->unwind == skip_unwind ? NULL : b->unwind};
        for (int k = 0; k < 3; k++) {
            KnBlock *s = next[k];
            if (!s || s == stop || mark[s->id])
                continue;
            mark[s->id] = 1;
            stack[n++] = s;
        }
    }
    free(stack);
}

static int
is_load_of(const KnInstr *in, int v)
{
    return in && in->op == KN_OP_LOAD && in->aux == v;
}

/* A reduction update `store v X`: its kind, or RED_NONE. *operand_load: the load of v used. */
static int
update_kind(const KnInstr *x, int v)
{
    if (x->op == KN_OP_BINOP && x->nargs == 2 && x->impl) {
        int comm = x->aux == KN_BIN_ADD || x->aux == KN_BIN_MUL || x->aux == KN_BIN_AND ||
                   x->aux == KN_BIN_OR || x->aux == KN_BIN_XOR;
        int ok = x->aux == KN_BIN_ADD || x->aux == KN_BIN_SUB || x->aux == KN_BIN_MUL ||
                 x->aux == KN_BIN_TRUEDIV || comm;
        if (!ok || (is_load_of(x->args[0], v) && is_load_of(x->args[1], v)))
            return RED_NONE;
        if (is_load_of(x->args[0], v) || (comm && is_load_of(x->args[1], v)))
            return x->aux == KN_BIN_SUB       ? KN_BIN_ADD
                   : x->aux == KN_BIN_TRUEDIV ? KN_BIN_MUL
                                              : x->aux;
        return RED_NONE;
    }
    if (x->op == KN_OP_CALL && x->nargs == 3 && x->impl) {
        const KnCallImpl *impl = x->impl;
        if (impl->kind != KN_CALL_BUILTIN ||
            (impl->builtin != KN_BI_MIN && impl->builtin != KN_BI_MAX))
            return RED_NONE;
        if (is_load_of(x->args[1], v) == is_load_of(x->args[2], v))
            return RED_NONE;
        return impl->builtin == KN_BI_MIN ? RED_MIN : RED_MAX;
    }
    return RED_NONE;
}

static int
scalar_kind(const KnType *t, int kind)
{
    if (!t)
        return 0;
    if (t->kind == KN_TY_INT || t->kind == KN_TY_FLOAT)
        return 1;
    if (t->kind == KN_TY_COMPLEX)
        return kind == KN_BIN_ADD || kind == KN_BIN_MUL;
    if (t->kind == KN_TY_BOOL)
        return kind == KN_BIN_AND || kind == KN_BIN_OR || kind == KN_BIN_XOR;
    return 0;
}

/* Forward must-assigned analysis over the loop's blocks: a load of a variable not assigned on
 * every path from the start of the iteration marks it exposed. */
static void
find_exposed(Scan *s, KnBlock *entry)
{
    KnFunction *fn = s->fn;
    int nb = fn->blocks.len, nv = s->nvars;
    char *out = calloc((size_t)nb * (size_t)nv + 1, 1), *cur = malloc((size_t)nv + 1);
    char *done = calloc((size_t)nb + 1, 1);
    for (int b = 0; b < nb; b++)
        if (s->in_loop[b] && fn->blocks.items[b] != entry)
            memset(out + (size_t)b * (size_t)nv, 1, (size_t)nv);
    for (int changed = 1, round = 0; changed && round < 1000; round++) {
        changed = 0;
        for (int b = 0; b < nb; b++) {
            if (!s->in_loop[b])
                continue;
            KnBlock *blk = fn->blocks.items[b];
            /* IN: the intersection of the loop predecessors' OUT (the entry: nothing) */
            if (blk == entry) {
                memset(cur, 0, (size_t)nv);
            } else {
                memset(cur, 1, (size_t)nv);
                int preds = 0;
                for (int p = 0; p < nb; p++) {
                    if (!s->in_loop[p])
                        continue;
                    KnBlock *pb = fn->blocks.items[p];
                    if (succ(pb, 0) != blk && succ(pb, 1) != blk && pb->unwind != blk)
                        continue;
                    preds++;
                    /* an unwind edge leaves from the block's start: its IN (approximated by
                     * nothing assigned) */
                    int via_unwind = pb->unwind == blk && succ(pb, 0) != blk && succ(pb, 1) != blk;
                    for (int v = 0; v < nv; v++)
                        cur[v] &= via_unwind ? 0 : out[(size_t)p * (size_t)nv + (size_t)v];
                }
                if (!preds)
                    memset(cur, 0, (size_t)nv);
            }
            for (int i = 0; i < blk->instrs.len; i++) {
                KnInstr *in = blk->instrs.items[i];
                if (in->op == KN_OP_LOAD && !cur[in->aux])
                    s->exposed[in->aux] = 1;
                if (in->op == KN_OP_STORE)
                    cur[in->aux] = 1;
            }
            char *o = out + (size_t)b * (size_t)nv;
            if (memcmp(o, cur, (size_t)nv)) {
                memcpy(o, cur, (size_t)nv);
                changed = 1;
            }
            done[b] = 1;
        }
    }
    free(out);
    free(cur);
    free(done);
}

static void
note_serial(Scan *s, const char *why)
{
    kn_par_note(s->c, s->it->span, "prange loop", 0, why);
}

static KnInstr *
terminator_iternext(KnBlock *b, KnInstr *it)
{
    KnInstr *t = kn_kir_terminator(b);
    return t && t->op == KN_OP_ITERNEXT && t->args[0] == it ? t : NULL;
}

/* ---- building ---- */

static KnInstr *
emit(KnBuilder *b, KnOp op, KnSpan sp, int nargs, KnInstr **args, KnType *type)
{
    KnInstr *in = kn_kir_emit(b, op, sp, nargs, args);
    in->type = type;
    return in;
}

static KnInstr *
emit_const_int(KnBuilder *b, KnSpan sp, int64_t v)
{
    KnInstr *in = emit(b, KN_OP_CONST, sp, 0, NULL, &kn_type_int64);
    in->imm.i = v;
    return in;
}

static KnInstr *
emit_load(KnBuilder *b, KnSpan sp, int var, KnType *t)
{
    KnInstr *in = emit(b, KN_OP_LOAD, sp, 0, NULL, t);
    in->aux = var;
    return in;
}

static void
emit_store(KnBuilder *b, KnSpan sp, int var, KnInstr *v)
{
    KnInstr *in = emit(b, KN_OP_STORE, sp, 1, &v, NULL);
    in->aux = var;
}

/* Outline one analysed loop: returns 0, or -1 with a diagnostic. */
static int
outline(Scan *s, KnBlock *pre, int index)
{
    KnCompilation *c = s->c;
    KnFunction *fn = s->fn;
    KnArena *a = &c->arena;
    KnInstr *next = terminator_iternext(s->head, s->it);
    KnBlock *done = next->targets[1];
    KnSpan sp = s->it->span;
    int nv = s->nvars;
    KnPrangeRegion *r = kn_arena_alloc(a, sizeof *r);
    r->step = s->it->args[2]->imm.i;
    r->span = sp;
    char name[512];
    snprintf(name, sizeof name, "%s.prange%d", fn->name, index);
    r->body = kn_kir_function_new(a, kn_arena_strdup(a, name), fn->filename);
    snprintf(name, sizeof name, "%s.prange%d", c->symbol ? c->symbol : fn->name, index);
    r->symbol = kn_arena_strdup(a, name);
    snprintf(name, sizeof name, "%s.prange%d_wrap", c->symbol ? c->symbol : fn->name, index);
    r->wrapper = kn_arena_strdup(a, name);
    KnFunction *bf = r->body;
    bf->span = sp;
    bf->next_id = fn->next_id;
    KnBuilder bb = {a, bf, NULL, NULL};
    /* variables: lo, hi, captured, reductions (the parameters), then the others */
    int *map = kn_arena_alloc(a, sizeof(int) * (size_t)(nv + 1));
    for (int v = 0; v < nv; v++)
        map[v] = -1;
    int lo = kn_kir_var_add(&bb, "$lo", sp), hi = kn_kir_var_add(&bb, "$hi", sp);
    bf->vars.items[lo].type = bf->vars.items[hi].type = &kn_type_int64;
    for (int pass = 0; pass < 3; pass++) {
        for (int v = 0; v < nv; v++) {
            int touched = s->loads[v] || s->stores[v];
            int cap = touched && !s->stores[v];
            int red = touched && s->stores[v] && s->red_kind[v] != RED_NONE &&
                      s->red_kind[v] != RED_UNSET;
            if (!touched || (pass == 0 && !cap) || (pass == 1 && !red) ||
                (pass == 2 && (cap || red)))
                continue;
            KnVar *ov = &fn->vars.items[v];
            map[v] = kn_kir_var_add(&bb, ov->name, ov->span);
            bf->vars.items[map[v]].type = ov->type;
            if (pass == 0)
                r->ncap++;
            if (pass == 1)
                r->nred++;
        }
    }
    bf->nparams = 2 + r->ncap + r->nred;
    bf->arg_types = kn_arena_alloc(a, sizeof(KnType *) * (size_t)(bf->nparams + 1));
    for (int i = 0; i < bf->nparams; i++) {
        bf->vars.items[i].is_param = 1;
        bf->arg_types[i] = bf->vars.items[i].type;
    }
    /* what comes out: the reductions, then the scalars written in the loop and read after it */
    r->vars = kn_arena_alloc(a, sizeof(int) * (size_t)(nv + 1));
    r->red_kind = kn_arena_alloc(a, sizeof(int) * (size_t)(nv + 1));
    r->red_op = kn_arena_alloc(a, sizeof(KnInstr *) * (size_t)(nv + 1));
    KnType **outs = kn_arena_alloc(a, sizeof(KnType *) * (size_t)(nv + 1));
    int nout = 0;
    for (int i = 2 + r->ncap; i < bf->nparams; i++) {
        int v = -1;
        for (int k = 0; k < nv; k++)
            if (map[k] == i)
                v = k;
        r->vars[nout] = v;
        r->red_kind[nout] = s->red_kind[v];
        r->red_op[nout] = s->red_op[v];
        outs[nout++] = fn->vars.items[v].type;
    }
    for (int v = 0; v < nv; v++)
        if (map[v] >= bf->nparams && s->outside[v]) {
            r->vars[nout] = v;
            r->red_kind[nout] = RED_NONE;
            outs[nout++] = fn->vars.items[v].type;
            r->nlast++;
        }
    r->ret = nout ? kn_type_tuple(c->types, outs, nout) : &kn_type_none;
    bf->ret_type = r->ret;
    r->cap_vars = kn_arena_alloc(a, sizeof(int) * (size_t)(r->ncap + 1));
    for (int v = 0, k = 0; v < nv; v++)
        if (map[v] >= 2 && map[v] < 2 + r->ncap)
            r->cap_vars[k++] = v;
    /* the body: entry (parameters, the chunk's range iterator), the loop's blocks, the exit */
    KnBlock *entry = kn_kir_block_new(&bb);
    entry->reachable = 1;
    bb.cur = entry;
    for (int i = 0; i < bf->nparams; i++) {
        KnInstr *arg = emit(&bb, KN_OP_ARG, sp, 0, NULL, bf->arg_types[i]);
        arg->aux = i;
        emit_store(&bb, sp, i, arg);
    }
    KnInstr *parts[3] = {emit_load(&bb, sp, lo, &kn_type_int64),
                         emit_load(&bb, sp, hi, &kn_type_int64), emit_const_int(&bb, sp, r->step)};
    KnInstr *it2 = emit(&bb, KN_OP_GETITER, sp, 3, parts, s->it->type);
    it2->aux = s->it->aux;
    KnInstr *br = emit(&bb, KN_OP_BR, sp, 0, NULL, NULL);
    br->targets[0] = s->head;
    for (int b = 0; b < fn->blocks.len; b++) {
        if (!s->in_loop[b])
            continue;
        KnBlock *blk = fn->blocks.items[b];
        KN_VEC_PUSH(a, bf->blocks, blk);
        if (blk->unwind && !s->in_loop[blk->unwind->id])
            blk->unwind = NULL; /* the enclosing try's handler: the region call's block has it */
        for (int i = 0; i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op == KN_OP_LOAD || in->op == KN_OP_STORE)
                in->aux = map[in->aux];
        }
    }
    next->args[0] = it2;
    KnBlock *exit = kn_kir_block_new(&bb);
    exit->reachable = 1;
    next->targets[1] = exit;
    bb.cur = exit;
    KnInstr *rv;
    if (nout) {
        KnInstr **items = kn_arena_alloc(a, sizeof(KnInstr *) * (size_t)nout);
        for (int k = 0; k < nout; k++)
            items[k] = emit_load(&bb, sp, map[r->vars[k]], outs[k]);
        rv = emit(&bb, KN_OP_TUPLE, sp, nout, items, r->ret);
    } else {
        rv = emit(&bb, KN_OP_CONST, sp, 0, NULL, &kn_type_none);
    }
    emit(&bb, KN_OP_RET, sp, 1, &rv, NULL);
    for (int b = 0; b < bf->blocks.len; b++)
        bf->blocks.items[b]->id = b;
    r->nout = nout;
    /* the parent: the region call in the loop's place, in its preheader */
    KnBuilder pb = {a, fn, pre, NULL};
    pre->instrs.len--; /* its `br head` */
    for (int i = 0; i < pre->instrs.len; i++)
        if (pre->instrs.items[i] == s->it) { /* the iterator: made in the body now */
            memmove(pre->instrs.items + i, pre->instrs.items + i + 1,
                    sizeof(KnInstr *) * (size_t)(pre->instrs.len - i - 1));
            pre->instrs.len--;
            break;
        }
    int nargs = 3 + r->ncap + r->nred;
    KnInstr **args = kn_arena_alloc(a, sizeof(KnInstr *) * (size_t)nargs);
    KnInstr *g = emit(&pb, KN_OP_GLOBAL, sp, 0, NULL,
                      kn_type_func(c->types, KN_BI_PAR_FOR, NULL, "kiln._prange_region"));
    g->imm.ptr = r;
    args[0] = g;
    args[1] = s->it->args[0];
    args[2] = s->it->args[1];
    for (int k = 0; k < r->ncap; k++)
        args[3 + k] = emit_load(&pb, sp, r->cap_vars[k], fn->vars.items[r->cap_vars[k]].type);
    for (int k = 0; k < r->nred; k++)
        args[3 + r->ncap + k] = emit_load(&pb, sp, r->vars[k], outs[k]);
    KnInstr *call = emit(&pb, KN_OP_CALL, sp, nargs, args, r->ret);
    KnCallImpl *impl = kn_arena_alloc(a, sizeof *impl);
    impl->kind = KN_CALL_BUILTIN;
    impl->builtin = KN_BI_PAR_FOR;
    call->impl = impl;
    for (int k = 0; k < nout; k++) {
        KnInstr *ga[2] = {call, emit_const_int(&pb, sp, k)};
        emit_store(&pb, sp, r->vars[k], emit(&pb, KN_OP_GETITEM, sp, 2, ga, outs[k]));
    }
    KnInstr *pbr = emit(&pb, KN_OP_BR, sp, 0, NULL, NULL);
    pbr->targets[0] = done;
    /* the parent loses the loop's blocks */
    int w = 0;
    for (int b = 0; b < fn->blocks.len; b++)
        if (!s->in_loop[b])
            fn->blocks.items[w++] = fn->blocks.items[b];
    fn->blocks.len = w;
    for (int b = 0; b < w; b++)
        fn->blocks.items[b]->id = b;
    KnStrBuf why;
    kn_sb_init(&why);
    int rc = kn_kir_verify(bf, &why);
    if (rc < 0)
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, sp,
                      "internal error: bad KIR from prange outlining: %s", why.data);
    kn_sb_fini(&why);
    return rc;
}

/* ---- analysis ---- */

static void
count_uses(Scan *s)
{
    KnFunction *fn = s->fn;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (!s->in_loop[b]) {
                if (in->op == KN_OP_LOAD)
                    s->outside[in->aux] = 1;
                continue;
            }
            if (in->op == KN_OP_LOAD)
                s->loads[in->aux]++;
            if (in->op != KN_OP_STORE)
                continue;
            int v = in->aux;
            s->stores[v]++;
            int k = update_kind(in->args[0], v);
            if (s->red_kind[v] == RED_UNSET)
                s->red_kind[v] = k;
            else if (s->red_kind[v] != k)
                s->red_kind[v] = RED_NONE;
            if (k != RED_NONE) {
                s->red_op[v] = in->args[0];
                s->matched[v]++;
            }
        }
    }
}

/* Why the loop of s cannot be outlined (in s->why), or 0 when it can. */
static int
refuse(Scan *s, KnBlock *body_entry, KnBlock *done, KnBlock **pre_out)
{
    KnFunction *fn = s->fn;
    int nb = fn->blocks.len;
    char *after = calloc((size_t)nb + 1, 1);
    reach(fn, done, s->head, after, NULL);
    if (s->head->unwind)
        reach(fn, s->head->unwind, s->head, after, NULL);
    reach(fn, body_entry, s->head, s->in_loop, s->head->unwind);
    s->in_loop[s->head->id] = 1;
    int rc = 0;
    char *defined = calloc((size_t)fn->next_id + 2, 1); /* by id: made in the loop */
    for (int b = 0; b < nb; b++)
        for (int i = 0; s->in_loop[b] && i < fn->blocks.items[b]->instrs.len; i++)
            defined[fn->blocks.items[b]->instrs.items[i]->id] = 1;
    for (int b = 0; b < nb && !rc; b++) {
        if (!s->in_loop[b])
            continue;
        KnBlock *blk = fn->blocks.items[b];
        if (after[b]) {
            snprintf(s->why, sizeof s->why, "it has a break");
            rc = 1;
        }
        KnInstr *t = kn_kir_terminator(blk);
        if (!rc && t && t->op == KN_OP_RET) {
            snprintf(s->why, sizeof s->why, "it has a return");
            rc = 1;
        }
        for (int i = 0; !rc && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op == KN_OP_YIELD) {
                snprintf(s->why, sizeof s->why, "it has a yield");
                rc = 1;
            }
            for (int k = 0; !rc && k < in->nargs; k++) {
                KnInstr *arg = in->args[k];
                /* every operand must be defined in the loop */
                if (arg != s->it && (arg->id > fn->next_id || !defined[arg->id])) {
                    snprintf(s->why, sizeof s->why, "a value crosses its boundary");
                    rc = 1;
                }
            }
        }
    }
    /* one preheader, ending in `br head`, holding the iterator */
    KnBlock *pre = NULL;
    int npre = 0;
    for (int b = 0; b < nb && !rc; b++) {
        KnBlock *blk = fn->blocks.items[b];
        if (s->in_loop[b] || !blk->reachable)
            continue;
        if (succ(blk, 0) == s->head || succ(blk, 1) == s->head || blk->unwind == s->head) {
            pre = blk;
            npre++;
        }
    }
    if (!rc && (npre != 1 || kn_kir_terminator(pre)->op != KN_OP_BR)) {
        snprintf(s->why, sizeof s->why, "its entry is not a plain branch");
        rc = 1;
    }
    int holds = 0;
    for (int i = 0; !rc && i < pre->instrs.len; i++)
        holds |= pre->instrs.items[i] == s->it;
    if (!rc && !holds) {
        snprintf(s->why, sizeof s->why, "its iterator is made in another block");
        rc = 1;
    }
    *pre_out = pre;
    free(after);
    free(defined);
    return rc;
}

/* Classify the variables; 1 with s->why when one of them is a race. */
static int
classify(Scan *s, KnInstr *next)
{
    KnFunction *fn = s->fn;
    count_uses(s);
    find_exposed(s, next->targets[0]);
    for (int v = 0; v < s->nvars; v++) {
        const KnVar *var = &fn->vars.items[v];
        if ((s->stores[v] || s->loads[v]) && !var->type) {
            snprintf(s->why, sizeof s->why, "variable '%s' has no type", var->name);
            return 1;
        }
        if (!s->stores[v])
            continue; /* captured (or untouched) */
        if (!s->exposed[v]) {
            s->red_kind[v] = RED_NONE; /* private */
            if (s->outside[v] && var->type && !scalar_kind(var->type, KN_BIN_ADD) &&
                var->type->kind != KN_TY_BOOL) {
                snprintf(s->why, sizeof s->why,
                         "variable '%s' is assigned in the loop and read after it (only numbers "
                         "can be: the value of the last iteration)",
                         var->name);
                return 1;
            }
            continue;
        }
        int k = s->red_kind[v];
        if (k != RED_NONE && k != RED_UNSET && s->matched[v] == s->stores[v] &&
            s->loads[v] == s->stores[v] && scalar_kind(var->type, k) &&
            !((k == RED_MIN || k == RED_MAX) && var->type->kind == KN_TY_COMPLEX))
            continue; /* a reduction */
        if (k != RED_NONE && k != RED_UNSET && var->type && var->type->kind == KN_TY_ARRAY &&
            s->matched[v] == s->stores[v] && s->loads[v] == s->stores[v])
            snprintf(s->why, sizeof s->why,
                     "variable '%s' is a whole-array reduction, which kiln does not run in "
                     "parallel yet",
                     var->name);
        else
            snprintf(s->why, sizeof s->why,
                     "variable '%s' is read and written across iterations and is not a "
                     "reduction (a race)",
                     var->name);
        return 1;
    }
    return 0;
}

static int
prange_one(KnCompilation *c, KnInstr *it, int index, int *outlined)
{
    KnFunction *fn = c->fn;
    Scan s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.fn = fn;
    s.it = it;
    s.nvars = fn->vars.len;
    for (int b = 0; b < fn->blocks.len && !s.head; b++)
        if (fn->blocks.items[b]->reachable && terminator_iternext(fn->blocks.items[b], it))
            s.head = fn->blocks.items[b];
    if (!s.head)
        return 0; /* unreachable */
    KnInstr *next = terminator_iternext(s.head, it);
    size_t nv = (size_t)s.nvars + 1;
    s.in_loop = calloc((size_t)fn->blocks.len + 1, 1);
    s.loads = calloc(nv, sizeof(int));
    s.stores = calloc(nv, sizeof(int));
    s.exposed = calloc(nv, sizeof(int));
    s.outside = calloc(nv, sizeof(int));
    s.red_kind = malloc(nv * sizeof(int));
    s.matched = calloc(nv, sizeof(int));
    s.red_op = calloc(nv, sizeof(KnInstr *));
    for (size_t v = 0; v < nv; v++)
        s.red_kind[v] = RED_UNSET;
    KnBlock *pre = NULL;
    int rc = 0;
    if (refuse(&s, next->targets[0], next->targets[1], &pre) || classify(&s, next)) {
        note_serial(&s, s.why);
    } else {
        rc = outline(&s, pre, index);
        if (rc == 0) {
            (*outlined)++;
            kn_par_note(c, it->span, "prange loop", 1, NULL);
        }
    }
    free(s.in_loop);
    free(s.loads);
    free(s.stores);
    free(s.exposed);
    free(s.outside);
    free(s.red_kind);
    free(s.matched);
    free(s.red_op);
    return rc;
}

int
kn_pass_prange(KnCompilation *c)
{
    KnFunction *fn = c->fn;
    if (!c->parallel)
        return 0;
    /* the marked iterators, outermost first (block order is creation order: an outer loop's
     * iterator comes first); one nested in an outlined loop has left fn by the time it comes */
    KN_VEC(KnInstr *) its = {0};
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op == KN_OP_GETITER && in->aux == KN_ITER_RANGE && in->imm.i == 1)
                KN_VEC_PUSH(&c->arena, its, in);
        }
    }
    int outlined = 0;
    for (int k = 0; k < its.len; k++) {
        KnInstr *it = its.items[k];
        int present = 0; /* still in fn (not moved into an outer loop's body) */
        for (int b = 0; b < fn->blocks.len && !present; b++) {
            KnBlock *blk = fn->blocks.items[b];
            for (int i = 0; i < blk->instrs.len && !present; i++)
                present = blk->instrs.items[i] == it;
        }
        if (!present) {
            kn_par_note(c, it->span, "prange loop", 0,
                        "nested in a prange loop: runs serially inside the outer loop's worker");
            continue;
        }
        if (fn->is_generator) {
            kn_par_note(c, it->span, "prange loop", 0, "in a generator: runs serially");
            continue;
        }
        KN_TRY(prange_one(c, it, outlined, &outlined));
    }
    return 0;
}
