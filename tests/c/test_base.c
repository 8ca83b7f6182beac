/* test_base.c - unit tests for src/base: the arena (alignment, zeroing, growth past a chunk,
 * mark/rewind within and across chunks), KN_VEC vectors in an arena and on the heap, KnStrBuf,
 * and diagnostics with notes. One program; prints one line per failed check (file:line) and
 * exits nonzero if any failed. Run under ASan+UBSan by `make ctest`, so leaks and overruns fail
 * too. The hash map has its own program, test_map.c. */
#include "base/base.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define CHUNK (64 * 1024) /* the arena's chunk size (arena.c); tests only need "about this" */

static int
aligned16(const void *p)
{
    return ((uintptr_t)p & 15) == 0;
}

static int
all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* ---- arena ---- */

static void
test_arena_basic(void)
{
    KnArena a;
    kn_arena_init(&a);
    CHECK(a.head == NULL);
    CHECK_EQ_INT(a.total, 0);

    /* every size from 0 to 100: 16-byte aligned, zeroed, disjoint from the previous block */
    unsigned char *prev = NULL;
    size_t prev_size = 0;
    for (size_t n = 0; n <= 100; n++) {
        unsigned char *p = kn_arena_alloc(&a, n);
        CHECK(p != NULL);
        CHECK(aligned16(p));
        CHECK(all_zero(p, n));
        memset(p, 0xAB, n);
        if (prev && prev_size)
            CHECK(p >= prev + prev_size || p + n <= prev);
        prev = p;
        prev_size = n;
    }
    CHECK(a.total >= 100);

    char *s = kn_arena_strdup(&a, "hello");
    CHECK_STR(s, "hello");
    char *t = kn_arena_strndup(&a, "hello, world", 5);
    CHECK_STR(t, "hello");
    CHECK(t != s);
    char *e = kn_arena_strdup(&a, "");
    CHECK_STR(e, "");
    char *f = kn_arena_printf(&a, "%s-%d-%.1f", "x", 42, 1.5);
    CHECK_STR(f, "x-42-1.5");
    kn_arena_fini(&a);
    CHECK(a.head == NULL);
    CHECK_EQ_INT(a.total, 0);
    kn_arena_fini(&a); /* twice is harmless */
}

static void
test_arena_big(void)
{
    KnArena a;
    kn_arena_init(&a);
    /* a small block first, then allocations larger than a chunk: each still usable whole */
    int *small = kn_arena_alloc(&a, sizeof(int));
    *small = 7;
    size_t sizes[] = {CHUNK, CHUNK + 1, 3 * CHUNK + 5, 1 << 20, 17};
    unsigned char *blocks[KN_ARRAY_LEN(sizes)];
    for (int i = 0; i < KN_ARRAY_LEN(sizes); i++) {
        blocks[i] = kn_arena_alloc(&a, sizes[i]);
        CHECK(aligned16(blocks[i]));
        CHECK(all_zero(blocks[i], sizes[i]));
        memset(blocks[i], i + 1, sizes[i]); /* ASan: the whole block is addressable */
    }
    for (int i = 0; i < KN_ARRAY_LEN(sizes); i++) {
        CHECK(blocks[i][0] == i + 1);
        CHECK(blocks[i][sizes[i] - 1] == i + 1);
    }
    CHECK_EQ_INT(*small, 7);
    CHECK(a.total >= CHUNK + (1 << 20) + 3 * CHUNK);

    /* many small allocations crossing several chunk boundaries keep their contents */
    enum { N = 20000 };
    uint64_t **ptrs = malloc(sizeof(uint64_t *) * N);
    for (int i = 0; i < N; i++) {
        ptrs[i] = kn_arena_alloc(&a, 24);
        CHECK(aligned16(ptrs[i]));
        ptrs[i][0] = (uint64_t)i;
        ptrs[i][2] = ~(uint64_t)i;
    }
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += ptrs[i][0] != (uint64_t)i || ptrs[i][1] != 0 || ptrs[i][2] != ~(uint64_t)i;
    CHECK_EQ_INT(bad, 0);
    free(ptrs);

    /* a string longer than a chunk */
    size_t n = 2 * CHUNK + 3;
    char *src = malloc(n + 1);
    memset(src, 'q', n);
    src[n] = '\0';
    char *dup = kn_arena_strdup(&a, src);
    CHECK(strlen(dup) == n && !memcmp(dup, src, n + 1));
    char *pr = kn_arena_printf(&a, "<%s>", src);
    CHECK(strlen(pr) == n + 2 && pr[0] == '<' && pr[n + 1] == '>' && pr[1] == 'q');
    free(src);
    kn_arena_fini(&a);
}

