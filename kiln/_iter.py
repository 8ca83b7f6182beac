"""The frontend's rewrites of the builtins that consume or wrap iterables (src/frontend/iter.c).

``sum``, ``any``, ``all``, ``min``/``max`` of one iterable (with ``key=``/``default=``), and
``sorted``/``list`` of an iterator expression become the loop a user would write, over the
iterator protocol: ``for $v in X: ...`` in the function's own KIR, so they take whatever a
``for`` loop takes (ranges, arrays, lists, strs, tuples, dicts, sets, zip and enumerate
objects). ``map``, ``filter``, ``reversed`` and single-``for`` generator expressions are
peeled off an iterable into the head of the loop's body (``for $m in X: T = f($m)``;
``filter``: ``if not f($m): continue``; ``reversed(s)``: indexes ``s`` from its end), at the
top of a ``for`` statement and inside ``zip``/``enumerate`` (where a filter would misalign
the items, so it is refused there). ``next(iter(X)[, d])`` takes the first item;
``random.choice`` and ``random.shuffle`` index and swap as random.py does.

Each rewrite returns ``(statements, expression, new local names)``: the C side compiles the
statements in place and then the expression. Names that start with ``$kn_`` resolve to this
module's attributes (``$kn_range`` is the builtin range, ``$kn_below`` the internal entry that
draws random.py's ``_randbelow``), so a user's own ``len`` or ``range`` cannot change what a
rewrite means. Temporaries are ``$it<serial>_...``: no Python name can collide with them.
"""

import ast
import builtins as _builtins

range = _builtins.range
dict = _builtins.dict
len = _builtins.len
zip = _builtins.zip
enumerate = _builtins.enumerate
ValueError = _builtins.ValueError
StopIteration = _builtins.StopIteration


def below(n):
    """random.py's ``_randbelow(n)`` (compiled code only: lib/iter.def, lower/random.c)."""
    raise TypeError("kiln internal: only for compiled code")


def numbers(x):
    """Compiled code only: x, a tuple of numbers of several types as one of their type."""
    raise TypeError("kiln internal: only for compiled code")


def str_keyed(m):
    """Compiled code only: m, checked to be a dict with str keys (``dict(**m)``)."""
    raise TypeError("kiln internal: only for compiled code")


def reversible(x):
    """Compiled code only: what ``reversed(x)`` indexes (x, or a list of a dict's keys)."""
    raise TypeError("kiln internal: only for compiled code")


def indexable(x):
    """Compiled code only: a typing check that ``x`` may be indexed from its end."""
    raise TypeError("kiln internal: only for compiled code")


def rewrite_dict(node, serial):
    """``dict(x, k=v, **m)`` (and ``dict(**m)``) as the statements ``$d = dict(x)`` (``{}``
    without x), then in order ``$d["k"] = v`` per keyword and ``$d.update(m)`` per ``**m``, and
    the expression ``$d``: CPython's dict(x) then update(**kwargs)."""
    rw = _Rewriter(serial, ((), {}, {}, None))
    if _builtins.len(node.args) > 1 or any(isinstance(a, ast.Starred) for a in node.args):
        raise RewriteError(f"dict expected at most 1 argument, got {_builtins.len(node.args)}"
                           if _builtins.len(node.args) > 1 else
                           "dict(*x) is not supported", node)
    d = rw.tmp("d")
    first = _call(_kn("dict"), node.args) if node.args else ast.Dict(keys=[], values=[])
    stmts = [_assign(_store(d), ast.copy_location(first, node))]
    for kw in node.keywords:
        if kw.arg is None:
            upd = ast.Attribute(value=_load(d), attr="update", ctx=ast.Load())
            stmts.append(ast.copy_location(ast.Expr(value=ast.copy_location(
                _call(upd, [ast.copy_location(_call(_kn("str_keyed"), [kw.value]), kw.value)]),
                kw)), kw))
        else:
            item = ast.Subscript(value=_load(d), slice=ast.Constant(kw.arg), ctx=ast.Store())
            stmts.append(ast.copy_location(_assign(item, kw.value), kw))
    expr = _load(d)
    return _locate(stmts + [expr], node)[:-1], expr, rw.names


