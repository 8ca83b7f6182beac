/* record.c - the fixed-length string fields of records (types/model_record.c): a 'U' field is
 * nchars UCS4 code points, an 'S' field nchars bytes, both padded with NULs, as NumPy stores
 * them. Reading one gives the str of its code points up to the trailing NULs (an 'S' field's
 * bytes as code points 0-255, since kiln has no bytes type); writing one stores the str's first
 * nchars code points and pads with NULs (in an 'S' field, each code point's low byte). */
#include <string.h>

#include "runtime/str.h"

int
kn_rt_record_str_get(KnStr *out, const void *p, int64_t nchars, int32_t unicode)
{
    int64_t n = nchars;
    if (unicode) {
        const uint32_t *u = p;
        while (n > 0 && !u[n - 1])
            n--;
        return kn_rt_str_make(out, p, n, 4);
    }
    const uint8_t *b = p;
    while (n > 0 && !b[n - 1])
        n--;
    return kn_rt_str_make(out, p, n, 1);
}

void
kn_rt_record_str_set(void *p, int64_t nchars, int32_t unicode, const KnStr *s)
{
    int64_t n = s->length < nchars ? s->length : nchars;
    for (int64_t i = 0; i < nchars; i++) {
        uint32_t cp = i < n ? (uint32_t)kn_rt_str_code(s, i) : 0;
        if (unicode)
            memcpy((char *)p + 4 * i, &cp, 4);
        else
            ((uint8_t *)p)[i] = (uint8_t)cp;
    }
}
