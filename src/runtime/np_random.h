/* np_random.h - np.random in compiled code (np_random.c, np_random_discrete.c): the kinds of
 * draw that lowering asks for, and the entry points compiled code calls.
 *
 * A draw takes its parameters as doubles (dp) and int64s (ip), both read per kind; every entry
 * that can fail returns 0 or the index of the exception to raise (KN_EXC_NPR_* in runtime.h,
 * NumPy's own ValueError or OverflowError), having checked the parameters before any draw, as
 * NumPy does. The state is MT19937 per thread, seeded as NumPy's legacy RandomState. */
#ifndef KN_RUNTIME_NP_RANDOM_H
#define KN_RUNTIME_NP_RANDOM_H

#include <stdint.h>

/* what kn_rt_npr_fill draws: doubles up to KN_NPR__INT, int64s after it */
enum {
    KN_NPR_RANDOM,      /* random_sample, rand, random */
    KN_NPR_STD_NORMAL,  /* standard_normal, randn */
    KN_NPR_NORMAL,      /* (loc, scale) */
    KN_NPR_UNIFORM,     /* (low, high) */
    KN_NPR_STD_EXP,     /* standard_exponential */
    KN_NPR_EXPONENTIAL, /* (scale) */
    KN_NPR_STD_GAMMA,   /* (shape) */
    KN_NPR_GAMMA,       /* (shape, scale) */
    KN_NPR_BETA,        /* (a, b) */
    KN_NPR_CHISQUARE,   /* (df) */
    KN_NPR_NONCENTRAL_CHISQUARE,
    KN_NPR_F,          /* (dfnum, dfden) */
    KN_NPR_STANDARD_T, /* (df) */
    KN_NPR_LOGNORMAL,  /* (mean, sigma) */
    KN_NPR_LAPLACE,    /* (loc, scale) */
    KN_NPR_LOGISTIC,
    KN_NPR_GUMBEL,
    KN_NPR_WEIBULL, /* (a) */
    KN_NPR_PARETO,
    KN_NPR_POWER,
    KN_NPR_RAYLEIGH,   /* (scale) */
    KN_NPR_TRIANGULAR, /* (left, mode, right) */
    KN_NPR_VONMISES,   /* (mu, kappa) */
    KN_NPR_WALD,       /* (mean, scale) */
    KN_NPR_STD_CAUCHY,
    KN_NPR__INT,
    KN_NPR_RANDINT,           /* ip: low, high, one argument given */
    KN_NPR_BINOMIAL,          /* ip[0] n, dp[1] p */
    KN_NPR_POISSON,           /* (lam) */
    KN_NPR_GEOMETRIC,         /* (p) */
    KN_NPR_HYPERGEOMETRIC,    /* ip: ngood, nbad, nsample */
    KN_NPR_LOGSERIES,         /* (p) */
    KN_NPR_NEGATIVE_BINOMIAL, /* (n, p) */
    KN_NPR_ZIPF,              /* (a) */
};

/* the state np_random.c keeps per thread, and its draws (for np_random_discrete.c) */
typedef struct KnNpr KnNpr;
KnNpr *kn_npr_state(void);
uint32_t kn_npr_next32(KnNpr *s);
uint64_t kn_npr_next64(KnNpr *s);
double kn_npr_double(KnNpr *s);
double kn_npr_gauss(KnNpr *s);
double kn_npr_std_exp(KnNpr *s);
double kn_npr_std_gamma(KnNpr *s, double shape);
double kn_npr_loggam(double x);
int64_t kn_npr_poisson(KnNpr *s, double lam);
int64_t kn_npr_binomial(KnNpr *s, double p, int64_t n);
uint64_t kn_npr_interval(KnNpr *s, uint64_t max);
/* shared by choice's two forms: Kahan's sum of n doubles at p (stride in bytes), the cumulative
 * sums of p[0..n) divided by the last into cdf, searchsorted(cdf, u, side='right') */
