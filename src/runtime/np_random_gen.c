/* np_random_gen.c - np.random.Generator's methods in compiled code: NumPy's Generator stream
 * over the bit generator of the Python object (PCG64 from default_rng, or any other).
 *
 * The Generator is passed in as its bitgen_t (KnBitGen, from bit_generator.capsule): every draw
 * calls its next_uint64/next_uint32/next_double, so the Python object's state moves exactly as
 * NumPy's own methods move it. Algorithms, as NumPy documents and runs them: random is
 * next_double; integers is Lemire's bounded multiply-and-reject (one 32-bit draw per try for
 * ranges of 32 bits, else 64); standard_normal and standard_exponential are the 256-layer
 * ziggurats of Marsaglia and Tsang on 64-bit draws (52 and 53 bits of the draw, the layer from
 * its low byte), whose tables are computed here at first use by Marsaglia and Tsang's recursion
 * (in long double, then rounded); shuffle is the legacy masked interval draw from the top
 * index down; choice without replacement is Floyd's sampling with a hash set (or a tail shuffle
 * for large populations), then a shuffle of the sample. Pure C over base/. */
#include "runtime/np_random.h"

#include "runtime/runtime.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- ziggurat tables ---- */

static uint64_t ki[256], ke[256];
static double wi[256], fi[256], we[256], fe[256];
static const double nor_r = 3.6541528853610087963519472518;
static const double exp_r = 7.6971174701310497140446280481;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void
make_tables(void)
{
    /* normal: 256 layers of area v, the base layer's edge r, 52-bit draws */
    long double m1 = 4503599627370496.0L, dn = 3.6541528853610087963519472518L, tn = dn;
    /* the area of each layer: the base strip r f(r) plus the tail beyond r */
    long double vn = dn * expl(-0.5L * dn * dn) +
                     sqrtl(3.14159265358979323846264338327950288L / 2) * erfcl(dn / sqrtl(2.0L));
    long double q = vn / expl(-0.5L * dn * dn);
    ki[0] = (uint64_t)((dn / q) * m1);
    ki[1] = 0;
    wi[0] = (double)(q / m1);
    wi[255] = (double)(dn / m1);
    fi[0] = 1.0;
    fi[255] = (double)expl(-0.5L * dn * dn);
    for (int i = 254; i >= 1; i--) {
        dn = sqrtl(-2.0L * logl(vn / dn + expl(-0.5L * dn * dn)));
        ki[i + 1] = (uint64_t)((dn / tn) * m1);
        tn = dn;
        fi[i] = (double)expl(-0.5L * dn * dn);
        wi[i] = (double)(dn / m1);
    }
    /* exponential: 53-bit draws */
    long double m2 = 9007199254740992.0L, de = 7.6971174701310497140446280481L, te = de;
    long double ve = expl(-de) * (de + 1.0L); /* r f(r) plus the tail exp(-r) */
    q = ve / expl(-de);
    ke[0] = (uint64_t)((de / q) * m2);
    ke[1] = 0;
    we[0] = (double)(q / m2);
    we[255] = (double)(de / m2);
    fe[0] = 1.0;
    fe[255] = (double)expl(-de);
    for (int i = 254; i >= 1; i--) {
        de = -logl(ve / de + expl(-de));
        ke[i + 1] = (uint64_t)((de / te) * m2);
        te = de;
        fe[i] = (double)expl(-de);
        we[i] = (double)(de / m2);
    }
}

/* one draw; the bit generator's functions in locals (the calls cannot change them) */
static inline double
normal_draw(uint64_t (*next)(void *), double (*next_d)(void *), void *st)
{
    for (;;) {
        uint64_t r = next(st);
        int idx = (int)(r & 0xff);
        r >>= 8;
        int sign = (int)(r & 1);
        uint64_t rabs = (r >> 1) & 0x000fffffffffffffull;
        double x = (double)(int64_t)rabs * wi[idx]; /* rabs < 2**52: a signed conversion */
        if (sign)
            x = -x;
        if (rabs < ki[idx])
            return x;
        if (idx == 0) {
            for (;;) {
                double xx = -(1.0 / nor_r) * log1p(-next_d(st));
                double yy = -log1p(-next_d(st));
                if (yy + yy > xx * xx)
                    return ((rabs >> 8) & 1) ? -(nor_r + xx) : nor_r + xx;
            }
        }
        if ((fi[idx - 1] - fi[idx]) * next_d(st) + fi[idx] < exp(-0.5 * x * x))
            return x;
    }
}

