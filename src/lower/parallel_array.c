/* parallel_array.c - parallel array expressions, reductions and fills under parallel=True.
 *
 * The array files (elementwise.c, reduce.c, create.c, array.c) ask kn_lower_par_region to run
 * the outer loop of an operation on the thread pool. The region builds a new internal function
 * of KnParBody's type, i32(ctx, lo, hi, tid), and lets the caller's generator emit the loop of
 * one chunk into it with the same kernels the serial loop uses (l->fn points at the body
 * meanwhile). The generator may use any value of the enclosing function: afterwards a capture
 * pass finds every operand defined outside the body, gives it a field of a context struct,
 * loads it at the body's entry, and the enclosing function stores those values into the
 * struct before calling kn_par_for (a direct call of the body, which LLVM may inline, when the
 * work is under KN_PAR_MIN_WORK elements). A body that could raise is thrown away and the
 * operation stays serial, with a parallel_diagnostics note saying why (the first exception of
 * a parallel loop would not be the one the serial loop raises first). Reductions combine one
 * partial per region thread, in tid order (kn_lower_par_slots). */
#include "lower/parallel_array.h"

/* Below this many elements an operation calls its body inline: a region's fork and join cost
 * more than the work (about 2 us against a few ns per element). */
#define KN_PAR_MIN_WORK 16384
#define KN_PAR_MAX_CAPTURES 256

typedef struct ParBuild {
    int raised;             /* the body has a raise: unusable */
    LLVMBasicBlockRef fail; /* the body's block returning a failed status */
} ParBuild;

int
kn_lower_par_building(const L *l)
{
    return l->par != NULL;
}

/* A raise inside a body: the body returns status 1 there (so the IR stays valid), and is then
 * discarded by kn_lower_par_region. */
void
kn_lower_par_raise(L *l, LLVMValueRef cond)
{
    ParBuild *pb = l->par;
    pb->raised = 1;
    if (!pb->fail) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b);
        pb->fail = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "par_fail");
        LLVMPositionBuilderAtEnd(l->b, pb->fail);
        LLVMBuildRet(l->b, LLVMConstInt(l->i32, 1, 0));
        LLVMPositionBuilderAtEnd(l->b, here);
    }
    if (!cond) { /* kn_lower_unwind: the block ends here */
        LLVMBuildBr(l->b, pb->fail);
        return;
    }
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "par_ok");
    LLVMBuildCondBr(l->b, cond, pb->fail, ok);
    LLVMPositionBuilderAtEnd(l->b, ok);
}

void
kn_lower_par_loop_begin(L *l, Loop *lp, LLVMValueRef lo, LLVMValueRef hi)
{
    lp->counter = kn_lower_entry_alloca(l, l->i64, "k");
    LLVMBuildStore(l->b, lo, lp->counter);
    lp->head = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ploop");
    lp->body = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "pbody");
    lp->exit = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "pdone");
    LLVMBuildBr(l->b, lp->head);
    LLVMPositionBuilderAtEnd(l->b, lp->head);
    LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, lp->counter, "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, hi, ""), lp->body, lp->exit);
    LLVMPositionBuilderAtEnd(l->b, lp->body);
}

/* ---- the capture pass ---- */

typedef struct Captures {
    LLVMValueRef v[KN_PAR_MAX_CAPTURES];
    int n;
    int bad; /* a branch into the enclosing function, an alloca of it, too many values */
} Captures;

static int
outside(LLVMValueRef v, LLVMValueRef body)
{
    if (LLVMIsAInstruction(v))
        return LLVMGetBasicBlockParent(LLVMGetInstructionParent(v)) != body;
    if (LLVMIsAArgument(v))
        return LLVMGetParamParent(v) != body;
    return 0;
}

static int
capture_index(Captures *cs, LLVMValueRef v, LLVMValueRef slots)
{
    for (int i = 0; i < cs->n; i++)
        if (cs->v[i] == v)
            return i;
    if (cs->n == KN_PAR_MAX_CAPTURES || (LLVMIsAAllocaInst(v) && v != slots)) {
        cs->bad = 1; /* a stack slot of the enclosing function would be shared by the threads */
        return -1;
    }
    cs->v[cs->n] = v;
    return cs->n++;
}

