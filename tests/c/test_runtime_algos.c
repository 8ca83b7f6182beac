/* test_runtime_algos.c - unit tests for runtime/sort.c, select.c and search.c against simple,
 * independent references: NumPy's comparison written out as its rules (NaN last; complex by
 * NumPy's four-case rule, not order.h's keys), an insertion sort with it, brute-force counts for
 * searchsorted, digitize and the histograms, quantiles from a fully sorted copy. Inputs are
 * random with NaN, inf, -0.0, duplicates, all-equal rows, empty and one-item rows, for every
 * KN_DT_* type. The bit-exact comparison with NumPy itself is bench/runtime_algos.py --check. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "runtime/runtime.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const size_t item_size[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16};
#define NDT 13

static int
is_complex(int dt)
{
    return dt == KN_DT_C64 || dt == KN_DT_C128;
}

static int
is_float(int dt)
{
    return dt == KN_DT_F32 || dt == KN_DT_F64;
}

/* part p (0 real, 1 imag) of a float or complex item i; integers go through get_int */
static double
get_f(const void *b, int dt, int64_t i, int p)
{
    switch (dt) {
    case KN_DT_F32:
        return ((const float *)b)[i];
    case KN_DT_F64:
        return ((const double *)b)[i];
    case KN_DT_C64:
        return ((const float *)b)[2 * i + p];
    case KN_DT_C128:
        return ((const double *)b)[2 * i + p];
    default:
        return 0;
    }
}

/* an integer item, exactly, in 128 bits */
static __int128
get_int(const void *b, int dt, int64_t i)
{
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        return ((const uint8_t *)b)[i];
    case KN_DT_I8:
        return ((const int8_t *)b)[i];
    case KN_DT_I16:
        return ((const int16_t *)b)[i];
    case KN_DT_U16:
        return ((const uint16_t *)b)[i];
    case KN_DT_I32:
        return ((const int32_t *)b)[i];
    case KN_DT_U32:
        return ((const uint32_t *)b)[i];
    case KN_DT_I64:
        return ((const int64_t *)b)[i];
    default:
        return ((const uint64_t *)b)[i];
    }
}

static int
flt_lt(double a, double b)
{
    return a < b || (b != b && a == a);
}

/* NumPy's complex less-than, case by case (npysort's CFLOAT_LT) */
static int
cpx_lt(double ar, double ai, double br, double bi)
{
    if (ar < br)
        return ai == ai || bi != bi;
    if (ar > br)
        return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br))
        return ai < bi || (bi != bi && ai == ai);
    return br != br;
}

/* item i of buffer a < item j of buffer b */
static int
lt2(const void *a, int64_t i, const void *b, int64_t j, int dt)
{
    if (is_complex(dt))
        return cpx_lt(get_f(a, dt, i, 0), get_f(a, dt, i, 1), get_f(b, dt, j, 0),
                      get_f(b, dt, j, 1));
    if (is_float(dt))
        return flt_lt(get_f(a, dt, i, 0), get_f(b, dt, j, 0));
    return get_int(a, dt, i) < get_int(b, dt, j);
}

static int
lt(const void *a, int dt, int64_t i, int64_t j)
{
    return lt2(a, i, a, j, dt);
}

static const double specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.5};

static double
rand_double(int mode)
{
    switch (mode) {
    case 0:
        return ((double)(rnd() >> 11) * 0x1p-53 - 0.5) * 1e3;
    case 1:
        return (double)(int)(rnd() % 7) - 3.0; /* duplicates */
    default:
        return specials[rnd() % (sizeof specials / sizeof specials[0])];
    }
}

