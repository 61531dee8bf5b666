# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The simplification proven by the runtime. `libonnxslim simplify` on
# bert-tiny (test/data), a make_bert.py model (dynamic batch and sequence),
# a make_bert.py --reranker model (XLM-R position ids offset by the padding
# index, token types from zeros shaped like input_ids), the examples' models
# (build_model's, recipe's single-file output of bert-tiny; a skip when
# `make examples` did not build them), the constant-folding models of
# test/simplify/make_fold_models.py (shape
# chains, integer arithmetic, data movement on constants, the make_bert.py
# model with static inputs; each must have folded nodes), onnx's node
# test models (test/onnx_node_models.py, with the newest
# onnx: the venv $B/pypi-onnx of scripts/pypi-venv.sh, as step 37; a skip
# when PyPI cannot be reached) and Debian's libonnx-testdata models
# (installed by `make deps`, scripts/install-deps.sh; a skip when absent)
# whose bytes are not among the others'. Every simplified model that differs
# from its original must pass the newest onnx's
# onnx.checker.check_model(proto, full_check=True) when its original does
# (test/simplify/check_full.py: the files are read into memory, the checker
# runs on the protos and writes nothing); then, in each onnxruntime of test/ort-setup.sh
# (onnxruntime-node, the Python wheel), every simplified model that differs
# from its original runs next to it on the same random inputs
# (test/simplify/prep_inputs.py: 3 seeds, 2 sizes of each dimension the
# model leaves open) and must give bit-identical outputs
# (test/simplify/ort_simplified.js and its twin .py). A model whose original
# does not run in a runtime counts a skip there; a simplification that fails,
# a simplified model that does not load or gives other bytes, a failure.
# Prints the node and initializer counts before and after, and a summary:
# models, simplified and different, bit-identical per runtime, checker
# passes, skips with their reasons.
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
"$PY" test/gen/make_bert.py "$work/models/reranker-gen.onnx" --vocab 500 --hidden 64 --layers 2 \
  --heads 2 --ffn 128 --classes 1 --seq 16 --seed 12 --reranker >/dev/null 2>&1 ||
  fail "setup: make_bert.py --reranker"
mkdir -p "$work/ex"
if [ -x "$B/examples/build_model" ] && [ -x "$B/examples/recipe" ]; then
  "$B/examples/build_model" "$work/models/example_build_model.onnx" >/dev/null 2>&1 ||
    fail "setup: examples/build_model"
  if "$B/examples/recipe" test/data/bert-tiny.onnx "$work/ex/recipe.onnx" >/dev/null 2>&1; then
    cp "$work/ex/recipe_single.onnx" "$work/models/example_recipe.onnx"
  else fail "setup: examples/recipe"; fi
else
  skip "the examples' models: $B/examples/build_model or recipe not built (make examples)"
fi
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
# libonnx-testdata: each model whose bytes no model above has
LOT=/usr/share/libonnx-testdata/data
if [ -d "$LOT" ]; then
  "$PY" - "$LOT" "$work/models" <<'PYEOF' || fail "setup: libonnx-testdata models"
import glob, hashlib, os, shutil, sys
lot, out = sys.argv[1], sys.argv[2]
h = lambda f: hashlib.sha256(open(f, "rb").read()).hexdigest()
seen = {h(f) for f in glob.glob(out + "/*.onnx")}
n = dup = 0
for f in sorted(glob.glob(lot + "/*/*/model.onnx")):
    k = h(f)
    if k in seen:
        dup += 1
        continue
    seen.add(k)
    kind, name = f.split("/")[-3:-1]
    shutil.copyfile(f, "%s/lot_%s_%s.onnx" % (out, kind.replace("-", "_"), name))
    n += 1
print("libonnx-testdata: %d models, %d left out (the same bytes as another)" % (n, dup))
PYEOF
else
  skip "libonnx-testdata models: $LOT absent (make deps installs libonnx-testdata)"
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

# onnx's full checker on every simplified model whose original passes it
if [ $vrc -eq 0 ] && [ -x "$venv/bin/python" ]; then
  if "$venv/bin/python" test/simplify/check_full.py "$work/pairs" >"$work/checker.log" 2>"$work/checker.err"; then
    cp=$(grep -c '^pass ' "$work/checker.log") cf=$(grep -c '^fail ' "$work/checker.log")
    cs=$(grep -c '^skip ' "$work/checker.log")
    if [ "$cf" -eq 0 ] && [ "$cp" -gt 0 ]; then
      pass "checker: $cp simplified models pass $(tail -n 1 "$work/checker.log" | sed 's/checker: //')'s full check ($cs whose original does not)"
    else
      grep '^fail ' "$work/checker.log" | head -n 10
      fail "checker: $cf simplified models fail the full check where their original passes, $cp pass"
    fi
  else
    fail "checker: check_full.py: $(tail -n 1 "$work/checker.err")"
  fi
else
  skip "checker: the newest onnx is not available (see above)"
fi

# every folding model had nodes folded
for w in $FOLD_MODELS; do
  nf=$(grep -o '"kind": *"folded_node"' "$work/out/$w.json" 2>/dev/null | wc -l)
  if [ "$nf" -gt 0 ]; then pass "fold $w: $nf nodes folded"
  else fail "fold $w: no node folded"; fi
done

# the weights' transposes of any perm and of tall weights all folded
for w in fold_weight_transposes_nd fold_weight_transposes_tall; do
  left=$("$PY" -c 'import onnx, sys; print(sum(n.op_type == "Transpose" for n in onnx.load(sys.argv[1]).graph.node))' "$work/out/$w.onnx" 2>&1)
  if [ "$left" = 0 ]; then pass "fold $w: every Transpose folded"
  else fail "fold $w: Transpose nodes left: $left"; fi
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
  for w in bert-tiny bert-gen reranker-gen example_build_model example_recipe $FOLD_MODELS; do
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
  echo "summary: $label: $same of CHANGED bit-identical, $sk skipped, $bad differ or fail" >>"$work/per-runtime"
done

# ---- summary ---------------------------------------------------------------------------
nchanged=$(wc -l <"$work/pairs")
echo "summary: $nmodels models, $nchanged simplified and different ($nsame unchanged, $nfail refused)"
[ -f "$work/per-runtime" ] && sed "s/CHANGED/$nchanged/" "$work/per-runtime"
[ -f "$work/checker.log" ] &&
  echo "summary: checker: $(grep -c '^pass ' "$work/checker.log") pass, $(grep -c '^fail ' "$work/checker.log") fail, $(grep -c '^skip ' "$work/checker.log") skipped (original fails the full check)"
for rt in $ORT_RUNTIMES; do
  [ -f "$work/ort-$rt.log" ] || continue
  grep '^skip ' "$work/ort-$rt.log" | sed 's/^skip [^:]*: *//' | cut -c1-90 | sed 's/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn |
    head -n 6 | sed "s/^ *\([0-9]*\) /summary: $(ort_label "$rt") skip \1: /"
done
[ -f "$work/checker.log" ] &&
  grep '^skip ' "$work/checker.log" | sed 's/^skip [^:]*: the original fails: *//' | cut -c1-70 | sed 's/[0-9][0-9]*/N/g' |
  sort | uniq -c | sort -rn | head -n 5 | sed 's/^ *\([0-9]*\) /summary: checker skip \1: /'
finish
