"""kiln.typed: typed containers usable from the interpreter and from compiled code, as
``numba.typed``.

``List`` is a C type of ``kiln._core`` (src/dispatch/typed_list.c) holding the native list that
compiled code uses, so passing one to a jitted function or getting one back converts nothing::

    from kiln.typed import List
    l = List()                      # the item type comes from the first append
    l = List.empty_list(kiln.types.int64)
    l = List([1, 2, 3])             # one C loop with a type check per item
"""

from ._core import List

__all__ = ["List"]
