# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- quantized tables and MatMul weights on the reranker-shaped model (issue
# 12; bench/make_reranker.c, bench/ort_logits.js) ---------------------------------
# Converts the 1.1 GB reranker (opset 17) with `libonnxslim convert`:
#   int8-table     --gather-to int8 (standard form: Gather, Gather of the
#                  scales, Cast and Mul; one scale per row)
#   int8-table-mm  the same, then --to int8 --select op:MatMul:1 --format ort
#                  --block-size 32 (MatMulNBits, 8 bits)
#   int4-table     --gather-to int4 --format ort --block-size 32 --scales fp16
#                  (GatherBlockQuantized; opset 17 has no INT4 type)
#   int4-table-nibbles  the same table with --format nibbles (UINT8 pairs
#                  gathered and unpacked with standard ops)
#   int4-table-mm-ext  the same, then the MatMul weights as above but in
#                  blocks of 128, saved with external data (the smallest)
#   int4a-table-mm-ext  the same with --asymmetric on the table
#   int4-b16       --gather-to int4 --format ort --block-size 16 (FP32
#                  scales): the slowest table form (the most blocks, and
#                  scales too large to be kept by the check, so the table is
#                  read three times); timed only
#   int4-mm-fz     the FP32 reranker's MatMul weights alone to INT4 with
#                  the default scales, float zero points since 0.3.0 (--to
#                  int4 --select op:MatMul:1 --format ort --block-size 32;
#                  checked to be the bytes of --zero-point float), beside
#                  the same with absmax scales (int4-mm: --scale-method
#                  absmax) and integer zero points (int4-mm-asym: --asymmetric
#                  --scale-method mse): a whole model's conversion against
#                  cp; timed only
#   int4-table-mm4fz-ext  the INT4 table (above), then those INT4 weights
#                  (the default), external data: the INT4 smallest with the
#                  new scales
#   bf16           the published recipe (--gather-to bf16), for comparison
# and reports per variant: the conversion's wall time (with sync; the best of
# 3 runs, as for cp) and peak RSS against cp, the file sizes, onnxruntime-node's
# (and, below it, the Python wheel's: bench/ort_logits.py) peak RSS after 100 inputs (50 runs of batch 2, seq 16, token ids spread over
# the vocabulary; the smallest variant also in bigger batches) and the max
# |logit difference| against the FP32 model on the same inputs.
echo "== quant: INT8 / INT4 tables and INT8 MatMul weights on the 1.1 GB reranker"
need_reranker
qb="$B/bench/quant" # outputs of this section, removed at its end
mkdir -p "$qb"
cli="$B/libonnxslim"
# qtimed NAME OUT [OUT2] -- CMD...: wall time of CMD plus the sync of its
# outputs (after a global sync, warm page cache, the outputs removed
# first), the best of QUANT_RUNS runs (default 3: the machine may be
# shared; cp gets the same), and its peak RSS (the highest of the runs);
# sets t_NAME (s), m_NAME (KiB), ok_NAME (1: every run succeeded)
qtimed() {
  name=$1 o1=$2 o2=$3; shift 4
  ok=1 best="" mx=0 run=0
  while [ "$run" -lt "${QUANT_RUNS:-3}" ]; do
    run=$((run + 1))
    rm -f "$o1" ${o2:+"$o2"}
    sync
    s0=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$qb/$name.rss" "$@" > "$qb/$name.log" 2>&1 || ok=0
    for f in "$o1" "$o2"; do if [ -n "$f" ] && [ -f "$f" ]; then sync "$f"; fi; done
    s1=$(date +%s%N)
    t=$(secs "$s0" "$s1") m=$(tail -n 1 "$qb/$name.rss" | tr -cd 0-9)
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    [ "${m:-0}" -gt "$mx" ] && mx=$m
  done
  eval "t_$name=$best m_$name=$mx ok_$name=$ok"
}
sz() { if [ -f "$1" ]; then stat -L -c %s "$1"; else echo 0; fi; }
cat "$rr" > /dev/null
qtimed cp "$qb/cp.onnx" "" -- cp "$rr" "$qb/cp.onnx"
rm -f "$qb/cp.onnx"
qtimed bf16 "$qb/bf16.onnx" "" -- "$cli" convert "$rr" "$qb/bf16.onnx" --gather-to bf16 -q
qtimed t8 "$qb/int8-table.onnx" "" -- "$cli" convert "$rr" "$qb/int8-table.onnx" --gather-to int8 -q
qtimed t4 "$qb/int4-table.onnx" "" -- "$cli" convert "$rr" "$qb/int4-table.onnx" --gather-to int4 \
  --format ort --block-size 32 --scales fp16 -q
