/* np_random.h - the argument forms of np.random's entries (lib/np_random.def), shared by their
 * typing rule (typing/np_random.c) and lowering rule (lower/np_random.c). */
#ifndef KN_TYPING_NP_RANDOM_H
#define KN_TYPING_NP_RANDOM_H

#include "typing/typing.h"

/* A distribution of scalar parameters and size=: params[i] is the parameter's name, each
 * described by forms[i]: 'f' a real number (converted to float64), 'i' an int (int64), the
 * default after it ('0', '1' for 0.0 and 1.0, 'n' none: required, 'N' None allowed); result
 * 'f' (float64) or 'i' (int64). Special entries (seed, rand, choice, ...) have no params. */
typedef struct {
    int id;
    int nparams;
    const char *params[3];
    const char *forms[3];
    char result;
} KnNprSpec;

const KnNprSpec *kn_typing_npr_spec(int id); /* NULL for the special entries */

#endif