def unbound_call(node):
    """``T.m(x, *rest)`` (T str, list, dict or set) as the method call ``x.m(*rest)``"""
    func = node.func
    meth = ast.Attribute(value=node.args[0], attr=func.attr, ctx=ast.Load())
    call = ast.Call(func=ast.copy_location(meth, func), args=list(node.args[1:]),
                    keywords=list(node.keywords))
    return ast.copy_location(call, node)


_UNBOUND = {}


def unbound_function(owner, name):
    """``T.m`` used as a value: a jitted ``def m(s): return s.m()`` (one argument, as a key
    function or a map over one iterable takes it), made once per method. Its source is kept in
    linecache under a name of its own, where kiln reads it."""
    key = (owner.__name__, name)
    fn = _UNBOUND.get(key)
    if fn is None:
        import linecache

        from .decorators import njit
        filename = f"<kiln unbound {owner.__name__}.{name}>"
        src = f"def {name}(s):\n    return s.{name}()\n"
        linecache.cache[filename] = (_builtins.len(src), None, src.splitlines(True), filename)
        ns = {}
        exec(compile(src, filename, "exec"), ns)
        fn = _UNBOUND[key] = njit(ns[name])
    return fn


class RewriteError(Exception):
    """Becomes an UnsupportedError at the node (``args[1]``) or at the call."""


def _load(name):
    return ast.Name(id=name, ctx=ast.Load())


def _store(name):
    return ast.Name(id=name, ctx=ast.Store())


def _kn(name):
    return _load("$kn_" + name)


def _call(func, args, keywords=()):
    return ast.Call(func=func, args=list(args), keywords=list(keywords))


def _assign(target, value):
    return ast.Assign(targets=[target], value=value, lineno=0)


class _Rename(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, n):
        if n.id in self.names:
            return ast.copy_location(ast.Name(id=self.names[n.id], ctx=n.ctx), n)
        return n


