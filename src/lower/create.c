/* create.c - LLVM code that makes new arrays: the checked allocation every new array goes
 * through (kn_lower_array_new), np.empty/zeros/ones/full and their _like forms, np.arange,
 * np.linspace, np.eye/identity, and np.array/asarray/ascontiguousarray. */
#include "lower/array.h"
#include "lower/parallel_array.h"

/* ---- allocation ---- */


/* A new C-contiguous array of type t with the given shape; registered as an owned temp. */
LLVMValueRef
kn_lower_array_alloc(L *l, const KnType *t, LLVMValueRef *shape)
{
    return kn_lower_array_new(l, t, shape, 1);
}

/* NumPy's size check of a new shape, in its order: axis by axis, a negative length is error 1
 * ("negative dimensions are not allowed"), and error 2 ("array is too big") when the product of
 * the itemsize and the nonzero lengths so far passes INT64_MAX (so (0, 2**63-1) is too big, as
 * in NumPy). Gives the byte count (0 on an error) and the item count; *err is an i64. */
LLVMValueRef
kn_lower_size_check(L *l, LLVMValueRef *shape, int ndim, int isz, LLVMValueRef *nitems,
                    LLVMValueRef *err)
{
    LLVMValueRef nbytes = i64c(l, isz), n = i64c(l, 1), e = i64c(l, 0), zero = i64c(l, 0);
    LLVMTypeRef i64 = l->i64;
    for (int k = 0; k < ndim; k++) {
        LLVMValueRef d = shape[k];
        LLVMValueRef factor =
            LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, d, zero, ""), i64c(l, 1), d, "");
        LLVMValueRef args[2] = {nbytes, factor};
        LLVMValueRef r = kn_lower_intrinsic(l, "llvm.smul.with.overflow", &i64, 1, args, 2);
        LLVMValueRef over = LLVMBuildExtractValue(l->b, r, 1, "");
        LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, d, zero, "");
        LLVMValueRef now = LLVMBuildSelect(l->b, neg, i64c(l, 1),
                                           LLVMBuildSelect(l->b, over, i64c(l, 2), zero, ""), "");
        e = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, e, zero, ""), now, e, "");
        nbytes = LLVMBuildExtractValue(l->b, r, 0, "");
        n = LLVMBuildMul(l->b, n, d, "");
    }
    LLVMValueRef ok = LLVMBuildICmp(l->b, LLVMIntEQ, e, zero, "");
    *nitems = LLVMBuildSelect(l->b, ok, n, zero, "");
    *err = e;
    /* a zero length makes the byte count 0 */
    LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, *nitems, zero, "");
    return LLVMBuildSelect(l->b, LLVMBuildOr(l->b, empty, LLVMBuildNot(l->b, ok, ""), ""), zero,
                           nbytes, "");
}

/* the same; with own == 0 the caller releases it (a value made on one branch only). The size
 * is checked as NumPy does (kn_lower_size_check), and a failed malloc is a MemoryError. */
static LLVMValueRef array_block(L *l, const KnType *t, LLVMValueRef *shape, LLVMValueRef nitems,
                                LLVMValueRef nbytes, int own);

LLVMValueRef
kn_lower_array_new(L *l, const KnType *t, LLVMValueRef *shape, int own)
{
    int isz = itemsize(t->dtype);
    LLVMValueRef nitems, err;
    LLVMValueRef nbytes = kn_lower_size_check(l, shape, t->ndim, isz, &nitems, &err);
    if (t->ndim) {
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, err, i64c(l, 1), ""),
                          KN_EXC_NEGATIVE_DIMS);
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, err, i64c(l, 2), ""),
                          KN_EXC_ARRAY_TOO_BIG);
    }
    return array_block(l, t, shape, nitems, nbytes, own);
}

/* A new owned C array with the shape and item count of an existing array whose items are at
 * least as wide as t's: its byte count is at most that array's, so NumPy's size check cannot
 * fail and is left out (elementwise results such as go_fast's `a + trace`: less IR for O3). */
