/* sort.c - np.sort, np.argsort and np.unique's compaction for compiled code: kn_rt_sort sorts
 * rows of a contiguous buffer in place, kn_rt_argsort writes the stable sorting permutation of
 * each row, kn_rt_unique compacts a sorted row to its distinct values. All take a KN_DT_* code.
 *
 * The order is NumPy's (order.h): NaN last, -0.0 and +0.0 equal, complex lexicographic within
 * NumPy's NaN classes. Real dtypes are sorted as unsigned keys of their own width: signed
 * integers flip the sign bit, floats first move their NaNs to the end of the row (kn_rt_sort
 * keeps every NaN's bits) and map the rest to keys with an order-preserving bijection (-0.0 just
 * below +0.0), then back. Rows longer than KN_SORT_SMALL go through an MSD radix sort: each
 * level scatters by up to 12 bits just below the bits all its keys share (found by OR/AND, so
 * clustered data still splits), recurses into buckets over KN_SORT_SMALL, and sorts the small
 * ones with one insertion pass (measured: about 2x faster on 10^6 float64 than LSD passes of
 * 8-bit digits, which stream the whole array through memory eight times). The first level of a
 * row finishes each bucket (or run of small ones) into values while it is in cache, so no pass
 * over the whole row follows the scatter; for long float rows it may take 16 bits, counted
 * while the keys are made on the bits a strided sample of keys picks (counted again when the
 * row's keys differ in a higher bit than the sample's). The insertion passes move each key past
 * its predecessor with min/max and branch only when it goes further. Long rows of keys of
 * 4 bytes or fewer take LSD passes of 11-bit digits instead (KN_USE_LSD11). Short rows and a
 * failed scratch allocation use insertion sort and introsort (heapsort past 2 log2 n levels).
 * kn_rt_argsort sorts (key, index) pairs with a stable LSD radix sort that skips digits every
 * key shares (packed into one 64-bit word when the key has at most 32 bits), complex values with
 * a stable merge sort of (key, index) records. Scratch memory comes from kn_rt_scratch_alloc
 * (memory.c's warm huge-page blocks) or malloc and is freed before returning; nothing raises. */
#include <stdlib.h>
#include <string.h>

#include "runtime/order.h"
#include "runtime/runtime.h"

/* Rows and radix buckets up to KN_SORT_SMALL items use insertion sort (bench/runtime_algos.py
 * --threshold rebuilds with other values and times them); a radix level takes at most
 * KN_MSD_BITS bits, at most KN_MSD_DEPTH levels deep (then LSD passes finish the bucket). */
/* Keys of 4 bytes or fewer in long rows: three (or fewer) LSD passes of 11-bit digits beat the
 * MSD levels (float32 10^6: 12 ms against 17 ms of CPU time on the shared machine); on 8-byte
 * keys the six passes lose (29 ms against 19 ms). */
#ifndef KN_USE_LSD11
#define KN_USE_LSD11(nb, n) ((nb) <= 4 && (n) >= 65536)
#endif
#ifndef KN_SORT_SMALL
#define KN_SORT_SMALL 32
#endif
enum { KN_MERGE_SMALL = 16, KN_MSD_BITS = 12, KN_MSD_DEPTH = 8 };
/* The first level of a long float row may take KN_MSD_WIDE bits (digit_##W says when); a
 * sample of KN_SAMPLE keys picks the bits its count is made on while the keys are made. */
enum {
    KN_MSD_WIDE = 16,
    KN_MSD_WIDEN_MIN = 1 << 17,
    KN_SAMPLE = 256,
    KN_RUN = 4096,
    KN_MSD_GROUP = 1 << (KN_MSD_WIDE - KN_MSD_BITS)
};
#define KN_MSD_HIST_COUNTERS (((size_t)KN_MSD_DEPTH << KN_MSD_BITS) + ((size_t)1 << KN_MSD_WIDE))

enum { KIND_UNSIGNED, KIND_SIGNED, KIND_FLOAT }; /* how values map to keys */

/* ---- sorting unsigned keys, one copy per key width --------------------------------------------
 */

