/* dictcomp.c - dict and set displays, and dict and set comprehensions.
 *
 * A display {k1: v1, ...} is one BUILD_DICT of its keys and values in evaluation order (k1, v1,
 * k2, v2, ...); {x, y} is one BUILD_SET. A comprehension {k: v for t in it if c} is lowered to
 * the loop Python runs: an empty BUILD_DICT stored in a fresh $dictcomp variable, then the same
 * ast a user would write, `for t in it: if c: $dictcomp[k] = v` (set comprehensions call
 * `$setcomp.add(x)`), walked by the ordinary statement code, so every iterable, target and
 * condition that a for loop takes works here. The empty table's types come from that store
 * (typing/dict.c). Unlike Python, the comprehension's targets are variables of the function
 * (they are not scoped to the comprehension).
 * set(iterable) is the comprehension {x for x in iterable}.
 * (`del d[k]` is stmt.c's del x[i], a call of the "dict.__delitem__" entry.) */
#include "frontend/internal.h"

/* an ast node of class `cls` (in module ast) with keyword fields, located at `where` */
static PyObject *
node_of(const char *cls, PyObject *where, PyObject *fields)
{
    PyObject *ast = PyImport_ImportModule("ast");
    PyObject *type = ast ? PyObject_GetAttrString(ast, cls) : NULL;
    PyObject *empty = type ? PyTuple_New(0) : NULL;
    PyObject *n = empty && fields ? PyObject_Call(type, empty, fields) : NULL;
    if (n && where) {
        PyObject *r = PyObject_CallMethod(ast, "copy_location", "OO", n, where);
        Py_XDECREF(r);
        if (!r)
            Py_CLEAR(n);
    }
    Py_XDECREF(empty);
    Py_XDECREF(type);
    Py_XDECREF(ast);
    Py_XDECREF(fields);
    return n;
}

static PyObject *
ctx(const char *cls)
{
    return node_of(cls, NULL, PyDict_New());
}

static PyObject *
name_node(PyObject *id, PyObject *where)
{
    PyObject *load = ctx("Load");
    PyObject *n =
        load ? node_of("Name", where, Py_BuildValue("{sOsO}", "id", id, "ctx", load)) : NULL;
    Py_XDECREF(load);
    return n;
}

static int
add_targets(FE *fe, PyObject *t)
{
    if (is(t, "Name"))
        return PySet_Add(fe->locals, A(t, "id"));
    if (is(t, "Tuple") || is(t, "List")) {
        PyObject *elts = A(t, "elts");
        for (Py_ssize_t i = 0; elts && i < PyList_GET_SIZE(elts); i++)
            KN_TRY(add_targets(fe, PyList_GET_ITEM(elts, i)));
    }
    return 0;
}

/* the statement the comprehension's innermost loop runs: `$tmp[k] = v` or `$tmp.add(x)` */
static PyObject *
store_stmt(PyObject *node, PyObject *tmp, int is_set)
{
    PyObject *base = name_node(tmp, node);
    if (!base)
        return NULL;
    if (is_set) {
        PyObject *load = ctx("Load");
        PyObject *attr =
            load ? node_of("Attribute", node,
                           Py_BuildValue("{sOsssO}", "value", base, "attr", "add", "ctx", load))
                 : NULL;
        PyObject *call = attr ? node_of("Call", A(node, "elt"),
                                        Py_BuildValue("{sOs[O]s[]}", "func", attr, "args",
                                                      A(node, "elt"), "keywords"))
                              : NULL;
        Py_XDECREF(load);
        Py_XDECREF(attr);
        Py_DECREF(base);
        PyObject *s = call ? node_of("Expr", node, Py_BuildValue("{sO}", "value", call)) : NULL;
        Py_XDECREF(call);
        return s;
    }
    PyObject *store = ctx("Store");
    PyObject *sub = store ? node_of("Subscript", A(node, "key"),
                                    Py_BuildValue("{sOsOsO}", "value", base, "slice",
                                                  A(node, "key"), "ctx", store))
                          : NULL;
    Py_XDECREF(store);
    Py_DECREF(base);
    PyObject *s = sub ? node_of("Assign", node,
                                Py_BuildValue("{s[O]sOsO}", "targets", sub, "value",
                                              A(node, "value"), "type_comment", Py_None))
                      : NULL;
    Py_XDECREF(sub);
    return s;
}

