/* internal.h - what the files of the CPU target (targets/cpu/) give each other. */
#ifndef KN_TARGET_CPU_INTERNAL_H
#define KN_TARGET_CPU_INTERNAL_H

#include "targets/target.h"

/* After O3 on x86-64: int -> double conversions in blocks with calls become an exact sequence
 * with no false dependency on a register the callee wrote (convert.c). Returns how many. */
int kn_target_cpu_fix_conversions(LLVMModuleRef m, int avx512dq);

#endif
