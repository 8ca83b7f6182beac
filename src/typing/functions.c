/* functions.c - jitted functions as values (docs/internals.md, "Functions as values and
 * closures"). A jitted function is a compile-time value: its FUNC type names the dispatcher, so
 * passing one as an argument specialises the callee for it (one overload per function passed,
 * as Numba's dispatcher types), returning one gives the dispatcher back, and calling a variable
 * that holds one is an ordinary call of a known jitted function (linked by symbol, inlined by
 * LLVM when small).
 *
 * A closure (an inner def or a lambda that captures variables of the function it is written
 * in) is a tuple (FUNC closure, captured values...): the frontend (frontend/functions.c) lifts
 * the inner function into a jitted function of its own whose captured variables are hidden
 * parameters after its declared ones, and a call of the tuple is a call of that function with
 * the captured values appended (lower/calls.c). Captured values are taken when the def or
 * lambda runs (by value).
 *
 * A first-class function type (Numba's FunctionType): jitted functions that meet in one value
 * (`f = sq if c else cube`, `(sq, cube)[i]`) unify into a choice among them (FUNC of id
 * KN_FUNC_CHOICE, types/model_misc.c), whose run-time value is the index of the function. A
 * call of a choice resolves every function for the call's argument types; their return types
 * must unify. Lowering (lower/functions.c) switches on the index to direct calls, each
 * inlinable, where Numba calls through a function pointer. */
#include "typing/internal.h"

int
kn_typing_func_value(const KnType *t)
{
    return t->kind == KN_TY_FUNC &&
           ((t->id == KN_FUNC_JITTED && t->ref) || t->id == KN_FUNC_CHOICE);
}

int
kn_typing_passable(const KnType *t)
{
    return kn_type_is_value(t) || kn_typing_func_value(t);
}

int
kn_typing_unknown_list(const KnType *t)
{
    if (t->kind == KN_TY_LIST)
        return t->dtype == NULL;
    for (int i = 0; t->kind == KN_TY_TUPLE && i < t->n; i++)
        if (kn_typing_unknown_list(t->items[i]))
            return 1;
    return 0;
}

int
kn_typing_is_closure(const KnType *t)
{
    return t->kind == KN_TY_TUPLE && t->n >= 1 && t->items[0]->kind == KN_TY_FUNC &&
           t->items[0]->id == KN_FUNC_CLOSURE && t->items[0]->ref;
}

int
kn_typing_resolve_value(KnCompilation *c, KnType *ft, KnType **a, int n, KnSpan span, KnCallee *out)
{
    int closure = kn_typing_is_closure(ft);
    if (!closure && !kn_typing_func_value(ft))
        return 1;
    if (ft->id == KN_FUNC_CHOICE && !closure)
        return kn_typing_err(c, span, "%s (a function chosen at run time) is not supported here",
                             ft->name);
    int extra = closure ? ft->n - 1 : 0;
    if (n + extra > KN_MAX_PARAMS)
        return kn_typing_err(c, span, "calls of more than %d arguments are not supported",
                             KN_MAX_PARAMS);
    if (!c->hooks || !c->hooks->resolve_call)
        return kn_typing_err(c, span, "calls to other jitted functions are not available here");
    KnType **args = kn_arena_alloc(&c->arena, sizeof(KnType *) * (size_t)(n + extra + 1));
    memcpy(args, a, sizeof(KnType *) * (size_t)n);
    for (int i = 0; i < extra; i++)
        args[n + i] = ft->items[i + 1];
    for (int i = 0; i < n + extra; i++)
        if (kn_typing_unknown_list(args[i]))
            return 0; /* an empty [] not refined yet: its item type may come in a later round */
    void *disp = closure ? ft->items[0]->ref : ft->ref;
    KN_TRY(c->hooks->resolve_call(c, disp, args, n + extra, span, out));
    return 0;
}

int
kn_typing_closure_call(KnCompilation *c, KnInstr *in, KnType *ct, KnType **a, int n)
{
    for (int i = 0; i < n; i++)
        if (!kn_typing_passable(a[i]))
            return kn_typing_err(c, in->span, "cannot pass %s to %s", a[i]->name,
                                 ct->items[0]->name);
    if (in->aux > 0)
        return kn_typing_err(c, in->span,
                             "keyword arguments in a call of a closure (%s) are not supported: "
                             "pass them by position",
                             ct->items[0]->name);
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_JITTED);
    KN_TRY(kn_typing_resolve_value(c, ct, a, n, in->span, &impl->callee));
    in->type = impl->callee.ret;
    return 0;
}

KnType *
kn_typing_func_items(KnCompilation *c, const KnType *tuple)
{
    KnType *u = tuple->n ? tuple->items[0] : NULL;
    for (int i = 1; u && i < tuple->n; i++)
        u = kn_type_func_choice(c->types, u, tuple->items[i]);
    return u && u->kind == KN_TY_FUNC && u->id == KN_FUNC_CHOICE ? u : NULL;
}

int
kn_typing_choice_call(KnCompilation *c, KnInstr *in, KnType *ct, KnType **a, int n)
{
    for (int i = 0; i < n; i++)
        if (!kn_typing_passable(a[i]))
            return kn_typing_err(c, in->span, "cannot pass %s to %s", a[i]->name, ct->name);
    if (in->aux > 0)
        return kn_typing_err(c, in->span,
                             "keyword arguments in a call of a function value (%s) are not "
                             "supported: pass them by position",
                             ct->name);
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_JITTED);
    impl->choices = kn_arena_alloc(&c->arena, sizeof(KnCallee) * (size_t)ct->n);
    KnType *ret = NULL;
    int can_raise = 0, recursive = 0;
    for (int k = 0; k < ct->n; k++) {
        KN_TRY(kn_typing_resolve_value(c, ct->items[k], a, n, in->span, &impl->choices[k]));
        KnType *r = impl->choices[k].ret;
        if (!r)
            return 0; /* a recursive callee not typed yet: another round */
        KnType *u = kn_type_unify(c->types, ret, r);
        if (!u || !kn_type_is_value(u))
            return kn_typing_err(c, in->span,
                                 "the functions of %s return different types (%s and %s)", ct->name,
                                 ret ? ret->name : "?", r->name);
        ret = u;
        can_raise |= impl->choices[k].can_raise;
        recursive |= impl->choices[k].recursive;
    }
    /* what passes read (raises.c): the first callee, raising if any does */
    impl->callee = impl->choices[0];
    impl->callee.can_raise = can_raise;
    impl->callee.recursive = recursive;
    impl->callee.ret = ret;
    in->type = ret;
    return 0;
}

int
kn_typing_report_unknown_list(KnCompilation *c, KnInstr *in)
{
    if (in->op != KN_OP_CALL)
        return 0;
    for (int i = 0; i < in->nargs; i++) {
        KnType *t = in->args[i]->type;
        if (t && kn_typing_unknown_list(t)) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[i]->span,
                          "an empty list whose item type is not known cannot be passed to a "
                          "jitted function%s: give it an item first, or build it in the callee",
                          i == 0 ? " (here inside the closure)" : "");
            return 1;
        }
    }
    return 0;
}
