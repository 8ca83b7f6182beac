/* locals.c - the decorator option locals={'x': float32}: the variable x has that type from the
 * start of typing, and every value stored in it is converted to it (lower_store converts a
 * store to its variable's type), as Numba locks a variable's type. A value converts when
 * Numba's dispatcher would convert it (kn_type_conversion, types/conversion.c: unsafe number
 * conversions included, so a float stored in an int variable truncates); any other store is an
 * error at the value, naming the declaration. Names that are not variables of the function
 * are ignored, as in Numba. */
#include "typing/internal.h"

/* The type locals= gives the variable, or NULL. */
static KnType *
declared(KnCompilation *c, const KnVar *var)
{
    if (var->name[0] == '$')
        return NULL;
    for (int i = 0; i < c->nlocals; i++)
        if (!strcmp(c->local_names[i], var->name))
            return c->local_types[i];
    return NULL;
}

void
kn_typing_locals_init(KnCompilation *c)
{
    for (int v = 0; c->nlocals && v < c->fn->vars.len; v++) {
        KnVar *var = &c->fn->vars.items[v];
        KnType *t = declared(c, var);
        if (t)
            var->type = t;
    }
}

int
kn_typing_locals_store(KnCompilation *c, KnInstr *in, int *handled)
{
    KnVar *var = &c->fn->vars.items[in->aux];
    KnType *t = c->nlocals ? declared(c, var) : NULL, *v = in->args[0]->type;
    *handled = t != NULL;
    if (!t || kn_type_conversion(v, t) != KN_CONV_NONE)
        return 0;
    kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[0]->span,
                  "cannot store %s in '%s', which locals= declares %s", v->name, var->name,
                  t->name);
    return -1;
}
