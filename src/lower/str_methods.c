/* str_methods.c - the lowering rules of the str methods, format() and repr()
 * (lib/str_methods.def; typing in typing/str_methods.c). Every method is one call of its
 * runtime routine (runtime/str_methods.h) with the operands spilled to allocas: missing
 * optional arguments become their CPython defaults here (start 0, end INT64_MAX, count -1,
 * tabsize 8, fill ' '), None too. Statuses become exceptions: -1 MemoryError, index/rindex's -1
 * ValueError "substring not found", an empty separator ValueError, a fill of another length
 * TypeError, a bad format spec ValueError. Results are new references. */
#include "lower/internal.h"

#include "runtime/str.h"
#include "runtime/str_methods.h"
#include "typing/typing.h"

static LLVMValueRef
i64c(L *l, int64_t v)
{
    return LLVMConstInt(l->i64, (unsigned long long)v, 1);
}

static LLVMValueRef
i32c(L *l, int32_t v)
{
    return LLVMConstInt(l->i32, (unsigned long long)(int64_t)v, 1);
}

/* the str a method is called on */
static LLVMValueRef
self_val(L *l, KnInstr *in)
{
    return l->vals[in->args[0]->args[0]->id];
}

/* argument p (positional, or by keyword kw), or NULL when absent or None */
static KnInstr *
arg(KnInstr *in, int p, const char *kw)
{
    KnInstr *a = kn_typing_arg(in, p, kw);
    return a && a->type->kind != KN_TY_NONE ? a : NULL;
}

static LLVMValueRef
int_arg(L *l, KnInstr *in, int p, const char *kw, int64_t dflt)
{
    KnInstr *a = arg(in, p, kw);
    return a ? kn_lower_convert(l, l->vals[a->id], a->type, &kn_type_int64) : i64c(l, dflt);
}

static LLVMValueRef
spill(L *l, LLVMValueRef v)
{
    return kn_lower_str_spill(l, v);
}

/* a pointer to the str argument p, or a null pointer when absent or None */
static LLVMValueRef
str_arg(L *l, KnInstr *in, int p, const char *kw)
{
    KnInstr *a = arg(in, p, kw);
    return a ? spill(l, l->vals[a->id]) : LLVMConstNull(l->ptr);
}

static void
raise_rc(L *l, LLVMValueRef rc, int32_t code, int exc)
{
    kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, rc, i32c(l, code), ""), exc);
}

/* int name(KnStr *out, args...): the str written, MemoryError when it fails */
static LLVMValueRef
make(L *l, const char *name, LLVMValueRef *args, LLVMTypeRef *types, int n)
{
    LLVMValueRef out = kn_lower_entry_alloca(l, kn_lower_str_type(l), "strout");
    LLVMValueRef as[6] = {out};
    LLVMTypeRef ts[6] = {l->ptr};
    for (int i = 0; i < n; i++) {
        as[i + 1] = args[i];
        ts[i + 1] = types[i];
    }
    LLVMValueRef rc = kn_lower_extern(l, name, l->i32, ts, n + 1, as);
    raise_rc(l, rc, -1, KN_EXC_NO_MEMORY);
    return LLVMBuildLoad2(l->b, kn_lower_str_type(l), out, "");
}

static LLVMValueRef
make1(L *l, const char *name, LLVMValueRef s)
{
    LLVMValueRef p = spill(l, s);
    LLVMTypeRef t = l->ptr;
    return make(l, name, &p, &t, 1);
}

/* find, rfind, index, rindex, count */
static LLVMValueRef
lower_find(L *l, KnInstr *in, int id)
{
    static const char *const names[] = {"kn_rt_str_find", "kn_rt_str_rfind", "kn_rt_str_find",
                                        "kn_rt_str_rfind", "kn_rt_str_count"};
    LLVMValueRef args[4] = {spill(l, self_val(l, in)), str_arg(l, in, 0, NULL),
                            int_arg(l, in, 1, NULL, 0), int_arg(l, in, 2, NULL, INT64_MAX)};
    LLVMTypeRef ts[4] = {l->ptr, l->ptr, l->i64, l->i64};
    LLVMValueRef r = kn_lower_extern(l, names[id - KN_BI_STR_FIND], l->i64, ts, 4, args);
    if (id == KN_BI_STR_INDEX || id == KN_BI_STR_RINDEX)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, i64c(l, 0), ""),
                          KN_EXC_STR_NOT_FOUND);
    return r;
}

