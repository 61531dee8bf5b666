# The Python module python/onnxslim (ctypes over the shared library):
# python/tests/test_*.py with unittest, through python/tests/run.py, which
# prints the summary line. Constants checked against the headers, the read
# API against python3-onnx (test/data/bert-tiny.onnx, libonnx-testdata),
# life cycle, errors, check, fingerprint (against the CLI) and save, the
# library search (test_lib), handles (test_handles), the python blocks of
# docs/python.md and the README (test_docs).
set -u
B=${B:-build}
PY=/usr/bin/python3
lib="$(cd "$B" && pwd)/libonnxslim.so.0"
if [ ! -f "$lib" ]; then
  echo "FAIL $lib not built"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
PYTHONPATH=python ONNXSLIM_LIBRARY="$lib" ONNXSLIM_CLI="$(cd "$B" && pwd)/onnxslim" \
  "$PY" python/tests/run.py
