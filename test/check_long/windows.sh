#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Windows x86-64 with mingw-w64 (issue 27): what of it exists so far.
# Installs mingw-w64 with apt-get when it is missing (root), cross-compiles
# every library object with -Werror (make CROSS=x86_64-w64-mingw32- objs:
# lib/base/platform_win32.c in place of platform_posix.c), and checks those
# objects with test/check_layers.py (no system call outside the platform
# layer); builds the DLL, its .def and import library, the static library
# and libonnxslim.exe; then, under wine (installed with apt-get when
# missing), the unit tests against the DLL and the command's conversions
# byte for byte against this machine's build, and the recipe on a path with
# spaces and non-ASCII characters. Prints "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
CROSS=x86_64-w64-mingw32-
B=build-x86_64-w64-mingw32
pass=0
fail=0
skipped=0
# this run's logs, in a directory of its own (two runs at once keep theirs)
L=$(mktemp -d "${TMPDIR:-/tmp}/windows-logs.XXXXXX")
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
if make -s CROSS=$CROSS nanopb > "$L/nanopb.log" 2>&1 &&
  [ -f $B/nanopb/libprotobuf-nanopb.a ]; then
  ok "nanopb's runtime from Debian's source package, cross-compiled ($B/nanopb)"
else
  bad "nanopb for Windows (see $L/nanopb.log)"
fi
if make -s CROSS=$CROSS objs > "$L/objs.log" 2>&1; then
  ok "make CROSS=$CROSS objs: every library object compiles for Windows (-Werror)"
else
  bad "make CROSS=$CROSS objs (see $L/objs.log)"
fi
if [ -f $B/obj/base/platform_win32.o ] && [ ! -f $B/obj/base/platform_posix.o ]; then
  ok "the Windows build compiles platform_win32.c, not platform_posix.c"
else
  bad "the Windows build compiles platform_win32.c, not platform_posix.c"
fi
if /usr/bin/python3 test/check_layers.py $B > "$L/layers.log" 2>&1; then
  ok "test/check_layers.py on the Windows objects"
else
  bad "test/check_layers.py on the Windows objects (see $L/layers.log)"
fi
# 2. the DLL, its import library and .def, the static library, the command
if make -s -j2 CROSS=$CROSS all > "$L/all.log" 2>&1; then
  ok "make CROSS=$CROSS all"
else
  tail -n 30 "$L/all.log"
  bad "make CROSS=$CROSS all (see $L/all.log)"
fi
for f in libonnxslim-0.dll libonnxslim.dll.a libonnxslim.def libonnxslim.a libonnxslim.exe; do
  [ -s $B/$f ] && ok "built $B/$f" || bad "not built: $B/$f"
done
# the DLL exports exactly the committed symbol list, and needs only system DLLs
${CROSS}objdump -p $B/libonnxslim-0.dll > "$L/dll.txt" 2>&1
sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "$L/dll.txt" |
  awk '/^[[:space:]]*\[ *[0-9]+\]/ {print $NF}' | sort > "$L/exports.txt"
awk '!/^#/ && NF {print $1}' abi/onnxslim.symbols | sort > "$L/symbols.txt"
n=$(wc -l < "$L/exports.txt")
if [ "$n" -gt 0 ] && cmp -s "$L/exports.txt" "$L/symbols.txt"; then
  ok "the DLL's $n exports are abi/onnxslim.symbols, no more, no less"
else
  diff "$L/symbols.txt" "$L/exports.txt" | head -20
  bad "the DLL's exports ($n) differ from abi/onnxslim.symbols"
fi
deps=$(awk '/DLL Name:/ {print $3}' "$L/dll.txt" | tr 'A-Z' 'a-z' | sort | tr '\n' ' ')
case "$deps" in
  *lib*.dll*) bad "the DLL needs a non-system DLL: $deps" ;;
  *) ok "the DLL needs system DLLs only: $deps" ;;
esac
# the static library: one object, only onnxslim_* global (nanopb made local)
others=$(${CROSS}nm -g --defined-only $B/libonnxslim.a | awk 'NF == 3 && $3 !~ /^onnxslim_[a-z0-9]/' | head -5)
[ -z "$others" ] && ok "libonnxslim.a defines onnxslim_* globals only" ||
  bad "libonnxslim.a defines other globals: $others"
# 3. under wine: the unit tests (against the DLL) and the command
if ! command -v wine > /dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wine wine64 > "$L/wine-install.log" 2>&1 ||
    echo "apt-get install wine wine64 failed (see $L/wine-install.log)"
fi
if ! command -v wine > /dev/null 2>&1; then
  skip "the tests under wine: wine is not installed and could not be"
