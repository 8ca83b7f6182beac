/* str_util.h - small inline helpers shared by the string method routines (str_find.c,
 * str_case.c, str_layout.c, str_format.c, str_unicode.c): reading a code point of any kind,
 * the narrowest kind for a code point, converting runs between kinds, making new owned results
 * (slib_alloc: until the str type's own allocator in str.c is merged, the method files allocate
 * through this one), substrings that stay views when their kind stays canonical, and the
 * character database lookup (kn_uni_*). Private to runtime/str_*.c; compiled code never sees it. */
#ifndef KN_RUNTIME_STR_UTIL_H
#define KN_RUNTIME_STR_UTIL_H

#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"
#include "runtime/str.h"

/* ---- the character database (str_unicode.c, tables from tools/gen_unicode_db.py) ---- */
typedef struct KnUniRecord {
    int32_t upper, lower, title, fold; /* delta to the mapping, or its offset in kn_uni_special */
    uint16_t flags;                    /* KN_UNI_* */
    uint16_t special;                  /* bit i: mapping i (upper, lower, title, fold) is a run */
} KnUniRecord;

enum {
    KN_UF_ALPHA = 1u << 0,
    KN_UF_DECIMAL = 1u << 1,
    KN_UF_DIGIT = 1u << 2,
    KN_UF_NUMERIC = 1u << 3,
    KN_UF_SPACE = 1u << 4,
    KN_UF_LOWER = 1u << 5,
    KN_UF_UPPER = 1u << 6,
    KN_UF_TITLE = 1u << 7,
    KN_UF_CASED = 1u << 8,
    KN_UF_CASE_IGNORABLE = 1u << 9,
    KN_UF_XID_START = 1u << 10,
    KN_UF_XID_CONTINUE = 1u << 11,
    KN_UF_PRINTABLE = 1u << 12,
    KN_UF_LINEBREAK = 1u << 13,
};
enum { KN_MAP_UPPER, KN_MAP_LOWER, KN_MAP_TITLE, KN_MAP_FOLD };

const KnUniRecord *kn_uni_record(uint32_t cp);
/* the full mapping `which` of cp into out[3]; returns its length (1 to 3) */
int kn_uni_map(uint32_t cp, int which, uint32_t *out);
/* flags of the ASCII characters (kn_uni_ascii[c] for c < 128) */
extern const uint16_t kn_uni_ascii[128];

static inline uint16_t
kn_uni_flags(uint32_t cp)
{
    return cp < 128 ? kn_uni_ascii[cp] : kn_uni_record(cp)->flags;
}

/* ---- code points ---- */
static inline uint32_t
slib_read(int kind, const void *data, int64_t i)
{
    if (kind == 1)
        return ((const uint8_t *)data)[i];
    if (kind == 2)
        return ((const uint16_t *)data)[i];
    return ((const uint32_t *)data)[i];
}

static inline void
slib_write(int kind, void *data, int64_t i, uint32_t c)
{
    if (kind == 1)
        ((uint8_t *)data)[i] = (uint8_t)c;
    else if (kind == 2)
        ((uint16_t *)data)[i] = (uint16_t)c;
    else
        ((uint32_t *)data)[i] = c;
}

static inline int
slib_kind_for(uint32_t maxchar)
{
    return maxchar < 256 ? 1 : maxchar < 65536 ? 2 : 4;
}

static inline const char *
slib_ptr(const KnStr *s, int64_t i)
{
    return (const char *)s->data + i * s->kind;
}

/* the largest code point of n of kind at p (0 for n == 0) */
uint32_t slib_maxchar(const void *p, int64_t n, int kind);
/* n code points from src (kind sk) to dst (kind dk); every one must fit dk */
void slib_convert(void *dst, int dk, const void *src, int sk, int64_t n);

/* ---- results ---- */
/* a new owned str of n code points of `kind`, characters not yet written: 0 or -1 */
int slib_alloc(KnStr *out, int64_t n, int32_t kind, int32_t ascii);
/* the empty str (static, borrowed) */
void slib_empty(KnStr *out);
/* s itself as a result: a new reference */
static inline void
slib_same(KnStr *out, const KnStr *s)
{
    *out = *s;
    kn_rt_incref(s->mi);
}
/* a copy of n code points of kind at p, in the narrowest kind: 0 or -1 */
int slib_make(KnStr *out, const void *p, int64_t n, int32_t kind);
/* s[start:start+n]: a view sharing s's memory when its kind stays canonical, else a copy */
int slib_sub(KnStr *out, const KnStr *s, int64_t start, int64_t n);
/* the result str written in kind k is narrowed in place of a copy when its code points allow it
 * (and its ascii flag set): 0 or -1 */
int slib_finish(KnStr *out);
/* release a result (error paths) */
static inline void
slib_release(KnStr *s)
{
    kn_rt_decref(s->mi);
    s->mi = NULL;
}

/* Python's slice index rules for find/count/startswith: start and end clamped to [0, len] */
static inline void
slib_adjust(int64_t *start, int64_t *end, int64_t len)
{
    if (*end > len)
        *end = len;
    else if (*end < 0) {
        *end += len;
        if (*end < 0)
            *end = 0;
    }
    if (*start < 0) {
        *start += len;
        if (*start < 0)
            *start = 0;
    }
}

/* A needle brought to the haystack's kind: points at the needle's own characters when the kinds
 * agree, else at a widened copy (in buf when it fits, else scratch). ok is 0 when the needle
 * cannot occur (a wider kind than the haystack's) or memory ran out (*oom set). */
typedef struct SlibNeedle {
    const void *p;
    int64_t n;
    void *heap;
    size_t heap_bytes;
    uint32_t buf[32];
} SlibNeedle;
int slib_needle(SlibNeedle *nd, const KnStr *sub, int kind, int *oom);
void slib_needle_done(SlibNeedle *nd);

/* the first (last) index >= from (< to) of the m-character needle in h[0:n], same kind; -1 */
int64_t slib_search(const void *h, int64_t n, const void *nd, int64_t m, int kind, int64_t from);
int64_t slib_rsearch(const void *h, int64_t to, const void *nd, int64_t m, int kind, int64_t from);

#endif
