/* dispatcher.c - the Dispatcher type: what @njit returns.
 *
 * A call (vectorcall) computes the kiln type of each argument (a cheap fingerprint: exact
 * Python types and NumPy scalar dtypes map to interned KnType pointers), finds the overload
 * whose parameter types are the same pointers, unboxes the arguments into a C-layout buffer and
 * calls the overload's wrapper. A miss compiles under the process's compile lock (reentrant,
 * so compiling f may compile its callees; a second thread waits and then finds the overload).
 * Once signatures were given explicitly, only they are used, with safe conversions. A signature
 * that failed to compile keeps its exception and raises it again without recompiling.
 *
 * Overloads own their code through a JIT resource tracker, removed when the dispatcher dies;
 * they keep alive every object their code refers to (callees included), so code is never freed
 * while other code can still call it. */
#include "dispatch/dispatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jit/jit.h"
#include "passes/passes.h"
#include "runtime/runtime.h"

typedef struct Overload {
    int nargs;
    KnType **args; /* interned; heap array */
    KnType *ret;
    char *symbol, *wrapper;
    KnWrapperFn entry; /* looked up on first call */
    void *rt;          /* LLVMOrcResourceTrackerRef */
    PyObject *keepalive;
    PyObject *var_info;  /* list of (line, name, type name) for inspect_types */
    PyObject *par_notes; /* list of (line, col, what, parallel, why) for parallel_diagnostics */
    size_t argbuf_size;
    size_t *offsets; /* of each argument in the argument buffer */
    int failed;      /* 1: compiling raised `error` */
    int can_raise;   /* 0: the native function has no status code (its callers check none) */
    int recursive;   /* in a recursion cycle: the native function takes a stack limit last */
    void *bitcode;   /* the optimized module, for inlining into callers (malloc), or NULL */
    size_t bitcode_size;
    PyObject *error; /* the exception instance, for failed entries */
    int generator;   /* a generator function: calls make a kiln.generator (box_generator.c) */
    KnGenStart gen;
} Overload;

typedef struct Dispatcher {
    PyObject_HEAD vectorcallfunc vectorcall;
    PyObject *py_func;
    PyObject *dict;
    PyObject *weakrefs;
    PyObject *options;
    unsigned fastmath;
    int boundscheck, error_model_python;
    int thunk;      /* option _thunk: kiln.extending's binding of a call to an implementation */
    int nogil;      /* release the GIL while compiled code runs */
    int parallel;   /* parallel=True */
    Overload **ovs; /* compiled and failed signatures */
    int nov, cap;
    Overload **retired; /* replaced by recompile(); their code may still be called */
    int nretired, capretired;
    int explicit_sigs;
    /* inline='always' or forceinline=True; jit(nopython=False): a failed compile says that
     * there is no object mode to fall back to */
    int inline_always, nopython_false;
} Dispatcher;

struct KnFrame {
    Dispatcher *disp;
    KnType **args;
    int nargs;
    KnCompilation *c;
    KnFrame *outer;
    /* mutual recursion: frames further out whose symbol this compilation calls before they
     * are done, and overloads finished inside this frame that call its symbol. If this frame
     * fails, those overloads fail too (their code would call a symbol that never exists). */
    KnFrame *needs[8];
    int nneeds;
    Overload *dependents[32];
    int ndependents;
};

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- the compile lock ---- */

