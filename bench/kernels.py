"""The benchmark kernels, written once as plain Python.

The harness decorates every function here with ``kiln.njit`` in one subprocess and with
``numba.njit`` in another, replacing the module attribute, so that calls between kernels (the
recursive ``fib``, ``mandelbrot`` -> ``mandel_point``) go to the jitted function as they would
with ``@njit`` written in the source. ``kernels.c`` holds the C twin of each kernel.

The array kernels (second half) take NumPy arrays and use explicit loops and integer indexing
only (no slicing, reshape or axis= reductions): they measure compiled loops, which is what the
JITs are for. Their vectorised NumPy versions, for the NumPy column, are the ``np_*`` functions
at the end; the harness never jits those.
"""

import math

import numpy as np

# ---- per-call overhead: trivial bodies, the cost is the call itself ----------------------------


def ident_int(x):
    return x


def ident_float(x):
    return x


def add3(a, b, c):
    return a + b + c


def tuple_first(t):
    return t[0]


def array_first(a):
    return a[0]


def arrays3_first(a, b, c):
    return a[0] + b[0] + c[0]


# ---- first-call latency ------------------------------------------------------------------------


def first_call(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5
    return s


# ---- scalar kernels ----------------------------------------------------------------------------


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def sum_squares(n):
    # With n = 10**7 the sum (~3.3e20) overflows int64: the compiled versions (and the C twin)
    # wrap modulo 2**64, as Numba's int64 does. Plain Python would give the exact big integer.
    s = 0
    for i in range(n):
        s += i * i
    return s


def float_loop(n):
    s = 0.0
    for i in range(n):
        x = i * 0.001
        s += math.sqrt(x) * math.sin(x)
    return s


def mandel_point(cr, ci, max_iter):
    zr = 0.0
    zi = 0.0
    for k in range(max_iter):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return k
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
    return max_iter


def mandelbrot(width, height, max_iter):
    total = 0
    for y in range(height):
        ci = -1.5 + 3.0 * y / height
        for x in range(width):
            cr = -2.0 + 3.0 * x / width
            total += mandel_point(cr, ci, max_iter)
    return total


def collatz_max_steps(limit):
    best = 0
    for start in range(1, limit):
        n = start
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        if steps > best:
            best = steps
    return best


def count_primes(limit):
    count = 0
    for n in range(2, limit):
        is_prime = True
        d = 2
        while d * d <= n:
            if n % d == 0:
                is_prime = False
                break
            d += 1
        if is_prime:
            count += 1
    return count


# ---- array kernels -----------------------------------------------------------------------------


def go_fast(a):  # the seed example (examples/go_fast.py)
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def array_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def array_dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def matmul(a, b):
    # i, k, j order (the inner loop walks rows of b and c, as C programmers write it).
    n = a.shape[0]
    m = a.shape[1]
    p = b.shape[1]
    c = np.zeros((n, p))
    for i in range(n):
        for k in range(m):
            for j in range(p):
                c[i, j] += a[i, k] * b[k, j]
    return c


def mandelbrot_grid(counts, max_iter):
    # Fills counts (height x width, int64) with escape counts; mandel_point is the scalar
    # kernel above.
    height = counts.shape[0]
    width = counts.shape[1]
    for y in range(height):
        ci = -1.5 + 3.0 * y / height
        for x in range(width):
            cr = -2.0 + 3.0 * x / width
            counts[y, x] = mandel_point(cr, ci, max_iter)


def nbody_step(pos, vel, mass, dt):
    # One step of a softened gravitational n-body system, pos and vel (n, 3) updated in place.
    # The softening makes the j == i term exactly zero (dx = dy = dz = 0), so no branch.
    n = pos.shape[0]
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + 0.01
            f = mass[j] / (r2 * math.sqrt(r2))
            ax += f * dx
            ay += f * dy
            az += f * dz
        vel[i, 0] += dt * ax
        vel[i, 1] += dt * ay
        vel[i, 2] += dt * az
    for i in range(n):
        pos[i, 0] += dt * vel[i, 0]
        pos[i, 1] += dt * vel[i, 1]
        pos[i, 2] += dt * vel[i, 2]


def jacobi(a, sweeps):
    # sweeps Jacobi sweeps of the 2-D Laplace stencil over the interior; the border stays.
    n = a.shape[0]
    m = a.shape[1]
    u = a.copy()
    v = a.copy()
    for s in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        u, v = v, u
    return u


def pairwise_distances(x):
    n = x.shape[0]
    d = x.shape[1]
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = x[i, k] - x[j, k]
                s += t * t
            out[i, j] = math.sqrt(s)
    return out


def prefix_sum(a):
    out = np.empty_like(a)
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s
    return out


def array_expr(a, b, c):
    return a * b + c * 2.0 - np.sqrt(a)


# ---- vectorised NumPy versions (the NumPy column; never jitted) --------------------------------


def np_go_fast(a):
    return a + np.tanh(np.diagonal(a)).sum()


def np_array_sum(a):
    return a.sum()


def np_array_dot(a, b):
    return np.dot(a, b)


def np_matmul(a, b):
    return a @ b


def np_mandelbrot_grid(counts, max_iter):
    # Iterates every point of the grid at once, the same arithmetic per point as mandel_point;
    # points that escaped keep iterating (masked out of counts), hence errstate.
    height, width = counts.shape
    ci = (-1.5 + 3.0 * np.arange(height) / height)[:, None]
    cr = (-2.0 + 3.0 * np.arange(width) / width)[None, :]
    zr = np.zeros(counts.shape)
    zi = np.zeros(counts.shape)
    counts[...] = max_iter
    active = np.ones(counts.shape, dtype=bool)
    with np.errstate(all="ignore"):
        for k in range(max_iter):
            zr2 = zr * zr
            zi2 = zi * zi
            escaped = active & (zr2 + zi2 > 4.0)
            counts[escaped] = k
            active &= ~escaped
            zi = 2.0 * zr * zi + ci
            zr = zr2 - zi2 + cr


def np_nbody_step(pos, vel, mass, dt):
    d = pos[None, :, :] - pos[:, None, :]  # d[i, j] = pos[j] - pos[i]
    r2 = (d * d).sum(axis=2) + 0.01
    f = mass[None, :] / (r2 * np.sqrt(r2))
    vel += dt * (f[:, :, None] * d).sum(axis=1)
    pos += dt * vel


def np_jacobi(a, sweeps):
    u = a.copy()
    v = a.copy()
    for s in range(sweeps):
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        u, v = v, u
    return u


def np_pairwise_distances(x):
    d = x[:, None, :] - x[None, :, :]
    return np.sqrt((d * d).sum(axis=2))


def np_prefix_sum(a):
    return np.cumsum(a)


np_array_expr = array_expr  # the kernel is NumPy code already
