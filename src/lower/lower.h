/* lower.h - typed KIR -> an LLVM module. Each overload becomes two functions: the native
 * function `symbol` (status = f(ret*, exc*, args by value...)), which other compiled code calls,
 * and `wrapper` (status = w(ret*, exc*, argbuf*)), the uniform entry the dispatcher calls with
 * arguments laid out in C layout (kn_type_arg_offset). */
#ifndef KN_LOWER_H
#define KN_LOWER_H

#include <llvm-c/Core.h>

#include "base/context.h"
#include "ir/kir.h"
#include "targets/target.h"
#include "types/types.h"

/* Build c->fn into a new module in ctx, for c->target (its triple, data layout, math names and
 * entry ABI: targets/target.h). NULL with a diagnostic on failure. */
LLVMModuleRef kn_lower_function(KnCompilation *c, LLVMContextRef ctx);

/* The byte offsets of the KnMemInfo pointers a value of type `item` holds in its C layout (a
 * list's items: runtime/list.h), appended to off[0..n) at `base`: the new count, or -1 when
 * more than KN_LIST_MAX_REFS (lower/list.c). */
int kn_lower_list_ref_offsets(const KnType *item, int32_t *off, int base, int n);

#endif
