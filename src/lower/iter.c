/* iter.c - lowering of the iterator protocol: GETITER and ITERNEXT.
 *
 * Input: typed GETITER/ITERNEXT instructions (types from typing/iter.c). Output: a counted loop.
 * Every iterator kind but RANGE is indexed (a length known before the loop, item k computed
 * directly), so the state of such an iterator is an entry-block alloca {i64 k, i64 len}: GETITER
 * stores {0, len} where the loop is entered, ITERNEXT at the loop's head compares k with len,
 * branches to the exit when they meet, else computes item k in a block of its own, stores
 * k + 1 and goes on to the body. SROA and mem2reg make that the same phi-and-compare loop
 * that the length-and-index form gave LLVM, so it vectorizes the same. The item is computed by
 * the same code as a[k] (kn_lower_getitem) so that views, bounds checks and wraparound are
 * those of indexing. enumerate's count is start + k, with Python's promotion; zip's length is
 * the shortest, taken in argument order.
 *
 * A range iterator (KN_ITER_RANGE: a for over range() with a literal step) is not indexed: it
 * is the counted loop kiln always gave such loops, so that LLVM sees the same induction
 * variable, trip count and vectorized body. Its state is the counter, an entry-block i64 that
 * GETITER sets to start; ITERNEXT compares it with stop (`<` for a positive step, `>` for a
 * negative one), and on an item stores counter + step (a plain wrapping add) and yields the
 * counter. With a step of 1 or -1 that add cannot overflow (counter < stop <= INT64_MAX). A
 * larger step could step past INT64_MAX, so there the state also holds the count of items
 * left, computed before the loop as len(range) is, without overflow, and ITERNEXT tests that
 * count instead: the counter then wraps at most once, after the last item, unused.
 *
 * A new indexed iterable (a list) is one case in seq_len and (if a[k] does not already
 * index it) one in kn_lower_getitem; an iterator that cannot be indexed (a dict, a set, a
 * generator) would keep its own state and be asked for each item in item_at instead: that is
 * the one place to add it. Invariant: the iterable outlives the loop because the frontend keeps
 * it in a $seq variable; the iterator itself holds no reference. */
#include "lower/list.h"

/* ---- range iterators: a counter from start by a constant step ---- */

static int64_t
range_step(const KnInstr *it)
{
    return it->args[2]->imm.i;
}

/* a step of 1 or -1: the compare with stop is the whole test */
static int
range_unit_step(const KnInstr *it)
{
    return range_step(it) == 1 || range_step(it) == -1;
}

static LLVMTypeRef
range_state_type(L *l, const KnInstr *it)
{
    LLVMTypeRef fs[2] = {l->i64, l->i64}; /* the counter; the count of items left */
    return range_unit_step(it) ? l->i64 : LLVMStructTypeInContext(l->ctx, fs, 2, 0);
}

static LLVMValueRef
range_field(L *l, const KnInstr *it, LLVMValueRef state, unsigned k)
{
    if (range_unit_step(it))
        return state;
    return LLVMBuildStructGEP2(l->b, range_state_type(l, it), state, k, "");
}

/* len(range(start, stop, step)) for a constant step of either sign, in unsigned arithmetic:
 * hi - lo - 1 fits in 64 bits unsigned for any int64 lo < hi. */
static LLVMValueRef
range_count(L *l, const KnInstr *it, LLVMValueRef start, LLVMValueRef stop)
{
    int64_t step = range_step(it);
    LLVMValueRef lo = step > 0 ? start : stop, hi = step > 0 ? stop : start;
    uint64_t mag = step > 0 ? (uint64_t)step : -(uint64_t)step;
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
    LLVMValueRef span = LLVMBuildSub(l->b, LLVMBuildSub(l->b, hi, lo, ""), one, "");
    LLVMValueRef n =
        LLVMBuildAdd(l->b, LLVMBuildUDiv(l->b, span, LLVMConstInt(l->i64, mag, 0), ""), one, "");
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, lo, hi, ""), n,
                           LLVMConstInt(l->i64, 0, 0), "");
}

static LLVMValueRef
range_getiter(L *l, KnInstr *in)
{
    LLVMValueRef start = l->vals[in->args[0]->id], stop = l->vals[in->args[1]->id];
    LLVMValueRef state = kn_lower_entry_alloca(l, range_state_type(l, in), "range");
    LLVMBuildStore(l->b, start, range_field(l, in, state, 0));
    if (!range_unit_step(in))
        LLVMBuildStore(l->b, range_count(l, in, start, stop), range_field(l, in, state, 1));
    return state;
}

/* The head of the counted loop: is there an item? Then it is the counter, which steps on.
 * The builder is left in the item's block. */
