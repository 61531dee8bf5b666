# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- open and inspect with every mapped page counted: `libonnxslim info` and
# Python's libonnxslim.load + node count, peak RSS split into heap (RssAnon)
# and mapped file pages (RssFile), in the two page-cache states a model is
# found in: written with large writes (onnx.save, an exporter, a download:
# the page cache holds it in large folios, up to 2 MiB) and copied with cp
# (small folios); on the reranker and on a model 4x larger built the same
# way (BENCH_4X=0 skips it: 1.5 minutes and 13 GB of writes, deleted after) --
echo "== memory: open and inspect, counting mapped file pages (libonnxslim info; python libonnxslim.load + node count)"
need_reranker
need_peak_rss
mb="$B/bench/rss"
rm -rf "$mb"; mkdir -p "$mb"
trap 'rm -rf "$mb"' EXIT INT TERM
# two copies of $1: "$2-large.onnx" written with 64 MiB writes, "$2-cp.onnx" by cp
states() {
  dd if="$1" of="$2-large.onnx" bs=64M status=none && cp "$2-large.onnx" "$2-cp.onnx"
}
rss_worst=0 rss_rows=0
printf '%-22s %-14s %-26s %11s %11s %11s\n' "model" "page cache" "" "peak (MiB)" "heap (MiB)" "file (MiB)"
rssrow() { # MODEL-LABEL STATE-LABEL FILE
  "$B/bench/peak_rss" "$B/libonnxslim" info "$3" > /dev/null 2> "$mb/err" || true   # a failure is a FAILED row
  r=$(tail -n 1 "$mb/err")
  if [ "$(field "$r" exit)" = 0 ]; then
    printf '%-22s %-14s %-26s %11s %11s %11s\n' "$1" "$2" "libonnxslim info" "$(mib "$(field "$r" hwm_kb)")" \
      "$(mib "$(field "$r" anon_peak_kb)")" "$(mib "$(field "$r" file_peak_kb)")"
    k=$(field "$r" hwm_kb); [ "$k" -gt "$rss_worst" ] && rss_worst=$k; rss_rows=$((rss_rows + 1))
  else
    printf '%-22s %-14s %-26s FAILED: %s\n' "$1" "$2" "libonnxslim info" "$(head -n 1 "$mb/err")"
  fi
  r=$(PYTHONPATH=python LIBONNXSLIM_LIBRARY="$Babs/libonnxslim.so.0" /usr/bin/python3 bench/python_open.py libonnxslim "$3" 2>&1) || r=""
  if [ -n "$r" ]; then
    printf '%-22s %-14s %-26s %11s %11s %11s\n' "" "" "python load + node count" "$(mib "$(field "$r" hwm_kb)")" \
      "$(mib "$(field "$r" anon_kb)")" "$(mib "$(field "$r" file_kb)")"
    k=$(field "$r" hwm_kb); [ "$k" -gt "$rss_worst" ] && rss_worst=$k; rss_rows=$((rss_rows + 1))
  else
    printf '%-22s %-14s %-26s FAILED\n' "" "" "python load + node count"
  fi
}
if states "$rr" "$mb/rr"; then
  rssrow "reranker 1.1 GB" "large writes" "$mb/rr-large.onnx"
  rssrow "" "cp" "$mb/rr-cp.onnx"
else
  echo "(could not copy $rr: reranker rows skipped)"
fi
rm -f "$mb/rr-large.onnx" "$mb/rr-cp.onnx"
if [ "${BENCH_4X:-1}" = 0 ]; then
  echo "(4x model skipped: BENCH_4X=0)"
elif [ "$(df -Pk "$mb" | awk 'NR == 2 { print $4 }')" -lt $((14 * 1048576)) ]; then
  echo "(4x model skipped: less than 14 GiB free on $(df -P "$mb" | awk 'NR == 2 { print $6 }'))"
else
  if "$B/bench/make_reranker" "$mb/rr4x.onnx" --layers 48 --vocab 1000008 --allow-large > "$mb/make.log" 2>&1 &&
    dd if="$mb/rr4x.onnx" of="$mb/rr4x-large.onnx" bs=64M status=none && rm -f "$mb/rr4x.onnx" &&
    cp "$mb/rr4x-large.onnx" "$mb/rr4x-cp.onnx"; then
    rssrow "4x: $(awk -v b="$(stat -c %s "$mb/rr4x-cp.onnx")" 'BEGIN { printf "%.1f GB", b / 1e9 }'), 48 layers" "large writes" "$mb/rr4x-large.onnx"
    rssrow "vocab 1000008" "cp" "$mb/rr4x-cp.onnx"
  else
    echo "(4x model: generating or copying failed: $(tail -n 1 "$mb/make.log"))"
  fi
fi
rm -rf "$mb"
trap - EXIT INT TERM
echo "peak: libonnxslim info: the process's VmHWM, heap and file the highest RssAnon / RssFile sampled (bench/peak_rss.c);"
echo "      python: VmHWM above the bare interpreter, heap and file the growth of RssAnon / RssFile (bench/python_open.py)"
if [ "$rss_rows" = 0 ]; then verdict="not measured (every run failed)"
elif [ "$rss_worst" -le 16384 ]; then verdict="met (highest $(mib "$rss_worst") MiB)"
else verdict="MISSED (highest $(mib "$rss_worst") MiB)"; fi
echo "target: peak RSS <= 16 MiB, file pages included, in both page-cache states (every row above): $verdict"
[ "$rss_rows" = 0 ] || echo "headline: opening and inspecting a model (libonnxslim info, python libonnxslim.load): peak RSS at most $(mib "$rss_worst") MiB, file pages included, whatever the model's size"
