/* optional.c - typing of optional values (types/model_optional.c: a value of type T or None).
 *
 * A variable or return that receives None and values of type T is typed optional(T)
 * (kn_type_optional_unify, from type_store and type_ret). Where an instruction needs the
 * value itself (an operator, a call of a builtin, indexing, an attribute...), typing inserts an
 * UNWRAP before it (kn_typing_unwrap_operands): the value, or TypeError when it is None at run
 * time. So `if x is not None: y = x + 1` types, as in Numba, without narrowing the variable
 * itself: the test is a run-time test of the flag (OPTIONAL_IS_NONE), and the unwrap inside the
 * branch cannot fail. What takes an optional as it is: stores, returns, tuples, truth, `is None`
 * tests, and the arguments of jitted functions (compiled for the optional type).
 * When the tested value's type is None or a plain value, `x is None` is a constant
 * (typing.c) and the fixpoint types only the branch it takes (kn_typing_const_cond), so
 * `def f(a, b=None): if b is not None: return a + b` compiles for f(1) and for f(1, 2). */
#include "typing/internal.h"

static int
is_optional(const KnType *t)
{
    return t && t->kind == KN_TY_OPTIONAL;
}

/* `x == v` or `x != v` (not `is`) of an optional number and a number, either side */
static int
optional_number_eq(const KnInstr *in)
{
    if (in->op != KN_OP_CMP || (in->aux != KN_CMP_EQ && in->aux != KN_CMP_NE) || in->imm.i)
        return 0;
    const KnType *a = in->args[0]->type, *b = in->args[1]->type;
    if (!a || !b || is_optional(a) == is_optional(b))
        return 0;
    const KnType *o = is_optional(a) ? a : b, *v = is_optional(a) ? b : a;
    return kn_type_is_number(o->dtype) && kn_type_is_number(v);
}

/* an optional print() shows as CPython does (None or the value): a number, bool or str */
static int
simple_value(const KnType *t)
{
    return t && (kn_type_is_number(t) || t->kind == KN_TY_BOOL || t->kind == KN_TY_STR);
}

/* whether print() takes t as it is: optionals of simple values, also inside tuples (lowered by
 * lower/calls.c's flatten_print); 0 for an optional of anything else inside a tuple */
int
kn_typing_print_optional_ok(const KnType *t)
{
    if (t->kind == KN_TY_OPTIONAL)
        return simple_value(t->dtype);
    for (int i = 0; t->kind == KN_TY_TUPLE && i < t->n; i++)
        if (!kn_typing_print_optional_ok(t->items[i]))
            return 0;
    return 1;
}

/* a call that takes operand k as an optional: isinstance's value, print's simple optionals */
static int
call_takes_optional(const KnInstr *in, int k)
{
    const KnType *f = in->args[0]->type;
    if (!f || f->kind != KN_TY_FUNC)
        return 0;
    if (f->id == KN_BI_ISINSTANCE)
        return k == 1;
    return f->id == KN_BI_PRINT && simple_value(in->args[k]->type->dtype);
}

/* whether operand k of in is used as a plain value (an optional there is unwrapped) */
static int
needs_value(const KnInstr *in, int k)
{
    switch (in->op) {
    case KN_OP_BINOP:
    case KN_OP_GETITEM:
    case KN_OP_SETITEM:
    case KN_OP_GETATTR:
    case KN_OP_LEN:
    case KN_OP_CAST:
    case KN_OP_GETITER:
    case KN_OP_SLICE:
    case KN_OP_MAKESLICE:
    case KN_OP_BUILD_LIST:
    case KN_OP_BUILD_DICT:
    case KN_OP_BUILD_SET:
        return 1;
    case KN_OP_UNOP:
        return in->aux != KN_UN_NOT;
    case KN_OP_CMP: {
        const KnType *o = in->args[1 - k]->type;
        return !(o && (o->kind == KN_TY_NONE || o->kind == KN_TY_OPTIONAL)) &&
               !optional_number_eq(in);
    }
    case KN_OP_CALL: {
        const KnType *f = in->args[0]->type;
        return k > 0 && !(f && f->kind == KN_TY_FUNC && f->id == KN_FUNC_JITTED) &&
               !(is_optional(in->args[k]->type) && call_takes_optional(in, k));
    }
    default:
        return 0;
    }
}

