/* module.c - PyInit for kiln._core: creates the module state (type table, JIT with the runtime's
 * symbols, exception table with the fixed entries compiled code raises) and exposes the
 * Dispatcher type and the small functions of docs/core-api.md. The only file that sees every
 * stage. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define PY_ARRAY_UNIQUE_SYMBOL kn_ARRAY_API
#include <numpy/arrayobject.h>

#include "dispatch/dispatch.h"
#include "jit/jit.h"
#include "runtime/list.h"
#include "runtime/dict.h"
#include "runtime/runtime.h"
#include "runtime/np_random.h"
#include "runtime/str.h"
#include "runtime/str_methods.h"
#include "runtime/linalg.h"
#include "parallel/pool.h"
#include "ufunc/gufunc.h"
#include "ufunc/ufunc.h"

#ifndef KN_LLVM_LINKAGE
#define KN_LLVM_LINKAGE "unknown"
#endif

PyMODINIT_FUNC PyInit__core(void);

KnState *kn_state; /* the one module state: static types and runtime callbacks reach it here */

/* The fixed exception table entries: CPython's own exception for each operation, so messages
 * match the interpreter's version exactly. */
static int
fixed_exceptions(PyObject *table)
{
    static const char *const code[KN_EXC__FIXED] = {
        [KN_EXC_INT_FLOORDIV_ZERO] = "1 // 0",
        [KN_EXC_INT_MOD_ZERO] = "1 % 0",
        [KN_EXC_TRUEDIV_ZERO] = "1 / 0",
        [KN_EXC_FLOAT_DIV_ZERO] = "1.0 / 0.0",
        [KN_EXC_FLOAT_FLOORDIV_ZERO] = "1.0 // 0.0",
        [KN_EXC_FLOAT_MOD_ZERO] = "1.0 % 0.0",
        [KN_EXC_COMPLEX_DIV_ZERO] = "1j / 0j",
        [KN_EXC_NEG_POW] = NULL,
        [KN_EXC_NEG_SHIFT] = "1 << -1",
        [KN_EXC_RANGE_STEP_ZERO] = "range(0, 1, 0)",
        [KN_EXC_TUPLE_INDEX] = "(1,)[5]",
        [KN_EXC_RANGE_INDEX] = "range(1)[5]",
        [KN_EXC_STR_INDEX] = "'a'[5]",
        [KN_EXC_CHR_RANGE] = "chr(-1)",
        [KN_EXC_POW_MOD_ZERO] = "pow(1, 2, 0)",
        [KN_EXC_ISQRT_NEG] = "__import__('math').isqrt(-1)",
        [KN_EXC_FLOAT_DIVMOD_ZERO] = "divmod(1.0, 0.0)",
        [KN_EXC_ARRAY_INDEX] = NULL,
        [KN_EXC_NEGATIVE_DIMS] = "__import__('numpy').empty(-1)",
        [KN_EXC_NO_MEMORY] = "(_ for _ in ()).throw(MemoryError())",
        [KN_EXC_BROADCAST] = NULL,
        [KN_EXC_EMPTY_REDUCTION] = "__import__('numpy').zeros(0).min()",
        [KN_EXC_SLICE_STEP_ZERO] = "(1, 2)[::0]",
        [KN_EXC_EMPTY_ARG_REDUCTION] = "__import__('numpy').zeros(0).argmin()",
        [KN_EXC_UNPACK] = NULL,
        [KN_EXC_RESHAPE] = NULL,
        [KN_EXC_SETITEM_SHAPE] = NULL,
        [KN_EXC_FLOAT_INF_INT] = "int(float('inf'))",
        [KN_EXC_ARRAY_TRUTH] = "bool(__import__('numpy').ones(2))",
        [KN_EXC_ARRAY_TRUTH_EMPTY] = "bool(__import__('numpy').ones(0))",
        [KN_EXC_FMT_SINGLE_RBRACE] = "'}'.format()",
        [KN_EXC_FMT_SINGLE_LBRACE] = "'{'.format()",
        [KN_EXC_FMT_END] = "'{0'.format(1)",
        [KN_EXC_FMT_UNMATCHED] = "'{0:{'.format(1)",
        [KN_EXC_FMT_TO_AUTO] = "'{0}{}'.format(1, 2)",
        [KN_EXC_FMT_TO_MANUAL] = "'{}{0}'.format(1, 2)",
        [KN_EXC_FMT_INDEX] = NULL,
        [KN_EXC_FMT_FIELD_ACCESS] = NULL,
        [KN_EXC_FMT_CONVERSION] = NULL,
        [KN_EXC_FMT_END_CONVERSION] = "'{!'.format(1)",
        [KN_EXC_FMT_AFTER_CONVERSION] = "'{!rx}'.format(1)",
        [KN_EXC_FMT_RECURSION] = "'{:{:{}}}'.format(1, 2, 3)",
        [KN_EXC_FLOAT_NAN_INT] = "int(float('nan'))",
        [KN_EXC_FLOAT_INT_RANGE] = NULL,
        [KN_EXC_ZERO_NEG_POW] = "0.0 ** -1.0",
        [KN_EXC_COMPLEX_ZERO_POW] = "0j ** -1",
        [KN_EXC_ARRAY_TOO_BIG] = "__import__('numpy').empty(2**62, 'i8')",
        [KN_EXC_ARANGE_NAN] = "__import__('numpy').arange(0.0, float('nan'))",
        [KN_EXC_ARANGE_SIZE] = "__import__('numpy').arange(0.0, float('inf'))",
        [KN_EXC_LINSPACE_NUM] = NULL,
        [KN_EXC_INT_BOUNDS_I8] = NULL,
        [KN_EXC_INT_BOUNDS_I16] = NULL,
        [KN_EXC_INT_BOUNDS_I32] = NULL,
        [KN_EXC_INT_BOUNDS_U8] = NULL,
        [KN_EXC_INT_BOUNDS_U16] = NULL,
        [KN_EXC_INT_BOUNDS_U32] = NULL,
        [KN_EXC_INT_BOUNDS_U64] = NULL,
        [KN_EXC_RECURSION] = NULL,
        [KN_EXC_INTERRUPT] = NULL,
        [KN_EXC_EMPTY_REDUCTION_MAX] = "__import__('numpy').zeros(0).max()",
        [KN_EXC_EMPTY_ARG_REDUCTION_MAX] = "__import__('numpy').zeros(0).argmax()",
        [KN_EXC_ROUND_OVERFLOW] = "round(1.7976931348623157e308, -308)",
        [KN_EXC_ARANGE_BOOL] = "__import__('numpy').arange(3, dtype=bool)",
        [KN_EXC_QUANTILE_EMPTY] = "__import__('numpy').zeros(0)[-1]",
        [KN_EXC_LIST_INDEX] = "[][0]",
        [KN_EXC_LIST_ASSIGN_INDEX] = "[].__setitem__(0, 0)",
        [KN_EXC_LIST_POP_EMPTY] = "[].pop()",
        [KN_EXC_LIST_POP_INDEX] = "[1].pop(5)",
        [KN_EXC_LIST_REMOVE] = "[].remove(0)",
        [KN_EXC_LIST_MIN_EMPTY] = "min([])",
        [KN_EXC_LIST_MAX_EMPTY] = "max([])",
        [KN_EXC_POPITEM_EMPTY] = "{}.popitem()",
        [KN_EXC_SET_POP_EMPTY] = "set().pop()",
        [KN_EXC_RANDRANGE_EMPTY] = "__import__('random').randrange(0)",
        [KN_EXC_RANDRANGE_STEP] = "__import__('random').randrange(0, 1, 0)",
        [KN_EXC_CHOICE_EMPTY] = "__import__('random').choice([])",
        [KN_EXC_GETRANDBITS] = NULL,
        /* np.random (runtime/np_random.c): NumPy's own exceptions, raised before any draw */
        [KN_EXC_NPR_SCALE] = "__import__('numpy').random.normal(0, -1)",
        [KN_EXC_NPR_SHAPE] = "__import__('numpy').random.gamma(-1)",
        [KN_EXC_NPR_A_POS] = "__import__('numpy').random.beta(0, 1)",
        [KN_EXC_NPR_B_POS] = "__import__('numpy').random.beta(1, 0)",
        [KN_EXC_NPR_N_NEG] = "__import__('numpy').random.binomial(-1, 0.5)",
        [KN_EXC_NPR_P_01] = "__import__('numpy').random.binomial(1, 2.0)",
        [KN_EXC_NPR_LAM] = "__import__('numpy').random.poisson(-1.0)",
        [KN_EXC_NPR_LAM_BIG] = "__import__('numpy').random.poisson(1e19)",
        [KN_EXC_NPR_P_GT0] = "__import__('numpy').random.geometric(0.0)",
        [KN_EXC_NPR_DF] = "__import__('numpy').random.chisquare(0.0)",
        [KN_EXC_NPR_SIGMA] = "__import__('numpy').random.lognormal(0, -1)",
        [KN_EXC_NPR_A_NEG] = "__import__('numpy').random.weibull(-1.0)",
        [KN_EXC_NPR_LEFT_MODE] = "__import__('numpy').random.triangular(1, 0, 2)",
        [KN_EXC_NPR_MODE_RIGHT] = "__import__('numpy').random.triangular(0, 3, 2)",
        [KN_EXC_NPR_LEFT_RIGHT] = "__import__('numpy').random.triangular(1, 1, 1)",
        [KN_EXC_NPR_DFNUM] = "__import__('numpy').random.f(0, 1)",
        [KN_EXC_NPR_DFDEN] = "__import__('numpy').random.f(1, 0)",
        [KN_EXC_NPR_NGOOD] = "__import__('numpy').random.hypergeometric(-1, 5, 1)",
        [KN_EXC_NPR_NBAD] = "__import__('numpy').random.hypergeometric(5, -1, 1)",
        [KN_EXC_NPR_NSAMPLE] = "__import__('numpy').random.hypergeometric(1, 1, 0)",
        [KN_EXC_NPR_HYPER_SUM] = "__import__('numpy').random.hypergeometric(1, 1, 3)",
        [KN_EXC_NPR_P_LT1] = "__import__('numpy').random.logseries(1.0)",
        [KN_EXC_NPR_N_POS] = "__import__('numpy').random.negative_binomial(0, 0.5)",
        [KN_EXC_NPR_NONC] = "__import__('numpy').random.noncentral_chisquare(1, -1)",
        [KN_EXC_NPR_KAPPA] = "__import__('numpy').random.vonmises(0, -1)",
        [KN_EXC_NPR_MEAN_POS] = "__import__('numpy').random.wald(0, 1)",
        [KN_EXC_NPR_SCALE_POS] = "__import__('numpy').random.wald(1, 0)",
        [KN_EXC_NPR_ZIPF] = "__import__('numpy').random.zipf(1.0)",
        [KN_EXC_NPR_HIGH] = "__import__('numpy').random.randint(0)",
        [KN_EXC_NPR_LOW_HIGH] = "__import__('numpy').random.randint(5, 3)",
        [KN_EXC_NPR_RANGE] = "__import__('numpy').random.uniform(0, float('inf'))",
        [KN_EXC_NPR_SEED] = "__import__('numpy').random.RandomState(-1)",
        [KN_EXC_NPR_ALPHA] = "__import__('numpy').random.dirichlet([1.0, 0.0])",
        [KN_EXC_NPR_PVALS_SUM] = "__import__('numpy').random.multinomial(3, [0.7, 0.7, 0.1])",
        [KN_EXC_NPR_PVALS] = "__import__('numpy').random.multinomial(3, [-0.1, 0.7, 0.1])",
        [KN_EXC_NPR_CHOICE_A_INT] = "__import__('numpy').random.choice(0)",
        [KN_EXC_NPR_CHOICE_A_EMPTY] =
            "__import__('numpy').random.choice(__import__('numpy').zeros(0))",
        [KN_EXC_NPR_CHOICE_LARGER] = "__import__('numpy').random.choice(3, 5, False)",
        [KN_EXC_NPR_CHOICE_P_SIZE] = "__import__('numpy').random.choice(3, 2, True, [0.5, 0.5])",
        [KN_EXC_NPR_CHOICE_P_NEG] =
            "__import__('numpy').random.choice(3, 2, True, [0.5, 0.6, -0.1])",
        [KN_EXC_NPR_CHOICE_P_SUM] =
            "__import__('numpy').random.choice(3, 2, True, [0.5, 0.6, 0.1])",
        [KN_EXC_NPR_CHOICE_P_NAN] =
            "__import__('numpy').random.choice(3, 2, True, [0.5, float('nan'), 0.1])",
        [KN_EXC_NPR_CHOICE_FEWER] =
            "__import__('numpy').random.choice(3, 3, False, [0.5, 0.5, 0.0])",
        [KN_EXC_NPR_CHOICE_NEG_DIMS] = "__import__('numpy').random.choice(3, -1, False)",
        /* np.random.Generator (runtime/np_random_gen.c): its own messages */
        [KN_EXC_NPG_RANGE] = "__import__('numpy').random.default_rng(0).uniform(0, float('inf'))",
        [KN_EXC_NPG_LOW_GT_HIGH] =
            "__import__('numpy').random.default_rng(0).integers(4, 3, endpoint=True)",
        [KN_EXC_NPG_CHOICE_LARGER] =
            "__import__('numpy').random.default_rng(0).choice(3, 5, replace=False)",
        [KN_EXC_NPG_CHOICE_A_INT] = "__import__('numpy').random.default_rng(0).choice(0)",
        [KN_EXC_NPG_CHOICE_A_EMPTY] =
            "__import__('numpy').random.default_rng(0).choice(__import__('numpy').zeros(0))",
        [KN_EXC_NPG_CHOICE_P_SIZE] =
            "__import__('numpy').random.default_rng(0).choice(3, 2, p=[0.5, 0.5])",
        [KN_EXC_NPG_CHOICE_P_NEG] =
            "__import__('numpy').random.default_rng(0).choice(3, 2, p=[0.5, 0.6, -0.1])",
        [KN_EXC_NPG_CHOICE_P_SUM] =
            "__import__('numpy').random.default_rng(0).choice(3, 2, p=[0.5, 0.6, 0.1])",
        [KN_EXC_NPG_CHOICE_P_NAN] =
            "__import__('numpy').random.default_rng(0).choice(3, 2, p=[0.5, float('nan'), 0.1])",
        [KN_EXC_NPG_CHOICE_FEWER] = "__import__('numpy').random.default_rng(0).choice(3, 3, "
                                    "replace=False, p=[0.5, 0.5, 0.0])",
        [KN_EXC_NPG_CHOICE_NEG_DIMS] =
            "__import__('numpy').random.default_rng(0).choice(3, -1, replace=False)",
        [KN_EXC_NPG_UNIFORM_NEG] = "__import__('numpy').random.default_rng(0).uniform(1, 0)",
    };
    for (int i = 0; i < KN_EXC__FIXED; i++) {
        PyObject *entry;
        if (!code[i]) {
            /* messages of our own (NumPy's carry the shapes, which these do not know yet) */
            const struct {
                int index;
                PyObject *cls;
                const char *message;
            } own[] = {
                {KN_EXC_NEG_POW, PyExc_ValueError,
                 "Integers to negative integer powers are not allowed."},
                {KN_EXC_OPTIONAL_NONE, PyExc_TypeError,
                 "expected a value, got None (an optional value is None here)"},
                {KN_EXC_RESHAPE, PyExc_ValueError,
                 "cannot reshape array: the new shape has a different size"},
                {KN_EXC_SETITEM_SHAPE, PyExc_ValueError,
                 "could not broadcast input array into the assigned shape"},
                {KN_EXC_BROADCAST, PyExc_ValueError, "operands could not be broadcast together"},
                {KN_EXC_ARRAY_INDEX, PyExc_IndexError,
                 "index {} is out of bounds for axis {} with size {}"},
                /* advanced indexing (runtime/fancy.c): NumPy's texts, less the shapes */
                {KN_EXC_FANCY_MASK_SHAPE, PyExc_IndexError,
                 "boolean index did not match indexed array along axis {}; size of axis is {} "
                 "but size of corresponding boolean axis is {}"},
                {KN_EXC_FANCY_BROADCAST, PyExc_IndexError,
                 "shape mismatch: indexing arrays could not be broadcast together"},
                {KN_EXC_FANCY_VALUE_SHAPE, PyExc_ValueError,
                 "shape mismatch: value array could not be broadcast to indexing result"},
                {KN_EXC_FANCY_MASK_VALUE, PyExc_ValueError,
                 "NumPy boolean array indexing assignment cannot assign {} input values to the "
                 "{} output values where the mask is true"},
                {KN_EXC_UNPACK, PyExc_ValueError, "expected {} values to unpack, got {}"},
                {KN_EXC_FLOAT_INT_RANGE, PyExc_OverflowError,
                 "float too large to convert to a 64-bit integer"},
                {KN_EXC_LINSPACE_NUM, PyExc_ValueError,
                 "Number of samples, {}, must be non-negative."},
                {KN_EXC_INT_BOUNDS_I8, PyExc_OverflowError,
                 "Python integer {} out of bounds for int8"},
                {KN_EXC_INT_BOUNDS_I16, PyExc_OverflowError,
                 "Python integer {} out of bounds for int16"},
                {KN_EXC_INT_BOUNDS_I32, PyExc_OverflowError,
                 "Python integer {} out of bounds for int32"},
                {KN_EXC_INT_BOUNDS_U8, PyExc_OverflowError,
                 "Python integer {} out of bounds for uint8"},
                {KN_EXC_INT_BOUNDS_U16, PyExc_OverflowError,
                 "Python integer {} out of bounds for uint16"},
                {KN_EXC_INT_BOUNDS_U32, PyExc_OverflowError,
                 "Python integer {} out of bounds for uint32"},
                {KN_EXC_INT_BOUNDS_U64, PyExc_OverflowError,
                 "Python integer {} out of bounds for uint64"},
                /* the sorting family (lower/sorting.c): NumPy's messages */
                {KN_EXC_QUANTILE_RANGE, PyExc_ValueError, "Quantiles must be in the range [0, 1]"},
                {KN_EXC_PERCENTILE_RANGE, PyExc_ValueError,
                 "Percentiles must be in the range [0, 100]"},
                {KN_EXC_DIGITIZE_BINS, PyExc_ValueError,
                 "bins must be monotonically increasing or decreasing"},
                {KN_EXC_INTERP_EMPTY, PyExc_ValueError, "array of sample points is empty"},
                {KN_EXC_INTERP_LENGTH, PyExc_ValueError, "fp and xp are not of the same length."},
                {KN_EXC_HIST_BINS, PyExc_ValueError, "`bins` must be positive, when an integer"},
                {KN_EXC_HIST_RANGE, PyExc_ValueError,
                 "max must be larger than min in range parameter."},
                /* NumPy's messages print the two bounds, which these cannot */
                {KN_EXC_HIST_RANGE_FINITE, PyExc_ValueError, "supplied range is not finite"},
                {KN_EXC_HIST_AUTO_FINITE, PyExc_ValueError,
                 "autodetected range of the data is not finite"},
                {KN_EXC_HIST_EDGES, PyExc_ValueError,
                 "`bins` must increase monotonically, when an array"},
                /* lists (lower/list.c): CPython's text, the value when it is an int */
                {KN_EXC_LIST_NOT_IN, PyExc_ValueError, "{} is not in list"},
                {KN_EXC_LIST_NOT_IN_VALUE, PyExc_ValueError, "value is not in list"},
                {KN_EXC_LIST_SLICE_SIZE, PyExc_ValueError,
                 "attempt to assign sequence of size {} to extended slice of size {}"},
                /* str (lower/str.c); the literal's repr is put in by the dispatcher */
                {KN_EXC_ORD_LENGTH, PyExc_TypeError,
                 "ord() expected a character, but string of length {} found"},
                {KN_EXC_INT_LITERAL, PyExc_ValueError,
                 "invalid literal for int() with base 10: {}"},
                {KN_EXC_FLOAT_LITERAL, PyExc_ValueError, "could not convert string to float: {}"},
                {KN_EXC_STR_INT_RANGE, PyExc_OverflowError,
                 "int() of a str: the value does not fit in a 64-bit integer"},
                /* str methods and formatting (lower/str_methods.c) */
                {KN_EXC_STR_NOT_FOUND, PyExc_ValueError, "substring not found"},
                {KN_EXC_STR_EMPTY_SEP, PyExc_ValueError, "empty separator"},
                {KN_EXC_STR_FILL, PyExc_TypeError,
                 "The fill character must be exactly one character long"},
                {KN_EXC_FORMAT_SPEC, PyExc_ValueError, "Invalid format specifier"},
                {KN_EXC_FORMAT_CODE, PyExc_ValueError,
                 "Unknown format code for this type of value"},
                {KN_EXC_FORMAT_OPTION, PyExc_ValueError,
                 "format spec option not allowed for this type of value (sign, '=', '#', "
                 "grouping or precision)"},
                /* CPython's text; kiln's limit is the thread's stack (docs/internals.md) */
                {KN_EXC_RECURSION, PyExc_RecursionError, "maximum recursion depth exceeded"},
                /* only used when Python's SIGINT handler itself raised nothing */
                {KN_EXC_INTERRUPT, PyExc_KeyboardInterrupt, ""},
                /* dicts and sets (lower/dict.c): the key is put back in by raise_from_table */
                {KN_EXC_KEY_ERROR, PyExc_KeyError, ""},
                {KN_EXC_DICT_CHANGED, PyExc_RuntimeError,
                 "dictionary changed size during iteration"},
                {KN_EXC_SET_CHANGED, PyExc_RuntimeError, "Set changed size during iteration"},
                /* s.format() of a run-time format string (runtime/str_format_args.c) */
                {KN_EXC_FMT_INDEX, PyExc_IndexError,
                 "Replacement index {} out of range for positional args tuple"},
                {KN_EXC_FMT_FIELD_ACCESS, PyExc_ValueError,
                 "kiln: a field with attribute or index access (as 0[1] or 0.x) needs a "
                 "literal format string"},
                {KN_EXC_FMT_CONVERSION, PyExc_ValueError, "Unknown conversion specifier"},
                /* random.getrandbits (lower/random.c): CPython's text for k < 0; kiln's
                 * results are int64, so more than 64 bits is refused the same way */
                {KN_EXC_GETRANDBITS, PyExc_ValueError,
                 "number of bits must be non-negative (and at most 64 in compiled code)"},
                /* the sorting family (lower/sorting.c): NumPy's messages */
                {KN_EXC_PARTITION_KTH, PyExc_ValueError, "kth(={}) out of bounds ({})"},
                {KN_EXC_SORTER_BOUNDS, PyExc_ValueError, "Sorter index out of range."},
                {KN_EXC_SORTER_SIZE, PyExc_ValueError, "sorter.size must equal a.size"},
                /* the thread API in compiled code (lower/threads.c): Numba's messages */
                {KN_EXC_NUM_THREADS, PyExc_ValueError,
                 "The number of threads must be between 1 and {}"},
                {KN_EXC_CHUNKSIZE_NEG, PyExc_ValueError,
                 "chunksize must be greater than or equal to zero"},
                {KN_EXC_HIST_WEIGHTS, PyExc_ValueError, "weights should have the same shape as a."},
                /* e.args in an except clause (lower/caught.c): its one static type */
                {KN_EXC_CAUGHT_ARGS, PyExc_TypeError,
                 "kiln: e.args of a caught exception is supported when the exception holds "
                 "one str argument (use str(e))"},
                {KN_EXC_FROMBUFFER_OFFSET, PyExc_ValueError,
                 "offset must be non-negative and no greater than buffer length ({})"},
                {KN_EXC_FROMBUFFER_MULTIPLE, PyExc_ValueError,
                 "buffer size must be a multiple of element size"},
                {KN_EXC_FROMBUFFER_SHORT, PyExc_ValueError,
                 "buffer is smaller than requested size"},
            };
            const char *msg = "error in compiled code";
            PyObject *cls = PyExc_ValueError;
            for (int k = 0; k < KN_ARRAY_LEN(own); k++)
                if (own[k].index == i) {
                    msg = own[k].message;
                    cls = own[k].cls;
                }
            entry = *msg ? Py_BuildValue("(O(s))", cls, msg) : Py_BuildValue("(O())", cls);
        } else {
            /* the expression itself: kn_dispatch_exc_entry evaluates it when the entry is
             * first used (evaluating the ~130 of them here cost _core's load about 15 ms) */
            entry = PyUnicode_FromString(code[i]);
        }
        if (!entry || PyList_Append(table, entry) < 0) {
            Py_XDECREF(entry);
            return -1;
        }
        Py_DECREF(entry);
    }
    return 0;
}