static LLVMValueRef
range_iternext(L *l, KnInstr *in)
{
    KnInstr *it = in->args[0];
    LLVMValueRef state = l->vals[it->id], step = l->vals[it->args[2]->id];
    LLVMValueRef ip = range_field(l, it, state, 0), lp = NULL, left = NULL, more;
    LLVMValueRef i = LLVMBuildLoad2(l->b, l->i64, ip, "i");
    if (range_unit_step(it)) {
        more = LLVMBuildICmp(l->b, range_step(it) > 0 ? LLVMIntSLT : LLVMIntSGT, i,
                             l->vals[it->args[1]->id], "");
    } else {
        lp = range_field(l, it, state, 1);
        left = LLVMBuildLoad2(l->b, l->i64, lp, "left");
        more = LLVMBuildICmp(l->b, LLVMIntNE, left, LLVMConstInt(l->i64, 0, 0), "");
    }
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "next");
    LLVMBuildCondBr(l->b, more, next, l->blocks[in->targets[1]->id]);
    LLVMPositionBuilderAtEnd(l->b, next);
    if (lp)
        LLVMBuildStore(l->b, LLVMBuildSub(l->b, left, LLVMConstInt(l->i64, 1, 0), ""), lp);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, step, ""), ip);
    return i;
}

/* ---- indexed iterators: the state {k, len} ---- */

static LLVMTypeRef
state_type(L *l)
{
    LLVMTypeRef fs[2] = {l->i64, l->i64};
    return LLVMStructTypeInContext(l->ctx, fs, 2, 0);
}

static LLVMValueRef
field(L *l, LLVMValueRef state, unsigned k)
{
    return LLVMBuildStructGEP2(l->b, state_type(l), state, k, "");
}

/* len() of an iterable, as LEN computes it */
static LLVMValueRef
seq_len(L *l, const KnInstr *seq)
{
    const KnType *t = seq->type;
    LLVMValueRef v = l->vals[seq->id];
    switch (t->kind) {
    case KN_TY_TUPLE:
        return LLVMConstInt(l->i64, (unsigned long long)t->n, 0);
    case KN_TY_ARRAY:
        return kn_lower_array_shape(l, v, 0);
    case KN_TY_STR:
        return kn_lower_str_field(l, v, KN_STR_LENGTH);
    case KN_TY_LIST:
        return kn_lower_list_len(l, v);
    case KN_TY_DICT:
    case KN_TY_SET:
        return kn_lower_dict_len(l, v);
    default: /* KN_TY_RANGE */
        return kn_lower_range_len(l, v);
    }
}

/* the iterator goes over a list (at any depth of enumerate and zip) */
static int
iter_has_list(const KnInstr *it)
{
    if (it->aux == KN_ITER_SEQ)
        return it->args[0]->type->kind == KN_TY_LIST;
    int n = it->aux == KN_ITER_ENUMERATE ? 1 : it->nargs;
    for (int i = 0; i < n; i++)
        if (iter_has_list(it->args[i]))
            return 1;
    return 0;
}

static LLVMValueRef
iter_len(L *l, const KnInstr *it)
{
    if (it->aux == KN_ITER_SEQ)
        return seq_len(l, it->args[0]);
    LLVMValueRef len = NULL;
    int n = it->aux == KN_ITER_ENUMERATE ? 1 : it->nargs;
    for (int i = 0; i < n; i++) {
        LLVMValueRef li = LLVMBuildLoad2(l->b, l->i64, field(l, l->vals[it->args[i]->id], 1), "");
        len =
            !len ? li
                 : LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, li, len, ""), li, len, "");
    }
    return len;
}

LLVMValueRef
kn_lower_getiter(L *l, KnInstr *in)
{
    if (in->aux == KN_ITER_RANGE)
        return range_getiter(l, in);
    LLVMValueRef state = kn_lower_entry_alloca(l, state_type(l), "iter");
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, 0, 0), field(l, state, 0));
    LLVMBuildStore(l->b, iter_len(l, in), field(l, state, 1));
    return state;
}

/* iterable[k], through the code of GETITEM: a GETITEM of the iterable by an index whose value
 * is k (the GETITER's own value slot lends the index its id while it is lowered) */
