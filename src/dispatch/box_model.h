/* box_model.h - the boxing model of a kind (types/kinds.def names it: kn_box_model_<bm>, in
 * dispatch/box_*.c): how values of the kind cross between Python objects and compiled code.
 * box.c dispatches kn_box_unbox, kn_box_box and kn_box_key through it, and builds from the
 * models' `pytype` the one table behind kn_box_typeof (exact Python type -> typeof). A NULL
 * operation takes the default written beside it. Internal to dispatch/. */
#ifndef KN_DISPATCH_BOX_MODEL_H
#define KN_DISPATCH_BOX_MODEL_H

#include "dispatch/dispatch.h"

typedef struct KnBoxModel {
    /* the exact Python type whose objects `typeof` types (a function: some type objects are
     * not constants, NumPy's ndarray); NULL: no Python type maps to this kind directly */
    PyTypeObject *(*pytype)(void);
    KnType *(*typeof)(KnState *s, PyObject *o); /* NULL with an error set */
    /* write o as a value of t in t's C layout at dst: 0, or -1 with an error set; NULL: a
     * TypeError (compiled code cannot take the kind) */
    int (*unbox)(KnType *t, PyObject *o, char *dst);
    /* the Python object for t's value at src (taking over its references); NULL: a TypeError */
    PyObject *(*box)(KnType *t, const char *src);
    PyObject *(*key)(KnType *t); /* the type key (docs/core-api.md); NULL: t's name */
    /* a key that is a tuple (tag, ...): the kind's tag, and the type it names (NULL with an
     * error set); NULL: the kind's keys are names (kn_type_by_name) */
    const char *tag;
    KnType *(*from_key)(KnState *s, PyObject *key);
    /* a second exact Python type that `typeof` types (kiln.typed.List beside list); NULL: none */
    PyTypeObject *(*pytype2)(void);
    /* after a call: drop the references that unbox made at src; NULL: unbox makes none */
    void (*release)(KnType *t, char *src);
} KnBoxModel;

#define X(kind, name, tm, lm, bm, flags) extern const KnBoxModel kn_box_model_##bm;
#include "types/kinds.def"
#undef X

/* reflection (box_list.c): record a native copy mi of type t made from a Python list (set
 * NULL: KnList.pyobj names it) or from the Python set `set`, a reference taken; 0, or -1 with
 * MemoryError. box_dict.c: write a set's table back into its Python set o; 0 or -1 */
int kn_box_reflect_record(KnMemInfo *mi, KnType *t, PyObject *set);
int kn_box_set_write_back(KnType *t, KnMemInfo *mi, PyObject *o);
/* box.c: the `release` of a kind whose value is one counted pointer (lists, dicts): its
 * reference dropped */
void kn_box_release_meminfo(KnType *t, char *src);
/* box.c: the kiln type of a dtype by its kind character and size (types/dtypes.def), or NULL */
KnType *kn_box_dtype_by_kind(char kind, int size);
/* box_array.c: 0 if compiled code may take ndarray (sub)class instance o, else -1 with a
 * TypeError; typeof of an ndarray or an accepted subclass */
int kn_box_check_subclass(PyObject *o);
KnType *kn_box_typeof_array(KnState *s, PyObject *o);
/* box_array.c: bytes, bytearray and memoryview are 1-d uint8 C arrays over their bytes
 * (read-only for bytes and read-only memoryviews), for np.frombuffer as in Numba; a memoryview
 * that is not C-contiguous is a TypeError */
KnType *kn_box_typeof_buffer(KnState *s, PyObject *o);
/* box_namedtuple.c: typeof of an instance of a tuple subclass: its namedtuple type, NULL (no
 * error) when the class is no namedtuple, (KnType *)-1 with an error set; the instance of t's
 * class made from items (a tuple; its reference taken over) */
KnType *kn_box_typeof_namedtuple(KnState *s, PyObject *o);
PyObject *kn_box_namedtuple_make(KnType *t, PyObject *items);
/* its key ("namedtuple", cls, item keys...) and the type such a key names (NULL, error set) */
PyObject *kn_box_namedtuple_key(KnType *t);
KnType *kn_box_namedtuple_from_key(KnState *s, PyObject *key);
/* box_enum.c: typeof of an enum member, NULL (no error) when o is none, (KnType *)-1 with an
 * error set */
KnType *kn_box_typeof_enum(KnState *s, PyObject *o);
Py_hash_t kn_box_key_hash(const KnType *t, PyObject *o); /* box_enum.c */
/* box_record.c: the record type of a structured dtype (NULL with a TypeError); whether o is
 * an np.recarray (taken as a plain array of records) */
KnType *kn_box_record_type(KnState *s, PyObject *descr);
int kn_box_is_recarray(PyObject *o);
/* box_datetime.c: the type of a datetime64/timedelta64 dtype (NULL with a TypeError); the
 * dtype of such a type (a new reference) */
KnType *kn_box_datetime_dtype(KnState *s, PyObject *d);
PyObject *kn_box_datetime_descr(const KnType *t);
/* box_number.c: typeof of a Python int (int64, or uint64 past int64's range) */
KnType *kn_box_typeof_int(KnState *s, PyObject *o);

/* lists (box_list.c, typed_list.c): a new list of type t from n Python items (NULL with an
 * error set); a kiln.typed.List's type and meminfo; a typed.List wrapping mi (taking over its
 * reference) */
KnMemInfo *kn_box_list_from_items(KnType *t, PyObject *const *items, Py_ssize_t n);
/* dicts (typed_dict.c): a kiln.typed.Dict's type (NULL: not known yet) and table; a table as a
 * new typed.Dict (taking over the reference) */
KnType *kn_typed_dict_type(PyObject *o);
KnMemInfo *kn_typed_dict_mi(PyObject *o);
PyObject *kn_typed_dict_wrap(KnMemInfo *mi, KnType *t);
/* typed_common.c, for both: typeof o for an item of a container that outlives the call (an
 * array is a TypeError with message `refusal`); t as a kiln.types object (None for NULL);
 * ==/!= of self (a typed container) with other: builtin's instances and self's type compare
 * through as_py (a Python copy of the items), others are NotImplemented */
KnType *kn_typed_item_type(PyObject *o, const char *refusal);
/* unbox o as an item of a typed container at dst (arrays held: typed_common.c); 0 or -1 */
int kn_typed_unbox(KnType *t, PyObject *o, char *dst);
/* the same hold for the items of a list unboxed in one loop (kn_box_list_from_items) */
struct KnList;
int kn_typed_hold_arrays(KnType *t, struct KnList *l);
PyObject *kn_typed_type_object(KnType *t);
PyObject *kn_typed_richcompare(PyObject *self, PyObject *other, int op, PyTypeObject *builtin,
                               PyObject *(*as_py)(PyObject *));
KnType *kn_typed_list_type(PyObject *o);
KnMemInfo *kn_typed_list_mi(PyObject *o);
PyObject *kn_typed_list_wrap(KnMemInfo *mi, KnType *t);

#endif
