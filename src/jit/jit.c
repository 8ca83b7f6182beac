/* jit.c - LLVM ORC LLJIT for the host, following the recipe in LLVM19-NOTES.md: the CPU target
 * (targets/cpu/cpu.c) gives the triple, the CPU name and features, the data layout and the
 * target machines (one for the JIT, one kept for running passes and printing assembly, since
 * building the JIT consumes the TM it is given), the optimizer pipeline and the assembly; this
 * file adds process symbols for libm, and kiln's runtime helpers defined as absolute symbols.
 * Compilation is serialized by the dispatcher's compile lock, so one JIT and one TM are safe. */
#include "jit/jit.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/Linker.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Support.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
kn_jit_llvm_version(void)
{
    return LLVM_VERSION_STRING;
}

static char *
take_error(LLVMErrorRef e)
{
    char *m = LLVMGetErrorMessage(e);
    char *r = strdup(m ? m : "unknown LLVM error");
    LLVMDisposeErrorMessage(m);
    return r;
}

static void
report_error(void *ctx, LLVMErrorRef e)
{
    KnJit *j = ctx;
    char *m = take_error(e);
    snprintf(j->error, sizeof j->error, "%s", m);
    free(m);
}

KnJit *
kn_jit_create(char **err)
{
    /* In-order (strict) float reductions may be vectorized: the loop body runs in vector lanes
     * and the sum is still added up element by element, as gcc does; x86's cost model leaves
     * this off, and the n-body kernel was 1.3x gcc without it. KILN_LLVM_ARGS adds one more
     * LLVM option, for experiments. */
    const char *argv[3] = {"kiln", "-force-ordered-reductions=1", getenv("KILN_LLVM_ARGS")};
    if (getenv("KILN_NO_ORDERED_REDUCTIONS"))
        argv[1] = "-force-ordered-reductions=0";
    LLVMParseCommandLineOptions(argv[2] ? 3 : 2, argv, NULL);
    KnJit *j = calloc(1, sizeof(KnJit));
    j->target = kn_target_create("cpu", err);
    j->tm = j->target ? j->target->create_machine(j->target, err) : NULL;
    LLVMTargetMachineRef jit_tm = j->tm ? j->target->create_machine(j->target, err) : NULL;
    if (!jit_tm) {
        kn_jit_destroy(j);
        return NULL;
    }
    LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jit_tm));
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->lljit, b);
    if (e) {
        *err = take_error(e);
        j->lljit = NULL;
        kn_jit_destroy(j);
        return NULL;
    }
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(j->lljit), report_error,
                                            j);
    return j;
}

void
kn_jit_destroy(KnJit *j)
{
    if (!j)
        return;
    if (j->lljit)
        LLVMOrcDisposeLLJIT(j->lljit);
    if (j->tm)
        LLVMDisposeTargetMachine(j->tm);
    kn_target_destroy(j->target);
    free(j);
}

int
kn_jit_define_symbols(KnJit *j, const KnJitSymbol *syms, int n, char **err)
{
    LLVMOrcCSymbolMapPair *pairs = calloc((size_t)n, sizeof(LLVMOrcCSymbolMapPair));
    for (int i = 0; i < n; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(j->lljit, syms[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)syms[i].addr;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, (size_t)n);
    free(pairs);
    LLVMErrorRef e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j->lljit), mu);
    if (e) {
        LLVMOrcDisposeMaterializationUnit(mu);
        *err = take_error(e);
        return -1;
    }
    return 0;
}

int
kn_jit_optimize(KnJit *j, LLVMModuleRef m, int level, char **err)
{
    char pipeline[32];
    j->target->pass_pipeline(j->target, level, pipeline, sizeof pipeline);
    const char *copies = getenv("KILN_RECURSION_UNROLL");
    kn_jit_unroll_recursion(m, copies ? atoi(copies) : KN_RECURSION_COPIES);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, pipeline, j->tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (e) {
        *err = take_error(e);
        return -1;
    }
    j->target->after_optimize(j->target, m);
    return 0;
}

char *
kn_jit_asm(KnJit *j, LLVMModuleRef m)
{
    LLVMModuleRef clone = LLVMCloneModule(m); /* codegen mutates the module (G4) */
    char *r = NULL, *err = NULL;
    size_t n;
    if (j->target->emit(j->target, j->tm, clone, KN_EMIT_ASSEMBLY, &r, &n, &err) < 0)
        r = err;
    LLVMDisposeModule(clone);
    return r;
}

int
kn_jit_add(KnJit *j, LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef m,
           LLVMOrcResourceTrackerRef *rt, char **err)
{
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->lljit);
    *rt = LLVMOrcJITDylibCreateResourceTracker(jd);
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
    LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModuleWithRT(j->lljit, *rt, tsm);
    if (e) {
        *err = take_error(e);
        LLVMOrcReleaseResourceTracker(*rt);
        *rt = NULL;
        return -1;
    }
    return 0;
}

void *
kn_jit_lookup(KnJit *j, const char *name, char **err)
{
    LLVMOrcExecutorAddress addr = 0;
    j->error[0] = '\0';
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->lljit, &addr, name);
    if (e) {
        *err = take_error(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

void
kn_jit_remove(LLVMOrcResourceTrackerRef rt)
{
    if (!rt)
        return;
    LLVMErrorRef e = LLVMOrcResourceTrackerRemove(rt);
    if (e)
        LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(rt);
}

/* ---- bitcode for cross-module inlining ---- */

void
kn_jit_bitcode(LLVMModuleRef m, void **out, size_t *size, int always)
{
    *out = NULL;
    *size = 0;
    /* only small functions are worth inlining elsewhere */
    size_t ninstr = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                ninstr++;
    if (ninstr > 400 && !always)
        return;
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!buf)
        return;
    *size = LLVMGetBufferSize(buf);
    *out = malloc(*size);
    if (*out)
        memcpy(*out, LLVMGetBufferStart(buf), *size);
    else
        *size = 0;
    LLVMDisposeMemoryBuffer(buf);
}

void
kn_jit_link_for_inlining(LLVMModuleRef m, const void *bitcode, size_t size)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcode, size, "kn_callee");
    LLVMModuleRef callee = NULL;
    if (LLVMParseBitcodeInContext2(ctx, buf, &callee)) {
        LLVMDisposeMemoryBuffer(buf);
        return;
    }
    LLVMDisposeMemoryBuffer(buf);
    for (LLVMValueRef f = LLVMGetFirstFunction(callee); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        LLVMLinkage link = LLVMGetLinkage(f);
        if (link == LLVMExternalLinkage)
            LLVMSetLinkage(f, LLVMAvailableExternallyLinkage);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(callee); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
            LLVMSetLinkage(g, LLVMAvailableExternallyLinkage);
    LLVMLinkModules2(m, callee); /* consumes callee */
}
