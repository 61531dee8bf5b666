#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# make check-long: the Debian packages (debian/, docs/building.md "Debian
# packages") build from the release tarball, pass lintian without errors,
# and work when installed in a clean Debian 12:
#
#   1. installs what it needs with apt-get, only when missing (debhelper,
#      dpkg-dev, lintian, debootstrap, and debian/control's Build-Depends);
#   2. unpacks make dist's tarball and runs dpkg-buildpackage -us -uc -b there;
#   3. lintian on the build (fails on errors; prints the warnings);
#   4. a clean Debian 12 (debootstrap --variant=minbase, with make, gcc,
#      g++, pkg-config and cmake; the base is made once and cached in
#      $TMPDIR/debian-check-base-CKSUM.tar) where apt-get installs the four
#      .debs, and their dependencies from Debian's archive;
#   5. there: examples/summary.c built with pkg-config, examples/ with CMake
#      (find_package(libonnxslim)), both run on test/data/bert-tiny.onnx;
#      libonnxslim --version and info; Debian's python3 imports libonnxslim
#      from the package and loads the packaged library.
#
# Needs root (apt-get, chroot, mounts) and the network (Debian's mirror: the
# one this machine's apt uses). Ends with "N passed, N failed"; exit 0 when
# nothing failed. Time (2 cores): 1 to 3 minutes with the base cached (the
# package build is most of it), plus 2 to 3 for debootstrap the first time.
set -u
cd "$(dirname "$0")/../.." || exit 2
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
finish() { echo "debian-check: $(($(date +%s) - start)) s"; echo "$passed passed, $failed failed"; [ $failed -eq 0 ]; exit $?; }
start=$(date +%s)
[ "$(id -u)" = 0 ] || { bad "needs root (apt-get, debootstrap, chroot)"; finish; }

t=${TMPDIR:-/tmp}
# the base's packages; its cache file is named by them, so a changed list
# makes a new base
include=make,gcc,g++,libc6-dev,pkg-config,cmake
base=$t/debian-check-base-$(echo "$include" | cksum | cut -d ' ' -f 1).tar
work=$(mktemp -d "$t/debian-check.XXXXXX") || exit 2
root=$work/root
umount_all() { for m in dev/pts dev proc sys; do umount -l "$root/$m" 2>/dev/null; done; }
trap 'umount_all; rm -rf "$work"' EXIT
export DEBIAN_FRONTEND=noninteractive
version=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)
debver=$(sed -n '1s/^libonnxslim (\([^)]*\)).*/\1/p' debian/changelog)
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

# 1. tools and build dependencies, only those missing (dpkg-query knows no
# virtual package: dh-sequence-python3 is dh-python's)
builddeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed -e '1s/^Build-Depends://' -e '/^[A-Z]/d' |
  tr ',' '\n' | sed -e 's/([^)]*)//' -e 's/:any//' -e 's/[[:space:]]//g' -e 's/^dh-sequence-python3$/dh-python/' |
  grep -v '^debhelper-compat$' | grep .)
need=""
for p in debhelper dpkg-dev lintian debootstrap fakeroot $builddeps; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || need="$need $p"
done
if [ -n "$need" ]; then
  echo "debian-check: apt-get install$need"
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends $need; } > "$work/apt.log" 2>&1 ||
    { tail -n 20 "$work/apt.log"; bad "apt-get install$need"; finish; }
fi
ok "tools and build dependencies installed${need:+ (installed now:$need)}"