class _Rewriter:
    def __init__(self, serial, env):
        self.serial = serial
        self.n = 0
        self.names = []
        self.local_names, self.closure, self.globals, self.builtins = env[:4]
        self.iterator_names = env[4] if _builtins.len(env) > 4 and env[4] is not None else ()
        self.lengths = env[5] if _builtins.len(env) > 5 else {}  # tuple parameters' lengths

    def tmp(self, what):
        name = f"$it{self.serial}_{what}{self.n}"
        self.n += 1
        self.names.append(name)
        return name

    # ---- what a name in the user's code is ----

    def resolve(self, node):
        if isinstance(node, ast.Name):
            if node.id.startswith("$kn_"):
                return globals().get(node.id[4:])
            if node.id in self.local_names:
                return None
            for scope in (self.closure, self.globals):
                if node.id in scope:
                    return scope[node.id]
            b = self.builtins
            return b.get(node.id) if isinstance(b, dict) else getattr(b, node.id, None)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return getattr(base, node.attr, None) if base is not None else None
        return None

    def wrapper(self, node):
        """The builtin an iterable expression calls (map, filter, ...), or None."""
        if isinstance(node, ast.GeneratorExp):
            return "genexp"
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        f = self.resolve(node.func)
        for name in ("map", "filter", "reversed", "zip", "enumerate", "iter"):
            if f is getattr(_builtins, name):
                return name
        return None

    def needs(self, node):
        """node is an iterator expression that a plain for loop does not take as it is"""
        w = self.wrapper(node)
        if w in ("map", "filter", "reversed", "genexp", "iter"):
            return True
        if w in ("zip", "enumerate") and not node.keywords:
            args = node.args[:1] if w == "enumerate" else node.args
            return any(self.needs(a) for a in args)
        return False

    def is_iterator(self, node):
        """an iterator expression, or a name holding one (iterator_vars)"""
        if isinstance(node, ast.Name) and node.id in self.iterator_names:
            return True
        return self.wrapper(node) is not None

    # ---- peeling an iterable: for target in it: head...; body ----

    def tuple_target(self, target, n):
        """target split into n parts, and the head statement that binds target if it is not
        a tuple of n already"""
        if isinstance(target, (ast.Tuple, ast.List)) and _builtins.len(target.elts) == n and \
                not any(isinstance(e, ast.Starred) for e in target.elts):
            return list(target.elts), []
        parts = [self.tmp("p") for _ in range(n)]
        return [_store(p) for p in parts], \
            [_assign(target, ast.Tuple(elts=[_load(p) for p in parts], ctx=ast.Load()))]

    def callee(self, f, pre):
        if isinstance(f, (ast.Name, ast.Attribute, ast.Lambda)):
            return f
        name = self.tmp("f")
        pre.append(_assign(_store(name), f))
        return _load(name)

    def lower(self, node, target, top):
        """(pre, iter, loop target, head): `pre; for <loop target> in <iter>: <head>; body`
        binds `target` to each item of `node` before body."""
        w = self.wrapper(node)
        if w == "map":
            if _builtins.len(node.args) < 2 or node.keywords:
                raise RewriteError("map() needs a function and at least one iterable", node)
            pre = []
            f = self.callee(node.args[0], pre)
            ms = [self.tmp("m") for _ in node.args[1:]]
            if _builtins.len(ms) == 1:
                p, it, tg, hd = self.lower(node.args[1], _store(ms[0]), top)
            else:
                z = ast.copy_location(_call(_kn("zip"), node.args[1:]), node)
                p, it, tg, hd = self.lower(
                    z, ast.Tuple(elts=[_store(m) for m in ms], ctx=ast.Store()), False)
            hd = hd + [_assign(target, _call(f, [_load(m) for m in ms]))]
            return pre + p, it, tg, hd
        if w == "filter":
            if _builtins.len(node.args) != 2 or node.keywords:
                raise RewriteError("filter() needs a function (or None) and an iterable", node)
            if not top:
                raise RewriteError("filter() inside zip() or enumerate() is not supported", node)
            pre = []
            m = self.tmp("m")
            fn = node.args[0]
            p, it, tg, hd = self.lower(node.args[1], _store(m), top)
            if isinstance(fn, ast.Constant) and fn.value is None:
                test = _load(m)
            else:
                test = _call(self.callee(fn, pre), [_load(m)])
            skip = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test), body=[ast.Continue()],
                          orelse=[])
            return pre + p, it, tg, hd + [skip, _assign(target, _load(m))]
        if w == "reversed":
            if _builtins.len(node.args) != 1 or node.keywords:
                raise RewriteError("reversed() takes one sequence", node)
            if self.is_iterator(node.args[0]):
                raise RewriteError("reversed() of an iterator is not supported (CPython: the "
                                   "object is not reversible)", node)
            s, k = self.tmp("s"), self.tmp("k")
            pre = [_assign(_store(s), ast.copy_location(
                _call(_kn("reversible"), [node.args[0]]), node))]
            last = ast.BinOp(left=_call(_kn("len"), [_load(s)]), op=ast.Sub(),
                             right=ast.Constant(1))
            it = _call(_kn("range"), [last, ast.Constant(-1), ast.Constant(-1)])
            item = ast.Subscript(value=_load(s), slice=_load(k), ctx=ast.Load())
            return pre, it, _store(k), [_assign(target, item)]
        if w == "iter":
            if _builtins.len(node.args) != 1 or node.keywords:
                raise RewriteError("iter() takes one iterable in compiled code", node)
            return self.lower(node.args[0], target, top)
        if w == "genexp":
            gens = node.generators
            if _builtins.len(gens) != 1 or gens[0].is_async:
                raise RewriteError("generator expressions with more than one 'for' are not "
                                   "supported here", node)
            g = gens[0]
            if g.ifs and not top:
                raise RewriteError("a generator expression with 'if' inside zip() or "
                                   "enumerate() is not supported", node)
            names = {}
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    names[n.id] = self.tmp("g")
            ren = _Rename(names)
            p, it, tg, hd = self.lower(g.iter, ren.visit(g.target), top)
            for cond in g.ifs:
                hd = hd + [ast.If(test=ast.UnaryOp(op=ast.Not(), operand=ren.visit(cond)),
                                  body=[ast.Continue()], orelse=[])]
            return p, it, tg, hd + [_assign(target, ren.visit(node.elt))]
        if w in ("zip", "enumerate") and self.needs(node):
            if w == "enumerate":
                if _builtins.len(node.args) not in (1, 2) or node.keywords:
                    raise RewriteError("enumerate() with these arguments is not supported", node)
                (ti, tx), head = self.tuple_target(target, 2)
                p, it, tg, hd = self.lower(node.args[0], tx, False)
                e = _call(node.func, [it] + node.args[1:])
                return p, e, ast.Tuple(elts=[ti, tg], ctx=ast.Store()), head + hd
            if node.keywords:
                raise RewriteError("zip() with keywords is not supported", node)
            parts, head = self.tuple_target(target, _builtins.len(node.args))
            pre, its, tgs, hds = [], [], [], []
            for a, t in zip(node.args, parts):
                p, it, tg, hd = self.lower(a, t, False)
                pre += p
                its.append(it)
                tgs.append(tg)
                hds += hd
            return pre, _call(node.func, its), ast.Tuple(elts=tgs, ctx=ast.Store()), head + hds
        return [], node, target, []

    # ---- tuple(<iterator>) of a length known at compile time ----

    def plan(self, node, pre):
        """(n, item) for an iterable whose length n the compiler knows, item(k, stmts) giving
        the expression of item k (statements it needs appended to stmts, in order); the
        sources are bound once in pre. None when the length is not known here."""
        import copy
        w = self.wrapper(node)
        if w == "genexp":
            gens = node.generators
            if _builtins.len(gens) != 1 or gens[0].ifs or gens[0].is_async:
                return None
            sub = self.plan(gens[0].iter, pre)
            if sub is None:
                return None

            def item(k, st, g=gens[0], sub=sub):
                names = {n.id: self.tmp("g") for n in ast.walk(g.target)
                         if isinstance(n, ast.Name)}
                ren = _Rename(names)
                st.append(_assign(ren.visit(copy.deepcopy(g.target)), sub[1](k, st)))
                return ren.visit(copy.deepcopy(node.elt))
            return sub[0], item
        if w in ("map", "zip"):
            srcs = node.args[1:] if w == "map" else node.args
            if node.keywords or (w == "map" and not srcs):
                return None
            f = self.callee(node.args[0], pre) if w == "map" else None
            subs = [self.plan(a, pre) for a in srcs]
            if any(x is None for x in subs):
                return None
            n = _builtins.min([x[0] for x in subs]) if subs else 0
            if w == "map":
                return n, lambda k, st: _call(copy.deepcopy(f), [x[1](k, st) for x in subs])
            return n, lambda k, st: ast.Tuple(elts=[x[1](k, st) for x in subs], ctx=ast.Load())
        if w == "enumerate":
            if node.keywords or _builtins.len(node.args) not in (1, 2):
                return None
            sub = self.plan(node.args[0], pre)
            if sub is None:
                return None
            start = None
            if _builtins.len(node.args) == 2:
                start = self.tmp("st")
                pre.append(_assign(_store(start), node.args[1]))

            def count(k):
                if start is None:
                    return ast.Constant(k)
                return ast.BinOp(left=_load(start), op=ast.Add(), right=ast.Constant(k))
            return sub[0], lambda k, st: ast.Tuple(elts=[count(k), sub[1](k, st)],
                                                   ctx=ast.Load())
        if w in ("reversed", "iter"):
            if node.keywords or _builtins.len(node.args) != 1 or \
                    (w == "reversed" and self.is_iterator(node.args[0])):
                return None
            sub = self.plan(node.args[0], pre)
            if sub is None:
                return None
            n = sub[0]
            if w == "iter":
                return sub
            return n, lambda k, st: sub[1](n - 1 - k, st)
        if w is not None:
            return None
        n = self.source_length(node)
        if n is None:
            return None
        if isinstance(n, _builtins.range):
            r = n
            return _builtins.len(r), lambda k, st: ast.Constant(r[k])
        name = self.tmp("s")
        pre.append(_assign(_store(name), node))
        return n, lambda k, st: ast.Subscript(value=_load(name), slice=ast.Constant(k),
                                              ctx=ast.Load())

    def source_length(self, node):
        """the length of a tuple or list display, a str constant, a tuple parameter or a
        global tuple; a range of constant ints itself; else None"""
        if isinstance(node, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return None
            return _builtins.len(node.elts)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return _builtins.len(node.value)
        if isinstance(node, ast.Name) and node.id in self.local_names:
            return self.lengths.get(node.id)
        if isinstance(node, ast.Call) and self.resolve(node.func) is _builtins.range and \
                not node.keywords and 1 <= _builtins.len(node.args) <= 3 and \
                all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args):
            r = _builtins.range(*[a.value for a in node.args])
            return r if _builtins.len(r) <= 256 else None
        v = self.resolve(node)
        return _builtins.len(v) if isinstance(v, tuple) else None

    def to_tuple(self, call):
        """tuple(<iterator>): a tuple display of its items, when their number is known"""
        pre = []
        p = self.plan(call.args[0], pre)
        if p is None:
            raise RewriteError("tuple() of an iterator is supported only when its length is "
                               "known at compile time: map, zip, enumerate, reversed, iter and "
                               "generator expressions without 'if' over tuples, displays, str "
                               "constants and constant ranges", call)
        n, item = p
        st = list(pre)
        elts = []
        for k in range(n):
            v = self.tmp("t")
            st.append(_assign(_store(v), item(k, st)))
            elts.append(_load(v))
        return st, ast.Tuple(elts=elts, ctx=ast.Load())

    def loop(self, node, v, body, orelse=()):
        """pre + the for loop binding $v to each item of node, then body. A value (not an
        iterator expression) is iterated through numbers(), so that a tuple of numbers of
        several types is one of their unified type, as the builtins' own rules take it."""
        if not self.is_iterator(node):
            node = ast.copy_location(_call(_kn("numbers"), [node]), node)
        pre, it, tg, hd = self.lower(node, _store(v), True)
        return pre + [ast.For(target=tg, iter=it, body=hd + list(body), orelse=list(orelse),
                              type_comment=None)]

    # ---- the consumers ----

    def reduce_sum(self, call):
        args = call.args
        kw = {k.arg: k.value for k in call.keywords}
        if _builtins.len(args) not in (1, 2) or set(kw) - {"start"} or \
                (_builtins.len(args) == 2 and kw):
            raise RewriteError("sum() takes an iterable and an optional start", call)
        start = args[1] if _builtins.len(args) == 2 else kw.get("start", ast.Constant(0))
        acc, v = self.tmp("acc"), self.tmp("v")
        add = _assign(_store(acc), ast.BinOp(left=_load(acc), op=ast.Add(), right=_load(v)))
        return [_assign(_store(acc), start)] + self.loop(args[0], v, [add]), _load(acc)

    def any_all(self, call, is_all):
        if _builtins.len(call.args) != 1 or call.keywords:
            raise RewriteError(f"{'all' if is_all else 'any'}() takes one iterable", call)
        r, v = self.tmp("r"), self.tmp("v")
        test = ast.UnaryOp(op=ast.Not(), operand=_load(v)) if is_all else _load(v)
        hit = ast.If(test=test, body=[_assign(_store(r), ast.Constant(not is_all)),
                                      ast.Break()], orelse=[])
        return [_assign(_store(r), ast.Constant(is_all))] + self.loop(call.args[0], v, [hit]), \
            _load(r)

    def min_max(self, call, is_max):
        name = "max" if is_max else "min"
        kw = {k.arg: k.value for k in call.keywords}
        if set(kw) - {"key", "default"} or not call.args:
            raise RewriteError(f"{name}() with these arguments is not supported", call)
        if _builtins.len(call.args) > 1:
            if "default" in kw:
                raise RewriteError(f"Cannot specify a default for {name}() with multiple "
                                   "positional arguments", call)
            it = ast.copy_location(ast.Tuple(elts=call.args, ctx=ast.Load()), call)
        else:
            it = call.args[0]
        key = kw.get("key")
        if isinstance(key, ast.Constant) and key.value is None:
            key = None
        first, m, v = self.tmp("first"), self.tmp("m"), self.tmp("v")
        pre = []
        body = []
        take = [_assign(_store(m), _load(v))]
        if key is not None:
            key = self.callee(key, pre)
            mk, vk = self.tmp("mk"), self.tmp("vk")
            body.append(_assign(_store(vk), _call(key, [_load(v)])))
            take.append(_assign(_store(mk), _load(vk)))
            a, b = _load(vk), _load(mk)
        else:
            a, b = _load(v), _load(m)
        better = ast.Compare(left=a, ops=[ast.Gt() if is_max else ast.Lt()], comparators=[b])
        body.append(ast.If(test=_load(first),
                           body=take + [_assign(_store(first), ast.Constant(False))],
                           orelse=[ast.If(test=better, body=take, orelse=[])]))
        if "default" in kw:
            empty = [_assign(_store(m), kw["default"])]
        else:
            try:
                getattr(_builtins, name)([])
            except _builtins.ValueError as e:
                msg = str(e)
            empty = [ast.Raise(exc=_call(_kn("ValueError"), [ast.Constant(msg)]), cause=None)]
        stmts = pre + [_assign(_store(first), ast.Constant(True))] + self.loop(it, v, body)
        return stmts + [ast.If(test=_load(first), body=empty, orelse=[])], _load(m)

    def to_list(self, call, sort):
        if not call.args or _builtins.len(call.args) > 1:
            raise RewriteError("list()/sorted() take one iterable", call)
        if not sort and call.keywords:
            raise RewriteError("list() takes no keyword arguments", call)
        lst, v = self.tmp("l"), self.tmp("v")
        app = ast.Expr(value=_call(ast.Attribute(value=_load(lst), attr="append",
                                                 ctx=ast.Load()), [_load(v)]))
        stmts = [_assign(_store(lst), ast.List(elts=[], ctx=ast.Load()))] + \
            self.loop(call.args[0], v, [app])
        if sort:
            stmts.append(ast.Expr(value=_call(ast.Attribute(value=_load(lst), attr="sort",
                                                            ctx=ast.Load()), [],
                                              call.keywords)))
        return stmts, _load(lst)

    def first_item(self, call):
        args = call.args
        if not args or _builtins.len(args) > 2 or call.keywords or \
                self.wrapper(args[0]) != "iter":
            raise RewriteError("next() is supported on iter(x) written in the call "
                               "(next(iter(x)) or next(iter(x), default)); iterators are not "
                               "values in compiled code yet", call)
        r, v = self.tmp("r"), self.tmp("v")
        take = [_assign(_store(r), _load(v)), ast.Break()]
        if _builtins.len(args) == 2:
            return [_assign(_store(r), args[1])] + self.loop(args[0], v, take), _load(r)
        stop = ast.Raise(exc=_call(_kn("StopIteration"), []), cause=None)
        return self.loop(args[0], v, take, [stop]), _load(r)

    def choice(self, call):
        if _builtins.len(call.args) != 1 or call.keywords:
            raise RewriteError("random.choice() takes one sequence", call)
        s = self.tmp("s")
        n = _call(_kn("len"), [_load(s)])
        item = ast.Subscript(value=_load(s), slice=_call(_kn("below"), [n]), ctx=ast.Load())
        return [_assign(_store(s), call.args[0])], item

    def shuffle(self, call):
        if _builtins.len(call.args) != 1 or call.keywords:
            raise RewriteError("random.shuffle() takes one list or array", call)
        s, i, j = self.tmp("s"), self.tmp("i"), self.tmp("j")
        last = ast.BinOp(left=_call(_kn("len"), [_load(s)]), op=ast.Sub(), right=ast.Constant(1))
        pick = _assign(_store(j), _call(_kn("below"), [
            ast.BinOp(left=_load(i), op=ast.Add(), right=ast.Constant(1))]))

        def at(k, ctx):
            return ast.Subscript(value=_load(s), slice=_load(k), ctx=ctx)

        swap = _assign(ast.Tuple(elts=[at(i, ast.Store()), at(j, ast.Store())], ctx=ast.Store()),
                       ast.Tuple(elts=[at(j, ast.Load()), at(i, ast.Load())], ctx=ast.Load()))
        loop = ast.For(target=_store(i),
                       iter=_call(_kn("range"), [last, ast.Constant(0), ast.Constant(-1)]),
                       body=[pick, swap], orelse=[], type_comment=None)
        return [_assign(_store(s), call.args[0]), loop], ast.Constant(None)


