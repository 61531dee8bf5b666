# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# make install into a temporary prefix (and a DESTDIR staging tree), then
# build and run the example against the installed copy using only
# pkg-config --cflags --libs libonnxslim, with the shared and the static library.
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
prefix="$tmp/prefix"
root_dir=$PWD
B=${B:-build}
if make -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then ok "make install PREFIX=$prefix"; else cat "$tmp/install.log"; bad "make install"; fi
for f in include/onnxslim.h include/onnxslim/model.h lib/libonnxslim.so lib/libonnxslim.a \
         lib/pkgconfig/libonnxslim.pc bin/libonnxslim; do
  [ -e "$prefix/$f" ] && ok "installed $f" || bad "missing $f"
done
real=$(ls "$prefix/lib" | grep -E '^libonnxslim\.so\.[0-9]+\.[0-9]+\.[0-9]+$')
[ -n "$real" ] && [ -L "$prefix/lib/libonnxslim.so.0" ] && ok "installed $real with symlinks" || bad "installed real file/symlinks"
# pkg-config must find this install first, whatever the caller's environment
# says: the caller's search path could hold another libonnxslim.pc, a sysroot
# would be prefixed to every path it prints, and a replaced default search
# path would hide the system's .pc files.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
[ "$(pkg-config --modversion libonnxslim)" = "$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)" ] && ok "pkg-config --modversion" || bad "pkg-config version"
if cc -std=c11 examples/summary.c $(pkg-config --cflags --libs libonnxslim) -o "$tmp/summary" &&
   LD_LIBRARY_PATH="$prefix/lib" "$tmp/summary" test/data/bert-tiny.onnx "$tmp/copy.onnx" > "$tmp/out.txt" &&
   cmp -s test/data/bert-tiny.onnx "$tmp/copy.onnx" && grep -q 'input_ids' "$tmp/out.txt"; then
  ok "example built with pkg-config against the installed shared library"
else
  bad "example against installed shared library"
fi
# the binary must have picked the installed library, not the build tree
LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/summary" | grep -q "$prefix/lib/libonnxslim.so.0" && ok "example resolves the installed libonnxslim.so.0" || bad "example library resolution"
if cc -std=c11 examples/summary.c $(pkg-config --cflags libonnxslim) "$prefix/lib/libonnxslim.a" $(pkg-config --libs-only-l --static libonnxslim | sed 's/-lonnxslim//') -o "$tmp/summary-static" &&
   "$tmp/summary-static" test/data/bert-tiny.onnx > /dev/null && ! ldd "$tmp/summary-static" | grep -q libonnxslim; then
  ok "example linked statically against the installed libonnxslim.a"
else
  bad "example against installed static library"
fi
"$prefix/bin/libonnxslim" info test/data/bert-tiny.onnx > /dev/null && ok "installed libonnxslim command runs" || bad "installed libonnxslim command"
# the manual page and the bash completion (checked against the command by
# step 63-cli-docs): installed as they are in the tree, found where man and
# bash-completion look
cmp -s man/libonnxslim.1 "$prefix/share/man/man1/libonnxslim.1" && ok "installed share/man/man1/libonnxslim.1" ||
  bad "missing or different share/man/man1/libonnxslim.1"
if command -v man > /dev/null 2>&1; then
  [ "$(MANPATH="$prefix/share/man" man -w libonnxslim 2>&1)" = "$prefix/share/man/man1/libonnxslim.1" ] &&
    ok "man -w libonnxslim finds it with MANPATH=$prefix/share/man" || bad "man -w libonnxslim"
fi
comp="$prefix/share/bash-completion/completions/libonnxslim"
if cmp -s completion/libonnxslim.bash "$comp" &&
   [ "$(bash --norc --noprofile -c '. "$1" && complete -p libonnxslim' x "$comp")" = "complete -F _libonnxslim libonnxslim" ]; then
  ok "installed share/bash-completion/completions/libonnxslim (registers _libonnxslim in bash)"
else
  bad "bash completion in share/bash-completion/completions/libonnxslim"
fi
# the Python package: where Debian's python3 looks for PREFIX, imported with
# /usr/bin/python3 from outside the tree, with nothing in the environment
# naming the library: it loads the one installed beside it ($prefix/lib is not
# on ldconfig's path), not the build tree's
PY=/usr/bin/python3
pyver=$($PY -c 'import sys; print("%d.%d" % sys.version_info[:2])')
version=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)
pyimport() { # SITE [ENV...]: version, library_path and the package's file, one a line
  site=$1; shift
  (cd / && env -u LIBONNXSLIM_LIBRARY -u LD_LIBRARY_PATH PYTHONPATH="$site" "$@" $PY -c \
    'import libonnxslim; print(libonnxslim.__version__); print(libonnxslim.library_path); print(libonnxslim.__file__)')
}
# where make install puts it for this prefix: python3's own layout for a
# prefix it does not search (scripts/python-dir.py)
site=$($PY scripts/python-dir.py "$prefix" | sed -n 1p)
case $site in "$prefix"/lib/python3*/site-packages) ok "python package dir for PREFIX=$prefix: $site" ;;
  *) bad "python package dir for PREFIX=$prefix: $site" ;; esac
