#!/usr/bin/env python3
"""Check the layering of src/ (DESIGN.md section 2): includes, calls and system headers.

    base <- types <- lib <- ir <- {frontend, typing, passes} <- targets <- lower <- jit <- compile
         <- dispatch <- module

A layer may use its own files and any layer below it in that order; layers of one rank may not
use each other. lib/ (the call registry's tables: names, flags, rule names) depends on base/
only and sits just below ir/, whose KnBuiltin ids it defines. targets/ (the KnTarget struct and
its implementations) sits below lower/ and jit/, which both call through it. runtime/ (what
compiled code links against) uses only base/, and is used from lower up.

A path's first component under src/ names its layer (`typing/typing.c` is typing); a top-level
file is the layer named by its stem (src/module.c is module; src/compile.c and src/compile.h are
compile). Every rule applies to every file the same way; there are no exceptions by file name.

Checked in every src/**/*.{c,h,def,inc}, with comments and string literals left out:
  1. `#include "..."`: the included file's layer must be usable (see above). An include without a
     folder resolves like the compiler does: the including file's folder first, then src/.
  2. calls: a call of a kn_ function defined (at the start of a line, kiln's style) in a file of
     another layer must go to a layer below, as an include would.
  3. LLVM: identifiers LLVM* and <llvm-c/...>, <llvm/...> only in lower/, jit/, targets/.
  4. Python: <Python.h> (and the other CPython and NumPy headers) and identifiers Py*, _Py*,
     PY_* (CPython's and NumPy's C API) only in frontend/, dispatch/ and module.
  5. no cycle of files: no file includes, directly or through others, a file that includes it.
Folders that do not exist yet are fine; a folder or top-level file that is not in the tables
below is an error (add it there).

Prints one line per violation and exits 1 if there is any.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, 'src')

# Bottom to top; each entry is one rank. Layers of one rank may not use each other.
ORDER = [
    ['base'],
    ['types'],
    ['lib'],  # the call registry's tables: names and flags; kir.h takes its ids from it
    ['ir'],
    ['frontend', 'typing', 'passes'],
    ['targets'],  # what code is compiled for: lower/ and jit/ read its struct (targets/target.h)
    ['lower'],
    ['jit'],
    ['compile'],
    ['dispatch'],
    ['ufunc'],  # NumPy ufunc and gufunc objects over compiled loops; compiles through dispatch/
    ['module'],
]
# Layers outside the chain: what they may use, and the lowest rank that may use them.
SIDE = {
    'runtime': ({'base'}, 'lower'),  # compiled code links against it
    'parallel': ({'base'}, 'lower'),  # the thread pool: compiled code and ufunc loops enter it
}
# Who may speak LLVM and Python.
LLVM_LAYERS = {'lower', 'jit', 'targets'}
PYTHON_LAYERS = {'frontend', 'dispatch', 'ufunc', 'module'}

LLVM_HEADERS = ('llvm-c/', 'llvm/')
PYTHON_HEADERS = ('Python.h', 'pythread.h', 'structmember.h', 'frameobject.h', 'numpy/')
LLVM_IDENT = re.compile(r'\bLLVM\w*')
PYTHON_IDENT = re.compile(r'\b(?:_?Py[A-Za-z0-9_]*|PY_\w+)')

SUFFIXES = ('.c', '.h', '.def', '.inc')
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
DEFINITION = re.compile(r'^(kn_\w+)\s*\(')  # a function defined in kiln's style
CALL = re.compile(r'\b(kn_\w+)\s*\(')


def rank_of(layer):
    for i, group in enumerate(ORDER):
        if layer in group:
            return i
    return None


def allowed(frm, to):
    """May layer `frm` use layer `to`?"""
    if frm == to:
        return True
    if frm in SIDE:
        return to in SIDE[frm][0]
    if to in SIDE:
        r_from, r_min = rank_of(frm), rank_of(SIDE[to][1])
        return r_from is not None and r_from >= r_min
    r_from, r_to = rank_of(frm), rank_of(to)
    if r_from is None or r_to is None:
        return False
    return r_to < r_from


def known(layer):
    return rank_of(layer) is not None or layer in SIDE


def layer_of(relpath):
    """Layer of a path relative to src/, e.g. 'typing/infer.c' -> 'typing', 'compile.h' -> 'compile'."""
    parts = relpath.split('/')
    if len(parts) == 1:
        return os.path.splitext(parts[0])[0]
    return parts[0]


def resolve(including_rel, name):
    """The file under src/ that `#include "name"` in src/<including_rel> names, or None."""
    own_dir = os.path.dirname(including_rel)
    for cand in (os.path.join(own_dir, name), name):
        cand = os.path.normpath(cand).replace(os.sep, '/')
        if not cand.startswith('..') and os.path.isfile(os.path.join(SRC, cand)):
            return cand
    return None


def include_cycles(files):
    """Each cycle of quoted includes between files, once, as a list of paths."""
    graph = {}
    for rel in files:
        edges = []
        for line in read(rel).split('\n'):
            m = INCLUDE.match(line)
            if m and m.group(1) == '"':
                to = resolve(rel, m.group(2))
                if to:
                    edges.append(to)
        graph[rel] = edges
    cycles, seen, state = [], set(), {}
    def visit(node, path):
        state[node] = 1
        path.append(node)
        for to in graph.get(node, ()):
            if state.get(to) == 1:
                cyc = path[path.index(to):]
                key = frozenset(cyc)
                if key not in seen:
                    seen.add(key)
                    cycles.append(cyc + [to])
            elif to not in state:
                visit(to, path)
        path.pop()
        state[node] = 2
    for rel in sorted(graph):
        if rel not in state:
            visit(rel, [])
    return cycles


def target_layer(including_rel, name):
    """Layer that `#include "name"` in src/<including_rel> refers to, or None if outside src/."""
    own_dir = os.path.dirname(including_rel)
    if '/' not in name:
        if os.path.exists(os.path.join(SRC, own_dir, name)):
            return layer_of(os.path.join(own_dir, name).replace(os.sep, '/'))
        if os.path.exists(os.path.join(SRC, name)):
            return layer_of(name)
        return None
    if name.startswith('./') or name.startswith('../'):
        resolved = os.path.normpath(os.path.join(own_dir, name)).replace(os.sep, '/')
        return None if resolved.startswith('..') else layer_of(resolved)
    first = name.split('/')[0]
    if os.path.isdir(os.path.join(SRC, first)) or known(first):
        return first
    return None  # e.g. "numpy/arrayobject.h" written with quotes


def source_files():
    for dirpath, dirnames, filenames in os.walk(SRC):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith('.') and d != '__pycache__')
        for name in sorted(filenames):
            if name.endswith(SUFFIXES):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, SRC).replace(os.sep, '/')


def code_lines(text):
    """The file's lines with comments and string and character literals blanked out (line
    numbers and columns kept). Preprocessor lines are kept whole for the include check."""
    out = []
    i, n = 0, len(text)
    buf = []
    state = None  # None, '//', '/*', '"', "'"
    while i < n:
        ch = text[i]
        nxt = text[i + 1] if i + 1 < n else ''
        if state is None:
            if ch == '/' and nxt == '/':
                state = '//'
                buf.append('  ')
                i += 2
                continue
            if ch == '/' and nxt == '*':
                state = '/*'
                buf.append('  ')
                i += 2
                continue
            if ch in '"\'':
                state = ch
                buf.append(ch)
                i += 1
                continue
            buf.append(ch)
        elif state == '//':
            if ch == '\n':
                state = None
                buf.append(ch)
            else:
                buf.append(' ')
        elif state == '/*':
            if ch == '*' and nxt == '/':
                state = None
                buf.append('  ')
                i += 2
                continue
            buf.append('\n' if ch == '\n' else ' ')
        else:  # inside a string or character literal
            if ch == '\\' and nxt:
                buf.append('  ' if nxt != '\n' else ' \n')
                i += 2
                continue
            if ch == state or ch == '\n':
                state = None
                buf.append(ch)
            else:
                buf.append(' ')
        i += 1
    out = ''.join(buf).split('\n')
    return out


def read(rel):
    with open(os.path.join(SRC, rel), encoding='utf-8', errors='replace') as f:
        return f.read()


def definitions(files):
    """kn_ function name -> set of layers that define it."""
    defs = {}
    for rel in files:
        for line in code_lines(read(rel)):
            m = DEFINITION.match(line)
            if m:
                defs.setdefault(m.group(1), set()).add(layer_of(rel))
    return defs


def check_file(rel, defs, problems):
    frm = layer_of(rel)
    where = 'src/' + rel
    text = read(rel)
    raw = text.split('\n')
    for lineno, line in enumerate(code_lines(text), 1):
        m = INCLUDE.match(raw[lineno - 1]) if line.lstrip().startswith('#') else None
        if m:
            kind, name = m.groups()
            if kind == '<':
                if frm not in LLVM_LAYERS and name.startswith(LLVM_HEADERS):
                    problems.append('%s:%d: %s/ may not include <%s> (LLVM only in %s)'
                                    % (where, lineno, frm, name, ', '.join(sorted(LLVM_LAYERS))))
                if frm not in PYTHON_LAYERS and any(
                        name == h or (h.endswith('/') and name.startswith(h)) for h in PYTHON_HEADERS):
                    problems.append('%s:%d: %s/ may not include <%s> (Python only in %s)'
                                    % (where, lineno, frm, name, ', '.join(sorted(PYTHON_LAYERS))))
                continue
            to = target_layer(rel, name)
            if to is None:
                continue
            if not known(to):
                problems.append('%s:%d: "%s" is in layer %r, which tools/check_layers.py does not know'
                                % (where, lineno, name, to))
            elif not allowed(frm, to):
                problems.append('%s:%d: %s may not include "%s" (%s is not below %s)'
                                % (where, lineno, frm, name, to, frm))
            continue
        if frm not in LLVM_LAYERS:
            for ident in sorted(set(LLVM_IDENT.findall(line))):
                problems.append('%s:%d: %s/ uses %s (LLVM only in %s)'
                                % (where, lineno, frm, ident, ', '.join(sorted(LLVM_LAYERS))))
        if frm not in PYTHON_LAYERS:
            for ident in sorted(set(PYTHON_IDENT.findall(line))):
                problems.append('%s:%d: %s/ uses %s (Python only in %s)'
                                % (where, lineno, frm, ident, ', '.join(sorted(PYTHON_LAYERS))))
        if DEFINITION.match(line):
            continue
        for name in CALL.findall(line):
            owners = defs.get(name)
            if not owners or frm in owners:
                continue
            bad = sorted(to for to in owners if known(to) and not allowed(frm, to))
            if bad and len(bad) == len(owners):
                problems.append('%s:%d: %s calls %s, defined in %s (not below %s)'
                                % (where, lineno, frm, name, '/'.join(bad), frm))


def check():
    problems = []
    files = list(source_files())
    for rel in files:
        if not known(layer_of(rel)):
            problems.append('src/%s: layer %r is not in tools/check_layers.py: place it there'
                            % (rel, layer_of(rel)))
    files = [rel for rel in files if known(layer_of(rel))]
    defs = definitions(files)
    for rel in files:
        check_file(rel, defs, problems)
    for cyc in include_cycles(files):
        problems.append('src/%s: includes itself through %s' % (cyc[0], ' -> '.join(cyc[1:])))
    return len(files), problems


def main():
    if not os.path.isdir(SRC):
        print('check_layers: no src/ folder')
        return 0
    nfiles, problems = check()
    for p in problems:
        print(p)
    if problems:
        print('check_layers: %d violation(s) in %d files' % (len(problems), nfiles))
        return 1
    print('check_layers: %d files: includes, calls, LLVM and Python use OK' % nfiles)
    return 0


if __name__ == '__main__':
    sys.exit(main())
