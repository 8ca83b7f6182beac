/* internal.h - what the frontend's files share (private to src/frontend/).
 *
 * The frontend walks the ast of one function and emits untyped KIR through one FE, the state of
 * that walk: the compilation, the KIR builder and its current block, the name sets of the
 * function (locals, closure cells, globals, builtins), the stack of enclosing loops (for break
 * and continue) and the map from variable names to KIR variables. The small ast accessors (A,
 * Aint, kind, is, span_of) and emit are inline here; everything else that crosses files is a
 * kn_fe_ function of the file named above its prototype: frontend.c (set-up, entry and the
 * diagnostics helpers), names.c (variables, name resolution and freezing), expr.c
 * (expressions), stmt.c (statements), loops.c (while and for), generators.c (generators
 * inlined into their consumer). Only the frontend's .c files
 * include this header; it includes none of them. */
#ifndef KN_FRONTEND_INTERNAL_H
#define KN_FRONTEND_INTERNAL_H

#include "frontend/frontend.h"

#include <stdarg.h>
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
    KnMap var_names; /* hash of a variable's name -> its index + 1 (the first of a hash) */
    /* try.c: the try statements and except clauses around (or NULL) */
    struct KnFeExc *exc;
    void *gen;            /* generators.c: the GenCtx of the generator being inlined, or NULL */
    PyObject *iter_names; /* names that hold an iterator made once (iter.c), or NULL */
    KnMap iter_vals;      /* hash of such a name -> its GETITER */
    /* unroll.c: inside one copy of an unrolled loop's body, the name alias_name is the
     * variable alias_var (that copy's own) */
    const char *alias_name;
    int alias_var;
    /* functions.c: the FunctionDef or Lambda being compiled (borrowed); a new dict or NULL:
     * local name -> (def or lambda node, code name) of the one inner function it is bound to */
    PyObject *def;
    PyObject *fn_defs;
} FE;

typedef KnInstr *Val;

/* ---- ast access ---- */

/* Attribute of an ast node, borrowed: ast nodes keep their fields in their __dict__, which the
 * tree (alive for the whole frontend run) owns. NULL, with no error set, when absent or None. */
static inline PyObject *
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

static inline int
Aint(PyObject *node, const char *name)
{
    PyObject *v = A(node, name);
    return v ? (int)PyLong_AsLong(v) : 0;
}

static inline const char *
kind(PyObject *node)
{
    const char *n = Py_TYPE(node)->tp_name;
    const char *dot = strrchr(n, '.');
    return dot ? dot + 1 : n;
}

static inline int
is(PyObject *node, const char *k)
{
    return node && !strcmp(kind(node), k);
}

static inline KnSpan
span_of(FE *fe, PyObject *node)
{
    KnSpan s;
    s.line = Aint(node, "lineno") + fe->line_off;
    s.col = Aint(node, "col_offset") + fe->col_off + 1;
    s.end_line = Aint(node, "end_lineno") + fe->line_off;
    s.end_col = Aint(node, "end_col_offset") + fe->col_off + 1;
    return s;
}

static inline Val
emit(FE *fe, KnOp op, PyObject *node, int n, KnInstr **args)
{
    return kn_kir_emit(&fe->b, op, span_of(fe, node), n, args);
}

#define UNSUPPORTED(fe, node, ...) kn_fe_fail(fe, node, KN_DIAG_UNSUPPORTED, __VA_ARGS__)
/* frontend.c: the text of the pending Python exception copied into buf (NULL when it has none),
 * the exception cleared */
const char *kn_fe_take_error_text(char *buf, size_t n);
#define TYPING(fe, node, ...) kn_fe_fail(fe, node, KN_DIAG_TYPING, __VA_ARGS__)

/* frontend.c */
const char *kn_fe_str_of(FE *fe, PyObject *s);
/* Report a diagnostic of kind k at node; returns NULL so that expression code can `return`
 * it. */