/* The thread pool's GIL hooks: a region entered by a thread that holds the GIL releases it
 * while the region runs (a worker that needs the GIL, to print, can take it) */
static void *
par_gil_release(void)
{
    return PyGILState_Check() ? (void *)PyEval_SaveThread() : NULL;
}

static void
par_gil_acquire(void *token)
{
    if (token)
        PyEval_RestoreThread((PyThreadState *)token);
}

static int
register_runtime(KnJit *jit, char **err)
{
    static const KnJitSymbol syms[] = {
#define X(name) {#name, (void *)name},
#include "runtime/symbols.def"
#include "parallel/symbols.def"
#undef X
        {"kn_rt_print", (void *)kn_rt_print},
        {"kn_rt_exc_match_late", (void *)kn_rt_exc_match_late},
        {"kn_rt_exc_caught_text", (void *)kn_rt_exc_caught_text},
        {"kn_rt_interrupt_flag", (void *)&kn_rt_interrupt_flag},
        {"__truncdfhf2", (void *)kn_rt_f16_from_f64}, /* float16 (runtime/float16.c) */
        {"__truncsfhf2", (void *)kn_rt_f16_from_f32},
        {"__extendhfsf2", (void *)kn_rt_f16_to_f32},
    };
    return kn_jit_define_symbols(jit, syms, KN_ARRAY_LEN(syms), err);
}

