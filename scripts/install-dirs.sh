#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
#
# The directories make install creates, so that make uninstall removes
# exactly those (and only while empty), not the shared ones that were there
# before (bin, lib, share/man/man1 of a prefix in use):
#
#   sh scripts/install-dirs.sh create LIST DESTDIR DIR...
#     creates each DIR (under DESTDIR) and adds to LIST (a path under
#     PREFIX, written under DESTDIR; kept across installs) every directory
#     this had to create, the missing parents included
#   sh scripts/install-dirs.sh remove LIST DESTDIR
#     removes LIST, then each directory it names, deepest first, when empty
#
# Paths in LIST are without DESTDIR, as installed.
set -u
cmd=$1 list=$2 destdir=$3
shift 3
case $cmd in
create)
  new=""
  for d in "$@" "$(dirname "$list")"; do
    while [ ! -d "$destdir$d" ] && [ "$d" != / ] && [ "$d" != . ]; do
      new="$new$d
"
      d=$(dirname "$d")
    done
  done
  for d in "$@"; do mkdir -p "$destdir$d" || exit 1; done
  mkdir -p "$destdir$(dirname "$list")" || exit 1
  { [ -f "$destdir$list" ] && cat "$destdir$list"; printf '%s' "$new"; } | sort -u > "$destdir$list.tmp" &&
    mv "$destdir$list.tmp" "$destdir$list"
  ;;
remove)
  [ -f "$destdir$list" ] || exit 0
  dirs=$(sort -r "$destdir$list")
  rm -f "$destdir$list"
  # deepest first: a child sorts after its parent
  printf '%s\n' "$dirs" | while IFS= read -r d; do
    [ -n "$d" ] && rmdir "$destdir$d" 2>/dev/null
  done
  true
  ;;
*)
  echo "usage: install-dirs.sh create|remove LIST DESTDIR [DIR...]" >&2
  exit 2
  ;;
esac
