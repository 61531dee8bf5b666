# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Every example of examples/ (examples/README.md), built by `make examples`
# and run:
#  - recipe (C) and recipe-cpp (C++ wrapper) write the same three files as
#    `libonnxslim convert ... --gather-to bf16 --round truncate --external-data
#    --threshold 0 --location STEM.bin --also-single-file STEM_single.onnx`,
#    byte for byte, with the fingerprint `libonnxslim fingerprint` prints, and
#    print the same report;
#  - build_model's model passes `libonnxslim check` and python onnx's checker,
#    and onnxruntime-node computes y = Relu(x W + b) on it: the numbers are
#    fixed in this file (worked out by hand, exact in binary);
#  - inspect prints the nodes of If, Loop and Scan bodies indented under
#    their attribute, and a node nested two deep (an If in a Loop body);
#  - summary prints the inputs and copies a model byte for byte;
#  - ort_recipe (onnxruntime's C API) is built where pkg-config finds
#    libonnxruntime, else make examples says it skipped it
#    (test/check_long/trixie-ort.sh runs it).
#  - make demo (scripts/demo.sh) runs its three models in onnxruntime, or
#    prints one line saying it skipped the run and how to get it (npm
#    offline, no node), as README says.
set -u
. test/step-lib.sh
ex="$root/$B/examples"
node_dir=/usr/share/libonnx-testdata/data/node
make -s B="$B" examples > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; bad "make examples"; }
fp() { "$cli" fingerprint "$1" 2>/dev/null | awk '{print $1}'; }

# ---- recipe.c and recipe.cpp against the command ---------------------------------
mkdir -p "$tmp/cli" "$tmp/c" "$tmp/cpp"
"$cli" convert "$m" "$tmp/cli/out.onnx" --gather-to bf16 --round truncate --external-data \
  --threshold 0 --location out.bin --also-single-file "$tmp/cli/out_single.onnx" > /dev/null 2>&1 ||
  bad "libonnxslim convert (the recipe)"
for prog in recipe recipe-cpp; do
  dir=$tmp/c
  [ $prog = recipe-cpp ] && dir=$tmp/cpp
  if ! "$ex/$prog" "$m" "$dir/out.onnx" > "$dir/stdout" 2> "$dir/stderr"; then
    cat "$dir/stderr"
    bad "$prog exits with an error"
    continue
  fi
  same=1
  for f in out.onnx out.bin out_single.onnx; do
    cmp -s "$tmp/cli/$f" "$dir/$f" || { same=0; echo "$prog: $f differs from the command's"; }
  done
  [ $same -eq 1 ] && ok "$prog writes out.onnx, out.bin and out_single.onnx byte for byte as libonnxslim convert" ||
    bad "$prog output differs from libonnxslim convert's"
  want=$(fp "$tmp/cli/out.onnx")
  if [ -n "$want" ] && [ "$(fp "$dir/out.onnx")" = "$want" ] && [ "$(fp "$dir/out_single.onnx")" = "$want" ] &&
     grep -q "fingerprint $want\$" "$dir/stdout"; then
    ok "$prog: libonnxslim fingerprint of both outputs is the command's, and $prog prints it ($want)"
  else
    cat "$dir/stdout"
    bad "$prog fingerprints"
  fi
  grep -q '^roberta.embeddings.word_embeddings.weight: FLOAT -> BFLOAT16, 6400 -> 3200 bytes' "$dir/stdout" &&
    ok "$prog reports the word embedding table converted" || bad "$prog report"
done
if [ -s "$tmp/c/stdout" ] &&
   [ "$(sed "s|$tmp/c/||g" "$tmp/c/stdout")" = "$(sed "s|$tmp/cpp/||g" "$tmp/cpp/stdout")" ]; then
  ok "recipe and recipe-cpp print the same report"
else
  bad "recipe and recipe-cpp print different reports"
fi
"$cli" check "$tmp/c/out.onnx" > /dev/null 2>&1 && ok "recipe's model passes libonnxslim check" || bad "recipe's model check"

# ---- build_model.c: run in onnxruntime ----------------------------------------------------
if "$ex/build_model" "$tmp/tiny.onnx" > "$tmp/build.out" 2>&1 && grep -q 'check: no problem' "$tmp/build.out"; then
  ok "build_model: $(cat "$tmp/build.out")"
else
  cat "$tmp/build.out"
  bad "build_model"
fi
"$cli" check "$tmp/tiny.onnx" > /dev/null 2>&1 && ok "build_model's model passes libonnxslim check" ||
  bad "build_model's model: libonnxslim check"
if "$PY" -c 'import onnx, sys; m = onnx.load(sys.argv[1]); onnx.checker.check_model(m, full_check=True)' \
     "$tmp/tiny.onnx" 2> "$tmp/py.err"; then
  ok "build_model's model passes onnx.checker (full_check)"
