/* str_find.c - find, rfind, count, startswith, endswith, `in` and replace (str_methods.h).
 * The needle is brought to the haystack's kind once (or found impossible: a needle of a wider
 * kind holds a code point the haystack cannot); then one same-kind search runs (str_util.c:
 * memchr/memmem; for replace and count the one-pass search below). replace counts the matches
 * first, allocates the result once and copies the runs between them; a result whose wide characters
 * were all replaced is narrowed. */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "runtime/str_methods.h"
#include "runtime/str_util.h"

/* ---- one pass for a needle of two or more characters (replace, count) ----
 *
 * memmem (slib_search) sets up its two-way tables on every call, which dominated replace and
 * count on text with many matches (UCS-2: 1.36x CPython's time for 1400 matches in 112 KB). Here
 * the first and last characters of the needle are compared at 16 bytes of positions at once
 * (SSE2, which every x86-64 CPU has; a plain loop elsewhere and for the tail), and only
 * positions where both agree compare the middle. Text where the ends of the needle keep
 * matching without the middle ('aaaa...' for 'aba') goes on with memmem, which is linear. The
 * first match at or after `from` in h[0:n) (n - from >= m >= 2), or -1. */

#if defined(__SSE2__)
/* the positions i.. of a step whose first and last characters match, one bit per position
 * (the lowest of the movemask's two or four bits per character) */
static unsigned
candidates(__m128i a, __m128i b, __m128i vf, __m128i vl, int kind)
{
    if (kind == 1)
        return (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, vf), _mm_cmpeq_epi8(b, vl)));
    __m128i eq = kind == 2 ? _mm_and_si128(_mm_cmpeq_epi16(a, vf), _mm_cmpeq_epi16(b, vl))
                           : _mm_and_si128(_mm_cmpeq_epi32(a, vf), _mm_cmpeq_epi32(b, vl));
    return (unsigned)_mm_movemask_epi8(eq) & (kind == 2 ? 0x5555u : 0x1111u);
}
#endif

static int64_t
search_ends(const char *h, int64_t n, const char *nd, int64_t m, int kind, int64_t from)
{
    uint32_t first = slib_read(kind, nd, 0), last = slib_read(kind, nd, m - 1);
    size_t mid = (size_t)(m - 2) * (size_t)kind;
    int64_t i = from, misses = 0;
#if defined(__SSE2__)
    const int64_t lanes = 16 / kind;
    __m128i vf = kind == 1   ? _mm_set1_epi8((char)first)
                 : kind == 2 ? _mm_set1_epi16((short)first)
                             : _mm_set1_epi32((int)first);
    __m128i vl = kind == 1   ? _mm_set1_epi8((char)last)
                 : kind == 2 ? _mm_set1_epi16((short)last)
                             : _mm_set1_epi32((int)last);
    for (; i + m - 1 + lanes <= n; i += lanes) {
        const char *p = h + i * kind;
        unsigned bits =
            candidates(_mm_loadu_si128((const __m128i *)p),
                       _mm_loadu_si128((const __m128i *)(p + (m - 1) * kind)), vf, vl, kind);
        for (; bits; bits &= bits - 1) {
            int64_t at = i + __builtin_ctz(bits) / kind;
            if (!memcmp(h + (at + 1) * kind, nd + kind, mid))
                return at;
            if (++misses > 64 && misses * 16 > at - from) /* text of repeats: stay linear */
                return slib_search(h, n, nd, m, kind, at + 1);
        }
    }
#endif
    for (; i + m <= n; i++) /* the tail (or all of it without SSE2) */
        if (slib_read(kind, h, i) == first && slib_read(kind, h, i + m - 1) == last) {
            if (!memcmp(h + (i + 1) * kind, nd + kind, mid))
                return i;
            if (++misses > 64 && misses * 16 > i - from)
                return slib_search(h, n, nd, m, kind, i + 1);
        }
    return -1;
}