static void
test_arena_rewind_same_chunk(void)
{
    KnArena a;
    kn_arena_init(&a);
    char *keep = kn_arena_strdup(&a, "keep me");
    KnArenaMark m = kn_arena_mark(&a);
    size_t total = a.total;
    unsigned char *p = kn_arena_alloc(&a, 100);
    memset(p, 0xEE, 100);
    kn_arena_rewind(&a, m);
    CHECK_EQ_INT(a.total, total);
    CHECK_STR(keep, "keep me");
    /* the space is reused and handed out zeroed again */
    unsigned char *q = kn_arena_alloc(&a, 100);
    CHECK(q == p);
    CHECK(all_zero(q, 100));

    /* rewinding to the same mark twice, and an empty speculative region */
    kn_arena_rewind(&a, m);
    kn_arena_rewind(&a, m);
    CHECK(kn_arena_alloc(&a, 100) == p);

    /* nested marks: rewinding the inner keeps the outer region */
    kn_arena_rewind(&a, m);
    char *outer = kn_arena_strdup(&a, "outer");
    KnArenaMark inner = kn_arena_mark(&a);
    char *in = kn_arena_strdup(&a, "inner");
    CHECK_STR(in, "inner");
    kn_arena_rewind(&a, inner);
    CHECK_STR(outer, "outer");
    kn_arena_rewind(&a, m);
    CHECK_STR(keep, "keep me");
    kn_arena_fini(&a);
}

static void
test_arena_rewind_across_chunks(void)
{
    KnArena a;
    kn_arena_init(&a);
    uint64_t *base = kn_arena_alloc(&a, 64);
    for (int i = 0; i < 8; i++)
        base[i] = 0x1111111111111111ull * (uint64_t)(i + 1);
    KnArenaMark m = kn_arena_mark(&a);
    size_t total = a.total;

    /* speculative work that spills into several new chunks, small and big */
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 5000; i++)
            memset(kn_arena_alloc(&a, 48), 0x5A, 48);
        unsigned char *big = kn_arena_alloc(&a, 5 * CHUNK);
        memset(big, 0x77, 5 * CHUNK);
        CHECK(a.total > total);
        kn_arena_rewind(&a, m); /* frees the new chunks (ASan: no leak at exit) */
        CHECK_EQ_INT(a.total, total);
        for (int i = 0; i < 8; i++)
            CHECK(base[i] == 0x1111111111111111ull * (uint64_t)(i + 1));
        unsigned char *again = kn_arena_alloc(&a, 256);
        CHECK(all_zero(again, 256));
        CHECK(again == (unsigned char *)base + 64); /* back in the first chunk */
        kn_arena_rewind(&a, m);
    }

    /* a mark taken on an empty arena: rewinding frees everything */
    KnArena b;
    kn_arena_init(&b);
    KnArenaMark empty = kn_arena_mark(&b);
    kn_arena_alloc(&b, 10);
    kn_arena_alloc(&b, 3 * CHUNK);
    kn_arena_alloc(&b, 10);
    kn_arena_rewind(&b, empty);
    CHECK(b.head == NULL);
    CHECK_EQ_INT(b.total, 0);
    char *s = kn_arena_strdup(&b, "usable after a full rewind");
    CHECK_STR(s, "usable after a full rewind");
    kn_arena_fini(&b);

    /* a mark inside a later chunk, then rewind to it, then to an earlier mark */
    KnArenaMark first = kn_arena_mark(&a);
    kn_arena_alloc(&a, 2 * CHUNK);
    char *mid = kn_arena_strdup(&a, "mid");
    KnArenaMark second = kn_arena_mark(&a);
    kn_arena_alloc(&a, 2 * CHUNK);
    kn_arena_alloc(&a, 100);
    kn_arena_rewind(&a, second);
    CHECK_STR(mid, "mid");
    kn_arena_rewind(&a, first);
    CHECK_EQ_INT(a.total, total);
    kn_arena_fini(&a);
}

