"""The benchmark kernels, written once as plain Python.

The harness decorates every function here with ``kiln.njit`` in one subprocess and with
``numba.njit`` in another, replacing the module attribute, so that calls between kernels (the
recursive ``fib``, ``mandelbrot`` -> ``mandel_point``) go to the jitted function as they would
with ``@njit`` written in the source. ``kernels.c`` holds the C twin of each kernel.

Nothing here uses arrays: kiln compiles scalar code only so far.
"""

import math

# ---- per-call overhead: trivial bodies, the cost is the call itself ----------------------------


def ident_int(x):
    return x


def ident_float(x):
    return x


def add3(a, b, c):
    return a + b + c


def tuple_first(t):
    return t[0]


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
