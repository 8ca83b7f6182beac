/* frontend.h - Python function -> untyped KIR. The only stage besides dispatch that sees Python
 * objects: it reads the source through kiln._support, parses it with the ast module, resolves
 * names (locals, closure cells, globals, builtins; globals and closures are frozen at compile
 * time as Numba does) and emits KIR with a span on every instruction. */
#ifndef KN_FRONTEND_H
#define KN_FRONTEND_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "base/context.h"
#include "ir/kir.h"
#include "types/types.h"

typedef struct KnFrontendEnv {
    PyObject *dispatcher_type; /* borrowed: objects of this type are jitted callees */
    PyObject *builtin_ids;     /* borrowed dict: callable object -> KnBuiltin id */
    PyObject *exc_table;       /* borrowed list of (class, args): RAISE indexes into it */
    PyObject *support;         /* borrowed: the kiln._support module */
    PyObject *keepalive;       /* borrowed list: objects the compiled code refers to */
    PyObject
        *overloads; /* borrowed dict: callable -> its Python implementations (kiln.extending) */
    /* adds the registry entries of modules imported since builtin_ids was built (a module
     * attribute such as np.random imports one while the frontend runs); returns how many */
    int (*refresh_builtins)(void);
} KnFrontendEnv;

/* Build c->fn from `func`. Returns 0, or -1 with either a diagnostic in c->diags or a Python
 * exception set (when the source could not be read, for example). */
int kn_frontend_build(KnCompilation *c, const KnFrontendEnv *env, PyObject *func);

/* enum.c: the type of o's members when o is an enum.Enum member (NULL, no error, when it is not;
 * (KnType *)-1 with an error set when its class's values are not all ints). Shared with the
 * dispatcher's typeof (dispatch/box_enum.c). */
KnType *kn_fe_enum_member_type(KnTypeTable *t, PyObject *o);
/* record.c: the record type of a structured dtype (NULL with a TypeError set); whether o is a
 * structured np.dtype */
KnType *kn_fe_record_type(KnTypeTable *t, PyObject *descr);
int kn_fe_is_record_dtype(PyObject *o);
/* the same for the members of enum class cls (a type key names the class) */
KnType *kn_fe_enum_class_type(KnTypeTable *t, PyObject *cls);

#endif
