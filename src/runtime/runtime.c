/* runtime.c - helpers that compiled code calls for operations too long to inline: integer
 * powers, gcd, isqrt, frexp, round with digits, complex power and division, and Python's
 * float floor division and modulo. Pure C over base/: no Python, no LLVM. */
#include "runtime/runtime.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int64_t
kn_rt_ipow(int64_t base, uint64_t exp)
{
    /* wrap at 64 bits, as Numba; the exponent is unsigned so that a uint64 one of 2**63 or more
     * is not taken as negative (a negative signed one raises before the call) */
    uint64_t r = 1, b = (uint64_t)base;
    while (exp > 0) {
        if (exp & 1)
            r *= b;
        b *= b;
        exp >>= 1;
    }
    return (int64_t)r;
}

int64_t
kn_rt_ipow_mod(int64_t base, int64_t exp, int64_t mod)
{
    /* Python's three-argument pow for exp >= 0; the result takes the sign of mod */
    __int128 m = mod, r = 1, b = base % mod;
    if (b < 0)
        b += m < 0 ? -m : m;
    while (exp > 0) {
        if (exp & 1)
            r = r * b % m;
        b = b * b % m;
        exp >>= 1;
    }
    int64_t res = (int64_t)(r % m);
    if (res != 0 && ((res < 0) != (mod < 0)))
        res += mod;
    return res;
}

int64_t
kn_rt_gcd(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a, y = b < 0 ? -(uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (int64_t)x;
}

int64_t
kn_rt_isqrt(int64_t n, int32_t *err)
{
    if (n < 0) {
        *err = 1;
        return 0;
    }
    *err = 0;
    uint64_t x = (uint64_t)sqrt((double)n);
    while (x * x > (uint64_t)n)
        x--;
    while ((x + 1) * (x + 1) <= (uint64_t)n)
        x++;
    return (int64_t)x;
}

double
kn_rt_frexp(double x, int64_t *exp)
{
    int e = 0;
    double m = frexp(x, &e);
    *exp = e;
    return m;
}

/* round(x, ndigits) correctly rounded, as CPython: glibc's printf rounds the exact binary
 * value half-to-even, and strtod reads the decimal back exactly. */
double
kn_rt_round_ndigits(double x, int64_t ndigits)
{
    if (!isfinite(x) || x == 0.0)
        return x;
    if (ndigits > 323)
        return x;
    if (ndigits < -308)
        return copysign(0.0, x);
    char buf[512];
    if (ndigits >= 0) {
        snprintf(buf, sizeof buf, "%.*f", (int)ndigits, x);
        return copysign(strtod(buf, NULL), x);
    }
    /* negative ndigits: round the exact value to a multiple of 10**k, half to even. The integer
     * part is printed exactly; its last k digits and the fraction decide the rounding. */
    int k = (int)-ndigits;
    double a = fabs(x), ip = floor(a);
    int len = snprintf(buf, sizeof buf, "%.0f", ip), keep = len - k;
    int up = 0;
    if (keep >= 0) {
        int rest_nonzero = a != ip;
        for (int i = keep + 1; i < len; i++)
            rest_nonzero |= buf[i] != '0';
        int d = keep < len ? buf[keep] - '0' : 0;
        int last_odd = keep > 0 && (buf[keep - 1] - '0') % 2;
        up = d > 5 || (d == 5 && (rest_nonzero || last_odd));
    }
    if (keep < 0)
        keep = 0;
    for (int i = keep - 1; up && i >= 0; i--) { /* add one at the last kept digit */
        up = buf[i] == '9';
        buf[i] = up ? '0' : (char)(buf[i] + 1);
    }
    char out[560];
    if (keep == 0 && !up)
        return copysign(0.0, x);
    snprintf(out, sizeof out, "%s%.*se%d", up ? "1" : "", keep, buf, k);
    return copysign(strtod(out, NULL), x); /* inf when too large: the caller raises */
}

/* round(x, ndigits) of an int, as CPython's: to a multiple of 10**-ndigits, half to even; a
 * result past int64 wraps, as kiln's other int arithmetic */
int64_t
kn_rt_round_int(int64_t x, int64_t ndigits)
{
    if (ndigits >= 0)
        return x;
    if (ndigits < -19) /* |x| < 2**63 < 10**20 / 2 */
        return 0;
    __int128 p = 1, v = x;
    for (int64_t i = 0; i < -ndigits; i++)
        p *= 10;
    __int128 q = v / p, r = v % p, twice = 2 * (r < 0 ? -r : r);
    if (twice > p || (twice == p && (q & 1)))
        q += v < 0 ? -1 : 1;
    return (int64_t)(uint64_t)(unsigned __int128)(q * p);
}

void
kn_rt_cdiv(double ar, double ai, double br, double bi, double *out)
{
    /* Smith's algorithm, as CPython's complex division */
    double abs_br = fabs(br), abs_bi = fabs(bi);
    if (br == 0.0 && bi == 0.0) { /* NumPy's result (Python raises before this) */
        out[0] = ar / abs_br;
        out[1] = ai / abs_br;
        return;
    }
    if (abs_br >= abs_bi) {
        double ratio = bi / br, denom = br + bi * ratio;
        out[0] = (ar + ai * ratio) / denom;
        out[1] = (ai - ar * ratio) / denom;
    } else if (abs_bi >= abs_br) {
        double ratio = br / bi, denom = br * ratio + bi;
        out[0] = (ar * ratio + ai) / denom;
        out[1] = (ai * ratio - ar) / denom;
    } else {
        out[0] = out[1] = NAN;
    }
}

/* x ** n for an integer n >= 0 by repeated squaring, products as CPython's c_prod */
static void
cpow_unsigned(double xr, double xi, long n, double *out)
{
    double rr = 1.0, ri = 0.0, pr = xr, pi = xi;
    for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
        if (n & mask) {
            double t = rr * pr - ri * pi;
            ri = rr * pi + ri * pr;
            rr = t;
        }
        double t = pr * pr - pi * pi;
        pi = pr * pi + pi * pr;
        pr = t;
    }
    out[0] = rr;
    out[1] = ri;
}

