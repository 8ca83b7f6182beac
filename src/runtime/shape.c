/* shape.c - the strided copy of the shape and joining family (kiln/lib/shape.py through the
 * C entry kiln.lib._shape_prims.copy_into, lib/shape.def): kn_rt_copy_nd copies an n-d array
 * of one item size into another of the same shape, each with its own byte strides (a stride of
 * 0 repeats an item: broadcasting). Trailing axes that are contiguous in both are merged, so a
 * copy of C arrays or of C rows is one memcpy per row; otherwise the innermost axis is a loop
 * per item size. The caller guarantees the shapes and that the two do not overlap; nothing here
 * allocates or raises. Compiled with the package, so joining costs no LLVM work per call shape
 * (the first-call budget of issue 11). */
#include <string.h>

#include "runtime/runtime.h"

#define KN_COPY_MAX_NDIM 32

static void
copy_row(char *d, int64_t ds, const char *s, int64_t ss, int64_t n, int64_t isz)
{
    if (ds == isz && ss == isz) {
        memcpy(d, s, (size_t)(n * isz));
        return;
    }
    switch (isz) {
#define KN_COPY_CASE(T)                                                                            \
    case sizeof(T):                                                                                \
        for (int64_t i = 0; i < n; i++, d += ds, s += ss)                                          \
            memcpy(d, s, sizeof(T));                                                               \
        return;
        KN_COPY_CASE(uint8_t)
        KN_COPY_CASE(uint16_t)
        KN_COPY_CASE(uint32_t)
        KN_COPY_CASE(uint64_t)
#undef KN_COPY_CASE
    default:
        for (int64_t i = 0; i < n; i++, d += ds, s += ss)
            memcpy(d, s, (size_t)isz);
    }
}

void
kn_rt_copy_nd(char *dst, const int64_t *shape, const int64_t *dstrides, const char *src,
              const int64_t *sstrides, int32_t ndim, int64_t isz)
{
    int64_t sh[KN_COPY_MAX_NDIM], ds[KN_COPY_MAX_NDIM], ss[KN_COPY_MAX_NDIM];
    int n = 0;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] == 0)
            return;
        if (shape[k] == 1)
            continue; /* a length-1 axis moves nothing */
        sh[n] = shape[k];
        ds[n] = dstrides[k];
        ss[n] = sstrides[k];
        n++;
    }
    if (n == 0) {
        memcpy(dst, src, (size_t)isz);
        return;
    }
    /* merge axis k into k + 1 while both arrays step over k + 1 exactly */
    int m = n - 1;
    int64_t inner = sh[m], ids = ds[m], iss = ss[m];
    while (m > 0 && ids == isz && iss == isz && ds[m - 1] == inner * isz &&
           ss[m - 1] == inner * isz) {
        m--;
        inner *= sh[m];
    }
    /* the outer axes 0..m-1 by an odometer */
    int64_t idx[KN_COPY_MAX_NDIM] = {0};
    for (;;) {
        copy_row(dst, ids, src, iss, inner, isz);
        int k = m - 1;
        for (; k >= 0; k--) {
            dst += ds[k];
            src += ss[k];
            if (++idx[k] < sh[k])
                break;
            dst -= ds[k] * sh[k];
            src -= ss[k] * sh[k];
            idx[k] = 0;
        }
        if (k < 0)
            return;
    }
}
