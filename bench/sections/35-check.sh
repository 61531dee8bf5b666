# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- onnxslim_check (structure and operator schemas): on the 1.1 GB reranker
# it must read no weight bytes (time in milliseconds, resident growth a few
# hundred KiB at most, no file pages), and on chains of N Add nodes
# (bench/make_chain.c) its time must grow like N. bench/bench_check.c times
# the fastest of several checks of a model opened once, in CPU time of the
# process (CLOCK_PROCESS_CPUTIME_ID), not wall time: on a shared machine the
# time spent waiting for a core is not the check's.
# Chains are timed two ways. "cold": before each check bench_check writes
# 512 MiB of other memory (twice the 260 MiB L3 of the bench machine), so
# that every size starts with the model and the check's maps out of the CPU
# caches, as one check of a model does; the linearity target is judged on
# it. "warm":
# checks back to back, printed for information: a 10k chain (about 5 MB of
# model structures and maps) stays in the caches from one check to the
# next, a 100k one (about 50 MB) does not, so warm 10k -> 100k measures the
# caches' size as much as the check (x16-x17 warm where cold is x13). The 1k row
# is printed but not judged. The number of map operations per node is the
# same at every size; the maps are sized once from the node and value
# counts, never rehashed. The 1M row needs about 2 GB while make_chain
# builds it. ---------------------------------------------------------------
echo "== check: the reranker (no weight pages) and chains of N nodes (linear)"
cc -std=c11 -O2 -Iinclude bench/bench_check.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/bench_check"
need_reranker
cat "$rr" > /dev/null
r=$("$B/bench/bench_check" "$rr" 5)
echo "reranker ($(stat -L -c %s "$rr") bytes, $(field "$r" nodes) nodes): open $(field "$r" open_ms) ms, check $(field "$r" check_ms) ms, resident growth $(field "$r" rss_growth_kb) KiB (file pages $(field "$r" file_growth_kb) KiB), $(field "$r" problems) problems"
cms=$(field "$r" check_ms); grow=$(field "$r" rss_growth_kb); fgrow=$(field "$r" file_growth_kb)
if [ -z "$cms" ]; then verdict="not measured"
elif awk -v t="$cms" -v g="$grow" -v f="$fgrow" 'BEGIN { exit !(t < 50 && g < 4096 && f < 1024) }'; then
  verdict="met ($cms ms, resident +$grow KiB, file pages +$fgrow KiB)"
else verdict="MISSED ($cms ms, resident +$grow KiB, file pages +$fgrow KiB)"; fi
echo "target: checking the 1.1 GB reranker takes under 50 ms and maps no weight pages (resident growth < 4 MiB, file pages < 1 MiB): $verdict"

cc -std=c11 -O2 -Iinclude bench/make_chain.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/make_chain"
echo "(check time: CPU time of the process, fastest of several checks; cold: each check starts"
echo " with the caches evicted, 512 MiB written before it; warm: checks back to back)"
printf '%-8s %12s %16s %12s %16s %10s\n' "nodes" "cold (ms)" "cold/node (us)" "warm (ms)" "warm/node (us)" "problems"
ck_prev="" ; ck_ratios="" ; ck_worst=0 ; ck_rows=0
for n in 1000 10000 100000 1000000; do
  c="$B/bench/check-chain-$n.onnx"
  "$B/bench/make_chain" "$n" "$c" > /dev/null
  rep=$((2000000 / n)); [ "$rep" -ge 3 ] || rep=3
  r=$("$B/bench/bench_check" "$c" "$rep")
  w=$(field "$r" check_ms)
  r=$("$B/bench/bench_check" "$c" 7 512)
  t=$(field "$r" check_ms)
  printf '%-8s %12s %16s %12s %16s %10s\n' "$n" "$t" "$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.3f", t * 1000 / n }')" \
    "$w" "$(awk -v t="$w" -v n="$n" 'BEGIN { printf "%.3f", t * 1000 / n }')" "$(field "$r" problems)"
  if [ -n "$ck_prev" ]; then
    set -- $ck_prev
    x=$(ratio "$t" "$2")
    xw=$(ratio "$w" "$3")
    if [ "$1" -ge 10000 ]; then
      ck_worst=$(awk -v a="$ck_worst" -v b="$x" 'BEGIN { print (b != "n/a" && b + 0 > a + 0) ? b : a }')
      ck_ratios="$ck_ratios
  ${n}/$1 nodes: cold x$x (warm x$xw, not judged)"
    else
      ck_ratios="$ck_ratios
  ${n}/$1 nodes: cold x$x (warm x$xw; not judged: 1k nodes)"
    fi
  fi
  ck_prev="$n $t $w"
  ck_rows=$((ck_rows + 1))
  rm -f "$c"
done
echo "ratios between rows (10x more nodes each; linear growth is about x10):$ck_ratios"
if [ "$ck_rows" -lt 4 ]; then verdict="not measured ($ck_rows of 4 rows)"
elif awk -v w="$ck_worst" 'BEGIN { exit !(w <= 15) }'; then verdict="met (highest x$ck_worst, cold)"
else verdict="MISSED (highest x$ck_worst, cold)"; fi
echo "target: checking a graph scales linearly: each 10x more nodes from 10k to 1M costs at most x15 in time, each check starting with cold caches (quadratic would be x100): $verdict"
