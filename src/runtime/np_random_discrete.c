/* np_random_discrete.c - np.random's integer draws, shuffles, choice, multinomial and
 * dirichlet, over np_random.c's per-thread MT19937 state, as NumPy's legacy RandomState draws
 * them.
 *
 * randint is masked rejection (the range's bit mask, one 32-bit output per try when the range
 * fits 32 bits, else a 64-bit output of two, the first the high word); shuffle swaps item i
 * with item random_interval(i) for i from n-1 down to 1 (the same masked rejection); choice
 * is randint, a shuffle's prefix, or the cumulative probabilities searched with random_sample
 * (without replacement: NumPy's loop of redraws over the probabilities left); binomial is
 * inversion for n*min(p, 1-p) <= 30 else BTPE (Kachitvichyanukul and Schmeiser); poisson is
 * multiplication below 10 else PTRS (Hormann); hypergeometric is HYP for samples up to 10
 * else HRUA (Stadlober); loggam is the Stirling series used by PTRS and HRUA. */
#include "runtime/np_random.h"

#include "runtime/runtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

double
kn_npr_loggam(double x)
{
    static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03,
                                 7.936507936507937e-04, -5.952380952380952e-04,
                                 8.417508417508418e-04, -1.917526917526918e-03,
                                 6.410256410256410e-03, -2.955065359477124e-02,
                                 1.796443723688307e-01, -1.39243221690590e+00};
    if (x == 1.0 || x == 2.0)
        return 0.0;
    int64_t n = x < 7.0 ? (int64_t)(7 - x) : 0;
    double x0 = x + (double)n, x2 = (1.0 / x0) * (1.0 / x0);
    double gl0 = a[9];
    for (int k = 8; k >= 0; k--) {
        gl0 *= x2;
        gl0 += a[k];
    }
    double gl = gl0 / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * log(x0) - x0;
    if (x < 7.0)
        for (int64_t k = 1; k <= n; k++) {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    return gl;
}

static uint64_t
mask_of(uint64_t v)
{
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    v |= v >> 32;
    return v;
}

/* uniform in [0, max] by masked rejection */
uint64_t
kn_npr_interval(KnNpr *s, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = mask_of(max), v;
    if (max <= 0xffffffffu) {
        while ((v = (kn_npr_next32(s) & mask)) > max)
            ;
    } else {
        while ((v = (kn_npr_next64(s) & mask)) > max)
            ;
    }
    return v;
}

/* off + a draw in [0, rng], as NumPy's bounded int64 fill */
static int64_t
bounded(KnNpr *s, int64_t off, uint64_t rng)
{
    if (rng == 0)
        return off;
    if (rng == 0xffffffffu)
        return (int64_t)((uint64_t)off + kn_npr_next32(s));
    if (rng == UINT64_MAX)
        return (int64_t)((uint64_t)off + kn_npr_next64(s));
    return (int64_t)((uint64_t)off + kn_npr_interval(s, rng));
}

/* ---- poisson, binomial ---- */

static int64_t
poisson_mult(KnNpr *s, double lam)
{
    double enlam = exp(-lam), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= kn_npr_double(s);
        if (prod > enlam)
            x += 1;
        else
            return x;
    }
}

static int64_t
poisson_ptrs(KnNpr *s, double lam)
{
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b, invalpha = 1.1239 + 1.1328 / (b - 3.4);
    double vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double u = kn_npr_double(s) - 0.5, v = kn_npr_double(s), us = 0.5 - fabs(u);
        int64_t k = (int64_t)floor((2 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr)
            return k;
        if (k < 0 || (us < 0.013 && v > us))
            continue;
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
            -lam + (double)k * loglam - kn_npr_loggam((double)k + 1))
            return k;
    }
}

int64_t
kn_npr_poisson(KnNpr *s, double lam)
{
    if (lam >= 10)
        return poisson_ptrs(s, lam);
    if (lam == 0)
        return 0;
    return poisson_mult(s, lam);
}

