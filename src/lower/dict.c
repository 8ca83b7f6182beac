/* dict.c - lowering of dicts and sets: displays (BUILD_DICT, BUILD_SET), the registry entries of
 * lib/dict.def and lib/set.def (operators, methods, dict(), set(), hash()), and iteration by
 * position for lower/iter.c.
 *
 * A value is the KnMemInfo * of a table (runtime/dict.h). Code here is specialised per (key,
 * value) type: the key is converted to the table's key type, stored into a zeroed buffer in C
 * layout (so that keys without floats or strings compare as bytes), hashed inline as CPython
 * hashes it (ints, bools, tuples; floats through kn_rt_hash_double), and the probe is one call
 * of kn_rt_dict_lookup / kn_rt_dict_insert, which return an entry number; the entry's value is
 * then read or written here, in C layout, at a constant offset. What the table does in bulk or
 * rarely (growth, deletion, update, set algebra, ==) is the runtime's.
 *
 * References: operands are borrowed and results are new references (typing/operator.c). A
 * stored key or value gets a reference of the table's own; one read out is increfed. The layout
 * passed to kn_rt_dict_new lists where the entries hold references (arrays, containers) so that
 * the runtime releases them. */
#include "lower/internal.h"
#include "lower/list.h"

#include <stdio.h>

#include "runtime/dict.h"
#include "runtime/str.h"

/* ---- layout ---- */

static KnType *
key_type(const KnType *t)
{
    return t->items[0];
}

static KnType *
val_type(const KnType *t)
{
    return t->kind == KN_TY_DICT ? t->items[1] : NULL;
}

typedef struct Walk {
    KnDictField *f;
    int32_t nf;
    int32_t *refs;
    int32_t nrefs;
    int comparable, bytes;
} Walk;

static int
add_field(Walk *w, int32_t kind, int32_t off, int32_t size)
{
    if (w->nf >= KN_DICT_MAX_FIELDS)
        return -1;
    w->f[w->nf++] = (KnDictField){kind, off, size};
    if (kind != KN_DF_BYTES)
        w->bytes = 0;
    return 0;
}

static int
add_ref(Walk *w, int32_t off)
{
    if (w->nrefs >= KN_DICT_MAX_REFS)
        return -1;
    w->refs[w->nrefs++] = off;
    return 0;
}

/* the parts of a value of type t at offset off (C layout): -1 if a table cannot hold it */
static int
walk(Walk *w, const KnType *t, int32_t off)
{
    switch (t->kind) {
    case KN_TY_BOOL:
    case KN_TY_INT:
    case KN_TY_NONE:
    case KN_TY_ENUM: /* an enum member: its int value */
        return add_field(w, KN_DF_BYTES, off, (int32_t)kn_type_size(t));
    case KN_TY_FLOAT:
        return add_field(w,
                         t->bits == 16   ? KN_DF_F16
                         : t->bits == 32 ? KN_DF_F32
                                         : KN_DF_F64,
                         off, t->bits / 8);
    case KN_TY_COMPLEX: {
        int32_t half = t->bits / 16;
        int32_t k = half == 4 ? KN_DF_F32 : KN_DF_F64;
        return add_field(w, k, off, half) < 0 ? -1 : add_field(w, k, off + half, half);
    }
    case KN_TY_TUPLE:
        for (int i = 0; i < t->n; i++)
            KN_TRY(walk(w, t->items[i], off + (int32_t)kn_type_tuple_offset(t, i)));
        return 0;
    case KN_TY_STR: /* KnStr (runtime/str.h): compared by its characters, mi first */
        return add_field(w, KN_DF_STR, off, (int32_t)sizeof(KnStr)) < 0 ? -1 : add_ref(w, off);
    case KN_TY_ARRAY:
    case KN_TY_DICT:
    case KN_TY_SET:
    case KN_TY_LIST:
        w->comparable = 0;
        return add_ref(w, off); /* the meminfo is the first field */
    default:
        return -1;
    }
}

static int32_t
round_up(int32_t x, int32_t a)
{
    return (x + a - 1) / a * a;
}

int
kn_lower_dict_layout(const KnType *t, KnDictLayout *lay)
{
    memset(lay, 0, sizeof *lay);
    const KnType *k = key_type(t), *v = val_type(t);
    lay->ksize = (int32_t)kn_type_size(k);
    int32_t kal = (int32_t)kn_type_align(k);
    lay->koff = round_up(8, kal > 8 ? kal : 8);
    int32_t end = lay->koff + lay->ksize;
    if (v) {
        lay->vsize = (int32_t)kn_type_size(v);
        int32_t val = (int32_t)kn_type_align(v);
        lay->voff = round_up(end, val ? val : 1);
        end = lay->voff + lay->vsize;
    } else {
        lay->voff = end;
    }
    lay->esize = round_up(end, 8);
    Walk w = {lay->kf, 0, lay->refs, 0, 1, 1};
    KN_TRY(walk(&w, k, lay->koff));
    for (int i = 0; i < w.nf; i++)
        lay->kf[i].offset -= lay->koff;
    lay->nkf = w.nf;
    lay->key_bytes = w.bytes;
    lay->key_refs = w.nrefs;
    if (v) {
        Walk vw = {lay->vf, 0, lay->refs, w.nrefs, 1, 1};
        KN_TRY(walk(&vw, v, lay->voff));
        for (int i = 0; i < vw.nf; i++)
            lay->vf[i].offset -= lay->voff;
        lay->nvf = vw.nf;
        lay->nrefs = vw.nrefs;
        lay->val_cmp = vw.comparable;
    } else {
        lay->nrefs = w.nrefs;
        lay->val_cmp = 1;
    }
    return 0;
}

/* the layout of t as a constant global of the module */
static LLVMValueRef
layout_global(L *l, const KnType *t, KnDictLayout *lay)
{
    char name[320];
    snprintf(name, sizeof name, "kn.dictlayout.%s", t->name);
    LLVMValueRef g = LLVMGetNamedGlobal(l->mod, name);
    if (g)
        return g;
    LLVMValueRef init = LLVMConstStringInContext(l->ctx, (const char *)lay, sizeof *lay, 1);
    g = LLVMAddGlobal(l->mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetAlignment(g, 8);
    return g;
}

/* ---- the table's fields ---- */

static LLVMValueRef
at(L *l, LLVMValueRef p, int64_t off)
{
    LLVMValueRef idx = LLVMConstInt(l->i64, (unsigned long long)off, 1);
    return off ? LLVMBuildGEP2(l->b, l->i8, p, &idx, 1, "") : p;
}

static LLVMValueRef
table_of(L *l, LLVMValueRef mi)
{
    return LLVMBuildLoad2(l->b, l->ptr, at(l, mi, 8), "table");
}

LLVMValueRef
kn_lower_dict_len(L *l, LLVMValueRef mi)
{
    return LLVMBuildLoad2(l->b, l->i64, at(l, table_of(l, mi), KN_DICT_OFF_USED), "used");
}

static LLVMValueRef
entry_at(L *l, LLVMValueRef mi, LLVMValueRef ix, const KnDictLayout *lay)
{
    LLVMValueRef entries =
        LLVMBuildLoad2(l->b, l->ptr, at(l, table_of(l, mi), KN_DICT_OFF_ENTRIES), "entries");
    LLVMValueRef off = LLVMBuildMul(l->b, ix, LLVMConstInt(l->i64, (unsigned)lay->esize, 0), "");
    return LLVMBuildGEP2(l->b, l->i8, entries, &off, 1, "entry");
}

static LLVMValueRef
rt(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *ps, int n, LLVMValueRef *args)
{
    return kn_lower_extern(l, name, ret, ps, n, args);
}

/* a call of a runtime function that reads memory only through its arguments (mem: 1) or not at
 * all (0): so marked, LLVM keeps the table's fields in registers across a loop of lookups */
static LLVMValueRef
rt_pure(L *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *ps, int n, LLVMValueRef *args,
        int mem)
{
    LLVMValueRef r = rt(l, name, ret, ps, n, args);
    LLVMValueRef f = LLVMGetNamedFunction(l->mod, name);
    unsigned memory = LLVMGetEnumAttributeKindForName("memory", 6);
    if (f && !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, memory)) {
        /* MemoryEffects: two bits per location (argmem, inaccessible, other); 1 = read */
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(l->ctx, memory, mem ? 21 : 0));
        static const char *const flags[] = {"nounwind", "willreturn", "nosync"};
        for (int i = 0; i < 3; i++) {
            unsigned k = LLVMGetEnumAttributeKindForName(flags[i], strlen(flags[i]));
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(l->ctx, k, 0));
        }
    }
    return r;
}

