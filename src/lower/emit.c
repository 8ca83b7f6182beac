/* emit.c - the floor of lower/: the emission helpers every lowering file uses. LLVM types of
 * kiln types; constants, fast-math flags, entry-block allocas; calls of intrinsics and of
 * externs (declared on first use); raising (recording the exception and its source position,
 * the cold branch, the unwind through the release chain) and the codes of runaway recursion
 * and Ctrl-C; reference counting (through each kind's lowering model, lower/model_*.c, which
 * also gives the LLVM type, truth value and conversions dispatched here) and the ownership of
 * references: the owned temporaries of a block, values kept in slots across blocks, and their
 * release at a block's end, at a return or at a raise.
 * lower.c holds the instruction switch and the function and its wrapper. */
#include "lower/internal.h"

#include <stdio.h>
#include <string.h>

/* ---- types: each kind's lowering model ---- */

static const KnLowerModel *const models[KN_TY_COUNT] = {
#define X(kind, name, tm, lm, bm, flags) [KN_TY_##kind] = &kn_lower_model_##lm,
#include "types/kinds.def"
#undef X
};

const KnLowerModel *
kn_lower_model(const KnType *t)
{
    return models[t->kind];
}

LLVMTypeRef
kn_lower_type(L *l, const KnType *t)
{
    const KnLowerModel *m = kn_lower_model(t);
    return m->type ? m->type(l, t) : l->i8; /* none and compile-time values: a placeholder */
}

/* Load a value of type t stored in C layout at p. */
LLVMValueRef
kn_lower_load_c(L *l, const KnType *t, LLVMValueRef p)
{
    const KnLowerModel *m = kn_lower_model(t);
    return m->load_c ? m->load_c(l, t, p) : LLVMBuildLoad2(l->b, kn_lower_type(l, t), p, "");
}

void
kn_lower_store_c(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p)
{
    const KnLowerModel *m = kn_lower_model(t);
    if (m->store_c)
        m->store_c(l, t, v, p);
    else
        LLVMBuildStore(l->b, v, p);
}

LLVMValueRef
kn_lower_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    if (from == to || !to)
        return v;
    if (to->kind == KN_TY_OPTIONAL && from->kind != KN_TY_OPTIONAL) /* model_optional.c */
        return kn_lower_optional_wrap(l, v, from, to);
    const KnLowerModel *m = kn_lower_model(from);
    return m->convert ? m->convert(l, v, from, to) : v;
}

LLVMValueRef
kn_lower_truth(L *l, LLVMValueRef v, const KnType *t)
{
    const KnLowerModel *m = kn_lower_model(t);
    return m->truth ? m->truth(l, v, t) : LLVMConstInt(l->i1, 0, 0);
}

/* ---- small helpers shared with scalar.c and calls.c ---- */

LLVMValueRef
kn_lower_fmf(L *l, LLVMValueRef inst)
{
    if (l->fmf && LLVMCanValueUseFastMathFlags(inst))
        LLVMSetFastMathFlags(inst, l->fmf);
    return inst;
}

LLVMValueRef
kn_lower_const_f(L *l, const KnType *t, double v)
{
    if (t->kind == KN_TY_FLOAT && t->bits == 16)
        return LLVMConstReal(LLVMHalfTypeInContext(l->ctx), v);
    return LLVMConstReal(t->kind == KN_TY_FLOAT && t->bits == 32 ? l->f32 : l->f64, v);
}

LLVMValueRef
kn_lower_cplx(L *l, const KnType *t, LLVMValueRef re, LLVMValueRef im)
{
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, t));
    v = LLVMBuildInsertValue(l->b, v, re, 0, "");
    return LLVMBuildInsertValue(l->b, v, im, 1, "");
}

/* A new builder at the start of the current function's entry block (the caller disposes of it). */
LLVMBuilderRef
kn_lower_entry_builder(L *l)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(l->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, entry);
    return b;
}

LLVMValueRef
kn_lower_entry_alloca(L *l, LLVMTypeRef t, const char *name)
{
    if (l->gen) /* a generator's: in its frame (generators.c) */
        return kn_lower_gen_slot(l, t, name);
    LLVMBuilderRef b = kn_lower_entry_builder(l);
    LLVMValueRef a = LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return a;
}

