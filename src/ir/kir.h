/* kir.h - KIR, kiln's intermediate representation: a control-flow graph of basic blocks whose
 * instructions compute values (each instruction is its own value) and read and write named
 * variables (LOAD/STORE). Variables get one type each, the unification of every value stored
 * to them, as in Numba. Every instruction carries the source span it came from. All of it
 * lives in the compilation's arena. See docs/kir.md. */
#ifndef KN_KIR_H
#define KN_KIR_H

#include "base/base.h"
#include "lib/lib.h"
#include "types/types.h"

typedef enum KnOp {
#define X(name, text, term, min, max, value, raises, pure) KN_OP_##name,
#include "ir/ops.def"
#undef X
    KN_OP__COUNT
} KnOp;

typedef enum KnBinop {
    KN_BIN_ADD,
    KN_BIN_SUB,
    KN_BIN_MUL,
    KN_BIN_TRUEDIV,
    KN_BIN_FLOORDIV,
    KN_BIN_MOD,
    KN_BIN_POW,
    KN_BIN_LSHIFT,
    KN_BIN_RSHIFT,
    KN_BIN_AND,
    KN_BIN_OR,
    KN_BIN_XOR,
    KN_BIN__COUNT
} KnBinop;

typedef enum KnUnop { KN_UN_NEG, KN_UN_POS, KN_UN_INVERT, KN_UN_NOT } KnUnop;

typedef enum KnCmp {
    KN_CMP_EQ,
    KN_CMP_NE,
    KN_CMP_LT,
    KN_CMP_LE,
    KN_CMP_GT,
    KN_CMP_GE,
    KN_CMP_IN,
    KN_CMP_NOTIN
} KnCmp;

/* A constant slice (KN_OP_SLICE's imm.ptr): a missing bound has has_* == 0. */
typedef struct KnSlice {
    int has_start, has_stop, has_step;
    int64_t start, stop, step;
} KnSlice;

/* A NumPy array frozen into the compiled code (a global or closure array, as Numba: a read-only
 * copy made at compile time, kept alive by the overload; frontend/frozen.c): GLOBAL's imm.ptr
 * when its type is an array. */
typedef struct KnFrozenArray {
    void *data, *parent; /* the copy's data and the copy itself (a PyObject *) */
    int64_t nitems, itemsize;
    int64_t *shape, *strides; /* ndim each */
} KnFrozenArray;

/* A namedtuple built by a call of its class (frontend/namedtuple.c): a TUPLE's imm.ptr, the
 * items in field order; typing gives the TUPLE kn_type_namedtuple's type. */
typedef struct KnNamedTuple {
    void *cls; /* the class (a PyObject *, kept alive by the overload) */
    const char *name;
    int n;
    const char **fields;
} KnNamedTuple;

typedef struct KnInstr KnInstr;
typedef struct KnBlock KnBlock;

struct KnInstr {
    KnOp op;
    int id;  /* value number, unique in the function (printing) */
    int aux; /* op-specific: see ops.def */
    int nargs;
    KnInstr **args;
    KnBlock *targets[2]; /* BR, CBR */
    KnType *type;        /* CONST/GLOBAL/CAST: set by the frontend; others: by typing */
    union {
        int64_t i;
        uint64_t u;
        double f;
        struct {
            double re, im;
        } c;
        const char *str;
        void *ptr;
    } imm;
    KnSpan span;
    void *impl; /* set by typing: the chosen implementation (e.g. a resolved callee) */
};

struct KnBlock {
    int id;
    int reachable;            /* set by typing: only reachable blocks are typed and lowered */
    int polls;                /* frontend: a `while` head, where lowering polls for Ctrl-C */
    KnInstr *counted;         /* frontend: the CMP of a counted `while` head (loops.c); no
                                 poll when typing makes both sides signed ints (raises.c) */
    KnBlock *unwind;          /* exception edge: where control goes, with the exception pending,
                                 when an instruction of this block raises (NULL: out of the
                                 function). Set by the frontend inside `try` (frontend/try.c). */
    KN_VEC(KnInstr *) instrs; /* the last one is a terminator once the block is sealed */
};