# the same with the searched scales (--scale-method mse; the default is absmax)
qtimed t4mse "$qb/int4-table-mse.onnx" "" -- "$cli" convert "$rr" "$qb/int4-table-mse.onnx" \
  --gather-to int4 --format ort --block-size 32 --scales fp16 --scale-method mse -q
qtimed t4n "$qb/int4-table-nibbles.onnx" "" -- "$cli" convert "$rr" "$qb/int4-table-nibbles.onnx" \
  --gather-to int4 --format nibbles --block-size 32 --scales fp16 -q
qtimed t4b16 "$qb/int4-b16.onnx" "" -- "$cli" convert "$rr" "$qb/int4-b16.onnx" --gather-to int4 \
  --format ort --block-size 16 -q
t4b16_size=$(if [ -f "$qb/int4-b16.onnx" ]; then stat -c %s "$qb/int4-b16.onnx"; else echo 0; fi)
rm -f "$qb/int4-b16.onnx"
# the MatMul weights of the table variants, in a second conversion
qtimed t8mm "$qb/int8-table-mm.onnx" "" -- "$cli" convert "$qb/int8-table.onnx" \
  "$qb/int8-table-mm.onnx" --to int8 --select op:MatMul:1 --format ort --block-size 32 -q
qtimed t4mmx "$qb/int4-table-mm-ext.onnx" "$qb/int4-table-mm-ext.onnx.data" -- "$cli" convert \
  "$qb/int4-table.onnx" "$qb/int4-table-mm-ext.onnx" --to int8 --select op:MatMul:1 --format ort \
  --block-size 128 --external-data -q
# the smallest variant with an asymmetric table (16 levels instead of 15)
qtimed t4a "$qb/int4a-table.onnx" "" -- "$cli" convert "$rr" "$qb/int4a-table.onnx" --gather-to int4 \
  --format ort --block-size 32 --scales fp16 --asymmetric -q
qtimed t4amx "$qb/int4a-table-mm-ext.onnx" "$qb/int4a-table-mm-ext.onnx.data" -- "$cli" convert \
  "$qb/int4a-table.onnx" "$qb/int4a-table-mm-ext.onnx" --to int8 --select op:MatMul:1 --format ort \
  --block-size 128 --external-data -q
t4a_size=$(sz "$qb/int4a-table.onnx")
rm -f "$qb/int4a-table.onnx"
# INT4 MatMul weights of the FP32 model: absmax, integer zero points
# (searched), float zero points (searched), each a whole model's conversion
qtimed w4 "$qb/int4-mm.onnx" "" -- "$cli" convert "$rr" "$qb/int4-mm.onnx" --to int4 \
  --select op:MatMul:1 --format ort --block-size 32 --scale-method absmax -q
qtimed w4a "$qb/int4-mm-asym.onnx" "" -- "$cli" convert "$rr" "$qb/int4-mm-asym.onnx" --to int4 \
  --select op:MatMul:1 --format ort --block-size 32 --asymmetric --scale-method mse -q
qtimed w4fz "$qb/int4-mm-fz.onnx" "" -- "$cli" convert "$rr" "$qb/int4-mm-fz.onnx" --to int4 \
  --select op:MatMul:1 --format ort --block-size 32 -q