/* ---- vectors ---- */

typedef struct Pair {
    int64_t a;
    double b;
    char tag;
} Pair;

static void
test_vec_arena(void)
{
    KnArena a;
    kn_arena_init(&a);
    KN_VEC(int) v = {0};
    for (int i = 0; i < 100000; i++)
        KN_VEC_PUSH(&a, v, i * 3);
    CHECK_EQ_INT(v.len, 100000);
    CHECK(v.cap >= v.len);
    int bad = 0;
    for (int i = 0; i < v.len; i++)
        bad += v.items[i] != i * 3;
    CHECK_EQ_INT(bad, 0);

    KN_VEC(Pair) pv = {0};
    for (int i = 0; i < 1000; i++) {
        Pair p = {i, i * 0.5, (char)('a' + i % 26)};
        KN_VEC_PUSH(&a, pv, p);
    }
    CHECK_EQ_INT(pv.len, 1000);
    bad = 0;
    for (int i = 0; i < pv.len; i++)
        bad += pv.items[i].a != i || pv.items[i].b != i * 0.5 || pv.items[i].tag != 'a' + i % 26;
    CHECK_EQ_INT(bad, 0);

    /* pushes inside a speculative region vanish with a rewind of the vector and the arena */
    KN_VEC(char *) sv = {0};
    KN_VEC_PUSH(&a, sv, kn_arena_strdup(&a, "zero"));
    KnArenaMark m = kn_arena_mark(&a);
    int len = sv.len, cap = sv.cap;
    char **items = sv.items;
    for (int i = 0; i < 50; i++)
        KN_VEC_PUSH(&a, sv, kn_arena_printf(&a, "s%d", i));
    CHECK_STR(sv.items[50], "s49");
    kn_arena_rewind(&a, m);
    sv.len = len;
    sv.cap = cap;
    sv.items = items;
    CHECK_STR(sv.items[0], "zero");
    KN_VEC_PUSH(&a, sv, kn_arena_strdup(&a, "one"));
    CHECK_EQ_INT(sv.len, 2);
    CHECK_STR(sv.items[1], "one");

    /* direct growth call with a large need jumps straight there */
    int *raw = NULL;
    int rawcap = 0;
    kn_vec_grow_arena(&a, (void **)&raw, &rawcap, sizeof(int), 1000);
    CHECK(rawcap >= 1000);
    CHECK(all_zero(raw, sizeof(int) * (size_t)rawcap));
    kn_arena_fini(&a);
}

static void
test_vec_heap(void)
{
    KN_VEC(uint64_t) v = {0};
    for (uint64_t i = 0; i < 100000; i++)
        KN_HVEC_PUSH(v, i * i);
    CHECK_EQ_INT(v.len, 100000);
    int bad = 0;
    for (int i = 0; i < v.len; i++)
        bad += v.items[i] != (uint64_t)i * (uint64_t)i;
    CHECK_EQ_INT(bad, 0);
    free(v.items);

    KN_VEC(Pair) pv = {0};
    Pair p = {-1, 2.5, 'z'};
    KN_HVEC_PUSH(pv, p);
    CHECK_EQ_INT(pv.len, 1);
    CHECK(pv.cap >= 1);
    CHECK(pv.items[0].a == -1 && pv.items[0].b == 2.5 && pv.items[0].tag == 'z');
    free(pv.items);

    int *raw = NULL;
    int cap = 0;
    kn_vec_grow_heap((void **)&raw, &cap, sizeof(int), 3);
    CHECK(cap >= 3);
    raw[0] = 1;
    raw[cap - 1] = 2;
    kn_vec_grow_heap((void **)&raw, &cap, sizeof(int), 5000);
    CHECK(cap >= 5000);
    CHECK_EQ_INT(raw[0], 1); /* realloc keeps the contents */
    raw[4999] = 3;
    free(raw);
}

/* ---- string builder ---- */

