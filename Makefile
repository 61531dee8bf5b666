# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim - build, test, install.
#
#   make            library (shared + static), the libonnxslim command, examples
#   make deps       install the Debian packages the build and tests need
#   make demo       run the main job on the bundled default model
#   make examples   every example (examples/README.md) into build/examples
#   make check      all tests (unit, corpus round trip, ABI, sanitizers, ...)
#   make check-long exhaustive numeric checks (minutes; CI runs them too)
#   make bench      benchmarks (ratios measured side by side in one run)
#   make fuzz       the libFuzzer harnesses, FUZZ_SECONDS each (default 60)
#   make format-check  clang-format-14 --dry-run -Werror over the C sources
#   make format     reformat them in place (.clang-format)
#   make abi-check  abidiff of the built library against abi/libonnxslim.abi
#   make abi-dump   regenerate abi/libonnxslim.abi from the built library
#   make install    PREFIX=/usr/local DESTDIR= (and PYTHONDIR, see below)
#   make install-strip  the same, binaries stripped
#   make uninstall  remove what make install put there (same variables)
#   make dist       libonnxslim-VERSION.tar.gz, reproducible

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
# where bash-completion (2.x) looks for the completion of a command
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The Python package goes where the interpreter PYTHON imports from for
# PREFIX (scripts/python-dir.py): with Debian's python3, the default,
# /usr/lib/python3/dist-packages for PREFIX=/usr and
# /usr/local/lib/python3.X/dist-packages for /usr/local; else
# PREFIX/lib/python3.X/site-packages. Recursive (=): PYTHON is asked only
# when install runs.
PYTHON ?= /usr/bin/python3
PYTHONDIR ?= $(shell $(PYTHON) scripts/python-dir.py '$(PREFIX)' | sed -n 1p)
DESTDIR ?=

CC ?= cc
CXX ?= c++
AR ?= ar
NM ?= nm
OBJCOPY ?= objcopy
B := build

# ---- cross builds ----------------------------------------------------------
# make CROSS=x86_64-w64-mingw32- (or aarch64-linux-gnu-): that compiler and
# archiver, into a directory of its own (build-x86_64-w64-mingw32); test
# programs run through $(RUN) (wine, qemu-aarch64 -L ...), which test/run.sh
# and the steps put in front of each program they execute (make
# check-arm64 and make check-windows set it; docs/building.md). The nanopb
# archive is the one of the compiler's architecture (multiarch), never the
# first one found: more than one may be installed.
CROSS ?=
ifneq ($(CROSS),)
CC := $(CROSS)gcc
CXX := $(CROSS)g++
AR := $(CROSS)ar
NM := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
B := build-$(CROSS:-=)
endif
RUN ?=
export RUN
MULTIARCH = $(shell $(CC) -print-multiarch 2>/dev/null)
# The platform layer's implementation is the one of the system the compiler
# targets: platform_win32.c for mingw-w64 (with its C99 printf, and the
# headers of nanopb and xxhash linked into $(B)/xinclude, as the
# cross compiler does not search /usr/include), else platform_posix.c.
# `make CROSS=... objs` compiles every library object.
XTARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(findstring mingw,$(XTARGET)),)
PLATFORM_OTHER := lib/base/platform_posix.c
X_CFLAGS := -D__USE_MINGW_ANSI_STDIO=1 -idirafter $(B)/xinclude
X_APPFLAGS := -D__USE_MINGW_ANSI_STDIO=1
X_TESTFLAGS := -include test/compat_win32.h -Itest/win32
X_DEPS := $(B)/xinclude/pb.h
else
PLATFORM_OTHER := lib/base/platform_win32.c
endif

