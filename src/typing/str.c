/* str.c - the typing rules of the str family (lib/str.def): str's operators (reached through
 * typing/operator.c, so the instruction is a BINOP, CMP, GETITEM, SLICE, LEN or TRUTH), the
 * builtins str(), ord() and chr(), and len(), hash(), int() and float() of a str, which reach
 * "str.__len__" ... through kn_typing_dunder_builtin (operator.c). Errors say what CPython's
 * TypeError says, at the operator. */
#include "typing/internal.h"

static int
is_str(const KnType *t)
{
    return t && t->kind == KN_TY_STR;
}

static const char *
py_name(const KnType *t)
{
    if (t->kind == KN_TY_INT)
        return "int";
    if (t->kind == KN_TY_FLOAT)
        return "float";
    if (t->kind == KN_TY_BOOL)
        return "bool";
    return t->name;
}

static int
type_compare(KnCompilation *c, KnInstr *in, int bid, KnType **a)
{
    static const char *const ops[] = {"<", "<=", ">", ">="};
    in->type = &kn_type_bool;
    if (bid == KN_BI_STR_EQ || bid == KN_BI_STR_NE || (is_str(a[0]) && is_str(a[1])))
        return 0; /* == of a str and another type is False, as in CPython */
    return kn_typing_err(c, in->span,
                         "cannot compare %s and %s: '%s' not supported between instances of "
                         "'%s' and '%s'",
                         a[0]->name, a[1]->name, ops[bid - KN_BI_STR_LT], py_name(a[0]),
                         py_name(a[1]));
}

static int
type_getitem(KnCompilation *c, KnInstr *in, KnType **a, int n)
{
    in->type = &kn_type_str;
    if (in->op == KN_OP_SLICE)
        return 0;
    if (n == 2 && (kn_typing_intlike(a[1]) || a[1]->kind == KN_TY_SLICE))
        return 0;
    return kn_typing_err(c, in->span, "string indices must be integers, not '%s'",
                         py_name(a[n - 1]));
}

/* str(x) of a number or a str */
static int
type_str_builtin(KnCompilation *c, KnInstr *in, KnType **a, int n)
{
    in->type = &kn_type_str;
    if (n == 0 || (n == 1 && (is_str(a[0]) || a[0]->kind == KN_TY_BOOL || a[0]->kind == KN_TY_INT ||
                              a[0]->kind == KN_TY_FLOAT)))
        return 0;
    return kn_typing_err(c, in->span, "str() of %s is not supported in kiln yet",
                         kn_typing_arg_list(c, a, n));
}

int
kn_type_rule_str_op(KnCompilation *c, KnInstr *in, int bid, KnType **a, int n)
{
    switch (bid) {
    case KN_BI_STR_EQ:
    case KN_BI_STR_NE:
    case KN_BI_STR_LT:
    case KN_BI_STR_LE:
    case KN_BI_STR_GT:
    case KN_BI_STR_GE:
        return type_compare(c, in, bid, a);
    case KN_BI_STR_ADD:
    case KN_BI_STR_IADD:
        if (!is_str(a[1]) || !is_str(a[0]))
            return kn_typing_err(c, in->span, "can only concatenate str (not \"%s\") to str",
                                 py_name(is_str(a[0]) ? a[1] : a[0]));
        in->type = &kn_type_str;
        return 0;
    case KN_BI_STR_MUL:
    case KN_BI_STR_RMUL: {
        KnType *k = bid == KN_BI_STR_MUL ? a[1] : a[0];
        if (!kn_typing_intlike(k))
            return kn_typing_err(c, in->span, "can't multiply sequence by non-int of type '%s'",
                                 py_name(k));
        in->type = &kn_type_str;
        return 0;
    }
    case KN_BI_STR_GETITEM:
        return type_getitem(c, in, a, n);
    case KN_BI_STR_CONTAINS:
        if (!is_str(a[0]))
            return kn_typing_err(c, in->span,
                                 "'in <string>' requires string as left operand, not %s",
                                 py_name(a[0]));
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_STR_LEN:
    case KN_BI_STR_HASH:
    case KN_BI_STR_INT:
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_STR_BOOL:
        in->type = &kn_type_bool;
        return 0;
    case KN_BI_STR_FLOAT:
        in->type = &kn_type_float64;
        return 0;
    case KN_BI_STR:
        kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
        return type_str_builtin(c, in, a, n);
    case KN_BI_ORD:
        kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
        if (n != 1 || !is_str(a[0]))
            return kn_typing_err(c, in->span, "ord() expected string of length 1, but %s found",
                                 n == 1 ? py_name(a[0]) : kn_typing_arg_list(c, a, n));
        in->type = &kn_type_int64;
        return 0;
    case KN_BI_CHR:
        kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
        if (n != 1 || !kn_typing_intlike(a[0]))
            return kn_typing_err(c, in->span, "chr() takes an integer, got %s",
                                 kn_typing_arg_list(c, a, n));
        in->type = &kn_type_str;
        return 0;
    default:
        return kn_typing_err(c, in->span, "internal error: no typing rule for this str entry");
    }
}
