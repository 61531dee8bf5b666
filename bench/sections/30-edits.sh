# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- edits at scale: a chain of N Add nodes, each reading its own FP32
# initializer (bench/make_chain.c builds it with the edit API, appends only),
# converted by `libonnxslim convert --to fp16` with the default policy, which
# inserts one Cast per initializer. Time and peak RSS must grow like N. ------
echo "== edits at scale: build a chain of N Add nodes (edit API), then libonnxslim convert --to fp16 (one Cast inserted per node)"
need_peak_rss
cc -std=c11 -O2 -Iinclude bench/make_chain.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/make_chain"
# best3 FILE: of three peak_rss lines, the lowest wall time, the lowest
# CPU time (user + sys, microsecond resolution) and the highest peak RSS
# (only peak_rss's own lines count: the command's stderr goes to the same
# file); n/a unless all three runs were measured
best3() {
  awk '/^peak_rss: / {
         for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
         if (n == 0 || v["wall_s"] < w) w = v["wall_s"]
         if (n == 0 || v["cpu_s"] < c) c = v["cpu_s"]
         if (v["hwm_kb"] > m) m = v["hwm_kb"]
         n++
       }
       END { if (n == 3) printf "%.2f %.3f %d\n", w, c, m; else print "n/a n/a n/a" }' "$1"
}
# Each row is built and converted three times; the table gives the best.
# Times are CPU seconds (user + sys) of the process: on a shared machine the
# wall time of a run includes waiting for a core, which says nothing about
# how the work grows; the wall time is printed alongside.
printf '%-8s %10s %10s %14s %12s %12s %14s %16s %8s\n' "nodes" "build cpu" "build wall" "build RSS" "convert cpu" "convert wall" "convert RSS" "RSS per node" "Casts"
ch_prev="" ; ch_ratios="" ; ch_worst=0 ; ch_rows=0 ; ch_na=0
for n in 1000 10000 100000; do
  c="$B/bench/chain-$n.onnx" co="$B/bench/chain-$n-fp16.onnx"
  : > "$B/bench/chain.build"
  : > "$B/bench/chain.convert"
  for run in 1 2 3; do
    "$B/bench/peak_rss" "$B/bench/make_chain" "$n" "$c" 2>> "$B/bench/chain.build" > /dev/null
    cat "$c" > /dev/null
    "$B/bench/peak_rss" "$B/libonnxslim" -q convert "$c" "$co" --to fp16 2>> "$B/bench/chain.convert" > /dev/null
  done
  set -- $(best3 "$B/bench/chain.build")
  bw=$1 bs=$2 bm=$3
  set -- $(best3 "$B/bench/chain.convert")
  cw=$1 cs=$2 cm=$3
  casts=$("$B/libonnxslim" info "$co" 2>/dev/null | awk '$2 == "Cast" { print $1; exit }')
  printf '%-8s %10s %10s %10s KiB %12s %12s %10s KiB %12s KiB %8s\n' "$n" "$bs" "$bw" "$bm" "$cs" "$cw" "$cm" \
    "$(awk -v m="$cm" -v n="$n" 'BEGIN { printf "%.2f", m / n }')" "${casts:-?}"
  if [ -n "$ch_prev" ]; then
    set -- $ch_prev
    for r in "$(ratio "$bs" "$2")" "$(ratio "$bm" "$3")" "$(ratio "$cs" "$4")" "$(ratio "$cm" "$5")"; do
      ch_worst=$(awk -v a="$ch_worst" -v b="$r" 'BEGIN { print (b != "n/a" && b + 0 > a + 0) ? b : a }')
      [ "$r" != "n/a" ] || ch_na=$((ch_na + 1))
    done
  fi
  if [ -n "$ch_prev" ]; then
    set -- $ch_prev
    ch_ratios="$ch_ratios
  ${n}/$1 nodes: build cpu x$(ratio "$bs" "$2"), build RSS x$(ratio "$bm" "$3"), convert cpu x$(ratio "$cs" "$4"), convert RSS x$(ratio "$cm" "$5")"
  fi
  ch_prev="$n $bs $bm $cs $cm"
  ch_rows=$((ch_rows + 1))
  rm -f "$c" "$co"
done
echo "ratios between rows (10x more nodes each; linear growth is about x10):$ch_ratios"
if [ "$ch_rows" -lt 3 ]; then verdict="not measured ($ch_rows of 3 rows)"
elif [ "$ch_na" -gt 0 ]; then verdict="not measured ($ch_na ratios n/a)"
elif awk -v w="$ch_worst" 'BEGIN { exit !(w <= 15) }'; then verdict="met (highest x$ch_worst)"
else verdict="MISSED (highest x$ch_worst)"; fi
echo "target: edits scale linearly: each 10x more nodes costs at most x15 in CPU time and peak RSS (quadratic would be x100): $verdict"
rm -f "$B/bench/chain.build" "$B/bench/chain.convert"
