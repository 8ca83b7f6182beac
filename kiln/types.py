"""kiln's type objects, named and spelled as ``numba.types`` spells them.

A type prints as its name (``int64``, ``bool``, ``UniTuple(int64 x 3)``, ``Tuple(int64, float64)``,
``none``, ``range_state64``) and compares and hashes by its *key*, the plain value that carries
it across the boundary to ``kiln._core`` (docs/core-api.md): ``"int64"``, ``"none"``,
``"range"``, ``("tuple", k1, ..., kn)``, ``("array", dtype_key, ndim, layout, readonly)``.
``from_key(key)`` goes back. Calling a type with types makes a :class:`Signature`
(``float64(int64, int64)``); calling a number type with a value casts it, as in Numba.

``parse_signature`` reads Numba's signature strings with a small hand-written parser (no eval)::

    "float64(int64, float64)"   "(int64, float64)"   "int64()"   "void(float64)"
    "UniTuple(int64, 3)(int64)"   "Tuple(int64, float64)(int64)"   "Tuple((int64, float64))()"

    "float64[:](float64[:], int64)"   "void(int32[:, :, ::1])"   "f8(f8[::1, :])"
    "Array(float64, 2, 'C', readonly=True)(intp)"   "ListType(int64)()"   "DictType(str, f8)()"

Every scalar alias of ``numba.types`` is known (``intp``, ``intc``, ``double``, ``np_intc``,
``py_int``, ``c_uintp`` ...), float16 among them (``f2``, ``np_float16``, ``c_float16``; as in
Numba, not exported at kiln's top level). ``optional(t)`` is :class:`Optional`.
"""

import struct as _struct

from .errors import UnsupportedError


class Type:
    """Base class: ``name`` for display, ``key`` for identity."""

    def __init__(self, name, key):
        self.name = name
        self.key = key

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Type) and self.key == other.key

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.key)

    def __call__(self, *args):
        if len(args) == 1 and not isinstance(args[0], Type):
            return self.cast_python_value(args[0])
        return Signature(self, args)

    def cast_python_value(self, value):
        raise TypeError(f"cannot convert a value to {self}")

    def __getitem__(self, index):
        """``float64[:]``, ``float64[:, ::1]`` (C), ``float64[::1, :]`` (F): an array type, as
        in Numba."""
        dims = index if isinstance(index, tuple) else (index,)
        if not dims or not all(isinstance(d, slice) and d.start is None and d.stop is None
                               and d.step in (None, 1) for d in dims):
            raise TypeError(f"array types are written like {self}[:] or {self}[:, ::1], "
                            f"not {self}[{index!r}]")
        return Array(self, len(dims), _layout([d.step == 1 for d in dims]))


class Boolean(Type):
    def cast_python_value(self, value):
        return bool(value)


class Number(Type):
    """A fixed-width number; casting a value goes through the NumPy scalar of the same name."""

    def __init__(self, name, bitwidth):
        super().__init__(name, name)
        self.bitwidth = bitwidth

    def cast_python_value(self, value):
        import numpy

        return getattr(numpy, self.name)(value)


class Integer(Number):
    def __init__(self, name):
        self.signed = not name.startswith("u")
        super().__init__(name, int(name.lstrip("uint")))


class Float(Number):
    def __init__(self, name):
        super().__init__(name, int(name[5:]))


class Complex(Number):
    def __init__(self, name, underlying_float):
        super().__init__(name, int(name[7:]))
        self.underlying_float = underlying_float


class NoneType(Type):
    pass


class RangeType(Type):
    """A ``range`` object of int64 (Numba's ``range_state64_type``)."""

    def __init__(self, dtype):
        super().__init__(f"range_state{dtype.bitwidth}", "range")
        self.dtype = dtype


class NumPyRandomGeneratorType(Type):
    """An ``np.random.Generator`` passed to compiled code (its bit generator, shared)."""


class UnicodeType(Type):
    """A ``str``; kiln uses it only for constants (e.g. arguments of print)."""


