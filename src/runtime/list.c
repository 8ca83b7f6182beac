/* list.c - the cold paths of lists (list.h): creation, amortised growth, opening and closing
 * gaps, slices, concatenation, slice assignment, reversal and a stable merge sort, all generic
 * in the item size. Compiled code does the hot paths itself (lower/list.c: l[i], len, the
 * append whose slot is free) and calls here for the rest. The item references are released
 * through the offsets the list records (KnList.refoff), so the destructor works for every item
 * type without code of its own per type. */
#include "runtime/list.h"

#include <stdlib.h>
#include <string.h>

void
kn_rt_list_item_incref(const KnList *l, const char *item)
{
    for (int r = 0; r < l->nrefs; r++) {
        KnMemInfo *m;
        memcpy(&m, item + l->refoff[r], sizeof m);
        kn_rt_incref(m);
    }
}

void
kn_rt_list_item_decref(const KnList *l, const char *item)
{
    for (int r = 0; r < l->nrefs; r++) {
        KnMemInfo *m;
        memcpy(&m, item + l->refoff[r], sizeof m);
        kn_rt_decref(m);
    }
}

static void
release_range(KnList *l, int64_t i, int64_t j)
{
    if (!l->nrefs)
        return;
    for (int64_t k = i; k < j; k++)
        kn_rt_list_item_decref(l, l->items + k * l->itemsize);
}

static void
list_dtor(void *data, size_t size)
{
    (void)size;
    KnList *l = data;
    release_range(l, 0, l->len);
    free(l->items);
    l->items = NULL;
}

void
kn_rt_list_set_layout(KnMemInfo *mi, int64_t itemsize, int32_t nrefs, const int32_t *refoff)
{
    KnList *l = kn_rt_list_of(mi);
    if (l->len) /* only an empty list can take a layout */
        return;
    l->itemsize = itemsize ? itemsize : 1;
    l->nrefs = nrefs < KN_LIST_MAX_REFS ? nrefs : KN_LIST_MAX_REFS;
    for (int r = 0; r < l->nrefs; r++)
        l->refoff[r] = refoff[r];
    free(l->items); /* a capacity counted in the old item size */
    l->items = NULL;
    l->cap = 0;
}

KnMemInfo *
kn_rt_list_new(int64_t itemsize, int32_t nrefs, const int32_t *refoff, int64_t cap)
{
    KnMemInfo *mi = kn_rt_meminfo_alloc_dtor((int64_t)sizeof(KnList), list_dtor);
    if (!mi)
        return NULL;
    KnList *l = kn_rt_list_of(mi);
    memset(l, 0, sizeof *l);
    l->itemsize = itemsize ? itemsize : 1;
    l->nrefs = nrefs < KN_LIST_MAX_REFS ? nrefs : KN_LIST_MAX_REFS;
    for (int r = 0; r < l->nrefs; r++)
        l->refoff[r] = refoff[r];
    if (cap > 0 && kn_rt_list_reserve(mi, cap) < 0) {
        kn_rt_decref(mi);
        return NULL;
    }
    return mi;
}

int32_t
kn_rt_list_reserve(KnMemInfo *mi, int64_t need)
{
    KnList *l = kn_rt_list_of(mi);
    if (need <= l->cap)
        return 0;
    if (need > INT64_MAX / 2 / l->itemsize)
        return -1;
    /* CPython's growth: about 1.125x plus a little, but at least doubling small lists */
    int64_t cap = l->cap + (l->cap >> 3) + 6;
    if (cap < 2 * l->cap && l->cap < 4096)
        cap = 2 * l->cap;
    if (cap < need)
        cap = need;
    char *p = realloc(l->items, (size_t)(cap * l->itemsize));
    if (!p)
        return -1;
    l->items = p;
    l->cap = cap;
    return 0;
}

