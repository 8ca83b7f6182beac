/* recurse.c - unrolling self-recursion before O3.
 *
 * LLVM's inliner never inlines a function into itself, so a recursive kernel such as fib pays a
 * call for every level, while gcc inlines the recursion into itself several levels deep (bench/:
 * kiln's fib was 1.8x gcc's). Before O3, a small function that calls itself directly gets
 * `copies` internal clones chained in a ring: f calls f.rec1, f.rec1 calls f.rec2, ..., and the
 * last calls f again. The clones are not self-recursive, so the inliner folds the ring back into
 * f (and tail-recursion elimination still sees f's own calls), which unrolls the recursion the
 * way gcc does; what is left of the clones is dropped as dead internal code.
 *
 * The C API has no function cloning, so clone() copies instruction by instruction: each
 * instruction is duplicated with LLVMInstructionClone (phis are rebuilt, since their incoming
 * blocks are not operands), and a second walk maps the operands - arguments, instructions,
 * blocks, and f itself, which becomes the next function of the ring. */
#include "jit/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

enum { KN_RECURSION_MAX_INSTS = 400 };

typedef struct Clone {
    KnMap map; /* old value -> new value */
    LLVMBuilderRef b;
} Clone;

static LLVMValueRef
mapped(Clone *c, LLVMValueRef v)
{
    LLVMValueRef n = kn_map_get(&c->map, (uint64_t)(uintptr_t)v);
    return n ? n : v;
}

static int
count_and_find_self_call(LLVMValueRef f, int *n_insts)
{
    int self = 0, n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            n++;
            if (LLVMGetInstructionOpcode(i) == LLVMCall && LLVMGetCalledValue(i) == f)
                self = 1;
        }
    *n_insts = n;
    return self;
}

static void
copy_attributes(LLVMValueRef from, LLVMValueRef to)
{
    unsigned nparams = LLVMCountParams(from);
    for (long idx = -1; idx <= (long)nparams; idx++) {
        LLVMAttributeIndex ai = (LLVMAttributeIndex)idx;
        unsigned n = LLVMGetAttributeCountAtIndex(from, ai);
        if (!n)
            continue;
        LLVMAttributeRef *attrs = malloc(n * sizeof *attrs);
        LLVMGetAttributesAtIndex(from, ai, attrs);
        for (unsigned k = 0; k < n; k++)
            LLVMAddAttributeAtIndex(to, ai, attrs[k]);
        free(attrs);
    }
}

static int
is_stack_probe(LLVMValueRef i)
{
    if (LLVMGetInstructionOpcode(i) != LLVMCall)
        return 0;
    LLVMValueRef callee = LLVMGetCalledValue(i);
    size_t len;
    const char *name = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
    return !strncmp(name, "llvm.frameaddress", 17);
}

/* Copy every block and instruction of f into g, unmapped; phis are created empty. */
static void
copy_body(Clone *c, LLVMValueRef f, LLVMValueRef g)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(ctx, g, "");
        kn_map_put(&c->map, (uint64_t)(uintptr_t)LLVMBasicBlockAsValue(bb),
                   LLVMBasicBlockAsValue(nb));
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMBasicBlockRef nb = LLVMValueAsBasicBlock(mapped(c, LLVMBasicBlockAsValue(bb)));
        LLVMPositionBuilderAtEnd(c->b, nb);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef n;
            if (is_stack_probe(i)) {
                /* the recursion guard's frame address: the highest address in a clone, so
                 * its check folds away (the guard runs in f, every other level) */
                LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
                kn_map_put(&c->map, (uint64_t)(uintptr_t)i,
                           LLVMConstIntToPtr(LLVMConstAllOnes(i64), LLVMTypeOf(i)));
                continue;
            }
            if (LLVMGetInstructionOpcode(i) == LLVMPHI) {
                n = LLVMBuildPhi(c->b, LLVMTypeOf(i), "");
            } else {
                n = LLVMInstructionClone(i);
                LLVMInsertIntoBuilder(c->b, n);
            }
            kn_map_put(&c->map, (uint64_t)(uintptr_t)i, n);
        }
    }
}

/* Point g's operands (and phi incomings) at g's own values. */
static void
remap_body(Clone *c, LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (is_stack_probe(i))
                continue; /* became a constant */
            LLVMValueRef n = mapped(c, i);
            if (LLVMGetInstructionOpcode(i) == LLVMPHI) {
                unsigned k = LLVMCountIncoming(i);
                for (unsigned e = 0; e < k; e++) {
                    LLVMValueRef v = mapped(c, LLVMGetIncomingValue(i, e));
                    LLVMBasicBlockRef from = LLVMValueAsBasicBlock(
                        mapped(c, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(i, e))));
                    LLVMAddIncoming(n, &v, &from, 1);
                }
                continue;
            }
            int nops = LLVMGetNumOperands(n);
            for (int k = 0; k < nops; k++) {
                LLVMValueRef op = LLVMGetOperand(n, (unsigned)k);
                LLVMValueRef to = mapped(c, op);
                if (to != op)
                    LLVMSetOperand(n, (unsigned)k, to);
            }
        }
}

/* A copy of f named `name` whose calls to f go to `next`. */
static LLVMValueRef
clone(LLVMModuleRef m, LLVMValueRef f, const char *name, LLVMValueRef next)
{
    LLVMValueRef g = LLVMAddFunction(m, name, LLVMGlobalGetValueType(f));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetFunctionCallConv(g, LLVMGetFunctionCallConv(f));
    copy_attributes(f, g);
    Clone c;
    kn_map_init(&c.map);
    c.b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (unsigned k = 0; k < LLVMCountParams(f); k++)
        kn_map_put(&c.map, (uint64_t)(uintptr_t)LLVMGetParam(f, k), LLVMGetParam(g, k));
    kn_map_put(&c.map, (uint64_t)(uintptr_t)f, next);
    copy_body(&c, f, g);
    remap_body(&c, f);
    LLVMDisposeBuilder(c.b);
    kn_map_fini(&c.map);
    return g;
}

/* Build the ring f -> rec1 -> ... -> rec<copies> -> f. The clones are made back to front so
 * that each one's successor exists; f's own self-calls are redirected last. */
static void
unroll(LLVMModuleRef m, LLVMValueRef f, int copies)
{
    size_t len;
    const char *base = LLVMGetValueName2(f, &len);
    char name[256];
    LLVMValueRef next = f;
    for (int k = copies; k >= 1; k--) {
        snprintf(name, sizeof name, "%.*s.rec%d", (int)(len < 200 ? len : 200), base, k);
        next = clone(m, f, name, next);
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMCall && LLVMGetCalledValue(i) == f)
                LLVMSetOperand(i, (unsigned)LLVMGetNumOperands(i) - 1, next);
}

int
kn_jit_unroll_recursion(LLVMModuleRef m, int copies)
{
    if (copies <= 0)
        return 0;
    int n = 0;
    LLVMValueRef fs[8];
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && n < 8; f = LLVMGetNextFunction(f)) {
        int insts;
        if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) == LLVMAvailableExternallyLinkage)
            continue;
        if (count_and_find_self_call(f, &insts) && insts <= KN_RECURSION_MAX_INSTS)
            fs[n++] = f;
    }
    for (int k = 0; k < n; k++)
        unroll(m, fs[k], copies);
    return n;
}
