/* test_types.c - unit tests for src/types: primitive singletons and kn_type_by_name, interning
 * (equal composite types are the same pointer), printed names, memory layout checked against
 * what the C compiler lays out for the equivalent struct (sizeof, _Alignof, offsetof), the
 * dispatcher's argument buffer offsets, and Numba's unification / promotion / safe-conversion
 * rules. One program; prints one line per failed check (file:line); exits nonzero on failure. */
#include "types/types.h"
#include "runtime/str.h"

#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A type check that prints names: CHECK_TY(kn_type_unify(...), &kn_type_int16). */
#define CHECK_TY(got, want)                                                                        \
    do {                                                                                           \
        const KnType *tg_ = (got), *tw_ = (want);                                                  \
        checks++;                                                                                  \
        if (tg_ != tw_) {                                                                          \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s is %s (got %s)\n", __FILE__, __LINE__, #got,  \
                    tw_ ? tw_->name : "NULL", tg_ ? tg_->name : "NULL");                           \
        }                                                                                          \
    } while (0)

static KnTypeTable T;

#define B (&kn_type_bool)
#define I8 (&kn_type_int8)
#define I16 (&kn_type_int16)
#define I32 (&kn_type_int32)
#define I64 (&kn_type_int64)
#define U8 (&kn_type_uint8)
#define U16 (&kn_type_uint16)
#define U32 (&kn_type_uint32)
#define U64 (&kn_type_uint64)
#define F32 (&kn_type_float32)
#define F64 (&kn_type_float64)
#define C64 (&kn_type_complex64)
#define C128 (&kn_type_complex128)
#define NONE (&kn_type_none)
#define STR (&kn_type_str)
#define RANGE (&kn_type_range)

static KnType *
tup2(KnType *a, KnType *b)
{
    KnType *items[2] = {a, b};
    return kn_type_tuple(&T, items, 2);
}

static KnType *
tup3(KnType *a, KnType *b, KnType *c)
{
    KnType *items[3] = {a, b, c};
    return kn_type_tuple(&T, items, 3);
}

/* ---- primitives ---- */

static void
test_primitives(void)
{
    static const struct {
        const char *name;
        KnType *t;
    } table[] = {
        {"bool", B},          {"int8", I8},     {"int16", I16},   {"int32", I32},
        {"int64", I64},       {"uint8", U8},    {"uint16", U16},  {"uint32", U32},
        {"uint64", U64},      {"float32", F32}, {"float64", F64}, {"complex64", C64},
        {"complex128", C128}, {"none", NONE},   {"str", STR},
    };
    for (int i = 0; i < KN_ARRAY_LEN(table); i++) {
        CHECK_TY(kn_type_by_name(table[i].name), table[i].t);
        CHECK_STR(table[i].t->name, table[i].name);
    }
    CHECK_TY(kn_type_by_name("range"), RANGE); /* the key name of a range object */
    CHECK(kn_type_by_name("int") == NULL);
    CHECK(kn_type_by_name("float") == NULL);
    CHECK(kn_type_by_name("Int64") == NULL);
    CHECK(kn_type_by_name("int64 ") == NULL);
    CHECK(kn_type_by_name("") == NULL);
    CHECK(kn_type_by_name("tuple") == NULL);

    CHECK(B->kind == KN_TY_BOOL);
    CHECK(I32->kind == KN_TY_INT && I32->bits == 32 && I32->is_signed);
    CHECK(U16->kind == KN_TY_INT && U16->bits == 16 && !U16->is_signed);
    CHECK(F32->kind == KN_TY_FLOAT && F32->bits == 32);
    CHECK(C128->kind == KN_TY_COMPLEX && C128->bits == 128);
    CHECK(NONE->kind == KN_TY_NONE && STR->kind == KN_TY_STR && RANGE->kind == KN_TY_RANGE);

    int bits[] = {8, 16, 32, 64};
    KnType *s[] = {I8, I16, I32, I64}, *u[] = {U8, U16, U32, U64};
    for (int i = 0; i < 4; i++) {
        CHECK_TY(kn_type_int(bits[i], 1), s[i]);
        CHECK_TY(kn_type_int(bits[i], 0), u[i]);
    }
    CHECK_TY(kn_type_float(32), F32);
    CHECK_TY(kn_type_float(64), F64);

    CHECK(kn_type_is_int(I8) && kn_type_is_int(U64) && !kn_type_is_int(B) && !kn_type_is_int(F32));
    CHECK(kn_type_is_number(B) && kn_type_is_number(I64) && kn_type_is_number(F32) &&
          kn_type_is_number(C64));
    CHECK(!kn_type_is_number(NONE) && !kn_type_is_number(STR) && !kn_type_is_number(RANGE) &&
          !kn_type_is_number(tup2(I64, I64)));
    CHECK(kn_type_is_value(I64) && kn_type_is_value(NONE) && kn_type_is_value(STR) &&
          kn_type_is_value(RANGE) && kn_type_is_value(tup2(I64, F64)));
    CHECK(!kn_type_is_value(kn_type_module(&T, 1, "math")));
    CHECK(!kn_type_is_value(kn_type_func(&T, 3, NULL, "abs")));
}

/* ---- interning ---- */

static void
test_interning(void)
{
    KnType *a = tup2(I64, F64);
    KnType *items[2] = {I64, F64};
    CHECK(a == kn_type_tuple(&T, items, 2)); /* a fresh items array: same type */
    CHECK(a->kind == KN_TY_TUPLE && a->n == 2 && a->items[0] == I64 && a->items[1] == F64);
    CHECK(a->items != items); /* the table owns a copy of the items */
    items[0] = F32;           /* ... so changing the caller's array changes nothing */
    CHECK(a->items[0] == I64);
    CHECK_STR(a->name, "Tuple(int64, float64)");

    CHECK(tup2(F64, I64) != a); /* order matters */
    CHECK(tup2(I64, I64) != a);
    CHECK(tup3(I64, F64, I64) != a);
    CHECK_STR(tup2(I64, I64)->name, "UniTuple(int64, 2)");
    CHECK(tup2(I64, I64) == tup2(I64, I64));

    /* nesting */
    KnType *n1 = tup2(a, tup2(B, U8));
    KnType *n2 = tup2(tup2(I64, F64), tup2(B, U8));
    CHECK(n1 == n2);
    CHECK_STR(n1->name, "Tuple(Tuple(int64, float64), Tuple(bool, uint8))");
    CHECK(tup2(a, a) == tup2(tup2(I64, F64), tup2(I64, F64)));
    CHECK_STR(tup2(a, a)->name, "UniTuple(Tuple(int64, float64), 2)");

    /* empty and 1-tuples */
    KnType *e = kn_type_tuple(&T, NULL, 0);
    KnType *e2 = kn_type_tuple(&T, items, 0);
    CHECK(e == e2);
    CHECK(e->kind == KN_TY_TUPLE && e->n == 0);
    KnType *one_items[1] = {I32};
    KnType *one = kn_type_tuple(&T, one_items, 1);
    CHECK(one == kn_type_tuple(&T, one_items, 1));
    CHECK(one != I32 && one != e);
    CHECK_STR(one->name, "UniTuple(int32, 1)");

    /* a long tuple */
    KnType *many[40];
    for (int i = 0; i < 40; i++)
        many[i] = i % 2 ? F64 : I64;
    KnType *big = kn_type_tuple(&T, many, 40);
    CHECK(big == kn_type_tuple(&T, many, 40));
    CHECK(big->n == 40 && big->items[39] == F64);

    /* other composite types */
    int dummy1, dummy2;
    KnType *f1 = kn_type_func(&T, 5, NULL, "abs");
    CHECK(f1 == kn_type_func(&T, 5, NULL, "abs"));
    CHECK(f1->kind == KN_TY_FUNC && f1->id == 5);
    CHECK_STR(f1->name, "abs");
    CHECK(f1 != kn_type_func(&T, 6, NULL, "abs"));
    KnType *f2 = kn_type_func(&T, -1, &dummy1, "helper");
    CHECK(f2 == kn_type_func(&T, -1, &dummy1, "helper"));
    CHECK(f2 != kn_type_func(&T, -1, &dummy2, "helper")); /* another dispatcher */
    CHECK(f2->ref == &dummy1);
    /* with no object behind them (the KIR reader's callees and classes), names tell apart */
    KnType *o1 = kn_type_func(&T, -1, NULL, "check_input");
    CHECK(o1 == kn_type_func(&T, -1, NULL, "check_input"));
    CHECK(o1 != kn_type_func(&T, -1, NULL, "square_checked"));
    CHECK_STR(kn_type_func(&T, -1, NULL, "square_checked")->name, "square_checked");
    CHECK(kn_type_class(&T, 1, NULL, "KeyError") != kn_type_class(&T, 1, NULL, "IndexError"));
    CHECK(kn_type_func(&T, -1, &dummy1, "other") == f2); /* a dispatcher: its object decides */

    KnType *m1 = kn_type_module(&T, 1, "math");
    CHECK(m1 == kn_type_module(&T, 1, "math"));
    CHECK(m1->kind == KN_TY_MODULE);
    CHECK_STR(m1->name, "math");
    CHECK(m1 != kn_type_module(&T, 1, "cmath"));

    KnType *c1 = kn_type_class(&T, 2, &dummy1, "ValueError");
    CHECK(c1 == kn_type_class(&T, 2, &dummy1, "ValueError"));
    CHECK(c1 != kn_type_class(&T, 2, &dummy2, "ValueError"));
    CHECK(c1->kind == KN_TY_CLASS && c1->ref == &dummy1);

    KnType *b1 = kn_type_bound(&T, a, "count");
    CHECK(b1 == kn_type_bound(&T, tup2(I64, F64), "count"));
    CHECK(b1 != kn_type_bound(&T, a, "index"));
    CHECK(b1 != kn_type_bound(&T, tup2(I64, I64), "count"));
    CHECK(b1->kind == KN_TY_BOUND && b1->n == 1 && b1->items[0] == a);
    CHECK_STR(b1->name, "count");
    /* a method name built in a temporary buffer: the table keeps its own copy */
    char tmp[16];
    strcpy(tmp, "index");
    KnType *b2 = kn_type_bound(&T, a, tmp);
    strcpy(tmp, "xxxxx");
    CHECK(b2 == kn_type_bound(&T, a, "index"));
    CHECK_STR(b2->name, "index");

    /* different kinds never merge, even with equal fields */
    CHECK((void *)kn_type_module(&T, 9, "x") != (void *)kn_type_func(&T, 9, NULL, "x"));
    CHECK((void *)kn_type_class(&T, 9, NULL, "x") != (void *)kn_type_func(&T, 9, NULL, "x"));
}

static void
test_interning_stress(void)
{
    /* 3-tuples over 12 scalar types (1728 of them), then pairs of those: ~10^4 types, each built
     * twice from fresh arrays, must come back as the same pointer and all be distinct */
    KnType *scal[] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C128};
    enum { S = KN_ARRAY_LEN(scal), N3 = S * S * S, NP = 6000 };
    KnType **first = malloc(sizeof(KnType *) * N3);
    for (int i = 0; i < N3; i++)
        first[i] = tup3(scal[i % S], scal[i / S % S], scal[i / (S * S)]);
    int bad = 0;
    for (int i = 0; i < N3; i++)
        bad += tup3(scal[i % S], scal[i / S % S], scal[i / (S * S)]) != first[i];
    CHECK_EQ_INT(bad, 0);
    KnMap seen;
    kn_map_init(&seen);
    int dup = 0;
    for (int i = 0; i < N3; i++) {
        dup += kn_map_get(&seen, (uint64_t)(uintptr_t)first[i]) != NULL;
        kn_map_put(&seen, (uint64_t)(uintptr_t)first[i], first[i]);
    }
    CHECK_EQ_INT(dup, 0);
    KnType **pairs = malloc(sizeof(KnType *) * NP);
    for (int i = 0; i < NP; i++) {
        pairs[i] = tup2(first[i % N3], first[(i / N3 + i * 7 + 3) % N3]);
        dup += kn_map_get(&seen, (uint64_t)(uintptr_t)pairs[i]) != NULL;
        kn_map_put(&seen, (uint64_t)(uintptr_t)pairs[i], pairs[i]);
    }
    CHECK_EQ_INT(dup, 0);
    bad = 0;
    for (int i = 0; i < NP; i++)
        bad += tup2(tup3(scal[i % N3 % S], scal[i % N3 / S % S], scal[i % N3 / (S * S)]),
                    first[(i / N3 + i * 7 + 3) % N3]) != pairs[i];
    CHECK_EQ_INT(bad, 0);
    kn_map_fini(&seen);
    free(first);
    free(pairs);

    /* many bound methods and modules with generated names */
    char name[32];
    KnType *bm[500];
    for (int i = 0; i < 500; i++) {
        snprintf(name, sizeof name, "m%d", i);
        bm[i] = kn_type_bound(&T, I64, name);
    }
    bad = 0;
    for (int i = 0; i < 500; i++) {
        snprintf(name, sizeof name, "m%d", i);
        bad += kn_type_bound(&T, I64, name) != bm[i];
        bad += i > 0 && bm[i] == bm[i - 1];
    }
    CHECK_EQ_INT(bad, 0);
}

/* A separate table interns separately: its types are not the other table's pointers, and
 * finishing it leaves no leak (ASan). */
static void
test_second_table(void)
{
    KnTypeTable t2;
    kn_types_init(&t2);
    KnType *items[2] = {I64, F64};
    KnType *x = kn_type_tuple(&t2, items, 2);
    CHECK(x == kn_type_tuple(&t2, items, 2));
    CHECK(x != kn_type_tuple(&T, items, 2));
    CHECK_STR(x->name, "Tuple(int64, float64)");
    kn_types_fini(&t2);
}

/* ---- layout: compare with the C compiler's layout of the same struct ---- */

typedef struct {
    int64_t start, stop, step;
} CRange;

#define CHECK_SIZE_ALIGN(t, ctype)                                                                 \
    do {                                                                                           \
        CHECK_EQ_INT(kn_type_size(t), sizeof(ctype));                                              \
        CHECK_EQ_INT(kn_type_align(t), _Alignof(ctype));                                           \
    } while (0)

static void
test_layout_scalars(void)
{
    CHECK_SIZE_ALIGN(B, _Bool);
    CHECK_SIZE_ALIGN(I8, int8_t);
    CHECK_SIZE_ALIGN(I16, int16_t);
    CHECK_SIZE_ALIGN(I32, int32_t);
    CHECK_SIZE_ALIGN(I64, int64_t);
    CHECK_SIZE_ALIGN(U8, uint8_t);
    CHECK_SIZE_ALIGN(U16, uint16_t);
    CHECK_SIZE_ALIGN(U32, uint32_t);
    CHECK_SIZE_ALIGN(U64, uint64_t);
    CHECK_SIZE_ALIGN(F32, float);
    CHECK_SIZE_ALIGN(F64, double);
    CHECK_SIZE_ALIGN(C64, float _Complex);
    CHECK_SIZE_ALIGN(C128, double _Complex);
    CHECK_SIZE_ALIGN(RANGE, CRange);
    CHECK_EQ_INT(kn_type_size(NONE), 1); /* a placeholder byte */
    CHECK_EQ_INT(kn_type_align(NONE), 1);
    KnType *e = kn_type_tuple(&T, NULL, 0);
    CHECK_EQ_INT(kn_type_size(e), 0);
    CHECK_EQ_INT(kn_type_align(e), 1);
}

/* For each tuple type: a C struct with the same fields; size, alignment and every offset. */
#define CHECK_TUPLE2(ta, ca, tb, cb)                                                               \
    do {                                                                                           \
        struct S2 {                                                                                \
            ca a;                                                                                  \
            cb b;                                                                                  \
        };                                                                                         \
        KnType *t_ = tup2(ta, tb);                                                                 \
        CHECK_SIZE_ALIGN(t_, struct S2);                                                           \
        CHECK_EQ_INT(kn_type_tuple_offset(t_, 0), offsetof(struct S2, a));                         \
        CHECK_EQ_INT(kn_type_tuple_offset(t_, 1), offsetof(struct S2, b));                         \
        KnType *args_[2] = {ta, tb};                                                               \
        CHECK_EQ_INT(kn_type_arg_offset(args_, 0), offsetof(struct S2, a));                        \
        CHECK_EQ_INT(kn_type_arg_offset(args_, 1), offsetof(struct S2, b));                        \
        CHECK_EQ_INT(kn_type_args_size(args_, 2), offsetof(struct S2, b) + sizeof(cb));            \
    } while (0)

#define CHECK_TUPLE3(ta, ca, tb, cb, tc, cc)                                                       \
    do {                                                                                           \
        struct S3 {                                                                                \
            ca a;                                                                                  \
            cb b;                                                                                  \
            cc c;                                                                                  \
        };                                                                                         \
        KnType *t_ = tup3(ta, tb, tc);                                                             \
        CHECK_SIZE_ALIGN(t_, struct S3);                                                           \
        CHECK_EQ_INT(kn_type_tuple_offset(t_, 0), offsetof(struct S3, a));                         \
        CHECK_EQ_INT(kn_type_tuple_offset(t_, 1), offsetof(struct S3, b));                         \
        CHECK_EQ_INT(kn_type_tuple_offset(t_, 2), offsetof(struct S3, c));                         \
        KnType *args_[3] = {ta, tb, tc};                                                           \
        CHECK_EQ_INT(kn_type_arg_offset(args_, 0), offsetof(struct S3, a));                        \
        CHECK_EQ_INT(kn_type_arg_offset(args_, 1), offsetof(struct S3, b));                        \
        CHECK_EQ_INT(kn_type_arg_offset(args_, 2), offsetof(struct S3, c));                        \
        CHECK_EQ_INT(kn_type_args_size(args_, 3), offsetof(struct S3, c) + sizeof(cc));            \
    } while (0)

typedef struct {
    int64_t a;
    double b;
} CI64F64;
typedef struct {
    _Bool a;
    uint8_t b;
} CBU8;
typedef struct {
    int8_t a;
    CI64F64 b;
    int16_t c;
} CNested;

static void
test_layout_tuples(void)
{
    CHECK_TUPLE2(I64, int64_t, F64, double);
    CHECK_TUPLE2(I8, int8_t, I64, int64_t);
    CHECK_TUPLE2(I64, int64_t, I8, int8_t);
    CHECK_TUPLE2(B, _Bool, F32, float);
    CHECK_TUPLE2(I16, int16_t, I32, int32_t);
    CHECK_TUPLE2(U8, uint8_t, U16, uint16_t);
    CHECK_TUPLE2(B, _Bool, C64, float _Complex);
    CHECK_TUPLE2(F32, float, C128, double _Complex);
    CHECK_TUPLE2(C64, float _Complex, I8, int8_t);
    CHECK_TUPLE2(I8, int8_t, RANGE, CRange);
    CHECK_TUPLE3(I8, int8_t, I64, int64_t, I16, int16_t);
    CHECK_TUPLE3(B, _Bool, B, _Bool, B, _Bool);
    CHECK_TUPLE3(U8, uint8_t, F32, float, U8, uint8_t);
    CHECK_TUPLE3(I32, int32_t, C64, float _Complex, B, _Bool);
    CHECK_TUPLE3(F64, double, I8, int8_t, C128, double _Complex);
    CHECK_TUPLE3(U16, uint16_t, U8, uint8_t, U32, uint32_t);

    /* nested tuples are nested structs */
    CHECK_TUPLE3(I8, int8_t, tup2(I64, F64), CI64F64, I16, int16_t);
    CHECK_TUPLE2(tup2(B, U8), CBU8, I16, int16_t);
    CHECK_TUPLE2(I8, int8_t, tup3(I8, tup2(I64, F64), I16), CNested);
    CHECK_TUPLE2(tup2(B, U8), CBU8, tup2(B, U8), CBU8);

    /* a tuple of 10 mixed items */
    struct S10 {
        int8_t f0;
        double f1;
        _Bool f2;
        int32_t f3;
        uint16_t f4;
        float _Complex f5;
        uint8_t f6;
        int64_t f7;
        float f8;
        int8_t f9;
    };
    KnType *items[10] = {I8, F64, B, I32, U16, C64, U8, I64, F32, I8};
    size_t offs[10] = {offsetof(struct S10, f0), offsetof(struct S10, f1), offsetof(struct S10, f2),
                       offsetof(struct S10, f3), offsetof(struct S10, f4), offsetof(struct S10, f5),
                       offsetof(struct S10, f6), offsetof(struct S10, f7), offsetof(struct S10, f8),
                       offsetof(struct S10, f9)};
    KnType *t = kn_type_tuple(&T, items, 10);
    CHECK_SIZE_ALIGN(t, struct S10);
    for (int i = 0; i < 10; i++) {
        CHECK_EQ_INT(kn_type_tuple_offset(t, i), offs[i]);
        CHECK_EQ_INT(kn_type_arg_offset(items, i), offs[i]);
    }
    CHECK_EQ_INT(kn_type_args_size(items, 10), offs[9] + 1);
    CHECK_EQ_INT(kn_type_args_size(items, 0), 0);
    CHECK_EQ_INT(kn_type_args_size(items, 1), 1);

    /* the argument buffer holds whole tuples at their own alignment */
    KnType *args[3] = {B, tup2(I8, F64), U8};
    struct {
        _Bool a;
        struct {
            int8_t x;
            double y;
        } b;
        uint8_t c;
    } sa;
    CHECK_EQ_INT(kn_type_arg_offset(args, 1), (char *)&sa.b - (char *)&sa);
    CHECK_EQ_INT(kn_type_arg_offset(args, 2), (char *)&sa.c - (char *)&sa);
}

/* ---- promotion (the type of a + b) ---- */

static void
test_promote(void)
{
    /* integers compute in 64 bits; mixed signedness is signed */
    CHECK_TY(kn_type_promote(I64, I64), I64);
    CHECK_TY(kn_type_promote(I8, I8), I64);
    CHECK_TY(kn_type_promote(I8, I32), I64);
    CHECK_TY(kn_type_promote(U8, U8), U64);
    CHECK_TY(kn_type_promote(U32, U64), U64);
    CHECK_TY(kn_type_promote(U64, I64), I64);
    CHECK_TY(kn_type_promote(I64, U64), I64);
    CHECK_TY(kn_type_promote(U8, I8), I64);
    CHECK_TY(kn_type_promote(B, B), I64);
    CHECK_TY(kn_type_promote(B, I32), I64);
    CHECK_TY(kn_type_promote(B, U64), I64);

    /* floats */
    CHECK_TY(kn_type_promote(I64, F64), F64);
    CHECK_TY(kn_type_promote(F64, I64), F64);
    CHECK_TY(kn_type_promote(U64, F64), F64);
    CHECK_TY(kn_type_promote(F32, F32), F32);
    CHECK_TY(kn_type_promote(F32, F64), F64);
    CHECK_TY(kn_type_promote(F32, I8), F32);
    CHECK_TY(kn_type_promote(F32, I16), F32);
    CHECK_TY(kn_type_promote(I16, F32), F32);
    CHECK_TY(kn_type_promote(F32, U16), F32);
    CHECK_TY(kn_type_promote(F32, I32), F64);
    CHECK_TY(kn_type_promote(F32, U32), F64);
    CHECK_TY(kn_type_promote(F32, I64), F64);
    CHECK_TY(kn_type_promote(F32, B), F32);
    CHECK_TY(kn_type_promote(B, F64), F64);

    /* complex */
    CHECK_TY(kn_type_promote(C64, F32), C64);
    CHECK_TY(kn_type_promote(F32, C64), C64);
    CHECK_TY(kn_type_promote(C64, F64), C128);
    CHECK_TY(kn_type_promote(C64, C64), C64);
    CHECK_TY(kn_type_promote(C64, C128), C128);
    CHECK_TY(kn_type_promote(C64, I16), C64);
    CHECK_TY(kn_type_promote(C64, I32), C128);
    CHECK_TY(kn_type_promote(C64, B), C64);
    CHECK_TY(kn_type_promote(I64, C128), C128);
    CHECK_TY(kn_type_promote(C128, F32), C128);

    /* not numbers */
    CHECK_TY(kn_type_promote(I64, STR), NULL);
    CHECK_TY(kn_type_promote(NONE, I64), NULL);
    CHECK_TY(kn_type_promote(tup2(I64, I64), I64), NULL);
    CHECK_TY(kn_type_promote(RANGE, RANGE), NULL);

    /* symmetric over all pairs of numbers */
    KnType *nums[] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128};
    int asym = 0;
    for (int i = 0; i < KN_ARRAY_LEN(nums); i++)
        for (int j = 0; j < KN_ARRAY_LEN(nums); j++)
            asym += kn_type_promote(nums[i], nums[j]) != kn_type_promote(nums[j], nums[i]);
    CHECK_EQ_INT(asym, 0);
}

