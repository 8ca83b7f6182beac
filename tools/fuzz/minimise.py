"""Shrink a failing module to a small repro that fails the same way.

``minimise(source, still_fails)`` works on the module's AST: it tries, one at a time, deleting
a statement of ``f``, replacing a loop or branch by its body, replacing an expression by one of
its operands or by a small constant, returning one element of a returned tuple, and, in
``args()``, dropping values of an ``_arr([...], dtype, shape, layout)`` argument, shrinking its
shape and making its layout C, and replacing scalar arguments by 0 or 1. A change is kept when
``still_fails(new_source)`` is true (the caller checks that the failure has the same kind), and
the passes repeat until none applies or the budget of tries is spent. ``repro(source, verdict)``
makes the minimised module a runnable file that prints what the interpreter and kiln do.
"""

import ast
import copy


def statement_lists(tree):
    """Every list of statements in the module's ``f`` (its body and nested bodies)."""
    f = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
    out = []
    for node in ast.walk(f):
        for field in ("body", "orelse"):
            seq = getattr(node, field, None)
            if isinstance(seq, list) and seq and isinstance(seq[0], ast.stmt):
                out.append(seq)
    return f, out


def fill_empty(tree):
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            seq = getattr(node, field, None)
            if field == "body" and isinstance(seq, list) and not seq:
                seq.append(ast.Pass())


def statement_edits(tree):
    """Candidates that delete a statement or unwrap a compound one (deep copies)."""
    _, lists = statement_lists(tree)
    for li, seq in enumerate(lists):
        for si in range(len(seq)):
            if isinstance(seq[si], ast.Return) and len(seq) == 1:
                continue
            for unwrap in (False, True):
                new = copy.deepcopy(tree)
                target = statement_lists(new)[1][li]
                stmt = target[si]
                if unwrap:
                    if not isinstance(stmt, (ast.For, ast.While, ast.If)):
                        continue
                    target[si:si + 1] = stmt.body + getattr(stmt, "orelse", [])
                else:
                    del target[si]
                fill_empty(new)
                yield new


SMALL = [ast.Constant(0), ast.Constant(1), ast.Constant(1.0)]


def children(node):
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.Compare):
        return [node.left] + node.comparators
    if isinstance(node, ast.Call):
        return list(node.args)
    if isinstance(node, ast.Subscript):
        return [node.value]
    if isinstance(node, ast.Tuple) and isinstance(getattr(node, "_parent", None), ast.Return):
        return list(node.elts)
    return []


def expression_edits(tree, in_function="f"):
    """Candidates that replace one expression of a function by a child or a constant."""
    count = sum(1 for _ in expressions(tree, in_function))
    for k in range(count):
        node = next(n for i, n in enumerate(expressions(tree, in_function)) if i == k)
        options = children(node)
        if not isinstance(node, ast.Constant) and in_function == "f":
            options = options + SMALL
        for opt in options:
            new = copy.deepcopy(tree)
            target = next(n for i, n in enumerate(expressions(new, in_function)) if i == k)
            replace(new, target, copy.deepcopy(opt))
            yield new


def expressions(tree, name):
    f = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    for node in ast.walk(f):
        for child in ast.iter_child_nodes(node):
            child._parent = node
        if isinstance(node, ast.expr) and not isinstance(node.ctx if hasattr(node, "ctx")
                                                          else None, ast.Store):
            if not isinstance(node, (ast.Name, ast.Attribute)) or isinstance(node, ast.Constant):
                yield node


def replace(tree, old, new):
    for node in ast.walk(tree):
        for field, value in ast.iter_fields(node):
            if value is old:
                setattr(node, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return


def argument_edits(tree):
    """Candidates that shrink ``args()``: fewer values, smaller shapes, C layout, 0 and 1."""
    for new in expression_edits(tree, "args"):
        yield new
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "args")
    calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id == "_arr"]
    for k in range(len(calls)):
        for edit in ("drop", "shape", "layout"):
            for j in range(6):
                new = copy.deepcopy(tree)
                fn2 = next(n for n in new.body if isinstance(n, ast.FunctionDef)
                           and n.name == "args")
                call = [n for n in ast.walk(fn2) if isinstance(n, ast.Call)
                        and isinstance(n.func, ast.Name) and n.func.id == "_arr"][k]
                if shrink_arr(call, edit, j):
                    yield new


def shrink_arr(call, edit, j):
    values, _, shape, layout = call.args
    if edit == "drop":
        if len(values.elts) <= 1 or j >= len(values.elts):
            return False
        del values.elts[j]
        return True
    if edit == "shape":
        options = ["()", "(0,)", "(1,)", "(2,)", "(3,)", "(1, 1)"]
        if ast.unparse(shape) == options[j]:
            return False
        old = ast.literal_eval(shape)
        new = ast.literal_eval(options[j])
        if len(new) > len(old) or (len(new) == len(old) and new >= old):
            return False
        call.args[2] = ast.parse(options[j], mode="eval").body
        return True
    if j or layout.value == "C":
        return False
    call.args[3] = ast.Constant("C")
    return True


def candidates(tree):
    yield from statement_edits(tree)
    yield from expression_edits(tree)
    yield from argument_edits(tree)


def minimise(source, still_fails, budget=400):
    """The smallest module found whose ``still_fails(text)`` holds; ``source`` must fail."""
    best = ast.parse(source)
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for cand in candidates(best):
            text = ast.unparse(cand)
            if len(text) >= len(ast.unparse(best)):
                continue
            tries += 1
            if still_fails(text):
                best, improved = ast.parse(text), True
                break
            if tries >= budget:
                break
    return ast.unparse(best) + "\n"


FOOTER = '''

if __name__ == "__main__":
    import kiln

    def outcome(func):
        try:
            return repr(func(*args()))
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"

    print("python:", outcome(f))
    print("kiln:  ", outcome(kiln.njit(boundscheck=True)(f)))
'''


def repro(source, verdict):
    """A runnable repro file: the verdict as a comment, the module, a main that runs both."""
    head = "".join(f"# {line}\n" for line in
                   [f"fuzz failure: {verdict['kind']}"] + verdict["detail"].splitlines()[:12])
    return head + "\n" + source.rstrip() + "\n" + FOOTER
