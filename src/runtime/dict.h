/* dict.h - the run-time table behind dicts and sets in compiled code (dict.c): CPython's compact
 * ordered layout, an index array of int32 slots (-1 empty, -2 deleted, else an entry number)
 * over a dense array of entries {int64 hash; key; value} kept in insertion order. A set is the
 * same table with no value. The table is element-size generic: its layout (sizes, offsets, how
 * keys compare, where the counted references sit) is a KnDictLayout that compiled code passes
 * when it creates one; compiled code computes hashes itself (CPython's), reads and writes the
 * entries directly, and calls here for the probe, growth, deletion and the bulk operations.
 *
 * A dict value is the KnMemInfo * whose data is the KnDict; the meminfo's dtor releases what
 * the entries hold and frees the index and entries. Field offsets of KnDict that compiled code
 * reads are the KN_DICT_OFF_* below (an ABI). Not thread-safe for concurrent mutation. */
#ifndef KN_RUNTIME_DICT_H
#define KN_RUNTIME_DICT_H

#include <stdint.h>

#include "runtime/runtime.h"

/* how one part of a key (or value, for ==) compares */
enum {
    KN_DF_BYTES, /* size bytes, bit for bit (ints, bools) */
    KN_DF_F64,   /* a double: ==, so 0.0 == -0.0 and nan != nan */
    KN_DF_F32,
    KN_DF_STR, /* a KnStr (runtime/str.h): length, kind and characters */
    KN_DF_F16, /* a float16: == as KN_DF_F64 */
};

typedef struct KnDictField {
    int32_t kind, offset, size; /* offset from the start of the key (or value) */
} KnDictField;

enum { KN_DICT_MAX_FIELDS = 16, KN_DICT_MAX_REFS = 32 };

typedef struct KnDictLayout {
    int32_t esize, koff, ksize, voff, vsize; /* entry size; key and value offsets and sizes */
    int32_t key_bytes;                       /* 1: keys compare as ksize bytes (no F64/STR) */
    int32_t nkf, nvf, nrefs;                 /* counts of kf, vf, refs */
    int32_t val_cmp;                         /* 1: values can be compared (vf) */
    KnDictField kf[KN_DICT_MAX_FIELDS];      /* the key's parts (when !key_bytes) */
    KnDictField vf[KN_DICT_MAX_FIELDS];      /* the value's parts (for ==) */
    int32_t refs[KN_DICT_MAX_REFS];          /* offsets in an entry of KnMemInfo * it holds */
    int32_t key_refs;                        /* refs[0..key_refs) are in the key */
} KnDictLayout;

typedef struct KnDict {
    int64_t used;     /* live entries (len) */
    int64_t nentries; /* entries written, live or deleted */
    int64_t capacity; /* entries allocated */
    int64_t mask;     /* index slots - 1 */
    int32_t *index;
    char *entries; /* capacity * esize bytes; a deleted entry's hash is -1 */
    int64_t first; /* no live entry before this one */
    KnDictLayout lay;
    int32_t typed; /* a kiln.typed.Dict's table: returned as one (dispatch/typed_dict.c) */
} KnDict;

enum {
    KN_DICT_OFF_USED = 0,
    KN_DICT_OFF_NENTRIES = 8,
    KN_DICT_OFF_MASK = 24,
    KN_DICT_OFF_INDEX = 32,
    KN_DICT_OFF_ENTRIES = 40
};

/* a new empty table (refcount 1) with room for `hint` entries; NULL when out of memory */
KnMemInfo *kn_rt_dict_new(const KnDictLayout *lay, int64_t hint);
/* the entry number of key (hash: CPython's hash of it, or -1 for a str key: hashed here), or
 * -1. The same hash rule holds for insert, store and set. */
int64_t kn_rt_dict_lookup(KnMemInfo *mi, const void *key, int64_t hash);
/* the entry of key, made when missing (key copied, hash stored, value zeroed; *added = 1);
 * -1 when out of memory. The caller takes references for a new key and stores the value. */
