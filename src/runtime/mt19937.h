/* mt19937.h - the Mersenne Twister MT19937 core shared by the random module (random.c) and
 * np.random (np_random.c): the state, Matsumoto and Nishimura's two seedings (init_genrand for
 * one 32-bit word, init_by_array for a key of words) and the tempered 32-bit output. Static
 * inline so that each generator's hot loop keeps the draw in line. Pure C. */
#ifndef KN_RUNTIME_MT19937_H
#define KN_RUNTIME_MT19937_H

#include <stdint.h>

#define KN_MT_N 624
#define KN_MT_M 397

typedef struct {
    uint32_t mt[KN_MT_N];
    int index;
} KnMT;

static inline void
kn_mt_init_genrand(KnMT *r, uint32_t s)
{
    r->mt[0] = s;
    for (int i = 1; i < KN_MT_N; i++)
        r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = KN_MT_N;
}

static inline void
kn_mt_init_by_array(KnMT *r, const uint32_t *key, int len)
{
    kn_mt_init_genrand(r, 19650218u);
    int i = 1, j = 0;
    for (int k = KN_MT_N > len ? KN_MT_N : len; k; k--) {
        r->mt[i] =
            (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= KN_MT_N) {
            r->mt[0] = r->mt[KN_MT_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = KN_MT_N - 1; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= KN_MT_N) {
            r->mt[0] = r->mt[KN_MT_N - 1];
            i = 1;
        }
    }
    r->mt[0] = 0x80000000u;
}

/* the next block of 624 words */
static inline void
kn_mt_twist(KnMT *r)
{
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    uint32_t y;
    int kk;
    for (kk = 0; kk < KN_MT_N - KN_MT_M; kk++) {
        y = (r->mt[kk] & 0x80000000u) | (r->mt[kk + 1] & 0x7fffffffu);
        r->mt[kk] = r->mt[kk + KN_MT_M] ^ (y >> 1) ^ mag01[y & 1u];
    }
    for (; kk < KN_MT_N - 1; kk++) {
        y = (r->mt[kk] & 0x80000000u) | (r->mt[kk + 1] & 0x7fffffffu);
        r->mt[kk] = r->mt[kk + (KN_MT_M - KN_MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
    }
    y = (r->mt[KN_MT_N - 1] & 0x80000000u) | (r->mt[0] & 0x7fffffffu);
    r->mt[KN_MT_N - 1] = r->mt[KN_MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
    r->index = 0;
}

static inline uint32_t
kn_mt_next(KnMT *r)
{
    if (r->index >= KN_MT_N)
        kn_mt_twist(r);
    uint32_t y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

#endif