class StringLiteral(UnicodeType):
    """A constant ``str`` argument as an overload's typing function sees it, with its value in
    ``literal_value`` (Numba's ``types.StringLiteral``); compiled code sees a ``str``."""

    def __init__(self, value):
        super().__init__(f"Literal[str]({value!r})", ("literal", "str", value))
        self.literal_value = value


class BaseTuple(Type):
    def __iter__(self):
        return iter(self.types)

    def __len__(self):
        return len(self.types)

    def __getitem__(self, i):
        return self.types[i]


class UniTuple(BaseTuple):
    """A tuple of ``count`` items of one type."""

    def __init__(self, dtype, count):
        _check_type(dtype, "UniTuple")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise TypeError(f"UniTuple count must be a non-negative int, not {count!r}")
        self.dtype = dtype
        self.count = count
        self.types = (dtype,) * count
        super().__init__(f"UniTuple({dtype} x {count})", ("tuple",) + (dtype.key,) * count)


class Tuple(BaseTuple):
    """A heterogeneous tuple. ``Tuple([a, b])`` or ``Tuple(a, b)``; if every item has one type
    the result is a :class:`UniTuple`, as in Numba."""

    def __new__(cls, *types):
        types = _tuple_items(types)
        if types and all(t == types[0] for t in types[1:]):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, *types):
        self.types = _tuple_items(types)
        super().__init__(f"Tuple({', '.join(map(str, self.types))})",
                         ("tuple",) + tuple(t.key for t in self.types))


def _layout(contiguous):
    """'C' when the last axis is marked ::1, 'F' when the first is (of several), else 'A'."""
    if contiguous and contiguous[-1]:
        return "C"
    if len(contiguous) > 1 and contiguous[0]:
        return "F"
    return "A"


class Array(Type):
    """A NumPy array type: dtype, ndim, layout ('C', 'F' or 'A') and read-only flag."""

    def __init__(self, dtype, ndim, layout, readonly=False):
        self.dtype, self.ndim, self.layout, self.readonly = dtype, ndim, layout, readonly
        kind = "readonly array" if readonly else "array"
        super().__init__(f"{kind}({dtype}, {ndim}d, {layout})",
                         ("array", dtype.key, ndim, layout, readonly))


class ListType(Type):
    """A list of items of one type (Numba's ``types.ListType(item)``): the compiled ``[]``, a
    reflected list argument and ``kiln.typed.List`` are this one type. ``List`` is the same
    (Numba's reflected-list spelling)."""

    def __init__(self, item_type, reflected=False):
        _check_type(item_type, "ListType")
        self.item_type = self.dtype = item_type
        self.reflected = reflected
        super().__init__(f"ListType[{item_type}]", ("list", item_type.key))


List = ListType


class DictType(Type):
    """A dict of one key type and one value type (Numba's ``types.DictType(key, value)``): a dict
    made in compiled code and ``kiln.typed.Dict`` are this type."""

    def __init__(self, key_type, value_type):
        _check_type(key_type, "DictType")
        _check_type(value_type, "DictType")
        self.key_type, self.value_type = key_type, value_type
        super().__init__(f"DictType[{key_type},{value_type}]",
                         ("dict", key_type.key, value_type.key))


class Set(Type):
    """A set of items of one type (Numba's ``types.Set(item)``): a set made in compiled code and
    a reflected set argument."""

    def __init__(self, dtype, reflected=False):
        _check_type(dtype, "Set")
        self.dtype = dtype
        self.reflected = reflected
        super().__init__(f"set({dtype})", ("set", dtype.key))


def _check_type(t, where):
    if not isinstance(t, Type):
        raise TypeError(f"{where} expects kiln types, got {t!r}")


def _tuple_items(args):
    if len(args) == 1 and not isinstance(args[0], Type):
        args = tuple(args[0])
    for t in args:
        _check_type(t, "Tuple")
    return tuple(args)