static PyObject *
core_typeof(PyObject *self, PyObject *o)
{
    KN_UNUSED(self);
    KnType *t = kn_box_typeof(kn_state, o);
    if (!t) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "cannot determine kiln type of %R", o);
        return NULL;
    }
    return kn_box_key(t);
}

static PyObject *
core_memory_stats(PyObject *self, PyObject *unused)
{
    KN_UNUSED(self);
    KN_UNUSED(unused);
    KnRtStats st;
    kn_rt_stats(&st);
    return Py_BuildValue("{sLsLsLsL}", "alloc", (long long)st.alloc, "free", (long long)st.free,
                         "mi_alloc", (long long)st.mi_alloc, "mi_free", (long long)st.mi_free);
}

static PyObject *
core_llvm_info(PyObject *self, PyObject *unused)
{
    KN_UNUSED(self);
    KN_UNUSED(unused);
    const KnTarget *t = kn_state->jit ? kn_state->jit->target : NULL;
    return Py_BuildValue("{ssssssssssssss}", "version", kn_jit_llvm_version(), "linkage",
                         KN_LLVM_LINKAGE, "cpu", t ? t->cpu : "", "features", t ? t->features : "",
                         "triple", t ? t->triple : "", "datalayout", t ? t->datalayout : "",
                         "target", t ? t->name : "");
}

