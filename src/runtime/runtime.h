/* runtime.h - what compiled code calls at run time (the kn_rt_* ABI, listed once in
 * symbols.def) and the fixed exception table entries that compiled code raises by index.
 * Uses only base/: compiled code links against it without Python. */
#ifndef KN_RUNTIME_H
#define KN_RUNTIME_H

#include <stdatomic.h>
#include <stddef.h>
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
    KN_EXC_QUANTILE_RANGE,          /* np.quantile(a, 2.0) (the sorting family, lower/sorting.c) */
    KN_EXC_PERCENTILE_RANGE,        /* np.percentile(a, 200) */
    KN_EXC_QUANTILE_EMPTY,          /* np.quantile of an empty array: NumPy's IndexError */
    KN_EXC_DIGITIZE_BINS,           /* np.digitize with bins neither increasing nor decreasing */
    KN_EXC_INTERP_EMPTY,            /* np.interp(x, [], []) */
    KN_EXC_INTERP_LENGTH,           /* np.interp with len(xp) != len(fp) */
    KN_EXC_HIST_BINS,               /* np.histogram(a, bins=0) */
    KN_EXC_HIST_RANGE,              /* np.histogram(a, range=(2, 1)) */
    KN_EXC_HIST_RANGE_FINITE,       /* np.histogram(a, range=(0, inf)) */
    KN_EXC_HIST_AUTO_FINITE,        /* np.histogram of data holding nan or inf, no range= */
    KN_EXC_HIST_EDGES,              /* np.histogram(a, bins=[1, 0]) */
    KN_EXC_LIST_INDEX,              /* [][0]: list index out of range (lower/list.c) */
    KN_EXC_LIST_ASSIGN_INDEX,       /* list assignment index out of range */
    KN_EXC_LIST_POP_EMPTY,          /* [].pop() */
    KN_EXC_LIST_POP_INDEX,          /* [1].pop(5) */
    KN_EXC_LIST_REMOVE,             /* [].remove(1): list.remove(x): x not in list */
    KN_EXC_LIST_NOT_IN,             /* [].index(1): "{} is not in list" */
    KN_EXC_LIST_NOT_IN_VALUE,       /* the same for a non-integer item: "value is not in list" */
    KN_EXC_LIST_SLICE_SIZE,         /* l[::2] = [] of another length */
    KN_EXC_LIST_MIN_EMPTY,          /* min([]) */
    KN_EXC_LIST_MAX_EMPTY,          /* max([]) */
    KN_EXC_STR_INDEX,               /* 'ab'[5]: string index out of range (lower/str.c) */
    KN_EXC_CHR_RANGE,               /* chr(-1) */
    KN_EXC_ORD_LENGTH,              /* ord('ab') */
    KN_EXC_INT_LITERAL,             /* int('x'): the text comes from kn_rt_str_error */
    KN_EXC_FLOAT_LITERAL,           /* float('x') */
    KN_EXC_STR_INT_RANGE,           /* int('9' * 30): beyond int64 */
    KN_EXC_KEY_ERROR,     /* d[k] of a missing key: KeyError(k) (dispatch/box_dict.c rebuilds k) */
    KN_EXC_DICT_CHANGED,  /* dictionary changed size during iteration */
    KN_EXC_SET_CHANGED,   /* Set changed size during iteration */
    KN_EXC_POPITEM_EMPTY, /* {}.popitem() */
    KN_EXC_SET_POP_EMPTY, /* set().pop() */
    KN_EXC_STR_NOT_FOUND, /* 'a'.index('b') (lower/str_methods.c) */
    KN_EXC_STR_EMPTY_SEP, /* 'a'.split('') */
    KN_EXC_STR_FILL,      /* 'a'.center(5, 'ab') */
    KN_EXC_FORMAT_SPEC,   /* format(1, '.x') */
    KN_EXC_FORMAT_CODE,   /* format(1.5, 'd') */
    KN_EXC_FORMAT_OPTION, /* format(1, '.2'), format('a', '+') */
    KN_EXC_ARRAY_TRUTH,   /* == of dicts of arrays of more than one element (lower/equal.c) */
    KN_EXC_ARRAY_TRUTH_EMPTY, /* the same of empty arrays */
    KN_EXC_FMT_SINGLE_RBRACE, /* s.format() of a run-time format string (str_format_args.c) */
    KN_EXC_FMT_SINGLE_LBRACE,
    KN_EXC_FMT_END,
    KN_EXC_FMT_UNMATCHED,
    KN_EXC_FMT_TO_AUTO,
    KN_EXC_FMT_TO_MANUAL,
    KN_EXC_FMT_INDEX,        /* IndexError: Replacement index {} out of range ... */
    KN_EXC_FMT_FIELD_ACCESS, /* {0[1]} in a run-time format string */
    KN_EXC_FMT_CONVERSION,
    KN_EXC_FMT_END_CONVERSION,
    KN_EXC_FMT_AFTER_CONVERSION,
    KN_EXC_FMT_RECURSION,
    KN_EXC_RANDRANGE_EMPTY,   /* random.randrange(0) (runtime/random.c) */
    KN_EXC_RANDRANGE_STEP,    /* random.randrange(0, 1, 0) */
    KN_EXC_CHOICE_EMPTY,      /* random.choice([]) */
    KN_EXC_GETRANDBITS,       /* random.getrandbits(-1), or of more than 64 bits */
    KN_EXC_OPTIONAL_NONE,     /* an optional value used as a value while it is None (TypeError) */
    KN_EXC_FANCY_MASK_SHAPE,  /* a[mask] of another shape (runtime/fancy.c): NumPy's IndexError */
    KN_EXC_FANCY_BROADCAST,   /* a[i, j] of index arrays that do not broadcast together */
    KN_EXC_FANCY_VALUE_SHAPE, /* a[idx] = v of a value that does not broadcast to the result */
    KN_EXC_FANCY_MASK_VALUE,  /* a[mask] = v of another number of values */
    KN_EXC_NPR_SCALE,         /* np.random's parameter checks (runtime/np_random.c) */
    KN_EXC_NPR_SHAPE,
    KN_EXC_NPR_A_POS,
    KN_EXC_NPR_B_POS,
    KN_EXC_NPR_N_NEG,
    KN_EXC_NPR_P_01,
    KN_EXC_NPR_LAM,
    KN_EXC_NPR_LAM_BIG,
    KN_EXC_NPR_P_GT0,
    KN_EXC_NPR_DF,
    KN_EXC_NPR_SIGMA,
    KN_EXC_NPR_A_NEG,
    KN_EXC_NPR_LEFT_MODE,
    KN_EXC_NPR_MODE_RIGHT,
    KN_EXC_NPR_LEFT_RIGHT,
    KN_EXC_NPR_DFNUM,
    KN_EXC_NPR_DFDEN,
    KN_EXC_NPR_NGOOD,
    KN_EXC_NPR_NBAD,
    KN_EXC_NPR_NSAMPLE,
    KN_EXC_NPR_HYPER_SUM,
    KN_EXC_NPR_P_LT1,
    KN_EXC_NPR_N_POS,
    KN_EXC_NPR_NONC,
    KN_EXC_NPR_KAPPA,
    KN_EXC_NPR_MEAN_POS,
    KN_EXC_NPR_SCALE_POS,
    KN_EXC_NPR_ZIPF,
    KN_EXC_NPR_HIGH,
    KN_EXC_NPR_LOW_HIGH,
    KN_EXC_NPR_RANGE,
    KN_EXC_NPR_SEED,
    KN_EXC_NPR_ALPHA,
    KN_EXC_NPR_PVALS_SUM,
    KN_EXC_NPR_PVALS,
    KN_EXC_NPR_CHOICE_A_INT,
    KN_EXC_NPR_CHOICE_A_EMPTY,
    KN_EXC_NPR_CHOICE_LARGER,
    KN_EXC_NPR_CHOICE_P_SIZE,
    KN_EXC_NPR_CHOICE_P_NEG,
    KN_EXC_NPR_CHOICE_P_SUM,
    KN_EXC_NPR_CHOICE_P_NAN,
    KN_EXC_NPR_CHOICE_FEWER,
    KN_EXC_NPR_CHOICE_NEG_DIMS,
    KN_EXC_NPG_RANGE, /* np.random.Generator's checks (runtime/np_random_gen.c) */
    KN_EXC_NPG_LOW_GT_HIGH,
    KN_EXC_NPG_CHOICE_LARGER,
    KN_EXC_NPG_CHOICE_A_INT,
    KN_EXC_NPG_CHOICE_A_EMPTY,
    KN_EXC_NPG_CHOICE_P_SIZE,
    KN_EXC_NPG_CHOICE_P_NEG,
    KN_EXC_NPG_CHOICE_P_SUM,
    KN_EXC_NPG_CHOICE_P_NAN,
    KN_EXC_NPG_CHOICE_FEWER,
    KN_EXC_NPG_CHOICE_NEG_DIMS,
    KN_EXC_NPG_UNIFORM_NEG,
    KN_EXC_PARTITION_KTH, /* np.partition(a, kth) with kth out of bounds (lower/sorting.c) */
    KN_EXC_SORTER_BOUNDS, /* np.searchsorted(a, v, sorter=s) with an index of s out of bounds */
    KN_EXC_SORTER_SIZE,   /* ... with s of another length than a */
    KN_EXC_HIST_WEIGHTS,  /* np.histogram weights of another shape */
    KN_EXC_NUM_THREADS,   /* set_num_threads(n) out of range (lower/threads.c) */
    KN_EXC_CHUNKSIZE_NEG, /* set_parallel_chunksize(n < 0) */
    KN_EXC_CAUGHT_ARGS,   /* e.args of a caught exception that does not hold one str (caught.c) */
    /* np.frombuffer (lower/frombuffer.c): an offset outside the buffer, bytes past it not a
     * multiple of the itemsize (count < 0), fewer bytes than count items need */
    KN_EXC_FROMBUFFER_OFFSET,
    KN_EXC_FROMBUFFER_MULTIPLE,
    KN_EXC_FROMBUFFER_SHORT,
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
    KN_PRINT_BOXED, /* {KnType *t, value}: a dict or set, printed as its Python object */
    KN_PRINT_BYTES, /* {KnType *t, ptr}: the value in C layout at ptr, boxed (records, datetimes) */
    KN_PRINT_F16,   /* a float16, printed as NumPy prints np.float16 (shortest repr) */
};