#define KN_DEF_KEYSORT(W, T, NB)                                                                   \
    static void ins_##W(T *a, int64_t n)                                                           \
    {                                                                                              \
        for (int64_t i = 1; i < n; i++) {                                                          \
            T v = a[i];                                                                            \
            int64_t j = i;                                                                         \
            for (; j > 0 && a[j - 1] > v; j--)                                                     \
                a[j] = a[j - 1];                                                                   \
            a[j] = v;                                                                              \
        }                                                                                          \
    }                                                                                              \
    static void sift_##W(T *a, int64_t root, int64_t n)                                            \
    {                                                                                              \
        T v = a[root];                                                                             \
        for (int64_t c; (c = 2 * root + 1) < n; root = c) {                                        \
            if (c + 1 < n && a[c + 1] > a[c])                                                      \
                c++;                                                                               \
            if (!(a[c] > v))                                                                       \
                break;                                                                             \
            a[root] = a[c];                                                                        \
        }                                                                                          \
        a[root] = v;                                                                               \
    }                                                                                              \
    static void heap_##W(T *a, int64_t n)                                                          \
    {                                                                                              \
        for (int64_t i = n / 2 - 1; i >= 0; i--)                                                   \
            sift_##W(a, i, n);                                                                     \
        for (int64_t e = n - 1; e > 0; e--) {                                                      \
            T t = a[0];                                                                            \
            a[0] = a[e];                                                                           \
            a[e] = t;                                                                              \
            sift_##W(a, 0, e);                                                                     \
        }                                                                                          \
    }                                                                                              \
    static void intro_##W(T *a, int64_t n, int depth)                                              \
    {                                                                                              \
        while (n > KN_SORT_SMALL) {                                                                \
            if (depth-- <= 0) {                                                                    \
                heap_##W(a, n);                                                                    \
                return;                                                                            \
            }                                                                                      \
            T x = a[0], y = a[n / 2], z = a[n - 1];                                                \
            T p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));           \
            int64_t i = -1, j = n;                                                                 \
            for (;;) {                                                                             \
                do                                                                                 \
                    i++;                                                                           \
                while (a[i] < p);                                                                  \
                do                                                                                 \
                    j--;                                                                           \
                while (a[j] > p);                                                                  \
                if (i >= j)                                                                        \
                    break;                                                                         \
                T t = a[i];                                                                        \
                a[i] = a[j];                                                                       \
                a[j] = t;                                                                          \
            }                                                                                      \
            /* [0, j] <= p <= [j + 1, n): recurse into the smaller side */                         \
            if (j + 1 < n - j - 1) {                                                               \
                intro_##W(a, j + 1, depth);                                                        \
                a += j + 1;                                                                        \
                n -= j + 1;                                                                        \
            } else {                                                                               \
                intro_##W(a + j + 1, n - j - 1, depth);                                            \
                n = j + 1;                                                                         \
            }                                                                                      \
        }                                                                                          \
        ins_##W(a, n);                                                                             \
    }                                                                                              \
    /* LSD radix sort on the bytes [first, last) of the keys a[0, n), tmp holds n keys; returns    \
     * where the sorted keys are (a or tmp) */                                                     \
    static T *lsd_##W(T *a, T *tmp, int64_t n, int first, int last)                                \
    {                                                                                              \
        int64_t cnt[NB][256];                                                                      \
        memset(cnt[first], 0, sizeof cnt[0] * (size_t)(last - first));                             \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T k = a[i];                                                                            \
            for (int b = first; b < last; b++)                                                     \
                cnt[b][(k >> (8 * b)) & 0xff]++;                                                   \
        }                                                                                          \
        T *src = a, *dst = tmp;                                                                    \
        for (int b = first; b < last; b++) {                                                       \
            int64_t *c = cnt[b];                                                                   \
            if (c[(a[0] >> (8 * b)) & 0xff] == n)                                                  \
                continue; /* every key has this digit */                                           \
            int64_t sum = 0;                                                                       \
            for (int d = 0; d < 256; d++) {                                                        \
                int64_t t = c[d];                                                                  \
                c[d] = sum;                                                                        \
                sum += t;                                                                          \
            }                                                                                      \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T k = src[i];                                                                      \
                dst[c[(k >> (8 * b)) & 0xff]++] = k;                                               \
            }                                                                                      \
            T *t = src;                                                                            \
            src = dst;                                                                             \
            dst = t;                                                                               \
        }                                                                                          \
        return src;                                                                                \
    }                                                                                              \
    static void radix_##W(T *a, T *tmp, int64_t n, int first)                                      \
    {                                                                                              \
        T *r = lsd_##W(a, tmp, n, first, NB);                                                      \
        if (r != a)                                                                                \
            memcpy(a, r, (size_t)n * sizeof(T));                                                   \
    }                                                                                              \
    /* Keys back to values: kind's inverse, written from `from` to `to` (the same or disjoint).    \
     * Every key leaves msd_##W through here exactly once. */                                      \
    static void out_##W(T *from, T *to, int64_t n, int kind)                                       \
    {                                                                                              \
        const T sign = (T)((T)1 << (8 * (NB) - 1));                                                \
        if (kind == KIND_FLOAT) {                                                                  \
            for (int64_t i = 0; i < n; i++)                                                        \
                to[i] = (from[i] & sign) ? (T)(from[i] ^ sign) : (T)~from[i];                      \
        } else if (kind == KIND_SIGNED) {                                                          \
            for (int64_t i = 0; i < n; i++)                                                        \
                to[i] = (T)(from[i] ^ sign);                                                       \
        } else if (from != to) {                                                                   \
            memcpy(to, from, (size_t)n * sizeof(T));                                               \
        }                                                                                          \
    }                                                                                              \
    /* Insertion pass over keys a radix scatter left near their places: from[0, n) sorted into     \
     * to[0, n) (the same array or disjoint ones). Each key passes its predecessor branch-free     \
     * (min, max); a branch is taken only when it must move two or more places, which a scatter    \
     * into about as many buckets as keys makes rare (the plain insertion loop mispredicted on     \
     * about every other key of a shared bucket: a quarter of the time on 10^6 normal float64). */ \
    static void settle_##W(const T *from, T *to, int64_t n)                                        \
    {                                                                                              \
        if (n < 2) {                                                                               \
            if (n == 1)                                                                            \
                to[0] = from[0];                                                                   \
            return;                                                                                \
        }                                                                                          \
        T pp = from[0], p = from[1]; /* to[i - 2] and to[i - 1] */                                 \
        if (p < pp) {                                                                              \
            T x = p;                                                                               \
            p = pp;                                                                                \
            pp = x;                                                                                \
        }                                                                                          \
        to[0] = pp;                                                                                \
        to[1] = p;                                                                                 \
        for (int64_t i = 2; i < n; i++) {                                                          \
            T v = from[i];                                                                         \
            T lo = v < p ? v : p, hi = v < p ? p : v;                                              \
            to[i] = hi;                                                                            \
            if (pp > lo) { /* v goes below to[i - 2], which moves up to to[i - 1] */               \
                int64_t j = i - 1;                                                                 \
                for (; j > 0 && to[j - 1] > lo; j--)                                               \
                    to[j] = to[j - 1];                                                             \
                to[j] = lo;                                                                        \
            } else {                                                                               \
                to[i - 1] = lo;                                                                    \
                pp = lo;                                                                           \
            }                                                                                      \
            p = hi;                                                                                \
        }                                                                                          \
    }                                                                                              \
    /* counts pos[0, 2^bits) of the digit (key >> shift) become bucket starts, a[0, n) is          \
     * scattered into t, and pos[d] ends as the end of bucket d; returns whether a bucket holds    \
     * more than KN_SORT_SMALL keys */                                                             \
    static int scatter_##W(const T *a, T *t, int64_t n, int64_t *pos, int bits, int shift)         \
    {                                                                                              \
        T mask = (T)((1u << bits) - 1);                                                            \
        int64_t sum = 0, big = 0;                                                                  \
        for (int d = 0; d < (1 << bits); d++) {                                                    \
            int64_t c = pos[d];                                                                    \
            pos[d] = sum;                                                                          \
            sum += c;                                                                              \
            big |= c > KN_SORT_SMALL;                                                              \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T k = a[i];                                                                            \
            t[pos[(k >> shift) & mask]++] = k;                                                     \
        }                                                                                          \
        return big != 0;                                                                           \
    }                                                                                              \
    /* the bits where the keys a[0, n) differ */                                                   \
    static T diff_##W(const T *a, int64_t n)                                                       \
    {                                                                                              \
        T or_ = 0, and_ = (T) ~(T)0;                                                               \
        for (int64_t i = 0; i < n; i++) {                                                          \
            or_ |= a[i];                                                                           \
            and_ &= a[i];                                                                          \
        }                                                                                          \
        return (T)(or_ ^ and_);                                                                    \
    }                                                                                              \
    /* MSD radix sort of the keys a[0, n) using t[0, n), leaving them sorted in a, or in t when    \
     * into_t; diff: the bits where the keys differ. A level takes up to KN_MSD_BITS of the bits   \
     * below the keys' common prefix and scatters a into t by them; buckets of more than           \
     * KN_SORT_SMALL keys are sorted (in t) the same way, and one settle pass from t sorts the     \
     * small ones: after the scatter a key is at most KN_SORT_SMALL places from its own.           \
     * hist: KN_MSD_DEPTH * 2^KN_MSD_BITS counters. */                                             \
    static void msd_##W(T *a, T *t, int64_t n, int64_t *hist, int depth, T diff, int into_t)       \
    {                                                                                              \
        if (!diff || depth >= KN_MSD_DEPTH) {                                                      \
            if (diff)                                                                              \
                radix_##W(a, t, n, 0);                                                             \
            if (into_t)                                                                            \
                memcpy(t, a, (size_t)n * sizeof(T));                                               \
            return;                                                                                \
        }                                                                                          \
        int top = 63 - __builtin_clzll((unsigned long long)diff); /* highest differing bit */      \
        int bits = 64 - __builtin_clzll((unsigned long long)n);   /* n to 2n buckets */            \
        bits = bits > KN_MSD_BITS ? KN_MSD_BITS : bits < 4 ? 4 : bits;                             \
        bits = bits > top + 1 ? top + 1 : bits;                                                    \
        int shift = top + 1 - bits;                                                                \
        T mask = (T)((1u << bits) - 1);                                                            \
        int64_t *pos = hist + (size_t)depth * (1u << KN_MSD_BITS);                                 \
        memset(pos, 0, sizeof pos[0] * ((size_t)1 << bits));                                       \
        for (int64_t i = 0; i < n; i++)                                                            \
            pos[(a[i] >> shift) & mask]++;                                                         \
        if (scatter_##W(a, t, n, pos, bits, shift) && shift > 0) {                                 \
            int64_t s = 0;                                                                         \
            for (int d = 0; d < (1 << bits); d++) {                                                \
                int64_t e = pos[d];                                                                \
                if (e - s > KN_SORT_SMALL)                                                         \
                    msd_##W(t + s, a + s, e - s, hist, depth + 1, diff_##W(t + s, e - s), 0);      \
                s = e;                                                                             \
            }                                                                                      \
        }                                                                                          \
        settle_##W(t, into_t ? t : a, n);                                                          \
    }                                                                                              \
    /* The first level's digit for the keys a[0, n) (diff: where they differ): counts in the       \
     * returned counters, *bits of them, of the bits from *shift. Up to 12 bits just below the     \
     * common prefix; when those fill few buckets (float data of one sign and a few exponents:     \
     * np.random's normal samples fill 36 of 4096), up to 16, counted in a region of their own     \
     * after the levels' (measured on 10^6 normal float64, 20 ms -> 13 ms). Only floats: the sign  \
     * and exponent bits are what is skewed there (ints of both signs fill two buckets with any    \
     * width). wide: a 16-bit count of the bits from top - 15 made while the keys were made, or    \
     * -1 (see rowsort). */                                                                        \
    static int64_t *digit_##W(const T *a, int64_t n, int64_t *hist, T diff, int kind, int wide,    \
                              int *bits_out, int *shift_out)                                       \
    {                                                                                              \
        int top = 63 - __builtin_clzll((unsigned long long)diff);                                  \
        int64_t *wpos = hist + ((size_t)KN_MSD_DEPTH << KN_MSD_BITS);                              \
        if (wide == top) {                                                                         \
            /* the 12-bit digit's counts are sums of 16 wide ones */                               \
            int used = 0;                                                                          \
            for (int d = 0; d < (1 << KN_MSD_BITS); d++) {                                         \
                int64_t c = 0;                                                                     \
                for (int j = 0; j < KN_MSD_GROUP; j++)                                             \
                    c += wpos[KN_MSD_GROUP * d + j];                                               \
                hist[d] = c;                                                                       \
                used += c != 0;                                                                    \
            }                                                                                      \
            int w = used * 64 < (1 << KN_MSD_BITS);                                                \
            *bits_out = w ? KN_MSD_WIDE : KN_MSD_BITS;                                             \
            *shift_out = top + 1 - *bits_out;                                                      \
            return w ? wpos : hist;                                                                \
        }                                                                                          \
        int bits = 64 - __builtin_clzll((unsigned long long)n);                                    \
        bits = bits > KN_MSD_BITS ? KN_MSD_BITS : bits < 4 ? 4 : bits;                             \
        bits = bits > top + 1 ? top + 1 : bits;                                                    \
        int shift = top + 1 - bits;                                                                \
        T mask = (T)((1u << bits) - 1);                                                            \
        int64_t *pos = hist;                                                                       \
        memset(pos, 0, sizeof pos[0] * ((size_t)1 << bits));                                       \
        for (int64_t i = 0; i < n; i++)                                                            \
            pos[(a[i] >> shift) & mask]++;                                                         \
        if (kind == KIND_FLOAT && n >= KN_MSD_WIDEN_MIN && bits < top + 1) {                       \
            int used = 0;                                                                          \
            for (int d = 0; d < (1 << bits); d++)                                                  \
                used += pos[d] != 0;                                                               \
            if (used * 64 < (1 << bits)) {                                                         \
                bits = top + 1 < KN_MSD_WIDE ? top + 1 : KN_MSD_WIDE;                              \
                shift = top + 1 - bits;                                                            \
                mask = (T)((1u << bits) - 1);                                                      \
                pos = wpos;                                                                        \
                memset(pos, 0, sizeof pos[0] * ((size_t)1 << bits));                               \
                for (int64_t i = 0; i < n; i++)                                                    \
                    pos[(a[i] >> shift) & mask]++;                                                 \
            }                                                                                      \
        }                                                                                          \
        *bits_out = bits;                                                                          \
        *shift_out = shift;                                                                        \
        return pos;                                                                                \
    }                                                                                              \
    /* The MSD radix sort of a row's keys a[0, n) (diff != 0), back to values in a: the first      \
     * level scatters into t; then each part is sorted and turned into values while it is in       \
     * cache: a bucket of more than KN_SORT_SMALL keys by the levels below (into a), a run of      \
     * smaller buckets (up to KN_RUN keys) by one settle pass from t into a. */                    \
    static void first_##W(T *a, T *t, int64_t n, int64_t *hist, T diff, int kind, int wide)        \
    {                                                                                              \
        int bits, shift;                                                                           \
        int64_t *pos = digit_##W(a, n, hist, diff, kind, wide, &bits, &shift);                     \
        scatter_##W(a, t, n, pos, bits, shift);                                                    \
        int64_t s = 0, r = 0; /* bucket d is [s, pos[d]), the run of small ones [r, s) */          \
        for (int d = 0; d < (1 << bits); d++) {                                                    \
            int64_t e = pos[d], m = e - s;                                                         \
            if (m > KN_SORT_SMALL) {                                                               \
                settle_##W(t + r, a + r, s - r);                                                   \
                out_##W(a + r, a + r, s - r, kind);                                                \
                if (shift > 0) {                                                                   \
                    msd_##W(t + s, a + s, m, hist, 1, diff_##W(t + s, m), 1);                      \
                    out_##W(a + s, a + s, m, kind);                                                \
                } else                                                                             \
                    out_##W(t + s, a + s, m, kind); /* all equal */                                \
                r = e;                                                                             \
            } else if (e - r >= KN_RUN) {                                                          \
                settle_##W(t + r, a + r, e - r);                                                   \
                out_##W(a + r, a + r, e - r, kind);                                                \
                r = e;                                                                             \
            }                                                                                      \
            s = e;                                                                                 \
        }                                                                                          \
        settle_##W(t + r, a + r, n - r);                                                           \
        out_##W(a + r, a + r, n - r, kind);                                                        \
    }                                                                                              \
    /* LSD radix sort on 11-bit digits (ceil(bits / 11) passes, digits every key shares            \
     * skipped), then keys back to values into a; cnt: 6 * 2048 counters */                        \
    static void lsd11_##W(T *a, T *t, int64_t n, int64_t *cnt, int kind)                           \
    {                                                                                              \
        enum { P = (8 * (NB) + 10) / 11 };                                                         \
        memset(cnt, 0, sizeof cnt[0] * P * 2048);                                                  \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T k = a[i];                                                                            \
            for (int b = 0; b < P; b++)                                                            \
                cnt[b * 2048 + ((k >> (11 * b)) & 2047)]++;                                        \
        }                                                                                          \
        T *src = a, *dst = t;                                                                      \
        for (int b = 0; b < P; b++) {                                                              \
            int64_t *c = cnt + b * 2048;                                                           \
            if (c[(a[0] >> (11 * b)) & 2047] == n)                                                 \
                continue;                                                                          \
            int64_t sum = 0;                                                                       \
            for (int d = 0; d < 2048; d++) {                                                       \
                int64_t x = c[d];                                                                  \
                c[d] = sum;                                                                        \
                sum += x;                                                                          \
            }                                                                                      \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T k = src[i];                                                                      \
                dst[c[(k >> (11 * b)) & 2047]++] = k;                                              \
            }                                                                                      \
            T *x = src;                                                                            \
            src = dst;                                                                             \
            dst = x;                                                                               \
        }                                                                                          \
        out_##W(src, a, n, kind);                                                                  \
    }                                                                                              \
    /* sorts keys a[0, n) (diff: where they differ) and turns them back into values; wide: see     \
     * digit_##W */                                                                                \
    static void keysort_##W(T *a, T *tmp, int64_t *hist, int64_t n, int kind, T diff, int wide)    \
    {                                                                                              \
        if (n <= KN_SORT_SMALL)                                                                    \
            ins_##W(a, n);                                                                         \
        else if (tmp && hist && KN_USE_LSD11(NB, n)) {                                             \
            lsd11_##W(a, tmp, n, hist, kind);                                                      \
            return;                                                                                \
        } else if (tmp && hist && diff) {                                                          \
            first_##W(a, tmp, n, hist, diff, kind, wide);                                          \
            return;                                                                                \
        } else if (diff)                                                                           \
            intro_##W(a, n, 2 * (64 - __builtin_clzll((unsigned long long)n)));                    \
        out_##W(a, a, n, kind);                                                                    \
    }

