# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The Debian packaging agrees with the tree (no build: make check-long builds
# and installs the packages, test/check_long/debian-check.sh): the symbols
# file is what scripts/gen-debian-symbols.py makes of lib/onnxslim.map and
# abi/onnxslim.symbols, the generator fails on inputs that disagree,
# debian/changelog's upstream version is include/onnxslim/version.h's, and
# debian/control builds the four packages.
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. the committed symbols file is the generator's output
if python3 scripts/gen-debian-symbols.py --check > "$tmp/check.log" 2>&1; then
  ok "debian/libonnxslim0.symbols is scripts/gen-debian-symbols.py's output"
else
  head -n 30 "$tmp/check.log"; bad "debian/libonnxslim0.symbols differs from scripts/gen-debian-symbols.py's output"
fi

# 2. the generator on copies of its inputs: minimal versions, and failures
mk() {
  rm -rf "$tmp/t" && mkdir -p "$tmp/t/scripts" "$tmp/t/lib" "$tmp/t/abi" "$tmp/t/include/onnxslim" &&
    cp scripts/gen-debian-symbols.py "$tmp/t/scripts/" && cp lib/onnxslim.map "$tmp/t/lib/" &&
    cp abi/onnxslim.symbols "$tmp/t/abi/" && cp include/onnxslim/version.h "$tmp/t/include/onnxslim/"
}
gen() { python3 "$tmp/t/scripts/gen-debian-symbols.py" > "$tmp/out" 2> "$tmp/err"; }
cur=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)
mk && gen && first=$(grep -m 1 '^ onnxslim_version_string@ONNXSLIM_0.1 ' "$tmp/out")
[ "$first" = " onnxslim_version_string@ONNXSLIM_0.1 0.1.0" ] && ok "a 0.1.0 name: @ONNXSLIM_0.1 0.1.0" ||
  bad "onnxslim_version_string: '$first'"
# a name added after the current version gets the current one
mk && sed -i 's/^\(onnxslim_version_number\) 0\.1\.0$/\1 9.9.0/' "$tmp/t/abi/onnxslim.symbols" &&
  printf 'ONNXSLIM_9.9 {\n  global:\n    onnxslim_version_number;\n} ONNXSLIM_0.1;\n' >> "$tmp/t/lib/onnxslim.map"
if gen && grep -q "^ onnxslim_version_number@ONNXSLIM_9.9 $cur\$" "$tmp/out" && grep -q "^ ONNXSLIM_9.9@ONNXSLIM_9.9 $cur\$" "$tmp/out"; then
  ok "a name added in a later version (9.9.0) than version.h's: minimal version $cur"
else bad "later name: $(grep 'ONNXSLIM_9.9' "$tmp/out" | tr '\n' ' ') $(cat "$tmp/err")"; fi
# ... and its own version once version.h reaches it
sed -i 's/^#define ONNXSLIM_VERSION_STRING ".*"/#define ONNXSLIM_VERSION_STRING "9.9.0"/' "$tmp/t/include/onnxslim/version.h"
gen && grep -q '^ onnxslim_version_number@ONNXSLIM_9.9 9.9.0$' "$tmp/out" &&
  ok "with version.h at 9.9.0: minimal version 9.9.0" || bad "version.h 9.9.0: $(grep 'ONNXSLIM_9.9' "$tmp/out" | tr '\n' ' ')"
# fails closed: a name in the node of another version
mk && sed -i 's/^\(onnxslim_version_number\) 0\.1\.0$/\1 0.2.0/' "$tmp/t/abi/onnxslim.symbols"
gen; r=$?
[ $r -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q 'onnxslim_version_number: added in 0.2.0.*ONNXSLIM_0.1' "$tmp/err" &&
  ok "a name whose node is not its version's: exit 2, nothing written ($(cat "$tmp/err"))" || bad "node mismatch: exit $r, $(cat "$tmp/err")"
# fails closed: a name of the map missing from abi/onnxslim.symbols
mk && sed -i '/^onnxslim_check_with /d' "$tmp/t/abi/onnxslim.symbols"
gen; r=$?
[ $r -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q 'onnxslim_check_with is in lib/onnxslim.map but not in abi/onnxslim.symbols' "$tmp/err" &&
  ok "a name of the map missing from abi/onnxslim.symbols: exit 2" || bad "missing name: exit $r, $(cat "$tmp/err")"
# --check reports a stale file
mk && mkdir -p "$tmp/t/debian" && grep -v 'onnxslim_graph_name@' debian/libonnxslim0.symbols > "$tmp/t/debian/libonnxslim0.symbols"
python3 "$tmp/t/scripts/gen-debian-symbols.py" --check > "$tmp/out" 2> "$tmp/err"; r=$?
[ $r -eq 1 ] && grep -q '^+ onnxslim_graph_name@ONNXSLIM_0.1' "$tmp/out" &&
  ok "--check on a stale file: exit 1 and the diff" || bad "--check on a stale file: exit $r"

# 3. debian/changelog's upstream version (no epoch, no Debian revision) is version.h's
deb=$(sed -n '1s/^libonnxslim (\([^)]*\)).*/\1/p' debian/changelog)
up=${deb#*:}; up=${up%-*}
[ -n "$deb" ] && [ "$up" = "$cur" ] && ok "debian/changelog $deb: upstream $up = version.h $cur" ||
  bad "debian/changelog's version '$deb' (upstream '$up') is not version.h's $cur: add a debian/changelog entry"

# 4. the four binary packages, each with its .install file
pk=$(sed -n 's/^Package: //p' debian/control | sort | tr '\n' ' ')
[ "$pk" = "libonnxslim-dev libonnxslim-tools libonnxslim0 python3-libonnxslim " ] && ok "debian/control: $pk" || bad "debian/control packages: $pk"
for p in $pk; do [ -f "debian/$p.install" ] || bad "no debian/$p.install"; done
grep -q '^libonnxslim.so.0 libonnxslim0 ' debian/libonnxslim0.symbols && ok "symbols file for libonnxslim.so.0 in libonnxslim0" ||
  bad "debian/libonnxslim0.symbols has no 'libonnxslim.so.0 libonnxslim0' line"
# 5. the build takes the packager's LDFLAGS (dpkg-buildflags: -z relro -z now)
#    for every program it links, not only the library (make -n: nothing built)
make -s -n B="$tmp/b" LDFLAGS=-Wl,--ldflags-marker "$tmp/b/libonnxslim" "$tmp/b/examples/summary" \
  "$tmp/b/examples/recipe-cpp" > "$tmp/n" 2>&1
for t in libonnxslim examples/summary examples/recipe-cpp; do
  if grep -- "-o $tmp/b/$t " "$tmp/n" | grep -q -- "-Wl,--ldflags-marker"; then
    ok "LDFLAGS reach the link of $t"
  else bad "LDFLAGS missing from the link of $t: $(grep -- "-o $tmp/b/$t " "$tmp/n")"; fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