static void
lock_acquire(KnState *s)
{
    unsigned long me = PyThread_get_thread_ident();
    if (s->lock_depth && s->lock_owner == me) {
        s->lock_depth++;
        return;
    }
    if (!PyThread_acquire_lock(s->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(s->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    s->lock_owner = me;
    s->lock_depth = 1;
}

static void
lock_release(KnState *s)
{
    if (--s->lock_depth == 0) {
        s->lock_owner = 0;
        PyThread_release_lock(s->lock);
    }
}

/* ---- overloads ---- */

static void
overload_free(Overload *ov)
{
    if (!ov)
        return;
    kn_jit_remove(ov->rt);
    Py_XDECREF(ov->keepalive);
    Py_XDECREF(ov->var_info);
    Py_XDECREF(ov->par_notes);
    Py_XDECREF(ov->error);
    free(ov->args);
    free(ov->offsets);
    free(ov->bitcode);
    free(ov->symbol);
    free(ov->wrapper);
    free(ov);
}

static Overload *
find_exact(Dispatcher *d, KnType **args, int n)
{
    for (int i = 0; i < d->nov; i++) {
        Overload *ov = d->ovs[i];
        if (ov->nargs == n && !memcmp(ov->args, args, sizeof(KnType *) * (size_t)n))
            return ov;
    }
    return NULL;
}

/* The explicit signature these arguments convert to best, as Numba's dispatcher chooses once
 * compiling is disabled: unsafe conversions allowed (kn_type_conversion), fewest unsafe, then
 * fewest safe, then fewest promoted arguments. *tie: another signature rates the same (Numba's
 * "Ambiguous overloading" TypeError). */
static Overload *
find_best(Dispatcher *d, KnType **args, int n, Overload **tie)
{
    Overload *best = NULL;
    *tie = NULL;
    int best_rank[3] = {0, 0, 0};
    for (int i = 0; i < d->nov; i++) {
        Overload *ov = d->ovs[i];
        if (ov->failed || ov->nargs != n)
            continue;
        int rank[3] = {0, 0, 0}, ok = 1; /* counts of unsafe, safe, promoted arguments */
        for (int k = 0; ok && k < n; k++) {
            KnConversion conv = kn_type_conversion(args[k], ov->args[k]);
            ok = conv != KN_CONV_NONE;
            if (ok && conv != KN_CONV_EXACT)
                rank[KN_CONV_UNSAFE - conv]++;
        }
        int better = ok && !best, worse = !ok;
        for (int r = 0; ok && best && r < 3 && !better && !worse; r++) {
            better = rank[r] < best_rank[r];
            worse = rank[r] > best_rank[r];
        }
        if (better) {
            best = ov;
            *tie = NULL;
            memcpy(best_rank, rank, sizeof rank);
        } else if (ok && !worse && !*tie) {
            *tie = ov;
        }
    }
    return best;
}

static Overload *
find_convertible(Dispatcher *d, KnType **args, int n)
{
    Overload *tie;
    Overload *ov = find_best(d, args, n, &tie);
    return tie ? NULL : ov;
}

/* "Ambiguous overloading for f (int64,)": the signatures that rate the same, as Numba says */
static void
ambiguous(Dispatcher *d, KnType **args, int n, KnStrBuf *sb)
{
    Overload *tie, *best = find_best(d, args, n, &tie);
    PyObject *nm = PyObject_GetAttrString(d->py_func, "__qualname__");
    kn_sb_printf(sb, "Ambiguous overloading for %s (",
                 nm && PyUnicode_Check(nm) ? PyUnicode_AsUTF8(nm) : "?");
    Py_XDECREF(nm);
    PyErr_Clear();
    for (int i = 0; i < n; i++)
        kn_sb_printf(sb, "%s%s", i ? ", " : "", args[i]->name);
    kn_sb_printf(sb, "):");
    Overload *two[2] = {best, tie};
    for (int k = 0; k < 2; k++) {
        kn_sb_printf(sb, "\n(");
        for (int i = 0; i < n; i++)
            kn_sb_printf(sb, "%s%s", i ? ", " : "", two[k]->args[i]->name);
        kn_sb_printf(sb, ") -> %s", two[k]->ret ? two[k]->ret->name : "?");
    }
}

/* No single explicit signature fits: TypeError, ambiguous or no match */
static int
is_ambiguous(Dispatcher *d, KnType **args, int n)
{
    Overload *tie;
    return find_best(d, args, n, &tie) && tie;
}

static void
add_overload(Dispatcher *d, Overload *ov)
{
    KN_HVEC_PUSH(*(struct {
                      Overload **items;
                      int len, cap;
                  } *)&d->ovs,
                 ov);
}

/* ---- errors ---- */

PyObject *
kn_support(void)
{
    if (!kn_state->support)
        kn_state->support = PyImport_ImportModule("kiln._support");
    return kn_state->support;
}

static PyObject *
span_tuple(const char *msg, const char *file, KnSpan s)
{
    if (!s.line)
        return Py_BuildValue("(sOOOOO)", msg, Py_None, Py_None, Py_None, Py_None, Py_None);
    return Py_BuildValue("(ssiiii)", msg, file, s.line, s.col, s.end_line, s.end_col);
}

/* The first diagnostic of a failed compilation, as a kiln.errors exception instance. */
static PyObject *
diag_exception(KnCompilation *c, Dispatcher *d)
{
    static const char *const kinds[] = {"typing", "unsupported", "lowering"};
    KnDiag *diag = &c->diags.items.items[0];
    const char *file = c->fn ? c->fn->filename : "<unknown>";
    PyObject *notes = PyList_New(0);
    for (int i = 0; notes && i < diag->notes.len; i++) {
        KnNote *n = &diag->notes.items[i];
        PyObject *t = span_tuple(n->message, n->filename ? n->filename : file, n->span);
        if (!t || PyList_Append(notes, t) < 0)
            Py_CLEAR(notes);
        Py_XDECREF(t);
    }
    PyObject *support = kn_support();
    if (!notes || !support) {
        Py_XDECREF(notes);
        return NULL;
    }
    PyObject *exc = PyObject_CallMethod(support, "make_error", "sssiiiiO", kinds[diag->kind],
                                        diag->message, file, diag->span.line, diag->span.col,
                                        diag->span.end_line, diag->span.end_col, notes);
    Py_DECREF(notes);
    KN_UNUSED(d);
    return exc;
}

/* ---- compiling ---- */

static void
sanitize(char *dst, size_t cap, const char *name)
{
    size_t i = 0;
    for (; name[i] && i + 1 < cap; i++)
        dst[i] = (name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') ||
                  (name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9'))
                     ? name[i]
                     : '_';
    dst[i] = '\0';
}

static unsigned
dump_flags(void)
{
    const char *e = getenv("KILN_DUMP");
    if (!e || !*e)
        return 0;
    unsigned f = 0;
    if (strstr(e, "kir"))
        f |= KN_DUMP_KIR;
    if (strstr(e, "typed"))
        f |= KN_DUMP_TYPED;
    if (strstr(e, "llvm"))
        f |= KN_DUMP_LLVM;
    if (strstr(e, "opt"))
        f |= KN_DUMP_OPT;
    if (strstr(e, "asm"))
        f |= KN_DUMP_ASM;
    if (strstr(e, "time"))
        f |= KN_DUMP_TIME;
    if (strstr(e, "all"))
        f = 0xff;
    return f;
}

static PyObject *
var_info(KnCompilation *c)
{
    PyObject *l = PyList_New(0);
    KnFunction *fn = c->fn;
    for (int i = 0; l && i < fn->vars.len; i++) {
        KnVar *v = &fn->vars.items[i];
        if (v->name[0] == '$' || !v->type)
            continue;
        PyObject *t = Py_BuildValue("(iss)", v->span.line, v->name, v->type->name);
        if (!t || PyList_Append(l, t) < 0)
            Py_CLEAR(l);
        Py_XDECREF(t);
    }
    return l;
}

/* The compilation's parallel_diagnostics() notes as a list of (line, col, what, parallel, why) */
static PyObject *
par_notes(KnCompilation *c)
{
    PyObject *l = PyList_New(0);
    for (const KnParNote *p = c->par_notes; l && p; p = p->next) {
        PyObject *t = Py_BuildValue("(iisOz)", p->span.line, p->span.col, p->what,
                                    p->parallel ? Py_True : Py_False, p->why);
        if (!t || PyList_Append(l, t) < 0)
            Py_CLEAR(l);
        Py_XDECREF(t);
    }
    return l;
}

static int builtins_setup(KnState *s);
static void numba_aliases(KnState *s);

/* A compilation failed: overloads that call its symbol can never link; they fail with its
 * error (the exception being raised). */
static void
fail_dependents(KnFrame *frame)
{
    if (!frame->ndependents)
        return;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    for (int i = 0; i < frame->ndependents; i++) {
        Overload *ov = frame->dependents[i];
        ov->failed = 1;
        Py_XINCREF(value);
        Py_XSETREF(ov->error, value);
    }
    PyErr_Restore(type, value, tb);
}
static const KnHooks hooks;

/* Run the whole pipeline for one signature. Fills ov (symbol, ret, rt...) or returns -1 with a
 * Python exception set. With text != NULL, only produce the texts for inspect_*. */
static int
run_compile(Dispatcher *d, KnType **args, int n, KnType *declared_ret, Overload *ov,
            KnCompilation *text)
{
    KnState *s = kn_state;
    if (!s->jit) {
        PyErr_Format(PyExc_RuntimeError, "kiln: the LLVM JIT is not available: %s",
                     s->jit_error ? s->jit_error : "unknown error");
        return -1;
    }
    double tb = now_ms();
    KN_TRY(builtins_setup(s));
    kn_dispatch_refresh_builtins();
    if (dump_flags() & KN_DUMP_TIME)
        fprintf(stderr, "kiln: builtins %.2f ms\n", now_ms() - tb);
    KnCompilation local, *c = text ? text : &local;
    kn_compile_init(c, &s->types, s->jit);
    c->hooks = &hooks;
    c->hooks_ctx = s;
    c->fastmath = d->fastmath;
    c->boundscheck = d->boundscheck;
    c->error_model_python = d->error_model_python;
    c->thunk = d->thunk;
    c->parallel = d->parallel;
    c->inline_always = d->inline_always;
    c->dump = dump_flags();
    c->declared_ret = declared_ret;
    c->arg_types = args;
    c->nargs = n;
    c->want_text = text != NULL;
    c->text_only = text != NULL;
    PyObject *qn = PyObject_GetAttrString(d->py_func, "__qualname__");
    char base[96];
    sanitize(base, sizeof base, qn && PyUnicode_Check(qn) ? PyUnicode_AsUTF8(qn) : "f");
    Py_XDECREF(qn);
    PyErr_Clear();
    c->symbol = kn_arena_printf(&c->arena, "kn_%s_%ld", base, ++s->counter);
    c->wrapper = kn_arena_printf(&c->arena, "%s_wrap", c->symbol);
    numba_aliases(s);
    PyObject *keep = PyList_New(0);
    KnFrontendEnv env = {(PyObject *)&KnDispatcher_Type,
                         s->builtin_ids,
                         s->exc_table,
                         kn_support(),
                         keep,
                         s->overloads,
                         kn_dispatch_refresh_builtins};
    KnFrame frame = {d, args, n, c, s->compiling, {0}, 0, {0}, 0};
    int rc = -1;
    if (!keep || !env.support || kn_dispatch_set_locals(c, d->options) < 0)
        goto done;
    s->compiling = &frame;
    double t0 = (c->dump & KN_DUMP_TIME) ? now_ms() : 0;
    rc = kn_frontend_build(c, &env, d->py_func);
    if (c->dump & KN_DUMP_TIME)
        fprintf(stderr, "kiln: %s: frontend %.2f ms\n", c->fn ? c->fn->name : "?", now_ms() - t0);
    if (rc == 0) {
        if (c->fn->nparams != n) {
            PyErr_Format(PyExc_TypeError, "%s() takes %d arguments but %d were given", c->fn->name,
                         c->fn->nparams, n);
            rc = -1;
        } else {
            rc = kn_compile_run(c);
        }
    }
    s->compiling = frame.outer;
    if (rc < 0) {
        if (!PyErr_Occurred()) {
            if (d->nopython_false && c->diags.items.len && c->fn)
                kn_diag_note(&c->diags, &c->diags.items.items[0], c->fn->span,
                             "jit(nopython=False): kiln has no object mode to fall back to "
                             "(object mode is not implemented; it compiles in nopython mode)");
            PyObject *exc = c->diags.items.len ? diag_exception(c, d) : NULL;
            if (exc) {
                PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
                Py_DECREF(exc);
            } else if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_RuntimeError, "kiln: compilation failed");
            }
        }
        fail_dependents(&frame);
        goto done;
    }
    if (!text) {
        ov->ret = c->fn->ret_type;
        ov->symbol = strdup(c->symbol);
        ov->wrapper = strdup(c->wrapper);
        KnCode *code = kn_ctx_need(c, KN_SIDE_CODE, sizeof(KnCode));
        const KnRaises *raises = kn_ctx_get(c, KN_SIDE_RAISES);
        ov->rt = code->resource_tracker;
        ov->argbuf_size = kn_type_args_size(args, n);
        ov->offsets = malloc(sizeof(size_t) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            ov->offsets[i] = kn_type_arg_offset(args, i);
        ov->var_info = var_info(c);
        ov->par_notes = par_notes(c);
        ov->can_raise = raises && raises->can_raise;
        ov->recursive = c->in_cycle;
        ov->bitcode = code->bitcode;
        ov->bitcode_size = code->bitcode_size;
        ov->generator = c->fn->is_generator;
        if (ov->generator) {
            ov->bitcode = NULL; /* never inlined: callers do not call it */
            free(code->bitcode);
            KnGenStart g = {.symbol = ov->symbol,
                            .yield = c->fn->yield_type ? c->fn->yield_type : &kn_type_none,
                            .nargs = n,
                            .args = ov->args,
                            .offsets = ov->offsets,
                            .argbuf_size = ov->argbuf_size};
            ov->gen = g;
        }
        code->bitcode = NULL;
        ov->keepalive = keep;
        keep = NULL;
        for (int i = 0; i < frame.nneeds; i++) {
            KnFrame *f = frame.needs[i];
            if (f->ndependents < KN_ARRAY_LEN(f->dependents))
                f->dependents[f->ndependents++] = ov;
        }
    }
done:
    Py_XDECREF(keep);
    if (!text)
        kn_compile_fini(c);
    return rc;
}

static Overload *
overload_new(KnType **args, int n)
{
    Overload *ov = calloc(1, sizeof(Overload));
    ov->nargs = n;
    ov->args = malloc(sizeof(KnType *) * (size_t)(n ? n : 1));
    memcpy(ov->args, args, sizeof(KnType *) * (size_t)n);
    return ov;
}

/* Compile (or find) the overload for exactly these argument types. Borrowed result, or NULL
 * with an exception set (a failed signature raises its stored error again). */
static Overload *
compile_overload(Dispatcher *d, KnType **args, int n, KnType *declared_ret)
{
    KnState *s = kn_state;
    lock_acquire(s);
    Overload *ov = find_exact(d, args, n);
    if (!ov) {
        ov = overload_new(args, n);
        if (run_compile(d, args, n, declared_ret, ov, NULL) < 0) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_NormalizeException(&type, &value, &tb);
            ov->failed = 1;
            ov->error = value;
            Py_XINCREF(value);
            /* errors that are not kiln's (a KeyboardInterrupt...) are not remembered */
            PyObject *support = kn_support();
            PyObject *kerr = support ? PyObject_GetAttrString(support, "KilnError") : NULL;
            int is_kiln = kerr && value && PyObject_IsInstance(value, kerr) > 0;
            Py_XDECREF(kerr);
            PyErr_Clear();
            PyErr_Restore(type, value, tb);
            if (is_kiln)
                add_overload(d, ov);
            else
                overload_free(ov);
            lock_release(s);
            return NULL;
        }
        add_overload(d, ov);
    }
    lock_release(s);
    if (ov->failed) {
        PyErr_SetObject((PyObject *)Py_TYPE(ov->error), ov->error);
        return NULL;
    }
    return ov;
}

/* A note at the call site on the pending KilnError of a callee that failed to compile. */
static void
add_call_note(KnCompilation *c, Dispatcher *d, KnType **args, int n, KnSpan span)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *support = kn_support();
    PyObject *kerr = support ? PyObject_GetAttrString(support, "KilnError") : NULL;
    if (kerr && value && PyObject_IsInstance(value, kerr) > 0 && c->fn) {
        KnStrBuf sb;
        kn_sb_init(&sb);
        PyObject *nm = PyObject_GetAttrString(d->py_func, "__name__");
        kn_sb_printf(&sb, "in the call of %s(",
                     nm && PyUnicode_Check(nm) ? PyUnicode_AsUTF8(nm) : "?");
        Py_XDECREF(nm);
        for (int i = 0; i < n; i++)
            kn_sb_printf(&sb, "%s%s", i ? ", " : "", args[i]->name);
        kn_sb_printf(&sb, ") from %s", c->fn->name);
        PyObject *r =
            PyObject_CallMethod(support, "add_note", "Ossiiii", value, sb.data, c->fn->filename,
                                span.line, span.col, span.end_line, span.end_col);
        Py_XDECREF(r);
        kn_sb_fini(&sb);
    }
    Py_XDECREF(kerr);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
}

/* The typing hook: the type of a call to another (or the same) jitted function. */
static int
resolve_call(KnCompilation *c, void *ref, KnType **args, int n, KnSpan span, KnCallee *out)
{
    Dispatcher *d = ref;
    KnState *s = c->hooks_ctx;
    for (KnFrame *f = s->compiling; f; f = f->outer) {
        if (f->disp == d && f->nargs == n && !memcmp(f->args, args, sizeof(KnType *) * (size_t)n)) {
            /* recursion: use the return type typed so far (NULL: not known yet) */
            out->ret = f->c->fn ? f->c->fn->ret_type : NULL;
            out->symbol = f->c->symbol;
            out->params = NULL;
            out->can_raise = 1;
            out->recursive = 1;
            /* every overload from here out to f is in the cycle (all are still typing) */
            for (KnFrame *g = s->compiling; g; g = g->outer) {
                g->c->in_cycle = 1;
                if (g == f)
                    break;
            }
            if (f != s->compiling)
                f->c->force_status = 1; /* a partner calls it before its ABI is known */
            KnRecursionSeen *saw = kn_ctx_need(f->c, KN_SIDE_RECURSION, sizeof(KnRecursionSeen));
            saw->partial_ret_used = 1;
            saw->ret_type_seen = out->ret;
            KnFrame *me = s->compiling;
            if (me && me != f && me->nneeds < KN_ARRAY_LEN(me->needs)) {
                int seen = 0;
                for (int k = 0; k < me->nneeds; k++)
                    seen |= me->needs[k] == f;
                if (!seen)
                    me->needs[me->nneeds++] = f;
            }
            return 0;
        }
    }
    Overload *ov = find_exact(d, args, n);
    if (!ov && d->explicit_sigs)
        ov = find_convertible(d, args, n);
    if (!ov || ov->failed) {
        if (d->explicit_sigs && !ov && is_ambiguous(d, args, n)) {
            KnStrBuf sb;
            kn_sb_init(&sb);
            ambiguous(d, args, n, &sb);
            kn_diag_error(&c->diags, KN_DIAG_TYPING, span, "%s", sb.data);
            kn_sb_fini(&sb);
            return -1;
        }
        if (d->explicit_sigs && !ov) {
            KnStrBuf sb;
            kn_sb_init(&sb);
            for (int i = 0; i < n; i++)
                kn_sb_printf(&sb, "%s%s", i ? ", " : "", args[i]->name);
            PyObject *nm = PyObject_GetAttrString(d->py_func, "__name__");
            kn_diag_error(&c->diags, KN_DIAG_TYPING, span,
                          "no compiled signature of %s accepts (%s)",
                          nm && PyUnicode_Check(nm) ? PyUnicode_AsUTF8(nm) : "the callee", sb.data);
            Py_XDECREF(nm);
            PyErr_Clear();
            kn_sb_fini(&sb);
            return -1;
        }
        ov = compile_overload(d, args, n, NULL);
    }
    if (!ov) {
        /* the callee's own error (at its own position) is the useful one: keep it set, with
         * a note at this call */
        add_call_note(c, d, args, n, span);
        kn_diag_error(&c->diags, KN_DIAG_TYPING, span, "in a call to a jitted function");
        return -1;
    }
    out->ret = ov->generator ? kn_type_gen(&s->types, ov->gen.yield, ov->symbol) : ov->ret;
    out->symbol = ov->symbol;
    out->params = ov->args;
    out->can_raise = ov->can_raise || ov->generator; /* making a frame: MemoryError */
    out->recursive = ov->recursive;
    out->bitcode = ov->bitcode;
    out->bitcode_size = ov->bitcode_size;
    return 0;
}

/* The message of the pending Python exception (a new string), which is cleared. */
static char *
take_error_text(void)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *msg = value ? PyObject_Str(value) : NULL;
    const char *txt = msg ? PyUnicode_AsUTF8(msg) : NULL;
    char *r = strdup(txt ? txt : "error");
    Py_XDECREF(msg);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    PyErr_Clear();
    return r;
}

/* The typing hook for calls implemented in Python: kiln.extending._resolve(kind, ref, name,
 * argument keys, keyword names, the caller's parallel flag) runs the overloads' typing functions
 * and returns the implementation's dispatcher (kept alive by kiln.extending's cache), True for a
 * method that exists (KN_OVERLOAD_HAS_METHOD), or None. An exception there (a TypingError of the
 * overload, or a bug in it) becomes a diagnostic at the call. */
static int
resolve_overload(KnCompilation *c, const KnOverloadQuery *q, KnSpan span, void **out)
{
    KnState *s = c->hooks_ctx;
    *out = NULL;
    if (!s->resolve)
        return 0;
    PyObject *keys = PyTuple_New(q->nargs), *kw = PyTuple_New(q->nkw), *res = NULL;
    int ok = keys && kw;
    for (int i = 0; ok && i < q->nargs; i++) {
        PyObject *k = q->strs && q->strs[i] ? Py_BuildValue("(sss)", "literal", "str", q->strs[i])
                                            : kn_box_key(q->args[i]);
        ok = k != NULL;
        if (ok)
            PyTuple_SET_ITEM(keys, i, k);
    }
    for (int i = 0; ok && i < q->nkw; i++) {
        PyObject *k = PyUnicode_FromString(q->kwnames[i]);
        ok = k != NULL;
        if (ok)
            PyTuple_SET_ITEM(kw, i, k);
    }
    if (ok)
        res = PyObject_CallFunction(s->resolve, "iOsOOi", (int)q->kind, q->ref ? q->ref : Py_None,
                                    q->name, keys, kw, c->parallel); /* parallel: stencils */
    Py_XDECREF(keys);
    Py_XDECREF(kw);
    if (!res) {
        char *msg = take_error_text();
        kn_diag_error(&c->diags, KN_DIAG_TYPING, span, "%s", msg);
        free(msg);
        return -1;
    }
    if (res != Py_None && res != Py_False) {
        if (q->kind == KN_OVERLOAD_HAS_METHOD) {
            *out = (void *)1;
        } else if (Py_TYPE(res) == &KnDispatcher_Type) {
            *out = res; /* borrowed: kiln.extending's cache holds it */
        } else {
            Py_DECREF(res);
            kn_diag_error(&c->diags, KN_DIAG_TYPING, span,
                          "kiln.extending: an implementation must be a jitted function");
            return -1;
        }
    }
    Py_DECREF(res);
    return 0;
}

static const KnHooks hooks = {resolve_call, resolve_overload, kn_dispatch_exc_match};

/* ---- builtin ids: map the Python objects of lib/registry.def to their ids ---- */

/* kiln's type objects as values: kiln.int32 is np.int32 in compiled code (kiln.types gives
 * the pairs), so it converts (kiln.int32(x)) and is a dtype (dtype=kiln.float32). */
static void
value_classes(PyObject *ids)
{
    PyObject *types = PyImport_ImportModule("kiln.types");
    PyObject *pairs = types ? PyObject_CallMethod(types, "_value_classes", NULL) : NULL;
    for (Py_ssize_t i = 0; pairs && PyList_Check(pairs) && i < PyList_GET_SIZE(pairs); i++) {
        PyObject *pair = PyList_GET_ITEM(pairs, i);
        PyObject *id = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2
                           ? PyDict_GetItemWithError(ids, PyTuple_GET_ITEM(pair, 1))
                           : NULL;
        if (id)
            PyDict_SetItem(ids, PyTuple_GET_ITEM(pair, 0), id);
    }
    PyErr_Clear();
    Py_XDECREF(pairs);
    Py_XDECREF(types);
}

static int
builtins_setup(KnState *s)
{
    if (s->builtin_ids)
        return 0;
    PyObject *ids = PyDict_New();
    if (!ids)
        return -1;
    PyObject *modules = PyImport_GetModuleDict();
    s->deferred_ids = malloc(sizeof(int) * KN_BI__COUNT);
    for (int id = 0; id < KN_BI__COUNT; id++) {
        if (kn_lib_flags(id) & (KN_CF_METHOD | KN_CF_ATTR))
            continue; /* methods and attributes are found by name, not by object */
        const char *mname = kn_kir_builtin_module(id);
        if (!strncmp(mname, "numpy.random", 12) && !PyDict_GetItemString(modules, mname)) {
            /* not imported by anyone yet, and costly to import (~25 ms): a function cannot
             * name it before it is (np.random, named, imports it while the frontend runs) */
            if (s->deferred_ids)
                s->deferred_ids[s->ndeferred++] = id;
            continue;
        }
        PyObject *mod = PyImport_ImportModule(kn_kir_builtin_module(id));
        PyObject *obj = mod ? PyObject_GetAttrString(mod, kn_kir_builtin_attr(id)) : NULL;
        PyObject *key = PyLong_FromLong(id);
        if (obj && key)
            PyDict_SetItem(ids, obj, key);
        PyErr_Clear();
        Py_XDECREF(obj);
        Py_XDECREF(key);
        Py_XDECREF(mod);
    }
    value_classes(ids);
    s->builtin_ids = ids;
    /* calls implemented in Python: kiln.extending's registry (kiln/lib registers there) */
    PyObject *ext = PyImport_ImportModule("kiln.extending");
    s->overloads = ext ? PyObject_GetAttrString(ext, "_registry") : NULL;
    s->resolve = ext ? PyObject_GetAttrString(ext, "_resolve") : NULL;
    Py_XDECREF(ext);
    if (!s->overloads || !s->resolve)
        return -1;
    return 0;
}

int
kn_dispatch_refresh_builtins(void)
{
    KnState *s = kn_state;
    if (!s->builtin_ids || !s->ndeferred)
        return 0;
    PyObject *modules = PyImport_GetModuleDict();
    int added = 0, kept = 0;
    for (int i = 0; i < s->ndeferred; i++) {
        int id = s->deferred_ids[i];
        PyObject *mod = PyDict_GetItemString(modules, kn_kir_builtin_module(id));
        if (!mod) {
            s->deferred_ids[kept++] = id;
            continue;
        }
        PyObject *obj = PyObject_GetAttrString(mod, kn_kir_builtin_attr(id));
        PyObject *key = PyLong_FromLong(id);
        if (obj && key && PyDict_SetItem(s->builtin_ids, obj, key) == 0)
            added++;
        PyErr_Clear();
        Py_XDECREF(obj);
        Py_XDECREF(key);
    }
    s->ndeferred = kept;
    if (added)
        value_classes(s->builtin_ids); /* kiln's type objects whose NumPy class just came */
    return added;
}

/* numba.literal_unroll and numba.literally as kiln's, when the user has imported numba (found
 * in sys.modules: kiln never imports it), so Numba code compiles unchanged */
static void
numba_aliases(KnState *s)
{
    static int done;
    PyObject *nb = done ? NULL : PyDict_GetItemString(PyImport_GetModuleDict(), "numba");
    if (!nb)
        return;
    done = 1;
    static const struct {
        const char *attr;
        int id;
    } names[] = {{"literal_unroll", KN_BI_LITERAL_UNROLL},
                 {"literally", KN_BI_LITERALLY},
                 {"prange", KN_BI_PRANGE},
                 /* the thread API (lib/threads.def) under numba's names */
                 {"get_num_threads", KN_BI_THREADS_GET_NUM},
                 {"set_num_threads", KN_BI_THREADS_SET_NUM},
                 {"get_thread_id", KN_BI_THREADS_THREAD_ID},
                 {"get_parallel_chunksize", KN_BI_THREADS_GET_CHUNK},
                 {"set_parallel_chunksize", KN_BI_THREADS_SET_CHUNK}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        PyObject *obj = PyObject_GetAttrString(nb, names[i].attr);
        PyObject *key = PyLong_FromLong(names[i].id);
        if (obj && key)
            PyDict_SetItem(s->builtin_ids, obj, key);
        Py_XDECREF(obj);
        Py_XDECREF(key);
    }
    PyErr_Clear();
}

/* ---- calling ---- */

static PyObject *
raise_from_table(KnExcInfo *exc)
{
    PyObject *entry = kn_dispatch_exc_entry(exc->index);
    if (!entry) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_SystemError, "kiln: compiled code raised an unknown exception");
        return NULL;
    }
    PyObject *args = PyTuple_GET_ITEM(entry, 1), *formatted = NULL;
    if (PyTuple_GET_SIZE(entry) == 3) { /* run-time arguments, a cause (exc.c) */
        if (!(args = formatted = kn_box_exc_args(entry, exc)))
            return NULL;
    } else if (exc->index == KN_EXC_KEY_ERROR && !(args = formatted = kn_box_key_error_args(exc)))
        return NULL; /* KeyError(key): the key rebuilt from its parts (box_dict.c) */
    if (!formatted && (exc->index == KN_EXC_INT_LITERAL || exc->index == KN_EXC_FLOAT_LITERAL)) {
        /* the bad literal's repr (runtime/str.c kept its text) */
        PyObject *text = kn_box_str_error_text();
        PyObject *r = text ? PyObject_Repr(text) : NULL;
        PyObject *fmt = PyTuple_GET_ITEM(args, 0);
        PyObject *msg = r ? PyObject_CallMethod(fmt, "format", "O", r) : NULL;
        formatted = msg ? PyTuple_Pack(1, msg) : NULL;
        Py_XDECREF(msg);
        Py_XDECREF(r);
        Py_XDECREF(text);
        if (!formatted)
            return NULL;
        args = formatted;
    } else if (!formatted && exc->nargs > 0 && PyTuple_GET_SIZE(args) == 1 &&
               PyUnicode_Check(PyTuple_GET_ITEM(args, 0))) {
        /* a message with run-time values: str.format them in */
        PyObject *vals = PyTuple_New(exc->nargs);
        for (int64_t i = 0; vals && i < exc->nargs && i < 4; i++)
            PyTuple_SET_ITEM(vals, i, PyLong_FromLongLong(exc->args[i]));
        PyObject *fmt = vals ? PyObject_GetAttrString(PyTuple_GET_ITEM(args, 0), "format") : NULL;
        PyObject *msg = fmt ? PyObject_Call(fmt, vals, NULL) : NULL;
        formatted = msg ? PyTuple_Pack(1, msg) : NULL;
        Py_XDECREF(msg);
        Py_XDECREF(fmt);
        Py_XDECREF(vals);
        if (!formatted)
            return NULL;
        args = formatted;
    }
    PyObject *inst = PyObject_Call(PyTuple_GET_ITEM(entry, 0), args, NULL);
    Py_XDECREF(formatted);
    if (inst)
        kn_box_exc_cause(entry, inst);
    static int making_cause; /* `from e`: e itself, one level (its own cause is not kept) */
    if (inst && !making_cause && kn_box_exc_cause_caught(entry)) {
        KnExcInfo cause;
        kn_rt_exc_cause(&cause);
        kn_rt_exc_swap_texts(); /* e's str arguments */
        making_cause = 1;
        raise_from_table(&cause);
        making_cause = 0;
        kn_rt_exc_swap_texts();
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        if (v)
            PyException_SetCause(inst, v); /* steals v */
        Py_XDECREF(t);
        Py_XDECREF(tb);
    }
    if (inst && exc->where) {
        /* where in the source it was raised: an exception note (PEP 678) where Python has them */
        PyObject *note = PyUnicode_FromFormat("raised by kiln-compiled code at %s", exc->where);
        PyObject *r = note ? PyObject_CallMethod(inst, "add_note", "O", note) : NULL;
        if (!r)
            PyErr_Clear(); /* Python 3.10: no notes */
        Py_XDECREF(r);
        Py_XDECREF(note);
        if (exc->called_from) { /* raised in a callee (kiln/lib, an overload): the user's call */
            note = PyUnicode_FromFormat("called from %s", exc->called_from);
            r = note ? PyObject_CallMethod(inst, "add_note", "O", note) : NULL;
            if (!r)
                PyErr_Clear();
            Py_XDECREF(r);
            Py_XDECREF(note);
        }
    }
    if (inst) {
        PyErr_SetObject((PyObject *)Py_TYPE(inst), inst);
        Py_DECREF(inst);
    }
    return NULL;
}

