/* list.c - lowering of lists: BUILD_LIST, the operators and methods of lib/list.def, list(),
 * sorted(), and min/max/sum/len of a list.
 *
 * A list value is the KnMemInfo * of a KnList (runtime/list.h). The hot paths are emitted here:
 * len, l[i] (an index check against the current length, then a load in the item type's C
 * layout), l[i] = v, and append while there is room (a store and a length increment); the cold
 * paths call runtime/list.c (growth, gaps, slices, concatenation, sorting). Every operation that
 * changes a list sets its `dirty` flag, which the dispatcher reads to write a reflected
 * argument back (dispatch/box_list.c). Conventions (typing/operator.c): operands borrowed, results
 * new references; a list stores references of its own (an item is incref'd on the way in and
 * released by the runtime when it leaves). Comparisons of items (==, in, index, count, remove,
 * sort) are emitted per item type: numbers by value, tuples item by item, lists recursively. */
#include "lower/list.h"
#include "runtime/list.h"

#include <string.h>

enum { H_LEN = 0, H_CAP = 8, H_ITEMS = 16, H_DIRTY = 40, H_TYPED = 44 };

static LLVMValueRef
gep(L *l, LLVMValueRef p, LLVMValueRef off)
{
    return LLVMBuildInBoundsGEP2(l->b, l->i8, p, &off, 1, "");
}

static LLVMValueRef
at(L *l, LLVMValueRef p, int64_t off)
{
    return gep(l, p, LLVMConstInt(l->i64, (unsigned long long)off, 0));
}

LLVMValueRef
kn_lower_list_hdr(L *l, LLVMValueRef mi)
{
    return LLVMBuildLoad2(l->b, l->ptr, at(l, mi, 8), "list");
}

LLVMValueRef
kn_lower_list_len(L *l, LLVMValueRef mi)
{
    return LLVMBuildLoad2(l->b, l->i64, at(l, kn_lower_list_hdr(l, mi), H_LEN), "len");
}

static void
set_dirty(L *l, LLVMValueRef h)
{
    LLVMBuildStore(l->b, LLVMConstInt(l->i32, 1, 0), at(l, h, H_DIRTY));
}

static LLVMValueRef
isize(L *l, const KnType *item)
{
    return LLVMConstInt(l->i64, item ? kn_type_size(item) : 1, 0);
}

LLVMValueRef
kn_lower_list_item_ptr(L *l, LLVMValueRef mi, LLVMValueRef k, const KnType *item)
{
    LLVMValueRef items = LLVMBuildLoad2(l->b, l->ptr, at(l, kn_lower_list_hdr(l, mi), H_ITEMS), "");
    return gep(l, items, LLVMBuildMul(l->b, k, isize(l, item), ""));
}

LLVMValueRef
kn_lower_list_item(L *l, LLVMValueRef mi, LLVMValueRef k, const KnType *item)
{
    return kn_lower_load_c(l, item, kn_lower_list_item_ptr(l, mi, k, item));
}

int
kn_lower_list_ref_offsets(const KnType *item, int32_t *off, int base, int n)
{
    if (!item || !kn_lower_has_refs(item))
        return n;
    if (item->kind == KN_TY_TUPLE) {
        for (int i = 0; i < item->n && n >= 0; i++)
            n = kn_lower_list_ref_offsets(item->items[i], off,
                                          base + (int)kn_type_tuple_offset(item, i), n);
        return n;
    }
    /* every other kind holding references holds one KnMemInfo * first: an array's meminfo, a
     * list, a str's mi, a dict */
    if (n < 0 || n >= KN_LIST_MAX_REFS)
        return -1;
    off[n++] = base;
    return n;
}

static LLVMValueRef
call(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *ps, int n, LLVMValueRef *args)
{
    return kn_lower_extern(l, name, ret, ps, n, args);
}

static LLVMValueRef
void_t(L *l)
{
    return (LLVMValueRef)LLVMVoidTypeInContext(l->ctx);
}

static void
raise_if_null(L *l, LLVMValueRef p)
{
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, p, ""), KN_EXC_NO_MEMORY);
}

LLVMValueRef
kn_lower_list_new(L *l, const KnType *t, LLVMValueRef cap)
{
    int32_t off[KN_LIST_MAX_REFS];
    int n = kn_lower_list_ref_offsets(t->dtype, off, 0, 0);
    if (n < 0) {
        kn_diag_error(&l->c->diags, KN_DIAG_UNSUPPORTED, l->span,
                      "lists of %s (items holding more than %d references) are not supported",
                      t->dtype->name, KN_LIST_MAX_REFS);
        l->analysis_wrong = 1;
        n = 0;
    }
    LLVMValueRef offs[KN_LIST_MAX_REFS];
    for (int i = 0; i < n; i++)
        offs[i] = LLVMConstInt(l->i32, (unsigned)off[i], 0);
    LLVMTypeRef at_t = LLVMArrayType2(l->i32, (uint64_t)(n ? n : 1));
    LLVMValueRef g = LLVMAddGlobal(l->mod, at_t, "list.refs");
    LLVMSetInitializer(g, n ? LLVMConstArray2(l->i32, offs, (uint64_t)n) : LLVMConstNull(at_t));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMTypeRef ps[4] = {l->i64, l->i32, l->ptr, l->i64};
    LLVMValueRef args[4] = {isize(l, t->dtype), LLVMConstInt(l->i32, (unsigned)n, 0), g, cap};
    LLVMValueRef mi = call(l, "kn_rt_list_new", l->ptr, ps, 4, args);
    raise_if_null(l, mi);
    return mi;
}

/* store v (of type vt) into the item slot p: a reference of the list's own */
static void
store_item(L *l, LLVMValueRef p, LLVMValueRef v, const KnType *vt, const KnType *item)
{
    v = kn_lower_convert(l, v, vt, item);
    if (item->kind == KN_TY_STR) /* a str borrowed from an argument is copied: lower/str.c */
        v = kn_lower_str_stored(l, v);
    else if (item->kind == KN_TY_ARRAY) /* one borrowed from an argument is held */
        v = kn_lower_array_stored(l, v, item);
    else
        kn_lower_incref(l, v, item);
    kn_lower_store_c(l, item, v, p);
}

