/* lib.c - the call registry's table (lib/registry.def) and its lookup by owner and name. The
 * table is constant; kn_lib_find scans the entries of one owner, which the table keeps
 * together (a family file holds one owner's entries, or a few). */
#include "lib/lib.h"

#include <string.h>

static const KnCallEntry entries[] = {
#define X(id, owner, name, flags, rule) {owner, name, owner "." name, flags},
#include "lib/registry.def"
#undef X
};

const KnCallEntry *
kn_lib_entry(int id)
{
    return &entries[id];
}

int
kn_lib_find(const char *owner, const char *name)
{
    for (int i = 0; i < KN_BI__COUNT; i++)
        if (!strcmp(entries[i].name, name) && !strcmp(entries[i].owner, owner))
            return i;
    return -1;
}