static LLVMValueRef
new_table(L *l, const KnType *t, LLVMValueRef hint)
{
    KnDictLayout lay;
    if (kn_lower_dict_layout(t, &lay) < 0) {
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, l->span, "kiln cannot store %s yet", t->name);
        return NULL;
    }
    LLVMTypeRef ps[2] = {l->ptr, l->i64};
    LLVMValueRef args[2] = {layout_global(l, t, &lay), hint};
    LLVMValueRef mi = rt(l, "kn_rt_dict_new", l->ptr, ps, 2, args);
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, mi, ""), KN_EXC_NO_MEMORY);
    return mi;
}

/* ---- keys: conversion, C layout, CPython's hash ---- */

static const uint64_t HASH_P = ((uint64_t)1 << 61) - 1;

static LLVMValueRef
phi2(L *l, LLVMTypeRef t, LLVMValueRef a, LLVMBasicBlockRef ba, LLVMValueRef b,
     LLVMBasicBlockRef bb)
{
    LLVMValueRef p = LLVMBuildPhi(l->b, t, "");
    LLVMValueRef vs[2] = {a, b};
    LLVMBasicBlockRef bs[2] = {ba, bb};
    LLVMAddIncoming(p, vs, bs, 2);
    return p;
}

static LLVMValueRef
hash_int(L *l, LLVMValueRef v, const KnType *t)
{
    if (t->kind == KN_TY_BOOL)
        return LLVMBuildZExt(l->b, v, l->i64, "");
    if (t->bits < 64)
        return t->is_signed ? LLVMBuildSExt(l->b, v, l->i64, "")
                            : LLVMBuildZExt(l->b, v, l->i64, "");
    /* |v| < 2**61 - 1: the hash is v itself (-1 is -2); else the remainder, out of line */
    LLVMValueRef fast =
        t->is_signed ? LLVMBuildICmp(l->b, LLVMIntULT,
                                     LLVMBuildAdd(l->b, v, LLVMConstInt(l->i64, HASH_P - 1, 0), ""),
                                     LLVMConstInt(l->i64, 2 * HASH_P - 1, 0), "")
                     : LLVMBuildICmp(l->b, LLVMIntULT, v, LLVMConstInt(l->i64, HASH_P, 0), "");
    LLVMValueRef m1 = LLVMConstInt(l->i64, (unsigned long long)-1, 1);
    LLVMValueRef hf = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, v, m1, ""),
                                      LLVMConstInt(l->i64, (unsigned long long)-2, 1), v, "");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b);
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "hash.slow");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "hash.done");
    kn_lower_cold_branch(l, LLVMBuildNot(l->b, fast, ""), slow, done);
    LLVMPositionBuilderAtEnd(l->b, slow);
    LLVMTypeRef ps[2] = {l->i64, l->i32};
    LLVMValueRef args[2] = {v, LLVMConstInt(l->i32, t->is_signed ? 0 : 1, 0)};
    LLVMValueRef hs = rt_pure(l, "kn_rt_hash_int_slow", l->i64, ps, 2, args, 0);
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    return phi2(l, l->i64, hf, here, hs, slow_end);
}

static LLVMValueRef hash_of(L *l, LLVMValueRef v, const KnType *t);

static LLVMValueRef
hash_float(L *l, LLVMValueRef v, const KnType *t)
{
    if (t->bits < 64)
        v = LLVMBuildFPExt(l->b, v, l->f64, "");
    LLVMTypeRef p = l->f64;
    return rt_pure(l, "kn_rt_hash_double", l->i64, &p, 1, &v, 0);
}

/* CPython's tuple hash (xxHash's mixing of the items' hashes, Objects/tupleobject.c) */
static LLVMValueRef
hash_tuple(L *l, LLVMValueRef v, const KnType *t)
{
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL,
                   p5 = 2870177450012600261ULL;
    LLVMValueRef acc = LLVMConstInt(l->i64, p5, 0);
    for (int i = 0; i < t->n; i++) {
        LLVMValueRef lane =
            hash_of(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->items[i]);
        acc =
            LLVMBuildAdd(l->b, acc, LLVMBuildMul(l->b, lane, LLVMConstInt(l->i64, p2, 0), ""), "");
        LLVMValueRef rot =
            LLVMBuildOr(l->b, LLVMBuildShl(l->b, acc, LLVMConstInt(l->i64, 31, 0), ""),
                        LLVMBuildLShr(l->b, acc, LLVMConstInt(l->i64, 33, 0), ""), "");
        acc = LLVMBuildMul(l->b, rot, LLVMConstInt(l->i64, p1, 0), "");
    }
    acc = LLVMBuildAdd(l->b, acc, LLVMConstInt(l->i64, (uint64_t)t->n ^ (p5 ^ 3527539ULL), 0), "");
    LLVMValueRef m1 = LLVMConstInt(l->i64, (unsigned long long)-1, 1);
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, acc, m1, ""),
                           LLVMConstInt(l->i64, 1546275796, 0), acc, "");
}

static LLVMValueRef
hash_complex(L *l, LLVMValueRef v, const KnType *t)
{
    KnType *ft = kn_type_float(t->bits / 2);
    LLVMValueRef hr = hash_float(l, LLVMBuildExtractValue(l->b, v, 0, ""), ft);
    LLVMValueRef hi = hash_float(l, LLVMBuildExtractValue(l->b, v, 1, ""), ft);
    LLVMValueRef h =
        LLVMBuildAdd(l->b, hr, LLVMBuildMul(l->b, hi, LLVMConstInt(l->i64, 1000003, 0), ""), "");
    LLVMValueRef m1 = LLVMConstInt(l->i64, (unsigned long long)-1, 1);
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, h, m1, ""),
                           LLVMConstInt(l->i64, (unsigned long long)-2, 1), h, "");
}

static LLVMValueRef
hash_of(L *l, LLVMValueRef v, const KnType *t)
{
    switch (t->kind) {
    case KN_TY_BOOL:
    case KN_TY_INT:
        return hash_int(l, v, t);
    case KN_TY_ENUM: /* its value's hash (CPython hashes an Enum member by its name) */
        return hash_int(l, v, t->dtype);
    case KN_TY_FLOAT:
        return hash_float(l, v, t);
    case KN_TY_COMPLEX:
        return hash_complex(l, v, t);
    case KN_TY_TUPLE:
        return hash_tuple(l, v, t);
    case KN_TY_STR: {
        LLVMValueRef p = kn_lower_entry_alloca(l, kn_lower_type(l, t), "str");
        LLVMBuildStore(l->b, v, p);
        LLVMTypeRef pt = l->ptr;
        return rt(l, "kn_rt_str_hash", l->i64, &pt, 1, &p);
    }
    default:
        return LLVMConstInt(l->i64, 0, 0); /* typing admits no other key */
    }
}

/* hash(x) */
LLVMValueRef
kn_lower_rule_hash(L *l, KnInstr *in, int id)
{
    KN_UNUSED(id);
    KnInstr *x = in->args[1];
    return hash_of(l, l->vals[x->id], x->type);
}

/* a key: converted to the table's key type kt, in a zeroed buffer in C layout */
typedef struct Key {
    LLVMValueRef v, p, hash;
} Key;

static Key
make_key(L *l, KnInstr *k, const KnType *kt)
{
    Key r;
    r.v = kn_lower_convert(l, l->vals[k->id], k->type, kt);
    size_t size = kn_type_size(kt);
    LLVMTypeRef buf = LLVMArrayType2(l->i64, (size + 7) / 8 ? (size + 7) / 8 : 1);
    r.p = kn_lower_entry_alloca(l, buf, "key");
    if (kt->kind == KN_TY_STR) {
        /* a KnStr has no padding, and the runtime hashes a str key given hash -1
         * (kn_rt_dict_lookup): one spill, no call here */
        kn_lower_store_c(l, kt, r.v, r.p);
        r.hash = LLVMConstInt(l->i64, (unsigned long long)-1, 1);
        return r;
    }
    LLVMBuildStore(l->b, LLVMConstNull(buf), r.p);
    kn_lower_store_c(l, kt, r.v, r.p);
    r.hash = hash_of(l, r.v, kt);
    return r;
}

static LLVMValueRef
is_missing(L *l, LLVMValueRef ix)
{
    return LLVMBuildICmp(l->b, LLVMIntSLT, ix, LLVMConstInt(l->i64, 0, 0), "missing");
}

/* keys compared as one integer of their size: probed inline */
static int
inline_probe(const KnDictLayout *lay)
{
    return lay->key_bytes &&
           (lay->ksize == 1 || lay->ksize == 2 || lay->ksize == 4 || lay->ksize == 8);
}

/* CPython's probe, inline: the entry number of key k, or -1; *empty (when not NULL): the empty
 * slot that ended the probe (where a new key goes) */
