# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# No per-chunk system calls: mapped pages are handed back (madvise) only in
# runs of several MiB, so commands on a model of many small tensors make
# (almost) no madvise calls, where they used to make one per string, tensor
# or chunk (133003 for `fingerprint` of a 2.2 MB model of 19000 tensors).
# That large models still stream in flat memory is checked by step 57.
# Counts calls with strace (a package of `make deps`).
set -u
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit $?; }
cli="$B/libonnxslim"
if ! command -v strace > /dev/null 2>&1 || ! strace -qq -e trace=none true > /dev/null 2>&1; then
  echo "strace is missing or cannot trace here (make deps installs it): skipped"
  skipped=1
  finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -Iinclude bench/make_chain.c -L"$B" -lonnxslim -Wl,-rpath,"$(cd "$B" && pwd)" \
  -o "$tmp/make_chain" || { bad "build bench/make_chain.c"; finish; }
chain="$tmp/chain.onnx"
"$tmp/make_chain" 20000 "$chain" > /dev/null || { bad "make_chain"; finish; }
MAX=16

# madvise calls made by a command (its output discarded), or "failed"
calls() {
  if strace -f -qq -e trace=madvise -o "$tmp/trace" "$@" > /dev/null 2> "$tmp/err"; then
    grep -c 'madvise(' "$tmp/trace"
  else
    echo failed
    sed 's/^/    /' "$tmp/err"
  fi
}
check() { # LABEL CMD...
  label=$1
  shift
  n=$(calls "$@")
  case $n in
    failed*) bad "$label: the command failed: $n" ;;
    *) if [ "$n" -lt "$MAX" ]; then ok "$label: $n madvise calls (< $MAX)"
       else bad "$label: $n madvise calls (want < $MAX)"; fi ;;
  esac
}
size=$(stat -c %s "$chain")
check "fingerprint of a $size-byte model of 20000 tensors" "$cli" fingerprint "$chain"
check "fingerprint of test/data/bert-tiny.onnx" "$cli" fingerprint test/data/bert-tiny.onnx
check "convert --to fp16 --report (statistics pass, 20000 tensors)" \
  "$cli" convert "$chain" "$tmp/fp16.onnx" --to fp16 --report
check "convert --to bf16 --external-data --threshold 0 (20000 tensors)" \
  "$cli" convert "$chain" "$tmp/ext.onnx" --to bf16 --external-data --threshold 0
check "fingerprint of the external-data output" "$cli" fingerprint "$tmp/ext.onnx"
check "check (20000 nodes)" "$cli" check "$chain"
finish
