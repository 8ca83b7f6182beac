/* internal.h - state shared by the files of lower/: the per-function lowering context, the
 * emission helpers of the floor (emit.c) and what scalar.c, calls.c, lower.c and the array files
 * give each other. */
#ifndef KN_LOWER_INTERNAL_H
#define KN_LOWER_INTERNAL_H

#include "lower/lower.h"
#include "passes/passes.h"
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
    LLVMValueRef limit;   /* in a recursion cycle: the stack limit (i64, its last parameter) */
    LLVMValueRef *vars;   /* alloca per variable (NULL for untyped ones) */
    LLVMValueRef *vals;   /* value per instruction id */
    LLVMBasicBlockRef *blocks;
    LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr;
    unsigned fmf;       /* LLVM fast-math flags for float instructions */
    int has_refs;       /* the function handles arrays: reference counting is on */
    int direct;         /* the function cannot raise: no status code, no ret/exc pointers */
    int analysis_wrong; /* a raise was emitted into a function judged unable to raise */
    int in_ufunc;       /* lowering an elementwise array kernel: NumPy's errors (x // 0 is 0) */
    const KnType *kernel_type; /* the dtype an elementwise kernel returns (array.c) */
    /* values of the current block that own a reference, released at its end */
    LLVMValueRef owned_v[256];
    const KnType *owned_t[256];
    int owned_until[256]; /* the block at whose end each is released (its last use) */
    int nowned;
    int cur_block; /* id of the KIR block being lowered */
    int *last_use; /* by instruction id: the last block that uses its value */
    /* by instruction id: for a value owning a reference that is used in a later block (after
     * an `x if c else y`, `and`/`or` or a chained comparison of the same expression), the
     * zeroed entry-block slot that holds it instead of the block's owned list; else NULL */
    LLVMValueRef *slot;
    const KnInstr **slotted;      /* the instructions that have one, nslotted of them */
    LLVMBasicBlockRef unwind;     /* where every raise ends: releases the variables, returns */
    LLVMValueRef unwind_status;   /* alloca: the status it returns */
    LLVMBasicBlockRef chain[256]; /* releases of owned_v[j] on the way there (chain_entry) */
    int nchain;
    int nslotted;
    KnSpan span;    /* of the instruction being lowered */
    char *borrowed; /* by variable: a parameter only ever holding its argument (no refcount) */
    LLVMValueRef defer_flags[KN_MAX_DEFERRED]; /* i1 allocas for KN_SIDE_DEFERRED */
    LLVMValueRef defer_flag; /* while lowering a deferred division: its flag, else NULL */
    int divisor_nonzero;     /* while lowering a division passes/nonzero.c cleared: no test */
    /* try/except (exceptions.c): the current block's unwind target, or NULL; by try id, the
     * KnExcInfo its except clause caught; with handlers, the caller's KnExcInfo (exc_ptr is
     * then the function's own) */
    LLVMBasicBlockRef handler;
    LLVMValueRef *exc_saved;
    int nexc_saved;
    LLVMValueRef exc_out;
    void *gen; /* a generator's resumable frame (generators.c: KnLowerGen), else NULL */
    void *par; /* while a parallel body is built (parallel_array.c), else NULL */
} L;

/* ---- the lowering model of a kind (types/kinds.def names it: kn_lower_model_<lm>,
 * in lower/model_*.c). emit.c dispatches through it; a NULL operation takes the default
 * written beside it. ---- */

/* Called on each reference a value holds: `ref` is the KnMemInfo * that counts it (NULL for
 * memory borrowed from Python, which compiled code does not count). */
typedef void (*KnRefVisitor)(L *l, LLVMValueRef ref, void *ctx);

typedef struct KnLowerModel {
    LLVMTypeRef (*type)(L *l, const KnType *t); /* the LLVM type of a value; NULL: an i8 */
    LLVMValueRef (*truth)(L *l, LLVMValueRef v, const KnType *t); /* bool(v); NULL: false */
    /* v of type `from` (this kind) as type `to` (from != to), NULL if it cannot be; NULL: v
     * unchanged (compile-time values and none) */
    LLVMValueRef (*convert)(L *l, LLVMValueRef v, const KnType *from, const KnType *to);
    /* load a value stored in C layout (the dispatcher's buffers) at p, store v there; NULL: a
     * plain load or store of the LLVM type */
    LLVMValueRef (*load_c)(L *l, const KnType *t, LLVMValueRef p);
    void (*store_c)(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p);
    int (*has_refs)(const KnType *t); /* a value holds counted references; NULL: never */
    /* call fn on every reference v holds (recursing into what it contains); NULL: none */
    void (*visit_refs)(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx);
} KnLowerModel;

