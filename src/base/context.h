/* context.h - one compilation's context (KnCompilation): the state every stage function takes
 * first. It holds what all stages share (the arena, the diagnostics, the type table, the JIT,
 * the dispatcher's hooks), the options, the subject (the KIR function and the signature being
 * compiled) and a side table for everything else: each stage product and each pass's scratch
 * (divisions whose check is deferred, known-nonzero divisors, text dumps, the LLVM module
 * between lower and jit, ...) lives in the compilation's arena under a key of its own
 * (KnSideKey), declared with the stage that owns it, not as a field of this struct.
 *
 * It sits in base/, below every stage, and names the types of the layers above (KnFunction,
 * KnType, KnJit, ...) only as incomplete types: any layer can take a compilation, and this
 * header includes nothing but base.h (docs/internals.md, "The compilation context"). The
 * pipeline that runs the stages in order is compile.h / compile.c. */
#ifndef KN_CONTEXT_H
#define KN_CONTEXT_H

#include "base/base.h"

typedef struct KnCompilation KnCompilation;
typedef struct KnType KnType;
typedef struct KnTypeTable KnTypeTable;
typedef struct KnFunction KnFunction;
typedef struct KnCallee KnCallee;
typedef struct KnJit KnJit;
typedef struct KnTarget KnTarget;

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
/* A question for kiln.extending (KnHooks.resolve_overload): which Python implementation fits. */
typedef enum KnOverloadKind {
    KN_OVERLOAD_FUNCTION,   /* ref: the overloaded callable (a KN_FUNC_OVERLOAD type's ref) */
    KN_OVERLOAD_METHOD,     /* args[0] is self; name the method */
    KN_OVERLOAD_ATTRIBUTE,  /* args[0] is self; name the attribute */
    KN_OVERLOAD_HAS_METHOD, /* only whether the method exists: *out non-NULL when it does */
} KnOverloadKind;

typedef struct KnOverloadQuery {
    KnOverloadKind kind;
    void *ref;
    const char *name;
    KnType **args; /* positional arguments, then the keyword arguments named by kwnames */
    int nargs;
    const char *const *kwnames;
    int nkw;
    const char *const *strs; /* per argument: a constant str's value (a StringLiteral), or NULL */
} KnOverloadQuery;

typedef struct KnHooks {
    /* Type `ref` (a dispatcher) for the argument types; fills *out. On failure records a
     * diagnostic in c->diags at `span` and returns -1. */
    int (*resolve_call)(KnCompilation *c, void *ref, KnType **args, int nargs, KnSpan span,
                        KnCallee *out);
    /* The dispatcher of the Python implementation for q (borrowed, kept alive by
     * kiln.extending), or *out = NULL when there is none; -1 with a diagnostic on error. */
    int (*resolve_overload)(KnCompilation *c, const KnOverloadQuery *q, KnSpan span, void **out);
    /* Is the class of exception table entry `index` a subclass of `cls` (a class object, or
     * NULL)? 1 or 0; -1 when index is past the end of the table (lower/exceptions.c). */
    int (*exc_match)(KnCompilation *c, const void *cls, int64_t index);
} KnHooks;

/* The side table's keys: one per stage product or pass scratch. The struct stored under a key
 * is declared by the stage that owns it (named here); a key nobody stored reads as NULL. */
typedef enum KnSideKey {
    KN_SIDE_TEXT,      /* KnTexts (compile.h): KIR / LLVM IR / assembly text */
    KN_SIDE_LLVM,      /* compile.c: the LLVM module between lower and jit, and its context */
    KN_SIDE_CODE,      /* KnCode (compile.h): the JIT's resource tracker, the kept bitcode */
    KN_SIDE_RAISES,    /* KnRaises (passes/passes.h): can the function raise */
    KN_SIDE_DEFERRED,  /* KnDeferrals (passes/passes.h): divisions checked at the loop exit */
    KN_SIDE_NONZERO,   /* KnNonzero (passes/passes.h): divisions whose divisor is nonzero */
    KN_SIDE_RECURSION, /* KnRecursionSeen (below): what a recursive call saw */
    KN_SIDE_REFINED,   /* typing/rules.c: a variable's type was refined (kn_typing_refine) */
    KN_SIDE_COUNT
} KnSideKey;

/* Written by the dispatcher's resolve_call on the compilation a recursive call reaches; typing
 * checks at its end that the return type it saw is the final one. */
typedef struct KnRecursionSeen {
    int partial_ret_used;  /* a recursive call saw fn->ret_type before typing finished */
    KnType *ret_type_seen; /* the return type that a recursive call saw */
} KnRecursionSeen;

