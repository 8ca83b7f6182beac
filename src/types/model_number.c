/* model_number.c - the type model of the numbers (bool, int, float, complex: one model, the
 * kind and bits telling them apart): their layout (their C types'), Numba's promotion of
 * scalars and NumPy's of array dtypes, unification (the smallest type that holds both) and
 * safe conversion. */
#include "types/model.h"

/* bool < int < float < complex; -1 for anything else */
static int
rank(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
        return 0;
    case KN_TY_INT:
        return 1;
    case KN_TY_FLOAT:
        return 2;
    case KN_TY_COMPLEX:
        return 3;
    default:
        return -1;
    }
}

static KnType *
promote_ints(const KnType *a, const KnType *b)
{
    /* Numba computes integer arithmetic in 64 bits; mixed signedness is signed (NBEP 1):
     * uint64 + int64 is int64, unlike NumPy's float64. */
    if (a->is_signed == b->is_signed)
        return a->is_signed ? &kn_type_int64 : &kn_type_uint64;
    return &kn_type_int64;
}

KnType *
kn_type_promote(KnType *a, KnType *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra < 0 || rb < 0)
        return NULL;
    if (ra <= 1 && rb <= 1) {
        const KnType *x = a->kind == KN_TY_BOOL ? &kn_type_int64 : a;
        const KnType *y = b->kind == KN_TY_BOOL ? &kn_type_int64 : b;
        return promote_ints(x, y);
    }
    if (ra == 3 || rb == 3) {
        /* complex64 stays complex64 with float32, bools and ints of at most 16 bits */
        int small = 1;
        const KnType *both[2] = {a, b};
        for (int i = 0; i < 2; i++) {
            const KnType *t = both[i];
            if ((t->kind == KN_TY_COMPLEX && t->bits != 64) ||
                (t->kind == KN_TY_FLOAT && t->bits > 32) || (t->kind == KN_TY_INT && t->bits > 16))
                small = 0;
        }
        return small ? &kn_type_complex64 : &kn_type_complex128;
    }
    /* at least one float */
    if (ra == 2 && rb == 2)
        return kn_type_float(a->bits >= b->bits ? a->bits : b->bits);
    const KnType *f = ra == 2 ? a : b, *i = ra == 2 ? b : a;
    if (i->kind == KN_TY_BOOL) /* float16 with bool is float16 */
        return kn_type_float(f->bits);
    if (f->bits == 16 && i->bits == 8) /* with an int8/uint8 too; int16 needs float32 */
        return &kn_type_float16;
    if (f->bits <= 32 && i->bits <= 16)
        return &kn_type_float32;
    return &kn_type_float64;
}

KnType *
kn_type_numpy_promote(KnType *a, KnType *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra < 0 || rb < 0)
        return NULL;
    if (a == b)
        return a;
    if (ra == 0)
        return b;
    if (rb == 0)
        return a;
    if (ra == 1 && rb == 1) {
        if (a->is_signed == b->is_signed)
            return a->bits >= b->bits ? a : b;
        KnType *s = a->is_signed ? a : b, *u = a->is_signed ? b : a;
        if (s->bits > u->bits)
            return s;
        return u->bits < 64 ? kn_type_int(u->bits * 2, 1) : &kn_type_float64;
    }
    return kn_type_promote(a, b); /* floats and complex follow the same table */
}

static size_t
number_size(const KnType *t)
{
    return t->kind == KN_TY_BOOL ? 1 : (size_t)t->bits / 8;
}

static size_t
number_align(const KnType *t)
{
    return t->kind == KN_TY_COMPLEX ? (size_t)t->bits / 16 : number_size(t);
}

static KnType *
number_unify(KnTypeTable *tt, KnType *a, KnType *b)
{
    KN_UNUSED(tt);
    if (!kn_type_is_number(b))
        return NULL;
    if (a->kind == KN_TY_BOOL || b->kind == KN_TY_BOOL) {
        KnType *o = a->kind == KN_TY_BOOL ? b : a;
        return o->kind == KN_TY_INT ? o : kn_type_promote(a, b);
    }
    if (a->kind == KN_TY_INT && b->kind == KN_TY_INT) {
        /* Numba's unification: the smallest integer that holds both */
        if (a->is_signed == b->is_signed)
            return a->bits >= b->bits ? a : b;
        KnType *s = a->is_signed ? a : b, *u = a->is_signed ? b : a;
        if (s->bits > u->bits)
            return s;
        return u->bits < 64 ? kn_type_int(u->bits * 2, 1) : &kn_type_float64;
    }
    return kn_type_promote(a, b);
}

static int
number_convert_safely(const KnType *from, const KnType *to)
{
    int rf = rank(from), rt = rank(to);
    if (rt < 0 || rf > rt)
        return 0;
    if (rf == 0)
        return 1;
    if (rf == 1 && rt == 1) {
        if (from->is_signed == to->is_signed)
            return to->bits >= from->bits;
        return !from->is_signed && to->bits > from->bits;
    }
    if (rf == 1 && rt >= 2) /* ints to floats: Numba allows int64 -> float64 as safe */
        return 1;
    /* float -> complex: the complex's parts must be at least as wide */
    int to_bits = rt == 3 ? to->bits / 2 : to->bits,
        from_bits = rf == 3 ? from->bits / 2 : from->bits;
    return to_bits >= from_bits;
}

const KnTypeModel kn_type_model_number = {
    .size = number_size,
    .align = number_align,
    .unify = number_unify,
    .convert_safely = number_convert_safely,
};
