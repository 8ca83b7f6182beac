/* target.c - the table of targets (targets.def) and their life: kn_target_create finds a target
 * by name and calls its constructor, which fills the identity and the hooks; kn_target_destroy
 * frees what the constructor allocated. Nothing here knows any one target. */
#include "targets/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    KnTarget *(*make)(char **err);
} targets[] = {
#define KN_TARGET(name, constructor) {name, constructor},
#include "targets/targets.def"
#undef KN_TARGET
};

KnTarget *
kn_target_create(const char *name, char **err)
{
    for (int i = 0; i < KN_ARRAY_LEN(targets); i++)
        if (strcmp(targets[i].name, name) == 0)
            return targets[i].make(err);
    char msg[128];
    snprintf(msg, sizeof msg, "no target named '%s' (targets/targets.def)", name);
    *err = strdup(msg);
    return NULL;
}

void
kn_target_destroy(KnTarget *t)
{
    if (!t)
        return;
    free(t->triple);
    free(t->cpu);
    free(t->features);
    free(t->datalayout);
    free(t);
}
