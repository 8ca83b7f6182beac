/* exc.c - the text of str arguments of exceptions raised with run-time arguments.
 *
 * `raise ValueError(f"bad {x}")` makes a str in compiled code; the exception outlives that
 * str (its owner releases it on the way to the handler or out of the function), so compiled
 * code copies its text here, into one per-thread buffer per argument position, before it
 * raises (kn_rt_exc_text). The dispatcher reads it back when it builds the Python exception
 * (dispatch/exc.c). The buffers are plain malloc'ed memory, reused by the next raise, so they
 * do not count as compiled-code allocations (runtime/memory.c's counters).
 *
 * `raise X from e` keeps e here too (kn_rt_exc_keep_cause: its KnExcInfo and the texts of its
 * str arguments), for the dispatcher to build e as X's __cause__. */
#include "runtime/runtime.h"
#include "runtime/str.h"

#include <stdlib.h>
#include <string.h>

enum { SLOTS = 4 };

static _Thread_local struct {
    void *chars;
    int64_t length;
    int32_t kind;
    size_t cap;
} texts[SLOTS];

void
kn_rt_exc_text(int64_t k, const void *str)
{
    const KnStr *s = str;
    if (k < 0 || k >= SLOTS)
        return;
    size_t n = (size_t)(s->length * s->kind);
    if (n > texts[k].cap || !texts[k].chars) {
        void *p = realloc(texts[k].chars, n ? n : 1);
        if (!p) {
            texts[k].length = 0;
            return;
        }
        texts[k].chars = p;
        texts[k].cap = n ? n : 1;
    }
    if (n)
        memcpy(texts[k].chars, s->data, n);
    texts[k].length = s->length;
    texts[k].kind = s->kind;
}

typedef struct Text {
    void *chars;
    int64_t length;
    int32_t kind;
    size_t cap;
} Text;

static _Thread_local int64_t cause_info[8];
static _Thread_local Text cause_texts[SLOTS];

void
kn_rt_exc_keep_cause(const void *info)
{
    memcpy(cause_info, info, sizeof cause_info);
    for (int k = 0; k < SLOTS; k++) {
        Text *t = &cause_texts[k];
        size_t n = (size_t)(texts[k].length * texts[k].kind);
        if (!texts[k].chars || (n > t->cap && !(t->chars = realloc(t->chars, n ? n : 1)))) {
            t->cap = 0;
            t->length = 0;
            continue;
        }
        if (n > t->cap)
            t->cap = n;
        if (n)
            memcpy(t->chars, texts[k].chars, n);
        t->length = texts[k].length;
        t->kind = texts[k].kind;
    }
}

void
kn_rt_exc_cause(void *info)
{
    memcpy(info, cause_info, sizeof cause_info);
}

void
kn_rt_exc_swap_texts(void)
{
    for (int k = 0; k < SLOTS; k++) {
        Text t = cause_texts[k];
        cause_texts[k].chars = texts[k].chars;
        cause_texts[k].length = texts[k].length;
        cause_texts[k].kind = texts[k].kind;
        cause_texts[k].cap = texts[k].cap;
        texts[k].chars = t.chars;
        texts[k].length = t.length;
        texts[k].kind = t.kind;
        texts[k].cap = t.cap;
    }
}

const void *
kn_rt_exc_text_get(int64_t k, int32_t *kind, int64_t *length)
{
    if (k < 0 || k >= SLOTS || !texts[k].chars) {
        *kind = 1;
        *length = 0;
        return "";
    }
    *kind = texts[k].kind ? texts[k].kind : 1;
    *length = texts[k].length;
    return texts[k].chars;
}