/* startswith / endswith of a str or a tuple of strs (any of them) */
static LLVMValueRef
lower_affix(L *l, KnInstr *in, int id)
{
    const char *name = id == KN_BI_STR_STARTSWITH ? "kn_rt_str_startswith" : "kn_rt_str_endswith";
    KnInstr *what = arg(in, 0, NULL);
    LLVMValueRef s = spill(l, self_val(l, in));
    LLVMValueRef start = int_arg(l, in, 1, NULL, 0), end = int_arg(l, in, 2, NULL, INT64_MAX);
    LLVMTypeRef ts[4] = {l->ptr, l->ptr, l->i64, l->i64};
    LLVMValueRef v = l->vals[what->id];
    int n = what->type->kind == KN_TY_TUPLE ? what->type->n : 1;
    LLVMValueRef any = LLVMConstInt(l->i1, 0, 0);
    for (int i = 0; i < n; i++) {
        LLVMValueRef item =
            what->type->kind == KN_TY_TUPLE ? LLVMBuildExtractValue(l->b, v, (unsigned)i, "") : v;
        LLVMValueRef args[4] = {s, spill(l, item), start, end};
        LLVMValueRef r = kn_lower_extern(l, name, l->i32, ts, 4, args);
        any = LLVMBuildOr(l->b, any, LLVMBuildICmp(l->b, LLVMIntNE, r, i32c(l, 0), ""), "");
    }
    return any;
}

static LLVMValueRef
lower_is(L *l, KnInstr *in, int id)
{
    static const int which[] = {KN_STR_ISDIGIT,      KN_STR_ISALPHA,   KN_STR_ISALNUM,
                                KN_STR_ISSPACE,      KN_STR_ISUPPER,   KN_STR_ISLOWER,
                                KN_STR_ISTITLE,      KN_STR_ISDECIMAL, KN_STR_ISNUMERIC,
                                KN_STR_ISIDENTIFIER, KN_STR_ISASCII,   KN_STR_ISPRINTABLE};
    int w = which[id - KN_BI_STR_ISDIGIT];
    if (w == KN_STR_ISASCII) /* the flag every str carries */
        return LLVMBuildICmp(l->b, LLVMIntNE, kn_lower_str_field(l, self_val(l, in), KN_STR_ASCII),
                             i32c(l, 0), "");
    LLVMValueRef args[2] = {spill(l, self_val(l, in)), i32c(l, w)};
    LLVMTypeRef ts[2] = {l->ptr, l->i32};
    LLVMValueRef r = kn_lower_extern(l, "kn_rt_str_is", l->i32, ts, 2, args);
    return LLVMBuildICmp(l->b, LLVMIntNE, r, i32c(l, 0), "");
}

/* center / ljust / rjust: the fill must be one character */
static LLVMValueRef
lower_pad(L *l, KnInstr *in, int id)
{
    KnInstr *f = arg(in, 1, NULL);
    LLVMValueRef fill = i32c(l, ' ');
    if (f) {
        LLVMValueRef fv = l->vals[f->id];
        kn_lower_raise_if(l,
                          LLVMBuildICmp(l->b, LLVMIntNE, kn_lower_str_field(l, fv, KN_STR_LENGTH),
                                        i64c(l, 1), ""),
                          KN_EXC_STR_FILL);
        LLVMValueRef cargs[2] = {spill(l, fv), i64c(l, 0)};
        LLVMTypeRef cts[2] = {l->ptr, l->i64};
        fill = kn_lower_extern(l, "kn_rt_str_code", l->i32, cts, 2, cargs);
    }
    int align = id == KN_BI_STR_CENTER ? '^' : id == KN_BI_STR_LJUST ? '<' : '>';
    LLVMValueRef args[4] = {spill(l, self_val(l, in)), int_arg(l, in, 0, NULL, 0), fill,
                            i32c(l, align)};
    LLVMTypeRef ts[4] = {l->ptr, l->i64, l->i32, l->i32};
    return make(l, "kn_rt_str_pad", args, ts, 4);
}