class Signature:
    """``return_type(args...)``; ``return_type`` is None when only the arguments were given."""

    def __init__(self, return_type, args):
        args = tuple(args)
        for t in args:
            _check_type(t, "a signature")
        if return_type is not None:
            _check_type(return_type, "a signature")
        self.return_type = return_type
        self.args = args

    def __repr__(self):
        ret = "" if self.return_type is None else str(self.return_type)
        return f"{ret}({', '.join(map(str, self.args))})"

    __str__ = __repr__

    def __eq__(self, other):
        return (isinstance(other, Signature) and self.return_type == other.return_type
                and self.args == other.args)

    def __hash__(self):
        return hash((self.return_type, self.args))


# --- the scalar types and Numba's aliases -------------------------------------------------------

boolean = bool_ = b1 = Boolean("bool", "bool")

int8 = i1 = Integer("int8")
int16 = i2 = Integer("int16")
int32 = i4 = Integer("int32")
int64 = i8 = Integer("int64")
uint8 = u1 = Integer("uint8")
uint16 = u2 = Integer("uint16")
uint32 = u4 = Integer("uint32")
uint64 = u8 = Integer("uint64")

float16 = f2 = Float("float16")
float32 = f4 = Float("float32")
float64 = f8 = double = Float("float64")
float_ = float32  # as in Numba: C's float

complex64 = c8 = Complex("complex64", float32)
complex128 = c16 = Complex("complex128", float64)

none = void = NoneType("none", "none")
range_state64_type = RangeType(int64)
unicode_type = string = UnicodeType("unicode_type", "str")
npy_rng = NumPyRandomGeneratorType("NumPyRandomGeneratorType", "np.random.Generator")


def _signed(fmt):
    return {1: int8, 2: int16, 4: int32, 8: int64}[_struct.calcsize(fmt)]


def _unsigned(fmt):
    return {1: uint8, 2: uint16, 4: uint32, 8: uint64}[_struct.calcsize(fmt)]


intp, uintp = _signed("n"), _unsigned("N")
ssize_t, size_t = intp, uintp
char, uchar, byte = int8, uint8, uint8
short, ushort = _signed("h"), _unsigned("H")
intc, uintc = _signed("i"), _unsigned("I")
long_, ulong = _signed("l"), _unsigned("L")
longlong, ulonglong = _signed("q"), _unsigned("Q")
int_, uint = intp, uintp  # NumPy 2: numpy.int_ is intp everywhere
py_bool, py_int, py_float, py_complex = boolean, int64, float64, complex128
c_bool, c_int8, c_int16, c_int32, c_int64 = boolean, int8, int16, int32, int64
c_uint8, c_uint16, c_uint32, c_uint64 = uint8, uint16, uint32, uint64
c_intp, c_uintp, c_float32, c_float64 = intp, uintp, float32, float64
np_bool_, np_int8, np_int16, np_int32, np_int64 = boolean, int8, int16, int32, int64
np_uint8, np_uint16, np_uint32, np_uint64 = uint8, uint16, uint32, uint64
np_float32, np_float64, np_complex64, np_complex128 = float32, float64, complex64, complex128
np_char, np_uchar, np_short, np_ushort = char, uchar, short, ushort
np_intc, np_uintc, np_int_, np_uint, np_intp, np_uintp = intc, uintc, intp, uintp, intp, uintp
np_long, np_ulong, np_longlong, np_ulonglong = long_, ulong, longlong, ulonglong
np_double, np_float_ = float64, float32  # np_float_ is float32 in Numba too (C's float)
np_float16 = c_float16 = float16

# The names ``from kiln import *``-style exports take (Numba's numba.types.__all__, scalars).
scalar_names = (
    "int8 int16 int32 int64 uint8 uint16 uint32 uint64 intp uintp intc uintc ssize_t size_t "
    "boolean float32 float64 complex64 complex128 bool_ byte char uchar short ushort int_ uint "
    "long_ ulong longlong ulonglong float_ double void none "
    "b1 i1 i2 i4 i8 u1 u2 u4 u8 f4 f8 c8 c16"
).split()
# Numba's spellings by origin (numba.types.py_int, c_intp, np_intc, ...): types, not top level
origin_names = (
    "py_bool py_int py_float py_complex c_bool c_int8 c_int16 c_int32 c_int64 c_uint8 c_uint16 "
    "c_uint32 c_uint64 c_intp c_uintp c_float32 c_float64 np_bool_ np_int8 np_int16 np_int32 "
    "np_int64 np_uint8 np_uint16 np_uint32 np_uint64 np_float32 np_float64 np_complex64 "
    "np_complex128 np_char np_uchar np_short np_ushort np_intc np_uintc np_int_ np_uint np_intp "
    "np_uintp np_long np_ulong np_longlong np_ulonglong np_double np_float_"
).split() + ["float16", "f2", "np_float16", "c_float16"]  # in numba.types, not its __all__

