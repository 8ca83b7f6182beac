/* frontend.c - Python source -> untyped KIR.
 *
 * Input: a Python function object. Its source and its FunctionDef (or Lambda) node come from
 * kiln._support.find_definition (inspect and linecache, so IPython cells work; the node is
 * checked against the code object), and the node is walked. Output: c->fn, a KIR CFG whose every
 * instruction carries the real file position of the expression it came from.
 *
 * Names are resolved as Python does: a name assigned anywhere in the function is a local
 * variable; other names are closure cells, then globals, then builtins, and those are frozen at
 * compile time (numbers and tuples become constants, jitted functions, builtins, modules and
 * classes become compile-time GLOBAL values). Loops over range() become counted loops; loops over
 * anything else index the sequence up to its len(). Exceptions raised with constant arguments
 * are entered in the exception table; RAISE carries the index. */
#include "frontend/frontend.h"

#include <stdio.h>

typedef struct LoopCtx {
    KnBlock *brk, *cont;
} LoopCtx;

typedef struct FE {
    KnCompilation *c;
    const KnFrontendEnv *env;
    KnBuilder b;
    PyObject *func;
    PyObject *globals;  /* borrowed */
    PyObject *builtins; /* borrowed */
    PyObject *closure;  /* new dict: free variable name -> value */
    PyObject *locals;   /* new set of local names */
    int line_off, col_off;
    LoopCtx loops[64];
    int nloops;
    int ntemps;
    int zip_first, zip_count, zip_enumerate; /* the enumerate/zip loop being bound (bind_zip) */
    KnMap var_names; /* hash of a variable's name -> its index + 1 (the first of a hash) */
} FE;

typedef KnInstr *Val;

static Val expr(FE *fe, PyObject *node);
static int stmts(FE *fe, PyObject *body);

/* ---- ast access ---- */

/* Attribute of an ast node, borrowed: ast nodes keep their fields in their __dict__, which the
 * tree (alive for the whole frontend run) owns. NULL, with no error set, when absent or None. */
static PyObject *
A(PyObject *node, const char *name)
{
    PyObject *v = PyObject_GetAttrString(node, name);
    if (!v) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(v);
    return v == Py_None ? NULL : v;
}

static int
Aint(PyObject *node, const char *name)
{
    PyObject *v = A(node, name);
    return v ? (int)PyLong_AsLong(v) : 0;
}

static const char *
kind(PyObject *node)
{
    const char *n = Py_TYPE(node)->tp_name;
    const char *dot = strrchr(n, '.');
    return dot ? dot + 1 : n;
}

static int
is(PyObject *node, const char *k)
{
    return node && !strcmp(kind(node), k);
}

static KnSpan
span_of(FE *fe, PyObject *node)
{
    KnSpan s;
    s.line = Aint(node, "lineno") + fe->line_off;
    s.col = Aint(node, "col_offset") + fe->col_off + 1;
    s.end_line = Aint(node, "end_lineno") + fe->line_off;
    s.end_col = Aint(node, "end_col_offset") + fe->col_off + 1;
    return s;
}

static const char *
str_of(FE *fe, PyObject *s)
{
    const char *u = s ? PyUnicode_AsUTF8(s) : NULL;
    if (!u) {
        PyErr_Clear();
        return "?";
    }
    return kn_arena_strdup(&fe->c->arena, u);
}

static void *fail(FE *fe, PyObject *node, KnDiagKind k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void *
fail(FE *fe, PyObject *node, KnDiagKind k, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    kn_diag_error(&fe->c->diags, k, span_of(fe, node), "%s", buf);
    return NULL;
}

#define UNSUPPORTED(fe, node, ...) fail(fe, node, KN_DIAG_UNSUPPORTED, __VA_ARGS__)
#define TYPING(fe, node, ...) fail(fe, node, KN_DIAG_TYPING, __VA_ARGS__)

/* ---- emitting ---- */

static Val
emit(FE *fe, KnOp op, PyObject *node, int n, KnInstr **args)
{
    return kn_kir_emit(&fe->b, op, span_of(fe, node), n, args);
}

static Val
const_int(FE *fe, KnSpan sp, int64_t v, KnType *t)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
    in->type = t;
    in->imm.i = v;
    return in;
}

/* Variables by name through a hash map: a linear search per name made a function of many
 * variables compile in quadratic time (16,000 assignments: 3 s in the frontend). */
static uint64_t
name_hash(const char *name)
{
    return kn_hash_bytes(name, strlen(name), 0);
}

static int
add_var(FE *fe, const char *name, KnSpan sp)
{
    int v = kn_kir_var_add(&fe->b, name, sp);
    if (!kn_map_get(&fe->var_names, name_hash(name)))
        kn_map_put(&fe->var_names, name_hash(name), (void *)(intptr_t)(v + 1));
    return v;
}

static int
find_var(FE *fe, const char *name)
{
    void *hit = kn_map_get(&fe->var_names, name_hash(name));
    if (!hit)
        return -1;
    int v = (int)(intptr_t)hit - 1;
    if (!strcmp(fe->b.fn->vars.items[v].name, name))
        return v;
    return kn_kir_var_find(fe->b.fn, name); /* two names of one hash */
}

static int
temp_var(FE *fe, const char *what, KnSpan sp)
{
    char name[64];
    snprintf(name, sizeof name, "$%s%d", what, fe->ntemps++);
    return add_var(fe, name, sp);
}

static int
local_var(FE *fe, const char *name, KnSpan sp)
{
    int v = find_var(fe, name);
    return v >= 0 ? v : add_var(fe, name, sp);
}

static Val
load(FE *fe, KnSpan sp, int var)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_LOAD, sp, 0, NULL);
    in->aux = var;
    return in;
}

static void
store(FE *fe, KnSpan sp, int var, Val v)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_STORE, sp, 1, &v);
    in->aux = var;
}

/* ---- constants: Python objects frozen at compile time ---- */

static void
keep(FE *fe, PyObject *o)
{
    if (PyList_Append(fe->env->keepalive, o) < 0)
        PyErr_Clear();
}

static Val
global_value(FE *fe, KnSpan sp, KnType *t, PyObject *o)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_GLOBAL, sp, 0, NULL);
    in->type = t;
    in->imm.ptr = o;
    keep(fe, o);
    return in;
}

static KnType *
numpy_scalar_type(PyObject *o)
{
    static const struct {
        const char *name;
        KnType *t;
    } map[] = {
        {"float64", &kn_type_float64},
        {"float32", &kn_type_float32},
        {"int64", &kn_type_int64},
        {"int32", &kn_type_int32},
        {"int16", &kn_type_int16},
        {"int8", &kn_type_int8},
        {"uint64", &kn_type_uint64},
        {"uint32", &kn_type_uint32},
        {"uint16", &kn_type_uint16},
        {"uint8", &kn_type_uint8},
        {"complex128", &kn_type_complex128},
        {"complex64", &kn_type_complex64},
        {"bool", &kn_type_bool},
        {"bool_", &kn_type_bool},
    };
    PyTypeObject *tp = Py_TYPE(o);
    const char *mod_end = strrchr(tp->tp_name, '.');
    if (!mod_end || strncmp(tp->tp_name, "numpy.", 6))
        return NULL;
    for (int i = 0; i < KN_ARRAY_LEN(map); i++)
        if (!strcmp(mod_end + 1, map[i].name))
            return map[i].t;
    return NULL;
}

static Val frozen(FE *fe, PyObject *node, PyObject *o, const char *what);

static Val
frozen_number(FE *fe, KnSpan sp, PyObject *node, PyObject *o)
{
    if (PyBool_Check(o))
        return const_int(fe, sp, o == Py_True, &kn_type_bool);
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow)
            return const_int(fe, sp, v, &kn_type_int64);
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return TYPING(fe, node, "integer %s is too large for a 64-bit integer", "constant");
        }
        return const_int(fe, sp, (int64_t)u, &kn_type_uint64);
    }
    if (PyFloat_Check(o)) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_float64;
        in->imm.f = PyFloat_AS_DOUBLE(o);
        return in;
    }
    if (PyComplex_Check(o)) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_complex128;
        in->imm.c.re = PyComplex_RealAsDouble(o);
        in->imm.c.im = PyComplex_ImagAsDouble(o);
        return in;
    }
    KnType *t = numpy_scalar_type(o);
    if (!t)
        return NULL;
    /* A NumPy scalar: convert through Python's number protocol, keep the dtype. */
    Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
    in->type = t;
    if (t->kind == KN_TY_FLOAT) {
        in->imm.f = PyFloat_AsDouble(o);
    } else if (t->kind == KN_TY_COMPLEX) {
        Py_complex z = PyComplex_AsCComplex(o);
        in->imm.c.re = z.real;
        in->imm.c.im = z.imag;
    } else if (t->kind == KN_TY_BOOL) {
        in->imm.i = PyObject_IsTrue(o);
    } else {
        PyObject *l = PyNumber_Long(o);
        in->imm.i =
            t->is_signed ? (int64_t)PyLong_AsLongLong(l) : (int64_t)PyLong_AsUnsignedLongLong(l);
        Py_XDECREF(l);
    }
    if (PyErr_Occurred())
        PyErr_Clear();
    return in;
}

