/* passes.h - transformations of typed KIR (run by compile.c between typing and lowering). */
#ifndef KN_PASSES_H
#define KN_PASSES_H

#include "compile.h"

/* Array-expression fusion: a tree of elementwise array operations whose intermediate results
 * are used once becomes one FUSED instruction, lowered as a single loop with no temporary
 * array per operator (as Numba's array-expression rewrite). */
int kn_pass_fuse(KnCompilation *c);

/* Can the function raise (see raises.c)? 1 when unsure. */
int kn_pass_can_raise(KnCompilation *c);
/* Can this scalar BINOP raise (a division by zero, an integer power's exponent, a shift)? */
int kn_pass_binop_raises(const KnInstr *in);
int kn_pass_float_to_pyint(const KnInstr *in); /* int(x), math.floor(x), round(x) of a float */
/* May this one instruction raise (conservative: any array-valued instruction may)? */
int kn_pass_instr_raises(const KnCompilation *c, const KnInstr *in);

/* Float divisions in side-effect-free innermost loops whose zero check can move to the loop's
 * exit, so LLVM can vectorize the loop (defer.c); fills c->deferred. */
void kn_pass_defer_division_checks(KnCompilation *c);

/* Scalar divisions whose divisor variable a division before them on every path has already
 * tested for zero (nonzero.c); fills c->nonzero_divisor. Runs after the defer pass. */
void kn_pass_nonzero_divisors(KnCompilation *c);

/* Is `in` an elementwise array operation fusion can take (typing/lowering agree on it)? */
int kn_pass_is_elementwise(const KnInstr *in);

#endif
