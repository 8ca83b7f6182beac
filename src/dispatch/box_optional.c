/* box_optional.c - the boxing model of optional values (types/model_optional.c): None or the
 * value's own object; C layout: the value, then a byte that is 1 when a value is present. No
 * Python object types as optional (typeof gives None or the value's type); a signature may
 * name one (key ("optional", T's key)). */
#include "dispatch/box_model.h"

static int
optional_unbox(KnType *t, PyObject *o, char *dst)
{
    size_t n = kn_type_size(t->dtype);
    if (o == Py_None) {
        memset(dst, 0, n + 1);
        return 0;
    }
    KN_TRY(kn_box_unbox(t->dtype, o, dst));
    dst[n] = 1;
    return 0;
}

static PyObject *
optional_box(KnType *t, const char *src)
{
    if (!src[kn_type_size(t->dtype)])
        Py_RETURN_NONE; /* a None holds no references (its value is zero) */
    return kn_box_box(t->dtype, src);
}

static PyObject *
optional_key(KnType *t)
{
    return Py_BuildValue("(sN)", "optional", kn_box_key(t->dtype));
}

static KnType *
optional_from_key(KnState *s, PyObject *key)
{
    if (PyTuple_GET_SIZE(key) != 2) {
        PyErr_Format(PyExc_TypeError, "kiln: bad optional type key %R", key);
        return NULL;
    }
    KnType *v = kn_box_from_key(s, PyTuple_GET_ITEM(key, 1));
    if (!v)
        return NULL;
    if (!kn_type_is_value(v) || v->kind == KN_TY_NONE || v->kind == KN_TY_OPTIONAL) {
        PyErr_Format(PyExc_TypeError, "kiln: optional(%s) is not a type", v->name);
        return NULL;
    }
    return kn_type_optional(&s->types, v);
}

static void
optional_release(KnType *t, char *src)
{
    if (src[kn_type_size(t->dtype)])
        kn_box_release(t->dtype, src);
}

const KnBoxModel kn_box_model_optional = {.unbox = optional_unbox,
                                          .box = optional_box,
                                          .key = optional_key,
                                          .tag = "optional",
                                          .from_key = optional_from_key,
                                          .release = optional_release};
