/* exceptions.c - typing of raise with run-time arguments, exc_match and reraise.
 *
 * A RAISE's operands (frontend/try.c: the arguments that are not constants) must be numbers
 * (not complex), bools or strs: lowering stores each in KnExcInfo.args (a str's text in the
 * runtime, runtime/exc.c) and the dispatcher makes the Python values again. An EXC_MATCH is a
 * bool; its operands are exception classes (CLASS, id 1), which the frontend checked. RERAISE
 * has no value. */
#include "typing/internal.h"

static int
passable(const KnType *t)
{
    return t->kind == KN_TY_INT || t->kind == KN_TY_BOOL || t->kind == KN_TY_FLOAT ||
           t->kind == KN_TY_STR;
}

int
kn_typing_exc(KnCompilation *c, KnInstr *in)
{
    switch (in->op) {
    case KN_OP_RAISE:
        for (int i = 0; i < in->nargs; i++) {
            const KnType *t = in->args[i]->type;
            if (t && !passable(t))
                return kn_typing_err(c, in->args[i]->span,
                                     "an exception argument computed at run time must be an "
                                     "int, float, bool or str, not %s",
                                     t->name);
        }
        return 0;
    case KN_OP_EXC_MATCH:
        for (int i = 0; i < in->nargs; i++) {
            const KnType *t = in->args[i]->type;
            if (t && !(t->kind == KN_TY_CLASS && t->id == 1))
                return kn_typing_err(c, in->args[i]->span,
                                     "except needs an exception class, not %s", t->name);
        }
        in->type = &kn_type_bool;
        return 0;
    default: /* RERAISE */
        return 0;
    }
}
