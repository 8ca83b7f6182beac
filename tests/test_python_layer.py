"""The Python layer alone: signatures, type objects, decorator options, error rendering, get_source.

Nothing here needs ``kiln._core`` to compile: where the decorators would build a dispatcher, a fake
``kiln._core`` stands in and records what it was given.
"""

import ast
import linecache
import os
import pickle
import subprocess
import sys
import textwrap
import types as pytypes

import pytest

import kiln
from kiln import config, errors
from kiln import types as kt
from kiln._support import from_key, get_source, make_error
from kiln.errors import LoweringError, TypingError, UnsupportedError


# --- signatures ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, ret, args", [
    ("float64(int64, float64)", kt.float64, (kt.int64, kt.float64)),
    ("  float64 ( int64 ,float64 ) ", kt.float64, (kt.int64, kt.float64)),
    ("(int64,)", None, (kt.int64,)),
    ("(int64, float64)", None, (kt.int64, kt.float64)),
    ("int64()", kt.int64, ()),
    ("void(float64)", kt.none, (kt.float64,)),
    ("b1(i8, f4, c16, intp, uint8, boolean)", kt.boolean,
     (kt.int64, kt.float32, kt.complex128, kt.intp, kt.uint8, kt.boolean)),
    ("UniTuple(int64, 3)(int64)", kt.UniTuple(kt.int64, 3), (kt.int64,)),
    ("Tuple(int64, float64)(int64)", kt.Tuple(kt.int64, kt.float64), (kt.int64,)),
    ("Tuple((int64, float64))(int64)", kt.Tuple(kt.int64, kt.float64), (kt.int64,)),
    ("none(Tuple(int64, Tuple(float64, bool)))", kt.none,
     (kt.Tuple(kt.int64, kt.Tuple(kt.float64, kt.boolean)),)),
])
def test_parse_signature(text, ret, args):
    sig = kt.parse_signature(text)
    assert sig.return_type == ret
    assert sig.args == args


def test_signature_str_and_call():
    assert str(kt.parse_signature("float64(int64, float64)")) == "float64(int64, float64)"
    assert str(kt.parse_signature("(int64,)")) == "(int64)"
    assert str(kt.parse_signature("Tuple(int64, int64)()")) == "UniTuple(int64 x 2)()"
    sig = kiln.float64(kiln.int64, kiln.int64)
    assert sig == kt.parse_signature("float64(int64, int64)")
    assert sig.return_type is kiln.float64 and sig.args == (kiln.int64, kiln.int64)
    assert str(kiln.void(kiln.f8)) == "none(float64)"


@pytest.mark.parametrize("text", [
    "", "int64", "int64(", "int64(foo)", "int64(int64) extra", "int64(int64,,)",
    "UniTuple(int64, x)(int64)", "int64(int64", "int64(int64)(", "1(int64)", "int64(int64;)",
    "int64(int64.x)", "Tuple(int64(int64)",
])
def test_parse_signature_bad(text):
    with pytest.raises(TypeError, match="invalid signature"):
        kt.parse_signature(text)


def test_parse_signature_names_the_unknown_type():
    with pytest.raises(TypeError, match="unknown type 'foo'"):
        kt.parse_signature("int64(foo)")
    with pytest.raises(TypeError):
        kt.parse_signature(5)


@pytest.mark.parametrize("text, args, ret", [
    ("float64(float64[:])", [("array", "float64", 1, "A", False)], "float64"),
    ("void(int64[:, ::1])", [("array", "int64", 2, "C", False)], "none"),
    ("int64[::1, :]()", [], ("array", "int64", 2, "F", False)),
    ("(float32[:, :, ::1], int64)", [("array", "float32", 3, "C", False), "int64"], None),
])
def test_parse_signature_arrays(text, args, ret):
    sig = kt.parse_signature(text)
    assert [a.key for a in sig.args] == args
    assert (sig.return_type.key if sig.return_type is not None else None) == ret


