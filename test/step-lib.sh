# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Sourced by test steps (test/steps/*.sh, run from the repository root):
# the counters and ok/bad/skip that end in the "N passed, N failed, N skipped"
# line, the command under test ($cli, run through $RUN when set), the
# bundled model ($m) and a temporary directory ($tmp) removed on exit.
B=${B:-build}
PY=/usr/bin/python3
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "skip $1"; }
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cli="$root/$B/libonnxslim"
# RUN set (the emulator of a cross build, test/run.sh): $cli is a script
# that runs the command through it, so the steps and the checkers they hand
# $cli to run the cross-built command unchanged (test/check_long/arm64.sh).
if [ -n "${RUN:-}" ]; then
  printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$RUN" "$cli" > "$tmp/cli-run"
  chmod +x "$tmp/cli-run"
  cli="$tmp/cli-run"
fi
m="$root/test/data/bert-tiny.onnx"
# strace_ready: 0 when strace is here and can trace and inject faults;
# else counts a skip with the reason and returns 1 (the step then ends).
strace_ready() {
  if ! command -v strace > /dev/null; then
    skip "strace is missing (make deps installs it)"
    return 1
  fi
  if ! strace -f -qq -o /dev/null -e trace=getpid -e inject=getpid:retval=1 true 2> /dev/null; then
    skip "strace cannot trace here (ptrace not allowed)"
    return 1
  fi
}
# part CMD...: runs a test/check_*.py (or any command ending with an
# "N passed, N failed" line), shows its output and adds its counts; a
# nonzero exit with no failure counted is one failure.
part() {
  "$@" > "$tmp/part.out" 2>&1
  _r=$?
  cat "$tmp/part.out"
  _line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/part.out" | tail -n 1)
  _f=0
  if [ -n "$_line" ]; then
    passed=$((passed + ${_line%% passed*}))
    _f=${_line#*passed, } _f=${_f%% failed*}
    failed=$((failed + _f))
  fi
  if [ $_r -ne 0 ] && [ "$_f" = 0 ]; then
    failed=$((failed + 1)); echo "FAIL $1 ${2:-} exited $_r"
  fi
}
