# make install into a temporary prefix (and a DESTDIR staging tree), then
# build and run the example against the installed copy using only
# pkg-config --cflags --libs onnxslim, with the shared and the static library.
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
prefix="$tmp/prefix"
if make -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then ok "make install PREFIX=$prefix"; else cat "$tmp/install.log"; bad "make install"; fi
for f in include/onnxslim.h include/onnxslim/model.h lib/libonnxslim.so lib/libonnxslim.a \
         lib/pkgconfig/onnxslim.pc bin/onnxslim; do
  [ -e "$prefix/$f" ] && ok "installed $f" || bad "missing $f"
done
real=$(ls "$prefix/lib" | grep -E '^libonnxslim\.so\.[0-9]+\.[0-9]+\.[0-9]+$')
[ -n "$real" ] && [ -L "$prefix/lib/libonnxslim.so.0" ] && ok "installed $real with symlinks" || bad "installed real file/symlinks"
# pkg-config must find this install first, whatever the caller's environment
# says: the caller's search path could hold another onnxslim.pc, a sysroot
# would be prefixed to every path it prints, and a replaced default search
# path would hide the system's .pc files.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
[ "$(pkg-config --modversion onnxslim)" = "$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)" ] && ok "pkg-config --modversion" || bad "pkg-config version"
if cc -std=c11 examples/summary.c $(pkg-config --cflags --libs onnxslim) -o "$tmp/summary" &&
   LD_LIBRARY_PATH="$prefix/lib" "$tmp/summary" test/data/bert-tiny.onnx "$tmp/copy.onnx" > "$tmp/out.txt" &&
   cmp -s test/data/bert-tiny.onnx "$tmp/copy.onnx" && grep -q 'input_ids' "$tmp/out.txt"; then
  ok "example built with pkg-config against the installed shared library"
else
  bad "example against installed shared library"
fi
# the binary must have picked the installed library, not the build tree
LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/summary" | grep -q "$prefix/lib/libonnxslim.so.0" && ok "example resolves the installed libonnxslim.so.0" || bad "example library resolution"
if cc -std=c11 examples/summary.c $(pkg-config --cflags onnxslim) "$prefix/lib/libonnxslim.a" $(pkg-config --libs-only-l --static onnxslim | sed 's/-lonnxslim//') -o "$tmp/summary-static" &&
   "$tmp/summary-static" test/data/bert-tiny.onnx > /dev/null && ! ldd "$tmp/summary-static" | grep -q onnxslim; then
  ok "example linked statically against the installed libonnxslim.a"
else
  bad "example against installed static library"
fi
"$prefix/bin/onnxslim" info test/data/bert-tiny.onnx > /dev/null && ok "installed onnxslim command runs" || bad "installed onnxslim command"
# every `cc` command of docs/building.md, as written there (backslash
# continuations joined; app.c is the example, app a file of ours), builds a
# program that runs; one that names libonnxslim.a must not need libonnxslim.so
awk '/^```sh$/ {on = 1; next} /^```/ {on = 0} on' docs/building.md |
  sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep -E '^cc ' | sed 's/ *#.*$//' > "$tmp/doc-cc.txt"
[ -s "$tmp/doc-cc.txt" ] || bad "no cc command found in docs/building.md"
while IFS= read -r line; do
  cmd=$(printf '%s\n' "$line" | sed -e 's| app\.c | examples/summary.c |' -e "s| -o app\$| -o $tmp/docapp|")
  rm -f "$tmp/docapp"
  # a program linked through pkg-config has no rpath: the doc says to run ldconfig
  libpath=
  case $line in *pkg-config*) libpath="$prefix/lib" ;; esac
  if sh -c "$cmd" > "$tmp/doc-cc.log" 2>&1 &&
     LD_LIBRARY_PATH="$libpath" "$tmp/docapp" test/data/bert-tiny.onnx > /dev/null &&
     { ! printf '%s' "$line" | grep -q 'libonnxslim\.a' || ! ldd "$tmp/docapp" | grep -q onnxslim; }; then
    ok "docs/building.md: $line"
  else
    cat "$tmp/doc-cc.log"
    bad "docs/building.md: $line"
  fi
done < "$tmp/doc-cc.txt"
# staged install: files land under DESTDIR, the .pc file names the final prefix
if make -s install PREFIX=/opt/onnxslim DESTDIR="$tmp/stage" >/dev/null 2>&1 &&
   [ -f "$tmp/stage/opt/onnxslim/lib/pkgconfig/onnxslim.pc" ] &&
   grep -q '^prefix=/opt/onnxslim$' "$tmp/stage/opt/onnxslim/lib/pkgconfig/onnxslim.pc" &&
   [ ! -e /opt/onnxslim ]; then
  ok "make install DESTDIR= PREFIX=/opt/onnxslim stages correctly"
else
  bad "DESTDIR install"
fi
rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