/* ---- unification (a variable assigned values of two types) ---- */

static void
test_unify(void)
{
    /* identity and the "not yet typed" side */
    CHECK_TY(kn_type_unify(&T, I64, I64), I64);
    CHECK_TY(kn_type_unify(&T, NULL, F32), F32);
    CHECK_TY(kn_type_unify(&T, F32, NULL), F32);
    CHECK_TY(kn_type_unify(&T, STR, STR), STR);
    CHECK_TY(kn_type_unify(&T, NONE, NONE), NONE);

    /* integers: the smallest integer that holds both (NumPy's promote_types) */
    CHECK_TY(kn_type_unify(&T, I8, I32), I32);
    CHECK_TY(kn_type_unify(&T, I64, I8), I64);
    CHECK_TY(kn_type_unify(&T, U8, U32), U32);
    CHECK_TY(kn_type_unify(&T, I8, U8), I16);
    CHECK_TY(kn_type_unify(&T, U8, I8), I16);
    CHECK_TY(kn_type_unify(&T, I16, U8), I16);
    CHECK_TY(kn_type_unify(&T, U16, I16), I32);
    CHECK_TY(kn_type_unify(&T, U16, I32), I32);
    CHECK_TY(kn_type_unify(&T, U32, I8), I64);
    CHECK_TY(kn_type_unify(&T, U32, I64), I64);
    CHECK_TY(kn_type_unify(&T, I64, U64), F64);
    CHECK_TY(kn_type_unify(&T, U64, I64), F64);
    CHECK_TY(kn_type_unify(&T, U64, I8), F64);

    /* bool goes to the other side */
    CHECK_TY(kn_type_unify(&T, B, I32), I32);
    CHECK_TY(kn_type_unify(&T, I32, B), I32);
    CHECK_TY(kn_type_unify(&T, B, U8), U8);
    CHECK_TY(kn_type_unify(&T, B, F32), F32);
    CHECK_TY(kn_type_unify(&T, B, F64), F64);
    CHECK_TY(kn_type_unify(&T, B, C64), C64);

    /* ints with floats and complex */
    CHECK_TY(kn_type_unify(&T, I64, F64), F64);
    CHECK_TY(kn_type_unify(&T, F64, I64), F64);
    CHECK_TY(kn_type_unify(&T, F32, I16), F32);
    CHECK_TY(kn_type_unify(&T, I8, F32), F32);
    CHECK_TY(kn_type_unify(&T, F32, I32), F64);
    CHECK_TY(kn_type_unify(&T, F32, I64), F64);
    CHECK_TY(kn_type_unify(&T, F32, F64), F64);
    CHECK_TY(kn_type_unify(&T, C64, F32), C64);
    CHECK_TY(kn_type_unify(&T, F32, C64), C64);
    CHECK_TY(kn_type_unify(&T, C64, F64), C128);
    CHECK_TY(kn_type_unify(&T, C64, I16), C64);
    CHECK_TY(kn_type_unify(&T, I64, C64), C128);
    CHECK_TY(kn_type_unify(&T, C128, C64), C128);

    /* tuples: element-wise, the result interned */
    CHECK_TY(kn_type_unify(&T, tup2(I64, F32), tup2(F64, I16)), tup2(F64, F32));
    CHECK_TY(kn_type_unify(&T, tup2(I8, U8), tup2(U8, I8)), tup2(I16, I16));
    CHECK_TY(kn_type_unify(&T, tup2(B, I64), tup2(I32, U64)), tup2(I32, F64));
    CHECK_TY(kn_type_unify(&T, tup2(tup2(I64, B), F32), tup2(tup2(F64, I8), F32)),
             tup2(tup2(F64, I8), F32));
    KnType *a = tup2(I64, F64);
    CHECK_TY(kn_type_unify(&T, a, a), a);
    CHECK_TY(kn_type_unify(&T, tup2(I64, STR), tup2(I64, STR)), tup2(I64, STR));

    /* no unification */
    CHECK_TY(kn_type_unify(&T, I64, STR), NULL);
    CHECK_TY(kn_type_unify(&T, STR, F64), NULL);
    CHECK_TY(kn_type_unify(&T, NONE, I64), NULL);
    CHECK_TY(kn_type_unify(&T, I64, NONE), NULL);
    CHECK_TY(kn_type_unify(&T, tup2(I64, I64), tup3(I64, I64, I64)), NULL);
    CHECK_TY(kn_type_unify(&T, tup2(I64, I64), I64), NULL);
    CHECK_TY(kn_type_unify(&T, tup2(I64, STR), tup2(I64, I64)), NULL);
    CHECK_TY(kn_type_unify(&T, RANGE, I64), NULL);
    CHECK_TY(kn_type_unify(&T, kn_type_module(&T, 1, "math"), kn_type_module(&T, 2, "cmath")),
             NULL);

    /* symmetric, and the result holds both sides safely (ints with ints, floats) */
    KnType *nums[] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128};
    int asym = 0;
    for (int i = 0; i < KN_ARRAY_LEN(nums); i++)
        for (int j = 0; j < KN_ARRAY_LEN(nums); j++)
            asym += kn_type_unify(&T, nums[i], nums[j]) != kn_type_unify(&T, nums[j], nums[i]);
    CHECK_EQ_INT(asym, 0);
    int unsafe = 0;
    for (int i = 0; i < KN_ARRAY_LEN(nums); i++)
        for (int j = 0; j < KN_ARRAY_LEN(nums); j++) {
            KnType *u = kn_type_unify(&T, nums[i], nums[j]);
            if (u == F64 && (nums[i] == U64 || nums[j] == U64))
                continue; /* int64 with uint64: float64, the one lossy case, as in NumPy */
            if (u == F64 && (nums[i] == I64 || nums[j] == I64))
                continue;
            unsafe += !kn_type_can_convert_safely(nums[i], u);
            unsafe += !kn_type_can_convert_safely(nums[j], u);
        }
    CHECK_EQ_INT(unsafe, 0);
}

