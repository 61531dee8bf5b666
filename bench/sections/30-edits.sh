# ---- edits at scale: a chain of N Add nodes, each reading its own FP32
# initializer (bench/make_chain.c builds it with the edit API, appends only),
# converted by `onnxslim convert --to fp16` with the default policy, which
# inserts one Cast per initializer. Time and peak RSS must grow like N. ------
echo "== edits at scale: build a chain of N Add nodes (edit API), then onnxslim convert --to fp16 (one Cast inserted per node)"
cc -std=c11 -O2 -Iinclude bench/make_chain.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/make_chain"
printf '%-8s %10s %14s %12s %14s %16s %14s\n' "nodes" "build (s)" "build RSS" "convert (s)" "convert RSS" "RSS per node" "Casts"
ch_prev="" ; ch_ratios="" ; ch_worst=0 ; ch_rows=0
for n in 1000 10000 100000; do
  c="$B/bench/chain-$n.onnx" co="$B/bench/chain-$n-fp16.onnx"
  bl=$(/usr/bin/time -f "%M" -o "$B/bench/chain.rss" "$B/bench/make_chain" "$n" "$c")
  bs=$(field "$bl" build_s); bm=$(tail -n 1 "$B/bench/chain.rss" | tr -cd 0-9)
  cat "$c" > /dev/null
  s0=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$B/bench/chain.rss" "$B/onnxslim" convert "$c" "$co" --to fp16 > /dev/null
  s1=$(date +%s%N)
  cs=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
  cm=$(tail -n 1 "$B/bench/chain.rss" | tr -cd 0-9)
  casts=$("$B/onnxslim" info "$co" 2>/dev/null | awk '$2 == "Cast" { print $1; exit }')
  printf '%-8s %10s %10s KiB %12s %10s KiB %12s KiB %14s\n' "$n" "$bs" "$bm" "$cs" "$cm" \
    "$(awk -v m="$cm" -v n="$n" 'BEGIN { printf "%.2f", m / n }')" "${casts:-?}"
  if [ -n "$ch_prev" ]; then
    set -- $ch_prev
    for r in "$(ratio "$bs" "$2")" "$(ratio "$bm" "$3")" "$(ratio "$cs" "$4")" "$(ratio "$cm" "$5")"; do
      ch_worst=$(awk -v a="$ch_worst" -v b="$r" 'BEGIN { print (b != "n/a" && b + 0 > a + 0) ? b : a }')
    done
    ch_ratios="$ch_ratios
  ${n}/$1 nodes: build time x$(ratio "$bs" "$2"), build RSS x$(ratio "$bm" "$3"), convert time x$(ratio "$cs" "$4"), convert RSS x$(ratio "$cm" "$5")"
  fi
  ch_prev="$n $bs $bm $cs $cm"
  ch_rows=$((ch_rows + 1))
  rm -f "$c" "$co"
done
echo "ratios between rows (10x more nodes each; linear growth is about x10):$ch_ratios"
if [ "$ch_rows" -lt 3 ]; then verdict="not measured ($ch_rows of 3 rows)"
elif awk -v w="$ch_worst" 'BEGIN { exit !(w <= 15) }'; then verdict="met (highest x$ch_worst)"
else verdict="MISSED (highest x$ch_worst)"; fi
echo "target: edits scale linearly: each 10x more nodes costs at most x15 in time and peak RSS (quadratic would be x100): $verdict"
rm -f "$B/bench/chain.rss"
