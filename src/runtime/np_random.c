/* np_random.c - np.random's legacy module-level functions in compiled code: NumPy's
 * RandomState stream, one state per thread.
 *
 * The generator is MT19937 (runtime/mt19937.h) seeded as NumPy's legacy seeding does: an int
 * seed s in [0, 2**32) is init_genrand(s) (RandomState(s), np.random.seed(s)); a thread that
 * never seeds is seeded once from the OS (getrandom). Draws follow NumPy's documented legacy
 * algorithms, reimplemented here: random_sample is (a >> 5, b >> 6) of two outputs as a 53-bit
 * double; gauss is the polar method keeping its second value until the next call or seed;
 * standard_exponential is -log(1 - u); standard_gamma is Marsaglia and Tsang's method over
 * gauss for shape > 1 and Johnk's rejection for shape < 1; the others are built on these as
 * NumPy's legacy functions are. The discrete draws, shuffle and choice are in
 * np_random_discrete.c. The state is separate from the interpreter's np.random and from
 * compiled code's `random` module (random.c), as Numba's. Pure C over base/. */
#include "runtime/np_random.h"

#include "runtime/mt19937.h"
#include "runtime/runtime.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

struct KnNpr {
    KnMT mt;
    int seeded;
    int has_gauss;
    double gauss;
};

static _Thread_local KnNpr *npr __attribute__((tls_model("initial-exec")));
static pthread_key_t npr_key;
static pthread_once_t npr_once = PTHREAD_ONCE_INIT;

static void
make_key(void)
{
    pthread_key_create(&npr_key, free);
}

static void
seed_os(KnNpr *s)
{
    uint32_t key[8];
    if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        key[0] = (uint32_t)ts.tv_nsec;
        key[1] = (uint32_t)ts.tv_sec;
        key[2] = (uint32_t)(uintptr_t)s;
        key[3] = (uint32_t)((uint64_t)(uintptr_t)s >> 32);
        for (int i = 4; i < 8; i++)
            key[i] = (uint32_t)i;
    }
    kn_mt_init_by_array(&s->mt, key, 8);
    s->seeded = 1;
    s->has_gauss = 0;
}

/* this thread's state, seeded; a thread that cannot allocate one shares a static one */
KnNpr *
kn_npr_state(void)
{
    static KnNpr fallback;
    if (!npr) {
        pthread_once(&npr_once, make_key);
        npr = calloc(1, sizeof *npr);
        if (npr)
            pthread_setspecific(npr_key, npr);
        else
            npr = &fallback;
    }
    if (!npr->seeded)
        seed_os(npr);
    return npr;
}

int32_t
kn_rt_npr_seed(int64_t seed)
{
    if (seed < 0 || seed > 0xffffffffll)
        return KN_EXC_NPR_SEED;
    KnNpr *s = kn_npr_state();
    kn_mt_init_genrand(&s->mt, (uint32_t)seed);
    s->has_gauss = 0;
    return 0;
}

void
kn_rt_npr_seed_os(void)
{
    seed_os(kn_npr_state());
}

/* ---- the basic draws ---- */

uint32_t
kn_npr_next32(KnNpr *s)
{
    return kn_mt_next(&s->mt);
}

/* two outputs, the first the high word */
uint64_t
kn_npr_next64(KnNpr *s)
{
    uint64_t hi = kn_mt_next(&s->mt);
    return hi << 32 | kn_mt_next(&s->mt);
}

