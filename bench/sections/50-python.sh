# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- the Python module: open the reranker and count its nodes, each in a
# fresh interpreter (bench/python_open.py), beside python onnx's onnx.load ----
echo "== python: open the 1.1 GB reranker and print its node count (fresh interpreter each run)"
need_reranker
cat "$rr" > /dev/null
po_best="" po_hwm=0 po_anon=0 po_file=0 po_n=0 po_runs=${BENCH_REPS:-5}
while [ "$po_n" -lt "$po_runs" ]; do
  po_n=$((po_n + 1))
  r=$(PYTHONPATH=python LIBONNXSLIM_LIBRARY="$Babs/libonnxslim.so.0" /usr/bin/python3 bench/python_open.py libonnxslim "$rr") || { echo "FAILED: $r"; break; }
  t=$(field "$r" total_ms)
  if [ -z "$po_best" ] || awk -v a="$t" -v b="$po_best" 'BEGIN { exit !(a < b) }'; then po_best=$t po_r=$r; fi
  v=$(field "$r" hwm_kb); if [ "$v" -gt "$po_hwm" ]; then po_hwm=$v; fi
  v=$(field "$r" anon_kb); if [ "$v" -gt "$po_anon" ]; then po_anon=$v; fi
  v=$(field "$r" file_kb); if [ "$v" -gt "$po_file" ]; then po_file=$v; fi
done
pn=$(/usr/bin/python3 bench/python_open.py onnx "$rr" 2>&1) || pn=""
if [ -n "$po_best" ]; then
  printf '%-40s %14s %14s %8s\n' "" "libonnxslim" "onnx.load" "ratio"
  pr() { printf '%-40s %14s %14s %8s\n' "$1" "$2" "${3:-n/a}" "$(ratio "${3:-0}" "$2")"; }
  pr "node count" "$(field "$po_r" nodes)" "$(field "$pn" nodes)"
  pr "import (ms)" "$(field "$po_r" import_ms)" "$(field "$pn" import_ms)"
  pr "open + count nodes (ms)" "$(field "$po_r" open_ms)" "$(field "$pn" open_ms)"
  pr "import + open + count (ms)" "$po_best" "$(field "$pn" total_ms)"
  pr "peak RSS above interpreter (MiB)" "$(mib "$po_hwm")" "$(mib "$(field "$pn" hwm_kb)")"
  pr "  heap growth, RssAnon (MiB)" "$(mib "$po_anon")" "$(mib "$(field "$pn" anon_kb)")"
  pr "  mapped file pages, RssFile (MiB)" "$(mib "$po_file")" "$(mib "$(field "$pn" file_kb)")"
  echo "libonnxslim: best of $po_runs runs (time), highest of them (memory); onnx.load: one run"
  v1=MISSED; awk -v a="$po_best" 'BEGIN { exit !(a < 100) }' && v1=met
  v2=MISSED; [ "$po_hwm" -lt 32768 ] && v2=met
  echo "target: < 100 ms ($v1) and < 32 MiB above the interpreter ($v2)"
fi
