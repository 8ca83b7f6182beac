/* record.c - typing of records (types/model_record.c) and of arrays of them: a field by a
 * constant name, `r.x` or `r['x']` of a record (its value: a number, a nested record, a str
 * for a 'U'/'S' field, a C array view for a sub-array field), `a.x` or `a['x']` of an array of
 * records (a strided view of that field, the sub-array's axes after the array's), and their
 * assignment (`r.x = v`, `r['x'] = v`, `r.x += v`, `a['x'] = v`). typing.c, arrays.c ask this
 * file first where the base is a record or an array of records (small hooks); the
 * instruction becomes an operator of lib/record.def with the field's index in the impl's
 * value, lowered by lower/record.c. An unknown field is a TypingError at the name naming the
 * fields. */
#include "typing/internal.h"

/* "x, v, id" */
static const char *
field_list(KnCompilation *c, const KnType *r)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    for (int i = 0; i < r->n; i++)
        kn_sb_printf(&sb, "%s'%s'", i ? ", " : "", r->record[i].name);
    char *s = kn_arena_strdup(&c->arena, sb.data ? sb.data : "");
    kn_sb_fini(&sb);
    return s;
}

/* the field named by the constant str `name` of record r, or -1 after a diagnostic at span */
static int
field_of(KnCompilation *c, const KnType *r, const char *name, KnSpan span)
{
    int k = kn_type_record_field(r, name);
    if (k < 0)
        kn_typing_err(c, span, "%s has no field '%s' (its fields: %s)", r->name, name ? name : "?",
                      field_list(c, r));
    return k;
}

/* the constant field name an index instruction gives, or NULL after a diagnostic */
static const char *
const_name(KnCompilation *c, const KnInstr *idx, const KnType *r)
{
    if (idx->op == KN_OP_CONST && idx->type == &kn_type_str)
        return idx->imm.str;
    kn_typing_err(c, idx->span,
                  "a field of %s must be named by a constant str (its fields: %s), not %s", r->name,
                  field_list(c, r), idx->type ? idx->type->name : "?");
    return NULL;
}

/* the type of field f's value read from a record */
static KnType *
field_type(KnCompilation *c, const KnRecordField *f)
{
    return f->ndim ? kn_type_array(c->types, f->type, f->ndim, 'C', 0) : f->type;
}

static int
mark(KnCompilation *c, KnInstr *in, int builtin, int k)
{
    KnCallImpl *impl = kn_typing_impl_kind(c, in, KN_CALL_OPERATOR);
    impl->builtin = builtin;
    impl->value = k;
    return 0;
}

/* r.x / r['x'] of a record r */
static int
record_read(KnCompilation *c, KnInstr *in, const KnType *r, const char *name, KnSpan span)
{
    int k = field_of(c, r, name, span);
    if (k < 0)
        return -1;
    const KnRecordField *f = &r->record[k];
    if (f->chars && f->ndim)
        return kn_typing_err(c, span, "kiln does not support sub-arrays of strings (field '%s')",
                             f->name);
    in->type = field_type(c, f);
    return mark(c, in, f->chars && !f->ndim ? KN_BI_RECORD_STRFIELD : KN_BI_RECORD_FIELD, k);
}

/* a.x / a['x'] of an array of records: a view of the field */
static int
array_field(KnCompilation *c, KnInstr *in, const KnType *a, const char *name, KnSpan span)
{
    const KnType *r = a->dtype;
    int k = field_of(c, r, name, span);
    if (k < 0)
        return -1;
    const KnRecordField *f = &r->record[k];
    if (f->chars)
        return kn_typing_err(c, span,
                             "kiln does not support views of string fields yet (field '%s'): "
                             "read a[i].%s",
                             f->name, f->name);
    if (a->ndim + f->ndim > 32)
        return kn_typing_err(c, span, "the view of field '%s' has too many dimensions", name);
    in->type = kn_type_array(c->types, f->type, a->ndim + f->ndim, 'A', a->readonly);
    return mark(c, in, KN_BI_RECORD_FIELD, k);
}

int
kn_typing_record_array(const KnType *t)
{
    return t && t->kind == KN_TY_ARRAY && t->dtype->kind == KN_TY_RECORD;
}

int
kn_typing_record_getattr(KnCompilation *c, KnInstr *in, KnType *t)
{
    if (t->kind == KN_TY_RECORD)
        return record_read(c, in, t, in->imm.str, in->span);
    return array_field(c, in, t, in->imm.str, in->span);
}

