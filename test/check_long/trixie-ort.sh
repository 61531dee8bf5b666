#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# examples/ort_recipe.c where onnxruntime's C API is packaged: a Debian
# trixie chroot (onnxruntime 1.21, libonnxruntime-dev) made with debootstrap,
# the repository's committed state (git archive HEAD) built there, and
#
#   1. the reranker made by bench/make_reranker (the 1.1 GB one; --quick: 2
#      layers, a 20000-word vocabulary);
#   2. `libonnxslim convert --gather-to bf16 --external-data` of it, and
#      ort_recipe --from-files loading those files in onnxruntime;
#   3. ort_recipe applying the same recipe in memory and handing the model
#      and its weights to onnxruntime from memory (no file written): with
#      AddInitializer (OrtValues over the library's bytes, the default) and
#      with AddExternalInitializersFromFilesInMemory (--files-in-memory);
#   4. the logits of the in-memory runs compared with those from the files
#      (they must be equal, bit for bit), and each run's peak RSS (VmHWM at
#      the end of the run, and the anonymous and file-backed parts of its
#      Rss at the end, from /proc/self/smaps_rollup).
#
#   sh test/check_long/trixie-ort.sh [--quick] [--keep]
#
# Needs root (debootstrap, chroot, mounts) and Debian's mirror (the one this
# machine's apt uses, else deb.debian.org). The base tree (trixie minbase
# with the build's packages and libonnxruntime-dev) is made once and cached
# in $TMPDIR/trixie-ort-base-CKSUM.tar (named by its package list); each
# run unpacks a fresh copy and removes it at the end (--keep leaves it).
# Ends with "N passed, N failed"; exit 0 when nothing failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
quick=0 keep=0
for a in "$@"; do
  case $a in
  --quick) quick=1 ;;
  --keep) keep=1 ;;
  *) echo "usage: sh test/check_long/trixie-ort.sh [--quick] [--keep]" >&2; exit 2 ;;
  esac
done
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
start=$(date +%s)
finish() { echo "trixie-ort: $(($(date +%s) - start)) s"; echo "$passed passed, $failed failed"; [ $failed -eq 0 ]; exit $?; }
[ "$(id -u)" = 0 ] || { bad "needs root (debootstrap, chroot)"; finish; }

