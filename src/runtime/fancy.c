/* fancy.c - NumPy's advanced indexing at run time: a[idx], a[mask], a[i, idx, :] and their
 * assignments. Lowering (lower/fancy.c) applies the basic parts of the index (ints, slices, None,
 * Ellipsis) as a view whose advanced axes are kept whole, then calls kn_rt_fancy with that view,
 * the advanced indices (integer arrays: one axis each; boolean arrays: as many axes as they
 * have) and where their broadcast shape goes in the result. Integer indices broadcast together;
 * a boolean array counts as the 1-d array of its true positions in C order. Bounds and shapes
 * are checked before anything is written, with NumPy's errors. Array values are read as the
 * lowering's array struct {meminfo, parent, nitems, itemsize, data, shape[n], strides[n]}. */
#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"

enum { MAXD = 64 };

typedef struct View {
    char *data;
    int nd;
    const int64_t *shape, *strides;
} View;

static View
view_of(const void *p, int nd)
{
    const int64_t *w = p;
    View v;
    memcpy(&v.data, w + 4, sizeof v.data);
    v.nd = nd;
    v.shape = w + 5;
    v.strides = w + 5 + nd;
    return v;
}

typedef struct Adv {
    View v;
    int dt, axis, orig_axis, k; /* k: the base axes it covers (its ndim for a boolean array) */
    int64_t count;              /* true values of a boolean array */
    int64_t *offs;              /* their byte offsets in the base (scratch), or NULL */
} Adv;

/* an index value of dtype dt at p as int64 (a uint64 past INT64_MAX saturates: out of bounds) */
static inline int64_t
read_index(const char *p, int dt)
{
    switch (dt) {
    case KN_DT_I8:
        return *(const int8_t *)p;
    case KN_DT_I16:
        return *(const int16_t *)p;
    case KN_DT_I32:
        return *(const int32_t *)p;
    case KN_DT_U8:
        return *(const uint8_t *)p;
    case KN_DT_U16:
        return *(const uint16_t *)p;
    case KN_DT_U32:
        return *(const uint32_t *)p;
    case KN_DT_U64: {
        uint64_t u = *(const uint64_t *)p;
        return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
    }
    default:
        return *(const int64_t *)p;
    }
}

/* the bytes of an index item of dtype dt */
static inline int64_t
dt_size(int dt)
{
    switch (dt) {
    case KN_DT_I16:
    case KN_DT_U16:
        return 2;
    case KN_DT_I32:
    case KN_DT_U32:
        return 4;
    case KN_DT_I64:
    case KN_DT_U64:
        return 8;
    default:
        return 1;
    }
}

static inline void
copy_item(char *d, const char *s, int64_t isz)
{
    switch (isz) {
    case 1:
        *d = *s;
        break;
    case 2:
        memcpy(d, s, 2);
        break;
    case 4:
        memcpy(d, s, 4);
        break;
    case 8:
        memcpy(d, s, 8);
        break;
    case 16:
        memcpy(d, s, 16);
        break;
    default:
        memcpy(d, s, (size_t)isz);
    }
}

/* n-d strided copy of the block dims[0..nd) */
static void
copy_block(char *d, const int64_t *ds, const char *s, const int64_t *ss, const int64_t *dims,
           int nd, int64_t isz)
{
    if (nd == 0) {
        copy_item(d, s, isz);
        return;
    }
    if (nd == 1) {
        int64_t n = dims[0], a = ds[0], b = ss[0];
        if (a == isz && b == isz) {
            memcpy(d, s, (size_t)(n * isz));
            return;
        }
        switch (isz) {
        case 8:
            for (int64_t i = 0; i < n; i++)
                memcpy(d + i * a, s + i * b, 8);
            return;
        case 4:
            for (int64_t i = 0; i < n; i++)
                memcpy(d + i * a, s + i * b, 4);
            return;
        default:
            for (int64_t i = 0; i < n; i++)
                copy_item(d + i * a, s + i * b, isz);
            return;
        }
    }
    for (int64_t i = 0; i < dims[0]; i++)
        copy_block(d + i * ds[0], ds + 1, s + i * ss[0], ss + 1, dims + 1, nd - 1, isz);
}

