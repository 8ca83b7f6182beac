/* expr.c - ast expressions -> KIR values.
 *
 * Input: an ast expression node; output: the KIR instruction holding its value (NULL after a
 * diagnostic). Operators, comparison chains (each operand evaluated once), and/or and x if c else
 * y with Python's short-circuit value semantics (lowered to blocks and a temporary), tuple and
 * list displays, calls (keyword arguments bound to a jitted callee's parameters here),
 * attributes, subscripts and slices (constant bounds kept in KnSlice), and constants.
 * Invariant: every instruction gets the span of the node it came from. */
#include "frontend/internal.h"

int
kn_fe_binop_of(PyObject *op)
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

/* a @ b: a call of operator.matmul (kiln/lib/linalg.py overloads it) at the binop's span */
static Val
matmul_call(FE *fe, PyObject *node)
{
    PyObject *mod = PyImport_ImportModule("operator");
    PyObject *fn = mod ? PyObject_GetAttrString(mod, "matmul") : NULL;
    Py_XDECREF(mod);
    Val all[3] = {fn ? kn_fe_frozen(fe, node, fn, "operator.matmul") : NULL, NULL, NULL};
    Py_XDECREF(fn); /* the operator module keeps it */
    PyErr_Clear();
    if (!all[0] || !(all[1] = kn_fe_expr(fe, A(node, "left"))) ||
        !(all[2] = kn_fe_expr(fe, A(node, "right"))))
        return fe->c->diags.items.len ? NULL : UNSUPPORTED(fe, node, "operator @ is not supported");
    Val *args = kn_arena_alloc(&fe->c->arena, sizeof(all));
    memcpy(args, all, sizeof(all));
    Val in = emit(fe, KN_OP_CALL, node, 3, args);
    in->aux = 0; /* no keyword arguments */
    in->imm.ptr = kn_arena_alloc(&fe->c->arena, sizeof(char *));
    return in;
}

static Val
binop(FE *fe, PyObject *node)
{
    PyObject *opn = A(node, "op");
    int op = kn_fe_binop_of(opn);
    if (op < 0 && is(opn, "MatMult"))
        return matmul_call(fe, node);
    if (op < 0)
        return UNSUPPORTED(fe, node, "operator %s is not supported", kind(opn));
    Val l = kn_fe_expr(fe, A(node, "left"));
    if (!l)
        return NULL;
    Val r = kn_fe_expr(fe, A(node, "right"));
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
            Val r = neg ? kn_fe_frozen(fe, node, neg, "this constant") : NULL;
            Py_XDECREF(neg);
            if (r || fe->c->diags.items.len)
                return r;
            PyErr_Clear();
        }
    }
    Val v = kn_fe_expr(fe, operand);
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
    Val left = kn_fe_expr(fe, A(node, "left"));
    if (!left)
        return NULL;
    int result = n > 1 ? kn_fe_temp_var(fe, "cmp", sp) : -1;
    KnBlock *done = n > 1 ? kn_kir_block_new(&fe->b) : NULL;
    Val last = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *opn = PyList_GET_ITEM(ops, i);
        int op = cmp_of(opn);
        if (op < 0)
            return UNSUPPORTED(fe, node, "the '%s' operator is not supported", kind(opn));
        PyObject *rnode = PyList_GET_ITEM(rest, i);
        Val right = kn_fe_expr(fe, rnode);
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
            kn_fe_store(fe, csp, result, last);
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
    return kn_fe_load(fe, sp, result);
}