/* slib_search, with the one-pass search for needles of two or more characters */
static int64_t
search(const void *h, int64_t n, const void *nd, int64_t m, int kind, int64_t from)
{
    if (m < 2)
        return slib_search(h, n, nd, m, kind, from);
    if (n - from < m)
        return -1;
    return search_ends(h, n, nd, m, kind, from);
}

/* find (reverse 0) or rfind (reverse 1): the needle brought to s's kind, one search */
static int64_t
find_either(const KnStr *s, const KnStr *sub, int64_t start, int64_t end, int reverse)
{
    slib_adjust(&start, &end, s->length);
    if (end - start < sub->length)
        return -1;
    SlibNeedle nd;
    int oom;
    if (!slib_needle(&nd, sub, s->kind, &oom))
        return -1;
    int64_t r = reverse ? slib_rsearch(s->data, end, nd.p, nd.n, s->kind, start)
                        : slib_search(s->data, end, nd.p, nd.n, s->kind, start);
    slib_needle_done(&nd);
    return r;
}

int64_t
kn_rt_str_find(const KnStr *s, const KnStr *sub, int64_t start, int64_t end)
{
    return find_either(s, sub, start, end, 0);
}

int64_t
kn_rt_str_rfind(const KnStr *s, const KnStr *sub, int64_t start, int64_t end)
{
    return find_either(s, sub, start, end, 1);
}

static int64_t
count_char(const KnStr *s, uint32_t c, int64_t start, int64_t end)
{
    int64_t n = 0;
    if (s->kind == 1) {
        const uint8_t *a = s->data;
        for (int64_t i = start; i < end; i++)
            n += a[i] == c;
    } else if (s->kind == 2) {
        const uint16_t *a = s->data;
        for (int64_t i = start; i < end; i++)
            n += a[i] == c;
    } else {
        const uint32_t *a = s->data;
        for (int64_t i = start; i < end; i++)
            n += a[i] == c;
    }
    return n;
}

/* non-overlapping matches of a same-kind needle in h[start:end], at most max (< 0: all) */
static int64_t
count_runs(const void *h, int64_t start, int64_t end, const void *nd, int64_t m, int kind,
           int64_t max)
{
    int64_t n = 0;
    for (int64_t i = start; max < 0 || n < max; n++) {
        i = search(h, end, nd, m, kind, i);
        if (i < 0)
            break;
        i += m;
    }
    return n;
}

int64_t
kn_rt_str_count(const KnStr *s, const KnStr *sub, int64_t start, int64_t end)
{
    slib_adjust(&start, &end, s->length);
    if (end - start < sub->length)
        return 0;
    if (sub->length == 0)
        return end - start + 1;
    if (sub->kind > s->kind)
        return 0;
    if (sub->length == 1)
        return count_char(s, slib_read(sub->kind, sub->data, 0), start, end);
    SlibNeedle nd;
    int oom;
    if (!slib_needle(&nd, sub, s->kind, &oom))
        return 0;
    int64_t n = count_runs(s->data, start, end, nd.p, nd.n, s->kind, -1);
    slib_needle_done(&nd);
    return n;
}

/* s[at:at+len(t)] == t, kinds possibly different */
static int
match_at(const KnStr *s, int64_t at, const KnStr *t)
{
    if (t->kind == s->kind)
        return memcmp(slib_ptr(s, at), t->data, (size_t)(t->length * t->kind)) == 0;
    if (t->kind > s->kind)
        return 0;
    for (int64_t i = 0; i < t->length; i++)
        if (slib_read(s->kind, s->data, at + i) != slib_read(t->kind, t->data, i))
            return 0;
    return 1;
}

int32_t
kn_rt_str_startswith(const KnStr *s, const KnStr *prefix, int64_t start, int64_t end)
{
    slib_adjust(&start, &end, s->length);
    if (end - prefix->length < start)
        return 0;
    return match_at(s, start, prefix);
}

int32_t
kn_rt_str_endswith(const KnStr *s, const KnStr *suffix, int64_t start, int64_t end)
{
    slib_adjust(&start, &end, s->length);
    if (end - suffix->length < start)
        return 0;
    return match_at(s, end - suffix->length, suffix);
}

