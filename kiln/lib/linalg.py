"""Matrix products (np.dot, ``@``, np.matmul, np.vdot, np.inner, np.outer, a.dot) and np.linalg
(solve inv det slogdet eig eigvals eigh eigvalsh svd qr cholesky lstsq pinv matrix_rank
matrix_power norm cond) plus np.trace, written in kiln's subset over BLAS and LAPACK.

BLAS and LAPACK come from SciPy as Numba takes them (kiln/_linalg.py loads SciPy's capsules
once, from a typing function below; runtime/linalg.c calls them): the products of float32,
float64, complex64 and complex128 arrays call gemm/gemv/dot, except small ones (at most
``_SMALL`` multiply-adds: 3x3 and 4x4 matrices) which run as plain loops, faster than a BLAS call.
Integer and bool products, and every product when SciPy cannot be imported, run kiln's loops.
np.linalg needs SciPy: without it a call is a TypingError naming SciPy at the call (except
norm's orders that need no SVD, and matrix_power of n >= 0, which are loops).

LAPACK takes column-major buffers: ``_fbuf`` copies a matrix into a C array of its transpose
(which is its column-major layout), converting it to the type LAPACK runs in; results laid out
by LAPACK are returned as ``.T`` views of such buffers. As NumPy, np.linalg computes in float64
(complex128) and returns float32 (complex64) when every input was single precision; integers and
bools are float64. Errors are NumPy's: LinAlgError (np.linalg's own class) for singular
matrices, not positive definite ones and no convergence, ValueError for shape mismatches
(kiln's messages are constants: without the sizes). np.linalg.eig of a real matrix is real and
raises ValueError when an eigenvalue is complex, as Numba (NumPy's result type depends on the
values).
"""

import functools
import operator

import numpy as np

from .. import _linalg
from .._linalg import dot as _la_dot
from .._linalg import geev as _la_geev
from .._linalg import gelsd as _la_gelsd
from .._linalg import gemm as _la_gemm
from .._linalg import gemv as _la_gemv
from .._linalg import geqrf as _la_geqrf
from .._linalg import gesdd as _la_gesdd
from .._linalg import gesv as _la_gesv
from .._linalg import getrf as _la_getrf
from .._linalg import orgqr as _la_orgqr
from .._linalg import potrf as _la_potrf
from .._linalg import syevd as _la_syevd
from ..errors import TypingError
from ..extending import overload, overload_method, register_jitable, types

LinAlgError = np.linalg.LinAlgError
AxisError = np.exceptions.AxisError

_DOT_MSG = "shapes not aligned: the last dimension of a differs from the first of b"
_MATMUL_MSG = ("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
               "signature (n?,k),(k,m?)->(n?,m?)")
_BATCH_MSG = "operands could not be broadcast together (matmul's batch dimensions)"
_SQUARE_MSG = "Last 2 dimensions of the array must be square"
_SMALL = 4096  # products of at most this many multiply-adds run as loops (BLAS's call costs more)
_CODES = {np.float32: 0, np.float64: 1, np.complex64: 2, np.complex128: 3}


@register_jitable
def _same(a):
    return a


@functools.lru_cache(maxsize=None)
def _astype(rt):
    @register_jitable
    def conv(a):
        return a.astype(rt)

    return conv


def _conv(c, rt):
    """the function that gives an operand in type rt: a copy when `c`, else the operand"""
    return _astype(rt) if c else _same


def _np_dtype(t):
    return np.dtype(str(t))


def _is_array(t, ndims=(1, 2)):
    return (isinstance(t, types.Array) and t.ndim in ndims and
            isinstance(t.dtype, (types.Number, types.Boolean)))


def _blas_ready():
    """True when SciPy's BLAS is loaded (loading it on the first call)."""
    return _linalg.load() is None


def _need_lapack(name):
    err = _linalg.load()
    if err is not None:
        raise TypingError("np.linalg.%s(): %s" % (name, err))


@register_jitable
def _status(st):
    if st == -1000:
        raise MemoryError("out of memory in BLAS/LAPACK workspace")
    if st == -1001:
        raise ValueError("array too large for BLAS/LAPACK's 32-bit sizes")
    if st == -1002:
        raise RuntimeError("SciPy's BLAS/LAPACK lacks a routine kiln needs")


# ---- products --------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _products(rt, blas):
    """The 2-D/1-D product kernels for result type `rt` (a NumPy scalar type): loops, or BLAS
    above _SMALL multiply-adds when `blas`. Each writes into a given output."""
    code = _CODES.get(rt, -1)
    small = _SMALL if blas else -1
    at = np.float32 if rt is np.float16 else rt  # NumPy's float16 products add in float32

    @register_jitable
    def vv(a, b):
        n = a.shape[0]
        if blas and n > 64:
            out = np.empty(1, rt)
            _status(_la_dot(code, a, b, out, 0))
            return out[0]
        acc = at(0)
        for i in range(n):
            acc = at(acc + at(a[i]) * b[i])
        return rt(acc)

    @register_jitable
    def mv_into(a, b, out):
        n, k = a.shape
        if small >= 0 and n * k > small:
            _status(_la_gemv(code, a, b, out))
            return
        for i in range(n):
            acc = at(0)
            for p in range(k):
                acc = at(acc + at(a[i, p]) * b[p])
            out[i] = acc

    @register_jitable
    def vm_into(a, b, out):
        k, m = b.shape
        if small >= 0 and k * m > small:
            _status(_la_gemv(code, b.T, a, out))
            return
        for j in range(m):
            acc = at(0)
            for p in range(k):
                acc = at(acc + at(a[p]) * b[p, j])
            out[j] = acc

    @register_jitable
    def mm_into(a, b, out):
        n, k = a.shape
        m = b.shape[1]
        if small >= 0 and n * k * m > small:
            _status(_la_gemm(code, a, b, out))
            return
        for i in range(n):  # dot-product form: a reduction LLVM does not vectorize (cheap O3)
            for j in range(m):
                acc = at(0)
                for p in range(k):
                    acc = at(acc + at(a[i, p]) * b[p, j])
                out[i, j] = acc

    return vv, mv_into, vm_into, mm_into