/* for and if statements around body, from the generators (the last innermost) */
static PyObject *
loops_around(FE *fe, PyObject *node, PyObject *body)
{
    PyObject *gens = A(node, "generators");
    for (Py_ssize_t g = PyList_GET_SIZE(gens) - 1; body && g >= 0; g--) {
        PyObject *gen = PyList_GET_ITEM(gens, g);
        if (Aint(gen, "is_async")) {
            Py_DECREF(body);
            return UNSUPPORTED(fe, gen, "async comprehensions are not supported");
        }
        if (add_targets(fe, A(gen, "target")) < 0) {
            Py_DECREF(body);
            return NULL;
        }
        PyObject *ifs = A(gen, "ifs");
        for (Py_ssize_t i = ifs ? PyList_GET_SIZE(ifs) - 1 : -1; body && i >= 0; i--) {
            PyObject *test = PyList_GET_ITEM(ifs, i);
            PyObject *s = node_of(
                "If", test, Py_BuildValue("{sOs[O]s[]}", "test", test, "body", body, "orelse"));
            Py_DECREF(body);
            body = s;
        }
        if (!body)
            return NULL;
        PyObject *s =
            node_of("For", gen,
                    Py_BuildValue("{sOsOs[O]s[]sO}", "target", A(gen, "target"), "iter",
                                  A(gen, "iter"), "body", body, "orelse", "type_comment", Py_None));
        Py_DECREF(body);
        body = s;
    }
    return body;
}

static Val
comprehension(FE *fe, PyObject *node, int is_set)
{
    KnSpan sp = span_of(fe, node);
    char name[64];
    snprintf(name, sizeof name, "$%scomp%d", is_set ? "set" : "dict", fe->ntemps++);
    PyObject *tmp = PyUnicode_FromString(name);
    if (!tmp || PySet_Add(fe->locals, tmp) < 0) {
        Py_XDECREF(tmp);
        return NULL;
    }
    int var = kn_fe_local_var(fe, name, sp);
    kn_fe_store(fe, sp, var, emit(fe, is_set ? KN_OP_BUILD_SET : KN_OP_BUILD_DICT, node, 0, NULL));
    PyObject *loop = loops_around(fe, node, store_stmt(node, tmp, is_set));
    Py_DECREF(tmp);
    PyObject *body = loop ? Py_BuildValue("[O]", loop) : NULL;
    Py_XDECREF(loop);
    if (!body) {
        if (PyErr_Occurred() && !fe->c->diags.items.len)
            UNSUPPORTED(fe, node, "cannot build this comprehension");
        PyErr_Clear();
        return NULL;
    }
    int rc = kn_fe_stmts(fe, body);
    Py_DECREF(body);
    return rc < 0 ? NULL : kn_fe_load(fe, sp, var);
}

/* set(iterable) as the comprehension {x for x in iterable} (a set, a dict's keys, an array, a
 * list, a tuple, a range); NULL after a diagnostic */
Val
kn_fe_set_of(FE *fe, PyObject *call)
{
    char name[64];
    snprintf(name, sizeof name, "$setitem%d", fe->ntemps++);
    PyObject *id = PyUnicode_FromString(name);
    PyObject *store = id ? ctx("Store") : NULL;
    PyObject *target =
        store ? node_of("Name", call, Py_BuildValue("{sOsO}", "id", id, "ctx", store)) : NULL;
    PyObject *elt = target ? name_node(id, call) : NULL;
    PyObject *gen =
        elt ? node_of("comprehension", NULL,
                      Py_BuildValue("{sOsOs[]si}", "target", target, "iter",
                                    PyList_GET_ITEM(A(call, "args"), 0), "ifs", "is_async", 0))
            : NULL;
    PyObject *comp =
        gen ? node_of("SetComp", call, Py_BuildValue("{sOs[O]}", "elt", elt, "generators", gen))
            : NULL;
    Py_XDECREF(id);
    Py_XDECREF(store);
    Py_XDECREF(target);
    Py_XDECREF(elt);
    Py_XDECREF(gen);
    if (!comp) {
        PyErr_Clear();
        return UNSUPPORTED(fe, call, "cannot build set() of this iterable");
    }
    Val r = comprehension(fe, comp, 1);
    Py_DECREF(comp);
    return r;
}

