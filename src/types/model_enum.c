/* model_enum.c - the type model of enum members (enum.Enum and enum.IntEnum classes whose
 * members all have int values): a member is its value (dtype int64, its layout); the type is
 * interned by its class (ref) and kind (id KN_ENUM_INT for an IntEnum), printed
 * `enum(Color)`, and remembers the members' names and values (for `.name`). Members of two
 * classes never unify. */
#include "types/model.h"

KnType *
kn_type_enum(KnTypeTable *t, void *cls, const char *name, int is_int, int n,
             const char *const *names, const int64_t *values)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_printf(&sb, "enum(%s)", name);
    KnType key = {
        .kind = KN_TY_ENUM, .id = is_int, .ref = cls, .dtype = &kn_type_int64, .name = sb.data};
    KnType *found = kn_type_find(t, &key);
    if (found) {
        kn_sb_fini(&sb);
        return found;
    }
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    const char **ns = kn_arena_alloc(&t->arena, sizeof(char *) * (size_t)(n ? n : 1));
    int64_t *vs = kn_arena_alloc(&t->arena, sizeof(int64_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        ns[i] = kn_arena_strdup(&t->arena, names[i]);
        vs[i] = values[i];
    }
    r->fields = ns;
    r->values = vs;
    r->nvalues = n;
    return r;
}

static size_t
enum_size(const KnType *t)
{
    return kn_type_size(t->dtype);
}

/* a type with no class (read from KIR text) is told apart by its name */
static int
enum_same(const KnType *a, const KnType *b)
{
    return a->ref || !a->name || !b->name || !strcmp(a->name, b->name);
}

static uint64_t
enum_hash(const KnType *k, uint64_t h)
{
    return !k->ref && k->name ? kn_hash_bytes(k->name, strlen(k->name), h) : h;
}

const KnTypeModel kn_type_model_enum = {.size = enum_size, .same = enum_same, .hash = enum_hash};