LLVMValueRef
kn_lower_intrinsic(L *l, const char *name, LLVMTypeRef *types, int ntypes, LLVMValueRef *args,
                   int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(l->mod, id, types, (size_t)ntypes);
    LLVMTypeRef ft = LLVMIntrinsicGetType(l->ctx, id, types, (size_t)ntypes);
    return kn_lower_fmf(l, LLVMBuildCall2(l->b, ft, f, args, (unsigned)nargs, ""));
}

LLVMValueRef
kn_lower_extern(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, int nparams,
                LLVMValueRef *args)
{
    LLVMTypeRef ft = LLVMFunctionType(ret, params, (unsigned)nparams, 0);
    LLVMValueRef f = LLVMGetNamedFunction(l->mod, name);
    if (!f)
        f = LLVMAddFunction(l->mod, name, ft);
    LLVMValueRef r = LLVMBuildCall2(l->b, ft, f, args, (unsigned)nparams, "");
    return kn_lower_fmf(l, r);
}

/* A math function of float16 values: its float32 version on the widened arguments, rounded
 * back to float16 (NumPy's 'e' loops) */
static LLVMValueRef
half_math(L *l, const char *name, LLVMValueRef *args, int nargs)
{
    LLVMValueRef wide[4];
    for (int i = 0; i < nargs && i < KN_ARRAY_LEN(wide); i++)
        wide[i] = LLVMGetTypeKind(LLVMTypeOf(args[i])) == LLVMHalfTypeKind
                      ? LLVMBuildFPExt(l->b, args[i], l->f32, "")
                      : args[i];
    LLVMValueRef r = kn_lower_math(l, name, wide, nargs);
    return LLVMBuildFPTrunc(l->b, r, LLVMTypeOf(args[0]), "");
}

LLVMValueRef
kn_lower_math(L *l, const char *name, LLVMValueRef *args, int nargs)
{
    const KnTarget *t = l->c->target;
    LLVMTypeRef ft = LLVMTypeOf(args[0]), params[4];
    char sym[64];
    if (LLVMGetTypeKind(ft) == LLVMHalfTypeKind) /* float16 computes in float32, as NumPy */
        return half_math(l, name, args, nargs);
    switch (t->math_symbol(t, name, ft == l->f32 ? 32 : 64, sym, sizeof sym)) {
    case KN_MATH_INTRINSIC:
        return kn_lower_intrinsic(l, sym, &ft, 1, args, nargs);
    case KN_MATH_EXTERN:
        for (int i = 0; i < nargs && i < KN_ARRAY_LEN(params); i++)
            params[i] = LLVMTypeOf(args[i]);
        return kn_lower_extern(l, sym, ft, params, nargs, args);
    default:
        if (!l->analysis_wrong)
            kn_diag_error(&l->c->diags, KN_DIAG_UNSUPPORTED, l->span,
                          "%s is not available on target '%s'", name, t->name);
        l->analysis_wrong = 1; /* fails the lowering */
        return LLVMGetUndef(ft);
    }
}

/* Record where the raise is in the source: KnExcInfo.where points at a "file:line" constant
 * (the dispatcher adds it to the exception as a note). */
static void
store_location(L *l, int field, const char *name)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s:%d", l->c->fn->filename, l->span.line);
    LLVMValueRef s = LLVMBuildGlobalStringPtr(l->b, buf, name);
    LLVMValueRef off = LLVMConstInt(l->i64, (unsigned long long)field, 0);
    LLVMBuildStore(l->b, s, LLVMBuildInBoundsGEP2(l->b, l->i64, l->exc_ptr, &off, 1, ""));
}

void
kn_lower_store_where(L *l)
{
    store_location(l, 6, "where");
}

/* A callee raised and this call passes it up: KnExcInfo.called_from is this call's "file:line"
 * (each caller overwrites it, so the dispatcher sees the outermost compiled call). */
void
kn_lower_store_called_from(L *l)
{
    if (l->exc_ptr)
        store_location(l, 7, "called_from");
}

/* The analysis (passes/raises.c) said this function cannot raise, but lowering is about to
 * emit a raise: a bug in the analysis. Fail the compilation rather than guess. */
void
kn_lower_not_raising(L *l)
{
    if (!l->analysis_wrong)
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, l->span,
                      "internal error: %s was judged unable to raise, but this can raise",
                      l->c->fn->name);
    l->analysis_wrong = 1;
    LLVMBuildUnreachable(l->b);
}

