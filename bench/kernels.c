/* The C twins of bench/kernels.py, one function per Python kernel, with the same arithmetic in
 * the same order (doubles where Python has floats, int64 where the JITs have int64).
 *
 * run.py compiles this with gcc -O3 -march=native -ffp-contract=off -fno-math-errno -shared
 * -fPIC and calls the time_* entry points through ctypes. Each one runs its kernel `reps` times
 * and stores the time of each run (clock_gettime, CLOCK_MONOTONIC, in seconds) in times[], so
 * the ctypes call costs nothing that is measured. The argument is read from a volatile before
 * each run and the result written to a volatile, so the compiler cannot hoist the kernel out of
 * the timing loop; within one run it may optimise the kernel as it likes (as the JITs may).
 *
 * -ffp-contract=off: GCC otherwise fuses a*b+c into one FMA instruction under -march=native,
 * which rounds differently from Python; the JITs do not fuse by default (no fastmath), and with
 * fusion the float results (and the mandelbrot counts) would not match Python's.
 * -fno-math-errno: sqrt() need not set errno (Python raises instead; the JITs never set it), so
 * gcc may vectorise loops that call it, as LLVM does; the results do not change.
 *
 * The array kernels (second half) take double* (int64_t* for integer arrays) with explicit
 * sizes, C-contiguous, as the harness passes NumPy arrays. Where the Python kernel returns a new
 * array, the C twin writes into the caller's `out` buffer, allocated (and its pages touched) by
 * the harness before timing: the C column is the computation alone, without the allocation and
 * first-touch page faults that a fresh result array can cost the JITs. What the Python kernel
 * does to the new memory is timed (np.zeros -> memset, a.copy() -> memcpy). In-place kernels get
 * fresh copies of their inputs before each run, outside the timed region. The entry points take
 * `number`, the calls per timed sample (times[r] is the time of one call: the sample's time
 * divided by number), for kernels too short to time one call at a time.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
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

/* ---- array kernels ---------------------------------------------------------------------- */

/* go_fast: out = a + sum(tanh(a[i, i])), a n x m (int64 or double), out n x m doubles. */
static void go_fast_i64(const int64_t *a, int64_t n, int64_t m, double *out) {
    double trace = 0.0;
    for (int64_t i = 0; i < n; i++)
        trace += tanh((double)a[i * m + i]);
    for (int64_t k = 0; k < n * m; k++)
        out[k] = (double)a[k] + trace;
}

static void go_fast_f64(const double *a, int64_t n, int64_t m, double *out) {
    double trace = 0.0;
    for (int64_t i = 0; i < n; i++)
        trace += tanh(a[i * m + i]);
    for (int64_t k = 0; k < n * m; k++)
        out[k] = a[k] + trace;
}

static double array_sum(const double *a, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

static double array_dot(const double *a, const double *b, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* c (n x p, zeroed) = a (n x m) @ b (m x p), i, k, j order. */
static void matmul(const double *a, const double *b, int64_t n, int64_t m, int64_t p, double *c) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < m; k++)
            for (int64_t j = 0; j < p; j++)
                c[i * p + j] += a[i * m + k] * b[k * p + j];
}

static void mandelbrot_grid(int64_t *counts, int64_t height, int64_t width, int64_t max_iter) {
    for (int64_t y = 0; y < height; y++) {
        double ci = -1.5 + 3.0 * (double)y / (double)height;
        for (int64_t x = 0; x < width; x++) {
            double cr = -2.0 + 3.0 * (double)x / (double)width;
            counts[y * width + x] = mandel_point(cr, ci, max_iter);
        }
    }
}

/* pos, vel: n x 3, updated in place. */
static void nbody_step(double *pos, double *vel, const double *mass, int64_t n, double dt) {
    for (int64_t i = 0; i < n; i++) {
        double ax = 0.0, ay = 0.0, az = 0.0;
        for (int64_t j = 0; j < n; j++) {
            double dx = pos[3 * j] - pos[3 * i];
            double dy = pos[3 * j + 1] - pos[3 * i + 1];
            double dz = pos[3 * j + 2] - pos[3 * i + 2];
            double r2 = dx * dx + dy * dy + dz * dz + 0.01;
            double f = mass[j] / (r2 * sqrt(r2));
            ax += f * dx;
            ay += f * dy;
            az += f * dz;
        }
        vel[3 * i] += dt * ax;
        vel[3 * i + 1] += dt * ay;
        vel[3 * i + 2] += dt * az;
    }
    for (int64_t i = 0; i < n; i++) {
        pos[3 * i] += dt * vel[3 * i];
        pos[3 * i + 1] += dt * vel[3 * i + 1];
        pos[3 * i + 2] += dt * vel[3 * i + 2];
    }
}

/* u, v: n x m work arrays (the two copies of a); returns the one holding the result. */
static double *jacobi(const double *a, int64_t n, int64_t m, int64_t sweeps, double *u,
                      double *v) {
    size_t bytes = (size_t)(n * m) * sizeof(double);
    memcpy(u, a, bytes);
    memcpy(v, a, bytes);
    for (int64_t s = 0; s < sweeps; s++) {
        for (int64_t i = 1; i < n - 1; i++)
            for (int64_t j = 1; j < m - 1; j++)
                v[i * m + j] = 0.25 * (u[(i - 1) * m + j] + u[(i + 1) * m + j] +
                                       u[i * m + j - 1] + u[i * m + j + 1]);
        double *t = u;
        u = v;
        v = t;
    }
    return u;
}