/* l.append(v): in place while there is room, else through kn_rt_list_append_slot */
static void
append(L *l, LLVMValueRef mi, LLVMValueRef v, const KnType *vt, const KnType *item)
{
    LLVMValueRef h = kn_lower_list_hdr(l, mi);
    LLVMValueRef len = LLVMBuildLoad2(l->b, l->i64, at(l, h, H_LEN), "");
    LLVMValueRef cap = LLVMBuildLoad2(l->b, l->i64, at(l, h, H_CAP), "");
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "append.fast");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "append.grow");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "append.store");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, len, cap, ""), fast, slow);
    LLVMPositionBuilderAtEnd(l->b, fast);
    LLVMValueRef items = LLVMBuildLoad2(l->b, l->ptr, at(l, h, H_ITEMS), "");
    LLVMValueRef p1 = gep(l, items, LLVMBuildMul(l->b, len, isize(l, item), ""));
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, len, LLVMConstInt(l->i64, 1, 0), ""), at(l, h, H_LEN));
    set_dirty(l, h);
    LLVMBasicBlockRef from_fast = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, slow);
    LLVMTypeRef pt = l->ptr;
    LLVMValueRef p2 = call(l, "kn_rt_list_append_slot", l->ptr, &pt, 1, &mi);
    raise_if_null(l, p2);
    LLVMBasicBlockRef from_slow = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef p = LLVMBuildPhi(l->b, l->ptr, "slot");
    LLVMValueRef vals[2] = {p1, p2};
    LLVMBasicBlockRef bbs[2] = {from_fast, from_slow};
    LLVMAddIncoming(p, vals, bbs, 2);
    store_item(l, p, v, vt, item);
}

LLVMValueRef
kn_lower_build_list(L *l, KnInstr *in)
{
    const KnType *item = in->type->dtype;
    LLVMValueRef mi =
        kn_lower_list_new(l, in->type, LLVMConstInt(l->i64, (unsigned long long)in->nargs, 0));
    if (!in->nargs)
        return mi;
    LLVMValueRef h = kn_lower_list_hdr(l, mi);
    LLVMValueRef items = LLVMBuildLoad2(l->b, l->ptr, at(l, h, H_ITEMS), "");
    for (int i = 0; i < in->nargs; i++)
        store_item(l, at(l, items, (int64_t)(i * kn_type_size(item))), l->vals[in->args[i]->id],
                   in->args[i]->type, item);
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, (unsigned long long)in->nargs, 0), at(l, h, H_LEN));
    return mi;
}

/* ---- loops: for k in [start, n) with a counter in an entry-block alloca ---- */

typedef struct Lp {
    LLVMValueRef kp, k;
    LLVMBasicBlockRef head, exit;
} Lp;

static void
loop_begin(L *l, Lp *lp, LLVMValueRef start, LLVMValueRef n)
{
    lp->kp = kn_lower_entry_alloca(l, l->i64, "k");
    LLVMBuildStore(l->b, start, lp->kp);
    lp->head = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "loop");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "body");
    lp->exit = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "done");
    LLVMBuildBr(l->b, lp->head);
    LLVMPositionBuilderAtEnd(l->b, lp->head);
    lp->k = LLVMBuildLoad2(l->b, l->i64, lp->kp, "k");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, lp->k, n, ""), body, lp->exit);
    LLVMPositionBuilderAtEnd(l->b, body);
}

static void
loop_end(L *l, Lp *lp)
{
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, lp->k, LLVMConstInt(l->i64, 1, 0), ""), lp->kp);
    LLVMBuildBr(l->b, lp->head);
    LLVMPositionBuilderAtEnd(l->b, lp->exit);
}

/* ---- comparisons of items ---- */

static LLVMValueRef list_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                            const KnType *tb);

/* kn_rt_str_cmp (eq 0) or kn_rt_str_eq (eq 1) of two str values (runtime/str.h) */
static LLVMValueRef
str_call(L *l, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef args[2] = {kn_lower_str_spill(l, a), kn_lower_str_spill(l, b)};
    LLVMTypeRef ts[2] = {l->ptr, l->ptr};
    return kn_lower_extern(l, name, l->i32, ts, 2, args);
}

static LLVMValueRef
item_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    if (kn_type_is_number(ta) && kn_type_is_number(tb)) {
        KnType *op = kn_type_promote((KnType *)ta, (KnType *)tb);
        return kn_lower_cmp(l, KN_CMP_EQ, a, b, ta, tb, op);
    }
    if (ta->kind == KN_TY_LIST && tb->kind == KN_TY_LIST)
        return list_eq(l, a, b, ta, tb);
    if ((ta->kind == KN_TY_DICT || ta->kind == KN_TY_SET) && ta == tb)
        return kn_lower_dict_eq(l, a, b, ta);
    if (ta->kind == KN_TY_STR && tb->kind == KN_TY_STR)
        return LLVMBuildICmp(l->b, LLVMIntNE, str_call(l, "kn_rt_str_eq", a, b),
                             LLVMConstInt(l->i32, 0, 0), "");
    if (ta->kind == KN_TY_TUPLE && tb->kind == KN_TY_TUPLE && ta->n != tb->n)
        return LLVMConstInt(l->i1, 0, 0);
    if (ta->kind == KN_TY_TUPLE && tb->kind == KN_TY_TUPLE && ta->n == tb->n) {
        LLVMValueRef r = LLVMConstInt(l->i1, 1, 0);
        for (int i = 0; i < ta->n; i++)
            r = LLVMBuildAnd(l->b, r,
                             item_eq(l, LLVMBuildExtractValue(l->b, a, (unsigned)i, ""),
                                     LLVMBuildExtractValue(l->b, b, (unsigned)i, ""), ta->items[i],
                                     tb->items[i]),
                             "");
        return r;
    }
    return kn_lower_cmp(l, KN_CMP_EQ, a, b, ta, tb, NULL);
}

LLVMValueRef
kn_lower_value_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    return item_eq(l, a, b, ta, tb);
}

static LLVMValueRef
list_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i1, "eq");
    LLVMValueRef na = kn_lower_list_len(l, a), nb = kn_lower_list_len(l, b);
    LLVMBuildStore(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, na, nb, ""), r);
    if (!ta->dtype || !tb->dtype)
        return LLVMBuildLoad2(l->b, l->i1, r, "");
    LLVMBasicBlockRef cmp = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "eq.items");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "eq.end");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, na, nb, ""), cmp, end);
    LLVMPositionBuilderAtEnd(l->b, cmp);
    Lp lp;
    loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), na);
    LLVMValueRef e = item_eq(l, kn_lower_list_item(l, a, lp.k, ta->dtype),
                             kn_lower_list_item(l, b, lp.k, tb->dtype), ta->dtype, tb->dtype);
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "eq.next");
    LLVMBasicBlockRef differ = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "eq.differ");
    LLVMBuildCondBr(l->b, e, next, differ);
    LLVMPositionBuilderAtEnd(l->b, differ);
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), r);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, next);
    loop_end(l, &lp);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, end);
    return LLVMBuildLoad2(l->b, l->i1, r, "");
}

