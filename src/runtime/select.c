/* select.c - np.quantile/np.percentile (method='linear') and np.median for compiled code, by
 * selection: the caller passes a private copy of the data (scratch), which is reordered so that
 * the few order statistics needed sit at their sorted positions (introselect for several ranks
 * at once: quickselect on a median-of-3 pivot, recursing only into the sides that hold a wanted
 * rank, heapsort past 2 log2 n levels, insertion sort for short ranges). Nothing is fully sorted.
 *
 * The arithmetic is NumPy 2's, step for step, so that results are bit-identical: the virtual
 * index (n - 1) * q, its floor and the clamp to the last item, gamma = index - floor, and the
 * lerp a + (b - a) * t, replaced by b - (b - a) * (1 - t) where t >= 0.5. b - a is taken in the
 * data's own type (integers wrap, as NumPy's subtract does; float32 rounds to float32) and the
 * rest in float64, or in float32 for float32 data with a Python-float q (kn_rt_quantiles_f32).
 * np.median is the mean of the middle one or two values: (0 + lo + hi) / 2 in float64, or in
 * float32 for float32. Any NaN in the data makes every result that NaN (NumPy moves NaNs last
 * and returns the last item); the first partition, which compares every item, notices them. n >= 1
 * is the caller's to check; nothing here raises. */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

enum { KN_SELECT_SMALL = 16 };

#define KN_IS_NAN(x) ((x) != (x))
#define KN_NEVER_NAN(x) ((void)(x), 0)

/* sel_N(a, lo, hi, ks, nk, depth): every rank ks[0..nk) (sorted, distinct, in [lo, hi)) gets the
 * value it has in sorted order, smaller values before it, larger after. */
