/* dispatch.h - the Python-facing end of the compiler: the module state (type table, JIT,
 * exception table, compile lock), the Dispatcher type, and boxing/unboxing of values between
 * Python objects and the C layout compiled code uses. */
#ifndef KN_DISPATCH_H
#define KN_DISPATCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include "compile.h"
#include "frontend/frontend.h"
#include "runtime/runtime.h"

typedef struct KnFrame KnFrame; /* an overload being compiled (dispatcher.c) */

#define KN_ARRAY_CACHE_DTYPES 24 /* NumPy's builtin type numbers below this */
#define KN_ARRAY_CACHE_NDIM 8

typedef struct KnState {
    KnTypeTable types;
    /* array types by (type number, ndim, layout, readonly), for the dispatcher's fingerprint */
    KnType *array_types[KN_ARRAY_CACHE_DTYPES * KN_ARRAY_CACHE_NDIM * 3 * 2];
    KnJit *jit;
    char *jit_error;         /* why the JIT could not be created, or NULL */
    PyObject *exc_table;     /* list of (class, args); RAISE indexes into it */
    PyObject *builtin_ids;   /* dict: callable -> KnBuiltin id (built on first compile) */
    int *deferred_ids;       /* registry ids whose module was not imported yet (malloc) */
    int ndeferred;           /* added when their module appears: kn_dispatch_refresh_builtins */
    PyObject *support;       /* kiln._support, imported on first use */
    PyObject *overloads;     /* kiln.extending's registry: callable -> overload set */
    PyObject *resolve;       /* kiln.extending._resolve (the resolve_overload hook calls it) */
    PyThread_type_lock lock; /* the compile lock (reentrant through owner/depth) */
    unsigned long lock_owner;
    int lock_depth;
    long counter;       /* makes native symbol names unique */
    KnFrame *compiling; /* innermost overload being compiled */
} KnState;

extern KnState *kn_state; /* the one module state (static types need to find it) */

extern PyTypeObject KnDispatcher_Type;


/* The array struct compiled code uses (lower/array.c builds the same in LLVM). */
typedef struct KnArrayStruct {
    KnMemInfo *meminfo; /* NULL: borrowed from Python (parent) */
    PyObject *parent;   /* the ndarray it came from, or NULL */
    int64_t nitems, itemsize;
    char *data;
    int64_t dims[]; /* shape[ndim] then strides[ndim], in bytes */
} KnArrayStruct;

extern PyTypeObject KnMemInfoOwner_Type;
int kn_box_type_num(const KnType *t); /* NumPy type number of a scalar type */

/* boxing (box.c) */
KnType *kn_box_typeof(KnState *s, PyObject *o);      /* NULL with TypeError set */
int kn_box_unbox(KnType *t, PyObject *o, char *dst); /* convert to t's C layout at dst */
PyObject *kn_box_box(KnType *t, const char *src);
void kn_box_release(KnType *t, char *src); /* after the call: what unbox made (a list, a set) */
/* Reflection (box_list.c), the one after-call hook: a Python list or set unboxed into a native
 * copy (an argument, or inside one) is recorded, and written back after the call (a list when
 * compiled code changed it, a set always). kn_box_reflect_mark before unboxing, then
 * kn_box_reflect_done(mark) after the call (and after boxing its result): 0, or -1 with an
 * error set when a set could not be written back (a pending error is kept, not replaced);
 * kn_box_reflect_drop(mark) forgets the records without writing back (unboxing into a
 * kiln.typed container). */
int kn_box_reflect_mark(void);
int kn_box_reflect_done(int mark);
void kn_box_reflect_drop(int mark);
extern PyTypeObject KnTypedList_Type; /* kiln._core.List (typed_list.c) */
extern PyTypeObject KnTypedDict_Type; /* kiln._core.Dict (typed_dict.c) */
PyObject *kn_box_key(KnType *t);      /* the type key (docs/core-api.md) */
/* box_str.c: install CPython's hash for the runtime; a new str object of a KnStr's
 * characters; the text of the last bad int()/float() literal of this thread */
void kn_box_str_init(void);
void kn_box_str_format_init(void); /* str_format_hook.c: CPython's float repr for the runtime */
void kn_typed_init(void);          /* typed_common.c: kn_rt_array_hold_hook */
struct KnStr;
PyObject *kn_box_str_new(const struct KnStr *s);
PyObject *kn_box_str_error_text(void);
/* box_dict.c: the arguments of the KeyError compiled code raised (KN_EXC_KEY_ERROR): (key,) */
PyObject *kn_box_key_error_args(const KnExcInfo *exc);
/* exc.c: try/except's hook and run-time match, raise with run-time arguments, `from` */
int kn_dispatch_exc_match(KnCompilation *c, const void *cls, int64_t index);
/* The exception table's entry (class, args[, extra]) at index, borrowed; NULL when out of
 * range or when making it failed (exc.c; fixed entries are made on first use). */