@functools.lru_cache(maxsize=None)
def _direct(rt, msg, blas):
    """np.dot / matmul of 1-D and 2-D operands of type rt, each form one self-contained function
    (no helper calls: a first call compiles one function, see docs/internals.md)."""
    code = _CODES.get(rt, -1)
    small = _SMALL if blas else -1
    at = np.float32 if rt is np.float16 else rt  # NumPy's float16 products add in float32

    @register_jitable
    def vv(a, b):
        n = a.shape[0]
        if b.shape[0] != n:
            raise ValueError(msg)
        if blas and n > 64:
            out = np.empty(1, rt)
            if _la_dot(code, a, b, out, 0) != 0:
                raise MemoryError("BLAS: out of memory or sizes past int32")
            return out[0]
        acc = at(0)
        for i in range(n):
            acc = at(acc + at(a[i]) * b[i])
        return rt(acc)

    @register_jitable
    def mv(a, b):
        n, k = a.shape
        if b.shape[0] != k:
            raise ValueError(msg)
        out = np.empty(n, rt)
        if small >= 0 and n * k > small:
            if _la_gemv(code, a, b, out) != 0:
                raise MemoryError("BLAS: out of memory or sizes past int32")
            return out
        for i in range(n):
            acc = at(0)
            for p in range(k):
                acc = at(acc + at(a[i, p]) * b[p])
            out[i] = acc
        return out

    @register_jitable
    def vm(a, b):
        k, m = b.shape
        if a.shape[0] != k:
            raise ValueError(msg)
        out = np.empty(m, rt)
        if small >= 0 and k * m > small:
            if _la_gemv(code, b.T, a, out) != 0:
                raise MemoryError("BLAS: out of memory or sizes past int32")
            return out
        for j in range(m):
            acc = at(0)
            for p in range(k):
                acc = at(acc + at(a[p]) * b[p, j])
            out[j] = acc
        return out

    @register_jitable
    def mm(a, b):
        n, k = a.shape
        k2, m = b.shape
        if k2 != k:
            raise ValueError(msg)
        out = np.empty((n, m), rt)
        if small >= 0 and n * k * m > small:
            if _la_gemm(code, a, b, out) != 0:
                raise MemoryError("BLAS: out of memory or sizes past int32")
            return out
        for i in range(n):
            for j in range(m):
                acc = at(0)
                for p in range(k):
                    acc = at(acc + at(a[i, p]) * b[p, j])
                out[i, j] = acc
        return out

    return {(1, 1): vv, (2, 1): mv, (1, 2): vm, (2, 2): mm}


@functools.lru_cache(maxsize=None)
def _impls(rt, ca, cb, msg, blas):
    """np.dot / matmul of 1-D and 2-D arrays, result type `rt`; ca/cb: convert a/b to rt first
    (BLAS needs one dtype): a wrapper over _direct's function then."""
    forms = _direct(rt, msg, blas)
    if not (ca or cb):
        return forms
    conv_a, conv_b = _conv(ca, rt), _conv(cb, rt)

    def wrap(form):
        def conv(a, b):
            return form(conv_a(a), conv_b(b))

        return register_jitable(conv)

    return {key: wrap(form) for key, form in forms.items()}


def _result_type(*ts):
    return np.result_type(*[_np_dtype(t.dtype if isinstance(t, types.Array) else t)
                            for t in ts]).type


def _product_parts(a, b):
    rt = _result_type(a, b)
    blas = rt in _CODES and _blas_ready()
    ca = blas and _np_dtype(a.dtype).type is not rt
    cb = blas and _np_dtype(b.dtype).type is not rt
    return rt, ca, cb, blas


def _pick(a, b, msg):
    if not (_is_array(a) and _is_array(b)):
        return None
    rt, ca, cb, blas = _product_parts(a, b)
    return _impls(rt, ca, cb, msg, blas)[a.ndim, b.ndim]


def _scalar(t):
    return isinstance(t, (types.Number, types.Boolean))


def _mul(a, b, out=None):
    return a * b


def _dot_typer(a, b, out=None):
    if out is not None and not isinstance(out, types.NoneType):
        raise TypingError("np.dot(): out= is not supported in compiled code")
    if (_scalar(a) and (_scalar(b) or isinstance(b, types.Array))) or (
            _scalar(b) and isinstance(a, types.Array)):
        return _mul
    for t in (a, b):
        if not _is_array(t):
            raise TypingError("np.dot() in compiled code takes numbers and 1-D or 2-D arrays of "
                              "numbers, got %s" % t)
    return _pick(a, b, _DOT_MSG)


@overload(np.dot)
def _ov_dot(a, b, out=None):
    return _dot_typer(a, b, out)


@overload_method(types.Array, "dot")
def _ov_array_dot(a, b, out=None):
    return _dot_typer(a, b, out)


@register_jitable
def _item(a, i):
    return a[i]


@register_jitable
def _whole(a, i):
    return a


@functools.lru_cache(maxsize=None)
def _batched(rt, ca, cb, nda, ndb, blas):
    """matmul with a 3-D operand: the 2-D products over the batch axis (a batch of 1
    broadcasts, as NumPy)."""
    _vv, mv_into, vm_into, mm_into = _products(rt, blas)
    conv_a, conv_b = _conv(ca, rt), _conv(cb, rt)
    get_a = _item if nda == 3 else _whole
    get_b = _item if ndb == 3 else _whole

    def impl(a, b):
        a = conv_a(a)
        b = conv_b(b)
        ba = a.shape[0] if nda == 3 else 1
        bb = b.shape[0] if ndb == 3 else 1
        if ba != bb and ba != 1 and bb != 1:
            raise ValueError(_BATCH_MSG)
        nb = max(ba, bb)
        n = a.shape[nda - 2]
        k = a.shape[nda - 1]
        if b.shape[ndb - 2] != k:
            raise ValueError(_MATMUL_MSG)
        out = np.empty((nb, n, b.shape[ndb - 1]), rt)
        for i in range(nb):
            mm_into(get_a(a, i if ba > 1 else 0), get_b(b, i if bb > 1 else 0), out[i])
        return out

    def impl_v(a, b):  # 3-D @ 1-D: a batch of matrix-vector products
        a = conv_a(a)
        b = conv_b(b)
        if b.shape[0] != a.shape[2]:
            raise ValueError(_MATMUL_MSG)
        out = np.empty((a.shape[0], a.shape[1]), rt)
        for i in range(a.shape[0]):
            mv_into(a[i], b, out[i])
        return out

    def impl_vb(a, b):  # 1-D @ 3-D
        a = conv_a(a)
        b = conv_b(b)
        if a.shape[0] != b.shape[1]:
            raise ValueError(_MATMUL_MSG)
        out = np.empty((b.shape[0], b.shape[2]), rt)
        for i in range(b.shape[0]):
            vm_into(a, b[i], out[i])
        return out

    if ndb == 1:
        return impl_v
    if nda == 1:
        return impl_vb
    return impl


