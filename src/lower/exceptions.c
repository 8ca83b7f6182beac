/* exceptions.c - lowering of try/except: raise (with run-time arguments), exc_match, reraise.
 *
 * In a function with handlers the pending exception is an entry-block KnExcInfo of its own,
 * which callees fill too, copied to the caller's %exc only when it leaves the function
 * (kn_lower_exc_leaving): a raise caught in the same function then stays in registers (SROA),
 * and a clause whose match is known folds away. A raise in a
 * block with an unwind target records the exception there, releases the block's owned
 * temporaries (the release chain, emit.c) and branches to the handler's block instead of
 * returning a status (kn_lower_unwind, l->handler). Variables stay alive: the handler reads
 * them.
 *
 * exc_match reads the table index of the pending exception and tests it against a constant
 * byte map made at compile time: entry k of the exception table is 1 when its class is a
 * subclass of one of the clause's classes (the dispatcher's exc_match hook answers with
 * PyObject_IsSubclass). Entries added to the table after this function was lowered (a callee
 * compiled later, in a recursion cycle) are tested at run time (kn_rt_exc_match_late,
 * dispatch/exc.c). A match of BaseException is always true. exc_match with aux N > 0 also
 * saves the pending exception in try N's slot, which `reraise try#N` restores: a bare raise
 * re-raises what its clause caught even after a nested try caught something else. On a match the
 * message arguments and the callee location are cleared, so that a later raise of a constant
 * exception does not pick them up.
 *
 * A raise's run-time arguments go to KnExcInfo.args, with nargs = n | kinds << 8 (4 bits per
 * argument: 1 int64, 2 uint64, 3 bool, 4 float64 bits, 5 str, whose text the runtime keeps:
 * kn_rt_exc_text). The dispatcher rebuilds the Python values (dispatch/exc.c). `raise ... from
 * e` first hands e (its try's saved KnExcInfo) to the runtime (kn_rt_exc_keep_cause). */
#include "lower/internal.h"

enum { EXC_FIELDS = 8, F_INDEX = 0, F_NARGS = 1, F_ARGS = 2, F_CALLED_FROM = 7 };

static LLVMTypeRef
excinfo_type(L *l)
{
    return LLVMArrayType2(l->i64, EXC_FIELDS);
}

static LLVMValueRef
field(L *l, int k)
{
    LLVMValueRef off = LLVMConstInt(l->i64, (unsigned long long)k, 0);
    return LLVMBuildInBoundsGEP2(l->b, l->i64, l->exc_ptr, &off, 1, "");
}

void
kn_lower_exc_setup(L *l)
{
    KnFunction *fn = l->c->fn;
    int any = 0, ntries = 0;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        any |= blk->reachable && blk->unwind;
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if ((in->op == KN_OP_EXC_MATCH || in->op == KN_OP_RERAISE) && in->aux > ntries)
                ntries = in->aux;
        }
    }
    if (any) { /* the pending exception lives here; copied out when it leaves the function */
        l->exc_out = l->exc_ptr; /* NULL: the direct ABI */
        l->exc_ptr = kn_lower_entry_alloca(l, excinfo_type(l), "excinfo");
        LLVMBuildStore(l->b, LLVMConstNull(excinfo_type(l)), l->exc_ptr);
    }
    l->nexc_saved = ntries;
    l->exc_saved = kn_arena_alloc(&l->c->arena, sizeof(LLVMValueRef) * (size_t)(ntries + 1));
}

/* An exception leaves the function: the caller's KnExcInfo gets the pending one. */
void
kn_lower_exc_leaving(L *l)
{
    if (l->exc_out)
        LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, excinfo_type(l), l->exc_ptr, ""), l->exc_out);
}

static LLVMValueRef
saved(L *l, int id)
{
    if (!l->exc_saved[id])
        l->exc_saved[id] = kn_lower_entry_alloca(l, excinfo_type(l), "caught");
    return l->exc_saved[id];
}

LLVMValueRef
kn_lower_exc_saved(L *l, int id)
{
    return id > 0 && id <= l->nexc_saved ? saved(l, id) : NULL;
}

