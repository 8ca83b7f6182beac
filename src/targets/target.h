/* target.h - what kiln compiles for, behind one struct (KnTarget): the target's identity (triple,
 * CPU, features, data layout), its target machine and optimizer pipeline, how lowering names a
 * math function for it, what lowering builds around a function (the entry ABI) and how a module
 * becomes assembly or object code. Lowering and the JIT read the target through
 * KnCompilation.target and KnJit.target and never ask LLVM for the host themselves.
 *
 * A target is one folder (targets/cpu/, a future targets/cuda/) whose constructor fills the
 * struct, and one line in targets/targets.def; kn_target_create finds it by name. This layer sits
 * below lower/ and jit/ (tools/check_layers.py) and uses only base/ and LLVM. The CPU target is
 * the only one today (docs/internals.md, "Targets"). */
#ifndef KN_TARGET_H
#define KN_TARGET_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "base/base.h"

typedef struct KnTarget KnTarget;

/* How a math function is reached: an LLVM intrinsic overloaded on the float type ("llvm.sin",
 * which LLVM names llvm.sin.f64) or a function the code calls by symbol ("sinf", "__nv_sin"). */
typedef enum KnMathKind {
    KN_MATH_NONE,      /* the target has no such function */
    KN_MATH_INTRINSIC, /* buf holds the intrinsic's name without its type suffix */
    KN_MATH_EXTERN,    /* buf holds the symbol */
} KnMathKind;

typedef enum KnEmitKind {
    KN_EMIT_ASSEMBLY, /* text: x86 or AArch64 assembly, PTX for NVPTX */
    KN_EMIT_OBJECT,   /* a relocatable object */
} KnEmitKind;

/* The functions lowering makes for an overload (lower/lower.h). */
typedef enum KnEntryRole {
    KN_ENTRY_NATIVE,  /* the function itself, which other compiled code calls */
    KN_ENTRY_WRAPPER, /* the uniform entry status = wrapper(ret, excinfo, argbuf) */
} KnEntryRole;

struct KnTarget {
    const char *name; /* its line in targets.def ("cpu") */
    /* identity, set by the constructor (malloc'ed, freed by kn_target_destroy) */
    char *triple;     /* the module's target triple */
    char *cpu;        /* the CPU name the target machine is made for */
    char *features;   /* its feature string ("+avx2,-avx512f,...") */
    char *datalayout; /* the module's data layout, as the target machine gives it */

    /* entry ABI: the decisions lowering asks of the target (lower/lower.c, lower/emit.c) */
    int host_wrapper;    /* build the uniform wrapper that the dispatcher calls from Python */
    int interrupt_polls; /* loops (and recursive entries) poll kn_rt_interrupt_flag: Ctrl-C */
    int stack_checks;    /* a function in a recursion cycle compares its frame address with a
                          * stack limit from kn_rt_stack_limit: RecursionError */
    /* Called on each function lowering makes, after its declaration: a calling convention,
     * attributes or metadata of the target's own (a GPU kernel's entry). NULL: nothing. */
    void (*mark_entry)(const KnTarget *t, LLVMValueRef fn, KnEntryRole role);

    /* Math naming: the function that computes C99 libm's `name` (the double version's name:
     * "sin", "atan2", "ldexp") on `bits`-bit floats (32 or 64), written into buf. */
    KnMathKind (*math_symbol)(const KnTarget *t, const char *name, int bits, char *buf,
                              size_t size);

    /* A new target machine for the identity above (the JIT consumes one, the optimizer and
     * the assembly text use another); NULL with *err set (malloc'ed). */
    LLVMTargetMachineRef (*create_machine)(const KnTarget *t, char **err);
    /* The new pass manager's pipeline for an optimization level ("default<O3>"). */
    void (*pass_pipeline)(const KnTarget *t, int level, char *buf, size_t size);
    /* Rewrites of the target's own after the pipeline (x86's conversions); how many. */
    int (*after_optimize)(const KnTarget *t, LLVMModuleRef m);
    /* The module (which code generation may change: give it a clone) as assembly or an object
     * in *out (malloc'ed, NUL-terminated, *size bytes before the NUL); -1 with *err set. */
    int (*emit)(const KnTarget *t, LLVMTargetMachineRef tm, LLVMModuleRef m, KnEmitKind kind,
                char **out, size_t *size, char **err);
};

/* The target named `name` (a line of targets.def), made for this process; NULL with *err set
 * (malloc'ed) if there is no such target or it cannot be made. */
KnTarget *kn_target_create(const char *name, char **err);
void kn_target_destroy(KnTarget *t);

/* The constructors, one per line of targets.def. */
#define KN_TARGET(name, constructor) KnTarget *constructor(char **err);
#include "targets/targets.def"
#undef KN_TARGET

#endif
