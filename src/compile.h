/* compile.h - the pipeline that runs the stages in order (compile.c): the dispatcher fills in a
 * compilation's options and hooks (base/context.h), calls kn_compile_run, and reads back the
 * products below or the diagnostics. Stages include base/context.h, never this header. */
#ifndef KN_COMPILE_H
#define KN_COMPILE_H

#include "base/context.h"
#include "ir/kir.h"
#include "types/types.h"

/* KN_SIDE_TEXT: the stages as text, kept when c->want_text (malloc, freed by kn_compile_fini). */
typedef struct KnTexts {
    char *kir_text;   /* frontend's KIR, untyped */
    char *typed_text; /* KIR after typing */
    char *llvm_text;  /* lower: IR before optimization (also kept for KILN_DUMP=llvm) */
    char *opt_text;   /* jit: IR after optimization (also for KILN_DUMP=opt) */
    char *asm_text;   /* jit: assembly (also for KILN_DUMP=asm) */
} KnTexts;

/* KN_SIDE_CODE: what the JIT made of it (not in text-only mode). */
typedef struct KnCode {
    void *resource_tracker; /* LLVMOrcResourceTrackerRef owning this code */
    void *bitcode; /* the optimized module, kept for inlining into callers (malloc; taking it
                    * sets this to NULL, else kn_compile_fini frees it) */
    size_t bitcode_size;
} KnCode;

void kn_compile_init(KnCompilation *c, KnTypeTable *types, KnJit *jit);
void kn_compile_fini(KnCompilation *c);
/* KIR -> code in the JIT: runs the pass table (typing, verify, lower, optimize, jit). The wrapper's
 * address is looked up later, by kn_compile_lookup, so mutually recursive overloads can all be
 * added before any is linked. */
int kn_compile_run(KnCompilation *c);
void *kn_compile_lookup(KnJit *jit, const char *wrapper, char **err);

/* The texts kept (all NULL when none were). */
static inline KnTexts
kn_compile_texts(const KnCompilation *c)
{
    const KnTexts *t = kn_ctx_get(c, KN_SIDE_TEXT);
    if (t)
        return *t;
    KnTexts none = {NULL, NULL, NULL, NULL, NULL};
    return none;
}

#endif