static double
std_normal(KnBitGen *g)
{
    return normal_draw(g->next_uint64, g->next_double, g->state);
}

static double
std_exp(KnBitGen *g)
{
    for (;;) {
        uint64_t ri = g->next_uint64(g->state) >> 3;
        int idx = (int)(ri & 0xff);
        ri >>= 8;
        double x = (double)(int64_t)ri * we[idx];
        if (ri < ke[idx])
            return x;
        if (idx == 0)
            return exp_r - log1p(-g->next_double(g->state));
        if ((fe[idx - 1] - fe[idx]) * g->next_double(g->state) + fe[idx] < exp(-x))
            return x;
    }
}

/* ---- integers ---- */

static uint64_t
lemire64(KnBitGen *g, uint64_t rng)
{
    uint64_t excl = rng + 1;
    unsigned __int128 m = (unsigned __int128)g->next_uint64(g->state) * excl;
    uint64_t left = (uint64_t)m;
    if (left < excl) {
        uint64_t threshold = (UINT64_MAX - rng) % excl;
        while (left < threshold) {
            m = (unsigned __int128)g->next_uint64(g->state) * excl;
            left = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

static uint32_t
lemire32(KnBitGen *g, uint32_t rng)
{
    uint32_t excl = rng + 1;
    uint64_t m = (uint64_t)g->next_uint32(g->state) * excl;
    uint32_t left = (uint32_t)m;
    if (left < excl) {
        uint32_t threshold = (UINT32_MAX - rng) % excl;
        while (left < threshold) {
            m = (uint64_t)g->next_uint32(g->state) * excl;
            left = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* a draw in [0, rng] */
static uint64_t
bounded(KnBitGen *g, uint64_t rng)
{
    if (rng == 0)
        return 0;
    if (rng <= 0xffffffffu)
        return rng == 0xffffffffu ? g->next_uint32(g->state) : lemire32(g, (uint32_t)rng);
    return rng == UINT64_MAX ? g->next_uint64(g->state) : lemire64(g, rng);
}

/* the legacy masked draw in [0, max]: Generator.shuffle's */
static uint64_t
interval(KnBitGen *g, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = max, v;
    for (int sh = 1; sh <= 32; sh *= 2)
        mask |= mask >> sh;
    if (max <= 0xffffffffu) {
        while ((v = (g->next_uint32(g->state) & mask)) > max)
            ;
    } else {
        while ((v = (g->next_uint64(g->state) & mask)) > max)
            ;
    }
    return v;
}

int32_t
kn_rt_npg_fill(KnBitGen *g, int32_t kind, const double *dp, const int64_t *ip, void *out, int64_t n)
{
    pthread_once(&tables_once, make_tables);
    double *o = out;
    switch (kind) {
    case KN_NPG_INTEGERS: {
        int64_t lo = ip[0], hi = ip[1];
        if (ip[3] ? lo > hi : lo >= hi)
            return ip[3] ? KN_EXC_NPG_LOW_GT_HIGH : ip[2] ? KN_EXC_NPR_HIGH : KN_EXC_NPR_LOW_HIGH;
        uint64_t rng = (uint64_t)hi - (uint64_t)lo - (ip[3] ? 0u : 1u);
        int64_t *oi = out;
        for (int64_t i = 0; i < n; i++)
            oi[i] = (int64_t)((uint64_t)lo + bounded(g, rng));
        return 0;
    }
    case KN_NPG_RANDOM:
        for (int64_t i = 0; i < n; i++)
            o[i] = g->next_double(g->state);
        return 0;
    case KN_NPG_UNIFORM: {
        double range = dp[1] - dp[0];
        if (!isfinite(range))
            return KN_EXC_NPG_RANGE;
        if (range < 0)
            return KN_EXC_NPG_UNIFORM_NEG;
        for (int64_t i = 0; i < n; i++)
            o[i] = dp[0] + range * g->next_double(g->state);
        return 0;
    }
    case KN_NPG_STD_NORMAL: {
        uint64_t (*next)(void *) = g->next_uint64;
        double (*next_d)(void *) = g->next_double;
        void *st = g->state;
        for (int64_t i = 0; i < n; i++)
            o[i] = normal_draw(next, next_d, st);
        return 0;
    }
    case KN_NPG_NORMAL:
        if (!isnan(dp[1]) && signbit(dp[1]))
            return KN_EXC_NPR_SCALE;
        for (int64_t i = 0; i < n; i++)
            o[i] = dp[0] + dp[1] * std_normal(g);
        return 0;
    case KN_NPG_STD_EXP:
        for (int64_t i = 0; i < n; i++)
            o[i] = std_exp(g);
        return 0;
    case KN_NPG_EXPONENTIAL:
        if (!isnan(dp[0]) && signbit(dp[0]))
            return KN_EXC_NPR_SCALE;
        for (int64_t i = 0; i < n; i++)
            o[i] = dp[0] * std_exp(g);
        return 0;
    default:
        return 0;
    }
}

/* ---- shuffle, permutation, choice ---- */

static void
swap_rows(char *a, char *b, int64_t ndim, const int64_t *shape, const int64_t *strides,
          int64_t itemsize)
{
    if (ndim == 0) {
        for (int64_t i = 0; i < itemsize; i++) {
            char t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
        return;
    }
    for (int64_t i = 0; i < shape[0]; i++)
        swap_rows(a + i * strides[0], b + i * strides[0], ndim - 1, shape + 1, strides + 1,
                  itemsize);
}

void
kn_rt_npg_shuffle(KnBitGen *g, char *data, int64_t ndim, const int64_t *shape,
                  const int64_t *strides, int64_t itemsize)
{
    if (ndim < 1 || shape[0] < 2)
        return;
    for (int64_t k = 1; k < ndim; k++)
        if (shape[k] == 0)
            return;
    for (int64_t i = shape[0] - 1; i > 0; i--) {
        int64_t j = (int64_t)interval(g, (uint64_t)i);
        if (i != j)
            swap_rows(data + i * strides[0], data + j * strides[0], ndim - 1, shape + 1,
                      strides + 1, itemsize);
    }
}

void
kn_rt_npg_permutation(KnBitGen *g, int64_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = i;
    int64_t st = 8;
    kn_rt_npg_shuffle(g, (char *)out, 1, &n, &st, 8);
}

/* Fisher-Yates from the top down to `first`, with Lemire's draws (NumPy's _shuffle_int) */
static void
shuffle_int(KnBitGen *g, int64_t n, int64_t first, int64_t *data)
{
    for (int64_t i = n - 1; i >= first; i--) {
        int64_t j = (int64_t)bounded(g, (uint64_t)i), t = data[i];
        data[i] = data[j];
        data[j] = t;
    }
}

/* n distinct indices below pop, without probabilities */
static int32_t
sample(KnBitGen *g, int64_t pop, int64_t *idx, int64_t n, int64_t shuffle)
{
    int64_t cutoff = shuffle ? 50 : 20;
    if (pop > 10000 && n > pop / cutoff) { /* a tail shuffle of 0..pop-1 */
        int64_t *all = malloc((size_t)pop * sizeof *all);
        if (!all)
            return KN_EXC_NO_MEMORY;
        for (int64_t i = 0; i < pop; i++)
            all[i] = i;
        shuffle_int(g, pop, pop - n > 1 ? pop - n : 1, all);
        memcpy(idx, all + (pop - n), (size_t)n * sizeof *idx);
        free(all);
        return 0;
    }
    /* Floyd's algorithm over an open-addressed set of 2**k > 1.2 n slots */
    uint64_t mask = (uint64_t)(1.2 * (double)n);
    for (int sh = 1; sh <= 32; sh *= 2)
        mask |= mask >> sh;
    uint64_t *set = malloc((size_t)(mask + 1) * sizeof *set);
    if (!set)
        return KN_EXC_NO_MEMORY;
    memset(set, 0xff, (size_t)(mask + 1) * sizeof *set);
    for (int64_t j = pop - n; j < pop; j++) {
        uint64_t val = bounded(g, (uint64_t)j), loc = val & mask;
        while (set[loc] != UINT64_MAX && set[loc] != val)
            loc = (loc + 1) & mask;
        if (set[loc] == UINT64_MAX) {
            set[loc] = val;
            idx[j - pop + n] = (int64_t)val;
        } else {
            loc = (uint64_t)j & mask;
            while (set[loc] != UINT64_MAX)
                loc = (loc + 1) & mask;
            set[loc] = (uint64_t)j;
            idx[j - pop + n] = j;
        }
    }
    free(set);
    if (shuffle)
        shuffle_int(g, n, 1, idx);
    return 0;
}

static double
gen_draw(void *g)
{
    KnBitGen *b = g;
    return b->next_double(b->state);
}

static int32_t
check(int64_t pop, const char *p, int64_t pn, int64_t pstride, int64_t replace, int64_t n,
      int64_t given_int)
{
    if (n < 0)
        return KN_EXC_NPG_CHOICE_NEG_DIMS;
    if (pop <= 0 && n != 0)
        return given_int ? KN_EXC_NPG_CHOICE_A_INT : KN_EXC_NPG_CHOICE_A_EMPTY;
    if (p) {
        if (pn != pop)
            return KN_EXC_NPG_CHOICE_P_SIZE;
        double sum = kn_npr_kahan_sum(p, pn, pstride);
        if (isnan(sum))
            return KN_EXC_NPG_CHOICE_P_NAN;
        for (int64_t i = 0; i < pn; i++)
            if (*(const double *)(p + i * pstride) < 0)
                return KN_EXC_NPG_CHOICE_P_NEG;
        if (fabs(sum - 1.0) > 1.4901161193847656e-08)
            return KN_EXC_NPG_CHOICE_P_SUM;
    }
    if (!replace) {
        if (n > pop)
            return KN_EXC_NPG_CHOICE_LARGER;
        if (p) {
            int64_t nonzero = 0;
            for (int64_t i = 0; i < pn; i++)
                nonzero += *(const double *)(p + i * pstride) > 0;
            if (nonzero < n)
                return KN_EXC_NPG_CHOICE_FEWER;
        }
    }
    return 0;
}

static int32_t
indices(KnBitGen *g, int64_t pop, const char *p, int64_t pstride, int64_t replace, int64_t *idx,
        int64_t n, int64_t shuffle)
{
    if (!n)
        return 0;
    if (!p) {
        if (!replace)
            return sample(g, pop, idx, n, shuffle);
        for (int64_t i = 0; i < n; i++)
            idx[i] = (int64_t)bounded(g, (uint64_t)pop - 1u);
        return 0;
    }
    double *pc = malloc((size_t)pop * sizeof *pc);
    if (!pc)
        return KN_EXC_NO_MEMORY;
    for (int64_t i = 0; i < pop; i++)
        pc[i] = *(const double *)(p + i * pstride);
    int32_t e = 0;
    if (replace) {
        kn_npr_make_cdf(pc, pc, pop);
        for (int64_t i = 0; i < n; i++)
            idx[i] = kn_npr_search_right(pc, pop, g->next_double(g->state));
    } else {
        e = kn_npr_choice_p_unique(gen_draw, g, pc, pop, idx, n);
    }
    free(pc);
    return e;
}

int32_t
kn_rt_npg_choice(KnBitGen *g, int64_t pop, const char *data, int64_t stride, int64_t itemsize,
                 const char *p, int64_t pn, int64_t pstride, int64_t replace, char *out, int64_t n,
                 int64_t given_int, int64_t shuffle)
{
    int32_t e = check(pop, p, pn, pstride, replace, n, given_int);
    if (e)
        return e;
    if (!data)
        return indices(g, pop, p, pstride, replace, (int64_t *)out, n, shuffle);
    int64_t *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    if (!idx)
        return KN_EXC_NO_MEMORY;
    e = indices(g, pop, p, pstride, replace, idx, n, shuffle);
    for (int64_t i = 0; !e && i < n; i++)
        memcpy(out + i * itemsize, data + idx[i] * stride, (size_t)itemsize);
    free(idx);
    return e;
}
