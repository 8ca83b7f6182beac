/* search.c - np.searchsorted, np.digitize, np.interp, np.histogram and np.linspace's edges for
 * compiled code, on contiguous buffers of one KN_DT_* type.
 *
 * kn_rt_searchsorted is NumPy's binary search under NumPy's order (NaN largest, complex by the
 * classes of order.h), including its reuse of the previous key's bounds, so that even an
 * unsorted `a` gives NumPy's answer. kn_rt_digitize checks monotonicity on the bins converted to
 * float64, as NumPy does (a NaN makes bins read as decreasing), and searches reversed bins for
 * decreasing ones. kn_rt_interp follows NumPy's arr_interp step for step (its search with a
 * guess, precomputed slopes, the x == xp[j] and NaN retries) so that results are bit-identical;
 * kn_rt_interp_complex is its complex twin. kn_rt_histogram bins with NumPy's formula
 * ((a - lo) / (hi - lo)) * nbins and then corrects the bin by comparing with the edges that
 * np.linspace gives (kn_rt_linspace_edges, computed on the fly); kn_rt_histogram_edges counts
 * with the searchsorted-right rule, the last edge inclusive. Argument checks (empty xp, lo >= hi,
 * non-increasing edges) are the caller's; nothing here allocates or raises. */
#include <string.h>

#include "runtime/order.h"
#include "runtime/runtime.h"

typedef struct {
    float re, im;
} KnC64;
typedef struct {
    double re, im;
} KnC128;

#define KN_LT_INT(x, y) ((x) < (y))
#define KN_LT_FLT(x, y) ((x) < (y) || ((y) != (y) && (x) == (x)))
#define KN_LT_CPX(x, y) kn_ckey_lt(kn_ord_complex((x).re, (x).im), kn_ord_complex((y).re, (y).im))

/* NumPy's binsearch: a(i) is item i of the searched array (possibly reversed), keys v[0, nv) */
#define KN_DEF_SEARCH(N, T, LT)                                                                    \
    static void search_##N(const T *a, int64_t na, int rev, const T *v, int64_t nv, int right,     \
                           int64_t *out)                                                           \
    {                                                                                              \
        int64_t lo = 0, hi = na;                                                                   \
        if (nv <= 0)                                                                               \
            return;                                                                                \
        T last = v[0];                                                                             \
        for (int64_t i = 0; i < nv; i++) {                                                         \
            T key = v[i];                                                                          \
            if (LT(last, key)) {                                                                   \
                hi = na;                                                                           \
            } else {                                                                               \
                lo = 0;                                                                            \
                hi = hi < na ? hi + 1 : na;                                                        \
            }                                                                                      \
            last = key;                                                                            \
            while (lo < hi) {                                                                      \
                int64_t mid = lo + ((hi - lo) >> 1);                                               \
                T m = a[rev ? na - 1 - mid : mid];                                                 \
                if (right ? !LT(key, m) : LT(m, key))                                              \
                    lo = mid + 1;                                                                  \
                else                                                                               \
                    hi = mid;                                                                      \
            }                                                                                      \
            out[i] = lo;                                                                           \
        }                                                                                          \
    }

KN_DEF_SEARCH(b, uint8_t, KN_LT_INT)
KN_DEF_SEARCH(i8, int8_t, KN_LT_INT)
KN_DEF_SEARCH(i16, int16_t, KN_LT_INT)
KN_DEF_SEARCH(i32, int32_t, KN_LT_INT)
KN_DEF_SEARCH(i64, int64_t, KN_LT_INT)
KN_DEF_SEARCH(u8, uint8_t, KN_LT_INT)
KN_DEF_SEARCH(u16, uint16_t, KN_LT_INT)
KN_DEF_SEARCH(u32, uint32_t, KN_LT_INT)
KN_DEF_SEARCH(u64, uint64_t, KN_LT_INT)
KN_DEF_SEARCH(f32, float, KN_LT_FLT)
KN_DEF_SEARCH(f64, double, KN_LT_FLT)
KN_DEF_SEARCH(c64, KnC64, KN_LT_CPX)
KN_DEF_SEARCH(c128, KnC128, KN_LT_CPX)

