/* random.c - the `random` module of compiled code: CPython's Mersenne Twister, one state per
 * thread.
 *
 * The generator is MT19937 as CPython's _randommodule.c runs it, so that after random.seed(n)
 * in compiled code the stream equals the interpreter's after random.seed(n): an int seed is
 * |n| cut into 32-bit words, least significant first (one word 0 for n == 0), fed to
 * init_by_array; random() takes two outputs, a = x >> 5 and b = y >> 6, and gives
 * (a * 2**26 + b) / 2**53; getrandbits(k) for k <= 64 is one or two outputs, the first the low
 * word; randbelow(n) is random.py's rejection loop on getrandbits(n.bit_length()); gauss keeps
 * its second value until the next call or seed, as random.py does. The state lives in
 * thread-local storage (each thread has its own stream, as Numba's; see thread_state); a thread
 * that never seeds is seeded once from the clock and its address. Pure C over base/; no Python. */
#include "runtime/runtime.h"
#include "runtime/mt19937.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

typedef struct {
    KnMT mt; /* runtime/mt19937.h */
    int seeded;
    int has_gauss;
    double gauss_next;
} KnRandom;

/* Only a pointer is thread-local (the extension's static TLS block is small); the state is
 * allocated on a thread's first use and freed when the thread ends (a pthread key). */
static _Thread_local KnRandom *rng __attribute__((tls_model("initial-exec")));
static pthread_key_t rng_key;
static pthread_once_t rng_once = PTHREAD_ONCE_INIT;

static void
make_key(void)
{
    pthread_key_create(&rng_key, free);
}

/* this thread's state, never NULL: a thread that cannot allocate one shares a static one */
static KnRandom *
thread_state(void)
{
    static KnRandom fallback;
    if (!rng) {
        pthread_once(&rng_once, make_key);
        rng = calloc(1, sizeof *rng);
        if (rng)
            pthread_setspecific(rng_key, rng);
        else
            rng = &fallback;
    }
    return rng;
}

static void
seed_u64(KnRandom *r, uint64_t v)
{
    uint32_t key[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
    kn_mt_init_by_array(&r->mt, key, key[1] ? 2 : 1);
    r->seeded = 1;
    r->has_gauss = 0;
}

static KnRandom *
state(void)
{
    KnRandom *r = thread_state();
    if (!r->seeded) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed_u64(r, ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
                        (uint64_t)(uintptr_t)r);
    }
    return r;
}

static uint32_t
genrand(KnRandom *r)
{
    return kn_mt_next(&r->mt);
}

/* getrandbits(k), 1 <= k <= 64: the first output is the low word */
static uint64_t
getrandbits(KnRandom *r, int k)
{
    if (k <= 32)
        return genrand(r) >> (32 - k);
    uint64_t lo = genrand(r);
    uint64_t hi = genrand(r) >> (64 - k);
    return lo | (hi << 32);
}

/* random.py's _randbelow_with_getrandbits for 0 < n <= 2**64 - 1 */
static uint64_t
randbelow(KnRandom *r, uint64_t n)
{
    int k = 64 - __builtin_clzll(n);
    uint64_t v = getrandbits(r, k);
    while (v >= n)
        v = getrandbits(r, k);
    return v;
}

void
kn_rt_random_seed(int64_t n)
{
    /* |n| as an unsigned magnitude: -2**63 too */
    seed_u64(thread_state(), n < 0 ? -(uint64_t)n : (uint64_t)n);
}

/* random.seed() / seed(None): CPython seeds from os.urandom; here from getrandom(2), with the
 * clock and the state's address when that fails */
void
kn_rt_random_reseed(void)
{
    KnRandom *r = thread_state();
    uint32_t key[16];
    if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        for (int i = 0; i < 16; i++)
            key[i] =
                (uint32_t)(ts.tv_nsec * (i + 1)) ^ (uint32_t)ts.tv_sec ^ (uint32_t)(uintptr_t)r;
    }
    kn_mt_init_by_array(&r->mt, key, 16);
    r->seeded = 1;
    r->has_gauss = 0;
}

double
kn_rt_random_random(void)
{
    KnRandom *r = state();
    uint32_t a = genrand(r) >> 5, b = genrand(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.getrandbits(k) for 0 <= k <= 64 (k == 64 wraps into int64's sign bit); -1 in *err for
 * k < 0 (CPython's ValueError), beyond 64 bits not representable (the typing rule's int64) */
int64_t
kn_rt_random_getrandbits(int64_t k, int32_t *err)
{
    *err = k < 0 || k > 64;
    return *err || !k ? 0 : (int64_t)getrandbits(state(), (int)k);
}

int64_t
kn_rt_random_below(int64_t n)
{
    return n > 0 ? (int64_t)randbelow(state(), (uint64_t)n) : 0;
}

/* random.randrange(start, stop, step) as random.py computes it, in 128-bit arithmetic so that
 * wide ranges of int64 do not overflow. 0, or -1 for an empty range, -2 for a zero step. */
int32_t
kn_rt_random_randrange(int64_t start, int64_t stop, int64_t step, int64_t *out)
{
    __int128 width = (__int128)stop - start, n;
    if (step == 1) {
        if (width <= 0)
            return -1;
        *out = (int64_t)(start + (__int128)randbelow(state(), (uint64_t)width));
        return 0;
    }
    if (step == 0)
        return -2;
    if (step > 0)
        n = (width + step - 1) / step; /* Python's floor division: both >= 0 when it counts */
    else
        n = (width + step + 1) / step;
    if (step > 0 ? width + step - 1 < 0 : width + step + 1 > 0)
        n = 0; /* C truncates toward zero where Python floors: those are empty either way */
    if (n <= 0)
        return -1;
    *out = (int64_t)(start + (__int128)step * (__int128)randbelow(state(), (uint64_t)n));
    return 0;
}

double
kn_rt_random_gauss(double mu, double sigma)
{
    KnRandom *r = state();
    double z;
    if (r->has_gauss) {
        z = r->gauss_next;
        r->has_gauss = 0;
    } else {
        double x2pi = kn_rt_random_random() * 6.283185307179586;
        double g2rad = sqrt(-2.0 * log(1.0 - kn_rt_random_random()));
        z = cos(x2pi) * g2rad;
        r->gauss_next = sin(x2pi) * g2rad;
        r->has_gauss = 1;
    }
    return mu + z * sigma;
}