static KnInstr *
new_unwrap(KnCompilation *c, KnInstr *of)
{
    KnInstr *u = kn_arena_alloc(&c->arena, sizeof(KnInstr));
    u->op = KN_OP_UNWRAP;
    u->id = c->fn->next_id++;
    u->nargs = 1;
    u->args = kn_arena_alloc(&c->arena, sizeof(KnInstr *));
    u->args[0] = of;
    u->span = of->span;
    u->type = of->type->dtype;
    return u;
}

int
kn_typing_unwrap_operands(KnCompilation *c, KnBlock *blk, int i)
{
    KnInstr *in = blk->instrs.items[i];
    int added = 0;
    for (int k = 0; k < in->nargs; k++) {
        if (!((is_optional(in->args[k]->type) && needs_value(in, k)) ||
              (kn_typing_intenum_as_int(in, k) && needs_value(in, k))))
            continue; /* an IntEnum member used as an int: its value (enum.c) */
        KnInstr *u = new_unwrap(c, in->args[k]);
        in->args[k] = u;
        KN_VEC_PUSH(&c->arena, blk->instrs, u); /* grow by one, then move it before `in` */
        int at = i + added;
        memmove(&blk->instrs.items[at + 1], &blk->instrs.items[at],
                sizeof(KnInstr *) * (size_t)(blk->instrs.len - 1 - at));
        blk->instrs.items[at] = u;
        added++;
    }
    return added;
}

int
kn_typing_unwrap(KnCompilation *c, KnInstr *in)
{
    KN_UNUSED(c);
    const KnType *t = in->args[0]->type;
    if (t)
        in->type = is_optional(t) || t->kind == KN_TY_ENUM ? t->dtype : (KnType *)t;
    return 0;
}

/* `x is None`, `x is not None`, `x == None`, `x != None` with x optional (either side): a
 * run-time test; `x == v`, `x != v` of an optional number and a number: false (true) when x is
 * None, else the values compared. 1 when in is one (typed), else 0. */
int
kn_typing_optional_cmp(KnCompilation *c, KnInstr *in)
{
    const KnType *a = in->args[0]->type, *b = in->args[1]->type;
    if ((in->aux != KN_CMP_EQ && in->aux != KN_CMP_NE) || !a || !b)
        return 0;
    if (optional_number_eq(in)) { /* None == 3 is False; else the values compare */
        in->type = &kn_type_bool;
        KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_OPERATOR);
        impl->builtin = KN_BI_OPTIONAL_EQ;
        KnType *ta = in->args[0]->type, *tb = in->args[1]->type;
        impl->operand =
            kn_type_promote(is_optional(ta) ? ta->dtype : ta, is_optional(tb) ? tb->dtype : tb);
        return 1;
    }
    if (!((is_optional(a) && b->kind == KN_TY_NONE) || (is_optional(b) && a->kind == KN_TY_NONE)))
        return 0;
    in->type = &kn_type_bool;
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_OPERATOR);
    impl->builtin = KN_BI_OPTIONAL_IS_NONE;
    return 1;
}

/* isinstance(x, K) of an optional x: a constant when K takes both the value and None or
 * neither (matches: K's answer for the value, then for None), else a test of the flag */
void
kn_typing_optional_isinstance(KnCompilation *c, KnInstr *in, int value, int none)
{
    KnCallImpl *k = kn_typing_impl_kind(c, in, value == none ? KN_CALL_CONST : KN_CALL_BUILTIN);
    k->value = value;
    if (value != none)
        k->builtin = KN_BI_OPTIONAL_PRESENT;
    in->type = &kn_type_bool;
}

/* the registry rule `optional`: both entries give a bool */
int
kn_type_rule_optional(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KN_UNUSED(c), KN_UNUSED(id), KN_UNUSED(a), KN_UNUSED(n);
    in->type = &kn_type_bool;
    return 0;
}
