/* module.c - one compilation's LLVM module, from lowering to the JIT: the pipeline's three
 * LLVM passes (compile.c's pipeline[] runs them by these names). lower: typed KIR into a module
 * in a fresh thread-safe context (KN_SIDE_LLVM). optimize: the bitcode of small jitted callees
 * linked in for inlining, O3, the bitcode kept for later callers, huge blocks cut, the IR and
 * assembly texts. jit: the module handed to the LLJIT under a resource tracker (KN_SIDE_CODE).
 * kn_jit_fini_products frees what a compilation leaves behind. */
#include "jit/jit.h"

#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/lower.h"
#include "passes/passes.h"

KnTexts *
kn_jit_texts(KnCompilation *c)
{
    return kn_ctx_need(c, KN_SIDE_TEXT, sizeof(KnTexts));
}

static KnTexts *
texts(KnCompilation *c)
{
    return kn_jit_texts(c);
}

static KnLlvmProduct *
llvm_product(KnCompilation *c)
{
    return kn_ctx_need(c, KN_SIDE_LLVM, sizeof(KnLlvmProduct));
}

static KnCode *
code(KnCompilation *c)
{
    return kn_ctx_need(c, KN_SIDE_CODE, sizeof(KnCode));
}

void
kn_jit_fini_products(KnCompilation *c)
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
}

static char *
module_text(LLVMModuleRef m)
{
    char *s = LLVMPrintModuleToString(m);
    char *r = strdup(s);
    LLVMDisposeMessage(s);
    return r;
}

int
kn_jit_pass_lower(KnCompilation *c)
{
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
    KnLlvmProduct *lp = llvm_product(c);
    lp->tsc = tsc;
    LLVMModuleRef m = kn_lower_function(c, ctx);
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
 * definitions: LLVM may inline them; calls it does not inline still go to their symbols.
 * The calls of outlined prange bodies (passes/prange.c) too: they are lowered into this module.
 * Not in a thunk (a forwarding binding): inlined there, a callee would be optimized twice. */
static void
link_calls_of(KnCompilation *c, LLVMModuleRef m, KnFunction *fn)
{
    for (int b = 0; b < fn->blocks.len; b++) {
        KnBlock *blk = fn->blocks.items[b];
        for (int i = 0; blk->reachable && i < blk->instrs.len; i++) {
            KnInstr *in = blk->instrs.items[i];
            KnCallImpl *impl = in->impl;
            if (in->op != KN_OP_CALL || !impl)
                continue;
            if (impl->kind == KN_CALL_BUILTIN && impl->builtin == KN_BI_PAR_FOR) {
                /* an outlined prange body (passes/prange.c): its calls are in its own KIR */
                const KnPrangeRegion *r = in->args[0]->imm.ptr;
                if (r && r->body)
                    link_calls_of(c, m, r->body);
                continue;
            }
            if (impl->kind != KN_CALL_JITTED)
                continue;
            int nc = impl->choices ? in->args[0]->type->n : 1; /* a choice: each callee */
            for (int k = 0; k < nc; k++) {
                const KnCallee *ce = impl->choices ? &impl->choices[k] : &impl->callee;
                if (!ce->bitcode || (LLVMGetNamedFunction(m, ce->symbol) &&
                                     !LLVMIsDeclaration(LLVMGetNamedFunction(m, ce->symbol))))
                    continue; /* nothing to inline, or already linked */
                kn_jit_link_for_inlining(m, ce->bitcode, ce->bitcode_size);
            }
        }
    }
}

static void
link_callees(KnCompilation *c)
{
    if (c->thunk)
        return; /* a binding stays small, so that its callers inline it and call the callee */
    link_calls_of(c, llvm_product(c)->module, c->fn);
}

int
kn_jit_pass_optimize(KnCompilation *c)
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
        kn_jit_bitcode(m, &cd->bitcode, &cd->bitcode_size, c->inline_always);
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

int
kn_jit_pass_add(KnCompilation *c)
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
