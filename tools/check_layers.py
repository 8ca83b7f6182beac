#!/usr/bin/env python3
"""Check the include layering of src/ (DESIGN.md section 2).

    base <- types <- ir <- {frontend, typing, passes} <- lower <- jit <- compile <- dispatch <- module

A folder may include its own headers and anything below it in that order. runtime/ (what compiled
code links against) may include only base/; lib/ sits with lower; targets/ sits with jit.
base/ knows neither Python nor LLVM nor NumPy.

Reads every `#include "..."` in src/**/*.{c,h,def,inc}; a path's first component names its layer
(`"typing/typing.h"` is typing), top-level files are their own layer: src/module.c is
`module`, src/compile.c is `compile`, but src/compile.h (KnCompilation, which every stage takes
first) sits just above ir. An include without a folder resolves like
the compiler does: the including file's folder first, then src/. Folders that do not exist yet are
fine; a folder or top-level file that is not in LAYERS below is an error (add it there).

Prints one line per violation and exits 1 if there is any.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, 'src')

# Bottom to top; each entry is one rank. Same-rank layers may not include each other unless
# PEERS says so.
ORDER = [
    ['base'],
    ['types'],
    ['ir'],
    ['compile.h'],  # KnCompilation: the state every stage takes first (see TOP_FILES)
    ['frontend', 'typing', 'passes'],
    ['lower', 'lib'],
    ['jit', 'targets'],
    ['compile'],
    ['dispatch', 'ufunc'],
    ['module'],
]
PEERS = {
    'lower': {'lib'},      # lower emits calls to library implementations; lib builds on lower
    'lib': {'lower'},
    'jit': {'targets'},    # targets implement target.h on top of jit and vice versa
    'targets': {'jit'},
    'ufunc': {'dispatch'},  # ufunc objects box and unbox like the dispatcher
}
# Top-level files of src/. compile.h declares KnCompilation, which every stage takes first, so
# it sits just above ir (and may include only base, types, ir); compile.c runs the whole pipeline
# and sits above jit. Any other top-level file is the layer named by its stem.
TOP_FILES = {
    'compile.h': 'compile.h',
    'compile.c': 'compile',
}
# Layers outside the chain: what they may include, and who may include them.
SIDE = {
    'runtime': {'base'},              # compiled code links against it
    'parallel': {'base', 'runtime'},  # thread pool and scheduler, called from compiled code
}
SIDE_USERS = {  # rank from which a side layer may be included
    'runtime': 'lower',
    'parallel': 'lower',
}
# Angle-bracket includes a layer may not use.
FORBIDDEN_SYSTEM = {
    'base': ('Python.h', 'numpy/', 'llvm-c/', 'llvm/'),
    'runtime': ('llvm-c/', 'llvm/'),
}

SUFFIXES = ('.c', '.h', '.def', '.inc')
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def rank_of(layer):
    for i, group in enumerate(ORDER):
        if layer in group:
            return i
    return None


def allowed(frm, to):
    """May layer `frm` include layer `to`?"""
    if frm == to:
        return True
    if frm in SIDE:
        return to in SIDE[frm]
    if to in SIDE:
        r_from, r_min = rank_of(frm), rank_of(SIDE_USERS[to])
        return r_from is not None and r_from >= r_min
    r_from, r_to = rank_of(frm), rank_of(to)
    if r_from is None or r_to is None:
        return False
    return r_to < r_from or to in PEERS.get(frm, ())


def known(layer):
    return rank_of(layer) is not None or layer in SIDE


def layer_of(relpath):
    """Layer of a path relative to src/, e.g. 'typing/infer.c' -> 'typing', 'compile.h' -> 'compile'."""
    parts = relpath.split('/')
    if len(parts) == 1:
        return TOP_FILES.get(parts[0], os.path.splitext(parts[0])[0])
    return parts[0]


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


def check():
    problems = []
    nfiles = 0
    for rel in source_files():
        nfiles += 1
        frm = layer_of(rel)
        where = 'src/' + rel
        if not known(frm):
            problems.append('%s: layer %r is not in tools/check_layers.py: place it there' % (where, frm))
            continue
        with open(os.path.join(SRC, rel), encoding='utf-8', errors='replace') as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                kind, name = m.groups()
                if kind == '<':
                    for bad in FORBIDDEN_SYSTEM.get(frm, ()):
                        if name == bad or (bad.endswith('/') and name.startswith(bad)):
                            problems.append('%s:%d: %s/ may not include <%s>' % (where, lineno, frm, name))
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
    return nfiles, problems


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
    print('check_layers: %d files, layering OK' % nfiles)
    return 0


if __name__ == '__main__':
    sys.exit(main())
