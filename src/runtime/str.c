/* str.c - the run-time routines of str (runtime/str.h): making canonical strings (PEP 393: the
 * narrowest kind that holds every code point, which CPython's equality and hashing rely on),
 * concatenation and the amortised in-place `+=`, repetition, indexing and slicing, comparison,
 * substring search, hashing through CPython's own hash of bytes, and the conversions str(int),
 * str(float) (repr: the shortest digits that round-trip), int(str) and float(str) with CPython's
 * grammar. Each routine switches on the kinds once at entry; kind 1 uses memcpy/memcmp/memmem.
 *
 * Memory: an owned string's characters are in one meminfo (kn_rt_meminfo_alloc), except the
 * result of `+=`, which gets a growable buffer: a meminfo with a destructor whose data points to
 * a separately malloc'ed block (a GrowHeader, then the characters) that `+=` reallocates
 * geometrically while the meminfo's refcount is 1 (nobody else can see the characters move).
 * The 256 one-character strings of kind 1 are a static table: borrowed, never allocated. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "runtime/str.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t (*kn_rt_str_hash_bytes)(const void *p, int64_t n);

static const uint8_t latin1[256] = {
#define R16(b)                                                                                     \
    b + 0, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10, b + 11, b + 12,  \
        b + 13, b + 14, b + 15
    R16(0),   R16(16),  R16(32),  R16(48),  R16(64),  R16(80),  R16(96),  R16(112),
    R16(128), R16(144), R16(160), R16(176), R16(192), R16(208), R16(224), R16(240),
#undef R16
};

static inline uint32_t
code_at(const void *p, int32_t kind, int64_t i)
{
    switch (kind) {
    case 1:
        return ((const uint8_t *)p)[i];
    case 2:
        return ((const uint16_t *)p)[i];
    default:
        return ((const uint32_t *)p)[i];
    }
}

static inline void
put_code(void *p, int32_t kind, int64_t i, uint32_t c)
{
    switch (kind) {
    case 1:
        ((uint8_t *)p)[i] = (uint8_t)c;
        break;
    case 2:
        ((uint16_t *)p)[i] = (uint16_t)c;
        break;
    default:
        ((uint32_t *)p)[i] = c;
    }
}

/* the largest of n code points of kind `kind` at p, with a stride of `step` code points */
#define MAX_LOOP(T)                                                                                \
    do {                                                                                           \
        const T *q = p;                                                                            \
        T m = 0;                                                                                   \
        for (int64_t i = 0; i < n; i++)                                                            \
            m = q[i * step] > m ? q[i * step] : m;                                                 \
        return m;                                                                                  \
    } while (0)

static uint32_t
max_code_step(const void *p, int32_t kind, int64_t n, int64_t step)
{
    if (step == 1) { /* separate loops: these vectorise */
        if (kind == 1) {
            const uint8_t *q = p;
            uint8_t m = 0;
            for (int64_t i = 0; i < n; i++)
                m |= q[i];
            return m < 128 ? m : 255;
        }
        if (kind == 2) {
            const uint16_t *q = p;
            uint16_t m = 0;
            for (int64_t i = 0; i < n; i++)
                m = q[i] > m ? q[i] : m;
            return m;
        }
        const uint32_t *q = p;
        uint32_t m = 0;
        for (int64_t i = 0; i < n; i++)
            m = q[i] > m ? q[i] : m;
        return m;
    }
    if (kind == 1)
        MAX_LOOP(uint8_t);
    if (kind == 2)
        MAX_LOOP(uint16_t);
    MAX_LOOP(uint32_t);
}
#undef MAX_LOOP

/* only what the kind decision and the ascii flag need: below 128, below 256, the exact value
 * above */
static uint32_t
max_code(const void *p, int32_t kind, int64_t n)
{
    return max_code_step(p, kind, n, 1);
}

/* n code points of kind sk from src with a stride of step to dst, of kind dk */
#define STEP_LOOP(D, S)                                                                            \
    do {                                                                                           \
        D *d = dst;                                                                                \
        const S *q = src;                                                                          \
        if (step == -1) /* s[::-1]: a loop that vectorises */                                      \
            for (int64_t i = 0; i < n; i++)                                                        \
                d[i] = (D)q[-i];                                                                   \
        else                                                                                       \
            for (int64_t i = 0; i < n; i++)                                                        \
                d[i] = (D)q[i * step];                                                             \
        return;                                                                                    \
    } while (0)

