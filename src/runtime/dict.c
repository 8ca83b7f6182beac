/* dict.c - the element-size-generic core of dicts and sets (dict.h): CPython's compact ordered
 * table. The index holds int32 slots (-1 empty, -2 deleted, else an entry number); entries are
 * dense, in insertion order, {int64 hash; key; value} of lay.esize bytes. Probing is CPython's
 * (i = i*5 + perturb + 1, perturb >>= 5), so sequential int keys fill sequential slots. The
 * index has a power-of-two size with at most two thirds of it used by entries; when the entries
 * are full the table is rebuilt with room for twice the live count (dropping deleted entries).
 * Keys compare as bytes when they hold no float or str (compiled code zeroes a key's padding
 * before it is stored), else part by part (KnDictField). The references entries hold (arrays,
 * strings, containers) are counted at the offsets lay.refs, so this file can copy, delete and
 * free entries of any type without code generated per type. Hashes are computed by compiled
 * code (CPython's values) and stored; nothing here hashes a key. */
#include "runtime/dict.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "runtime/str.h"

enum { EMPTY = -1, DUMMY = -2, MIN_SLOTS = 8 };

static KnDict *
table(KnMemInfo *mi)
{
    return (KnDict *)mi->data;
}

static char *
entry(KnDict *d, int64_t ix)
{
    return d->entries + ix * d->lay.esize;
}

static int64_t
entry_hash(KnDict *d, int64_t ix)
{
    int64_t h;
    memcpy(&h, entry(d, ix), 8);
    return h;
}

static int
str_equal(const char *a, const char *b)
{
    const KnStr *x = (const KnStr *)a, *y = (const KnStr *)b;
    if (x->length != y->length || x->kind != y->kind)
        return 0;
    if (x->hash != -1 && y->hash != -1 && x->hash != y->hash)
        return 0;
    return x->data == y->data || !memcmp(x->data, y->data, (size_t)(x->length * x->kind));
}

static int
fields_equal(const KnDictField *f, int n, const char *a, const char *b)
{
    for (int i = 0; i < n; i++) {
        const char *p = a + f[i].offset, *q = b + f[i].offset;
        switch (f[i].kind) {
        case KN_DF_F64: {
            double x, y;
            memcpy(&x, p, 8);
            memcpy(&y, q, 8);
            if (x != y)
                return 0;
            break;
        }
        case KN_DF_F32: {
            float x, y;
            memcpy(&x, p, 4);
            memcpy(&y, q, 4);
            if (x != y)
                return 0;
            break;
        }
        case KN_DF_F16: {
            _Float16 x, y;
            memcpy(&x, p, 2);
            memcpy(&y, q, 2);
            if (x != y)
                return 0;
            break;
        }
        case KN_DF_STR:
            if (!str_equal(p, q))
                return 0;
            break;
        default:
            if (memcmp(p, q, (size_t)f[i].size))
                return 0;
        }
    }
    return 1;
}

static int
key_equal(const KnDictLayout *lay, const char *a, const char *b)
{
    if (lay->key_bytes) {
        if (lay->ksize == 8) {
            uint64_t x, y;
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
            return x == y;
        }
        return !memcmp(a, b, (size_t)lay->ksize);
    }
    return fields_equal(lay->kf, lay->nkf, a, b);
}

static void
release_refs(KnDict *d, char *e, int from, int to)
{
    for (int i = from; i < to; i++) {
        KnMemInfo *r;
        memcpy(&r, e + d->lay.refs[i], sizeof r);
        kn_rt_decref(r);
    }
}

static void
take_refs(KnDict *d, char *e, int from, int to)
{
    for (int i = from; i < to; i++) {
        KnMemInfo *r;
        memcpy(&r, e + d->lay.refs[i], sizeof r);
        kn_rt_incref(r);
    }
}

/* the slot of the index holding entry ix (which is live) */
static int64_t
slot_of(KnDict *d, int64_t ix)
{
    uint64_t perturb = (uint64_t)entry_hash(d, ix), i = perturb & (uint64_t)d->mask;
    for (;;) {
        if (d->index[i] == ix)
            return (int64_t)i;
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
    }
}

/* an empty or deleted slot for hash h (the key is known to be absent) */
static int64_t
free_slot(KnDict *d, int64_t h)
{
    uint64_t perturb = (uint64_t)h, i = perturb & (uint64_t)d->mask;
    while (d->index[i] >= 0) {
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
    }
    return (int64_t)i;
}

/* index of `slots` slots (a power of two) and room for two thirds of it in entries, the live
 * entries moved to the front in order. 0, or -1 out of memory (the table unchanged). */
