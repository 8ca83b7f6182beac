"""A worker process: judges the program files whose paths arrive on stdin, one per line.

Each input line is a path; each output line is the JSON verdict of oracle.judge_file for it. A
crash of compiled code kills only this process: the pool (pool.py) notices the closed pipe,
records the program as a crash with the tail of this process's stderr (faulthandler prints the
Python stack there) and starts a new worker. The address space is limited (FUZZ_MEMORY_GB,
8 by default), so that a huge allocation fails at once instead of swapping the machine;
not under AddressSanitizer (`make asan`), whose shadow memory needs terabytes of address space
and whose allocator refuses huge sizes by itself (allocator_may_return_null).
"""

import faulthandler
import json
import os
import resource
import sys
import warnings


def limit_memory():
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        return
    gb = float(os.environ.get("FUZZ_MEMORY_GB", "8"))
    size = int(gb * 2 ** 30)
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


def main():
    faulthandler.enable()
    limit_memory()
    warnings.simplefilter("ignore")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import oracle  # after the limit: kiln and NumPy load under it

    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        sys.stderr.write(f"fuzz: judging {path}\n")
        sys.stderr.flush()
        try:
            result = oracle.judge_file(path)
        except BaseException as exc:  # a bug of the harness or of a module: report, go on
            result = {"kind": "harness-error", "detail": f"{type(exc).__name__}: {exc}"[:400]}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