KN_DEF_KEYSORT(u8, uint8_t, 1)
KN_DEF_KEYSORT(u16, uint16_t, 2)
KN_DEF_KEYSORT(u32, uint32_t, 4)
KN_DEF_KEYSORT(u64, uint64_t, 8)

/* ---- kn_rt_sort: real dtypes as keys of their own width -----------------------------------------
 */

/* One row: NaNs to the end (floats), values to keys (noting the bits where keys differ), sort,
 * back. EXP: the float's exponent mask (a NaN's bits, sign cleared, exceed it). */
#define KN_DEF_ROWSORT(W, T, BITS, EXP)                                                            \
    /* the highest bit where the keys of a strided sample of a[0, n) differ (NaNs skipped), or     \
     * -1 */                                                                                       \
    static int sample_top_##W(const T *a, int64_t n)                                               \
    {                                                                                              \
        const T sign = (T)((T)1 << (BITS - 1));                                                    \
        T or_ = 0, and_ = (T) ~(T)0;                                                               \
        int64_t step = n / KN_SAMPLE + 1;                                                          \
        for (int64_t i = n - 1; i >= 0; i -= step) {                                               \
            T b = a[i];                                                                            \
            if ((T)(b & (T)~sign) > (T)(EXP))                                                      \
                continue;                                                                          \
            T k = (b & sign) ? (T)~b : (T)(b | sign);                                              \
            or_ |= k;                                                                              \
            and_ &= k;                                                                             \
        }                                                                                          \
        T d = (T)(or_ ^ and_);                                                                     \
        return d ? 63 - __builtin_clzll((unsigned long long)d) : -1;                               \
    }                                                                                              \
    static void rowsort_##W(T *a, T *tmp, int64_t *hist, int64_t n, int kind)                      \
    {                                                                                              \
        const T sign = (T)((T)1 << (BITS - 1));                                                    \
        T or_ = 0, and_ = (T) ~(T)0;                                                               \
        int64_t m = n;                                                                             \
        int wide = -1;                                                                             \
        if (kind == KIND_FLOAT) {                                                                  \
            /* long rows: the first level's 16-bit count made here, on the bits below the          \
             * highest one where a sample's keys differ (first_ counts again if the row's own      \
             * highest differing bit is another) */                                                \
            int64_t *h = NULL;                                                                     \
            int hshift = 0;                                                                        \
            if (tmp && hist && n >= KN_MSD_WIDEN_MIN && !KN_USE_LSD11(BITS / 8, n)) {              \
                wide = sample_top_##W(a, n);                                                       \
                if (wide >= KN_MSD_WIDE - 1) {                                                     \
                    h = hist + ((size_t)KN_MSD_DEPTH << KN_MSD_BITS);                              \
                    hshift = wide + 1 - KN_MSD_WIDE;                                               \
                    memset(h, 0, sizeof h[0] << KN_MSD_WIDE);                                      \
                } else                                                                             \
                    wide = -1;                                                                     \
            }                                                                                      \
            int64_t i = 0;                                                                         \
            while (i < m) {                                                                        \
                T b = a[i];                                                                        \
                if ((T)(b & (T)~sign) > (T)(EXP)) { /* NaN: swap it to the end */                  \
                    a[i] = a[--m];                                                                 \
                    a[m] = b;                                                                      \
                    continue;                                                                      \
                }                                                                                  \
                T k = (b & sign) ? (T)~b : (T)(b | sign);                                          \
                a[i++] = k;                                                                        \
                or_ |= k;                                                                          \
                and_ &= k;                                                                         \
                if (h)                                                                             \
                    h[(k >> hshift) & ((1u << KN_MSD_WIDE) - 1)]++;                                \
            }                                                                                      \
        } else {                                                                                   \
            T flip = kind == KIND_SIGNED ? sign : 0;                                               \
            for (int64_t i = 0; i < m; i++) {                                                      \
                T k = (T)(a[i] ^ flip);                                                            \
                a[i] = k;                                                                          \
                or_ |= k;                                                                          \
                and_ &= k;                                                                         \
            }                                                                                      \
        }                                                                                          \
        keysort_##W(a, tmp, hist, m, kind, (T)(or_ ^ and_), wide);                                 \
    }                                                                                              \
    static void sort_##W(void *data, int64_t n, int64_t rows, int kind)                            \
    {                                                                                              \
        T *tmp = NULL;                                                                             \
        int64_t *hist = NULL;                                                                      \
        if (n > KN_SORT_SMALL) {                                                                   \
            tmp = kn_rt_scratch_alloc((size_t)n * sizeof(T));                                      \
            hist = malloc(sizeof(int64_t) * KN_MSD_HIST_COUNTERS);                                 \
        }                                                                                          \
        for (int64_t r = 0; r < rows; r++)                                                         \
            rowsort_##W((T *)data + r * n, tmp, hist, n, kind);                                    \
        kn_rt_scratch_free(tmp, (size_t)n * sizeof(T));                                            \
        free(hist);                                                                                \
    }