else
  tail -n 3 "$tmp/py.err"
  bad "build_model's model: onnx.checker"
fi
. test/ort-setup.sh
if ! command -v node >/dev/null 2>&1 || ! ort_setup > "$tmp/ort-setup.log" 2>&1; then
  cat "$tmp/ort-setup.log" 2>/dev/null
  bad "setup: node and onnxruntime-node@$ORT_VERSION"
else
  # x = [[1, -2, 3], [-1, 0.5, -2]], W = [[0.5, -1], [2, 0.25], [-1, 1]], b = [1, 0.25]:
  # x W = [[-6.5, 1.5], [2.5, -0.875]], + b = [[-5.5, 1.75], [3.5, -0.625]], Relu:
  out=$(node test/ort_run.js "$tmp/tiny.onnx" x 2,3 1,-2,3,-1,0.5,-2 2>&1)
  if [ "$out" = "y 2,2 0,1.75,3.5,0" ]; then
    ok "build_model's model in onnxruntime: $out"
  else
    echo "$out"
    bad "build_model's model in onnxruntime: want 'y 2,2 0,1.75,3.5,0'"
  fi
fi

# ---- inspect.c: subgraphs ------------------------------------------------------------------------
# an If in a Loop body, its then branch holding node 'deep_add'
"$PY" - "$tmp/nested.onnx" > "$tmp/nested.log" 2>&1 <<'EOF' || { cat "$tmp/nested.log"; bad "make the nested model"; }
import sys
from onnx import TensorProto, helper as h
f = lambda n: h.make_tensor_value_info(n, TensorProto.FLOAT, [1])
b = lambda n: h.make_tensor_value_info(n, TensorProto.BOOL, [])
then_g = h.make_graph([h.make_node("Add", ["v", "v"], ["t"], name="deep_add")], "then_g", [], [f("t")])
else_g = h.make_graph([h.make_node("Identity", ["v"], ["e"], name="deep_id")], "else_g", [], [f("e")])
body = h.make_graph(
    [h.make_node("Identity", ["c_in"], ["c_out"], name="cond_copy"),
     h.make_node("If", ["c_in"], ["v_out"], name="inner_if", then_branch=then_g, else_branch=else_g)],
    "loop_body", [h.make_tensor_value_info("i", TensorProto.INT64, []), b("c_in"), f("v")],
    [b("c_out"), f("v_out")])
g = h.make_graph([h.make_node("Loop", ["n", "c", "v0"], ["v_final"], name="outer_loop", body=body)],
                 "nested", [h.make_tensor_value_info("n", TensorProto.INT64, []), b("c"), f("v0")],
                 [f("v_final")])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
open(sys.argv[1], "wb").write(m.SerializeToString())
EOF
inspect_ok() { # NAME MODEL SUMMARY PATTERN...: exit 0, the summary line, each pattern
  name=$1 model=$2 summary=$3
  shift 3
  if ! "$ex/inspect" "$model" > "$tmp/inspect.out" 2>&1; then
    cat "$tmp/inspect.out"
    bad "inspect $name: exit status"
    return
  fi
  fine=1
  tail -n 1 "$tmp/inspect.out" | grep -qx "$summary" || { fine=0; echo "no line '$summary'"; }
  for pat in "$@"; do grep -q -- "$pat" "$tmp/inspect.out" || { fine=0; echo "no line matching '$pat'"; }; done
  if [ $fine -eq 1 ]; then ok "inspect $name: $summary, nested nodes shown under their graph"; else
    cat "$tmp/inspect.out"
    bad "inspect $name"
  fi
}
inspect_ok test_if "$node_dir/test_if/model.onnx" "3 nodes in 3 graphs, max depth 1" \
  "^  \[0\] If (cond) -> (res)$" "^    then_branch: graph 'then_body'" "^      \[0\] Constant () -> (then_out)$" \
  "^    else_branch: graph 'else_body'" "^      \[0\] Constant () -> (else_out)$"
inspect_ok test_loop11 "$node_dir/test_loop11/model.onnx" "10 nodes in 2 graphs, max depth 1" \
  "^    body: graph 'loop_body': 3 inputs, 3 outputs, 9 nodes$" \
  "^      \[6\] Slice (x, slice_start, slice_end) -> (slice_out)$"
inspect_ok test_scan9_sum "$node_dir/test_scan9_sum/model.onnx" "3 nodes in 2 graphs, max depth 1" \
  "^    body: graph 'scan_body'" "^      \[0\] Add (sum_in, next) -> (sum_out)$"
[ -f "$tmp/nested.onnx" ] && inspect_ok "If in a Loop" "$tmp/nested.onnx" "5 nodes in 4 graphs, max depth 2" \
  "^  \[0\] Loop 'outer_loop'" "^      \[1\] If 'inner_if' (c_in) -> (v_out)$" \
  "^        then_branch: graph 'then_g'" "^          \[0\] Add 'deep_add' (v, v) -> (t)$" \
  "^          \[0\] Identity 'deep_id' (v) -> (e)$"
