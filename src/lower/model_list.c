/* model_list.c - the lowering model of lists: a pointer (the KnMemInfo * of a KnList,
 * runtime/list.h) holding one reference, true when not empty. Converting a list whose item type
 * was not known (`[]`, list(undefined)) to a list of a known item type gives the empty list its
 * item layout (kn_rt_list_set_layout): that is where `l = []` learns what `l.append(x)` stores. */
#include "lower/list.h"
#include "runtime/list.h"

static LLVMTypeRef
list_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return l->ptr;
}

static LLVMValueRef
list_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(t);
    return LLVMBuildICmp(l->b, LLVMIntSGT, kn_lower_list_len(l, v), LLVMConstInt(l->i64, 0, 0), "");
}

static LLVMValueRef
list_convert(L *l, LLVMValueRef v, const KnType *from, const KnType *to)
{
    if (to->kind != KN_TY_LIST)
        return NULL;
    if (!from->dtype && to->dtype) {
        int32_t off[KN_LIST_MAX_REFS];
        int n = kn_lower_list_ref_offsets(to->dtype, off, 0, 0);
        LLVMValueRef offs[KN_LIST_MAX_REFS];
        for (int i = 0; i < n; i++)
            offs[i] = LLVMConstInt(l->i32, (unsigned)off[i], 0);
        LLVMTypeRef at = LLVMArrayType2(l->i32, (uint64_t)(n ? n : 1));
        LLVMValueRef g = LLVMAddGlobal(l->mod, at, "list.refs");
        LLVMSetInitializer(g, n ? LLVMConstArray2(l->i32, offs, (uint64_t)n) : LLVMConstNull(at));
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        LLVMTypeRef ps[4] = {l->ptr, l->i64, l->i32, l->ptr};
        LLVMValueRef args[4] = {v, LLVMConstInt(l->i64, kn_type_size(to->dtype), 0),
                                LLVMConstInt(l->i32, (unsigned)n, 0), g};
        kn_lower_extern(l, "kn_rt_list_set_layout", LLVMVoidTypeInContext(l->ctx), ps, 4, args);
    }
    return v;
}

static int
list_has_refs(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static void
list_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    KN_UNUSED(t);
    fn(l, v, ctx);
}

const KnLowerModel kn_lower_model_list = {
    .type = list_type,
    .truth = list_truth,
    .convert = list_convert,
    .has_refs = list_has_refs,
    .visit_refs = list_visit_refs,
};
