/* box_str.c - the boxing model of str. Unbox borrows: the KnStr points at the object's own PEP
 * 393 characters (kind, ascii and length from its header, hash from its cached hash), mi NULL
 * and parent the object, which the caller keeps alive for the call; nothing is allocated. Box:
 * a borrowed value that is the whole of its parent returns the parent, increfed; anything else
 * is one PyUnicode_New(length, maxchar of its kind) and a memcpy, after which the value's
 * reference is released. Also installs CPython's hash of bytes for the runtime
 * (kn_rt_str_hash_bytes) and gives the text of the last bad int()/float() literal as a str. */
#include "dispatch/box_model.h"

#include "runtime/str.h"

static PyTypeObject *
str_pytype(void)
{
    return &PyUnicode_Type;
}

static int64_t
hash_bytes(const void *p, int64_t n)
{
    return (int64_t)_Py_HashBytes(p, (Py_ssize_t)n);
}

void
kn_box_str_init(void)
{
    kn_rt_str_hash_bytes = hash_bytes;
}

static KnType *
str_typeof(KnState *s, PyObject *o)
{
    KN_UNUSED(s);
    KN_UNUSED(o);
    return &kn_type_str;
}

static int
str_unbox(KnType *t, PyObject *o, char *dst)
{
    KN_UNUSED(t);
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(o)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0)
        return -1;
#endif
    *(KnStr *)dst = (KnStr){.data = PyUnicode_DATA(o),
                            .length = PyUnicode_GET_LENGTH(o),
                            .kind = (int32_t)PyUnicode_KIND(o),
                            .ascii = PyUnicode_IS_ASCII(o),
                            .hash = ((PyASCIIObject *)o)->hash,
                            .parent = o};
    return 0;
}

/* a new str object holding s's characters (s's reference untouched) */
PyObject *
kn_box_str_new(const KnStr *s)
{
    Py_UCS4 maxchar = s->kind == 1 ? (s->ascii ? 127 : 255) : s->kind == 2 ? 0xffff : 0x10ffff;
    PyObject *r = PyUnicode_New((Py_ssize_t)s->length, maxchar);
    if (r && s->length)
        memcpy(PyUnicode_DATA(r), s->data, (size_t)(s->length * s->kind));
    return r;
}

static PyObject *
str_box(KnType *t, const char *src)
{
    KN_UNUSED(t);
    const KnStr *s = (const KnStr *)src;
    PyObject *p = s->parent;
    if (!s->mi && p && s->data == PyUnicode_DATA(p) && s->length == PyUnicode_GET_LENGTH(p)) {
        Py_INCREF(p);
        return p;
    }
    PyObject *r = kn_box_str_new(s);
    kn_rt_decref(s->mi);
    return r;
}

static PyObject *
str_key(KnType *t)
{
    KN_UNUSED(t);
    return PyUnicode_FromString("str");
}

const KnBoxModel kn_box_model_str = {
    .pytype = str_pytype, .typeof = str_typeof, .unbox = str_unbox, .box = str_box, .key = str_key};

/* the last bad literal of int() or float() on this thread (runtime/str.c), as a str */
PyObject *
kn_box_str_error_text(void)
{
    int32_t kind;
    int64_t n;
    const void *p = kn_rt_str_error(&kind, &n);
    return PyUnicode_FromKindAndData(kind, p, (Py_ssize_t)n);
}
