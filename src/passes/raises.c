/* raises.c - can this function raise? A conservative answer from the typed KIR: explicit
 * raises, operators with a check (division, modulo, integer powers, shifts), indexing that
 * checks bounds, calls that can raise, and anything touching arrays (allocation can fail)
 * make it "can raise". A function that cannot raise is lowered without a status code: it
 * returns its value directly and its callers check nothing, so LLVM can treat it as an
 * ordinary function (DESIGN.md section 10; Numba pays a check on every call). A recursive call to
 * the function itself does not count: if nothing else raises, neither does the recursion. */
#include "passes/passes.h"

int
kn_pass_binop_raises(const KnInstr *in)
{
    switch (in->aux) {
    case KN_BIN_ADD:
    case KN_BIN_SUB:
    case KN_BIN_MUL:
    case KN_BIN_AND:
    case KN_BIN_OR:
    case KN_BIN_XOR:
        return 0;
    case KN_BIN_POW: {
        /* float ** float never raises; int ** int checks the exponent; 0.0 ** negative int and
         * 0j ** negative or complex raise ZeroDivisionError; a constant exponent >= 0 never */
        const KnInstr *e = in->args[1];
        int int_exp = e->type && (e->type->kind == KN_TY_INT || e->type->kind == KN_TY_BOOL);
        if (int_exp && e->op == KN_OP_CONST && e->imm.i >= 0)
            return 0;
        return !in->type || in->type->kind != KN_TY_FLOAT || int_exp;
    }
    default:
        return 1;
    }
}

/* int(x), math.floor/ceil/trunc(x) and round(x) (one argument) of a float raise for nan, inf and
 * values past int64 (lower/scalar.c, kn_lower_float_to_pyint) */
int
kn_pass_float_to_pyint(const KnInstr *in)
{
    const KnCallImpl *impl = in->impl;
    if (in->op != KN_OP_CALL || !impl || impl->kind != KN_CALL_BUILTIN)
        return 0;
    return (kn_lib_flags(impl->builtin) & KN_CF_FLOAT_TO_INT) && in->nargs >= 2 &&
           in->args[1]->type && in->args[1]->type->kind == KN_TY_FLOAT && in->type &&
           in->type->kind == KN_TY_INT;
}

static int
call_raises(const KnCompilation *c, const KnInstr *in)
{
    const KnCallImpl *impl = in->impl;
    if (!impl)
        return 1;
    switch (impl->kind) {
    case KN_CALL_CONST:
        return 0;
    case KN_CALL_JITTED:
        if (impl->callee.symbol && c->symbol && !strcmp(impl->callee.symbol, c->symbol))
            return 0;                                            /* self recursion */
        return impl->callee.can_raise || impl->callee.recursive; /* RecursionError */
    case KN_CALL_METHOD:
    case KN_CALL_OPERATOR:
        return (kn_lib_flags(impl->builtin) & KN_CF_RAISES) != 0;
    case KN_CALL_BUILTIN: {
        unsigned flags = kn_lib_flags(impl->builtin);
        if (flags & KN_CF_RAISES)
            return 1;
        if ((impl->builtin == KN_BI_MIN || impl->builtin == KN_BI_MAX) && in->nargs == 2 &&
            in->args[1]->type && in->args[1]->type->kind == KN_TY_LIST)
            return 1; /* min([]): ValueError (lower/list.c) */
        /* round(float, n): "rounded value too large to represent" */
        if ((flags & KN_CF_FLOAT_TO_INT) && in->nargs == 3 && in->type &&
            in->type->kind == KN_TY_FLOAT)
            return 1;
        return kn_pass_float_to_pyint(in);
    }
    }
    return 1;
}

int
kn_pass_instr_raises(const KnCompilation *c, const KnInstr *in)
{
    if (in->type && in->type->kind == KN_TY_ARRAY)
        return 1;
    const KnCallImpl *impl = in->impl;
    if (impl && impl->kind == KN_CALL_OPERATOR) /* an operator implemented by an entry */
        return (kn_lib_flags(impl->builtin) & KN_CF_RAISES) != 0;
    switch (kn_kir_op_raises(in->op)) { /* ops.def's raises column */
    case KN_OPF_NO:
        return 0;
    case KN_OPF_YES:
        return 1;
    case KN_OPF_DEP:
        break;
    }
    switch (in->op) {
    case KN_OP_BINOP:
        return kn_pass_binop_raises(in);
    case KN_OP_CALL:
        return call_raises(c, in);
    case KN_OP_GETITEM:
        /* a constant index into a tuple is checked by typing; everything else at run time */
        /* (untyped operands: a block typing found dead, under a constant condition) */
        return !in->args[0]->type ||
               !(in->args[0]->type->kind == KN_TY_TUPLE && in->args[1]->op == KN_OP_CONST);
    case KN_OP_SLICE:
        return !in->args[0]->type || in->args[0]->type->kind != KN_TY_TUPLE;
    case KN_OP_GETATTR: /* an attribute implemented in Python (overload_attribute) */
        return in->impl && ((const KnCallImpl *)in->impl)->kind == KN_CALL_JITTED &&
               call_raises(c, in);
    case KN_OP_ITERNEXT: /* item k is read as a GETITEM by a variable index reads it: checked;
                            a range iterator's item is its counter */
        return in->args[0]->aux != KN_ITER_RANGE;
    default:
        return 0;
    }
}

/* A counted `while` (frontend/loops.c) whose compare typing made of two signed ints ends, so
 * its head polls for Ctrl-C no more: the volatile load kept LLVM from counting, folding and
 * vectorizing the loop (bench/generators.py's hand while: ~8x Numba's time). */
void
kn_pass_drop_counted_polls(KnFunction *fn)
{
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        KnInstr *cmp = blk->counted;
        if (!blk->polls || !cmp)
            continue;
        KnType *l = cmp->args[0]->type, *r = cmp->args[1]->type;
        if (l && r && kn_type_is_int(l) && l->is_signed && kn_type_is_int(r) && r->is_signed)
            blk->polls = 0;
    }
}

int
kn_pass_can_raise(KnCompilation *c)
{
    KnFunction *fn = c->fn;
    for (int i = 0; i < fn->vars.len; i++)
        if (fn->vars.items[i].type && fn->vars.items[i].type->kind == KN_TY_ARRAY)
            return 1;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        if (blk->reachable && blk->polls)
            return 1; /* a `while` loop: KeyboardInterrupt */
        if (blk->unwind)
            continue; /* inside a try: its raises go to the handler, whose reraise counts */
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++)
            if (kn_pass_instr_raises(c, blk->instrs.items[i]))
                return 1;
    }
    return 0;
}
