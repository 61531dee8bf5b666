# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# What one small crafted file can cost the commands after the load, bounded:
# check, diff, convert --verify, --toposort, --to and --external-data (the
# check, the sort, the conversion with its inserts, the save) on
# bench/make_crafted inputs, under
# `ulimit -v` (so that a pass growing past what it should gets a plain
# out-of-memory failure, not a pass), each ending in success or in the
# library's clear limit error (max_memory), and within a `timeout` (the
# passes are linear; quadratic ones took minutes). Figures: docs/check.md,
# "Memory and time limits".
set -u
. test/step-lib.sh

cc -std=c11 -O2 bench/make_crafted.c -o "$tmp/make_crafted" || { bad "build bench/make_crafted.c"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1; }
mk() { "$tmp/make_crafted" "$1" "$2" "$tmp/$1-$2.onnx" || bad "make_crafted $1 $2"; }

# 6M empty nodes (12 MB): 6M unknown_op problems; the model's structure
# alone fills the default max_memory (1 GiB): the check stops with the
# limit error (it peaked at 3.6 GB before)
mk empty 6000000
(ulimit -v 2500000; timeout 120 "$cli" check "$tmp/empty-6000000.onnx" > /dev/null 2> "$tmp/e"); r=$?
[ $r -eq 3 ] && grep -q "cannot check .*: checking the model needs more memory than its max_memory allows (1073741824 bytes)" "$tmp/e" &&
  ok "check of 6M empty nodes (12 MB) under ulimit -v 2.5 GB: the max_memory error, exit 3" || bad "check 6M empty nodes (exit $r): $(head -c 400 "$tmp/e")"

# 600k empty nodes (1.2 MB): checked, 600k problems listed
mk empty 600000
(ulimit -v 1000000; timeout 120 "$cli" check "$tmp/empty-600000.onnx" > "$tmp/o" 2> "$tmp/e"); r=$?
[ $r -eq 1 ] && [ "$(wc -l < "$tmp/o")" -eq 600000 ] &&
  ok "check of 600k empty nodes under ulimit -v 1 GB: 600000 problems, exit 1" || bad "check 600k empty nodes (exit $r): $(head -c 400 "$tmp/e")"

# one node with 1M attributes (17 MB): convert --verify compares 1M problems
mk attrs 1000000
(ulimit -v 2000000; timeout 120 "$cli" convert "$tmp/attrs-1000000.onnx" "$tmp/a.onnx" --to bf16 > /dev/null 2> "$tmp/e"); r=$?
[ $r -eq 0 ] && [ -s "$tmp/a.onnx" ] &&
  ok "convert --to bf16 --verify of 1M attr_unknown problems (17 MB) under ulimit -v 2 GB: written" || bad "convert attrs 1M (exit $r): $(head -c 400 "$tmp/e")"

# 50k nodes of unknown ops and 50k model-local functions (3.3 MB): each op
# is looked up among the functions once, not by a scan of them (583 s before)
mk funcs 50000
(ulimit -v 1000000; timeout 60 "$cli" check "$tmp/funcs-50000.onnx" > "$tmp/o" 2> "$tmp/e"); r=$?
[ $r -eq 1 ] && [ "$(wc -l < "$tmp/o")" -eq 50000 ] &&
  ok "check of 50k unknown ops beside 50k model functions: 50000 problems within the timeout" || bad "check funcs (exit $r): $(head -c 400 "$tmp/e")"

# diff of two chains of 500k Relu (18 MB each)
mk relus 500000
cp "$tmp/relus-500000.onnx" "$tmp/relus-b.onnx"
(ulimit -v 2000000; timeout 120 "$cli" diff "$tmp/relus-500000.onnx" "$tmp/relus-b.onnx" > "$tmp/o" 2> "$tmp/e"); r=$?
[ $r -eq 0 ] && ok "diff of two 500k-node chains (18 MB each) under ulimit -v 2 GB: no difference" || bad "diff relus (exit $r): $(head -c 400 "$tmp/e")"

# The other passes (docs/check.md, "Every pass, one count"): each crafted
# input ends in a written OUT or in the library's clear limit error (and no
# OUT), within the timeout, under ulimit -v.
ends_well() { # WHAT EXIT OUT
  if [ "$2" -eq 0 ] && [ -s "$3" ]; then
    ok "$1: written"
  elif [ "$2" -eq 1 ] && grep -q "needs more memory than its max_memory allows" "$tmp/e" && [ ! -e "$3" ]; then
    ok "$1: the max_memory error, nothing written"
  else
    bad "$1 (exit $2): $(head -c 400 "$tmp/e")"
  fi
}

# toposort: a 500k-node chain listed last node first (19 MB), every node moves
mk order 500000
(ulimit -v 2000000; timeout 120 "$cli" -q convert "$tmp/order-500000.onnx" "$tmp/sorted.onnx" --toposort > /dev/null 2> "$tmp/e"); r=$?
ends_well "convert --toposort of a 500k-node chain listed backwards (19 MB) under ulimit -v 2 GB" $r "$tmp/sorted.onnx"

# convert (and insert): one FP32 initializer read by 400k Adds (13 MB):
# one Cast back for 400k chosen readers (rewiring them one by one, and
# relinking the graph's index after each, was quadratic: 34 s for 200k)
mk shared 400000
(ulimit -v 1500000; timeout 60 "$cli" -q convert "$tmp/shared-400000.onnx" "$tmp/shared.onnx" --to fp16 > /dev/null 2> "$tmp/e"); r=$?
ends_well "convert --to fp16 of one tensor read by 400k nodes (13 MB) under ulimit -v 1.5 GB" $r "$tmp/shared.onnx"

# save: 100k initializers (12 MB) converted and written to one data file
mk chain 100000
(ulimit -v 2000000; timeout 120 "$cli" -q convert "$tmp/chain-100000.onnx" "$tmp/ext.onnx" --to fp16 --external-data --threshold 0 > /dev/null 2> "$tmp/e"); r=$?
ends_well "convert --to fp16 --external-data --threshold 0 of 100k tensors (12 MB) under ulimit -v 2 GB" $r "$tmp/ext.onnx"
[ $r -ne 0 ] || [ -s "$tmp/ext.onnx.data" ] || [ -s "$tmp/ext.data" ] || ls "$tmp" | grep -q "^ext.*data" ||
  bad "the data file of the 100k-tensor save is missing"

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
