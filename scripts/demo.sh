#!/bin/sh
# `make demo`: the main job on the bundled default model.
# Builds the default BERT-shaped model (an embedding table read by a Gather,
# two encoder layers, a classifier head) with test/gen/make_bert.py, prints
# its summary, saves it with onnxslim and verifies the round trip.
set -eu
B=${B:-build}
mkdir -p "$B/demo"
model="$B/demo/bert-default.onnx"
out="$B/demo/bert-default.saved.onnx"
if [ ! -f "$model" ]; then
  echo "== building the default model: $model"
  /usr/bin/python3 test/gen/make_bert.py "$model"
fi
echo "== onnxslim info $model"
"$B/onnxslim" info "$model"
echo
echo "== onnxslim convert $model $out"
"$B/onnxslim" convert "$model" "$out"
echo
echo "== verify"
if cmp -s "$model" "$out"; then
  echo "round trip: byte-identical ($(stat -c %s "$out") bytes)"
else
  echo "round trip: output differs from input" >&2
  exit 1
fi
"$B/onnxslim" info "$out" > /dev/null && echo "reload: ok"