#define KN_DEF_SELECT(N, T, ISNAN)                                                                 \
    static void heap_##N(T *a, int64_t n)                                                          \
    {                                                                                              \
        for (int64_t s = n / 2; s-- > 0;) {                                                        \
            for (int64_t r = s, c; (c = 2 * r + 1) < n; r = c) {                                   \
                if (c + 1 < n && a[c] < a[c + 1])                                                  \
                    c++;                                                                           \
                if (!(a[r] < a[c]))                                                                \
                    break;                                                                         \
                T t = a[r];                                                                        \
                a[r] = a[c];                                                                       \
                a[c] = t;                                                                          \
            }                                                                                      \
        }                                                                                          \
        for (int64_t e = n - 1; e > 0; e--) {                                                      \
            T t = a[0];                                                                            \
            a[0] = a[e];                                                                           \
            a[e] = t;                                                                              \
            for (int64_t r = 0, c; (c = 2 * r + 1) < e; r = c) {                                   \
                if (c + 1 < e && a[c] < a[c + 1])                                                  \
                    c++;                                                                           \
                if (!(a[r] < a[c]))                                                                \
                    break;                                                                         \
                T u = a[r];                                                                        \
                a[r] = a[c];                                                                       \
                a[c] = u;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void sel_##N(T *a, int64_t lo, int64_t hi, const int64_t *ks, int64_t nk, int depth,    \
                        int *nanp)                                                                 \
    {                                                                                              \
        if (nanp && hi - lo <= KN_SELECT_SMALL)                                                    \
            for (int64_t i = lo; i < hi; i++)                                                      \
                if (ISNAN(a[i])) {                                                                 \
                    *nanp = 1;                                                                     \
                    return;                                                                        \
                }                                                                                  \
        while (nk > 0 && hi - lo > KN_SELECT_SMALL) {                                              \
            if (depth-- <= 0) {                                                                    \
                heap_##N(a + lo, hi - lo);                                                         \
                return;                                                                            \
            }                                                                                      \
            int64_t mid = lo + (hi - lo) / 2;                                                      \
            T x = a[lo], y = a[mid], z = a[hi - 1];                                                \
            T p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));           \
            int64_t i = lo - 1, j = hi;                                                            \
            for (;;) {                                                                             \
                do                                                                                 \
                    i++;                                                                           \
                while (a[i] < p);                                                                  \
                do                                                                                 \
                    j--;                                                                           \
                while (p < a[j]);                                                                  \
                /* the first partition stops at every NaN (they compare false): any NaN makes      \
                 * every result NaN, so the data need no scan of their own */                      \
                if (nanp && (ISNAN(a[i]) || ISNAN(a[j]))) {                                        \
                    *nanp = 1;                                                                     \
                    return;                                                                        \
                }                                                                                  \
                if (i >= j)                                                                        \
                    break;                                                                         \
                T t = a[i];                                                                        \
                a[i] = a[j];                                                                       \
                a[j] = t;                                                                          \
            }                                                                                      \
            nanp = NULL;                                                                           \
            /* [lo, j] <= p <= [j + 1, hi): ranks up to j on the left */                           \
            int64_t nl = 0;                                                                        \
            while (nl < nk && ks[nl] <= j)                                                         \
                nl++;                                                                              \
            if (nl < nk)                                                                           \
                sel_##N(a, j + 1, hi, ks + nl, nk - nl, depth, NULL);                              \
            hi = j + 1;                                                                            \
            nk = nl;                                                                               \
        }                                                                                          \
        if (nk > 0) {                                                                              \
            for (int64_t i = lo + 1; i < hi; i++) {                                                \
                T v = a[i];                                                                        \
                int64_t j = i;                                                                     \
                for (; j > lo && v < a[j - 1]; j--)                                                \
                    a[j] = a[j - 1];                                                               \
                a[j] = v;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }

KN_DEF_SELECT(b, uint8_t, KN_NEVER_NAN)
KN_DEF_SELECT(i8, int8_t, KN_NEVER_NAN)
KN_DEF_SELECT(i16, int16_t, KN_NEVER_NAN)
KN_DEF_SELECT(i32, int32_t, KN_NEVER_NAN)
KN_DEF_SELECT(i64, int64_t, KN_NEVER_NAN)
KN_DEF_SELECT(u8, uint8_t, KN_NEVER_NAN)
KN_DEF_SELECT(u16, uint16_t, KN_NEVER_NAN)
KN_DEF_SELECT(u32, uint32_t, KN_NEVER_NAN)
KN_DEF_SELECT(u64, uint64_t, KN_NEVER_NAN)
KN_DEF_SELECT(f32, float, KN_IS_NAN)
KN_DEF_SELECT(f64, double, KN_IS_NAN)

static int
depth_limit(int64_t n)
{
    return 2 * (64 - __builtin_clzll((unsigned long long)n | 1));
}

/* the first NaN of a float buffer, 0 if none */
#define KN_DEF_FIND_NAN(N, T)                                                                      \
    static int find_nan_##N(const T *a, int64_t n, T *nan)                                         \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++)                                                            \
            if (a[i] != a[i]) {                                                                    \
                *nan = a[i];                                                                       \
                return 1;                                                                          \
            }                                                                                      \
        return 0;                                                                                  \
    }
KN_DEF_FIND_NAN(f32, float)
KN_DEF_FIND_NAN(f64, double)

/* For each q: the two ranks and gamma, as NumPy's _get_indexes and _get_gamma. */
typedef struct {
    int64_t prev, next;
    double t;
} QPoint;

static QPoint
qpoint(int64_t n, double q)
{
    QPoint p;
    double v = (double)(n - 1) * q;
    double f = __builtin_floor(v);
    if (v >= (double)(n - 1)) {
        p.prev = p.next = n - 1;
        p.t = v - (double)-1; /* NumPy sets the floor to -1 (the last item) before gamma */
    } else if (v < 0) {
        p.prev = p.next = 0;
        p.t = v - 0.0;
    } else {
        p.prev = (int64_t)f;
        p.next = p.prev + 1;
        p.t = v - f;
    }
    return p;
}

/* ranks wanted by the points, sorted and distinct, into ks; returns their count */
static int64_t
wanted_ranks(const QPoint *pts, int64_t nq, int64_t *ks)
{
    int64_t m = 0;
    for (int64_t i = 0; i < nq; i++) {
        ks[m++] = pts[i].prev;
        ks[m++] = pts[i].next;
    }
    for (int64_t i = 1; i < m; i++) { /* few ranks: insertion sort */
        int64_t v = ks[i], j = i;
        for (; j > 0 && ks[j - 1] > v; j--)
            ks[j] = ks[j - 1];
        ks[j] = v;
    }
    int64_t d = 0;
    for (int64_t i = 0; i < m; i++)
        if (d == 0 || ks[i] != ks[d - 1])
            ks[d++] = ks[i];
    return d;
}

/* b - a in the data's type, as a double; UT is the unsigned type of the same width */
#define KN_DIFF_INT(T, UT, a, b) ((double)(T)(UT)((UT)(b) - (UT)(a)))
#define KN_DIFF_FLT(T, UT, a, b) ((double)(T)((b) - (a)))

#define KN_DEF_QUANT(N, T, UT, DIFF, HASNAN)                                                       \
    static void quant_##N(T *a, int64_t n, const QPoint *pts, int64_t nq, int64_t *ks,             \
                          double *out)                                                             \
    {                                                                                              \
        T nanv;                                                                                    \
        int nan = 0;                                                                               \
        int64_t nk = wanted_ranks(pts, nq, ks);                                                    \
        sel_##N(a, 0, n, ks, nk, depth_limit(n), &nan);                                            \
        if (nan && HASNAN(a, n, &nanv)) {                                                          \
            for (int64_t i = 0; i < nq; i++)                                                       \
                out[i] = (double)nanv;                                                             \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < nq; i++) {                                                         \
            T lo = a[pts[i].prev], hi = a[pts[i].next];                                            \
            double t = pts[i].t, d = DIFF(T, UT, lo, hi);                                          \
            double r = (double)lo + d * t;                                                         \
            if (t >= 0.5)                                                                          \
                r = (double)hi - d * (1 - t);                                                      \
            out[i] = r;                                                                            \
        }                                                                                          \
    }
