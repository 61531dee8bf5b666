# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# An install that can be moved, stripped and removed:
# - make install (another python3 first on PATH) says where each part went
#   and the line to add for each search path the prefix is outside of;
# - make install into a prefix, move the prefix, hide the original: a
#   program builds and runs with pkg-config and with CMake from the moved
#   prefix, the command runs, the Python package imports and loads the moved
#   library;
# - make install-strip installs binaries without debug sections;
# - make uninstall removes exactly what make install put there (a staged
#   install, uninstalled, leaves no file, link or directory behind but what
#   was there before).
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
PY=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
root=$PWD
m=test/data/bert-tiny.onnx
old="$tmp/first" new="$tmp/moved/here"
# with another python3 first on PATH (one that fails and leaves a mark when
# run): PYTHON is /usr/bin/python3 unless set, whatever PATH says
mkdir "$tmp/shim"
printf '#!/bin/sh\necho "$*" >> "%s/shim/ran"\nexit 1\n' "$tmp" > "$tmp/shim/python3"
chmod +x "$tmp/shim/python3"
if PATH="$tmp/shim:$PATH" make -s install PREFIX="$old" > "$tmp/install.log" 2>&1; then
  ok "make install PREFIX=$old"
else
  cat "$tmp/install.log"; bad "make install PREFIX=$old"
fi
site_old=$($PY scripts/python-dir.py "$old" | sed -n 1p)
if [ ! -e "$tmp/shim/ran" ] && grep -qx "  Python  *$site_old/libonnxslim (for /usr/bin/python3)" "$tmp/install.log" &&
   [ -f "$site_old/libonnxslim/__init__.py" ]; then
  ok "PYTHON defaults to /usr/bin/python3, not the python3 first on PATH: package in $site_old"
else
  cat "$tmp/install.log"; cat "$tmp/shim/ran" 2>/dev/null; bad "make install's Python for the default PYTHON"
fi
# a PYTHON that does not run cannot say where the package goes: make install
# and make uninstall stop with an error naming PYTHON before touching the
# tree (they used to install into, or remove from, DESTDIR/libonnxslim)
mkdir -p "$tmp/nopy/keep" && echo keep > "$tmp/nopy/keep/file"
if ! make -s install PREFIX=/opt/x DESTDIR="$tmp/nopy" PYTHON="$tmp/shim/python3" > "$tmp/nopy.log" 2>&1 &&
   grep -q 'PYTHON' "$tmp/nopy.log" && [ "$(cd "$tmp/nopy" && find . | sort | tr '\n' ' ')" = ". ./keep ./keep/file " ] &&
   ! make -s uninstall PREFIX=/opt/x DESTDIR="$tmp/nopy" PYTHON="$tmp/shim/python3" >> "$tmp/nopy.log" 2>&1 &&
   [ -f "$tmp/nopy/keep/file" ]; then
  ok "make install/uninstall with a PYTHON that fails: an error ($(grep -m 1 PYTHON "$tmp/nopy.log" | cut -c1-50)...), nothing written"
else
  cat "$tmp/nopy.log"; (cd "$tmp/nopy" && find . | head); bad "make install with a failing PYTHON"
fi
rm -f "$tmp/shim/ran"
# the report: where each part went (before the hints), then for this prefix,
# outside every search path, the line to add for each
sed -n '/^libonnxslim installed:$/,/^outside/p' "$tmp/install.log" > "$tmp/parts"
sed -n '/^outside the system.s search paths; to use it, add:$/,$p' "$tmp/install.log" > "$tmp/hints"
n=0 missing=
for part in "library  *$old/lib/libonnxslim.so.0" "headers  *$old/include/onnxslim.h" "command  *$old/bin/libonnxslim$" \
  "pkg-config  *$old/lib/pkgconfig/libonnxslim.pc" "CMake  *$old/lib/cmake/libonnxslim/" "Python  *$site_old/libonnxslim " \
  "man page  *$old/share/man/man1/libonnxslim.1" "completion  *$old/share/bash-completion/completions/libonnxslim"; do
  grep -q "^  $part" "$tmp/parts" && n=$((n + 1)) || missing="$missing [$part]"
done
[ -z "$missing" ] && ok "make install says where each of the $n parts went" || { cat "$tmp/install.log"; bad "make install's report lacks$missing"; }
n=0 missing=
for hint in "library .*> /etc/ld.so.conf.d/libonnxslim.conf && ldconfig" "pkg-config  *export PKG_CONFIG_PATH=$old/lib/pkgconfig" \
  "CMake  *cmake -DCMAKE_PREFIX_PATH=$old " "Python  *export PYTHONPATH=$site_old" \
  "completion  *export XDG_DATA_DIRS=$old/share:" "command  *export PATH=$old/bin:"; do
  grep -q "^  $hint" "$tmp/hints" && n=$((n + 1)) || missing="$missing [$hint]"
done
if command -v manpath > /dev/null 2>&1; then
  grep -q "^  man page  *export MANPATH=$old/share/man:$" "$tmp/hints" && n=$((n + 1)) || missing="$missing [MANPATH]"
fi
[ -z "$missing" ] && ok "and, for this prefix outside the search paths, the $n lines to add (ldconfig, PYTHONPATH, MANPATH, XDG_DATA_DIRS, ...)" ||
  { cat "$tmp/install.log"; bad "make install's hints lack$missing"; }
