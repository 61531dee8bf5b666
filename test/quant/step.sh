# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The body of test steps 59-quant and 49-quant-clip, sourced by them after
# they set quant_check (the checker, a script in test/quant/) and quant_dir
# (its work directory under $B). It needs python3-onnx and python3-numpy at
# /usr/bin/python3, the CLI built and onnxruntime-node (test/ort-setup.sh);
# a missing one fails the step with a line saying which. Then the checker runs with the CLI, the work
# directory (emptied first) and test/quant/run_ort.js.
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
if ! command -v node >/dev/null 2>&1 || ! ort_setup; then
  echo "FAIL setup: node and onnxruntime-node are needed (test/ort-setup.sh)"
  echo "0 passed, 1 failed"
  exit 1
fi
rm -rf "${B:?}/$quant_dir"
exec "$PY" "test/quant/$quant_check" "$B/libonnxslim" "$B/$quant_dir" test/quant/run_ort.js
