# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
echo "== load cost: two models that differ only in the size of the embedding table (10x)"
need_bert
cc -std=c11 -O2 -Iinclude bench/bench_load.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench_load"
cat "$small" "$large" > /dev/null   # same (warm) page-cache state for both
ss=$(stat -c %s "$small"); ls_=$(stat -c %s "$large")
s=$("$B/bench_load" "$small" 7); l=$("$B/bench_load" "$large" 7)
ps=$(/usr/bin/python3 bench/onnx_load.py "$small" 3); pl=$(/usr/bin/python3 bench/onnx_load.py "$large" 3)
printf '%-34s %14s %14s %8s\n' "" "vocab 25k" "vocab 250k" "ratio"
printf '%-34s %14s %14s %8s\n' "file size (bytes)" "$ss" "$ls_" "$(ratio "$ls_" "$ss")"
printf '%-34s %14s %14s %8s\n' "libonnxslim open+walk (ms)" "$(field "$s" load_ms)" "$(field "$l" load_ms)" "$(ratio "$(field "$l" load_ms)" "$(field "$s" load_ms)")"
printf '%-34s %14s %14s %8s\n' "libonnxslim resident growth (KiB)" "$(field "$s" rss_kb)" "$(field "$l" rss_kb)" "$(ratio "$(field "$l" rss_kb)" "$(field "$s" rss_kb)")"
printf '%-34s %14s %14s %8s\n' "python onnx.load (ms)" "$(field "$ps" load_ms)" "$(field "$pl" load_ms)" "$(ratio "$(field "$pl" load_ms)" "$(field "$ps" load_ms)")"
printf '%-34s %14s %14s %8s\n' "python resident growth (KiB)" "$(field "$ps" rss_kb)" "$(field "$pl" rss_kb)" "$(ratio "$(field "$pl" rss_kb)" "$(field "$ps" rss_kb)")"
echo "libonnxslim vs python on the 250k model: $(ratio "$(field "$pl" load_ms)" "$(field "$l" load_ms)")x faster, $(ratio "$(field "$pl" rss_kb)" "$(field "$l" rss_kb)")x less resident growth"
