/* linalg.c - BLAS and LAPACK for compiled code, as Numba takes them: Fortran routines reached
 * through function pointers that SciPy exports (scipy.linalg.cython_blas / cython_lapack
 * __pyx_capi__ capsules). dispatch/linalg.c fills the table once, on the first compile that
 * needs it (kn_rt_la_set); kiln/lib/linalg.py's implementations call the wrappers below through
 * the kiln._linalg entries (lib/linalg.def, lowered by lower/linalg.c).
 *
 * Calling convention: every argument by pointer, 32-bit ints (SciPy's interface), no hidden
 * string lengths. Each wrapper takes the dtype code (0 float32 "s", 1 float64 "d", 2 complex64
 * "c", 3 complex128 "z") first and arrays as pointers to their struct (KnLaArray, the layout of
 * compiled code's arrays: shape then byte strides). The products (gemm, gemv, dot) read any
 * layout: they pick BLAS's transpose flags from the strides of row-major operands (C = A B is
 * C^T = B^T A^T in column-major terms), and copy an operand that no flag fits (or whose
 * strides are not positive) into a contiguous temporary. The LAPACK wrappers take buffers that
 * kiln/lib/linalg.py has already laid out in column-major order, plus the sizes, and return
 * LAPACK's info (> 0: singular, not positive definite, no convergence), or KN_LA_NOMEM,
 * KN_LA_TOO_BIG (a size past int32) or KN_LA_MISSING (a routine SciPy did not export).
 * Workspaces are queried (lwork = -1) and malloc'ed here. */
#include "runtime/linalg.h"

#include <complex.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct KnLaArray {
    void *meminfo;
    void *parent;
    int64_t nitems;
    int64_t itemsize;
    char *data;
    int64_t dims[]; /* shape[ndim], then strides[ndim] in bytes */
};

enum {
    OP_GEMM,
    OP_GEMV,
    OP_DOTU,
    OP_DOTC,
    OP_GESV,
    OP_GETRF,
    OP_POTRF,
    OP_SYEVD,
    OP_GESDD,
    OP_GEQRF,
    OP_ORGQR,
    OP_GEEV,
    OP_GELSD,
    OP__COUNT
};

static const char *const names[KN_LA_NAME_COUNT] = {
    "sgemm",  "dgemm",  "cgemm",  "zgemm",  "sgemv",  "dgemv",  "cgemv",  "zgemv",  "sdot",
    "ddot",   "cdotu",  "zdotu",  "sdot",   "ddot",   "cdotc",  "zdotc",  "sgesv",  "dgesv",
    "cgesv",  "zgesv",  "sgetrf", "dgetrf", "cgetrf", "zgetrf", "spotrf", "dpotrf", "cpotrf",
    "zpotrf", "ssyevd", "dsyevd", "cheevd", "zheevd", "sgesdd", "dgesdd", "cgesdd", "zgesdd",
    "sgeqrf", "dgeqrf", "cgeqrf", "zgeqrf", "sorgqr", "dorgqr", "cungqr", "zungqr", "sgeev",
    "dgeev",  "cgeev",  "zgeev",  "sgelsd", "dgelsd", "cgelsd", "zgelsd",
};

static void *table[KN_LA_NAME_COUNT];
static const int64_t esize[4] = {4, 8, 8, 16}; /* an element */
static const float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
static const double one_d[2] = {1, 0}, zero_d[2] = {0, 0};

const char *
kn_rt_la_name(int i)
{
    return i >= 0 && i < KN_LA_NAME_COUNT ? names[i] : NULL;
}

void
kn_rt_la_set(int i, void *fn)
{
    if (i >= 0 && i < KN_LA_NAME_COUNT)
        table[i] = fn;
}

int
kn_rt_la_loaded(void)
{
    return table[OP_GEMM * 4 + 1] != NULL;
}

static void *
fn_of(int op, int64_t dt)
{
    return table[op * 4 + (int)(dt & 3)];
}

static int
too_big(int64_t v)
{
    return v > INT_MAX || v < 0;
}

