/* typing.h - type inference over KIR: gives every reachable instruction and variable a type,
 * resolves every call to an implementation, and reports ill-typed code as diagnostics. */
#ifndef KN_TYPING_H
#define KN_TYPING_H

#include "base/context.h"
#include "ir/kir.h"
#include "types/types.h"


/* Type c->fn for the argument types; marks reachable blocks. 0, or -1 with a diagnostic. */
int kn_typing_infer(KnCompilation *c, KnType **argtypes);

/* The tuple indices a constant slice selects from n items (at most n); returns the count. */
int kn_typing_slice_items(const KnSlice *s, int n, int *out);

/* Positional argument i, or the keyword argument `keyword`, of a CALL; NULL when absent.
 * i = KN_KEYWORD_ONLY for an argument that can only be given by keyword (keepdims=). */
enum { KN_KEYWORD_ONLY = 1 << 20 };
KnInstr *kn_typing_arg(KnInstr *call, int i, const char *keyword);

/* How many array operands a NumPy function of lib/numpy.def takes (np.where: 3). */
int kn_typing_ufunc_nin(int builtin_id);
/* npmath.c: the ufuncs of rule npmath: their number of inputs, whether id is one, its
 * comparison (a KnCmp) or -1 */
int kn_typing_npmath_nin(int id);
int kn_typing_npmath_owns(int id);
int kn_typing_npmath_cmp(int id);

/* The result type of a binary operator, NULL if unsupported (shared with lowering). */
KnType *kn_typing_binop_result(KnBinop op, KnType *a, KnType *b, KnType **operand);

#endif
