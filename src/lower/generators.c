/* generators.c - a generator function lowered as a resumable frame (issue 10; ANCHORS.md §7.3).
 *
 * A generator called from the interpreter (fn->is_generator: its YIELDs were not inlined into
 * a consumer by frontend/generators.c) compiles to four functions over one heap frame:
 *   <symbol>_wrap(frame, exc, argbuf)  init: the arguments copied into the frame (each with a
 *                                      reference of the frame's own); the dispatcher's entry
 *   <symbol>(out, exc, frame) -> i32   next: 0 an item was stored at out (in C layout, with its
 *                                      own reference), 1 raised (exc filled in), 2 exhausted
 *   <symbol>_drop(frame)               releases what the frame holds unless it finished
 *   <symbol>_size() -> i64             the frame's size in bytes (init zeroes it)
 * Frame: the resume index (i32 at 0: 0 not started, k after the k-th YIELD, -1 finished), the
 * arguments (at 16, in the argument buffer's layout), then every variable, slot and entry
 * alloca the body would have had on the stack (kn_lower_gen_slot: GEPs instead of allocas,
 * not zeroed at each entry), and a spill slot for every other value used in a block other
 * than its own: the value is stored there after it is computed and loaded again at the start
 * of each block that uses it, so that no SSA value crosses a YIELD (next begins with a switch
 * on the resume index, whose targets the definitions do not dominate). A YIELD stores the
 * value, releases what its block releases at its end, stores its index and returns 0; RET and
 * every raise release everything as a plain function does and store -1. LLVM promotes little
 * of this (the frame is memory that outlives the call): a generator that escapes is slower
 * than one inlined into its consumer, which is why the frontend inlines wherever it can. */
#include "lower/internal.h"

#include <stdio.h>

#define FRAME_ARGS 16

typedef struct KnLowerGen {
    LLVMValueRef frame; /* next's frame parameter */
    size_t size;        /* bytes of frame laid out so far */
    int *def_block;     /* by instruction id: the block that defines it */
    char *cross;        /* by instruction id: used in a block other than its own */
    LLVMValueRef *spill;
    int *yield_index; /* by instruction id: k of the k-th YIELD */
    int nyields;
    LLVMBasicBlockRef done; /* next called again once finished: returns 2 */
} KnLowerGen;

static KnLowerGen *
gen_of(L *l)
{
    return (KnLowerGen *)l->gen;
}

int
kn_lower_gen_active(const L *l)
{
    return l->gen != NULL;
}

static LLVMTargetDataRef
data_layout(L *l)
{
    return LLVMGetModuleDataLayout(l->mod);
}

static LLVMValueRef
frame_at(L *l, LLVMBuilderRef b, LLVMValueRef frame, size_t off)
{
    LLVMValueRef o = LLVMConstInt(l->i64, off, 0);
    return LLVMBuildInBoundsGEP2(b, l->i8, frame, &o, 1, "");
}

/* A place in the frame for a value of LLVM type t, its address computed in the entry block. */
LLVMValueRef
kn_lower_gen_slot(L *l, LLVMTypeRef t, const char *name)
{
    KnLowerGen *g = gen_of(l);
    size_t align = LLVMABIAlignmentOfType(data_layout(l), t);
    size_t size = (size_t)LLVMABISizeOfType(data_layout(l), t);
    if (align < 1)
        align = 1;
    g->size = (g->size + align - 1) / align * align;
    size_t off = g->size;
    g->size += size ? size : 1;
    LLVMBuilderRef b = kn_lower_entry_builder(l);
    LLVMValueRef p = frame_at(l, b, g->frame, off);
    LLVMSetValueName2(p, name, strlen(name));
    LLVMDisposeBuilder(b);
    return p;
}

/* The frame offset of a place kn_lower_gen_slot made. */
static size_t
offset_of(LLVMValueRef gep)
{
    return (size_t)LLVMConstIntGetZExtValue(LLVMGetOperand(gep, 1));
}

static int
mark_use(KnLowerGen *g, const KnInstr *a, int b)
{
    if (g->def_block[a->id] != b)
        g->cross[a->id] = 1;
    return 0;
}

