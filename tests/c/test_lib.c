/* test_lib.c - unit tests for src/lib, the call registry's table: every key is owner.name and
 * unique, kn_lib_find finds each entry by its owner and name (and nothing else), and the flags
 * keep the rules passes rely on: methods, attributes and operators belong to value owners
 * (operators are exactly their dunder entries), module entries
 * are neither, elementwise and creation entries are NumPy's, every NumPy function may raise, the
 * scalar classes are exactly the dtypes of types/dtypes.def. */
#include "lib/lib.h"
#include "types/types.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

/* owners of methods, attributes and operators: "number", "flags", "info" (np.iinfo/np.finfo,
 * compile-time values with attributes: lib/typevalues.def) and the kinds of run-time values
 * (types/kinds.def) */
static int
is_value_owner(const char *owner)
{
    if (!strcmp(owner, "number") || !strcmp(owner, "flags") || !strcmp(owner, "info"))
        return 1;
    for (int k = 0; k < KN_TY_COUNT; k++)
        if ((kn_kind_flags((KnTypeKind)k) & KN_KIND_VALUE) &&
            !(kn_kind_flags((KnTypeKind)k) & KN_KIND_NUMBER) &&
            !strcmp(owner, kn_kind_name((KnTypeKind)k)))
            return 1;
    return 0;
}

/* "__add__" */
static int
is_dunder(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strncmp(name, "__", 2) && !strcmp(name + n - 2, "__");
}

static void
test_keys(void)
{
    for (int id = 0; id < KN_BI__COUNT; id++) {
        const KnCallEntry *e = kn_lib_entry(id);
        char key[128];
        snprintf(key, sizeof key, "%s.%s", e->owner, e->name);
        CHECK_STR(e->key, key);
        CHECK_EQ_INT(kn_lib_find(e->owner, e->name), id);
        for (int j = 0; j < id; j++)
            CHECK(strcmp(kn_lib_entry(j)->key, e->key) != 0);
    }
    CHECK_EQ_INT(kn_lib_find("numpy", "no_such_function"), -1);
    CHECK_EQ_INT(kn_lib_find("array", "abs"), -1); /* builtins.abs is not an array method */
    CHECK_EQ_INT(kn_lib_find("numpy", "sum"), KN_BI_NP_SUM);
    CHECK_EQ_INT(kn_lib_find("array", "sum"), KN_BI_ARRAY_SUM);
    CHECK_EQ_INT(kn_lib_find("array", "shape"), KN_BI_ARRAY_ATTR_SHAPE);
}

static void
test_flags(void)
{
    int scalar_classes = 0;
    for (int id = 0; id < KN_BI__COUNT; id++) {
        const KnCallEntry *e = kn_lib_entry(id);
        unsigned f = e->flags;
        int member = (f & (KN_CF_METHOD | KN_CF_ATTR | KN_CF_OPERATOR)) != 0;
        CHECK_EQ_INT(member, is_value_owner(e->owner));
        CHECK(!((f & KN_CF_METHOD) && (f & KN_CF_ATTR)));
        /* operators are dunder entries of value kinds, and neither methods nor attributes; a
         * dunder entry of a value kind is an operator or a method that a statement calls
         * (`del v[i]`: __delitem__) */
        if (f & KN_CF_OPERATOR) {
            CHECK(is_dunder(e->name) && member);
            CHECK(!(f & (KN_CF_METHOD | KN_CF_ATTR)));
        }
        if (is_dunder(e->name) && is_value_owner(e->owner))
            CHECK(f & (strcmp(e->name, "__delitem__") ? KN_CF_OPERATOR : KN_CF_METHOD));
        if (f & (KN_CF_ELEMENTWISE | KN_CF_CREATES | KN_CF_SCALAR_CLASS))
            CHECK_STR(e->owner, "numpy");
        if (!strcmp(e->owner, "numpy") && !(f & KN_CF_SCALAR_CLASS))
            CHECK(f & KN_CF_RAISES); /* every NumPy function may raise (allocation) */
        if (f & KN_CF_REDUCES)
            CHECK(f & KN_CF_KEYWORDS); /* axis=, keepdims= */
        CHECK(!((f & KN_CF_PURE) && (f & KN_CF_IO)));
        scalar_classes += (f & KN_CF_SCALAR_CLASS) != 0;
    }
    int dtypes = 0;
#define X(type, npy, kind, size, cls)                                                              \
    dtypes++;                                                                                      \
    CHECK(kn_lib_flags(KN_BI_##cls) & KN_CF_SCALAR_CLASS);
#include "types/dtypes.def"
#undef X
    CHECK_EQ_INT(scalar_classes, dtypes);
    CHECK(kn_lib_flags(KN_BI_PRINT) & KN_CF_IO);
    CHECK(kn_lib_flags(KN_BI_INT) & KN_CF_FLOAT_TO_INT);
    CHECK(!(kn_lib_flags(KN_BI_ABS) & KN_CF_RAISES));
}

int
main(void)
{
    test_keys();
    test_flags();
    if (failures) {
        fprintf(stderr, "test_lib: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_lib: %d checks passed\n", checks);
    return 0;
}
