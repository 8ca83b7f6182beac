/* namedtuple.c - typing of namedtuple values (types/model_namedtuple.c): a TUPLE built by a call
 * of the class (the frontend's TUPLE with a KnNamedTuple, kn_typing_namedtuple_tuple), field
 * access `p.x` (a constant item, KN_CALL_CONST with the index in value), and `p._replace(x=v)`
 * (a new namedtuple of the same class whose replaced items take the new values' types, as
 * Numba's). Indexing, unpacking, len, iteration and comparison are the tuple's own. */
#include "typing/internal.h"

KnType *
kn_typing_namedtuple_tuple(KnCompilation *c, KnInstr *in, KnType **items)
{
    const KnNamedTuple *nt = in->imm.ptr;
    return kn_type_namedtuple(c->types, nt->cls, nt->name, (const char *const *)nt->fields, items,
                              nt->n);
}

/* `p.name` of a namedtuple: 0 when typed, 1 when name is no field (the registry's turn) */
int
kn_typing_namedtuple_attr(KnCompilation *c, KnInstr *in, KnType *t)
{
    int k = kn_type_field_index(t, in->imm.str);
    if (k < 0)
        return 1;
    in->type = t->items[k];
    kn_typing_impl_kind(c, in, KN_CALL_CONST)->value = k;
    return 0;
}

/* the rule `namedtuple`: p._replace(field=value, ...) */
int
kn_type_rule_namedtuple(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KN_UNUSED(id);
    KnType *self = in->args[0]->args[0]->type;
    if (!self->fields)
        return kn_typing_err(c, in->span, "%s has no attribute '_replace'", self->name);
    if (n != in->aux)
        return kn_typing_err(c, in->span, "%s._replace() takes keyword arguments only", self->name);
    const char **names = in->imm.ptr;
    KnType *items[256];
    for (int i = 0; i < self->n && i < 256; i++)
        items[i] = self->items[i];
    for (int k = 0; k < n; k++) {
        int f = kn_type_field_index(self, names[k]);
        if (f < 0)
            return kn_typing_err(c, in->args[1 + k]->span, "Got unexpected field names: ['%s']",
                                 names[k]);
        if (!kn_type_is_value(a[k]))
            return kn_typing_err(c, in->args[1 + k]->span, "%s cannot be stored in a tuple",
                                 a[k]->name);
        items[f] = a[k];
    }
    in->type = kn_type_namedtuple_like(c->types, self, items);
    kn_typing_impl_kind(c, in, KN_CALL_METHOD);
    return 0;
}
