/* model_np_random.c - the type model of np.random.Generator objects passed into compiled code
 * (kind npgen): one type, whose value is the pointer to the bit generator's bitgen_t (8 bytes),
 * borrowed from the Python object for the call. */
#include "types/model.h"

KnType kn_type_np_generator = {.kind = KN_TY_NPGEN, .name = "Generator"};

static size_t
size_8(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

const KnTypeModel kn_type_model_npgen = {.size = size_8, .align = size_8};
