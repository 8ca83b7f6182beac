/* str_case.c - upper, lower, casefold, swapcase, title, capitalize and the is* predicates
 * (str_methods.h), with CPython's rules: full mappings (one character may become up to three,
 * 'ß'.upper() == 'SS'), the final-sigma rule of lower() ('ΑΣ'.lower() == 'ας'), title case
 * after cased characters, capitalize() titlecasing the first character. ASCII text runs a
 * table-free loop. Other text first tries the result in the input's kind and length, which
 * holds for most text (one lookup per character, kind known at compile time of the loop); a
 * character whose mapping expands or needs a wider kind sends the whole string to the general
 * path (code points into a scratch buffer, then the narrowest kind). */
#include <stdlib.h>

#include "runtime/str_methods.h"
#include "runtime/str_util.h"

enum { OP_UPPER, OP_LOWER, OP_FOLD, OP_SWAP, OP_TITLE, OP_CAPITALIZE };

#define INLINE static inline __attribute__((always_inline))

/* CPython's final-sigma test for the capital sigma at i */
static uint32_t
sigma(const KnStr *s, int64_t i)
{
    int64_t j;
    uint32_t c = 0;
    for (j = i - 1; j >= 0; j--) {
        c = slib_read(s->kind, s->data, j);
        if (!(kn_uni_flags(c) & KN_UF_CASE_IGNORABLE))
            break;
    }
    int final = j >= 0 && (kn_uni_flags(c) & KN_UF_CASED);
    if (final && i + 1 < s->length) {
        for (j = i + 1; j < s->length; j++) {
            c = slib_read(s->kind, s->data, j);
            if (!(kn_uni_flags(c) & KN_UF_CASE_IGNORABLE))
                break;
        }
        final = j == s->length || !(kn_uni_flags(c) & KN_UF_CASED);
    }
    return final ? 0x3C2 : 0x3C3;
}

static int
lower_at(const KnStr *s, int64_t i, uint32_t c, uint32_t *m)
{
    if (c == 0x3A3) {
        m[0] = sigma(s, i);
        return 1;
    }
    return kn_uni_map(c, KN_MAP_LOWER, m);
}

/* the mapping of s[i] == c under op; *cased carries title()'s "previous is cased" */
INLINE int
map_at(int op, const KnStr *s, int64_t i, uint32_t c, int *cased, uint32_t *m)
{
    switch (op) {
    case OP_UPPER:
        return kn_uni_map(c, KN_MAP_UPPER, m);
    case OP_LOWER:
        return lower_at(s, i, c, m);
    case OP_FOLD:
        return kn_uni_map(c, KN_MAP_FOLD, m);
    case OP_SWAP: {
        uint16_t f = kn_uni_flags(c);
        if (f & KN_UF_UPPER)
            return lower_at(s, i, c, m);
        if (f & KN_UF_LOWER)
            return kn_uni_map(c, KN_MAP_UPPER, m);
        m[0] = c;
        return 1;
    }
    case OP_TITLE: {
        int n = *cased ? lower_at(s, i, c, m) : kn_uni_map(c, KN_MAP_TITLE, m);
        *cased = (kn_uni_flags(c) & KN_UF_CASED) != 0;
        return n;
    }
    default:
        return i == 0 ? kn_uni_map(c, KN_MAP_TITLE, m) : lower_at(s, i, c, m);
    }
}

/* ---- ASCII ---- */
static int
ascii_case(KnStr *out, const KnStr *s, int op)
{
    if (slib_alloc(out, s->length, 1, 1))
        return -1;
    const uint8_t *a = s->data;
    uint8_t *d = (uint8_t *)out->data;
    int64_t n = s->length;
    switch (op) {
    case OP_UPPER:
        for (int64_t i = 0; i < n; i++)
            d[i] = a[i] ^ ((uint8_t)(a[i] - 'a') < 26 ? 0x20 : 0);
        break;
    case OP_LOWER:
    case OP_FOLD:
        for (int64_t i = 0; i < n; i++)
            d[i] = a[i] ^ ((uint8_t)(a[i] - 'A') < 26 ? 0x20 : 0);
        break;
    case OP_SWAP:
        for (int64_t i = 0; i < n; i++)
            d[i] = a[i] ^ ((uint8_t)((a[i] | 0x20) - 'a') < 26 ? 0x20 : 0);
        break;
    default: {
        int cased = 0;
        for (int64_t i = 0; i < n; i++) {
            uint8_t c = a[i];
            int is_up = (uint8_t)(c - 'A') < 26, is_lo = (uint8_t)(c - 'a') < 26;
            int lower = op == OP_TITLE ? cased : i > 0;
            d[i] = lower ? (is_up ? c | 0x20 : c) : (is_lo ? c & ~0x20 : c);
            cased = is_up || is_lo;
        }
    }
    }
    return 0;
}

