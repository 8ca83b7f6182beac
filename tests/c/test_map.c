/* test_map.c - unit tests for src/base's hash map (KnMap: uint64 -> non-NULL pointer, open
 * addressing) and hash functions (kn_hash_bytes, kn_hash_mix). Includes stress cases: 10^5
 * inserts of spread and sequential keys, keys that share their low bits (long probe chains),
 * overwrites, and a check that 10^5 distinct strings hash apart. One program; prints one line
 * per failed check (file:line); exits nonzero if any failed. */
#include "base/base.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Values are never dereferenced by the map: encode an integer as a non-NULL pointer. */
static void *
val(uint64_t i)
{
    return (void *)(uintptr_t)(i * 2 + 1);
}

static void
test_map_basic(void)
{
    KnMap m;
    kn_map_init(&m);
    CHECK_EQ_INT(m.len, 0);
    CHECK(kn_map_get(&m, 0) == NULL); /* empty map, no slots */
    CHECK(kn_map_get(&m, 12345) == NULL);

    int a = 1, b = 2, c = 3;
    kn_map_put(&m, 42, &a);
    CHECK(kn_map_get(&m, 42) == &a);
    CHECK(kn_map_get(&m, 43) == NULL);
    CHECK_EQ_INT(m.len, 1);
    CHECK(m.cap >= 2 && (m.cap & (m.cap - 1)) == 0);

    kn_map_put(&m, 0, &b); /* key 0 is an ordinary key */
    CHECK(kn_map_get(&m, 0) == &b);
    kn_map_put(&m, UINT64_MAX, &c);
    CHECK(kn_map_get(&m, UINT64_MAX) == &c);
    CHECK_EQ_INT(m.len, 3);

    /* overwrite: the value changes, the count does not */
    kn_map_put(&m, 42, &c);
    CHECK(kn_map_get(&m, 42) == &c);
    CHECK_EQ_INT(m.len, 3);
    kn_map_put(&m, 42, &a);
    CHECK(kn_map_get(&m, 42) == &a);
    CHECK_EQ_INT(m.len, 3);

    kn_map_fini(&m);
    CHECK_EQ_INT(m.len, 0);
    CHECK_EQ_INT(m.cap, 0);
    CHECK(kn_map_get(&m, 42) == NULL);
    /* usable again after fini */
    kn_map_put(&m, 7, &a);
    CHECK(kn_map_get(&m, 7) == &a);
    kn_map_fini(&m);
}

static void
test_map_stress(void)
{
    enum { N = 100000 };
    KnMap m;
    kn_map_init(&m);

    /* spread keys */
    for (uint64_t i = 0; i < N; i++)
        kn_map_put(&m, i * 0x9e3779b97f4a7c15ull, val(i));
    CHECK_EQ_INT(m.len, N);
    CHECK(m.cap >= 2 * (size_t)N); /* load factor at most 1/2 */
    CHECK((m.cap & (m.cap - 1)) == 0);
    int bad = 0;
    for (uint64_t i = 0; i < N; i++)
        bad += kn_map_get(&m, i * 0x9e3779b97f4a7c15ull) != val(i);
    CHECK_EQ_INT(bad, 0);
    int found = 0;
    for (uint64_t i = N; i < 2 * N; i++)
        found += kn_map_get(&m, i * 0x9e3779b97f4a7c15ull) != NULL;
    CHECK_EQ_INT(found, 0);

    /* overwrite every other key */
    for (uint64_t i = 0; i < N; i += 2)
        kn_map_put(&m, i * 0x9e3779b97f4a7c15ull, val(i + 7));
    CHECK_EQ_INT(m.len, N);
    bad = 0;
    for (uint64_t i = 0; i < N; i++)
        bad += kn_map_get(&m, i * 0x9e3779b97f4a7c15ull) != val(i % 2 ? i : i + 7);
    CHECK_EQ_INT(bad, 0);
    kn_map_fini(&m);

    /* sequential keys: one long cluster under linear probing */
    kn_map_init(&m);
    for (uint64_t i = 0; i < N; i++)
        kn_map_put(&m, i, val(i));
    CHECK_EQ_INT(m.len, N);
    bad = 0;
    for (uint64_t i = 0; i < N; i++)
        bad += kn_map_get(&m, i) != val(i);
    CHECK_EQ_INT(bad, 0);
    CHECK(kn_map_get(&m, N) == NULL);
    kn_map_fini(&m);

    /* keys equal in their low 32 bits: every key probes from the same slot */
    enum { C = 3000 };
    kn_map_init(&m);
    for (uint64_t i = 0; i < C; i++)
        kn_map_put(&m, (i << 32) | 5, val(i));
    CHECK_EQ_INT(m.len, C);
    bad = 0;
    for (uint64_t i = 0; i < C; i++)
        bad += kn_map_get(&m, (i << 32) | 5) != val(i);
    CHECK_EQ_INT(bad, 0);
    CHECK(kn_map_get(&m, ((uint64_t)C << 32) | 5) == NULL);
    CHECK(kn_map_get(&m, 5 | (1ull << 63)) == NULL);
    kn_map_fini(&m);

    /* hashed string keys, as interning uses them */
    kn_map_init(&m);
    char buf[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(buf, sizeof buf, "name%d", i);
        kn_map_put(&m, kn_hash_bytes(buf, (size_t)n, 0), val((uint64_t)i));
    }
    CHECK_EQ_INT(m.len, N); /* no two of these strings collided */
    bad = 0;
    for (int i = 0; i < N; i++) {
        int n = snprintf(buf, sizeof buf, "name%d", i);
        bad += kn_map_get(&m, kn_hash_bytes(buf, (size_t)n, 0)) != val((uint64_t)i);
    }
    CHECK_EQ_INT(bad, 0);
    kn_map_fini(&m);
}

