/* model_str.c - the lowering model of str: the LLVM struct of KnStr's fields in their order
 * (runtime/str.h: {ptr mi, ptr data, i64 length, i32 kind, i32 ascii, i64 hash, ptr parent}),
 * holding one reference, its meminfo (NULL for characters borrowed from Python or static
 * memory); true when not empty. Also the helpers lower/str.c and others build str values with:
 * literal constants (static data of the literal's PEP 393 kind, never allocated), fields, and
 * passing a value to the runtime by pointer. */
#include "lower/internal.h"

LLVMTypeRef
kn_lower_str_type(L *l)
{
    LLVMTypeRef fs[7] = {l->ptr, l->ptr, l->i64, l->i32, l->i32, l->i64, l->ptr};
    return LLVMStructTypeInContext(l->ctx, fs, 7, 0);
}

static LLVMTypeRef
str_type(L *l, const KnType *t)
{
    KN_UNUSED(t);
    return kn_lower_str_type(l);
}

LLVMValueRef
kn_lower_str_field(L *l, LLVMValueRef s, int field)
{
    return LLVMBuildExtractValue(l->b, s, (unsigned)field, "");
}

static LLVMValueRef
str_truth(L *l, LLVMValueRef v, const KnType *t)
{
    KN_UNUSED(t);
    return LLVMBuildICmp(l->b, LLVMIntNE, kn_lower_str_field(l, v, KN_STR_LENGTH),
                         LLVMConstInt(l->i64, 0, 0), "");
}

static int
str_has_refs(const KnType *t)
{
    KN_UNUSED(t);
    return 1;
}

static void
str_visit_refs(L *l, LLVMValueRef v, const KnType *t, KnRefVisitor fn, void *ctx)
{
    KN_UNUSED(t);
    fn(l, kn_lower_str_field(l, v, KN_STR_MI), ctx);
}

const KnLowerModel kn_lower_model_str = {
    .type = str_type,
    .truth = str_truth,
    .has_refs = str_has_refs,
    .visit_refs = str_visit_refs,
};

/* the code points of UTF-8 text s (n of them at most); their count */
static int64_t
decode_utf8(const unsigned char *s, uint32_t *out)
{
    int64_t n = 0;
    while (*s) {
        uint32_t c = *s++;
        int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
        c &= more == 3 ? 0x07 : more == 2 ? 0x0f : more == 1 ? 0x1f : 0x7f;
        for (; more && (*s & 0xc0) == 0x80; more--)
            c = c << 6 | (*s++ & 0x3f);
        out[n++] = c;
    }
    return n;
}

/* a literal: static characters of its narrowest kind, borrowed (mi and parent NULL) */
LLVMValueRef
kn_lower_str_const(L *l, const char *utf8)
{
    size_t len = strlen(utf8);
    uint32_t *cps = kn_arena_alloc(&l->c->arena, sizeof(uint32_t) * (len + 1));
    int64_t n = decode_utf8((const unsigned char *)utf8, cps);
    uint32_t m = 0;
    for (int64_t i = 0; i < n; i++)
        m = cps[i] > m ? cps[i] : m;
    int kind = m < 256 ? 1 : m < 65536 ? 2 : 4;
    LLVMTypeRef et = kind == 1 ? l->i8 : kind == 2 ? LLVMInt16TypeInContext(l->ctx) : l->i32;
    int64_t cells = n ? n : 1;
    LLVMValueRef *elems = kn_arena_alloc(&l->c->arena, sizeof(LLVMValueRef) * (size_t)cells);
    for (int64_t i = 0; i < cells; i++)
        elems[i] = LLVMConstInt(et, i < n ? cps[i] : 0, 0);
    LLVMValueRef init = LLVMConstArray2(et, elems, (uint64_t)cells);
    LLVMValueRef g = LLVMAddGlobal(l->mod, LLVMTypeOf(init), "str");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMValueRef fs[7] = {LLVMConstNull(l->ptr),
                          g,
                          LLVMConstInt(l->i64, (unsigned long long)n, 0),
                          LLVMConstInt(l->i32, (unsigned long long)kind, 0),
                          LLVMConstInt(l->i32, m < 128, 0),
                          LLVMConstInt(l->i64, (unsigned long long)-1, 1),
                          LLVMConstNull(l->ptr)};
    return LLVMConstStructInContext(l->ctx, fs, 7, 0);
}

/* a pointer to a copy of str value v (for the runtime's const KnStr * parameters) */
LLVMValueRef
kn_lower_str_spill(L *l, LLVMValueRef v)
{
    LLVMValueRef p = kn_lower_entry_alloca(l, kn_lower_str_type(l), "strarg");
    LLVMBuildStore(l->b, v, p);
    return p;
}