static LLVMValueRef find_in(L *l, LLVMValueRef mi, const KnType *item, LLVMValueRef x,
                            const KnType *xt, LLVMValueRef start, LLVMValueRef stop);

/* the first index >= 0 of an item equal to x in mi, or -1 */
static LLVMValueRef
find(L *l, LLVMValueRef mi, const KnType *item, LLVMValueRef x, const KnType *xt)
{
    return find_in(l, mi, item, x, xt, LLVMConstInt(l->i64, 0, 0), NULL);
}

/* the same in [start, stop) (stop NULL: the current length) */
static LLVMValueRef
find_in(L *l, LLVMValueRef mi, const KnType *item, LLVMValueRef x, const KnType *xt,
        LLVMValueRef start, LLVMValueRef stop)
{
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i64, "found");
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, (unsigned long long)-1, 1), r);
    if (!item)
        return LLVMBuildLoad2(l->b, l->i64, r, "");
    Lp lp;
    loop_begin(l, &lp, start, stop ? stop : kn_lower_list_len(l, mi));
    LLVMValueRef e = item_eq(l, kn_lower_list_item(l, mi, lp.k, item), x, item, xt);
    LLVMBasicBlockRef hit = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "find.hit");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "find.next");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "find.end");
    LLVMBuildCondBr(l->b, e, hit, next);
    LLVMPositionBuilderAtEnd(l->b, hit);
    LLVMBuildStore(l->b, lp.k, r);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, next);
    loop_end(l, &lp);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, end);
    return LLVMBuildLoad2(l->b, l->i64, r, "");
}

static LLVMValueRef
count(L *l, LLVMValueRef mi, const KnType *item, LLVMValueRef x, const KnType *xt)
{
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i64, "count");
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, 0, 0), r);
    if (!item)
        return LLVMBuildLoad2(l->b, l->i64, r, "");
    Lp lp;
    loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), kn_lower_list_len(l, mi));
    LLVMValueRef e = item_eq(l, kn_lower_list_item(l, mi, lp.k, item), x, item, xt);
    LLVMValueRef c = LLVMBuildLoad2(l->b, l->i64, r, "");
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, c, LLVMBuildZExt(l->b, e, l->i64, ""), ""), r);
    loop_end(l, &lp);
    return LLVMBuildLoad2(l->b, l->i64, r, "");
}

/* ---- indexes and slices ---- */

/* i (of type it) as an index of mi: negative counts from the end; out of range raises exc */
static LLVMValueRef
index_of(L *l, LLVMValueRef mi, LLVMValueRef i, const KnType *it, int exc)
{
    LLVMValueRef n = kn_lower_list_len(l, mi);
    i = kn_lower_convert(l, i, it, &kn_type_int64);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, LLVMConstInt(l->i64, 0, 0), "");
    i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, n, ""), i, "");
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, n, ""), exc);
    return i;
}

typedef struct Sl {
    LLVMValueRef start, stop, step, n; /* Python's slice.indices(len) and the item count */
} Sl;

static LLVMValueRef
smax(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, a, b, ""), a, b, "");
}

static LLVMValueRef
smin(L *l, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, a, b, ""), a, b, "");
}

/* bounds as i64 with INT64_MIN for None, as a slice value holds them */
static Sl
indices(L *l, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step, LLVMValueRef len)
{
    LLVMValueRef none = LLVMConstInt(l->i64, (unsigned long long)INT64_MIN, 1);
    LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0), one = LLVMConstInt(l->i64, 1, 0);
    LLVMValueRef m1 = LLVMConstInt(l->i64, (unsigned long long)-1, 1);
    step = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, step, none, ""), one, step, "");
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, zero, ""), KN_EXC_SLICE_STEP_ZERO);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, step, zero, "");
    LLVMValueRef lower = LLVMBuildSelect(l->b, neg, m1, zero, "");
    LLVMValueRef upper = LLVMBuildSelect(l->b, neg, LLVMBuildSub(l->b, len, one, ""), len, "");
    LLVMValueRef bound[2] = {start, stop};
    LLVMValueRef dflt[2] = {LLVMBuildSelect(l->b, neg, upper, lower, ""),
                            LLVMBuildSelect(l->b, neg, lower, upper, "")};
    for (int i = 0; i < 2; i++) {
        LLVMValueRef x = bound[i];
        LLVMValueRef isneg = LLVMBuildICmp(l->b, LLVMIntSLT, x, zero, "");
        LLVMValueRef adj = LLVMBuildSelect(
            l->b, isneg, smax(l, LLVMBuildAdd(l->b, x, len, ""), lower), smin(l, x, upper), "");
        bound[i] =
            LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, x, none, ""), dflt[i], adj, "");
    }
    Sl s = {bound[0], bound[1], step, NULL};
    /* step > 0: start < stop ? (stop - start - 1) / step + 1 : 0; step < 0 mirrored */
    LLVMValueRef lo = LLVMBuildSelect(l->b, neg, s.stop, s.start, "");
    LLVMValueRef hi = LLVMBuildSelect(l->b, neg, s.start, s.stop, "");
    LLVMValueRef st = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, step, ""), step, "");
    LLVMValueRef cnt = LLVMBuildAdd(
        l->b,
        LLVMBuildSDiv(l->b, LLVMBuildSub(l->b, LLVMBuildSub(l->b, hi, lo, ""), one, ""), st, ""),
        one, "");
    s.n = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, lo, hi, ""), cnt, zero, "");
    return s;
}

/* the slice an instruction gives: a SLICE op's constant bounds, or a slice value */
static Sl
slice_of(L *l, KnInstr *in, KnInstr *sv, LLVMValueRef mi)
{
    LLVMValueRef len = kn_lower_list_len(l, mi);
    LLVMValueRef b[3];
    if (!sv) {
        const KnSlice *s = in->imm.ptr;
        int64_t v[3] = {s->has_start ? s->start : INT64_MIN, s->has_stop ? s->stop : INT64_MIN,
                        s->has_step ? s->step : INT64_MIN};
        for (int i = 0; i < 3; i++)
            b[i] = LLVMConstInt(l->i64, (unsigned long long)v[i], 1);
    } else {
        for (int i = 0; i < 3; i++)
            b[i] = LLVMBuildExtractValue(l->b, l->vals[sv->id], (unsigned)i, "");
    }
    return indices(l, b[0], b[1], b[2], len);
}