PyObject *
kn_dispatch_raise(KnExcInfo *exc)
{
    return raise_from_table(exc);
}

/* Look the wrapper up in the JIT on first use (this is when LLVM generates the code, so
 * mutually recursive overloads are all added before any is linked). 0, or -1 with an error. */
static int
link_entry(Overload *ov)
{
    if (ov->entry)
        return 0;
    char *err = NULL;
    double t0 = now_ms();
    ov->entry = (KnWrapperFn)kn_compile_lookup(kn_state->jit, ov->wrapper, &err);
    if (dump_flags() & KN_DUMP_TIME)
        fprintf(stderr, "kiln: %s: codegen and link %.2f ms\n", ov->symbol, now_ms() - t0);
    if (!ov->entry) {
        PyErr_Format(PyExc_RuntimeError, "kiln: cannot link %s: %s", ov->wrapper, err ? err : "?");
        free(err);
        return -1;
    }
    return 0;
}

static PyObject *
invoke(Overload *ov, PyObject *const *args, int nogil)
{
    char small[512];
    char *buf = ov->argbuf_size <= sizeof small ? small : malloc(ov->argbuf_size);
    _Alignas(16) char small_ret[512];
    size_t ret_size = kn_type_size(ov->ret);
    char *ret =
        ret_size <= sizeof small_ret ? small_ret : aligned_alloc(16, (ret_size + 15) / 16 * 16);
    PyObject *result = NULL;
    int unboxed = 0, mark = kn_box_reflect_mark();
    for (; unboxed < ov->nargs; unboxed++)
        if (kn_box_unbox(ov->args[unboxed], args[unboxed], buf + ov->offsets[unboxed]) < 0)
            goto done;
    if (link_entry(ov) < 0)
        goto done;
    if (!ret) {
        PyErr_NoMemory();
        goto done;
    }
    KnExcInfo exc = {0, 0, {0}, NULL, NULL};
    int status;
    int token = kn_interrupt_enter();
    if (nogil) {
        Py_BEGIN_ALLOW_THREADS status = ov->entry(ret, &exc, buf);
        Py_END_ALLOW_THREADS
    } else {
        status = ov->entry(ret, &exc, buf);
    }
    kn_interrupt_leave(token);
    if (status != 0 && exc.index == KN_EXC_INTERRUPT)
        kn_interrupt_raise();
    else if (status != 0)
        raise_from_table(&exc);
    else
        result = kn_box_box(ov->ret, ret);
done:
    /* reflected lists and sets: mutations written back to the caller's objects (box_list.c) */
    if (kn_box_reflect_done(mark) < 0)
        Py_CLEAR(result);
    for (int i = 0; i < unboxed; i++)
        kn_box_release(ov->args[i], buf + ov->offsets[i]);
    if (buf != small)
        free(buf);
    if (ret != small_ret)
        free(ret);
    return result;
}

