# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- simplification and inference at scale: `libonnxslim simplify` and
# `libonnxslim infer` (its listing to /dev/null) on chains of 100k and 1M
# nodes (bench/make_slimmable.c chain: units of Identity, Add, Cast, Shape,
# Reshape; a simplifier leaves the Adds), wall time and peak RSS
# (bench/peak_rss: VmHWM, heap and file pages) best of BENCH_REPS (3) runs,
# the two sizes interleaved. Target of issue 28: the 1M chain at most 12x
# the time and the memory of the 100k one (linear in nodes).
# The reranker and a 4 GB model next to cp, and a model larger than the
# memory limit: section simplify-big (42-simplify-big.sh).
echo "== simplify-scale: 100k vs 1M-node chains, simplify and infer"
need_peak_rss
cc -std=c11 -O2 -Iinclude bench/make_slimmable.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/make_slimmable"
sb="$B/bench/sscale"
rm -rf "$sb"; mkdir -p "$sb"
trap 'rm -rf "$sb"' EXIT INT TERM
s_reps=${BENCH_REPS:-3}
for n in 100000 1000000; do "$B/bench/make_slimmable" chain "$n" "$sb/c$n.onnx" > /dev/null; done
# srun CMD N: one run under peak_rss; keeps the best wall time and peak
# (in variables best_CMD_N_s / best_CMD_N_kb); a failure prints its line
srun() {
  if [ "$1" = simplify ]; then
    set -- "$1" "$2" "$B/libonnxslim" simplify "$sb/c$2.onnx" "$sb/out.onnx"
  else
    set -- "$1" "$2" "$B/libonnxslim" infer "$sb/c$2.onnx"
  fi
  c=$1 n=$2; shift 2
  if ! "$B/bench/peak_rss" "$@" > /dev/null 2> "$sb/err"; then
    echo "$c $n FAILED: $(head -n 1 "$sb/err")"
    return 0
  fi
  r=$(tail -n 1 "$sb/err")
  w=$(field "$r" wall_s) k=$(field "$r" hwm_kb)
  eval "ow=\${best_${c}_${n}_s:-} ok=\${best_${c}_${n}_kb:-}"
  if [ -z "$ow" ] || awk -v a="$w" -v b="$ow" 'BEGIN { exit !(a < b) }'; then eval "best_${c}_${n}_s=$w"; fi
  if [ -z "$ok" ] || [ "$k" -lt "$ok" ]; then eval "best_${c}_${n}_kb=$k"; fi
  rm -f "$sb/out.onnx" "$sb/out.onnx.data"
}
i=0
while [ "$i" -lt "$s_reps" ]; do
  for n in 100000 1000000; do
    srun simplify "$n"
    srun infer "$n"
  done
  i=$((i + 1))
done
# the 1M chain's result: N / 5 Adds left
"$B/libonnxslim" simplify --json "$sb/c1000000.onnx" "$sb/out.onnx" > "$sb/json" 2>&1 || true
s_after=$(sed -n 's/^    "nodes_after": \([0-9]*\),*$/\1/p' "$sb/json" | head -n 1)
rm -f "$sb/out.onnx"
printf '%-10s %10s %10s %12s\n' "command" "nodes" "wall s" "peak MiB"
for c in simplify infer; do
  for n in 100000 1000000; do
    eval "w=\${best_${c}_${n}_s:-n/a} k=\${best_${c}_${n}_kb:--1}"
    printf '%-10s %10s %10s %12s\n' "$c" "$n" "$w" "$(mib "$k")"
  done
done
echo "simplify of the 1M chain leaves ${s_after:-?} nodes (200000 Adds expected)"
for c in simplify infer; do
  eval "w0=\${best_${c}_100000_s:-0} w1=\${best_${c}_1000000_s:-0} k0=\${best_${c}_100000_kb:-0} k1=\${best_${c}_1000000_kb:-0}"
  tr=$(ratio "$w1" "$w0") mr=$(ratio "$k1" "$k0")
  v=$(awk -v t="$tr" -v m="$mr" 'BEGIN { print (t != "n/a" && m != "n/a" && t <= 12 && m <= 12) ? "met" : "MISSED" }')
  echo "target: $c of a 1M-node chain at most 12x the time and peak RSS of a 100k one: ${tr}x, ${mr}x: $v"
done
rm -rf "$sb"
trap - EXIT INT TERM