/* step an odometer over dims[0..nd); returns 0 when it wrapped around */
static inline int
odometer_next(int64_t *pos, const int64_t *dims, int nd)
{
    for (int j = nd - 1; j >= 0; j--) {
        if (++pos[j] < dims[j])
            return 1;
        pos[j] = 0;
    }
    return 0;
}

static int64_t
fail(int64_t *err, int64_t exc, int64_t a, int64_t b, int64_t c)
{
    err[0] = a;
    err[1] = b;
    err[2] = c;
    return exc;
}

/* does a boolean array match the base axes it covers (NumPy's IndexError otherwise) */
static int64_t
mask_check(const Adv *m, const View *base, int64_t *err)
{
    for (int j = 0; j < m->k; j++)
        if (m->v.shape[j] != base->shape[m->axis + j])
            return fail(err, KN_EXC_FANCY_MASK_SHAPE, m->orig_axis + j, base->shape[m->axis + j],
                        m->v.shape[j]);
    return -1;
}

/* is a view C-contiguous with items of isz bytes */
static int
c_contig(const View *v, const int64_t *strides, int64_t isz)
{
    int64_t s = isz;
    for (int j = v->nd - 1; j >= 0; j--) {
        if (v->shape[j] != 1 && strides[j] != s)
            return 0;
        s *= v->shape[j];
    }
    return 1;
}

/* the true values of a boolean array */
static int64_t
mask_count(const Adv *m)
{
    int64_t n = 1, c = 0;
    for (int j = 0; j < m->k; j++)
        n *= m->v.shape[j];
    if (!n)
        return 0;
    if (c_contig(&m->v, m->v.strides, 1)) {
        const unsigned char *p = (const unsigned char *)m->v.data;
        for (int64_t i = 0; i < n; i++)
            c += p[i] != 0;
        return c;
    }
    int64_t pos[MAXD] = {0};
    const char *p = m->v.data;
    for (int64_t i = 0; i < n; i++) {
        c += *p != 0;
        for (int j = m->k - 1; j >= 0; j--) {
            p += m->v.strides[j];
            if (++pos[j] < m->v.shape[j])
                break;
            p -= m->v.strides[j] * pos[j];
            pos[j] = 0;
        }
    }
    return c;
}

/* Walk a boolean array and the base axes it covers together, in C order: fn(ctx, base element)
 * for each true value. */
typedef void (*MaskFn)(void *ctx, char *elem);

static void
mask_walk(const Adv *m, const View *base, MaskFn fn, void *ctx)
{
    int64_t n = 1, pos[MAXD] = {0};
    for (int j = 0; j < m->k; j++)
        n *= m->v.shape[j];
    const char *p = m->v.data;
    char *q = base->data;
    const int64_t *bs = base->strides + m->axis;
    for (int64_t i = 0; i < n; i++) {
        if (*p)
            fn(ctx, q);
        for (int j = m->k - 1; j >= 0; j--) {
            p += m->v.strides[j];
            q += bs[j];
            if (++pos[j] < m->v.shape[j])
                break;
            p -= m->v.strides[j] * pos[j];
            q -= bs[j] * pos[j];
            pos[j] = 0;
        }
    }
}

typedef struct OffsCtx {
    int64_t *offs, n;
    const char *origin;
} OffsCtx;

static void
offs_fn(void *ctx, char *elem)
{
    OffsCtx *o = ctx;
    o->offs[o->n++] = elem - o->origin;
}

/* the byte offsets of a boolean array's true values in the base, C order (scratch) */
static int64_t
mask_offsets(Adv *m, const View *base)
{
    m->offs = kn_rt_scratch_alloc((size_t)(m->count ? m->count : 1) * sizeof(int64_t));
    if (!m->offs)
        return KN_EXC_NO_MEMORY;
    OffsCtx o = {m->offs, 0, base->data};
    mask_walk(m, base, offs_fn, &o);
    return -1;
}