LLVMValueRef
kn_lower_array_alloc_within(L *l, const KnType *t, LLVMValueRef *shape, LLVMValueRef nitems)
{
    LLVMValueRef nbytes = LLVMBuildMul(l->b, nitems, i64c(l, itemsize(t->dtype)), "");
    return array_block(l, t, shape, nitems, nbytes, 1);
}

/* allocate nbytes, raise MemoryError on failure, and fill in the array struct */
static LLVMValueRef
array_block(L *l, const KnType *t, LLVMValueRef *shape, LLVMValueRef nitems, LLVMValueRef nbytes,
            int own)
{
    int isz = itemsize(t->dtype);
    LLVMTypeRef p = l->i64;
    LLVMValueRef mi = kn_lower_extern(l, "kn_rt_meminfo_alloc", l->ptr, &p, 1, &nbytes);
    kn_lower_raise_if(l, LLVMBuildIsNull(l->b, mi, ""), KN_EXC_NO_MEMORY);
    /* KnMemInfo is {refcount, data, size}: data is the second pointer-sized field */
    LLVMValueRef one = i64c(l, 1);
    LLVMValueRef data =
        LLVMBuildLoad2(l->b, l->ptr, LLVMBuildInBoundsGEP2(l->b, l->i64, mi, &one, 1, ""), "");
    LLVMValueRef v = LLVMGetUndef(kn_lower_array_type(l, t));
    v = LLVMBuildInsertValue(l->b, v, mi, F_MEMINFO, "");
    v = LLVMBuildInsertValue(l->b, v, LLVMConstNull(l->ptr), F_PARENT, "");
    v = LLVMBuildInsertValue(l->b, v, nitems, F_NITEMS, "");
    v = LLVMBuildInsertValue(l->b, v, i64c(l, isz), F_ITEMSIZE, "");
    v = LLVMBuildInsertValue(l->b, v, data, F_DATA, "");
    LLVMValueRef sh = LLVMGetUndef(LLVMArrayType2(l->i64, (uint64_t)t->ndim)), st = sh;
    LLVMValueRef s = i64c(l, isz);
    for (int i = 0; i < t->ndim; i++) { /* C order, or Fortran order for an 'F' type */
        int k = t->layout == 'F' ? i : t->ndim - 1 - i;
        sh = LLVMBuildInsertValue(l->b, sh, shape[k], (unsigned)k, "");
        st = LLVMBuildInsertValue(l->b, st, s, (unsigned)k, "");
        s = LLVMBuildMul(l->b, s, shape[k], "");
    }
    v = LLVMBuildInsertValue(l->b, v, sh, F_SHAPE, "");
    v = LLVMBuildInsertValue(l->b, v, st, F_STRIDES, "");
    if (own)
        kn_lower_own(l, v, t);
    return v;
}

/* ---- creation ---- */

static int
shape_of(L *l, KnInstr *arg, LLVMValueRef *shape)
{
    const KnType *t = arg->type;
    LLVMValueRef v = l->vals[arg->id];
    if (t->kind != KN_TY_TUPLE) {
        shape[0] = kn_lower_convert(l, v, t, &kn_type_int64);
        return 1;
    }
    for (int i = 0; i < t->n; i++)
        shape[i] = kn_lower_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->items[i],
                                    &kn_type_int64);
    return t->n;
}

