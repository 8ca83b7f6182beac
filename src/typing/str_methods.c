/* str_methods.c - the typing rules of the str methods, format() and repr()
 * (lib/str_methods.def). Each method's arguments are described by a short signature string
 * (below) checked in one place: the number of positional arguments, the keywords CPython
 * accepts, and each argument's type; errors name the method and say what CPython's TypeError
 * says ("must be str, not int"). */
#include "typing/internal.h"

#include <stdio.h>
#include <string.h>

/* Argument codes: s str, S str or None, i int, I int or None, c str (one character, checked
 * at run time), b bool or int, T str or tuple of strs, L list or tuple of strs. */
typedef struct MethodSig {
    int id;
    const char *args;  /* one code per parameter */
    int min;           /* required positional arguments */
    const char *kw[3]; /* keyword names CPython accepts (in parameter order), or NULL */
    char result;       /* 'i' int64, 'b' bool, 's' str, 'p' 3-tuple of str, 'l' list of str */
} MethodSig;

static const MethodSig sigs[] = {
    {KN_BI_STR_FIND, "sII", 1, {0}, 'i'},
    {KN_BI_STR_RFIND, "sII", 1, {0}, 'i'},
    {KN_BI_STR_INDEX, "sII", 1, {0}, 'i'},
    {KN_BI_STR_RINDEX, "sII", 1, {0}, 'i'},
    {KN_BI_STR_COUNT, "sII", 1, {0}, 'i'},
    {KN_BI_STR_STARTSWITH, "TII", 1, {0}, 'b'},
    {KN_BI_STR_ENDSWITH, "TII", 1, {0}, 'b'},
    {KN_BI_STR_REPLACE, "ssi", 2, {0}, 's'},
    {KN_BI_STR_UPPER, "", 0, {0}, 's'},
    {KN_BI_STR_LOWER, "", 0, {0}, 's'},
    {KN_BI_STR_CASEFOLD, "", 0, {0}, 's'},
    {KN_BI_STR_SWAPCASE, "", 0, {0}, 's'},
    {KN_BI_STR_TITLE, "", 0, {0}, 's'},
    {KN_BI_STR_CAPITALIZE, "", 0, {0}, 's'},
    {KN_BI_STR_ISDIGIT, "", 0, {0}, 'b'},
    {KN_BI_STR_ISALPHA, "", 0, {0}, 'b'},
    {KN_BI_STR_ISALNUM, "", 0, {0}, 'b'},
    {KN_BI_STR_ISSPACE, "", 0, {0}, 'b'},
    {KN_BI_STR_ISUPPER, "", 0, {0}, 'b'},
    {KN_BI_STR_ISLOWER, "", 0, {0}, 'b'},
    {KN_BI_STR_ISTITLE, "", 0, {0}, 'b'},
    {KN_BI_STR_ISDECIMAL, "", 0, {0}, 'b'},
    {KN_BI_STR_ISNUMERIC, "", 0, {0}, 'b'},
    {KN_BI_STR_ISIDENTIFIER, "", 0, {0}, 'b'},
    {KN_BI_STR_ISASCII, "", 0, {0}, 'b'},
    {KN_BI_STR_ISPRINTABLE, "", 0, {0}, 'b'},
    {KN_BI_STR_STRIP, "S", 0, {0}, 's'},
    {KN_BI_STR_LSTRIP, "S", 0, {0}, 's'},
    {KN_BI_STR_RSTRIP, "S", 0, {0}, 's'},
    {KN_BI_STR_ZFILL, "i", 1, {0}, 's'},
    {KN_BI_STR_CENTER, "ic", 1, {0}, 's'},
    {KN_BI_STR_LJUST, "ic", 1, {0}, 's'},
    {KN_BI_STR_RJUST, "ic", 1, {0}, 's'},
    {KN_BI_STR_PARTITION, "s", 1, {0}, 'p'},
    {KN_BI_STR_RPARTITION, "s", 1, {0}, 'p'},
    {KN_BI_STR_EXPANDTABS, "i", 0, {"tabsize"}, 's'},
    {KN_BI_STR_SPLIT, "Si", 0, {"sep", "maxsplit"}, 'l'},
    {KN_BI_STR_RSPLIT, "Si", 0, {"sep", "maxsplit"}, 'l'},
    {KN_BI_STR_SPLITLINES, "b", 0, {"keepends"}, 'l'},
    {KN_BI_STR_JOIN, "L", 1, {0}, 's'},
};

static int
is_str(const KnType *t)
{
    return t && t->kind == KN_TY_STR;
}

static const char *
py_name(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_INT:
        return "int";
    case KN_TY_FLOAT:
        return "float";
    case KN_TY_BOOL:
        return "bool";
    case KN_TY_NONE:
        return "NoneType";
    case KN_TY_TUPLE:
        return "tuple";
    case KN_TY_LIST:
        return "list";
    default:
        return t->name;
    }
}

static int
strs_tuple(const KnType *t)
{
    if (!t || t->kind != KN_TY_TUPLE)
        return 0;
    for (int i = 0; i < t->n; i++)
        if (!is_str(t->items[i]))
            return 0;
    return 1;
}

/* does an argument of type t fit code k? */
static int
fits(char k, const KnType *t)
{
    switch (k) {
    case 's':
    case 'c':
        return is_str(t);
    case 'S':
        return is_str(t) || t->kind == KN_TY_NONE;
    case 'i':
    case 'b':
        return kn_typing_intlike(t);
    case 'I':
        return kn_typing_intlike(t) || t->kind == KN_TY_NONE;
    case 'T':
        return is_str(t) || strs_tuple(t);
    default: /* 'L' */
        return (t->kind == KN_TY_LIST && (!t->dtype || is_str(t->dtype))) || strs_tuple(t);
    }
}

