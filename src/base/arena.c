/* arena.c - the chunked bump allocator behind every compilation, and the growable vectors and
 * string builder built on it. Memory is zeroed and 16-byte aligned; a mark/rewind pair undoes
 * speculative allocation. Out of memory aborts: a compiler that cannot allocate cannot report. */
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>

struct KnArenaChunk {
    KnArenaChunk *prev;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

#define KN_ARENA_CHUNK (64 * 1024)

static void *
checked_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "kiln: out of memory allocating %zu bytes\n", n);
        abort();
    }
    return p;
}

void
kn_arena_init(KnArena *a)
{
    a->head = NULL;
    a->total = 0;
}

void
kn_arena_fini(KnArena *a)
{
    KnArenaChunk *c = a->head;
    while (c) {
        KnArenaChunk *prev = c->prev;
        free(c);
        c = prev;
    }
    a->head = NULL;
    a->total = 0;
}

static KnArenaChunk *
chunk_new(KnArena *a, size_t need)
{
    size_t size = need > KN_ARENA_CHUNK ? need : KN_ARENA_CHUNK;
    KnArenaChunk *c = checked_malloc(sizeof(KnArenaChunk) + size);
    c->prev = a->head;
    c->size = size;
    c->used = 0;
    a->head = c;
    a->total += size;
    return c;
}

void *
kn_arena_alloc(KnArena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    KnArenaChunk *c = a->head;
    if (!c || c->size - c->used < size)
        c = chunk_new(a, size);
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *
kn_arena_strndup(KnArena *a, const char *s, size_t n)
{
    char *p = kn_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *
kn_arena_strdup(KnArena *a, const char *s)
{
    return kn_arena_strndup(a, s, strlen(s));
}

char *
kn_arena_vprintf(KnArena *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *p = kn_arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *
kn_arena_printf(KnArena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = kn_arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

KnArenaMark
kn_arena_mark(KnArena *a)
{
    KnArenaMark m = {a->head, a->head ? a->head->used : 0};
    return m;
}

void
kn_arena_rewind(KnArena *a, KnArenaMark m)
{
    while (a->head && a->head != m.chunk) {
        KnArenaChunk *prev = a->head->prev;
        a->total -= a->head->size;
        free(a->head);
        a->head = prev;
    }
    if (a->head)
        a->head->used = m.used;
}

static int
grown_cap(int cap, int need)
{
    int n = cap ? cap * 2 : 8;
    while (n < need)
        n *= 2;
    return n;
}

void
kn_vec_grow_arena(KnArena *a, void **items, int *cap, size_t elem, int need)
{
    int n = grown_cap(*cap, need);
    void *p = kn_arena_alloc(a, elem * (size_t)n);
    if (*items)
        memcpy(p, *items, elem * (size_t)*cap);
    *items = p;
    *cap = n;
}

void
kn_vec_grow_heap(void **items, int *cap, size_t elem, int need)
{
    int n = grown_cap(*cap, need);
    void *p = realloc(*items, elem * (size_t)n);
    if (!p) {
        fprintf(stderr, "kiln: out of memory growing a vector\n");
        abort();
    }
    *items = p;
    *cap = n;
}

void
kn_sb_init(KnStrBuf *sb)
{
    sb->cap = 256;
    sb->len = 0;
    sb->data = checked_malloc(sb->cap);
    sb->data[0] = '\0';
}

void
kn_sb_fini(KnStrBuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void
kn_sb_appendn(KnStrBuf *sb, const char *s, size_t n)
{
    if (sb->len + n + 1 > sb->cap) {
        if (!sb->cap)
            sb->cap = 256; /* a zero-initialized builder */
        while (sb->len + n + 1 > sb->cap)
            sb->cap *= 2;
        char *p = realloc(sb->data, sb->cap);
        if (!p) {
            fprintf(stderr, "kiln: out of memory in a string builder\n");
            abort();
        }
        sb->data = p;
    }
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void
kn_sb_append(KnStrBuf *sb, const char *s)
{
    kn_sb_appendn(sb, s, strlen(s));
}

void
kn_sb_printf(KnStrBuf *sb, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char small[256];
    char *buf = (size_t)n < sizeof small ? small : checked_malloc((size_t)n + 1);
    vsnprintf(buf, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    kn_sb_appendn(sb, buf, (size_t)n);
    if (buf != small)
        free(buf);
}
