/* str_format_args.c - str.format on a format string known only at run time: the string is parsed
 * here as CPython's MarkupIterator parses it ('{{' and '}}' literal braces, fields
 * {name!conv:spec} with automatic or manual numbering and keyword names, one level of fields
 * nested in a spec), each field formatted by the routines of format() (str_format.c) and the
 * pieces joined once. The arguments come as an array of tagged values (KnFmtArg) made by the
 * compiled call (lower/str_methods.c): numbers, bools and strs, positional first, then the
 * keyword arguments named in `names`. Attribute and index fields ({0[1]}, {0.real}) need a
 * literal format string (the frontend compiles them), so here they are an error. Errors are
 * statuses (KN_FMT_*; *err gives the index or the name's place in the format string). */
#include <stdlib.h>
#include <string.h>

#include "runtime/dict.h"
#include "runtime/str_methods.h"
#include "runtime/str_util.h"

typedef struct Parts {
    KnStr *v;
    int64_t n, cap;
} Parts;

typedef struct State {
    const KnFmtArg *args;
    int64_t npos, nkw;
    const KnStr *names;
    int64_t auto_next; /* the next automatic field number, -1 once a field was numbered */
    int manual;
    int64_t *err;
} State;

static int
push(Parts *p, KnStr s)
{
    if (p->n == p->cap) {
        int64_t cap = p->cap ? 2 * p->cap : 16;
        KnStr *v = realloc(p->v, sizeof *v * (size_t)cap);
        if (!v) {
            slib_release(&s);
            return -1;
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = s;
    return 0;
}

static void
parts_free(Parts *p)
{
    for (int64_t i = 0; i < p->n; i++)
        slib_release(&p->v[i]);
    free(p->v);
}

/* s[a:b] as a piece */
static int
push_sub(Parts *p, const KnStr *s, int64_t a, int64_t b)
{
    if (b <= a)
        return 0;
    KnStr t;
    return slib_sub(&t, s, a, b - a) < 0 ? -1 : push(p, t);
}

static int
is_digits(const KnStr *s, int64_t a, int64_t b)
{
    for (int64_t i = a; i < b; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        if (c < '0' || c > '9')
            return 0;
    }
    return b > a;
}

/* the keyword argument named s[a:b], or -1 */
static int64_t
keyword(const State *st, const KnStr *s, int64_t a, int64_t b)
{
    for (int64_t k = 0; k < st->nkw; k++) {
        const KnStr *nm = &st->names[k];
        if (nm->length != b - a)
            continue;
        int64_t i = 0;
        while (i < nm->length &&
               slib_read(nm->kind, nm->data, i) == slib_read(s->kind, s->data, a + i))
            i++;
        if (i == nm->length)
            return k;
    }
    return -1;
}

/* the argument a field names (s[a:b]), or NULL with the status in *rc */
static const KnFmtArg *
resolve(State *st, const KnStr *s, int64_t a, int64_t b, int *rc)
{
    for (int64_t i = a; i < b; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        if (c == '.' || c == '[') {
            *rc = KN_FMT_FIELD_ACCESS;
            return NULL;
        }
    }
    int64_t idx;
    if (a == b) {
        if (st->manual) {
            *rc = KN_FMT_TO_AUTO;
            return NULL;
        }
        idx = st->auto_next++;
    } else if (is_digits(s, a, b)) {
        if (st->auto_next) {
            *rc = KN_FMT_TO_MANUAL;
            return NULL;
        }
        st->manual = 1;
        idx = 0;
        for (int64_t i = a; i < b && idx < INT64_MAX / 10 - 10; i++)
            idx = idx * 10 + (int64_t)(slib_read(s->kind, s->data, i) - '0');
    } else {
        int64_t k = keyword(st, s, a, b);
        if (k < 0) { /* KeyError(name): the name kept where dicts keep a missing str key */
            KnStr nm;
            if (slib_sub(&nm, s, a, b - a) == 0) {
                kn_rt_dict_key_error_str(&nm);
                slib_release(&nm);
            }
            *rc = KN_FMT_KEY;
            return NULL;
        }
        return &st->args[st->npos + k];
    }
    if (idx >= st->npos) {
        *rc = KN_FMT_INDEX;
        *st->err = idx;
        return NULL;
    }
    return &st->args[idx];
}

/* str(v), repr(v) (conv 'r') or ascii(v) ('a') */
static int
convert(KnStr *out, const KnFmtArg *v, uint32_t conv)
{
    switch (v->tag) {
    case KN_FA_STR:
        if (conv == 'r')
            return kn_rt_str_repr(out, v->s);
        if (conv == 'a')
            return kn_rt_str_ascii(out, v->s);
        slib_same(out, v->s);
        return 0;
    case KN_FA_FLOAT: {
        double d;
        memcpy(&d, &v->bits, sizeof d);
        return kn_rt_float_repr(out, d);
    }
    case KN_FA_BOOL:
        return slib_make(out, v->bits ? "True" : "False", v->bits ? 4 : 5, 1);
    case KN_FA_UINT:
        return kn_rt_str_from_uint(out, (uint64_t)v->bits);
    default:
        return kn_rt_str_from_int(out, v->bits);
    }
}

/* format(v, spec) */
static int
format_one(KnStr *out, const KnFmtArg *v, const KnStr *spec)
{
    switch (v->tag) {
    case KN_FA_STR:
        return kn_rt_format_str_s(out, v->s, spec);
    case KN_FA_FLOAT: {
        double d;
        memcpy(&d, &v->bits, sizeof d);
        return kn_rt_format_float_s(out, d, spec);
    }
    case KN_FA_BOOL:
        if (!spec->length)
            return convert(out, v, 's');
        return kn_rt_format_int_s(out, v->bits, spec);
    case KN_FA_UINT:
        return kn_rt_format_uint_s(out, (uint64_t)v->bits, spec);
    default:
        return kn_rt_format_int_s(out, v->bits, spec);
    }
}

static int render(State *st, Parts *p, const KnStr *s, int64_t a, int64_t b, int depth);

/* the field s[a:b] (between its braces) formatted onto p */
static int
field(State *st, Parts *p, const KnStr *s, int64_t a, int64_t b, int depth)
{
    int64_t i = a, bracket = 0;
    for (; i < b; i++) { /* the name ends at '!' or ':' outside brackets */
        uint32_t c = slib_read(s->kind, s->data, i);
        if (c == '[')
            bracket = 1;
        else if (c == ']')
            bracket = 0;
        else if (!bracket && (c == '!' || c == ':'))
            break;
    }
    int rc = 0;
    const KnFmtArg *v = resolve(st, s, a, i, &rc);
    if (!v)
        return rc;
    uint32_t conv = 0;
    if (i < b && slib_read(s->kind, s->data, i) == '!') {
        if (i + 1 >= b)
            return KN_FMT_END_CONVERSION;
        conv = slib_read(s->kind, s->data, i + 1);
        if (conv != 's' && conv != 'r' && conv != 'a')
            return KN_FMT_CONVERSION;
        i += 2;
        if (i < b && slib_read(s->kind, s->data, i) != ':')
            return KN_FMT_AFTER_CONVERSION;
    }
    KnStr spec, conv_s, r;
    slib_empty(&spec);
    if (i < b) { /* the spec after ':', its own fields formatted first */
        Parts sp = {0};
        if ((rc = render(st, &sp, s, i + 1, b, depth + 1)) < 0 ||
            (rc = kn_rt_str_build(&spec, sp.v, sp.n)) < 0) {
            parts_free(&sp);
            return rc;
        }
        parts_free(&sp);
    }
    if (conv) {
        if ((rc = convert(&conv_s, v, conv)) < 0) {
            slib_release(&spec);
            return rc;
        }
        rc = kn_rt_format_str_s(&r, &conv_s, &spec);
        slib_release(&conv_s);
    } else
        rc = format_one(&r, v, &spec);
    slib_release(&spec);
    return rc < 0 ? rc : push(p, r);
}

/* the end of the field whose '{' is at i (the index of its '}'), or the status of a field
 * that does not end, as CPython words it: still in its name, just after '!', or in its spec */
static int64_t
field_end(const KnStr *s, int64_t i, int64_t b)
{
    int64_t depth = 1;
    int in_name = 1, bracket = 0;
    for (i++; i < b; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        if (bracket) {
            bracket = c != ']';
        } else if (in_name && c == '[') {
            bracket = 1;
        } else if (in_name && c == '!') {
            if (i + 1 >= b)
                return KN_FMT_END_CONVERSION;
            i++; /* the conversion character, whatever it is */
            in_name = 0;
        } else if (in_name && c == ':') {
            in_name = 0;
        } else if (c == '{') {
            depth++;
        } else if (c == '}' && --depth == 0) {
            return i;
        }
    }
    return in_name ? KN_FMT_END : KN_FMT_UNMATCHED;
}

static int
render(State *st, Parts *p, const KnStr *s, int64_t a, int64_t b, int depth)
{
    if (depth > 1) /* CPython's limit: a spec's fields have no fields in their specs */
        return KN_FMT_RECURSION;
    int64_t lit = a;
    for (int64_t i = a; i < b; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        if (c != '{' && c != '}')
            continue;
        int doubled = i + 1 < b && slib_read(s->kind, s->data, i + 1) == c;
        if (c == '}' && !doubled)
            return KN_FMT_SINGLE_RBRACE;
        if (push_sub(p, s, lit, doubled ? i + 1 : i) < 0)
            return -1;
        if (doubled) {
            lit = ++i + 1;
            continue;
        }
        if (i + 1 >= b)
            return KN_FMT_SINGLE_LBRACE;
        int64_t e = field_end(s, i, b);
        if (e < 0)
            return (int)e;
        int rc = field(st, p, s, i + 1, e, depth);
        if (rc < 0)
            return rc;
        i = e;
        lit = e + 1;
    }
    return push_sub(p, s, lit, b);
}

int
kn_rt_str_format_args(KnStr *out, const KnStr *fmt, const KnFmtArg *args, int64_t npos,
                      const KnStr *names, int64_t nkw, int64_t *err)
{
    State st = {args, npos, nkw, names, 0, 0, err};
    Parts p = {0};
    int rc = render(&st, &p, fmt, 0, fmt->length, 0);
    if (rc == 0)
        rc = kn_rt_str_build(out, p.v, p.n);
    parts_free(&p);
    return rc;
}