static void
copy_excinfo(L *l, LLVMValueRef to, LLVMValueRef from)
{
    LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, excinfo_type(l), from, ""), to);
}

/* 1 when exception table entry k (its class) is a subclass of one of in's classes */
static LLVMValueRef
match_map(L *l, KnInstr *in, int64_t *n)
{
    const KnHooks *h = l->c->hooks;
    KN_VEC(LLVMValueRef) bytes = {0};
    for (int64_t k = 0; h && h->exc_match && k < (1 << 20); k++) {
        int m = 0, r = 0;
        for (int i = 0; i < in->nargs && r >= 0; i++) {
            r = h->exc_match(l->c, in->args[i]->type->ref, k);
            m |= r > 0;
        }
        if (r < 0)
            break;
        KN_VEC_PUSH(&l->c->arena, bytes, LLVMConstInt(l->i8, (unsigned long long)m, 0));
    }
    *n = bytes.len;
    LLVMTypeRef at = LLVMArrayType2(l->i8, (uint64_t)bytes.len);
    LLVMValueRef g = LLVMAddGlobal(l->mod, at, "kn_exc_map");
    LLVMSetInitializer(g, LLVMConstArray2(l->i8, bytes.items, (uint64_t)bytes.len));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddr(g, 1);
    return g;
}

static LLVMValueRef
class_ptr(L *l, const KnInstr *cls)
{
    return LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)cls->type->ref, 0),
                             l->ptr);
}

static LLVMValueRef
match_value(L *l, KnInstr *in, LLVMValueRef idx)
{
    for (int i = 0; i < in->nargs; i++)
        if (in->args[i]->type->ref && in->args[i]->type->name &&
            !strcmp(in->args[i]->type->name, "BaseException"))
            return LLVMConstInt(l->i1, 1, 0);
    int64_t n;
    LLVMValueRef map = match_map(l, in, &n);
    LLVMBasicBlockRef tbl = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "exc_map");
    LLVMBasicBlockRef late = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "exc_late");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "exc_matched");
    kn_lower_cold_branch(
        l, LLVMBuildICmp(l->b, LLVMIntUGE, idx, LLVMConstInt(l->i64, (unsigned long long)n, 0), ""),
        late, tbl);
    LLVMPositionBuilderAtEnd(l->b, tbl);
    LLVMValueRef at[2] = {LLVMConstInt(l->i64, 0, 0), idx};
    LLVMValueRef byte = LLVMBuildLoad2(
        l->b, l->i8,
        LLVMBuildInBoundsGEP2(l->b, LLVMArrayType2(l->i8, (uint64_t)n), map, at, 2, ""), "");
    LLVMValueRef in_map = LLVMBuildICmp(l->b, LLVMIntNE, byte, LLVMConstInt(l->i8, 0, 0), "");
    LLVMBuildBr(l->b, join);
    LLVMPositionBuilderAtEnd(l->b, late);
    LLVMValueRef any = LLVMConstInt(l->i1, 0, 0);
    for (int i = 0; i < in->nargs; i++) {
        LLVMTypeRef params[2] = {l->i64, l->ptr};
        LLVMValueRef args[2] = {idx, class_ptr(l, in->args[i])};
        LLVMValueRef r = kn_lower_extern(l, "kn_rt_exc_match_late", l->i32, params, 2, args);
        any = LLVMBuildOr(l->b, any,
                          LLVMBuildICmp(l->b, LLVMIntNE, r, LLVMConstInt(l->i32, 0, 0), ""), "");
    }
    LLVMBasicBlockRef late_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, join);
    LLVMPositionBuilderAtEnd(l->b, join);
    LLVMValueRef phi = LLVMBuildPhi(l->b, l->i1, "exc_match");
    LLVMValueRef vals[2] = {in_map, any};
    LLVMBasicBlockRef from[2] = {tbl, late_end};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

