# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The tests hold wherever the tree is and whatever the caller's environment:
#  - the unit tests pass when run from a copy of the build under a mode-700
#    directory that other users cannot enter (test_save runs a child as
#    nobody, which must not need to read the tree);
#  - the install step passes when the caller sets PKG_CONFIG_PATH,
#    PKG_CONFIG_LIBDIR and PKG_CONFIG_SYSROOT_DIR to places that do not exist.
set -u
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "skip $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- a copy of the built unit tests under a private directory --------------
priv="$tmp/private"
mkdir -m 700 "$priv" && mkdir -p "$priv/tree/build"
cp -a "$B/test" "$B/test-static" "$priv/tree/build/" &&
  cp -a "$B"/libonnxslim.so* "$priv/tree/build/" &&
  cp -a test "$priv/tree/" || bad "copy the build"
if [ "$(id -u)" = 0 ]; then
  # make sure the setting is what it claims: nobody cannot read the copy
  if setpriv --reuid=65534 --regid=65534 --clear-groups \
       test -r "$priv/tree/test/data/bert-tiny.onnx" 2>/dev/null; then
    bad "nobody can read a file under a mode-700 directory (the check proves nothing)"
  else
    ok "nobody cannot read the private copy"
  fi
else
  skip "not root: the child of test_save keeps our user, other users are not exercised"
fi
if (cd "$priv/tree" && B=build sh test/steps/10-unit.sh) > "$tmp/unit.log" 2>&1; then
  ok "unit tests pass from a copy under a mode-700 directory ($(tail -n 1 "$tmp/unit.log"))"
else
  grep -E '^(FAIL|==|test/)|CHECK failed|child status' "$tmp/unit.log" | tail -n 30
  bad "unit tests from a copy under a mode-700 directory"
fi

# ---- the install step in a hostile pkg-config environment ----------------------
if PKG_CONFIG_PATH=/nonexistent/pkgconfig PKG_CONFIG_LIBDIR=/nonexistent/pkgconfig \
   PKG_CONFIG_SYSROOT_DIR=/nonexistent sh test/steps/50-install.sh > "$tmp/install.log" 2>&1; then
  ok "install step passes with PKG_CONFIG_PATH, PKG_CONFIG_LIBDIR, PKG_CONFIG_SYSROOT_DIR set"
else
  tail -n 30 "$tmp/install.log"
  bad "install step with PKG_CONFIG_* set by the caller"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