def _locate(nodes, at):
    for top in nodes:
        for n in ast.walk(top):
            if "lineno" in n._attributes and not hasattr(n, "lineno") or \
                    getattr(n, "lineno", 1) == 0:
                ast.copy_location(n, at)
    return nodes


def rewrite_call(node, name, serial, env):
    """A call of the builtin `name` ("sum", "random.choice", ...) as (statements, expression,
    new local names), or None when the call stays as it is."""
    rw = _Rewriter(serial, env)
    name = name.rsplit(".", 1)[-1]
    args = node.args
    if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in node.keywords):
        return None  # f(*t) and f(**d): the call's own path (**d is refused at its position)
    if name == "sum":
        r = rw.reduce_sum(node)
    elif name in ("any", "all"):
        r = rw.any_all(node, name == "all")
    elif name in ("min", "max"):
        if _builtins.len(args) > 1 and not node.keywords:
            return None  # min(a, b, ...): the builtin's own rule
        r = rw.min_max(node, name == "max")
    elif name in ("sorted", "list"):
        if _builtins.len(args) != 1 or not rw.needs(args[0]) and not rw.is_iterator(args[0]):
            return None  # list(x), sorted(x) of a value: the list family's rule
        r = rw.to_list(node, name == "sorted")
    elif name == "tuple":
        if _builtins.len(args) != 1 or node.keywords or \
                not rw.is_iterator(args[0]) and not isinstance(rw.source_length(args[0]), range):
            return None  # tuple(t) of a value: the builtin's own rule
        r = rw.to_tuple(node)
    elif name == "next":
        r = rw.first_item(node)
    elif name in ("map", "filter", "reversed", "iter"):
        raise RewriteError(f"{name}() is supported as the iterable of a for loop or of a "
                           "consumer (sum, any, all, min, max, sorted, list, zip, enumerate); "
                           "iterators are not values in compiled code yet", node)
    elif name == "choice":
        r = rw.choice(node)
    elif name == "shuffle":
        r = rw.shuffle(node)
    else:
        return None
    stmts, expr = r
    return _locate(stmts + [expr], node)[:-1], expr, rw.names


