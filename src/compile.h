/* compile.h - the pipeline that runs the stages in order (compile.c): the dispatcher fills in a
 * compilation's options and hooks (base/context.h), calls kn_compile_run, and reads back the
 * products (KnTexts, KnCode: jit/jit.h) or the diagnostics. Stages include base/context.h, never
 * this header. */
#ifndef KN_COMPILE_H
#define KN_COMPILE_H

#include "base/context.h"
#include "jit/jit.h"

void kn_compile_init(KnCompilation *c, KnTypeTable *types, KnJit *jit);
void kn_compile_fini(KnCompilation *c);
/* KIR -> code in the JIT: runs the pass table (typing, verify, lower, optimize, jit). The wrapper's
 * address is looked up later, by kn_compile_lookup, so mutually recursive overloads can all be
 * added before any is linked. */
int kn_compile_run(KnCompilation *c);
/* Test support (kiln._core._run_pass): typing, then the KIR pass `name` alone ("typing",
 * "verify", "fuse", "raises", "defer", "nonzero"), verifying before and after each. 0, -1 with a
 * diagnostic, or 1 when there is no such pass. */
int kn_compile_run_one_pass(KnCompilation *c, const char *name);
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
