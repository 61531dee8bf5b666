# Beyond 2 GiB of external data. test/external/make_large.c builds a model
# whose Gather table of 1,000,000 x 600 FP32 (2.4 GB) lives in a sparse file
# (ftruncate: a few rows hold values, the rest are holes), then, in one
# process: loads it, fingerprints it, converts the table to BF16 with
# onnxslim_model_convert_gather_tables(), saves it with external data
# (threshold 0, align 4096), reloads it and checks the converted tensor's
# type, dims, size and values, and that fingerprints are stable across the
# save and reload. A second process saves the FP32 model with external data
# (2.4 GB of unchanged bytes, copied by copy_file_range), reloads it and
# compares. The peak RSS of each process (/usr/bin/time -f %M) must stay
# under 512 MiB: tensor bytes are mapped and streamed, never held.
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
cc -std=c11 -O2 -Wall -Wextra -Werror -Wno-unused-function -Iinclude -Itest test/external/make_large.c -L"$B" \
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
echo "time total $(( $(date +%s) - start ))s"
finish