/* Branch to `cold` when cond holds (weights 1:2000), else to `hot`. */
void
kn_lower_cold_branch(L *l, LLVMValueRef cond, LLVMBasicBlockRef cold, LLVMBasicBlockRef hot)
{
    LLVMValueRef br = LLVMBuildCondBr(l->b, cond, cold, hot);
    LLVMValueRef w[2] = {LLVMConstInt(l->i32, 1, 0), LLVMConstInt(l->i32, 2000, 0)};
    LLVMMetadataRef md[3] = {LLVMMDStringInContext2(l->ctx, "branch_weights", 14),
                             LLVMValueAsMetadata(w[0]), LLVMValueAsMetadata(w[1])};
    unsigned kind = LLVMGetMDKindIDInContext(l->ctx, "prof", 4);
    LLVMSetMetadata(br, kind, LLVMMetadataAsValue(l->ctx, LLVMMDNodeInContext2(l->ctx, md, 3)));
}

/* Record exception `exc_index` (with run-time values for its message: KnExcInfo.args, the
 * table entry's message being a str.format pattern) and return status 1 when cond holds; go on
 * otherwise. The raise is the cold path. */
void
kn_lower_raise_if_args(L *l, LLVMValueRef cond, int exc_index, LLVMValueRef *args, int nargs)
{
    kn_lower_raise_index_if(l, cond, LLVMConstInt(l->i64, (unsigned long long)exc_index, 0), args,
                            nargs);
}

/* The same with the exception's index computed at run time (an i64). */
void
kn_lower_raise_index_if(L *l, LLVMValueRef cond, LLVMValueRef exc_index, LLVMValueRef *args,
                        int nargs)
{
    if (LLVMIsAConstantInt(cond) && !LLVMConstIntGetZExtValue(cond))
        return; /* folded to false (x % 1000003, 2 ** 31): no block, and no raise in a function
                 * judged unable to raise */
    if (kn_lower_par_building(l)) {
        kn_lower_par_raise(l, cond);
        return;
    }
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "raise");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ok");
    kn_lower_cold_branch(l, cond, bad, ok);
    LLVMPositionBuilderAtEnd(l->b, bad);
    if (l->direct && !l->handler) {
        kn_lower_not_raising(l);
        LLVMPositionBuilderAtEnd(l->b, ok);
        return;
    }
    LLVMBuildStore(l->b, exc_index, l->exc_ptr);
    kn_lower_store_where(l);
    for (int i = -1; nargs && i < nargs && i < 4; i++) {
        LLVMValueRef off = LLVMConstInt(l->i64, (unsigned long long)(i + 2), 0);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, l->i64, l->exc_ptr, &off, 1, "");
        LLVMBuildStore(l->b, i < 0 ? LLVMConstInt(l->i64, (unsigned long long)nargs, 0) : args[i],
                       p);
    }
    kn_lower_unwind(l, LLVMConstInt(l->i32, 1, 0));
    LLVMPositionBuilderAtEnd(l->b, ok);
}

void
kn_lower_raise_if(L *l, LLVMValueRef cond, int exc_index)
{
    kn_lower_raise_if_args(l, cond, exc_index, NULL, 0);
}

/* ---- runaway recursion and Ctrl-C ---- */

int
kn_lower_coded(const L *l)
{
    return l->direct && l->limit;
}

LLVMTypeRef
kn_lower_coded_type(L *l, LLVMTypeRef value)
{
    LLVMTypeRef f[2] = {value, l->i8};
    return LLVMStructTypeInContext(l->ctx, f, 2, 0);
}

void
kn_lower_ret_coded(L *l, LLVMValueRef v, LLVMValueRef code)
{
    LLVMTypeRef t = kn_lower_coded_type(l, kn_lower_type(l, l->c->fn->ret_type));
    LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(t), v, 0, "");
    LLVMBuildRet(l->b, LLVMBuildInsertValue(l->b, r, code, 1, ""));
}

void
kn_lower_raise_code_if(L *l, LLVMValueRef cond, int exc_index)
{
    if (!kn_lower_coded(l)) {
        kn_lower_raise_if(l, cond, exc_index);
        return;
    }
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "raise");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ok");
    kn_lower_cold_branch(l, cond, bad, ok);
    LLVMPositionBuilderAtEnd(l->b, bad);
    kn_lower_ret_coded(
        l, LLVMGetUndef(kn_lower_type(l, l->c->fn->ret_type)),
        LLVMConstInt(l->i8, (unsigned long long)(exc_index - KN_EXC_RECURSION + 1), 0));
    LLVMPositionBuilderAtEnd(l->b, ok);
}