static LLVMValueRef
lower_partition(L *l, KnInstr *in, int id)
{
    KnInstr *sep = arg(in, 0, NULL);
    LLVMValueRef sv = l->vals[sep->id];
    kn_lower_raise_if(
        l, LLVMBuildICmp(l->b, LLVMIntEQ, kn_lower_str_field(l, sv, KN_STR_LENGTH), i64c(l, 0), ""),
        KN_EXC_STR_EMPTY_SEP);
    LLVMTypeRef st = kn_lower_str_type(l);
    LLVMValueRef out = kn_lower_entry_alloca(l, LLVMArrayType(st, 3), "parts");
    LLVMValueRef args[4] = {out, spill(l, self_val(l, in)), spill(l, sv),
                            i32c(l, id == KN_BI_STR_RPARTITION)};
    LLVMTypeRef ts[4] = {l->ptr, l->ptr, l->ptr, l->i32};
    raise_rc(l, kn_lower_extern(l, "kn_rt_str_partition", l->i32, ts, 4, args), -1,
             KN_EXC_NO_MEMORY);
    LLVMValueRef t = LLVMGetUndef(kn_lower_type(l, in->type));
    for (unsigned i = 0; i < 3; i++) {
        LLVMValueRef idx[2] = {i64c(l, 0), i64c(l, i)};
        LLVMValueRef p = LLVMBuildGEP2(l->b, LLVMArrayType(st, 3), out, idx, 2, "");
        t = LLVMBuildInsertValue(l->b, t, LLVMBuildLoad2(l->b, st, p, ""), i, "");
    }
    return t;
}

/* split / rsplit / splitlines: a new list of str */
static LLVMValueRef
lower_split(L *l, KnInstr *in, int id)
{
    LLVMValueRef out = kn_lower_entry_alloca(l, l->ptr, "strlist");
    LLVMValueRef rc;
    if (id == KN_BI_STR_SPLITLINES) {
        KnInstr *k = arg(in, 0, "keepends");
        LLVMValueRef keep =
            k ? LLVMBuildZExt(l->b, kn_lower_truth(l, l->vals[k->id], k->type), l->i32, "")
              : i32c(l, 0);
        LLVMValueRef args[3] = {out, spill(l, self_val(l, in)), keep};
        LLVMTypeRef ts[3] = {l->ptr, l->ptr, l->i32};
        rc = kn_lower_extern(l, "kn_rt_str_splitlines_list", l->i32, ts, 3, args);
    } else {
        LLVMValueRef args[5] = {out, spill(l, self_val(l, in)), str_arg(l, in, 0, "sep"),
                                int_arg(l, in, 1, "maxsplit", -1), i32c(l, id == KN_BI_STR_RSPLIT)};
        LLVMTypeRef ts[5] = {l->ptr, l->ptr, l->ptr, l->i64, l->i32};
        rc = kn_lower_extern(l, "kn_rt_str_split_list", l->i32, ts, 5, args);
        raise_rc(l, rc, -2, KN_EXC_STR_EMPTY_SEP);
    }
    raise_rc(l, rc, -1, KN_EXC_NO_MEMORY);
    return LLVMBuildLoad2(l->b, l->ptr, out, "");
}

static LLVMValueRef
lower_join(L *l, KnInstr *in)
{
    KnInstr *items = arg(in, 0, NULL);
    LLVMValueRef sep = spill(l, self_val(l, in)), v = l->vals[items->id];
    if (items->type->kind == KN_TY_LIST) {
        LLVMValueRef args[2] = {sep, v};
        LLVMTypeRef ts[2] = {l->ptr, l->ptr};
        return make(l, "kn_rt_str_join_list", args, ts, 2);
    }
    /* a tuple of strs: its items in a row are a KnStr array */
    LLVMValueRef p = kn_lower_entry_alloca(l, LLVMTypeOf(v), "strtuple");
    LLVMBuildStore(l->b, v, p);
    LLVMValueRef args[3] = {sep, p, i64c(l, items->type->n)};
    LLVMTypeRef ts[3] = {l->ptr, l->ptr, l->i64};
    return make(l, "kn_rt_str_join", args, ts, 3);
}

/* the pieces of an f-string, in a row, concatenated once */
static LLVMValueRef
lower_concat(L *l, KnInstr *in)
{
    int n = in->nargs - 1;
    if (n == 0)
        return kn_lower_str_const(l, "");
    LLVMTypeRef st = kn_lower_str_type(l), at = LLVMArrayType(st, (unsigned)n);
    LLVMValueRef parts = kn_lower_entry_alloca(l, at, "fparts");
    for (int i = 0; i < n; i++) {
        LLVMValueRef idx[2] = {i64c(l, 0), i64c(l, i)};
        LLVMBuildStore(l->b, l->vals[in->args[i + 1]->id],
                       LLVMBuildGEP2(l->b, at, parts, idx, 2, ""));
    }
    LLVMValueRef args[2] = {parts, i64c(l, n)};
    LLVMTypeRef ts[2] = {l->ptr, l->i64};
    return make(l, "kn_rt_str_build", args, ts, 2);
}

