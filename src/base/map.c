/* map.c - an open-addressing hash map from uint64 keys to non-NULL pointers, used for type
 * interning, plus the hash functions that make the keys.
 * Linear probing, power-of-two capacity, load factor at most 1/2; entries are never removed. */
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>

void
kn_map_init(KnMap *m)
{
    m->slots = NULL;
    m->cap = 0;
    m->len = 0;
}

void
kn_map_fini(KnMap *m)
{
    free(m->slots);
    kn_map_init(m);
}

void *
kn_map_get(const KnMap *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)key & mask;; i = (i + 1) & mask) {
        const KnMapSlot *s = &m->slots[i];
        if (!s->value)
            return NULL;
        if (s->key == key)
            return s->value;
    }
}

static void
map_insert(KnMapSlot *slots, size_t cap, uint64_t key, void *value)
{
    size_t mask = cap - 1;
    for (size_t i = (size_t)key & mask;; i = (i + 1) & mask) {
        if (!slots[i].value || slots[i].key == key) {
            slots[i].key = key;
            slots[i].value = value;
            return;
        }
    }
}

static void
map_resize(KnMap *m, size_t cap)
{
    KnMapSlot *slots = calloc(cap, sizeof(KnMapSlot));
    if (!slots) {
        fprintf(stderr, "kiln: out of memory growing a hash map\n");
        abort();
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].value)
            map_insert(slots, cap, m->slots[i].key, m->slots[i].value);
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
}

void
kn_map_put(KnMap *m, uint64_t key, void *value)
{
    if ((m->len + 1) * 2 > m->cap)
        map_resize(m, m->cap ? m->cap * 2 : 16);
    if (!kn_map_get(m, key))
        m->len++;
    map_insert(m->slots, m->cap, key, value);
}

uint64_t
kn_hash_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

uint64_t
kn_hash_bytes(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return kn_hash_mix(h, n);
}
