/* compile.c - the pipeline: an ordered table of passes from untyped KIR (made by the frontend,
 * which the dispatcher runs because it needs Python objects) to code added to the JIT: typing,
 * verify, fuse (array-expression fusion and the can-raise analysis, then verify again), lower,
 * optimize, jit. Each pass takes the compilation and returns 0 or -1 with a diagnostic.
 * Its products (KnTexts, KnCode, the LLVM module) live in the compilation's side table
 * (base/context.h). KILN_DUMP (c->dump) prints the stages to stderr as they are built (time: each
 * pass's time); inspect_llvm/inspect_asm run the same table in text-only mode. */
#include "compile.h"

#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jit/jit.h"
#include "lower/lower.h"
#include "passes/passes.h"
#include "typing/typing.h"

void
kn_compile_init(KnCompilation *c, KnTypeTable *types, KnJit *jit)
{
    memset(c, 0, sizeof *c);
    kn_arena_init(&c->arena);
    c->diags.arena = &c->arena;
    c->types = types;
    c->jit = jit;
    c->error_model_python = 1;
}

/* KN_SIDE_LLVM: the module from lower to jit, and the context it lives in. */
typedef struct KnLlvmProduct {
    LLVMModuleRef module;
    LLVMOrcThreadSafeContextRef tsc;
} KnLlvmProduct;

static KnLlvmProduct *
llvm_product(KnCompilation *c)
{
    return kn_ctx_need(c, KN_SIDE_LLVM, sizeof(KnLlvmProduct));
}

static KnTexts *
texts(KnCompilation *c)
{
    return kn_ctx_need(c, KN_SIDE_TEXT, sizeof(KnTexts));
}

static KnCode *
code(KnCompilation *c)
{
    return kn_ctx_need(c, KN_SIDE_CODE, sizeof(KnCode));
}

void
kn_compile_fini(KnCompilation *c)
{
    KnLlvmProduct *lp = kn_ctx_get(c, KN_SIDE_LLVM);
    if (lp && lp->module)
        LLVMDisposeModule(lp->module);
    if (lp && lp->tsc)
        LLVMOrcDisposeThreadSafeContext(lp->tsc);
    KnCode *cd = kn_ctx_get(c, KN_SIDE_CODE);
    if (cd)
        free(cd->bitcode);
    KnTexts *t = kn_ctx_get(c, KN_SIDE_TEXT);
    if (t) {
        free(t->kir_text);
        free(t->typed_text);
        free(t->llvm_text);
        free(t->opt_text);
        free(t->asm_text);
    }
    kn_arena_fini(&c->arena);
}

static void
dump_kir(KnCompilation *c, const char *title, int with_types)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_kir_print(&sb, c->fn, with_types);
    fprintf(stderr, "---- %s: %s ----\n%s", title, c->fn->name, sb.data);
    kn_sb_fini(&sb);
}

static char *
kir_text(KnCompilation *c, int with_types)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_kir_print(&sb, c->fn, with_types);
    char *r = strdup(sb.data);
    kn_sb_fini(&sb);
    return r;
}

static int
pass_typing(KnCompilation *c)
{
    if (c->dump & KN_DUMP_KIR)
        dump_kir(c, "KIR", 0);
    if (c->want_text)
        texts(c)->kir_text = kir_text(c, 0);
    KN_TRY(kn_typing_infer(c, c->arg_types));
    if (c->dump & KN_DUMP_TYPED)
        dump_kir(c, "typed KIR", 1);
    if (c->want_text)
        texts(c)->typed_text = kir_text(c, 1);
    return 0;
}

static int
pass_verify(KnCompilation *c)
{
    KnStrBuf why;
    kn_sb_init(&why);
    int rc = kn_kir_verify(c->fn, &why);
    if (rc < 0)
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, c->fn->span, "internal error: bad KIR: %s",
                      why.data);
    kn_sb_fini(&why);
    return rc;
}

static char *
module_text(LLVMModuleRef m)
{
    char *s = LLVMPrintModuleToString(m);
    char *r = strdup(s);
    LLVMDisposeMessage(s);
    return r;
}

static int
pass_lower(KnCompilation *c)
{
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
    KnLlvmProduct *lp = llvm_product(c);
    lp->tsc = tsc;
    LLVMModuleRef m = kn_lower_function(c, ctx, c->jit->triple, c->jit->datalayout);
    if (!m)
        return -1;
    lp->module = m;
    if (c->want_text || (c->dump & KN_DUMP_LLVM))
        texts(c)->llvm_text = module_text(m);
    if (c->dump & KN_DUMP_LLVM)
        fprintf(stderr, "---- LLVM IR: %s ----\n%s", c->fn->name, texts(c)->llvm_text);
    return 0;
}