char *
kn_rt_list_append_slot(KnMemInfo *mi)
{
    KnList *l = kn_rt_list_of(mi);
    if (kn_rt_list_reserve(mi, l->len + 1) < 0)
        return NULL;
    l->dirty = 1;
    return l->items + l->len++ * l->itemsize;
}

char *
kn_rt_list_open(KnMemInfo *mi, int64_t i, int64_t n)
{
    KnList *l = kn_rt_list_of(mi);
    if (kn_rt_list_reserve(mi, l->len + n) < 0)
        return NULL;
    char *at = l->items + i * l->itemsize;
    memmove(at + n * l->itemsize, at, (size_t)((l->len - i) * l->itemsize));
    l->len += n;
    l->dirty = 1;
    return at;
}

void
kn_rt_list_delete(KnMemInfo *mi, int64_t i, int64_t j)
{
    KnList *l = kn_rt_list_of(mi);
    if (j <= i)
        return;
    release_range(l, i, j);
    char *at = l->items + i * l->itemsize;
    memmove(at, at + (j - i) * l->itemsize, (size_t)((l->len - j) * l->itemsize));
    l->len -= j - i;
    l->dirty = 1;
}

void
kn_rt_list_take(KnMemInfo *mi, int64_t i, char *out)
{
    KnList *l = kn_rt_list_of(mi);
    char *at = l->items + i * l->itemsize;
    memcpy(out, at, (size_t)l->itemsize);
    memmove(at, at + l->itemsize, (size_t)((l->len - i - 1) * l->itemsize));
    l->len--;
    l->dirty = 1;
}

static KnMemInfo *
like(const KnList *l, int64_t cap)
{
    KnMemInfo *r = kn_rt_list_new(l->itemsize, l->nrefs, l->refoff, cap);
    if (r)
        kn_rt_list_of(r)->typed = l->typed;
    return r;
}

KnMemInfo *
kn_rt_list_slice(KnMemInfo *mi, int64_t start, int64_t step, int64_t n)
{
    KnList *l = kn_rt_list_of(mi);
    KnMemInfo *r = like(l, n);
    if (!r)
        return NULL;
    KnList *rl = kn_rt_list_of(r);
    for (int64_t k = 0; k < n; k++) {
        const char *src = l->items + (start + k * step) * l->itemsize;
        memcpy(rl->items + k * l->itemsize, src, (size_t)l->itemsize);
        kn_rt_list_item_incref(l, src);
    }
    rl->len = n;
    return r;
}

/* append b's items (incref'd) to a; b may be a */
static int32_t
append_all(KnMemInfo *a, KnMemInfo *b, int64_t times)
{
    KnList *la = kn_rt_list_of(a), *lb = kn_rt_list_of(b);
    int64_t n = lb->len, size = la->itemsize;
    if (times && n > (INT64_MAX / 2 / size - la->len) / times)
        return -1;
    if (kn_rt_list_reserve(a, la->len + n * times) < 0)
        return -1;
    for (int64_t t = 0; t < times; t++) {
        memcpy(la->items + la->len * size, lb->items, (size_t)(n * size));
        for (int64_t k = 0; la->nrefs && k < n; k++)
            kn_rt_list_item_incref(la, la->items + (la->len + k) * size);
        la->len += n;
    }
    la->dirty = 1;
    return 0;
}

KnMemInfo *
kn_rt_list_concat(KnMemInfo *a, KnMemInfo *b)
{
    KnList *la = kn_rt_list_of(a);
    KnMemInfo *r = like(la, la->len + kn_rt_list_of(b)->len);
    if (!r)
        return NULL;
    if (append_all(r, a, 1) < 0 || append_all(r, b, 1) < 0) {
        kn_rt_decref(r);
        return NULL;
    }
    kn_rt_list_of(r)->dirty = 0;
    return r;
}

KnMemInfo *
kn_rt_list_repeat(KnMemInfo *a, int64_t k)
{
    KnList *la = kn_rt_list_of(a);
    KnMemInfo *r = like(la, 0);
    if (!r)
        return NULL;
    if (k > 0 && la->len && append_all(r, a, k) < 0) {
        kn_rt_decref(r);
        return NULL;
    }
    kn_rt_list_of(r)->dirty = 0;
    return r;
}