static int64_t
binomial_inversion(KnNpr *s, int64_t n, double p)
{
    double q = 1.0 - p, qn = exp((double)n * log(q)), np = (double)n * p;
    double bound = fmin((double)n, np + 10.0 * sqrt(np * q + 1));
    int64_t x = 0;
    double px = qn, u = kn_npr_double(s);
    while (u > px) {
        x++;
        if ((double)x > bound) {
            x = 0;
            px = qn;
            u = kn_npr_double(s);
        } else {
            u -= px;
            px = ((double)(n - x + 1) * p * px) / ((double)x * q);
        }
    }
    return x;
}

/* the series of BTPE's step 5.3 for one of its four terms */
static double
btpe_term(double v)
{
    double v2 = v * v;
    return (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v / 166320.;
}

static int64_t
binomial_btpe(KnNpr *s, int64_t n, double p)
{
    double r = fmin(p, 1.0 - p), q = 1.0 - r, fm = (double)n * r + r;
    int64_t m = (int64_t)floor(fm);
    double p1 = floor(2.195 * sqrt((double)n * r * q) - 4.6 * q) + 0.5;
    double xm = (double)m + 0.5, xl = xm - p1, xr = xm + p1, c = 0.134 + 20.5 / (15.3 + (double)m);
    double a = (fm - xl) / (fm - xl * r), laml = a * (1.0 + a / 2.0);
    a = (xr - fm) / (xr * q);
    double lamr = a * (1.0 + a / 2.0);
    double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
    double nrq = (double)n * r * q;
    int64_t y;
    for (;;) {
        double u = kn_npr_double(s) * p4, v = kn_npr_double(s);
        if (u <= p1) {
            y = (int64_t)floor(xm - p1 * v + u);
            break;
        }
        if (u <= p2) {
            double x = xl + (u - p1) / c;
            v = v * c + 1.0 - fabs((double)m - x + 0.5) / p1;
            if (v > 1.0)
                continue;
            y = (int64_t)floor(x);
        } else if (u <= p3) {
            y = (int64_t)floor(xl + log(v) / laml);
            if (y < 0 || v == 0.0)
                continue;
            v = v * (u - p2) * laml;
        } else {
            y = (int64_t)floor(xr - log(v) / lamr);
            if (y > n || v == 0.0)
                continue;
            v = v * (u - p3) * lamr;
        }
        int64_t k = llabs(y - m);
        if (!(k > 20 && (double)k < nrq / 2.0 - 1)) {
            double sv = r / q, av = sv * (double)(n + 1), f = 1.0;
            if (m < y)
                for (int64_t i = m + 1; i <= y; i++)
                    f *= (av / (double)i - sv);
            else if (m > y)
                for (int64_t i = y + 1; i <= m; i++)
                    f /= (av / (double)i - sv);
            if (v > f)
                continue;
            break;
        }
        double kd = (double)k;
        double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
        double t = (double)(-k * k) / (2 * nrq), al = log(v);
        if (al < t - rho)
            break;
        if (al > t + rho)
            continue;
        double x1 = (double)y + 1, f1 = (double)m + 1, z = (double)n + 1 - (double)m,
               w = (double)n - (double)y + 1;
        if (al > xm * log(f1 / x1) + ((double)n - (double)m + 0.5) * log(z / w) +
                     (double)(y - m) * log(w * r / (x1 * q)) + btpe_term(f1) + btpe_term(z) +
                     btpe_term(x1) + btpe_term(w))
            continue;
        break;
    }
    if (p > 0.5)
        y = n - y;
    return y;
}

int64_t
kn_npr_binomial(KnNpr *s, double p, int64_t n)
{
    if (n == 0 || p == 0.0)
        return 0;
    if (p <= 0.5)
        return p * (double)n <= 30.0 ? binomial_inversion(s, n, p) : binomial_btpe(s, n, p);
    double q = 1.0 - p;
    return n - (q * (double)n <= 30.0 ? binomial_inversion(s, n, q) : binomial_btpe(s, n, q));
}

/* ---- the other discrete distributions ---- */

static int64_t
geometric(KnNpr *s, double p)
{
    if (p >= 0.333333333333333333333333) { /* search */
        int64_t x = 1;
        double sum = p, prod = p, q = 1.0 - p, u = kn_npr_double(s);
        while (u > sum) {
            prod *= q;
            sum += prod;
            x++;
        }
        return x;
    }
    return (int64_t)ceil(log(1.0 - kn_npr_double(s)) / log(1.0 - p));
}

static int64_t
hypergeometric_hyp(KnNpr *s, int64_t good, int64_t bad, int64_t sample)
{
    int64_t d1 = bad + good - sample, k = sample;
    double d2 = (double)(bad < good ? bad : good), y = d2;
    while (y > 0.0) {
        double u = kn_npr_double(s);
        y -= (double)(int64_t)floor(u + y / (double)(d1 + k));
        k--;
        if (k == 0)
            break;
    }
    int64_t z = (int64_t)(d2 - y);
    return good > bad ? sample - z : z;
}

static double
hrua_sum(int64_t z, int64_t mingb, int64_t m, int64_t maxgb)
{
    return kn_npr_loggam((double)(z + 1)) + kn_npr_loggam((double)(mingb - z + 1)) +
           kn_npr_loggam((double)(m - z + 1)) + kn_npr_loggam((double)(maxgb - m + z + 1));
}

static int64_t
hypergeometric_hrua(KnNpr *s, int64_t good, int64_t bad, int64_t sample)
{
    const double D1 = 1.7155277699214135, D2 = 0.8989161620588988;
    int64_t mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
    int64_t popsize = good + bad, m = sample < popsize - sample ? sample : popsize - sample;
    double d4 = (double)mingb / (double)popsize, d5 = 1.0 - d4, d6 = (double)m * d4 + 0.5;
    double d7 =
        sqrt((double)(popsize - m) * (double)sample * d4 * d5 / (double)(popsize - 1) + 0.5);
    double d8 = D1 * d7 + D2;
    int64_t d9 = (int64_t)floor((double)(m + 1) * (double)(mingb + 1) / (double)(popsize + 2));
    double d10 = hrua_sum(d9, mingb, m, maxgb);
    double d11 = fmin((double)(m < mingb ? m : mingb) + 1.0, floor(d6 + 16 * d7));
    int64_t z;
    for (;;) {
        double x = kn_npr_double(s), y = kn_npr_double(s), w = d6 + d8 * (y - 0.5) / x;
        if (w < 0.0 || w >= d11)
            continue;
        z = (int64_t)floor(w);
        double t = d10 - hrua_sum(z, mingb, m, maxgb);
        if (x * (4.0 - x) - 3.0 <= t)
            break;
        if (x * (x - t) >= 1)
            continue;
        if (2.0 * log(x) <= t)
            break;
    }
    if (good > bad)
        z = m - z;
    if (m < sample)
        z = good - z;
    return z;
}

static int64_t
logseries(KnNpr *s, double p)
{
    double r = log(1.0 - p);
    for (;;) {
        double v = kn_npr_double(s);
        if (v >= p)
            return 1;
        double u = kn_npr_double(s), q = 1.0 - exp(r * u);
        if (v <= q * q) {
            int64_t result = (int64_t)floor(1 + log(v) / log(q));
            if (result < 1)
                continue;
            return result;
        }
        return v >= q ? 1 : 2;
    }
}

static int64_t
zipf(KnNpr *s, double a)
{
    double am1 = a - 1.0, b = pow(2.0, am1);
    for (;;) {
        double u = 1.0 - kn_npr_double(s), v = kn_npr_double(s);
        double x = floor(pow(u, -1.0 / am1));
        if (x > (double)INT64_MAX || x < 1.0)
            continue;
        double t = pow(1.0 + 1.0 / x, am1);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b)
            return (int64_t)x;
    }
}

