/* convert.c - integer-to-float conversions next to calls, rewritten after O3 (the CPU target's
 * after_optimize hook, on x86-64).
 *
 * x86's cvtsi2sd writes only the low lane of its destination and so reads the register it
 * merges into. LLVM's BreakFalseDeps pass picks that register by "clearance", but its reaching-
 * definition analysis does not count a call's register-mask clobbers as definitions: in a loop
 * that calls libm (`s += math.sin(i * h)`) it merges into a register that the callee wrote last,
 * so every iteration waits for the previous call to finish, and the loop runs 2.6x slower than
 * gcc's or Numba's (measured in bench/, "sqrt(x)*sin(x) sum"). In blocks that contain a real
 * call, this pass replaces sitofp/uitofp from i32/i64 to double by a conversion that writes a
 * whole register: a one-lane vector conversion (vcvtdq2pd for i32, and vcvtqq2pd/vcvtuqq2pd for
 * i64 when the CPU has AVX-512 DQ and VL), or else the exact bit-pattern sequence compilers use
 * for u64 -> f64 without AVX-512: the integer's halves are or-ed into the mantissas of 2^52 and
 * 2^84, moved whole into vector registers, and combined with one exact subtraction and one
 * rounding addition. Every form is bit-identical to the plain conversion in the default
 * rounding mode. Elsewhere (no call in the block) nothing changes, so vectorized loops keep
 * their own conversions. */
#include "targets/cpu/internal.h"

#include <stdint.h>
#include <string.h>

/* Intrinsics that codegen turns into libm calls (llvm.sin.f64 -> sin, ...), matched up to the
 * type suffix so that llvm.experimental.* is not taken for llvm.exp. */
static int
is_libcall_intrinsic(LLVMValueRef callee)
{
    static const char *const prefixes[] = {
        "llvm.sin.",   "llvm.cos.",  "llvm.tan.",  "llvm.asin.",  "llvm.acos.", "llvm.atan.",
        "llvm.atan2.", "llvm.sinh.", "llvm.cosh.", "llvm.tanh.",  "llvm.exp.",  "llvm.exp2.",
        "llvm.exp10.", "llvm.log.",  "llvm.log2.", "llvm.log10.", "llvm.pow.",  "llvm.powi."};
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
        if (strncmp(name, prefixes[k], strlen(prefixes[k])) == 0)
            return 1;
    return 0;
}

static int
is_real_call(LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (op == LLVMFRem)
        return 1; /* fmod */
    if (op != LLVMCall)
        return 0;
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    if (LLVMIsAInlineAsm(callee))
        return 0;
    if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0)
        return is_libcall_intrinsic(callee);
    return 1;
}

static int
block_has_call(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (is_real_call(i))
            return 1;
    return 0;
}

static LLVMValueRef
as_double(LLVMBuilderRef b, LLVMValueRef bits)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(bits));
    return LLVMBuildBitCast(b, bits, LLVMDoubleTypeInContext(ctx), "");
}

static LLVMValueRef
f64_const(LLVMContextRef ctx, uint64_t bits)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    return LLVMConstBitCast(LLVMConstInt(i64, bits, 0), LLVMDoubleTypeInContext(ctx));
}

/* (double)x for an i32: 2^52 + (x biased to unsigned) minus the bias, exact. */
static LLVMValueRef
convert_i32(LLVMBuilderRef b, LLVMValueRef x, int is_signed)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(x));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    if (is_signed)
        x = LLVMBuildXor(b, x, LLVMConstInt(i32, 0x80000000u, 0), "");
    LLVMValueRef bits = LLVMBuildZExt(b, x, i64, "");
    bits = LLVMBuildOr(b, bits, LLVMConstInt(i64, 0x4330000000000000ull, 0), "");
    /* 2^52 (+ 2^31 when the input was biased) */
    uint64_t bias = is_signed ? 0x4330000080000000ull : 0x4330000000000000ull;
    return LLVMBuildFSub(b, as_double(b, bits), f64_const(ctx, bias), "");
}

