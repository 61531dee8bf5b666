# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim check and onnx.checker.check_model(full_check=True) agree on
# every libonnx-testdata model and on mutated copies of each (other input
# types, untyped outputs, dropped / retyped / unknown attributes, an input
# too many, renamed ops, lowered opsets), except the differences listed
# with their reasons in test/check_vs_onnx_known.txt. Prints the agreement
# table (test/check_vs_onnx.py; docs/check.md).
set -u
B=${B:-build}
PY=/usr/bin/python3
if ! "$PY" -c 'import onnx' 2>/dev/null; then
  echo "python3-onnx not available at $PY: skipping"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
tmp=$(mktemp -d)
"$PY" test/check_vs_onnx.py "$B/libonnxslim" /usr/share/libonnx-testdata/data \
  test/check_vs_onnx_known.txt "$tmp/models"
r=$?
rm -rf "$tmp"
exit $r
