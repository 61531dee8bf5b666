# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# One version everywhere. include/onnxslim/version.h
# is the source; every other place that states the version must agree with
# it: the running library (the command's --version), the installed
# pkg-config file and CMake package, Python's __version__ and pyproject.toml,
# the man page, make dist's file name, debian/changelog, the newest symbol
# node of the version script (MAJOR.MINOR) and the newest release heading of
# CHANGELOG.md.
set -u
. test/step-lib.sh

vh=include/onnxslim/version.h
v=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"$/\1/p' "$vh")
parts=$(for k in MAJOR MINOR PATCH; do sed -n "s/^#define ONNXSLIM_VERSION_$k \([0-9]*\)$/\1/p" "$vh"; done | paste -sd.)
[ -n "$v" ] && [ "$v" = "$parts" ] && ok "version.h: $v, its MAJOR.MINOR.PATCH macros agree" ||
  bad "version.h: ONNXSLIM_VERSION_STRING '$v' and the macros '$parts' disagree"
mm=${v%.*}
same() { # WHAT VALUE
  [ "$2" = "$v" ] && ok "$1: $2" || bad "$1 says '$2', version.h $v"
}

same "the command's --version (onnxslim_version_string)" "$("$cli" --version 2>&1 | sed -n 's/^libonnxslim //p')"
out=$(make -s -n dist 2>/dev/null | sed -n 's|.*scripts/dist.sh \([^ ]*\).*|\1|p')
same "make dist's version (its file name libonnxslim-VERSION.tar.gz)" "$out"
if make -s install B="$B" PREFIX="$tmp/p" > "$tmp/install.log" 2>&1; then
  same "the installed pkg-config file" "$(PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig" pkg-config --modversion libonnxslim 2>&1)"
  same "the installed CMake package" "$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$tmp/p/lib/cmake/libonnxslim/libonnxslimConfigVersion.cmake")"
else
  tail -n 20 "$tmp/install.log"; bad "make install PREFIX=$tmp/p"
fi
same "Python's __version__" "$(LIBONNXSLIM_LIBRARY="$B/libonnxslim.so.0" PYTHONPATH=python /usr/bin/python3 -c 'import libonnxslim; print(libonnxslim.__version__)' 2>&1)"
same "python/pyproject.toml" "$(sed -n 's/^version = "\(.*\)"$/\1/p' python/pyproject.toml)"
same "the man page's .TH line" "$(sed -n 's/^\.TH .* "libonnxslim \([^"]*\)".*/\1/p' man/libonnxslim.1)"
same "debian/changelog (its upstream part)" "$(sed -n '1s/^libonnxslim (\([^-)]*\)-[^)]*).*/\1/p' debian/changelog)"
node=$(sed -n 's/^ONNXSLIM_\([0-9]*\.[0-9]*\) {.*/\1/p' lib/onnxslim.map | tail -n 1)
# Symbols added after a release go to the next minor's node, which exists
# before that release while CHANGELOG.md opens with "## Unreleased".
next="${mm%.*}.$((${mm#*.} + 1))"
first=$(sed -n 's/^## \(.*\)$/\1/p' CHANGELOG.md | head -n 1)
if [ "$node" = "$mm" ]; then
  ok "the newest symbol node of lib/onnxslim.map: ONNXSLIM_$node"
elif [ "$node" = "$next" ] && [ "$first" = "Unreleased" ]; then
  ok "the newest symbol node of lib/onnxslim.map: ONNXSLIM_$node, the unreleased next minor (CHANGELOG opens with Unreleased)"
else
  bad "the newest symbol node is ONNXSLIM_$node, version.h's MAJOR.MINOR $mm (a release adds its node; symbols added after a release go to the next minor's, $next, while CHANGELOG.md opens with '## Unreleased')"
fi
same "the newest release heading of CHANGELOG.md" "$(sed -n 's/^## \([0-9][0-9.]*\) - [0-9-]*$/\1/p' CHANGELOG.md | head -n 1)"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