static LLVMValueRef
seq_item(L *l, KnInstr *it, LLVMValueRef k)
{
    if (it->args[0]->type->kind == KN_TY_STR) /* s[k], its own reference (lower/str.c) */
        return kn_lower_str_item(l, l->vals[it->args[0]->id], k);
    if (it->args[0]->type->kind == KN_TY_LIST) { /* an item of its own (list.c) */
        LLVMValueRef v = kn_lower_list_item(l, l->vals[it->args[0]->id], k, it->type->dtype);
        kn_lower_incref(l, v, it->type->dtype);
        return v;
    }
    if (it->args[0]->type->kind == KN_TY_DICT || it->args[0]->type->kind == KN_TY_SET)
        return kn_lower_dict_iter_item(l, it, k); /* by position in the table: lower/dict.c */
    KnInstr idx = {.op = KN_OP_LOAD, .id = it->id, .type = &kn_type_int64, .span = it->span};
    KnInstr *args[2] = {it->args[0], &idx};
    KnInstr get = {.op = KN_OP_GETITEM,
                   .id = it->id,
                   .nargs = 2,
                   .args = args,
                   .type = it->type->dtype,
                   .span = it->span};
    LLVMValueRef saved = l->vals[it->id];
    l->vals[it->id] = k;
    LLVMValueRef v = kn_lower_getitem(l, &get);
    l->vals[it->id] = saved;
    /* an item is a reference of its own: a view of an array is made with one, an array read
     * out of a tuple is borrowed from it and gets one here */
    if (it->args[0]->type->kind == KN_TY_TUPLE)
        kn_lower_incref(l, v, get.type);
    return v;
}

/* item k of an iterator. A tuple of items holds the references its items came with. */
static LLVMValueRef
item_at(L *l, KnInstr *it, LLVMValueRef k)
{
    LLVMValueRef parts[16];
    int n = 0;
    switch ((KnIterKind)it->aux) {
    case KN_ITER_SEQ:
        return seq_item(l, it, k);
    case KN_ITER_ENUMERATE: {
        KnInstr *start = it->args[1];
        KnType *operand = NULL;
        KnType *rt = kn_typing_binop_result(KN_BIN_ADD, start->type, &kn_type_int64, &operand);
        LLVMValueRef r = kn_lower_binop(l, KN_BIN_ADD, l->vals[start->id], k, operand, start->type,
                                        &kn_type_int64);
        parts[n++] = kn_lower_convert(l, r, operand->kind == KN_TY_BOOL ? &kn_type_bool : rt, rt);
        parts[n++] = item_at(l, it->args[0], k);
        break;
    }
    case KN_ITER_ZIP:
        for (int i = 0; i < it->nargs; i++)
            parts[n++] = item_at(l, it->args[i], k);
        break;
    case KN_ITER_RANGE: /* not indexed, and never inside enumerate() or zip() (typing) */
        return NULL;
    }
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, it->type->dtype));
    for (int i = 0; i < n; i++)
        v = LLVMBuildInsertValue(l->b, v, parts[i], (unsigned)i, "");
    return v;
}

/* The length an iterator is checked against at each step: a list's current length (CPython's
 * list iterator: a list that shrinks or grows in the loop ends it early or late), else the
 * length GETITER stored. */
static LLVMValueRef
live_len(L *l, const KnInstr *it)
{
    if (it->aux == KN_ITER_SEQ && it->args[0]->type->kind == KN_TY_LIST)
        return kn_lower_list_len(l, l->vals[it->args[0]->id]);
    if (it->aux == KN_ITER_SEQ || !iter_has_list(it))
        return LLVMBuildLoad2(l->b, l->i64, field(l, l->vals[it->id], 1), "len");
    LLVMValueRef len = NULL;
    int n = it->aux == KN_ITER_ENUMERATE ? 1 : it->nargs;
    for (int i = 0; i < n; i++) {
        LLVMValueRef li = live_len(l, it->args[i]);
        len =
            !len ? li
                 : LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, li, len, ""), li, len, "");
    }
    return len;
}

LLVMValueRef
kn_lower_iternext(L *l, KnInstr *in)
{
    KnInstr *it = in->args[0];
    if (it->aux == KN_ITER_RANGE)
        return range_iternext(l, in);
    LLVMValueRef state = l->vals[it->id];
    LLVMValueRef kp = field(l, state, 0);
    LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, kp, "k");
    LLVMValueRef len = live_len(l, it);
    kn_lower_dict_iter_guard(l, it, NULL); /* dicts and sets: the same size? (dict.c) */
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "next");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, len, ""), next,
                    l->blocks[in->targets[1]->id]);
    LLVMPositionBuilderAtEnd(l->b, next);
    LLVMValueRef item = item_at(l, it, k);
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
    LLVMBuildStore(
        l->b, kn_lower_binop(l, KN_BIN_ADD, k, one, &kn_type_int64, &kn_type_int64, &kn_type_int64),
        kp);
    return item; /* lower.c branches on to targets[0] once the item's reference is placed */
}
