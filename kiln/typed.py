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

# ---- Dict (engineer DICT) ----
# ``Dict`` is a C type of ``kiln._core`` (src/dispatch/typed_dict.c) holding the native table that
# compiled code uses (runtime/dict.h): passing one to a jitted function shares it::
#
#     from kiln.typed import Dict
#     d = Dict.empty(key_type=kiln.types.int64, value_type=kiln.types.float64)
#     d = Dict()                      # the types come from the first item stored
#     d[1] = 2.5; d[1]; 1 in d; del d[1]; len(d); d.get(1, 0.0); list(d.items())
from ._core import Dict  # noqa: E402

__all__ += ["Dict"]
