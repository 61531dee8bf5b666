# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Beyond 2 GiB of external data. test/external/make_large.c builds a model
# whose Gather table of 1,000,000 x 600 FP32 (2.4 GB) lives in a sparse file
# (ftruncate: a few rows hold values, the rest are holes), then, in one
# process: loads it, fingerprints it, converts the table to BF16 with
# onnxslim_convert_gather_tables(), saves it with external data
# (threshold 0, align 4096), reloads it and checks the converted tensor's
# type, dims, size and values, and that fingerprints are stable across the
# save and reload. A second process saves the FP32 model with external data
# (2.4 GB of unchanged bytes, copied by copy_file_range), reloads it and
# compares. The peak RSS of each process (/usr/bin/time -f %M) must stay
# under 512 MiB: tensor bytes are mapped and streamed, never held.
# Then a single-file model over 2 GiB (sparse) is copied by `libonnxslim
# convert --allow-large` and `merge --allow-large`, and refused without it.
# The big files are removed at the end. Needs ~4 GB of free disk.
set -u
B=${B:-build}
work="$B/external-large"
MAX_RSS_KB=$((512 * 1024))
passed=0 failed=0 skipped=0

pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
finish() {
  rm -rf "$work"
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ] && exit 0
  exit 1
}

[ -f "$B/libonnxslim.so" ] || make -s all >/dev/null || { fail "make all"; finish; }
cc -std=c11 -O2 -Wall -Wextra -Werror -Wno-unused-function -Iinclude -Itest -I"$B/config" test/external/make_large.c -L"$B" \
  -lonnxslim -Wl,-rpath,"$PWD/$B" -o "$B/make_large" || { fail "build $B/make_large"; finish; }

rm -rf "$work"
mkdir -p "$work/in" "$work/out"
avail_kb=$(df -Pk "$work" | awk 'NR == 2 {print $4}')
if [ "${avail_kb:-0}" -lt $((5 * 1024 * 1024)) ]; then
  echo "less than 5 GB free in $work: skipping"
  skipped=1
  finish
fi

start=$(date +%s)
if "$B/make_large" make "$work/in"; then
  pass "made $work/in/table.bin: $(du -k --apparent-size "$work/in/table.bin" | cut -f1) KiB apparent, $(du -k "$work/in/table.bin" | cut -f1) KiB on disk"
else
  fail "make_large make"
  finish
fi

# run MODE OUTDIR: make_large MODE under /usr/bin/time; counts its PASS/FAIL
# lines and checks its peak RSS
run() {
  mode=$1 out=$2
  mkdir -p "$out"
  t0=$(date +%s)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$work/rss.$mode.txt" "$B/make_large" "$mode" "$work/in" "$out" \
      >"$work/$mode.txt" 2>&1
    rc=$?
  else
    "$B/make_large" "$mode" "$work/in" "$out" >"$work/$mode.txt" 2>&1
    rc=$?
  fi
  echo "---- make_large $mode ($(( $(date +%s) - t0 ))s)"
  cat "$work/$mode.txt"
  passed=$((passed + $(grep -c '^PASS' "$work/$mode.txt")))
  failed=$((failed + $(grep -c '^FAIL' "$work/$mode.txt")))
  grep -qE '^(PASS|FAIL)' "$work/$mode.txt" || fail "make_large $mode printed no results (exit $rc)"
  [ $rc -eq 0 ] || [ "$(grep -c '^FAIL' "$work/$mode.txt")" -gt 0 ] || fail "make_large $mode exited with $rc"
  if [ -s "$work/rss.$mode.txt" ]; then
    rss=$(tail -n 1 "$work/rss.$mode.txt")
    if [ "$rss" -lt $MAX_RSS_KB ] 2>/dev/null; then
      pass "$mode: peak RSS $((rss / 1024)) MiB < $((MAX_RSS_KB / 1024)) MiB (2.4 GB of data)"
    else
      fail "$mode: peak RSS ${rss} KiB >= $MAX_RSS_KB KiB"
    fi
  else
    echo "/usr/bin/time not available: peak RSS not measured"
    skipped=$((skipped + 1))
  fi
  ls -ls "$out"
  rm -rf "$out"
}

# load, fingerprint, convert to BF16, save external, reload, check
run run "$work/out"
# the FP32 model saved with external data: 2.4 GB through copy_file_range
run copy "$work/copy"

# A single-file model over 2 GiB (one FLOAT tensor of 540,000,000 elements,
# raw_data last in the file and sparse): the command copies it with
# --allow-large (convert and merge), and refuses it without, naming the way.
cli="$B/libonnxslim"
big="$work/in/single.onnx"
/usr/bin/python3 - "$big" <<'EOF'
import sys
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)
def field(num, payload):  # length-delimited
    return varint(num << 3 | 2) + varint(len(payload)) + payload
def vfield(num, v):
    return varint(num << 3) + varint(v)
n = 540000000
raw = n * 4
tensor_head = vfield(1, n) + vfield(2, 1) + field(8, b"w") + varint(9 << 3 | 2) + varint(raw)
tensor_len = len(tensor_head) + raw
graph_head = (field(1, field(1, b"w") + field(2, b"y") + field(4, b"Identity")) + field(2, b"g") +
              field(12, field(1, b"y")) + varint(5 << 3 | 2) + varint(tensor_len) + tensor_head)
graph_len = len(graph_head) + raw
head = vfield(1, 8) + field(8, vfield(2, 17)) + varint(7 << 3 | 2) + varint(graph_len) + graph_head
with open(sys.argv[1], "wb") as f:
    f.write(head)
    f.truncate(len(head) + raw)
EOF
size=$(stat -c %s "$big")
"$cli" convert "$big" "$work/big-out.onnx" > "$work/o" 2> "$work/e"; r=$?
if [ $r -eq 1 ] && grep -q '2 GiB' "$work/e" && grep -q -- '--allow-large' "$work/e" && [ ! -e "$work/big-out.onnx" ]; then
  pass "convert of a $size-byte single-file model without --allow-large: exit 1, names --allow-large"
else
  fail "convert over 2 GiB without --allow-large: exit $r: $(cat "$work/e")"
fi
for cmd in convert merge; do
  t0=$(date +%s)
  if "$cli" $cmd "$big" "$work/big-out.onnx" --allow-large > "$work/o" 2> "$work/e" && cmp -s "$big" "$work/big-out.onnx"; then
    pass "$cmd --allow-large copies the $size-byte single-file model byte for byte ($(( $(date +%s) - t0 ))s)"
  else
    fail "$cmd --allow-large of a $size-byte model: $(cat "$work/e")"
  fi
  rm -f "$work/big-out.onnx"
done
echo "time total $(( $(date +%s) - start ))s"
finish