int64_t kn_rt_ipow(int64_t base, uint64_t exp);
int64_t kn_rt_ipow_mod(int64_t base, int64_t exp, int64_t mod);
int64_t kn_rt_gcd(int64_t a, int64_t b);
/* npmath.c: np.i0 and the gcd of unsigned 64-bit integers (bits in int64_t) */
double kn_rt_i0(double x);
int64_t kn_rt_gcd_u64(int64_t a, int64_t b);
int64_t kn_rt_isqrt(int64_t n, int32_t *err);
double kn_rt_frexp(double x, int64_t *exp);
double kn_rt_round_ndigits(double x, int64_t ndigits);
int64_t kn_rt_round_int(int64_t x, int64_t ndigits);
void kn_rt_cpow(double ar, double ai, double br, double bi, double *out);
void kn_rt_cdiv(double ar, double ai, double br, double bi, double *out);
double kn_rt_float_floordiv(double a, double b);
/* random.c: CPython's Mersenne Twister, per thread */
void kn_rt_random_seed(int64_t n);
void kn_rt_random_reseed(void); /* seed() without an argument */
double kn_rt_random_random(void);
int64_t kn_rt_random_below(int64_t n);
int64_t kn_rt_random_getrandbits(int64_t k, int32_t *err);
int32_t kn_rt_random_randrange(int64_t start, int64_t stop, int64_t step, int64_t *out);
double kn_rt_random_gauss(double mu, double sigma);

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

