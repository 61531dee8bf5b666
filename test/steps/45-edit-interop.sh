# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Edits must keep models valid and their numerics unchanged. test/edit_interop.c
# applies three edits with the public API to libonnx-testdata models:
#   cast     a same-type Cast after every typed graph input (insert_cast_after)
#   rename   every node output renamed, subgraphs included (rename_value)
#   shuffle  every graph's nodes reversed, then toposort (recursive)
# Each result must pass python onnx's checker (when the original does) and
# give bitwise the same outputs as the original in onnxruntime-node on the
# test's own inputs (test/ort_compare.js). One test per model x edit; a pair
# is skipped when the edit does not apply or onnxruntime cannot run the
# original, whose outputs must not change from run to run (a model with a
# random op is skipped before it runs; two runs that differ skip too). Models:
# every $EDIT_INTEROP_STRIDE-th (default 1: all; the whole run takes seconds) of
# node/, pytorch-*/ and simple/, plus every model with an If, Loop or Scan.
set -u
B=${B:-build}
PY=/usr/bin/python3
DATA=/usr/share/libonnx-testdata/data
STRIDE=${EDIT_INTEROP_STRIDE:-1}
work="$B/edit-interop"

if [ ! -d "$DATA" ]; then
  echo "$DATA missing (install libonnx-testdata): skipping"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
if ! "$PY" -c 'import onnx' 2>/dev/null; then
  echo "python3-onnx not available at $PY"
  echo "0 passed, 1 failed"
  exit 1
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are needed (Debian package nodejs)"
  echo "0 passed, 1 failed"
  exit 1
fi

. test/ort-setup.sh
if ! ort_setup; then
  echo "npm install onnxruntime-node@$ORT_VERSION failed"
  echo "0 passed, 1 failed"
  exit 1
fi

[ -f "$B/libonnxslim.so" ] || make -s all >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$B"
sh test/build-prog.sh edit_interop || {
  echo "cannot build $B/edit_interop"
  echo "0 passed, 1 failed"
  exit 1
}

rm -rf "$work"
mkdir -p "$work/out"

# ---- choose the models -------------------------------------------------------
list="$work/models.txt"   # line k: MODEL OUT_PREFIX
: >"$list"
i=0 k=0
for d in $(ls -d "$DATA"/node/*/ "$DATA"/pytorch-*/*/ "$DATA"/simple/*/ 2>/dev/null | LC_ALL=C sort); do
  d=${d%/}
  [ -f "$d/model.onnx" ] && [ -f "$d/test_data_set_0/input_0.pb" ] || continue
  i=$((i + 1))
  if [ $((i % STRIDE)) -eq 0 ] ||
     LC_ALL=C grep -qaP '\x22\x02If|\x22\x04Loop|\x22\x04Scan' "$d/model.onnx"; then
    k=$((k + 1))
    echo "$d/model.onnx $work/out/$k" >>"$list"
  fi
done
echo "$k of $i models chosen"

# ---- edit ----------------------------------------------------------------------
"$B/edit_interop" -l "$list" >"$work/edits.txt" 2>"$work/edits.err"
echo "edit_interop exited with $?"

# ---- python onnx checker on the originals and every edited model ------------------
awk '{print $1}' "$list" >"$work/check-list.txt"
ls "$work"/out/*.onnx >>"$work/check-list.txt" 2>/dev/null
"$PY" - "$work/check-list.txt" >"$work/checker.txt" 2>"$work/checker.err" <<'EOF'
import sys, onnx
for path in open(sys.argv[1]).read().split():
    try:
        onnx.checker.check_model(onnx.load(path))
        print(path, "ok")
    except Exception as e:
        msg = " ".join(str(e).split())[:300]
        print(path, "fail", type(e).__name__ + ": " + msg)
EOF

# ---- onnxruntime: original vs edited ------------------------------------------------
ort_list="$work/ort-list.txt"
: >"$ort_list"
k=0
while read -r model prefix; do
  k=$((k + 1))
  line="$k $model $(dirname "$model")/test_data_set_0"
  any=0
  for e in cast rename shuffle; do
    if [ -f "$prefix.$e.onnx" ]; then line="$line $e=$prefix.$e.onnx"; any=1; fi
  done
  [ $any -eq 1 ] && echo "$line" >>"$ort_list"
done <"$list"
timeout 900 node test/ort_compare.js "$ort_list" >"$work/ort.txt" 2>"$work/ort.err"
echo "ort_compare.js exited with $?"
tail -n 5 "$work/ort.err"

# ---- verdicts ----------------------------------------------------------------------
awk -v work="$work" '
  FILENAME ~ /models.txt$/ { model[FNR] = $1; prefix[FNR] = $2; n = FNR; next }
  FILENAME ~ /edits.txt$/ {
    st = $3; $1 = $1; why = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", why)
    edit_st[$1 " " $2] = st; edit_why[$1 " " $2] = why; next
  }
  FILENAME ~ /checker.txt$/ {
    p = $1; st = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); chk[p] = st; chk_why[p] = $0; next
  }
  FILENAME ~ /ort.txt$/ && $1 == "RESULT" {
    key = $2 " " $3; ort_st[key] = $4
    why = $0; sub(/^RESULT [^ ]+ [^ ]+ [^ ]+ ?/, "", why); ort_why[key] = why; next
  }
  END {
    pass = fail = skip = 0
    split("cast rename shuffle", edits, " ")
    for (k = 1; k <= n; k++) for (j = 1; j <= 3; j++) {
      e = edits[j]; key = k " " e; out = prefix[k] "." e ".onnx"
      name = model[k]; sub(/\/model\.onnx$/, "", name); sub(/.*\/data\//, "", name)
      if (!(key in edit_st)) { v = "fail"; why = "edit_interop printed nothing" }
      else if (edit_st[key] == "skip") { v = "skip"; why = "edit n/a: " edit_why[key] }
      else if (edit_st[key] != "ok") { v = "fail"; why = "edit: " edit_why[key] }
      else if (chk[out] != "ok" && chk[model[k]] == "ok") { v = "fail"; why = "checker: " chk_why[out] }
      else if (!(key in ort_st)) { v = "fail"; why = "no onnxruntime result" }
      else if (ort_st[key] == "skip") { v = "skip"; why = ort_why[key] }
      else { v = ort_st[key]; why = ort_why[key] }
      if (v == "pass" && chk[model[k]] != "ok") why = why " (original fails the checker too: " chk_why[model[k]] ")"
      printf "%-4s %-8s %s: %s\n", toupper(v), e, name, why > (work "/verdicts.txt")
      if (v == "pass") pass++; else if (v == "fail") fail++; else skip++
    }
    close(work "/verdicts.txt")
    printf "%d passed, %d failed, %d skipped\n", pass, fail, skip > (work "/summary.txt")
  }
' "$list" "$work/edits.txt" "$work/checker.txt" "$work/ort.txt"

grep '^FAIL' "$work/verdicts.txt" | head -n 40
echo "skipped pairs by reason:"
grep '^SKIP' "$work/verdicts.txt" | sed -E 's/^SKIP +[a-z]+ +[^:]+: //; s/[0-9]+/N/g' | cut -c1-110 |
  LC_ALL=C sort | uniq -c | LC_ALL=C sort -rn | head -n 12
echo "(every pair: $work/verdicts.txt)"
summary=$(cat "$work/summary.txt" 2>/dev/null)
[ -n "$summary" ] || summary="0 passed, 1 failed"
echo "$summary"
case "$summary" in *" 0 failed"*) exit 0 ;; *) exit 1 ;; esac