/* A note for parallel_diagnostics(): a prange loop or an array expression of a parallel=True
 * function, whether it runs in parallel and, when not, why. The pass or lowering rule that
 * decides records it (kn_par_note); the dispatcher keeps the list with the overload. */
typedef struct KnParNote {
    KnSpan span;
    const char *what; /* "prange loop", "array expression a * b + c", ... */
    int parallel;     /* 1: runs on the thread pool */
    const char *why;  /* when not parallel (or a detail when it is), or NULL */
    struct KnParNote *next;
} KnParNote;

struct KnCompilation {
    KnArena arena; /* everything below that is not long-lived */
    KnDiags diags;
    KnTypeTable *types; /* long-lived, shared by all compilations */
    KnJit *jit;
    const KnTarget *target; /* what the code is for (targets/target.h): the JIT's, by
                             * kn_compile_init; lowering and the optimizer read it */
    const KnHooks *hooks;
    void *hooks_ctx;

    /* options */
    unsigned fastmath;      /* KN_FM_* */
    int boundscheck;        /* 0 or 1 */
    int error_model_python; /* 1: division by zero raises (Numba's error_model='python') */
    int thunk;              /* a binding (kiln.extending): callees stay out of line */
    int parallel;           /* parallel=True: prange loops and array expressions may run on
                             * the thread pool (src/parallel/pool.h) */
    unsigned dump;          /* KN_DUMP_*: print stages to stderr */
    int want_text;          /* keep LLVM IR and asm text (inspect_llvm / inspect_asm) */
    int text_only;          /* produce llvm/opt/asm text, do not add code to the JIT */
    const char *symbol;     /* native symbol for this overload's function */
    const char *wrapper;    /* native symbol of its uniform-ABI wrapper */
    /* decorator options: inline='always' / forceinline (alwaysinline, bitcode always kept),
     * locals={name: type} (variables whose type is fixed: typing/locals.c) */
    int inline_always;
    int nlocals;
    const char **local_names;
    KnType **local_types;
    /* ABI options, which the dispatcher sets while a recursion cycle is being typed */
    int force_status; /* a mutually recursive caller assumed the status-code ABI */
    int in_cycle; /* in a recursion cycle: checks its stack at entry, takes a stack limit last */

    /* the subject */
    KnFunction *fn;       /* frontend: untyped KIR; typing adds types */
    KnType *declared_ret; /* a signature's return type, or NULL */
    KnType **arg_types;   /* the signature being compiled */
    int nargs;

    void *side[KN_SIDE_COUNT]; /* stage products and pass scratch, in the arena (kn_ctx_get) */
    KnParNote *par_notes, **par_notes_tail; /* in the order recorded (kn_par_note) */
};

/* Record a parallel_diagnostics() note; the strings are copied into the arena. */
static inline void
kn_par_note(KnCompilation *c, KnSpan span, const char *what, int parallel, const char *why)
{
    KnParNote *n = kn_arena_alloc(&c->arena, sizeof *n);
    n->span = span;
    n->what = kn_arena_strdup(&c->arena, what ? what : "");
    n->parallel = parallel;
    n->why = why ? kn_arena_strdup(&c->arena, why) : NULL;
    n->next = NULL;
    if (!c->par_notes_tail)
        c->par_notes_tail = &c->par_notes;
    *c->par_notes_tail = n;
    c->par_notes_tail = &n->next;
}

/* What is stored under `key`, or NULL. */
static inline void *
kn_ctx_get(const KnCompilation *c, KnSideKey key)
{
    return c->side[key];
}

/* Store `value` (in c->arena, or owned by the stage that frees it) under `key`. */
static inline void
kn_ctx_put(KnCompilation *c, KnSideKey key, void *value)
{
    c->side[key] = value;
}

/* What is stored under `key`; if nothing, a zeroed `size` bytes in the arena, stored there. */
static inline void *
kn_ctx_need(KnCompilation *c, KnSideKey key, size_t size)
{
    if (!c->side[key])
        c->side[key] = kn_arena_alloc(&c->arena, size);
    return c->side[key];
}

/* The uniform entry every overload gets: status = wrapper(ret, excinfo, argbuf). Lowering lays
 * the struct out in LLVM (lower/lower.c); the dispatcher reads it. */
typedef struct KnExcInfo {
    int64_t index; /* exception table index */
    int64_t nargs; /* run-time values for the message (str.format'ed by the dispatcher) */
    int64_t args[4];
    const char *where; /* "file:line" of the raise (a constant of the raising code), or NULL */
    const char *called_from; /* "file:line" of the outermost compiled call that passed it up */
} KnExcInfo;

typedef int (*KnWrapperFn)(void *ret, KnExcInfo *exc, void *args);

#endif
