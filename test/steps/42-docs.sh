# The guides say what the code does. test/check_docs.py: packages and
# run-time dependencies in docs/building.md, public structs and the call
# cycle in docs/design.md, owned objects in docs/handles.md. Here: the
# README's word that a model with external data converts without a merge.
# The commands of docs/building.md are compiled and run by step 50-install.
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

/usr/bin/python3 test/check_docs.py > "$tmp/docs.log" 2>&1; r=$?
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/docs.log"
p=$(grep -c '^ok ' "$tmp/docs.log") f=$(grep -c '^FAIL ' "$tmp/docs.log")
passed=$((passed + p)) failed=$((failed + f))
[ $r -ne 0 ] && [ "$f" -eq 0 ] && bad "test/check_docs.py exit $r"

# README: "A model whose tensors are in external data needs no merge first"
cli="$B/onnxslim"
fp() { "$cli" fingerprint "$1" 2>/dev/null; }
if "$cli" split test/data/bert-tiny.onnx "$tmp/s.onnx" --threshold 0 > /dev/null 2>&1 &&
   "$cli" convert "$tmp/s.onnx" "$tmp/c.onnx" --to fp16 > /dev/null &&
   "$cli" convert test/data/bert-tiny.onnx "$tmp/ref.onnx" --to fp16 > /dev/null &&
   [ -n "$(fp "$tmp/c.onnx")" ] && [ "$(fp "$tmp/c.onnx")" = "$(fp "$tmp/ref.onnx")" ]; then
  ok "README: a model with external data converts as it is, like its inline twin"
else
  bad "README: converting a model with external data"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
