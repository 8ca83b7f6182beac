"""kiln.lib: the library written in kiln's own Python subset.

Each module registers its implementations with ``kiln.extending`` (``overload``,
``overload_method``), exactly as a user's extension does; kiln compiles an implementation once
per signature, when compiled code first calls it. Heavy algorithms whose speed matters (sorting,
selection, searching) live in C instead (``src/runtime/``, registered in ``src/lib/*.def``).
This package is imported when kiln compiles its first function. It only names what each module
implements (``_lazy``): a module is imported when compiled code first calls one of its names, so
that a first compile pays only for what it uses.

To add a function: write its overload in the module of its family (or a new module) and add the
callable (or the ``(type class, method name)``) to that module's line below.
"""

import operator

import numpy as np

from ..extending import _lazy, types

_lazy("kiln.lib.statistics", functions=[np.var, np.std],
      methods=[(types.Array, "var"), (types.Array, "std")])
_lazy("kiln.lib.numeric", functions=[np.diff, np.convolve, np.bincount, np.correlate, np.cross,
                                     np.kron, np.trapezoid, np.gradient, np.ediff1d, np.polyval])
_lazy("kiln.lib.linalg", functions=[np.dot, operator.matmul])
_lazy("kiln.lib.linalg",
      functions=[np.matmul, np.vdot, np.inner, np.outer, np.trace, np.linalg.solve,
                 np.linalg.inv, np.linalg.det, np.linalg.slogdet, np.linalg.eig,
                 np.linalg.eigvals, np.linalg.eigh, np.linalg.eigvalsh, np.linalg.svd,
                 np.linalg.qr, np.linalg.cholesky, np.linalg.lstsq, np.linalg.pinv,
                 np.linalg.matrix_rank, np.linalg.matrix_power, np.linalg.norm, np.linalg.cond],
      methods=[(types.Array, "dot")])

_lazy("kiln.lib.mathfuncs", functions=[np.isclose, np.allclose, np.array_equal, np.array_equiv,
                                       np.nan_to_num, np.real_if_close, np.unwrap])
_lazy("kiln.lib.indexing",
      functions=[np.take, np.put, np.take_along_axis, np.flatnonzero, np.argwhere, np.extract,
                 np.place, np.select, np.choose, np.ndindex, np.ndenumerate, np.nditer],
      methods=[(types.Array, "take")], attributes=[(types.Array, "flat")])

_lazy("kiln.lib.shape",
      functions=[np.concatenate, np.stack, np.hstack, np.vstack, np.dstack, np.column_stack,
                 np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit, np.atleast_1d,
                 np.atleast_2d, np.atleast_3d, np.expand_dims, np.squeeze, np.swapaxes,
                 np.moveaxis, np.broadcast_to, np.broadcast_arrays, np.tile, np.repeat, np.roll,
                 np.flip, np.fliplr, np.flipud, np.rot90, np.resize, np.append, np.insert,
                 np.delete, np.trim_zeros],
      methods=[(types.Array, "squeeze"), (types.Array, "swapaxes"), (types.Array, "repeat")])
_lazy("kiln.lib.construction",
      functions=[np.logspace, np.geomspace, np.meshgrid, np.diag, np.diagflat, np.tri, np.tril,
                 np.triu, np.vander, np.asfortranarray],
      methods=[(types.Array, "item"), (types.Array, "clip")])
_lazy("kiln.lib.statistics",
      functions=[np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmin, np.nanmax,
                 np.nanargmin, np.nanargmax, np.ptp, np.count_nonzero, np.nancumsum,
                 np.nancumprod, np.nanmedian, np.nanquantile, np.nanpercentile, np.average,
                 np.cov, np.corrcoef, np.histogram2d],
      methods=[(types.Array, "ptp")])
_lazy("kiln.lib.sets",
      functions=[np.intersect1d, np.union1d, np.setdiff1d, np.setxor1d, np.isin, np.lexsort,
                 np.sort_complex])

import random as _random  # noqa: E402

_lazy("kiln.lib.randoms", functions=[_random.sample, _random.choices])
