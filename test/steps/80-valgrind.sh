# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The load/save tests under valgrind: no leak, no invalid read or write.
set -u
passed=0 failed=0
vg() {
  name=$1; shift
  if valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
       --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@" > "$B/vg.log" 2>&1; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; tail -n 40 "$B/vg.log"
  fi
}
# vg_exit NAME STATUS CMD...: as vg, for a command that exits with STATUS
vg_exit() {
  name=$1 want=$2; shift 2
  valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@" > "$B/vg.log" 2>&1
  rc=$?
  if [ $rc -eq "$want" ]; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name (exit $rc)"; tail -n 40 "$B/vg.log"
  fi
}
sh test/build-prog.sh roundtrip_corpus && sh test/build-prog.sh bad_inputs || exit 1
tmp=$(mktemp -d)
mkdir -p "$tmp/corpus"
# a slice of the corpus: every 10th model plus the fixtures
find /usr/share/libonnx-testdata/data -name '*.onnx' | sort | awk 'NR % 10 == 0' | while read -r f; do
  cp "$f" "$tmp/corpus/$(echo "$f" | tr '/' '_')"
done
vg "unit tests (test_core)" "$B/test/test_core"
vg "round trip of $(ls "$tmp/corpus" | wc -l) testdata models + fixtures" "$B/roundtrip_corpus" "$tmp" "$tmp/corpus" test/data
vg "bad-input corpus" "$B/bad_inputs" test/fuzz/corpus/*.onnx
vg "libonnxslim info" "$B/libonnxslim" info test/data/bert-tiny.onnx
vg "libonnxslim convert" "$B/libonnxslim" convert test/data/bert-tiny.onnx "$tmp/out.onnx"
vg "unit tests (test_check)" "$B/test/test_check"
# valgrind emulates no AVX-512 (and says so through CPUID): the kernels'
# dispatch must pick a path it runs, and every path it has must still give
# the scalar reference's bytes
vg "unit tests (test_convert_paths: the SIMD kernel paths valgrind runs)" "$B/test/test_convert_paths"
for t in graph node model insert cleanup memlimit; do
  vg "unit tests (test_$t)" "$B/test/test_$t"
done
vg "the recipe: libonnxslim convert --gather-to bf16 --external-data --also-single-file" \
  "$B/libonnxslim" convert test/data/bert-tiny.onnx "$tmp/r.onnx" --gather-to bf16 --external-data \
  --threshold 0 --location r.onnx.bin --also-single-file "$tmp/r_single.onnx"
vg "libonnxslim split" "$B/libonnxslim" split test/data/bert-tiny.onnx "$tmp/s.onnx"
vg "libonnxslim merge (loads external data)" "$B/libonnxslim" merge "$tmp/s.onnx" "$tmp/m.onnx"
vg "libonnxslim info --json" "$B/libonnxslim" info --json test/data/bert-tiny.onnx
vg "libonnxslim diff (equal: single file vs external data)" "$B/libonnxslim" diff test/data/bert-tiny.onnx "$tmp/s.onnx"
vg_exit "libonnxslim diff --json (the recipe's output: every tensor compared)" 1 \
  "$B/libonnxslim" diff --json --storage test/data/bert-tiny.onnx "$tmp/r.onnx"
vg_exit "libonnxslim diff (a Loop body changed)" 1 "$B/libonnxslim" diff \
  /usr/share/libonnx-testdata/data/node/test_loop11/model.onnx \
  /usr/share/libonnx-testdata/data/node/test_loop13_seq/model.onnx
rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