/* the shape and strides of an advanced index broadcast to bshape[0..bnd) (0 on broadcast axes) */
static void
adv_strides(const Adv *a, int bnd, int64_t *st)
{
    for (int j = 0; j < bnd; j++)
        st[j] = 0;
    for (int j = 0; j < a->v.nd; j++) {
        int b = bnd - a->v.nd + j;
        st[b] = a->v.shape[j] == 1 ? 0 : a->v.strides[j];
    }
}

typedef struct Plan {
    View base;
    int64_t isz;
    Adv adv[MAXD];
    int nadv;
    int64_t bshape[MAXD];
    int bnd;
    int64_t nb;
    int64_t *off; /* nb byte offsets of the advanced part, scratch */
    /* the base's axes that no advanced index covers, before and after the broadcast part */
    int64_t odims[MAXD], ostr[MAXD], idims[MAXD], istr[MAXD];
    int ond, ind;
} Plan;

static void
plan_free(Plan *p)
{
    for (int i = 0; i < p->nadv; i++)
        if (p->adv[i].offs)
            kn_rt_scratch_free(p->adv[i].offs,
                               (size_t)(p->adv[i].count ? p->adv[i].count : 1) * sizeof(int64_t));
    if (p->off)
        kn_rt_scratch_free(p->off, (size_t)(p->nb ? p->nb : 1) * sizeof(int64_t));
}

/* parse, check the masks, broadcast the indices, split the free axes at place */
static int64_t
plan_make(Plan *p, const void *base, int bnd, int64_t isz, const int64_t *advw, int nadv, int place,
          int64_t *err)
{
    memset(p, 0, sizeof *p);
    p->base = view_of(base, bnd);
    p->isz = isz;
    p->nadv = nadv;
    int covered[MAXD] = {0};
    for (int i = 0; i < nadv; i++) {
        Adv *a = &p->adv[i];
        const void *arr;
        memcpy(&arr, &advw[4 * i], sizeof arr);
        int nd = (int)advw[4 * i + 1];
        a->v = view_of(arr, nd);
        a->dt = (int)advw[4 * i + 2];
        a->axis = (int)(advw[4 * i + 3] & 0xffff);
        a->orig_axis = (int)(advw[4 * i + 3] >> 16);
        a->k = a->dt == KN_DT_BOOL ? nd : 1;
        for (int j = 0; j < a->k; j++)
            covered[a->axis + j] = 1;
        if (a->dt == KN_DT_BOOL) {
            int64_t e = mask_check(a, &p->base, err);
            if (e >= 0)
                return e;
            a->count = mask_count(a);
            /* a single mask over every axis is walked as it is, without offsets */
            if (!(nadv == 1 && a->k == bnd) && (e = mask_offsets(a, &p->base)) >= 0)
                return e;
        }
    }
    /* broadcast: right-aligned, as NumPy */
    int bn = 0;
    for (int i = 0; i < nadv; i++) {
        int nd = p->adv[i].dt == KN_DT_BOOL ? 1 : p->adv[i].v.nd;
        if (nd > bn)
            bn = nd;
    }
    for (int j = 0; j < bn; j++)
        p->bshape[j] = 1;
    for (int i = 0; i < nadv; i++) {
        Adv *a = &p->adv[i];
        int nd = a->dt == KN_DT_BOOL ? 1 : a->v.nd;
        for (int j = 0; j < nd; j++) {
            int64_t d = a->dt == KN_DT_BOOL ? a->count : a->v.shape[j];
            int64_t *b = &p->bshape[bn - nd + j];
            if (*b == 1)
                *b = d;
            else if (d != 1 && d != *b)
                return fail(err, KN_EXC_FANCY_BROADCAST, 0, 0, 0);
        }
    }
    p->bnd = bn;
    p->nb = 1;
    for (int j = 0; j < bn; j++)
        p->nb *= p->bshape[j];
    int seen = 0;
    for (int k = 0; k < bnd; k++) {
        if (covered[k])
            continue;
        if (seen < place) {
            p->odims[p->ond] = p->base.shape[k];
            p->ostr[p->ond++] = p->base.strides[k];
        } else {
            p->idims[p->ind] = p->base.shape[k];
            p->istr[p->ind++] = p->base.strides[k];
        }
        seen++;
    }
    return -1;
}