static LLVMValueRef
slice_copy(L *l, LLVMValueRef mi, LLVMValueRef start, LLVMValueRef step, LLVMValueRef n)
{
    LLVMTypeRef ps[4] = {l->ptr, l->i64, l->i64, l->i64};
    LLVMValueRef args[4] = {mi, start, step, n};
    LLVMValueRef r = call(l, "kn_rt_list_slice", l->ptr, ps, 4, args);
    raise_if_null(l, r);
    return r;
}

static LLVMValueRef
lower_getitem(L *l, KnInstr *in)
{
    KnInstr *self = in->args[0];
    LLVMValueRef mi = l->vals[self->id];
    const KnType *item = self->type->dtype;
    if (in->op == KN_OP_SLICE || in->args[1]->type->kind == KN_TY_SLICE) {
        Sl s = slice_of(l, in, in->op == KN_OP_SLICE ? NULL : in->args[1], mi);
        return slice_copy(l, mi, s.start, s.step, s.n);
    }
    LLVMValueRef k =
        index_of(l, mi, l->vals[in->args[1]->id], in->args[1]->type, KN_EXC_LIST_INDEX);
    LLVMValueRef v = kn_lower_list_item(l, mi, k, item);
    kn_lower_incref(l, v, item);
    return v;
}

static LLVMValueRef
lower_setitem(L *l, KnInstr *in)
{
    KnInstr *self = in->args[0];
    LLVMValueRef mi = l->vals[self->id];
    const KnType *item = self->type->dtype;
    KnInstr *val = in->args[2];
    if (in->args[1]->type->kind == KN_TY_SLICE) {
        Sl s = slice_of(l, in, in->args[1], mi);
        LLVMValueRef src = l->vals[val->id];
        LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
        LLVMValueRef stop = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, s.step, one, ""),
                                            LLVMBuildAdd(l->b, s.start, s.n, ""), s.stop, "");
        LLVMTypeRef ps[6] = {l->ptr, l->i64, l->i64, l->i64, l->i64, l->ptr};
        LLVMValueRef args[6] = {mi, s.start, stop, s.step, s.n, src};
        LLVMValueRef rc = call(l, "kn_rt_list_assign_slice", l->i32, ps, 6, args);
        LLVMValueRef sizes[2] = {kn_lower_list_len(l, src), s.n};
        kn_lower_raise_if_args(
            l,
            LLVMBuildICmp(l->b, LLVMIntEQ, rc, LLVMConstInt(l->i32, (unsigned long long)-1, 1), ""),
            KN_EXC_LIST_SLICE_SIZE, sizes, 2);
        kn_lower_raise_if(
            l,
            LLVMBuildICmp(l->b, LLVMIntEQ, rc, LLVMConstInt(l->i32, (unsigned long long)-2, 1), ""),
            KN_EXC_NO_MEMORY);
        return NULL;
    }
    LLVMValueRef k =
        index_of(l, mi, l->vals[in->args[1]->id], in->args[1]->type, KN_EXC_LIST_ASSIGN_INDEX);
    LLVMValueRef p = kn_lower_list_item_ptr(l, mi, k, item);
    LLVMValueRef old = kn_lower_has_refs(item) ? kn_lower_load_c(l, item, p) : NULL;
    store_item(l, p, l->vals[val->id], val->type, item);
    if (old)
        kn_lower_decref(l, old, item);
    set_dirty(l, kn_lower_list_hdr(l, mi));
    return NULL;
}

/* ---- ordering: < <= > >= of lists (and of the tuples and lists they hold) ---- */

/* CPython's sequence ordering: the first pair of items that differ (by ==) is compared with op;
 * when every common item is equal, the lengths are. Lists loop, tuples unroll. */
static LLVMValueRef item_order(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                               const KnType *tb);

static LLVMValueRef
len_order(L *l, KnCmp op, LLVMValueRef na, LLVMValueRef nb)
{
    LLVMIntPredicate p = op == KN_CMP_LT   ? LLVMIntSLT
                         : op == KN_CMP_LE ? LLVMIntSLE
                         : op == KN_CMP_GT ? LLVMIntSGT
                                           : LLVMIntSGE;
    return LLVMBuildICmp(l->b, p, na, nb, "");
}

/* at a pair x, y: if they differ, r = x op y and the comparison ends (at end) */
static void
order_step(L *l, KnCmp op, LLVMValueRef r, LLVMBasicBlockRef end, LLVMValueRef x, LLVMValueRef y,
           const KnType *tx, const KnType *ty)
{
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ord.next");
    LLVMBasicBlockRef differ = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ord.differ");
    LLVMBuildCondBr(l->b, item_eq(l, x, y, tx, ty), next, differ);
    LLVMPositionBuilderAtEnd(l->b, differ);
    LLVMBuildStore(l->b, item_order(l, op, x, y, tx, ty), r);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, next);
}

static LLVMValueRef
tuple_order(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    int n = ta->n < tb->n ? ta->n : tb->n;
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i1, "ord");
    LLVMBuildStore(l->b,
                   len_order(l, op, LLVMConstInt(l->i64, (unsigned long long)ta->n, 0),
                             LLVMConstInt(l->i64, (unsigned long long)tb->n, 0)),
                   r);
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ord.end");
    for (int i = 0; i < n; i++)
        order_step(l, op, r, end, LLVMBuildExtractValue(l->b, a, (unsigned)i, ""),
                   LLVMBuildExtractValue(l->b, b, (unsigned)i, ""), ta->items[i], tb->items[i]);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, end);
    return LLVMBuildLoad2(l->b, l->i1, r, "");
}

static LLVMValueRef
list_order(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    LLVMValueRef na = kn_lower_list_len(l, a), nb = kn_lower_list_len(l, b);
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i1, "ord");
    LLVMBuildStore(l->b, len_order(l, op, na, nb), r);
    if (!ta->dtype || !tb->dtype) /* an empty display: no items to compare */
        return LLVMBuildLoad2(l->b, l->i1, r, "");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "ord.end");
    Lp lp;
    loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), smin(l, na, nb));
    order_step(l, op, r, end, kn_lower_list_item(l, a, lp.k, ta->dtype),
               kn_lower_list_item(l, b, lp.k, tb->dtype), ta->dtype, tb->dtype);
    loop_end(l, &lp);
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, end);
    return LLVMBuildLoad2(l->b, l->i1, r, "");
}