void *kn_fe_fail(FE *fe, PyObject *node, KnDiagKind k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
Val kn_fe_const_int(FE *fe, KnSpan sp, int64_t v, KnType *t);

/* names.c */
int kn_fe_add_var(FE *fe, const char *name, KnSpan sp);
int kn_fe_temp_var(FE *fe, const char *what, KnSpan sp);
int kn_fe_local_var(FE *fe, const char *name, KnSpan sp);
Val kn_fe_load(FE *fe, KnSpan sp, int var);
void kn_fe_store(FE *fe, KnSpan sp, int var, Val v);
KnType *kn_fe_numpy_type_by_name(const char *name); /* names.c: "float64" -> float64 */
/* datetime.c: a global np.datetime64 / np.timedelta64 scalar as a constant, NULL if o is none */
Val kn_fe_frozen_datetime(FE *fe, PyObject *node, PyObject *o);
Val kn_fe_frozen(FE *fe, PyObject *node, PyObject *o, const char *what);
/* frozen.c: a NumPy array (exactly ndarray) frozen as a read-only copy (GLOBAL of an array type,
 * imm.ptr a KnFrozenArray); NULL when o is no ndarray, or with a diagnostic */
Val kn_fe_frozen_array(FE *fe, PyObject *node, PyObject *o, const char *what);
/* namedtuple.c: whether o is a namedtuple class; a call of one (callee its frozen CLASS) */
int kn_fe_is_namedtuple_class(PyObject *o);
Val kn_fe_namedtuple_new(FE *fe, PyObject *node, Val callee);
/* enum.c: whether o is an enum class; a member frozen as a CONST of its ENUM type (NULL when o
 * is none, or with a diagnostic) */
int kn_fe_is_enum_class(PyObject *o);
Val kn_fe_frozen_enum(FE *fe, PyObject *node, PyObject *o, const char *what);
Val kn_fe_enum_call(FE *fe, PyObject *node, Val callee);
int kn_fe_raise_text(FE *fe, PyObject *node, PyObject *cls, Val msg);
PyObject *kn_fe_lookup_global(FE *fe, PyObject *name);
Val kn_fe_name_load(FE *fe, PyObject *node);
int kn_fe_collect_locals(FE *fe, PyObject *body);
int kn_fe_setup_closure(FE *fe);

/* expr.c */
int kn_fe_binop_of(PyObject *op);
PyObject *kn_fe_const_eval(FE *fe, PyObject *node);
Val kn_fe_index_expr(FE *fe, PyObject *sl);
Val kn_fe_expr(FE *fe, PyObject *node);

/* stmt.c */
int kn_fe_assign_to(FE *fe, PyObject *target, Val v);
int kn_fe_branch(FE *fe, PyObject *test, KnSpan sp, KnBlock *t, KnBlock *f);
int kn_fe_stmts(FE *fe, PyObject *body);

/* comprehension.c */
Val kn_fe_list_display(FE *fe, PyObject *node);
Val kn_fe_listcomp(FE *fe, PyObject *node);
Val kn_fe_lambda(FE *fe, PyObject *node); /* a lambda as a value: a jitted function */
/* functions.c: a call with starred arguments f(*t) (callee already emitted) */
int kn_fe_has_starred(PyObject *node);
int kn_fe_refuse_double_star(FE *fe, PyObject *node); /* f(**m): -1, an error at it */
Val kn_fe_star_call(FE *fe, PyObject *node, Val callee);
/* functions.c: the code object has a *args parameter; the tuple of a call's positional
 * arguments from index `from` on (the callee's *args), or NULL with a diagnostic */
int kn_fe_takes_varargs(PyObject *code);
Val kn_fe_varargs_tuple(FE *fe, PyObject *node, int from);
/* functions.c: inner functions and lambdas as values (a closure tuple when they capture
 * variables); the hidden parameters of a lifted inner function (its captured variables) */
int kn_fe_def_stmt(FE *fe, PyObject *node);
Val kn_fe_function_value(FE *fe, PyObject *node, const char *name);
int kn_fe_captured_params(FE *fe);
/* functions.c: `f = lambda ...` (an Assign) noted as f's one binding; the value of a load of
 * a name bound only to an inner function (rebuilt from the current values), NULL if not one */
int kn_fe_note_lambda(FE *fe, PyObject *assign);
Val kn_fe_function_load(FE *fe, PyObject *name_node, int *handled);
/* dictcomp.c: dict and set displays and comprehensions */
Val kn_fe_dict_display(FE *fe, PyObject *node);
Val kn_fe_set_of(FE *fe, PyObject *call);                /* set(iterable) */
Val kn_fe_dict_of(FE *fe, PyObject *call, int *handled); /* dict(zip(a, b)), dict(k=v) */

/* fstring.c */
Val kn_fe_fstring(FE *fe, PyObject *node); /* JoinedStr */
/* 'literal'.format(...): *handled 0 when node is another call */
Val kn_fe_str_format(FE *fe, PyObject *node, int *handled);

/* try.c: try/except/finally, raise, and what return/break/continue run on the way out */
int kn_fe_try_stmt(FE *fe, PyObject *node);
int kn_fe_raise_stmt(FE *fe, PyObject *node);
int kn_fe_raise_with(FE *fe, PyObject *node, PyObject *cls, PyObject *args); /* constant args */
/* what return (NULL on error) and break/continue run on their way out */
Val kn_fe_exc_return(FE *fe, PyObject *node, Val v);
int kn_fe_exc_leave_loop(FE *fe, PyObject *node);
/* 1, with a diagnostic, when node names the exception of `except ... as e` */
/* the caught exception `e` of an except clause read (try.c): as a Name (marked text uses, else
 * an error), str(e)/repr(e) and the marks of print(e)/format(e), e.args, f"{e}" (the
 * conversion still to apply) */
Val kn_fe_exc_name_value(FE *fe, PyObject *node, int *handled);
Val kn_fe_exc_call(FE *fe, PyObject *node, int *handled);
Val kn_fe_exc_attr(FE *fe, PyObject *node, int *handled);
int kn_fe_exc_fvalue(FE *fe, PyObject *value, int conversion, int has_spec);
/* iter.c: consumers and wrappers of iterables rewritten into loops (kiln/_iter.py) */
Val kn_fe_iter_call(FE *fe, PyObject *node, Val callee, int *handled);
/* str.upper(s) as s.upper(); str.upper as a value: a jitted `lambda s: s.upper()` (iter.c) */
Val kn_fe_unbound_call(FE *fe, PyObject *node, int *handled);
/* dict(x, k=v, **m), dict(**m): kiln._iter.rewrite_dict (iter.c) */
Val kn_fe_dict_rewrite(FE *fe, PyObject *call);
Val kn_fe_unbound_value(FE *fe, PyObject *node, int *handled);
/* a for over map/filter/...: *handled; a for over an iterator variable: *it, its GETITER */
int kn_fe_iter_for(FE *fe, PyObject *node, int *handled, Val *it);
int kn_fe_find_iterator_vars(FE *fe, PyObject *def);             /* it = iter(x) */
int kn_fe_iterator_assign(FE *fe, PyObject *node, int *handled); /* its GETITER */
PyObject *kn_fe_internal_name(FE *fe, PyObject *name);     /* $kn_<x>: kiln._iter.<x>, borrowed */
int kn_fe_starred_assign(FE *fe, PyObject *target, Val v); /* a, *b = v */
Val kn_fe_walrus(FE *fe, PyObject *node);                  /* (x := v) */
int kn_fe_collect_walrus(FE *fe, PyObject *stmt);          /* its targets are locals */
int kn_fe_global_stmt(FE *fe, PyObject *node);             /* global / nonlocal */

/* loops.c */
int kn_fe_while_stmt(FE *fe, PyObject *node);
int kn_fe_for_stmt(FE *fe, PyObject *node);
Val kn_fe_iter_of(FE *fe, PyObject *node); /* the iterator over x, zip(...), enumerate(...) */
int kn_fe_push_loop(FE *fe, PyObject *node, KnBlock *brk, KnBlock *cont); /* break, continue */

/* expr.c: a jitted call's arguments bound to the callee's parameters (keywords, defaults) */
int kn_fe_bind_call_args(FE *fe, PyObject *call, PyObject *callee, KnInstr ***out, int *n);

/* generators.c: generators inlined into their consumer */
int kn_fe_gen_for(FE *fe, PyObject *node); /* 1: not a generator, the caller goes on */
Val kn_fe_gen_call(FE *fe, PyObject *call, int *handled);
int kn_fe_yield_stmt(FE *fe, PyObject *stmt);
int kn_fe_gen_return(FE *fe, PyObject *node);
int kn_fe_gen_refuse(FE *fe, PyObject *def); /* -1 at a form a compiled generator cannot have */
Val kn_fe_genexp_value(FE *fe, PyObject *node);
Val kn_fe_yield_value(FE *fe, PyObject *node);
/* loops.c: the for loop `node` over the value seqv (its target, body and else clause) */
int kn_fe_for_over(FE *fe, PyObject *node, Val seqv);
/* unroll.c: for x in literal_unroll(t): the body once per item of the tuple t */
int kn_fe_literal_unroll(FE *fe, PyObject *node);
int kn_fe_is_module_builtin_call(FE *fe, PyObject *call, int id);

#endif