static Val
frozen_tuple(FE *fe, PyObject *node, PyObject *o, const char *what)
{
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(items[i] = frozen(fe, node, PyTuple_GET_ITEM(o, i), what)))
            return NULL;
    return emit(fe, KN_OP_TUPLE, node, (int)n, items);
}

static Val
frozen_callable(FE *fe, KnSpan sp, PyObject *o)
{
    PyObject *id = PyDict_GetItemWithError(fe->env->builtin_ids, o);
    if (!id && PyErr_Occurred())
        PyErr_Clear(); /* unhashable */
    if (id) {
        int bid = (int)PyLong_AsLong(id);
        return global_value(fe, sp, kn_type_func(fe->c->types, bid, NULL, kn_kir_builtin_name(bid)),
                            o);
    }
    PyObject *ov = fe->env->overloads ? PyDict_GetItemWithError(fe->env->overloads, o) : NULL;
    if (!ov && PyErr_Occurred())
        PyErr_Clear(); /* unhashable */
    if (ov) { /* implemented in Python: kiln/lib, kiln.extending.overload, register_jitable */
        PyObject *name = PyObject_GetAttrString(ov, "name");
        const char *nm = name ? PyUnicode_AsUTF8(name) : "?";
        KnType *t = kn_type_func(fe->c->types, KN_FUNC_OVERLOAD, ov, nm ? nm : "?");
        Py_XDECREF(name);
        PyErr_Clear();
        return global_value(fe, sp, t, o);
    }
    if ((PyObject *)Py_TYPE(o) == fe->env->dispatcher_type) {
        PyObject *name = PyObject_GetAttrString(o, "__name__");
        const char *nm = name ? PyUnicode_AsUTF8(name) : "?";
        KnType *t = kn_type_func(fe->c->types, KN_FUNC_JITTED, o, nm ? nm : "?");
        Py_XDECREF(name);
        PyErr_Clear();
        return global_value(fe, sp, t, o);
    }
    if (PyModule_Check(o)) {
        const char *nm = PyModule_GetName(o);
        if (!nm) {
            PyErr_Clear();
            return NULL;
        }
        return global_value(fe, sp, kn_type_module(fe->c->types, 0, nm), o);
    }
    if (PyType_Check(o) && PyType_IsSubtype((PyTypeObject *)o, (PyTypeObject *)PyExc_BaseException))
        return global_value(fe, sp, kn_type_class(fe->c->types, 1, o, ((PyTypeObject *)o)->tp_name),
                            o);
    if (o == (PyObject *)Py_TYPE(Py_None))
        return global_value(fe, sp, kn_type_class(fe->c->types, 2, o, "NoneType"), o);
    return NULL;
}

/* A Python object used by compiled code: freeze it as a constant or a compile-time value. */
static Val
frozen(FE *fe, PyObject *node, PyObject *o, const char *what)
{
    KnSpan sp = span_of(fe, node);
    if (o == Py_None) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_none;
        return in;
    }
    if (PyUnicode_Check(o)) {
        Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        in->type = &kn_type_str;
        in->imm.str = str_of(fe, o);
        return in;
    }
    if (PyTuple_Check(o))
        return frozen_tuple(fe, node, o, what);
    Val v = frozen_number(fe, sp, node, o);
    if (v || fe->c->diags.items.len)
        return v;
    if ((v = frozen_callable(fe, sp, o)))
        return v;
    PyObject *r = PyObject_Repr((PyObject *)Py_TYPE(o));
    const char *tn = r ? PyUnicode_AsUTF8(r) : "?";
    TYPING(fe, node, "cannot use %s: kiln cannot determine the type of %s", what, tn ? tn : "?");
    Py_XDECREF(r);
    PyErr_Clear();
    return NULL;
}

/* The object a non-local name refers to (borrowed), or NULL. */
static PyObject *
lookup_global(FE *fe, PyObject *name)
{
    PyObject *o = PyDict_GetItemWithError(fe->closure, name);
    if (!o && !PyErr_Occurred())
        o = PyDict_GetItemWithError(fe->globals, name);
    if (!o && !PyErr_Occurred()) {
        if (PyDict_Check(fe->builtins))
            o = PyDict_GetItemWithError(fe->builtins, name);
        else if (fe->builtins) {
            o = PyObject_GetAttr(fe->builtins, name);
            Py_XDECREF(o); /* the builtins module keeps it */
        }
    }
    PyErr_Clear();
    return o;
}

/* ---- expressions ---- */

static Val
name_load(FE *fe, PyObject *node)
{
    PyObject *id = A(node, "id");
    const char *nm = str_of(fe, id);
    int r = PySet_Contains(fe->locals, id);
    if (r > 0) {
        int v = local_var(fe, nm, span_of(fe, node));
        return load(fe, span_of(fe, node), v);
    }
    PyObject *o = lookup_global(fe, id);
    if (!o)
        return TYPING(fe, node, "undefined name '%s'", nm);
    char what[300];
    snprintf(what, sizeof what, "global name '%s'", nm);
    return frozen(fe, node, o, what);
}

static int
binop_of(PyObject *op)
{
    static const struct {
        const char *name;
        KnBinop op;
    } ops[] = {{"Add", KN_BIN_ADD},     {"Sub", KN_BIN_SUB},           {"Mult", KN_BIN_MUL},
               {"Div", KN_BIN_TRUEDIV}, {"FloorDiv", KN_BIN_FLOORDIV}, {"Mod", KN_BIN_MOD},
               {"Pow", KN_BIN_POW},     {"LShift", KN_BIN_LSHIFT},     {"RShift", KN_BIN_RSHIFT},
               {"BitAnd", KN_BIN_AND},  {"BitOr", KN_BIN_OR},          {"BitXor", KN_BIN_XOR}};
    for (int i = 0; i < KN_ARRAY_LEN(ops); i++)
        if (is(op, ops[i].name))
            return ops[i].op;
    return -1;
}

static Val
binop(FE *fe, PyObject *node)
{
    PyObject *opn = A(node, "op");
    int op = binop_of(opn);
    if (op < 0)
        return UNSUPPORTED(fe, node, "operator %s is not supported", kind(opn));
    Val l = expr(fe, A(node, "left"));
    if (!l)
        return NULL;
    Val r = expr(fe, A(node, "right"));
    if (!r)
        return NULL;
    Val in = kn_kir_emit2(&fe->b, KN_OP_BINOP, span_of(fe, node), l, r);
    in->aux = op;
    return in;
}

static Val
unaryop(FE *fe, PyObject *node)
{
    PyObject *opn = A(node, "op");
    int op = is(opn, "USub")     ? KN_UN_NEG
             : is(opn, "UAdd")   ? KN_UN_POS
             : is(opn, "Invert") ? KN_UN_INVERT
                                 : KN_UN_NOT;
    PyObject *operand = A(node, "operand");
    if (op == KN_UN_NEG && is(operand, "Constant")) {
        /* fold -1 into a constant, so t[-1] is a constant index */
        PyObject *k = A(operand, "value");
        if (k && (PyLong_CheckExact(k) || PyFloat_CheckExact(k) || PyComplex_CheckExact(k))) {
            PyObject *neg = PyNumber_Negative(k);
            Val r = neg ? frozen(fe, node, neg, "this constant") : NULL;
            Py_XDECREF(neg);
            if (r || fe->c->diags.items.len)
                return r;
            PyErr_Clear();
        }
    }
    Val v = expr(fe, operand);
    if (!v)
        return NULL;
    Val in = kn_kir_emit1(&fe->b, KN_OP_UNOP, span_of(fe, node), v);
    in->aux = op;
    return in;
}

static int
cmp_of(PyObject *op)
{
    static const struct {
        const char *name;
        KnCmp op;
    } ops[] = {{"Eq", KN_CMP_EQ}, {"NotEq", KN_CMP_NE},   {"Lt", KN_CMP_LT}, {"LtE", KN_CMP_LE},
               {"Gt", KN_CMP_GT}, {"GtE", KN_CMP_GE},     {"Is", KN_CMP_EQ}, {"IsNot", KN_CMP_NE},
               {"In", KN_CMP_IN}, {"NotIn", KN_CMP_NOTIN}};
    for (int i = 0; i < KN_ARRAY_LEN(ops); i++)
        if (is(op, ops[i].name))
            return ops[i].op;
    return -1;
}

