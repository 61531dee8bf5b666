# Percentile clipping of the quantization (issue 12, --clip-percentile):
# test/quant/check_clip.py converts small tables and MatMul weights with
# `onnxslim convert ... --clip-percentile P` and checks the cap (the
# nearest-rank percentile of |x|, exact, and numpy's inverted_cdf), the
# stored bytes, scales and saturated counts against an independent numpy
# reference, the --json and --report counts, edge cases (P tiny, P near
# 100, zeros, ties, FLOAT16), the refusals, and in onnxruntime-node that
# the clipped rows equal q * scale bit for bit in both forms.
set -u
B=${B:-build}
PY=/usr/bin/python3
. test/ort-setup.sh
if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  echo "FAIL setup: python3-onnx and python3-numpy are needed at $PY"
  echo "0 passed, 1 failed"
  exit 1
fi
[ -x "$B/onnxslim" ] || make -s B="$B" all >/dev/null || { echo "FAIL setup: make all"; echo "0 passed, 1 failed"; exit 1; }
runner=test/quant/run_ort.js
if ! command -v node >/dev/null 2>&1 || ! ort_setup; then
  echo "FAIL setup: node and onnxruntime-node are needed (test/ort-setup.sh)"
  echo "0 passed, 1 failed"
  exit 1
fi
rm -rf "$B/quant-clip"
exec "$PY" test/quant/check_clip.py "$B/onnxslim" "$B/quant-clip" "$runner"
