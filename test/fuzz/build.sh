#!/bin/sh
# Builds the libFuzzer harness with the library's sources under ASan+UBSan:
# build/fuzz/fuzz_load. Needs clang and the generated build/proto/onnx.pb.h
# (run `make` first).
set -eu
B=${B:-build}
mkdir -p "$B/fuzz" "$B/fuzz/corpus-work"
NANOPB_A=$(ls /usr/lib/*/libprotobuf-nanopb.a 2>/dev/null | head -n 1)
[ -n "$NANOPB_A" ] || { sh scripts/install-deps.sh --check; exit 1; }
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer -Iinclude -I"$B/proto" -Ilib \
  test/fuzz/fuzz_load.c lib/*.c "$NANOPB_A" -lnettle -o "$B/fuzz/fuzz_load"
