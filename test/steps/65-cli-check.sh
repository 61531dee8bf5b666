# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The libonnxslim check command: "MODEL: ok" and exit 0 for a valid model; one
# "LOCATION: MESSAGE" line per problem on stdout and exit 1 for a broken one;
# exit 2 on a usage error; exit 3 with the library's message on stderr when
# the model cannot be read.
set -u
. test/step-lib.sh

m=test/data/bert-tiny.onnx
"$cli" check "$m" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ "$(cat "$tmp/o")" = "$m: ok" ] && [ ! -s "$tmp/e" ] && ok "valid model: exit 0, '$m: ok'" || bad "valid model exit $r: $(cat "$tmp/o" "$tmp/e")"
m=/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx
"$cli" check "$m" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q ': ok$' "$tmp/o" && ok "model with a Loop body: exit 0" || bad "loop model exit $r: $(cat "$tmp/o" "$tmp/e")"

m=test/data/odd/absurd_dims_raw_mismatch.onnx
"$cli" check "$m" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 1 ] && [ "$(wc -l < "$tmp/o")" -eq 1 ] &&
  grep -q "^graph 'fuzz_base' initializer 'W': tensor 'W': raw_data has 16 bytes" "$tmp/o" &&
  grep -q '1 problem' "$tmp/e" && ok "tensor size mismatch: exit 1, LOCATION: MESSAGE" || bad "mismatch exit $r: $(cat "$tmp/o" "$tmp/e")"

if "$PY" -c 'import onnx' 2>/dev/null; then
  # an If whose then branch uses an undefined value, a node named with a
  # newline using a value produced later, and an output nobody produces
  "$PY" - "$tmp/broken.onnx" <<'EOF'
import sys
from onnx import TensorProto as T, helper as h
then = h.make_graph([h.make_node("Add", ["x", "zz"], ["t"], name="c")], "then", [],
                    [h.make_tensor_value_info("t", T.FLOAT, None)])
els = h.make_graph([], "else", [], [h.make_tensor_value_info("x", T.FLOAT, None)])
g = h.make_graph(
    [h.make_node("Neg", ["late"], ["n"], name="bad\nname"),
     h.make_node("If", ["cond"], ["o"], name="If_0", then_branch=then, else_branch=els),
     h.make_node("Relu", ["x"], ["late"], name="r")],
    "main",
    [h.make_tensor_value_info("x", T.FLOAT, [1]), h.make_tensor_value_info("cond", T.BOOL, [])],
    [h.make_tensor_value_info("o", T.FLOAT, None), h.make_tensor_value_info("ghost", T.FLOAT, None)])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
open(sys.argv[1], "wb").write(m.SerializeToString())
EOF
  "$cli" check "$tmp/broken.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  cat "$tmp/o"
  [ $r -eq 1 ] && ok "broken model: exit 1" || bad "broken model exit $r"
  [ "$(grep -vc 'not topologically sorted' "$tmp/o")" -eq 3 ] && grep -q '3 problems' "$tmp/e" && ok "one line per problem (3)" || bad "problem lines: $(wc -l < "$tmp/o")"
  grep -qF "graph 'main' node[1] 'If_0' attribute 'then_branch' node[0] 'c': input 'zz' is not defined" "$tmp/o" &&
    ok "subgraph problem located through the If attribute" || bad "subgraph location"
  grep -qF "graph 'main' node[0] 'bad\\nname': input 'late' is produced later, by node[2] 'r'" "$tmp/o" &&
    ok "order problem, control characters escaped" || bad "order / escaping"
  grep -qF "graph 'main' output 'ghost': graph output 'ghost' is produced by no node" "$tmp/o" &&
    ok "output not produced" || bad "output not produced"
  # operator schemas: BFLOAT16 into Cast at opset 11; an untyped output
  "$PY" - "$tmp/bf16.onnx" <<'EOF'
import sys
from onnx import TensorProto as T, helper as h
g = h.make_graph([h.make_node("Cast", ["x"], ["y"], name="c", to=T.FLOAT),
                  h.make_node("Relu", ["y"], ["z"], name="r")], "main",
                 [h.make_tensor_value_info("x", T.BFLOAT16, [2])],
                 [h.make_tensor_value_info("y", T.FLOAT, [2]), h.make_value_info("z", h.TypeProto())])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 11)])
open(sys.argv[1], "wb").write(m.SerializeToString())
EOF
  "$cli" check "$tmp/bf16.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  cat "$tmp/o"
  [ $r -eq 1 ] && grep -qF "graph 'main' node[0] 'c' input[0] 'x': 'input' of Cast is BFLOAT16, which T1 does not allow at opset 11" "$tmp/o" &&
    grep -qF "graph 'main' output 'z': graph output 'z' has no type" "$tmp/o" && grep -q '2 problems' "$tmp/e" &&
    ok "schema problems: type_constraint and untyped_io, located" || bad "schema problems exit $r: $(cat "$tmp/o" "$tmp/e")"
  "$cli" check --skip untyped_io --skip=type_constraint "$tmp/bf16.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q ': ok$' "$tmp/o" && ok "--skip NAME (twice) switches those checks off" || bad "--skip exit $r: $(cat "$tmp/o" "$tmp/e")"
  "$cli" check --json --skip untyped_io "$tmp/bf16.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [p["code_name"] for p in d["problems"]] == ["type_constraint"], d' "$tmp/o" &&
    ok "--json: code_name type_constraint" || bad "--json with --skip exit $r: $(cat "$tmp/o")"
  # model-local functions: F calls itself through G, H is defined twice
  # (issue [attack] 2, point 7): both refused, located at the function
  "$PY" - "$tmp/fn.onnx" <<'EOF'