# 2. the packages, from the release tarball
mkdir "$work/src"
sh scripts/dist.sh "$version" "$work/src" > "$work/dist.log" 2>&1 || { cat "$work/dist.log"; bad "make dist"; finish; }
(cd "$work/src" && tar xzf "libonnxslim-$version.tar.gz") || { bad "unpack the tarball"; finish; }
t0=$(date +%s)
if (cd "$work/src/libonnxslim-$version" && dpkg-checkbuilddeps && dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1; then
  ok "dpkg-buildpackage -us -uc -b in the unpacked tarball ($(($(date +%s) - t0)) s; dpkg-gensymbols -c4: the symbols file is exact)"
else
  tail -n 30 "$work/build.log"; bad "dpkg-buildpackage failed (log above)"; finish
fi
debs=""
for p in libonnxslim0 libonnxslim-dev libonnxslim-tools python3-libonnxslim; do
  f="$work/src/${p}_${debver}_$arch.deb"
  [ -f "$f" ] && debs="$debs $f" || bad "no $(basename "$f")"
done
[ $failed -eq 0 ] || finish
ok "the four packages:$(for f in $debs; do printf ' %s' "$(basename "$f")"; done)"
# what each holds (the lists of docs/building.md)
c() { dpkg-deb -c "$work/src/${1}_${debver}_$arch.deb" | awk '{print $6}' | sed 's|^\./|/|'; }
c libonnxslim0 | grep -qx "/usr/lib/$multiarch/libonnxslim.so.$version" &&
  ! c libonnxslim0 | grep -q -e '\.a$' -e '/include/' -e '^/usr/bin/' && ok "libonnxslim0: the shared library only" || bad "libonnxslim0's contents"
f0=$failed
for f in /usr/include/onnxslim.h /usr/include/onnxslim.hpp /usr/lib/$multiarch/libonnxslim.a /usr/lib/$multiarch/libonnxslim.so \
  /usr/lib/$multiarch/pkgconfig/libonnxslim.pc /usr/lib/$multiarch/cmake/libonnxslim/libonnxslimConfig.cmake; do
  c libonnxslim-dev | grep -qx "$f" || bad "libonnxslim-dev has no $f"
done; [ $failed -eq $f0 ] && ok "libonnxslim-dev: headers, C++ header, static library, .so link, pkg-config, CMake"
f0=$failed
for f in /usr/bin/libonnxslim /usr/share/man/man1/libonnxslim.1.gz /usr/share/bash-completion/completions/libonnxslim; do
  c libonnxslim-tools | grep -qx "$f" || bad "libonnxslim-tools has no $f"
done; [ $failed -eq $f0 ] && ok "libonnxslim-tools: command, man page, completion"
c python3-libonnxslim | grep -qx /usr/lib/python3/dist-packages/libonnxslim/__init__.py &&
  ok "python3-libonnxslim: /usr/lib/python3/dist-packages/libonnxslim" || bad "python3-libonnxslim's contents"
dpkg-deb --fsys-tarfile "$work/src/libonnxslim-tools_${debver}_$arch.deb" | tar -xO ./usr/bin/libonnxslim > "$work/cli"
readelf -d "$work/cli" | grep -q -e RPATH -e RUNPATH && bad "the command has an rpath: $(readelf -d "$work/cli" | grep PATH)" ||
  ok "the command has no rpath"
dpkg-deb --fsys-tarfile "$work/src/libonnxslim-dev_${debver}_$arch.deb" | tar -xO "./usr/lib/$multiarch/pkgconfig/libonnxslim.pc" > "$work/pc"
grep -qx 'prefix=/usr' "$work/pc" && ok "pkg-config file: prefix=/usr" || bad "pkg-config file: $(grep prefix= "$work/pc")"

# 3. lintian: errors fail, warnings are printed
lintian "$work/src/libonnxslim_${debver}_$arch.changes" > "$work/lintian.log" 2>&1
grep -E '^[EW]: ' "$work/lintian.log" | sed 's/^/    /'
ne=$(grep -c '^E: ' "$work/lintian.log") nw=$(grep -c '^W: ' "$work/lintian.log")
[ "$ne" -eq 0 ] && ok "lintian: no errors ($nw warnings)" || bad "lintian: $ne errors"

# 4. a clean Debian 12, the base made once
if [ ! -f "$base" ]; then
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  echo "debian-check: making the Debian 12 base with debootstrap (once; cached in $base) ..."
  t0=$(date +%s)
  if debootstrap --variant=minbase --include="$include" bookworm "$work/base" "${mirror:-http://deb.debian.org/debian}" \
      > "$work/debootstrap.log" 2>&1 && tar -C "$work/base" -cf "$base.tmp" . && mv "$base.tmp" "$base"; then
    ok "debootstrap bookworm --variant=minbase ($(($(date +%s) - t0)) s)"
  else
    tail -n 20 "$work/debootstrap.log"; rm -f "$base.tmp"; bad "debootstrap"; finish
  fi
  rm -rf "$work/base"
fi
mkdir "$root" && tar -C "$root" -xf "$base" || { bad "unpack $base"; finish; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" && mount -t sysfs sys "$root/sys" ||
  { bad "mount proc, dev, sys in the chroot"; finish; }
mkdir -p "$root/work/debs" "$root/work/data"
cp $debs "$root/work/debs/" && cp -r examples "$root/work/examples" && cp test/data/bert-tiny.onnx "$root/work/data/"
# runs a command in the chroot, as a clean login would (no variable of ours)
inroot() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c "cd /work && $1"
}
if inroot 'command -v python3' > /dev/null 2>&1; then bad "the clean Debian already has python3"; fi
t0=$(date +%s)
if inroot 'apt-get update -qq && apt-get install -y --no-install-recommends ./debs/*.deb' > "$work/install.log" 2>&1; then
  ok "apt-get install ./*.deb in the chroot ($(($(date +%s) - t0)) s; from Debian: $(sed -n 's/^Unpacking \([^ :]*\).*/\1/p' "$work/install.log" |
    grep -v -x -e libonnxslim0 -e libonnxslim-dev -e libonnxslim-tools -e python3-libonnxslim | wc -l) packages, python3 and nettle-dev among them)"
