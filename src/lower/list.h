/* list.h - what the list files of lower/ (model_list.c, list.c) give the rest of lower/: the
 * fields of a list value (runtime/list.h's KnList behind the meminfo), a new list, item access
 * and BUILD_LIST. lower.c and iter.c include it for their one case each. */
#ifndef KN_LOWER_LIST_H
#define KN_LOWER_LIST_H

#include "lower/internal.h"

/* the KnList * of a list value (its meminfo's data) */
LLVMValueRef kn_lower_list_hdr(L *l, LLVMValueRef mi);
LLVMValueRef kn_lower_list_len(L *l, LLVMValueRef mi);
/* a pointer to item k (in the item type's C layout), k in range */
LLVMValueRef kn_lower_list_item_ptr(L *l, LLVMValueRef mi, LLVMValueRef k, const KnType *item);
/* item k, borrowed (the list keeps its reference) */
LLVMValueRef kn_lower_list_item(L *l, LLVMValueRef mi, LLVMValueRef k, const KnType *item);
/* a new empty list of type t with room for cap items (raises MemoryError) */
LLVMValueRef kn_lower_list_new(L *l, const KnType *t, LLVMValueRef cap);
/* a private constant i32[n] of an item's reference offsets (kn_rt_list_new's `refs`) */
LLVMValueRef kn_lower_list_refs_global(L *l, const int32_t *off, int n);
/* kn_lower_list_ref_offsets (lower.h): the references an item holds, as byte offsets */
LLVMValueRef kn_lower_build_list(L *l, KnInstr *in); /* BUILD_LIST */
/* len, min, max, sum of a list (calls.c sends them) */
LLVMValueRef kn_lower_list_builtin(L *l, KnInstr *in, int id);

/* == of two values (numbers, str, tuples, lists, dicts, sets): i1 (lower/list.c) */
LLVMValueRef kn_lower_value_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                               const KnType *tb);
/* a op b of two tuples holding strs or lists (lower/list.c; scalar.c sends them) */
LLVMValueRef kn_lower_value_compare(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b,
                                    const KnType *ta, const KnType *tb);
/* == of two dicts or sets of type t; raises the array statuses below (lower/dict.c) */
LLVMValueRef kn_lower_dict_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t);
/* lower/equal.c: statuses of a deep == that met an array value, as Numba's truth of va == vb */
enum { KN_EQ_AMBIGUOUS = -1, KN_EQ_EMPTY = -2 };
LLVMValueRef kn_lower_array_value_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                                     const KnType *tb); /* i32: 1, 0 or a KN_EQ_* status */
void kn_lower_raise_eq_status(L *l, LLVMValueRef status);
LLVMValueRef kn_lower_eq_function(L *l, const KnType *t); /* i32 eq(ptr, ptr) over t's values */
/* i32 name(ptr a, ptr b) over t's values in C layout, returning body(a, b) (equal.c) */
typedef LLVMValueRef (*KnLowerPairBody)(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t);
LLVMValueRef kn_lower_pair_function(L *l, const char *name, const KnType *t, KnLowerPairBody body);
/* an array stored into a container: its new reference, a held ndarray when borrowed */
LLVMValueRef kn_lower_array_stored(L *l, LLVMValueRef v, const KnType *t);

#endif