/* a and b / a or b, with Python's value semantics and short-circuit evaluation. */
static Val
boolop(FE *fe, PyObject *node)
{
    int is_and = is(A(node, "op"), "And");
    PyObject *values = A(node, "values");
    KnSpan sp = span_of(fe, node);
    int result = kn_fe_temp_var(fe, is_and ? "and" : "or", sp);
    KnBlock *done = kn_kir_block_new(&fe->b);
    Py_ssize_t n = PyList_GET_SIZE(values);
    for (Py_ssize_t i = 0; i < n; i++) {
        Val v = kn_fe_expr(fe, PyList_GET_ITEM(values, i));
        if (!v)
            return NULL;
        kn_fe_store(fe, v->span, result, v);
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
    return kn_fe_load(fe, sp, result);
}

static Val
ifexp(FE *fe, PyObject *node)
{
    KnSpan sp = span_of(fe, node);
    Val c = kn_fe_expr(fe, A(node, "test"));
    if (!c)
        return NULL;
    Val t = kn_kir_emit1(&fe->b, KN_OP_TRUTH, c->span, c);
    int result = kn_fe_temp_var(fe, "ifexp", sp);
    KnBlock *bt = kn_kir_block_new(&fe->b), *bf = kn_kir_block_new(&fe->b),
            *done = kn_kir_block_new(&fe->b);
    kn_kir_cbr(&fe->b, sp, t, bt, bf);
    kn_kir_set_block(&fe->b, bt);
    Val a = kn_fe_expr(fe, A(node, "body"));
    if (!a)
        return NULL;
    kn_fe_store(fe, a->span, result, a);
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, bf);
    Val b = kn_fe_expr(fe, A(node, "orelse"));
    if (!b)
        return NULL;
    kn_fe_store(fe, b->span, result, b);
    kn_kir_br(&fe->b, sp, done);
    kn_kir_set_block(&fe->b, done);
    return kn_fe_load(fe, sp, result);
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
        if (!(items[i] = nested ? nested_items(fe, e) : kn_fe_expr(fe, e)))
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
        return kn_fe_expr(fe, node);
    return items_tuple(fe, node, 1);
}

/* The value of a compile-time constant expression (exception arguments, defaults): a new
 * reference, or NULL when the expression is not constant. */