#define X(kind, name, tm, lm, bm, flags) extern const KnLowerModel kn_lower_model_##lm;
#include "types/kinds.def"
#undef X

const KnLowerModel *kn_lower_model(const KnType *t);
/* model_datetime.c: an np.datetime64 (is_date) or np.timedelta64 count v of unit `from` in
 * unit `to` (KnTimeUnit), NaT kept; NULL when a timedelta's years or months meet days */
LLVMValueRef kn_lower_time_convert(L *l, LLVMValueRef v, int from, int to, int is_date);
/* a value of type t in C layout at p: load it, store v there (emit.c, through the model) */
LLVMValueRef kn_lower_load_c(L *l, const KnType *t, LLVMValueRef p);
void kn_lower_store_c(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p);
/* call fn on every reference v (of type t) holds (emit.c; reference counting uses it) */
void kn_lower_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx);

LLVMTypeRef kn_lower_type(L *l, const KnType *t);
/* model_optional.c: a value or None (`from`) as the optional `to`; UNWRAP */
LLVMValueRef kn_lower_optional_wrap(L *l, LLVMValueRef v, const KnType *from, const KnType *to);
/* model_optional.c: the optional v's present flag, its value in *value (print) */
LLVMValueRef kn_lower_optional_present(L *l, LLVMValueRef v, LLVMValueRef *value);
LLVMValueRef kn_lower_unwrap(L *l, KnInstr *in);
/* frozen.c: a GLOBAL of an array type (a global or closure array frozen by the frontend) */
LLVMValueRef kn_lower_frozen_array(L *l, KnInstr *in);
/* namedtuple.c: `p.x` of a namedtuple (GETATTR typed KN_CALL_CONST, the item's index) */
LLVMValueRef kn_lower_namedtuple_field(L *l, KnInstr *in);
LLVMValueRef kn_lower_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to);
/* float -> int as NumPy's C casts on x86-64: defined for nan, inf and out-of-range values */
LLVMValueRef kn_lower_float_to_int(L *l, LLVMValueRef v, const KnType *from, const KnType *to);
/* float -> Python int (int64): raises ValueError for nan, OverflowError for inf or out of range */
LLVMValueRef kn_lower_float_to_pyint(L *l, LLVMValueRef v, const KnType *from);
LLVMValueRef kn_lower_truth(L *l, LLVMValueRef v, const KnType *t);
LLVMValueRef kn_lower_binop(L *l, KnBinop op, LLVMValueRef a, LLVMValueRef b, const KnType *operand,
                            const KnType *ta, const KnType *tb);
LLVMValueRef kn_lower_unop(L *l, KnInstr *in, LLVMValueRef a);
LLVMValueRef kn_lower_cmp(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                          const KnType *tb, const KnType *operand);
LLVMValueRef kn_lower_call(L *l, KnInstr *in);
/* registry.c: the lowering rule of a registry entry (lib/lib.h) */
LLVMValueRef kn_lower_entry(L *l, KnInstr *in, int id);
/* the lowering rules of the registry's entries (lib/registry.def): kn_lower_rule_<rule> */
#define X(id, owner, name, flags, rule)                                                            \
    LLVMValueRef kn_lower_rule_##rule(L *l, KnInstr *in, int bid);
#include "lib/registry.def"
#undef X
/* calls.c: a call or attribute implemented in Python (KN_CALL_JITTED, self first if a method) */
LLVMValueRef kn_lower_jitted_call(L *l, KnInstr *in);
/* calls.c: a call of impl's callee with the values vals[0..n) of types[0..n) (in->type the
 * result); functions.c: a call of a choice among jitted functions (impl->choices) */
LLVMValueRef kn_lower_jitted_values(L *l, KnInstr *in, KnCallImpl *impl, LLVMValueRef *vals,
                                    KnType **types, int n);
