/* record.c - the record type (types/model_record.c) of a structured NumPy dtype, read through
 * the dtype's Python attributes (names, fields, subdtype, kind, itemsize, alignment,
 * isalignedstruct): each field's name, offset and element (a number in native byte order, a
 * nested structured dtype, a fixed-size sub-array of them, a fixed-length 'U' or 'S' string).
 * The type remembers the first dtype object seen (held for the process, as the type table is)
 * to box with. Used by the boxing model (dispatch/box_record.c) and for a global dtype that
 * compiled code names (np.empty(n, dtype=rec_dtype): kn_fe_frozen, names.c). */
#include "frontend/internal.h"

static KnType *record_of(KnTypeTable *t, PyObject *descr, int depth);

static int64_t
attr_int(PyObject *o, const char *name)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    int64_t r = v ? PyLong_AsLongLong(v) : -1;
    Py_XDECREF(v);
    return r;
}

static const char *
attr_str(PyObject *o, const char *name, char *buf, size_t n)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    const char *s = v && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    if (s)
        snprintf(buf, n, "%s", s);
    Py_XDECREF(v);
    return s ? buf : NULL;
}

static int
has_fields(PyObject *descr)
{
    PyObject *names = PyObject_GetAttrString(descr, "names");
    int r = names && names != Py_None;
    Py_XDECREF(names);
    PyErr_Clear();
    return r;
}

/* a datetime64 / timedelta64 field's element (one unit: np.datetime_data) */
static int
datetime_element(KnTypeTable *t, PyObject *base, int delta, KnRecordField *f)
{
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *info = np ? PyObject_CallMethod(np, "datetime_data", "O", base) : NULL;
    Py_XDECREF(np);
    const char *uname = info && PyTuple_Check(info) && PyTuple_GET_SIZE(info) == 2
                            ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(info, 0))
                            : NULL;
    long step = uname ? PyLong_AsLong(PyTuple_GET_ITEM(info, 1)) : 0;
    int unit = kn_type_time_unit_by_name(uname);
    f->type =
        unit >= 0 && (step == 1 || unit == KN_TU_GENERIC) ? kn_type_datetime(t, delta, unit) : NULL;
    Py_XDECREF(info);
    PyErr_Clear();
    if (f->type)
        return 0;
    PyErr_Format(PyExc_TypeError,
                 "kiln does not support the field '%s' (%R): datetime64 and timedelta64 fields "
                 "take one unit",
                 f->name, base);
    return -1;
}

/* the field's element (a number, a nested record, a string) into f; 0 or -1 with an error */
static int
field_element(KnTypeTable *t, PyObject *descr, PyObject *base, KnRecordField *f, int depth)
{
    if (has_fields(base)) {
        f->type = record_of(t, base, depth + 1);
        return f->type ? 0 : -1;
    }
    char kind[8], name[64];
    PyObject *native = PyObject_GetAttrString(base, "isnative");
    int is_native = native == Py_True;
    Py_XDECREF(native);
    if (!attr_str(base, "kind", kind, sizeof kind) || !attr_str(base, "name", name, sizeof name))
        return -1;
    if (is_native && (kind[0] == 'M' || kind[0] == 'm')) /* datetime64 / timedelta64 */
        return datetime_element(t, base, kind[0] == 'm', f);
    if (kind[0] == 'U' || kind[0] == 'S') {
        f->chars = kind[0];
        f->nchars = attr_int(base, "itemsize") / (kind[0] == 'U' ? 4 : 1);
        f->type = &kn_type_str;
        return 0;
    }
    f->type = is_native && strchr("biufc", kind[0]) ? kn_fe_numpy_type_by_name(name) : NULL;
    if (f->type)
        return 0;
    PyErr_Format(PyExc_TypeError,
                 "kiln does not support the field '%s' (%R) of the structured dtype %R: fields "
                 "may be numbers in native byte order, structured dtypes, fixed-size sub-arrays "
                 "of them, and fixed-length str ('U') or bytes ('S')",
                 f->name, base, descr);
    return -1;
}

