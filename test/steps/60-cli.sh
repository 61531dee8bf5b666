# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The libonnxslim command: info prints a summary, convert with no options is a
# byte-identical copy, exit status 0 / 2 (usage) / other (failure) with the
# library's message on stderr.
set -u
. test/step-lib.sh
m=test/data/bert-tiny.onnx

"$cli" info "$m" > "$tmp/info.txt" 2> "$tmp/err"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/err" ] && ok "info exits 0" || bad "info exit $r"
grep -q 'input_ids' "$tmp/info.txt" && grep -q 'Gather' "$tmp/info.txt" &&
  grep -q 'roberta.embeddings.word_embeddings.weight' "$tmp/info.txt" && ok "info names inputs, ops, largest initializer" || bad "info content"
grep -Eq 'INT64\[batch, seq\]' "$tmp/info.txt" && ok "info shows symbolic dims" || bad "info dims"

"$cli" convert "$m" "$tmp/out.onnx"; r=$?
[ $r -eq 0 ] && cmp -s "$m" "$tmp/out.onnx" && ok "convert IN OUT is byte-identical" || bad "convert exit $r / differs"
"$cli" convert /usr/share/libonnx-testdata/data/node/test_if/model.onnx "$tmp/if.onnx" &&
  cmp -s /usr/share/libonnx-testdata/data/node/test_if/model.onnx "$tmp/if.onnx" && ok "convert keeps subgraphs byte-identical" || bad "convert if"

for args in "" "info" "info a b" "frobnicate x" "convert onlyone" "convert --no-such-option a b" "info --bogus $m"; do
  # shellcheck disable=SC2086
  "$cli" $args > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && [ -s "$tmp/e" ] && ok "usage error '$args' exits 2" || bad "usage error '$args' exit $r"
done
"$cli" --help > "$tmp/o" 2>&1 && grep -q convert "$tmp/o" && ok "--help exits 0" || bad "--help"
"$cli" --version | grep -q "$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)" && ok "--version" || bad "--version"

"$cli" info /nonexistent.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ $r -ne 2 ] && grep -q 'nonexistent.onnx' "$tmp/e" && [ ! -s "$tmp/o" ] && ok "missing file: exit $r, message on stderr" || bad "missing file exit $r"
"$cli" info test/fuzz/corpus/len_past_end_top_graph.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ $r -ne 2 ] && grep -q 'truncated length-delimited field 7' "$tmp/e" && ok "bad model: exit $r, library message on stderr" || bad "bad model exit $r"
echo "old" > "$tmp/keep.onnx"
"$cli" convert test/fuzz/corpus/zero_tag.onnx "$tmp/keep.onnx" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ "$(cat "$tmp/keep.onnx")" = "old" ] && ok "failed convert leaves the output intact" || bad "failed convert"
"$cli" convert "$m" "$tmp/nodir/out.onnx" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ $r -ne 2 ] && [ -s "$tmp/e" ] && ok "unwritable output: exit $r" || bad "unwritable output exit $r"

# infer: without OUT it prints and writes nothing; with OUT it writes
# value_info that a second infer finds already there
cp "$m" "$tmp/inf_in.onnx"
"$cli" infer "$tmp/inf_in.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/e" ] && cmp -s "$m" "$tmp/inf_in.onnx" &&
  grep -Eq '^inferred [1-9][0-9]* values: ' "$tmp/o" && grep -Eq 'FLOAT\[batch, seq, 16\]' "$tmp/o" &&
  ok "infer MODEL prints the values with symbolic dims, changes nothing" || bad "infer MODEL exit $r"
"$cli" infer "$tmp/inf_in.onnx" "$tmp/inf_out.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] && [ -s "$tmp/inf_out.onnx" ] && ok "infer MODEL OUT writes OUT, prints nothing" || bad "infer MODEL OUT exit $r"
"$cli" infer "$tmp/inf_out.onnx" > "$tmp/o2"; r=$?
n=$(sed -n 's/^inferred \([0-9]*\) values: .*/\1/p' "$tmp/o2")
[ $r -eq 0 ] && [ -n "$n" ] && grep -q "^inferred $n values: 0 new, 0 refined, $n same, 0 conflicts" "$tmp/o2" &&
  ok "infer OUT: every value already typed ($n same)" || bad "infer OUT: $(head -1 "$tmp/o2")"
"$cli" infer --report "$tmp/inf_in.onnx" "$tmp/inf_out2.onnx" > "$tmp/o" && grep -q 'written as value_info' "$tmp/o" &&
  ok "infer --report MODEL OUT prints the counts" || bad "infer --report"
for args in "infer" "infer a b c" "infer --no-verify $m"; do
  # shellcheck disable=SC2086
  "$cli" $args > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && [ -s "$tmp/e" ] && ok "usage error '$args' exits 2" || bad "usage error '$args' exit $r"
done
rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
