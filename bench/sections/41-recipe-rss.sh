# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- the recipe with every mapped page counted, and its time next to cp:
# `libonnxslim convert --gather-to bf16 --external-data --threshold 0
# --also-single-file` (both outputs), peak RSS split into heap (RssAnon) and
# mapped file pages (RssFile), in the two page-cache states a model is found
# in (written with large writes: the page cache holds it in large folios, up
# to 2 MiB; copied with cp: small folios), phase by phase through the library
# API (bench/recipe_lib.c: open, statistics pass, save with external data,
# save as one file), on the reranker and on a model 4x larger built the same
# way (BENCH_4X=0 skips it: 4.4 GB to generate and 6 GB of outputs); then the
# wall time of the recipe next to `cp` writing the same bytes, interleaved,
# outputs synced, best of BENCH_REPS (5), with the recipe's CPU time (the machine is
# shared: a wall time far above its CPU time waited for a core or the disk) --
echo "== recipe memory and time: convert --gather-to bf16 --external-data --threshold 0 --also-single-file"
need_reranker
need_peak_rss
cc -std=c11 -O2 -Iinclude bench/recipe_lib.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/recipe_lib"
qb="$B/bench/rrss"
rm -rf "$qb"; mkdir -p "$qb/out"
trap 'rm -rf "$qb"' EXIT INT TERM
q_worst=0 q_rows=0
printf '%-22s %-13s %-32s %9s %9s %9s\n' "model" "page cache" "" "peak MiB" "heap MiB" "file MiB"
# qrow MODEL-LABEL STATE-LABEL FILE [--allow-large]: the CLI's recipe under
# bench/peak_rss, then the library API's phases
qrow() {
  rm -f "$qb/out/"*
  "$B/bench/peak_rss" "$B/libonnxslim" convert "$3" "$qb/out/x.onnx" --gather-to bf16 --external-data \
    --threshold 0 --also-single-file "$qb/out/s.onnx" $4 > /dev/null 2> "$qb/err" || true
  r=$(tail -n 1 "$qb/err")
  if [ "$(field "$r" exit)" = 0 ]; then
    printf '%-22s %-13s %-32s %9s %9s %9s\n' "$1" "$2" "libonnxslim convert (recipe)" "$(mib "$(field "$r" hwm_kb)")" \
      "$(mib "$(field "$r" anon_peak_kb)")" "$(mib "$(field "$r" file_peak_kb)")"
    k=$(field "$r" hwm_kb); [ "$k" -gt "$q_worst" ] && q_worst=$k; q_rows=$((q_rows + 1))
  else
    printf '%-22s %-13s %-32s FAILED: %s\n' "$1" "$2" "libonnxslim convert (recipe)" "$(head -n 1 "$qb/err")"
  fi
  rm -f "$qb/out/"*
  if ph=$("$B/bench/recipe_lib" "$3" "$qb/out/x.onnx" --external --also-single-file "$qb/out/s.onnx" $4 2> "$qb/err"); then
    for p in open:open convert:statistics save:"save, external data" save2:"save, one file"; do
      key=${p%%:*} label=${p#*:}
      printf '%-22s %-13s %-32s %9s %9s %9s\n' "" "" "  API: after $label" "$(mib "$(field "$ph" "hwm_${key}_kb")")" \
        "$(mib "$(field "$ph" "anon_${key}_kb")")" "$(mib "$(field "$ph" "file_${key}_kb")")"
    done
    k=$(field "$ph" hwm_kb); [ "$k" -gt "$q_worst" ] && q_worst=$k; q_rows=$((q_rows + 1))
    echo "$(printf '%-22s %-13s' "" "")   API phases (s): open $(field "$ph" open_s), statistics $(field "$ph" convert_s), save $(field "$ph" save_s), save one file $(field "$ph" save2_s)"
  else
    printf '%-22s %-13s %-32s FAILED: %s\n' "" "" "  API phases" "$(head -n 1 "$qb/err")"
  fi
  rm -f "$qb/out/"*
}
# two copies of $1: "$2-large.onnx" written with 64 MiB writes, "$2-cp.onnx" by cp
qstates() { dd if="$1" of="$2-large.onnx" bs=64M status=none && cp "$2-large.onnx" "$2-cp.onnx"; }
if qstates "$rr" "$qb/rr"; then
  qrow "reranker 1.1 GB" "large writes" "$qb/rr-large.onnx" ""
  qrow "" "cp" "$qb/rr-cp.onnx" ""
  rm -f "$qb/rr-large.onnx"
else
  echo "(could not copy $rr: reranker rows skipped)"
fi
if [ "${BENCH_4X:-1}" = 0 ]; then
  echo "(4x model skipped: BENCH_4X=0)"
elif [ "$(df -Pk "$qb" | awk 'NR == 2 { print $4 }')" -lt $((20 * 1048576)) ]; then
  echo "(4x model skipped: less than 20 GiB free on $(df -P "$qb" | awk 'NR == 2 { print $6 }'))"
else
  if "$B/bench/make_reranker" "$qb/rr4x.onnx" --layers 48 --vocab 1000008 --allow-large > "$qb/make.log" 2>&1 &&
    dd if="$qb/rr4x.onnx" of="$qb/rr4x-large.onnx" bs=64M status=none && rm -f "$qb/rr4x.onnx"; then
    qrow "4x: $(awk -v b="$(stat -c %s "$qb/rr4x-large.onnx")" 'BEGIN { printf "%.1f GB", b / 1e9 }')" "large writes" "$qb/rr4x-large.onnx" --allow-large
    rm -f "$qb/rr4x-large.onnx"
  else
    echo "(4x model: generating or copying failed: $(tail -n 1 "$qb/make.log"))"
  fi
fi
echo "peak: the CLI's VmHWM, heap and file the highest RssAnon / RssFile sampled (bench/peak_rss.c);"
echo "      API rows: VmHWM, RssAnon and RssFile after each phase (bench/recipe_lib.c)"
if [ "$q_rows" = 0 ]; then verdict="not measured (every run failed)"
elif [ "$q_worst" -le 65536 ]; then verdict="met (highest $(mib "$q_worst") MiB)"
else verdict="MISSED (highest $(mib "$q_worst") MiB)"; fi
echo "target: recipe peak RSS <= 64 MiB, file pages included, both page-cache states and the 4x model: $verdict"
# time: the recipe and cp of the same output bytes, interleaved, each run
# after a global sync and with its outputs synced, best of the runs
if [ -f "$qb/rr-cp.onnx" ]; then
  cat "$qb/rr-cp.onnx" > /dev/null
  rm -f "$qb/out/"*
  "$B/libonnxslim" convert "$qb/rr-cp.onnx" "$qb/x.onnx" --gather-to bf16 --external-data --threshold 0 \
    --also-single-file "$qb/s.onnx" > /dev/null 2>&1 || true
  nbytes=$(( $(stat -c %s "$qb/x.onnx") + $(stat -c %s "$qb/x.onnx.data") + $(stat -c %s "$qb/s.onnx") ))
  q_reps=${BENCH_REPS:-5} best_cp="" best_rc="" r=0 q_ok=1
  while [ "$r" -lt "$q_reps" ]; do
    r=$((r + 1))
    rm -f "$qb/out/"*; sync
    s0=$(date +%s%N)
    cp "$qb/x.onnx.data" "$qb/out/a"; cp "$qb/s.onnx" "$qb/out/b"; cp "$qb/x.onnx" "$qb/out/c"
    sync "$qb/out/a" "$qb/out/b" "$qb/out/c"
    s1=$(date +%s%N)
    rm -f "$qb/out/"*; sync
    t0=$(date +%s%N)
    "$B/bench/peak_rss" "$B/libonnxslim" convert "$qb/rr-cp.onnx" "$qb/out/x.onnx" --gather-to bf16 --external-data \
      --threshold 0 --also-single-file "$qb/out/s.onnx" > /dev/null 2> "$qb/err" || q_ok=0
    for f in "$qb/out/x.onnx" "$qb/out/x.onnx.data" "$qb/out/s.onnx"; do [ -f "$f" ] && sync "$f"; done
    t1=$(date +%s%N)
    tc=$(secs "$s0" "$s1") tr=$(secs "$t0" "$t1")
    echo "  run $r: cp $tc s, recipe $tr s ($(ratio "$tr" "$tc")x; its CPU time $(field "$(tail -n 1 "$qb/err")" cpu_s) s)"
    best_cp=$(awk -v a="$best_cp" -v b="$tc" 'BEGIN { print (a == "" || b < a) ? b : a }')
    best_rc=$(awk -v a="$best_rc" -v b="$tr" 'BEGIN { print (a == "" || b < a) ? b : a }')
  done
  echo "recipe on the reranker (after cp): best $best_rc s; cp of the same $nbytes bytes: best $best_cp s (best of $q_reps, interleaved, outputs synced)"
  q=$(ratio "$best_rc" "$best_cp")
  if [ "$q_ok" != 1 ]; then verdict="not measured (a recipe run failed)"
  elif awk -v q="$q" 'BEGIN { exit !(q <= 1.5) }'; then verdict="met (${q}x)"
  else verdict="MISSED (${q}x)"; fi
  echo "target: recipe wall time <= 1.5x cp of the same output bytes (best of $q_reps side by side, synced): $verdict"
  [ "$q_rows" = 0 ] || echo "headline: the recipe (BF16 Gather table, external data and one file) on the 1.1 GB reranker: peak RSS at most $(mib "$q_worst") MiB, file pages included; ${q}x the time of cp"
fi
rm -rf "$qb"
trap - EXIT INT TERM
