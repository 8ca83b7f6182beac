/* order.h - NumPy's sort order as unsigned keys, private to runtime/ (sort.c, search.c).
 *
 * Each kn_ord_* function maps a value to an unsigned integer whose integer order is NumPy's
 * order of the values: signed integers flip their sign bit, floats map positive values to
 * bits | sign and negative ones to ~bits, -0.0 takes +0.0's key (the two compare equal, so a
 * stable sort keeps their index order) and every NaN takes the largest key (NaN sorts last, all
 * NaNs tie). Complex numbers order lexicographically on (real, imag) within NumPy's four classes
 * [R + Rj, R + nanj, nan + Rj, nan + nanj]: KnCKey holds the class and two float keys. */
#ifndef KN_RUNTIME_ORDER_H
#define KN_RUNTIME_ORDER_H

#include <stdint.h>
#include <string.h>

static inline uint64_t
kn_ord_f64(double x)
{
    uint64_t b;
    if (x != x)
        return UINT64_MAX;
    if (x == 0)
        x = 0.0; /* -0.0 ties with +0.0 */
    memcpy(&b, &x, sizeof b);
    return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
}

static inline uint32_t
kn_ord_f32(float x)
{
    uint32_t b;
    if (x != x)
        return UINT32_MAX;
    if (x == 0)
        x = 0.0f;
    memcpy(&b, &x, sizeof b);
    return (b >> 31) ? ~b : b | ((uint32_t)1 << 31);
}

/* complex: class 0 = both parts numbers (k1 real, k2 imag), 1 = R + nanj (k1 real), 2 =
 * nan + Rj (k1 imag), 3 = nan + nanj */
typedef struct KnCKey {
    uint64_t cls, k1, k2;
} KnCKey;

static inline KnCKey
kn_ord_complex(double re, double im)
{
    KnCKey k;
    int rn = re != re, in = im != im;
    k.cls = (uint64_t)(rn * 2 + in);
    k.k1 = rn ? (in ? 0 : kn_ord_f64(im)) : kn_ord_f64(re);
    k.k2 = (rn || in) ? 0 : kn_ord_f64(im);
    return k;
}

static inline int
kn_ckey_lt(KnCKey a, KnCKey b)
{
    if (a.cls != b.cls)
        return a.cls < b.cls;
    if (a.k1 != b.k1)
        return a.k1 < b.k1;
    return a.k2 < b.k2;
}

static inline int
kn_ckey_eq(KnCKey a, KnCKey b)
{
    return a.cls == b.cls && a.k1 == b.k1 && a.k2 == b.k2;
}

#endif
