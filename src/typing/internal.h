/* internal.h - shared between the files of typing/. */
#ifndef KN_TYPING_INTERNAL_H
#define KN_TYPING_INTERNAL_H

#include "typing/typing.h"

int kn_typing_call(KnCompilation *c, KnInstr *in, int *changed);
int kn_typing_truth_ok(KnCompilation *c, KnInstr *in, KnType *t);

#endif
