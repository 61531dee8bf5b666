#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
#
# arm64 Linux, cross-built and run under qemu-user (make check-arm64; make
# check-long runs it too). Installs what it needs when missing (Debian 12:
# the cross compilers, qemu-user-static, and the arm64 C library, nanopb
# and nettle, for which it enables dpkg's arm64 architecture), then:
#   1. make CROSS=aarch64-linux-gnu- tests (into build-aarch64-linux-gnu)
#   2. the unit tests (step 10-unit, against the shared library: the
#      static build is the same objects, run natively) under qemu's `max`
#      CPU, which has ARMv8.6 BF16: the neon-bf16 and neon kernel paths are
#      both compared with the scalar reference. LIBONNXSLIM_TEST_SCALE=10
#      (t_scaled() of test/t.h): the saves side by side of test_external
#      run 10 rounds instead of 100 (8 threads, then 4 processes, every
#      layout); test_convert's FP32 sample takes every 40991st pattern
#      instead of every 4099th (all exponents, odd and even patterns, every
#      boundary's neighbourhood), its FP64 sample 2^20 / 10 inputs; every
#      other test keeps its native size
#   3. test_convert_paths again under `cortex-a53` (ARMv8.0, no BF16): the
#      dispatcher falls back to the neon path
#   4. the exhaustive conversion check sampled: every ARM64_STRIDE-th block
#      of 2^16 inputs (default 512: 2^23 FP32 inputs, 4 * 2^23 FP64 inputs
#      for FP64 -> FP32, per kernel and flag set), on every path qemu's max
#      CPU has (scalar, neon, neon-bf16)
#   5. the command's conversions (test/check_long/convert_outputs.sh: the
#      recipe, the quantization forms, --to fp16, split, merge) on the
#      bundled models, byte-identical to this machine's build (B, default
#      build)
#   6. the command's test steps ARM64_CLI_STEPS (default 60 62 64 65 66 69
#      74) with the arm64 command ($cli of test/step-lib.sh runs it through
#      RUN); docs/building.md says why the others are left out
# Ends with "N passed, N failed"; prints the seconds each part took.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
AB=build-aarch64-linux-gnu
STRIDE=${ARM64_STRIDE:-512}
CLI_STEPS=${ARM64_CLI_STEPS:-60 62 64 65 66 69 74}
MAKE=${MAKE:-make}
# The arm64 programs run with Debian's arm64 loader and C library
# (libc6:arm64, /lib/ld-linux-aarch64.so.1), not with `-L
# /usr/aarch64-linux-gnu`: that prefix holds the cross toolchain's loader,
# which still finds libc.so.6 in /lib/aarch64-linux-gnu, libc6:arm64's, of
# another Debian revision once that is installed (nanopb and nettle need
# it). The two disagree on the layout of the loader's data: pthread_create
# then loops for ever walking glibc's stack cache (what made
# test_convert_model and convert_exhaustive "never finish" under qemu).
# timeout: a program that hangs all the same fails instead of holding CI.
unset QEMU_LD_PREFIX
export RUN='timeout 900 qemu-aarch64-static'
passed=0 failed=0
t0=$(date +%s) last=$t0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
# took: the seconds since the last call
took() { now=$(date +%s); echo "     ($((now - last)) s)"; last=$now; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

pkgs="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static libc6:arm64 libnanopb-dev:arm64 nettle-dev:arm64"
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

took

# 2. unit tests under the max CPU
if UNIT_LINKS=test LIBONNXSLIM_TEST_SCALE=10 QEMU_CPU=max B=$AB sh test/run.sh 10-unit >"$tmp/unit.log" 2>&1; then
  ok "unit tests under qemu-aarch64 -cpu max: $(tail -n 1 "$tmp/unit.log")"
else
  cat "$tmp/unit.log"
  bad "unit tests under qemu-aarch64 -cpu max"
fi
grep -q 'dispatched path on this CPU: neon-bf16' $AB/test-logs/10-unit.log &&
  ok "the max CPU dispatches to neon-bf16" || bad "the max CPU did not dispatch to neon-bf16"
took

# 3. the fallback without BF16
out=$(QEMU_CPU=cortex-a53 $RUN $AB/test/test_convert_paths 2>&1)
echo "$out" | grep -q 'dispatched path on this CPU: neon$' &&
  echo "$out" | grep -qE '^[0-9]+ passed, 0 failed' &&
  ok "cortex-a53: neon path, test_convert_paths passes" ||
  { echo "$out"; bad "cortex-a53: test_convert_paths"; }
took

# 4. the exhaustive check, sampled
if QEMU_CPU=max $RUN $AB/check_long/convert_exhaustive 2 "$STRIDE" >"$tmp/exh.log" 2>&1; then
  ok "convert_exhaustive, every ${STRIDE}th block, paths: $(grep 'checked$' "$tmp/exh.log" | grep -vc 'not checked')"
else
  tail -n 30 "$tmp/exh.log"
  bad "convert_exhaustive under qemu (stride $STRIDE)"
fi
took

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
took

# 6. the command's test steps, the command under qemu
# shellcheck disable=SC2086 # CLI_STEPS: one step number a word
if QEMU_CPU=max B=$AB sh test/run.sh $CLI_STEPS >"$tmp/cli.log" 2>&1; then
  ok "the command's steps $CLI_STEPS under qemu-aarch64: $(tail -n 1 "$tmp/cli.log")"
else
  cat "$tmp/cli.log"
  bad "the command's steps under qemu-aarch64"
fi
took
echo "arm64.sh: $(($(date +%s) - t0)) s in all"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