static void pairwise_distances(const double *x, int64_t n, int64_t d, double *out) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0.0;
            for (int64_t k = 0; k < d; k++) {
                double t = x[i * d + k] - x[j * d + k];
                s += t * t;
            }
            out[i * n + j] = sqrt(s);
        }
}

static void prefix_sum(const double *a, int64_t n, double *out) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) {
        s += a[i];
        out[i] = s;
    }
}

static void array_expr(const double *a, const double *b, const double *c, int64_t n,
                       double *out) {
    for (int64_t i = 0; i < n; i++)
        out[i] = a[i] * b[i] + c[i] * 2.0 - sqrt(a[i]);
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

/* ---- array kernels' timing entry points --------------------------------------------------
 * (inputs..., number, reps, times, outputs...); the input pointers are read from volatiles. */

/* Times `number` calls of BODY (which writes the result into out) per timed sample. */
#define TIME_OUT(BODY)                                                                         \
    for (int r = 0; r < reps; r++) {                                                           \
        double t0 = now();                                                                     \
        for (int64_t k = 0; k < number; k++) {                                                 \
            BODY;                                                                              \
        }                                                                                      \
        times[r] = (now() - t0) / (double)number;                                              \
    }

void time_go_fast_i64(const int64_t *a, int64_t n, int64_t m, int64_t number, int reps,
                      double *times, double *out) {
    const int64_t *volatile va = a;
    TIME_OUT(go_fast_i64(va, n, m, out))
}

void time_go_fast_f64(const double *a, int64_t n, int64_t m, int64_t number, int reps,
                      double *times, double *out) {
    const double *volatile va = a;
    TIME_OUT(go_fast_f64(va, n, m, out))
}

double time_array_sum(const double *a, int64_t n, int64_t number, int reps, double *times) {
    const double *volatile va = a;
    volatile double sink = 0.0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (int64_t k = 0; k < number; k++)
            sink = array_sum(va, n);
        times[r] = (now() - t0) / (double)number;
    }
    return sink;
}

double time_array_dot(const double *a, const double *b, int64_t n, int64_t number, int reps,
                      double *times) {
    const double *volatile va = a;
    volatile double sink = 0.0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (int64_t k = 0; k < number; k++)
            sink = array_dot(va, b, n);
        times[r] = (now() - t0) / (double)number;
    }
    return sink;
}

void time_matmul(const double *a, const double *b, int64_t n, int64_t m, int64_t p,
                 int64_t number, int reps, double *times, double *out) {
    const double *volatile va = a;
    TIME_OUT({
        memset(out, 0, (size_t)(n * p) * sizeof(double)); /* np.zeros */
        matmul(va, b, n, m, p, out);
    })
}

void time_mandelbrot_grid(int64_t height, int64_t width, int64_t max_iter, int64_t number,
                          int reps, double *times, int64_t *counts) {
    int64_t *volatile vc = counts;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (int64_t k = 0; k < number; k++)
            mandelbrot_grid(vc, height, width, max_iter);
        times[r] = (now() - t0) / (double)number;
    }
}

void time_nbody_step(const double *pos0, const double *vel0, const double *mass, int64_t n,
                     double dt, int64_t number, int reps, double *times, double *pos,
                     double *vel) {
    double *volatile vp = pos;
    size_t bytes = (size_t)(3 * n) * sizeof(double);
    for (int r = 0; r < reps; r++) {
        double t = 0.0;
        for (int64_t k = 0; k < number; k++) { /* fresh inputs before each call, untimed */
            memcpy(pos, pos0, bytes);
            memcpy(vel, vel0, bytes);
            double t0 = now();
            nbody_step(vp, vel, mass, n, dt);
            t += now() - t0;
        }
        times[r] = t / (double)number;
    }
}

/* work: n x m scratch (jacobi's second array); the result is copied to out (untimed) when it
 * ends in work. */
void time_jacobi(const double *a, int64_t n, int64_t m, int64_t sweeps, int64_t number,
                 int reps, double *times, double *out, double *work) {
    const double *volatile va = a;
    double *res = out;
    TIME_OUT(res = jacobi(va, n, m, sweeps, out, work))
    if (res != out)
        memcpy(out, res, (size_t)(n * m) * sizeof(double));
}

void time_pairwise_distances(const double *x, int64_t n, int64_t d, int64_t number, int reps,
                             double *times, double *out) {
    const double *volatile vx = x;
    TIME_OUT(pairwise_distances(vx, n, d, out))
}

void time_prefix_sum(const double *a, int64_t n, int64_t number, int reps, double *times,
                     double *out) {
    const double *volatile va = a;
    TIME_OUT(prefix_sum(va, n, out))
}

void time_array_expr(const double *a, const double *b, const double *c, int64_t n,
                     int64_t number, int reps, double *times, double *out) {
    const double *volatile va = a;
    TIME_OUT(array_expr(va, b, c, n, out))
}