static int
rebuild(KnDict *d, int64_t slots)
{
    int64_t cap = slots * 2 / 3;
    if (slots > ((int64_t)1 << 31) || cap < d->used)
        return -1;
    int32_t *index = malloc(sizeof(int32_t) * (size_t)slots);
    char *entries = malloc((size_t)(cap ? cap : 1) * (size_t)d->lay.esize);
    if (!index || !entries) {
        free(index);
        free(entries);
        return -1;
    }
    memset(index, 0xff, sizeof(int32_t) * (size_t)slots);
    int64_t n = 0;
    for (int64_t ix = d->first; ix < d->nentries; ix++)
        if (entry_hash(d, ix) != -1)
            memcpy(entries + n++ * d->lay.esize, entry(d, ix), (size_t)d->lay.esize);
    free(d->index);
    free(d->entries);
    d->index = index;
    d->entries = entries;
    d->mask = slots - 1;
    d->capacity = cap;
    d->nentries = n;
    d->first = 0;
    for (int64_t ix = 0; ix < n; ix++) {
        uint64_t perturb = (uint64_t)entry_hash(d, ix), i = perturb & (uint64_t)d->mask;
        while (index[i] != EMPTY) {
            perturb >>= 5;
            i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
        }
        index[i] = (int32_t)ix;
    }
    return 0;
}

static int64_t
slots_for(int64_t n)
{
    int64_t s = MIN_SLOTS;
    while (s * 2 / 3 < n)
        s *= 2;
    return s;
}

static void
dict_dtor(void *data, size_t size)
{
    KN_UNUSED(size);
    KnDict *d = data;
    if (d->lay.nrefs)
        for (int64_t ix = d->first; ix < d->nentries; ix++)
            if (entry_hash(d, ix) != -1)
                release_refs(d, entry(d, ix), 0, d->lay.nrefs);
    free(d->index);
    free(d->entries);
}

KnMemInfo *
kn_rt_dict_new(const KnDictLayout *lay, int64_t hint)
{
    KnMemInfo *mi = kn_rt_meminfo_alloc_dtor((int64_t)sizeof(KnDict), NULL);
    if (!mi)
        return NULL;
    KnDict *d = table(mi);
    memset(d, 0, sizeof *d);
    d->lay = *lay;
    if (rebuild(d, slots_for(hint < 0 ? 0 : hint)) < 0) {
        kn_rt_meminfo_free(mi);
        return NULL;
    }
    mi->dtor = dict_dtor;
    return mi;
}

/* the hash compiled code passed, or for -1 (which no CPython hash is) the hash of the str key */
static int64_t
hash_of(const void *key, int64_t hash)
{
    return hash != -1 ? hash : kn_rt_str_hash((const KnStr *)key);
}

/* The probe sequence of kn_rt_dict_lookup: the entry whose key equals key, or -1. With one_str
 * (a table whose key is one str) the entry's str is compared directly; always inlined, so that
 * each caller gets the probe loop specialised for its constant one_str. */
static inline __attribute__((always_inline)) int64_t
probe(KnDict *d, const void *key, int64_t hash, int one_str)
{
    uint64_t perturb = (uint64_t)hash, i = perturb & (uint64_t)d->mask;
    for (;;) {
        int32_t ix = d->index[i];
        if (ix == EMPTY)
            return -1;
        if (ix >= 0) {
            const char *e = entry(d, ix);
            int64_t h;
            memcpy(&h, e, 8);
            if (h == hash && (one_str ? str_equal(e + d->lay.koff, key)
                                      : key_equal(&d->lay, e + d->lay.koff, key)))
                return ix;
        }
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
    }
}

static int
str_key(const KnDictLayout *lay)
{
    return lay->nkf == 1 && lay->kf[0].kind == KN_DF_STR && lay->kf[0].offset == 0;
}

/* the entry of d whose key equals key (hash its hash), or -1 */
static int64_t
find(KnDict *d, const void *key, int64_t hash)
{
    return str_key(&d->lay) ? probe(d, key, hash, 1) : probe(d, key, hash, 0);
}

int64_t
kn_rt_dict_lookup(KnMemInfo *mi, const void *key, int64_t hash)
{
    KnDict *d = table(mi);
    return find(d, key, hash_of(key, hash));
}