_BY_KEY = {t.key: t for t in (boolean, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                              float16, float32, float64, complex64, complex128, none,
                              range_state64_type, unicode_type, npy_rng)}


def _value_classes():
    """(kiln type, NumPy scalar class) pairs: in compiled code ``kiln.int32`` is ``np.int32``
    (it converts, and it is a dtype); the dispatcher maps them when it first compiles."""
    import numpy

    scalars = (boolean, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
               float32, float64, complex64, complex128)
    canonical = {t.key: getattr(numpy, "bool_" if t is boolean else t.name) for t in scalars}
    pairs = [(t, canonical[t.key]) for t in scalars]
    # NumPy's classes of the same dtype under another name (np.longlong beside np.int64)
    for name in ("byte ubyte short ushort intc uintc int_ uint long ulong longlong ulonglong "
                 "intp uintp half single double csingle cdouble").split():
        cls = getattr(numpy, name, None)
        key = numpy.dtype(cls).name if isinstance(cls, type) else None
        if key in canonical and canonical[key] is not cls:
            pairs.append((cls, canonical[key]))
    return pairs


def from_key(key):
    """The type object for a key of docs/core-api.md; ValueError for an unknown key."""
    if isinstance(key, str):
        t = _BY_KEY.get(key)
        if t is not None:
            return t
    elif isinstance(key, tuple) and key:
        if key[0] == "tuple":
            return Tuple([from_key(k) for k in key[1:]])
        if key[0] == "literal" and len(key) == 3 and key[1] == "str":
            return StringLiteral(key[2])
        if key[0] == "list" and len(key) == 2 and key[1] != "undefined":
            return ListType(from_key(key[1]))
        if key[0] == "dict" and len(key) == 3:
            return DictType(from_key(key[1]), from_key(key[2]))
        if key[0] == "set" and len(key) == 2:
            return Set(from_key(key[1]))
        if key[0] == "array" and len(key) == 5:
            return Array(from_key(key[1]), key[2], key[3], bool(key[4]))
        if key[0] in ("dispatcher", "closure") and len(key) == 2:
            return Dispatcher(key[1], key[0] == "closure")
        if key[0] == "function_choice" and len(key) >= 3:
            return FunctionChoice([from_key(k) for k in key[1:]])
        if key[0] == "optional" and len(key) == 2:
            return Optional(from_key(key[1]))
        if key[0] == "namedtuple" and len(key) >= 2:
            return NamedTuple([from_key(k) for k in key[2:]], key[1])
        if key[0] == "enum" and len(key) == 2:
            return EnumMember(key[1])
        if key[0] == "record" and len(key) == 2:
            return Record(key[1])
        if key[0] in ("datetime64", "timedelta64") and len(key) == 2:
            return NPDatetime(key[1], key[0] == "timedelta64")
    raise ValueError(f"unknown kiln type key: {key!r}")


# --- signature strings --------------------------------------------------------------------------

_NAMES = {name: globals()[name] for name in scalar_names + origin_names}
_UNSUPPORTED_NAMES = {}
_NAMES.update(bool=boolean, unicode_type=unicode_type, string=unicode_type,
              range_state64=range_state64_type, range_state64_type=range_state64_type)