/* Which values cross blocks, and the index of each YIELD; before the body is lowered. */
int
kn_lower_gen_init(L *l, LLVMValueRef frame)
{
    KnFunction *fn = l->c->fn;
    KnLowerGen *g = kn_arena_alloc(&l->c->arena, sizeof(KnLowerGen));
    memset(g, 0, sizeof *g);
    size_t n = (size_t)(fn->next_id + 1);
    g->def_block = kn_arena_alloc(&l->c->arena, sizeof(int) * n);
    g->cross = kn_arena_alloc(&l->c->arena, n);
    g->spill = kn_arena_alloc(&l->c->arena, sizeof(LLVMValueRef) * n);
    g->yield_index = kn_arena_alloc(&l->c->arena, sizeof(int) * n);
    memset(g->cross, 0, n);
    memset(g->spill, 0, sizeof(LLVMValueRef) * n);
    for (size_t i = 0; i < n; i++)
        g->def_block[i] = -1;
    g->frame = frame;
    g->size = FRAME_ARGS + kn_type_args_size(fn->arg_types, fn->nparams);
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            g->def_block[in->id] = b;
            if (in->op == KN_OP_YIELD)
                g->yield_index[in->id] = ++g->nyields;
        }
    }
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            for (int k = 0; k < in->nargs; k++) {
                mark_use(g, in->args[k], b);
                /* an iterator's lowering reads its GETITER's operands too */
                if (in->op == KN_OP_ITERNEXT || in->args[k]->op == KN_OP_GETITER)
                    for (int j = 0; j < in->args[k]->nargs; j++)
                        mark_use(g, in->args[k]->args[j], b);
            }
        }
    }
    if (l->c->in_cycle) {
        kn_diag_error(&l->c->diags, KN_DIAG_UNSUPPORTED, fn->span,
                      "a recursive generator function is not supported");
        return -1;
    }
    l->gen = g;
    return 0;
}

/* next's start: the switch on the resume index (after the entry block's frame addresses). */
void
kn_lower_gen_entry(L *l)
{
    KnLowerGen *g = gen_of(l);
    KnFunction *fn = l->c->fn;
    LLVMValueRef state = LLVMBuildLoad2(l->b, l->i32, g->frame, "state");
    g->done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "finished");
    LLVMValueRef sw = LLVMBuildSwitch(l->b, state, g->done, (unsigned)g->nyields + 1);
    LLVMAddCase(sw, LLVMConstInt(l->i32, 0, 0), l->blocks[0]);
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            if (in->op != KN_OP_YIELD)
                continue;
            KnInstr *t = kn_kir_terminator(blk);
            LLVMAddCase(sw, LLVMConstInt(l->i32, (unsigned long long)g->yield_index[in->id], 0),
                        l->blocks[t->targets[0]->id]);
        }
    }
    LLVMPositionBuilderAtEnd(l->b, g->done);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 2, 0));
}

static LLVMValueRef
home_of(L *l, const KnInstr *v)
{
    return l->slot[v->id] ? l->slot[v->id] : gen_of(l)->spill[v->id];
}

static void
reload(L *l, const KnInstr *a, int b)
{
    KnLowerGen *g = gen_of(l);
    if (g->def_block[a->id] == b || !l->vals[a->id] || LLVMIsConstant(l->vals[a->id]))
        return;
    LLVMValueRef home = home_of(l, a);
    if (home)
        l->vals[a->id] = LLVMBuildLoad2(l->b, LLVMTypeOf(l->vals[a->id]), home, "");
}

/* At the start of block b: the values it uses from other blocks, loaded from the frame. */
void
kn_lower_gen_block(L *l, const KnBlock *blk)
{
    for (int i = 0; i < blk->instrs.len; i++) {
        KnInstr *in = blk->instrs.items[i];
        for (int k = 0; k < in->nargs; k++) {
            reload(l, in->args[k], blk->id);
            if (in->op == KN_OP_ITERNEXT || in->args[k]->op == KN_OP_GETITER)
                for (int j = 0; j < in->args[k]->nargs; j++)
                    reload(l, in->args[k]->args[j], blk->id);
        }
    }
}

/* After a value is computed: one used elsewhere goes to its spill slot (a slotted one, owning a
 * reference, is already in its slot). */
