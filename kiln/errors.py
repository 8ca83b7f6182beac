"""Exceptions and warnings raised by kiln, and how compile errors are rendered.

Every compile error carries its position so that tests can check positions, not only text:
``msg`` (the bare message), ``filename``, ``line``, ``col``, ``end_line``, ``end_col`` and
``notes`` (a list of :class:`Note`). ``str(error)`` is the rendered report (DESIGN.md §5)::

    stats.py:12:21: error: cannot add int64 and str
        total = total + label
                        ^~~~~
    note: 'label' is str: argument 2 at the call site (stats.py:30)

Positions are 1-based lines and 1-based *character* columns; ``end_col`` is exclusive (it is
``ast``'s ``end_col_offset + 1``), so the caret line underlines ``end_col - col`` characters.
A span that runs over several lines is underlined to the end of its first line. The source
line comes from ``linecache`` (so IPython cells work); when it cannot be read, the source and
caret lines are left out. A note with a line is rendered ``note: msg (file:line)``, followed by
its source and caret lines when it also has a column. An error made without a position
(``UnsupportedError("parallel=True is not supported yet")``) renders as its bare message.
File names under the current directory are shown relative to it; the attributes keep them whole.
"""

from collections import namedtuple

__all__ = [
    "KilnError", "TypingError", "UnsupportedError", "LoweringError", "Note",
    "KilnWarning", "KilnDeprecationWarning",
]

Note = namedtuple("Note", "msg filename line col end_line end_col")
Note.__new__.__defaults__ = (None,) * 5


class KilnWarning(Warning):
    """Base class of kiln's warnings."""


class KilnDeprecationWarning(KilnWarning, DeprecationWarning):
    """An argument or behaviour that is accepted but has no effect or will go away."""


class KilnError(Exception):
    """Base class of kiln's compile errors; see the module docstring for the attributes."""

    def __init__(self, msg, filename=None, line=None, col=None, end_line=None, end_col=None,
                 notes=()):
        self.msg = msg
        self.filename = filename
        self.line = line
        self.col = col
        self.end_line = end_line
        self.end_col = end_col
        self.notes = [n if isinstance(n, Note) else Note(*n) for n in notes]
        super().__init__(render(self))

    def __reduce__(self):
        # Keep the text rendered where the source was readable, not where it is unpickled.
        pos = (self.msg, self.filename, self.line, self.col, self.end_line, self.end_col,
               self.notes)
        return type(self), pos, {"args": self.args}


class TypingError(KilnError):
    """The function cannot be typed: an operation has no implementation for its types."""


class UnsupportedError(KilnError):
    """A Python feature, option or type that kiln does not compile (yet)."""


class LoweringError(KilnError):
    """Code generation failed after typing succeeded (usually a bug in kiln)."""


def render(err):
    """The report for ``err`` (anything with the attributes of a KilnError)."""
    if err.filename is None and err.line is None:
        out = [err.msg]
    else:
        loc = _location(err.filename, err.line, err.col)
        out = [f"{loc}: error: {err.msg}"]
        out += _source_and_caret(err.filename, err.line, err.col, err.end_line, err.end_col)
    for note in err.notes:
        text = f"note: {note.msg}"
        if note.line is not None:
            text += f" ({_location(note.filename, note.line, None)})"
        out.append(text)
        if note.col is not None:
            out += _source_and_caret(note.filename, note.line, note.col, note.end_line,
                                     note.end_col)
    return "\n".join(out)


def display_name(filename):
    """``filename`` relative to the current directory when it lies below it."""
    import os

    if not filename or not os.path.isabs(filename):
        return filename or "<unknown>"
    try:
        rel = os.path.relpath(filename)
    except ValueError:  # another drive on Windows
        return filename
    return filename if rel.startswith(os.pardir) else rel


def source_line(filename, line):
    """Line ``line`` of ``filename`` without its newline, or None if it cannot be read."""
    if not filename or not line or line < 1:
        return None
    import linecache

    text = linecache.getline(filename, line)
    return text.rstrip("\r\n") if text else None


def _location(filename, line, col):
    parts = [display_name(filename)]
    if line is not None:
        parts.append(str(line))
        if col is not None:
            parts.append(str(col))
    return ":".join(parts)


def _source_and_caret(filename, line, col, end_line, end_col):
    text = source_line(filename, line)
    if text is None:
        return []
    if col is None:
        return [text]
    start = max(col - 1, 0)
    if end_col is None:
        stop = start + 1
    elif end_line is not None and end_line != line:
        stop = len(text.rstrip())
    else:
        stop = end_col - 1
    width = max(stop - start, 1)
    prefix = "".join("\t" if ch == "\t" else " " for ch in text[:start])
    prefix += " " * (start - len(prefix))  # a column past the end of the line
    return [text, prefix + "^" + "~" * (width - 1)]