static LLVMValueRef
item_order(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta, const KnType *tb)
{
    if (ta->kind == KN_TY_LIST)
        return list_order(l, op, a, b, ta, tb);
    if (ta->kind == KN_TY_TUPLE)
        return tuple_order(l, op, a, b, ta, tb);
    if (ta->kind == KN_TY_STR) {
        LLVMValueRef c = str_call(l, "kn_rt_str_cmp", a, b);
        return len_order(l, op, LLVMBuildSExt(l->b, c, l->i64, ""), LLVMConstInt(l->i64, 0, 0));
    }
    return kn_lower_cmp(l, op, a, b, ta, tb, kn_type_promote((KnType *)ta, (KnType *)tb));
}

/* ---- sorting: a comparison function per key type, emitted into the module ---- */

static LLVMValueRef
key_lt(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    if (t->kind == KN_TY_STR)
        return LLVMBuildICmp(l->b, LLVMIntSLT, str_call(l, "kn_rt_str_cmp", a, b),
                             LLVMConstInt(l->i32, 0, 0), "");
    if (t->kind != KN_TY_TUPLE)
        return kn_lower_cmp(l, KN_CMP_LT, a, b, t, t, (KnType *)t);
    /* lexicographic: the first item that differs decides */
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i1, "lt");
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), r);
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "lt.end");
    for (int i = 0; i < t->n; i++) {
        LLVMValueRef x = LLVMBuildExtractValue(l->b, a, (unsigned)i, "");
        LLVMValueRef y = LLVMBuildExtractValue(l->b, b, (unsigned)i, "");
        LLVMValueRef less = key_lt(l, x, y, t->items[i]);
        LLVMValueRef more = key_lt(l, y, x, t->items[i]);
        LLVMBuildStore(l->b, less, r);
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "lt.next");
        LLVMBuildCondBr(l->b, LLVMBuildOr(l->b, less, more, ""), end, next);
        LLVMPositionBuilderAtEnd(l->b, next);
    }
    LLVMBuildBr(l->b, end);
    LLVMPositionBuilderAtEnd(l->b, end);
    return LLVMBuildLoad2(l->b, l->i1, r, "");
}

static LLVMValueRef
lt_body(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    return LLVMBuildZExt(l->b, key_lt(l, a, b, t), l->i32, "");
}

/* i32 lt(ptr a, ptr b) over values of t in C layout, a private function of the module */
static LLVMValueRef
lt_function(L *l, const KnType *t)
{
    return kn_lower_pair_function(l, "list.lt", t, lt_body);
}

/* key(item) through the jitted callee typing resolved (impl->callee), as a call instruction
 * whose argument borrows the sort's own value slot */
static LLVMValueRef
call_key(L *l, KnInstr *in, KnInstr *key, LLVMValueRef item, const KnType *it)
{
    KnCallImpl *impl = in->impl;
    KnCallImpl ki = {.kind = KN_CALL_JITTED, .callee = impl->callee};
    KnInstr arg = {.op = KN_OP_LOAD, .id = in->id, .type = (KnType *)it, .span = in->span};
    KnInstr *args[2] = {key, &arg};
    KnInstr c = {.op = KN_OP_CALL,
                 .id = in->id,
                 .nargs = 2,
                 .args = args,
                 .type = impl->result,
                 .span = in->span,
                 .impl = &ki};
    LLVMValueRef saved = l->vals[in->id];
    l->vals[in->id] = item;
    LLVMValueRef v = kn_lower_jitted_call(l, &c);
    l->vals[in->id] = saved;
    return v;
}

/* sort mi in place: by the items, or by key(item) (in a list of keys owned until the block's
 * end, so that an exception raised by key releases it) */
static void
sort_list(L *l, KnInstr *in, LLVMValueRef mi, const KnType *item)
{
    KnInstr *key = kn_typing_arg(in, KN_KEYWORD_ONLY, "key");
    KnInstr *rev = kn_typing_arg(in, KN_KEYWORD_ONLY, "reverse");
    LLVMValueRef r = rev ? kn_lower_convert(l, kn_lower_truth(l, l->vals[rev->id], rev->type),
                                            &kn_type_bool, &kn_type_int32)
                         : LLVMConstInt(l->i32, 0, 0);
    LLVMValueRef keys = LLVMConstNull(l->ptr), keysize = isize(l, item);
    const KnType *kt = item;
    if (key && key->type->kind != KN_TY_NONE) {
        KnCallImpl *impl = in->impl;
        kt = impl->result;
        KnType *klt = kn_type_list(l->c->types, (KnType *)kt);
        LLVMValueRef n = kn_lower_list_len(l, mi);
        LLVMValueRef kl = kn_lower_list_new(l, klt, n);
        kn_lower_own(l, kl, klt);
        Lp lp;
        loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), n);
        LLVMValueRef kv = call_key(l, in, key, kn_lower_list_item(l, mi, lp.k, item), item);
        append(l, kl, kv, kt, kt);
        if (kn_lower_has_refs(
                kt)) /* the key's result came with a reference; the list took its own */
            kn_lower_decref(l, kv, kt);
        loop_end(l, &lp);
        keys = LLVMBuildLoad2(l->b, l->ptr, at(l, kn_lower_list_hdr(l, kl), H_ITEMS), "");
        keysize = isize(l, kt);
    }
    LLVMTypeRef ps[5] = {l->ptr, l->ptr, l->i64, l->ptr, l->i32};
    LLVMValueRef rc;
    if (kt->kind == KN_TY_INT) { /* NumPy's sorts (runtime/list.c) */
        int k = kt->bits == 8 ? 0 : kt->bits == 16 ? 1 : kt->bits == 32 ? 2 : 3;
        ps[3] = l->i32;
        LLVMValueRef dt =
            LLVMConstInt(l->i32, (unsigned)((kt->is_signed ? KN_DT_I8 : KN_DT_U8) + k), 0);
        LLVMValueRef args[5] = {mi, keys, keysize, dt, r};
        rc = call(l, "kn_rt_list_sort_ints", l->i32, ps, 5, args);
    } else {
        LLVMValueRef args[5] = {mi, keys, keysize, lt_function(l, kt), r};
        rc = call(l, "kn_rt_list_sort", l->i32, ps, 5, args);
    }
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, rc, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
}

/* ---- filling a list from an iterable ---- */