KN_DEF_ROWSORT(u8, uint8_t, 8, 0xff)
KN_DEF_ROWSORT(u16, uint16_t, 16, 0xffff)
KN_DEF_ROWSORT(u32, uint32_t, 32, 0x7f800000u)
KN_DEF_ROWSORT(u64, uint64_t, 64, 0x7ff0000000000000ull)

/* ---- records sorted by comparison: complex values, and argsort without scratch memory ------- */

typedef struct {
    KnCKey k;
    int64_t i;
} CRec;

static int
crec_lt(const CRec *a, const CRec *b)
{
    return kn_ckey_lt(a->k, b->k);
}

/* stable merge sort of a[0, n) using t[0, n) */
static void
crec_msort(CRec *a, CRec *t, int64_t n)
{
    if (n <= KN_MERGE_SMALL) {
        for (int64_t i = 1; i < n; i++) {
            CRec v = a[i];
            int64_t j = i;
            for (; j > 0 && crec_lt(&v, &a[j - 1]); j--)
                a[j] = a[j - 1];
            a[j] = v;
        }
        return;
    }
    int64_t h = n / 2;
    crec_msort(a, t, h);
    crec_msort(a + h, t + h, n - h);
    if (!crec_lt(&a[h], &a[h - 1]))
        return; /* already in order */
    memcpy(t, a, (size_t)h * sizeof(CRec));
    int64_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        a[o++] = crec_lt(&a[j], &t[i]) ? a[j++] : t[i++];
    while (i < h)
        a[o++] = t[i++];
}

