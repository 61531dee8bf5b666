# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The fuzz harness (load, walk, save, edit, reload) replays the committed
# bad-input corpus and the valid fixtures under ASan+UBSan: no crash, no
# leak, no undefined behaviour; valid models must round-trip exactly.
set -u
sh test/fuzz/build.sh || exit 1
files=$(ls test/fuzz/corpus/*.onnx test/fuzz/regressions/*.onnx test/data/*.onnx test/data/odd/*.onnx)
files="$files $(find /usr/share/libonnx-testdata/data -name '*.onnx' | sort | awk 'NR % 8 == 0')"
n=0 failed=0
# libFuzzer runs each file given once; a crash, sanitizer report or leak
# makes it exit non-zero.
if ASAN_OPTIONS=detect_leaks=1 "$B/fuzz/fuzz_load" -runs=1 $files > "$B/fuzz/replay.log" 2>&1; then
  n=$(echo $files | wc -w)
else
  failed=1
  tail -n 40 "$B/fuzz/replay.log"
fi
grep -c "Running:" "$B/fuzz/replay.log"
echo "$n passed, $failed failed"
[ $failed -eq 0 ]
