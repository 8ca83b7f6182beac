/* shape.c - typing of the shape family's C entry (lib/shape.def):
 * np.lib.stride_tricks.as_strided(x, shape, strides, subok=False, writeable=True). shape and
 * strides are tuples of integers of one length (run-time values; their length is the view's
 * ndim); the view has layout 'A', x's dtype, and is read-only when x is or when writeable is
 * the constant False. kiln/lib/shape.py builds NumPy's views (expand_dims, squeeze, swapaxes,
 * moveaxis, broadcast_to, flip, ...) on it. As NumPy's, the call checks nothing: a view past
 * the buffer is the caller's error. kiln.lib._shape_prims.copy_into(dst, src) is the
 * family's copy (lower/shape.c): arrays, dst writable. */
#include "typing/internal.h"

static int
int_tuple(const KnType *t)
{
    if (t->kind != KN_TY_TUPLE)
        return 0;
    for (int i = 0; i < t->n; i++)
        if (t->items[i]->kind != KN_TY_INT && t->items[i]->kind != KN_TY_BOOL)
            return 0;
    return 1;
}

static int
const_bool(const KnInstr *x, int *v)
{
    if (x->op != KN_OP_CONST || !x->type ||
        (x->type->kind != KN_TY_BOOL && x->type->kind != KN_TY_INT))
        return 0;
    *v = x->imm.i != 0;
    return 1;
}

static int
type_as_strided(KnCompilation *c, KnInstr *in, int id)
{
    static const char *const kw[] = {"x", "shape", "strides", "subok", "writeable", NULL};
    const char *name = kn_kir_builtin_name(id);
    KN_TRY(kn_typing_check_keywords_of(c, in, name, kw, 5));
    KnInstr *x = kn_typing_arg(in, 0, "x"), *shape = kn_typing_arg(in, 1, "shape"),
            *strides = kn_typing_arg(in, 2, "strides"), *subok = kn_typing_arg(in, 3, "subok"),
            *wr = kn_typing_arg(in, 4, "writeable");
    if (!x)
        return kn_typing_err(c, in->span, "%s() needs an array", name);
    if (x->type->kind != KN_TY_ARRAY)
        return kn_typing_err(c, x->span, "%s() needs an array, not %s", name, x->type->name);
    if (!shape || !strides)
        return kn_typing_err(c, in->span,
                             "%s() needs shape and strides in kiln (tuples of integers)", name);
    if (!int_tuple(shape->type))
        return kn_typing_err(c, shape->span, "%s()'s shape must be a tuple of integers, not %s",
                             name, shape->type->name);
    if (!int_tuple(strides->type))
        return kn_typing_err(c, strides->span, "%s()'s strides must be a tuple of integers, not %s",
                             name, strides->type->name);
    if (shape->type->n != strides->type->n)
        return kn_typing_err(c, strides->span,
                             "%s(): shape and strides must have the same length (%d and %d)", name,
                             shape->type->n, strides->type->n);
    int v = 0;
    if (subok && (!const_bool(subok, &v) || v))
        return kn_typing_err(c, subok->span, "%s()'s subok= must be False in kiln", name);
    int writeable = 1;
    if (wr && !const_bool(wr, &writeable))
        return kn_typing_err(c, wr->span, "%s()'s writeable= must be a constant True or False",
                             name);
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_BUILTIN;
    impl->builtin = id;
    in->type = kn_type_array(c->types, x->type->dtype, shape->type->n, 'A',
                             x->type->readonly || !writeable);
    return 0;
}

/* copy_into(dst, src[, offset]): arrays, dst writable and of at least src's ndim (the same
 * with an offset) */
static int
type_copy_into(KnCompilation *c, KnInstr *in, int id, KnType **args, int n)
{
    const char *name = kn_kir_builtin_name(id);
    if (n < 2 || n > 3 || args[0]->kind != KN_TY_ARRAY || args[1]->kind != KN_TY_ARRAY)
        return kn_typing_err(c, in->span, "%s() takes two arrays and an optional offset", name);
    if (n == 3 && (args[2]->kind != KN_TY_INT || args[0]->ndim != args[1]->ndim))
        return kn_typing_err(c, in->span, "%s(dst, src, offset): an int offset, one ndim", name);
    if (args[0]->readonly)
        return kn_typing_err(c, in->args[1]->span, "%s(): the destination is read-only (%s)", name,
                             args[0]->name);
    if (args[1]->ndim > args[0]->ndim)
        return kn_typing_err(c, in->args[2]->span, "%s(): the source has more dimensions", name);
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_BUILTIN;
    impl->builtin = id;
    in->type = &kn_type_none;
    return 0;
}

int
kn_type_rule_shape(KnCompilation *c, KnInstr *in, int id, KnType **args, int n)
{
    if (id == KN_BI_SHAPE_COPY_INTO)
        return type_copy_into(c, in, id, args, n);
    return type_as_strided(c, in, id);
}