/* a < b < c: each operand evaluated once, later comparisons only when earlier ones hold. */
static Val
compare(FE *fe, PyObject *node)
{
    PyObject *ops = A(node, "ops"), *rest = A(node, "comparators");
    Py_ssize_t n = PyList_GET_SIZE(ops);
    KnSpan sp = span_of(fe, node);
    Val left = expr(fe, A(node, "left"));
    if (!left)
        return NULL;
    int result = n > 1 ? temp_var(fe, "cmp", sp) : -1;
    KnBlock *done = n > 1 ? kn_kir_block_new(&fe->b) : NULL;
    Val last = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *opn = PyList_GET_ITEM(ops, i);
        int op = cmp_of(opn);
        if (op < 0)
            return UNSUPPORTED(fe, node, "the '%s' operator is not supported", kind(opn));
        PyObject *rnode = PyList_GET_ITEM(rest, i);
        Val right = expr(fe, rnode);
        if (!right)
            return NULL;
        KnSpan csp = sp;
        if (n > 1) {
            KnSpan rs = span_of(fe, rnode);
            csp.end_line = rs.end_line;
            csp.end_col = rs.end_col;
        }
        last = kn_kir_emit2(&fe->b, KN_OP_CMP, csp, left, right);
        last->aux = op;
        if (is(opn, "Is") || is(opn, "IsNot"))
            last->imm.i = 1; /* identity: only for None and compile-time values */
        if (n > 1) {
            store(fe, csp, result, last);
            if (i + 1 < n) {
                KnBlock *next = kn_kir_block_new(&fe->b);
                kn_kir_cbr(&fe->b, csp, last, next, done);
                kn_kir_set_block(&fe->b, next);
            }
        }
        left = right;
    }
    if (n == 1)
        return last;
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, done);
    return load(fe, sp, result);
}

/* a and b / a or b, with Python's value semantics and short-circuit evaluation. */
static Val
boolop(FE *fe, PyObject *node)
{
    int is_and = is(A(node, "op"), "And");
    PyObject *values = A(node, "values");
    KnSpan sp = span_of(fe, node);
    int result = temp_var(fe, is_and ? "and" : "or", sp);
    KnBlock *done = kn_kir_block_new(&fe->b);
    Py_ssize_t n = PyList_GET_SIZE(values);
    for (Py_ssize_t i = 0; i < n; i++) {
        Val v = expr(fe, PyList_GET_ITEM(values, i));
        if (!v)
            return NULL;
        store(fe, v->span, result, v);
        if (i + 1 < n) {
            Val t = kn_kir_emit1(&fe->b, KN_OP_TRUTH, v->span, v);
            KnBlock *next = kn_kir_block_new(&fe->b);
            if (is_and)
                kn_kir_cbr(&fe->b, sp, t, next, done);
            else
                kn_kir_cbr(&fe->b, sp, t, done, next);
            kn_kir_set_block(&fe->b, next);
        }
    }
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, done);
    return load(fe, sp, result);
}

static Val
ifexp(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    Val c = expr(fe, A(node, "test"));
    if (!c)
        return NULL;
    Val t = kn_kir_emit1(&fe->b, KN_OP_TRUTH, c->span, c);
    int result = temp_var(fe, "ifexp", sp);
    KnBlock *bt = kn_kir_block_new(&fe->b), *bf = kn_kir_block_new(&fe->b),
            *done = kn_kir_block_new(&fe->b);
    kn_kir_cbr(&fe->b, sp, t, bt, bf);
    kn_kir_set_block(&fe->b, bt);
    Val a = expr(fe, A(node, "body"));
    if (!a)
        return NULL;
    store(fe, a->span, result, a);
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, bf);
    Val b = expr(fe, A(node, "orelse"));
    if (!b)
        return NULL;
    store(fe, b->span, result, b);
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, done);
    return load(fe, sp, result);
}

static Val nested_items(FE *fe, PyObject *node);

/* A TUPLE of the display's items; with `nested`, inner list and tuple displays too (below). */
static Val
items_tuple(FE *fe, PyObject *node, int nested)
{
    PyObject *elts = A(node, "elts");
    Py_ssize_t n = PyList_GET_SIZE(elts);
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PyList_GET_ITEM(elts, i);
        if (is(e, "Starred"))
            return UNSUPPORTED(fe, e,
                               nested ? "starred expressions in np.array's items are not supported"
                                      : "starred expressions in tuples are not supported");
        if (!(items[i] = nested ? nested_items(fe, e) : expr(fe, e)))
            return NULL;
    }
    return emit(fe, KN_OP_TUPLE, node, (int)n, items);
}

static Val
tuple_expr(FE *fe, PyObject *node)
{
    return items_tuple(fe, node, 0);
}

/* np.array([[1, 2], [3, 4]]): a list display (nested to any depth, mixed with tuples) read as
 * the tuple of its items. Lists are not values in kiln yet; as np.array's or np.asarray's
 * first argument they only describe the array's items, exactly as a tuple would. */
static Val
nested_items(FE *fe, PyObject *node)
{
    if (!is(node, "List") && !is(node, "Tuple"))
        return expr(fe, node);
    return items_tuple(fe, node, 1);
}

/* The value of a compile-time constant expression (exception arguments, defaults): a new
 * reference, or NULL when the expression is not constant. */
static PyObject *
const_eval(FE *fe, PyObject *node)
{
    if (is(node, "Constant")) {
        PyObject *v = PyObject_GetAttrString(node, "value");
        return v;
    }
    if (is(node, "Name")) {
        PyObject *id = A(node, "id");
        if (PySet_Contains(fe->locals, id) > 0)
            return NULL;
        PyObject *o = lookup_global(fe, id);
        if (o && (PyUnicode_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || o == Py_None)) {
            Py_INCREF(o);
            return o;
        }
        return NULL;
    }
    if (is(node, "UnaryOp") && is(A(node, "op"), "USub")) {
        PyObject *v = const_eval(fe, A(node, "operand"));
        if (!v)
            return NULL;
        PyObject *r = PyNumber_Negative(v);
        Py_DECREF(v);
        PyErr_Clear();
        return r;
    }
    if (is(node, "Tuple")) {
        PyObject *elts = A(node, "elts");
        Py_ssize_t n = PyList_GET_SIZE(elts);
        PyObject *t = PyTuple_New(n);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = const_eval(fe, PyList_GET_ITEM(elts, i));
            if (!v) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, i, v);
        }
        return t;
    }
    return NULL;
}

/* Map keyword arguments and defaults of a call to a jitted function onto its parameters. */
static int
bind_args(FE *fe, PyObject *node, PyObject *callee, KnInstr ***out_args, int *out_n)
{
    PyObject *args = A(node, "args"), *kws = A(node, "keywords");
    Py_ssize_t npos = PyList_GET_SIZE(args), nkw = kws ? PyList_GET_SIZE(kws) : 0;
    PyObject *pyf = PyObject_GetAttrString(callee, "py_func");
    PyObject *code = pyf ? PyObject_GetAttrString(pyf, "__code__") : NULL;
    PyObject *defaults = pyf ? PyObject_GetAttrString(pyf, "__defaults__") : NULL;
    PyObject *names = code ? PyObject_GetAttrString(code, "co_varnames") : NULL;
    PyObject *argc = code ? PyObject_GetAttrString(code, "co_argcount") : NULL;
    int rc = -1;
    if (!names || !argc) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "cannot read the parameters of the called function");
        goto done;
    }
    int nparams = (int)PyLong_AsLong(argc);
    Py_ssize_t ndef = defaults && PyTuple_Check(defaults) ? PyTuple_GET_SIZE(defaults) : 0;
    PyObject *fname = PyObject_GetAttrString(callee, "__name__");
    const char *fn = fname ? PyUnicode_AsUTF8(fname) : "function";
    if (npos > nparams) {
        TYPING(fe, node, "%s() takes %d positional arguments but %zd were given", fn, nparams,
               npos);
        Py_XDECREF(fname);
        goto done;
    }
    KnInstr **vals = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(nparams + 1));
    for (Py_ssize_t i = 0; i < npos; i++) {
        PyObject *a = PyList_GET_ITEM(args, i);
        if (is(a, "Starred")) {
            UNSUPPORTED(fe, a, "*args in calls is not supported");
            Py_XDECREF(fname);
            goto done;
        }
        if (!(vals[i] = expr(fe, a))) {
            Py_XDECREF(fname);
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kw = PyList_GET_ITEM(kws, k), *arg = A(kw, "arg");
        int slot = -1;
        for (int i = 0; arg && i < nparams; i++)
            if (PyUnicode_Compare(PyTuple_GET_ITEM(names, i), arg) == 0)
                slot = i;
        if (slot < 0 || vals[slot]) {
            TYPING(fe, kw,
                   slot < 0 ? "%s() got an unexpected keyword argument '%s'"
                            : "%s() got multiple values for argument '%s'",
                   fn, arg ? PyUnicode_AsUTF8(arg) : "**");
            Py_XDECREF(fname);
            goto done;
        }
        if (!(vals[slot] = expr(fe, A(kw, "value")))) {
            Py_XDECREF(fname);
            goto done;
        }
    }
    for (int i = 0; i < nparams; i++) {
        if (vals[i])
            continue;
        Py_ssize_t d = i - (nparams - ndef);
        if (d < 0) {
            TYPING(fe, node, "%s() missing required argument '%s'", fn,
                   PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i)));
            Py_XDECREF(fname);
            goto done;
        }
        if (!(vals[i] = frozen(fe, node, PyTuple_GET_ITEM(defaults, d), "a default argument"))) {
            Py_XDECREF(fname);
            goto done;
        }
    }
    Py_XDECREF(fname);
    *out_args = vals;
    *out_n = nparams;
    rc = 0;
