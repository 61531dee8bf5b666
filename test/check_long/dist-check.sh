#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# make check-long: the release tarball passes the whole `make check` where it
# is unpacked, in an empty directory, with no git (a `git` on PATH that
# always fails). Prints the run's last lines; exits as that make check did.
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
echo "dist-check: make check in $PWD (no git)"
PATH="$tmp/nogit:$PATH" make check > "$tmp/check.log" 2>&1; rc=$?
tail -n 8 "$tmp/check.log"
[ $rc -eq 0 ] && echo "dist-check: the unpacked tarball passes make check" || echo "dist-check: make check failed in the unpacked tarball (exit $rc)"
exit $rc
