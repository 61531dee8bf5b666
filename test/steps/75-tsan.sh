# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ThreadSanitizer on the real library: the shared library built by the
# Makefile with CFLAGS/LDFLAGS=-fsanitize=thread (clang, so the sanitizer's
# runtime is linked into the programs only), and tests that run the library
# from several threads at once against it. Any race report fails the step.
set -u
T="$B/tsan"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
CC_TSAN=clang
command -v clang >/dev/null 2>&1 || CC_TSAN=cc
progs="$T/test/test_threads $T/test/test_core"
# the library's own threads: the statistics pass split in two and the
# streamed conversion read a chunk ahead (one test of test_convert_model)
own="$T/test/test_convert_model"
if make -s B="$T" CC="$CC_TSAN" OPT="-O1 -g" CFLAGS=-fsanitize=thread LDFLAGS=-fsanitize=thread \
     $progs $own >"$B/tsan-build.log" 2>&1; then
  ok "the shared library links with CFLAGS=LDFLAGS=-fsanitize=thread ($CC_TSAN)"
else
  tail -n 20 "$B/tsan-build.log"
  bad "build with -fsanitize=thread ($CC_TSAN)"
  if TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$own" large_tensor_from_file_split_statistics_and_save \
  >"$B/tsan-run.log" 2>&1; then
  ok "the library's own threads (statistics split, conversion read ahead) under ThreadSanitizer"
else
  tail -n 40 "$B/tsan-run.log"
  bad "the library's own threads (statistics split, conversion read ahead) under ThreadSanitizer"
fi
echo "$passed passed, $failed failed"
  exit 1
fi
for p in $progs; do
  if TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$p" >"$B/tsan-run.log" 2>&1; then
    ok "$(basename "$p") under ThreadSanitizer"
  else
    tail -n 40 "$B/tsan-run.log"
    bad "$(basename "$p") under ThreadSanitizer"
  fi
done
if TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$own" large_tensor_from_file_split_statistics_and_save \
  >"$B/tsan-run.log" 2>&1; then
  ok "the library's own threads (statistics split, conversion read ahead) under ThreadSanitizer"
else
  tail -n 40 "$B/tsan-run.log"
  bad "the library's own threads (statistics split, conversion read ahead) under ThreadSanitizer"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