def _matmul_typer(a, b, name):
    for t in (a, b):
        if not _is_array(t, (1, 2, 3)):
            raise TypingError("%s in compiled code takes 1-D, 2-D or 3-D arrays of numbers, got "
                              "%s" % (name, t))
    if a.ndim == 3 or b.ndim == 3:
        rt, ca, cb, blas = _product_parts(a, b)
        return _batched(rt, ca, cb, a.ndim, b.ndim, blas)
    return _pick(a, b, _MATMUL_MSG)


@overload(operator.matmul)
def _ov_matmul(a, b):
    return _matmul_typer(a, b, "a @ b (matmul)")


@overload(np.matmul)
def _ov_np_matmul(x1, x2):
    return _matmul_typer(x1, x2, "np.matmul()")


@register_jitable
def _conj(x):
    return x.conjugate()


@functools.lru_cache(maxsize=None)
def _vdot_impl(rt, ca, cb, blas, cplx):
    code = _CODES.get(rt, -1)
    conv_a, conv_b = _conv(ca, rt), _conv(cb, rt)
    cj = _conj if cplx else _same

    def impl(a, b):
        x = conv_a(a.ravel())
        y = conv_b(b.ravel())
        if x.shape[0] != y.shape[0]:
            raise ValueError("cannot reshape array: vdot's operands differ in size")
        n = x.shape[0]
        if blas and n > 64:
            out = np.empty(1, rt)
            _status(_la_dot(code, x, y, out, 1))
            return out[0]
        acc = rt(0)
        for i in range(n):
            acc = rt(acc + cj(x[i]) * y[i])
        return acc

    return impl


@overload(np.vdot)
def _ov_vdot(a, b):
    for t in (a, b):
        if not _is_array(t, range(1, 33)):
            raise TypingError("np.vdot() in compiled code takes arrays of numbers, got %s" % t)
    rt, ca, cb, blas = _product_parts(a, b)
    return _vdot_impl(rt, ca, cb, blas, isinstance(a.dtype, types.Complex))


@overload(np.inner)
def _ov_inner(a, b):
    if _scalar(a) or _scalar(b):
        if _scalar(a) or _is_array(a, range(0, 33)):
            return _mul
    for t in (a, b):
        if not _is_array(t):
            raise TypingError("np.inner() in compiled code takes numbers and 1-D or 2-D arrays "
                              "of numbers, got %s" % t)
    msg = "shapes not aligned: the last dimensions of a and b differ (np.inner)"
    if a.ndim == 1 and b.ndim == 2:  # inner(v, M)[i] = v . M[i] = M @ v
        impl = _pick(b, a, msg)
        return lambda a, b: impl(b, a)
    if a.ndim == 2 and b.ndim == 2:
        impl = _pick(a, b, msg)
        return lambda a, b: impl(a, b.T)
    return _pick(a, b, msg)  # inner(M, v) = M @ v; inner(v, w) = v . w


@functools.lru_cache(maxsize=None)
def _outer_impl(rt):
    def impl(a, b, out=None):
        x = a.ravel()
        y = b.ravel()
        r = np.empty((x.shape[0], y.shape[0]), rt)
        for i in range(x.shape[0]):
            xi = x[i]
            for j in range(y.shape[0]):
                r[i, j] = xi * y[j]
        return r

    return impl


@overload(np.outer)
def _ov_outer(a, b, out=None):
    if out is not None and not isinstance(out, types.NoneType):
        raise TypingError("np.outer(): out= is not supported in compiled code")
    for t in (a, b):
        if not _is_array(t, range(0, 33)):
            raise TypingError("np.outer() in compiled code takes arrays of numbers, got %s" % t)
    return _outer_impl(_result_type(a, b))