import sys
from onnx import helper as h, TensorProto as T
ops = [h.make_opsetid("", 17), h.make_opsetid("local", 1)]
fns = [h.make_function("local", "F", ["i"], ["o"], [h.make_node("G", ["i"], ["o"], domain="local")], ops),
       h.make_function("local", "G", ["i"], ["o"], [h.make_node("F", ["i"], ["o"], domain="local")], ops),
       h.make_function("local", "H", ["i"], ["o"], [h.make_node("Relu", ["i"], ["o"])], ops),
       h.make_function("local", "H", ["i"], ["o"], [h.make_node("Neg", ["i"], ["o"])], ops)]
g = h.make_graph([h.make_node("H", ["x"], ["y"], domain="local")], "main",
                 [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])])
m = h.make_model(g, opset_imports=ops, functions=fns)
open(sys.argv[1], "wb").write(m.SerializeToString())
EOF
  "$cli" check "$tmp/fn.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && grep -qF "function 'F' (domain 'local'): function 'F' calls itself through function 'G'" "$tmp/o" &&
    grep -qF "function 'G' (domain 'local'): function 'G' calls itself through function 'F'" "$tmp/o" &&
    grep -qF "function 'H' (domain 'local'): function 'H' is defined twice (also function[2])" "$tmp/o" &&
    grep -q '3 problems' "$tmp/e" &&
    ok "recursive and duplicate functions refused, located" || bad "functions exit $r: $(cat "$tmp/o" "$tmp/e")"
  "$cli" check --skip function "$tmp/fn.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && ok "--skip function" || bad "--skip function exit $r: $(cat "$tmp/o" "$tmp/e")"
else
  echo "python3-onnx not available at $PY: skipping the hand-built broken model"
  skipped=$((skipped + 1))
fi

"$cli" check /nonexistent.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 3 ] && grep -q 'nonexistent.onnx' "$tmp/e" && [ ! -s "$tmp/o" ] && ok "missing file: exit 3, message on stderr" || bad "missing file exit $r"
"$cli" check test/fuzz/corpus/len_past_end_top_graph.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 3 ] && grep -q 'truncated length-delimited field 7' "$tmp/e" && [ ! -s "$tmp/o" ] && ok "unreadable model: exit 3, library message on stderr" || bad "unreadable model exit $r"

for args in "check" "check a b" "check --bogus test/data/bert-tiny.onnx"; do
  # shellcheck disable=SC2086
  "$cli" $args > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && [ -s "$tmp/e" ] && ok "usage error '$args' exits 2" || bad "usage error '$args' exit $r"
done
"$cli" check --list-checks > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ "$(wc -l < "$tmp/o")" -eq 18 ] && grep -q '^checksum ' "$tmp/o" && grep -q '^type_constraint ' "$tmp/o" && grep -q '^undefined_input ' "$tmp/o" && grep -q '^function ' "$tmp/o" &&
  grep -q '^external_load_input .*(warning)' "$tmp/o" &&
  ok "--list-checks: 18 kinds, by name" || bad "--list-checks exit $r: $(cat "$tmp/o" "$tmp/e")"

# ---- warnings: tensors in external data that onnxruntime reads at load ---------------
# bert-tiny split with --force-shape-inputs: its 7 Reshape shapes, Unsqueeze
# axes and Range bounds go out; a model onnxruntime refuses, valid ONNX
mkdir -p "$tmp/ext"
"$cli" split test/data/bert-tiny.onnx "$tmp/ext/forced.onnx" --threshold 0 --force-shape-inputs -q &&
  "$cli" split test/data/bert-tiny.onnx "$tmp/ext/plain.onnx" --threshold 0 -q || bad "split bert-tiny"
"$cli" check "$tmp/ext/forced.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ "$(grep -c ": warning: '.*' is in external data but node '.*' (Reshape) reads it as input 1 when onnxruntime loads the model" "$tmp/o")" -eq 4 ] &&
  [ "$(grep -c ': warning: ' "$tmp/o")" -eq 7 ] && grep -q "forced.onnx: ok (7 warnings)$" "$tmp/o" && [ ! -s "$tmp/e" ] &&
  ok "external shape inputs: 7 warning lines, 'ok (7 warnings)', exit 0" || bad "warnings exit $r: $(head -c 600 "$tmp/o") $(cat "$tmp/e")"
"$cli" check --json "$tmp/ext/forced.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True and d["warnings"] == 7, d
assert {(p["code"], p["code_name"], p["severity"]) for p in d["problems"]} == {(18, "external_load_input", "warning")}, d
' "$tmp/o" && ok "--json: 7 problems of severity warning, ok true, warnings 7" || bad "--json warnings exit $r: $(head -c 600 "$tmp/o")"
"$cli" check "$tmp/ext/plain.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q 'plain.onnx: ok$' "$tmp/o" && [ "$(wc -l < "$tmp/o")" -eq 1 ] &&
  ok "the same split without --force-shape-inputs: ok, no warning" || bad "plain split check exit $r: $(cat "$tmp/o")"
"$cli" check --skip external_load_input "$tmp/ext/forced.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q 'forced.onnx: ok$' "$tmp/o" && ok "--skip external_load_input" || bad "--skip external_load_input exit $r"
"$cli" check --skip nonesuch test/data/bert-tiny.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && grep -q "no check named 'nonesuch'" "$tmp/e" && ok "--skip with an unknown name: usage error" || bad "--skip unknown exit $r"
"$cli" check --help > "$tmp/o" 2>&1 && grep -q 'check MODEL' "$tmp/o" && ok "check --help exits 0" || bad "check --help"

rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
