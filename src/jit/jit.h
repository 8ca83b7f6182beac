/* jit.h - the process's one LLJIT for the CPU target (targets/target.h) and its target machine:
 * optimizing modules with the new pass manager, adding them under a resource tracker (one per
 * overload, so freeing a dispatcher frees its code), looking up symbols, and printing assembly
 * for inspect_asm. */
#ifndef KN_JIT_H
#define KN_JIT_H

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "base/context.h"
#include "ir/kir.h"
#include "targets/target.h"
#include "types/types.h"

typedef struct KnJitSymbol {
    const char *name;
    void *addr;
} KnJitSymbol;

struct KnJit {
    LLVMOrcLLJITRef lljit;
    KnTarget *target;        /* the host: "cpu" (owned; compilations borrow it) */
    LLVMTargetMachineRef tm; /* for passes and assembly (the JIT owns its own) */
    char error[512];         /* the last error reported by ORC's session */
};

/* Create the JIT for the host, the "cpu" target (KILN_CPU / KILN_FEATURES override its CPU);
 * NULL with *err set. */
KnJit *kn_jit_create(char **err);
void kn_jit_destroy(KnJit *j);
const char *kn_jit_llvm_version(void); /* the LLVM kiln was built with, e.g. "19.1.7" */
int kn_jit_define_symbols(KnJit *j, const KnJitSymbol *syms, int n, char **err);

/* Optimize (O3 or the level given) in place: the target's pipeline and its own rewrites. */
int kn_jit_optimize(KnJit *j, LLVMModuleRef m, int level, char **err);
/* Before O3: each small function that calls itself directly gets `copies` clones chained in a
 * ring, so the inliner unrolls the recursion (recurse.c). Returns how many were unrolled. */
enum { KN_RECURSION_COPIES = 1 };
int kn_jit_unroll_recursion(LLVMModuleRef m, int copies);
/* After O3, before codegen: blocks of more than KN_SPLIT_BLOCK instructions are cut into
 * pieces of KN_SPLIT_PIECE joined by an opaque branch, since LLVM's TwoAddressInstruction pass
 * is quadratic in a block's size (split.c). Returns how many cuts. */
enum { KN_SPLIT_BLOCK = 1000, KN_SPLIT_PIECE = 500 };
int kn_jit_split_blocks(LLVMModuleRef m);
/* Assembly text of a module (codegen works on a clone). Free with free(). */
char *kn_jit_asm(KnJit *j, LLVMModuleRef m);
/* Add the module (consumed, with its context) under a new resource tracker. */
int kn_jit_add(KnJit *j, LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef m,
               LLVMOrcResourceTrackerRef *rt, char **err);
void *kn_jit_lookup(KnJit *j, const char *name, char **err);
void kn_jit_remove(LLVMOrcResourceTrackerRef rt);

/* KN_SIDE_TEXT: the stages as text, kept when c->want_text (malloc, freed by kn_jit_fini_products).
 */
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
                    * sets this to NULL, else kn_jit_fini_products frees it) */
    size_t bitcode_size;
} KnCode;

/* KN_SIDE_LLVM: one compilation's module between lowering and the JIT, and its context. */
typedef struct KnLlvmProduct {
    LLVMModuleRef module;
    LLVMOrcThreadSafeContextRef tsc;
} KnLlvmProduct;

/* The pipeline's LLVM passes (module.c): 0, or -1 with a diagnostic. */
int kn_jit_pass_lower(KnCompilation *c);    /* lower c->fn into a module of its own context */
int kn_jit_pass_optimize(KnCompilation *c); /* link callees, O3, bitcode, cut blocks, texts */
int kn_jit_pass_add(KnCompilation *c);      /* add the module to the JIT (not when text_only) */
KnTexts *kn_jit_texts(KnCompilation *c);    /* KN_SIDE_TEXT, made when first asked for */
/* Free what the compilation's products hold outside the arena (a module left over, bitcode
 * nobody took, the texts). */
void kn_jit_fini_products(KnCompilation *c);

/* The module as bitcode (malloc'ed), to inline its functions into later callers. */
/* the module's bitcode for inlining into callers: only a small one, unless `always` */
void kn_jit_bitcode(LLVMModuleRef m, void **out, size_t *size, int always);
/* Link a callee's bitcode into m with every definition available_externally: LLVM can inline
 * them, and nothing is emitted twice (the JIT still resolves the symbols). */
void kn_jit_link_for_inlining(LLVMModuleRef m, const void *bitcode, size_t size);

#endif
