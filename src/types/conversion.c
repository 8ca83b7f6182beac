/* conversion.c - how a value of one type converts to another, rated as Numba's type manager
 * rates the arguments of a candidate signature (exact, promote, safe, unsafe, none), for the
 * dispatcher's choice among explicit signatures and for locals={...}. Numbers follow Numba's
 * casting table and its transitive closure: a wider int or float of the same kind is a
 * promotion; bool to a number, unsigned to a wider signed int, any int to float64 (Numba
 * 0.60+ rates int64 -> float64 safe, so that float64 is preferred), int8, int16 and uint8 to
 * float32, a float to a complex at least as wide are safe; every other real-to-real conversion
 * is unsafe (float to int truncates, ints wrap, int32 -> float32); a complex never becomes a
 * real. None promotes to an optional, a value converts to it as to its type (at best safe).
 * A tuple converts item by item (the worst item); other values convert as
 * kn_type_can_convert_safely allows (an array to layout 'A', to read-only), rated safe. */
#include "types.h"

static KnConversion
number_conversion(const KnType *f, const KnType *t)
{
    if (f == t)
        return KN_CONV_EXACT;
    if (f->kind == KN_TY_COMPLEX)
        return t->kind == KN_TY_COMPLEX ? (t->bits > f->bits ? KN_CONV_PROMOTE : KN_CONV_UNSAFE)
                                        : KN_CONV_NONE;
    if (t->kind == KN_TY_COMPLEX) { /* through the complex's float */
        KnType *part = kn_type_float(t->bits / 2);
        KnConversion k = number_conversion(f, part);
        return k < KN_CONV_SAFE ? KN_CONV_SAFE : k;
    }
    if (f->kind == KN_TY_BOOL)
        return KN_CONV_SAFE;
    if (t->kind == KN_TY_BOOL)
        return KN_CONV_UNSAFE;
    if (f->kind == t->kind && (f->kind == KN_TY_FLOAT || f->is_signed == t->is_signed))
        return t->bits > f->bits ? KN_CONV_PROMOTE : KN_CONV_UNSAFE;
    if (f->kind == KN_TY_FLOAT) /* to an int: truncates */
        return KN_CONV_UNSAFE;
    if (t->kind == KN_TY_FLOAT) /* every int -> float64; int16, uint8 -> float32 (Numba's table) */
        return t->bits == 64 || f->bits <= (f->is_signed ? 16 : 8) ? KN_CONV_SAFE : KN_CONV_UNSAFE;
    /* ints of different signedness: only unsigned to a wider signed int keeps every value */
    return !f->is_signed && t->bits > f->bits ? KN_CONV_SAFE : KN_CONV_UNSAFE;
}

KnConversion
kn_type_conversion(KnType *from, KnType *to)
{
    if (from == to)
        return KN_CONV_EXACT;
    if (kn_type_is_number(from) && kn_type_is_number(to))
        return number_conversion(from, to);
    if (to->kind == KN_TY_OPTIONAL && from->kind != KN_TY_OPTIONAL) {
        /* Numba's Optional.can_convert_from: None promotes, a value converts as to the
         * optional's type, at best safely */
        if (from->kind == KN_TY_NONE)
            return KN_CONV_PROMOTE;
        KnConversion k = kn_type_conversion(from, to->dtype);
        return k < KN_CONV_SAFE ? KN_CONV_SAFE : k;
    }
    if (from->kind == KN_TY_TUPLE && to->kind == KN_TY_TUPLE) {
        if (from->n != to->n)
            return KN_CONV_NONE;
        KnConversion worst = KN_CONV_EXACT;
        for (int i = 0; i < from->n; i++) {
            KnConversion k = kn_type_conversion(from->items[i], to->items[i]);
            worst = k > worst ? k : worst;
        }
        return worst;
    }
    return kn_type_can_convert_safely(from, to) ? KN_CONV_SAFE : KN_CONV_NONE;
}
