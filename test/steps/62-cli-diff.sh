# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim diff A B: model pairs that differ in one aspect each (inputs,
# outputs, nodes named and unnamed, attributes, initializers' type, shape and
# contents, opsets, metadata, subgraphs) and equal pairs in other storage
# forms, each with its exit status and the exact lines listed, as text and
# as JSON checked against docs/json.md (test/check_cli_diff.py); usage and
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
