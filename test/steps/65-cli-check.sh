# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The libonnxslim check command: "MODEL: ok" and exit 0 for a valid model; one
# "LOCATION: MESSAGE" line per problem on stdout and exit 1 for a broken one;
# exit 2 on a usage error; exit 3 with the library's message on stderr when
# the model cannot be read.
set -u
B=${B:-build}
PY=/usr/bin/python3
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
cli="$B/libonnxslim"
tmp=$(mktemp -d)

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
[ $r -eq 0 ] && [ "$(wc -l < "$tmp/o")" -eq 15 ] && grep -q '^type_constraint ' "$tmp/o" && grep -q '^undefined_input ' "$tmp/o" &&
  ok "--list-checks: 15 kinds, by name" || bad "--list-checks exit $r: $(cat "$tmp/o" "$tmp/e")"
"$cli" check --skip nonesuch test/data/bert-tiny.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && grep -q "no check named 'nonesuch'" "$tmp/e" && ok "--skip with an unknown name: usage error" || bad "--skip unknown exit $r"
"$cli" check --help > "$tmp/o" 2>&1 && grep -q 'check MODEL' "$tmp/o" && ok "check --help exits 0" || bad "check --help"

rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
