/* rules.c - the floor of typing/: what the typing rules of every file share, beside the fixpoint
 * (typing.c): reporting a typing error, a call's KnCallImpl, the int-like test, argument lists
 * for messages, the dtype an argument names, and a call's positional and keyword arguments
 * (found, and checked against what a function accepts). Declared in internal.h
 * (kn_typing_arg in typing.h: lowering reads arguments too). */
#include "typing/internal.h"

#include <stdio.h>

/* Record a typing error at `span`; returns -1. */
int
kn_typing_err(KnCompilation *c, KnSpan span, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    kn_diag_error(&c->diags, KN_DIAG_TYPING, span, "%s", buf);
    return -1;
}

/* The call's KnCallImpl, made when it has none. */
KnCallImpl *
kn_typing_impl_of(KnCompilation *c, KnInstr *in)
{
    if (!in->impl)
        in->impl = kn_arena_alloc(&c->arena, sizeof(KnCallImpl));
    return in->impl;
}

/* The same, saying what lowering emits for it. */
KnCallImpl *
kn_typing_impl_kind(KnCompilation *c, KnInstr *in, KnCallKind kind)
{
    KnCallImpl *impl = kn_typing_impl_of(c, in);
    impl->kind = kind;
    return impl;
}

/* bool or an int */
int
kn_typing_intlike(const KnType *t)
{
    return t->kind == KN_TY_BOOL || t->kind == KN_TY_INT;
}

/* "int64, float64": the argument types for a message (in the arena) */
const char *
kn_typing_arg_list(KnCompilation *c, KnType **a, int n)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    for (int i = 0; i < n; i++)
        kn_sb_printf(&sb, "%s%s", i ? ", " : "", a[i]->name);
    char *r = kn_arena_strdup(&c->arena, sb.data);
    kn_sb_fini(&sb);
    return r;
}

/* a dtype string NumPy accepts beside the scalar names: type codes with or without a size
 * ('f8', 'i4', 'd', '?'), a native or no byte order ('<f8', '=i4', '|b1'), and the names of
 * NumPy's C-type aliases ('double', 'intc', 'float', 'int', 'complex'); NULL otherwise */
static KnType *
dtype_code(const char *s)
{
    static const struct {
        const char *code;
        KnType *t;
    } codes[] = {
        {"?", &kn_type_bool},
        {"b1", &kn_type_bool},
        {"b", &kn_type_int8},
        {"i1", &kn_type_int8},
        {"B", &kn_type_uint8},
        {"u1", &kn_type_uint8},
        {"h", &kn_type_int16},
        {"i2", &kn_type_int16},
        {"H", &kn_type_uint16},
        {"u2", &kn_type_uint16},
        {"i", &kn_type_int32},
        {"i4", &kn_type_int32},
        {"I", &kn_type_uint32},
        {"u4", &kn_type_uint32},
        {"l", &kn_type_int64},
        {"q", &kn_type_int64},
        {"p", &kn_type_int64},
        {"i8", &kn_type_int64},
        {"L", &kn_type_uint64},
        {"Q", &kn_type_uint64},
        {"P", &kn_type_uint64},
        {"u8", &kn_type_uint64},
        {"e", &kn_type_float16},
        {"f2", &kn_type_float16},
        {"half", &kn_type_float16},
        {"f", &kn_type_float32},
        {"f4", &kn_type_float32},
        {"d", &kn_type_float64},
        {"f8", &kn_type_float64},
        {"F", &kn_type_complex64},
        {"c8", &kn_type_complex64},
        {"D", &kn_type_complex128},
        {"c16", &kn_type_complex128},
        {"float", &kn_type_float64},
        {"int", &kn_type_int64},
        {"complex", &kn_type_complex128},
        {"double", &kn_type_float64},
        {"single", &kn_type_float32},
        {"csingle", &kn_type_complex64},
        {"cdouble", &kn_type_complex128},
        {"intp", &kn_type_int64},
        {"uintp", &kn_type_uint64},
        {"int_", &kn_type_int64},
        {"uint", &kn_type_uint64},
        {"byte", &kn_type_int8},
        {"ubyte", &kn_type_uint8},
        {"short", &kn_type_int16},
        {"ushort", &kn_type_uint16},
        {"intc", &kn_type_int32},
        {"uintc", &kn_type_uint32},
        {"long", &kn_type_int64},
        {"ulong", &kn_type_uint64},
        {"longlong", &kn_type_int64},
        {"ulonglong", &kn_type_uint64},
    };
    if (strlen(s) >= 2 && (s[0] == '<' || s[0] == '=' || s[0] == '|'))
        s++; /* the native (little-endian) byte order, or none */
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (!strcmp(codes[i].code, s))
            return codes[i].t;
    return NULL;
}

