"""Numba's thread API over kiln's thread pool (src/parallel/pool.c).

``set_num_threads(n)`` / ``get_num_threads()``: the threads the parallel regions started by the
calling thread use (per thread, 1 to ``config.NUMBA_NUM_THREADS``); ``get_thread_id()``: 0
outside a parallel region, the index of the pool's thread inside one;
``set_parallel_chunksize(n)`` (returns the previous size) / ``get_parallel_chunksize()``: 0 is
static scheduling, n > 0 dynamic chunks of about n iterations; ``parallel_chunksize(n)``: a
``with`` block that sets it and restores it. All but ``parallel_chunksize`` are also callable
from compiled code (lib/threads.def). ``threading_layer()`` is ``"kiln"``: kiln has one pool
of its own, ready before any parallel region runs (Numba raises ValueError until its first
region has chosen a layer).

The pool's size is fixed for the process on first use: ``KILN_NUM_THREADS``, else
``NUMBA_NUM_THREADS``, else the number of CPUs this process may run on (``kiln.config``).
"""

import contextlib
import numbers

_GET, _SET, _MAX, _ID, _GET_CHUNK, _SET_CHUNK, _TUNING = range(7)
_core = None


def _call(op, n=0, m=-1):
    global _core
    if _core is None:
        from . import _core as core

        _core = core
    return _core._threads(op, n, m)


def _integer(n):
    """An int or NumPy integer, as a Python int (a bool is an int here, as in Numba's Python
    API; compiled code refuses it, as Numba's typing does)."""
    if not isinstance(n, numbers.Integral):
        return None
    return int(n)


def set_num_threads(n):
    """Use ``n`` threads (1 to ``kiln.config.NUMBA_NUM_THREADS``) in the parallel regions this
    thread starts from now on."""
    v = _integer(n)
    if v is None:
        raise TypeError("The number of threads specified must be an integer")
    limit = _call(_MAX)
    if v < 1 or v > limit:
        raise ValueError(f"The number of threads must be between 1 and {limit}")
    _call(_SET, v)


def get_num_threads():
    """The number of threads the parallel regions this thread starts use."""
    return _call(_GET)


def get_thread_id():
    """0 outside a parallel region; inside one, the index of the pool's thread running it."""
    return _call(_ID)


def set_parallel_chunksize(n):
    """Set this thread's chunk size (0: static scheduling) and return the previous one."""
    v = _integer(n)
    if v is None:
        raise TypeError("The parallel chunksize must be an integer")
    if v < 0:
        raise ValueError("chunksize must be greater than or equal to zero")
    return _call(_SET_CHUNK, v)


def get_parallel_chunksize():
    """This thread's chunk size for the parallel regions it starts (0: static scheduling)."""
    return _call(_GET_CHUNK)


@contextlib.contextmanager
def parallel_chunksize(n):
    """``with parallel_chunksize(n):`` sets the chunk size for the block and restores it."""
    old = set_parallel_chunksize(n)
    try:
        yield
    finally:
        set_parallel_chunksize(old)


def threading_layer():
    """The threading layer parallel regions run on: always ``"kiln"``, kiln's own pool."""
    return "kiln"
