/* read.c - the KIR text reader: parses what kn_kir_print prints, untyped or typed, back into a
 * KnFunction in an arena, so that a pass can be tested alone from a hand-written KIR program
 * (tests/stages/test_passes.py) and printed KIR round-trips (print, read, print gives the same
 * text). One line at a time: the `function` header, `var` lines, `bN:` block labels (with an
 * optional `unwind bM`) and instructions `[%id = ] op immediates operands targets [: type]
 * ; line:col`. Blank lines and lines that start with `;` are comments. Operands and targets are
 * resolved once the whole text is read, so a use may come before its definition (the verifier,
 * not the reader, rejects that). Types are read by their printed names (types/types.h);
 * globals by name: a builtin of builtins.def, a module, an exception class, or else an opaque
 * callee (a jitted function, which typing cannot resolve from text). `fused` cannot be read: the
 * text does not hold its expression tree. Bad text gives NULL and "line N: message". The
 * grammar is in docs/kir.md, "Text format". */
#include "ir/kir.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Pending {
    KnInstr *in;
    int line;
    int *arg_ids;      /* nargs value ids, resolved at the end */
    int target_ids[2]; /* BR, CBR: block ids, -1 none */
    const char *bound; /* GETATTR: a printed type equal to the attribute (a bound method) */
} Pending;

typedef struct Reader {
    KnArena *arena;
    KnTypeTable *types;
    KnStrBuf *err;
    KnFunction *fn;
    KnBlock *cur;
    int line;
    const char *p; /* cursor in the current line */
    const char *end;
    KN_VEC(Pending) pending;
    KN_VEC(int) unwind_ids; /* by block: -1 or the unwind block id */
    KN_VEC(int) unwind_lines;
    int typed;            /* the header had a `->` or typed parameters */
    int failed_container; /* read_container_type saw list(, set( or DictType[ but no type */
} Reader;

static KnFunction *bad(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static KnFunction *
bad(Reader *r, const char *fmt, ...)
{
    if (r->err->len)
        return NULL; /* keep the first message */
    va_list ap;
    va_start(ap, fmt);
    char *msg = kn_arena_vprintf(r->arena, fmt, ap);
    va_end(ap);
    kn_sb_printf(r->err, "line %d: %s", r->line, msg);
    return NULL;
}

/* ---- the cursor ---- */

static void
skip_spaces(Reader *r)
{
    while (r->p < r->end && *r->p == ' ')
        r->p++;
}

static int
eat(Reader *r, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(r->end - r->p) >= n && !strncmp(r->p, s, n)) {
        r->p += n;
        return 1;
    }
    return 0;
}

/* A word: up to a space, a comma or the end. */
static const char *
word(Reader *r, size_t *n)
{
    const char *s = r->p;
    while (r->p < r->end && *r->p != ' ' && *r->p != ',')
        r->p++;
    *n = (size_t)(r->p - s);
    return s;
}

static int
read_int(Reader *r, int *out)
{
    if (r->p >= r->end || !(isdigit((unsigned char)*r->p) || *r->p == '-'))
        return -1;
    char *e;
    long v = strtol(r->p, &e, 10);
    if (e == r->p || e > r->end)
        return -1;
    r->p = e;
    *out = (int)v;
    return 0;
}

/* ---- types, by their printed names ---- */

static KnType *read_type(Reader *r);

static int
is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '<' || c == '>' || c == '$';
}

static KnType *
named_type(Reader *r, const char *name)
{
    static KnType *const singletons[] = {
        &kn_type_bool,       &kn_type_int8,     &kn_type_int16,   &kn_type_int32,
        &kn_type_int64,      &kn_type_uint8,    &kn_type_uint16,  &kn_type_uint32,
        &kn_type_uint64,     &kn_type_float32,  &kn_type_float64, &kn_type_complex64,
        &kn_type_complex128, &kn_type_none,     &kn_type_str,     &kn_type_range,
        &kn_type_slice,      &kn_type_ellipsis,
    };
    for (int i = 0; i < KN_ARRAY_LEN(singletons); i++)
        if (!strcmp(singletons[i]->name, name))
            return singletons[i];
    for (int id = 0; id < KN_BI__COUNT; id++)
        if (!strcmp(kn_kir_builtin_name((KnBuiltin)id), name))
            return kn_type_func(r->types, id, NULL, name);
    for (int id = 0; id < KN_BI__COUNT; id++)
        if (!strcmp(kn_kir_builtin_module((KnBuiltin)id), name))
            return kn_type_module(r->types, 0, name);
    if (!strcmp(name, "NoneType"))
        return kn_type_class(r->types, 2, NULL, name);
    size_t n = strlen(name);
    static const char *const exc_suffixes[] = {"Error",     "Exception", "Warning",
                                               "Interrupt", "Exit",      "Iteration"};
    for (int i = 0; i < KN_ARRAY_LEN(exc_suffixes); i++) {
        size_t k = strlen(exc_suffixes[i]);
        if (n > k && !strcmp(name + n - k, exc_suffixes[i]) && isupper((unsigned char)name[0]))
            return kn_type_class(r->types, 1, NULL, name);
    }
    /* anything else is a callee the text cannot describe (a jitted function) */
    return kn_type_func(r->types, -1, NULL, name);
}