int64_t kn_rt_dict_insert(KnMemInfo *mi, const void *key, int64_t hash, int32_t *added);
/* the entry of a key known to be absent (compiled code probed inline): made as by insert */
int64_t kn_rt_dict_add_new(KnMemInfo *mi, const void *key, int64_t hash);
/* d[key] = value: the entry, made when missing (references taken for a new key), the old
 * value's references released, value's bytes copied in and references taken for them; -1
 * when out of memory. Strs are left as given (kn_rt_dict_own_strs). */
int64_t kn_rt_dict_store(KnMemInfo *mi, const void *key, int64_t hash, const void *value);
/* d[key] = value as compiled code does it in one call: kn_rt_dict_store, then the strs of a
 * new key and of the value owned (kn_rt_dict_own_strs); the entry, or -1 out of memory */
int64_t kn_rt_dict_set(KnMemInfo *mi, const void *key, int64_t hash, const void *value);
/* a new reference to each counted pointer of entry ix's key (part 1) or value (part 2), as a
 * copy read out of the table needs */
void kn_rt_dict_take_refs(KnMemInfo *mi, int64_t ix, int32_t part);
/* the strs of entry ix's key (part 1) or value (part 2) that are borrowed from Python objects
 * (runtime/str.h) replaced by owned copies, so that the table may outlive those objects; 0, or
 * -1 out of memory */
int32_t kn_rt_dict_own_strs(KnMemInfo *mi, int64_t ix, int32_t part);
/* delete entry ix: its key's references are released, and its value's when release_value */
void kn_rt_dict_remove(KnMemInfo *mi, int64_t ix, int32_t release_value);
/* the first (last: 1) live entry, or -1 when empty */
int64_t kn_rt_dict_end(KnMemInfo *mi, int32_t last);
/* entries made dense again (deleted ones dropped, order kept): iteration by position */
void kn_rt_dict_compact(KnMemInfo *mi);
void kn_rt_dict_clear(KnMemInfo *mi);
KnMemInfo *kn_rt_dict_copy(KnMemInfo *mi); /* NULL when out of memory */
/* a[k] = v for every entry of b (same layout), or a.add(k) for a set: 0, -1 out of memory */
int32_t kn_rt_dict_update(KnMemInfo *a, KnMemInfo *b);
int32_t kn_rt_dict_equal(KnMemInfo *a, KnMemInfo *b); /* same keys and (==) values */
/* the same with values compared by eq (1 equal, 0 not, < 0 a status returned as it is) */
int32_t kn_rt_dict_equal_by(KnMemInfo *a, KnMemInfo *b, int32_t (*eq)(const void *, const void *));
/* 1 when a value of a's entries equals *value by eq, else 0 (or eq's negative status) */
int32_t kn_rt_dict_find_value(KnMemInfo *a, const void *value,
                              int32_t (*eq)(const void *, const void *));
/* sets: a new set a | b, a & b, a - b, a ^ b (op is one of these); NULL when out of memory */
enum { KN_SET_OR, KN_SET_AND, KN_SET_SUB, KN_SET_XOR };
KnMemInfo *kn_rt_set_binop(KnMemInfo *a, KnMemInfo *b, int32_t op);
int32_t kn_rt_set_subset(KnMemInfo *a, KnMemInfo *b); /* every key of a is in b */
/* in place: a &= b, a -= b, a ^= b (a |= b is kn_rt_dict_update); 0, -1 out of memory */
int32_t kn_rt_set_inplace(KnMemInfo *a, KnMemInfo *b, int32_t op);

/* the text of a str key that KeyError names (kept until the next call), and reading it back */
void kn_rt_dict_key_error_str(const void *key);
const void *kn_rt_dict_key_error_text(int32_t *kind, int64_t *length);

/* CPython's hash of a float (for ints and tuples compiled code computes it inline); nan: 0 */
int64_t kn_rt_hash_double(double x);
int64_t kn_rt_hash_int_slow(int64_t x, int32_t is_unsigned); /* |x| >= 2**61 - 1 */

#endif