LLVMValueRef kn_lower_choice_call(L *l, KnInstr *in, LLVMValueRef *vals, KnType **types, int n);
LLVMValueRef kn_lower_range_len(L *l, LLVMValueRef r);
LLVMValueRef kn_lower_getitem(L *l, KnInstr *in); /* GETITEM (lower.c) */
/* the iterator protocol (iter.c) */
LLVMValueRef kn_lower_getiter(L *l, KnInstr *in);
LLVMValueRef kn_lower_iternext(L *l, KnInstr *in); /* leaves the builder in the item's block */

/* str (model_str.c): the KnStr struct, its fields (runtime/str.h's order), a literal constant,
 * a value copied to an alloca (for the runtime's KnStr * parameters) */
enum {
    KN_STR_MI,
    KN_STR_DATA,
    KN_STR_LENGTH,
    KN_STR_KIND,
    KN_STR_ASCII,
    KN_STR_HASH,
    KN_STR_PARENT
};
LLVMTypeRef kn_lower_str_type(L *l);
LLVMValueRef kn_lower_str_field(L *l, LLVMValueRef s, int field);
LLVMValueRef kn_lower_str_const(L *l, const char *utf8);
LLVMValueRef kn_lower_str_spill(L *l, LLVMValueRef v);
/* str.c: v with a reference of its own that may outlive the call (an item stored into a
 * container): a str borrowed from a Python object is copied (kn_rt_str_own), any other increfed */
LLVMValueRef kn_lower_str_stored(L *l, LLVMValueRef v);
/* str.c: s[k] for 0 <= k < len(s) (a new reference; a kind-1 character is static) */
LLVMValueRef kn_lower_str_item(L *l, LLVMValueRef s, LLVMValueRef k);
/* dicts and sets (dict.c): len(); iteration by position (iter.c): the item at entry k of the
 * table `it` iterates over, and the check that the table kept its size (RuntimeError) */
LLVMValueRef kn_lower_dict_len(L *l, LLVMValueRef mi);
LLVMValueRef kn_lower_dict_iter_item(L *l, KnInstr *it, LLVMValueRef k);
/* item k of dict/set src as a for loop reads it, outside a GETITER (in: id and span) */
LLVMValueRef kn_lower_dict_seq_item(L *l, KnInstr *in, KnInstr *src, const KnType *item,
                                    LLVMValueRef k);
void kn_lower_dict_iter_guard(L *l, KnInstr *it, LLVMValueRef len);
LLVMValueRef kn_lower_build_dict(L *l, KnInstr *in); /* BUILD_DICT, BUILD_SET */

/* arrays (array.c) */
LLVMTypeRef kn_lower_array_type(L *l, const KnType *t);
LLVMValueRef kn_lower_array_shape(L *l, LLVMValueRef a, int k);
int kn_lower_has_refs(const KnType *t);
void kn_lower_incref(L *l, LLVMValueRef v, const KnType *t);
void kn_lower_decref(L *l, LLVMValueRef v, const KnType *t);
void kn_lower_own(L *l, LLVMValueRef v, const KnType *t); /* register an owned temp (emit.c) */
void kn_lower_release_owned(L *l, LLVMValueRef v, const KnType *t); /* and release it early */
void kn_lower_cleanup(L *l); /* release variables and owned temps before leaving (emit.c) */
void kn_lower_unwind(L *l, LLVMValueRef status); /* leave with an exception (emit.c) */
/* exceptions.c: try/except (the pending KnExcInfo, handlers), raise with run-time arguments */
void kn_lower_exc_setup(L *l);
void kn_lower_exc_leaving(L *l); /* an exception leaves the function: copy it out */
LLVMValueRef kn_lower_exc_match(L *l, KnInstr *in);
void kn_lower_reraise(L *l, KnInstr *in);
/* the KnExcInfo that try `id` saved when one of its clauses matched (caught.c), or NULL */
LLVMValueRef kn_lower_exc_saved(L *l, int id);
void kn_lower_raise(L *l, KnInstr *in);
LLVMValueRef kn_lower_array_getitem(L *l, KnInstr *in);
LLVMValueRef kn_lower_array_const_slice(L *l, KnInstr *in); /* SLICE op on an array */
LLVMValueRef kn_lower_array_method(L *l, KnInstr *in, const char *name, LLVMValueRef a,
                                   const KnType *t);