/* whether a.name of an array of records t is a field (not an array attribute) */
int
kn_typing_record_array_has(const KnType *t, const char *name)
{
    return kn_typing_record_array(t) && kn_type_record_field(t->dtype, name) >= 0;
}

int
kn_typing_record_getitem(KnCompilation *c, KnInstr *in, KnType *t)
{
    const KnType *r = t->kind == KN_TY_RECORD ? t : t->dtype;
    const char *name = const_name(c, in->args[1], r);
    if (!name)
        return -1;
    if (t->kind == KN_TY_RECORD)
        return record_read(c, in, t, name, in->args[1]->span);
    return array_field(c, in, t, name, in->args[1]->span);
}

/* whether a value of type v may be stored into field f (its element, or the whole field) */
static int
storable(const KnRecordField *f, const KnType *v)
{
    const KnType *vd = v->kind == KN_TY_ARRAY ? v->dtype : v;
    if (f->chars)
        return v == &kn_type_str;
    if (f->type->kind == KN_TY_RECORD)
        return vd == f->type;
    if (f->type->kind == KN_TY_DATETIME || f->type->kind == KN_TY_TIMEDELTA)
        return vd->kind == f->type->kind && kn_type_time_common(vd->id, 1, f->type->id, 1) >= 0;
    return kn_type_is_number(vd) && !(vd->kind == KN_TY_COMPLEX && f->type->kind != KN_TY_COMPLEX);
}

/* r.x = v, r['x'] = v (args: record, name, value), or a['x'] = v of an array of records */
int
kn_typing_record_setitem(KnCompilation *c, KnInstr *in)
{
    KnType *t = in->args[0]->type, *v = in->args[2]->type;
    int is_attr = in->aux == KN_SETITEM_ATTR;
    const KnType *r = t->kind == KN_TY_RECORD ? t : t->dtype;
    const char *name = is_attr ? in->args[1]->imm.str : const_name(c, in->args[1], r);
    if (!name)
        return -1;
    KnSpan span = is_attr ? in->span : in->args[1]->span;
    int k = field_of(c, r, name, span);
    if (k < 0)
        return -1;
    const KnRecordField *f = &r->record[k];
    if (t->kind == KN_TY_ARRAY && t->readonly)
        return kn_typing_err(c, in->span, "cannot assign to a field of a read-only array (%s)",
                             t->name);
    if (!storable(f, v) || (f->chars && (f->ndim || t->kind == KN_TY_ARRAY)))
        return kn_typing_err(c, in->args[2]->span, "cannot store %s into field '%s' (%s)", v->name,
                             f->name,
                             f->chars ? (f->chars == 'U' ? "a str field" : "a bytes field")
                                      : field_type(c, f)->name);
    int whole = t->kind == KN_TY_ARRAY || f->ndim; /* a view filled or copied into */
    KnType *target = t->kind == KN_TY_ARRAY
                         ? kn_type_array(c->types, f->type, t->ndim + f->ndim, 'A', 0)
                         : field_type(c, f);
    if (v->kind == KN_TY_ARRAY && (!whole || v->ndim > target->ndim))
        return kn_typing_err(c, in->args[2]->span, "cannot store %s into %s", v->name,
                             whole ? target->name : "a single field");
    mark(c, in, KN_BI_RECORD_SETFIELD, k);
    kn_typing_impl_of(c, in)->operand = target;
    return 0;
}

int
kn_typing_record_array_refuses(KnCompilation *c, KnInstr *in, const KnType *t, const char *name)
{
    static const char *const ok[] = {"shape",   "size",      "ndim",  "strides", "itemsize",
                                     "nbytes",  "T",         "copy",  "reshape", "ravel",
                                     "flatten", "transpose", "flags", NULL};
    KnTypeKind k = t->dtype->kind;
    if (k != KN_TY_RECORD && k != KN_TY_DATETIME && k != KN_TY_TIMEDELTA)
        return 0;
    for (int i = 0; ok[i]; i++)
        if (!strcmp(ok[i], name))
            return 0;
    kn_typing_err(c, in->span,
                  "%s has no attribute '%s' in kiln (arrays of %s take shape, size, ndim, "
                  "strides, itemsize, nbytes, T, copy, reshape, ravel, flatten, transpose%s)",
                  t->name, name, k == KN_TY_RECORD ? "records" : "datetimes",
                  k == KN_TY_RECORD ? " and their fields" : "");
    return 1;
}

int
kn_type_rule_record(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    KN_UNUSED(a), KN_UNUSED(n), KN_UNUSED(id);
    return kn_typing_err(c, in->span, "records have no attribute '%s'", kn_kir_builtin_name(id));
}
