# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Big-endian targets are refused at build time with a clear error
# (lib/base/base.h; docs/building.md): one library object cross-compiled
# for s390x (or 32-bit powerpc) must fail with that error, and the same
# object for this machine must compile. Skipped without a big-endian cross
# compiler (Debian: gcc-s390x-linux-gnu libc6-dev-s390x-cross).
set -u
. test/step-lib.sh
cross=""
for c in s390x-linux-gnu- powerpc-linux-gnu-; do
  command -v "${c}gcc" >/dev/null 2>&1 && { cross=$c; break; }
done
if [ -z "$cross" ]; then
  skip "big-endian refusal: no s390x-linux-gnu-gcc or powerpc-linux-gnu-gcc (Debian: gcc-s390x-linux-gnu)"
else
  # -o need-deps: the check of the build dependencies (the target's nanopb
  # archive, absent for s390x) is not what this step tests
  make -s -o need-deps CROSS="$cross" B="$tmp/be" "$tmp/be/obj/base/version.o" >"$tmp/be.log" 2>&1
  rc=$?
  cat "$tmp/be.log"
  if [ $rc -ne 0 ] && grep -q 'error: #error "libonnxslim builds for little-endian targets only' "$tmp/be.log"; then
    ok "${cross}gcc: the build stops with the little-endian error"
  else
    bad "${cross}gcc: expected the little-endian #error (make exit $rc)"
  fi
  [ -e "$tmp/be/obj/base/version.o" ] && bad "a big-endian object was written" || ok "no big-endian object written"
fi
make -s B="$tmp/le" "$tmp/le/obj/base/version.o" >"$tmp/le.log" 2>&1 &&
  [ -s "$tmp/le/obj/base/version.o" ] && ok "the same object compiles for this machine" ||
  { cat "$tmp/le.log"; bad "the same object for this machine"; }
grep -q 'little-endian' docs/building.md && ok "docs/building.md says so" || bad "docs/building.md does not mention little-endian"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
