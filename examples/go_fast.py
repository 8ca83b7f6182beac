"""The seed example: the trace of tanh over an array's diagonal, added to the array.

Times the first call (which compiles go_fast for a 2-D int64 array) and the second call (which
runs the cached machine code), then times the compiled call with timeit, as the seed suggests:
the first measurement includes compilation and must not be reported as the function's speed.

Run it with `make demo`, or `.venv/bin/python examples/go_fast.py` after `make build`.
"""

import time
import timeit

import numpy as np

import kiln

x = np.arange(100).reshape(10, 10)


@kiln.njit
def go_fast(a):  # compiled on the first call, then runs as machine code
    trace = 0.0
    for i in range(a.shape[0]):  # kiln likes loops
        trace += np.tanh(a[i, i])  # and NumPy functions
    return a + trace  # and array expressions


def main():
    start = time.perf_counter()
    result = go_fast(x)
    end = time.perf_counter()
    print(f"Elapsed (with compilation) = {end - start}s")

    start = time.perf_counter()
    go_fast(x)
    end = time.perf_counter()
    print(f"Elapsed (after compilation) = {end - start}s")

    expected = x + sum(np.tanh(x[i, i]) for i in range(x.shape[0]))
    assert np.allclose(result, expected), "go_fast disagrees with NumPy"

    runs, total = timeit.Timer(lambda: go_fast(x)).autorange()
    print(f"timeit: {total / runs * 1e6:.2f} us per call ({runs} runs), 10x10 int64 input")
    print(f"kiln {kiln.__version__}, LLVM {kiln._core.llvm_info()['version']} "
          f"({kiln._core.llvm_info()['linkage']}), host CPU {kiln._core.llvm_info()['cpu']}")


if __name__ == "__main__":
    main()
