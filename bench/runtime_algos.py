#!/usr/bin/env python3
"""runtime/'s algorithm routines (sort.c, select.c, search.c) measured and checked against NumPy.

    .venv/bin/python bench/runtime_algos.py              # speed: kn_rt_* vs NumPy, 10^6 items
    .venv/bin/python bench/runtime_algos.py --check 5    # NumPy oracle, seeds 0..4, bit-exact
    .venv/bin/python bench/runtime_algos.py --threshold  # insertion-sort cutoff KN_SORT_SMALL
    .venv/bin/python bench/runtime_algos.py --cpu        # CPU time instead of wall time

The kn_rt_* symbols are hidden in kiln._core, so this builds its own shared object from the
three runtime files (and memory.c, for their scratch memory) with the package's flags (gcc -O3 -std=c11 -D_GNU_SOURCE as llvm-config gives it, no -march) into
build/bench_rt/ and calls it through ctypes. Speed rounds alternate NumPy and kiln so that a slow
spell of the shared machine hits both; the table shows medians and the ratio kiln / NumPy. The
kiln column includes the copy that NumPy's np.sort / np.median make (the routines work in place
on a scratch copy). OPENBLAS_NUM_THREADS=1 keeps BLAS threads from spinning on the second core.
"""

import argparse
import collections
import ctypes
import os
import subprocess
import sys
import time

os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ['src/runtime/sort.c', 'src/runtime/select.c', 'src/runtime/search.c',
           'src/runtime/memory.c']
DTS = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
       'float32', 'float64', 'complex64', 'complex128']
CODE = {d: i for i, d in enumerate(DTS)}  # the KN_DT_* order of runtime.h


def build(defines=()):
    out = os.path.join(ROOT, 'build', 'bench_rt')
    os.makedirs(out, exist_ok=True)
    so = os.path.join(out, 'libkn_rt_algos%s.so' % ''.join('_' + d.replace('=', '') for d in defines))
    cmd = [os.environ.get('CC', 'gcc'), '-O3', '-std=c11', '-D_GNU_SOURCE', '-fPIC', '-shared', '-I' + os.path.join(ROOT, 'src')]
    cmd += ['-D' + d for d in defines] + [os.path.join(ROOT, s) for s in SOURCES] + ['-o', so]
    subprocess.run(cmd, check=True)
    return load(so)


def load(so):
    L = ctypes.CDLL(so)
    P, I64, I32, D = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32, ctypes.c_double
    sig = {
        'kn_rt_sort': ([P, I64, I64, I32], None),
        'kn_rt_argsort': ([P, I64, I64, I32, P], None),
        'kn_rt_unique': ([P, I64, I32], I64),
        'kn_rt_quantiles': ([P, I64, I32, P, I64, P], None),
        'kn_rt_quantiles_f32': ([P, I64, P, I64, P], None),
        'kn_rt_median': ([P, I64, I32], D),
        'kn_rt_median_f32': ([P, I64], ctypes.c_float),
        'kn_rt_searchsorted': ([P, I64, P, I64, I32, I32, P], None),
        'kn_rt_digitize': ([P, I64, P, I64, I32, I32, P], I32),
        'kn_rt_interp': ([P, I64, P, P, I64, D, D, P], None),
        'kn_rt_interp_complex': ([P, I64, P, P, I64, P, P, P], None),
        'kn_rt_histogram': ([P, I64, D, D, I64, P], None),
        'kn_rt_histogram_edges': ([P, I64, P, I64, P], None),
        'kn_rt_linspace_edges': ([D, D, I64, P], None),
    }
    for name, (args, res) in sig.items():
        f = getattr(L, name)
        f.argtypes, f.restype = args, res
    return L


def ptr(a):
    return a.ctypes.data


# ---- speed ------------------------------------------------------------------------------------

CLOCK = time.perf_counter  # --cpu: time.process_time (this process's CPU time only)


