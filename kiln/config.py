"""Settings read from the environment, as ``numba.config`` reads its ``NUMBA_*`` variables.

- ``KILN_DUMP``: comma-separated stages to print while compiling, among ``kir typed llvm opt
  asm`` (unknown names are warned about and dropped) → ``DUMP``, a frozenset.
- ``KILN_BOUNDSCHECK``: ``1``/``0`` turns bounds checking on/off for every function, overriding
  the ``boundscheck`` option as ``NUMBA_BOUNDSCHECK`` does; unset or empty, the option decides
  → ``BOUNDSCHECK`` (None, True or False).
- ``KILN_DISABLE_JIT``: ``1`` makes ``njit``/``jit`` return the Python function unchanged
  → ``DISABLE_JIT``.
- ``KILN_NUM_THREADS``, else ``NUMBA_NUM_THREADS``: the thread pool's size, a positive integer
  (at most 1024; anything else is warned about and ignored) → ``NUMBA_NUM_THREADS``; without
  either, ``NUMBA_DEFAULT_NUM_THREADS``, the number of CPUs this process may run on
  (``os.sched_getaffinity``). The pool (src/parallel/pool.c) reads the same variables with the
  same rules when it is first used; changing them later has no effect on it.
  ``THREADING_LAYER`` is ``"kiln"``.

The values are read at import; the attributes may also be set from Python (the decorators read
them when they run), and ``reload_config()`` reads the environment again.
"""

import os
import warnings

DUMP_STAGES = ("kir", "typed", "llvm", "opt", "asm", "time")

DUMP = frozenset()
BOUNDSCHECK = None
DISABLE_JIT = False
NUMBA_DEFAULT_NUM_THREADS = 1
NUMBA_NUM_THREADS = 1
THREADING_LAYER = "kiln"
_MAX_THREADS = 1024  # the pool's bound (KN_POOL_MAX in src/parallel/pool.c)


def _read_flag(name, default):
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return bool(int(value))
    except ValueError:
        warnings.warn(f"environment variable {name}={value!r} is not 0 or 1; ignored",
                      RuntimeWarning, stacklevel=3)
        return default


def _read_dump():
    names = {s.strip().lower() for s in os.environ.get("KILN_DUMP", "").split(",") if s.strip()}
    unknown = names.difference(DUMP_STAGES)
    if unknown:
        warnings.warn(f"KILN_DUMP: unknown stage(s) {', '.join(sorted(unknown))}; "
                      f"known: {', '.join(DUMP_STAGES)}", RuntimeWarning, stacklevel=3)
    return frozenset(names - unknown)


def _default_threads():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _read_threads(default):
    for name in ("KILN_NUM_THREADS", "NUMBA_NUM_THREADS"):
        value = os.environ.get(name, "").strip()
        if not value:
            continue
        try:
            n = int(value)
        except ValueError:
            n = 0
        if n >= 1:
            return min(n, _MAX_THREADS)
        warnings.warn(f"environment variable {name}={value!r} is not a positive integer; "
                      f"ignored", RuntimeWarning, stacklevel=3)
    return default


def reload_config():
    """Read the ``KILN_*`` environment variables again."""
    global DUMP, BOUNDSCHECK, DISABLE_JIT, NUMBA_DEFAULT_NUM_THREADS, NUMBA_NUM_THREADS
    DUMP = _read_dump()
    NUMBA_DEFAULT_NUM_THREADS = _default_threads()
    NUMBA_NUM_THREADS = _read_threads(NUMBA_DEFAULT_NUM_THREADS)
    BOUNDSCHECK = _read_flag("KILN_BOUNDSCHECK", None)
    DISABLE_JIT = _read_flag("KILN_DISABLE_JIT", False)


reload_config()