else
  export WINEDEBUG=-all WINEPREFIX="$PWD/$B/wine"
  wineboot -i > /dev/null 2>&1
  export WINEPATH="$(winepath -w "$PWD/$B" 2> /dev/null)"
  if make -s -j2 CROSS=$CROSS tests > "$L/tests.log" 2>&1; then
    ok "make CROSS=$CROSS tests"
  else
    tail -n 20 "$L/tests.log"
    bad "make CROSS=$CROSS tests (see $L/tests.log)"
  fi
  # the unit tests the Makefile leaves out for Windows (WIN_NO_TESTS: fork,
  # rlimits, mmap sizes, glibc's allocator) are skipped. A tenth of the
  # rounds (LIBONNXSLIM_TEST_SCALE=10, as under qemu): test_external's
  # concurrent saves (8 threads x 100 rounds x 3 saves) take 15-30 minutes
  # under wine, a tenth of them about 1.5 minutes
  noskip=$(sed -n 's/^WIN_NO_TESTS := //p' Makefile)
  unit_skip=""
  for t in $noskip; do unit_skip="$unit_skip test_$t"; done
  if LIBONNXSLIM_TEST_SCALE=10 RUN=wine B=$B UNIT_LINKS=test UNIT_SKIP="$unit_skip" sh test/steps/10-unit.sh > "$L/unit.log" 2>&1; then
    ok "unit tests under wine, against the DLL: $(tail -n 1 "$L/unit.log")"
  else
    grep -E "FAIL|not built|no summary" "$L/unit.log" | head -20
    bad "unit tests under wine: $(tail -n 1 "$L/unit.log") (see $L/unit.log)"
  fi
  # the programs ported from the POSIX-only set (hostile inputs, a save
  # over a mapped model, a save killed midway, atomic saves and their
  # stale temporaries, external data: containment, data-file generations,
  # concurrent saves leaving no file that no model reads): each ran in the
  # unit run with a summary and no failure; the cases it skips are named
  for t in test_hostile test_progress test_save test_external; do
    out=$(awk -v t="/test/$t.exe" '/^== / {on = index($0, t) > 0; next} on' "$L/unit.log" | tr -d '\r')
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    case "$line" in
      *" 0 failed"*) ok "$t under wine: $line" ;;
      "") bad "$t under wine: it did not run (see $L/unit.log)" ;;
      *) bad "$t under wine: $line (see $L/unit.log)" ;;
    esac
    echo "$out" | sed -n 's/^skipped: /       skipped there: /p'
  done
  # the command's conversions (the recipe, the quantized forms, fp16,
  # split, merge) byte for byte against this machine's build
  wtmp=$(mktemp -d)
  if make -s -j2 all > "$wtmp/native.log" 2>&1; then
    RUN=wine sh test/check_long/convert_outputs.sh $B/libonnxslim.exe "$wtmp/win" test/data/bert-tiny.onnx > /dev/null 2>&1
    RUN= sh test/check_long/convert_outputs.sh build/libonnxslim "$wtmp/lin" test/data/bert-tiny.onnx > /dev/null 2>&1
    if sh test/check_long/convert_outputs.sh --compare "$wtmp/lin" "$wtmp/win" > "$wtmp/cmp.log" 2>&1; then
      ok "the command's outputs under wine: $(tail -n 1 "$wtmp/cmp.log") to Linux's"
    else
      head -n 20 "$wtmp/cmp.log"
      bad "the command's outputs under wine differ from Linux's"
    fi
  else
    bad "the native build for the comparison (make all)"
  fi
  # the recipe on a path with spaces and non-ASCII characters
  d="$wtmp/modèles à tester"
  mkdir -p "$d" && cp test/data/bert-tiny.onnx "$d/bért tiny.onnx"
  if wine $B/libonnxslim.exe convert "$d/bért tiny.onnx" "$d/sortie réduite.onnx" --gather-to bf16 --external-data --threshold 0 > "$wtmp/path.log" 2>&1 &&
    [ -s "$d/sortie réduite.onnx" ] && ls "$d" | grep -q "sortie réduite.onnx.data" &&
    wine $B/libonnxslim.exe check "$d/sortie réduite.onnx" >> "$wtmp/path.log" 2>&1; then
    ok "the recipe under wine on a path with spaces and non-ASCII characters, and check reads it back"
  else
    cat "$wtmp/path.log"; ls "$d"
    bad "the recipe under wine on a path with spaces and non-ASCII characters"
  fi
  rm -rf "$wtmp"
fi
# 4. as MSVC reads it, and C11 without GNU extensions
# (test/check_long/msvc-syntax.sh: its own lines and counts are added here)
make -s CROSS=$CROSS check-msvc-syntax > "$L/msvc.log" 2>&1
sed -n '/^ok\|^FAIL\|^  /p' "$L/msvc.log" | sed 's/^ok   /ok   msvc-syntax: /; s/^FAIL /FAIL msvc-syntax: /'
m=$(tail -n 1 "$L/msvc.log")
case "$m" in
  *" passed, "*" failed, "*" skipped")
    set -- $m
    pass=$((pass + $1)) fail=$((fail + $3)) skipped=$((skipped + $5))
    ;;
  *) tail -n 20 "$L/msvc.log"; bad "make CROSS=$CROSS check-msvc-syntax printed no summary" ;;
