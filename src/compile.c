/* compile.c - the pipeline: an ordered table of passes from untyped KIR (made by the frontend,
 * which the dispatcher runs because it needs Python objects) to code added to the JIT: typing,
 * verify, fuse (array-expression fusion), raises (the can-raise analysis), defer, nonzero,
 * verify again, lower, optimize, jit. Each pass takes the compilation and returns 0 or -1 with a
 * diagnostic. Its products (KnTexts, KnCode, the LLVM module) live in the compilation's side
 * table (base/context.h). In a debug build or with KILN_VERIFY=1 the loop also runs the KIR
 * verifier (ir/verify.c) on the frontend's KIR and after every pass; a failure names the pass.
 * kn_compile_run_one_pass runs typing and one KIR pass alone, for the tests (_run_pass).
 * KILN_DUMP (c->dump) prints the stages to stderr as they are built (time: each pass's time);
 * inspect_llvm/inspect_asm run the same table in text-only mode. */
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
    return kn_pass_prange(c); /* then the prange loops of a parallel=True function */
}

static int
pass_raises(KnCompilation *c)
{
    /* 0 for a function in a recursion cycle means the coded ABI (lower/internal.h): it can
     * still raise RecursionError, through a code returned with its value */
    KnRaises *r = kn_ctx_need(c, KN_SIDE_RAISES, sizeof(KnRaises));
    kn_pass_drop_counted_polls(c->fn);
    r->can_raise = c->force_status || getenv("KILN_STATUS_ALWAYS") ? 1 : kn_pass_can_raise(c);
    return 0;
}

static int
pass_defer(KnCompilation *c)
{
    kn_pass_defer_division_checks(c);
    return 0;
}

static int
pass_nonzero(KnCompilation *c)
{
    kn_pass_nonzero_divisors(c);
    return 0;
}

static int
pass_verify_fused(KnCompilation *c)
{
    if (c->dump & KN_DUMP_TYPED)
        dump_kir(c, "fused KIR", 1);
    return pass_verify(c);
}

static const KnPass pipeline[] = {
    {"typing", pass_typing},       {"verify", pass_verify},      {"fuse", pass_fuse},
    {"raises", pass_raises},       {"defer", pass_defer},        {"nonzero", pass_nonzero},
    {"verify", pass_verify_fused}, {"lower", kn_jit_pass_lower}, {"optimize", kn_jit_pass_optimize},
    {"jit", kn_jit_pass_add},
};

/* Verify after every pass: in a debug build (unless KILN_VERIFY=0), or with KILN_VERIFY=1.
 * KILN_VERIFY=2 also reads the KIR text back (ir/read.c) after the frontend and after typing
 * and checks that it prints the same. Read once. */
static int
verify_each_pass(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("KILN_VERIFY");
        on = e && (!strcmp(e, "1") || !strcmp(e, "2")) ? e[0] - '0' : 0;
#ifndef NDEBUG
        on = e && !strcmp(e, "0") ? 0 : on ? on : 1;
#endif
    }
    return on;
}

/* KILN_VERIFY=2: print, read back, print again; the two texts must be the same. */
static int
check_round_trip(KnCompilation *c, const char *from, int with_types)
{
    KnStrBuf a, b, err;
    kn_sb_init(&a);
    kn_sb_init(&b);
    kn_sb_init(&err);
    kn_kir_print(&a, c->fn, with_types);
    KnArena arena;
    kn_arena_init(&arena);
    KnFunction *back = kn_kir_read(&arena, c->types, a.data, c->fn->filename, &err);
    if (back)
        kn_kir_print(&b, back, with_types);
    int rc = back && !strcmp(a.data, b.data) ? 0 : -1;
    if (rc < 0 && getenv("KILN_VERIFY_DEBUG"))
        fprintf(stderr, "---- printed ----\n%s---- read back ----\n%s", a.data, b.data);
    if (rc < 0)
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, c->fn->span,
                      "internal error: the KIR text from %s does not read back the same: %s", from,
                      back ? "it prints differently" : err.data);
    kn_arena_fini(&arena);
    kn_sb_fini(&a);
    kn_sb_fini(&b);
    kn_sb_fini(&err);
    return rc;
}

/* The verifier on the KIR that `from` made ("pass `fuse`", "the frontend"): a failure is an
 * internal-error diagnostic at the offending instruction (not a crash). */
static int
verify_after(KnCompilation *c, const char *from, int level)
{
    KnStrBuf why;
    kn_sb_init(&why);
    const KnInstr *where = NULL;
    int rc = kn_kir_verify_ex(c->fn, level, &why, &where);
    if (rc < 0)
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, where ? where->span : c->fn->span,
                      "internal error: bad KIR from %s: %s", from, why.data);
    kn_sb_fini(&why);
    return rc;
}

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
run_pass(KnCompilation *c, const KnPass *p, int verify)
{
    if (verify == 2 && p->run == pass_typing)
        KN_TRY(check_round_trip(c, "the frontend", 0));
    double t0 = (c->dump & KN_DUMP_TIME) ? now_ms() : 0;
    KN_TRY(p->run(c));
    if (c->dump & KN_DUMP_TIME)
        fprintf(stderr, "kiln: %s: %-8s %.2f ms\n", c->fn->name, p->name, now_ms() - t0);
    if (!verify)
        return 0;
    char from[48];
    snprintf(from, sizeof from, "pass `%s`", p->name);
    t0 = (c->dump & KN_DUMP_TIME) ? now_ms() : 0;
    KN_TRY(verify_after(c, from, KN_VERIFY_TYPED));
    if (c->dump & KN_DUMP_TIME)
        fprintf(stderr, "kiln: %s: %-8s %.3f ms (KILN_VERIFY)\n", c->fn->name, "verify",
                now_ms() - t0);
    return verify == 2 && p->run == pass_typing ? check_round_trip(c, from, 1) : 0;
}

int
kn_compile_run(KnCompilation *c)
{
    int verify = verify_each_pass();
    if (verify)
        KN_TRY(verify_after(c, "frontend", KN_VERIFY_UNTYPED));
    for (int i = 0; i < KN_ARRAY_LEN(pipeline); i++)
        KN_TRY(run_pass(c, &pipeline[i], verify));
    return 0;
}

int
kn_compile_run_one_pass(KnCompilation *c, const char *name)
{
    KN_TRY(verify_after(c, "the KIR reader", KN_VERIFY_UNTYPED));
    KN_TRY(run_pass(c, &pipeline[0], 1)); /* typing */
    if (!strcmp(name, "typing"))
        return 0;
    static const char *const kir_passes[] = {"verify", "fuse", "raises", "defer", "nonzero"};
    for (int k = 0; k < KN_ARRAY_LEN(kir_passes); k++)
        for (int i = 1; i < KN_ARRAY_LEN(pipeline); i++)
            if (!strcmp(name, kir_passes[k]) && !strcmp(pipeline[i].name, name))
                return run_pass(c, &pipeline[i], 1);
    return 1;
}

void *
kn_compile_lookup(KnJit *jit, const char *wrapper, char **err)
{
    return kn_jit_lookup(jit, wrapper, err);
}
