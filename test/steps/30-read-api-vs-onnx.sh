# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Cross-check of the read API against python onnx: test/dump_model.c (public
# libonnxslim API) and test/dump_model.py (Debian's python3-onnx) must print
# the same canonical dump for every model of libonnx-testdata, for the
# BERT-shaped model of test/gen/make_bert.py, for the corner-case models of
# test/gen/make_read_api_models.py and for test/data/odd/*.onnx.
# One test per model.
set -u
B=${B:-build}
PY=/usr/bin/python3
DATA=/usr/share/libonnx-testdata/data
MAX_DIFFS=${MAX_DIFFS:-5}
work="$B/read-api-vs-onnx"

if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  echo "python3-onnx not available at $PY: skipping"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi

rm -rf "$work"
mkdir -p "$work/c" "$work/py"
sh test/build-prog.sh dump_model || {
  echo "cannot build $B/dump_model"
  echo "0 passed, 1 failed"
  exit 1
}

list="$work/models.txt"
: >"$list"
if [ -d "$DATA" ]; then
  find "$DATA" -name '*.onnx' -type f | LC_ALL=C sort >>"$list"
else
  echo "note: $DATA missing (install libonnx-testdata)"
fi
if "$PY" test/gen/make_bert.py "$B/bert-small.onnx" >"$work/make_bert.log" 2>&1; then
  echo "$B/bert-small.onnx" >>"$list"
else
  echo "make_bert.py failed:"
  cat "$work/make_bert.log"
  bert_failed=1
fi
if "$PY" test/gen/make_read_api_models.py "$work/gen" >"$work/make_read_api_models.log" 2>&1; then
  find "$work/gen" -name '*.onnx' -type f | LC_ALL=C sort >>"$list"
else
  echo "make_read_api_models.py failed:"
  cat "$work/make_read_api_models.log"
  gen_failed=1
fi
find test/data/odd -name '*.onnx' -type f 2>/dev/null | LC_ALL=C sort >>"$list"
n=$(wc -l <"$list")
echo "comparing $n models"

"$B/dump_model" -o "$work/c" -l "$list" || echo "dump_model exited with $?"
"$PY" test/dump_model.py -o "$work/py" -l "$list" || echo "dump_model.py exited with $?"

passed=0 failed=$(( ${bert_failed:-0} + ${gen_failed:-0} )) k=0
while IFS= read -r model; do
  if [ -s "$work/py/$k.txt" ] && cmp -s "$work/c/$k.txt" "$work/py/$k.txt"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "MISMATCH: $model (c: $work/c/$k.txt, python: $work/py/$k.txt)"
    if [ "$failed" -le "$MAX_DIFFS" ]; then
      diff -u "$work/py/$k.txt" "$work/c/$k.txt" | head -n 40
    fi
  fi
  k=$((k + 1))
done <"$list"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