@functools.lru_cache(maxsize=None)
def _trace_impl(rt):
    def impl(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        n, m = a.shape
        acc = rt(0)
        i = 0 if offset >= 0 else -offset
        j = offset if offset >= 0 else 0
        while i < n and j < m:
            acc = rt(acc + a[i, j])
            i += 1
            j += 1
        return acc

    return impl


@overload(np.trace)
def _ov_trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if not _is_array(a, (2,)):
        raise TypingError("np.trace() in compiled code takes a 2-D array of numbers, got %s" % a)
    for name, t in (("axis1", axis1), ("axis2", axis2), ("dtype", dtype), ("out", out)):
        if not isinstance(t, (int, types.NoneType)) and t is not None:
            raise TypingError("np.trace(): %s= is not supported in compiled code" % name)
    if not isinstance(offset, (int, types.Integer, types.Boolean)):
        raise TypingError("np.trace(): offset must be an int, got %s" % offset)
    return _trace_impl(np.sum(np.zeros(1, _np_dtype(a.dtype))).dtype.type)


# ---- np.linalg -----------------------------------------------------------------------------


def _lapack_types(*ts):
    """(the type LAPACK runs in, NumPy's result type) for np.linalg of these argument types."""
    dts = [_np_dtype(t.dtype if isinstance(t, types.Array) else t) for t in ts]
    cplx = any(d.kind == "c" for d in dts)
    single = all(d in (np.float32, np.complex64) for d in dts)
    ct = np.complex128 if cplx else np.float64
    rt = (np.complex64 if cplx else np.float32) if single else ct
    return ct, rt


def _real_of(t):
    return {np.complex64: np.float32, np.complex128: np.float64}.get(t, t)


def _square_arg(name, a):
    if not _is_array(a, (2,)):
        raise TypingError("np.linalg.%s() in compiled code takes a 2-D array of numbers, got %s"
                          % (name, a))
    _need_lapack(name)


@functools.lru_cache(maxsize=None)
def _helpers(ct):
    @register_jitable
    def fbuf(a):
        """a (m, n) as a C array (n, m) of type ct: a's column-major layout"""
        m, n = a.shape
        x = np.empty((n, m), ct)
        for j in range(n):
            for i in range(m):
                x[j, i] = a[i, j]
        return x

    @register_jitable
    def square(a):
        if a.shape[0] != a.shape[1]:
            raise LinAlgError(_SQUARE_MSG)
        return a.shape[0]

    return fbuf, square


@register_jitable
def _to_float(x):
    """a number argument as a float; None (an untaken branch) as 0.0"""
    if x is None:
        return 0.0
    return float(x)


@functools.lru_cache(maxsize=None)
def _vec_rhs(ct):
    @register_jitable
    def rhs(b):
        bf = np.empty((1, b.shape[0]), ct)
        for i in range(b.shape[0]):
            bf[0, i] = b[i]
        return bf

    return rhs


@functools.lru_cache(maxsize=None)
def _vec_back(rt):
    @register_jitable
    def back(bf):
        return bf[0].astype(rt)

    return back


@functools.lru_cache(maxsize=None)
def _mat_back(rt):
    @register_jitable
    def back(bf):
        return bf.T.astype(rt)

    return back


@functools.lru_cache(maxsize=None)
def _solve_impl(ct, rt, bdim):
    fbuf, square = _helpers(ct)
    code = _CODES[ct]
    rhs = fbuf if bdim == 2 else _vec_rhs(ct)
    back = _mat_back(rt) if bdim == 2 else _vec_back(rt)

    def impl(a, b):
        n = square(a)
        if b.shape[0] != n:
            raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0, "
                             "with gufunc signature (m,m),(m,n)->(m,n)")
        af = fbuf(a)
        bf = rhs(b)
        st = _la_gesv(code, af, bf, n, bf.shape[0])
        _status(st)
        if st > 0:
            raise LinAlgError("Singular matrix")
        return back(bf)

    return impl


@overload(np.linalg.solve)
def _ov_solve(a, b):
    _square_arg("solve", a)
    if not _is_array(b):
        raise TypingError("np.linalg.solve(): b must be a 1-D or 2-D array of numbers, got %s" % b)
    ct, rt = _lapack_types(a, b)
    return _solve_impl(ct, rt, b.ndim)


@functools.lru_cache(maxsize=None)
def _inv_impl(ct, rt):
    fbuf, square = _helpers(ct)
    code = _CODES[ct]

    @register_jitable
    def impl(a):
        n = square(a)
        af = fbuf(a)
        bf = np.zeros((n, n), ct)
        for i in range(n):
            bf[i, i] = 1
        st = _la_gesv(code, af, bf, n, n)
        _status(st)
        if st > 0:
            raise LinAlgError("Singular matrix")
        return bf.T.astype(rt)

    return impl


@overload(np.linalg.inv)
def _ov_inv(a):
    _square_arg("inv", a)
    return _inv_impl(*_lapack_types(a))


@functools.lru_cache(maxsize=None)
def _lu_impl(ct):
    fbuf, square = _helpers(ct)
    code = _CODES[ct]

    @register_jitable
    def lu(a):
        """(the LU factors' column-major buffer, the permutation's sign, singular)"""
        n = square(a)
        af = fbuf(a)
        ipiv = np.empty(n, np.int32)
        st = _la_getrf(code, af, ipiv, n)
        _status(st)
        sign = 1
        for i in range(n):
            if ipiv[i] != i + 1:
                sign = -sign
        return af, sign, st > 0

    return lu


@functools.lru_cache(maxsize=None)
def _det_impl(ct, rt):
    lu = _lu_impl(ct)

    def impl(a):
        af, sign, singular = lu(a)
        d = ct(sign)
        if singular:
            return rt(0)
        for i in range(af.shape[0]):
            d = d * af[i, i]
        return rt(d)

    return impl


@overload(np.linalg.det)
def _ov_det(a):
    _square_arg("det", a)
    return _det_impl(*_lapack_types(a))


@functools.lru_cache(maxsize=None)
def _slogdet_impl(ct, rt, cplx):
    lu = _lu_impl(ct)
    real = _real_of(rt)

    def impl(a):
        af, sign, singular = lu(a)
        if singular:
            return rt(0), real(-np.inf)
        s = ct(sign)
        logdet = 0.0
        for i in range(af.shape[0]):
            d = af[i, i]
            ad = abs(d)
            s = s * (d / ad)
            logdet += np.log(ad)
        return rt(s), real(logdet)

    return impl


@overload(np.linalg.slogdet)
def _ov_slogdet(a):
    _square_arg("slogdet", a)
    ct, rt = _lapack_types(a)
    return _slogdet_impl(ct, rt, ct is np.complex128)


@functools.lru_cache(maxsize=None)
def _cholesky_impl(ct, rt):
    fbuf, square = _helpers(ct)
    code = _CODES[ct]

    def impl(a, upper=False):
        n = square(a)
        af = fbuf(a)
        st = _la_potrf(code, af, n)
        _status(st)
        if st > 0:
            raise LinAlgError("Matrix is not positive definite")
        r = np.zeros((n, n), rt)
        for i in range(n):
            for j in range(i + 1):
                if upper:
                    r[j, i] = af[j, i].conjugate()
                else:
                    r[i, j] = af[j, i]
        return r

    return impl


@overload(np.linalg.cholesky)
def _ov_cholesky(a, upper=False):
    _square_arg("cholesky", a)
    if upper is not False and not isinstance(upper, types.Boolean):
        raise TypingError("np.linalg.cholesky(): upper must be a bool, got %s" % upper)
    return _cholesky_impl(*_lapack_types(a))