def rewrite_for(node, serial, env):
    """A for statement over map/filter/reversed/a generator expression (also inside zip and
    enumerate) as (statements, None, new local names), or None when the for stays."""
    rw = _Rewriter(serial, env)
    if not rw.needs(node.iter):
        return None
    pre, it, tg, hd = rw.lower(node.iter, node.target, True)
    loop = ast.copy_location(ast.For(target=tg, iter=it, body=hd + node.body,
                                     orelse=node.orelse, type_comment=None), node)
    return _locate(pre + [loop], node.iter), None, rw.names


list = _builtins.list


def starred_targets(target, source, serial):
    """``a, *b, c = <source>`` (source: the name of a temporary holding the value) as
    statements: the plain targets take items by position from each end, the starred one the
    list of what is between (a list, as CPython makes it)."""
    elts = target.elts
    star = [i for i, e in _builtins.enumerate(elts) if isinstance(e, ast.Starred)]
    if _builtins.len(star) != 1:
        raise RewriteError("multiple starred expressions in assignment", target)
    s = star[0]
    after = _builtins.len(elts) - s - 1
    stmts = []
    for i, e in _builtins.enumerate(elts):
        if i == s:
            upper = ast.Constant(-after) if after else None
            part = ast.Subscript(value=_load(source),
                                 slice=ast.Slice(lower=ast.Constant(s), upper=upper, step=None),
                                 ctx=ast.Load())
            stmts.append(_assign(e.value, _call(_kn("list"), [part])))
        else:
            k = i if i < s else i - _builtins.len(elts)
            stmts.append(_assign(e, ast.Subscript(value=_load(source), slice=ast.Constant(k),
                                                  ctx=ast.Load())))
    return _locate(stmts, target), None, []


