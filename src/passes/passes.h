/* passes.h - transformations of typed KIR (run by compile.c between typing and lowering). */
#ifndef KN_PASSES_H
#define KN_PASSES_H

#include "base/context.h"
#include "ir/kir.h"
#include "types/types.h"

/* KN_SIDE_RAISES (raises.c, stored by compile.c's fuse pass): 0 when the function is lowered
 * without a status code. */
typedef struct KnRaises {
    int can_raise;
} KnRaises;

/* KN_SIDE_DEFERRED (defer.c, read by lowering): a loop's float division whose zero check moves
 * to the loop's exit. */
typedef struct KnDeferred {
    KnInstr *division;
    KnBlock *exit;
    int from_ints; /* int / int: CPython's message differs */
} KnDeferred;
enum { KN_MAX_DEFERRED = 8 };
typedef struct KnDeferrals {
    KnDeferred items[KN_MAX_DEFERRED];
    int n;
} KnDeferrals;

/* KN_SIDE_NONZERO (nonzero.c, read by lowering): by instruction id, 1 to skip the zero test. */
typedef struct KnNonzero {
    unsigned char *divisor;
    int len;
} KnNonzero;

/* Array-expression fusion: a tree of elementwise array operations whose intermediate results
 * are used once becomes one FUSED instruction, lowered as a single loop with no temporary
 * array per operator (as Numba's array-expression rewrite). */
int kn_pass_fuse(KnCompilation *c);

/* Counted `while` heads whose compare is of two signed ints poll for Ctrl-C no more (raises.c);
 * before kn_pass_can_raise. */
void kn_pass_drop_counted_polls(KnFunction *fn);
/* Can the function raise (see raises.c)? 1 when unsure. */
int kn_pass_can_raise(KnCompilation *c);
/* Can this scalar BINOP raise (a division by zero, an integer power's exponent, a shift)? */
int kn_pass_binop_raises(const KnInstr *in);
int kn_pass_float_to_pyint(const KnInstr *in); /* int(x), math.floor(x), round(x) of a float */
/* May this one instruction raise (conservative: any array-valued instruction may)? */
int kn_pass_instr_raises(const KnCompilation *c, const KnInstr *in);

/* Float divisions in side-effect-free innermost loops whose zero check can move to the loop's
 * exit, so LLVM can vectorize the loop (defer.c); stores KN_SIDE_DEFERRED. */
void kn_pass_defer_division_checks(KnCompilation *c);

/* Scalar divisions whose divisor variable a division before them on every path has already
 * tested for zero (nonzero.c); stores KN_SIDE_NONZERO. Runs after the defer pass. */
void kn_pass_nonzero_divisors(KnCompilation *c);

/* Is `in` an elementwise array operation fusion can take (typing/lowering agree on it)? */
int kn_pass_is_elementwise(const KnInstr *in);

/* prange.c: the prange loops of a parallel=True function (its GETITERs marked by the
 * frontend) outlined into bodies run by PAR_FOR calls (lib/prange.def), or left serial with a
 * parallel_diagnostics note saying why. The region is the PAR_FOR's GLOBAL's imm.ptr. */
int kn_pass_prange(KnCompilation *c);

enum { KN_PRANGE_MIN = -1, KN_PRANGE_MAX = -2, KN_PRANGE_LAST = -3 };
typedef struct KnPrangeRegion {
    /* body(lo, hi, captured..., reductions...) -> (reductions..., last values...) or None:
     * the loop over range(lo, hi, step), lo and hi the chunk's first and end values */
    KnFunction *body;
    const char *symbol, *wrapper; /* the body's native symbol and its wrapper's */
    int64_t step;
    KnSpan span;
    int ncap, nred, nlast, nout;
    int *cap_vars;    /* the parent's variables passed in (call operands 3..) */
    int *vars;        /* by result: the parent's variable (reductions first) */
    int *red_kind;    /* by result: KN_BIN_* combining the partials, KN_PRANGE_MIN/MAX, or
                       * KN_PRANGE_LAST (the value of the last iteration) */
    KnInstr **red_op; /* by reduction: one of its updates in the loop (operand types) */
    KnType *ret;      /* the body's return type, the call's */
} KnPrangeRegion;

#endif