/* one advanced index's offsets added into off[0..nb), bounds checked */
static int64_t
add_offsets(Plan *p, Adv *a, int64_t *err)
{
    int64_t st[MAXD], pos[MAXD] = {0};
    adv_strides(a, p->bnd, st);
    if (a->dt == KN_DT_BOOL) {
        for (int64_t b = 0; b < p->nb; b++) {
            int64_t j = a->count == 1 ? 0 : b % (a->count ? a->count : 1);
            p->off[b] += a->offs[j];
        }
        return -1;
    }
    int64_t len = p->base.shape[a->axis], bst = p->base.strides[a->axis];
    const char *ip = a->v.data;
    for (int64_t b = 0; b < p->nb; b++) {
        int64_t orig = read_index(ip, a->dt), i = orig < 0 ? orig + len : orig;
        if ((uint64_t)i >= (uint64_t)len)
            return fail(err, KN_EXC_ARRAY_INDEX, orig, a->orig_axis, len);
        p->off[b] += i * bst;
        /* next position of the broadcast shape */
        for (int j = p->bnd - 1; j >= 0; j--) {
            ip += st[j];
            if (++pos[j] < p->bshape[j])
                break;
            ip -= st[j] * pos[j];
            pos[j] = 0;
        }
    }
    return -1;
}

static int64_t
plan_offsets(Plan *p, int64_t *err)
{
    p->off = kn_rt_scratch_alloc((size_t)(p->nb ? p->nb : 1) * sizeof(int64_t));
    if (!p->off)
        return KN_EXC_NO_MEMORY;
    memset(p->off, 0, (size_t)(p->nb ? p->nb : 1) * sizeof(int64_t));
    for (int i = 0; i < p->nadv; i++) {
        int64_t e = add_offsets(p, &p->adv[i], err);
        if (e >= 0)
            return e;
    }
    return -1;
}

/* the gather of one int64 index into a 1-d result, with no free axes: the common a[idx] */
#define GATHER_LOOP(T, IT)                                                                         \
    for (int64_t b = 0; b < n; b++) {                                                              \
        int64_t orig = (int64_t)(*(const IT *)(ip + b * is)), i = orig < 0 ? orig + len : orig;    \
        if ((uint64_t)i >= (uint64_t)len)                                                          \
            return fail(err, KN_EXC_ARRAY_INDEX, orig, a->orig_axis, len);                         \
        memcpy(out + b * (int64_t)sizeof(T), src + i * bst, sizeof(T));                            \
    }

static int64_t
gather_simple(Plan *p, char *out, int64_t *err)
{
    Adv *a = &p->adv[0];
    int64_t n = p->nb, len = p->base.shape[a->axis], bst = p->base.strides[a->axis];
    int64_t is = a->v.nd ? a->v.strides[0] : 0;
    const char *ip = a->v.data, *src = p->base.data;
    if (a->dt == KN_DT_I64 && p->isz == 8) {
        GATHER_LOOP(int64_t, int64_t)
    } else if (a->dt == KN_DT_I64 && p->isz == 4) {
        GATHER_LOOP(int32_t, int64_t)
    } else if (a->dt == KN_DT_I32 && p->isz == 8) {
        GATHER_LOOP(int64_t, int32_t)
    } else if (a->dt == KN_DT_I32 && p->isz == 4) {
        GATHER_LOOP(int32_t, int32_t)
    } else {
        for (int64_t b = 0; b < n; b++) {
            int64_t orig = read_index(ip + b * is, a->dt), i = orig < 0 ? orig + len : orig;
            if ((uint64_t)i >= (uint64_t)len)
                return fail(err, KN_EXC_ARRAY_INDEX, orig, a->orig_axis, len);
            copy_item(out + b * p->isz, src + i * bst, p->isz);
        }
    }
    return -1;
}