static LLVMValueRef
probe_at(L *l, LLVMValueRef mi, Key *k, const KnDictLayout *lay, LLVMValueRef *empty_slot)
{
    LLVMTypeRef kt = LLVMIntTypeInContext(l->ctx, (unsigned)lay->ksize * 8);
    LLVMValueRef tbl = table_of(l, mi);
    LLVMValueRef mask = LLVMBuildLoad2(l->b, l->i64, at(l, tbl, KN_DICT_OFF_MASK), "mask");
    LLVMValueRef index = LLVMBuildLoad2(l->b, l->ptr, at(l, tbl, KN_DICT_OFF_INDEX), "index");
    LLVMValueRef entries = LLVMBuildLoad2(l->b, l->ptr, at(l, tbl, KN_DICT_OFF_ENTRIES), "");
    LLVMValueRef kbits = LLVMBuildLoad2(l->b, kt, k->p, "kbits");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "probe");
    LLVMBasicBlockRef live = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "probe.live");
    LLVMBasicBlockRef cmpk = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "probe.key");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "probe.next");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "probe.done");
    LLVMValueRef i0 = LLVMBuildAnd(l->b, k->hash, mask, "");
    LLVMBuildBr(l->b, loop);
    LLVMPositionBuilderAtEnd(l->b, loop);
    LLVMValueRef i = LLVMBuildPhi(l->b, l->i64, "i");
    LLVMValueRef perturb = LLVMBuildPhi(l->b, l->i64, "perturb");
    LLVMValueRef slot = LLVMBuildGEP2(l->b, l->i32, index, &i, 1, "");
    LLVMValueRef ix = LLVMBuildSExt(l->b, LLVMBuildLoad2(l->b, l->i32, slot, "ix"), l->i64, "");
    LLVMValueRef empty =
        LLVMBuildICmp(l->b, LLVMIntEQ, ix, LLVMConstInt(l->i64, (unsigned long long)-1, 1), "");
    LLVMBasicBlockRef notempty = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "probe.used");
    LLVMBuildCondBr(l->b, empty, done, notempty);
    LLVMPositionBuilderAtEnd(l->b, notempty);
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, ix, LLVMConstInt(l->i64, 0, 0), ""), live,
                    next);
    LLVMPositionBuilderAtEnd(l->b, live);
    LLVMValueRef off = LLVMBuildMul(l->b, ix, LLVMConstInt(l->i64, (unsigned)lay->esize, 0), "");
    LLVMValueRef e = LLVMBuildGEP2(l->b, l->i8, entries, &off, 1, "");
    LLVMValueRef h = LLVMBuildLoad2(l->b, l->i64, e, "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, h, k->hash, ""), cmpk, next);
    LLVMPositionBuilderAtEnd(l->b, cmpk);
    LLVMValueRef ek = LLVMBuildLoad2(l->b, kt, at(l, e, lay->koff), "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, ek, kbits, ""), done, next);
    LLVMPositionBuilderAtEnd(l->b, next);
    LLVMValueRef p2 = LLVMBuildLShr(l->b, perturb, LLVMConstInt(l->i64, 5, 0), "");
    LLVMValueRef i2 = LLVMBuildAnd(
        l->b,
        LLVMBuildAdd(
            l->b, LLVMBuildAdd(l->b, LLVMBuildMul(l->b, i, LLVMConstInt(l->i64, 5, 0), ""), p2, ""),
            LLVMConstInt(l->i64, 1, 0), ""),
        mask, "");
    LLVMBuildBr(l->b, loop);
    LLVMValueRef iv[2] = {i0, i2}, pv[2] = {k->hash, p2};
    LLVMBasicBlockRef ib[2] = {pre, next};
    LLVMAddIncoming(i, iv, ib, 2);
    LLVMAddIncoming(perturb, pv, ib, 2);
    LLVMPositionBuilderAtEnd(l->b, done);
    LLVMValueRef r = LLVMBuildPhi(l->b, l->i64, "found");
    LLVMValueRef rv[2] = {LLVMConstInt(l->i64, (unsigned long long)-1, 1), ix};
    LLVMBasicBlockRef rb[2] = {loop, cmpk};
    LLVMAddIncoming(r, rv, rb, 2);
    if (empty_slot) {
        LLVMValueRef es = LLVMBuildPhi(l->b, l->i64, "empty");
        LLVMValueRef ev[2] = {i, LLVMConstInt(l->i64, 0, 0)};
        LLVMAddIncoming(es, ev, rb, 2);
        *empty_slot = es;
    }
    return r;
}

static LLVMValueRef
probe(L *l, LLVMValueRef mi, Key *k, const KnDictLayout *lay)
{
    return probe_at(l, mi, k, lay, NULL);
}

/* a new entry for key k (absent; `slot` the empty slot its probe ended at), written inline when
 * the entries have room, else by the runtime (which grows the table); its number */
static LLVMValueRef
append_inline(L *l, LLVMValueRef mi, Key *k, const KnDictLayout *lay, LLVMValueRef slot)
{
    LLVMValueRef tbl = table_of(l, mi);
    LLVMValueRef np = at(l, tbl, KN_DICT_OFF_NENTRIES);
    LLVMValueRef n = LLVMBuildLoad2(l->b, l->i64, np, "n");
    LLVMValueRef cap = LLVMBuildLoad2(l->b, l->i64, at(l, tbl, 16), "capacity");
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "append.room");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "append.grow");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "append.done");
    kn_lower_cold_branch(l, LLVMBuildICmp(l->b, LLVMIntSGE, n, cap, ""), slow, fast);
    LLVMPositionBuilderAtEnd(l->b, fast);
    LLVMTypeRef kt = LLVMIntTypeInContext(l->ctx, (unsigned)lay->ksize * 8);
    LLVMValueRef e = entry_at(l, mi, n, lay);
    LLVMBuildStore(l->b, k->hash, e);
    LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, kt, k->p, ""), at(l, e, lay->koff));
    if (lay->vsize)
        LLVMBuildMemSet(l->b, at(l, e, lay->voff), LLVMConstInt(l->i8, 0, 0),
                        LLVMConstInt(l->i64, (unsigned)lay->vsize, 0), 1);
    LLVMValueRef index = LLVMBuildLoad2(l->b, l->ptr, at(l, tbl, KN_DICT_OFF_INDEX), "index");
    LLVMBuildStore(l->b, LLVMBuildTrunc(l->b, n, l->i32, ""),
                   LLVMBuildGEP2(l->b, l->i32, index, &slot, 1, ""));
    LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, n, one, ""), np);
    LLVMValueRef up = at(l, tbl, KN_DICT_OFF_USED);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->i64, up, ""), one, ""), up);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, slow);
    LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->i64};
    LLVMValueRef args[3] = {mi, k->p, k->hash};
    LLVMValueRef nix = rt(l, "kn_rt_dict_add_new", l->i64, ps, 3, args);
    kn_lower_raise_if(l, is_missing(l, nix), KN_EXC_NO_MEMORY);
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    return phi2(l, l->i64, n, fast, nix, slow_end);
}

static LLVMValueRef
lookup_in(L *l, LLVMValueRef mi, Key *k, const KnDictLayout *lay)
{
    if (lay && inline_probe(lay))
        return probe(l, mi, k, lay);
    LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->i64};
    LLVMValueRef args[3] = {mi, k->p, k->hash};
    return rt(l, "kn_rt_dict_lookup", l->i64, ps, 3, args);
}


/* if cond: run the builder in a block of its own, then join (returns the join block) */
static LLVMBasicBlockRef
begin_if(L *l, LLVMValueRef cond, LLVMBasicBlockRef *join)
{
    LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "dict.then");
    *join = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "dict.join");
    LLVMBuildCondBr(l->b, cond, then, *join);
    LLVMPositionBuilderAtEnd(l->b, then);
    return then;
}

static void
end_if(L *l, LLVMBasicBlockRef join)
{
    LLVMBuildBr(l->b, join);
    LLVMPositionBuilderAtEnd(l->b, join);
}

/* KeyError(key): the key as up to four int64s and a code saying how to rebuild it
 * (dispatch/box_dict.c: kn_box_key_error_args) */
static int
key_part_code(const KnType *t)
{
    switch (t->kind) {
    case KN_TY_INT:
        return t->is_signed ? 0 : 1;
    case KN_TY_FLOAT:
        return 2;
    case KN_TY_BOOL:
        return 3;
    default:
        return -1;
    }
}

