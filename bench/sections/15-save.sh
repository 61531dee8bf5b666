# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
echo "== save cost: unedited round trip of the 250k model vs cp"
need_bert
t0=$(date +%s%N); "$B/libonnxslim" convert "$large" "$B/bench/copy.onnx"; t1=$(date +%s%N)
cp "$large" "$B/bench/cp.onnx"; sync "$B/bench/cp.onnx"; t2=$(date +%s%N)
cmp -s "$large" "$B/bench/copy.onnx" && same=identical || same=DIFFERENT
conv_ms=$(( (t1 - t0) / 1000000 )); cp_ms=$(( (t2 - t1) / 1000000 ))
echo "libonnxslim convert (load + atomic save + fsync): ${conv_ms} ms, output $same; cp + sync: ${cp_ms} ms; ratio $(ratio "$conv_ms" "$cp_ms")"
/usr/bin/time -f "libonnxslim convert peak RSS: %M KiB" "$B/libonnxslim" convert "$large" "$B/bench/copy.onnx"
rm -f "$B/bench/copy.onnx" "$B/bench/cp.onnx"