/* ---- the same kind and length: -1 out of memory, 1 does not fit, 0 done ----
 * op and kind are constants in each instantiation (case_op's switch), so the per-character
 * work is an ASCII test or one table lookup */
INLINE uint32_t
ascii_map(int op, uint32_t c)
{
    int up = c - 'A' < 26u, lo = c - 'a' < 26u;
    switch (op) {
    case OP_UPPER:
        return lo ? c - 32 : c;
    case OP_SWAP:
        return up ? c + 32 : lo ? c - 32 : c;
    default: /* lower, casefold */
        return up ? c + 32 : c;
    }
}

INLINE int
same_shape(KnStr *out, const KnStr *s, const int op, const int kind)
{
    uint32_t limit = kind == 1 ? 0xFF : kind == 2 ? 0xFFFF : 0x10FFFF;
    if (slib_alloc(out, s->length, kind, 0))
        return -1;
    void *d = (void *)out->data;
    int cased = 0, simple = op == OP_UPPER || op == OP_LOWER || op == OP_FOLD || op == OP_SWAP;
    uint32_t maxc = 0, m[3];
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(kind, s->data, i), r;
        if (simple && c < 128)
            r = ascii_map(op, c);
        else {
            int n = map_at(op, s, i, c, &cased, m);
            if (n != 1 || m[0] > limit) {
                slib_release(out);
                return 1;
            }
            r = m[0];
        }
        maxc = r > maxc ? r : maxc;
        slib_write(kind, d, i, r);
    }
    out->ascii = maxc < 128;
    return slib_kind_for(maxc) == kind ? 0 : slib_finish(out);
}

#define SAME_SHAPE_KINDS(OP)                                                                       \
    (s->kind == 1   ? same_shape(out, s, OP, 1)                                                    \
     : s->kind == 2 ? same_shape(out, s, OP, 2)                                                    \
                    : same_shape(out, s, OP, 4))

static int
same_shape_any(KnStr *out, const KnStr *s, int op)
{
    switch (op) {
    case OP_UPPER:
        return SAME_SHAPE_KINDS(OP_UPPER);
    case OP_LOWER:
        return SAME_SHAPE_KINDS(OP_LOWER);
    case OP_FOLD:
        return SAME_SHAPE_KINDS(OP_FOLD);
    case OP_SWAP:
        return SAME_SHAPE_KINDS(OP_SWAP);
    case OP_TITLE:
        return SAME_SHAPE_KINDS(OP_TITLE);
    default:
        return SAME_SHAPE_KINDS(OP_CAPITALIZE);
    }
}

static int
general(KnStr *out, const KnStr *s, int op)
{
    size_t bytes = (size_t)s->length * 3 * sizeof(uint32_t);
    uint32_t *buf = kn_rt_scratch_alloc(bytes);
    if (!buf)
        return -1;
    int64_t k = 0;
    int cased = 0;
    uint32_t maxc = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        int n = map_at(op, s, i, c, &cased, buf + k);
        for (int j = 0; j < n; j++)
            maxc = buf[k + j] > maxc ? buf[k + j] : maxc;
        k += n;
    }
    int kind = slib_kind_for(maxc);
    int rc = slib_alloc(out, k, kind, maxc < 128);
    if (!rc)
        slib_convert((void *)out->data, kind, buf, 4, k);
    kn_rt_scratch_free(buf, bytes);
    return rc;
}

static int
case_op(KnStr *out, const KnStr *s, int op)
{
    if (s->length == 0) {
        slib_same(out, s);
        return 0;
    }
    if (s->ascii)
        return ascii_case(out, s, op);
    int rc = same_shape_any(out, s, op);
    return rc == 1 ? general(out, s, op) : rc;
}

