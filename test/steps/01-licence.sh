# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Every file says its licence (REUSE 3.0, checked by Debian's `reuse lint`):
# an SPDX-License-Identifier line in each file that takes comments,
# .reuse/dep5 for the binary test models, LICENSES/ for the texts. The files
# are those git tracks, or, in an unpacked release without .git, every file
# but the build directory; they are copied to a scratch directory first so
# build outputs never count.
set -u
B=${B:-build}
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
command -v reuse >/dev/null 2>&1 || { bad "reuse not found (Debian package reuse): run 'make deps'"; echo "$pass passed, $fail failed"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tmp" 2>/dev/null
else
  find . -path "./$B" -prune -o -path ./.git -prune -o -name node_modules -prune -o -name __pycache__ -prune \
    -o -type f -print0 | xargs -0 cp --parents -t "$tmp"
fi
n=$(find "$tmp" -type f | wc -l)
if (cd "$tmp" && reuse lint) > "$tmp.log" 2>&1; then
  ok "reuse lint: $n files, every one with its copyright and licence"
else
  bad "reuse lint over $n files:"; sed -n '1,40p' "$tmp.log"
fi
# the lint can fail: a file without the lines is caught
printf 'int x;\n' > "$tmp/lib/no_licence.c"
if (cd "$tmp" && reuse lint) > "$tmp.log2" 2>&1; then
  bad "reuse lint passed a file without licence lines"
elif grep -q 'no_licence.c' "$tmp.log2"; then
  ok "reuse lint names a file without licence lines (lib/no_licence.c)"
else
  bad "reuse lint failed without naming lib/no_licence.c"; tail -n 20 "$tmp.log2"
fi
rm -f "$tmp.log" "$tmp.log2"
# the code the build generates from onnx.proto (nanopb), not tracked: the
# Makefile's rule, run into a scratch build directory, writes it with its
# Apache-2.0 lines, and reuse lint passes on it
# REUSE-IgnoreStart
gen="$tmp.gen"
if make -s B="$gen/build" "$gen/build/proto/onnx.pb.h" > "$gen.log" 2>&1; then
  mkdir -p "$gen/lint/LICENSES" && cp LICENSES/Apache-2.0.txt "$gen/lint/LICENSES/" &&
    cp "$gen/build/proto/onnx.pb.c" "$gen/build/proto/onnx.pb.h" "$gen/lint/"
  if grep -q '^/\* SPDX-License-Identifier: Apache-2.0 \*/$' "$gen/lint/onnx.pb.c" &&
     grep -q '^/\* SPDX-License-Identifier: Apache-2.0 \*/$' "$gen/lint/onnx.pb.h" &&
     (cd "$gen/lint" && reuse lint) > "$gen.log" 2>&1; then
    ok "the generated onnx.pb.c and onnx.pb.h carry Apache-2.0 SPDX lines (reuse lint on them)"
  else
    head -n 4 "$gen/lint/onnx.pb.c"; sed -n '1,20p' "$gen.log"; bad "the generated nanopb code lacks its licence lines"
  fi
else
  cat "$gen.log"; bad "make $gen/build/proto/onnx.pb.h"
fi
rm -rf "$gen" "$gen.log"
# REUSE-IgnoreEnd
# the licence is stated where users and packagers look
# REUSE-IgnoreStart
grep -q '^MIT License' LICENSE && ok "LICENSE is the MIT licence" || bad "LICENSE is not the MIT licence"
grep -q 'Apache-2.0' NOTICE && grep -q 'zlib' NOTICE && ok "NOTICE names onnx.proto's Apache-2.0 and nanopb's zlib" || bad "NOTICE lacks the third-party licences"
grep -q '^license = ' python/pyproject.toml && ok "python/pyproject.toml states the licence" || bad "pyproject.toml: no license"
grep -qi '^# *SPDX-License-Identifier: MIT' pkgconfig/libonnxslim.pc.in && ok "the pkg-config file states it" || bad "pkg-config file: no licence"
grep -q 'SPDX-License-Identifier: MIT' cmake/libonnxslimConfig.cmake.in && ok "the CMake package states it" || bad "CMake file: no licence"
grep -q '^\.SH LICENSE' man/libonnxslim.1 && ok "the man page has a LICENSE section" || bad "man page: no LICENSE section"
grep -q '^## Licence' README.md && ok "README has a Licence section" || bad "README: no Licence section"
# REUSE-IgnoreEnd
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