LLVMValueRef
kn_lower_array_creation(L *l, KnInstr *in, int id)
{
    const KnType *t = in->type;
    LLVMValueRef shape[32];
    int like = id == KN_BI_NP_EMPTY_LIKE || id == KN_BI_NP_ZEROS_LIKE || id == KN_BI_NP_ONES_LIKE ||
               id == KN_BI_NP_FULL_LIKE;
    KnInstr *first = kn_typing_arg(in, 0, like ? "a" : "shape");
    if (like) {
        for (int k = 0; k < t->ndim; k++)
            shape[k] = dim(l, l->vals[first->id], F_SHAPE, k);
    } else {
        shape_of(l, first, shape);
    }
    LLVMValueRef a = kn_lower_array_alloc(l, t, shape);
    const KnType *d = t->dtype;
    if (id == KN_BI_NP_ZEROS || id == KN_BI_NP_ZEROS_LIKE) {
        LLVMValueRef nbytes = LLVMBuildMul(l->b, field(l, a, F_NITEMS), i64c(l, itemsize(d)), "");
        if (!kn_lower_par_zero(l, "np.zeros", a, t))
            LLVMBuildMemSet(l->b, field(l, a, F_DATA), LLVMConstInt(l->i8, 0, 0), nbytes, 64);
    } else if (id == KN_BI_NP_ONES || id == KN_BI_NP_ONES_LIKE) {
        LLVMValueRef one = LLVMConstInt(l->i64, 1, 0);
        if (!l->c->parallel ||
            !kn_lower_par_fill(l, "np.ones", a, t, kn_lower_convert(l, one, &kn_type_int64, d)))
            kn_lower_array_fill(l, a, t, one, &kn_type_int64);
    } else if (id == KN_BI_NP_FULL || id == KN_BI_NP_FULL_LIKE) {
        KnInstr *v = kn_typing_arg(in, 1, "fill_value");
        kn_lower_check_python_int(l, v, d, 0, 0); /* np.full_like(uint8 array, -1) */
        if (!l->c->parallel ||
            !kn_lower_par_fill(l, "np.full", a, t, kn_lower_convert(l, l->vals[v->id], v->type, d)))
            kn_lower_array_fill(l, a, t, l->vals[v->id], v->type);
    }
    return a;
}

/* element i of np.arange: first + i * delta, the first two exactly first and second */
typedef struct Arange {
    LLVMValueRef a, first, second, delta;
    const KnType *et, *d;
} Arange;

static void
arange_elem(L *l, const Arange *ar, LLVMValueRef i)
{
    const KnType *et = ar->et, *d = ar->d;
    LLVMValueRef v =
        kn_lower_binop(l, KN_BIN_ADD, ar->first,
                       kn_lower_binop(l, KN_BIN_MUL, kn_lower_convert(l, i, &kn_type_int64, et),
                                      ar->delta, et, et, et),
                       et, et, et);
    v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, i, i64c(l, 1), ""), ar->second, v, "");
    v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, i, i64c(l, 0), ""), ar->first, v, "");
    LLVMTypeRef lt = d->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, d);
    store_elem(l, d, kn_lower_convert(l, v, et, d),
               LLVMBuildInBoundsGEP2(l->b, lt, field(l, ar->a, F_DATA), &i, 1, ""));
}

/* parallel=True: the elements [lo, hi) of a chunk (lower/parallel_array.c) */
static void
arange_gen(L *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef tid, void *ctx)
{
    KN_UNUSED(tid);
    Loop lp;
    kn_lower_par_loop_begin(l, &lp, lo, hi);
    arange_elem(l, ctx, kn_lower_loop_index(l, &lp));
    kn_lower_loop_end(l, &lp);
}

/* np.arange as NumPy computes it: the length from the arguments (in float64 when one is a
 * float), the first two elements start and start + step converted to the dtype, and element i
 * then first + i * (second - first) in the dtype's arithmetic (so arange(0, 1, 0.5, int) is
 * [0, 0]). A bool result may have at most two elements (NumPy's TypeError). */