double kn_npr_kahan_sum(const char *p, int64_t n, int64_t stride);
void kn_npr_make_cdf(double *cdf, const double *p, int64_t n);
int64_t kn_npr_search_right(const double *cdf, int64_t n, double u);
/* choice without replacement with probabilities p (changed in place): NumPy's loop of redraws */
int32_t kn_npr_choice_p_unique(double (*draw)(void *ctx), void *ctx, double *p, int64_t pop,
                               int64_t *idx, int64_t n);
int32_t kn_npr_check_discrete(int kind, const double *dp, const int64_t *ip);
int64_t kn_npr_discrete(KnNpr *s, int kind, const double *dp, const int64_t *ip);

/* np.random.seed(s): 0, or KN_EXC_NPR_SEED outside [0, 2**32); seed() reseeds from the OS */
int32_t kn_rt_npr_seed(int64_t seed);
void kn_rt_npr_seed_os(void);
/* n draws of `kind` into out (doubles or int64s): 0 or an exception index */
int32_t kn_rt_npr_fill(int32_t kind, const double *dp, const int64_t *ip, void *out, int64_t n);
/* one draw of the commonest kinds, for scalar calls in loops */
double kn_rt_npr_random(void);
double kn_rt_npr_normal(double loc, double scale);
/* shuffle the first axis of an array in place (legacy RandomState.shuffle's draws) */
void kn_rt_npr_shuffle(char *data, int64_t ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize);
/* 0, 1, ..., n-1 shuffled into out (permutation(n)) */
void kn_rt_npr_permutation(int64_t *out, int64_t n);
/* choice(a, size, replace, p): pop items (a's data with stride, or indices when data is NULL),
 * p NULL or pn doubles with stride pstride; n results into out (items of itemsize bytes) */
int32_t kn_rt_npr_choice(int64_t pop, const char *data, int64_t stride, int64_t itemsize,
                         const char *p, int64_t pn, int64_t pstride, int64_t replace, char *out,
                         int64_t n, int64_t given_int);
/* multinomial(n, pvals) count times into out (count * k int64s) */
int32_t kn_rt_npr_multinomial(int64_t n, const char *p, int64_t k, int64_t pstride, int64_t *out,
                              int64_t count);
/* dirichlet(alpha) count times into out (count * k doubles) */
int32_t kn_rt_npr_dirichlet(const char *alpha, int64_t k, int64_t astride, double *out,
                            int64_t count);


/* np.random.Generator (np_random_gen.c): NumPy's bitgen_t, read from the bit generator's
 * capsule, whose functions the draws call so that the Python object's state moves */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} KnBitGen;

enum { /* what kn_rt_npg_fill draws */
       KN_NPG_RANDOM,
       KN_NPG_STD_NORMAL,
       KN_NPG_NORMAL,  /* (loc, scale) */
       KN_NPG_UNIFORM, /* (low, high) */
       KN_NPG_STD_EXP,
       KN_NPG_EXPONENTIAL, /* (scale) */
       KN_NPG__INT,
       KN_NPG_INTEGERS, /* ip: low, high, one argument given, endpoint */
};
int32_t kn_rt_npg_fill(KnBitGen *g, int32_t kind, const double *dp, const int64_t *ip, void *out,
                       int64_t n);
void kn_rt_npg_shuffle(KnBitGen *g, char *data, int64_t ndim, const int64_t *shape,
                       const int64_t *strides, int64_t itemsize);
void kn_rt_npg_permutation(KnBitGen *g, int64_t *out, int64_t n);
int32_t kn_rt_npg_choice(KnBitGen *g, int64_t pop, const char *data, int64_t stride,
                         int64_t itemsize, const char *p, int64_t pn, int64_t pstride,
                         int64_t replace, char *out, int64_t n, int64_t given_int, int64_t shuffle);

#endif
