#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
#
# Runs the command's conversions (the recipe, every quantization form, --to
# fp16, split, merge) over a set of models and keeps every output file,
# the command's stdout and stderr and its exit status in OUTDIR, so that two
# builds can be compared byte for byte (before and after a refactoring):
#
#   sh test/check_long/convert_outputs.sh BIN OUTDIR MODEL...
#   (the same with the other build into OUTDIR2)
#   sh test/check_long/convert_outputs.sh --compare OUTDIR OUTDIR2
#
# The outputs are written with names relative to OUTDIR, so the reports
# (which name the files written) are the same for two runs. RUN: the
# emulator of a cross build (qemu-aarch64-static: test/check_long/arm64.sh).
set -u

if [ "${1:-}" = "--compare" ]; then
  a=$2 b=$3 same=0 diff=0
  for f in $(cd "$a" && find . -type f | sort); do
    if cmp -s "$a/$f" "$b/$f"; then same=$((same + 1)); else diff=$((diff + 1)); echo "DIFFERS: $f"; fi
  done
  for f in $(cd "$b" && find . -type f | sort); do
    [ -e "$a/$f" ] || { diff=$((diff + 1)); echo "ONLY IN $b: $f"; }
  done
  echo "$same outputs byte-identical, $diff differ"
  [ "$diff" = 0 ]
  exit
fi

bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
shift 2
mkdir -p "$out"

# one run: NAME ARGS...; IN and OUT are relative to $out
run() {
  name=$1
  shift
  (cd "$out" && ${RUN:+$RUN} "$bin" "$@" > "$name.stdout" 2> "$name.stderr"; echo $? > "$name.rc")
}

i=0
for m in "$@"; do
  i=$((i + 1))
  in=$(cd "$(dirname "$m")" && pwd)/$(basename "$m")
  d=m$i
  mkdir -p "$out/$d"
  echo "$m" > "$out/$d/model"
  q="--report"
  run "$d/recipe" convert "$in" "$d/recipe.onnx" --gather-to bf16 --round truncate \
    --external-data --threshold 0 --location recipe.bin --also-single-file "$d/recipe_single.onnx" $q
  run "$d/fp16" convert "$in" "$d/fp16.onnx" --to fp16 $q
  run "$d/fp16json" convert "$in" "$d/fp16json.onnx" --to fp16 --json
  for bits in int8 int4; do
    run "$d/g$bits" convert "$in" "$d/g$bits.onnx" --gather-to $bits --allow-unpacked $q
    run "$d/g${bits}j" convert "$in" "$d/g${bits}j.onnx" --gather-to $bits --allow-unpacked --json
    run "$d/g${bits}ort" convert "$in" "$d/g${bits}ort.onnx" --gather-to $bits --format ort $q
    run "$d/g${bits}asym" convert "$in" "$d/g${bits}asym.onnx" --gather-to $bits --asymmetric \
      --allow-unpacked $q
    run "$d/g${bits}b32" convert "$in" "$d/g${bits}b32.onnx" --gather-to $bits --block-size 32 \
      --scales fp16 $q
    run "$d/g${bits}clip" convert "$in" "$d/g${bits}clip.onnx" --gather-to $bits \
      --clip-percentile 99.9 --allow-unpacked $q
    run "$d/t$bits" convert "$in" "$d/t$bits.onnx" --to $bits --allow-unpacked $q
    run "$d/t${bits}j" convert "$in" "$d/t${bits}j.onnx" --to $bits --allow-unpacked --json
    run "$d/t${bits}ort" convert "$in" "$d/t${bits}ort.onnx" --to $bits --format ort \
      --block-size 32 $q
    run "$d/t${bits}ortasym" convert "$in" "$d/t${bits}ortasym.onnx" --to $bits --format ort \
      --asymmetric $q
    run "$d/t${bits}mm" convert "$in" "$d/t${bits}mm.onnx" --to $bits --select op:MatMul \
      --block-size 32 --asymmetric --clip-percentile 99 $q
  done
  run "$d/g4nib" convert "$in" "$d/g4nib.onnx" --gather-to int4 --format nibbles $q
  run "$d/g4nibasym" convert "$in" "$d/g4nibasym.onnx" --gather-to int4 --format nibbles \
    --asymmetric --block-size 32 $q
  run "$d/split" split "$in" "$d/split.onnx" --threshold 0 --location split.bin --report
  run "$d/merge" merge "$d/split.onnx" "$d/merge.onnx" --report
done