/* Reference-counted memory for arrays, strings and containers made in compiled code. The
 * field order is an ABI: compiled code reads refcount at offset 0 and data at offset 8. */
typedef struct KnMemInfo {
    _Atomic int64_t refcount;
    void *data; /* 64-byte aligned */
    size_t size;
    /* called with data just before the memory is freed (a container releasing what its items
     * hold, a list freeing its separately allocated items); NULL: nothing */
    void (*dtor)(void *data, size_t size);
} KnMemInfo;

KnMemInfo *kn_rt_meminfo_alloc(int64_t nbytes); /* refcount 1; NULL when out of memory */
/* the same with a destructor (run by kn_rt_meminfo_free before it frees) */
KnMemInfo *kn_rt_meminfo_alloc_dtor(int64_t nbytes, void (*dtor)(void *data, size_t size));
void kn_rt_meminfo_free(KnMemInfo *mi);
void kn_rt_incref(KnMemInfo *mi); /* both accept NULL (arrays owned by Python) */
void kn_rt_decref(KnMemInfo *mi);

/* scratch memory for runtime/'s own algorithms (not counted; freed with the same size; big
 * blocks are reused warm across calls). NULL when out of memory. */
void *kn_rt_scratch_alloc(size_t nbytes);
void kn_rt_scratch_free(void *p, size_t nbytes);

