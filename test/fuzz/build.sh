#!/bin/sh
# Builds the libFuzzer harnesses with the library's sources under ASan+UBSan:
#   build/fuzz/fuzz_load      arbitrary bytes as a model
#   build/fuzz/fuzz_external  a fixed model, its external data file fuzzed
# The library is compiled once (objects in build/fuzz/obj, rebuilt when a
# source or header is newer) and linked into each. Needs clang and the
# generated build/proto/onnx.pb.h (run `make` first).
set -eu
B=${B:-build}
mkdir -p "$B/fuzz/obj" "$B/fuzz/corpus-work" "$B/fuzz/corpus-external-work"
NANOPB_A=$(ls /usr/lib/*/libprotobuf-nanopb.a 2>/dev/null | head -n 1)
[ -n "$NANOPB_A" ] || { sh scripts/install-deps.sh --check; exit 1; }
FLAGS="-std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
INC="-Iinclude -I$B/proto -Ilib -Itest"
newest_h=$(ls -t lib/*.h include/onnxslim/*.h include/onnxslim.h "$B/proto/onnx.pb.h" | head -n 1)
# one object per source, lib/passes/x.c as passes_x.o
obj_of() { printf '%s/fuzz/obj/%s.o' "$B" "$(echo "${1#lib/}" | sed 's|/|_|g; s|\.c$||')"; }
objs=$(for src in lib/*.c lib/passes/*.c; do printf ' %s' "$(obj_of "$src")"; done)
for src in lib/*.c lib/passes/*.c; do
  o=$(obj_of "$src")
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ "$newest_h" -nt "$o" ] || [ "$0" -nt "$o" ]; then
    echo "$src $o"
  fi
done | xargs -r -n 2 -P 2 sh -c "clang $FLAGS -fsanitize=fuzzer-no-link $INC -c \"\$0\" -o \"\$1\""
for h in fuzz_load fuzz_external; do
  clang $FLAGS -fsanitize=fuzzer $INC "test/fuzz/$h.c" $objs "$NANOPB_A" -lnettle -o "$B/fuzz/$h"
done