def walrus_targets(stmt):
    """the names that assignment expressions inside a statement bind"""
    return [n.target.id for n in ast.walk(stmt)
            if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)]


_CONSUMERS = ("sum", "any", "all", "min", "max", "sorted", "list")


def iterator_vars(fdef, env):
    """The names that hold an iterator made once, at the top of the function (``it =
    iter(x)``, ``zip(...)``, ``enumerate(...)``): each assigned exactly once, by a statement
    of the function's own body, and used only later, by ``next(it[, d])``, as the iterable of
    a ``for`` or a comprehension, or as the iterable of a consumer (sum, min, list, ...). The
    frontend keeps their GETITER instead of a variable (frontend/iter.c)."""
    rw = _Rewriter(0, env)
    counts = {}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, ast.arg):
            counts[n.arg] = counts.get(n.arg, 0) + 2
    parent = {}
    for n in ast.walk(fdef):
        for ch in ast.iter_child_nodes(n):
            parent[ch] = n
    out = []
    for i, st in _builtins.enumerate(fdef.body):
        if not (isinstance(st, ast.Assign) and _builtins.len(st.targets) == 1 and
                isinstance(st.targets[0], ast.Name)):
            continue
        name, v = st.targets[0].id, st.value
        w = rw.wrapper(v)
        if counts.get(name) != 1 or w not in ("iter", "zip", "enumerate") or v.keywords:
            continue
        if w == "iter" and (_builtins.len(v.args) != 1 or rw.is_iterator(v.args[0]) and
                            rw.wrapper(v.args[0]) not in ("zip", "enumerate")):
            continue
        if rw.needs(v if w != "iter" else v.args[0]):
            continue
        ok = True
        for j, later in _builtins.enumerate(fdef.body):
            for n in ast.walk(later):
                if not (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)):
                    continue
                p = parent.get(n)
                good = j > i and (
                    isinstance(p, ast.For) and p.iter is n or
                    isinstance(p, ast.comprehension) and p.iter is n or
                    isinstance(p, ast.Call) and p.args and p.args[0] is n and
                    any(rw.resolve(p.func) is getattr(_builtins, c)
                        for c in ("next",) + _CONSUMERS))
                ok = ok and good
        if ok:
            out.append(name)
    return out


def next_tail(call, has_default):
    """the statements of next(it)'s exhausted branch without a default: raise StopIteration"""
    if has_default:
        return []
    stop = ast.Raise(exc=_call(_kn("StopIteration"), []), cause=None)
    return _locate([stop], call)