w4_size=$(sz "$qb/int4-mm.onnx") w4a_size=$(sz "$qb/int4-mm-asym.onnx") w4fz_size=$(sz "$qb/int4-mm-fz.onnx")
# the default's bytes are those of --zero-point float (untimed)
w4fz_same="no"
"$cli" convert "$rr" "$qb/int4-mm-fz-flag.onnx" --to int4 --select op:MatMul:1 --format ort \
  --block-size 32 --zero-point float -q && cmp -s "$qb/int4-mm-fz.onnx" "$qb/int4-mm-fz-flag.onnx" &&
  w4fz_same="yes"
rm -f "$qb/int4-mm.onnx" "$qb/int4-mm-asym.onnx" "$qb/int4-mm-fz.onnx" "$qb/int4-mm-fz-flag.onnx"
# the INT4 table, then INT4 weights with float zero points, external data
qtimed t4fzx "$qb/int4-table-mm4fz-ext.onnx" "$qb/int4-table-mm4fz-ext.onnx.data" -- "$cli" convert \
  "$qb/int4-table.onnx" "$qb/int4-table-mm4fz-ext.onnx" --to int4 --select op:MatMul:1 --format ort \
  --block-size 32 --external-data -q
echo "model: $rr, $(stat -L -c %s "$rr") bytes (opset 17); word embedding 250002 x 768 FP32 (733 MiB)"
printf '%-58s %9s %15s %14s\n' "conversion (libonnxslim convert)" "wall (s)" "peak RSS (MiB)" "output bytes"
qrow() { # NAME LABEL BYTES
  eval "ok=\${ok_$1:-0} t=\${t_$1:-} m=\${m_$1:-}"
  if [ "$ok" = 1 ]; then printf '%-58s %9s %15s %14s\n' "$2" "$t" "$(mib "$m")" "$3"
  else printf '%-58s %9s %15s %14s\n' "$2" "FAILED" "-" "see $qb/$1.log"; fi
}
qrow cp "cp + sync" "$(sz "$rr")"
qrow bf16 "--gather-to bf16 (the published recipe)" "$(sz "$qb/bf16.onnx")"
qrow t8 "--gather-to int8 (per row; Cast and Mul)" "$(sz "$qb/int8-table.onnx")"
qrow t4 "--gather-to int4 --format ort --block-size 32 (fp16 scales)" "$(sz "$qb/int4-table.onnx")"
qrow t4mse "the same, --scale-method mse (searched scales)" "$(sz "$qb/int4-table-mse.onnx")"
qrow t4n "--gather-to int4 --format nibbles --block-size 32 (fp16)" \
  "$(sz "$qb/int4-table-nibbles.onnx")"
qrow t4b16 "--gather-to int4 --format ort --block-size 16 (fp32 scales)" "$t4b16_size"
qrow t4a "--gather-to int4 --format ort --block-size 32 --asymmetric" "$t4a_size"
qrow t8mm "int8 table, then --to int8 MatMul weights (MatMulNBits, 32)" "$(sz "$qb/int8-table-mm.onnx")"
qrow t4mmx "int4 table, then int8 MatMul weights (128), external data" \
  "$(($(sz "$qb/int4-table-mm-ext.onnx") + $(sz "$qb/int4-table-mm-ext.onnx.data")))"
qrow t4amx "the same with --asymmetric on the table" \
  "$(($(sz "$qb/int4a-table-mm-ext.onnx") + $(sz "$qb/int4a-table-mm-ext.onnx.data")))"
qrow w4 "--to int4 MatMul weights (MatMulNBits, 32) --scale-method absmax" "$w4_size"
qrow w4a "the same, --asymmetric --scale-method mse (integer zp)" "$w4a_size"
qrow w4fz "the same, the default (float zero points)" "$w4fz_size"
qrow t4fzx "int4 table, then int4 weights (the default), ext." \
  "$(($(sz "$qb/int4-table-mm4fz-ext.onnx") + $(sz "$qb/int4-table-mm4fz-ext.onnx.data")))"
