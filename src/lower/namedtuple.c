/* namedtuple.c - lowering of namedtuple values (typing/namedtuple.c): a field `p.x` is the
 * tuple's item (borrowed, as a tuple's getitem), `p._replace(x=v)` (the rule `namedtuple`) a new
 * tuple of the self's items and the new values converted to the result's item types, with a
 * reference of its own to what it holds (a call's result). */
#include "lower/internal.h"

LLVMValueRef
kn_lower_namedtuple_field(L *l, KnInstr *in)
{
    const KnCallImpl *impl = in->impl;
    return LLVMBuildExtractValue(l->b, l->vals[in->args[0]->id], (unsigned)impl->value, "");
}

LLVMValueRef
kn_lower_rule_namedtuple(L *l, KnInstr *in, int bid)
{
    KN_UNUSED(bid);
    KnInstr *self = in->args[0]->args[0];
    const KnType *st = self->type, *rt = in->type;
    const char **names = in->imm.ptr;
    int nkw = in->aux, from[256];
    for (int i = 0; i < rt->n && i < 256; i++)
        from[i] = -1;
    for (int k = 0; k < nkw; k++)
        from[kn_type_field_index(st, names[k])] = k;
    LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, rt));
    for (int i = 0; i < rt->n && i < 256; i++) {
        LLVMValueRef v;
        if (from[i] >= 0) {
            KnInstr *a = in->args[in->nargs - nkw + from[i]];
            v = kn_lower_convert(l, l->vals[a->id], a->type, rt->items[i]);
        } else {
            v = LLVMBuildExtractValue(l->b, l->vals[self->id], (unsigned)i, "");
        }
        r = LLVMBuildInsertValue(l->b, r, v, (unsigned)i, "");
    }
    kn_lower_incref(l, r, rt); /* a call's result owns its references */
    return r;
}
