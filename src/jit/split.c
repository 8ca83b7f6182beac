/* split.c - huge basic blocks cut into pieces before code generation.
 *
 * LLVM 19's TwoAddressInstruction pass keeps, per machine basic block, a map of the copies it
 * has seen, and scans the whole map at every instruction that defines a physical register (on
 * x86 that is nearly every ALU instruction: they define EFLAGS). Its cost is quadratic in the
 * size of a block. A straight-line function of 4,000 `x = (x*k + y) % 1000003` lines is one
 * block of ~24,000 IR instructions after O3 and spent 1.8 s of its 4 s of code generation there
 * (removeMapRegEntry, measured with perf and llc -time-passes). The optimizer merges any block
 * boundary kiln could make before O3, so this runs after it, on the module that codegen gets.
 *
 * A block of more than KN_SPLIT_BLOCK instructions becomes a chain of pieces of KN_SPLIT_PIECE
 * instructions. Each piece ends with a branch on a volatile load of a private byte that is
 * always 0, to the next piece or to a block that stores 0 back (volatile) and joins it: nothing
 * downstream can prove the branch dead or merge the pieces again (CodeGenPrepare and the
 * machine passes keep them), and it costs one load, compare and untaken branch per 500
 * instructions. The module's bitcode for inlining is taken before this (compile.c), so callers
 * never see the pieces. Instructions keep their order; only phis stay at the top of the first
 * piece. Blocks up to KN_SPLIT_BLOCK instructions, so ordinary functions, do not change. */
#include "jit/jit.h"

#include <stdlib.h>

static LLVMValueRef
flag_of(LLVMModuleRef m)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, "kn_split_flag");
    if (g)
        return g;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetModuleContext(m));
    g = LLVMAddGlobal(m, i8, "kn_split_flag");
    LLVMSetInitializer(g, LLVMConstInt(i8, 0, 0));
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

static int
block_size(LLVMBasicBlockRef b)
{
    int n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        n++;
    return n;
}

/* Every branch to `from` now goes to `to` (the users of a block are the terminators that name
 * it; phis list their blocks apart, and blockaddress is not used by kiln). */
static void
retarget(LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    LLVMValueRef bv = LLVMBasicBlockAsValue(from);
    int n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(bv); u; u = LLVMGetNextUse(u))
        n++;
    LLVMValueRef *users = malloc(sizeof(LLVMValueRef) * (size_t)(n ? n : 1));
    n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(bv); u; u = LLVMGetNextUse(u))
        users[n++] = LLVMGetUser(u);
    for (int k = 0; k < n; k++) {
        if (!LLVMIsATerminatorInst(users[k]))
            continue;
        unsigned ns = LLVMGetNumSuccessors(users[k]);
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(users[k], s) == from)
                LLVMSetSuccessor(users[k], s, to);
    }
    free(users);
}

/* Can `b` be cut: its users are all branches (a blockaddress would be broken by retarget)? */
static int
only_branches_reach(LLVMBasicBlockRef b)
{
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(b)); u; u = LLVMGetNextUse(u))
        if (!LLVMIsATerminatorInst(LLVMGetUser(u)))
            return 0;
    return 1;
}

/* Moves b's phis and its first `count` other instructions into a new block before it, which
 * ends with the opaque branch to b. */
static void
cut_head(LLVMBuilderRef bld, LLVMValueRef fn, LLVMBasicBlockRef b, LLVMValueRef flag, int count)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    /* before b: when b is the entry, head becomes the entry (b had no predecessor) */
    LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(ctx, b, "piece");
    LLVMBasicBlockRef side = LLVMAppendBasicBlockInContext(ctx, fn, "piece.side");
    retarget(b, head);
    LLVMPositionBuilderAtEnd(bld, head);
    LLVMValueRef i = LLVMGetFirstInstruction(b);
    for (int moved = 0; i && (moved < count || LLVMIsAPHINode(i));) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (!LLVMIsAPHINode(i))
            moved++;
        LLVMInstructionRemoveFromParent(i);
        LLVMInsertIntoBuilder(bld, i);
        i = next;
    }
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx);
    LLVMValueRef v = LLVMBuildLoad2(bld, i8, flag, "");
    LLVMSetVolatile(v, 1);
    LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntNE, v, LLVMConstInt(i8, 0, 0), ""), side, b);
    LLVMPositionBuilderAtEnd(bld, side);
    LLVMSetVolatile(LLVMBuildStore(bld, LLVMConstInt(i8, 0, 0), flag), 1);
    LLVMBuildBr(bld, b);
}

int
kn_jit_split_blocks(LLVMModuleRef m)
{
    if (getenv("KILN_NO_SPLIT"))
        return 0;
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    int cuts = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) == LLVMAvailableExternallyLinkage)
            continue;
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
            int n = block_size(b);
            if (n <= KN_SPLIT_BLOCK || !only_branches_reach(b))
                continue;
            for (; n > KN_SPLIT_PIECE + KN_SPLIT_PIECE / 2; n -= KN_SPLIT_PIECE, cuts++)
                cut_head(bld, fn, b, flag_of(m), KN_SPLIT_PIECE);
        }
    }
    LLVMDisposeBuilder(bld);
    return cuts;
}