class _Parser:
    """Recursive descent over the tokens of one signature string."""

    def __init__(self, text):
        self.text = text
        self.tokens = _tokenize(text, self.fail)
        self.i = 0

    def fail(self, why, pos=None):
        if pos is None:
            pos = self.tokens[self.i][1] if self.i < len(self.tokens) else len(self.text)
        raise TypeError(f"invalid signature {self.text!r}: {why} (at column {pos + 1})")

    def peek(self):
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def take(self, expected=None):
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            want = f"{expected!r}" if expected else "more"
            got = "the end" if tok is None else repr(tok)
            self.fail(f"expected {want}, found {got}")
        self.i += 1
        return tok

    def signature(self):
        ret = None if self.peek() == "(" else self.type()
        if self.peek() != "(":
            self.fail("a signature needs its argument types in parentheses, e.g. 'int64(int64)'")
        args = self.type_list("(", ")")
        if self.peek() is not None:
            self.fail(f"unexpected {self.peek()!r} after the argument list")
        return Signature(ret, args)

    def type_list(self, open_, close):
        self.take(open_)
        items = []
        while self.peek() != close:
            items.append(self.type())
            if self.peek() != close:
                self.take(",")
        self.take(close)
        return items

    def type(self):
        pos = self.tokens[self.i][1] if self.i < len(self.tokens) else len(self.text)
        name = self.take()
        if name == "UniTuple":
            self.take("(")
            dtype = self.type()
            self.take(",")
            count = self.take()
            if not count.isdigit():
                self.fail(f"UniTuple count must be an integer, not {count!r}")
            self.take(")")
            t = UniTuple(dtype, int(count))
        elif name == "Tuple":
            self.take("(")
            if self.peek() == "(":
                items = self.type_list("(", ")")
                self.take(")")
            else:
                self.i -= 1
                items = self.type_list("(", ")")
            t = Tuple(items)
        elif name == "Array":
            t = self.array_call()
        elif name in ("ListType", "List", "Set") or name == "DictType":
            self.take("(")
            items = [self.type()]
            while name == "DictType" and len(items) < 2:
                self.take(",")
                items.append(self.type())
            self.take(")")
            t = {"ListType": ListType, "List": ListType, "Set": Set, "DictType": DictType}[name](
                *items)
        elif name in ("optional", "Optional"):
            self.take("(")
            inner = self.type()
            self.take(")")
            t = Optional(inner)
        elif name in _NAMES:
            t = _NAMES[name]
        elif name in _UNSUPPORTED_NAMES:
            self.fail(_UNSUPPORTED_NAMES[name], pos)
        elif name.isidentifier():
            self.fail(f"unknown type {name!r}", pos)
        else:
            self.fail(f"expected a type, found {name!r}", pos)
        if self.peek() == "[":
            t = self.array_dims(t)
        return t

    def array_call(self):
        """``Array(float64, 2, 'C')``, ``Array(float64, 1, 'A', readonly=True)``."""
        self.take("(")
        dtype = self.type()
        self.take(",")
        ndim = self.take()
        if not ndim.isdigit():
            self.fail(f"Array's ndim must be an integer, not {ndim!r}")
        self.take(",")
        layout = self.take()
        if layout not in ("'C'", "'F'", "'A'", '"C"', '"F"', '"A"'):
            self.fail(f"Array's layout must be 'C', 'F' or 'A', not {layout}")
        readonly = False
        while self.peek() == ",":
            self.take(",")
            key = self.take()
            self.take("=")
            value = self.take()
            if key not in ("readonly", "aligned") or value not in ("True", "False"):
                self.fail(f"unexpected Array argument {key}={value}")
            if key == "aligned" and value == "False":
                self.fail("unaligned arrays (aligned=False) are not supported")
            readonly = readonly or (key == "readonly" and value == "True")
        self.take(")")
        return Array(dtype, int(ndim), layout[1], readonly)

    def array_dims(self, dtype):
        """``[:, ::1]`` after a type: an array of that dtype."""
        self.take("[")
        contiguous = []
        while True:
            self.take(":")
            mark = False
            if self.peek() == ":":
                self.take(":")
                if self.peek() != "1":
                    self.fail("expected ::1 for a contiguous axis")
                self.take("1")
                mark = True
            contiguous.append(mark)
            if self.peek() == ",":
                self.take(",")
                continue
            self.take("]")
            break
        return Array(dtype, len(contiguous), _layout(contiguous))


