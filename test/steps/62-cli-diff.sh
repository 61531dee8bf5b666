# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim diff A B: model pairs that differ in one aspect each (inputs,
# outputs, nodes named and unnamed, attributes, initializers' type, shape and
# contents, opsets, metadata, subgraphs) and equal pairs in other storage
# forms, each with its exit status and the exact lines listed, as text and
# as JSON checked against docs/json.md (test/check_cli_diff.py); quantized
# conversions compared by dequantized values (test/check_diff_dequant.py); usage and
# load errors exit 2. Then memory: two models of 128 MiB of weights each,
# one changed value, every tensor compared: the peak resident set stays far
# below the data (tensor bytes are streamed, their pages handed back).
. test/step-lib.sh
if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  skip "python3-onnx or numpy missing (make deps)"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
(cd test && "$PY" check_cli_diff.py "$cli" "$tmp") > "$tmp/cases.log" 2>&1
cat "$tmp/cases.log"
line=$(tail -n 1 "$tmp/cases.log")
p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ -n "$p" ]; then passed=$((passed + p)) failed=$((failed + f)); else bad "check_cli_diff.py did not finish"; fi

# ---- quantized weights compared by their dequantized values (numpy computes
# the expected max abs diff from B's codes, scales and zero points) -------
(cd test && "$PY" check_diff_dequant.py "$cli" "$tmp") > "$tmp/dq.log" 2>&1
cat "$tmp/dq.log"
line=$(tail -n 1 "$tmp/dq.log")
p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ -n "$p" ]; then passed=$((passed + p)) failed=$((failed + f)); else bad "check_diff_dequant.py did not finish"; fi

# ---- names and strings that are not UTF-8 or hold NUL (issue [attack] 2,
# point 7): the text escapes them (\xNN) as --json does (\ufffd, \u00NN);
# a STRING attribute is compared and shown whole, NUL included -----------
"$PY" - "$tmp/u" <<'PYEOF'
import os, sys
from onnx import TensorProto as T, helper as h
d = sys.argv[1]
os.makedirs(d)
def mk(nm, tname, sval):
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"], name="nnnnn"),
                      h.make_node("Custom", ["y"], ["z"], name="cust", domain="d", mode="SSSSS")],
                     "main", [h.make_tensor_value_info("x", T.FLOAT, [2])],
                     [h.make_tensor_value_info("z", T.FLOAT, [2])],
                     [h.make_tensor("WWWWW", T.FLOAT, [1], [1.0])])
    b = h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("d", 1)]).SerializeToString()
    # same lengths: the raw bytes replace the placeholders
    return b.replace(b"nnnnn", nm).replace(b"WWWWW", tname).replace(b"SSSSS", sval)
open(d + "/a.onnx", "wb").write(mk(b"a\xffb\x00c", b"t\xfe\x01u1", b"s\x00\xffAA"))
open(d + "/b.onnx", "wb").write(mk(b"a\xffX\x00d", b"t\xfe\x01u2", b"s\x00\xffBB"))
PYEOF
"$cli" diff "$tmp/u/a.onnx" "$tmp/u/b.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
if [ $r -eq 1 ] && "$PY" -c 'import sys; open(sys.argv[1], "rb").read().decode("ascii")' "$tmp/o" &&
   grep -qxF "node 'a\xffb': only in A (Relu)" "$tmp/o" &&
   grep -qxF "initializer 't\xfe\x01u2': only in B (FLOAT[1])" "$tmp/o" &&
   grep -qxF "node 'cust' attribute 'mode': 's\x00\xffAA' -> 's\x00\xffBB'" "$tmp/o" &&
   grep -qxF "5 differences" "$tmp/o"; then
  ok "text diff: invalid UTF-8 and control bytes escaped (\\xNN), a NUL inside a string attribute kept"
else
  bad "text diff of non-UTF-8 names: exit $r: $(cat -v "$tmp/o" "$tmp/e")"
fi
"$cli" diff --json "$tmp/u/a.onnx" "$tmp/u/b.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 1 ] && "$PY" - "$tmp/o" <<'PYEOF' && ok "--json: the same differences, \\ufffd for the bytes that are not UTF-8" || bad "--json of non-UTF-8 names: exit $r: $(cat "$tmp/o" "$tmp/e")"
import json, sys
d = json.load(open(sys.argv[1]))
t = [x["text"] for x in d["differences"]]
assert "node 'a\ufffdb': only in A (Relu)" in t, t
assert "node 'cust' attribute 'mode': 's\\x00\ufffdAA' -> 's\\x00\ufffdBB'" in t, t
assert len(t) == 5, t
PYEOF

# ---- flat memory ---------------------------------------------------------------
MAX_KB=$((64 * 1024))
"$PY" - "$tmp/big" <<'PYEOF'
import os, sys
import numpy as np, onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh
d = sys.argv[1]
os.makedirs(d + "/b")
w = np.arange(32 << 20, dtype=np.float32)  # 128 MiB
def model(arr):
    g = h.make_graph([h.make_node("Identity", ["w"], ["y"], name="id")], "g", [],
                     [h.make_tensor_value_info("y", T.FLOAT, [arr.size])], [nh.from_array(arr, "w")])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
onnx.save(model(w), d + "/a.onnx")
w[12345] += 3  # exact in FLOAT
onnx.save_model(model(w), d + "/b/b.onnx", save_as_external_data=True, location="b.bin",
                size_threshold=0)
PYEOF
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f %M -o "$tmp/rss" "$cli" diff "$tmp/big/a.onnx" "$tmp/big/b/b.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  rss=$(tail -n 1 "$tmp/rss")
  [ $r -eq 1 ] && grep -q "^initializer 'w': contents differ, max abs diff 3, digest" "$tmp/o" &&
    ok "two models of 128 MiB of weights, one value changed: exit 1, 'contents differ, max abs diff 3'" ||
    bad "large pair: exit $r: $(cat "$tmp/o" "$tmp/e")"
  [ "${rss:-999999999}" -lt $MAX_KB ] &&
    ok "diff of 256 MiB of weights: peak RSS $((rss / 1024)) MiB < $((MAX_KB / 1024)) MiB" ||
    bad "diff of 256 MiB of weights: peak RSS ${rss} KiB >= $MAX_KB KiB"
else
  skip "/usr/bin/time missing: peak RSS not measured"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
