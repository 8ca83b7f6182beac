/* internal.h - state shared by the files of lower/: the per-function lowering context and the
 * helpers that scalar.c, calls.c and lower.c give each other. */
#ifndef KN_LOWER_INTERNAL_H
#define KN_LOWER_INTERNAL_H

#include "lower/lower.h"
#include "runtime/runtime.h"
#include "typing/typing.h"

typedef struct L {
    KnCompilation *c;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;      /* the native function being built */
    LLVMValueRef ret_ptr; /* its first parameter */
    LLVMValueRef exc_ptr; /* its second parameter */
    LLVMValueRef *vars;   /* alloca per variable (NULL for untyped ones) */
    LLVMValueRef *vals;   /* value per instruction id */
    LLVMBasicBlockRef *blocks;
    LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr;
    unsigned fmf; /* LLVM fast-math flags for float instructions */
    KnSpan span;  /* of the instruction being lowered */
} L;

LLVMTypeRef kn_lower_type(L *l, const KnType *t);
LLVMValueRef kn_lower_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to);
LLVMValueRef kn_lower_truth(L *l, LLVMValueRef v, const KnType *t);
LLVMValueRef kn_lower_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *operand,
                            const KnType *ta, const KnType *tb);
LLVMValueRef kn_lower_unop(L *l, KnInstr *in, LLVMValueRef a);
LLVMValueRef kn_lower_cmp(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                          const KnType *tb, const KnType *operand);
LLVMValueRef kn_lower_call(L *l, KnInstr *in);
LLVMValueRef kn_lower_range_len(L *l, LLVMValueRef r);

/* helpers */
void kn_lower_raise_if(L *l, LLVMValueRef cond, int exc_index); /* branch to a raise when cond */
LLVMValueRef kn_lower_fmf(L *l, LLVMValueRef inst);             /* apply fast-math flags */
LLVMValueRef kn_lower_intrinsic(L *l, const char *name, LLVMTypeRef *types, int ntypes,
                                LLVMValueRef *args, int nargs);
LLVMValueRef kn_lower_extern(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                             int nparams, LLVMValueRef *args);
LLVMValueRef kn_lower_const_f(L *l, const KnType *t, double v);
LLVMValueRef kn_lower_entry_alloca(L *l, LLVMTypeRef t, const char *name);
LLVMValueRef kn_lower_cplx(L *l, const KnType *t, LLVMValueRef re, LLVMValueRef im);

#endif
