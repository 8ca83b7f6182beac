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
_lazy("kiln.lib.numeric", functions=[np.diff, np.convolve, np.bincount])
_lazy("kiln.lib.linalg", functions=[np.dot, operator.matmul])

_lazy("kiln.lib.statistics",
      functions=[np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmin, np.nanmax,
                 np.nanargmin, np.nanargmax, np.ptp, np.count_nonzero, np.nancumsum,
                 np.nancumprod, np.nanmedian, np.nanquantile, np.nanpercentile, np.average,
                 np.cov, np.corrcoef, np.histogram2d],
      methods=[(types.Array, "ptp")])
_lazy("kiln.lib.sets",
      functions=[np.intersect1d, np.union1d, np.setdiff1d, np.setxor1d, np.isin, np.lexsort,
                 np.sort_complex])