@functools.lru_cache(maxsize=None)
def _eigh_impl(ct, rt, vectors):
    fbuf, square = _helpers(ct)
    code = _CODES[ct]
    real_c = _real_of(ct)
    real_r = _real_of(rt)

    @register_jitable
    def impl(a, UPLO="L"):
        n = square(a)
        af = fbuf(a)
        w = np.empty(n, real_c)
        st = _la_syevd(code, af, w, n, 1 if vectors else 0)
        _status(st)
        if st > 0:
            raise LinAlgError("Eigenvalues did not converge")
        return w.astype(real_r), af.T.astype(rt)

    def impl_vals(a, UPLO="L"):
        return impl(a, UPLO)[0]

    return impl if vectors else impl_vals


def _uplo_ok(name, UPLO):
    if not (UPLO == "L" or (isinstance(UPLO, types.StringLiteral) and UPLO.literal_value == "L")):
        raise TypingError("np.linalg.%s(): only UPLO='L' (the default) is supported in compiled "
                          "code" % name)


@overload(np.linalg.eigh)
def _ov_eigh(a, UPLO="L"):
    _square_arg("eigh", a)
    _uplo_ok("eigh", UPLO)
    return _eigh_impl(*_lapack_types(a), True)


@overload(np.linalg.eigvalsh)
def _ov_eigvalsh(a, UPLO="L"):
    _square_arg("eigvalsh", a)
    _uplo_ok("eigvalsh", UPLO)
    return _eigh_impl(*_lapack_types(a), False)


@functools.lru_cache(maxsize=None)
def _eig_impl(ct, rt, vectors):
    fbuf, square = _helpers(ct)
    code = _CODES[ct]
    cplx = ct is np.complex128

    @register_jitable
    def impl(a):
        n = square(a)
        af = fbuf(a)
        wr = np.empty(n, ct)
        wi = np.zeros(n, ct)
        vr = np.empty((n, n) if vectors else (1, 1), ct)
        st = _la_geev(code, af, wr, wi, vr, n, 1 if vectors else 0)
        _status(st)
        if st > 0:
            raise LinAlgError("Eigenvalues did not converge")
        if not cplx:
            for i in range(n):
                if wi[i] != 0:
                    raise ValueError("eig() argument must not cause a domain change.")
        return wr.astype(rt), vr.T.astype(rt)

    def impl_vals(a):
        return impl(a)[0]

    return impl if vectors else impl_vals


@overload(np.linalg.eig)
def _ov_eig(a):
    _square_arg("eig", a)
    return _eig_impl(*_lapack_types(a), True)


@overload(np.linalg.eigvals)
def _ov_eigvals(a):
    _square_arg("eigvals", a)
    return _eig_impl(*_lapack_types(a), False)


@functools.lru_cache(maxsize=None)
def _svd_impl(ct, rt):
    fbuf, _square = _helpers(ct)
    code = _CODES[ct]
    real_c = _real_of(ct)
    real_r = _real_of(rt)

    @register_jitable
    def svd(a, job):
        """(u, s, vh) of a: job 0 s only, 1 reduced, 2 full"""
        m, n = a.shape
        k = min(m, n)
        af = fbuf(a)
        s = np.empty(k, real_c)
        ucols = m if job == 2 else k
        vrows = n if job == 2 else k
        u = np.zeros((ucols if job else 1, m if job else 1), ct)
        vt = np.zeros((n if job else 1, vrows if job else 1), ct)
        if k == 0:
            for i in range(min(u.shape[0], u.shape[1])):
                u[i, i] = 1
            for i in range(min(vt.shape[0], vt.shape[1])):
                vt[i, i] = 1
            return u.T, s, vt.T
        st = _la_gesdd(code, af, s, u, vt, m, n, job)
        _status(st)
        if st > 0:
            raise LinAlgError("SVD did not converge")
        return u.T, s, vt.T

    def impl(a, full_matrices=True, compute_uv=True, hermitian=False):
        u, s, vh = svd(a, 2 if full_matrices else 1)
        return u.astype(rt), s.astype(real_r), vh.astype(rt)

    return svd, impl


@overload(np.linalg.svd)
def _ov_svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    if not _is_array(a, (2,)):
        raise TypingError("np.linalg.svd() in compiled code takes a 2-D array of numbers, got %s"
                          % a)
    _need_lapack("svd")
    if compute_uv is not True or hermitian is not False:
        raise TypingError("np.linalg.svd(): compute_uv= and hermitian= are not supported in "
                          "compiled code (use np.linalg.norm(a, 2) or matrix_rank for the values)")
    return _svd_impl(*_lapack_types(a))[1]


@functools.lru_cache(maxsize=None)
def _qr_impl(ct, rt):
    fbuf, _square = _helpers(ct)
    code = _CODES[ct]

    def impl(a, mode="reduced"):
        m, n = a.shape
        k = min(m, n)
        r = np.zeros((k, n), rt)
        if k == 0:
            return np.zeros((m, k), rt), r
        af = fbuf(a)
        tau = np.empty(k, ct)
        st = _la_geqrf(code, af, tau, m, n)
        _status(st)
        for i in range(k):
            for j in range(i, n):
                r[i, j] = af[j, i]
        q = af[:k].copy()
        _status(_la_orgqr(code, q, tau, m, k, k))
        return q.T.astype(rt), r

    return impl


@overload(np.linalg.qr)
def _ov_qr(a, mode="reduced"):
    if not _is_array(a, (2,)):
        raise TypingError("np.linalg.qr() in compiled code takes a 2-D array of numbers, got %s"
                          % a)
    _need_lapack("qr")
    if not (mode == "reduced" or (isinstance(mode, types.StringLiteral) and
                                  mode.literal_value == "reduced")):
        raise TypingError("np.linalg.qr(): only mode='reduced' (the default) is supported in "
                          "compiled code")
    return _qr_impl(*_lapack_types(a))