@pytest.mark.parametrize("text", ["float64[1:]()", "float64[:, ::2]()", "float64[()", "float64[]()"])
def test_parse_signature_bad_arrays(text):
    with pytest.raises(TypeError):
        kt.parse_signature(text)


# --- type objects -------------------------------------------------------------------------------

SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128", "none"]


@pytest.mark.parametrize("key", SCALARS)
def test_scalar_keys_round_trip(key):
    t = from_key(key)
    assert t.key == key
    assert from_key(t.key) is t
    assert str(t) == repr(t) == key  # Numba's names: bool, int64, none ...


@pytest.mark.parametrize("key", [
    ("tuple",), ("tuple", "int64"), ("tuple", "int64", "int64", "int64"),
    ("tuple", "int64", "float64"), ("tuple", ("tuple", "bool", "int8"), "complex128"),
    "range", "str", ("array", "float64", 2, "C", False),
])
def test_compound_keys_round_trip(key):
    assert from_key(key).key == key
    assert from_key(key) == from_key(key) and hash(from_key(key)) == hash(from_key(key))


def test_type_names():
    assert str(kt.UniTuple(kt.int64, 3)) == "UniTuple(int64 x 3)"
    assert str(kt.Tuple([kt.int64, kt.float64])) == "Tuple(int64, float64)"
    assert str(kt.range_state64_type) == "range_state64"
    assert str(from_key(("array", "float64", 1, "C", True))) == "readonly array(float64, 1d, C)"


def test_tuple_of_one_type_is_unituple():
    t = kt.Tuple(kt.int64, kt.int64)
    assert isinstance(t, kt.UniTuple) and t.count == 2 and t.dtype is kt.int64
    assert t == kt.UniTuple(kt.int64, 2)
    assert list(kt.Tuple(kt.int64, kt.float64)) == [kt.int64, kt.float64]
    assert kt.Tuple(kt.int64, kt.float64)[1] is kt.float64


def test_unknown_key():
    for key in ("int128", ("list",), ("list", "undefined"), 3, ()):  # ("list", item) is known now
        with pytest.raises(ValueError, match="unknown kiln type key"):
            from_key(key)


def test_top_level_aliases():
    assert kiln.boolean is kiln.b1 is kiln.bool_ is kt.boolean
    assert kiln.i8 is kiln.int64 and kiln.u1 is kiln.uint8 and kiln.byte is kiln.uint8
    assert kiln.f8 is kiln.float64 is kiln.double and kiln.f4 is kiln.float32
    assert kiln.float_ is kiln.float32  # as numba.float_
    assert kiln.c8 is kiln.complex64 and kiln.c16 is kiln.complex128
    assert kiln.void is kiln.none
    assert kiln.intp.bitwidth == 8 * __import__("struct").calcsize("n")
    for name in kt.scalar_names:
        assert getattr(kiln, name) is getattr(kt, name)


def test_cast_and_arrays():
    assert kiln.int64(3.7) == 3 and type(kiln.int64(3.7)).__name__ == "int64"
    assert kiln.boolean(2) is True
    assert kiln.int64 != kiln.int32 and kiln.int64 != "int64"
    assert kiln.float64[:].key == ("array", "float64", 1, "A", False)
    assert kiln.float64[:, ::1].key == ("array", "float64", 2, "C", False)
    assert kiln.float64[::1, :].key == ("array", "float64", 2, "F", False)
    with pytest.raises(TypeError):
        kiln.float64[1:]


# --- decorators ---------------------------------------------------------------------------------

@pytest.fixture
def core(monkeypatch):
    """A fake kiln._core whose Dispatcher records its options and compiled signatures."""
    fake = pytypes.ModuleType("kiln._core")

    class Dispatcher:
        def __init__(self, py_func, options):
            self.py_func, self.options, self.compiled = py_func, options, []

        def compile(self, argkeys, retkey=None):
            self.compiled.append((argkeys, retkey))

    fake.Dispatcher = Dispatcher
    fake.typeof = lambda value: {int: "int64", float: "float64", tuple: ("tuple", "int64")}[
        type(value)]
    fake.memory_stats = lambda: {"alloc": 3, "free": 2, "mi_alloc": 1, "mi_free": 1}
    monkeypatch.setitem(sys.modules, "kiln._core", fake)
    monkeypatch.setattr(kiln, "_core", fake, raising=False)
    monkeypatch.setattr(config, "DISABLE_JIT", False)
    monkeypatch.setattr(config, "BOUNDSCHECK", None)
    return fake