/* ---- safe conversion (what the dispatcher accepts for an explicit signature) ---- */

static void
test_convert(void)
{
    CHECK(kn_type_can_convert_safely(I64, I64));
    CHECK(kn_type_can_convert_safely(B, I8));
    CHECK(kn_type_can_convert_safely(B, U8));
    CHECK(kn_type_can_convert_safely(B, F64));
    CHECK(kn_type_can_convert_safely(I8, I16));
    CHECK(kn_type_can_convert_safely(I32, I64));
    CHECK(kn_type_can_convert_safely(U8, U16));
    CHECK(kn_type_can_convert_safely(U8, I16));
    CHECK(kn_type_can_convert_safely(U32, I64));
    CHECK(kn_type_can_convert_safely(I16, F32));
    CHECK(kn_type_can_convert_safely(I32, F64));
    CHECK(kn_type_can_convert_safely(F32, F64));
    CHECK(kn_type_can_convert_safely(F32, C64));
    CHECK(kn_type_can_convert_safely(F64, C128));
    CHECK(kn_type_can_convert_safely(F32, C128));
    CHECK(kn_type_can_convert_safely(C64, C128));
    CHECK(kn_type_can_convert_safely(I8, C128));

    CHECK(!kn_type_can_convert_safely(I16, I8));
    CHECK(!kn_type_can_convert_safely(I64, I32));
    CHECK(!kn_type_can_convert_safely(I8, U8));
    CHECK(!kn_type_can_convert_safely(I8, U64));
    CHECK(!kn_type_can_convert_safely(U8, I8));
    CHECK(!kn_type_can_convert_safely(U64, I64));
    CHECK(!kn_type_can_convert_safely(I64, U64));
    CHECK(!kn_type_can_convert_safely(I8, B));
    CHECK(!kn_type_can_convert_safely(F32, B));
    CHECK(!kn_type_can_convert_safely(F64, F32));
    CHECK(!kn_type_can_convert_safely(F64, I64));
    CHECK(!kn_type_can_convert_safely(F32, I64));
    CHECK(!kn_type_can_convert_safely(C64, F64));
    CHECK(!kn_type_can_convert_safely(C128, C64));
    CHECK(!kn_type_can_convert_safely(C128, F64));

    /* non-numbers */
    CHECK(kn_type_can_convert_safely(STR, STR));
    CHECK(kn_type_can_convert_safely(NONE, NONE));
    CHECK(!kn_type_can_convert_safely(STR, I64));
    CHECK(!kn_type_can_convert_safely(I64, STR));
    CHECK(!kn_type_can_convert_safely(NONE, I64));
    CHECK(!kn_type_can_convert_safely(RANGE, I64));

    /* tuples, element-wise */
    CHECK(kn_type_can_convert_safely(tup2(I32, F32), tup2(I64, F64)));
    CHECK(kn_type_can_convert_safely(tup2(B, U8), tup2(I8, I16)));
    CHECK(kn_type_can_convert_safely(tup2(tup2(I8, I8), F32), tup2(tup2(I16, I64), F64)));
    CHECK(!kn_type_can_convert_safely(tup2(I64, F64), tup2(I64, F32)));
    CHECK(!kn_type_can_convert_safely(tup2(I64, I64), tup3(I64, I64, I64)));
    CHECK(!kn_type_can_convert_safely(tup2(I64, I64), I64));
    CHECK(!kn_type_can_convert_safely(I64, tup2(I64, I64)));
    CHECK(kn_type_can_convert_safely(kn_type_tuple(&T, NULL, 0), kn_type_tuple(&T, NULL, 0)));

    /* reflexive on every primitive; a conversion chain a -> b -> c implies a -> c */
    KnType *nums[] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128};
    enum { K = KN_ARRAY_LEN(nums) };
    int bad = 0;
    for (int i = 0; i < K; i++)
        bad += !kn_type_can_convert_safely(nums[i], nums[i]);
    CHECK_EQ_INT(bad, 0);
    for (int i = 0; i < K; i++)
        for (int j = 0; j < K; j++)
            for (int k = 0; k < K; k++)
                if (kn_type_can_convert_safely(nums[i], nums[j]) &&
                    kn_type_can_convert_safely(nums[j], nums[k]) &&
                    !kn_type_can_convert_safely(nums[i], nums[k])) {
                    bad++;
                    fprintf(stderr, "  not transitive: %s -> %s -> %s\n", nums[i]->name,
                            nums[j]->name, nums[k]->name);
                }
    CHECK_EQ_INT(bad, 0);
}

