/* frontend.c - Python source -> untyped KIR: the entry point and set-up.
 *
 * Input: a Python function object. Its source and its FunctionDef (or Lambda) node come from
 * kiln._support.find_definition (inspect and linecache, so IPython cells work; the node is
 * checked against the code object). Output: c->fn, a KIR CFG whose every instruction carries the
 * real file position of the expression it came from. This file sets up the FE (globals,
 * builtins, closure cells, the set of locals), declares the parameters, walks the body through
 * stmt.c and ends a body that falls off its end with `return None`; it also holds the helpers
 * every other file uses (str_of, fail, const_int). Invariant: on failure there is either a
 * diagnostic in c->diags or a Python exception set, never neither. */
#include "frontend/internal.h"

const char *
kn_fe_str_of(FE *fe, PyObject *s)
{
    const char *u = s ? PyUnicode_AsUTF8(s) : NULL;
    if (!u) {
        PyErr_Clear();
        return "?";
    }
    return kn_arena_strdup(&fe->c->arena, u);
}

void *
kn_fe_fail(FE *fe, PyObject *node, KnDiagKind k, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    kn_diag_error(&fe->c->diags, k, span_of(fe, node), "%s", buf);
    return NULL;
}

const char *
kn_fe_take_error_text(char *buf, size_t n)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *s = value ? PyObject_Str(value) : NULL;
    const char *msg = s ? PyUnicode_AsUTF8(s) : NULL;
    if (msg)
        snprintf(buf, n, "%s", msg);
    Py_XDECREF(s);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    PyErr_Clear();
    return msg ? buf : NULL;
}

Val
kn_fe_const_int(FE *fe, KnSpan sp, int64_t v, KnType *t)
{
    Val in = kn_kir_emit(&fe->b, KN_OP_CONST, sp, 0, NULL);
    in->type = t;
    in->imm.i = v;
    return in;
}

static int
params(FE *fe, PyObject *def)
{
    PyObject *args = A(def, "args");
    PyObject *posonly = A(args, "posonlyargs"), *pos = A(args, "args");
    PyObject *kwonly = A(args, "kwonlyargs"), *star;
    if (kwonly && PyList_GET_SIZE(kwonly)) {
        UNSUPPORTED(fe, PyList_GET_ITEM(kwonly, 0),
                    "keyword-only parameters are not supported yet");
        return -1;
    }
    if ((star = A(args, "kwarg"))) {
        UNSUPPORTED(fe, star, "**%s parameters (arbitrary keyword arguments) are not supported yet",
                    kn_fe_str_of(fe, A(star, "arg")));
        return -1;
    }
    star = A(args, "vararg"); /* *args: one more parameter, a tuple (functions.c) */
    Py_ssize_t nposonly = posonly ? PyList_GET_SIZE(posonly) : 0;
    if (nposonly + (pos ? PyList_GET_SIZE(pos) : 0) + (star != NULL) > KN_MAX_PARAMS) {
        Py_ssize_t k = KN_MAX_PARAMS - nposonly; /* the first parameter too many */
        PyObject *extra = k < 0                      ? PyList_GET_ITEM(posonly, KN_MAX_PARAMS)
                          : k < PyList_GET_SIZE(pos) ? PyList_GET_ITEM(pos, k)
                                                     : star;
        UNSUPPORTED(fe, extra, "functions of more than %d parameters are not supported",
                    KN_MAX_PARAMS);
        return -1;
    }
    PyObject *lists[2] = {posonly, pos};
    for (int l = 0; l < 2; l++) {
        for (Py_ssize_t i = 0; lists[l] && i < PyList_GET_SIZE(lists[l]); i++) {
            PyObject *a = PyList_GET_ITEM(lists[l], i);
            KnSpan sp = span_of(fe, a);
            int v = kn_fe_add_var(fe, kn_fe_str_of(fe, A(a, "arg")), sp);
            fe->b.fn->vars.items[v].is_param = 1;
            KN_TRY(PySet_Add(fe->locals, A(a, "arg")));
        }
    }
    if (star) {
        int v = kn_fe_add_var(fe, kn_fe_str_of(fe, A(star, "arg")), span_of(fe, star));
        fe->b.fn->vars.items[v].is_param = 1;
        KN_TRY(PySet_Add(fe->locals, A(star, "arg")));
    }
    KN_TRY(kn_fe_captured_params(fe)); /* a lifted inner function's captures: functions.c */
    fe->b.fn->nparams = fe->b.fn->vars.len;
    for (int i = 0; i < fe->b.fn->nparams; i++) {
        KnSpan sp = fe->b.fn->vars.items[i].span;
        Val a = kn_kir_emit(&fe->b, KN_OP_ARG, sp, 0, NULL);
        a->aux = i;
        kn_fe_store(fe, sp, i, a);
    }
    return 0;
}

static int
body(FE *fe, PyObject *def)
{
    if (is(def, "Lambda")) {
        Val v = kn_fe_expr(fe, A(def, "body"));
        if (!v)
            return -1;
        emit(fe, KN_OP_RET, def, 1, &v);
        return 0;
    }
    KN_TRY(kn_fe_stmts(fe, A(def, "body")));
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
    fe->def = def;
    PyObject *code = PyObject_GetAttrString(fe->func, "__code__");
    int is_gen = code && PyCode_Check(code) && (((PyCodeObject *)code)->co_flags & CO_GENERATOR);
    Py_XDECREF(code);
    fe->b.fn->is_generator = is_gen; /* compiled as a resumable frame (generators.c) */
    if (is_gen)
        KN_TRY(kn_fe_gen_refuse(fe, def));
    fe->b.cur = kn_kir_block_new(&fe->b);
    KN_TRY(params(fe, def));
    if (is(def, "FunctionDef")) {
        KN_TRY(kn_fe_collect_locals(fe, A(def, "body")));
        KN_TRY(kn_fe_find_iterator_vars(fe, def)); /* it = iter(x): iter.c */
    }
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
    if (!fe.locals || kn_fe_setup_closure(&fe) < 0)
        return -1;
    kn_map_init(&fe.var_names);
    kn_map_init(&fe.iter_vals);
    PyObject *src = PyObject_CallMethod(env->support, "find_definition", "O", func);
    int rc = src ? build(&fe, src) : -1;
    kn_map_fini(&fe.var_names);
    kn_map_fini(&fe.iter_vals);
    Py_XDECREF(fe.iter_names);
    Py_XDECREF(src);
    Py_DECREF(fe.locals);
    Py_XDECREF(fe.closure);
    Py_XDECREF(fe.fn_defs);
    return rc;
}