def add(a, b):
    return a + b


DEFAULT_OPTIONS = {"fastmath": frozenset(), "boundscheck": None, "error_model": "python",
                   "nogil": False, "parallel": False}


@pytest.mark.parametrize("decorate", [
    lambda f: kiln.njit(f), lambda f: kiln.njit()(f), lambda f: kiln.jit(f),
    lambda f: kiln.jit()(f), lambda f: kiln.jit(nopython=True)(f),
])
def test_lazy_forms(core, decorate):
    disp = decorate(add)
    assert isinstance(disp, core.Dispatcher)
    assert disp.py_func is add and disp.options == DEFAULT_OPTIONS and disp.compiled == []


@pytest.mark.parametrize("sig, expected", [
    ("float64(int64, float64)", [(("int64", "float64"), "float64")]),
    (["int64(int64, int64)", "float64(float64, float64)"],
     [(("int64", "int64"), "int64"), (("float64", "float64"), "float64")]),
    (kiln.float64(kiln.int64, kiln.float64), [(("int64", "float64"), "float64")]),
    ("(int64, float64)", [(("int64", "float64"), None)]),
    ((kiln.int64, kiln.int64), [(("int64", "int64"), None)]),
    ("UniTuple(int64, 2)(int64, int64)", [(("int64", "int64"), ("tuple", "int64", "int64"))]),
])
def test_eager_forms(core, sig, expected):
    assert kiln.njit(sig)(add).compiled == expected
    assert kiln.jit(sig, fastmath=True)(add).compiled == expected


@pytest.mark.parametrize("opts, expected", [
    ({"fastmath": True}, {"fastmath": frozenset({"fast"})}),
    ({"fastmath": False}, {}),
    ({"fastmath": {"nnan", "ninf"}}, {"fastmath": frozenset({"nnan", "ninf"})}),
    ({"fastmath": {"nsz": True, "arcp": False}}, {"fastmath": frozenset({"nsz"})}),
    ({"error_model": "numpy"}, {"error_model": "numpy"}),
    ({"boundscheck": True}, {"boundscheck": True}),
    ({"boundscheck": False}, {"boundscheck": False}),
    ({"nogil": True, "parallel": False, "cache": False, "inline": "never", "debug": False,
      "locals": {}, "looplift": False, "_nrt": True, "target": "cpu"}, {"nogil": True}),
    # supported since issue 10 (they were refused before): tests/test_options.py runs them
    ({"inline": "always"}, {"inline": "always"}), ({"forceinline": True}, {"inline": "always"}),
    ({"inline": len}, {}), ({"no_cpython_wrapper": True}, {}),
    ({"locals": {"x": kiln.int64}}, {"locals": {"x": "int64"}}),
    ({"parallel": True}, {"parallel": True}),
    ({"parallel": {"prange": True, "numpy": False}}, {"parallel": True}),
    ({"parallel": {"prange": False}}, {"parallel": False}),
])
def test_options(core, opts, expected):
    assert kiln.njit(**opts)(add).options == {**DEFAULT_OPTIONS, **expected}


@pytest.mark.parametrize("name, value", [
    ("cache", True),
    ("no_cfunc_wrapper", True), ("_nrt", False), ("target", "cuda"), ("pipeline_class", object),
    ("debug", True),
])
def test_unsupported_options(core, name, value):
    with pytest.raises(UnsupportedError, match=f"{name}=.*not supported yet"):
        kiln.njit(**{name: value})
    with pytest.raises(UnsupportedError, match=name):
        kiln.jit("int64(int64)", **{name: value})


