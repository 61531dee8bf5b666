#!/bin/sh
# Installs the Debian packages libonnxslim's build, tests and demo need,
# only those missing. Nothing else is downloaded. Runs apt-get as root, or
# through sudo when available.
set -eu
PKGS="nanopb libnanopb-dev libonnx-dev python3-onnx python3-numpy libonnx-testdata
      pkg-config clang libclang-rt-14-dev valgrind abigail-tools g++ xxd time nettle-dev libxxhash-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
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