/* `(T, T, ...)` after Tuple: the items, into an arena array. */
static int
read_type_list(Reader *r, KnType ***items, int *n)
{
    KN_VEC(KnType *) v = {0};
    if (!eat(r, "("))
        return -1;
    while (!eat(r, ")")) {
        if (v.len && !eat(r, ", "))
            return -1;
        KnType *t = read_type(r);
        if (!t)
            return -1;
        KN_VEC_PUSH(r->arena, v, t);
    }
    *items = v.items;
    *n = v.len;
    return 0;
}

static KnType *
read_array_type(Reader *r, int readonly)
{
    if (!eat(r, "("))
        return NULL;
    KnType *dtype = read_type(r);
    int ndim;
    if (!dtype || !eat(r, ", ") || read_int(r, &ndim) < 0 || !eat(r, "d, ") || r->p >= r->end)
        return NULL;
    char layout = *r->p++;
    if ((layout != 'C' && layout != 'F' && layout != 'A') || !eat(r, ")"))
        return NULL;
    return kn_type_array(r->types, dtype, ndim, layout, readonly);
}

/* list(T) (list(undefined): an empty display's list before typing knows its items), set(T),
 * DictType[K,V] and the views dict_keys[K,V], dict_values[K,V], dict_items[K,V] (their printed
 * names: types/model_list.c, model_dict.c); NULL when the text is none of them (or, with
 * r->failed_container set, a bad one) */
static KnType *
read_container_type(Reader *r)
{
    static const char *const dicts[] = {"DictType[", "dict_keys[", "dict_values[",
                                        "dict_items["}; /* KnDictView */
    for (int v = 0; v < 4; v++)
        if (eat(r, dicts[v])) {
            KnType *k = read_type(r), *t = k && eat(r, ",") ? read_type(r) : NULL;
            if (t && eat(r, "]"))
                return kn_type_dict(r->types, k, t, (KnDictView)v);
            r->failed_container = 1;
            return NULL;
        }
    if (eat(r, "generator(")) { /* generator(T, symbol): types/model_gen.c */
        KnType *item = read_type(r);
        const char *start = r->p;
        if (item && eat(r, ", ")) {
            start = r->p;
            while (r->p < r->end && *r->p != ')' && *r->p != '\n')
                r->p++;
        }
        if (item && r->p > start && eat(r, ")"))
            return kn_type_gen(r->types, item,
                               kn_arena_printf(r->arena, "%.*s", (int)(r->p - 1 - start), start));
        r->failed_container = 1;
        return NULL;
    }
    int is_list = eat(r, "list(");
    if (!is_list && !eat(r, "set("))
        return NULL;
    KnType *item = is_list && eat(r, "undefined") ? NULL : read_type(r);
    if ((item || is_list) && eat(r, ")"))
        return is_list ? kn_type_list(r->types, item) : kn_type_set(r->types, item);
    r->failed_container = 1;
    return NULL;
}

/* optional(T), enum(Name) and a namedtuple Name(T, ...) whose name starts with a capital
 * letter (types/model_optional.c, model_enum.c, model_namedtuple.c); the text has no class, so
 * an enum or namedtuple read back is a type of that name and items only. NULL when the text is none
 * of them (or, with r->failed_container set, a bad one). */