done:
    Py_XDECREF(pyf);
    Py_XDECREF(code);
    Py_XDECREF(defaults);
    Py_XDECREF(names);
    Py_XDECREF(argc);
    return rc;
}

static Val
call(FE *fe, PyObject *node)
{
    PyObject *fnode = A(node, "func");
    Val callee = expr(fe, fnode);
    if (!callee)
        return NULL;
    KnInstr **args = NULL;
    int n = 0;
    PyObject *kws = A(node, "keywords");
    if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
        callee->type->id == KN_FUNC_JITTED) {
        if (bind_args(fe, node, callee->imm.ptr, &args, &n) < 0)
            return NULL;
    } else {
        /* builtins and methods: positional values, then keyword values named in kwnames */
        PyObject *pargs = A(node, "args");
        int npos = (int)PyList_GET_SIZE(pargs), nkw = kws ? (int)PyList_GET_SIZE(kws) : 0;
        n = npos + nkw;
        args = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
        int takes_lists =
            callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            (callee->type->id == KN_BI_NP_ARRAY || callee->type->id == KN_BI_NP_ASARRAY);
        for (int i = 0; i < npos; i++) {
            PyObject *a = PyList_GET_ITEM(pargs, i);
            if (is(a, "Starred"))
                return UNSUPPORTED(fe, a, "*args in calls is not supported");
            if (!(args[i] = i == 0 && takes_lists ? nested_items(fe, a) : expr(fe, a)))
                return NULL;
        }
        const char **names = kn_arena_alloc(&fe->c->arena, sizeof(char *) * (size_t)(nkw + 1));
        for (int k = 0; k < nkw; k++) {
            PyObject *kw = PyList_GET_ITEM(kws, k);
            if (!A(kw, "arg"))
                return UNSUPPORTED(fe, kw, "**kwargs in calls is not supported");
            names[k] = str_of(fe, A(kw, "arg"));
            if (!(args[npos + k] = expr(fe, A(kw, "value"))))
                return NULL;
        }
        KnInstr **all = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
        all[0] = callee;
        memcpy(all + 1, args, sizeof(KnInstr *) * (size_t)n);
        Val in = emit(fe, KN_OP_CALL, node, n + 1, all);
        in->aux = nkw;
        in->imm.ptr = names;
        return in;
    }
    KnInstr **all = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
    all[0] = callee;
    memcpy(all + 1, args, sizeof(KnInstr *) * (size_t)n);
    return emit(fe, KN_OP_CALL, node, n + 1, all);
}

static Val
attribute(FE *fe, PyObject *node)
{
    PyObject *base = A(node, "value"), *attr = A(node, "attr");
    Val v = expr(fe, base);
    if (!v)
        return NULL;
    if (v->op == KN_OP_GLOBAL && v->type->kind == KN_TY_MODULE) {
        /* module.attr is resolved now, as Numba freezes globals */
        PyObject *o = PyObject_GetAttr((PyObject *)v->imm.ptr, attr);
        if (!o) {
            PyErr_Clear();
            return TYPING(fe, node, "module '%s' has no attribute '%s'", v->type->name,
                          str_of(fe, attr));
        }
        char what[300];
        snprintf(what, sizeof what, "'%s.%s'", v->type->name, str_of(fe, attr));
        Val r = frozen(fe, node, o, what);
        Py_DECREF(o);
        return r;
    }
    Val in = kn_kir_emit1(&fe->b, KN_OP_GETATTR, span_of(fe, node), v);
    in->imm.str = str_of(fe, attr);
    return in;
}

/* A slice bound: absent, or a constant integer (tuples are sliced at compile time). */
static int
slice_bound(FE *fe, PyObject *node, int *has, int64_t *v)
{
    *has = 0;
    if (!node)
        return 0;
    PyObject *c = const_eval(fe, node);
    if (c && c == Py_None) {
        Py_DECREF(c);
        return 0;
    }
    if (!c || !PyLong_Check(c)) {
        Py_XDECREF(c);
        UNSUPPORTED(fe, node,
                    "slice bounds must be constant integers (tuples are sliced at "
                    "compile time; array slicing comes with arrays)");
        return -1;
    }
    *has = 1;
    *v = PyLong_AsLongLong(c);
    Py_DECREF(c);
    PyErr_Clear();
    return 0;
}

static Val
slice_expr(FE *fe, PyObject *node, PyObject *sl)
{
    KnSlice *s = kn_arena_alloc(&fe->c->arena, sizeof(KnSlice));
    if (slice_bound(fe, A(sl, "lower"), &s->has_start, &s->start) < 0 ||
        slice_bound(fe, A(sl, "upper"), &s->has_stop, &s->stop) < 0 ||
        slice_bound(fe, A(sl, "step"), &s->has_step, &s->step) < 0)
        return NULL;
    if (s->has_step && s->step == 0)
        return fail(fe, A(sl, "step"), KN_DIAG_TYPING, "slice step cannot be zero");
    Val v = expr(fe, A(node, "value"));
    if (!v)
        return NULL;
    Val in = kn_kir_emit1(&fe->b, KN_OP_SLICE, span_of(fe, node), v);
    in->imm.ptr = s;
    return in;
}

/* lower:upper:step with bounds known only at run time: a slice value */
static Val
slice_value(FE *fe, PyObject *sl)
{
    static const char *const parts[3] = {"lower", "upper", "step"};
    KnInstr *args[3];
    int n = 0, mask = 0;
    for (int i = 0; i < 3; i++) {
        PyObject *p = A(sl, parts[i]);
        if (!p)
            continue;
        if (!(args[n++] = expr(fe, p)))
            return NULL;
        mask |= 1 << i;
    }
    Val in = kn_kir_emit(&fe->b, KN_OP_MAKESLICE, span_of(fe, sl), n, args);
    in->aux = mask;
    return in;
}

/* one component of an index: an expression, a slice, None or Ellipsis */
static Val
index_part(FE *fe, PyObject *p)
{
    if (is(p, "Slice"))
        return slice_value(fe, p);
    if (is(p, "Constant") && A(p, "value") == Py_Ellipsis) {
        Val in = emit(fe, KN_OP_CONST, p, 0, NULL);
        in->type = &kn_type_ellipsis;
        return in;
    }
    return expr(fe, p);
}

/* a whole index: a[i], a[i, j:k], a[..., None] */
static Val
index_expr(FE *fe, PyObject *sl)
{
    if (!is(sl, "Tuple"))
        return index_part(fe, sl);
    PyObject *elts = A(sl, "elts");
    Py_ssize_t n = PyList_GET_SIZE(elts);
    KnInstr **items = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(items[i] = index_part(fe, PyList_GET_ITEM(elts, i))))
            return NULL;
    return emit(fe, KN_OP_TUPLE, sl, (int)n, items);
}

static int
all_constant_bounds(FE *fe, PyObject *sl)
{
    static const char *const parts[3] = {"lower", "upper", "step"};
    for (int i = 0; i < 3; i++) {
        PyObject *p = A(sl, parts[i]);
        if (!p)
            continue;
        PyObject *c = const_eval(fe, p);
        int ok = c && (PyLong_Check(c) || c == Py_None);
        Py_XDECREF(c);
        PyErr_Clear();
        if (!ok)
            return 0;
    }
    return 1;
}

static Val
subscript(FE *fe, PyObject *node)
{
    PyObject *sl = A(node, "slice");
    if (is(sl, "Slice") && all_constant_bounds(fe, sl))
        return slice_expr(fe, node, sl);
    if (is(sl, "Slice") || is(sl, "Tuple") ||
        (is(sl, "Constant") && A(sl, "value") == Py_Ellipsis)) {
        Val v = expr(fe, A(node, "value"));
        if (!v)
            return NULL;
        Val idx = index_expr(fe, sl);
        if (!idx)
            return NULL;
        return kn_kir_emit2(&fe->b, KN_OP_GETITEM, span_of(fe, node), v, idx);
    }
    Val v = expr(fe, A(node, "value"));
    if (!v)
        return NULL;
    Val i = expr(fe, sl);
    if (!i)
        return NULL;
    return kn_kir_emit2(&fe->b, KN_OP_GETITEM, span_of(fe, node), v, i);
}