static const char *
wants(char k)
{
    switch (k) {
    case 's':
    case 'c':
        return "str";
    case 'S':
        return "str or None";
    case 'i':
    case 'b':
        return "int";
    case 'I':
        return "int or None";
    case 'T':
        return "str or a tuple of str";
    default:
        return "a list or tuple of str";
    }
}

static int
type_method(KnCompilation *c, KnInstr *in, const MethodSig *sg, int n)
{
    const char *m = kn_kir_builtin_attr(sg->id);
    char name[64];
    snprintf(name, sizeof name, "str.%s", m);
    int nparams = (int)strlen(sg->args), nkw = in->aux, npos = n - nkw;
    if (nkw && !sg->kw[0])
        return kn_typing_err(c, in->span, "%s() takes no keyword arguments", name);
    KN_TRY(kn_typing_check_keywords_of(c, in, name, sg->kw, nparams));
    if (npos < sg->min && !nkw)
        return kn_typing_err(c, in->span, "%s() takes at least %d argument%s (%d given)", name,
                             sg->min, sg->min == 1 ? "" : "s", npos);
    for (int p = 0; p < nparams; p++) {
        const char *kwname = sg->kw[0] ? sg->kw[p] : NULL;
        KnInstr *arg = kn_typing_arg(in, p, kwname);
        if (!arg) {
            if (p < sg->min)
                return kn_typing_err(c, in->span, "%s() missing required argument %d", name, p + 1);
            continue;
        }
        if (!arg->type)
            return 0; /* not known yet: a later round */
        if (sg->args[p] == 'L' && arg->type->kind == KN_TY_LIST && !arg->type->dtype)
            return 0;
        if (!fits(sg->args[p], arg->type))
            return kn_typing_err(c, arg->span, "%s() argument %d must be %s, not %s", name, p + 1,
                                 wants(sg->args[p]), py_name(arg->type));
    }
    switch (sg->result) {
    case 'i':
        in->type = &kn_type_int64;
        break;
    case 'b':
        in->type = &kn_type_bool;
        break;
    case 's':
        in->type = &kn_type_str;
        break;
    case 'p': {
        KnType *items[3] = {&kn_type_str, &kn_type_str, &kn_type_str};
        in->type = kn_type_tuple(c->types, items, 3);
        break;
    }
    default:
        in->type = kn_type_list(c->types, &kn_type_str);
    }
    return 0;
}

/* format(value[, spec]) of a number, bool or str; repr(x) and ascii(x) of the same */
static int
type_format(KnCompilation *c, KnInstr *in, int bid, KnType **a, int n)
{
    const char *fn = bid == KN_BI_FORMAT ? "format" : bid == KN_BI_ASCII ? "ascii" : "repr";
    int max = bid == KN_BI_FORMAT ? 2 : 1;
    if (in->aux)
        return kn_typing_err(c, in->span, "%s() takes no keyword arguments", fn);
    if (n < 1 || n > max)
        return kn_typing_err(c, in->span, "%s() takes %s argument%s (%d given)", fn,
                             max == 2 ? "1 or 2" : "exactly one", max == 2 ? "s" : "", n);
    KnType *v = a[0];
    if (!(is_str(v) || v->kind == KN_TY_BOOL || v->kind == KN_TY_INT || v->kind == KN_TY_FLOAT))
        return kn_typing_err(c, in->span, "%s() of %s is not supported in kiln yet", fn, v->name);
    if (n == 2 && !is_str(a[1]))
        return kn_typing_err(c, in->span, "format() argument 2 must be str, not %s", py_name(a[1]));
    in->type = &kn_type_str;
    return 0;
}

int
kn_type_rule_str_method(KnCompilation *c, KnInstr *in, int bid, KnType **a, int n)
{
    if (bid == KN_BI_FORMAT || bid == KN_BI_REPR || bid == KN_BI_ASCII) {
        kn_typing_impl_kind(c, in, KN_CALL_BUILTIN);
        return type_format(c, in, bid, a, n);
    }
    kn_typing_impl_kind(c, in, KN_CALL_METHOD)->builtin = bid;
    if (bid == KN_BI_STR_FORMAT) { /* s.format(...) of a run-time s: runtime/str_format_args.c */
        for (int i = 0; i < n; i++)
            if (!(is_str(a[i]) || a[i]->kind == KN_TY_BOOL || a[i]->kind == KN_TY_INT ||
                  a[i]->kind == KN_TY_FLOAT))
                return kn_typing_err(c, in->args[i + 1]->span,
                                     "str.format() of a format string known only at run time "
                                     "takes numbers and strs, not %s (a literal format string "
                                     "takes more)",
                                     a[i]->name);
        in->type = &kn_type_str;
        return 0;
    }
    if (bid == KN_BI_STR_KN_CONCAT) {
        for (int i = 0; i < n; i++)
            if (!is_str(a[i]))
                return kn_typing_err(c, in->span, "internal error: an f-string piece is %s",
                                     a[i]->name);
        in->type = &kn_type_str;
        return 0;
    }
    for (int i = 0; i < KN_ARRAY_LEN(sigs); i++)
        if (sigs[i].id == bid)
            return type_method(c, in, &sigs[i], n);
    return kn_typing_err(c, in->span, "internal error: no typing rule for this str method");
}
