/* types.h - kiln's type system: interned types (pointer equality is type equality), their
 * memory layout, printing, and the Numba-compatible rules for unifying and promoting them.
 * Primitive types are static singletons; composite types live in a long-lived KnTypeTable. */
#ifndef KN_TYPES_H
#define KN_TYPES_H

#include "base/base.h"

/* The kinds of type: one line each in types/kinds.def, which also names each kind's model in
 * every layer (types/model.h, lower/internal.h, dispatch/box_model.h). */
typedef enum KnTypeKind {
#define X(kind, name, tm, lm, bm, flags) KN_TY_##kind,
#include "types/kinds.def"
#undef X
    KN_TY_COUNT
} KnTypeKind;

enum {
    KN_KIND_VALUE = 1,  /* a run-time value (has a layout); else a compile-time value */
    KN_KIND_NUMBER = 2, /* bool, int, float, complex */
};

/* kinds.def's flags column, by kind */
static inline int
kn_kind_flags(KnTypeKind k)
{
    switch (k) {
#define X(kind, name, tm, lm, bm, flags)                                                           \
    case KN_TY_##kind:                                                                             \
        return flags;
#include "types/kinds.def"
#undef X
    default:
        return 0;
    }
}
const char *kn_kind_name(KnTypeKind k); /* kinds.def's name column */

/* The iterator kinds (KN_TY_ITER's id, GETITER's aux). SEQ iterates over an iterable: items[0]
 * (a range object, a tuple of one item type, an array; the iterables themselves are told apart
 * in typing/iter.c and lower/iter.c). ENUMERATE: items[0] the inner iterator, items[1] the
 * start's type. ZIP: items are the iterators. SEQ, ENUMERATE and ZIP are indexed: the length is
 * known before the loop and item k can be computed directly. RANGE is `for` over range(start,
 * stop, step) with a literal step: items are int64 start, stop and step, GETITER's args[2] is
 * the step as a nonzero int64 constant, and the item is the counter itself (lowered as the
 * counted loop: an induction variable compared with stop by the step's sign); it is made only
 * at a for loop's head, never inside enumerate() or zip(). GEN (set by typing on a SEQ over a
 * generator value) is not indexed: each step resumes the generator's frame (lower/generators.c);
 * made only at a for loop's head for now. */
typedef enum KnIterKind {
    KN_ITER_SEQ,
    KN_ITER_ENUMERATE,
    KN_ITER_ZIP,
    KN_ITER_RANGE,
    KN_ITER_GEN
} KnIterKind;

/* Builtin callables known to typing and lowering: see lib/registry.def. A KN_TY_FUNC's id is
 * the registry entry, or one of these. */
typedef int KnBuiltinId;
enum {
    KN_FUNC_JITTED = -1,   /* ref: a dispatcher */
    KN_FUNC_OVERLOAD = -2, /* ref: a callable implemented in Python (kiln.extending) */
    KN_FUNC_CLOSURE = -3,  /* ref: the dispatcher of a lifted inner function; item 0 of a closure
                              tuple (its captured values follow: typing/functions.c) */
    KN_FUNC_CHOICE = -4,   /* one of items[0..n) (jitted functions), chosen at run time: an int64
                              index into items (Numba's FunctionType; model_misc.c) */
};

typedef struct KnType KnType;
typedef struct KnRecordField KnRecordField;

/* A TUPLE's id: a plain tuple, or an instance of a namedtuple class (collections.namedtuple,
 * typing.NamedTuple; ref the class, fields the names: model_namedtuple.c). A CLASS's id
 * KN_CLASS_NAMEDTUPLE: such a class (ref), which a call constructs (frontend/namedtuple.c). */
enum { KN_TUPLE_PLAIN = 0, KN_TUPLE_NAMED = 1 };
enum { KN_CLASS_NAMEDTUPLE = 4, KN_CLASS_ENUM = 5 };
/* A CLASS's id KN_CLASS_DTYPE: a structured np.dtype object (ref) that compiled code names, dtype
 * its record type (np.empty(n, dtype=rec_dtype): frontend/record.c) */
enum { KN_CLASS_DTYPE = 6 };
/* An ENUM's id: an enum.Enum member, or an enum.IntEnum member (which is also an int). */
enum { KN_ENUM_PLAIN = 0, KN_ENUM_INT = 1 };

