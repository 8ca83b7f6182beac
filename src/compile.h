/* compile.h - one compilation: the state every stage function takes first (KnCompilation), and
 * the pipeline that runs the stages in order (compile.c). The dispatcher fills in the options
 * and hooks, calls kn_compile_run, and reads back the entry point or the diagnostics. */
#ifndef KN_COMPILE_H
#define KN_COMPILE_H

#include "base/base.h"
#include "ir/kir.h"
#include "types/types.h"

typedef struct KnJit KnJit;
typedef struct KnCompilation KnCompilation;

/* passes/defer.c: a loop's float division whose zero check moves to the loop's exit. */
typedef struct KnDeferred {
    KnInstr *division;
    KnBlock *exit;
    int from_ints; /* int / int: CPython's message differs */
} KnDeferred;
enum { KN_MAX_DEFERRED = 8 };
/* Parameters of a compiled function (the frontend rejects more, at the first one too many). */
enum { KN_MAX_PARAMS = 255 };

enum {
    KN_DUMP_KIR = 1 << 0,
    KN_DUMP_TYPED = 1 << 1,
    KN_DUMP_LLVM = 1 << 2,
    KN_DUMP_OPT = 1 << 3,
    KN_DUMP_ASM = 1 << 4,
    KN_DUMP_TIME = 1 << 5, /* time each pass */
};

/* LLVM fast-math flags, as LLVMFastMathFlags spells them. */
enum {
    KN_FM_REASSOC = 1 << 0,
    KN_FM_NNAN = 1 << 1,
    KN_FM_NINF = 1 << 2,
    KN_FM_NSZ = 1 << 3,
    KN_FM_ARCP = 1 << 4,
    KN_FM_CONTRACT = 1 << 5,
    KN_FM_AFN = 1 << 6,
    KN_FM_ALL = 0x7f,
};

/* What typing asks of the world outside the compiler: the type of a call to another jitted
 * function (a KnCallee, ir/kir.h). The dispatcher implements it (compiling the callee if
 * needed). */
typedef struct KnHooks {
    /* Type `ref` (a dispatcher) for the argument types; fills *out. On failure records a
     * diagnostic in c->diags at `span` and returns -1. */
    int (*resolve_call)(KnCompilation *c, void *ref, KnType **args, int nargs, KnSpan span,
                        KnCallee *out);
} KnHooks;

typedef struct KnCompilation {
    KnArena arena; /* everything below that is not long-lived */
    KnDiags diags;
    KnTypeTable *types; /* long-lived, shared by all compilations */
    KnJit *jit;
    const KnHooks *hooks;
    void *hooks_ctx;

    /* options */
    unsigned fastmath;      /* KN_FM_* */
    int boundscheck;        /* 0 or 1 */
    int error_model_python; /* 1: division by zero raises (Numba's error_model='python') */
    unsigned dump;          /* KN_DUMP_*: print stages to stderr */
    int want_text;          /* keep LLVM IR and asm text (inspect_llvm / inspect_asm) */
    const char *symbol;     /* native symbol for this overload's function */
    const char *wrapper;    /* native symbol of its uniform-ABI wrapper */

    /* stage products */
    KnFunction *fn;       /* frontend: untyped KIR; typing adds types */
    KnType *declared_ret; /* a signature's return type, or NULL */
    KnType **arg_types;   /* the signature being compiled */
    int nargs;
    int text_only;     /* produce llvm/opt/asm text, do not add code to the JIT */
    void *llvm_module; /* between lower and jit (compile.c) */
    void *llvm_tsc;
    char *kir_text;         /* frontend's KIR, untyped (if want_text) */
    char *typed_text;       /* KIR after typing (if want_text) */
    char *llvm_text;        /* lower: IR before optimization (if want_text) */
    char *opt_text;         /* jit: IR after optimization (if want_text) */
    char *asm_text;         /* jit: assembly (if want_text) */
    void *entry;            /* the wrapper's address */
    void *resource_tracker; /* LLVMOrcResourceTrackerRef owning this code */
    int can_raise;          /* passes: 0 when the function is lowered without a status code */
    KnDeferred deferred[KN_MAX_DEFERRED]; /* passes/defer.c, read by lowering */
    int ndeferred;
    unsigned char *nonzero_divisor; /* passes/nonzero.c, by instruction id: skip the zero test */
    int nonzero_len;                /* its length */
    void *bitcode; /* jit: the optimized module, kept for inlining into callers (malloc) */
    size_t bitcode_size;
    int force_status; /* a mutually recursive caller assumed the status-code ABI */
    int in_cycle; /* in a recursion cycle: checks its stack at entry, takes a stack limit last */
    int partial_ret_used;  /* a recursive call saw fn->ret_type before typing finished */
    KnType *ret_type_seen; /* the return type that a recursive call saw */
} KnCompilation;

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

/* The uniform entry every overload gets: status = wrapper(ret, excinfo, argbuf). */
typedef struct KnExcInfo {
    int64_t index; /* exception table index */
    int64_t nargs; /* run-time values for the message (str.format'ed by the dispatcher) */
    int64_t args[4];
    const char *where; /* "file:line" of the raise (a constant of the raising code), or NULL */
} KnExcInfo;

typedef int (*KnWrapperFn)(void *ret, KnExcInfo *exc, void *args);

#endif