#define KN_NO_NAN(a, n, p) ((void)(a), (void)(n), (void)(p), 0)
KN_DEF_QUANT(b, uint8_t, uint8_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(i8, int8_t, uint8_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(i16, int16_t, uint16_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(i32, int32_t, uint32_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(i64, int64_t, uint64_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(u8, uint8_t, uint8_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(u16, uint16_t, uint16_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(u32, uint32_t, uint32_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(u64, uint64_t, uint64_t, KN_DIFF_INT, KN_NO_NAN)
KN_DEF_QUANT(f32, float, uint32_t, KN_DIFF_FLT, find_nan_f32)
KN_DEF_QUANT(f64, double, uint64_t, KN_DIFF_FLT, find_nan_f64)

/* the points and rank buffers for nq quantiles: on the stack for a few, else malloc'd */
enum { KN_Q_STACK = 16 };

typedef struct {
    QPoint pts_s[KN_Q_STACK];
    int64_t ks_s[2 * KN_Q_STACK];
    QPoint *pts;
    int64_t *ks;
} QBufs;

static int
qbufs_init(QBufs *b, int64_t n, const double *q, int64_t nq)
{
    b->pts = b->pts_s;
    b->ks = b->ks_s;
    if (nq > KN_Q_STACK) {
        b->pts = malloc((size_t)nq * sizeof(QPoint));
        b->ks = malloc((size_t)nq * 2 * sizeof(int64_t));
        if (!b->pts || !b->ks)
            return 0;
    }
    for (int64_t i = 0; i < nq; i++)
        b->pts[i] = qpoint(n, q[i]);
    return 1;
}

static void
qbufs_free(QBufs *b)
{
    if (b->pts != b->pts_s)
        free(b->pts);
    if (b->ks != b->ks_s)
        free(b->ks);
}

/* out of memory for many quantiles: one at a time (each selection keeps the data a permutation) */
#define KN_QUANT_ONE_BY_ONE(FN, T, OUT_T)                                                          \
    for (int64_t i = 0; i < nq; i++)                                                               \
    FN((T *)scratch, n, q + i, 1, (OUT_T *)out + i)

void
kn_rt_quantiles(void *scratch, int64_t n, int32_t dt, const double *q, int64_t nq, double *out)
{
    QBufs b;
    if (!qbufs_init(&b, n, q, nq)) {
        qbufs_free(&b);
        for (int64_t i = 0; i < nq; i++)
            kn_rt_quantiles(scratch, n, dt, q + i, 1, out + i);
        return;
    }
    switch (dt) {
    case KN_DT_BOOL:
        quant_b(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_I8:
        quant_i8(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_I16:
        quant_i16(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_I32:
        quant_i32(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_I64:
        quant_i64(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_U8:
        quant_u8(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_U16:
        quant_u16(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_U32:
        quant_u32(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_U64:
        quant_u64(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_F32:
        quant_f32(scratch, n, b.pts, nq, b.ks, out);
        break;
    case KN_DT_F64:
        quant_f64(scratch, n, b.pts, nq, b.ks, out);
        break;
    default:
        break;
    }
    qbufs_free(&b);
}

void
kn_rt_quantiles_f32(void *scratch, int64_t n, const double *q, int64_t nq, float *out)
{
    float *a = scratch, nanv;
    QBufs b;
    if (!qbufs_init(&b, n, q, nq)) {
        qbufs_free(&b);
        KN_QUANT_ONE_BY_ONE(kn_rt_quantiles_f32, float, float);
        return;
    }
    int64_t nk = wanted_ranks(b.pts, nq, b.ks);
    int nan = 0;
    sel_f32(a, 0, n, b.ks, nk, depth_limit(n), &nan);
    if (nan && find_nan_f32(a, n, &nanv)) {
        for (int64_t i = 0; i < nq; i++)
            out[i] = nanv;
        qbufs_free(&b);
        return;
    }
    for (int64_t i = 0; i < nq; i++) {
        float lo = a[b.pts[i].prev], hi = a[b.pts[i].next];
        double t = b.pts[i].t;
        float d = hi - lo;
        float r = lo + d * (float)t; /* float32 array op a Python float: float32 */
        if (t >= 0.5)
            r = hi - d * (float)(1 - t);
        out[i] = r;
    }
    qbufs_free(&b);
}

/* the middle value (odd n) or the two middle values (even n) at their sorted places */
#define KN_DEF_MEDIAN(N, T, HASNAN)                                                                \
    static double median_##N(T *a, int64_t n)                                                      \
    {                                                                                              \
        T nanv;                                                                                    \
        int64_t ks[2] = {(n - 1) / 2, n / 2};                                                      \
        int64_t nk = n % 2 ? 1 : 2;                                                                \
        int nan = 0;                                                                               \
        sel_##N(a, 0, n, ks, nk, depth_limit(n), &nan);                                            \
        if (nan && HASNAN(a, n, &nanv))                                                            \
            return (double)nanv;                                                                   \
        if (nk == 1)                                                                               \
            return (0.0 + (double)a[ks[0]]) / 1.0;                                                 \
        return ((0.0 + (double)a[ks[0]]) + (double)a[ks[1]]) / 2.0;                                \
    }
KN_DEF_MEDIAN(b, uint8_t, KN_NO_NAN)
KN_DEF_MEDIAN(i8, int8_t, KN_NO_NAN)
KN_DEF_MEDIAN(i16, int16_t, KN_NO_NAN)
KN_DEF_MEDIAN(i32, int32_t, KN_NO_NAN)
KN_DEF_MEDIAN(i64, int64_t, KN_NO_NAN)
KN_DEF_MEDIAN(u8, uint8_t, KN_NO_NAN)
KN_DEF_MEDIAN(u16, uint16_t, KN_NO_NAN)
KN_DEF_MEDIAN(u32, uint32_t, KN_NO_NAN)
KN_DEF_MEDIAN(u64, uint64_t, KN_NO_NAN)
KN_DEF_MEDIAN(f64, double, find_nan_f64)

float
kn_rt_median_f32(void *scratch, int64_t n)
{
    float *a = scratch, nanv;
    int64_t ks[2] = {(n - 1) / 2, n / 2};
    int64_t nk = n % 2 ? 1 : 2;
    int nan = 0;
    sel_f32(a, 0, n, ks, nk, depth_limit(n), &nan);
    if (nan && find_nan_f32(a, n, &nanv))
        return nanv;
    if (nk == 1)
        return (0.0f + a[ks[0]]) / 1.0f;
    return ((0.0f + a[ks[0]]) + a[ks[1]]) / 2.0f;
}

double
kn_rt_median(void *scratch, int64_t n, int32_t dt)
{
    switch (dt) {
    case KN_DT_BOOL:
        return median_b(scratch, n);
    case KN_DT_I8:
        return median_i8(scratch, n);
    case KN_DT_I16:
        return median_i16(scratch, n);
    case KN_DT_I32:
        return median_i32(scratch, n);
    case KN_DT_I64:
        return median_i64(scratch, n);
    case KN_DT_U8:
        return median_u8(scratch, n);
    case KN_DT_U16:
        return median_u16(scratch, n);
    case KN_DT_U32:
        return median_u32(scratch, n);
    case KN_DT_U64:
        return median_u64(scratch, n);
    case KN_DT_F32:
        return (double)kn_rt_median_f32(scratch, n);
    case KN_DT_F64:
        return median_f64(scratch, n);
    default:
        return 0.0;
    }
}

/* ---- np.partition, np.argpartition ----
 *
 * kth (nk values, the caller's scratch) is normalized in place (negative counts from the end),
 * checked, sorted and made distinct. Each row is then partitioned: floats first move their NaNs
 * to the end (they sort last), then the wanted ranks below the count of numbers are selected
 * (sel_N above, or argsel_N on an index array). Complex rows are sorted in full (a sorted row is a
 * valid partition; the selection has no complex order). */

/* argsel_N(ix, v, lo, hi, ks, nk, depth): sel_N on the index array ix, comparing v[ix[.]] */
#define KN_DEF_ARGSELECT(N, T)                                                                     \
    static void argheap_##N(int64_t *a, const T *v, int64_t n)                                     \
    {                                                                                              \
        for (int64_t s = n / 2; s-- > 0;) {                                                        \
            for (int64_t r = s, c; (c = 2 * r + 1) < n; r = c) {                                   \
                if (c + 1 < n && v[a[c]] < v[a[c + 1]])                                            \
                    c++;                                                                           \
                if (!(v[a[r]] < v[a[c]]))                                                          \
                    break;                                                                         \
                int64_t t = a[r];                                                                  \
                a[r] = a[c];                                                                       \
                a[c] = t;                                                                          \
            }                                                                                      \
        }                                                                                          \
        for (int64_t e = n - 1; e > 0; e--) {                                                      \
            int64_t t = a[0];                                                                      \
            a[0] = a[e];                                                                           \
            a[e] = t;                                                                              \
            for (int64_t r = 0, c; (c = 2 * r + 1) < e; r = c) {                                   \
                if (c + 1 < e && v[a[c]] < v[a[c + 1]])                                            \
                    c++;                                                                           \
                if (!(v[a[r]] < v[a[c]]))                                                          \
                    break;                                                                         \
                int64_t u = a[r];                                                                  \
                a[r] = a[c];                                                                       \
                a[c] = u;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void argsel_##N(int64_t *a, const T *v, int64_t lo, int64_t hi, const int64_t *ks,      \
                           int64_t nk, int depth)                                                  \
    {                                                                                              \
        while (nk > 0 && hi - lo > KN_SELECT_SMALL) {                                              \
            if (depth-- <= 0) {                                                                    \
                argheap_##N(a + lo, v, hi - lo);                                                   \
                return;                                                                            \
            }                                                                                      \
            int64_t mid = lo + (hi - lo) / 2;                                                      \
            T x = v[a[lo]], y = v[a[mid]], z = v[a[hi - 1]];                                       \
            T p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));           \
            int64_t i = lo - 1, j = hi;                                                            \
            for (;;) {                                                                             \
                do                                                                                 \
                    i++;                                                                           \
                while (v[a[i]] < p);                                                               \
                do                                                                                 \
                    j--;                                                                           \
                while (p < v[a[j]]);                                                               \
                if (i >= j)                                                                        \
                    break;                                                                         \
                int64_t t = a[i];                                                                  \
                a[i] = a[j];                                                                       \
                a[j] = t;                                                                          \
            }                                                                                      \
            int64_t nl = 0;                                                                        \
            while (nl < nk && ks[nl] <= j)                                                         \
                nl++;                                                                              \
            if (nl < nk)                                                                           \
                argsel_##N(a, v, j + 1, hi, ks + nl, nk - nl, depth);                              \
            hi = j + 1;                                                                            \
            nk = nl;                                                                               \
        }                                                                                          \
        if (nk > 0) {                                                                              \
            for (int64_t i = lo + 1; i < hi; i++) {                                                \
                int64_t w = a[i];                                                                  \
                int64_t j = i;                                                                     \
                for (; j > lo && v[w] < v[a[j - 1]]; j--)                                          \
                    a[j] = a[j - 1];                                                               \
                a[j] = w;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }

KN_DEF_ARGSELECT(i8, int8_t)
KN_DEF_ARGSELECT(i16, int16_t)
KN_DEF_ARGSELECT(i32, int32_t)
KN_DEF_ARGSELECT(i64, int64_t)
KN_DEF_ARGSELECT(u8, uint8_t)
KN_DEF_ARGSELECT(u16, uint16_t)
KN_DEF_ARGSELECT(u32, uint32_t)
KN_DEF_ARGSELECT(u64, uint64_t)
KN_DEF_ARGSELECT(f32, float)
KN_DEF_ARGSELECT(f64, double)

/* the numbers of a float row first (unordered), NaNs after them: their count */
#define KN_DEF_NANS_LAST(N, T)                                                                     \
    static int64_t nans_last_##N(T *a, int64_t n)                                                  \
    {                                                                                              \
        int64_t i = 0, j = n;                                                                      \
        for (;;) {                                                                                 \
            while (i < j && !KN_IS_NAN(a[i]))                                                      \
                i++;                                                                               \
            while (i < j && KN_IS_NAN(a[j - 1]))                                                   \
                j--;                                                                               \
            if (i >= j)                                                                            \
                return i;                                                                          \
            T t = a[i];                                                                            \
            a[i] = a[j - 1];                                                                       \
            a[j - 1] = t;                                                                          \
        }                                                                                          \
    }                                                                                              \
    static int64_t argnans_last_##N(int64_t *a, const T *v, int64_t n)                             \
    {                                                                                              \
        int64_t i = 0, j = n;                                                                      \
        for (;;) {                                                                                 \
            while (i < j && !KN_IS_NAN(v[a[i]]))                                                   \
                i++;                                                                               \
            while (i < j && KN_IS_NAN(v[a[j - 1]]))                                                \
                j--;                                                                               \
            if (i >= j)                                                                            \
                return i;                                                                          \
            int64_t t = a[i];                                                                      \
            a[i] = a[j - 1];                                                                       \
            a[j - 1] = t;                                                                          \
        }                                                                                          \
    }
KN_DEF_NANS_LAST(f32, float)
KN_DEF_NANS_LAST(f64, double)

static int
cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

int32_t
kn_rt_partition_kth(int64_t *kth, int64_t nk, int64_t n, int64_t *bad)
{
    for (int64_t i = 0; i < nk; i++) {
        int64_t k = kth[i] < 0 ? kth[i] + n : kth[i];
        kth[i] = k;
        if (k < 0 || k >= n) {
            *bad = k;
            return -1;
        }
    }
    qsort(kth, (size_t)nk, sizeof *kth, cmp_i64);
    return 0;
}

/* the ranks below m (kth sorted), distinct: their count, into ks */
static int64_t
ranks_below(const int64_t *kth, int64_t nk, int64_t m, int64_t *ks)
{
    int64_t c = 0;
    for (int64_t i = 0; i < nk && kth[i] < m; i++)
        if (!c || ks[c - 1] != kth[i])
            ks[c++] = kth[i];
    return c;
}

#define KN_PART_VALUES(N, T, NANS)                                                                 \
    for (int64_t r = 0; r < rows; r++) {                                                           \
        T *row = (T *)data + r * n;                                                                \
        int64_t m = NANS(row, n);                                                                  \
        int64_t c = ranks_below(kth, nk, m, ks);                                                   \
        sel_##N(row, 0, m, ks, c, depth_limit(m), NULL);                                           \
    }                                                                                              \
    break
#define KN_NO_NANS(row, n) ((void)(row), (n))

void
kn_rt_partition(void *data, int64_t n, int64_t rows, int32_t dt, const int64_t *kth, int64_t nk)
{
    if (dt == KN_DT_C64 || dt == KN_DT_C128) {
        kn_rt_sort(data, n, rows, dt);
        return;
    }
    int64_t small[8], *ks = nk <= 8 ? small : malloc((size_t)nk * sizeof *ks);
    if (!ks) { /* no memory for the ranks: a full sort is a partition too */
        kn_rt_sort(data, n, rows, dt);
        return;
    }
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        KN_PART_VALUES(u8, uint8_t, KN_NO_NANS);
    case KN_DT_I8:
        KN_PART_VALUES(i8, int8_t, KN_NO_NANS);
    case KN_DT_I16:
        KN_PART_VALUES(i16, int16_t, KN_NO_NANS);
    case KN_DT_I32:
        KN_PART_VALUES(i32, int32_t, KN_NO_NANS);
    case KN_DT_I64:
        KN_PART_VALUES(i64, int64_t, KN_NO_NANS);
    case KN_DT_U16:
        KN_PART_VALUES(u16, uint16_t, KN_NO_NANS);
    case KN_DT_U32:
        KN_PART_VALUES(u32, uint32_t, KN_NO_NANS);
    case KN_DT_U64:
        KN_PART_VALUES(u64, uint64_t, KN_NO_NANS);
    case KN_DT_F32:
        KN_PART_VALUES(f32, float, nans_last_f32);
    default:
        KN_PART_VALUES(f64, double, nans_last_f64);
    }
    if (ks != small)
        free(ks);
}

#define KN_ARGPART(N, T, NANS)                                                                     \
    for (int64_t r = 0; r < rows; r++) {                                                           \
        const T *v = (const T *)data + r * n;                                                      \
        int64_t *ix = out + r * n;                                                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            ix[i] = i;                                                                             \
        int64_t m = NANS(ix, v, n);                                                                \
        int64_t c = ranks_below(kth, nk, m, ks);                                                   \
        argsel_##N(ix, v, 0, m, ks, c, depth_limit(m));                                            \
    }                                                                                              \
    break
#define KN_ARG_NO_NANS(ix, v, n) ((void)(ix), (void)(v), (n))

void
kn_rt_argpartition(const void *data, int64_t n, int64_t rows, int32_t dt, const int64_t *kth,
                   int64_t nk, int64_t *out)
{
    int64_t small[8], *ks = nk <= 8 ? small : malloc((size_t)nk * sizeof *ks);
    if (dt == KN_DT_C64 || dt == KN_DT_C128 || !ks) {
        kn_rt_argsort(data, n, rows, dt, out);
        if (ks && ks != small)
            free(ks);
        return;
    }
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        KN_ARGPART(u8, uint8_t, KN_ARG_NO_NANS);
    case KN_DT_I8:
        KN_ARGPART(i8, int8_t, KN_ARG_NO_NANS);
    case KN_DT_I16:
        KN_ARGPART(i16, int16_t, KN_ARG_NO_NANS);
    case KN_DT_I32:
        KN_ARGPART(i32, int32_t, KN_ARG_NO_NANS);
    case KN_DT_I64:
        KN_ARGPART(i64, int64_t, KN_ARG_NO_NANS);
    case KN_DT_U16:
        KN_ARGPART(u16, uint16_t, KN_ARG_NO_NANS);
    case KN_DT_U32:
        KN_ARGPART(u32, uint32_t, KN_ARG_NO_NANS);
    case KN_DT_U64:
        KN_ARGPART(u64, uint64_t, KN_ARG_NO_NANS);
    case KN_DT_F32:
        KN_ARGPART(f32, float, argnans_last_f32);
    default:
        KN_ARGPART(f64, double, argnans_last_f64);
    }
    if (ks != small)
        free(ks);
}