static const void *
one_of(int64_t dt)
{
    return dt & 1 ? (const void *)one_d : (const void *)one_f;
}

static const void *
zero_of(int64_t dt)
{
    return dt & 1 ? (const void *)zero_d : (const void *)zero_f;
}

/* ---- the products ------------------------------------------------------------------------- */

typedef void (*gemm_fn)(char *, char *, int *, int *, int *, const void *, void *, int *, void *,
                        int *, const void *, void *, int *);
typedef void (*gemv_fn)(char *, int *, int *, const void *, void *, int *, void *, int *,
                        const void *, void *, int *);
typedef float (*sdot_fn)(int *, void *, int *, void *, int *);
typedef double (*ddot_fn)(int *, void *, int *, void *, int *);
typedef float complex (*cdot_fn)(int *, void *, int *, void *, int *);
typedef double complex (*zdot_fn)(int *, void *, int *, void *, int *);

/* A rows x cols matrix (byte strides s0, s1) as a column-major BLAS operand op(X) equal to its
 * transpose: trans 'N' when its rows are contiguous, 'T' when its columns are; 0 when neither
 * (the caller copies it). */
static int
operand(int64_t rows, int64_t cols, int64_t s0, int64_t s1, int64_t es, char *trans, int *ld)
{
    int64_t c1 = cols > 1 ? cols : 1, r1 = rows > 1 ? rows : 1;
    if ((cols <= 1 || s1 == es) && (rows <= 1 || (s0 > 0 && s0 % es == 0 && s0 / es >= c1))) {
        int64_t ld64 = rows <= 1 ? c1 : s0 / es;
        if (too_big(ld64))
            return 0;
        *trans = 'N';
        *ld = (int)ld64;
        return 1;
    }
    if ((rows <= 1 || s0 == es) && (cols <= 1 || (s1 > 0 && s1 % es == 0 && s1 / es >= r1))) {
        int64_t ld64 = cols <= 1 ? r1 : s1 / es;
        if (too_big(ld64))
            return 0;
        *trans = 'T';
        *ld = (int)ld64;
        return 1;
    }
    return 0;
}

static void
copy2(char *dst, int64_t d0, int64_t d1, const char *src, int64_t s0, int64_t s1, int64_t rows,
      int64_t cols, int64_t es)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            memcpy(dst + i * d0 + j * d1, src + i * s0 + j * s1, (size_t)es);
}

/* A contiguous row-major copy of a rows x cols matrix, or NULL. */
static char *
packed(const char *src, int64_t rows, int64_t cols, int64_t s0, int64_t s1, int64_t es)
{
    char *p = malloc((size_t)(rows * cols * es) + 16);
    if (p)
        copy2(p, cols * es, es, src, s0, s1, rows, cols, es);
    return p;
}

static void
zero2(char *dst, int64_t d0, int64_t d1, int64_t rows, int64_t cols, int64_t es)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            memset(dst + i * d0 + j * d1, 0, (size_t)es);
}