int
kn_rt_str_upper(KnStr *out, const KnStr *s)
{
    return case_op(out, s, OP_UPPER);
}

int
kn_rt_str_lower(KnStr *out, const KnStr *s)
{
    return case_op(out, s, OP_LOWER);
}

int
kn_rt_str_casefold(KnStr *out, const KnStr *s)
{
    return case_op(out, s, OP_FOLD);
}

int
kn_rt_str_swapcase(KnStr *out, const KnStr *s)
{
    return case_op(out, s, OP_SWAP);
}

int
kn_rt_str_title(KnStr *out, const KnStr *s)
{
    return case_op(out, s, OP_TITLE);
}

int
kn_rt_str_capitalize(KnStr *out, const KnStr *s)
{
    return case_op(out, s, OP_CAPITALIZE);
}

/* ---- predicates ---- */

/* every character has one of the flags (and there is one) */
INLINE int32_t
all_flags(const KnStr *s, uint16_t want, const int kind)
{
    if (s->length == 0)
        return 0;
    for (int64_t i = 0; i < s->length; i++)
        if (!(kn_uni_flags(slib_read(kind, s->data, i)) & want))
            return 0;
    return 1;
}

static int32_t
all_of(const KnStr *s, uint16_t want)
{
    return s->kind == 1   ? all_flags(s, want, 1)
           : s->kind == 2 ? all_flags(s, want, 2)
                          : all_flags(s, want, 4);
}

/* isupper (upper 1) / islower (upper 0): no character of the other case or title case, and
 * at least one cased */
static int32_t
one_case(const KnStr *s, int upper)
{
    uint16_t bad = KN_UF_TITLE | (upper ? KN_UF_LOWER : KN_UF_UPPER);
    uint16_t good = upper ? KN_UF_UPPER : KN_UF_LOWER;
    int cased = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint16_t f = kn_uni_flags(slib_read(s->kind, s->data, i));
        if (f & bad)
            return 0;
        if (f & good)
            cased = 1;
    }
    return cased;
}

static int32_t
is_title(const KnStr *s)
{
    int cased = 0, prev = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint16_t f = kn_uni_flags(slib_read(s->kind, s->data, i));
        if (f & (KN_UF_UPPER | KN_UF_TITLE)) {
            if (prev)
                return 0;
            prev = cased = 1;
        } else if (f & KN_UF_LOWER) {
            if (!prev)
                return 0;
            prev = cased = 1;
        } else
            prev = 0;
    }
    return cased;
}

static int32_t
is_identifier(const KnStr *s)
{
    if (s->length == 0)
        return 0;
    uint32_t c = slib_read(s->kind, s->data, 0);
    if (c != '_' && !(kn_uni_flags(c) & KN_UF_XID_START))
        return 0;
    for (int64_t i = 1; i < s->length; i++)
        if (!(kn_uni_flags(slib_read(s->kind, s->data, i)) & KN_UF_XID_CONTINUE))
            return 0;
    return 1;
}

int32_t
kn_rt_str_is(const KnStr *s, int32_t which)
{
    switch (which) {
    case KN_STR_ISDIGIT:
        return all_of(s, KN_UF_DIGIT);
    case KN_STR_ISALPHA:
        return all_of(s, KN_UF_ALPHA);
    case KN_STR_ISALNUM:
        return all_of(s, KN_UF_ALPHA | KN_UF_DECIMAL | KN_UF_DIGIT | KN_UF_NUMERIC);
    case KN_STR_ISSPACE:
        return all_of(s, KN_UF_SPACE);
    case KN_STR_ISDECIMAL:
        return all_of(s, KN_UF_DECIMAL);
    case KN_STR_ISNUMERIC:
        return all_of(s, KN_UF_NUMERIC);
    case KN_STR_ISPRINTABLE:
        return s->length == 0 || all_of(s, KN_UF_PRINTABLE);
    case KN_STR_ISUPPER:
        return one_case(s, 1);
    case KN_STR_ISLOWER:
        return one_case(s, 0);
    case KN_STR_ISTITLE:
        return is_title(s);
    case KN_STR_ISIDENTIFIER:
        return is_identifier(s);
    default:
        return s->ascii;
    }
}