def rounds(fns, reps):
    times = collections.defaultdict(list)
    for _ in range(reps):
        for name, f in fns.items():
            t = CLOCK()
            f()
            times[name].append(CLOCK() - t)
    return {k: float(np.median(v)) for k, v in times.items()}


def speed(L, reps):
    rng = np.random.default_rng(0)
    n = 10 ** 6
    data = {
        'float64': rng.random(n),
        'float64 normal': rng.standard_normal(n),
        'float64 exponential': rng.exponential(size=n),
        'float32': rng.random(n).astype(np.float32),
        'int64': rng.integers(-2 ** 62, 2 ** 62, n),
    }
    rows = []
    for label, x in data.items():
        dt = str(x.dtype)

        def mine(x=x, dt=dt):
            y = x.copy()
            L.kn_rt_sort(ptr(y), n, 1, CODE[dt])
            return y
        assert np.array_equal(mine(), np.sort(x))
        t = rounds({'numpy': lambda x=x: np.sort(x), 'kiln': mine}, reps)
        rows.append(('np.sort %s 1e6 random' % label, t))
    x = data['float64']

    def med():
        y = x.copy()
        return L.kn_rt_median(ptr(y), n, CODE['float64'])

    q = np.array([0.375])
    out = np.empty(1)

    def pct():
        y = x.copy()
        L.kn_rt_quantiles(ptr(y), n, CODE['float64'], ptr(q), 1, ptr(out))
        return out[0]

    assert med() == np.median(x) and pct() == np.percentile(x, 37.5)
    rows.append(('np.median float64 1e6', rounds({'numpy': lambda: np.median(x), 'kiln': med}, reps)))
    rows.append(('np.percentile(x, 37.5) float64 1e6',
                 rounds({'numpy': lambda: np.percentile(x, 37.5), 'kiln': pct}, reps)))
    # the rest have no target; for the record
    o = np.empty(n, np.int64)

    def argsort():
        L.kn_rt_argsort(ptr(x), n, 1, CODE['float64'], ptr(o))
        return o

    assert np.array_equal(argsort(), np.argsort(x, kind='stable'))
    rows.append(('np.argsort(kind=stable) float64 1e6',
                 rounds({'numpy': lambda: np.argsort(x, kind='stable'), 'kiln': argsort}, reps)))
    a = np.sort(rng.random(10 ** 4))
    so = np.empty(n, np.int64)
    rows.append(('np.searchsorted 1e6 keys, 1e4 sorted', rounds({
        'numpy': lambda: np.searchsorted(a, x),
        'kiln': lambda: L.kn_rt_searchsorted(ptr(a), len(a), ptr(x), n, CODE['float64'], 0, ptr(so))},
        reps)))
    xp = np.sort(rng.random(1000))
    fp = rng.random(1000)
    io = np.empty(n)
    rows.append(('np.interp 1e6 x, 1e3 xp', rounds({
        'numpy': lambda: np.interp(x, xp, fp),
        'kiln': lambda: L.kn_rt_interp(ptr(x), n, ptr(xp), ptr(fp), 1000, fp[0], fp[-1], ptr(io))},
        reps)))
    h = np.empty(100, np.int64)
    rows.append(('np.histogram 1e6, 100 bins, range', rounds({
        'numpy': lambda: np.histogram(x, 100, (0.0, 1.0)),
        'kiln': lambda: L.kn_rt_histogram(ptr(x), n, 0.0, 1.0, 100, ptr(h))}, reps)))
    print('| %-36s | %9s | %9s | %6s |' % ('operation', 'NumPy ms', 'kiln ms', 'ratio'))
    print('|' + '-' * 38 + '|' + '-' * 11 + '|' + '-' * 11 + '|' + '-' * 8 + '|')
    for name, t in rows:
        print('| %-36s | %9.2f | %9.2f | %6.2f |' % (name, t['numpy'] * 1e3, t['kiln'] * 1e3,
                                                  t['kiln'] / t['numpy']))