static LLVMValueRef
key_part(L *l, LLVMValueRef v, const KnType *t)
{
    if (t->kind == KN_TY_FLOAT) {
        if (t->bits < 64)
            v = LLVMBuildFPExt(l->b, v, l->f64, "");
        return LLVMBuildBitCast(l->b, v, l->i64, "");
    }
    if (t->kind == KN_TY_BOOL || !t->is_signed)
        return LLVMBuildZExt(l->b, v, l->i64, "");
    return t->bits < 64 ? LLVMBuildSExt(l->b, v, l->i64, "") : v;
}

static void
raise_key_error_if(L *l, LLVMValueRef cond, Key *k, const KnType *kt)
{
    LLVMValueRef args[4];
    int n = 1, code = 0xF; /* 0xF: the key cannot be shown */
    if (key_part_code(kt) >= 0) {
        code = key_part_code(kt) << 4;
        args[n++] = key_part(l, k->v, kt);
    } else if (kt->kind == KN_TY_TUPLE && kt->n <= 3) {
        int ok = 1;
        for (int i = 0; i < kt->n; i++)
            ok &= key_part_code(kt->items[i]) >= 0;
        if (ok) {
            code = kt->n;
            for (int i = 0; i < kt->n; i++) {
                code |= key_part_code(kt->items[i]) << (4 + 2 * i);
                args[n++] =
                    key_part(l, LLVMBuildExtractValue(l->b, k->v, (unsigned)i, ""), kt->items[i]);
            }
        }
    }
    if (kt->kind == KN_TY_STR) { /* its text is kept by the runtime until the next one */
        code = 0xE;
        LLVMBasicBlockRef join;
        begin_if(l, cond, &join);
        LLVMTypeRef pt = l->ptr;
        rt(l, "kn_rt_dict_key_error_str", LLVMVoidTypeInContext(l->ctx), &pt, 1, &k->p);
        end_if(l, join);
    }
    args[0] = LLVMConstInt(l->i64, (unsigned)code, 0);
    kn_lower_raise_if_args(l, cond, KN_EXC_KEY_ERROR, args, n);
}

/* ---- entries ---- */

static LLVMValueRef
load_key(L *l, LLVMValueRef e, const KnType *t, const KnDictLayout *lay)
{
    return kn_lower_load_c(l, key_type(t), at(l, e, lay->koff));
}

static LLVMValueRef
load_val(L *l, LLVMValueRef e, const KnType *t, const KnDictLayout *lay)
{
    return kn_lower_load_c(l, val_type(t), at(l, e, lay->voff));
}

static int
layout_of(L *l, const KnType *t, KnDictLayout *lay)
{
    if (kn_lower_dict_layout(t, lay) < 0) {
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, l->span, "kiln cannot store %s yet", t->name);
        return -1;
    }
    return 0;
}

static int
has_str(const KnDictField *f, int n)
{
    for (int i = 0; i < n; i++)
        if (f[i].kind == KN_DF_STR)
            return 1;
    return 0;
}

/* strs of entry ix borrowed from Python objects become the table's own copies (part 1: the
 * key, 2: the value), when the key or value holds strs */
static void
own_strs(L *l, LLVMValueRef mi, LLVMValueRef ix, const KnDictLayout *lay, int part)
{
    if (!(part == 1 ? has_str(lay->kf, lay->nkf) : has_str(lay->vf, lay->nvf)))
        return;
    LLVMTypeRef ps[3] = {l->ptr, l->i64, l->i32};
    LLVMValueRef args[3] = {mi, ix, LLVMConstInt(l->i32, (unsigned)part, 0)};
    LLVMValueRef r = rt(l, "kn_rt_dict_own_strs", l->i32, ps, 3, args);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
}

/* the entry of key k, made if missing (its key's references taken); *added: i1; *ixp: its
 * number */
static LLVMValueRef
insert_ix(L *l, LLVMValueRef mi, Key *k, const KnType *t, const KnDictLayout *lay,
          LLVMValueRef *added, LLVMValueRef *ixp)
{
    LLVMValueRef ix;
    if (inline_probe(lay)) { /* probed here; the runtime only appends a new key */
        LLVMValueRef slot;
        LLVMValueRef found = probe_at(l, mi, k, lay, &slot);
        *added = is_missing(l, found);
        LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b);
        LLVMBasicBlockRef add = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "dict.add");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "dict.added");
        LLVMBuildCondBr(l->b, *added, add, done);
        LLVMPositionBuilderAtEnd(l->b, add);
        LLVMValueRef nix = append_inline(l, mi, k, lay, slot);
        LLVMBasicBlockRef add_end = LLVMGetInsertBlock(l->b);
        LLVMBuildBr(l->b, done);
        LLVMPositionBuilderAtEnd(l->b, done);
        ix = phi2(l, l->i64, found, here, nix, add_end);
    } else {
        LLVMValueRef flag = kn_lower_entry_alloca(l, l->i32, "added");
        LLVMTypeRef ps[4] = {l->ptr, l->ptr, l->i64, l->ptr};
        LLVMValueRef args[4] = {mi, k->p, k->hash, flag};
        ix = rt(l, "kn_rt_dict_insert", l->i64, ps, 4, args);
        kn_lower_raise_if(l, is_missing(l, ix), KN_EXC_NO_MEMORY);
        *added = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->i32, flag, ""),
                               LLVMConstInt(l->i32, 0, 0), "");
    }
    if (lay->key_refs) {
        LLVMBasicBlockRef join;
        begin_if(l, *added, &join);
        kn_lower_incref(l, k->v, key_type(t));
        own_strs(l, mi, ix, lay, 1);
        end_if(l, join);
    }
    *ixp = ix;
    return entry_at(l, mi, ix, lay);
}

static LLVMValueRef
insert(L *l, LLVMValueRef mi, Key *k, const KnType *t, const KnDictLayout *lay, LLVMValueRef *added)
{
    LLVMValueRef ix;
    return insert_ix(l, mi, k, t, lay, added, &ix);
}

/* store value v (type vt) into the entry e: a reference of the table's own; the old value's
 * released unless the entry is new */
static void
store_value(L *l, LLVMValueRef e, KnInstr *v, const KnType *t, const KnDictLayout *lay,
            LLVMValueRef added, LLVMValueRef mi, LLVMValueRef ix)
{
    const KnType *vt = val_type(t);
    LLVMValueRef val = kn_lower_convert(l, l->vals[v->id], v->type, vt);
    LLVMValueRef p = at(l, e, lay->voff);
    if (kn_lower_has_refs(vt)) {
        if (vt->kind == KN_TY_ARRAY) /* one borrowed from an argument is held: array_stored.c */
            val = kn_lower_array_stored(l, val, vt);
        else
            kn_lower_incref(l, val, vt);
        LLVMBasicBlockRef join;
        begin_if(l, LLVMBuildNot(l->b, added, ""), &join);
        kn_lower_decref(l, kn_lower_load_c(l, vt, p), vt);
        end_if(l, join);
    }
    kn_lower_store_c(l, vt, val, p);
    own_strs(l, mi, ix, lay, 2);
}

/* d[k] = v where the runtime probes anyway (keys not compared as one integer): one call,
 * kn_rt_dict_set, takes the references and copies borrowed strs; v is spilled in C layout */
static void
set_item(L *l, LLVMValueRef mi, Key *k, KnInstr *v, const KnType *t, const KnDictLayout *lay)
{
    const KnType *vt = val_type(t);
    LLVMValueRef val = kn_lower_convert(l, l->vals[v->id], v->type, vt);
    LLVMTypeRef buf =
        LLVMArrayType2(l->i64, (uint64_t)(lay->vsize + 7) / 8 ? (uint64_t)(lay->vsize + 7) / 8 : 1);
    LLVMValueRef p = kn_lower_entry_alloca(l, buf, "value");
    LLVMSetAlignment(p, 16);
    kn_lower_store_c(l, vt, val, p);
    LLVMTypeRef ps[4] = {l->ptr, l->ptr, l->i64, l->ptr};
    LLVMValueRef args[4] = {mi, k->p, k->hash, p};
    LLVMValueRef ix = rt(l, "kn_rt_dict_set", l->i64, ps, 4, args);
    kn_lower_raise_if(l, is_missing(l, ix), KN_EXC_NO_MEMORY);
}

static void
remove_entry(L *l, LLVMValueRef mi, LLVMValueRef ix, int release_value)
{
    LLVMTypeRef ps[3] = {l->ptr, l->i64, l->i32};
    LLVMValueRef args[3] = {mi, ix, LLVMConstInt(l->i32, (unsigned)release_value, 0)};
    rt(l, "kn_rt_dict_remove", LLVMVoidTypeInContext(l->ctx), ps, 3, args);
}

static LLVMValueRef
none(L *l)
{
    return LLVMConstInt(l->i8, 0, 0);
}

static LLVMValueRef
incref_ret(L *l, LLVMValueRef v, const KnType *t)
{
    kn_lower_incref(l, v, t);
    return v;
}

