# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The test harness itself: one unit test by name (test/t.h), --list, an
# unknown name refused with the list; test/run.sh PATTERN runs only the
# steps whose file name contains it and still ends with the total line.
set -u
. test/step-lib.sh

# 1. unit test programs: NAME, --list, unknown NAME
t="$B/test/test_core"
out=$("$t" versions 2>&1); r=$?
if [ $r -eq 0 ] && echo "$out" | grep -q '^ok   versions$' && [ "$(echo "$out" | grep -c '^ok ')" -eq 1 ] &&
   [ "$(echo "$out" | tail -n 1)" = "1 passed, 0 failed, 0 skipped" ]; then
  ok "test_core versions runs that test only"
else echo "$out"; bad "test_core versions (exit $r)"; fi
out=$("$t" errors versions 2>&1)
[ "$(echo "$out" | tail -n 1)" = "2 passed, 0 failed, 0 skipped" ] && ok "two names run two tests" || { echo "$out"; bad "two names"; }
want=$(sed -n 's/^  RUN(\([a-z0-9_]*\));.*/\1/p' test/test_core.c)
got=$("$t" --list 2>/dev/null); r=$?
[ $r -eq 0 ] && [ "$got" = "$want" ] && ok "--list prints the RUN names in order ($(echo "$got" | wc -l))" || { echo "$got"; bad "--list (exit $r)"; }
"$t" no_such_test > "$tmp/out" 2> "$tmp/err"; r=$?
if [ $r -eq 2 ] && grep -q "no test named 'no_such_test'" "$tmp/err" && grep -q '^  versions$' "$tmp/err" &&
   ! grep -q passed "$tmp/out"; then ok "unknown name: exit 2, the names listed"
else cat "$tmp/out" "$tmp/err"; bad "unknown name (exit $r)"; fi
n=0 bad_progs=""
for src in test/test_*.c; do # the programs of today's sources, not stale ones
  p="$B/test/$(basename "$src" .c)"
  [ -x "$p" ] || { bad_progs="$bad_progs $p(not built)"; continue; }
  n=$((n + 1))
  l=$("$p" --list 2>/dev/null) && [ -n "$l" ] && ! echo "$l" | grep -q passed || bad_progs="$bad_progs $p"
done
[ -z "$bad_progs" ] && [ $n -gt 0 ] && ok "all $n test programs take --list" || bad "--list in:$bad_progs"

# 2. test/run.sh PATTERN, on steps of its own
mkdir -p "$tmp/steps"
for s in 10-alpha 20-beta-cli 30-gamma; do
  printf 'echo "2 passed, 0 failed"\n' > "$tmp/steps/$s.sh"
done
out=$(TEST_STEPS="$tmp/steps" B="$tmp/b" sh test/run.sh cli 2>&1); r=$?
if [ $r -eq 0 ] && echo "$out" | grep -q '^20-beta-cli ' && ! echo "$out" | grep -q 'alpha\|gamma' &&
   [ "$(echo "$out" | tail -n 1)" = "2 passed, 0 failed, 0 skipped" ]; then ok "run.sh cli runs the matching step only, total line last"
else echo "$out"; bad "run.sh cli (exit $r)"; fi
out=$(TEST_STEPS="$tmp/steps" B="$tmp/b" sh test/run.sh 10 30 2>&1)
[ "$(echo "$out" | tail -n 1)" = "4 passed, 0 failed, 0 skipped" ] && ! echo "$out" | grep -q beta &&
  ok "run.sh 10 30 runs two steps" || { echo "$out"; bad "run.sh 10 30"; }
out=$(TEST_STEPS="$tmp/steps" B="$tmp/b" sh test/run.sh 2>&1)
[ "$(echo "$out" | tail -n 1)" = "6 passed, 0 failed, 0 skipped" ] && ok "run.sh alone runs every step" || { echo "$out"; bad "run.sh"; }
TEST_STEPS="$tmp/steps" B="$tmp/b" sh test/run.sh nomatch > "$tmp/out" 2>&1; r=$?
[ $r -eq 2 ] && grep -q "no step matches 'nomatch'" "$tmp/out" && grep -q '^  20-beta-cli$' "$tmp/out" &&
  ok "run.sh with a pattern no step matches: exit 2, the steps listed" || { cat "$tmp/out"; bad "run.sh nomatch (exit $r)"; }
printf 'echo "1 passed, 0 failed"\n' > "$tmp/steps/20-delta.sh"
TEST_STEPS="$tmp/steps" B="$tmp/b" sh test/run.sh > "$tmp/out" 2>&1; r=$?
[ $r -eq 2 ] && grep -q "step numbers used by more than one step: 20 " "$tmp/out" && ! grep -q passed "$tmp/out" &&
  ok "run.sh refuses two steps with one number (exit 2, the number named)" || { cat "$tmp/out"; bad "run.sh with 20 twice (exit $r)"; }
rm -f "$tmp/steps/20-delta.sh"

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