static PyMethodDef core_methods[] = {
    {"typeof", core_typeof, METH_O, "the type key of a value"},
    {"memory_stats", core_memory_stats, METH_NOARGS, "runtime allocation counters"},
    {"llvm_info", core_llvm_info, METH_NOARGS, "LLVM version, linkage and host target"},
    {"_stages", kn_dispatch_stages, METH_VARARGS, "test only: the text of every stage"},
    {"_run_pass", kn_dispatch_run_pass, METH_VARARGS,
     "test only: KIR text -> typing and one pass -> typed KIR text"},
    {"_read_kir", kn_dispatch_read_kir, METH_VARARGS, "test only: KIR text, read and printed"},
    {"_linalg_load", kn_dispatch_linalg_load, METH_VARARGS, "BLAS/LAPACK pointers from SciPy"},
    {"_threads", kn_dispatch_threads, METH_VARARGS, "the thread pool's thread API"},
    {"_pool_probe", kn_dispatch_pool_probe, METH_VARARGS, "test only: a region with a C body"},
    {"_pool_bench", kn_dispatch_pool_bench, METH_VARARGS, "bench only: timed C regions"},
    {"_gufunc", kn_ufunc_gufunc_new, METH_VARARGS, "a NumPy gufunc over compiled kernels"},
    {"_gufunc_compile", kn_ufunc_gufunc_compile, METH_VARARGS, "compile one gufunc loop now"},
    {"_vectorize_new", kn_ufunc_new, METH_VARARGS, "kiln.vectorize: a ufunc over a loop function"},
    {"_vectorize_add_loop", kn_ufunc_add_loop, METH_VARARGS, "kiln.vectorize: add a loop"},
    {"_vectorize_compile", kn_ufunc_compile, METH_VARARGS, "kiln.vectorize: compile a loop now"},
    {NULL, NULL, 0, NULL},
};