if out=$(pyimport "$site" 2>&1) && printf '%s\n' "$out" | sed 's/^/  /' &&
   [ "$(printf '%s\n' "$out" | sed -n 1p)" = "$version" ] &&
   [ "$(printf '%s\n' "$out" | sed -n 2p)" = "$prefix/lib/libonnxslim.so.0" ] &&
   [ "$(printf '%s\n' "$out" | sed -n 3p)" = "$site/libonnxslim/__init__.py" ]; then
  ok "installed python package imports from / and loads $prefix/lib/libonnxslim.so.0"
else
  echo "$out"; bad "installed python package (PYTHONPATH=$site)"
fi
# every `cc` command of docs/building.md, as written there (backslash
# continuations joined; app.c is the example, app a file of ours), builds a
# program that runs; one that names libonnxslim.a must not need libonnxslim.so
awk '/^```sh$/ {on = 1; next} /^```/ {on = 0} on' docs/building.md |
  sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep -E '^cc ' | sed 's/ *#.*$//' > "$tmp/doc-cc.txt"
[ -s "$tmp/doc-cc.txt" ] || bad "no cc command found in docs/building.md"
while IFS= read -r line; do
  # the doc's build directory is ours ($B: build-posix and the like too)
  cmd=$(printf '%s\n' "$line" | sed -e 's| app\.c | examples/summary.c |' -e "s| -o app\$| -o $tmp/docapp|" \
    -e "s|-Lbuild |-L$B |; s| build/| $B/|g; s|/build\"|/$B\"|g")
  rm -f "$tmp/docapp"
  # a program linked through pkg-config has no rpath: the doc says to run ldconfig
  libpath=
  case $line in *pkg-config*) libpath="$prefix/lib" ;; esac
  if sh -c "$cmd" > "$tmp/doc-cc.log" 2>&1 &&
     LD_LIBRARY_PATH="$libpath" "$tmp/docapp" test/data/bert-tiny.onnx > /dev/null &&
     { ! printf '%s' "$line" | grep -q 'libonnxslim\.a' || ! ldd "$tmp/docapp" | grep -q libonnxslim; }; then
    ok "docs/building.md: $line"
  else
    cat "$tmp/doc-cc.log"
    bad "docs/building.md: $line"
  fi
done < "$tmp/doc-cc.txt"
# staged install: files land under DESTDIR, the .pc file names the final prefix
if make -s install PREFIX=/opt/libonnxslim DESTDIR="$tmp/stage" >/dev/null 2>&1 &&
   [ -f "$tmp/stage/opt/libonnxslim/lib/pkgconfig/libonnxslim.pc" ] &&
   [ -f "$tmp/stage/opt/libonnxslim/share/man/man1/libonnxslim.1" ] &&
   [ -f "$tmp/stage/opt/libonnxslim/share/bash-completion/completions/libonnxslim" ] &&
   grep -q '^prefix=${pcfiledir}/../..$' "$tmp/stage/opt/libonnxslim/lib/pkgconfig/libonnxslim.pc" &&
   [ ! -e /opt/libonnxslim ]; then
  ok "make install DESTDIR= PREFIX=/opt/libonnxslim stages correctly"
else
  bad "DESTDIR install"
fi
# staged installs for the real prefixes: the package lands where Debian's
# python3 looks (sys.path), _installed.py names the final LIBDIR, and the
# staged copy loads the staged library (LIBDIR relative to the package)
syspath=$($PY -c 'import sys; print("\n".join(sys.path))')
for p in /usr/local /usr; do
  case $p in /usr) pydir=/usr/lib/python3/dist-packages ;; *) pydir=$p/lib/python$pyver/dist-packages ;; esac
  st="$tmp/stage-$(basename $p)"
  if make -s install PREFIX=$p DESTDIR="$st" >"$tmp/install.log" 2>&1 &&
     printf '%s\n' "$syspath" | grep -qx "$pydir" &&
     grep -qx "LIBDIR = \"$p/lib\"" "$st$pydir/libonnxslim/_installed.py" &&
     { [ $p != /usr ] || grep -qx 'prefix=/usr' "$st/usr/lib/pkgconfig/libonnxslim.pc"; } &&
     out=$(pyimport "$st$pydir" 2>&1) &&
     [ "$(printf '%s\n' "$out" | sed -n 2p)" = "$st$p/lib/libonnxslim.so.0" ]; then
    ok "make install PREFIX=$p DESTDIR=...: package in $pydir (on $PY's sys.path), loads the staged library"
  else
    cat "$tmp/install.log"; echo "$out"; bad "staged python install for PREFIX=$p"
  fi
