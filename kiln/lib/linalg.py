"""np.dot and the ``@`` operator (``operator.matmul``: kiln's frontend turns ``a @ b`` into a call
of it) for 1-D and 2-D arrays of numbers, written in kiln's subset as plain loops (BLAS belongs to
later work). The result dtype is NumPy's ``result_type(a, b)``; integer products wrap in it, as
NumPy's. 1-D with 1-D gives a scalar, as NumPy. Mismatched shapes raise ValueError with NumPy's
wording (kiln's messages are constants: without the sizes).
"""

import functools
import operator

import numpy as np

from ..extending import overload, types

_DOT_MSG = "shapes not aligned: the last dimension of a differs from the first of b"
_MATMUL_MSG = ("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
               "signature (n?,k),(k,m?)->(n?,m?)")


@functools.lru_cache(maxsize=None)
def _impls(rt, msg):
    """The four cases (1-D or 2-D on each side) for result type `rt` and error message `msg`."""

    def vv(a, b):
        n = a.shape[0]
        if b.shape[0] != n:
            raise ValueError(msg)
        acc = rt(0)
        for i in range(n):
            acc = rt(acc + a[i] * b[i])
        return acc

    def mv(a, b):
        n, k = a.shape
        if b.shape[0] != k:
            raise ValueError(msg)
        out = np.zeros(n, rt)
        for i in range(n):
            acc = rt(0)
            for p in range(k):
                acc = rt(acc + a[i, p] * b[p])
            out[i] = acc
        return out

    def vm(a, b):
        k, m = b.shape
        if a.shape[0] != k:
            raise ValueError(msg)
        out = np.zeros(m, rt)
        for p in range(k):
            x = a[p]
            for j in range(m):
                out[j] += x * b[p, j]
        return out

    def mm(a, b):
        n, k = a.shape
        k2, m = b.shape
        if k2 != k:
            raise ValueError(msg)
        out = np.zeros((n, m), rt)
        for i in range(n):
            for p in range(k):
                x = a[i, p]
                for j in range(m):
                    out[i, j] += x * b[p, j]
        return out

    return {(1, 1): vv, (2, 1): mv, (1, 2): vm, (2, 2): mm}


def _pick(a, b, msg):
    if not all(isinstance(t, types.Array) and t.ndim in (1, 2) and
               isinstance(t.dtype, types.Number) for t in (a, b)):
        return None
    rt = np.result_type(np.dtype(str(a.dtype)), np.dtype(str(b.dtype))).type
    return _impls(rt, msg)[a.ndim, b.ndim]


@overload(np.dot)
def _ov_dot(a, b, out=None):
    if out is not None:
        return None
    return _pick(a, b, _DOT_MSG)


@overload(operator.matmul)
def _ov_matmul(a, b):
    return _pick(a, b, _MATMUL_MSG)

