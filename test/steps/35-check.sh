# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Validation (onnxslim_check): every libonnx-testdata model and our
# valid fixtures have zero problems; the fixture with a raw_data size
# mismatch reports a tensor size problem; and every testdata model broken in
# a known way by test/gen/make_check_mutants.py (python3-onnx) reports the
# expected problem kind with a location. One problem kind per broken model is
# also unit-tested, with exact locations and messages, by test/test_check.c
# (step 10-unit).
set -u
B=${B:-build}
PY=/usr/bin/python3
DATA=/usr/share/libonnx-testdata/data
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

sh test/build-prog.sh check_corpus || { echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)

# (a) the whole corpus is valid
# (models onnx's checker rejects as well are listed in test/data/check-known-invalid.txt)
"$B/check_corpus" --known test/data/check-known-invalid.txt "$DATA" > "$tmp/corpus.txt"; r=$?
grep '^FAIL' "$tmp/corpus.txt" | head -n 20
summary=$(grep '^check:' "$tmp/corpus.txt")
echo "$summary"
n=$(echo "$summary" | sed -n 's/^check: \([0-9]*\) models checked.*/\1/p')
if [ $r -eq 0 ] && [ "${n:-0}" -gt 1000 ]; then
  ok "libonnx-testdata: $summary"
else
  bad "libonnx-testdata: $summary (exit $r)"
fi

# our own fixtures: bert-tiny is valid, the raw_data mismatch is found
mkdir -p "$tmp/valid"
cp test/data/bert-tiny.onnx "$tmp/valid/"
"$B/check_corpus" "$tmp/valid" > "$tmp/valid.txt" && ok "test/data/bert-tiny.onnx is valid" ||
  { cat "$tmp/valid.txt"; bad "test/data/bert-tiny.onnx"; }
mkdir -p "$tmp/odd"
cp test/data/odd/absurd_dims_raw_mismatch.onnx "$tmp/odd/"
"$B/check_corpus" --expect 4 "$tmp/odd" > "$tmp/odd.txt" && ok "absurd_dims_raw_mismatch.onnx: tensor size problem" ||
  { cat "$tmp/odd.txt"; bad "absurd_dims_raw_mismatch.onnx"; }

# (b) broken copies of the corpus, one directory per expected problem code
if "$PY" -c 'import onnx' 2>/dev/null; then
  if "$PY" test/gen/make_check_mutants.py "$DATA" "$tmp/mutants" > "$tmp/gen.txt"; then
    for d in "$tmp"/mutants/*; do
      kind=$(basename "$d")
      code=${kind%%-*}
      "$B/check_corpus" --expect "$code" "$d" > "$tmp/m.txt"; r=$?
      line=$(grep '^check:' "$tmp/m.txt")
      cnt=$(echo "$line" | sed -n 's/^check: \([0-9]*\) models checked.*/\1/p')
      if [ $r -eq 0 ] && [ "${cnt:-0}" -gt 0 ]; then
        ok "mutants $kind: $line"
      else
        grep '^FAIL' "$tmp/m.txt" | head -n 10
        bad "mutants $kind: $line (exit $r)"
      fi
    done
  else
    cat "$tmp/gen.txt"
    bad "make_check_mutants.py"
  fi
else
  echo "python3-onnx not available at $PY: skipping the broken-corpus checks"
  skipped=$((skipped + 1))
fi

rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