/* allocation counters: every meminfo allocated and freed */
typedef struct KnRtStats {
    int64_t alloc, free, mi_alloc, mi_free;
} KnRtStats;
void kn_rt_stats(KnRtStats *out);


/* ---- algorithms on contiguous buffers (sort.c, select.c, search.c) ----
 * dt is the buffer's element type; bool is one byte 0/1, complex is (real, imag) pairs. */
enum {
    KN_DT_BOOL,
    KN_DT_I8,
    KN_DT_I16,
    KN_DT_I32,
    KN_DT_I64,
    KN_DT_U8,
    KN_DT_U16,
    KN_DT_U32,
    KN_DT_U64,
    KN_DT_F32,
    KN_DT_F64,
    KN_DT_C64,
    KN_DT_C128
};

/* Sort `rows` consecutive rows of n items in place, NumPy's order: NaN last, complex by (real,
 * imag) within [R + Rj, R + nanj, nan + Rj, nan + nanj]; -0.0 sorts before +0.0. */
void kn_rt_sort(void *data, int64_t n, int64_t rows, int32_t dt);
/* out[r * n + i]: the stable sorting permutation of each row (ties keep index order, -0.0 ties
 * +0.0, NaNs tie and come last) */
void kn_rt_argsort(const void *data, int64_t n, int64_t rows, int32_t dt, int64_t *out);
/* data sorted by kn_rt_sort: its distinct values moved to the front, their count returned; NaNs
 * are one value (complex: any NaN part), kept as the first of them */
int64_t kn_rt_unique(void *data, int64_t n, int32_t dt);
/* copy an n-d array of item size isz into another of the same shape, byte strides each (0:
 * broadcast); no overlap (runtime/shape.c) */
void kn_rt_copy_nd(char *dst, const int64_t *shape, const int64_t *dstrides, const char *src,
                   const int64_t *sstrides, int32_t ndim, int64_t isz);

/* np.quantile(a, q, method='linear') for each q in [0, 1], n >= 1; scratch is a copy of the data
 * that is reordered. Result as NumPy computes it for an array q (float64 for every dtype; float32
 * input interpolates its float32 difference in float64); any NaN in the data makes every result
 * that NaN. bool: NumPy raises (no boolean subtract), the caller must too. */
void kn_rt_quantiles(void *scratch, int64_t n, int32_t dt, const double *q, int64_t nq,
                     double *out);
/* float32 data and a Python-float q (NumPy's weak scalar: the result is float32) */
void kn_rt_quantiles_f32(void *scratch, int64_t n, const double *q, int64_t nq, float *out);
/* np.median (the mean of the middle one or two), n >= 1: float64 for every dtype but float32,
 * which has kn_rt_median_f32 (float32 arithmetic, as np.mean of float32; kn_rt_median with
 * KN_DT_F32 returns that float32 result widened). Any NaN: that NaN. */
double kn_rt_median(void *scratch, int64_t n, int32_t dt);
float kn_rt_median_f32(void *scratch, int64_t n);

/* np.searchsorted(a, v, side='right' if right else 'left'): a sorted in NumPy's order, v of the
 * same dtype; out has nv entries */
void kn_rt_searchsorted(const void *a, int64_t na, const void *v, int64_t nv, int32_t dt,
                        int32_t right, int64_t *out);
/* np.digitize(x, bins, right): -1 (out unspecified) when bins are not monotonic, else 0.
 * Real dtypes only (NumPy rejects complex x). */
int32_t kn_rt_digitize(const void *x, int64_t nx, const void *bins, int64_t nb, int32_t dt,
                       int32_t right, int64_t *out);
/* np.interp for float64, nxp >= 1, left/right already defaulted to fp[0]/fp[-1] */
void kn_rt_interp(const double *x, int64_t nx, const double *xp, const double *fp, int64_t nxp,
                  double left, double right, double *out);
/* the same with complex128 fp/left/right/out as (real, imag) pairs */
void kn_rt_interp_complex(const double *x, int64_t nx, const double *xp, const double *fp,
                          int64_t nxp, const double *left, const double *right, double *out);
/* np.histogram(a, bins=nbins, range=(lo, hi)) for float64 a, lo < hi finite, nbins >= 1: counts
 * into hist[nbins] (zeroed here) */
void kn_rt_histogram(const double *a, int64_t n, double lo, double hi, int64_t nbins,
                     int64_t *hist);
