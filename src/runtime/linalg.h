/* linalg.h - BLAS and LAPACK for compiled code (runtime/linalg.c): a table of Fortran function
 * pointers, filled once from SciPy's cython_blas / cython_lapack capsules by
 * dispatch/linalg.c, and the kn_rt_la_* wrappers that kiln/lib/linalg.py calls through the
 * kiln._linalg entries (lib/linalg.def). Every wrapper takes a dtype code (0 float32, 1 float64,
 * 2 complex64, 3 complex128) first and arrays as pointers to their struct. */
#ifndef KN_RUNTIME_LINALG_H
#define KN_RUNTIME_LINALG_H

#include <stdint.h>

/* The names of the table's routines, KN_LA_NAME_COUNT of them ("sgemm", "dgemm", ...). */
#define KN_LA_NAME_COUNT 52
const char *kn_rt_la_name(int i);
void kn_rt_la_set(int i, void *fn);
int kn_rt_la_loaded(void);

/* A status the wrappers return besides LAPACK's info (>= 0). */
#define KN_LA_NOMEM (-1000)
#define KN_LA_TOO_BIG (-1001)
#define KN_LA_MISSING (-1002)

typedef struct KnLaArray KnLaArray;
int64_t kn_rt_la_gemm(int64_t dt, const KnLaArray *a, const KnLaArray *b, KnLaArray *c);
int64_t kn_rt_la_gemv(int64_t dt, const KnLaArray *a, const KnLaArray *x, KnLaArray *y);
int64_t kn_rt_la_dot(int64_t dt, const KnLaArray *x, const KnLaArray *y, KnLaArray *out,
                     int64_t conj);
int64_t kn_rt_la_gesv(int64_t dt, KnLaArray *a, KnLaArray *b, int64_t n, int64_t nrhs);
int64_t kn_rt_la_getrf(int64_t dt, KnLaArray *a, KnLaArray *ipiv, int64_t n);
int64_t kn_rt_la_potrf(int64_t dt, KnLaArray *a, int64_t n);
int64_t kn_rt_la_syevd(int64_t dt, KnLaArray *a, KnLaArray *w, int64_t n, int64_t vectors);
int64_t kn_rt_la_gesdd(int64_t dt, KnLaArray *a, KnLaArray *s, KnLaArray *u, KnLaArray *vt,
                       int64_t m, int64_t n, int64_t job);
int64_t kn_rt_la_geqrf(int64_t dt, KnLaArray *a, KnLaArray *tau, int64_t m, int64_t n);
int64_t kn_rt_la_orgqr(int64_t dt, KnLaArray *a, KnLaArray *tau, int64_t m, int64_t n, int64_t k);
int64_t kn_rt_la_geev(int64_t dt, KnLaArray *a, KnLaArray *wr, KnLaArray *wi, KnLaArray *vr,
                      int64_t n, int64_t vectors);
int64_t kn_rt_la_gelsd(int64_t dt, KnLaArray *a, KnLaArray *b, KnLaArray *s, KnLaArray *rank,
                       int64_t m, int64_t n, int64_t nrhs, double rcond);

#endif
