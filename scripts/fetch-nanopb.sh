#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
#
# sh scripts/fetch-nanopb.sh DIR
#
# nanopb's C runtime for a cross build whose system has no nanopb of its own
# (mingw-w64: Debian has no Windows build of it). Puts into DIR the source
# of exactly the nanopb Debian installed here (the version of
# libnanopb-dev, whose headers the library is compiled against):
# pb_common.c, pb_encode.c, pb_decode.c and their headers, from Debian's
# source package. apt-get fetches it with a sources list of its own (one
# deb-src line for this system's release, its lists under DIR/apt, the
# system's apt state untouched) and checks the files against the
# release's signed Sources index; dpkg-source unpacks it and applies
# Debian's patches. Then the headers must equal /usr/include's, byte for
# byte. Once DIR/pb_decode.c exists nothing is fetched again (the Makefile
# keeps DIR under the build directory). Prints one line saying what it did;
# exit status 1 with the reason when it cannot.
set -eu
dir=$1
die() {
  echo "fetch-nanopb.sh: $*" >&2
  exit 1
}
[ -f "$dir/pb_decode.c" ] && exit 0
ver=$(dpkg-query -W -f='${source:Version}' "libnanopb-dev:$(dpkg --print-architecture)" 2>/dev/null) ||
  die "libnanopb-dev is not installed (make deps installs it)"
[ -n "$ver" ] || die "dpkg-query gave no version of libnanopb-dev"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "no VERSION_CODENAME in /etc/os-release: which Debian release is this?"
command -v dpkg-source > /dev/null || die "dpkg-source is missing (Debian package dpkg-dev)"

mkdir -p "$(dirname "$dir")"
dir=$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir") # apt wants absolute paths
work="$dir.tmp"
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/get"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $codename main" > "$work/apt/sources.list"
# _apt cannot write into a root-owned build directory: download as the caller
set -- -q -o Dir::Etc::SourceList="$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
  -o Dir::State::Lists="$work/apt/lists" -o Dir::Cache="$work/apt/cache" -o APT::Sandbox::User="$(id -un)"
apt-get "$@" update > "$work/apt.log" 2>&1 || {
  cat "$work/apt.log" >&2
  die "apt-get update of the deb-src line failed"
}
(cd "$work/get" && apt-get "$@" source --download-only "nanopb=$ver") >> "$work/apt.log" 2>&1 || {
  cat "$work/apt.log" >&2
  die "apt-get source nanopb=$ver failed"
}
# (dpkg-source cannot check the uploader's signature without debian-keyring:
# it says so in the log; the files' checksums come from the signed index)
dpkg-source -x "$work/get/nanopb_${ver#*:}.dsc" "$work/src" >> "$work/apt.log" 2>&1 || {
  cat "$work/apt.log" >&2
  die "dpkg-source could not unpack nanopb $ver"
}
for h in pb.h pb_common.h pb_encode.h pb_decode.h; do
  cmp -s "$work/src/$h" "/usr/include/$h" ||
    die "$h of nanopb $ver's source differs from /usr/include/$h"
done
mkdir "$work/out"
for f in pb.h pb_common.h pb_encode.h pb_decode.h pb_common.c pb_encode.c pb_decode.c LICENSE.txt; do
  cp "$work/src/$f" "$work/out/$f"
done
cp "$work/src/debian/rules" "$work/out/debian-rules"
rm -rf "$dir"
mv "$work/out" "$dir"
rm -rf "$work"
echo "fetch-nanopb.sh: nanopb $ver from Debian's source package into $dir"
