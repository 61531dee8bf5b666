# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# dtype conversion end to end: a BERT / XLM-R shaped model (test/gen/make_bert.py,
# fixed seed) converted with the library by test/convert/convert_model.c in four
# ways, each checked three ways:
#   gather-bf16        the published recipe: Gather tables to BF16 (nearest even),
#                      Cast(to=FLOAT) after each Gather
#   gather-bf16-trunc  the same with truncation (the recipe's own rounding)
#   all-fp16           every floating tensor to FP16, a Cast to FLOAT before its consumers
#   all-bf16           the same to BF16
# 1. test/convert/check_models.py (python onnx + numpy, not the library):
#    onnx.checker full_check; converted tensors bit-identical to numpy's
#    conversion, all others unchanged; the graph edits (Casts and names) as
#    the policy says; the library's report consistent with the tensors.
# 2. test/convert/compare_ort.js in each onnxruntime of test/ort-setup.sh
#    (onnxruntime-node 1.30.0, and its twin compare_ort.py in the Python
#    wheel, onnxruntime 1.32.0; a runtime that cannot be set up counts a
#    skip, each compares with the original run in itself): original and
#    converted models on 10 inputs (batch 2-4, seq 16-64, random token ids,
#    padded rows): the gathered embedding rows equal the rounding of the
#    original rows bit for bit; the embedding sum within u(|w|+|p|);
#    max |logit diff| <= 2 u L (cast after Gather) or 8 u L (every tensor),
#    u = 2^-8 BF16 (2^-7 truncated), 2^-11 FP16, L = max |logit| (the
#    derivation is in compare_ort.js); converted logits differ from the
#    original's; truncation's embedding error larger than nearest's.
# onnxruntime-node is installed into $B/node when missing (as 45-edit-interop.sh).
set -u
B=${B:-build}
PY=/usr/bin/python3
work="$B/convert-ort"
VOCAB=3000 HIDDEN=128 LAYERS=3 HEADS=4 FFN=512 CLASSES=2 SEQ=64 SEED=7
MODES="gather-bf16 gather-bf16-trunc all-fp16 all-bf16"

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $*"; }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit $?; }

if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  fail "setup: python3-onnx and python3-numpy are needed at $PY"
  finish
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  fail "setup: node and npm are needed (Debian package nodejs)"
  finish
fi

. test/ort-setup.sh
if ! ort_runtimes_setup || ! ort_have node; then
  fail "setup: npm install onnxruntime-node@$ORT_VERSION"
  finish
fi
ort_say_runtimes

[ -f "$B/libonnxslim.so" ] || make -s B="$B" all >/dev/null || { fail "setup: make all"; finish; }
rm -rf "$work"
mkdir -p "$work"
if ! cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude test/convert/convert_model.c -L"$B" -lonnxslim \
     -Wl,-rpath,"$PWD/$B" -o "$work/convert_model"; then
  fail "setup: cannot build $work/convert_model"
  finish
fi

# ---- the model -------------------------------------------------------------------
if ! "$PY" test/gen/make_bert.py "$work/bert.onnx" --vocab $VOCAB --hidden $HIDDEN --layers $LAYERS \
     --heads $HEADS --ffn $FFN --classes $CLASSES --seq $SEQ --seed $SEED; then
  fail "setup: make_bert.py"
  finish
fi

# ---- convert ---------------------------------------------------------------------
specs="" ort_specs=""
for mode in $MODES; do
  if "$work/convert_model" "$work/bert.onnx" "$work/$mode.onnx" "$mode" >"$work/$mode.report" 2>"$work/$mode.err"; then
    pass "$mode convert: $(grep '^TOTAL' "$work/$mode.report" | awk '{printf "%d tensors, %d -> %d bytes", $2, $3, $4}'), model $(wc -c <"$work/bert.onnx") -> $(wc -c <"$work/$mode.onnx") bytes"
    specs="$specs $mode=$work/$mode.onnx:$work/$mode.report"
    ort_specs="$ort_specs $mode=$work/$mode.onnx,$work/$mode.probe.onnx"
  else
    fail "$mode convert: $(head -c 300 "$work/$mode.err")"
  fi
done
[ -n "$specs" ] || finish

# ---- python onnx: checker, tensors, graph, report ------------------------------------
# shellcheck disable=SC2086
"$PY" test/convert/check_models.py "$work/bert.onnx" $specs >"$work/check.txt" 2>"$work/check.err"
rc=$?
grep -E '^(PASS|FAIL) ' "$work/check.txt"
p=$(grep -c '^PASS ' "$work/check.txt") f=$(grep -c '^FAIL ' "$work/check.txt")
passed=$((passed + p)) failed=$((failed + f))
if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then fail "check_models.py exited with $rc: $(tail -n 3 "$work/check.err")"; fi

# ---- onnxruntime: original vs converted ---------------------------------------------------
probes="/embeddings/word_embeddings/Gather_output_0 /embeddings/position_embeddings/Gather_output_0
        /embeddings/Add_output_0 /embeddings/Add_1_output_0"
for m in bert $MODES; do
  [ -f "$work/$m.onnx" ] || continue
  # shellcheck disable=SC2086
  "$PY" test/convert/add_outputs.py "$work/$m.onnx" "$work/$m.probe.onnx" $probes ||
    fail "$m: cannot make the probe model"
done
# in each runtime: the bounds are against the original model run in that
# same runtime, so two versions need not agree bit for bit with each other
for rt in $ORT_RUNTIMES; do
  L=$(ort_label "$rt")
  if ! ort_have "$rt"; then
    skip "$L compare_ort: $(ort_skip_reason "$rt")"
    continue
  fi
  # shellcheck disable=SC2086
  ort_cmd -t 600 "$rt" test/convert/compare_ort.js $VOCAB $SEQ "$work/bert.onnx" "$work/bert.probe.onnx" \
    $ort_specs >"$work/ort-$rt.txt" 2>"$work/ort-$rt.err"
  rc=$?
  grep -E '^(PASS|FAIL|INFO) ' "$work/ort-$rt.txt" | sed -E "s/^(PASS|FAIL|INFO) /\1 $L /"
  p=$(grep -c '^PASS ' "$work/ort-$rt.txt") f=$(grep -c '^FAIL ' "$work/ort-$rt.txt")
  passed=$((passed + p)) failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then fail "$L compare_ort exited with $rc: $(tail -n 3 "$work/ort-$rt.err")"; fi
done
# the two runtimes side by side: the converted logits' distance from the
# original's, each in its own runtime (versions may differ in the last bits)
for mode in $MODES; do
  line=""
  for rt in $ORT_HAVE; do
    d=$(sed -n "s/^INFO $mode logits: max |diff| \([^ ]*\) = \([^ ]*\) u L.*/\1 (\2 u L)/p" "$work/ort-$rt.txt")
    line="$line $(ort_label "$rt") ${d:-n/a}"
  done
  echo "INFO $mode max |logit diff| from the original, per runtime:$line"
done
finish
