"""The runtime's allocation counters, as Numba's ``rtsys.get_allocation_stats()`` gives them.

``memory_stats()`` returns ``MemoryStats(alloc, free, mi_alloc, mi_free)``: how many runtime
buffers and meminfo objects compiled code has allocated and freed since the process started.
The counters are always on; when nothing leaks, ``alloc == free`` and ``mi_alloc == mi_free``.
``MemoryStats`` is a namedtuple that also reads as a mapping of its field names
(``stats["alloc"]``, ``"alloc" in stats``, ``dict(stats)``), like ``_core.memory_stats()``.
"""

from collections import namedtuple


class MemoryStats(namedtuple("MemoryStats", "alloc free mi_alloc mi_free")):
    __slots__ = ()

    def __getitem__(self, key):
        return getattr(self, key) if isinstance(key, str) else super().__getitem__(key)

    def __contains__(self, key):
        return key in self._fields

    def keys(self):
        return self._fields


def memory_stats():
    """The runtime's allocation counters now, as a :class:`MemoryStats`."""
    from . import _core

    stats = _core.memory_stats()
    return MemoryStats(*(stats[name] for name in MemoryStats._fields))


get_allocation_stats = memory_stats  # Numba's name
