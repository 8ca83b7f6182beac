/* functions.c - jitted functions as values (docs/internals.md, "Functions as values and
 * closures"). A jitted function is a compile-time value: its FUNC type names the dispatcher, so
 * passing one as an argument specialises the callee for it (one overload per function passed,
 * as Numba's dispatcher types), returning one gives the dispatcher back, and calling a variable
 * that holds one is an ordinary call of a known jitted function (linked by symbol, inlined by
 * LLVM when small). */
#include "typing/internal.h"

int
kn_typing_func_value(const KnType *t)
{
    return t->kind == KN_TY_FUNC && t->id == KN_FUNC_JITTED && t->ref;
}

int
kn_typing_passable(const KnType *t)
{
    return kn_type_is_value(t) || kn_typing_func_value(t);
}