/* the dtype an argument names: np.float64, a.dtype, 'float64', 'f8' */
KnType *
kn_typing_dtype_of(KnInstr *arg)
{
    KnType *t = arg->type;
    if (t->kind == KN_TY_FUNC && t->id >= 0 && (kn_lib_flags(t->id) & KN_CF_SCALAR_CLASS))
        return kn_typing_np_scalar(t->id);
    if (t->kind == KN_TY_CLASS && t->id == KN_CLASS_DTYPE)
        return t->dtype; /* a structured dtype: its record type (frontend/record.c) */
    if (t->kind == KN_TY_FUNC && t->id == KN_BI_FLOAT)
        return &kn_type_float64;
    if (t->kind == KN_TY_FUNC && t->id == KN_BI_INT)
        return &kn_type_int64;
    if (t->kind == KN_TY_FUNC && t->id == KN_BI_BOOL)
        return &kn_type_bool;
    if (t->kind == KN_TY_FUNC && t->id == KN_BI_COMPLEX)
        return &kn_type_complex128;
    if (t->kind == KN_TY_STR && arg->op == KN_OP_CONST) {
        KnType *p = kn_type_by_name(arg->imm.str);
        if (p && kn_type_is_number(p))
            return p;
        if (!strcmp(arg->imm.str, "bool_") || !strcmp(arg->imm.str, "bool"))
            return &kn_type_bool;
        return dtype_code(arg->imm.str);
    }
    return NULL;
}

/* positional argument i or keyword `name` of a call; NULL when absent */
KnInstr *
kn_typing_arg(KnInstr *in, int i, const char *name)
{
    int nkw = in->aux, npos = in->nargs - 1 - nkw;
    const char **names = in->imm.ptr;
    if (i < npos)
        return in->args[i + 1];
    for (int k = 0; name && k < nkw; k++)
        if (!strcmp(names[k], name))
            return in->args[1 + npos + k];
    return NULL;
}

/* at most npos_max positional arguments, and keywords only from `allowed` (NULL-ended) */
int
kn_typing_check_keywords(KnCompilation *c, KnInstr *in, const char *const *allowed, int npos_max)
{
    return kn_typing_check_keywords_of(c, in, in->args[0]->type->name, allowed, npos_max);
}

int
kn_typing_check_keywords_of(KnCompilation *c, KnInstr *in, const char *name,
                            const char *const *allowed, int npos_max)
{
    int nkw = in->aux, npos = in->nargs - 1 - nkw;
    const char **names = in->imm.ptr;
    if (npos > npos_max)
        return kn_typing_err(c, in->span, "%s takes at most %d positional arguments", name,
                             npos_max);
    for (int k = 0; k < nkw; k++) {
        int ok = 0;
        for (int j = 0; allowed[j]; j++)
            ok |= !strcmp(allowed[j], names[k]);
        if (!ok)
            return kn_typing_err(c, in->span, "%s() got an unsupported keyword argument '%s'", name,
                                 names[k]);
    }
    return 0;
}

const char *
kn_typing_owner(const KnType *t)
{
    if (t->kind == KN_TY_BOUND && !strcmp(t->name, "flags"))
        return "flags";
    if (kn_type_is_number(t))
        return "number";
    if (t->kind == KN_TY_INFO) /* np.iinfo / np.finfo: compile-time, with attributes */
        return kn_kind_name(t->kind);
    return kn_type_is_value(t) ? kn_kind_name(t->kind) : NULL;
}

/* A variable refined by a store into the container it holds (kn_typing_refine): the fixpoint
 * runs another round (kn_typing_take_refined). */
typedef struct KnRefined {
    int changed;
} KnRefined;

KnType *
kn_typing_refine(KnCompilation *c, KnInstr *v, KnType *t)
{
    if (v->op != KN_OP_LOAD)
        return NULL;
    KnVar *var = &c->fn->vars.items[v->aux];
    KnType *u = kn_type_unify(c->types, var->type, t);
    if (!u)
        return NULL;
    if (u != var->type) {
        var->type = u;
        ((KnRefined *)kn_ctx_need(c, KN_SIDE_REFINED, sizeof(KnRefined)))->changed = 1;
    }
    v->type = u;
    return u;
}

int
kn_typing_take_refined(KnCompilation *c)
{
    KnRefined *r = kn_ctx_get(c, KN_SIDE_REFINED);
    int changed = r && r->changed;
    if (r)
        r->changed = 0;
    return changed;
}