/* Every operand of the body defined outside it (pass 1), or, with loads, replaced (pass 2). */
static void
walk_operands(LLVMValueRef body, Captures *cs, LLVMValueRef slots, LLVMValueRef *loads)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            int nops = LLVMGetNumOperands(in);
            for (int i = 0; i < nops; i++) {
                LLVMValueRef v = LLVMGetOperand(in, (unsigned)i);
                if (!v)
                    continue;
                if (LLVMValueIsBasicBlock(v)) {
                    if (LLVMGetBasicBlockParent(LLVMValueAsBasicBlock(v)) != body)
                        cs->bad = 1;
                    continue;
                }
                if (!outside(v, body))
                    continue;
                int k = capture_index(cs, v, slots);
                if (loads && k >= 0)
                    LLVMSetOperand(in, (unsigned)i, loads[k]);
            }
            if (LLVMIsAPHINode(in))
                for (unsigned i = 0; i < LLVMCountIncoming(in); i++)
                    if (LLVMGetBasicBlockParent(LLVMGetIncomingBlock(in, i)) != body)
                        cs->bad = 1;
        }
}

/* The body's context struct: a field per captured value, loaded at its entry. */
static LLVMTypeRef
ctx_type(L *l, const Captures *cs)
{
    LLVMTypeRef f[KN_PAR_MAX_CAPTURES];
    for (int i = 0; i < cs->n; i++)
        f[i] = LLVMTypeOf(cs->v[i]);
    return LLVMStructTypeInContext(l->ctx, f, (unsigned)(cs->n ? cs->n : 1), 0);
}

static void
bind_captures(L *l, LLVMValueRef body, Captures *cs, LLVMValueRef slots, LLVMTypeRef ct)
{
    LLVMValueRef loads[KN_PAR_MAX_CAPTURES];
    LLVMBuilderRef b = LLVMCreateBuilderInContext(l->ctx);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(body);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMValueRef ctx = LLVMGetParam(body, 0);
    for (int i = 0; i < cs->n; i++)
        loads[i] = LLVMBuildLoad2(b, LLVMTypeOf(cs->v[i]),
                                  LLVMBuildStructGEP2(b, ct, ctx, (unsigned)i, ""), "");
    LLVMDisposeBuilder(b);
    walk_operands(body, cs, slots, loads);
}

/* ---- the region ---- */

static LLVMValueRef
new_body(L *l)
{
    LLVMTypeRef params[4] = {l->ptr, l->i64, l->i64, l->i64};
    LLVMTypeRef ft = LLVMFunctionType(l->i32, params, 4, 0);
    LLVMValueRef f = LLVMAddFunction(l->mod, "kn_par_body", ft);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMAppendBasicBlockInContext(l->ctx, f, "entry");
    return f;
}

/* Build the body: the generator's chunk loop, with l's function, builder position and the
 * state raises look at switched to it, then restored. 1 when usable. */
static int
build_body(L *l, const KnParRegion *r, LLVMValueRef body)
{
    ParBuild pb = {0, NULL};
    LLVMValueRef fn = l->fn, limit = l->limit;
    LLVMBasicBlockRef at = LLVMGetInsertBlock(l->b), handler = l->handler;
    void *gen = l->gen;
    int in_ufunc = l->in_ufunc;
    l->fn = body;
    l->limit = NULL;
    l->handler = NULL;
    l->gen = NULL;
    l->par = &pb;
    LLVMPositionBuilderAtEnd(l->b, LLVMGetEntryBasicBlock(body));
    r->gen(l, LLVMGetParam(body, 1), LLVMGetParam(body, 2), LLVMGetParam(body, 3), r->ctx);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
    l->fn = fn;
    l->limit = limit;
    l->handler = handler;
    l->gen = gen;
    l->par = NULL;
    l->in_ufunc = in_ufunc;
    LLVMPositionBuilderAtEnd(l->b, at);
    return !pb.raised;
}

static void
note(L *l, const KnParRegion *r, int parallel, const char *why)
{
    if (r->what)
        kn_par_note(l->c, l->span, r->what, parallel, why);
}

