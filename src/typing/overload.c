/* overload.c - typing of calls that are implemented in Python: kiln's own library (kiln/lib/)
 * and users' kiln.extending.overload / overload_method / overload_attribute /
 * register_jitable. The dispatcher's resolve_overload hook asks kiln.extending for the
 * implementation that fits the argument types (running the overload's typing function, as
 * Numba does) and returns a dispatcher; the call is then an ordinary call of a jitted function
 * (KN_CALL_JITTED), compiled once per signature and linked by symbol (or inlined by LLVM when
 * small). A method's self is the implementation's first argument (KnCallImpl.self_first). */
#include "typing/internal.h"

#include <stdio.h>

/* Ask kiln.extending for q's implementation and make the instruction a call of it (self first
 * for a method or attribute). 1 when there is none, 0, or -1 with a diagnostic. */
static int
call_implementation(KnCompilation *c, KnInstr *in, const KnOverloadQuery *q, int self_first)
{
    void *disp = NULL;
    KN_TRY(c->hooks->resolve_overload(c, q, in->span, &disp));
    if (!disp)
        return 1;
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_JITTED);
    impl->self_first = self_first;
    KN_TRY(c->hooks->resolve_call(c, disp, q->args, q->nargs, in->span, &impl->callee));
    in->type = impl->callee.ret;
    return 0;
}

int
kn_typing_overload(KnCompilation *c, KnInstr *in, KnType *fn, KnType *bound, KnType **a, int n)
{
    const char *name = bound ? bound->name : fn->name;
    if (!c->hooks || !c->hooks->resolve_overload)
        return kn_typing_err(c, in->span, "%s() is not available here", name);
    int m = 0;
    KnType **all = kn_arena_alloc(&c->arena, sizeof(KnType *) * (size_t)(n + 2));
    const char **strs = kn_arena_alloc(&c->arena, sizeof(char *) * (size_t)(n + 2));
    if (bound) {
        strs[m] = NULL;
        all[m++] = bound->items[0];
    }
    for (int i = 0; i < n; i++) {
        KnInstr *arg = in->args[i + 1];
        /* a constant str reaches the typing function as its value (mode='same') */
        strs[m] = arg->op == KN_OP_CONST && arg->type == &kn_type_str ? arg->imm.str : NULL;
        if (!kn_typing_passable(a[i]))
            return kn_typing_err(c, arg->span, "cannot pass %s to %s()", a[i]->name, name);
        all[m++] = a[i];
    }
    KnOverloadQuery q = {
        .kind = bound ? KN_OVERLOAD_METHOD : KN_OVERLOAD_FUNCTION,
        .ref = fn ? fn->ref : NULL,
        .name = name,
        .args = all,
        .nargs = m,
        .kwnames = in->aux ? in->imm.ptr : NULL,
        .nkw = in->aux,
        .strs = strs,
    };
    int none = call_implementation(c, in, &q, bound != NULL);
    if (none > 0)
        return kn_typing_err(c, in->span, "%s() is not supported in jitted code", name);
    return none;
}

/* An attribute of a value that the registry lacks: overload_attribute's implementation, called
 * with the value; 1 when there is none. */
int
kn_typing_overload_attr(KnCompilation *c, KnInstr *in, KnType *self)
{
    if (!c->hooks || !c->hooks->resolve_overload)
        return 1;
    KnType **all = kn_arena_alloc(&c->arena, sizeof(KnType *));
    all[0] = self;
    KnOverloadQuery q = {
        .kind = KN_OVERLOAD_ATTRIBUTE, .name = in->imm.str, .args = all, .nargs = 1};
    return call_implementation(c, in, &q, 1);
}

/* Whether a method of this name is implemented in Python for values of self's type. */
int
kn_typing_has_overload_method(KnCompilation *c, KnType *self, const char *name, KnSpan span)
{
    if (!c->hooks || !c->hooks->resolve_overload)
        return 0;
    KnType *all[1] = {self};
    KnOverloadQuery q = {.kind = KN_OVERLOAD_HAS_METHOD, .name = name, .args = all, .nargs = 1};
    void *found = NULL;
    if (c->hooks->resolve_overload(c, &q, span, &found) < 0)
        return -1;
    return found != NULL;
}