static KnType *
read_value_type(Reader *r)
{
    if (eat(r, "optional(")) {
        KnType *v = read_type(r);
        if (v && eat(r, ")"))
            return kn_type_optional(r->types, v);
        r->failed_container = 1;
        return NULL;
    }
    const char *s = r->p;
    while (s < r->end && (isalnum((unsigned char)*s) || *s == '_' || *s == '.'))
        s++;
    if (s == r->p || s >= r->end || *s != '(')
        return NULL;
    const char *name = kn_arena_strndup(r->arena, r->p, (size_t)(s - r->p));
    if (!strcmp(name, "enum")) {
        const char *e = ++s;
        while (e < r->end && *e != ')')
            e++;
        if (e >= r->end) {
            r->failed_container = 1;
            return NULL;
        }
        r->p = e + 1;
        return kn_type_enum(r->types, NULL, kn_arena_strndup(r->arena, s, (size_t)(e - s)), 0, 0,
                            NULL, NULL);
    }
    if (!isupper((unsigned char)name[0]))
        return NULL; /* a namedtuple class by its usual spelling (`nosuch(int64)` is no type) */
    r->p = s;
    KnType **items;
    int n;
    if (read_type_list(r, &items, &n) < 0) {
        r->failed_container = 1;
        return NULL;
    }
    const char **fields = kn_arena_alloc(r->arena, sizeof(char *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        char f[16];
        snprintf(f, sizeof f, "_%d", i);
        fields[i] = kn_arena_strdup(r->arena, f);
    }
    return kn_type_namedtuple(r->types, NULL, name, fields, items, n);
}

static KnType *
read_type(Reader *r)
{
    const char *next;
    KnType *rec = kn_kir_read_record_type(r->types, r->p, r->end, &next); /* read_record.c */
    if (rec) {
        r->p = next;
        return rec;
    }
    if (eat(r, "readonly array"))
        return read_array_type(r, 1);
    if (r->end - r->p > 6 && !strncmp(r->p, "array(", 6)) {
        r->p += 5;
        return read_array_type(r, 0);
    }
    if (eat(r, "UniTuple(")) {
        KnType *item = read_type(r);
        int n;
        if (!item || !eat(r, ", ") || read_int(r, &n) < 0 || n < 1 || !eat(r, ")"))
            return NULL;
        KnType **items = kn_arena_alloc(r->arena, sizeof(KnType *) * (size_t)n);
        for (int i = 0; i < n; i++)
            items[i] = item;
        return kn_type_tuple(r->types, items, n);
    }
    if (eat(r, "Tuple")) {
        KnType **items;
        int n;
        if (read_type_list(r, &items, &n) < 0)
            return NULL;
        return kn_type_tuple(r->types, items, n);
    }
    if (eat(r, "FunctionType[")) { /* a choice among jitted functions (types/model_misc.c) */
        KN_VEC(KnType *) v = {0};
        while (!eat(r, "]")) {
            KnType *t = v.len && !eat(r, ", ") ? NULL : read_type(r);
            if (!t)
                return NULL;
            KN_VEC_PUSH(r->arena, v, t);
        }
        return v.len >= 2 ? kn_type_func_choice_of(r->types, v.items, v.len) : NULL;
    }
    KnType *container = read_container_type(r);
    if (container || r->failed_container)
        return container;
    int info = eat(r, "iinfo(") ? KN_BI_NP_IINFO : eat(r, "finfo(") ? KN_BI_NP_FINFO : -1;
    if (info >= 0) { /* np.iinfo(t) / np.finfo(t) (types/model_misc.c) */
        KnType *dt = read_type(r);
        return dt && eat(r, ")")
                   ? kn_type_info(r->types, info, dt, info == KN_BI_NP_IINFO ? "iinfo" : "finfo")
                   : NULL;
    }
    static const char *const iters[] = {"iter", "enumerate", "zip", "range_iter",
                                        "gen_iter"}; /* KnIterKind */
    for (int k = 0; k < 5; k++) {
        size_t len = strlen(iters[k]);
        if ((size_t)(r->end - r->p) > len && !strncmp(r->p, iters[k], len) && r->p[len] == '(') {
            KnType **items;
            int n;
            r->p += len;
            if (read_type_list(r, &items, &n) < 0 || !eat(r, " -> "))
                return NULL;
            KnType *item = read_type(r);
            return item ? kn_type_iter(r->types, (KnIterKind)k, items, n, item) : NULL;
        }
    }
    KnType *value = read_value_type(r);
    if (value || r->failed_container)
        return value;
    const char *s = r->p;
    while (r->p < r->end && is_name_char(*r->p))
        r->p++;
    if (r->p == s)
        return NULL;
    return named_type(r, kn_arena_strndup(r->arena, s, (size_t)(r->p - s)));
}

/* A whole string as a type ("?" is NULL: no type), for the header and var lines. */
static int
type_of_text(Reader *r, const char *s, const char *e, KnType **out)
{
    const char *sp = r->p, *se = r->end;
    r->p = s;
    r->end = e;
    int ok = 1;
    if (e - s == 1 && *s == '?')
        *out = NULL;
    else
        ok = (*out = read_type(r)) != NULL && r->p == e;
    r->p = sp;
    r->end = se;
    return ok ? 0 : -1;
}

/* ---- the header and var lines ---- */

static int
add_var(Reader *r, const char *name, size_t n, KnType *type, int is_param)
{
    KnVar v;
    memset(&v, 0, sizeof v);
    v.name = kn_arena_strndup(r->arena, name, n);
    v.type = type;
    v.is_param = is_param;
    KN_VEC_PUSH(r->arena, r->fn->vars, v);
    return r->fn->vars.len - 1;
}

static int
find_var(Reader *r, const char *name, size_t n)
{
    for (int i = 0; i < r->fn->vars.len; i++)
        if (strlen(r->fn->vars.items[i].name) == n && !strncmp(r->fn->vars.items[i].name, name, n))
            return i;
    return -1;
}

/* The end of a type or parameter that runs to the next top-level comma or `)` (brackets nest
 * too: DictType[int64,float64]). */
static const char *
top_level_end(const char *s, const char *e)
{
    int depth = 0;
    for (; s < e; s++) {
        if (*s == '(' || *s == '[')
            depth++;
        else if ((*s == ')' || *s == ']') && depth-- == 0)
            return s;
        else if (*s == ',' && depth == 0)
            return s;
    }
    return e;
}

static int
read_header(Reader *r)
{
    if (!eat(r, "function "))
        return bad(r, "expected `function NAME(...)`"), -1;
    const char *name = r->p;
    while (r->p < r->end && *r->p != '(')
        r->p++;
    if (r->p == name || !eat(r, "("))
        return bad(r, "expected `function NAME(...)`"), -1;
    r->fn->name = kn_arena_strndup(r->arena, name, (size_t)(r->p - 1 - name));
    KN_VEC(KnType *) args = {0};
    while (!eat(r, ")")) {
        if (r->fn->nparams && !eat(r, ", "))
            return bad(r, "expected `,` or `)` in the parameters"), -1;
        const char *e = top_level_end(r->p, r->end);
        const char *colon = memchr(r->p, ':', (size_t)(e - r->p));
        KnType *t = NULL;
        if (colon && (colon + 2 > e || type_of_text(r, colon + 2, e, &t) < 0))
            return bad(r, "bad parameter type `%.*s`", (int)(e - r->p), r->p), -1;
        const char *ne = colon ? colon : e;
        if (ne == r->p)
            return bad(r, "a parameter without a name"), -1;
        add_var(r, r->p, (size_t)(ne - r->p), t, 1);
        KN_VEC_PUSH(r->arena, args, t);
        r->typed |= t != NULL;
        r->fn->nparams++;
        r->p = e;
        if (r->p >= r->end)
            return bad(r, "expected `)` after the parameters"), -1;
    }
    if (eat(r, " -> ")) {
        if (type_of_text(r, r->p, r->end, &r->fn->ret_type) < 0 || !r->fn->ret_type)
            return bad(r, "bad return type `%.*s`", (int)(r->end - r->p), r->p), -1;
        r->typed = 1;
        r->p = r->end;
    }
    if (r->p != r->end)
        return bad(r, "unexpected `%.*s` after the header", (int)(r->end - r->p), r->p), -1;
    if (r->typed)
        r->fn->arg_types = args.items;
    return 0;
}

static int
read_var(Reader *r)
{
    const char *colon = memchr(r->p, ':', (size_t)(r->end - r->p));
    KnType *t = NULL;
    if (!colon) /* untyped text: `var NAME` */
        colon = r->end;
    else if (colon == r->p || colon + 2 > r->end || colon[1] != ' ')
        return bad(r, "expected `var NAME: TYPE`"), -1;
    else if (type_of_text(r, colon + 2, r->end, &t) < 0)
        return bad(r, "bad type `%.*s`", (int)(r->end - colon - 2), colon + 2), -1;
    if (colon == r->p || memchr(r->p, ' ', (size_t)(colon - r->p)))
        return bad(r, "expected `var NAME`"), -1;
    if (find_var(r, r->p, (size_t)(colon - r->p)) >= 0)
        return bad(r, "variable `%.*s` declared twice", (int)(colon - r->p), r->p), -1;
    add_var(r, r->p, (size_t)(colon - r->p), t, 0);
    return 0;
}

static int
read_label(Reader *r)
{
    int id;
    r->p++; /* 'b' */
    if (read_int(r, &id) < 0 || !eat(r, ":"))
        return bad(r, "expected a block label `bN:`"), -1;
    if (id != r->fn->blocks.len)
        return bad(r, "block b%d is out of order: expected b%d", id, r->fn->blocks.len), -1;
    KnBlock *blk = kn_arena_alloc(r->arena, sizeof(KnBlock));
    blk->id = id;
    KN_VEC_PUSH(r->arena, r->fn->blocks, blk);
    int unwind = -1;
    if (eat(r, " unwind b") && read_int(r, &unwind) < 0)
        return bad(r, "expected `unwind bN`"), -1;
    skip_spaces(r);
    if (r->p != r->end)
        return bad(r, "unexpected `%.*s` after the label", (int)(r->end - r->p), r->p), -1;
    KN_VEC_PUSH(r->arena, r->unwind_ids, unwind);
    KN_VEC_PUSH(r->arena, r->unwind_lines, r->line);
    r->cur = blk;
    return 0;
}

/* ---- instruction immediates ---- */

static int
read_string(Reader *r, const char **out)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    r->p++; /* the opening quote */
    int ok = 0;
    while (r->p < r->end) {
        char c = *r->p++;
        if (c == '"') {
            ok = 1;
            break;
        }
        if (c != '\\') {
            kn_sb_appendn(&sb, &c, 1);
            continue;
        }
        if (r->p >= r->end)
            break;
        c = *r->p++;
        if (c == 'n')
            c = '\n';
        else if (c == 't')
            c = '\t';
        else if (c == 'x') {
            unsigned v;
            if (r->end - r->p < 2 || sscanf(r->p, "%2x", &v) != 1)
                break;
            r->p += 2;
            c = (char)v;
        } else if (c != '\\' && c != '"')
            break;
        kn_sb_appendn(&sb, &c, 1);
    }
    *out = kn_arena_strdup(r->arena, sb.len ? sb.data : "");
    kn_sb_fini(&sb);
    return ok ? 0 : -1;
}

