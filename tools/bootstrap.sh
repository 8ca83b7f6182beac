#!/usr/bin/env bash
# Install the system packages kiln builds with (Debian/Ubuntu), only those that are missing.
# Cheap when everything is there: no apt-get runs. Called by `make deps`; safe to run by hand.
#
#   LLVM 19 (static libraries + llvm-config-19), clang-format-19, the libraries static LLVM links
#   against, and, for a Debian-packaged python3, its headers and venv module.
set -euo pipefail

PYTHON=${PYTHON:-python3}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-19}
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-19}

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

if command -v dpkg-query >/dev/null 2>&1; then
    # llvm-config may be overridden to point elsewhere; only install LLVM 19 when it is missing.
    if ! command -v "$LLVM_CONFIG" >/dev/null 2>&1; then need+=(llvm-19-dev); fi
    if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then need+=(clang-format-19); fi
    # What `llvm-config-19 --link-static --system-libs` asks for (z3 is dropped by meson.build),
    # and what llvm-19-dev's own dependencies normally bring.
    for p in libzstd-dev zlib1g-dev libxml2-dev libedit-dev libffi-dev libncurses-dev; do
        have_pkg "$p" || need+=("$p")
    done
    # A Debian python3 needs its headers and venv module as separate packages.
    if ! "$PYTHON" -c 'import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null; then
        need+=(python3-dev)
    fi
    if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then need+=(python3-venv); fi
else
    missing=0
    command -v "$LLVM_CONFIG" >/dev/null 2>&1 || { echo "bootstrap: $LLVM_CONFIG not found"; missing=1; }
    command -v "$CLANG_FORMAT" >/dev/null 2>&1 || { echo "bootstrap: $CLANG_FORMAT not found"; missing=1; }
    if [ "$missing" = 1 ]; then
        echo "bootstrap: not a Debian system: install LLVM 19 (with static libraries) and clang-format 19," >&2
        echo "           or point LLVM_CONFIG / CLANG_FORMAT at them" >&2
        exit 1
    fi
    exit 0
fi

if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi

SUDO=
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "bootstrap: need root (or sudo) to install: ${need[*]}" >&2
        exit 1
    fi
fi
echo "bootstrap: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