static void
core_free(void *m)
{
    KN_UNUSED(m);
    /* The JIT and the type table live as long as the process: compiled code may outlive the
     * module object during interpreter shutdown. */
}

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "kiln._core",
    "kiln's compiler and runtime",
    -1,
    core_methods,
    NULL,
    NULL,
    NULL,
    core_free,
};

static int
state_init(void)
{
    KnState *s = calloc(1, sizeof(KnState));
    if (!s) {
        PyErr_NoMemory();
        return -1;
    }
    kn_types_init(&s->types);
    s->lock = PyThread_allocate_lock();
    s->exc_table = PyList_New(0);
    if (!s->lock || !s->exc_table || fixed_exceptions(s->exc_table) < 0)
        return -1;
    char *err = NULL;
    s->jit = kn_jit_create(&err);
    if (s->jit && register_runtime(s->jit, &err) < 0) {
        kn_jit_destroy(s->jit);
        s->jit = NULL;
    }
    s->jit_error = err;
    kn_interrupt_install();
    kn_box_str_init();
    kn_box_str_format_init();
    kn_typed_init();
    kn_state = s;
    return 0;
}

PyMODINIT_FUNC
PyInit__core(void)
{
    import_array();
    if (kn_ufunc_init() < 0)
        return NULL;
    if (!kn_state && state_init() < 0)
        return NULL;
    kn_par_set_gil_hooks(par_gil_release, par_gil_acquire);
    if (PyType_Ready(&KnDispatcher_Type) < 0 || PyType_Ready(&KnMemInfoOwner_Type) < 0 ||
        PyType_Ready(&KnTypedList_Type) < 0 || PyType_Ready(&KnTypedDict_Type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&KnDispatcher_Type);
    if (PyModule_AddObject(m, "Dispatcher", (PyObject *)&KnDispatcher_Type) < 0 ||
        PyModule_AddObjectRef(m, "List", (PyObject *)&KnTypedList_Type) < 0 ||
        PyModule_AddObjectRef(m, "Dict", (PyObject *)&KnTypedDict_Type) < 0 ||
        PyModule_AddStringConstant(m, "llvm_linkage", KN_LLVM_LINKAGE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
