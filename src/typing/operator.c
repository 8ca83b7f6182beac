/* operator.c - operators of kinds that implement them in the call registry. A kind (str, list,
 * dict, set, ...) gives an operator meaning by registering an entry under its kind's name and the
 * operator's Python method name, flagged KN_CF_OPERATOR: "str.__add__", "list.__getitem__",
 * "dict.__contains__". Typing
 * of BINOP, UNOP, CMP, GETITEM, SETITEM, LEN and TRUTH asks here first; when an entry exists the
 * instruction is typed by that entry's typing rule and marked KN_CALL_OPERATOR, and lowering
 * runs the entry's lowering rule instead of its own code for the op (lower.c). Kinds without such
 * entries (numbers, arrays, tuples, ranges) keep their code in typing.c and arrays.c.
 *
 * Which entry: a binary operator tries the left operand's kind ("__iadd__" first for an
 * augmented assignment, then "__add__"), then the right operand's reflected name ("__radd__").
 * A comparison tries the left operand's "__eq__" (...), then the right operand's same name (the
 * rule sees the operands in source order and must handle either side being its kind). `in` and
 * `not in` look up "__contains__" on the right operand's kind; the rule reads in->aux
 * (KN_CMP_IN or KN_CMP_NOTIN). SETITEM's operands are (container, index, value).
 *
 * The builtins len(), hash(), int() and float() of such a value take the same way: its kind's
 * "__len__", "__hash__", "__int__" or "__float__" entry (kn_typing_dunder_builtin, called by the
 * builtin's own rule), whose rules then see a CALL (the callee first, then the value).
 *
 * The convention of the rules is the call convention: operands are borrowed, the result is a new
 * reference (a rule that returns an item it holds increfs it); SETITEM stores a reference of the
 * container's own. */
#include "typing/internal.h"

static const char *const binop_names[KN_BIN__COUNT][3] = {
    /* plain, reflected, in place */
    [KN_BIN_ADD] = {"__add__", "__radd__", "__iadd__"},
    [KN_BIN_SUB] = {"__sub__", "__rsub__", "__isub__"},
    [KN_BIN_MUL] = {"__mul__", "__rmul__", "__imul__"},
    [KN_BIN_TRUEDIV] = {"__truediv__", "__rtruediv__", "__itruediv__"},
    [KN_BIN_FLOORDIV] = {"__floordiv__", "__rfloordiv__", "__ifloordiv__"},
    [KN_BIN_MOD] = {"__mod__", "__rmod__", "__imod__"},
    [KN_BIN_POW] = {"__pow__", "__rpow__", "__ipow__"},
    [KN_BIN_LSHIFT] = {"__lshift__", "__rlshift__", "__ilshift__"},
    [KN_BIN_RSHIFT] = {"__rshift__", "__rrshift__", "__irshift__"},
    [KN_BIN_AND] = {"__and__", "__rand__", "__iand__"},
    [KN_BIN_OR] = {"__or__", "__ror__", "__ior__"},
    [KN_BIN_XOR] = {"__xor__", "__rxor__", "__ixor__"},
};

static const char *const cmp_names[] = {
    [KN_CMP_EQ] = "__eq__", [KN_CMP_NE] = "__ne__", [KN_CMP_LT] = "__lt__",
    [KN_CMP_LE] = "__le__", [KN_CMP_GT] = "__gt__", [KN_CMP_GE] = "__ge__",
};

static const char *const unop_names[] = {
    [KN_UN_NEG] = "__neg__",
    [KN_UN_POS] = "__pos__",
    [KN_UN_INVERT] = "__invert__",
};

/* the entry `name` of t's kind, or -1 */
static int
entry_of(const KnType *t, const char *name)
{
    int id = t && name ? kn_lib_find(kn_kind_name(t->kind), name) : -1;
    return id >= 0 && (kn_lib_flags(id) & KN_CF_OPERATOR) ? id : -1;
}

static int
binop_entry(const KnInstr *in)
{
    if (in->aux < 0 || in->aux >= KN_BIN__COUNT)
        return -1;
    const char *const *names = binop_names[in->aux];
    const KnType *a = in->args[0]->type, *b = in->args[1]->type;
    int id = in->imm.i == 1 ? entry_of(a, names[2]) : -1; /* augmented assignment */
    if (id < 0)
        id = entry_of(a, names[0]);
    return id >= 0 ? id : entry_of(b, names[1]);
}

static int
cmp_entry(const KnInstr *in)
{
    const KnType *a = in->args[0]->type, *b = in->args[1]->type;
    if (in->aux == KN_CMP_IN || in->aux == KN_CMP_NOTIN)
        return entry_of(b, "__contains__");
    if (in->aux < 0 || in->aux > KN_CMP_GE || in->imm.i) /* `is` keeps typing.c's meaning */
        return -1;
    int id = entry_of(a, cmp_names[in->aux]);
    return id >= 0 ? id : entry_of(b, cmp_names[in->aux]);
}

/* the registry entry implementing in's operator, or -1 */
static int
operator_entry(const KnInstr *in)
{
    switch (in->op) {
    case KN_OP_BINOP:
        return binop_entry(in);
    case KN_OP_CMP:
        return cmp_entry(in);
    case KN_OP_UNOP:
        return in->aux >= 0 && in->aux < KN_UN_NOT
                   ? entry_of(in->args[0]->type, unop_names[in->aux])
                   : -1;
    case KN_OP_GETITEM:
    case KN_OP_SLICE: /* constant bounds (imm.ptr, a KnSlice) */
        return entry_of(in->args[0]->type, "__getitem__");
    case KN_OP_SETITEM:
        return entry_of(in->args[0]->type, "__setitem__");
    case KN_OP_LEN:
        return entry_of(in->args[0]->type, "__len__");
    case KN_OP_TRUTH:
        return entry_of(in->args[0]->type, "__bool__");
    default:
        return -1;
    }
}

/* len(v), hash(v), int(v), float(v) of a value whose kind has the entry "__len__", "__hash__",
 * "__int__" or "__float__": typed (and lowered) by that entry, whose rules see the call's shape
 * (the callee first, then v). -2 when the call is none of them. */
int
kn_typing_dunder_builtin(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    const char *name = id == KN_BI_LEN     ? "__len__"
                       : id == KN_BI_HASH  ? "__hash__"
                       : id == KN_BI_INT   ? "__int__"
                       : id == KN_BI_FLOAT ? "__float__"
                                           : NULL;
    int bid = n == 1 ? entry_of(a[0], name) : -1;
    if (bid < 0)
        return -2;
    KN_TRY(kn_typing_entry(c, in, bid, a, n));
    kn_typing_impl_kind(c, in, KN_CALL_METHOD)->builtin = bid;
    return 0;
}

int
kn_typing_operator(KnCompilation *c, KnInstr *in, int *handled)
{
    *handled = 0;
    for (int i = 0; i < in->nargs; i++)
        if (!in->args[i]->type)
            return 0; /* later: an operand is not typed yet */
    int id = operator_entry(in);
    if (id < 0)
        return 0;
    *handled = 1;
    KnType *a[3];
    int n = in->nargs < 3 ? in->nargs : 3;
    for (int i = 0; i < n; i++)
        a[i] = in->args[i]->type;
    KN_TRY(kn_typing_entry(c, in, id, a, n));
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = KN_CALL_OPERATOR;
    impl->builtin = id;
    return 0;
}