/* n random items of type dt; mode 0 spread, 1 duplicates, 2 specials, 3 all equal */
static void
fill(void *b, int dt, int64_t n, int mode)
{
    uint64_t same = rnd();
    double same_d = rand_double(2);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = mode == 3 ? same : mode == 1 ? (uint64_t)((int64_t)(rnd() % 7) - 3) : rnd();
        switch (dt) {
        case KN_DT_BOOL:
            ((uint8_t *)b)[i] = (uint8_t)(r & 1);
            break;
        case KN_DT_I8:
        case KN_DT_U8:
            ((uint8_t *)b)[i] = (uint8_t)r;
            break;
        case KN_DT_I16:
        case KN_DT_U16:
            ((uint16_t *)b)[i] = (uint16_t)r;
            break;
        case KN_DT_I32:
        case KN_DT_U32:
            ((uint32_t *)b)[i] = (uint32_t)r;
            break;
        case KN_DT_I64:
        case KN_DT_U64:
            ((uint64_t *)b)[i] = r;
            break;
        case KN_DT_F32:
            ((float *)b)[i] = (float)(mode == 3 ? same_d : rand_double(mode));
            break;
        case KN_DT_F64:
            ((double *)b)[i] = mode == 3 ? same_d : rand_double(mode);
            break;
        case KN_DT_C64:
            ((float *)b)[2 * i] = (float)(mode == 3 ? same_d : rand_double(mode));
            ((float *)b)[2 * i + 1] = (float)(mode == 3 ? same_d : rand_double(mode ? 2 : 1));
            break;
        case KN_DT_C128:
            ((double *)b)[2 * i] = mode == 3 ? same_d : rand_double(mode);
            ((double *)b)[2 * i + 1] = mode == 3 ? same_d : rand_double(mode ? 2 : 1);
            break;
        }
    }
}

/* reference: stable insertion sort of the indices with NumPy's comparison */
static void
ref_argsort(const void *b, int dt, int64_t n, int64_t *idx)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t j = i;
        for (; j > 0 && lt(b, dt, i, idx[j - 1]); j--)
            idx[j] = idx[j - 1];
        idx[j] = i;
    }
}

static void
gather(const void *b, int dt, const int64_t *idx, int64_t n, void *out)
{
    size_t sz = item_size[dt];
    for (int64_t i = 0; i < n; i++)
        memcpy((char *)out + (size_t)i * sz, (const char *)b + (size_t)idx[i] * sz, sz);
}

/* the sum of the items' bytes, to check that a sort permutes its input */
static uint64_t
byte_sum(const void *b, size_t nbytes)
{
    uint64_t s = 0;
    for (size_t i = 0; i < nbytes; i++)
        s += ((const uint8_t *)b)[i];
    return s;
}

static const int64_t sizes[] = {0,  1,  2,   3,   5,    16,   31,    32,
                                33, 47, 100, 257, 1000, 4099, 20000, 70000};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void
test_sort_argsort_unique(void)
{
    for (int dt = 0; dt < NDT; dt++) {
        for (size_t si = 0; si < NSIZES; si++) {
            int64_t n = sizes[si];
            for (int mode = 0; mode < 4; mode++) {
                size_t sz = item_size[dt], nbytes = (size_t)n * sz;
                void *x = malloc(nbytes + 16), *y = malloc(nbytes + 16), *r = malloc(nbytes + 16);
                int64_t *idx = malloc(sizeof(int64_t) * (size_t)(n + 1));
                int64_t *got = malloc(sizeof(int64_t) * (size_t)(n + 1));
                fill(x, dt, n, mode);
                /* the reference is quadratic: big rows are checked for order only */
                int full = n <= 4099;
                if (full)
                    ref_argsort(x, dt, n, idx);
                /* argsort: exactly the stable permutation */
                kn_rt_argsort(x, n, 1, dt, got);
                if (full) {
                    int same = 1;
                    for (int64_t i = 0; i < n; i++)
                        same &= got[i] == idx[i];
                    CHECK(same);
                } else {
                    int ok = 1;
                    for (int64_t i = 1; i < n; i++)
                        ok &= !lt(x, dt, got[i], got[i - 1]) &&
                              (lt(x, dt, got[i - 1], got[i]) || got[i - 1] < got[i]);
                    CHECK(ok);
                }
                /* sort: ordered, a permutation, tie-equal to the reference */
                memcpy(y, x, nbytes);
                kn_rt_sort(y, n, 1, dt);
                int ordered = 1;
                for (int64_t i = 1; i < n; i++)
                    ordered &= !lt(y, dt, i, i - 1);
                CHECK(ordered);
                CHECK(byte_sum(x, nbytes) == byte_sum(y, nbytes));
                if (full) {
                    gather(x, dt, idx, n, r);
                    int tie = 1;
                    for (int64_t i = 0; i < n; i++)
                        tie &= !lt2(y, i, r, i, dt) && !lt2(r, i, y, i, dt);
                    CHECK(tie);
                }
                /* unique: strictly increasing, and as many as the distinct values */
                int64_t m = kn_rt_unique(y, n, dt);
                int inc = 1;
                for (int64_t i = 1; i < m; i++)
                    inc &= lt(y, dt, i - 1, i) &&
                           !(is_float(dt) && get_f(y, dt, i - 1, 0) != get_f(y, dt, i - 1, 0));
                CHECK(inc);
                if (full) {
                    /* distinct under ==, all NaNs (any NaN part) one */
                    int64_t d = 0;
                    for (int64_t i = 0; i < n; i++) {
                        int seen = 0;
                        for (int64_t j = 0; j < i && !seen; j++) {
                            if (is_float(dt) || is_complex(dt)) {
                                double a0 = get_f(r, dt, i, 0), a1 = get_f(r, dt, i, 1);
                                double b0 = get_f(r, dt, j, 0), b1 = get_f(r, dt, j, 1);
                                int an = a0 != a0 || a1 != a1, bn = b0 != b0 || b1 != b1;
                                seen = (an && bn) || (!an && !bn && a0 == b0 && a1 == b1);
                            } else {
                                seen = get_int(r, dt, i) == get_int(r, dt, j);
                            }
                        }
                        d += !seen;
                    }
                    CHECK_EQ_INT(m, d);
                }
                free(x);
                free(y);
                free(r);
                free(idx);
                free(got);
            }
        }
    }
}