void
kn_lower_gen_after(L *l, const KnInstr *in)
{
    KnLowerGen *g = gen_of(l);
    LLVMValueRef v = l->vals[in->id];
    if (!g->cross[in->id] || !v || LLVMIsConstant(v) || l->slot[in->id])
        return;
    if (!g->spill[in->id])
        g->spill[in->id] = kn_lower_gen_slot(l, LLVMTypeOf(v), "spill");
    LLVMBuildStore(l->b, v, g->spill[in->id]);
}

static void
set_state(L *l, LLVMBuilderRef b, LLVMValueRef frame, int k)
{
    LLVMBuildStore(b, LLVMConstInt(l->i32, (unsigned long long)(int64_t)k, 1), frame);
}

/* yield v: the value (with a reference of its own) to the consumer, the block's releases, the
 * resume index, return 0. What follows in the block (its br to the resume block) is dead. */
void
kn_lower_gen_yield(L *l, KnInstr *in)
{
    KnLowerGen *g = gen_of(l);
    KnType *yt = l->c->fn->yield_type;
    LLVMValueRef v = kn_lower_convert(l, l->vals[in->args[0]->id], in->args[0]->type, yt);
    kn_lower_incref(l, v, yt);
    kn_lower_store_c(l, yt, v, l->ret_ptr);
    kn_lower_release_due(l, 1);
    kn_lower_release_slots_due(l);
    set_state(l, l->b, g->frame, g->yield_index[in->id]);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
    LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, l->fn, "after_yield"));
}

/* The frame's arguments, each released (the frame's references). */
static void
release_args(L *l, LLVMValueRef frame)
{
    KnFunction *fn = l->c->fn;
    for (int i = 0; i < fn->nparams; i++) {
        KnType *t = fn->arg_types[i];
        if (!kn_lower_has_refs(t))
            continue;
        LLVMValueRef p =
            frame_at(l, l->b, frame, FRAME_ARGS + kn_type_arg_offset(fn->arg_types, i));
        kn_lower_decref(l, kn_lower_load_c(l, t, p), t);
    }
}

/* Leaving for good (return, or a raise on its way out): the arguments released (the variables
 * and slots are released by the plain function's cleanup), the index set to finished. */
void
kn_lower_gen_finish(L *l)
{
    release_args(l, gen_of(l)->frame);
    set_state(l, l->b, gen_of(l)->frame, -1);
}

/* return: the generator is exhausted. */
void
kn_lower_gen_ret(L *l)
{
    kn_lower_cleanup(l);
    kn_lower_gen_finish(l);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 2, 0));
}

/* ARG k: the frame's copy of argument k. */
LLVMValueRef
kn_lower_gen_arg(L *l, int k)
{
    KnFunction *fn = l->c->fn;
    LLVMValueRef p =
        frame_at(l, l->b, gen_of(l)->frame, FRAME_ARGS + kn_type_arg_offset(fn->arg_types, k));
    return kn_lower_load_c(l, fn->arg_types[k], p);
}

/* <symbol>_drop(frame): a generator dropped before it finished releases what it holds. */
static void
build_drop(L *l)
{
    KnFunction *fn = l->c->fn;
    LLVMTypeRef params[2] = {l->ptr, l->i64}; /* a KnMemInfo destructor: (data, size) */
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(l->ctx), params, 2, 0);
    char name[300];
    snprintf(name, sizeof name, "%s_drop", l->c->symbol);
    LLVMValueRef f = LLVMAddFunction(l->mod, name, ft);
    LLVMValueRef saved = l->fn;
    l->fn = f;
    LLVMValueRef frame = LLVMGetParam(f, 0);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(l->ctx, f, "entry");
    LLVMBasicBlockRef live = LLVMAppendBasicBlockInContext(l->ctx, f, "live");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(l->ctx, f, "out");
    LLVMPositionBuilderAtEnd(l->b, entry);
    LLVMValueRef st = LLVMBuildLoad2(l->b, l->i32, frame, "state");
    LLVMBuildCondBr(l->b,
                    LLVMBuildICmp(l->b, LLVMIntEQ, st, LLVMConstInt(l->i32, (unsigned)-1, 1), ""),
                    out, live);
    LLVMPositionBuilderAtEnd(l->b, live);
    for (int i = 0; l->has_refs && i < fn->vars.len; i++) {
        KnType *t = fn->vars.items[i].type;
        if (!t || !kn_lower_has_refs(t) || !l->vars[i])
            continue;
        LLVMValueRef p = frame_at(l, l->b, frame, offset_of(l->vars[i]));
        kn_lower_decref(l, LLVMBuildLoad2(l->b, kn_lower_type(l, t), p, ""), t);
    }
    for (int k = 0; l->has_refs && k < l->nslotted; k++) {
        const KnInstr *in = l->slotted[k];
        LLVMValueRef p = frame_at(l, l->b, frame, offset_of(l->slot[in->id]));
        kn_lower_decref(l, LLVMBuildLoad2(l->b, kn_lower_type(l, in->type), p, ""), in->type);
    }
    release_args(l, frame);
    set_state(l, l->b, frame, -1);
    LLVMBuildBr(l->b, out);
    LLVMPositionBuilderAtEnd(l->b, out);
    LLVMBuildRetVoid(l->b);
    l->fn = saved;
}