static void
search(const void *a, int64_t na, int rev, const void *v, int64_t nv, int32_t dt, int right,
       int64_t *out)
{
    switch (dt) {
    case KN_DT_BOOL:
        search_b(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_I8:
        search_i8(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_I16:
        search_i16(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_I32:
        search_i32(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_I64:
        search_i64(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_U8:
        search_u8(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_U16:
        search_u16(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_U32:
        search_u32(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_U64:
        search_u64(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_F32:
        search_f32(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_F64:
        search_f64(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_C64:
        search_c64(a, na, rev, v, nv, right, out);
        break;
    case KN_DT_C128:
        search_c128(a, na, rev, v, nv, right, out);
        break;
    default:
        break;
    }
}

void
kn_rt_searchsorted(const void *a, int64_t na, const void *v, int64_t nv, int32_t dt, int32_t right,
                   int64_t *out)
{
    search(a, na, 0, v, nv, dt, right != 0, out);
}

/* item i of a real buffer as a double (NumPy converts the bins to float64 for the check) */
static double
as_double(const void *p, int32_t dt, int64_t i)
{
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        return ((const uint8_t *)p)[i];
    case KN_DT_I8:
        return ((const int8_t *)p)[i];
    case KN_DT_I16:
        return ((const int16_t *)p)[i];
    case KN_DT_U16:
        return ((const uint16_t *)p)[i];
    case KN_DT_I32:
        return ((const int32_t *)p)[i];
    case KN_DT_U32:
        return ((const uint32_t *)p)[i];
    case KN_DT_I64:
        return (double)((const int64_t *)p)[i];
    case KN_DT_U64:
        return (double)((const uint64_t *)p)[i];
    case KN_DT_F32:
        return ((const float *)p)[i];
    default:
        return ((const double *)p)[i];
    }
}

/* 1 increasing (or all equal, or empty), -1 decreasing, 0 neither: NumPy's check_array_monotonic */
static int
monotonic(const void *bins, int64_t nb, int32_t dt)
{
    if (nb == 0)
        return 1;
    double last = as_double(bins, dt, 0), next;
    int64_t i = 1;
    while (i < nb && as_double(bins, dt, i) == last)
        i++;
    if (i == nb)
        return 1;
    next = as_double(bins, dt, i);
    if (last < next) {
        for (i++; i < nb; i++) {
            last = next;
            next = as_double(bins, dt, i);
            if (last > next)
                return 0;
        }
        return 1;
    }
    for (i++; i < nb; i++) {
        last = next;
        next = as_double(bins, dt, i);
        if (last < next)
            return 0;
    }
    return -1;
}

int32_t
kn_rt_digitize(const void *x, int64_t nx, const void *bins, int64_t nb, int32_t dt, int32_t right,
               int64_t *out)
{
    if (dt == KN_DT_C64 || dt == KN_DT_C128)
        return -1; /* NumPy: "x may not be complex" (the caller's TypeError) */
    int mono = monotonic(bins, nb, dt);
    if (mono == 0)
        return -1;
    /* np.digitize(right=False) is searchsorted(side='right') and vice versa */
    int side_right = right == 0;
    if (mono == 1) {
        search(bins, nb, 0, x, nx, dt, side_right, out);
    } else {
        search(bins, nb, 1, x, nx, dt, side_right, out);
        for (int64_t i = 0; i < nx; i++)
            out[i] = nb - out[i];
    }
    return 0;
}

/* ---- np.interp ---------------------------------------------------------------------------- */

enum { KN_INTERP_NEAR = 8 }; /* NumPy's LIKELY_IN_CACHE_SIZE */

/* index j with xp[j] <= key < xp[j + 1]: -1 below xp[0], len above xp[len - 1]; tries the
 * neighbourhood of guess first (the previous x's j), exactly as NumPy's binary_search_with_guess */
static int64_t
interp_search(double key, const double *xp, int64_t len, int64_t guess)
{
    int64_t lo = 0, hi = len;
    if (key > xp[len - 1])
        return len;
    if (key < xp[0])
        return -1;
    if (len <= 4) {
        int64_t i = 1;
        while (i < len && key >= xp[i])
            i++;
        return i - 1;
    }
    if (guess > len - 3)
        guess = len - 3;
    if (guess < 1)
        guess = 1;
    if (key < xp[guess]) {
        if (!(key < xp[guess - 1]))
            return guess - 1;
        hi = guess - 1;
        if (guess > KN_INTERP_NEAR && key >= xp[guess - KN_INTERP_NEAR])
            lo = guess - KN_INTERP_NEAR;
    } else {
        if (key < xp[guess + 1])
            return guess;
        if (key < xp[guess + 2])
            return guess + 1;
        lo = guess + 2;
        if (guess < len - KN_INTERP_NEAR - 1 && key < xp[guess + KN_INTERP_NEAR])
            hi = guess + KN_INTERP_NEAR;
    }
    while (lo < hi) {
        int64_t mid = lo + ((hi - lo) >> 1);
        if (key >= xp[mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* the interpolated value between (xp[j], fp[j]) and (xp[j + 1], fp[j + 1]) with slope s; if it
 * comes out NaN, from the other end, and if still NaN with equal ends, that end value */
static double
interp_at(double x, const double *xp, double f0, double f1, int64_t j, double s)
{
    double r = s * (x - xp[j]) + f0;
    if (r != r) {
        r = s * (x - xp[j + 1]) + f1;
        if (r != r && f0 == f1)
            r = f0;
    }
    return r;
}

void
kn_rt_interp(const double *x, int64_t nx, const double *xp, const double *fp, int64_t nxp,
             double left, double right, double *out)
{
    if (nxp == 1) {
        for (int64_t i = 0; i < nx; i++)
            out[i] = x[i] < xp[0] ? left : (x[i] > xp[0] ? right : fp[0]);
        return;
    }
    int64_t j = 0;
    for (int64_t i = 0; i < nx; i++) {
        double xv = x[i];
        if (xv != xv) {
            out[i] = xv;
            continue;
        }
        j = interp_search(xv, xp, nxp, j);
        if (j == -1)
            out[i] = left;
        else if (j == nxp)
            out[i] = right;
        else if (j == nxp - 1 || xp[j] == xv)
            out[i] = fp[j];
        else {
            /* NumPy precomputes the slopes when nxp <= nx: the same expression */
            double s = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
            out[i] = interp_at(xv, xp, fp[j], fp[j + 1], j, s);
        }
    }
}

void
kn_rt_interp_complex(const double *x, int64_t nx, const double *xp, const double *fp, int64_t nxp,
                     const double *left, const double *right, double *out)
{
    if (nxp == 1) {
        for (int64_t i = 0; i < nx; i++) {
            const double *r = x[i] < xp[0] ? left : (x[i] > xp[0] ? right : fp);
            out[2 * i] = r[0];
            out[2 * i + 1] = r[1];
        }
        return;
    }
    int64_t j = 0;
    for (int64_t i = 0; i < nx; i++) {
        double xv = x[i];
        const double *r = NULL;
        if (xv != xv) {
            out[2 * i] = xv;
            out[2 * i + 1] = 0.0;
            continue;
        }
        j = interp_search(xv, xp, nxp, j);
        if (j == -1)
            r = left;
        else if (j == nxp)
            r = right;
        else if (j == nxp - 1 || xp[j] == xv)
            r = fp + 2 * j;
        if (r) {
            out[2 * i] = r[0];
            out[2 * i + 1] = r[1];
            continue;
        }
        double inv = 1.0 / (xp[j + 1] - xp[j]); /* the complex version multiplies by 1/dx */
        for (int part = 0; part < 2; part++) {
            double f0 = fp[2 * j + part], f1 = fp[2 * j + 2 + part];
            out[2 * i + part] = interp_at(xv, xp, f0, f1, j, (f1 - f0) * inv);
        }
    }
}

/* ---- np.histogram ------------------------------------------------------------------------ */

/* edge k of np.linspace(lo, hi, nbins + 1): arange(num) * step + start, the last one hi; when
 * the step underflows to 0, (k / nbins) * delta + start */
static double
linspace_at(double lo, double delta, double step, int64_t nbins, int64_t k, double hi)
{
    if (k == nbins)
        return hi;
    if (step == 0)
        return ((double)k / (double)nbins) * delta + lo;
    return (double)k * step + lo;
}

void
kn_rt_linspace_edges(double lo, double hi, int64_t nbins, double *edges)
{
    double delta = hi - lo, step = delta / (double)nbins;
    for (int64_t k = 0; k <= nbins; k++)
        edges[k] = linspace_at(lo, delta, step, nbins, k, hi);
}

/* the bin of v among nbins equal bins over [lo, hi] (NumPy's formula, corrected by the edges
 * np.linspace gives), -1 outside the range or NaN */
static int64_t
equal_bin(double v, double lo, double hi, int64_t nbins)
{
    double delta = hi - lo, step = delta / (double)nbins, denom = hi - lo;
    if (!(v >= lo && v <= hi))
        return -1;
    int64_t k = (int64_t)(((v - lo) / denom) * (double)nbins);
    if (k == nbins)
        k--;
    if (v < linspace_at(lo, delta, step, nbins, k, hi))
        k--;
    else if (k != nbins - 1 && v >= linspace_at(lo, delta, step, nbins, k + 1, hi))
        k++;
    return k;
}

/* the bin of v among the nb = nedges - 1 bins of increasing edges, the last edge inclusive; -1
 * outside */
static int64_t
edge_bin(double v, const double *edges, int64_t nb)
{
    if (!(v >= edges[0] && v <= edges[nb]))
        return -1;
    /* the number of edges <= v, less one; v == last goes to the last bin */
    int64_t lo = 0, hi = nb + 1;
    while (lo < hi) {
        int64_t mid = lo + ((hi - lo) >> 1);
        if (edges[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1 < nb ? lo - 1 : nb - 1;
}

void
kn_rt_histogram(const double *a, int64_t n, double lo, double hi, int64_t nbins, int64_t *hist)
{
    memset(hist, 0, (size_t)nbins * sizeof *hist);
    for (int64_t i = 0; i < n; i++) {
        int64_t k = equal_bin(a[i], lo, hi, nbins);
        if (k >= 0)
            hist[k]++;
    }
}

void
kn_rt_histogram_weighted(const double *a, int64_t n, double lo, double hi, int64_t nbins,
                         const double *edges, const double *w, double *hist)
{
    if (nbins < 1)
        return;
    memset(hist, 0, (size_t)nbins * sizeof *hist);
    for (int64_t i = 0; i < n; i++) {
        int64_t k = edges ? edge_bin(a[i], edges, nbins) : equal_bin(a[i], lo, hi, nbins);
        if (k >= 0)
            hist[k] += w ? w[i] : 1.0;
    }
}

void
kn_rt_histogram_density(double *hist, int64_t nbins, const double *edges)
{
    double total = 0;
    for (int64_t k = 0; k < nbins; k++)
        total += hist[k];
    for (int64_t k = 0; k < nbins; k++)
        hist[k] = hist[k] / (edges[k + 1] - edges[k]) / total;
}

void
kn_rt_histogram_edges(const double *a, int64_t n, const double *edges, int64_t nedges,
                      int64_t *hist)
{
    int64_t nb = nedges - 1;
    if (nb < 1)
        return;
    memset(hist, 0, (size_t)nb * sizeof *hist);
    for (int64_t i = 0; i < n; i++) {
        int64_t k = edge_bin(a[i], edges, nb);
        if (k >= 0)
            hist[k]++;
    }
}
