# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# names: about PyPI's OnnxSlim (test/check_names.py): its venv is section peers', which holds it
# ---- INT4 beside onnxruntime's own 4-bit quantizer, on the same tensors ----
# Tools: libonnxslim --scale-method absmax and mse (symmetric, blocks of 32;
# and mse with --asymmetric, integer zero points, the like of HQQ; and the
# default, since 0.3.0 FLOAT zero points searched, the form HQQ writes,
# checked to be the bytes of --zero-point float;
# MatMul weights as MatMulNBits, --format ort, so that both tools write the
# same operator), onnxruntime's MatMulNBitsQuantizer (4 bits, blocks of 32:
# its default symmetric RTN; HQQ, asymmetric with FLOAT zero points, in a
# second venv over Debian's python3-torch: a skip line without it), all
# run on the same FP32 files. Models:
#   heavy     bench/make_heavy.py: a table with outlier columns, MatMul
#             weights with outlier input channels and Student-t (3 and 4
#             degrees of freedom) weights: the distributions trained
#             models have
#   reranker  the 1.1 GB reranker's MatMul weights (synthetic, uniform),
#             and its table
# Per tool and model: the conversion's wall time and peak RSS (one run;
# /usr/bin/time), and bench/quant_errors.py's per-row relative errors of
# the dequantized weights (mean, max, Frobenius); on the reranker also the
# logits against the FP32 model's in onnxruntime (Python) on QP_SEEDS (3)
# sets of 100 inputs.
echo "== qpeers: INT4 weights beside onnxruntime's 4-bit quantizer (RTN, HQQ) on the same tensors"
qpeers_main() {
  pv="$Babs/pypi-peers"
  if ! sh scripts/pypi-venv.sh "$pv" onnx onnx-ir onnxruntime onnxconverter-common onnxsim onnxslim \
    2> "$B/bench/pypi-peers.err"; then
    echo "$(tail -n 1 "$B/bench/pypi-peers.err" | sed 's/^skip: //; s/^/skip: section qpeers: /')"
    return 0
  fi
  py="$pv/bin/python"
  qp="$Babs/bench/qpeers"
  rm -rf "$qp"; mkdir -p "$qp"
  cli="$Babs/libonnxslim"
  need_reranker
  "$py" bench/make_heavy.py "$qp/heavy.onnx"
  # HQQ needs torch: Debian's python3-torch under a venv of its own (need_hqq)
  need_hqq
  if [ "$hq_ok" = 1 ]; then
    echo "ort-rtn: onnxruntime $("$py" -c 'import onnxruntime; print(onnxruntime.__version__)'); ort-hqq: $hq_label"
  else
    echo "skip: ort-hqq: $hq_skip"
  fi
  # qp_run LABEL OUT CMD...: one timed run, "LABEL time_s peak_kib" to $qp/times
  qp_run() {
    l=$1 o=$2; shift 2
    rm -f "$o"
    s0=$(date +%s%N)
    if /usr/bin/time -f "%M" -o "$qp/$l.rss" "$@" > "$qp/$l.log" 2>&1 && [ -f "$o" ]; then
      sync "$o"
      s1=$(date +%s%N)
      echo "$l $(secs "$s0" "$s1") $(tail -n 1 "$qp/$l.rss" | tr -cd 0-9)" >> "$qp/times"
    else
      echo "  $l: failed: $(grep -v INFO "$qp/$l.log" | tail -n 1)"
    fi
  }
  for m in heavy reranker; do
    if [ "$m" = heavy ]; then src="$qp/heavy.onnx"; else src="$rr"; fi
    : > "$qp/times"
    qp_run "ours-absmax" "$qp/$m-absmax.onnx" "$cli" convert "$src" "$qp/$m-absmax.onnx" --to int4 \
      --select op:MatMul:1 --format ort --block-size 32 --scale-method absmax -q
    qp_run "ours-mse" "$qp/$m-mse.onnx" "$cli" convert "$src" "$qp/$m-mse.onnx" --to int4 \
      --select op:MatMul:1 --format ort --block-size 32 --scale-method mse -q
    # the like of HQQ (zero points), with the integer zero points ONNX's
    # DequantizeLinear needs: --asymmetric
    qp_run "ours-asym-mse" "$qp/$m-asym-mse.onnx" "$cli" convert "$src" "$qp/$m-asym-mse.onnx" \
      --to int4 --select op:MatMul:1 --format ort --block-size 32 --scale-method mse --asymmetric -q
    # the default: FLOAT zero points (MatMulNBits only), the form HQQ writes
    qp_run "ours-default" "$qp/$m-default.onnx" "$cli" convert "$src" "$qp/$m-default.onnx" \
      --to int4 --select op:MatMul:1 --format ort --block-size 32 -q
    "$cli" convert "$src" "$qp/$m-fzp-flag.onnx" --to int4 --select op:MatMul:1 --format ort \
      --block-size 32 --zero-point float -q
    same=no
    cmp -s "$qp/$m-default.onnx" "$qp/$m-fzp-flag.onnx" && same=yes
    rm -f "$qp/$m-fzp-flag.onnx"
    qp_run "ort-rtn" "$qp/$m-ort-rtn.onnx" "$py" bench/quant_errors.py ort rtn "$src" "$qp/$m-ort-rtn.onnx"
    if [ "$hq_ok" = 1 ]; then
      qp_run "ort-hqq" "$qp/$m-ort-hqq.onnx" "$HQ_PY" bench/quant_errors.py ort hqq "$src" \
        "$qp/$m-ort-hqq.onnx"
    fi
    echo "$m: MatMul weights, INT4, blocks of 32; symmetric but ours-asym-mse (integer zero" \
      "points), ours-default and ort-hqq (FLOAT zero points) (time and peak RSS: one run)"
    echo "  ours-default writes the bytes of --zero-point float: $same"
    printf '  %-14s %9s %14s\n' tool "time (s)" "peak RSS (MiB)"
    while read -r l t k; do printf '  %-14s %9s %14s\n' "$l" "$t" "$(mib "$k")"; done < "$qp/times"
    args=""
    for l in absmax mse asym-mse default ort-rtn ort-hqq; do
      [ -f "$qp/$m-$l.onnx" ] && args="$args ours-$l=$qp/$m-$l.onnx"
    done
    args=$(echo "$args" | sed 's/ours-ort-/ort-/g')
    seeds=0
    [ "$m" = reranker ] && seeds=${QP_SEEDS:-3}
    # shellcheck disable=SC2086 # the LABEL=FILE list
    "$py" bench/quant_errors.py errors "$src" $args --seeds "$seeds" 2>&1 | grep -v ' \[INFO\] ' | sed 's/^/  /'
    rm -f "$qp/$m"-*.onnx
  done
  # the reranker's table (GatherBlockQuantized, FP16 scales): absmax and mse
  # over several input sets, the question of docs/quantization.md
  "$cli" convert "$rr" "$qp/t-absmax.onnx" --gather-to int4 --format ort --block-size 32 --scales fp16 -q
  "$cli" convert "$rr" "$qp/t-mse.onnx" --gather-to int4 --format ort --block-size 32 --scales fp16 \
    --scale-method mse -q
  echo "reranker: the INT4 table (GatherBlockQuantized, blocks of 32, FP16 scales)"
  "$py" bench/quant_errors.py errors "$rr" ours-absmax="$qp/t-absmax.onnx" ours-mse="$qp/t-mse.onnx" \
    --seeds "${QP_TABLE_SEEDS:-5}" 2>&1 | sed 's/^/  /'
  rm -rf "$qp"
}
qpeers_main