/* format(v, spec), repr(v) and ascii(v) (numbers: their repr, already ASCII) */
static LLVMValueRef
lower_format(L *l, KnInstr *in, int id)
{
    KnInstr *x = in->args[1];
    LLVMValueRef v = l->vals[x->id];
    int is_repr = id == KN_BI_REPR || id == KN_BI_ASCII;
    KnInstr *spec = in->nargs > 2 ? in->args[2] : NULL;
    int empty = !spec || (spec->op == KN_OP_CONST && spec->imm.str && !spec->imm.str[0]);
    if (is_repr || empty) {
        switch (x->type->kind) {
        case KN_TY_STR:
            if (is_repr)
                return make1(l, id == KN_BI_ASCII ? "kn_rt_str_ascii" : "kn_rt_str_repr", v);
            /* a new reference of the same str, as a distinct value (the owned-temporary list
             * would merge two releases of one LLVM value into one) */
            kn_lower_incref(l, v, x->type);
            return LLVMBuildInsertValue(l->b, v, kn_lower_str_field(l, v, KN_STR_MI), KN_STR_MI,
                                        "strref");
        case KN_TY_BOOL:
            return LLVMBuildSelect(l->b, v, kn_lower_str_const(l, "True"),
                                   kn_lower_str_const(l, "False"), "");
        case KN_TY_FLOAT: {
            LLVMValueRef d = kn_lower_convert(l, v, x->type, &kn_type_float64);
            LLVMTypeRef t = l->f64;
            return make(l, "kn_rt_float_repr", &d, &t, 1);
        }
        default:
            if (!x->type->is_signed && x->type->bits == 64) {
                LLVMTypeRef t = l->i64;
                return make(l, "kn_rt_str_from_uint", &v, &t, 1);
            }
            break; /* format_int with the empty spec: the runtime's fast integer layout */
        }
    }
    LLVMValueRef sp = spec ? spill(l, l->vals[spec->id]) : spill(l, kn_lower_str_const(l, ""));
    const char *name;
    LLVMValueRef d;
    LLVMTypeRef t;
    switch (x->type->kind) {
    case KN_TY_STR:
        name = "kn_rt_format_str_s";
        d = spill(l, v);
        t = l->ptr;
        break;
    case KN_TY_FLOAT:
        name = "kn_rt_format_float_s";
        d = kn_lower_convert(l, v, x->type, &kn_type_float64);
        t = l->f64;
        break;
    default: /* a uint64 keeps its high bit: the unsigned entry */
        if (!x->type->is_signed && x->type->bits == 64) {
            name = "kn_rt_format_uint_s";
            d = v;
        } else {
            name = "kn_rt_format_int_s";
            d = kn_lower_convert(l, v, x->type, &kn_type_int64);
        }
        t = l->i64;
        break;
    }
    LLVMValueRef out = kn_lower_entry_alloca(l, kn_lower_str_type(l), "fmtout");
    LLVMValueRef args[3] = {out, d, sp};
    LLVMTypeRef ts[3] = {l->ptr, t, l->ptr};
    LLVMValueRef rc = kn_lower_extern(l, name, l->i32, ts, 3, args);
    raise_rc(l, rc, -1, KN_EXC_NO_MEMORY);
    raise_rc(l, rc, -2, KN_EXC_FORMAT_SPEC);
    raise_rc(l, rc, -3, KN_EXC_FORMAT_OPTION);
    return LLVMBuildLoad2(l->b, kn_lower_str_type(l), out, "");
}

/* s.format(args, name=value) of a run-time s: the arguments as an array of KnFmtArg, the
 * keywords' names as strs; the runtime parses s (runtime/str_format_args.c) */