LLVMValueRef
kn_lower_exc_match(L *l, KnInstr *in)
{
    if (!l->exc_ptr)
        return LLVMConstInt(l->i1, 0, 0); /* no protected block reaches it */
    if (in->aux > 0 && in->aux <= l->nexc_saved)
        copy_excinfo(l, saved(l, in->aux), l->exc_ptr);
    LLVMValueRef idx = LLVMBuildLoad2(l->b, l->i64, field(l, F_INDEX), "exc_index");
    LLVMValueRef m = match_value(l, in, idx);
    /* taken: a later raise of a constant exception must not see its arguments */
    LLVMValueRef nargs = field(l, F_NARGS);
    LLVMBuildStore(l->b,
                   LLVMBuildSelect(l->b, m, LLVMConstInt(l->i64, 0, 0),
                                   LLVMBuildLoad2(l->b, l->i64, nargs, ""), ""),
                   nargs);
    LLVMValueRef from = field(l, F_CALLED_FROM);
    LLVMBuildStore(l->b,
                   LLVMBuildSelect(l->b, m, LLVMConstInt(l->i64, 0, 0),
                                   LLVMBuildLoad2(l->b, l->i64, from, ""), ""),
                   from);
    return m;
}

static int
leaves_direct(L *l)
{
    if (l->direct && !l->handler) {
        kn_lower_not_raising(l);
        return 1;
    }
    return 0;
}

void
kn_lower_reraise(L *l, KnInstr *in)
{
    if (leaves_direct(l))
        return;
    if (in->aux > 0 && in->aux <= l->nexc_saved)
        copy_excinfo(l, l->exc_ptr, saved(l, in->aux));
    kn_lower_unwind(l, LLVMConstInt(l->i32, 1, 0));
}

/* a run-time argument as an i64 and its kind code (see the top of this file) */
static LLVMValueRef
arg_bits(L *l, int k, const KnInstr *a, int *kind)
{
    LLVMValueRef v = l->vals[a->id];
    const KnType *t = a->type;
    switch (t->kind) {
    case KN_TY_BOOL:
        *kind = 3;
        return LLVMBuildZExt(l->b, v, l->i64, "");
    case KN_TY_FLOAT:
        *kind = 4;
        if (t->bits == 32)
            v = LLVMBuildFPExt(l->b, v, l->f64, "");
        return LLVMBuildBitCast(l->b, v, l->i64, "");
    case KN_TY_STR: {
        *kind = 5;
        LLVMTypeRef params[2] = {l->i64, l->ptr};
        LLVMValueRef args[2] = {LLVMConstInt(l->i64, (unsigned long long)k, 0),
                                kn_lower_str_spill(l, v)};
        kn_lower_extern(l, "kn_rt_exc_text", LLVMVoidTypeInContext(l->ctx), params, 2, args);
        return LLVMConstInt(l->i64, 0, 0);
    }
    default:
        *kind = t->is_signed ? 1 : 2;
        if (t->bits == 64)
            return v;
        return t->is_signed ? LLVMBuildSExt(l->b, v, l->i64, "")
                            : LLVMBuildZExt(l->b, v, l->i64, "");
    }
}

void
kn_lower_raise(L *l, KnInstr *in)
{
    if (leaves_direct(l))
        return;
    if (in->imm.i > 0 && in->imm.i <= l->nexc_saved) { /* from e: the runtime keeps e */
        LLVMTypeRef p = l->ptr;
        LLVMValueRef e = saved(l, (int)in->imm.i);
        kn_lower_extern(l, "kn_rt_exc_keep_cause", LLVMVoidTypeInContext(l->ctx), &p, 1, &e);
    }
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, (unsigned)in->aux, 0), l->exc_ptr);
    kn_lower_store_where(l);
    if (in->nargs) {
        uint64_t code = (uint64_t)in->nargs;
        for (int k = 0; k < in->nargs && k < 4; k++) {
            int kind = 0;
            LLVMBuildStore(l->b, arg_bits(l, k, in->args[k], &kind), field(l, F_ARGS + k));
            code |= (uint64_t)kind << (8 + 4 * k);
        }
        LLVMBuildStore(l->b, LLVMConstInt(l->i64, code, 0), field(l, F_NARGS));
    }
    kn_lower_unwind(l, LLVMConstInt(l->i32, 1, 0));
}