for k in t8 t4 t4mse t4n t4b16 t4a; do
  eval "ok=\${ok_$k:-0}"
  [ "$ok" = 1 ] || { echo "FAILED: $k:"; sed 's/^/  /' "$qb/$k.log"; }
done
# the conversions of the whole model (the table ones) against cp
worst_t=0 worst_m=0
for k in t8 t4 t4mse t4n t4b16 t8mm t4mmx t4a t4amx t4fzx; do
  eval "ok=\${ok_$k:-0} t=\${t_$k:-0} m=\${m_$k:-0}"
  [ "$ok" = 1 ] || continue
  case $k in t8 | t4 | t4n) r=$(ratio "$t" "$t_cp")
    worst_t=$(awk -v a="$worst_t" -v b="$r" 'BEGIN { print (b > a) ? b : a }') ;;
  t4b16) r_b16=$(ratio "$t" "$t_cp") ;;
  t4a) r_asym=$(ratio "$t" "$t_cp") ;;
  t4mse) r_mse=$(ratio "$t" "$t_cp") ;;
  esac
  [ "$m" -gt "$worst_m" ] && worst_m=$m
done
v=$(awk -v r="$worst_t" 'BEGIN { print (r > 0 && r <= 2) ? "met" : "MISSED" }')
echo "target: table quantization of the whole model within 2x of cp + sync (time / cp time; the INT8 and INT4 tables of the issue's variants, every form): $v (highest ${worst_t}x)"
# not one of the issue's variants: its scales (46 MiB) are more than the
# conversion keeps in memory (16 MiB), so the table is read three times
echo "  the slowest form, INT4 in blocks of 16 with FP32 scales: ${r_b16:-n/a}x cp + sync"
# nor the asymmetric option: its scale search (the smallest scale with
# rne(max / s) + rne(-min / s) <= Q) is a bisection per block, not vectorized
echo "  INT4 --asymmetric, blocks of 32 with FP16 scales: ${r_asym:-n/a}x cp + sync"
# nor the scale search (about ten estimates of each block's error)
echo "  INT4 --scale-method mse, blocks of 32 with FP16 scales: ${r_mse:-n/a}x cp + sync"
# the MatMul weights with float zero points (issue 26: within 2x of cp)
for k in w4 w4a w4fz; do
  eval "ok=\${ok_$k:-0} t=\${t_$k:-0} m=\${m_$k:-0}"
  [ "$ok" = 1 ] || { eval "r_$k=failed"; continue; }
  eval "r_$k=$(ratio "$t" "$t_cp")"
  [ "$m" -gt "$worst_m" ] && worst_m=$m
done
v=$(awk -v r="${r_w4fz:-0}" 'BEGIN { print (r > 0 && r <= 2) ? "met" : "MISSED" }')
echo "target: INT4 MatMul weights with the default scales (float zero points) within 2x of cp + sync: $v (${r_w4fz:-n/a}x; absmax ${r_w4:-n/a}x, integer zero points searched ${r_w4a:-n/a}x)"
echo "  the default writes the bytes of --zero-point float: $w4fz_same"
v=$(awk -v k="$worst_m" 'BEGIN { print (k > 0 && k <= 65536) ? "met" : "MISSED" }')
echo "target: every quantization in flat memory (peak RSS <= 64 MiB): $v (highest $(mib "$worst_m") MiB)"
"$cli" convert "$rr" "$qb/report.onnx" --gather-to int4 --format ort --block-size 32 --report -q |
  sed -n '/^quantized/,$p' | sed -n '1,4p' | sed 's/^/  report: /'
rm -f "$qb/report.onnx"
echo "  the same with --scale-method mse (searched scales):"
"$cli" convert "$rr" "$qb/report.onnx" --gather-to int4 --format ort --block-size 32 --report -q \
  --scale-method mse | sed -n '/^quantized/,$p' | sed -n '1,4p' | sed 's/^/  report: /'