/* Bind keyword arguments and defaults into a full positional vector (slow path). */
static PyObject *
bind_call(Dispatcher *d, PyObject *const *args, size_t nargs, PyObject *kwnames)
{
    PyObject *code = PyObject_GetAttrString(d->py_func, "__code__");
    PyObject *argc = code ? PyObject_GetAttrString(code, "co_argcount") : NULL;
    PyObject *names = code ? PyObject_GetAttrString(code, "co_varnames") : NULL;
    PyObject *defaults = PyObject_GetAttrString(d->py_func, "__defaults__");
    PyObject *full = NULL;
    if (!argc || !names || !defaults)
        goto done;
    Py_ssize_t np = PyLong_AsSsize_t(argc);
    Py_ssize_t nd = PyTuple_Check(defaults) ? PyTuple_GET_SIZE(defaults) : 0;
    if ((Py_ssize_t)nargs > np) {
        PyErr_Format(PyExc_TypeError, "%U() takes %zd positional arguments but %zu were given",
                     PyObject_GetAttrString(d->py_func, "__name__"), np, nargs);
        goto done;
    }
    full = PyList_New(np);
    for (Py_ssize_t i = 0; i < (Py_ssize_t)nargs; i++) {
        Py_INCREF(args[i]);
        PyList_SET_ITEM(full, i, args[i]);
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kw = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t slot = -1;
        for (Py_ssize_t i = 0; i < np; i++)
            if (PyUnicode_Compare(PyTuple_GET_ITEM(names, i), kw) == 0)
                slot = i;
        if (slot < 0 || PyList_GET_ITEM(full, slot)) {
            PyErr_Format(PyExc_TypeError,
                         slot < 0 ? "got an unexpected keyword argument '%U'"
                                  : "got multiple values for argument '%U'",
                         kw);
            Py_CLEAR(full);
            goto done;
        }
        Py_INCREF(args[nargs + k]);
        PyList_SET_ITEM(full, slot, args[nargs + k]);
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        if (PyList_GET_ITEM(full, i))
            continue;
        Py_ssize_t di = i - (np - nd);
        if (di < 0) {
            PyErr_Format(PyExc_TypeError, "missing required argument '%U'",
                         PyTuple_GET_ITEM(names, i));
            Py_CLEAR(full);
            goto done;
        }
        PyObject *v = PyTuple_GET_ITEM(defaults, di);
        Py_INCREF(v);
        PyList_SET_ITEM(full, i, v);
    }
done:
    Py_XDECREF(code);
    Py_XDECREF(argc);
    Py_XDECREF(names);
    Py_XDECREF(defaults);
    return full;
}