/* (double)x for an i64: hi*2^32 and lo exactly as doubles, one rounding in the final add. */
static LLVMValueRef
convert_i64(LLVMBuilderRef b, LLVMValueRef x, int is_signed)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(x));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMValueRef lo = LLVMBuildAnd(b, x, LLVMConstInt(i64, 0xFFFFFFFFull, 0), "");
    lo = LLVMBuildOr(b, lo, LLVMConstInt(i64, 0x4330000000000000ull, 0), "");
    LLVMValueRef hi = LLVMBuildLShr(b, x, LLVMConstInt(i64, 32, 0), "");
    if (is_signed)
        hi = LLVMBuildXor(b, hi, LLVMConstInt(i64, 0x80000000u, 0), "");
    hi = LLVMBuildOr(b, hi, LLVMConstInt(i64, 0x4530000000000000ull, 0), "");
    /* 2^84 + 2^52, plus 2^63 for the signed bias */
    uint64_t bias = is_signed ? 0x4530000080100000ull : 0x4530000000100000ull;
    LLVMValueRef high = LLVMBuildFSub(b, as_double(b, hi), f64_const(ctx, bias), "");
    return LLVMBuildFAdd(b, high, as_double(b, lo), "");
}

/* (double)x through a one-lane vector conversion: vcvtdq2pd (any x86-64) or, with AVX-512 DQ
 * and VL, vcvtqq2pd / vcvtuqq2pd. These write the whole register, so there is nothing to merge. */
static LLVMValueRef
convert_vector(LLVMBuilderRef b, LLVMValueRef x, int lanes, int is_signed)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(x));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef vin = LLVMVectorType(LLVMTypeOf(x), (unsigned)lanes);
    LLVMTypeRef vout = LLVMVectorType(LLVMDoubleTypeInContext(ctx), (unsigned)lanes);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
    LLVMValueRef v = LLVMBuildInsertElement(b, LLVMGetPoison(vin), x, zero, "");
    v = is_signed ? LLVMBuildSIToFP(b, v, vout, "") : LLVMBuildUIToFP(b, v, vout, "");
    return LLVMBuildExtractElement(b, v, zero, "");
}

static int
rewrite(LLVMBuilderRef b, LLVMValueRef inst, int avx512dq)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (op != LLVMSIToFP && op != LLVMUIToFP)
        return 0;
    LLVMTypeRef to = LLVMTypeOf(inst);
    LLVMValueRef x = LLVMGetOperand(inst, 0);
    LLVMTypeRef from = LLVMTypeOf(x);
    if (LLVMGetTypeKind(to) != LLVMDoubleTypeKind || LLVMGetTypeKind(from) != LLVMIntegerTypeKind)
        return 0;
    unsigned width = LLVMGetIntTypeWidth(from);
    if (width != 32 && width != 64)
        return 0;
    int is_signed = op == LLVMSIToFP;
    LLVMPositionBuilderBefore(b, inst);
    LLVMValueRef r;
    if (width == 32 && is_signed)
        r = convert_vector(b, x, 4, 1);
    else if (avx512dq)
        r = convert_vector(b, x, 2, is_signed);
    else
        r = width == 32 ? convert_i32(b, x, 0) : convert_i64(b, x, is_signed);
    LLVMReplaceAllUsesWith(inst, r);
    LLVMInstructionEraseFromParent(inst);
    return 1;
}

int
kn_target_cpu_fix_conversions(LLVMModuleRef m, int avx512dq)
{
    int n = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
            if (!block_has_call(bb))
                continue;
            LLVMValueRef i = LLVMGetFirstInstruction(bb);
            while (i) {
                LLVMValueRef next = LLVMGetNextInstruction(i);
                n += rewrite(b, i, avx512dq);
                i = next;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return n;
}
