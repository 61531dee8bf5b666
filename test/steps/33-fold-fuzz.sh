# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Constant folding fuzzed and proven by the runtime: test/simplify/fuzz_fold.py
# writes random valid graphs of shape and integer operators on constants
# (300 graphs, seed 1, or FOLD_FUZZ_COUNT and FOLD_FUZZ_SEED), `libonnxslim
# simplify` simplifies each, and in each onnxruntime of test/ort-setup.sh the
# simplified model must give outputs bit-identical to the original's on the
# same inputs (test/simplify/prep_inputs.py, ort_simplified.js and its .py
# twin, as step 32). A simplification that fails, a simplified model that
# does not load or gives other bytes is a failure; so is a run that folds
# nothing. Prints the number of nodes folded.
set -u
B=${B:-build}
PY=/usr/bin/python3
work="$B/fold-fuzz"
count=${FOLD_FUZZ_COUNT:-300}
seed=${FOLD_FUZZ_SEED:-1}

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $*"; }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit $?; }

. test/ort-setup.sh
ort_step_setup || { fail "setup: $ORT_SETUP_ERROR"; finish; }

rm -rf "$work"
mkdir -p "$work/models" "$work/out" "$work/inputs"
if ! "$PY" test/simplify/fuzz_fold.py "$work/models" "$count" "$seed" >"$work/gen.log" 2>&1; then
  fail "setup: fuzz_fold.py: $(tail -n 1 "$work/gen.log")"
  finish
fi

: >"$work/pairs"
nfail=0 nfolded=0 nmodels=0
for m in "$work"/models/*.onnx; do
  n=$(basename "$m" .onnx)
  nmodels=$((nmodels + 1))
  if "$B/libonnxslim" -q simplify "$m" "$work/out/$n.onnx" --json >"$work/out/$n.json" 2>"$work/out/$n.err"; then
    k=$(grep -o '"kind": *"folded_node"' "$work/out/$n.json" | wc -l)
    nfolded=$((nfolded + k))
    cmp -s "$m" "$work/out/$n.onnx" || echo "$n $m $work/out/$n.onnx" >>"$work/pairs"
  else
    nfail=$((nfail + 1))
    [ $nfail -le 10 ] && echo "  simplify $n: $(head -c 300 "$work/out/$n.err")"
  fi
done
if [ $nfail -eq 0 ]; then pass "simplify: $nmodels fuzzed graphs simplified (seed $seed)"
else fail "simplify: $nfail of $nmodels fuzzed graphs refused (the first are above)"; fi
if [ $nfolded -gt 0 ]; then pass "fold: $nfolded nodes folded over $nmodels graphs"
else fail "fold: no node folded"; fi

if ! "$PY" test/simplify/prep_inputs.py "$work/pairs" "$work/inputs" "$work/manifest.json" >"$work/prep.log" 2>&1; then
  fail "setup: prep_inputs.py: $(tail -n 1 "$work/prep.log")"
  finish
fi
for rt in $ORT_RUNTIMES; do
  label=$(ort_label "$rt")
  if ! ort_have "$rt"; then
    skip "$label fuzzed graphs against their originals: $(ort_skip_reason "$rt")"
    continue
  fi
  ort_cmd -t 1200 "$rt" test/simplify/ort_simplified.js "$work/manifest.json" >"$work/ort-$rt.log" 2>"$work/ort-$rt.err"
  rc=$?
  same=$(grep -c '^same ' "$work/ort-$rt.log")
  sk=$(grep -c '^skip ' "$work/ort-$rt.log")
  bad=$(grep -c '^differ \|^error' "$work/ort-$rt.log")
  if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$same" -gt 0 ]; then
    pass "$label $same simplified fuzzed graphs give bit-identical outputs ($sk whose original does not run here)"
  else
    grep '^differ \|^error' "$work/ort-$rt.log" | head -n 10
    tail -n 3 "$work/ort-$rt.err"
    fail "$label $bad fuzzed graphs differ or fail, $same identical (exit $rc)"
  fi
done
finish