LLVMValueRef
kn_lower_arange(L *l, KnInstr *in)
{
    int npos = in->nargs - 1 - in->aux, anyfloat = 0;
    for (int k = 0; k < npos; k++)
        anyfloat |= in->args[k + 1]->type->kind == KN_TY_FLOAT;
    const KnType *d = in->type->dtype;
    const KnType *calc = anyfloat ? &kn_type_float64 : &kn_type_int64;
    LLVMValueRef start = kn_lower_convert(l, LLVMConstInt(l->i64, 0, 0), &kn_type_int64, calc);
    LLVMValueRef step = kn_lower_convert(l, LLVMConstInt(l->i64, 1, 0), &kn_type_int64, calc), stop;
    KnInstr *a0 = in->args[1];
    if (npos == 1) {
        stop = kn_lower_convert(l, l->vals[a0->id], a0->type, calc);
    } else {
        start = kn_lower_convert(l, l->vals[a0->id], a0->type, calc);
        stop = kn_lower_convert(l, l->vals[in->args[2]->id], in->args[2]->type, calc);
        if (npos == 3)
            step = kn_lower_convert(l, l->vals[in->args[3]->id], in->args[3]->type, calc);
    }
    LLVMValueRef n;
    if (calc == &kn_type_int64) {
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, i64c(l, 0), ""),
                          KN_EXC_TRUEDIV_ZERO); /* NumPy */
        LLVMValueRef r = LLVMGetUndef(kn_lower_type(l, &kn_type_range));
        r = LLVMBuildInsertValue(l->b, r, start, 0, "");
        r = LLVMBuildInsertValue(l->b, r, stop, 1, "");
        r = LLVMBuildInsertValue(l->b, r, step, 2, "");
        n = kn_lower_range_len(l, r);
        /* a length past INT64_MAX (it is computed unsigned): NumPy's "Maximum allowed size" */
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, n, i64c(l, 0), ""),
                          KN_EXC_ARANGE_SIZE);
    } else {
        kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, step, LLVMConstReal(l->f64, 0.0), ""),
                          KN_EXC_TRUEDIV_ZERO);
        LLVMValueRef q = kn_lower_intrinsic(
            l, "llvm.ceil", (LLVMTypeRef[]){l->f64}, 1,
            (LLVMValueRef[]){LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, stop, start, ""), step, "")},
            1);
        /* NumPy: a NaN length cannot be computed, one past INT64_MAX is too big */
        kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealUNO, q, q, ""), KN_EXC_ARANGE_NAN);
        kn_lower_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOGE, q, LLVMConstReal(l->f64, 0x1p63), ""),
                          KN_EXC_ARANGE_SIZE);
        n = kn_lower_float_to_int(l, q, &kn_type_float64, &kn_type_int64); /* -inf: no poison */
        n = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, n, i64c(l, 0), ""), i64c(l, 0), n,
                            "");
    }
    if (d->kind == KN_TY_BOOL)
        kn_lower_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, n, i64c(l, 2), ""),
                          KN_EXC_ARANGE_BOOL);
    /* the elements' arithmetic: the dtype's (a complex one: its parts', the imaginary part 0) */
    const KnType *et = d->kind == KN_TY_COMPLEX ? kn_type_float(d->bits / 2)
                       : d->kind == KN_TY_BOOL  ? calc
                                                : d;
    LLVMValueRef first = kn_lower_convert(l, start, calc, et);
    LLVMValueRef second =
        kn_lower_convert(l, kn_lower_binop(l, KN_BIN_ADD, start, step, calc, calc, calc), calc, et);
    if (et->kind ==
        KN_TY_INT) { /* NumPy 2: the first two (those there are) must fit, as Python ints */
        LLVMValueRef s2 = kn_lower_binop(l, KN_BIN_ADD, start, step, calc, calc, calc);
        kn_lower_check_int_value(l, kn_lower_convert(l, start, calc, &kn_type_int64), et, 0, 0,
                                 LLVMBuildICmp(l->b, LLVMIntSGE, n, i64c(l, 1), ""));
        kn_lower_check_int_value(l, kn_lower_convert(l, s2, calc, &kn_type_int64), et, 0, 0,
                                 LLVMBuildICmp(l->b, LLVMIntSGE, n, i64c(l, 2), ""));
    }
    LLVMValueRef delta = kn_lower_binop(l, KN_BIN_SUB, second, first, et, et, et);
    LLVMValueRef a = kn_lower_array_alloc(l, in->type, &n);
    Arange ar = {a, first, second, delta, et, d};
    KnParRegion r = {"np.arange", n, NULL, 0, NULL, arange_gen, &ar};
    if (!kn_lower_par_region(l, &r)) {
        Loop lp;
        kn_lower_loop_begin(l, &lp, n);
        arange_elem(l, &ar, kn_lower_loop_index(l, &lp));
        kn_lower_loop_end(l, &lp);
    }
    return a;
}

/* ---- np.array, np.asarray, np.ascontiguousarray, np.linspace, np.eye, np.identity ---- */