typedef struct KnVar {
    const char *name; /* source name, or "$..." for compiler temporaries */
    KnType *type;     /* set by typing */
    KnSpan span;      /* first assignment */
    int is_param;
} KnVar;

typedef struct KnFunction {
    const char *name;     /* qualified name, for symbols and messages */
    const char *filename; /* for diagnostics */
    int nparams;
    KN_VEC(KnBlock *) blocks; /* blocks[0] is the entry */
    KN_VEC(KnVar) vars;       /* params are vars[0..nparams) */
    KnType *ret_type;         /* set by typing (or fixed by a signature) */
    KnType **arg_types;       /* the signature being compiled */
    int is_generator;         /* a generator function: YIELDs, compiled as a resumable frame */
    KnType *yield_type;       /* a generator's: the unification of what it yields (typing) */
    int next_id;
    KnSpan span; /* the def line */
} KnFunction;

typedef struct KnBuilder {
    KnArena *arena;
    KnFunction *fn;
    KnBlock *cur; /* NULL after a terminator: code that follows is unreachable */
    /* the unwind target of the blocks made now (inside a `try`: frontend/try.c), or NULL */
    KnBlock *unwind;
} KnBuilder;

KnFunction *kn_kir_function_new(KnArena *a, const char *name, const char *filename);
KnBlock *kn_kir_block_new(KnBuilder *b);
int kn_kir_var_add(KnBuilder *b, const char *name, KnSpan span);
int kn_kir_var_find(KnFunction *fn, const char *name);
KnInstr *kn_kir_emit(KnBuilder *b, KnOp op, KnSpan span, int nargs, KnInstr **args);
KnInstr *kn_kir_emit1(KnBuilder *b, KnOp op, KnSpan span, KnInstr *a0);
KnInstr *kn_kir_emit2(KnBuilder *b, KnOp op, KnSpan span, KnInstr *a0, KnInstr *a1);
void kn_kir_br(KnBuilder *b, KnSpan span, KnBlock *target);
void kn_kir_cbr(KnBuilder *b, KnSpan span, KnInstr *cond, KnBlock *t, KnBlock *f);
/* it's next item (the instruction's value) on the edge to `item`; `done` once it is exhausted */
KnInstr *kn_kir_iternext(KnBuilder *b, KnSpan span, KnInstr *it, KnBlock *item, KnBlock *done);
void kn_kir_set_block(KnBuilder *b, KnBlock *blk);
KnInstr *kn_kir_terminator(const KnBlock *blk);

/* A call to another jitted function, as typing resolved it (the dispatcher fills it in). */
typedef struct KnCallee {
    KnType *ret;        /* NULL while a recursive callee's type is still unknown */
    const char *symbol; /* native symbol of the callee's overload */
    KnType **params;    /* the overload's parameter types (arguments are converted to them) */
    int can_raise;
    int recursive;       /* the callee is in a recursion cycle: it takes a stack limit last */
    const void *bitcode; /* the callee's optimized module, for inlining (NULL: link by symbol) */
    size_t bitcode_size;
} KnCallee;

/* What typing decided for an instruction (KnInstr.impl): for CALLs the implementation, for
 * operators the operand type. Passes and lowering read it. */
typedef enum KnCallKind {
    KN_CALL_BUILTIN,  /* builtin: a KnBuiltin, lowered inline or through the runtime */
    KN_CALL_JITTED,   /* another jitted function: callee.symbol */
    KN_CALL_METHOD,   /* a method of a value: name in the callee type */
    KN_CALL_CONST,    /* folded at compile time to `value` (isinstance) */
    KN_CALL_OPERATOR, /* an operator (BINOP, CMP, GETITEM, ...) of a kind implemented by the
                         registry entry `builtin` ("str.__add__": typing/operator.c) */
} KnCallKind;

/* SETITEM's aux: KN_SETITEM_ATTR for `v.name = x` (args[1] the name, a str constant; typing
 * accepts it for records only: typing/record.c) */