/* a single boolean index covering every axis of the base: the common a[mask] */
typedef struct CopyCtx {
    char *p;
    const char *v;
    int64_t step, isz;
} CopyCtx;

static void
gather_fn(void *ctx, char *elem)
{
    CopyCtx *c = ctx;
    copy_item(c->p, elem, c->isz);
    c->p += c->isz;
}

static void
scatter_fn(void *ctx, char *elem)
{
    CopyCtx *c = ctx;
    copy_item(elem, c->v, c->isz);
    c->v += c->step;
}

#define MASK_GATHER(T)                                                                             \
    for (int64_t i = 0; i < n && c < count; i++) {                                                 \
        memcpy(out + c * (int64_t)sizeof(T), src + i * (int64_t)sizeof(T), sizeof(T));             \
        c += m[i] != 0;                                                                            \
    }

static void
mask_gather_full(Plan *p, char *out)
{
    Adv *a = &p->adv[0];
    int64_t n = 1, c = 0, count = a->count;
    for (int j = 0; j < a->k; j++)
        n *= a->v.shape[j];
    if (c_contig(&a->v, a->v.strides, 1) && c_contig(&p->base, p->base.strides, p->isz)) {
        const unsigned char *m = (const unsigned char *)a->v.data;
        const char *src = p->base.data;
        switch (p->isz) { /* branch-free: every item is written, the count only advances */
        case 8:
            MASK_GATHER(int64_t)
            return;
        case 4:
            MASK_GATHER(int32_t)
            return;
        case 1:
            MASK_GATHER(int8_t)
            return;
        default:
            break;
        }
    }
    CopyCtx ctx = {out, NULL, 0, p->isz};
    mask_walk(a, &p->base, gather_fn, &ctx);
}

static int
is_simple(const Plan *p)
{
    return p->nadv == 1 && p->adv[0].dt != KN_DT_BOOL && p->adv[0].v.nd == 1 && p->ond == 0 &&
           p->ind == 0;
}

static int
is_full_mask(const Plan *p)
{
    return p->nadv == 1 && p->adv[0].dt == KN_DT_BOOL && p->adv[0].k == p->base.nd;
}

/* Allocate the result: outer free axes, the broadcast part, inner free axes; C-contiguous. */
static int64_t
alloc_result(Plan *p, void *out, int ond_expected, char **data)
{
    int64_t *w = out, shape[MAXD];
    int nd = 0;
    for (int j = 0; j < p->ond; j++)
        shape[nd++] = p->odims[j];
    for (int j = 0; j < p->bnd; j++)
        shape[nd++] = p->bshape[j];
    for (int j = 0; j < p->ind; j++)
        shape[nd++] = p->idims[j];
    (void)ond_expected;
    int64_t n = 1, bytes;
    for (int j = 0; j < nd; j++)
        if (__builtin_mul_overflow(n, shape[j], &n))
            return KN_EXC_ARRAY_TOO_BIG;
    if (__builtin_mul_overflow(n, p->isz, &bytes))
        return KN_EXC_ARRAY_TOO_BIG;
    KnMemInfo *mi = kn_rt_meminfo_alloc(bytes);
    if (!mi)
        return KN_EXC_NO_MEMORY;
    memcpy(&w[0], &mi, sizeof mi);
    w[1] = 0;
    w[2] = n;
    w[3] = p->isz;
    memcpy(&w[4], &mi->data, sizeof mi->data);
    int64_t s = p->isz;
    for (int j = nd - 1; j >= 0; j--) {
        w[5 + j] = shape[j];
        w[5 + nd + j] = s;
        s *= shape[j];
    }
    *data = mi->data;
    return -1;
}