def threshold(reps):
    """kn_rt_sort of many short rows for several insertion-sort cutoffs."""
    rng = np.random.default_rng(1)
    libs = {c: build(['KN_SORT_SMALL=%d' % c]) for c in (8, 16, 32, 64, 128)}
    print('ms to sort 2^20 float64 in rows of n, by KN_SORT_SMALL')
    print('n      ' + ''.join('%8d' % c for c in libs))
    for n in (16, 24, 32, 48, 64, 96, 128, 256, 1024):
        x = rng.random(2 ** 20)
        rows_ = len(x) // n
        fns = {}
        for c, L in libs.items():
            def f(L=L):
                y = x.copy()
                L.kn_rt_sort(ptr(y), n, rows_, CODE['float64'])
            fns[c] = f
        t = rounds(fns, reps)
        print('%-7d' % n + ''.join('%8.2f' % (t[c] * 1e3) for c in libs))


# ---- NumPy oracle ------------------------------------------------------------------------------

class Oracle:
    def __init__(self, L, seed):
        self.L, self.rng = L, np.random.default_rng(seed)
        self.count, self.fails = collections.Counter(), collections.Counter()

    def fail(self, name, *info):
        self.fails[name] += 1
        if self.fails[name] <= 3:
            print('FAIL', name, *info)

    def real(self, dt, n):
        rng, dt = self.rng, np.dtype(dt)
        kind = rng.integers(0, 4)
        if dt == np.bool_:
            return rng.integers(0, 2, n).astype(bool)
        if dt.kind in 'iu':
            info = np.iinfo(dt)
            if kind == 0:
                return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
            return rng.integers(max(info.min, -5), 6, n).astype(dt)  # duplicates
        specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 5e-324, 1e308])
        if kind == 0:
            return rng.standard_normal(n).astype(dt)
        if kind == 1:
            return rng.integers(-3, 4, n).astype(dt)
        if kind == 2:
            return rng.choice(specials.astype(dt), n)
        mag = rng.random(n) * 10.0 ** rng.integers(-30, 30, n)
        return (mag * rng.choice([-1.0, 1.0], n)).astype(dt)

    def gen(self, dt, n):
        if np.dtype(dt).kind != 'c':
            return self.real(dt, n)
        part = 'float32' if dt == 'complex64' else 'float64'
        z = np.empty(n, dt)
        z.real, z.imag = self.real(part, n), self.real(part, n)
        return z

    @staticmethod
    def same(a, b, sign=False):
        if a.dtype.kind in 'fc':
            ok = np.array_equal(a, b, equal_nan=True)
            if not ok or not sign or a.dtype.kind == 'c':
                return ok
            keep = ~np.isnan(a)  # which NaN comes back is not specified
            return np.array_equal(np.signbit(a[keep]), np.signbit(b[keep]))
        return np.array_equal(a, b)

    def sorting(self):
        L, c = self.L, self.count
        for dt in DTS:
            for n in (0, 1, 2, 3, 5, 17, 33, 64, 100, 257, 1000, 5000, 70000):
                for rep in range(3 if n < 10000 else 1):
                    x = self.gen(dt, n)
                    rows = 2 if rep == 1 and n >= 2 else 1
                    xs = x[: (n // rows) * rows]
                    m = len(xs) // rows
                    shaped = xs.reshape(rows, m) if rows > 1 else xs
                    y = xs.copy()
                    L.kn_rt_sort(ptr(y), m, rows, CODE[dt])
                    c['sort'] += 1
                    if not self.same(y, np.sort(shaped, axis=-1).ravel()):
                        self.fail('sort', dt, n)
                    o = np.empty(len(xs), np.int64)
                    L.kn_rt_argsort(ptr(xs), m, rows, CODE[dt], ptr(o))
                    c['argsort'] += 1
                    if not np.array_equal(o, np.argsort(shaped, axis=-1, kind='stable').ravel()):
                        self.fail('argsort', dt, n)
                    y = x.copy()
                    L.kn_rt_sort(ptr(y), n, 1, CODE[dt])
                    k = L.kn_rt_unique(ptr(y), n, CODE[dt])
                    c['unique'] += 1
                    if not self.same(y[:k], np.unique(x)):
                        self.fail('unique', dt, n)
                    if n and np.dtype(dt).kind != 'c':
                        self.quantiles(dt, x)

    def sorting_shapes(self):
        """Long rows whose keys load the radix sort's deep levels and its depth limit."""
        L, c, rng = self.L, self.count, self.rng
        n = 300000
        shapes = {
            'few values': lambda: rng.integers(0, 5, n).astype(float),
            'powers of two': lambda: 2.0 ** rng.integers(-1000, 1000, n),
            'sorted': lambda: np.sort(rng.standard_normal(n)),
            'reversed': lambda: np.sort(rng.standard_normal(n))[::-1].copy(),
            'cluster and outliers': lambda: np.concatenate(
                [1 + rng.random(n - 10) * 1e-12, rng.standard_normal(10) * 1e300]),
            'near ties': lambda: 1.0 + rng.integers(0, 1 << 20, n) * 2.0 ** -52,
        }
        for name, make in shapes.items():
            x = make()
            for dt in ('float64', 'float32', 'int64', 'int32', 'uint16'):
                with np.errstate(all='ignore'):
                    xd = x.astype(dt) if dt.startswith('float') else (x * 1e3).astype(dt)
                y = xd.copy()
                L.kn_rt_sort(ptr(y), n, 1, CODE[dt])
                c['sort'] += 1
                if not self.same(y, np.sort(xd)):
                    self.fail('sort', name, dt)
                o = np.empty(n, np.int64)
                L.kn_rt_argsort(ptr(xd), n, 1, CODE[dt], ptr(o))
                c['argsort'] += 1
                if not np.array_equal(o, np.argsort(xd, kind='stable')):
                    self.fail('argsort', name, dt)

    def long_rows(self):
        """Several long rows in one call (the scratch buffers are reused row after row)."""
        L, c, rng = self.L, self.count, self.rng
        for dt in ('float32', 'int32', 'uint16', 'int8', 'float64', 'int64', 'bool'):
            for rows, n in ((3, 70000), (2, 131072)):
                x = (rng.standard_normal(rows * n) * 1000).astype(dt)
                if dt.startswith('float'):
                    x[rng.integers(0, rows * n, 100)] = np.nan
                y = x.copy()
                L.kn_rt_sort(ptr(y), n, rows, CODE[dt])
                c['sort'] += 1
                if not self.same(y, np.sort(x.reshape(rows, n), axis=1).ravel()):
                    self.fail('sort rows', dt, rows, n)
                o = np.empty(rows * n, np.int64)
                L.kn_rt_argsort(ptr(x), n, rows, CODE[dt], ptr(o))
                c['argsort'] += 1
                if not np.array_equal(o, np.argsort(x.reshape(rows, n), axis=1, kind='stable').ravel()):
                    self.fail('argsort rows', dt, rows, n)

    def quantiles(self, dt, x):
        L, c, n = self.L, self.count, len(x)
        qs = np.concatenate([[0.0, 1.0, 0.5, 0.25, 0.75], self.rng.random(4)])
        # ties of -0.0 and +0.0 may sit in either order in NumPy's partition: signs are compared
        # only when the data has at most one zero
        sign = (x == 0).sum() < 2
        if dt != 'bool':  # NumPy: no boolean subtract
            out, s = np.empty(len(qs)), x.copy()
            L.kn_rt_quantiles(ptr(s), n, CODE[dt], ptr(qs), len(qs), ptr(out))
            c['quantiles'] += 1
            if not self.same(out, np.quantile(x, qs), sign):
                self.fail('quantiles', dt, n, out, np.quantile(x, qs))
        if dt == 'float32':
            for qv in qs:
                s, o32 = x.copy(), np.empty(1, np.float32)
                L.kn_rt_quantiles_f32(ptr(s), n, ptr(np.array([qv])), 1, ptr(o32))
                ref = np.quantile(x, float(qv))
                c['quantiles_f32'] += 1
                if ref.dtype != np.float32 or not self.same(o32, np.array([ref]), sign):
                    self.fail('quantiles_f32', n, qv, o32, ref)
        s = x.copy()
        if dt == 'float32':
            med = np.float32(L.kn_rt_median_f32(ptr(s), n))
        else:
            med = np.float64(L.kn_rt_median(ptr(s), n, CODE[dt]))
        ref = np.median(x)
        c['median'] += 1
        if med.dtype != ref.dtype or not self.same(np.array([med]), np.array([ref]), True):
            self.fail('median', dt, n, med, ref)

    def searching(self):
        L, c = self.L, self.count
        for dt in DTS:
            for n in (0, 1, 2, 7, 100, 3000):
                for rep in range(4):
                    a = np.sort(self.gen(dt, n))
                    v = self.gen(dt, 50)
                    if rep == 3:
                        v = np.concatenate([a, v])
                    for side in (0, 1):
                        o = np.empty(len(v), np.int64)
                        L.kn_rt_searchsorted(ptr(a), n, ptr(v), len(v), CODE[dt], side, ptr(o))
                        c['searchsorted'] += 1
                        if not np.array_equal(o, np.searchsorted(a, v, side='right' if side else 'left')):
                            self.fail('searchsorted', dt, n, side)
                    if np.dtype(dt).kind == 'c':
                        continue
                    bins = np.sort(self.gen(dt, n))
                    if rep == 1:
                        bins = bins[::-1].copy()
                    if rep == 2 and n > 3:
                        bins = self.gen(dt, n)  # usually not monotonic
                    x = self.gen(dt, 60)
                    for right in (0, 1):
                        o = np.empty(len(x), np.int64)
                        rc = L.kn_rt_digitize(ptr(x), len(x), ptr(bins), n, CODE[dt], right, ptr(o))
                        c['digitize'] += 1
                        try:
                            ref = np.digitize(x, bins, right=bool(right))
                        except ValueError:
                            if rc != -1:
                                self.fail('digitize monotonic', dt, n)
                            continue
                        if rc != 0 or not np.array_equal(o, ref):
                            self.fail('digitize', dt, n, right, rc)

    def interp(self):
        L, c, rng = self.L, self.count, self.rng
        for rep in range(300):
            nxp = int(rng.choice([1, 2, 3, 4, 5, 6, 10, 50, 200]))
            xp = np.sort(self.real('float64', nxp)) if rep % 3 else np.sort(rng.standard_normal(nxp))
            if rep % 7 == 0:
                xp = np.sort(rng.integers(-3, 3, nxp).astype(float))  # repeated xp
            if rep % 11 == 0:
                xp = self.real('float64', nxp)  # unsorted: NumPy's answer all the same
            fp = self.real('float64', nxp) if rep % 2 else rng.standard_normal(nxp)
            nx = int(rng.choice([1, 5, 100, 300]))
            x = np.concatenate([self.real('float64', nx), xp, rng.standard_normal(nx) * 3])
            left, right = (fp[0], fp[-1]) if rep % 4 else (float(rng.standard_normal()), np.nan)
            out = np.empty(len(x))
            L.kn_rt_interp(ptr(x), len(x), ptr(xp), ptr(fp), nxp, left, right, ptr(out))
            c['interp'] += 1
            if not self.same(out, np.interp(x, xp, fp, left=left, right=right), True):
                self.fail('interp', nxp, rep)
            fc = np.empty(nxp, np.complex128)
            fc.real, fc.imag = fp, self.real('float64', nxp)
            lc = np.array([fc[0] if rep % 4 else 1 + 2j])
            rc = np.array([fc[-1]])
            outc = np.empty(len(x), np.complex128)
            L.kn_rt_interp_complex(ptr(x), len(x), ptr(xp), ptr(fc), nxp, ptr(lc), ptr(rc), ptr(outc))
            c['interp_complex'] += 1
            if not self.same(outc, np.interp(x, xp, fc, left=lc[0], right=rc[0])):
                self.fail('interp_complex', nxp, rep)

    def histogram(self):
        L, c, rng = self.L, self.count, self.rng
        for rep in range(300):
            n = int(rng.choice([0, 1, 10, 1000, 20000]))
            a = self.real('float64', n) if rep % 2 else rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4)
            lo = float(rng.standard_normal() * 10.0 ** rng.integers(-3, 4))
            hi = lo + abs(float(rng.standard_normal())) * 10.0 ** rng.integers(-12, 4) + 1e-300
            if not lo < hi:
                continue
            nb = int(rng.choice([1, 2, 3, 10, 97, 1000]))
            if rep % 3 == 0:
                a = np.concatenate([a, np.linspace(lo, hi, nb + 1)])  # values on the edges
            try:
                ref = np.histogram(a, bins=nb, range=(lo, hi))[0]
            except ValueError:  # too many bins for the range
                continue
            h = np.empty(nb, np.int64)
            L.kn_rt_histogram(ptr(a), len(a), lo, hi, nb, ptr(h))
            c['histogram'] += 1
            if not np.array_equal(h, ref):
                self.fail('histogram', n, nb, lo, hi)
            e = np.empty(nb + 1)
            L.kn_rt_linspace_edges(lo, hi, nb, ptr(e))
            c['linspace_edges'] += 1
            if not self.same(e, np.linspace(lo, hi, nb + 1), True):
                self.fail('linspace', lo, hi, nb)
            edges = np.sort(np.concatenate([rng.standard_normal(nb), rng.choice(a, min(3, len(a)))
                                            if len(a) and np.isfinite(a).all() else []]))
            if rep % 4 == 0 and len(edges) > 2:
                edges[1] = edges[2]  # a repeated edge
            if len(edges) >= 2:
                h = np.empty(len(edges) - 1, np.int64)
                L.kn_rt_histogram_edges(ptr(a), len(a), ptr(edges), len(edges), ptr(h))
                c['histogram_edges'] += 1
                if not np.array_equal(h, np.histogram(a, bins=edges)[0]):
                    self.fail('histogram_edges', n, len(edges))


def check(L, seeds):
    import warnings
    warnings.simplefilter('ignore')  # NumPy's own overflow warnings in quantile's lerp
    total, failed = collections.Counter(), collections.Counter()
    for seed in range(seeds):
        o = Oracle(L, seed)
        o.sorting()
        o.sorting_shapes()
        o.long_rows()
        o.searching()
        o.interp()
        o.histogram()
        total.update(o.count)
        failed.update(o.fails)
    print('NumPy %s, %d seeds: comparisons per routine (failures)' % (np.__version__, seeds))
    for name in sorted(total):
        print('  %-16s %6d  (%d)' % (name, total[name], failed[name]))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--check', type=int, metavar='SEEDS', help='compare with NumPy on SEEDS seeds')
    ap.add_argument('--threshold', action='store_true', help='time insertion-sort cutoffs')
    ap.add_argument('--reps', type=int, default=21)
    ap.add_argument('--cpu', action='store_true',
                    help='time CPU time, not wall time (steadier when the machine is loaded)')
    args = ap.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    if args.threshold:
        threshold(args.reps)
        return 0
    L = build()
    if args.check:
        return check(L, args.check)
    speed(L, args.reps)
    return 0


if __name__ == '__main__':
    sys.exit(main())
