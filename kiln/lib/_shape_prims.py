"""Primitives of kiln/lib/shape.py that kiln lowers in C (lib/shape.def).

``copy_into(dst, src)``: copy src's elements into dst (same shape after broadcasting src's
length-1 axes; the caller checks). ``copy_into(dst, src, offset)``: into the region of dst's
memory from byte ``offset`` with src's shape and dst's strides (same ndim; the caller checks
that it lies inside dst). Same dtype: the runtime's strided copy (runtime/shape.c); otherwise
an elementwise conversion. Only for compiled code; the name is kiln's, not NumPy's.
"""


def copy_into(dst, src, offset=None):
    raise NotImplementedError("kiln.lib._shape_prims.copy_into is for compiled code")
