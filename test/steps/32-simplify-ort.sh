# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The simplification proven by the runtime. `libonnxslim simplify` on
# bert-tiny (test/data), a make_bert.py model (dynamic batch and sequence),
# the constant-folding models of test/simplify/make_fold_models.py (shape
# chains, integer arithmetic, data movement on constants, the make_bert.py
# model with static inputs; each must have folded nodes) and onnx's node
# test models (test/onnx_node_models.py, with the newest
# onnx: the venv $B/pypi-onnx of scripts/pypi-venv.sh, as step 37; a skip
# when PyPI cannot be reached); then, in each onnxruntime of test/ort-setup.sh
# (onnxruntime-node, the Python wheel), every simplified model that differs
# from its original runs next to it on the same random inputs
# (test/simplify/prep_inputs.py: 3 seeds, 2 sizes of each dimension the
# model leaves open) and must give bit-identical outputs
# (test/simplify/ort_simplified.js and its twin .py). A model whose original
# does not run in a runtime counts a skip there; a simplification that fails,
# a simplified model that does not load or gives other bytes, a failure.
# Prints the node and initializer counts before and after.
set -u
B=${B:-build}
PY=/usr/bin/python3
work="$B/simplify-ort"

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $*"; }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit $?; }

. test/ort-setup.sh
ort_step_setup || { fail "setup: $ORT_SETUP_ERROR"; finish; }

rm -rf "$work"
mkdir -p "$work/models" "$work/out" "$work/inputs"
cp test/data/bert-tiny.onnx "$work/models/bert-tiny.onnx"
"$PY" test/gen/make_bert.py "$work/models/bert-gen.onnx" --vocab 500 --hidden 64 --layers 2 \
  --heads 2 --ffn 128 --classes 2 --seq 16 --seed 11 >/dev/null 2>&1 ||
  fail "setup: make_bert.py"
FOLD_MODELS=$("$PY" test/simplify/make_fold_models.py "$work/models" "$work/models/bert-gen.onnx" 2>"$work/fold-models.err") ||
  fail "setup: make_fold_models.py: $(tail -n 1 "$work/fold-models.err")"
case $B in /*) venv="$B/pypi-onnx" ;; *) venv="$PWD/$B/pypi-onnx" ;; esac
sh scripts/pypi-venv.sh "$venv" onnx 2>"$work/venv.err"
vrc=$?
if [ $vrc -eq 77 ]; then
  skip "onnx's node test models: $(tail -n 1 "$work/venv.err")"
elif [ $vrc -ne 0 ]; then
  fail "setup: scripts/pypi-venv.sh $venv onnx: $(tail -n 1 "$work/venv.err")"
elif "$venv/bin/python" test/onnx_node_models.py "$work/onnx" >"$work/node.log" 2>&1; then
  echo "$(tail -n 1 "$work/node.log")"
  for d in "$work"/onnx/node/*/; do
    n=$(basename "$d")
    [ -f "$d/model.onnx" ] && cp "$d/model.onnx" "$work/models/node_$n.onnx"
  done
else
  fail "setup: onnx_node_models.py: $(tail -n 1 "$work/node.log")"
fi

# ---- simplify every model ------------------------------------------------------------
: >"$work/pairs" ; nmodels=0 nfail=0 nsame=0
for m in "$work"/models/*.onnx; do
  n=$(basename "$m" .onnx)
  nmodels=$((nmodels + 1))
  if "$B/libonnxslim" -q simplify "$m" "$work/out/$n.onnx" --json >"$work/out/$n.json" 2>"$work/out/$n.err"; then
    if cmp -s "$m" "$work/out/$n.onnx"; then nsame=$((nsame + 1))
    else echo "$n $m $work/out/$n.onnx" >>"$work/pairs"; fi
  else
    nfail=$((nfail + 1))
    [ $nfail -le 10 ] && echo "  simplify $n: $(head -c 300 "$work/out/$n.err")"
  fi
done
if [ $nfail -eq 0 ]; then pass "simplify: $nmodels models simplified ($nsame unchanged, byte for byte)"
else fail "simplify: $nfail of $nmodels models refused (the first are above)"; fi

# every folding model had nodes folded
for w in $FOLD_MODELS; do
  nf=$(grep -o '"kind": *"folded_node"' "$work/out/$w.json" 2>/dev/null | wc -l)
  if [ "$nf" -gt 0 ]; then pass "fold $w: $nf nodes folded"
  else fail "fold $w: no node folded"; fi
done

# node and initializer counts before and after, from the JSON reports
"$PY" - "$work/out" <<'PYEOF'
import glob, json, sys
tot = [0, 0, 0, 0]; changed = 0; kinds = {}
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        s = json.load(open(f))["simplification"]
    except Exception:
        continue
    v = [s["nodes_before"], s["nodes_after"], s["initializers_before"], s["initializers_after"]]
    tot = [a + b for a, b in zip(tot, v)]
    if v[0] != v[1] or v[2] != v[3]:
        changed += 1
        rows.append((v[0] - v[1], f.rsplit("/", 1)[1][:-5], v))
    for c in s["changes"]:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
print("counts: nodes %d -> %d, initializers %d -> %d over all models; %d models changed" %
      (tot[0], tot[1], tot[2], tot[3], changed))
print("changes: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
for d, n, v in sorted(rows, reverse=True)[:12]:
    print("  %-48s nodes %4d -> %4d  initializers %4d -> %4d" % (n, v[0], v[1], v[2], v[3]))
PYEOF

# ---- the runtime -----------------------------------------------------------------------
if ! "$PY" test/simplify/prep_inputs.py "$work/pairs" "$work/inputs" "$work/manifest.json" >"$work/prep.log" 2>&1; then
  fail "setup: prep_inputs.py: $(tail -n 1 "$work/prep.log")"
  finish
fi
echo "inputs: $(cat "$work/prep.log")"
for rt in $ORT_RUNTIMES; do
  label=$(ort_label "$rt")
  if ! ort_have "$rt"; then
    skip "$label simplified models against their originals: $(ort_skip_reason "$rt")"
    continue
  fi
  ort_cmd -t 1200 "$rt" test/simplify/ort_simplified.js "$work/manifest.json" >"$work/ort-$rt.log" 2>"$work/ort-$rt.err"
  rc=$?
  same=$(grep -c '^same ' "$work/ort-$rt.log")
  sk=$(grep -c '^skip ' "$work/ort-$rt.log")
  bad=$(grep -c '^differ \|^error' "$work/ort-$rt.log")
  for w in bert-tiny bert-gen $FOLD_MODELS; do
    if grep -q "^same $w\$" "$work/ort-$rt.log"; then pass "$label $w: simplified outputs bit-identical to the original's"
    elif grep -q " $w " "$work/pairs"; then fail "$label $w: $(grep " $w" "$work/ort-$rt.log" | head -n 1)"
    fi
  done
  if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$same" -gt 0 ]; then
    pass "$label $same changed models give bit-identical outputs ($sk whose original does not run here or whose inputs the runners cannot feed)"
  else
    grep '^differ \|^error' "$work/ort-$rt.log" | head -n 10
    tail -n 3 "$work/ort-$rt.err"
    fail "$label $bad changed models differ or fail, $same identical (exit $rc)"
  fi
done
finish