static Val
constant(FE *fe, PyObject *node)
{
    PyObject *v = A(node, "value");
    if (!v) {
        Val in = emit(fe, KN_OP_CONST, node, 0, NULL);
        in->type = &kn_type_none;
        return in;
    }
    if (v == Py_Ellipsis || PyBytes_Check(v))
        return UNSUPPORTED(fe, node, "%s constants are not supported", Py_TYPE(v)->tp_name);
    return frozen(fe, node, v, "this constant");
}

static Val
expr(FE *fe, PyObject *node)
{
    const char *k = kind(node);
    switch (k[0]) {
    case 'A':
        if (!strcmp(k, "Attribute"))
            return attribute(fe, node);
        break;
    case 'B':
        if (!strcmp(k, "BinOp"))
            return binop(fe, node);
        if (!strcmp(k, "BoolOp"))
            return boolop(fe, node);
        break;
    case 'C':
        if (!strcmp(k, "Constant"))
            return constant(fe, node);
        if (!strcmp(k, "Call"))
            return call(fe, node);
        if (!strcmp(k, "Compare"))
            return compare(fe, node);
        break;
    case 'I':
        if (!strcmp(k, "IfExp"))
            return ifexp(fe, node);
        break;
    case 'N':
        if (!strcmp(k, "Name"))
            return name_load(fe, node);
        break;
    case 'S':
        if (!strcmp(k, "Subscript"))
            return subscript(fe, node);
        break;
    case 'T':
        if (!strcmp(k, "Tuple"))
            return tuple_expr(fe, node);
        break;
    case 'U':
        if (!strcmp(k, "UnaryOp"))
            return unaryop(fe, node);
        break;
    }
    static const struct {
        const char *kind, *what;
    } names[] = {
        {"List", "list displays"},
        {"Dict", "dict displays"},
        {"Set", "set displays"},
        {"ListComp", "list comprehensions"},
        {"DictComp", "dict comprehensions"},
        {"SetComp", "set comprehensions"},
        {"GeneratorExp", "generator expressions"},
        {"Lambda", "lambda expressions inside jitted code"},
        {"JoinedStr", "f-strings"},
        {"Await", "await"},
        {"Yield", "yield (generators)"},
        {"YieldFrom", "yield from"},
        {"NamedExpr", "assignment expressions (:=)"},
        {"Starred", "starred expressions"},
    };
    for (int i = 0; i < KN_ARRAY_LEN(names); i++)
        if (!strcmp(k, names[i].kind))
            return UNSUPPORTED(fe, node, "%s are not supported", names[i].what);
    return UNSUPPORTED(fe, node, "expression %s is not supported", k);
}

/* ---- statements ---- */

static int
assign_to(FE *fe, PyObject *target, Val v)
{
    KnSpan sp = span_of(fe, target);
    if (is(target, "Name")) {
        store(fe, sp, local_var(fe, str_of(fe, A(target, "id")), sp), v);
        return 0;
    }
    if (is(target, "Tuple") || is(target, "List")) {
        PyObject *elts = A(target, "elts");
        Py_ssize_t n = PyList_GET_SIZE(elts);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *e = PyList_GET_ITEM(elts, i);
            if (is(e, "Starred")) {
                UNSUPPORTED(fe, e, "starred assignment is not supported");
                return -1;
            }
            Val idx = const_int(fe, sp, i, &kn_type_int64);
            Val item = kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, v, idx);
            item->aux = (int)n; /* unpacking: typing checks the length */
            KN_TRY(assign_to(fe, e, item));
        }
        return 0;
    }
    if (is(target, "Subscript")) {
        Val base = expr(fe, A(target, "value"));
        Val idx = base ? index_expr(fe, A(target, "slice")) : NULL;
        if (!idx)
            return -1;
        KnInstr *args[3] = {base, idx, v};
        kn_kir_emit(&fe->b, KN_OP_SETITEM, sp, 3, args);
        return 0;
    }
    if (is(target, "Attribute")) {
        UNSUPPORTED(fe, target, "attribute assignment is not supported");
        return -1;
    }
    UNSUPPORTED(fe, target, "assignment to %s is not supported", kind(target));
    return -1;
}

static int
assign(FE *fe, PyObject *node)
{
    Val v = expr(fe, A(node, "value"));
    if (!v)
        return -1;
    PyObject *targets = A(node, "targets");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(targets); i++)
        KN_TRY(assign_to(fe, PyList_GET_ITEM(targets, i), v));
    return 0;
}

static int
augassign(FE *fe, PyObject *node)
{
    PyObject *target = A(node, "target"), *opn = A(node, "op");
    int op = binop_of(opn);
    if (op < 0) {
        UNSUPPORTED(fe, node, "operator %s is not supported", kind(opn));
        return -1;
    }
    if (is(target, "Subscript")) {
        /* a[i] += v: the base and the index are evaluated once */
        KnSpan sp = span_of(fe, target);
        Val base = expr(fe, A(target, "value"));
        Val idx = base ? index_expr(fe, A(target, "slice")) : NULL;
        Val cur = idx ? kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, base, idx) : NULL;
        Val r = cur ? expr(fe, A(node, "value")) : NULL;
        if (!r)
            return -1;
        Val in = kn_kir_emit2(&fe->b, KN_OP_BINOP, span_of(fe, node), cur, r);
        in->aux = op;
        KnInstr *args[3] = {base, idx, in};
        kn_kir_emit(&fe->b, KN_OP_SETITEM, sp, 3, args);
        return 0;
    }
    if (!is(target, "Name")) {
        UNSUPPORTED(fe, target, "augmented assignment to %s is not supported", kind(target));
        return -1;
    }
    Val cur = name_load(fe, target);
    if (!cur)
        return -1;
    Val r = expr(fe, A(node, "value"));
    if (!r)
        return -1;
    Val in = kn_kir_emit2(&fe->b, KN_OP_BINOP, span_of(fe, node), cur, r);
    in->aux = op;
    in->imm.i = 1; /* augmented: arrays are updated in place */
    return assign_to(fe, target, in);
}

/* Branch on a condition; a constant one (while True:) branches statically, so that the other
 * side is unreachable, as CPython's compiler sees it. */
static int
branch(FE *fe, PyObject *test, KnSpan sp, KnBlock *t, KnBlock *f)
{
    PyObject *k = is(test, "Constant") ? A(test, "value") : NULL;
    if (k && (PyBool_Check(k) || PyLong_Check(k))) {
        kn_kir_br(&fe->b, sp, PyObject_IsTrue(k) ? t : f);
        return 0;
    }
    Val c = expr(fe, test);
    if (!c)
        return -1;
    Val truth = kn_kir_emit1(&fe->b, KN_OP_TRUTH, c->span, c);
    kn_kir_cbr(&fe->b, sp, truth, t, f);
    return 0;
}

static int
if_stmt(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    KnBlock *bt = kn_kir_block_new(&fe->b), *bf = kn_kir_block_new(&fe->b),
            *done = kn_kir_block_new(&fe->b);
    KN_TRY(branch(fe, A(node, "test"), sp, bt, bf));
    kn_kir_set_block(&fe->b, bt);
    KN_TRY(stmts(fe, A(node, "body")));
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, bf);
    PyObject *orelse = A(node, "orelse");
    if (orelse)
        KN_TRY(stmts(fe, orelse));
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, done);
    return 0;
}

static int
push_loop(FE *fe, PyObject *node, KnBlock *brk, KnBlock *cont)
{
    if (fe->nloops == KN_ARRAY_LEN(fe->loops)) {
        UNSUPPORTED(fe, node, "loops nested more than 64 deep are not supported");
        return -1;
    }
    fe->loops[fe->nloops].brk = brk;
    fe->loops[fe->nloops].cont = cont;
    fe->nloops++;
    return 0;
}

/* The loop's else clause runs when the condition fails, not after break. */
static int
loop_tail(FE *fe, PyObject *node, KnBlock *orelse_blk, KnBlock *exit)
{
    kn_kir_set_block(&fe->b, orelse_blk);
    PyObject *orelse = A(node, "orelse");
    if (orelse)
        KN_TRY(stmts(fe, orelse));
    kn_kir_br(&fe->b, span_of(fe, node), exit);
    kn_kir_set_block(&fe->b, exit);
    return 0;
}

static int
while_stmt(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    KnBlock *head = kn_kir_block_new(&fe->b), *body = kn_kir_block_new(&fe->b),
            *orelse = kn_kir_block_new(&fe->b), *exit = kn_kir_block_new(&fe->b);
    kn_kir_br(&fe->b, sp, head);
    kn_kir_set_block(&fe->b, head);
    head->polls = 1; /* a loop kiln cannot count: Ctrl-C must be able to stop it */
    KN_TRY(branch(fe, A(node, "test"), sp, body, orelse));
    kn_kir_set_block(&fe->b, body);
    KN_TRY(push_loop(fe, node, exit, head));
    int rc = stmts(fe, A(node, "body"));
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, head);
    return loop_tail(fe, node, orelse, exit);
}

