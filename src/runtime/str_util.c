/* str_util.c - what the string method routines share (declared in str_util.h): the largest code
 * point of a run, conversion of runs between kinds, new owned results, views of substrings, and
 * the same-kind substring search (memchr/memmem for kind 1; memmem over the bytes with an
 * alignment check for kinds 2 and 4, which keeps glibc's two-way search for every kind). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem, memrchr */
#endif
#include <stdlib.h>
#include <string.h>

#include "runtime/str_util.h"

uint32_t
slib_maxchar(const void *p, int64_t n, int kind)
{
    uint32_t m = 0;
    if (kind == 1) {
        const uint8_t *a = p;
        for (int64_t i = 0; i < n; i++)
            m |= a[i];
        return m >= 128 ? 255 : m; /* only "below 128 or not" and the kind matter */
    }
    if (kind == 2) {
        const uint16_t *a = p;
        for (int64_t i = 0; i < n; i++)
            m = a[i] > m ? a[i] : m;
        return m;
    }
    const uint32_t *a = p;
    for (int64_t i = 0; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}

#define CONVERT(DT, ST)                                                                            \
    do {                                                                                           \
        DT *d = dst;                                                                               \
        const ST *s = src;                                                                         \
        for (int64_t i = 0; i < n; i++)                                                            \
            d[i] = (DT)s[i];                                                                       \
    } while (0)

void
slib_convert(void *dst, int dk, const void *src, int sk, int64_t n)
{
    if (dk == sk) {
        if (n)
            memcpy(dst, src, (size_t)n * (size_t)dk);
        return;
    }
    switch (dk * 8 + sk) {
    case 1 * 8 + 2:
        CONVERT(uint8_t, uint16_t);
        break;
    case 1 * 8 + 4:
        CONVERT(uint8_t, uint32_t);
        break;
    case 2 * 8 + 1:
        CONVERT(uint16_t, uint8_t);
        break;
    case 2 * 8 + 4:
        CONVERT(uint16_t, uint32_t);
        break;
    case 4 * 8 + 1:
        CONVERT(uint32_t, uint8_t);
        break;
    default:
        CONVERT(uint32_t, uint16_t);
        break;
    }
}

int
slib_alloc(KnStr *out, int64_t n, int32_t kind, int32_t ascii)
{
    if (n <= 0) {
        slib_empty(out);
        return 0;
    }
    if (n > INT64_MAX / 8)
        return -1;
    KnMemInfo *mi = kn_rt_meminfo_alloc(n * kind);
    if (!mi)
        return -1;
    out->mi = mi;
    out->data = mi->data;
    out->length = n;
    out->kind = kind;
    out->ascii = ascii;
    out->hash = -1;
    out->parent = NULL;
    return 0;
}

void
slib_empty(KnStr *out)
{
    static const char nothing[4];
    out->mi = NULL;
    out->data = nothing;
    out->length = 0;
    out->kind = 1;
    out->ascii = 1;
    out->hash = -1;
    out->parent = NULL;
}

int
slib_make(KnStr *out, const void *p, int64_t n, int32_t kind)
{
    uint32_t m = slib_maxchar(p, n, kind);
    int k = slib_kind_for(m);
    if (slib_alloc(out, n, k, m < 128))
        return -1;
    if (n)
        slib_convert((void *)out->data, k, p, kind, n);
    return 0;
}

int
slib_sub(KnStr *out, const KnStr *s, int64_t start, int64_t n)
{
    if (n <= 0) {
        slib_empty(out);
        return 0;
    }
    if (start == 0 && n == s->length) {
        slib_same(out, s);
        return 0;
    }
    const char *p = slib_ptr(s, start);
    uint32_t m = s->ascii ? 0 : slib_maxchar(p, n, s->kind);
    if (slib_kind_for(m) != s->kind)
        return slib_make(out, p, n, s->kind);
    out->mi = s->mi;
    kn_rt_incref(s->mi);
    out->data = p;
    out->length = n;
    out->kind = s->kind;
    out->ascii = m < 128;
    out->hash = -1;
    out->parent = NULL;
    return 0;
}

int
slib_finish(KnStr *out)
{
    if (out->length == 0)
        return 0;
    uint32_t m = slib_maxchar(out->data, out->length, out->kind);
    int k = slib_kind_for(m);
    out->ascii = m < 128;
    if (k == out->kind)
        return 0;
    KnStr narrow;
    if (slib_alloc(&narrow, out->length, k, m < 128)) {
        slib_release(out);
        return -1;
    }
    slib_convert((void *)narrow.data, k, out->data, out->kind, out->length);
    slib_release(out);
    *out = narrow;
    return 0;
}

int
slib_needle(SlibNeedle *nd, const KnStr *sub, int kind, int *oom)
{
    nd->heap = NULL;
    nd->n = sub->length;
    *oom = 0;
    if (sub->kind > kind)
        return 0;
    if (sub->kind == kind) {
        nd->p = sub->data;
        return 1;
    }
    size_t bytes = (size_t)sub->length * (size_t)kind;
    void *buf = nd->buf;
    if (bytes > sizeof nd->buf) {
        buf = kn_rt_scratch_alloc(bytes);
        if (!buf) {
            *oom = 1;
            return 0;
        }
        nd->heap = buf;
        nd->heap_bytes = bytes;
    }
    slib_convert(buf, kind, sub->data, sub->kind, sub->length);
    nd->p = buf;
    return 1;
}

void
slib_needle_done(SlibNeedle *nd)
{
    if (nd->heap)
        kn_rt_scratch_free(nd->heap, nd->heap_bytes);
    nd->heap = NULL;
}

int64_t
slib_search(const void *h, int64_t n, const void *nd, int64_t m, int kind, int64_t from)
{
    if (m == 0)
        return from <= n ? from : -1;
    if (n - from < m)
        return -1;
    const char *base = h;
    size_t mb = (size_t)m * (size_t)kind;
    if (kind == 1 && m == 1) {
        const char *r = memchr(base + from, *(const unsigned char *)nd, (size_t)(n - from));
        return r ? r - base : -1;
    }
    if (kind != 1 && m == 1) {
        uint32_t c = slib_read(kind, nd, 0);
        if (kind == 2) {
            const uint16_t *a = h;
            for (int64_t i = from; i < n; i++)
                if (a[i] == c)
                    return i;
        } else {
            const uint32_t *a = h;
            for (int64_t i = from; i < n; i++)
                if (a[i] == c)
                    return i;
        }
        return -1;
    }
    const char *p = base + from * kind, *end = base + n * kind;
    while ((size_t)(end - p) >= mb) {
        const char *r = memmem(p, (size_t)(end - p), nd, mb);
        if (!r)
            return -1;
        if ((size_t)(r - base) % (size_t)kind == 0)
            return (r - base) / kind;
        p = r + (kind - (size_t)(r - base) % (size_t)kind); /* a match across characters */
    }
    return -1;
}

int64_t
slib_rsearch(const void *h, int64_t to, const void *nd, int64_t m, int kind, int64_t from)
{
    if (to - from < m)
        return -1;
    if (m == 0)
        return to;
    size_t mb = (size_t)m * (size_t)kind;
    const char *base = h;
    uint32_t last = slib_read(kind, nd, m - 1);
    if (kind == 1) {
        const char *lo = base + from + m - 1;
        size_t len = (size_t)(to - (from + m - 1));
        while (len) {
            const char *r = memrchr(lo, (int)last, len);
            if (!r)
                return -1;
            const char *st = r - (m - 1);
            if (memcmp(st, nd, mb) == 0)
                return st - base;
            len = (size_t)(r - lo);
        }
        return -1;
    }
    for (int64_t i = to - m; i >= from; i--)
        if (slib_read(kind, h, i + m - 1) == last && memcmp(base + i * kind, nd, mb) == 0)
            return i;
    return -1;
}