/* append every item of src to mi */
static void
extend_from(L *l, KnInstr *in, LLVMValueRef mi, const KnType *item, KnInstr *srci)
{
    const KnType *st = srci->type;
    LLVMValueRef src = l->vals[srci->id];
    switch (st->kind) {
    case KN_TY_LIST: {
        LLVMTypeRef ps[2] = {l->ptr, l->ptr};
        LLVMValueRef args[2] = {mi, src};
        LLVMValueRef rc = call(l, "kn_rt_list_extend", l->i32, ps, 2, args);
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, rc, LLVMConstInt(l->i32, 0, 0), ""),
                          KN_EXC_NO_MEMORY);
        return;
    }
    case KN_TY_TUPLE:
        for (int i = 0; i < st->n; i++)
            append(l, mi, LLVMBuildExtractValue(l->b, src, (unsigned)i, ""), st->items[i], item);
        return;
    case KN_TY_RANGE: {
        Lp lp;
        LLVMValueRef start = LLVMBuildExtractValue(l->b, src, 0, "");
        LLVMValueRef step = LLVMBuildExtractValue(l->b, src, 2, "");
        loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), kn_lower_range_len(l, src));
        append(l, mi, LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, lp.k, step, ""), ""),
               &kn_type_int64, item);
        loop_end(l, &lp);
        return;
    }
    case KN_TY_STR: { /* its characters, each a str of its own */
        Lp lp;
        loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), kn_lower_str_field(l, src, KN_STR_LENGTH));
        LLVMValueRef v = kn_lower_str_item(l, src, lp.k);
        append(l, mi, v, item, item);
        kn_lower_decref(l, v, item); /* the list took its own reference */
        loop_end(l, &lp);
        return;
    }
    case KN_TY_DICT: /* the keys, values or items in insertion order, as a for loop reads them */
    case KN_TY_SET: {
        Lp lp;
        loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), kn_lower_dict_len(l, src));
        LLVMValueRef v = kn_lower_dict_seq_item(l, in, srci, item, lp.k);
        append(l, mi, v, item, item);
        kn_lower_decref(l, v, item);
        loop_end(l, &lp);
        return;
    }
    default: { /* an array: a[k] as GETITEM computes it (a view of the first axis for n-d); the
                * index borrows the call's own value slot */
        Lp lp;
        loop_begin(l, &lp, LLVMConstInt(l->i64, 0, 0), kn_lower_array_shape(l, src, 0));
        KnInstr idx = {.op = KN_OP_LOAD, .id = in->id, .type = &kn_type_int64, .span = in->span};
        KnInstr *args[2] = {srci, &idx};
        KnInstr get = {.op = KN_OP_GETITEM,
                       .id = in->id,
                       .nargs = 2,
                       .args = args,
                       .type = (KnType *)item,
                       .span = in->span};
        LLVMValueRef saved = l->vals[in->id];
        l->vals[in->id] = lp.k;
        LLVMValueRef v = kn_lower_getitem(l, &get);
        l->vals[in->id] = saved;
        append(l, mi, v, item, item);
        if (kn_lower_has_refs(item)) /* a view came with a reference; the list took its own */
            kn_lower_decref(l, v, item);
        loop_end(l, &lp);
        return;
    }
    }
}

/* list(x) and sorted(x): a new list of x's items, owned (kn_lower_own) while it is filled so
 * that a raise releases it; the instruction's own registration of its result is the same entry */
static LLVMValueRef
list_from(L *l, KnInstr *in, const KnType *lt, KnInstr *src)
{
    LLVMValueRef mi;
    if (src->type->kind == KN_TY_LIST) {
        LLVMValueRef s = l->vals[src->id];
        mi = slice_copy(l, s, LLVMConstInt(l->i64, 0, 0), LLVMConstInt(l->i64, 1, 0),
                        kn_lower_list_len(l, s));
        kn_lower_own(l, mi, lt);
        return mi;
    }
    mi = kn_lower_list_new(l, lt, LLVMConstInt(l->i64, 0, 0));
    kn_lower_own(l, mi, lt);
    extend_from(l, in, mi, lt->dtype, src);
    return mi;
}

/* ---- min, max, sum ---- */

LLVMValueRef
kn_lower_list_builtin(L *l, KnInstr *in, int id)
{
    KnInstr *src = in->args[1];
    LLVMValueRef mi = l->vals[src->id];
    const KnType *item = src->type->dtype;
    LLVMValueRef n = kn_lower_list_len(l, mi);
    const KnType *rt = in->type;
    LLVMValueRef acc = kn_lower_entry_alloca(l, kn_lower_type(l, rt), "acc");
    LLVMValueRef start = LLVMConstInt(l->i64, 0, 0);
    if (id == KN_BI_SUM) {
        const KnType *op = ((KnCallImpl *)in->impl)->operand;
        LLVMValueRef s0 = in->nargs > 2
                              ? kn_lower_convert(l, l->vals[in->args[2]->id], in->args[2]->type, op)
                              : kn_lower_convert(l, start, &kn_type_int64, op);
        LLVMBuildStore(l->b, s0, acc);
        Lp lp;
        loop_begin(l, &lp, start, n);
        LLVMValueRef x = kn_lower_list_item(l, mi, lp.k, item);
        LLVMValueRef a = LLVMBuildLoad2(l->b, kn_lower_type(l, rt), acc, "");
        LLVMBuildStore(l->b, kn_lower_binop(l, KN_BIN_ADD, a, x, op, op, item), acc);
        loop_end(l, &lp);
        return LLVMBuildLoad2(l->b, kn_lower_type(l, rt), acc, "");
    }
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n, start, ""),
                      id == KN_BI_MIN ? KN_EXC_LIST_MIN_EMPTY : KN_EXC_LIST_MAX_EMPTY);
    LLVMBuildStore(l->b, kn_lower_list_item(l, mi, start, item), acc);
    Lp lp;
    loop_begin(l, &lp, LLVMConstInt(l->i64, 1, 0), n);
    LLVMValueRef x = kn_lower_list_item(l, mi, lp.k, item);
    LLVMValueRef a = LLVMBuildLoad2(l->b, kn_lower_type(l, rt), acc, "");
    /* as Python: min keeps the first of equal items (x < acc), max too (x > acc) */
    LLVMValueRef better =
        kn_lower_cmp(l, id == KN_BI_MIN ? KN_CMP_LT : KN_CMP_GT, x, a, item, item, (KnType *)item);
    LLVMBuildStore(l->b, LLVMBuildSelect(l->b, better, x, a, ""), acc);
    loop_end(l, &lp);
    return LLVMBuildLoad2(l->b, kn_lower_type(l, rt), acc, "");
}

/* ---- methods ---- */

static LLVMValueRef
none(L *l)
{
    return LLVMConstInt(l->i8, 0, 0);
}

static LLVMValueRef
argv_(L *l, KnInstr *in, int i)
{
    return l->vals[in->args[i + 1]->id];
}