/* <symbol>_wrap(frame, exc, argbuf): the arguments into the frame, each with its reference. */
static void
build_init(L *l)
{
    KnFunction *fn = l->c->fn;
    LLVMTypeRef params[3] = {l->ptr, l->ptr, l->ptr};
    LLVMValueRef w = LLVMAddFunction(l->mod, l->c->wrapper, LLVMFunctionType(l->i32, params, 3, 0));
    LLVMValueRef saved = l->fn;
    l->fn = w;
    LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, w, "entry"));
    LLVMValueRef frame = LLVMGetParam(w, 0), buf = LLVMGetParam(w, 2);
    /* every variable and slot starts empty (a meminfo's data is not zeroed) */
    LLVMBuildMemSet(l->b, frame, LLVMConstInt(l->i8, 0, 0),
                    LLVMConstInt(l->i64, (gen_of(l)->size + 15) / 16 * 16, 0), 16);
    for (int i = 0; i < fn->nparams; i++) {
        KnType *t = fn->arg_types[i];
        size_t off = kn_type_arg_offset(fn->arg_types, i);
        LLVMValueRef v = kn_lower_load_c(l, t, frame_at(l, l->b, buf, off));
        kn_lower_incref(l, v, t);
        kn_lower_store_c(l, t, v, frame_at(l, l->b, frame, FRAME_ARGS + off));
    }
    set_state(l, l->b, frame, 0);
    LLVMBuildRet(l->b, LLVMConstInt(l->i32, 0, 0));
    l->fn = saved;
}

static void
build_size(L *l)
{
    char name[300];
    snprintf(name, sizeof name, "%s_size", l->c->symbol);
    LLVMValueRef f = LLVMAddFunction(l->mod, name, LLVMFunctionType(l->i64, NULL, 0, 0));
    LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, f, "entry"));
    size_t size = (gen_of(l)->size + 15) / 16 * 16;
    LLVMBuildRet(l->b, LLVMConstInt(l->i64, size, 0));
}

/* After the body: drop, init (the dispatcher's entry) and size. */
void
kn_lower_gen_functions(L *l)
{
    build_drop(l);
    build_init(l);
    build_size(l);
}

/* ---- generators as values in compiled code ---- */

static LLVMValueRef
callee_fn(L *l, const char *symbol, const char *suffix, LLVMTypeRef ft)
{
    char name[300];
    snprintf(name, sizeof name, "%s%s", symbol, suffix);
    LLVMValueRef f = LLVMGetNamedFunction(l->mod, name);
    return f ? f : LLVMAddFunction(l->mod, name, ft);
}

static LLVMValueRef
meminfo_data(L *l, LLVMValueRef mi)
{
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0); /* KnMemInfo {refcount, data, size, dtor} */
    return LLVMBuildLoad2(l->b, l->ptr, LLVMBuildInBoundsGEP2(l->b, l->i64, mi, &one, 1, ""),
                          "frame");
}