/* Emit a counted loop: `var` runs from `start` while (cmp var, stop), stepping by `step`.
 * `bind` is called at the top of the body to assign the loop target. */
typedef int (*BindFn)(FE *fe, PyObject *node, int counter);

static int
counted_loop(FE *fe, PyObject *node, Val start, Val stop, Val step, KnCmp cmp, BindFn bind)
{
    KnSpan sp = span_of(fe, A(node, "iter"));
    int i = temp_var(fe, "i", sp), n = temp_var(fe, "stop", sp), s = temp_var(fe, "step", sp);
    store(fe, sp, i, start);
    store(fe, sp, n, stop);
    store(fe, sp, s, step);
    KnBlock *head = kn_kir_block_new(&fe->b), *body = kn_kir_block_new(&fe->b),
            *latch = kn_kir_block_new(&fe->b), *orelse = kn_kir_block_new(&fe->b),
            *exit = kn_kir_block_new(&fe->b);
    kn_kir_br(&fe->b, sp, head);
    kn_kir_set_block(&fe->b, head);
    Val c = kn_kir_emit2(&fe->b, KN_OP_CMP, sp, load(fe, sp, i), load(fe, sp, n));
    c->aux = cmp;
    kn_kir_cbr(&fe->b, sp, c, body, orelse);
    kn_kir_set_block(&fe->b, body);
    KN_TRY(bind(fe, node, i));
    KN_TRY(push_loop(fe, node, exit, latch));
    int rc = stmts(fe, A(node, "body"));
    fe->nloops--;
    KN_TRY(rc);
    kn_kir_br(&fe->b, sp, latch);
    kn_kir_set_block(&fe->b, latch);
    Val next = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, load(fe, sp, i), load(fe, sp, s));
    next->aux = KN_BIN_ADD;
    store(fe, sp, i, next);
    kn_kir_br(&fe->b, sp, head);
    return loop_tail(fe, node, orelse, exit);
}

static int
bind_counter(FE *fe, PyObject *node, int counter)
{
    KnSpan sp = span_of(fe, A(node, "target"));
    return assign_to(fe, A(node, "target"), load(fe, sp, counter));
}

/* Bind the loop target to seq[counter]. The sequence lives in the $seq variable that for_stmt
 * creates immediately before counted_loop creates the counter, hence `counter - 1`. */
static int
bind_item(FE *fe, PyObject *node, int counter)
{
    KnSpan sp = span_of(fe, A(node, "iter"));
    Val item =
        kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, load(fe, sp, counter - 1), load(fe, sp, counter));
    return assign_to(fe, A(node, "target"), item);
}

/* for i, x in enumerate(seq[, start]) / for a, b in zip(s1, s2, ...): a counted loop over the
 * shortest sequence; the target gets the tuple of the items (and the count). The sequences live
 * in variables $zipN; fe->zip_* tell bind_zip where. */
static int
bind_zip(FE *fe, PyObject *node, int counter)
{
    KnSpan sp = span_of(fe, A(node, "iter"));
    KnInstr *items[17];
    int n = 0;
    if (fe->zip_enumerate) {
        Val k = load(fe, sp, counter);
        Val start = load(fe, sp, fe->zip_first + 1);
        Val sum = kn_kir_emit2(&fe->b, KN_OP_BINOP, sp, start, k);
        sum->aux = KN_BIN_ADD;
        items[n++] = sum;
        items[n++] = kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, load(fe, sp, fe->zip_first),
                                  load(fe, sp, counter));
    } else {
        for (int i = 0; i < fe->zip_count; i++)
            items[n++] = kn_kir_emit2(&fe->b, KN_OP_GETITEM, sp, load(fe, sp, fe->zip_first + i),
                                      load(fe, sp, counter));
    }
    Val t = kn_kir_emit(&fe->b, KN_OP_TUPLE, sp, n, items);
    return assign_to(fe, A(node, "target"), t);
}

static int
for_enumerate_zip(FE *fe, PyObject *node, int is_enumerate)
{
    PyObject *iter = A(node, "iter"), *args = A(iter, "args");
    KnSpan sp = span_of(fe, iter);
    Py_ssize_t n = PyList_GET_SIZE(args);
    if (PyList_GET_SIZE(A(iter, "keywords")) || n < 1 || n > 16 || (is_enumerate && n > 2)) {
        UNSUPPORTED(fe, iter, "%s() with these arguments is not supported",
                    is_enumerate ? "enumerate" : "zip");
        return -1;
    }
    int first = -1, count = is_enumerate ? 1 : (int)n;
    for (Py_ssize_t i = 0; i < (is_enumerate ? 2 : n); i++) {
        Val v;
        if (i < n) {
            v = expr(fe, PyList_GET_ITEM(args, i));
            if (!v)
                return -1;
        } else {
            v = const_int(fe, sp, 0, &kn_type_int64); /* enumerate's start */
        }
        int var = temp_var(fe, "zip", sp);
        if (first < 0)
            first = var;
        store(fe, sp, var, v);
    }
    /* the count: the shortest length */
    Val len = kn_kir_emit1(&fe->b, KN_OP_LEN, sp, load(fe, sp, first));
    int lenvar = temp_var(fe, "ziplen", sp);
    store(fe, sp, lenvar, len);
    for (int i = 1; i < count; i++) {
        Val li = kn_kir_emit1(&fe->b, KN_OP_LEN, sp, load(fe, sp, first + i));
        Val shorter = kn_kir_emit2(&fe->b, KN_OP_CMP, sp, li, load(fe, sp, lenvar));
        shorter->aux = KN_CMP_LT;
        KnBlock *yes = kn_kir_block_new(&fe->b), *next = kn_kir_block_new(&fe->b);
        kn_kir_cbr(&fe->b, sp, shorter, yes, next);
        kn_kir_set_block(&fe->b, yes);
        store(fe, sp, lenvar, li);
        kn_kir_br(&fe->b, sp, next);
        kn_kir_set_block(&fe->b, next);
    }
    int saved_first = fe->zip_first, saved_count = fe->zip_count, saved_enum = fe->zip_enumerate;
    fe->zip_first = first;
    fe->zip_count = count;
    fe->zip_enumerate = is_enumerate;
    int rc = counted_loop(fe, node, const_int(fe, sp, 0, &kn_type_int64), load(fe, sp, lenvar),
                          const_int(fe, sp, 1, &kn_type_int64), KN_CMP_LT, bind_zip);
    fe->zip_first = saved_first;
    fe->zip_count = saved_count;
    fe->zip_enumerate = saved_enum;
    return rc;
}

/* for x in seq (a tuple, a range object, an array): count to len(seq), binding seq[k]. The
 * sequence goes into $seq, which counted_loop's counter follows (bind_item relies on that). */
static int
loop_over(FE *fe, PyObject *node, KnSpan sp, Val seqv)
{
    int seq = temp_var(fe, "seq", sp);
    store(fe, sp, seq, seqv);
    Val len = kn_kir_emit1(&fe->b, KN_OP_LEN, sp, load(fe, sp, seq));
    return counted_loop(fe, node, const_int(fe, sp, 0, &kn_type_int64), len,
                        const_int(fe, sp, 1, &kn_type_int64), KN_CMP_LT, bind_item);
}

/* The sign of a constant range step: +1, -1, 0 when unknown. */
static int
const_sign(Val v)
{
    if (v->op != KN_OP_CONST || !v->type || v->type->kind != KN_TY_INT)
        return 0;
    return v->imm.i > 0 ? 1 : v->imm.i < 0 ? -1 : 0;
}