/* the complex row's records sorted stably by key (scratch: two buffers of n records) */
static CRec *
complex_argsort_row(const void *row, int64_t n, int32_t dt, CRec **scratch)
{
    CRec *rec = scratch[0], *tmp = scratch[1];
    for (int64_t i = 0; i < n; i++) {
        double re, im;
        if (dt == KN_DT_C64) {
            re = ((const float *)row)[2 * i];
            im = ((const float *)row)[2 * i + 1];
        } else {
            re = ((const double *)row)[2 * i];
            im = ((const double *)row)[2 * i + 1];
        }
        rec[i].k = kn_ord_complex(re, im);
        rec[i].i = i;
    }
    crec_msort(rec, tmp, n);
    return rec;
}

static void
sort_complex(void *data, int64_t n, int64_t rows, int32_t dt)
{
    size_t isz = dt == KN_DT_C64 ? 8 : 16;
    CRec *scratch[2] = {malloc((size_t)n * sizeof(CRec)), malloc((size_t)n * sizeof(CRec))};
    char *copy = malloc((size_t)n * isz);
    if (scratch[0] && scratch[1] && copy) {
        for (int64_t r = 0; r < rows; r++) {
            char *row = (char *)data + (size_t)(r * n) * isz;
            CRec *rec = complex_argsort_row(row, n, dt, scratch);
            memcpy(copy, row, (size_t)n * isz);
            for (int64_t i = 0; i < n; i++)
                memcpy(row + (size_t)i * isz, copy + (size_t)rec[i].i * isz, isz);
        }
    } else {
        /* out of memory: insertion sort in place */
        for (int64_t r = 0; r < rows; r++) {
            char *row = (char *)data + (size_t)(r * n) * isz;
            for (int64_t i = 1; i < n; i++) {
                char v[16];
                memcpy(v, row + (size_t)i * isz, isz);
                KnCKey kv = dt == KN_DT_C64 ? kn_ord_complex(((float *)v)[0], ((float *)v)[1])
                                            : kn_ord_complex(((double *)v)[0], ((double *)v)[1]);
                int64_t j = i;
                for (; j > 0; j--) {
                    const char *p = row + (size_t)(j - 1) * isz;
                    KnCKey kp =
                        dt == KN_DT_C64
                            ? kn_ord_complex(((const float *)p)[0], ((const float *)p)[1])
                            : kn_ord_complex(((const double *)p)[0], ((const double *)p)[1]);
                    if (!kn_ckey_lt(kv, kp))
                        break;
                    memcpy(row + (size_t)j * isz, p, isz);
                }
                memcpy(row + (size_t)j * isz, v, isz);
            }
        }
    }
    free(scratch[0]);
    free(scratch[1]);
    free(copy);
}

