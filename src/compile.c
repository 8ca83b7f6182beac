/* compile.c - the pipeline: an ordered table of passes from untyped KIR (made by the frontend,
 * which the dispatcher runs because it needs Python objects) to code added to the JIT: typing,
 * verify, fuse (array-expression fusion and the can-raise analysis, then verify again), lower,
 * optimize, jit. Each pass takes the compilation and returns 0 or -1 with a diagnostic.
 * Its products (KnTexts, KnCode, the LLVM module) live in the compilation's side table
 * (base/context.h). KILN_DUMP (c->dump) prints the stages to stderr as they are built (time: each
 * pass's time); inspect_llvm/inspect_asm run the same table in text-only mode. */
#include "compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jit/jit.h"
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
    c->target = jit ? jit->target : NULL;
    c->error_model_python = 1;
}

static KnTexts *
texts(KnCompilation *c)
{
    return kn_jit_texts(c);
}

void
kn_compile_fini(KnCompilation *c)
{
    kn_jit_fini_products(c);
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
    {"typing", pass_typing},
    {"verify", pass_verify},
    {"fuse", pass_fuse},
    {"lower", kn_jit_pass_lower},
    {"optimize", kn_jit_pass_optimize},
    {"jit", kn_jit_pass_add},
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