else
  tail -n 20 "$work/install.log"; bad "apt-get install of the packages in the chroot"; finish
fi
inroot 'dpkg-query -W -f="\${Version}\n" python3 nettle-dev' > "$work/q" 2>&1 && [ "$(wc -l < "$work/q")" = 2 ] &&
  ok "python3 and nettle-dev came from Debian's archive as dependencies" || bad "dependencies: $(cat "$work/q")"

# 5. use them
out=$(inroot 'cc -Wall -Werror -o /tmp/summary examples/summary.c $(pkg-config --cflags --libs libonnxslim) && /tmp/summary data/bert-tiny.onnx' 2>&1)
[ $? -eq 0 ] && [ -n "$out" ] && ok "examples/summary.c with pkg-config, run on bert-tiny: $(echo "$out" | head -n 1)" ||
  { echo "$out" | tail -n 10; bad "examples/summary.c with pkg-config"; }
out=$(inroot 'cmake -S examples -B /tmp/ex && cmake --build /tmp/ex && /tmp/ex/summary data/bert-tiny.onnx' 2>&1)
[ $? -eq 0 ] && ok "examples/ with CMake (find_package(libonnxslim)), summary run on bert-tiny" ||
  { echo "$out" | tail -n 10; bad "examples/ with CMake"; }
# the loader's path (through merged /usr's /lib link, or not), resolved, is
# the file of libonnxslim0; no rpath leads elsewhere
out=$(inroot 'so=$(ldd /tmp/ex/summary | sed -n "s/^.*libonnxslim.so.0 => \([^ ]*\) .*/\1/p"); real=$(readlink -f "$so");
  echo "$so -> $real"; dpkg -S "$real"; readelf -d /tmp/ex/summary | grep -c -e RPATH -e RUNPATH' 2>&1)
if echo "$out" | sed -n 1p | grep -q " -> /usr/lib/$multiarch/libonnxslim.so.$version\$" &&
  echo "$out" | sed -n 2p | grep -q "^libonnxslim0:$arch: " && [ "$(echo "$out" | sed -n 3p)" = 0 ]; then
  ok "the CMake-built example loads libonnxslim0's library, no rpath ($(echo "$out" | sed -n 1p))"
else
  echo "$out"; bad "the CMake-built example's library"
fi
out=$(inroot 'libonnxslim --version' 2>&1)
echo "$out" | grep -q "$version" && ok "libonnxslim --version: $(echo "$out" | head -n 1)" || bad "libonnxslim --version: $out"
out=$(inroot 'libonnxslim info data/bert-tiny.onnx' 2>&1)
[ $? -eq 0 ] && [ -n "$out" ] && ok "libonnxslim info bert-tiny.onnx: $(echo "$out" | head -n 1)" || { echo "$out" | tail; bad "libonnxslim info"; }
out=$(inroot '/usr/bin/python3 -c "import libonnxslim; print(libonnxslim.__version__); print(libonnxslim.library_path); print(libonnxslim.__file__)"' 2>&1)
if [ "$(echo "$out" | sed -n 1p)" = "$version" ] && [ "$(echo "$out" | sed -n 2p)" = "/usr/lib/$multiarch/libonnxslim.so.0" ] &&
  [ "$(echo "$out" | sed -n 3p)" = /usr/lib/python3/dist-packages/libonnxslim/__init__.py ]; then
  ok "python3: import libonnxslim $version from dist-packages, library_path /usr/lib/$multiarch/libonnxslim.so.0"
else
  echo "$out" | tail -n 10; bad "python3 -c 'import libonnxslim'"
fi
finish