double
kn_npr_double(KnNpr *s)
{
    int32_t a = (int32_t)(kn_mt_next(&s->mt) >> 5), b = (int32_t)(kn_mt_next(&s->mt) >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

double
kn_npr_gauss(KnNpr *s)
{
    if (s->has_gauss) {
        s->has_gauss = 0;
        return s->gauss;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * kn_npr_double(s) - 1.0;
        x2 = 2.0 * kn_npr_double(s) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = sqrt(-2.0 * log(r2) / r2);
    s->gauss = f * x1;
    s->has_gauss = 1;
    return f * x2;
}

double
kn_npr_std_exp(KnNpr *s)
{
    return -log(1.0 - kn_npr_double(s));
}

double
kn_npr_std_gamma(KnNpr *s, double shape)
{
    if (shape == 1.0)
        return kn_npr_std_exp(s);
    if (shape == 0.0)
        return 0.0;
    if (shape < 1.0) {
        for (;;) {
            double u = kn_npr_double(s), v = kn_npr_std_exp(s);
            if (u <= 1.0 - shape) {
                double x = pow(u, 1.0 / shape);
                if (x <= v)
                    return x;
            } else {
                double y = -log((1 - u) / shape);
                double x = pow(1.0 - shape + shape * y, 1.0 / shape);
                if (x <= v + y)
                    return x;
            }
        }
    }
    double b = shape - 1.0 / 3.0, c = 1.0 / sqrt(9 * b);
    for (;;) {
        double x, v;
        do {
            x = kn_npr_gauss(s);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = kn_npr_double(s);
        if (u < 1.0 - 0.0331 * (x * x) * (x * x))
            return b * v;
        if (log(u) < 0.5 * x * x + b * (1.0 - v + log(v)))
            return b * v;
    }
}

/* ---- continuous distributions ---- */

static double
beta(KnNpr *s, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) { /* Johnk's algorithm */
        for (;;) {
            double u = kn_npr_double(s), v = kn_npr_double(s);
            double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b);
            if (x + y <= 1.0) {
                if (x + y > 0)
                    return x / (x + y);
                double lx = log(u) / a, ly = log(v) / b;
                double lm = lx > ly ? lx : ly;
                lx -= lm;
                ly -= lm;
                return exp(lx - log(exp(lx) + exp(ly)));
            }
        }
    }
    double ga = kn_npr_std_gamma(s, a), gb = kn_npr_std_gamma(s, b);
    return ga / (ga + gb);
}

static double
chisquare(KnNpr *s, double df)
{
    return 2.0 * kn_npr_std_gamma(s, df / 2.0);
}

static double
noncentral_chisquare(KnNpr *s, double df, double nonc)
{
    if (nonc == 0)
        return chisquare(s, df);
    if (1 < df) {
        double chi2 = chisquare(s, df - 1);
        double n = kn_npr_gauss(s) + sqrt(nonc);
        return chi2 + n * n;
    }
    int64_t i = kn_npr_poisson(s, nonc / 2.0);
    double out = chisquare(s, df + 2 * i);
    return isnan(nonc) ? NAN : out;
}

static double
laplace(KnNpr *s, double loc, double scale)
{
    for (;;) {
        double u = kn_npr_double(s);
        if (u >= 0.5)
            return loc - scale * log(2.0 - u - u);
        if (u > 0.0)
            return loc + scale * log(u + u);
    }
}

static double
logistic(KnNpr *s, double loc, double scale)
{
    for (;;) {
        double u = kn_npr_double(s);
        if (u > 0.0)
            return loc + scale * log(u / (1.0 - u));
    }
}

static double
gumbel(KnNpr *s, double loc, double scale)
{
    for (;;) {
        double u = 1.0 - kn_npr_double(s);
        if (u < 1.0)
            return loc - scale * log(-log(u));
    }
}

static double
triangular(KnNpr *s, double left, double mode, double right)
{
    double base = right - left, leftbase = mode - left, ratio = leftbase / base;
    double leftprod = leftbase * base, rightprod = (right - mode) * base;
    double u = kn_npr_double(s);
    if (u <= ratio)
        return left + sqrt(u * leftprod);
    return right - sqrt((1.0 - u) * rightprod);
}

static double
vonmises(KnNpr *s, double mu, double kappa)
{
    if (kappa < 1e-8)
        return M_PI * (2 * kn_npr_double(s) - 1);
    double sv;
    if (kappa < 1e-5) {
        sv = 1.0 / kappa + kappa;
    } else {
        double r = 1 + sqrt(1 + 4 * kappa * kappa);
        double rho = (r - sqrt(2 * r)) / (2 * kappa);
        sv = (1 + rho * rho) / (2 * rho);
    }
    double w;
    for (;;) {
        double u = kn_npr_double(s), z = cos(M_PI * u);
        w = (1 + sv * z) / (sv + z);
        double y = kappa * (sv - w), v = kn_npr_double(s);
        if (y * (2 - y) - v >= 0 || log(y / v) + 1 - y >= 0)
            break;
    }
    double u = kn_npr_double(s), result = acos(w);
    if (u < 0.5)
        result = -result;
    result += mu;
    int neg = result < 0;
    double mod = fabs(result);
    mod = fmod(mod + M_PI, 2 * M_PI) - M_PI;
    return neg ? -mod : mod;
}

static double
wald(KnNpr *s, double mean, double scale)
{
    double mu_2l = mean / (2 * scale), y = kn_npr_gauss(s);
    y = mean * y * y;
    double x = mean + mu_2l * (y - sqrt(4 * scale * y + y * y));
    double u = kn_npr_double(s);
    return u <= mean / (mean + x) ? x : mean * mean / x;
}

static double
draw_double(KnNpr *s, int kind, const double *p)
{
    switch (kind) {
    case KN_NPR_RANDOM:
        return kn_npr_double(s);
    case KN_NPR_STD_NORMAL:
        return kn_npr_gauss(s);
    case KN_NPR_NORMAL:
        return p[0] + p[1] * kn_npr_gauss(s);
    case KN_NPR_UNIFORM:
        return p[0] + (p[1] - p[0]) * kn_npr_double(s);
    case KN_NPR_STD_EXP:
        return kn_npr_std_exp(s);
    case KN_NPR_EXPONENTIAL:
        return p[0] * kn_npr_std_exp(s);
    case KN_NPR_STD_GAMMA:
        return kn_npr_std_gamma(s, p[0]);
    case KN_NPR_GAMMA:
        return p[1] * kn_npr_std_gamma(s, p[0]);
    case KN_NPR_BETA:
        return beta(s, p[0], p[1]);
    case KN_NPR_CHISQUARE:
        return chisquare(s, p[0]);
    case KN_NPR_NONCENTRAL_CHISQUARE:
        return noncentral_chisquare(s, p[0], p[1]);
    case KN_NPR_F:
        return chisquare(s, p[0]) * p[1] / (chisquare(s, p[1]) * p[0]);
    case KN_NPR_STANDARD_T: {
        double num = kn_npr_gauss(s), denom = kn_npr_std_gamma(s, p[0] / 2);
        return sqrt(p[0] / 2) * num / sqrt(denom);
    }
    case KN_NPR_LOGNORMAL:
        return exp(p[0] + p[1] * kn_npr_gauss(s));
    case KN_NPR_LAPLACE:
        return laplace(s, p[0], p[1]);
    case KN_NPR_LOGISTIC:
        return logistic(s, p[0], p[1]);
    case KN_NPR_GUMBEL:
        return gumbel(s, p[0], p[1]);
    case KN_NPR_WEIBULL:
        return p[0] == 0.0 ? 0.0 : pow(kn_npr_std_exp(s), 1.0 / p[0]);
    case KN_NPR_PARETO:
        return exp(kn_npr_std_exp(s) / p[0]) - 1;
    case KN_NPR_POWER:
        return pow(1 - exp(-kn_npr_std_exp(s)), 1.0 / p[0]);
    case KN_NPR_RAYLEIGH:
        return p[0] * sqrt(-2.0 * log1p(-kn_npr_double(s)));
    case KN_NPR_TRIANGULAR:
        return triangular(s, p[0], p[1], p[2]);
    case KN_NPR_VONMISES:
        return vonmises(s, p[0], p[1]);
    case KN_NPR_WALD:
        return wald(s, p[0], p[1]);
    case KN_NPR_STD_CAUCHY: {
        double n = kn_npr_gauss(s);
        return n / kn_npr_gauss(s);
    }
    default:
        return NAN;
    }
}

/* ---- parameter checks (NumPy's, in its order) ---- */

static int
negative(double v) /* signbit and not NaN: NumPy's "x < 0", which -0.0 fails */
{
    return !isnan(v) && signbit(v);
}

static int32_t
check_double(int kind, const double *p)
{
    switch (kind) {
    case KN_NPR_NORMAL:
    case KN_NPR_LAPLACE:
    case KN_NPR_LOGISTIC:
    case KN_NPR_GUMBEL:
        return negative(p[1]) ? KN_EXC_NPR_SCALE : 0;
    case KN_NPR_UNIFORM:
        return isfinite(p[1] - p[0]) ? 0 : KN_EXC_NPR_RANGE;
    case KN_NPR_EXPONENTIAL:
    case KN_NPR_RAYLEIGH:
        return negative(p[0]) ? KN_EXC_NPR_SCALE : 0;
    case KN_NPR_STD_GAMMA:
        return negative(p[0]) ? KN_EXC_NPR_SHAPE : 0;
    case KN_NPR_GAMMA:
        return negative(p[0]) ? KN_EXC_NPR_SHAPE : negative(p[1]) ? KN_EXC_NPR_SCALE : 0;
    case KN_NPR_BETA:
        return p[0] <= 0 ? KN_EXC_NPR_A_POS : p[1] <= 0 ? KN_EXC_NPR_B_POS : 0;
    case KN_NPR_CHISQUARE:
    case KN_NPR_STANDARD_T:
        return p[0] <= 0 ? KN_EXC_NPR_DF : 0;
    case KN_NPR_NONCENTRAL_CHISQUARE:
        return p[0] <= 0 ? KN_EXC_NPR_DF : negative(p[1]) ? KN_EXC_NPR_NONC : 0;
    case KN_NPR_F:
        return p[0] <= 0 ? KN_EXC_NPR_DFNUM : p[1] <= 0 ? KN_EXC_NPR_DFDEN : 0;
    case KN_NPR_LOGNORMAL:
        return negative(p[1]) ? KN_EXC_NPR_SIGMA : 0;
    case KN_NPR_WEIBULL:
        return negative(p[0]) ? KN_EXC_NPR_A_NEG : 0;
    case KN_NPR_PARETO:
    case KN_NPR_POWER:
        return p[0] <= 0 ? KN_EXC_NPR_A_POS : 0;
    case KN_NPR_TRIANGULAR:
        return p[0] > p[1]    ? KN_EXC_NPR_LEFT_MODE
               : p[1] > p[2]  ? KN_EXC_NPR_MODE_RIGHT
               : p[0] == p[2] ? KN_EXC_NPR_LEFT_RIGHT
                              : 0;
    case KN_NPR_VONMISES:
        return negative(p[1]) ? KN_EXC_NPR_KAPPA : 0;
    case KN_NPR_WALD:
        return p[0] <= 0 ? KN_EXC_NPR_MEAN_POS : p[1] <= 0 ? KN_EXC_NPR_SCALE_POS : 0;
    default:
        return 0;
    }
}

int32_t
kn_rt_npr_fill(int32_t kind, const double *dp, const int64_t *ip, void *out, int64_t n)
{
    KnNpr *s = kn_npr_state();
    if (kind > KN_NPR__INT) {
        int32_t e = kn_npr_check_discrete(kind, dp, ip);
        if (e)
            return e;
        int64_t *o = out;
        for (int64_t i = 0; i < n; i++)
            o[i] = kn_npr_discrete(s, kind, dp, ip);
        return 0;
    }
    int32_t e = check_double(kind, dp);
    if (e)
        return e;
    double *o = out;
    if (kind == KN_NPR_STD_NORMAL) {
        for (int64_t i = 0; i < n; i++)
            o[i] = kn_npr_gauss(s);
    } else if (kind == KN_NPR_NORMAL) {
        for (int64_t i = 0; i < n; i++)
            o[i] = dp[0] + dp[1] * kn_npr_gauss(s);
    } else if (kind == KN_NPR_RANDOM) {
        for (int64_t i = 0; i < n; i++)
            o[i] = kn_npr_double(s);
    } else {
        for (int64_t i = 0; i < n; i++)
            o[i] = draw_double(s, kind, dp);
    }
    return 0;
}

double
kn_rt_npr_random(void)
{
    return kn_npr_double(kn_npr_state());
}

/* normal(loc, scale) with a scale the caller checked */
double
kn_rt_npr_normal(double loc, double scale)
{
    return loc + scale * kn_npr_gauss(kn_npr_state());
}
