# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Keep attacking: each libFuzzer harness (test/fuzz/fuzz_load.c: any bytes
# as a model; test/fuzz/fuzz_external.c: a fixed model with its external
# data file fuzzed, saved three ways and reloaded) runs for
# FUZZ_CHECK_SECONDS (default 20) from its committed seed corpus, under
# ASan+UBSan. A crash, leak, sanitizer report or timeout fails the step; the
# input that caused it is kept as build/fuzz/<harness>-crash-* (add it to
# test/fuzz/regressions/ with the fix). `make fuzz` runs longer.
set -u
secs=${FUZZ_CHECK_SECONDS:-20}
passed=0 failed=0
sh test/fuzz/build.sh || { echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d)
# fuzz_external writes files on every run: tmpfs when there is one
if [ -d /dev/shm ] && [ -w /dev/shm ]; then ftmp=/dev/shm; else ftmp=$work; fi
run() {
  h=$1; shift
  mkdir -p "$work/$h"
  if TMPDIR=$ftmp ASAN_OPTIONS=detect_leaks=1 "$B/fuzz/$h" -max_total_time="$secs" -timeout=20 \
       -rss_limit_mb=2560 -artifact_prefix="$B/fuzz/$h-" -print_final_stats=1 \
       "$work/$h" "$@" >"$B/fuzz/$h.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $h for ${secs}s: $(grep -E '^stat::number_of_executed_units' "$B/fuzz/$h.log" | awk '{print $2}') runs, $(ls "$work/$h" | wc -l) new inputs"
  else
    failed=$((failed + 1))
    echo "FAIL $h"
    grep -E -A 30 'ERROR|==[0-9]+==|deadly signal|Test unit written' "$B/fuzz/$h.log" | head -n 60
  fi
}
run fuzz_load test/fuzz/corpus test/fuzz/regressions test/data
run fuzz_external test/fuzz/corpus-external
rm -rf "$work"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
