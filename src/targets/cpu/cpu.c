/* cpu.c - the CPU target: the host kiln runs on, with code run in-process by ORC's LLJIT
 * (jit/jit.c). Identity: LLVM's default triple, the host CPU name and features (KILN_CPU and
 * KILN_FEATURES override them, read once when the target is made) and the data layout of a
 * target machine made for them. Target machines: CodeGenLevelAggressive, PIC with the default
 * (small) code model, so libm is called through the PLT (LLVM19-NOTES G3). Optimizer:
 * "default<O<level>>", then, on x86-64, the conversions rewrite (convert.c; KILN_KEEP_CONVERSIONS
 * turns it off). Math: sqrt, fabs, sin, cos, exp, exp2, log, log2, log10, pow, copysign, ceil,
 * floor, trunc and rint are LLVM intrinsics (which the optimizer folds and vectorizes and code
 * generation turns into libm calls or instructions), every other function is libm's symbol, with
 * C99's "f" suffix for float32. Entry ABI: the uniform wrapper, Ctrl-C polls and stack checks
 * (kiln's runtime is in the same process), no attributes of its own. */
#include "targets/cpu/internal.h"

#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
dup_llvm(char *s)
{
    char *r = strdup(s ? s : "");
    LLVMDisposeMessage(s);
    return r;
}

static LLVMTargetMachineRef
cpu_create_machine(const KnTarget *t, char **err)
{
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(t->triple, &target, &msg)) {
        *err = dup_llvm(msg);
        return NULL;
    }
    return LLVMCreateTargetMachine(target, t->triple, t->cpu, t->features,
                                   LLVMCodeGenLevelAggressive, LLVMRelocPIC, LLVMCodeModelDefault);
}

static void
cpu_pass_pipeline(const KnTarget *t, int level, char *buf, size_t size)
{
    KN_UNUSED(t);
    snprintf(buf, size, "default<O%d>", level);
}

static int
cpu_after_optimize(const KnTarget *t, LLVMModuleRef m)
{
    if (strncmp(t->triple, "x86_64", 6) != 0 || getenv("KILN_KEEP_CONVERSIONS"))
        return 0;
    return kn_target_cpu_fix_conversions(m, strstr(t->features, "+avx512dq") &&
                                                strstr(t->features, "+avx512vl"));
}

static KnMathKind
cpu_math_symbol(const KnTarget *t, const char *name, int bits, char *buf, size_t size)
{
    static const char *const intrinsics[] = {"sqrt", "fabs",  "sin",      "cos",   "exp",
                                             "exp2", "log",   "log2",     "log10", "pow",
                                             "ceil", "floor", "copysign", "trunc", "rint"};
    KN_UNUSED(t);
    if (bits != 32 && bits != 64)
        return KN_MATH_NONE;
    for (int i = 0; i < KN_ARRAY_LEN(intrinsics); i++)
        if (strcmp(name, intrinsics[i]) == 0) {
            snprintf(buf, size, "llvm.%s", name);
            return KN_MATH_INTRINSIC;
        }
    snprintf(buf, size, "%s%s", name, bits == 32 ? "f" : "");
    return KN_MATH_EXTERN;
}

static int
cpu_emit(const KnTarget *t, LLVMTargetMachineRef tm, LLVMModuleRef m, KnEmitKind kind, char **out,
         size_t *size, char **err)
{
    KN_UNUSED(t);
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    LLVMCodeGenFileType type = kind == KN_EMIT_OBJECT ? LLVMObjectFile : LLVMAssemblyFile;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, type, &msg, &buf)) {
        *err = strdup(msg                      ? msg
                      : kind == KN_EMIT_OBJECT ? "cannot emit an object"
                                               : "cannot emit assembly");
        LLVMDisposeMessage(msg);
        return -1;
    }
    *size = LLVMGetBufferSize(buf);
    *out = malloc(*size + 1);
    memcpy(*out, LLVMGetBufferStart(buf), *size);
    (*out)[*size] = '\0';
    LLVMDisposeMemoryBuffer(buf);
    return 0;
}

/* The data layout of a machine made for the identity. */
static char *
machine_datalayout(const KnTarget *t, char **err)
{
    LLVMTargetMachineRef tm = cpu_create_machine(t, err);
    if (!tm)
        return NULL;
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *r = dup_llvm(LLVMCopyStringRepOfTargetData(td));
    LLVMDisposeTargetData(td);
    LLVMDisposeTargetMachine(tm);
    return r;
}

KnTarget *
kn_target_cpu_new(char **err)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    KnTarget *t = calloc(1, sizeof(KnTarget));
    const char *cpu = getenv("KILN_CPU"), *feat = getenv("KILN_FEATURES");
    t->name = "cpu";
    t->triple = dup_llvm(LLVMGetDefaultTargetTriple());
    t->cpu = cpu ? strdup(cpu) : dup_llvm(LLVMGetHostCPUName());
    t->features = feat ? strdup(feat) : dup_llvm(LLVMGetHostCPUFeatures());
    t->host_wrapper = 1;
    t->interrupt_polls = 1;
    t->stack_checks = 1;
    t->mark_entry = NULL;
    t->math_symbol = cpu_math_symbol;
    t->create_machine = cpu_create_machine;
    t->pass_pipeline = cpu_pass_pipeline;
    t->after_optimize = cpu_after_optimize;
    t->emit = cpu_emit;
    t->datalayout = machine_datalayout(t, err);
    if (!t->datalayout) {
        kn_target_destroy(t);
        return NULL;
    }
    return t;
}