enum { KN_SETITEM_ATTR = 1 };

typedef struct KnCallImpl {
    KnCallKind kind;
    int builtin;     /* KN_CALL_BUILTIN */
    KnCallee callee; /* KN_CALL_JITTED */
    int64_t value;   /* KN_CALL_CONST */
    KnType *operand; /* the type arguments are converted to before the operation, or NULL */
    int inplace;     /* array a += b, or out=: the result is written into an existing array */
    KnType *result;  /* a ufunc's element type before it is stored (out= may differ) */
    KnType *reduced; /* keepdims=True: the reduction's type before its axes are kept */
    int self_first;  /* KN_CALL_JITTED for a method or attribute: self is the first argument */
    /* a call of a KN_FUNC_CHOICE: one callee per choice (typing/functions.c) */
    KnCallee *choices;
} KnCallImpl;

/* read_record.c: a record or datetime type by its printed name at p (up to end), *next after
 * it; NULL when the text is none (types/model_record.c, model_datetime.c) */
KnType *kn_kir_read_record_type(KnTypeTable *t, const char *p, const char *end, const char **next);
const char *kn_kir_op_name(KnOp op);
const char *kn_kir_builtin_name(KnBuiltin id); /* "math.sqrt" */
const char *kn_kir_builtin_module(KnBuiltin id);
const char *kn_kir_builtin_attr(KnBuiltin id);
int kn_kir_op_is_terminator(KnOp op);
int kn_kir_op_has_value(KnOp op); /* ops.def's value column: STORE, SETITEM, terminators: none */

/* ops.def's raises and pure columns. KN_OPF_DEP: it depends on the instruction (its types,
 * typing's choice); the pass that cares asks its own function (passes/raises.c). */
typedef enum KnOpFlag { KN_OPF_NO, KN_OPF_YES, KN_OPF_DEP } KnOpFlag;
KnOpFlag kn_kir_op_raises(KnOp op);
KnOpFlag kn_kir_op_pure(KnOp op);
int kn_kir_op_min_args(KnOp op);
int kn_kir_op_max_args(KnOp op); /* -1: variadic */
/* The op whose printed name is `text` (n bytes), or KN_OP__COUNT. */
KnOp kn_kir_op_by_name(const char *text, size_t n);
/* Ops that are defined (printer, reader, verifier) but that the frontend does not emit yet, so
 * typing and lowering reject them with an internal error. */
static inline int
kn_kir_op_not_yet_compiled(KnOp op)
{
    return op == KN_OP_MAKE_CLOSURE;
}
const char *kn_kir_binop_symbol(KnBinop op);
const char *kn_kir_cmp_symbol(KnCmp op);
void kn_kir_print(KnStrBuf *sb, const KnFunction *fn, int with_types);

/* The verifier (ir/verify.c): 0 when well formed, else -1 with the reason in `why` and the
 * offending instruction in *where (NULL for a whole-block fault). KN_VERIFY_UNTYPED checks the
 * structure the frontend makes: arity, operands and branch targets in the function, exactly one
 * terminator per block, at its end, and definitions that dominate their uses. KN_VERIFY_TYPED
 * (after typing and every later pass) adds: every value in a reachable block has a type,
 * every reachable CALL an implementation (impl) and every CBR a bool operand. */
enum { KN_VERIFY_UNTYPED = 0, KN_VERIFY_TYPED = 1 };
int kn_kir_verify_ex(const KnFunction *fn, int level, KnStrBuf *why, const KnInstr **where);
int kn_kir_verify(const KnFunction *fn, KnStrBuf *why); /* typed, for the pipeline's checks */

/* The reader (ir/read.c): parse what kn_kir_print prints (untyped or typed) back into a
 * function in `arena`, composite types interned in `types`. NULL on bad text, with
 * "line N: message" in `err`. See docs/kir.md, "Text format". */
KnFunction *kn_kir_read(KnArena *arena, KnTypeTable *types, const char *text, const char *filename,
                        KnStrBuf *err);

#endif