static const KnType *
argt_(KnInstr *in, int i)
{
    return in->args[i + 1]->type;
}

static LLVMValueRef
lower_pop(L *l, KnInstr *in, LLVMValueRef mi, const KnType *item)
{
    LLVMValueRef n = kn_lower_list_len(l, mi);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n, LLVMConstInt(l->i64, 0, 0), ""),
                      KN_EXC_LIST_POP_EMPTY);
    LLVMValueRef k = in->nargs > 1
                         ? index_of(l, mi, argv_(l, in, 0), argt_(in, 0), KN_EXC_LIST_POP_INDEX)
                         : LLVMBuildSub(l->b, n, LLVMConstInt(l->i64, 1, 0), "");
    LLVMValueRef tmp = kn_lower_entry_alloca(l, LLVMArrayType2(l->i8, kn_type_size(item)), "pop");
    LLVMSetAlignment(tmp, 16); /* the item is loaded from it in its own type */
    LLVMTypeRef ps[3] = {l->ptr, l->i64, l->ptr};
    LLVMValueRef args[3] = {mi, k, tmp};
    call(l, "kn_rt_list_take", (LLVMTypeRef)void_t(l), ps, 3, args);
    return kn_lower_load_c(l, item, tmp); /* the list's reference moves to the result */
}

static LLVMValueRef
lower_insert(L *l, KnInstr *in, LLVMValueRef mi, const KnType *item)
{
    /* Python clips the index to [0, len] */
    LLVMValueRef n = kn_lower_list_len(l, mi), zero = LLVMConstInt(l->i64, 0, 0);
    LLVMValueRef i = kn_lower_convert(l, argv_(l, in, 0), argt_(in, 0), &kn_type_int64);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, zero, "");
    i = LLVMBuildSelect(l->b, neg, smax(l, LLVMBuildAdd(l->b, i, n, ""), zero), smin(l, i, n), "");
    LLVMTypeRef ps[3] = {l->ptr, l->i64, l->i64};
    LLVMValueRef args[3] = {mi, i, LLVMConstInt(l->i64, 1, 0)};
    LLVMValueRef p = call(l, "kn_rt_list_open", l->ptr, ps, 3, args);
    raise_if_null(l, p);
    store_item(l, p, argv_(l, in, 1), argt_(in, 1), item);
    return none(l);
}

static void
delete_range(L *l, LLVMValueRef mi, LLVMValueRef i, LLVMValueRef j)
{
    LLVMTypeRef ps[3] = {l->ptr, l->i64, l->i64};
    LLVMValueRef args[3] = {mi, i, j};
    call(l, "kn_rt_list_delete", (LLVMTypeRef)void_t(l), ps, 3, args);
}

static LLVMValueRef
lower_delitem(L *l, KnInstr *in, LLVMValueRef mi)
{
    if (argt_(in, 0)->kind == KN_TY_SLICE) {
        Sl s = slice_of(l, in, in->args[1], mi);
        LLVMTypeRef ps[4] = {l->ptr, l->i64, l->i64, l->i64};
        LLVMValueRef args[4] = {mi, s.start, s.step, s.n};
        call(l, "kn_rt_list_delete_slice", (LLVMTypeRef)void_t(l), ps, 4, args);
        return none(l);
    }
    LLVMValueRef k = index_of(l, mi, argv_(l, in, 0), argt_(in, 0), KN_EXC_LIST_ASSIGN_INDEX);
    delete_range(l, mi, k, LLVMBuildAdd(l->b, k, LLVMConstInt(l->i64, 1, 0), ""));
    return none(l);
}

/* remove(x), index(x): a ValueError when x is not there */
/* list.index's start and stop: as slice bounds, clipped to [0, len] */
static LLVMValueRef
clip_bound(L *l, LLVMValueRef v, const KnType *t, LLVMValueRef n)
{
    LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0);
    v = kn_lower_convert(l, v, t, &kn_type_int64);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, v, zero, "");
    return LLVMBuildSelect(l->b, neg, smax(l, LLVMBuildAdd(l->b, v, n, ""), zero), smin(l, v, n),
                           "");
}

static LLVMValueRef
lower_find(L *l, KnInstr *in, int id, LLVMValueRef mi, const KnType *item)
{
    LLVMValueRef n = kn_lower_list_len(l, mi);
    int nargs = in->nargs - 1;
    LLVMValueRef start =
        nargs > 1 ? clip_bound(l, argv_(l, in, 1), argt_(in, 1), n) : LLVMConstInt(l->i64, 0, 0);
    LLVMValueRef stop = nargs > 2 ? clip_bound(l, argv_(l, in, 2), argt_(in, 2), n) : n;
    LLVMValueRef k = find_in(l, mi, item, argv_(l, in, 0), argt_(in, 0), start, stop);
    LLVMValueRef missing = LLVMBuildICmp(l->b, LLVMIntSLT, k, LLVMConstInt(l->i64, 0, 0), "");
    if (id == KN_BI_LIST_REMOVE) {
        kn_lower_raise_if(l, missing, KN_EXC_LIST_REMOVE);
        delete_range(l, mi, k, LLVMBuildAdd(l->b, k, LLVMConstInt(l->i64, 1, 0), ""));
        return none(l);
    }
    if (argt_(in, 0)->kind == KN_TY_INT || argt_(in, 0)->kind == KN_TY_BOOL) {
        LLVMValueRef x = kn_lower_convert(l, argv_(l, in, 0), argt_(in, 0), &kn_type_int64);
        kn_lower_raise_if_args(l, missing, KN_EXC_LIST_NOT_IN, &x, 1);
    } else {
        kn_lower_raise_if(l, missing, KN_EXC_LIST_NOT_IN_VALUE);
    }
    return k;
}

static void
call1(L *l, const char *name, LLVMValueRef mi)
{
    LLVMTypeRef pt = l->ptr;
    call(l, name, (LLVMTypeRef)void_t(l), &pt, 1, &mi);
}