/* c = a @ b for 2-D a (m, k), b (k, n), c (m, n) of one dtype, any strides. */
int64_t
kn_rt_la_gemm(int64_t dt, const KnLaArray *a, const KnLaArray *b, KnLaArray *c)
{
    gemm_fn f = (gemm_fn)fn_of(OP_GEMM, dt);
    int64_t es = esize[dt & 3], m = a->dims[0], k = a->dims[1], n = b->dims[1];
    int64_t cs0 = c->dims[2], cs1 = c->dims[3];
    if (!f)
        return KN_LA_MISSING;
    if (m == 0 || n == 0)
        return 0;
    if (k == 0) {
        zero2(c->data, cs0, cs1, m, n, es);
        return 0;
    }
    if (too_big(m) || too_big(n) || too_big(k))
        return KN_LA_TOO_BIG;
    char ta, tb, tc;
    int lda, ldb, ldc, im = (int)m, in = (int)n, ik = (int)k;
    char *pa = a->data, *pb = b->data, *pc = c->data, *ta_buf = NULL, *tb_buf = NULL;
    char *tc_buf = NULL;
    if (!operand(m, k, a->dims[2], a->dims[3], es, &ta, &lda)) {
        pa = ta_buf = packed(a->data, m, k, a->dims[2], a->dims[3], es);
        ta = 'N';
        lda = ik;
    }
    if (!operand(k, n, b->dims[2], b->dims[3], es, &tb, &ldb)) {
        pb = tb_buf = packed(b->data, k, n, b->dims[2], b->dims[3], es);
        tb = 'N';
        ldb = in;
    }
    if (!operand(m, n, cs0, cs1, es, &tc, &ldc) || tc != 'N') {
        pc = tc_buf = malloc((size_t)(m * n * es) + 16);
        ldc = in;
    }
    int64_t rc = 0;
    if ((!pa || !pb || !pc))
        rc = KN_LA_NOMEM;
    else
        f(&tb, &ta, &in, &im, &ik, one_of(dt), pb, &ldb, pa, &lda, zero_of(dt), pc, &ldc);
    if (tc_buf && !rc)
        copy2(c->data, cs0, cs1, tc_buf, n * es, es, m, n, es);
    free(ta_buf);
    free(tb_buf);
    free(tc_buf);
    return rc;
}

/* A vector (n items, byte stride s) as BLAS's x and incx: a copy when s is not positive. */
static char *
vector(const char *p, int64_t n, int64_t s, int64_t es, int *inc, char **tmp)
{
    *tmp = NULL;
    if (n <= 1 || (s > 0 && s % es == 0 && !too_big(s / es))) {
        *inc = n <= 1 ? 1 : (int)(s / es);
        return (char *)p;
    }
    *tmp = packed(p, n, 1, s, 0, es);
    *inc = 1;
    return *tmp;
}

/* y = a @ x for 2-D a (m, k), 1-D x (k,) and y (m,). */
int64_t
kn_rt_la_gemv(int64_t dt, const KnLaArray *a, const KnLaArray *x, KnLaArray *y)
{
    gemv_fn f = (gemv_fn)fn_of(OP_GEMV, dt);
    int64_t es = esize[dt & 3], m = a->dims[0], k = a->dims[1];
    if (!f)
        return KN_LA_MISSING;
    if (m == 0)
        return 0;
    if (k == 0) {
        zero2(y->data, y->dims[1], 0, m, 1, es);
        return 0;
    }
    if (too_big(m) || too_big(k))
        return KN_LA_TOO_BIG;
    char t, *ta = NULL, *tx, *ty;
    int lda, incx, incy, r, cdim;
    char *pa = a->data;
    if (!operand(m, k, a->dims[2], a->dims[3], es, &t, &lda)) {
        pa = ta = packed(a->data, m, k, a->dims[2], a->dims[3], es);
        t = 'N';
        lda = (int)k;
    }
    /* column-major: 'N' means the memory is a^T (k x m), so BLAS computes with trans 'T' */
    char bt = t == 'N' ? 'T' : 'N';
    r = t == 'N' ? (int)k : (int)m;
    cdim = t == 'N' ? (int)m : (int)k;
    char *px = vector(x->data, k, x->dims[1], es, &incx, &tx);
    char *py = vector(y->data, m, y->dims[1], es, &incy, &ty);
    int64_t rc = 0;
    if (!pa || !px || !py)
        rc = KN_LA_NOMEM;
    else
        f(&bt, &r, &cdim, one_of(dt), pa, &lda, px, &incx, zero_of(dt), py, &incy);
    if (ty && !rc)
        copy2(y->data, y->dims[1], 0, ty, es, 0, m, 1, es);
    free(ta);
    free(tx);
    free(ty);
    return rc;
}

