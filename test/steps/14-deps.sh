# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# `make deps` once everything is installed: silent, and no apt-get (so
# make check, demo, check-long and bench never run apt-get by themselves
# after the first time). An apt-get (and sudo) that record their call and
# fail are put first on the PATH.
set -u
. test/step-lib.sh
mkdir -p "$tmp/bin"
for c in apt-get apt sudo; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/called"\nexit 1\n' "$c" "$tmp" > "$tmp/bin/$c"
  chmod +x "$tmp/bin/$c"
done
clean_make() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS PATH="$tmp/bin:$PATH" make --no-print-directory "$@"; }

# what is missing, asked package by package (not the way install-deps.sh asks)
pkgs=$(sed -n '/^PKGS="/,/"$/p' scripts/install-deps.sh | sed 's/PKGS=//; s/"//g')
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ] || [ -z "$pkgs" ]; then
  skip "packages missing here ($missing): make deps must install them (not tested)"
else
  rm -f "$tmp/called"
  out=$(clean_make deps 2>&1); r=$?
  if [ $r -eq 0 ] && [ -z "$out" ] && [ ! -f "$tmp/called" ]; then ok "make deps with everything installed: silent, no apt-get, no sudo"
  else echo "$out"; cat "$tmp/called" 2>/dev/null; bad "make deps (exit $r) printed or called apt-get/sudo"; fi
  out=$(clean_make -n check 2>&1)
  if ! echo "$out" | grep -q 'apt-get' && [ ! -f "$tmp/called" ]; then ok "make -n check: no apt-get in what it would run"
  else echo "$out" | grep 'apt-get'; bad "make -n check runs apt-get"; fi
  # the probe sees a call: with dpkg-query saying nothing is installed,
  # make deps does call (the fake) apt-get and fails
  printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/dpkg-query"; chmod +x "$tmp/bin/dpkg-query"
  clean_make deps > "$tmp/out" 2>&1; r=$?
  if [ $r -ne 0 ] && grep -q 'apt-get' "$tmp/called" 2>/dev/null && grep -q 'install-deps: installing:' "$tmp/out"; then
    ok "control: with packages missing, make deps calls apt-get (and says what it installs)"
  else cat "$tmp/out"; bad "control: missing packages did not reach apt-get (exit $r)"; fi
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