/* ---- displays ---- */

LLVMValueRef
kn_lower_build_dict(L *l, KnInstr *in)
{
    const KnType *t = in->type;
    KnDictLayout lay;
    if (layout_of(l, t, &lay) < 0)
        return NULL;
    int step = in->op == KN_OP_BUILD_DICT ? 2 : 1;
    LLVMValueRef mi = new_table(l, t, LLVMConstInt(l->i64, (unsigned)(in->nargs / step), 0));
    if (!mi)
        return NULL;
    /* owned now, so that a raise while it is filled releases it */
    kn_lower_own(l, mi, t);
    for (int i = 0; i + step <= in->nargs; i += step) {
        Key k = make_key(l, in->args[i], key_type(t));
        if (step == 2 && !inline_probe(&lay)) {
            set_item(l, mi, &k, in->args[i + 1], t, &lay);
            continue;
        }
        LLVMValueRef added, ix;
        LLVMValueRef e = insert_ix(l, mi, &k, t, &lay, &added, &ix);
        if (step == 2)
            store_value(l, e, in->args[i + 1], t, &lay, added, mi, ix);
    }
    return mi;
}

/* ---- iteration (lower/iter.c) ---- */

static LLVMTypeRef
iter_state_type(L *l)
{
    LLVMTypeRef fs[2] = {l->i64, l->i64};
    return LLVMStructTypeInContext(l->ctx, fs, 2, 0);
}

static int
iterates_table(const KnInstr *it)
{
    if (it->aux != KN_ITER_SEQ)
        return 0;
    KnTypeKind k = it->args[0]->type->kind;
    return k == KN_TY_DICT || k == KN_TY_SET;
}

void
kn_lower_dict_iter_guard(L *l, KnInstr *it, LLVMValueRef len)
{
    if (it->aux != KN_ITER_SEQ) {
        for (int i = 0; i < it->nargs; i++)
            if (it->args[i]->type && it->args[i]->type->kind == KN_TY_ITER)
                kn_lower_dict_iter_guard(l, it->args[i], NULL);
        return;
    }
    if (!iterates_table(it))
        return;
    if (!len)
        len = LLVMBuildLoad2(l->b, l->i64,
                             LLVMBuildStructGEP2(l->b, iter_state_type(l), l->vals[it->id], 1, ""),
                             "");
    LLVMValueRef used = kn_lower_dict_len(l, l->vals[it->args[0]->id]);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, used, len, ""),
                      it->args[0]->type->kind == KN_TY_SET ? KN_EXC_SET_CHANGED
                                                           : KN_EXC_DICT_CHANGED);
}

LLVMValueRef
kn_lower_dict_iter_item(L *l, KnInstr *it, LLVMValueRef k)
{
    const KnType *t = it->args[0]->type;
    LLVMValueRef mi = l->vals[it->args[0]->id];
    KnDictLayout lay;
    if (layout_of(l, t, &lay) < 0)
        return NULL;
    /* entries with holes (deletions before the loop): made dense once, order kept */
    LLVMValueRef tbl = table_of(l, mi);
    LLVMValueRef n = LLVMBuildLoad2(l->b, l->i64, at(l, tbl, KN_DICT_OFF_NENTRIES), "");
    LLVMValueRef used = LLVMBuildLoad2(l->b, l->i64, at(l, tbl, KN_DICT_OFF_USED), "");
    LLVMBasicBlockRef join;
    begin_if(l, LLVMBuildICmp(l->b, LLVMIntNE, n, used, ""), &join);
    LLVMTypeRef p = l->ptr;
    rt(l, "kn_rt_dict_compact", LLVMVoidTypeInContext(l->ctx), &p, 1, &mi);
    end_if(l, join);
    LLVMValueRef e = entry_at(l, mi, k, &lay);
    LLVMValueRef item;
    const KnType *it_t = it->type->dtype;
    switch (t->kind == KN_TY_SET ? KN_DICT_KEYS : (KnDictView)t->id) {
    case KN_DICT_VALUES:
        item = load_val(l, e, t, &lay);
        break;
    case KN_DICT_ITEMS:
        item = LLVMGetUndef(kn_lower_type(l, it_t));
        item = LLVMBuildInsertValue(l->b, item, load_key(l, e, t, &lay), 0, "");
        item = LLVMBuildInsertValue(l->b, item, load_val(l, e, t, &lay), 1, "");
        break;
    default:
        item = load_key(l, e, t, &lay);
    }
    return incref_ret(l, item, it_t);
}

/* Item k of dict or set src (its keys, values or items in insertion order, of type item), read
 * as a for loop reads it: a reference of its own. For code that walks a dict or set outside a
 * GETITER of its own (list(d), dict(s) pairs); in gives the id and span. */
LLVMValueRef
kn_lower_dict_seq_item(L *l, KnInstr *in, KnInstr *src, const KnType *item, LLVMValueRef k)
{
    KnType itt = {.kind = KN_TY_ITER, .dtype = (KnType *)item};
    KnInstr *args[1] = {src};
    KnInstr it = {.op = KN_OP_GETITER,
                  .id = in->id,
                  .aux = KN_ITER_SEQ,
                  .nargs = 1,
                  .args = args,
                  .type = &itt,
                  .span = in->span};
    return kn_lower_dict_iter_item(l, &it, k);
}

/* ---- the entries of lib/dict.def and lib/set.def ---- */

static LLVMValueRef
val(L *l, KnInstr *in, int i)
{
    return l->vals[in->args[i]->id];
}

/* the table and the arguments of an operator or a method call: self, then args[0..n) */
typedef struct Op {
    KnInstr *self;
    const KnType *t;
    LLVMValueRef mi;
    KnInstr *args[4];
    int n;
    int returns_self; /* an operator (a |= b), not a method call */
} Op;

static Op
operands(L *l, KnInstr *in, int contains)
{
    Op o = {0};
    if (in->op == KN_OP_CALL && in->args[0]->op == KN_OP_GETATTR) {
        o.self = in->args[0]->args[0];
        for (int i = 1; i < in->nargs && o.n < 4; i++)
            o.args[o.n++] = in->args[i];
    } else if (in->op == KN_OP_CALL) { /* len(d) */
        o.self = in->args[1];
    } else if (contains) { /* key in d */
        o.self = in->args[1];
        o.args[o.n++] = in->args[0];
    } else {
        o.self = in->args[0];
        for (int i = 1; i < in->nargs && o.n < 4; i++)
            o.args[o.n++] = in->args[i];
    }
    o.t = o.self->type;
    o.mi = l->vals[o.self->id];
    o.returns_self = in->op == KN_OP_BINOP;
    return o;
}

static LLVMValueRef
lower_getitem(L *l, Op *o, const KnDictLayout *lay)
{
    Key k = make_key(l, o->args[0], key_type(o->t));
    LLVMValueRef ix = lookup_in(l, o->mi, &k, lay);
    raise_key_error_if(l, is_missing(l, ix), &k, key_type(o->t));
    LLVMValueRef v = load_val(l, entry_at(l, o->mi, ix, lay), o->t, lay);
    return incref_ret(l, v, val_type(o->t));
}

/* The two ways out of a lookup that may miss: found_begin branches on ix and leaves the builder
 * in the found block (*from is the block the missing edge leaves, *done the join); found_join
 * ends the found block and gives the phi of `missing` (from *from) and `found`. */
static void
found_begin(L *l, LLVMValueRef ix, LLVMBasicBlockRef *from, LLVMBasicBlockRef *done)
{
    *from = LLVMGetInsertBlock(l->b);
    LLVMBasicBlockRef found = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "found");
    *done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "found.done");
    LLVMBuildCondBr(l->b, is_missing(l, ix), *done, found);
    LLVMPositionBuilderAtEnd(l->b, found);
}

static LLVMValueRef
found_join(L *l, LLVMBasicBlockRef from, LLVMBasicBlockRef done, const KnType *t,
           LLVMValueRef missing, LLVMValueRef found)
{
    LLVMBasicBlockRef found_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    LLVMPositionBuilderAtEnd(l->b, done);
    return phi2(l, kn_lower_type(l, t), missing, from, found, found_end);
}

/* d.get(k, default): the value, or the default converted (a new reference either way); d.get(k):
 * the value or None, an optional of the value type */
