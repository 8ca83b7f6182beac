/* caught.c - typing of lib/caught.def: the exception an `except ... as e` clause caught.
 *
 * Input: a call kiln._caught.text/text_repr/args(k) that frontend/try.c made for str(e) (and
 * print(e), f"{e}"), repr(e) and e.args, k the try's number (an int constant). Output: str for
 * the two texts; for e.args a tuple of one str: which exception is caught is known only at run
 * time, so e.args has one type, that of the common case (one str argument: kiln's own
 * exceptions and `raise Cls("...")`), and any other caught exception makes e.args raise a
 * TypeError at run time (lower/caught.c). */
#include "typing/internal.h"

int
kn_type_rule_caught(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
    if (n != 1 || a[0]->kind != KN_TY_INT || in->args[1]->op != KN_OP_CONST)
        return kn_typing_err(c, in->span, "%s() is internal to kiln's except clauses",
                             kn_kir_builtin_name(id));
    if (id == KN_BI_CAUGHT_ARGS) {
        KnType *item = &kn_type_str;
        in->type = kn_type_tuple(c->types, &item, 1);
    } else {
        in->type = &kn_type_str;
    }
    return 0;
}