static PyObject *
no_match(Dispatcher *d, KnType **types, int n)
{
    KnStrBuf sb;
    kn_sb_init(&sb);
    if (is_ambiguous(d, types, n)) {
        ambiguous(d, types, n, &sb);
        PyErr_SetString(PyExc_TypeError, sb.data);
        kn_sb_fini(&sb);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        kn_sb_printf(&sb, "%s%s", i ? ", " : "", types[i]->name);
    PyErr_Format(PyExc_TypeError, "No matching definition for argument type(s) %s", sb.data);
    kn_sb_fini(&sb);
    return NULL;
}

/* The overload for these argument types, compiled if needed; NULL with an exception set. */
static Overload *
overload_of(Dispatcher *d, PyObject *const *args, int n, KnType **types)
{
    for (int i = 0; i < n; i++)
        if (!(types[i] = kn_box_typeof(kn_state, args[i])))
            return NULL;
    Overload *ov = find_exact(d, types, n);
    if (!ov || ov->failed) {
        if (d->explicit_sigs) {
            ov = find_convertible(d, types, n);
            if (!ov)
                no_match(d, types, n);
        } else {
            ov = compile_overload(d, types, n, NULL);
        }
    }
    return ov;
}

/* Call an explicit signature the arguments convert to: those that unboxing does not convert
 * itself (a float for an int) converted first (options.c). */
static PyObject *
invoke_converted(Overload *ov, PyObject *const *args, int n, KnType **types, int nogil)
{
    PyObject *small[64] = {NULL}, **conv = n <= 64 ? small : malloc(sizeof(PyObject *) * (size_t)n);
    if (!conv)
        return PyErr_NoMemory();
    PyObject *r = NULL;
    int k = 0;
    for (; k < n; k++)
        if (!(conv[k] = kn_dispatch_convert_arg(types[k], ov->args[k], args[k])))
            goto done;
    r = invoke(ov, conv, nogil);
done:
    while (k-- > 0)
        Py_DECREF(conv[k]);
    if (conv != small)
        free(conv);
    return r;
}

static PyObject *
call_positional(Dispatcher *d, PyObject *const *args, int n)
{
    /* no limit here: the frontend rejects more than KN_MAX_PARAMS parameters, with a position */
    KnType *small[64], **types = n <= 64 ? small : malloc(sizeof(KnType *) * (size_t)n);
    if (!types)
        return PyErr_NoMemory();
    Overload *ov = overload_of(d, args, n, types);
    PyObject *r = NULL;
    if (ov && ov->generator) /* a generator function: a kiln.generator (box_generator.c) */
        r = kn_box_generator_start((PyObject *)d, &ov->gen, args);
    else if (ov && !ov->failed && memcmp(ov->args, types, sizeof(KnType *) * (size_t)n))
        r = invoke_converted(ov, args, n, types, d->nogil);
    else if (ov)
        r = invoke(ov, args, d->nogil);
    if (types != small)
        free(types);
    return r;
}

/* Whether the frontend rejects the function's parameters whatever the call (*args, **kwargs,
 * keyword-only parameters): binding arguments to them would give a misleading TypeError. */
static int
frontend_rejects(Dispatcher *d)
{
    PyObject *code = PyObject_GetAttrString(d->py_func, "__code__");
    PyObject *flags = code ? PyObject_GetAttrString(code, "co_flags") : NULL;
    PyObject *nkw = code ? PyObject_GetAttrString(code, "co_kwonlyargcount") : NULL;
    int r = flags && nkw && ((PyLong_AsLong(flags) & CO_VARKEYWORDS) || PyLong_AsLong(nkw) > 0);
    Py_XDECREF(code);
    Py_XDECREF(flags);
    Py_XDECREF(nkw);
    PyErr_Clear();
    return r;
}

/* def f(a, b, *args): the arguments past the first argc packed into one tuple, the last
 * parameter (docs/internals.md, "Functions as values and closures"). */
static PyObject *
call_varargs(Dispatcher *d, PyObject *const *args, size_t nargs, PyObject *kwnames, int argc)
{
    size_t first = nargs < (size_t)argc ? nargs : (size_t)argc;
    PyObject *full = bind_call(d, args, first, kwnames);
    PyObject *rest = full ? PyTuple_New((Py_ssize_t)(nargs - first)) : NULL;
    for (size_t i = first; rest && i < nargs; i++)
        PyTuple_SET_ITEM(rest, (Py_ssize_t)(i - first), Py_NewRef(args[i]));
    int ok = rest && PyList_Append(full, rest) == 0;
    Py_XDECREF(rest);
    PyObject *r =
        ok ? call_positional(d, ((PyListObject *)full)->ob_item, (int)PyList_GET_SIZE(full)) : NULL;
    Py_XDECREF(full);
    return r;
}

/* Run the frontend (through a compile of no arguments) for its error; it is remembered as that
 * failed overload, so every later call raises it again. */
static PyObject *
reject(Dispatcher *d)
{
    KnType *none[1] = {NULL};
    if (compile_overload(d, none, 0, NULL) && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "kiln: the function's parameters cannot be bound");
    return NULL;
}

static PyObject *
dispatcher_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Dispatcher *d = (Dispatcher *)self;
    size_t nargs = PyVectorcall_NARGS(nargsf);
    PyCodeObject *co =
        PyFunction_Check(d->py_func) ? (PyCodeObject *)PyFunction_GET_CODE(d->py_func) : NULL;
    if (co && (co->co_flags & CO_VARARGS) && !(co->co_flags & CO_VARKEYWORDS) &&
        !co->co_kwonlyargcount)
        return call_varargs(d, args, nargs, kwnames, co->co_argcount);
    if (!kwnames || !PyTuple_GET_SIZE(kwnames)) {
        /* fast path: the exact number of parameters, no keywords */
        if (d->nov && (int)nargs == d->ovs[0]->nargs)
            return call_positional(d, args, (int)nargs);
    }
    if (frontend_rejects(d))
        return reject(d);
    PyObject *full = bind_call(d, args, nargs, kwnames);
    if (!full)
        return NULL;
    PyObject *r = call_positional(d, ((PyListObject *)full)->ob_item, (int)PyList_GET_SIZE(full));
    Py_DECREF(full);
    return r;
}

