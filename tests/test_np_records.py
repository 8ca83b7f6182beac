"""Structured dtypes (records): arrays of them as arguments and results, fields read and
written on records and arrays (views), records as scalars writing through, record arguments
and results, np.empty/np.zeros with a global dtype, np.recarray, iteration; NumPy (the same
function run by the interpreter on a copy) is the oracle. docs/numpy.md, "Structured dtypes"."""

import numpy as np
import pytest

import kiln
from kiln.errors import TypingError

PACKED = np.dtype([("x", "f8"), ("v", "f8"), ("id", "i4")])
ALIGNED = np.dtype([("x", "f8"), ("id", "i4"), ("v", "f4"), ("flag", "?")], align=True)
ODD = np.dtype([("a", "u1"), ("x", "f8"), ("id", "i2"), ("c", "c16")])  # packed, unaligned
NESTED = np.dtype([("pos", [("x", "f4"), ("y", "f4")]), ("m", "f8"), ("id", "i8")])
SUB = np.dtype([("id", "i4"), ("vec", "f8", (3,)), ("mat", "i2", (2, 2))])
STRS = np.dtype([("name", "U5"), ("tag", "S4"), ("n", "i4")])

rec_dtype = PACKED  # named by compiled code below (a global dtype)
nested_dtype = NESTED


def make(dt, n=5, seed=0):
    rng = np.random.default_rng(seed)
    a = np.zeros(n, dt)
    for name in dt.names:
        f = a[name]
        if f.dtype.names:
            for sub in f.dtype.names:
                f[sub] = rng.integers(0, 100, f[sub].shape).astype(f[sub].dtype)
        elif f.dtype.kind in "US":
            f[...] = np.array(["ab", "xyz", "", "hello", "q"] * n)[: n].astype(f.dtype)
        else:
            a[name] = rng.integers(0, 100, f.shape).astype(f.dtype)
    return a


def as_py(a):
    """a copy the interpreter runs on: an np.recarray, whose records take attribute access"""
    if isinstance(a, np.ndarray):
        c = a.copy()
        return c.view(np.recarray) if a.dtype.names else c
    return a


def same(got, expected):
    """got (kiln's) equals expected (the interpreter's), field by field for records"""
    if isinstance(expected, (np.ndarray, np.void)) and expected.dtype.names:
        assert got.dtype.names == expected.dtype.names
        assert np.shape(got) == np.shape(expected)
        for name in expected.dtype.names:
            same(got[name], expected[name])
    elif isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected


def check(fn, *args):
    """fn compiled and interpreted (on copies of the array arguments) agree, result and arguments"""
    py_args = [as_py(a) for a in args]
    expected = fn(*py_args)
    got = kiln.njit(fn)(*args)
    if isinstance(expected, np.void):
        assert isinstance(got, np.void)
    same(got, expected)
    for a, b in zip(args, py_args):
        if isinstance(a, np.ndarray):
            same(a, b)
    return got


def read_attr(a, i):
    return a[i].x + a[i].id


def read_item(a, i):
    return a[i]["x"] * 2 + a[i]["id"]


@pytest.mark.parametrize("dt", [PACKED, ALIGNED, ODD], ids=["packed", "aligned", "odd"])
@pytest.mark.parametrize("fn", [read_attr, read_item])
def test_read_fields(dt, fn):
    a = make(dt)
    for i in (0, 3, -1):
        check(fn, a, i)


def test_read_strided_and_2d():
    a = make(PACKED, 10)
    check(read_attr, a[::3], 1)
    check(read_attr, a[::-2], 2)

    def f(m):
        s = 0.0
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                s += m[i, j].x * (j + 1) + m[i, j]["id"]
        return s

    m = make(PACKED, 12).reshape(3, 4)
    check(f, m)
    check(f, m.T)
    check(f, m[:, ::2])


def write_attr(a):
    for i in range(len(a)):
        a[i].x = i * 1.5
        a[i].id = a[i].id + 1
    return a[0].x


def write_item(a):
    for i in range(len(a)):
        a[i]["x"] = a[i]["id"] * 0.5
        a[i]["id"] += 7
    return 0


def write_through(a):
    r = a[1]
    r.x += 1
    r["id"] *= 3
    r.id -= 1
    return r.x


