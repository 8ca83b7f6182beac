/* str_layout.c - strip/lstrip/rstrip (whitespace or a set of characters), zfill, center/ljust/
 * rjust, partition/rpartition, expandtabs, split/rsplit (on whitespace runs or a separator, with
 * maxsplit), splitlines and join (str_methods.h), with CPython's rules. Pieces of a string are
 * views of it where their kind stays canonical (slib_sub), so splitting a borrowed ASCII str
 * allocates nothing but the vector; join sizes the result first and copies each item once. */
#include <stdlib.h>
#include <string.h>

#include "runtime/list.h"
#include "runtime/str_methods.h"
#include "runtime/str_util.h"

static int
is_space(uint32_t c)
{
    return (kn_uni_flags(c) & KN_UF_SPACE) != 0;
}

/* ---- strip ---- */
typedef struct CharSet {
    uint64_t bits[4]; /* code points below 256 */
    const KnStr *chars;
} CharSet;

static void
set_init(CharSet *cs, const KnStr *chars)
{
    memset(cs->bits, 0, sizeof cs->bits);
    cs->chars = chars;
    for (int64_t i = 0; i < chars->length; i++) {
        uint32_t c = slib_read(chars->kind, chars->data, i);
        if (c < 256)
            cs->bits[c >> 6] |= 1ull << (c & 63);
    }
}

static int
set_has(const CharSet *cs, uint32_t c)
{
    if (c < 256)
        return (cs->bits[c >> 6] >> (c & 63)) & 1;
    for (int64_t i = 0; i < cs->chars->length; i++)
        if (slib_read(cs->chars->kind, cs->chars->data, i) == c)
            return 1;
    return 0;
}

int
kn_rt_str_strip(KnStr *out, const KnStr *s, const KnStr *chars, int32_t which)
{
    int64_t i = 0, j = s->length;
    CharSet cs;
    if (chars)
        set_init(&cs, chars);
#define STRIPPED(c) (chars ? set_has(&cs, (c)) : is_space(c))
    if (which & 1)
        while (i < j && STRIPPED(slib_read(s->kind, s->data, i)))
            i++;
    if (which & 2)
        while (j > i && STRIPPED(slib_read(s->kind, s->data, j - 1)))
            j--;
#undef STRIPPED
    return slib_sub(out, s, i, j - i);
}

