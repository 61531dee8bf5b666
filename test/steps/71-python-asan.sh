# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The Python binding under AddressSanitizer: the shared library built with
# clang -fsanitize=address (in $B/asan), ASan's runtime preloaded into
# /usr/bin/python3 (LD_PRELOAD, detect_leaks=0: the interpreter's own
# allocations are not ours), LIBONNXSLIM_LIBRARY pointing at that build.
# The cases of python/tests/threads_child.py: close() inside a progress
# callback of save and convert, close() from a thread while another reads
# (200 runs) or copies tensors from the model into another (200 runs),
# copies between two models both ways, four threads sharing one model.
# Any ASan report, crash or wrong case fails the step.
set -u
B=${B:-build}
T="$B/asan"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
V=include/onnxslim/version.h
ver=$(for f in MAJOR MINOR PATCH; do sed -n "s/^#define ONNXSLIM_VERSION_$f \([0-9]*\)/\1/p" $V; done | paste -sd.)
if ! command -v clang >/dev/null 2>&1; then
  bad "clang is not installed (make deps)"
  echo "$passed passed, $failed failed"
  exit 1
fi
rt=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
if make -s B="$T" CC=clang OPT="-O1 -g" CFLAGS="-fsanitize=address -fno-omit-frame-pointer" \
     LDFLAGS=-fsanitize=address "$T/libonnxslim.so.$ver" >"$B/python-asan-build.log" 2>&1 \
   && [ -f "$rt" ]; then
  ok "the shared library builds with -fsanitize=address (clang); runtime $rt"
else
  tail -n 20 "$B/python-asan-build.log"
  bad "build with -fsanitize=address, or no $rt (libclang-rt-14-dev)"
  echo "$passed passed, $failed failed"
  exit 1
fi
lib="$(cd "$T" && pwd)/libonnxslim.so.0"
for case in close_in_save_progress close_in_convert_progress close_while_reading \
            close_source_of_copy copy_both_ways shared_readers; do
  log="$B/python-asan-$case.log"
  if LD_PRELOAD="$rt" ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=66 \
     PYTHONPATH=python LIBONNXSLIM_LIBRARY="$lib" \
     /usr/bin/python3 -X faulthandler python/tests/threads_child.py "$case" 200 >"$log" 2>&1 \
     && ! grep -q AddressSanitizer "$log"; then
    ok "$(tail -n 1 "$log" | sed "s/^ok //")"
  else
    tail -n 40 "$log"
    bad "$case under AddressSanitizer"
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