Val
kn_fe_dict_display(FE *fe, PyObject *node)
{
    const char *k = kind(node);
    if (!strcmp(k, "DictComp") || !strcmp(k, "SetComp"))
        return comprehension(fe, node, k[0] == 'S');
    int is_set = !strcmp(k, "Set");
    PyObject *keys = A(node, is_set ? "elts" : "keys"), *vals = is_set ? NULL : A(node, "values");
    Py_ssize_t n = keys ? PyList_GET_SIZE(keys) : 0;
    KnInstr **args = kn_arena_alloc(&fe->c->arena, sizeof(KnInstr *) * (size_t)(2 * n + 1));
    int m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        if (key == Py_None || is(key, "Starred"))
            return UNSUPPORTED(fe, key == Py_None ? PyList_GET_ITEM(vals, i) : key,
                               "unpacking (** or *) in a %s display is not supported",
                               is_set ? "set" : "dict");
        if (!(args[m++] = kn_fe_expr(fe, key)))
            return NULL;
        if (!is_set && !(args[m++] = kn_fe_expr(fe, PyList_GET_ITEM(vals, i))))
            return NULL;
    }
    return emit(fe, is_set ? KN_OP_BUILD_SET : KN_OP_BUILD_DICT, node, m, args);
}

/* a call of the builtin enumerate or zip (not shadowed by a local) */
static int
is_zip_call(FE *fe, PyObject *node)
{
    if (!is(node, "Call") || PyList_GET_SIZE(A(node, "keywords")) || !is(A(node, "func"), "Name") ||
        PySet_Contains(fe->locals, A(A(node, "func"), "id")) != 0) {
        PyErr_Clear();
        return 0;
    }
    PyObject *o = kn_fe_lookup_global(fe, A(A(node, "func"), "id"));
    PyObject *id = o ? PyDict_GetItemWithError(fe->env->builtin_ids, o) : NULL;
    PyErr_Clear();
    int bid = id ? (int)PyLong_AsLong(id) : -1;
    return bid == KN_BI_ENUMERATE || bid == KN_BI_ZIP;
}

/* dict(k=v, ...) as the display {'k': v, ...} */
static Val
dict_of_keywords(FE *fe, PyObject *call)
{
    PyObject *kws = A(call, "keywords"), *keys = PyList_New(0), *vals = PyList_New(0);
    for (Py_ssize_t i = 0; keys && vals && i < PyList_GET_SIZE(kws); i++) {
        PyObject *kw = PyList_GET_ITEM(kws, i);
        if (A(kw, "arg") == Py_None) {
            Py_DECREF(keys);
            Py_DECREF(vals);
            return UNSUPPORTED(fe, kw, "dict(**mapping) is not supported");
        }
        PyObject *k = node_of("Constant", kw, Py_BuildValue("{sO}", "value", A(kw, "arg")));
        if (!k || PyList_Append(keys, k) < 0 || PyList_Append(vals, A(kw, "value")) < 0)
            Py_CLEAR(keys);
        Py_XDECREF(k);
    }
    PyObject *d = keys && vals
                      ? node_of("Dict", call, Py_BuildValue("{sOsO}", "keys", keys, "values", vals))
                      : NULL;
    Py_XDECREF(keys);
    Py_XDECREF(vals);
    if (!d) {
        PyErr_Clear();
        return UNSUPPORTED(fe, call, "cannot build this dict()");
    }
    Val r = kn_fe_dict_display(fe, d);
    Py_DECREF(d);
    return r;
}

/* dict(zip(a, b)) and dict(enumerate(a)) as {$k: $v for $k, $v in zip(a, b)};
 * dict((k, v) for x in it) and dict([(k, v) for x in it]) as {k: v for x in it} */
