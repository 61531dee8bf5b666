# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ABI discipline: exported symbols match the committed list (and nothing of
# nanopb leaks), SONAME and symlinks, the static library exposes only the
# API, every public header compiles alone as C99 and C++, every public
# function is documented with the version that added it, and the ABI has
# no incompatible change against the committed baseline.
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
so="$B/libonnxslim.so"
tmp=$(mktemp -d)

# 1. exported symbols == committed list
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sed 's/@.*//' | sort > "$tmp/exported"
grep -v '^#' abi/onnxslim.symbols | awk 'NF {print $1}' | sort > "$tmp/listed"
if diff -u "$tmp/listed" "$tmp/exported"; then ok "exports match abi/onnxslim.symbols"; else bad "exports differ from abi/onnxslim.symbols"; fi
if nm -D --defined-only "$so" | awk '{print $3}' | grep -E '^pb_|^onnx_' >/dev/null; then bad "nanopb symbols exported"; else ok "no pb_* or onnx_* symbol exported"; fi
if nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep -v '^onnxslim_[a-z0-9]' >/dev/null; then bad "non-libonnxslim symbol exported"; else ok "only onnxslim_* exported"; fi

# 1b. symbol versions: each exported name carries the version node of the
# minor release that added it (abi/onnxslim.symbols: "name 0.1.0" ->
# ONNXSLIM_0.1), as lib/onnxslim.map and docs/abi.md say
objdump -T "$so" | awk '$NF ~ /^onnxslim_/ {print $NF, $(NF-1)}' | sort > "$tmp/nodes"
grep -v '^#' abi/onnxslim.symbols | awk 'NF {split($2, v, "."); print $1, "ONNXSLIM_" v[1] "." v[2]}' | sort > "$tmp/want-nodes"
if [ -s "$tmp/nodes" ] && diff -u "$tmp/want-nodes" "$tmp/nodes"; then
  ok "every exported symbol carries its version node ($(awk '{print $2}' "$tmp/nodes" | sort -u | tr '\n' ' '| sed 's/ $//'))"
else
  bad "symbol version nodes differ from abi/onnxslim.symbols"
fi
# The rule of lib/onnxslim.map works: a later node (added as the map says)
# makes a program that uses its names fail at load on a library without it,
# naming the version, instead of at its first call. The later node is a
# made-up future release (ONNXSLIM_99.0) chained to the newest node of the
# map, so the check holds whichever nodes the map has.
mkdir -p "$tmp/ver"
printf 'int onnxslim_old(void) { return 1; }\n' > "$tmp/ver/old.c"
printf 'int onnxslim_old(void) { return 1; }\nint onnxslim_new(void) { return 2; }\n' > "$tmp/ver/new.c"
last=$(sed -n 's/^\(ONNXSLIM_[0-9.]*\) {.*/\1/p' lib/onnxslim.map | tail -n 1)
{ cat lib/onnxslim.map; printf 'ONNXSLIM_99.0 {\n  global:\n    onnxslim_new;\n} %s;\n' "$last"; } > "$tmp/ver/new.map"
printf 'int onnxslim_old(void);\nint onnxslim_new(void);\nint main(void) { return onnxslim_old() + onnxslim_new() == 3 ? 0 : 1; }\n' > "$tmp/ver/app.c"
if cc -shared -fPIC -o "$tmp/ver/libv.so" "$tmp/ver/new.c" -Wl,-soname,libv.so -Wl,--version-script,"$tmp/ver/new.map" &&
   cc -o "$tmp/ver/app" "$tmp/ver/app.c" -L"$tmp/ver" -lv -Wl,-rpath,"$tmp/ver" &&
   "$tmp/ver/app" &&
   cc -shared -fPIC -o "$tmp/ver/libv.so" "$tmp/ver/old.c" -Wl,-soname,libv.so -Wl,--version-script,lib/onnxslim.map &&
   ! "$tmp/ver/app" 2> "$tmp/ver/err" && grep -q "ONNXSLIM_99.0' not found" "$tmp/ver/err"; then
  ok "a program using a name of a later node fails at load on a library without it: $(sed 's/.*: //' "$tmp/ver/err" | head -n 1)"