/* keys that peel one value off per radix level: buckets just over KN_SORT_SMALL take 6-bit
 * digits, so ten values 6 bits apart drive the MSD sort past its depth limit (8), where LSD
 * passes finish the bucket */
static void
test_deep_radix(void)
{
    enum { N = 43 };
    uint64_t u[N];
    int64_t o[N];
    for (int i = 0; i < N; i++)
        u[i] = UINT64_MAX >> (6 * (i < 10 ? i : 10)); /* 33 copies of 15 */
    kn_rt_argsort(u, N, 1, KN_DT_U64, o);
    kn_rt_sort(u, N, 1, KN_DT_U64);
    int ok = 1;
    for (int i = 0; i < 33; i++)
        ok &= u[i] == 15 && o[i] == 10 + i;
    for (int i = 33; i < N; i++)
        ok &= u[i] == UINT64_MAX >> (6 * (N - 1 - i)) && o[i] == N - 1 - i;
    CHECK(ok);
}

/* ---- long float rows: the first level's digit chosen from a sample and counted while keys are
 * made, buckets finished into values in cache (sort.c's first_, settle) ---------------------- */

static double
unit(void)
{
    return ((double)(rnd() >> 11) + 0.5) * 0x1.0p-53; /* in (0, 1) */
}

/* item i of a row of shape `shape` (n items) */
static double
shaped(int shape, int64_t i, int64_t n)
{
    static const double odd[] = {
        0.0,   -0.0,   INFINITY, -INFINITY, 5e-324, -5e-324, 2.2250738585072014e-308,
        1e308, -1e308, 1.0,      -1.0};
    double g = sqrt(-2 * log(unit())) * cos(6.283185307179586 * unit()); /* normal */
    switch (shape) {
    case 0: /* normal: a few buckets of the top 16 key bits hold most items */
        return g;
    case 1: /* exponential: one sign, skewed */
        return -log(unit());
    case 2: /* uniform [0, 1) */
        return unit();
    case 3: /* many duplicates */
        return (double)(rnd() % 5) - 2;
    case 4: /* all equal */
        return 3.25;
    case 5: /* specials, subnormals and NaNs among normals */
        return rnd() % 4 ? g : rnd() % 8 == 0 ? NAN : odd[rnd() % 11];
    case 6: /* descending */
        return (double)(n - i) * 0.5;
    case 7: /* ascending */
        return (double)i - (double)n / 3;
    case 8: /* positive, but for a few negatives the strided sample may miss */
        return i % 4099 == 7 ? -unit() : unit() + 1.0;
    case 9: /* subnormals only: keys differ in the low bits */
        return (double)(rnd() % 100000) * 5e-324;
    case 10: /* a tight cluster and far outliers */
        return i % 50000 == 0 ? g * 1e300 : 1.0 + unit() * 1e-12;
    default: /* log-normal over many binades */
        return exp2(g * 30);
    }
}