/* Complex power as CPython's complex_pow: an integral real exponent of magnitude <= 100 goes by
 * repeated multiplication (and one division for a negative one), so (1-1j)**2 is exactly -2j;
 * others by polar form. 0 to a power with a real part <= 0 (or nan) is NumPy's nan+nanj here, and
 * 0 to one with a positive real part is 0 (Python raises ZeroDivisionError before calling this
 * for a negative or complex exponent). */
void
kn_rt_cpow(double ar, double ai, double br, double bi, double *out)
{
    if (br == 0.0 && bi == 0.0) {
        out[0] = 1.0;
        out[1] = 0.0;
        return;
    }
    if (ar == 0.0 && ai == 0.0) {
        int zero = br > 0.0; /* NumPy's npy_cpow: 0 for a positive real part, whatever the imag */
        out[0] = zero ? 0.0 : NAN;
        out[1] = zero ? 0.0 : NAN;
        return;
    }
    if (bi == 0.0 && br == floor(br) && fabs(br) <= 100.0) {
        long n = (long)br;
        cpow_unsigned(ar, ai, n < 0 ? -n : n, out);
        if (n < 0)
            kn_rt_cdiv(1.0, 0.0, out[0], out[1], out);
        return;
    }
    double vabs = hypot(ar, ai), len = pow(vabs, br), at = atan2(ai, ar), phase = at * br;
    if (bi != 0.0) {
        len /= exp(at * bi);
        phase += bi * log(vabs);
    }
    out[0] = len * cos(phase);
    out[1] = len * sin(phase);
}

double
kn_rt_float_mod(double a, double b)
{
    double m = fmod(a, b);
    if (m != 0.0) {
        if ((b < 0) != (m < 0))
            m += b;
    } else {
        m = copysign(0.0, b);
    }
    return m;
}

double
kn_rt_float_floordiv(double a, double b)
{
    if (b == 0.0)
        return a / b; /* NumPy's floor_divide: inf, -inf or nan (Python raises before this) */
    double m = fmod(a, b), div = (a - m) / b;
    if (m != 0.0 && ((b < 0) != (m < 0)))
        div -= 1.0;
    if (div != 0.0) {
        double f = floor(div);
        if (div - f > 0.5)
            f += 1.0;
        return f;
    }
    return copysign(0.0, a / b);
}

/* NumPy's math functions of complex numbers (which: KN_CFN_*), through C99's <complex.h>. */
void
kn_rt_complex_fn(int32_t which, double re, double im, double *out)
{
    double complex z = CMPLX(re, im), r;
    switch (which) {
    case KN_CFN_SQRT:
        r = csqrt(z);
        break;
    case KN_CFN_EXP:
        r = cexp(z);
        break;
    case KN_CFN_LOG:
        r = clog(z);
        break;
    case KN_CFN_SIN:
        r = csin(z);
        break;
    case KN_CFN_COS:
        r = ccos(z);
        break;
    case KN_CFN_TAN:
        r = ctan(z);
        break;
    case KN_CFN_SINH:
        r = csinh(z);
        break;
    case KN_CFN_COSH:
        r = ccosh(z);
        break;
    case KN_CFN_TANH:
        r = ctanh(z);
        break;
    case KN_CFN_ASIN:
        r = casin(z);
        break;
    case KN_CFN_ACOS:
        r = cacos(z);
        break;
    case KN_CFN_ATAN:
        r = catan(z);
        break;
    case KN_CFN_ASINH:
        r = casinh(z);
        break;
    case KN_CFN_ACOSH:
        r = cacosh(z);
        break;
    case KN_CFN_ATANH:
        r = catanh(z);
        break;
    case KN_CFN_EXPM1: { /* NumPy's nc_expm1 */
        double a = sin(im / 2);
        r = CMPLX(expm1(re) * cos(im) - 2 * a * a, exp(re) * sin(im));
        break;
    }
    case KN_CFN_LOG1P: /* NumPy's nc_log1p */
        r = CMPLX(log(hypot(re + 1, im)), atan2(im, re + 1));
        break;
    default:
        r = CMPLX(NAN, NAN);
    }
    out[0] = creal(r);
    out[1] = cimag(r);
}
