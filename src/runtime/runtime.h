/* runtime.h - what compiled code calls at run time (the kn_rt_* ABI, listed once in
 * symbols.def) and the fixed exception table entries that compiled code raises by index.
 * Uses only base/: compiled code links against it without Python. */
#ifndef KN_RUNTIME_H
#define KN_RUNTIME_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/base.h"

/* Exceptions raised by compiled code itself; the dispatcher fills these first entries of the
 * exception table with the messages CPython gives for the same operations. */
enum {
    KN_EXC_INT_FLOORDIV_ZERO, /* 1 // 0 */
    KN_EXC_INT_MOD_ZERO,      /* 1 % 0 */
    KN_EXC_TRUEDIV_ZERO,      /* 1 / 0 */
    KN_EXC_FLOAT_DIV_ZERO,    /* 1.0 / 0.0 */
    KN_EXC_FLOAT_FLOORDIV_ZERO,
    KN_EXC_FLOAT_MOD_ZERO,
    KN_EXC_COMPLEX_DIV_ZERO,
    KN_EXC_NEG_POW,             /* int ** negative int (NumPy's message) */
    KN_EXC_NEG_SHIFT,           /* 1 << -1 */
    KN_EXC_RANGE_STEP_ZERO,     /* range(0, 1, 0) */
    KN_EXC_TUPLE_INDEX,         /* tuple index out of range */
    KN_EXC_RANGE_INDEX,         /* range object index out of range */
    KN_EXC_POW_MOD_ZERO,        /* pow(1, 2, 0) */
    KN_EXC_ISQRT_NEG,           /* math.isqrt(-1) */
    KN_EXC_FLOAT_DIVMOD_ZERO,   /* divmod(1.0, 0.0) */
    KN_EXC_ARRAY_INDEX,         /* index out of bounds (boundscheck) */
    KN_EXC_NEGATIVE_DIMS,       /* np.empty(-1) */
    KN_EXC_NO_MEMORY,           /* MemoryError */
    KN_EXC_BROADCAST,           /* operands could not be broadcast together */
    KN_EXC_EMPTY_REDUCTION,     /* np.min of an empty array */
    KN_EXC_SLICE_STEP_ZERO,     /* a[::0] */
    KN_EXC_EMPTY_ARG_REDUCTION, /* np.argmin of an empty array */
    KN_EXC_UNPACK,              /* x, y = array of another length */
    KN_EXC_RESHAPE,             /* cannot reshape array of size ... */
    KN_EXC_SETITEM_SHAPE,       /* could not broadcast input array into the target */
    KN_EXC_FLOAT_INF_INT,       /* int(float('inf')): OverflowError */
    KN_EXC_FLOAT_NAN_INT,       /* int(float('nan')): ValueError */
    KN_EXC_FLOAT_INT_RANGE,     /* int(1e300): beyond int64 (OverflowError of our own) */
    KN_EXC_ZERO_NEG_POW,        /* 0.0 ** -1.0 */
    KN_EXC_COMPLEX_ZERO_POW,    /* 0j ** -1 */
    KN_EXC_ARRAY_TOO_BIG,       /* np.empty(2**61): the byte count overflows */
    KN_EXC_ARANGE_NAN,          /* np.arange(0.0, nan) */
    KN_EXC_ARANGE_SIZE,         /* np.arange(0.0, inf) */
    KN_EXC_LINSPACE_NUM,        /* np.linspace(0, 1, -1) */
    KN_EXC_INT_BOUNDS_I8,       /* np.zeros(1, np.int8) + 200: a Python int out of the dtype's */
    KN_EXC_INT_BOUNDS_I16,      /* range, one entry per dtype, int8 to uint64 (NumPy 2's */
    KN_EXC_INT_BOUNDS_I32,      /* OverflowError, message with the value) */
    KN_EXC_INT_BOUNDS_U8,
    KN_EXC_INT_BOUNDS_U16,
    KN_EXC_INT_BOUNDS_U32,
    KN_EXC_INT_BOUNDS_U64,
    KN_EXC_RECURSION,           /* RecursionError: a recursive call ran out of stack */
    KN_EXC_INTERRUPT,           /* SIGINT seen by a poll: the dispatcher runs Python's handler */
    KN_EXC_EMPTY_REDUCTION_MAX, /* np.max of an empty array ("maximum") */
    KN_EXC_EMPTY_ARG_REDUCTION_MAX, /* np.argmax of an empty array */
    KN_EXC_ROUND_OVERFLOW,          /* round(1.7e308, -308) */
    KN_EXC_ARANGE_BOOL,             /* np.arange(3, dtype=bool): a TypeError */
    KN_EXC__FIXED
};

