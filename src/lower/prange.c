/* prange.c - lowering of kiln.prange (range's rule where it was not outlined) and of the region
 * call that passes/prange.c leaves in place of an outlined prange loop (PAR_FOR).
 *
 * The region: the outlined body (a KnFunction of its own, KnPrangeRegion) is lowered by
 * kn_lower_function as a separate compilation that shares the parent's arena and diagnostics,
 * always with the status ABI, and linked into the parent's module; O3 then sees it with its
 * caller. A trampoline of pool.h's KnParBody type reads the context struct the caller filled
 * (start, step, the per-thread slots, the per-thread exception records, n, the captured
 * values), maps the chunk [lo, hi) of iteration numbers to values of the loop variable, calls
 * the body with the thread's partial reductions and stores what it returns back into the
 * thread's slot (padded to a cache line), and, for the chunk that ends at n, into the
 * last-iteration record. The caller sets every slot to the reductions' identities (min and
 * max: the variable's value), runs kn_par_for, and then either copies the failing thread's
 * exception record into its own and unwinds, or combines the partials in thread order. */
#include "lower/internal.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>

#include <stdio.h>
#include <string.h>

enum {
    CTX_START,
    CTX_STEP,
    CTX_SLOTS,
    CTX_EXCS,
    CTX_N,
    CTX_LAST,
    CTX_CAPTURED /* the captured values follow */
};
/* a thread's exception record: its KnExcInfo, then the texts of its str arguments (the runtime
 * keeps them per thread: runtime/exc.c), {chars, length, kind} for each of the 4 positions */
enum { SLOT_ALIGN = 64, EXC_TEXTS = 64, TEXT_SIZE = 24, EXC_STRIDE = 192 };

/* The body as a native function of the parent's module, or NULL with a diagnostic. */
static LLVMValueRef
lower_body(L *l, KnPrangeRegion *r)
{
    LLVMValueRef f = LLVMGetNamedFunction(l->mod, r->symbol);
    if (f && !LLVMIsDeclaration(f))
        return f;
    KnCompilation sub = *l->c;
    sub.fn = r->body;
    sub.symbol = r->symbol;
    sub.wrapper = r->wrapper;
    sub.arg_types = r->body->arg_types;
    sub.nargs = r->body->nparams;
    sub.declared_ret = NULL;
    sub.in_cycle = sub.force_status = sub.inline_always = 0;
    sub.par_notes = NULL;
    sub.par_notes_tail = NULL;
    memset(sub.side, 0, sizeof sub.side);
    KnRaises *rz = kn_ctx_need(&sub, KN_SIDE_RAISES, sizeof(KnRaises));
    rz->can_raise = 1; /* the status ABI, whatever the body does: one trampoline */
    LLVMModuleRef m = kn_lower_function(&sub, l->ctx);
    l->c->arena = sub.arena; /* the sub-compilation allocated from the parent's arena */
    l->c->diags = sub.diags;
    if (!m)
        return NULL;
    if (LLVMLinkModules2(l->mod, m)) {
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, r->span,
                      "internal error: the prange loop's body could not be linked");
        return NULL;
    }
    /* the body is called only by its trampoline: private (inlined there, not emitted on its
     * own), and its wrapper is never called */
    LLVMValueRef w = LLVMGetNamedFunction(l->mod, r->wrapper);
    if (w)
        LLVMDeleteFunction(w);
    f = LLVMGetNamedFunction(l->mod, r->symbol);
    if (f)
        LLVMSetLinkage(f, LLVMPrivateLinkage);
    return f;
}

static LLVMTypeRef
ctx_type(L *l, KnPrangeRegion *r, KnInstr *in)
{
    LLVMTypeRef f[CTX_CAPTURED + KN_MAX_PARAMS];
    f[CTX_START] = f[CTX_STEP] = f[CTX_N] = l->i64;
    f[CTX_SLOTS] = f[CTX_EXCS] = f[CTX_LAST] = l->ptr;
    for (int k = 0; k < r->ncap; k++)
        f[CTX_CAPTURED + k] = kn_lower_type(l, in->args[3 + k]->type);
    return LLVMStructTypeInContext(l->ctx, f, (unsigned)(CTX_CAPTURED + r->ncap), 0);
}