@pytest.mark.parametrize("dt", [PACKED, ALIGNED, ODD], ids=["packed", "aligned", "odd"])
@pytest.mark.parametrize("fn", [write_attr, write_item, write_through])
def test_write_fields(dt, fn):
    check(fn, make(dt))
    check(fn, make(dt, 9)[::2])


def test_field_views():
    def get(a):
        return a["x"]

    def attr(a):
        return a.id

    def setv(a):
        a["x"] = 2.5
        a["v"][1:] = a["x"][:-1] + 1
        y = a.id
        y[0] = 42
        return a

    for a in (make(PACKED), make(ALIGNED), make(PACKED, 11)[::3], make(PACKED, 0)):
        check(get, a)
        if len(a):
            assert np.shares_memory(kiln.njit(get)(a), a)
        check(attr, a)
        if len(a) and "v" in a.dtype.names and a.dtype["v"] == np.float64:
            check(setv, a)


def test_field_view_2d_strided():
    def f(m):
        return m["x"].sum() + m.id[1, :].sum()

    m = make(PACKED, 12).reshape(3, 4)
    check(f, m)
    check(f, m[:, ::-1])


def test_iteration():
    def f(a):
        s = 0.0
        for r in a:
            s += r.x * r.id
            r.v = s
        return s

    for a in (make(PACKED), make(PACKED, 8)[1::2], make(PACKED, 0)):
        check(f, a)


def test_nested():
    def f(a):
        s = 0.0
        for i in range(len(a)):
            p = a[i].pos
            s += p.x + a[i]["pos"]["y"] * a[i].m
            p.y = i
            a[i].pos.x += 1
        return s

    def view(a):
        return a["pos"]["x"] + a.pos.y

    def copy_rec(a):
        a[0].pos = a[1].pos
        a[2] = a[3]
        return a

    a = make(NESTED)
    check(f, a)
    check(view, a)
    check(copy_rec, a)


def test_sub_arrays():
    def f(a):
        s = 0.0
        for i in range(len(a)):
            s += a[i].vec.sum() + a[i]["mat"][1, 0]
            a[i].vec[2] = s
            a[i]["mat"][0, 1] += 1
        return s

    def fill(a):
        a[0].vec = 7.0
        a[1].mat = np.arange(4).reshape(2, 2)
        return a

    def view(a):
        return a["vec"][:, 1] + a.mat[:, 1, 1]

    a = make(SUB)
    check(f, a)
    check(fill, a)
    check(view, a)
    check(view, make(SUB, 7)[::2])


def test_string_fields():
    def f(a):
        n = 0
        for i in range(len(a)):
            if a[i].name == "xyz":
                n += 10
            n += len(a[i].name) + len(a[i]["tag"])
        return n

    def name(a, i):
        return a[i].name

    def write(a):
        a[0].name = "hi"
        a[1].name = "toolongname"
        a[2]["tag"] = "zz"
        return a

    a = make(STRS)
    check(f, a)
    for i in range(len(a)):
        assert kiln.njit(name)(a, i) == str(a[i]["name"])
    check(write, a)


def test_record_argument_and_result():
    def get(a, i):
        return a[i]

    def arg(r):
        return r.x * 2 + r["id"]

    def nested_arg(r):
        return r.pos.x + r.m

    a = make(PACKED)
    check(get, a, 2)
    check(get, make(NESTED), 1)
    check(get, make(ALIGNED), -1)
    for i in range(len(a)):
        assert kiln.njit(arg)(a[i]) == arg(as_py(a)[i])
    n = make(NESTED)
    assert kiln.njit(nested_arg)(n[3]) == nested_arg(as_py(n)[3])


def test_empty_and_zeros_with_global_dtype():
    def zeros(n):
        a = np.zeros(n, dtype=rec_dtype)
        for i in range(n):
            a[i]["x"] = i
            a[i]["id"] = 2 * i
        return a

    def empty(n):
        a = np.empty(n, rec_dtype)
        a["v"] = 1.0
        a["x"] = 0.0
        a["id"] = 3
        for r in a:
            r["x"] += r["v"]
        return a

    def nested(n):
        return np.zeros((n, 2), dtype=nested_dtype)

    for n in (0, 1, 5):
        check(zeros, n)
        check(empty, n)
        check(nested, n)

    def like(a):
        b = np.zeros_like(a)
        b["id"] = a["id"]
        return b

    check(like, make(PACKED))


