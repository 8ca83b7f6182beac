/* model_record.c - the type model of records, the elements of structured NumPy dtypes
 * (np.dtype([('x', 'f8'), ('id', 'i4')]), aligned or packed, nested, with sub-array and
 * fixed-length string fields). A record type is interned by its structure: the printed name
 * spells every field (name, element type, offset, sub-array shape), the itemsize and whether
 * the dtype is aligned, as Numba prints `Record(x[type=float64;offset=0],...;12;False)`, and
 * `same`/`hash` compare that name, so two equal dtypes are one type. Its C layout is the
 * record's bytes (size the itemsize, alignment the dtype's), so arrays of records step by the
 * itemsize and a record in an argument buffer, a tuple or a list is a copy of its bytes; its
 * value in compiled code is a pointer to the bytes (lower/model_record.c). */
#include "types/model.h"

static void
print_field(KnStrBuf *sb, const KnRecordField *f)
{
    kn_sb_printf(sb, "%s[type=", f->name);
    if (f->ndim) {
        kn_sb_printf(sb, "nestedarray(%s, (", f->type->name);
        for (int d = 0; d < f->ndim; d++)
            kn_sb_printf(sb, "%s%lld", d ? ", " : "", (long long)f->shape[d]);
        kn_sb_append(sb, f->ndim == 1 ? ",))" : "))");
    } else if (f->chars) {
        kn_sb_printf(sb, "[%s x %lld]", f->chars == 'U' ? "unichr" : "char", (long long)f->nchars);
    } else {
        kn_sb_append(sb, f->type->name);
    }
    kn_sb_printf(sb, ";offset=%lld]", (long long)f->offset);
}

KnType *
kn_type_record(KnTypeTable *t, const KnRecordField *fields, int n, int64_t itemsize, int align,
               int aligned)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_append(&sb, "Record(");
    for (int i = 0; i < n; i++) {
        if (i)
            kn_sb_append(&sb, ",");
        print_field(&sb, &fields[i]);
    }
    kn_sb_printf(&sb, ";%lld;%s)", (long long)itemsize, aligned ? "True" : "False");
    KnType *items[256];
    for (int i = 0; i < n && i < 256; i++)
        items[i] = fields[i].type;
    KnType key = {.kind = KN_TY_RECORD,
                  .n = n,
                  .items = items,
                  .id = aligned,
                  .bits = (int)itemsize,
                  .is_signed = align,
                  .name = sb.data};
    KnType *found = kn_type_find(t, &key);
    if (found) {
        kn_sb_fini(&sb);
        return found;
    }
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    KnRecordField *fs = kn_arena_alloc(&t->arena, sizeof(KnRecordField) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        fs[i] = fields[i];
        fs[i].name = kn_arena_strdup(&t->arena, fields[i].name);
    }
    r->record = fs;
    return r;
}

int
kn_type_record_field(const KnType *t, const char *name)
{
    if (t->kind != KN_TY_RECORD || !name)
        return -1;
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->record[i].name, name))
            return i;
    return -1;
}

static size_t
record_size(const KnType *t)
{
    return (size_t)(t->bits > 0 ? t->bits : 1);
}

static size_t
record_align(const KnType *t)
{
    return (size_t)(t->is_signed > 0 ? t->is_signed : 1);
}

static int
record_same(const KnType *a, const KnType *b)
{
    return a->bits == b->bits && a->name && b->name && !strcmp(a->name, b->name);
}

static uint64_t
record_hash(const KnType *k, uint64_t h)
{
    return k->name ? kn_hash_bytes(k->name, strlen(k->name), h) : h;
}

const KnTypeModel kn_type_model_record = {
    .size = record_size, .align = record_align, .same = record_same, .hash = record_hash};