/* a < b for sorting: NaN last, -0.0 before +0.0 (sort.c's key order; NumPy's ties) */
static int
cmp_f64(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (a != a || b != b)
        return (a != a) - (b != b);
    if (a != b)
        return a < b ? -1 : 1;
    return signbit(b) - signbit(a);
}

static int
cmp_f32(const void *pa, const void *pb)
{
    double a = *(const float *)pa, b = *(const float *)pb;
    return cmp_f64(&a, &b);
}

/* sorted rows bit for bit the reference's, NaNs (any payload) all at the end */
static int
same_sorted(const void *got, const void *ref, int64_t n, int dt)
{
    size_t sz = dt == KN_DT_F64 ? 8 : 4;
    int ok = 1;
    for (int64_t i = 0; i < n && ok; i++) {
        double g = get_f(got, dt, i, 0), r = get_f(ref, dt, i, 0);
        ok = (g != g && r != r) || memcmp((const char *)got + (size_t)i * sz,
                                          (const char *)ref + (size_t)i * sz, sz) == 0;
    }
    return ok;
}

static void
test_long_float_rows(void)
{
    enum { N = 300000, SHAPES = 12 };
    double *x = malloc(2 * N * sizeof(double)), *r = malloc(2 * N * sizeof(double));
    float *xf = malloc(N * sizeof(float)), *rf = malloc(N * sizeof(float));
    for (int shape = 0; shape < SHAPES; shape++) {
        for (int64_t i = 0; i < N; i++)
            x[i] = shaped(shape, i, N);
        memcpy(r, x, N * sizeof(double));
        qsort(r, N, sizeof(double), cmp_f64);
        kn_rt_sort(x, N, 1, KN_DT_F64);
        CHECK(same_sorted(x, r, N, KN_DT_F64));
        /* float32 rows under the LSD cutoff take the same MSD first level */
        int64_t nf = 40000;
        for (int64_t i = 0; i < nf; i++)
            xf[i] = (float)shaped(shape, i, nf);
        memcpy(rf, xf, (size_t)nf * sizeof(float));
        qsort(rf, (size_t)nf, sizeof(float), cmp_f32);
        kn_rt_sort(xf, nf, 1, KN_DT_F32);
        CHECK(same_sorted(xf, rf, nf, KN_DT_F32));
    }
    /* two long rows of different shapes in one call: the counts are made afresh per row */
    for (int64_t i = 0; i < 2 * N; i++)
        x[i] = i < N ? shaped(0, i, N) : shaped(8, i - N, N);
    memcpy(r, x, 2 * N * sizeof(double));
    qsort(r, N, sizeof(double), cmp_f64);
    qsort(r + N, N, sizeof(double), cmp_f64);
    kn_rt_sort(x, N, 2, KN_DT_F64);
    CHECK(same_sorted(x, r, 2 * N, KN_DT_F64));
    free(x);
    free(r);
    free(xf);
    free(rf);
}

static void
test_rows(void)
{
    /* three rows of 40 sorted independently */
    double x[120];
    int64_t o[120];
    for (int i = 0; i < 120; i++)
        x[i] = (double)((i * 37) % 41) - (i / 40) * 100;
    kn_rt_argsort(x, 40, 3, KN_DT_F64, o);
    kn_rt_sort(x, 40, 3, KN_DT_F64);
    for (int r = 0; r < 3; r++)
        for (int i = 1; i < 40; i++) {
            CHECK(x[r * 40 + i - 1] <= x[r * 40 + i]);
            CHECK(o[r * 40 + i] >= 0 && o[r * 40 + i] < 40);
        }
    CHECK(x[0] == 0 && x[40] == -100 && x[80] == -200);
}