/* a new entry for an absent key: its number, or -1 out of memory */
static int64_t
append(KnDict *d, const void *key, int64_t hash)
{
    /* CPython's growth: at least 3 x the live count of slots (2 x in entries) */
    if (d->nentries == d->capacity && rebuild(d, slots_for(d->used * 2 > 5 ? d->used * 2 : 5)) < 0)
        return -1;
    int64_t ix = d->nentries++;
    char *e = entry(d, ix);
    memcpy(e, &hash, 8);
    memcpy(e + d->lay.koff, key, (size_t)d->lay.ksize);
    if (d->lay.vsize)
        memset(e + d->lay.voff, 0, (size_t)d->lay.vsize);
    if (str_key(&d->lay)) /* the str key keeps its hash */
        ((KnStr *)(e + d->lay.koff))->hash = hash;
    d->index[free_slot(d, hash)] = (int32_t)ix;
    d->used++;
    return ix;
}

int64_t
kn_rt_dict_add_new(KnMemInfo *mi, const void *key, int64_t hash)
{
    return append(table(mi), key, hash);
}

int64_t
kn_rt_dict_insert(KnMemInfo *mi, const void *key, int64_t hash, int32_t *added)
{
    KnDict *d = table(mi);
    hash = hash_of(key, hash);
    int64_t ix = kn_rt_dict_lookup(mi, key, hash);
    *added = ix < 0;
    return ix >= 0 ? ix : append(d, key, hash);
}

/* the strs among the fields f[0..n) at base borrowed from Python made owned copies: 0, or -1 */
static int
own_fields(const KnDictField *f, int n, char *base)
{
    for (int i = 0; i < n; i++)
        if (f[i].kind == KN_DF_STR && kn_rt_str_own_in_place((KnStr *)(base + f[i].offset)) < 0)
            return -1;
    return 0;
}

int32_t
kn_rt_dict_own_strs(KnMemInfo *mi, int64_t ix, int32_t part)
{
    KnDict *d = table(mi);
    char *e = entry(d, ix);
    return part == 1 ? own_fields(d->lay.kf, d->lay.nkf, e + d->lay.koff)
                     : own_fields(d->lay.vf, d->lay.nvf, e + d->lay.voff);
}

void
kn_rt_dict_remove(KnMemInfo *mi, int64_t ix, int32_t release_value)
{
    KnDict *d = table(mi);
    char *e = entry(d, ix);
    d->index[slot_of(d, ix)] = DUMMY;
    release_refs(d, e, 0, release_value ? d->lay.nrefs : d->lay.key_refs);
    int64_t dead = -1;
    memcpy(e, &dead, 8);
    d->used--;
    if (!d->used) { /* empty again: start over at the front (the index has only dummies) */
        d->nentries = d->first = 0;
        memset(d->index, 0xff, sizeof(int32_t) * (size_t)(d->mask + 1));
    } else if (ix == d->first) {
        while (entry_hash(d, d->first) == -1)
            d->first++;
    }
}

int64_t
kn_rt_dict_end(KnMemInfo *mi, int32_t last)
{
    KnDict *d = table(mi);
    if (!d->used)
        return -1;
    if (!last)
        return d->first;
    int64_t ix = d->nentries - 1;
    while (entry_hash(d, ix) == -1)
        ix--;
    return ix;
}

void
kn_rt_dict_compact(KnMemInfo *mi)
{
    KnDict *d = table(mi);
    if (d->nentries != d->used)
        rebuild(d, d->mask + 1); /* same sizes: cannot fail but for memory; then unchanged */
}

void
kn_rt_dict_clear(KnMemInfo *mi)
{
    KnDict *d = table(mi);
    if (d->lay.nrefs)
        for (int64_t ix = d->first; ix < d->nentries; ix++)
            if (entry_hash(d, ix) != -1)
                release_refs(d, entry(d, ix), 0, d->lay.nrefs);
    d->used = d->nentries = d->first = 0;
    memset(d->index, 0xff, sizeof(int32_t) * (size_t)(d->mask + 1));
}

KnMemInfo *
kn_rt_dict_copy(KnMemInfo *mi)
{
    KnDict *d = table(mi);
    KnMemInfo *r = kn_rt_dict_new(&d->lay, d->used);
    if (r && kn_rt_dict_update(r, mi) < 0) {
        kn_rt_decref(r);
        return NULL;
    }
    return r;
}

int64_t
kn_rt_dict_store(KnMemInfo *mi, const void *key, int64_t hash, const void *value)
{
    int32_t added;
    int64_t ix = kn_rt_dict_insert(mi, key, hash, &added);
    if (ix < 0)
        return -1;
    KnDict *d = table(mi);
    char *t = entry(d, ix);
    if (added)
        take_refs(d, t, 0, d->lay.key_refs);
    else
        release_refs(d, t, d->lay.key_refs, d->lay.nrefs);
    if (d->lay.vsize)
        memcpy(t + d->lay.voff, value, (size_t)d->lay.vsize);
    take_refs(d, t, d->lay.key_refs, d->lay.nrefs);
    return ix;
}