void
kn_rt_sort(void *data, int64_t n, int64_t rows, int32_t dt)
{
    if (n < 2 || rows < 1)
        return;
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        sort_u8(data, n, rows, KIND_UNSIGNED);
        break;
    case KN_DT_I8:
        sort_u8(data, n, rows, KIND_SIGNED);
        break;
    case KN_DT_U16:
        sort_u16(data, n, rows, KIND_UNSIGNED);
        break;
    case KN_DT_I16:
        sort_u16(data, n, rows, KIND_SIGNED);
        break;
    case KN_DT_U32:
        sort_u32(data, n, rows, KIND_UNSIGNED);
        break;
    case KN_DT_I32:
        sort_u32(data, n, rows, KIND_SIGNED);
        break;
    case KN_DT_F32:
        sort_u32(data, n, rows, KIND_FLOAT);
        break;
    case KN_DT_U64:
        sort_u64(data, n, rows, KIND_UNSIGNED);
        break;
    case KN_DT_I64:
        sort_u64(data, n, rows, KIND_SIGNED);
        break;
    case KN_DT_F64:
        sort_u64(data, n, rows, KIND_FLOAT);
        break;
    case KN_DT_C64:
    case KN_DT_C128:
        sort_complex(data, n, rows, dt);
        break;
    default:
        break;
    }
}

/* ---- kn_rt_argsort ------------------------------------------------------------------------------
 */

/* key of item i of a real row, the canonical one of order.h (ties are equal keys) */
static uint64_t
real_key(const void *row, int32_t dt, int64_t i)
{
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        return ((const uint8_t *)row)[i];
    case KN_DT_I8:
        return (uint8_t)(((const uint8_t *)row)[i] ^ 0x80u);
    case KN_DT_U16:
        return ((const uint16_t *)row)[i];
    case KN_DT_I16:
        return (uint16_t)(((const uint16_t *)row)[i] ^ 0x8000u);
    case KN_DT_U32:
        return ((const uint32_t *)row)[i];
    case KN_DT_I32:
        return ((const uint32_t *)row)[i] ^ 0x80000000u;
    case KN_DT_F32:
        return kn_ord_f32(((const float *)row)[i]);
    case KN_DT_U64:
        return ((const uint64_t *)row)[i];
    case KN_DT_I64:
        return ((const uint64_t *)row)[i] ^ ((uint64_t)1 << 63);
    case KN_DT_F64:
        return kn_ord_f64(((const double *)row)[i]);
    default:
        return 0;
    }
}

/* keys of a whole row, one loop per dtype (the switch is outside the loop) */
#define KN_FILL(T, EXPR)                                                                           \
    do {                                                                                           \
        const T *p = (const T *)row;                                                               \
        for (int64_t i = 0; i < n; i++)                                                            \
            keys[i] = (uint64_t)(EXPR) << shift | (uint64_t)i * (shift != 0);                      \
    } while (0)

static void
fill_keys(const void *row, int64_t n, int32_t dt, uint64_t *keys, int shift)
{
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
        KN_FILL(uint8_t, p[i]);
        break;
    case KN_DT_I8:
        KN_FILL(uint8_t, (uint8_t)(p[i] ^ 0x80u));
        break;
    case KN_DT_U16:
        KN_FILL(uint16_t, p[i]);
        break;
    case KN_DT_I16:
        KN_FILL(uint16_t, (uint16_t)(p[i] ^ 0x8000u));
        break;
    case KN_DT_U32:
        KN_FILL(uint32_t, p[i]);
        break;
    case KN_DT_I32:
        KN_FILL(uint32_t, p[i] ^ 0x80000000u);
        break;
    case KN_DT_F32:
        KN_FILL(float, kn_ord_f32(p[i]));
        break;
    case KN_DT_U64:
        KN_FILL(uint64_t, p[i]);
        break;
    case KN_DT_I64:
        KN_FILL(uint64_t, p[i] ^ ((uint64_t)1 << 63));
        break;
    case KN_DT_F64:
        KN_FILL(double, kn_ord_f64(p[i]));
        break;
    default:
        break;
    }
}
#undef KN_FILL

static int
key_bytes(int32_t dt)
{
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
    case KN_DT_I8:
        return 1;
    case KN_DT_U16:
    case KN_DT_I16:
        return 2;
    case KN_DT_U32:
    case KN_DT_I32:
    case KN_DT_F32:
        return 4;
    case KN_DT_C64:
    case KN_DT_C128:
        return 16;
    default:
        return 8;
    }
}

/* stable LSD radix sort of 64-bit keys k with their indices v (tmp: kt, vt) */
static void
radix_pairs(uint64_t *k, int64_t *v, uint64_t *kt, int64_t *vt, int64_t n)
{
    int64_t cnt[8][256];
    memset(cnt, 0, sizeof cnt);
    for (int64_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            cnt[b][(k[i] >> (8 * b)) & 0xff]++;
    uint64_t *ks = k, *kd = kt;
    int64_t *vs = v, *vd = vt;
    for (int b = 0; b < 8; b++) {
        int64_t *c = cnt[b];
        if (c[(k[0] >> (8 * b)) & 0xff] == n)
            continue;
        int64_t sum = 0;
        for (int d = 0; d < 256; d++) {
            int64_t t = c[d];
            c[d] = sum;
            sum += t;
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t o = c[(ks[i] >> (8 * b)) & 0xff]++;
            kd[o] = ks[i];
            vd[o] = vs[i];
        }
        uint64_t *tk = ks;
        ks = kd;
        kd = tk;
        int64_t *tv = vs;
        vs = vd;
        vd = tv;
    }
    if (vs != v)
        memcpy(v, vs, (size_t)n * sizeof *v);
}

/* no scratch memory: stable insertion sort of the indices, keys recomputed */
static void
argsort_fallback(const void *row, int64_t n, int32_t dt, int64_t *out)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t j = i;
        if (dt == KN_DT_C64 || dt == KN_DT_C128) {
            const float *f = row;
            const double *d = row;
            KnCKey ki = dt == KN_DT_C64 ? kn_ord_complex(f[2 * i], f[2 * i + 1])
                                        : kn_ord_complex(d[2 * i], d[2 * i + 1]);
            for (; j > 0; j--) {
                int64_t q = out[j - 1];
                KnCKey kq = dt == KN_DT_C64 ? kn_ord_complex(f[2 * q], f[2 * q + 1])
                                            : kn_ord_complex(d[2 * q], d[2 * q + 1]);
                if (!kn_ckey_lt(ki, kq))
                    break;
                out[j] = q;
            }
        } else {
            uint64_t ki = real_key(row, dt, i);
            for (; j > 0 && ki < real_key(row, dt, out[j - 1]); j--)
                out[j] = out[j - 1];
        }
        out[j] = i;
    }
}

