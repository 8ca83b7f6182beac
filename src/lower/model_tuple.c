/* model_tuple.c - the lowering model of tuples: an LLVM struct of the items' types, loaded,
 * stored and converted item by item, true when not empty; it holds the references its items hold (a
 * tuple of arrays counts each array once per tuple value: building a tuple increfs its items,
 * releasing it decrefs them). */
#include "lower/internal.h"

static LLVMTypeRef
tuple_type(L *l, const KnType *t)
{
    LLVMTypeRef fs[256];
    for (int i = 0; i < t->n && i < 256; i++)
        fs[i] = kn_lower_type(l, t->items[i]);
    return LLVMStructTypeInContext(l->ctx, fs, (unsigned)t->n, 0);
}

static LLVMValueRef
tuple_to(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, to));
    for (int i = 0; i < to->n; i++) {
        LLVMValueRef item = LLVMBuildExtractValue(l->b, v, (unsigned)i, "");
        item = kn_lower_convert(l, item, from->items[i], to->items[i]);
        r = LLVMBuildInsertValue(l->b, r, item, (unsigned)i, "");
    }
    return r;
}

static LLVMValueRef
tuple_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    return to->kind == KN_TY_TUPLE ? tuple_to(l, v, from, to) : NULL;
}

static LLVMValueRef
tuple_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(v);
    return LLVMConstInt(l->i1, t->n > 0, 0);
}

static int
tuple_has_refs(const KnType *t)
{
    for (int i = 0; i < t->n; i++)
        if (kn_lower_has_refs(t->items[i]))
            return 1;
    return 0;
}

static void
tuple_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    for (int i = 0; i < t->n; i++)
        if (kn_lower_has_refs(t->items[i]))
            kn_lower_visit_refs(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->items[i], fn,
                                ctx);
}

/* In C layout the items lie at their offsets (kn_type_tuple_offset). */
static LLVMValueRef
item_ptr(L *l, const KnType *t, int i, LLVMValueRef p)
{
    LLVMValueRef off = LLVMConstInt(l->i64, kn_type_tuple_offset(t, i), 0);
    return LLVMBuildInBoundsGEP2(l->b, l->i8, p, &off, 1, "");
}

static LLVMValueRef
tuple_load_c(L *l, const KnType *t, LLVMValueRef p)
{
    LLVMValueRef v = LLVMGetUndef(kn_lower_type(l, t));
    for (int i = 0; i < t->n; i++) {
        LLVMValueRef q = item_ptr(l, t, i, p);
        v = LLVMBuildInsertValue(l->b, v, kn_lower_load_c(l, t->items[i], q), (unsigned)i, "");
    }
    return v;
}

static void
tuple_store_c(L *l, const KnType *t, LLVMValueRef v, LLVMValueRef p)
{
    for (int i = 0; i < t->n; i++) {
        LLVMValueRef q = item_ptr(l, t, i, p);
        kn_lower_store_c(l, t->items[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), q);
    }
}

const KnLowerModel kn_lower_model_tuple = {
    .type = tuple_type,
    .load_c = tuple_load_c,
    .store_c = tuple_store_c,
    .truth = tuple_truth,
    .convert = tuple_convert,
    .has_refs = tuple_has_refs,
    .visit_refs = tuple_visit_refs,
};
