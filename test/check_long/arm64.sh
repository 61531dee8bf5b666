#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
#
# arm64 Linux, cross-built and run under qemu-user (make check-arm64; make
# check-long runs it too). Installs what it needs when missing (Debian 12:
# the cross compilers, qemu-user-static, and the arm64 builds of nanopb and
# nettle, for which it enables dpkg's arm64 architecture), then:
#   1. make CROSS=aarch64-linux-gnu- tests (into build-aarch64-linux-gnu)
#   2. the unit tests (step 10-unit) under qemu's `max` CPU, which has
#      ARMv8.6 BF16: the neon-bf16 and neon kernel paths are both compared
#      with the scalar reference
#   3. test_convert_paths again under `cortex-a53` (ARMv8.0, no BF16): the
#      dispatcher falls back to the neon path
#   4. the exhaustive conversion check sampled: every ARM64_STRIDE-th block
#      of 2^16 inputs (default 256: 2^24 FP32 inputs), on every path qemu's
#      max CPU has
#   5. the command's conversions (test/check_long/convert_outputs.sh: the
#      recipe, the quantization forms, --to fp16, split, merge) on the
#      bundled models, byte-identical to this machine's build (B, default
#      build)
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
AB=build-aarch64-linux-gnu
STRIDE=${ARM64_STRIDE:-256}
MAKE=${MAKE:-make}
export RUN='qemu-aarch64-static -L /usr/aarch64-linux-gnu'
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

pkgs="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static libnanopb-dev:arm64 nettle-dev:arm64"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "arm64.sh: installing$missing"
  dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends $missing || { echo "arm64.sh: could not install$missing"; exit 1; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if $MAKE -s -j2 CROSS=aarch64-linux-gnu- tests $AB/check_long/convert_exhaustive >"$tmp/build.log" 2>&1 &&
  $MAKE -s -j2 all >>"$tmp/build.log" 2>&1; then
  ok "cross build (make CROSS=aarch64-linux-gnu- tests) and the native build"
else
  tail -n 30 "$tmp/build.log"
  bad "build"
  echo "$passed passed, $failed failed"
  exit 1
fi

# 2. unit tests under the max CPU
if QEMU_CPU=max B=$AB sh test/run.sh 10-unit >"$tmp/unit.log" 2>&1; then
  ok "unit tests under qemu-aarch64 -cpu max: $(tail -n 1 "$tmp/unit.log")"
else
  cat "$tmp/unit.log"
  bad "unit tests under qemu-aarch64 -cpu max"
fi
grep -q 'dispatched path on this CPU: neon-bf16' $AB/test-logs/10-unit.log &&
  ok "the max CPU dispatches to neon-bf16" || bad "the max CPU did not dispatch to neon-bf16"

# 3. the fallback without BF16
out=$(QEMU_CPU=cortex-a53 $RUN $AB/test/test_convert_paths 2>&1)
echo "$out" | grep -q 'dispatched path on this CPU: neon$' &&
  echo "$out" | grep -qE '^[0-9]+ passed, 0 failed' &&
  ok "cortex-a53: neon path, test_convert_paths passes" ||
  { echo "$out"; bad "cortex-a53: test_convert_paths"; }

# 4. the exhaustive check, sampled
if QEMU_CPU=max $RUN $AB/check_long/convert_exhaustive 2 "$STRIDE" >"$tmp/exh.log" 2>&1; then
  ok "convert_exhaustive, every ${STRIDE}th block, paths: $(grep -c 'checked$' "$tmp/exh.log")"
else
  tail -n 30 "$tmp/exh.log"
  bad "convert_exhaustive under qemu (stride $STRIDE)"
fi

# 5. the command's outputs, byte for byte
models="test/data/bert-tiny.onnx"
sh test/check_long/convert_outputs.sh $AB/libonnxslim "$tmp/arm" $models >/dev/null 2>&1
RUN= sh test/check_long/convert_outputs.sh $B/libonnxslim "$tmp/x86" $models >/dev/null 2>&1
if sh test/check_long/convert_outputs.sh --compare "$tmp/x86" "$tmp/arm" >"$tmp/cmp.log" 2>&1; then
  ok "command outputs: $(tail -n 1 "$tmp/cmp.log")"
else
  cat "$tmp/cmp.log"
  bad "command outputs differ between arm64 and $(uname -m)"
fi
n=$(find "$tmp/arm" -name '*.onnx' | wc -l)
[ "$n" -gt 10 ] && ok "arm64 command runs wrote $n models" || bad "arm64 command runs wrote $n models"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