/* out[0] = sum(x * y), conjugating x when conj (np.vdot) */
int64_t
kn_rt_la_dot(int64_t dt, const KnLaArray *x, const KnLaArray *y, KnLaArray *out, int64_t conj)
{
    void *f = fn_of(conj ? OP_DOTC : OP_DOTU, dt);
    int64_t es = esize[dt & 3], n = x->dims[0];
    if (!f)
        return KN_LA_MISSING;
    if (n == 0) {
        memset(out->data, 0, (size_t)es);
        return 0;
    }
    if (too_big(n))
        return KN_LA_TOO_BIG;
    char *tx, *ty;
    int incx, incy, in = (int)n;
    char *px = vector(x->data, n, x->dims[1], es, &incx, &tx);
    char *py = vector(y->data, n, y->dims[1], es, &incy, &ty);
    int64_t rc = 0;
    if (!px || !py) {
        rc = KN_LA_NOMEM;
    } else if (dt == 0) {
        float r = ((sdot_fn)f)(&in, px, &incx, py, &incy);
        memcpy(out->data, &r, sizeof r);
    } else if (dt == 1) {
        double r = ((ddot_fn)f)(&in, px, &incx, py, &incy);
        memcpy(out->data, &r, sizeof r);
    } else if (dt == 2) {
        float complex r = ((cdot_fn)f)(&in, px, &incx, py, &incy);
        memcpy(out->data, &r, sizeof r);
    } else {
        double complex r = ((zdot_fn)f)(&in, px, &incx, py, &incy);
        memcpy(out->data, &r, sizeof r);
    }
    free(tx);
    free(ty);
    return rc;
}

/* ---- LAPACK: column-major buffers laid out by the caller ------------------------------------- */

typedef void (*gesv_fn)(int *, int *, void *, int *, int *, void *, int *, int *);
typedef void (*getrf_fn)(int *, int *, void *, int *, int *, int *);
typedef void (*potrf_fn)(char *, int *, void *, int *, int *);
typedef void (*syevd_fn)(char *, char *, int *, void *, int *, void *, void *, int *, int *, int *,
                         int *);
typedef void (*heevd_fn)(char *, char *, int *, void *, int *, void *, void *, int *, void *, int *,
                         int *, int *, int *);
typedef void (*gesdd_r_fn)(char *, int *, int *, void *, int *, void *, void *, int *, void *,
                           int *, void *, int *, int *, int *);
typedef void (*gesdd_c_fn)(char *, int *, int *, void *, int *, void *, void *, int *, void *,
                           int *, void *, int *, void *, int *, int *);
typedef void (*geqrf_fn)(int *, int *, void *, int *, void *, void *, int *, int *);
typedef void (*orgqr_fn)(int *, int *, int *, void *, int *, void *, void *, int *, int *);
typedef void (*geev_r_fn)(char *, char *, int *, void *, int *, void *, void *, void *, int *,
                          void *, int *, void *, int *, int *);
typedef void (*geev_c_fn)(char *, char *, int *, void *, int *, void *, void *, int *, void *,
                          int *, void *, int *, void *, int *);
typedef void (*gelsd_r_fn)(int *, int *, int *, void *, int *, void *, int *, void *, void *, int *,
                           void *, int *, int *, int *);
typedef void (*gelsd_c_fn)(int *, int *, int *, void *, int *, void *, int *, void *, void *, int *,
                           void *, int *, void *, int *, int *);

/* The size a workspace query left in q[0] (the real part), at least `least`. */
static int
queried(int64_t dt, const void *q, int least)
{
    double v = dt & 1 ? *(const double *)q : (double)*(const float *)q;
    int64_t n = (int64_t)v + 1;
    if (n < least)
        n = least;
    return n > INT_MAX ? INT_MAX : (int)n;
}

/* n items of the dtype (real: rsize bytes each), zeroed; NULL when out of memory. */
static void *
items(int64_t n, int64_t size)
{
    return calloc((size_t)(n > 1 ? n : 1), (size_t)size);
}

static int64_t
rsize(int64_t dt)
{
    return dt & 1 ? 8 : 4;
}