/* ---- Python-visible methods ---- */

/* A signature's types into out[KN_MAX_PARAMS + 1]: one more than the frontend accepts, so
 * that a function with too many parameters reaches the frontend's positioned error. */
static int
keys_to_types(PyObject *keys, KnType **out, int *n)
{
    PyObject *seq = PySequence_Fast(keys, "a signature is a sequence of type keys");
    if (!seq)
        return -1;
    *n = (int)PySequence_Fast_GET_SIZE(seq);
    if (*n > KN_MAX_PARAMS + 1) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_TypeError, "kiln: a signature of more than %d types", KN_MAX_PARAMS + 1);
        return -1;
    }
    for (int i = 0; i < *n; i++)
        if (!(out[i] = kn_box_from_key(kn_state, PySequence_Fast_GET_ITEM(seq, i)))) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

/* The native entry of `disp`'s overload for exactly these argument types, compiled now if it
 * is not yet (dispatch.h): what the ufunc loops and other C callers of compiled code use. */
int
kn_dispatch_entry(PyObject *disp, KnType **args, int n, KnType *declared_ret, KnDispatchEntry *out)
{
    if (Py_TYPE(disp) != &KnDispatcher_Type) {
        PyErr_SetString(PyExc_TypeError, "kiln: not a jitted function");
        return -1;
    }
    Overload *ov = compile_overload((Dispatcher *)disp, args, n, declared_ret);
    if (!ov || link_entry(ov) < 0)
        return -1;
    out->fn = ov->entry;
    out->offsets = ov->offsets;
    out->argbuf_size = ov->argbuf_size;
    out->ret = ov->ret;
    out->can_raise = ov->can_raise;
    return 0;
}

static PyObject *
dispatcher_compile(PyObject *self, PyObject *args)
{
    Dispatcher *d = (Dispatcher *)self;
    PyObject *argkeys, *retkey = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &argkeys, &retkey))
        return NULL;
    KnType *types[KN_MAX_PARAMS + 1];
    int n;
    if (keys_to_types(argkeys, types, &n) < 0)
        return NULL;
    KnType *ret = retkey == Py_None ? NULL : kn_box_from_key(kn_state, retkey);
    if (retkey != Py_None && !ret)
        return NULL;
    d->explicit_sigs = 1;
    if (!compile_overload(d, types, n, ret))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
sig_tuple(Overload *ov)
{
    PyObject *support = kn_support();
    if (!support)
        return NULL;
    PyObject *t = PyTuple_New(ov->nargs);
    for (int i = 0; t && i < ov->nargs; i++) {
        PyObject *key = kn_box_key(ov->args[i]);
        PyObject *ty = key ? PyObject_CallMethod(support, "from_key", "(O)", key) : NULL;
        Py_XDECREF(key);
        if (!ty) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, ty);
    }
    return t;
}

static PyObject *
dispatcher_signatures(PyObject *self, void *closure)
{
    Dispatcher *d = (Dispatcher *)self;
    KN_UNUSED(closure);
    PyObject *l = PyList_New(0);
    for (int i = 0; l && i < d->nov; i++) {
        if (d->ovs[i]->failed)
            continue;
        PyObject *t = sig_tuple(d->ovs[i]);
        if (!t || PyList_Append(l, t) < 0)
            Py_CLEAR(l);
        Py_XDECREF(t);
    }
    return l;
}

static PyObject *
dispatcher_overloads(PyObject *self, void *closure)
{
    Dispatcher *d = (Dispatcher *)self;
    KN_UNUSED(closure);
    PyObject *support = kn_support();
    PyObject *r = support ? PyDict_New() : NULL;
    for (int i = 0; r && i < d->nov; i++) {
        Overload *ov = d->ovs[i];
        if (ov->failed)
            continue;
        if (link_entry(ov) < 0)
            PyErr_Clear(); /* the entry point shows as 0 */
        PyObject *sig = sig_tuple(ov);
        PyObject *retkey = kn_box_key(ov->ret);
        PyObject *info = sig && retkey
                             ? PyObject_CallMethod(support, "make_overload_info", "OOK", sig,
                                                   retkey, (unsigned long long)(uintptr_t)ov->entry)
                             : NULL;
        if (!info || PyDict_SetItem(r, sig, info) < 0)
            Py_CLEAR(r);
        Py_XDECREF(sig);
        Py_XDECREF(retkey);
        Py_XDECREF(info);
    }
    return r;
}

/* Find the overload a `signature` argument names (a tuple of type objects or keys); with None,
 * all of them. */
static Overload *
overload_for(Dispatcher *d, PyObject *sig)
{
    KnType *types[KN_MAX_PARAMS + 1];
    int n;
    PyObject *keys = PyObject_CallMethod(kn_support(), "to_keys", "(O)", sig);
    if (!keys)
        return NULL;
    int rc = keys_to_types(keys, types, &n);
    Py_DECREF(keys);
    if (rc < 0)
        return NULL;
    Overload *ov = find_exact(d, types, n);
    if (!ov || ov->failed) {
        PyErr_Format(PyExc_KeyError, "no compiled signature %R", sig);
        return NULL;
    }
    return ov;
}

enum { TEXT_LLVM, TEXT_ASM };

static PyObject *
overload_text(Dispatcher *d, Overload *ov, int which)
{
    KnCompilation c;
    lock_acquire(kn_state);
    int rc = run_compile(d, ov->args, ov->nargs, NULL, NULL, &c);
    lock_release(kn_state);
    PyObject *r = NULL;
    if (rc == 0) {
        KnTexts texts = kn_compile_texts(&c);
        const char *t = which == TEXT_LLVM ? texts.opt_text : texts.asm_text;
        r = PyUnicode_FromString(t ? t : "");
    }
    kn_compile_fini(&c);
    return r;
}

static PyObject *
inspect_text(PyObject *self, PyObject *args, PyObject *kw, int which)
{
    Dispatcher *d = (Dispatcher *)self;
    static char *kwlist[] = {"signature", NULL};
    PyObject *sig = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &sig))
        return NULL;
    if (sig != Py_None) {
        Overload *ov = overload_for(d, sig);
        return ov ? overload_text(d, ov, which) : NULL;
    }
    PyObject *r = PyDict_New();
    for (int i = 0; r && i < d->nov; i++) {
        if (d->ovs[i]->failed)
            continue;
        PyObject *key = sig_tuple(d->ovs[i]);
        PyObject *text = key ? overload_text(d, d->ovs[i], which) : NULL;
        if (!text || PyDict_SetItem(r, key, text) < 0)
            Py_CLEAR(r);
        Py_XDECREF(key);
        Py_XDECREF(text);
    }
    return r;
}

static PyObject *
dispatcher_inspect_llvm(PyObject *self, PyObject *args, PyObject *kw)
{
    return inspect_text(self, args, kw, TEXT_LLVM);
}

static PyObject *
dispatcher_inspect_asm(PyObject *self, PyObject *args, PyObject *kw)
{
    return inspect_text(self, args, kw, TEXT_ASM);
}

