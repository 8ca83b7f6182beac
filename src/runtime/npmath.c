/* npmath.c - run-time helpers of NumPy's math ufuncs that compiled code calls (lower/npmath.c):
 * the modified Bessel function I0 of np.i0 and the gcd of two unsigned 64-bit integers. */
#include "runtime/runtime.h"

#include <math.h>

/* I0(x) = sum over k of ((x/2)^2)^k / (k!)^2 for |x| <= 40 (positive terms: no cancellation);
 * past it the asymptotic series e^x / sqrt(2 pi x) * sum of ((2k-1)!!)^2 / (k! (8x)^k), whose
 * terms fall fast there. NaN stays NaN. */
double
kn_rt_i0(double x)
{
    double ax = fabs(x);
    if (isnan(x))
        return x;
    if (isinf(x))
        return NAN; /* NumPy's np.i0 gives NaN for infinities */
    if (ax <= 40.0) {
        double q = ax * ax / 4.0, term = 1.0, sum = 1.0;
        for (int k = 1; k < 500; k++) {
            term *= q / ((double)k * (double)k);
            sum += term;
            if (term < sum * 1e-17)
                break;
        }
        return sum;
    }
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 60; k++) {
        double odd = 2.0 * k - 1.0;
        term *= odd * odd / ((double)k * 8.0 * ax);
        sum += term;
        if (term < sum * 1e-17)
            break;
    }
    double half = exp(ax / 2.0); /* e^x in two halves: finite a little past e^709 */
    return half * (half / sqrt(2.0 * 3.141592653589793238462643383279502884 * ax) * sum);
}

int64_t
kn_rt_gcd_u64(int64_t a, int64_t b)
{
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (int64_t)x;
}
