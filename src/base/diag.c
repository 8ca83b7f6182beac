/* diag.c - structured diagnostics. Stages record errors with a span, a message and notes; they
 * never print or exit. The dispatcher turns the first error into a Python exception that the
 * kiln package renders with the source line and a caret. */
#include "base/base.h"

KnDiag *
kn_diag_error(KnDiags *d, KnDiagKind kind, KnSpan span, const char *fmt, ...)
{
    KnDiag diag;
    memset(&diag, 0, sizeof diag);
    diag.kind = kind;
    diag.span = span;
    va_list ap;
    va_start(ap, fmt);
    diag.message = kn_arena_vprintf(d->arena, fmt, ap);
    va_end(ap);
    KN_VEC_PUSH(d->arena, d->items, diag);
    return &d->items.items[d->items.len - 1];
}

void
kn_diag_note(KnDiags *d, KnDiag *diag, KnSpan span, const char *fmt, ...)
{
    KnNote note;
    note.span = span;
    note.filename = NULL;
    va_list ap;
    va_start(ap, fmt);
    note.message = kn_arena_vprintf(d->arena, fmt, ap);
    va_end(ap);
    KN_VEC_PUSH(d->arena, diag->notes, note);
}