def _tokenize(text, fail):
    """(token, position) pairs: identifiers, integers and the punctuation ( ) [ ] , :"""
    tokens, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isalnum() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append((text[i:j], i))
            i = j
        elif ch in "()[],:=":
            tokens.append((ch, i))
            i += 1
        elif ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                fail("unterminated string", i)
            tokens.append((text[i:j + 1], i))
            i = j + 1
        else:
            fail(f"unexpected character {ch!r}", i)
    return tokens


def parse_signature(text):
    """The :class:`Signature` written in ``text``; TypeError when it is malformed."""
    if not isinstance(text, str):
        raise TypeError(f"a signature string is needed, not {type(text).__name__}")
    return _Parser(text).signature()


# --- Optional, namedtuple and enum member types (issue 10, "Values") ----------------------------


class Optional(Type):
    """A value of ``type`` or None (Numba's ``types.Optional``): a variable or result that is
    sometimes None. Key ``("optional", key)``."""

    def __init__(self, type):
        _check_type(type, "Optional")
        self.type = type
        super().__init__(f"OptionalType({type})", ("optional", type.key))


def optional(type):
    """Numba's ``types.optional(t)``: :class:`Optional` of ``t``."""
    return Optional(type)


class NamedTuple(Type):
    """An instance of a namedtuple class (``collections.namedtuple``, ``typing.NamedTuple``)
    holding items of these types. Key ``("namedtuple", cls, item keys...)``."""

    def __init__(self, types, cls):
        self.types, self.instance_class = tuple(types), cls
        super().__init__(f"{cls.__name__}({', '.join(str(t) for t in self.types)})",
                         ("namedtuple", cls) + tuple(t.key for t in self.types))


class EnumMember(Type):
    """A member of an ``enum.Enum`` or ``enum.IntEnum`` class whose values are ints. Key
    ``("enum", cls)``."""

    def __init__(self, cls):
        self.instance_class = cls
        super().__init__(f"enum({cls.__name__})", ("enum", cls))


class Record(Type):
    """A record: an element of a structured NumPy dtype (Numba's ``types.Record``), the dtype
    of an array of records. Key ``("record", dtype)``; two equal dtypes are one type."""

    def __init__(self, dtype):
        import numpy

        self.dtype = numpy.dtype(dtype)
        super().__init__(f"Record({self.dtype})", ("record", self.dtype))


class NPDatetime(Type):
    """An ``np.datetime64`` (or, with ``delta``, ``np.timedelta64``) of one unit ("s", "D",
    ..., "generic"; Numba's ``NPDatetime`` / ``NPTimedelta``). Key ``("datetime64", unit)`` /
    ``("timedelta64", unit)``."""

    def __init__(self, unit, delta=False):
        self.unit, self.delta = unit, delta
        kind = "timedelta64" if delta else "datetime64"
        super().__init__(f"{kind}[{unit}]", (kind, unit))


class Dispatcher(Type):
    """The type of one jitted function passed as a value (Numba's ``types.Dispatcher``): the
    function is part of the type, so a callee taking it is compiled once per function."""

    def __init__(self, dispatcher, closure=False):
        name = getattr(dispatcher, "__name__", "?")
        shown = f"closure({name})" if closure else f"type(CPUDispatcher(<function {name}>))"
        super().__init__(shown, ("closure" if closure else "dispatcher", dispatcher))
        self.dispatcher = dispatcher


class FunctionChoice(Type):
    """One of several jitted functions, chosen at run time (``f = sq if c else cube``): Numba's
    first-class ``FunctionType``, as kiln types it (docs/internals.md)."""

    def __init__(self, functions):
        self.functions = tuple(functions)
        names = ", ".join(getattr(f.dispatcher, "__name__", "?") for f in self.functions)
        super().__init__(f"FunctionType[{names}]",
                         ("function_choice",) + tuple(f.key for f in self.functions))
