/* lib.h - the call registry: every callable that compiled code can reach (builtins, math, NumPy
 * functions, methods and attributes of values) is one entry under a key ("numpy.cumsum",
 * "array.sum", "array.shape"), with flags that passes read and the name of its rule: the typing
 * rule kn_type_rule_<rule> (typing/) and the lowering rule kn_lower_rule_<rule> (lower/), which
 * registry.def's X-macro wires up in typing/registry.c and lower/registry.c. Family files
 * (builtins.def, math.def, numpy.def, array.def, sorting.def) hold the entries; registry.def
 * lists the files.
 * Callables implemented in Python (kiln/lib/, and users' kiln.extending.overload) are not in this
 * table: they live in kiln.extending's registry and reach typing through the overload hook
 * (KnHooks.resolve_overload). Depends on base/ only. */
#ifndef KN_LIB_H
#define KN_LIB_H

#include "base/base.h"

/* What passes may assume of a call (KnCallEntry.flags). */
enum {
    KN_CF_RAISES = 1 << 0,        /* may raise whatever the argument types (allocation, checks) */
    KN_CF_ALLOCATES = 1 << 1,     /* returns new memory */
    KN_CF_ELEMENTWISE = 1 << 2,   /* a ufunc: passes/fuse.c may fuse it into an array expression */
    KN_CF_PURE = 1 << 3,          /* no side effect: the result depends on the arguments only */
    KN_CF_CREATES = 1 << 4,       /* np.empty/zeros/ones/full and their *_like */
    KN_CF_REDUCES = 1 << 5,       /* a reduction or scan taking (a, axis=, keepdims=) */
    KN_CF_SCALAR_CLASS = 1 << 6,  /* a NumPy scalar class (np.int8, ...): also what a.dtype is */
    KN_CF_METHOD = 1 << 7,        /* a method: key "owner.name" with owner a kind of value */
    KN_CF_ATTR = 1 << 8,          /* an attribute of a value */
    KN_CF_KEYWORDS = 1 << 9,      /* accepts keyword arguments (others reject them in typing) */
    KN_CF_IO = 1 << 10,           /* has an effect outside the program (print) */
    KN_CF_FLOAT_TO_INT = 1 << 11, /* raises when it turns a float argument into a Python int */
    /* an operator of a value kind ("str.__add__": typing/operator.c); its rules see the
     * operator's instruction (the operands in args), and it is not reachable as a method */
    KN_CF_OPERATOR = 1 << 12,
};

typedef enum KnBuiltin {
#define X(id, owner, name, flags, rule) KN_BI_##id,
#include "lib/registry.def"
#undef X
    KN_BI__COUNT
} KnBuiltin;

typedef struct KnCallEntry {
    const char *owner; /* a module ("builtins", "math", "numpy") or a kind of value ("array") */
    const char *name;  /* the attribute name in the owner */
    const char *key;   /* "owner.name" */
    unsigned flags;    /* KN_CF_* */
} KnCallEntry;

const KnCallEntry *kn_lib_entry(int id);
static inline unsigned
kn_lib_flags(int id)
{
    return kn_lib_entry(id)->flags;
}
/* The entry of owner.name, or -1 (methods and attributes of values: owner "array", "number"). */
int kn_lib_find(const char *owner, const char *name);

#endif