static LLVMValueRef
field(LLVMBuilderRef b, LLVMTypeRef ct, LLVMValueRef ctx, int k)
{
    return LLVMBuildStructGEP2(b, ct, ctx, (unsigned)k, "");
}

static LLVMValueRef
at_stride(L *l, LLVMBuilderRef b, LLVMValueRef base, LLVMValueRef tid, uint64_t stride)
{
    LLVMValueRef off = LLVMBuildMul(b, tid, LLVMConstInt(l->i64, stride, 0), "");
    return LLVMBuildInBoundsGEP2(b, l->i8, base, &off, 1, "");
}

static LLVMValueRef
text_field(L *l, LLVMBuilderRef b, LLVMValueRef exc, int k, int off)
{
    LLVMValueRef o = LLVMConstInt(l->i64, (uint64_t)(EXC_TEXTS + TEXT_SIZE * k + off), 0);
    return LLVMBuildInBoundsGEP2(b, l->i8, exc, &o, 1, "");
}

/* In the failing thread: where its str arguments' texts are (they stay there while the region
 * ends: the thread raises nothing more) */
static void
save_texts(L *l, LLVMBuilderRef b, LLVMValueRef exc)
{
    LLVMTypeRef ps[3] = {l->i64, l->ptr, l->ptr};
    LLVMTypeRef ft = LLVMFunctionType(l->ptr, ps, 3, 0);
    LLVMValueRef f = LLVMGetNamedFunction(l->mod, "kn_rt_exc_text_get");
    if (!f)
        f = LLVMAddFunction(l->mod, "kn_rt_exc_text_get", ft);
    for (int k = 0; k < 4; k++) {
        LLVMValueRef args[3] = {LLVMConstInt(l->i64, (uint64_t)k, 0), text_field(l, b, exc, k, 16),
                                text_field(l, b, exc, k, 8)};
        LLVMBuildStore(b, LLVMBuildCall2(b, ft, f, args, 3, ""), text_field(l, b, exc, k, 0));
    }
}

/* In the caller: the failing thread's texts become this thread's, for the dispatcher */
static void
take_texts(L *l, LLVMValueRef exc)
{
    LLVMTypeRef st = kn_lower_str_type(l);
    LLVMValueRef str = kn_lower_entry_alloca(l, st, "text");
    LLVMValueRef kind = kn_lower_entry_alloca(l, l->i32, "kind");
    LLVMValueRef length = kn_lower_entry_alloca(l, l->i64, "length");
    for (int k = 0; k < 4; k++) {
        LLVMValueRef v = LLVMConstNull(st);
        v = LLVMBuildInsertValue(l->b, v,
                                 LLVMBuildLoad2(l->b, l->ptr, text_field(l, l->b, exc, k, 0), ""),
                                 KN_STR_DATA, "");
        v = LLVMBuildInsertValue(l->b, v,
                                 LLVMBuildLoad2(l->b, l->i64, text_field(l, l->b, exc, k, 8), ""),
                                 KN_STR_LENGTH, "");
        v = LLVMBuildInsertValue(l->b, v,
                                 LLVMBuildLoad2(l->b, l->i32, text_field(l, l->b, exc, k, 16), ""),
                                 KN_STR_KIND, "");
        LLVMBuildStore(l->b, v, str);
        /* the caller's own texts when the failing chunk ran on this thread: nothing to copy */
        LLVMTypeRef gp[3] = {l->i64, l->ptr, l->ptr};
        LLVMValueRef ga[3] = {LLVMConstInt(l->i64, (uint64_t)k, 0), kind, length};
        LLVMValueRef mine = kn_lower_extern(l, "kn_rt_exc_text_get", l->ptr, gp, 3, ga);
        LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "text");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "text_done");
        LLVMValueRef theirs = LLVMBuildLoad2(l->b, l->ptr, text_field(l, l->b, exc, k, 0), "");
        LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, mine, theirs, ""), next, copy);
        LLVMPositionBuilderAtEnd(l->b, copy);
        LLVMTypeRef ps[2] = {l->i64, l->ptr};
        LLVMValueRef args[2] = {LLVMConstInt(l->i64, (uint64_t)k, 0), str};
        kn_lower_extern(l, "kn_rt_exc_text", LLVMVoidTypeInContext(l->ctx), ps, 2, args);
        LLVMBuildBr(l->b, next);
        LLVMPositionBuilderAtEnd(l->b, next);
    }
}