static void
test_strbuf(void)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    CHECK(sb.data != NULL);
    CHECK_EQ_INT(sb.len, 0);
    CHECK_STR(sb.data, "");

    kn_sb_append(&sb, "abc");
    CHECK_STR(sb.data, "abc");
    CHECK_EQ_INT(sb.len, 3);
    kn_sb_appendn(&sb, "defXYZ", 3);
    CHECK_STR(sb.data, "abcdef");
    CHECK_EQ_INT(sb.len, 6);
    kn_sb_appendn(&sb, "ignored", 0);
    CHECK_STR(sb.data, "abcdef");
    kn_sb_append(&sb, "");
    CHECK_EQ_INT(sb.len, 6);
    kn_sb_printf(&sb, "[%d:%s:%x]", -5, "s", 255u);
    CHECK_STR(sb.data, "abcdef[-5:s:ff]");
    CHECK_EQ_INT(sb.len, strlen("abcdef[-5:s:ff]"));
    kn_sb_fini(&sb);
    CHECK(sb.data == NULL);

    /* growth: exact sizes around the initial capacity, then a long build */
    kn_sb_init(&sb);
    char chunk[300];
    for (int n = 250; n <= 260; n++) {
        KnStrBuf t;
        kn_sb_init(&t);
        memset(chunk, 'x', (size_t)n);
        kn_sb_appendn(&t, chunk, (size_t)n);
        CHECK_EQ_INT(t.len, n);
        CHECK(t.data[n] == '\0');
        CHECK(t.cap > t.len);
        kn_sb_fini(&t);
    }
    for (int i = 0; i < 100000; i++)
        kn_sb_printf(&sb, "%d,", i % 10);
    CHECK_EQ_INT(sb.len, 200000);
    CHECK(sb.data[sb.len] == '\0');
    CHECK(sb.data[0] == '0' && sb.data[1] == ',' && sb.data[199998] == '9');
    CHECK(strlen(sb.data) == sb.len);
    kn_sb_fini(&sb);

    /* printf output longer than the internal small buffer */
    kn_sb_init(&sb);
    char big[1000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    kn_sb_append(&sb, "<");
    kn_sb_printf(&sb, "%s|%s", big, big);
    kn_sb_append(&sb, ">");
    CHECK_EQ_INT(sb.len, 1 + 999 + 1 + 999 + 1);
    CHECK(sb.data[1000] == '|' && sb.data[sb.len - 1] == '>' && sb.data[999] == 'y');
    kn_sb_printf(&sb, "%s", "");
    CHECK_EQ_INT(sb.len, 2001);
    kn_sb_fini(&sb);
}

/* ---- diagnostics ---- */

static KnSpan
span(int line, int col, int end_line, int end_col)
{
    KnSpan s = {line, col, end_line, end_col};
    return s;
}