/* ---- padding ---- */
static void
fill_run(void *d, int kind, uint32_t c, int64_t n)
{
    if (kind == 1) {
        memset(d, (int)c, (size_t)n);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        slib_write(kind, d, i, c);
}

static int
pad(KnStr *out, const KnStr *s, int64_t left, int64_t right, uint32_t fill)
{
    if (left <= 0 && right <= 0) {
        slib_same(out, s);
        return 0;
    }
    int fk = slib_kind_for(fill), k = s->kind > fk ? s->kind : fk;
    if (slib_alloc(out, left + s->length + right, k, s->ascii && fill < 128))
        return -1;
    char *d = (char *)out->data;
    fill_run(d, k, fill, left);
    slib_convert(d + left * k, k, s->data, s->kind, s->length);
    fill_run(d + (left + s->length) * k, k, fill, right);
    return 0;
}

int
kn_rt_str_pad(KnStr *out, const KnStr *s, int64_t width, uint32_t fill, int32_t align)
{
    int64_t marg = width - s->length;
    if (marg <= 0) {
        slib_same(out, s);
        return 0;
    }
    int64_t left = align == '<' ? 0 : align == '>' ? marg : marg / 2 + (marg & width & 1);
    return pad(out, s, left, marg - left, fill);
}

int
kn_rt_str_zfill(KnStr *out, const KnStr *s, int64_t width)
{
    int64_t fill = width - s->length;
    if (fill <= 0) {
        slib_same(out, s);
        return 0;
    }
    if (pad(out, s, fill, 0, '0'))
        return -1;
    uint32_t c = s->length ? slib_read(s->kind, s->data, 0) : 0;
    if (c == '+' || c == '-') {
        slib_write(out->kind, (void *)out->data, 0, c);
        slib_write(out->kind, (void *)out->data, fill, '0');
    }
    return 0;
}

/* ---- partition ---- */
int
kn_rt_str_partition(KnStr *out, const KnStr *s, const KnStr *sep, int32_t reverse)
{
    int64_t at =
        reverse ? kn_rt_str_rfind(s, sep, 0, INT64_MAX) : kn_rt_str_find(s, sep, 0, INT64_MAX);
    if (at < 0) {
        slib_empty(&out[0]);
        slib_empty(&out[1]);
        slib_empty(&out[2]);
        slib_same(&out[reverse ? 2 : 0], s);
        return 0;
    }
    if (slib_sub(&out[0], s, 0, at))
        return -1;
    slib_same(&out[1], sep);
    if (slib_sub(&out[2], s, at + sep->length, s->length - at - sep->length)) {
        slib_release(&out[0]);
        slib_release(&out[1]);
        return -1;
    }
    return 0;
}

/* ---- expandtabs ---- */
int
kn_rt_str_expandtabs(KnStr *out, const KnStr *s, int64_t tabsize)
{
    int64_t n = 0, col = 0, tabs = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        if (c == '\t') {
            tabs = 1;
            if (tabsize > 0) {
                int64_t inc = tabsize - col % tabsize;
                col += inc;
                n += inc;
            }
        } else {
            n++;
            col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
    }
    if (!tabs) {
        slib_same(out, s);
        return 0;
    }
    if (slib_alloc(out, n, s->kind, s->ascii))
        return -1;
    void *d = (void *)out->data;
    int64_t k = 0;
    col = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        if (c == '\t') {
            if (tabsize > 0) {
                int64_t inc = tabsize - col % tabsize;
                fill_run((char *)d + k * s->kind, s->kind, ' ', inc);
                k += inc;
                col += inc;
            }
        } else {
            slib_write(s->kind, d, k++, c);
            col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
    }
    return out->length == 0 ? 0 : slib_finish(out);
}

/* ---- split ---- */
void
kn_rt_str_vec_free(KnStrVec *v)
{
    for (int64_t i = 0; i < v->len; i++)
        kn_rt_decref(v->items[i].mi);
    free(v->items);
    v->items = NULL;
    v->len = v->cap = 0;
}

static int
vec_push(KnStrVec *v, const KnStr *s, int64_t start, int64_t n)
{
    if (v->len == v->cap) {
        int64_t cap = v->cap ? v->cap * 2 : 8;
        KnStr *p = realloc(v->items, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        v->items = p;
        v->cap = cap;
    }
    if (slib_sub(&v->items[v->len], s, start, n))
        return -1;
    v->len++;
    return 0;
}

static void
vec_reverse(KnStrVec *v)
{
    for (int64_t i = 0, j = v->len - 1; i < j; i++, j--) {
        KnStr t = v->items[i];
        v->items[i] = v->items[j];
        v->items[j] = t;
    }
}

static int
split_space(KnStrVec *v, const KnStr *s, int64_t max)
{
    int64_t n = s->length, i = 0;
    while (max-- > 0) {
        while (i < n && is_space(slib_read(s->kind, s->data, i)))
            i++;
        if (i == n)
            break;
        int64_t j = i++;
        while (i < n && !is_space(slib_read(s->kind, s->data, i)))
            i++;
        if (vec_push(v, s, j, i - j))
            return -1;
    }
    while (i < n && is_space(slib_read(s->kind, s->data, i)))
        i++;
    return i < n ? vec_push(v, s, i, n - i) : 0;
}

static int
rsplit_space(KnStrVec *v, const KnStr *s, int64_t max)
{
    int64_t i = s->length - 1;
    while (max-- > 0) {
        while (i >= 0 && is_space(slib_read(s->kind, s->data, i)))
            i--;
        if (i < 0)
            break;
        int64_t j = i--;
        while (i >= 0 && !is_space(slib_read(s->kind, s->data, i)))
            i--;
        if (vec_push(v, s, i + 1, j - i))
            return -1;
    }
    while (i >= 0 && is_space(slib_read(s->kind, s->data, i)))
        i--;
    if (i >= 0 && vec_push(v, s, 0, i + 1))
        return -1;
    vec_reverse(v);
    return 0;
}

static int
split_sep(KnStrVec *v, const KnStr *s, const void *nd, int64_t m, int64_t max)
{
    int64_t i = 0;
    while (max-- > 0) {
        int64_t at = slib_search(s->data, s->length, nd, m, s->kind, i);
        if (at < 0)
            break;
        if (vec_push(v, s, i, at - i))
            return -1;
        i = at + m;
    }
    return vec_push(v, s, i, s->length - i);
}

static int
rsplit_sep(KnStrVec *v, const KnStr *s, const void *nd, int64_t m, int64_t max)
{
    int64_t j = s->length;
    while (max-- > 0) {
        int64_t at = slib_rsearch(s->data, j, nd, m, s->kind, 0);
        if (at < 0)
            break;
        if (vec_push(v, s, at + m, j - at - m))
            return -1;
        j = at;
    }
    if (vec_push(v, s, 0, j))
        return -1;
    vec_reverse(v);
    return 0;
}

int
kn_rt_str_split(KnStrVec *out, const KnStr *s, const KnStr *sep, int64_t maxsplit, int32_t reverse)
{
    out->items = NULL;
    out->len = out->cap = 0;
    int64_t max = maxsplit < 0 ? INT64_MAX : maxsplit;
    int rc;
    if (!sep)
        rc = reverse ? rsplit_space(out, s, max) : split_space(out, s, max);
    else {
        SlibNeedle nd;
        int oom;
        if (!slib_needle(&nd, sep, s->kind, &oom)) {
            if (oom)
                return -1;
            return vec_push(out, s, 0, s->length);
        }
        rc = reverse ? rsplit_sep(out, s, nd.p, nd.n, max) : split_sep(out, s, nd.p, nd.n, max);
        slib_needle_done(&nd);
    }
    if (rc)
        kn_rt_str_vec_free(out);
    return rc;
}

int
kn_rt_str_splitlines(KnStrVec *out, const KnStr *s, int32_t keepends)
{
    out->items = NULL;
    out->len = out->cap = 0;
    int64_t n = s->length;
    for (int64_t i = 0, j = 0; i < n; j = i) {
        while (i < n && !(kn_uni_flags(slib_read(s->kind, s->data, i)) & KN_UF_LINEBREAK))
            i++;
        int64_t eol = i;
        if (i < n) {
            if (slib_read(s->kind, s->data, i) == '\r' && i + 1 < n &&
                slib_read(s->kind, s->data, i + 1) == '\n')
                i += 2;
            else
                i++;
            if (keepends)
                eol = i;
        }
        if (vec_push(out, s, j, eol - j)) {
            kn_rt_str_vec_free(out);
            return -1;
        }
    }
    return 0;
}

/* ---- join ---- */
int
kn_rt_str_join(KnStr *out, const KnStr *sep, const KnStr *items, int64_t n)
{
    if (n == 0) {
        slib_empty(out);
        return 0;
    }
    if (n == 1) {
        slib_same(out, &items[0]);
        return 0;
    }
    int64_t len = sep->length * (n - 1);
    int k = sep->kind, ascii = sep->ascii;
    for (int64_t i = 0; i < n; i++) {
        len += items[i].length;
        k = items[i].kind > k ? items[i].kind : k;
        ascii &= items[i].ascii;
    }
    if (slib_alloc(out, len, k, ascii))
        return -1;
    char *d = (char *)out->data;
    if (k == 1 && sep->length == 1) {
        char c = *(const char *)sep->data;
        for (int64_t i = 0; i < n; i++) {
            if (i)
                *d++ = c;
            memcpy(d, items[i].data, (size_t)items[i].length);
            d += items[i].length;
        }
        return 0;
    }
    for (int64_t i = 0; i < n; i++) {
        if (i) {
            slib_convert(d, k, sep->data, sep->kind, sep->length);
            d += sep->length * k;
        }
        slib_convert(d, k, items[i].data, items[i].kind, items[i].length);
        d += items[i].length * k;
    }
    return 0;
}

/* ---- the list forms (lists of str as runtime/list.h lays them out: KnStr items, one
 * reference each at offset 0) ---- */
static KnMemInfo *
list_of_vec(KnStrVec *v)
{
    static const int32_t refoff[1] = {0};
    KnMemInfo *mi = kn_rt_list_new((int64_t)sizeof(KnStr), 1, refoff, v->len ? v->len : 1);
    if (!mi) {
        kn_rt_str_vec_free(v);
        return NULL;
    }
    KnList *l = kn_rt_list_of(mi);
    if (v->len)
        memcpy(l->items, v->items, (size_t)v->len * sizeof(KnStr));
    l->len = v->len;
    free(v->items); /* the references moved into the list */
    v->items = NULL;
    v->len = v->cap = 0;
    return mi;
}

int
kn_rt_str_split_list(KnMemInfo **out, const KnStr *s, const KnStr *sep, int64_t maxsplit,
                     int32_t reverse)
{
    if (sep && sep->length == 0)
        return -2;
    KnStrVec v;
    if (kn_rt_str_split(&v, s, sep, maxsplit, reverse))
        return -1;
    return (*out = list_of_vec(&v)) ? 0 : -1;
}

int
kn_rt_str_splitlines_list(KnMemInfo **out, const KnStr *s, int32_t keepends)
{
    KnStrVec v;
    if (kn_rt_str_splitlines(&v, s, keepends))
        return -1;
    return (*out = list_of_vec(&v)) ? 0 : -1;
}

int
kn_rt_str_join_list(KnStr *out, const KnStr *sep, KnMemInfo *list)
{
    KnList *l = kn_rt_list_of(list);
    return kn_rt_str_join(out, sep, (const KnStr *)l->items, l->len);
}
