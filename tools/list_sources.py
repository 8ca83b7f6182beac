#!/usr/bin/env python3
"""List the files the build compiles or installs, for meson.build and the Makefile.

Meson has no glob, so meson.build asks this script at configure time:

    list_sources.py c      every src/**/*.c            (sources of kiln._core)
    list_sources.py py     every kiln/**/*.py, *.pyi, py.typed  (the Python package)

Paths are relative to the repository root, '/'-separated, sorted, one per line, so the output
is the same on every machine and a new file changes it. Meson only re-runs this at configure
time: a non-editable `make build` reconfigures on every install (meson-python always runs
`meson setup --reconfigure`), `make reconfigure` forces it for every build dir.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KINDS = {
    'c': ('src', lambda name: name.endswith('.c')),
    'py': ('kiln', lambda name: name.endswith(('.py', '.pyi')) or name == 'py.typed'),
}


def walk(top, keep):
    found = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
        dirnames[:] = [d for d in dirnames if d != '__pycache__' and not d.startswith('.')]
        for name in filenames:
            if keep(name) and not name.startswith('.'):
                rel = os.path.relpath(os.path.join(dirpath, name), ROOT)
                found.append(rel.replace(os.sep, '/'))
    return sorted(found)


def main(argv):
    if len(argv) != 2 or argv[1] not in KINDS:
        sys.stderr.write('usage: list_sources.py {%s}\n' % ','.join(sorted(KINDS)))
        return 2
    top, keep = KINDS[argv[1]]
    for path in walk(top, keep):
        print(path)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