/* int32 tramp(ctx, lo, hi, tid): one chunk (see the top of the file) */
static LLVMValueRef
trampoline(L *l, KnPrangeRegion *r, LLVMValueRef body, LLVMTypeRef ct, LLVMTypeRef rt,
           uint64_t stride)
{
    LLVMTypeRef ps[4] = {l->ptr, l->i64, l->i64, l->i64};
    char name[600];
    snprintf(name, sizeof name, "%s.chunk", r->symbol);
    LLVMValueRef f = LLVMAddFunction(l->mod, name, LLVMFunctionType(l->i32, ps, 4, 0));
    LLVMSetLinkage(f, LLVMPrivateLinkage);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(l->ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(l->ctx, f, "entry"));
    LLVMValueRef ctx = LLVMGetParam(f, 0), lo = LLVMGetParam(f, 1), hi = LLVMGetParam(f, 2),
                 tid = LLVMGetParam(f, 3);
    LLVMValueRef ret = LLVMBuildAlloca(b, rt, "ret");
    LLVMValueRef start = LLVMBuildLoad2(b, l->i64, field(b, ct, ctx, CTX_START), "start");
    LLVMValueRef step = LLVMBuildLoad2(b, l->i64, field(b, ct, ctx, CTX_STEP), "step");
    LLVMValueRef slot =
        at_stride(l, b, LLVMBuildLoad2(b, l->ptr, field(b, ct, ctx, CTX_SLOTS), ""), tid, stride);
    LLVMValueRef exc = at_stride(l, b, LLVMBuildLoad2(b, l->ptr, field(b, ct, ctx, CTX_EXCS), ""),
                                 tid, EXC_STRIDE);
    int n = r->body->nparams;
    LLVMTypeRef bp[KN_MAX_PARAMS + 2];
    LLVMValueRef args[KN_MAX_PARAMS + 2];
    bp[0] = bp[1] = l->ptr;
    args[0] = ret;
    args[1] = exc;
    args[2] = LLVMBuildAdd(b, start, LLVMBuildMul(b, lo, step, ""), "first");
    args[3] = LLVMBuildAdd(b, start, LLVMBuildMul(b, hi, step, ""), "end");
    bp[2] = bp[3] = l->i64;
    for (int k = 0; k < r->ncap; k++) {
        bp[4 + k] = kn_lower_type(l, r->body->arg_types[2 + k]);
        args[4 + k] = LLVMBuildLoad2(b, bp[4 + k], field(b, ct, ctx, CTX_CAPTURED + k), "");
    }
    LLVMValueRef partial = r->nred ? LLVMBuildLoad2(b, rt, slot, "partial") : NULL;
    for (int k = 0; k < r->nred; k++) {
        bp[4 + r->ncap + k] = kn_lower_type(l, r->body->arg_types[2 + r->ncap + k]);
        args[4 + r->ncap + k] = LLVMBuildExtractValue(b, partial, (unsigned)k, "");
    }
    LLVMValueRef st = LLVMBuildCall2(b, LLVMFunctionType(l->i32, bp, (unsigned)n + 2, 0), body,
                                     args, (unsigned)n + 2, "status");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, f, "ok");
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, f, "failed");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, st, LLVMConstInt(l->i32, 0, 0), ""), ok, bad);
    LLVMPositionBuilderAtEnd(b, bad);
    save_texts(l, b, exc);
    LLVMBuildRet(b, st);
    LLVMPositionBuilderAtEnd(b, ok);
    if (r->nout) {
        LLVMValueRef v = LLVMBuildLoad2(b, rt, ret, "");
        LLVMBuildStore(b, v, slot);
        if (r->nlast) { /* the chunk that ends the loop: its values are the loop's last ones */
            LLVMValueRef n_ = LLVMBuildLoad2(b, l->i64, field(b, ct, ctx, CTX_N), "n");
            LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(l->ctx, f, "last");
            LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(l->ctx, f, "out");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, hi, n_, ""), last, out);
            LLVMPositionBuilderAtEnd(b, last);
            LLVMBuildStore(b, v, LLVMBuildLoad2(b, l->ptr, field(b, ct, ctx, CTX_LAST), ""));
            LLVMBuildBr(b, out);
            LLVMPositionBuilderAtEnd(b, out);
        }
    }
    LLVMBuildRet(b, LLVMConstInt(l->i32, 0, 0));
    LLVMDisposeBuilder(b);
    return f;
}

