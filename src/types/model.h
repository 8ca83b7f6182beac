/* model.h - the type layer's model of a kind (types/kinds.def): what types.c asks a kind
 * instead of switching on it. One model per name in kinds.def's `tm` column, kn_type_model_<tm>,
 * defined in types/model_<file>.c; a NULL operation takes the default written beside it. Also
 * the interning that the models' constructors share (types.c). Internal to types/. */
#ifndef KN_TYPES_MODEL_H
#define KN_TYPES_MODEL_H

#include "types/types.h"

typedef struct KnTypeModel {
    /* bytes and alignment of a value in memory; NULL: 8 (compile-time values carry a dummy
     * slot) and the size (1 when 0) */
    size_t (*size)(const KnType *t);
    size_t (*align)(const KnType *t);
    /* interning: a and b (same kind, n, id, ref and items) are the same type; NULL: yes. hash
     * mixes what `same` compares into h; NULL: nothing more */
    int (*same)(const KnType *a, const KnType *b);
    uint64_t (*hash)(const KnType *t, uint64_t h);
    /* a variable assigned values of types a (this kind) and b (any kind, a != b): their
     * common type, or NULL; NULL: none */
    KnType *(*unify)(KnTypeTable *tt, KnType *a, KnType *b);
    /* from (this kind) converts to `to` (from != to) without loss; NULL: never */
    int (*convert_safely)(const KnType *from, const KnType *to);
} KnTypeModel;

#define X(kind, name, tm, lm, bm, flags) extern const KnTypeModel kn_type_model_##tm;
#include "types/kinds.def"
#undef X

/* model_namedtuple.c: interning of tuples: a namedtuple with no class (read from KIR text) is
 * told apart by its name */
int kn_type_namedtuple_same(const KnType *a, const KnType *b);
uint64_t kn_type_namedtuple_hash(const KnType *t, uint64_t h);

/* the model of t's kind */
const KnTypeModel *kn_type_model(const KnType *t);

/* The interned type shaped like `key` (kind, n, items, id, ref and what its model compares),
 * or NULL; kn_type_intern makes it if needed, with the printed name `name`. */
KnType *kn_type_find(KnTypeTable *t, const KnType *key);
KnType *kn_type_intern(KnTypeTable *t, const KnType *key, const char *name);

#endif
