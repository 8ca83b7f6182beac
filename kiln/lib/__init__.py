"""kiln.lib: the library written in kiln's own Python subset.

Each module registers its implementations with ``kiln.extending`` (``overload``,
``overload_method``), exactly as a user's extension does; kiln compiles an implementation once
per signature, when compiled code first calls it. Heavy algorithms whose speed matters (sorting,
selection, searching) live in C instead (``src/runtime/``, registered in ``src/lib/*.def``).
This package is imported when kiln compiles its first function.
"""
