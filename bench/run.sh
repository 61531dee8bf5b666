#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim benchmarks (`make bench`). Each section prints figures measured
# side by side in this run, and their ratios. Nothing here is a pass/fail
# test: a line "target: ... met|MISSED" is a benchmark's verdict, not a test.
#
# The sections are bench/sections/NN-NAME.sh, run in the order of NN in one
# shell with bench/lib.sh's helpers. BENCH_ONLY="NAME ..." runs only those
# (e.g. BENCH_ONLY="recipe memory"). The output is also kept in
# $B/bench/bench.log; a run of every section (no BENCH_ONLY) writes it, with
# the machine described, to docs/benchmarks.md (bench/write_doc.py), and
# copies its headline lines into README.md's "Measured" list; with
# BENCH_DOC=merge, a run of some sections replaces only theirs in
# docs/benchmarks.md (bench/write_doc.py --merge).
set -eu
B=${B:-build}
mkdir -p "$B/bench"
if [ -z "${BENCH_INNER:-}" ]; then
  # the sections' output goes to the terminal and to the log; their exit
  # status survives the pipe through a file
  rm -f "$B/bench/rc"
  { rc=0; BENCH_INNER=1 sh "$0" "$@" 2>&1 || rc=$?; echo "$rc" > "$B/bench/rc"; } | tee "$B/bench/bench.log"
  rc=$(cat "$B/bench/rc" 2>/dev/null || echo 1)
  if [ "$rc" = 0 ] && [ -z "${BENCH_ONLY:-}" ]; then
    /usr/bin/python3 bench/write_doc.py "$B/bench/bench.log" docs/benchmarks.md README.md
    echo "wrote docs/benchmarks.md and README.md's headline"
  elif [ "$rc" = 0 ] && [ "${BENCH_DOC:-}" = merge ]; then
    /usr/bin/python3 bench/write_doc.py --merge "$B/bench/bench.log" docs/benchmarks.md README.md
    echo "merged the sections run into docs/benchmarks.md and README.md's headline"
  fi
  exit "$rc"
fi
. bench/lib.sh
n_run=0
for s in bench/sections/*.sh; do
  name=$(basename "$s" .sh); name=${name#*-}
  if [ -n "${BENCH_ONLY:-}" ]; then
    case " $BENCH_ONLY " in *" $name "*) ;; *) continue ;; esac
  fi
  [ "$n_run" = 0 ] || echo
  n_run=$((n_run + 1))
  . "$s"
done
if [ "$n_run" = 0 ]; then
  echo "no section matches BENCH_ONLY=\"${BENCH_ONLY:-}\"; the sections:"
  for s in bench/sections/*.sh; do n=$(basename "$s" .sh); echo "  ${n#*-}"; done
  exit 2
fi