rm -f "$qb/report.onnx"
need_ort_py
if [ "$ort_ok" = 1 ]; then
  # 100 different inputs as 50 runs of batch 2 (the input shape of sections
  # recipe and runtime), token ids spread over the vocabulary; the peak RSS
  # (VmHWM) is the process's after all the runs, with its heap (RssAnon) and
  # mapped file pages (RssFile: the runtime's binaries and the external data
  # onnxruntime maps) at the end. Each runtime (onnxruntime-node, and the
  # Python wheel when its venv can be made) is compared with the FP32 model
  # run in that same runtime.
  ref="$qb/fp32-100.json" refp="$qb/fp32-100-py.json"
  args="--batch 2 --runs 50 --tol 1"
  # shellcheck disable=SC2086
  r=$(node bench/ort_logits.js "$rr" $args --save "$ref" 2>&1 || true)
  rp=""
  # shellcheck disable=SC2086
  [ "$ort_py_ok" = 1 ] && rp=$("$ORT_PY" bench/ort_logits.py "$rr" $args --save "$refp" 2>&1 || true)
  echo "onnxruntime-node 1.30 and, below each, $ort_py_label; 100 inputs (50 runs of batch 2, seq 16,"
  echo "ids over the vocabulary): peak RSS (VmHWM; then the heap and the mapped file pages after the runs),"
  echo "max |logit - FP32 logit| (the FP32 model run in the same runtime)"
  oline() { # LABEL RESULT [DIFF]
    printf '  %-26s peak RSS %7s MiB (end: heap %6s, file %6s)  max_abs_diff %s\n' "$1" "$(mib "$(field "$2" hwm_kb)")" \
      "$(mib "$(field "$2" anon_kb)")" "$(mib "$(field "$2" file_kb)")" "${3:-$(field "$2" max_abs_diff)}"
  }
  # pyline LABEL RESULT [DIFF]: the Python wheel's row below node's
  pyline() {
    [ "$ort_py_ok" = 1 ] || return 0
    if [ -n "$(field "$2" hwm_kb)" ]; then oline "  [python]" "$2" "${3:-}"
    else printf '  %-26s run failed: %s\n' "  [python]" "$(echo "$2" | tail -n 1)"; fi
  }
  if [ -n "$(field "$r" hwm_kb)" ]; then oline "FP32 original" "$r" "-"; fi
  pyline "FP32 original" "$rp" "-"
  for v in bf16:bf16.onnx t8:int8-table.onnx t8mm:int8-table-mm.onnx t4:int4-table.onnx \
    t4mse:int4-table-mse.onnx t4n:int4-table-nibbles.onnx t4mmx:int4-table-mm-ext.onnx t4amx:int4a-table-mm-ext.onnx \
    t4fzx:int4-table-mm4fz-ext.onnx; do
    k=${v%%:*} f=${v#*:}
    eval "ok=\${ok_$k:-0}"
    if [ "$ok" != 1 ]; then printf '  %-26s FAILED (conversion)\n' "$f"; continue; fi
    # shellcheck disable=SC2086
    r=$(node bench/ort_logits.js "$qb/$f" $args --ref "$ref" 2>&1 || true)
    m=$(field "$r" hwm_kb) d=$(field "$r" max_abs_diff)
    eval "om_$k=${m:-0} od_$k=${d:-nan}"
    if [ -n "$m" ]; then oline "$f" "$r"; else printf '  %-26s run failed: %s\n' "$f" "$(echo "$r" | tail -n 1)"; fi
    if [ "$ort_py_ok" = 1 ]; then
      # shellcheck disable=SC2086
      rp=$("$ORT_PY" bench/ort_logits.py "$qb/$f" $args --ref "$refp" 2>&1 || true)
      m=$(field "$rp" hwm_kb) d=$(field "$rp" max_abs_diff)
      eval "pm_$k=${m:-0} pd_$k=${d:-nan}"
      pyline "$f" "$rp"
    fi
  done
  # the same 100 inputs in bigger batches: onnxruntime's arena keeps the
  # larger activations, so the heap grows with the batch
  if [ "${ok_t4mmx:-0}" = 1 ]; then
    for br in 10:10 100:1; do
      r=$(node bench/ort_logits.js "$qb/int4-table-mm-ext.onnx" --batch "${br%%:*}" --runs "${br#*:}" \
        --ref "$ref" --tol 1 2>&1 || true)
      [ -n "$(field "$r" hwm_kb)" ] && oline "  as ${br#*:} x batch ${br%%:*}" "$r"
    done
  fi
  within() { awk -v d="$1" -v t="$2" 'BEGIN { print (d != "" && d != "nan" && d + 0 <= t) ? 1 : 0 }'; }
  # targets of issue 12 (MB = 10^6 bytes: 100 MB = 95.4 MiB, 256 MB = 244.1 MiB)
  if [ "$(within "${od_t8:-}" 1e-2)" = 1 ]; then v=met; else v=MISSED; fi
  echo "target: INT8-table logits within 1e-2 of FP32: $v (${od_t8:-n/a})"
  d=$(awk -v a="${om_bf16:-0}" -v b="${om_t8:-0}" 'BEGIN { printf "%.0f", (a - b) * 1024 / 1e6 }')
  if [ "${om_bf16:-0}" -gt 0 ] && [ "${om_t8:-0}" -gt 0 ] && [ "$d" -ge 100 ]; then v=met; else v=MISSED; fi
  echo "target: INT8-table onnxruntime peak RSS at least 100 MB below the BF16 recipe's: $v ($(mib "${om_t8:-0}") vs $(mib "${om_bf16:-0}") MiB, ${d} MB less)"
  if [ "${om_t4mmx:-0}" -gt 0 ] && [ "${om_t4mmx:-0}" -lt 250000 ]; then v=met; else v=MISSED; fi
  echo "target: INT4 table + INT8 MatMul weights + external data under 256 MB (244.1 MiB) of onnxruntime peak RSS: $v ($(mib "${om_t4mmx:-0}") MiB)"
  # issue 26 replaced issue 12's 2e-2 logits target by onnxruntime's own
  # quantizer's accuracy on the same weights (section qpeers): reported here
  echo "reported (issue 26 replaced the 2e-2 target): that variant's logits ${od_t4mmx:-n/a}; with INT4 weights"
  echo "  (the default, float zero points; int4-table-mm4fz-ext): logits ${od_t4fzx:-n/a}, onnxruntime peak $(mib "${om_t4fzx:-0}") MiB"
  # the same figures in the Python wheel, side by side (the targets are
  # judged on onnxruntime-node's; a different verdict is said here)
  if [ "$ort_py_ok" = 1 ]; then
    echo "per runtime, onnxruntime-node 1.30 | $ort_py_label:"
    for k in bf16 t8 t4 t4mmx t4amx t4fzx; do
      eval "a=\${om_$k:-0} b=\${pm_$k:-0} c=\${od_$k:-n/a} d=\${pd_$k:-n/a}"
      printf '  %-6s peak RSS %7s | %7s MiB   max_abs_diff %9s | %9s\n' "$k" "$(mib "$a")" "$(mib "$b")" "$c" "$d"
    done
    v8=$(within "${pd_t8:-}" 1e-2) n8=$(within "${od_t8:-}" 1e-2)
    if [ "$v8" = "$n8" ]; then
      echo "runtimes: the Python wheel gives the same verdict on the logits target"
    else
      echo "runtimes DIFFER: the INT8 table's logits target in the Python wheel: $v8 (1 met, 0 missed)"
    fi
  fi
else
  echo "(onnxruntime-node missing: the onnxruntime rows and targets are not measured)"
fi
rm -rf "$qb"
