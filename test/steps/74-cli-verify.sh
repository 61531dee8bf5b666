# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim convert --verify compares the converted model's problems with the
# input's by what they are, not by node index (onnxslim_check_options.baseline):
# a model that is not topologically sorted converts (the inserted Casts shift
# the indexes of its existing problems), a problem the conversion really adds
# is still refused, and 100k problems are compared in linear time (a run
# bounded by `timeout`; quadratic took minutes).
set -u
. test/step-lib.sh

cc -std=c11 -O2 bench/make_crafted.c -o "$tmp/make_crafted" || { bad "build bench/make_crafted.c"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1; }

# a Gather of an FP32 table, then 5 Relu nodes listed in reverse order
"$tmp/make_crafted" order 5 "$tmp/o5.onnx" || bad "make_crafted order 5"
"$cli" check "$tmp/o5.onnx" > "$tmp/o" 2> /dev/null; r=$?
[ $r -eq 1 ] && [ "$(grep -c 'is produced later' "$tmp/o")" -eq 5 ] &&
  ok "the unsorted model has 5 order problems" || bad "check of the unsorted model (exit $r): $(cat "$tmp/o")"
"$cli" convert "$tmp/o5.onnx" "$tmp/o5b.onnx" --to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ -s "$tmp/o5b.onnx" ] && ! grep -q -- '--verify' "$tmp/e" &&
  ok "convert --to bf16 (--verify) of an unsorted model: exit 0, written" || bad "convert of the unsorted model (exit $r): $(cat "$tmp/e")"
"$cli" check "$tmp/o5b.onnx" > "$tmp/o" 2> /dev/null
[ "$(grep -c 'is produced later' "$tmp/o")" -eq 5 ] && grep -q "node\[1\] 'relu4'" "$tmp/o" &&
  grep -q "Cast" "$tmp/o" &&
  ok "the output has the same 5 order problems, at shifted indexes (a Cast now produces v0)" || bad "check of the output: $(cat "$tmp/o")"
"$cli" convert "$tmp/o5.onnx" "$tmp/o5c.onnx" --to bf16 --policy cast-before > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ -s "$tmp/o5c.onnx" ] && ok "the same with --policy cast-before" || bad "cast-before on the unsorted model (exit $r): $(cat "$tmp/e")"
"$cli" convert "$tmp/o5.onnx" "$tmp/o5s.onnx" --to bf16 --toposort > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && "$cli" check "$tmp/o5s.onnx" > /dev/null 2>&1 &&
  ok "with --toposort: written, and the output checks clean" || bad "--toposort (exit $r): $(cat "$tmp/e")"

# a problem the conversion really adds: the Gather's output is also a graph
# input (a problem at the Gather); the Cast inserted after the Gather takes
# over that name and defines the graph input again, at a node of its own
if "$PY" -c 'import onnx' 2> /dev/null; then
  "$PY" - "$tmp/dup.onnx" <<'EOF'
import sys, numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
g = h.make_graph([h.make_node("Gather", ["W", "I"], ["e"], name="gather"),
                  h.make_node("Relu", ["e"], ["Y"], name="relu")], "g",
                 [h.make_tensor_value_info("I", T.INT64, [2]), h.make_tensor_value_info("e", T.FLOAT, [2, 2])],
                 [h.make_tensor_value_info("Y", T.FLOAT, [2, 2])],
                 [nh.from_array(np.array([[1, 2], [3, 4]], dtype=np.float32), "W")])
open(sys.argv[1], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]).SerializeToString())
EOF
  "$cli" convert "$tmp/dup.onnx" "$tmp/dupb.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$tmp/dupb.onnx" ] &&
    grep -q "^libonnxslim: --verify: graph 'g' node\[1\] 'e_Cast': output 'e' is already defined as a graph input \[duplicate_output\]$" "$tmp/e" &&
    grep -q "fails 1 check that" "$tmp/e" &&
    ok "a problem the conversion adds (a Cast redefining a graph input): refused, nothing written" || bad "new problem (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/dup.onnx" "$tmp/dupb.onnx" --gather-to bf16 --no-verify > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && [ -s "$tmp/dupb.onnx" ] && ok "... written with --no-verify" || bad "--no-verify (exit $r): $(cat "$tmp/e")"
else
  skip "python onnx missing: the model whose conversion adds a problem"
fi

# 100k problems: 100k Relu out of order, and one node with 100k attributes
# its schema does not define
for kind in order attrs; do
  "$tmp/make_crafted" $kind 100000 "$tmp/$kind.onnx" || bad "make_crafted $kind 100000"
  timeout 60 "$cli" convert "$tmp/$kind.onnx" "$tmp/${kind}b.onnx" --to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && [ -s "$tmp/${kind}b.onnx" ] &&
    ok "convert --verify of a model with 100000 $kind problems: exit 0 within the timeout" || bad "100k $kind (exit $r): $(head -c 600 "$tmp/e")"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