static LLVMValueRef
lower_get(L *l, Op *o, const KnDictLayout *lay, const KnType *rt)
{
    const KnType *vt = val_type(o->t);
    Key k = make_key(l, o->args[0], key_type(o->t));
    LLVMValueRef ix = lookup_in(l, o->mi, &k, lay);
    LLVMValueRef missing = o->n < 2
                               ? kn_lower_optional_wrap(l, NULL, &kn_type_none, rt)
                               : kn_lower_convert(l, l->vals[o->args[1]->id], o->args[1]->type, vt);
    LLVMBasicBlockRef from, done;
    found_begin(l, ix, &from, &done);
    LLVMValueRef v = load_val(l, entry_at(l, o->mi, ix, lay), o->t, lay);
    if (o->n < 2) {
        kn_lower_incref(l, v, vt);
        return found_join(l, from, done, rt, missing, kn_lower_optional_wrap(l, v, vt, rt));
    }
    return incref_ret(l, found_join(l, from, done, vt, missing, v), vt);
}

static LLVMValueRef
lower_pop(L *l, Op *o, const KnDictLayout *lay)
{
    const KnType *vt = val_type(o->t);
    Key k = make_key(l, o->args[0], key_type(o->t));
    LLVMValueRef ix = lookup_in(l, o->mi, &k, lay);
    if (o->n < 2) {
        raise_key_error_if(l, is_missing(l, ix), &k, key_type(o->t));
        LLVMValueRef v = load_val(l, entry_at(l, o->mi, ix, lay), o->t, lay);
        remove_entry(l, o->mi, ix, 0); /* its reference is the result's */
        return v;
    }
    LLVMValueRef dflt = kn_lower_convert(l, l->vals[o->args[1]->id], o->args[1]->type, vt);
    kn_lower_incref(l, dflt, vt);
    LLVMBasicBlockRef from, done;
    found_begin(l, ix, &from, &done);
    LLVMValueRef v = load_val(l, entry_at(l, o->mi, ix, lay), o->t, lay);
    kn_lower_decref(l, dflt, vt);
    remove_entry(l, o->mi, ix, 0);
    return found_join(l, from, done, vt, dflt, v);
}

/* d.popitem() (the last entry, as a tuple) or s.pop() (the first key) */
static LLVMValueRef
lower_pop_end(L *l, Op *o, const KnDictLayout *lay, const KnType *rt_t)
{
    int is_set = o->t->kind == KN_TY_SET;
    LLVMTypeRef ps[2] = {l->ptr, l->i32};
    LLVMValueRef args[2] = {o->mi, LLVMConstInt(l->i32, is_set ? 0 : 1, 0)};
    LLVMValueRef ix = rt(l, "kn_rt_dict_end", l->i64, ps, 2, args);
    kn_lower_raise_if(l, is_missing(l, ix), is_set ? KN_EXC_SET_POP_EMPTY : KN_EXC_POPITEM_EMPTY);
    LLVMValueRef e = entry_at(l, o->mi, ix, lay);
    LLVMValueRef key = load_key(l, e, o->t, lay);
    kn_lower_incref(l, key, key_type(o->t)); /* the removal releases the table's own */
    LLVMValueRef r = key;
    if (!is_set) {
        r = LLVMGetUndef(kn_lower_type(l, rt_t));
        r = LLVMBuildInsertValue(l->b, r, key, 0, "");
        r = LLVMBuildInsertValue(l->b, r, load_val(l, e, o->t, lay), 1, "");
    }
    remove_entry(l, o->mi, ix, 0);
    return r;
}

static LLVMValueRef
lower_setdefault(L *l, Op *o, const KnDictLayout *lay)
{
    Key k = make_key(l, o->args[0], key_type(o->t));
    LLVMValueRef added, ix;
    LLVMValueRef e = insert_ix(l, o->mi, &k, o->t, lay, &added, &ix);
    LLVMBasicBlockRef join;
    begin_if(l, added, &join);
    store_value(l, e, o->args[1], o->t, lay, LLVMConstInt(l->i1, 1, 0), o->mi, ix);
    end_if(l, join);
    return incref_ret(l, load_val(l, e, o->t, lay), val_type(o->t));
}

static LLVMValueRef
call_status(L *l, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ps[2] = {l->ptr, l->ptr};
    LLVMValueRef args[2] = {a, b};
    LLVMValueRef r = rt(l, name, l->i32, ps, 2, args);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
    return none(l);
}

static LLVMValueRef
truth_of(L *l, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ps[2] = {l->ptr, l->ptr};
    LLVMValueRef args[2] = {a, b};
    LLVMValueRef r = rt(l, name, l->i32, ps, 2, args);
    return LLVMBuildICmp(l->b, LLVMIntNE, r, LLVMConstInt(l->i32, 0, 0), "");
}

static LLVMValueRef
set_binop(L *l, LLVMValueRef a, LLVMValueRef b, int op)
{
    LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->i32};
    LLVMValueRef args[3] = {a, b, LLVMConstInt(l->i32, (unsigned)op, 0)};
    LLVMValueRef r = rt(l, "kn_rt_set_binop", l->ptr, ps, 3, args);
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, r, ""), KN_EXC_NO_MEMORY);
    return r;
}

static LLVMValueRef
set_inplace(L *l, Op *o, int op)
{
    LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->i32};
    LLVMValueRef args[3] = {o->mi, l->vals[o->args[0]->id], LLVMConstInt(l->i32, (unsigned)op, 0)};
    LLVMValueRef r = rt(l, "kn_rt_set_inplace", l->i32, ps, 3, args);
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, LLVMConstInt(l->i32, 0, 0), ""),
                      KN_EXC_NO_MEMORY);
    if (!o->returns_self)
        return none(l);                /* s.intersection_update(t) */
    return incref_ret(l, o->mi, o->t); /* a |= b is a itself */
}

/* s.discard(k), s.remove(k), del d[k] */
static LLVMValueRef
lower_discard(L *l, Op *o, const KnDictLayout *lay, int must_exist)
{
    Key k = make_key(l, o->args[0], key_type(o->t));
    LLVMValueRef ix = lookup_in(l, o->mi, &k, lay);
    if (must_exist) {
        raise_key_error_if(l, is_missing(l, ix), &k, key_type(o->t));
        remove_entry(l, o->mi, ix, 1);
        return none(l);
    }
    LLVMBasicBlockRef join;
    begin_if(l, LLVMBuildNot(l->b, is_missing(l, ix), ""), &join);
    remove_entry(l, o->mi, ix, 1);
    end_if(l, join);
    return none(l);
}

static LLVMValueRef
copy_table(L *l, LLVMValueRef mi)
{
    LLVMTypeRef p = l->ptr;
    LLVMValueRef r = rt(l, "kn_rt_dict_copy", l->ptr, &p, 1, &mi);
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, r, ""), KN_EXC_NO_MEMORY);
    return r;
}

/* the pair (key, value) put into table mi of type t: its parts lent to make_key and
 * store_value through the instruction's own value slot */
static void
put_pair(L *l, KnInstr *in, LLVMValueRef mi, const KnDictLayout *lay, LLVMValueRef pair,
         const KnType *pt)
{
    const KnType *t = in->type;
    KnInstr x = {.op = KN_OP_LOAD, .id = in->id, .span = in->span, .type = pt->items[0]};
    LLVMValueRef saved = l->vals[in->id];
    l->vals[in->id] = LLVMBuildExtractValue(l->b, pair, 0, "");
    Key k = make_key(l, &x, key_type(t));
    LLVMValueRef added, ix;
    LLVMValueRef e = insert_ix(l, mi, &k, t, lay, &added, &ix);
    x.type = pt->items[1];
    l->vals[in->id] = LLVMBuildExtractValue(l->b, pair, 1, "");
    store_value(l, e, &x, t, lay, added, mi, ix);
    l->vals[in->id] = saved;
}

/* dict(pairs) of a list, tuple or set of 2-tuples, in their order (later keys win) */
static LLVMValueRef
dict_from_pairs(L *l, KnInstr *in, KnInstr *src)
{
    KnDictLayout lay;
    if (layout_of(l, in->type, &lay) < 0)
        return NULL;
    const KnType *st = src->type;
    LLVMValueRef sv = l->vals[src->id];
    LLVMValueRef mi = new_table(l, in->type, LLVMConstInt(l->i64, 0, 0));
    kn_lower_own(l, mi, in->type); /* a raise while it is filled releases it */
    if (st->kind == KN_TY_TUPLE) {
        for (int i = 0; i < st->n; i++)
            put_pair(l, in, mi, &lay, LLVMBuildExtractValue(l->b, sv, (unsigned)i, ""),
                     st->items[i]);
        return mi;
    }
    const KnType *pt = st->kind == KN_TY_LIST ? st->dtype : key_type(st);
    LLVMValueRef kp = kn_lower_entry_alloca(l, l->i64, "k");
    LLVMBuildStore(l->b, LLVMConstInt(l->i64, 0, 0), kp);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "pairs");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "pairs.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "pairs.done");
    LLVMBuildBr(l->b, head);
    LLVMPositionBuilderAtEnd(l->b, head);
    LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, kp, "");
    LLVMValueRef n = st->kind == KN_TY_LIST ? kn_lower_list_len(l, sv) : kn_lower_dict_len(l, sv);
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, n, ""), body, done);
    LLVMPositionBuilderAtEnd(l->b, body);
    if (st->kind == KN_TY_LIST) {
        put_pair(l, in, mi, &lay, kn_lower_list_item(l, sv, k, pt), pt);
    } else { /* a set's keys, read as a for loop reads them (a reference of their own) */
        LLVMValueRef p = kn_lower_dict_seq_item(l, in, src, pt, k);
        put_pair(l, in, mi, &lay, p, pt);
        kn_lower_decref(l, p, pt);
    }
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, LLVMConstInt(l->i64, 1, 0), ""), kp);
    LLVMBuildBr(l->b, head);
    LLVMPositionBuilderAtEnd(l->b, done);
    return mi;
}