esac
# 5. a Windows program built with CMake against the installed package
# (make CROSS=... install; cmake/toolchains/x86_64-w64-mingw32.cmake):
# test/cmake-consumer's C++ program with the DLL, its C program with the
# static library; both run under wine
command -v cmake > /dev/null 2>&1 ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends cmake > /dev/null 2>&1
ctmp=$(mktemp -d)
cprefix="$ctmp/stage/opt/libonnxslim"
if ! command -v cmake > /dev/null 2>&1; then
  bad "cmake is not installed and could not be"
elif make -s CROSS=$CROSS install PREFIX=/opt/libonnxslim DESTDIR="$ctmp/stage" > "$ctmp/install.log" 2>&1; then
  missing=""
  for f in bin/libonnxslim-0.dll bin/libonnxslim.exe lib/libonnxslim.dll.a lib/libonnxslim.a lib/libonnxslim.def \
    lib/pkgconfig/libonnxslim.pc lib/cmake/libonnxslim/libonnxslimConfig.cmake include/onnxslim.h include/onnxslim/model.h; do
    [ -s "$cprefix/$f" ] || missing="$missing $f"
  done
  [ -z "$missing" ] && ok "make CROSS=$CROSS install: the DLL and the command in bin/, the import, static and .def in lib/, headers, .pc, CMake package" ||
    bad "make CROSS=$CROSS install did not write:$missing"
  grep -q '^Libs.private: -lbcrypt' "$cprefix/lib/pkgconfig/libonnxslim.pc" &&
    ok "libonnxslim.pc's Libs.private names bcrypt for the static library" ||
    bad "libonnxslim.pc's Libs.private: $(grep Libs.private "$cprefix/lib/pkgconfig/libonnxslim.pc")"
  if cmake -S test/cmake-consumer -B "$ctmp/cm" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/x86_64-w64-mingw32.cmake" \
    -DCMAKE_PREFIX_PATH="$cprefix" -DLIBONNXSLIM_SOURCE_DIR="$PWD" > "$ctmp/cm.log" 2>&1 &&
    cmake --build "$ctmp/cm" >> "$ctmp/cm.log" 2>&1 && [ -f "$ctmp/cm/consumer_cpp.exe" ] && [ -f "$ctmp/cm/consumer_c_static.exe" ]; then
    ok "CMake with the toolchain file finds the installed package and builds the C++ (DLL) and C (static) consumers"
    imports_cpp=$(${CROSS}objdump -p "$ctmp/cm/consumer_cpp.exe" | awk '/DLL Name:/ {print $3}' | tr '\n' ' ')
    imports_c=$(${CROSS}objdump -p "$ctmp/cm/consumer_c_static.exe" | awk '/DLL Name:/ {print $3}' | tr '\n' ' ')
    case "$imports_cpp" in *libonnxslim-0.dll*) ok "the C++ consumer imports libonnxslim-0.dll" ;; *) bad "the C++ consumer's imports: $imports_cpp" ;; esac
    case "$imports_c" in *libonnxslim*) bad "the static consumer imports $imports_c" ;; *) ok "the static consumer needs system DLLs only: $imports_c" ;; esac
    if command -v wine > /dev/null 2>&1; then
      export WINEDEBUG=-all WINEPREFIX="$PWD/$B/wine"
      # the DLL from the installed bin/, the C++ runtime from mingw-w64 (what
      # a Windows user ships next to the program)
      rt=$(dirname "$(${CROSS}g++ -print-file-name=libstdc++-6.dll)")
      fp=$(build/libonnxslim fingerprint test/data/bert-tiny.onnx | awk '{print $1}')
      out=$(WINEPATH="$(winepath -w "$cprefix/bin");$(winepath -w "$rt")" wine "$ctmp/cm/consumer_cpp.exe" test/data/bert-tiny.onnx 2>&1 | tr -d '\r')
      case "$out" in
        "libonnxslim "*": 58 nodes, fingerprint $fp") ok "under wine, the C++ consumer with the installed DLL: $out" ;;
        *) bad "under wine, the C++ consumer printed: $out (expected 58 nodes, fingerprint $fp)" ;;
      esac
      out=$(wine "$ctmp/cm/consumer_c_static.exe" test/data/bert-tiny.onnx 2>&1 | tr -d '\r')
      case "$out" in
        *"nodes:      58"*) ok "under wine, the static C consumer reads the model (58 nodes) with no libonnxslim DLL" ;;
        *) bad "under wine, the static C consumer printed: $(echo "$out" | head -n 3)" ;;
      esac
    else
      skip "the CMake consumers under wine: wine is not installed"
    fi
  else
    tail -n 25 "$ctmp/cm.log"
    bad "CMake with the toolchain file and the installed package (above)"
  fi
else
  tail -n 20 "$ctmp/install.log"
  bad "make CROSS=$CROSS install (above)"
fi
rm -rf "$ctmp"
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
