#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# make check-long: the release tarball passes `make check` where it is
# unpacked, in an empty directory, with no git (a `git` on PATH that always
# fails): every step but 79-posix and 80-valgrind (below). Prints the run's
# last lines; exits as that run did.
set -u
cd "$(dirname "$0")/../.."
version=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sh scripts/dist.sh "$version" "$tmp" || exit 1
mkdir "$tmp/nogit" "$tmp/unpack"
printf '#!/bin/sh\necho "git: not available in this test" >&2\nexit 127\n' > "$tmp/nogit/git"
chmod +x "$tmp/nogit/git"
(cd "$tmp/unpack" && tar xzf "$tmp/libonnxslim-$version.tar.gz") || exit 1
cd "$tmp/unpack/libonnxslim-$version" || exit 1
# Every step but the two slowest, which build and test the same sources
# again in other ways (79-posix: the generic POSIX build, ~4 min; 80-valgrind:
# ~3 min) and read nothing the tarball could lack that the other steps do
# not (step 93-dist shows the tarball holds every tracked file); the
# checkout's own make check runs them. LIBONNXSLIM_DIST_ALL=1: every step.
steps=""
if [ -z "${LIBONNXSLIM_DIST_ALL:-}" ]; then
  for s in test/steps/*.sh; do
    n=$(basename "$s" .sh)
    case "$n" in 79-posix | 80-valgrind) ;; *) steps="$steps $n" ;; esac
  done
fi
echo "dist-check: make check's steps${steps:+ but 79-posix and 80-valgrind} in $PWD (no git)"
{ PATH="$tmp/nogit:$PATH" make deps tests && PATH="$tmp/nogit:$PATH" sh test/run.sh $steps; } > "$tmp/check.log" 2>&1; rc=$?
tail -n 8 "$tmp/check.log"
[ $rc -eq 0 ] && echo "dist-check: the unpacked tarball passes make check" || echo "dist-check: make check failed in the unpacked tarball (exit $rc)"
exit $rc