static Val
dict_of_pairs(FE *fe, PyObject *call, PyObject *arg)
{
    PyObject *comp = NULL;
    if (is(arg, "GeneratorExp") || is(arg, "ListComp")) {
        PyObject *elt = A(arg, "elt");
        comp = node_of("DictComp", call,
                       Py_BuildValue("{sOsOsO}", "key", PyList_GET_ITEM(A(elt, "elts"), 0), "value",
                                     PyList_GET_ITEM(A(elt, "elts"), 1), "generators",
                                     A(arg, "generators")));
    } else {
        char kname[64], vname[64];
        snprintf(kname, sizeof kname, "$dictkey%d", fe->ntemps);
        snprintf(vname, sizeof vname, "$dictval%d", fe->ntemps++);
        PyObject *kid = PyUnicode_FromString(kname), *vid = PyUnicode_FromString(vname);
        PyObject *store = ctx("Store");
        PyObject *kt =
            store ? node_of("Name", call, Py_BuildValue("{sOsO}", "id", kid, "ctx", store)) : NULL;
        PyObject *vt =
            kt ? node_of("Name", call, Py_BuildValue("{sOsO}", "id", vid, "ctx", store)) : NULL;
        PyObject *target =
            vt ? node_of("Tuple", call, Py_BuildValue("{s[OO]sO}", "elts", kt, vt, "ctx", store))
               : NULL;
        PyObject *key = target ? name_node(kid, call) : NULL;
        PyObject *val = key ? name_node(vid, call) : NULL;
        PyObject *gen = val ? node_of("comprehension", NULL,
                                      Py_BuildValue("{sOsOs[]si}", "target", target, "iter", arg,
                                                    "ifs", "is_async", 0))
                            : NULL;
        comp =
            gen ? node_of("DictComp", call,
                          Py_BuildValue("{sOsOs[O]}", "key", key, "value", val, "generators", gen))
                : NULL;
        Py_XDECREF(kid);
        Py_XDECREF(vid);
        Py_XDECREF(store);
        Py_XDECREF(kt);
        Py_XDECREF(vt);
        Py_XDECREF(target);
        Py_XDECREF(key);
        Py_XDECREF(val);
        Py_XDECREF(gen);
    }
    if (!comp) {
        PyErr_Clear();
        return UNSUPPORTED(fe, call, "cannot build dict() of this iterable");
    }
    Val r = comprehension(fe, comp, 0);
    Py_DECREF(comp);
    return r;
}

/* dict(...) forms the frontend rewrites (dict(zip(a, b)), dict(enumerate(a)), dict of a
 * comprehension of pairs, dict(k=v), dict(x, k=v), dict(**m)); *handled 0 for the others (dict(),
 * dict(pairs), dict(d): typing/dict.c) */
Val
kn_fe_dict_of(FE *fe, PyObject *call, int *handled)
{
    PyObject *args = A(call, "args"), *kws = A(call, "keywords");
    Py_ssize_t n = PyList_GET_SIZE(args), nkw = kws ? PyList_GET_SIZE(kws) : 0;
    *handled = 1;
    int double_star = 0;
    for (Py_ssize_t k = 0; k < nkw; k++)
        double_star |= A(PyList_GET_ITEM(kws, k), "arg") == NULL;
    if (n > 1 || (nkw && (n || double_star)))
        return kn_fe_dict_rewrite(fe, call); /* dict(x, k=v), dict(**m): iter.c */
    if (n == 0 && nkw)
        return dict_of_keywords(fe, call);
    PyObject *arg = n == 1 && !nkw ? PyList_GET_ITEM(args, 0) : NULL;
    if (arg && is_zip_call(fe, arg))
        return dict_of_pairs(fe, call, arg);
    if (arg && (is(arg, "GeneratorExp") || is(arg, "ListComp")) && is(A(arg, "elt"), "Tuple") &&
        PyList_GET_SIZE(A(A(arg, "elt"), "elts")) == 2)
        return dict_of_pairs(fe, call, arg);
    *handled = 0;
    return NULL;
}