else
  cat "$tmp/ver/err" 2>/dev/null; bad "version nodes: load-time failure on an older library"
fi

# 2. SONAME, real file, symlinks
major=$(sed -n 's/^#define ONNXSLIM_VERSION_MAJOR \([0-9]*\)/\1/p' include/onnxslim/version.h)
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libonnxslim.so.$major" ] && ok "SONAME $soname" || bad "SONAME is '$soname'"
[ "$(readlink "$B/libonnxslim.so")" = "libonnxslim.so.$major" ] && [ -L "$B/libonnxslim.so.$major" ] && \
  [ -f "$(readlink -f "$so")" ] && ok "symlinks libonnxslim.so -> .so.$major -> $(basename "$(readlink -f "$so")")" || bad "symlinks"
readelf -d "$so" | grep -q 'NEEDED.*libc.so' && ! readelf -d "$so" | grep -q 'nanopb' && ok "links libc, carries nanopb inside" || bad "dependencies"

# 3. static library: only onnxslim_* global, nanopb inside
if nm -g --defined-only "$B/libonnxslim.a" 2>/dev/null | awk 'NF==3 {print $3}' | grep -v '^onnxslim_[a-z0-9]' >/dev/null; then
  bad "static library exposes non-API symbols"; else ok "static library exposes only onnxslim_*"; fi
nm -g --undefined-only "$B/libonnxslim.a" | grep -q ' pb_' && bad "static library needs nanopb" || ok "static library is self-contained"

# 4. each public header compiles alone, as C99 and as C++
for h in include/onnxslim.h include/onnxslim/*.h; do
  rel=${h#include/}
  printf '#include <%s>\nint onnxslim_header_test_dummy;\n' "$rel" > "$tmp/h.c"
  printf '#include <%s>\nint onnxslim_header_test_dummy;\n' "$rel" > "$tmp/h.cpp"
  if cc -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -c "$tmp/h.c" -o "$tmp/h.o" &&
     c++ -std=c++11 -pedantic -Wall -Wextra -Werror -Iinclude -c "$tmp/h.cpp" -o "$tmp/hpp.o"; then
    ok "header $rel alone (C99, C++11)"
  else
    bad "header $rel alone"
  fi
done

# 5. documented, versioned, listed
if /usr/bin/python3 test/check_api_docs.py > "$tmp/docs.log"; then ok "$(tail -n 1 "$tmp/docs.log") in the API docs check"; else cat "$tmp/docs.log"; bad "API docs check"; fi

# 5b. deprecated names (test/check_deprecated.py): each names a replacement
# that exists, is in docs/api.md and CHANGELOG's Deprecated list, fails to
# compile under -Werror=deprecated-declarations while its replacement
# compiles; nothing of the tree but test/test_deprecated.c uses one
/usr/bin/python3 test/check_deprecated.py "${CC:-cc}" > "$tmp/deprecated.log" 2>&1; r=$?
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/deprecated.log"
p=$(grep -c '^ok ' "$tmp/deprecated.log") f=$(grep -c '^FAIL ' "$tmp/deprecated.log")
passed=$((passed + p)) failed=$((failed + f))
[ $r -ne 0 ] && [ "$f" -eq 0 ] && bad "test/check_deprecated.py exit $r"

# 6. no incompatible ABI change against the committed baseline (make abi-check)
if ${MAKE:-make} -s --no-print-directory abi-check B="$B" > "$tmp/abi-check.log" 2>&1; then
  ok "$(tail -n 1 "$tmp/abi-check.log")"
else
  cat "$tmp/abi-check.log"; bad "make abi-check"
fi

rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