/* dict(), dict(d), dict(d.items()), dict(pairs), set(), set(s) */
static LLVMValueRef
lower_constructor(L *l, KnInstr *in)
{
    if (in->nargs > 1 && in->args[1]->type->kind == (in->type->kind) &&
        (in->args[1]->type->id == KN_DICT_SELF || in->args[1]->type->id == KN_DICT_ITEMS))
        return copy_table(l, l->vals[in->args[1]->id]);
    if (in->nargs > 1)
        return dict_from_pairs(l, in, in->args[1]);
    return new_table(l, in->type, LLVMConstInt(l->i64, 0, 0));
}

/* x in d.values(): a scan of the values, compared by a function emitted for their type */
static LLVMValueRef
value_in(L *l, Op *o)
{
    const KnType *vt = val_type(o->t);
    LLVMValueRef v = kn_lower_convert(l, l->vals[o->args[0]->id], o->args[0]->type, vt);
    size_t size = kn_type_size(vt);
    LLVMTypeRef buf = LLVMArrayType2(l->i64, (size + 7) / 8 ? (size + 7) / 8 : 1);
    LLVMValueRef p = kn_lower_entry_alloca(l, buf, "value");
    LLVMBuildStore(l->b, LLVMConstNull(buf), p);
    kn_lower_store_c(l, vt, v, p);
    LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->ptr};
    LLVMValueRef args[3] = {o->mi, p, kn_lower_eq_function(l, vt)};
    LLVMValueRef r = rt(l, "kn_rt_dict_find_value", l->i32, ps, 3, args);
    return LLVMBuildICmp(l->b, LLVMIntSGT, r, LLVMConstInt(l->i32, 0, 0), "");
}

/* (k, v) in d.items(): k's entry, then its value compared with v */
static LLVMValueRef
item_in(L *l, Op *o, const KnDictLayout *lay, KnInstr *in)
{
    const KnType *xt = o->args[0]->type, *vt = val_type(o->t);
    LLVMValueRef x = l->vals[o->args[0]->id];
    KnInstr part = {.op = KN_OP_LOAD, .id = in->id, .span = in->span, .type = xt->items[0]};
    LLVMValueRef saved = l->vals[in->id];
    l->vals[in->id] = LLVMBuildExtractValue(l->b, x, 0, "");
    Key k = make_key(l, &part, key_type(o->t));
    l->vals[in->id] = saved;
    LLVMValueRef ix = lookup_in(l, o->mi, &k, lay);
    LLVMValueRef r = kn_lower_entry_alloca(l, l->i1, "found");
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), r);
    LLVMBasicBlockRef join;
    begin_if(l, LLVMBuildNot(l->b, is_missing(l, ix), ""), &join);
    LLVMValueRef v = kn_lower_convert(l, LLVMBuildExtractValue(l->b, x, 1, ""), xt->items[1], vt);
    LLVMBuildStore(
        l->b, kn_lower_value_eq(l, load_val(l, entry_at(l, o->mi, ix, lay), o->t, lay), v, vt, vt),
        r);
    end_if(l, join);
    return LLVMBuildLoad2(l->b, l->i1, r, "");
}

static LLVMValueRef
lower_contains(L *l, Op *o, const KnDictLayout *lay, KnInstr *in)
{
    LLVMValueRef found;
    if (o->t->kind == KN_TY_DICT && o->t->id == KN_DICT_VALUES)
        found = value_in(l, o);
    else if (o->t->kind == KN_TY_DICT && o->t->id == KN_DICT_ITEMS)
        found = item_in(l, o, lay, in);
    else {
        Key k = make_key(l, o->args[0], key_type(o->t));
        found = LLVMBuildNot(l->b, is_missing(l, lookup_in(l, o->mi, &k, lay)), "");
    }
    return in->op == KN_OP_CMP && in->aux == KN_CMP_NOTIN ? LLVMBuildNot(l->b, found, "") : found;
}

LLVMValueRef
kn_lower_dict_eq(L *l, LLVMValueRef a, LLVMValueRef b, const KnType *t)
{
    KnDictLayout lay;
    if (layout_of(l, t, &lay) < 0)
        return LLVMConstInt(l->i1, 0, 0);
    if (t->kind == KN_TY_SET || lay.val_cmp || !lay.vsize)
        return truth_of(l, "kn_rt_dict_equal", a, b);
    /* values of containers or arrays: compared by a function emitted for their type */
    LLVMTypeRef ps[3] = {l->ptr, l->ptr, l->ptr};
    LLVMValueRef args[3] = {a, b, kn_lower_eq_function(l, val_type(t))};
    LLVMValueRef r = rt(l, "kn_rt_dict_equal_by", l->i32, ps, 3, args);
    if (val_type(t)->kind == KN_TY_ARRAY) /* only arrays give statuses (never nested: typing) */
        kn_lower_raise_eq_status(l, r);
    return LLVMBuildICmp(l->b, LLVMIntSGT, r, LLVMConstInt(l->i32, 0, 0), "");
}

static int
is_keys_view(const KnType *t)
{
    return t->kind == KN_TY_DICT && t->id == KN_DICT_KEYS;
}

/* a keys view's keys as a new set (owned until the block ends), or a set itself */
static LLVMValueRef
set_of(L *l, KnInstr *x, const KnType *st)
{
    LLVMValueRef v = l->vals[x->id];
    if (!is_keys_view(x->type))
        return v;
    LLVMValueRef s = new_table(l, st, kn_lower_dict_len(l, v));
    kn_lower_own(l, s, st);
    call_status(l, "kn_rt_dict_update", s, v);
    return s;
}

/* ==, !=, <=, <, >=, > and | & - ^ of a keys view with a set or a keys view (typing/dict.c:
 * keys_view_op); < and > are <= and >= of different lengths */
static LLVMValueRef
keys_view_op(L *l, KnInstr *in, int id)
{
    LLVMValueRef a = val(l, in, 0), b = val(l, in, 1);
    if (in->op == KN_OP_CMP && in->aux != KN_CMP_EQ && in->aux != KN_CMP_NE) {
        int le = in->aux == KN_CMP_LE || in->aux == KN_CMP_LT; /* a within b, else b within a */
        LLVMValueRef sub = truth_of(l, "kn_rt_set_subset", le ? a : b, le ? b : a);
        if (in->aux == KN_CMP_LE || in->aux == KN_CMP_GE)
            return sub;
        LLVMValueRef proper =
            LLVMBuildICmp(l->b, LLVMIntNE, kn_lower_dict_len(l, a), kn_lower_dict_len(l, b), "");
        return LLVMBuildAnd(l->b, sub, proper, "");
    }
    if (in->op == KN_OP_CMP) { /* the same length, and every key of a in b */
        LLVMValueRef eq = LLVMBuildAnd(
            l->b,
            LLVMBuildICmp(l->b, LLVMIntEQ, kn_lower_dict_len(l, a), kn_lower_dict_len(l, b), ""),
            truth_of(l, "kn_rt_set_subset", a, b), "");
        return in->aux == KN_CMP_NE ? LLVMBuildNot(l->b, eq, "") : eq;
    }
    int op = id == KN_BI_DICT_OR || id == KN_BI_SET_OR     ? KN_SET_OR
             : id == KN_BI_DICT_AND || id == KN_BI_SET_AND ? KN_SET_AND
             : id == KN_BI_DICT_SUB || id == KN_BI_SET_SUB ? KN_SET_SUB
                                                           : KN_SET_XOR;
    return set_binop(l, set_of(l, in->args[0], in->type), set_of(l, in->args[1], in->type), op);
}

