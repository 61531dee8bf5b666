#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim test runner (called by `make check`).
#
#   test/run.sh                 every step
#   test/run.sh PATTERN...      only the steps whose file name contains one
#                               of the patterns: `test/run.sh 56`,
#                               `test/run.sh cli abi`
#
# Runs the test/steps/*.sh chosen in name order from the repository root,
# with B=build. A step ends with a line "N passed, N failed[, N skipped]"
# that is added to the totals; a step that prints no such line counts as one
# test, passed when it exits 0. A step that exits non-zero always counts a
# failure. The last line printed is the total. A pattern no step matches,
# or two steps with one number: exit 2, with the list of steps or numbers.
# TEST_STEPS names another directory of steps (the runner's own test uses
# it).
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
export B
steps_dir=${TEST_STEPS:-test/steps}
for pat in "$@"; do
  if ! ls "$steps_dir" | grep -F -e "$pat" | grep -q '\.sh$'; then
    echo "run.sh: no step matches '$pat'; the steps are:" >&2
    for step in "$steps_dir"/*.sh; do echo "  $(basename "$step" .sh)" >&2; done
    exit 2
  fi
done
# every step has a number of its own (a step is named by it: `test/run.sh 56`)
dup=$(ls "$steps_dir" | grep '\.sh$' | sed 's/-.*//' | sort | uniq -d | tr '\n' ' ')
if [ -n "$dup" ]; then
  echo "run.sh: step numbers used by more than one step: $dup(give each step a number of its own)" >&2
  exit 2
fi
log_dir="$B/test-logs"
mkdir -p "$log_dir"
passed=0 failed=0 skipped=0 bad_steps=""
for step in "$steps_dir"/*.sh; do
  name=$(basename "$step" .sh)
  if [ $# -gt 0 ]; then
    chosen=0
    for pat in "$@"; do
      case "$name.sh" in *"$pat"*) chosen=1 ;; esac
    done
    [ $chosen -eq 1 ] || continue
  fi
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