/* kn_type_conversion rates as Numba 0.68's casting table does (measured: which of two explicit
 * signatures its dispatcher picks, or that the choice is ambiguous) */
static void
test_conversion(void)
{
    static const struct {
        KnType *from, *to;
        KnConversion want;
    } cases[] = {
        {&kn_type_int64, &kn_type_int64, KN_CONV_EXACT},
        {&kn_type_int8, &kn_type_int64, KN_CONV_PROMOTE},
        {&kn_type_float32, &kn_type_float64, KN_CONV_PROMOTE},
        {&kn_type_complex64, &kn_type_complex128, KN_CONV_PROMOTE},
        {&kn_type_int64, &kn_type_float64, KN_CONV_SAFE},
        {&kn_type_uint64, &kn_type_float64, KN_CONV_SAFE},
        {&kn_type_int16, &kn_type_float32, KN_CONV_SAFE},
        {&kn_type_uint8, &kn_type_int16, KN_CONV_SAFE},
        {&kn_type_uint32, &kn_type_int64, KN_CONV_SAFE},
        {&kn_type_bool, &kn_type_int64, KN_CONV_SAFE},
        {&kn_type_bool, &kn_type_float64, KN_CONV_SAFE},
        {&kn_type_float64, &kn_type_complex128, KN_CONV_SAFE},
        {&kn_type_int64, &kn_type_complex128, KN_CONV_SAFE},
        {&kn_type_int32, &kn_type_float32, KN_CONV_UNSAFE},
        {&kn_type_int64, &kn_type_int8, KN_CONV_UNSAFE},
        {&kn_type_int64, &kn_type_uint32, KN_CONV_UNSAFE},
        {&kn_type_uint64, &kn_type_int64, KN_CONV_UNSAFE},
        {&kn_type_float64, &kn_type_int64, KN_CONV_UNSAFE},
        {&kn_type_float64, &kn_type_float32, KN_CONV_UNSAFE},
        {&kn_type_float64, &kn_type_complex64, KN_CONV_UNSAFE},
        {&kn_type_int64, &kn_type_bool, KN_CONV_UNSAFE},
        {&kn_type_complex128, &kn_type_float64, KN_CONV_NONE},
        {&kn_type_complex64, &kn_type_int64, KN_CONV_NONE},
        {&kn_type_str, &kn_type_int64, KN_CONV_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ_INT((int)kn_type_conversion(cases[i].from, cases[i].to), (int)cases[i].want);
    KnType *ti = tup2(I64, I64), *tf = tup2(&kn_type_float64, &kn_type_float64);
    CHECK_EQ_INT((int)kn_type_conversion(ti, tf), (int)KN_CONV_SAFE);
    CHECK_EQ_INT((int)kn_type_conversion(tf, ti), (int)KN_CONV_UNSAFE);
    /* an optional: None promotes, a value converts as to its type, at best safe */
    KnType *of = kn_type_optional(&T, &kn_type_float64);
    CHECK_EQ_INT((int)kn_type_conversion(&kn_type_none, of), (int)KN_CONV_PROMOTE);
    CHECK_EQ_INT((int)kn_type_conversion(&kn_type_float64, of), (int)KN_CONV_SAFE);
    CHECK_EQ_INT((int)kn_type_conversion(&kn_type_int64, of), (int)KN_CONV_SAFE);
    CHECK_EQ_INT((int)kn_type_conversion(&kn_type_complex128, of), (int)KN_CONV_NONE);
}

/* The kinds table (types/kinds.def): every kind has a name and the value and number flags
 * that the kind-order test `kind <= KN_TY_SLICE` used to give; nothing depends on the order. */
static void
test_kinds(void)
{
    static const struct {
        KnTypeKind k;
        const char *name;
        int value, number;
    } want[] = {
        {KN_TY_BOOL, "bool", 1, 1},   {KN_TY_INT, "int", 1, 1},
        {KN_TY_FLOAT, "float", 1, 1}, {KN_TY_COMPLEX, "complex", 1, 1},
        {KN_TY_NONE, "none", 1, 0},   {KN_TY_STR, "str", 1, 0},
        {KN_TY_TUPLE, "tuple", 1, 0}, {KN_TY_RANGE, "range", 1, 0},
        {KN_TY_ARRAY, "array", 1, 0}, {KN_TY_SLICE, "slice", 1, 0},
        {KN_TY_FUNC, "func", 0, 0},   {KN_TY_MODULE, "module", 0, 0},
        {KN_TY_CLASS, "class", 0, 0}, {KN_TY_BOUND, "bound", 0, 0},
        {KN_TY_ITER, "iter", 0, 0},   {KN_TY_LIST, "list", 1, 0},
        {KN_TY_DICT, "dict", 1, 0},   {KN_TY_SET, "set", 1, 0},
        {KN_TY_INFO, "info", 0, 0},   {KN_TY_GEN, "gen", 1, 0},
    };
    /* the values of issue 10 (types/model_optional.c, model_enum.c) and issue 11
     * (model_np_random.c, model_record.c, model_datetime.c): run-time values */
    static const KnTypeKind values[] = {KN_TY_OPTIONAL, KN_TY_ENUM,     KN_TY_NPGEN,
                                        KN_TY_RECORD,   KN_TY_DATETIME, KN_TY_TIMEDELTA};
    static const char *const value_names[] = {"optional", "enum",       "npgen",
                                              "record",   "datetime64", "timedelta64"};
    CHECK_EQ_INT((int)(sizeof want / sizeof want[0] + sizeof values / sizeof values[0]),
                 KN_TY_COUNT);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        KnType t = {.kind = want[i].k, .bits = 64, .name = "t"};
        CHECK(!strcmp(kn_kind_name(want[i].k), want[i].name));
        CHECK_EQ_INT(kn_type_is_value(&t), want[i].value);
        CHECK_EQ_INT(kn_type_is_number(&t), want[i].number);
    }
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        KnType t = {.kind = values[i], .name = "t"};
        CHECK(!strcmp(kn_kind_name(values[i]), value_names[i]));
        CHECK_EQ_INT(kn_type_is_value(&t), 1);
        CHECK_EQ_INT(kn_type_is_number(&t), 0);
    }
    /* the compile-time kinds carry an 8-byte dummy slot; a function type is not a value, so
     * no tuple holds one */
    KnType *f = kn_type_func(&T, 7, NULL, "f");
    CHECK_EQ_INT((int)kn_type_size(f), 8);
    KnType *items[2] = {f, I64};
    KnType *tf = kn_type_tuple(&T, items, 2), *ti = tup2(I64, I64);
    CHECK_TY(kn_type_unify(&T, tf, ti), NULL);
}

int
main(void)
{
    kn_types_init(&T);
    test_primitives();
    test_interning();
    test_interning_stress();
    test_second_table();
    test_layout_scalars();
    test_layout_tuples();
    test_promote();
    test_unify();
    test_convert();
    test_kinds();
    test_conversion();
    /* a str value is a KnStr: its layout in the dispatcher's buffers and in lists */
    CHECK_EQ_INT((int)kn_type_size(&kn_type_str), (int)sizeof(KnStr));
    kn_types_fini(&T);
    if (failures) {
        fprintf(stderr, "test_types: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_types: %d checks passed\n", checks);
    return 0;
}
