/* model_misc.c - the type models of the kinds with little to say: none (one byte), range and slice
 * (three int64), and the compile-time values (functions, modules, classes, bound methods), which
 * carry a dummy 8-byte slot and are interned by id and ref (modules and bound methods also by name,
 * functions and classes with no object by name), and for loops' iterators. Their constructors. */
#include "types/model.h"

#include <stdio.h>

static size_t
size_one(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static size_t
size_triple(const KnType *t)
{
    KN_UNUSED(t);
    return 24;
}

static size_t
align_8(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static int
same_name(const KnType *a, const KnType *b)
{
    return !strcmp(a->name, b->name);
}

static uint64_t
hash_name(const KnType *k, uint64_t h)
{
    return k->name ? kn_hash_bytes(k->name, strlen(k->name), h) : h;
}

const KnTypeModel kn_type_model_none = {.size = size_one};
const KnTypeModel kn_type_model_range = {.size = size_triple, .align = align_8};
const KnTypeModel kn_type_model_slice = {.size = size_triple, .align = align_8};
/* callables and classes with no object behind them (builtins, and what the KIR reader makes from
 * a name alone) are told apart by their name */
static int
same_name_if_no_ref(const KnType *a, const KnType *b)
{
    return a->ref || !a->name || !b->name || !strcmp(a->name, b->name);
}

static uint64_t
hash_name_if_no_ref(const KnType *k, uint64_t h)
{
    return k->ref ? h : hash_name(k, h);
}

/* jitted functions (FUNC, KN_FUNC_JITTED) and choices among them (KN_FUNC_CHOICE) unify into the
 * choice among all of them: `f = sq if c else cube`, `(sq, cube)[i]` */
static KnType *
func_unify(KnTypeTable *tt, KnType *a, KnType *b)
{
    return kn_type_func_choice(tt, a, b);
}

const KnTypeModel kn_type_model_func = {
    .same = same_name_if_no_ref, .hash = hash_name_if_no_ref, .unify = func_unify};
const KnTypeModel kn_type_model_module = {.same = same_name, .hash = hash_name};
const KnTypeModel kn_type_model_class = {.same = same_name_if_no_ref, .hash = hash_name_if_no_ref};
const KnTypeModel kn_type_model_bound = {.same = same_name, .hash = hash_name};
/* a for loop's iterator: interned by its kind (id) and items, which decide its item type */
const KnTypeModel kn_type_model_iter = {0};
/* np.iinfo(t) / np.finfo(t): interned by its entry (id) and its dtype (items[0]) */
const KnTypeModel kn_type_model_info = {0};

KnType *
kn_type_info(KnTypeTable *t, int id, KnType *dtype, const char *fname)
{
    char name[64];
    snprintf(name, sizeof name, "%s(%s)", fname, dtype->name);
    KnType *items[1] = {dtype};
    KnType key = {
        .kind = KN_TY_INFO, .id = id, .n = 1, .items = items, .dtype = dtype, .name = name};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_func(KnTypeTable *t, int builtin_id, void *ref, const char *name)
{
    KnType key = {.kind = KN_TY_FUNC, .id = builtin_id, .ref = ref, .name = name};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_module(KnTypeTable *t, int id, const char *name)
{
    KnType key = {.kind = KN_TY_MODULE, .id = id, .name = name};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_class(KnTypeTable *t, int id, void *ref, const char *name)
{
    KnType key = {.kind = KN_TY_CLASS, .id = id, .ref = ref, .name = name};
    return kn_type_intern(t, &key, name);
}

KnType *
kn_type_bound(KnTypeTable *t, KnType *self, const char *method)
{
    KnType *items[1] = {self};
    KnType key = {.kind = KN_TY_BOUND, .n = 1, .items = items, .name = method};
    return kn_type_intern(t, &key, method);
}

/* An iterator's type: named iter(range_state64) -> int64, enumerate(iter(...) -> T, int64) ->
 * Tuple(int64, T), zip(iter(...) -> A, ...) -> Tuple(A, ...), range_iter(int64, int64, int64) ->
 * int64: every part shown, so that the KIR reader rebuilds it. */
KnType *
kn_type_iter(KnTypeTable *t, KnIterKind kind, KnType **items, int n, KnType *item)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_append(&sb, kind == KN_ITER_SEQ         ? "iter("
                      : kind == KN_ITER_ENUMERATE ? "enumerate("
                      : kind == KN_ITER_ZIP       ? "zip("
                      : kind == KN_ITER_GEN       ? "gen_iter("
                                                  : "range_iter(");
    for (int i = 0; i < n; i++)
        kn_sb_printf(&sb, "%s%s", i ? ", " : "", items[i]->name);
    kn_sb_printf(&sb, ") -> %s", item->name);
    KnType key = {.kind = KN_TY_ITER, .id = (int)kind, .n = n, .items = items, .dtype = item};
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}

static int
is_jitted(const KnType *f)
{
    return f->kind == KN_TY_FUNC && f->id == KN_FUNC_JITTED;
}

int
kn_type_func_index(const KnType *choice, const KnType *f)
{
    for (int i = 0; i < choice->n; i++)
        if (choice->items[i] == f)
            return i;
    return -1;
}

/* add f (a jitted function) or f's choices to items[*n] (at most 64), without repeats */
static int
add_choices(KnType **items, int *n, KnType *f)
{
    int m = f->id == KN_FUNC_CHOICE ? f->n : 1;
    for (int i = 0; i < m; i++) {
        KnType *g = f->id == KN_FUNC_CHOICE ? f->items[i] : f;
        int seen = 0;
        for (int k = 0; k < *n; k++)
            seen |= items[k] == g;
        if (seen)
            continue;
        if (*n == 64)
            return -1;
        items[(*n)++] = g;
    }
    return 0;
}

KnType *
kn_type_func_choice(KnTypeTable *t, KnType *a, KnType *b)
{
    if (a->kind != KN_TY_FUNC || b->kind != KN_TY_FUNC)
        return NULL;
    if (!(is_jitted(a) || a->id == KN_FUNC_CHOICE) || !(is_jitted(b) || b->id == KN_FUNC_CHOICE))
        return NULL;
    KnType *items[64];
    int n = 0;
    if (add_choices(items, &n, a) < 0 || add_choices(items, &n, b) < 0)
        return NULL;
    return n == 1 ? items[0] : kn_type_func_choice_of(t, items, n);
}

KnType *
kn_type_func_choice_of(KnTypeTable *t, KnType **items, int n)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    kn_sb_append(&sb, "FunctionType[");
    for (int i = 0; i < n; i++)
        kn_sb_printf(&sb, "%s%s", i ? ", " : "", items[i]->name);
    kn_sb_append(&sb, "]");
    KnType key = {
        .kind = KN_TY_FUNC, .id = KN_FUNC_CHOICE, .n = n, .items = items, .name = sb.data};
    KnType *r = kn_type_intern(t, &key, sb.data);
    kn_sb_fini(&sb);
    return r;
}