/* dst[i] = src[-i] for n code points of one kind: eight bytes at a time (a byte swap of the
 * word, then the lanes' own bytes put back in order); baseline x86-64 has no byte shuffle */
static void
reverse_copy(char *dst, const char *src, int64_t n, int32_t kind)
{
    const char *lo = src - (n - 1) * kind; /* the lowest address read */
    int64_t nb = n * kind, i = 0;
    for (; i + 8 <= nb; i += 8) {
        uint64_t w;
        memcpy(&w, lo + nb - 8 - i, 8);
        w = __builtin_bswap64(w);
        if (kind == 2)
            w = (w >> 8 & 0x00ff00ff00ff00ffULL) | (w & 0x00ff00ff00ff00ffULL) << 8;
        else if (kind == 4)
            w = (w >> 8 & 0x00ff00ff00ff00ffULL) | (w & 0x00ff00ff00ff00ffULL) << 8,
            w = (w >> 16 & 0x0000ffff0000ffffULL) | (w & 0x0000ffff0000ffffULL) << 16;
        memcpy(dst + i, &w, 8);
    }
    for (int64_t j = i / kind; j < n; j++) /* the last code points */
        memcpy(dst + j * kind, src - j * kind, (size_t)kind);
}

static void
copy_step(void *dst, int32_t dk, const void *src, int32_t sk, int64_t n, int64_t step)
{
    if (step == -1 && dk == sk) {
        reverse_copy(dst, src, n, dk);
        return;
    }
    if (dk == 1 && sk == 1)
        STEP_LOOP(uint8_t, uint8_t);
    if (dk == 1 && sk == 2)
        STEP_LOOP(uint8_t, uint16_t);
    if (dk == 1 && sk == 4)
        STEP_LOOP(uint8_t, uint32_t);
    if (dk == 2 && sk == 2)
        STEP_LOOP(uint16_t, uint16_t);
    if (dk == 2 && sk == 4)
        STEP_LOOP(uint16_t, uint32_t);
    if (dk == 4 && sk == 4)
        STEP_LOOP(uint32_t, uint32_t);
    if (dk == 2 && sk == 1)
        STEP_LOOP(uint16_t, uint8_t);
    if (dk == 4 && sk == 1)
        STEP_LOOP(uint32_t, uint8_t);
    STEP_LOOP(uint32_t, uint16_t);
}
#undef STEP_LOOP

/* n code points from src (kind sk) to dst (kind dk >= the kind their values need) */
static void
copy_chars(void *dst, int32_t dk, const void *src, int32_t sk, int64_t n)
{
    if (dk == sk)
        memcpy(dst, src, (size_t)n * (size_t)dk);
    else
        copy_step(dst, dk, src, sk, n, 1);
}

static int32_t
kind_of(uint32_t maxc)
{
    return maxc < 256 ? 1 : maxc < 65536 ? 2 : 4;
}

static void
set_borrowed_char(KnStr *out, uint32_t c)
{
    *out = (KnStr){.data = &latin1[c], .length = 1, .kind = 1, .ascii = c < 128, .hash = -1};
}

/* a fresh owned string of n code points of kind `kind` (characters uninitialised) */
static int
alloc_str(KnStr *out, int64_t n, int32_t kind, int32_t ascii)
{
    KnMemInfo *mi = kn_rt_meminfo_alloc(n * kind);
    if (!mi)
        return -1;
    *out =
        (KnStr){.mi = mi, .data = mi->data, .length = n, .kind = kind, .ascii = ascii, .hash = -1};
    return 0;
}

int
kn_rt_str_make(KnStr *out, const void *p, int64_t n, int32_t kind)
{
    uint32_t m = max_code(p, kind, n);
    if (n == 1 && m < 256) {
        set_borrowed_char(out, code_at(p, kind, 0));
        return 0;
    }
    int32_t k = kind_of(m);
    if (alloc_str(out, n, k, m < 128) < 0)
        return -1;
    copy_chars((void *)out->data, k, p, kind, n);
    return 0;
}