def test_recarray():
    def f(a):
        return a.x + a.id

    def g(a, i):
        a[i].v = 9.0
        return a[i].v + a.x[i]

    r = make(PACKED).view(np.recarray)
    np.testing.assert_array_equal(kiln.njit(f)(r), f(r))
    check(g, make(PACKED).view(np.recarray), 2)


def test_array_of_records_result_roundtrip():
    def same(a):
        return a

    def part(a):
        return a[1:3]

    a = make(NESTED)
    assert kiln.njit(same)(a) is a
    check(part, a)
    check(part, make(SUB))


def test_unknown_field_is_a_typing_error():
    def f(a):
        return a[0].z

    def g(a):
        return a[0]["nope"]

    def h(a):
        a[0].w = 1.0

    def v(a):
        return a["missing"]

    for fn, where in ((f, "a[0].z"), (g, '"nope"'), (h, "a[0].w"), (v, '"missing"')):
        with pytest.raises(TypingError) as e:
            kiln.njit(fn)(make(PACKED))
        msg = str(e.value)
        assert "has no field" in msg and "'x', 'v', 'id'" in msg
        assert where in msg  # the source line shown, with the caret under it


def test_bad_field_forms():
    def var_name(a, k):
        return a[0][k]

    with pytest.raises(TypingError, match="constant str"):
        kiln.njit(var_name)(make(PACKED), "x")

    def store_str(a):
        a[0].x = "s"

    with pytest.raises(TypingError, match="cannot store str into field 'x'"):
        kiln.njit(store_str)(make(PACKED))

    def ones(n):
        return np.ones(n, dtype=rec_dtype)

    with pytest.raises(TypingError, match="structured dtype"):
        kiln.njit(ones)(3)

    def readonly(a):
        a["x"] = 1.0

    b = make(PACKED)
    b.setflags(write=False)
    with pytest.raises(TypingError, match="read-only"):
        kiln.njit(readonly)(b)


def test_attribute_assignment_elsewhere_is_a_typing_error():
    def f(a):
        a.shape = (2,)

    with pytest.raises(TypingError, match="attribute assignment"):
        kiln.njit(f)(np.zeros(2))


@pytest.mark.parametrize(
    "dt",
    [
        np.dtype([("x", ">f8")]),
        np.dtype([("o", "O")]),
        np.dtype([("t", "M8[10s]")]),
    ],
    ids=["big-endian", "object", "datetime-multiple"],
)
def test_unsupported_field_dtypes(dt):
    def f(a):
        return len(a)

    with pytest.raises(TypeError, match="does not support the field"):
        kiln.njit(f)(np.zeros(2, dt))


def test_same_dtype_objects_share_a_type():
    def f(a):
        return a[0].x

    g = kiln.njit(f)
    d2 = np.dtype([("x", "f8"), ("v", "f8"), ("id", "i4")])
    g(make(PACKED))
    g(np.zeros(3, d2))
    assert len(g.signatures) == 1


def test_sub_array_field_returned_is_a_copy():
    def f(a, i):
        return a[i].vec

    def g(a):
        r = a[1]
        return r.mat, r.id

    a = make(SUB)
    got = kiln.njit(f)(a, 2)
    np.testing.assert_array_equal(got, a[2]["vec"])
    m, i = kiln.njit(g)(a)
    np.testing.assert_array_equal(m, a[1]["mat"])
    assert i == a[1]["id"]


def test_records_in_tuples_and_copies():
    def f(a):
        b = a.copy()
        b[0].x = -1.0
        return b, a[1], (a[2], a[3].id)

    a = make(PACKED)
    b, r1, (r2, i3) = kiln.njit(f)(a)
    assert b[0]["x"] == -1.0 and a[0]["x"] != -1.0
    assert r1.tobytes() == a[1].tobytes() and r2.tobytes() == a[2].tobytes()
    assert i3 == a[3]["id"]


def test_print_records(capsys):
    def f(a):
        print(a[1])

    a = make(PACKED)
    kiln.njit(f)(a)
    assert capsys.readouterr().out == str(a[1]) + "\n"


def test_unsupported_forms_are_typing_errors():
    forms = [
        lambda a: a.sum(),
        lambda a: a.fill(0),
        lambda a: a.astype(np.float64),
        lambda a: [a[0], a[1]],
        lambda a: a[0] == a[1],
        lambda a: a + 1,
        lambda a: np.sort(a),
    ]
    for fn in forms:
        with pytest.raises(TypingError):
            kiln.njit(fn)(make(PACKED))