int64_t
kn_rt_fancy_get(const void *base, int32_t bnd, int64_t isz, const int64_t *advw, int32_t nadv,
                int32_t place, void *out, int32_t ond, int64_t *err)
{
    Plan p;
    char *dst;
    int64_t e = plan_make(&p, base, bnd, isz, advw, nadv, place, err);
    int full_mask = e < 0 && is_full_mask(&p);
    if (e < 0 && !is_simple(&p) && !full_mask)
        e = plan_offsets(&p, err);
    if (e < 0)
        e = alloc_result(&p, out, ond, &dst);
    if (e >= 0) {
        plan_free(&p);
        return e;
    }
    if (is_simple(&p)) {
        e = gather_simple(&p, dst, err);
        if (e >= 0) {
            KnMemInfo *mi;
            memcpy(&mi, out, sizeof mi);
            kn_rt_decref(mi);
        }
        plan_free(&p);
        return e;
    }
    if (full_mask) {
        mask_gather_full(&p, dst);
        plan_free(&p);
        return -1;
    }
    int64_t opos[MAXD] = {0}, inner_n = 1, dstr[MAXD];
    for (int j = 0; j < p.ind; j++)
        inner_n *= p.idims[j];
    int64_t s = isz;
    for (int j = p.ind - 1; j >= 0; j--) {
        dstr[j] = s;
        s *= p.idims[j];
    }
    int64_t nouter = 1;
    for (int j = 0; j < p.ond; j++)
        nouter *= p.odims[j];
    for (int64_t o = 0; o < nouter; o++) {
        const char *src = p.base.data;
        for (int j = 0; j < p.ond; j++)
            src += opos[j] * p.ostr[j];
        for (int64_t b = 0; b < p.nb; b++) {
            copy_block(dst, dstr, src + p.off[b], p.istr, p.idims, p.ind, isz);
            dst += inner_n * isz;
        }
        odometer_next(opos, p.odims, p.ond);
    }
    plan_free(&p);
    return -1;
}

/* the byte range [lo, hi) the elements of a view span */
static void
extent(const View *v, int64_t isz, uintptr_t *lo, uintptr_t *hi)
{
    intptr_t a = 0, b = 0;
    for (int j = 0; j < v->nd; j++) {
        if (v->shape[j] == 0) {
            *lo = *hi = (uintptr_t)v->data;
            return;
        }
        intptr_t d = (intptr_t)((v->shape[j] - 1) * v->strides[j]);
        if (d < 0)
            a += d;
        else
            b += d;
    }
    *lo = (uintptr_t)(v->data + a);
    *hi = (uintptr_t)(v->data + b + isz);
}

static int
overlaps(const View *x, int64_t xs, const View *y, int64_t ys)
{
    uintptr_t a0, a1, b0, b1;
    extent(x, xs, &a0, &a1);
    extent(y, ys, &b0, &b1);
    return a0 < b1 && b0 < a1;
}

/* a C-contiguous scratch copy of a view (a value that overlaps the target) */
static char *
copy_view(const View *v, int64_t isz, int64_t *bytes, int64_t *cstr)
{
    int64_t n = 1;
    for (int j = 0; j < v->nd; j++)
        n *= v->shape[j];
    *bytes = (n ? n : 1) * isz;
    char *buf = kn_rt_scratch_alloc((size_t)*bytes);
    if (!buf)
        return NULL;
    int64_t s = isz;
    for (int j = v->nd - 1; j >= 0; j--) {
        cstr[j] = v->shape[j] == 1 ? 0 : s;
        s *= v->shape[j];
    }
    if (n)
        copy_block(buf, cstr, v->data, v->strides, v->shape, v->nd, isz);
    return buf;
}

/* a[idx] = v of one 1-d integer index and no free axes, the index not in the base's memory:
 * the indices are checked in a first pass, then stored (vs: the value's step, 0 for one) */
#define SCATTER_LOOP(T, IT)                                                                        \
    for (int64_t b = 0; b < n; b++) {                                                              \
        int64_t i = (int64_t)(*(const IT *)(ip + b * is));                                         \
        i = i < 0 ? i + len : i;                                                                   \
        memcpy(dst + i * bst, v + b * vs, sizeof(T));                                              \
    }