@pytest.mark.parametrize("opts, exc", [
    ({"fastmath": {"bogus"}}, ValueError), ({"fastmath": "fast"}, ValueError),
    ({"error_model": "c"}, ValueError), ({"boundscheck": "yes"}, TypeError),
    ({"inline": "sometimes"}, ValueError), ({"nogil": 1}, TypeError),
    ({"locals": []}, TypeError), ({"parallel": "yes"}, ValueError),
    ({"parallel": {"bogus": True}}, NameError),
])
def test_bad_option_values(core, opts, exc):
    with pytest.raises(exc):
        kiln.njit(**opts)


def test_unknown_option_is_a_key_error(core):
    with pytest.raises(KeyError, match="fast_math"):
        kiln.njit(fast_math=True)


def test_object_mode(core):
    with pytest.raises(UnsupportedError, match="forceobj"):
        kiln.jit(forceobj=True)
    with pytest.raises(ValueError, match="Only one of"):
        kiln.jit(nopython=True, forceobj=True)
    with pytest.warns(errors.KilnDeprecationWarning, match="nopython=False"):
        disp = kiln.jit(nopython=False)(add)
    assert isinstance(disp, core.Dispatcher)
    with pytest.warns(RuntimeWarning, match="ignored"):
        kiln.njit(nopython=True)(add)
    with pytest.warns(RuntimeWarning, match="ignored"):
        kiln.njit(forceobj=True)(add)


class NotAFunction:
    pass


@pytest.mark.parametrize("obj", [len, NotAFunction, 42, kiln.int64])
def test_not_a_function(core, obj):
    with pytest.raises(TypeError, match="not a function"):
        kiln.njit(obj)


def test_already_jitted(core):
    with pytest.raises(TypeError, match="already jitted"):
        kiln.njit(kiln.njit(add))


def test_disable_jit(core, monkeypatch):
    monkeypatch.setattr(config, "DISABLE_JIT", True)
    assert kiln.njit(add) is add
    assert kiln.njit("int64(int64, int64)", parallel=True)(add) is add
    assert kiln.jit(cache=True)(add) is add


def test_boundscheck_from_environment(core, monkeypatch):
    monkeypatch.setattr(config, "BOUNDSCHECK", True)
    assert kiln.njit(add).options["boundscheck"] is True
    assert kiln.njit(boundscheck=False)(add).options["boundscheck"] is True


def test_reload_config(monkeypatch):
    for name in ("DUMP", "BOUNDSCHECK", "DISABLE_JIT"):
        monkeypatch.setattr(config, name, getattr(config, name))
    monkeypatch.setenv("KILN_DUMP", "kir, LLVM,asm")
    monkeypatch.setenv("KILN_BOUNDSCHECK", "1")
    monkeypatch.setenv("KILN_DISABLE_JIT", "0")
    config.reload_config()
    assert config.DUMP == {"kir", "llvm", "asm"}
    assert config.BOUNDSCHECK is True and config.DISABLE_JIT is False
    monkeypatch.setenv("KILN_DUMP", "kir,bogus")
    monkeypatch.setenv("KILN_BOUNDSCHECK", "")
    with pytest.warns(RuntimeWarning, match="bogus"):
        config.reload_config()
    assert config.DUMP == {"kir"} and config.BOUNDSCHECK is None


def test_misc_api(core):
    with pytest.raises(UnsupportedError, match="generated_jit"):
        kiln.generated_jit(add)
    assert kiln.prange(2, 7, 2) == range(2, 7, 2)
    assert kiln.typeof(3) is kiln.int64
    assert kiln.typeof((1,)) == kt.UniTuple(kiln.int64, 1)
    stats = kiln.runtime.memory_stats()
    assert stats == (3, 2, 1, 1) and stats.free == 2 and stats.mi_alloc == 1
    assert kiln.__version__ == "0.1.0"