int64_t
kn_npr_discrete(KnNpr *s, int kind, const double *dp, const int64_t *ip)
{
    switch (kind) {
    case KN_NPR_RANDINT:
        return bounded(s, ip[0], (uint64_t)ip[1] - 1u - (uint64_t)ip[0]);
    case KN_NPR_BINOMIAL:
        return kn_npr_binomial(s, dp[1], ip[0]);
    case KN_NPR_POISSON:
        return kn_npr_poisson(s, dp[0]);
    case KN_NPR_GEOMETRIC:
        return geometric(s, dp[0]);
    case KN_NPR_HYPERGEOMETRIC:
        if (ip[2] > 10)
            return hypergeometric_hrua(s, ip[0], ip[1], ip[2]);
        return ip[2] > 0 ? hypergeometric_hyp(s, ip[0], ip[1], ip[2]) : 0;
    case KN_NPR_LOGSERIES:
        return logseries(s, dp[0]);
    case KN_NPR_NEGATIVE_BINOMIAL:
        return kn_npr_poisson(s, (1 - dp[1]) / dp[1] * kn_npr_std_gamma(s, dp[0]));
    case KN_NPR_ZIPF:
        return zipf(s, dp[0]);
    default:
        return 0;
    }
}

int32_t
kn_npr_check_discrete(int kind, const double *dp, const int64_t *ip)
{
    switch (kind) {
    case KN_NPR_RANDINT:
        if (ip[0] >= ip[1])
            return ip[2] ? KN_EXC_NPR_HIGH : KN_EXC_NPR_LOW_HIGH;
        return 0;
    case KN_NPR_BINOMIAL:
        return ip[0] < 0 ? KN_EXC_NPR_N_NEG : !(dp[1] >= 0 && dp[1] <= 1) ? KN_EXC_NPR_P_01 : 0;
    case KN_NPR_POISSON:
        return !(dp[0] >= 0)                  ? KN_EXC_NPR_LAM
               : dp[0] > 9.223372006484771e18 ? KN_EXC_NPR_LAM_BIG
                                              : 0;
    case KN_NPR_GEOMETRIC:
        return !(dp[0] > 0 && dp[0] <= 1) ? KN_EXC_NPR_P_GT0 : 0;
    case KN_NPR_HYPERGEOMETRIC:
        return ip[0] + ip[1] < ip[2] ? KN_EXC_NPR_HYPER_SUM
               : ip[0] < 0           ? KN_EXC_NPR_NGOOD
               : ip[1] < 0           ? KN_EXC_NPR_NBAD
               : ip[2] < 1           ? KN_EXC_NPR_NSAMPLE
                                     : 0;
    case KN_NPR_LOGSERIES:
        return !(dp[0] >= 0 && dp[0] < 1) ? KN_EXC_NPR_P_LT1 : 0;
    case KN_NPR_NEGATIVE_BINOMIAL:
        return dp[0] <= 0 ? KN_EXC_NPR_N_POS : !(dp[1] >= 0 && dp[1] <= 1) ? KN_EXC_NPR_P_01 : 0;
    case KN_NPR_ZIPF:
        return !(dp[0] > 1) ? KN_EXC_NPR_ZIPF : 0;
    default:
        return 0;
    }
}

