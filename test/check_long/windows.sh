#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Windows x86-64 with mingw-w64 (issue 27): what of it exists so far.
# Installs mingw-w64 with apt-get when it is missing (root), cross-compiles
# every library object with -Werror (make CROSS=x86_64-w64-mingw32- objs:
# lib/base/platform_win32.c in place of platform_posix.c), and checks those
# objects with test/check_layers.py (no system call outside the platform
# layer). Not yet: the DLL, libonnxslim.exe and the tests under wine; each
# is a "skip" line naming what is missing, counted as skipped, never as
# passed. Prints "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
CROSS=x86_64-w64-mingw32-
B=build-x86_64-w64-mingw32
pass=0
fail=0
skipped=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "skip $1"; }

if ! command -v ${CROSS}gcc > /dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mingw-w64 > /dev/null 2>&1 ||
    echo "apt-get install mingw-w64 failed"
fi
if ! command -v ${CROSS}gcc > /dev/null 2>&1; then
  bad "mingw-w64 (${CROSS}gcc) is not installed and could not be"
  echo "$pass passed, $fail failed, $skipped skipped"
  exit 1
fi
if make -s CROSS=$CROSS nanopb > "${TMPDIR:-/tmp}/windows-nanopb.log" 2>&1 &&
  [ -f $B/nanopb/libprotobuf-nanopb.a ]; then
  ok "nanopb's runtime from Debian's source package, cross-compiled ($B/nanopb)"
else
  bad "nanopb for Windows (see ${TMPDIR:-/tmp}/windows-nanopb.log)"
fi
if make -s CROSS=$CROSS objs > "${TMPDIR:-/tmp}/windows-objs.log" 2>&1; then
  ok "make CROSS=$CROSS objs: every library object compiles for Windows (-Werror)"
else
  bad "make CROSS=$CROSS objs (see ${TMPDIR:-/tmp}/windows-objs.log)"
fi
if [ -f $B/obj/base/platform_win32.o ] && [ ! -f $B/obj/base/platform_posix.o ]; then
  ok "the Windows build compiles platform_win32.c, not platform_posix.c"
else
  bad "the Windows build compiles platform_win32.c, not platform_posix.c"
fi
if /usr/bin/python3 test/check_layers.py $B > "${TMPDIR:-/tmp}/windows-layers.log" 2>&1; then
  ok "test/check_layers.py on the Windows objects"
else
  bad "test/check_layers.py on the Windows objects (see ${TMPDIR:-/tmp}/windows-layers.log)"
fi
# 2. the DLL, its import library and .def, the static library, the command
if make -s -j2 CROSS=$CROSS all > "${TMPDIR:-/tmp}/windows-all.log" 2>&1; then
  ok "make CROSS=$CROSS all"
else
  tail -n 30 "${TMPDIR:-/tmp}/windows-all.log"
  bad "make CROSS=$CROSS all (see ${TMPDIR:-/tmp}/windows-all.log)"
fi
for f in libonnxslim-0.dll libonnxslim.dll.a libonnxslim.def libonnxslim.a libonnxslim.exe; do
  [ -s $B/$f ] && ok "built $B/$f" || bad "not built: $B/$f"
done
# the DLL exports exactly the committed symbol list, and needs only system DLLs
${CROSS}objdump -p $B/libonnxslim-0.dll > "${TMPDIR:-/tmp}/windows-dll.txt" 2>&1
sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "${TMPDIR:-/tmp}/windows-dll.txt" |
  awk '/^[[:space:]]*\[ *[0-9]+\]/ {print $NF}' | sort > "${TMPDIR:-/tmp}/windows-exports.txt"
awk '!/^#/ && NF {print $1}' abi/onnxslim.symbols | sort > "${TMPDIR:-/tmp}/windows-symbols.txt"
n=$(wc -l < "${TMPDIR:-/tmp}/windows-exports.txt")
if [ "$n" -gt 0 ] && cmp -s "${TMPDIR:-/tmp}/windows-exports.txt" "${TMPDIR:-/tmp}/windows-symbols.txt"; then
  ok "the DLL's $n exports are abi/onnxslim.symbols, no more, no less"
else
  diff "${TMPDIR:-/tmp}/windows-symbols.txt" "${TMPDIR:-/tmp}/windows-exports.txt" | head -20
  bad "the DLL's exports ($n) differ from abi/onnxslim.symbols"
fi
deps=$(awk '/DLL Name:/ {print $3}' "${TMPDIR:-/tmp}/windows-dll.txt" | tr 'A-Z' 'a-z' | sort | tr '\n' ' ')
case "$deps" in
  *lib*.dll*) bad "the DLL needs a non-system DLL: $deps" ;;
  *) ok "the DLL needs system DLLs only: $deps" ;;
esac
# the static library: one object, only onnxslim_* global (nanopb made local)
others=$(${CROSS}nm -g --defined-only $B/libonnxslim.a | awk 'NF == 3 && $3 !~ /^onnxslim_[a-z0-9]/' | head -5)
[ -z "$others" ] && ok "libonnxslim.a defines onnxslim_* globals only" ||
  bad "libonnxslim.a defines other globals: $others"
skip "unit, hostile-input and recipe tests under wine: not run yet"
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
