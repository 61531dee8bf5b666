# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# onnxslim_infer_shapes() against onnx.shape_inference.infer_shapes(
# strict_mode=True, data_prop=True) of the onnx pinned in
# scripts/pypi-pins.txt (the venv $B/pypi-onnx of scripts/pypi-venv.sh), on
# onnx's node test models (test/onnx_node_models.py), bert-tiny and the
# model-local function models of test/gen/make_local_functions.py, with
# their value_info removed and output types cleared: the table agree / we
# infer more / onnx infers more / disagree and the coverage
# (test/check_infer_vs_onnx.py, docs/infer.md). A disagreement fails
# unless test/infer_vs_onnx_known.txt lists it with its reason. Then every
# shape we infer against the one onnxruntime produces
# (test/check_infer_vs_ort.py, venv $B/pypi-onnx-ort). Without PyPI: a skip
# line.
set -u
. test/step-lib.sh
case $B in /*) Babs=$B ;; *) Babs=$PWD/$B ;; esac
venv="$Babs/pypi-onnx"
sh scripts/pypi-venv.sh "$venv" onnx 2> "$tmp/venv.err"; rc=$?
if [ $rc -eq 77 ]; then
  tail -n 1 "$tmp/venv.err"; skipped=$((skipped + 1))
elif [ $rc -ne 0 ]; then
  cat "$tmp/venv.err"; failed=$((failed + 1)); echo "FAIL scripts/pypi-venv.sh $venv onnx"
else
  PY="$venv/bin/python"
  if "$PY" test/onnx_node_models.py "$tmp/data" > "$tmp/gen.out" 2>&1 &&
    "$PY" test/gen/make_local_functions.py "$tmp/functions" >> "$tmp/gen.out" 2>&1; then
    cat "$tmp/gen.out"
    part "$PY" test/check_infer_vs_onnx.py "$B/libonnxslim.so" test/infer_vs_onnx_known.txt \
      "$tmp/data" test/data/bert-tiny.onnx "$tmp/functions"
  else
    cat "$tmp/gen.out"; failed=$((failed + 1)); echo "FAIL test/onnx_node_models.py"
  fi
fi

# the shapes onnxruntime produces (test/check_infer_vs_ort.py): every value
# we type made a graph output, two runs with other sizes for the symbols
echo "== against onnxruntime"
ovenv="$Babs/pypi-onnx-ort"
sh scripts/pypi-venv.sh "$ovenv" onnx onnxruntime numpy 2> "$tmp/venv2.err"; rc=$?
if [ $rc -eq 77 ]; then
  tail -n 1 "$tmp/venv2.err"; skipped=$((skipped + 1))
elif [ $rc -ne 0 ]; then
  cat "$tmp/venv2.err"; failed=$((failed + 1)); echo "FAIL scripts/pypi-venv.sh $ovenv"
elif [ ! -d "$tmp/data" ]; then
  echo "skip: no node test models (onnx venv missing)"; skipped=$((skipped + 1))
else
  part "$ovenv/bin/python" test/check_infer_vs_ort.py "$B/libonnxslim.so" "$tmp/data" \
    test/data/bert-tiny.onnx "$tmp/functions"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
