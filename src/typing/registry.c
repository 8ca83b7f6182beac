/* registry.c - typing of a call through the call registry (lib/lib.h): each entry's typing rule
 * kn_type_rule_<rule>, wired from lib/registry.def, so that adding an entry there and writing
 * its rule is all a new builtin needs. The rules live by family: calls.c (builtins, math,
 * conversions, number methods), arrays.c (NumPy functions, array methods and attributes).
 * Keywords are rejected here for entries that do not take them. Calls that the registry does
 * not know (Python implementations, users' overloads) go to overload.c. */
#include "typing/internal.h"

typedef int (*KnTypeRule)(KnCompilation *c, KnInstr *in, int id, KnType **a, int n);

static const KnTypeRule rules[KN_BI__COUNT] = {
#define X(id, owner, name, flags, rule) kn_type_rule_##rule,
#include "lib/registry.def"
#undef X
};

int
kn_typing_entry(KnCompilation *c, KnInstr *in, int id, KnType **a, int n)
{
    if (in->op == KN_OP_CALL && in->aux && !(kn_lib_flags(id) & KN_CF_KEYWORDS)) {
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "%s() does not take keyword arguments in kiln yet", kn_kir_builtin_name(id));
        return -1;
    }
    kn_typing_impl_of(c, in)->builtin = id; /* the rule sets the kind */
    return rules[id](c, in, id, a, n);
}