static LLVMValueRef
lower_format_args(L *l, KnInstr *in)
{
    int nkw = in->aux, n = in->nargs - 1, npos = n - nkw;
    const char **names = in->imm.ptr;
    LLVMTypeRef fs[4] = {l->i32, l->i32, l->i64, l->ptr};
    LLVMTypeRef at = LLVMStructTypeInContext(l->ctx, fs, 4, 0);
    LLVMTypeRef arr_t = LLVMArrayType2(at, (uint64_t)(n ? n : 1));
    LLVMValueRef arr = kn_lower_entry_alloca(l, arr_t, "fmtargs");
    for (int i = 0; i < n; i++) {
        KnInstr *x = in->args[1 + i];
        LLVMValueRef v = l->vals[x->id], bits = i64c(l, 0), sp = LLVMConstNull(l->ptr);
        int tag;
        switch (x->type->kind) {
        case KN_TY_STR:
            tag = KN_FA_STR;
            sp = spill(l, v);
            break;
        case KN_TY_BOOL:
            tag = KN_FA_BOOL;
            bits = LLVMBuildZExt(l->b, v, l->i64, "");
            break;
        case KN_TY_FLOAT:
            tag = KN_FA_FLOAT;
            bits = LLVMBuildBitCast(l->b, kn_lower_convert(l, v, x->type, &kn_type_float64), l->i64,
                                    "");
            break;
        default:
            tag = !x->type->is_signed && x->type->bits == 64 ? KN_FA_UINT : KN_FA_INT;
            bits = tag == KN_FA_UINT ? v : kn_lower_convert(l, v, x->type, &kn_type_int64);
        }
        LLVMValueRef idx[2] = {i64c(l, 0), i64c(l, i)};
        LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, arr_t, arr, idx, 2, "");
        LLVMBuildStore(l->b, i32c(l, tag), LLVMBuildStructGEP2(l->b, at, p, 0, ""));
        LLVMBuildStore(l->b, bits, LLVMBuildStructGEP2(l->b, at, p, 2, ""));
        LLVMBuildStore(l->b, sp, LLVMBuildStructGEP2(l->b, at, p, 3, ""));
    }
    LLVMTypeRef st = kn_lower_str_type(l);
    LLVMTypeRef nm_t = LLVMArrayType2(st, (uint64_t)(nkw ? nkw : 1));
    LLVMValueRef nm = kn_lower_entry_alloca(l, nm_t, "fmtnames");
    for (int k = 0; k < nkw; k++) {
        LLVMValueRef idx[2] = {i64c(l, 0), i64c(l, k)};
        LLVMBuildStore(l->b, kn_lower_str_const(l, names[k]),
                       LLVMBuildInBoundsGEP2(l->b, nm_t, nm, idx, 2, ""));
    }
    LLVMValueRef out = kn_lower_entry_alloca(l, st, "strout");
    LLVMValueRef err = kn_lower_entry_alloca(l, l->i64, "fmterr");
    LLVMValueRef args[7] = {out, spill(l, self_val(l, in)), arr, i64c(l, npos), nm, i64c(l, nkw),
                            err};
    LLVMTypeRef ts[7] = {l->ptr, l->ptr, l->ptr, l->i64, l->ptr, l->i64, l->ptr};
    LLVMValueRef rc = kn_lower_extern(l, "kn_rt_str_format_args", l->i32, ts, 7, args);
    static const int32_t codes[][2] = {
        {-1, KN_EXC_NO_MEMORY},
        {-2, KN_EXC_FORMAT_SPEC},
        {-3, KN_EXC_FORMAT_OPTION},
        {KN_FMT_SINGLE_RBRACE, KN_EXC_FMT_SINGLE_RBRACE},
        {KN_FMT_SINGLE_LBRACE, KN_EXC_FMT_SINGLE_LBRACE},
        {KN_FMT_END, KN_EXC_FMT_END},
        {KN_FMT_UNMATCHED, KN_EXC_FMT_UNMATCHED},
        {KN_FMT_TO_AUTO, KN_EXC_FMT_TO_AUTO},
        {KN_FMT_TO_MANUAL, KN_EXC_FMT_TO_MANUAL},
        {KN_FMT_FIELD_ACCESS, KN_EXC_FMT_FIELD_ACCESS},
        {KN_FMT_CONVERSION, KN_EXC_FMT_CONVERSION},
        {KN_FMT_END_CONVERSION, KN_EXC_FMT_END_CONVERSION},
        {KN_FMT_AFTER_CONVERSION, KN_EXC_FMT_AFTER_CONVERSION},
        {KN_FMT_RECURSION, KN_EXC_FMT_RECURSION},
    };
    for (int i = 0; i < KN_ARRAY_LEN(codes); i++)
        raise_rc(l, rc, codes[i][0], codes[i][1]);
    LLVMValueRef index = LLVMBuildLoad2(l->b, l->i64, err, "");
    kn_lower_raise_if_args(l, LLVMBuildICmp(l->b, LLVMIntEQ, rc, i32c(l, KN_FMT_INDEX), ""),
                           KN_EXC_FMT_INDEX, &index, 1);
    LLVMValueRef str_key = i64c(l, 0xE); /* KeyError(name): its text kept by the runtime */
    kn_lower_raise_if_args(l, LLVMBuildICmp(l->b, LLVMIntEQ, rc, i32c(l, KN_FMT_KEY), ""),
                           KN_EXC_KEY_ERROR, &str_key, 1);
    return LLVMBuildLoad2(l->b, st, out, "");
}

