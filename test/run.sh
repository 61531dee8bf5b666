#!/bin/sh
# libonnxslim test runner (called by `make check`).
#
# Runs every test/steps/*.sh in name order from the repository root, with
# B=build. A step ends with a line "N passed, N failed[, N skipped]" that is
# added to the totals; a step that prints no such line counts as one test,
# passed when it exits 0. A step that exits non-zero always counts a failure.
# The last line printed is the total.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
export B
log_dir="$B/test-logs"
mkdir -p "$log_dir"
passed=0 failed=0 skipped=0 bad_steps=""
for step in test/steps/*.sh; do
  name=$(basename "$step" .sh)
  log="$log_dir/$name.log"
  start=$(date +%s)
  sh "$step" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
  if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/.*\b([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
    s=${s:-0}
  elif [ $rc -eq 0 ]; then
    p=1 f=0 s=0
  else
    p=0 f=0 s=0
  fi
  [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  status=ok
  [ "$f" -ne 0 ] && { status=FAIL; bad_steps="$bad_steps $name"; }
  printf '%-28s %-4s %5s passed %4s failed %4s skipped  (%ss)\n' "$name" "$status" "$p" "$f" "$s" "$secs"
  if [ "$f" -ne 0 ]; then
    echo "---- last lines of $log ----"
    tail -n 30 "$log"
    echo "----"
  fi
done
[ -n "$bad_steps" ] && echo "failed steps:$bad_steps"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