int32_t
kn_rt_list_extend(KnMemInfo *a, KnMemInfo *b)
{
    return append_all(a, b, 1);
}

int32_t
kn_rt_list_assign_slice(KnMemInfo *mi, int64_t start, int64_t stop, int64_t step, int64_t n,
                        KnMemInfo *src)
{
    KnList *l = kn_rt_list_of(mi), *s = kn_rt_list_of(src);
    int64_t m = s->len, size = l->itemsize;
    if (step != 1 && m != n)
        return -1;
    char *tmp = malloc((size_t)(m * size) + 1); /* a copy: src may be l itself */
    if (!tmp)
        return -2;
    memcpy(tmp, s->items, (size_t)(m * size));
    for (int64_t k = 0; l->nrefs && k < m; k++)
        kn_rt_list_item_incref(l, tmp + k * size);
    if (step == 1) {
        if (stop < start)
            stop = start;
        if (m > stop - start && kn_rt_list_reserve(mi, l->len + m - (stop - start)) < 0) {
            for (int64_t k = 0; l->nrefs && k < m; k++)
                kn_rt_list_item_decref(l, tmp + k * size);
            free(tmp);
            return -2;
        }
        kn_rt_list_delete(mi, start, stop);
        char *at = kn_rt_list_open(mi, start, m); /* reserved above: cannot fail */
        memcpy(at, tmp, (size_t)(m * size));
    } else {
        for (int64_t k = 0; k < n; k++) {
            char *at = l->items + (start + k * step) * size;
            kn_rt_list_item_decref(l, at);
            memcpy(at, tmp + k * size, (size_t)size);
        }
    }
    free(tmp);
    l->dirty = 1;
    return 0;
}

void
kn_rt_list_delete_slice(KnMemInfo *mi, int64_t start, int64_t step, int64_t n)
{
    KnList *l = kn_rt_list_of(mi);
    if (n <= 0)
        return;
    if (step < 0) { /* the same items, visited upwards */
        start += (n - 1) * step;
        step = -step;
    }
    if (step == 1) {
        kn_rt_list_delete(mi, start, start + n);
        return;
    }
    int64_t size = l->itemsize, w = start;
    for (int64_t r = start; r < l->len; r++) {
        int64_t k = r - start;
        if (k % step == 0 && k / step < n) {
            kn_rt_list_item_decref(l, l->items + r * size);
            continue;
        }
        if (w != r)
            memcpy(l->items + w * size, l->items + r * size, (size_t)size);
        w++;
    }
    l->len = w;
    l->dirty = 1;
}

void
kn_rt_list_reverse(KnMemInfo *mi)
{
    KnList *l = kn_rt_list_of(mi);
    int64_t size = l->itemsize;
    char tmp[256];
    char *t = size <= (int64_t)sizeof tmp ? tmp : malloc((size_t)size);
    if (!t)
        return;
    for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
        memcpy(t, l->items + i * size, (size_t)size);
        memcpy(l->items + i * size, l->items + j * size, (size_t)size);
        memcpy(l->items + j * size, t, (size_t)size);
    }
    if (t != tmp)
        free(t);
    l->dirty = 1;
}

void
kn_rt_list_clear(KnMemInfo *mi)
{
    kn_rt_list_delete(mi, 0, kn_rt_list_of(mi)->len);
}

/* ---- a stable merge sort of an index permutation ---- */

typedef struct SortCtx {
    const char *keys;
    int64_t keysize;
    int32_t (*lt)(const void *, const void *);
    int32_t reverse;
} SortCtx;

static int
before(const SortCtx *s, int64_t a, int64_t b)
{
    const char *ka = s->keys + a * s->keysize, *kb = s->keys + b * s->keysize;
    return s->reverse ? s->lt(kb, ka) != 0 : s->lt(ka, kb) != 0;
}

