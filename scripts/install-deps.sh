#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Installs the Debian packages libonnxslim's build, tests and demo need,
# only those missing. Nothing else is downloaded. Runs apt-get as root, or
# through sudo when available.
#
#   scripts/install-deps.sh           install what is missing; when nothing
#                                     is (one dpkg-query call), print
#                                     nothing and run no apt-get
#   scripts/install-deps.sh --bench   the same, and what only `make bench`
#                                     needs: python3-torch, for onnxruntime's
#                                     HQQ quantizer (section qpeers; its venv
#                                     is made over Debian's torch)
#   scripts/install-deps.sh --check   install nothing; fail with one line naming
#                                     `make deps` when something the build needs
#                                     is missing (the Makefile runs this before
#                                     it compiles)
set -eu
if [ "${1:-}" = "--check" ]; then
  # file the build reads -> the package that provides it
  missing=""
  need() { [ -e "$1" ] || missing="$missing $2"; }
  command -v nanopb_generator.py >/dev/null 2>&1 || missing="$missing nanopb"
  need /usr/include/pb.h libnanopb-dev
  # the archive of the compiler's own target (not an arm64 one beside it)
  ma=$(${CC:-cc} -print-multiarch 2>/dev/null || true)
  if [ -n "$ma" ]; then set -- "/usr/lib/$ma/libprotobuf-nanopb.a"; else set -- /usr/lib/*/libprotobuf-nanopb.a; fi
  a=""; for f in "$@" /usr/lib/libprotobuf-nanopb.a; do [ -e "$f" ] && a=$f; done
  [ -n "$a" ] || need /nonexistent/libprotobuf-nanopb.a libnanopb-dev
  need "${ONNX_PROTO:-/usr/include/onnx/onnx.proto}" libonnx-dev
  need /usr/include/nettle/sha1.h nettle-dev
  need /usr/include/xxhash.h libxxhash-dev
  [ -z "$missing" ] && exit 0
  echo "missing build dependencies (Debian packages:$missing): run 'make deps' first, or 'make demo' / 'make check', which install them" >&2
  exit 1
fi
PKGS="nanopb libnanopb-dev libonnx-dev python3-onnx python3-numpy libonnx-testdata
      pkg-config clang libclang-rt-14-dev valgrind abigail-tools g++ xxd time nettle-dev libxxhash-dev
      strace clang-format python3-pip python3-setuptools python3-wheel python3-venv cmake groff-base reuse
      mypy"
[ "${1:-}" = "--bench" ] && PKGS="$PKGS python3-torch"
# one dpkg-query for all of them (make check runs this every time)
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null |
  awk '$2 == "install" && $3 == "ok" && $4 == "installed" {printf "%s ", $1}')"
missing=""
for p in $PKGS; do
  case "$installed" in *" $p "*) ;; *) missing="$missing $p" ;; esac
done
# node and npm run onnxruntime-node for the numeric checks; the machine
# image may bring its own, else Debian's
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