PyObject *
kn_fe_const_eval(FE *fe, PyObject *node)
{
    if (is(node, "Constant")) {
        PyObject *v = PyObject_GetAttrString(node, "value");
        return v;
    }
    if (is(node, "Name")) {
        PyObject *id = A(node, "id");
        if (PySet_Contains(fe->locals, id) > 0)
            return NULL;
        PyObject *o = kn_fe_lookup_global(fe, id);
        if (o && (PyUnicode_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || o == Py_None)) {
            Py_INCREF(o);
            return o;
        }
        return NULL;
    }
    if (is(node, "UnaryOp") && is(A(node, "op"), "USub")) {
        PyObject *v = kn_fe_const_eval(fe, A(node, "operand"));
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
            PyObject *v = kn_fe_const_eval(fe, PyList_GET_ITEM(elts, i));
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
    int star = kn_fe_takes_varargs(code); /* def f(a, *args): functions.c */
    if (npos > nparams && !star) {
        TYPING(fe, node, "%s() takes %d positional arguments but %zd were given", fn, nparams,
               npos);
        Py_XDECREF(fname);
        goto done;
    }
    KnInstr **vals = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(nparams + 2));
    for (Py_ssize_t i = 0; i < npos && i < nparams; i++) {
        PyObject *a = PyList_GET_ITEM(args, i);
        if (is(a, "Starred")) {
            UNSUPPORTED(fe, a, "*args in calls is not supported");
            Py_XDECREF(fname);
            goto done;
        }
        if (!(vals[i] = kn_fe_expr(fe, a))) {
            Py_XDECREF(fname);
            goto done;
        }
    }
    if (star && !(vals[nparams] = kn_fe_varargs_tuple(fe, node, nparams))) {
        Py_XDECREF(fname);
        goto done;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kw = PyList_GET_ITEM(kws, k), *arg = A(kw, "arg");
        if (!arg) {
            UNSUPPORTED(fe, kw, "**kwargs in calls is not supported");
            Py_XDECREF(fname);
            goto done;
        }
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
        if (!(vals[slot] = kn_fe_expr(fe, A(kw, "value")))) {
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
        if (!(vals[i] =
                  kn_fe_frozen(fe, node, PyTuple_GET_ITEM(defaults, d), "a default argument"))) {
            Py_XDECREF(fname);
            goto done;
        }
    }
    Py_XDECREF(fname);
    *out_args = vals;
    *out_n = nparams + star;
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
    int handled;
    Val fmt = kn_fe_str_format(fe, node, &handled); /* 'literal'.format(...): fstring.c */
    if (handled)
        return fmt;
    Val gen = kn_fe_gen_call(fe, node, &handled); /* sum(x for x in a): generators.c */
    if (handled)
        return gen;
    Val ev = kn_fe_exc_call(fe, node, &handled); /* str(e) of a caught exception: try.c */
    if (handled)
        return ev;
    Val um = kn_fe_unbound_call(fe, node, &handled); /* str.upper(s): iter.c */
    if (handled)
        return um;
    PyObject *fnode = A(node, "func");
    Val callee = kn_fe_expr(fe, fnode);
    if (!callee)
        return NULL;
    if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
        callee->type->id == KN_BI_DICT) {
        Val d = kn_fe_dict_of(fe, node, &handled); /* dict(zip(a, b)), dict(k=v): dictcomp.c */
        if (handled)
            return d;
    }
    if (kn_fe_refuse_double_star(fe, node) < 0) /* f(**m): functions.c */
        return NULL;
    if (kn_fe_has_starred(node))
        return kn_fe_star_call(fe, node, callee); /* f(*t): functions.c */
    int iter_handled;
    Val iv = kn_fe_iter_call(fe, node, callee, &iter_handled); /* sum(x), any(x), ...: iter.c */
    if (iter_handled)
        return iv;
    if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_CLASS &&
        callee->type->id == KN_CLASS_NAMEDTUPLE)
        return kn_fe_namedtuple_new(fe, node, callee); /* Point(1, y=2): namedtuple.c */
    if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_CLASS &&
        callee->type->id == KN_CLASS_ENUM)
        return kn_fe_enum_call(fe, node, callee); /* Color(1): enum.c */
    KnInstr **args = NULL;
    int n = 0;
    PyObject *kws = A(node, "keywords");
    if (callee->op == KN_OP_GLOBAL && callee->type->kind == KN_TY_FUNC &&
        callee->type->id == KN_BI_SET && PyList_GET_SIZE(A(node, "args")) == 1 &&
        !(kws && PyList_GET_SIZE(kws)))
        return kn_fe_set_of(fe, node); /* set(iterable): dictcomp.c */
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
            if (!(args[i] = i == 0 && takes_lists ? nested_items(fe, a) : kn_fe_expr(fe, a)))
                return NULL;
        }
        const char **names = kn_arena_alloc(&fe->c->arena, sizeof(char *) * (size_t)(nkw + 1));
        for (int k = 0; k < nkw; k++) {
            PyObject *kw = PyList_GET_ITEM(kws, k);
            if (!A(kw, "arg"))
                return UNSUPPORTED(fe, kw, "**kwargs in calls is not supported");
            names[k] = kn_fe_str_of(fe, A(kw, "arg"));
            if (!(args[npos + k] = kn_fe_expr(fe, A(kw, "value"))))
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

/* v.attr for v a module or an enum class: the attribute read now and frozen, as Numba freezes
 * globals; `kind` names v in the error when there is none (q: the quote around its name) */
static Val
frozen_attribute(FE *fe, PyObject *node, Val v, PyObject *attr, const char *kind, const char *q)
{
    PyObject *o = PyObject_GetAttr((PyObject *)v->imm.ptr, attr);
    if (!o) {
        PyErr_Clear();
        return TYPING(fe, node, "%s %s%s%s has no attribute '%s'", kind, q, v->type->name, q,
                      kn_fe_str_of(fe, attr));
    }
    char what[300];
    snprintf(what, sizeof what, "'%s.%s'", v->type->name, kn_fe_str_of(fe, attr));
    Val r = kn_fe_frozen(fe, node, o, what);
    Py_DECREF(o);
    return r;
}

static Val
attribute(FE *fe, PyObject *node)
{
    PyObject *base = A(node, "value"), *attr = A(node, "attr");
    int caught;
    Val ev = kn_fe_exc_attr(fe, node, &caught); /* e.args of a caught exception: try.c */
    if (caught)
        return ev;
    Val um = kn_fe_unbound_value(fe, node, &caught); /* str.upper as a function: iter.c */
    if (caught)
        return um;
    Val v = kn_fe_expr(fe, base);
    if (!v)
        return NULL;
    if (v->op == KN_OP_GLOBAL && v->type->kind == KN_TY_CLASS && v->type->id == KN_CLASS_ENUM)
        return frozen_attribute(fe, node, v, attr, "enum class", ""); /* Color.RED (enum.c) */
    if (v->op == KN_OP_GLOBAL && v->type->kind == KN_TY_MODULE)
        return frozen_attribute(fe, node, v, attr, "module", "'"); /* module.attr resolved now */
    Val in = kn_kir_emit1(&fe->b, KN_OP_GETATTR, span_of(fe, node), v);
    in->imm.str = kn_fe_str_of(fe, attr);
    return in;
}

/* A slice bound: absent, or a constant integer (tuples are sliced at compile time). */
static int
slice_bound(FE *fe, PyObject *node, int *has, int64_t *v)
{
    *has = 0;
    if (!node)
        return 0;
    PyObject *c = kn_fe_const_eval(fe, node);
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
        return kn_fe_fail(fe, A(sl, "step"), KN_DIAG_TYPING, "slice step cannot be zero");
    Val v = kn_fe_expr(fe, A(node, "value"));
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
        if (!(args[n++] = kn_fe_expr(fe, p)))
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
    return kn_fe_expr(fe, p);
}

/* a whole index: a[i], a[i, j:k], a[..., None] */
Val
kn_fe_index_expr(FE *fe, PyObject *sl)
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
        PyObject *c = kn_fe_const_eval(fe, p);
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
        Val v = kn_fe_expr(fe, A(node, "value"));
        if (!v)
            return NULL;
        Val idx = kn_fe_index_expr(fe, sl);
        if (!idx)
            return NULL;
        return kn_kir_emit2(&fe->b, KN_OP_GETITEM, span_of(fe, node), v, idx);
    }
    Val v = kn_fe_expr(fe, A(node, "value"));
    if (!v)
        return NULL;
    Val i = kn_fe_expr(fe, sl);
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
    return kn_fe_frozen(fe, node, v, "this constant");
}

