# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- the runtime footprint of each conversion in onnxruntime-node (CPU)
# (bench/ort_footprint.js) ---------------------------------------------------------
echo "== runtime: onnxruntime-node (CPU) memory and speed of the reranker after each conversion"
need_reranker
if [ "$ort_ok" != 1 ]; then
  echo "(onnxruntime-node is not available: section skipped)"
else
need_ort_py
ob="$B/bench/runtime"   # outputs of this section, removed at its end
rm -rf "$ob"; mkdir -p "$ob"
ort_runs=${BENCH_ORT_RUNS:-8}
ort_t0=$(date +%s%N)
# foot NAME MODEL KEEP ARENA [ARGS...]: one session, its line in $ob/NAME.txt
foot() {
  n=$1 mo=$2 k=$3 ar=$4; shift 4
  node bench/ort_footprint.js "$mo" --runs "$ort_runs" --keep "$k" --arena "$ar" "$@" > "$ob/$n.txt" 2> "$ob/$n.err" ||
    echo "status=failed" > "$ob/$n.txt"
}
# pyfoot NAME MODEL [ARGS...]: the same in onnxruntime's Python wheel
# (bench/ort_footprint.py), default setting
pyfoot() {
  n=$1 mo=$2; shift 2
  "$ORT_PY" bench/ort_footprint.py "$mo" --runs "$ort_runs" "$@" > "$ob/$n.txt" 2> "$ob/$n.err" ||
    echo "status=failed" > "$ob/$n.txt"
}
# disk PATH: bytes of PATH plus those of its external data files, in MiB
disk() {
  t=0
  for f in "$1" "$1".data; do [ -f "$f" ] && t=$((t + $(stat -L -c %s "$f"))); done
  mib $((t / 1024))
}
# line NAME LABEL SETTING DISK: one row of the table
line() {
  l=$(cat "$ob/$1.txt")
  case $(field "$l" status) in
    ok)
      printf '%-36s %-14s %7s %10s %9s %8s %8s %8s %7s %8s\n' "$2" "$3" "$4" \
        "$(mib "$(field "$l" hwm_create_kb)")" "$(mib "$(field "$l" hwm_runs_kb)")" \
        "$(mib "$(field "$l" anon_runs_kb)")" "$(mib "$(field "$l" file_runs_kb)")" "$(field "$l" create_s)" \
        "$(awk -v s="$(field "$l" run_s)" 'BEGIN { printf "%.0f", s * 1000 }')" "$(field "$l" max_abs_diff)" ;;
    refused)
      printf '%-36s %-14s %7s %s\n' "$2" "$3" "$4" "refused by onnxruntime: $(echo "$l" | sed 's/^status=refused error="//; s/"$//; s/^Load model from .* failed://' | cut -c1-100)" ;;
    *)
      printf '%-36s %-14s %7s %s\n' "$2" "$3" "$4" "FAILED (see $ob/$1.err)"; sed 's/^/    /' "$ob/$1.err" | head -5 ;;
  esac
}
# measure NAME LABEL MODEL [--save F]: the three session settings, one row each
measure() {
  nm=$1 lb=$2 mo=$3; shift 3
  d=$(disk "$mo")
  if [ $# -gt 0 ]; then foot "$nm-d" "$mo" 0 1 "$@"; else foot "$nm-d" "$mo" 0 1 --ref "$ob/ref.json"; fi
  line "$nm-d" "$lb" default "$d"
  # the Python wheel, default setting only (a subset: the three settings in
  # both runtimes would double the section's time), against its own FP32
  if [ "$ort_py_ok" = 1 ]; then
    if [ $# -gt 0 ]; then pyfoot "$nm-py" "$mo" --save "$ob/ref-py.json"; else pyfoot "$nm-py" "$mo" --ref "$ob/ref-py.json"; fi
    line "$nm-py" "  [python]" default "$d"
  fi
  # a model onnxruntime refuses is refused with any setting
  [ "$(field "$(cat "$ob/$nm-d.txt")" status)" = refused ] && return 0
  foot "$nm-k" "$mo" 1 1 --ref "$ob/ref.json"
  line "$nm-k" "" no-fold "$d"
  foot "$nm-a" "$mo" 1 0 --ref "$ob/ref.json"
  line "$nm-a" "" no-fold,-arena "$d"
}
echo "model: $rr; $ort_runs runs of batch 2 x seq 16 per session (BENCH_ORT_RUNS), token ids spread over the 250002-row vocabulary"
echo "settings: default = onnxruntime's defaults (all graph optimizations, CPU memory arena);"
echo "  no-fold = optimization.disable_specified_optimizers=ConstantFolding;FuseFp16InitializerToFp32NodeTransformer"
echo "  (the two optimizers that turn Cast(initializer) back into an FP32 initializer); no-fold,-arena = also enableCpuMemArena=false;"
echo "  no-prepack = session.disable_prepacking=1 (MatMul weights used in place, not copied to the heap in a packed layout)"
echo "every converted model is measured right after libonnxslim convert wrote it (its pages in the page cache as written);"
echo "  onnxruntime maps external data, so its file pages depend on that state: one row has the data file rewritten by cp"
echo "MiB: VmHWM (peak RSS) after session creation and after the runs; heap (RssAnon) and file pages (RssFile) after the runs;"
echo "create s = session creation time; run ms = the fastest run but the first; diff = max |logit - FP32 logit| over all runs"
[ "$ort_py_ok" = 1 ] && echo "[python]: the row above in $ort_py_label (bench/ort_footprint.py), default setting only; diff against the FP32 model in it"
printf '%-36s %-14s %7s %10s %9s %8s %8s %8s %7s %8s\n' "model" "setting" "disk" "hwm-create" "hwm-runs" "heap" "file" "create s" "run ms" "diff"
cat "$rr" > /dev/null
measure fp32 "FP32 original" "$rr" --save "$ob/ref.json"
foot fp32-p "$rr" 0 1 --prepack 0 --ref "$ob/ref.json"
line fp32-p "" no-prepack "$(disk "$rr")"
cv() { # NAME OUT ARGS...: libonnxslim convert of the reranker; its stderr kept
  n=$1 o=$2; shift 2
  "$B/libonnxslim" convert "$rr" "$o" "$@" > "$ob/$n.cv" 2>&1 || { echo "convert $n FAILED:"; sed 's/^/  /' "$ob/$n.cv"; return 1; }
}
x="--external-data --threshold 0"
no_verify=0 so_note=""
case $("$B/libonnxslim" convert --help 2>&1) in *--no-verify*) no_verify=1 ;; esac
if [ "$no_verify" = 1 ]; then
  if "$B/libonnxslim" convert "$rr" "$ob/so.onnx" --to fp16 --policy storage-only -q > "$ob/so.log" 2>&1; then
    so_note="libonnxslim convert wrote it (its --verify passed)"
  elif grep -q 'storage-only conversion to .* refused' "$ob/so.log"; then
    so_note="refused by libonnxslim (the conversion's schema check, also with --no-verify): $(sed -n 's/.*does not allow: //p' "$ob/so.log" | head -n 1)"
  else
    so_note="libonnxslim convert refuses to write it ($(grep -c -- '--verify:' "$ob/so.log") --verify findings, exit 1); written here with --no-verify to run it"
  fi
  rm -f "$ob/so.onnx"*
fi
# a storage-only conversion the library refuses prints "refused by libonnxslim"
# (not a failure of the section); any other failure is shown
cvso() { # NAME OUT LABEL ARGS...
  n=$1 o=$2 l=$3; shift 3
  if "$B/libonnxslim" convert "$rr" "$o" "$@" > "$ob/$n.cv" 2>&1; then return 0; fi
  if grep -q 'storage-only conversion to .* refused' "$ob/$n.cv"; then
    printf '%-36s %s\n' "$l" "refused by libonnxslim (type_constraint: nothing written)"
  else
    echo "convert $n FAILED:"
    sed 's/^/  /' "$ob/$n.cv"
  fi
  return 1
}
# the published recipe: BF16 Gather table, Cast after the Gather
if cv recipe1 "$ob/m.onnx" --gather-to bf16 --round truncate; then
  measure recipe1 "recipe bf16 table, 1 file" "$ob/m.onnx"; fi
rm -f "$ob/m.onnx"*
# shellcheck disable=SC2086
if cv recipex "$ob/m.onnx" --gather-to bf16 --round truncate $x; then
  measure recipex "recipe bf16 table, ext. data" "$ob/m.onnx"
  foot recipex-p "$ob/m.onnx" 0 1 --prepack 0 --ref "$ob/ref.json"
  line recipex-p "" no-prepack "$(disk "$ob/m.onnx")"
  # the same files with the data file rewritten by cp (small writes: other
  # page-cache folios; onnxruntime maps external data)
  cp "$ob/m.onnx.data" "$ob/cp.data" && mv "$ob/cp.data" "$ob/m.onnx.data"
  foot recipexcp "$ob/m.onnx" 0 1 --ref "$ob/ref.json"
  line recipexcp "  ... data file rewritten by cp" default "$(disk "$ob/m.onnx")"
fi
rm -f "$ob/m.onnx"*
for t in fp16 bf16; do
  for p in cast-before cast-after-gather storage-only; do
    # storage-only: libonnxslim's own check refuses to write it (--verify);
    # --no-verify writes it, to show what onnxruntime does with it
    # (the conversion itself refuses it when its readers' schemas do not
    # take the new type: then "refused by libonnxslim")
    nv=""
    [ "$p" = storage-only ] && [ "$no_verify" = 1 ] && nv=--no-verify
    # shellcheck disable=SC2086
    if cvso "$t-$p-1" "$ob/m.onnx" "--to $t $p, 1 file" --to "$t" --policy "$p" $nv; then
      measure "$t-$p-1" "--to $t $p, 1 file" "$ob/m.onnx"; fi
    rm -f "$ob/m.onnx"*
    # shellcheck disable=SC2086
    if cvso "$t-$p-x" "$ob/m.onnx" "--to $t $p, ext. data" --to "$t" --policy "$p" $x $nv; then
      measure "$t-$p-x" "--to $t $p, ext. data" "$ob/m.onnx"; fi
    rm -f "$ob/m.onnx"*
  done
done
[ -n "${so_note:-}" ] && echo "storage-only: $so_note"
echo "libonnxslim convert's fold-back warning (stderr), per conversion:"
for f in "$ob"/*.cv; do
  w=$(grep -m 1 'warning: .*Cast' "$f" || true)
  printf '  %-24s %s\n' "$(basename "$f" .cv)" "${w:-(none)}"
done
# what folding costs: the peak at session creation by default and with no-fold
for n in fp16-cast-before-x bf16-cast-before-x fp16-cast-after-gather-x bf16-cast-after-gather-x; do
  [ -f "$ob/$n-k.txt" ] || continue
  dd=$(field "$(cat "$ob/$n-d.txt")" hwm_create_kb) kk=$(field "$(cat "$ob/$n-k.txt")" hwm_create_kb)
  ad=$(field "$(cat "$ob/$n-d.txt")" anon_runs_kb) aa=$(field "$(cat "$ob/$n-a.txt")" anon_runs_kb)
  [ -n "$dd" ] && [ -n "$kk" ] &&
    echo "fold-back, $n: peak RSS at session creation $(mib "$dd") MiB by default, $(mib "$kk") MiB with no-fold; heap after the runs $(mib "$ad") MiB by default, $(mib "$aa") MiB with no-fold,-arena"
done
# the lowest peak after the runs, over every model and setting
best=$(for f in "$ob"/*-[dkap].txt "$ob"/recipexcp.txt; do
  [ -f "$f" ] || continue
  h=$(field "$(cat "$f")" hwm_runs_kb); [ -n "$h" ] && echo "$h $(basename "$f" .txt)"
done | sort -n | head -n 1)
[ -n "$best" ] && echo "lowest peak RSS after the runs: $(mib "${best%% *}") MiB (${best#* }; -d default, -k no-fold, -a no-fold,-arena, -p no-prepack)"
fp=$(field "$(cat "$ob/fp32-d.txt")" hwm_runs_kb)
rx=$(field "$(cat "$ob/recipex-d.txt" 2>/dev/null)" hwm_runs_kb)
[ -n "$fp" ] && [ -n "$rx" ] &&
  echo "headline: FP32 $(mib "$fp") MiB -> recipe with external data $(mib "$rx") MiB peak RSS in onnxruntime-node (CPU, default settings)"
echo "section time: $(secs "$ort_t0" "$(date +%s%N)") s"
rm -rf "$ob"
fi
