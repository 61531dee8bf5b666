# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The generic POSIX build (make PLATFORM=posix: every Linux-only call of the
# platform layer compiled out, lib/base/platform.h) passes the unit tests
# and the external-data, safety, hostile-input, interrupt and crash steps:
# `make check-posix`, in $B-posix. Skipped when $B itself is such a build
# (make check PLATFORM=posix B=...: every step runs against it already).
set -u
B=${B:-build}
if grep -q 'PLATFORM=posix' "$B/config/onnxslim_config.h" 2>/dev/null; then
  echo "skip: $B is a PLATFORM=posix build already"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
# the build found no Linux-only feature: nothing of it is left
make -s check-posix B="$B" 2>&1
rc=$?
cfg="$B-posix/config/onnxslim_config.h"
if grep -q 'ONNXSLIM_HAVE_[A-Z0-9_]* 1' "$cfg"; then
  echo "FAIL: $cfg has a feature present"
  exit 1
fi
# nor does the library import a Linux-only call
lin=$(nm -D --undefined-only "$B-posix"/libonnxslim.so.*.*.* 2>/dev/null |
  grep -oE ' (openat2|renameat2|copy_file_range|splice|pipe2|sync_file_range|getrandom|getauxval|syscall|gettid|tgkill)(@|$)' | sort -u | tr -d ' @' | tr '\n' ' ')
if [ -n "$lin" ]; then
  echo "FAIL: $B-posix/libonnxslim.so imports Linux-only calls: $lin"
  exit 1
fi
exit $rc