static PyObject *
dispatcher_inspect_types(PyObject *self, PyObject *args, PyObject *kw)
{
    Dispatcher *d = (Dispatcher *)self;
    static char *kwlist[] = {"file", "signature", "pretty", "style", NULL};
    PyObject *file = Py_None, *sig = Py_None, *pretty = Py_None, *style = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOO", kwlist, &file, &sig, &pretty, &style))
        return NULL;
    PyObject *entries = PyList_New(0);
    for (int i = 0; entries && i < d->nov; i++) {
        Overload *ov = d->ovs[i];
        if (ov->failed)
            continue;
        PyObject *s = sig_tuple(ov);
        PyObject *retkey = kn_box_key(ov->ret);
        PyObject *e = s && retkey ? Py_BuildValue("(OOO)", s, retkey, ov->var_info) : NULL;
        if (!e || PyList_Append(entries, e) < 0)
            Py_CLEAR(entries);
        Py_XDECREF(s);
        Py_XDECREF(retkey);
        Py_XDECREF(e);
    }
    if (!entries)
        return NULL;
    PyObject *r =
        PyObject_CallMethod(kn_support(), "render_types", "OOOO", d->py_func, entries, file, sig);
    Py_DECREF(entries);
    return r;
}

/* [(signature tuple, [(line, col, what, parallel, why), ...]), ...] of the compiled overloads:
 * what kiln/_support.py's parallel_diagnostics renders */
static PyObject *
dispatcher_parallel_notes(PyObject *self, PyObject *unused)
{
    Dispatcher *d = (Dispatcher *)self;
    KN_UNUSED(unused);
    PyObject *entries = PyList_New(0);
    for (int i = 0; entries && i < d->nov; i++) {
        Overload *ov = d->ovs[i];
        if (ov->failed)
            continue;
        PyObject *s = sig_tuple(ov);
        PyObject *e = s ? Py_BuildValue("(OO)", s, ov->par_notes ? ov->par_notes : Py_None) : NULL;
        if (!e || PyList_Append(entries, e) < 0)
            Py_CLEAR(entries);
        Py_XDECREF(s);
        Py_XDECREF(e);
    }
    return entries;
}

static PyObject *
dispatcher_parallel_diagnostics(PyObject *self, PyObject *args, PyObject *kw)
{
    Dispatcher *d = (Dispatcher *)self;
    static char *kwlist[] = {"signature", "level", NULL};
    PyObject *sig = Py_None, *level = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO", kwlist, &sig, &level))
        return NULL;
    PyObject *entries = dispatcher_parallel_notes(self, NULL);
    if (!entries)
        return NULL;
    PyObject *r =
        PyObject_CallMethod(kn_support(), "render_parallel", "OOOOO", d->py_func, entries, sig,
                            level ? level : Py_None, d->parallel ? Py_True : Py_False);
    Py_DECREF(entries);
    return r;
}

static PyObject *
dispatcher_recompile(PyObject *self, PyObject *unused)
{
    Dispatcher *d = (Dispatcher *)self;
    KN_UNUSED(unused);
    int n = d->nov;
    Overload **old = d->ovs;
    d->ovs = NULL;
    d->nov = d->cap = 0;
    PyObject *err = NULL;
    for (int i = 0; i < n; i++) {
        if (!old[i]->failed && !compile_overload(d, old[i]->args, old[i]->nargs, NULL) && !err) {
            PyObject *t, *tb;
            PyErr_Fetch(&t, &err, &tb);
            Py_XDECREF(t);
            Py_XDECREF(tb);
        }
        /* the old code may still be called by other compiled functions: retire, not free */
        KN_HVEC_PUSH(*(struct {
                          Overload **items;
                          int len, cap;
                      } *)&d->retired,
                     old[i]);
    }
    free(old);
    if (err) {
        PyErr_SetObject((PyObject *)Py_TYPE(err), err);
        Py_DECREF(err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- the test-only stage view (kiln._core._stages) ---- */

static PyObject *dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kw);

static PyObject *
text_or_none(const char *t)
{
    if (t)
        return PyUnicode_FromString(t);
    Py_RETURN_NONE;
}

/* _stages(func, argkeys) -> {"kir", "typed", "llvm", "opt", "asm"}: every stage's text for one
 * signature, compiled in text-only mode (nothing is added to the JIT). Errors raise as usual. */
PyObject *
kn_dispatch_stages(PyObject *module, PyObject *args)
{
    PyObject *func, *keys;
    KN_UNUSED(module);
    if (!PyArg_ParseTuple(args, "OO", &func, &keys))
        return NULL;
    KnType *types[KN_MAX_PARAMS + 1];
    int n;
    if (keys_to_types(keys, types, &n) < 0)
        return NULL;
    PyObject *opts = PyDict_New();
    PyObject *targs = opts ? PyTuple_Pack(2, func, opts) : NULL;
    Dispatcher *d = targs ? (Dispatcher *)dispatcher_new(&KnDispatcher_Type, targs, NULL) : NULL;
    Py_XDECREF(targs);
    Py_XDECREF(opts);
    if (!d)
        return NULL;
    KnCompilation c;
    lock_acquire(kn_state);
    int rc = run_compile(d, types, n, NULL, NULL, &c);
    lock_release(kn_state);
    PyObject *r = NULL;
    if (rc == 0) {
        KnTexts t = kn_compile_texts(&c);
        r = Py_BuildValue("{sNsNsNsNsN}", "kir", text_or_none(t.kir_text), "typed",
                          text_or_none(t.typed_text), "llvm", text_or_none(t.llvm_text), "opt",
                          text_or_none(t.opt_text), "asm", text_or_none(t.asm_text));
    }
    kn_compile_fini(&c);
    Py_DECREF(d);
    return r;
}

static int
no_resolve_call(KnCompilation *c, void *ref, KnType **args, int nargs, KnSpan span, KnCallee *out)
{
    KN_UNUSED(ref), KN_UNUSED(args), KN_UNUSED(nargs), KN_UNUSED(out);
    kn_diag_error(&c->diags, KN_DIAG_TYPING, span,
                  "a call to a jitted function cannot be typed from KIR text");
    return -1;
}

static const KnHooks text_hooks = {no_resolve_call};

/* What a pass leaves beside the KIR (compile.h's stage products), as comment lines that the
 * reader skips. */
static void
pass_products(KnCompilation *c, const char *pass, KnStrBuf *sb)
{
    const KnRaises *r = kn_ctx_get(c, KN_SIDE_RAISES);
    const KnDeferrals *d = kn_ctx_get(c, KN_SIDE_DEFERRED);
    const KnNonzero *z = kn_ctx_get(c, KN_SIDE_NONZERO);
    if (!strcmp(pass, "raises"))
        kn_sb_printf(sb, "; can_raise %d\n", r ? r->can_raise : 1);
    for (int i = 0; !strcmp(pass, "defer") && d && i < d->n; i++)
        kn_sb_printf(sb, "; deferred %%%d to b%d%s\n", d->items[i].division->id,
                     d->items[i].exit->id, d->items[i].from_ints ? " from ints" : "");
    for (int i = 0; !strcmp(pass, "nonzero") && z && i < z->len; i++)
        if (z->divisor[i])
            kn_sb_printf(sb, "; nonzero %%%d\n", i);
}

/* _run_pass(kir_text, pass, argkeys) -> str: read KIR text (ir/read.c), type it for argkeys,
 * run one KIR pass alone (compile.c: typing, verify, fuse, raises, defer, nonzero) and return
 * the typed KIR after it, plus the pass's side products as `; ...` lines. Bad text is a
 * ValueError ("line N: ..."); a compile error or a verifier failure raises as for _stages. */
PyObject *
kn_dispatch_run_pass(PyObject *module, PyObject *args)
{
    const char *text, *pass;
    PyObject *keys;
    KN_UNUSED(module);
    if (!PyArg_ParseTuple(args, "ssO", &text, &pass, &keys))
        return NULL;
    KnType *types[KN_MAX_PARAMS + 1];
    int n;
    if (keys_to_types(keys, types, &n) < 0)
        return NULL;
    KnState *s = kn_state;
    lock_acquire(s);
    if (builtins_setup(s) < 0) {
        lock_release(s);
        return NULL;
    }
    KnCompilation c;
    kn_compile_init(&c, &s->types, s->jit);
    c.hooks = &text_hooks;
    c.text_only = 1;
    c.arg_types = types;
    c.nargs = n;
    c.symbol = "kn_kir_text";
    c.wrapper = "kn_kir_text_wrap";
    KnStrBuf err;
    kn_sb_init(&err);
    PyObject *r = NULL;
    c.fn = kn_kir_read(&c.arena, &s->types, text, "<kir>", &err);
    int rc = -1;
    if (!c.fn)
        PyErr_Format(PyExc_ValueError, "bad KIR text: %s", err.data);
    else if (c.fn->nparams != n)
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments but %d were given", c.fn->name,
                     c.fn->nparams, n);
    else if ((rc = kn_compile_run_one_pass(&c, pass)) == 1)
        PyErr_Format(PyExc_ValueError, "no KIR pass named %s", pass);
    else if (rc < 0 && c.diags.items.len) {
        PyObject *exc = diag_exception(&c, NULL);
        if (exc) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
            Py_DECREF(exc);
        }
    }
    if (rc == 0) {
        KnStrBuf sb;
        kn_sb_init(&sb);
        kn_kir_print(&sb, c.fn, 1);
        pass_products(&c, pass, &sb);
        r = PyUnicode_FromString(sb.data);
        kn_sb_fini(&sb);
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_RuntimeError, "kiln: the pass failed");
    }
    kn_sb_fini(&err);
    kn_compile_fini(&c);
    lock_release(s);
    return r;
}

