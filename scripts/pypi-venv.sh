#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Creates (or reuses) a venv of Debian's python3 with packages from PyPI at
# the versions pinned in scripts/pypi-pins.txt.
#
#   scripts/pypi-venv.sh DIR PACKAGE...
#
# Exit 0: DIR/bin/python has every PACKAGE. Exit 77: PyPI could not be
# reached or a package could not be installed; the last line of stderr says
# "skip: ..." naming what is missing (callers print it and count a skip,
# never a pass). Other exits: a real error.
# PYPI_PINS=FILE (in scripts/) takes another pins file; PYPI_SYSTEM_SITE=1
# makes the venv see Debian's packages (--system-site-packages: Debian's
# python3-torch for onnxruntime's HQQ, with scripts/pypi-pins-hqq.txt).
set -u
dir=$1; shift
pins="$(cd "$(dirname "$0")" && pwd)/${PYPI_PINS:-pypi-pins.txt}"
stamp="$dir/.pins-$(sha256sum "$pins" | cut -c1-16)-$(echo "$*" | tr ' ' '+')"
[ -x "$dir/bin/python" ] && [ -e "$stamp" ] && exit 0
rm -rf "$dir"
if ! /usr/bin/python3 -m venv ${PYPI_SYSTEM_SITE:+--system-site-packages} "$dir" > "$dir.log" 2>&1; then
  cat "$dir.log" >&2; echo "pypi-venv: python3 -m venv failed (Debian package python3-venv: make deps)" >&2; exit 1
fi
if ! timeout 600 "$dir/bin/pip" install -q --disable-pip-version-check -c "$pins" "$@" >> "$dir.log" 2>&1; then
  tail -n 3 "$dir.log" >&2
  echo "skip: could not install $* from PyPI (pins: scripts/pypi-pins.txt; log: $dir.log)" >&2
  rm -rf "$dir"
  exit 77
fi
touch "$stamp"