static LLVMValueRef
lower_method(L *l, KnInstr *in, int id)
{
    KnInstr *self = in->args[0]->args[0];
    LLVMValueRef mi = l->vals[self->id];
    const KnType *item = self->type->dtype;
    switch (id) {
    case KN_BI_LIST_APPEND:
        append(l, mi, argv_(l, in, 0), argt_(in, 0), item);
        return none(l);
    case KN_BI_LIST_EXTEND:
        if (item)
            extend_from(l, in, mi, item, in->args[1]);
        return none(l);
    case KN_BI_LIST_INSERT:
        return lower_insert(l, in, mi, item);
    case KN_BI_LIST_POP:
        return lower_pop(l, in, mi, item);
    case KN_BI_LIST_REMOVE:
    case KN_BI_LIST_INDEX:
        return lower_find(l, in, id, mi, item);
    case KN_BI_LIST_COUNT:
        return count(l, mi, item, argv_(l, in, 0), argt_(in, 0));
    case KN_BI_LIST_REVERSE:
        call1(l, "kn_rt_list_reverse", mi);
        return none(l);
    case KN_BI_LIST_CLEAR:
        call1(l, "kn_rt_list_clear", mi);
        return none(l);
    case KN_BI_LIST_COPY:
        return slice_copy(l, mi, LLVMConstInt(l->i64, 0, 0), LLVMConstInt(l->i64, 1, 0),
                          kn_lower_list_len(l, mi));
    case KN_BI_LIST_SORT:
        sort_list(l, in, mi, item);
        return none(l);
    case KN_BI_LIST_DELITEM:
        return lower_delitem(l, in, mi);
    default:
        return NULL;
    }
}

/* ---- operators ---- */

static LLVMValueRef
lower_binop(L *l, KnInstr *in, int id)
{
    LLVMValueRef a = l->vals[in->args[0]->id], b = l->vals[in->args[1]->id];
    LLVMTypeRef ps[2] = {l->ptr, l->ptr};
    switch (id) {
    case KN_BI_LIST_ADD: {
        LLVMValueRef args[2] = {a, b};
        LLVMValueRef r = call(l, "kn_rt_list_concat", l->ptr, ps, 2, args);
        raise_if_null(l, r);
        return r;
    }
    case KN_BI_LIST_IADD: {
        LLVMValueRef args[2] = {a, b};
        LLVMValueRef rc = call(l, "kn_rt_list_extend", l->i32, ps, 2, args);
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, rc, LLVMConstInt(l->i32, 0, 0), ""),
                          KN_EXC_NO_MEMORY);
        kn_lower_incref(l, a, in->args[0]->type);
        /* a value of its own, so that the result's ownership is not merged with a's */
        LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0);
        return LLVMBuildInBoundsGEP2(l->b, l->i8, a, &zero, 1, "iadd");
    }
    default: { /* l * k, k * l */
        int left = in->args[0]->type->kind == KN_TY_LIST;
        KnInstr *k = in->args[left ? 1 : 0];
        LLVMTypeRef qs[2] = {l->ptr, l->i64};
        LLVMValueRef args[2] = {left ? a : b,
                                kn_lower_convert(l, l->vals[k->id], k->type, &kn_type_int64)};
        LLVMValueRef r = call(l, "kn_rt_list_repeat", l->ptr, qs, 2, args);
        raise_if_null(l, r);
        return r;
    }
    }
}

static LLVMValueRef
lower_cmp(L *l, KnInstr *in, int id)
{
    KnInstr *a = in->args[0], *b = in->args[1];
    if (id == KN_BI_LIST_CONTAINS) {
        LLVMValueRef k = find(l, l->vals[b->id], b->type->dtype, l->vals[a->id], a->type);
        return LLVMBuildICmp(l->b, in->aux == KN_CMP_NOTIN ? LLVMIntSLT : LLVMIntSGE, k,
                             LLVMConstInt(l->i64, 0, 0), "");
    }
    if (id == KN_BI_LIST_LT || id == KN_BI_LIST_LE || id == KN_BI_LIST_GT || id == KN_BI_LIST_GE)
        return list_order(l, (KnCmp)in->aux, l->vals[a->id], l->vals[b->id], a->type, b->type);
    LLVMValueRef eq = a->type->kind == KN_TY_LIST && b->type->kind == KN_TY_LIST
                          ? list_eq(l, l->vals[a->id], l->vals[b->id], a->type, b->type)
                          : LLVMConstInt(l->i1, 0, 0);
    return id == KN_BI_LIST_NE ? LLVMBuildNot(l->b, eq, "") : eq;
}

LLVMValueRef
kn_lower_rule_list(L *l, KnInstr *in, int id)
{
    if (kn_lib_flags(id) & KN_CF_METHOD)
        return lower_method(l, in, id);
    switch (id) {
    case KN_BI_LIST_NEW:
        if (in->nargs == 1)
            return kn_lower_list_new(l, in->type, LLVMConstInt(l->i64, 0, 0));
        return list_from(l, in, in->type, in->args[1]);
    case KN_BI_TYPED_LIST: { /* kiln.typed.List(): a list that boxes as one (KnList.typed) */
        LLVMValueRef mi = in->nargs == 1
                              ? kn_lower_list_new(l, in->type, LLVMConstInt(l->i64, 0, 0))
                              : list_from(l, in, in->type, in->args[1]);
        LLVMBuildStore(l->b, LLVMConstInt(l->i32, 1, 0), at(l, kn_lower_list_hdr(l, mi), H_TYPED));
        return mi;
    }
    case KN_BI_SORTED: {
        LLVMValueRef mi = list_from(l, in, in->type, in->args[1]); /* owned: a raising key */
        sort_list(l, in, mi, in->type->dtype);
        return mi;
    }
    case KN_BI_LIST_GETITEM:
        return lower_getitem(l, in);
    case KN_BI_LIST_SETITEM:
        return lower_setitem(l, in);
    case KN_BI_LIST_LEN: /* the operator, or len(l) (the callee first) */
        return kn_lower_list_len(l, l->vals[in->args[in->op == KN_OP_CALL]->id]);
    case KN_BI_LIST_BOOL:
        return kn_lower_truth(l, l->vals[in->args[0]->id], in->args[0]->type);
    case KN_BI_LIST_CONTAINS:
    case KN_BI_LIST_EQ:
    case KN_BI_LIST_NE:
    case KN_BI_LIST_LT:
    case KN_BI_LIST_LE:
    case KN_BI_LIST_GT:
    case KN_BI_LIST_GE:
        return lower_cmp(l, in, id);
    default:
        return lower_binop(l, in, id);
    }
}

LLVMValueRef
kn_lower_value_compare(L *l, KnCmp op, LLVMValueRef a, LLVMValueRef b, const KnType *ta,
                       const KnType *tb)
{
    if (op == KN_CMP_EQ || op == KN_CMP_NE) {
        LLVMValueRef eq = item_eq(l, a, b, ta, tb);
        return op == KN_CMP_NE ? LLVMBuildNot(l->b, eq, "") : eq;
    }
    return item_order(l, op, a, b, ta, tb);
}
