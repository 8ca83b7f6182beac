#!/usr/bin/env python3
"""@stencil (issue 12): kiln vs Numba vs scipy.ndimage, side by side in one run.

    .venv/bin/python bench/stencil.py            # ~1 min
    .venv/bin/python bench/stencil.py --quick

Each engine runs in a subprocess of its own; every number is the median of rounds. The kernel
is the 2-D 5-point average ``0.25 * (a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1])`` on an N x N
float64 array (N = 2000):

* ``call``: the stencil called from Python (the output allocated by the call);
* ``reflect``: kiln's mode='reflect' (every point, border by the index rule) vs
  ``scipy.ndimage.correlate(mode='reflect')`` with the same weights; scipy's mode='constant' is
  in the ``call`` row (scipy computes the border too, with cval outside);
* ``in njit``: the stencil called inside a jitted function, out= given (no allocation);
* ``small``: a 10 x 10 array from Python (the call's overhead);
  Numba's StencilFunc compiles its loop nest again at every call from Python (its
  ``__call__`` runs ``_stencil_wrapper``), so its Python-call rows are a compile each (3 rounds);
* ``first call``: decoration and first call of a fresh stencil in a fresh process (compile).

Reports only: nothing is asserted.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

SCRIPT = r'''
import json, sys, time
t_start = time.perf_counter()
engine, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import numpy as np
res = {}
a = np.random.default_rng(0).random((n, n))
small = np.random.default_rng(1).random((10, 10))

def med(f, k=rounds):
    ts = []
    for _ in range(k):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]

def five(a):
    return 0.25 * (a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1])

if engine == "scipy":
    import scipy.ndimage as ndi
    w = np.array([[0, .25, 0], [.25, 0, .25], [0, .25, 0]])
    t = time.perf_counter(); ndi.correlate(small, w, mode="constant")
    res["first call"] = time.perf_counter() - t
    res["call"] = med(lambda: ndi.correlate(a, w, mode="constant"))
    res["reflect"] = med(lambda: ndi.correlate(a, w, mode="reflect"))
    out = np.empty_like(a)
    res["in njit"] = med(lambda: ndi.correlate(a, w, mode="constant", output=out))
    res["small"] = med(lambda: ndi.correlate(small, w, mode="constant"), 2000)
else:
    if engine == "kiln":
        import kiln
        stencil, njit = kiln.stencil, kiln.njit
    else:
        import numba
        stencil, njit = numba.stencil, numba.njit
    t = time.perf_counter()
    s = stencil(five)
    s(small)
    res["first call"] = time.perf_counter() - t
    s(a)
    py = rounds if engine == "kiln" else 3  # Numba compiles again at every call from Python
    res["call"] = med(lambda: s(a), py)
    if engine == "kiln":
        r = stencil(five, mode="reflect")
        r(a)
        res["reflect"] = med(lambda: r(a))
    @njit
    def inside(a, out):
        s(a, out=out)
        return out
    out = np.empty_like(a)
    inside(a, out)
    res["in njit"] = med(lambda: inside(a, out))
    res["small"] = med(lambda: s(small), 2000 if engine == "kiln" else 3)
print(json.dumps(res))
'''


def run(engine, rounds, n):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT)  # kiln compiles from source: the kernel must live in a file
    try:
        p = subprocess.run([sys.executable, f.name, engine, str(rounds), str(n)],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if p.returncode:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds, n = (5, 1000) if args.quick else (15, 2000)
    results = {e: run(e, rounds, n) for e in ("kiln", "numba", "scipy")}
    rows = ["call", "reflect", "in njit", "small", "first call"]
    print(f"@stencil 5-point, {n} x {n} float64 (small: 10 x 10); median of {rounds} rounds")
    print(f"{'':12}" + "".join(f"{e:>14}" for e in results))
    for row in rows:
        cells = []
        for e, r in results.items():
            v = r.get(row)
            if "error" in r:
                cells.append("error")
            elif v is None:
                cells.append("-")
            elif v < 1e-3:
                cells.append(f"{v * 1e6:.1f} us")
            else:
                cells.append(f"{v * 1e3:.2f} ms")
        print(f"{row:12}" + "".join(f"{c:>14}" for c in cells))
    for e, r in results.items():
        if "error" in r:
            print(f"{e}: {r['error']}")


if __name__ == "__main__":
    main()