static int64_t
scatter_simple(Plan *p, const char *v, int64_t vs, int64_t *err)
{
    Adv *a = &p->adv[0];
    int64_t n = p->nb, len = p->base.shape[a->axis], bst = p->base.strides[a->axis];
    int64_t is = a->v.nd ? a->v.strides[0] : 0;
    const char *ip = a->v.data;
    char *dst = p->base.data;
    int bad = 0;
    if (a->dt == KN_DT_I64 && is == 8) { /* branch-free, so that it vectorizes */
        const int64_t *x = (const int64_t *)ip;
        for (int64_t b = 0; b < n; b++)
            bad |= (uint64_t)(x[b] < 0 ? x[b] + len : x[b]) >= (uint64_t)len;
    } else {
        bad = 1;
    }
    for (int64_t b = 0; bad && b < n; b++) {
        int64_t orig = read_index(ip + b * is, a->dt), i = orig < 0 ? orig + len : orig;
        if ((uint64_t)i >= (uint64_t)len)
            return fail(err, KN_EXC_ARRAY_INDEX, orig, a->orig_axis, len);
    }
    if (a->dt == KN_DT_I64 && p->isz == 8) {
        SCATTER_LOOP(int64_t, int64_t)
    } else if (a->dt == KN_DT_I64 && p->isz == 4) {
        SCATTER_LOOP(int32_t, int64_t)
    } else {
        for (int64_t b = 0; b < n; b++) {
            int64_t i = read_index(ip + b * is, a->dt);
            i = i < 0 ? i + len : i;
            copy_item(dst + i * bst, v + b * vs, p->isz);
        }
    }
    return -1;
}

/* a[mask] = v of one mask over every axis, both C-contiguous */
#define MASK_SCATTER(T)                                                                            \
    for (int64_t i = 0; i < n; i++)                                                                \
        if (m[i]) {                                                                                \
            memcpy(dst + i * (int64_t)sizeof(T), v, sizeof(T));                                    \
            v += vs;                                                                               \
        }

static int
mask_scatter_contig(Plan *p, const char *v, int64_t vs)
{
    Adv *a = &p->adv[0];
    if (!c_contig(&a->v, a->v.strides, 1) || !c_contig(&p->base, p->base.strides, p->isz))
        return 0;
    int64_t n = 1;
    for (int j = 0; j < a->k; j++)
        n *= a->v.shape[j];
    const unsigned char *m = (const unsigned char *)a->v.data;
    char *dst = p->base.data;
    if (vs == 0 && p->isz == 8) { /* one value: a blend, which vectorizes */
        int64_t x, *d = (int64_t *)dst;
        memcpy(&x, v, 8);
        for (int64_t i = 0; i < n; i++) {
            int64_t k = -(int64_t)(m[i] != 0); /* all ones where the mask is true */
            d[i] = (x & k) | (d[i] & ~k);
        }
        return 1;
    }
    if (vs == 0 && p->isz == 4) {
        int32_t x, *d = (int32_t *)dst;
        memcpy(&x, v, 4);
        for (int64_t i = 0; i < n; i++) {
            int32_t k = -(int32_t)(m[i] != 0);
            d[i] = (x & k) | (d[i] & ~k);
        }
        return 1;
    }
    switch (p->isz) {
    case 8:
        MASK_SCATTER(int64_t)
        return 1;
    case 4:
        MASK_SCATTER(int32_t)
        return 1;
    case 1:
        MASK_SCATTER(int8_t)
        return 1;
    default:
        return 0;
    }
}