if "$ex/inspect" "$tmp/missing.onnx" > /dev/null 2> "$tmp/err"; then
  bad "inspect of a missing file exits 0"
elif grep -q 'missing.onnx' "$tmp/err"; then
  ok "inspect of a missing file: an error naming it"
else
  bad "inspect of a missing file: no error naming it"
fi

# ---- ort_recipe.c: only where onnxruntime's C API is (make check-long runs it in trixie) ----
if pkg-config --exists libonnxruntime 2>/dev/null; then
  [ -x "$ex/ort_recipe" ] && ok "ort_recipe built against libonnxruntime $(pkg-config --modversion libonnxruntime)" ||
    bad "make examples did not build ort_recipe although pkg-config finds libonnxruntime"
elif [ ! -e "$ex/ort_recipe" ] && grep -q 'ort_recipe skipped: pkg-config finds no libonnxruntime' "$tmp/make.log"; then
  skip "ort_recipe: pkg-config finds no libonnxruntime (make check-long builds and runs it in Debian trixie)"
else
  bad "make examples: no line saying ort_recipe was skipped"
fi

# ---- summary.c --------------------------------------------------------------------------------------
if "$ex/summary" "$m" "$tmp/copy.onnx" > "$tmp/summary.out" && cmp -s "$m" "$tmp/copy.onnx" &&
   grep -q '^input 0: *input_ids$' "$tmp/summary.out" && grep -q '^nodes: *58$' "$tmp/summary.out"; then
  ok "summary prints the inputs and node count and copies the model byte for byte"
else
  cat "$tmp/summary.out"
  bad "summary"
fi
# ---- make demo (scripts/demo.sh, after make all) ---------------------------------------------
# it says what it did with onnxruntime: the three models run in it, or one
# line "onnxruntime run skipped: ..." with the reason and how to get the
# run, and README says so. Three ways: as make demo runs here (onnxruntime-node
# set up above), npm unable to install it (offline, an empty cache and
# directory), no node on PATH.
demo() { # NAME ENV...: runs the demo; $tmp/demo-NAME.out, its exit status
  name=$1; shift
  env "$@" B="$B" sh scripts/demo.sh > "$tmp/demo-$name.out" 2>&1
}
runs() { grep -c '^onnxruntime, .*logits: type=float32' "$tmp/demo-$1.out"; }
skips() { grep -c '^onnxruntime run skipped: ' "$tmp/demo-$1.out"; }
if demo setup && [ "$(runs setup)" = 3 ] && [ "$(skips setup)" = 0 ]; then
  ok "make demo: the three models run in onnxruntime ($(grep -c '^onnxruntime' "$tmp/demo-setup.out") onnxruntime lines)"
else
  cat "$tmp/demo-setup.out"; bad "make demo with onnxruntime-node set up: want 3 runs"
fi
if demo offline ORT_DIR="$tmp/demo-node" npm_config_cache="$tmp/demo-npm-cache" npm_config_offline=true &&
   [ "$(runs offline)" = 0 ] && [ "$(skips offline)" = 1 ] &&
   grep '^onnxruntime run skipped: ' "$tmp/demo-offline.out" | grep -q "npm could not install .*run 'make demo' again where"; then
  ok "make demo without the npm registry: one line, $(grep '^onnxruntime run skipped: ' "$tmp/demo-offline.out" | cut -c1-60)..."
else
  cat "$tmp/demo-offline.out"; bad "make demo without the npm registry: want one skip line"
fi
mkdir "$tmp/nonode"
for f in /usr/bin/* /bin/*; do
  case ${f##*/} in node | nodejs | npm | npx) ;; *) [ -e "$tmp/nonode/${f##*/}" ] || ln -s "$f" "$tmp/nonode/" ;; esac
done
if demo nonode PATH="$tmp/nonode" && [ "$(runs nonode)" = 0 ] && [ "$(skips nonode)" = 1 ] &&
   grep '^onnxruntime run skipped: ' "$tmp/demo-nonode.out" | grep -q 'make deps'; then
  ok "make demo without node: one line, $(grep '^onnxruntime run skipped: ' "$tmp/demo-nonode.out" | cut -c1-60)..."
else
  cat "$tmp/demo-nonode.out"; bad "make demo without node: want one skip line"
fi
grep -q 'onnxruntime run skipped: ' README.md && grep -B 12 -A 3 '^    make demo$' README.md | grep -q 'onnxruntime-node' &&
  ok "README says the demo runs onnxruntime or prints one 'onnxruntime run skipped' line" ||
  bad "README does not say what make demo does with onnxruntime"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