/* the ownership rule, in one place: a str borrowed from a Python object (mi NULL, parent set)
 * must be copied before it is stored where it may outlive the call */
static int
is_borrowed_from_python(const KnStr *a)
{
    return !a->mi && a->parent;
}

/* a borrowed str's characters copied into owned memory, its hash kept */
static int
copy_borrowed(KnStr *out, const KnStr *a)
{
    int64_t hash = a->hash;
    if (kn_rt_str_make(out, a->data, a->length, a->kind) < 0)
        return -1;
    out->hash = hash;
    return 0;
}

int
kn_rt_str_own(KnStr *out, const KnStr *a)
{
    if (!is_borrowed_from_python(a)) {
        *out = *a;
        kn_rt_incref(a->mi);
        return 0;
    }
    return copy_borrowed(out, a);
}

int
kn_rt_str_own_in_place(KnStr *s)
{
    if (!is_borrowed_from_python(s))
        return 0;
    KnStr copy;
    if (copy_borrowed(&copy, s) < 0)
        return -1;
    *s = copy;
    return 0;
}

static int32_t
kind_max(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

int
kn_rt_str_concat(KnStr *out, const KnStr *a, const KnStr *b)
{
    int32_t k = kind_max(a->kind, b->kind);
    if (alloc_str(out, a->length + b->length, k, a->ascii && b->ascii) < 0)
        return -1;
    char *d = (char *)out->data;
    copy_chars(d, k, a->data, a->kind, a->length);
    copy_chars(d + a->length * k, k, b->data, b->kind, b->length);
    return 0;
}

/* ---- the growable buffer of `+=` ---- */

typedef struct GrowHeader {
    int64_t capacity; /* bytes of characters the block holds */
    int64_t pad;
} GrowHeader;

static void
grow_free(void *data, size_t size)
{
    (void)size;
    free(data);
}

static char *
grow_chars(KnMemInfo *mi)
{
    return (char *)mi->data + sizeof(GrowHeader);
}

/* a growable string holding a then b, with room to spare */
static int
grow_new(KnStr *out, const KnStr *a, const KnStr *b)
{
    int32_t k = kind_max(a->kind, b->kind);
    int64_t n = a->length + b->length, cap = 2 * n * k;
    cap = cap < 64 ? 64 : cap;
    KnMemInfo *mi = kn_rt_meminfo_alloc_dtor(0, grow_free);
    if (!mi)
        return -1;
    GrowHeader *h = malloc(sizeof(GrowHeader) + (size_t)cap);
    if (!h) {
        kn_rt_meminfo_free(mi);
        return -1;
    }
    h->capacity = cap;
    mi->data = h;
    char *d = grow_chars(mi);
    copy_chars(d, k, a->data, a->kind, a->length);
    copy_chars(d + a->length * k, k, b->data, b->kind, b->length);
    *out = (KnStr){
        .mi = mi, .data = d, .length = n, .kind = k, .ascii = a->ascii && b->ascii, .hash = -1};
    return 0;
}

int
kn_rt_str_iadd(KnStr *out, const KnStr *a, const KnStr *b)
{
    KnMemInfo *mi = a->mi;
    if (!mi || mi->dtor != grow_free || b->mi == mi || b->kind > a->kind ||
        atomic_load_explicit(&mi->refcount, memory_order_acquire) != 1 || a->data != grow_chars(mi))
        return grow_new(out, a, b);
    int32_t k = a->kind;
    int64_t need = (a->length + b->length) * k;
    GrowHeader *h = mi->data;
    if (need > h->capacity) {
        int64_t cap = 2 * need;
        GrowHeader *nh = realloc(h, sizeof(GrowHeader) + (size_t)cap);
        if (!nh)
            return -1;
        nh->capacity = cap;
        mi->data = h = nh;
    }
    char *d = grow_chars(mi);
    copy_chars(d + a->length * k, k, b->data, b->kind, b->length);
    *out = (KnStr){.mi = mi,
                   .data = d,
                   .length = a->length + b->length,
                   .kind = k,
                   .ascii = a->ascii && b->ascii,
                   .hash = -1};
    kn_rt_incref(mi); /* out's own reference */
    return 0;
}

int
kn_rt_str_repeat(KnStr *out, const KnStr *a, int64_t n)
{
    if (n <= 0 || a->length == 0) {
        *out = (KnStr){.data = latin1, .kind = 1, .ascii = 1, .hash = -1};
        return 0;
    }
    if (n == 1 && a->length == 1 && a->kind == 1) {
        set_borrowed_char(out, ((const uint8_t *)a->data)[0]);
        return 0;
    }
    if (a->length > INT64_MAX / 4 / n)
        return -1;
    if (alloc_str(out, a->length * n, a->kind, a->ascii) < 0)
        return -1;
    size_t unit = (size_t)(a->length * a->kind), total = unit * (size_t)n, done = unit;
    char *d = (char *)out->data;
    memcpy(d, a->data, unit);
    while (done < total) { /* doubling copies */
        size_t m = done < total - done ? done : total - done;
        memcpy(d + done, d, m);
        done += m;
    }
    return 0;
}

int32_t
kn_rt_str_code(const KnStr *a, int64_t i)
{
    return (int32_t)code_at(a->data, a->kind, i);
}

int
kn_rt_str_chr(KnStr *out, int64_t cp)
{
    uint32_t c = (uint32_t)cp;
    if (c < 256) {
        set_borrowed_char(out, c);
        return 0;
    }
    int32_t k = kind_of(c);
    if (alloc_str(out, 1, k, 0) < 0)
        return -1;
    put_code((void *)out->data, k, 0, c);
    return 0;
}

int
kn_rt_str_char(KnStr *out, const KnStr *a, int64_t i)
{
    return kn_rt_str_chr(out, code_at(a->data, a->kind, i));
}

/* Python's slice rules for a sequence of length n (PySlice_AdjustIndices) */
static int64_t
adjust(int64_t *start, int64_t *stop, int64_t step, int64_t n)
{
    int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
    int64_t *b[2] = {start, stop};
    for (int j = 0; j < 2; j++) {
        if (*b[j] == INT64_MIN) {
            *b[j] = (step < 0) == (j == 0) ? hi : lo;
            continue;
        }
        if (*b[j] < 0) {
            *b[j] += n;
            if (*b[j] < 0)
                *b[j] = lo;
        } else if (*b[j] >= n) {
            *b[j] = hi;
        }
    }
    if (step < 0)
        return *stop < *start ? (*start - *stop - 1) / (-step) + 1 : 0;
    return *start < *stop ? (*stop - *start - 1) / step + 1 : 0;
}

int
kn_rt_str_slice(KnStr *out, const KnStr *a, int64_t start, int64_t stop, int64_t step)
{
    int64_t n = adjust(&start, &stop, step, a->length);
    if (n == 0) {
        *out = (KnStr){.data = latin1, .kind = 1, .ascii = 1, .hash = -1};
        return 0;
    }
    if (n == a->length && step == 1) { /* the whole string: the same value, one more reference */
        *out = *a;
        kn_rt_incref(a->mi);
        return 0;
    }
    const char *src = (const char *)a->data + start * a->kind;
    if (step == 1) {
        uint32_t m = a->ascii ? 0 : max_code(src, a->kind, n);
        if (kind_of(m) == a->kind && n > 1) { /* a view sharing the characters */
            *out = (KnStr){.mi = a->mi,
                           .data = src,
                           .length = n,
                           .kind = a->kind,
                           .ascii = m < 128,
                           .hash = -1,
                           .parent = a->parent};
            kn_rt_incref(a->mi);
            return 0;
        }
        return kn_rt_str_make(out, src, n, a->kind);
    }
    uint32_t m = a->ascii     ? 0
                 : step == -1 ? max_code(src - (n - 1) * a->kind, a->kind, n) /* same set */
                              : max_code_step(src, a->kind, n, step);
    if (n == 1 && m < 256) {
        set_borrowed_char(out, code_at(src, a->kind, 0));
        return 0;
    }
    int32_t k = kind_of(m);
    if (alloc_str(out, n, k, m < 128) < 0)
        return -1;
    copy_step((void *)out->data, k, src, a->kind, n, step);
    return 0;
}

/* ---- comparison and search ---- */

int32_t
kn_rt_str_eq(const KnStr *a, const KnStr *b)
{
    return a->length == b->length && a->kind == b->kind &&
           (a->data == b->data || !memcmp(a->data, b->data, (size_t)(a->length * a->kind)));
}

int32_t
kn_rt_str_cmp(const KnStr *a, const KnStr *b)
{
    int64_t n = a->length < b->length ? a->length : b->length;
    if (a->kind == 1 && b->kind == 1) {
        int r = memcmp(a->data, b->data, (size_t)n);
        if (r)
            return r < 0 ? -1 : 1;
    } else {
        for (int64_t i = 0; i < n; i++) {
            uint32_t x = code_at(a->data, a->kind, i), y = code_at(b->data, b->kind, i);
            if (x != y)
                return x < y ? -1 : 1;
        }
    }
    return a->length < b->length ? -1 : a->length > b->length;
}

/* the first match of needle (nb bytes) in hay (hb bytes) at a multiple of `kind` bytes */
static int
find_aligned(const char *hay, size_t hb, const char *needle, size_t nb, int32_t kind)
{
    const char *p = hay, *end = hay + hb;
    while ((size_t)(end - p) >= nb) {
        const char *f = memmem(p, (size_t)(end - p), needle, nb);
        if (!f)
            return 0;
        if ((size_t)(f - hay) % (size_t)kind == 0)
            return 1;
        p = f + 1;
    }
    return 0;
}

/* Substring search for kinds 2 and 4: 16 bytes of positions at a time, a position being a
 * candidate when its first and last code points match the needle's (GCC vector extensions: SSE2
 * on x86-64), each candidate then compared in full. */
#define FIND_WIDE(T)                                                                               \
    do {                                                                                           \
        typedef T V __attribute__((vector_size(16)));                                              \
        enum { W = 16 / sizeof(T) };                                                               \
        const T *h = hay, *q = needle;                                                             \
        T first = q[0], last = q[m - 1];                                                           \
        V vf, vl;                                                                                  \
        for (int j = 0; j < W; j++)                                                                \
            vf[j] = first, vl[j] = last;                                                           \
        int64_t i = 0;                                                                             \
        for (; i + W - 1 + m - 1 < n; i += W) {                                                    \
            V a, b;                                                                                \
            memcpy(&a, h + i, 16);                                                                 \
            memcpy(&b, h + i + m - 1, 16);                                                         \
            V hit = (V)((a == vf) & (b == vl));                                                    \
            uint64_t w[2];                                                                         \
            memcpy(w, &hit, 16);                                                                   \
            if (!(w[0] | w[1]))                                                                    \
                continue;                                                                          \
            for (int j = 0; j < W; j++)                                                            \
                if (hit[j] && !memcmp(h + i + j, q, (size_t)m * sizeof(T)))                        \
                    return 1;                                                                      \
        }                                                                                          \
        for (; i + m <= n; i++)                                                                    \
            if (h[i] == first && h[i + m - 1] == last && !memcmp(h + i, q, (size_t)m * sizeof(T))) \
                return 1;                                                                          \
        return 0;                                                                                  \
    } while (0)

static int
find_wide(const void *hay, int64_t n, const void *needle, int64_t m, int32_t kind)
{
    if (kind == 2)
        FIND_WIDE(uint16_t);
    FIND_WIDE(uint32_t);
}
#undef FIND_WIDE

int32_t
kn_rt_str_contains(const KnStr *hay, const KnStr *needle)
{
    if (needle->length == 0)
        return 1;
    if (needle->kind > hay->kind || needle->length > hay->length)
        return 0;
    int32_t k = hay->kind;
    size_t nb = (size_t)(needle->length * k);
    if (needle->kind == k)
        return k == 1 ? find_aligned(hay->data, (size_t)hay->length, needle->data, nb, 1)
                      : find_wide(hay->data, hay->length, needle->data, needle->length, k);
    char small[256];
    char *w = nb <= sizeof small ? small : malloc(nb);
    if (!w) { /* no memory for the widened needle: compare code points in place */
        for (int64_t i = 0; i + needle->length <= hay->length; i++) {
            int64_t j = 0;
            while (j < needle->length &&
                   code_at(hay->data, k, i + j) == code_at(needle->data, needle->kind, j))
                j++;
            if (j == needle->length)
                return 1;
        }
        return 0;
    }
    copy_chars(w, k, needle->data, needle->kind, needle->length);
    int r = find_wide(hay->data, hay->length, w, needle->length, k);
    if (w != small)
        free(w);
    return r;
}

int64_t
kn_rt_str_hash(const KnStr *a)
{
    if (a->hash != -1)
        return a->hash;
    if (a->length == 0)
        return 0;
    return kn_rt_str_hash_bytes(a->data, a->length * a->kind);
}

/* ---- conversions ---- */

/* an ASCII text of n bytes as a str */
static int
ascii_str(KnStr *out, const char *text, int64_t n)
{
    if (n == 1) {
        set_borrowed_char(out, (uint8_t)text[0]);
        return 0;
    }
    if (alloc_str(out, n, 1, 1) < 0)
        return -1;
    memcpy((void *)out->data, text, (size_t)n);
    return 0;
}

char *
kn_rt_dec_digits(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

int
kn_rt_str_from_int(KnStr *out, int64_t v)
{
    char buf[24], *end = buf + sizeof buf;
    char *p = kn_rt_dec_digits(end, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    if (v < 0)
        *--p = '-';
    return ascii_str(out, p, end - p);
}

int
kn_rt_str_from_uint(KnStr *out, uint64_t v)
{
    char buf[24], *end = buf + sizeof buf;
    char *p = kn_rt_dec_digits(end, v);
    return ascii_str(out, p, end - p);
}

/* d.ddde+XX: add one unit in the last digit (away from zero); 0 when it would carry past the
 * first digit */
static int
bump_last_digit(char *buf)
{
    char *e = strchr(buf, 'e');
    for (char *p = e - 1; p >= buf && *p != '-'; p--) {
        if (*p == '.')
            continue;
        if (*p != '9') {
            (*p)++;
            return 1;
        }
        *p = '0';
    }
    return 0;
}

/* ---- repr of a float: the shortest digits that read back as the value ----
 *
 * For the digit counts P = 15, 16, 17 in turn, the correctly rounded P-digit decimal q of a is
 * computed exactly in 128-bit integers (a = f * 2^e, scaled by 10^k: Num / Den) and kept when it
 * lies within half a unit of a's last place, which is also checked exactly (a tie reads back as
 * a when f is even; below a power of two the gap is half as wide). 15 digits always survive
 * decimal -> double -> decimal, so two decimals of at most 15 digits never read back as the same
 * double: the 15-digit one found this way, trailing zeros dropped, is the shortest. Below a power
 * of two the gap above is the wider one, so the 16-digit decimal just above the nearest may be
 * the one that reads back. Values out of the exact path's range (subnormals, |a| past about 1e35
 * or below 1e-7) go through printf and strtod the same way, every precision tried. */

typedef unsigned __int128 u128;

static u128
pow10_u128(int k)
{
    u128 r = 1;
    while (k-- > 0)
        r *= 10;
    return r;
}

/* is the decimal q / (Num/Den scale) within the rounding interval of a? */
static int
reads_back(u128 q, u128 num, u128 den, u128 t, uint64_t f)
{
    u128 qd = q * den;
    int below = qd < num;
    u128 dist = below ? num - qd : qd - num;
    if (below && f == (uint64_t)1 << 52) /* the gap below a power of two is half as wide */
        return 4 * dist <= t;
    return 2 * dist < t || (2 * dist == t && !(f & 1));
}

/* the shortest digits of a > 0 (normal): 1, with their count and decimal exponent (of the
 * first digit); 0 when out of the exact path's range */
static int
exact_digits(double a, char *digits, int *nd, int *exp10)
{
    uint64_t bits;
    memcpy(&bits, &a, 8);
    int be = (int)(bits >> 52);
    if (be == 0)
        return 0; /* subnormal */
    uint64_t f = (bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52;
    int e = be - 1075;
    if (e > 60 || e < -120)
        return 0;
    int e10 = (int)floor(log10(a));
    for (int P = 15, tries = 0; P <= 17 && tries < 8; tries++) {
        int k = P - 1 - e10;
        if (k > 22 || k < -34)
            return 0;
        u128 num = f, den = 1, t;
        if (e >= 0)
            num <<= e;
        else
            den <<= -e;
        if (k >= 0)
            num *= pow10_u128(k);
        else
            den *= pow10_u128(-k);
        t = (e >= 0 ? (u128)1 << e : 1) * (k >= 0 ? pow10_u128(k) : 1);
        u128 q = num / den, r = num % den, top = pow10_u128(P);
        if (q >= top) { /* the estimate of the exponent was one off */
            e10++;
            continue;
        }
        if (q < top / 10) {
            e10--;
            continue;
        }
        if (2 * r > den || (2 * r == den && (q & 1)))
            q++; /* may reach top: the decimal 10^(e10 + 1), written below as 1 and zeros */
        int ok = reads_back(q, num, den, t, f);
        if (!ok && P == 16 && f == (uint64_t)1 << 52 && q < top - 1 &&
            reads_back(q + 1, num, den, t, f))
            ok = 1, q++;
        if (ok || P == 17) {
            if (!ok)
                return 0;
            int up = q == top;
            if (up)
                q /= 10;
            for (int i = P - 1; i >= 0; i--) {
                digits[i] = (char)('0' + (int)(q % 10));
                q /= 10;
            }
            *nd = P;
            while (*nd > 1 && digits[*nd - 1] == '0')
                (*nd)--;
            *exp10 = e10 + up;
            return 1;
        }
        P++;
    }
    return 0;
}

/* the same through printf and strtod */
static void
printf_digits(double a, char *digits, int *nd, int *exp10)
{
    char buf[40];
    for (int prec = a >= 2.2250738585072014e-308 ? 15 : 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, a);
        if (prec == 17 || strtod(buf, NULL) == a)
            break;
        if (prec == 16 && bump_last_digit(buf) && strtod(buf, NULL) == a)
            break; /* a power of two: its interval is wider above, where the next digits lie */
    }
    const char *p = buf; /* d[.ddd]e[+-]XX */
    *nd = 0;
    for (; *p != 'e'; p++)
        if (*p != '.')
            digits[(*nd)++] = *p;
    while (*nd > 1 && digits[*nd - 1] == '0')
        (*nd)--;
    *exp10 = atoi(p + 1);
}

/* repr(v) as CPython writes it: positional notation when the decimal exponent is in [-4, 16),
 * else d.ddde+XX */
int
kn_rt_str_from_float(KnStr *out, double v)
{
    char digits[24], res[48];
    if (isnan(v))
        return ascii_str(out, "nan", 3);
    if (isinf(v))
        return v > 0 ? ascii_str(out, "inf", 3) : ascii_str(out, "-inf", 4);
    int neg = signbit(v) != 0, nd, exp, r = 0;
    double a = fabs(v);
    if (a == 0) {
        digits[0] = '0';
        nd = 1;
        exp = 0;
    } else if (!exact_digits(a, digits, &nd, &exp)) {
        printf_digits(a, digits, &nd, &exp);
    }
    int decpt = exp + 1;
    if (neg)
        res[r++] = '-';
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            res[r++] = '0';
            res[r++] = '.';
            for (int i = 0; i < -decpt; i++)
                res[r++] = '0';
            for (int i = 0; i < nd; i++)
                res[r++] = digits[i];
        } else {
            for (int i = 0; i < decpt; i++)
                res[r++] = i < nd ? digits[i] : '0';
            res[r++] = '.';
            if (nd > decpt)
                for (int i = decpt; i < nd; i++)
                    res[r++] = digits[i];
            else
                res[r++] = '0';
        }
    } else {
        res[r++] = digits[0];
        if (nd > 1) {
            res[r++] = '.';
            for (int i = 1; i < nd; i++)
                res[r++] = digits[i];
        }
        res[r++] = 'e';
        res[r++] = exp < 0 ? '-' : '+';
        int x = exp < 0 ? -exp : exp;
        if (x >= 100)
            res[r++] = (char)('0' + x / 100);
        res[r++] = (char)('0' + x / 10 % 10);
        res[r++] = (char)('0' + x % 10);
    }
    return ascii_str(out, res, r);
}

/* the last bad literal of this thread, for the ValueError's message */
static _Thread_local struct {
    void *chars;
    int64_t length;
    int32_t kind;
} last_error;

static void
keep_error(const KnStr *a)
{
    free(last_error.chars);
    last_error.chars = malloc((size_t)(a->length * a->kind) + 1);
    last_error.length = last_error.chars ? a->length : 0;
    last_error.kind = a->kind;
    if (last_error.chars)
        memcpy(last_error.chars, a->data, (size_t)(a->length * a->kind));
}

const void *
kn_rt_str_error(int32_t *kind, int64_t *length)
{
    *kind = last_error.kind ? last_error.kind : 1;
    *length = last_error.length;
    return last_error.chars ? last_error.chars : "";
}

/* Python's str.isspace for the code points int() and float() strip */
static int
is_space(uint32_t c)
{
    if (c < 128)
        return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
    return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
           c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/* a's text without the surrounding white space, as ASCII in buf (NUL-terminated, underscores
 * kept); 0, or -1 when a character left is not ASCII or it does not fit */
static int
stripped_ascii(const KnStr *a, char *buf, size_t size)
{
    int64_t i = 0, j = a->length;
    while (i < j && is_space(code_at(a->data, a->kind, i)))
        i++;
    while (j > i && is_space(code_at(a->data, a->kind, j - 1)))
        j--;
    if ((size_t)(j - i) >= size)
        return -1;
    for (int64_t k = i; k < j; k++) {
        uint32_t c = code_at(a->data, a->kind, k);
        if (c >= 128 || c == 0)
            return -1;
        buf[k - i] = (char)c;
    }
    buf[j - i] = 0;
    return 0;
}

int
kn_rt_str_to_int(const KnStr *a, int64_t *out)
{
    char buf[512];
    if (stripped_ascii(a, buf, sizeof buf) < 0)
        goto bad;
    const char *p = buf;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (!*p)
        goto bad;
    uint64_t v = 0;
    int over = 0;
    for (int prev_digit = 0; *p; p++) {
        if (*p == '_') { /* one underscore, between digits */
            if (!prev_digit || !p[1] || p[1] == '_')
                goto bad;
            prev_digit = 0;
            continue;
        }
        if (*p < '0' || *p > '9')
            goto bad;
        prev_digit = 1;
        if (v > (UINT64_MAX - 9) / 10)
            over = 1;
        else
            v = v * 10 + (uint64_t)(*p - '0');
    }
    if (over || v > (uint64_t)INT64_MAX + (uint64_t)neg)
        return -3;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
bad:
    keep_error(a);
    return -2;
}

/* p points at digits with single underscores between them; copy them to *w without the
 * underscores. The number of digits copied, or -1 when an underscore is misplaced. */
static int
digits_of(const char **p, char **w)
{
    int n = 0;
    while (**p >= '0' && **p <= '9') {
        *(*w)++ = *(*p)++;
        n++;
        if (**p == '_') {
            if ((*p)[1] < '0' || (*p)[1] > '9')
                return -1;
            (*p)++;
        }
    }
    return n;
}

int
kn_rt_str_to_float(const KnStr *a, double *out)
{
    char buf[512], clean[512];
    if (stripped_ascii(a, buf, sizeof buf) < 0)
        goto bad;
    const char *p = buf;
    char *w = clean;
    if (*p == '+' || *p == '-')
        *w++ = *p++;
    const char *word = p;
    if (!strcasecmp(word, "inf") || !strcasecmp(word, "infinity") || !strcasecmp(word, "nan")) {
        strcpy(w, word);
        *out = strtod(clean, NULL);
        return 0;
    }
    int n = digits_of(&p, &w);
    if (n < 0)
        goto bad;
    if (*p == '.') {
        *w++ = *p++;
        int m = digits_of(&p, &w);
        if (m < 0 || n + m == 0)
            goto bad;
    } else if (n == 0) {
        goto bad;
    }
    if (*p == 'e' || *p == 'E') {
        *w++ = *p++;
        if (*p == '+' || *p == '-')
            *w++ = *p++;
        if (digits_of(&p, &w) <= 0)
            goto bad;
    }
    if (*p)
        goto bad;
    *w = 0;
    *out = strtod(clean, NULL);
    return 0;
bad:
    keep_error(a);
    return -2;
}