/* brute-force quantile of a fully sorted copy (NumPy's linear method) */
static double
ref_quantile(const double *sorted, int64_t n, double q)
{
    double v = (double)(n - 1) * q;
    int64_t lo = (int64_t)floor(v), hi = lo + 1;
    double t = v - floor(v);
    if (v >= (double)(n - 1)) {
        lo = hi = n - 1;
        t = v + 1;
    }
    double a = sorted[lo], b = sorted[hi], d = b - a;
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

static int
same_double(double a, double b)
{
    return (a != a && b != b) || memcmp(&a, &b, sizeof a) == 0 || (a == 0 && b == 0);
}

static void
test_quantiles(void)
{
    const double qs[] = {0.0, 1.0, 0.5, 0.25, 0.75, 0.1, 0.9, 0.333, 0.999};
    const int nq = sizeof qs / sizeof qs[0];
    for (size_t si = 1; si < NSIZES; si++) {
        int64_t n = sizes[si];
        for (int mode = 0; mode < 4; mode++) {
            double *x = malloc(sizeof(double) * (size_t)n), *s = malloc(sizeof(double) * (size_t)n);
            fill(x, KN_DT_F64, n, mode);
            memcpy(s, x, sizeof(double) * (size_t)n);
            kn_rt_sort(s, n, 1, KN_DT_F64);
            int has_nan = s[n - 1] != s[n - 1];
            double out[9], *scratch = malloc(sizeof(double) * (size_t)n);
            memcpy(scratch, x, sizeof(double) * (size_t)n);
            kn_rt_quantiles(scratch, n, KN_DT_F64, qs, nq, out);
            for (int i = 0; i < nq; i++) {
                if (has_nan)
                    CHECK(out[i] != out[i]);
                else
                    CHECK(same_double(out[i], ref_quantile(s, n, qs[i])));
            }
            memcpy(scratch, x, sizeof(double) * (size_t)n);
            double med = kn_rt_median(scratch, n, KN_DT_F64);
            double want = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
            CHECK(has_nan ? med != med : same_double(med, want));
            /* float32, Python-float q: float32 arithmetic */
            float *xf = malloc(sizeof(float) * (size_t)n), *sf = malloc(sizeof(float) * (size_t)n);
            for (int64_t i = 0; i < n; i++)
                xf[i] = (float)x[i];
            memcpy(sf, xf, sizeof(float) * (size_t)n);
            kn_rt_sort(sf, n, 1, KN_DT_F32);
            float of;
            double half = 0.5;
            float *scf = malloc(sizeof(float) * (size_t)n);
            memcpy(scf, xf, sizeof(float) * (size_t)n);
            kn_rt_quantiles_f32(scf, n, &half, 1, &of);
            if (!has_nan) {
                double v = (double)(n - 1) * 0.5;
                int64_t lo = (int64_t)floor(v), hi = v >= (double)(n - 1) ? lo : lo + 1;
                float d = sf[hi] - sf[lo], t = (float)(v - floor(v));
                float w =
                    v - floor(v) >= 0.5 ? sf[hi] - d * (float)(1 - (v - floor(v))) : sf[lo] + d * t;
                if (v >= (double)(n - 1))
                    w = sf[hi] - d * (float)(1 - (v + 1));
                CHECK(of == w || (of == 0 && w == 0) || (of != of && w != w));
            } else {
                CHECK(of != of);
            }
            free(x);
            free(s);
            free(scratch);
            free(xf);
            free(sf);
            free(scf);
        }
    }
    /* integers: b - a wraps in the type, as NumPy's subtract (int8 [-100, 100] gives 128) */
    int8_t i8[2] = {100, -100};
    double q = 0.5, o;
    kn_rt_quantiles(i8, 2, KN_DT_I8, &q, 1, &o);
    CHECK(o == 128.0);
    int8_t m8[2] = {100, -100};
    CHECK(kn_rt_median(m8, 2, KN_DT_I8) == 0.0);
    /* an exact top index with an infinity: inf - inf is NaN, as NumPy's quantile([1, inf], 1) */
    double xi[2] = {INFINITY, 1.0}, one = 1.0;
    kn_rt_quantiles(xi, 2, KN_DT_F64, &one, 1, &o);
    CHECK(o != o);
    /* uint64 beyond int64 and many quantiles (heap buffers) */
    uint64_t u[5] = {UINT64_MAX, 0, 1ull << 63, 7, 7};
    double many[40], mo[40];
    for (int i = 0; i < 40; i++)
        many[i] = i / 39.0;
    kn_rt_quantiles(u, 5, KN_DT_U64, many, 40, mo);
    CHECK(mo[0] == 0.0 && mo[39] == 18446744073709551615.0);
    for (int i = 1; i < 40; i++)
        CHECK(mo[i - 1] <= mo[i]);
}

static void
test_search_digitize(void)
{
    for (int dt = 0; dt < NDT; dt++) {
        for (size_t si = 0; si < 12; si++) {
            int64_t n = sizes[si], nv = 64;
            size_t sz = item_size[dt];
            void *a = malloc((size_t)n * sz + 16), *v = malloc((size_t)nv * sz);
            int64_t *o = malloc(sizeof(int64_t) * (size_t)nv);
            fill(a, dt, n, (int)(si % 3));
            kn_rt_sort(a, n, 1, dt);
            fill(v, dt, nv, (int)((si + 1) % 3));
            for (int right = 0; right < 2; right++) {
                kn_rt_searchsorted(a, n, v, nv, dt, right, o);
                int ok = 1;
                for (int64_t k = 0; k < nv; k++) {
                    int64_t c = 0;
                    for (int64_t i = 0; i < n; i++)
                        c += right ? !lt2(v, k, a, i, dt) : lt2(a, i, v, k, dt);
                    ok &= o[k] == c;
                }
                CHECK(ok);
            }
            if (!is_complex(dt)) {
                /* increasing bins, then the same reversed */
                for (int dec = 0; dec < 2; dec++) {
                    if (dec)
                        for (int64_t i = 0; i < n / 2; i++) {
                            char t[16];
                            memcpy(t, (char *)a + i * sz, sz);
                            memcpy((char *)a + i * sz, (char *)a + (n - 1 - i) * sz, sz);
                            memcpy((char *)a + (n - 1 - i) * sz, t, sz);
                        }
                    int has_nan = 0;
                    for (int64_t i = 0; i < n; i++)
                        has_nan |= is_float(dt) && get_f(a, dt, i, 0) != get_f(a, dt, i, 0);
                    if (has_nan)
                        continue; /* NaN bins: NumPy's own rules, checked against NumPy */
                    /* all-equal bins count as increasing */
                    int desc = dec && n > 1 && lt(a, dt, n - 1, 0);
                    for (int right = 0; right < 2; right++) {
                        int32_t rc = kn_rt_digitize(v, nv, a, n, dt, right, o);
                        CHECK_EQ_INT(rc, 0);
                        int ok = 1;
                        for (int64_t k = 0; k < nv; k++) {
                            int64_t c = 0;
                            for (int64_t i = 0; i < n; i++) {
                                int vl = lt2(v, k, a, i, dt), al = lt2(a, i, v, k, dt);
                                /* dec, right=False: bins[i] > x; dec, right: bins[i] >= x */
                                c += desc ? (right ? !al : vl) : (right ? al : !vl);
                            }
                            ok &= o[k] == c;
                        }
                        CHECK(ok);
                    }
                }
            }
            free(a);
            free(v);
            free(o);
        }
    }
    double bins[4] = {0, 2, 1, 3}, x[2] = {0.5, 2.5};
    int64_t o[2];
    CHECK_EQ_INT(kn_rt_digitize(x, 2, bins, 4, KN_DT_F64, 0, o), -1);
    double flat[3] = {1, 1, 1};
    CHECK_EQ_INT(kn_rt_digitize(x, 2, flat, 3, KN_DT_F64, 0, o), 0);
    CHECK(o[0] == 0 && o[1] == 3);
}

static void
test_interp(void)
{
    double xp[6] = {-2, -1, 0, 0.5, 3, 10}, fp[6] = {4, 1, 0, 0.25, 9, 100};
    double x[12] = {-5, -2, -1.5, -1, 0, 0.25, 0.5, 2, 3, 10, 11, NAN}, out[12];
    kn_rt_interp(x, 12, xp, fp, 6, -7, 77, out);
    CHECK(out[0] == -7 && out[1] == 4 && out[3] == 1 && out[4] == 0 && out[6] == 0.25);
    CHECK(out[8] == 9 && out[9] == 100 && out[10] == 77 && out[11] != out[11]);
    for (int i = 0; i < 11; i++) {
        if (x[i] <= xp[0] || x[i] >= xp[5])
            continue;
        int j = 0;
        while (!(xp[j] <= x[i] && x[i] < xp[j + 1]))
            j++;
        double s = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
        double w = xp[j] == x[i] ? fp[j] : s * (x[i] - xp[j]) + fp[j];
        CHECK(same_double(out[i], w));
    }
    /* one sample point; infinite slope retried from the right end */
    double one = 1, f1 = 5, xs[3] = {0, 1, 2};
    kn_rt_interp(xs, 3, &one, &f1, 1, -1, -2, out);
    CHECK(out[0] == -1 && out[1] == 5 && out[2] == -2);
    double xpi[2] = {0, 1}, fpi[2] = {INFINITY, INFINITY}, half = 0.5;
    kn_rt_interp(&half, 1, xpi, fpi, 2, 0, 0, out);
    CHECK(out[0] == INFINITY);
    double fc[12], oc[24], l[2] = {-1, -2}, r[2] = {3, 4};
    for (int i = 0; i < 6; i++) {
        fc[2 * i] = fp[i];
        fc[2 * i + 1] = -fp[i];
    }
    kn_rt_interp_complex(x, 12, xp, fc, 6, l, r, oc);
    CHECK(oc[0] == -1 && oc[1] == -2 && oc[20] == 3 && oc[21] == 4 && oc[6] == 1 && oc[7] == -1);
    CHECK(oc[22] != oc[22] && oc[23] == 0);
}

static void
test_histogram(void)
{
    enum { N = 5000 };
    double *a = malloc(sizeof(double) * N);
    for (int mode = 0; mode < 3; mode++) {
        fill(a, KN_DT_F64, N, mode);
        const double ranges[3][2] = {{-400, 400}, {-3, 3}, {0.1, 0.7}};
        const int64_t nbs[4] = {1, 3, 10, 97};
        for (int ri = 0; ri < 3; ri++)
            for (int bi = 0; bi < 4; bi++) {
                double lo = ranges[ri][0], hi = ranges[ri][1];
                int64_t nb = nbs[bi], hist[97], want[97] = {0};
                double edges[98];
                kn_rt_linspace_edges(lo, hi, nb, edges);
                CHECK(edges[0] == lo && edges[nb] == hi);
                int lin = 1;
                for (int64_t k = 1; k < nb; k++)
                    lin &= edges[k] == (double)k * ((hi - lo) / (double)nb) + lo;
                CHECK(lin);
                for (int i = 0; i < N; i++) {
                    if (!(a[i] >= lo && a[i] <= hi))
                        continue;
                    int64_t k = 0;
                    while (k < nb - 1 && a[i] >= edges[k + 1])
                        k++;
                    want[k]++;
                }
                kn_rt_histogram(a, N, lo, hi, nb, hist);
                int same = 1;
                for (int64_t k = 0; k < nb; k++)
                    same &= hist[k] == want[k];
                CHECK(same);
                kn_rt_histogram_edges(a, N, edges, nb + 1, hist);
                same = 1;
                for (int64_t k = 0; k < nb; k++)
                    same &= hist[k] == want[k];
                CHECK(same);
            }
    }
    /* repeated edges: a value on a repeated edge goes to the last bin starting there */
    double e[4] = {0, 1, 1, 2}, v[4] = {0, 1, 1.5, 2};
    int64_t h[3];
    kn_rt_histogram_edges(v, 4, e, 4, h);
    CHECK(h[0] == 1 && h[1] == 0 && h[2] == 3);
    free(a);
}

int
main(void)
{
    test_sort_argsort_unique();
    test_rows();
    test_deep_radix();
    test_long_float_rows();
    test_quantiles();
    test_search_digitize();
    test_interp();
    test_histogram();
    printf("test_runtime_algos: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