static int
for_stmt(FE *fe, PyObject *node)
{
    PyObject *iter = A(node, "iter");
    KnSpan sp = span_of(fe, iter);
    if (is(iter, "Call") && is(A(iter, "func"), "Name") && PyList_GET_SIZE(A(iter, "args")) >= 1 &&
        PyList_GET_SIZE(A(iter, "args")) <= 3 && !PyList_GET_SIZE(A(iter, "keywords"))) {
        Val callee = expr(fe, A(iter, "func"));
        if (!callee)
            return -1;
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            callee->type->id == KN_BI_RANGE) {
            PyObject *args = A(iter, "args");
            Py_ssize_t n = PyList_GET_SIZE(args);
            Val a[3];
            for (Py_ssize_t k = 0; k < n; k++)
                if (!(a[k] = expr(fe, PyList_GET_ITEM(args, k))))
                    return -1;
            Val start = n == 1 ? const_int(fe, sp, 0, &kn_type_int64) : a[0];
            Val stop = n == 1 ? a[0] : a[1];
            Val step = n == 3 ? a[2] : const_int(fe, sp, 1, &kn_type_int64);
            int sign = const_sign(step);
            if (sign) {
                /* the common case: a counted loop LLVM can vectorize */
                Val s0 = kn_kir_emit1(&fe->b, KN_OP_CAST, sp, start);
                s0->type = &kn_type_int64;
                Val s1 = kn_kir_emit1(&fe->b, KN_OP_CAST, sp, stop);
                s1->type = &kn_type_int64;
                return counted_loop(fe, node, s0, s1, step, sign > 0 ? KN_CMP_LT : KN_CMP_GT,
                                    bind_counter);
            }
            /* unknown step: iterate over the range object */
            KnInstr *all[4] = {callee, a[0], n > 1 ? a[1] : NULL, n > 2 ? a[2] : NULL};
            return loop_over(fe, node, sp, kn_kir_emit(&fe->b, KN_OP_CALL, sp, (int)n + 1, all));
        }
        if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
            (callee->type->id == KN_BI_ENUMERATE || callee->type->id == KN_BI_ZIP))
            return for_enumerate_zip(fe, node, callee->type->id == KN_BI_ENUMERATE);
        /* not range(): fall through to the generic path with the callee already evaluated */
        KnInstr **cargs = NULL;
        PyObject *args = A(iter, "args");
        Py_ssize_t n = PyList_GET_SIZE(args);
        cargs = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(n + 1));
        cargs[0] = callee;
        for (Py_ssize_t k = 0; k < n; k++)
            if (!(cargs[k + 1] = expr(fe, PyList_GET_ITEM(args, k))))
                return -1;
        return loop_over(fe, node, sp, kn_kir_emit(&fe->b, KN_OP_CALL, sp, (int)n + 1, cargs));
    }
    Val seqv = expr(fe, iter);
    if (!seqv)
        return -1;
    return loop_over(fe, node, sp, seqv);
}

static int
return_stmt(FE *fe, PyObject *node)
{
    PyObject *vn = A(node, "value");
    Val v;
    if (vn) {
        v = expr(fe, vn);
        if (!v)
            return -1;
    } else {
        v = emit(fe, KN_OP_CONST, node, 0, NULL);
        v->type = &kn_type_none;
    }
    emit(fe, KN_OP_RET, node, 1, &v);
    return 0;
}

/* Enter (class, args) in the exception table; returns its index. */
static int
exc_index(FE *fe, PyObject *node, PyObject *cls, PyObject *args)
{
    PyObject *entry = PyTuple_Pack(2, cls, args);
    if (!entry)
        return -1;
    Py_ssize_t n = PyList_GET_SIZE(fe->env->exc_table);
    for (Py_ssize_t i = 0; i < n; i++) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(fe->env->exc_table, i), entry, Py_EQ);
        if (eq > 0) {
            Py_DECREF(entry);
            return (int)i;
        }
        PyErr_Clear();
    }
    int rc = PyList_Append(fe->env->exc_table, entry);
    Py_DECREF(entry);
    if (rc < 0) {
        PyErr_Clear();
        UNSUPPORTED(fe, node, "cannot record this exception");
        return -1;
    }
    return (int)n;
}

static int
raise_with(FE *fe, PyObject *node, PyObject *cls, PyObject *args)
{
    int idx = exc_index(fe, node, cls, args);
    if (idx < 0)
        return -1;
    Val r = emit(fe, KN_OP_RAISE, node, 0, NULL);
    r->aux = idx;
    return 0;
}

static int
raise_stmt(FE *fe, PyObject *node)
{
    PyObject *exc = A(node, "exc");
    if (!exc) {
        UNSUPPORTED(fe, node, "re-raising with a bare 'raise' is not supported");
        return -1;
    }
    PyObject *clsnode = is(exc, "Call") ? A(exc, "func") : exc;
    PyObject *cls = NULL;
    if (is(clsnode, "Name") && PySet_Contains(fe->locals, A(clsnode, "id")) <= 0)
        cls = lookup_global(fe, A(clsnode, "id"));
    else if (is(clsnode, "Attribute")) {
        PyObject *base = A(clsnode, "value");
        PyObject *mod = is(base, "Name") ? lookup_global(fe, A(base, "id")) : NULL;
        cls = mod ? PyObject_GetAttr(mod, A(clsnode, "attr")) : NULL;
        Py_XDECREF(cls); /* the module keeps it */
        PyErr_Clear();
    }
    if (!cls || !PyType_Check(cls) ||
        !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_BaseException)) {
        UNSUPPORTED(fe, exc,
                    "can only raise an exception class or an instance made from "
                    "constant arguments");
        return -1;
    }
    PyObject *args = NULL;
    if (is(exc, "Call")) {
        PyObject *pargs = A(exc, "args"), *kws = A(exc, "keywords");
        if (kws && PyList_GET_SIZE(kws)) {
            UNSUPPORTED(fe, exc, "keyword arguments to exceptions are not supported");
            return -1;
        }
        args = PyTuple_New(PyList_GET_SIZE(pargs));
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pargs); i++) {
            PyObject *v = const_eval(fe, PyList_GET_ITEM(pargs, i));
            if (!v) {
                Py_DECREF(args);
                UNSUPPORTED(fe, PyList_GET_ITEM(pargs, i), "exception arguments must be constants");
                return -1;
            }
            PyTuple_SET_ITEM(args, i, v);
        }
    } else {
        args = PyTuple_New(0);
    }
    int rc = raise_with(fe, node, cls, args);
    Py_DECREF(args);
    return rc;
}

static int
assert_stmt(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    Val c = expr(fe, A(node, "test"));
    if (!c)
        return -1;
    Val t = kn_kir_emit1(&fe->b, KN_OP_TRUTH, c->span, c);
    KnBlock *ok = kn_kir_block_new(&fe->b), *bad = kn_kir_block_new(&fe->b);
    kn_kir_cbr(&fe->b, sp, t, ok, bad);
    kn_kir_set_block(&fe->b, bad);
    PyObject *msgnode = A(node, "msg");
    PyObject *args;
    if (msgnode) {
        PyObject *m = const_eval(fe, msgnode);
        if (!m) {
            UNSUPPORTED(fe, msgnode, "the message of an assert must be a constant");
            return -1;
        }
        args = PyTuple_Pack(1, m);
        Py_DECREF(m);
    } else {
        args = PyTuple_New(0);
    }
    int rc = raise_with(fe, node, PyExc_AssertionError, args);
    Py_DECREF(args);
    kn_kir_set_block(&fe->b, ok);
    return rc;
}

static int
stmt(FE *fe, PyObject *node)
{
    const char *k = kind(node);
    if (!fe->b.cur) {
        /* unreachable code after return/break/raise: Python compiles it, so do we, elsewhere */
        KnBlock *dead = kn_kir_block_new(&fe->b);
        kn_kir_set_block(&fe->b, dead);
    }
    if (!strcmp(k, "Assign"))
        return assign(fe, node);
    if (!strcmp(k, "AugAssign"))
        return augassign(fe, node);
    if (!strcmp(k, "AnnAssign")) {
        PyObject *v = A(node, "value");
        if (!v)
            return 0;
        Val val = expr(fe, v);
        return val ? assign_to(fe, A(node, "target"), val) : -1;
    }
    if (!strcmp(k, "Expr")) {
        PyObject *v = A(node, "value");
        if (is(v, "Constant"))
            return 0; /* docstrings and bare constants */
        return expr(fe, v) ? 0 : -1;
    }
    if (!strcmp(k, "If"))
        return if_stmt(fe, node);
    if (!strcmp(k, "While"))
        return while_stmt(fe, node);
    if (!strcmp(k, "For"))
        return for_stmt(fe, node);
    if (!strcmp(k, "Return"))
        return return_stmt(fe, node);
    if (!strcmp(k, "Pass"))
        return 0;
    if (!strcmp(k, "Break") || !strcmp(k, "Continue")) {
        if (!fe->nloops) {
            UNSUPPORTED(fe, node, "'%s' outside a loop", k[0] == 'B' ? "break" : "continue");
            return -1;
        }
        LoopCtx *l = &fe->loops[fe->nloops - 1];
        kn_kir_br(&fe->b, span_of(fe, node), k[0] == 'B' ? l->brk : l->cont);
        return 0;
    }
    if (!strcmp(k, "Raise"))
        return raise_stmt(fe, node);
    if (!strcmp(k, "Assert"))
        return assert_stmt(fe, node);
    static const struct {
        const char *kind, *what;
    } names[] = {
        {"Try", "try/except"},
        {"TryStar", "try/except*"},
        {"With", "with statements"},
        {"AsyncWith", "async with"},
        {"ClassDef", "class definitions inside jitted functions"},
        {"FunctionDef", "function definitions inside jitted functions"},
        {"AsyncFunctionDef", "async functions"},
        {"AsyncFor", "async for"},
        {"Global", "the global statement"},
        {"Nonlocal", "the nonlocal statement"},
        {"Delete", "del"},
        {"Import", "import inside jitted functions"},
        {"ImportFrom", "import inside jitted functions"},
        {"Match", "match statements"},
    };
    for (int i = 0; i < KN_ARRAY_LEN(names); i++)
        if (!strcmp(k, names[i].kind)) {
            UNSUPPORTED(fe, node, "%s %s not supported", names[i].what,
                        names[i].what[strlen(names[i].what) - 1] == 's' ? "are" : "is");
            return -1;
        }
    UNSUPPORTED(fe, node, "statement %s is not supported", k);
    return -1;
}