static void
store_nested(L *l, LLVMValueRef v, const KnType *t, const KnType *d, LLVMValueRef cursor)
{
    if (t->kind == KN_TY_TUPLE) {
        for (int i = 0; i < t->n; i++)
            store_nested(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->items[i], d,
                         cursor);
        return;
    }
    LLVMValueRef dst = LLVMBuildLoad2(l->b, l->ptr, cursor, "");
    store_elem(l, d, kn_lower_convert(l, v, t, d), dst);
    LLVMBuildStore(l->b, offset_ptr(l, dst, i64c(l, itemsize(d))), cursor);
}

static LLVMValueRef
array_from_tuple(L *l, KnInstr *in, KnInstr *obj)
{
    const KnType *t = in->type, *ot = obj->type;
    LLVMValueRef shape[32];
    const KnType *level = ot;
    for (int k = 0; k < t->ndim; k++) {
        shape[k] = i64c(l, level->n);
        level = level->items[0];
    }
    LLVMValueRef a = kn_lower_array_alloc(l, t, shape);
    LLVMValueRef cursor = kn_lower_entry_alloca(l, l->ptr, "dst");
    LLVMBuildStore(l->b, field(l, a, F_DATA), cursor);
    store_nested(l, l->vals[obj->id], ot, t->dtype, cursor);
    return a;
}

static LLVMValueRef
linspace(L *l, KnInstr *in)
{
    KnInstr *a0 = kn_typing_arg(in, 0, "start"), *a1 = kn_typing_arg(in, 1, "stop");
    KnInstr *num = kn_typing_arg(in, 2, "num");
    LLVMValueRef start = kn_lower_convert(l, l->vals[a0->id], a0->type, &kn_type_float64);
    LLVMValueRef stop = kn_lower_convert(l, l->vals[a1->id], a1->type, &kn_type_float64);
    LLVMValueRef n =
        num ? kn_lower_convert(l, l->vals[num->id], num->type, &kn_type_int64) : i64c(l, 50);
    kn_lower_raise_if_args(l, LLVMBuildICmp(l->b, LLVMIntSLT, n, i64c(l, 0), ""),
                           KN_EXC_LINSPACE_NUM, &n, 1);
    LLVMValueRef a = kn_lower_array_alloc(l, in->type, &n);
    KnInstr *ep = kn_typing_arg(in, 3, "endpoint");
    LLVMValueRef endpoint = ep ? l->vals[ep->id] : LLVMConstInt(l->i1, 1, 0);
    /* step = (stop - start) / (num - 1) and the last value is stop exactly, as NumPy's; without
     * the endpoint, step = (stop - start) / num */
    LLVMValueRef parts =
        LLVMBuildSelect(l->b, endpoint, LLVMBuildSub(l->b, n, i64c(l, 1), ""), n, "");
    LLVMValueRef div = LLVMBuildSIToFP(l->b, parts, l->f64, "");
    LLVMValueRef step = LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, stop, start, ""), div, "");
    step = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, n, i64c(l, 1), ""), step,
                           LLVMConstReal(l->f64, 0.0), ""); /* one value: start */
    Loop lp;
    kn_lower_loop_begin(l, &lp, n);
    LLVMValueRef i = kn_lower_loop_index(l, &lp);
    LLVMValueRef v = LLVMBuildFAdd(
        l->b, start, LLVMBuildFMul(l->b, LLVMBuildSIToFP(l->b, i, l->f64, ""), step, ""), "");
    LLVMValueRef last =
        LLVMBuildICmp(l->b, LLVMIntEQ, i, LLVMBuildSub(l->b, n, i64c(l, 1), ""), "");
    LLVMValueRef many = LLVMBuildICmp(l->b, LLVMIntSGT, n, i64c(l, 1), "");
    LLVMValueRef pin = LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, last, many, ""), endpoint, "");
    v = LLVMBuildSelect(l->b, pin, stop, v, "");
    store_elem(l, &kn_type_float64, v,
               LLVMBuildInBoundsGEP2(l->b, l->f64, field(l, a, F_DATA), &i, 1, ""));
    kn_lower_loop_end(l, &lp);
    return a;
}

