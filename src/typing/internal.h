/* internal.h - shared between the files of typing/. */
#ifndef KN_TYPING_INTERNAL_H
#define KN_TYPING_INTERNAL_H

#include "typing/typing.h"

int kn_typing_call(KnCompilation *c, KnInstr *in, int *changed);
int kn_typing_truth_ok(KnCompilation *c, KnInstr *in, KnType *t);
KnType *kn_typing_np_scalar(int builtin_id); /* np.float64 -> float64, NULL if not a dtype */

/* iter.c: the iterator protocol */
int kn_typing_getiter(KnCompilation *c, KnInstr *in);
int kn_typing_iternext(KnCompilation *c, KnInstr *in);


/* arrays.c */
KnType *kn_typing_elementwise_operand(KnType *a, KnType *b);
int kn_typing_array_binop(KnCompilation *c, KnInstr *in, KnType *a, KnType *b);
int kn_typing_array_cmp(KnCompilation *c, KnInstr *in, KnType *a, KnType *b);
int kn_typing_array_unop(KnCompilation *c, KnInstr *in, KnType *a);
int kn_typing_array_getattr(KnCompilation *c, KnInstr *in, KnType *t);
int kn_typing_array_getitem(KnCompilation *c, KnInstr *in, KnType *a, KnType *idx);
KnType *kn_typing_index_result(KnCompilation *c, KnSpan span, KnType *a, KnType *idx);
int kn_typing_setitem(KnCompilation *c, KnInstr *in);
int kn_typing_numpy_call(KnCompilation *c, KnInstr *in, int id);
int kn_typing_array_method(KnCompilation *c, KnInstr *in, KnType *bound);
int kn_typing_reduction(KnCompilation *c, KnInstr *in, const char *name, KnType *a);
int kn_typing_reduction_axis(KnCompilation *c, KnInstr *in, const char *name, KnType *a,
                             KnInstr *axis);

#endif
