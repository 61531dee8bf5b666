# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim check and onnx.checker.check_model(full_check=True) agree on
# test models and on mutated copies of each (other input types, untyped
# outputs, dropped / retyped / unknown attributes, an input too many,
# renamed ops, lowered opsets), except the differences listed with their
# reasons in test/check_vs_onnx_known.txt. Prints the agreement table
# (test/check_vs_onnx.py; docs/check.md). Two oracles:
#   - the onnx pinned in scripts/pypi-pins.txt (the newest, in the venv
#     $B/pypi-onnx of scripts/pypi-venv.sh): onnx's node test models
#     (written from the wheel's onnx.backend.test.case.node by
#     test/onnx_node_models.py: the wheel ships their generators, not the
#     generated directory) and the wheel's backend/test/data (light,
#     pytorch-converted, pytorch-operator, simple); then every model
#     `libonnxslim convert` writes at opset 21 gets the full schema check
#     (test/check_convert_opset21.py); without PyPI: a skip line naming
#     what is missing;
#   - Debian's python3-onnx (1.12) on libonnx-testdata, as before.
# onnx is handed ModelProtos, never the files under test (onnx 1.12's
# check_model(PATH, full_check=True) rewrites the file it checks).
set -u
. test/step-lib.sh
case $B in /*) Babs=$B ;; *) Babs=$PWD/$B ;; esac

echo "== onnx pinned in scripts/pypi-pins.txt"
venv="$Babs/pypi-onnx"
sh scripts/pypi-venv.sh "$venv" onnx 2> "$tmp/venv.err"; rc=$?
if [ $rc -eq 77 ]; then
  tail -n 1 "$tmp/venv.err"; skipped=$((skipped + 1))
elif [ $rc -ne 0 ]; then
  cat "$tmp/venv.err"; failed=$((failed + 1)); echo "FAIL scripts/pypi-venv.sh $venv onnx"
else
  PY="$venv/bin/python"
  wheel=$("$PY" -c 'import os, onnx.backend.test as t; print(os.path.join(os.path.dirname(t.__file__), "data"))')
  mkdir -p "$tmp/data"
  for d in light pytorch-converted pytorch-operator simple; do
    [ -d "$wheel/$d" ] && cp -r "$wheel/$d" "$tmp/data/"
  done
  if "$PY" test/onnx_node_models.py "$tmp/data" > "$tmp/gen.out" 2>&1; then
    cat "$tmp/gen.out"
  else
    cat "$tmp/gen.out"; failed=$((failed + 1)); echo "FAIL test/onnx_node_models.py"
  fi
  part "$PY" test/check_vs_onnx.py "$B/libonnxslim" "$tmp/data" test/check_vs_onnx_known.txt "$tmp/models"
  rm -rf "$tmp/data" "$tmp/models"
  echo "== every model libonnxslim convert writes at opset 21: the full schema check"
  part "$PY" test/check_convert_opset21.py "$B/libonnxslim" "$tmp/c21"
fi

echo "== Debian's python3-onnx on libonnx-testdata"
if ! /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
  echo "skip: python3-onnx not available at /usr/bin/python3 (make deps)"; skipped=$((skipped + 1))
elif [ ! -d /usr/share/libonnx-testdata/data ]; then
  echo "skip: /usr/share/libonnx-testdata/data missing (Debian package libonnx-testdata: make deps)"; skipped=$((skipped + 1))
else
  part /usr/bin/python3 test/check_vs_onnx.py "$B/libonnxslim" /usr/share/libonnx-testdata/data \
    test/check_vs_onnx_known.txt "$tmp/models12"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