static void
merge_sort(const SortCtx *s, int64_t *p, int64_t *tmp, int64_t n)
{
    if (n < 16) { /* insertion sort: stable */
        for (int64_t i = 1; i < n; i++) {
            int64_t v = p[i], j = i;
            while (j > 0 && before(s, v, p[j - 1])) {
                p[j] = p[j - 1];
                j--;
            }
            p[j] = v;
        }
        return;
    }
    int64_t h = n / 2;
    merge_sort(s, p, tmp, h);
    merge_sort(s, p + h, tmp, n - h);
    if (!before(s, p[h], p[h - 1]))
        return; /* already in order */
    memcpy(tmp, p, (size_t)h * sizeof *p);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        p[k++] = before(s, p[j], tmp[i]) ? p[j++] : tmp[i++];
    while (i < h)
        p[k++] = tmp[i++];
}

int32_t
kn_rt_list_sort(KnMemInfo *mi, const char *keys, int64_t keysize,
                int32_t (*lt)(const void *a, const void *b), int32_t reverse)
{
    KnList *l = kn_rt_list_of(mi);
    int64_t n = l->len, size = l->itemsize;
    if (n < 2)
        return 0;
    int64_t *p = malloc((size_t)n * sizeof *p * 2);
    char *out = malloc((size_t)(n * size));
    if (!p || !out) {
        free(p);
        free(out);
        return -1;
    }
    for (int64_t i = 0; i < n; i++)
        p[i] = i;
    SortCtx s = {keys ? keys : l->items, keys ? keysize : size, lt, reverse};
    merge_sort(&s, p, p + n, n);
    for (int64_t i = 0; i < n; i++)
        memcpy(out + i * size, l->items + p[i] * size, (size_t)size);
    memcpy(l->items, out, (size_t)(n * size));
    free(out);
    free(p);
    l->dirty = 1;
    return 0;
}

/* Items or keys of ints: NumPy's sorts (runtime/sort.c) instead of the merge sort's indirect
 * compares, about 2x faster on 10^5 random int64 (bench/README.md). Equal ints are
 * indistinguishable, so the items themselves sort unstably and reverse afterwards; keys sort
 * by a stable argsort, negated bitwise (~k, which reverses the order of signed and unsigned
 * ints alike) for reverse, so that equal keys keep their order as in Python's sort. */
int32_t
kn_rt_list_sort_ints(KnMemInfo *mi, const char *keys, int64_t keysize, int32_t dt, int32_t reverse)
{
    KnList *l = kn_rt_list_of(mi);
    int64_t n = l->len, size = l->itemsize;
    if (n < 2)
        return 0;
    l->dirty = 1;
    if (!keys) {
        kn_rt_sort(l->items, n, 1, dt);
        if (reverse)
            kn_rt_list_reverse(mi);
        return 0;
    }
    int64_t *p = malloc((size_t)n * sizeof *p);
    char *out = malloc((size_t)(n * size));
    char *neg = reverse ? malloc((size_t)(n * keysize)) : NULL;
    if (!p || !out || (reverse && !neg)) {
        free(p);
        free(out);
        free(neg);
        return -1;
    }
    if (neg) {
        for (int64_t i = 0; i < n * keysize; i++)
            neg[i] = (char)~keys[i];
        keys = neg;
    }
    kn_rt_argsort(keys, n, 1, dt, p);
    for (int64_t i = 0; i < n; i++)
        memcpy(out + i * size, l->items + p[i] * size, (size_t)size);
    memcpy(l->items, out, (size_t)(n * size));
    free(neg);
    free(out);
    free(p);
    return 0;
}

KnMemInfo *(*kn_rt_array_hold_hook)(void *parent);

KnMemInfo *
kn_rt_array_hold(void *parent)
{
    return kn_rt_array_hold_hook ? kn_rt_array_hold_hook(parent) : NULL;
}
