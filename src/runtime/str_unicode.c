/* str_unicode.c - the character database of the string routines: one record per code point
 * (flags: alpha, decimal, digit, numeric, space, lower, upper, title, cased, case-ignorable,
 * identifier start/continue, printable, line break; and the full upper, lower, title and
 * casefold mappings) in a two-level table. The tables (str_unicode_db.h) are generated at build
 * time by tools/gen_unicode_db.py from the str methods of the Python the extension is built for,
 * so they agree with the running interpreter exactly (its Unicode version, its special cases);
 * CPython 3.13 no longer exports the full-mapping functions, so borrowing them is not an option.
 * A lookup is three loads; ASCII has its own 128-entry flag table (kn_uni_ascii, generated too). */
#include "runtime/str_util.h"

#include "str_unicode_db.h"

_Static_assert(KN_UNI_ALPHA == KN_UF_ALPHA && KN_UNI_LINEBREAK == KN_UF_LINEBREAK &&
                   KN_UNI_PRINTABLE == KN_UF_PRINTABLE && KN_UNI_XID_START == KN_UF_XID_START,
               "flag bits of str_util.h and the generated tables agree");

const KnUniRecord *
kn_uni_record(uint32_t cp)
{
    if (cp >= 0x110000)
        return &kn_uni_records[0];
    uint32_t block = kn_uni_index1[cp >> KN_UNI_SHIFT];
    return &kn_uni_records[kn_uni_blocks[(block << KN_UNI_SHIFT) +
                                         (cp & ((1u << KN_UNI_SHIFT) - 1))]];
}

int
kn_uni_map(uint32_t cp, int which, uint32_t *out)
{
    const KnUniRecord *r = kn_uni_record(cp);
    int32_t v = which == KN_MAP_UPPER   ? r->upper
                : which == KN_MAP_LOWER ? r->lower
                : which == KN_MAP_TITLE ? r->title
                                        : r->fold;
    if (!(r->special & (1u << which))) {
        out[0] = (uint32_t)((int32_t)cp + v);
        return 1;
    }
    const uint32_t *run = &kn_uni_special[v];
    int n = (int)run[0];
    for (int i = 0; i < n; i++)
        out[i] = run[i + 1];
    return n;
}
