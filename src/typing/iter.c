/* iter.c - typing of the iterator protocol: GETITER and ITERNEXT.
 *
 * Input: a GETITER (its aux a KnIterKind) whose operands are typed, or an ITERNEXT of a typed
 * GETITER. Output: GETITER gets an iterator type (KN_TY_ITER: the kind, the types it iterates
 * over, and the item type in dtype), ITERNEXT gets the item type. The item types are exactly
 * those of the length-and-index loops kiln compiled before the protocol: item k of a range
 * object is int64, of a tuple its one item type, of an array a[k] (a scalar for 1-D, a view of
 * the first axis otherwise); enumerate gives (start + k, item) with Python's int promotion of
 * start + k, zip the tuple of its iterators' items. A range iterator (a for over range() with a
 * literal step) counts over int64 start and stop by its constant step: its items are int64.
 *
 * The iterables are told apart in one place, seq_item below; a new iterable type (a list, say)
 * is one case there and one in lower/iter.c (seq_len and seq_item). Invariant: an iterable
 * kiln cannot iterate is a diagnostic at the for's iterable, never a crash. */
#include "typing/internal.h"

/* The item type of iterating over a value of type t, or NULL after a diagnostic. */
static KnType *
seq_item(KnCompilation *c, KnInstr *in, KnType *t)
{
    switch (t->kind) {
    case KN_TY_RANGE:
        return &kn_type_int64;
    case KN_TY_STR: /* one-character strings (lower/str.c: kn_lower_str_item) */
        return &kn_type_str;
    case KN_TY_TUPLE: {
        KnType *u = t->n ? t->items[0] : NULL;
        for (int j = 1; u && j < t->n; j++)
            if (t->items[j] != u)
                u = NULL;
        if (!u)
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                          "cannot iterate over %s: a loop over a tuple needs items of one type",
                          t->name);
        return u;
    }
    case KN_TY_DICT:
    case KN_TY_SET:
        return kn_typing_dict_iter_item(c, t); /* typing/dict.c */
    case KN_TY_ARRAY:
        if (!t->ndim) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                          "cannot iterate over %s: iteration over a 0-d array", t->name);
            return NULL;
        }
        return kn_typing_index_result(c, in->span, t, &kn_type_int64);
    case KN_TY_LIST: /* an item type not known yet: a later round (typing/list.c) */
        return t->dtype;
    default:
        kn_diag_error(&c->diags, KN_DIAG_TYPING, in->span,
                      "cannot iterate over %s: kiln iterates over ranges, tuples, arrays, str, "
                      "enumerate() and zip()",
                      t->name);
        return NULL;
    }
}

/* A range iterator: start and stop are int64 (the frontend casts them), the step a nonzero
 * int64 constant (lower/iter.c reads its sign), or NULL after a diagnostic. */
static KnType *
range_item(KnCompilation *c, KnInstr *in, KnType **types)
{
    const KnInstr *step = in->nargs == 3 ? in->args[2] : NULL;
    if (!step || types[0] != &kn_type_int64 || types[1] != &kn_type_int64 ||
        step->op != KN_OP_CONST || types[2] != &kn_type_int64 || !step->imm.i) {
        kn_diag_error(&c->diags, KN_DIAG_LOWERING, in->span,
                      "internal error: getiter range takes int64 start and stop and a nonzero "
                      "int64 constant step");
        return NULL;
    }
    return &kn_type_int64;
}

int
kn_typing_getiter(KnCompilation *c, KnInstr *in)
{
    KnType *types[16];
    for (int i = 0; i < in->nargs; i++) {
        if (!(types[i] = in->args[i]->type))
            return 0; /* a later round */
        int inner = in->aux == KN_ITER_ZIP || (in->aux == KN_ITER_ENUMERATE && i == 0);
        if (inner && types[i]->kind != KN_TY_ITER)
            return 0; /* an inner iterator that failed to type: reported there */
        if (inner && types[i]->id == KN_ITER_RANGE) {
            kn_diag_error(&c->diags, KN_DIAG_LOWERING, in->span,
                          "internal error: a range iterator inside enumerate() or zip()");
            return -1;
        }
    }
    KnType *item;
    switch ((KnIterKind)in->aux) {
    case KN_ITER_SEQ:
        item = seq_item(c, in, types[0]);
        break;
    case KN_ITER_RANGE:
        item = range_item(c, in, types);
        break;
    case KN_ITER_ENUMERATE: {
        KnType *operand, *count = NULL;
        if (kn_type_is_number(types[1]))
            count = kn_typing_binop_result(KN_BIN_ADD, types[1], &kn_type_int64, &operand);
        if (!count || !kn_type_is_number(count)) {
            kn_diag_error(&c->diags, KN_DIAG_TYPING, in->args[1]->span,
                          "enumerate()'s start must be a number, not %s", types[1]->name);
            return -1;
        }
        KnType *pair[2] = {count, types[0]->dtype};
        item = kn_type_tuple(c->types, pair, 2);
        break;
    }
    case KN_ITER_ZIP: {
        KnType *items[16];
        for (int i = 0; i < in->nargs; i++)
            items[i] = types[i]->dtype;
        item = kn_type_tuple(c->types, items, in->nargs);
        break;
    }
    default:
        item = NULL;
    }
    if (!item)
        return c->diags.items.len ? -1 : 0; /* no diagnostic: a list not known yet */
    in->type = kn_type_iter(c->types, (KnIterKind)in->aux, types, in->nargs, item);
    return 0;
}

int
kn_typing_iternext(KnCompilation *c, KnInstr *in)
{
    (void)c;
    KnType *it = in->args[0]->type;
    if (it && it->kind == KN_TY_ITER)
        in->type = it->dtype;
    return 0;
}
