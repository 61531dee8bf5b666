# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# make dist: libonnxslim-VERSION.tar.gz is reproducible (the same bytes when
# run twice, at another time and umask), holds every tracked file and
# nothing of .git, and builds outside git: unpacked in an empty directory,
# with a `git` on PATH that always fails, `make` builds the library, the
# command and the examples, and the licence, names and corpus steps pass.
# (make check-long runs make check's steps, but 79 and 80, in such a tree:
# test/check_long/dist-check.sh.)
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
B=${B:-build}
# An unpacked release has no git: it cannot make a tarball of its own (dist.sh
# needs git's file list) and is itself the build-without-git the last checks
# make. Its 7 checks are skipped there, not passed.
if ! { command -v git > /dev/null 2>&1 && git rev-parse --is-inside-work-tree > /dev/null 2>&1; }; then
  echo "skip: not a git checkout (an unpacked release): make dist needs git's file list"
  echo "0 passed, 0 failed, 7 skipped"
  exit 0
fi
version=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/a" "$tmp/b"
if sh scripts/dist.sh "$version" "$tmp/a" > "$tmp/dist.log" 2>&1 &&
   sleep 1 && (umask 077 && sh scripts/dist.sh "$version" "$tmp/b") >> "$tmp/dist.log" 2>&1; then
  ok "make dist: $(sed -n 1p "$tmp/dist.log")"
else
  cat "$tmp/dist.log"; bad "make dist"
fi
tgz="libonnxslim-$version.tar.gz"
cmp -s "$tmp/a/$tgz" "$tmp/b/$tgz" && ok "two runs (another second, umask 077) give the same bytes: $(sha256sum < "$tmp/a/$tgz" | cut -c1-16)" ||
  bad "two runs of make dist differ"
tar tzf "$tmp/a/$tgz" | sed "s|^libonnxslim-$version/||" | grep -v '/$' | grep -v '^$' | sort > "$tmp/in-tar"
git ls-files | sort > "$tmp/tracked"
if cmp -s "$tmp/in-tar" "$tmp/tracked"; then
  ok "the tarball holds exactly the $(wc -l < "$tmp/tracked") tracked files"
else
  diff "$tmp/tracked" "$tmp/in-tar" | head; bad "tarball contents differ from git ls-files"
fi
tar tzf "$tmp/a/$tgz" | grep -q '/\.git/' && bad "the tarball has .git" || ok "nothing of .git in it"
tar tzvf "$tmp/a/$tgz" | awk '$2 != "0/0" {bad = 1} END {exit bad}' && ok "every entry owned by 0/0" || bad "owners in the tarball"
# build it outside git
mkdir -p "$tmp/nogit" "$tmp/unpack"
printf '#!/bin/sh\necho "git: not available in this test" >&2\nexit 127\n' > "$tmp/nogit/git"
chmod +x "$tmp/nogit/git"
(cd "$tmp/unpack" && tar xzf "$tmp/a/$tgz")
src="$tmp/unpack/libonnxslim-$version"
if (cd "$src" && PATH="$tmp/nogit:$PATH" make -s -j2 all examples) > "$tmp/make.log" 2>&1; then
  ok "unpacked in an empty directory, make builds without git"
else
  tail -n 30 "$tmp/make.log"; bad "make in the unpacked tarball"
fi
if (cd "$src" && PATH="$tmp/nogit:$PATH" sh test/run.sh 01-licence 02-names 20-corpus) > "$tmp/run.log" 2>&1; then
  ok "there, test steps 01-licence, 02-names, 20-corpus-roundtrip pass: $(tail -n 1 "$tmp/run.log")"
else
  cat "$tmp/run.log"; bad "test steps in the unpacked tarball"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