struct KnType {
    KnTypeKind kind;
    int bits;       /* INT, FLOAT, COMPLEX */
    int is_signed;  /* INT */
    int n;          /* TUPLE: item count */
    KnType **items; /* TUPLE items; BOUND: items[0] = self type */
    int id;         /* FUNC: registry entry or KN_FUNC_*; MODULE, CLASS: an id */
    void *ref; /* FUNC: dispatcher (borrowed, kept alive by the compiling code); CLASS: PyObject */
    const char *name; /* printed name (interned types own it) */
    uint64_t hash;
    KnType *chain; /* next interned type with the same hash */
    KnType *dtype; /* ARRAY: element type; LIST: item type */
    int ndim;      /* ARRAY */
    char layout;   /* ARRAY: 'C', 'F' or 'A' (any strides) */
    int readonly;  /* ARRAY: writing is a compile-time error */
    /* TUPLE of a namedtuple (id KN_TUPLE_NAMED, ref its class): the n field names. ENUM: the
     * names of its nvalues members, and their values */
    const char **fields;
    int nvalues;
    const int64_t *values;
    const KnRecordField *record; /* RECORD: its n fields (model_record.c) */
    void *descr; /* RECORD: the NumPy dtype object it was first read from (boxing), not interned */
};

/* A field of a structured dtype (RECORD): its name, element type (a number, a nested record,
 * str for a fixed-length 'U' or 'S' field: chars says which and nchars how many), byte offset,
 * and for a fixed-size sub-array field its shape (ndim > 0), size the bytes of the whole field. */
struct KnRecordField {
    const char *name;
    KnType *type;
    int64_t offset, size;
    int ndim;
    int64_t shape[8];
    char chars;
    int64_t nchars;
};

/* The static singletons. */
extern KnType kn_type_bool, kn_type_int8, kn_type_int16, kn_type_int32, kn_type_int64;
extern KnType kn_type_uint8, kn_type_uint16, kn_type_uint32, kn_type_uint64;
extern KnType kn_type_float16, kn_type_float32, kn_type_float64, kn_type_complex64,
    kn_type_complex128;
extern KnType kn_type_none, kn_type_str, kn_type_range, kn_type_slice, kn_type_ellipsis;
extern KnType kn_type_np_generator; /* np.random.Generator (types/model_np_random.c) */

typedef struct KnTypeTable {
    KnMap map;     /* hash -> bucket (KnTypeBucket) */
    KnArena arena; /* composite types live here for the life of the process */
} KnTypeTable;

void kn_types_init(KnTypeTable *t);
void kn_types_fini(KnTypeTable *t);

KnType *kn_type_int(int bits, int is_signed);
KnType *kn_type_float(int bits);
KnType *kn_type_tuple(KnTypeTable *t, KnType **items, int n);
KnType *kn_type_func(KnTypeTable *t, int builtin_id, void *ref, const char *name);
/* the function value that is one of the jitted functions of a and b (each a jitted function or
 * a choice), or NULL when one of them is not (model_misc.c) */
KnType *kn_type_func_choice(KnTypeTable *t, KnType *a, KnType *b);
int kn_type_func_index(const KnType *choice, const KnType *f); /* f's index in choice, or -1 */
/* the choice among items[0..n) as given (the KIR reader's FunctionType[a, b]) */
KnType *kn_type_func_choice_of(KnTypeTable *t, KnType **items, int n);
KnType *kn_type_module(KnTypeTable *t, int id, const char *name);
KnType *kn_type_class(KnTypeTable *t, int id, void *ref, const char *name);
KnType *kn_type_bound(KnTypeTable *t, KnType *self, const char *method);
KnType *kn_type_iter(KnTypeTable *t, KnIterKind kind, KnType **items, int n, KnType *item);
/* np.iinfo(dtype) / np.finfo(dtype) (model_misc.c): id its registry entry, fname its name */
KnType *kn_type_info(KnTypeTable *t, int id, KnType *dtype, const char *fname);
KnType *kn_type_by_name(const char *name); /* primitives by key name, NULL if none */
/* list(item): item NULL for a list whose item type is not known yet (`[]`) (model_list.c) */
KnType *kn_type_list(KnTypeTable *t, KnType *item);
/* a generator of the compiled generator `symbol` yielding `item` (model_gen.c) */
KnType *kn_type_gen(KnTypeTable *t, KnType *item, const char *symbol);
/* dicts and sets (model_dict.c): a dict of key k and value v, or one of its views (d.keys(),
 * d.values(), d.items(): the same table, iterated otherwise); a set of key k */
typedef enum KnDictView { KN_DICT_SELF, KN_DICT_KEYS, KN_DICT_VALUES, KN_DICT_ITEMS } KnDictView;
KnType *kn_type_dict(KnTypeTable *t, KnType *k, KnType *v, KnDictView view);
KnType *kn_type_set(KnTypeTable *t, KnType *k);
KnType *kn_type_array(KnTypeTable *t, KnType *dtype, int ndim, char layout, int readonly);
/* Optional[value] (model_optional.c); the common type of a and b when one of them is None or
 * optional (None and int64: optional(int64)), else NULL */
KnType *kn_type_optional(KnTypeTable *t, KnType *value);
/* the namedtuple type of class `cls` (named `name`, fields[n]) holding items[n]
 * (model_namedtuple.c); the index of field `name` of a namedtuple type, or -1 */
