/* base.h - the base layer of kiln's C core: arena, growable vectors, hash map, source spans and
 * diagnostics. Nothing here knows Python or LLVM, so every other stage (and the runtime) may
 * build on it, and it is unit-tested alone (tests/c). */
#ifndef KN_BASE_H
#define KN_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Propagate a failure: every kiln function returns 0 / -1 or pointer / NULL. */
#define KN_TRY(expr)                                                                               \
    do {                                                                                           \
        if ((expr) < 0)                                                                            \
            return -1;                                                                             \
    } while (0)

#define KN_UNUSED(x) ((void)(x))
#define KN_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- arena: a chunked bump allocator owned by one compilation ---- */

typedef struct KnArenaChunk KnArenaChunk;

typedef struct KnArena {
    KnArenaChunk *head; /* newest chunk, allocation happens here */
    size_t total;       /* bytes reserved in all chunks (statistics) */
} KnArena;

typedef struct KnArenaMark {
    KnArenaChunk *chunk;
    size_t used;
} KnArenaMark;

void kn_arena_init(KnArena *a);
void kn_arena_fini(KnArena *a);
void *kn_arena_alloc(KnArena *a, size_t size); /* zeroed, 16-byte aligned; aborts on OOM */
char *kn_arena_strdup(KnArena *a, const char *s);
char *kn_arena_strndup(KnArena *a, const char *s, size_t n);
char *kn_arena_printf(KnArena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *kn_arena_vprintf(KnArena *a, const char *fmt, va_list ap);
KnArenaMark kn_arena_mark(KnArena *a);
void kn_arena_rewind(KnArena *a, KnArenaMark m);

/* ---- vectors: KN_VEC(T) is {T *items; int len, cap;}, grown in an arena or with malloc ---- */

#define KN_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *items;                                                                                  \
        int len, cap;                                                                              \
    }

void kn_vec_grow_arena(KnArena *a, void **items, int *cap, size_t elem, int need);
void kn_vec_grow_heap(void **items, int *cap, size_t elem, int need);

#define KN_VEC_PUSH(arena, v, x)                                                                   \
    do {                                                                                           \
        if ((v).len >= (v).cap)                                                                    \
            kn_vec_grow_arena((arena), (void **)&(v).items, &(v).cap, sizeof(*(v).items),          \
                              (v).len + 1);                                                        \
        (v).items[(v).len++] = (x);                                                                \
    } while (0)

#define KN_HVEC_PUSH(v, x)                                                                         \
    do {                                                                                           \
        if ((v).len >= (v).cap)                                                                    \
            kn_vec_grow_heap((void **)&(v).items, &(v).cap, sizeof(*(v).items), (v).len + 1);      \
        (v).items[(v).len++] = (x);                                                                \
    } while (0)

/* ---- string builder (heap) ---- */

typedef struct KnStrBuf {
    char *data; /* NUL-terminated after every append */
    size_t len, cap;
} KnStrBuf;

void kn_sb_init(KnStrBuf *sb);
void kn_sb_fini(KnStrBuf *sb);
void kn_sb_append(KnStrBuf *sb, const char *s);
void kn_sb_appendn(KnStrBuf *sb, const char *s, size_t n);
void kn_sb_printf(KnStrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- hash map: uint64 key -> void * value, open addressing, heap-allocated ---- */

typedef struct KnMapSlot {
    uint64_t key;
    void *value; /* NULL marks an empty slot: values must not be NULL */
} KnMapSlot;

typedef struct KnMap {
    KnMapSlot *slots;
    size_t cap; /* a power of two, or 0 */
    size_t len;
} KnMap;

void kn_map_init(KnMap *m);
void kn_map_fini(KnMap *m);
void *kn_map_get(const KnMap *m, uint64_t key);
void kn_map_put(KnMap *m, uint64_t key, void *value);
uint64_t kn_hash_bytes(const void *data, size_t n, uint64_t seed);
uint64_t kn_hash_mix(uint64_t h, uint64_t v);

/* ---- source spans and diagnostics ---- */

typedef struct KnSpan {
    int line, col;         /* 1-based, real file positions */
    int end_line, end_col; /* end_col is exclusive */
} KnSpan;

typedef enum KnDiagKind {
    KN_DIAG_TYPING,      /* ill-typed program */
    KN_DIAG_UNSUPPORTED, /* valid Python that kiln does not compile */
    KN_DIAG_LOWERING,    /* internal failure while generating code */
} KnDiagKind;

typedef struct KnNote {
    KnSpan span; /* line == 0 when the note has no position */
    const char *message;
    const char *filename; /* NULL: the diagnostic's file */
} KnNote;

typedef struct KnDiag {
    KnDiagKind kind;
    KnSpan span;
    const char *message;
    KN_VEC(KnNote) notes;
} KnDiag;

typedef struct KnDiags {
    KnArena *arena; /* where messages live */
    KN_VEC(KnDiag) items;
} KnDiags;

KnDiag *kn_diag_error(KnDiags *d, KnDiagKind kind, KnSpan span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void kn_diag_note(KnDiags *d, KnDiag *diag, KnSpan span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
