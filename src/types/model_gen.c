/* model_gen.c - the type model of generators: generator(item), the value a call of a jitted
 * generator function makes in compiled code, one pointer (the KnMemInfo * of its frame,
 * lower/generators.c), interned by its item type and the overload's symbol (ref), since each
 * compiled generator has a frame of its own layout; printed generator(T, symbol), which the KIR
 * reader reads back. Generators of different functions do not unify. */
#include "types/model.h"

#include <stdlib.h>
#include <string.h>

/* One pointer per symbol text, so that the type read back from KIR text (its symbol in the
 * reader's arena) is the type typing made (the overload's copy): interning compares ref by
 * pointer. The copies live as long as the process (one per generator overload). */
static const char *
symbol_of(const char *symbol)
{
    static char **seen;
    static size_t n, cap;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(seen[i], symbol))
            return seen[i];
    if (n == cap) {
        size_t ncap = cap ? cap * 2 : 16;
        char **grown = realloc(seen, sizeof(char *) * ncap);
        if (!grown)
            return symbol;
        seen = grown;
        cap = ncap;
    }
    char *copy = strdup(symbol);
    if (!copy)
        return symbol;
    seen[n++] = copy;
    return copy;
}

KnType *
kn_type_gen(KnTypeTable *t, KnType *item, const char *symbol)
{
    symbol = symbol_of(symbol);
    KnType key = {.kind = KN_TY_GEN, .dtype = item, .ref = (void *)symbol};
    KnType *found = kn_type_find(t, &key);
    if (found)
        return found;
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_printf(&sb, "generator(%s, %s)", item ? item->name : "none", symbol);
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

static size_t
gen_size(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static int
gen_same(const KnType *a, const KnType *b)
{
    return a->dtype == b->dtype;
}

static uint64_t
gen_hash(const KnType *k, uint64_t h)
{
    return kn_hash_mix(h, (uint64_t)(uintptr_t)k->dtype);
}

const KnTypeModel kn_type_model_gen = {
    .size = gen_size,
    .align = gen_size,
    .same = gen_same,
    .hash = gen_hash,
};