/* ---- shuffle, permutation ---- */

static void
swap_bytes(char *a, char *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

/* swap the sub-arrays at a and b (axes 1.. of shape/strides) */
static void
swap_rows(char *a, char *b, int64_t ndim, const int64_t *shape, const int64_t *strides,
          int64_t itemsize)
{
    if (ndim == 0) {
        swap_bytes(a, b, itemsize);
        return;
    }
    for (int64_t i = 0; i < shape[0]; i++)
        swap_rows(a + i * strides[0], b + i * strides[0], ndim - 1, shape + 1, strides + 1,
                  itemsize);
}

void
kn_rt_npr_shuffle(char *data, int64_t ndim, const int64_t *shape, const int64_t *strides,
                  int64_t itemsize)
{
    if (ndim < 1 || shape[0] < 2)
        return;
    for (int64_t k = 1; k < ndim; k++)
        if (shape[k] == 0)
            return; /* NumPy draws nothing for an empty array */
    KnNpr *s = kn_npr_state();
    for (int64_t i = shape[0] - 1; i > 0; i--) {
        int64_t j = (int64_t)kn_npr_interval(s, (uint64_t)i);
        if (i != j)
            swap_rows(data + i * strides[0], data + j * strides[0], ndim - 1, shape + 1,
                      strides + 1, itemsize);
    }
}

void
kn_rt_npr_permutation(int64_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = i;
    int64_t st = 8;
    kn_rt_npr_shuffle((char *)out, 1, &n, &st, 8);
}

/* ---- choice ---- */

double
kn_npr_kahan_sum(const char *p, int64_t n, int64_t stride)
{
    if (n <= 0)
        return 0.0;
    double sum = *(const double *)p, c = 0.0;
    for (int64_t i = 1; i < n; i++) {
        double y = *(const double *)(p + i * stride) - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

/* the first index whose cdf passes u (searchsorted side='right') */
int64_t
kn_npr_search_right(const double *cdf, int64_t n, double u)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] <= u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void
kn_npr_make_cdf(double *cdf, const double *p, int64_t n)
{
    double acc = 0.0;
    for (int64_t i = 0; i < n; i++)
        cdf[i] = acc += p[i];
    double last = cdf[n - 1];
    for (int64_t i = 0; i < n; i++)
        cdf[i] /= last;
}

/* the indices of choice without replacement with probabilities (NumPy's redraw loop) */
static double
legacy_draw(void *s)
{
    return kn_npr_double(s);
}

int32_t
kn_npr_choice_p_unique(double (*draw)(void *ctx), void *ctx, double *p, int64_t pop, int64_t *idx,
                       int64_t n)
{
    double *cdf = malloc((size_t)pop * sizeof *cdf + (size_t)n * sizeof(double));
    char *seen = calloc((size_t)pop, 1);
    if (!cdf || !seen) {
        free(cdf);
        free(seen);
        return KN_EXC_NO_MEMORY;
    }
    double *x = cdf + pop;
    int64_t found = 0;
    while (found < n) {
        int64_t want = n - found;
        for (int64_t i = 0; i < want; i++)
            x[i] = draw(ctx);
        for (int64_t i = 0; i < found; i++)
            p[idx[i]] = 0;
        kn_npr_make_cdf(cdf, p, pop);
        int64_t start = found;
        for (int64_t i = 0; i < want; i++) {
            int64_t k = kn_npr_search_right(cdf, pop, x[i]);
            if (!seen[k]) { /* np.unique's first occurrences, in their order */
                seen[k] = 1;
                idx[found++] = k;
            }
        }
        for (int64_t i = start; i < found; i++)
            seen[idx[i]] = 0;
    }
    free(cdf);
    free(seen);
    return 0;
}

static int32_t
choice_check(int64_t pop, const char *p, int64_t pn, int64_t pstride, int64_t replace, int64_t n,
             int64_t given_int)
{
    if (pop <= 0 && n != 0)
        return given_int ? KN_EXC_NPR_CHOICE_A_INT : KN_EXC_NPR_CHOICE_A_EMPTY;
    if (p) {
        if (pn != pop)
            return KN_EXC_NPR_CHOICE_P_SIZE;
        double sum = kn_npr_kahan_sum(p, pn, pstride);
        if (isnan(sum))
            return KN_EXC_NPR_CHOICE_P_NAN;
        for (int64_t i = 0; i < pn; i++)
            if (*(const double *)(p + i * pstride) < 0)
                return KN_EXC_NPR_CHOICE_P_NEG;
        if (fabs(sum - 1.0) > 1.4901161193847656e-08) /* sqrt(float64 eps) */
            return KN_EXC_NPR_CHOICE_P_SUM;
    }
    if (!replace) {
        if (n > pop)
            return KN_EXC_NPR_CHOICE_LARGER;
        if (p) {
            int64_t nonzero = 0;
            for (int64_t i = 0; i < pn; i++)
                nonzero += *(const double *)(p + i * pstride) > 0;
            if (nonzero < n)
                return KN_EXC_NPR_CHOICE_FEWER;
        }
    }
    return 0;
}

static int32_t
choice_indices(KnNpr *s, int64_t pop, const char *p, int64_t pstride, int64_t replace, int64_t *idx,
               int64_t n)
{
    if (!n)
        return 0;
    double *pc = NULL;
    if (p) {
        pc = malloc((size_t)pop * sizeof *pc);
        if (!pc)
            return KN_EXC_NO_MEMORY;
        for (int64_t i = 0; i < pop; i++)
            pc[i] = *(const double *)(p + i * pstride);
    }
    int32_t e = 0;
    if (replace && p) {
        kn_npr_make_cdf(pc, pc, pop);
        for (int64_t i = 0; i < n; i++)
            idx[i] = kn_npr_search_right(pc, pop, kn_npr_double(s));
    } else if (replace) {
        for (int64_t i = 0; i < n; i++)
            idx[i] = bounded(s, 0, (uint64_t)pop - 1u);
    } else if (p) {
        e = kn_npr_choice_p_unique(legacy_draw, s, pc, pop, idx, n);
    } else {
        int64_t *perm = malloc((size_t)pop * sizeof *perm);
        if (!perm)
            return KN_EXC_NO_MEMORY;
        kn_rt_npr_permutation(perm, pop);
        memcpy(idx, perm, (size_t)n * sizeof *idx);
        free(perm);
    }
    free(pc);
    return e;
}

int32_t
kn_rt_npr_choice(int64_t pop, const char *data, int64_t stride, int64_t itemsize, const char *p,
                 int64_t pn, int64_t pstride, int64_t replace, char *out, int64_t n,
                 int64_t given_int)
{
    if (n < 0)
        return KN_EXC_NPR_CHOICE_NEG_DIMS;
    int32_t e = choice_check(pop, p, pn, pstride, replace, n, given_int);
    if (e)
        return e;
    KnNpr *s = kn_npr_state();
    if (!data)
        return choice_indices(s, pop, p, pstride, replace, (int64_t *)out, n);
    int64_t *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    if (!idx)
        return KN_EXC_NO_MEMORY;
    e = choice_indices(s, pop, p, pstride, replace, idx, n);
    for (int64_t i = 0; !e && i < n; i++)
        memcpy(out + i * itemsize, data + idx[i] * stride, (size_t)itemsize);
    free(idx);
    return e;
}

/* ---- multinomial, dirichlet ---- */

int32_t
kn_rt_npr_multinomial(int64_t n, const char *p, int64_t k, int64_t pstride, int64_t *out,
                      int64_t count)
{
    if (n < 0)
        return KN_EXC_NPR_N_NEG;
    for (int64_t j = 0; j < k; j++) {
        double v = *(const double *)(p + j * pstride);
        if (!(v >= 0 && v <= 1))
            return KN_EXC_NPR_PVALS;
    }
    if (kn_npr_kahan_sum(p, k - 1, pstride) > 1.0 + 1e-12)
        return KN_EXC_NPR_PVALS_SUM;
    KnNpr *s = kn_npr_state();
    memset(out, 0, (size_t)(count * k) * sizeof *out);
    for (int64_t c = 0; c < count; c++) {
        int64_t *o = out + c * k, dn = n;
        double sum = 1.0;
        for (int64_t j = 0; j < k - 1; j++) {
            double pj = *(const double *)(p + j * pstride);
            o[j] = kn_npr_binomial(s, pj / sum, dn);
            dn -= o[j];
            if (dn <= 0)
                break;
            sum -= pj;
        }
        if (dn > 0 && k > 0)
            o[k - 1] = dn;
    }
    return 0;
}

int32_t
kn_rt_npr_dirichlet(const char *alpha, int64_t k, int64_t astride, double *out, int64_t count)
{
    for (int64_t j = 0; j < k; j++)
        if (*(const double *)(alpha + j * astride) <= 0)
            return KN_EXC_NPR_ALPHA;
    KnNpr *s = kn_npr_state();
    for (int64_t c = 0; c < count; c++) {
        double *o = out + c * k, acc = 0.0;
        for (int64_t j = 0; j < k; j++) {
            o[j] = kn_npr_std_gamma(s, *(const double *)(alpha + j * astride));
            acc += o[j];
        }
        double inv = 1 / acc;
        for (int64_t j = 0; j < k; j++)
            o[j] *= inv;
    }
    return 0;
}