Val
kn_fe_expr(FE *fe, PyObject *node)
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
    case 'D':
        if (!strcmp(k, "Dict") || !strcmp(k, "DictComp"))
            return kn_fe_dict_display(fe, node); /* dictcomp.c */
        break;
    case 'G':
        if (!strcmp(k, "GeneratorExp"))
            return kn_fe_genexp_value(fe, node); /* not consumed where made: generators.c */
        break;
    case 'Y':
        if (!strcmp(k, "Yield"))
            return kn_fe_yield_value(fe, node);
        break;
    case 'I':
        if (!strcmp(k, "IfExp"))
            return ifexp(fe, node);
        break;
    case 'J':
        if (!strcmp(k, "JoinedStr"))
            return kn_fe_fstring(fe, node); /* fstring.c */
        break;
    case 'L':
        if (!strcmp(k, "Lambda"))
            return kn_fe_lambda(fe, node); /* comprehension.c */
        if (!strcmp(k, "List"))
            return kn_fe_list_display(fe, node); /* comprehension.c */
        if (!strcmp(k, "ListComp"))
            return kn_fe_listcomp(fe, node);
        break;
    case 'N':
        if (!strcmp(k, "Name"))
            return kn_fe_name_load(fe, node);
        if (!strcmp(k, "NamedExpr"))
            return kn_fe_walrus(fe, node); /* iter.c */
        break;
    case 'S':
        if (!strcmp(k, "Subscript"))
            return subscript(fe, node);
        if (!strcmp(k, "Set") || !strcmp(k, "SetComp"))
            return kn_fe_dict_display(fe, node); /* dictcomp.c */
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

int
kn_fe_bind_call_args(FE *fe, PyObject *call, PyObject *callee, KnInstr ***out, int *n)
{
    return bind_args(fe, call, callee, out, n);
}
