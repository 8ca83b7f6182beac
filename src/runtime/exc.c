/* exc.c - the text of str arguments of exceptions raised with run-time arguments.
 *
 * `raise ValueError(f"bad {x}")` makes a str in compiled code; the exception outlives that
 * str (its owner releases it on the way to the handler or out of the function), so compiled
 * code copies its text here, into one per-thread buffer per argument position, before it
 * raises (kn_rt_exc_text). The dispatcher reads it back when it builds the Python exception
 * (dispatch/exc.c). The buffers are plain malloc'ed memory, reused by the next raise, so they
 * do not count as compiled-code allocations (runtime/memory.c's counters). */
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