static void
test_hash(void)
{
    const char *s = "hello";
    uint64_t h = kn_hash_bytes(s, 5, 0);
    CHECK(h == kn_hash_bytes("hello", 5, 0)); /* deterministic, depends on bytes not address */
    char copy[6];
    memcpy(copy, s, 6);
    CHECK(h == kn_hash_bytes(copy, 5, 0));
    CHECK(h != kn_hash_bytes(s, 5, 1));       /* the seed matters */
    CHECK(h != kn_hash_bytes(s, 4, 0));       /* the length matters */
    CHECK(h != kn_hash_bytes("hellp", 5, 0)); /* every byte matters */
    CHECK(h != kn_hash_bytes("jello", 5, 0));
    CHECK(kn_hash_bytes("a", 2, 0) != kn_hash_bytes("a", 1, 0)); /* a trailing NUL counts */
    CHECK(kn_hash_bytes("", 0, 0) == kn_hash_bytes(NULL, 0, 0));
    CHECK(kn_hash_bytes("", 0, 0) != kn_hash_bytes("", 0, 1));
    CHECK(kn_hash_bytes("ab", 2, 0) != kn_hash_bytes("ba", 2, 0));

    CHECK(kn_hash_mix(1, 2) == kn_hash_mix(1, 2));
    CHECK(kn_hash_mix(1, 2) != kn_hash_mix(2, 1)); /* order matters (structural hashes) */
    CHECK(kn_hash_mix(0, 0) != kn_hash_mix(0, 1));
    CHECK(kn_hash_mix(7, 0) != kn_hash_mix(8, 0));

    /* chained mixes of small integers (the shape of a tuple hash) do not collide */
    enum { N = 100000 };
    KnMap seen;
    kn_map_init(&seen);
    int dup = 0;
    for (uint64_t i = 0; i < N; i++) {
        uint64_t k = kn_hash_mix(kn_hash_mix(6, i % 317), i / 317);
        dup += kn_map_get(&seen, k) != NULL;
        kn_map_put(&seen, k, val(i));
    }
    CHECK_EQ_INT(dup, 0);
    kn_map_fini(&seen);

    /* the low bits (what the map uses for the first slot) are spread: 10^5 sequential keys hashed
     * into 1024 buckets leave no bucket empty and none over 4x the mean */
    int counts[1024] = {0};
    for (uint64_t i = 0; i < N; i++)
        counts[kn_hash_mix(0, i) & 1023]++;
    int empty = 0, max = 0;
    for (int i = 0; i < 1024; i++) {
        empty += counts[i] == 0;
        max = counts[i] > max ? counts[i] : max;
    }
    CHECK_EQ_INT(empty, 0);
    CHECK(max < 4 * N / 1024);
}

int
main(void)
{
    test_map_basic();
    test_map_stress();
    test_hash();
    if (failures) {
        fprintf(stderr, "test_map: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_map: %d checks passed\n", checks);
    return 0;
}