/* The number of values range(start, stop, step) gives (step a nonzero constant). */
static LLVMValueRef
trip_count(L *l, LLVMValueRef start, LLVMValueRef stop, int64_t step)
{
    int up = step > 0;
    LLVMValueRef any = LLVMBuildICmp(l->b, up ? LLVMIntSGT : LLVMIntSLT, stop, start, "");
    LLVMValueRef d = up ? LLVMBuildSub(l->b, stop, start, "") : LLVMBuildSub(l->b, start, stop, "");
    uint64_t mag = up ? (uint64_t)step : (uint64_t)0 - (uint64_t)step;
    LLVMValueRef q = LLVMBuildUDiv(l->b, LLVMBuildSub(l->b, d, LLVMConstInt(l->i64, 1, 0), ""),
                                   LLVMConstInt(l->i64, mag, 0), "");
    LLVMValueRef cnt = LLVMBuildAdd(l->b, q, LLVMConstInt(l->i64, 1, 0), "");
    return LLVMBuildSelect(l->b, any, cnt, LLVMConstInt(l->i64, 0, 0), "n");
}

/* A loop over the threads' slots runs a few times: neither unrolled nor vectorized (that
 * only lengthened the first call's optimization and code generation) */
static void
no_unrolling(L *l, LLVMValueRef latch)
{
    LLVMMetadataRef s[2] = {LLVMMDStringInContext2(l->ctx, "llvm.loop.unroll.disable", 24),
                            LLVMMDStringInContext2(l->ctx, "llvm.loop.vectorize.enable", 26)};
    LLVMMetadataRef off[2] = {s[1], LLVMValueAsMetadata(LLVMConstInt(l->i1, 0, 0))};
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(l->ctx, NULL, 0);
    LLVMMetadataRef ops[3] = {tmp, LLVMMDNodeInContext2(l->ctx, s, 1),
                              LLVMMDNodeInContext2(l->ctx, off, 2)};
    LLVMMetadataRef loop = LLVMMDNodeInContext2(l->ctx, ops, 3);
    LLVMMetadataReplaceAllUsesWith(tmp, loop);
    LLVMSetMetadata(latch, LLVMGetMDKindIDInContext(l->ctx, "llvm.loop", 9),
                    LLVMMetadataAsValue(l->ctx, loop));
}

/* for (tid = 0; tid < size; tid++) each(tid): a loop at the builder, left after it */
typedef void (*EachTid)(L *l, LLVMValueRef tid, void *ctx);

static void
for_each_tid(L *l, LLVMValueRef size, EachTid each, void *ctx)
{
    LLVMValueRef k = kn_lower_entry_alloca(l, l->i64, "tid");
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, 0, 0), k);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "tids");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "tid");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "tids_done");
    LLVMBuildBr(l->b, head);
    LLVMPositionBuilderAtEnd(l->b, head);
    LLVMValueRef t = LLVMBuildLoad2(l->b, l->i64, k, "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, t, size, ""), body, out);
    LLVMPositionBuilderAtEnd(l->b, body);
    each(l, t, ctx);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, t, LLVMConstInt(l->i64, 1, 0), ""), k);
    no_unrolling(l, LLVMBuildBr(l->b, head));
    LLVMPositionBuilderAtEnd(l->b, out);
}

typedef struct Region {
    KnPrangeRegion *r;
    KnInstr *in;
    LLVMTypeRef rt;
    LLVMValueRef slots, init, *acc;
    uint64_t stride;
} Region;

static void
init_slot(L *l, LLVMValueRef tid, void *ctx)
{
    Region *g = ctx;
    LLVMBuildStore(l->b, g->init, at_stride(l, l->b, g->slots, tid, g->stride));
}

