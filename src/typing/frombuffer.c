/* frombuffer.c - typing of np.frombuffer(buffer, dtype=float, count=-1, offset=0)
 * (lib/frombuffer.def). The buffer is a 1-d C-contiguous array (bytes, bytearray and memoryview
 * arguments are uint8 arrays: dispatch/box_array.c), whose bytes are viewed; dtype a number
 * dtype named as elsewhere (np.float32, 'f4', a.dtype; float64 when absent); count and offset
 * integers (the checks are run-time ones, lower/frombuffer.c). The result is a 1-d C array of
 * that dtype, read-only when the buffer is (bytes, a read-only memoryview or array). */
#include "typing/internal.h"

int
kn_type_rule_frombuffer(KnCompilation *c, KnInstr *in, int id, KnType **args, int n)
{
    (void)args, (void)n;
    static const char *const kw[] = {"buffer", "dtype", "count", "offset", "like", NULL};
    const char *name = kn_kir_builtin_name(id);
    KN_TRY(kn_typing_check_keywords(c, in, kw, 4));
    KnInstr *buf = kn_typing_arg(in, 0, "buffer"), *dt = kn_typing_arg(in, 1, "dtype"),
            *count = kn_typing_arg(in, 2, "count"), *offset = kn_typing_arg(in, 3, "offset"),
            *like = kn_typing_arg(in, 99, "like");
    if (!buf)
        return kn_typing_err(c, in->span, "%s() needs a buffer", name);
    KnType *bt = buf->type;
    if (bt->kind != KN_TY_ARRAY || bt->ndim != 1 || bt->layout != 'C' ||
        !kn_type_is_number(bt->dtype))
        return kn_typing_err(c, buf->span,
                             "%s() takes bytes, a bytearray, a memoryview or a 1-d C-contiguous "
                             "array of numbers, not %s",
                             name, bt->name);
    KnType *d = &kn_type_float64;
    if (dt && dt->type->kind != KN_TY_NONE &&
        (!(d = kn_typing_dtype_of(dt)) || !kn_type_is_number(d)))
        return kn_typing_err(c, dt->span,
                             "%s()'s dtype must be a number dtype (np.int32, 'f8', a.dtype), "
                             "not %s",
                             name, dt->type->name);
    KnInstr *ints[2] = {count, offset};
    for (int i = 0; i < 2; i++)
        if (ints[i] && !kn_typing_intlike(ints[i]->type))
            return kn_typing_err(c, ints[i]->span, "%s()'s %s must be an integer, not %s", name,
                                 i ? "offset" : "count", ints[i]->type->name);
    if (like && like->type->kind != KN_TY_NONE)
        return kn_typing_err(c, like->span, "%s()'s like= is not supported in kiln", name);
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_BUILTIN;
    impl->builtin = id;
    impl->operand = d;
    in->type = kn_type_array(c->types, d, 1, 'C', bt->readonly);
    return 0;
}