void
kn_rt_argsort(const void *data, int64_t n, int64_t rows, int32_t dt, int64_t *out)
{
    if (n < 1 || rows < 1)
        return;
    int kb = key_bytes(dt);
    size_t isz = dt == KN_DT_C128 ? 16 : dt == KN_DT_C64 ? 8 : (size_t)kb;
    if (kb == 16) {
        CRec *scratch[2] = {malloc((size_t)n * sizeof(CRec)), malloc((size_t)n * sizeof(CRec))};
        for (int64_t r = 0; r < rows; r++) {
            const char *row = (const char *)data + (size_t)(r * n) * isz;
            int64_t *o = out + r * n;
            if (scratch[0] && scratch[1]) {
                CRec *rec = complex_argsort_row(row, n, dt, scratch);
                for (int64_t i = 0; i < n; i++)
                    o[i] = rec[i].i;
            } else {
                argsort_fallback(row, n, dt, o);
            }
        }
        free(scratch[0]);
        free(scratch[1]);
        return;
    }
    /* keys of at most 32 bits and rows under 2^32 items: (key << 32 | index) in one word, sorted
     * on its key bytes; otherwise keys and indices side by side */
    int packed = kb <= 4 && n < ((int64_t)1 << 32);
    int64_t nbuf = packed ? 2 * n : 3 * n;
    uint64_t *buf = malloc((size_t)nbuf * sizeof(uint64_t));
    for (int64_t r = 0; r < rows; r++) {
        const char *row = (const char *)data + (size_t)(r * n) * isz;
        int64_t *o = out + r * n;
        if (!buf) {
            argsort_fallback(row, n, dt, o);
            continue;
        }
        uint64_t *keys = buf;
        if (packed) {
            fill_keys(row, n, dt, keys, 32);
            if (n <= KN_SORT_SMALL)
                ins_u64(keys, n); /* distinct words: index breaks ties, so stable */
            else
                radix_u64(keys, buf + n, n, 4);
            for (int64_t i = 0; i < n; i++)
                o[i] = (int64_t)(keys[i] & 0xffffffffu);
        } else {
            fill_keys(row, n, dt, keys, 0);
            for (int64_t i = 0; i < n; i++)
                o[i] = i;
            if (n <= KN_SORT_SMALL) {
                for (int64_t i = 1; i < n; i++) {
                    uint64_t kv = keys[i];
                    int64_t j = i;
                    for (; j > 0 && keys[j - 1] > kv; j--) {
                        keys[j] = keys[j - 1];
                        o[j] = o[j - 1];
                    }
                    keys[j] = kv;
                    o[j] = i;
                }
            } else {
                radix_pairs(keys, o, buf + n, (int64_t *)(buf + 2 * n), n);
            }
        }
    }
    free(buf);
}

/* ---- kn_rt_unique --------------------------------------------------------------------------- */

/* Sorted row: keep the first of each run of equal values (== for numbers, so -0.0 and +0.0 are
 * one), then the first NaN for all NaNs (NumPy 2's equal_nan=True). */
#define KN_DEF_UNIQUE(NAME, T, ISNAN)                                                              \
    static int64_t NAME(T *a, int64_t n)                                                           \
    {                                                                                              \
        int64_t end = n;                                                                           \
        while (end > 0 && ISNAN(a[end - 1]))                                                       \
            end--;                                                                                 \
        int64_t m = 0;                                                                             \
        for (int64_t i = 0; i < end; i++)                                                          \
            if (m == 0 || !(a[i] == a[m - 1]))                                                     \
                a[m++] = a[i];                                                                     \
        if (end < n)                                                                               \
            a[m++] = a[end];                                                                       \
        return m;                                                                                  \
    }
#define KN_NEVER_NAN(x) ((void)(x), 0)
#define KN_IS_NAN(x) ((x) != (x))
KN_DEF_UNIQUE(unique_u8, uint8_t, KN_NEVER_NAN)
KN_DEF_UNIQUE(unique_u16, uint16_t, KN_NEVER_NAN)
KN_DEF_UNIQUE(unique_u32, uint32_t, KN_NEVER_NAN)
KN_DEF_UNIQUE(unique_u64, uint64_t, KN_NEVER_NAN)
KN_DEF_UNIQUE(unique_f32, float, KN_IS_NAN)
KN_DEF_UNIQUE(unique_f64, double, KN_IS_NAN)

/* complex: the NaN classes come last in sorted order; all of them are one value */
#define KN_DEF_UNIQUE_C(NAME, T)                                                                   \
    static int64_t NAME(T *a, int64_t n)                                                           \
    {                                                                                              \
        int64_t end = n;                                                                           \
        while (end > 0 && (KN_IS_NAN(a[2 * end - 2]) || KN_IS_NAN(a[2 * end - 1])))                \
            end--;                                                                                 \
        int64_t m = 0;                                                                             \
        for (int64_t i = 0; i < end; i++)                                                          \
            if (m == 0 || !(a[2 * i] == a[2 * m - 2] && a[2 * i + 1] == a[2 * m - 1])) {           \
                a[2 * m] = a[2 * i];                                                               \
                a[2 * m + 1] = a[2 * i + 1];                                                       \
                m++;                                                                               \
            }                                                                                      \
        if (end < n) {                                                                             \
            a[2 * m] = a[2 * end];                                                                 \
            a[2 * m + 1] = a[2 * end + 1];                                                         \
            m++;                                                                                   \
        }                                                                                          \
        return m;                                                                                  \
    }
KN_DEF_UNIQUE_C(unique_c64, float)
KN_DEF_UNIQUE_C(unique_c128, double)

int64_t
kn_rt_unique(void *data, int64_t n, int32_t dt)
{
    if (n < 1)
        return 0;
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
    case KN_DT_I8:
        return unique_u8(data, n);
    case KN_DT_U16:
    case KN_DT_I16:
        return unique_u16(data, n);
    case KN_DT_U32:
    case KN_DT_I32:
        return unique_u32(data, n);
    case KN_DT_U64:
    case KN_DT_I64:
        return unique_u64(data, n);
    case KN_DT_F32:
        return unique_f32(data, n);
    case KN_DT_F64:
        return unique_f64(data, n);
    case KN_DT_C64:
        return unique_c64(data, n);
    case KN_DT_C128:
        return unique_c128(data, n);
    default:
        return n;
    }
}

