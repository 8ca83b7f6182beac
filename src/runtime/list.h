/* list.h - the run-time form of a list (KnList) shared by compiled code's `[]` and
 * kiln.typed.List, and the element-size-generic kn_rt_list_* routines that do its cold work
 * (growth, insertion and deletion of ranges, copies, sorting). A list value is a KnMemInfo *
 * whose data is a KnList; the items live in a separately malloc'd buffer of `cap` items of
 * `itemsize` bytes each, in the C layout of the item type (the dispatcher's layout), which the
 * meminfo's destructor frees after releasing the references the items hold: each item holds
 * `nrefs` KnMemInfo pointers at the byte offsets `refoff` (an array's meminfo, a list, a str's
 * mi, the same inside tuples). Uses only base/ and runtime.h: no Python.h here. */
#ifndef KN_RUNTIME_LIST_H
#define KN_RUNTIME_LIST_H

#include <stdint.h>

#include "runtime/runtime.h"

enum { KN_LIST_MAX_REFS = 8 }; /* references per item (an item type holding more is refused) */

/* The field order is an ABI: compiled code reads len at offset 0, cap at 8, items at 16 and
 * writes dirty at 40 (lower/list.c). */
typedef struct KnList {
    int64_t len;
    int64_t cap;
    char *items;
    int64_t itemsize;
    void *pyobj;   /* a reflected argument: the Python list it came from, during its call */
    int32_t dirty; /* mutated since it was unboxed (reflection writes it back) */
    int32_t typed; /* boxes as a kiln.typed.List (else a new Python list) */
    int32_t nrefs; /* KnMemInfo pointers per item, at refoff[0..nrefs) */
    int32_t refoff[KN_LIST_MAX_REFS];
} KnList;

static inline KnList *
kn_rt_list_of(KnMemInfo *mi)
{
    return (KnList *)mi->data;
}

/* A new empty list of capacity cap (refcount 1), NULL when out of memory. refoff: nrefs
 * offsets (copied). */
KnMemInfo *kn_rt_list_new(int64_t itemsize, int32_t nrefs, const int32_t *refoff, int64_t cap);
/* Set the item layout of an empty list made before its item type was known ([] then append). */
void kn_rt_list_set_layout(KnMemInfo *mi, int64_t itemsize, int32_t nrefs, const int32_t *refoff);
/* Make room for at least `need` items (amortised growth): 0, or -1 when out of memory. */
int32_t kn_rt_list_reserve(KnMemInfo *mi, int64_t need);
/* The slot of a new last item (len grows by one), NULL when out of memory. The caller stores
 * the item (a reference of the list's own). */
char *kn_rt_list_append_slot(KnMemInfo *mi);
/* a new meminfo holding a reference to the ndarray `parent` (an array borrowed from an argument
 * that a container stores: lower/array_stored.c); NULL when out of memory. The hook is
 * installed by the dispatcher (dispatch/typed_common.c), which owns Python objects. */
extern KnMemInfo *(*kn_rt_array_hold_hook)(void *parent);
KnMemInfo *kn_rt_array_hold(void *parent);
/* Open a gap of n items at index i (0 <= i <= len): the slots i..i+n are left for the caller
 * to fill. NULL when out of memory. */
char *kn_rt_list_open(KnMemInfo *mi, int64_t i, int64_t n);
/* Remove items [i, j) (0 <= i <= j <= len), releasing their references. */
void kn_rt_list_delete(KnMemInfo *mi, int64_t i, int64_t j);
/* Remove item i without releasing it: its bytes are copied to out (pop). */
void kn_rt_list_take(KnMemInfo *mi, int64_t i, char *out);
/* A new list of items start, start+step, ... (n of them), each incref'd; NULL: no memory. */
KnMemInfo *kn_rt_list_slice(KnMemInfo *mi, int64_t start, int64_t step, int64_t n);
/* a + b (a new list), a * k, a += b (in place; b may be a): NULL / -1 when out of memory */
KnMemInfo *kn_rt_list_concat(KnMemInfo *a, KnMemInfo *b);
KnMemInfo *kn_rt_list_repeat(KnMemInfo *a, int64_t k);
int32_t kn_rt_list_extend(KnMemInfo *a, KnMemInfo *b);
/* l[start:stop:step] = src (src may be l): -1 when an extended slice's length differs (the
 * caller raises ValueError), -2 when out of memory, else 0. */
int32_t kn_rt_list_assign_slice(KnMemInfo *mi, int64_t start, int64_t stop, int64_t step, int64_t n,
                                KnMemInfo *src);
/* del l[start:stop:step] with n items selected */
void kn_rt_list_delete_slice(KnMemInfo *mi, int64_t start, int64_t step, int64_t n);
void kn_rt_list_reverse(KnMemInfo *mi);
void kn_rt_list_clear(KnMemInfo *mi);
/* Stable sort by keys (itemsize bytes each, parallel to the items; keys == items when sorting
 * the items themselves): lt(a, b) is a < b. With reverse, equal keys keep their order, as
 * Python's sort. -1 when out of memory. */
int32_t kn_rt_list_sort(KnMemInfo *mi, const char *keys, int64_t keysize,
                        int32_t (*lt)(const void *a, const void *b), int32_t reverse);
/* The same for int items or keys of dtype dt (KN_DT_*, not bool): NumPy's sorts. */
int32_t kn_rt_list_sort_ints(KnMemInfo *mi, const char *keys, int64_t keysize, int32_t dt,
                             int32_t reverse);
/* Increments the references item holds (a reference of its own for a reader). */
void kn_rt_list_item_incref(const KnList *l, const char *item);
void kn_rt_list_item_decref(const KnList *l, const char *item);

#endif