static int64_t
imax(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

int64_t
kn_rt_la_gesv(int64_t dt, KnLaArray *a, KnLaArray *b, int64_t n, int64_t nrhs)
{
    gesv_fn f = (gesv_fn)fn_of(OP_GESV, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(n) || too_big(nrhs) || too_big(n * n))
        return KN_LA_TOO_BIG;
    int in = (int)n, ir = (int)nrhs, ld = in > 1 ? in : 1, info = 0;
    int *ipiv = items(n, sizeof(int));
    if (!ipiv)
        return KN_LA_NOMEM;
    f(&in, &ir, a->data, &ld, ipiv, b->data, &ld, &info);
    free(ipiv);
    return info;
}

int64_t
kn_rt_la_getrf(int64_t dt, KnLaArray *a, KnLaArray *ipiv, int64_t n)
{
    getrf_fn f = (getrf_fn)fn_of(OP_GETRF, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(n) || too_big(n * n))
        return KN_LA_TOO_BIG;
    int in = (int)n, ld = in > 1 ? in : 1, info = 0;
    f(&in, &in, a->data, &ld, (int *)ipiv->data, &info);
    return info;
}

int64_t
kn_rt_la_potrf(int64_t dt, KnLaArray *a, int64_t n)
{
    potrf_fn f = (potrf_fn)fn_of(OP_POTRF, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(n) || too_big(n * n))
        return KN_LA_TOO_BIG;
    char lo = 'L';
    int in = (int)n, ld = in > 1 ? in : 1, info = 0;
    f(&lo, &in, a->data, &ld, &info);
    return info;
}

/* eigh: the eigenvalues into w (ascending), the vectors into a's columns when `vectors` */
int64_t
kn_rt_la_syevd(int64_t dt, KnLaArray *a, KnLaArray *w, int64_t n, int64_t vectors)
{
    void *f = fn_of(OP_SYEVD, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(n) || too_big(n * n))
        return KN_LA_TOO_BIG;
    char job = vectors ? 'V' : 'N', lo = 'L';
    int in = (int)n, ld = in > 1 ? in : 1, info = 0, lwork = -1, lrwork = -1, liwork = -1, qi = 0;
    double qw[2] = {0, 0}, qr[2] = {0, 0};
    if (dt < 2)
        ((syevd_fn)f)(&job, &lo, &in, a->data, &ld, w->data, qw, &lwork, &qi, &liwork, &info);
    else
        ((heevd_fn)f)(&job, &lo, &in, a->data, &ld, w->data, qw, &lwork, qr, &lrwork, &qi, &liwork,
                      &info);
    if (info)
        return info;
    lwork = queried(dt, qw, 1);
    lrwork = queried(dt, qr, 1);
    liwork = qi > 1 ? qi : 1;
    void *work = items(lwork, esize[dt]), *rwork = items(lrwork, rsize(dt));
    int *iwork = items(liwork, sizeof(int));
    if (!work || !rwork || !iwork)
        info = KN_LA_NOMEM;
    else if (dt < 2)
        ((syevd_fn)f)(&job, &lo, &in, a->data, &ld, w->data, work, &lwork, iwork, &liwork, &info);
    else
        ((heevd_fn)f)(&job, &lo, &in, a->data, &ld, w->data, work, &lwork, rwork, &lrwork, iwork,
                      &liwork, &info);
    free(work);
    free(rwork);
    free(iwork);
    return info;
}

/* svd of the m x n buffer a: job 0 values only, 1 the reduced u (m x k) and vt (k x n), 2 the
 * full u (m x m) and vt (n x n); k = min(m, n). a is destroyed. */
int64_t
kn_rt_la_gesdd(int64_t dt, KnLaArray *a, KnLaArray *s, KnLaArray *u, KnLaArray *vt, int64_t m,
               int64_t n, int64_t job)
{
    void *f = fn_of(OP_GESDD, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(m) || too_big(n) || too_big(m * n) || too_big(m * m) || too_big(n * n))
        return KN_LA_TOO_BIG;
    int64_t mn = m < n ? m : n, mx = m < n ? n : m;
    char jz = job == 0 ? 'N' : job == 1 ? 'S' : 'A';
    int im = (int)m, in = (int)n, lda = (int)imax(1, m), ldu = (int)imax(1, m);
    int ldvt = (int)imax(1, job == 2 ? n : mn), info = 0, lwork = -1;
    double q[2] = {0, 0};
    int64_t lrwork = job == 0 ? 7 * mn : imax(5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn);
    int *iwork = items(8 * mn, sizeof(int));
    void *rwork = dt >= 2 ? items(lrwork, rsize(dt)) : NULL;
    if (!iwork || (dt >= 2 && !rwork)) {
        free(iwork);
        free(rwork);
        return KN_LA_NOMEM;
    }
    if (dt < 2)
        ((gesdd_r_fn)f)(&jz, &im, &in, a->data, &lda, s->data, u->data, &ldu, vt->data, &ldvt, q,
                        &lwork, iwork, &info);
    else
        ((gesdd_c_fn)f)(&jz, &im, &in, a->data, &lda, s->data, u->data, &ldu, vt->data, &ldvt, q,
                        &lwork, rwork, iwork, &info);
    void *work = NULL;
    if (!info) {
        lwork = queried(dt, q, 1);
        work = items(lwork, esize[dt]);
        if (!work)
            info = KN_LA_NOMEM;
        else if (dt < 2)
            ((gesdd_r_fn)f)(&jz, &im, &in, a->data, &lda, s->data, u->data, &ldu, vt->data, &ldvt,
                            work, &lwork, iwork, &info);
        else
            ((gesdd_c_fn)f)(&jz, &im, &in, a->data, &lda, s->data, u->data, &ldu, vt->data, &ldvt,
                            work, &lwork, rwork, iwork, &info);
    }
    free(work);
    free(rwork);
    free(iwork);
    return info;
}

int64_t
kn_rt_la_geqrf(int64_t dt, KnLaArray *a, KnLaArray *tau, int64_t m, int64_t n)
{
    geqrf_fn f = (geqrf_fn)fn_of(OP_GEQRF, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(m) || too_big(n) || too_big(m * n))
        return KN_LA_TOO_BIG;
    int im = (int)m, in = (int)n, lda = (int)imax(1, m), info = 0, lwork = -1;
    double q[2] = {0, 0};
    f(&im, &in, a->data, &lda, tau->data, q, &lwork, &info);
    if (info)
        return info;
    lwork = queried(dt, q, (int)imax(1, n));
    void *work = items(lwork, esize[dt]);
    if (!work)
        return KN_LA_NOMEM;
    f(&im, &in, a->data, &lda, tau->data, work, &lwork, &info);
    free(work);
    return info;
}

/* the first n columns of Q (m x n buffer a, k reflectors in tau) */
int64_t
kn_rt_la_orgqr(int64_t dt, KnLaArray *a, KnLaArray *tau, int64_t m, int64_t n, int64_t k)
{
    orgqr_fn f = (orgqr_fn)fn_of(OP_ORGQR, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(m) || too_big(n) || too_big(m * n))
        return KN_LA_TOO_BIG;
    int im = (int)m, in = (int)n, ik = (int)k, lda = (int)imax(1, m), info = 0, lwork = -1;
    double q[2] = {0, 0};
    f(&im, &in, &ik, a->data, &lda, tau->data, q, &lwork, &info);
    if (info)
        return info;
    lwork = queried(dt, q, (int)imax(1, n));
    void *work = items(lwork, esize[dt]);
    if (!work)
        return KN_LA_NOMEM;
    f(&im, &in, &ik, a->data, &lda, tau->data, work, &lwork, &info);
    free(work);
    return info;
}

/* eig: real dtypes give the eigenvalues' real and imaginary parts (wr, wi) and vr in LAPACK's
 * packed form (a complex pair in two columns); complex ones give w in wr (wi unused). */
int64_t
kn_rt_la_geev(int64_t dt, KnLaArray *a, KnLaArray *wr, KnLaArray *wi, KnLaArray *vr, int64_t n,
              int64_t vectors)
{
    void *f = fn_of(OP_GEEV, dt);
    if (!f)
        return KN_LA_MISSING;
    if (too_big(n) || too_big(n * n))
        return KN_LA_TOO_BIG;
    char jl = 'N', jr = vectors ? 'V' : 'N';
    int in = (int)n, lda = (int)imax(1, n), ldvl = 1, ldvr = vectors ? lda : 1, info = 0;
    int lwork = -1;
    double q[2] = {0, 0}, vl[2] = {0, 0};
    void *rwork = dt >= 2 ? items(2 * n, rsize(dt)) : NULL;
    if (dt >= 2 && !rwork)
        return KN_LA_NOMEM;
    if (dt < 2)
        ((geev_r_fn)f)(&jl, &jr, &in, a->data, &lda, wr->data, wi->data, vl, &ldvl, vr->data, &ldvr,
                       q, &lwork, &info);
    else
        ((geev_c_fn)f)(&jl, &jr, &in, a->data, &lda, wr->data, vl, &ldvl, vr->data, &ldvr, q,
                       &lwork, rwork, &info);
    void *work = NULL;
    if (!info) {
        lwork = queried(dt, q, (int)imax(1, 4 * n));
        work = items(lwork, esize[dt]);
        if (!work)
            info = KN_LA_NOMEM;
        else if (dt < 2)
            ((geev_r_fn)f)(&jl, &jr, &in, a->data, &lda, wr->data, wi->data, vl, &ldvl, vr->data,
                           &ldvr, work, &lwork, &info);
        else
            ((geev_c_fn)f)(&jl, &jr, &in, a->data, &lda, wr->data, vl, &ldvl, vr->data, &ldvr, work,
                           &lwork, rwork, &info);
    }
    free(work);
    free(rwork);
    return info;
}

/* lstsq: a (m x n) and b (max(m, n) x nrhs) column-major; the solution in b's first n rows, the
 * singular values in s, the effective rank in rank[0] (an int64). */
int64_t
kn_rt_la_gelsd(int64_t dt, KnLaArray *a, KnLaArray *b, KnLaArray *s, KnLaArray *rank, int64_t m,
               int64_t n, int64_t nrhs, double rcond)
{
    void *f = fn_of(OP_GELSD, dt);
    if (!f)
        return KN_LA_MISSING;
    int64_t mx = imax(m, n);
    if (too_big(mx) || too_big(nrhs) || too_big(m * n) || too_big(mx * nrhs))
        return KN_LA_TOO_BIG;
    int im = (int)m, in = (int)n, ir = (int)nrhs, lda = (int)imax(1, m), ldb = (int)imax(1, mx);
    int info = 0, lwork = -1, r = 0, qi = 0;
    float rc_f = (float)rcond;
    void *rc = dt & 1 ? (void *)&rcond : (void *)&rc_f;
    double q[2] = {0, 0}, qr[2] = {0, 0};
    if (dt < 2)
        ((gelsd_r_fn)f)(&im, &in, &ir, a->data, &lda, b->data, &ldb, s->data, rc, &r, q, &lwork,
                        &qi, &info);
    else
        ((gelsd_c_fn)f)(&im, &in, &ir, a->data, &lda, b->data, &ldb, s->data, rc, &r, q, &lwork, qr,
                        &qi, &info);
    if (info)
        return info;
    lwork = queried(dt, q, 1);
    int lrwork = queried(dt, qr, 1), liwork = qi > 1 ? qi : 1;
    void *work = items(lwork, esize[dt]), *rwork = items(lrwork, rsize(dt));
    int *iwork = items(liwork, sizeof(int));
    if (!work || !rwork || !iwork)
        info = KN_LA_NOMEM;
    else if (dt < 2)
        ((gelsd_r_fn)f)(&im, &in, &ir, a->data, &lda, b->data, &ldb, s->data, rc, &r, work, &lwork,
                        iwork, &info);
    else
        ((gelsd_c_fn)f)(&im, &in, &ir, a->data, &lda, b->data, &ldb, s->data, rc, &r, work, &lwork,
                        rwork, iwork, &info);
    *(int64_t *)rank->data = r;
    free(work);
    free(rwork);
    free(iwork);
    return info;
}