void kn_lower_array_setitem(L *l, KnInstr *in);
LLVMValueRef kn_lower_array_getattr(L *l, KnInstr *in);
LLVMValueRef kn_lower_array_flag(L *l, LLVMValueRef a, const KnType *t, int id); /* KN_BI_FLAGS_* */
LLVMValueRef kn_lower_array_alloc(L *l, const KnType *t, LLVMValueRef *shape);
LLVMValueRef kn_lower_array_binop(L *l, KnInstr *in); /* BINOP and CMP */
LLVMValueRef kn_lower_array_unop(L *l, KnInstr *in);
LLVMValueRef kn_lower_array_ufunc(L *l, KnInstr *in);
LLVMValueRef kn_lower_fused(L *l, KnInstr *in);
LLVMValueRef kn_lower_nonzero(L *l, LLVMValueRef a, const KnType *t, const KnType *rt);
LLVMValueRef kn_lower_array_copy(L *l, KnInstr *in, LLVMValueRef a, const KnType *t);
LLVMValueRef kn_lower_array_creation(L *l, KnInstr *in, int id);
LLVMValueRef kn_lower_arange(L *l, KnInstr *in);
LLVMValueRef kn_lower_array_make(L *l, KnInstr *in, int id); /* np.array, linspace, eye, ... */
/* cumsum/cumprod along axis k (lower/sorting.c) */
LLVMValueRef kn_lower_cum_axis(L *l, KnInstr *in, const char *name, LLVMValueRef a, const KnType *t,
                               int k);
LLVMValueRef kn_lower_reduction(L *l, KnInstr *in, const char *name, LLVMValueRef a,
                                const KnType *t);
void kn_lower_array_fill(L *l, LLVMValueRef a, const KnType *t, LLVMValueRef v, const KnType *vt);
/* a Python int (kiln's int64 scalars not read from an array) taken as integer dtype d must
 * fit it, else NumPy 2's OverflowError; below_ok/above_ok: np.clip's bounds (elementwise.c) */
void kn_lower_check_python_int(L *l, KnInstr *arg, const KnType *d, int below_ok, int above_ok);
void kn_lower_check_int_value(L *l, LLVMValueRef v, const KnType *d, int below_ok, int above_ok,
                              LLVMValueRef when);
/* npmath.c: the kernel of a one-result ufunc of rule npmath (elements e of in's arguments) */
LLVMValueRef kn_lower_npmath_kernel(L *l, KnInstr *in, LLVMValueRef *e);
LLVMValueRef kn_lower_ufunc_scalar(L *l, int id, LLVMValueRef x, const KnType *xt,
                                   const KnType *operand, const KnType *rt);

void kn_lower_not_raising(L *l);

/* the floor (emit.c): raising, constants, calls of intrinsics and externs */
void kn_lower_raise_if(L *l, LLVMValueRef cond, int exc_index); /* branch to a raise when cond */
void kn_lower_raise_if_args(L *l, LLVMValueRef cond, int exc_index, LLVMValueRef *args, int nargs);
void kn_lower_cold_branch(L *l, LLVMValueRef cond, LLVMBasicBlockRef cold, LLVMBasicBlockRef hot);
void kn_lower_raise_index_if(L *l, LLVMValueRef cond, LLVMValueRef exc_index, LLVMValueRef *args,
                             int nargs);
LLVMValueRef kn_lower_fmf(L *l, LLVMValueRef inst); /* apply fast-math flags */
LLVMValueRef kn_lower_intrinsic(L *l, const char *name, LLVMTypeRef *types, int ntypes,
                                LLVMValueRef *args, int nargs);
LLVMValueRef kn_lower_extern(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                             int nparams, LLVMValueRef *args);
/* C99 libm's `name` ("sin", "atan2", "ldexp") of args (one to four), as the target reaches it (an
 * intrinsic or a symbol: targets/target.h, math_symbol); the float type is args[0]'s, and the
 * result's. */