VERSION_H := include/onnxslim/version.h
VMAJOR := $(shell sed -n 's/^\#define ONNXSLIM_VERSION_MAJOR \([0-9]*\)/\1/p' $(VERSION_H))
VMINOR := $(shell sed -n 's/^\#define ONNXSLIM_VERSION_MINOR \([0-9]*\)/\1/p' $(VERSION_H))
VPATCH := $(shell sed -n 's/^\#define ONNXSLIM_VERSION_PATCH \([0-9]*\)/\1/p' $(VERSION_H))
VERSION := $(VMAJOR).$(VMINOR).$(VPATCH)
SONAME := libonnxslim.so.$(VMAJOR)
SOREAL := libonnxslim.so.$(VERSION)
# Windows: the library is libonnxslim-MAJOR.dll (the major version in the
# name, as libtool names DLLs) with its import library libonnxslim.dll.a
# and libonnxslim.def; programs end in .exe.
EXE :=
ifneq ($(findstring mingw,$(XTARGET)),)
SOREAL := libonnxslim-$(VMAJOR).dll
EXE := .exe
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
OPT ?= -O2 -g
LIB_CFLAGS := -std=c11 $(OPT) $(WARN) -fPIC -fvisibility=hidden -Iinclude -I$(B)/proto -I$(B)/config -Ilib $(X_CFLAGS) $(CFLAGS)
APP_CFLAGS := -std=c11 $(OPT) -Wall -Wextra -Werror -Iinclude $(X_APPFLAGS) $(CFLAGS)
# Shared libraries the library links (SHA-1 for the external-data checksum key).
LIB_LIBS := -lnettle
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
# Found when a recipe runs, never when the Makefile is parsed: the targets that
# install packages (demo, check, ...) run `deps` first and only then a
# sub-make that builds, so nothing decided here can predate the install.
# The archive of the compiler's own target (its multiarch directory: with an
# arm64 one installed too, a glob's first match is the wrong one), else any.
NANOPB_A = $(firstword $(wildcard $(if $(MULTIARCH),/usr/lib/$(MULTIARCH)/libprotobuf-nanopb.a,/usr/lib/*/libprotobuf-nanopb.a) /usr/lib/libprotobuf-nanopb.a))

# Windows (mingw-w64): Debian has no Windows build of nanopb, so its C
# runtime is compiled here from the source of the very version installed
# (scripts/fetch-nanopb.sh: Debian's source package, its headers checked
# equal to /usr/include's), with the options of Debian's debian/rules
# (-DPB_ENABLE_MALLOC), into $(B)/nanopb/libprotobuf-nanopb.a. SHA-1 is the
# system's (BCrypt, lib/base/platform_win32.c): no nettle.
ifneq ($(findstring mingw,$(XTARGET)),)
NANOPB_DIR := $(B)/nanopb
NANOPB_A := $(NANOPB_DIR)/libprotobuf-nanopb.a
LIB_LIBS := -lbcrypt
$(NANOPB_DIR)/pb_decode.c:
	sh scripts/fetch-nanopb.sh $(NANOPB_DIR)
$(NANOPB_DIR)/pb_common.c $(NANOPB_DIR)/pb_encode.c: $(NANOPB_DIR)/pb_decode.c ;
$(NANOPB_DIR)/%.o: $(NANOPB_DIR)/%.c
	$(CC) -O2 -g -DPB_ENABLE_MALLOC -I$(NANOPB_DIR) -c $< -o $@
$(NANOPB_A): $(NANOPB_DIR)/pb_common.o $(NANOPB_DIR)/pb_encode.o $(NANOPB_DIR)/pb_decode.o
	rm -f $@ && $(AR) rcs $@ $^
nanopb: $(NANOPB_A)
.PHONY: nanopb
endif

# Every lib/**/*.c, its object under $(B)/obj/ in the same folder
# (lib/passes/check.c -> $(B)/obj/passes/check.o).
LIB_SRC := $(sort $(filter-out $(PLATFORM_OTHER),$(shell find lib -name '*.c')))
LIB_OBJ := $(patsubst lib/%.c,$(B)/obj/%.o,$(LIB_SRC))
LIB_H := $(sort $(shell find lib -name '*.h'))
HEADERS := include/onnxslim.h $(wildcard include/onnxslim/*.h)

all: $(B)/$(SOREAL) $(B)/libonnxslim.a $(B)/libonnxslim$(EXE) $(B)/examples/summary$(EXE)

# One clear line when a build dependency is missing, instead of a compiler or
# linker error later (order-only: it never makes anything rebuild).
need-deps:
	@CC="$(CC)" ONNX_PROTO=$(ONNX_PROTO) sh scripts/install-deps.sh --check

# ---- generated nanopb code ------------------------------------------------
# REUSE-IgnoreStart (the licence lines below are written into generated files)
$(B)/proto/onnx.pb.h: $(wildcard $(ONNX_PROTO)) lib/proto/onnx.options | need-deps
	@mkdir -p $(B)/proto
	cp $(ONNX_PROTO) $(B)/proto/onnx.proto
	cd $(B)/proto && nanopb_generator.py -q -f $(CURDIR)/lib/proto/onnx.options onnx.proto
	@# generated from onnx.proto: Apache-2.0, as its source (NOTICE)
	for f in onnx.pb.c onnx.pb.h; do \
	  { printf '/* SPDX-FileCopyrightText: Copyright (c) ONNX Project Contributors */\n/* SPDX-License-Identifier: Apache-2.0 */\n'; \
	    cat $(B)/proto/$$f; } > $(B)/proto/$$f.tmp && mv $(B)/proto/$$f.tmp $(B)/proto/$$f || exit 1; \
	done
# REUSE-IgnoreEnd

# ---- the platform layer's configuration ----------------------------------
# Which operating-system features lib/base/platform_posix.c uses, found by
# compiling a tiny program per feature (scripts/probe-platform.sh):
# PLATFORM=auto (the default) uses what the compiler and its C library
# offer; PLATFORM=posix none of the Linux-only ones (openat2, renameat2,
# copy_file_range, splice, sync_file_range, gettid, tgkill, getrandom, O_PATH,
# madvise flags, /proc): what macOS and the BSDs would get. Give such a
# build a directory of its own: make PLATFORM=posix B=build-posix (or
# make check-posix). A change of PLATFORM in one directory probes again.
PLATFORM ?= auto
CONFIG_H := $(B)/config/onnxslim_config.h
$(B)/config/platform.id: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PLATFORM) $(CC) $(CFLAGS)' | cmp -s - $@ 2>/dev/null || echo '$(PLATFORM) $(CC) $(CFLAGS)' > $@
$(CONFIG_H): scripts/probe-platform.sh $(B)/config/platform.id
	sh scripts/probe-platform.sh '$(CC)' '$(PLATFORM)' $(CFLAGS) > $@.tmp && mv $@.tmp $@
FORCE:
.PHONY: FORCE

$(B)/obj/%.o: lib/%.c $(LIB_H) $(HEADERS) $(B)/proto/onnx.pb.h $(CONFIG_H) $(X_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

# cross builds: the build machine's headers for a mingw-w64 compiler
$(B)/xinclude/pb.h:
	@mkdir -p $(B)/xinclude
	for h in pb.h pb_common.h pb_encode.h pb_decode.h xxhash.h; do \
	  ln -sfn /usr/include/$$h $(B)/xinclude/$$h || exit 1; done
objs: $(LIB_OBJ)
.PHONY: objs

# ---- libraries -----------------------------------------------------------
# --no-undefined: a library that needs a symbol nobody links fails here, not
# in the application. Sanitized builds go without it: with clang the
# sanitizer's runtime (__tsan_*, __asan_*) comes with the program, not with
# shared libraries, e.g.
#   make B=build/tsan CC=clang CFLAGS=-fsanitize=thread LDFLAGS=-fsanitize=thread
NO_UNDEFINED := $(if $(findstring -fsanitize=,$(CFLAGS) $(LDFLAGS)),,-Wl,--no-undefined)

ifeq ($(findstring mingw,$(XTARGET)),)
$(B)/$(SOREAL): $(LIB_OBJ) lib/onnxslim.map | need-deps
	$(CC) -shared -o $@ $(LIB_OBJ) $(NANOPB_A) -Wl,-soname,$(SONAME) \
	  -Wl,--version-script,lib/onnxslim.map $(NO_UNDEFINED) -Wl,--exclude-libs,ALL $(LDFLAGS) $(LIB_LIBS)
	ln -sf $(SOREAL) $(B)/$(SONAME)
	ln -sf $(SONAME) $(B)/libonnxslim.so
else
# The DLL exports what the .def lists: the version script's global names
# expanded over the objects' symbols (scripts/gen-def.py), nothing else
# (test/check_long/windows.sh compares its exports with abi/onnxslim.symbols).
$(B)/libonnxslim.def: $(LIB_OBJ) lib/onnxslim.map scripts/gen-def.py
	$(NM) -g --defined-only $(LIB_OBJ) > $(B)/lib-symbols.txt
	/usr/bin/python3 scripts/gen-def.py lib/onnxslim.map $(SOREAL) $(B)/lib-symbols.txt > $@.tmp
	mv $@.tmp $@
$(B)/$(SOREAL): $(LIB_OBJ) $(B)/libonnxslim.def $(NANOPB_A)
	$(CC) -shared -o $@ $(LIB_OBJ) $(B)/libonnxslim.def $(NANOPB_A) -Wl,--out-implib,$(B)/libonnxslim.dll.a \
	  -static-libgcc -Wl,--no-undefined $(LDFLAGS) $(LIB_LIBS)
endif

# The static library is one relocatable object that carries nanopb with it;
# every symbol but the public onnxslim_* ones is made local, so it cannot
# clash with the application's own nanopb.
$(B)/libonnxslim.a: $(LIB_OBJ) $(NANOPB_DIR:%=%/libprotobuf-nanopb.a) | need-deps
	$(CC) -r -nostdlib -o $(B)/onnxslim-all.o $(LIB_OBJ) -Wl,--whole-archive $(NANOPB_A) -Wl,--no-whole-archive
	$(NM) --defined-only -g $(B)/onnxslim-all.o | awk '$$3 ~ /^onnxslim_[a-z0-9]/ {print $$3}' > $(B)/static.keep
	$(OBJCOPY) --keep-global-symbols=$(B)/static.keep $(B)/onnxslim-all.o
	rm -f $@ && $(AR) rcs $@ $(B)/onnxslim-all.o

# ---- programs --------------------------------------------------------------
# The libonnxslim command: every tools/*.c (main.c, one cmd-NAME.c per command,
# the helpers they share), over the public headers only.
TOOL_SRC := $(sort $(wildcard tools/*.c))
TOOL_OBJ := $(patsubst tools/%.c,$(B)/tools/%.o,$(TOOL_SRC))
TOOL_H := $(wildcard tools/*.h)

$(B)/tools/%.o: tools/%.c $(TOOL_H) $(HEADERS)
	@mkdir -p $(B)/tools
	$(CC) $(APP_CFLAGS) -c $< -o $@

$(B)/libonnxslim$(EXE): $(TOOL_OBJ) $(B)/$(SOREAL)
	$(CC) $(APP_CFLAGS) -o $@ $(TOOL_OBJ) -L$(B) -lonnxslim -Wl,-rpath,'$$ORIGIN' $(LDFLAGS)

$(B)/examples/%$(EXE): examples/%.c $(HEADERS) $(B)/$(SOREAL)
	@mkdir -p $(B)/examples
	$(CC) $(APP_CFLAGS) -o $@ $< -L$(B) -lonnxslim -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS)

# ---- examples ---------------------------------------------------------------------
# `make examples` builds every example (examples/README.md); `make check`
# builds and runs them (test/steps/53-examples.sh). recipe.cpp becomes
# recipe-cpp, compiled as C++17 (include/onnxslim.hpp).
EXAMPLES := summary recipe build_model inspect recipe-cpp
APP_CXXFLAGS := -std=c++17 $(OPT) -Wall -Wextra -pedantic -Werror -Iinclude $(CXXFLAGS)

$(B)/examples/recipe-cpp$(EXE): examples/recipe.cpp include/onnxslim.hpp $(HEADERS) $(B)/$(SOREAL)
	@mkdir -p $(B)/examples
	$(CXX) $(APP_CXXFLAGS) -o $@ $< -L$(B) -lonnxslim -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS)

# ort_recipe.c links onnxruntime's C API too: built by `make examples` only
# where pkg-config finds libonnxruntime (Debian trixie's libonnxruntime-dev;
# Debian 12 has none), which a line says; `make ort-recipe` asks for it.
ORT_PC := $(shell pkg-config --exists libonnxruntime 2>/dev/null && echo yes)
$(B)/examples/ort_recipe: examples/ort_recipe.c $(HEADERS) $(B)/$(SOREAL)
	@pkg-config --exists libonnxruntime 2>/dev/null || { echo "ort_recipe needs onnxruntime's C API: pkg-config finds no libonnxruntime (Debian: libonnxruntime-dev, trixie and later)" >&2; exit 1; }
	@mkdir -p $(B)/examples
	$(CC) $(APP_CFLAGS) $$(pkg-config --cflags libonnxruntime) -o $@ $< -L$(B) -lonnxslim \
	  -Wl,-rpath,'$$ORIGIN/..' $$(pkg-config --libs libonnxruntime)
ort-recipe: $(B)/examples/ort_recipe
examples: $(addsuffix $(EXE),$(addprefix $(B)/examples/,$(EXAMPLES))) $(if $(ORT_PC),$(B)/examples/ort_recipe)
ifneq ($(ORT_PC),yes)
	@echo "examples: ort_recipe skipped: pkg-config finds no libonnxruntime (onnxruntime's C API; see examples/README.md)"
endif
tests: examples
.PHONY: examples ort-recipe

# ---- setup, demo ------------------------------------------------------------
# Silent and cheap (one dpkg-query) when everything is installed: then
# demo, check, check-long and bench run no apt-get.
deps:
	@sh scripts/install-deps.sh

# Each target that installs packages runs the build in a sub-make, which reads
# the system only after `deps` has finished.
demo: deps
	$(MAKE) all
	sh scripts/demo.sh

# ---- tests ----------------------------------------------------------------
# Unit tests are built twice: against the shared and the static library.
TEST_SRC := $(wildcard test/test_*.c)
# Windows: the tests built around rlimits (limits, scale), /proc memory
# figures (memory) or glibc's allocator (oom) are left out; the others
# skip their POSIX-only cases (POSIX_ONLY in test/t.h) and get
# test/compat_win32.h and winpthreads (static: the tests that start
# threads of their own use POSIX threads; the library does not).
ifneq ($(findstring mingw,$(XTARGET)),)
WIN_NO_TESTS := limits memory oom scale
TEST_SRC := $(filter-out $(WIN_NO_TESTS:%=test/test_%.c),$(TEST_SRC))
X_TESTLIBS := -Wl,-Bstatic -lpthread -Wl,-Bdynamic
endif
TEST_BIN := $(patsubst test/%.c,$(B)/test/%$(EXE),$(TEST_SRC)) \
            $(patsubst test/%.c,$(B)/test-static/%$(EXE),$(TEST_SRC))
# -I$(B)/config: a test of a feature the platform layer may lack (a kernel
# copy, the kernel's thread ids) asks onnxslim_config.h what this build has.
TEST_CFLAGS := -std=c11 $(OPT) -Wall -Wextra -Werror -Wno-unused-function -Iinclude -Itest -I$(B)/config $(X_APPFLAGS) $(X_TESTFLAGS) $(CFLAGS)

$(B)/test/%$(EXE): test/%.c test/t.h test/pbuild.h test/util.h test/child.h test/fuzz/passes_core.h $(HEADERS) $(CONFIG_H) $(B)/$(SOREAL)
	@mkdir -p $(B)/test
	$(CC) $(TEST_CFLAGS) -o $@ $< -L$(B) -lonnxslim -Wl,-rpath,'$$ORIGIN/..' -lm $(X_TESTLIBS)

$(B)/test-static/%$(EXE): test/%.c test/t.h test/pbuild.h test/util.h test/child.h test/fuzz/passes_core.h $(HEADERS) $(CONFIG_H) $(B)/libonnxslim.a
	@mkdir -p $(B)/test-static
	$(CC) $(TEST_CFLAGS) -o $@ $< $(B)/libonnxslim.a $(LIB_LIBS) -lm $(X_TESTLIBS)

# test_convert_paths calls the library's internal functions (the SIMD
# dispatch of the conversion kernels), test_memlimit reads what the
# passes hold (model->held) and test_pending a tensor's cache, so they
# link the library's objects; each exists under both names the unit-test
# step runs.
PATHS_TEST_DEPS := test/t.h test/pbuild.h $(HEADERS) $(LIB_OBJ) $(LIB_H)
INTERNAL_TESTS := test_convert_paths test_memlimit test_pending
$(foreach t,$(INTERNAL_TESTS),$(B)/test/$(t)$(EXE) $(B)/test-static/$(t)$(EXE)): $(PATHS_TEST_DEPS) | need-deps
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Ilib -I$(B)/proto -o $@ test/$(basename $(notdir $@)).c $(LIB_OBJ) $(NANOPB_A) $(LIB_LIBS) -lm
$(B)/test/test_convert_paths$(EXE) $(B)/test-static/test_convert_paths$(EXE): test/test_convert_paths.c
$(B)/test/test_memlimit$(EXE) $(B)/test-static/test_memlimit$(EXE): test/test_memlimit.c
$(B)/test/test_pending$(EXE) $(B)/test-static/test_pending$(EXE): test/test_pending.c

tests: all $(TEST_BIN)

check: deps
	$(MAKE) tests
	sh test/run.sh

# The generic POSIX build (PLATFORM=posix: no Linux-only call, what macOS
# and the BSDs would get) in $(B)-posix, and against it the unit tests and
# the steps that exercise the platform layer: external data beneath its
# directory, the command's external data, safety, hostile inputs,
# interruption and crash safety. Test step 79-posix runs it in make check.
POSIX_B := $(B)-posix
POSIX_STEPS := 10-unit 56-external 67-cli-external 68-cli-safety 69-cli-hostile 76-cli-interrupt 78-save-crash
check-posix:
	$(MAKE) PLATFORM=posix B=$(POSIX_B) tests
	B=$(POSIX_B) sh test/run.sh $(POSIX_STEPS)

# arm64 Linux (cross builds, above) under qemu-user: the unit tests (max
# and cortex-a53 CPUs), the exhaustive conversion check sampled, the
# command's outputs byte for byte against this build and the command's test
# steps (test/check_long/arm64.sh; installs what it needs; also in
# check-long).
check-arm64:
	B=$(B) sh test/check_long/arm64.sh
.PHONY: check-arm64

# ---- code style ------------------------------------------------------------
# One style (.clang-format), checked by format-check (CI runs it before
# make check) and applied by format. clang-format-14 comes with Debian's
# clang-format package (make deps).
CLANG_FORMAT ?= clang-format-14
FORMAT_SRC = $(sort $(shell find lib include tools examples -name '*.[ch]' -o -name '*.[ch]pp') $(wildcard test/*.c test/*.h test/*.cpp test/cmake-consumer/*.cpp test/fuzz/*.c test/fuzz/*.h bench/*.c))

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null 2>&1 || { echo "$(CLANG_FORMAT) not found (Debian package clang-format): run 'make deps' first" >&2; exit 1; }
	$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRC)

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

# ---- ABI -------------------------------------------------------------------
# abi-check fails on any incompatible change against the committed baseline
# (abidiff exit bit 8) or when abidiff itself fails (bits 1, 2); additions
# (bit 4) pass. abi-dump rewrites the baseline: run it when a release is
# cut, never to make abi-check pass (docs/abi.md).
ABI_BASELINE := abi/libonnxslim.abi
ABIDW_FLAGS := --no-corpus-path --headers-dir include

abi-check: $(B)/$(SOREAL)
	@mkdir -p $(B)/abi
	@abidw $(ABIDW_FLAGS) --out-file $(B)/abi/current.abi $(B)/$(SOREAL)
	@abidiff --headers-dir2 include $(ABI_BASELINE) $(B)/abi/current.abi > $(B)/abi/abidiff.log 2>&1; r=$$?; \
	if [ $$((r & 11)) -ne 0 ]; then head -n 40 $(B)/abi/abidiff.log; echo "(whole report: $(B)/abi/abidiff.log)"; \
	  echo "abi-check: incompatible with $(ABI_BASELINE) (abidiff exit $$r)" >&2; exit 1; fi; \
	echo "abi-check: compatible with $(ABI_BASELINE) (abidiff exit $$r)"

abi-dump: $(B)/$(SOREAL)
	abidw $(ABIDW_FLAGS) --out-file $(ABI_BASELINE) $(B)/$(SOREAL)

# Checks that take minutes (CI runs them): the release tarball's make check
# (but 79-posix and 80-valgrind) where it is unpacked (test/check_long/dist-check.sh), the Debian
# packages in a clean Debian 12 (debian-check.sh), examples/ort_recipe.c
# built and run against onnxruntime 1.21 in a Debian trixie chroot on the
# 1.1 GB reranker (trixie-ort.sh: about a minute with its base cached), and
# exhaustive checks: every one of the 2^32 FP32 inputs of
# each FP32 conversion kernel against independent references (CI runs it).
# It runs every check once per dispatch path of the kernels the CPU has
# (scalar, AVX2, AVX-512), which it selects with an internal function: it is
# linked with the library's objects.
$(B)/check_long/convert_exhaustive: test/check_long/convert_exhaustive.c $(HEADERS) $(LIB_H) $(LIB_OBJ) | need-deps
	@mkdir -p $(B)/check_long
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -Ilib -I$(B)/proto -o $@ $< $(LIB_OBJ) \
	  $(NANOPB_A) $(LIB_LIBS) -lm -lpthread

check-long: deps
	$(MAKE) all $(B)/check_long/convert_exhaustive
	$(B)/check_long/convert_exhaustive
	sh test/check_long/dist-check.sh
	sh test/check_long/debian-check.sh
	sh test/check_long/trixie-ort.sh
	sh test/check_long/windows.sh
	B=$(B) sh test/check_long/arm64.sh

# Windows x86-64 with mingw-w64 (test/check_long/windows.sh; also in
# check-long): the DLL, .def, import and static libraries and the .exe are
# built; under wine (installed when missing) the unit tests but
# WIN_NO_TESTS, and the command's outputs byte for byte against Linux's.
check-windows:
	sh test/check_long/windows.sh

# The Windows build's sources as C11 without GNU extensions and as MSVC
# reads them (clang's x86_64-pc-windows-msvc target against the mingw-w64
# headers); run by test/check_long/windows.sh.
check-msvc-syntax: objs
	sh test/check_long/msvc-syntax.sh $(B) $(LIB_SRC) $(B)/proto/onnx.pb.c $(TOOL_SRC)

bench:
	@sh scripts/install-deps.sh --bench
	$(MAKE) all
	sh bench/run.sh

# Each libFuzzer harness for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=3600);
# new inputs go to $(B)/fuzz/corpus-*work, crashes to $(B)/fuzz/<harness>-crash-*.
FUZZ_SECONDS ?= 60
fuzz: all
	sh test/fuzz/build.sh
	$(B)/fuzz/fuzz_load -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(B)/fuzz/fuzz_load- \
	  $(B)/fuzz/corpus-work test/fuzz/corpus test/fuzz/regressions test/data
	$(B)/fuzz/fuzz_external -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(B)/fuzz/fuzz_external- \
	  $(B)/fuzz/corpus-external-work test/fuzz/corpus-external
	$(B)/fuzz/fuzz_passes -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(B)/fuzz/fuzz_passes- \
	  $(B)/fuzz/corpus-passes-work test/fuzz/corpus-passes

# ---- install, uninstall ---------------------------------------------------------
# make install         PREFIX=/usr/local DESTDIR= (LIBDIR, INCLUDEDIR, BINDIR,
#                      PKGCONFIGDIR, CMAKEDIR, MANDIR, BASHCOMPDIR, PYTHON,
#                      PYTHONDIR), then prints where each part went and, for a
#                      prefix outside the system's search paths, the line to add
# make install-strip   the same with stripped binaries (or STRIP=1)
# make uninstall       removes exactly what make install put there (same
#                      variables)
#
# Relocatable: the command finds the library through $ORIGIN, the pkg-config
# file its prefix through ${pcfiledir} (not for PREFIX=/usr, where pkg-config
# must see /usr/include literally to leave it out), the CMake package through its own
# location, the Python package through _installed.py (LIBDIR relative to
# the package): a copied or moved prefix keeps working (test step 51).
CMAKEDIR ?= $(LIBDIR)/cmake/libonnxslim
STRIP ?=
# $(call relpath,FROM_DIR,TO): TO relative to FROM_DIR
relpath = $(shell realpath -m -s --relative-to='$(1)' '$(2)')
# $(call from_prefix,DIR,VAR): DIR as $${VAR}/REST when under PREFIX, else DIR
from_prefix = $(if $(filter $(PREFIX)/%,$(1)),$${$(2)}/$(patsubst $(PREFIX)/%,%,$(1)),$(1))
# no rpath into the system's own library directories (Debian policy)
SYSTEM_LIBDIRS := /usr/lib /lib /usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null) /lib/$(shell $(CC) -print-multiarch 2>/dev/null)
CLI_RPATH = $(if $(filter $(LIBDIR),$(SYSTEM_LIBDIRS)),,-Wl,-rpath,'$$ORIGIN/$(call relpath,$(BINDIR),$(LIBDIR))')
PUBLIC_H := $(notdir $(wildcard include/onnxslim/*.h))
PY_SRC := $(notdir $(wildcard python/libonnxslim/*.py)) py.typed

# PYTHONDIR is empty when PYTHON does not run: stop before writing anything
# (the package would land in DESTDIR/libonnxslim)
need-pythondir = @[ -n '$(PYTHONDIR)' ] || { echo "make $@: $(PYTHON) (PYTHON) did not say where the Python package goes for PREFIX=$(PREFIX); set PYTHON to a python3 that runs, or PYTHONDIR=DIR" >&2; exit 1; }

# the directories install writes to; those it has to create are listed in
# INSTALLED_DIRS (scripts/install-dirs.sh), which uninstall removes when
# empty. A package build that leaves removal to its package manager sets
# INSTALLED_DIRS= (debian/rules).
INSTALL_DIRS = $(INCLUDEDIR)/onnxslim $(LIBDIR) $(BINDIR) $(PKGCONFIGDIR) $(CMAKEDIR) \
  $(MANDIR)/man1 $(BASHCOMPDIR) $(PYTHONDIR)/libonnxslim
INSTALLED_DIRS ?= $(PREFIX)/share/libonnxslim/installed-dirs

# libonnxslim.pc and the CMake package, for the paths of this install (both
# systems). The CMake package's shared target names the library file
# (CM_SHARED) and, on Windows, its import library (CM_IMPLIB); its static
# target the system libraries the static library needs (CM_STATIC_LIBS, a
# CMake list).
ifneq ($(EXE),)
CM_SHARED = $(BINDIR)/$(SOREAL)
CM_IMPLIB = $(call from_prefix,$(LIBDIR),_onnxslim_prefix)/libonnxslim.dll.a
CM_STATIC_LIBS = bcrypt
else
CM_SHARED = $(LIBDIR)/$(SOREAL)
CM_IMPLIB =
CM_STATIC_LIBS = nettle
endif
define install-pc-cmake
sed -e 's|@PREFIX@|$(if $(and $(filter-out /usr,$(PREFIX)),$(filter $(PREFIX)/%,$(PKGCONFIGDIR))),$${pcfiledir}/$(call relpath,$(PKGCONFIGDIR),$(PREFIX)),$(PREFIX))|g' \
    -e 's|@LIBDIR@|$(call from_prefix,$(LIBDIR),prefix)|g' \
    -e 's|@INCLUDEDIR@|$(call from_prefix,$(INCLUDEDIR),prefix)|g' -e 's|@VERSION@|$(VERSION)|g' \
    -e 's|@LIBS_PRIVATE@|$(LIB_LIBS)|g' \
    pkgconfig/libonnxslim.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libonnxslim.pc
for f in libonnxslimConfig libonnxslimConfigVersion; do \
  sed -e 's|@PREFIX_FROM_HERE@|$(call relpath,$(CMAKEDIR),$(PREFIX))|g' \
      -e 's|@LIBDIR@|$(call from_prefix,$(LIBDIR),_onnxslim_prefix)|g' \
      -e 's|@INCLUDEDIR@|$(call from_prefix,$(INCLUDEDIR),_onnxslim_prefix)|g' \
      -e 's|@SHARED@|$(call from_prefix,$(CM_SHARED),_onnxslim_prefix)|g' \
      -e 's|@IMPLIB@|$(CM_IMPLIB)|g' -e 's|@STATIC_LIBS@|$(CM_STATIC_LIBS)|g' \
      -e 's|@VERSION@|$(VERSION)|g' -e 's|@VMAJOR@|$(VMAJOR)|g' \
      cmake/$$f.cmake.in > $(DESTDIR)$(CMAKEDIR)/$$f.cmake || exit 1; \
done
endef

# Windows (a mingw-w64 CROSS): the DLL and the command in BINDIR (a DLL is
# found next to the program or on PATH), the import library, the static
# library and the .def in LIBDIR, the headers, libonnxslim.pc and the CMake
# package (its imported targets name the DLL and its import library; the
# static one adds bcrypt and winpthreads). No Python package, man page or
# completion: those are for the build machine's system.
ifneq ($(EXE),)
install: all
	install -d $(addprefix $(DESTDIR),$(INCLUDEDIR)/onnxslim $(LIBDIR) $(BINDIR) $(PKGCONFIGDIR) $(CMAKEDIR))
	install -m 644 include/onnxslim.h include/onnxslim.hpp $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(addprefix include/onnxslim/,$(PUBLIC_H)) $(DESTDIR)$(INCLUDEDIR)/onnxslim/
	install -m 755 $(B)/$(SOREAL) $(B)/libonnxslim$(EXE) $(DESTDIR)$(BINDIR)/
	install -m 644 $(B)/libonnxslim.dll.a $(B)/libonnxslim.a $(B)/libonnxslim.def $(DESTDIR)$(LIBDIR)/
	$(install-pc-cmake)
else
install: all
	$(need-pythondir)
	$(if $(INSTALLED_DIRS),sh scripts/install-dirs.sh create '$(INSTALLED_DIRS)' '$(DESTDIR)',install -d) \
	  $(addprefix $(if $(INSTALLED_DIRS),,$(DESTDIR)),$(INSTALL_DIRS))
	install -m 644 include/onnxslim.h include/onnxslim.hpp $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(addprefix include/onnxslim/,$(PUBLIC_H)) $(DESTDIR)$(INCLUDEDIR)/onnxslim/
	install -m 755 $(B)/$(SOREAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SOREAL) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libonnxslim.so
	install -m 644 $(B)/libonnxslim.a $(DESTDIR)$(LIBDIR)/
	$(install-pc-cmake)
	$(CC) $(APP_CFLAGS) -o $(DESTDIR)$(BINDIR)/libonnxslim $(TOOL_OBJ) -L$(B) -lonnxslim $(CLI_RPATH)
	install -m 644 man/libonnxslim.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 completion/libonnxslim.bash $(DESTDIR)$(BASHCOMPDIR)/libonnxslim
	install -m 644 $(addprefix python/libonnxslim/,$(PY_SRC)) $(DESTDIR)$(PYTHONDIR)/libonnxslim/
	@# _installed.py: where the library is, for a LIBDIR that is not on
	@# ldconfig's path; relative to the package (so a DESTDIR stage or a moved
	@# prefix works too) and absolute
	printf '"""Written by make install: the LIBDIR of libonnxslim (see _lib.py)."""\nLIBDIR = "%s"\nLIBDIR_FROM_PACKAGE = "%s"\n' \
	  '$(LIBDIR)' "$(call relpath,$(PYTHONDIR)/libonnxslim,$(LIBDIR))" \
	  > $(DESTDIR)$(PYTHONDIR)/libonnxslim/_installed.py
	$(if $(STRIP),strip --strip-unneeded $(DESTDIR)$(LIBDIR)/$(SOREAL) $(DESTDIR)$(BINDIR)/libonnxslim)
	$(if $(STRIP),strip --strip-debug $(DESTDIR)$(LIBDIR)/libonnxslim.a)
	@sh scripts/install-report.sh '$(DESTDIR)' '$(PREFIX)' '$(LIBDIR)' '$(INCLUDEDIR)' '$(BINDIR)' \
	  '$(PKGCONFIGDIR)' '$(CMAKEDIR)' '$(MANDIR)' '$(BASHCOMPDIR)' '$(PYTHONDIR)' '$(PYTHON)' '$(SOREAL)'

endif

install-strip:
	$(MAKE) install STRIP=1

# Every file install writes, by the same variables; then the directories that
# are the install's own (include/onnxslim, the CMake and Python package
# directories) when empty, and those install had to create (INSTALLED_DIRS)
# when empty. Shared directories that were there before (bin, lib,
# share/man/man1 of a prefix in use) are left.
uninstall:
	$(need-pythondir)
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/,onnxslim.h onnxslim.hpp $(addprefix onnxslim/,$(PUBLIC_H)))
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(SOREAL) $(SONAME) libonnxslim.so libonnxslim.a)
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/libonnxslim.pc
	rm -f $(DESTDIR)$(CMAKEDIR)/libonnxslimConfig.cmake $(DESTDIR)$(CMAKEDIR)/libonnxslimConfigVersion.cmake
	rm -f $(DESTDIR)$(BINDIR)/libonnxslim $(DESTDIR)$(MANDIR)/man1/libonnxslim.1 $(DESTDIR)$(BASHCOMPDIR)/libonnxslim
	rm -f $(addprefix $(DESTDIR)$(PYTHONDIR)/libonnxslim/,$(PY_SRC) _installed.py)
	rm -rf $(DESTDIR)$(PYTHONDIR)/libonnxslim/__pycache__
	-rmdir $(DESTDIR)$(INCLUDEDIR)/onnxslim $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(PYTHONDIR)/libonnxslim 2>/dev/null
	$(if $(INSTALLED_DIRS),sh scripts/install-dirs.sh remove '$(INSTALLED_DIRS)' '$(DESTDIR)')

# libonnxslim-VERSION.tar.gz: every tracked file, reproducible (scripts/dist.sh;
# SOURCE_DATE_EPOCH defaults to the last commit's time)
dist:
	sh scripts/dist.sh $(VERSION)

clean:
	rm -rf $(B) $(B)-posix

.PHONY: all need-deps tests deps demo check check-posix check-long check-windows check-msvc-syntax bench fuzz install install-strip uninstall dist clean abi-check abi-dump format-check format