int64_t
kn_rt_fancy_set(void *base, int32_t bnd, int64_t isz, const int64_t *advw, int32_t nadv,
                int32_t place, const void *value, int32_t vnd, int64_t *err)
{
    Plan p;
    int64_t e = plan_make(&p, base, bnd, isz, advw, nadv, place, err);
    int full_mask = e < 0 && is_full_mask(&p);
    /* one index that does not share the base's memory is read as it is (no offsets) */
    int simple =
        e < 0 && is_simple(&p) && !overlaps(&p.adv[0].v, dt_size(p.adv[0].dt), &p.base, isz);
    if (e < 0 && !full_mask && !simple)
        e = plan_offsets(&p, err);
    if (e >= 0) {
        plan_free(&p);
        return e;
    }
    /* the value broadcast to the result's shape: outer, broadcast part, inner */
    View v = view_of(value, vnd);
    int64_t rdims[MAXD], vst[MAXD];
    int rnd = 0;
    for (int j = 0; j < p.ond; j++)
        rdims[rnd++] = p.odims[j];
    for (int j = 0; j < p.bnd; j++)
        rdims[rnd++] = p.bshape[j];
    for (int j = 0; j < p.ind; j++)
        rdims[rnd++] = p.idims[j];
    int mask_only = nadv == 1 && p.adv[0].dt == KN_DT_BOOL && p.ond == 0 && p.ind == 0;
    if (full_mask)
        rdims[rnd - 1] = p.adv[0].count;
    int64_t vn = 1;
    for (int j = 0; j < vnd; j++)
        vn *= v.shape[j];
    if (vnd > rnd)
        goto bad;
    for (int j = 0; j < rnd; j++)
        vst[j] = 0;
    for (int j = 0; j < vnd; j++) {
        int r = rnd - vnd + j;
        if (v.shape[j] == rdims[r])
            vst[r] = v.strides[j];
        else if (v.shape[j] == 1)
            vst[r] = 0;
        else
            goto bad;
    }
    /* a value sharing memory with the target is copied first */
    char *copy = NULL;
    int64_t copy_bytes = 0;
    if (vn && overlaps(&v, isz, &p.base, isz)) {
        int64_t cstr[MAXD];
        copy = copy_view(&v, isz, &copy_bytes, cstr);
        if (!copy) {
            plan_free(&p);
            return KN_EXC_NO_MEMORY;
        }
        v.data = copy;
        for (int j = 0; j < vnd; j++)
            if (vst[rnd - vnd + j])
                vst[rnd - vnd + j] = cstr[j];
    }
    if (simple) {
        e = scatter_simple(&p, v.data, vst[rnd - 1], err);
        if (copy)
            kn_rt_scratch_free(copy, (size_t)copy_bytes);
        plan_free(&p);
        return e;
    }
    if (full_mask) {
        CopyCtx ctx = {NULL, v.data, vst[rnd - 1], isz};
        if (!mask_scatter_contig(&p, v.data, vst[rnd - 1]))
            mask_walk(&p.adv[0], &p.base, scatter_fn, &ctx);
        if (copy)
            kn_rt_scratch_free(copy, (size_t)copy_bytes);
        plan_free(&p);
        return -1;
    }
    int64_t opos[MAXD] = {0}, bpos[MAXD] = {0}, nouter = 1;
    for (int j = 0; j < p.ond; j++)
        nouter *= p.odims[j];
    const int64_t *vbst = vst + p.ond, *vist = vst + p.ond + p.bnd;
    for (int64_t o = 0; o < nouter && p.nb; o++) {
        char *dst = p.base.data;
        const char *vs = v.data;
        for (int j = 0; j < p.ond; j++) {
            dst += opos[j] * p.ostr[j];
            vs += opos[j] * vst[j];
        }
        memset(bpos, 0, sizeof bpos);
        for (int64_t b = 0; b < p.nb; b++) {
            const char *vb = vs;
            for (int j = 0; j < p.bnd; j++)
                vb += bpos[j] * vbst[j];
            copy_block(dst + p.off[b], p.istr, vb, vist, p.idims, p.ind, isz);
            odometer_next(bpos, p.bshape, p.bnd);
        }
        odometer_next(opos, p.odims, p.ond);
    }
    if (copy)
        kn_rt_scratch_free(copy, (size_t)copy_bytes);
    plan_free(&p);
    return -1;
bad:
    e = mask_only ? fail(err, KN_EXC_FANCY_MASK_VALUE, vn, p.nb, 0)
                  : fail(err, KN_EXC_FANCY_VALUE_SHAPE, 0, 0, 0);
    plan_free(&p);
    return e;
}