def test_import_is_cheap():
    code = ("import sys; before = set(sys.modules); import kiln; "
            "print(sorted((set(sys.modules) - before) & "
            "{'inspect', 'ast', 'linecache', 'textwrap', 'tokenize', 'kiln._core'}))")
    root = os.path.dirname(os.path.dirname(os.path.abspath(kiln.__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-S", "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"


# --- error rendering ----------------------------------------------------------------------------

STATS = """\
def stats(values, label):
    total = 0
    for v in values:
        total = total + label
\treturn\ttotal + label
    return (total +
            label)
"""


@pytest.fixture
def stats_py(tmp_path, monkeypatch):
    path = tmp_path / "stats.py"
    path.write_text(STATS)
    monkeypatch.chdir(tmp_path)
    linecache.checkcache()
    return str(path)


def test_render_error(stats_py):
    e = TypingError("cannot add int64 and str", stats_py, 4, 25, 4, 30,
                    [("'label' is str: argument 2 at the call site", stats_py, 30, None, None,
                      None)])
    assert str(e) == (
        "stats.py:4:25: error: cannot add int64 and str\n"
        "        total = total + label\n"
        "                        ^~~~~\n"
        "note: 'label' is str: argument 2 at the call site (stats.py:30)")
    assert (e.msg, e.filename, e.line, e.col, e.end_line, e.end_col) == (
        "cannot add int64 and str", stats_py, 4, 25, 4, 30)
    assert e.notes[0].line == 30 and e.notes[0].col is None
    assert isinstance(e, errors.KilnError) and isinstance(e, Exception)


def test_render_tabs_multiline_and_notes_with_source(stats_py):
    e = UnsupportedError("bad", stats_py, 5, 9, 5, 14)
    assert str(e).splitlines()[1:] == ["\treturn\ttotal + label", "\t      \t^~~~~"]
    e = TypingError("span", stats_py, 6, 12, 7, 19, [("here", stats_py, 2, 5, 2, 10)])
    assert str(e).splitlines() == [
        "stats.py:6:12: error: span",
        "    return (total +",
        "           ^~~~~~~~",
        "note: here (stats.py:2)",
        "    total = 0",
        "    ^~~~~",
    ]


def test_render_without_source(tmp_path):
    missing = str(tmp_path / "gone.py")
    e = LoweringError("no source", missing, 3, 4, 3, 9)
    assert str(e) == f"{errors.display_name(missing)}:3:4: error: no source"
    assert str(UnsupportedError("plain message")) == "plain message"
    assert str(TypingError("x", "<unknown-cell>", 1, 1)) == "<unknown-cell>:1:1: error: x"


def test_make_error(stats_py):
    for kind, cls in [("typing", TypingError), ("unsupported", UnsupportedError),
                      ("lowering", LoweringError)]:
        e = make_error(kind, "m", stats_py, 4, 25, 4, 30, [])
        assert type(e) is cls and e.col == 25 and e.notes == []
    e = make_error("typing", "m", stats_py, 4, 25, 4, 30, [("n", None, None, None, None, None)])
    assert str(e).endswith("\nnote: n")


def test_make_error_counts_characters(tmp_path, monkeypatch):
    path = tmp_path / "uni.py"
    path.write_text("x = 'héé' + yy\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # ast columns are UTF-8 bytes: 'yy' starts at byte 15 (1-based), character 13.
    e = make_error("typing", "m", str(path), 1, 15, 1, 17, [])
    assert (e.col, e.end_col) == (13, 15)
    assert str(e).splitlines()[1:] == ["x = 'héé' + yy", "            ^~"]


def test_error_pickles(stats_py):
    e = TypingError("cannot add", stats_py, 4, 25, 4, 30, [("n", stats_py, 1, None, None, None)])
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is TypingError and str(e2) == str(e) and e2.notes == e.notes
    assert (e2.line, e2.col, e2.msg) == (4, 25, "cannot add")


# --- get_source ---------------------------------------------------------------------------------

def ident(f):
    return f


@ident
def decorated(x):
    return x


def outer():
    class Holder:
        @ident
        def method(self):
            text = """
  kept as is
"""
            return text

    def inner(v):
        return sorted(v, key=lambda t: -t)

    return Holder.method, inner


square = lambda x: x * x  # noqa: E731
double = ident(
    lambda x: x * 2
)


def check_source(func, first_line, col_offset):
    source, filename, line, offset = get_source(func)
    assert (filename, line, offset) == (func.__code__.co_filename, first_line, col_offset)
    tree = ast.parse(source)
    return source, tree


def test_get_source_module_function():
    source, tree = check_source(add, add.__code__.co_firstlineno, 0)
    assert source.startswith("def add(a, b):\n")
    source, _ = check_source(decorated, decorated.__code__.co_firstlineno, 0)
    assert source.startswith("@ident\ndef decorated(x):")


def test_get_source_nested_keeps_strings():
    method, inner = outer()
    source, tree = check_source(method, method.__code__.co_firstlineno, 8)
    assert source.startswith("@ident\ndef method(self):\n")
    const = next(n.value for n in ast.walk(tree)
                 if isinstance(n, ast.Constant) and isinstance(n.value, str))
    assert const == method(None) == "\n  kept as is\n"
    source, _ = check_source(inner, inner.__code__.co_firstlineno, 4)
    assert source.startswith("def inner(v):\n    return sorted(")


def lambda_lines(tree, first_line, func):
    """Lambda nodes of ``tree`` on the line of ``func`` (in file lines)."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)
            and n.lineno + first_line - 1 == func.__code__.co_firstlineno]


def test_get_source_lambdas():
    source, tree = check_source(square, square.__code__.co_firstlineno, 0)
    assert source == "square = lambda x: x * x  # noqa: E731\n"
    first = double.__code__.co_firstlineno - 1
    source, tree = check_source(double, first, 0)
    assert source == "double = ident(\n    lambda x: x * 2\n)\n"
    assert len(lambda_lines(tree, first, double)) == 1
    _, inner = outer()
    key = next(c for c in inner.__code__.co_consts if isinstance(c, pytypes.CodeType))
    lam = pytypes.FunctionType(key, {})
    source, tree = check_source(lam, key.co_firstlineno, 8)
    assert source == "return sorted(v, key=lambda t: -t)\n"


CELL = """\
x = 1

def f(a):
    if a:
        return [a, 'ok']
    return None
g = lambda a: a + 1; h = 2
"""


def exec_cell(name, register):
    if register:
        linecache.cache[name] = (len(CELL), None, CELL.splitlines(True), name)
    ns = {}
    exec(compile(CELL, name, "exec"), ns)
    return ns


def test_get_source_exec_registered_in_linecache():
    name = "<ipython-input-7-0123456789ab>"
    try:
        ns = exec_cell(name, register=True)
        linecache.checkcache()  # must not drop an entry without mtime
        f_source = "def f(a):\n    if a:\n        return [a, 'ok']\n    return None\n"
        assert get_source(ns["f"]) == (f_source, name, 3, 0)
        assert get_source(ns["g"]) == ("g = lambda a: a + 1; h = 2\n", name, 7, 0)
    finally:
        linecache.cache.pop(name, None)


def test_get_source_exec_without_source():
    ns = exec_cell("<string>", register=False)
    with pytest.raises(UnsupportedError,
                       match=r"cannot find the source of function 'f' \(defined in <string>\)"):
        get_source(ns["f"])
    with pytest.raises(UnsupportedError, match="kiln compiles from source"):
        get_source(ns["g"])


def test_get_source_main_script(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""\
        from kiln._support import get_source

        def f(x):
            return x + 1

        print(repr(get_source(f)))
        """))
    root = os.path.dirname(os.path.dirname(os.path.abspath(kiln.__file__)))
    out = subprocess.run([sys.executable, str(script)], env=dict(os.environ, PYTHONPATH=root),
                         capture_output=True, text=True, check=True).stdout
    assert eval(out) == ("def f(x):\n    return x + 1\n", str(script), 3, 0)