/* Pass a nonzero code from a coded callee up: as a code (coded), or as a status with the
 * exception's index (status ABI). */
static void
propagate_code(L *l, LLVMValueRef code)
{
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "propagate");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ok");
    kn_lower_cold_branch(l, LLVMBuildICmp(l->b, LLVMIntNE, code, LLVMConstInt(l->i8, 0, 0), ""),
                         bad, ok);
    LLVMPositionBuilderAtEnd(l->b, bad);
    if (kn_lower_coded(l)) {
        kn_lower_ret_coded(l, LLVMGetUndef(kn_lower_type(l, l->c->fn->ret_type)), code);
    } else if (l->direct && !l->handler) {
        kn_lower_not_raising(l);
    } else {
        LLVMValueRef idx = LLVMBuildAdd(l->b, LLVMBuildZExt(l->b, code, l->i64, ""),
                                        LLVMConstInt(l->i64, KN_EXC_RECURSION - 1, 0), "");
        LLVMBuildStore(l->b, idx, l->exc_ptr);
        kn_lower_store_where(l);
        kn_lower_unwind(l, LLVMConstInt(l->i32, 1, 0));
    }
    LLVMPositionBuilderAtEnd(l->b, ok);
}

LLVMValueRef
kn_lower_coded_result(L *l, LLVMValueRef call)
{
    propagate_code(l, LLVMBuildExtractValue(l->b, call, 1, "code"));
    return LLVMBuildExtractValue(l->b, call, 0, "");
}

/* A volatile load: LLVM may neither hoist it out of the loop nor merge two polls. */
void
kn_lower_poll_interrupt(L *l)
{
    if (!l->c->target->interrupt_polls)
        return; /* no kiln runtime beside the code to set the flag */
    LLVMValueRef g = LLVMGetNamedGlobal(l->mod, "kn_rt_interrupt_flag");
    if (!g)
        g = LLVMAddGlobal(l->mod, l->i32, "kn_rt_interrupt_flag");
    LLVMValueRef v = LLVMBuildLoad2(l->b, l->i32, g, "sigint");
    LLVMSetVolatile(v, 1);
    LLVMSetAlignment(v, 4);
    kn_lower_raise_code_if(l, LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstInt(l->i32, 0, 0), ""),
                           KN_EXC_INTERRUPT);
}

LLVMValueRef
kn_lower_callee_limit(L *l)
{
    if (!l->c->target->stack_checks)
        return LLVMConstInt(l->i64, 0, 0); /* no frame lies below 0: never RecursionError */
    if (l->limit)
        return LLVMBuildAdd(l->b, l->limit, LLVMConstInt(l->i64, KN_RECURSION_LEVEL_BYTES, 0),
                            "limit");
    return kn_lower_extern(l, "kn_rt_stack_limit", l->i64, NULL, 0, NULL);
}


/* ---- reference counting: what a value holds (its model's visit_refs), inline ---- */

int
kn_lower_has_refs(const KnType *t)
{
    const KnLowerModel *m = kn_lower_model(t);
    return m->has_refs && m->has_refs(t);
}

void
kn_lower_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    const KnLowerModel *m = kn_lower_model(t);
    if (m->visit_refs)
        m->visit_refs(l, v, t, fn, ctx);
}

/* Increments are inline (KnMemInfo's refcount is its first field): a NULL meminfo (memory
 * borrowed from Python) is skipped, which LLVM folds away where it knows the value. A decrement
 * is one call of kn_rt_decref (which skips NULL and frees at zero): inline, its three blocks
 * per release made the first call of container code slow to compile (O3 and code generation
 * grow with the blocks; bench/first_call_containers.py), for the price of a call. */
static void
rc_inline(L *l, LLVMValueRef mi, int inc)
{
    if (!inc) {
        if (!LLVMIsNull(mi)) {
            LLVMTypeRef p = l->ptr;
            kn_lower_extern(l, "kn_rt_decref", LLVMVoidTypeInContext(l->ctx), &p, 1, &mi);
        }
        return;
    }
    LLVMBasicBlockRef doit = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "incref");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "rcdone");
    LLVMBuildCondBr(l->b, LLVMBuildIsNotNull(l->b, mi, ""), doit, done);
    LLVMPositionBuilderAtEnd(l->b, doit);
    LLVMBuildAtomicRMW(l->b, LLVMAtomicRMWBinOpAdd, mi, LLVMConstInt(l->i64, 1, 1),
                       LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
}