@functools.lru_cache(maxsize=None)
def _lstsq_parts(rt, bdim):
    @register_jitable
    def ncols2(b):
        return b.shape[1]

    @register_jitable
    def ncols1(b):
        return 1

    @register_jitable
    def load2(bf, b):
        for j in range(b.shape[1]):
            for i in range(b.shape[0]):
                bf[j, i] = b[i, j]

    @register_jitable
    def load1(bf, b):
        for i in range(b.shape[0]):
            bf[0, i] = b[i]

    @register_jitable
    def solution2(bf, n):
        return bf[:, :n].T.astype(rt)

    @register_jitable
    def solution1(bf, n):
        return bf[0, :n].astype(rt)

    if bdim == 2:
        return ncols2, load2, solution2
    return ncols1, load1, solution1


@functools.lru_cache(maxsize=None)
def _lstsq_impl(ct, rt, bdim, rcond_none):
    fbuf, _square = _helpers(ct)
    code = _CODES[ct]
    real_c = _real_of(ct)
    real_r = _real_of(rt)
    eps = float(np.finfo(real_r).eps)
    ncols, load, solution = _lstsq_parts(rt, bdim)

    def impl(a, b, rcond=None):
        m, n = a.shape
        if b.shape[0] != m:
            raise LinAlgError("Incompatible dimensions")
        nrhs = ncols(b)
        mx = max(m, n)
        af = fbuf(a)
        bf = np.zeros((nrhs, max(mx, 1)), ct)
        load(bf, b)
        k = min(m, n)
        s = np.zeros(k, real_c)
        rank = np.zeros(1, np.int64)
        rc = eps * mx if rcond_none else _to_float(rcond)
        if k > 0:
            st = _la_gelsd(code, af, bf, s, rank, m, n, nrhs, rc)
            _status(st)
            if st > 0:
                raise LinAlgError("SVD did not converge in Linear Least Squares")
        r = rank[0]
        if r == n and m > n:
            resid = np.zeros(nrhs, real_r)
            for j in range(nrhs):
                acc = 0.0
                for i in range(n, m):
                    v = bf[j, i]
                    acc += (v * v.conjugate()).real
                resid[j] = acc
        else:
            resid = np.zeros(0, real_r)
        return solution(bf, n), resid, r, s.astype(real_r)

    return impl


@overload(np.linalg.lstsq)
def _ov_lstsq(a, b, rcond=None):
    if not _is_array(a, (2,)) or not _is_array(b):
        raise TypingError("np.linalg.lstsq() in compiled code takes a 2-D array a and a 1-D or "
                          "2-D array b, got (%s, %s)" % (a, b))
    _need_lapack("lstsq")
    rcond_none = rcond is None or isinstance(rcond, types.NoneType)
    if not rcond_none and not isinstance(rcond, (types.Float, types.Integer)):
        raise TypingError("np.linalg.lstsq(): rcond must be a number or None, got %s" % rcond)
    ct, rt = _lapack_types(a, b)
    return _lstsq_impl(ct, rt, b.ndim, rcond_none)


@functools.lru_cache(maxsize=None)
def _pinv_impl(ct, rt, rcond_none):
    svd, _impl = _svd_impl(ct, ct)
    _vv, _mv, _vm, mm_into = _products(ct, True)

    def impl(a, rcond=None, hermitian=False):
        m, n = a.shape
        if m == 0 or n == 0:
            return np.zeros((n, m), rt)
        u, s, vh = svd(a, 1)
        rc = 1e-15 if rcond_none else _to_float(rcond)
        cutoff = rc * s.max()
        k = s.shape[0]
        # pinv = vh^H diag(1/s) u^H
        left = np.empty((n, k), ct)
        for i in range(n):
            for j in range(k):
                sj = s[j]
                left[i, j] = vh[j, i].conjugate() / sj if sj > cutoff else 0
        uh = np.empty((k, m), ct)
        for i in range(k):
            for j in range(m):
                uh[i, j] = u[j, i].conjugate()
        out = np.empty((n, m), ct)
        mm_into(left, uh, out)
        return out.astype(rt)

    return impl


@overload(np.linalg.pinv)
def _ov_pinv(a, rcond=None, hermitian=False):
    _square_arg_any("pinv", a)
    rcond_none = rcond is None or isinstance(rcond, types.NoneType)
    if hermitian is not False:
        raise TypingError("np.linalg.pinv(): hermitian= is not supported in compiled code")
    return _pinv_impl(*_lapack_types(a), rcond_none)


def _square_arg_any(name, a):
    if not _is_array(a, (2,)):
        raise TypingError("np.linalg.%s() in compiled code takes a 2-D array of numbers, got %s"
                          % (name, a))
    _need_lapack(name)


@functools.lru_cache(maxsize=None)
def _rank_impl(ct, rt, ndim, tol_none):
    if ndim == 1:
        def impl1(A, tol=None, hermitian=False):
            for i in range(A.shape[0]):
                if A[i] != 0:
                    return 1
            return 0
        return impl1
    svd, _impl = _svd_impl(ct, ct)
    eps = float(np.finfo(_real_of(rt)).eps)  # NumPy's: of the SVD's (result) type

    def impl(A, tol=None, hermitian=False):
        m, n = A.shape
        if m == 0 or n == 0:
            return 0
        _u, s, _vh = svd(A, 0)
        t = s.max() * max(m, n) * eps if tol_none else _to_float(tol)
        r = 0
        for i in range(s.shape[0]):
            if s[i] > t:
                r += 1
        return r

    return impl


@overload(np.linalg.matrix_rank)
def _ov_matrix_rank(A, tol=None, hermitian=False):
    if not _is_array(A):
        raise TypingError("np.linalg.matrix_rank() in compiled code takes a 1-D or 2-D array of "
                          "numbers, got %s" % A)
    if A.ndim == 2:
        _need_lapack("matrix_rank")
    if hermitian is not False:
        raise TypingError("np.linalg.matrix_rank(): hermitian= is not supported in compiled code")
    tol_none = tol is None or isinstance(tol, types.NoneType)
    ct, rt = _lapack_types(A)
    return _rank_impl(ct, rt, A.ndim, tol_none)