int
kn_lower_par_region(L *l, const KnParRegion *r)
{
    if (!l->c->parallel || l->par)
        return 0;
    LLVMValueRef body = new_body(l);
    if (!build_body(l, r, body)) {
        LLVMDeleteFunction(body);
        note(l, r, 0,
             "the kernel can raise an exception: kept serial, so that the first "
             "exception is the one a serial loop raises");
        return 0;
    }
    Captures cs = {{0}, 0, 0};
    walk_operands(body, &cs, r->slots, NULL);
    if (cs.bad) {
        LLVMDeleteFunction(body);
        note(l, r, 0, "its loop could not be outlined");
        return 0;
    }
    LLVMTypeRef ct = ctx_type(l, &cs);
    bind_captures(l, body, &cs, r->slots, ct);
    /* the enclosing function: fill the context, run the region */
    LLVMValueRef ctx = kn_lower_entry_alloca(l, ct, "par_ctx");
    for (int i = 0; i < cs.n; i++)
        LLVMBuildStore(l->b, cs.v[i], LLVMBuildStructGEP2(l->b, ct, ctx, (unsigned)i, ""));
    LLVMValueRef work = r->work ? r->work : r->n;
    LLVMBasicBlockRef small = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "par_inline");
    LLVMBasicBlockRef pool = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "par_pool");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "par_done");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, work, i64c(l, KN_PAR_MIN_WORK), ""),
                    small, pool);
    LLVMPositionBuilderAtEnd(l->b, small);
    LLVMValueRef args[4] = {ctx, i64c(l, 0), r->n, i64c(l, 0)};
    LLVMValueRef call = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(body), body, args, 4, "");
    /* one copy of the loop: inlined here, O3 and code generation did it twice (a third more
     * compile time on a * b + c); the call costs nanoseconds */
    LLVMAddCallSiteAttribute(
        call, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(l->ctx, LLVMGetEnumAttributeKindForName("noinline", 8), 0));
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, pool);
    LLVMValueRef chunk = r->fixed_chunks
                             ? i64c(l, 0)
                             : kn_lower_extern(l, "kn_par_chunksize", l->i64, NULL, 0, NULL);
    LLVMTypeRef pt[5] = {l->ptr, l->ptr, l->i64, l->i64, l->ptr};
    LLVMValueRef pa[5] = {body, ctx, r->n, chunk, LLVMConstNull(l->ptr)};
    kn_lower_extern(l, "kn_par_for", l->i32, pt, 5, pa);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    note(l, r, 1, NULL);
    return 1;
}

/* ---- reduction slots ---- */

LLVMValueRef
kn_lower_par_slots(L *l, LLVMValueRef *count, LLVMValueRef *saved_stack)
{
    *saved_stack = kn_lower_intrinsic(l, "llvm.stacksave", &l->ptr, 1, NULL, 0);
    *count = kn_lower_extern(l, "kn_par_region_size", l->i64, NULL, 0, NULL);
    LLVMValueRef bytes = LLVMBuildMul(l->b, *count, i64c(l, KN_PAR_SLOT), "");
    LLVMValueRef slots = LLVMBuildArrayAlloca(l->b, l->i8, bytes, "par_slots");
    LLVMSetAlignment(slots, KN_PAR_SLOT);
    Loop lp;
    kn_lower_loop_begin(l, &lp, *count);
    LLVMValueRef off = LLVMBuildMul(l->b, kn_lower_loop_index(l, &lp), i64c(l, KN_PAR_SLOT), "");
    off = LLVMBuildAdd(l->b, off, i64c(l, KN_PAR_SEEN), "");
    LLVMBuildStore(l->b, LLVMConstInt(l->i8, 0, 0), offset_ptr(l, slots, off));
    kn_lower_loop_end(l, &lp);
    return slots;
}

void
kn_lower_par_slots_free(L *l, LLVMValueRef saved_stack)
{
    kn_lower_intrinsic(l, "llvm.stackrestore", &l->ptr, 1, &saved_stack, 1);
}

/* ---- fills ---- */

typedef struct ParFill {
    LLVMValueRef a, x;
    const KnType *t;
    int zero; /* memset the chunk's bytes */
} ParFill;

static void
fill_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    ParFill *f = ctx;
    KN_UNUSED(tid);
    const KnType *d = f->t->dtype;
    LLVMValueRef data = field(l, f->a, F_DATA), isz = i64c(l, itemsize(d));
    if (f->zero) {
        LLVMValueRef start = offset_ptr(l, data, LLVMBuildMul(l->b, lo, isz, ""));
        LLVMValueRef bytes = LLVMBuildMul(l->b, LLVMBuildSub(l->b, hi, lo, ""), isz, "");
        LLVMBuildMemSet(l->b, start, LLVMConstInt(l->i8, 0, 0), bytes, 1);
        return;
    }
    Loop lp;
    kn_lower_par_loop_begin(l, &lp, lo, hi);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    LLVMTypeRef et = d->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, d);
    store_elem(l, d, f->x, LLVMBuildInBoundsGEP2(l->b, et, data, &i, 1, ""));
    kn_lower_loop_end(l, &lp);
}

static int
par_fill(L *l, const char *what, LLVMValueRef a, const KnType *t, LLVMValueRef x, int zero)
{
    if (!l->c->parallel || (t->layout != 'C' && t->layout != 'F') || t->ndim == 0 ||
        t->dtype->kind == KN_TY_RECORD)
        return 0;
    ParFill f = {a, x, t, zero};
    KnParRegion r = {what, field(l, a, F_NITEMS), NULL, 0, NULL, fill_gen, &f};
    return kn_lower_par_region(l, &r);
}

int
kn_lower_par_fill(L *l, const char *what, LLVMValueRef a, const KnType *t, LLVMValueRef x)
{
    return par_fill(l, what, a, t, x, 0);
}

int
kn_lower_par_zero(L *l, const char *what, LLVMValueRef a, const KnType *t)
{
    return par_fill(l, what, a, t, NULL, 1);
}