/* acc = combine(acc, partial) for each reduction, in thread order */
static void
combine_slot(L *l, LLVMValueRef tid, void *ctx)
{
    Region *g = ctx;
    KnPrangeRegion *r = g->r;
    LLVMValueRef v = LLVMBuildLoad2(l->b, g->rt, at_stride(l, l->b, g->slots, tid, g->stride), "");
    for (int k = 0; k < r->nred; k++) {
        const KnType *vt = l->c->fn->vars.items[r->vars[k]].type;
        LLVMTypeRef t = kn_lower_type(l, vt);
        LLVMValueRef acc = LLVMBuildLoad2(l->b, t, g->acc[k], "");
        LLVMValueRef p = LLVMBuildExtractValue(l->b, v, (unsigned)k, "");
        LLVMValueRef res;
        if (r->red_kind[k] == KN_PRANGE_MIN || r->red_kind[k] == KN_PRANGE_MAX) {
            LLVMValueRef better = kn_lower_cmp(
                l, r->red_kind[k] == KN_PRANGE_MIN ? KN_CMP_LT : KN_CMP_GT, p, acc, vt, vt, vt);
            res = LLVMBuildSelect(l->b, better, p, acc, "");
        } else {
            res = kn_lower_binop(l, (KnBinop)r->red_kind[k], acc, p, (KnType *)vt, vt, vt);
            res = kn_lower_convert(l, res, vt, vt);
        }
        LLVMBuildStore(l->b, res, g->acc[k]);
    }
}

static int64_t
identity(int kind)
{
    return kind == KN_BIN_MUL ? 1 : kind == KN_BIN_AND ? -1 : 0;
}