/* the sub-array shape of fd (its subdtype (base, shape)) into f; *base the element dtype */
static int
sub_array(PyObject *descr, PyObject *fd, KnRecordField *f, PyObject **base)
{
    PyObject *sub = PyObject_GetAttrString(fd, "subdtype");
    if (!sub)
        return -1;
    if (sub == Py_None) {
        Py_DECREF(sub);
        *base = Py_NewRef(fd);
        return 0;
    }
    PyObject *shape = PyTuple_GET_ITEM(sub, 1);
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    if (nd < 1 || nd > 8) {
        PyErr_Format(PyExc_TypeError,
                     "kiln supports sub-array fields of 1 to 8 dimensions, not the field '%s' "
                     "of %R",
                     f->name, descr);
        Py_DECREF(sub);
        return -1;
    }
    f->ndim = (int)nd;
    for (Py_ssize_t k = 0; k < nd; k++)
        f->shape[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, k));
    *base = Py_NewRef(PyTuple_GET_ITEM(sub, 0));
    Py_DECREF(sub);
    return PyErr_Occurred() ? -1 : 0;
}

/* one field: name, and its (dtype, offset[, title]) from dtype.fields */
static int
read_field(KnTypeTable *t, PyObject *descr, PyObject *name, PyObject *info, KnRecordField *f,
           int depth)
{
    f->name = PyUnicode_AsUTF8(name);
    if (!f->name || !PyTuple_Check(info) || PyTuple_GET_SIZE(info) < 2)
        return -1;
    PyObject *fd = PyTuple_GET_ITEM(info, 0), *base = NULL;
    f->offset = PyLong_AsLongLong(PyTuple_GET_ITEM(info, 1));
    f->size = attr_int(fd, "itemsize");
    if (PyErr_Occurred() || sub_array(descr, fd, f, &base) < 0)
        return -1;
    int rc = field_element(t, descr, base, f, depth);
    Py_DECREF(base);
    return rc;
}

static KnType *
record_of(KnTypeTable *t, PyObject *descr, int depth)
{
    PyObject *names = PyObject_GetAttrString(descr, "names");
    PyObject *fields = names ? PyObject_GetAttrString(descr, "fields") : NULL;
    KnType *r = NULL;
    KnRecordField fs[256];
    Py_ssize_t n = names && PyTuple_Check(names) ? PyTuple_GET_SIZE(names) : -1;
    if (depth > 32 || n < 0 || !fields || n > 256) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "kiln supports structured dtypes of at most 256 fields, not %R", descr);
        goto done;
    }
    memset(fs, 0, sizeof fs);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        PyObject *info = PyObject_GetItem(fields, name);
        int rc = info ? read_field(t, descr, name, info, &fs[i], depth) : -1;
        Py_XDECREF(info);
        if (rc < 0) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "kiln cannot read the structured dtype %R", descr);
            goto done;
        }
    }
    PyObject *al = PyObject_GetAttrString(descr, "isalignedstruct");
    int aligned = al == Py_True;
    Py_XDECREF(al);
    int64_t size = attr_int(descr, "itemsize"), align = attr_int(descr, "alignment");
    if (PyErr_Occurred())
        goto done;
    r = kn_type_record(t, fs, (int)n, size, (int)align, aligned);
    if (!r->descr)
        r->descr = Py_NewRef(descr); /* held for the process, as the type table is */
done:
    Py_XDECREF(names);
    Py_XDECREF(fields);
    return r;
}

KnType *
kn_fe_record_type(KnTypeTable *t, PyObject *descr)
{
    return record_of(t, descr, 0);
}

/* whether o is a structured np.dtype */
int
kn_fe_is_record_dtype(PyObject *o)
{
    static PyObject *dtype_class; /* numpy.dtype, held for the process */
    if (!dtype_class) {
        PyObject *np = PyImport_ImportModule("numpy");
        dtype_class = np ? PyObject_GetAttrString(np, "dtype") : NULL;
        Py_XDECREF(np);
        if (!dtype_class) {
            PyErr_Clear();
            return 0;
        }
    }
    int is = PyObject_IsInstance(o, dtype_class);
    PyErr_Clear();
    return is > 0 && has_fields(o);
}
