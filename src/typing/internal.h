/* internal.h - shared between the files of typing/. */
#ifndef KN_TYPING_INTERNAL_H
#define KN_TYPING_INTERNAL_H

#include "typing/typing.h"

int kn_typing_call(KnCompilation *c, KnInstr *in, int *changed);
int kn_typing_truth_ok(KnCompilation *c, KnInstr *in, KnType *t);
KnType *kn_typing_np_scalar(int builtin_id); /* np.float64 -> float64, NULL if not a dtype */
int kn_typing_scalar_class(const KnType *t); /* float64 -> the entry of np.float64, or -1 */
int kn_typing_method_entry(const KnType *bound); /* registry entry of a bound method, or -1 */

/* registry.c: type a call (or attribute) through its registry entry's rule */
int kn_typing_entry(KnCompilation *c, KnInstr *in, int id, KnType **a, int n);
/* the typing rules of the registry's entries (lib/registry.def): kn_type_rule_<rule> */
#define X(id, owner, name, flags, rule)                                                            \
    int kn_type_rule_##rule(KnCompilation *c, KnInstr *in, int bid, KnType **a, int n);
#include "lib/registry.def"
#undef X

/* overload.c: calls implemented in Python (kiln/lib, kiln.extending) */
int kn_typing_overload(KnCompilation *c, KnInstr *in, KnType *fn, KnType *bound, KnType **a, int n);
int kn_typing_overload_attr(KnCompilation *c, KnInstr *in, KnType *self); /* 1: none */
int kn_typing_has_overload_method(KnCompilation *c, KnType *self, const char *name, KnSpan span);


/* arrays.c */
KnType *kn_typing_elementwise_operand(KnType *a, KnType *b);
int kn_typing_array_binop(KnCompilation *c, KnInstr *in, KnType *a, KnType *b);
int kn_typing_array_cmp(KnCompilation *c, KnInstr *in, KnType *a, KnType *b);
int kn_typing_array_unop(KnCompilation *c, KnInstr *in, KnType *a);
int kn_typing_array_getattr(KnCompilation *c, KnInstr *in, KnType *t);
int kn_typing_array_getitem(KnCompilation *c, KnInstr *in, KnType *a, KnType *idx);
KnType *kn_typing_index_result(KnCompilation *c, KnSpan span, KnType *a, KnType *idx);
int kn_typing_setitem(KnCompilation *c, KnInstr *in);
int kn_typing_reduction(KnCompilation *c, KnInstr *in, const char *name, KnType *a);
int kn_typing_reduction_axis(KnCompilation *c, KnInstr *in, const char *name, KnType *a,
                             KnInstr *axis);

#endif
