/* read_record.c - the KIR reader's part for the types of types/model_record.c and
 * model_datetime.c, by their printed names: `datetime64[s]`, `timedelta64[generic]`, and
 * `Record(x[type=float64;offset=0],vec[type=nestedarray(float64, (3,));offset=8],
 * name[type=[unichr x 5];offset=32],pos[type=Record(...);offset=52];60;False)`. A record read
 * back is found by its name (the type the compile made); one read from text alone gets its
 * fields, offsets and itemsize from the text and the largest field alignment when aligned. */
#include <stdlib.h>
#include <string.h>

#include "ir/kir.h"

typedef struct Cur {
    const char *p, *end;
    KnTypeTable *types;
} Cur;

static int
eat(Cur *c, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(c->end - c->p) >= n && !strncmp(c->p, s, n)) {
        c->p += n;
        return 1;
    }
    return 0;
}

static int
read_i64(Cur *c, int64_t *out)
{
    char *e;
    if (c->p >= c->end)
        return -1;
    long long v = strtoll(c->p, &e, 10);
    if (e == c->p || e > c->end)
        return -1;
    c->p = e;
    *out = v;
    return 0;
}

static KnType *read_any(Cur *c);

static KnType *
read_time(Cur *c)
{
    int delta = eat(c, "timedelta64[");
    if (!delta && !eat(c, "datetime64["))
        return NULL;
    const char *s = c->p;
    while (c->p < c->end && *c->p != ']')
        c->p++;
    char unit[16];
    size_t n = (size_t)(c->p - s);
    if (c->p >= c->end || n >= sizeof unit)
        return NULL;
    memcpy(unit, s, n);
    unit[n] = '\0';
    c->p++;
    return kn_type_datetime(c->types, delta, kn_type_time_unit_by_name(unit));
}

/* an element: a record, a datetime, or a number named up to ';' ',' or ')' */
static KnType *
read_elem(Cur *c)
{
    KnType *t = read_any(c);
    if (t)
        return t;
    const char *s = c->p;
    while (c->p < c->end && *c->p != ';' && *c->p != ',' && *c->p != ')')
        c->p++;
    char name[32];
    size_t n = (size_t)(c->p - s);
    if (n >= sizeof name)
        return NULL;
    memcpy(name, s, n);
    name[n] = '\0';
    t = kn_type_by_name(name);
    return t && kn_type_is_number(t) ? t : NULL;
}

static int64_t
elem_size(const KnType *t)
{
    return t->kind == KN_TY_BOOL ? 1 : (int64_t)kn_type_size(t);
}

static int
read_field(Cur *c, KnRecordField *f)
{
    const char *s = c->p;
    while (c->p < c->end && *c->p != '[')
        c->p++;
    if (c->p >= c->end || c->p == s)
        return -1;
    char *name = malloc((size_t)(c->p - s) + 1);
    if (!name)
        return -1;
    memcpy(name, s, (size_t)(c->p - s));
    name[c->p - s] = '\0';
    f->name = name;
    if (!eat(c, "[type="))
        return -1;
    int64_t count = 1;
    if (eat(c, "nestedarray(")) {
        if (!(f->type = read_elem(c)) || !eat(c, ", ("))
            return -1;
        while (!eat(c, ")")) {
            if (f->ndim >= 8 || read_i64(c, &f->shape[f->ndim]) < 0)
                return -1;
            count *= f->shape[f->ndim++];
            eat(c, ",");
            eat(c, " ");
        }
        if (!eat(c, ")"))
            return -1;
    } else if (eat(c, "[unichr x ") ? (f->chars = 'U')
               : eat(c, "[char x ") ? (f->chars = 'S')
                                    : 0) {
        if (read_i64(c, &f->nchars) < 0 || !eat(c, "]"))
            return -1;
        f->type = &kn_type_str;
    } else if (!(f->type = read_elem(c))) {
        return -1;
    }
    f->size = f->chars ? f->nchars * (f->chars == 'U' ? 4 : 1) : count * elem_size(f->type);
    return eat(c, ";offset=") && read_i64(c, &f->offset) == 0 && eat(c, "]") ? 0 : -1;
}

static KnType *
read_record(Cur *c)
{
    if (!eat(c, "Record("))
        return NULL;
    KnRecordField fs[256];
    memset(fs, 0, sizeof fs);
    int n = 0, ok = 1;
    while (ok && n < 256 && !eat(c, ";")) {
        if (n && !eat(c, ","))
            ok = 0;
        else
            ok = read_field(c, &fs[n++]) == 0;
    }
    int64_t size = 0;
    int aligned = 0;
    if (ok && read_i64(c, &size) == 0 && eat(c, ";"))
        aligned = eat(c, "True") ? 1 : eat(c, "False") ? 0 : (ok = 0);
    ok = ok && eat(c, ")");
    int64_t align = 1;
    for (int i = 0; ok && aligned && i < n; i++) {
        int64_t a = fs[i].type->kind == KN_TY_RECORD ? fs[i].type->is_signed
                    : fs[i].chars                    ? (fs[i].chars == 'U' ? 4 : 1)
                                                     : elem_size(fs[i].type);
        align = a > align ? a : align;
    }
    KnType *t = ok ? kn_type_record(c->types, fs, n, size, (int)align, aligned) : NULL;
    for (int i = 0; i < n; i++)
        free((char *)fs[i].name);
    return t;
}

static KnType *
read_any(Cur *c)
{
    KnType *t = read_time(c);
    return t ? t : read_record(c);
}

KnType *
kn_kir_read_record_type(KnTypeTable *t, const char *p, const char *end, const char **next)
{
    Cur c = {p, end, t};
    if (!(end - p > 7 && !strncmp(p, "Record(", 7)) &&
        !(end - p > 11 && !strncmp(p, "datetime64[", 11)) &&
        !(end - p > 12 && !strncmp(p, "timedelta64[", 12)))
        return NULL;
    KnType *r = read_any(&c);
    *next = c.p;
    return r;
}
