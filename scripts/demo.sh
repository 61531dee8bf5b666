#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# `make demo`: the main job on the bundled default model.
# Builds the default BERT-shaped model (an embedding table read by a Gather,
# two encoder layers, a classifier head) with test/gen/make_bert.py, prints a
# short summary, verifies an unedited round trip, then runs the published
# recipe with the libonnxslim command: the Gather's table stored as BF16 with a
# Cast after the Gather, saved once with every tensor in one external data
# file and once as a single file. Both outputs are checked and must have the
# same fingerprint; the sizes before and after are printed.
set -eu
B=${B:-build}
cli="$B/libonnxslim"
dir="$B/demo"
mkdir -p "$dir"
model="$dir/bert-default.onnx"
saved="$dir/bert-default.saved.onnx"
ext="$dir/bert-default.bf16.onnx"
data_name="bert-default.bf16.onnx.data" # relative to the model's directory
single="$dir/bert-default.bf16.single.onnx"

if [ ! -f "$model" ]; then
  echo "== building the default model: $model"
  /usr/bin/python3 test/gen/make_bert.py "$model"
fi

size() { stat -c %s "$1"; }

echo "== 1. the input model (libonnxslim info $model, shortened)"
"$cli" info "$model" | awk '
  /^[a-z_ ]+:/ { show = ($0 ~ /^(file|size|producer|graph|inputs|outputs|nodes|initializers|initializer_bytes|largest initializers):/) }
  show'
echo

echo "== 2. unedited round trip: libonnxslim convert $model $saved"
"$cli" convert "$model" "$saved"
if cmp -s "$model" "$saved"; then
  echo "round trip: byte-identical ($(size "$saved") bytes)"
else
  echo "round trip: output differs from input" >&2
  exit 1
fi
"$cli" info "$saved" > /dev/null && echo "reload: ok"
echo

echo "== 3. the published recipe, one command:"
echo "   libonnxslim convert $model $ext \\"
echo "     --gather-to bf16 --report --external-data --threshold 0 \\"
echo "     --location $data_name --also-single-file $single"
rm -f "$ext" "$dir/$data_name" "$single"
"$cli" convert "$model" "$ext" --gather-to bf16 --report --external-data --threshold 0 \
  --location "$data_name" --also-single-file "$single"
echo

echo "== 4. verify both outputs"
"$cli" check "$ext"
"$cli" check "$single"
fp_ext=$("$cli" fingerprint "$ext")
fp_single=$("$cli" fingerprint "$single")
fp_in=$("$cli" fingerprint "$model")
echo "fingerprints:"
printf '    %s  %s\n' "$fp_in" "$model (input: differs, the table changed)" \
  "$fp_ext" "$ext" "$fp_single" "$single"
if [ "$fp_ext" != "$fp_single" ]; then
  echo "the external-data and single-file models differ" >&2
  exit 1
fi
echo "external-data and single-file models: same fingerprint"
ort_modules="$B/node/node_modules" # set up by `make check` (test step 45)
if [ -d "$ort_modules/onnxruntime-node" ] && command -v node > /dev/null; then
  for f in "$model" "$ext" "$single"; do
    printf 'onnxruntime, %-34s ' "$(basename "$f"):"
    ORT_NODE_MODULES="$ort_modules" node test/gen/run_ort.js "$f" | sed 's/ finite=true//'
  done
fi
echo

echo "== 5. sizes"
in_size=$(size "$model")
single_size=$(size "$single")
ext_size=$(size "$ext")
data_size=$(size "$dir/$data_name")
row() { printf '    %-36s %10s bytes  %5s%%\n' "$1" "$2" "$(awk -v a="$2" -v b="$in_size" 'BEGIN { printf "%.1f", 100 * a / b }')"; }
row "input: FP32, single file" "$in_size"
row "recipe: single file" "$single_size"
row "recipe: external-data model file" "$ext_size"
row "recipe: its data file" "$data_size"
row "recipe: external data, both files" "$((ext_size + data_size))"
echo "The BF16 table takes half the bytes of the FP32 one. The data file also holds"
echo "padding: every tensor starts at a multiple of 4096 bytes so that a runtime can map"
echo "it (up to 4 KiB per tensor: a lot for this small model, little for a real one;"
echo "--align 1 packs them)."