static int
stmts(FE *fe, PyObject *body)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++)
        KN_TRY(stmt(fe, PyList_GET_ITEM(body, i)));
    return 0;
}

/* ---- set-up: source, locals, closure ---- */

/* Collect every name the function assigns: those are its locals. */
static int
collect_targets(FE *fe, PyObject *t)
{
    if (!t)
        return 0;
    if (is(t, "Name"))
        return PySet_Add(fe->locals, A(t, "id"));
    if (is(t, "Tuple") || is(t, "List")) {
        PyObject *elts = A(t, "elts");
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elts); i++)
            KN_TRY(collect_targets(fe, PyList_GET_ITEM(elts, i)));
    }
    if (is(t, "Starred"))
        return collect_targets(fe, A(t, "value"));
    return 0;
}

static int
collect_locals(FE *fe, PyObject *body)
{
    for (Py_ssize_t i = 0; body && i < PyList_GET_SIZE(body); i++) {
        PyObject *s = PyList_GET_ITEM(body, i);
        if (is(s, "Assign")) {
            PyObject *ts = A(s, "targets");
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(ts); k++)
                KN_TRY(collect_targets(fe, PyList_GET_ITEM(ts, k)));
        } else if (is(s, "AugAssign") || is(s, "AnnAssign") || is(s, "For")) {
            KN_TRY(collect_targets(fe, A(s, "target")));
        }
        KN_TRY(collect_locals(fe, A(s, "body")));
        KN_TRY(collect_locals(fe, A(s, "orelse")));
    }
    return 0;
}

static int
setup_closure(FE *fe)
{
    fe->closure = PyDict_New();
    PyObject *code = PyObject_GetAttrString(fe->func, "__code__");
    PyObject *freevars = code ? PyObject_GetAttrString(code, "co_freevars") : NULL;
    PyObject *cells = PyObject_GetAttrString(fe->func, "__closure__");
    Py_XDECREF(code);
    if (!freevars || !cells) {
        Py_XDECREF(freevars);
        Py_XDECREF(cells);
        PyErr_Clear();
        return 0;
    }
    for (Py_ssize_t i = 0; cells != Py_None && i < PyTuple_GET_SIZE(freevars); i++) {
        PyObject *cell = PyTuple_GET_ITEM(cells, i);
        PyObject *v = PyCell_GET(cell);
        if (v)
            PyDict_SetItem(fe->closure, PyTuple_GET_ITEM(freevars, i), v);
    }
    Py_DECREF(freevars);
    Py_DECREF(cells);
    return 0;
}

static int
params(FE *fe, PyObject *def)
{
    PyObject *args = A(def, "args");
    PyObject *posonly = A(args, "posonlyargs"), *pos = A(args, "args");
    PyObject *kwonly = A(args, "kwonlyargs"), *star;
    if ((star = A(args, "vararg"))) {
        UNSUPPORTED(fe, star,
                    "*%s parameters (a variable number of arguments) are not supported "
                    "yet",
                    str_of(fe, A(star, "arg")));
        return -1;
    }
    if (kwonly && PyList_GET_SIZE(kwonly)) {
        UNSUPPORTED(fe, PyList_GET_ITEM(kwonly, 0),
                    "keyword-only parameters are not supported yet");
        return -1;
    }
    if ((star = A(args, "kwarg"))) {
        UNSUPPORTED(fe, star, "**%s parameters (arbitrary keyword arguments) are not supported yet",
                    str_of(fe, A(star, "arg")));
        return -1;
    }
    Py_ssize_t nposonly = posonly ? PyList_GET_SIZE(posonly) : 0;
    if (nposonly + (pos ? PyList_GET_SIZE(pos) : 0) > KN_MAX_PARAMS) {
        Py_ssize_t k = KN_MAX_PARAMS - nposonly; /* the first parameter too many */
        PyObject *extra = k < 0 ? PyList_GET_ITEM(posonly, KN_MAX_PARAMS) : PyList_GET_ITEM(pos, k);
        UNSUPPORTED(fe, extra, "functions of more than %d parameters are not supported",
                    KN_MAX_PARAMS);
        return -1;
    }
    PyObject *lists[2] = {posonly, pos};
    for (int l = 0; l < 2; l++) {
        for (Py_ssize_t i = 0; lists[l] && i < PyList_GET_SIZE(lists[l]); i++) {
            PyObject *a = PyList_GET_ITEM(lists[l], i);
            KnSpan sp = span_of(fe, a);
            int v = add_var(fe, str_of(fe, A(a, "arg")), sp);
            fe->b.fn->vars.items[v].is_param = 1;
            KN_TRY(PySet_Add(fe->locals, A(a, "arg")));
        }
    }
    fe->b.fn->nparams = fe->b.fn->vars.len;
    for (int i = 0; i < fe->b.fn->nparams; i++) {
        KnSpan sp = fe->b.fn->vars.items[i].span;
        Val a = kn_kir_emit(&fe->b, KN_OP_ARG, sp, 0, NULL);
        a->aux = i;
        store(fe, sp, i, a);
    }
    return 0;
}

static int
body(FE *fe, PyObject *def)
{
    if (is(def, "Lambda")) {
        Val v = expr(fe, A(def, "body"));
        if (!v)
            return -1;
        emit(fe, KN_OP_RET, def, 1, &v);
        return 0;
    }
    KN_TRY(stmts(fe, A(def, "body")));
    if (fe->b.cur) { /* falling off the end returns None */
        KnSpan sp = fe->b.fn->span;
        Val none = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
        none->type = &kn_type_none;
        kn_kir_emit(&fe->b, KN_OP_RET, sp, 1, &none);
    }
    return 0;
}

/* Build the function from what kiln._support.find_definition gives: (source, filename,
 * first_line, col_offset, node), node being the FunctionDef or Lambda already checked against
 * the code object. -1 with a diagnostic or a Python error. */
static int
build(FE *fe, PyObject *src_info)
{
    PyObject *source, *filename, *def;
    int first_line, col_offset;
    if (!PyArg_ParseTuple(src_info, "OOiiO", &source, &filename, &first_line, &col_offset, &def))
        return -1;
    fe->line_off = first_line - 1;
    fe->col_off = col_offset;
    const char *fname = PyUnicode_AsUTF8(filename);
    PyObject *qn = PyObject_GetAttrString(fe->func, "__qualname__");
    const char *qname = qn ? PyUnicode_AsUTF8(qn) : "<function>";
    fe->b.fn = kn_kir_function_new(&fe->c->arena, qname ? qname : "?", fname ? fname : "?");
    Py_XDECREF(qn);
    fe->c->fn = fe->b.fn;
    if (is(def, "AsyncFunctionDef")) {
        UNSUPPORTED(fe, def, "async functions (coroutines) are not supported");
        return -1;
    }
    if (!is(def, "FunctionDef") && !is(def, "Lambda")) {
        PyErr_Format(PyExc_RuntimeError, "kiln: cannot find the definition of %s in its source",
                     fe->b.fn->name);
        return -1;
    }
    fe->b.fn->span = span_of(fe, def);
    fe->b.cur = kn_kir_block_new(&fe->b);
    KN_TRY(params(fe, def));
    if (is(def, "FunctionDef"))
        KN_TRY(collect_locals(fe, A(def, "body")));
    return body(fe, def);
}

int
kn_frontend_build(KnCompilation *c, const KnFrontendEnv *env, PyObject *func)
{
    FE fe;
    memset(&fe, 0, sizeof fe);
    fe.c = c;
    fe.env = env;
    fe.b.arena = &c->arena;
    fe.func = func;
    if (!PyFunction_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "kiln can only compile Python functions");
        return -1;
    }
    fe.globals = PyFunction_GET_GLOBALS(func);
    fe.builtins = PyDict_GetItemString(fe.globals, "__builtins__");
    if (!fe.builtins)
        fe.builtins = PyEval_GetBuiltins();
    fe.locals = PySet_New(NULL);
    if (!fe.locals || setup_closure(&fe) < 0)
        return -1;
    kn_map_init(&fe.var_names);
    PyObject *src = PyObject_CallMethod(env->support, "find_definition", "O", func);
    int rc = src ? build(&fe, src) : -1;
    kn_map_fini(&fe.var_names);
    Py_XDECREF(src);
    Py_DECREF(fe.locals);
    Py_XDECREF(fe.closure);
    return rc;
}