/* ---- np.unique(return_index, return_inverse, return_counts) ----
 *
 * A stable argsort, the values gathered in sorted order, then one pass over the groups of equal
 * values (NaNs one group, as kn_rt_unique; -0.0 and +0.0 one group, the first sorted stands for
 * it): the group's value moved to the front, the first index of each group (the smallest: the
 * sort is stable), each item's group and each group's size. */
#define KN_SAME_INT(a, b) ((a) == (b))
#define KN_SAME_FLT(a, b) ((a) == (b) || (KN_IS_NAN(a) && KN_IS_NAN(b)))
#define KN_DEF_GROUPS(N, T, SAME)                                                                  \
    static int64_t groups_##N(const T *src, int64_t n, T *s, const int64_t *perm, int64_t *index,  \
                              int64_t *inverse, int64_t *counts)                                   \
    {                                                                                              \
        int64_t m = 0;                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T v = src[perm[i]];                                                                    \
            if (m == 0 || !SAME(v, s[m - 1])) {                                                    \
                s[m] = v;                                                                          \
                if (index)                                                                         \
                    index[m] = perm[i];                                                            \
                if (counts)                                                                        \
                    counts[m] = 0;                                                                 \
                m++;                                                                               \
            }                                                                                      \
            if (counts)                                                                            \
                counts[m - 1]++;                                                                   \
            if (inverse)                                                                           \
                inverse[perm[i]] = m - 1;                                                          \
        }                                                                                          \
        return m;                                                                                  \
    }
KN_DEF_GROUPS(u8, uint8_t, KN_SAME_INT)
KN_DEF_GROUPS(u16, uint16_t, KN_SAME_INT)
KN_DEF_GROUPS(u32, uint32_t, KN_SAME_INT)
KN_DEF_GROUPS(u64, uint64_t, KN_SAME_INT)
KN_DEF_GROUPS(f32, float, KN_SAME_FLT)
KN_DEF_GROUPS(f64, double, KN_SAME_FLT)

typedef struct {
    float re, im;
} KnGroupC64;
typedef struct {
    double re, im;
} KnGroupC128;
#define KN_CNAN(z) (KN_IS_NAN((z).re) || KN_IS_NAN((z).im))
#define KN_SAME_CPX(a, b) (((a).re == (b).re && (a).im == (b).im) || (KN_CNAN(a) && KN_CNAN(b)))
KN_DEF_GROUPS(c64, KnGroupC64, KN_SAME_CPX)
KN_DEF_GROUPS(c128, KnGroupC128, KN_SAME_CPX)

int64_t
kn_rt_unique_all(const void *data, int64_t n, int32_t dt, void *values, int64_t *perm,
                 int64_t *index, int64_t *inverse, int64_t *counts)
{
    if (n < 1)
        return 0;
    kn_rt_argsort(data, n, 1, dt, perm);
    switch (dt) {
    case KN_DT_BOOL:
    case KN_DT_U8:
    case KN_DT_I8:
        return groups_u8(data, n, values, perm, index, inverse, counts);
    case KN_DT_U16:
    case KN_DT_I16:
        return groups_u16(data, n, values, perm, index, inverse, counts);
    case KN_DT_U32:
    case KN_DT_I32:
        return groups_u32(data, n, values, perm, index, inverse, counts);
    case KN_DT_U64:
    case KN_DT_I64:
        return groups_u64(data, n, values, perm, index, inverse, counts);
    case KN_DT_F32:
        return groups_f32(data, n, values, perm, index, inverse, counts);
    case KN_DT_F64:
        return groups_f64(data, n, values, perm, index, inverse, counts);
    case KN_DT_C64:
        return groups_c64(data, n, values, perm, index, inverse, counts);
    default:
        return groups_c128(data, n, values, perm, index, inverse, counts);
    }
}

/* ---- cumsum / cumprod along an axis ----
 *
 * data: a C array of shape (outer, n, inner) of the accumulator's dtype (int64, uint64, float32,
 * float64, complex64, complex128: the caller converted into it), scanned in place along the
 * middle axis. */
#define KN_DEF_CUM(N, T)                                                                           \
    static void cum_##N(T *a, int64_t outer, int64_t n, int64_t inner, int prod)                   \
    {                                                                                              \
        for (int64_t p = 0; p < outer; p++) {                                                      \
            T *b = a + p * n * inner;                                                              \
            for (int64_t j = 1; j < n; j++)                                                        \
                for (int64_t q = 0; q < inner; q++) {                                              \
                    if (prod)                                                                      \
                        b[j * inner + q] *= b[(j - 1) * inner + q];                                \
                    else                                                                           \
                        b[j * inner + q] += b[(j - 1) * inner + q];                                \
                }                                                                                  \
        }                                                                                          \
    }
KN_DEF_CUM(i64, uint64_t) /* wrapping, as NumPy's int64 sums */
KN_DEF_CUM(f32, float)
KN_DEF_CUM(f64, double)
/* complex: NumPy's plain product formula (C's complex multiply treats inf and nan otherwise) */
#define KN_DEF_CUM_C(N, T)                                                                         \
    static void cum_##N(T *a, int64_t outer, int64_t n, int64_t inner, int prod)                   \
    {                                                                                              \
        for (int64_t p = 0; p < outer; p++) {                                                      \
            T *b = a + 2 * p * n * inner;                                                          \
            for (int64_t j = 1; j < n; j++)                                                        \
                for (int64_t q = 0; q < inner; q++) {                                              \
                    T *x = b + 2 * (j * inner + q), *y = b + 2 * ((j - 1) * inner + q);            \
                    if (prod) {                                                                    \
                        T re = y[0] * x[0] - y[1] * x[1], im = y[0] * x[1] + y[1] * x[0];          \
                        x[0] = re;                                                                 \
                        x[1] = im;                                                                 \
                    } else {                                                                       \
                        x[0] += y[0];                                                              \
                        x[1] += y[1];                                                              \
                    }                                                                              \
                }                                                                                  \
        }                                                                                          \
    }
KN_DEF_CUM_C(c64, float)
KN_DEF_CUM_C(c128, double)

void
kn_rt_cumulate(void *data, int64_t outer, int64_t n, int64_t inner, int32_t dt, int32_t prod)
{
    switch (dt) {
    case KN_DT_F32:
        cum_f32(data, outer, n, inner, prod);
        break;
    case KN_DT_F64:
        cum_f64(data, outer, n, inner, prod);
        break;
    case KN_DT_C64:
        cum_c64(data, outer, n, inner, prod);
        break;
    case KN_DT_C128:
        cum_c128(data, outer, n, inner, prod);
        break;
    default:
        cum_i64(data, outer, n, inner, prod);
    }
}
