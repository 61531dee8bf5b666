# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- libonnxslim diff on two 1.1 GB models: memory stays flat (bench/peak_rss.c
# samples RssAnon / RssFile of /proc/PID/status; hwm is the kernel's peak) ----
echo "== diff: two 1.1 GB reranker models, compared tensor by tensor"
need_reranker
need_peak_rss
db="$B/bench/diff"
rm -rf "$db"; mkdir -p "$db/mod"
"$B/libonnxslim" split "$rr" "$db/ext.onnx" --threshold 0 2>/dev/null
cp "$db/ext.onnx" "$db/ext.onnx.data" "$db/mod/"
# one bit of one weight changed, in the middle of the data file
/usr/bin/python3 -c "
import os, sys
p = sys.argv[1]; off = (os.path.getsize(p) // 2) & ~3
with open(p, 'r+b') as f:
    f.seek(off); b = f.read(1); f.seek(off); f.write(bytes([b[0] ^ 1]))" "$db/mod/ext.onnx.data"
cat "$rr" "$db/ext.onnx.data" "$db/mod/ext.onnx.data" > /dev/null
two=$(( $(stat -c %s "$rr") + $(stat -c %s "$db/ext.onnx.data") ))
printf '%-52s %8s %9s %12s %12s %12s %10s\n' "" "exit" "wall (s)" "peak (MiB)" "heap (MiB)" "file (MiB)" "data/peak"
diffrow() { # LABEL ARGS...
  label=$1; shift
  "$B/bench/peak_rss" "$B/libonnxslim" diff "$@" > "$db/out" 2> "$db/err" || true   # exit 1 = differences: in the table
  pr=$(tail -n 1 "$db/err")
  printf '%-52s %8s %9s %12s %12s %12s %10s\n' "$label" "$(field "$pr" exit)" "$(field "$pr" wall_s)" \
    "$(mib "$(field "$pr" hwm_kb)")" "$(mib "$(field "$pr" anon_peak_kb)")" "$(mib "$(field "$pr" file_peak_kb)")" \
    "$(ratio "$((two / 1024))" "$(field "$pr" hwm_kb)")"
}
diffrow "single file vs external data (equal)" "$rr" "$db/ext.onnx"
diffrow "  ... --storage (every tensor listed)" --storage "$rr" "$db/ext.onnx"
diffrow "one bit of one weight changed (every tensor read)" "$rr" "$db/mod/ext.onnx"
echo "  the change found: $(head -n 1 "$db/out" | cut -c 1-110)"
echo "  data compared: $two bytes ($(mib $((two / 1024))) MiB); peak = the kernel's VmHWM, heap/file = highest RssAnon/RssFile sampled"
rm -rf "$db"
