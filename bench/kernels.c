/* The C twins of bench/kernels.py, one function per Python kernel, with the same arithmetic in
 * the same order (doubles where Python has floats, int64 where the JITs have int64).
 *
 * run.py compiles this with gcc -O3 -march=native -ffp-contract=off -shared -fPIC and calls the
 * time_* entry points through ctypes. Each one runs its kernel `reps` times and stores the time
 * of each run (clock_gettime, CLOCK_MONOTONIC, in seconds) in times[], so the ctypes call costs
 * nothing that is measured. The argument is read from a volatile before each run and the result
 * written to a volatile, so the compiler cannot hoist the kernel out of the timing loop; within
 * one run it may optimise the kernel as it likes (as the JITs may).
 *
 * -ffp-contract=off: GCC otherwise fuses a*b+c into one FMA instruction under -march=native,
 * which rounds differently from Python; the JITs do not fuse by default (no fastmath), and with
 * fusion the float results (and the mandelbrot counts) would not match Python's.
 */
#include <math.h>
#include <stdint.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- kernels ---------------------------------------------------------------------------- */

static int64_t fib(int64_t n) {
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

/* Wraps modulo 2**64 like the JITs' int64 (unsigned arithmetic: signed overflow is UB in C). */
static int64_t sum_squares(int64_t n) {
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += (uint64_t)i * (uint64_t)i;
    return (int64_t)s;
}

static double float_loop(int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double x = (double)i * 0.001;
        s += sqrt(x) * sin(x);
    }
    return s;
}

static int64_t mandel_point(double cr, double ci, int64_t max_iter) {
    double zr = 0.0, zi = 0.0;
    for (int64_t k = 0; k < max_iter; k++) {
        double zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0)
            return k;
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
    }
    return max_iter;
}

static int64_t mandelbrot(int64_t width, int64_t height, int64_t max_iter) {
    int64_t total = 0;
    for (int64_t y = 0; y < height; y++) {
        double ci = -1.5 + 3.0 * (double)y / (double)height;
        for (int64_t x = 0; x < width; x++) {
            double cr = -2.0 + 3.0 * (double)x / (double)width;
            total += mandel_point(cr, ci, max_iter);
        }
    }
    return total;
}

static int64_t collatz_max_steps(int64_t limit) {
    int64_t best = 0;
    for (int64_t start = 1; start < limit; start++) {
        int64_t n = start, steps = 0;
        while (n != 1) {
            if (n % 2 == 0)
                n = n / 2;
            else
                n = 3 * n + 1;
            steps += 1;
        }
        if (steps > best)
            best = steps;
    }
    return best;
}

static int64_t count_primes(int64_t limit) {
    int64_t count = 0;
    for (int64_t n = 2; n < limit; n++) {
        int is_prime = 1;
        for (int64_t d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                is_prime = 0;
                break;
            }
        }
        if (is_prime)
            count += 1;
    }
    return count;
}

/* ---- timing entry points: run `reps` times, times[r] = seconds of run r ------------------- */

#define TIME_LOOP(T, CALL)                                                                     \
    volatile T sink;                                                                           \
    for (int r = 0; r < reps; r++) {                                                           \
        double t0 = now();                                                                     \
        sink = CALL;                                                                           \
        times[r] = now() - t0;                                                                 \
    }                                                                                          \
    return sink;

int64_t time_fib(int64_t n, int reps, double *times) {
    volatile int64_t vn = n;
    TIME_LOOP(int64_t, fib(vn))
}

int64_t time_sum_squares(int64_t n, int reps, double *times) {
    volatile int64_t vn = n;
    TIME_LOOP(int64_t, sum_squares(vn))
}

double time_float_loop(int64_t n, int reps, double *times) {
    volatile int64_t vn = n;
    TIME_LOOP(double, float_loop(vn))
}

int64_t time_mandelbrot(int64_t width, int64_t height, int64_t max_iter, int reps,
                        double *times) {
    volatile int64_t vw = width, vh = height, vm = max_iter;
    TIME_LOOP(int64_t, mandelbrot(vw, vh, vm))
}

int64_t time_collatz_max_steps(int64_t limit, int reps, double *times) {
    volatile int64_t vn = limit;
    TIME_LOOP(int64_t, collatz_max_steps(vn))
}

int64_t time_count_primes(int64_t limit, int reps, double *times) {
    volatile int64_t vn = limit;
    TIME_LOOP(int64_t, count_primes(vn))
}