t=${TMPDIR:-/tmp}
# the packages apt-get installs in the base (debootstrap's own resolver
# cannot install libonnxruntime-dev: it needs a virtual package)
pkgs="build-essential pkg-config libonnxruntime-dev nanopb libnanopb-dev libonnx-dev nettle-dev libxxhash-dev procps"
base=$t/trixie-ort-base-$(echo "$pkgs" | cksum | cut -d ' ' -f 1).tar
work=$(mktemp -d "$t/trixie-ort.XXXXXX") || exit 2
root=$work/root
umount_all() { for m in dev/pts dev proc sys; do umount -l "$root/$m" 2>/dev/null; done; }
cleanup() {
  umount_all
  if [ $keep -eq 1 ]; then echo "trixie-ort: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ ! -f "$base" ]; then
  # the Debian mirror this machine's apt uses
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  if ! command -v debootstrap > /dev/null; then
    { apt-get update -qq && apt-get install -y -qq debootstrap; } > "$work/apt.log" 2>&1 ||
      { cat "$work/apt.log"; bad "apt-get install debootstrap"; finish; }
  fi
  echo "trixie-ort: making the base tree once (debootstrap trixie from $mirror, then apt-get install $pkgs) ..."
  if ! debootstrap --variant=minbase trixie "$work/base" "$mirror" > "$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log"
    bad "debootstrap trixie"
    finish
  fi
  cp /etc/resolv.conf "$work/base/etc/resolv.conf"
  if ! chroot "$work/base" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
       /bin/sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs && apt-get clean" \
       > "$work/apt.log" 2>&1; then
    tail -n 20 "$work/apt.log"
    bad "apt-get install in the trixie base"
    finish
  fi
  tar -C "$work/base" -cf "$base.tmp" . && mv "$base.tmp" "$base" && rm -rf "$work/base" ||
    { bad "cache the base tree in $base"; finish; }
fi
mkdir -p "$root" && tar -C "$root" -xf "$base" || { bad "unpack $base"; finish; }
mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" && mount -t sysfs sys "$root/sys" ||
  { bad "mounts in the chroot"; finish; }
in_root() { chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  /bin/sh -c "cd /src && $1"; }

# trixie's libnanopb-dev has its headers in /usr/include/nanopb/, where
# the Makefile (and nanopb's generated code, #include <pb.h>) does not look
for f in "$root"/usr/include/nanopb/*.h; do
  [ -e "$root/usr/include/${f##*/}" ] || ln -s "nanopb/${f##*/}" "$root/usr/include/${f##*/}"
done
ortver=$(chroot "$root" dpkg-query -W -f='${Version}' libonnxruntime-dev 2>/dev/null)
ok "trixie chroot with libonnxruntime-dev $ortver"
# the committed state of the repository
mkdir -p "$root/src" && git archive HEAD | tar -C "$root/src" -xf - || { bad "git archive HEAD"; finish; }
if in_root "make -j2 all > /tmp/build.log 2>&1 && make ort-recipe > /tmp/ort-build.log 2>&1 &&
            cc -std=c11 -O2 -Iinclude -Itest -o build/make_reranker bench/make_reranker.c -Lbuild -lonnxslim -Wl,-rpath,/src/build -lm"; then
  ok "libonnxslim, examples/ort_recipe.c and bench/make_reranker built in trixie"
else
  tail -n 20 "$root/tmp/build.log" "$root/tmp/ort-build.log" 2>/dev/null
  bad "build in trixie"
  finish
fi
if [ $quick -eq 1 ]; then mk="--layers 2 --vocab 20000"; else mk=""; fi
in_root "build/make_reranker /tmp/reranker.onnx $mk > /tmp/make_reranker.log 2>&1" ||
  { cat "$root/tmp/make_reranker.log"; bad "make_reranker $mk"; finish; }
size=$(stat -c %s "$root/tmp/reranker.onnx")
ok "reranker: $size bytes ($(tail -n 1 "$root/tmp/make_reranker.log"))"

# 2. the file-based recipe: the command writes the files, onnxruntime loads them
in_root "mkdir -p /tmp/files && build/libonnxslim convert /tmp/reranker.onnx /tmp/files/recipe.onnx \
  --gather-to bf16 --external-data > /tmp/convert.log 2>&1" ||
  { cat "$root/tmp/convert.log"; bad "libonnxslim convert --gather-to bf16 --external-data"; finish; }
ok "libonnxslim convert --gather-to bf16 --external-data: $(ls "$root/tmp/files" | tr '\n' ' ')"
run() { # NAME ARGS: ort_recipe, its stdout in /tmp/NAME.out
  if in_root "build/examples/ort_recipe $2 > /tmp/$1.out 2> /tmp/$1.err"; then
    ok "ort_recipe $2"
  else
    cat "$root/tmp/$1.err"
    bad "ort_recipe $2"
  fi
}
run files "--from-files /tmp/files/recipe.onnx"
run memory "/tmp/reranker.onnx"
run filesmem "--files-in-memory /tmp/reranker.onnx"
logits() { grep '^logits' "$root/tmp/$1.out"; }
for r in memory filesmem; do
  if [ -n "$(logits files)" ] && [ "$(logits files)" = "$(logits $r)" ]; then
    ok "logits of the run $r equal those from the files, bit for bit ($(logits $r | wc -l) values)"
  else
    echo "from files:"; logits files
    echo "$r:"; logits $r
    bad "logits of the run $r differ from those of the recipe's files"
  fi
done
logits files | sed 's/^/     /'
# 4. peak RSS, as each run printed it at its end
echo "peak RSS (VmHWM at the end of the run; anonymous and file-backed Rss at the end, from"
echo "/proc/self/smaps_rollup):"
printf '  %-55s %s\n' "from files (onnxruntime loads the recipe's files):" "$(grep '^rss' "$root/tmp/files.out")"
printf '  %-55s %s\n' "in memory (AddInitializer, OrtValues over the bytes):" "$(grep '^rss' "$root/tmp/memory.out")"
printf '  %-55s %s\n' "in memory (AddExternalInitializersFromFilesInMemory):" "$(grep '^rss' "$root/tmp/filesmem.out")"
printf '  %-55s %s\n' "in memory, after the recipe, before onnxruntime:" "$(sed -n 's/^after the recipe: //p' "$root/tmp/memory.out")"
grep -h ': session' "$root/tmp/files.out" "$root/tmp/memory.out" "$root/tmp/filesmem.out" | sed 's/^/  /'
finish