static void
incref_ref(L *l, LLVMValueRef ref, void *ctx)
{
    KN_UNUSED(ctx);
    rc_inline(l, ref, 1);
}

static void
decref_ref(L *l, LLVMValueRef ref, void *ctx)
{
    KN_UNUSED(ctx);
    rc_inline(l, ref, 0);
}

void
kn_lower_incref(L *l, LLVMValueRef v, const KnType *t)
{
    kn_lower_visit_refs(l, v, t, incref_ref, NULL);
}

void
kn_lower_decref(L *l, LLVMValueRef v, const KnType *t)
{
    kn_lower_visit_refs(l, v, t, decref_ref, NULL);
}

/* ---- ownership of references: owned temps and variables ---- */

/* Register v as owning a reference, released at the end of block `until` (or on any exit
 * before). A value registered twice keeps one entry, with the later of the two ends. */
void
kn_lower_own_until(L *l, LLVMValueRef v, const KnType *t, int until)
{
    for (int i = 0; i < l->nowned; i++)
        if (l->owned_v[i] == v) {
            if (until > l->owned_until[i])
                l->owned_until[i] = until;
            return;
        }
    if (l->nowned >= KN_ARRAY_LEN(l->owned_v)) {
        kn_diag_error(&l->c->diags, KN_DIAG_UNSUPPORTED, l->span,
                      "more than 256 array temporaries alive at once");
        l->analysis_wrong = 1;
        return;
    }
    l->owned_v[l->nowned] = v;
    l->owned_t[l->nowned] = t;
    l->owned_until[l->nowned++] = until;
}

void
kn_lower_own(L *l, LLVMValueRef v, const KnType *t)
{
    kn_lower_own_until(l, v, t, l->cur_block);
}

/* Take v off the owned list (it appears at most once: kn_lower_own_until). The release chain
 * follows the owned list by index (chain_entry), so it is forgotten when an entry goes. */
static void
forget_owned(L *l, LLVMValueRef v)
{
    for (int i = 0; i < l->nowned; i++)
        if (l->owned_v[i] == v) {
            l->nowned--;
            memmove(&l->owned_v[i], &l->owned_v[i + 1],
                    sizeof l->owned_v[0] * (size_t)(l->nowned - i));
            memmove(&l->owned_t[i], &l->owned_t[i + 1],
                    sizeof l->owned_t[0] * (size_t)(l->nowned - i));
            memmove(&l->owned_until[i], &l->owned_until[i + 1],
                    sizeof l->owned_until[0] * (size_t)(l->nowned - i));
            l->nchain = 0;
            return;
        }
}

/* release an owned temporary now, before the end of its block (the caller's last use) */
void
kn_lower_release_owned(L *l, LLVMValueRef v, const KnType *t)
{
    forget_owned(l, v);
    kn_lower_decref(l, v, t);
}

/* every owned temporary alive here (leaving the function) */
static void
release_temps(L *l)
{
    for (int i = 0; i < l->nowned; i++)
        kn_lower_decref(l, l->owned_v[i], l->owned_t[i]);
}

/* at the end of a block: release the temporaries whose last use was in it. With `emit` 0 the
 * code already released them (a return or raise): only forget them. */
void
kn_lower_release_due(L *l, int emit)
{
    int w = 0;
    l->nchain = 0;
    for (int i = 0; i < l->nowned; i++) {
        if (l->owned_until[i] <= l->cur_block) {
            if (emit)
                kn_lower_decref(l, l->owned_v[i], l->owned_t[i]);
            continue;
        }
        l->owned_v[w] = l->owned_v[i];
        l->owned_t[w] = l->owned_t[i];
        l->owned_until[w++] = l->owned_until[i];
    }
    l->nowned = w;
}

/* Release what a value's slot holds (nothing once released: the slot is zeroed). */
static void
release_slot(L *l, const KnInstr *in, int zero)
{
    LLVMTypeRef t = kn_lower_type(l, in->type);
    kn_lower_decref(l, LLVMBuildLoad2(l->b, t, l->slot[in->id], ""), in->type);
    if (zero)
        LLVMBuildStore(l->b, LLVMConstNull(t), l->slot[in->id]);
}