/* np.histogram with explicit increasing edges: hist[nedges - 1], zeroed here */
void kn_rt_histogram_edges(const double *a, int64_t n, const double *edges, int64_t nedges,
                           int64_t *hist);
/* np.linspace(lo, hi, nbins + 1), bit for bit: edges[nbins + 1] */
void kn_rt_linspace_edges(double lo, double hi, int64_t nbins, double *edges);

/* fancy.c: advanced indexing (a[idx], a[mask], their assignments). base: the view of the
 * basic part of the index, an array struct of bnd axes; advw: 4 words per advanced index (its
 * array struct, ndim, KN_DT_* dtype, base axis | original axis << 16); place: where the
 * broadcast part goes among the free axes. get fills *out (an array struct of ond axes, a new
 * meminfo); set stores value (an array struct of vnd axes of the base's dtype). Both return -1,
 * or the KN_EXC_* to raise with err[0..2] as its arguments. */
int64_t kn_rt_fancy_get(const void *base, int32_t bnd, int64_t isz, const int64_t *advw,
                        int32_t nadv, int32_t place, void *out, int32_t ond, int64_t *err);
int64_t kn_rt_fancy_set(void *base, int32_t bnd, int64_t isz, const int64_t *advw, int32_t nadv,
                        int32_t place, const void *value, int32_t vnd, int64_t *err);
/* np.partition / np.argpartition (select.c): kth (nk values, scratch) normalized for rows of n
 * items and sorted by kn_rt_partition_kth, which returns 0, or -1 with the first normalized value
 * out of bounds in *bad; then every row of data is partitioned in place (NaN last), or out gets
 * each row's partitioning permutation */
int32_t kn_rt_partition_kth(int64_t *kth, int64_t nk, int64_t n, int64_t *bad);
void kn_rt_partition(void *data, int64_t n, int64_t rows, int32_t dt, const int64_t *kth,
                     int64_t nk);
void kn_rt_argpartition(const void *data, int64_t n, int64_t rows, int32_t dt, const int64_t *kth,
                        int64_t nk, int64_t *out);

/* np.unique with return_index/return_inverse/return_counts (sort.c): perm[n] scratch, values[n]
 * of dt gets the distinct values (their count returned), index/inverse/counts (each may be NULL)
 * NumPy's other results */
int64_t kn_rt_unique_all(const void *data, int64_t n, int32_t dt, void *values, int64_t *perm,
                         int64_t *index, int64_t *inverse, int64_t *counts);
/* cumsum (prod 0) or cumprod along the middle axis of a C array (outer, n, inner) of dt, one of
 * KN_DT_I64/U64/F32/F64/C64/C128, in place (sort.c) */
void kn_rt_cumulate(void *data, int64_t outer, int64_t n, int64_t inner, int32_t dt, int32_t prod);
/* np.histogram with weights or density (search.c): hist[nbins] of doubles, zeroed here; the bins
 * are nbins equal ones over [lo, hi] when edges is NULL, else the nedges - 1 given by the
 * increasing edges; w (n weights, or NULL for ones) */
void kn_rt_histogram_weighted(const double *a, int64_t n, double lo, double hi, int64_t nbins,
                              const double *edges, const double *w, double *hist);
/* density: hist[k] / (sum(hist) * (edges[k + 1] - edges[k])) in place */
void kn_rt_histogram_density(double *hist, int64_t nbins, const double *edges);

/* exc.c: the text of a str argument of an exception raised with run-time arguments (slot k) */
void kn_rt_exc_text(int64_t k, const void *str);
const void *kn_rt_exc_text_get(int64_t k, int32_t *kind, int64_t *length);
/* raise ... from e: keep e (a KnExcInfo and its texts), read it back, swap its texts in */
void kn_rt_exc_keep_cause(const void *info);
void kn_rt_exc_cause(void *info);
void kn_rt_exc_swap_texts(void);

/* datetime.c: months since 1970-01 to days since 1970-01-01 (the month's first day), and a
 * day to its month (np.datetime64's calendar conversions) */
int64_t kn_rt_datetime_months_to_days(int64_t months);
int64_t kn_rt_datetime_days_to_months(int64_t days);

/* float16.c: float16 conversions (the JIT's __truncdfhf2, __truncsfhf2, __extendhfsf2) */
_Float16 kn_rt_f16_from_f64(double x);
_Float16 kn_rt_f16_from_f32(float x);
float kn_rt_f16_to_f32(_Float16 h);

#endif