PyObject *kn_dispatch_exc_entry(int64_t index);
int32_t kn_rt_exc_match_late(int64_t index, void *cls);
/* str(e) (mode 0), repr(e) (1) or e.args[0] (2) of a caught exception into *out (a KnStr):
 * 0, -1 when Python failed, 1 when e.args is not one str */
int32_t kn_rt_exc_caught_text(const KnExcInfo *exc, int32_t mode, void *out);
PyObject *kn_box_exc_args(PyObject *entry, const KnExcInfo *exc);
void kn_box_exc_cause(PyObject *entry, PyObject *inst);
int kn_box_exc_cause_caught(PyObject *entry);       /* `from e`: the runtime kept e */
PyObject *kn_box_key(KnType *t);                    /* the type key (docs/core-api.md) */
KnType *kn_box_from_key(KnState *s, PyObject *key); /* NULL with an error set */
/* options.c: locals={...} into the compilation; an argument converted for its parameter */
int kn_dispatch_set_locals(KnCompilation *c, PyObject *options);
PyObject *kn_dispatch_convert_arg(KnType *from, KnType *to, PyObject *o);

/* the runtime's Python-side helpers (print.c) */
void kn_rt_print(int32_t n, const int32_t *kinds, void **vals);

/* the test-only stage view: _stages(func, argkeys) -> dict of stage texts */
PyObject *kn_dispatch_stages(PyObject *module, PyObject *args);
PyObject *kn_dispatch_run_pass(PyObject *module, PyObject *args);    /* test only */
PyObject *kn_dispatch_read_kir(PyObject *module, PyObject *args);    /* test only */
PyObject *kn_dispatch_linalg_load(PyObject *module, PyObject *args); /* dispatch/linalg.c */
PyObject *kn_dispatch_threads(PyObject *module, PyObject *args);     /* dispatch/threads.c */
PyObject *kn_dispatch_pool_probe(PyObject *module, PyObject *args);  /* test only */
PyObject *kn_dispatch_pool_bench(PyObject *module, PyObject *args);  /* bench only */

/* kiln._support, imported on first use */
PyObject *kn_support(void);
/* raise, as a Python exception, what compiled code recorded in exc (dispatcher.c) */
PyObject *kn_dispatch_raise(KnExcInfo *exc);

/* The compiled entry of one overload, for C callers (the ufunc loops): call
 * fn(ret, &exc, argbuf) with argument i at offsets[i] of an argbuf_size-byte buffer (C layout,
 * docs/internals.md "Native calling convention"); the result is written to ret in C layout.
 * offsets belong to the overload and live as long as the dispatcher. */
typedef struct KnDispatchEntry {
    KnWrapperFn fn;
    const size_t *offsets;
    size_t argbuf_size;
    KnType *ret;
    int can_raise; /* 0: fn never returns a nonzero status */
} KnDispatchEntry;

/* Compile (when needed) and link the overload of the jitted function `disp` for exactly `args`
 * (declared_ret: the return type a signature gives, or NULL); fill *out. 0, or -1 with a Python
 * exception set (the compile error, or a TypeError when disp is not a jitted function). */
/* Add to builtin_ids the registry entries whose module has been imported since they were
 * deferred (kiln never imports numpy.random or random itself: ~35 ms of a first call). Returns
 * how many were added. */
int kn_dispatch_refresh_builtins(void);

int kn_dispatch_entry(PyObject *disp, KnType **args, int n, KnType *declared_ret,
                      KnDispatchEntry *out);

/* A generator overload (box_generator.c; lower/generators.c makes its functions): calling it
 * from Python makes a kiln.generator over a new frame. fns: init, next, drop, looked up on the
 * first call. */
typedef struct KnGenStart {
    const char *symbol;
    KnType *yield;
    int nargs;
    KnType **args;
    size_t *offsets;
    size_t argbuf_size;
    void *fns[3];
    size_t frame_size;
} KnGenStart;
PyObject *kn_box_generator_start(PyObject *owner, KnGenStart *s, PyObject *const *args);

/* Ctrl-C in compiled code (interrupt.c). enter/leave bracket a call of compiled code;
 * kn_interrupt_raise runs Python's signal handlers after a KN_EXC_INTERRUPT status. */
void kn_interrupt_install(void);
int kn_interrupt_enter(void);
void kn_interrupt_leave(int token);
PyObject *kn_interrupt_raise(void);

#endif