/* Bring the bodies of small jitted callees into this module as available_externally
 * definitions: LLVM may inline them; calls it does not inline still go to their symbols. */
static void
link_callees(KnCompilation *c)
{
    KnFunction *fn = c->fn;
    LLVMModuleRef m = llvm_product(c)->module;
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            KnCallImpl *impl = in->impl;
            if (in->op != KN_OP_CALL || !impl || impl->kind != KN_CALL_JITTED ||
                !impl->callee.bitcode)
                continue;
            if (LLVMGetNamedFunction(m, impl->callee.symbol) &&
                !LLVMIsDeclaration(LLVMGetNamedFunction(m, impl->callee.symbol)))
                continue; /* already linked */
            kn_jit_link_for_inlining(m, impl->callee.bitcode, impl->callee.bitcode_size);
        }
    }
}

static int
pass_optimize(KnCompilation *c)
{
    char *err = NULL;
    link_callees(c);
    LLVMModuleRef m = llvm_product(c)->module;
    if (kn_jit_optimize(c->jit, m, 3, &err) < 0) {
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, c->fn->span, "LLVM optimization failed: %s",
                      err);
        free(err);
        return -1;
    }
    if (!c->text_only) {
        KnCode *cd = code(c);
        kn_jit_bitcode(m, &cd->bitcode, &cd->bitcode_size);
    }
    /* after the bitcode: callers inline the uncut blocks */
    int cuts = kn_jit_split_blocks(m);
    if (cuts && (c->dump & KN_DUMP_TIME))
        fprintf(stderr, "kiln: %s: huge blocks cut in %d places (jit/split.c)\n", c->fn->name,
                cuts);
    if (c->want_text || (c->dump & KN_DUMP_OPT))
        texts(c)->opt_text = module_text(m);
    if (c->dump & KN_DUMP_OPT)
        fprintf(stderr, "---- optimized LLVM IR: %s ----\n%s", c->fn->name, texts(c)->opt_text);
    if (c->want_text || (c->dump & KN_DUMP_ASM))
        texts(c)->asm_text = kn_jit_asm(c->jit, m);
    if (c->dump & KN_DUMP_ASM)
        fprintf(stderr, "---- assembly: %s ----\n%s", c->fn->name, texts(c)->asm_text);
    return 0;
}

static int
pass_jit(KnCompilation *c)
{
    if (c->text_only)
        return 0;
    char *err = NULL;
    LLVMOrcResourceTrackerRef rt = NULL;
    KnLlvmProduct *lp = llvm_product(c);
    int rc = kn_jit_add(c->jit, lp->tsc, lp->module, &rt, &err);
    lp->module = NULL; /* consumed, even on error */
    LLVMOrcDisposeThreadSafeContext(lp->tsc);
    lp->tsc = NULL;
    if (rc < 0) {
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, c->fn->span, "JIT failed: %s", err);
        free(err);
        return -1;
    }
    code(c)->resource_tracker = rt;
    return 0;
}

typedef struct KnPass {
    const char *name;
    int (*run)(KnCompilation *c);
} KnPass;

static int
pass_fuse(KnCompilation *c)
{
    KN_TRY(kn_pass_fuse(c));
    /* 0 for a function in a recursion cycle means the coded ABI (lower/internal.h): it can
     * still raise RecursionError, through a code returned with its value */
    KnRaises *r = kn_ctx_need(c, KN_SIDE_RAISES, sizeof(KnRaises));
    r->can_raise = c->force_status || getenv("KILN_STATUS_ALWAYS") ? 1 : kn_pass_can_raise(c);
    kn_pass_defer_division_checks(c);
    kn_pass_nonzero_divisors(c);
    if (c->dump & KN_DUMP_TYPED)
        dump_kir(c, "fused KIR", 1);
    return pass_verify(c);
}

static const KnPass pipeline[] = {
    {"typing", pass_typing}, {"verify", pass_verify},     {"fuse", pass_fuse},
    {"lower", pass_lower},   {"optimize", pass_optimize}, {"jit", pass_jit},
};

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
kn_compile_run(KnCompilation *c)
{
    for (int i = 0; i < KN_ARRAY_LEN(pipeline); i++) {
        double t0 = (c->dump & KN_DUMP_TIME) ? now_ms() : 0;
        KN_TRY(pipeline[i].run(c));
        if (c->dump & KN_DUMP_TIME)
            fprintf(stderr, "kiln: %s: %-8s %.2f ms\n", c->fn->name, pipeline[i].name,
                    now_ms() - t0);
    }
    return 0;
}

void *
kn_compile_lookup(KnJit *jit, const char *wrapper, char **err)
{
    return kn_jit_lookup(jit, wrapper, err);
}