/* A constant: its value, and the type its literal implies (the `: T` suffix may override). */
static int
read_const(Reader *r, KnInstr *in, KnType **implied, double *as_float)
{
    if (r->p < r->end && *r->p == '"') {
        *implied = &kn_type_str;
        return read_string(r, &in->imm.str);
    }
    if (eat(r, "...")) {
        *implied = &kn_type_ellipsis;
        return 0;
    }
    if (eat(r, "None")) {
        *implied = &kn_type_none;
        return 0;
    }
    char *e;
    if (eat(r, "(")) {
        in->imm.c.re = strtod(r->p, &e);
        if (e == r->p)
            return -1;
        r->p = e;
        in->imm.c.im = strtod(r->p, &e);
        if (e == r->p || e > r->end)
            return -1;
        r->p = e;
        *implied = &kn_type_complex128;
        return eat(r, "j)") ? 0 : -1;
    }
    size_t n;
    const char *s = word(r, &n);
    char buf[64];
    if (!n || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *as_float = strtod(buf, NULL); /* "-0" of a float -0.0 keeps its sign */
    errno = 0;
    if (strpbrk(buf, ".eni")) {
        in->imm.f = strtod(buf, &e);
        *implied = &kn_type_float64;
        errno = 0; /* ERANGE for a subnormal, which %.17g printed exactly enough */
    } else if (buf[0] == '-') {
        in->imm.i = strtoll(buf, &e, 10);
        *implied = &kn_type_int64;
    } else {
        in->imm.u = strtoull(buf, &e, 10);
        *implied = &kn_type_int64;
    }
    return *e || errno ? -1 : 0;
}

/* A constant's value in the representation of its (suffix) type. */
static int
convert_const(KnInstr *in, KnType *implied, double as_float)
{
    KnType *t = in->type;
    if (t == implied)
        return 0;
    if (implied == &kn_type_int64 && t->kind == KN_TY_FLOAT) {
        in->imm.f = as_float;
        return 0;
    }
    if (implied == &kn_type_int64 &&
        (t->kind == KN_TY_INT || t->kind == KN_TY_BOOL || t->kind == KN_TY_ENUM ||
         t->kind == KN_TY_DATETIME || t->kind == KN_TY_TIMEDELTA))
        return 0;
    if (implied == &kn_type_float64 && t->kind == KN_TY_FLOAT)
        return 0;
    if (implied == &kn_type_complex128 && t->kind == KN_TY_COMPLEX)
        return 0;
    return -1;
}

static int
read_binop(Reader *r, KnInstr *in)
{
    size_t n;
    const char *s = word(r, &n);
    if (n > 1 && s[n - 1] == '=') { /* augmented: x op= y */
        in->imm.i = 1;
        n--;
    }
    for (int op = 0; op < KN_BIN__COUNT; op++) {
        const char *sym = kn_kir_binop_symbol((KnBinop)op);
        if (strlen(sym) == n && !strncmp(sym, s, n)) {
            in->aux = op;
            return 0;
        }
    }
    return -1;
}

static int
read_cmp(Reader *r, KnInstr *in)
{
    static const struct {
        const char *text;
        int aux, is;
    } forms[] = {
        {"is not", KN_CMP_NE, 1}, {"is", KN_CMP_EQ, 1}, {"not in", KN_CMP_NOTIN, 0},
        {"in", KN_CMP_IN, 0},     {"==", KN_CMP_EQ, 0}, {"!=", KN_CMP_NE, 0},
        {"<=", KN_CMP_LE, 0},     {">=", KN_CMP_GE, 0}, {"<", KN_CMP_LT, 0},
        {">", KN_CMP_GT, 0},
    };
    for (int i = 0; i < KN_ARRAY_LEN(forms); i++) {
        const char *save = r->p;
        if (eat(r, forms[i].text) && (r->p == r->end || *r->p == ' ')) {
            in->aux = forms[i].aux;
            in->imm.i = forms[i].is;
            return 0;
        }
        r->p = save;
    }
    return -1;
}

static int
read_slice_bound(Reader *r, int *has, int64_t *v)
{
    if (r->p < r->end && (*r->p == '-' || isdigit((unsigned char)*r->p))) {
        char *e;
        *v = strtoll(r->p, &e, 10);
        r->p = e;
        *has = 1;
    }
    return 0;
}

static int
read_slice(Reader *r, KnInstr *in)
{
    KnSlice *s = kn_arena_alloc(r->arena, sizeof(KnSlice));
    if (!eat(r, "["))
        return -1;
    read_slice_bound(r, &s->has_start, &s->start);
    if (!eat(r, ":"))
        return -1;
    read_slice_bound(r, &s->has_stop, &s->stop);
    if (eat(r, ":")) {
        read_slice_bound(r, &s->has_step, &s->step);
        if (!s->has_step)
            return -1;
    }
    in->imm.ptr = s;
    return eat(r, "]") ? 0 : -1;
}

static int
read_makeslice(Reader *r, KnInstr *in)
{
    if (eat(r, "start"))
        in->aux |= 1;
    else if (!eat(r, "_"))
        return -1;
    if (eat(r, ":stop"))
        in->aux |= 2;
    else if (!eat(r, ":_"))
        return -1;
    if (eat(r, ":step"))
        in->aux |= 4;
    return 0;
}

static int
read_keywords(Reader *r, KnInstr *in)
{
    if (!eat(r, "kw("))
        return 0;
    KN_VEC(const char *) names = {0};
    while (!eat(r, ")")) {
        if (names.len && !eat(r, ","))
            return -1;
        const char *s = r->p;
        while (r->p < r->end && *r->p != ',' && *r->p != ')')
            r->p++;
        if (r->p == s || r->p >= r->end)
            return -1;
        KN_VEC_PUSH(r->arena, names, kn_arena_strndup(r->arena, s, (size_t)(r->p - s)));
    }
    in->aux = names.len;
    in->imm.ptr = names.items;
    return 0;
}

static int
read_var_ref(Reader *r, KnInstr *in)
{
    size_t n;
    const char *s = word(r, &n);
    if (!n)
        return -1;
    int v = find_var(r, s, n);
    in->aux = v >= 0 ? v : add_var(r, s, n, NULL, 0);
    KnVar *var = &r->fn->vars.items[in->aux];
    if (!var->span.line)
        var->span = in->span; /* the printer does not show it: the first mention */
    return 0;
}

/* The op-specific part between the op's name and its operands. */
static int
read_immediates(Reader *r, KnInstr *in, KnType **implied, double *as_float, Pending *pd)
{
    switch (in->op) {
    case KN_OP_CONST:
        return read_const(r, in, implied, as_float);
    case KN_OP_GLOBAL: {
        if (eat(r, "readonly array")) { /* a frozen array (frontend/frozen.c): its type only */
            in->type = read_array_type(r, 1);
            return in->type ? 0 : -1;
        }
        const char *next; /* a structured dtype, printed as its record type: read_record.c */
        KnType *rec = kn_kir_read_record_type(r->types, r->p, r->end, &next);
        if (rec) {
            r->p = next;
            in->type = rec;
            return 0;
        }
        size_t n;
        const char *s = word(r, &n);
        if (!n)
            return -1;
        in->type = named_type(r, kn_arena_strndup(r->arena, s, n));
        return 0;
    }
    case KN_OP_ARG:
        return read_int(r, &in->aux);
    case KN_OP_LOAD:
    case KN_OP_STORE:
        return read_var_ref(r, in);
    case KN_OP_BINOP:
        return read_binop(r, in);
    case KN_OP_UNOP: {
        static const char *const u[] = {"-", "+", "~", "not"};
        size_t n;
        const char *s = word(r, &n);
        for (int i = 0; i < 4; i++)
            if (strlen(u[i]) == n && !strncmp(u[i], s, n)) {
                in->aux = i;
                return 0;
            }
        return -1;
    }
    case KN_OP_CMP:
        return read_cmp(r, in);
    case KN_OP_GETATTR: {
        size_t n;
        if (!eat(r, "."))
            return -1;
        const char *s = word(r, &n);
        in->imm.str = kn_arena_strndup(r->arena, s, n);
        pd->bound = in->imm.str;
        return n ? 0 : -1;
    }
    case KN_OP_CAST:
        if (!eat(r, "to "))
            return -1;
        if (eat(r, "?"))
            return 0;
        return (in->type = read_type(r)) ? 0 : -1;
    case KN_OP_CALL:
        return read_keywords(r, in);
    case KN_OP_MAKESLICE:
        return read_makeslice(r, in);
    case KN_OP_SLICE:
        return r->p < r->end && *r->p == '[' ? read_slice(r, in) : 0;
    case KN_OP_GETITEM:
        if (eat(r, "unpack "))
            return read_int(r, &in->aux);
        return 0;
    case KN_OP_RAISE: {
        int cause = 0;
        if (!eat(r, "exc#") || read_int(r, &in->aux) < 0)
            return -1;
        if (eat(r, " cause try#") && read_int(r, &cause) < 0)
            return -1;
        in->imm.i = cause;
        return 0;
    }
    case KN_OP_EXC_MATCH:
    case KN_OP_RERAISE:
        return eat(r, "try#") ? read_int(r, &in->aux) : 0;
    case KN_OP_GETITER: {
        static const char *const kinds[] = {"seq", "enumerate", "zip", "range", "gen"};
        for (int k = 0; k < 5; k++)
            if (eat(r, kinds[k])) {
                in->aux = k;
                return 0;
            }
        return -1;
    }
    default:
        return 0;
    }
}

static int
read_block_ref(Reader *r, int *id)
{
    return eat(r, "b") ? read_int(r, id) : -1;
}

/* Operands `%a, %b`, then the targets of br/cbr. */
static int
read_operands(Reader *r, Pending *pd)
{
    KN_VEC(int) ids = {0};
    const char *save = r->p;
    skip_spaces(r);
    if (r->p >= r->end || *r->p != '%')
        r->p = save;
    while (r->p < r->end && *r->p == '%') {
        int id;
        r->p++;
        if (read_int(r, &id) < 0)
            return -1;
        KN_VEC_PUSH(r->arena, ids, id);
        if (!eat(r, ", "))
            break;
    }
    pd->in->nargs = ids.len;
    pd->arg_ids = ids.items;
    pd->target_ids[0] = pd->target_ids[1] = -1;
    if (pd->in->op == KN_OP_BR) {
        skip_spaces(r);
        return read_block_ref(r, &pd->target_ids[0]);
    }
    if (pd->in->op == KN_OP_CBR || pd->in->op == KN_OP_ITERNEXT)
        return eat(r, " ? ") && read_block_ref(r, &pd->target_ids[0]) == 0 && eat(r, " : ") &&
                       read_block_ref(r, &pd->target_ids[1]) == 0
                   ? 0
                   : -1;
    return 0;
}

/* `    ; line:col` at the end of an instruction line: its span; the line ends before it. */
static int
read_span(Reader *r, KnSpan *sp)
{
    const char *s = r->end;
    while (s > r->p && s[-1] != ';')
        s--;
    if (s == r->p || sscanf(s, " %d:%d", &sp->line, &sp->col) != 2)
        return -1;
    sp->end_line = sp->line;
    sp->end_col = sp->col;
    r->end = s - 1;
    while (r->end > r->p && r->end[-1] == ' ')
        r->end--;
    return 0;
}

static int
read_instr(Reader *r)
{
    if (!r->cur)
        return bad(r, "an instruction before the first block label"), -1;
    KnInstr *in = kn_arena_alloc(r->arena, sizeof(KnInstr));
    Pending pd = {in, r->line, NULL, {-1, -1}, NULL};
    if (read_span(r, &in->span) < 0)
        return bad(r, "expected `; line:col` at the end of the instruction"), -1;
    int id = -1;
    if (eat(r, "%") && (read_int(r, &id) < 0 || !eat(r, " = ")))
        return bad(r, "expected `%%N = `"), -1;
    size_t n;
    const char *name = word(r, &n);
    in->op = kn_kir_op_by_name(name, n);
    if (in->op == KN_OP__COUNT)
        return bad(r, "unknown op `%.*s`", (int)n, name), -1;
    if (in->op == KN_OP_FUSED)
        return bad(r, "`fused` cannot be read back: the text does not hold its expression tree"),
               -1;
    if (kn_kir_op_has_value(in->op) != (id >= 0))
        return bad(r,
                   id >= 0 ? "`%s` has no value: no `%%N = ` before it"
                           : "`%s` has a value: expected `%%N = ` before it",
                   kn_kir_op_name(in->op)),
               -1;
    in->id = id;
    KnType *implied = NULL;
    double as_float = 0;
    const char *before = r->p;
    skip_spaces(r);
    const char *start = r->p;
    if (read_immediates(r, in, &implied, &as_float, &pd) < 0)
        return bad(r, "bad immediate for `%s` at `%.*s`", kn_kir_op_name(in->op),
                   (int)(r->end - r->p), r->p),
               -1;
    if (r->p == start) /* no immediate: the spaces belong to the operands or the type */
        r->p = before;
    if (read_operands(r, &pd) < 0)
        return bad(r, "bad operands or targets at `%.*s`", (int)(r->end - r->p), r->p), -1;
    if (eat(r, " : ")) {
        const char *s = r->p;
        KnType *t = read_type(r);
        if (!t || r->p != r->end)
            return bad(r, "bad type `%.*s`", (int)(r->end - s), s), -1;
        if (in->op == KN_OP_GETATTR && !strcmp(t->name, in->imm.str))
            t = NULL; /* a bound method: resolved from the operand's type at the end */
        else
            pd.bound = NULL;
        in->type = t;
    } else {
        pd.bound = NULL;
    }
    if (r->p != r->end)
        return bad(r, "unexpected `%.*s`", (int)(r->end - r->p), r->p), -1;
    if (in->op == KN_OP_CONST) {
        if (!in->type)
            in->type = implied;
        else if (convert_const(in, implied, as_float) < 0)
            return bad(r, "a constant of type %s cannot be written that way", in->type->name), -1;
    }
    KN_VEC_PUSH(r->arena, r->cur->instrs, in);
    KN_VEC_PUSH(r->arena, r->pending, pd);
    return 0;
}

/* ---- resolving ids ---- */

static KnFunction *
resolve(Reader *r)
{
    KnFunction *fn = r->fn;
    int max_id = -1;
    for (int i = 0; i < r->pending.len; i++)
        max_id = r->pending.items[i].in->id > max_id ? r->pending.items[i].in->id : max_id;
    KnInstr **by_id = kn_arena_alloc(r->arena, sizeof(KnInstr *) * (size_t)(max_id + 1 + 1));
    for (int i = 0; i < r->pending.len; i++) {
        KnInstr *in = r->pending.items[i].in;
        r->line = r->pending.items[i].line;
        if (in->id < 0)
            continue;
        if (by_id[in->id])
            return bad(r, "%%%d is defined twice", in->id);
        by_id[in->id] = in;
    }
    fn->next_id = max_id + 1;
    for (int i = 0; i < r->pending.len; i++) {
        Pending *pd = &r->pending.items[i];
        KnInstr *in = pd->in;
        r->line = pd->line;
        if (in->id < 0)
            in->id = fn->next_id++; /* stores, setitems and terminators: numbers of their own */
        if (in->nargs)
            in->args = kn_arena_alloc(r->arena, sizeof(KnInstr *) * (size_t)in->nargs);
        for (int k = 0; k < in->nargs; k++) {
            int a = pd->arg_ids[k];
            if (a < 0 || a > max_id || !by_id[a])
                return bad(r, "%%%d is not defined", a);
            in->args[k] = by_id[a];
        }
        for (int k = 0; k < 2; k++) {
            int t = pd->target_ids[k];
            if (t < 0)
                continue;
            if (t >= fn->blocks.len)
                return bad(r, "block b%d does not exist", t);
            in->targets[k] = fn->blocks.items[t];
        }
        if (pd->bound)
            in->type = in->nargs && in->args[0]->type
                           ? kn_type_bound(r->types, in->args[0]->type, pd->bound)
                           : NULL;
    }
    for (int b = 0; b < fn->blocks.len; b++) {
        int u = r->unwind_ids.items[b];
        r->line = r->unwind_lines.items[b];
        if (u >= fn->blocks.len)
            return bad(r, "block b%d does not exist", u);
        if (u >= 0)
            fn->blocks.items[b]->unwind = fn->blocks.items[u];
    }
    for (int b = 0; b < fn->blocks.len && !fn->span.line; b++)
        if (fn->blocks.items[b]->instrs.len)
            fn->span = fn->blocks.items[b]->instrs.items[0]->span;
    return fn;
}

KnFunction *
kn_kir_read(KnArena *arena, KnTypeTable *types, const char *text, const char *filename,
            KnStrBuf *err)
{
    Reader r;
    memset(&r, 0, sizeof r);
    r.arena = arena;
    r.types = types;
    r.err = err;
    r.fn = kn_kir_function_new(arena, "?", filename ? filename : "<kir>");
    int header = 0;
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        r.line++;
        r.p = line;
        r.end = eol;
        line = *eol ? eol + 1 : eol;
        while (r.end > r.p && (r.end[-1] == ' ' || r.end[-1] == '\r'))
            r.end--;
        skip_spaces(&r);
        if (r.p == r.end || *r.p == ';')
            continue;
        int rc;
        if (!header)
            rc = read_header(&r), header = 1;
        else if (eat(&r, "var "))
            rc = r.fn->blocks.len ? (bad(&r, "a `var` line after the first block"), -1)
                                  : read_var(&r);
        else if (*r.p == 'b' && r.p + 1 < r.end && isdigit((unsigned char)r.p[1]))
            rc = read_label(&r);
        else
            rc = read_instr(&r);
        if (rc < 0)
            return NULL;
    }
    if (!header)
        return bad(&r, "no `function` header");
    if (!r.fn->blocks.len)
        return bad(&r, "the function has no blocks");
    return resolve(&r);
}