/* A C-layout buffer of `size` bytes, 16-aligned, in the entry block. */
static LLVMValueRef
c_buffer(L *l, size_t size, const char *name)
{
    LLVMTypeRef t = LLVMArrayType2(l->i64, (size + 15) / 16 * 2 + 2);
    LLVMValueRef p = kn_lower_entry_alloca(l, t, name);
    if (LLVMIsAAllocaInst(p))
        LLVMSetAlignment(p, 16);
    return p;
}

/* gen(args...) in compiled code: a frame in a new meminfo (its destructor the overload's
 * drop), the arguments converted to the overload's parameters and put in by its init. */
LLVMValueRef
kn_lower_gen_make(L *l, KnInstr *in)
{
    const KnCallImpl *impl = in->impl;
    const char *sym = in->type->ref;
    KnType **params = impl->callee.params;
    int n = in->nargs - 1;
    LLVMValueRef buf = c_buffer(l, kn_type_args_size(params, n), "genargs");
    for (int i = 0; i < n; i++) {
        KnInstr *a = in->args[i + 1];
        LLVMValueRef v = kn_lower_convert(l, l->vals[a->id], a->type, params[i]);
        kn_lower_store_c(l, params[i], v, frame_at(l, l->b, buf, kn_type_arg_offset(params, i)));
    }
    LLVMValueRef size = LLVMBuildCall2(
        l->b, LLVMFunctionType(l->i64, NULL, 0, 0),
        callee_fn(l, sym, "_size", LLVMFunctionType(l->i64, NULL, 0, 0)), NULL, 0, "size");
    LLVMTypeRef dp[2] = {l->ptr, l->i64};
    LLVMValueRef drop =
        callee_fn(l, sym, "_drop", LLVMFunctionType(LLVMVoidTypeInContext(l->ctx), dp, 2, 0));
    LLVMTypeRef ap[2] = {l->i64, l->ptr};
    LLVMValueRef args[2] = {size, drop};
    LLVMValueRef mi = kn_lower_extern(l, "kn_rt_meminfo_alloc_dtor", l->ptr, ap, 2, args);
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, mi, ""), KN_EXC_NO_MEMORY);
    LLVMTypeRef ip[3] = {l->ptr, l->ptr, l->ptr};
    LLVMTypeRef it = LLVMFunctionType(l->i32, ip, 3, 0);
    LLVMValueRef iargs[3] = {meminfo_data(l, mi), l->exc_ptr ? l->exc_ptr : LLVMConstNull(l->ptr),
                             buf};
    LLVMBuildCall2(l->b, it, callee_fn(l, sym, "_wrap", it), iargs, 3, "");
    return mi;
}

/* The head of a for over a generator value: resume its frame; 0 an item (its own reference),
 * 2 exhausted, 1 a raise, passed up (the callee filled in the exception). */
LLVMValueRef
kn_lower_gen_iternext(L *l, KnInstr *in)
{
    KnInstr *seq = in->args[0]->args[0];
    KnType *yt = in->type;
    const char *sym = seq->type->ref;
    LLVMValueRef out = c_buffer(l, kn_type_size(yt), "item");
    LLVMTypeRef ip[3] = {l->ptr, l->ptr, l->ptr};
    LLVMTypeRef ft = LLVMFunctionType(l->i32, ip, 3, 0);
    LLVMValueRef args[3] = {out, l->exc_ptr ? l->exc_ptr : LLVMConstNull(l->ptr),
                            meminfo_data(l, l->vals[seq->id])};
    LLVMValueRef st = LLVMBuildCall2(l->b, ft, callee_fn(l, sym, "", ft), args, 3, "st");
    LLVMBasicBlockRef item = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "item");
    LLVMBasicBlockRef raised = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "raised");
    LLVMValueRef sw = LLVMBuildSwitch(l->b, st, raised, 2);
    LLVMAddCase(sw, LLVMConstInt(l->i32, 0, 0), item);
    LLVMAddCase(sw, LLVMConstInt(l->i32, 2, 0), l->blocks[in->targets[1]->id]);
    LLVMPositionBuilderAtEnd(l->b, raised);
    if (l->direct)
        kn_lower_not_raising(l);
    else {
        kn_lower_store_called_from(l);
        kn_lower_unwind(l, LLVMConstInt(l->i32, 1, 0));
    }
    LLVMPositionBuilderAtEnd(l->b, item);
    return kn_lower_load_c(l, yt, out);
}
