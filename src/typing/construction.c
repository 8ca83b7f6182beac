/* construction.c - typing helpers of the array-creation functions (np.empty, np.zeros,
 * np.ones, np.full and their _like forms; typing/arrays.c types the calls, lower/create.c
 * lowers them): NumPy's order= argument. A new array is 'C' or 'F' ordered (a layout of its
 * type: lower/create.c's allocation lays the strides out for it); the _like forms default to
 * NumPy's 'K', which keeps a Fortran-ordered argument Fortran-ordered ('A' does the same for
 * kiln's types: an 'F' layout is Fortran-contiguous). */
#include "typing/internal.h"

#include <string.h>

/* the layout ('C' or 'F') of a new array from its order= argument (NULL or None: the default),
 * `like` the array of a _like form (NULL otherwise); -1 with a diagnostic for another value */
int
kn_typing_creation_order(KnCompilation *c, KnInstr *in, KnInstr *order, const KnType *like)
{
    const char *name = kn_kir_builtin_name(in->args[0]->type->id);
    char keep = like && like->layout == 'F' ? 'F' : 'C';
    if (!order || order->type->kind == KN_TY_NONE)
        return like ? keep : 'C';
    if (order->type->kind != KN_TY_STR || order->op != KN_OP_CONST)
        return kn_typing_err(c, order->span, "%s(): order must be a constant str, not %s", name,
                             order->type->name);
    const char *s = order->imm.str;
    if (!strcmp(s, "C") || !strcmp(s, "F"))
        return s[0];
    if (like && (!strcmp(s, "A") || !strcmp(s, "K")))
        return keep;
    return kn_typing_err(c, order->span, "%s(): order must be one of %s, not '%s'", name,
                         like ? "'C', 'F', 'A' or 'K'" : "'C' or 'F'", s);
}

static int
item_bytes(const KnType *d)
{
    return d->kind == KN_TY_BOOL ? 1 : (int)kn_type_size(d);
}

/* a.view() and a.view(dtype) of a dtype of the same itemsize (as Numba: NumPy also changes
 * the last axis' length for another itemsize): the same memory, shape and strides */
static int
type_view(KnCompilation *c, KnInstr *in)
{
    KnType *bound = in->args[0]->type, *self = bound->items[0];
    int n = in->nargs - 1;
    KnInstr *dt = kn_typing_arg(in, 0, "dtype");
    if (n > 1 || (n == 1 && !dt))
        return kn_typing_err(c, in->span, "view() takes one dtype in compiled code");
    if (!kn_type_is_number(self->dtype))
        return kn_typing_err(c, in->span, "view() of %s is not supported", self->name);
    KnType *d = self->dtype;
    if (dt && !(d = kn_typing_dtype_of(dt)))
        return kn_typing_err(c, dt->span,
                             "view() takes a number dtype (np.int64, 'f8', a.dtype), not %s",
                             dt->type->name);
    if (item_bytes(d) != item_bytes(self->dtype))
        return kn_typing_err(c, dt->span,
                             "view(%s) of %s: kiln (as Numba) views an array as a dtype of the "
                             "same itemsize only (%d bytes, not %d)",
                             d->name, self->name, item_bytes(self->dtype), item_bytes(d));
    in->type = kn_type_array(c->types, d, self->ndim, self->layout, self->readonly);
    return 0;
}

int
kn_type_rule_construction(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    (void)a, (void)n;
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_METHOD;
    impl->builtin = id;
    return type_view(c, in);
}