/* Kinds for kn_rt_print. */
enum {
    KN_PRINT_BOOL,
    KN_PRINT_I64,
    KN_PRINT_U64,
    KN_PRINT_F64,
    KN_PRINT_F32,
    KN_PRINT_C128,
    KN_PRINT_C64,
    KN_PRINT_STR,
    KN_PRINT_NONE,
    KN_PRINT_TUPLE_BEGIN,
    KN_PRINT_TUPLE_END,
};

int64_t kn_rt_ipow(int64_t base, uint64_t exp);
int64_t kn_rt_ipow_mod(int64_t base, int64_t exp, int64_t mod);
int64_t kn_rt_gcd(int64_t a, int64_t b);
int64_t kn_rt_isqrt(int64_t n, int32_t *err);
double kn_rt_frexp(double x, int64_t *exp);
double kn_rt_round_ndigits(double x, int64_t ndigits);
int64_t kn_rt_round_int(int64_t x, int64_t ndigits);
void kn_rt_cpow(double ar, double ai, double br, double bi, double *out);
void kn_rt_cdiv(double ar, double ai, double br, double bi, double *out);
double kn_rt_float_floordiv(double a, double b);

/* complex math functions: which is one of these */
enum {
    KN_CFN_SQRT,
    KN_CFN_EXP,
    KN_CFN_LOG,
    KN_CFN_SIN,
    KN_CFN_COS,
    KN_CFN_TAN,
    KN_CFN_SINH,
    KN_CFN_COSH,
    KN_CFN_TANH,
    KN_CFN_ASIN,
    KN_CFN_ACOS,
    KN_CFN_ATAN,
    KN_CFN_ASINH,
    KN_CFN_ACOSH,
    KN_CFN_ATANH,
    KN_CFN_EXPM1,
    KN_CFN_LOG1P
};
void kn_rt_complex_fn(int32_t which, double re, double im, double *out);
double kn_rt_float_mod(double a, double b);

/* Runaway recursion and Ctrl-C (stack.c). A function in a recursion cycle takes a hidden last
 * argument, the lowest frame address it may run at; its calls inside the cycle pass the limit
 * plus KN_RECURSION_LEVEL_BYTES, so that a recursion turned into a loop by LLVM still ends. */
enum { KN_RECURSION_LEVEL_BYTES = 32 };
uintptr_t kn_rt_stack_limit(void); /* this thread's first limit (computed once per thread) */
/* Set (nonzero) by the dispatcher's SIGINT handler; polled by compiled code. */
extern volatile int32_t kn_rt_interrupt_flag;

/* Reference-counted memory for arrays made in compiled code. */
typedef struct KnMemInfo {
    _Atomic int64_t refcount;
    void *data; /* 64-byte aligned */
    size_t size;
} KnMemInfo;

KnMemInfo *kn_rt_meminfo_alloc(int64_t nbytes); /* refcount 1; NULL when out of memory */
void kn_rt_meminfo_free(KnMemInfo *mi);
void kn_rt_incref(KnMemInfo *mi); /* both accept NULL (arrays owned by Python) */
void kn_rt_decref(KnMemInfo *mi);

/* allocation counters: every meminfo allocated and freed */
typedef struct KnRtStats {
    int64_t alloc, free, mi_alloc, mi_free;
} KnRtStats;
void kn_rt_stats(KnRtStats *out);

#endif