mkdir -p "$(dirname "$new")" && mv "$old" "$new"
site=$new${site_old#"$old"}
[ ! -e "$old" ] && ok "prefix moved to $new, the original gone" || bad "move the prefix"

# pkg-config, from the moved prefix's .pc file (${pcfiledir})
export PKG_CONFIG_PATH="$new/lib/pkgconfig"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
if cc -std=c11 examples/summary.c $(pkg-config --cflags --libs libonnxslim) -o "$tmp/summary" > "$tmp/cc.log" 2>&1 &&
   LD_LIBRARY_PATH="$new/lib" "$tmp/summary" "$m" > /dev/null &&
   LD_LIBRARY_PATH="$new/lib" ldd "$tmp/summary" | grep -q "$new/lib/libonnxslim.so.0"; then
  ok "pkg-config: a program builds and runs against the moved prefix"
else
  cat "$tmp/cc.log"; pkg-config --cflags --libs libonnxslim; bad "pkg-config from the moved prefix"
fi
# CMake, from the moved prefix's package (its own location)
if command -v cmake > /dev/null 2>&1; then
  if env -u CMAKE_PREFIX_PATH cmake -S test/cmake-consumer -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$new" \
       -DLIBONNXSLIM_SOURCE_DIR="$root" > "$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm" >> "$tmp/cm.log" 2>&1 &&
     "$tmp/cm/consumer_cpp" "$m" > "$tmp/cm.out" 2>&1 && ldd "$tmp/cm/consumer_cpp" | grep -q "$new/lib/libonnxslim.so.0" &&
     "$tmp/cm/consumer_c_static" "$m" > /dev/null; then
    ok "CMake: find_package(libonnxslim) from the moved prefix; both targets build and run ($(cat "$tmp/cm.out"))"
  else
    tail -n 20 "$tmp/cm.log"; bad "CMake from the moved prefix"
  fi
else
  bad "cmake not found (make deps installs it)"
fi
# the command: its library through $ORIGIN
resolved=$(env -u LD_LIBRARY_PATH ldd "$new/bin/libonnxslim" | awk '$1 == "libonnxslim.so.0" {print $3}')
if out=$(env -u LD_LIBRARY_PATH "$new/bin/libonnxslim" info "$m" 2>&1) &&
   [ "$(realpath "$resolved")" = "$(realpath "$new/lib/libonnxslim.so.0")" ]; then
  ok "the moved command runs with its moved library (\$ORIGIN)"
else
  echo "$out" | tail -n 5; echo "resolved: $resolved"; bad "the moved command"
fi
# the Python package: its library relative to itself
out=$(cd / && env -u LIBONNXSLIM_LIBRARY -u LD_LIBRARY_PATH PYTHONPATH="$site" $PY -c \
  'import libonnxslim; print(libonnxslim.library_path); print(libonnxslim.load(__import__("sys").argv[1]).fingerprint())' \
  "$root/$m" 2>&1)
if [ "$(printf '%s\n' "$out" | sed -n 1p)" = "$new/lib/libonnxslim.so.0" ] &&
   [ "$(printf '%s\n' "$out" | sed -n 2p)" = "$("$new/bin/libonnxslim" fingerprint "$m" | awk '{print $1}')" ]; then
  ok "the moved Python package imports and loads the moved library"
else
  echo "$out"; bad "the moved Python package"
fi

# install-strip: no debug sections in the installed binaries
if make -s install-strip PREFIX=/opt/libonnxslim DESTDIR="$tmp/strip" > "$tmp/strip.log" 2>&1; then
  lib=$(ls "$tmp/strip/opt/libonnxslim/lib/"libonnxslim.so.*.*.*)
  if ! readelf -S "$lib" "$tmp/strip/opt/libonnxslim/bin/libonnxslim" | grep -q '\.debug_' &&
     readelf -S "$root/${B:-build}/libonnxslim" | grep -q '\.debug_' &&
     ! readelf -s "$lib" | grep -q '\.symtab'; then
    ok "make install-strip: library and command without debug sections (the build's have them)"
  else
    bad "make install-strip left debug sections"
  fi
else
  cat "$tmp/strip.log"; bad "make install-strip"
fi

# uninstall removes what install put there, nothing more, nothing less
for p in /usr/local /opt/libonnxslim; do
  st="$tmp/un-$(basename $p)"
  mkdir -p "$st$p/bin" && echo keep > "$st$p/bin/other-tool"
  if make -s install PREFIX=$p DESTDIR="$st" > /dev/null 2>&1 &&
     n=$(find "$st" -type f -o -type l | wc -l) &&
     (cd / && PYTHONPATH="$st$($PY scripts/python-dir.py $p | sed -n 1p)" $PY -c 'import libonnxslim' 2>/dev/null; true) &&
     make -s uninstall PREFIX=$p DESTDIR="$st" > "$tmp/un.log" 2>&1; then
    # nothing left but the file and directories that were there before
    # (bin/other-tool and its parents): no file, no link, no directory
    left=$(find "$st" -mindepth 1 ! -path "$st$p/bin/other-tool" ! -path "$st$p/bin" |
      while read -r f; do case $st$p in "$f" | "$f"/*) ;; *) echo "$f" ;; esac; done)
    if [ -z "$left" ] && [ -f "$st$p/bin/other-tool" ]; then
      ok "make uninstall PREFIX=$p DESTDIR=...: the $((n - 1)) installed files and the directories install made removed, another file and its directory kept"
    else
      printf '%s\n' "$left" | head -n 20; bad "make uninstall PREFIX=$p left files or directories behind"
    fi
  else
    cat "$tmp/un.log" 2>/dev/null; bad "make install/uninstall PREFIX=$p"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
