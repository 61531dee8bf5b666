#!/bin/sh
# libonnxslim benchmarks (`make bench`). Each prints figures measured side by
# side in this run, and their ratios. Nothing here is a pass/fail test.
set -eu
B=${B:-build}
cc -std=c11 -O2 -Iinclude bench/bench_load.c -L"$B" -lonnxslim -Wl,-rpath,"$PWD/$B" -o "$B/bench_load"
mkdir -p "$B/bench"

echo "== load cost: two models that differ only in the size of the embedding table (10x)"
small="$B/bench/bert-vocab25k.onnx"
large="$B/bench/bert-vocab250k.onnx"
[ -f "$small" ] || /usr/bin/python3 test/gen/make_bert.py "$small" --vocab 25000 --hidden 256 --layers 2 --heads 4 --ffn 256 >/dev/null
[ -f "$large" ] || /usr/bin/python3 test/gen/make_bert.py "$large" --vocab 250000 --hidden 256 --layers 2 --heads 4 --ffn 256 >/dev/null
cat "$small" "$large" > /dev/null   # same (warm) page-cache state for both
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "n/a"; else printf "%.2f", a / b }'; }
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

echo
echo "== save cost: unedited round trip of the 250k model vs cp"
t0=$(date +%s%N); "$B/onnxslim" convert "$large" "$B/bench/copy.onnx"; t1=$(date +%s%N)
cp "$large" "$B/bench/cp.onnx"; sync "$B/bench/cp.onnx"; t2=$(date +%s%N)
cmp -s "$large" "$B/bench/copy.onnx" && same=identical || same=DIFFERENT
conv_ms=$(( (t1 - t0) / 1000000 )); cp_ms=$(( (t2 - t1) / 1000000 ))
echo "onnxslim convert (load + atomic save + fsync): ${conv_ms} ms, output $same; cp + sync: ${cp_ms} ms; ratio $(ratio "$conv_ms" "$cp_ms")"
/usr/bin/time -f "onnxslim convert peak RSS: %M KiB" "$B/onnxslim" convert "$large" "$B/bench/copy.onnx"
rm -f "$B/bench/copy.onnx" "$B/bench/cp.onnx"