int64_t
kn_rt_dict_set(KnMemInfo *mi, const void *key, int64_t hash, const void *value)
{
    KnDict *d = table(mi);
    hash = hash_of(key, hash);
    int64_t ix = find(d, key, hash);
    int added = ix < 0;
    if (added && (ix = append(d, key, hash)) < 0)
        return -1;
    char *e = entry(d, ix);
    if (added) {
        take_refs(d, e, 0, d->lay.key_refs);
        if (own_fields(d->lay.kf, d->lay.nkf, e + d->lay.koff) < 0)
            return -1;
    } else {
        release_refs(d, e, d->lay.key_refs, d->lay.nrefs);
    }
    memcpy(e + d->lay.voff, value, (size_t)d->lay.vsize);
    take_refs(d, e, d->lay.key_refs, d->lay.nrefs);
    return own_fields(d->lay.vf, d->lay.nvf, e + d->lay.voff) < 0 ? -1 : ix;
}

void
kn_rt_dict_take_refs(KnMemInfo *mi, int64_t ix, int32_t part)
{
    KnDict *d = table(mi);
    take_refs(d, entry(d, ix), part == 1 ? 0 : d->lay.key_refs,
              part == 1 ? d->lay.key_refs : d->lay.nrefs);
}

/* put b's entry e (key, hash and value) into a; 0, or -1 out of memory */
static int
put_entry(KnMemInfo *a, KnDict *b, const char *e)
{
    int64_t h;
    memcpy(&h, e, 8);
    return kn_rt_dict_store(a, e + b->lay.koff, h, e + b->lay.voff) < 0 ? -1 : 0;
}

int32_t
kn_rt_dict_update(KnMemInfo *a, KnMemInfo *b)
{
    KnDict *s = table(b);
    if (a == b)
        return 0;
    for (int64_t ix = s->first; ix < s->nentries; ix++)
        if (entry_hash(s, ix) != -1 && put_entry(a, s, entry(s, ix)) < 0)
            return -1;
    return 0;
}

/* the entry of b equal to a's entry e (same key), or -1 */
static int64_t
find_in(KnMemInfo *b, KnDict *a, const char *e)
{
    int64_t h;
    memcpy(&h, e, 8);
    return kn_rt_dict_lookup(b, e + a->lay.koff, h);
}

/* a == b for two dicts of one layout: the same keys, each value equal by eq (1, 0 or a
 * negative status it returned), or bytewise by field when eq is NULL */
static int32_t
dict_equal(KnMemInfo *a, KnMemInfo *b, int32_t (*eq)(const void *, const void *))
{
    KnDict *x = table(a), *y = table(b);
    if (x->used != y->used)
        return 0;
    for (int64_t ix = x->first; ix < x->nentries; ix++) {
        if (entry_hash(x, ix) == -1)
            continue;
        const char *e = entry(x, ix);
        int64_t j = find_in(b, x, e);
        if (j < 0)
            return 0;
        const char *v = e + x->lay.voff, *w = entry(y, j) + y->lay.voff;
        int32_t r = eq ? eq(v, w) : !x->lay.vsize || fields_equal(x->lay.vf, x->lay.nvf, v, w);
        if (r <= 0)
            return r;
    }
    return 1;
}

int32_t
kn_rt_dict_equal(KnMemInfo *a, KnMemInfo *b)
{
    return dict_equal(a, b, NULL);
}

int32_t
kn_rt_dict_equal_by(KnMemInfo *a, KnMemInfo *b, int32_t (*eq)(const void *, const void *))
{
    return dict_equal(a, b, eq);
}

int32_t
kn_rt_dict_find_value(KnMemInfo *a, const void *value, int32_t (*eq)(const void *, const void *))
{
    KnDict *x = table(a);
    for (int64_t ix = x->first; ix < x->nentries; ix++) {
        if (entry_hash(x, ix) == -1)
            continue;
        int32_t r = eq(entry(x, ix) + x->lay.voff, value);
        if (r != 0)
            return r;
    }
    return 0;
}

int32_t
kn_rt_set_subset(KnMemInfo *a, KnMemInfo *b)
{
    KnDict *x = table(a);
    if (x->used > table(b)->used)
        return 0;
    for (int64_t ix = x->first; ix < x->nentries; ix++)
        if (entry_hash(x, ix) != -1 && find_in(b, x, entry(x, ix)) < 0)
            return 0;
    return 1;
}