static LLVMValueRef
compare(L *l, KnInstr *in, Op *o, int id)
{
    LLVMValueRef a = val(l, in, 0), b = val(l, in, 1);
    int ne = in->aux == KN_CMP_NE;
    if (id == KN_BI_SET_LT || id == KN_BI_SET_GT) { /* proper subset: <= and not == */
        LLVMValueRef x = id == KN_BI_SET_LT ? a : b, y = id == KN_BI_SET_LT ? b : a;
        LLVMValueRef sub = truth_of(l, "kn_rt_set_subset", x, y);
        LLVMValueRef lt =
            LLVMBuildICmp(l->b, LLVMIntSLT, kn_lower_dict_len(l, x), kn_lower_dict_len(l, y), "");
        return LLVMBuildAnd(l->b, sub, lt, "");
    }
    if (id == KN_BI_SET_LE || id == KN_BI_SET_GE)
        return id == KN_BI_SET_LE ? truth_of(l, "kn_rt_set_subset", a, b)
                                  : truth_of(l, "kn_rt_set_subset", b, a);
    KN_UNUSED(o);
    const KnType *t = in->args[0]->type;
    LLVMValueRef eq;
    if (t->kind == KN_TY_DICT && t->id == KN_DICT_KEYS) /* as sets: the same length, a in b */
        eq = LLVMBuildAnd(
            l->b,
            LLVMBuildICmp(l->b, LLVMIntEQ, kn_lower_dict_len(l, a), kn_lower_dict_len(l, b), ""),
            truth_of(l, "kn_rt_set_subset", a, b), "");
    else
        eq = kn_lower_dict_eq(l, a, b, t);
    return ne ? LLVMBuildNot(l->b, eq, "") : eq;
}

LLVMValueRef
kn_lower_rule_dict(L *l, KnInstr *in, int id)
{
    if (id == KN_BI_DICT || id == KN_BI_SET)
        return lower_constructor(l, in);
    if ((in->op == KN_OP_BINOP || in->op == KN_OP_CMP) && in->nargs == 2 &&
        (is_keys_view(in->args[0]->type) || is_keys_view(in->args[1]->type)) &&
        id != KN_BI_DICT_CONTAINS && id != KN_BI_SET_CONTAINS)
        return keys_view_op(l, in, id);
    if (id == KN_BI_DICT_IOR) { /* d1 |= d2: d1.update(d2), the result d1 itself */
        call_status(l, "kn_rt_dict_update", val(l, in, 0), val(l, in, 1));
        return incref_ret(l, val(l, in, 0), in->type);
    }
    if (id == KN_BI_DICT_OR) { /* d1 | d2 */
        LLVMValueRef r = copy_table(l, val(l, in, 0));
        kn_lower_own(l, r, in->type); /* released if the update raises */
        call_status(l, "kn_rt_dict_update", r, val(l, in, 1));
        LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0); /* the result: a value of its own */
        kn_lower_incref(l, r, in->type);
        return LLVMBuildInBoundsGEP2(l->b, l->i8, r, &zero, 1, "merged");
    }
    Op o = operands(l, in, id == KN_BI_DICT_CONTAINS || id == KN_BI_SET_CONTAINS);
    KnDictLayout lay;
    if (layout_of(l, o.t, &lay) < 0)
        return NULL;
    LLVMValueRef added;
    switch (id) {
    case KN_BI_DICT_GETITEM:
        return lower_getitem(l, &o, &lay);
    case KN_BI_DICT_SETITEM: {
        Key k = make_key(l, o.args[0], key_type(o.t));
        if (!inline_probe(&lay)) {
            set_item(l, o.mi, &k, o.args[1], o.t, &lay);
            return NULL;
        }
        LLVMValueRef ix;
        LLVMValueRef e = insert_ix(l, o.mi, &k, o.t, &lay, &added, &ix);
        store_value(l, e, o.args[1], o.t, &lay, added, o.mi, ix);
        return NULL;
    }
    case KN_BI_DICT_DELITEM:
    case KN_BI_SET_REMOVE:
        return lower_discard(l, &o, &lay, 1);
    case KN_BI_SET_DISCARD:
        return lower_discard(l, &o, &lay, 0);
    case KN_BI_DICT_CONTAINS:
    case KN_BI_SET_CONTAINS:
        return lower_contains(l, &o, &lay, in);
    case KN_BI_DICT_LEN:
    case KN_BI_SET_LEN:
        return kn_lower_dict_len(l, o.mi);
    case KN_BI_DICT_BOOL:
    case KN_BI_SET_BOOL:
        return kn_lower_truth(l, o.mi, o.t);
    case KN_BI_DICT_EQ:
    case KN_BI_DICT_NE:
    case KN_BI_SET_EQ:
    case KN_BI_SET_NE:
    case KN_BI_SET_LE:
    case KN_BI_SET_LT:
    case KN_BI_SET_GE:
    case KN_BI_SET_GT:
        return compare(l, in, &o, id);
    case KN_BI_DICT_GET:
        return lower_get(l, &o, &lay, in->type);
    case KN_BI_DICT_SETDEFAULT:
        return lower_setdefault(l, &o, &lay);
    case KN_BI_DICT_POP:
        return lower_pop(l, &o, &lay);
    case KN_BI_DICT_POPITEM:
    case KN_BI_SET_POP:
        return lower_pop_end(l, &o, &lay, in->type);
    case KN_BI_DICT_UPDATE:
    case KN_BI_SET_UPDATE:
        return call_status(l, "kn_rt_dict_update", o.mi, l->vals[o.args[0]->id]);
    case KN_BI_DICT_KEYS:
    case KN_BI_DICT_VALUES:
    case KN_BI_DICT_ITEMS: {
        /* a value of its own (the same table), so that its ownership is not merged with the
         * dict's when that is a temporary: `{1: n}.items()` */
        kn_lower_incref(l, o.mi, o.t);
        LLVMValueRef zero = LLVMConstInt(l->i64, 0, 0);
        return LLVMBuildInBoundsGEP2(l->b, l->i8, o.mi, &zero, 1, "view");
    }
    case KN_BI_DICT_CLEAR:
    case KN_BI_SET_CLEAR: {
        LLVMTypeRef p = l->ptr;
        rt(l, "kn_rt_dict_clear", LLVMVoidTypeInContext(l->ctx), &p, 1, &o.mi);
        return none(l);
    }
    case KN_BI_DICT_COPY:
    case KN_BI_SET_COPY:
        return copy_table(l, o.mi);
    case KN_BI_SET_ADD: {
        Key k = make_key(l, o.args[0], key_type(o.t));
        insert(l, o.mi, &k, o.t, &lay, &added);
        return none(l);
    }
    case KN_BI_SET_OR:
    case KN_BI_SET_UNION:
        return set_binop(l, o.mi, l->vals[o.args[0]->id], KN_SET_OR);
    case KN_BI_SET_AND:
    case KN_BI_SET_INTERSECTION:
        return set_binop(l, o.mi, l->vals[o.args[0]->id], KN_SET_AND);
    case KN_BI_SET_SUB:
    case KN_BI_SET_DIFFERENCE:
        return set_binop(l, o.mi, l->vals[o.args[0]->id], KN_SET_SUB);
    case KN_BI_SET_XOR:
    case KN_BI_SET_SYMMETRIC_DIFFERENCE:
        return set_binop(l, o.mi, l->vals[o.args[0]->id], KN_SET_XOR);
    case KN_BI_SET_IOR:
        return set_inplace(l, &o, KN_SET_OR);
    case KN_BI_SET_IAND:
    case KN_BI_SET_INTERSECTION_UPDATE:
        return set_inplace(l, &o, KN_SET_AND);
    case KN_BI_SET_ISUB:
    case KN_BI_SET_DIFFERENCE_UPDATE:
        return set_inplace(l, &o, KN_SET_SUB);
    case KN_BI_SET_IXOR:
    case KN_BI_SET_SYMMETRIC_DIFFERENCE_UPDATE:
        return set_inplace(l, &o, KN_SET_XOR);
    case KN_BI_SET_ISSUBSET:
        return truth_of(l, "kn_rt_set_subset", o.mi, l->vals[o.args[0]->id]);
    case KN_BI_SET_ISSUPERSET:
        return truth_of(l, "kn_rt_set_subset", l->vals[o.args[0]->id], o.mi);
    case KN_BI_SET_ISDISJOINT: {
        LLVMValueRef r = set_binop(l, o.mi, l->vals[o.args[0]->id], KN_SET_AND);
        LLVMValueRef empty =
            LLVMBuildICmp(l->b, LLVMIntEQ, kn_lower_dict_len(l, r), LLVMConstInt(l->i64, 0, 0), "");
        kn_lower_decref(l, r, o.t);
        return empty;
    }
    default:
        kn_diag_error(&l->c->diags, KN_DIAG_LOWERING, in->span, "internal error: %s",
                      kn_kir_builtin_name(id));
        return NULL;
    }
}
