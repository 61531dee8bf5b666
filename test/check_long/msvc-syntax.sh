#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The library and the command compile as C11 without GNU extensions, and
# as MSVC reads them (issue 27, point 3). Usage (the Makefile passes the
# Windows build's own source lists):
#   make CROSS=x86_64-w64-mingw32- check-msvc-syntax
#   sh test/check_long/msvc-syntax.sh BUILD_DIR SOURCE.c...
# BUILD_DIR is the mingw build's (its generated proto/ and config/). Each
# source, and one file that includes every public header, is checked:
#  1. clang --target=x86_64-pc-windows-msvc -std=c11 -pedantic-errors
#     -Wall -Wextra -Werror -fsyntax-only against the mingw-w64 headers:
#     _MSC_VER is defined and __GNUC__ is not, so every GNU-only branch is
#     out (the SIMD kernels: MSVC builds get the scalar ones) and the code
#     is read as MSVC would, with its extensions (__declspec, ...);
#     test/msvc/mingw-as-msvc.h undoes three quirks of those headers;
#  2. x86_64-w64-mingw32-gcc -std=c11 -pedantic-errors -Wall -Wextra
#     -Werror -fsyntax-only: no GNU extension outside a __GNUC__ guard.
# -Wno-overlength-strings: the schema string pool (lib/opschema/
# opschema_data.c, ~10 KB) is longer than the 4,095 characters ISO C
# requires every compiler to take; MSVC takes 65,535 after concatenation
# and scripts/gen-opschema.py asserts the pool stays below that.
# A control file with a statement expression and typeof must be rejected
# by both, or the check proves nothing. Installs clang with apt-get when
# missing. Prints "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:?usage: msvc-syntax.sh BUILD_DIR SOURCE.c...}
shift
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
finish() {
  echo "$pass passed, $fail failed, $skipped skipped"
  [ "$fail" -eq 0 ]
  exit $?
}
MINGW_INC=/usr/share/mingw-w64/include
command -v clang > /dev/null 2>&1 ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang > /dev/null 2>&1
if ! command -v clang > /dev/null 2>&1; then
  bad "clang is not installed and could not be (apt-get install clang)"
  finish
fi
if [ ! -f "$MINGW_INC/windows.h" ] || [ ! -f "$B/proto/onnx.pb.h" ]; then
  bad "the mingw-w64 headers ($MINGW_INC) and $B/proto/onnx.pb.h are needed: make CROSS=x86_64-w64-mingw32- objs"
  finish
fi
[ "$#" -gt 0 ] || {
  bad "no source given"
  finish
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
INC="-Iinclude -Ilib -I$B/proto -I$B/config -idirafter $B/xinclude"
STRICT="-std=c11 -pedantic-errors -Wall -Wextra -Werror -Wno-overlength-strings -fsyntax-only"
msvc() {
  clang --target=x86_64-pc-windows-msvc $STRICT -isystem "$MINGW_INC" \
    -include test/msvc/mingw-as-msvc.h $INC "$@"
}
gnu_free() { x86_64-w64-mingw32-gcc $STRICT -D__USE_MINGW_ANSI_STDIO=1 $INC "$@"; }

# every public header, included by one C file
{
  echo '#include "onnxslim.h"'
  for h in include/onnxslim/*.h; do printf '#include "%s"\n' "${h#include/}"; done
  echo 'int main(void) { return 0; }'
} > "$tmp/headers.c"
# the control: GNU C the checks must refuse
printf '%s\n' 'int f(int x) { typeof(x) y = ({ int t = x; t + 1; }); return y; }' > "$tmp/control.c"

for check in msvc gnu_free; do
  if [ "$check" = gnu_free ] && ! command -v x86_64-w64-mingw32-gcc > /dev/null 2>&1; then
    bad "$check: x86_64-w64-mingw32-gcc is missing"
    continue
  fi
  n=0 nbad=0
  for f in "$@" "$tmp/headers.c"; do
    n=$((n + 1))
    if ! $check "$f" > "$tmp/out" 2>&1; then
      nbad=$((nbad + 1))
      echo "  $check: $f:"
      sed -n '1,6s/^/    /p' "$tmp/out"
    fi
  done
  case $check in
    msvc) what="clang --target=x86_64-pc-windows-msvc -std=c11 -pedantic-errors" ;;
    *) what="x86_64-w64-mingw32-gcc -std=c11 -pedantic-errors" ;;
  esac
  if [ "$nbad" -eq 0 ]; then
    ok "$what: $n files (the Windows build's sources and the public headers) without a diagnostic"
  else
    bad "$what: $nbad of $n files rejected (above)"
  fi
  if $check "$tmp/control.c" > /dev/null 2>&1; then
    bad "$what accepts the control file (typeof, a statement expression): the check cannot fail"
  else
    ok "$what rejects the control file (typeof, a statement expression)"
  fi
done
finish
