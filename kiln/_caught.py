"""The exception an ``except ... as e`` clause caught, as compiled code reads it.

The frontend (src/frontend/try.c) turns ``str(e)``, ``repr(e)``, ``print(e)``, ``f"{e}"`` and
``e.args`` inside the clause into calls of these functions (registry entries of lib/caught.def,
typed in src/typing/caught.c, lowered in src/lower/caught.c), whose argument is the try's
number. They exist only so that the registry knows them; they are never called from Python.
"""


def text(k):
    """Compiled code only: ``str(e)`` of the exception try ``k`` caught."""
    raise TypeError("kiln internal: only for compiled code")


def text_repr(k):
    """Compiled code only: ``repr(e)`` of the exception try ``k`` caught."""
    raise TypeError("kiln internal: only for compiled code")


def args(k):
    """Compiled code only: ``e.args`` of the exception try ``k`` caught (one str)."""
    raise TypeError("kiln internal: only for compiled code")