/* A value used in later blocks: its reference moves from the owned list into its slot (which
 * releases what an earlier pass of a loop left there). The blocks between its block and its
 * last use, in id order, need not be on its paths, so the owned list, which is carried in id
 * order, cannot hold it: a return there would release a value it never saw. */
void
kn_lower_keep_in_slot(L *l, const KnInstr *in, LLVMValueRef v)
{
    forget_owned(l, v); /* registered by the allocator */
    release_slot(l, in, 0);
    LLVMBuildStore(l->b, v, l->slot[in->id]);
}

/* At the end of a block: release the slotted values whose last use was in it. */
void
kn_lower_release_slots_due(L *l)
{
    for (int k = 0; k < l->nslotted; k++)
        if (l->last_use[l->slotted[k]->id] == l->cur_block)
            release_slot(l, l->slotted[k], 1);
}

/* every variable and slot (leaving the function) */
static void
release_vars(L *l)
{
    KnFunction *fn = l->c->fn;
    for (int i = 0; i < fn->vars.len; i++) {
        KnType *t = fn->vars.items[i].type;
        if (t && kn_lower_has_refs(t) && !l->borrowed[i])
            kn_lower_decref(l, LLVMBuildLoad2(l->b, kn_lower_type(l, t), l->vars[i], ""), t);
    }
    for (int k = 0; k < l->nslotted; k++)
        release_slot(l, l->slotted[k], 0);
}

void
kn_lower_cleanup(L *l)
{
    if (!l->has_refs)
        return;
    release_vars(l);
    release_temps(l);
}

/* The release chain of the current block's owned temporaries: chain[j] releases owned_v[j]
 * and goes on to chain[j - 1], chain[0] to the unwind block. A raise with k temporaries owned
 * enters at chain[k - 1], so the raises of a block share their releases. It is forgotten when
 * the owned list changes other than by appending (the end of a block, kn_lower_keep_in_slot). */
static LLVMBasicBlockRef
chain_entry(L *l, int k)
{
    while (l->nchain <= k) {
        int j = l->nchain;
        LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b);
        LLVMBasicBlockRef blk = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "release");
        LLVMPositionBuilderAtEnd(l->b, blk);
        kn_lower_decref(l, l->owned_v[j], l->owned_t[j]);
        LLVMBuildBr(l->b, j ? l->chain[j - 1] : l->handler ? l->handler : l->unwind);
        LLVMPositionBuilderAtEnd(l->b, here);
        l->chain[l->nchain++] = blk;
    }
    return l->chain[k];
}

/* Leave with an exception (status != 0, the exception already recorded): store the status and
 * branch through the release chain of the block's owned temporaries to the function's one
 * unwind block, which releases the variables and slots and returns the status. Releasing every
 * variable and temporary at every raise made the code grow as (variables + temporaries) x
 * raises: 100 lines of `a_k = a_{k-1} + 1.0` on arrays took 85 s to compile. */
void
kn_lower_unwind(L *l, LLVMValueRef status)
{
    if (kn_lower_par_building(l)) {
        kn_lower_par_raise(l, NULL);
        return;
    }
    if (l->handler) { /* inside a try: the block's temporaries, then its handler (exceptions.c) */
        LLVMBuildBr(l->b, l->has_refs && l->nowned ? chain_entry(l, l->nowned - 1) : l->handler);
        return;
    }
    if (l->gen && !l->has_refs) /* a generator's: finished (generators.c) */
        kn_lower_gen_finish(l);
    if (!l->has_refs) { /* nothing to release: return here */
        kn_lower_exc_leaving(l);
        LLVMBuildRet(l->b, status);
        return;
    }
    if (!l->unwind) {
        l->unwind = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "unwind");
        l->unwind_status = kn_lower_entry_alloca(l, l->i32, "status");
    }
    LLVMBuildStore(l->b, status, l->unwind_status);
    LLVMBuildBr(l->b, l->nowned ? chain_entry(l, l->nowned - 1) : l->unwind);
}

/* The unwind block's body, once every raise has branched to it. */
void
kn_lower_finish_unwind(L *l)
{
    if (!l->unwind)
        return;
    LLVMPositionBuilderAtEnd(l->b, l->unwind);
    kn_lower_exc_leaving(l);
    release_vars(l);
    if (l->gen)
        kn_lower_gen_finish(l);
    LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, l->i32, l->unwind_status, "status"));
}