KnType *kn_type_namedtuple(KnTypeTable *t, void *cls, const char *name, const char *const *fields,
                           KnType **items, int n);
int kn_type_field_index(const KnType *t, const char *name);
/* the namedtuple type of like's class holding items[like->n] */
KnType *kn_type_namedtuple_like(KnTypeTable *t, const KnType *like, KnType **items);
/* the type of the members of enum class `cls` (model_enum.c): int values (dtype int64), id
 * KN_ENUM_INT for an IntEnum, the members' names and values (copied) */
KnType *kn_type_enum(KnTypeTable *t, void *cls, const char *name, int is_int, int n,
                     const char *const *names, const int64_t *values);
/* the record type of a structured dtype (model_record.c): fields[n] (copied), itemsize,
 * alignment, aligned (np.dtype(..., align=True)); the index of field `name`, or -1 */
KnType *kn_type_record(KnTypeTable *t, const KnRecordField *fields, int n, int64_t itemsize,
                       int align, int aligned);
int kn_type_record_field(const KnType *t, const char *name);
/* np.datetime64 / np.timedelta64 of a unit (model_datetime.c): NumPy's NPY_DATETIMEUNIT codes.
 * Y and M are calendar units, W to as linear ones, GENERIC a unit-less value (np.timedelta64(5))
 * that takes the other operand's unit. */
typedef enum KnTimeUnit {
    KN_TU_Y = 0,
    KN_TU_M = 1,
    KN_TU_W = 2,
    KN_TU_D = 4,
    KN_TU_H = 5,
    KN_TU_MIN = 6,
    KN_TU_S = 7,
    KN_TU_MS = 8,
    KN_TU_US = 9,
    KN_TU_NS = 10,
    KN_TU_PS = 11,
    KN_TU_FS = 12,
    KN_TU_AS = 13,
    KN_TU_GENERIC = 14,
} KnTimeUnit;
KnType *kn_type_datetime(KnTypeTable *t, int is_delta, int unit); /* NULL for a bad unit */
const char *kn_type_time_unit_name(int unit);                     /* "s", "ms"; NULL if bad */
int kn_type_time_unit_by_name(const char *name);                  /* -1 if none */
/* the unit both a and b (datetime or timedelta units) convert to, or -1 when they cannot:
 * a calendar unit (Y, M) meets a linear one only where its side is a datetime
 * (a_is_date / b_is_date), as NumPy converts dates by the calendar */
int kn_type_time_common(int a, int a_is_date, int b, int b_is_date);
KnType *kn_type_optional_unify(KnTypeTable *t, KnType *a, KnType *b);
/* NumPy's promotion of two array dtypes (int8 + int8 is int8, unlike Numba's scalars). */
KnType *kn_type_numpy_promote(KnType *a, KnType *b);
/* How a value of type `from` converts to `to`, as Numba's dispatcher rates a candidate
 * signature (conversion.c): the larger, the worse; KN_CONV_NONE when it does not convert. */
typedef enum KnConversion {
    KN_CONV_EXACT,
    KN_CONV_PROMOTE, /* a wider type of the same kind: int8 -> int64, float32 -> float64 */
    KN_CONV_SAFE,    /* no precision lost: int32 -> float64, an array to layout 'A' */
    KN_CONV_UNSAFE,  /* may lose: float -> int (truncates), int64 -> int32, int32 -> float32 */
    KN_CONV_NONE,
} KnConversion;
KnConversion kn_type_conversion(KnType *from, KnType *to);

static inline int
kn_type_is_int(const KnType *t)
{
    return t->kind == KN_TY_INT;
}
static inline int
kn_type_is_number(const KnType *t)
{
    return (kn_kind_flags(t->kind) & KN_KIND_NUMBER) != 0;
}
/* a tuple whose items are numbers or tuples of them (types.c) */
int kn_type_all_numbers(const KnType *t);
static inline int
kn_type_is_value(const KnType *t)
{
    return (kn_kind_flags(t->kind) & KN_KIND_VALUE) != 0;
}

/* Layout of a value in memory (the dispatcher's argument buffer and return slot). */
size_t kn_type_size(const KnType *t);
size_t kn_type_align(const KnType *t);
size_t kn_type_tuple_offset(const KnType *t, int i);
/* The dispatcher's argument buffer: argument i lives at this offset (natural alignment). */
size_t kn_type_arg_offset(KnType *const *args, int i);
size_t kn_type_args_size(KnType *const *args, int n);

/* Unification (a variable assigned values of types a and b) and arithmetic promotion. NULL when
 * they do not unify. */
KnType *kn_type_unify(KnTypeTable *t, KnType *a, KnType *b);
KnType *kn_type_promote(KnType *a, KnType *b); /* numbers only: result of a + b */
int kn_type_can_convert_safely(const KnType *from, const KnType *to);

#endif