done
# pip install ./python with Debian's pip and setuptools, offline, in a venv
# (from a copy: pip builds in the source directory)
if $PY -m venv --system-site-packages "$tmp/venv" > "$tmp/venv.log" 2>&1 &&
   cp -r python "$tmp/pysrc" && rm -rf "$tmp/pysrc/build" "$tmp/pysrc"/*.egg-info &&
   "$tmp/venv/bin/pip" install -q --no-index --no-build-isolation "$tmp/pysrc" >> "$tmp/venv.log" 2>&1; then
  ok "pip install --no-index --no-build-isolation ./python (venv --system-site-packages)"
  vsite=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
  lib="$root_dir/$B/libonnxslim.so.0"
  out=$(cd / && env -u LD_LIBRARY_PATH -u PYTHONPATH LIBONNXSLIM_LIBRARY="$lib" "$tmp/venv/bin/python" -c \
    'import libonnxslim; print(libonnxslim.__version__); print(libonnxslim.library_path); print(libonnxslim.__file__)' 2>&1)
  if [ "$(printf '%s\n' "$out" | sed -n 1p)" = "$version" ] &&
     [ "$(printf '%s\n' "$out" | sed -n 2p)" = "$lib" ] &&
     [ "$(printf '%s\n' "$out" | sed -n 3p)" = "$vsite/libonnxslim/__init__.py" ]; then
    ok "the venv imports its libonnxslim, library from LIBONNXSLIM_LIBRARY"
  else
    echo "$out"; bad "venv import with LIBONNXSLIM_LIBRARY"
  fi
  # the system: ctypes.util.find_library, here through LD_LIBRARY_PATH
  out=$(cd / && env -u LIBONNXSLIM_LIBRARY -u PYTHONPATH LD_LIBRARY_PATH="$prefix/lib" "$tmp/venv/bin/python" -c \
    'import libonnxslim; print(libonnxslim.library_path)' 2>&1)
  if [ "$out" = "$prefix/lib/libonnxslim.so.0" ]; then
    ok "the venv's libonnxslim finds the system library (find_library): $out"
  else
    echo "$out"; bad "venv import through find_library"
  fi
else
  cat "$tmp/venv.log"; bad "pip install ./python in a venv"
fi
# pip install ./python, offline, with the python3 first on PATH (a pyenv one
# here: no `wheel` package, an old setuptools): the package builds with its
# own backend (python/_build/backend.py), nothing fetched; pip show says the
# licence and the metadata
for py in python3 /usr/bin/python3; do
  v="$tmp/venv-$(basename "$(dirname "$(command -v $py)")")"
  rm -rf "$tmp/pysrc2" && cp -r python "$tmp/pysrc2"
  if $py -m venv "$v" > "$tmp/venv2.log" 2>&1 &&
     "$v/bin/pip" install -q --no-index "$tmp/pysrc2" >> "$tmp/venv2.log" 2>&1 &&
     show=$("$v/bin/pip" show -v libonnxslim 2>&1) &&
     printf '%s\n' "$show" | grep -qx 'License: MIT' && printf '%s\n' "$show" | grep -qx 'Name: libonnxslim' &&
     printf '%s\n' "$show" | grep -q '^Summary: .\+' && printf '%s\n' "$show" | grep -q 'License :: OSI Approved :: MIT License' &&
     "$v/bin/python" -c 'import importlib.metadata as m; assert m.metadata("libonnxslim")["Requires-Python"] == ">=3.7"' &&
     [ "$(cd / && LIBONNXSLIM_LIBRARY="$root_dir/$B/libonnxslim.so.0" "$v/bin/python" -c 'import libonnxslim; print(libonnxslim.__version__)')" = "$version" ]; then
    ok "pip install --no-index ./python with $($py --version 2>&1) ($(command -v $py)): offline, no wheel package; pip show: MIT, summary, classifiers, Requires-Python"
  else
    tail -n 20 "$tmp/venv2.log"; printf '%s\n' "${show:-}"; bad "pip install --no-index ./python with $py"
  fi
done
rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