@register_jitable
def _no_inv(a):
    if a.size >= 0:
        raise TypeError("matrix_power of a non-float matrix to a negative power is not "
                        "supported in compiled code")
    return a


@functools.lru_cache(maxsize=None)
def _power_impl(dt, blas, can_inv):
    _vv, _mv, _vm, mm_into = _products(dt, blas)
    inv = _inv_impl(dt, dt) if can_inv else _no_inv

    @register_jitable
    def mul(x, y):
        out = np.empty((x.shape[0], y.shape[1]), dt)
        mm_into(x, y, out)
        return out

    def impl(a, n):
        m = a.shape[0]
        if a.shape[1] != m:
            raise LinAlgError(_SQUARE_MSG)
        if n == 0:
            r = np.zeros((m, m), dt)
            for i in range(m):
                r[i, i] = 1
            return r
        if n < 0:
            base = inv(a)
            e = -n
        else:
            base = a.astype(dt)
            e = n
        result = base.copy()
        e -= 1
        while e > 0:
            if e & 1:
                result = mul(result, base)
            e >>= 1
            if e:
                base = mul(base, base)
        return result

    return impl


@overload(np.linalg.matrix_power)
def _ov_matrix_power(a, n):
    if not _is_array(a, (2,)):
        raise TypingError("np.linalg.matrix_power() in compiled code takes a 2-D array of "
                          "numbers, got %s" % a)
    if not isinstance(n, (types.Integer, types.Boolean)):
        raise TypingError("np.linalg.matrix_power(): the exponent must be an int, got %s" % n)
    dt = _np_dtype(a.dtype).type
    ready = _blas_ready()
    return _power_impl(dt, ready and dt in _CODES, ready and dt in _CODES)


# ---- norm and cond -------------------------------------------------------------------------

_NUMPY = {"error_model": "numpy"}  # 1/0 gives inf, as NumPy's division


@register_jitable
def _vnorm(v, p, none):
    """The vector norm of 1-D v of order p (a float; `none`: ord=None, the 2-norm)."""
    n = v.shape[0]
    if none or p == 2:
        acc = 0.0
        for i in range(n):
            x = abs(v[i])
            acc += x * x
        return np.sqrt(acc)
    if p == np.inf or p == -np.inf:
        if n == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no "
                             "identity")
        best = abs(v[0]) * 1.0
        for i in range(1, n):
            x = abs(v[i])
            if (x > best if p > 0 else x < best) or x != x:
                best = x
        return best
    if p == 0:
        c = 0.0
        for i in range(n):
            if v[i] != 0:
                c += 1
        return c
    if p == 1:
        acc = 0.0
        for i in range(n):
            acc += abs(v[i])
        return acc
    acc = 0.0
    for i in range(n):
        acc += abs(v[i]) ** p
    return acc ** (1.0 / p)


@register_jitable
def _frobenius(x):
    v = x.ravel()
    acc = 0.0
    for i in range(v.shape[0]):
        a = abs(v[i])
        acc += a * a
    return np.sqrt(acc)


@register_jitable
def _line_sums(a, axis):
    """sum |a| along `axis` of 2-D a"""
    n, m = a.shape
    r = np.zeros(m if axis == 0 else n)
    for i in range(n):
        for j in range(m):
            if axis == 0:
                r[j] += abs(a[i, j])
            else:
                r[i] += abs(a[i, j])
    return r


@functools.lru_cache(maxsize=None)
def _frob_impl(xt):
    """sqrt(sum |x|**2) of an array of NumPy type xt: BLAS's dot/dotc of the flattened array
    (as NumPy computes it) when SciPy's BLAS is loaded and xt is a BLAS type, else a loop."""
    code = _CODES.get(xt, -1)
    if code < 0 or not _blas_ready():
        return _frobenius

    @register_jitable
    def frob(x):
        if x.size <= 64:
            return _frobenius(x)
        v = x.ravel()
        out = np.empty(1, xt)
        _status(_la_dot(code, v, v, out, 1))
        return np.sqrt(abs(out[0]) * 1.0)

    return frob


@functools.lru_cache(maxsize=None)
def _svals_impl(ct):
    svd = _svd_impl(ct, ct)[0]

    @register_jitable
    def svals(a):
        return svd(a, 0)[1]

    return svals


@register_jitable
def _no_svals(a):
    if a.size >= 0:
        raise RuntimeError("this matrix norm needs SciPy")  # typing refuses such an ord first
    return np.zeros(1)


@functools.lru_cache(maxsize=None)
def _mnorm_impl(ct, string, svd_ok, xt=None):
    """The matrix norm of 2-D a: `string` is 'fro', 'nuc' or None (a numeric or None ord)."""
    svals = _svals_impl(ct) if svd_ok else _no_svals
    frob = _frob_impl(xt)

    @register_jitable
    def mnorm(a, p, none):
        if none or string == "fro":
            return frob(a)
        if string == "nuc":
            return svals(a).sum() if a.size else 0.0
        if p == 2 or p == -2:
            if a.size == 0:
                raise ValueError("zero-size array to reduction operation maximum which has no "
                                 "identity")
            s = svals(a)
            return s.max() if p == 2 else s.min()
        if p == 1 or p == -1:
            c = _line_sums(a, 0)
            return c.max() if p == 1 else c.min()
        if p == np.inf or p == -np.inf:
            r = _line_sums(a, 1)
            return r.max() if p > 0 else r.min()
        raise ValueError("Invalid norm order for matrices.")

    return mnorm