/* _read_kir(text) -> str: read KIR text and print it back (typed when the text is), for the
 * round-trip tests. */
PyObject *
kn_dispatch_read_kir(PyObject *module, PyObject *args)
{
    const char *text;
    KN_UNUSED(module);
    if (!PyArg_ParseTuple(args, "s", &text))
        return NULL;
    KnState *s = kn_state;
    lock_acquire(s);
    KnArena arena;
    kn_arena_init(&arena);
    KnStrBuf err, sb;
    kn_sb_init(&err);
    kn_sb_init(&sb);
    KnFunction *fn = kn_kir_read(&arena, &s->types, text, "<kir>", &err);
    PyObject *r = NULL;
    if (!fn) {
        PyErr_Format(PyExc_ValueError, "bad KIR text: %s", err.data);
    } else {
        int typed = fn->ret_type || fn->arg_types;
        for (int i = fn->nparams; !typed && i < fn->vars.len; i++)
            typed = fn->vars.items[i].type != NULL;
        kn_kir_print(&sb, fn, typed);
        r = PyUnicode_FromString(sb.data);
    }
    kn_sb_fini(&err);
    kn_sb_fini(&sb);
    kn_arena_fini(&arena);
    lock_release(s);
    return r;
}

/* ---- type slots ---- */

static PyObject *
dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"py_func", "options", NULL};
    PyObject *func, *options = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O", kwlist, &func, &options))
        return NULL;
    if (!PyFunction_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "kiln can only compile Python functions");
        return NULL;
    }
    Dispatcher *d = (Dispatcher *)type->tp_alloc(type, 0);
    if (!d)
        return NULL;
    d->vectorcall = dispatcher_vectorcall;
    d->py_func = Py_NewRef(func);
    d->options = options ? Py_NewRef(options) : PyDict_New();
    d->error_model_python = 1;
    d->dict = PyDict_New();
    if (!d->dict || !d->options) {
        Py_DECREF(d);
        return NULL;
    }
    static const char *const copied[] = {"__name__", "__qualname__", "__doc__", "__module__"};
    for (int i = 0; i < 4; i++) {
        PyObject *v = PyObject_GetAttrString(func, copied[i]);
        if (v)
            PyDict_SetItemString(d->dict, copied[i], v);
        Py_XDECREF(v);
        PyErr_Clear();
    }
    PyDict_SetItemString(d->dict, "__wrapped__", func);
    if (PyDict_Check(d->options)) {
        PyObject *fm = PyDict_GetItemString(d->options, "fastmath");
        if (fm && PyAnySet_Check(fm)) {
            static const struct {
                const char *name;
                unsigned flag;
            } flags[] = {{"fast", KN_FM_ALL},          {"reassoc", KN_FM_REASSOC},
                         {"nnan", KN_FM_NNAN},         {"ninf", KN_FM_NINF},
                         {"nsz", KN_FM_NSZ},           {"arcp", KN_FM_ARCP},
                         {"contract", KN_FM_CONTRACT}, {"afn", KN_FM_AFN}};
            for (int i = 0; i < KN_ARRAY_LEN(flags); i++) {
                PyObject *s = PyUnicode_FromString(flags[i].name);
                if (s && PySet_Contains(fm, s) > 0)
                    d->fastmath |= flags[i].flag;
                Py_XDECREF(s);
            }
        } else if (fm && PyObject_IsTrue(fm) > 0) {
            d->fastmath = KN_FM_ALL;
        }
        PyObject *bc = PyDict_GetItemString(d->options, "boundscheck");
        d->boundscheck = bc && PyObject_IsTrue(bc) > 0;
        PyObject *ng = PyDict_GetItemString(d->options, "nogil");
        d->nogil = ng && PyObject_IsTrue(ng) > 0;
        PyObject *par = PyDict_GetItemString(d->options, "parallel");
        d->parallel = par && PyObject_IsTrue(par) > 0;
        PyObject *em = PyDict_GetItemString(d->options, "error_model");
        if (em && PyUnicode_Check(em) && !strcmp(PyUnicode_AsUTF8(em), "numpy"))
            d->error_model_python = 0;
        PyObject *np = PyDict_GetItemString(d->options, "objmode_fallback");
        d->nopython_false = np && PyObject_IsTrue(np) > 0;
        PyObject *il = PyDict_GetItemString(d->options, "inline");
        d->inline_always = il && PyUnicode_Check(il) && !strcmp(PyUnicode_AsUTF8(il), "always");
        PyObject *th = PyDict_GetItemString(d->options, "_thunk");
        d->thunk = th && PyObject_IsTrue(th) > 0;
    }
    return (PyObject *)d;
}

static int
dispatcher_traverse(PyObject *self, visitproc visit, void *arg)
{
    Dispatcher *d = (Dispatcher *)self;
    Py_VISIT(d->py_func);
    Py_VISIT(d->dict);
    Py_VISIT(d->options);
    for (int i = 0; i < d->nov; i++) {
        Py_VISIT(d->ovs[i]->keepalive);
        Py_VISIT(d->ovs[i]->error);
    }
    for (int i = 0; i < d->nretired; i++)
        Py_VISIT(d->retired[i]->keepalive);
    return 0;
}

static int
dispatcher_clear(PyObject *self)
{
    Dispatcher *d = (Dispatcher *)self;
    Py_CLEAR(d->dict);
    Py_CLEAR(d->options);
    for (int i = 0; i < d->nov; i++) {
        Py_CLEAR(d->ovs[i]->keepalive);
        Py_CLEAR(d->ovs[i]->error);
    }
    for (int i = 0; i < d->nretired; i++)
        Py_CLEAR(d->retired[i]->keepalive);
    return 0;
}

static void
dispatcher_dealloc(PyObject *self)
{
    Dispatcher *d = (Dispatcher *)self;
    PyObject_GC_UnTrack(self);
    if (d->weakrefs)
        PyObject_ClearWeakRefs(self);
    dispatcher_clear(self);
    Py_CLEAR(d->py_func);
    for (int i = 0; i < d->nov; i++)
        overload_free(d->ovs[i]);
    for (int i = 0; i < d->nretired; i++)
        overload_free(d->retired[i]);
    free(d->ovs);
    free(d->retired);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
dispatcher_get_py_func(PyObject *self, void *closure)
{
    KN_UNUSED(closure);
    return Py_NewRef(((Dispatcher *)self)->py_func);
}

static PyObject *
dispatcher_get_options(PyObject *self, void *closure)
{
    KN_UNUSED(closure);
    return Py_NewRef(((Dispatcher *)self)->options);
}

static PyObject *
dispatcher_repr(PyObject *self)
{
    Dispatcher *d = (Dispatcher *)self;
    PyObject *qn = PyObject_GetAttrString(d->py_func, "__qualname__");
    PyObject *r = PyUnicode_FromFormat("CPUDispatcher(<function %S>)", qn ? qn : Py_None);
    Py_XDECREF(qn);
    return r;
}

static PyObject *
dispatcher_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    KN_UNUSED(type);
    if (!obj || obj == Py_None)
        return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyMethodDef dispatcher_methods[] = {
    {"compile", dispatcher_compile, METH_VARARGS, "compile(argkeys, retkey=None)"},
    {"inspect_llvm", (PyCFunction)(void (*)(void))dispatcher_inspect_llvm,
     METH_VARARGS | METH_KEYWORDS, "optimized LLVM IR of a signature (or a dict of all)"},
    {"inspect_asm", (PyCFunction)(void (*)(void))dispatcher_inspect_asm,
     METH_VARARGS | METH_KEYWORDS, "assembly of a signature (or a dict of all)"},
    {"parallel_diagnostics", (PyCFunction)(void (*)(void))dispatcher_parallel_diagnostics,
     METH_VARARGS | METH_KEYWORDS,
     "Print which loops and array expressions of each compiled signature run in parallel."},
    {"_parallel_notes", dispatcher_parallel_notes, METH_NOARGS,
     "The parallel_diagnostics notes: [(signature, [(line, col, what, parallel, why)])]."},
    {"inspect_types", (PyCFunction)(void (*)(void))dispatcher_inspect_types,
     METH_VARARGS | METH_KEYWORDS, "print the source annotated with inferred types"},
    {"recompile", dispatcher_recompile, METH_NOARGS, "compile every signature again"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef dispatcher_getset[] = {
    {"py_func", dispatcher_get_py_func, NULL, "the original Python function", NULL},
    {"signatures", dispatcher_signatures, NULL, "compiled signatures", NULL},
    {"overloads", dispatcher_overloads, NULL, "compiled overloads by signature", NULL},
    {"targetoptions", dispatcher_get_options, NULL, "the compile options", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject KnDispatcher_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln._core.Dispatcher",
    .tp_basicsize = sizeof(Dispatcher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = dispatcher_new,
    .tp_dealloc = dispatcher_dealloc,
    .tp_traverse = dispatcher_traverse,
    .tp_clear = dispatcher_clear,
    .tp_vectorcall_offset = offsetof(Dispatcher, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = dispatcher_repr,
    .tp_methods = dispatcher_methods,
    .tp_getset = dispatcher_getset,
    .tp_dictoffset = offsetof(Dispatcher, dict),
    .tp_weaklistoffset = offsetof(Dispatcher, weakrefs),
    .tp_descr_get = dispatcher_descr_get,
    .tp_doc = "A function compiled by kiln on first call for each signature.",
};
