# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The Python module python/libonnxslim (ctypes over the shared library):
# python/tests/test_*.py with unittest, through python/tests/run.py, which
# prints the summary line. Constants checked against the headers, the read
# API against python3-onnx (test/data/bert-tiny.onnx, libonnx-testdata),
# life cycle, errors, check, fingerprint (against the CLI) and save; the edit
# API (python3-onnx reads the results back), convert and save against the CLI,
# examples/recipe.py, and edited models run in onnxruntime-node (set up here
# through test/ort-setup.sh; with node installed its tests must run, not skip);
# the library search (test_lib), handles (test_handles), the python blocks of
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
require_ort=0
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  require_ort=1
  . test/ort-setup.sh
  # a failed setup leaves ORT_NODE_MODULES unset: test_ort then fails (required)
  ort_setup >/dev/null || echo "ort_setup failed: npm install onnxruntime-node@$ORT_VERSION"
fi
PYTHONPATH=python LIBONNXSLIM_LIBRARY="$lib" LIBONNXSLIM_CLI="$(cd "$B" && pwd)/libonnxslim" \
  LIBONNXSLIM_REQUIRE_ORT=$require_ort "$PY" python/tests/run.py
