"""Settings read from the environment, as ``numba.config`` reads its ``NUMBA_*`` variables.

- ``KILN_DUMP``: comma-separated stages to print while compiling, among ``kir typed llvm opt
  asm`` (unknown names are warned about and dropped) → ``DUMP``, a frozenset.
- ``KILN_BOUNDSCHECK``: ``1``/``0`` turns bounds checking on/off for every function, overriding
  the ``boundscheck`` option as ``NUMBA_BOUNDSCHECK`` does; unset or empty, the option decides
  → ``BOUNDSCHECK`` (None, True or False).
- ``KILN_DISABLE_JIT``: ``1`` makes ``njit``/``jit`` return the Python function unchanged
  → ``DISABLE_JIT``.

The values are read at import; the attributes may also be set from Python (the decorators read
them when they run), and ``reload_config()`` reads the environment again.
"""

import os
import warnings

DUMP_STAGES = ("kir", "typed", "llvm", "opt", "asm", "time")

DUMP = frozenset()
BOUNDSCHECK = None
DISABLE_JIT = False


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


def reload_config():
    """Read the ``KILN_*`` environment variables again."""
    global DUMP, BOUNDSCHECK, DISABLE_JIT
    DUMP = _read_dump()
    BOUNDSCHECK = _read_flag("KILN_BOUNDSCHECK", None)
    DISABLE_JIT = _read_flag("KILN_DISABLE_JIT", False)


reload_config()