static LLVMValueRef
lower_region(L *l, KnInstr *in)
{
    KnPrangeRegion *r = in->args[0]->imm.ptr;
    if (!l->exc_ptr) {
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, in->span,
                      "internal error: a parallel region in a function judged unable to raise");
        return NULL;
    }
    LLVMValueRef body = lower_body(l, r);
    if (!body)
        return NULL;
    LLVMTypeRef rt = kn_lower_type(l, r->ret), ct = ctx_type(l, r, in);
    uint64_t size = LLVMABISizeOfType(LLVMGetModuleDataLayout(l->mod), rt);
    uint64_t stride = (size + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
    if (!stride)
        stride = SLOT_ALIGN;
    LLVMValueRef tramp = trampoline(l, r, body, ct, rt, stride);
    LLVMValueRef start = l->vals[in->args[1]->id], stop = l->vals[in->args[2]->id];
    LLVMValueRef n = trip_count(l, start, stop, r->step);
    LLVMValueRef nthreads = kn_lower_extern(l, "kn_par_region_size", l->i64, NULL, 0, NULL);
    LLVMTypeRef pt = l->ptr;
    LLVMValueRef saved = kn_lower_intrinsic(l, "llvm.stacksave", &pt, 1, NULL, 0);
    LLVMValueRef slots = LLVMBuildArrayAlloca(
        l->b, l->i8, LLVMBuildMul(l->b, nthreads, LLVMConstInt(l->i64, stride, 0), ""), "slots");
    LLVMSetAlignment(slots, SLOT_ALIGN);
    LLVMValueRef excs = LLVMBuildArrayAlloca(
        l->b, l->i8, LLVMBuildMul(l->b, nthreads, LLVMConstInt(l->i64, EXC_STRIDE, 0), ""), "excs");
    LLVMSetAlignment(excs, SLOT_ALIGN);
    /* a raise writes only some fields (as the dispatcher's record, they start zeroed) */
    LLVMBuildMemSet(l->b, excs, LLVMConstInt(l->i8, 0, 0),
                    LLVMBuildMul(l->b, nthreads, LLVMConstInt(l->i64, EXC_STRIDE, 0), ""),
                    SLOT_ALIGN);
    LLVMValueRef last = kn_lower_entry_alloca(l, rt, "last");
    /* every slot starts at the identities; the last values at the variables' own */
    LLVMValueRef init = LLVMGetUndef(rt);
    for (int k = 0; k < r->nout; k++) {
        const KnType *vt = l->c->fn->vars.items[r->vars[k]].type;
        LLVMValueRef v;
        if (k >= r->nred)
            v = LLVMBuildLoad2(l->b, kn_lower_type(l, vt), l->vars[r->vars[k]], "");
        else if (r->red_kind[k] == KN_PRANGE_MIN || r->red_kind[k] == KN_PRANGE_MAX)
            v = kn_lower_convert(l, l->vals[in->args[3 + r->ncap + k]->id],
                                 in->args[3 + r->ncap + k]->type, vt);
        else
            v = kn_lower_convert(l, LLVMConstInt(l->i64, (uint64_t)identity(r->red_kind[k]), 1),
                                 &kn_type_int64, vt);
        init = LLVMBuildInsertValue(l->b, init, v, (unsigned)k, "");
    }
    Region g = {r, in, rt, slots, init, NULL, stride};
    if (r->nout) {
        LLVMBuildStore(l->b, init, last);
        for_each_tid(l, nthreads, init_slot, &g);
    }
    LLVMValueRef ctx = kn_lower_entry_alloca(l, ct, "region");
    LLVMBuildStore(l->b, start, field(l->b, ct, ctx, CTX_START));
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, (uint64_t)r->step, 1),
                   field(l->b, ct, ctx, CTX_STEP));
    LLVMBuildStore(l->b, slots, field(l->b, ct, ctx, CTX_SLOTS));
    LLVMBuildStore(l->b, excs, field(l->b, ct, ctx, CTX_EXCS));
    LLVMBuildStore(l->b, n, field(l->b, ct, ctx, CTX_N));
    LLVMBuildStore(l->b, last, field(l->b, ct, ctx, CTX_LAST));
    for (int k = 0; k < r->ncap; k++)
        LLVMBuildStore(l->b, l->vals[in->args[3 + k]->id], field(l->b, ct, ctx, CTX_CAPTURED + k));
    LLVMValueRef failed = kn_lower_entry_alloca(l, l->i64, "failed_tid");
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, 0, 0), failed);
    LLVMTypeRef fp[5] = {l->ptr, l->ptr, l->i64, l->i64, l->ptr};
    LLVMValueRef chunk = kn_lower_extern(l, "kn_par_chunksize", l->i64, NULL, 0, NULL);
    LLVMValueRef fa[5] = {tramp, ctx, n, chunk, failed};
    LLVMValueRef st = kn_lower_extern(l, "kn_par_for", l->i32, fp, 5, fa);
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "region_failed");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "region_ok");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, LLVMConstInt(l->i32, 0, 0), ""), bad,
                    ok);
    /* the first failing chunk's exception becomes this function's */
    LLVMPositionBuilderAtEnd(l->b, bad);
    LLVMValueRef src =
        at_stride(l, l->b, excs, LLVMBuildLoad2(l->b, l->i64, failed, ""), EXC_STRIDE);
    LLVMBuildMemCpy(l->b, l->exc_ptr, 8, src, 8, LLVMConstInt(l->i64, sizeof(KnExcInfo), 0));
    take_texts(l, src);
    kn_lower_intrinsic(l, "llvm.stackrestore", &pt, 1, &saved, 1);
    kn_lower_store_called_from(l);
    kn_lower_unwind(l, st);
    LLVMPositionBuilderAtEnd(l->b, ok);
    LLVMValueRef result = LLVMGetUndef(rt);
    if (r->nout) {
        LLVMValueRef acc[KN_MAX_PARAMS];
        for (int k = 0; k < r->nred; k++) {
            acc[k] = kn_lower_entry_alloca(
                l, kn_lower_type(l, l->c->fn->vars.items[r->vars[k]].type), "acc");
            LLVMValueRef v0 = kn_lower_convert(l, l->vals[in->args[3 + r->ncap + k]->id],
                                               in->args[3 + r->ncap + k]->type,
                                               l->c->fn->vars.items[r->vars[k]].type);
            LLVMBuildStore(l->b, v0, acc[k]);
        }
        g.acc = acc;
        if (r->nred)
            for_each_tid(l, nthreads, combine_slot, &g);
        LLVMValueRef lastv = LLVMBuildLoad2(l->b, rt, last, "");
        for (int k = 0; k < r->nout; k++) {
            LLVMValueRef v =
                k < r->nred
                    ? LLVMBuildLoad2(l->b, kn_lower_type(l, l->c->fn->vars.items[r->vars[k]].type),
                                     acc[k], "")
                    : LLVMBuildExtractValue(l->b, lastv, (unsigned)k, "");
            result = LLVMBuildInsertValue(l->b, result, v, (unsigned)k, "");
        }
    } else {
        result = LLVMConstNull(rt);
    }
    kn_lower_intrinsic(l, "llvm.stackrestore", &pt, 1, &saved, 1);
    return result;
}

LLVMValueRef
kn_lower_rule_prange(L *l, KnInstr *in, int id)
{
    if (id == KN_BI_PRANGE)
        return kn_lower_rule_builtin(l, in, KN_BI_RANGE);
    return lower_region(l, in);
}
