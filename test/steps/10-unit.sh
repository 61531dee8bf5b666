# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# C unit tests, run against the shared and against the static library.
set -u
total_p=0 total_f=0 total_s=0 rc=0
# the programs of today's test/test_*.c, not stale ones an old build left;
# UNIT_LINKS: the builds run, test (against the shared library) and
# test-static (test/check_long/arm64.sh runs only test under qemu)
bins=""
for src in test/test_*.c; do
  t=$(basename "$src" .c)
  for d in ${UNIT_LINKS:-test test-static}; do bins="$bins $B/$d/$t"; done
done
# a cross build: UNIT_SKIP names the tests it does not build (test/check_long/windows.sh
# says why), counted as skipped; its programs may end in .exe
for bin in $bins; do
  case " ${UNIT_SKIP:-} " in
    *" $(basename "$bin") "*) echo "skip $bin: not built for this target"; total_s=$((total_s + 1)); continue ;;
  esac
  [ ! -x "$bin" ] && [ -x "$bin.exe" ] && bin=$bin.exe
  [ -x "$bin" ] || { echo "not built: $bin"; total_f=$((total_f + 1)); rc=1; continue; }
  echo "== $bin"
  # RUN: the emulator of a cross build (empty: run natively; test/run.sh)
  out=$(${RUN:+$RUN} "$bin" 2>&1); r=$?
  echo "$out"
  line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  if [ -z "$line" ]; then echo "no summary from $bin (exit $r)"; total_f=$((total_f + 1)); rc=1; continue; fi
  set -- $(echo "$line" | tr -d ',\r') # a Windows program's text-mode "\r\n"
  total_p=$((total_p + $1)) total_f=$((total_f + $3)) total_s=$((total_s + ${5:-0}))
  [ $r -ne 0 ] && rc=1
done
echo "$total_p passed, $total_f failed, $total_s skipped"
exit $rc