LLVMValueRef kn_lower_math(L *l, const char *name, LLVMValueRef *args, int nargs);
LLVMValueRef kn_lower_const_f(L *l, const KnType *t, double v);
LLVMBuilderRef kn_lower_entry_builder(L *l); /* at the start of the entry block; dispose it */
LLVMValueRef kn_lower_entry_alloca(L *l, LLVMTypeRef t, const char *name);
/* Runaway recursion and Ctrl-C (emit.c). A function in a recursion cycle that cannot raise
 * otherwise ("coded": l->direct with l->limit) returns {value, i8 code} instead of taking a
 * status: code 0 is a return, code k raises exception KN_EXC_RECURSION + k - 1. It stays free
 * of memory effects, so LLVM still merges its repeated calls (fib). */
int kn_lower_coded(const L *l);
LLVMTypeRef kn_lower_coded_type(L *l, LLVMTypeRef value);
/* Raise exception `exc_index` (KN_EXC_RECURSION or KN_EXC_INTERRUPT) when cond holds, in any
 * ABI that can raise. */
void kn_lower_raise_code_if(L *l, LLVMValueRef cond, int exc_index);
/* Raise KeyboardInterrupt (KN_EXC_INTERRUPT) when the SIGINT flag is set. */
void kn_lower_poll_interrupt(L *l);
/* The stack limit to pass to a callee in a recursion cycle. */
LLVMValueRef kn_lower_callee_limit(L *l);
/* After a call of a coded callee: pass a nonzero code up, and return the value. */
LLVMValueRef kn_lower_coded_result(L *l, LLVMValueRef call);
LLVMValueRef kn_lower_cplx(L *l, const KnType *t, LLVMValueRef re, LLVMValueRef im);
/* return {v, code} from a coded function */
void kn_lower_ret_coded(L *l, LLVMValueRef v, LLVMValueRef code);
/* store the raise's "file:line" in KnExcInfo.where */
void kn_lower_store_where(L *l);
void kn_lower_store_called_from(L *l); /* a callee's exception passed up by this call */

/* ownership of array references (emit.c), with kn_lower_own, kn_lower_release_owned,
 * kn_lower_cleanup and kn_lower_unwind above */
/* register v as owned until the end of block `until` (the later end if it is already owned) */
void kn_lower_own_until(L *l, LLVMValueRef v, const KnType *t, int until);
/* at the end of a block: release (emit) or forget the temporaries whose last use was in it */
void kn_lower_release_due(L *l, int emit);
/* a value used in later blocks: its reference moves from the owned list into its slot */
void kn_lower_keep_in_slot(L *l, const KnInstr *in, LLVMValueRef v);
/* at the end of a block: release the slotted values whose last use was in it */
void kn_lower_release_slots_due(L *l);
/* the unwind block's body, once every raise has branched to it */
void kn_lower_finish_unwind(L *l);

/* generators.c: a generator function as a resumable frame (l->gen set by kn_lower_gen_init) */
int kn_lower_gen_active(const L *l);
int kn_lower_gen_init(L *l, LLVMValueRef frame);
LLVMValueRef kn_lower_gen_slot(L *l, LLVMTypeRef t, const char *name); /* zeroed, in the frame */
void kn_lower_gen_entry(L *l);                     /* the switch on the resume index */
void kn_lower_gen_block(L *l, const KnBlock *blk); /* reload what blk uses from elsewhere */
void kn_lower_gen_after(L *l, const KnInstr *in);  /* spill a value used elsewhere */
void kn_lower_gen_yield(L *l, KnInstr *in);
void kn_lower_gen_ret(L *l);
void kn_lower_gen_finish(L *l); /* leaving for good: arguments released, index -1 */
LLVMValueRef kn_lower_gen_arg(L *l, int k);
void kn_lower_gen_functions(L *l);                     /* drop, init (the wrapper), size */
LLVMValueRef kn_lower_gen_make(L *l, KnInstr *call);   /* gen(args) in compiled code */
LLVMValueRef kn_lower_gen_iternext(L *l, KnInstr *in); /* a for over a generator value */

/* parallel_array.c: is a parallel body being built; a raise there (emit.c asks) marks the
 * body unusable and returns a failed status inside it, instead of unwinding the function */
int kn_lower_par_building(const L *l);
void kn_lower_par_raise(L *l, LLVMValueRef cond);

#endif