int32_t
kn_rt_str_in(const KnStr *sub, const KnStr *s)
{
    return kn_rt_str_find(s, sub, 0, INT64_MAX) >= 0;
}

/* old == "": new before every character and at the end, count times at most */
static int
replace_empty(KnStr *out, const KnStr *s, const KnStr *new_, int64_t count)
{
    int64_t slots = s->length + 1;
    if (count < 0 || count > slots)
        count = slots;
    int k = s->kind > new_->kind ? s->kind : new_->kind;
    if (new_->length && count > (INT64_MAX / 8 - s->length) / new_->length)
        return -1;
    if (slib_alloc(out, s->length + count * new_->length, k, s->ascii && new_->ascii))
        return -1;
    char *d = (char *)out->data;
    for (int64_t i = 0; i < s->length; i++) {
        if (i < count) {
            slib_convert(d, k, new_->data, new_->kind, new_->length);
            d += new_->length * k;
        }
        slib_write(k, d, 0, slib_read(s->kind, s->data, i));
        d += k;
    }
    if (count == slots)
        slib_convert(d, k, new_->data, new_->kind, new_->length);
    return 0;
}

/* the positions of the first max (< 0: all) non-overlapping matches, malloc'd into *pos; their
 * count, or -1 when out of memory */
static int64_t
match_positions(const KnStr *s, const void *nd, int64_t m, int64_t max, int64_t **pos)
{
    int64_t n = 0, cap = 0, *p = NULL;
    for (int64_t i = 0; max < 0 || n < max; n++) {
        i = search(s->data, s->length, nd, m, s->kind, i);
        if (i < 0)
            break;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            int64_t *q = realloc(p, (size_t)cap * sizeof *q);
            if (!q) {
                free(p);
                return -1;
            }
            p = q;
        }
        p[n] = i;
        i += m;
    }
    *pos = p;
    return n;
}

int
kn_rt_str_replace(KnStr *out, const KnStr *s, const KnStr *old, const KnStr *new_, int64_t count)
{
    if (count == 0) {
        slib_same(out, s);
        return 0;
    }
    if (old->length == 0)
        return replace_empty(out, s, new_, count);
    SlibNeedle nd;
    int oom;
    if (!slib_needle(&nd, old, s->kind, &oom)) {
        if (oom)
            return -1;
        slib_same(out, s);
        return 0;
    }
    int64_t m = nd.n, *pos = NULL;
    int64_t n = match_positions(s, nd.p, m, count, &pos);
    slib_needle_done(&nd);
    if (n <= 0) {
        free(pos);
        if (n < 0)
            return -1;
        slib_same(out, s);
        return 0;
    }
    int k = s->kind > new_->kind ? s->kind : new_->kind;
    int64_t len = s->length + n * (new_->length - m);
    int rc = slib_alloc(out, len, k, s->ascii && new_->ascii);
    if (!rc) {
        char *d = (char *)out->data;
        if (m == new_->length && k == s->kind) {
            /* the same length: copy everything once, then overwrite each match */
            memcpy(d, s->data, (size_t)(s->length * k));
            for (int64_t j = 0; j < n; j++)
                slib_convert(d + pos[j] * k, k, new_->data, new_->kind, m);
        } else {
            int64_t i = 0;
            for (int64_t j = 0; j < n; j++) {
                int64_t at = pos[j];
                slib_convert(d, k, slib_ptr(s, i), s->kind, at - i);
                d += (at - i) * k;
                slib_convert(d, k, new_->data, new_->kind, new_->length);
                d += new_->length * k;
                i = at + m;
            }
            slib_convert(d, k, slib_ptr(s, i), s->kind, s->length - i);
        }
        if (!(s->ascii && new_->ascii) && (new_->kind < s->kind || k == 1))
            rc = slib_finish(out);
    }
    free(pos);
    return rc;
}
