#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# `make dist`: writes libonnxslim-VERSION.tar.gz, the release tarball.
#
#   scripts/dist.sh VERSION [OUTDIR]
#
# Contents: every file git tracks (as in the work tree), under
# libonnxslim-VERSION/, nothing of .git. Reproducible: the same tree gives
# the same bytes, whoever runs it when: entries sorted by name, every mtime
# SOURCE_DATE_EPOCH (default: the last commit's time), owner and group 0,
# permissions from git's modes (644, or 755 for executables), no atime or
# ctime, gzip without a name or time stamp.
set -eu
version=$1
out=${2:-.}
cd "$(dirname "$0")/.."
command -v git > /dev/null 2>&1 && git rev-parse --is-inside-work-tree > /dev/null 2>&1 || {
  echo "dist.sh: make dist needs the git checkout (its list of files); an unpacked release is already one" >&2; exit 1; }
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
base="libonnxslim-$version"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git ls-files -z > "$tmp/files"
mkdir "$tmp/$base"
xargs -0 cp --parents -t "$tmp/$base" < "$tmp/files"
# modes as git records them
git ls-files -s -z | tr '\0' '\n' | awk '$1 == "100755" {sub(/^[^\t]*\t/, ""); print}' > "$tmp/exec"
(cd "$tmp/$base" && find . -type f -exec chmod 644 {} + && find . -type d -exec chmod 755 {} + &&
  while IFS= read -r f; do chmod 755 "$f"; done < "$tmp/exec")
(cd "$tmp" && tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --format=posix \
  --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf - "$base") |
  gzip -n -9 > "$tmp/$base.tar.gz"
mv "$tmp/$base.tar.gz" "$out/$base.tar.gz"
echo "$out/$base.tar.gz: $(wc -c < "$out/$base.tar.gz") bytes, $(wc -l < "$tmp/exec") executables, $(tr -cd '\0' < "$tmp/files" | wc -c) files, mtime $epoch"
