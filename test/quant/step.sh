# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The body of test steps 59-quant and 49-quant-clip, sourced by them after
# they set quant_check (the checker, a script in test/quant/) and quant_dir
# (its work directory under $B). It needs python3-onnx and python3-numpy at
# /usr/bin/python3, the CLI built and onnxruntime-node (test/ort-setup.sh);
# a missing one fails the step with a line saying which. Then the checker runs with the CLI, the work
# directory (emptied first) and test/quant/run_ort.js, and again with its
# Python twin test/quant/run_ort.py in onnxruntime's Python wheel
# (test/ort-setup.sh; a skip when PyPI cannot be reached).
set -u
: "${quant_check:?set by the step}" "${quant_dir:?set by the step}"
B=${B:-build}
PY=/usr/bin/python3
. test/ort-setup.sh
if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  echo "FAIL setup: python3-onnx and python3-numpy are needed at $PY"
  echo "0 passed, 1 failed"
  exit 1
fi
[ -x "$B/libonnxslim" ] || make -s B="$B" all >/dev/null || { echo "FAIL setup: make all"; echo "0 passed, 1 failed"; exit 1; }
if ! command -v node >/dev/null 2>&1 || ! ort_runtimes_setup || ! ort_have node; then
  echo "FAIL setup: node and onnxruntime-node are needed (test/ort-setup.sh)"
  echo "0 passed, 1 failed"
  exit 1
fi
ort_say_runtimes
rm -rf "${B:?}/$quant_dir"
# the whole checker once per runtime of $ORT_RUNTIMES (its conversions and
# reference checks do not depend on the runtime and are repeated: the
# checker is written for one runner), its lines labelled with the runtime;
# each runtime's rows are checked against the numpy reference, never
# against the other runtime's
passed=0 failed=0 skipped=0
for rt in $ORT_RUNTIMES; do
  L=$(ort_label "$rt")
  if ! ort_have "$rt"; then
    skipped=$((skipped + 1))
    echo "skip $L $quant_check: $(ort_skip_reason "$rt")"
    continue
  fi
  runner=test/quant/run_ort.js
  [ "$rt" = python ] && runner=test/quant/run_ort.py
  out="$B/$quant_dir.$rt.txt"
  "$PY" "test/quant/$quant_check" "$B/libonnxslim" "$B/$quant_dir/$rt" "$runner" >"$out" 2>&1
  rc=$?
  grep -vE '^[0-9]+ passed, [0-9]+ failed' "$out" | sed "s/^\(ok  \|FAIL\|skip\) /\1 $L /"
  p=$(grep -c '^ok   ' "$out") f=$(grep -c '^FAIL ' "$out")
  passed=$((passed + p)) failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
    failed=$((failed + 1))
    echo "FAIL $L $quant_check exited with $rc"
  fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