@functools.lru_cache(maxsize=None)
def _norm_impl(form, rt, ct, string, none, svd_ok, xt):
    """form: 'flat' (ord None, axis None: any ndim), 'vector' (1-D), 'matrix' (2-D, axis None or
    (0, 1)), 'matrix_t' (axis (1, 0)), 'axis' (2-D, vector norms along an int axis)."""
    mnorm = _mnorm_impl(ct, string, svd_ok, xt) if form in ("matrix", "matrix_t") else None
    frob = _frob_impl(xt)

    def flat(x, ord=None, axis=None, keepdims=False):
        return rt(frob(x))

    def vector(x, ord=None, axis=None, keepdims=False):
        p = 2.0 if none else _to_float(ord)
        if none:
            return rt(frob(x))
        return rt(_vnorm(x, p, none))

    def matrix(x, ord=None, axis=None, keepdims=False):
        p = 0.0 if none or string is not None else _to_float(ord)
        return rt(mnorm(x, p, none))

    def matrix_t(x, ord=None, axis=None, keepdims=False):
        p = 0.0 if none or string is not None else _to_float(ord)
        return rt(mnorm(x.T, p, none))

    def along(x, ord=None, axis=None, keepdims=False):
        p = 2.0 if none else _to_float(ord)
        ax = axis + 2 if axis < 0 else axis
        if ax < 0 or ax > 1:
            raise AxisError("axis is out of bounds for array of dimension 2")
        if ax == 0:
            r = np.empty(x.shape[1], rt)
            for j in range(x.shape[1]):
                r[j] = _vnorm(x[:, j], p, none)
        else:
            r = np.empty(x.shape[0], rt)
            for i in range(x.shape[0]):
                r[i] = _vnorm(x[i], p, none)
        return r

    return {"flat": flat, "vector": vector, "matrix": matrix, "matrix_t": matrix_t,
            "axis": along}[form]


def _ord_kind(ord_):
    """(none, string) for an ord type, or a TypingError"""
    if ord_ is None or isinstance(ord_, types.NoneType):
        return True, None
    if isinstance(ord_, types.StringLiteral) and ord_.literal_value in ("fro", "nuc"):
        return False, ord_.literal_value
    if isinstance(ord_, (types.Integer, types.Float, types.Boolean)):
        return False, None
    raise TypingError("np.linalg.norm(): ord must be None, a number (inf included), 'fro' or "
                      "'nuc', got %s" % ord_)


@overload(np.linalg.norm, jit_options=_NUMPY)
def _ov_norm(x, ord=None, axis=None, keepdims=False):
    if not _is_array(x, range(0, 33)):
        raise TypingError("np.linalg.norm() in compiled code takes an array of numbers, got %s"
                          % x)
    if keepdims is not False and not (isinstance(keepdims, types.Boolean) and False):
        raise TypingError("np.linalg.norm(): keepdims= is not supported in compiled code")
    none, string = _ord_kind(ord)
    ct, rt = _lapack_types(x)
    rt = _real_of(rt)
    xt = _np_dtype(x.dtype).type
    axis_none = axis is None or isinstance(axis, types.NoneType)
    if axis_none and none and x.ndim != 2:
        form = "flat"
    elif x.ndim == 1 and (axis_none or isinstance(axis, types.Integer)):
        form = "vector"
    elif x.ndim == 2 and axis_none:
        form = "matrix"
    elif x.ndim == 2 and isinstance(axis, types.Integer):
        form = "axis"
    elif x.ndim == 2 and isinstance(axis, types.BaseTuple) and len(axis) == 2:
        form = "matrix"  # (0, 1); (1, 0) is checked at run time below
        return _norm_axes(ct, rt, string, none, _svd_needed(string, none), xt)
    else:
        raise TypingError("np.linalg.norm() in compiled code takes axis=None for any array, an "
                          "int for 1-D and 2-D arrays, or a pair for 2-D arrays; got %s with "
                          "axis %s" % (x, axis))
    if string is not None and form != "matrix":
        raise TypingError("np.linalg.norm(): ord=%r is for matrices (2-D)" % string)
    svd_ok = form == "matrix" and _svd_needed(string, none)
    return _norm_impl(form, rt, ct, string, none, svd_ok, xt)


def _svd_needed(string, none):
    """a matrix norm that may need the SVD (ord numeric or 'nuc'): needs SciPy"""
    if none or string == "fro":
        return False
    _need_lapack("norm")
    return True


@functools.lru_cache(maxsize=None)
def _norm_axes(ct, rt, string, none, svd_ok, xt):
    mnorm = _mnorm_impl(ct, string, svd_ok, xt)

    def impl(x, ord=None, axis=None, keepdims=False):
        p = 0.0 if none or string is not None else _to_float(ord)
        a0 = axis[0] + 2 if axis[0] < 0 else axis[0]
        a1 = axis[1] + 2 if axis[1] < 0 else axis[1]
        if a0 == a1 or a0 < 0 or a0 > 1 or a1 < 0 or a1 > 1:
            raise ValueError("Duplicate axes given.")
        if a0 == 0:
            return rt(mnorm(x, p, none))
        return rt(mnorm(x.T, p, none))

    return impl


@functools.lru_cache(maxsize=None)
def _cond_impl(ct, rt, string, none):
    svd = _svd_impl(ct, ct)[0]
    mnorm = _mnorm_impl(ct, string, True)
    fbuf, square = _helpers(ct)
    code = _CODES[ct]

    def impl(x, p=None):
        m, n = x.shape
        if m == 0 or n == 0:
            raise LinAlgError("cond is not defined on empty arrays")
        pv = 0.0 if none or string is not None else _to_float(p)
        if string is None and (none or pv == 2 or pv == -2):
            s = svd(x, 0)[1]
            if pv == -2:
                r = s[s.shape[0] - 1] / s[0]
            else:
                r = s[0] / s[s.shape[0] - 1]
        else:
            k = square(x)
            af = fbuf(x)
            inv = np.zeros((k, k), ct)
            for i in range(k):
                inv[i, i] = 1
            st = _la_gesv(code, af, inv, k, k)
            _status(st)
            if st > 0:
                return rt(np.inf)
            r = mnorm(x, pv, none) * mnorm(inv.T, pv, none)
        if r != r:
            for v in x.ravel():
                if v != v:
                    return rt(r)
            return rt(np.inf)
        return rt(r)

    return impl


@overload(np.linalg.cond, jit_options=_NUMPY)
def _ov_cond(x, p=None):
    _square_arg_any("cond", x)
    none, string = _ord_kind(p)
    ct, rt = _lapack_types(x)
    return _cond_impl(ct, _real_of(rt), string, none)