/* put into r the entries of a that are (in_b: 1) or are not (0) in b; 0 or -1 */
static int
filter_into(KnMemInfo *r, KnMemInfo *a, KnMemInfo *b, int in_b)
{
    KnDict *x = table(a);
    for (int64_t ix = x->first; ix < x->nentries; ix++) {
        if (entry_hash(x, ix) == -1)
            continue;
        const char *e = entry(x, ix);
        if ((find_in(b, x, e) >= 0) == in_b && put_entry(r, x, e) < 0)
            return -1;
    }
    return 0;
}

KnMemInfo *
kn_rt_set_binop(KnMemInfo *a, KnMemInfo *b, int32_t op)
{
    KnDict *x = table(a);
    KnMemInfo *r = kn_rt_dict_new(&x->lay, op == KN_SET_OR ? x->used + table(b)->used : x->used);
    if (!r)
        return NULL;
    int rc;
    switch (op) {
    case KN_SET_OR:
        rc = kn_rt_dict_update(r, a) < 0 || kn_rt_dict_update(r, b) < 0 ? -1 : 0;
        break;
    case KN_SET_AND:
        rc = filter_into(r, a, b, 1);
        break;
    case KN_SET_SUB:
        rc = filter_into(r, a, b, 0);
        break;
    default:
        rc = filter_into(r, a, b, 0) < 0 || filter_into(r, b, a, 0) < 0 ? -1 : 0;
    }
    if (rc < 0) {
        kn_rt_decref(r);
        return NULL;
    }
    return r;
}

int32_t
kn_rt_set_inplace(KnMemInfo *a, KnMemInfo *b, int32_t op)
{
    if (op == KN_SET_OR)
        return kn_rt_dict_update(a, b);
    KnMemInfo *r = kn_rt_set_binop(a, b, op);
    if (!r)
        return -1;
    /* swap the tables: a gets r's entries, r (freed now) takes a's old ones */
    KnDict tmp = *table(a);
    *table(a) = *table(r);
    *table(r) = tmp;
    kn_rt_decref(r);
    return 0;
}

/* ---- the str key of a KeyError ---- */

static _Thread_local struct {
    void *chars;
    int64_t length;
    int32_t kind;
} missing_key;

void
kn_rt_dict_key_error_str(const void *key)
{
    const KnStr *s = key;
    free(missing_key.chars);
    size_t n = (size_t)(s->length * s->kind);
    missing_key.chars = malloc(n ? n : 1);
    if (missing_key.chars)
        memcpy(missing_key.chars, s->data, n);
    missing_key.length = missing_key.chars ? s->length : 0;
    missing_key.kind = s->kind;
}

const void *
kn_rt_dict_key_error_text(int32_t *kind, int64_t *length)
{
    *kind = missing_key.kind ? missing_key.kind : 1;
    *length = missing_key.length;
    return missing_key.chars ? missing_key.chars : "";
}

/* ---- CPython's hashes ---- */

enum { HASH_BITS = 61 };
static const uint64_t HASH_MODULUS = ((uint64_t)1 << HASH_BITS) - 1;

int64_t
kn_rt_hash_int_slow(int64_t x, int32_t is_unsigned)
{
    int64_t h;
    if (is_unsigned)
        h = (int64_t)((uint64_t)x % HASH_MODULUS);
    else if (x >= 0)
        h = (int64_t)((uint64_t)x % HASH_MODULUS);
    else
        h = -(int64_t)((0 - (uint64_t)x) % HASH_MODULUS);
    return h == -1 ? -2 : h;
}

int64_t
kn_rt_hash_double(double v)
{
    if (v != v)
        return 0;
    if (v > 1.7976931348623157e308)
        return 314159;
    if (v < -1.7976931348623157e308)
        return -314159;
    int e;
    double m = frexp(v, &e);
    int sign = 1;
    if (m < 0) {
        sign = -1;
        m = -m;
    }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & HASH_MODULUS) | x >> (HASH_BITS - 28);
        m *= 268435456.0; /* 2**28 */
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= HASH_MODULUS)
            x -= HASH_MODULUS;
    }
    e = e >= 0 ? e % HASH_BITS : HASH_BITS - 1 - ((-1 - e) % HASH_BITS);
    x = ((x << e) & HASH_MODULUS) | x >> (HASH_BITS - e);
    int64_t h = (int64_t)x * sign;
    return h == -1 ? -2 : h;
}
