/* model_str.c - the type model of str: a KnStr (runtime/str.h) by value, 48 bytes aligned to
 * 8. The type is the one singleton kn_type_str (types.c), printed `str` (kiln.types calls it
 * unicode_type, as Numba does); a constant string is a CONST of this type whose literal
 * (imm.str, UTF-8) typing rules may read (keyword options: side='left'). */
#include "types/model.h"

static size_t
str_size(const KnType *t)
{
    KN_UNUSED(t);
    return 48; /* sizeof(KnStr): the C routines read arrays of them (lists of str) */
}

static size_t
str_align(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

const KnTypeModel kn_type_model_str = {.size = str_size, .align = str_align};