static void
test_diag(void)
{
    KnArena a;
    kn_arena_init(&a);
    KnDiags d = {.arena = &a};
    CHECK_EQ_INT(d.items.len, 0);

    KnDiag *e = kn_diag_error(&d, KN_DIAG_TYPING, span(12, 21, 12, 26), "cannot add %s and %s",
                              "int64", "str");
    CHECK(e != NULL);
    CHECK_EQ_INT(d.items.len, 1);
    CHECK(e == &d.items.items[0]);
    CHECK(e->kind == KN_DIAG_TYPING);
    CHECK_EQ_INT(e->span.line, 12);
    CHECK_EQ_INT(e->span.col, 21);
    CHECK_EQ_INT(e->span.end_line, 12);
    CHECK_EQ_INT(e->span.end_col, 26);
    CHECK_STR(e->message, "cannot add int64 and str");
    CHECK_EQ_INT(e->notes.len, 0);

    kn_diag_note(&d, e, span(30, 5, 30, 10), "'label' is %s: argument %d", "str", 2);
    kn_diag_note(&d, e, span(0, 0, 0, 0), "no position");
    CHECK_EQ_INT(e->notes.len, 2);
    CHECK_STR(e->notes.items[0].message, "'label' is str: argument 2");
    CHECK_EQ_INT(e->notes.items[0].span.line, 30);
    CHECK_EQ_INT(e->notes.items[0].span.col, 5);
    CHECK(e->notes.items[0].filename == NULL);
    CHECK_STR(e->notes.items[1].message, "no position");
    CHECK_EQ_INT(e->notes.items[1].span.line, 0);
    CHECK(e->notes.items[1].filename == NULL);

    /* many diagnostics, each noted right after it is made (the pointer is valid until the next
     * kn_diag_error: the vector may move) */
    for (int i = 0; i < 200; i++) {
        KnDiag *x = kn_diag_error(&d,
                                  i % 3 == 0   ? KN_DIAG_TYPING
                                  : i % 3 == 1 ? KN_DIAG_UNSUPPORTED
                                               : KN_DIAG_LOWERING,
                                  span(i + 1, 1, i + 1, 2), "error %d", i);
        for (int k = 0; k < i % 5; k++)
            kn_diag_note(&d, x, span(i + 1, k + 1, i + 1, k + 2), "note %d.%d", i, k);
    }
    CHECK_EQ_INT(d.items.len, 201);
    e = &d.items.items[0]; /* the first one survived the vector's growth, notes and all */
    CHECK_STR(e->message, "cannot add int64 and str");
    CHECK_EQ_INT(e->notes.len, 2);
    CHECK_STR(e->notes.items[0].message, "'label' is str: argument 2");
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        KnDiag *x = &d.items.items[i + 1];
        char want[64];
        snprintf(want, sizeof want, "error %d", i);
        bad += strcmp(x->message, want) != 0;
        bad += x->span.line != i + 1;
        bad += x->kind != (i % 3 == 0   ? KN_DIAG_TYPING
                           : i % 3 == 1 ? KN_DIAG_UNSUPPORTED
                                        : KN_DIAG_LOWERING);
        bad += x->notes.len != i % 5;
        for (int k = 0; k < x->notes.len; k++) {
            snprintf(want, sizeof want, "note %d.%d", i, k);
            bad += strcmp(x->notes.items[k].message, want) != 0;
            bad += x->notes.items[k].span.col != k + 1;
        }
    }
    CHECK_EQ_INT(bad, 0);

    /* a long message (longer than a chunk) is kept whole */
    size_t n = CHUNK + 100;
    char *long_msg = malloc(n + 1);
    memset(long_msg, 'm', n);
    long_msg[n] = '\0';
    KnDiag *l = kn_diag_error(&d, KN_DIAG_LOWERING, span(1, 1, 1, 1), "%s!", long_msg);
    CHECK(strlen(l->message) == n + 1 && l->message[n] == '!');
    free(long_msg);

    /* a format with '%%' and no arguments */
    KnDiag *p = kn_diag_error(&d, KN_DIAG_UNSUPPORTED, span(2, 3, 2, 4), "100%% unsupported");
    CHECK_STR(p->message, "100% unsupported");
    kn_arena_fini(&a);
}

/* ---- small macros ---- */

static int
try_step(int rc, int *ran)
{
    (*ran)++;
    return rc;
}

static int
try_chain(int fail_at, int *ran)
{
    KN_TRY(try_step(fail_at == 1 ? -1 : 0, ran));
    KN_TRY(try_step(fail_at == 2 ? -1 : 0, ran));
    KN_TRY(try_step(fail_at == 3 ? -1 : 0, ran));
    return 0;
}

static void
test_macros(void)
{
    int ran = 0;
    CHECK_EQ_INT(try_chain(0, &ran), 0);
    CHECK_EQ_INT(ran, 3);
    ran = 0;
    CHECK_EQ_INT(try_chain(2, &ran), -1);
    CHECK_EQ_INT(ran, 2);
    ran = 0;
    CHECK_EQ_INT(try_chain(1, &ran), -1);
    CHECK_EQ_INT(ran, 1);
    int arr[7];
    CHECK_EQ_INT(KN_ARRAY_LEN(arr), 7);
    KN_UNUSED(arr);
}

int
main(void)
{
    test_arena_basic();
    test_arena_big();
    test_arena_rewind_same_chunk();
    test_arena_rewind_across_chunks();
    test_vec_arena();
    test_vec_heap();
    test_strbuf();
    test_diag();
    test_macros();
    if (failures) {
        fprintf(stderr, "test_base: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_base: %d checks passed\n", checks);
    return 0;
}
