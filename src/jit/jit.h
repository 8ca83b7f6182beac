/* jit.h - the process's one LLJIT and the host target machine: optimizing modules with the new
 * pass manager, adding them under a resource tracker (one per overload, so freeing a dispatcher
 * frees its code), looking up symbols, and printing assembly for inspect_asm. */
#ifndef KN_JIT_H
#define KN_JIT_H

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "base/context.h"
#include "ir/kir.h"
#include "types/types.h"

typedef struct KnJitSymbol {
    const char *name;
    void *addr;
} KnJitSymbol;

struct KnJit {
    LLVMOrcLLJITRef lljit;
    LLVMTargetMachineRef tm; /* for passes and assembly (the JIT owns its own) */
    char *triple, *cpu, *features, *datalayout;
    char error[512]; /* the last error reported by ORC's session */
};

/* Create the JIT for the host (KILN_CPU / KILN_FEATURES override); NULL with *err set. */
KnJit *kn_jit_create(char **err);
void kn_jit_destroy(KnJit *j);
int kn_jit_define_symbols(KnJit *j, const KnJitSymbol *syms, int n, char **err);

/* Optimize (O3 or the level given) in place. */
int kn_jit_optimize(KnJit *j, LLVMModuleRef m, int level, char **err);
/* Before O3: each small function that calls itself directly gets `copies` clones chained in a
 * ring, so the inliner unrolls the recursion (recurse.c). Returns how many were unrolled. */
enum { KN_RECURSION_COPIES = 1 };
int kn_jit_unroll_recursion(LLVMModuleRef m, int copies);
/* After O3 on x86-64: int -> double conversions in blocks with calls become an exact sequence
 * with no false dependency on a register the callee wrote (convert.c). Returns how many. */
int kn_jit_fix_conversions(LLVMModuleRef m, int avx512dq);
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

/* The module as bitcode (malloc'ed), to inline its functions into later callers. */
void kn_jit_bitcode(LLVMModuleRef m, void **out, size_t *size);
/* Link a callee's bitcode into m with every definition available_externally: LLVM can inline
 * them, and nothing is emitted twice (the JIT still resolves the symbols). */
void kn_jit_link_for_inlining(LLVMModuleRef m, const void *bitcode, size_t size);

#endif
