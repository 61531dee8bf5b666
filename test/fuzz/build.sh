#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Builds the libFuzzer harnesses with the library's sources under ASan+UBSan:
#   build/fuzz/fuzz_load      arbitrary bytes as a model
#   build/fuzz/fuzz_external  a fixed model, its external data file fuzzed
#   build/fuzz/fuzz_passes    every pass on a model as loaded, options from
#                             the first bytes (test/fuzz/passes_core.h)
# The library is compiled once (objects in build/fuzz/obj, rebuilt when a
# source or header is newer) and linked into each. Needs clang and the
# generated build/proto/onnx.pb.h (run `make` first).
set -eu
B=${B:-build}
mkdir -p "$B/fuzz/obj" "$B/fuzz/corpus-work" "$B/fuzz/corpus-external-work" "$B/fuzz/corpus-passes-work"
# the archive of clang's own target first (an arm64 one may be installed too)
ma=$(clang -print-multiarch 2>/dev/null || true)
NANOPB_A=""
for a in ${ma:+"/usr/lib/$ma/libprotobuf-nanopb.a"} /usr/lib/*/libprotobuf-nanopb.a; do
  [ -e "$a" ] && { NANOPB_A=$a; break; }
done
[ -n "$NANOPB_A" ] || { sh scripts/install-deps.sh --check; exit 1; }
FLAGS="-std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# the platform layer's configuration, probed for clang (PLATFORM as the
# build's: make check PLATFORM=posix passes it on)
mkdir -p "$B/fuzz/config"
sh scripts/probe-platform.sh clang "${PLATFORM:-auto}" > "$B/fuzz/config/onnxslim_config.h.tmp"
cmp -s "$B/fuzz/config/onnxslim_config.h.tmp" "$B/fuzz/config/onnxslim_config.h" ||
  mv "$B/fuzz/config/onnxslim_config.h.tmp" "$B/fuzz/config/onnxslim_config.h"
rm -f "$B/fuzz/config/onnxslim_config.h.tmp"
INC="-Iinclude -I$B/proto -I$B/fuzz/config -Ilib -Itest"
# every lib/**/*.c; objects in the same folders under $B/fuzz/obj
# (platform_win32.c is the Windows build's: the fuzzers are built for this system)
srcs=$(find lib -name '*.c' ! -name 'platform_win32.c' | sort)
newest_h=$(ls -t $(find lib -name '*.h') include/onnxslim/*.h include/onnxslim.h "$B/proto/onnx.pb.h" "$B/fuzz/config/onnxslim_config.h" | head -n 1)
objs=$(for src in $srcs; do o=${src#lib/}; printf ' %s' "$B/fuzz/obj/${o%.c}.o"; done)
for src in $srcs; do
  o=${src#lib/}; o="$B/fuzz/obj/${o%.c}.o"
  mkdir -p "$(dirname "$o")"
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ "$newest_h" -nt "$o" ] || [ "$0" -nt "$o" ]; then
    echo "$src $o"
  fi
done | xargs -r -n 2 -P 2 sh -c "clang $FLAGS -fsanitize=fuzzer-no-link $INC -c \"\$0\" -o \"\$1\""
for h in fuzz_load fuzz_external fuzz_passes; do
  clang $FLAGS -fsanitize=fuzzer $INC "test/fuzz/$h.c" $objs "$NANOPB_A" -lnettle -o "$B/fuzz/$h"
done