LLVMValueRef
kn_lower_rule_str_method(L *l, KnInstr *in, int id)
{
    switch (id) {
    case KN_BI_STR_FIND:
    case KN_BI_STR_RFIND:
    case KN_BI_STR_INDEX:
    case KN_BI_STR_RINDEX:
    case KN_BI_STR_COUNT:
        return lower_find(l, in, id);
    case KN_BI_STR_STARTSWITH:
    case KN_BI_STR_ENDSWITH:
        return lower_affix(l, in, id);
    case KN_BI_STR_REPLACE: {
        LLVMValueRef args[4] = {spill(l, self_val(l, in)), str_arg(l, in, 0, NULL),
                                str_arg(l, in, 1, NULL), int_arg(l, in, 2, NULL, -1)};
        LLVMTypeRef ts[4] = {l->ptr, l->ptr, l->ptr, l->i64};
        return make(l, "kn_rt_str_replace", args, ts, 4);
    }
    case KN_BI_STR_UPPER:
        return make1(l, "kn_rt_str_upper", self_val(l, in));
    case KN_BI_STR_LOWER:
        return make1(l, "kn_rt_str_lower", self_val(l, in));
    case KN_BI_STR_CASEFOLD:
        return make1(l, "kn_rt_str_casefold", self_val(l, in));
    case KN_BI_STR_SWAPCASE:
        return make1(l, "kn_rt_str_swapcase", self_val(l, in));
    case KN_BI_STR_TITLE:
        return make1(l, "kn_rt_str_title", self_val(l, in));
    case KN_BI_STR_CAPITALIZE:
        return make1(l, "kn_rt_str_capitalize", self_val(l, in));
    case KN_BI_STR_STRIP:
    case KN_BI_STR_LSTRIP:
    case KN_BI_STR_RSTRIP: {
        int which = id == KN_BI_STR_STRIP ? 3 : id == KN_BI_STR_LSTRIP ? 1 : 2;
        LLVMValueRef args[3] = {spill(l, self_val(l, in)), str_arg(l, in, 0, NULL), i32c(l, which)};
        LLVMTypeRef ts[3] = {l->ptr, l->ptr, l->i32};
        return make(l, "kn_rt_str_strip", args, ts, 3);
    }
    case KN_BI_STR_ZFILL: {
        LLVMValueRef args[2] = {spill(l, self_val(l, in)), int_arg(l, in, 0, NULL, 0)};
        LLVMTypeRef ts[2] = {l->ptr, l->i64};
        return make(l, "kn_rt_str_zfill", args, ts, 2);
    }
    case KN_BI_STR_CENTER:
    case KN_BI_STR_LJUST:
    case KN_BI_STR_RJUST:
        return lower_pad(l, in, id);
    case KN_BI_STR_PARTITION:
    case KN_BI_STR_RPARTITION:
        return lower_partition(l, in, id);
    case KN_BI_STR_EXPANDTABS: {
        LLVMValueRef args[2] = {spill(l, self_val(l, in)), int_arg(l, in, 0, "tabsize", 8)};
        LLVMTypeRef ts[2] = {l->ptr, l->i64};
        return make(l, "kn_rt_str_expandtabs", args, ts, 2);
    }
    case KN_BI_STR_SPLIT:
    case KN_BI_STR_RSPLIT:
    case KN_BI_STR_SPLITLINES:
        return lower_split(l, in, id);
    case KN_BI_STR_JOIN:
        return lower_join(l, in);
    case KN_BI_STR_KN_CONCAT:
        return lower_concat(l, in);
    case KN_BI_STR_FORMAT:
        return lower_format_args(l, in);
    case KN_BI_FORMAT:
    case KN_BI_REPR:
    case KN_BI_ASCII:
        return lower_format(l, in, id);
    default:
        if (id >= KN_BI_STR_ISDIGIT && id <= KN_BI_STR_ISPRINTABLE)
            return lower_is(l, in, id);
        return NULL;
    }
}