static LLVMValueRef
eye(L *l, KnInstr *in, int id)
{
    KnInstr *a0 = kn_typing_arg(in, 0, id == KN_BI_NP_EYE ? "N" : "n");
    KnInstr *a1 = id == KN_BI_NP_EYE ? kn_typing_arg(in, 1, "M") : NULL;
    KnInstr *a2 = id == KN_BI_NP_EYE ? kn_typing_arg(in, 2, "k") : NULL;
    LLVMValueRef shape[2];
    shape[0] = kn_lower_convert(l, l->vals[a0->id], a0->type, &kn_type_int64);
    shape[1] = a1 && a1->type->kind != KN_TY_NONE
                   ? kn_lower_convert(l, l->vals[a1->id], a1->type, &kn_type_int64)
                   : shape[0];
    LLVMValueRef k =
        a2 ? kn_lower_convert(l, l->vals[a2->id], a2->type, &kn_type_int64) : i64c(l, 0);
    const KnType *t = in->type, *d = t->dtype;
    LLVMValueRef a = kn_lower_array_alloc(l, t, shape);
    LLVMValueRef nbytes = LLVMBuildMul(l->b, field(l, a, F_NITEMS), i64c(l, itemsize(d)), "");
    LLVMBuildMemSet(l->b, field(l, a, F_DATA), LLVMConstInt(l->i8, 0, 0), nbytes, 64);
    LLVMValueRef one = kn_lower_convert(l, i64c(l, 1), &kn_type_int64, d);
    Loop lp;
    kn_lower_loop_begin(l, &lp, shape[0]);
    LLVMValueRef i = kn_lower_loop_index(l, &lp), j = LLVMBuildAdd(l->b, i, k, "");
    LLVMValueRef inside = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, j, i64c(l, 0), ""),
                                       LLVMBuildICmp(l->b, LLVMIntSLT, j, shape[1], ""), "");
    LLVMBasicBlockRef set = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "diag");
    LLVMBasicBlockRef skip = LLVMAppendBasicBlockInContext(l->ctx, l->fn, "nodiag");
    LLVMBuildCondBr(l->b, inside, set, skip);
    LLVMPositionBuilderAtEnd(l->b, set);
    LLVMValueRef flat = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, i, shape[1], ""), j, "");
    LLVMTypeRef et = d->kind == KN_TY_BOOL ? l->i8 : kn_lower_type(l, d);
    store_elem(l, d, one, LLVMBuildInBoundsGEP2(l->b, et, field(l, a, F_DATA), &flat, 1, ""));
    LLVMBuildBr(l->b, skip);
    LLVMPositionBuilderAtEnd(l->b, skip);
    kn_lower_loop_end(l, &lp);
    return a;
}

LLVMValueRef
kn_lower_array_make(L *l, KnInstr *in, int id)
{
    if (id == KN_BI_NP_LINSPACE)
        return linspace(l, in);
    if (id == KN_BI_NP_EYE || id == KN_BI_NP_IDENTITY)
        return eye(l, in, id);
    KnInstr *obj = kn_typing_arg(in, 0, "object");
    if (obj->type->kind != KN_TY_ARRAY)
        return array_from_tuple(l, in, obj);
    LLVMValueRef a = l->vals[obj->id];
    if (in->type == obj->type && id == KN_BI_NP_ASARRAY) {
        return kn_lower_new_reference(l, a, in->type);
    }
    Operand ops[1] = {{a, obj->type, NULL, {0}}};
    return kn_lower_elementwise_into(l, in, ops, 1, kn_lower_copy_kernel, NULL, in->type,
                                     obj->type->dtype);
}

/* ---- a.view(dtype) (lib/construction.def; typing in typing/construction.c) ---- */

/* the same array struct under the new type (the struct does not depend on the dtype), as a
 * reference of its own */
LLVMValueRef
kn_lower_rule_construction(L *l, KnInstr *in, int id)
{
    (void)id;
    KnInstr *self = in->args[0]->args[0];
    return kn_lower_new_reference(l, l->vals[self->id], in->type);
}
